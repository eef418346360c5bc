//! Robustness of the decoders: whatever the bytes, decoding returns (an object or a
//! typed error) and never panics. Corpus-free: proptest generates the inputs.

use proptest::prelude::*;

use super::json::{JsonSerializer, SerializerOptions};
use super::{CodecFactory, Decoder, Encoder};
use crate::runtime::Unstructured;
use crate::util::json::format_go_float64;

fn options() -> impl Strategy<Value = SerializerOptions> {
    (any::<bool>(), any::<bool>(), any::<bool>()).prop_map(|(yaml, pretty, strict)| {
        SerializerOptions {
            yaml,
            pretty,
            strict,
        }
    })
}

fn json_value() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::Value;
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        "[a-z<>&\u{2028} \"\\\\\n:#-]{0,8}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-zA-Z]{1,6}", inner, 0..5)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// A Deployment-shaped document with values of any type in its fields.
fn deployment_like() -> impl Strategy<Value = Vec<u8>> {
    (
        json_value(),
        json_value(),
        prop::option::of("(apps/v1|v1|a/b/c|)"),
        prop::option::of("(Deployment|X|)"),
    )
        .prop_map(|(spec, metadata, api_version, kind)| {
            let mut doc = serde_json::json!({"spec": spec, "metadata": metadata});
            if let Some(v) = api_version {
                doc["apiVersion"] = v.into();
            }
            if let Some(k) = kind {
                doc["kind"] = k.into();
            }
            serde_json::to_vec(&doc).unwrap_or_default()
        })
}

fn mutated_kubectl_deployment() -> impl Strategy<Value = Vec<u8>> {
    let base = include_bytes!("../../tests/data/deployment.kubectl.json").to_vec();
    let len = base.len();
    prop::collection::vec((0..len, any::<u8>(), 0..3u8), 1..6).prop_map(move |edits| {
        let mut data = base.clone();
        for (at, byte, op) in edits {
            let at = at.min(data.len());
            match op {
                0 => data.insert(at, byte),
                1 if at < data.len() => data[at] = byte,
                _ => data.truncate(at),
            }
        }
        data
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_bytes_never_panic(data in prop::collection::vec(any::<u8>(), 0..256), options in options()) {
        let scheme = super::json::serializer_tests::scheme();
        let _ = JsonSerializer::new(&scheme, options).decode(&data, None, None);
        let _ = JsonSerializer::unstructured(options).decode(&data, None, None);
        let _ = CodecFactory::new(&scheme).universal_deserializer().decode(&data, None, None);
    }

    #[test]
    fn wrong_types_in_known_fields_never_panic(data in deployment_like(), options in options()) {
        let scheme = super::json::serializer_tests::scheme();
        let gvk = crate::schema::GroupVersionKind::new("apps", "v1", "Deployment");
        let options = SerializerOptions { yaml: false, ..options };
        let _ = JsonSerializer::new(&scheme, options).decode(&data, Some(&gvk), None);
    }

    #[test]
    fn mutated_documents_never_panic(data in mutated_kubectl_deployment(), options in options()) {
        let scheme = super::json::serializer_tests::scheme();
        let options = SerializerOptions { yaml: false, ..options };
        let _ = JsonSerializer::new(&scheme, options).decode(&data, None, None);
        let _ = JsonSerializer::unstructured(options).decode(&data, None, None);
    }

    #[test]
    fn unstructured_json_round_trips(mut value in json_value(), pretty in any::<bool>()) {
        if !value.is_object() {
            value = serde_json::json!({"v": value});
        }
        value["kind"] = "K".into();
        value["apiVersion"] = "g/v1".into();
        let json = JsonSerializer::unstructured(SerializerOptions { pretty, ..SerializerOptions::default() });
        let obj = Unstructured::from_value(value).unwrap();
        let first = json.encode_to_vec(&obj).unwrap();
        let (decoded, _) = json.decode(&first, None, None).unwrap();
        prop_assert_eq!(json.encode_to_vec(&*decoded).unwrap(), first);
    }

    #[test]
    fn go_floats_read_back_exactly(f in any::<f64>().prop_filter("finite", |f| f.is_finite())) {
        let text = format_go_float64(f).unwrap();
        prop_assert_eq!(text.parse::<f64>().unwrap(), f);
        prop_assert!(!text.ends_with(".0"));
    }
}
