//! Every kind Go registers is registered here, and nothing else: the kinds of
//! `go-fields.json` (every struct of `k8s.io/api`, `apiextensions-apiserver` and
//! `kube-aggregator` that embeds `metav1.TypeMeta`, plus the kinds `metav1` registers
//! itself) against the scheme built from this crate. The groups come from the OpenAPI
//! document (`x-kubernetes-group-version-kind` of any definition of the same package),
//! not from the generator, so that a kind the generator misses cannot hide here.
//!
//! Every generated field has, likewise, the JSON name of its Go field's tag.
//!
//! The reference data is the release's (`../shared/k8s-api/v1.36` or `$K8S_API_DIR` for
//! 1.36, see `reference_data`);
//! without it the test passes with a note, unless `CI` is set.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use apimachinery::runtime::Scheme;
use apimachinery::schema::GroupVersionKind;
use serde_json::Value;

fn api_dir() -> PathBuf {
    super::reference_data()
}

fn read(name: &str) -> Option<Value> {
    let path = api_dir().join(name);
    let text = std::fs::read_to_string(&path).ok()?;
    serde_json::from_str(&text).ok()
}

/// Packages whose kinds the OpenAPI document does not name (no longer served, or never
/// REST resources), with their groups.
const UNNAMED_PACKAGES: &[(&str, &str)] = &[
    ("io.k8s.api.admission", "admission.k8s.io"),
    ("io.k8s.api.apidiscovery", "apidiscovery.k8s.io"),
    ("io.k8s.api.extensions", "extensions"),
    ("io.k8s.api.imagepolicy", "imagepolicy.k8s.io"),
];

/// What `metav1.AddToGroupVersion` registers in every group version, and unversioned.
const IN_EVERY_GROUP_VERSION: &[&str] = &[
    "WatchEvent",
    "ListOptions",
    "GetOptions",
    "DeleteOptions",
    "CreateOptions",
    "UpdateOptions",
    "PatchOptions",
];
const UNVERSIONED: &[&str] = &[
    "Status",
    "APIVersions",
    "APIGroupList",
    "APIGroup",
    "APIResourceList",
];
/// What `metav1.AddMetaToScheme` registers in `meta.k8s.io/v1` (and `metav1beta1`'s in
/// `v1beta1`), but `Table`: it has no protobuf message in the reference data (its cells
/// are arbitrary JSON values), so it is not generated; it is the one kind left out.
const META_KINDS: &[&str] = &[
    "TableOptions",
    "PartialObjectMetadata",
    "PartialObjectMetadataList",
];

