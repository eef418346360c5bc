//! [`Serializer`]: Go's JSON (and YAML) serializer over a [`Scheme`].

use std::io;

use serde_json::{Map, Value};

use super::document::{self, JsonDocument};
use super::formatter::GoFormatter;
use super::meta_factory::{interpret_map, json_type};
use super::value_decoder::{ValueDecodeFailure, decode_value};
use crate::runtime::{Object, Scheme, Unstructured, UnstructuredList};
use crate::schema::GroupVersionKind;
use crate::serializer::codec::gvk_with_defaults;
use crate::serializer::error::excerpt;
use crate::serializer::{
    DecodeError, DecodeErrorKind, Decoder, EncodeError, Encoder, Format, Position,
    StrictDecodingError, StrictFieldError,
};

/// How a [`Serializer`] reads and writes (Go's `json.SerializerOptions`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SerializerOptions {
    /// Read and write YAML instead of JSON.
    pub yaml: bool,
    /// Write indented JSON (two spaces); YAML is always indented.
    pub pretty: bool,
    /// Report unknown and duplicate fields (a [`StrictDecodingError`] carrying the
    /// decoded object) instead of ignoring them.
    pub strict: bool,
}

/// Go's JSON serializer (`k8s.io/apimachinery/pkg/runtime/serializer/json`): decodes the
/// kind the bytes declare into the type the scheme registers for it, and encodes objects
/// as Go does. With [`SerializerOptions::yaml`] it reads and writes YAML instead.
///
/// [`Serializer::unstructured`] is Go's `unstructured.UnstructuredJSONScheme`: it needs
/// no scheme and decodes every kind into [`Unstructured`] (or [`UnstructuredList`] when
/// the document has `items`).
///
/// ```
/// use apimachinery::{ApiObject, apis::meta::v1::ObjectMeta, runtime::Scheme};
/// use apimachinery::serializer::{Decoder, Encoder, json::{Serializer, SerializerOptions}};
///
/// #[derive(ApiObject, Clone, Debug, Default, PartialEq)]
/// #[api(group = "example.com", version = "v1", kind = "Widget")]
/// pub struct Widget { pub metadata: ObjectMeta, pub size: i32 }
///
/// let mut scheme = Scheme::new();
/// scheme.add_known_type::<Widget>()?;
/// let json = Serializer::new(&scheme, SerializerOptions::default());
/// let data = br#"{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"size":3}"#;
/// let (obj, gvk) = json.decode(data, None, None)?;
/// assert_eq!(gvk.to_string(), "example.com/v1, Kind=Widget");
/// assert_eq!(obj.downcast_ref::<Widget>().unwrap().size, 3);
/// assert_eq!(
///     json.encode_to_vec(&*obj)?,
///     b"{\"kind\":\"Widget\",\"apiVersion\":\"example.com/v1\",\"metadata\":{\"name\":\"w\"},\"size\":3}\n"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Serializer<'s> {
    scheme: Option<&'s Scheme>,
    options: SerializerOptions,
}

/// A parsed document, with what strict mode and error messages need from its text.
pub(crate) struct ParsedDocument {
    pub value: Value,
    /// Strict mode's duplicate keys, each with its rank in document order.
    pub duplicates: Vec<(usize, StrictFieldError)>,
    /// The rank of a key path in document order, to list unknown fields among duplicates.
    pub order: Option<PathLookup<usize>>,
    /// The position of a key path in the text, for YAML.
    pub positions: Option<PathLookup<Position>>,
}

/// Something known of each key path of a parsed document.
pub(crate) type PathLookup<T> = Box<dyn Fn(&str) -> Option<T>>;

impl<'s> Serializer<'s> {
    /// A serializer decoding through `scheme` (Go's `NewSerializerWithOptions` with the
    /// scheme as creater and typer).
    pub fn new(scheme: &'s Scheme, options: SerializerOptions) -> Self {
        Serializer {
            scheme: Some(scheme),
            options,
        }
    }

    /// A serializer that decodes every kind as [`Unstructured`] (Go's
    /// `UnstructuredJSONScheme`, with YAML and strictness as options).
    pub fn unstructured(options: SerializerOptions) -> Self {
        Serializer {
            scheme: None,
            options,
        }
    }

    /// The options.
    pub fn options(&self) -> SerializerOptions {
        self.options
    }

    fn format(&self) -> Format {
        if self.options.yaml {
            Format::Yaml
        } else {
            Format::Json
        }
    }

