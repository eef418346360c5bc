//! The generated types through serde, as programs use them (`serde_json::to_vec(&pod)`,
//! `serde_json::from_slice::<Pod>`, `serde_yaml`, a `serde_json::Value`): the derived
//! impls hand the work to the types' `WriteJson` and `ReadJson`, and must give what a
//! field-by-field serde impl gave: the same text (Go's field order and omissions, the
//! serializer's own escaping), the same values from JSON, YAML and `Value`, and errors
//! that name the field.

use std::path::PathBuf;

use apimachinery::runtime::Object;
use apimachinery::runtime::json_reader::{ReadJson, read_slice_tracking};
use apimachinery::runtime::unstructured::from_value_tracking;
use apimachinery::util::json::{GoFormatter, JsonLayout};
use k8s_types::apps::v1::Deployment;
use k8s_types::autoscaling::v2::HorizontalPodAutoscaler;
use k8s_types::core::v1::{Node, Pod};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// Go's fixtures of the release built.
fn testdata_dir() -> PathBuf {
    crate::release_data::testdata(k8s_types::RELEASE)
}

/// A fixture of Go's (`core.v1.Pod.json`), or `None` with a note when the checkout has
/// none (a failure under CI).
fn fixture(name: &str) -> Option<Vec<u8>> {
    let path = testdata_dir().join(name);
    match std::fs::read(&path) {
        Ok(bytes) => Some(bytes),
        Err(e) => {
            assert!(std::env::var_os("CI").is_none(), "{}: {e}", path.display());
            eprintln!("skipped: {} not found", path.display());
            None
        }
    }
}

/// Go's text with its HTML-safe escapes undone: what `serde_json`'s serializer writes
/// for the same values (the other escapes agree; the fixtures hold no floats, whose
/// format differs).
fn without_go_html_escapes(go: &str) -> String {
    go.replace("\\u003c", "<")
        .replace("\\u003e", ">")
        .replace("\\u0026", "&")
        .replace("\\u2028", "\u{2028}")
        .replace("\\u2029", "\u{2029}")
}

fn check_fixture<T>(stem: &str)
where
    T: Object + ReadJson + DeserializeOwned + Serialize + PartialEq + std::fmt::Debug,
{
    let (Some(json), Some(yaml)) = (
        fixture(&format!("{stem}.json")),
        fixture(&format!("{stem}.yaml")),
    ) else {
        return;
    };
    // Read through serde, as through the codec.
    let value: T = serde_json::from_slice(&json).unwrap();
    let direct = read_slice_tracking::<T>(&json, false).unwrap().value;
    // The same values; a `RawExtension`'s text may differ in whitespace only: serde's
    // path reads it as a value and writes it compact (1.37's ControllerRevision fixture
    // holds indented `data`), where the codec keeps Go's bytes.
    assert_eq!(
        serde_json::to_value(&value).unwrap(),
        serde_json::to_value(&direct).unwrap(),
        "{stem}"
    );
    let mut go = Vec::new();
    value.encode_json(&mut go, JsonLayout::Compact).unwrap();
    let go = String::from_utf8(go).unwrap();

    // serde_json's serializer: Go's order, serde_json's escapes.
    let text = serde_json::to_string(&value).unwrap();
    assert_eq!(text, without_go_html_escapes(&go), "{stem}");
    let mut with_go_formatter = Vec::new();
    value
        .serialize(&mut serde_json::Serializer::with_formatter(
            &mut with_go_formatter,
            GoFormatter::compact(),
        ))
        .unwrap();
    assert_eq!(String::from_utf8(with_go_formatter).unwrap(), go, "{stem}");
    let mut writer = Vec::new();
    serde_json::to_writer_pretty(&mut writer, &value).unwrap();
    assert_eq!(
        serde_json::from_slice::<serde_json::Value>(&writer).unwrap(),
        serde_json::from_str::<serde_json::Value>(&go).unwrap()
    );

    // A `serde_json::Value` both ways.
    let as_value = serde_json::to_value(&value).unwrap();
    assert_eq!(
        as_value,
        serde_json::from_str::<serde_json::Value>(&go).unwrap(),
        "{stem}"
    );
    assert_eq!(
        serde_json::from_value::<T>(as_value).unwrap(),
        value,
        "{stem}"
    );

    // YAML: Go's YAML fixture reads as the JSON one; the value written as YAML reads back.
    let from_yaml: T = serde_yaml_ng::from_slice(&yaml).unwrap();
    assert_eq!(from_yaml, value, "{stem}");
    let yaml_text = serde_yaml_ng::to_string(&value).unwrap();
    assert_eq!(
        serde_yaml_ng::from_str::<T>(&yaml_text).unwrap(),
        value,
        "{stem}"
    );
}

