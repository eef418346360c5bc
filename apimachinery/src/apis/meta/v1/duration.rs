//! [`Duration`]: a signed span of nanoseconds written as Go writes `time.Duration`
//! (Go's `metav1.Duration`).

use std::fmt;
use std::str::FromStr;

use super::time::GoQuoted;

const NANOS_PER_SEC: u64 = 1_000_000_000;
/// 2^63: the magnitude of `i64::MIN`, the largest a parsed duration may reach.
const MAX_MAGNITUDE: u64 = 1 << 63;

/// A signed count of nanoseconds whose JSON form is Go's `time.Duration.String()`, such as
/// `"1h2m3.5s"` or `"300ms"`: the type of timeouts and intervals in Kubernetes objects.
///
/// Reading is Go's `time.ParseDuration`, so anything a Go client sends is understood the
/// same way, and writing then reading gives back every value exactly. JSON `null` is an
/// error, as in Go (use `Option<Duration>` for an optional field).
///
/// ```
/// use apimachinery::apis::meta::v1::Duration;
///
/// let d: Duration = "1h2m3.5s".parse()?;
/// assert_eq!(d.as_nanos(), 3_723_500_000_000);
/// assert_eq!(d.to_string(), "1h2m3.5s");
/// assert_eq!(Duration::from_nanos(1_500).to_string(), "1.5µs");
/// assert_eq!(Duration::from_nanos(-120_000_000_000).to_string(), "-2m0s");
/// assert_eq!(serde_json::to_string(&Duration::from_nanos(0)).unwrap(), r#""0s""#);
/// # Ok::<(), apimachinery::apis::meta::v1::DurationParseError>(())
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Duration(i64);

impl Duration {
    /// A duration of `nanos` nanoseconds (negative for a span backwards in time).
    pub const fn from_nanos(nanos: i64) -> Duration {
        Duration(nanos)
    }

    /// The signed number of nanoseconds.
    pub const fn as_nanos(&self) -> i64 {
        self.0
    }
}

impl From<std::time::Duration> for Duration {
    /// Spans longer than `i64::MAX` nanoseconds (about 292 years) saturate to it.
    fn from(d: std::time::Duration) -> Duration {
        Duration(i64::try_from(d.as_nanos()).unwrap_or(i64::MAX))
    }
}

impl TryFrom<Duration> for std::time::Duration {
    type Error = NegativeDurationError;

    fn try_from(d: Duration) -> Result<std::time::Duration, NegativeDurationError> {
        u64::try_from(d.0)
            .map(std::time::Duration::from_nanos)
            .map_err(|_| NegativeDurationError { duration: d })
    }
}

/// A negative [`Duration`], which [`std::time::Duration`] cannot hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("duration {duration} is negative and has no std::time::Duration form")]
pub struct NegativeDurationError {
    /// The duration that could not be converted.
    pub duration: Duration,
}

impl fmt::Display for Duration {
    /// Go's `time.Duration.String()`: hours, minutes and seconds (`72h3m0.5s`) from one
    /// second up, the smallest fitting unit of `ms`, `µs` (U+00B5) or `ns` below it, and
    /// `0s` for zero.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::with_capacity(26);
        let magnitude = self.0.unsigned_abs();
        if self.0 < 0 {
            s.push('-');
        }
        if magnitude < NANOS_PER_SEC {
            let (decimals, unit) = match magnitude {
                0 => (0, "s"),
                1..=999 => (0, "ns"),
                1_000..=999_999 => (3, "µs"),
                _ => (6, "ms"),
            };
            push_decimal(&mut s, magnitude, decimals);
            s.push_str(unit);
        } else {
            let whole_secs = magnitude / NANOS_PER_SEC;
            let hours = whole_secs / 3600;
            if hours > 0 {
                s.push_str(&hours.to_string());
                s.push('h');
            }
            // Minutes appear, even as 0, once there is anything above them.
            if whole_secs >= 60 {
                s.push_str(&(whole_secs / 60 % 60).to_string());
                s.push('m');
            }
            let secs_and_fraction = whole_secs % 60 * NANOS_PER_SEC + magnitude % NANOS_PER_SEC;
            push_decimal(&mut s, secs_and_fraction, 9);
            s.push('s');
        }
        f.pad(&s)
    }
}

