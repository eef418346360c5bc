//! [`Quantity`]: an exact decimal amount with Go's text and JSON forms.

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;

use super::amount::Amount;
use super::repr::Repr;
use super::{Format, QuantityError, Scale, canonical, parse_quantity};
use crate::raw_json::{SERDE_JSON_RAW_TOKEN, raw_text_from_map};

/// A fixed-point amount such as `500m` CPU or `1Gi` of memory (Go's `resource.Quantity`).
///
/// The value is exact: parsing keeps every digit down to nano units (finer amounts are
/// rounded up to one nano unit, as in Go). It holds up to 38 significant decimal digits —
/// every amount with at most 29 integer digits at full nano precision, and larger ones with
/// trailing zeros (`1e100`); Go's arbitrary-precision fallback accepts more, and those
/// texts are refused here with [`QuantityError::OutOfRange`].
///
/// Equality, ordering and hashing are by value, as Go's `Cmp`/`Equal`: `"1Gi" == "1024Mi"`
/// and `"1" == "1000m"`, whatever the format or text.
///
/// The text ([`Display`](fmt::Display), JSON) is Go's canonical form in the quantity's
/// [`Format`] (`"1.5Gi"` is written `"1536Mi"`), except that a quantity parsed from a text
/// Go keeps (see [`parse_quantity`]) writes that text back unchanged, as Go does. JSON
/// reads a string or a number (`null` reads as zero) and writes a string.
///
/// ```
/// use apimachinery::api::resource::{Format, Quantity, Scale};
///
/// let cpu: Quantity = "250m".parse()?;
/// assert_eq!(cpu.milli_value(), 250);
/// assert_eq!(cpu.value(), 1); // rounded up, away from zero
///
/// let mut total = Quantity::new(0, Format::DecimalSI);
/// total.add(&cpu)?;
/// total.add(&"1.75".parse()?)?;
/// assert_eq!(total.to_string(), "2");
/// assert_eq!(serde_json::to_string(&total).unwrap(), r#""2""#);
///
/// let mem: Quantity = serde_json::from_str(r#""1Gi""#).unwrap();
/// assert_eq!(mem.scaled_value(Scale::MEGA), 1074);
/// assert_eq!(mem, Quantity::new(1 << 30, Format::BinarySI));
/// # Ok::<(), apimachinery::api::resource::QuantityError>(())
/// ```
#[derive(Clone, Default)]
pub struct Quantity {
    /// The amount, the format, and the parsed text when Go would keep it as the
    /// canonical form; inline for the usual quantities.
    repr: Repr,
}

impl Quantity {
    /// `value` in `format` (Go's `NewQuantity`).
    pub const fn new(value: i64, format: Format) -> Quantity {
        Quantity::new_scaled(value, 0, format)
    }

    /// `value / 1000` in `format` (Go's `NewMilliQuantity`).
    pub const fn new_milli_quantity(value: i64, format: Format) -> Quantity {
        Quantity::new_scaled(value, -3, format)
    }

    /// `value × 10^scale` in decimal SI (Go's `NewScaledQuantity`).
    pub const fn new_scaled_quantity(value: i64, scale: Scale) -> Quantity {
        Quantity::new_scaled(value, scale.0, Format::DecimalSI)
    }

    const fn new_scaled(value: i64, exponent: i32, format: Format) -> Quantity {
        // Normalised when read: an i64 mantissa always has an exact amount.
        Quantity {
            repr: Repr::small(value, exponent, format),
        }
    }

    pub(crate) fn from_parts(amount: Amount, format: Format, text: Option<&str>) -> Quantity {
        Quantity {
            repr: Repr::new(amount, format, text),
        }
    }

    fn amount(&self) -> Amount {
        self.repr.amount()
    }

    /// Parses `text` (Go's `ParseQuantity`); the same as [`parse_quantity`] and `str::parse`.
    pub fn parse_quantity(text: &str) -> Result<Quantity, QuantityError> {
        parse_quantity(text)
    }

    /// The format the canonical form is written in.
    pub fn format(&self) -> Format {
        self.repr.format()
    }

    /// Changes the format the quantity is written in. Unlike assigning Go's `Format` field,
    /// this also drops a kept parsed text, so the new format shows.
    pub fn set_format(&mut self, format: Format) {
        self.repr = Repr::new(self.amount(), format, None);
    }

    /// True when the amount is zero.
    pub fn is_zero(&self) -> bool {
        self.amount().is_zero()
    }

    /// -1, 0 or 1 as the amount is negative, zero or positive.
    pub fn sign(&self) -> i32 {
        self.amount().signum()
    }

    /// The amount rounded up, away from zero, to a whole number (Go's `Value`); saturates
    /// at `i64::MIN`/`i64::MAX`.
    pub fn value(&self) -> i64 {
        self.scaled_value(Scale::ONE)
    }

