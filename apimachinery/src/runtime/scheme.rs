//! [`Scheme`]: the registry of Rust types by group, version and kind.

use std::any::TypeId;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::panic::Location;

use super::registration::{ObjectType, Registration, Resource, ResourceMetadata, VersionPriority};
use super::{Object, SchemeError, SchemeErrorKind};
use crate::conversion::{Converter, Defaulters, FieldLabelConversions, InternalForms};
use crate::schema::split_group_version;
use crate::schema::{API_VERSION_INTERNAL, GroupKind, GroupVersion, GroupVersionKind, Name};
use crate::version::compare_kube_aware_versions;

// Conversion, defaulting and field-label methods, in their own file.
mod conversion;
mod gvk_key;

use crate::fx_hash::FxHashMap;
use gvk_key::GvkParts;

/// The registry of API types: which Rust type serves which group, version and kind, and
/// back (Go's `runtime.Scheme`).
///
/// Like Go's, it keeps four maps — kind to type, type to kinds, unversioned types, and
/// unversioned kind names — plus the versions it has seen and their priority; lookups
/// are O(1) both ways. One Rust type may be registered under several kinds (`Pod` as
/// `/v1` and `/__internal`). Registration never panics: a conflict is a
/// [`SchemeError`] naming both Rust types, and leaves the scheme unchanged.
///
/// ```
/// use apimachinery::{ApiObject, apis::meta::v1::ObjectMeta, runtime::{Scheme, ObjectType}};
/// use apimachinery::schema::GroupVersion;
///
/// #[derive(ApiObject, Clone, Debug, Default, PartialEq)]
/// #[api(group = "example.com", version = "v1", kind = "Widget")]
/// pub struct Widget { pub metadata: ObjectMeta }
///
/// let mut scheme = Scheme::new();
/// scheme.add_known_types(&GroupVersion::new("example.com", "v1"), &[ObjectType::of::<Widget>()])?;
/// let obj = scheme.new_object(&"example.com/v1, Kind=Widget".parse()?)?;
/// assert!(obj.is::<Widget>());
/// let (kinds, unversioned) = scheme.object_kinds(&Widget::default())?;
/// assert_eq!(kinds[0].to_string(), "example.com/v1, Kind=Widget");
/// assert!(!unversioned);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Scheme {
    name: String,
    types: Vec<TypeEntry>,
    type_index: FxHashMap<TypeId, usize>,
    gvk_to_type: FxHashMap<GroupVersionKind, usize>,
    unversioned_types: FxHashMap<TypeId, GroupVersionKind>,
    unversioned_kinds: FxHashMap<Name, usize>,
    versions_by_group_kind: FxHashMap<GroupKind, Vec<Name>>,
    resources: FxHashMap<GroupVersionKind, ResourceMetadata>,
    observed_versions: Vec<GroupVersion>,
    version_priority: Vec<(Name, Vec<Name>)>,
    converter: Converter,
    defaulters: Defaulters,
    internal_forms: InternalForms,
    validators: super::Validators,
    field_labels: FieldLabelConversions,
}

#[derive(Clone, Debug)]
struct TypeEntry {
    object_type: ObjectType,
    gvks: Vec<GroupVersionKind>,
}

impl Default for Scheme {
    #[track_caller]
    fn default() -> Self {
        Self::new()
    }
}

impl Scheme {
    /// An empty scheme, named after the place it was created (as Go names schemes), so
    /// that errors tell which scheme answered.
    #[track_caller]
    pub fn new() -> Self {
        let at = Location::caller();
        Self::with_name(format!("{}:{}", at.file(), at.line()))
    }

    /// An empty scheme with a name of your choosing.
    pub fn with_name(name: impl Into<String>) -> Self {
        Scheme {
            name: name.into(),
            types: Vec::new(),
            type_index: FxHashMap::default(),
            gvk_to_type: FxHashMap::default(),
            unversioned_types: FxHashMap::default(),
            unversioned_kinds: FxHashMap::default(),
            versions_by_group_kind: FxHashMap::default(),
            resources: FxHashMap::default(),
            observed_versions: Vec::new(),
            version_priority: Vec::new(),
            converter: Converter::new(),
            defaulters: Defaulters::new(),
            internal_forms: InternalForms::new(),
            validators: super::Validators::new(),
            field_labels: FieldLabelConversions::new(),
        }
    }

