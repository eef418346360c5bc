//! Decoding a parsed document into the type a scheme registers for its kind, naming the
//! field at fault by its JSON path and, on request, every field the type does not know.

use serde_json::Value;

use crate::runtime::{Object, Scheme, SchemeError};
use crate::schema::GroupVersionKind;

/// An object decoded from a value, with the JSON paths of the fields its type ignored
/// when they were asked for.
pub(crate) struct DecodedValue {
    pub object: Box<dyn Object>,
    pub unknown_fields: Vec<String>,
    /// Read from text with unknown-field tracking, and no key of the document repeats.
    pub no_duplicate_keys: bool,
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
pub(crate) fn decode_value(
    scheme: &Scheme,
    gvk: &GroupVersionKind,
    value: &Value,
    track_unknown: bool,
) -> Result<DecodedValue, ValueDecodeFailure> {
    let object_type = scheme
        .type_for_kind(gvk)
        .map_err(ValueDecodeFailure::Scheme)?;
    match object_type.from_value(value, track_unknown) {
        Ok((mut object, mut unknown_fields)) => {
            unknown_fields.retain(|path| path != "kind" && path != "apiVersion");
            object.set_group_version_kind(gvk);
            Ok(DecodedValue {
                object,
                unknown_fields,
                no_duplicate_keys: false,
            })
        }
        Err(e) => Err(ValueDecodeFailure::Field {
            path: e.path,
            message: e.message,
            type_name: object_type.type_name(),
        }),
    }
}

/// Decodes the JSON text `data` straight into the type registered for `gvk`, without a
/// `Value` in between: the fast path, which also keeps `RawExtension` bytes verbatim; with
/// `track_unknown`, every field the type ignored is listed, in document order. A key given
/// twice is read twice (a struct keeps the last), where a `Value` keeps only the last
/// occurrence: callers that need Go's reading of such documents use [`decode_value`].
pub(crate) fn decode_slice(
    scheme: &Scheme,
    gvk: &GroupVersionKind,
    data: &[u8],
    track_unknown: bool,
) -> Result<DecodedValue, ValueDecodeFailure> {
    let object_type = scheme
        .type_for_kind(gvk)
        .map_err(ValueDecodeFailure::Scheme)?;
    match object_type.decode_json(data, track_unknown) {
        Ok(decoded) => {
            let mut object = decoded.object;
            object.set_group_version_kind(gvk);
            let mut unknown_fields = decoded.unknown_fields;
            unknown_fields.retain(|path| path != "kind" && path != "apiVersion");
            Ok(DecodedValue {
                object,
                unknown_fields,
                no_duplicate_keys: decoded.no_duplicate_keys,
            })
        }
        Err(e) => Err(ValueDecodeFailure::Field {
            path: e.path,
            message: e.error.message(),
            type_name: object_type.type_name(),
        }),
    }
}
