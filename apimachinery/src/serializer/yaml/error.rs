//! [`YamlError`]: what reading YAML can fail with, and where.

use std::fmt;

/// An error reading YAML: what went wrong ([`kind`](Self::kind)) and where — the 1-based
/// line and column, the JSON path of the node when the problem is a value, and the
/// 0-based document index when the input was a multi-document stream.
///
/// The details are boxed so that `Result<_, YamlError>` stays one pointer wide.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct YamlError(Box<YamlErrorInner>);

#[derive(Debug, Clone, PartialEq)]
struct YamlErrorInner {
    kind: YamlErrorKind,
    line: Option<usize>,
    column: Option<usize>,
    path: Option<String>,
    document_index: Option<usize>,
}

impl fmt::Display for YamlErrorInner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Go's messages start with "yaml: line N:"; we add the column and document.
        f.write_str("yaml: ")?;
        if let Some(index) = self.document_index {
            write!(f, "document {index}: ")?;
        }
        match (self.line, self.column) {
            (Some(line), Some(column)) => write!(f, "line {line}, column {column}: ")?,
            (Some(line), None) => write!(f, "line {line}: ")?,
            _ => {}
        }
        write!(f, "{}", self.kind)?;
        if let Some(path) = self.path.as_deref().filter(|p| !p.is_empty()) {
            write!(f, " (at {path})")?;
        }
        Ok(())
    }
}

impl YamlError {
    pub(crate) fn new(kind: YamlErrorKind) -> Self {
        YamlError(Box::new(YamlErrorInner {
            kind,
            line: None,
            column: None,
            path: None,
            document_index: None,
        }))
    }

    pub(crate) fn at(mut self, line: usize, column: usize) -> Self {
        self.0.line = Some(line);
        self.0.column = Some(column);
        self
    }

    pub(crate) fn with_path(mut self, path: impl Into<String>) -> Self {
        self.0.path = Some(path.into());
        self
    }

    pub(crate) fn in_document(mut self, index: usize, first_line: usize) -> Self {
        self.0.document_index = Some(index);
        // Lines inside a document are counted from its first line; report stream lines.
        if let Some(line) = self.0.line.as_mut() {
            *line += first_line.saturating_sub(1);
        }
        self
    }

    /// Which error this is, with its details.
    pub fn kind(&self) -> &YamlErrorKind {
        &self.0.kind
    }

    /// The 1-based line of the problem, when known.
    pub fn line(&self) -> Option<usize> {
        self.0.line
    }

    /// The 1-based column (in characters) of the problem, when known.
    pub fn column(&self) -> Option<usize> {
        self.0.column
    }

    /// The JSON path (`spec.containers[0].name`) of the node at fault, when the problem
    /// is a value rather than the syntax.
    pub fn path(&self) -> Option<&str> {
        self.0.path.as_deref()
    }

    /// The 0-based index of the document in a multi-document stream, when the input was
    /// read through [`YamlDocuments`](super::YamlDocuments).
    pub fn document_index(&self) -> Option<usize> {
        self.0.document_index
    }
}

/// The problems [`YamlError`] reports.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum YamlErrorKind {
    /// The text is not YAML (the parser's message).
    #[error("{message}")]
    Syntax {
        /// What the parser expected or found.
        message: String,
    },
    /// A line starts with `---` but carries more than a comment after it (Go's
    /// `YAMLReader` rejects these rather than guess).
    #[error("invalid Yaml document separator: {rest}")]
    InvalidDocumentSeparator {
        /// What follows the `---`.
        rest: String,
    },
    /// Collections nest deeper than [`MAX_DEPTH`](super::MAX_DEPTH).
    #[error("document nests deeper than {limit} levels")]
    TooDeep {
        /// The limit.
        limit: usize,
    },
    /// Aliases expand to far more nodes than the document holds (a "billion laughs").
    #[error("document contains excessive aliasing")]
    ExcessiveAliasing,
    /// An alias refers to the node that contains it.
    #[error("anchor '{anchor}' value contains itself")]
    RecursiveAlias {
        /// The anchor's id in the document.
        anchor: usize,
    },
    /// A mapping key that JSON cannot hold: null, a sequence, a mapping, or an unsigned
    /// integer above `i64::MAX` (Go's `sigs.k8s.io/yaml` rejects the same keys).
    #[error("unsupported map key: {key}")]
    UnsupportedKey {
        /// The key as written or resolved.
        key: String,
    },
    /// A merge key (`<<`) whose value is not a mapping or a sequence of mappings.
    #[error("map merge requires map or sequence of maps as the value")]
    InvalidMerge,
    /// A scalar whose explicit tag it cannot be read as (`!!int abc`).
    #[error("cannot decode {found} `{value}` as a {tag}")]
    TagMismatch {
        /// The explicit tag.
        tag: String,
        /// The tag the value resolves to.
        found: String,
        /// The scalar.
        value: String,
    },
    /// A `!!binary` scalar that is not base64.
    #[error("!!binary value contains invalid base64 data")]
    InvalidBinary,
    /// A float JSON cannot carry (`.inf`, `.nan`); Go's `json.Marshal` fails on them too.
    #[error("json: unsupported value: {value}")]
    UnsupportedValue {
        /// The scalar as written.
        value: String,
    },
}
