//! `v1` PersistentVolume (Go's `ValidatePersistentVolume`, its update and status
//! update, and `ValidatePersistentVolumeSpec`, which `storage.k8s.io` VolumeAttachment
//! runs on an inline volume spec too), as the strategy runs them.

use apimachinery::apis::meta::v1::validation::{FIELD_IMMUTABLE_ERROR_MSG, name_is_dns_subdomain};
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
use apimachinery::util::validation::is_valid_label_value;

use super::pv_sources::validate_pv_source;
use crate::core::v1::{PersistentVolume, PersistentVolumeSpec, VolumeNodeAffinity};
use crate::go_internal_json::with_internal_diff;
use crate::validation::go_value::go_json;
use crate::validation::pod_placement::validate_node_selector_allowing;
use crate::validation::{invalid_each, validate_object_meta, validate_object_meta_update};

/// Go's `supportedAccessModes`, sorted as `sets.List` lists them.
pub(super) const ACCESS_MODES: &[&str] = &[
    "ReadOnlyMany",
    "ReadWriteMany",
    "ReadWriteOnce",
    "ReadWriteOncePod",
];
pub(super) const VOLUME_MODES: &[&str] = &["Block", "Filesystem"];
const RECLAIM_POLICIES: &[&str] = &["Delete", "Recycle", "Retain"];
/// Go's `core.MountOptionAnnotation`.
const MOUNT_OPTIONS_ANNOTATION: &str = "volume.beta.kubernetes.io/mount-options";

/// Go's `PersistentVolumeSpecValidationOptions`. The default is Go's zero value (what
/// VolumeAttachment passes); [`for_create`](Self::for_create) and
/// [`for_update`](Self::for_update) are the strategy's, at 1.36's defaults
/// (`VolumeAttributesClass` is GA).
#[derive(Clone, Copy, Debug, Default)]
pub struct PersistentVolumeSpecOptions {
    /// Go's `EnableVolumeAttributesClass`: check `volumeAttributesClassName`.
    pub enable_volume_attributes_class: bool,
    /// Go's `AllowInvalidLabelValueInRequiredNodeAffinity`: an update keeps the label
    /// values the old volume's required node affinity already had.
    pub allow_invalid_label_value_in_required_node_affinity: bool,
}

impl PersistentVolumeSpecOptions {
    /// Go's `ValidationOptionsForPersistentVolume` on create.
    pub fn for_create() -> Self {
        PersistentVolumeSpecOptions {
            enable_volume_attributes_class: true,
            allow_invalid_label_value_in_required_node_affinity: false,
        }
    }

    /// Go's `ValidationOptionsForPersistentVolume` for an update from `old`.
    pub fn for_update(old: &PersistentVolume) -> Self {
        let terms = old
            .spec
            .node_affinity
            .as_ref()
            .and_then(|a| a.required.as_ref())
            .and_then(|r| r.node_selector_terms.as_deref())
            .unwrap_or_default();
        let invalid = terms.iter().any(|t| {
            t.match_expressions
                .iter()
                .flat_map(|e| &e.values)
                .any(|v| !is_valid_label_value(v).is_empty())
        });
        PersistentVolumeSpecOptions {
            enable_volume_attributes_class: true,
            allow_invalid_label_value_in_required_node_affinity: invalid,
        }
    }
}

