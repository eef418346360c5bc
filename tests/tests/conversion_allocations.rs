//! By-value conversion moves what it can: converting the benchmark's Deployment-sized
//! object to its hub allocates nothing (every vector is rewritten in place, every string
//! and map moved), while by-reference conversion allocates as `Clone` does. Counted with a
//! per-thread counting allocator, so tests running in parallel do not disturb the count.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use apimachinery::conversion::{Convert, Scope};
use apimachinery::runtime::{Object, Scheme};
use apimachinery::schema::InternalGroupVersioner;

#[path = "../../apimachinery/benches/support/deployment.rs"]
mod deployment;
use deployment::{internal, v1};

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: defers every call to the system allocator; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        // SAFETY: same contract as ours.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as ours.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        // SAFETY: same contract as ours.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations<T>(f: impl FnOnce() -> T) -> (usize, T) {
    let before = ALLOCATIONS.with(Cell::get);
    let out = f();
    (ALLOCATIONS.with(Cell::get) - before, out)
}

#[test]
fn by_value_conversion_allocates_nothing() {
    let d = deployment::sample();
    let scope = Scope::new();
    let (n, hub) = allocations(|| Convert::<internal::Deployment>::convert(d.clone(), &scope));
    let (clones, _) = allocations(|| d.clone());
    // The clone of the input is counted too; the conversion adds nothing to it.
    assert_eq!(n, clones, "by-value conversion allocated");
    let hub = hub.unwrap();

    let (n, back) = allocations(|| Convert::<v1::Deployment>::convert(hub.clone(), &scope));
    assert_eq!(n, clones);
    assert_eq!(back.unwrap(), d);

    let (n, _) = allocations(|| Convert::<internal::Deployment>::convert_ref(&d, &scope));
    assert_eq!(n, clones, "by reference allocates what Clone does, no more");
}

#[test]
fn convert_to_version_allocates_only_the_result_box() {
    let scheme = Scheme::from_registry().unwrap();
    let d = deployment::sample();
    let boxed: Box<dyn Object> = Box::new(d.clone());
    let (n, out) = allocations(|| scheme.convert_to_version(boxed, &InternalGroupVersioner));
    assert_eq!(n, 1, "one box for the converted object");
    let out = out.unwrap();
    // Already at the target: nothing at all.
    let (n, same) = allocations(|| scheme.convert_to_version(out, &InternalGroupVersioner));
    assert_eq!(n, 0);
    assert!(same.unwrap().is::<internal::Deployment>());
}
