//! The one JSON text reader every registered type is decoded with, two ways in: a serde
//! `Deserializer` over a byte slice that hands visitors exactly what `serde_json` hands
//! them ([`from_slice_tracking`]), and [`ReadJson`], the decode `#[derive(ApiType)]` and
//! `#[derive(ApiObject)]` generate and the scheme uses ([`read_slice_tracking`]). Both
//! name the JSON path of a failure (`spec.containers[0].name`), list on request the
//! fields a type has no place for, and watch the top-level `apiVersion` and `kind` go by.
//!
//! `k8s-types` registers a thousand types, and whatever the scheme's decode instantiates
//! per type is compiled there. Through serde that is each type's visitor and the
//! reader's generic methods for it; through [`ReadJson`] it is one function per struct
//! (a key lookup, and the struct's `ReadFields` reading the field at an index) called by the reader's
//! non-generic object, array and map loops, with the same values, errors and checks.
//! Strict decoding (unknown fields), decoding of parsed documents and
//! unstructured-to-typed conversion use the same reader (a parsed value is written back
//! to text first), so one pass over the text does what used to take a parse into a
//! `serde_json::Value` and a second decode.
//!
//! Behaviour follows `serde_json::from_slice` (with `float_roundtrip`): `u64` for
//! non-negative integers that fit, else `i64`, else a correctly rounded `f64`; borrowed
//! strings when there is no escape; its error messages, with ` at line L column C`; a
//! recursion limit of 128 nested arrays and objects; `RawValue`'s hand-over of a value's
//! text.
//!
//! ```
//! use apimachinery::runtime::json_reader::from_slice_tracking;
//!
//! #[derive(Debug, Default, serde::Deserialize)]
//! struct Port { port: i32 }
//! #[derive(Debug, Default, serde::Deserialize)]
//! struct Spec { ports: Vec<Port> }
//!
//! let read = from_slice_tracking::<Spec>(br#"{"ports": [{"port": 80, "x": 1}]}"#, true)?;
//! assert_eq!(read.value.ports[0].port, 80);
//! assert_eq!(read.unknown_fields, ["ports[0].x"]);
//!
//! let err = from_slice_tracking::<Spec>(br#"{"ports": [{"port": "http"}]}"#, false).unwrap_err();
//! assert_eq!(err.path, "ports[0].port");
//! assert_eq!(
//!     err.error.to_string(),
//!     r#"invalid type: string "http", expected i32 at line 1 column 26"#
//! );
//! # Ok::<(), apimachinery::runtime::json_reader::ReadError>(())
//! ```

use serde::de::value::BorrowedStrDeserializer;
use serde::de::{
    self, Deserialize, DeserializeSeed, Expected, MapAccess, SeqAccess, Unexpected, Visitor,
};

use crate::raw_json::SERDE_JSON_RAW_TOKEN;
use crate::text::text;

mod by_read_json;
mod error;
mod raw_keys;
mod read_json;
mod type_meta;

pub use by_read_json::deserialize_by_read_json;
use error::Code;
pub use error::{Category, Error, ReadError};
pub use read_json::{
    FieldType, ReadFieldBySerde, ReadFieldDirect, ReadFields, ReadJson, read_into,
    read_into_or_default, read_option_into,
};
pub(crate) use type_meta::SeenTypeMeta;
use type_meta::TypeMetaKey;

/// What [`from_slice_tracking`] read: the value, and the fields the type ignored.
#[derive(Debug)]
pub struct Read<'de, T> {
    /// The value read.
    pub value: T,
    /// The JSON paths of the fields the type has no place for, in document order, when
    /// asked for (empty otherwise).
    pub unknown_fields: Vec<String>,
    /// The top-level `apiVersion` and `kind` the read met.
    pub(crate) seen: SeenTypeMeta<'de>,
    /// With unknown-field tracking: true when the reader can vouch that no object in the
    /// document has a key twice (it compares the keys of the objects it walks, and gives
    /// up on escaped keys, large objects and objects inside skipped or raw values).
    pub(crate) no_duplicate_keys: bool,
}

/// Reads `data` as one JSON document of type `T`, trailing whitespace allowed and nothing
/// else, as `serde_json::from_slice` does.
///
/// ```
/// let n: Vec<u64> = apimachinery::runtime::json_reader::from_slice(b"[1, 2]")?;
/// assert_eq!(n, [1, 2]);
/// # Ok::<(), apimachinery::runtime::json_reader::Error>(())
/// ```
pub fn from_slice<'de, T: Deserialize<'de>>(data: &'de [u8]) -> Result<T, Error> {
    from_slice_tracking(data, false)
        .map(|read| read.value)
        .map_err(|e| e.error)
}

/// Reads `data` as one JSON document of type `T`, naming the path of a failure and, with
/// `track_unknown`, listing the paths of the fields `T` ignored.
pub fn from_slice_tracking<'de, T: Deserialize<'de>>(
    data: &'de [u8],
    track_unknown: bool,
) -> Result<Read<'de, T>, ReadError> {
    read_document(data, track_unknown, |value| T::deserialize(value))
}

/// Reads `data` as one JSON document of type `T` through its [`ReadJson`] (no serde
/// visitor involved), naming the path of a failure and, with `track_unknown`, listing
/// the paths of the fields `T` ignored: what [`from_slice_tracking`] does through serde.
///
/// ```
/// use apimachinery::apis::meta::v1::ObjectMeta;
/// use apimachinery::runtime::json_reader::read_slice_tracking;
///
/// let read = read_slice_tracking::<ObjectMeta>(br#"{"name": "a", "x": 1}"#, true)?;
/// assert_eq!((read.value.name.as_str(), read.unknown_fields), ("a", vec!["x".to_owned()]));
/// # Ok::<(), apimachinery::runtime::json_reader::ReadError>(())
/// ```
pub fn read_slice_tracking<T: ReadJson>(
    data: &[u8],
    track_unknown: bool,
) -> Result<Read<'_, T>, ReadError> {
    read_document(data, track_unknown, T::read_json)
}

/// How the scheme reads one registered type: its [`ReadJson`], boxed.
pub(crate) type ReadBoxedFn =
    for<'r, 'de, 'p> fn(ValueReader<'r, 'de, 'p>) -> Result<Box<dyn crate::runtime::Object>, Error>;

/// One whole document read as a boxed object by `read` (non-generic: the scheme's
/// decode of every type goes through this one copy).
#[inline(never)]
pub(crate) fn read_slice_with(
    data: &[u8],
    track_unknown: bool,
    read: ReadBoxedFn,
) -> Result<Read<'_, Box<dyn crate::runtime::Object>>, ReadError> {
    read_document(data, track_unknown, read)
}

/// One whole document read by `read`, then only whitespace.
fn read_document<'de, T>(
    data: &'de [u8],
    track_unknown: bool,
    read: impl FnOnce(ValueReader<'_, 'de, '_>) -> Result<T, Error>,
) -> Result<Read<'de, T>, ReadError> {
    let mut reader = Reader::new(data, track_unknown);
    let result = read(ValueReader {
        r: &mut reader,
        path: ROOT,
    });
    match result {
        Ok(value) => reader.finish().map(|facts| Read {
            value,
            unknown_fields: facts.unknown_fields,
            seen: facts.seen,
            no_duplicate_keys: facts.no_duplicate_keys,
        }),
        Err(error) => Err(reader.fail(error)),
    }
}

/// What a successful read found besides the value.
struct Facts<'de> {
    unknown_fields: Vec<String>,
    seen: SeenTypeMeta<'de>,
    no_duplicate_keys: bool,
}

/// The parser's state: the input, the cursor and what the read collects.
struct Reader<'de> {
    data: &'de [u8],
    index: usize,
    remaining_depth: u8,
    /// Set while a `f32` is read: it is rounded once, to single precision.
    single_precision: bool,
    scratch: Vec<u8>,
    track_unknown: bool,
    unknown: Vec<String>,
    /// The innermost path an error passed through: where it happened.
    error_path: Option<String>,
    seen: SeenTypeMeta<'de>,
    /// The key texts (byte ranges) of the objects being read, innermost last, while
    /// tracking: to tell whether a key repeats.
    keys: Vec<(usize, usize)>,
    duplicate_keys_possible: bool,
}

