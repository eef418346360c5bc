//! What a typed-only user has (`default-features = false`, a group's feature, no
//! `scheme`): the structs and their JSON and protobuf, with no `Scheme` in sight. Every
//! call here exists without `scheme`, so the module compiles either way: CI runs it with
//! the default features among the other modules, and alone with `core` and nothing else
//! (`cargo test -p k8s-types --no-default-features --features core --test integration
//! typed_only::`), where the kinds derive `ApiKind` instead of `ApiObject`.

use apimachinery::proto::{decode_envelope, decode_message, encode_envelope, encode_message};
use apimachinery::util::json::{JsonLayout, encode_go_json};
use k8s_types::core::v1::{Container, Pod, PodList};

type TestResult = Result<(), Box<dyn std::error::Error>>;

const POD: &str = r#"{"kind":"Pod","apiVersion":"v1","metadata":{"name":"web","namespace":"default","labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"nginx:1.27","ports":[{"containerPort":80,"protocol":"TCP"}],"resources":{"limits":{"cpu":"500m"}}}],"restartPolicy":"Always"},"status":{"phase":"Running"}}"#;

fn go_json<T: serde::Serialize>(
    value: &T,
    layout: JsonLayout,
) -> Result<String, Box<dyn std::error::Error>> {
    let mut out = Vec::new();
    encode_go_json(value, &mut out, layout)?;
    Ok(String::from_utf8(out)?)
}

#[test]
fn a_pod_reads_and_writes_json_as_go_does() -> TestResult {
    let pod: Pod = serde_json::from_str(POD)?;
    assert_eq!(pod.type_meta.kind, "Pod");
    assert_eq!(pod.metadata.name, "web");
    let containers = pod.spec.containers.as_deref().unwrap_or_default();
    assert_eq!(containers.len(), 1);
    assert_eq!(containers[0].ports[0].container_port, 80);
    assert_eq!(
        containers[0]
            .resources
            .limits
            .get("cpu")
            .map(ToString::to_string),
        Some("500m".to_owned())
    );
    // Go's zero values written back where the input had none (`status` fields, the
    // container's `resources` sub-objects stay as read).
    assert_eq!(
        go_json(&pod, JsonLayout::Compact)?,
        r#"{"kind":"Pod","apiVersion":"v1","metadata":{"name":"web","namespace":"default","labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"nginx:1.27","ports":[{"containerPort":80,"protocol":"TCP"}],"resources":{"limits":{"cpu":"500m"}}}],"restartPolicy":"Always"},"status":{"phase":"Running"}}"#
    );
    assert_eq!(
        serde_json::to_string(&pod)?,
        go_json(&pod, JsonLayout::Compact)?
    );
    // A Pod built in Rust writes kind and apiVersion only when set, as Go does.
    let bare = Pod {
        spec: k8s_types::core::v1::PodSpec {
            containers: Some(vec![Container {
                name: "c".to_owned(),
                ..Default::default()
            }]),
            ..Default::default()
        },
        ..Default::default()
    };
    assert_eq!(
        go_json(&bare, JsonLayout::Compact)?,
        r#"{"metadata":{},"spec":{"containers":[{"name":"c","resources":{}}]},"status":{}}"#
    );
    // A wrong type names its place.
    let err = serde_json::from_str::<Pod>(r#"{"spec":{"containers":[{"name":1}]}}"#).unwrap_err();
    assert!(err.to_string().contains("expected a string"), "{err}");
    Ok(())
}

#[test]
fn a_pod_reads_and_writes_protobuf_as_go_does() -> TestResult {
    let pod: Pod = serde_json::from_str(POD)?;
    let message = encode_message(&pod);
    let back: Pod = decode_message(&message)?;
    // The protobuf message has no TypeMeta: the envelope carries it.
    assert_eq!(back.type_meta.kind, "");
    assert_eq!(back.metadata, pod.metadata);
    assert_eq!(back.spec, pod.spec);
    assert_eq!(back.status, pod.status);

    let enveloped = encode_envelope("v1", "Pod", |e| {
        e.raw(&message);
    });
    let envelope = decode_envelope(&enveloped)?;
    assert_eq!((envelope.api_version, envelope.kind), ("v1", "Pod"));
    assert_eq!(envelope.raw, message.as_slice());

    let list = PodList {
        items: Some(vec![pod.clone(), back]),
        ..Default::default()
    };
    let list_back: PodList = decode_message(&encode_message(&list))?;
    let items = list_back.items.as_deref().unwrap_or_default();
    assert_eq!(items.len(), 2);
    assert_eq!(items[1].spec, pod.spec);
    Ok(())
}

/// Go's own fixture of a Pod (every field set), when the reference data is there: the
/// JSON and protobuf files decode to the same Pod and each re-encodes to its own bytes.
#[test]
fn go_fixture_of_a_pod_round_trips() -> TestResult {
    let dir = super::testdata();
    let (Ok(json), Ok(pb)) = (
        std::fs::read_to_string(dir.join("core.v1.Pod.json")),
        std::fs::read(dir.join("core.v1.Pod.pb")),
    ) else {
        eprintln!("skipped: no Go fixtures in {}", dir.display());
        return Ok(());
    };
    let from_json: Pod = serde_json::from_str(&json)?;
    assert_eq!(
        go_json(&from_json, JsonLayout::Pretty)?.trim_end(),
        json.trim_end()
    );

    let envelope = decode_envelope(&pb)?;
    let mut from_pb: Pod = decode_message(envelope.raw)?;
    from_pb.type_meta = from_json.type_meta.clone();
    assert_eq!(from_pb, from_json);
    let again = encode_envelope(envelope.api_version, envelope.kind, |e| {
        e.raw(&encode_message(&from_pb));
    });
    assert_eq!(again, pb);
    Ok(())
}