/// Go's `ValidatePersistentVolumeSpec`; `inline` for a spec inside another object (a
/// VolumeAttachment's CSI-migrated volume), which must be a CSI volume without claim,
/// capacity, node affinity or storage class.
pub fn validate_persistent_volume_spec(
    spec: &PersistentVolumeSpec,
    pv_name: &str,
    inline: bool,
    path: &Path,
    opts: PersistentVolumeSpecOptions,
) -> ErrorList {
    let mut errs = ErrorList::default();
    if inline {
        let forbidden = "may not be specified in the context of inline volumes";
        if spec.claim_ref.is_some() {
            errs.push(Error::forbidden(&path.child("claimRef"), forbidden));
        }
        if !spec.capacity.is_empty() {
            errs.push(Error::forbidden(&path.child("capacity"), forbidden));
        }
        if spec.csi.is_none() {
            errs.push(Error::required(
                &path.child("csi"),
                "has to be specified in the context of inline volumes",
            ));
        }
    }
    access_modes(&spec.access_modes, path, "", &mut errs);
    if !inline {
        let cp = path.child("capacity");
        if spec.capacity.is_empty() {
            errs.push(Error::required(&cp, ""));
        }
        if !spec.capacity.contains_key("storage") || spec.capacity.len() > 1 {
            let value = if spec.capacity.is_empty() {
                BadValue::null()
            } else {
                go_json(&spec.capacity)
            };
            errs.push(Error::not_supported(&cp, value, &["storage"]));
        }
        for (name, q) in &spec.capacity {
            let p = cp.key(name);
            if q.value() < 0 {
                errs.push(Error::invalid(
                    &p,
                    q.value(),
                    "must be a valid resource quantity",
                ));
            }
            if q.sign() <= 0 {
                errs.push(Error::invalid(
                    &p,
                    q.to_string(),
                    "must be greater than zero",
                ));
            }
        }
    }
    let policy = &spec.persistent_volume_reclaim_policy;
    let rp = path.child("persistentVolumeReclaimPolicy");
    if !policy.is_empty() {
        if inline {
            if policy != "Retain" {
                errs.push(Error::forbidden(
                    &rp,
                    "may only be Retain in the context of inline volumes",
                ));
            }
        } else if !RECLAIM_POLICIES.contains(&policy.as_str()) {
            errs.push(Error::not_supported(
                &rp,
                BadValue::json_string(policy),
                RECLAIM_POLICIES,
            ));
        }
    }
    let mut affinity = false;
    if let Some(a) = &spec.node_affinity {
        let ap = path.child("nodeAffinity");
        if inline {
            errs.push(Error::forbidden(
                &ap,
                "may not be specified in the context of inline volumes",
            ));
        } else {
            affinity = true;
            volume_node_affinity(a, opts, &ap, &mut errs);
        }
    }
    if validate_pv_source(spec, pv_name, path, &mut errs) && !affinity {
        errs.push(Error::required(
            &path.child("nodeAffinity"),
            "Local volume requires node affinity",
        ));
    }
    if spec
        .host_path
        .as_ref()
        .is_some_and(|h| clean_is_root(&h.path))
        && policy == "Recycle"
    {
        errs.push(Error::forbidden(
            &rp,
            "may not be 'recycle' for a hostPath mount of '/'",
        ));
    }
    if !spec.storage_class_name.is_empty() {
        let sp = path.child("storageClassName");
        if inline {
            errs.push(Error::forbidden(
                &sp,
                "may not be specified in the context of inline volumes",
            ));
        } else {
            let name = &spec.storage_class_name;
            invalid_each(&mut errs, &sp, name, name_is_dns_subdomain(name, false));
        }
    }
    if let Some(mode) = &spec.volume_mode {
        let mp = path.child("volumeMode");
        if inline {
            if mode != "Filesystem" {
                errs.push(Error::forbidden(
                    &mp,
                    "may not specify volumeMode other than Filesystem in the context of inline volumes",
                ));
            }
        } else if !VOLUME_MODES.contains(&mode.as_str()) {
            errs.push(Error::not_supported(
                &mp,
                BadValue::json_string(mode),
                VOLUME_MODES,
            ));
        }
    }
    if let Some(class) = spec
        .volume_attributes_class_name
        .as_ref()
        .filter(|_| opts.enable_volume_attributes_class)
    {
        let vp = path.child("volumeAttributesClassName");
        if class.is_empty() {
            errs.push(Error::required(&vp, "an empty string is disallowed"));
        } else {
            invalid_each(&mut errs, &vp, class, name_is_dns_subdomain(class, false));
        }
        if spec.csi.is_none() {
            errs.push(Error::required(
                &path.child("csi"),
                "has to be specified when using volumeAttributesClassName",
            ));
        }
    }
    errs
}

