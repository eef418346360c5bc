//! [`Time`]: an instant written on the wire as RFC 3339 with whole seconds (Go's
//! `metav1.Time`), and the calendar and parsing machinery [`MicroTime`](super::MicroTime)
//! shares with it.

use std::fmt::{self, Write as _};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::util::json::{GoJsonWriter, WriteJson};

/// Nanoseconds in a second.
pub(crate) const NANOS_PER_SEC: u32 = 1_000_000_000;
/// Seconds in a day; the wire formats know nothing of leap seconds.
const SECS_PER_DAY: i64 = 86_400;
/// Seconds from 0001-01-01T00:00:00Z (Go's zero time) to the Unix epoch.
const YEAR_ONE_TO_UNIX: i64 = 62_135_596_800;
/// Days from 0000-01-01 (the origin of [`days_before_year`]) to 1970-01-01.
const DAYS_YEAR_ZERO_TO_UNIX: i64 = 719_528;

/// An instant with nanosecond precision whose JSON form is RFC 3339 in UTC with whole
/// seconds, the type of `creationTimestamp`, `deletionTimestamp` and most other timestamps
/// in Kubernetes objects.
///
/// Go's zero `time.Time` is the instant `0001-01-01T00:00:00Z`, not the Unix epoch, and
/// `metav1.Time` treats it as "unset": it is written as JSON `null` and `null` reads back as
/// it. This type keeps that model so that values survive a round trip through Go unchanged:
/// [`Time::default`] is that instant, [`is_zero`](Time::is_zero) is true for it alone, and
/// ordering puts it after every year-0 instant and before everything later.
///
/// Reading keeps the nanoseconds the string carries (as Go does in memory), but writing
/// truncates to whole seconds, so a value read with fractions does not compare equal to what
/// it reads back as after a write; use [`truncate_to_seconds`](Time::truncate_to_seconds)
/// before comparing when that matters.
///
/// ```
/// use apimachinery::apis::meta::v1::Time;
///
/// let t = Time::parse_rfc3339("2021-03-04T10:30:00.25+05:30")?;
/// assert_eq!(t.unix_seconds(), 1_614_834_000);
/// assert_eq!(t.nanos(), 250_000_000);
/// assert_eq!(serde_json::to_string(&t).unwrap(), r#""2021-03-04T05:00:00Z""#);
///
/// let unset: Time = serde_json::from_str("null").unwrap();
/// assert!(unset.is_zero());
/// assert_eq!(serde_json::to_string(&unset).unwrap(), "null");
/// assert!(!Time::from_unix(0, 0).is_zero());
/// # Ok::<(), apimachinery::apis::meta::v1::TimeParseError>(())
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Time {
    /// Seconds since 0001-01-01T00:00:00Z, so that the derived `Default` is Go's zero time
    /// and the derived ordering is chronological.
    since_year_one: i64,
    /// Nanoseconds past `since_year_one`, always below one second.
    nanos: u32,
}

impl Time {
    /// Go's zero time (`0001-01-01T00:00:00Z`), the value that means "unset".
    pub const ZERO: Time = Time {
        since_year_one: 0,
        nanos: 0,
    };

    /// The instant `secs` seconds and `nanos` nanoseconds after the Unix epoch; nanoseconds
    /// of a second or more carry into the seconds, as Go's `time.Unix` does.
    ///
    /// Instants more than about 292 billion years after the epoch cannot be represented and
    /// are clamped to the latest representable second.
    pub fn from_unix(secs: i64, nanos: u32) -> Time {
        let secs = secs.saturating_add(i64::from(nanos / NANOS_PER_SEC));
        Time {
            since_year_one: secs.saturating_add(YEAR_ONE_TO_UNIX),
            nanos: nanos % NANOS_PER_SEC,
        }
    }

    /// Whole seconds since the Unix epoch, rounded down (negative before 1970), as Go's
    /// `Time.Unix()`; the zero time gives `-62135596800`.
    pub fn unix_seconds(&self) -> i64 {
        self.since_year_one.saturating_sub(YEAR_ONE_TO_UNIX)
    }

    /// Nanoseconds past [`unix_seconds`](Time::unix_seconds), in `0..1_000_000_000`.
    pub fn nanos(&self) -> u32 {
        self.nanos
    }

    /// Whether this is Go's zero time, which the wire formats treat as "unset" (`null`).
    pub fn is_zero(&self) -> bool {
        *self == Time::ZERO
    }

    /// The current instant from the system clock.
    pub fn now() -> Time {
        Time::from(SystemTime::now())
    }

    /// The same instant without its fraction of a second: what a JSON round trip leaves
    /// (Go's `Rfc3339Copy`).
    pub fn truncate_to_seconds(&self) -> Time {
        Time {
            since_year_one: self.since_year_one,
            nanos: 0,
        }
    }

    /// Parses `s` exactly as Go's `time.Parse(time.RFC3339, s)` does, which is what
    /// `metav1.Time` accepts in JSON, and converts it to UTC.
    ///
    /// That is more lenient than RFC 3339 in ways Go clients rely on: the hour may have one
    /// digit, the fraction may use `,`, have any number of digits (beyond nine they are
    /// truncated) or be absent, and an offset may be up to `±24:60`. It is stricter in
    /// others: `T` and `Z` must be upper case, the year must have exactly four digits,
    /// and the empty string is an error.
    pub fn parse_rfc3339(s: &str) -> Result<Time, TimeParseError> {
        parse_layout(s, Layout::Rfc3339)
    }

    /// Go's `t.UTC().Format(time.RFC3339)`: `2006-01-02T15:04:05Z`, fraction dropped.
    ///
    /// Years outside `0..=9999` are written as Go writes them (`-0001`, `10000`), which no
    /// RFC 3339 parser reads back; serialisation refuses them instead.
    pub fn to_rfc3339(&self) -> String {
        let mut s = String::with_capacity(20);
        // Writing into a String cannot fail.
        let _ = self.write_utc(&mut s, Fraction::None);
        s
    }

    /// The UTC calendar fields of this instant.
    pub(crate) fn civil(&self) -> Civil {
        let unix = self.unix_seconds();
        let (year, month, day) = civil_from_days(unix.div_euclid(SECS_PER_DAY));
        let of_day = unix.rem_euclid(SECS_PER_DAY);
        Civil {
            year,
            month,
            day,
            // `of_day` is below 86_400, so these fit.
            hour: (of_day / 3600) as u32,
            minute: (of_day / 60 % 60) as u32,
            second: (of_day % 60) as u32,
        }
    }

