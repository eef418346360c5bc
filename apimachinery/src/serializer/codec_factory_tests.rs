//! The codec factory with a convertor of its own between two versions of a kind.

use std::sync::Arc;

use super::*;
use crate::apis::meta::v1::ObjectMeta;
use crate::conversion::ConversionErrorKind;
use crate::runtime::{Object, Scheme, Unstructured};
use crate::schema::{GroupVersionKind, InternalGroupVersioner};
use crate::serializer::DecodeErrorKind;
use crate::serializer::DecoderExt;

/// `conv.test/v1` Widget, also the internal version.
#[derive(crate::ApiObject, Clone, Debug, Default, PartialEq)]
#[api(group = "conv.test", version = "v1", kind = "Widget", extra_versions = ["__internal"])]
struct Widget {
    metadata: ObjectMeta,
    size: i64,
}

/// `conv.test/v2` Widget: `size` became `width`.
#[derive(crate::ApiObject, Clone, Debug, Default, PartialEq)]
#[api(group = "conv.test", version = "v2", kind = "Widget")]
struct WidgetV2 {
    metadata: ObjectMeta,
    width: i64,
}

/// Converts Widgets between v1/internal and v2 by hand, and leaves the rest to the
/// scheme (which has no conversion functions here).
struct TestConvertor<'s>(SchemeRef<'s>);

impl ObjectConvertor for TestConvertor<'_> {
    fn convert_to_version(
        &self,
        obj: Box<dyn Object>,
        target: &dyn GroupVersioner,
    ) -> Result<Box<dyn Object>, crate::conversion::ConversionError> {
        let obj = match obj.downcast::<Widget>() {
            Ok(w) => {
                let v2 = GroupVersionKind::new("conv.test", "v2", "Widget");
                if target.kind_for_group_version_kinds(std::slice::from_ref(&v2)) == Some(v2) {
                    return Ok(Box::new(WidgetV2 {
                        metadata: w.metadata,
                        width: w.size,
                    }));
                }
                w as Box<dyn Object>
            }
            Err(obj) => match obj.downcast::<WidgetV2>() {
                Ok(w) => {
                    let kinds = self.0.kinds_for_type::<Widget>();
                    if let Some(kind) = target.kind_for_group_version_kinds(kinds) {
                        let mut out = Widget {
                            metadata: w.metadata,
                            size: w.width,
                        };
                        out.set_group_version_kind(&kind);
                        return Ok(Box::new(out));
                    }
                    w as Box<dyn Object>
                }
                Err(obj) => obj,
            },
        };
        self.0.convert_to_version(obj, target)
    }
}

fn scheme() -> Scheme {
    let mut s = Scheme::with_name("codec-test");
    s.register(&<Widget as crate::runtime::Resource>::REGISTRATION)
        .unwrap();
    s.register(&<WidgetV2 as crate::runtime::Resource>::REGISTRATION)
        .unwrap();
    s
}

const V1: &[u8] =
    br#"{"kind":"Widget","apiVersion":"conv.test/v1","metadata":{"name":"w"},"size":4}"#;
const V2: &[u8] =
    br#"{"kind":"Widget","apiVersion":"conv.test/v2","metadata":{"name":"w"},"width":4}"#;

#[test]
fn universal_deserializer_decodes_the_version_of_the_bytes() {
    let scheme = scheme();
    let codecs = CodecFactory::new(&scheme);
    let (obj, gvk) = codecs
        .universal_deserializer()
        .decode(V2, None, None)
        .unwrap();
    assert_eq!(gvk.version, "v2");
    assert_eq!(obj.downcast_ref::<WidgetV2>().unwrap().width, 4);
    let err = codecs
        .universal_deserializer()
        .decode(b"k8s\0\x0a\x02", None, None)
        .unwrap_err();
    // Recognized as protobuf, and truncated.
    assert!(
        matches!(err.kind(), DecodeErrorKind::Protobuf { offset: 5, .. }),
        "{err}"
    );
}

