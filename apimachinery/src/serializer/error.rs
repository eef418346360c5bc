//! [`DecodeError`] and [`EncodeError`]: what decoding and encoding fail with.

use crate::conversion::ConversionError;
use std::fmt;

use crate::runtime::unstructured::UnstructuredError;
use crate::runtime::{Object, SchemeError};
use crate::schema::{GroupVersionKind, ParseGroupVersionError};

/// The format a document was written in, for error messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// JSON.
    Json,
    /// YAML.
    Yaml,
    /// The Kubernetes protobuf envelope.
    Protobuf,
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Json => "JSON",
            Format::Yaml => "YAML",
            Format::Protobuf => "protobuf",
        })
    }
}

/// A position in a text document, 1-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The line, from 1.
    pub line: usize,
    /// The column, from 1.
    pub column: usize,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// Why a document could not be decoded; [`kind`](Self::kind) tells which error it is,
/// [`document`](Self::document) which document of a stream it was.
///
/// Boxed so that `Result<_, DecodeError>` stays small on the decode path.
#[derive(Debug, thiserror::Error)]
#[error("{}{}", document_prefix(.0.document), .0.kind)]
pub struct DecodeError(Box<DecodeErrorInner>);

#[derive(Debug)]
struct DecodeErrorInner {
    document: Option<usize>,
    kind: DecodeErrorKind,
}

fn document_prefix(document: Option<usize>) -> String {
    document.map_or_else(String::new, |i| format!("document {i}: "))
}

impl DecodeError {
    /// Which error this is, with its details.
    pub fn kind(&self) -> &DecodeErrorKind {
        &self.0.kind
    }

    /// The details, by value.
    pub fn into_kind(self) -> DecodeErrorKind {
        self.0.kind
    }

    /// The 0-based index of the document in its stream, when it came from one.
    pub fn document(&self) -> Option<usize> {
        self.0.document
    }

    /// The same error, said to be about document `index` of a stream.
    pub fn in_document(mut self, index: usize) -> Self {
        self.0.document = Some(index);
        self
    }

    /// The same error with its line moved down by `lines` (a document's lines made lines
    /// of its stream).
    #[cfg(feature = "yaml")]
    pub(crate) fn offset_lines(mut self, lines: usize) -> Self {
        match &mut self.0.kind {
            DecodeErrorKind::Syntax {
                position: Some(p), ..
            }
            | DecodeErrorKind::Field {
                position: Some(p), ..
            } => p.line += lines,
            _ => {}
        }
        self
    }

    /// The position in the text the error is at, when the format and the error have one.
    pub fn position(&self) -> Option<Position> {
        match self.kind() {
            DecodeErrorKind::Syntax { position, .. } => *position,
            DecodeErrorKind::Field { position, .. } => *position,
            _ => None,
        }
    }

    /// The JSON path of the field at fault (`spec.containers[0].name`), for field errors.
    pub fn path(&self) -> Option<&str> {
        match self.kind() {
            DecodeErrorKind::Field { path, .. } => Some(path),
            _ => None,
        }
    }

    /// True when the kind is not registered (Go's `runtime.IsNotRegisteredError`).
    pub fn is_not_registered(&self) -> bool {
        matches!(self.kind(), DecodeErrorKind::Scheme(e) if e.is_not_registered())
    }

    /// True when the document has no kind (Go's `runtime.IsMissingKind`).
    pub fn is_missing_kind(&self) -> bool {
        matches!(self.kind(), DecodeErrorKind::MissingKind { .. })
    }

    /// True when the document has no version (Go's `runtime.IsMissingVersion`).
    pub fn is_missing_version(&self) -> bool {
        matches!(self.kind(), DecodeErrorKind::MissingVersion { .. })
    }

    /// True for strict-mode errors (Go's `runtime.IsStrictDecodingError`): the object
    /// was decoded, and is in the error.
    pub fn is_strict_decoding_error(&self) -> bool {
        matches!(self.kind(), DecodeErrorKind::Strict(_))
    }

    /// The strict-mode error, when this is one.
    pub fn as_strict(&self) -> Option<&StrictDecodingError> {
        match self.kind() {
            DecodeErrorKind::Strict(e) => Some(e),
            _ => None,
        }
    }
}

impl From<DecodeErrorKind> for DecodeError {
    fn from(kind: DecodeErrorKind) -> Self {
        DecodeError(Box::new(DecodeErrorInner {
            document: None,
            kind,
        }))
    }
}