/// Objects with more keys than this are not checked for repeated keys (the check is
/// quadratic); the caller checks the document another way.
const DUPLICATE_CHECK_LIMIT: usize = 64;
const RECURSION_LIMIT: u8 = 128;

/// A number as serde_json hands it over.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Number {
    U64(u64),
    I64(i64),
    F64(f64),
}

impl Number {
    fn unexpected(self) -> Unexpected<'static> {
        match self {
            Number::U64(n) => Unexpected::Unsigned(n),
            Number::I64(n) => Unexpected::Signed(n),
            Number::F64(n) => Unexpected::Float(n),
        }
    }
}

/// A string read from the input: borrowed from it when it has no escape, else from the
/// reader's scratch space.
enum Text<'de, 's> {
    Borrowed(&'de str),
    Copied(&'s str),
}

/// A string's raw bytes (for `deserialize_bytes`).
enum Bytes<'de, 's> {
    Borrowed(&'de [u8]),
    Copied(&'s [u8]),
}

impl<'de> Reader<'de> {
    fn new(data: &'de [u8], track_unknown: bool) -> Self {
        Reader {
            data,
            index: 0,
            remaining_depth: RECURSION_LIMIT,
            single_precision: false,
            scratch: Vec::new(),
            track_unknown,
            unknown: Vec::new(),
            error_path: None,
            seen: SeenTypeMeta::default(),
            keys: Vec::new(),
            duplicate_keys_possible: false,
        }
    }

    /// After the value: only whitespace may follow.
    #[inline(never)]
    fn finish(mut self) -> Result<Facts<'de>, ReadError> {
        if let Err(error) = self.end() {
            return Err(self.fail(error));
        }
        Ok(Facts {
            no_duplicate_keys: self.track_unknown && !self.duplicate_keys_possible,
            unknown_fields: self.unknown,
            seen: self.seen,
        })
    }

    #[cold]
    #[inline(never)]
    fn fail(self, error: Error) -> ReadError {
        ReadError {
            path: self.error_path.unwrap_or_default(),
            error,
        }
    }

    /// Consumes a `null` at the cursor; false (nothing consumed) for any other value.
    #[inline(never)]
    fn take_null(&mut self) -> Result<bool, Error> {
        if self.parse_whitespace() != Some(b'n') {
            return Ok(false);
        }
        self.parse_literal(b'n').map(|()| true)
    }

    // ---- cursor ----

    #[inline]
    fn peek(&self) -> Option<u8> {
        self.data.get(self.index).copied()
    }

    #[inline]
    fn peek_or_null(&self) -> u8 {
        self.peek().unwrap_or(0)
    }

    #[inline]
    fn eat_char(&mut self) {
        self.index += 1;
    }

    #[inline]
    fn next_char(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.index += 1;
        Some(c)
    }

    /// The next byte that is not JSON whitespace, not consumed.
    #[inline]
    fn parse_whitespace(&mut self) -> Option<u8> {
        while let Some(c) = self.peek() {
            match c {
                b' ' | b'\t' | b'\r' => self.index += 1,
                b'\n' => self.skip_indentation(),
                _ => return Some(c),
            }
        }
        None
    }

    /// Past a newline and the spaces after it, eight at a time: pretty-printed JSON (Go's
    /// fixtures, `kubectl get -o json`, hand-written manifests) indents every line, and
    /// skipping that indentation a word rather than a byte at a time takes about 4% off the
    /// decode of Go's Pod fixture (callgrind). What is left of it (under eight spaces) the
    /// caller's loop skips.
    #[inline(never)]
    fn skip_indentation(&mut self) {
        const SPACES: [u8; 8] = [b' '; 8];
        self.index += 1;
        while let Some(Ok(word)) = self
            .data
            .get(self.index..self.index + 8)
            .map(<[u8; 8]>::try_from)
        {
            if word != SPACES {
                break;
            }
            self.index += 8;
        }
    }

    /// The first byte of the next value; EOF is an error.
    #[inline]
    fn peek_value(&mut self) -> Result<u8, Error> {
        match self.parse_whitespace() {
            Some(b) => Ok(b),
            None => Err(self.peek_error(Code::EofWhileParsingValue)),
        }
    }

    // ---- errors ----

    #[cold]
    #[inline(never)]
    fn position_of_index(&self, i: usize) -> (usize, usize) {
        let i = i.min(self.data.len());
        let before = &self.data[..i];
        let start_of_line = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
        let line = 1 + before[..start_of_line]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        (line, i - start_of_line)
    }

    /// An error caused by the byte just consumed.
    #[cold]
    #[inline(never)]
    fn error(&self, code: Code) -> Error {
        let (line, column) = self.position_of_index(self.index);
        Error::syntax(code, line, column)
    }

    /// An error caused by the byte not yet consumed.
    #[cold]
    #[inline(never)]
    fn peek_error(&self, code: Code) -> Error {
        let (line, column) = self.position_of_index(self.index + 1);
        Error::syntax(code, line, column)
    }

    /// Gives a visitor's error (which has no position) the current position.
    #[cold]
    #[inline(never)]
    fn fix_position(&self, err: Error) -> Error {
        if err.line() != 0 {
            return err;
        }
        let (line, column) = self.position_of_index(self.index);
        err.at(line, column)
    }

    /// serde_json's error for a value of the wrong JSON type: the value is read first,
    /// so that the message can quote it.
    #[cold]
    #[inline(never)]
    fn peek_invalid_type(&mut self, exp: &dyn Expected) -> Error {
        let err = match self.peek_or_null() {
            b'n' => {
                self.eat_char();
                if let Err(err) = self.parse_ident(b"ull") {
                    return err;
                }
                de::Error::invalid_type(Unexpected::Unit, exp)
            }
            b't' => {
                self.eat_char();
                if let Err(err) = self.parse_ident(b"rue") {
                    return err;
                }
                de::Error::invalid_type(Unexpected::Bool(true), exp)
            }
            b'f' => {
                self.eat_char();
                if let Err(err) = self.parse_ident(b"alse") {
                    return err;
                }
                de::Error::invalid_type(Unexpected::Bool(false), exp)
            }
            c @ (b'-' | b'0'..=b'9') => match self.parse_number(c) {
                Ok(n) => de::Error::invalid_type(n.unexpected(), exp),
                Err(err) => return err,
            },
            b'"' => match self.parse_str() {
                Ok(Text::Borrowed(s)) => de::Error::invalid_type(Unexpected::Str(s), exp),
                Ok(Text::Copied(s)) => de::Error::invalid_type(Unexpected::Str(s), exp),
                Err(err) => return err,
            },
            b'[' => de::Error::invalid_type(Unexpected::Seq, exp),
            b'{' => de::Error::invalid_type(Unexpected::Map, exp),
            _ => self.peek_error(Code::ExpectedSomeValue),
        };
        self.fix_position(err)
    }

    /// Remembers where an error happened, the first (innermost) time it passes by.
    #[cold]
    #[inline(never)]
    fn record_error_path(&mut self, path: &Path<'_>) {
        if self.error_path.is_none() {
            self.error_path = Some(self.render(path));
        }
    }

    #[cold]
    #[inline(never)]
    fn record_unknown(&mut self, path: &Path<'_>) {
        let rendered = self.render(path);
        self.unknown.push(rendered);
    }

    /// `spec.containers[0].name`, as Go's decoder names fields.
    fn render(&self, path: &Path<'_>) -> String {
        let mut segments = Vec::new();
        let mut at = Some(path);
        while let Some(p) = at {
            segments.push(p.segment);
            at = p.parent;
        }
        let mut out = String::new();
        for segment in segments.into_iter().rev() {
            match segment {
                Segment::Root => {}
                Segment::Index(i) => {
                    out.push('[');
                    out.push_str(&i.to_string());
                    out.push(']');
                }
                Segment::Key { text, at } => {
                    if !out.is_empty() {
                        out.push('.');
                    }
                    match text {
                        Some(text) => out.push_str(text),
                        None => out.push_str(&self.key_at(at)),
                    }
                }
            }
        }
        out
    }

    /// The key whose opening quote is at `at`, unescaped (for keys with escapes, which are
    /// not kept while reading).
    #[cold]
    fn key_at(&self, at: usize) -> String {
        let mut again = Reader::new(self.data, false);
        again.index = at;
        match again.parse_str() {
            Ok(Text::Borrowed(s)) => s.to_owned(),
            Ok(Text::Copied(s)) => s.to_owned(),
            Err(_) => String::from_utf8_lossy(&self.data[at..]).into_owned(),
        }
    }

    // ---- literals and structure ----

    fn parse_ident(&mut self, ident: &[u8]) -> Result<(), Error> {
        for expected in ident {
            match self.next_char() {
                None => return Err(self.error(Code::EofWhileParsingValue)),
                Some(next) if next != *expected => {
                    return Err(self.error(Code::ExpectedSomeIdent));
                }
                Some(_) => {}
            }
        }
        Ok(())
    }

    /// Consumes `null`, `true` or `false` whose first byte was peeked.
    #[inline(never)]
    fn parse_literal(&mut self, first: u8) -> Result<(), Error> {
        self.eat_char();
        match first {
            b'n' => self.parse_ident(b"ull"),
            b't' => self.parse_ident(b"rue"),
            _ => self.parse_ident(b"alse"),
        }
    }

    /// Enters an array or object whose opening byte was peeked.
    #[inline]
    fn enter(&mut self) -> Result<(), Error> {
        self.remaining_depth -= 1;
        if self.remaining_depth == 0 {
            return Err(self.peek_error(Code::RecursionLimitExceeded));
        }
        self.eat_char();
        Ok(())
    }

    #[inline]
    fn leave(&mut self) {
        self.remaining_depth += 1;
    }

    fn end(&mut self) -> Result<(), Error> {
        match self.parse_whitespace() {
            Some(_) => Err(self.peek_error(Code::TrailingCharacters)),
            None => Ok(()),
        }
    }

    #[inline(never)]
    fn end_seq(&mut self) -> Result<(), Error> {
        match self.parse_whitespace() {
            Some(b']') => {
                self.eat_char();
                Ok(())
            }
            Some(b',') => {
                self.eat_char();
                match self.parse_whitespace() {
                    Some(b']') => Err(self.peek_error(Code::TrailingComma)),
                    _ => Err(self.peek_error(Code::TrailingCharacters)),
                }
            }
            Some(_) => Err(self.peek_error(Code::TrailingCharacters)),
            None => Err(self.peek_error(Code::EofWhileParsingList)),
        }
    }

    #[inline(never)]
    fn end_map(&mut self) -> Result<(), Error> {
        match self.parse_whitespace() {
            Some(b'}') => {
                self.eat_char();
                Ok(())
            }
            Some(b',') => Err(self.peek_error(Code::TrailingComma)),
            Some(_) => Err(self.peek_error(Code::TrailingCharacters)),
            None => Err(self.peek_error(Code::EofWhileParsingObject)),
        }
    }

    /// Leaves an array (serde_json reads its end whether or not the visitor failed).
    #[inline(never)]
    fn close_seq(&mut self) -> Result<(), Error> {
        self.leave();
        self.end_seq()
    }

    /// Leaves an object, forgetting its keys.
    #[inline(never)]
    fn close_map(&mut self, keys_base: usize) -> Result<(), Error> {
        self.keys.truncate(keys_base);
        self.leave();
        self.end_map()
    }

    /// Whether an array has another element; consumes the comma before it.
    #[inline(never)]
    fn has_next_element(&mut self, first: &mut bool) -> Result<bool, Error> {
        let peek = match self.parse_whitespace() {
            Some(b) => b,
            None => return Err(self.peek_error(Code::EofWhileParsingList)),
        };
        if peek == b']' {
            Ok(false)
        } else if *first {
            *first = false;
            Ok(true)
        } else if peek == b',' {
            self.eat_char();
            match self.parse_whitespace() {
                Some(b']') => Err(self.peek_error(Code::TrailingComma)),
                Some(_) => Ok(true),
                None => Err(self.peek_error(Code::EofWhileParsingValue)),
            }
        } else {
            Err(self.peek_error(Code::ExpectedListCommaOrEnd))
        }
    }

    /// Whether an object has another entry; consumes the comma before it and leaves the
    /// cursor on the key's opening quote.
    #[inline(never)]
    fn has_next_key(&mut self, first: &mut bool) -> Result<bool, Error> {
        let peek = match self.parse_whitespace() {
            Some(b) => b,
            None => return Err(self.peek_error(Code::EofWhileParsingObject)),
        };
        if peek == b'}' {
            Ok(false)
        } else if *first {
            *first = false;
            if peek == b'"' {
                Ok(true)
            } else {
                Err(self.peek_error(Code::KeyMustBeAString))
            }
        } else if peek == b',' {
            self.eat_char();
            match self.parse_whitespace() {
                Some(b'"') => Ok(true),
                Some(b'}') => Err(self.peek_error(Code::TrailingComma)),
                Some(_) => Err(self.peek_error(Code::KeyMustBeAString)),
                None => Err(self.peek_error(Code::EofWhileParsingValue)),
            }
        } else {
            Err(self.peek_error(Code::ExpectedObjectCommaOrEnd))
        }
    }

    #[inline]
    fn parse_object_colon(&mut self) -> Result<(), Error> {
        match self.parse_whitespace() {
            Some(b':') => {
                self.eat_char();
                Ok(())
            }
            Some(_) => Err(self.peek_error(Code::ExpectedColon)),
            None => Err(self.peek_error(Code::EofWhileParsingObject)),
        }
    }

    // ---- strings ----

    /// Moves the cursor to the next `"`, `\` or control character (or the end).
    #[inline]
    fn skip_to_escape(&mut self) {
        let rest = &self.data[self.index..];
        // Eight bytes at a time: a byte below 0x20, a quote or a backslash stops the scan.
        const ONES: u64 = u64::MAX / 255;
        let mut chunks = rest.chunks_exact(8);
        let mut offset = 0;
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            let chars = u64::from_le_bytes(word);
            let ctrl = chars.wrapping_sub(ONES * 0x20) & !chars;
            let quote = chars ^ (ONES * u64::from(b'"'));
            let quote = quote.wrapping_sub(ONES) & !quote;
            let backslash = chars ^ (ONES * u64::from(b'\\'));
            let backslash = backslash.wrapping_sub(ONES) & !backslash;
            let masked = (ctrl | quote | backslash) & (ONES << 7);
            if masked != 0 {
                self.index += offset + masked.trailing_zeros() as usize / 8;
                return;
            }
            offset += 8;
        }
        self.index += offset;
        while let Some(&c) = self.data.get(self.index) {
            if c == b'"' || c == b'\\' || c < 0x20 {
                return;
            }
            self.index += 1;
        }
    }

    /// Reads a string whose opening quote is at the cursor, validated as serde_json
    /// validates strings it hands out as `str`.
    #[inline(never)]
    fn parse_str<'s>(&'s mut self) -> Result<Text<'de, 's>, Error> {
        self.eat_char();
        let start = self.index;
        self.skip_to_escape();
        if self.data.get(self.index) == Some(&b'"') {
            // No escape: a slice of the input.
            let bytes = &self.data[start..self.index];
            self.index += 1;
            return match text(bytes) {
                Some(s) => Ok(Text::Borrowed(s)),
                None => Err(self.invalid_utf8(bytes)),
            };
        }
        self.index = start;
        self.parse_str_slow(true)?;
        match text(&self.scratch) {
            Some(s) => Ok(Text::Copied(s)),
            None => Err(self.invalid_utf8(&self.scratch)),
        }
    }

    /// A string's bytes, unvalidated (control characters and lone surrogates allowed), as
    /// serde_json reads byte strings.
    #[inline(never)]
    fn parse_str_raw<'s>(&'s mut self) -> Result<Bytes<'de, 's>, Error> {
        self.eat_char();
        let start = self.index;
        let rest = &self.data[start..];
        let stop = rest
            .iter()
            .position(|&b| b == b'"' || b == b'\\')
            .unwrap_or(rest.len());
        if rest.get(stop) == Some(&b'"') {
            self.index = start + stop + 1;
            return Ok(Bytes::Borrowed(&rest[..stop]));
        }
        self.parse_str_slow(false)?;
        Ok(Bytes::Copied(&self.scratch))
    }

