//! [`Scale`]: a power of ten for scaled values.

/// A power-of-ten exponent (Go's `resource.Scale`): `Scale(3)` is thousands,
/// `Scale(-3)` thousandths. [`Quantity::scaled_value`](super::Quantity::scaled_value)
/// and [`Quantity::new_scaled_quantity`](super::Quantity::new_scaled_quantity) take one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Scale(pub i32);

impl Scale {
    /// 10⁻⁹, the finest precision a parsed quantity keeps.
    pub const NANO: Scale = Scale(-9);
    /// 10⁻⁶.
    pub const MICRO: Scale = Scale(-6);
    /// 10⁻³.
    pub const MILLI: Scale = Scale(-3);
    /// 10⁰.
    pub const ONE: Scale = Scale(0);
    /// 10³.
    pub const KILO: Scale = Scale(3);
    /// 10⁶.
    pub const MEGA: Scale = Scale(6);
    /// 10⁹.
    pub const GIGA: Scale = Scale(9);
    /// 10¹².
    pub const TERA: Scale = Scale(12);
    /// 10¹⁵.
    pub const PETA: Scale = Scale(15);
    /// 10¹⁸.
    pub const EXA: Scale = Scale(18);
}

impl From<i32> for Scale {
    fn from(exponent: i32) -> Scale {
        Scale(exponent)
    }
}
