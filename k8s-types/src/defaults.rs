//! The defaults Kubernetes applies to the old workload versions that the newer ones
//! require: an absent selector is the pod template's labels, and an object without
//! labels takes the template's (Go's `SetDefaults_Deployment`, `_DaemonSet`,
//! `_ReplicaSet` of `extensions/v1beta1` and `_Deployment`, `_StatefulSet` of
//! `apps/v1beta1`). Registered at link time, applied by
//! [`Scheme::default`](apimachinery::runtime::Scheme::default), as a decoder for those
//! versions would; `kapi convert` applies them before converting to `apps/v1`, where the
//! selector is required. Ingress paths of `extensions/v1beta1` and
//! `networking.k8s.io/v1beta1` without a `pathType` get `ImplementationSpecific` (Go's
//! `SetDefaults_HTTPIngressPath`), which `networking.k8s.io/v1` requires. Other defaults of these versions (replicas, strategies) are not
//! applied here.
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
//! let spec = d.spec.as_ref().unwrap();
//! assert_eq!(spec.selector.match_labels["app"], "web");
//! assert_eq!(d.metadata.labels["app"], "web");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#[cfg(any(feature = "apps", feature = "extensions"))]
use std::collections::BTreeMap;

#[cfg(any(feature = "apps", feature = "extensions"))]
use apimachinery::apis::meta::v1::{LabelSelector, ObjectMeta};
use apimachinery::conversion::{DefaulterRegistration, Defaulters};

/// Go's rule: with template labels, an empty selector selects them and empty object
/// labels copy them.
#[cfg(any(feature = "apps", feature = "extensions"))]
fn selector_and_labels(
    template_labels: Option<&BTreeMap<String, String>>,
    selector: &mut LabelSelector,
    meta: &mut ObjectMeta,
) {
    let Some(labels) = template_labels.filter(|l| !l.is_empty()) else {
        return;
    };
    if *selector == LabelSelector::default() {
        selector.match_labels = labels.clone();
    }
    if meta.labels.is_empty() {
        meta.labels = labels.clone();
    }
}

#[cfg(any(feature = "apps", feature = "extensions"))]
macro_rules! template_defaults {
    ($d:ident, $ty:ty, |$spec:ident| $template:expr) => {
        $d.add(|obj: &mut $ty| {
            if let Some($spec) = obj.spec.as_mut() {
                let labels = $template.map(|t| t.metadata.labels.clone());
                selector_and_labels(labels.as_ref(), &mut $spec.selector, &mut obj.metadata);
            }
        });
    };
}

/// The path type Kubernetes gives an Ingress path that has none.
pub const DEFAULT_PATH_TYPE: &str = "ImplementationSpecific";

#[cfg(any(feature = "extensions", feature = "networking"))]
macro_rules! ingress_path_types {
    ($d:ident, $ty:ty) => {
        $d.add(|obj: &mut $ty| {
            let rules = obj.spec.iter_mut().flat_map(|s| s.rules.iter_mut());
            for path in rules.flat_map(|r| r.http.iter_mut().flat_map(|h| h.paths.iter_mut())) {
                if path.path_type.is_empty() {
                    path.path_type = DEFAULT_PATH_TYPE.to_owned();
                }
            }
        });
    };
}

fn register(d: &mut Defaulters) {
    // Each group's defaulters exist when its feature is on.
    #[cfg(feature = "extensions")]
    {
        use crate::extensions::v1beta1 as extensions;
        template_defaults!(d, extensions::Deployment, |s| Some(&s.template));
        template_defaults!(d, extensions::DaemonSet, |s| Some(&s.template));
        template_defaults!(d, extensions::ReplicaSet, |s| s.template.as_ref());
        ingress_path_types!(d, extensions::Ingress);
    }
    #[cfg(feature = "apps")]
    {
        template_defaults!(d, crate::apps::v1beta1::Deployment, |s| Some(&s.template));
        template_defaults!(d, crate::apps::v1beta1::StatefulSet, |s| Some(&s.template));
    }
    #[cfg(feature = "networking")]
    ingress_path_types!(d, crate::networking::v1beta1::Ingress);
    let _ = d;
}

inventory::submit! { DefaulterRegistration(register) }
