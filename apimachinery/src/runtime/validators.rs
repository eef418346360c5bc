//! [`Validators`]: the per-type validation functions a scheme runs with
//! [`Scheme::validate`](crate::runtime::Scheme::validate) (Go's REST strategies'
//! `Validate` and `ValidateUpdate`), and [`ValidatorRegistration`], their link-time
//! registry.

use std::any::{Any, TypeId};
use std::fmt;
use std::sync::Arc;

use crate::apis::meta::v1::ObjectMetaAccessor;
use crate::apis::meta::v1::validation::validate_generic_object_meta;
use crate::fx_hash::FxHashMap;
use crate::runtime::{Resource, ResourceScope};
use crate::util::validation::field::ErrorList;

/// A type's erased function: the object and the one it replaces give the type's errors
/// and the object's metadata, or `None` when the object is not of the type. Only the
/// downcasts and the call are per type; the generic metadata check after a clean run
/// (see [`Validators::add`]) is [`Validators::run`]'s, compiled once.
type ValidateFn = dyn for<'a> Fn(
        &'a dyn Any,
        Option<&'a dyn Any>,
    ) -> Option<(ErrorList, Option<&'a dyn ObjectMetaAccessor>)>
    + Send
    + Sync;
type ValidateStatusFn = dyn Fn(&dyn Any, &dyn Any) -> ErrorList + Send + Sync;
type UndeclaredFn = fn(&mut ErrorList);

/// Validation functions by Rust type: at most one per type, the last added winning. A
/// function gets the object and, on update, the object it replaces (of the same type).
/// Besides, a type may have a `/status` function (Go's status strategy's
/// `ValidateUpdate`), which judges a write of the status subresource.
#[derive(Clone, Default)]
pub struct Validators {
    funcs: FxHashMap<TypeId, TypeValidator>,
    /// By type and subresource (`status`, a Pod's `resize`).
    status_funcs: FxHashMap<(TypeId, &'static str), Arc<ValidateStatusFn>>,
    undeclared: FxHashMap<TypeId, UndeclaredFn>,
}

/// One type's entry: its name (for [`Validators::type_names`]), whether its kind is
/// namespaced (for the generic metadata check), and its function.
#[derive(Clone)]
struct TypeValidator {
    name: &'static str,
    namespaced: bool,
    f: Arc<ValidateFn>,
}

impl Validators {
    /// No function.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the validation function of `T`: `f(obj, None)` validates a new object (Go's
    /// `Validate`), `f(obj, Some(old))` an update (Go's `ValidateUpdate`).
    ///
    /// When `f` finds nothing, the object's metadata is then checked as kube-apiserver
    /// checks every object's after its strategy's own validation (`rest.BeforeCreate`:
    /// Go's `ValidateObjectMetaAccessor` with names as path segments, the namespace by
    /// the kind's scope), so that a kind's own, more specific, messages come first.
    pub fn add<T, F>(&mut self, f: F)
    where
        T: Resource,
        F: Fn(&T, Option<&T>) -> ErrorList + Send + Sync + 'static,
    {
        let typed = higher_ranked(move |obj: &dyn Any, old: Option<&dyn Any>| {
            let t = obj.downcast_ref::<T>()?;
            Some((f(t, old.and_then(|o| o.downcast_ref::<T>())), t.meta()))
        });
        self.insert(
            TypeId::of::<T>(),
            TypeValidator {
                name: std::any::type_name::<T>(),
                namespaced: matches!(T::SCOPE, ResourceScope::Namespaced),
                f: Arc::new(typed),
            },
        );
    }

    /// [`add`](Self::add)'s insertion, out of line: the map's code compiled here once,
    /// not in every caller's crate for every type.
    #[inline(never)]
    fn insert(&mut self, type_id: TypeId, validator: TypeValidator) {
        self.funcs.insert(type_id, validator);
    }

    /// Sets the `/status` validation function of `T`: `f(new, old)` judges an update of
    /// the status subresource (Go's status strategy's `ValidateUpdate`, such as
    /// `ValidatePodStatusUpdate`), which checks the metadata's update itself.
    pub fn add_status<T, F>(&mut self, f: F)
    where
        T: Resource,
        F: Fn(&T, &T) -> ErrorList + Send + Sync + 'static,
    {
        self.add_subresource::<T, F>("status", f);
    }

    /// Sets the validation function of `T`'s subresource `name` (`status`, or another
    /// that writes the object, as a Pod's `resize`): `f(new, old)` judges an update
    /// through it (Go's subresource strategy's `ValidateUpdate`, such as
    /// `ValidatePodResize`), metadata included.
    pub fn add_subresource<T, F>(&mut self, name: &'static str, f: F)
    where
        T: Resource,
        F: Fn(&T, &T) -> ErrorList + Send + Sync + 'static,
    {
        let erased = move |obj: &dyn Any, old: &dyn Any| match (
            obj.downcast_ref::<T>(),
            old.downcast_ref::<T>(),
        ) {
            (Some(t), Some(old)) => f(t, old),
            _ => ErrorList::default(),
        };
        self.insert_subresource(TypeId::of::<T>(), name, Arc::new(erased));
    }

    /// [`add_subresource`](Self::add_subresource)'s insertion, out of line: the map's
    /// code compiled here once, not in every caller's crate for every type.
    #[inline(never)]
    fn insert_subresource(
        &mut self,
        type_id: TypeId,
        name: &'static str,
        f: Arc<ValidateStatusFn>,
    ) {
        self.status_funcs.insert((type_id, name), f);
    }

    /// Marks `V`, a versioned type Go generates no declarative validation for (its
    /// version's package has no `zz_generated.validations.go`, as `extensions/v1beta1`):
    /// kube-apiserver runs a strategy's declarative rules on the object as converted to
    /// the version of the request (`rest.ValidateDeclaratively`), so a request in `V`'s
    /// version gets none of them. `drop` removes, from the errors of `V`'s internal form
    /// (its hub's validation function, which applies them), those of the declarative
    /// rules. [`Scheme::validate`](crate::runtime::Scheme::validate) applies it to an
    /// object that comes in as a `V`.
    pub fn add_undeclared_version<V: 'static>(&mut self, drop: fn(&mut ErrorList)) {
        self.undeclared.insert(TypeId::of::<V>(), drop);
    }

    /// The errors of a request in the version of the type `type_id` (see
    /// [`add_undeclared_version`](Self::add_undeclared_version)): `errs` less the
    /// declarative rules' when that version has none, else as they are.
    pub fn for_request_type(&self, type_id: TypeId, mut errs: ErrorList) -> ErrorList {
        if let Some(drop) = self.undeclared.get(&type_id) {
            drop(&mut errs);
        }
        errs
    }

    /// Runs the `/status` function of the value's type on an update from `old` (of the
    /// same type): `None` when the type has none.
    pub fn validate_status(&self, value: &dyn Any, old: &dyn Any) -> Option<ErrorList> {
        self.validate_subresource("status", value, old)
    }

    /// Runs the function of the value's type for subresource `name` on an update from
    /// `old` (of the same type): `None` when the type has none.
    pub fn validate_subresource(
        &self,
        name: &str,
        value: &dyn Any,
        old: &dyn Any,
    ) -> Option<ErrorList> {
        let f = self.status_funcs.get(&(value.type_id(), name))?;
        Some(f(value, old))
    }

    /// True when the type `type_id` has a `/status` validation function.
    pub fn has_status_type_id(&self, type_id: TypeId) -> bool {
        self.has_subresource_type_id(type_id, "status")
    }

    /// True when the type `type_id` has a validation function for subresource `name`.
    pub fn has_subresource_type_id(&self, type_id: TypeId, name: &str) -> bool {
        self.status_funcs.contains_key(&(type_id, name))
    }

    /// Runs the function of the value's type: `None` when the type has none. An `old`
    /// value of another type counts as no old value. A `&dyn Object` is passed as it is
    /// (it upcasts to `&dyn Any`).
    pub fn validate(&self, value: &dyn Any, old: Option<&dyn Any>) -> Option<ErrorList> {
        self.run(value, old, true)
    }

    /// [`validate`](Self::validate), with the generic metadata check after a clean run
    /// only when `generic` (without it: the kind's own errors, with its declarative
    /// rules', as [`Scheme::validate_strategy`](crate::runtime::Scheme::validate_strategy)
    /// gives them).
    pub(crate) fn run(
        &self,
        value: &dyn Any,
        old: Option<&dyn Any>,
        generic: bool,
    ) -> Option<ErrorList> {
        let validator = self.funcs.get(&value.type_id())?;
        Some(match (validator.f)(value, old) {
            Some((errs, Some(meta))) if generic && errs.is_empty() => {
                validate_generic_object_meta(meta, validator.namespaced)
            }
            Some((errs, _)) => errs,
            None => ErrorList::default(),
        })
    }

    /// True when `T` has a validation function.
    pub fn has<T: 'static>(&self) -> bool {
        self.funcs.contains_key(&TypeId::of::<T>())
    }

    /// True when the type `type_id` has a validation function.
    pub fn has_type_id(&self, type_id: TypeId) -> bool {
        self.funcs.contains_key(&type_id)
    }

    /// The Rust type names of the validated types, sorted.
    pub fn type_names(&self) -> Vec<&'static str> {
        let mut names: Vec<&str> = self.funcs.values().map(|v| v.name).collect();
        names.sort_unstable();
        names
    }
}

