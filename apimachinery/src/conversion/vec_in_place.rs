//! By-value conversion of a `Vec<A>` into a `Vec<B>`, element by element, in the source's
//! own buffer when `A` and `B` have the same layout (versions of one type usually do), so
//! that converting a whole object allocates nothing.
//!
//! The clean-up after a failure or a panic and the buffer handling are one non-generic
//! function ([`convert_elements`]). Per element pair there is only
//! [`convert_all`](ConvertAll::convert_all), a plain
//! loop (read an `A`, convert it, write the `B`), called through a function pointer. The
//! standard library's in-place `collect`, which this replaces, compiled its iterator
//! adapters, `try_fold` and two drop guards once per element pair.

use std::any::TypeId;
use std::mem::ManuallyDrop;

use super::{ConversionError, Convert, Scope};

/// What [`convert_elements`] needs of one element pair, as plain functions over untyped
/// pointers. Each function is compiled once per type (or pair, for `step`) and shared.
struct ElementPair {
    /// `A`'s and `B`'s `TypeId`s: equal, the vector is moved whole.
    type_in: fn() -> TypeId,
    type_out: fn() -> TypeId,
    size_in: usize,
    /// `A` and `B` have the same size and alignment: a `B` can be written where its `A` was.
    in_place: bool,
    /// Converts the `A`s of the first buffer from `cursor.written` on into `B`s at the same
    /// indexes of the second, moving `cursor` as it goes; stops at the first failure. The
    /// element under conversion is consumed whatever the outcome, panics included.
    step:
        unsafe fn(*mut u8, *mut u8, usize, &mut Cursor, &Scope<'_>) -> Result<(), ConversionError>,
    /// Drops `len` `A`s from the pointer.
    drop_in: unsafe fn(*mut u8, usize),
    /// Drops `len` `B`s from the pointer.
    drop_out: unsafe fn(*mut u8, usize),
    /// Frees a `Vec<A>`'s buffer of the given capacity, whose elements are gone.
    free_in: unsafe fn(*mut u8, usize),
    /// Allocates a `Vec<B>`'s buffer for at least `len` elements: pointer and capacity.
    alloc_out: fn(usize) -> (*mut u8, usize),
    /// Frees a buffer from `alloc_out`, whose elements are gone.
    free_out: unsafe fn(*mut u8, usize),
}

/// How far a conversion has got: outputs written are `[0, written)`, inputs consumed
/// `[0, consumed)`, one ahead of `written` while an element converts.
struct Cursor {
    written: usize,
    consumed: usize,
}

/// The per-pair loop, a provided method so that its copy for `A` is compiled beside `A`
/// (why: `runtime::registration`'s `TypeShims`).
trait ConvertAll<B>: Convert<B> {
    /// The per-pair loop: generic so that each element's conversion is inlined (through a
    /// pointer per element it cost +18% by value), but with no iterator adapter or drop
    /// guard of its own: those are [`InProgress`], once.
    ///
    /// # Safety
    /// `src` holds `len` `Self`s of which `[cursor.written, len)` are valid and unread;
    /// `dst` has room for `len` `B`s and is either another buffer or `src` itself with `B`
    /// laid out as `Self`.
    unsafe fn convert_all(
        src: *mut u8,
        dst: *mut u8,
        len: usize,
        cursor: &mut Cursor,
        scope: &Scope<'_>,
    ) -> Result<(), ConversionError> {
        let (src, dst) = (src.cast::<Self>(), dst.cast::<B>());
        while cursor.written < len {
            let i = cursor.written;
            cursor.consumed = i + 1;
            // SAFETY: element `i` is a valid `Self` that no one reads again (`consumed` is
            // past it).
            let a = unsafe { src.add(i).read() };
            match a.convert(scope) {
                Ok(b) => {
                    // SAFETY: within `dst`'s room; in place, this is the memory of the
                    // element read above.
                    unsafe { dst.add(i).write(b) };
                    cursor.written = i + 1;
                }
                Err(e) => return Err(e.at_index(i)),
            }
        }
        Ok(())
    }
}

impl<A: Convert<B>, B> ConvertAll<B> for A {}

/// The per-type buffer functions of an [`ElementPair`]; provided methods for the reason
/// given at [`ConvertAll`].
trait Elements: Sized {
    /// # Safety
    /// `ptr` points to `len` valid `Self`s that nothing uses afterwards.
    unsafe fn drop_elements(ptr: *mut u8, len: usize) {
        // SAFETY: as the caller guarantees.
        unsafe {
            std::ptr::drop_in_place(std::ptr::slice_from_raw_parts_mut(ptr.cast::<Self>(), len))
        }
    }

