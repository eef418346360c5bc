//! The resource limits of the decoders: each hostile input named in issue 22 is refused
//! with a typed error, in bounded memory, without overflowing the stack of a thread as
//! small as the ones servers decode request bodies on.
//!
//! The limits: JSON nesting of 128 (serde_json's recursion limit, which every JSON
//! decoder here uses; Go's `k8s.io/apimachinery` JSON reader allows 10,000 — an object
//! nested deeper than 128 is refused here, and no built-in kind comes near), YAML nesting
//! of [`yaml::MAX_DEPTH`] and go-yaml's alias-expansion ratio, protobuf nesting of
//! [`proto::MAX_DEPTH`](crate::proto::MAX_DEPTH), length prefixes checked against
//! the bytes left before anything is read or allocated, and frames of at most
//! [`MAX_FRAME_LEN`](crate::proto::MAX_FRAME_LEN).
#![allow(clippy::unwrap_used)]

use std::io::Cursor;

use super::json::{JsonSerializer, SerializerOptions};
use super::protobuf::ProtobufSerializer;
use super::yaml::{self, YamlErrorKind};
use super::{CodecFactory, DecodeErrorKind, Decoder, Format};
use crate::proto::{LengthDelimitedFrameReader, MAX_FRAME_LEN, ProtobufErrorKind};

/// The stack of a tokio worker thread, on which a server decodes request bodies.
const SERVER_THREAD_STACK: usize = 2 << 20;

/// Runs `f` on a thread with a server's stack: a decoder that recursed once per nesting
/// level would overflow it (and abort the test process) on the inputs below.
fn on_server_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(SERVER_THREAD_STACK)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

fn scheme() -> crate::runtime::Scheme {
    super::json::serializer_tests::scheme()
}

/// A Deployment whose `spec.x` is `depth` nested arrays: 2 bytes a level.
fn deployment_nested(depth: usize) -> Vec<u8> {
    format!(
        r#"{{"apiVersion":"apps/v1","kind":"Deployment","spec":{{"x":{}{}}}}}"#,
        "[".repeat(depth),
        "]".repeat(depth)
    )
    .into_bytes()
}

fn assert_too_deep_json(kind: &DecodeErrorKind) {
    let message = kind.to_string();
    assert!(
        message.contains("recursion limit exceeded"),
        "not a nesting error: {message}"
    );
    assert!(
        matches!(
            kind,
            DecodeErrorKind::Syntax {
                format: Format::Json,
                position: Some(_),
                ..
            } | DecodeErrorKind::Field {
                position: Some(_),
                ..
            } | DecodeErrorKind::TypeMeta { .. }
        ),
        "{kind:?}"
    );
}

#[test]
fn deeply_nested_json_arrays_are_a_typed_error_not_a_stack_overflow() {
    on_server_stack(|| {
        let scheme = scheme();
        // 100,000 levels in 200 KB, far inside a 3 MiB request body.
        let deep = deployment_nested(100_000);
        for strict in [false, true] {
            let options = SerializerOptions {
                strict,
                ..SerializerOptions::default()
            };
            let unstructured = JsonSerializer::unstructured(options).decode(&deep, None, None);
            assert_too_deep_json(unstructured.err().unwrap().kind());
            // The typed Deployment has no `spec.x`: serde_json skips an unknown value
            // without recursing, so the lenient decode succeeds, as Go's does; the strict
            // one reports the unknown field. Neither overflows.
            let typed = JsonSerializer::new(&scheme, options).decode(&deep, None, None);
            assert_eq!(typed.is_ok(), !strict);
        }
        let bare = "[".repeat(100_000).into_bytes();
        let err = JsonSerializer::unstructured(SerializerOptions::default())
            .decode(&bare, None, None)
            .err()
            .unwrap();
        assert_too_deep_json(err.kind());
    });
}

#[test]
fn json_nested_within_the_limit_decodes() {
    on_server_stack(|| {
        let scheme = scheme();
        // The document's own two levels and `spec.x` leave room for 120 arrays.
        let within = deployment_nested(120);
        let json = JsonSerializer::unstructured(SerializerOptions::default());
        assert!(json.decode(&within, None, None).is_ok());
        let typed = JsonSerializer::new(&scheme, SerializerOptions::default());
        // The typed Deployment has no `spec.x`: ignored, whatever its depth.
        assert!(typed.decode(&within, None, None).is_ok());
    });
}

/// A 10 KB YAML document whose aliases expand to 10⁹ scalars (tens of gigabytes).
fn billion_laughs() -> String {
    let mut doc = String::from(
        "apiVersion: v1\nkind: ConfigMap\na: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
    );
    let names = ["b", "c", "d", "e", "f", "g", "h", "i", "j"];
    let mut prev = "a";
    for name in names {
        let items = vec![format!("*{prev}"); 10].join(",");
        doc.push_str(&format!("{name}: &{name} [{items}]\n"));
        prev = name;
    }
    doc
}

