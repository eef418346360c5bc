//! The upstream fixtures of the release built (`release_data::testdata`),
//! as far as the foundation can check them: every fixture is named by a group version
//! kind that parses, comes as JSON, YAML and protobuf, declares the kind its name says
//! (or none, for kinds without `TypeMeta` such as `WatchEvent`),
//! and goes through `Unstructured` without losing a value. Byte-for-byte re-encoding
//! through the generated types is the conformance runner's job (`kapi conformance`).
//!
//! Without the fixtures (a checkout without `../shared`) the test passes with a note,
//! unless `CI` is set, where missing fixtures are a failure.

use std::collections::BTreeMap;
use std::path::PathBuf;

use apimachinery::runtime::{Object, Unstructured};
use apimachinery::schema::GroupVersionKind;

fn testdata_dir() -> PathBuf {
    crate::release_data::testdata(k8s_types::RELEASE)
}

/// `apps.v1.Deployment` → `apps/v1, Kind=Deployment`; `core` is the empty group; a group
/// may itself contain dots (`admissionregistration.k8s.io.v1.X`).
fn gvk_from_file_stem(stem: &str) -> Option<GroupVersionKind> {
    let (rest, kind) = stem.rsplit_once('.')?;
    let (group, version) = rest.rsplit_once('.')?;
    let group = if group == "core" { "" } else { group };
    Some(GroupVersionKind::new(group, version, kind))
}

#[test]
fn every_fixture_is_named_by_its_kind_and_survives_unstructured() {
    let dir = testdata_dir();
    let Ok(entries) = std::fs::read_dir(&dir) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "fixtures not found at {}",
            dir.display()
        );
        eprintln!("note: no fixtures at {}; skipped", dir.display());
        return;
    };
    let mut formats: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if let Some((stem, ext)) = name.rsplit_once('.') {
            formats
                .entry(stem.to_owned())
                .or_default()
                .push(ext.to_owned());
        }
    }
    let (mut passed, mut failures) = (0usize, Vec::new());
    for (stem, exts) in &formats {
        let check = || -> Result<(), String> {
            let gvk = gvk_from_file_stem(stem).ok_or("file name is not group.version.Kind")?;
            for ext in ["json", "yaml", "pb"] {
                if !exts.iter().any(|e| e == ext) {
                    return Err(format!("no .{ext} fixture"));
                }
            }
            let path = dir.join(format!("{stem}.json"));
            let text = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
            let value: serde_json::Value =
                serde_json::from_str(&text).map_err(|e| e.to_string())?;
            let u = Unstructured::from_value(value.clone()).map_err(|e| e.to_string())?;
            // Kinds without TypeMeta in Go (WatchEvent) declare nothing; others must match.
            let declared = u.group_version_kind();
            if !declared.is_empty() && declared != gvk {
                return Err(format!("declares {declared}"));
            }
            let again: serde_json::Value =
                serde_json::from_str(&serde_json::to_string(&u).map_err(|e| e.to_string())?)
                    .map_err(|e| e.to_string())?;
            if again != value {
                return Err("changed by a trip through Unstructured".into());
            }
            Ok(())
        };
        match check() {
            Ok(()) => passed += 1,
            Err(e) => failures.push(format!("{stem}: {e}")),
        }
    }
    for f in &failures {
        eprintln!("FAIL {f}");
    }
    eprintln!("fixtures: {passed} passed, {} failed", failures.len());
    assert!(passed > 0, "no fixture found in {}", dir.display());
    assert!(failures.is_empty(), "{} fixture(s) failed", failures.len());
}

#[test]
fn file_stems_parse() {
    assert_eq!(
        gvk_from_file_stem("core.v1.Pod"),
        Some(GroupVersionKind::new("", "v1", "Pod"))
    );
    assert_eq!(
        gvk_from_file_stem("admissionregistration.k8s.io.v1.MutatingAdmissionPolicy"),
        Some(GroupVersionKind::new(
            "admissionregistration.k8s.io",
            "v1",
            "MutatingAdmissionPolicy"
        ))
    );
    assert_eq!(gvk_from_file_stem("nodots"), None);
}

