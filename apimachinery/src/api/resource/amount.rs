//! [`Amount`]: the exact value of a quantity, a decimal `mantissa × 10^exponent`.
//!
//! Go keeps small values in an `int64` with a power-of-ten scale and falls back to an
//! arbitrary-precision decimal. Here one representation covers both: an `i128` mantissa
//! below 10³⁸ in magnitude, normalised (no trailing zero digits, zero has exponent 0), so
//! that equal values have equal fields and `Eq`/`Hash` can be derived. Values that need
//! more than 38 significant digits are refused with a typed error instead.

use std::cmp::Ordering;

/// Exclusive bound on the mantissa's magnitude: 38 decimal digits.
pub(crate) const MANTISSA_LIMIT: i128 = 10_i128.pow(38);

/// `mantissa × 10^exponent`, normalised.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Amount {
    mantissa: i128,
    exponent: i64,
}

/// 10^n for n in 0..=38.
pub(crate) const fn pow10(n: u32) -> i128 {
    10_i128.pow(n)
}

/// Number of decimal digits of a non-zero magnitude.
fn digit_count(m: u128) -> u32 {
    m.ilog10() + 1
}

impl Amount {
    /// Zero.
    pub(crate) const ZERO: Amount = Amount {
        mantissa: 0,
        exponent: 0,
    };

    /// `mantissa × 10^exponent`, or `None` when the mantissa has 39 digits or more after
    /// dropping trailing zeros.
    pub(crate) const fn new(mut mantissa: i128, mut exponent: i64) -> Option<Amount> {
        if mantissa == 0 {
            return Some(Amount::ZERO);
        }
        while mantissa % 10 == 0 {
            mantissa /= 10;
            exponent += 1;
        }
        if mantissa >= MANTISSA_LIMIT || mantissa <= -MANTISSA_LIMIT {
            return None;
        }
        Some(Amount { mantissa, exponent })
    }

    /// `mantissa × 10^exponent`, normalised in `i64` arithmetic (always in range: an
    /// `i64` has at most 19 digits).
    pub(crate) const fn from_i64(mut mantissa: i64, exponent: i32) -> Amount {
        if mantissa == 0 {
            return Amount::ZERO;
        }
        let mut exponent = exponent as i64;
        while mantissa % 10 == 0 {
            mantissa /= 10;
            exponent += 1;
        }
        Amount {
            mantissa: mantissa as i128,
            exponent,
        }
    }

    /// The mantissa, with no trailing zero digit.
    pub(crate) fn mantissa(&self) -> i128 {
        self.mantissa
    }

    /// The power of ten the mantissa is multiplied by.
    pub(crate) fn exponent(&self) -> i64 {
        self.exponent
    }

    pub(crate) fn is_zero(&self) -> bool {
        self.mantissa == 0
    }

    /// -1, 0 or 1.
    pub(crate) fn signum(&self) -> i32 {
        self.mantissa.signum() as i32
    }

    /// The negated value (always representable: the mantissa bound is symmetric).
    pub(crate) fn neg(self) -> Amount {
        Amount {
            mantissa: -self.mantissa,
            exponent: self.exponent,
        }
    }

    /// The absolute value.
    pub(crate) fn abs(self) -> Amount {
        Amount {
            mantissa: self.mantissa.abs(),
            exponent: self.exponent,
        }
    }

    /// The base-10 exponent of the leading digit plus one (`123e2` has 5).
    fn magnitude(&self) -> i64 {
        i64::from(digit_count(self.mantissa.unsigned_abs())) + self.exponent
    }

    /// Compares values exactly, whatever the exponents.
    pub(crate) fn cmp_value(&self, other: &Amount) -> Ordering {
        let sign = self.mantissa.signum().cmp(&other.mantissa.signum());
        if sign != Ordering::Equal || self.mantissa == 0 {
            return sign;
        }
        let by_magnitude = if self.exponent == other.exponent {
            self.mantissa
                .unsigned_abs()
                .cmp(&other.mantissa.unsigned_abs())
        } else {
            match self.magnitude().cmp(&other.magnitude()) {
                Ordering::Equal => {
                    // Same leading power: the exponents differ by less than 38, so the
                    // mantissa with the larger exponent widens to the other's digit count,
                    // which stays below 10^38.
                    let (a, b) = (self.mantissa.unsigned_abs(), other.mantissa.unsigned_abs());
                    if self.exponent > other.exponent {
                        let shift = (self.exponent - other.exponent) as u32;
                        (a * pow10(shift) as u128).cmp(&b)
                    } else {
                        let shift = (other.exponent - self.exponent) as u32;
                        a.cmp(&(b * pow10(shift) as u128))
                    }
                }
                unequal => unequal,
            }
        };
        if self.mantissa < 0 {
            by_magnitude.reverse()
        } else {
            by_magnitude
        }
    }

    /// The mantissa expressed at a lower exponent, if that stays in range.
    fn mantissa_at(&self, exponent: i64) -> Option<i128> {
        let shift = u32::try_from(self.exponent.checked_sub(exponent)?).ok()?;
        if shift > 38 {
            return None;
        }
        self.mantissa.checked_mul(pow10(shift))
    }

