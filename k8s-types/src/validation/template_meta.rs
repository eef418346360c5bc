//! Go's `ValidateTemplateObjectMeta`: the metadata of an object template (a
//! ResourceClaimTemplate's claim) may carry labels and annotations only.

use apimachinery::apis::meta::v1::ObjectMeta;
use apimachinery::apis::meta::v1::validation::{validate_annotations, validate_labels};
use apimachinery::util::validation::field::{Error, ErrorList, Path};

/// Labels and annotations valid, every other field unset. Go finds the set fields by
/// reflection and names each by its Go field name with the first letter lowered
/// (hence `uID`), in the struct's order.
pub fn validate_template_object_meta(meta: &ObjectMeta, path: &Path) -> ErrorList {
    let mut errs = validate_annotations(&meta.annotations, &path.child("annotations"));
    errs.extend(validate_labels(&meta.labels, &path.child("labels")));
    let set = [
        ("name", !meta.name.is_empty()),
        ("generateName", !meta.generate_name.is_empty()),
        ("namespace", !meta.namespace.is_empty()),
        ("selfLink", !meta.self_link.is_empty()),
        ("uID", !meta.uid.is_empty()),
        ("resourceVersion", !meta.resource_version.is_empty()),
        ("generation", meta.generation != 0),
        ("creationTimestamp", !meta.creation_timestamp.is_zero()),
        ("deletionTimestamp", meta.deletion_timestamp.is_some()),
        (
            "deletionGracePeriodSeconds",
            meta.deletion_grace_period_seconds.is_some(),
        ),
        ("ownerReferences", !meta.owner_references.is_empty()),
        ("finalizers", !meta.finalizers.is_empty()),
        ("managedFields", !meta.managed_fields.is_empty()),
    ];
    for (name, is_set) in set {
        if is_set {
            errs.push(Error::forbidden(&path.child(name), "cannot be set"));
        }
    }
    errs
}
