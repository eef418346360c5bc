//! The reader's errors: serde_json's messages and positions.

use std::fmt;

use serde::de::{Expected, Unexpected};

/// Why JSON text did not read as a type: serde_json's message, with the position in the
/// text (` at line L column C`) where serde_json gives one.
#[derive(Clone, PartialEq, Eq)]
pub struct Error {
    inner: Box<Inner>,
}

#[derive(Clone, PartialEq, Eq)]
struct Inner {
    code: Code,
    /// 1-based; 0 when the error has no position (a visitor's, not yet placed).
    line: usize,
    column: usize,
    /// True when the position came with a visitor's message (an inner serde_json error
    /// passed on), not from the reader.
    carried: bool,
}

/// What went wrong, with serde_json's wording.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Code {
    /// A visitor's message (`invalid type: ...`, `missing field ...`).
    Message(Box<str>),
    EofWhileParsingList,
    EofWhileParsingObject,
    EofWhileParsingString,
    EofWhileParsingValue,
    ExpectedColon,
    ExpectedListCommaOrEnd,
    ExpectedObjectCommaOrEnd,
    ExpectedSomeIdent,
    ExpectedSomeValue,
    ExpectedDoubleQuote,
    InvalidEscape,
    InvalidNumber,
    NumberOutOfRange,
    InvalidUnicodeCodePoint,
    ControlCharacterWhileParsingString,
    KeyMustBeAString,
    ExpectedNumericKey,
    LoneLeadingSurrogateInHexEscape,
    TrailingComma,
    TrailingCharacters,
    UnexpectedEndOfHexEscape,
    RecursionLimitExceeded,
}

/// The kind of failure, as serde_json's `Category`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Category {
    /// The text is not valid JSON.
    Syntax,
    /// The text ended early.
    Eof,
    /// Valid JSON that does not fit the type.
    Data,
}

impl Error {
    pub(crate) fn syntax(code: Code, line: usize, column: usize) -> Self {
        Error {
            inner: Box::new(Inner {
                code,
                line,
                column,
                carried: false,
            }),
        }
    }

    /// The same error at a position.
    pub(crate) fn at(mut self, line: usize, column: usize) -> Self {
        self.inner.line = line;
        self.inner.column = column;
        self
    }

    /// The line of the error (1-based); 0 when it has no position.
    pub fn line(&self) -> usize {
        self.inner.line
    }

    /// The column of the error (the byte offset in its line; 1-based as serde_json
    /// counts); 0 when it has no position.
    pub fn column(&self) -> usize {
        self.inner.column
    }

    /// Whether the text is not JSON, ended early, or does not fit the type.
    pub fn category(&self) -> Category {
        match self.inner.code {
            Code::Message(_) => Category::Data,
            Code::EofWhileParsingList
            | Code::EofWhileParsingObject
            | Code::EofWhileParsingString
            | Code::EofWhileParsingValue => Category::Eof,
            _ => Category::Syntax,
        }
    }

    /// The message without the reader's position (a position that came inside a
    /// visitor's message stays, as it would reading a `serde_json::Value`).
    pub fn message(&self) -> String {
        if self.inner.carried {
            self.to_string()
        } else {
            self.inner.code.to_string()
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Code::Message(m) => m,
            Code::EofWhileParsingList => "EOF while parsing a list",
            Code::EofWhileParsingObject => "EOF while parsing an object",
            Code::EofWhileParsingString => "EOF while parsing a string",
            Code::EofWhileParsingValue => "EOF while parsing a value",
            Code::ExpectedColon => "expected `:`",
            Code::ExpectedListCommaOrEnd => "expected `,` or `]`",
            Code::ExpectedObjectCommaOrEnd => "expected `,` or `}`",
            Code::ExpectedSomeIdent => "expected ident",
            Code::ExpectedSomeValue => "expected value",
            Code::ExpectedDoubleQuote => "expected `\"`",
            Code::InvalidEscape => "invalid escape",
            Code::InvalidNumber => "invalid number",
            Code::NumberOutOfRange => "number out of range",
            Code::InvalidUnicodeCodePoint => "invalid unicode code point",
            Code::ControlCharacterWhileParsingString => {
                "control character (\\u0000-\\u001F) found while parsing a string"
            }
            Code::KeyMustBeAString => "key must be a string",
            Code::ExpectedNumericKey => "invalid value: expected key to be a number in quotes",
            Code::LoneLeadingSurrogateInHexEscape => "lone leading surrogate in hex escape",
            Code::TrailingComma => "trailing comma",
            Code::TrailingCharacters => "trailing characters",
            Code::UnexpectedEndOfHexEscape => "unexpected end of hex escape",
            Code::RecursionLimitExceeded => "recursion limit exceeded",
        })
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.inner.line == 0 {
            fmt::Display::fmt(&self.inner.code, f)
        } else {
            write!(
                f,
                "{} at line {} column {}",
                self.inner.code, self.inner.line, self.inner.column
            )
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Error({:?}, line: {}, column: {})",
            self.inner.code.to_string(),
            self.inner.line,
            self.inner.column
        )
    }
}

impl std::error::Error for Error {}

impl serde::de::Error for Error {
    #[cold]
    fn custom<T: fmt::Display>(msg: T) -> Self {
        // A message that ends in a position (an inner serde_json error passed on) keeps
        // it as the error's position, as serde_json does.
        let mut msg = msg.to_string();
        let position = split_position(&mut msg);
        let (line, column) = position.unwrap_or((0, 0));
        let mut error = Error::syntax(Code::Message(msg.into_boxed_str()), line, column);
        error.inner.carried = position.is_some();
        error
    }

    #[cold]
    fn invalid_type(unexp: Unexpected<'_>, exp: &dyn Expected) -> Self {
        Self::custom(format_args!(
            "invalid type: {}, expected {}",
            JsonUnexpected(unexp),
            exp
        ))
    }

    #[cold]
    fn invalid_value(unexp: Unexpected<'_>, exp: &dyn Expected) -> Self {
        Self::custom(format_args!(
            "invalid value: {}, expected {}",
            JsonUnexpected(unexp),
            exp
        ))
    }
}

/// serde_json's wording of an unexpected value: `null`, and floats as it writes them.
struct JsonUnexpected<'a>(Unexpected<'a>);

impl fmt::Display for JsonUnexpected<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Unexpected::Unit => f.write_str("null"),
            Unexpected::Float(value) => match serde_json::Number::from_f64(value) {
                Some(n) => write!(f, "floating point `{n}`"),
                None => fmt::Display::fmt(&self.0, f),
            },
            other => fmt::Display::fmt(&other, f),
        }
    }
}

/// Takes a trailing ` at line L column C` off `msg`.
fn split_position(msg: &mut String) -> Option<(usize, usize)> {
    let start = msg.rfind(" at line ")?;
    let rest = &msg[start + " at line ".len()..];
    let line_len = rest.bytes().take_while(u8::is_ascii_digit).count();
    let after_line = rest[line_len..].strip_prefix(" column ")?;
    if after_line.is_empty() || !after_line.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let line = rest[..line_len].parse().ok()?;
    let column = after_line.parse().ok()?;
    msg.truncate(start);
    Some((line, column))
}

/// A failed read: the error, and the JSON path of the value it happened in
/// (`spec.containers[0].name`; empty for the document itself).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{error}", if path.is_empty() { String::new() } else { format!("{path}: ") })]
pub struct ReadError {
    /// The JSON path of the innermost value the error happened in.
    pub path: String,
    /// What went wrong, with its position.
    pub error: Error,
}
