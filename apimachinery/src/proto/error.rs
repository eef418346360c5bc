//! [`ProtobufError`]: what went wrong, at which byte, in which field.

use std::fmt;

/// Why protobuf bytes could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ProtobufErrorKind {
    /// The input ends in the middle of a value.
    #[error("unexpected end of input")]
    Truncated,
    /// A varint longer than ten bytes or above 2^64.
    #[error("varint overflows 64 bits")]
    VarintOverflow,
    /// A length that runs past the end of its message.
    #[error("length {0} runs past the end of the input")]
    LengthPastEnd(u64),
    /// A key with wire type 6 or 7.
    #[error("invalid wire type {0}")]
    WireType(u64),
    /// A key with field number 0 or beyond 2^29.
    #[error("invalid field number {0}")]
    FieldNumber(u64),
    /// A known field sent with a wire type its type cannot have.
    #[error("wire type {found:?} where {expected} was expected")]
    UnexpectedWireType {
        /// What the key said.
        found: super::WireType,
        /// What the field's type needs.
        expected: &'static str,
    },
    /// An end-group key without its start.
    #[error("unexpected end of group {0}")]
    UnexpectedEndGroup(u32),
    /// Messages nested deeper than [`MAX_DEPTH`](super::MAX_DEPTH).
    #[error("messages nested too deeply")]
    TooDeep,
    /// A string that is not UTF-8.
    #[error("string is not valid UTF-8")]
    InvalidUtf8,
    /// A number that does not fit the field's type.
    #[error("value {value} out of range for {ty}")]
    OutOfRange {
        /// The value read.
        value: i128,
        /// The field's type.
        ty: &'static str,
    },
    /// A value the field's type rejects (a bad quantity, an unknown enum value...).
    #[error("invalid value: {0}")]
    Invalid(String),
    /// The envelope's magic number is missing.
    #[error("missing the Kubernetes protobuf magic number \"k8s\\0\"")]
    MissingMagic,
}

/// A protobuf decoding error: its kind, the byte offset in the input where it was found,
/// and the path of fields leading there (`metadata.ownerReferences[0].uid`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProtobufError(Box<Inner>);

#[derive(Clone, Debug, PartialEq, Eq)]
struct Inner {
    offset: usize,
    kind: ProtobufErrorKind,
    /// Innermost first, pushed while unwinding.
    path: Vec<Segment>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Segment {
    Field(&'static str),
    Index(usize),
    Key(String),
}

impl ProtobufError {
    /// An error of `kind` at byte `offset`.
    pub fn new(offset: usize, kind: ProtobufErrorKind) -> Self {
        ProtobufError(Box::new(Inner {
            offset,
            kind,
            path: Vec::new(),
        }))
    }

    /// The byte offset in the input.
    pub fn offset(&self) -> usize {
        self.0.offset
    }

    /// What went wrong.
    pub fn kind(&self) -> &ProtobufErrorKind {
        &self.0.kind
    }

    /// The field path, such as `spec.template.spec.containers[0].name`.
    pub fn path(&self) -> String {
        let mut out = String::new();
        for segment in self.0.path.iter().rev() {
            match segment {
                Segment::Field(name) => {
                    if !out.is_empty() {
                        out.push('.');
                    }
                    out.push_str(name);
                }
                Segment::Index(i) => {
                    out.push('[');
                    out.push_str(&i.to_string());
                    out.push(']');
                }
                Segment::Key(key) => {
                    out.push('[');
                    out.push_str(key);
                    out.push(']');
                }
            }
        }
        out
    }

    /// This error, found inside the field `name` (generated decoders call it as the
    /// error travels out).
    pub fn in_field(mut self, name: &'static str) -> Self {
        self.0.path.push(Segment::Field(name));
        self
    }

    /// This error, found in element `index` of a repeated field.
    pub fn at_index(mut self, index: usize) -> Self {
        self.0.path.push(Segment::Index(index));
        self
    }

    /// This error, found under `key` of a map field.
    pub fn at_key(mut self, key: impl fmt::Display) -> Self {
        self.0.path.push(Segment::Key(key.to_string()));
        self
    }
}

impl fmt::Display for ProtobufError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "protobuf: {} at byte {}", self.0.kind, self.0.offset)?;
        if !self.0.path.is_empty() {
            write!(f, " in field {}", self.path())?;
        }
        Ok(())
    }
}

impl std::error::Error for ProtobufError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.0.kind)
    }
}

/// `result`, its error found inside the field `name` ([`ProtobufError::in_field`]): what
/// generated decoders call per field, one function for all of them instead of a closure
/// per field.
///
/// Out of line, on purpose: inlined (the error path kept cold), a Pod decodes 3-5% faster,
/// but k8s-types' IR grows by 24,000 lines (1.3%, measured with
/// `benchmarks/llvm_lines.sh`), one test and call per field of every message (issue 44).
pub fn in_field(
    result: Result<(), ProtobufError>,
    name: &'static str,
) -> Result<(), ProtobufError> {
    result.map_err(|e| e.in_field(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_path_reads_outermost_first() {
        let e = ProtobufError::new(42, ProtobufErrorKind::InvalidUtf8)
            .in_field("name")
            .at_index(1)
            .in_field("containers")
            .in_field("spec")
            .at_key("app")
            .in_field("labels");
        assert_eq!(e.path(), "labels[app].spec.containers[1].name");
        assert_eq!(
            e.to_string(),
            "protobuf: string is not valid UTF-8 at byte 42 in field labels[app].spec.containers[1].name"
        );
    }
}
