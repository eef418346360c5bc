//! [`MicroTime`]: an instant written on the wire with exactly six fractional digits (Go's
//! `metav1.MicroTime`).

use std::fmt::{self, Write as _};
use std::time::SystemTime;

use super::time::{Fraction, Layout, Time, TimeParseError, TimeVisitor, parse_layout};

/// An instant whose JSON form keeps microseconds: Go's `RFC3339Micro` layout
/// (`2006-01-02T15:04:05.000000Z07:00`) written in UTC, so always six fractional digits
/// and `Z`. Events (`eventTime`) and leases (`acquireTime`, `renewTime`) use it where
/// whole seconds are too coarse.
///
/// It shares [`Time`]'s model: the zero value is Go's zero time (`0001-01-01T00:00:00Z`),
/// written as `null`. The value keeps nanoseconds (protobuf carries them), while JSON
/// truncates to microseconds; [`truncate_to_micros`](MicroTime::truncate_to_micros) gives
/// what a JSON round trip leaves.
///
/// ```
/// use apimachinery::apis::meta::v1::MicroTime;
///
/// let t = MicroTime::from_unix(894_344_705, 5_050);
/// assert_eq!(t.to_rfc3339(), "1998-05-05T05:05:05.000005Z");
/// assert_eq!(serde_json::to_string(&t).unwrap(), r#""1998-05-05T05:05:05.000005Z""#);
///
/// // Go's parser insists on exactly six digits here.
/// assert!(MicroTime::parse_rfc3339("1998-05-05T05:05:05Z").is_err());
/// let back: MicroTime = serde_json::from_str(r#""1998-05-05T06:05:05.000005+01:00""#).unwrap();
/// assert_eq!(back, t.truncate_to_micros());
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MicroTime(Time);

impl MicroTime {
    /// Go's zero time (`0001-01-01T00:00:00Z`), the value that means "unset".
    pub const ZERO: MicroTime = MicroTime(Time::ZERO);

    /// The instant `secs` seconds and `nanos` nanoseconds after the Unix epoch, with the
    /// same normalisation and clamping as [`Time::from_unix`].
    pub fn from_unix(secs: i64, nanos: u32) -> MicroTime {
        MicroTime(Time::from_unix(secs, nanos))
    }

    /// Whole seconds since the Unix epoch, rounded down (negative before 1970).
    pub fn unix_seconds(&self) -> i64 {
        self.0.unix_seconds()
    }

    /// Nanoseconds past [`unix_seconds`](MicroTime::unix_seconds), in `0..1_000_000_000`.
    pub fn nanos(&self) -> u32 {
        self.0.nanos()
    }

    /// Whether this is Go's zero time, which the wire formats treat as "unset" (`null`).
    pub fn is_zero(&self) -> bool {
        self.0.is_zero()
    }

    /// The current instant from the system clock, with full precision (JSON keeps only
    /// the microseconds of it).
    pub fn now() -> MicroTime {
        MicroTime(Time::now())
    }

    /// The same instant without its sub-microsecond part: what a JSON round trip leaves.
    pub fn truncate_to_micros(&self) -> MicroTime {
        MicroTime::from_unix(self.unix_seconds(), self.nanos() / 1000 * 1000)
    }

    /// Parses `s` exactly as Go's `time.Parse(metav1.RFC3339Micro, s)` does, which is what
    /// `metav1.MicroTime` accepts in JSON, and converts it to UTC.
    ///
    /// Unlike [`Time::parse_rfc3339`], the fraction is required and has exactly six digits
    /// (after `.` or `,`); otherwise it has the same leniencies (one-digit hour, offsets up
    /// to `±24:60`) and strictness (upper-case `T` and `Z`, four-digit year).
    pub fn parse_rfc3339(s: &str) -> Result<MicroTime, TimeParseError> {
        parse_layout(s, Layout::Rfc3339Micro).map(MicroTime)
    }

    /// Go's `t.UTC().Format(metav1.RFC3339Micro)`: `2006-01-02T15:04:05.000000Z`, the
    /// fraction truncated to microseconds.
    ///
    /// Years outside `0..=9999` are written as Go writes them (`-0001`, `10000`), which no
    /// parser reads back; serialisation refuses them instead.
    pub fn to_rfc3339(&self) -> String {
        let mut s = String::with_capacity(27);
        // Writing into a String cannot fail.
        let _ = self.0.write_utc(&mut s, Fraction::Micros);
        s
    }
}

