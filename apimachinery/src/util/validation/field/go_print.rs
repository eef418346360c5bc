//! How Go's `field.Error` prints a bad value: strings through `strconv.Quote` (`%q`),
//! numbers through `%v`, and everything else through `json.Marshal`. The quoting is
//! Go's to the byte: a rune Go's `strconv.IsPrint` refuses (a soft hyphen U+00AD, a
//! no-break space, an unassigned code point) is escaped as `\u00ad`, a control byte as
//! `\x01`, a byte that is not UTF-8 as `\xff`, where Rust's `Debug` would differ.

use std::fmt::Write as _;

use super::go_printable::PRINTABLE;

/// Whether Go's `strconv.IsPrint` accepts `c` (letters, marks, numbers, punctuation,
/// symbols and the ASCII space, in Go's Unicode version).
pub fn go_is_print(c: char) -> bool {
    let c = u32::from(c);
    if c < 0x80 {
        return (0x20..0x7f).contains(&c);
    }
    in_rune_ranges(PRINTABLE, c)
}

/// Whether `c` is in one of `ranges` (sorted, inclusive, not overlapping): Go's
/// `unicode.Is` over a range table, as the tables generated from Go's are laid out.
pub(crate) fn in_rune_ranges(ranges: &[(u32, u32)], c: u32) -> bool {
    ranges
        .binary_search_by(|&(lo, hi)| {
            if hi < c {
                std::cmp::Ordering::Less
            } else if lo > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// A string quoted as Go's `strconv.Quote` quotes it (what `%q` writes).
///
/// ```
/// use apimachinery::util::validation::field::go_quote;
///
/// assert_eq!(go_quote("a\u{ad}b\u{1}é"), r#""a\u00adb\x01é""#);
/// assert_eq!(go_quote("\u{e0001}"), r#""\U000e0001""#);
/// ```
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        push_quoted_rune(&mut out, c);
    }
    out.push('"');
    out
}

/// Bytes quoted as Go's `strconv.Quote` quotes a Go string holding them: valid UTF-8
/// as [`go_quote`], each byte of an invalid sequence as `\xNN`.
///
/// ```
/// use apimachinery::util::validation::field::go_quote_bytes;
///
/// assert_eq!(go_quote_bytes(b"ok\xff\xc3"), r#""ok\xff\xc3""#);
/// ```
pub fn go_quote_bytes(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() + 2);
    out.push('"');
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            push_quoted_rune(&mut out, c);
        }
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02x}");
        }
    }
    out.push('"');
    out
}

