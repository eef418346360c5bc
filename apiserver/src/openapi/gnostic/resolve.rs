//! The tag yaml.v3 gives a scalar (`resolve.go`): what a plain scalar's text reads as
//! (a bool, null, a number in any of Go's notations, a timestamp, else a string). The
//! JSON reader tags numbers and literals with it, and the YAML writer quotes a string
//! whose plain text would read as something else.

/// A node's tag, as yaml.v3 resolves a scalar (`resolve.go`) or tags a collection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Tag {
    /// `!!str`: every quoted scalar, and plain text that is nothing else.
    Str,
    /// `!!int`.
    Int,
    /// `!!float`.
    Float,
    /// `!!bool`: `true`, `True`, `TRUE`, `false`, ...
    Bool,
    /// `!!null`: empty, `~`, `null`, `Null`, `NULL`.
    Null,
    /// `!!timestamp`: a plain `2006-01-02` and the like.
    Timestamp,
    /// `!!map`.
    Map,
    /// `!!seq`.
    Seq,
}

/// The tag yaml.v3 gives plain `text` (`resolve("", text)`). `<<` is a string here:
/// only the parser tags it `!!merge`, and JSON has no plain `<<`.
pub(super) fn resolve(text: &str) -> Tag {
    match text {
        "true" | "True" | "TRUE" | "false" | "False" | "FALSE" => return Tag::Bool,
        "" | "~" | "null" | "Null" | "NULL" => return Tag::Null,
        ".nan" | ".NaN" | ".NAN" | ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF"
        | "-.inf" | "-.Inf" | "-.INF" => return Tag::Float,
        _ => {}
    }
    match text.as_bytes()[0] {
        b'.' if is_go_float(text) => Tag::Float,
        b'+' | b'-' | b'0'..=b'9' => {
            if is_timestamp(text) {
                return Tag::Timestamp;
            }
            let plain = text.replace('_', "");
            if is_go_int(&plain) {
                Tag::Int
            } else if is_yaml_float(&plain) && is_go_float(&plain) {
                Tag::Float
            } else {
                Tag::Str
            }
        }
        _ => Tag::Str,
    }
}

/// `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$` (yaml.v3's `yamlStyleFloat`).
fn is_yaml_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let run = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - start
    };
    if b.get(i) == Some(&b'.') {
        i += 1;
        if run(&mut i) == 0 {
            return false;
        }
    } else {
        if run(&mut i) == 0 {
            return false;
        }
        if b.get(i) == Some(&b'.') {
            i += 1;
            run(&mut i);
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if run(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// Whether Go's `strconv.ParseFloat` reads a decimal `s` without a range error (the
/// forms reaching here are decimal: the YAML float pattern, or a leading `.`).
fn is_go_float(s: &str) -> bool {
    is_yaml_float(s) && s.parse::<f64>().is_ok_and(f64::is_finite)
}

/// Whether Go's `strconv.ParseInt(s, 0, 64)` or `ParseUint(s, 0, 64)` reads `s`: an
/// optional sign (`ParseInt` only), then `0x`, `0o`, `0b`, a leading `0` (octal) or
/// decimal digits, in range.
fn is_go_int(s: &str) -> bool {
    let (negative, body) = match s.as_bytes().first() {
        Some(b'+') => (false, &s[1..]),
        Some(b'-') => (true, &s[1..]),
        _ => (false, s),
    };
    let lower = body.to_ascii_lowercase();
    let (radix, digits) = if let Some(d) = lower.strip_prefix("0x") {
        (16, d)
    } else if let Some(d) = lower.strip_prefix("0o") {
        (8, d)
    } else if let Some(d) = lower.strip_prefix("0b") {
        (2, d)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (8, &lower[1..])
    } else {
        (10, lower.as_str())
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return false;
    }
    // `ParseUint` takes no sign, so a signed number must fit an int64.
    match u64::from_str_radix(digits, radix) {
        Ok(v) if negative => v <= 1 << 63,
        Ok(v) if s.starts_with('+') => i64::try_from(v).is_ok(),
        Ok(_) => true,
        Err(_) => false,
    }
}

/// Whether yaml.v3 reads plain `s` as a timestamp (`parseTimestamp`): four digits and
/// `-`, then one of Go's layouts `2006-1-2`, `2006-1-2T15:4:5.999999999Z07:00` (`T` or
/// `t`) or `2006-1-2 15:4:5.999999999`.
fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 5 || !b[..4].iter().all(u8::is_ascii_digit) || b[4] != b'-' {
        return false;
    }
    let mut i = 5;
    // Go's one-or-two digit fields: `1` reads "1" to "12", `2` "1" to "31".
    let field = |i: &mut usize, max: u32| -> bool {
        let start = *i;
        while *i < b.len() && *i - start < 2 && b[*i].is_ascii_digit() {
            *i += 1;
        }
        let n: u32 = s[start..*i].parse().unwrap_or(u32::MAX);
        *i > start && n <= max
    };
    let month_ok = field(&mut i, 12) && s[5..i] != *"0" && s[5..i] != *"00";
    if !month_ok || b.get(i) != Some(&b'-') {
        return false;
    }
    i += 1;
    let day_start = i;
    if !field(&mut i, 31) || s[day_start..i].parse::<u32>().unwrap_or(0) == 0 {
        return false;
    }
    if i == b.len() {
        return true;
    }
    let zoned = match b[i] {
        b'T' | b't' => true,
        b' ' => false,
        _ => return false,
    };
    i += 1;
    for (n, max) in [(0, 23), (1, 59), (2, 59)] {
        if n > 0 {
            if b.get(i) != Some(&b':') {
                return false;
            }
            i += 1;
        }
        if !field(&mut i, max) {
            return false;
        }
    }
    if b.get(i) == Some(&b'.') {
        let start = i + 1;
        i = start;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    if !zoned {
        return i == b.len();
    }
    match &s[i..] {
        "Z" => true,
        zone => {
            let z = zone.as_bytes();
            z.len() == 6
                && matches!(z[0], b'+' | b'-')
                && z[1..3].iter().all(u8::is_ascii_digit)
                && z[3] == b':'
                && z[4..6].iter().all(u8::is_ascii_digit)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_resolves_as_yaml_v3_resolves_it() {
        for (text, tag) in [
            ("abc", Tag::Str),
            ("yes", Tag::Str),
            ("True", Tag::Bool),
            ("~", Tag::Null),
            ("-0b101", Tag::Int),
            ("0x1F", Tag::Int),
            ("017", Tag::Int),
            ("08", Tag::Float),
            ("1_000", Tag::Int),
            ("-9223372036854775808", Tag::Int),
            ("18446744073709551615", Tag::Int),
            ("18446744073709551616", Tag::Float),
            ("1e400", Tag::Str),
            (".5", Tag::Float),
            ("+.inf", Tag::Float),
            ("2001-12-14", Tag::Timestamp),
            ("2001-12-14t21:59:43.10-05:00", Tag::Timestamp),
            ("2001-12-14 21:59:43.10", Tag::Timestamp),
            ("2001-12-32", Tag::Str),
            ("<<", Tag::Str),
            ("+18446744073709551615", Tag::Float),
        ] {
            assert_eq!(resolve(text), tag, "{text}");
        }
    }
}
