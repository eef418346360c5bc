//! Streams of documents: JSON values one after another (Go's `json.Framer` reader and
//! `json.Decoder` stream) or YAML documents separated by `---` (Go's `YAMLReader`), each
//! decoded with its index in the stream (Go's `NewYAMLOrJSONDecoder`).

use serde::de::IgnoredAny;

use super::{DecodeError, DecodeErrorKind, DecodeResult, Decoder, Format, Position};
use crate::schema::GroupVersionKind;

/// The JSON values of a stream (`{...}{...}` or one per line), as byte slices of `data`,
/// each with its 0-based index; malformed input ends the stream with an error carrying
/// the index and position.
///
/// ```
/// use apimachinery::serializer::split_json_stream;
/// let docs: Vec<_> = split_json_stream(b"{\"a\":1}\n{\"b\":2} ").collect::<Result<_, _>>()?;
/// assert_eq!(docs, [(0, &b"{\"a\":1}"[..]), (1, &b"{\"b\":2}"[..])]);
/// # Ok::<(), apimachinery::serializer::DecodeError>(())
/// ```
pub fn split_json_stream(data: &[u8]) -> JsonStream<'_> {
    JsonStream {
        data,
        offset: 0,
        index: 0,
        failed: false,
    }
}

/// The iterator of [`split_json_stream`].
#[derive(Clone, Debug)]
pub struct JsonStream<'a> {
    data: &'a [u8],
    offset: usize,
    index: usize,
    failed: bool,
}

impl<'a> Iterator for JsonStream<'a> {
    type Item = Result<(usize, &'a [u8]), DecodeError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let rest = self.data.get(self.offset..)?;
        let start = rest.iter().position(|b| !b.is_ascii_whitespace())?;
        let rest = &rest[start..];
        let mut values = serde_json::Deserializer::from_slice(rest).into_iter::<IgnoredAny>();
        let index = self.index;
        match values.next()? {
            Ok(IgnoredAny) => {
                let end = values.byte_offset();
                self.offset += start + end;
                self.index += 1;
                Some(Ok((index, &rest[..end])))
            }
            Err(e) => {
                self.failed = true;
                Some(Err(DecodeError::from(DecodeErrorKind::Syntax {
                    format: Format::Json,
                    position: Some(Position {
                        line: e.line(),
                        column: e.column(),
                    }),
                    message: e.to_string(),
                })
                .in_document(index)))
            }
        }
    }
}

/// Decodes each JSON value of a stream with `decoder`; each error names its document.
pub fn decode_json_stream<'a>(
    decoder: &'a dyn Decoder,
    data: &'a [u8],
    defaults: Option<&'a GroupVersionKind>,
) -> impl Iterator<Item = DecodeResult> + 'a {
    split_json_stream(data).map(move |doc| {
        let (index, bytes) = doc?;
        decoder
            .decode(bytes, defaults, None)
            .map_err(|e| e.in_document(index))
    })
}

/// Decodes every document of a YAML or JSON stream with `decoder` (Go's
/// `yaml.NewYAMLOrJSONDecoder`): JSON when the stream starts with `{`, else YAML split at
/// `---` lines. Documents holding nothing but comments and blank lines are skipped, as
/// kubectl skips them. Each error names its document's index, and positions are lines of
/// the stream.
///
/// ```
/// use apimachinery::serializer::{decode_stream, json::{JsonSerializer, SerializerOptions}};
///
/// let yaml = JsonSerializer::unstructured(SerializerOptions { yaml: true, ..Default::default() });
/// let stream = b"apiVersion: v1\nkind: A\n---\n# nothing\n---\napiVersion: v1\nkind: B\n";
/// let kinds: Vec<String> = decode_stream(&yaml, stream, None)
///     .map(|r| r.map(|(_, gvk)| gvk.kind.to_string()))
///     .collect::<Result<_, _>>()?;
/// assert_eq!(kinds, ["A", "B"]);
/// # Ok::<(), apimachinery::serializer::DecodeError>(())
/// ```
pub fn decode_stream<'a>(
    decoder: &'a dyn Decoder,
    data: &'a [u8],
    defaults: Option<&'a GroupVersionKind>,
) -> Box<dyn Iterator<Item = DecodeResult> + 'a> {
    if super::recognize(data) == Format::Json {
        return Box::new(decode_json_stream(decoder, data, defaults));
    }
    decode_yaml_stream(decoder, data, defaults)
}

/// Without the `yaml` feature, a stream that is not JSON is one error.
#[cfg(not(feature = "yaml"))]
fn decode_yaml_stream<'a>(
    _decoder: &'a dyn Decoder,
    _data: &'a [u8],
    _defaults: Option<&'a GroupVersionKind>,
) -> Box<dyn Iterator<Item = DecodeResult> + 'a> {
    let error = DecodeError::from(DecodeErrorKind::Unrecognized {
        message: super::json::YAML_NOT_BUILT_IN.to_owned(),
    });
    Box::new(std::iter::once(Err(error)))
}

/// A YAML stream, split into documents by the text layer, each decoded by `decoder`.
#[cfg(feature = "yaml")]
fn decode_yaml_stream<'a>(
    decoder: &'a dyn Decoder,
    data: &'a [u8],
    defaults: Option<&'a GroupVersionKind>,
) -> Box<dyn Iterator<Item = DecodeResult> + 'a> {
    let text = match std::str::from_utf8(data) {
        Ok(text) => text,
        Err(e) => {
            let error = DecodeError::from(DecodeErrorKind::Syntax {
                format: Format::Yaml,
                position: None,
                message: format!("invalid UTF-8 after byte {}", e.valid_up_to()),
            });
            return Box::new(std::iter::once(Err(error)));
        }
    };
    Box::new(
        super::yaml::YamlDocuments::new(text)
            .filter(|doc| doc.as_ref().map_or(true, |d| !is_blank(d.text)))
            .map(move |doc| {
                let doc = doc.map_err(|e| super::json::yaml_error(&e))?;
                decoder
                    .decode(doc.text.as_bytes(), defaults, None)
                    .map_err(|e| {
                        e.offset_lines(doc.line.saturating_sub(1))
                            .in_document(doc.index)
                    })
            }),
    )
}

/// True for a document of comments and blank lines only.
#[cfg(feature = "yaml")]
fn is_blank(text: &str) -> bool {
    text.lines().all(|l| {
        let l = l.trim();
        l.is_empty() || l.starts_with('#')
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serializer::json::{JsonSerializer, SerializerOptions};

    #[test]
    fn streams_split_and_decode_with_document_indexes() {
        let data = br#" {"apiVersion":"v1","kind":"A"}
            {"apiVersion":"v1","kind":"B","x":[1,{"y":"}"}]}{"apiVersion":"v1"} {"#;
        let json = JsonSerializer::unstructured(SerializerOptions::default());
        let results: Vec<_> = decode_json_stream(&json, data, None).collect();
        assert_eq!(results.len(), 4);
        assert_eq!(results[0].as_ref().unwrap().1.kind, "A");
        assert_eq!(results[1].as_ref().unwrap().1.kind, "B");
        let err = results[2].as_ref().unwrap_err();
        assert!(err.is_missing_kind() && err.document() == Some(2), "{err}");
        let err = results[3].as_ref().unwrap_err();
        assert_eq!(err.document(), Some(3));
        assert!(
            err.to_string().starts_with("document 3: malformed JSON"),
            "{err}"
        );
        assert_eq!(split_json_stream(b"  \n").count(), 0);
    }
}