fn push_quoted_rune(out: &mut String, c: char) {
    match c {
        '"' => out.push_str("\\\""),
        '\\' => out.push_str("\\\\"),
        c if go_is_print(c) => out.push(c),
        '\u{7}' => out.push_str("\\a"),
        '\u{8}' => out.push_str("\\b"),
        '\u{c}' => out.push_str("\\f"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        '\u{b}' => out.push_str("\\v"),
        c if u32::from(c) < 0x20 || c == '\u{7f}' => {
            let _ = write!(out, "\\x{:02x}", u32::from(c));
        }
        c if u32::from(c) < 0x10000 => {
            let _ = write!(out, "\\u{:04x}", u32::from(c));
        }
        c => {
            let _ = write!(out, "\\U{:08x}", u32::from(c));
        }
    }
}

/// A string as Go's `json.Marshal` writes it: how a bad value of a named string type
/// (an enum such as `RestartPolicy`) or a `*string` is printed, with JSON's escapes
/// (`<` as `\u003c`, a soft hyphen as it is) rather than `%q`'s.
///
/// ```
/// use apimachinery::util::validation::field::go_json_string;
///
/// assert_eq!(go_json_string("a<\u{ad}"), "\"a\\u003c\u{ad}\"");
/// ```
pub fn go_json_string(s: &str) -> String {
    let mut out = Vec::with_capacity(s.len() + 2);
    let written =
        crate::util::json::encode_write_json(&s, &mut out, crate::util::json::JsonLayout::Compact);
    match written {
        Ok(()) => String::from_utf8(out).unwrap_or_default(),
        // Writing a string cannot fail; were it to, `%q` is the closest text.
        Err(_) => go_quote(s),
    }
}

/// A rune as Go's `%#U` writes it: `U+0078 'x'`, or `U+0001` alone when Go's
/// `strconv.IsPrint` refuses it.
///
/// ```
/// use apimachinery::util::validation::field::go_unicode_verb;
///
/// assert_eq!(go_unicode_verb('x'), "U+0078 'x'");
/// assert_eq!(go_unicode_verb('\u{1}'), "U+0001");
/// ```
pub fn go_unicode_verb(c: char) -> String {
    if go_is_print(c) {
        format!("U+{:04X} '{c}'", u32::from(c))
    } else {
        format!("U+{:04X}", u32::from(c))
    }
}

/// A float as Go's `%v` writes it (`%g` with the shortest digits): exponent form below
/// 1e-4 and from 1e6 on.
pub(super) fn go_float(x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 {
            "+Inf".into()
        } else {
            "-Inf".into()
        };
    }
    let abs = x.abs();
    if abs != 0.0 && !(1e-4..1e6).contains(&abs) {
        let s = format!("{x:e}");
        // Rust writes `1e21` and `1e-5`; Go writes `1e+21` and `1e-05`.
        if let Some((mantissa, exp)) = s.split_once('e') {
            let (sign, digits) = match exp.strip_prefix('-') {
                Some(d) => ('-', d),
                None => ('+', exp),
            };
            return format!("{mantissa}e{sign}{digits:0>2}");
        }
        return s;
    }
    format!("{x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_escapes_what_go_does_not_print() {
        assert_eq!(
            go_quote("a\"b\\c\n\u{1}\u{7f}é"),
            "\"a\\\"b\\\\c\\n\\x01\\x7fé\""
        );
        // Format characters, separators and spaces other than U+0020 are escaped.
        assert_eq!(go_quote("\u{ad}"), "\"\\u00ad\"");
        assert_eq!(go_quote("\u{a0}"), "\"\\u00a0\"");
        assert_eq!(go_quote("\u{2028}"), "\"\\u2028\"");
        assert_eq!(go_quote("\u{200b}"), "\"\\u200b\"");
        assert_eq!(go_quote("\u{feff}"), "\"\\ufeff\"");
        assert_eq!(go_quote("\u{85}"), "\"\\u0085\"");
        // Private use and unassigned code points too; the replacement character is a
        // symbol, printed as it is.
        assert_eq!(go_quote("\u{e000}"), "\"\\ue000\"");
        assert_eq!(go_quote("\u{378}"), "\"\\u0378\"");
        assert_eq!(go_quote("\u{10ffff}"), "\"\\U0010ffff\"");
        assert_eq!(go_quote("\u{fffd}"), "\"\u{fffd}\"");
        assert_eq!(go_quote("日本語 😀"), "\"日本語 😀\"");
        assert_eq!(
            go_quote("\u{7}\u{8}\u{b}\u{c}\t\r"),
            "\"\\a\\b\\v\\f\\t\\r\""
        );
    }

    #[test]
    fn printable_table_is_ordered() {
        assert!(PRINTABLE.windows(2).all(|w| w[0].1 < w[1].0));
        assert!(PRINTABLE.iter().all(|(lo, hi)| lo <= hi));
        assert!(go_is_print(' ') && !go_is_print('\u{3000}') && go_is_print('\u{ff01}'));
    }

    #[test]
    fn floats_are_gos() {
        assert_eq!(go_float(1.5), "1.5");
        assert_eq!(go_float(1e21), "1e+21");
        assert_eq!(go_float(1e-5), "1e-05");
        assert_eq!(go_float(123456.0), "123456");
        assert_eq!(go_float(1234567.0), "1.234567e+06");
        assert_eq!(go_float(1e6), "1e+06");
        assert_eq!(go_float(f64::NAN), "NaN");
    }
}
