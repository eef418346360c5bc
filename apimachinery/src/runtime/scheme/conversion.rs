//! The [`Scheme`]'s conversion, defaulting and field-label methods (the conversion half of
//! Go's `runtime.Scheme`).

use std::any::{Any, TypeId};

use super::Scheme;
use crate::conversion::{
    ConversionError, ConversionErrorKind, ConversionFunc, ConversionRegistration,
    ConversionRegistrations, Converter, DefaulterRegistration, FieldLabelError, InternalForm,
    InternalFormRegistration, InternalForms, Origin, Scope,
};
use crate::runtime::unstructured::object_to_unstructured;
use crate::runtime::{Object, ObjectType, SchemeError, SchemeErrorKind, Unstructured};
use crate::schema::{API_VERSION_INTERNAL, GroupVersionKind, GroupVersioner, Name};

/// How to get from one type to another: one function, or two through a hub type.
enum Route<'a> {
    Direct(&'a ConversionFunc),
    Hub(&'a ConversionFunc, &'a ObjectType, &'a ConversionFunc),
}

impl Scheme {
    /// Adds a hand-written conversion function from `In` to `Out` (Go's
    /// `AddConversionFunc`); it is used over a generated one for the same pair. The
    /// function converts by reference; converting by value lends it the input.
    pub fn add_conversion_func<In, Out, F>(&mut self, f: F)
    where
        In: 'static,
        Out: 'static,
        F: Fn(&In, &Scope<'_>) -> Result<Out, ConversionError> + Send + Sync + 'static,
    {
        self.converter
            .add(ConversionFunc::by_ref(f), Origin::Manual);
    }

    /// Adds a generated conversion function from `In` to `Out` (Go's
    /// `AddGeneratedConversionFunc`); a hand-written one for the same pair is used instead.
    pub fn add_generated_conversion_func<In, Out, F>(&mut self, f: F)
    where
        In: 'static,
        Out: 'static,
        F: Fn(&In, &Scope<'_>) -> Result<Out, ConversionError> + Send + Sync + 'static,
    {
        self.converter
            .add(ConversionFunc::by_ref(f), Origin::Generated);
    }

    /// Adds a conversion function with both flavours (see [`ConversionFunc`]), such as a
    /// pair's `Convert` implementation: `ConversionFunc::of_convert::<A, B>()`. This is how
    /// an explicit `add_to_scheme` registers `#[derive(Convert)]` conversions.
    pub fn add_conversion(&mut self, func: ConversionFunc, origin: Origin) {
        self.converter.add(func, origin);
    }

    /// Adds conversion functions described by registrations, such as a
    /// `#[derive(Convert)]` type's [`HubConversions::REGISTRATIONS`](crate::conversion::HubConversions::REGISTRATIONS).
    pub fn add_conversions(&mut self, registrations: &[ConversionRegistration]) {
        for r in registrations {
            self.converter.add((r.func)(), r.origin);
        }
    }

    /// Adds every conversion function and defaulting function submitted at link time
    /// (what [`add_registry`](Self::add_registry) does first).
    pub fn add_registered_conversions(&mut self) {
        for set in inventory::iter::<ConversionRegistrations>() {
            self.add_conversions(set.0);
        }
        for r in inventory::iter::<DefaulterRegistration>() {
            (r.0)(&mut self.defaulters);
        }
        for r in inventory::iter::<InternalFormRegistration>() {
            (r.0)(&mut self.internal_forms);
        }
        for r in inventory::iter::<crate::runtime::ValidatorRegistration>() {
            (r.0)(&mut self.validators);
        }
    }

    /// The scheme's conversion functions.
    pub fn converter(&self) -> &Converter {
        &self.converter
    }

    /// Registers `T`'s [`InternalForm`]: what Go's trip through the internal version does
    /// to it, applied by [`convert_to_version`](Self::convert_to_version).
    pub fn add_internal_form<T: InternalForm + 'static>(&mut self) {
        self.internal_forms.add::<T>();
    }

    /// The scheme's internal forms.
    pub fn internal_forms(&self) -> &InternalForms {
        &self.internal_forms
    }

    fn hub_route(&self, from: TypeId, to: TypeId) -> Option<Route<'_>> {
        if let Some(f) = self.converter.func(from, to) {
            return Some(Route::Direct(f));
        }
        // The hub of a kind is the type registered for its group and kind in `__internal`;
        // look at the target's kinds first, then the source's.
        let kinds = [to, from]
            .into_iter()
            .filter_map(|t| self.type_index.get(&t))
            .flat_map(|&i| self.types[i].gvks.iter());
        for gvk in kinds {
            if gvk.version == API_VERSION_INTERNAL {
                continue;
            }
            let hub_gvk = GroupVersionKind::new(
                gvk.group.clone(),
                Name::from_static(API_VERSION_INTERNAL),
                gvk.kind.clone(),
            );
            let Some(&h) = self.gvk_to_type.get(&hub_gvk) else {
                continue;
            };
            let hub = &self.types[h].object_type;
            let hub_id = hub.type_id();
            if let (Some(a), Some(b)) = (
                self.converter.func(from, hub_id),
                self.converter.func(hub_id, to),
            ) {
                return Some(Route::Hub(a, hub, b));
            }
        }
        None
    }

    /// Converts an `In` into an `Out` by reference (Go's `Scheme.Convert` for typed
    /// values): with the pair's function, hand-written over generated, or, when both are
    /// registered kinds without a direct function, through their group's `__internal` hub
    /// (`v1beta1` → hub → `v1`). A missing route is an error naming both types. The types'
    /// [`InternalForm`]s are not applied: this converts one type into another, where
    /// [`convert_to_version`](Self::convert_to_version) does what Go does to an object.
    pub fn convert<In: 'static, Out: Default + 'static>(
        &self,
        input: &In,
    ) -> Result<Out, ConversionError> {
        let mut out = Out::default();
        self.convert_any_ref(
            input,
            &mut out,
            std::any::type_name::<In>(),
            std::any::type_name::<Out>(),
            &Scope::new().with_converter(&self.converter),
        )?;
        Ok(out)
    }

    /// Like [`convert`](Self::convert), moving what the input holds instead of cloning it.
    pub fn convert_by_value<In: 'static, Out: Default + 'static>(
        &self,
        input: In,
    ) -> Result<Out, ConversionError> {
        let mut input = input;
        let mut out = Out::default();
        self.convert_any_value(
            &mut input,
            &mut out,
            std::any::type_name::<In>(),
            std::any::type_name::<Out>(),
            &Scope::new().with_converter(&self.converter),
        )?;
        Ok(out)
    }

    fn convert_any_ref(
        &self,
        input: &dyn Any,
        out: &mut dyn Any,
        from_name: &'static str,
        to_name: &'static str,
        scope: &Scope<'_>,
    ) -> Result<(), ConversionError> {
        match self.hub_route(input.type_id(), (*out).type_id()) {
            Some(Route::Direct(f)) => f.call_ref(input, out, scope),
            Some(Route::Hub(a, hub, b)) => {
                let mut hub = hub.new_object();
                let hub: &mut dyn Any = &mut *hub;
                a.call_ref(input, hub, scope)?;
                b.call_value(hub, out, scope)
            }
            None => Err(ConversionError::new(ConversionErrorKind::NoConversion {
                from: from_name,
                to: to_name,
            })),
        }
    }

    fn convert_any_value(
        &self,
        input: &mut dyn Any,
        out: &mut dyn Any,
        from_name: &'static str,
        to_name: &'static str,
        scope: &Scope<'_>,
    ) -> Result<(), ConversionError> {
        match self.hub_route((*input).type_id(), (*out).type_id()) {
            Some(Route::Direct(f)) => f.call_value(input, out, scope),
            Some(Route::Hub(a, hub, b)) => {
                let mut hub = hub.new_object();
                let hub: &mut dyn Any = &mut *hub;
                a.call_value(input, hub, scope)?;
                b.call_value(hub, out, scope)
            }
            None => Err(ConversionError::new(ConversionErrorKind::NoConversion {
                from: from_name,
                to: to_name,
            })),
        }
    }

    /// Converts an object to the kind `target` picks among the kinds its type is registered
    /// as (Go's `Scheme.ConvertToVersion`); `target` is a [`GroupVersion`](crate::schema::GroupVersion),
    /// several ([`GroupVersions`](crate::schema::GroupVersions): the first that knows the
    /// kind wins), or any other [`GroupVersioner`].
    ///
    /// Takes the object by value: when it already is of the target kind, or its type is
    /// unversioned, it comes back without a copy; otherwise it is converted by value
    /// (through the group's `__internal` hub when no direct function exists). The result's
    /// kind is set to the target's (emptied for an internal target, as Go does). An
    /// [`Unstructured`] input is first read into its registered type.
    ///
    /// Where Go's object would pass through the internal version, the types'
    /// [`InternalForm`]s are applied: an object whose kind names an external version is
    /// brought to its internal form before it is converted (or kept, when it is of the
    /// target's type), and the result of an external target gets what Go's conversion from
    /// the internal version adds. So a v1 Secret's `stringData` is merged into `data` on
    /// its way to v1, as kube-apiserver and `kubectl convert` do; an object without a kind
    /// (internal, or made in code) is taken as internal.
    ///
    /// Errors: the type or kind is not registered (the scheme's not-registered error,
    /// [`ConversionError::is_not_registered`]), the target accepts none of its kinds, no
    /// conversion route, or a failed conversion with its field path.
    pub fn convert_to_version(
        &self,
        obj: Box<dyn Object>,
        target: &dyn GroupVersioner,
    ) -> Result<Box<dyn Object>, ConversionError> {
        let mut obj = if obj.is_unstructured() {
            self.unstructured_to_typed(obj)?
        } else {
            obj
        };
        let type_id = obj.object_type_id();
        let Some(&index) = self.type_index.get(&type_id) else {
            return Err(SchemeError::from(SchemeErrorKind::NotRegisteredType {
                type_name: obj.type_name(),
                scheme: self.name.clone(),
            })
            .into());
        };
        let entry = &self.types[index];
        let unversioned = self.unversioned_types.get(&type_id);
        // Go's object passes through the internal version, whose hand-written conversions
        // move data (`InternalForm`): an object of an external version (its kind says so;
        // an internal one has none) is brought to its internal form first, and the
        // result is given what the conversion to an external target adds.
        let from_external = {
            let kind = obj.group_version_kind();
            !kind.is_empty() && kind.version != API_VERSION_INTERNAL
        };
        let gvk = match target.kind_for_group_version_kinds(&entry.gvks) {
            Some(gvk) if unversioned.is_none() && !entry.gvks.contains(&gvk) => gvk,
            Some(gvk) if unversioned.is_none() => {
                if from_external {
                    self.internal_forms.internalize(&mut *obj)?;
                }
                if gvk.version != API_VERSION_INTERNAL {
                    self.internal_forms.externalize(&mut *obj);
                }
                set_target_kind(&mut *obj, &gvk);
                return Ok(obj);
            }
            // Unversioned types are never converted: they only take the kind the target
            // gives them, or their own.
            _ => {
                let Some(own) = unversioned else {
                    return Err(ConversionError::new(ConversionErrorKind::NoTargetKind {
                        type_name: entry.object_type.type_name(),
                        target: target.identifier(),
                        scheme: self.name.clone(),
                    }));
                };
                let gvk = target
                    .kind_for_group_version_kinds(std::slice::from_ref(own))
                    .unwrap_or_else(|| own.clone());
                set_target_kind(&mut *obj, &gvk);
                return Ok(obj);
            }
        };
        let out_type = self.type_for_kind(&gvk)?;
        let mut out = out_type.new_object();
        let scope = Scope::new()
            .with_context(target)
            .with_converter(&self.converter);
        if from_external {
            self.internal_forms.internalize(&mut *obj)?;
        }
        {
            let input: &mut dyn Any = &mut *obj;
            let output: &mut dyn Any = &mut *out;
            self.convert_any_value(
                input,
                output,
                entry.object_type.type_name(),
                out_type.type_name(),
                &scope,
            )?;
        }
        if gvk.version != API_VERSION_INTERNAL {
            self.internal_forms.externalize(&mut *out);
        }
        set_target_kind(&mut *out, &gvk);
        Ok(out)
    }

    /// Reads an unstructured object into the type registered for its kind (Go's
    /// `unstructuredToTyped`, through the registered type's value reader). A field of
    /// the wrong JSON type is an error naming its path.
    pub fn unstructured_to_typed(
        &self,
        obj: Box<dyn Object>,
    ) -> Result<Box<dyn Object>, ConversionError> {
        let gvk = self
            .object_kinds(&*obj)?
            .0
            .first()
            .cloned()
            .unwrap_or_default();
        let object_type = self.type_for_kind(&gvk)?;
        let content = match obj.downcast::<Unstructured>() {
            Ok(u) => u.object,
            Err(other) => object_to_unstructured(&*other)?,
        };
        let (mut typed, _) = object_type
            .from_value(&serde_json::Value::Object(content), false)
            .map_err(|e| {
                ConversionError::new(ConversionErrorKind::Unstructured {
                    type_name: object_type.type_name(),
                    message: e.message,
                })
                .with_path(&e.path)
            })?;
        typed.set_group_version_kind(&gvk);
        Ok(typed)
    }

    /// The unstructured form of a typed object, with its kind set (Go's `Scheme.Convert`
    /// into an `Unstructured`). An object of an internal version is converted to `target`
    /// first, as the internal form has no wire format; `target` is ignored otherwise.
    pub fn to_unstructured(
        &self,
        obj: &dyn Object,
        target: Option<&dyn GroupVersioner>,
    ) -> Result<Unstructured, ConversionError> {
        let (kinds, unversioned) = self.object_kinds(obj)?;
        let gvk = kinds.first().cloned().unwrap_or_default();
        if unversioned || gvk.version != API_VERSION_INTERNAL {
            let mut u = Unstructured::new(object_to_unstructured(obj)?);
            u.set_group_version_kind(&gvk);
            return Ok(u);
        }
        let Some(target) = target else {
            return Err(ConversionError::new(ConversionErrorKind::NoTargetKind {
                type_name: obj.type_name(),
                target: "an external version (none given)".to_owned(),
                scheme: self.name.clone(),
            }));
        };
        let versioned = self.convert_to_version(obj.deep_copy_object(), target)?;
        let gvk = versioned.group_version_kind();
        let mut u = Unstructured::new(object_to_unstructured(&*versioned)?);
        u.set_group_version_kind(&gvk);
        Ok(u)
    }

    /// Sets the defaulting function of `T` (Go's `AddTypeDefaultingFunc`); a later one
    /// replaces it.
    pub fn add_type_defaulting_func<T: Object, F: Fn(&mut T) + Send + Sync + 'static>(
        &mut self,
        f: F,
    ) {
        self.defaulters.add(f);
    }

    /// Applies the defaulting function of the object's type, if it has one (Go's
    /// `Scheme.Default`). This inherent method shadows `Default::default` in path calls:
    /// an empty scheme is [`Scheme::new`].
    pub fn default(&self, obj: &mut dyn Object) {
        self.defaulters.apply(obj);
    }

    /// Validates `obj` as Go validates it (its strategy's `Validate`, or `ValidateUpdate`
    /// when `old` is given): in its internal version, with the validation function of
    /// the hub type (see [`ValidatorRegistration`](crate::runtime::ValidatorRegistration)).
    /// An object of another version is validated as converted to its hub, and one whose
    /// type has an [`InternalForm`] in that form (a v1 Secret's `stringData` is validated
    /// as the `data` Go merges it into); a type that is its own hub and has no internal
    /// form is validated as it is, without a copy. `obj`'s own type is the version of the
    /// request: one Go generates no declarative validation for leaves out the declarative
    /// rules' errors (see [`Validators::add_undeclared_version`](crate::runtime::Validators::add_undeclared_version)).
    /// `None` when no validation function applies (or the conversion fails).
    pub fn validate(
        &self,
        obj: &dyn Object,
        old: Option<&dyn Object>,
    ) -> Option<crate::util::validation::field::ErrorList> {
        self.validate_with(obj, old, true)
    }

    /// [`validate`](Self::validate) without the generic metadata check it runs after a
    /// kind's validator found nothing (see [`Validators::add`](crate::runtime::Validators::add)):
    /// the strategy's own errors, for a server whose update checks every object's
    /// metadata first, as kube-apiserver's `rest.BeforeUpdate` does.
    pub fn validate_strategy(
        &self,
        obj: &dyn Object,
        old: Option<&dyn Object>,
    ) -> Option<crate::util::validation::field::ErrorList> {
        self.validate_with(obj, old, false)
    }

    /// [`validate`](Self::validate), with the generic metadata check when `generic`.
    fn validate_with(
        &self,
        obj: &dyn Object,
        old: Option<&dyn Object>,
        generic: bool,
    ) -> Option<crate::util::validation::field::ErrorList> {
        let direct = |o: &dyn Object| {
            let t = o.object_type_id();
            self.validators.has_type_id(t) && !self.internal_forms.has_type_id(t)
        };
        let request_type = obj.object_type_id();
        if direct(obj) && old.is_none_or(direct) {
            let old: Option<&dyn std::any::Any> = match old {
                Some(o) => Some(o),
                None => None,
            };
            let errs = self.validators.run(obj, old, generic)?;
            return Some(self.validators.for_request_type(request_type, errs));
        }
        let obj = self.internal_copy(obj)?;
        let old = match old {
            Some(o) => Some(self.internal_copy(o)?),
            None => None,
        };
        let old: Option<&dyn std::any::Any> = match &old {
            Some(o) => Some(&**o),
            None => None,
        };
        let errs = self.validators.run(&*obj, old, generic)?;
        Some(self.validators.for_request_type(request_type, errs))
    }

    /// Validates a write of `obj`'s `/status` subresource replacing `old`, as Go's status
    /// strategy's `ValidateUpdate` does (`ValidatePodStatusUpdate`,
    /// `ValidateServiceStatusUpdate`, ...): in the internal version, as
    /// [`validate`](Self::validate) does, with the hub type's `/status` function (see
    /// [`Validators::add_status`](crate::runtime::Validators::add_status)). `None` when
    /// the kind has none (or the conversion fails).
    pub fn validate_status(
        &self,
        obj: &dyn Object,
        old: &dyn Object,
    ) -> Option<crate::util::validation::field::ErrorList> {
        self.validate_subresource("status", obj, old)
    }

    /// Validates a write of `obj` through its subresource `name` replacing `old`
    /// ([`validate_status`](Self::validate_status) for `status`; a Pod's `resize`: Go's
    /// `ValidatePodResize`), with the hub type's function for it (see
    /// [`Validators::add_subresource`](crate::runtime::Validators::add_subresource)).
    /// `None` when the kind has none (or the conversion fails).
    pub fn validate_subresource(
        &self,
        name: &str,
        obj: &dyn Object,
        old: &dyn Object,
    ) -> Option<crate::util::validation::field::ErrorList> {
        let direct = |o: &dyn Object| {
            let t = o.object_type_id();
            self.validators.has_subresource_type_id(t, name) && !self.internal_forms.has_type_id(t)
        };
        if direct(obj) && direct(old) {
            return self.validators.validate_subresource(name, obj, old);
        }
        let (obj, old) = (self.internal_copy(obj)?, self.internal_copy(old)?);
        self.validators.validate_subresource(name, &*obj, &*old)
    }

    /// A copy of `o` in its internal form, where Go's validation runs (`None` when it
    /// does not convert).
    fn internal_copy(&self, o: &dyn Object) -> Option<Box<dyn Object>> {
        self.convert_to_version(o.deep_copy_object(), &crate::schema::InternalGroupVersioner)
            .ok()
    }

    /// Sets the validation function of `T` (see [`Validators::add`](crate::runtime::Validators::add)).
    pub fn add_validation_func<T, F>(&mut self, f: F)
    where
        T: crate::runtime::Resource,
        F: Fn(&T, Option<&T>) -> crate::util::validation::field::ErrorList + Send + Sync + 'static,
    {
        self.validators.add(f);
    }

    /// Whether the type registered for `gvk` has a validation function.
    pub fn has_validator(&self, gvk: &GroupVersionKind) -> bool {
        self.type_for_kind(gvk)
            .is_ok_and(|t| self.validators.has_type_id(t.type_id()))
    }

    /// The scheme's validation functions.
    pub fn validators(&self) -> &crate::runtime::Validators {
        &self.validators
    }

    /// Sets the field-label conversion function of a kind (Go's
    /// `AddFieldLabelConversionFunc`).
    pub fn add_field_label_conversion_func<F>(&mut self, gvk: GroupVersionKind, f: F)
    where
        F: Fn(&str, &str) -> Result<(String, String), FieldLabelError> + Send + Sync + 'static,
    {
        self.field_labels.add(gvk, std::sync::Arc::new(f));
    }

    /// Converts a field selector's label and value for a kind (Go's `ConvertFieldLabel`):
    /// with the kind's function, else only `metadata.name` and `metadata.namespace` are
    /// accepted.
    pub fn convert_field_label(
        &self,
        gvk: &GroupVersionKind,
        label: &str,
        value: &str,
    ) -> Result<(String, String), FieldLabelError> {
        self.field_labels.convert(gvk, label, value)
    }
}

