//! Embedded objects decoded on demand: the object a [`RawExtension`] holds as bytes,
//! decoded through a decoder and its scheme (what Go's `runtime.DecodeNestedObjects`
//! does for each embedded object).

use super::{DecodeError, DecodeErrorKind, Decoder};
use crate::runtime::RawExtension;
use crate::schema::GroupVersionKind;

/// Decodes the object `ext` holds with `decoder` and keeps it in `ext.object`; the bytes
/// stay as they are, so the object is written back verbatim. Returns the kind decoded.
/// An extension that already holds an object and no bytes is left alone.
///
/// ```
/// use apimachinery::{ApiObject, apis::meta::v1::ObjectMeta, runtime::{RawExtension, Scheme}};
/// use apimachinery::serializer::{decode_raw_extension, json::{JsonSerializer, SerializerOptions}};
///
/// #[derive(ApiObject, Clone, Debug, Default, PartialEq)]
/// #[api(group = "example.com", version = "v1", kind = "Widget")]
/// pub struct Widget { pub metadata: ObjectMeta, pub size: i32 }
///
/// let mut scheme = Scheme::new();
/// scheme.add_known_type::<Widget>()?;
/// let mut ext = RawExtension::from_raw(r#"{"size":2, "kind":"Widget","apiVersion":"example.com/v1"}"#);
/// let gvk = decode_raw_extension(&JsonSerializer::new(&scheme, SerializerOptions::default()), &mut ext, None)?;
/// assert_eq!(gvk.kind, "Widget");
/// assert_eq!(ext.object.as_ref().and_then(|o| o.downcast_ref::<Widget>()).map(|w| w.size), Some(2));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn decode_raw_extension(
    decoder: &dyn Decoder,
    ext: &mut RawExtension,
    defaults: Option<&GroupVersionKind>,
) -> Result<GroupVersionKind, DecodeError> {
    if ext.raw.is_empty() {
        return match &ext.object {
            Some(object) => Ok(object.group_version_kind()),
            None => Err(DecodeErrorKind::MissingKind {
                data: String::new(),
            }
            .into()),
        };
    }
    let (object, gvk) = decoder.decode(&ext.raw, defaults, None)?;
    ext.object = Some(object);
    Ok(gvk)
}
