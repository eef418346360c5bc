//! What is particular to each resource in a write (Go's strategies: `RESTCreateStrategy`,
//! `RESTUpdateStrategy`, `RESTDeleteStrategy`, `RESTGracefulDeleteStrategy`,
//! `ResetFieldsStrategy`): the generic [`Store`](super::Store) asks its resource's
//! [`Strategy`] at each step of a create, update or delete, and the handlers ask it how
//! bodies are decoded and converted. The strategies of the built-in resources are in
//! the resource modules beside this one (`registry::core::pod`, ...); a resource without
//! one is served with [`GenericStrategy`], the shape most of Go's strategies share.

use std::fmt::Debug;

use apimachinery::api::errors::StatusError;
use apimachinery::runtime::{Object, Scheme};
use serde_json::Value;

use super::codec::{from_value, to_json};
use super::delete_params::{DeleteParams, GarbageCollectionPolicy};
use super::resource_info::ResourceInfo;
use super::validation::{self, NameValidation};

/// Which part of an object a write may change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Subresource {
    /// The object: `status` is kept as stored (for kinds with a status subresource).
    Main,
    /// `/status`: only `status` changes.
    Status,
    /// A Namespace's `/finalize`: everything but `status` may change, `spec.finalizers`
    /// among it (which a write of the Namespace keeps as stored).
    Finalize,
    /// A Pod's `/resize`: the status is kept as stored, and the resource's strategy keeps
    /// all of the spec but what a resize may change (Go's `podResizeStrategy`).
    Resize,
    /// A Pod's `/ephemeralcontainers`: the status is kept as stored, and the resource's
    /// strategy keeps all of the spec but its ephemeral containers (Go's
    /// `podEphemeralContainersStrategy`).
    EphemeralContainers,
    /// A CertificateSigningRequest's `/approval`: the resource's strategy keeps all but
    /// the status's conditions (Go's `csrApprovalStrategy`).
    Approval,
}

/// The `fieldValidation` directive of a write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldValidation {
    /// Unknown and duplicate fields fail the request.
    Strict,
    /// They are reported as warnings.
    Warn,
    /// They are dropped silently.
    Ignore,
}

/// A field label a resource's objects can be selected by (beyond `metadata.name` and
/// `metadata.namespace`), and the JSON pointer of its value in the stored object.
pub type SelectableField = (&'static str, &'static str);

/// Converts objects of a custom resource between versions through its CRD's conversion
/// webhook (apiextensions' `webhookConverter`).
#[async_trait::async_trait]
pub trait WebhookConverter: Send + Sync + Debug {
    /// `objects` (their JSON) converted to `api_version`, in one review.
    async fn convert(
        &self,
        objects: Vec<Value>,
        api_version: &str,
    ) -> Result<Vec<Value>, StatusError>;
}

/// The steps of a write particular to one resource. Every method has the default most of
/// Go's strategies share, so a strategy says only where its resource differs.
pub trait Strategy: Send + Sync + Debug {
    /// Go's `PrepareForCreate`: what the server sets or clears on an object before it
    /// is created (a Namespace's finalizer and phase), at the storage version.
    fn prepare_for_create(
        &self,
        _scheme: &Scheme,
        _info: &ResourceInfo,
        obj: Box<dyn Object>,
    ) -> Result<Box<dyn Object>, StatusError> {
        Ok(obj)
    }

    /// Whether the resource's objects keep a `metadata.generation`: 1 on create, one
    /// more on each update that changes the spec (what most of Go's strategies with a
    /// spec do; Namespaces' and Services' do not).
    fn tracks_generation(&self) -> bool {
        true
    }

    /// Go's `PrepareForUpdate`: the new object as it may be written over `old`. By
    /// default ([`prepare_for_update`]) the status is kept on a write of the object and
    /// everything but the status on a write of `/status`, and `metadata.generation` grows
    /// when the spec changed (for a resource that [tracks](Self::tracks_generation) it).
    fn prepare_for_update(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        old: &dyn Object,
        new: Box<dyn Object>,
        subresource: Subresource,
    ) -> Result<Box<dyn Object>, StatusError> {
        let changed = generation_rule(self.tracks_generation());
        prepare_for_update(scheme, info, old, new, subresource, changed)
    }

    /// Go's `AllowCreateOnUpdate`: whether a PUT of a missing object creates it.
    fn allow_create_on_update(&self) -> bool {
        false
    }

    /// Go's `AllowUnconditionalUpdate`: whether an update naming no
    /// `metadata.resourceVersion` is applied over whatever is stored (most of Go's
    /// strategies). Where it is not, the store refuses such an update (422) before
    /// preparing or validating it.
    fn allow_unconditional_update(&self) -> bool {
        true
    }

