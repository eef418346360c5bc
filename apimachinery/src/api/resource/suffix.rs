//! The suffixes of the three formats: reading them, and choosing one for an exponent.

use super::Format;

/// The base (2 or 10), exponent and format a suffix stands for, as Go's suffixer reads it;
/// `None` when it is not a suffix (Go's `ErrSuffix`).
pub(crate) fn interpret(suffix: &str) -> Option<(u32, i32, Format)> {
    let decimal = |exponent| Some((10, exponent, Format::DecimalSI));
    let binary = |exponent| Some((2, exponent, Format::BinarySI));
    match suffix {
        "" => decimal(0),
        "n" => decimal(-9),
        "u" => decimal(-6),
        "m" => decimal(-3),
        "k" => decimal(3),
        "M" => decimal(6),
        "G" => decimal(9),
        "T" => decimal(12),
        "P" => decimal(15),
        "E" => decimal(18),
        "Ki" => binary(10),
        "Mi" => binary(20),
        "Gi" => binary(30),
        "Ti" => binary(40),
        "Pi" => binary(50),
        "Ei" => binary(60),
        _ => {
            let digits = suffix
                .strip_prefix('e')
                .or_else(|| suffix.strip_prefix('E'))?;
            // Go reads the exponent as an int64 and then keeps its low 32 bits.
            let exponent: i64 = digits.parse().ok()?;
            Some((10, exponent as i32, Format::DecimalExponent))
        }
    }
}

/// The SI prefix for a power of ten, when there is one.
pub(crate) fn decimal_si(exponent: i64) -> Option<&'static str> {
    Some(match exponent {
        -9 => "n",
        -6 => "u",
        -3 => "m",
        0 => "",
        3 => "k",
        6 => "M",
        9 => "G",
        12 => "T",
        15 => "P",
        18 => "E",
        _ => return None,
    })
}

/// The binary prefix for a power of 1024, when there is one.
pub(crate) fn binary_si(power_of_1024: u32) -> Option<&'static str> {
    Some(match power_of_1024 {
        1 => "Ki",
        2 => "Mi",
        3 => "Gi",
        4 => "Ti",
        5 => "Pi",
        6 => "Ei",
        _ => return None,
    })
}
