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

use std::collections::BTreeMap;

use apimachinery::apis::meta::v1::{LabelSelector, ObjectMeta};
use apimachinery::conversion::{DefaulterRegistration, Defaulters};

/// Go's rule: with template labels, an empty selector selects them and empty object
/// labels copy them.
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
    use crate::{apps, extensions};
    template_defaults!(d, extensions::v1beta1::Deployment, |s| Some(&s.template));
    template_defaults!(d, extensions::v1beta1::DaemonSet, |s| Some(&s.template));
    template_defaults!(d, extensions::v1beta1::ReplicaSet, |s| s.template.as_ref());
    template_defaults!(d, apps::v1beta1::Deployment, |s| Some(&s.template));
    template_defaults!(d, apps::v1beta1::StatefulSet, |s| Some(&s.template));
    ingress_path_types!(d, extensions::v1beta1::Ingress);
    ingress_path_types!(d, crate::networking::v1beta1::Ingress);
}

inventory::submit! { DefaulterRegistration(register) }
