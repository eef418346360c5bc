//! [`Converter`]: the registry of whole-value conversion functions, keyed by the pair of
//! Rust types they convert, where a hand-written function beats a generated one.

use std::any::{Any, TypeId};
use std::fmt;
use std::sync::Arc;

use super::{AutoConvert, ConversionError, ConversionErrorKind, Convert, Scope};
use crate::fx_hash::FxHashMap;

type RefFn =
    dyn Fn(&dyn Any, &mut dyn Any, &Scope<'_>) -> Result<(), ConversionError> + Send + Sync;
type ValueFn =
    dyn Fn(&mut dyn Any, &mut dyn Any, &Scope<'_>) -> Result<(), ConversionError> + Send + Sync;

/// One conversion function between two Rust types, in both flavours: by reference (the
/// input is borrowed and cloned from) and by value (the input is moved from). Built from
/// a closure, or from a type pair's [`Convert`] or [`AutoConvert`] implementation.
///
/// Erased to `&dyn Any` so that the registry can hold functions of any pair; a function
/// handed values of other types reports [`ConversionErrorKind::WrongType`].
#[derive(Clone)]
pub struct ConversionFunc {
    from: TypeId,
    to: TypeId,
    from_name: &'static str,
    to_name: &'static str,
    by_ref: Arc<RefFn>,
    by_value: Arc<ValueFn>,
}

fn wrong_type<In, Out>(given: &'static str) -> ConversionError {
    ConversionError::new(ConversionErrorKind::WrongType {
        from: std::any::type_name::<In>(),
        to: std::any::type_name::<Out>(),
        given,
    })
}

/// The output slot of an erased call: the `Out` to assign.
fn out_slot<In, Out: 'static>(out: &mut dyn Any) -> Result<&mut Out, ConversionError> {
    out.downcast_mut::<Out>()
        .ok_or_else(|| wrong_type::<In, Out>("output of another type"))
}

impl ConversionFunc {
    /// A function converting by reference; the by-value flavour borrows its input and
    /// drops it afterwards.
    pub fn by_ref<In, Out, F>(f: F) -> Self
    where
        In: 'static,
        Out: 'static,
        F: Fn(&In, &Scope<'_>) -> Result<Out, ConversionError> + Send + Sync + 'static,
    {
        let f = Arc::new(f);
        let g = Arc::clone(&f);
        Self::from_parts::<In, Out>(
            Arc::new(
                move |input: &dyn Any, out: &mut dyn Any, scope: &Scope<'_>| {
                    let input = input
                        .downcast_ref::<In>()
                        .ok_or_else(|| wrong_type::<In, Out>("input of another type"))?;
                    *out_slot::<In, Out>(out)? = f(input, scope)?;
                    Ok(())
                },
            ),
            Arc::new(
                move |input: &mut dyn Any, out: &mut dyn Any, scope: &Scope<'_>| {
                    let input = input
                        .downcast_mut::<In>()
                        .ok_or_else(|| wrong_type::<In, Out>("input of another type"))?;
                    *out_slot::<In, Out>(out)? = g(input, scope)?;
                    Ok(())
                },
            ),
        )
    }

    /// A function with both flavours given: `by_ref` borrows its input, `by_value` owns it.
    pub fn with_by_value<In, Out, R, V>(by_ref: R, by_value: V) -> Self
    where
        In: Default + 'static,
        Out: 'static,
        R: Fn(&In, &Scope<'_>) -> Result<Out, ConversionError> + Send + Sync + 'static,
        V: Fn(In, &Scope<'_>) -> Result<Out, ConversionError> + Send + Sync + 'static,
    {
        Self::from_parts::<In, Out>(
            Arc::new(
                move |input: &dyn Any, out: &mut dyn Any, scope: &Scope<'_>| {
                    let input = input
                        .downcast_ref::<In>()
                        .ok_or_else(|| wrong_type::<In, Out>("input of another type"))?;
                    *out_slot::<In, Out>(out)? = by_ref(input, scope)?;
                    Ok(())
                },
            ),
            Arc::new(
                move |input: &mut dyn Any, out: &mut dyn Any, scope: &Scope<'_>| {
                    let input = input
                        .downcast_mut::<In>()
                        .ok_or_else(|| wrong_type::<In, Out>("input of another type"))?;
                    // Leaves an empty `In` behind, which the caller drops: no allocation.
                    *out_slot::<In, Out>(out)? = by_value(std::mem::take(input), scope)?;
                    Ok(())
                },
            ),
        )
    }

    /// The pair's [`Convert`] implementation, in both flavours.
    pub fn of_convert<In, Out>() -> Self
    where
        In: Convert<Out> + Default + 'static,
        Out: 'static,
    {
        Self::with_by_value::<In, Out, _, _>(In::convert_ref, In::convert)
    }

    /// The pair's generated [`AutoConvert`] implementation, in both flavours.
    pub fn of_auto_convert<In, Out>() -> Self
    where
        In: AutoConvert<Out> + Default + 'static,
        Out: 'static,
    {
        Self::with_by_value::<In, Out, _, _>(In::auto_convert_ref, In::auto_convert)
    }

    fn from_parts<In: 'static, Out: 'static>(by_ref: Arc<RefFn>, by_value: Arc<ValueFn>) -> Self {
        ConversionFunc {
            from: TypeId::of::<In>(),
            to: TypeId::of::<Out>(),
            from_name: std::any::type_name::<In>(),
            to_name: std::any::type_name::<Out>(),
            by_ref,
            by_value,
        }
    }

    /// The input type's name.
    pub fn from_type_name(&self) -> &'static str {
        self.from_name
    }

    /// The output type's name.
    pub fn to_type_name(&self) -> &'static str {
        self.to_name
    }

    /// Converts `input` (an `In`) into `out` (an `Out`) by reference.
    pub fn call_ref(
        &self,
        input: &dyn Any,
        out: &mut dyn Any,
        scope: &Scope<'_>,
    ) -> Result<(), ConversionError> {
        (self.by_ref)(input, out, scope)
    }

    /// Converts `input` (an `In`, left empty) into `out` (an `Out`) by value.
    pub fn call_value(
        &self,
        input: &mut dyn Any,
        out: &mut dyn Any,
        scope: &Scope<'_>,
    ) -> Result<(), ConversionError> {
        (self.by_value)(input, out, scope)
    }
}

