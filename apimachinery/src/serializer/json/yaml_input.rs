//! The YAML side of the serializer's decode: a YAML document read into a JSON value with
//! what strict mode and error messages need (duplicate keys, node positions), through the
//! text layer in [`crate::serializer::yaml`] (the encode writes YAML straight from its
//! JSON text, with [`json_text_to_yaml`](crate::serializer::yaml::json_text_to_yaml)).
//!
//! Without the cargo feature `yaml` the text layer is not built: the same functions then
//! fail with [`YAML_NOT_BUILT_IN`], and the fast path declines.

use super::serializer::ParsedDocument;
#[cfg(feature = "yaml")]
use crate::serializer::yaml::{self, YamlDocument, YamlError};
use crate::serializer::{DecodeError, DecodeErrorKind};
#[cfg(feature = "yaml")]
use crate::serializer::{Format, Position, StrictFieldError};

/// What reading or writing YAML fails with when the `yaml` feature is off.
#[cfg(not(feature = "yaml"))]
pub(crate) const YAML_NOT_BUILT_IN: &str =
    "YAML is not built in (apimachinery's cargo feature `yaml` is off)";

/// The JSON text of an object as YAML, as `sigs.k8s.io/yaml.JSONToYAML` writes it.
#[cfg(feature = "yaml")]
pub(crate) fn yaml_text(json: &[u8]) -> Result<String, String> {
    yaml::json_text_to_yaml(json).map_err(|e| e.to_string())
}

/// The JSON text of an object as YAML: not without the `yaml` feature.
#[cfg(not(feature = "yaml"))]
pub(crate) fn yaml_text(_json: &[u8]) -> Result<String, String> {
    Err(YAML_NOT_BUILT_IN.to_owned())
}

/// A YAML document in the fast path's subset as Go's `YAMLToJSON` bytes, or `None`.
#[cfg(feature = "yaml")]
pub(crate) fn transcode(data: &[u8]) -> Option<Vec<u8>> {
    yaml::transcode(std::str::from_utf8(data).ok()?).ok()
}

/// Without the `yaml` feature there is no fast path to take.
#[cfg(not(feature = "yaml"))]
pub(crate) fn transcode(_data: &[u8]) -> Option<Vec<u8>> {
    None
}

/// Reading YAML: not without the `yaml` feature.
#[cfg(not(feature = "yaml"))]
pub(crate) fn parse_yaml(_data: &[u8]) -> Result<ParsedDocument, DecodeError> {
    Err(DecodeErrorKind::Unrecognized {
        message: YAML_NOT_BUILT_IN.to_owned(),
    }
    .into())
}

/// Reads one YAML document (Go's serializer reads the first document of its input).
#[cfg(feature = "yaml")]
pub(crate) fn parse_yaml(data: &[u8]) -> Result<ParsedDocument, DecodeError> {
    let text = std::str::from_utf8(data).map_err(|e| {
        let before = data.get(..e.valid_up_to()).unwrap_or_default();
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let column = before.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
        DecodeError::from(DecodeErrorKind::Syntax {
            format: Format::Yaml,
            position: Some(Position { line, column }),
            message: "invalid UTF-8".into(),
        })
    })?;
    let doc = yaml::yaml_to_json(text).map_err(|e| yaml_error(&e))?;
    Ok(parsed_document(doc, 0))
}

/// A document of the text layer as the serializer takes it; `line_offset` moves the
/// document's positions to lines of its stream.
#[cfg(feature = "yaml")]
pub(crate) fn parsed_document(mut doc: YamlDocument, line_offset: usize) -> ParsedDocument {
    let value = std::mem::take(&mut doc.value);
    let duplicates = doc
        .duplicate_keys
        .iter()
        .enumerate()
        .map(|(rank, d)| {
            (
                rank,
                StrictFieldError::YamlDuplicate {
                    path: d.path.clone(),
                    key: d.key.clone(),
                    position: Position {
                        line: d.line + line_offset,
                        column: d.column,
                    },
                },
            )
        })
        .collect();
    let positions = move |path: &str| {
        doc.position(path).map(|(line, column)| Position {
            line: line + line_offset,
            column,
        })
    };
    ParsedDocument {
        value,
        duplicates,
        order: None,
        positions: Some(Box::new(positions)),
    }
}

/// A text-layer error as a decode error, with its position when it has one.
#[cfg(feature = "yaml")]
pub(crate) fn yaml_error(e: &YamlError) -> DecodeError {
    let position = match (e.line(), e.column()) {
        (Some(line), Some(column)) => Some(Position { line, column }),
        (Some(line), None) => Some(Position { line, column: 1 }),
        _ => None,
    };
    let mut message = e.kind().to_string();
    if let Some(path) = e.path().filter(|p| !p.is_empty()) {
        message = format!("{message} (at {path})");
    }
    let error = DecodeError::from(DecodeErrorKind::Syntax {
        format: Format::Yaml,
        position,
        message,
    });
    match e.document_index() {
        Some(index) => error.in_document(index),
        None => error,
    }
}