    /// The exact sum, or `None` when it needs more than 38 digits.
    pub(crate) fn checked_add(self, other: Amount) -> Option<Amount> {
        if other.is_zero() {
            return Some(self);
        }
        if self.is_zero() {
            return Some(other);
        }
        let exponent = self.exponent.min(other.exponent);
        let sum = self
            .mantissa_at(exponent)?
            .checked_add(other.mantissa_at(exponent)?)?;
        Amount::new(sum, exponent)
    }

    /// The exact product with an integer, or `None` when it needs more than 38 digits.
    pub(crate) fn checked_mul_int(self, factor: i64) -> Option<Amount> {
        Amount::new(
            self.mantissa.checked_mul(i128::from(factor))?,
            self.exponent,
        )
    }

    /// The value rounded away from zero to a multiple of `10^exponent`, and whether that
    /// lost nothing (Go's `AsScale`, with `inf.RoundUp`).
    pub(crate) fn round_up(self, exponent: i64) -> (Amount, bool) {
        if self.exponent >= exponent || self.is_zero() {
            return (self, true);
        }
        let shift = exponent.saturating_sub(self.exponent);
        let step = self.mantissa.signum();
        if shift > 38 {
            // |mantissa| < 10^38 <= 10^shift: one unit of the target scale.
            let unit = Amount::new(step, exponent).unwrap_or(Amount::ZERO);
            return (unit, false);
        }
        let divisor = pow10(shift as u32);
        let (quotient, remainder) = (self.mantissa / divisor, self.mantissa % divisor);
        let rounded = if remainder == 0 {
            quotient
        } else {
            quotient + step
        };
        // The rounded mantissa has fewer digits than the original one, so it is in range.
        let amount = Amount::new(rounded, exponent).unwrap_or(Amount::ZERO);
        (amount, remainder == 0)
    }

    /// The value in units of `10^exponent`, rounded away from zero, and whether it fits
    /// an `i64` (saturated when it does not).
    pub(crate) fn to_i64_at(self, exponent: i64) -> (i64, bool) {
        let (rounded, _) = self.round_up(exponent);
        if rounded.is_zero() {
            return (0, true);
        }
        let saturated = if rounded.mantissa < 0 {
            i64::MIN
        } else {
            i64::MAX
        };
        match rounded.mantissa_at(exponent) {
            Some(units) => match i64::try_from(units) {
                Ok(v) => (v, true),
                Err(_) => (saturated, false),
            },
            None => (saturated, false),
        }
    }

    /// The absolute value as an integer, when it is one and fits 128 bits.
    pub(crate) fn abs_integer(&self) -> Option<u128> {
        if self.exponent < 0 {
            return None;
        }
        let shift = u32::try_from(self.exponent).ok()?;
        let scale = 10_u128.checked_pow(shift)?;
        self.mantissa.unsigned_abs().checked_mul(scale)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a(m: i128, e: i64) -> Amount {
        Amount::new(m, e).unwrap()
    }

    #[test]
    fn normalises_trailing_zeros() {
        assert_eq!(a(1000, -3), a(1, 0));
        assert_eq!(a(0, 7), Amount::ZERO);
        assert_eq!(a(-120, 1), Amount::new(-12, 2).unwrap());
        assert!(Amount::new(MANTISSA_LIMIT + 1, 0).is_none());
        assert_eq!(Amount::new(MANTISSA_LIMIT, 0), Some(a(1, 38)));
        assert_eq!(Amount::new(MANTISSA_LIMIT, 0 - 1), Some(a(1, 37)));
    }

    #[test]
    fn compares_across_exponents() {
        assert_eq!(a(1, 3).cmp_value(&a(999, 0)), Ordering::Greater);
        assert_eq!(a(1, 3).cmp_value(&a(1000, 0)), Ordering::Equal);
        assert_eq!(a(-1, 3).cmp_value(&a(-999, 0)), Ordering::Less);
        assert_eq!(a(15, -1).cmp_value(&a(2, 0)), Ordering::Less);
        assert_eq!(a(1, 100).cmp_value(&a(99, -100)), Ordering::Greater);
        assert_eq!(a(-1, 0).cmp_value(&Amount::ZERO), Ordering::Less);
    }

    #[test]
    fn adds_and_rounds() {
        assert_eq!(a(1, 0).checked_add(a(5, -1)), Some(a(15, -1)));
        assert_eq!(a(1, 40).checked_add(a(1, 0)), None);
        assert_eq!(a(15, -1).round_up(0), (a(2, 0), false));
        assert_eq!(a(-15, -1).round_up(0), (a(-2, 0), false));
        assert_eq!(a(1, -50).round_up(-9), (a(1, -9), false));
        assert_eq!(a(2, 0).round_up(0), (a(2, 0), true));
        assert_eq!(a(1, 0).to_i64_at(-3), (1000, true));
        assert_eq!(a(1, 30).to_i64_at(0), (i64::MAX, false));
        assert_eq!(a(-1, -6).to_i64_at(0), (-1, true));
        assert_eq!(a(12, 1).abs_integer(), Some(120));
        assert_eq!(a(12, -1).abs_integer(), None);
    }
}