    /// Writes the instant in UTC as `YYYY-MM-DDThh:mm:ss`, the fraction asked for and `Z`.
    pub(crate) fn write_utc<W: fmt::Write>(&self, out: &mut W, fraction: Fraction) -> fmt::Result {
        self.write_civil(out, &self.civil(), fraction)
    }

    /// [`write_utc`](Self::write_utc) of the instant's civil form `c`. The digits are
    /// written by hand: every timestamp of every object encoded goes through here, and
    /// `write!` with padded integers cost several times the rest of the timestamp.
    fn write_civil<W: fmt::Write>(
        &self,
        out: &mut W,
        c: &Civil,
        fraction: Fraction,
    ) -> fmt::Result {
        if c.year < 0 {
            out.write_char('-')?;
        }
        let year = c.year.unsigned_abs();
        if year > 9999 {
            write!(out, "{year}")?;
        } else {
            // Below 10_000, so it fits.
            out.write_str(digits::<4>(year as u32).as_str())?;
        }
        let mut rest = *b"-00-00T00:00:00";
        for (at, value) in [
            (1, c.month),
            (4, c.day),
            (7, c.hour),
            (10, c.minute),
            (13, c.second),
        ] {
            // Each is below 100.
            rest[at] = b'0' + (value / 10 % 10) as u8;
            rest[at + 1] = b'0' + (value % 10) as u8;
        }
        out.write_str(std::str::from_utf8(&rest).map_err(|_| fmt::Error)?)?;
        match fraction {
            Fraction::None => {}
            Fraction::Micros => {
                out.write_char('.')?;
                out.write_str(digits::<6>(self.nanos / 1000).as_str())?;
            }
            Fraction::TrimmedNanos => {
                if self.nanos != 0 {
                    let digits = format!("{:09}", self.nanos);
                    write!(out, ".{}", digits.trim_end_matches('0'))?;
                }
            }
        }
        out.write_char('Z')
    }

    /// Serialises as Go's `MarshalJSON` does: `null` for the zero time, otherwise the
    /// string with the given fraction. Years outside `0..=9999` are refused because their
    /// text is not RFC 3339 and no Go or Rust client could read it back.
    pub(crate) fn serialize_as<S: serde::Serializer>(
        &self,
        serializer: S,
        fraction: Fraction,
        type_name: &str,
    ) -> Result<S::Ok, S::Error> {
        match self.json_text(fraction, type_name)? {
            Some(text) => serializer.serialize_str(text.as_str()),
            None => serializer.serialize_none(),
        }
    }

    /// What [`serialize_as`](Self::serialize_as) writes, written straight by a
    /// [`GoJsonWriter`] (the text needs no escapes).
    pub(crate) fn write_json_as(
        &self,
        writer: &mut GoJsonWriter<'_>,
        fraction: Fraction,
        type_name: &str,
    ) -> Result<(), serde_json::Error> {
        match self.json_text(fraction, type_name)? {
            Some(text) => writer.unescaped_string(|out| out.extend_from_slice(text.as_bytes())),
            None => writer.null(),
        }
        Ok(())
    }

    /// The JSON text of the instant, `None` for the zero time (`null`); years outside
    /// `0..=9999` are an error.
    fn json_text<E: serde::ser::Error>(
        &self,
        fraction: Fraction,
        type_name: &str,
    ) -> Result<Option<Rfc3339>, E> {
        if self.is_zero() {
            return Ok(None);
        }
        let c = self.civil();
        match Rfc3339::new(&c, self.nanos, fraction) {
            Some(text) => Ok(Some(text)),
            None => Err(E::custom(format_args!(
                "{type_name}: year {} is outside of range [0,9999] and has no RFC 3339 form",
                c.year
            ))),
        }
    }
}

/// The RFC 3339 text of an instant of a year in `0..=9999`, built in place: what
/// [`Time::write_civil`] writes for such years, without `fmt` (every timestamp of every
/// object encoded is written through here). At most `9999-12-31T23:59:59.999999999Z`,
/// 30 bytes.
pub(crate) struct Rfc3339 {
    bytes: [u8; 30],
    len: usize,
}

impl Rfc3339 {
    /// `None` when the year is outside `0..=9999`.
    fn new(c: &Civil, nanos: u32, fraction: Fraction) -> Option<Rfc3339> {
        let year = u32::try_from(c.year).ok().filter(|y| *y <= 9999)?;
        let mut bytes = *b"0000-00-00T00:00:00.000000000Z";
        let two = |value: u32| [b'0' + (value / 10 % 10) as u8, b'0' + (value % 10) as u8];
        let [y0, y1] = two(year / 100);
        let [y2, y3] = two(year % 100);
        let [mo0, mo1] = two(c.month);
        let [d0, d1] = two(c.day);
        let [h0, h1] = two(c.hour);
        let [mi0, mi1] = two(c.minute);
        let [s0, s1] = two(c.second);
        bytes[..4].copy_from_slice(&[y0, y1, y2, y3]);
        bytes[5..7].copy_from_slice(&[mo0, mo1]);
        bytes[8..10].copy_from_slice(&[d0, d1]);
        bytes[11..13].copy_from_slice(&[h0, h1]);
        bytes[14..16].copy_from_slice(&[mi0, mi1]);
        bytes[17..19].copy_from_slice(&[s0, s1]);
        // The fraction's digits, from the last; `digits` of them are kept.
        let (mut value, digits) = match fraction {
            Fraction::None => (0, 0),
            Fraction::Micros => (nanos / 1000, 6),
            Fraction::TrimmedNanos => {
                let mut value = nanos;
                let mut digits = 9;
                while digits > 0 && value % 10 == 0 {
                    value /= 10;
                    digits -= 1;
                }
                (value, digits)
            }
        };
        let mut at = 20 + digits;
        while at > 20 {
            at -= 1;
            if let Some(digit) = bytes.get_mut(at) {
                *digit = b'0' + (value % 10) as u8;
            }
            value /= 10;
        }
        let len = if digits == 0 { 19 } else { 20 + digits };
        if let Some(z) = bytes.get_mut(len) {
            *z = b'Z';
        }
        Some(Rfc3339 {
            bytes,
            len: len + 1,
        })
    }

    fn as_bytes(&self) -> &[u8] {
        self.bytes.get(..self.len).unwrap_or_default()
    }

    fn as_str(&self) -> &str {
        // ASCII only.
        std::str::from_utf8(self.as_bytes()).unwrap_or_default()
    }
}

/// The last `N` decimal digits of `value`, zero-padded (`value` has at most `N`).
struct Digits<const N: usize>([u8; N]);

