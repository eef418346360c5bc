//! Go's `TaintNodesByCondition` admission plugin (`plugin/pkg/admission/nodetaint`): a
//! Node is created with the `node.kubernetes.io/not-ready:NoSchedule` taint (unless it
//! has it), so that nothing is scheduled onto it before the node lifecycle controller
//! has seen it ready and removed the taint.

use apimachinery::api::errors::StatusError;
use async_trait::async_trait;
use serde_json::{Value, json};

use super::super::{Attributes, MutationInterface, Operation};
use crate::registry::to_json;

/// Go's `v1.TaintNodeNotReady`.
const NOT_READY: &str = "node.kubernetes.io/not-ready";

/// The plugin.
#[derive(Clone, Copy, Debug, Default)]
pub struct TaintNodesByCondition;

/// Go's `addNotReadyTaint`: whether the taint was added (`MatchTaint` compares key and
/// effect).
fn add_not_ready_taint(node: &mut Value) -> bool {
    let Some(map) = node.as_object_mut() else {
        return false;
    };
    let spec = map.entry("spec").or_insert_with(|| json!({}));
    let Some(spec) = spec.as_object_mut() else {
        return false;
    };
    let taints = spec.entry("taints").or_insert_with(|| json!([]));
    if taints.is_null() {
        *taints = json!([]);
    }
    let Some(taints) = taints.as_array_mut() else {
        return false;
    };
    let field = |t: &Value, f: &str| t.get(f).and_then(Value::as_str).unwrap_or("").to_owned();
    if taints
        .iter()
        .any(|t| field(t, "key") == NOT_READY && field(t, "effect") == "NoSchedule")
    {
        return false;
    }
    taints.push(json!({"key": NOT_READY, "effect": "NoSchedule"}));
    true
}

#[async_trait]
impl MutationInterface for TaintNodesByCondition {
    fn handles(&self, operation: Operation) -> bool {
        operation == Operation::Create
    }

    async fn admit(&self, attributes: &mut Attributes) -> Result<(), StatusError> {
        let resource = &attributes.resource;
        if !resource.group.is_empty()
            || resource.resource != "nodes"
            || !attributes.subresource.is_empty()
        {
            return Ok(());
        }
        let Some(object) = attributes.object.as_deref() else {
            return Ok(());
        };
        let mut node = to_json(object)?;
        if add_not_ready_taint(&mut node) {
            attributes.set_object_json(node)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Go's `TestPluginNodeTaint` cases.
    #[test]
    fn created_nodes_get_the_not_ready_taint_once() {
        let mut node = json!({"metadata": {"name": "n"}});
        assert!(add_not_ready_taint(&mut node));
        assert_eq!(
            node["spec"]["taints"],
            json!([{"key": NOT_READY, "effect": "NoSchedule"}])
        );
        assert!(!add_not_ready_taint(&mut node));

        let mut other = json!({"spec": {"taints": [{"key": NOT_READY, "effect": "NoExecute"}]}});
        assert!(add_not_ready_taint(&mut other));
        assert_eq!(other["spec"]["taints"].as_array().map(Vec::len), Some(2));
    }
}
