//! The hand-written parts of `k8s-types`: Go's `null` handling and the apiextensions
//! types whose JSON is not a struct's. (Integration tests, so that `cargo test` does not
//! compile the generated crate a second time for unit tests.)

use k8s_types::apiextensions::v1::{
    JSON, JSONSchemaPropsOrArray, JSONSchemaPropsOrBool, JSONSchemaPropsOrStringArray,
};

#[derive(serde::Deserialize, Debug, PartialEq)]
struct Holder {
    #[serde(default, deserialize_with = "k8s_types::go_json::null_as_default")]
    items: Vec<String>,
}

#[test]
fn null_and_missing_read_as_empty() {
    let a: Holder = serde_json::from_str(r#"{"items":null}"#).unwrap();
    let b: Holder = serde_json::from_str("{}").unwrap();
    let c: Holder = serde_json::from_str(r#"{"items":["x"]}"#).unwrap();
    assert!(a.items.is_empty() && b.items.is_empty());
    assert_eq!(c.items, ["x"]);
    assert!(serde_json::from_str::<Holder>(r#"{"items":3}"#).is_err());
}

type OrBool = JSONSchemaPropsOrBool;
type OrStrings = JSONSchemaPropsOrStringArray;
type OrArray = JSONSchemaPropsOrArray;

#[test]
fn unions_round_trip_each_shape() {
    for text in ["true", "false", r#"{"type":"object"}"#] {
        let v: OrBool = serde_json::from_str(text).unwrap();
        assert_eq!(serde_json::to_string(&v).unwrap(), text);
    }
    for text in [r#"["a","b"]"#, r#"{"minLength":1}"#] {
        let v: OrStrings = serde_json::from_str(text).unwrap();
        assert_eq!(serde_json::to_string(&v).unwrap(), text);
    }
}

/// A `dependencies` entry with neither schema nor names (`null`, or `[]`) is written
/// `null`, as Go's `MarshalJSON` writes it.
#[test]
fn an_empty_property_list_is_null() {
    for text in ["null", "[]"] {
        let v: OrStrings = serde_json::from_str(text).unwrap();
        assert_eq!(v, OrStrings::Property(Vec::new()));
        assert_eq!(serde_json::to_string(&v).unwrap(), "null");
    }
    let mut scheme = apimachinery::runtime::Scheme::new();
    k8s_types::register(&mut scheme).unwrap();
    let body = br#"{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
        "spec":{"versions":[{"name":"v1","schema":{"openAPIV3Schema":{
        "dependencies":{"a":null,"b":[],"c":["d"]}}}}]}}"#;
    let gvk = "apiextensions.k8s.io/v1, Kind=CustomResourceDefinition"
        .parse()
        .unwrap();
    let crd = scheme.decode_json(&gvk, body).unwrap();
    use apimachinery::serializer::Encoder;
    use apimachinery::serializer::json::{JsonSerializer, SerializerOptions};
    let json = JsonSerializer::new(&scheme, SerializerOptions::default());
    let text = String::from_utf8(json.encode_to_vec(crd.as_ref()).unwrap()).unwrap();
    assert!(
        text.contains(r#""dependencies":{"a":null,"b":null,"c":["d"]}"#),
        "{text}"
    );
}

#[test]
fn wrong_shapes_are_errors_naming_what_was_expected() {
    let e = serde_json::from_str::<OrBool>("[1]").unwrap_err();
    assert!(
        e.to_string().contains("a schema object or a boolean"),
        "{e}"
    );
    let e = serde_json::from_str::<OrStrings>("3").unwrap_err();
    assert!(e.to_string().contains("array of property names"), "{e}");
    let e = serde_json::from_str::<OrStrings>(r#"[1]"#).unwrap_err();
    assert!(e.to_string().contains("string"), "{e}");
}

#[test]
fn json_keeps_any_value() {
    let v: JSON = serde_json::from_str(r#"{"a":[1,"x",null]}"#).unwrap();
    assert_eq!(serde_json::to_string(&v).unwrap(), r#"{"a":[1,"x",null]}"#);
}

/// Each shape of the unions survives protobuf, as Go's marshalers write them.
#[test]
fn unions_round_trip_through_protobuf() {
    use apimachinery::proto::{decode_message, encode_message};
    for text in ["true", "false", r#"{"type":"object"}"#] {
        let v: OrBool = serde_json::from_str(text).unwrap();
        assert_eq!(decode_message::<OrBool>(&encode_message(&v)).unwrap(), v);
    }
    for text in [r#"["a","b"]"#, r#"{"minLength":1}"#] {
        let v: OrStrings = serde_json::from_str(text).unwrap();
        assert_eq!(decode_message::<OrStrings>(&encode_message(&v)).unwrap(), v);
    }
    for text in [r#"[{"type":"string"},{}]"#, r#"{"type":"string"}"#] {
        let v: OrArray = serde_json::from_str(text).unwrap();
        assert_eq!(decode_message::<OrArray>(&encode_message(&v)).unwrap(), v);
    }
    let v: JSON = serde_json::from_str(r#"{"a":[1,"x",null]}"#).unwrap();
    assert_eq!(decode_message::<JSON>(&encode_message(&v)).unwrap(), v);
}
