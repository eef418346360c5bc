//! `node.k8s.io/v1alpha1` RuntimeClass ⇄ the `node.k8s.io/v1` hub.
//!
//! `v1alpha1` nests the handler, overhead and scheduling in `spec` (the handler named
//! `runtimeHandler`); `v1` has them at the top (the handler named `handler`). Kubernetes
//! moves them across (`pkg/apis/node/v1alpha1/conversion.go`); nothing is lost either
//! way.

use apimachinery::conversion::{AutoConvert, ConversionError, Scope};

/// `node.k8s.io/v1alpha1` RuntimeClass ⇄ `node.k8s.io/v1`.
pub mod node_v1alpha1 {
    use super::*;
    use crate::node::v1 as hub;
    use crate::node::v1alpha1 as old;

    /// To `node.k8s.io/v1`: the generated conversion (metadata), then `spec`'s fields.
    pub fn to_hub(
        r: &old::RuntimeClass,
        scope: &Scope<'_>,
    ) -> Result<hub::RuntimeClass, ConversionError> {
        let mut out: hub::RuntimeClass = r.auto_convert_ref(scope)?;
        let spec = &r.spec;
        out.handler = spec.runtime_handler.clone();
        out.overhead = spec.overhead.as_ref().map(|o| hub::Overhead {
            pod_fixed: o.pod_fixed.clone(),
        });
        out.scheduling = spec.scheduling.as_ref().map(|s| hub::Scheduling {
            node_selector: s.node_selector.clone(),
            tolerations: s.tolerations.clone(),
        });
        Ok(out)
    }

    /// From `node.k8s.io/v1`: the generated conversion (metadata), then the fields into
    /// `spec`.
    pub fn from_hub(
        r: &hub::RuntimeClass,
        scope: &Scope<'_>,
    ) -> Result<old::RuntimeClass, ConversionError> {
        let mut out: old::RuntimeClass = r.auto_convert_ref(scope)?;
        out.spec = old::RuntimeClassSpec {
            runtime_handler: r.handler.clone(),
            overhead: r.overhead.as_ref().map(|o| old::Overhead {
                pod_fixed: o.pod_fixed.clone(),
            }),
            scheduling: r.scheduling.as_ref().map(|s| old::Scheduling {
                node_selector: s.node_selector.clone(),
                tolerations: s.tolerations.clone(),
            }),
        };
        Ok(out)
    }
}
