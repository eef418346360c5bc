//! Reading a quantity's text the way Go's `resource.ParseQuantity` does.

use super::amount::{Amount, pow10};
use super::{Format, Quantity, QuantityError, suffix};

/// Largest amount a binary-SI quantity may hold (Go caps at `2^63 - 1`).
const BINARY_SI_MAX: u128 = i64::MAX as u128;

/// Parses a quantity (Go's `resource.ParseQuantity`): an optional sign, a decimal number
/// (`1`, `1.5`, `.5`, `5.`), and a suffix: none, a decimal SI prefix (`n u m k M G T P E`),
/// a binary one (`Ki Mi Gi Ti Pi Ei`), or an exponent (`e3`, `E-2`, `e+6`).
///
/// Amounts finer than a nano unit are rounded up (away from zero) to one, binary-SI
/// amounts are capped at `2^63 - 1`, and a binary-SI amount below one becomes decimal SI,
/// all as in Go. When Go would keep the text as the quantity's canonical form (its fast
/// path for texts such as `"100m"`, `"1Gi"`, `"1.500"`, `"+1"`), the quantity keeps it too
/// and writes it back unchanged.
///
/// ```
/// use apimachinery::api::resource::{parse_quantity, QuantityError};
///
/// assert_eq!(parse_quantity("1.5")?.to_string(), "1500m");
/// assert_eq!(parse_quantity("0.1n")?.to_string(), "1n");
/// assert!(matches!(parse_quantity("1MB"), Err(QuantityError::FormatWrong { .. })));
/// assert!(matches!(parse_quantity("1Zi"), Err(QuantityError::FormatWrong { .. })));
/// assert!(matches!(parse_quantity("1Ki5"), Err(QuantityError::Suffix { .. })));
/// # Ok::<(), QuantityError>(())
/// ```
pub fn parse_quantity(text: &str) -> Result<Quantity, QuantityError> {
    if text.is_empty() {
        return Err(QuantityError::FormatWrong {
            input: String::new(),
        });
    }
    if text == "0" {
        return Ok(Quantity::from_parts(
            Amount::ZERO,
            Format::DecimalSI,
            Some(text),
        ));
    }
    let scanned = scan(text).ok_or_else(|| QuantityError::FormatWrong { input: text.into() })?;
    let (base, exponent, format) = suffix::interpret(scanned.suffix)
        .ok_or_else(|| QuantityError::Suffix { input: text.into() })?;
    if let Some(quantity) = fast_path(text, &scanned, base, exponent, format) {
        return Ok(quantity);
    }
    slow_path(text, &scanned, base, exponent, format)
}

/// The parts of a quantity's text, as Go's `parseQuantityString` splits it.
struct Scanned<'a> {
    positive: bool,
    /// Everything before the suffix (sign, digits and point).
    value: &'a str,
    /// The integer digits without leading zeros; `"0"` when there were none left.
    num: &'a str,
    /// The fractional digits.
    denom: &'a str,
    suffix: &'a str,
}

/// Splits `text` into sign, number and suffix, or `None` where Go says `ErrFormatWrong`.
fn scan(text: &str) -> Option<Scanned<'_>> {
    let bytes = text.as_bytes();
    let end = bytes.len();
    let mut pos = 0;
    let mut positive = true;
    match bytes.first() {
        Some(b'-') => {
            positive = false;
            pos += 1;
        }
        Some(b'+') => pos += 1,
        _ => {}
    }
    let digits_from = |from: usize| {
        bytes.get(from..).map_or(0, |rest| {
            rest.iter().take_while(|b| b.is_ascii_digit()).count()
        }) + from
    };
    while bytes.get(pos) == Some(&b'0') {
        pos += 1;
    }
    if pos >= end {
        // Only a sign and zeros: Go returns zero right away, whatever the sign.
        return Some(Scanned {
            positive,
            value: "0",
            num: "0",
            denom: "",
            suffix: "",
        });
    }
    let num_end = digits_from(pos);
    let mut num = text.get(pos..num_end)?;
    pos = num_end;
    if num.is_empty() {
        num = "0";
    }
    let mut denom = "";
    if bytes.get(pos) == Some(&b'.') {
        let denom_end = digits_from(pos + 1);
        denom = text.get(pos + 1..denom_end)?;
        pos = denom_end;
    }
    let value = text.get(..pos)?;
    let suffix_start = pos;
    while bytes.get(pos).is_some_and(|b| b"eEinumkKMGTP".contains(b)) {
        pos += 1;
    }
    if matches!(bytes.get(pos), Some(b'-' | b'+')) {
        pos += 1;
    }
    if digits_from(pos) != end {
        return None;
    }
    Some(Scanned {
        positive,
        value,
        num,
        denom,
        suffix: text.get(suffix_start..)?,
    })
}

/// Go's int64 fast path: taken for up to 18 digits at a scale of at least nano, and for
/// whole binary-SI amounts that fit an `i64`. It is also where Go decides to keep the text.
fn fast_path(
    text: &str,
    s: &Scanned<'_>,
    base: u32,
    exponent: i32,
    format: Format,
) -> Option<Quantity> {
    let digits = s.num.len() + s.denom.len();
    let (mut scale, precision, multiplier) = if base == 10 {
        (exponent, 18 - digits as i64, 1_i64)
    } else if exponent >= 0 && s.denom.is_empty() {
        let precision = 15 - s.num.len() as i64 - i64::from(exponent) * 3 / 10 - 1;
        (0, precision, 1_i64.checked_shl(exponent as u32)?)
    } else {
        return None;
    };
    if precision < 0 {
        return None;
    }
    // Go subtracts in int32 and lets it wrap.
    scale = scale.wrapping_sub(s.denom.len() as i32);
    if scale < -9 {
        return None;
    }
    let shifted = s.num.bytes().chain(s.denom.bytes());
    let value = shifted.fold(0_i64, |acc, d| acc * 10 + i64::from(d - b'0'));
    let mut result = value.checked_mul(multiplier)?;
    if !s.positive {
        result = -result;
    }
    let keep_text = if format == Format::BinarySI {
        value & 0x07 != 0
    } else {
        // Go looks at the last three digits of num + denom.
        let mut tail = s.num.bytes().chain(s.denom.bytes()).rev().take(3);
        let ends_in_000 = digits >= 3 && tail.all(|d| d == b'0');
        scale % 3 == 0 && !ends_in_000 && !s.num.starts_with('0')
    };
    let amount = Amount::new(i128::from(result), i64::from(scale))?;
    Some(Quantity::from_parts(
        amount,
        format,
        keep_text.then_some(text),
    ))
}

