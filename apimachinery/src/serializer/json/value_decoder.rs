//! Decoding a parsed document into the type a scheme registers for its kind, naming the
//! field at fault by its JSON path and, on request, every field the type does not know.

use serde_json::Value;

use crate::runtime::{Object, Scheme, SchemeError, SchemeErrorKind};
use crate::schema::GroupVersionKind;

/// An object decoded from a value, with the JSON paths of the fields its type ignored
/// when they were asked for.
pub(crate) struct DecodedValue {
    pub object: Box<dyn Object>,
    pub unknown_fields: Vec<String>,
}

/// Why a value did not decode into its type.
pub(crate) enum ValueDecodeFailure {
    /// No type for the kind.
    Scheme(SchemeError),
    /// A field's value does not fit its type.
    Field {
        path: String,
        message: String,
        type_name: &'static str,
    },
}

/// Decodes `value` as the type registered for `gvk`, then sets the object's kind to
/// `gvk`. With `track_unknown`, every field the type ignored is listed (the `kind` and
/// `apiVersion` of types without a `TypeMeta` field are known, not ignored).
///
/// The fast path decodes without tracking paths; only a failure is decoded again with
/// path tracking, to name the field at fault.
pub(crate) fn decode_value(
    scheme: &Scheme,
    gvk: &GroupVersionKind,
    value: &Value,
    track_unknown: bool,
) -> Result<DecodedValue, ValueDecodeFailure> {
    let mut unknown_fields = Vec::new();
    let result = if track_unknown {
        let mut record = |path: serde_ignored::Path<'_>| {
            let path = format_ignored_path(&path);
            if path != "kind" && path != "apiVersion" {
                unknown_fields.push(path);
            }
        };
        let de = serde_ignored::Deserializer::new(value, &mut record);
        scheme.deserialize(gvk, de)
    } else {
        scheme.deserialize(gvk, value)
    };
    match result {
        Ok(object) => Ok(DecodedValue {
            object,
            unknown_fields,
        }),
        Err(e) => Err(locate_failure(scheme, gvk, value, e)),
    }
}

/// Decodes the JSON text `data` straight into the type registered for `gvk`, without a
/// `Value` in between: the fast path, which also keeps `RawExtension` bytes verbatim. It
/// fails on everything the `Value` path fails on, and also on a key given twice in a
/// serde-derived struct, which Go accepts: callers fall back to [`decode_value`] on any
/// field failure. The failure carries no path.
pub(crate) fn decode_slice(
    scheme: &Scheme,
    gvk: &GroupVersionKind,
    data: &[u8],
    track_unknown: bool,
) -> Result<DecodedValue, ValueDecodeFailure> {
    if !track_unknown {
        // The type's monomorphized decode: no erased-serde in between.
        let object_type = scheme
            .type_for_kind(gvk)
            .map_err(ValueDecodeFailure::Scheme)?;
        return match object_type.decode_json(data) {
            Ok(decoded) => {
                let mut object = decoded.object;
                object.set_group_version_kind(gvk);
                Ok(DecodedValue {
                    object,
                    unknown_fields: Vec::new(),
                })
            }
            Err(e) => Err(ValueDecodeFailure::Field {
                path: String::new(),
                message: e.to_string(),
                type_name: object_type.type_name(),
            }),
        };
    }
    let mut unknown_fields = Vec::new();
    let mut de = serde_json::Deserializer::from_slice(data);
    let result = if track_unknown {
        let mut record = |path: serde_ignored::Path<'_>| {
            let path = format_ignored_path(&path);
            if path != "kind" && path != "apiVersion" {
                unknown_fields.push(path);
            }
        };
        scheme.deserialize(gvk, serde_ignored::Deserializer::new(&mut de, &mut record))
    } else {
        scheme.deserialize(gvk, &mut de)
    };
    match result {
        Ok(object) if de.end().is_ok() => Ok(DecodedValue {
            object,
            unknown_fields,
        }),
        Ok(object) => Err(ValueDecodeFailure::Field {
            path: String::new(),
            message: "trailing characters".into(),
            type_name: object.type_name(),
        }),
        Err(e) if !matches!(e.kind(), SchemeErrorKind::Deserialize { .. }) => {
            Err(ValueDecodeFailure::Scheme(e))
        }
        Err(e) => Err(ValueDecodeFailure::Field {
            path: String::new(),
            message: e.to_string(),
            type_name: "?",
        }),
    }
}

fn locate_failure(
    scheme: &Scheme,
    gvk: &GroupVersionKind,
    value: &Value,
    error: SchemeError,
) -> ValueDecodeFailure {
    if !matches!(error.kind(), SchemeErrorKind::Deserialize { .. }) {
        return ValueDecodeFailure::Scheme(error);
    }
    let mut track = serde_path_to_error::Track::new();
    let retry = scheme.deserialize(
        gvk,
        serde_path_to_error::Deserializer::new(value, &mut track),
    );
    let path = format_error_path(&track.path());
    let message = match retry.err().unwrap_or(error).into_kind() {
        SchemeErrorKind::Deserialize { message, .. } => message,
        other => other.to_string(),
    };
    let type_name = scheme.new_object(gvk).map_or("?", |o| o.type_name());
    ValueDecodeFailure::Field {
        path,
        message,
        type_name,
    }
}

/// `spec.containers[0].name`: keys joined by dots, indexes in brackets, as Go's decoder
/// names fields.
fn format_error_path(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut out = String::new();
    for segment in path.iter() {
        match segment {
            Segment::Seq { index } => out.push_str(&format!("[{index}]")),
            Segment::Map { key } | Segment::Enum { variant: key } => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(key);
            }
            Segment::Unknown => {}
        }
    }
    out
}

fn format_ignored_path(path: &serde_ignored::Path<'_>) -> String {
    use serde_ignored::Path;
    match path {
        Path::Root => String::new(),
        Path::Seq { parent, index } => format!("{}[{index}]", format_ignored_path(parent)),
        Path::Map { parent, key } => {
            let parent = format_ignored_path(parent);
            if parent.is_empty() {
                key.clone()
            } else {
                format!("{parent}.{key}")
            }
        }
        Path::Some { parent }
        | Path::NewtypeStruct { parent }
        | Path::NewtypeVariant { parent } => format_ignored_path(parent),
    }
}
