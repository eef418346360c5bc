//! [`Defaulters`]: the per-type defaulting functions a scheme applies with
//! [`Scheme::default`](crate::runtime::Scheme::default), and
//! [`DefaulterRegistration`], their link-time registry (for generated defaulters).

use std::any::{Any, TypeId};
use std::fmt;
use std::sync::Arc;

use crate::fx_hash::FxHashMap;

type DefaultFn = dyn Fn(&mut dyn Any) + Send + Sync;

/// Defaulting functions by Rust type (Go's `Scheme.defaulterFuncs`): at most one per type,
/// the last added winning, as in Go.
#[derive(Clone, Default)]
pub struct Defaulters {
    funcs: FxHashMap<TypeId, (&'static str, Arc<DefaultFn>)>,
}

impl Defaulters {
    /// No function.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the defaulting function of `T` (Go's `AddTypeDefaultingFunc`).
    pub fn add<T: 'static, F: Fn(&mut T) + Send + Sync + 'static>(&mut self, f: F) {
        let erased = move |obj: &mut dyn Any| {
            if let Some(t) = obj.downcast_mut::<T>() {
                f(t);
            }
        };
        self.insert(
            TypeId::of::<T>(),
            std::any::type_name::<T>(),
            Arc::new(erased),
        );
    }

    /// [`add`](Self::add)'s insertion, out of line: the map's code compiled here once,
    /// not in every caller's crate for every type.
    #[inline(never)]
    fn insert(&mut self, type_id: TypeId, name: &'static str, f: Arc<DefaultFn>) {
        self.funcs.insert(type_id, (name, f));
    }

    /// Applies the function of the value's type, if there is one; returns whether there
    /// was. A `&mut dyn Object` is passed as it is (it upcasts to `&mut dyn Any`).
    pub fn apply(&self, value: &mut dyn Any) -> bool {
        match self.funcs.get(&(*value).type_id()) {
            Some((_, f)) => {
                f(value);
                true
            }
            None => false,
        }
    }

    /// True when `T` has a defaulting function.
    pub fn has<T: 'static>(&self) -> bool {
        self.funcs.contains_key(&TypeId::of::<T>())
    }
}

impl fmt::Debug for Defaulters {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut names: Vec<&str> = self.funcs.values().map(|(n, _)| *n).collect();
        names.sort_unstable();
        f.debug_tuple("Defaulters").field(&names).finish()
    }
}

/// Defaulting functions submitted at link time with `inventory::submit!` (through
/// `apimachinery::__private::inventory`), as generated defaulters do: the function adds
/// its types' defaulters. [`Scheme::from_registry`](crate::runtime::Scheme::from_registry)
/// runs every one.
///
/// ```standalone_crate
/// use apimachinery::conversion::{DefaulterRegistration, Defaulters};
/// use apimachinery::{ApiObject, apis::meta::v1::ObjectMeta, runtime::Scheme};
///
/// #[derive(ApiObject, Clone, Debug, Default, PartialEq)]
/// #[api(group = "example.com", version = "v1", kind = "Dial")]
/// pub struct Dial { pub metadata: ObjectMeta, pub max: i32 }
///
/// fn register_defaults(d: &mut Defaulters) {
///     d.add(|dial: &mut Dial| if dial.max == 0 { dial.max = 11 });
/// }
/// apimachinery::__private::inventory::submit! { DefaulterRegistration(register_defaults) }
///
/// let scheme = Scheme::from_registry()?;
/// let mut dial = Dial::default();
/// scheme.default(&mut dial);
/// assert_eq!(dial.max, 11);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct DefaulterRegistration(pub fn(&mut Defaulters));

inventory::collect!(DefaulterRegistration);
