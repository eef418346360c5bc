use super::*;

/// `metadata.managedFields[0].fieldsV1` of a Pod kube-apiserver wrote after
/// `kubectl apply` (client-side) of an nginx Pod, byte for byte.
pub(crate) const GO_POD_FIELDS: &str = r#"{"f:metadata":{"f:annotations":{".":{},"f:kubectl.kubernetes.io/last-applied-configuration":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"nginx\"}":{".":{},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:ports":{".":{},"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{},"f:protocol":{}}},"f:resources":{},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},"f:dnsPolicy":{},"f:enableServiceLinks":{},"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},"f:terminationGracePeriodSeconds":{}}}"#;

fn path(s: &str) -> Path {
    s.parse().expect("test path")
}

#[test]
fn go_written_fields_v1_reads_and_writes_back_byte_for_byte() {
    let set = Set::from_fields_v1_bytes(GO_POD_FIELDS.as_bytes()).expect("Go's FieldsV1");
    assert_eq!(
        String::from_utf8(set.to_fields_v1_bytes()).unwrap(),
        GO_POD_FIELDS
    );
    assert!(set.has(&path(".spec.dnsPolicy")));
    assert!(set.has(&path(".spec.containers[name=\"nginx\"]")));
    assert!(set.has(&path(
        ".spec.containers[name=\"nginx\"].ports[containerPort=80,protocol=\"TCP\"].protocol"
    )));
    assert!(set.has(&path(".metadata.annotations")));
    // Intermediate fields without "." are not members.
    assert!(!set.has(&path(".spec")));
    assert!(!set.has(&path(".spec.containers")));
    // The Value form agrees with the bytes.
    let v: Value = serde_json::from_str(GO_POD_FIELDS).unwrap();
    assert_eq!(set.to_fields_v1(), v);
}

#[test]
fn elements_are_written_in_gos_order_numbers_by_value() {
    let mut set = Set::new();
    for p in [
        ".spec.ports[port=10]",
        ".spec.ports[port=9]",
        ".spec.finalizers[=\"b\"]",
        ".spec.finalizers[=\"a\"]",
        ".spec.a",
    ] {
        set.insert(&path(p).0);
    }
    assert_eq!(
        String::from_utf8(set.to_fields_v1_bytes()).unwrap(),
        r#"{"f:spec":{"f:a":{},"f:finalizers":{"v:\"a\"":{},"v:\"b\"":{}},"f:ports":{"k:{\"port\":9}":{},"k:{\"port\":10}":{}}}}"#
    );
}

#[test]
fn keys_with_several_fields_sort_by_name_and_escape_as_go() {
    let pe = PathElement::key(vec![
        ("protocol".into(), Value::from("TCP")),
        ("containerPort".into(), Value::from(80)),
    ]);
    assert_eq!(
        pe.to_fields_v1_key(),
        r#"k:{"containerPort":80,"protocol":"TCP"}"#
    );
    assert_eq!(pe.to_string(), r#"[containerPort=80,protocol="TCP"]"#);
    let html = PathElement::Value(Value::from("<a&b>"));
    assert_eq!(html.to_fields_v1_key(), r#"v:"\u003ca\u0026b\u003e""#);
}

#[test]
fn malformed_documents_are_errors_naming_where() {
    let err = Set::from_fields_v1_bytes(br#"{"f:spec":{"x:bad":{}}}"#).unwrap_err();
    assert_eq!(
        err,
        FieldPathError::UnknownElement {
            path: ".spec".into(),
            key: "x:bad".into()
        }
    );
    assert!(matches!(
        Set::from_fields_v1_bytes(br#"{"k:[1]":{}}"#),
        Err(FieldPathError::Malformed { .. })
    ));
    assert!(matches!(
        Set::from_fields_v1_bytes(br#"{"f:a":3}"#),
        Err(FieldPathError::NotAnObject { .. })
    ));
    assert!(Set::from_fields_v1_bytes(b"not json").is_err());
    assert!(Set::from_fields_v1_bytes(br#"{"i:-1":{}}"#).is_err());
}

#[test]
fn set_algebra_follows_go() {
    let mut a = Set::new();
    a.insert(&path(".spec.replicas").0);
    a.insert(&path(".spec.template.image").0);
    let mut b = Set::new();
    b.insert(&path(".spec.replicas").0);
    b.insert(&path(".spec.paused").0);
    assert_eq!(a.intersection(&b).paths(), vec![path(".spec.replicas")]);
    assert_eq!(a.difference(&b).paths(), vec![path(".spec.template.image")]);
    assert_eq!(
        a.union(&b).paths(),
        vec![
            path(".spec.paused"),
            path(".spec.replicas"),
            path(".spec.template.image")
        ]
    );
    // A member of the other set removes what lies below it only recursively.
    let mut spec = Set::new();
    spec.insert(&path(".spec").0);
    assert_eq!(a.difference(&spec), a);
    assert!(a.recursive_difference(&spec).is_empty());
    assert!(Set::new().is_empty());
    assert!(a.difference(&a).is_empty());
}
