//! The static conversion traits: [`Convert`] (how an `A` becomes a `B`, the function
//! nested fields call) and [`AutoConvert`] (the field-by-field conversion
//! `#[derive(Convert)]` writes), with their implementations for containers and for types
//! that are the same in every version.
//!
//! Nested values are converted through these traits, not through the scheme's registry:
//! the compiler resolves each field's conversion statically, so it inlines, costs no
//! lookup, and a missing conversion is a compile error instead of a run-time one. That is
//! also what Go's `conversion-gen` does (generated functions call each other by name); the
//! registry is only the entry point for whole objects.

use std::any::Any;
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::hash::{BuildHasher, Hash};

use super::{ConversionError, Scope};

/// Converts `Self` into an `Out`, by reference or by value.
///
/// Implemented by `#[derive(Convert)]` for a type and its hub (both ways), by the library
/// for types that are the same in every version (see
/// [`identity_conversion!`](crate::identity_conversion)), and for `Option`, `Vec`, `Box`,
/// `BTreeMap` and `HashMap` of convertible values. By value, a container whose element
/// type does not change is moved whole: no allocation, no per-element work.
pub trait Convert<Out>: Sized {
    /// Converts by value, moving what can be moved.
    fn convert(self, scope: &Scope<'_>) -> Result<Out, ConversionError>;

    /// Converts by reference, cloning what must be cloned.
    fn convert_ref(&self, scope: &Scope<'_>) -> Result<Out, ConversionError>;
}

/// The field-by-field conversion `#[derive(Convert)]` generates (Go's
/// `autoConvert_A_To_B`). A hand-written conversion usually calls it, then fixes what the
/// fields it skipped need.
pub trait AutoConvert<Out>: Sized {
    /// Converts by value, field by field.
    fn auto_convert(self, scope: &Scope<'_>) -> Result<Out, ConversionError>;

    /// Converts by reference. `#[derive(Convert)]` clones `self` and converts the clone by
    /// value: a field-by-field copy allocates what the clone does.
    fn auto_convert_ref(&self, scope: &Scope<'_>) -> Result<Out, ConversionError>;
}

/// `value` as a `B` when `A` and `B` are the same type, else `value` back. The check is on
/// constant type ids and the value passes through an `Option` slot that the optimizer
/// sees through, so that the same-type case compiles to a move (emptying `value` in place
/// instead left a map to drop).
fn take_if_same<A: Default + 'static, B: 'static>(value: A) -> Result<B, A> {
    let mut slot = Some(value);
    let any: &mut dyn Any = &mut slot;
    // Plain `match`es: `and_then(Option::take)` and `unwrap_or_default` were compiled per
    // type with their closures.
    if let Some(same) = any.downcast_mut::<Option<B>>() {
        if let Some(same) = same.take() {
            return Ok(same);
        }
    }
    match slot {
        Some(value) => Err(value),
        // Unreachable: the slot is only emptied when it held a `B`.
        None => Err(A::default()),
    }
}

// The containers below are plain loops (a vector by value: `vec_in_place`): the
// iterator adapters and the fallible `collect` they replace compiled a dozen generic
// functions per element type (`GenericShunt`, `try_process`, `Enumerate`, ...), which was
// most of the conversion code of a crate of API types. An error's subscript is only built
// on failure.

impl<A: Convert<B> + 'static, B: 'static> Convert<Option<B>> for Option<A> {
    // No same-type shortcut: an `Option` of an unchanged type converts its value with
    // the identity conversion, which is a move.
    fn convert(self, scope: &Scope<'_>) -> Result<Option<B>, ConversionError> {
        match self {
            Some(a) => match a.convert(scope) {
                Ok(b) => Ok(Some(b)),
                Err(e) => Err(e),
            },
            None => Ok(None),
        }
    }

    fn convert_ref(&self, scope: &Scope<'_>) -> Result<Option<B>, ConversionError> {
        match self {
            Some(a) => match a.convert_ref(scope) {
                Ok(b) => Ok(Some(b)),
                Err(e) => Err(e),
            },
            None => Ok(None),
        }
    }
}

impl<A: Convert<B> + 'static, B: 'static> Convert<Box<B>> for Box<A> {
    fn convert(self, scope: &Scope<'_>) -> Result<Box<B>, ConversionError> {
        // A box of an unchanged type is kept, allocation and all.
        let any: Box<dyn Any> = self;
        match any.downcast::<B>() {
            Ok(same) => Ok(same),
            Err(any) => match any.downcast::<A>() {
                Ok(a) => match (*a).convert(scope) {
                    Ok(b) => Ok(Box::new(b)),
                    Err(e) => Err(e),
                },
                // Unreachable: `any` was made from a `Box<A>` above.
                Err(_) => Err(ConversionError::no_conversion::<Box<A>, Box<B>>()),
            },
        }
    }

    fn convert_ref(&self, scope: &Scope<'_>) -> Result<Box<B>, ConversionError> {
        match (**self).convert_ref(scope) {
            Ok(b) => Ok(Box::new(b)),
            Err(e) => Err(e),
        }
    }
}

impl<A: Convert<B> + 'static, B: 'static> Convert<Vec<B>> for Vec<A> {
    fn convert(self, scope: &Scope<'_>) -> Result<Vec<B>, ConversionError> {
        // Moved whole when the element type does not change, else in the source's buffer
        // when the layouts allow: no allocation either way.
        super::vec_in_place::convert_vec(self, scope)
    }

    // A counter, not `enumerate`, which would be one more iterator compiled per element type.
    #[allow(clippy::explicit_counter_loop)]
    fn convert_ref(&self, scope: &Scope<'_>) -> Result<Vec<B>, ConversionError> {
        let mut out = Vec::with_capacity(self.len());
        let mut index = 0;
        for a in self {
            match a.convert_ref(scope) {
                Ok(b) => out.push(b),
                Err(e) => return Err(e.at_index(index)),
            }
            index += 1;
        }
        Ok(out)
    }
}

impl<K, A, B> Convert<BTreeMap<K, B>> for BTreeMap<K, A>
where
    K: Ord + Clone + fmt::Display + 'static,
    A: Convert<B> + 'static,
    B: Clone + 'static,
{
    fn convert(self, scope: &Scope<'_>) -> Result<BTreeMap<K, B>, ConversionError> {
        let map = match take_if_same::<BTreeMap<K, A>, BTreeMap<K, B>>(self) {
            Ok(same) => return Ok(same),
            Err(map) => map,
        };
        // Inserting in key order appends; collecting would buffer the pairs in a `Vec` first.
        let mut out = BTreeMap::new();
        for (k, a) in map {
            match a.convert(scope) {
                Ok(b) => {
                    out.insert(k, b);
                }
                Err(e) => return Err(e.at_key(&k)),
            }
        }
        Ok(out)
    }

    fn convert_ref(&self, scope: &Scope<'_>) -> Result<BTreeMap<K, B>, ConversionError> {
        // A map that does not change type is cloned whole, tree and all.
        if let Some(same) = (self as &dyn Any).downcast_ref::<BTreeMap<K, B>>() {
            return Ok(same.clone());
        }
        let mut out = BTreeMap::new();
        for (k, a) in self {
            match a.convert_ref(scope) {
                Ok(b) => {
                    out.insert(k.clone(), b);
                }
                Err(e) => return Err(e.at_key(k)),
            }
        }
        Ok(out)
    }
}

impl<K, A, B, S> Convert<HashMap<K, B, S>> for HashMap<K, A, S>
where
    K: Eq + Hash + Clone + fmt::Display + 'static,
    A: Convert<B> + 'static,
    B: Clone + 'static,
    S: BuildHasher + Clone + Default + 'static,
{
    fn convert(self, scope: &Scope<'_>) -> Result<HashMap<K, B, S>, ConversionError> {
        let map = match take_if_same::<HashMap<K, A, S>, HashMap<K, B, S>>(self) {
            Ok(same) => return Ok(same),
            Err(map) => map,
        };
        let mut out = HashMap::with_capacity_and_hasher(map.len(), S::default());
        for (k, a) in map {
            match a.convert(scope) {
                Ok(b) => {
                    out.insert(k, b);
                }
                Err(e) => return Err(e.at_key(&k)),
            }
        }
        Ok(out)
    }

    fn convert_ref(&self, scope: &Scope<'_>) -> Result<HashMap<K, B, S>, ConversionError> {
        if let Some(same) = (self as &dyn Any).downcast_ref::<HashMap<K, B, S>>() {
            return Ok(same.clone());
        }
        let mut out = HashMap::with_capacity_and_hasher(self.len(), S::default());
        for (k, a) in self {
            match a.convert_ref(scope) {
                Ok(b) => {
                    out.insert(k.clone(), b);
                }
                Err(e) => return Err(e.at_key(k)),
            }
        }
        Ok(out)
    }
}

/// Declares types that are the same in every version they appear in: converting one to
/// itself moves it (by value) or clones it (by reference). The library declares the
/// scalars, `String`, `serde_json::Value` and the `meta/v1` types; declare your own types
/// that versions share.
///
/// ```
/// use apimachinery::conversion::{Convert, Scope};
///
/// #[derive(Clone, Debug, PartialEq)]
/// pub struct Quantity(String);
/// apimachinery::identity_conversion!(Quantity);
///
/// let q = Quantity("1Gi".into());
/// let back: Quantity = q.convert_ref(&Scope::new())?;
/// assert_eq!(back, q);
/// # Ok::<(), apimachinery::conversion::ConversionError>(())
/// ```
#[macro_export]
macro_rules! identity_conversion {
    ($($ty:ty),+ $(,)?) => {
        $(
            impl $crate::conversion::Convert<$ty> for $ty {
                #[inline]
                fn convert(
                    self,
                    _: &$crate::conversion::Scope<'_>,
                ) -> ::core::result::Result<$ty, $crate::conversion::ConversionError> {
                    ::core::result::Result::Ok(self)
                }
                #[inline]
                fn convert_ref(
                    &self,
                    _: &$crate::conversion::Scope<'_>,
                ) -> ::core::result::Result<$ty, $crate::conversion::ConversionError> {
                    ::core::result::Result::Ok(::core::clone::Clone::clone(self))
                }
            }
        )+
    };
}

crate::identity_conversion!(
    bool,
    i8,
    i16,
    i32,
    i64,
    i128,
    isize,
    u8,
    u16,
    u32,
    u64,
    u128,
    usize,
    f32,
    f64,
    char,
    String,
    (),
    serde_json::Value,
    serde_json::Map<String, serde_json::Value>,
);

// The value types every API version shares.
crate::identity_conversion!(
    crate::api::ByteString,
    crate::api::resource::Quantity,
    crate::util::intstr::IntOrString,
);

mod meta_v1 {
    use crate::apis::meta::v1::*;
    crate::identity_conversion!(
        ObjectMeta,
        ListMeta,
        TypeMeta,
        Time,
        MicroTime,
        Duration,
        LabelSelector,
        LabelSelectorRequirement,
        OwnerReference,
        ManagedFieldsEntry,
        FieldsV1,
        ShardInfo,
        Status,
        StatusDetails,
        StatusCause,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn containers_of_the_same_type_move_whole() {
        let v = vec!["a".to_owned(), "b".to_owned()];
        let ptr = v.as_ptr();
        let out: Vec<String> = v.convert(&Scope::new()).unwrap();
        assert_eq!(out.as_ptr(), ptr, "the vector was moved, not rebuilt");
        let m: BTreeMap<String, String> = [("k".to_owned(), "v".to_owned())].into();
        let out: BTreeMap<String, String> = m.clone().convert(&Scope::new()).unwrap();
        assert_eq!(out, m);
        let o: Option<Box<i64>> = Some(Box::new(3));
        assert_eq!(o.convert_ref(&Scope::new()).unwrap(), Some(Box::new(3_i64)));
    }

    #[derive(Clone, Debug, PartialEq)]
    struct Small(u8);
    #[derive(Clone, Debug, PartialEq)]
    struct Big(u16);

    impl Convert<Small> for Big {
        fn convert(self, scope: &Scope<'_>) -> Result<Small, ConversionError> {
            self.convert_ref(scope)
        }
        fn convert_ref(&self, _: &Scope<'_>) -> Result<Small, ConversionError> {
            u8::try_from(self.0).map(Small).map_err(|_| {
                ConversionError::unrepresentable::<Big, Small>(format!("{} exceeds 255", self.0))
            })
        }
    }

    impl Convert<Big> for Small {
        fn convert(self, scope: &Scope<'_>) -> Result<Big, ConversionError> {
            self.convert_ref(scope)
        }
        fn convert_ref(&self, _: &Scope<'_>) -> Result<Big, ConversionError> {
            Ok(Big(u16::from(self.0)))
        }
    }

    #[derive(Clone, Debug, Default, PartialEq)]
    struct ContainerHub {
        ports: Vec<Small>,
    }
    #[derive(Clone, Debug, Default, PartialEq)]
    struct SpecHub {
        containers: Vec<ContainerHub>,
    }
    #[derive(Clone, Debug, Default, PartialEq)]
    struct ObjHub {
        spec: SpecHub,
    }
    #[derive(crate::Convert, Clone, Debug, Default, PartialEq)]
    #[conversion(hub = ContainerHub, nested, crate = "crate")]
    struct Container {
        ports: Vec<Big>,
    }
    #[derive(crate::Convert, Clone, Debug, Default, PartialEq)]
    #[conversion(hub = SpecHub, nested, crate = "crate")]
    struct Spec {
        containers: Vec<Container>,
    }
    #[derive(crate::Convert, Clone, Debug, Default, PartialEq)]
    #[conversion(hub = ObjHub, nested, crate = "crate")]
    struct Obj {
        spec: Spec,
    }

    #[test]
    fn nested_failures_name_the_field_path_with_indexes() {
        let container = |ports: &[u16]| Container {
            ports: ports.iter().copied().map(Big).collect(),
        };
        let obj = || Obj {
            spec: Spec {
                containers: vec![container(&[1]), container(&[2, 3]), container(&[300, 4])],
            },
        };
        let expected = format!(
            "spec.containers[2].ports[0]: converting {} to {}: 300 exceeds 255",
            std::any::type_name::<Big>(),
            std::any::type_name::<Small>()
        );
        let by_ref = obj().convert_ref(&Scope::new()).map(|_: ObjHub| ());
        assert_eq!(by_ref.unwrap_err().to_string(), expected);
        let by_value = obj().convert(&Scope::new()).map(|_: ObjHub| ());
        assert_eq!(by_value.unwrap_err().to_string(), expected);

        let mut ok = obj();
        ok.spec.containers[2].ports[0] = Big(5);
        let hub: ObjHub = ok.convert(&Scope::new()).unwrap();
        assert_eq!(hub.spec.containers[2].ports, [Small(5), Small(4)]);
        let back: Obj = hub.convert_ref(&Scope::new()).unwrap();
        assert_eq!(back.spec.containers[1], container(&[2, 3]));
    }

    #[derive(Debug, PartialEq)]
    struct Celsius(u32);
    #[derive(Debug, PartialEq)]
    struct Kelvin(u32);
    impl Convert<Kelvin> for Celsius {
        fn convert(self, scope: &Scope<'_>) -> Result<Kelvin, ConversionError> {
            self.convert_ref(scope)
        }
        fn convert_ref(&self, _: &Scope<'_>) -> Result<Kelvin, ConversionError> {
            self.0
                .checked_add(273)
                .map(Kelvin)
                .ok_or_else(|| ConversionError::unrepresentable::<Celsius, Kelvin>("too hot"))
        }
    }

    #[test]
    fn a_vector_converts_by_value_in_its_own_buffer() {
        let v = vec![Celsius(0), Celsius(100)];
        let ptr = v.as_ptr() as *const u8;
        let out: Vec<Kelvin> = v.convert(&Scope::new()).unwrap();
        assert_eq!(out, [Kelvin(273), Kelvin(373)]);
        assert_eq!(
            out.as_ptr() as *const u8,
            ptr,
            "same layout: the buffer is reused"
        );
        let err = vec![Celsius(1), Celsius(2), Celsius(u32::MAX)]
            .convert(&Scope::new())
            .map(|_: Vec<Kelvin>| ())
            .unwrap_err();
        assert_eq!(err.path(), "[2]");
        assert!(err.to_string().ends_with(": too hot"), "{err}");
    }

    #[test]
    fn containers_of_other_types_convert_each_element_and_name_the_failing_one() {
        let s = Scope::new();
        let v = vec![Big(1), Big(2)];
        assert_eq!(v.convert_ref(&s).unwrap(), vec![Small(1), Small(2)]);
        assert_eq!(v.convert(&s).unwrap(), vec![Small(1), Small(2)]);
        let err = vec![Big(1), Big(256)]
            .convert(&s)
            .map(|_: Vec<Small>| ())
            .unwrap_err();
        assert_eq!(err.path(), "[1]");
        let m: BTreeMap<String, Option<Big>> = [
            ("a".to_owned(), Some(Big(7))),
            ("b".to_owned(), Some(Big(700))),
        ]
        .into();
        let err = m
            .convert_ref(&s)
            .map(|_: BTreeMap<String, Option<Small>>| ())
            .unwrap_err();
        assert_eq!(err.path(), "[b]");
        assert!(err.to_string().contains("700 exceeds 255"), "{err}");
        let h: HashMap<String, Big> = [("x".to_owned(), Big(9))].into();
        let out: HashMap<String, Small> = h.convert(&s).unwrap();
        assert_eq!(out["x"], Small(9));
        let b: Box<Small> = Box::new(Big(4)).convert(&s).unwrap();
        assert_eq!(*b, Small(4));
    }
}