    /// The amount in thousandths, rounded up away from zero (Go's `MilliValue`);
    /// saturates at `i64::MIN`/`i64::MAX`.
    pub fn milli_value(&self) -> i64 {
        self.scaled_value(Scale::MILLI)
    }

    /// The amount in units of `10^scale`, rounded up away from zero (Go's `ScaledValue`):
    /// `1Gi` at [`Scale::MEGA`] is 1074. Saturates at `i64::MIN`/`i64::MAX` where Go's
    /// result would overflow.
    pub fn scaled_value(&self, scale: Scale) -> i64 {
        self.amount().to_i64_at(i64::from(scale.0)).0
    }

    /// The amount as an `i64` when it is a whole number in range (Go's `AsInt64`). Go also
    /// answers no for some whole amounts, depending on how it stored them (`1000m`); here
    /// only the value counts.
    pub fn as_int64(&self) -> Option<i64> {
        let amount = self.amount();
        if amount.exponent() < 0 {
            return None;
        }
        match amount.to_i64_at(0) {
            (v, true) => Some(v),
            _ => None,
        }
    }

    /// The amount as the nearest `f64` (Go's `AsApproximateFloat64`).
    pub fn as_approximate_float64(&self) -> f64 {
        let amount = self.amount();
        let exponent = i32::try_from(amount.exponent()).unwrap_or(if amount.exponent() < 0 {
            i32::MIN
        } else {
            i32::MAX
        });
        // Parsing the decimal text gives the correctly rounded f64.
        format!("{}e{}", amount.mantissa(), exponent)
            .parse()
            .unwrap_or(f64::NAN)
    }

    /// Compares the amount with an integer (Go's `CmpInt64`).
    pub fn cmp_int64(&self, y: i64) -> Ordering {
        self.amount().cmp_value(&Amount::from_i64(y, 0))
    }

    /// Adds `y` in place (Go's `Add`); a zero quantity takes `y`'s format. Fails, leaving
    /// the quantity unchanged, when the sum needs more than 38 significant digits.
    pub fn add(&mut self, y: &Quantity) -> Result<(), QuantityError> {
        let sum = self
            .amount()
            .checked_add(y.amount())
            .ok_or_else(|| self.overflow("+", y))?;
        self.set_result(sum, y.format());
        Ok(())
    }

    /// Subtracts `y` in place (Go's `Sub`); a zero quantity takes `y`'s format. Fails,
    /// leaving the quantity unchanged, when the difference needs more than 38 significant
    /// digits.
    pub fn sub(&mut self, y: &Quantity) -> Result<(), QuantityError> {
        let difference = self
            .amount()
            .checked_add(y.amount().neg())
            .ok_or_else(|| self.overflow("-", y))?;
        self.set_result(difference, y.format());
        Ok(())
    }

    /// Multiplies by `y` in place (Go's `Mul`). Fails, leaving the quantity unchanged,
    /// when the product needs more than 38 significant digits; Go's `false` (an inexact
    /// product) cannot happen here.
    pub fn mul(&mut self, y: i64) -> Result<(), QuantityError> {
        let product = self
            .amount()
            .checked_mul_int(y)
            .ok_or_else(|| QuantityError::Overflow {
                op: "*",
                left: self.to_string(),
                right: y.to_string(),
            })?;
        self.repr = Repr::new(product, self.format(), None);
        Ok(())
    }

    /// Negates in place (Go's `Neg`).
    pub fn neg(&mut self) {
        self.repr = Repr::new(self.amount().neg(), self.format(), None);
    }

    /// Rounds up, away from zero, to a multiple of `10^scale` (Go's `RoundUp`); returns
    /// whether nothing was lost.
    pub fn round_up(&mut self, scale: Scale) -> bool {
        let (rounded, exact) = self.amount().round_up(i64::from(scale.0));
        if !exact {
            self.repr = Repr::new(rounded, self.format(), None);
        }
        exact
    }

    /// Sets the amount to `value` (Go's `Set`), keeping the format.
    pub fn set(&mut self, value: i64) {
        self.set_scaled(value, Scale::ONE);
    }

    /// Sets the amount to `value / 1000` (Go's `SetMilli`), keeping the format.
    pub fn set_milli(&mut self, value: i64) {
        self.set_scaled(value, Scale::MILLI);
    }

    /// Sets the amount to `value × 10^scale` (Go's `SetScaled`), keeping the format.
    pub fn set_scaled(&mut self, value: i64, scale: Scale) {
        *self = Quantity::new_scaled(value, scale.0, self.format());
    }

    /// The canonical text in the quantity's format, ignoring a kept parsed text (Go's
    /// `CanonicalizeBytes`, suffix appended).
    pub fn canonical_string(&self) -> String {
        let mut out = String::with_capacity(16);
        // Writing into a String cannot fail.
        let _ = canonical::write(&mut out, &self.amount(), self.format());
        out
    }