/// `f` as it is: a closure passed here gets the signature of [`ValidateFn`], whose
/// result borrows from the object (a closure's own inference would not tie the two).
fn higher_ranked<F>(f: F) -> F
where
    F: for<'a> Fn(
        &'a dyn Any,
        Option<&'a dyn Any>,
    ) -> Option<(ErrorList, Option<&'a dyn ObjectMetaAccessor>)>,
{
    f
}

impl fmt::Debug for Validators {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Validators")
            .field(&self.type_names())
            .finish()
    }
}

/// Validation functions submitted at link time with `inventory::submit!` (through
/// `apimachinery::__private::inventory`): the function adds its types' validators.
/// [`Scheme::from_registry`](crate::runtime::Scheme::from_registry) runs every one.
///
/// ```standalone_crate
/// use apimachinery::runtime::{Scheme, ValidatorRegistration, Validators};
/// use apimachinery::util::validation::field::{Error, ErrorList, Path};
/// use apimachinery::{ApiObject, apis::meta::v1::ObjectMeta};
///
/// #[derive(ApiObject, Clone, Debug, Default, PartialEq)]
/// #[api(group = "example.com", version = "v1", kind = "Dial")]
/// pub struct Dial { pub metadata: ObjectMeta, pub max: i32 }
///
/// fn register_validators(v: &mut Validators) {
///     v.add(|dial: &Dial, _old: Option<&Dial>| {
///         let mut errs = ErrorList::default();
///         if dial.max > 11 {
///             errs.push(Error::invalid(&Path::new("max"), dial.max, "must be at most 11"));
///         }
///         errs
///     });
/// }
/// apimachinery::__private::inventory::submit! { ValidatorRegistration(register_validators) }
///
/// let scheme = Scheme::from_registry()?;
/// let dial = Dial { max: 12, ..Default::default() };
/// let errs = scheme.validate(&dial, None).ok_or("no validator")?;
/// assert_eq!(errs.to_string(), "max: Invalid value: 12: must be at most 11");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct ValidatorRegistration(pub fn(&mut Validators));

inventory::collect!(ValidatorRegistration);
