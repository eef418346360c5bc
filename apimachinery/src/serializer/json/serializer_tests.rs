//! Tests of [`JsonSerializer`](super::Serializer) with hand-built Deployment-shaped types,
//! against kubectl's output captured in `tests/data/`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{JsonSerializer, SerializerOptions};
use crate::apis::meta::v1::{LabelSelector, ObjectMeta};
use crate::runtime::{Object, Scheme, Unstructured, UnstructuredList};
use crate::schema::GroupVersionKind;
use crate::serializer::{DecodeErrorKind, Decoder, Encoder, StrictFieldError};
use crate::util::json::GoFormatter;

#[derive(crate::ApiObject, Clone, Debug, Default, PartialEq)]
#[api(group = "apps", version = "v1", kind = "Deployment")]
pub(crate) struct Deployment {
    pub metadata: ObjectMeta,
    pub spec: DeploymentSpec,
    pub status: DeploymentStatus,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct DeploymentSpec {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    pub selector: Option<LabelSelector>,
    pub template: PodTemplateSpec,
    pub strategy: DeploymentStrategy,
    #[serde(skip_serializing_if = "is_zero")]
    pub min_ready_seconds: i32,
}

fn is_zero(v: &i32) -> bool {
    *v == 0
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct DeploymentStrategy {
    #[serde(rename = "type", skip_serializing_if = "String::is_empty")]
    pub type_: String,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct DeploymentStatus {
    #[serde(skip_serializing_if = "is_zero")]
    pub replicas: i32,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct PodTemplateSpec {
    pub metadata: ObjectMeta,
    pub spec: PodSpec,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct PodSpec {
    pub containers: Vec<Container>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub node_selector: BTreeMap<String, String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct Container {
    pub name: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub image: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<ContainerPort>,
    pub resources: ResourceRequirements,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub image_pull_policy: String,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct ContainerPort {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
    pub container_port: i32,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct ResourceRequirements {
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub limits: BTreeMap<String, String>,
}

pub(crate) fn scheme() -> Scheme {
    let mut scheme = Scheme::with_name("serializer-test");
    scheme.add_known_type::<Deployment>().unwrap();
    scheme
}

const OPTIONS: SerializerOptions = SerializerOptions {
    yaml: false,
    pretty: false,
    strict: false,
};
const STRICT: SerializerOptions = SerializerOptions {
    yaml: false,
    pretty: false,
    strict: true,
};

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// What kubectl's JSON printer writes: `json.MarshalIndent(v, "", "    ")` and a newline.
fn kubectl_json(obj: &dyn Object) -> String {
    let mut out = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut out, GoFormatter::indented(b"    "));
    obj.serialize(&mut ser).unwrap();
    out.push(b'\n');
    String::from_utf8(out).unwrap()
}

fn deployment_gvk() -> GroupVersionKind {
    GroupVersionKind::new("apps", "v1", "Deployment")
}

#[test]
fn kubectl_deployment_decodes_typed_and_reencodes_as_go() {
    let scheme = scheme();
    let json = JsonSerializer::new(&scheme, OPTIONS);
    let input = data("deployment.kubectl.json");
    let (obj, gvk) = json.decode(input.as_bytes(), None, None).unwrap();
    assert_eq!(gvk, deployment_gvk());
    let d = obj.downcast_ref::<Deployment>().unwrap();
    assert_eq!(d.spec.replicas, Some(3));
    assert_eq!(
        d.spec.template.spec.containers[0].ports[0].container_port,
        8080
    );
    // kubectl 1.32 writes `creationTimestamp: null` for a zero time; Kubernetes >= 1.33,
    // which this crate follows, omits it. Everything else must match byte for byte.
    let expected: String = input
        .lines()
        .filter(|l| !l.contains("\"creationTimestamp\": null"))
        .map(|l| format!("{}\n", l.replace("null,", "null")))
        .collect();
    assert_eq!(kubectl_json(&*obj), expected);

    // Compact is one line and a newline; pretty is two spaces and none.
    let compact = String::from_utf8(json.encode_to_vec(&*obj).unwrap()).unwrap();
    assert!(compact.starts_with(r#"{"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"web","labels":{"app":"web"}},"spec":{"replicas":3,"#));
    assert_eq!(compact.matches('\n').count(), 1);
    assert!(compact.ends_with("}\n"));
    let pretty = JsonSerializer::new(
        &scheme,
        SerializerOptions {
            pretty: true,
            ..OPTIONS
        },
    );
    let pretty = String::from_utf8(pretty.encode_to_vec(&*obj).unwrap()).unwrap();
    assert_eq!(pretty, expected.trim_end().replace("    ", "  "));
}

#[test]
fn kubectl_documents_round_trip_through_unstructured_as_go_writes_maps() {
    // kubectl's `label --local -o json` re-encodes the document as a Go map: sorted keys.
    for (input, expected) in [
        (
            "deployment.kubectl.json",
            "deployment.unstructured.kubectl.json",
        ),
        ("odd.input.json", "odd.kubectl.json"),
    ] {
        let json = JsonSerializer::unstructured(OPTIONS);
        let (obj, _) = json.decode(data(input).as_bytes(), None, None).unwrap();
        assert!(obj.is::<Unstructured>());
        assert_eq!(kubectl_json(&*obj), data(expected), "{input}");
        // A second pass changes nothing.
        let again = json.encode_to_vec(&*obj).unwrap();
        let (obj2, _) = json.decode(&again, None, None).unwrap();
        assert_eq!(json.encode_to_vec(&*obj2).unwrap(), again);
    }
}

#[test]
fn the_scheme_serializer_decodes_into_unstructured_when_asked() {
    let scheme = scheme();
    let json = JsonSerializer::new(&scheme, OPTIONS);
    let input = br#"{"apiVersion":"other.io/v1","kind":"Thing","spec":{"a":1}}"#;
    let err = json.decode(input, None, None).unwrap_err();
    assert!(err.is_not_registered(), "{err}");
    assert_eq!(
        err.to_string(),
        r#"no kind "Thing" is registered for version "other.io/v1" in scheme "serializer-test""#
    );
    let mut into = Unstructured::default();
    let (obj, gvk) = json.decode(input, None, Some(&mut into)).unwrap();
    assert_eq!(gvk.to_string(), "other.io/v1, Kind=Thing");
    assert_eq!(into.nested_i64(&["spec", "a"]).unwrap(), Some(1));
    assert_eq!(obj.downcast_ref::<Unstructured>(), Some(&into));

    let list = br#"{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Pod"}]}"#;
    let (obj, _) = JsonSerializer::unstructured(OPTIONS)
        .decode(list, None, None)
        .unwrap();
    assert_eq!(
        obj.downcast_ref::<UnstructuredList>().unwrap().items.len(),
        1
    );
    let mut into = UnstructuredList::default();
    json.decode(list, None, Some(&mut into)).unwrap();
    assert_eq!(into.items[0].kind(), "Pod");
    let err = JsonSerializer::unstructured(OPTIONS)
        .decode(br#"{"apiVersion":"v1","items":7}"#, None, None)
        .unwrap_err();
    assert!(
        matches!(
            err.kind(),
            DecodeErrorKind::MissingKind { .. } | DecodeErrorKind::Unstructured(_)
        ),
        "{err}"
    );
    let err = JsonSerializer::unstructured(OPTIONS)
        .decode(br#"{"apiVersion":"v1"}"#, None, None)
        .unwrap_err();
    assert!(err.is_missing_kind(), "{err}");
}

#[test]
fn defaults_fill_missing_pieces_and_into_is_used_when_its_kind_matches() {
    let scheme = scheme();
    let json = JsonSerializer::new(&scheme, OPTIONS);
    let body = br#"{"metadata":{"name":"a"},"spec":{"replicas":2}}"#;
    let err = json.decode(body, None, None).unwrap_err();
    assert!(err.is_missing_kind(), "{err}");
    assert!(
        err.to_string()
            .starts_with("Object 'Kind' is missing in '{\"metadata\""),
        "{err}"
    );
    let err = json
        .decode(br#"{"kind":"Deployment"}"#, None, None)
        .unwrap_err();
    assert!(err.is_missing_version(), "{err}");

    let (obj, gvk) = json.decode(body, Some(&deployment_gvk()), None).unwrap();
    assert_eq!(gvk, deployment_gvk());
    assert_eq!(
        obj.downcast_ref::<Deployment>().unwrap().spec.replicas,
        Some(2)
    );

    // `into` supplies the defaults and receives the object.
    let mut into = Deployment::default();
    let (obj, gvk) = json.decode(body, None, Some(&mut into)).unwrap();
    assert_eq!(gvk, deployment_gvk());
    assert_eq!(into.metadata.name, "a");
    assert_eq!(obj.downcast_ref::<Deployment>(), Some(&into));

    // A kind other than `into`'s is decoded as a new object; `into` is left alone.
    let mut other = crate::apis::meta::v1::Status::default();
    let err = json.decode(body, None, Some(&mut other)).unwrap_err();
    assert!(err.is_not_registered(), "{err}");
}

#[test]
fn unknown_and_duplicate_fields_are_ignored_unless_strict() {
    let scheme = scheme();
    let input = br#"{"apiVersion":"apps/v1","kind":"Deployment",
        "metadata":{"name":"a","name":"b","labels":{"x":"1","x":"2"}},
        "spec":{"replicas":1,"replicas":4,"Replicas":9,"template":{"spec":{"containers":[
            {"name":"c","imagePullPolicyy":"Always","ports":[{"containerPort":80,"containerPort":81}]}]}}},
        "extra":true}"#;
    let (obj, _) = JsonSerializer::new(&scheme, OPTIONS)
        .decode(input, None, None)
        .unwrap();
    let d = obj.downcast_ref::<Deployment>().unwrap();
    // Last wins everywhere, in derived and in serde-derived types alike; keys are
    // case-sensitive.
    assert_eq!(d.metadata.name, "b");
    assert_eq!(d.metadata.labels["x"], "2");
    assert_eq!(d.spec.replicas, Some(4));
    assert_eq!(
        d.spec.template.spec.containers[0].ports[0].container_port,
        81
    );

    let err = JsonSerializer::new(&scheme, STRICT)
        .decode(input, None, None)
        .unwrap_err();
    let strict = err.as_strict().unwrap();
    assert_eq!(
        strict.errors(),
        &[
            StrictFieldError::Duplicate {
                path: "metadata.name".into()
            },
            StrictFieldError::Duplicate {
                path: "metadata.labels.x".into()
            },
            StrictFieldError::Duplicate {
                path: "spec.replicas".into()
            },
            StrictFieldError::Unknown {
                path: "spec.Replicas".into()
            },
            StrictFieldError::Unknown {
                path: "spec.template.spec.containers[0].imagePullPolicyy".into()
            },
            StrictFieldError::Duplicate {
                path: "spec.template.spec.containers[0].ports[0].containerPort".into()
            },
            StrictFieldError::Unknown {
                path: "extra".into()
            },
        ]
    );
    assert_eq!(
        err.to_string(),
        "strict decoding error: duplicate field \"metadata.name\", duplicate field \"metadata.labels.x\", duplicate field \"spec.replicas\", unknown field \"spec.Replicas\", unknown field \"spec.template.spec.containers[0].imagePullPolicyy\", duplicate field \"spec.template.spec.containers[0].ports[0].containerPort\", unknown field \"extra\""
    );
    // The object decoded all the same.
    assert_eq!(strict.object().downcast_ref::<Deployment>(), Some(d));

    // A clean document passes strict decoding.
    let clean = data("deployment.kubectl.json");
    JsonSerializer::new(&scheme, STRICT)
        .decode(clean.as_bytes(), None, None)
        .unwrap();
    // Unstructured objects know every field; duplicates are still reported.
    let err = JsonSerializer::unstructured(STRICT)
        .decode(br#"{"apiVersion":"v1","kind":"X","a":1,"a":2}"#, None, None)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "strict decoding error: duplicate field \"a\""
    );
}

#[test]
fn wrong_values_are_errors_naming_the_field() {
    let scheme = scheme();
    let json = JsonSerializer::new(&scheme, OPTIONS);
    let cases = [
        (
            r#"{"spec":{"replicas":"3"}}"#,
            "spec.replicas",
            "invalid type: string \"3\", expected i32",
        ),
        (
            r#"{"spec":{"replicas":1.0}}"#,
            "spec.replicas",
            "invalid type: floating point `1.0`, expected i32",
        ),
        (
            r#"{"spec":{"replicas":3000000000}}"#,
            "spec.replicas",
            "invalid value: integer `3000000000`, expected i32",
        ),
        (
            r#"{"spec":{"template":{"spec":{"containers":[{"name":"a"},{"name":7}]}}}}"#,
            "spec.template.spec.containers[1].name",
            "invalid type: integer `7`, expected a string",
        ),
        (
            r#"{"metadata":{"labels":{"a":1}}}"#,
            "metadata.labels.a",
            "invalid type: integer `1`, expected a string",
        ),
    ];
    for (body, path, message) in cases {
        let err = json
            .decode(body.as_bytes(), Some(&deployment_gvk()), None)
            .unwrap_err();
        assert_eq!(err.path(), Some(path), "{body}: {err}");
        match err.kind() {
            DecodeErrorKind::Field {
                message: m,
                gvk,
                type_name,
                position,
                ..
            } => {
                assert_eq!(m, message, "{body}");
                assert_eq!(gvk, &deployment_gvk());
                assert!(type_name.ends_with("Deployment"));
                assert_eq!(position, &None);
            }
            other => panic!("{body}: {other:?}"),
        }
    }
    let err = json.decode(b"[1]", None, None).unwrap_err();
    assert_eq!(err.to_string(), "expected a JSON object, got array");
    let err = json
        .decode(
            br#"{"kind":"Deployment","apiVersion":"apps/v1","spec":{"replicas":1e999}}"#,
            None,
            None,
        )
        .unwrap_err();
    assert!(
        matches!(err.kind(), DecodeErrorKind::Syntax { .. }),
        "{err}"
    );
    let err = json
        .decode(br#"{"kind":["Deployment"]}"#, None, None)
        .unwrap_err();
    assert!(
        matches!(err.kind(), DecodeErrorKind::TypeMeta { .. }),
        "{err}"
    );
}

#[test]
fn identifiers_name_the_options() {
    let scheme = scheme();
    assert_eq!(
        JsonSerializer::new(
            &scheme,
            SerializerOptions {
                pretty: true,
                ..OPTIONS
            }
        )
        .identifier(),
        r#"{"name":"json","pretty":"true","strict":"false","yaml":"false"}"#
    );
}

const YAML: SerializerOptions = SerializerOptions {
    yaml: true,
    pretty: false,
    strict: false,
};

#[test]
fn kubectl_yaml_decodes_typed_and_reencodes_as_go() {
    let scheme = scheme();
    let yaml = JsonSerializer::new(&scheme, YAML);
    let input = data("deployment.kubectl.yaml");
    let (obj, gvk) = yaml.decode(input.as_bytes(), None, None).unwrap();
    assert_eq!(gvk, deployment_gvk());
    let d = obj.downcast_ref::<Deployment>().unwrap();
    assert_eq!(d.spec.template.spec.containers[0].image, "nginx:1.27");
    // As for JSON: kubectl 1.32 still writes `creationTimestamp: null`.
    let expected: String = input
        .lines()
        .filter(|l| !l.contains("creationTimestamp: null"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(
        String::from_utf8(yaml.encode_to_vec(&*obj).unwrap()).unwrap(),
        expected
    );
    // The same object from JSON encodes to the same YAML.
    let (from_json, _) = JsonSerializer::new(&scheme, OPTIONS)
        .decode(data("deployment.kubectl.json").as_bytes(), None, None)
        .unwrap();
    assert_eq!(
        yaml.encode_to_vec(&*from_json).unwrap(),
        expected.as_bytes()
    );
}

#[test]
fn kubectl_yaml_round_trips_through_unstructured() {
    let yaml = JsonSerializer::unstructured(YAML);
    for (input, expected) in [
        ("odd.input.json", "odd.kubectl.yaml"),
        (
            "deployment.kubectl.json",
            "deployment.unstructured.kubectl.yaml",
        ),
        (
            "deployment.unstructured.kubectl.yaml",
            "deployment.unstructured.kubectl.yaml",
        ),
        ("configmap.kubectl.yaml", "configmap.kubectl.yaml"),
    ] {
        // JSON is YAML: the YAML serializer reads both.
        let (obj, _) = yaml.decode(data(input).as_bytes(), None, None).unwrap();
        let out = String::from_utf8(yaml.encode_to_vec(&*obj).unwrap()).unwrap();
        assert_eq!(out, data(expected), "{input}");
    }
    let (obj, _) = yaml
        .decode(data("configmap.kubectl.yaml").as_bytes(), None, None)
        .unwrap();
    let u = obj.downcast_ref::<Unstructured>().unwrap();
    assert_eq!(u.nested_string(&["data", "null"]).unwrap(), Some("null"));
    assert_eq!(
        u.nested_string(&["data", "multi"]).unwrap(),
        Some("line one\nline two\n")
    );
}

#[test]
fn yaml_errors_carry_line_column_and_path() {
    let scheme = scheme();
    let yaml = JsonSerializer::new(&scheme, YAML);
    let doc = "apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n      - name: a\n        ports:\n        - containerPort: eighty\n";
    let err = yaml.decode(doc.as_bytes(), None, None).unwrap_err();
    assert_eq!(
        err.path(),
        Some("spec.template.spec.containers[0].ports[0].containerPort")
    );
    assert_eq!(err.position().map(|p| p.line), Some(9), "{err}");
    assert!(err.to_string().contains("(at line 9, column "), "{err}");

    let err = yaml.decode(b"kind: [\n", None, None).unwrap_err();
    assert!(
        matches!(err.kind(), DecodeErrorKind::Syntax { .. }),
        "{err}"
    );
    assert!(err.position().is_some(), "{err}");
    let err = yaml.decode(b"kind: \xff\n", None, None).unwrap_err();
    assert_eq!(
        err.position().map(|p| (p.line, p.column)),
        Some((1, 7)),
        "{err}"
    );
    let err = yaml.decode(b"- a\n", None, None).unwrap_err();
    assert_eq!(err.to_string(), "expected a YAML object, got array");
}

/// Decodes `doc` through the YAML path alone (loader, `Value`), as before the fast path.
#[cfg(feature = "yaml")]
fn decode_yaml_path(
    yaml: &JsonSerializer<'_>,
    doc: &[u8],
) -> Result<(Box<dyn Object>, GroupVersionKind), crate::serializer::DecodeError> {
    let parsed = yaml.parse(doc)?;
    yaml.decode_parsed(doc, Some(parsed), None, None)
}

#[cfg(feature = "yaml")]
#[test]
fn yaml_fast_path_decodes_what_the_yaml_path_decodes() {
    let scheme = scheme();
    let typed = JsonSerializer::new(&scheme, YAML);
    let unstructured = JsonSerializer::unstructured(YAML);
    for name in [
        "deployment.kubectl.yaml",
        "deployment.unstructured.kubectl.yaml",
        "configmap.kubectl.yaml",
        "odd.kubectl.yaml",
    ] {
        let input = data(name);
        let fast_subset = crate::serializer::yaml::transcode(&input).is_ok();
        for yaml in [&typed, &unstructured] {
            let slow = decode_yaml_path(yaml, input.as_bytes());
            let fast = yaml.decode(input.as_bytes(), None, None);
            match (fast, slow) {
                (Ok((fast, fast_gvk)), Ok((slow, slow_gvk))) => {
                    assert_eq!(fast_gvk, slow_gvk, "{name}");
                    assert_eq!(kubectl_json(&*fast), kubectl_json(&*slow), "{name}");
                }
                (Err(fast), Err(slow)) => assert_eq!(fast.to_string(), slow.to_string()),
                (fast, slow) => panic!("{name}: {:?} vs {:?}", fast.err(), slow.err()),
            }
        }
        if name.starts_with("deployment") {
            assert!(fast_subset, "{name} is not in the fast subset");
        }
    }
}

#[cfg(feature = "yaml")]
#[test]
fn yaml_fast_path_failures_report_as_the_yaml_path() {
    let scheme = scheme();
    let yaml = JsonSerializer::new(&scheme, YAML);
    let unstructured = JsonSerializer::unstructured(YAML);
    let docs: &[&str] = &[
        // In the fast subset, but the typed decode fails: the YAML path's error, with
        // the line and column of the value.
        "apiVersion: apps/v1\nkind: Deployment\nspec:\n  replicas: many\n",
        "apiVersion: apps/v1\nkind: Deployment\nspec:\n  replicas: 1.5\n",
        "apiVersion: apps/v1\nkind: Nope\n",
        "kind: Deployment\n",
        "apiVersion: apps/v1\n",
        "- a\n",
        // Outside the subset: the YAML path, as before.
        "apiVersion: apps/v1\nkind: Deployment\nkind: Deployment\n",
        "kind: [\n",
    ];
    for doc in docs {
        for serializer in [&yaml, &unstructured] {
            let fast = serializer.decode(doc.as_bytes(), None, None);
            let slow = decode_yaml_path(serializer, doc.as_bytes());
            match (fast, slow) {
                (Err(fast), Err(slow)) => {
                    assert_eq!(fast.to_string(), slow.to_string(), "{doc:?}");
                    assert_eq!(fast.position(), slow.position(), "{doc:?}");
                    assert_eq!(fast.path(), slow.path(), "{doc:?}");
                }
                (Ok((fast, _)), Ok((slow, _))) => {
                    assert_eq!(kubectl_json(&*fast), kubectl_json(&*slow), "{doc:?}");
                }
                (fast, slow) => panic!("{doc:?}: {:?} vs {:?}", fast.err(), slow.err()),
            }
        }
    }
    let err = yaml.decode(docs[0].as_bytes(), None, None).unwrap_err();
    assert_eq!(err.position().map(|p| p.line), Some(4), "{err}");
    assert!(crate::serializer::yaml::transcode(docs[0]).is_ok());
}

#[test]
fn yaml_strict_mode_lists_duplicates_with_lines_then_unknown_fields() {
    let scheme = scheme();
    let strict = JsonSerializer::new(
        &scheme,
        SerializerOptions {
            strict: true,
            ..YAML
        },
    );
    let doc = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: a\n  name: b\nspec:\n  replicas: 1\n  replicaz: 2\n  replicas: 3\n";
    let err = strict.decode(doc.as_bytes(), None, None).unwrap_err();
    assert_eq!(
        err.to_string(),
        "strict decoding error: yaml: unmarshal errors:\n  line 5: key \"name\" already set in map\n  line 9: key \"replicas\" already set in map, unknown field \"spec.replicaz\""
    );
    let d = err
        .as_strict()
        .unwrap()
        .object()
        .downcast_ref::<Deployment>()
        .unwrap();
    assert_eq!((d.metadata.name.as_str(), d.spec.replicas), ("b", Some(3)));
    // Not strict: last wins, no error.
    let (obj, _) = JsonSerializer::new(&scheme, YAML)
        .decode(doc.as_bytes(), None, None)
        .unwrap();
    assert_eq!(obj.downcast_ref::<Deployment>(), Some(d));
}

#[test]
fn yaml_streams_decode_each_document_with_its_index() {
    let scheme = scheme();
    let yaml = JsonSerializer::new(&scheme, YAML);
    let stream = "---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: a\n---\n# only a comment\n---\napiVersion: apps/v1\nkind: Deployment\nspec:\n  replicas: x\n";
    let results: Vec<_> =
        crate::serializer::decode_stream(&yaml, stream.as_bytes(), None).collect();
    assert_eq!(results.len(), 2);
    assert_eq!(results[0].as_ref().unwrap().0.meta().unwrap().name(), "a");
    let err = results[1].as_ref().unwrap_err();
    assert_eq!(err.document(), Some(2));
    assert_eq!(err.path(), Some("spec.replicas"));
    assert_eq!(err.position().map(|p| p.line), Some(12), "{err}");
    assert!(
        err.to_string()
            .starts_with("document 2: decoding apps/v1, Kind=Deployment"),
        "{err}"
    );
}

/// `ControllerRevision`-shaped: an embedded object of any kind in `data`.
#[derive(crate::ApiObject, Clone, Debug, Default, PartialEq)]
#[api(group = "apps", version = "v1", kind = "ControllerRevision")]
struct ControllerRevision {
    metadata: ObjectMeta,
    data: crate::runtime::RawExtension,
    revision: i64,
}

#[test]
fn raw_extensions_round_trip_verbatim_and_decode_on_demand() {
    let mut scheme = scheme();
    scheme.add_known_type::<ControllerRevision>().unwrap();
    let json = JsonSerializer::new(&scheme, OPTIONS);
    // The embedded object is in Go's struct order, not sorted, and has a `<`.
    let input = r#"{"kind":"ControllerRevision","apiVersion":"apps/v1","metadata":{"name":"r"},"data":{"kind":"Deployment","apiVersion":"apps/v1","spec":{"replicas":2,"template":{"spec":{"containers":[{"name":"a<b"}]}}}},"revision":3}"#;
    let (obj, _) = json.decode(input.as_bytes(), None, None).unwrap();
    let out = String::from_utf8(json.encode_to_vec(&*obj).unwrap()).unwrap();
    assert_eq!(out, format!("{}\n", input.replace('<', "\\u003c")));
    let pretty = JsonSerializer::new(
        &scheme,
        SerializerOptions {
            pretty: true,
            ..OPTIONS
        },
    );
    let out = String::from_utf8(pretty.encode_to_vec(&*obj).unwrap()).unwrap();
    assert!(
        out.contains("  \"data\": {\n    \"kind\": \"Deployment\",\n    \"apiVersion\": \"apps/v1\",\n    \"spec\": {\n      \"replicas\": 2,"),
        "{out}"
    );

    let mut revision = *obj.downcast::<ControllerRevision>().unwrap();
    let gvk = crate::serializer::decode_raw_extension(&json, &mut revision.data, None).unwrap();
    assert_eq!(gvk, deployment_gvk());
    let embedded = revision
        .data
        .object
        .as_ref()
        .unwrap()
        .downcast_ref::<Deployment>()
        .unwrap();
    assert_eq!(embedded.spec.template.spec.containers[0].name, "a<b");
    // The bytes still win when writing.
    assert_eq!(
        String::from_utf8(json.encode_to_vec(&revision).unwrap()).unwrap(),
        format!("{}\n", input.replace('<', "\\u003c"))
    );

    // An unregistered embedded kind is an error naming it, or Unstructured when asked.
    let mut ext =
        crate::runtime::RawExtension::from_raw(r#"{"kind":"Mystery","apiVersion":"x/v1"}"#);
    let err = crate::serializer::decode_raw_extension(&json, &mut ext, None).unwrap_err();
    assert!(err.is_not_registered(), "{err}");
    crate::serializer::decode_raw_extension(&JsonSerializer::unstructured(OPTIONS), &mut ext, None)
        .unwrap();
    assert!(ext.object.as_ref().unwrap().is::<Unstructured>());
}

#[test]
fn unknown_targets_keep_the_document_undecoded() {
    let scheme = scheme();
    let json = JsonSerializer::new(&scheme, OPTIONS);
    let input = br#"{"kind":"Mystery","apiVersion":"x/v1","b":1,"a":2}"#;
    let mut unknown = crate::runtime::Unknown::default();
    let (obj, gvk) = json.decode(input, None, Some(&mut unknown)).unwrap();
    assert_eq!(gvk.to_string(), "x/v1, Kind=Mystery");
    assert_eq!(unknown.raw, input);
    assert_eq!(unknown.content_type, "application/json");
    assert_eq!(obj.group_version_kind(), gvk);
    let yaml = JsonSerializer::new(&scheme, YAML);
    yaml.decode(
        b"kind: Mystery\napiVersion: x/v1\n",
        None,
        Some(&mut unknown),
    )
    .unwrap();
    assert_eq!(unknown.raw, br#"{"apiVersion":"x/v1","kind":"Mystery"}"#);
}

#[test]
fn the_kind_is_what_the_whole_document_declares_whatever_comes_first() {
    let scheme = scheme();
    let json = JsonSerializer::new(&scheme, OPTIONS);
    let decode = |body: &str| json.decode(body.as_bytes(), None, None);
    // Leading type meta (Go's order and kubectl's) and type meta further down decode
    // to the same object.
    let body = r#""metadata":{"name":"a"},"spec":{"replicas":2}"#;
    let (first, gvk) = decode(&format!(
        r#"{{"kind":"Deployment","apiVersion":"apps/v1",{body}}}"#
    ))
    .unwrap();
    assert_eq!(gvk, deployment_gvk());
    for doc in [
        format!(r#"{{"apiVersion":"apps/v1","kind":"Deployment",{body}}}"#),
        format!(r#"{{{body},"kind":"Deployment","apiVersion":"apps/v1"}}"#),
        format!(r#"{{"kind":"Deployment",{body},"apiVersion":"apps/v1"}}"#),
        format!(r#"{{"apiVersion":"apps/v1",{body},"kind":"Deployment"}}"#),
        format!(r#"{{"\u006bind":"Deployment","apiVersion":"apps/v1",{body}}}"#),
        format!(r#"{{"kind":"Deployment","apiVersion":"apps\/v1",{body}}}"#),
    ] {
        let (obj, gvk) = decode(&doc).unwrap();
        assert_eq!(gvk, deployment_gvk(), "{doc}");
        assert_eq!(
            obj.downcast_ref::<Deployment>(),
            first.downcast_ref::<Deployment>(),
            "{doc}"
        );
    }
    // A kind or version given again further down is the meta factory's error, whatever
    // the leading keys said (a key given twice, escaped or not).
    for doc in [
        format!(r#"{{"kind":"Deployment","apiVersion":"apps/v1",{body},"kind":"Other"}}"#),
        format!(r#"{{"kind":"Deployment","apiVersion":"apps/v1",{body},"kind":"Deployment"}}"#),
        format!(r#"{{"kind":"Deployment","apiVersion":"apps/v1",{body},"apiVersion":"apps/v2"}}"#),
        format!(r#"{{"kind":"Deployment","apiVersion":"apps/v1",{body},"\u006bind":"Other"}}"#),
    ] {
        let err = decode(&doc).unwrap_err();
        assert!(
            matches!(err.kind(), DecodeErrorKind::TypeMeta { .. }),
            "{doc}: {err}"
        );
    }
    // A kind of the wrong type further down, or trailing text, fail as before.
    let err = decode(&format!(
        r#"{{"kind":"Deployment","apiVersion":"apps/v1",{body},"kind":3}}"#
    ))
    .unwrap_err();
    assert!(
        matches!(err.kind(), DecodeErrorKind::TypeMeta { .. }),
        "{err}"
    );
    let err = decode(&format!(
        r#"{{"kind":"Deployment","apiVersion":"apps/v1",{body}}} x"#
    ))
    .unwrap_err();
    assert!(
        matches!(err.kind(), DecodeErrorKind::Syntax { .. }),
        "{err}"
    );
    // A leading kind the scheme does not know is not registered, even when the document
    // names a known one later (a key given twice is an error first).
    let err = decode(r#"{"kind":"Other","apiVersion":"apps/v1","metadata":{}}"#).unwrap_err();
    assert!(err.is_not_registered(), "{err}");
}

#[test]
fn typed_and_erased_encodes_write_the_same_bytes() {
    let scheme = scheme();
    let doc = data("deployment.kubectl.json");
    let (obj, _) = JsonSerializer::new(&scheme, OPTIONS)
        .decode(doc.as_bytes(), None, None)
        .unwrap();
    for options in [
        OPTIONS,
        SerializerOptions {
            pretty: true,
            ..OPTIONS
        },
        SerializerOptions {
            yaml: true,
            ..OPTIONS
        },
    ] {
        // The scheme's serializer takes the type's monomorphized encode; the
        // unstructured one knows no type and takes the object's erased serializer.
        let typed = JsonSerializer::new(&scheme, options)
            .encode_to_vec(&*obj)
            .unwrap();
        let erased = JsonSerializer::unstructured(options)
            .encode_to_vec(&*obj)
            .unwrap();
        assert_eq!(typed, erased, "{options:?}");
        let mut written = Vec::new();
        JsonSerializer::new(&scheme, options)
            .encode(&*obj, &mut written)
            .unwrap();
        assert_eq!(written, typed, "{options:?}");
    }
}

proptest::proptest! {
    /// Whatever the order of the top-level keys, and however often `kind` and
    /// `apiVersion` occur, the decode gives what the meta factory reads from the whole
    /// document: the kind it declares, or its error.
    #[test]
    fn the_kind_is_the_meta_factorys_whatever_the_key_order(
        entries in proptest::collection::vec(
            proptest::prop_oneof![
                proptest::sample::select(vec![
                    r#""kind":"Deployment""#,
                    r#""kind":null"#,
                    r#""kind":"Other""#,
                    r#""apiVersion":"apps/v1""#,
                    r#""apiVersion":null"#,
                    r#""apiVersion":"apps/v2""#,
                ]),
                proptest::sample::select(vec![
                    r#""metadata":{"name":"a","labels":{"kind":"x"}}"#,
                    r#""spec":{"replicas":3,"template":{"metadata":{"name":"t"}}}"#,
                    r#""extra":{"kind":"Nested","apiVersion":"v9"}"#,
                ]),
            ],
            0..6,
        )
    ) {
        let scheme = scheme();
        let json = JsonSerializer::new(&scheme, OPTIONS);
        let doc = format!("{{{}}}", entries.join(","));
        let result = json.decode(doc.as_bytes(), None, None);
        match super::interpret(doc.as_bytes()) {
            Err(e) => {
                let err = result.err().map(|e| e.to_string());
                proptest::prop_assert_eq!(err, Some(e.to_string()), "{}", doc);
            }
            Ok(gvk) if gvk == deployment_gvk() => {
                let (obj, decoded_gvk) = result.map_err(|e| {
                    proptest::test_runner::TestCaseError::fail(format!("{doc}: {e}"))
                })?;
                proptest::prop_assert_eq!(decoded_gvk, gvk);
                let mut want: Deployment = serde_json::from_str(&doc).unwrap();
                want.set_group_version_kind(&deployment_gvk());
                proptest::prop_assert_eq!(obj.downcast_ref::<Deployment>(), Some(&want));
            }
            Ok(_) => proptest::prop_assert!(result.is_err(), "{}", doc),
        }
    }
}

#[test]
fn strict_decoding_without_repeated_keys_lists_unknown_fields_in_document_order() {
    let scheme = scheme();
    // No key repeats: one read of the text gives the object and the unknown fields. With
    // an object inside an unknown field, the document pass is taken instead; both must
    // list the same fields in the same (document) order.
    for (extra, deep) in [(r#"[1,"x"]"#, "true"), (r#"{"a":{"b":1}}"#, r#"{"z":1}"#)] {
        let input = format!(
            r#"{{"zeta":{extra},"apiVersion":"apps/v1","kind":"Deployment",
            "metadata":{{"name":"a","bogus":1}},
            "spec":{{"replicas":2,"template":{{"spec":{{"containers":[
                {{"name":"c","imagePullPolicyy":"Always"}},{{"name":"d","deep":{deep}}}]}}}}}},
            "alpha":null}}"#
        );
        let err = JsonSerializer::new(&scheme, STRICT)
            .decode(input.as_bytes(), None, None)
            .unwrap_err();
        let strict = err.as_strict().unwrap();
        let paths: Vec<String> = strict.errors().iter().map(|e| e.to_string()).collect();
        assert_eq!(
            paths,
            [
                r#"unknown field "zeta""#,
                r#"unknown field "metadata.bogus""#,
                r#"unknown field "spec.template.spec.containers[0].imagePullPolicyy""#,
                r#"unknown field "spec.template.spec.containers[1].deep""#,
                r#"unknown field "alpha""#,
            ],
            "{extra}"
        );
        let d = strict.object().downcast_ref::<Deployment>().unwrap();
        assert_eq!((d.metadata.name.as_str(), d.spec.replicas), ("a", Some(2)));
    }
}
