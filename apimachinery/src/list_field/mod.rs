//! `Clone` and `Debug` of the generated types' list fields (`Vec<T>`, `Option<Vec<T>>`),
//! with one non-generic loop each instead of the standard library's per element type.
//!
//! The generated `Clone` and `Debug` impls call these for their list fields (issue 44:
//! `k8s-types`' compile time). Through `Vec<T>`'s own impls, each of the ~350 element types
//! compiled `<[T]>::to_vec` with its iterator adapters and drop guard (~185 IR lines per
//! type) and `DebugList::entries` with `<[T] as Debug>` and `<&T as Debug>` (~90). Here the
//! loop is compiled once, and per element type there are only the few lines that clone or
//! show one element, called through a vtable. Both are cold paths (a deep copy, a debug
//! print), where an indirect call per element costs nothing that matters.

mod clone;
mod debug;

pub use clone::CloneList;
pub use debug::{DebugList, ListDebug};
