//! [`InternalForm`]: what Go's trip through the internal version does to a type whose hub
//! is one of its external versions.
//!
//! Go converts every object through its kind's internal type: kube-apiserver decodes a
//! body into it and encodes the stored and returned objects from it, `kubectl convert`
//! does the same. Where the internal type differs from the external one, hand-written
//! conversions move data on the way (`pkg/apis/core/v1/conversion.go`: a v1 Secret's
//! `stringData` is merged into `data`, a Pod's `spec.serviceAccount` and
//! `serviceAccountName` are kept in step, `status.podIP` and `podIPs` too). Here a kind's
//! hub is one of its external versions (or the only one), so the internal form is
//! expressed in that version's type: [`InternalForm::internalize`] brings a value to what
//! Go's internal object holds (what the internal type has no field for is emptied), and
//! [`InternalForm::externalize`] does what Go's conversion back to the external version
//! adds.
//!
//! Both work in place and visit the fields that hold such types first, then the value
//! itself, as Go's generated conversion calls the nested conversions before the
//! hand-written fix-up. Applied in turn they are Go's round trip, and each is idempotent,
//! so the [`Scheme`](crate::runtime::Scheme) applies them wherever Go's object would pass
//! through the internal version: on conversion to the internal version, and on every
//! conversion between external versions (the same one included).
//!
//! ```
//! use apimachinery::conversion::{ConversionError, InternalForm};
//!
//! /// A v1 type with a deprecated alias the internal type does not have.
//! #[derive(Debug, Default, PartialEq)]
//! struct Spec { name: String, deprecated_name: String }
//!
//! impl InternalForm for Spec {
//!     fn internalize(&mut self) -> Result<(), ConversionError> {
//!         if self.name.is_empty() {
//!             self.name = std::mem::take(&mut self.deprecated_name);
//!         }
//!         self.deprecated_name.clear();
//!         Ok(())
//!     }
//!     fn externalize(&mut self) {
//!         self.deprecated_name = self.name.clone();
//!     }
//! }
//!
//! let mut spec = Spec { name: String::new(), deprecated_name: "bot".into() };
//! spec.internalize()?;
//! spec.externalize();
//! assert_eq!(spec, Spec { name: "bot".into(), deprecated_name: "bot".into() });
//! # Ok::<(), ConversionError>(())
//! ```

use std::any::{Any, TypeId};
use std::collections::BTreeMap;
use std::fmt;

use super::ConversionError;
use crate::fx_hash::FxHashMap;

/// A type whose trip through Go's internal version changes it (see the [module
/// docs](self)).
pub trait InternalForm {
    /// The value as Go's internal object holds it, still in this type: the data that Go's
    /// conversion to the internal version moves is moved, and what the internal type has
    /// no field for is emptied. Fails as Go's conversion fails (an annotation that must
    /// be a number and is not), naming the field.
    fn internalize(&mut self) -> Result<(), ConversionError>;

    /// What Go's conversion from the internal version adds to this type (a deprecated
    /// field set from its replacement).
    fn externalize(&mut self);
}

impl<T: InternalForm> InternalForm for Option<T> {
    fn internalize(&mut self) -> Result<(), ConversionError> {
        match self {
            Some(v) => v.internalize(),
            None => Ok(()),
        }
    }

    fn externalize(&mut self) {
        if let Some(v) = self {
            v.externalize();
        }
    }
}

impl<T: InternalForm> InternalForm for Box<T> {
    fn internalize(&mut self) -> Result<(), ConversionError> {
        (**self).internalize()
    }

    fn externalize(&mut self) {
        (**self).externalize();
    }
}

impl<T: InternalForm> InternalForm for Vec<T> {
    fn internalize(&mut self) -> Result<(), ConversionError> {
        for (i, v) in self.iter_mut().enumerate() {
            v.internalize().map_err(|e| e.at_index(i))?;
        }
        Ok(())
    }

    fn externalize(&mut self) {
        self.iter_mut().for_each(InternalForm::externalize);
    }
}

impl<T: InternalForm> InternalForm for BTreeMap<String, T> {
    fn internalize(&mut self) -> Result<(), ConversionError> {
        for (k, v) in self.iter_mut() {
            v.internalize().map_err(|e| e.at_key(k))?;
        }
        Ok(())
    }

    fn externalize(&mut self) {
        self.values_mut().for_each(InternalForm::externalize);
    }
}

type ToInternalFn = fn(&mut dyn Any) -> Result<(), ConversionError>;
type FromInternalFn = fn(&mut dyn Any);