#[test]
fn yaml_billion_laughs_is_refused_as_excessive_aliasing() {
    let doc = billion_laughs();
    assert!(doc.len() < 10 * 1024, "{} bytes", doc.len());
    let err = yaml::yaml_to_json(&doc).err().unwrap();
    assert_eq!(err.kind(), &YamlErrorKind::ExcessiveAliasing);
    on_server_stack(move || {
        let scheme = scheme();
        for strict in [false, true] {
            let options = SerializerOptions {
                yaml: true,
                strict,
                pretty: false,
            };
            let typed = JsonSerializer::new(&scheme, options).decode(doc.as_bytes(), None, None);
            let message = typed.err().unwrap().to_string();
            assert!(message.contains("excessive aliasing"), "{message}");
        }
        let universal = CodecFactory::new(&scheme).universal_deserializer();
        let message = universal
            .decode(doc.as_bytes(), None, None)
            .err()
            .unwrap()
            .to_string();
        assert!(message.contains("excessive aliasing"), "{message}");
    });
}

#[test]
fn deeply_nested_yaml_is_a_typed_error_not_a_stack_overflow() {
    on_server_stack(|| {
        let scheme = scheme();
        let serializer = JsonSerializer::unstructured(SerializerOptions {
            yaml: true,
            ..SerializerOptions::default()
        });
        // Block nesting past the loader's limit.
        let block = format!(
            "apiVersion: v1\nkind: X\nspec:\n  {}x\n",
            "- ".repeat(100_000)
        );
        let err = yaml::yaml_to_json(&block).err().unwrap();
        assert_eq!(
            err.kind(),
            &YamlErrorKind::TooDeep {
                limit: yaml::MAX_DEPTH
            }
        );
        assert!(serializer.decode(block.as_bytes(), None, None).is_err());
        // Flow nesting: the parser's own limit.
        let flow = format!("apiVersion: v1\nkind: X\nspec: {}\n", "[".repeat(100_000));
        assert!(matches!(
            yaml::yaml_to_json(&flow).err().unwrap().kind(),
            YamlErrorKind::Syntax { .. }
        ));
        assert!(serializer.decode(flow.as_bytes(), None, None).is_err());
        // Within the YAML limit but past JSON's: refused by the JSON layer, typed.
        let deep = format!(
            "apiVersion: v1\nkind: X\nspec:\n  {}x\n",
            "- ".repeat(yaml::MAX_DEPTH - 2)
        );
        assert!(yaml::yaml_to_json(&deep).is_ok());
        let typed = JsonSerializer::new(
            &scheme,
            SerializerOptions {
                yaml: true,
                ..SerializerOptions::default()
            },
        );
        assert!(typed.decode(deep.as_bytes(), None, None).is_err());
    });
}

/// `k8s\0`, then an `Unknown` whose field 1 (TypeMeta) claims `len` bytes.
fn envelope_claiming(len: u64) -> Vec<u8> {
    let mut data = b"k8s\0\x0a".to_vec();
    let mut n = len;
    while n >= 0x80 {
        data.push((n as u8) | 0x80);
        n >>= 7;
    }
    data.push(n as u8);
    data.extend_from_slice(b"\x0a\x02v1");
    data
}

#[test]
fn protobuf_length_claiming_2_gib_is_refused_before_allocating() {
    let scheme = scheme();
    let protobuf = ProtobufSerializer::new(&scheme);
    for claim in [2 << 30, u64::from(u32::MAX), u64::MAX] {
        let err = protobuf
            .decode(&envelope_claiming(claim), None, None)
            .err()
            .unwrap();
        assert!(
            matches!(err.kind(), DecodeErrorKind::Protobuf { .. }),
            "{claim}: {err:?}"
        );
        let data = envelope_claiming(claim);
        let err = crate::proto::decode_envelope(&data).err().unwrap();
        assert_eq!(err.kind(), &ProtobufErrorKind::LengthPastEnd(claim));
    }
}

#[test]
fn protobuf_groups_nested_past_the_limit_are_refused() {
    // 100,000 nested starts of group 15: how every decoder skips an unknown field, one
    // nesting level each.
    on_server_stack(|| {
        let nested = vec![0x7b_u8; 100_000];
        let mut decoder = crate::proto::WireDecoder::new(&nested);
        let (field, wire) = decoder.key().unwrap();
        let err = decoder.skip(field, wire).unwrap_err();
        assert_eq!(err.kind(), &ProtobufErrorKind::TooDeep);
    });
}

#[test]
fn watch_frame_claiming_2_gib_is_refused_before_allocating() {
    let mut stream = (2u32 << 30).to_be_bytes().to_vec();
    stream.extend_from_slice(b"abc");
    let err = LengthDelimitedFrameReader::new(Cursor::new(stream))
        .read_frame()
        .unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
    assert!(
        err.to_string().contains(&MAX_FRAME_LEN.to_string()),
        "{err}"
    );
    // Within the limit but past the end: read as far as the bytes go, then refused.
    let mut stream = (u32::try_from(MAX_FRAME_LEN).unwrap())
        .to_be_bytes()
        .to_vec();
    stream.extend_from_slice(b"abc");
    let err = LengthDelimitedFrameReader::new(Cursor::new(stream))
        .read_frame()
        .unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::UnexpectedEof);
}
