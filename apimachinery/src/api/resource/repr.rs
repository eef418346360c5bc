//! [`Repr`]: how a [`Quantity`](super::Quantity) is held in memory.
//!
//! Quantities sit in `BTreeMap<String, Quantity>` (a container's requests and limits, a
//! node's capacity), whose nodes reserve eleven value slots whatever their length, so
//! the size of a quantity counts eleven times per map in an informer cache. The amounts
//! and texts found there are small (`100m`, `128Mi`, `2`): those are held inline in 24
//! bytes, the size of the `String` other Rust libraries keep, with no heap allocation;
//! anything larger (a mantissa beyond `i64`, an exponent beyond `i32`, a kept text longer
//! than [`INLINE_TEXT`] bytes) is boxed.

use super::Format;
use super::amount::Amount;

/// The longest kept text held inline.
pub(crate) const INLINE_TEXT: usize = 9;

/// A quantity's amount, format and kept text (see the module doc).
#[derive(Clone)]
pub(crate) enum Repr {
    /// `mantissa × 10^exponent`, and the kept text when `len` is not zero.
    Inline {
        mantissa: i64,
        exponent: i32,
        format: Format,
        len: u8,
        text: [u8; INLINE_TEXT],
    },
    /// Everything else.
    Boxed(Box<Wide>),
}

/// The boxed form: any amount and text.
#[derive(Clone)]
pub(crate) struct Wide {
    amount: Amount,
    format: Format,
    text: Option<Box<str>>,
}

/// Zero in Go's zero format, with no text (Go's zero `Quantity`).
impl Default for Repr {
    fn default() -> Repr {
        Repr::small(0, 0, Format::DecimalExponent)
    }
}

impl Repr {
    /// `mantissa × 10^exponent` without a text, inline (usable in `const` constructors).
    pub(crate) const fn small(mantissa: i64, exponent: i32, format: Format) -> Repr {
        Repr::Inline {
            mantissa,
            exponent,
            format,
            len: 0,
            text: [0; INLINE_TEXT],
        }
    }

    /// The smallest form that holds `amount`, `format` and `text` (an empty text is no
    /// text: parsing never keeps one).
    pub(crate) fn new(amount: Amount, format: Format, text: Option<&str>) -> Repr {
        let text = text.filter(|t| !t.is_empty());
        let small = (
            i64::try_from(amount.mantissa()),
            i32::try_from(amount.exponent()),
        );
        if let (Ok(mantissa), Ok(exponent)) = small {
            match text {
                None => return Repr::small(mantissa, exponent, format),
                Some(t) if t.len() <= INLINE_TEXT => {
                    let mut bytes = [0; INLINE_TEXT];
                    bytes[..t.len()].copy_from_slice(t.as_bytes());
                    return Repr::Inline {
                        mantissa,
                        exponent,
                        format,
                        len: t.len() as u8,
                        text: bytes,
                    };
                }
                Some(_) => {}
            }
        }
        Repr::Boxed(Box::new(Wide {
            amount,
            format,
            text: text.map(Box::from),
        }))
    }

    /// The amount, normalised.
    pub(crate) fn amount(&self) -> Amount {
        match self {
            Repr::Inline {
                mantissa, exponent, ..
            } => Amount::from_i64(*mantissa, *exponent),
            Repr::Boxed(wide) => wide.amount,
        }
    }

    pub(crate) fn format(&self) -> Format {
        match self {
            Repr::Inline { format, .. } => *format,
            Repr::Boxed(wide) => wide.format,
        }
    }

    /// The kept parsed text, if any.
    pub(crate) fn text(&self) -> Option<&str> {
        match self {
            Repr::Inline { len: 0, .. } => None,
            // Only ever filled from a `&str` of that length, so it is valid UTF-8.
            Repr::Inline { len, text, .. } => std::str::from_utf8(&text[..usize::from(*len)]).ok(),
            Repr::Boxed(wide) => wide.text.as_deref(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usual_quantities_take_no_more_than_a_string() {
        assert_eq!(size_of::<Repr>(), size_of::<String>());
        assert_eq!(size_of::<super::super::Quantity>(), size_of::<String>());
    }

    #[test]
    fn holds_what_it_is_given() {
        let cases = [
            (Amount::new(1, 2).unwrap(), Some("100")),
            (Amount::new(-5, -3).unwrap(), None),
            (Amount::new(123_456_789, 0).unwrap(), Some("123456789")),
            // A text too long to be inline.
            (Amount::new(1_234_567_891, 0).unwrap(), Some("1234567891")),
            // A mantissa beyond i64.
            (Amount::new(i128::from(i64::MAX) * 10 + 1, 0).unwrap(), None),
            // An exponent beyond i32.
            (
                Amount::new(1, i64::from(i32::MAX) + 1).unwrap(),
                Some("1e2147483648"),
            ),
            (Amount::ZERO, Some("")),
        ];
        for (amount, text) in cases {
            let repr = Repr::new(amount, Format::BinarySI, text);
            assert_eq!(repr.amount(), amount, "{text:?}");
            assert_eq!(repr.format(), Format::BinarySI);
            assert_eq!(repr.text(), text.filter(|t| !t.is_empty()));
            let inline = matches!(repr, Repr::Inline { .. });
            let fits = i64::try_from(amount.mantissa()).is_ok()
                && i32::try_from(amount.exponent()).is_ok()
                && text.is_none_or(|t| t.len() <= INLINE_TEXT);
            assert_eq!(inline, fits, "{text:?}");
        }
    }

    #[test]
    fn inline_amounts_read_back_normalised() {
        let repr = Repr::small(1000, -3, Format::DecimalSI);
        assert_eq!(repr.amount(), Amount::new(1, 0).unwrap());
        assert_eq!(repr.amount().mantissa(), 1);
        let repr = Repr::small(i64::MIN, 0, Format::DecimalSI);
        assert_eq!(repr.amount(), Amount::new(i128::from(i64::MIN), 0).unwrap());
    }
}