    /// The error for a string's `bytes` that are not UTF-8.
    #[cold]
    fn invalid_utf8(&self, bytes: &[u8]) -> Error {
        let valid_up_to = std::str::from_utf8(bytes)
            .err()
            .map_or(bytes.len(), |e| e.valid_up_to());
        // The cursor is past the closing quote; point at the first invalid byte.
        let (line, column) = self.position_of_index(self.index);
        Error::syntax(
            Code::InvalidUnicodeCodePoint,
            line,
            column.saturating_sub(bytes.len() - valid_up_to),
        )
    }

    /// A string with escapes, from the cursor (just past the opening quote) to its
    /// closing quote, unescaped into the scratch space.
    #[inline(never)]
    fn parse_str_slow(&mut self, validate: bool) -> Result<(), Error> {
        self.scratch.clear();
        let mut start = self.index;
        loop {
            if validate {
                self.skip_to_escape();
            } else {
                while let Some(&c) = self.data.get(self.index) {
                    if c == b'"' || c == b'\\' {
                        break;
                    }
                    self.index += 1;
                }
            }
            let Some(&c) = self.data.get(self.index) else {
                return Err(self.error(Code::EofWhileParsingString));
            };
            match c {
                b'"' => {
                    self.scratch
                        .extend_from_slice(&self.data[start..self.index]);
                    self.index += 1;
                    return Ok(());
                }
                b'\\' => {
                    self.scratch
                        .extend_from_slice(&self.data[start..self.index]);
                    self.index += 1;
                    self.parse_escape(validate)?;
                    start = self.index;
                }
                _ => {
                    self.index += 1;
                    return Err(self.error(Code::ControlCharacterWhileParsingString));
                }
            }
        }
    }

