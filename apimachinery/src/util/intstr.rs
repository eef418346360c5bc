//! [`IntOrString`]: a field that holds either an integer or a string (Go's
//! `k8s.io/apimachinery/pkg/util/intstr`).

use std::fmt;
use std::str::FromStr;

/// An integer or a string, written in JSON as whichever it is (Go's `intstr.IntOrString`):
/// a port (`8080` or `"http"`), a rollout budget (`1` or `"25%"`).
///
/// The default is `Int(0)`, Go's zero value.
///
/// ```
/// use apimachinery::util::intstr::IntOrString;
///
/// let surge: IntOrString = serde_json::from_str(r#""25%""#).unwrap();
/// assert_eq!(surge.get_scaled_value_from_int_or_percent(10, true)?, 3);
/// assert_eq!(surge.get_scaled_value_from_int_or_percent(10, false)?, 2);
///
/// let port = IntOrString::from_int(8080);
/// assert_eq!(serde_json::to_string(&port).unwrap(), "8080");
/// assert_eq!("http".parse::<IntOrString>().unwrap(), IntOrString::from_string("http"));
/// assert!(serde_json::from_str::<IntOrString>("2147483648").is_err());
/// # Ok::<(), apimachinery::util::intstr::IntOrStringError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum IntOrString {
    /// An integer (Go's `Type: intstr.Int`).
    Int(i32),
    /// A string (Go's `Type: intstr.String`).
    String(String),
}

impl Default for IntOrString {
    fn default() -> IntOrString {
        IntOrString::Int(0)
    }
}

/// Why [`IntOrString::get_scaled_value_from_int_or_percent`] has no answer. Messages are
/// Go's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IntOrStringError {
    /// A string that does not end in `%`.
    #[error("invalid value for IntOrString: invalid type: string is not a percentage: {value:?}")]
    NotAPercentage {
        /// The string.
        value: String,
    },
    /// A string ending in `%` whose number is not a decimal integer.
    #[error("invalid value for IntOrString: invalid value {value:?}: {reason}")]
    InvalidPercentage {
        /// The string.
        value: String,
        /// Why its number does not parse.
        reason: String,
    },
}

impl IntOrString {
    /// An integer value (Go's `FromInt32`).
    pub const fn from_int(value: i32) -> IntOrString {
        IntOrString::Int(value)
    }

    /// A string value (Go's `FromString`).
    pub fn from_string(value: impl Into<String>) -> IntOrString {
        IntOrString::String(value.into())
    }

    /// Go's `Parse`: an integer when `text` is a decimal integer in `i32` range, else the
    /// string. (Go converts out-of-range integers with wrap-around and logs an error; they
    /// stay strings here, so no value changes.)
    pub fn parse(text: &str) -> IntOrString {
        match text.parse::<i32>() {
            Ok(v) => IntOrString::Int(v),
            Err(_) => IntOrString::String(text.to_owned()),
        }
    }

    /// The integer, or the string read as a decimal integer (Go's `IntValue`): a string
    /// that is not one gives 0, and one out of `i64` range gives the nearest bound, as
    /// Go's `strconv.Atoi` does.
    pub fn int_value(&self) -> i64 {
        match self {
            IntOrString::Int(v) => i64::from(*v),
            IntOrString::String(s) => atoi(s).unwrap_or_else(|clamped| clamped.unwrap_or(0)),
        }
    }

    /// The string, or the integer written in decimal (Go's `String`).
    pub fn str_value(&self) -> String {
        self.to_string()
    }

    /// True for [`IntOrString::Int`].
    pub fn is_int(&self) -> bool {
        matches!(self, IntOrString::Int(_))
    }

    /// The value scaled against `total` (Go's `GetScaledValueFromIntOrPercent`): an
    /// integer is itself; a percentage `"p%"` is `p × total / 100`, rounded up or down.
    /// Any other string is an error.
    pub fn get_scaled_value_from_int_or_percent(
        &self,
        total: i64,
        round_up: bool,
    ) -> Result<i64, IntOrStringError> {
        match self {
            IntOrString::Int(v) => Ok(i64::from(*v)),
            IntOrString::String(s) => {
                let Some(number) = s.strip_suffix('%') else {
                    return Err(IntOrStringError::NotAPercentage { value: s.clone() });
                };
                let percent =
                    atoi(number).map_err(|clamped| IntOrStringError::InvalidPercentage {
                        value: s.clone(),
                        reason: if clamped.is_some() {
                            format!("strconv.Atoi: parsing {number:?}: value out of range")
                        } else {
                            format!("strconv.Atoi: parsing {number:?}: invalid syntax")
                        },
                    })?;
                // Go computes in float64, and so do we, to round the same way.
                let scaled = percent as f64 * total as f64 / 100.0;
                let rounded = if round_up {
                    scaled.ceil()
                } else {
                    scaled.floor()
                };
                Ok(rounded as i64)
            }
        }
    }
}

