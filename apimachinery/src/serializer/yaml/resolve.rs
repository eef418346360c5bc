//! go-yaml v2's implicit typing of plain scalars (YAML 1.1, as `resolve.go` does it),
//! used both to read plain scalars and to decide which strings must be quoted on write.
//!
//! - null: `""`, `~`, `null`, `Null`, `NULL`;
//! - bool: `y Y yes Yes YES true True TRUE on On ON` and `n N no No NO false False FALSE
//!   off Off OFF`;
//! - float: `.inf`/`.nan` spellings, decimal floats (`1.5`, `1e3`, `.5`, `1.`);
//! - int: Go's base-prefixed integers after removing `_` (`0x1F`, `0o17`, `017`,
//!   `0b101`, `-0b1`), unsigned above `i64::MAX`;
//! - timestamp: `2006-1-2`, `2006-1-2T15:4:5.999999999Z07:00` (also with `t` or a space
//!   and no zone) — these stay strings when read, and are quoted when written;
//! - everything else, and anything whose first character cannot start a number, bool or
//!   null, is a string. Base-60 numbers (`1:20`) are strings too, but are quoted on write.

use super::number::{IntError, parse_int_base0, parse_uint_base0};

/// A plain scalar's value once typed.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Resolved {
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Float(f64),
    /// Looks like a timestamp; go-yaml hands it on as its text.
    Timestamp,
    Str,
}

/// The `!!` tag a resolution corresponds to, for messages.
pub(crate) fn short_tag(resolved: &Resolved) -> &'static str {
    match resolved {
        Resolved::Null => "!!null",
        Resolved::Bool(_) => "!!bool",
        Resolved::Int(_) | Resolved::Uint(_) => "!!int",
        Resolved::Float(_) => "!!float",
        Resolved::Timestamp => "!!timestamp",
        Resolved::Str => "!!str",
    }
}

/// Types a plain scalar with no tag, as go-yaml v2's `resolve("", s)`.
pub(crate) fn resolve_plain(s: &str) -> Resolved {
    let Some(&first) = s.as_bytes().first() else {
        return Resolved::Null;
    };
    match first {
        b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~' => {
            resolve_word(s).unwrap_or(Resolved::Str)
        }
        b'.' => resolve_word(s)
            .or_else(|| parse_go_float(s).map(Resolved::Float))
            .unwrap_or(Resolved::Str),
        b'0'..=b'9' | b'+' | b'-' => resolve_word(s).unwrap_or_else(|| resolve_number(s)),
        _ => Resolved::Str,
    }
}

/// The fixed spellings of go-yaml's resolve map.
fn resolve_word(s: &str) -> Option<Resolved> {
    Some(match s {
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            Resolved::Bool(true)
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            Resolved::Bool(false)
        }
        "~" | "null" | "Null" | "NULL" => Resolved::Null,
        ".nan" | ".NaN" | ".NAN" => Resolved::Float(f64::NAN),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => Resolved::Float(f64::INFINITY),
        "-.inf" | "-.Inf" | "-.INF" => Resolved::Float(f64::NEG_INFINITY),
        _ => return None,
    })
}

fn resolve_number(s: &str) -> Resolved {
    if is_timestamp(s) {
        return Resolved::Timestamp;
    }
    let plain: std::borrow::Cow<'_, str> = if s.contains('_') {
        s.replace('_', "").into()
    } else {
        s.into()
    };
    if let Ok(i) = parse_int_base0(&plain) {
        return Resolved::Int(i);
    }
    if let Ok(u) = parse_uint_base0(&plain) {
        return Resolved::Uint(u);
    }
    if is_yaml_style_float(&plain) {
        if let Some(f) = parse_go_float(&plain) {
            return Resolved::Float(f);
        }
    }
    if let Some(bits) = plain.strip_prefix("0b") {
        if let Ok(i) = parse_binary(bits) {
            return Resolved::Int(i);
        }
        if let Ok(u) = parse_uint_base0(&format!("0b{bits}")) {
            return Resolved::Uint(u);
        }
    } else if let Some(bits) = plain.strip_prefix("-0b") {
        if let Ok(i) = parse_int_base0(&format!("-0b{bits}")) {
            return Resolved::Int(i);
        }
    }
    Resolved::Str
}