    fn next_or_eof(&mut self) -> Result<u8, Error> {
        match self.next_char() {
            Some(c) => Ok(c),
            None => Err(self.error(Code::EofWhileParsingString)),
        }
    }

    fn peek_or_eof(&self) -> Result<u8, Error> {
        match self.peek() {
            Some(c) => Ok(c),
            None => Err(self.error(Code::EofWhileParsingString)),
        }
    }

    fn parse_escape(&mut self, validate: bool) -> Result<(), Error> {
        let c = self.next_or_eof()?;
        let unescaped = match c {
            b'"' => b'"',
            b'\\' => b'\\',
            b'/' => b'/',
            b'b' => b'\x08',
            b'f' => b'\x0c',
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'u' => return self.parse_unicode_escape(validate),
            _ => return Err(self.error(Code::InvalidEscape)),
        };
        self.scratch.push(unescaped);
        Ok(())
    }

    fn decode_hex_escape(&mut self) -> Result<u16, Error> {
        let Some(digits) = self.data.get(self.index..self.index + 4) else {
            self.index = self.data.len();
            return Err(self.error(Code::EofWhileParsingString));
        };
        self.index += 4;
        let mut n: u16 = 0;
        for &d in digits {
            let v = match d {
                b'0'..=b'9' => d - b'0',
                b'a'..=b'f' => d - b'a' + 10,
                b'A'..=b'F' => d - b'A' + 10,
                _ => return Err(self.error(Code::InvalidEscape)),
            };
            n = (n << 4) | u16::from(v);
        }
        Ok(n)
    }

    fn parse_unicode_escape(&mut self, validate: bool) -> Result<(), Error> {
        let mut n = self.decode_hex_escape()?;
        if validate && (0xDC00..=0xDFFF).contains(&n) {
            return Err(self.error(Code::LoneLeadingSurrogateInHexEscape));
        }
        loop {
            if !(0xD800..=0xDBFF).contains(&n) {
                push_wtf8(u32::from(n), &mut self.scratch);
                return Ok(());
            }
            let n1 = n;
            if self.peek_or_eof()? == b'\\' {
                self.eat_char();
            } else if validate {
                self.eat_char();
                return Err(self.error(Code::UnexpectedEndOfHexEscape));
            } else {
                push_wtf8(u32::from(n1), &mut self.scratch);
                return Ok(());
            }
            if self.peek_or_eof()? == b'u' {
                self.eat_char();
            } else if validate {
                self.eat_char();
                return Err(self.error(Code::UnexpectedEndOfHexEscape));
            } else {
                push_wtf8(u32::from(n1), &mut self.scratch);
                return self.parse_escape(validate);
            }
            let n2 = self.decode_hex_escape()?;
            if !(0xDC00..=0xDFFF).contains(&n2) {
                if validate {
                    return Err(self.error(Code::LoneLeadingSurrogateInHexEscape));
                }
                push_wtf8(u32::from(n1), &mut self.scratch);
                n = n2;
                continue;
            }
            let c = ((u32::from(n1 - 0xD800) << 10) | u32::from(n2 - 0xDC00)) + 0x1_0000;
            push_wtf8(c, &mut self.scratch);
            return Ok(());
        }
    }

    /// Skips a string whose opening quote is at the cursor, checking escapes but not
    /// UTF-8 (serde_json's `ignore_str`).
    fn ignore_str(&mut self) -> Result<(), Error> {
        self.eat_char();
        loop {
            self.skip_to_escape();
            let Some(&c) = self.data.get(self.index) else {
                return Err(self.error(Code::EofWhileParsingString));
            };
            match c {
                b'"' => {
                    self.index += 1;
                    return Ok(());
                }
                b'\\' => {
                    self.index += 1;
                    match self.next_or_eof()? {
                        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => {}
                        b'u' => {
                            self.decode_hex_escape()?;
                        }
                        _ => return Err(self.error(Code::InvalidEscape)),
                    }
                }
                _ => return Err(self.error(Code::ControlCharacterWhileParsingString)),
            }
        }
    }

    // ---- numbers ----

    /// Reads a number whose first byte (`-` or a digit) was peeked.
    #[inline(never)]
    fn parse_number(&mut self, first: u8) -> Result<Number, Error> {
        let start = self.index;
        let positive = first != b'-';
        if !positive {
            self.eat_char();
        }
        let Some(c) = self.next_char() else {
            return Err(self.error(Code::EofWhileParsingValue));
        };
        let mut significand: u64 = match c {
            b'0' => {
                if self.peek_or_null().is_ascii_digit() {
                    return Err(self.peek_error(Code::InvalidNumber));
                }
                0
            }
            b'1'..=b'9' => u64::from(c - b'0'),
            _ => return Err(self.error(Code::InvalidNumber)),
        };
        if c != b'0' {
            while let c @ b'0'..=b'9' = self.peek_or_null() {
                let digit = u64::from(c - b'0');
                match significand
                    .checked_mul(10)
                    .and_then(|s| s.checked_add(digit))
                {
                    Some(s) => significand = s,
                    // Too long for a u64: a float.
                    None => return self.parse_float(start, positive, true),
                }
                self.eat_char();
            }
        }
        match self.peek_or_null() {
            b'.' | b'e' | b'E' => self.parse_float(start, positive, significand != 0),
            _ if positive => Ok(Number::U64(significand)),
            _ => {
                let neg = (significand as i64).wrapping_neg();
                // Below i64::MIN, or `-0`: a float.
                if neg >= 0 {
                    Ok(Number::F64(-(significand as f64)))
                } else {
                    Ok(Number::I64(neg))
                }
            }
        }
    }