    /// A scheme holding every type registered at link time: each `#[derive(ApiObject)]`
    /// type of every crate linked into the program, every submitted
    /// [`VersionPriority`], and every conversion function `#[derive(Convert)]` submitted.
    ///
    /// Registrations are applied in a fixed order (group, then version from most to least
    /// preferred as Kubernetes orders versions, then kind), so the result does not depend
    /// on link order. Every conflict is reported, in one [`SchemeErrorKind::Registrations`].
    #[track_caller]
    pub fn from_registry() -> Result<Self, SchemeError> {
        let mut scheme = Scheme::new();
        scheme.add_registry()?;
        Ok(scheme)
    }

    /// Adds every link-time registration to this scheme (see [`from_registry`](Self::from_registry)),
    /// conversion functions included.
    pub fn add_registry(&mut self) -> Result<(), SchemeError> {
        self.add_registered_conversions();
        let mut registrations: Vec<&Registration> = inventory::iter::<Registration>().collect();
        registrations.sort_by(|a, b| {
            a.group
                .cmp(b.group)
                .then_with(|| compare_kube_aware_versions(a.version, b.version))
                .then_with(|| a.kind.cmp(b.kind))
                .then_with(|| a.object_type.type_name().cmp(b.object_type.type_name()))
        });
        let mut errors = Vec::new();
        for registration in registrations {
            if let Err(e) = self.register(registration) {
                errors.push(e);
            }
        }
        let mut priorities: Vec<&VersionPriority> = inventory::iter::<VersionPriority>().collect();
        priorities.sort_by_key(|p| p.group);
        for p in priorities {
            let versions: Vec<GroupVersion> = p
                .versions
                .iter()
                .map(|v| GroupVersion::from_static(p.group, v))
                .collect();
            if let Err(e) = self.set_version_priority(&versions) {
                errors.push(e);
            }
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(SchemeError::from(SchemeErrorKind::Registrations(errors)))
        }
    }

    /// Registers a type as its registration describes (every version it names, as
    /// unversioned if it says so, with its resource metadata). Go's `SchemeBuilder`
    /// functions do this per group version.
    pub fn register(&mut self, registration: &Registration) -> Result<(), SchemeError> {
        let gvks: Vec<GroupVersionKind> = registration.group_version_kinds().collect();
        // Check everything first so a failed registration changes nothing.
        for gvk in &gvks {
            self.check_known_type(gvk, &registration.object_type)?;
        }
        if registration.unversioned {
            self.check_unversioned_kind(&gvks[0], &registration.object_type)?;
        }
        for gvk in gvks {
            if let Some(resource) = registration.resource {
                self.resources.insert(gvk.clone(), resource);
            }
            if registration.unversioned {
                self.insert_unversioned(gvk, registration.object_type);
            } else {
                self.insert_known_type(gvk, registration.object_type);
            }
        }
        Ok(())
    }

    /// The scheme's name, as shown in its errors.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Registers types under their own kinds in `gv` (Go's `AddKnownTypes`).
    pub fn add_known_types(
        &mut self,
        gv: &GroupVersion,
        types: &[ObjectType],
    ) -> Result<(), SchemeError> {
        for t in types {
            self.check_known_type(&gv.with_kind(Name::from_static(t.kind())), t)?;
        }
        for t in types {
            self.insert_known_type(gv.with_kind(Name::from_static(t.kind())), *t);
        }
        Ok(())
    }

    /// Registers a type under an explicit kind (Go's `AddKnownTypeWithName`). Registering
    /// the same type under the same kind again does nothing.
    pub fn add_known_type_with_name(
        &mut self,
        gvk: GroupVersionKind,
        object_type: &ObjectType,
    ) -> Result<(), SchemeError> {
        self.check_known_type(&gvk, object_type)?;
        self.insert_known_type(gvk, *object_type);
        Ok(())
    }