fn parse_binary(bits: &str) -> Result<i64, IntError> {
    if bits.is_empty() || bits.starts_with(['+', '-']) {
        return Err(IntError::Syntax);
    }
    i64::from_str_radix(bits, 2).map_err(|_| IntError::Syntax)
}

/// Go's `strconv.ParseFloat(s, 64)` for decimal text: out of range is an error.
fn parse_go_float(s: &str) -> Option<f64> {
    if !is_decimal_float_syntax(s) {
        return None;
    }
    s.parse::<f64>().ok().filter(|f| f.is_finite())
}

/// `[+-]?(digits[.digits?]|.digits)([eE][+-]?digits)?` — the syntax both go-yaml's
/// `yamlStyleFloat` and (for decimal input) Go's `ParseFloat` accept.
fn is_decimal_float_syntax(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let int_start = i;
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    let int_digits = i - int_start;
    let mut frac_digits = 0;
    if b.get(i) == Some(&b'.') {
        i += 1;
        let frac_start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        frac_digits = i - frac_start;
    }
    if int_digits == 0 && frac_digits == 0 {
        return false;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let exp_start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == exp_start {
            return false;
        }
    }
    i == b.len()
}

/// go-yaml's `yamlStyleFloat`; unlike Go's `ParseFloat` it requires digits before a
/// trailing `.` but accepts `.5`, and it accepts `1.` (so does `ParseFloat`).
fn is_yaml_style_float(s: &str) -> bool {
    is_decimal_float_syntax(s)
}

/// go-yaml's `isBase60Float`: `[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?`.
pub(crate) fn is_base60_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    if !b.get(i).is_some_and(u8::is_ascii_digit) {
        return false;
    }
    i += 1;
    while b.get(i).is_some_and(|c| c.is_ascii_digit() || *c == b'_') {
        i += 1;
    }
    let mut groups = 0;
    while b.get(i) == Some(&b':') {
        i += 1;
        // `[0-5]?[0-9]`: one digit, or two with the first in 0-5.
        match (b.get(i), b.get(i + 1)) {
            (Some(b'0'..=b'5'), Some(d1)) if d1.is_ascii_digit() => i += 2,
            (Some(d), _) if d.is_ascii_digit() => i += 1,
            _ => return false,
        }
        groups += 1;
    }
    if groups == 0 {
        return false;
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        while b.get(i).is_some_and(|c| c.is_ascii_digit() || *c == b'_') {
            i += 1;
        }
    }
    i == b.len()
}

/// go-yaml's `parseTimestamp`: a 4-digit year and `-`, then one of Go's layouts
/// `2006-1-2T15:4:5.999999999Z07:00`, the same with `t`, `2006-1-2 15:4:5.999999999`,
/// or `2006-1-2`, with Go's `time.Parse` range checks.
pub(crate) fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 5 || !b[..4].iter().all(u8::is_ascii_digit) || b[4] != b'-' {
        return false;
    }
    let year: u32 = b[..4]
        .iter()
        .fold(0, |acc, d| acc * 10 + u32::from(d - b'0'));
    let mut i = 5;
    let Some(month) = go_getnum(b, &mut i) else {
        return false;
    };
    if b.get(i) != Some(&b'-') {
        return false;
    }
    i += 1;
    let Some(day) = go_getnum(b, &mut i) else {
        return false;
    };
    if !(1..=12).contains(&month) || day < 1 || day > days_in(month, year) {
        return false;
    }
    let with_zone = match b.get(i) {
        None => return true,
        Some(b'T' | b't') => true,
        Some(b' ') => false,
        _ => return false,
    };
    i += 1;
    let Some(hour) = go_getnum(b, &mut i) else {
        return false;
    };
    if b.get(i) != Some(&b':') {
        return false;
    }
    i += 1;
    let Some(minute) = go_getnum(b, &mut i) else {
        return false;
    };
    if b.get(i) != Some(&b':') {
        return false;
    }
    i += 1;
    let Some(second) = go_getnum(b, &mut i) else {
        return false;
    };
    if hour >= 24 || minute >= 60 || second >= 60 {
        return false;
    }
    if matches!(b.get(i), Some(b'.' | b',')) && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
        i += 1;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
    }
    if with_zone {
        match b.get(i) {
            Some(b'Z') => i += 1,
            Some(b'+' | b'-') => {
                let zone = &b[i..];
                if zone.len() < 6
                    || zone[3] != b':'
                    || !zone[1..3].iter().all(u8::is_ascii_digit)
                    || !zone[4..6].iter().all(u8::is_ascii_digit)
                {
                    return false;
                }
                let hh = u32::from(zone[1] - b'0') * 10 + u32::from(zone[2] - b'0');
                let mm = u32::from(zone[4] - b'0') * 10 + u32::from(zone[5] - b'0');
                if hh > 24 || mm > 60 {
                    return false;
                }
                i += 6;
            }
            _ => return false,
        }
    }
    i == b.len()
}

