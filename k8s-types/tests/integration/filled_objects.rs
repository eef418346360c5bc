//! Self-made fixtures: for every generated kind, an object with every field set (as Go's
//! fuzzer-filled compatibility fixtures are), built from `src/generated/shapes.json` in
//! Go's field order, decoded through the Scheme and re-encoded: the bytes must come back
//! unchanged, through the JSON serializer directly and after a trip through YAML and
//! through protobuf; its deep copy encodes alike. Deterministic: each leaf type has one fixed value.

use std::collections::BTreeMap;

use apimachinery::runtime::{API_VERSION_INTERNAL, Scheme};
use apimachinery::schema::{GroupVersionKind, GroupVersioner};
use apimachinery::serializer::json::{JsonSerializer, SerializerOptions};
use apimachinery::serializer::protobuf::ProtobufSerializer;
use apimachinery::serializer::{Decoder, Encoder};
use serde_json::Value;

// Linking the generated types registers them.
use k8s_types as _;

#[cfg(not(feature = "v1_37"))]
pub(crate) const SHAPES: &str = include_str!("../../src/generated/v1_36/shapes.json");
#[cfg(feature = "v1_37")]
pub(crate) const SHAPES: &str = include_str!("../../src/generated/v1_37/shapes.json");

/// JSON in a fixed member order, printed as Go's two-space indented encoder does.
enum J {
    Obj(Vec<(String, J)>),
    Arr(Vec<J>),
    Lit(String),
}

impl J {
    fn str(s: &str) -> J {
        J::Lit(format!("{s:?}"))
    }

    fn print(&self, indent: usize, out: &mut String) {
        let pad = |n: usize| "  ".repeat(n);
        match self {
            J::Lit(s) => out.push_str(s),
            J::Arr(items) if items.is_empty() => out.push_str("[]"),
            J::Obj(members) if members.is_empty() => out.push_str("{}"),
            J::Arr(items) => {
                out.push_str("[\n");
                for (i, item) in items.iter().enumerate() {
                    out.push_str(&pad(indent + 1));
                    item.print(indent + 1, out);
                    out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
                }
                out.push_str(&pad(indent));
                out.push(']');
            }
            J::Obj(members) => {
                out.push_str("{\n");
                for (i, (k, v)) in members.iter().enumerate() {
                    out.push_str(&pad(indent + 1));
                    out.push_str(&format!("{k:?}: "));
                    v.print(indent + 1, out);
                    out.push_str(if i + 1 < members.len() { ",\n" } else { "\n" });
                }
                out.push_str(&pad(indent));
                out.push('}');
            }
        }
    }
}

/// The meta/v1 kinds `apimachinery` registers as unversioned `v1` kinds.
const UNVERSIONED: &[&str] = &[
    "Status",
    "APIGroup",
    "APIGroupList",
    "APIResourceList",
    "APIVersions",
];

struct Filler<'a> {
    shapes: &'a BTreeMap<String, Value>,
    /// Types being filled, to cut recursive schemas.
    stack: Vec<String>,
}