impl<const N: usize> Digits<N> {
    fn as_str(&self) -> &str {
        // ASCII digits only.
        std::str::from_utf8(&self.0).unwrap_or_default()
    }
}

fn digits<const N: usize>(mut value: u32) -> Digits<N> {
    let mut out = [b'0'; N];
    for d in out.iter_mut().rev() {
        *d = b'0' + (value % 10) as u8;
        value /= 10;
    }
    Digits(out)
}

/// How many fractional-second digits [`Time::write_utc`] writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fraction {
    /// None: Go's `RFC3339`.
    None,
    /// Exactly six, truncated: Go's `RFC3339Micro`.
    Micros,
    /// Up to nine with trailing zeros removed: Go's `RFC3339Nano`, for debugging output.
    TrimmedNanos,
}

/// The UTC calendar date and clock of an instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Civil {
    pub(crate) year: i64,
    pub(crate) month: u32,
    pub(crate) day: u32,
    pub(crate) hour: u32,
    pub(crate) minute: u32,
    pub(crate) second: u32,
}

impl fmt::Display for Time {
    /// RFC 3339 with whole seconds, the same text as the JSON form (but the zero time is
    /// written as `0001-01-01T00:00:00Z` rather than `null`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_utc(f, Fraction::None)
    }
}

impl fmt::Debug for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Time(")?;
        self.write_utc(f, Fraction::TrimmedNanos)?;
        f.write_char(')')
    }
}

impl From<SystemTime> for Time {
    /// Instants beyond [`Time`]'s range (hundreds of billions of years away) are clamped.
    fn from(t: SystemTime) -> Time {
        match t.duration_since(UNIX_EPOCH) {
            Ok(after) => Time::from_unix(
                i64::try_from(after.as_secs()).unwrap_or(i64::MAX),
                after.subsec_nanos(),
            ),
            Err(before) => {
                let before = before.duration();
                let secs = i64::try_from(before.as_secs()).unwrap_or(i64::MAX);
                match before.subsec_nanos() {
                    0 => Time::from_unix(secs.saturating_neg(), 0),
                    n => Time::from_unix((-secs).saturating_sub(1), NANOS_PER_SEC - n),
                }
            }
        }
    }
}

impl TryFrom<Time> for SystemTime {
    type Error = SystemTimeRangeError;

    /// The zero time converts too (to year 1); check [`Time::is_zero`] first if "unset"
    /// must not become an instant.
    fn try_from(t: Time) -> Result<SystemTime, SystemTimeRangeError> {
        let secs = t.unix_seconds();
        let converted = if secs >= 0 {
            UNIX_EPOCH.checked_add(std::time::Duration::new(secs.unsigned_abs(), t.nanos))
        } else {
            UNIX_EPOCH
                .checked_sub(std::time::Duration::from_secs(secs.unsigned_abs()))
                .and_then(|s| s.checked_add(std::time::Duration::from_nanos(u64::from(t.nanos))))
        };
        converted.ok_or(SystemTimeRangeError { time: t })
    }
}

/// A [`Time`] that the platform's [`SystemTime`] cannot represent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{time:?} is outside the range of std::time::SystemTime on this platform")]
pub struct SystemTimeRangeError {
    /// The instant that could not be converted.
    pub time: Time,
}

impl serde::Serialize for Time {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.serialize_as(serializer, Fraction::None, "metav1.Time")
    }
}

/// The serde impl's text, written straight into the output.
impl WriteJson for Time {
    fn write_json(&self, writer: &mut GoJsonWriter<'_>) -> Result<(), serde_json::Error> {
        self.write_json_as(writer, Fraction::None, "metav1.Time")
    }
}

impl<'de> serde::Deserialize<'de> for Time {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_option(TimeVisitor(Layout::Rfc3339))
    }
}

/// Reads `null` as the zero time and a string as a time in the visitor's layout, as Go's
/// `UnmarshalJSON` for `Time` and `MicroTime` do; anything else is an error.
pub(crate) struct TimeVisitor(pub(crate) Layout);

impl<'de> serde::de::Visitor<'de> for TimeVisitor {
    type Value = Time;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "null or a time string in Go's layout {:?}",
            self.0.go_layout()
        )
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<Time, E> {
        Ok(Time::ZERO)
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Time, E> {
        Ok(Time::ZERO)
    }

    fn visit_some<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Time, D::Error> {
        deserializer.deserialize_str(self)
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Time, E> {
        parse_layout(v, self.0).map_err(E::custom)
    }
}

// ---------------------------------------------------------------------------------------
// Proleptic Gregorian calendar arithmetic, on i64 so that any `Time` can be formatted.

fn is_leap(year: i64) -> bool {
    year.rem_euclid(4) == 0 && (year.rem_euclid(100) != 0 || year.rem_euclid(400) == 0)
}

/// Days in `month` (1-12) of `year`.
fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days from 0000-01-01 to January 1st of `year`: 365 a year plus one for every leap
/// year in between (year 0 itself is a leap year).
fn days_before_year(year: i64) -> i64 {
    let prior = year - 1;
    365 * year + prior.div_euclid(4) - prior.div_euclid(100) + prior.div_euclid(400) + 1
}

/// Days from 1970-01-01 to the given date; `month` and `day` must be valid for `year`.
fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let before_month: u32 = (1..month).map(|m| days_in_month(year, m)).sum();
    days_before_year(year) + i64::from(before_month) + i64::from(day) - 1 - DAYS_YEAR_ZERO_TO_UNIX
}

/// The date `days` after 1970-01-01 (before it when negative), in constant time (Howard
/// Hinnant's `civil_from_days`): every timestamp written goes through here. Years are
/// counted from March 1st, so that the leap day ends a year; `era`s are the 400-year
/// cycles of 146,097 days.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    // Days from 0000-03-01.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z - era * 146_097; // [0, 146096]
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365; // [0, 399]
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100); // [0, 365]
    let march_month = (5 * day_of_year + 2) / 153; // [0, 11], March is 0
    // Each is small and non-negative, so these fit.
    let day = (day_of_year - (153 * march_month + 2) / 5 + 1) as u32;
    let month = if march_month < 10 {
        march_month + 3
    } else {
        march_month - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

// ---------------------------------------------------------------------------------------
// Go's time.Parse, specialised to the two layouts metav1 uses.

/// A Go layout that `metav1` parses times with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Layout {
    /// `time.RFC3339`, used by `Time`.
    Rfc3339,
    /// `metav1.RFC3339Micro`, used by `MicroTime`.
    Rfc3339Micro,
}

