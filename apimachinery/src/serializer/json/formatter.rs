//! [`GoFormatter`]: a `serde_json` formatter that writes what Go's `encoding/json` writes.

use std::io;

use serde_json::ser::{CharEscape, CompactFormatter, Formatter, PrettyFormatter};

/// Writes JSON byte for byte as Go's `encoding/json` does (`json.Marshal`, or
/// `json.MarshalIndent(v, "", indent)` when built with [`indented`](Self::indented)).
///
/// Where `serde_json` and Go differ, this follows Go:
/// - `<`, `>`, `&`, U+2028 and U+2029 inside strings are written `\u003c`, `\u003e`,
///   `\u0026`, `\u2028`, `\u2029` (Go escapes HTML by default, in `Marshal` and `Encoder`);
/// - floats are written as Go's `strconv.FormatFloat(f, 'f', -1, bits)` — shortest digits,
///   no `.0` on integral values — unless `|f| < 1e-6` or `|f| >= 1e21`, where Go switches to
///   exponent form, with an explicit `+` and at least one exponent digit (`1e+21`, `1e-7`);
/// - NaN and infinities are an error (Go's `UnsupportedValueError`), not `null`.
///
/// Other escapes already agree: `\"`, `\\`, `\n`, `\r`, `\t`, `\b`, `\f` (Go >= 1.22), other
/// control characters as lower-case `\u00XX`, everything else as UTF-8.
///
/// ```
/// use apimachinery::serializer::json::GoFormatter;
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
    fn write_f32<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f32) -> io::Result<()> {
        writer.write_all(format_go_float32(value)?.as_bytes())
    }

    fn write_f64<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f64) -> io::Result<()> {
        writer.write_all(format_go_float64(value)?.as_bytes())
    }

    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        // Bytes, not chars: in UTF-8 an ASCII byte is always a whole character, and
        // U+2028/U+2029 are exactly the byte sequences E2 80 A8 and E2 80 A9.
        let bytes = fragment.as_bytes();
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

    fn write_char_escape<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        char_escape: CharEscape,
    ) -> io::Result<()> {
        layout!(self.write_char_escape(writer, char_escape))
    }

    fn begin_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.depth += 1;
        layout!(self.begin_array(writer))
    }

    fn end_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.depth = self.depth.saturating_sub(1);
        layout!(self.end_array(writer))
    }

    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        layout!(self.begin_array_value(writer, first))
    }

    fn end_array_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        layout!(self.end_array_value(writer))
    }

    fn begin_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.depth += 1;
        layout!(self.begin_object(writer))
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.depth = self.depth.saturating_sub(1);
        layout!(self.end_object(writer))
    }

    /// Embedded raw JSON (`RawExtension`, `Unknown`): written as it is when compact; in
    /// indented output re-indented to its place, as Go's `MarshalIndent` re-indents
    /// everything it writes (`json.Indent`: one value per line, `{}`/`[]` kept when
    /// empty). The fragment arrives compacted and HTML-escaped by its serializer.
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

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        layout!(self.begin_object_key(writer, first))
    }

    fn end_object_key<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        layout!(self.end_object_key(writer))
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        layout!(self.begin_object_value(writer))
    }

    fn end_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        layout!(self.end_object_value(writer))
    }
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
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("json: unsupported value: {value}"),
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
