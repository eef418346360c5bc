//! `v1` PersistentVolumeClaim (Go's `ValidatePersistentVolumeClaim`, its update and
//! status update, and `ValidatePersistentVolumeClaimSpec`, which StatefulSets' claim
//! templates share), with the options Go's strategy derives from the old claim.

use apimachinery::apis::meta::v1::validation::{
    FIELD_IMMUTABLE_ERROR_MSG, name_is_dns_label, name_is_dns_subdomain,
};
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
use apimachinery::util::validation::{is_dns1123_subdomain, is_qualified_name};

use super::persistent_volume::{VOLUME_MODES, access_modes, volume_mode_kept};
use super::resources::quantity_value;
use crate::core::v1::{
    PersistentVolumeClaim, PersistentVolumeClaimSpec, TypedLocalObjectReference,
    TypedObjectReference,
};
use crate::go_internal_json::with_internal_diff;
use crate::validation::label_selector::{has_invalid_label_selector, validate_label_selector_with};
use crate::validation::{invalid_each, validate_object_meta, validate_object_meta_update};
use crate::value::Quantity;

/// Go's `BetaStorageClassAnnotation`.
const STORAGE_CLASS_ANNOTATION: &str = "volume.beta.kubernetes.io/storage-class";
/// Go's `resizeStatusSet`, sorted.
const RESIZE_STATUSES: &[&str] = &[
    "ControllerResizeInProgress",
    "ControllerResizeInfeasible",
    "NodeResizeInProgress",
    "NodeResizeInfeasible",
    "NodeResizePending",
];

/// Go's `PersistentVolumeClaimSpecValidationOptions` at 1.36's defaults
/// (`RecoverVolumeExpansionFailure` and `VolumeAttributesClass` are GA and on).
#[derive(Clone, Copy, Debug, Default)]
pub struct PersistentVolumeClaimSpecOptions {
    /// An update keeps the invalid label values of the old claim's selector.
    pub allow_invalid_label_value_in_selector: bool,
    /// An update keeps the API groups the old claim's data source (or ref) named.
    pub allow_invalid_api_group_in_data_source_or_ref: bool,
}

impl PersistentVolumeClaimSpecOptions {
    /// Go's `ValidationOptionsForPersistentVolumeClaim` for an update from `old`.
    pub fn for_update(old: &PersistentVolumeClaimSpec) -> Self {
        PersistentVolumeClaimSpecOptions {
            allow_invalid_label_value_in_selector: old
                .selector
                .as_ref()
                .is_some_and(has_invalid_label_selector),
            allow_invalid_api_group_in_data_source_or_ref: old
                .data_source
                .as_ref()
                .is_some_and(|d| d.api_group.is_some())
                || old
                    .data_source_ref
                    .as_ref()
                    .is_some_and(|d| d.api_group.is_some()),
        }
    }
}

/// Go's `ValidatePersistentVolumeClaim`: metadata (a DNS-subdomain name, in a
/// namespace), then the spec.
pub fn validate_persistent_volume_claim(pvc: &PersistentVolumeClaim) -> ErrorList {
    #[allow(unused_mut)]
    let mut errs = validate_with(pvc, PersistentVolumeClaimSpecOptions::default());
    #[cfg(feature = "v1_37")]
    health_status(pvc, None, &mut errs);
    errs
}

/// 1.37's declarative rules of `status.healthStatus`, which the main strategy and the
/// `/status` one both run (on create, `old` is `None`).
#[cfg(feature = "v1_37")]
fn health_status(
    pvc: &PersistentVolumeClaim,
    old: Option<&PersistentVolumeClaim>,
    errs: &mut ErrorList,
) {
    super::volume_health::validate_volume_health_status(
        pvc.status.health_status.as_ref(),
        old.map(|o| o.status.health_status.as_ref()),
        &Path::new("status").child("healthStatus"),
        errs,
    );
}

