//! [`JsonSerializer`]: Go's JSON (and YAML) serializer over a [`Scheme`].

use std::io;

use serde_json::{Map, Value};

use super::document::{self, JsonDocument};
use super::meta_factory::{interpret, interpret_map, json_type, leading_type_meta, to_gvk};
use super::value_decoder::{DecodedValue, ValueDecodeFailure, decode_slice, decode_value};
use crate::runtime::{CONTENT_TYPE_JSON, Object, Scheme, Unknown, Unstructured, UnstructuredList};
use crate::schema::GroupVersionKind;
use crate::serializer::SchemeRef;
use crate::serializer::codec::{ENCODE_BUFFER_CAPACITY, gvk_with_defaults};
use crate::serializer::error::excerpt;
use crate::serializer::{
    DecodeError, DecodeErrorKind, Decoder, EncodeError, Encoder, Format, Position,
    StrictDecodingError, StrictFieldError,
};
use crate::util::json::JsonLayout;

/// How a [`JsonSerializer`] reads and writes (Go's `json.SerializerOptions`).
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
/// [`JsonSerializer::unstructured`] is Go's `unstructured.UnstructuredJSONScheme`: it needs
/// no scheme and decodes every kind into [`Unstructured`] (or [`UnstructuredList`] when
/// the document has `items`).
///
/// ```
/// use apimachinery::{ApiObject, apis::meta::v1::ObjectMeta, runtime::Scheme};
/// use apimachinery::serializer::{Decoder, Encoder, json::{JsonSerializer, SerializerOptions}};
///
/// #[derive(ApiObject, Clone, Debug, Default, PartialEq)]
/// #[api(group = "example.com", version = "v1", kind = "Widget")]
/// pub struct Widget { pub metadata: ObjectMeta, pub size: i32 }
///
/// let mut scheme = Scheme::new();
/// scheme.add_known_type::<Widget>()?;
/// let json = JsonSerializer::new(&scheme, SerializerOptions::default());
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
#[derive(Clone, Debug)]
pub struct JsonSerializer<'s> {
    scheme: Option<SchemeRef<'s>>,
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

impl<'s> JsonSerializer<'s> {
    /// A serializer decoding through `scheme` (Go's `NewSerializerWithOptions` with the
    /// scheme as creater and typer).
    pub fn new(scheme: impl Into<SchemeRef<'s>>, options: SerializerOptions) -> Self {
        JsonSerializer {
            scheme: Some(scheme.into()),
            options,
        }
    }

