//! The canonical text of a quantity (Go's `Quantity.CanonicalizeBytes`).
//!
//! Go's rules: zero is `0`; binary SI is used only for whole amounts of magnitude at least
//! 1024 (otherwise decimal SI, so nothing is rounded); decimal forms move the exponent down
//! to a multiple of three and drop trailing zeros into it, so the mantissa is an integer
//! with the largest exponent possible (`1.5` → `1500m`, `1000m` → `1`).
//!
//! Go looks the suffix up in a table and writes none when the exponent has no entry:
//! a decimal-SI amount of 10²¹ or more loses its magnitude (`1000E` is written `1`,
//! confirmed with kubectl), as does a binary-SI amount of 1024⁷ or more. This module
//! reproduces that, since the goal is Go's bytes.
//!
//! One departure: a binary-SI amount of 2¹²⁸ or more (reachable only by arithmetic or
//! [`set_format`](super::Quantity::set_format), since parsing caps binary SI at 2⁶³ − 1)
//! is written in decimal SI rather than as Go's arbitrary-precision integer.

use std::fmt::{self, Write};

use super::amount::Amount;
use super::{Format, suffix};

/// Writes the canonical text of `amount` in `format`.
pub(crate) fn write(out: &mut impl Write, amount: &Amount, format: Format) -> fmt::Result {
    if amount.is_zero() {
        return out.write_char('0');
    }
    if format == Format::BinarySI {
        let small = amount
            .abs()
            .cmp_value(&Amount::new(1024, 0).unwrap_or_default());
        if small.is_ge() {
            if let Some(integer) = amount.abs_integer() {
                return write_binary(out, amount.signum() < 0, integer);
            }
        }
        return write_decimal(out, amount, Format::DecimalSI);
    }
    write_decimal(out, amount, format)
}

fn write_binary(out: &mut impl Write, negative: bool, mut integer: u128) -> fmt::Result {
    let mut power = 0;
    while integer % 1024 == 0 {
        integer /= 1024;
        power += 1;
    }
    if negative {
        out.write_char('-')?;
    }
    write!(out, "{integer}")?;
    out.write_str(suffix::binary_si(power).unwrap_or(""))
}

fn write_decimal(out: &mut impl Write, amount: &Amount, format: Format) -> fmt::Result {
    let exponent = amount.exponent();
    let exponent3 = exponent.div_euclid(3) * 3;
    let zeros = exponent - exponent3;
    // Most mantissas fit an i64, whose formatting is quicker than i128's.
    match i64::try_from(amount.mantissa()) {
        Ok(small) => write!(out, "{small}")?,
        Err(_) => write!(out, "{}", amount.mantissa())?,
    }
    for _ in 0..zeros {
        out.write_char('0')?;
    }
    if format == Format::DecimalSI {
        out.write_str(suffix::decimal_si(exponent3).unwrap_or(""))
    } else if exponent3 != 0 {
        write!(out, "e{exponent3}")
    } else {
        Ok(())
    }
}

/// A text buffer on the stack for the canonical form, which is at most about 60 bytes
/// (38 digits, two zeros, a sign and an exponent suffix); longer text spills to the heap.
pub(crate) struct Buffer {
    bytes: [u8; 64],
    len: usize,
    spill: Option<String>,
}

impl Buffer {
    pub(crate) fn new() -> Buffer {
        Buffer {
            bytes: [0; 64],
            len: 0,
            spill: None,
        }
    }

    pub(crate) fn as_str(&self) -> &str {
        match &self.spill {
            Some(text) => text,
            // Only whole `&str`s are copied in, so the bytes are UTF-8.
            None => std::str::from_utf8(self.bytes.get(..self.len).unwrap_or_default())
                .unwrap_or_default(),
        }
    }
}

impl Write for Buffer {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if let Some(text) = &mut self.spill {
            text.push_str(s);
            return Ok(());
        }
        match self.bytes.get_mut(self.len..self.len + s.len()) {
            Some(slot) => {
                slot.copy_from_slice(s.as_bytes());
                self.len += s.len();
            }
            None => {
                let mut text = String::with_capacity(self.len + s.len() + 16);
                text.push_str(self.as_str());
                text.push_str(s);
                self.spill = Some(text);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffer_spills_to_the_heap() {
        let mut b = Buffer::new();
        for _ in 0..30 {
            b.write_str("abc").unwrap();
        }
        assert_eq!(b.as_str(), "abc".repeat(30));
        let mut small = Buffer::new();
        write!(small, "{}-x", 12).unwrap();
        assert_eq!(small.as_str(), "12-x");
    }
}
