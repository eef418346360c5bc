//! Go's JSON text (`k8s.io/apimachinery/pkg/util/json`, and `encoding/json` under it):
//! [`GoJsonWriter`], the serializer that writes what Go writes (below the object model:
//! every type's `Object::encode_json` writes through it), [`GoFormatter`], a
//! `serde_json` formatter that writes the same text through `serde_json`'s serializer,
//! Go's float formatting, and Go's syntax errors ([`check_valid`]).

use std::io;

use serde_json::ser::{CharEscape, CompactFormatter, Formatter, PrettyFormatter};

pub(crate) mod embedded;
mod indent;
mod replay;
mod scanner;
mod writer;
#[cfg(test)]
mod writer_tests;

pub use indent::{indent, indent_into};
pub use replay::serialize_by_write_json;
pub use scanner::{SyntaxError, check_valid, unmarshal_into_map_error};
pub use writer::{
    Compound, GoJsonWriter, StructWriter, WriteField, WriteFieldBySerde, WriteFieldDirect,
    WriteJson, encode_write_json,
};

/// Writes JSON byte for byte as Go's `encoding/json` does (`json.Marshal`, or
/// `json.MarshalIndent(v, "", indent)` when built with [`indented`](Self::indented)).
///
/// Where `serde_json` and Go differ, this follows Go:
/// - `<`, `>`, `&`, U+2028 and U+2029 inside strings are written `\u003c`, `\u003e`,
///   `\u0026`, `\u2028`, `\u2029` (Go escapes HTML by default, in `Marshal` and `Encoder`);
/// - floats are written as Go's `strconv.FormatFloat(f, 'f', -1, bits)` — shortest digits,
///   no `.0` on integral values — unless `|f| < 1e-6` or `|f| >= 1e21`, where Go switches to
///   exponent form, with an explicit `+` and at least one exponent digit (`1e+21`, `1e-7`);
/// - NaN and infinities would be an error (Go's `UnsupportedValueError`), but
///   `serde_json`'s serializer writes `null` for them without asking the formatter;
///   [`GoJsonWriter`] refuses them, as Go does.
///
/// Other escapes already agree: `\"`, `\\`, `\n`, `\r`, `\t`, `\b`, `\f` (Go >= 1.22), other
/// control characters as lower-case `\u00XX`, everything else as UTF-8.
///
/// ```
/// use apimachinery::util::json::GoFormatter;
///
/// let value = serde_json::json!({"b": [1.0, 1e21, 0.0000001], "a": "<&>"});
/// let mut out = Vec::new();
/// let mut ser = serde_json::Serializer::with_formatter(&mut out, GoFormatter::compact());
/// serde::Serialize::serialize(&value, &mut ser)?;
/// assert_eq!(String::from_utf8(out)?, r#"{"a":"\u003c\u0026\u003e","b":[1,1e+21,1e-7]}"#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct GoFormatter<'a> {
    /// The indentation unit, for re-indenting embedded raw JSON.
    indent: &'a [u8],
    layout: Layout<'a>,
    /// How many arrays and objects are open, to indent embedded raw JSON.
    depth: usize,
}

#[derive(Clone, Debug)]
enum Layout<'a> {
    Compact(CompactFormatter),
    Indented(PrettyFormatter<'a>),
}

impl Default for GoFormatter<'_> {
    fn default() -> Self {
        Self::compact()
    }
}

impl<'a> GoFormatter<'a> {
    /// No whitespace at all, as `json.Marshal` writes.
    pub fn compact() -> Self {
        GoFormatter {
            indent: b"",
            layout: Layout::Compact(CompactFormatter),
            depth: 0,
        }
    }

    /// One value per line, nested values indented by `indent` per level, `": "` after keys,
    /// and empty objects and arrays as `{}` and `[]`, as `json.MarshalIndent(v, "", indent)`
    /// writes.
    pub fn indented(indent: &'a [u8]) -> Self {
        GoFormatter {
            indent,
            layout: Layout::Indented(PrettyFormatter::with_indent(indent)),
            depth: 0,
        }
    }

    /// Two-space indentation, as Go's pretty JSON serializer writes.
    pub fn pretty() -> Self {
        Self::indented(b"  ")
    }
}

/// The layout of the JSON text [`encode_go_json`] (and
/// [`Object::encode_json`](crate::runtime::Object::encode_json)) writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum JsonLayout {
    /// No whitespace, as Go's `json.Marshal` writes.
    #[default]
    Compact,
    /// One value per line, two spaces per level, as Go's pretty JSON serializer writes.
    Pretty,
}