    /// What names of the resource must be (used when the scheme has no validator).
    fn names(&self) -> NameValidation {
        NameValidation::Subdomain
    }

    /// Go's `Validate` (no `old`) and `ValidateUpdate`: the kind's validator when the
    /// scheme has one, else its metadata; a `/status` write by the kind's `/status`
    /// validator (Go's status strategy's `ValidateUpdate`), else its metadata only.
    fn validate(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        obj: &dyn Object,
        old: Option<&dyn Object>,
        subresource: Subresource,
    ) -> Result<(), StatusError> {
        match subresource {
            Subresource::Main | Subresource::Finalize => {
                validation::validate(scheme, info, self.names(), obj, old)
            }
            Subresource::Status => {
                validation::validate_status(scheme, info, self.names(), obj, old)
            }
            Subresource::Resize => {
                validation::validate_subresource(scheme, info, "resize", obj, old)
            }
            Subresource::EphemeralContainers => {
                validation::validate_subresource(scheme, info, "ephemeralcontainers", obj, old)
            }
            Subresource::Approval => {
                validation::validate_subresource(scheme, info, "approval", obj, old)
            }
        }
    }

    /// Go's `WarningsOnCreate`: warnings for the client about an object it creates.
    fn warnings_on_create(&self, _obj: &dyn Object) -> Vec<String> {
        Vec::new()
    }

    /// Go's `WarningsOnUpdate`.
    fn warnings_on_update(&self, _obj: &dyn Object, _old: &dyn Object) -> Vec<String> {
        Vec::new()
    }

    /// Go's status strategy's `WarningsOnUpdate`, for a write of `/status` (most say
    /// nothing; Services', Ingresses' and Pods' warn of addresses in the status).
    fn warnings_on_status_update(&self, _obj: &dyn Object, _old: &dyn Object) -> Vec<String> {
        Vec::new()
    }

    /// Go's `Canonicalize`: the object's canonical form, once it is valid.
    fn canonicalize(&self, _obj: &mut dyn Object) {}

    /// Go's `GetResetFields`: the top-level fields a write of `subresource` cannot
    /// change, which server-side apply leaves unowned. By default the status on the
    /// object and the spec on `/status`, for kinds with a status subresource.
    fn reset_fields(
        &self,
        info: &ResourceInfo,
        subresource: Subresource,
    ) -> &'static [&'static str] {
        match (info.has_status, subresource) {
            (
                true,
                Subresource::Main
                | Subresource::Finalize
                | Subresource::Resize
                | Subresource::EphemeralContainers
                | Subresource::Approval,
            ) => &["status"],
            (true, Subresource::Status) => &["spec"],
            (false, _) => &[],
        }
    }

    /// Go's `GetAttrs`/`ToSelectableFields`: the fields a field selector may name besides
    /// `metadata.name` and `metadata.namespace`.
    fn selectable_fields(&self) -> &'static [SelectableField] {
        &[]
    }

    /// Go's `CheckGracefulDelete`: the grace period of a delete of `obj` asking for
    /// `requested` seconds, or `None` when the resource is not deleted gracefully (the
    /// default: only Pods are, among the built-in resources).
    fn check_graceful_delete(
        &self,
        _obj: &dyn Object,
        _requested: Option<i64>,
    ) -> Result<Option<i64>, StatusError> {
        Ok(None)
    }

    /// Whether nothing but its metadata's finalizers holds a deleted object any more
    /// (the extra condition of Go's `ShouldDeleteDuringUpdate`: a Namespace is also held
    /// by `spec.finalizers`). An update leaving a deleted object finalized deletes it.
    fn finalized(&self, _obj: &dyn Object) -> bool {
        true
    }

    /// Go's `DefaultGarbageCollectionPolicy`: what a delete naming no propagation policy
    /// does to the object's dependents, for a request at `version`.
    fn garbage_collection_policy(&self, _version: &str) -> GarbageCollectionPolicy {
        GarbageCollectionPolicy::DeleteDependents
    }

    /// The warnings a delete (of one object or a collection) gets before it is done,
    /// whether or not anything is deleted: those Go's REST storages add in their own
    /// `Delete` and `DeleteCollection`.
    fn warnings_on_delete(&self, _params: &DeleteParams) -> Vec<String> {
        Vec::new()
    }

    /// Go's `Store.ReturnDeletedObject`: a delete that removes an object answers with it
    /// rather than with a `Status`.
    fn returns_deleted_object(&self) -> bool {
        false
    }

    /// Whether objects are [`Unstructured`](apimachinery::runtime::Unstructured) and
    /// stored as JSON (custom resources): they have no protobuf form, and list items keep
    /// their kind.
    fn is_unstructured(&self) -> bool {
        false
    }

    /// Go's `Store.Decorator`: what is done to an object as it is read from storage (a
    /// custom resource is defaulted with its storage version's schema).
    fn decorate(&self, _obj: &mut dyn Object) {}

    /// Whether [`decorate`](Self::decorate) changes objects: lists of a resource whose
    /// objects it leaves as they are share them with the watch cache rather than copy
    /// each one.
    fn decorates(&self) -> bool {
        false
    }

    /// What the resource's codec does to a decoded body of `version` (its JSON) before
    /// it is defaulted and converted: a custom resource's unknown fields pruned and its
    /// schema's defaults and validation applied. `name` is the object's name on the URL.
    /// The warnings for the client go into `warnings`, those found before an error too.
    fn admit_decoded(
        &self,
        _version: &str,
        _obj: &mut Value,
        _name: &str,
        _validation: FieldValidation,
        _warnings: &mut Vec<String>,
    ) -> Result<(), StatusError> {
        Ok(())
    }

    /// The conversion webhook objects change versions through, when the resource has one.
    fn webhook_converter(&self) -> Option<&dyn WebhookConverter> {
        None
    }
}

