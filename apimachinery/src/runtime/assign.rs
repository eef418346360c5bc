//! Moving a decoded object into a caller's `&mut dyn Object` of the same concrete type
//! (Go's decoders fill their `into` argument), with one function for every type; and a
//! boxed object's downcast, with one type test; and a new boxed default object, with one
//! allocation function for every type.
//!
//! A generic move (`*slot = *boxed` after two downcasts) was compiled once per registered
//! type: in `k8s-types`, 355 copies and about 70,000 lines of LLVM IR (3.6% of the crate's),
//! for a call made at most once per decoded object. The type check needs only the two
//! `TypeId`s, and the move only the size, which `size_of_val` reads from the vtable;
//! the bytes are swapped, so that the box hands the old value to its own drop.

use std::alloc::{Layout, alloc, handle_alloc_error};
use std::any::{Any, TypeId};

use super::Object;

/// `value` as the `Box<T>` it is, or `value` back when it holds another type.
///
/// `Box<dyn Any>::downcast` after an `is::<T>()` test (the safe way) checked the type
/// twice and compiled, with its error closure, ~180 IR lines per type: 154 copies in
/// `k8s-types`, one per list kind's `push_item` (issue 44). One test here, one cast.
pub(super) fn downcast_box<T: Object>(value: Box<dyn Object>) -> Result<Box<T>, Box<dyn Object>> {
    let any: &dyn Any = &*value;
    if Any::type_id(any) != TypeId::of::<T>() {
        return Err(value);
    }
    // SAFETY: the box holds a value whose concrete type is `T` (the same `TypeId`), so
    // its data pointer is that of a `Box<T>`, allocated for a `T`; the vtable half of
    // the fat pointer is dropped by the cast.
    Ok(unsafe { Box::from_raw(Box::into_raw(value).cast::<T>()) })
}

/// A default `Self` in a new box, built in place.
///
/// `Box::default` (`Box::new_uninit` then a write) compiled the allocation, its error
/// path and the drop of a `Box<MaybeUninit<Self>>` for unwinding, ~65 IR lines per
/// registered type (355 in `k8s-types`); here the allocation is [`allocate`], once.
/// Should `Self::default` panic, the allocation is leaked (no derived `Default` does).
pub(super) trait BoxedDefault: Default {
    /// The default value, boxed.
    fn boxed_default() -> Box<Self> {
        let layout = Layout::new::<Self>();
        let ptr = allocate(layout).cast::<Self>();
        // SAFETY: `ptr` is valid for writing a `Self` (`allocate` gave `Self`'s layout).
        unsafe { ptr.write(Self::default()) };
        // SAFETY: `ptr` is a global allocation of `Layout::new::<Self>()` (a dangling,
        // aligned pointer for a zero-sized `Self`, as `Box` makes), holding a valid `Self`.
        unsafe { Box::from_raw(ptr) }
    }
}

impl<T: Default> BoxedDefault for T {}

/// Memory of `layout` from the global allocator, or for a zero-sized layout a dangling
/// pointer of its alignment (what `Box` holds for zero-sized values). Aborts through
/// `handle_alloc_error` when the allocator fails, as `Box::new` does.
#[inline(never)]
fn allocate(layout: Layout) -> *mut u8 {
    if layout.size() == 0 {
        return std::ptr::without_provenance_mut(layout.align());
    }
    // SAFETY: the layout's size is not zero.
    let ptr = unsafe { alloc(layout) };
    if ptr.is_null() {
        handle_alloc_error(layout);
    }
    ptr
}

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

#[cfg(test)]
mod tests {
    use super::{BoxedDefault, downcast_box};
    use crate::apis::meta::v1::{APIVersions, Status};
    use crate::runtime::Object;

    #[test]
    fn a_box_downcasts_to_its_own_type_only() {
        let status = Status {
            message: "gone".to_owned(),
            code: 410,
            ..Status::default()
        };
        let boxed: Box<dyn Object> = Box::new(status.clone());
        let back = downcast_box::<APIVersions>(boxed).unwrap_err();
        assert_eq!(back.downcast_ref::<Status>(), Some(&status));
        let typed: Box<Status> = downcast_box(back).unwrap();
        assert_eq!(*typed, status);
        // Through the public method too.
        let boxed: Box<dyn Object> = typed;
        assert_eq!(boxed.downcast::<Status>().map(|s| s.code).ok(), Some(410));
    }

    #[test]
    fn a_boxed_default_is_the_default_value() {
        assert_eq!(*Status::boxed_default(), Status::default());
        assert_eq!(*<(u8, String)>::boxed_default(), (0, String::new()));
        // Zero-sized and over-aligned values, which `Box` holds as it would.
        assert_eq!(*<()>::boxed_default(), ());
        #[repr(align(256))]
        #[derive(Default)]
        struct Aligned([u8; 3]);
        let boxed = Aligned::boxed_default();
        assert_eq!(((&raw const *boxed).addr() % 256, boxed.0), (0, [0; 3]));
        #[repr(align(64))]
        #[derive(Default)]
        struct Empty;
        assert_eq!((&raw const *Empty::boxed_default()).addr() % 64, 0);
    }
}
