//! Numbers as Go writes and reads them: `strconv.FormatFloat(f, 'g', -1, bits)`,
//! `strconv.ParseInt(s, 0, 64)` / `ParseUint(s, 0, 64)`, and the step a float takes
//! through `encoding/json` before go-yaml sees it.

/// Why a Go integer parse failed; go-yaml treats the two differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum IntError {
    Syntax,
    Range,
}

/// Go's `strconv.ParseUint(s, 0, 64)`: `0x`/`0o`/`0b` prefixes, a leading `0` for octal;
/// no sign, no underscores (go-yaml strips those before calling).
pub(crate) fn parse_uint_base0(s: &str) -> Result<u64, IntError> {
    let bytes = s.as_bytes();
    if bytes.is_empty() {
        return Err(IntError::Syntax);
    }
    let (base, digits): (u32, &[u8]) = match bytes {
        [b'0', p, _, ..] if p.eq_ignore_ascii_case(&b'x') => (16, &bytes[2..]),
        [b'0', p, _, ..] if p.eq_ignore_ascii_case(&b'o') => (8, &bytes[2..]),
        [b'0', p, _, ..] if p.eq_ignore_ascii_case(&b'b') => (2, &bytes[2..]),
        [b'0', rest @ ..] => (8, rest),
        _ => (10, bytes),
    };
    let mut n: u64 = 0;
    for &b in digits {
        let d = char::from(b).to_digit(base).ok_or(IntError::Syntax)?;
        // Go stops at the first overflow without looking at the rest.
        n = n
            .checked_mul(u64::from(base))
            .and_then(|n| n.checked_add(u64::from(d)))
            .ok_or(IntError::Range)?;
    }
    Ok(n)
}

/// Go's `strconv.ParseInt(s, 0, 64)`: an optional sign, then [`parse_uint_base0`].
pub(crate) fn parse_int_base0(s: &str) -> Result<i64, IntError> {
    let (negative, rest) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let magnitude = parse_uint_base0(rest)?;
    if negative {
        if magnitude > 1u64 << 63 {
            return Err(IntError::Range);
        }
        Ok(0i64.wrapping_sub_unsigned(magnitude))
    } else {
        i64::try_from(magnitude).map_err(|_| IntError::Range)
    }
}

/// Go's `strconv.FormatFloat(f, 'g', -1, bits)` for finite `f` (`bits` is 32 or 64):
/// the shortest digits that read back as the same value, in exponent form when the
/// decimal exponent is below -4 or at least 6 (`1e+06`, `1e-05`, `0.0001`, `123456.5`).
pub(crate) fn format_float_g(f: f64, bits32: bool) -> String {
    // Rust's `{:e}` gives the same shortest digits Go's Ryu-based formatter picks.
    #[allow(clippy::cast_possible_truncation)]
    let sci = if bits32 {
        format!("{:e}", f as f32)
    } else {
        format!("{f:e}")
    };
    let (negative, sci) = match sci.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, sci.as_str()),
    };
    let (mantissa, exp) = sci.split_once('e').unwrap_or((sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let mut out = String::with_capacity(digits.len() + 8);
    if negative {
        out.push('-');
    }
    if !(-4..6).contains(&exp) {
        let (first, rest) = digits.split_at(1.min(digits.len()));
        out.push_str(first);
        if !rest.is_empty() {
            out.push('.');
            out.push_str(rest);
        }
        out.push('e');
        out.push(if exp < 0 { '-' } else { '+' });
        let magnitude = exp.unsigned_abs();
        if magnitude < 10 {
            out.push('0');
        }
        out.push_str(&magnitude.to_string());
        return out;
    }
    // Decimal point position relative to the digits.
    let point = exp + 1;
    if point <= 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', point.unsigned_abs() as usize));
        out.push_str(&digits);
    } else {
        let point = point.unsigned_abs() as usize;
        if point >= digits.len() {
            out.push_str(&digits);
            out.extend(std::iter::repeat_n('0', point - digits.len()));
        } else {
            out.push_str(&digits[..point]);
            out.push('.');
            out.push_str(&digits[point..]);
        }
    }
    out
}