impl Layout {
    /// The layout string as Go spells it, which its error messages quote.
    pub(crate) const fn go_layout(self) -> &'static str {
        match self {
            Layout::Rfc3339 => "2006-01-02T15:04:05Z07:00",
            Layout::Rfc3339Micro => "2006-01-02T15:04:05.000000Z07:00",
        }
    }
}

/// A string that Go's `time.Parse` rejects for `metav1.Time` or `metav1.MicroTime`.
///
/// The message is the one Go gives, e.g. `parsing time "2006-13-02T15:04:05Z": month out
/// of range`, so that errors reported to clients read the same as from a Go server.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct TimeParseError {
    /// The string that failed to parse.
    pub input: String,
    layout: Layout,
    problem: Problem,
}

impl TimeParseError {
    /// The Go layout the input was parsed against, such as `2006-01-02T15:04:05Z07:00`.
    pub fn layout(&self) -> &'static str {
        self.layout.go_layout()
    }
}

impl fmt::Display for TimeParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "parsing time {}", GoQuoted(self.input.as_bytes()))?;
        match &self.problem {
            Problem::CannotParse { value, element } => write!(
                f,
                " as {}: cannot parse {} as {}",
                GoQuoted(self.layout.go_layout().as_bytes()),
                GoQuoted(value),
                GoQuoted(element.as_bytes())
            ),
            Problem::OutOfRange(field) => write!(f, ": {field} out of range"),
            Problem::ExtraText(text) => write!(f, ": extra text: {}", GoQuoted(text)),
        }
    }
}

/// What is wrong with a time string.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Problem {
    /// The text at `value` does not match the layout element `element`.
    CannotParse {
        value: Vec<u8>,
        element: &'static str,
    },
    /// A field parsed but its value is impossible (`month`, `day`, `hour`, ...).
    OutOfRange(&'static str),
    /// Text follows a complete time.
    ExtraText(Vec<u8>),
}

/// Go's `time.Parse(layout, s)` for the layouts `metav1` uses, converted to UTC.
///
/// Go first tries a strict RFC 3339 fast path and falls back to its general layout parser;
/// everything the fast path accepts the general parser accepts too, with the same result,
/// so this follows the general parser only.
pub(crate) fn parse_layout(s: &str, layout: Layout) -> Result<Time, TimeParseError> {
    parse_fields(s.as_bytes(), layout).map_err(|problem| TimeParseError {
        input: s.to_owned(),
        layout,
        problem,
    })
}

fn parse_fields(value: &[u8], layout: Layout) -> Result<Time, Problem> {
    let cannot = |value: &[u8], element: &'static str| Problem::CannotParse {
        value: value.to_vec(),
        element,
    };
    let out_of_range = Problem::OutOfRange;

    // "2006": exactly four digits; Go rejects a leading sign here.
    let (year, rest) = match value {
        [a, b, c, d, rest @ ..] if [a, b, c, d].iter().all(|x| x.is_ascii_digit()) => {
            (i64::from(digit_value(&[*a, *b, *c, *d])), rest)
        }
        _ => return Err(cannot(value, "2006")),
    };

    let rest = skip_literal(rest, b'-').ok_or_else(|| cannot(rest, "-"))?;
    let (month, rest) = get_num(rest, true).ok_or_else(|| cannot(rest, "01"))?;
    if !(1..=12).contains(&month) {
        return Err(out_of_range("month"));
    }

    let rest = skip_literal(rest, b'-').ok_or_else(|| cannot(rest, "-"))?;
    // Any two digits for now; the day is checked against the month once everything parsed.
    let (day, rest) = get_num(rest, true).ok_or_else(|| cannot(rest, "02"))?;

    let rest = skip_literal(rest, b'T').ok_or_else(|| cannot(rest, "T"))?;
    // Go's "15" element accepts a one-digit hour.
    let (hour, rest) = get_num(rest, false).ok_or_else(|| cannot(rest, "15"))?;
    if hour >= 24 {
        return Err(out_of_range("hour"));
    }

    let rest = skip_literal(rest, b':').ok_or_else(|| cannot(rest, ":"))?;
    let (minute, rest) = get_num(rest, true).ok_or_else(|| cannot(rest, "04"))?;
    if minute >= 60 {
        return Err(out_of_range("minute"));
    }

    let rest = skip_literal(rest, b':').ok_or_else(|| cannot(rest, ":"))?;
    let (second, mut rest) = get_num(rest, true).ok_or_else(|| cannot(rest, "05"))?;
    if second >= 60 {
        return Err(out_of_range("second"));
    }

    let mut nanos = 0;
    match layout {
        Layout::Rfc3339 => {
            // Go accepts a fraction after the seconds even though the layout has none:
            // `.` or `,` then at least one digit, as many digits as follow.
            if let [sep, first, ..] = rest {
                if is_fraction_separator(*sep) && first.is_ascii_digit() {
                    let digits = rest[1..].iter().take_while(|c| c.is_ascii_digit()).count();
                    nanos = fraction_nanos(&rest[1..=digits]);
                    rest = &rest[1 + digits..];
                }
            }
        }
        Layout::Rfc3339Micro => {
            // ".000000": a separator and exactly six more bytes, read as Go's `atoi`
            // reads them, which lets a sign in.
            const ELEMENT: &str = ".000000";
            let Some((field, after)) = rest.split_at_checked(7) else {
                return Err(cannot(rest, ELEMENT));
            };
            if !is_fraction_separator(field[0]) {
                return Err(cannot(rest, ELEMENT));
            }
            let (negative, magnitude) =
                signed_digits(&field[1..]).ok_or_else(|| cannot(rest, ELEMENT))?;
            if negative && magnitude != 0 {
                return Err(out_of_range("fractional second"));
            }
            nanos = magnitude * 1000;
            rest = after;
        }
    }

    // "Z07:00": `Z`, or a sign and `hh:mm`.
    let offset_secs: i64 = match rest {
        [b'Z', after @ ..] => {
            rest = after;
            0
        }
        [sign, h1, h2, b':', m1, m2, after @ ..] => {
            let hours = get_num(&[*h1, *h2], true).map(|(n, _)| n);
            let minutes = hours.and_then(|_| get_num(&[*m1, *m2], true).map(|(n, _)| n));
            // Go checks the range (allowing 24 hours and 60 minutes) before the sign.
            if minutes.unwrap_or(0) > 60 {
                return Err(out_of_range("time zone offset minute"));
            }
            if hours.unwrap_or(0) > 24 {
                return Err(out_of_range("time zone offset hour"));
            }
            let (Some(hours), Some(minutes)) = (hours, minutes) else {
                return Err(cannot(rest, "Z07:00"));
            };
            let magnitude = i64::from(hours * 3600 + minutes * 60);
            let offset = match sign {
                b'+' => magnitude,
                b'-' => -magnitude,
                _ => return Err(cannot(rest, "Z07:00")),
            };
            rest = after;
            offset
        }
        _ => return Err(cannot(rest, "Z07:00")),
    };

    if !rest.is_empty() {
        return Err(Problem::ExtraText(rest.to_vec()));
    }
    if day < 1 || day > days_in_month(year, month) {
        return Err(out_of_range("day"));
    }

    let local = days_from_civil(year, month, day) * SECS_PER_DAY
        + i64::from(hour * 3600 + minute * 60 + second);
    Ok(Time::from_unix(local - offset_secs, nanos))
}