    /// Registers types as unversioned in `gv` (Go's `AddUnversionedTypes`): known in `gv`
    /// like any type, never converted, and creatable by kind name alone in any group
    /// version.
    pub fn add_unversioned_types(
        &mut self,
        gv: &GroupVersion,
        types: &[ObjectType],
    ) -> Result<(), SchemeError> {
        let gvks: Vec<GroupVersionKind> = types
            .iter()
            .map(|t| gv.with_kind(Name::from_static(t.kind())))
            .collect();
        for (gvk, t) in gvks.iter().zip(types) {
            self.check_known_type(gvk, t)?;
            self.check_unversioned_kind(gvk, t)?;
        }
        for (gvk, t) in gvks.into_iter().zip(types) {
            self.insert_unversioned(gvk, *t);
        }
        Ok(())
    }

    fn check_known_type(
        &self,
        gvk: &GroupVersionKind,
        object_type: &ObjectType,
    ) -> Result<(), SchemeError> {
        if gvk.version.is_empty() || gvk.kind.is_empty() {
            return Err(SchemeError::from(SchemeErrorKind::IncompleteKind {
                gvk: gvk.clone(),
                type_name: object_type.type_name(),
            }));
        }
        if let Some(&i) = self.gvk_to_type.get(gvk) {
            let existing = &self.types[i].object_type;
            if existing.type_id() != object_type.type_id() {
                return Err(SchemeError::from(SchemeErrorKind::ConflictingKind {
                    gvk: gvk.clone(),
                    existing: existing.type_name(),
                    new: object_type.type_name(),
                    scheme: self.name.clone(),
                }));
            }
        }
        Ok(())
    }

    fn check_unversioned_kind(
        &self,
        gvk: &GroupVersionKind,
        object_type: &ObjectType,
    ) -> Result<(), SchemeError> {
        if let Some(&i) = self.unversioned_kinds.get(gvk.kind.as_str()) {
            let existing = &self.types[i].object_type;
            if existing.type_id() != object_type.type_id() {
                return Err(SchemeError::from(
                    SchemeErrorKind::ConflictingUnversionedKind {
                        kind: gvk.kind.to_string(),
                        existing: existing.type_name(),
                        new: object_type.type_name(),
                        scheme: self.name.clone(),
                    },
                ));
            }
        }
        Ok(())
    }

    /// Inserts a checked registration.
    fn insert_known_type(&mut self, gvk: GroupVersionKind, object_type: ObjectType) -> usize {
        self.add_observed_version(gvk.group_version());
        let type_id = object_type.type_id();
        let index = match self.type_index.get(&type_id) {
            Some(&i) => i,
            None => {
                self.types.push(TypeEntry {
                    object_type,
                    gvks: Vec::new(),
                });
                let i = self.types.len() - 1;
                self.type_index.insert(type_id, i);
                i
            }
        };
        self.gvk_to_type.insert(gvk.clone(), index);
        let versions = self
            .versions_by_group_kind
            .entry(gvk.group_kind())
            .or_default();
        if !versions.contains(&gvk.version) {
            versions.push(gvk.version.clone());
        }
        let gvks = &mut self.types[index].gvks;
        if !gvks.contains(&gvk) {
            gvks.push(gvk);
        }
        index
    }

    fn insert_unversioned(&mut self, gvk: GroupVersionKind, object_type: ObjectType) {
        let index = self.insert_known_type(gvk.clone(), object_type);
        self.unversioned_types
            .insert(object_type.type_id(), gvk.clone());
        self.unversioned_kinds.insert(gvk.kind, index);
    }

    fn add_observed_version(&mut self, gv: GroupVersion) {
        if gv.version.is_empty() || gv.version == API_VERSION_INTERNAL {
            return;
        }
        if !self.observed_versions.contains(&gv) {
            self.observed_versions.push(gv);
        }
    }

    /// The kinds registered in `gv` and their types (Go's `KnownTypes`), by kind name.
    pub fn known_types(&self, gv: &GroupVersion) -> BTreeMap<Name, &ObjectType> {
        self.gvk_to_type
            .iter()
            .filter(|(gvk, _)| gvk.group == gv.group && gvk.version == gv.version)
            .map(|(gvk, &i)| (gvk.kind.clone(), &self.types[i].object_type))
            .collect()
    }

