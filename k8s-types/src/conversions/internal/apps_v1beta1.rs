//! Go's `pkg/apis/apps/v1beta1/conversion.go`: a `v1beta1` StatefulSet's claim templates
//! are written with their kind, as in `apps/v1` ([`super::apps_v1`]).

use apimachinery::conversion::ConversionError;

use super::apps_v1::{claim_templates_externalize, claim_templates_internalize};
use crate::apps::v1beta1::StatefulSetSpec;

/// The claim templates carry no kind internally.
pub fn stateful_set_spec_internalize(spec: &mut StatefulSetSpec) -> Result<(), ConversionError> {
    claim_templates_internalize(&mut spec.volume_claim_templates);
    Ok(())
}

/// The claim templates are written as `v1` `PersistentVolumeClaim`s.
pub fn stateful_set_spec_externalize(spec: &mut StatefulSetSpec) {
    claim_templates_externalize(&mut spec.volume_claim_templates);
}