fn validate_with(pvc: &PersistentVolumeClaim, opts: PersistentVolumeClaimSpecOptions) -> ErrorList {
    let mut errs = validate_object_meta(
        &pvc.metadata,
        true,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    errs.extend(validate_persistent_volume_claim_spec(
        &pvc.spec,
        &Path::new("spec"),
        opts,
    ));
    errs
}

/// Go's `ValidatePersistentVolumeClaimSpec`: access modes, selector, a positive
/// storage request, storage and volume attributes class names, volume mode, data
/// source and data source reference (equal when both are given, but for a
/// cross-namespace reference, which allows no data source).
pub fn validate_persistent_volume_claim_spec(
    spec: &PersistentVolumeClaimSpec,
    path: &Path,
    opts: PersistentVolumeClaimSpecOptions,
) -> ErrorList {
    let mut errs = ErrorList::default();
    if spec.access_modes.is_empty() {
        errs.push(Error::required(
            &path.child("accessModes"),
            "at least 1 access mode is required",
        ));
    }
    if spec.selector.is_some() {
        errs.extend(validate_label_selector_with(
            spec.selector.as_ref(),
            opts.allow_invalid_label_value_in_selector,
            &path.child("selector"),
        ));
    }
    // The empty list was reported above, with its detail.
    if !spec.access_modes.is_empty() {
        access_modes(&spec.access_modes, path, "", &mut errs);
    }
    let rp = path.child("resources");
    let sp = rp.key("storage");
    match spec.resources.requests.get("storage") {
        None => errs.push(Error::required(&sp, "")),
        Some(q) if q.sign() <= 0 => {
            errs.push(Error::invalid(
                &sp,
                q.to_string(),
                "must be greater than zero",
            ));
        }
        Some(_) => {}
    }
    if let Some(class) = spec.storage_class_name.as_deref().filter(|c| !c.is_empty()) {
        let cp = path.child("storageClassName");
        invalid_each(&mut errs, &cp, class, name_is_dns_subdomain(class, false));
    }
    if let Some(mode) = &spec.volume_mode {
        if !VOLUME_MODES.contains(&mode.as_str()) {
            errs.push(Error::not_supported(
                &path.child("volumeMode"),
                BadValue::json_string(mode),
                VOLUME_MODES,
            ));
        }
    }
    let allow_group = opts.allow_invalid_api_group_in_data_source_or_ref;
    if let Some(d) = &spec.data_source {
        data_source(d, &path.child("dataSource"), allow_group, &mut errs);
    }
    if let Some(d) = &spec.data_source_ref {
        data_source_ref(d, &path.child("dataSourceRef"), allow_group, &mut errs);
    }
    // Go's bad value is the `*field.Path` of `dataSource`, which `json.Marshal` writes
    // as an empty object (its fields are unexported).
    let path_value = || BadValue::Json("{}".to_owned());
    let cross_namespace = spec
        .data_source_ref
        .as_ref()
        .is_some_and(|r| r.namespace.as_deref().is_some_and(|n| !n.is_empty()));
    if cross_namespace {
        if spec.data_source.is_some() {
            errs.push(Error::invalid(
                path,
                path_value(),
                "may not be specified when dataSourceRef.namespace is specified",
            ));
        }
    } else if let (Some(d), Some(r)) = (&spec.data_source, &spec.data_source_ref) {
        if d.api_group != r.api_group || d.kind != r.kind || d.name != r.name {
            errs.push(Error::invalid(
                path,
                path_value(),
                "must match dataSourceRef",
            ));
        }
    }
    if let Some(class) = spec
        .volume_attributes_class_name
        .as_deref()
        .filter(|c| !c.is_empty())
    {
        let vp = path.child("volumeAttributesClassName");
        invalid_each(&mut errs, &vp, class, name_is_dns_subdomain(class, false));
    }
    errs
}

/// Go's `validateDataSource` and the common part of `validateDataSourceRef`.
fn reference(
    name: &str,
    kind: &str,
    api_group: Option<&str>,
    path: &Path,
    allow_group: bool,
    errs: &mut ErrorList,
) {
    if name.is_empty() {
        errs.push(Error::required(&path.child("name"), ""));
    }
    if kind.is_empty() {
        errs.push(Error::required(&path.child("kind"), ""));
    }
    let group = api_group.unwrap_or_default();
    if group.is_empty() && kind != "PersistentVolumeClaim" {
        errs.push(Error::invalid(
            path,
            kind,
            "must be 'PersistentVolumeClaim' when referencing the default apiGroup",
        ));
    }
    if !group.is_empty() && !allow_group {
        invalid_each(
            errs,
            &path.child("apiGroup"),
            group,
            is_dns1123_subdomain(group),
        );
    }
}

fn data_source(d: &TypedLocalObjectReference, path: &Path, allow: bool, errs: &mut ErrorList) {
    reference(&d.name, &d.kind, d.api_group.as_deref(), path, allow, errs);
}

fn data_source_ref(d: &TypedObjectReference, path: &Path, allow: bool, errs: &mut ErrorList) {
    reference(&d.name, &d.kind, d.api_group.as_deref(), path, allow, errs);
    if let Some(ns) = d.namespace.as_deref().filter(|n| !n.is_empty()) {
        invalid_each(
            errs,
            &path.child("namespace"),
            ns,
            name_is_dns_label(ns, false),
        );
    }
}

/// Go's `ValidatePersistentVolumeClaimUpdate`: metadata kept, the new claim valid,
/// and the spec kept but for a first `volumeName`, a storage class moved from the
/// beta annotation (or set where there was none), and, once bound, the storage
/// request and volume attributes class; the request not below the status capacity;
/// `volumeMode` kept; a volume attributes class not removed once applied.
pub fn validate_persistent_volume_claim_update(
    new: &PersistentVolumeClaim,
    old: &PersistentVolumeClaim,
) -> ErrorList {
    let opts = PersistentVolumeClaimSpecOptions::for_update(&old.spec);
    let meta = Path::new("metadata");
    let mut errs = validate_object_meta_update(&new.metadata, &old.metadata, &meta);
    errs.extend(validate_with(new, opts));
    let mut new_spec = new.spec.clone();
    let mut old_spec = old.spec.clone();
    if old.spec.volume_name.is_empty() {
        old_spec.volume_name = new.spec.volume_name.clone();
    }
    let old_annotation = old.metadata.annotations.get(STORAGE_CLASS_ANNOTATION);
    let new_annotation = new.metadata.annotations.get(STORAGE_CLASS_ANNOTATION);
    let from_annotation = old_annotation.is_some_and(|old_class| {
        old.spec.storage_class_name.is_none()
            && new.spec.storage_class_name.as_ref() == Some(old_class)
            && new_annotation.is_none_or(|n| n == old_class)
    });
    if from_annotation {
        new_spec.storage_class_name = None;
    } else {
        let (n, o) = (
            new_annotation.map_or("", String::as_str),
            old_annotation.map_or("", String::as_str),
        );
        if n != o {
            errs.push(Error::invalid(
                &meta.child("annotations").child(STORAGE_CLASS_ANNOTATION),
                n,
                FIELD_IMMUTABLE_ERROR_MSG,
            ));
        }
        let from_nil = new.spec.storage_class_name.as_ref().is_some_and(|class| {
            old.spec.storage_class_name.is_none() && old_annotation.is_none_or(|a| a == class)
        });
        if from_nil {
            new_spec.storage_class_name = old_spec.storage_class_name.clone();
        }
    }
    let bound = new.status.phase == "Bound";
    // Go puts the old request in the new claim's map, a zero one if the old had none.
    if bound && !new_spec.resources.requests.is_empty() {
        let old_storage = old.spec.resources.requests.get("storage");
        new_spec.resources.requests.insert(
            "storage".to_owned(),
            old_storage.cloned().unwrap_or_default(),
        );
    }
    if bound {
        new_spec.volume_attributes_class_name = old_spec.volume_attributes_class_name.clone();
    }
    if new_spec != old_spec {
        // Go appends `diff.Diff` of the two internal specs.
        errs.push(Error::forbidden(
            &Path::new("spec"),
            with_internal_diff(
                "spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims",
                "core.PersistentVolumeClaimSpec",
                &old_spec,
                &new_spec,
            ),
        ));
    }
    let zero = Quantity::default();
    let storage = |m: &std::collections::BTreeMap<String, Quantity>| {
        m.get("storage").cloned().unwrap_or_else(|| zero.clone())
    };
    let new_size = storage(&new.spec.resources.requests);
    if new_size < storage(&old.spec.resources.requests) && new_size <= storage(&old.status.capacity)
    {
        errs.push(Error::forbidden(
            &Path::new("spec")
                .child("resources")
                .child("requests")
                .child("storage"),
            "field can not be less than status.capacity",
        ));
    }
    volume_mode_kept(&new.spec.volume_mode, &old.spec.volume_mode, &mut errs);
    if old.spec.volume_attributes_class_name != new.spec.volume_attributes_class_name
        && old.status.current_volume_attributes_class_name.is_some()
    {
        let spec = Path::new("spec");
        let vp = spec.child("volumeAttributesClassName");
        match new.spec.volume_attributes_class_name.as_deref() {
            None => errs.push(Error::forbidden(
                &vp,
                "update to nil is forbidden when status.currentVolumeAttributesClassName is not nil",
            )),
            Some("") => errs.push(Error::forbidden(
                &vp,
                "update to empty string is forbidden when status.currentVolumeAttributesClassName is not nil",
            )),
            Some(_) => {}
        }
    }
    #[cfg(feature = "v1_37")]
    health_status(new, Some(old), &mut errs);
    errs
}

/// Go's `ValidatePersistentVolumeClaimStatusUpdate`: metadata kept, a resourceVersion,
/// access modes, capacity quantities, allocated resources and their resize statuses.
pub fn validate_persistent_volume_claim_status_update(
    new: &PersistentVolumeClaim,
    old: &PersistentVolumeClaim,
) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    if new.metadata.resource_version.is_empty() {
        errs.push(Error::required(&Path::new("resourceVersion"), ""));
    }
    if new.spec.access_modes.is_empty() {
        errs.push(Error::required(&Path::new("Spec").child("accessModes"), ""));
    }
    let status = Path::new("status");
    let cp = status.child("capacity");
    for (name, q) in &new.status.capacity {
        basic_resource(q, &cp.key(name), &mut errs);
    }
    let sp = status.child("allocatedResourceStatuses");
    for (name, value) in &new.status.allocated_resource_statuses {
        resource_key(name, &sp, &mut errs);
        if !RESIZE_STATUSES.contains(&value.as_str()) {
            errs.push(Error::not_supported(
                &sp,
                BadValue::json_string(name),
                RESIZE_STATUSES,
            ));
        }
    }
    let ap = status.child("allocatedResources");
    for (name, q) in &new.status.allocated_resources {
        if resource_key(name, &ap, &mut errs) {
            let p = ap.key(name);
            if q.value() < 0 {
                basic_resource(q, &p, &mut errs);
            } else {
                quantity_value(q, &p, &mut errs);
            }
        }
    }
    #[cfg(feature = "v1_37")]
    {
        super::volume_health::validate_volume_health_reasons(
            new.status.health_status.as_ref(),
            &status.child("healthStatus"),
            &mut errs,
        );
        health_status(new, Some(old), &mut errs);
    }
    errs
}

/// Go's `validateBasicResource`: a quantity whose value is not negative.
fn basic_resource(q: &Quantity, path: &Path, errs: &mut ErrorList) {
    if q.value() < 0 {
        errs.push(Error::invalid(
            path,
            q.value(),
            "must be a valid resource quantity",
        ));
    }
}

/// Go's `validatePersistentVolumeClaimResourceKey`: a qualified name, `storage` among
/// the native resources; returns whether it passed.
fn resource_key(name: &str, path: &Path, errs: &mut ErrorList) -> bool {
    let msgs = is_qualified_name(name);
    if !msgs.is_empty() {
        invalid_each(errs, path, name, msgs);
        return false;
    }
    let native = !name.contains('/') || name.contains("kubernetes.io/");
    if native && name != "storage" {
        errs.push(Error::not_supported(path, name, &["storage"]));
        return false;
    }
    true
}
