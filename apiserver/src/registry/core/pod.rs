//! Pods (Go's `pkg/registry/core/pod`): selectable by node, phase and more, deleted
//! gracefully, and a deleted Pod answers with itself.
//!
//! A Pod's grace period is the request's `gracePeriodSeconds`, else its
//! `spec.terminationGracePeriodSeconds` (0 when unset, which the defaulter sets to 30);
//! a Pod that is not scheduled (`spec.nodeName` empty) or has finished (phase
//! `Succeeded` or `Failed`) gets 0. There is no kubelet here: a Pod marked with a grace
//! period stays until it is deleted again with a shorter one (`gracePeriodSeconds=0`
//! deletes it), or its finalizers are gone after that.

use std::sync::Arc;

use apimachinery::api::errors::StatusError;
use apimachinery::runtime::Object;
use serde_json::Value;

use crate::registry::dependencies::Dependencies;
use crate::registry::rest::RestStorage;
use crate::registry::strategy::{SelectableField, Strategy};
use crate::registry::{ResourceInfo, to_json};

/// Go's pod strategy.
#[derive(Clone, Copy, Debug, Default)]
pub struct PodStrategy;

impl Strategy for PodStrategy {
    fn selectable_fields(&self) -> &'static [SelectableField] {
        &[
            ("spec.nodeName", "/spec/nodeName"),
            ("spec.restartPolicy", "/spec/restartPolicy"),
            ("spec.schedulerName", "/spec/schedulerName"),
            ("spec.serviceAccountName", "/spec/serviceAccountName"),
            ("spec.hostNetwork", "/spec/hostNetwork"),
            ("status.phase", "/status/phase"),
            ("status.podIP", "/status/podIP"),
            ("status.nominatedNodeName", "/status/nominatedNodeName"),
        ]
    }

    /// Go's `CheckGracefulDelete` of Pods.
    fn check_graceful_delete(
        &self,
        obj: &dyn Object,
        requested: Option<i64>,
    ) -> Result<Option<i64>, StatusError> {
        let pod = to_json(obj)?;
        let spec = pod.get("spec");
        let mut period = requested.unwrap_or_else(|| {
            spec.and_then(|s| s.get("terminationGracePeriodSeconds"))
                .and_then(Value::as_i64)
                .unwrap_or(0)
        });
        let node = spec
            .and_then(|s| s.get("nodeName"))
            .and_then(Value::as_str)
            .unwrap_or("");
        if node.is_empty() {
            period = 0;
        }
        let phase = pod.pointer("/status/phase").and_then(Value::as_str);
        if matches!(phase, Some("Succeeded" | "Failed")) {
            period = 0;
        }
        Ok(Some(if period < 0 { 1 } else { period }))
    }

    fn returns_deleted_object(&self) -> bool {
        true
    }
}

/// The Pods' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard(info, PodStrategy)
}

#[cfg(test)]
mod tests;