fn is_fraction_separator(c: u8) -> bool {
    c == b'.' || c == b','
}

/// `rest` without its first byte if that byte is `c`.
fn skip_literal(rest: &[u8], c: u8) -> Option<&[u8]> {
    match rest {
        [first, after @ ..] if *first == c => Some(after),
        _ => None,
    }
}

/// Go's `getnum`: two digits, or (unless `fixed`) a single digit not followed by another.
fn get_num(s: &[u8], fixed: bool) -> Option<(u32, &[u8])> {
    match s {
        [a, b, rest @ ..] if a.is_ascii_digit() && b.is_ascii_digit() => {
            Some((u32::from(a - b'0') * 10 + u32::from(b - b'0'), rest))
        }
        [a, rest @ ..] if a.is_ascii_digit() && !fixed => Some((u32::from(a - b'0'), rest)),
        _ => None,
    }
}

/// The value of a run of ASCII digits short enough not to overflow.
fn digit_value(digits: &[u8]) -> u32 {
    digits
        .iter()
        .fold(0, |acc, d| acc * 10 + u32::from(d - b'0'))
}

/// Nanoseconds for the digits after a decimal separator: only the first nine count.
fn fraction_nanos(digits: &[u8]) -> u32 {
    let kept = &digits[..digits.len().min(9)];
    digit_value(kept) * 10u32.pow(9 - kept.len() as u32)
}

/// Go's `atoi` on a short field: an optional sign, then digits only (possibly none).
fn signed_digits(field: &[u8]) -> Option<(bool, u32)> {
    let (negative, digits) = match field {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        _ => (false, field),
    };
    digits
        .iter()
        .all(u8::is_ascii_digit)
        .then(|| (negative, digit_value(digits)))
}

/// Displays bytes the way Go's time package quotes them in error messages: in double
/// quotes, with `"` and `\` escaped and every byte outside printable ASCII as `\xNN`.
pub(crate) struct GoQuoted<'a>(pub(crate) &'a [u8]);

