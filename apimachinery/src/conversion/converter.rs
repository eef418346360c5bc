//! [`Converter`]: the registry of whole-value conversion functions, keyed by the pair of
//! Rust types they convert, where a hand-written function beats a generated one.

use std::any::{Any, TypeId};
use std::fmt;
use std::sync::Arc;

use super::{AutoConvert, ConversionError, ConversionErrorKind, Convert, Scope};
use crate::fx_hash::FxHashMap;

/// The input of a pair's shim: its address, borrowed (converted by reference) or lent to
/// be emptied (converted by value). Raw, because [`ConversionFunc::check`] has already
/// matched the value's `TypeId`: the shim casts instead of downcasting again, which cost
/// three `type_id` calls and their comparisons in each of the ~350 pairs' copies.
#[derive(Clone, Copy)]
enum RawInput {
    Ref(*const u8),
    Value(*mut u8),
}

/// What every registered pair's `Convert` or `AutoConvert` compiles to: one function for
/// both flavours, over the addresses of an input and an output of the pair's types.
///
/// Safety: the caller passes an `In` (`RawInput::Value`: one it may leave empty) and an
/// `Out`, the types the function was made for; [`ConversionFunc::call`] is the only
/// caller, after [`ConversionFunc::check`].
type ErasedFn = unsafe fn(RawInput, *mut u8, &Scope<'_>) -> Result<(), ConversionError>;

/// The input of an erased call: borrowed (converted by reference) or lent to be emptied
/// (converted by value). Closures take it as it is and downcast (they are few, and
/// written by hand).
enum Input<'a> {
    Ref(&'a dyn Any),
    Value(&'a mut dyn Any),
}

/// The functions that capture state (closures given to [`ConversionFunc::by_ref`] and
/// [`ConversionFunc::with_by_value`]). They answer `None` when a value is not of their
/// types, which [`ConversionFunc`] checks beforehand, so that the error and its type names
/// are built by non-generic code.
type ErasedClosure = dyn Fn(Input<'_>, &mut dyn Any, &Scope<'_>) -> Option<Result<(), ConversionError>>
    + Send
    + Sync;

#[derive(Clone)]
enum Body {
    /// A pair's `Convert` or `AutoConvert` implementation: a plain function pointer.
    Static(ErasedFn),
    /// A closure.
    Closure(Arc<ErasedClosure>),
}

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
    body: Body,
}

/// The per-type code of the shims below, as provided trait methods so that each type's
/// copy is compiled beside the type (why: `runtime::registration`'s `TypeShims`).
trait Slot: Sized {
    /// Stores a conversion's result in the output slot. Out of line, so that the old
    /// value's drop is compiled once per output type, not once per pair and flavour.
    #[inline(never)]
    fn store(
        out: &mut Self,
        converted: Result<Self, ConversionError>,
    ) -> Result<(), ConversionError> {
        match converted {
            Ok(value) => {
                // A swap, then the old value's drop: `*out = value` compiled a landing
                // pad per output type, to store the value should the drop unwind.
                drop(std::mem::replace(out, value));
                Ok(())
            }
            Err(e) => Err(e),
        }
    }

    /// Moves a by-value input out, leaving its zero value for the caller to drop. Out of
    /// line, once per input type: inlined, each pair compiled the type's whole `Default`
    /// again.
    #[inline(never)]
    fn take_input(input: &mut Self) -> Self
    where
        Self: Default,
    {
        std::mem::take(input)
    }
}

impl<T> Slot for T {}

/// The erased forms of a pair's [`Convert`] and [`AutoConvert`] implementations, compiled
/// beside the input type's code (see [`Slot`]). Per pair only the two calls and the
/// casts; the type checks are [`ConversionFunc::check`]'s.
trait Shims<Out: 'static>: Default + 'static {
    /// The erased form of a pair's [`Convert`] implementation.
    ///
    /// Safety: as [`ErasedFn`]: `input` points to a `Self`, `out` to an `Out`.
    unsafe fn convert_shim(
        input: RawInput,
        out: *mut u8,
        scope: &Scope<'_>,
    ) -> Result<(), ConversionError>
    where
        Self: Convert<Out>,
    {
        // SAFETY (both casts here and the output's): the caller's contract, the types
        // that `check` matched against this pair's `TypeId`s.
        let converted = match input {
            RawInput::Ref(input) => unsafe { &*input.cast::<Self>() }.convert_ref(scope),
            // Leaves an empty input behind, which the caller drops: no allocation.
            RawInput::Value(input) => {
                Slot::take_input(unsafe { &mut *input.cast::<Self>() }).convert(scope)
            }
        };
        Slot::store(unsafe { &mut *out.cast::<Out>() }, converted)
    }

    /// The erased form of a pair's [`AutoConvert`] implementation.
    ///
    /// Safety: as [`ErasedFn`]: `input` points to a `Self`, `out` to an `Out`.
    unsafe fn auto_convert_shim(
        input: RawInput,
        out: *mut u8,
        scope: &Scope<'_>,
    ) -> Result<(), ConversionError>
    where
        Self: AutoConvert<Out>,
    {
        // SAFETY: as in `convert_shim`.
        let converted = match input {
            RawInput::Ref(input) => unsafe { &*input.cast::<Self>() }.auto_convert_ref(scope),
            RawInput::Value(input) => {
                Slot::take_input(unsafe { &mut *input.cast::<Self>() }).auto_convert(scope)
            }
        };
        Slot::store(unsafe { &mut *out.cast::<Out>() }, converted)
    }
}

impl<In: Default + 'static, Out: 'static> Shims<Out> for In {}

impl ConversionFunc {
    /// A function converting by reference; the by-value flavour borrows its input and
    /// drops it afterwards.
    pub fn by_ref<In, Out, F>(f: F) -> Self
    where
        In: 'static,
        Out: 'static,
        F: Fn(&In, &Scope<'_>) -> Result<Out, ConversionError> + Send + Sync + 'static,
    {
        let closure = move |input: Input<'_>, out: &mut dyn Any, scope: &Scope<'_>| {
            let out = out.downcast_mut::<Out>()?;
            let input: &In = match input {
                Input::Ref(input) => input.downcast_ref()?,
                Input::Value(input) => input.downcast_mut()?,
            };
            Some(Slot::store(out, f(input, scope)))
        };
        Self::new(
            TypeId::of::<In>(),
            TypeId::of::<Out>(),
            std::any::type_name::<In>(),
            std::any::type_name::<Out>(),
            Body::Closure(Arc::new(closure)),
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
        let closure = move |input: Input<'_>, out: &mut dyn Any, scope: &Scope<'_>| {
            let out = out.downcast_mut::<Out>()?;
            let converted = match input {
                Input::Ref(input) => by_ref(input.downcast_ref()?, scope),
                Input::Value(input) => by_value(Slot::take_input(input.downcast_mut()?), scope),
            };
            Some(Slot::store(out, converted))
        };
        Self::new(
            TypeId::of::<In>(),
            TypeId::of::<Out>(),
            std::any::type_name::<In>(),
            std::any::type_name::<Out>(),
            Body::Closure(Arc::new(closure)),
        )
    }

    /// The pair's [`Convert`] implementation, in both flavours.
    pub fn of_convert<In, Out>() -> Self
    where
        In: Convert<Out> + Default + 'static,
        Out: 'static,
    {
        Self::new(
            TypeId::of::<In>(),
            TypeId::of::<Out>(),
            std::any::type_name::<In>(),
            std::any::type_name::<Out>(),
            Body::Static(<In as Shims<Out>>::convert_shim),
        )
    }

    /// The pair's generated [`AutoConvert`] implementation, in both flavours.
    pub fn of_auto_convert<In, Out>() -> Self
    where
        In: AutoConvert<Out> + Default + 'static,
        Out: 'static,
    {
        Self::new(
            TypeId::of::<In>(),
            TypeId::of::<Out>(),
            std::any::type_name::<In>(),
            std::any::type_name::<Out>(),
            Body::Static(<In as Shims<Out>>::auto_convert_shim),
        )
    }

    // Out of line: every registered pair calls it, and each copy would build the whole
    // struct again.
    #[inline(never)]
    fn new(
        from: TypeId,
        to: TypeId,
        from_name: &'static str,
        to_name: &'static str,
        body: Body,
    ) -> Self {
        ConversionFunc {
            from,
            to,
            from_name,
            to_name,
            body,
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
        self.check(input.type_id(), (*out).type_id())?;
        self.call(Input::Ref(input), out, scope)
    }

    /// Converts `input` (an `In`, left empty) into `out` (an `Out`) by value.
    pub fn call_value(
        &self,
        input: &mut dyn Any,
        out: &mut dyn Any,
        scope: &Scope<'_>,
    ) -> Result<(), ConversionError> {
        self.check((*input).type_id(), (*out).type_id())?;
        self.call(Input::Value(input), out, scope)
    }

    /// The error for values of other types than the function's, checked here so that the
    /// per-pair code only downcasts.
    fn check(&self, input: TypeId, out: TypeId) -> Result<(), ConversionError> {
        if input != self.from {
            Err(self.wrong_type("input of another type"))
        } else if out != self.to {
            Err(self.wrong_type("output of another type"))
        } else {
            Ok(())
        }
    }

    /// Runs the function on values `check` has found to be of its types.
    fn call(
        &self,
        input: Input<'_>,
        out: &mut dyn Any,
        scope: &Scope<'_>,
    ) -> Result<(), ConversionError> {
        match &self.body {
            Body::Static(f) => {
                let raw = match input {
                    Input::Ref(input) => RawInput::Ref((input as *const dyn Any).cast::<u8>()),
                    Input::Value(input) => RawInput::Value((input as *mut dyn Any).cast::<u8>()),
                };
                let out = (out as *mut dyn Any).cast::<u8>();
                // SAFETY: a `Static` body is built only by `of_convert` and
                // `of_auto_convert`, with `from` and `to` the `TypeId`s of its `In` and
                // `Out`; `call_ref` and `call_value` have checked both values against
                // them, and the borrows they came from outlive the call.
                unsafe { f(raw, out, scope) }
            }
            // `check` has matched both types, so the closure's downcasts succeed.
            Body::Closure(f) => f(input, out, scope)
                .unwrap_or_else(|| Err(self.wrong_type("value of another type"))),
        }
    }

    fn wrong_type(&self, given: &'static str) -> ConversionError {
        ConversionError::new(ConversionErrorKind::WrongType {
            from: self.from_name,
            to: self.to_name,
            given,
        })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Default, PartialEq)]
    struct Meters(u32);
    #[derive(Debug, Default, PartialEq)]
    struct Feet(u32);
    impl Convert<Feet> for Meters {
        fn convert(self, scope: &Scope<'_>) -> Result<Feet, ConversionError> {
            self.convert_ref(scope)
        }
        fn convert_ref(&self, _: &Scope<'_>) -> Result<Feet, ConversionError> {
            self.0
                .checked_mul(3)
                .map(Feet)
                .ok_or_else(|| ConversionError::unrepresentable::<Meters, Feet>("too far"))
        }
    }

    #[test]
    fn a_pair_function_converts_both_ways_and_leaves_an_empty_input() {
        let f = ConversionFunc::of_convert::<Meters, Feet>();
        let s = Scope::new();
        let mut out = Feet::default();
        f.call_ref(&Meters(2), &mut out, &s).unwrap();
        assert_eq!(out, Feet(6));
        let mut input = Meters(5);
        f.call_value(&mut input, &mut out, &s).unwrap();
        assert_eq!((&input, &out), (&Meters(0), &Feet(15)));
        let err = f.call_ref(&Meters(u32::MAX), &mut out, &s).unwrap_err();
        assert!(err.to_string().ends_with(": too far"), "{err}");
        assert_eq!(
            out,
            Feet(15),
            "a failed conversion leaves the output as it was"
        );

        let closure = ConversionFunc::with_by_value::<Meters, Feet, _, _>(
            |m: &Meters, _: &Scope<'_>| Ok(Feet(m.0 + 1)),
            |m: Meters, _: &Scope<'_>| Ok(Feet(m.0 + 2)),
        );
        closure.call_ref(&Meters(1), &mut out, &s).unwrap();
        assert_eq!(out, Feet(2));
        closure.call_value(&mut Meters(1), &mut out, &s).unwrap();
        assert_eq!(out, Feet(3));
    }

    #[test]
    fn values_of_other_types_are_wrong_type_errors_naming_the_side() {
        let s = Scope::new();
        for f in [
            ConversionFunc::of_convert::<Meters, Feet>(),
            ConversionFunc::by_ref(|m: &Meters, _: &Scope<'_>| Ok(Feet(m.0))),
        ] {
            let mut feet = Feet::default();
            let err = f.call_ref(&Feet(1), &mut feet, &s).unwrap_err();
            assert_eq!(
                err.to_string(),
                format!(
                    "conversion function for {} to {} was given a input of another type",
                    std::any::type_name::<Meters>(),
                    std::any::type_name::<Feet>()
                )
            );
            let mut meters = Meters::default();
            let err = f.call_value(&mut Meters(1), &mut meters, &s).unwrap_err();
            assert!(
                matches!(
                    err.kind(),
                    ConversionErrorKind::WrongType {
                        given: "output of another type",
                        ..
                    }
                ),
                "{err}"
            );
            assert_eq!(
                format!("{f:?}"),
                format!(
                    "ConversionFunc({} -> {})",
                    f.from_type_name(),
                    f.to_type_name()
                )
            );
        }
    }
}