    /// Every registered kind and its type (Go's `AllKnownTypes`), sorted by kind.
    pub fn all_known_types(&self) -> BTreeMap<&GroupVersionKind, &ObjectType> {
        self.gvk_to_type
            .iter()
            .map(|(gvk, &i)| (gvk, &self.types[i].object_type))
            .collect()
    }

    /// The type registered for a kind, if any.
    pub fn object_type(&self, gvk: &GroupVersionKind) -> Option<&ObjectType> {
        self.gvk_to_type
            .get(gvk)
            .map(|&i| &self.types[i].object_type)
    }

    /// The resource metadata registered with a kind, if it is a resource.
    pub fn resource_metadata(&self, gvk: &GroupVersionKind) -> Option<&ResourceMetadata> {
        self.resources.get(gvk)
    }

    /// Every registered kind that is a resource, with its metadata, sorted by kind.
    pub fn resources(&self) -> BTreeMap<&GroupVersionKind, &ResourceMetadata> {
        self.resources.iter().collect()
    }

    /// Every kind an object can be, and whether it is unversioned (Go's `ObjectKinds`).
    ///
    /// An unstructured object is exactly the kind it declares, and needs both kind and
    /// version; a typed object is every kind its Rust type is registered under.
    pub fn object_kinds<'a>(
        &'a self,
        obj: &dyn Object,
    ) -> Result<(Cow<'a, [GroupVersionKind]>, bool), SchemeError> {
        if obj.is_unstructured() {
            let gvk = obj.group_version_kind();
            if gvk.kind.is_empty() {
                return Err(SchemeError::from(SchemeErrorKind::MissingKind {
                    context: "unstructured object has no kind".into(),
                }));
            }
            if gvk.version.is_empty() {
                return Err(SchemeError::from(SchemeErrorKind::MissingVersion {
                    context: "unstructured object has no version".into(),
                }));
            }
            return Ok((Cow::Owned(vec![gvk]), false));
        }
        let type_id = obj.object_type_id();
        let Some(&i) = self.type_index.get(&type_id) else {
            return Err(SchemeError::from(SchemeErrorKind::NotRegisteredType {
                type_name: obj.type_name(),
                scheme: self.name.clone(),
            }));
        };
        let unversioned = self.unversioned_types.contains_key(&type_id);
        Ok((Cow::Borrowed(&self.types[i].gvks), unversioned))
    }

    /// The kinds a Rust type is registered under.
    pub fn kinds_for_type<T: Object>(&self) -> &[GroupVersionKind] {
        self.type_index
            .get(&TypeId::of::<T>())
            .map_or(&[], |&i| &self.types[i].gvks)
    }

    /// The type a kind is created as: the one registered for exactly this kind, else an
    /// unversioned type of the same kind name (Go's `Scheme.New` lookup).
    pub(crate) fn type_for_kind(&self, gvk: &GroupVersionKind) -> Result<&ObjectType, SchemeError> {
        self.gvk_to_type
            .get(gvk)
            .or_else(|| self.unversioned_kinds.get(gvk.kind.as_str()))
            .map(|&i| &self.types[i].object_type)
            .ok_or_else(|| self.not_registered(gvk))
    }

    /// The type registered for the kind an object's `apiVersion` and `kind` strings name,
    /// with the registered name of that kind: found without building a
    /// [`GroupVersionKind`] (which would allocate each of its names). Unversioned kinds
    /// and unparsable `apiVersion`s are not looked up here: `None`.
    pub(crate) fn registered_kind(
        &self,
        api_version: &str,
        kind: &str,
    ) -> Option<(&ObjectType, &GroupVersionKind)> {
        let (group, version) = split_group_version(api_version)?;
        let key: &dyn GvkParts = &(group, version, kind);
        let (gvk, &i) = self.gvk_to_type.get_key_value(key)?;
        Some((&self.types.get(i)?.object_type, gvk))
    }

    /// A new, default-valued object of a kind (Go's `Scheme.New`); an unversioned kind is
    /// found by its name in any group version.
    pub fn new_object(&self, gvk: &GroupVersionKind) -> Result<Box<dyn Object>, SchemeError> {
        Ok(self.type_for_kind(gvk)?.new_object())
    }

    /// Reads an object of a kind from a parsed JSON value, looking its type up as
    /// [`new_object`](Self::new_object) does, and sets its declared kind to `gvk`. A
    /// field of the wrong JSON type is an error naming its path.
    ///
    /// ```standalone_crate
    /// use apimachinery::runtime::Scheme;
    ///
    /// let scheme = Scheme::from_registry()?;
    /// let gvk = "v1, Kind=Status".parse()?;
    /// let status = scheme.decode_value(&gvk, &serde_json::json!({"code": 404}))?;
    /// assert_eq!(status.group_version_kind(), gvk);
    /// let err = scheme.decode_value(&gvk, &serde_json::json!({"code": "x"})).unwrap_err();
    /// assert!(err.to_string().contains("code: invalid type"), "{err}");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn decode_value(
        &self,
        gvk: &GroupVersionKind,
        value: &serde_json::Value,
    ) -> Result<Box<dyn Object>, SchemeError> {
        let (mut obj, _) = self
            .type_for_kind(gvk)?
            .from_value(value, false)
            .map_err(|e| {
                SchemeError::from(SchemeErrorKind::Deserialize {
                    gvk: gvk.clone(),
                    message: e.to_string(),
                })
            })?;
        obj.set_group_version_kind(gvk);
        Ok(obj)
    }

    /// Reads an object of a kind from JSON text, straight into its type (the fast path
    /// the JSON serializer takes), and sets its declared kind to `gvk`. Embedded raw
    /// objects (`RawExtension`) keep their bytes as written.
    ///
    /// ```standalone_crate
    /// use apimachinery::runtime::Scheme;
    ///
    /// let scheme = Scheme::from_registry()?;
    /// let gvk = "v1, Kind=Status".parse()?;
    /// let status = scheme.decode_json(&gvk, br#"{"code": 404}"#)?;
    /// assert_eq!(status.group_version_kind(), gvk);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn decode_json(
        &self,
        gvk: &GroupVersionKind,
        data: &[u8],
    ) -> Result<Box<dyn Object>, SchemeError> {
        let mut obj = self
            .type_for_kind(gvk)?
            .decode_json(data, false)
            .map_err(|e| {
                SchemeError::from(SchemeErrorKind::Deserialize {
                    gvk: gvk.clone(),
                    message: e.error.to_string(),
                })
            })?
            .object;
        obj.set_group_version_kind(gvk);
        Ok(obj)
    }

    /// The error for a kind this scheme does not know.
    pub fn not_registered(&self, gvk: &GroupVersionKind) -> SchemeError {
        SchemeErrorKind::NotRegisteredKind {
            gvk: gvk.clone(),
            scheme: self.name.clone(),
        }
        .into()
    }

    /// True when any type of `group` was registered in a (non-internal) version.
    pub fn is_group_registered(&self, group: &str) -> bool {
        self.observed_versions.iter().any(|gv| gv.group == group)
    }

    /// True when types were registered in `gv` (internal versions are never "registered").
    pub fn is_version_registered(&self, gv: &GroupVersion) -> bool {
        self.observed_versions.contains(gv)
    }

    /// True when a type is registered for exactly this kind (Go's `Recognizes`).
    pub fn recognizes(&self, gvk: &GroupVersionKind) -> bool {
        self.gvk_to_type.contains_key(gvk)
    }

    /// Whether an object's type is unversioned: `None` when the type is not registered
    /// (Go's `IsUnversioned` returns that as its second result).
    pub fn is_unversioned(&self, obj: &dyn Object) -> Option<bool> {
        let type_id = obj.object_type_id();
        self.type_index.get(&type_id)?;
        Some(self.unversioned_types.contains_key(&type_id))
    }

    /// The versions a group kind is registered in, in priority order (Go's
    /// `VersionsForGroupKind`); internal versions are not listed.
    pub fn versions_for_group_kind(&self, gk: &GroupKind) -> Vec<GroupVersion> {
        let Some(available) = self.versions_by_group_kind.get(gk) else {
            return Vec::new();
        };
        self.prioritized_versions_for_group(&gk.group)
            .into_iter()
            .filter(|gv| available.contains(&gv.version))
            .collect()
    }

    /// Sets the priority of a group's versions, most preferred first. Every version must
    /// be of one group, and none internal.
    pub fn set_version_priority(&mut self, versions: &[GroupVersion]) -> Result<(), SchemeError> {
        let mut groups: Vec<String> = Vec::new();
        for gv in versions {
            if gv.version.is_empty() || gv.version == API_VERSION_INTERNAL {
                return Err(SchemeError::from(SchemeErrorKind::InternalVersionPriority(
                    gv.clone(),
                )));
            }
            if !groups.iter().any(|g| g == gv.group.as_str()) {
                groups.push(gv.group.to_string());
            }
        }
        if groups.len() != 1 {
            groups.sort();
            return Err(SchemeError::from(SchemeErrorKind::VersionPriorityGroups {
                groups,
            }));
        }
        let group = versions[0].group.clone();
        let order: Vec<Name> = versions.iter().map(|gv| gv.version.clone()).collect();
        match self.version_priority.iter_mut().find(|(g, _)| *g == group) {
            Some((_, existing)) => *existing = order,
            None => self.version_priority.push((group, order)),
        }
        Ok(())
    }

    fn priority_of(&self, group: &str) -> &[Name] {
        self.version_priority
            .iter()
            .find(|(g, _)| g.as_str() == group)
            .map_or(&[], |(_, v)| v.as_slice())
    }

    /// A group's versions: those given a priority first, in that order, then the other
    /// versions types were registered in, in registration order.
    pub fn prioritized_versions_for_group(&self, group: &str) -> Vec<GroupVersion> {
        let mut out: Vec<GroupVersion> = self
            .priority_of(group)
            .iter()
            .map(|v| GroupVersion::new(Name::new(group), v.clone()))
            .collect();
        for gv in &self.observed_versions {
            if gv.group == group && !out.contains(gv) {
                out.push(gv.clone());
            }
        }
        out
    }

    /// Every group's versions: the prioritized ones (groups in the order their priority
    /// was set), then the other registered versions in registration order.
    pub fn prioritized_versions_all_groups(&self) -> Vec<GroupVersion> {
        let mut out: Vec<GroupVersion> = self
            .version_priority
            .iter()
            .flat_map(|(g, vs)| vs.iter().map(|v| GroupVersion::new(g.clone(), v.clone())))
            .collect();
        for gv in &self.observed_versions {
            if !out.contains(gv) {
                out.push(gv.clone());
            }
        }
        out
    }

    /// The most preferred version of every group: the first prioritized version, else the
    /// first version registered.
    pub fn preferred_version_all_groups(&self) -> Vec<GroupVersion> {
        let mut out: Vec<GroupVersion> = self
            .version_priority
            .iter()
            .filter_map(|(g, vs)| vs.first().map(|v| GroupVersion::new(g.clone(), v.clone())))
            .collect();
        for gv in &self.observed_versions {
            if !out.iter().any(|o| o.group == gv.group) {
                out.push(gv.clone());
            }
        }
        out
    }

    /// Registers `T` under its own kind in its own group version.
    pub fn add_known_type<T: Resource + super::json_reader::ReadJson + serde::Serialize>(
        &mut self,
    ) -> Result<(), SchemeError> {
        self.add_known_type_with_name(T::gvk(), &ObjectType::of::<T>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apis::meta::v1::{ListMeta, ObjectMeta, Status};
    use crate::runtime::Unstructured;

    /// A stand-in kind registered in `scheme.test/v1` and its internal version.
    #[derive(crate::ApiObject, Clone, Debug, Default, PartialEq)]
    #[api(group = "scheme.test", version = "v1", kind = "Thing", extra_versions = ["__internal"])]
    struct Thing {
        metadata: ObjectMeta,
        size: i64,
    }

    #[derive(crate::ApiObject, Clone, Debug, Default, PartialEq)]
    #[api(group = "scheme.test", version = "v1", kind = "ThingList")]
    struct ThingList {
        metadata: ListMeta,
        items: Vec<Thing>,
    }

    #[derive(crate::ApiObject, Clone, Debug, Default, PartialEq)]
    #[api(group = "scheme.test", version = "v2", kind = "Thing")]
    struct ThingV2 {
        metadata: ObjectMeta,
    }

    #[derive(crate::ApiObject, Clone, Debug, Default, PartialEq)]
    #[api(
        group = "scheme.test",
        version = "v1",
        kind = "Status",
        unversioned,
        not_resource
    )]
    struct OtherStatus {
        code: i32,
    }

    fn scheme() -> Scheme {
        let mut s = Scheme::with_name("test");
        s.register(&Thing::REGISTRATION).unwrap();
        s.register(&ThingList::REGISTRATION).unwrap();
        s.register(&ThingV2::REGISTRATION).unwrap();
        s
    }

    #[test]
    fn lookups_both_ways() {
        let s = scheme();
        let v1 = GroupVersionKind::new("scheme.test", "v1", "Thing");
        let internal = GroupVersionKind::new("scheme.test", "__internal", "Thing");
        assert!(s.recognizes(&v1));
        assert!(s.recognizes(&internal));
        assert!(s.new_object(&internal).unwrap().is::<Thing>());
        let (kinds, unversioned) = s.object_kinds(&Thing::default()).unwrap();
        assert_eq!(kinds.as_ref(), &[v1.clone(), internal.clone()]);
        assert!(!unversioned);
        assert_eq!(s.kinds_for_type::<ThingV2>()[0].version, "v2");
        assert_eq!(s.is_unversioned(&Thing::default()), Some(false));
        assert_eq!(
            s.known_types(&GroupVersion::new("scheme.test", "v1")).len(),
            2
        );
        assert_eq!(s.all_known_types().len(), 4);
        assert_eq!(s.resource_metadata(&v1).unwrap().plural, "things");
        assert!(
            s.resource_metadata(&GroupVersionKind::new("scheme.test", "v1", "ThingList"))
                .is_none()
        );
    }

    #[test]
    fn registered_kinds_are_found_by_their_strings() {
        let s = scheme();
        let (object_type, gvk) = s.registered_kind("scheme.test/v2", "Thing").unwrap();
        assert_eq!(gvk, &GroupVersionKind::new("scheme.test", "v2", "Thing"));
        assert!(object_type.new_object().is::<ThingV2>());
        assert!(s.registered_kind("scheme.test/v1", "ThingList").is_some());
        for (api_version, kind) in [
            ("scheme.test/v3", "Thing"),
            ("scheme.test/v1", "thing"),
            ("scheme.test/v1/x", "Thing"),
            ("v1", "Thing"),
            ("", ""),
        ] {
            assert!(
                s.registered_kind(api_version, kind).is_none(),
                "{api_version} {kind}"
            );
        }
    }

    #[test]
    fn not_registered_errors_name_what_is_missing() {
        let s = scheme();
        let err = s
            .new_object(&GroupVersionKind::new("x", "v1", "Y"))
            .unwrap_err();
        assert!(err.is_not_registered());
        assert_eq!(
            err.to_string(),
            r#"no kind "Y" is registered for version "x/v1" in scheme "test""#
        );
        let err = s.object_kinds(&Status::default()).unwrap_err();
        assert!(
            err.to_string()
                .contains("apimachinery::apis::meta::v1::status::Status"),
            "{err}"
        );
        assert_eq!(s.is_unversioned(&Status::default()), None);
    }

    #[test]
    fn unstructured_objects_are_their_declared_kind() {
        let s = scheme();
        let mut u = Unstructured::default();
        assert!(s.object_kinds(&u).unwrap_err().is_missing_kind());
        u.set_kind("Anything");
        assert!(s.object_kinds(&u).unwrap_err().is_missing_version());
        u.set_api_version("other.io/v9");
        let (kinds, _) = s.object_kinds(&u).unwrap();
        assert_eq!(kinds[0].to_string(), "other.io/v9, Kind=Anything");
    }

    #[test]
    fn conflicts_are_errors_naming_both_types_and_change_nothing() {
        let mut s = scheme();
        let before = s.all_known_types().len();
        let err = s
            .add_known_type_with_name(
                GroupVersionKind::new("scheme.test", "v1", "Thing"),
                &ObjectType::of::<ThingV2>(),
            )
            .unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains("Thing") && msg.contains("ThingV2"), "{msg}");
        assert_eq!(s.all_known_types().len(), before);
        // The same type under the same kind again is fine.
        s.register(&Thing::REGISTRATION).unwrap();

        s.register(&Status::REGISTRATION).unwrap();
        let err = s.register(&OtherStatus::REGISTRATION).unwrap_err();
        assert!(
            matches!(
                err.kind(),
                SchemeErrorKind::ConflictingUnversionedKind { .. }
            ),
            "{err}"
        );
        assert!(!s.recognizes(&GroupVersionKind::new("scheme.test", "v1", "Status")));

        let err = s
            .add_known_type_with_name(
                GroupVersionKind::new("g", "", "K"),
                &ObjectType::of::<Thing>(),
            )
            .unwrap_err();
        assert!(matches!(err.kind(), SchemeErrorKind::IncompleteKind { .. }));
    }

    #[test]
    fn unversioned_kinds_are_found_in_any_version() {
        let mut s = scheme();
        s.register(&Status::REGISTRATION).unwrap();
        let obj = s
            .new_object(&GroupVersionKind::new("any.group", "v7", "Status"))
            .unwrap();
        assert!(obj.is::<Status>());
        assert_eq!(s.is_unversioned(&Status::default()), Some(true));
        assert!(!s.recognizes(&GroupVersionKind::new("any.group", "v7", "Status")));
    }

    #[test]
    fn version_priority() {
        let mut s = scheme();
        let v1 = GroupVersion::new("scheme.test", "v1");
        let v2 = GroupVersion::new("scheme.test", "v2");
        assert!(s.is_group_registered("scheme.test"));
        assert!(s.is_version_registered(&v2));
        assert!(!s.is_version_registered(&GroupVersion::new("scheme.test", "__internal")));
        assert_eq!(
            s.prioritized_versions_for_group("scheme.test"),
            vec![v1.clone(), v2.clone()]
        );
        s.set_version_priority(std::slice::from_ref(&v2)).unwrap();
        assert_eq!(
            s.prioritized_versions_for_group("scheme.test"),
            vec![v2.clone(), v1.clone()]
        );
        assert_eq!(s.preferred_version_all_groups(), vec![v2.clone()]);
        assert_eq!(
            s.prioritized_versions_all_groups(),
            vec![v2.clone(), v1.clone()]
        );
        assert_eq!(
            s.versions_for_group_kind(&GroupKind::new("scheme.test", "Thing")),
            vec![v2.clone(), v1.clone()]
        );
        let err = s
            .set_version_priority(&[v1.clone(), GroupVersion::new("other", "v1")])
            .unwrap_err();
        assert!(matches!(
            err.kind(),
            SchemeErrorKind::VersionPriorityGroups { .. }
        ));
        let err = s
            .set_version_priority(&[GroupVersion::new("scheme.test", "__internal")])
            .unwrap_err();
        assert!(matches!(
            err.kind(),
            SchemeErrorKind::InternalVersionPriority(_)
        ));
    }

    #[test]
    fn decode_values_through_the_scheme() {
        let s = scheme();
        let gvk = GroupVersionKind::new("scheme.test", "v1", "Thing");
        let value = serde_json::json!({"metadata": {"name": "a"}, "size": 3});
        let obj = s.decode_value(&gvk, &value).unwrap();
        let thing = obj.downcast_ref::<Thing>().unwrap();
        assert_eq!((thing.metadata.name.as_str(), thing.size), ("a", 3));
        let err = s
            .decode_value(&gvk, &serde_json::json!({"size": "x"}))
            .unwrap_err();
        assert!(
            err.to_string()
                .starts_with("decoding scheme.test/v1, Kind=Thing: size: invalid type"),
            "{err}"
        );
    }

    #[test]
    fn lists_expose_their_items() {
        let mut list = ThingList::default();
        let obj: &mut dyn Object = &mut list;
        let items = obj.as_list_mut().unwrap();
        items.push_item(Box::new(Thing::default())).unwrap();
        assert!(items.push_item(Box::new(ThingV2::default())).is_err());
        assert_eq!(items.len(), 1);
        assert!(list.list_meta().is_some());
        assert!(list.meta().is_none());
    }
}