/// Appends `value` to `out` as Go's `encoding/json` writes it, in `layout`: what
/// [`Object::encode_json`](crate::runtime::Object::encode_json) does for every type the
/// derive implements it for.
///
/// ```
/// use apimachinery::util::json::{JsonLayout, encode_go_json};
///
/// let mut out = Vec::new();
/// encode_go_json(&serde_json::json!({"a": "<b>", "n": 1e21}), &mut out, JsonLayout::Compact)?;
/// assert_eq!(out, br#"{"a":"\u003cb\u003e","n":1e+21}"#);
/// # Ok::<(), serde_json::Error>(())
/// ```
pub fn encode_go_json<T: serde::Serialize + ?Sized>(
    value: &T,
    out: &mut Vec<u8>,
    layout: JsonLayout,
) -> Result<(), serde_json::Error> {
    let mut writer = match layout {
        JsonLayout::Pretty => GoJsonWriter::pretty(out),
        _ => GoJsonWriter::compact(out),
    };
    value.serialize(&mut writer)
}

/// Forwards a layout call to whichever formatter is active.
macro_rules! layout {
    ($self:ident . $method:ident ( $($arg:expr),* )) => {
        match &mut $self.layout {
            Layout::Compact(f) => f.$method($($arg),*),
            Layout::Indented(f) => f.$method($($arg),*),
        }
    };
}

impl Formatter for GoFormatter<'_> {
    #[inline]
    fn write_f32<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f32) -> io::Result<()> {
        writer.write_all(format_go_float32(value)?.as_bytes())
    }

    #[inline]
    fn write_f64<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f64) -> io::Result<()> {
        writer.write_all(format_go_float64(value)?.as_bytes())
    }

    #[inline]
    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        // Bytes, not chars: in UTF-8 an ASCII byte is always a whole character, and
        // U+2028/U+2029 are exactly the byte sequences E2 80 A8 and E2 80 A9.
        let bytes = fragment.as_bytes();
        if !has_go_only_escape(bytes) {
            // Nearly every string: names, labels, images. One write, no byte loop.
            return writer.write_all(bytes);
        }
        let mut start = 0;
        let mut i = 0;
        while let Some(&b) = bytes.get(i) {
            let (escape, len): (&[u8], usize) = match b {
                b'<' => (b"\\u003c", 1),
                b'>' => (b"\\u003e", 1),
                b'&' => (b"\\u0026", 1),
                0xE2 if bytes.get(i + 1) == Some(&0x80) && bytes.get(i + 2) == Some(&0xA8) => {
                    (b"\\u2028", 3)
                }
                0xE2 if bytes.get(i + 1) == Some(&0x80) && bytes.get(i + 2) == Some(&0xA9) => {
                    (b"\\u2029", 3)
                }
                _ => {
                    i += 1;
                    continue;
                }
            };
            writer.write_all(bytes.get(start..i).unwrap_or_default())?;
            writer.write_all(escape)?;
            i += len;
            start = i;
        }
        writer.write_all(bytes.get(start..).unwrap_or_default())
    }

    #[inline]
    fn write_char_escape<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        char_escape: CharEscape,
    ) -> io::Result<()> {
        layout!(self.write_char_escape(writer, char_escape))
    }

    #[inline]
    fn begin_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.depth += 1;
        layout!(self.begin_array(writer))
    }

    #[inline]
    fn end_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.depth = self.depth.saturating_sub(1);
        layout!(self.end_array(writer))
    }

    #[inline]
    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        layout!(self.begin_array_value(writer, first))
    }

    #[inline]
    fn end_array_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        layout!(self.end_array_value(writer))
    }

    #[inline]
    fn begin_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.depth += 1;
        layout!(self.begin_object(writer))
    }

    #[inline]
    fn end_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.depth = self.depth.saturating_sub(1);
        layout!(self.end_object(writer))
    }

    /// Embedded raw JSON (`RawExtension`, `Unknown`): written as it is when compact; in
    /// indented output re-indented to its place, as Go's `MarshalIndent` re-indents
    /// everything it writes (`json.Indent`: one value per line, `{}`/`[]` kept when
    /// empty). The fragment arrives compacted and HTML-escaped by its serializer.
    #[inline]
    fn write_raw_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        match &self.layout {
            Layout::Compact(_) => writer.write_all(fragment.as_bytes()),
            Layout::Indented(_) => {
                let indent = self.indent;
                write_indented(writer, fragment, indent, self.depth)
            }
        }
    }

    #[inline]
    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        layout!(self.begin_object_key(writer, first))
    }

    #[inline]
    fn end_object_key<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        layout!(self.end_object_key(writer))
    }

    #[inline]
    fn begin_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        layout!(self.begin_object_value(writer))
    }

    #[inline]
    fn end_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        layout!(self.end_object_value(writer))
    }
}

