//! Go's `pkg/apis/apps/v1/conversion.go`, as internal forms of the `apps/v1` types.
//!
//! The internal Deployment keeps `spec.rollbackTo` and the internal DaemonSet
//! `spec.templateGeneration`, which `apps/v1` has no field for: Go's conversion writes
//! them to annotations, and so does the internal form here, in the number format Go
//! writes.

use apimachinery::conversion::ConversionError;

use crate::apps::v1::{DaemonSet, Deployment, StatefulSetSpec};
use crate::core::v1::PersistentVolumeClaim;

pub use crate::deprecated_fields::{DEPRECATED_ROLLBACK_TO, DEPRECATED_TEMPLATE_GENERATION};

/// The revision of the rollback annotation, in Go's format; an empty annotation is no
/// rollback (and is gone on the way back); one that is not an int64 fails, as in Go.
pub fn deployment_internalize(d: &mut Deployment) -> Result<(), ConversionError> {
    let annotations = &mut d.metadata.annotations;
    match annotations.get(DEPRECATED_ROLLBACK_TO).map(String::as_str) {
        None => {}
        Some("") => {
            annotations.remove(DEPRECATED_ROLLBACK_TO);
        }
        Some(text) => {
            let revision: i64 = text.parse().map_err(|e| {
                ConversionError::unrepresentable::<Deployment, Deployment>(format!(
                    "failed to parse annotation[{DEPRECATED_ROLLBACK_TO}]={text} as int64: {e}"
                ))
            })?;
            annotations.insert(DEPRECATED_ROLLBACK_TO.to_owned(), revision.to_string());
        }
    }
    Ok(())
}

/// Nothing more: the annotation is where the internal form keeps the revision.
pub fn deployment_externalize(_: &mut Deployment) {}

/// The template generation of the annotation, in Go's format; one that is not an int64
/// fails, as in Go.
pub fn daemon_set_internalize(ds: &mut DaemonSet) -> Result<(), ConversionError> {
    let annotations = &mut ds.metadata.annotations;
    if let Some(text) = annotations.get(DEPRECATED_TEMPLATE_GENERATION) {
        let generation: i64 = text.parse().map_err(|e| {
            ConversionError::unrepresentable::<DaemonSet, DaemonSet>(format!(
                "annotation[{DEPRECATED_TEMPLATE_GENERATION}]={text}: {e}"
            ))
        })?;
        annotations.insert(
            DEPRECATED_TEMPLATE_GENERATION.to_owned(),
            generation.to_string(),
        );
    }
    Ok(())
}

/// Go always writes the template generation, 0 when the internal object has none.
pub fn daemon_set_externalize(ds: &mut DaemonSet) {
    ds.metadata
        .annotations
        .entry(DEPRECATED_TEMPLATE_GENERATION.to_owned())
        .or_insert_with(|| "0".to_owned());
}

/// The claim templates carry no kind internally.
pub fn stateful_set_spec_internalize(spec: &mut StatefulSetSpec) -> Result<(), ConversionError> {
    claim_templates_internalize(&mut spec.volume_claim_templates);
    Ok(())
}

/// The claim templates are written as `v1` `PersistentVolumeClaim`s, as Go's reflective
/// conversion did before 1.17 (issue 87583).
pub fn stateful_set_spec_externalize(spec: &mut StatefulSetSpec) {
    claim_templates_externalize(&mut spec.volume_claim_templates);
}

/// A StatefulSet's claim templates without a kind, as the internal type holds them.
pub(super) fn claim_templates_internalize(claims: &mut [PersistentVolumeClaim]) {
    for claim in claims {
        claim.type_meta = Default::default();
    }
}

/// A StatefulSet's claim templates as every external version writes them.
pub(super) fn claim_templates_externalize(claims: &mut [PersistentVolumeClaim]) {
    for claim in claims {
        claim.type_meta.api_version = "v1".to_owned();
        claim.type_meta.kind = "PersistentVolumeClaim".to_owned();
    }
}
