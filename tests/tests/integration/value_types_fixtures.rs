//! The shared value types against Go's fixtures of the release built (`release_data::testdata`):
//! every quantity, int-or-string, byte string and raw extension that
//! the OpenAPI document places in a fixture decodes and re-encodes to the value Go wrote.
//!
//! The positions come from `swagger.json` next to the fixtures: the walk follows each
//! fixture's definition, through `$ref`s, arrays and maps, so nothing is guessed from key
//! names. Without the fixtures the test passes with a note, unless `CI` is set.

use std::collections::BTreeMap;
use std::path::PathBuf;

use apimachinery::api::ByteString;
use apimachinery::api::resource::Quantity;
use apimachinery::runtime::RawExtension;
use apimachinery::util::intstr::IntOrString;
use serde_json::Value;

const QUANTITY: &str = "io.k8s.apimachinery.pkg.api.resource.Quantity";
const INT_OR_STRING: &str = "io.k8s.apimachinery.pkg.util.intstr.IntOrString";
const RAW_EXTENSION: &str = "io.k8s.apimachinery.pkg.runtime.RawExtension";

fn testdata_dir() -> PathBuf {
    crate::release_data::testdata(k8s_types::RELEASE)
}

/// A value found at a position the OpenAPI document types as one of ours.
struct Found {
    kind: &'static str,
    path: String,
    value: Value,
}

struct Walker<'a> {
    definitions: &'a serde_json::Map<String, Value>,
    found: Vec<Found>,
}

impl Walker<'_> {
    fn walk_schema(&mut self, schema: &Value, value: &Value, path: &str) {
        if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
            let name = reference.trim_start_matches("#/definitions/");
            let kind = match name {
                QUANTITY => Some("Quantity"),
                INT_OR_STRING => Some("IntOrString"),
                RAW_EXTENSION => Some("RawExtension"),
                _ => None,
            };
            if let Some(kind) = kind {
                self.found.push(Found {
                    kind,
                    path: path.to_owned(),
                    value: value.clone(),
                });
            } else if let Some(definition) = self.definitions.get(name) {
                self.walk_schema(definition, value, path);
            }
            return;
        }
        if schema.get("format").and_then(Value::as_str) == Some("byte") && value.is_string() {
            self.found.push(Found {
                kind: "ByteString",
                path: path.to_owned(),
                value: value.clone(),
            });
            return;
        }
        match value {
            Value::Object(map) => {
                let properties = schema.get("properties").and_then(Value::as_object);
                let additional = schema.get("additionalProperties");
                for (key, item) in map {
                    let child = format!("{path}.{key}");
                    if let Some(s) = properties.and_then(|p| p.get(key)) {
                        self.walk_schema(s, item, &child);
                    } else if let Some(s) = additional {
                        self.walk_schema(s, item, &child);
                    }
                }
            }
            Value::Array(items) => {
                if let Some(s) = schema.get("items") {
                    for (i, item) in items.iter().enumerate() {
                        self.walk_schema(s, item, &format!("{path}[{i}]"));
                    }
                }
            }
            _ => {}
        }
    }
}

/// Decodes `value` as `T` and encodes it back; the result must be what Go wrote.
fn round_trip<T: serde::de::DeserializeOwned + serde::Serialize>(
    value: &Value,
) -> Result<(), String> {
    let text = value.to_string();
    let decoded: T = serde_json::from_str(&text).map_err(|e| format!("decode: {e}"))?;
    let encoded = serde_json::to_value(&decoded).map_err(|e| format!("encode: {e}"))?;
    if &encoded == value {
        Ok(())
    } else {
        Err(format!("wrote {encoded}, Go wrote {value}"))
    }
}

#[test]
fn every_value_type_in_the_fixtures_round_trips() {
    let dir = testdata_dir();
    let swagger_path = dir.join("../swagger.json");
    let (Ok(entries), Ok(swagger)) = (std::fs::read_dir(&dir), std::fs::read(&swagger_path)) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "fixtures not found at {}",
            dir.display()
        );
        eprintln!("note: no fixtures at {}; skipped", dir.display());
        return;
    };
    let swagger: Value = serde_json::from_slice(&swagger).unwrap();
    let definitions = swagger["definitions"].as_object().unwrap();
    // group/version/kind → definition name.
    let mut by_kind = BTreeMap::new();
    for (name, definition) in definitions {
        for gvk in definition["x-kubernetes-group-version-kind"]
            .as_array()
            .into_iter()
            .flatten()
        {
            let group = gvk["group"].as_str().unwrap_or("");
            let group = if group.is_empty() { "core" } else { group };
            let key = format!(
                "{group}.{}.{}",
                gvk["version"].as_str().unwrap_or(""),
                gvk["kind"].as_str().unwrap_or("")
            );
            by_kind.insert(key, name.clone());
        }
    }
    let mut walker = Walker {
        definitions,
        found: Vec::new(),
    };
    let mut fixtures = 0;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(stem) = name.strip_suffix(".json") else {
            continue;
        };
        let Some(definition) = by_kind.get(stem) else {
            continue;
        };
        let value: Value = serde_json::from_slice(&std::fs::read(entry.path()).unwrap()).unwrap();
        walker.walk_schema(&definitions[definition.as_str()], &value, stem);
        fixtures += 1;
    }
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    for found in &walker.found {
        *counts.entry(found.kind).or_default() += 1;
        let result = match found.kind {
            "Quantity" => round_trip::<Quantity>(&found.value),
            "IntOrString" => round_trip::<IntOrString>(&found.value),
            "ByteString" => round_trip::<ByteString>(&found.value),
            _ => round_trip::<RawExtension>(&found.value),
        };
        if let Err(e) = result {
            failures.push(format!("{} ({}): {e}", found.path, found.kind));
        }
    }
    eprintln!("{fixtures} fixtures; value types found: {counts:?}");
    assert!(fixtures > 0, "no fixture matched a definition");
    assert!(
        counts.get("Quantity").is_some_and(|n| *n > 0),
        "no quantity found: {counts:?}"
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
