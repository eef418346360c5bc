//! The defaults Kubernetes applies to the old workload versions that the newer ones
//! require: an absent selector is the pod template's labels, and an object without
//! labels takes the template's (Go's `SetDefaults_Deployment`, `_DaemonSet`,
//! `_ReplicaSet` of `extensions/v1beta1` and `_Deployment`, `_StatefulSet` of
//! `apps/v1beta1`). Registered at link time, applied by
//! [`Scheme::default`](apimachinery::runtime::Scheme::default), as a decoder for those
//! versions would; `kapi convert` applies them before converting to `apps/v1`, where the
//! selector is required. Ingress paths of `extensions/v1beta1` and
//! `networking.k8s.io/v1beta1` without a `pathType` get `ImplementationSpecific` (Go's
//! `SetDefaults_HTTPIngressPath`), which `networking.k8s.io/v1` requires. An
//! `apiextensions.k8s.io/v1beta1` CustomResourceDefinition without `scope` is
//! `Namespaced`, and one converted by a webhook without `conversionReviewVersions`
//! offers `v1beta1` (Go's `SetDefaults_CustomResourceDefinitionSpec`): `v1` has no
//! default for either and requires both. Other defaults of these versions (replicas,
//! strategies, a CRD's `preserveUnknownFields`, which `v1beta1` makes `true` and no
//! CRD may set any more) are not applied here.
//!
//! ```
//! use apimachinery::runtime::Scheme;
//! use k8s_types::extensions::v1beta1::Deployment;
//!
//! let scheme = Scheme::from_registry()?;
//! let mut d: Deployment = serde_json::from_str(
//!     r#"{"spec":{"template":{"metadata":{"labels":{"app":"web"}}}}}"#,
//! )?;
//! scheme.default(&mut d);
//! let selector = d.spec.selector.as_ref().ok_or("no selector")?;
//! assert_eq!(selector.match_labels["app"], "web");
//! assert_eq!(d.metadata.labels["app"], "web");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#[cfg(any(feature = "apps", feature = "extensions"))]
use std::collections::BTreeMap;

#[cfg(any(feature = "apps", feature = "extensions"))]
use apimachinery::apis::meta::v1::{LabelSelector, ObjectMeta};
use apimachinery::conversion::{DefaulterRegistration, Defaulters};

/// Go's rule: with template labels, a nil selector selects them and empty object labels
/// copy them.
#[cfg(any(feature = "apps", feature = "extensions"))]
fn selector_and_labels(
    template_labels: &BTreeMap<String, String>,
    selector: &mut Option<LabelSelector>,
    meta: &mut ObjectMeta,
) {
    // Go tests the labels map against nil; a decoded empty map is nil too.
    if template_labels.is_empty() {
        return;
    }
    if selector.is_none() {
        *selector = Some(LabelSelector {
            match_labels: template_labels.clone(),
            ..LabelSelector::default()
        });
    }
    if meta.labels.is_empty() {
        meta.labels = template_labels.clone();
    }
}

#[cfg(any(feature = "apps", feature = "extensions"))]
macro_rules! template_defaults {
    ($d:ident, $ty:ty) => {
        $d.add(|obj: &mut $ty| {
            let spec = &mut obj.spec;
            selector_and_labels(
                &spec.template.metadata.labels,
                &mut spec.selector,
                &mut obj.metadata,
            );
        });
    };
}

/// The path type Kubernetes gives an Ingress path that has none.
pub const DEFAULT_PATH_TYPE: &str = "ImplementationSpecific";

#[cfg(any(feature = "extensions", feature = "networking"))]
macro_rules! ingress_path_types {
    ($d:ident, $ty:ty) => {
        $d.add(|obj: &mut $ty| {
            let rules = obj.spec.rules.iter_mut();
            let paths =
                rules.flat_map(|r| r.http.iter_mut().flat_map(|h| h.paths.iter_mut().flatten()));
            for path in paths {
                if path.path_type.is_none() {
                    path.path_type = Some(DEFAULT_PATH_TYPE.to_owned());
                }
            }
        });
    };
}

/// The scope Kubernetes gives an `apiextensions.k8s.io/v1beta1` CustomResourceDefinition
/// that has none.
pub const CRD_DEFAULT_SCOPE: &str = "Namespaced";

fn register(d: &mut Defaulters) {
    // Each group's defaulters exist when its feature is on.
    #[cfg(feature = "extensions")]
    {
        use crate::extensions::v1beta1 as extensions;
        template_defaults!(d, extensions::Deployment);
        template_defaults!(d, extensions::DaemonSet);
        template_defaults!(d, extensions::ReplicaSet);
        ingress_path_types!(d, extensions::Ingress);
    }
    #[cfg(feature = "apps")]
    {
        template_defaults!(d, crate::apps::v1beta1::Deployment);
        template_defaults!(d, crate::apps::v1beta1::StatefulSet);
    }
    #[cfg(feature = "networking")]
    ingress_path_types!(d, crate::networking::v1beta1::Ingress);
    #[cfg(feature = "apiextensions")]
    d.add(
        |crd: &mut crate::apiextensions::v1beta1::CustomResourceDefinition| {
            let spec = &mut crd.spec;
            if spec.scope.is_empty() {
                spec.scope = CRD_DEFAULT_SCOPE.to_owned();
            }
            if let Some(c) = spec.conversion.as_mut() {
                if c.strategy == "Webhook" && c.conversion_review_versions.is_empty() {
                    c.conversion_review_versions = vec!["v1beta1".to_owned()];
                }
            }
        },
    );
    let _ = d;
}

inventory::submit! { DefaulterRegistration(register) }