/// The strategy of a resource with nothing of its own: Go's common strategy shape, with
/// the name rule and store options a resource module may set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GenericStrategy {
    /// What its names must be.
    pub names: NameValidation,
    /// Go's `ReturnDeletedObject`.
    pub returns_deleted_object: bool,
    /// Whether its objects have no `metadata.generation` (Go's strategies that never set
    /// one: Leases', LeaseCandidates', ServiceCIDRs', IPAddresses', and 1.36's
    /// HorizontalPodAutoscalers'; CSIDrivers', ClusterTrustBundles', ResourceClaims',
    /// StorageVersionMigrations', Workloads', ...), though most have a spec.
    pub no_generation: bool,
    /// Whether an update must name the `resourceVersion` it replaces (Go's strategies
    /// whose `AllowUnconditionalUpdate` is false: CSIDrivers', VolumeAttachments', ...).
    pub requires_resource_version: bool,
    /// Whether a create clears the status (of a kind that has one): 1.37's Evictions',
    /// EvictionRequests', CSINodes', PodGroups'.
    pub status_by_status_writes_only: bool,
    /// Whether a PUT of a missing object creates it (Go's strategies whose
    /// `AllowCreateOnUpdate` is true: Leases', LeaseCandidates', LimitRanges',
    /// RuntimeClasses', Endpoints' and the RBAC kinds').
    pub creates_on_update: bool,
}

impl GenericStrategy {
    /// The strategy of a resource whose store returns deleted objects.
    pub fn returning_deleted_object() -> Self {
        GenericStrategy {
            returns_deleted_object: true,
            ..GenericStrategy::default()
        }
    }

    /// This strategy for objects that keep no `metadata.generation`.
    pub fn without_generation(self) -> Self {
        GenericStrategy {
            no_generation: true,
            ..self
        }
    }

    /// This strategy for objects that are updated only at a `resourceVersion` the
    /// update names.
    pub fn requiring_resource_version(self) -> Self {
        GenericStrategy {
            requires_resource_version: true,
            ..self
        }
    }

    /// This strategy for objects a PUT creates when they are missing.
    pub fn creating_on_update(self) -> Self {
        GenericStrategy {
            creates_on_update: true,
            ..self
        }
    }

    /// This strategy for objects whose status is cleared on create.
    pub fn with_status_by_status_writes_only(self) -> Self {
        GenericStrategy {
            status_by_status_writes_only: true,
            ..self
        }
    }
}

impl Strategy for GenericStrategy {
    fn names(&self) -> NameValidation {
        self.names
    }

    fn returns_deleted_object(&self) -> bool {
        self.returns_deleted_object
    }

    fn tracks_generation(&self) -> bool {
        !self.no_generation
    }

    fn allow_unconditional_update(&self) -> bool {
        !self.requires_resource_version
    }

    fn allow_create_on_update(&self) -> bool {
        self.creates_on_update
    }

    fn prepare_for_create(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        obj: Box<dyn Object>,
    ) -> Result<Box<dyn Object>, StatusError> {
        if !(self.status_by_status_writes_only && info.has_status) {
            return Ok(obj);
        }
        let mut value = to_json(&*obj)?;
        if let Some(map) = value.as_object_mut() {
            map.insert("status".into(), Value::Object(Default::default()));
        }
        from_value(scheme, &info.storage_gvk, value)
    }

