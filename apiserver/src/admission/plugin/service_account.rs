//! Go's `ServiceAccount` admission plugin (`plugin/pkg/admission/serviceaccount`), in
//! part: a new Pod that names no ServiceAccount runs as `default` (`serviceAccountName`
//! and the deprecated `serviceAccount` beside it). Left out: the check that the account
//! exists (nothing here creates a namespace's `default` account, as Go's controller
//! manager does, so the check would refuse every Pod of a new namespace) and the
//! projected token volume mounted into the containers.

use apimachinery::api::errors::StatusError;
use async_trait::async_trait;
use serde_json::Value;

use super::super::{Attributes, MutationInterface, Operation};
use super::pods::change_created_pod_spec;

/// The account a Pod that names none runs as.
pub const DEFAULT_SERVICE_ACCOUNT: &str = "default";

/// The plugin.
#[derive(Clone, Copy, Debug, Default)]
pub struct ServiceAccount;

#[async_trait]
impl MutationInterface for ServiceAccount {
    fn handles(&self, operation: Operation) -> bool {
        operation == Operation::Create
    }

    async fn admit(&self, attributes: &mut Attributes) -> Result<(), StatusError> {
        change_created_pod_spec(attributes, |spec| {
            let named = spec
                .get("serviceAccountName")
                .and_then(Value::as_str)
                .filter(|n| !n.is_empty())
                .map(str::to_owned);
            let name = named.unwrap_or_else(|| DEFAULT_SERVICE_ACCOUNT.to_owned());
            spec.insert("serviceAccountName".into(), Value::from(name.clone()));
            spec.insert("serviceAccount".into(), Value::from(name));
            true
        })
    }
}