#[test]
fn universal_decoder_converts_to_the_versions_asked_for() {
    let scheme = scheme();
    let codecs =
        CodecFactory::with_convertor(&scheme, Arc::new(TestConvertor(SchemeRef::from(&scheme))));
    // To the internal version by default.
    let (obj, gvk) = codecs
        .universal_decoder(&[])
        .decode(V2, None, None)
        .unwrap();
    assert_eq!(
        gvk.version, "v2",
        "the kind decoded is the one in the bytes"
    );
    assert_eq!(obj.downcast_ref::<Widget>().unwrap().size, 4);
    // To v2.
    let v2 = GroupVersion::new("conv.test", "v2");
    let (obj, _) = codecs
        .universal_decoder(std::slice::from_ref(&v2))
        .decode(V1, None, None)
        .unwrap();
    assert_eq!(obj.downcast_ref::<WidgetV2>().unwrap().width, 4);
    // Into a caller's object of another version.
    let mut into = WidgetV2::default();
    let (obj, _) = codecs
        .universal_decoder(&[])
        .decode(V1, None, Some(&mut into))
        .unwrap();
    assert_eq!(into.width, 4);
    assert_eq!(obj.downcast_ref::<WidgetV2>(), Some(&into));

    // The scheme alone has no conversion functions: only relabeling works.
    let plain = CodecFactory::new(&scheme);
    let (obj, _) = plain.universal_decoder(&[]).decode(V1, None, None).unwrap();
    assert!(obj.is::<Widget>());
    let mut u = Unstructured::default();
    let (obj, _) = plain
        .universal_decoder(&[])
        .decode(V1, None, Some(&mut u))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(obj.group_version_kind().version, "v1");
    let err = plain
        .universal_decoder(&[v2])
        .decode(V1, None, None)
        .unwrap_err();
    assert!(
        matches!(
            err.kind(),
            DecodeErrorKind::Conversion(e) if matches!(e.kind(), ConversionErrorKind::NoConversion { .. })
        ),
        "{err}"
    );
    let err = plain
        .universal_decoder(&[GroupVersion::new("other", "v1")])
        .decode(V1, None, None)
        .unwrap_err();
    assert!(
        matches!(
            err.kind(),
            DecodeErrorKind::Conversion(e) if matches!(e.kind(), ConversionErrorKind::NoTargetKind { .. })
        ),
        "{err}"
    );
}

#[test]
fn strict_errors_survive_conversion() {
    let scheme = scheme();
    let codecs =
        CodecFactory::with_convertor(&scheme, Arc::new(TestConvertor(SchemeRef::from(&scheme))));
    let strict = codecs
        .serializer_for_media_type("application/json")
        .unwrap()
        .strict_serializer
        .clone()
        .unwrap();
    let decoder = codecs.decoder_to_version(strict, Arc::new(InternalGroupVersioner));
    let err = decoder
        .decode(
            br#"{"apiVersion":"conv.test/v2","kind":"Widget","width":1,"size":2}"#,
            None,
            None,
        )
        .unwrap_err();
    let strict = err.as_strict().unwrap();
    assert_eq!(strict.errors()[0].path(), "size");
    assert_eq!(strict.object().downcast_ref::<Widget>().unwrap().size, 1);
}

#[test]
fn encoders_convert_before_encoding() {
    let scheme = scheme();
    let codecs =
        CodecFactory::with_convertor(&scheme, Arc::new(TestConvertor(SchemeRef::from(&scheme))));
    let json = codecs
        .serializer_for_media_type("application/json; charset=utf-8")
        .unwrap()
        .serializer
        .clone();
    let internal = Widget {
        metadata: ObjectMeta {
            name: "w".into(),
            ..ObjectMeta::default()
        },
        size: 4,
    };
    let v2 =
        codecs.encoder_for_version(json.clone(), Arc::new(GroupVersion::new("conv.test", "v2")));
    assert_eq!(v2.encode_to_vec(&internal).unwrap(), [V2, b"\n"].concat());
    let legacy = codecs.legacy_codec(&[GroupVersion::new("conv.test", "v1")]);
    assert_eq!(
        legacy.encode_to_vec(&internal).unwrap(),
        [V1, b"\n"].concat()
    );
    let (back, _) = legacy.decode(V2, None, None).unwrap();
    assert_eq!(back.downcast_ref::<Widget>().unwrap().size, 4);
    assert!(legacy.identifier().contains("conv.test/v1"));

    // An unstructured object in another version cannot be converted without a converter.
    let mut u = Unstructured::default();
    u.set_api_version("conv.test/v1");
    u.set_kind("Widget");
    let err = CodecFactory::new(&scheme)
        .encoder_for_version(json, Arc::new(GroupVersion::new("conv.test", "v2")))
        .encode_to_vec(&u)
        .unwrap_err();
    assert!(err.to_string().ends_with("unknown conversion"), "{err}");
}

