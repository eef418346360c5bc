//! A write of a Pod's `/ephemeralcontainers` (Go's `ValidatePodEphemeralContainersUpdate`,
//! which the ephemeral containers strategy's `ValidateUpdate` runs): the new pod valid
//! (its ephemeral containers as on create: unique names, a target among the pod's other
//! containers, none of the fields a debug container may not have), its annotations
//! updated as a pod's may be, not a static pod, and no existing ephemeral container
//! removed or changed (they are matched by name: a patch may reorder them).

use apimachinery::util::validation::field::{Error, ErrorList, Path, go_quote};

use crate::core::v1::Pod;
use crate::go_internal_json::with_internal_diff;
use crate::validation::validate_object_meta_update;

use super::pod::validate_pod_metadata_and_spec;
use super::pod_annotations::validate_pod_annotation_updates;

/// Go's `MirrorPodAnnotationKey`: a static pod's mirror.
const MIRROR_POD: &str = "kubernetes.io/config.mirror";

/// Go's `ValidatePodEphemeralContainersUpdate`, in Go's order (a static pod's refusal
/// is the only error, as in Go).
pub fn validate_pod_ephemeral_containers_update(new: &Pod, old: &Pod) -> ErrorList {
    let meta = Path::new("metadata");
    let mut errs = validate_object_meta_update(&new.metadata, &old.metadata, &meta);
    errs.extend(validate_pod_metadata_and_spec(new, Some(old)));
    validate_pod_annotation_updates(new, old, &meta.child("annotations"), &mut errs);
    if old.metadata.annotations.contains_key(MIRROR_POD) {
        let mut only = ErrorList::default();
        // Go's `field.NewPath("")`, which it writes as `[]`.
        let empty = Path::root();
        only.push(Error::forbidden(
            &empty.key(""),
            "static pods do not support ephemeral containers",
        ));
        return only;
    }
    let spec = Path::new("spec");
    let path = spec.child("ephemeralContainers");
    // The new container of a name (its last, as Go's map by name keeps), found by a
    // scan: a pod has few, and a map would compile std's map code for one more type.
    let written = |name: &str| {
        new.spec
            .ephemeral_containers
            .iter()
            .rev()
            .find(|c| c.name == name)
    };
    for before in &old.spec.ephemeral_containers {
        let quoted = go_quote(&before.name);
        // Go's messages end with a newline (the removed one's too).
        match written(before.name.as_str()) {
            None => errs.push(Error::forbidden(
                &path,
                format!("existing ephemeral containers {quoted} may not be removed\n"),
            )),
            Some(now) if now != before => errs.push(Error::forbidden(
                &path,
                with_internal_diff(
                    &format!("existing ephemeral containers {quoted} may not be changed"),
                    "core.EphemeralContainer",
                    before,
                    now,
                ),
            )),
            Some(_) => {}
        }
    }
    errs
}