/// The access-mode checks a PersistentVolume and a claim share: at least one (the
/// claim's `Required` has a detail), each known, `ReadWriteOncePod` alone.
pub(super) fn access_modes(modes: &[String], path: &Path, detail: &str, errs: &mut ErrorList) {
    let ap = path.child("accessModes");
    if modes.is_empty() {
        errs.push(Error::required(&ap, detail));
    }
    let (mut once_pod, mut other) = (false, false);
    for mode in modes {
        if !ACCESS_MODES.contains(&mode.as_str()) {
            errs.push(Error::not_supported(
                &ap,
                BadValue::json_string(mode),
                ACCESS_MODES,
            ));
        } else if mode == "ReadWriteOncePod" {
            once_pod = true;
        } else {
            other = true;
        }
    }
    if once_pod && other {
        errs.push(Error::forbidden(
            &ap,
            "may not use ReadWriteOncePod with other access modes",
        ));
    }
}

/// Go's `validateVolumeNodeAffinity`: required terms, valid.
fn volume_node_affinity(
    a: &VolumeNodeAffinity,
    opts: PersistentVolumeSpecOptions,
    path: &Path,
    errs: &mut ErrorList,
) {
    let rp = path.child("required");
    match &a.required {
        Some(r) => validate_node_selector_allowing(
            r,
            opts.allow_invalid_label_value_in_required_node_affinity,
            &rp,
            errs,
        ),
        None => errs.push(Error::required(
            &rp,
            "must specify required node constraints",
        )),
    }
}

/// Whether Go's `path.Clean` makes `p` the root, `/`.
fn clean_is_root(p: &str) -> bool {
    if !p.starts_with('/') {
        return false;
    }
    let mut depth = 0usize;
    for s in p.split('/') {
        match s {
            "" | "." => {}
            ".." => depth = depth.saturating_sub(1),
            _ => depth += 1,
        }
    }
    depth == 0
}

/// Go's `ValidatePersistentVolume` and the volume plugins' check the strategy adds
/// (`pkg/volume/validation`): mount options only for the sources that take them.
pub fn validate_persistent_volume(pv: &PersistentVolume) -> ErrorList {
    validate_with(pv, PersistentVolumeSpecOptions::for_create())
}

fn validate_with(pv: &PersistentVolume, opts: PersistentVolumeSpecOptions) -> ErrorList {
    let mut errs = validate_pv(pv, opts);
    mount_options(pv, &mut errs);
    errs
}

