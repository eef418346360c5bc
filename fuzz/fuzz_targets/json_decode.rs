//! The JSON decoders typed through the Scheme: the JSON serializer (lenient and strict),
//! the unstructured JSON scheme and the universal deserializer. Properties: no panic;
//! decode → encode → decode gives the same object; a strict decode that succeeds agrees
//! with the lenient one; the protobuf encoding of a decoded object decodes to the same
//! object (JSON and protobuf agree).
#![no_main]

use apimachinery::serializer::json::{JsonSerializer, SerializerOptions};
use apimachinery::serializer::protobuf::ProtobufSerializer;
use apimachinery::serializer::{CodecFactory, Decoder, Encoder};
use apimachinery_fuzz::{assert_round_trip, json_of, same_json, scheme};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let scheme = scheme();
    let lenient = JsonSerializer::new(scheme, SerializerOptions::default());
    let typed = lenient.decode(data, None, None);
    if let Ok((obj, _)) = &typed {
        assert_round_trip(&lenient, &**obj, "JSON");
        if obj.as_proto_message().is_some() {
            let protobuf = ProtobufSerializer::new(scheme);
            let bytes = match protobuf.encode_to_vec(&**obj) {
                Ok(bytes) => bytes,
                Err(e) => panic!(
                    "a decoded {} has no protobuf encoding: {e}",
                    obj.type_name()
                ),
            };
            match protobuf.decode(&bytes, None, None) {
                Ok((back, _)) => {
                    let (want, got) = (json_of(&**obj), json_of(&*back));
                    assert!(
                        same_json(&want, &got),
                        "JSON and protobuf disagree\njson:     {}\nprotobuf: {}",
                        String::from_utf8_lossy(&want),
                        String::from_utf8_lossy(&got)
                    );
                }
                Err(e) => panic!(
                    "the protobuf encoding of a decoded {} fails: {e}",
                    obj.type_name()
                ),
            }
        }
    }

    let strict = JsonSerializer::new(
        scheme,
        SerializerOptions {
            strict: true,
            ..SerializerOptions::default()
        },
    );
    if let Ok((obj, _)) = strict.decode(data, None, None) {
        match &typed {
            Ok((lenient_obj, _)) => assert!(
                json_of(&*obj) == json_of(&**lenient_obj),
                "strict and lenient decoding disagree"
            ),
            Err(e) => panic!("strict decoding accepts what lenient decoding rejects: {e}"),
        }
    }

    let unstructured = JsonSerializer::unstructured(SerializerOptions::default());
    if let Ok((obj, _)) = unstructured.decode(data, None, None) {
        assert_round_trip(&unstructured, &*obj, "unstructured JSON");
    }

    let _ = CodecFactory::new(scheme)
        .universal_deserializer()
        .decode(data, None, None);
});
