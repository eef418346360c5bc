//! `extensions/v1beta1` and `apps/v1beta1` Deployments ⇄ the `apps/v1` hub.
//!
//! Their `spec.rollbackTo` (a rollback request, deprecated since 1.8) has no field in
//! `apps/v1`. Kubernetes keeps it in the `deprecated.deployment.rollback.to` annotation
//! of the `apps/v1` object (the revision as a decimal integer) and turns the annotation
//! back into `rollbackTo` going the other way, removing it; so does this. Without
//! `rollbackTo`, the annotation is removed going to `apps/v1`, as in Kubernetes.

use apimachinery::apis::meta::v1::ObjectMeta;
use apimachinery::conversion::{AutoConvert, ConversionError, Scope};

pub use crate::deprecated_fields::DEPRECATED_ROLLBACK_TO;

fn revision_to_annotation(revision: Option<i64>, meta: &mut ObjectMeta) {
    match revision {
        Some(r) => {
            meta.annotations
                .insert(DEPRECATED_ROLLBACK_TO.to_owned(), r.to_string());
        }
        None => {
            meta.annotations.remove(DEPRECATED_ROLLBACK_TO);
        }
    }
}

macro_rules! rollback_conversion {
    ($(#[$doc:meta])* $module:ident, $version:path) => {
        $(#[$doc])*
        pub mod $module {
            use super::*;
            use $version as old;
            use crate::apps::v1 as hub;

            /// To `apps/v1`: the generated conversion, then `rollbackTo` into the annotation.
            pub fn to_hub(
                d: &old::Deployment,
                scope: &Scope<'_>,
            ) -> Result<hub::Deployment, ConversionError> {
                let mut out: hub::Deployment = d.auto_convert_ref(scope)?;
                // A rollback request without a revision means "the last one": revision 0.
                let revision = d.spec.rollback_to.as_ref().map(|r| r.revision);
                revision_to_annotation(revision, &mut out.metadata);
                Ok(out)
            }

            /// From `apps/v1`: the generated conversion, then the annotation into
            /// `rollbackTo`; an annotation that is not an integer is an error.
            pub fn from_hub(
                d: &hub::Deployment,
                scope: &Scope<'_>,
            ) -> Result<old::Deployment, ConversionError> {
                let mut out: old::Deployment = d.auto_convert_ref(scope)?;
                let revision = super::super::take_int_annotation::<hub::Deployment, old::Deployment>(
                    &mut out.metadata.annotations,
                    DEPRECATED_ROLLBACK_TO,
                )?;
                if let Some(revision) = revision {
                    out.spec.rollback_to = Some(old::RollbackConfig { revision });
                }
                Ok(out)
            }
        }
    };
}

#[cfg(feature = "extensions")]
rollback_conversion!(
    /// `extensions/v1beta1` Deployment ⇄ `apps/v1`.
    extensions_v1beta1,
    crate::extensions::v1beta1
);
rollback_conversion!(
    /// `apps/v1beta1` Deployment ⇄ `apps/v1`.
    apps_v1beta1,
    crate::apps::v1beta1
);
