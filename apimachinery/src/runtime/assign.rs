//! Moving a decoded object into a caller's `&mut dyn Object` of the same concrete type
//! (Go's decoders fill their `into` argument), with one function for every type.
//!
//! A generic move (`*slot = *boxed` after two downcasts) was compiled once per registered
//! type: in `k8s-types`, 355 copies and about 70,000 lines of LLVM IR (3.6% of the crate's),
//! for a call made at most once per decoded object. The type check needs only the two
//! `TypeId`s, and the move only the size, which `size_of_val` reads from the vtable;
//! the bytes are swapped, so that the box hands the old value to its own drop.

use std::any::{Any, TypeId};

use super::Object;

/// Moves `value` into `into` when both are of the type `type_id`; hands `value` back,
/// with `into` untouched, otherwise.
pub(super) fn assign(
    type_id: TypeId,
    into: &mut dyn Object,
    value: Box<dyn Object>,
) -> Result<(), Box<dyn Object>> {
    let into: &mut dyn Any = into;
    let value_any: &dyn Any = &*value;
    // `Any::type_id` of the `dyn Any`s: the concrete types', through their vtables.
    if Any::type_id(&*into) != type_id || Any::type_id(value_any) != type_id {
        return Err(value);
    }
    let size = std::mem::size_of_val(into);
    let target = (into as *mut dyn Any).cast::<u8>();
    let source = Box::into_raw(value);
    // SAFETY: both pointers are to valid, initialized values of one concrete type (the
    // same `TypeId`, so the same size `size` and alignment): `target` from a unique
    // reference, `source` from a box we own, so they do not overlap. Swapping the bytes
    // of two values of a type is what `std::mem::swap` does; both stay valid values.
    unsafe { std::ptr::swap_nonoverlapping(target, source.cast::<u8>(), size) };
    // SAFETY: `source` came from `Box::into_raw` above and still points to a valid value
    // (`into`'s old one), which this box drops through its vtable.
    drop(unsafe { Box::from_raw(source) });
    Ok(())
}