impl fmt::Debug for ConversionFunc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ConversionFunc({} -> {})", self.from_name, self.to_name)
    }
}

/// Where a conversion function came from: written by hand, or generated. A hand-written
/// function for a pair is used over a generated one, whatever the order they were added in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    /// Written by hand (Go's `AddConversionFunc`).
    Manual,
    /// Generated (Go's `AddGeneratedConversionFunc`).
    Generated,
}

#[derive(Clone, Debug, Default)]
struct Slots {
    manual: Option<ConversionFunc>,
    generated: Option<ConversionFunc>,
}

/// The registry of conversion functions between pairs of Rust types (Go's
/// `conversion.Converter`). Each pair holds at most one hand-written and one generated
/// function; lookups return the hand-written one when both exist.
///
/// ```
/// use apimachinery::conversion::{Converter, ConversionFunc, Origin, Scope};
///
/// let mut c = Converter::new();
/// c.add(ConversionFunc::by_ref(|n: &u16, _: &Scope| Ok(u32::from(*n) * 2)), Origin::Generated);
/// c.add(ConversionFunc::by_ref(|n: &u16, _: &Scope| Ok(u32::from(*n) * 3)), Origin::Manual);
/// assert_eq!(c.convert::<u16, u32>(&7, &Scope::new())?, 21);
/// assert!(c.convert::<u16, u64>(&7, &Scope::new()).is_err());
/// # Ok::<(), apimachinery::conversion::ConversionError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Converter {
    funcs: FxHashMap<(TypeId, TypeId), Slots>,
}

impl Converter {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a function; replaces an earlier one of the same pair and origin.
    pub fn add(&mut self, func: ConversionFunc, origin: Origin) {
        let slots = self.funcs.entry((func.from, func.to)).or_default();
        match origin {
            Origin::Manual => slots.manual = Some(func),
            Origin::Generated => slots.generated = Some(func),
        }
    }

    /// The function converting `from` to `to`: the hand-written one, else the generated one.
    pub fn func(&self, from: TypeId, to: TypeId) -> Option<&ConversionFunc> {
        let slots = self.funcs.get(&(from, to))?;
        slots.manual.as_ref().or(slots.generated.as_ref())
    }

    /// The function of a pair from one origin only.
    pub fn func_of(&self, from: TypeId, to: TypeId, origin: Origin) -> Option<&ConversionFunc> {
        let slots = self.funcs.get(&(from, to))?;
        match origin {
            Origin::Manual => slots.manual.as_ref(),
            Origin::Generated => slots.generated.as_ref(),
        }
    }

    /// True when some function converts `from` to `to`.
    pub fn has(&self, from: TypeId, to: TypeId) -> bool {
        self.func(from, to).is_some()
    }

    /// How many type pairs have a function.
    pub fn len(&self) -> usize {
        self.funcs.len()
    }

    /// True when no function is registered.
    pub fn is_empty(&self) -> bool {
        self.funcs.is_empty()
    }

    /// Converts by reference between registered types (Go's `Converter.Convert`).
    pub fn convert<In: 'static, Out: Default + 'static>(
        &self,
        input: &In,
        scope: &Scope<'_>,
    ) -> Result<Out, ConversionError> {
        let func = self
            .func(TypeId::of::<In>(), TypeId::of::<Out>())
            .ok_or_else(ConversionError::no_conversion::<In, Out>)?;
        let mut out = Out::default();
        func.call_ref(input, &mut out, &scope.with_converter(self))?;
        Ok(out)
    }

    /// Converts by value between registered types: what the input holds is moved, not
    /// cloned.
    pub fn convert_by_value<In: 'static, Out: Default + 'static>(
        &self,
        input: In,
        scope: &Scope<'_>,
    ) -> Result<Out, ConversionError> {
        let func = self
            .func(TypeId::of::<In>(), TypeId::of::<Out>())
            .ok_or_else(ConversionError::no_conversion::<In, Out>)?;
        let mut input = input;
        let mut out = Out::default();
        func.call_value(&mut input, &mut out, &scope.with_converter(self))?;
        Ok(out)
    }
}