    /// The rest of a float from the cursor (digits of a long integer, a fraction, an
    /// exponent), then the whole number's text from `start` parsed with correct
    /// rounding (what serde_json's `float_roundtrip` gives).
    #[inline(never)]
    fn parse_float(
        &mut self,
        start: usize,
        positive: bool,
        mut nonzero: bool,
    ) -> Result<Number, Error> {
        while let c @ b'0'..=b'9' = self.peek_or_null() {
            nonzero |= c != b'0';
            self.eat_char();
        }
        if self.peek_or_null() == b'.' {
            self.eat_char();
            let mut digits = false;
            while let c @ b'0'..=b'9' = self.peek_or_null() {
                nonzero |= c != b'0';
                digits = true;
                self.eat_char();
            }
            if !digits {
                return Err(match self.peek() {
                    Some(_) => self.peek_error(Code::InvalidNumber),
                    None => self.peek_error(Code::EofWhileParsingValue),
                });
            }
        }
        if let b'e' | b'E' = self.peek_or_null() {
            self.eat_char();
            let positive_exp = match self.peek_or_null() {
                b'+' => {
                    self.eat_char();
                    true
                }
                b'-' => {
                    self.eat_char();
                    false
                }
                _ => true,
            };
            let mut exp: i32 = match self.next_char() {
                None => return Err(self.error(Code::EofWhileParsingValue)),
                Some(c @ b'0'..=b'9') => i32::from(c - b'0'),
                Some(_) => return Err(self.error(Code::InvalidNumber)),
            };
            while let c @ b'0'..=b'9' = self.peek_or_null() {
                self.eat_char();
                match exp
                    .checked_mul(10)
                    .and_then(|e| e.checked_add(i32::from(c - b'0')))
                {
                    Some(e) => exp = e,
                    None => {
                        // serde_json stops at the digit that overflows an i32.
                        if nonzero && positive_exp {
                            return Err(self.error(Code::NumberOutOfRange));
                        }
                        while self.peek_or_null().is_ascii_digit() {
                            self.eat_char();
                        }
                        return Ok(Number::F64(if positive { 0.0 } else { -0.0 }));
                    }
                }
            }
        }
        // The text is ASCII digits, signs, `.` and `e` by construction.
        let text = std::str::from_utf8(&self.data[start..self.index]).unwrap_or("");
        let f = if self.single_precision {
            text.parse::<f32>().map(f64::from)
        } else {
            text.parse::<f64>()
        };
        match f {
            Ok(f) if f.is_finite() => Ok(Number::F64(f)),
            _ => Err(self.error(Code::NumberOutOfRange)),
        }
    }

    /// serde_json's `i128`/`u128` reading: an integer, no fraction or exponent.
    #[inline(never)]
    fn parse_integer128(&mut self, signed: bool) -> Result<String, Error> {
        let mut buf = String::new();
        match self.parse_whitespace() {
            Some(b'-') if signed => {
                self.eat_char();
                buf.push('-');
            }
            Some(b'-') => return Err(self.peek_error(Code::NumberOutOfRange)),
            Some(_) => {}
            None => return Err(self.peek_error(Code::EofWhileParsingValue)),
        }
        match self.next_char().unwrap_or(0) {
            b'0' => {
                buf.push('0');
                if self.peek_or_null().is_ascii_digit() {
                    return Err(self.peek_error(Code::InvalidNumber));
                }
            }
            c @ b'1'..=b'9' => {
                buf.push(char::from(c));
                while let c @ b'0'..=b'9' = self.peek_or_null() {
                    self.eat_char();
                    buf.push(char::from(c));
                }
            }
            _ => return Err(self.error(Code::InvalidNumber)),
        }
        Ok(buf)
    }

    // ---- skipping ----

    /// Skips one value (serde_json's `ignore_value`): no recursion, so any depth is fine.
    #[inline(never)]
    fn ignore_value(&mut self) -> Result<(), Error> {
        let mut stack: Vec<u8> = Vec::new();
        let mut enclosing: Option<u8> = None;
        loop {
            let peek = match self.parse_whitespace() {
                Some(b) => b,
                None => return Err(self.peek_error(Code::EofWhileParsingValue)),
            };
            let frame = match peek {
                b'n' | b't' | b'f' => {
                    self.parse_literal(peek)?;
                    None
                }
                b'-' | b'0'..=b'9' => {
                    self.ignore_number(peek)?;
                    None
                }
                b'"' => {
                    self.ignore_str()?;
                    None
                }
                frame @ (b'[' | b'{') => {
                    stack.extend(enclosing.take());
                    self.eat_char();
                    Some(frame)
                }
                _ => return Err(self.peek_error(Code::ExpectedSomeValue)),
            };
            let (mut accept_comma, mut frame) = match frame {
                Some(frame) => (false, frame),
                None => match enclosing.take().or_else(|| stack.pop()) {
                    Some(frame) => (true, frame),
                    None => return Ok(()),
                },
            };
            loop {
                match self.parse_whitespace() {
                    Some(b',') if accept_comma => {
                        self.eat_char();
                        break;
                    }
                    Some(b']') if frame == b'[' => {}
                    Some(b'}') if frame == b'{' => {}
                    Some(_) => {
                        if accept_comma {
                            return Err(self.peek_error(if frame == b'[' {
                                Code::ExpectedListCommaOrEnd
                            } else {
                                Code::ExpectedObjectCommaOrEnd
                            }));
                        }
                        break;
                    }
                    None => {
                        return Err(self.peek_error(if frame == b'[' {
                            Code::EofWhileParsingList
                        } else {
                            Code::EofWhileParsingObject
                        }));
                    }
                }
                self.eat_char();
                frame = match stack.pop() {
                    Some(frame) => frame,
                    None => return Ok(()),
                };
                accept_comma = true;
            }
            if frame == b'{' {
                match self.parse_whitespace() {
                    Some(b'"') => {}
                    Some(_) => return Err(self.peek_error(Code::KeyMustBeAString)),
                    None => return Err(self.peek_error(Code::EofWhileParsingObject)),
                }
                self.ignore_str()?;
                match self.parse_whitespace() {
                    Some(b':') => self.eat_char(),
                    Some(_) => return Err(self.peek_error(Code::ExpectedColon)),
                    None => return Err(self.peek_error(Code::EofWhileParsingObject)),
                }
            }
            enclosing = Some(frame);
        }
    }

    /// serde_json's `ignore_integer` and what follows: the grammar only, no value.
    fn ignore_number(&mut self, first: u8) -> Result<(), Error> {
        if first == b'-' {
            self.eat_char();
        }
        match self.next_char().unwrap_or(0) {
            b'0' => {
                if self.peek_or_null().is_ascii_digit() {
                    return Err(self.peek_error(Code::InvalidNumber));
                }
            }
            b'1'..=b'9' => {
                while self.peek_or_null().is_ascii_digit() {
                    self.eat_char();
                }
            }
            _ => return Err(self.error(Code::InvalidNumber)),
        }
        if self.peek_or_null() == b'.' {
            self.eat_char();
            let mut digits = false;
            while self.peek_or_null().is_ascii_digit() {
                self.eat_char();
                digits = true;
            }
            if !digits {
                return Err(self.peek_error(Code::InvalidNumber));
            }
        }
        if let b'e' | b'E' = self.peek_or_null() {
            self.eat_char();
            if let b'+' | b'-' = self.peek_or_null() {
                self.eat_char();
            }
            if !self.next_char().unwrap_or(0).is_ascii_digit() {
                return Err(self.error(Code::InvalidNumber));
            }
            while self.peek_or_null().is_ascii_digit() {
                self.eat_char();
            }
        }
        Ok(())
    }