/// Go's `strconv.Atoi`: an optional sign and decimal digits. Out of range, the error holds
/// the nearest bound, as Go's does.
fn atoi(s: &str) -> Result<i64, Option<i64>> {
    match s.parse::<i64>() {
        Ok(v) => Ok(v),
        Err(_) => {
            let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
            if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                Err(Some(if s.starts_with('-') {
                    i64::MIN
                } else {
                    i64::MAX
                }))
            } else {
                Err(None)
            }
        }
    }
}

impl From<i32> for IntOrString {
    fn from(value: i32) -> IntOrString {
        IntOrString::Int(value)
    }
}

impl From<String> for IntOrString {
    fn from(value: String) -> IntOrString {
        IntOrString::String(value)
    }
}

impl From<&str> for IntOrString {
    fn from(value: &str) -> IntOrString {
        IntOrString::String(value.to_owned())
    }
}

impl FromStr for IntOrString {
    type Err = std::convert::Infallible;

    /// [`IntOrString::parse`]: every text is one or the other.
    fn from_str(text: &str) -> Result<IntOrString, Self::Err> {
        Ok(IntOrString::parse(text))
    }
}

impl fmt::Display for IntOrString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IntOrString::Int(v) => write!(f, "{v}"),
            IntOrString::String(s) => f.write_str(s),
        }
    }
}

impl serde::Serialize for IntOrString {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            IntOrString::Int(v) => serializer.serialize_i32(*v),
            IntOrString::String(s) => serializer.serialize_str(s),
        }
    }
}

impl<'de> serde::Deserialize<'de> for IntOrString {
    /// A JSON string, or an integral number in `i32` range (Go decodes into an `int32`).
    /// `null` is `Int(0)`, since Go leaves the zero value.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(IntOrStringVisitor)
    }
}

struct IntOrStringVisitor;