impl Filler<'_> {
    fn leaf(&mut self, desc: &str, name: &str) -> Option<J> {
        Some(match desc {
            "string" => J::str(&format!("{name}Value")),
            "i32" => J::Lit("1".into()),
            "i64" => J::Lit("2".into()),
            "f64" | "f32" => J::Lit("0.5".into()),
            "bool" => J::Lit("true".into()),
            "bytes" => J::str("AQID"),
            "quantity" => J::str("500m"),
            "intorstring" => J::Lit("3".into()),
            "time" => J::str("2004-01-01T01:01:01Z"),
            "microtime" => J::str("2004-01-01T01:01:01.000001Z"),
            "duration" => J::str("1m0s"),
            "fieldsv1" => J::Obj(vec![("f:metadata".into(), J::Obj(vec![]))]),
            "json" => J::Obj(vec![("a".into(), J::Lit("1".into()))]),
            // An embedded object, re-indented with the rest as Go's encoder does.
            "raw" => J::Obj(vec![
                ("apiVersion".into(), J::str("example.com/v1")),
                ("kind".into(), J::str("CustomType")),
            ]),
            _ => {
                if let Some(inner) = desc.strip_prefix("[]") {
                    return Some(J::Arr(vec![self.leaf(inner, name)?]));
                }
                if let Some(inner) = desc.strip_prefix("{}") {
                    return Some(J::Obj(vec![(
                        format!("{name}Key"),
                        self.leaf(inner, name)?,
                    )]));
                }
                if let Some(r) = desc.strip_prefix("orarray:") {
                    return Some(J::Arr(vec![self.leaf(r, name)?]));
                }
                if let Some(r) = desc.strip_prefix("orbool:") {
                    return self.leaf(r, name).or(Some(J::Lit("true".into())));
                }
                if desc.starts_with("orstrings:") {
                    return Some(J::Arr(vec![J::str(&format!("{name}Value"))]));
                }
                let key = desc.strip_prefix("ref:")?;
                return self.object(key);
            }
        })
    }

    /// A value of the type `key` with every field set; `None` for a type already being
    /// filled (its field is left out, which optional recursive fields allow).
    fn object(&mut self, key: &str) -> Option<J> {
        if self.stack.iter().any(|k| k == key) {
            return None;
        }
        let shape = self.shapes.get(key)?;
        let mut members = Vec::new();
        let name = key.rsplit('/').next().unwrap_or(key);
        let kind = shape.get("kind").and_then(Value::as_array);
        match kind {
            Some(k) if k.get(2) == Some(&Value::Bool(true)) => {
                members.push(("kind".into(), J::Lit(k[1].to_string())));
                members.push(("apiVersion".into(), J::Lit(k[0].to_string())));
            }
            _ if key.starts_with("meta/v1/") && UNVERSIONED.contains(&name) => {
                members.push(("kind".into(), J::str(name)));
                members.push(("apiVersion".into(), J::str("v1")));
            }
            _ if shape.get("typeMeta").is_some() => {
                members.push(("kind".into(), J::str("kindValue")));
                members.push(("apiVersion".into(), J::str("apiVersionValue")));
            }
            _ => {}
        }
        self.stack.push(key.to_owned());
        for field in shape["fields"].as_array().into_iter().flatten() {
            let (Some(json), Some(desc)) = (field[0].as_str(), field[1].as_str()) else {
                continue;
            };
            if let Some(v) = self.leaf(desc, json) {
                members.push((json.to_owned(), v));
            }
        }
        self.stack.pop();
        Some(J::Obj(members))
    }
}

/// Decodes `text` as `gvk` with the JSON serializer, re-encodes it as JSON, and through
/// YAML and protobuf and back; every trip must give `text` again.
fn round_trips(scheme: &Scheme, gvk: &GroupVersionKind, text: &str) -> Result<String, String> {
    let options = |yaml, pretty| SerializerOptions {
        yaml,
        pretty,
        strict: false,
    };
    let json = JsonSerializer::new(scheme, options(false, true));
    let yaml = JsonSerializer::new(scheme, options(true, false));
    let protobuf = ProtobufSerializer::new(scheme);
    let (object, _) = json
        .decode(text.as_bytes(), Some(gvk), None)
        .map_err(|e| format!("decode: {e}"))?;
    let again = json
        .encode_to_vec(object.as_ref())
        .map_err(|e| e.to_string())?;
    let again = String::from_utf8(again).map_err(|e| e.to_string())?;
    if again != text {
        return Ok(again);
    }
    // The generated `Clone` behind `deep_copy_object` copies every field, and the
    // generated `Debug` prints the copy as the original.
    let copy = object.deep_copy_object();
    let copied = json
        .encode_to_vec(copy.as_ref())
        .map_err(|e| e.to_string())?;
    if copied != again.as_bytes() {
        return Err("changed by deep_copy_object".to_owned());
    }
    if format!("{copy:?}") != format!("{object:?}") {
        return Err("deep copy prints differently".to_owned());
    }
    let trips: [(&str, &dyn Encoder, &dyn Decoder); 2] =
        [("yaml", &yaml, &yaml), ("protobuf", &protobuf, &protobuf)];
    for (name, encoder, decoder) in trips {
        let bytes = encoder
            .encode_to_vec(object.as_ref())
            .map_err(|e| format!("{name} encode: {e}"))?;
        let (back, _) = decoder
            .decode(&bytes, Some(gvk), None)
            .map_err(|e| format!("{name} decode: {e}"))?;
        let json_again = json
            .encode_to_vec(back.as_ref())
            .map_err(|e| e.to_string())?;
        let (before, after) = if name == "protobuf" {
            // Go's protobuf carries no TypeMeta for objects inside others (list items,
            // templates): compare without it.
            (
                without_nested_type_meta(text.as_bytes())?,
                without_nested_type_meta(&json_again)?,
            )
        } else {
            (text.as_bytes().to_vec(), json_again)
        };
        if before != after {
            return Err(format!("changed by a trip through {name}"));
        }
    }
    Ok(again)
}