    /// Parses the bytes into a document (JSON, or YAML converted to JSON).
    pub(crate) fn parse(&self, data: &[u8]) -> Result<ParsedDocument, DecodeError> {
        if self.options.yaml {
            return super::yaml_input::parse_yaml(data);
        }
        if self.options.strict {
            let mut doc: JsonDocument = document::parse_tracking_duplicates(data)?;
            let value = std::mem::take(&mut doc.value);
            let duplicates = doc
                .duplicates_with_ordinals()
                .map(|(path, rank)| {
                    let path = path.to_owned();
                    (rank, StrictFieldError::Duplicate { path })
                })
                .collect();
            Ok(ParsedDocument {
                value,
                duplicates,
                order: Some(Box::new(move |path| doc.key_ordinal(path))),
                positions: None,
            })
        } else {
            Ok(ParsedDocument {
                value: document::parse(data)?,
                duplicates: Vec::new(),
                order: None,
                positions: None,
            })
        }
    }

    /// Decodes a parsed document, as [`Decoder::decode`] does bytes.
    pub(crate) fn decode_document(
        &self,
        data: &[u8],
        doc: ParsedDocument,
        defaults: Option<&GroupVersionKind>,
        into: Option<&mut dyn Object>,
    ) -> Result<(Box<dyn Object>, GroupVersionKind), DecodeError> {
        let ParsedDocument {
            value,
            duplicates,
            order,
            positions,
        } = doc;
        let Value::Object(map) = value else {
            return Err(DecodeErrorKind::NotAnObject {
                format: self.format(),
                found: json_type(&value),
            }
            .into());
        };
        let mut actual = interpret_map(&map)?;
        if let Some(defaults) = defaults {
            actual = gvk_with_defaults(actual, defaults);
        }
        let strict = self.options.strict;
        let Some(scheme) = self.scheme else {
            return decode_unstructured(data, map, into, duplicates, strict);
        };
        let mut target = None;
        if let Some(into) = into {
            if into.is_unstructured() {
                return decode_unstructured(data, map, Some(into), duplicates, strict);
            }
            let (kinds, _) = scheme.object_kinds(into).map_err(DecodeErrorKind::from)?;
            if let Some(first) = kinds.first() {
                actual = gvk_with_defaults(actual, first);
            }
            if kinds.contains(&actual) {
                target = Some(into);
            }
        }
        if actual.kind.is_empty() {
            return Err(DecodeErrorKind::MissingKind {
                data: excerpt(data),
            }
            .into());
        }
        if actual.version.is_empty() {
            return Err(DecodeErrorKind::MissingVersion {
                data: excerpt(data),
            }
            .into());
        }
        let value = Value::Object(map);
        let decoded = decode_value(scheme, &actual, &value, strict).map_err(|failure| {
            DecodeError::from(match failure {
                ValueDecodeFailure::Scheme(e) => DecodeErrorKind::Scheme(e),
                ValueDecodeFailure::Field {
                    path,
                    message,
                    type_name,
                } => DecodeErrorKind::Field {
                    gvk: actual.clone(),
                    type_name,
                    position: positions.as_ref().and_then(|p| p(&path)),
                    path,
                    message,
                },
            })
        })?;
        let object = match target {
            Some(into) => {
                let copy = decoded.object.deep_copy_object();
                let assigned = scheme
                    .object_type(&actual)
                    .ok_or_else(|| scheme.not_registered(&actual))
                    .map_err(DecodeErrorKind::from)?
                    .assign(into, decoded.object);
                if assigned.is_err() {
                    return Err(DecodeErrorKind::Scheme(scheme.not_registered(&actual)).into());
                }
                copy
            }
            None => decoded.object,
        };
        let errors = strict_errors(duplicates, decoded.unknown_fields, order.as_ref());
        finish(object, actual, errors)
    }

    fn write_json(
        &self,
        obj: &dyn Object,
        w: &mut dyn io::Write,
        pretty: bool,
    ) -> Result<(), EncodeError> {
        let formatter = if pretty {
            GoFormatter::pretty()
        } else {
            GoFormatter::compact()
        };
        write_go_json(obj, w, formatter, self.format())
    }
}

/// Writes `obj` as Go's `encoding/json` does with `formatter`'s layout.
pub(crate) fn write_go_json(
    obj: &dyn Object,
    w: &mut dyn io::Write,
    formatter: GoFormatter<'_>,
    format: Format,
) -> Result<(), EncodeError> {
    let mut ser = serde_json::Serializer::with_formatter(w, formatter);
    erased_serde::serialize(obj.as_serialize(), &mut ser).map_err(|e| EncodeError::Serialize {
        format,
        type_name: obj.type_name(),
        message: e.to_string(),
    })
}