/// The protobuf fixtures, as far as `meta/v1` goes before the generated types: each has
/// the envelope with the kind its name says, and the object's `metadata` (field 1 of its
/// message) decodes to the same `ObjectMeta`/`ListMeta` as the JSON fixture's and
/// re-encodes to the same bytes.
#[test]
fn every_protobuf_fixture_has_go_s_envelope_and_metadata() {
    use apimachinery::apis::meta::v1::{ListMeta, ObjectMeta};
    use apimachinery::proto::{Message, WireDecoder, WireType, decode_envelope, decode_message};

    fn metadata_bytes(raw: &[u8]) -> Result<Option<&[u8]>, String> {
        let mut d = WireDecoder::new(raw);
        while !d.is_empty() {
            let (number, wire) = d.key().map_err(|e| e.to_string())?;
            if number == 1 && wire == WireType::LengthDelimited {
                return d.length_delimited().map(Some).map_err(|e| e.to_string());
            }
            d.skip(number, wire).map_err(|e| e.to_string())?;
        }
        Ok(None)
    }

    fn same<M>(pb: &[u8], json: &serde_json::Value) -> Result<(), String>
    where
        M: Message + Default + PartialEq + std::fmt::Debug + serde::de::DeserializeOwned,
    {
        let from_pb: M = decode_message(pb).map_err(|e| e.to_string())?;
        let from_json: M = serde_json::from_value(json.clone()).map_err(|e| e.to_string())?;
        if from_pb != from_json {
            return Err(format!(
                "metadata differs:\n  pb:   {from_pb:?}\n  json: {from_json:?}"
            ));
        }
        if apimachinery::proto::encode_message(&from_pb) != pb {
            return Err("metadata re-encodes to other bytes".into());
        }
        Ok(())
    }

    let dir = testdata_dir();
    let Ok(entries) = std::fs::read_dir(&dir) else {
        assert!(std::env::var_os("CI").is_none(), "fixtures not found");
        eprintln!("note: no fixtures at {}; skipped", dir.display());
        return;
    };
    let (mut passed, mut failures) = (0usize, Vec::new());
    let mut stems: Vec<String> = entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".pb").map(str::to_owned)
        })
        .collect();
    stems.sort();
    for stem in &stems {
        let check = || -> Result<(), String> {
            let gvk = gvk_from_file_stem(stem).ok_or("bad file name")?;
            let pb = std::fs::read(dir.join(format!("{stem}.pb"))).map_err(|e| e.to_string())?;
            let envelope = decode_envelope(&pb).map_err(|e| e.to_string())?;
            let declared =
                GroupVersionKind::from_api_version_and_kind(envelope.api_version, envelope.kind);
            // Kinds without TypeMeta in Go (WatchEvent) are enveloped without a kind.
            if !declared.is_empty() && declared != gvk {
                return Err(format!("envelope says {declared}"));
            }
            let json: serde_json::Value = serde_json::from_str(
                &std::fs::read_to_string(dir.join(format!("{stem}.json")))
                    .map_err(|e| e.to_string())?,
            )
            .map_err(|e| e.to_string())?;
            let Some(meta_json) = json.get("metadata") else {
                return Ok(());
            };
            let meta_pb = metadata_bytes(envelope.raw)?.ok_or("no field 1 in the message")?;
            if gvk.kind.ends_with("List") || gvk.kind == "Status" {
                same::<ListMeta>(meta_pb, meta_json)
            } else {
                same::<ObjectMeta>(meta_pb, meta_json)
            }
        };
        match check() {
            Ok(()) => passed += 1,
            Err(e) => failures.push(format!("{stem}: {e}")),
        }
    }
    for f in &failures {
        eprintln!("FAIL {f}");
    }
    eprintln!(
        "protobuf envelopes and metadata: {passed} passed, {} failed",
        failures.len()
    );
    assert!(passed > 0);
    assert!(failures.is_empty(), "{} fixture(s) failed", failures.len());
}