/// The document without `kind` and `apiVersion` in objects embedded in others (nested
/// objects with `metadata`, and an Eviction's `deleteOptions`), as compact JSON.
fn without_nested_type_meta(json: &[u8]) -> Result<Vec<u8>, String> {
    fn strip(value: &mut Value, key: Option<&str>) {
        match value {
            Value::Object(map) => {
                if key.is_some() && (map.contains_key("metadata") || key == Some("deleteOptions")) {
                    map.remove("kind");
                    map.remove("apiVersion");
                }
                for (k, v) in map.iter_mut() {
                    strip(v, Some(k));
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|v| strip(v, key)),
            _ => {}
        }
    }
    let mut value: Value = serde_json::from_slice(json).map_err(|e| e.to_string())?;
    strip(&mut value, None);
    serde_json::to_vec(&value).map_err(|e| e.to_string())
}

#[test]
fn every_kind_filled_with_every_field_round_trips_through_json_yaml_and_protobuf() {
    let shapes: BTreeMap<String, Value> = serde_json::from_str(SHAPES).unwrap();
    let scheme = Scheme::from_registry().unwrap();
    let (mut passed, mut failures) = (0usize, Vec::new());
    for (key, shape) in &shapes {
        let Some(kind) = shape.get("kind") else {
            continue;
        };
        let mut filler = Filler {
            shapes: &shapes,
            stack: Vec::new(),
        };
        let Some(obj) = filler.object(key) else {
            failures.push(format!("{key}: no value built"));
            continue;
        };
        let mut text = String::new();
        obj.print(0, &mut text);
        let (api_version, kind) = (kind[0].as_str().unwrap(), kind[1].as_str().unwrap());
        let gvk = GroupVersionKind::from_api_version_and_kind(api_version, kind);
        let result = round_trips(&scheme, &gvk, &text);
        match result {
            Ok(again) if again == text => passed += 1,
            Ok(again) => {
                let at = text
                    .bytes()
                    .zip(again.bytes())
                    .position(|(a, b)| a != b)
                    .unwrap_or(0);
                let line = text[..at].lines().count();
                failures.push(format!(
                    "{key}: differs at line {line}: got {:?}",
                    again.lines().nth(line.saturating_sub(1))
                ));
            }
            Err(e) => failures.push(format!("{key}: {e}")),
        }
    }
    for f in &failures {
        eprintln!("FAIL {f}");
    }
    eprintln!("filled kinds: {passed} passed, {} failed", failures.len());
    assert!(passed > 300, "only {passed} kinds checked");
    assert!(failures.is_empty(), "{} kinds failed", failures.len());
}

/// A conversion target that is one exact kind, in whatever group.
struct ExactKind(GroupVersionKind);

impl GroupVersioner for ExactKind {
    fn kind_for_group_version_kinds(&self, kinds: &[GroupVersionKind]) -> Option<GroupVersionKind> {
        kinds
            .iter()
            .any(|k| k.kind == self.0.kind)
            .then(|| self.0.clone())
    }
    fn identifier(&self) -> String {
        self.0.to_string()
    }
}

/// The kinds whose filled objects Go does not give back after a trip through the hub
/// (group, version, kind); the module of each conversion in `k8s_types::conversions`
/// says what is lost.
const LOSSY_AS_GO: &[(&str, &str, &str)] = &[
    (
        "apiextensions.k8s.io",
        "v1beta1",
        "CustomResourceDefinition",
    ),
    (
        "apiextensions.k8s.io",
        "v1beta1",
        "CustomResourceDefinitionList",
    ),
    ("discovery.k8s.io", "v1beta1", "EndpointSlice"),
    ("discovery.k8s.io", "v1beta1", "EndpointSliceList"),
    (
        "rbac.authorization.k8s.io",
        "v1alpha1",
        "ClusterRoleBinding",
    ),
    (
        "rbac.authorization.k8s.io",
        "v1alpha1",
        "ClusterRoleBindingList",
    ),
    ("rbac.authorization.k8s.io", "v1alpha1", "RoleBinding"),
    ("rbac.authorization.k8s.io", "v1alpha1", "RoleBindingList"),
];

/// Every version of every kind with a hub, filled with every field, converted to the hub
/// and back: the same bytes, for each pair `generated/conversions.md` calls complete
/// (for the pairs in [`LOSSY_AS_GO`], the same bytes after a second trip); a conversion
/// error for each pair it lists as left out.
#[test]
fn every_filled_version_round_trips_through_its_hub() {
    #[cfg(not(feature = "v1_37"))]
    let report = include_str!("../../src/generated/v1_36/conversions.md");
    #[cfg(feature = "v1_37")]
    let report = include_str!("../../src/generated/v1_37/conversions.md");
    let shapes: BTreeMap<String, Value> = serde_json::from_str(SHAPES).unwrap();
    let scheme = Scheme::from_registry().unwrap();
    let (mut complete, mut lossy, mut through_internal, mut left_out, mut failures) =
        (0usize, 0usize, 0usize, 0usize, Vec::new());
    for (key, shape) in &shapes {
        let Some(kind) = shape.get("kind") else {
            continue;
        };
        let (api_version, kind) = (kind[0].as_str().unwrap(), kind[1].as_str().unwrap());
        let gvk = GroupVersionKind::from_api_version_and_kind(api_version, kind);
        // The hub: the group's own, else one in another group (kinds moved out of
        // `extensions`).
        let hub = scheme
            .all_known_types()
            .into_keys()
            .filter(|h| h.version == API_VERSION_INTERNAL && h.kind == gvk.kind)
            .find(|h| h.group == gvk.group)
            .or_else(|| {
                (gvk.group == "extensions").then(|| {
                    scheme.all_known_types().into_keys().find(|h| {
                        h.version == API_VERSION_INTERNAL
                            && h.kind == gvk.kind
                            && ["apps", "networking.k8s.io", "policy"].contains(&h.group.as_str())
                    })
                })?
            })
            .cloned();
        let Some(hub) = hub else { continue };
        let (module, version) = key
            .rsplit_once('/')
            .map_or(("", ""), |(mv, _)| mv.split_once('/').unwrap_or(("", "")));
        let expect_left_out = report.lines().any(|l| {
            l.starts_with(&format!(
                "- `{module}/{version}`: left out: {module}/{version} {kind}."
            ))
        });
        let mut filler = Filler {
            shapes: &shapes,
            stack: Vec::new(),
        };
        let Some(obj) = filler.object(key) else {
            failures.push(format!("{key}: no value built"));
            continue;
        };
        let mut text = String::new();
        obj.print(0, &mut text);
        // The hub's served kind: in its group (`apps/v1` for `apps/__internal`), or the
        // group the kind moved to (`apps/v1` for `extensions/__internal`).
        let hub_type = scheme.object_type(&hub).map(|h| h.type_id());
        let served = scheme
            .all_known_types()
            .into_iter()
            .filter(|(k, t)| k.version != API_VERSION_INTERNAL && Some(t.type_id()) == hub_type)
            .map(|(k, _)| k.clone())
            .collect::<Vec<_>>();
        let hub_kind = served
            .iter()
            .find(|k| k.group == hub.group)
            .or(served.first())
            .cloned()
            .unwrap();
        // Kinds whose trip through Go's internal version moves data (`InternalForm`: a
        // Secret's `stringData`, a pod's `podIP`): the first trip may change the object
        // as Go's does (the oracle's conversion test compares it with Go's), a second
        // one must not.
        let normalized = hub_type.is_some_and(|t| scheme.internal_forms().has_type_id(t))
            || scheme
                .object_type(&gvk)
                .is_some_and(|t| scheme.internal_forms().has_type_id(t.type_id()));
        // To the hub and back, printed as Go's indented JSON (which re-indents embedded
        // raw objects).
        let round_trip = |text: &str| {
            let typed = scheme.decode_json(&gvk, text.as_bytes()).unwrap();
            scheme
                .convert_to_version(typed, &ExactKind(hub_kind.clone()))
                .and_then(|h| scheme.convert_to_version(h, &ExactKind(gvk.clone())))
                .map(|o| {
                    let json = JsonSerializer::new(
                        &scheme,
                        SerializerOptions {
                            yaml: false,
                            pretty: true,
                            strict: false,
                        },
                    );
                    String::from_utf8(json.encode_to_vec(o.as_ref()).unwrap()).unwrap()
                })
        };
        let result = round_trip(&text);
        match (result, expect_left_out) {
            (Ok(again), false) if again == text => complete += 1,
            // Kubernetes writes `autoscaling/v1`'s current metrics annotation whenever
            // `v2` has current metrics, even when they only repeat
            // `currentCPUUtilizationPercentage`: the round trip adds it, and only it.
            (Ok(again), false)
                if gvk.group == "autoscaling"
                    && gvk.version == "v1"
                    && without_hpa_current_metrics(&again) == serde_json::from_str(&text).ok() =>
            {
                complete += 1
            }
            // Pairs Go converts with a loss (each conversion module says what is lost):
            // the first trip may change the object, a second one must not.
            (Ok(again), false)
                if LOSSY_AS_GO.contains(&(gvk.group.as_str(), gvk.version.as_str(), kind))
                    && round_trip(&again).is_ok_and(|twice| twice == again) =>
            {
                lossy += 1
            }
            // Kinds with an internal form, likewise.
            (Ok(again), false)
                if normalized && round_trip(&again).is_ok_and(|twice| twice == again) =>
            {
                through_internal += 1
            }
            (Ok(again), false) => {
                let at = text
                    .bytes()
                    .zip(again.bytes())
                    .position(|(a, b)| a != b)
                    .unwrap_or(0);
                let line = text[..at].lines().count();
                failures.push(format!(
                    "{key}: differs at line {line}: {:?} became {:?}",
                    text.lines().nth(line.saturating_sub(1)),
                    again.lines().nth(line.saturating_sub(1))
                ));
            }
            (Err(_), true) => left_out += 1,
            (Ok(_), true) => {
                failures.push(format!("{key}: converts, but the report says left out"))
            }
            (Err(e), false) => failures.push(format!("{key}: {e}")),
        }
    }
    for f in &failures {
        eprintln!("FAIL {f}");
    }
    eprintln!(
        "hub round trips: {complete} lossless, {lossy} lossy as in Go, {through_internal} changed by their internal form, {left_out} left out as reported, {} failed",
        failures.len()
    );
    assert_eq!(
        lossy,
        LOSSY_AS_GO.len(),
        "a pair listed as lossy round-trips"
    );
    assert!(complete > 100, "only {complete} versions checked");
    assert!(failures.is_empty(), "{} versions failed", failures.len());
}

/// `json` (an `autoscaling/v1` HPA or list of them) without the annotation that carries
/// the current metrics, as a value.
fn without_hpa_current_metrics(json: &str) -> Option<Value> {
    let mut value: Value = serde_json::from_str(json).ok()?;
    let strip = |obj: &mut Value| {
        if let Some(Value::Object(annotations)) = obj.pointer_mut("/metadata/annotations") {
            annotations.remove(k8s_types::conversions::horizontal_pod_autoscaler::METRIC_STATUSES);
        }
    };
    match value.get_mut("items") {
        Some(Value::Array(items)) => items.iter_mut().for_each(strip),
        _ => strip(&mut value),
    }
    Some(value)
}