fn validate_pv(pv: &PersistentVolume, opts: PersistentVolumeSpecOptions) -> ErrorList {
    let mut errs = validate_object_meta(
        &pv.metadata,
        false,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    errs.extend(validate_persistent_volume_spec(
        &pv.spec,
        &pv.metadata.name,
        false,
        &Path::new("spec"),
        opts,
    ));
    errs
}

/// Go's `checkMountOption`.
fn mount_options(pv: &PersistentVolume, errs: &mut ErrorList) {
    let s = &pv.spec;
    let takes_options = s.gce_persistent_disk.is_some()
        || s.aws_elastic_block_store.is_some()
        || s.glusterfs.is_some()
        || s.nfs.is_some()
        || s.rbd.is_some()
        || s.quobyte.is_some()
        || s.iscsi.is_some()
        || s.cinder.is_some()
        || s.cephfs.is_some()
        || s.azure_file.is_some()
        || s.vsphere_volume.is_some()
        || s.azure_disk.is_some()
        || s.photon_persistent_disk.is_some();
    if !takes_options
        && pv
            .metadata
            .annotations
            .contains_key(MOUNT_OPTIONS_ANNOTATION)
    {
        errs.push(Error::forbidden(
            &Path::new("metadata")
                .child("annotations")
                .child(MOUNT_OPTIONS_ANNOTATION),
            "may not specify mount options for this volume type",
        ));
    }
}

/// The strategy's update check: the new volume as on create, then Go's
/// `ValidatePersistentVolumeUpdate` (which validates the new volume once more, so its
/// errors come twice, as in Go): the source kept (a CSI controller-expand secret may
/// be added), `volumeMode` kept, node affinity kept but for beta-to-GA label keys,
/// a volume attributes class not removed.
pub fn validate_persistent_volume_update(
    new: &PersistentVolume,
    old: &PersistentVolume,
) -> ErrorList {
    let opts = PersistentVolumeSpecOptions::for_update(old);
    let mut errs = validate_with(new, opts);
    errs.extend(validate_pv(new, opts));
    let mut source = new.spec.clone();
    if let (Some(o), Some(n)) = (&old.spec.csi, &mut source.csi) {
        if o.controller_expand_secret_ref.is_none() {
            n.controller_expand_secret_ref = None;
        }
    }
    if !same_source(&source, &old.spec) {
        // Go appends `diff.Diff` of the two internal sources; v1 inlines the source in
        // the spec, whose other fields the internal source's table does not read.
        errs.push(Error::forbidden(
            &Path::new("spec").child("persistentvolumesource"),
            with_internal_diff(
                "spec.persistentvolumesource is immutable after creation",
                "core.PersistentVolumeSource",
                &old.spec,
                &source,
            ),
        ));
    }
    volume_mode_kept(&new.spec.volume_mode, &old.spec.volume_mode, &mut errs);
    if let Some(old_affinity) = &old.spec.node_affinity {
        if !same_affinity_but_ga_keys(new.spec.node_affinity.as_ref(), old_affinity) {
            errs.push(Error::invalid(
                &Path::new("nodeAffinity"),
                new.spec
                    .node_affinity
                    .as_ref()
                    .map_or_else(BadValue::null, affinity_value),
                format!("{FIELD_IMMUTABLE_ERROR_MSG}, except for updating from beta label to GA"),
            ));
        }
    }
    if old.spec.volume_attributes_class_name.is_some()
        && new.spec.volume_attributes_class_name.is_none()
    {
        errs.push(Error::forbidden(
            &Path::new("spec").child("volumeAttributesClassName"),
            "update from non-nil value to nil is forbidden",
        ));
    }
    errs
}

/// Go's `ValidateImmutableField` on a volume's or claim's `volumeMode`, which Go
/// reports at `volumeMode`, without its parents.
pub(super) fn volume_mode_kept(new: &Option<String>, old: &Option<String>, errs: &mut ErrorList) {
    if new != old {
        errs.push(Error::invalid(
            &Path::new("volumeMode"),
            new.as_deref()
                .map_or_else(BadValue::null, BadValue::json_string),
            FIELD_IMMUTABLE_ERROR_MSG,
        ));
    }
}

/// Go's `ValidatePersistentVolumeStatusUpdate`: metadata kept, a resourceVersion.
pub fn validate_persistent_volume_status_update(
    new: &PersistentVolume,
    old: &PersistentVolume,
) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    if new.metadata.resource_version.is_empty() {
        errs.push(Error::required(&Path::new("resourceVersion"), ""));
    }
    errs
}