    /// The text of the value at the cursor, for a `RawValue`.
    #[inline(never)]
    fn raw_value(&mut self) -> Result<&'de str, Error> {
        self.parse_whitespace();
        let start = self.index;
        self.ignore_value()?;
        // A raw value whose keys are distinct needs no second read of the document.
        if self.track_unknown
            && !raw_keys::keys_are_distinct(&self.data[start..self.index], DUPLICATE_CHECK_LIMIT)
        {
            self.skipped_from(start);
        }
        let raw = &self.data[start..self.index];
        std::str::from_utf8(raw).map_err(|e| {
            let (line, column) = self.position_of_index(start + e.valid_up_to() + 1);
            Error::syntax(Code::InvalidUnicodeCodePoint, line, column)
        })
    }

    // ---- repeated keys ----

    /// Notes the key just read (its quote at `at`, the cursor past its closing quote) in
    /// the object whose keys start at `base`, and whether it repeats one of them.
    #[inline(never)]
    fn check_key(&mut self, base: usize, at: usize, escaped: bool) {
        if self.duplicate_keys_possible {
            return;
        }
        let range = (at + 1, self.index.saturating_sub(1));
        let key = &self.data[range.0..range.1.max(range.0)];
        let earlier = &self.keys[base.min(self.keys.len())..];
        if escaped
            || earlier.len() >= DUPLICATE_CHECK_LIMIT
            || earlier.iter().any(|&(s, e)| &self.data[s..e.max(s)] == key)
        {
            self.duplicate_keys_possible = true;
            return;
        }
        self.keys.push(range);
    }

    /// A skipped or raw value is not walked: an object inside may repeat a key.
    #[inline]
    fn skipped_from(&mut self, start: usize) {
        if self.track_unknown && self.data[start..self.index].contains(&b'{') {
            self.duplicate_keys_possible = true;
        }
    }

    // ---- the top-level type meta ----

    /// Which type-meta key a top-level key is, and records an escaped one as
    /// unverifiable.
    #[inline(never)]
    fn top_level_key(&mut self, text: Option<&str>, at: usize) -> Option<TypeMetaKey> {
        match text {
            Some(text) => TypeMetaKey::of(text),
            None => {
                let key = TypeMetaKey::of(&self.key_at(at))?;
                self.seen.mark_unverifiable(key);
                None
            }
        }
    }

    /// Looks at the value of a top-level `apiVersion` or `kind` without consuming it.
    #[inline(never)]
    fn tap_type_meta(&mut self, key: TypeMetaKey) {
        let start = self.index;
        match self.parse_whitespace() {
            Some(b'"') => match self.parse_str() {
                Ok(Text::Borrowed(s)) => self.seen.record(key, Some(s)),
                _ => self.seen.mark_unverifiable(key),
            },
            Some(b'n') if self.parse_literal(b'n').is_ok() => self.seen.record(key, None),
            // Anything else fails the type's read of it, or is not what the meta
            // factory would read.
            _ => self.seen.mark_unverifiable(key),
        }
        self.index = start;
    }
}

/// Appends a code point as UTF-8 (WTF-8 for the lone surrogates byte strings allow).
fn push_wtf8(n: u32, out: &mut Vec<u8>) {
    match char::from_u32(n) {
        Some(c) => {
            let mut buf = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        }
        // A surrogate: three bytes, as WTF-8 writes it.
        None => out.extend_from_slice(&[
            0xE0 | (n >> 12) as u8,
            0x80 | ((n >> 6) & 0x3F) as u8,
            0x80 | (n & 0x3F) as u8,
        ]),
    }
}

#[derive(Clone, Copy)]
enum Segment<'a> {
    Root,
    /// An object key: its text when it had no escape, and where its quote is.
    Key {
        text: Option<&'a str>,
        at: usize,
    },
    Index(usize),
}

/// Where a value is, as a chain of parents on the stack: nothing is allocated unless a
/// path is reported.
#[derive(Clone, Copy)]
struct Path<'a> {
    segment: Segment<'a>,
    parent: Option<&'a Path<'a>>,
}

const ROOT: Path<'static> = Path {
    segment: Segment::Root,
    parent: None,
};

/// The reader at one JSON value, with the path that leads to it: a serde `Deserializer`
/// of that value, and what every [`ReadJson`] implementation reads from.
pub struct ValueReader<'r, 'de, 'p> {
    r: &'r mut Reader<'de>,
    path: Path<'p>,
}

impl<'de> ValueReader<'_, 'de, '_> {
    fn deserialize_number<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let peek = self.r.peek_value()?;
        let value = match peek {
            b'-' | b'0'..=b'9' => match self.r.parse_number(peek)? {
                Number::U64(n) => visitor.visit_u64(n),
                Number::I64(n) => visitor.visit_i64(n),
                Number::F64(n) => visitor.visit_f64(n),
            },
            _ => Err(self.r.peek_invalid_type(&visitor)),
        };
        value.map_err(|e| self.r.fix_position(e))
    }

    // The generic parts below are only the visitor calls: opening and closing the array or
    // object is non-generic code, compiled once (the steps per key and element are
    // `#[inline]`: compiled once in debug builds, inlined where it pays in release).

    fn read_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let seq = SeqReader::open(&mut *self.r, &self.path)?;
        let ret = visitor.visit_seq(seq);
        // The end is read even after a failure, as serde_json reads it.
        let end = self.r.close_seq();
        if let Err(err) = end {
            return match ret {
                Ok(_) => Err(err),
                Err(first) => Err(first),
            };
        }
        ret
    }

    fn read_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let map = MapReader::open(&mut *self.r, &self.path)?;
        let keys_base = map.keys_base;
        let ret = visitor.visit_map(map);
        // The end is read even after a failure, as serde_json reads it.
        let end = self.r.close_map(keys_base);
        if let Err(err) = end {
            return match ret {
                Ok(_) => Err(err),
                Err(first) => Err(first),
            };
        }
        ret
    }
}

