//! [`Scope`]: what a conversion function knows of the conversion it is part of.

use std::fmt;

use super::{ConversionError, Converter};
use crate::schema::GroupVersioner;

/// The context handed to every conversion function (Go's `conversion.Scope`): the target
/// the caller asked for, when there is one, and the converter that is running, so that a
/// hand-written function can convert values whose type it only knows at run time.
///
/// Cheap to copy; generated code passes it down unchanged.
#[derive(Clone, Copy, Default)]
pub struct Scope<'a> {
    context: Option<&'a dyn GroupVersioner>,
    converter: Option<&'a Converter>,
}

impl<'a> Scope<'a> {
    /// A scope with no target and no converter, for calling conversions directly.
    pub const fn new() -> Self {
        Scope {
            context: None,
            converter: None,
        }
    }

    /// The same scope, with `target` as the conversion's target (Go's `Meta().Context`).
    pub fn with_context(self, target: &'a dyn GroupVersioner) -> Self {
        Scope {
            context: Some(target),
            ..self
        }
    }

    /// The same scope, with the converter nested dynamic conversions should use.
    pub fn with_converter(self, converter: &'a Converter) -> Self {
        Scope {
            converter: Some(converter),
            ..self
        }
    }

    /// The target of the conversion, when the caller gave one.
    pub fn context(&self) -> Option<&'a dyn GroupVersioner> {
        self.context
    }

    /// The converter running the conversion, when it runs through one.
    pub fn converter(&self) -> Option<&'a Converter> {
        self.converter
    }

    /// Converts through this scope's converter (see [`Converter::convert`]); without one,
    /// fails as a missing conversion.
    pub fn convert<In: 'static, Out: Default + 'static>(
        &self,
        input: &In,
    ) -> Result<Out, ConversionError> {
        match self.converter {
            Some(c) => c.convert(input, self),
            None => Err(ConversionError::no_conversion::<In, Out>()),
        }
    }
}

impl fmt::Debug for Scope<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Scope")
            .field("context", &self.context.map(GroupVersioner::identifier))
            .field("converter", &self.converter.is_some())
            .finish()
    }
}