/// Whether the two specs' sources (every field of Go's `PersistentVolumeSource`) are
/// equal.
fn same_source(a: &PersistentVolumeSpec, b: &PersistentVolumeSpec) -> bool {
    a.gce_persistent_disk == b.gce_persistent_disk
        && a.aws_elastic_block_store == b.aws_elastic_block_store
        && a.host_path == b.host_path
        && a.glusterfs == b.glusterfs
        && a.nfs == b.nfs
        && a.rbd == b.rbd
        && a.iscsi == b.iscsi
        && a.cinder == b.cinder
        && a.cephfs == b.cephfs
        && a.fc == b.fc
        && a.flocker == b.flocker
        && a.flex_volume == b.flex_volume
        && a.azure_file == b.azure_file
        && a.vsphere_volume == b.vsphere_volume
        && a.quobyte == b.quobyte
        && a.azure_disk == b.azure_disk
        && a.photon_persistent_disk == b.photon_persistent_disk
        && a.portworx_volume == b.portworx_volume
        && a.scale_io == b.scale_io
        && a.local == b.local
        && a.storageos == b.storageos
        && a.csi == b.csi
}

/// Go's `betaToGALabel`: the beta node labels an affinity may trade for GA ones.
fn beta_to_ga(key: &str) -> Option<&'static str> {
    Some(match key {
        "failure-domain.beta.kubernetes.io/zone" => "topology.kubernetes.io/zone",
        "failure-domain.beta.kubernetes.io/region" => "topology.kubernetes.io/region",
        "beta.kubernetes.io/instance-type" => "node.kubernetes.io/instance-type",
        "beta.kubernetes.io/os" => "kubernetes.io/os",
        "beta.kubernetes.io/arch" => "kubernetes.io/arch",
        _ => return None,
    })
}

/// Go's `validatePvNodeAffinity` equality: equal but for requirement keys moved from a
/// beta label to its GA one.
fn same_affinity_but_ga_keys(new: Option<&VolumeNodeAffinity>, old: &VolumeNodeAffinity) -> bool {
    let Some(new) = new else {
        return false;
    };
    let mut masked = old.clone();
    let new_terms = new
        .required
        .as_ref()
        .and_then(|r| r.node_selector_terms.as_deref())
        .unwrap_or_default();
    if let Some(terms) = masked
        .required
        .as_mut()
        .and_then(|r| r.node_selector_terms.as_mut())
    {
        for (t, nt) in terms.iter_mut().zip(new_terms) {
            for reqs in [
                (&mut t.match_expressions, &nt.match_expressions),
                (&mut t.match_fields, &nt.match_fields),
            ] {
                for (r, nr) in reqs.0.iter_mut().zip(reqs.1) {
                    if r.key != nr.key && beta_to_ga(&r.key) == Some(nr.key.as_str()) {
                        r.key = nr.key.clone();
                    }
                }
            }
        }
    }
    // Go's semantic equality holds an empty list equal to a missing one.
    let normalize = |a: &VolumeNodeAffinity| {
        let mut a = a.clone();
        if let Some(r) = a.required.as_mut() {
            if r.node_selector_terms.as_ref().is_some_and(Vec::is_empty) {
                r.node_selector_terms = None;
            }
        }
        a
    };
    normalize(&masked) == normalize(new)
}

/// A volume node affinity as Go's `json.Marshal` writes the internal struct.
fn affinity_value(a: &VolumeNodeAffinity) -> BadValue {
    use super::super::go_internal::{GoStruct, kept_list, list, or_null};
    let requirement = |r: &crate::core::v1::NodeSelectorRequirement| {
        GoStruct::new()
            .field("Key", r.key.as_str())
            .field("Operator", r.operator.as_str())
            .raw(
                "Values",
                list(&r.values, |v| {
                    super::super::go_internal::json_text(v.as_str())
                }),
            )
            .text()
    };
    let text = GoStruct::new()
        .raw(
            "Required",
            or_null(a.required.as_ref(), |r| {
                GoStruct::new()
                    .raw(
                        "NodeSelectorTerms",
                        kept_list(r.node_selector_terms.as_deref(), |t| {
                            GoStruct::new()
                                .raw("MatchExpressions", list(&t.match_expressions, requirement))
                                .raw("MatchFields", list(&t.match_fields, requirement))
                                .text()
                        }),
                    )
                    .text()
            }),
        )
        .text();
    BadValue::Json(text)
}