/// Writes `value / 10^decimals` in decimal, with the fraction's trailing zeros (and the
/// point, if nothing is left of it) omitted.
fn push_decimal(out: &mut String, value: u64, decimals: u32) {
    let scale = 10u64.pow(decimals);
    out.push_str(&(value / scale).to_string());
    let fraction = value % scale;
    if fraction != 0 {
        let digits = format!("{fraction:0width$}", width = decimals as usize);
        out.push('.');
        out.push_str(digits.trim_end_matches('0'));
    }
}

impl fmt::Debug for Duration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Duration({self})")
    }
}

impl FromStr for Duration {
    type Err = DurationParseError;

    /// Go's `time.ParseDuration`: an optional sign, then one or more decimal numbers each
    /// with an optional fraction and a unit (`ns`, `us`, `µs` as U+00B5 or U+03BC, `ms`,
    /// `s`, `m`, `h`), such as `-1.5h` or `2h45m`; a bare `0` is also accepted. Values
    /// beyond the `i64` range are errors.
    fn from_str(s: &str) -> Result<Duration, DurationParseError> {
        parse_go_duration(s.as_bytes())
            .map(Duration)
            .map_err(|problem| DurationParseError {
                input: s.to_owned(),
                problem,
            })
    }
}

/// A string that Go's `time.ParseDuration` rejects.
///
/// The message is Go's, e.g. `time: unknown unit "d" in duration "1d"`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("time: {problem} {}", GoQuoted(input.as_bytes()))]
pub struct DurationParseError {
    /// The string that failed to parse.
    pub input: String,
    problem: DurationProblem,
}

/// What is wrong with a duration string; `Display` is the middle of Go's message.
#[derive(Debug, Clone, PartialEq, Eq)]
enum DurationProblem {
    /// Not of the duration grammar, or out of range.
    Invalid,
    /// A number without a unit after it.
    MissingUnit,
    /// A unit that is not one of Go's.
    UnknownUnit(Vec<u8>),
}

impl fmt::Display for DurationProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DurationProblem::Invalid => f.write_str("invalid duration"),
            DurationProblem::MissingUnit => f.write_str("missing unit in duration"),
            DurationProblem::UnknownUnit(unit) => {
                write!(f, "unknown unit {} in duration", GoQuoted(unit))
            }
        }
    }
}

/// Nanoseconds in one of Go's duration units.
fn unit_nanos(unit: &[u8]) -> Option<u64> {
    Some(match unit {
        b"ns" => 1,
        // "us", "µs" (micro sign U+00B5) and "μs" (Greek mu U+03BC).
        b"us" | b"\xc2\xb5s" | b"\xce\xbcs" => 1_000,
        b"ms" => 1_000_000,
        b"s" => NANOS_PER_SEC,
        b"m" => 60 * NANOS_PER_SEC,
        b"h" => 3600 * NANOS_PER_SEC,
        _ => return None,
    })
}

fn parse_go_duration(input: &[u8]) -> Result<i64, DurationProblem> {
    use DurationProblem::{Invalid, MissingUnit, UnknownUnit};

    let (negative, mut rest) = match input {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        _ => (false, input),
    };
    if rest == b"0" {
        return Ok(0);
    }
    if rest.is_empty() {
        return Err(Invalid);
    }

    let mut total: u64 = 0;
    while !rest.is_empty() {
        if !matches!(rest.first(), Some(b'.' | b'0'..=b'9')) {
            return Err(Invalid);
        }
        let (whole, after_whole) = leading_int(rest).ok_or(Invalid)?;
        let had_whole = after_whole.len() != rest.len();
        rest = after_whole;

        let (mut fraction, mut scale, mut had_fraction) = (0, 1.0, false);
        if let [b'.', after_point @ ..] = rest {
            let (f, s, after_fraction) = leading_fraction(after_point);
            had_fraction = after_fraction.len() != after_point.len();
            (fraction, scale, rest) = (f, s, after_fraction);
        }
        if !had_whole && !had_fraction {
            return Err(Invalid);
        }

        let unit_len = rest
            .iter()
            .position(|&c| c == b'.' || c.is_ascii_digit())
            .unwrap_or(rest.len());
        if unit_len == 0 {
            return Err(MissingUnit);
        }
        let (unit, after_unit) = rest.split_at(unit_len);
        rest = after_unit;
        let unit = unit_nanos(unit).ok_or_else(|| UnknownUnit(unit.to_vec()))?;

        if whole > MAX_MAGNITUDE / unit {
            return Err(Invalid);
        }
        let mut value = whole * unit;
        if fraction > 0 {
            // Go goes through float64 here (exact enough for fractions of an hour); doing
            // the same operations gives the same nanosecond for every input.
            value += (fraction as f64 * (unit as f64 / scale)) as u64;
            if value > MAX_MAGNITUDE {
                return Err(Invalid);
            }
        }
        // Go adds without an overflow check, so two terms of exactly 2^63 wrap to zero and
        // are accepted; treating that as the overflow it is costs nothing real.
        total = total
            .checked_add(value)
            .filter(|&t| t <= MAX_MAGNITUDE)
            .ok_or(Invalid)?;
    }

    if negative {
        // 2^63 becomes i64::MIN, which is its own negation.
        Ok((total as i64).wrapping_neg())
    } else {
        i64::try_from(total).map_err(|_| Invalid)
    }
}