/// Sets the kind of a converted object; internal objects carry no kind (Go's
/// `setTargetKind`).
fn set_target_kind(obj: &mut dyn Object, gvk: &GroupVersionKind) {
    if gvk.version == API_VERSION_INTERNAL {
        obj.set_group_version_kind(&GroupVersionKind::default());
    } else {
        obj.set_group_version_kind(gvk);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apis::meta::v1::{ObjectMeta, TypeMeta};
    use crate::schema::GroupVersion;

    #[derive(crate::ApiObject, Clone, Debug, Default, PartialEq)]
    #[api(
        group = "conv.unit",
        version = "__internal",
        kind = "Knob",
        not_resource
    )]
    struct Hub {
        type_meta: TypeMeta,
        metadata: ObjectMeta,
        turns: i64,
    }

    #[derive(crate::ApiObject, Clone, Debug, Default, PartialEq)]
    #[api(group = "conv.unit", version = "v1", kind = "Knob")]
    struct V1 {
        type_meta: TypeMeta,
        metadata: ObjectMeta,
        turns: i32,
    }

    #[derive(crate::ApiObject, Clone, Debug, Default, PartialEq)]
    #[api(group = "conv.unit", version = "v2", kind = "Knob")]
    struct V2 {
        type_meta: TypeMeta,
        metadata: ObjectMeta,
        degrees: i64,
    }

    fn scheme() -> Scheme {
        let mut s = Scheme::with_name("unit");
        for r in [&Hub::REGISTRATION, &V1::REGISTRATION, &V2::REGISTRATION] {
            s.register(r).unwrap();
        }
        s.add_generated_conversion_func(|v: &V1, _: &Scope<'_>| {
            Ok(Hub {
                turns: i64::from(v.turns),
                metadata: v.metadata.clone(),
                ..Default::default()
            })
        });
        s.add_generated_conversion_func(|h: &Hub, _: &Scope<'_>| {
            let turns = i32::try_from(h.turns).map_err(|_| {
                ConversionError::unrepresentable::<Hub, V1>(format!("{} turns", h.turns))
                    .in_field("turns")
            })?;
            Ok(V1 {
                turns,
                metadata: h.metadata.clone(),
                ..Default::default()
            })
        });
        s.add_generated_conversion_func(|v: &V2, _: &Scope<'_>| {
            Ok(Hub {
                turns: v.degrees / 360,
                metadata: v.metadata.clone(),
                ..Default::default()
            })
        });
        s.add_generated_conversion_func(|h: &Hub, _: &Scope<'_>| {
            Ok(V2 {
                degrees: h.turns * 360,
                metadata: h.metadata.clone(),
                ..Default::default()
            })
        });
        s
    }

    use crate::runtime::Resource as _;

    #[test]
    fn chains_through_the_hub_and_sets_the_target_kind() {
        let s = scheme();
        let v2: V2 = s
            .convert(&V1 {
                turns: 2,
                ..Default::default()
            })
            .unwrap();
        assert_eq!(v2.degrees, 720);
        let out = s
            .convert_to_version(Box::new(v2), &GroupVersion::new("conv.unit", "v1"))
            .unwrap();
        assert_eq!(out.group_version_kind(), V1::gvk());
        assert_eq!(out.downcast_ref::<V1>().unwrap().turns, 2);
    }

    #[test]
    fn manual_wins_in_either_order() {
        let mut s = scheme();
        s.add_conversion_func(|_: &V1, _: &Scope<'_>| {
            Ok(Hub {
                turns: -1,
                ..Default::default()
            })
        });
        s.add_generated_conversion_func(|_: &V1, _: &Scope<'_>| Ok(Hub::default()));
        let hub: Hub = s.convert(&V1::default()).unwrap();
        assert_eq!(hub.turns, -1);
        let hub: Hub = s.convert_by_value(V1::default()).unwrap();
        assert_eq!(hub.turns, -1);
    }

    #[test]
    fn failures_name_types_and_paths() {
        let s = scheme();
        let err = s
            .convert::<_, V1>(&Hub {
                turns: i64::MAX,
                ..Default::default()
            })
            .unwrap_err();
        assert_eq!(err.path(), "turns");
        assert!(err.to_string().contains("Hub to "), "{err}");
        let err = s.convert::<_, V2>(&ObjectMeta::default()).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "converting {} to {}: unknown conversion",
                std::any::type_name::<ObjectMeta>(),
                std::any::type_name::<V2>()
            )
        );
    }

    #[test]
    fn unstructured_round_trip_through_the_scheme() {
        let s = scheme();
        let u: Unstructured = serde_json::from_str(
            r#"{"apiVersion":"conv.unit/v2","kind":"Knob","metadata":{"name":"k"},"degrees":1080}"#,
        )
        .unwrap();
        let typed = s.unstructured_to_typed(Box::new(u.clone())).unwrap();
        assert_eq!(typed.downcast_ref::<V2>().unwrap().degrees, 1080);
        let back = s.to_unstructured(&*typed, None).unwrap();
        assert_eq!(back, u);
        let v1 = s
            .convert_to_version(Box::new(u), &GroupVersion::new("conv.unit", "v1"))
            .unwrap();
        assert_eq!(v1.downcast_ref::<V1>().unwrap().turns, 3);
    }
}
