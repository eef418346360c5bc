//! [`SchemeBuilder`] and [`scheme_builder!`](crate::scheme_builder): explicit registration of a
//! group version's types, for programs that do not want every linked type.

use super::{Registration, Resource, Scheme, SchemeError};
use crate::conversion::{ConversionRegistration, HubConversions};

/// A list of registration steps applied to a scheme on demand (Go's
/// `runtime.SchemeBuilder`).
///
/// ```
/// use apimachinery::{ApiObject, apis::meta::v1::ObjectMeta, runtime::{Scheme, SchemeBuilder}};
///
/// #[derive(ApiObject, Clone, Debug, Default, PartialEq)]
/// #[api(group = "example.com", version = "v1", kind = "Gadget")]
/// pub struct Gadget { pub metadata: ObjectMeta }
///
/// let builder = SchemeBuilder::new().register::<Gadget>();
/// let mut scheme = Scheme::new();
/// builder.add_to_scheme(&mut scheme)?;
/// assert!(scheme.recognizes(&"example.com/v1, Kind=Gadget".parse()?));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Default)]
pub struct SchemeBuilder {
    steps: Vec<Step>,
}

#[derive(Clone)]
enum Step {
    // Boxed: a registration is large (names, resource metadata, codec functions).
    Registration(Box<Registration>),
    Func(fn(&mut Scheme) -> Result<(), SchemeError>),
    Conversions(&'static [ConversionRegistration]),
}

impl SchemeBuilder {
    /// A builder with no step.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds the registration of `T` (its kind in every version it names).
    pub fn register<T: Resource>(mut self) -> Self {
        self.steps
            .push(Step::Registration(Box::new(T::REGISTRATION)));
        self
    }

    /// Adds the conversion functions `#[derive(Convert)]` generated for `T` (both ways
    /// between `T` and its hub).
    pub fn register_conversions<T: HubConversions>(mut self) -> Self {
        self.steps.push(Step::Conversions(T::REGISTRATIONS));
        self
    }

    /// Adds a function run against the scheme, such as one that sets version priority or
    /// adds conversion functions.
    pub fn register_fn(mut self, f: fn(&mut Scheme) -> Result<(), SchemeError>) -> Self {
        self.steps.push(Step::Func(f));
        self
    }

    /// Applies every step in order; stops at the first error.
    pub fn add_to_scheme(&self, scheme: &mut Scheme) -> Result<(), SchemeError> {
        for step in &self.steps {
            match step {
                Step::Registration(r) => scheme.register(r)?,
                Step::Func(f) => f(scheme)?,
                Step::Conversions(c) => scheme.add_conversions(c),
            }
        }
        Ok(())
    }
}

/// Defines a module's `add_to_scheme` function, Go's `AddToScheme`, registering the listed
/// `#[derive(ApiObject)]` types in order.
///
/// ```
/// use apimachinery::{ApiObject, apis::meta::v1::{ObjectMeta, ListMeta}, runtime::Scheme};
///
/// #[derive(ApiObject, Clone, Debug, Default, PartialEq)]
/// #[api(group = "example.com", version = "v1", kind = "Gizmo")]
/// pub struct Gizmo { pub metadata: ObjectMeta }
///
/// #[derive(ApiObject, Clone, Debug, Default, PartialEq)]
/// #[api(group = "example.com", version = "v1", kind = "GizmoList")]
/// pub struct GizmoList { pub metadata: ListMeta, pub items: Vec<Gizmo> }
///
/// apimachinery::scheme_builder!(pub fn add_to_scheme: Gizmo, GizmoList);
///
/// let mut scheme = Scheme::new();
/// add_to_scheme(&mut scheme)?;
/// assert_eq!(scheme.all_known_types().len(), 2);
/// # Ok::<(), apimachinery::runtime::SchemeError>(())
/// ```
#[macro_export]
macro_rules! scheme_builder {
    ($(#[$attr:meta])* $vis:vis fn $name:ident : $($ty:ty),+ $(,)?) => {
        $(#[$attr])*
        /// Registers this module's types in a scheme.
        $vis fn $name(
            scheme: &mut $crate::runtime::Scheme,
        ) -> ::core::result::Result<(), $crate::runtime::SchemeError> {
            $(scheme.register(&<$ty as $crate::runtime::Resource>::REGISTRATION)?;)+
            Ok(())
        }
    };
}