    fn set_result(&mut self, amount: Amount, other_format: Format) {
        let format = if self.is_zero() {
            other_format
        } else {
            self.format()
        };
        self.repr = Repr::new(amount, format, None);
    }

    fn overflow(&self, op: &'static str, y: &Quantity) -> QuantityError {
        QuantityError::Overflow {
            op,
            left: self.to_string(),
            right: y.to_string(),
        }
    }
}

impl PartialEq for Quantity {
    fn eq(&self, other: &Quantity) -> bool {
        self.amount() == other.amount()
    }
}

impl Eq for Quantity {}

impl Hash for Quantity {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.amount().hash(state);
    }
}

impl PartialOrd for Quantity {
    fn partial_cmp(&self, other: &Quantity) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Quantity {
    /// By value (Go's `Cmp`).
    fn cmp(&self, other: &Quantity) -> Ordering {
        self.amount().cmp_value(&other.amount())
    }
}

impl std::ops::Neg for Quantity {
    type Output = Quantity;

    fn neg(mut self) -> Quantity {
        Quantity::neg(&mut self);
        self
    }
}

impl FromStr for Quantity {
    type Err = QuantityError;

    fn from_str(text: &str) -> Result<Quantity, QuantityError> {
        parse_quantity(text)
    }
}

impl TryFrom<&str> for Quantity {
    type Error = QuantityError;

    fn try_from(text: &str) -> Result<Quantity, QuantityError> {
        parse_quantity(text)
    }
}

impl fmt::Display for Quantity {
    /// Go's `String()`: the kept parsed text, or the canonical form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.repr.text() {
            Some(text) => f.write_str(text),
            None => canonical::write(f, &self.amount(), self.format()),
        }
    }
}

impl fmt::Debug for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Quantity({self}, {})", self.format())
    }
}

impl Quantity {
    /// `f` of Go's `String()` (see [`Display`](fmt::Display)), without a `String`: the
    /// kept text, or the canonical form written on the stack.
    pub(crate) fn with_text<R>(&self, f: impl FnOnce(&str) -> R) -> R {
        if let Some(text) = self.repr.text() {
            return f(text);
        }
        let mut buffer = canonical::Buffer::new();
        // Writing into the buffer cannot fail.
        let _ = canonical::write(&mut buffer, &self.amount(), self.format());
        f(buffer.as_str())
    }
}

impl serde::Serialize for Quantity {
    /// Go's `MarshalJSON`: the text as a string.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.with_text(|text| serializer.serialize_str(text))
    }
}

// Written by the serde impl above, compiled once here rather than per struct using it.
crate::write_json_by_serde!(Quantity);

impl<'de> serde::Deserialize<'de> for Quantity {
    /// Go's `UnmarshalJSON`: a string or a number; `null` is zero.
    ///
    /// From serde_json (text or `serde_json::Value`) this works on the value's JSON text as
    /// Go does: the quotes of a string are cut off without decoding escapes, surrounding
    /// spaces are trimmed, and a number is read from its literal text (so `1e3` keeps
    /// its text, as in Go). Other formats hand over strings and numbers, and numbers with
    /// a fraction arrive as `f64`, read from their shortest decimal text.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_newtype_struct(SERDE_JSON_RAW_TOKEN, QuantityVisitor)
    }
}

/// Go's `UnmarshalJSON` on the JSON text of the value.
fn from_json_text(raw: &str) -> Result<Quantity, String> {
    if raw == "null" {
        return Ok(Quantity::default());
    }
    let unquoted = raw
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .unwrap_or(raw);
    parse_quantity(unquoted.trim()).map_err(|e| e.to_string())
}

struct QuantityVisitor;

impl QuantityVisitor {
    fn parse<E: serde::de::Error>(text: &str) -> Result<Quantity, E> {
        parse_quantity(text.trim()).map_err(E::custom)
    }
}

impl<'de> serde::de::Visitor<'de> for QuantityVisitor {
    type Value = Quantity;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a quantity string such as \"100m\" or \"1Gi\", or a number")
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Quantity, E> {
        Self::parse(v)
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Quantity, E> {
        Self::parse(&v.to_string())
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Quantity, E> {
        Self::parse(&v.to_string())
    }

    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Quantity, E> {
        if !v.is_finite() {
            return Err(E::custom(format!("quantity {v} is not a finite number")));
        }
        Self::parse(&format!("{v}"))
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Quantity, E> {
        Ok(Quantity::default())
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<Quantity, E> {
        Ok(Quantity::default())
    }

    fn visit_newtype_struct<D: serde::Deserializer<'de>>(self, d: D) -> Result<Quantity, D::Error> {
        d.deserialize_any(self)
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Quantity, A::Error> {
        raw_text_from_map(&mut map, from_json_text)?
            .ok_or_else(|| serde::de::Error::invalid_type(serde::de::Unexpected::Map, &self))
    }
}