impl<'de> de::Deserializer<'de> for ValueReader<'_, 'de, '_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let peek = self.r.peek_value()?;
        let value = match peek {
            b'n' => {
                self.r.parse_literal(peek)?;
                visitor.visit_unit()
            }
            b't' | b'f' => {
                self.r.parse_literal(peek)?;
                visitor.visit_bool(peek == b't')
            }
            b'-' | b'0'..=b'9' => match self.r.parse_number(peek)? {
                Number::U64(n) => visitor.visit_u64(n),
                Number::I64(n) => visitor.visit_i64(n),
                Number::F64(n) => visitor.visit_f64(n),
            },
            b'"' => match self.r.parse_str()? {
                Text::Borrowed(s) => visitor.visit_borrowed_str(s),
                Text::Copied(s) => visitor.visit_str(s),
            },
            b'[' => ValueReader {
                r: &mut *self.r,
                path: self.path,
            }
            .read_seq(visitor),
            b'{' => ValueReader {
                r: &mut *self.r,
                path: self.path,
            }
            .read_map(visitor),
            _ => Err(self.r.peek_error(Code::ExpectedSomeValue)),
        };
        value.map_err(|e| self.r.fix_position(e))
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let peek = self.r.peek_value()?;
        let value = match peek {
            b't' | b'f' => {
                self.r.parse_literal(peek)?;
                visitor.visit_bool(peek == b't')
            }
            _ => Err(self.r.peek_invalid_type(&visitor)),
        };
        value.map_err(|e| self.r.fix_position(e))
    }

    fn deserialize_i8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_number(visitor)
    }
    fn deserialize_i16<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_number(visitor)
    }
    fn deserialize_i32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_number(visitor)
    }
    fn deserialize_i64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_number(visitor)
    }
    fn deserialize_u8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_number(visitor)
    }
    fn deserialize_u16<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_number(visitor)
    }
    fn deserialize_u32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_number(visitor)
    }
    fn deserialize_u64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_number(visitor)
    }
    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_number(visitor)
    }

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.r.single_precision = true;
        let reader = ValueReader {
            r: &mut *self.r,
            path: self.path,
        };
        let value = reader.deserialize_number(visitor);
        self.r.single_precision = false;
        value
    }

    fn deserialize_i128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let text = self.r.parse_integer128(true)?;
        let value = match text.parse() {
            Ok(n) => visitor.visit_i128(n),
            Err(_) => return Err(self.r.error(Code::NumberOutOfRange)),
        };
        value.map_err(|e| self.r.fix_position(e))
    }

    fn deserialize_u128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let text = self.r.parse_integer128(false)?;
        let value = match text.parse() {
            Ok(n) => visitor.visit_u128(n),
            Err(_) => return Err(self.r.error(Code::NumberOutOfRange)),
        };
        value.map_err(|e| self.r.fix_position(e))
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let peek = self.r.peek_value()?;
        let value = match peek {
            b'"' => match self.r.parse_str()? {
                Text::Borrowed(s) => visitor.visit_borrowed_str(s),
                Text::Copied(s) => visitor.visit_str(s),
            },
            _ => Err(self.r.peek_invalid_type(&visitor)),
        };
        value.map_err(|e| self.r.fix_position(e))
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let peek = self.r.peek_value()?;
        let value = match peek {
            b'"' => match self.r.parse_str_raw()? {
                Bytes::Borrowed(b) => visitor.visit_borrowed_bytes(b),
                Bytes::Copied(b) => visitor.visit_bytes(b),
            },
            b'[' => ValueReader {
                r: &mut *self.r,
                path: self.path,
            }
            .deserialize_seq(visitor),
            _ => Err(self.r.peek_invalid_type(&visitor)),
        };
        value.map_err(|e| self.r.fix_position(e))
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_bytes(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        if self.r.take_null()? {
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let peek = self.r.peek_value()?;
        let value = match peek {
            b'n' => {
                self.r.parse_literal(peek)?;
                visitor.visit_unit()
            }
            _ => Err(self.r.peek_invalid_type(&visitor)),
        };
        value.map_err(|e| self.r.fix_position(e))
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        if name == SERDE_JSON_RAW_TOKEN {
            let raw = self.r.raw_value()?;
            return visitor.visit_map(RawText(Some(raw)));
        }
        // A derived type's `Deserialize`: read by its `ReadJson`, from here.
        if name == by_read_json::READ_JSON_TOKEN
            && let Some(read) = by_read_json::take_pending_read()
        {
            by_read_json::keep_read_value(read(self)?);
            return visitor.visit_unit();
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let peek = self.r.peek_value()?;
        let value = match peek {
            b'[' => ValueReader {
                r: &mut *self.r,
                path: self.path,
            }
            .read_seq(visitor),
            _ => Err(self.r.peek_invalid_type(&visitor)),
        };
        value.map_err(|e| self.r.fix_position(e))
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let peek = self.r.peek_value()?;
        let value = match peek {
            b'{' => ValueReader {
                r: &mut *self.r,
                path: self.path,
            }
            .read_map(visitor),
            _ => Err(self.r.peek_invalid_type(&visitor)),
        };
        value.map_err(|e| self.r.fix_position(e))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        let peek = self.r.peek_value()?;
        let value = match peek {
            b'{' => ValueReader {
                r: &mut *self.r,
                path: self.path,
            }
            .read_map(visitor),
            b'[' => ValueReader {
                r: &mut *self.r,
                path: self.path,
            }
            .read_seq(visitor),
            _ => Err(self.r.peek_invalid_type(&visitor)),
        };
        value.map_err(|e| self.r.fix_position(e))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.r.parse_whitespace() {
            Some(b'{') => {
                self.r.enter()?;
                let ret = visitor.visit_enum(VariantReader {
                    r: &mut *self.r,
                    path: &self.path,
                });
                self.r.leave();
                let value = ret?;
                match self.r.parse_whitespace() {
                    Some(b'}') => {
                        self.r.eat_char();
                        Ok(value)
                    }
                    Some(_) => Err(self.r.error(Code::ExpectedSomeValue)),
                    None => Err(self.r.error(Code::EofWhileParsingObject)),
                }
            }
            Some(b'"') => visitor.visit_enum(UnitVariantReader {
                r: &mut *self.r,
                path: self.path,
            }),
            Some(_) => Err(self.r.peek_error(Code::ExpectedSomeValue)),
            None => Err(self.r.peek_error(Code::EofWhileParsingValue)),
        }
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let start = self.r.index;
        self.r.ignore_value()?;
        if self.r.track_unknown {
            self.r.skipped_from(start);
            self.r.record_unknown(&self.path);
        }
        visitor.visit_unit()
    }
}

struct SeqReader<'r, 'de, 'p> {
    r: &'r mut Reader<'de>,
    path: &'p Path<'p>,
    first: bool,
    index: usize,
}

impl<'r, 'de, 'p> SeqReader<'r, 'de, 'p> {
    /// Enters the array whose `[` is at the cursor.
    #[inline(never)]
    fn open(r: &'r mut Reader<'de>, path: &'p Path<'p>) -> Result<Self, Error> {
        r.enter()?;
        Ok(SeqReader {
            r,
            path,
            first: true,
            index: 0,
        })
    }

    /// Moves to the next element; its path when there is one.
    #[inline]
    fn next_path(&mut self) -> Result<Option<Path<'p>>, Error> {
        if !self.r.has_next_element(&mut self.first)? {
            return Ok(None);
        }
        let path = Path {
            segment: Segment::Index(self.index),
            parent: Some(self.path),
        };
        self.index += 1;
        Ok(Some(path))
    }
}

impl<'de> SeqAccess<'de> for SeqReader<'_, 'de, '_> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        let Some(path) = self.next_path()? else {
            return Ok(None);
        };
        let result = seed.deserialize(ValueReader {
            r: &mut *self.r,
            path,
        });
        if result.is_err() {
            self.r.record_error_path(&path);
        }
        result.map(Some)
    }
}

struct MapReader<'r, 'de, 'p> {
    r: &'r mut Reader<'de>,
    path: &'p Path<'p>,
    first: bool,
    /// The last key read, when it had no escape.
    key_text: Option<&'de str>,
    /// Where the last key's opening quote is.
    key_at: usize,
    /// True for the document's top-level object, whose type meta is watched.
    top: bool,
    /// The type-meta key whose value comes next (top level only).
    type_meta: Option<TypeMetaKey>,
    /// Where this object's keys start in the reader's key list.
    keys_base: usize,
}

impl<'r, 'de: 'p, 'p> MapReader<'r, 'de, 'p> {
    /// Enters the object whose `{` is at the cursor.
    #[inline(never)]
    fn open(r: &'r mut Reader<'de>, path: &'p Path<'p>) -> Result<Self, Error> {
        r.enter()?;
        let top = matches!(path.segment, Segment::Root);
        if top {
            r.seen.tapped = true;
        }
        let keys_base = r.keys.len();
        Ok(MapReader {
            r,
            path,
            first: true,
            key_text: None,
            key_at: 0,
            top,
            type_meta: None,
            keys_base,
        })
    }

    /// Moves to the next key; false at the end of the object.
    #[inline]
    fn next_key(&mut self) -> Result<bool, Error> {
        if !self.r.has_next_key(&mut self.first)? {
            return Ok(false);
        }
        self.key_at = self.r.index;
        self.key_text = None;
        Ok(true)
    }

    /// What is done with a key once read: the top level's type meta, repeated keys.
    #[inline(never)]
    fn key_read(&mut self) {
        if self.top {
            self.type_meta = self.r.top_level_key(self.key_text, self.key_at);
        }
        if self.r.track_unknown {
            self.r
                .check_key(self.keys_base, self.key_at, self.key_text.is_none());
        }
    }

    /// Moves past the colon to the value; its path.
    #[inline]
    fn value_path(&mut self) -> Result<Path<'p>, Error> {
        self.r.parse_object_colon()?;
        if let Some(key) = self.type_meta.take() {
            self.r.tap_type_meta(key);
        }
        Ok(Path {
            segment: Segment::Key {
                text: self.key_text,
                at: self.key_at,
            },
            parent: Some(self.path),
        })
    }
}