#[test]
fn gos_fixtures_read_and_write_through_serde_as_through_the_codecs() {
    check_fixture::<Pod>("core.v1.Pod");
    check_fixture::<Deployment>("apps.v1.Deployment");
    check_fixture::<Node>("core.v1.Node");
    check_fixture::<HorizontalPodAutoscaler>("autoscaling.v2.HorizontalPodAutoscaler");
    check_fixture::<k8s_types::apps::v1::ControllerRevision>("apps.v1.ControllerRevision");
}

const POD: &str = r#"{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a<b>&c","labels":{"app":"web"},"creationTimestamp":null},"spec":{"containers":[{"name":"c","image":"nginx","ports":[{"containerPort":80}],"resources":{"limits":{"cpu":"500m"}}}]},"status":{}}"#;

#[test]
fn serde_json_writes_gos_order_with_its_own_escapes() {
    let pod: Pod = serde_json::from_str(POD).unwrap();
    let mut go = Vec::new();
    pod.encode_json(&mut go, JsonLayout::Compact).unwrap();
    let go = String::from_utf8(go).unwrap();
    assert!(go.contains(r#""name":"a\u003cb\u003e\u0026c""#), "{go}");
    let text = serde_json::to_string(&pod).unwrap();
    assert!(
        text.starts_with(r#"{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a<b>&c""#),
        "{text}"
    );
    assert_eq!(text, without_go_html_escapes(&go));
}

#[test]
fn a_yaml_map_reads_as_go_reads_it() {
    // Numbers where Go's YAML-to-JSON step writes numbers (a quantity, a port), keys that
    // are numbers or booleans as strings (as sigs.k8s.io/yaml converts them).
    let yaml = "
kind: Pod
apiVersion: v1
metadata:
  name: web
  labels:
    1: one
    true: yes
spec:
  containers:
  - name: c
    ports:
    - containerPort: 8080
    resources:
      limits:
        cpu: 0.5
        memory: 1024
";
    let pod: Pod = serde_yaml_ng::from_str(yaml).unwrap();
    let labels = pod.metadata.labels.clone();
    assert_eq!(labels.get("1").map(String::as_str), Some("one"));
    assert_eq!(labels.get("true").map(String::as_str), Some("yes"));
    let container = &pod.spec.containers.as_ref().unwrap()[0];
    assert_eq!(container.ports[0].container_port, 8080);
    let limits = &container.resources.limits;
    assert_eq!(limits["cpu"].to_string(), "500m");
    assert_eq!(limits["memory"].to_string(), "1024");
    let back: Pod = serde_yaml_ng::from_str(&serde_yaml_ng::to_string(&pod).unwrap()).unwrap();
    assert_eq!(back, pod);
}

#[test]
fn errors_name_the_field_at_fault() {
    let bad = POD.replace(r#""containerPort":80"#, r#""containerPort":"http""#);
    let err = serde_json::from_str::<Pod>(&bad).unwrap_err().to_string();
    assert!(
        err.starts_with(
            r#"spec.containers[0].ports[0].containerPort: invalid type: string "http", expected i32"#
        ),
        "{err}"
    );
    let err = serde_yaml_ng::from_str::<Pod>("spec:\n  containers:\n  - name: c\n    ports: {}\n")
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("spec.containers[0].ports: invalid type: map, expected a sequence"),
        "{err}"
    );
    // Not JSON at all: the deserializer's own error, with its position.
    let err = serde_json::from_str::<Pod>(r#"{"spec": }"#)
        .unwrap_err()
        .to_string();
    assert_eq!(err, "expected value at line 1 column 10");
}

#[test]
fn this_crates_reader_reads_a_derived_type_in_place_naming_unknown_fields() {
    // `from_value_tracking` reads through serde's `Deserialize`: the derived impl hands
    // the reader to the type's `ReadJson`, so that unknown fields keep their full path.
    let mut value: serde_json::Value = serde_json::from_str(POD).unwrap();
    value["spec"]["containers"][0]["bogus"] = 1.into();
    let (pod, unknown) =
        from_value_tracking::<Vec<Pod>>(&serde_json::json!([value]), true).unwrap();
    assert_eq!(pod[0].metadata.name, "a<b>&c");
    assert_eq!(unknown, ["[0].spec.containers[0].bogus"]);
    value["spec"]["containers"][0]["ports"][0]["containerPort"] = "x".into();
    let err = from_value_tracking::<Vec<Pod>>(&serde_json::json!([value]), false).unwrap_err();
    assert_eq!(err.path, "[0].spec.containers[0].ports[0].containerPort");
}