/// The errors decoding reports.
#[derive(Debug, thiserror::Error)]
pub enum DecodeErrorKind {
    /// The bytes are not well-formed JSON or YAML.
    #[error("malformed {format}{}: {message}", .position.map(|p| format!(" at {p}")).unwrap_or_default())]
    Syntax {
        /// The format being read.
        format: Format,
        /// Where the reader stopped, when it says.
        position: Option<Position>,
        /// What the reader reported.
        message: String,
    },
    /// The document is well formed but not an object (a list, a string, ...).
    #[error("expected a {format} object, got {found}")]
    NotAnObject {
        /// The format being read.
        format: Format,
        /// The JSON type found.
        found: &'static str,
    },
    /// `apiVersion` or `kind` is not a string, or `apiVersion` is not a group version.
    #[error("couldn't get version/kind; {message}")]
    TypeMeta {
        /// What was wrong.
        message: String,
    },
    /// The document has no `kind`, and none was given as a default (Go's
    /// `runtime.NewMissingKindErr`).
    #[error("Object 'Kind' is missing in '{data}'")]
    MissingKind {
        /// The document (cut after 1 KiB).
        data: String,
    },
    /// The document has no version in `apiVersion`, and none was given as a default.
    #[error("Object 'apiVersion' is missing in '{data}'")]
    MissingVersion {
        /// The document (cut after 1 KiB).
        data: String,
    },
    /// The scheme has no type for the kind, or could not create one.
    #[error(transparent)]
    Scheme(#[from] SchemeError),
    /// A field has a value its type cannot hold: a wrong JSON type, a number out of
    /// range, a fraction where an integer belongs, an unknown enum value, ...
    #[error("decoding {gvk} ({type_name}): {}{message}", field_prefix(.path, .position))]
    Field {
        /// The kind being decoded.
        gvk: GroupVersionKind,
        /// The Rust type being decoded into.
        type_name: &'static str,
        /// The JSON path of the field (`spec.template.spec.containers[0].ports[1].containerPort`).
        path: String,
        /// The field's position in a YAML document.
        position: Option<Position>,
        /// What the type reported.
        message: String,
    },
    /// Strict decoding found unknown or duplicate fields; the object itself decoded.
    #[error(transparent)]
    Strict(StrictDecodingError),
    /// The document does not fit an unstructured object or list (`items` not an array
    /// of objects).
    #[error(transparent)]
    Unstructured(#[from] UnstructuredError),
    /// The object decoded could not be converted to the version asked for.
    #[error(transparent)]
    Conversion(ConversionError),
    /// Protobuf bytes that do not fit the kind's message: truncated, a bad length, a
    /// wrong wire type, a value the field's type rejects.
    #[error("decoding {gvk} from protobuf: {message} at byte {offset}{}", if .path.is_empty() { String::new() } else { format!(" in field {}", .path) })]
    Protobuf {
        /// The kind being decoded (empty when the envelope itself is bad).
        gvk: GroupVersionKind,
        /// The field path (`metadata.ownerReferences[0].uid`).
        path: String,
        /// The byte offset in the input.
        offset: usize,
        /// What was wrong.
        message: String,
    },
    /// The object decoded is not of the type asked for ([`DecoderExt::decode_as`](super::DecoderExt::decode_as)):
    /// the bytes are of another kind, or the decoder converted to another version.
    #[error("decoded {found} ({found_type}), not {expected} ({expected_type})")]
    UnexpectedType {
        /// The kind of the type asked for.
        expected: GroupVersionKind,
        /// The Rust type asked for.
        expected_type: &'static str,
        /// The kind the bytes were decoded as.
        found: GroupVersionKind,
        /// The Rust type of the object decoded.
        found_type: &'static str,
    },
    /// The document is not in a format this decoder reads.
    #[error("{message}")]
    Unrecognized {
        /// What was tried.
        message: String,
    },
}

fn field_prefix(path: &str, position: &Option<Position>) -> String {
    match (path.is_empty(), position) {
        (true, None) => String::new(),
        (true, Some(p)) => format!("at {p}: "),
        (false, None) => format!("field {path}: "),
        (false, Some(p)) => format!("field {path} (at {p}): "),
    }
}

impl From<ParseGroupVersionError> for DecodeErrorKind {
    fn from(e: ParseGroupVersionError) -> Self {
        DecodeErrorKind::TypeMeta {
            message: e.to_string(),
        }
    }
}

/// The errors Go's strict decoding reports, all of them at once, with the object that was
/// decoded regardless (Go's `runtime.StrictDecodingError`). Its message is Go's:
/// `strict decoding error: unknown field "spec.foo", duplicate field "metadata.name"`.
#[derive(Debug)]
pub struct StrictDecodingError {
    object: Box<dyn Object>,
    gvk: GroupVersionKind,
    errors: Vec<StrictFieldError>,
}

impl StrictDecodingError {
    /// Builds the error; `errors` must not be empty.
    pub fn new(
        object: Box<dyn Object>,
        gvk: GroupVersionKind,
        errors: Vec<StrictFieldError>,
    ) -> Self {
        StrictDecodingError {
            object,
            gvk,
            errors,
        }
    }

    /// The object, decoded as non-strict decoding would have.
    pub fn object(&self) -> &dyn Object {
        &*self.object
    }

    /// The object and its kind, by value.
    pub fn into_object(self) -> (Box<dyn Object>, GroupVersionKind) {
        (self.object, self.gvk)
    }

    /// The kind the document was decoded as.
    pub fn gvk(&self) -> &GroupVersionKind {
        &self.gvk
    }

    /// Every unknown and duplicate field.
    pub fn errors(&self) -> &[StrictFieldError] {
        &self.errors
    }
}

impl fmt::Display for StrictDecodingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("strict decoding error: ")?;
        // Go reports YAML duplicates as one error of its YAML library, listed first,
        // then the JSON decoder's errors one by one.
        let yaml: Vec<&StrictFieldError> = self
            .errors
            .iter()
            .filter(|e| e.position().is_some())
            .collect();
        let mut first = true;
        if !yaml.is_empty() {
            f.write_str("yaml: unmarshal errors:")?;
            for e in &yaml {
                write!(f, "\n  {e}")?;
            }
            first = false;
        }
        for e in self.errors.iter().filter(|e| e.position().is_none()) {
            if !first {
                f.write_str(", ")?;
            }
            first = false;
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for StrictDecodingError {}

/// One unknown or duplicate field found by strict decoding.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum StrictFieldError {
    /// A field the type does not have.
    #[error("unknown field {path:?}")]
    Unknown {
        /// The field's JSON path.
        path: String,
    },
    /// A field given twice in one JSON object; the last value was kept.
    #[error("duplicate field {path:?}")]
    Duplicate {
        /// The field's JSON path.
        path: String,
    },
    /// A key given twice in one YAML mapping; the last value was kept. Go's YAML library
    /// reports these, in its own words.
    #[error("line {}: key {key:?} already set in map", .position.line)]
    YamlDuplicate {
        /// The field's JSON path.
        path: String,
        /// The key.
        key: String,
        /// Where the second occurrence is.
        position: Position,
    },
}

impl StrictFieldError {
    /// The field's JSON path.
    pub fn path(&self) -> &str {
        match self {
            StrictFieldError::Unknown { path }
            | StrictFieldError::Duplicate { path }
            | StrictFieldError::YamlDuplicate { path, .. } => path,
        }
    }

    /// The field's position in a YAML document, when known.
    pub fn position(&self) -> Option<Position> {
        match self {
            StrictFieldError::YamlDuplicate { position, .. } => Some(*position),
            _ => None,
        }
    }
}

impl From<ConversionError> for DecodeError {
    fn from(e: ConversionError) -> Self {
        DecodeErrorKind::Conversion(e).into()
    }
}

/// Why an object could not be encoded.
#[derive(Debug, thiserror::Error)]
pub enum EncodeError {
    /// Writing the output failed.
    #[error("writing the encoded object: {0}")]
    Io(#[from] std::io::Error),
    /// The object's serializer failed (a NaN float, a map with non-string keys, ...).
    #[error("encoding {type_name} as {format}: {message}")]
    Serialize {
        /// The format being written.
        format: Format,
        /// The Rust type of the object.
        type_name: &'static str,
        /// What the serializer reported.
        message: String,
    },
    /// The scheme does not know the object's type, or conversion needed it.
    #[error(transparent)]
    Scheme(#[from] SchemeError),
    /// Conversion to the target version failed.
    #[error(transparent)]
    Conversion(#[from] ConversionError),
    /// The encoder cannot write this format yet.
    #[error("{format} encoding is not available: {reason}")]
    Unsupported {
        /// The format asked for.
        format: Format,
        /// Why not.
        reason: &'static str,
    },
}

/// The document, cut to a length fit for an error message, as Go cuts it.
pub(crate) fn excerpt(data: &[u8]) -> String {
    const LIMIT: usize = 1024;
    let text = String::from_utf8_lossy(data);
    if text.len() <= LIMIT {
        return text.into_owned();
    }
    let mut end = LIMIT;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{} ...", &text[..end])
}