    fn prepare_for_update(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        old: &dyn Object,
        new: Box<dyn Object>,
        subresource: Subresource,
    ) -> Result<Box<dyn Object>, StatusError> {
        let changed = generation_rule(self.tracks_generation());
        prepare_for_update(scheme, info, old, new, subresource, changed)
    }
}

/// What makes a new generation for a strategy that `tracks` one: [`spec_changed`];
/// nothing for one that does not.
pub fn generation_rule(tracks: bool) -> fn(&Value, &Value, Subresource) -> bool {
    if tracks {
        spec_changed
    } else {
        |_, _, _| false
    }
}

/// Whether a write changed what makes a new generation, in Go's built-in strategies:
/// the spec (of a kind that has one).
pub fn spec_changed(old: &Value, new: &Value, _subresource: Subresource) -> bool {
    old.get("spec").is_some() && old.get("spec") != new.get("spec")
}

/// What every update keeps from the stored object (Go's `BeforeUpdate` and its
/// strategies' `PrepareForUpdate`): the metadata only the server sets, the status on a
/// write of the object, everything but the status and the metadata on a write of
/// `/status` (the metadata a kind keeps there is
/// its store's [`StatusMetadata`](super::status_metadata::StatusMetadata)), and a new
/// `metadata.generation` when `changed` says the write changed what makes one.
pub fn prepare_for_update(
    scheme: &Scheme,
    info: &ResourceInfo,
    old: &dyn Object,
    new: Box<dyn Object>,
    subresource: Subresource,
    changed: fn(&Value, &Value, Subresource) -> bool,
) -> Result<Box<dyn Object>, StatusError> {
    // Kinds with neither spec nor status (ConfigMaps, Secrets, RBAC objects, ...): all an
    // update keeps from the stored object is metadata, copied through the accessors
    // instead of a JSON round trip of both objects.
    let mut new = new;
    if !info.has_spec && !info.has_status {
        if let (Some(old), Some(meta)) = (old.meta(), new.meta_mut()) {
            // Go keeps a uid the new object names (a patch's): validation refuses it
            // when it is not the stored one.
            if meta.uid().is_empty() {
                meta.set_uid(old.uid());
            }
            meta.set_creation_timestamp(old.creation_timestamp());
            meta.set_namespace(old.namespace());
            meta.set_deletion_timestamp(old.deletion_timestamp());
            meta.set_deletion_grace_period_seconds(old.deletion_grace_period_seconds());
            meta.set_generation(old.generation());
            meta.set_generate_name(old.generate_name());
            return Ok(new);
        }
    }
    prepare_for_update_as_values(scheme, info, old, new, subresource, changed, |_, _, _| {})
}

/// [`prepare_for_update`] with a strategy's own step: `adjust` gets the stored object,
/// the new one (its status or the rest already taken from the stored one, the server's
/// metadata restored) and the subresource written, all as JSON, before the new
/// generation is decided (Go's strategies that restore or drop fields of their own in
/// `PrepareForUpdate`: a Pod's, a Node's).
pub fn prepare_for_update_adjusted(
    scheme: &Scheme,
    info: &ResourceInfo,
    old: &dyn Object,
    new: Box<dyn Object>,
    subresource: Subresource,
    changed: fn(&Value, &Value, Subresource) -> bool,
    adjust: impl FnOnce(&Value, &mut Value, Subresource),
) -> Result<Box<dyn Object>, StatusError> {
    prepare_for_update_as_values(scheme, info, old, new, subresource, changed, adjust)
}