/// The [`InternalForm`] functions of the object types that have one, by Rust type: what
/// the [`Scheme`](crate::runtime::Scheme) applies on conversion.
#[derive(Clone, Default)]
pub struct InternalForms {
    funcs: FxHashMap<TypeId, (&'static str, ToInternalFn, FromInternalFn)>,
}

impl InternalForms {
    /// No type.
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers `T`'s internal form.
    pub fn add<T: InternalForm + 'static>(&mut self) {
        fn internalize<T: InternalForm + 'static>(v: &mut dyn Any) -> Result<(), ConversionError> {
            match v.downcast_mut::<T>() {
                Some(t) => t.internalize(),
                None => Ok(()),
            }
        }
        fn externalize<T: InternalForm + 'static>(v: &mut dyn Any) {
            if let Some(t) = v.downcast_mut::<T>() {
                t.externalize();
            }
        }
        self.funcs.insert(
            TypeId::of::<T>(),
            (
                std::any::type_name::<T>(),
                internalize::<T>,
                externalize::<T>,
            ),
        );
    }

    /// Brings the value to its internal form, when its type has one.
    pub fn internalize(&self, value: &mut dyn Any) -> Result<(), ConversionError> {
        match self.funcs.get(&(*value).type_id()) {
            Some((_, f, _)) => f(value),
            None => Ok(()),
        }
    }

    /// Adds what the conversion from the internal form adds, when the value's type has
    /// an internal form.
    pub fn externalize(&self, value: &mut dyn Any) {
        if let Some((_, _, f)) = self.funcs.get(&(*value).type_id()) {
            f(value);
        }
    }

    /// True when `T` has an internal form registered.
    pub fn has<T: 'static>(&self) -> bool {
        self.has_type_id(TypeId::of::<T>())
    }

    /// True when the type `type_id` has an internal form registered.
    pub fn has_type_id(&self, type_id: TypeId) -> bool {
        self.funcs.contains_key(&type_id)
    }
}

impl fmt::Debug for InternalForms {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut names: Vec<&str> = self.funcs.values().map(|(n, ..)| *n).collect();
        names.sort_unstable();
        f.debug_tuple("InternalForms").field(&names).finish()
    }
}

/// Internal forms submitted at link time with `inventory::submit!` (through
/// `apimachinery::__private::inventory`), as generated code registers the kinds'
/// [`InternalForm`]s; [`Scheme::from_registry`](crate::runtime::Scheme::from_registry)
/// runs every one.
#[derive(Clone, Copy, Debug)]
pub struct InternalFormRegistration(pub fn(&mut InternalForms));

inventory::collect!(InternalFormRegistration);

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Default, PartialEq)]
    struct Ip {
        ip: String,
        ips: Vec<String>,
    }

    impl InternalForm for Ip {
        fn internalize(&mut self) -> Result<(), ConversionError> {
            if !self.ip.is_empty() && self.ips.is_empty() {
                self.ips = vec![std::mem::take(&mut self.ip)];
            }
            self.ip.clear();
            if self.ips.iter().any(String::is_empty) {
                return Err(ConversionError::unrepresentable::<Ip, Ip>("empty ip"));
            }
            Ok(())
        }

        fn externalize(&mut self) {
            if let Some(first) = self.ips.first() {
                self.ip = first.clone();
            }
        }
    }

    #[test]
    fn containers_visit_every_value_and_name_where_it_failed() {
        let mut v = vec![
            Some(Ip {
                ip: "a".into(),
                ips: vec![],
            }),
            None,
            Some(Ip {
                ip: String::new(),
                ips: vec![String::new()],
            }),
        ];
        let err = v.internalize().unwrap_err();
        assert!(err.to_string().contains("[2]"), "{err}");
        assert_eq!(
            v[0],
            Some(Ip {
                ip: String::new(),
                ips: vec!["a".into()]
            })
        );
        v.truncate(1);
        v.externalize();
        assert_eq!(v[0].as_ref().map(|i| i.ip.as_str()), Some("a"));
    }

    #[test]
    fn the_registry_applies_the_value_s_own_type_only() {
        let mut forms = InternalForms::new();
        forms.add::<Ip>();
        assert!(forms.has::<Ip>());
        let mut ip = Ip {
            ip: "a".into(),
            ips: vec![],
        };
        forms.internalize(&mut ip).unwrap();
        forms.externalize(&mut ip);
        assert_eq!(
            ip,
            Ip {
                ip: "a".into(),
                ips: vec!["a".into()]
            }
        );
        let mut other = String::from("x");
        forms.internalize(&mut other).unwrap();
        forms.externalize(&mut other);
        assert_eq!(other, "x");
    }
}