/// Go's `getnum(s, false)`: one or two digits.
fn go_getnum(b: &[u8], i: &mut usize) -> Option<u32> {
    let d0 = *b.get(*i).filter(|c| c.is_ascii_digit())?;
    *i += 1;
    let mut n = u32::from(d0 - b'0');
    if let Some(d1) = b.get(*i).filter(|c| c.is_ascii_digit()) {
        n = n * 10 + u32::from(d1 - b'0');
        *i += 1;
    }
    Some(n)
}

fn days_in(month: u32, year: u32) -> u32 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_yaml_1_1_scalars_as_go_yaml_v2() {
        use Resolved::*;
        let cases: &[(&str, Resolved)] = &[
            ("", Null),
            ("~", Null),
            ("null", Null),
            ("NULL", Null),
            ("nULL", Str),
            ("y", Bool(true)),
            ("n", Bool(false)),
            ("yes", Bool(true)),
            ("Off", Bool(false)),
            ("oN", Str),
            ("true", Bool(true)),
            ("1", Int(1)),
            ("-1", Int(-1)),
            ("+1", Int(1)),
            ("1_000", Int(1000)),
            ("0x1F", Int(31)),
            ("0o17", Int(15)),
            ("017", Int(15)),
            ("0b101", Int(5)),
            ("-0b101", Int(-5)),
            ("08", Float(8.0)),
            ("9223372036854775808", Uint(9_223_372_036_854_775_808)),
            ("1.5", Float(1.5)),
            ("1e3", Float(1000.0)),
            ("1.", Float(1.0)),
            (".5", Float(0.5)),
            ("-.5", Float(-0.5)),
            ("1e400", Str),
            (".inf", Float(f64::INFINITY)),
            ("-.Inf", Float(f64::NEG_INFINITY)),
            (".iNf", Str),
            ("2008-01-01T01:01:01Z", Timestamp),
            ("2008-1-1", Timestamp),
            ("2008-02-30", Str),
            ("2001-12-14 21:59:43.10", Timestamp),
            ("2001-12-14t21:59:43.10-05:00", Timestamp),
            ("2001-12-14 21:59:43.10 -5", Str),
            ("1:20", Str),
            ("<<", Str),
            ("0x", Str),
            ("-", Str),
            ("+", Str),
            ("abc", Str),
            ("1.2.3", Str),
        ];
        for (s, want) in cases {
            let got = resolve_plain(s);
            match (want, &got) {
                (Float(w), Float(g)) if w.is_nan() => assert!(g.is_nan(), "{s}"),
                _ => assert_eq!(&got, want, "{s:?}"),
            }
        }
    }

    #[test]
    fn recognises_base60_as_go_yaml_v2() {
        for s in ["1:20", "190:20:30", "-1:20.5", "1_0:5"] {
            assert!(is_base60_float(s), "{s}");
        }
        for s in ["1:60", "1:", ":20", "a:1", "1", "1:2a"] {
            assert!(!is_base60_float(s), "{s}");
        }
    }
}