/// True when `bytes` holds a byte that Go escapes and `serde_json` does not: `<`, `>`,
/// `&`, or 0xE2 (the lead byte of U+2028 and U+2029, and of other characters, which the
/// careful loop then tells apart), eight bytes at a time.
#[inline]
fn has_go_only_escape(bytes: &[u8]) -> bool {
    let holds_any = holds_go_only_escape_byte;
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        if holds_any(u64::from_le_bytes(word)) {
            return true;
        }
    }
    // The tail, padded with zero bytes (never one of the four); built in a register, as
    // a short copy to memory read back as a word stalls the store forwarding.
    let tail = chunks
        .remainder()
        .iter()
        .rev()
        .fold(0u64, |word, &b| (word << 8) | u64::from(b));
    holds_any(tail)
}

/// Whether the word holds `<`, `>`, `&` or 0xE2: the word holds byte `b` exactly when
/// `word ^ b*0x01..01` has a zero byte, which the classic `(x - 0x01..) & !x & 0x80..`
/// test finds (it may misplace the zero byte, never invent one).
#[inline]
fn holds_go_only_escape_byte(word: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let has_zero_byte = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS != 0;
    let holds = |b: u8| has_zero_byte(word ^ (ONES * u64::from(b)));
    holds(b'<') | holds(b'>') | holds(b'&') | holds(0xE2)
}

/// Re-indents compact JSON text as Go's `json.Indent` does, starting at nesting `depth`.
fn write_indented<W: ?Sized + io::Write>(
    writer: &mut W,
    compact: &str,
    indent: &[u8],
    depth: usize,
) -> io::Result<()> {
    let bytes = compact.as_bytes();
    let mut depth = depth;
    let mut in_string = false;
    let mut escaped = false;
    let newline = |writer: &mut W, depth: usize| -> io::Result<()> {
        writer.write_all(b"\n")?;
        for _ in 0..depth {
            writer.write_all(indent)?;
        }
        Ok(())
    };
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        i += 1;
        if in_string {
            writer.write_all(&[b])?;
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => {
                in_string = true;
                writer.write_all(b"\"")?;
            }
            b'{' | b'[' => {
                let close = if b == b'{' { b'}' } else { b']' };
                if bytes.get(i) == Some(&close) {
                    writer.write_all(&[b, close])?;
                    i += 1;
                } else {
                    depth += 1;
                    writer.write_all(&[b])?;
                    newline(writer, depth)?;
                }
            }
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                newline(writer, depth)?;
                writer.write_all(&[b])?;
            }
            b',' => {
                writer.write_all(b",")?;
                newline(writer, depth)?;
            }
            b':' => writer.write_all(b": ")?,
            b' ' | b'\t' | b'\n' | b'\r' => {}
            _ => writer.write_all(&[b])?,
        }
    }
    Ok(())
}

/// Go's float formatting, written once for both widths: each width formats with its own
/// shortest digits, as `strconv.FormatFloat(f, _, -1, bits)` does.
macro_rules! go_float {
    ($name:ident, $ty:ty, $bits:literal) => {
        #[doc = concat!("A float", $bits, " as Go's `encoding/json` writes it; an error for NaN and infinities.")]
        pub fn $name(value: $ty) -> io::Result<String> {
            if !value.is_finite() {
                // Go names the value as `strconv.FormatFloat(f, 'g', -1, bits)` does.
                let name = if value.is_nan() {
                    "NaN"
                } else if value > 0.0 {
                    "+Inf"
                } else {
                    "-Inf"
                };
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("json: unsupported value: {name}"),
                ));
            }
            let abs = value.abs();
            if abs == 0.0 || (1e-6..1e21).contains(&abs) {
                return Ok(format!("{value}"));
            }
            // Rust's `{:e}` has Go's shortest digits; Go writes `e+21` where Rust writes
            // `e21`, and trims `e-07` to `e-7`, which is what Rust writes already.
            let text = format!("{value:e}");
            Ok(match text.split_once('e') {
                Some((mantissa, exp)) if !exp.starts_with('-') => format!("{mantissa}e+{exp}"),
                _ => text,
            })
        }
    };
}

go_float!(format_go_float64, f64, "64");
go_float!(format_go_float32, f32, "32");

#[cfg(test)]
mod tests {
    use super::*;

