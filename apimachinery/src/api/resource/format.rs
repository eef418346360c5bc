//! [`Format`]: how a quantity prefers to be written.

use std::fmt;

/// How a [`Quantity`](super::Quantity) is written in its canonical form (Go's
/// `resource.Format`). Parsing sets it from the suffix; arithmetic keeps the left operand's
/// (or takes the right one's when the left is zero).
///
/// The default is [`DecimalExponent`](Format::DecimalExponent): Go's zero `Format` is the
/// empty string, which its formatter treats as `DecimalExponent`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Format {
    /// `12e6`: a power-of-ten exponent that is a multiple of three (`e` omitted for zero).
    #[default]
    DecimalExponent,
    /// `12Mi`: powers of 1024 (`Ki Mi Gi Ti Pi Ei`), for amounts of at least 1024 that are
    /// whole numbers; anything else is written as [`DecimalSI`](Format::DecimalSI).
    BinarySI,
    /// `12M`: SI prefixes for powers of 1000 (`n u m k M G T P E`).
    DecimalSI,
}

impl Format {
    /// Go's name of the format: `"DecimalExponent"`, `"BinarySI"` or `"DecimalSI"`.
    pub fn as_str(&self) -> &'static str {
        match self {
            Format::DecimalExponent => "DecimalExponent",
            Format::BinarySI => "BinarySI",
            Format::DecimalSI => "DecimalSI",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