/// Go's `leadingInt`: the leading digits as a number up to 2^63, or `None` beyond it.
fn leading_int(s: &[u8]) -> Option<(u64, &[u8])> {
    let digits = s.iter().take_while(|c| c.is_ascii_digit()).count();
    let mut x: u64 = 0;
    for &c in &s[..digits] {
        if x > MAX_MAGNITUDE / 10 {
            return None;
        }
        x = x * 10 + u64::from(c - b'0');
        if x > MAX_MAGNITUDE {
            return None;
        }
    }
    Some((x, &s[digits..]))
}

/// Go's `leadingFraction`: the leading digits as a numerator and the power of ten below it,
/// ignoring digits once more would overflow (they are below a nanosecond anyway).
fn leading_fraction(s: &[u8]) -> (u64, f64, &[u8]) {
    let digits = s.iter().take_while(|c| c.is_ascii_digit()).count();
    let (mut x, mut scale, mut overflowed) = (0u64, 1.0f64, false);
    for &c in &s[..digits] {
        if overflowed {
            continue;
        }
        if x > (MAX_MAGNITUDE - 1) / 10 {
            overflowed = true;
            continue;
        }
        let next = x * 10 + u64::from(c - b'0');
        if next > MAX_MAGNITUDE {
            overflowed = true;
            continue;
        }
        x = next;
        scale *= 10.0;
    }
    (x, scale, &s[digits..])
}

impl serde::Serialize for Duration {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

// Written by the serde impl above, compiled once here rather than per struct using it.
crate::write_json_by_serde!(Duration);

impl<'de> serde::Deserialize<'de> for Duration {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(DurationVisitor)
    }
}

/// Accepts only strings, as Go's `Duration.UnmarshalJSON` does.
struct DurationVisitor;