    /// # Safety
    /// `ptr` and `cap` come from a `Vec<Self>` (or [`alloc_vec`](Self::alloc_vec)) whose
    /// elements are all gone.
    unsafe fn free_vec(ptr: *mut u8, cap: usize) {
        // SAFETY: an empty vector over the buffer it came with; dropping it frees the buffer.
        drop(unsafe { Vec::from_raw_parts(ptr.cast::<Self>(), 0, cap) })
    }

    fn alloc_vec(len: usize) -> (*mut u8, usize) {
        let mut v = ManuallyDrop::new(Vec::<Self>::with_capacity(len));
        (v.as_mut_ptr().cast(), v.capacity())
    }
}

impl<T> Elements for T {}

/// The [`ElementPair`] of `Self` and `B`, as a constant, so that each pair's table is a
/// static and [`convert_vec`] only passes its address.
trait HasElementPair<B>: Sized {
    const PAIR: ElementPair;
}

impl<A: Convert<B> + 'static, B: 'static> HasElementPair<B> for A {
    const PAIR: ElementPair = {
        let in_place = size_of::<A>() == size_of::<B>() && align_of::<A>() == align_of::<B>();
        ElementPair {
            type_in: TypeId::of::<A>,
            type_out: TypeId::of::<B>,
            size_in: size_of::<A>(),
            in_place,
            step: <A as ConvertAll<B>>::convert_all,
            drop_in: <A as Elements>::drop_elements,
            drop_out: <B as Elements>::drop_elements,
            free_in: <A as Elements>::free_vec,
            // Nearly every pair converts in place: those compile no allocation code.
            alloc_out: if in_place {
                no_alloc
            } else {
                <B as Elements>::alloc_vec
            },
            free_out: if in_place {
                free_nothing
            } else {
                <B as Elements>::free_vec
            },
        }
    };
}

/// `alloc_out` of a pair converted in place, which never allocates.
fn no_alloc(_: usize) -> (*mut u8, usize) {
    (std::ptr::null_mut(), 0)
}

/// `free_out` of a pair converted in place, whose output buffer is the input's.
unsafe fn free_nothing(_: *mut u8, _: usize) {}

/// Converts `v` element by element, in its own buffer when the layouts allow; a failure
/// names the element's index (`[2]`) before the path the element's conversion gave. A
/// vector whose element type does not change is moved whole.
pub(super) fn convert_vec<A: Convert<B> + 'static, B: 'static>(
    v: Vec<A>,
    scope: &Scope<'_>,
) -> Result<Vec<B>, ConversionError> {
    // Most lists of an object are empty: no call, no table.
    if v.is_empty() {
        return Ok(Vec::new());
    }
    let mut v = ManuallyDrop::new(v);
    let (ptr, len, cap) = (v.as_mut_ptr().cast::<u8>(), v.len(), v.capacity());
    // SAFETY: `ptr`, `len` and `cap` are the parts of a `Vec<A>` that nothing else owns
    // any more (`ManuallyDrop`), and `PAIR` holds the functions of `A` and `B`.
    match unsafe { convert_elements(ptr, len, cap, &<A as HasElementPair<B>>::PAIR, scope) } {
        // SAFETY: `convert_elements` returns a buffer of `len` initialized `B`s of that
        // capacity, allocated as a `Vec<B>`'s (or a `Vec<A>`'s of the same layout).
        Ok((ptr, cap)) => Ok(unsafe { Vec::from_raw_parts(ptr.cast::<B>(), len, cap) }),
        Err(e) => Err(e),
    }
}

/// The state of a conversion under way, whose `Drop` cleans up after a failure or a
/// panic: the outputs written so far and the inputs not yet consumed are dropped, and the
/// buffers freed. Nothing is dropped twice: the element being converted belongs to `step`.
struct InProgress<'a> {
    pair: &'a ElementPair,
    src: *mut u8,
    src_cap: usize,
    dst: *mut u8,
    dst_cap: usize,
    len: usize,
    cursor: Cursor,
}

