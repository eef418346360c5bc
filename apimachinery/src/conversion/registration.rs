//! [`ConversionRegistrations`]: conversion functions submitted at link time, as
//! `#[derive(Convert)]` does (one submission per type, for all its functions), and read
//! by [`Scheme::from_registry`](crate::runtime::Scheme::from_registry).

use super::{AutoConvert, ConversionFunc, Convert, Origin};

/// One conversion function, as a constant: what [`ConversionRegistrations`] and
/// [`HubConversions::REGISTRATIONS`] list.
#[derive(Clone, Copy, Debug)]
pub struct ConversionRegistration {
    /// Builds the function (registrations are consts; functions hold `Arc`s).
    pub func: fn() -> ConversionFunc,
    /// Hand-written or generated.
    pub origin: Origin,
}

impl ConversionRegistration {
    /// The pair's [`Convert`] implementation, as a function of the given origin.
    pub const fn convert<In, Out>(origin: Origin) -> Self
    where
        In: Convert<Out> + Default + 'static,
        Out: 'static,
    {
        ConversionRegistration {
            func: ConversionFunc::of_convert::<In, Out>,
            origin,
        }
    }

    /// The pair's generated [`AutoConvert`] implementation.
    pub const fn auto_convert<In, Out>() -> Self
    where
        In: AutoConvert<Out> + Default + 'static,
        Out: 'static,
    {
        ConversionRegistration {
            func: ConversionFunc::of_auto_convert::<In, Out>,
            origin: Origin::Generated,
        }
    }
}

/// Conversion functions submitted together to the link-time registry with
/// `inventory::submit!` (through `apimachinery::__private::inventory`).
///
/// Within one origin, a later function for the same pair replaces an earlier one, and the
/// order of submissions is the link order: submit each pair's function of each origin once.
#[derive(Clone, Copy, Debug)]
pub struct ConversionRegistrations(pub &'static [ConversionRegistration]);

inventory::collect!(ConversionRegistrations);

/// What `#[derive(Convert)]` registers for a type: its hub, and the conversion functions
/// both ways (generated, plus the hand-written ones it names). The same functions are
/// submitted to the link-time registry; this is for programs that build their scheme
/// explicitly, with [`Scheme::add_conversions`](crate::runtime::Scheme::add_conversions)
/// or [`SchemeBuilder::register_conversions`](crate::runtime::SchemeBuilder::register_conversions).
pub trait HubConversions {
    /// The hub type the conversions go to and from.
    type Hub;
    /// The conversion functions, as submitted at link time.
    const REGISTRATIONS: &'static [ConversionRegistration];
}