/// A float as a JSON number the way Go hands it on: `encoding/json` writes an integral
/// float below 1e21 as plain digits (`1e6` → `1000000`, `-0` → `-0`), and whoever reads
/// that text (go-yaml in `JSONToYAML`, a typed decoder) sees an integer when it fits in
/// 64 bits. Returns `None` when the float stays a float.
pub(crate) fn integral_float(f: f64) -> Option<serde_json::Number> {
    if !f.is_finite() || f.fract() != 0.0 || f.abs() >= 1e21 {
        return None;
    }
    // Exact: |f| < 2^63 and integral.
    #[allow(clippy::cast_possible_truncation)]
    if f > -9_223_372_036_854_775_809.0 && f < 9_223_372_036_854_775_808.0 {
        return Some(serde_json::Number::from(f as i64));
    }
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    if f > 0.0 && f < 18_446_744_073_709_551_616.0 {
        return Some(serde_json::Number::from(f as u64));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_floats_as_go_g() {
        let cases: &[(f64, &str)] = &[
            (1e21, "1e+21"),
            (0.000_001, "1e-06"),
            (1e-5, "1e-05"),
            (0.0001, "0.0001"),
            (1e6, "1e+06"),
            (123_456.5, "123456.5"),
            (1.5, "1.5"),
            (-2.25, "-2.25"),
            (0.1, "0.1"),
            (1.844_674_407_370_955_2e19, "1.8446744073709552e+19"),
            (1e100, "1e+100"),
            (-0.0, "-0"),
            (0.0, "0"),
            (123_456_789.0, "1.23456789e+08"),
            (5e-324, "5e-324"),
        ];
        for (f, want) in cases {
            assert_eq!(format_float_g(*f, false), *want, "{f:?}");
        }
        assert_eq!(format_float_g(0.1, true), "0.1");
        assert_eq!(format_float_g(1e20, true), "1e+20");
        assert_eq!(format_float_g(3.3, true), "3.3");
    }

    #[test]
    fn parses_ints_as_go_base0() {
        assert_eq!(parse_int_base0("0x1F"), Ok(31));
        assert_eq!(parse_int_base0("-0x1F"), Ok(-31));
        assert_eq!(parse_int_base0("0o17"), Ok(15));
        assert_eq!(parse_int_base0("017"), Ok(15));
        assert_eq!(parse_int_base0("0b101"), Ok(5));
        assert_eq!(parse_int_base0("0"), Ok(0));
        assert_eq!(parse_int_base0("+5"), Ok(5));
        assert_eq!(parse_int_base0("08"), Err(IntError::Syntax));
        assert_eq!(parse_int_base0("0x"), Err(IntError::Syntax));
        assert_eq!(parse_int_base0(""), Err(IntError::Syntax));
        assert_eq!(parse_int_base0("-"), Err(IntError::Syntax));
        assert_eq!(parse_int_base0("-9223372036854775808"), Ok(i64::MIN));
        assert_eq!(parse_int_base0("9223372036854775808"), Err(IntError::Range));
        assert_eq!(parse_uint_base0("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(
            parse_uint_base0("18446744073709551616"),
            Err(IntError::Range)
        );
    }

    #[test]
    fn integral_floats_become_integers_as_through_go_json() {
        assert_eq!(integral_float(1e6), Some(1_000_000.into()));
        assert_eq!(integral_float(-0.0), Some(0.into()));
        assert_eq!(integral_float(1.5), None);
        assert_eq!(
            integral_float(1e19),
            Some(10_000_000_000_000_000_000u64.into())
        );
        assert_eq!(integral_float(1e20), None);
        assert_eq!(integral_float(f64::NAN), None);
    }
}