impl fmt::Display for GoQuoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_char('"')?;
        for &b in self.0 {
            match b {
                b'"' | b'\\' => write!(f, "\\{}", char::from(b))?,
                0x20..=0x7f => f.write_char(char::from(b))?,
                _ => write!(f, "\\x{b:02x}")?,
            }
        }
        f.write_char('"')
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use proptest::prelude::*;

    const FIRST_SECOND_OF_YEAR_1: i64 = -YEAR_ONE_TO_UNIX;
    /// 9999-12-31T23:59:59Z.
    const LAST_SECOND_OF_9999: i64 = 253_402_300_799;

    fn parse(s: &str) -> Time {
        Time::parse_rfc3339(s).unwrap_or_else(|e| panic!("{s:?} should parse: {e}"))
    }

    fn parse_err(s: &str) -> String {
        match Time::parse_rfc3339(s) {
            Ok(t) => panic!("{s:?} should not parse, got {t:?}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn zero_is_year_one_and_not_the_epoch() {
        assert!(Time::default().is_zero());
        assert_eq!(Time::default(), Time::ZERO);
        assert_eq!(Time::ZERO.unix_seconds(), FIRST_SECOND_OF_YEAR_1);
        assert!(!Time::from_unix(0, 0).is_zero());
        assert!(!Time::from_unix(FIRST_SECOND_OF_YEAR_1, 1).is_zero());
        assert!(Time::from_unix(FIRST_SECOND_OF_YEAR_1, 0).is_zero());
        assert_eq!(Time::ZERO.to_rfc3339(), "0001-01-01T00:00:00Z");
        // Go's zero time is after every instant of year 0.
        assert!(parse("0000-12-31T23:59:59Z") < Time::ZERO);
        assert!(Time::ZERO < Time::from_unix(0, 0));
    }

    #[test]
    fn from_unix_normalises_nanos_and_clamps() {
        assert_eq!(
            Time::from_unix(1, 1_500_000_000),
            Time::from_unix(2, 500_000_000)
        );
        let t = Time::from_unix(-1, u32::MAX);
        assert_eq!((t.unix_seconds(), t.nanos()), (3, 294_967_295));
        let max = Time::from_unix(i64::MAX, 999_999_999);
        assert_eq!(max.unix_seconds(), i64::MAX - YEAR_ONE_TO_UNIX);
        assert_eq!(max.nanos(), 999_999_999);
        let min = Time::from_unix(i64::MIN, 0);
        assert_eq!(min.unix_seconds(), i64::MIN);
        assert!(min < Time::ZERO && Time::ZERO < max);
        // Formatting the extremes must not overflow (values checked against Python's
        // proleptic calendar shifted by 400-year cycles).
        assert_eq!(max.to_rfc3339(), "292277024627-12-06T15:30:07Z");
        assert_eq!(min.to_rfc3339(), "-292277022657-01-27T08:29:52Z");
    }

    #[test]
    fn ordering_is_chronological() {
        let a = Time::from_unix(-1, 999_999_999);
        let b = Time::from_unix(0, 0);
        let c = Time::from_unix(0, 1);
        assert!(a < b && b < c);
    }

    #[test]
    fn parses_go_layout_examples() {
        // (input, unix seconds, nanos)
        let cases: &[(&str, i64, u32)] = &[
            ("1998-05-05T05:05:05Z", 894_344_705, 0),
            ("1998-05-05T05:05:05.123456789Z", 894_344_705, 123_456_789),
            ("2006-01-02T15:04:05-07:00", 1_136_239_445, 0),
            ("2006-01-02T22:04:05Z", 1_136_239_445, 0),
            ("2021-03-04T10:30:00+05:30", 1_614_834_000, 0),
            ("2021-03-04T05:00:00+00:00", 1_614_834_000, 0),
            ("2021-03-04T05:00:00-00:00", 1_614_834_000, 0),
            ("1970-01-01T00:00:00Z", 0, 0),
            ("1969-12-31T23:59:59Z", -1, 0),
            ("1969-12-31T23:59:59.5Z", -1, 500_000_000),
            ("1960-01-01T00:00:00Z", -315_619_200, 0),
            ("1900-03-01T00:00:00Z", -2_203_891_200, 0),
            ("2000-02-29T00:00:00Z", 951_782_400, 0),
            ("2024-02-29T12:00:00Z", 1_709_208_000, 0),
            ("2023-12-31T23:59:59Z", 1_704_067_199, 0),
            ("0001-01-01T00:00:00Z", FIRST_SECOND_OF_YEAR_1, 0),
            ("0000-01-01T00:00:00Z", -62_167_219_200, 0),
            ("0000-02-29T00:00:00Z", -62_162_121_600, 0),
            ("9999-12-31T23:59:59Z", LAST_SECOND_OF_9999, 0),
            // Offsets can carry the instant past either end of the four-digit years.
            ("0000-01-01T00:00:00+01:00", -62_167_222_800, 0),
            ("9999-12-31T23:59:59-01:00", LAST_SECOND_OF_9999 + 3600, 0),
            // Go's leniencies: comma separator, more than nine digits (truncated),
            // one-digit hour, offsets up to 24 hours and 60 minutes.
            ("2006-01-02T15:04:05,25Z", 1_136_214_245, 250_000_000),
            (
                "2006-01-02T15:04:05.1234567891234Z",
                1_136_214_245,
                123_456_789,
            ),
            ("2006-01-02T15:04:05.000000001Z", 1_136_214_245, 1),
            ("2006-01-02T5:04:05Z", 1_136_178_245, 0),
            ("2006-01-02T15:04:05+24:00", 1_136_127_845, 0),
            ("2006-01-02T15:04:05-00:60", 1_136_217_845, 0),
        ];
        for &(input, secs, nanos) in cases {
            let t = parse(input);
            assert_eq!((t.unix_seconds(), t.nanos()), (secs, nanos), "{input}");
        }
        assert!(parse("0001-01-01T00:00:00Z").is_zero());
        assert!(parse("0001-01-01T05:30:00+05:30").is_zero());
    }

    /// What Go's `ParseError` says about a rejected string (inputs here are printable
    /// ASCII, which Go and `{:?}` quote alike).
    pub(crate) enum Want {
        /// `cannot parse <value> as <layout element>`.
        Cannot(&'static str, &'static str),
        /// `<field> out of range`.
        Range(&'static str),
        /// `extra text: <text>`.
        Extra(&'static str),
    }

    pub(crate) fn go_message(input: &str, layout: &str, want: &Want) -> String {
        match want {
            Want::Cannot(value, element) => format!(
                "parsing time {input:?} as {layout:?}: cannot parse {value:?} as {element:?}"
            ),
            Want::Range(field) => format!("parsing time {input:?}: {field} out of range"),
            Want::Extra(text) => format!("parsing time {input:?}: extra text: {text:?}"),
        }
    }

    #[test]
    fn rejects_what_go_rejects_with_gos_message() {
        use Want::*;
        let cases: &[(&str, Want)] = &[
            ("", Cannot("", "2006")),
            ("hello", Cannot("hello", "2006")),
            (
                "+2006-01-02T15:04:05Z",
                Cannot("+2006-01-02T15:04:05Z", "2006"),
            ),
            (
                "20x6-01-02T15:04:05Z",
                Cannot("20x6-01-02T15:04:05Z", "2006"),
            ),
            (
                " 2006-01-02T15:04:05Z",
                Cannot(" 2006-01-02T15:04:05Z", "2006"),
            ),
            ("12006-01-02T15:04:05Z", Cannot("6-01-02T15:04:05Z", "-")),
            ("2006-1-02T15:04:05Z", Cannot("1-02T15:04:05Z", "01")),
            ("2006-13-02T15:04:05Z", Range("month")),
            ("2006-00-02T15:04:05Z", Range("month")),
            ("2006-02-30T00:00:00Z", Range("day")),
            ("2023-02-29T00:00:00Z", Range("day")),
            ("1900-02-29T00:00:00Z", Range("day")),
            ("2006-04-31T00:00:00Z", Range("day")),
            ("2006-01-32T00:00:00Z", Range("day")),
            ("2006-01-00T00:00:00Z", Range("day")),
            ("2006-01-02T24:00:00Z", Range("hour")),
            ("2006-01-02T15:60:05Z", Range("minute")),
            ("2006-01-02T15:04:60Z", Range("second")),
            // The day is checked last, so an hour error wins over it.
            ("2006-02-30T25:00:00Z", Range("hour")),
            ("2006-01-02t15:04:05Z", Cannot("t15:04:05Z", "T")),
            ("2006-01-02 15:04:05Z", Cannot(" 15:04:05Z", "T")),
            ("2006-01-02T15-04:05Z", Cannot("-04:05Z", ":")),
            ("2006-01-02T15:04:05z", Cannot("z", "Z07:00")),
            ("2006-01-02T15:04:05", Cannot("", "Z07:00")),
            ("2006-01-02T15:04:05.Z", Cannot(".Z", "Z07:00")),
            ("2006-01-02T15:04:05+0700", Cannot("+0700", "Z07:00")),
            ("2006-01-02T15:04:05+7:00", Cannot("+7:00", "Z07:00")),
            ("2006-01-02T15:04:05*07:00", Cannot("*07:00", "Z07:00")),
            ("2006-01-02T15:04:05+25:00", Range("time zone offset hour")),
            ("2006-01-02T15:04:05+25:x0", Range("time zone offset hour")),
            (
                "2006-01-02T15:04:05+05:61",
                Range("time zone offset minute"),
            ),
            ("2006-01-02T15:04:05Zjunk", Extra("junk")),
            ("2006-01-02T15:04:05Z ", Extra(" ")),
            ("2006-01-02T15:04:05+05:30:00", Extra(":00")),
        ];
        for (input, want) in cases {
            let expected = go_message(input, "2006-01-02T15:04:05Z07:00", want);
            assert_eq!(parse_err(input), expected, "{input:?}");
        }
        // Bytes outside printable ASCII are quoted as Go's time package quotes them.
        assert_eq!(
            parse_err("2006-01-02T15:04:05Z\u{e9}\n\"\\"),
            r#"parsing time "2006-01-02T15:04:05Z\xc3\xa9\x0a\"\\": extra text: "\xc3\xa9\x0a\"\\""#
        );
    }

    #[test]
    fn error_names_input_and_layout() {
        let e = Time::parse_rfc3339("2006-13-02T15:04:05Z").unwrap_err();
        assert_eq!(e.input, "2006-13-02T15:04:05Z");
        assert_eq!(e.layout(), "2006-01-02T15:04:05Z07:00");
    }

    #[test]
    fn formats_utc_with_whole_seconds() {
        let cases: &[(i64, u32, &str)] = &[
            (894_344_705, 50, "1998-05-05T05:05:05Z"),
            (894_344_705, 999_999_999, "1998-05-05T05:05:05Z"),
            (0, 0, "1970-01-01T00:00:00Z"),
            (-1, 999_999_999, "1969-12-31T23:59:59Z"),
            (-315_619_200, 0, "1960-01-01T00:00:00Z"),
            (951_782_400, 0, "2000-02-29T00:00:00Z"),
            (951_868_800, 0, "2000-03-01T00:00:00Z"),
            (LAST_SECOND_OF_9999, 0, "9999-12-31T23:59:59Z"),
            (LAST_SECOND_OF_9999 + 1, 0, "10000-01-01T00:00:00Z"),
            (-62_167_219_200, 0, "0000-01-01T00:00:00Z"),
            (-62_167_219_201, 0, "-0001-12-31T23:59:59Z"),
        ];
        for &(secs, nanos, text) in cases {
            let t = Time::from_unix(secs, nanos);
            assert_eq!(t.to_rfc3339(), text);
            assert_eq!(t.to_string(), text);
        }
        assert_eq!(
            format!("{:?}", Time::from_unix(0, 120_000_000)),
            "Time(1970-01-01T00:00:00.12Z)"
        );
        assert_eq!(format!("{:?}", Time::ZERO), "Time(0001-01-01T00:00:00Z)");
    }

    #[test]
    fn json_matches_go() {
        assert_eq!(serde_json::to_string(&Time::ZERO).unwrap(), "null");
        assert_eq!(
            serde_json::to_string(&Time::from_unix(894_344_705, 123_456_789)).unwrap(),
            "\"1998-05-05T05:05:05Z\""
        );
        assert_eq!(
            serde_json::to_string(&Time::from_unix(0, 0)).unwrap(),
            "\"1970-01-01T00:00:00Z\""
        );
        let zero: Time = serde_json::from_str("null").unwrap();
        assert!(zero.is_zero());
        let t: Time = serde_json::from_str("\"1998-05-05T05:05:05.123456789Z\"").unwrap();
        assert_eq!(t, Time::from_unix(894_344_705, 123_456_789));
        assert_eq!(
            serde_json::to_string(&t).unwrap(),
            "\"1998-05-05T05:05:05Z\""
        );
        let year_one: Time = serde_json::from_str("\"0001-01-01T00:00:00Z\"").unwrap();
        assert_eq!(serde_json::to_string(&year_one).unwrap(), "null");
        // Go's UnmarshalJSON hands "" to time.Parse, which rejects it.
        let err = serde_json::from_str::<Time>("\"\"")
            .unwrap_err()
            .to_string();
        assert!(err.contains("cannot parse \"\" as \"2006\""), "{err}");
        assert!(serde_json::from_str::<Time>("0").is_err());
        assert!(serde_json::from_str::<Time>("true").is_err());
        let v = serde_json::json!({ "t": "2021-03-04T10:30:00+05:30" });
        let holder: std::collections::BTreeMap<String, Time> = serde_json::from_value(v).unwrap();
        assert_eq!(holder["t"].unix_seconds(), 1_614_834_000);
    }

    #[test]
    fn json_refuses_years_without_rfc3339_form() {
        for t in [
            Time::from_unix(LAST_SECOND_OF_9999 + 1, 0),
            Time::from_unix(-62_167_219_201, 0),
        ] {
            let err = serde_json::to_string(&t).unwrap_err().to_string();
            assert!(err.contains("outside of range [0,9999]"), "{err}");
        }
        assert!(serde_json::to_string(&Time::from_unix(-62_167_219_200, 0)).is_ok());
        assert!(serde_json::to_string(&Time::from_unix(LAST_SECOND_OF_9999, 0)).is_ok());
    }

    #[test]
    fn truncate_to_seconds_drops_the_fraction() {
        let t = Time::from_unix(-5, 700);
        assert_eq!(t.truncate_to_seconds(), Time::from_unix(-5, 0));
    }

    #[test]
    fn system_time_round_trip() {
        let cases = [
            Time::from_unix(0, 0),
            Time::from_unix(1_700_000_000, 123_456_789),
            Time::from_unix(-1, 1),
            Time::from_unix(-1_000_000, 999_999_999),
            Time::ZERO,
        ];
        for t in cases {
            let st = SystemTime::try_from(t).unwrap();
            assert_eq!(Time::from(st), t);
        }
        let before = UNIX_EPOCH - std::time::Duration::new(1, 250_000_000);
        assert_eq!(Time::from(before), Time::from_unix(-2, 750_000_000));
        // Whether the extremes fit depends on the platform; they must round-trip or be
        // refused, never wrap.
        for far in [
            Time::from_unix(i64::MAX, 999_999_999),
            Time::from_unix(i64::MIN, 1),
        ] {
            match SystemTime::try_from(far) {
                Ok(st) => assert_eq!(Time::from(st), far),
                Err(e) => assert_eq!(e, SystemTimeRangeError { time: far }),
            }
        }
        let message = SystemTimeRangeError { time: Time::ZERO }.to_string();
        assert!(
            message.starts_with("Time(0001-01-01T00:00:00Z) is outside"),
            "{message}"
        );
        let now = Time::now();
        assert!(now > parse("2020-01-01T00:00:00Z"), "{now:?}");
    }

    /// The search `civil_from_days` replaced: the year from an estimate settled by
    /// `days_before_year`, then the month by walking the year's months.
    fn civil_from_days_by_search(days: i64) -> (i64, u32, u32) {
        let since_year_zero = days + DAYS_YEAR_ZERO_TO_UNIX;
        // 400 Gregorian years are exactly 146_097 days, so this estimate is off by at most
        // one year either way; the loops settle it.
        let mut year = (since_year_zero * 400).div_euclid(146_097);
        while days_before_year(year) > since_year_zero {
            year -= 1;
        }
        while days_before_year(year + 1) <= since_year_zero {
            year += 1;
        }
        // Below 366, so it fits.
        let mut day_of_year = (since_year_zero - days_before_year(year)) as u32;
        for month in 1..=12 {
            let len = days_in_month(year, month);
            if day_of_year < len {
                return (year, month, day_of_year + 1);
            }
            day_of_year -= len;
        }
        // Unreachable: a year's months add up to its length.
        (year, 12, 31)
    }

    #[test]
    fn calendar_matches_the_search_far_and_wide() {
        let mut samples: Vec<i64> = (-1_000_000..1_000_000).step_by(997).collect();
        for far in [
            i64::MAX / 86_400,
            i64::MIN / 86_400,
            106_751_991_167_300,
            -719_468,
        ] {
            samples.extend(far - 800..far + 800);
        }
        samples.retain(|d| (i64::MIN / 86_400..=i64::MAX / 86_400).contains(d));
        for days in samples {
            assert_eq!(
                civil_from_days(days),
                civil_from_days_by_search(days),
                "day {days}"
            );
        }
    }

    #[test]
    fn rfc3339_bytes_match_write_civil() {
        let mut checked = 0;
        for secs in (-62_167_219_200_i64..253_402_300_800).step_by(7_777_777_777 / 13) {
            for nanos in [
                0,
                1,
                10,
                999,
                1000,
                120_000,
                123_456_789,
                999_999_999,
                500_000_000,
            ] {
                let t = Time::from_unix(secs, nanos);
                let c = t.civil();
                for fraction in [Fraction::None, Fraction::Micros, Fraction::TrimmedNanos] {
                    let mut want = String::new();
                    t.write_civil(&mut want, &c, fraction).unwrap();
                    let got = Rfc3339::new(&c, t.nanos, fraction).unwrap();
                    assert_eq!(got.as_str(), want);
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000, "{checked}");
        // Outside 0..=9999 there is no RFC 3339 text.
        let before = Time::from_unix(-62_167_219_201, 0);
        assert!(Rfc3339::new(&before.civil(), 0, Fraction::None).is_none());
        let after = Time::from_unix(253_402_300_800, 0);
        assert!(Rfc3339::new(&after.civil(), 0, Fraction::None).is_none());
    }

    #[test]
    fn written_straight_as_serde_writes() {
        for t in [
            Time::ZERO,
            Time::from_unix(1_199_149_261, 0),
            Time::from_unix(1_199_149_261, 123_456_789),
            Time::from_unix(-62_167_219_201, 0),
        ] {
            let mut direct = Vec::new();
            let d = t.write_json(&mut GoJsonWriter::compact(&mut direct));
            let by_serde = serde_json::to_vec(&t);
            assert_eq!(d.is_ok(), by_serde.is_ok(), "{t:?}");
            match by_serde {
                Ok(want) => assert_eq!(direct, want, "{t:?}"),
                Err(e) => assert_eq!(d.unwrap_err().to_string(), e.to_string()),
            }
            let micro = super::super::MicroTime::from(t);
            let mut direct = Vec::new();
            let d = micro.write_json(&mut GoJsonWriter::compact(&mut direct));
            match serde_json::to_vec(&micro) {
                Ok(want) => assert_eq!(direct, want, "{t:?}"),
                Err(e) => assert_eq!(d.unwrap_err().to_string(), e.to_string()),
            }
        }
    }

    #[test]
    fn calendar_matches_day_by_day_walk() {
        // Walk day by day across several centuries, including 1900 and 2000.
        let mut expected = (1890_i64, 1_u32, 1_u32);
        let start = days_from_civil(1890, 1, 1);
        for days in start..start + 365 * 230 {
            assert_eq!(civil_from_days(days), expected, "day {days}");
            assert_eq!(days_from_civil(expected.0, expected.1, expected.2), days);
            let (y, m, d) = expected;
            expected = if d < days_in_month(y, m) {
                (y, m, d + 1)
            } else if m < 12 {
                (y, m + 1, 1)
            } else {
                (y + 1, 1, 1)
            };
        }
    }

    /// Any instant from year 1 to 9999 in whole seconds.
    fn whole_second_instant() -> impl Strategy<Value = Time> {
        (FIRST_SECOND_OF_YEAR_1..=LAST_SECOND_OF_9999).prop_map(|s| Time::from_unix(s, 0))
    }

    proptest! {
        #[test]
        fn parse_inverts_format(t in whole_second_instant()) {
            prop_assert_eq!(Time::parse_rfc3339(&t.to_rfc3339()), Ok(t));
            let json = serde_json::to_string(&t).unwrap();
            prop_assert_eq!(serde_json::from_str::<Time>(&json).unwrap(), t);
        }

        #[test]
        fn offsets_convert_to_utc(
            t in whole_second_instant(),
            east in any::<bool>(),
            hours in 0_i64..=23,
            minutes in 0_i64..=59,
        ) {
            let offset = (hours * 3600 + minutes * 60) * if east { 1 } else { -1 };
            let local = Time::from_unix(t.unix_seconds() + offset, 0).to_rfc3339();
            prop_assume!(!local.starts_with('-') && local.len() == 20);
            let sign = if east { '+' } else { '-' };
            let text = format!("{}{sign}{hours:02}:{minutes:02}", &local[..19]);
            prop_assert_eq!(Time::parse_rfc3339(&text), Ok(t));
        }

        #[test]
        fn calendar_round_trips(days in -4_000_000_i64..4_000_000) {
            let (y, m, d) = civil_from_days(days);
            prop_assert!((1..=12).contains(&m) && d >= 1 && d <= days_in_month(y, m));
            prop_assert_eq!(days_from_civil(y, m, d), days);
        }

        #[test]
        fn parsing_arbitrary_strings_never_panics(s in any::<String>()) {
            let _ = Time::parse_rfc3339(&s);
        }

        #[test]
        fn parsing_near_misses_never_panics(
            s in concat!(
                "[0-9+-]{3,5}-[0-9]{1,2}-[0-9]{1,3}[Tt ][0-9]{1,3}:[0-9]{1,2}:[0-9]{1,2}",
                "([.,][0-9+-]{0,12})?(Z|z|[+-][0-9]{1,2}:?[0-9]{0,2}|é)?.?",
            )
        ) {
            // Whatever is accepted is written back (offset applied, fraction dropped) in a
            // form that reads as the same second.
            if let Ok(t) = Time::parse_rfc3339(&s) {
                prop_assert_eq!(Time::parse_rfc3339(&t.to_rfc3339()), Ok(t.truncate_to_seconds()));
            }
        }
    }
}