#[cfg(feature = "yaml")]
#[test]
fn media_types_are_gos() {
    let scheme = scheme();
    let codecs = CodecFactory::new(&scheme);
    let types: Vec<_> = codecs
        .supported_media_types()
        .iter()
        .map(|i| i.media_type)
        .collect();
    assert_eq!(
        types,
        [
            "application/json",
            "application/yaml",
            "application/vnd.kubernetes.protobuf"
        ]
    );
    let json = codecs
        .serializer_for_media_type("Application/JSON")
        .unwrap();
    assert!(json.pretty_serializer.is_some() && json.strict_serializer.is_some());
    assert_eq!(
        json.stream_serializer.as_ref().unwrap().framer,
        Framer::Json
    );
    let yaml = codecs
        .serializer_for_media_type("application/yaml")
        .unwrap();
    assert!(yaml.pretty_serializer.is_none() && yaml.stream_serializer.is_none());
    assert!(yaml.serializer.identifier().contains(r#""yaml":"true""#));
    let protobuf = codecs
        .serializer_for_media_type(CONTENT_TYPE_PROTOBUF)
        .unwrap();
    assert!(!protobuf.encodes_as_text);
    assert_eq!(
        protobuf.stream_serializer.as_ref().unwrap().framer,
        Framer::LengthDelimited
    );
    let err = codecs
        .serializer_for_media_type("text/plain")
        .err()
        .unwrap();
    assert!(matches!(err, MediaTypeError::Unsupported { .. }), "{err}");
}

/// What a server keeps in its state: codecs that own their scheme.
struct Service {
    codecs: CodecFactory<'static>,
}

fn assert_send_sync_static<T: Send + Sync + 'static>(_: &T) {}

#[test]
fn a_factory_of_a_shared_scheme_and_its_codecs_move_to_other_threads() {
    let scheme = Arc::new(scheme());
    let service = Service {
        codecs: CodecFactory::with_convertor(
            scheme.clone(),
            Arc::new(TestConvertor(scheme.clone().into())),
        ),
    };
    // The factory keeps the scheme alive on its own.
    drop(scheme);
    assert_send_sync_static(&service.codecs);
    let json = service
        .codecs
        .serializer_for_media_type("application/json")
        .unwrap()
        .serializer
        .clone();
    let universal = service.codecs.universal_deserializer();
    assert_send_sync_static(&json);
    assert_send_sync_static(&universal);
    let threads: Vec<_> = [V1, V2]
        .into_iter()
        .map(|bytes| {
            let codecs = service.codecs.clone();
            let json = json.clone();
            let universal = universal.clone();
            std::thread::spawn(move || {
                let (obj, gvk) = universal.decode(bytes, None, None).unwrap();
                let written = json.encode_to_vec(&*obj).unwrap();
                let to_v1 = codecs.universal_decoder(&[GroupVersion::new("conv.test", "v1")]);
                let (relabeled, _) = to_v1.decode(&written, None, None).unwrap();
                (gvk, written, relabeled.group_version_kind())
            })
        })
        .collect();
    let results: Vec<_> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    assert_eq!(
        results[0].0,
        GroupVersionKind::new("conv.test", "v1", "Widget")
    );
    assert_eq!(results[0].1, [V1, b"\n"].concat());
    assert_eq!(
        results[1].0,
        GroupVersionKind::new("conv.test", "v2", "Widget")
    );
    assert_eq!(results[1].1, [V2, b"\n"].concat());
    assert_eq!(
        results[0].2,
        GroupVersionKind::new("conv.test", "v1", "Widget")
    );
}

#[test]
fn a_borrowed_factory_holds_no_reference_count() {
    let scheme = Arc::new(scheme());
    let codecs = CodecFactory::new(&scheme);
    let _decoder = codecs.universal_decoder(&[]);
    assert_eq!(Arc::strong_count(&scheme), 1);
    let shared = CodecFactory::new(scheme.clone());
    assert!(Arc::strong_count(&scheme) > 1);
    drop(shared);
    assert_eq!(Arc::strong_count(&scheme), 1);
}

#[test]
fn decode_as_through_a_versioning_decoder_gets_the_converted_type() {
    let scheme = scheme();
    let codecs =
        CodecFactory::with_convertor(&scheme, Arc::new(TestConvertor(SchemeRef::from(&scheme))));
    let v2 = GroupVersion::new("conv.test", "v2");
    let to_v2 = codecs.universal_decoder(std::slice::from_ref(&v2));
    let widget: WidgetV2 = to_v2.decode_as(V1).unwrap();
    assert_eq!(widget.width, 4);
    // Asked for the version the decoder does not convert to: the error names the kind
    // of the bytes and the type it got.
    let err = to_v2.decode_as::<Widget>(V1).unwrap_err();
    match err.kind() {
        DecodeErrorKind::UnexpectedType {
            found, found_type, ..
        } => {
            assert_eq!(found.version, "v1");
            assert!(found_type.ends_with("::WidgetV2"), "{found_type}");
        }
        other => panic!("{other:?}"),
    }
}

/// The test scheme, with a defaulter for v2 Widgets only: a default seen after conversion
/// to v1 was set before it, as Go's codec sets defaults (on the version decoded).
fn defaulting_scheme() -> Scheme {
    let mut s = scheme();
    s.add_type_defaulting_func(|w: &mut WidgetV2| {
        if w.width == 0 {
            w.width = 7;
        }
    });
    s
}

const V2_NO_WIDTH: &[u8] =
    br#"{"kind":"Widget","apiVersion":"conv.test/v2","metadata":{"name":"w"}}"#;

#[test]
fn decoders_of_the_factory_default_before_converting() {
    let scheme = defaulting_scheme();
    let codecs =
        CodecFactory::with_convertor(&scheme, Arc::new(TestConvertor(SchemeRef::from(&scheme))));
    // To the internal (v1) Widget: the v2 default was set, then converted.
    let (obj, gvk) = codecs
        .universal_decoder(&[])
        .decode(V2_NO_WIDTH, None, None)
        .unwrap();
    assert_eq!(gvk.version, "v2");
    assert_eq!(obj.downcast_ref::<Widget>().unwrap().size, 7);
    // Kept in v2 (the scheme's own conversion: none needed): defaulted too.
    let v2 = GroupVersion::new("conv.test", "v2");
    let widget: WidgetV2 = CodecFactory::new(&scheme)
        .universal_decoder(std::slice::from_ref(&v2))
        .decode_as(V2_NO_WIDTH)
        .unwrap();
    assert_eq!(widget.width, 7);
    // Into a caller's object, and through the legacy codec and decoder_to_version.
    let mut into = Widget::default();
    codecs
        .universal_decoder(&[])
        .decode(V2_NO_WIDTH, None, Some(&mut into))
        .unwrap();
    assert_eq!(into.size, 7);
    let (obj, _) = codecs
        .legacy_codec(&[])
        .decode(V2_NO_WIDTH, None, None)
        .unwrap();
    assert_eq!(obj.downcast_ref::<Widget>().unwrap().size, 7);
    let json = codecs
        .serializer_for_media_type("application/json")
        .unwrap()
        .serializer
        .clone();
    let (obj, _) = codecs
        .decoder_to_version(json, Arc::new(InternalGroupVersioner))
        .decode(V2_NO_WIDTH, None, None)
        .unwrap();
    assert_eq!(obj.downcast_ref::<Widget>().unwrap().size, 7);
    // A value in the bytes is kept.
    let (obj, _) = codecs
        .universal_decoder(&[])
        .decode(V2, None, None)
        .unwrap();
    assert_eq!(obj.downcast_ref::<Widget>().unwrap().size, 4);
    // The universal deserializer neither defaults nor converts.
    let (obj, _) = codecs
        .universal_deserializer()
        .decode(V2_NO_WIDTH, None, None)
        .unwrap();
    assert_eq!(obj.downcast_ref::<WidgetV2>().unwrap().width, 0);
}

#[test]
fn a_factory_without_defaulting_converts_only() {
    let scheme = defaulting_scheme();
    let codecs =
        CodecFactory::with_convertor(&scheme, Arc::new(TestConvertor(SchemeRef::from(&scheme))))
            .without_defaulting();
    let decoder = codecs.universal_decoder(&[]);
    assert!(!decoder.defaults());
    let (obj, _) = decoder.decode(V2_NO_WIDTH, None, None).unwrap();
    assert_eq!(obj.downcast_ref::<Widget>().unwrap().size, 0);
    // The decoder alone, with and without a defaulter.
    let decoder = decoder.with_defaulter(Arc::new(SchemeRef::from(&scheme)));
    assert!(decoder.defaults());
    let (obj, _) = decoder.decode(V2_NO_WIDTH, None, None).unwrap();
    assert_eq!(obj.downcast_ref::<Widget>().unwrap().size, 7);
    let (obj, _) = decoder
        .without_defaulter()
        .decode(V2_NO_WIDTH, None, None)
        .unwrap();
    assert_eq!(obj.downcast_ref::<Widget>().unwrap().size, 0);
}

/// Counts the objects it is asked to default.
struct CountingDefaulter(std::sync::atomic::AtomicUsize);

impl ObjectDefaulter for CountingDefaulter {
    fn default(&self, _obj: &mut dyn Object) {
        self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
}

#[test]
fn a_decode_defaults_once_also_when_strict_fails() {
    let scheme = defaulting_scheme();
    let counting = Arc::new(CountingDefaulter(Default::default()));
    let codecs = CodecFactory::new(&scheme);
    let strict = codecs
        .serializer_for_media_type("application/json")
        .unwrap()
        .strict_serializer
        .clone()
        .unwrap();
    let decoder = VersioningDecoder::new(
        strict,
        Arc::new(SchemeRef::from(&scheme)),
        &scheme,
        Arc::new(GroupVersion::new("conv.test", "v2")),
    );
    decoder.decode(V2_NO_WIDTH, None, None).unwrap();
    assert_eq!(counting.0.load(std::sync::atomic::Ordering::Relaxed), 0);
    let decoder = decoder.with_defaulter(counting.clone());
    decoder.decode(V2_NO_WIDTH, None, None).unwrap();
    assert_eq!(counting.0.load(std::sync::atomic::Ordering::Relaxed), 1);
    // A strict error carries the object, defaulted as a clean decode would be.
    let unknown_field = br#"{"kind":"Widget","apiVersion":"conv.test/v2","extra":1}"#;
    let err = decoder.decode(unknown_field, None, None).unwrap_err();
    assert_eq!(err.as_strict().unwrap().errors()[0].path(), "extra");
    assert_eq!(counting.0.load(std::sync::atomic::Ordering::Relaxed), 2);
    let scheme_defaults = codecs.decoder_to_version(
        codecs
            .serializer_for_media_type("application/json")
            .unwrap()
            .strict_serializer
            .clone()
            .unwrap(),
        Arc::new(GroupVersion::new("conv.test", "v2")),
    );
    let err = scheme_defaults
        .decode(unknown_field, None, None)
        .unwrap_err();
    let object = err.as_strict().unwrap().object();
    assert_eq!(object.downcast_ref::<WidgetV2>().unwrap().width, 7);
}

#[test]
fn a_factory_without_conversion_reads_and_writes_objects_as_they_are() {
    let scheme = defaulting_scheme();
    let codecs = CodecFactory::new(&scheme).without_conversion();
    let json = codecs
        .serializer_for_media_type("application/json")
        .unwrap()
        .serializer
        .clone();
    let decoder = codecs.decoder_to_version(json.clone(), Arc::new(InternalGroupVersioner));
    let (obj, gvk) = decoder.decode(V2_NO_WIDTH, None, None).unwrap();
    // Neither converted nor defaulted.
    let widget = obj.downcast_ref::<WidgetV2>().unwrap();
    assert_eq!(widget.width, 0);
    assert_eq!(gvk, GroupVersionKind::new("conv.test", "v2", "Widget"));
    // Written unconverted, with the kind the target prefers.
    let encoder =
        codecs.encoder_for_version(json.clone(), Arc::new(GroupVersion::new("conv.test", "v2")));
    assert_eq!(
        encoder.encode_to_vec(&*obj).unwrap(),
        b"{\"kind\":\"Widget\",\"apiVersion\":\"conv.test/v2\",\"metadata\":{\"name\":\"w\"},\"width\":0}\n"
    );

    // The object's recorded kind is cleared (Go's convention), which shows on objects
    // that record it: unstructured ones lose apiVersion and kind. The kind decoded is
    // still returned.
    let unstructured: Arc<dyn Decoder> = Arc::new(
        crate::serializer::json::JsonSerializer::unstructured(Default::default()),
    );
    let (obj, gvk) = codecs
        .decoder_to_version(unstructured, Arc::new(InternalGroupVersioner))
        .decode(V2_NO_WIDTH, None, None)
        .unwrap();
    assert_eq!(gvk, GroupVersionKind::new("conv.test", "v2", "Widget"));
    let u = obj.downcast_ref::<Unstructured>().unwrap();
    assert!(
        u.group_version_kind().is_empty(),
        "{:?}",
        u.group_version_kind()
    );
    assert_eq!(crate::apis::meta::v1::ObjectMetaAccessor::name(u), "w");
    // Without a kind it cannot be written back: the scheme cannot type it (Go's
    // `WithVersionEncoder` fails the same way, with Go's missing-kind error).
    let err = encoder.encode_to_vec(u).unwrap_err();
    assert!(
        err.to_string().contains("unstructured object has no kind"),
        "{err}"
    );
}

/// Without the `yaml` feature (`cargo test -p apimachinery --no-default-features --lib
/// serializer::codec_factory`), YAML is neither served nor read nor written, and says so.
#[cfg(not(feature = "yaml"))]
#[test]
fn without_the_yaml_feature_yaml_is_a_typed_error() {
    let scheme = scheme();
    let codecs = CodecFactory::new(&scheme);
    let types: Vec<_> = codecs
        .supported_media_types()
        .iter()
        .map(|i| i.media_type)
        .collect();
    assert_eq!(types, [CONTENT_TYPE_JSON, CONTENT_TYPE_PROTOBUF]);
    assert!(
        codecs
            .serializer_for_media_type("application/yaml")
            .is_err()
    );
    let yaml = b"apiVersion: conv.test/v1\nkind: Widget\nsize: 4\n";
    let not_built_in = |e: &crate::serializer::DecodeError| matches!(e.kind(), DecodeErrorKind::Unrecognized { message } if message.contains("cargo feature `yaml`"));
    let err = codecs
        .universal_deserializer()
        .decode(yaml, None, None)
        .unwrap_err();
    assert!(not_built_in(&err), "{err}");
    let json = crate::serializer::json::JsonSerializer::new(
        &scheme,
        crate::serializer::json::SerializerOptions {
            yaml: true,
            ..Default::default()
        },
    );
    let err = crate::serializer::decode_stream(&json, yaml, None)
        .next()
        .unwrap()
        .unwrap_err();
    assert!(not_built_in(&err), "{err}");
    let err = json.encode_to_vec(&Widget::default()).unwrap_err();
    assert!(err.to_string().contains("cargo feature `yaml`"), "{err}");
    // JSON is unaffected.
    let (obj, _) = codecs
        .universal_deserializer()
        .decode(V1, None, None)
        .unwrap();
    assert_eq!(obj.downcast_ref::<Widget>().unwrap().size, 4);
}