/// Go's arbitrary-precision path: exact value, rounded up to nano units, binary SI capped.
fn slow_path(
    text: &str,
    s: &Scanned<'_>,
    base: u32,
    exponent: i32,
    mut format: Format,
) -> Result<Quantity, QuantityError> {
    if !s.value.bytes().any(|b| b.is_ascii_digit()) {
        return Err(QuantityError::Numeric { input: text.into() });
    }
    let out_of_range = || QuantityError::OutOfRange { input: text.into() };
    let digits: Vec<u8> = s
        .num
        .bytes()
        .chain(s.denom.bytes())
        .map(|d| d - b'0')
        .collect();
    let magnitude = if base == 10 {
        let scale = i64::from(exponent) - s.denom.len() as i64;
        decimal_rounded_up(&digits, scale).ok_or_else(out_of_range)?
    } else {
        let binary =
            binary_rounded_up(&digits, s.denom.len() as i64, exponent).ok_or_else(out_of_range)?;
        if binary
            .cmp_value(&Amount::new(1, 0).unwrap_or_default())
            .is_lt()
            && !binary.is_zero()
        {
            format = Format::DecimalSI;
        }
        binary
    };
    let amount = if s.positive {
        magnitude
    } else {
        magnitude.neg()
    };
    Ok(Quantity::from_parts(amount, format, None))
}

/// `digits × 10^scale`, rounded up to a multiple of 10⁻⁹ (non-negative).
fn decimal_rounded_up(digits: &[u8], scale: i64) -> Option<Amount> {
    let count = digits.len() as i64;
    let mut mantissa: i128 = 0;
    let mut pending_zeros: u32 = 0;
    let mut last_power = 0_i64;
    let mut below_nano = false;
    for (i, &d) in digits.iter().enumerate() {
        let power = count - 1 - i as i64 + scale;
        if power < -9 {
            below_nano |= d != 0;
        } else if d == 0 {
            pending_zeros += 1;
        } else {
            if mantissa != 0 {
                mantissa = mantissa
                    .checked_mul(pow10(pending_zeros.checked_add(1).filter(|n| *n <= 38)?))?
                    .checked_add(i128::from(d))?;
            } else {
                mantissa = i128::from(d);
            }
            pending_zeros = 0;
            last_power = power;
        }
    }
    let amount = Amount::new(mantissa, last_power)?;
    if below_nano {
        amount.checked_add(Amount::new(1, -9)?)
    } else {
        Some(amount)
    }
}

/// `digits × 2^exponent / 10^fraction_digits`, rounded up to a multiple of 10⁻⁹ and capped
/// at `2^63 - 1` (non-negative).
fn binary_rounded_up(digits: &[u8], fraction_digits: i64, exponent: i32) -> Option<Amount> {
    let significant: Vec<u8> = {
        let start = digits.iter().position(|d| *d != 0).unwrap_or(digits.len());
        digits.get(start..)?.to_vec()
    };
    if significant.is_empty() {
        return Some(Amount::ZERO);
    }
    let trailing = significant.iter().rev().take_while(|d| **d == 0).count();
    let kept = significant.get(..significant.len() - trailing)?;
    let mut coefficient: u128 = 0;
    for &d in kept {
        coefficient = coefficient.checked_mul(10)?.checked_add(u128::from(d))?;
    }
    // value = coefficient × 2^exponent × 10^(trailing - fraction_digits)
    let divisor_power = fraction_digits - trailing as i64;
    let cap = Amount::new(BINARY_SI_MAX as i128, 0);
    let Some(product) = u32::try_from(exponent)
        .ok()
        .and_then(|e| 1_u128.checked_shl(e).filter(|_| e < 128))
        .and_then(|p| coefficient.checked_mul(p))
    else {
        // At least 2^128 / 10^divisor_power, which exceeds the cap below 10^19.
        return if divisor_power <= 19 { cap } else { None };
    };
    let amount = if divisor_power <= 0 {
        let Some(scaled) = u32::try_from(-divisor_power)
            .ok()
            .and_then(|p| 10_u128.checked_pow(p))
            .and_then(|p| product.checked_mul(p))
        else {
            return cap;
        };
        if scaled > BINARY_SI_MAX {
            return cap;
        }
        Amount::new(scaled as i128, 0)?
    } else if divisor_power > 9 {
        let shift = u32::try_from(divisor_power - 9).ok()?;
        let divisor = 10_u128.checked_pow(shift);
        let units = match divisor {
            Some(divisor) => product.div_ceil(divisor),
            None => 1,
        };
        Amount::new(i128::try_from(units).ok()?, -9)?
    } else {
        Amount::new(i128::try_from(product).ok()?, -divisor_power)?
    };
    match cap {
        Some(cap) if amount.cmp_value(&cap).is_gt() => Some(cap),
        _ => Some(amount),
    }
}