impl<'de: 'p, 'p> MapAccess<'de> for MapReader<'_, 'de, 'p> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        if !self.next_key()? {
            return Ok(None);
        }
        let key = seed.deserialize(KeyReader {
            r: &mut *self.r,
            text: &mut self.key_text,
        })?;
        if self.top || self.r.track_unknown {
            self.key_read();
        }
        Ok(Some(key))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let path = self.value_path()?;
        let result = seed.deserialize(ValueReader {
            r: &mut *self.r,
            path,
        });
        if result.is_err() {
            self.r.record_error_path(&path);
        }
        result
    }
}

/// The deserializer of an object key, the cursor on its opening quote (serde_json's
/// `MapKey`): a string, or a number or bool written as one.
struct KeyReader<'r, 'de, 'k> {
    r: &'r mut Reader<'de>,
    /// Where the key's text goes when it is borrowed from the input.
    text: &'k mut Option<&'de str>,
}

impl<'de> KeyReader<'_, 'de, '_> {
    fn deserialize_number<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.r.eat_char();
        let value = match self.r.peek() {
            Some(c @ (b'0'..=b'9' | b'-')) => match self.r.parse_number(c)? {
                Number::U64(n) => visitor.visit_u64(n),
                Number::I64(n) => visitor.visit_i64(n),
                Number::F64(n) => visitor.visit_f64(n),
            },
            _ => return Err(self.r.error(Code::ExpectedNumericKey)),
        };
        let value = value.map_err(|e| self.r.fix_position(e))?;
        match self.r.peek() {
            Some(b'"') => self.r.eat_char(),
            _ => return Err(self.r.peek_error(Code::ExpectedDoubleQuote)),
        }
        Ok(value)
    }
}

impl<'de> de::Deserializer<'de> for KeyReader<'_, 'de, '_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.r.parse_str()? {
            Text::Borrowed(s) => {
                *self.text = Some(s);
                visitor.visit_borrowed_str(s)
            }
            Text::Copied(s) => visitor.visit_str(s),
        }
    }

    fn deserialize_i8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_number(visitor)
    }
    fn deserialize_i16<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_number(visitor)
    }
    fn deserialize_i32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_number(visitor)
    }
    fn deserialize_i64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_number(visitor)
    }
    fn deserialize_u8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_number(visitor)
    }
    fn deserialize_u16<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_number(visitor)
    }
    fn deserialize_u32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_number(visitor)
    }
    fn deserialize_u64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_number(visitor)
    }
    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.r.single_precision = true;
        let value = KeyReader {
            r: &mut *self.r,
            text: self.text,
        }
        .deserialize_number(visitor);
        self.r.single_precision = false;
        value
    }
    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_number(visitor)
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.r.eat_char();
        let value = match self.r.next_char() {
            None => return Err(self.r.peek_error(Code::EofWhileParsingValue)),
            Some(b't') => {
                self.r.parse_ident(b"rue\"")?;
                visitor.visit_bool(true)
            }
            Some(b'f') => {
                self.r.parse_ident(b"alse\"")?;
                visitor.visit_bool(false)
            }
            Some(_) => {
                // serde_json quotes the key from its second character on: the first
                // is consumed already.
                self.r.index -= 1;
                let err = match self.r.parse_str()? {
                    Text::Borrowed(s) => de::Error::invalid_type(Unexpected::Str(s), &visitor),
                    Text::Copied(s) => de::Error::invalid_type(Unexpected::Str(s), &visitor),
                };
                Err(err)
            }
        };
        value.map_err(|e| self.r.fix_position(e))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        // Keys are never null.
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        if name == SERDE_JSON_RAW_TOKEN {
            let raw = self.r.raw_value()?;
            return visitor.visit_map(RawText(Some(raw)));
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        ValueReader {
            r: self.r,
            path: ROOT,
        }
        .deserialize_enum(name, variants, visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        ValueReader {
            r: self.r,
            path: ROOT,
        }
        .deserialize_bytes(visitor)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_bytes(visitor)
    }

    fn deserialize_i128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_integer128(visitor, true)
    }

    fn deserialize_u128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_integer128(visitor, false)
    }

    serde::forward_to_deserialize_any! {
        char str string unit unit_struct seq tuple tuple_struct map struct
        identifier ignored_any
    }
}

impl<'de> KeyReader<'_, 'de, '_> {
    fn deserialize_integer128<V: Visitor<'de>>(
        self,
        visitor: V,
        signed: bool,
    ) -> Result<V::Value, Error> {
        self.r.eat_char();
        if !matches!(self.r.peek(), Some(b'0'..=b'9' | b'-')) {
            return Err(self.r.error(Code::ExpectedNumericKey));
        }
        let reader = ValueReader {
            r: &mut *self.r,
            path: ROOT,
        };
        let value = match signed {
            true => de::Deserializer::deserialize_i128(reader, visitor)?,
            false => de::Deserializer::deserialize_u128(reader, visitor)?,
        };
        match self.r.peek() {
            Some(b'"') => self.r.eat_char(),
            _ => return Err(self.r.peek_error(Code::ExpectedDoubleQuote)),
        }
        Ok(value)
    }
}

/// An enum written as `{"Variant": value}`.
struct VariantReader<'r, 'de, 'p> {
    r: &'r mut Reader<'de>,
    path: &'p Path<'p>,
}

impl<'r, 'de, 'p> de::EnumAccess<'de> for VariantReader<'r, 'de, 'p> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self), Error> {
        match self.r.parse_whitespace() {
            Some(b'"') => {}
            Some(b'}') => return Err(self.r.peek_error(Code::ExpectedSomeValue)),
            Some(_) => return Err(self.r.peek_error(Code::KeyMustBeAString)),
            None => return Err(self.r.peek_error(Code::EofWhileParsingObject)),
        }
        let variant = seed.deserialize(ValueReader {
            r: &mut *self.r,
            path: *self.path,
        })?;
        self.r.parse_object_colon()?;
        Ok((variant, self))
    }
}

impl<'de> de::VariantAccess<'de> for VariantReader<'_, 'de, '_> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        de::Deserialize::deserialize(ValueReader {
            r: self.r,
            path: *self.path,
        })
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        seed.deserialize(ValueReader {
            r: self.r,
            path: *self.path,
        })
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        de::Deserializer::deserialize_seq(
            ValueReader {
                r: self.r,
                path: *self.path,
            },
            visitor,
        )
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        de::Deserializer::deserialize_struct(
            ValueReader {
                r: self.r,
                path: *self.path,
            },
            "",
            fields,
            visitor,
        )
    }
}

/// An enum written as `"Variant"`.
struct UnitVariantReader<'r, 'de, 'p> {
    r: &'r mut Reader<'de>,
    path: Path<'p>,
}

impl<'r, 'de, 'p> de::EnumAccess<'de> for UnitVariantReader<'r, 'de, 'p> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self), Error> {
        let variant = seed.deserialize(ValueReader {
            r: &mut *self.r,
            path: self.path,
        })?;
        Ok((variant, self))
    }
}

impl<'de> de::VariantAccess<'de> for UnitVariantReader<'_, 'de, '_> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, _seed: T) -> Result<T::Value, Error> {
        Err(de::Error::invalid_type(
            Unexpected::UnitVariant,
            &"newtype variant",
        ))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, _visitor: V) -> Result<V::Value, Error> {
        Err(de::Error::invalid_type(
            Unexpected::UnitVariant,
            &"tuple variant",
        ))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Error> {
        Err(de::Error::invalid_type(
            Unexpected::UnitVariant,
            &"struct variant",
        ))
    }
}

/// serde_json's hand-over of a value's text to a `RawValue`: one entry, the token and the
/// text.
struct RawText<'de>(Option<&'de str>);

impl<'de> MapAccess<'de> for RawText<'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        if self.0.is_none() {
            return Ok(None);
        }
        seed.deserialize(BorrowedStrDeserializer::new(SERDE_JSON_RAW_TOKEN))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let text = self.0.take().unwrap_or_default();
        seed.deserialize(BorrowedStrDeserializer::new(text))
    }
}

#[cfg(test)]
mod tests;
