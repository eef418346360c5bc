//! Go's `Priority` admission plugin (`plugin/pkg/admission/priority`), for Pods that name
//! no PriorityClass: there is no global default class here (none is created), so such a
//! Pod gets priority 0 and, when it says nothing of it, preemption policy
//! `PreemptLowerPriority`. (A Pod naming a class keeps what it says: resolving classes is
//! left out.)

use apimachinery::api::errors::StatusError;
use async_trait::async_trait;
use serde_json::Value;

use super::super::{Attributes, MutationInterface, Operation};
use super::pods::change_created_pod_spec;

/// The plugin.
#[derive(Clone, Copy, Debug, Default)]
pub struct Priority;

#[async_trait]
impl MutationInterface for Priority {
    fn handles(&self, operation: Operation) -> bool {
        operation == Operation::Create
    }

    async fn admit(&self, attributes: &mut Attributes) -> Result<(), StatusError> {
        change_created_pod_spec(attributes, |spec| {
            let named = spec
                .get("priorityClassName")
                .and_then(Value::as_str)
                .is_some_and(|n| !n.is_empty());
            if named {
                return false;
            }
            spec.insert("priority".into(), Value::from(0));
            if spec.get("preemptionPolicy").is_none_or(Value::is_null) {
                spec.insert(
                    "preemptionPolicy".into(),
                    Value::from("PreemptLowerPriority"),
                );
            }
            true
        })
    }
}
