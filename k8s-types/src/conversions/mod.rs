//! Hand-written conversions between versions of a kind and its hub, where the shapes
//! differ; the rest is generated (`#[derive(Convert)]` on the generated types, planned by
//! `cargo xtask codegen`; `generated/conversions.md` lists every pair and whether it is
//! complete).
//!
//! Each function follows what Kubernetes' own conversion functions do
//! (`pkg/apis/<group>/<version>/conversion.go`): the generated field-by-field conversion,
//! then a fix-up for what has no peer; or, for a nested struct whose shape differs, the
//! whole struct by hand, calling the generated conversions of what it holds. A field the
//! hub lacks is kept in an annotation of the hub where Kubernetes keeps it, so that
//! `v1beta1 → hub → v1beta1` gives back the original. Where Kubernetes loses something
//! on the way, so do these, and each module says what.
//!
//! | module | versions → hub | what moves |
//! | --- | --- | --- |
//! | [`custom_resource_definition`] | `apiextensions.k8s.io/v1beta1` → `v1` | spec-wide schema, subresources, columns, selectable fields ⇄ per version; `version`; webhook settings |
//! | [`daemon_set`] | `extensions/v1beta1` → `apps/v1` | `templateGeneration` ⇄ annotation |
//! | [`deployment`] | `extensions/v1beta1`, `apps/v1beta1` → `apps/v1` | `rollbackTo` ⇄ annotation |
//! | [`endpoint_slice`] | `discovery.k8s.io/v1beta1` → `v1` | `topology` ⇄ `zone`, `nodeName`, `deprecatedTopology` |
//! | [`horizontal_pod_autoscaler`] | `autoscaling/v1` → `v2` | CPU target ⇄ metrics; the rest ⇄ annotations |
//! | [`ingress`] | `extensions/v1beta1`, `networking.k8s.io/v1beta1` → `v1` | `serviceName`/`servicePort` ⇄ `service` |
//! | [`pod_disruption_budget`] | `policy/v1beta1` → `v1` | empty selector meaning |
//! | [`resource_claim`] | `resource.k8s.io/v1beta1` → `v1` | a request's own fields ⇄ `exactly` |
//! | [`resource_slice`] | `resource.k8s.io/v1beta1` → `v1` | a device's `basic` ⇄ the device; zero `nodeName`/`allNodes` ⇄ unset |
//! | [`role_binding`] | `rbac.authorization.k8s.io/v1alpha1` → `v1` | a subject's `apiVersion` ⇄ `apiGroup` |
//! | [`runtime_class`] | `node.k8s.io/v1alpha1` → `v1` | `spec` ⇄ top-level fields |
//!
//! Go also converts a hub version, and a kind's only version, through its internal type,
//! where its hand-written conversions move data: [`internal`] holds those, as the types'
//! internal forms.
//!
//! ```
//! use apimachinery::{runtime::Scheme, schema::GroupVersion};
//! use k8s_types::{apps, extensions};
//!
//! let scheme = Scheme::from_registry()?;
//! let mut old = extensions::v1beta1::Deployment::default();
//! old.spec.rollback_to = Some(extensions::v1beta1::RollbackConfig { revision: 3 });
//! let new: apps::v1::Deployment = scheme.convert(&old)?;
//! assert_eq!(new.metadata.annotations["deprecated.deployment.rollback.to"], "3");
//! let back: extensions::v1beta1::Deployment = scheme.convert(&new)?;
//! assert_eq!(back, old);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#[cfg(feature = "apiextensions")]
pub mod custom_resource_definition;
#[cfg(feature = "extensions")]
pub mod daemon_set;
#[cfg(feature = "apps")]
pub mod deployment;
#[cfg(feature = "discovery")]
pub mod endpoint_slice;
#[cfg(feature = "autoscaling")]
pub mod horizontal_pod_autoscaler;
#[cfg(feature = "networking")]
pub mod ingress;
#[cfg(feature = "scheme")]
pub mod internal;
#[cfg(feature = "policy")]
pub mod pod_disruption_budget;
#[cfg(feature = "resource")]
pub mod resource_claim;
#[cfg(feature = "resource")]
pub mod resource_slice;
#[cfg(feature = "rbac")]
pub mod role_binding;
#[cfg(feature = "node")]
pub mod runtime_class;

use apimachinery::conversion::{ConversionError, Convert, Scope};

/// A field that is optional in a version and a plain value in the hub: `None` is the
/// hub's zero value, and the hub's value always comes back as `Some`, as Go's generated
/// conversions do (`Convert_Pointer_int64_To_int64` reads nil as 0,
/// `Convert_int64_To_Pointer_int64` always allocates): a `v1beta1` StatefulSet's
/// `status.observedGeneration` is written as `0`.
pub mod nil_as_zero {
    use super::{ConversionError, Convert, Scope};

    /// `None` becomes the zero value.
    pub fn to_hub<A: Convert<B>, B: Default>(
        value: Option<A>,
        scope: &Scope<'_>,
    ) -> Result<B, ConversionError> {
        value.map_or_else(|| Ok(B::default()), |a| a.convert(scope))
    }

    /// Always `Some`.
    pub fn from_hub<B: Convert<A>, A>(
        value: B,
        scope: &Scope<'_>,
    ) -> Result<Option<A>, ConversionError> {
        value.convert(scope).map(Some)
    }
}

/// A field that is a plain value in a version and optional in the hub: always set going
/// to the hub, `None` is the zero value coming back.
pub mod always_set {
    use super::{ConversionError, Convert, Scope};

    /// Always `Some`.
    pub fn to_hub<A: Convert<B>, B>(
        value: A,
        scope: &Scope<'_>,
    ) -> Result<Option<B>, ConversionError> {
        value.convert(scope).map(Some)
    }

    /// `None` becomes the zero value.
    pub fn from_hub<B: Convert<A>, A: Default>(
        value: Option<B>,
        scope: &Scope<'_>,
    ) -> Result<A, ConversionError> {
        value.map_or_else(|| Ok(A::default()), |b| b.convert(scope))
    }
}

/// Reads an integer annotation Kubernetes keeps a field in, removing it; an annotation
/// that is not an integer is an error naming it and its value, as in Go.
#[cfg(feature = "apps")]
pub(crate) fn take_int_annotation<From: 'static, To: 'static>(
    annotations: &mut std::collections::BTreeMap<String, String>,
    key: &str,
) -> Result<Option<i64>, ConversionError> {
    let Some(text) = annotations.remove(key) else {
        return Ok(None);
    };
    text.parse().map(Some).map_err(|e| {
        ConversionError::unrepresentable::<From, To>(format!(
            "annotation {key}={text:?} is not an int64: {e}"
        ))
        .at_key(&key)
        .in_field("annotations")
        .in_field("metadata")
    })
}