impl Drop for InProgress<'_> {
    fn drop(&mut self) {
        let pair = self.pair;
        // SAFETY: `[0, written)` holds initialized outputs and `[consumed, len)` inputs
        // that no one has read; the two ranges do not overlap, even in place, because
        // `written <= consumed` and both element sizes are equal then. The buffers are
        // those `convert_elements` was given or allocated, and all their elements are gone
        // after the two drops.
        unsafe {
            (pair.drop_out)(self.dst, self.cursor.written);
            (pair.drop_in)(
                self.src.add(self.cursor.consumed * pair.size_in),
                self.len - self.cursor.consumed,
            );
            (pair.free_in)(self.src, self.src_cap);
            if !pair.in_place {
                (pair.free_out)(self.dst, self.dst_cap);
            }
        }
    }
}

/// The non-generic loop of [`convert_vec`]: converts the `len` `A`s of the buffer
/// `(src, src_cap)` and answers the buffer of the `len` `B`s (the same one when
/// `pair.in_place`), or the first error, after dropping everything and freeing both.
/// When `A` and `B` are one type, the source buffer is the answer, untouched: the test is
/// here, once, where a safe `Any` round trip in the generic caller
/// (`convert::take_if_same`) compiled ~90 IR lines per element pair (issue 44).
///
/// # Safety
/// `(src, len, src_cap)` are the parts of a `Vec<A>` the caller gives up, and `pair` holds
/// the functions of that `A` and of one `B`.
#[inline(never)]
unsafe fn convert_elements(
    src: *mut u8,
    len: usize,
    src_cap: usize,
    pair: &ElementPair,
    scope: &Scope<'_>,
) -> Result<(*mut u8, usize), ConversionError> {
    if (pair.type_in)() == (pair.type_out)() {
        // The `len` `A`s are `B`s: the caller's `Vec<A>` is its `Vec<B>`.
        return Ok((src, src_cap));
    }
    let (dst, dst_cap) = if pair.in_place {
        (src, src_cap)
    } else {
        (pair.alloc_out)(len)
    };
    let mut progress = InProgress {
        pair,
        src,
        src_cap,
        dst,
        dst_cap,
        len,
        cursor: Cursor {
            written: 0,
            consumed: 0,
        },
    };
    // SAFETY: the source's elements are all valid and unread, the destination has room for
    // `len` outputs, and in place `pair.in_place` says `B` is laid out as `A`.
    let result = unsafe { (pair.step)(src, dst, len, &mut progress.cursor, scope) };
    // On failure `progress` drops what is left and frees the buffers.
    result?;
    // Every input is consumed and every output written: nothing for `progress` to drop.
    let progress = ManuallyDrop::new(progress);
    if !pair.in_place {
        // SAFETY: the source buffer's elements were all moved out by `step`.
        unsafe { (pair.free_in)(progress.src, progress.src_cap) };
    }
    Ok((progress.dst, progress.dst_cap))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;
    use std::panic::{AssertUnwindSafe, catch_unwind};

    thread_local! {
        /// Values made minus values dropped, per test thread.
        static LIVE: Cell<isize> = const { Cell::new(0) };
        /// Conversions so far, and the one that fails (`Some((n, false))`) or panics.
        static CALLS: Cell<usize> = const { Cell::new(0) };
        static FAIL: Cell<Option<(usize, bool)>> = const { Cell::new(None) };
    }

    fn live() -> isize {
        LIVE.with(Cell::get)
    }

    /// Counts itself in `LIVE`; `N` sets its size (zero included). `V` tells the input
    /// (0) from the output (1) of a conversion: types of one layout that are not the same
    /// type, which `convert_vec` would move whole.
    #[derive(Debug)]
    struct Counted<const N: usize, const V: u8 = 0>([u32; N]);

    impl<const N: usize, const V: u8> Counted<N, V> {
        fn new(v: u32) -> Self {
            LIVE.with(|l| l.set(l.get() + 1));
            Counted([v; N])
        }
    }

    impl<const N: usize, const V: u8> Drop for Counted<N, V> {
        fn drop(&mut self) {
            LIVE.with(|l| l.set(l.get() - 1));
        }
    }

    impl<const N: usize, const M: usize> Convert<Counted<M, 1>> for Counted<N> {
        fn convert(self, _: &Scope<'_>) -> Result<Counted<M, 1>, ConversionError> {
            let call = CALLS.with(|c| c.replace(c.get() + 1));
            match FAIL.with(Cell::get) {
                Some((at, false)) if at == call => Err(ConversionError::unrepresentable::<
                    Self,
                    Counted<M, 1>,
                >("on purpose")),
                Some((at, true)) if at == call => panic!("converting element {call}"),
                _ => Ok(Counted::new(self.0.first().map_or(0, |v| v + 1))),
            }
        }
        fn convert_ref(&self, _: &Scope<'_>) -> Result<Counted<M, 1>, ConversionError> {
            unreachable!("only by value here")
        }
    }

    fn input<const N: usize>(len: u32) -> Vec<Counted<N>> {
        (0..len).map(Counted::new).collect()
    }

    fn run<const N: usize, const M: usize>(
        len: u32,
        fail: Option<(usize, bool)>,
    ) -> std::thread::Result<Result<Vec<Counted<M, 1>>, ConversionError>> {
        CALLS.with(|c| c.set(0));
        FAIL.with(|f| f.set(fail));
        let v = input::<N>(len);
        catch_unwind(AssertUnwindSafe(|| convert_vec(v, &Scope::new())))
    }

    /// Every outcome, for one element pair: converted (empty included), failed or panicked
    /// at each position, leaving no value alive and none dropped twice.
    fn every_outcome<const N: usize, const M: usize>() {
        for len in 0..5u32 {
            let out = run::<N, M>(len, None).unwrap().unwrap();
            assert_eq!(out.len(), len as usize);
            if M > 0 {
                let expected: Vec<u32> = (0..len).map(|v| if N > 0 { v + 1 } else { 0 }).collect();
                assert_eq!(out.iter().map(|c| c.0[0]).collect::<Vec<_>>(), expected);
            }
            drop(out);
            assert_eq!(live(), 0, "N={N} M={M} len={len}: converted");
            for at in 0..len as usize {
                let err = run::<N, M>(len, Some((at, false))).unwrap().unwrap_err();
                assert_eq!(err.path(), format!("[{at}]"));
                assert!(err.to_string().ends_with(": on purpose"), "{err}");
                assert_eq!(live(), 0, "N={N} M={M} len={len}: failed at {at}");
                assert!(run::<N, M>(len, Some((at, true))).is_err(), "panicked");
                assert_eq!(live(), 0, "N={N} M={M} len={len}: panicked at {at}");
            }
        }
    }

    #[test]
    fn nothing_is_leaked_or_dropped_twice_in_place() {
        every_outcome::<2, 2>();
    }

    #[test]
    fn nothing_is_leaked_or_dropped_twice_into_a_new_buffer() {
        every_outcome::<1, 3>();
        every_outcome::<3, 1>();
    }

    #[test]
    fn zero_sized_elements_convert() {
        every_outcome::<0, 0>();
        every_outcome::<0, 2>();
        every_outcome::<2, 0>();
    }

    #[test]
    fn the_same_layout_reuses_the_buffer() {
        let v = input::<2>(3);
        let ptr = v.as_ptr() as *const u8;
        let out: Vec<Counted<2, 1>> = convert_vec(v, &Scope::new()).unwrap();
        assert_eq!(out.as_ptr() as *const u8, ptr);
        assert_eq!(out.iter().map(|c| c.0[0]).collect::<Vec<_>>(), [1, 2, 3]);
    }

    impl Convert<Counted<2>> for Counted<2> {
        fn convert(self, _: &Scope<'_>) -> Result<Counted<2>, ConversionError> {
            unreachable!("the same type is moved whole")
        }
        fn convert_ref(&self, _: &Scope<'_>) -> Result<Counted<2>, ConversionError> {
            unreachable!("only by value here")
        }
    }

    #[test]
    fn the_same_type_is_moved_whole() {
        let v = input::<2>(3);
        let (ptr, cap) = (v.as_ptr(), v.capacity());
        let out: Vec<Counted<2>> = convert_vec(v, &Scope::new()).unwrap();
        assert_eq!((out.as_ptr(), out.capacity()), (ptr, cap));
        assert_eq!(out.iter().map(|c| c.0[0]).collect::<Vec<_>>(), [0, 1, 2]);
        drop(out);
        assert_eq!(live(), 0);
    }
}