    fn write(value: &serde_json::Value, formatter: GoFormatter<'_>) -> String {
        let mut out = Vec::new();
        let mut ser = serde_json::Serializer::with_formatter(&mut out, formatter);
        serde::Serialize::serialize(value, &mut ser).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn floats_are_written_as_go_writes_them() {
        // Expected strings are Go's json.Marshal of float64 values.
        let cases = [
            (0.0, "0"),
            (-0.0, "-0"),
            (1.0, "1"),
            (1.5, "1.5"),
            (100.0, "100"),
            (0.1, "0.1"),
            (1e20, "100000000000000000000"),
            (1e21, "1e+21"),
            (1.5e300, "1.5e+300"),
            (0.000001, "0.000001"),
            (0.0000001, "1e-7"),
            (1.234e-10, "1.234e-10"),
            (-2.5e-8, "-2.5e-8"),
            (123456789.125, "123456789.125"),
            (f64::MAX, "1.7976931348623157e+308"),
            (5e-324, "5e-324"),
        ];
        for (value, want) in cases {
            assert_eq!(format_go_float64(value).unwrap(), want, "{value:?}");
        }
        assert_eq!(format_go_float32(0.1).unwrap(), "0.1");
        assert_eq!(format_go_float32(1e21).unwrap(), "1e+21");
        assert_eq!(format_go_float32(3.4028235e38).unwrap(), "3.4028235e+38");
        assert!(format_go_float64(f64::NAN).is_err());
        assert!(format_go_float64(f64::INFINITY).is_err());
        assert!(format_go_float32(f32::NEG_INFINITY).is_err());
    }

    #[test]
    fn strings_are_escaped_as_go_escapes_them() {
        let value = serde_json::json!("a<b>&c\u{2028}\u{2029}\"\\\n\r\t\u{8}\u{c}\u{1b}\u{7f}é😀");
        assert_eq!(
            write(&value, GoFormatter::compact()),
            "\"a\\u003cb\\u003e\\u0026c\\u2028\\u2029\\\"\\\\\\n\\r\\t\\b\\f\\u001b\u{7f}é😀\""
        );
    }

    #[test]
    fn go_only_escapes_are_found_at_every_offset() {
        for len in 0..20 {
            let plain = "a".repeat(len);
            assert!(!has_go_only_escape(plain.as_bytes()), "{len}");
            for at in 0..len {
                for special in ["<", ">", "&", "\u{2028}", "\u{2029}", "\u{20ac}"] {
                    let mut s = plain.clone();
                    s.replace_range(at..at + 1, special);
                    assert!(has_go_only_escape(s.as_bytes()), "{s:?}");
                }
                // Neighbours of the special bytes, and the high bit alone, are plain.
                for other in ["=", "?", "%", "'", "\u{e1}", "\u{7f}", "\u{1f600}"] {
                    let mut s = plain.clone();
                    s.replace_range(at..at + 1, other);
                    assert!(!has_go_only_escape(s.as_bytes()), "{s:?}");
                }
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn strings_are_escaped_the_same_with_or_without_the_fast_path(s in "\\PC{0,40}") {
            let bytes = s.as_bytes();
            let naive = bytes.iter().any(|b| matches!(b, b'<' | b'>' | b'&' | 0xE2));
            proptest::prop_assert_eq!(has_go_only_escape(bytes), naive);
        }
    }

    #[test]
    fn raw_fragments_are_reindented_in_pretty_output() {
        let raw = serde_json::value::RawValue::from_string(
            r#"{"b":[1,{"c":"x,{}:[]\"y"}],"a":{},"e":[]}"#.to_owned(),
        )
        .unwrap();
        #[derive(serde::Serialize)]
        struct Outer {
            outer: Vec<Box<serde_json::value::RawValue>>,
        }
        let value = Outer { outer: vec![raw] };
        let mut out = Vec::new();
        let mut ser = serde_json::Serializer::with_formatter(&mut out, GoFormatter::pretty());
        serde::Serialize::serialize(&value, &mut ser).unwrap();
        // What Go's json.MarshalIndent writes for the same RawMessage.
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\n  \"outer\": [\n    {\n      \"b\": [\n        1,\n        {\n          \"c\": \"x,{}:[]\\\"y\"\n        }\n      ],\n      \"a\": {},\n      \"e\": []\n    }\n  ]\n}"
        );
    }

    #[test]
    fn layouts_are_gos() {
        let value = serde_json::json!({"a": {}, "b": [], "c": [1, {"d": null}]});
        assert_eq!(
            write(&value, GoFormatter::compact()),
            r#"{"a":{},"b":[],"c":[1,{"d":null}]}"#
        );
        assert_eq!(
            write(&value, GoFormatter::pretty()),
            "{\n  \"a\": {},\n  \"b\": [],\n  \"c\": [\n    1,\n    {\n      \"d\": null\n    }\n  ]\n}"
        );
    }
}