/// Go lists the YAML library's duplicate-key errors first, then the JSON decoder's
/// unknown and duplicate fields as it meets them, in document order.
fn strict_errors(
    duplicates: Vec<(usize, StrictFieldError)>,
    unknown: Vec<String>,
    order: Option<&PathLookup<usize>>,
) -> Vec<StrictFieldError> {
    let (yaml, json): (Vec<_>, Vec<_>) = duplicates
        .into_iter()
        .partition(|(_, d)| d.position().is_some());
    let mut ranked: Vec<(usize, StrictFieldError)> = unknown
        .into_iter()
        .map(|path| {
            let rank = order.and_then(|o| o(&path)).unwrap_or(usize::MAX);
            (rank, StrictFieldError::Unknown { path })
        })
        .chain(json)
        .collect();
    ranked.sort_by_key(|(rank, _)| *rank);
    yaml.into_iter().chain(ranked).map(|(_, e)| e).collect()
}

fn finish(
    object: Box<dyn Object>,
    gvk: GroupVersionKind,
    errors: Vec<StrictFieldError>,
) -> Result<(Box<dyn Object>, GroupVersionKind), DecodeError> {
    if errors.is_empty() {
        Ok((object, gvk))
    } else {
        Err(DecodeErrorKind::Strict(StrictDecodingError::new(object, gvk, errors)).into())
    }
}

/// Go's `UnstructuredJSONScheme`: the document as it is, a list when it has `items` (or
/// when decoding into a list); the kind is the one the document declares, never a
/// default, and must not be empty.
fn decode_unstructured(
    data: &[u8],
    map: Map<String, Value>,
    into: Option<&mut dyn Object>,
    duplicates: Vec<(usize, StrictFieldError)>,
    strict: bool,
) -> Result<(Box<dyn Object>, GroupVersionKind), DecodeError> {
    let into_list = into.as_ref().is_some_and(|o| o.is::<UnstructuredList>());
    let into_object = into.as_ref().is_some_and(|o| o.is::<Unstructured>());
    let object: Box<dyn Object> = if into_list || (!into_object && map.contains_key("items")) {
        Box::new(UnstructuredList::from_map(map).map_err(DecodeErrorKind::from)?)
    } else {
        Box::new(Unstructured::new(map))
    };
    let gvk = object.group_version_kind();
    if gvk.kind.is_empty() {
        return Err(DecodeErrorKind::MissingKind {
            data: excerpt(data),
        }
        .into());
    }
    let object = match into {
        Some(into) if into_list || into_object => {
            let copy = object.deep_copy_object();
            assign_unstructured(into, object);
            copy
        }
        _ => object,
    };
    let errors = if strict {
        strict_errors(duplicates, Vec::new(), None)
    } else {
        Vec::new()
    };
    finish(object, gvk, errors)
}

fn assign_unstructured(into: &mut dyn Object, object: Box<dyn Object>) {
    if let Some(slot) = into.downcast_mut::<Unstructured>() {
        if let Ok(object) = object.downcast::<Unstructured>() {
            *slot = *object;
        }
    } else if let Some(slot) = into.downcast_mut::<UnstructuredList>() {
        if let Ok(object) = object.downcast::<UnstructuredList>() {
            *slot = *object;
        }
    }
}

impl Decoder for Serializer<'_> {
    fn decode(
        &self,
        data: &[u8],
        defaults: Option<&GroupVersionKind>,
        into: Option<&mut dyn Object>,
    ) -> Result<(Box<dyn Object>, GroupVersionKind), DecodeError> {
        let doc = self.parse(data)?;
        self.decode_document(data, doc, defaults, into)
    }
}

impl Encoder for Serializer<'_> {
    /// JSON as Go's serializer writes it: compact with a final newline (Go's
    /// `json.Encoder.Encode`), or indented by two spaces without one (Go's
    /// `json.MarshalIndent`); YAML is the compact JSON converted as `sigs.k8s.io/yaml`
    /// converts it.
    fn encode(&self, obj: &dyn Object, w: &mut dyn io::Write) -> Result<(), EncodeError> {
        if self.options.yaml {
            let mut json = Vec::new();
            self.write_json(obj, &mut json, false)?;
            let value = document::parse(&json).map_err(|e| EncodeError::Serialize {
                format: Format::Yaml,
                type_name: obj.type_name(),
                message: e.to_string(),
            })?;
            w.write_all(super::yaml_input::json_to_yaml(&value)?.as_bytes())?;
            return Ok(());
        }
        self.write_json(obj, w, self.options.pretty)?;
        if !self.options.pretty {
            w.write_all(b"\n")?;
        }
        Ok(())
    }

    fn identifier(&self) -> String {
        // Go's identifier: the options as a JSON object with sorted keys.
        format!(
            r#"{{"name":"json","pretty":"{}","strict":"{}","yaml":"{}"}}"#,
            self.options.pretty, self.options.strict, self.options.yaml
        )
    }
}
