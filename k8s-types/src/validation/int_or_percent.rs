//! Go's integer-or-percent numbers of the apps group (`ValidatePositiveIntOrPercent`,
//! `IsNotMoreThan100Percent`, `getIntOrPercentValue`), which rolling updates and
//! disruption budgets share.

use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};

use super::{json_value, non_negative};
use crate::value::IntOrString;

/// An `IntOrString` as Go prints it (`json.Marshal`: a number or a quoted string).
pub(crate) fn int_or_string_value(v: &IntOrString) -> BadValue {
    json_value(v)
}

/// The internal `intstr.IntOrString` an absent `apps/v1` pointer converts to: 0.
#[cfg(feature = "apps")]
pub(crate) fn int_or_zero(v: Option<&IntOrString>) -> IntOrString {
    v.cloned().unwrap_or(IntOrString::Int(0))
}

/// Go's `strconv.Atoi` as Go's callers here use it, error ignored: a decimal integer
/// with an optional sign, saturated at the int64 bounds; 0 when it is not one.
pub(crate) fn go_atoi(s: &str) -> i64 {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return 0;
    }
    let negative = s.starts_with('-');
    s.parse::<i64>()
        .unwrap_or(if negative { i64::MIN } else { i64::MAX })
}

/// Go's `getPercentValue`: the number of a valid percentage.
pub(crate) fn percent_value(v: &IntOrString) -> Option<i64> {
    match v {
        IntOrString::String(s)
            if apimachinery::util::validation::is_valid_percent(s).is_empty() =>
        {
            Some(go_atoi(&s[..s.len() - 1]))
        }
        _ => None,
    }
}

/// Go's `getIntOrPercentValue`: a percentage's number, else `IntValue()` (a string that
/// is a plain integer counts as that integer).
#[cfg(feature = "apps")]
pub(crate) fn int_or_percent_value(v: &IntOrString) -> i64 {
    match (percent_value(v), v) {
        (Some(p), _) => p,
        (None, IntOrString::Int(i)) => i64::from(*i),
        (None, IntOrString::String(s)) => go_atoi(s),
    }
}

/// Go's `ValidatePositiveIntOrPercent`: a non-negative integer or a percentage.
pub(crate) fn positive_int_or_percent(v: &IntOrString, path: &Path, errs: &mut ErrorList) {
    match v {
        IntOrString::Int(i) => non_negative(i64::from(*i), path, errs),
        IntOrString::String(s) => {
            for msg in apimachinery::util::validation::is_valid_percent(s) {
                errs.push(Error::invalid(path, int_or_string_value(v), msg));
            }
        }
    }
}

/// Go's `IsNotMoreThan100Percent`.
pub(crate) fn not_more_than_100_percent(v: &IntOrString, path: &Path, errs: &mut ErrorList) {
    if percent_value(v).is_some_and(|p| p > 100) {
        errs.push(Error::invalid(
            path,
            int_or_string_value(v),
            "must not be greater than 100%",
        ));
    }
}