#[test]
fn every_kind_go_registers_is_registered() -> Result<(), Box<dyn std::error::Error>> {
    let (Some(go), Some(swagger)) = (read("go-fields.json"), read("swagger.json")) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "no go-fields.json/swagger.json under {}",
            api_dir().display()
        );
        eprintln!(
            "note: no reference data at {}; skipped",
            api_dir().display()
        );
        return Ok(());
    };
    // Package prefix (`io.k8s.api.apps.v1`) → group, from the served definitions.
    let mut groups: BTreeMap<String, String> = BTreeMap::new();
    for (key, def) in swagger["definitions"].as_object().ok_or("no definitions")? {
        let Some((package, _)) = key.rsplit_once('.') else {
            continue;
        };
        if let Some([gvk]) = def["x-kubernetes-group-version-kind"]
            .as_array()
            .map(Vec::as_slice)
        {
            let group = gvk["group"].as_str().unwrap_or_default();
            // Group versions sharing a package base share the group.
            if let Some((base, _)) = package.rsplit_once('.') {
                groups
                    .entry(base.to_owned())
                    .or_insert_with(|| group.to_owned());
            }
        }
    }
    for (base, group) in UNNAMED_PACKAGES {
        groups.insert((*base).to_owned(), (*group).to_owned());
    }

    let mut expected: BTreeSet<GroupVersionKind> = BTreeSet::new();
    let mut group_versions: BTreeSet<(String, String)> = BTreeSet::new();
    for (key, st) in go.as_object().ok_or("go-fields.json is not an object")? {
        if key.starts_with("io.k8s.apimachinery.") {
            continue;
        }
        // Core's `type List metav1.List` has meta's List's fields, TypeMeta included.
        let embeds_type_meta = st["defined_as"] == "metav1.List"
            || st["fields"].as_array().is_some_and(|fields| {
                fields.iter().any(|f| {
                    f["embedded"] == true
                        && matches!(f["type"].as_str(), Some("metav1.TypeMeta" | "v1.TypeMeta"))
                })
            });
        if !embeds_type_meta {
            continue;
        }
        let (package, kind) = key.rsplit_once('.').ok_or("key without a package")?;
        let (base, version) = package
            .rsplit_once('.')
            .ok_or("package without a version")?;
        let group = groups
            .get(base)
            .ok_or_else(|| format!("{key}: no group known for {base}"))?;
        expected.insert(GroupVersionKind::new(group.as_str(), version, kind));
        group_versions.insert((group.clone(), version.to_owned()));
    }
    for (group, version) in &group_versions {
        for kind in IN_EVERY_GROUP_VERSION {
            expected.insert(GroupVersionKind::new(
                group.as_str(),
                version.as_str(),
                *kind,
            ));
        }
    }
    for kind in META_KINDS.iter().chain(IN_EVERY_GROUP_VERSION) {
        expected.insert(GroupVersionKind::new("meta.k8s.io", "v1", *kind));
    }
    // metav1beta1 registers the same four (three of them aliases of v1's types).
    for kind in META_KINDS {
        expected.insert(GroupVersionKind::new("meta.k8s.io", "v1beta1", *kind));
    }

    let mut scheme = Scheme::new();
    k8s_types::register(&mut scheme)?;
    let missing: Vec<String> = expected
        .iter()
        .filter(|gvk| !scheme.recognizes(gvk))
        .map(ToString::to_string)
        .collect();
    let unversioned: Vec<&str> = UNVERSIONED
        .iter()
        .copied()
        .filter(|kind| !scheme.recognizes(&GroupVersionKind::new("", "v1", *kind)))
        .collect();
    let extra: Vec<String> = scheme
        .all_known_types()
        .into_keys()
        .filter(|gvk| gvk.version != "__internal" && !expected.contains(*gvk))
        .filter(|gvk| !UNVERSIONED.contains(&gvk.kind.as_str()))
        .map(ToString::to_string)
        .collect();
    assert!(
        missing.is_empty() && unversioned.is_empty() && extra.is_empty(),
        "kinds Go registers that are not registered: {missing:#?}\nunversioned kinds missing: {unversioned:?}\nregistered kinds Go does not register: {extra:#?}"
    );
    // A sanity check on the reading itself (1.36 has 773).
    assert!(
        expected.len() > 700,
        "only {} kinds expected",
        expected.len()
    );
    Ok(())
}

/// Every field of every generated struct (as `src/generated/shapes.json` lists them)
/// under the JSON name of its Go field's tag: names OpenAPI does not spell like protobuf
/// (`x-kubernetes-preserve-unknown-fields`, `$ref`) and those of unserved versions
/// (`apiextensions/v1beta1`'s `JSONPath`) included.
#[test]
fn every_field_has_the_json_name_of_its_go_tag() -> Result<(), Box<dyn std::error::Error>> {
    let Some(go) = read("go-fields.json") else {
        assert!(
            std::env::var_os("CI").is_none(),
            "no go-fields.json under {}",
            api_dir().display()
        );
        eprintln!(
            "note: no reference data at {}; skipped",
            api_dir().display()
        );
        return Ok(());
    };
    let shapes: BTreeMap<String, Value> = serde_json::from_str(super::filled_objects::SHAPES)?;
    let (mut checked, mut wrong) = (0usize, Vec::new());
    for (key, st) in go.as_object().ok_or("go-fields.json is not an object")? {
        // `io.k8s.api.apps.v1.Deployment` is `apps/v1/Deployment` in the shapes.
        let mut parts = key.rsplit('.');
        let (Some(name), Some(version), Some(module)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let Some(shape) = shapes.get(&format!("{module}/{version}/{name}")) else {
            continue;
        };
        let names: BTreeSet<&str> = shape["fields"]
            .as_array()
            .map(|fields| fields.iter().filter_map(|f| f[0].as_str()).collect())
            .unwrap_or_default();
        for f in st["fields"].as_array().into_iter().flatten() {
            let json = f["json"].as_str().unwrap_or_default();
            // Fields on the wire with a name of their own (not inlined structs).
            if f["protobuf"].is_null() || f["inline"] == true || json.is_empty() || json == "-" {
                continue;
            }
            checked += 1;
            if !names.contains(json) {
                wrong.push(format!("{key}.{json}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "fields not under Go's JSON name: {wrong:#?}"
    );
    // Every shape has its Go struct; 1.36 has 4135 such fields.
    assert!(checked > 4000, "only {checked} fields checked");
    Ok(())
}
