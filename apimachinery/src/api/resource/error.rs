//! [`QuantityError`]: why a text is not a quantity, or why arithmetic left the exact range.

/// Why [`parse_quantity`](super::parse_quantity) rejected a text, or why an operation on
/// quantities has no exact result. The first three are Go's `ErrFormatWrong`,
/// `ErrNumeric` and `ErrSuffix`, with Go's messages followed by the offending input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QuantityError {
    /// The text is not a signed decimal number followed by a suffix (Go's `ErrFormatWrong`).
    #[error(
        "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$': {input:?}"
    )]
    FormatWrong {
        /// The rejected text.
        input: String,
    },
    /// The number in front of the suffix has no digit (Go's `ErrNumeric`).
    #[error("unable to parse numeric part of quantity: {input:?}")]
    Numeric {
        /// The rejected text.
        input: String,
    },
    /// The suffix is none of `n u m k M G T P E Ki Mi Gi Ti Pi Ei` nor an exponent
    /// `e<int>`/`E<int>` (Go's `ErrSuffix`).
    #[error("unable to parse quantity's suffix: {input:?}")]
    Suffix {
        /// The rejected text.
        input: String,
    },
    /// Go accepts the text, but its value needs more than 38 significant decimal digits
    /// (after Go's rounding up to nano units), which [`Quantity`](super::Quantity) does not
    /// hold exactly. Go keeps such values in an arbitrary-precision decimal.
    #[error(
        "quantity {input:?} needs more than 38 significant decimal digits, more than this implementation holds exactly"
    )]
    OutOfRange {
        /// The rejected text.
        input: String,
    },
    /// The exact result of an arithmetic operation needs more than 38 significant decimal
    /// digits.
    #[error("{left} {op} {right} needs more than 38 significant decimal digits")]
    Overflow {
        /// The operation: `+`, `-` or `*`.
        op: &'static str,
        /// The left operand, as text.
        left: String,
        /// The right operand, as text.
        right: String,
    },
}