impl From<Time> for MicroTime {
    fn from(t: Time) -> MicroTime {
        MicroTime(t)
    }
}

impl From<MicroTime> for Time {
    /// The same instant, nanoseconds included (Go compares the two types this way in
    /// `MicroTime.EqualTime`).
    fn from(t: MicroTime) -> Time {
        t.0
    }
}

impl From<SystemTime> for MicroTime {
    /// Instants beyond the representable range are clamped, as for [`Time`].
    fn from(t: SystemTime) -> MicroTime {
        MicroTime(Time::from(t))
    }
}

impl TryFrom<MicroTime> for SystemTime {
    type Error = super::SystemTimeRangeError;

    fn try_from(t: MicroTime) -> Result<SystemTime, Self::Error> {
        SystemTime::try_from(t.0)
    }
}

impl fmt::Display for MicroTime {
    /// RFC 3339 with six fractional digits, the same text as the JSON form (but the zero
    /// time is written out rather than as `null`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.write_utc(f, Fraction::Micros)
    }
}

impl fmt::Debug for MicroTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("MicroTime(")?;
        self.0.write_utc(f, Fraction::TrimmedNanos)?;
        f.write_char(')')
    }
}

impl serde::Serialize for MicroTime {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0
            .serialize_as(serializer, Fraction::Micros, "metav1.MicroTime")
    }
}

/// The serde impl's text, written straight into the output.
impl crate::util::json::WriteJson for MicroTime {
    fn write_json(
        &self,
        writer: &mut crate::util::json::GoJsonWriter<'_>,
    ) -> Result<(), serde_json::Error> {
        self.0
            .write_json_as(writer, Fraction::Micros, "metav1.MicroTime")
    }
}

impl<'de> serde::Deserialize<'de> for MicroTime {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer
            .deserialize_option(TimeVisitor(Layout::Rfc3339Micro))
            .map(MicroTime)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn parse(s: &str) -> MicroTime {
        MicroTime::parse_rfc3339(s).unwrap_or_else(|e| panic!("{s:?} should parse: {e}"))
    }

