//! The scheme's decode (`ReadJson`, generated per struct) against the types' serde
//! `Deserialize` through the same reader, which is what the scheme used before: on Go's
//! fixtures and on every one-value alteration of them, the same value, error (message,
//! position, path), unknown fields, repeated-key verdict and type meta. And
//! `serde_json::from_str` still reads the generated types.
//!
//! Go's fixtures are the release's (`../shared/k8s-api/v1.36/testdata` or `$K8S_API_DIR`'s
//! for 1.36, see `testdata`);
//! without them those cases pass with a note, unless `CI` is set. The
//! `CustomResourceDefinition` case (the schema unions) is self-contained.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fmt::Debug;

use apimachinery::runtime::Scheme;
use apimachinery::runtime::json_reader::{ReadJson, from_slice_tracking, read_slice_tracking};
use k8s_types::apiextensions::v1::CustomResourceDefinition;
use k8s_types::apps::v1::Deployment;
use k8s_types::autoscaling::v2::HorizontalPodAutoscaler;
use k8s_types::core::v1::Pod;
use serde_json::{Value, json};

fn fixture(name: &str) -> Option<Value> {
    let text = std::fs::read(super::testdata().join(name));
    match text {
        Ok(text) => Some(serde_json::from_slice(&text).expect("fixture is JSON")),
        Err(e) => {
            assert!(std::env::var_os("CI").is_none(), "{name}: {e}");
            eprintln!("note: {name} not found ({e}); case skipped");
            None
        }
    }
}

/// What a decode gave: the value and unknown fields, or the error's text.
type Outcome<T> = Result<(T, Vec<String>), String>;

/// Both decodes of `text`: through `ReadJson`, and through serde.
fn outcomes<T: ReadJson + serde::de::DeserializeOwned>(
    text: &[u8],
    track: bool,
) -> (Outcome<T>, Outcome<T>) {
    let direct = read_slice_tracking::<T>(text, track)
        .map(|r| (r.value, r.unknown_fields))
        .map_err(|e| e.to_string());
    let serde = from_slice_tracking::<T>(text, track)
        .map(|r| (r.value, r.unknown_fields))
        .map_err(|e| e.to_string());
    (direct, serde)
}

/// Every JSON pointer of `v`.
fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Array(a) => a
            .iter()
            .enumerate()
            .for_each(|(i, e)| pointers(e, format!("{at}/{i}"), out)),
        Value::Object(m) => m.iter().for_each(|(k, e)| {
            let key = k.replace('~', "~0").replace('/', "~1");
            pointers(e, format!("{at}/{key}"), out)
        }),
        _ => {}
    }
    out.push(at);
}

/// The document and each of its alterations read alike both ways; returns how many
/// alterations failed to decode (so that a caller can tell errors were compared too).
fn agree_on_alterations<T: ReadJson + serde::de::DeserializeOwned + Debug + PartialEq>(
    doc: &Value,
) -> usize {
    let replacements = [
        json!(null),
        json!(7),
        json!("x"),
        json!([{}, 1.5]),
        json!({"unknownField": [1]}),
    ];
    let mut all = Vec::new();
    pointers(doc, String::new(), &mut all);
    let mut errors = 0;
    for text in [serde_json::to_vec(doc), serde_json::to_vec_pretty(doc)] {
        let text = text.unwrap();
        for track in [false, true] {
            let (direct, serde) = outcomes::<T>(&text, track);
            assert!(direct.is_ok(), "{direct:?}");
            assert_eq!(direct, serde);
        }
    }
    // A spread of about 250 places per document (every place of a large fixture takes
    // minutes in a debug build).
    for pointer in all.iter().step_by(all.len().div_ceil(250)) {
        for with in &replacements {
            let mut altered = doc.clone();
            *altered.pointer_mut(pointer).unwrap() = with.clone();
            let text = serde_json::to_vec(&altered).unwrap();
            // Tracking only adds the unknown fields' paths: compared with it on.
            let (direct, serde) = outcomes::<T>(&text, true);
            errors += usize::from(direct.is_err());
            // Where serde refuses a `null` element or map value, the reader follows Go,
            // which reads it as the zero value (apimachinery's reader tests check that).
            let null_refused = |e: &String| e.contains("invalid type: null, expected");
            if direct != serde && serde.as_ref().is_err_and(null_refused) {
                continue;
            }
            assert_eq!(direct, serde, "{pointer} = {with}");
        }
    }
    errors
}

#[test]
fn go_fixtures_and_their_alterations_read_as_through_serde() {
    if let Some(pod) = fixture("core.v1.Pod.json") {
        assert!(agree_on_alterations::<Pod>(&pod) > 0);
    }
    if let Some(deployment) = fixture("apps.v1.Deployment.json") {
        assert!(agree_on_alterations::<Deployment>(&deployment) > 0);
    }
    if let Some(hpa) = fixture("autoscaling.v2.HorizontalPodAutoscaler.json") {
        assert!(agree_on_alterations::<HorizontalPodAutoscaler>(&hpa) > 0);
    }
}

fn crd() -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {
            "group": "example.com",
            "names": {"plural": "widgets", "kind": "Widget"},
            "scope": "Namespaced",
            "versions": [{
                "name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": {
                    "type": "object",
                    "properties": {
                        "spec": {
                            "type": "object",
                            "additionalProperties": false,
                            "dependencies": {"a": ["b", "c"], "d": {"required": ["e"]}},
                            "properties": {
                                "tuple": {"type": "array", "items": [{"type": "string"}, {"type": "integer"}]},
                                "list": {"type": "array", "items": {"type": "string"}},
                                "map": {"type": "object", "additionalProperties": {"type": "integer"}},
                                "any": {"x-kubernetes-preserve-unknown-fields": true, "default": {"a": [1]}}
                            }
                        }
                    }
                }}
            }]
        }
    })
}

#[test]
fn schema_unions_and_their_alterations_read_as_through_serde() {
    assert!(agree_on_alterations::<CustomResourceDefinition>(&crd()) > 0);
}

#[test]
fn serde_json_still_reads_the_generated_types() {
    let text = br#"{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
                    "spec": {"containers": [{"name": "c", "image": "nginx"}]}}"#;
    let pod: Pod = serde_json::from_slice(text).unwrap();
    assert_eq!(pod.spec.containers.as_ref().unwrap()[0].image, "nginx");
    let scheme = Scheme::from_registry().unwrap();
    let gvk = "v1, Kind=Pod".parse().unwrap();
    let decoded = scheme.decode_json(&gvk, text).unwrap();
    assert_eq!(decoded.downcast_ref::<Pod>(), Some(&pod));
    let crd_text = serde_json::to_vec(&crd()).unwrap();
    let crd: CustomResourceDefinition = serde_json::from_slice(&crd_text).unwrap();
    let gvk = "apiextensions.k8s.io/v1, Kind=CustomResourceDefinition"
        .parse()
        .unwrap();
    let decoded = scheme.decode_json(&gvk, &crd_text).unwrap();
    assert_eq!(
        decoded.downcast_ref::<CustomResourceDefinition>(),
        Some(&crd)
    );
}