    /// A serializer that decodes every kind as [`Unstructured`] (Go's
    /// `UnstructuredJSONScheme`, with YAML and strictness as options).
    pub fn unstructured(options: SerializerOptions) -> Self {
        JsonSerializer {
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

    /// Decodes `data`, parsed already when `parsed` is given (YAML, or a document of a
    /// stream), as [`Decoder::decode`] does.
    ///
    /// JSON decoded into a typed object is read straight from the bytes, by the type's
    /// own monomorphized decode: in one pass when the leading keys name the kind (see
    /// [`decode_leading`](Self::decode_leading)), else after a cheap pass that reads
    /// only `apiVersion` and `kind` (Go's meta factory). YAML, and JSON for unstructured
    /// objects, go through a `serde_json::Value`.
    pub(crate) fn decode_parsed(
        &self,
        data: &[u8],
        parsed: Option<ParsedDocument>,
        defaults: Option<&GroupVersionKind>,
        mut into: Option<&mut dyn Object>,
    ) -> Result<(Box<dyn Object>, GroupVersionKind), DecodeError> {
        if let (None, Some(scheme), false) = (&parsed, self.scheme.as_deref(), self.options.strict)
        {
            if let Some(decoded) = self.decode_leading(scheme, data, defaults, into.as_deref_mut())
            {
                return Ok(decoded);
            }
        }
        let mut actual = match &parsed {
            Some(doc) => match &doc.value {
                Value::Object(map) => interpret_map(map)?,
                other => return Err(self.not_an_object(other)),
            },
            None => self.interpret_json(data)?,
        };
        if let Some(defaults) = defaults {
            actual = gvk_with_defaults(actual, defaults);
        }
        let strict = self.options.strict;
        match (self.scheme.as_deref(), into) {
            (Some(scheme), Some(into)) if !into.is_unstructured() => {
                let (kinds, _) = scheme.object_kinds(into).map_err(DecodeErrorKind::from)?;
                if let Some(first) = kinds.first() {
                    actual = gvk_with_defaults(actual, first);
                }
                let target = kinds.contains(&actual).then_some(into);
                self.decode_typed(scheme, data, parsed, actual, target)
            }
            (Some(scheme), None) => self.decode_typed(scheme, data, parsed, actual, None),
            (_, into) => {
                let doc = match parsed {
                    Some(doc) => doc,
                    None => self.parse(data)?,
                };
                decode_unstructured(data, doc, into, strict)
            }
        }
    }

    /// The one-pass typed decode: the kind is guessed from the leading keys (Go writes
    /// `kind` and `apiVersion` first), the type decodes the bytes, and the keys it met at
    /// the top level confirm the guess. `None` sends the caller down the careful path,
    /// which reads the kind from the whole document first: when the guess is not
    /// confirmed (the kind is further down, or given twice), and on any failure, so that
    /// errors are the careful path's.
    fn decode_leading(
        &self,
        scheme: &Scheme,
        data: &[u8],
        defaults: Option<&GroupVersionKind>,
        into: Option<&mut dyn Object>,
    ) -> Option<(Box<dyn Object>, GroupVersionKind)> {
        let lead = leading_type_meta(data)?;
        let (api_version, kind) = (lead.api_version.unwrap_or(""), lead.kind.unwrap_or(""));
        // The common case, nothing to default and no target: the registered kind's names
        // are shared rather than parsed into new ones.
        let registered = match (defaults, &into) {
            (None, None) => scheme.registered_kind(api_version, kind),
            _ => None,
        };
        let (object_type, actual, target) = match registered {
            Some((object_type, gvk)) => (object_type, gvk.clone(), None),
            None => {
                let mut actual = to_gvk(api_version, kind).ok()?;
                if let Some(defaults) = defaults {
                    actual = gvk_with_defaults(actual, defaults);
                }
                let target = match into {
                    Some(into) if into.is_unstructured() => return None,
                    Some(into) => {
                        let (kinds, _) = scheme.object_kinds(into).ok()?;
                        if let Some(first) = kinds.first() {
                            actual = gvk_with_defaults(actual, first);
                        }
                        kinds.contains(&actual).then_some(into)
                    }
                    None => None,
                };
                if actual.kind.is_empty() || actual.version.is_empty() {
                    return None;
                }
                (scheme.type_for_kind(&actual).ok()?, actual, target)
            }
        };
        let decoded = object_type.decode_json(data, false).ok()?;
        if !decoded.seen.declares(lead.api_version, lead.kind) {
            return None;
        }
        let mut object = decoded.object;
        object.set_group_version_kind(&actual);
        match target {
            Some(into) => {
                let copy = object.deep_copy_object();
                scheme.object_type(&actual)?.assign(into, object).ok()?;
                Some((copy, actual))
            }
            None => Some((object, actual)),
        }
    }

    /// Go's serializer fills an `Unknown` target with the document's bytes and kind,
    /// without decoding it. YAML is kept as the JSON it converts to (Go keeps the YAML
    /// text and calls it JSON).
    fn decode_unknown(
        &self,
        data: &[u8],
        parsed: Option<ParsedDocument>,
        defaults: Option<&GroupVersionKind>,
        into: &mut dyn Object,
    ) -> Result<(Box<dyn Object>, GroupVersionKind), DecodeError> {
        let (mut actual, raw) = match &parsed {
            Some(doc) => match &doc.value {
                Value::Object(map) => (
                    interpret_map(map)?,
                    serde_json::to_vec(&doc.value).unwrap_or_default(),
                ),
                other => return Err(self.not_an_object(other)),
            },
            None => (self.interpret_json(data)?, data.to_vec()),
        };
        if let Some(defaults) = defaults {
            actual = gvk_with_defaults(actual, defaults);
        }
        if let Some(unknown) = into.downcast_mut::<Unknown>() {
            unknown.raw = raw;
            unknown.content_type = CONTENT_TYPE_JSON.to_owned();
            unknown.content_encoding.clear();
            unknown.set_group_version_kind(&actual);
        }
        Ok((into.deep_copy_object(), actual))
    }

    fn not_an_object(&self, value: &Value) -> DecodeError {
        DecodeErrorKind::NotAnObject {
            format: self.format(),
            found: json_type(value),
        }
        .into()
    }

    /// Go's meta factory on JSON text, after checking that the text is an object.
    fn interpret_json(&self, data: &[u8]) -> Result<GroupVersionKind, DecodeError> {
        if data.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{') {
            return interpret(data);
        }
        let value = document::parse(data)?;
        Err(self.not_an_object(&value))
    }

    fn decode_typed(
        &self,
        scheme: &Scheme,
        data: &[u8],
        parsed: Option<ParsedDocument>,
        actual: GroupVersionKind,
        target: Option<&mut dyn Object>,
    ) -> Result<(Box<dyn Object>, GroupVersionKind), DecodeError> {
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
        let strict = self.options.strict;
        let field_error = |failure: ValueDecodeFailure,
                           positions: Option<&PathLookup<Position>>| {
            DecodeError::from(match failure {
                ValueDecodeFailure::Scheme(e) => DecodeErrorKind::Scheme(e),
                ValueDecodeFailure::Field {
                    path,
                    message,
                    type_name,
                } => DecodeErrorKind::Field {
                    gvk: actual.clone(),
                    type_name,
                    position: positions.and_then(|p| p(&path)),
                    path,
                    message,
                },
            })
        };
        let (decoded, duplicates, order) = match parsed {
            Some(doc) => {
                let decoded = decode_value(scheme, &actual, &doc.value, strict)
                    .map_err(|f| field_error(f, doc.positions.as_ref()))?;
                (decoded, doc.duplicates, doc.order)
            }
            None if strict => match decode_slice(scheme, &actual, data, true) {
                // One read of the text gives the object (`RawExtension` bytes verbatim,
                // as Go keeps them), its unknown fields in document order, and the
                // assurance that no key repeats.
                Ok(decoded) if decoded.no_duplicate_keys => (decoded, Vec::new(), None),
                first => {
                    // Repeated keys (or a failure): the document pass names each
                    // repeat; a key given twice counts once, with its last value, and a
                    // failure gets the document's path. The object read from the text
                    // stays the one returned.
                    let doc = self.parse(data)?;
                    let checked = decode_value(scheme, &actual, &doc.value, true)
                        .map_err(|f| field_error(f, None))?;
                    let decoded = match first {
                        Ok(fast) => DecodedValue {
                            unknown_fields: checked.unknown_fields,
                            ..fast
                        },
                        Err(_) => checked,
                    };
                    (decoded, doc.duplicates, doc.order)
                }
            },
            None => match decode_slice(scheme, &actual, data, false) {
                Ok(decoded) => (decoded, Vec::new(), None),
                Err(ValueDecodeFailure::Scheme(e)) => {
                    return Err(DecodeErrorKind::Scheme(e).into());
                }
                Err(ValueDecodeFailure::Field { .. }) => {
                    // Read again through a Value, where a key given twice keeps its last
                    // value (what Go does), and a real failure gets its path.
                    let doc = self.parse(data)?;
                    let decoded = decode_value(scheme, &actual, &doc.value, false)
                        .map_err(|f| field_error(f, None))?;
                    (decoded, doc.duplicates, doc.order)
                }
            },
        };
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
        let errors = if strict {
            strict_errors(duplicates, decoded.unknown_fields, order.as_ref())
        } else {
            Vec::new()
        };
        finish(object, actual, errors)
    }

    /// Appends `obj` as Go's JSON to `out`, through the object's own
    /// [`Object::encode_json`] (the one serialization every type is compiled for).
    fn write_json(
        &self,
        obj: &dyn Object,
        out: &mut Vec<u8>,
        pretty: bool,
    ) -> Result<(), EncodeError> {
        let layout = if pretty {
            JsonLayout::Pretty
        } else {
            JsonLayout::Compact
        };
        write_go_json(obj, out, layout, self.format())
    }

    /// Appends the encoding of `obj` to `out`.
    fn encode_into(&self, obj: &dyn Object, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        if self.options.yaml {
            let mut json = Vec::with_capacity(ENCODE_BUFFER_CAPACITY);
            self.write_json(obj, &mut json, false)?;
            // Straight from the JSON text: no `Value` is built.
            let text =
                super::yaml_input::yaml_text(&json).map_err(|message| EncodeError::Serialize {
                    format: Format::Yaml,
                    type_name: obj.type_name(),
                    message,
                })?;
            out.extend_from_slice(text.as_bytes());
            return Ok(());
        }
        self.write_json(obj, out, self.options.pretty)?;
        if !self.options.pretty {
            out.push(b'\n');
        }
        Ok(())
    }
}

impl JsonSerializer<'_> {
    /// Non-strict YAML through the fast path: the document converted to Go's
    /// `YAMLToJSON` bytes in one pass ([`yaml::transcode`](crate::serializer::yaml::transcode)), then decoded as JSON input is
    /// (typed decode reading the kind in the same pass, or `Unstructured` from the
    /// bytes). `None` — the document is outside the fast subset, or any step fails —
    /// sends the caller down the YAML path, whose errors, positions and strict reports
    /// stay what they are. `Unknown` targets keep the YAML path.
    fn decode_transcoded(
        &self,
        data: &[u8],
        defaults: Option<&GroupVersionKind>,
        into: Option<&mut dyn Object>,
    ) -> Option<(Box<dyn Object>, GroupVersionKind)> {
        if !self.options.yaml || self.options.strict {
            return None;
        }
        if into.as_ref().is_some_and(|o| o.is::<Unknown>()) {
            return None;
        }
        let json = super::yaml_input::transcode(data)?;
        let as_json = JsonSerializer {
            scheme: self.scheme.as_deref().map(SchemeRef::Borrowed),
            options: SerializerOptions {
                yaml: false,
                ..self.options
            },
        };
        let parsed = match as_json.scheme {
            Some(_) => None,
            None => Some(as_json.parse(&json).ok()?),
        };
        as_json.decode_parsed(&json, parsed, defaults, into).ok()
    }
}

/// Writes `obj` as Go's `encoding/json` does in `layout`, through the object's own
/// encode (for types the scheme does not know).
pub(crate) fn write_go_json(
    obj: &dyn Object,
    w: &mut Vec<u8>,
    layout: JsonLayout,
    format: Format,
) -> Result<(), EncodeError> {
    obj.encode_json(w, layout)
        .map_err(|e| EncodeError::Serialize {
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
    doc: ParsedDocument,
    into: Option<&mut dyn Object>,
    strict: bool,
) -> Result<(Box<dyn Object>, GroupVersionKind), DecodeError> {
    let ParsedDocument {
        value, duplicates, ..
    } = doc;
    let map: Map<String, Value> = match value {
        Value::Object(map) => map,
        other => {
            return Err(DecodeErrorKind::NotAnObject {
                format: Format::Json,
                found: json_type(&other),
            }
            .into());
        }
    };
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

impl Decoder for JsonSerializer<'_> {
    fn decode(
        &self,
        data: &[u8],
        defaults: Option<&GroupVersionKind>,
        into: Option<&mut dyn Object>,
    ) -> Result<(Box<dyn Object>, GroupVersionKind), DecodeError> {
        let mut into = into;
        if let Some(decoded) = self.decode_transcoded(data, defaults, into.as_deref_mut()) {
            return Ok(decoded);
        }
        // YAML, and unstructured-only serializers, read the whole document up front.
        let parsed = if self.options.yaml || self.scheme.is_none() {
            Some(self.parse(data)?)
        } else {
            None
        };
        match into {
            Some(into) if into.is::<Unknown>() => self.decode_unknown(data, parsed, defaults, into),
            into => self.decode_parsed(data, parsed, defaults, into),
        }
    }
}

impl Encoder for JsonSerializer<'_> {
    /// JSON as Go's serializer writes it: compact with a final newline (Go's
    /// `json.Encoder.Encode`), or indented by two spaces without one (Go's
    /// `json.MarshalIndent`); YAML is the compact JSON converted as `sigs.k8s.io/yaml`
    /// converts it.
    ///
    /// The encoding is built in memory and written at once, so that a failure writes
    /// nothing.
    fn encode(&self, obj: &dyn Object, w: &mut dyn io::Write) -> Result<(), EncodeError> {
        let mut out = Vec::with_capacity(ENCODE_BUFFER_CAPACITY);
        self.encode_into(obj, &mut out)?;
        w.write_all(&out)?;
        Ok(())
    }

    fn encode_to_vec(&self, obj: &dyn Object) -> Result<Vec<u8>, EncodeError> {
        let mut out = Vec::with_capacity(ENCODE_BUFFER_CAPACITY);
        self.encode_into(obj, &mut out)?;
        Ok(out)
    }

    fn identifier(&self) -> String {
        // Go's identifier: the options as a JSON object with sorted keys.
        format!(
            r#"{{"name":"json","pretty":"{}","strict":"{}","yaml":"{}"}}"#,
            self.options.pretty, self.options.strict, self.options.yaml
        )
    }
}