    fn parse_err(s: &str) -> String {
        match MicroTime::parse_rfc3339(s) {
            Ok(t) => panic!("{s:?} should not parse, got {t:?}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn formats_go_examples() {
        let cases: &[(i64, u32, &str)] = &[
            (894_344_705, 0, "1998-05-05T05:05:05.000000Z"),
            (894_344_705, 50, "1998-05-05T05:05:05.000000Z"),
            (894_344_705, 5_050, "1998-05-05T05:05:05.000005Z"),
            (123, 123_123_123, "1970-01-01T00:02:03.123123Z"),
            (-1, 999_999_999, "1969-12-31T23:59:59.999999Z"),
        ];
        for &(secs, nanos, text) in cases {
            let t = MicroTime::from_unix(secs, nanos);
            assert_eq!(t.to_rfc3339(), text);
            assert_eq!(t.to_string(), text);
            assert_eq!(serde_json::to_string(&t).unwrap(), format!("\"{text}\""));
        }
        assert_eq!(
            format!("{:?}", MicroTime::from_unix(0, 1)),
            "MicroTime(1970-01-01T00:00:00.000000001Z)"
        );
    }

    #[test]
    fn parses_exactly_six_digits() {
        let cases: &[(&str, i64, u32)] = &[
            ("1998-05-05T05:05:05.000000Z", 894_344_705, 0),
            ("1998-05-05T05:05:05.123456Z", 894_344_705, 123_456_000),
            ("1998-05-05T05:05:05,123456Z", 894_344_705, 123_456_000),
            ("1998-05-05T10:35:05.000001+05:30", 894_344_705, 1_000),
            ("1969-12-31T23:59:59.999999Z", -1, 999_999_000),
            ("1998-05-05T5:05:05.000000Z", 894_344_705, 0),
            // Go reads the six bytes with its signed atoi: "+12345" is 12345 and "-00000"
            // is zero.
            ("1998-05-05T05:05:05.+12345Z", 894_344_705, 12_345_000),
            ("1998-05-05T05:05:05.-00000Z", 894_344_705, 0),
        ];
        for &(input, secs, nanos) in cases {
            let t = parse(input);
            assert_eq!((t.unix_seconds(), t.nanos()), (secs, nanos), "{input}");
        }
        assert!(parse("0001-01-01T00:00:00.000000Z").is_zero());
    }

    #[test]
    fn rejects_what_go_rejects_with_gos_message() {
        use crate::apis::meta::v1::time::tests::{Want::*, go_message};
        let cases = [
            ("hello", Cannot("hello", "2006")),
            ("", Cannot("", "2006")),
            ("1998-05-05T05:05:05Z", Cannot("Z", ".000000")),
            ("1998-05-05T05:05:05+01:00", Cannot("+01:00", ".000000")),
            ("1998-05-05T05:05:05.123Z", Cannot(".123Z", ".000000")),
            ("1998-05-05T05:05:05.1234567Z", Cannot("7Z", "Z07:00")),
            (
                "1998-05-05T05:05:05.123456789+01:00",
                Cannot("789+01:00", "Z07:00"),
            ),
            ("1998-05-05T05:05:05:123456Z", Cannot(":123456Z", ".000000")),
            ("1998-05-05T05:05:05.12a456Z", Cannot(".12a456Z", ".000000")),
            ("1998-05-05T05:05:05.123456z", Cannot("z", "Z07:00")),
            ("1998-05-05T05:05:05.-00001Z", Range("fractional second")),
            ("1998-02-29T05:05:05.000000Z", Range("day")),
            ("1998-05-05T05:05:05.000000Zz", Extra("z")),
        ];
        for (input, want) in &cases {
            let expected = go_message(input, "2006-01-02T15:04:05.000000Z07:00", want);
            assert_eq!(parse_err(input), expected, "{input:?}");
        }
        let e = MicroTime::parse_rfc3339("x").unwrap_err();
        assert_eq!(e.layout(), "2006-01-02T15:04:05.000000Z07:00");
    }

    #[test]
    fn json_null_and_errors() {
        assert_eq!(serde_json::to_string(&MicroTime::ZERO).unwrap(), "null");
        assert!(serde_json::from_str::<MicroTime>("null").unwrap().is_zero());
        assert!(serde_json::from_str::<MicroTime>("\"\"").is_err());
        assert!(serde_json::from_str::<MicroTime>("1").is_err());
        let far = MicroTime::from_unix(253_402_300_800, 0);
        assert!(serde_json::to_string(&far).is_err());
    }

    #[test]
    fn converts_to_and_from_time() {
        let t = Time::from_unix(5, 123_456_789);
        let m = MicroTime::from(t);
        assert_eq!(Time::from(m), t);
        assert_eq!(m.truncate_to_micros(), MicroTime::from_unix(5, 123_456_000));
        assert_eq!(MicroTime::default(), MicroTime::ZERO);
        assert!(!MicroTime::from_unix(0, 0).is_zero());
        let st = SystemTime::try_from(m).unwrap();
        assert_eq!(MicroTime::from(st), m);
        assert!(MicroTime::now() > m);
    }

    proptest! {
        #[test]
        fn parse_inverts_format(
            secs in -62_135_596_800_i64..=253_402_300_799,
            micros in 0_u32..1_000_000,
        ) {
            let t = MicroTime::from_unix(secs, micros * 1000);
            prop_assert_eq!(MicroTime::parse_rfc3339(&t.to_rfc3339()), Ok(t));
            let json = serde_json::to_string(&t).unwrap();
            prop_assert_eq!(serde_json::from_str::<MicroTime>(&json).unwrap(), t);
        }

        #[test]
        fn parsing_arbitrary_strings_never_panics(s in any::<String>()) {
            let _ = MicroTime::parse_rfc3339(&s);
        }

        #[test]
        fn parsing_near_misses_never_panics(
            s in concat!(
                "[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{1,2}:[0-9]{2}:[0-9]{2}",
                "[.,:]?[0-9é+-]{0,8}(Z|[+-][0-9]{2}:[0-9]{2})?",
            )
        ) {
            if let Ok(t) = MicroTime::parse_rfc3339(&s) {
                prop_assert_eq!(MicroTime::parse_rfc3339(&t.to_rfc3339()), Ok(t));
            }
        }
    }
}
