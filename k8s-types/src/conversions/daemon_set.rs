//! `extensions/v1beta1` DaemonSet ⇄ the `apps/v1` hub.
//!
//! `spec.templateGeneration` has no field in `apps/v1`; Kubernetes keeps it in the
//! `deprecated.daemonset.template.generation` annotation, which it always writes (its
//! internal field is a plain integer, so an absent one is written as `0`), and reads
//! back into the field, removing it. This does the same (the field is a plain integer
//! in `extensions/v1beta1` too, so absent is `0` on both sides).

use apimachinery::conversion::{AutoConvert, ConversionError, Scope};

pub use crate::deprecated_fields::DEPRECATED_TEMPLATE_GENERATION;

/// `extensions/v1beta1` DaemonSet ⇄ `apps/v1`.
pub mod extensions_v1beta1 {
    use super::*;
    use crate::apps::v1 as hub;
    use crate::extensions::v1beta1 as old;

    /// To `apps/v1`: the generated conversion, then `templateGeneration` into the
    /// annotation.
    pub fn to_hub(
        d: &old::DaemonSet,
        scope: &Scope<'_>,
    ) -> Result<hub::DaemonSet, ConversionError> {
        let mut out: hub::DaemonSet = d.auto_convert_ref(scope)?;
        let generation = d.spec.template_generation;
        out.metadata.annotations.insert(
            DEPRECATED_TEMPLATE_GENERATION.to_owned(),
            generation.to_string(),
        );
        Ok(out)
    }

    /// From `apps/v1`: the generated conversion, then the annotation into
    /// `templateGeneration`; an annotation that is not an integer is an error.
    pub fn from_hub(
        d: &hub::DaemonSet,
        scope: &Scope<'_>,
    ) -> Result<old::DaemonSet, ConversionError> {
        let mut out: old::DaemonSet = d.auto_convert_ref(scope)?;
        let generation = crate::conversions::take_int_annotation::<hub::DaemonSet, old::DaemonSet>(
            &mut out.metadata.annotations,
            DEPRECATED_TEMPLATE_GENERATION,
        )?;
        if let Some(generation) = generation {
            out.spec.template_generation = generation;
        }
        Ok(out)
    }
}
