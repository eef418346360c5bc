//! `kind` and `apiVersion` of objects inside other objects, as Go writes them. Go's
//! encoders never fill in a struct's `TypeMeta`: only the codec writing an object sets
//! the kind of that object. A `Status` in an admission response, the items of a typed
//! list and an object held by a `RawExtension` are written with the `TypeMeta` they hold
//! (usually none); the same `Status` written as the response itself names its kind.

use apimachinery::apis::meta::v1::{Status, TypeMeta};
use apimachinery::runtime::{RawExtension, Scheme};
use apimachinery::schema::GroupVersion;
use apimachinery::serializer::json::{JsonSerializer, SerializerOptions};
use apimachinery::serializer::{CodecFactory, Decoder, Encoder};
use k8s_types::admission::v1::{AdmissionResponse, AdmissionReview};
use k8s_types::apps::v1::Deployment;
use serde_json::{Value, json};

fn denied() -> Status {
    Status {
        status: "Failure".into(),
        message: "denied".into(),
        reason: "Forbidden".into(),
        code: 403,
        ..Default::default()
    }
}

fn review(status: Status) -> AdmissionReview {
    AdmissionReview {
        response: Some(AdmissionResponse {
            status: Some(status),
            ..Default::default()
        }),
        ..Default::default()
    }
}

fn to_value(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes).unwrap()
}

#[test]
fn a_nested_status_is_written_with_the_type_meta_it_holds() {
    let scheme = Scheme::from_registry().unwrap();
    let factory = CodecFactory::new(&scheme);
    let codec = factory.legacy_codec(&[GroupVersion::new("admission.k8s.io", "v1")]);
    let go_status = json!({
        "metadata": {}, "status": "Failure", "message": "denied", "reason": "Forbidden", "code": 403
    });

    let bare = review(denied());
    let written = to_value(&codec.encode_to_vec(&bare).unwrap());
    assert_eq!(written["kind"], "AdmissionReview");
    assert_eq!(written["apiVersion"], "admission.k8s.io/v1");
    assert_eq!(written["response"]["status"], go_status);
    assert_eq!(
        serde_json::to_value(&bare).unwrap()["response"]["status"],
        go_status
    );
    // Read back, the nested status still holds no kind.
    let (decoded, _) = codec
        .decode(&codec.encode_to_vec(&bare).unwrap(), None, None)
        .unwrap();
    let decoded = decoded.downcast_ref::<AdmissionReview>().unwrap();
    let status = decoded.response.as_ref().unwrap().status.as_ref().unwrap();
    assert!(status.type_meta.is_empty());

    let mut with_kind = denied();
    with_kind.type_meta = TypeMeta {
        kind: "Status".into(),
        api_version: "v1".into(),
    };
    let written = to_value(&codec.encode_to_vec(&review(with_kind.clone())).unwrap());
    let mut go_status_with_kind = json!({"kind": "Status", "apiVersion": "v1"});
    go_status_with_kind
        .as_object_mut()
        .unwrap()
        .extend(go_status.as_object().unwrap().clone());
    assert_eq!(written["response"]["status"], go_status_with_kind);
    let text = String::from_utf8(codec.encode_to_vec(&review(with_kind)).unwrap()).unwrap();
    assert!(
        text.contains(r#""status":{"kind":"Status","apiVersion":"v1","metadata":{}"#),
        "{text}"
    );

    // YAML writes the same members.
    let yaml = JsonSerializer::new(
        &scheme,
        SerializerOptions {
            yaml: true,
            ..Default::default()
        },
    );
    let text = String::from_utf8(yaml.encode_to_vec(&review(denied())).unwrap()).unwrap();
    assert!(text.contains("  status:\n    code: 403\n"), "{text}");
    assert!(!text.contains("kind: Status"), "{text}");
}

#[test]
fn a_status_written_as_the_object_names_its_kind() {
    let scheme = Scheme::from_registry().unwrap();
    let factory = CodecFactory::new(&scheme);
    // Whatever version the codec targets: Status is unversioned, written as `v1`.
    for target in [GroupVersion::new("", "v1"), GroupVersion::new("apps", "v1")] {
        let written = to_value(
            &factory
                .legacy_codec(std::slice::from_ref(&target))
                .encode_to_vec(&denied())
                .unwrap(),
        );
        assert_eq!(written["kind"], "Status", "{target}");
        assert_eq!(written["apiVersion"], "v1", "{target}");
        assert_eq!(written["code"], 403);
    }
    let pb = factory
        .serializer_for_media_type("application/vnd.kubernetes.protobuf")
        .unwrap()
        .serializer
        .encode_to_vec(&denied())
        .unwrap();
    let envelope = apimachinery::proto::decode_envelope(&pb).unwrap();
    assert_eq!((envelope.api_version, envelope.kind), ("v1", "Status"));
}

#[test]
fn typed_list_items_keep_the_type_meta_they_hold() {
    let scheme = Scheme::from_registry().unwrap();
    let factory = CodecFactory::new(&scheme);
    let list = br#"{"kind":"DeploymentList","apiVersion":"apps/v1","metadata":{},"items":[
        {"metadata":{"name":"a"}},
        {"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"b"}}]}"#;
    let (obj, _) = factory
        .universal_deserializer()
        .decode(list, None, None)
        .unwrap();
    let codec = factory.legacy_codec(&[GroupVersion::new("apps", "v1")]);
    let written = to_value(&codec.encode_to_vec(&*obj).unwrap());
    assert_eq!(written["kind"], "DeploymentList");
    let items = written["items"].as_array().unwrap();
    assert_eq!(items[0].get("kind"), None);
    assert_eq!(items[0].get("apiVersion"), None);
    assert_eq!(items[0]["metadata"]["name"], "a");
    assert_eq!(items[1]["kind"], "Deployment");
    assert_eq!(items[1]["apiVersion"], "apps/v1");
}

#[test]
fn an_object_in_a_raw_extension_is_written_as_it_is() {
    let mut deployment = Deployment::default();
    deployment.metadata.name = "web".into();
    let raw = RawExtension::from_object(Box::new(deployment.clone()));
    assert_eq!(
        serde_json::to_value(&raw).unwrap()["metadata"],
        json!({"name": "web"})
    );
    assert_eq!(serde_json::to_value(&raw).unwrap().get("kind"), None);

    let status = RawExtension::from_object(Box::new(denied()));
    let written = serde_json::to_value(&status).unwrap();
    assert_eq!(written.get("kind"), None);
    assert_eq!(written["code"], 403);

    deployment.type_meta = TypeMeta {
        kind: "Deployment".into(),
        api_version: "apps/v1".into(),
    };
    let written = serde_json::to_value(RawExtension::from_object(Box::new(deployment))).unwrap();
    assert_eq!(written["kind"], "Deployment");
    assert_eq!(written["apiVersion"], "apps/v1");
}