impl serde::de::Visitor<'_> for IntOrStringVisitor {
    type Value = IntOrString;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a 32-bit integer or a string")
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<IntOrString, E> {
        Ok(IntOrString::String(v.to_owned()))
    }

    fn visit_string<E: serde::de::Error>(self, v: String) -> Result<IntOrString, E> {
        Ok(IntOrString::String(v))
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<IntOrString, E> {
        i32::try_from(v).map(IntOrString::Int).map_err(|_| {
            E::custom(format!(
                "IntOrString: integer {v} is out of the int32 range"
            ))
        })
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<IntOrString, E> {
        i32::try_from(v).map(IntOrString::Int).map_err(|_| {
            E::custom(format!(
                "IntOrString: integer {v} is out of the int32 range"
            ))
        })
    }

    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<IntOrString, E> {
        Err(E::custom(format!(
            "IntOrString: number {v} is not an integer"
        )))
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<IntOrString, E> {
        Ok(IntOrString::default())
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<IntOrString, E> {
        Ok(IntOrString::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn json_is_int_or_string() {
        let cases = [
            ("8080", IntOrString::Int(8080)),
            ("-1", IntOrString::Int(-1)),
            ("2147483647", IntOrString::Int(i32::MAX)),
            ("-2147483648", IntOrString::Int(i32::MIN)),
            (r#""http""#, IntOrString::from_string("http")),
            (r#""25%""#, IntOrString::from_string("25%")),
            (r#""8080""#, IntOrString::from_string("8080")),
            (r#""""#, IntOrString::from_string("")),
        ];
        for (json, value) in cases {
            assert_eq!(serde_json::from_str::<IntOrString>(json).unwrap(), value);
            assert_eq!(serde_json::to_string(&value).unwrap(), json);
        }
        assert_eq!(
            serde_json::from_str::<IntOrString>("null").unwrap(),
            IntOrString::Int(0)
        );
        for bad in [
            "2147483648",
            "-2147483649",
            "1.5",
            "1.0",
            "1e2",
            "true",
            "[]",
            "{}",
        ] {
            let e = serde_json::from_str::<IntOrString>(bad)
                .unwrap_err()
                .to_string();
            assert!(!e.is_empty(), "{bad}");
        }
        let e = serde_json::from_str::<IntOrString>("2147483648")
            .unwrap_err()
            .to_string();
        assert!(e.contains("2147483648"), "{e}");
    }

    #[test]
    fn matches_kubectl_pdb_output() {
        let percent: serde_json::Value =
            serde_json::from_str(include_str!("../../testdata/kubectl/pdb_percent.json")).unwrap();
        let int: serde_json::Value =
            serde_json::from_str(include_str!("../../testdata/kubectl/pdb_int.json")).unwrap();
        let min: IntOrString =
            serde_json::from_value(percent["spec"]["minAvailable"].clone()).unwrap();
        let max: IntOrString =
            serde_json::from_value(int["spec"]["maxUnavailable"].clone()).unwrap();
        assert_eq!(min, IntOrString::from_string("50%"));
        assert_eq!(max, IntOrString::Int(3));
        assert_eq!(
            serde_json::to_value(&min).unwrap(),
            percent["spec"]["minAvailable"]
        );
        assert_eq!(
            serde_json::to_value(&max).unwrap(),
            int["spec"]["maxUnavailable"]
        );
    }

    #[test]
    fn scaled_value_follows_go() {
        let s = IntOrString::from_string;
        let cases: &[(IntOrString, i64, bool, i64)] = &[
            (IntOrString::Int(5), 100, true, 5),
            (s("25%"), 10, true, 3),
            (s("25%"), 10, false, 2),
            (s("100%"), 7, false, 7),
            (s("0%"), 7, true, 0),
            (s("33%"), 100, true, 33),
            (s("-10%"), 15, true, -1),
            (s("-10%"), 15, false, -2),
            (s("150%"), 10, true, 15),
        ];
        for (value, total, round_up, want) in cases {
            assert_eq!(
                value.get_scaled_value_from_int_or_percent(*total, *round_up),
                Ok(*want),
                "{value} of {total}"
            );
        }
        assert_eq!(
            s("5")
                .get_scaled_value_from_int_or_percent(10, true)
                .unwrap_err()
                .to_string(),
            "invalid value for IntOrString: invalid type: string is not a percentage: \"5\""
        );
        assert_eq!(
            s("x%")
                .get_scaled_value_from_int_or_percent(10, true)
                .unwrap_err()
                .to_string(),
            "invalid value for IntOrString: invalid value \"x%\": strconv.Atoi: parsing \"x\": invalid syntax"
        );
        assert!(matches!(
            s("99999999999999999999%").get_scaled_value_from_int_or_percent(10, true),
            Err(IntOrStringError::InvalidPercentage { .. })
        ));
    }

    #[test]
    fn int_value_and_parse_follow_go() {
        assert_eq!(IntOrString::Int(7).int_value(), 7);
        assert_eq!(IntOrString::from_string("42").int_value(), 42);
        assert_eq!(IntOrString::from_string("+42").int_value(), 42);
        assert_eq!(IntOrString::from_string("http").int_value(), 0);
        assert_eq!(
            IntOrString::from_string("99999999999999999999").int_value(),
            i64::MAX
        );
        assert_eq!(
            IntOrString::from_string("-99999999999999999999").int_value(),
            i64::MIN
        );
        assert_eq!(IntOrString::parse("12"), IntOrString::Int(12));
        assert_eq!(IntOrString::parse("12a"), IntOrString::from_string("12a"));
        assert_eq!(
            IntOrString::parse("3000000000"),
            IntOrString::from_string("3000000000")
        );
        assert_eq!(IntOrString::default(), IntOrString::Int(0));
        assert_eq!(IntOrString::Int(-3).to_string(), "-3");
        assert_eq!(IntOrString::from_string("a").str_value(), "a");
        assert!(IntOrString::from(1).is_int());
        assert!(!IntOrString::from("1").is_int());
    }

    proptest! {
        #[test]
        fn json_round_trips(value in prop_oneof![
            any::<i32>().prop_map(IntOrString::Int),
            any::<String>().prop_map(IntOrString::String),
        ]) {
            let json = serde_json::to_string(&value).unwrap();
            prop_assert_eq!(serde_json::from_str::<IntOrString>(&json).unwrap(), value);
        }
    }
}