/// [`prepare_for_update`] for every kind, on the objects' JSON values.
fn prepare_for_update_as_values(
    scheme: &Scheme,
    info: &ResourceInfo,
    old: &dyn Object,
    new: Box<dyn Object>,
    subresource: Subresource,
    changed: fn(&Value, &Value, Subresource) -> bool,
    adjust: impl FnOnce(&Value, &mut Value, Subresource),
) -> Result<Box<dyn Object>, StatusError> {
    let old_v = to_json(old)?;
    let mut new_v = to_json(&*new)?;
    if info.has_status {
        match subresource {
            Subresource::Main
            | Subresource::Finalize
            | Subresource::Resize
            | Subresource::EphemeralContainers
            | Subresource::Approval => copy_field(&old_v, &mut new_v, "status"),
            Subresource::Status => {
                // Everything but the status and the metadata is the stored object's;
                // what of the metadata is kept depends on the kind
                // (`status_metadata::keep`, which the store applies after this).
                let status = new_v.get("status").cloned();
                let metadata = new_v.get("metadata").cloned();
                new_v = old_v.clone();
                if let Some(obj) = new_v.as_object_mut() {
                    for (k, v) in [("status", status), ("metadata", metadata)] {
                        match v {
                            Some(v) => obj.insert(k.into(), v),
                            None => obj.remove(k),
                        };
                    }
                }
            }
        }
    }
    if let (Some(meta), Some(old_meta)) = (
        new_v.get_mut("metadata").and_then(Value::as_object_mut),
        old_v.get("metadata").and_then(Value::as_object),
    ) {
        // Go's `BeforeUpdate` takes the stored uid only when the new object has none:
        // another one (a patch's) is refused by validation as immutable.
        if meta
            .get("uid")
            .and_then(Value::as_str)
            .is_none_or(str::is_empty)
        {
            match old_meta.get("uid") {
                Some(v) => meta.insert("uid".into(), v.clone()),
                None => meta.remove("uid"),
            };
        }
        for k in [
            "creationTimestamp",
            "namespace",
            "deletionTimestamp",
            "deletionGracePeriodSeconds",
            "generation",
            "generateName",
        ] {
            match old_meta.get(k) {
                Some(v) => meta.insert(k.into(), v.clone()),
                None => meta.remove(k),
            };
        }
    }
    adjust(&old_v, &mut new_v, subresource);
    if changed(&old_v, &new_v, subresource) {
        let generation = old_v
            .pointer("/metadata/generation")
            .and_then(Value::as_i64)
            .unwrap_or(0);
        if let Some(meta) = new_v.get_mut("metadata").and_then(Value::as_object_mut) {
            meta.insert("generation".into(), Value::from(generation + 1));
        }
    }
    from_value(scheme, &info.storage_gvk, new_v)
}

fn copy_field(from: &Value, to: &mut Value, field: &str) {
    if let Some(to) = to.as_object_mut() {
        match from.get(field) {
            Some(v) => to.insert(field.into(), v.clone()),
            None => to.remove(field),
        };
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::registry::resource_info::resources_from_scheme;
    use apimachinery::runtime::unstructured::object_to_unstructured;
    use k8s_types as _;

    /// The metadata-only path for kinds without spec or status keeps from the stored
    /// object exactly what the JSON path keeps: ConfigMaps whose update changes every
    /// field the server owns, and some it does not.
    #[test]
    fn metadata_only_kinds_keep_what_the_json_path_keeps() {
        let mut scheme = Scheme::with_name("prepare-for-update-tests");
        scheme.add_registry().unwrap();
        let info = resources_from_scheme(&scheme)
            .remove(&(String::new(), "configmaps".to_owned()))
            .unwrap();
        assert!(!info.has_spec && !info.has_status);
        let decode = |json: &str| {
            from_value(
                &scheme,
                &info.storage_gvk,
                serde_json::from_str(json).unwrap(),
            )
            .unwrap()
        };
        let current = decode(
            r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"ns",
            "uid":"u-1","generateName":"a-","generation":3,"resourceVersion":"7",
            "creationTimestamp":"2026-01-02T03:04:05Z","labels":{"x":"1"},
            "deletionTimestamp":"2026-02-02T03:04:05Z","deletionGracePeriodSeconds":30},
            "data":{"k":"v"}}"#,
        );
        for (new, uid) in [
            (
                r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"other",
            "uid":"u-2","generateName":"b-","generation":9,"resourceVersion":"7",
            "creationTimestamp":"2020-01-01T00:00:00Z","labels":{"y":"2"},
            "finalizers":["f"]},"data":{"k":"w"},"immutable":true}"#,
                "u-2",
            ),
            (
                r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}"#,
                "u-1",
            ),
        ] {
            let fast = prepare_for_update(
                &scheme,
                &info,
                &*current,
                decode(new),
                Subresource::Main,
                spec_changed,
            )
            .unwrap();
            let by_values = prepare_for_update_as_values(
                &scheme,
                &info,
                &*current,
                decode(new),
                Subresource::Main,
                spec_changed,
                |_, _, _| {},
            )
            .unwrap();
            assert_eq!(
                object_to_unstructured(&*fast).unwrap(),
                object_to_unstructured(&*by_values).unwrap()
            );
            // A uid the new object names stays (validation refuses it), as in Go's
            // `BeforeUpdate`; none is the stored one.
            assert_eq!(fast.meta().unwrap().uid(), uid);
        }
    }
}