impl serde::de::Visitor<'_> for DurationVisitor {
    type Value = Duration;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a Go duration string such as \"1h2m3s\"")
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Duration, E> {
        v.parse().map_err(E::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const NS: i64 = 1;
    const US: i64 = 1_000;
    const MS: i64 = 1_000_000;
    const S: i64 = 1_000_000_000;
    const M: i64 = 60 * S;
    const H: i64 = 60 * M;

    fn parse(s: &str) -> i64 {
        s.parse::<Duration>()
            .unwrap_or_else(|e| panic!("{s:?} should parse: {e}"))
            .as_nanos()
    }

    #[test]
    fn formats_like_go() {
        let cases: &[(i64, &str)] = &[
            (0, "0s"),
            (NS, "1ns"),
            (999 * NS, "999ns"),
            (1100 * NS, "1.1µs"),
            (1500 * NS, "1.5µs"),
            (2200 * US, "2.2ms"),
            (300 * MS, "300ms"),
            (3300 * MS, "3.3s"),
            (S, "1s"),
            (4 * M + 5 * S, "4m5s"),
            (4 * M + 5001 * MS, "4m5.001s"),
            (5 * H + 6 * M + 7001 * MS, "5h6m7.001s"),
            (8 * M + NS, "8m0.000000001s"),
            (H, "1h0m0s"),
            (H + 2 * M + 3500 * MS, "1h2m3.5s"),
            (-2 * M, "-2m0s"),
            (-NS, "-1ns"),
            (-1500 * NS, "-1.5µs"),
            (i64::MAX, "2562047h47m16.854775807s"),
            (i64::MIN, "-2562047h47m16.854775808s"),
        ];
        for &(nanos, text) in cases {
            assert_eq!(Duration::from_nanos(nanos).to_string(), text, "{nanos}");
        }
        // The micro sign is U+00B5, not the Greek mu.
        assert_eq!(
            Duration::from_nanos(US).to_string().as_bytes(),
            b"1\xc2\xb5s"
        );
        assert_eq!(format!("{:?}", Duration::from_nanos(S)), "Duration(1s)");
        assert_eq!(format!("{:>5}", Duration::from_nanos(S)), "   1s");
    }

    #[test]
    fn parses_go_examples() {
        let cases: &[(&str, i64)] = &[
            ("0", 0),
            ("5s", 5 * S),
            ("30s", 30 * S),
            ("1478s", 1478 * S),
            ("-5s", -5 * S),
            ("+5s", 5 * S),
            ("-0", 0),
            ("+0", 0),
            ("5.0s", 5 * S),
            ("5.6s", 5 * S + 600 * MS),
            ("5.s", 5 * S),
            (".5s", 500 * MS),
            ("1.0s", S),
            ("1.00s", S),
            ("1.004s", S + 4 * MS),
            ("1.0040s", S + 4 * MS),
            ("100.00100s", 100 * S + MS),
            ("10ns", 10 * NS),
            ("11us", 11 * US),
            ("12\u{b5}s", 12 * US),
            ("12\u{3bc}s", 12 * US),
            ("13ms", 13 * MS),
            ("14s", 14 * S),
            ("15m", 15 * M),
            ("16h", 16 * H),
            ("3h30m", 3 * H + 30 * M),
            ("10.5s4m", 4 * M + 10 * S + 500 * MS),
            ("-2m3.4s", -(2 * M + 3 * S + 400 * MS)),
            (
                "1h2m3s4ms5us6ns",
                H + 2 * M + 3 * S + 4 * MS + 5 * US + 6 * NS,
            ),
            ("39h9m14.425s", 39 * H + 9 * M + 14 * S + 425 * MS),
            ("52763797000ns", 52_763_797_000),
            ("0.3333333333333333333h", 20 * M),
            ("9007199254740993ns", (1 << 53) + 1),
            ("9223372036854775807ns", i64::MAX),
            ("9223372036854775.807us", i64::MAX),
            ("9223372036s854ms775us807ns", i64::MAX),
            ("-9223372036854775808ns", i64::MIN),
            ("-9223372036854775.808us", i64::MIN),
            ("-9223372036s854ms775us808ns", i64::MIN),
            ("-2562047h47m16.854775808s", i64::MIN),
            ("0.100000000000000000000h", 6 * M),
            ("0.830103483285477580700h", 49 * M + 48 * S + 372_539_827),
            ("1h0m0s", H),
        ];
        for &(input, nanos) in cases {
            assert_eq!(parse(input), nanos, "{input}");
        }
    }

    #[test]
    fn rejects_like_go_with_gos_message() {
        // `None`: "invalid duration"; `Some("")`: "missing unit"; `Some(u)`: unknown unit `u`.
        let cases: &[(&str, Option<&str>)] = &[
            ("", None),
            ("3", Some("")),
            ("-", None),
            ("s", None),
            (".", None),
            ("-.", None),
            (".s", None),
            ("+.s", None),
            ("--1s", None),
            ("1d", Some("d")),
            ("1S", Some("S")),
            ("1 s", Some(" s")),
            ("1h 2m", Some("h ")),
            ("1s-1s", Some("s-")),
            ("00", Some("")),
            ("1.5", Some("")),
            // Overflow.
            ("9223372036854775810ns", None),
            ("9223372036854775808ns", None),
            ("-9223372036854775809ns", None),
            ("9223372036854776us", None),
            ("3000000h", None),
            ("9223372036854775.808us", None),
            ("9223372036854ms775us808ns", None),
            ("99999999999999999999ns", None),
            // Go wraps this sum to zero and accepts it; it is an overflow here.
            ("9223372036854775808ns9223372036854775808ns", None),
        ];
        for &(input, unit) in cases {
            let expected = match unit {
                None => format!("time: invalid duration {input:?}"),
                Some("") => format!("time: missing unit in duration {input:?}"),
                Some(unit) => format!("time: unknown unit {unit:?} in duration {input:?}"),
            };
            let err = input.parse::<Duration>().unwrap_err();
            assert_eq!(err.to_string(), expected, "{input:?}");
            assert_eq!(err.input, input);
        }
        // Go's quoting of bytes outside printable ASCII.
        let err = "1\u{fffd}\"".parse::<Duration>().unwrap_err();
        assert_eq!(
            err.to_string(),
            r#"time: unknown unit "\xef\xbf\xbd\"" in duration "1\xef\xbf\xbd\"""#
        );
        let err = "\u{fffd}".parse::<Duration>().unwrap_err();
        assert_eq!(err.to_string(), r#"time: invalid duration "\xef\xbf\xbd""#);
    }

    #[test]
    fn std_conversions() {
        let d = Duration::from(std::time::Duration::new(2, 5));
        assert_eq!(d.as_nanos(), 2 * S + 5);
        assert_eq!(
            std::time::Duration::try_from(d),
            Ok(std::time::Duration::new(2, 5))
        );
        assert_eq!(
            Duration::from(std::time::Duration::MAX).as_nanos(),
            i64::MAX
        );
        let negative = Duration::from_nanos(-1);
        assert_eq!(
            std::time::Duration::try_from(negative),
            Err(NegativeDurationError { duration: negative })
        );
        assert_eq!(
            NegativeDurationError { duration: negative }.to_string(),
            "duration -1ns is negative and has no std::time::Duration form"
        );
        assert_eq!(
            std::time::Duration::try_from(Duration::default()),
            Ok(std::time::Duration::ZERO)
        );
    }

    #[test]
    fn json_is_a_go_duration_string() {
        let d = Duration::from_nanos(H + 2 * M + 3500 * MS);
        assert_eq!(serde_json::to_string(&d).unwrap(), r#""1h2m3.5s""#);
        assert_eq!(
            serde_json::from_str::<Duration>(r#""1h2m3.5s""#).unwrap(),
            d
        );
        assert_eq!(
            serde_json::from_str::<Duration>(r#""-0""#).unwrap(),
            Duration::default()
        );
        // Go hands null to ParseDuration as "", which fails.
        assert!(serde_json::from_str::<Duration>("null").is_err());
        assert!(serde_json::from_str::<Duration>("5").is_err());
        let err = serde_json::from_str::<Duration>(r#""1d""#)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(r#"time: unknown unit "d" in duration "1d""#),
            "{err}"
        );
        let absent: Option<Duration> = serde_json::from_str("null").unwrap();
        assert_eq!(absent, None);
    }

    #[test]
    fn ordering_follows_nanos() {
        assert!(Duration::from_nanos(-1) < Duration::default());
        assert!(Duration::from_nanos(i64::MIN) < Duration::from_nanos(i64::MAX));
    }

    proptest! {
        #[test]
        fn parse_inverts_format(nanos in any::<i64>()) {
            let d = Duration::from_nanos(nanos);
            prop_assert_eq!(d.to_string().parse::<Duration>(), Ok(d));
            let json = serde_json::to_string(&d).unwrap();
            prop_assert_eq!(serde_json::from_str::<Duration>(&json).unwrap(), d);
        }

        #[test]
        fn parsing_arbitrary_strings_never_panics(s in any::<String>()) {
            let _ = s.parse::<Duration>();
        }

        #[test]
        fn parsing_near_misses_never_panics(
            s in "[+-]?([0-9]{0,22}(\\.[0-9]{0,25})?(ns|us|µs|μs|ms|s|m|h|d|)){1,4}"
        ) {
            // Whatever is accepted is written back in a form that reads as the same value.
            if let Ok(d) = s.parse::<Duration>() {
                prop_assert_eq!(d.to_string().parse::<Duration>(), Ok(d));
            }
        }
    }
}
