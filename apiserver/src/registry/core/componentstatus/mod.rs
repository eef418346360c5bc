//! ComponentStatuses (Go's `pkg/registry/core/componentstatus`, read-only): the table
//! `kubectl get componentstatuses` prints (Go's `printComponentStatus`), and Go's REST,
//! which stores none: each get or list probes the control plane's components at that
//! moment (the list kube-apiserver gives it in `storage_core.go`): the controller
//! manager and the scheduler at their default secure ports on 127.0.0.1, and the
//! storage as `etcd-0`, one item each.
//!
//! kube-apiserver has an `etcd-N` per etcd its storage configurations name (one here);
//! the server's storage is probed as `etcd-0` whatever its backend (etcd, or the
//! in-memory and redb stores, which answer as a healthy etcd does: `ok`), as its health
//! checks name it `etcd` whatever the backend.

mod probe;

use std::sync::Arc;

use apimachinery::api::errors::{self, StatusError};
use serde_json::Value;

use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{Column, NAME, Printer, Row, items, string_column, text};
use crate::registry::rest::{Reader, RestStorage, TableConvertor};
use crate::registry::store::Store;
use crate::registry::strategy::GenericStrategy;
use crate::storage::Storage;
use probe::{Probed, probe_https, probe_storage};

/// The controller manager's secure port (Go's `ports.KubeControllerManagerPort`).
const CONTROLLER_MANAGER_PORT: u16 = 10257;

/// The scheduler's secure port (Go's `DefaultKubeSchedulerPort`).
const SCHEDULER_PORT: u16 = 10259;

/// Where the components are probed (Go assumes their default ports on this host).
const COMPONENT_HOST: &str = "127.0.0.1";

/// The components, by the names their ComponentStatuses have, in name order.
const COMPONENTS: [&str; 3] = ["controller-manager", "etcd-0", "scheduler"];

/// Go's `componentStatusColumnDefinitions` (no age).
pub const COLUMNS: [Column; 4] = [
    NAME,
    string_column("Status", "Status of the component conditions", 0),
    string_column("Message", "Message of the component conditions", 0),
    string_column("Error", "Error of the component conditions", 0),
];

/// The ComponentStatuses' table convertor.
pub static COMPONENT_STATUS_TABLE: Printer = Printer {
    api_version: "v1",
    kind: "ComponentStatus",
    columns: &COLUMNS,
    print: print_component_status,
};

/// Go's `printComponentStatus`: name; of the first `Healthy` condition, `Healthy` (its
/// status `True`) or `Unhealthy`, its message and error; `Unknown` without one.
pub fn print_component_status(obj: &Value) -> Row {
    let healthy = items(obj, "/conditions")
        .iter()
        .find(|c| text(c, "/type") == "Healthy");
    let (status, message, error) = match healthy {
        Some(c) if text(c, "/status") == "True" => {
            ("Healthy", text(c, "/message"), text(c, "/error"))
        }
        Some(c) => ("Unhealthy", text(c, "/message"), text(c, "/error")),
        None => ("Unknown", "", ""),
    };
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        Value::from(status),
        Value::from(message),
        Value::from(error),
    ])
}

/// The probes of Go's componentstatus REST.
#[derive(Debug)]
pub struct ComponentProbes {
    /// The server's storage, probed as `etcd-0`.
    storage: Arc<dyn Storage>,
}

impl ComponentProbes {
    /// The ComponentStatus of component `name` (one of [`COMPONENTS`]), probed now.
    async fn probe(&self, name: &str) -> Option<Value> {
        let probed: Probed = match name {
            "controller-manager" => {
                probe_https(COMPONENT_HOST, CONTROLLER_MANAGER_PORT, "/healthz").await
            }
            "scheduler" => probe_https(COMPONENT_HOST, SCHEDULER_PORT, "/healthz").await,
            "etcd-0" => probe_storage(&*self.storage).await,
            _ => return None,
        };
        Some(probed.component_status(name))
    }
}

#[async_trait::async_trait]
impl Reader for ComponentProbes {
    async fn get(&self, name: &str) -> Result<Value, StatusError> {
        self.probe(name).await.ok_or_else(|| {
            errors::new_not_found(
                &apimachinery::schema::GroupResource::new("", "componentstatus"),
                name,
            )
        })
    }

    /// Every component, probed at once (Go's goroutines); Go answers them in the order
    /// the probes end, this in name order.
    async fn list(&self) -> Result<Vec<Value>, StatusError> {
        let probes = COMPONENTS.map(|name| self.probe(name));
        Ok(futures_util::future::join_all(probes)
            .await
            .into_iter()
            .flatten()
            .collect())
    }
}

/// The ComponentStatuses' REST storage: reads answered by the probes, the store only
/// holding the resource's facts (nothing is written to it).
#[derive(Debug)]
pub struct ComponentStatusStorage {
    store: Arc<Store>,
    probes: ComponentProbes,
}

impl RestStorage for ComponentStatusStorage {
    fn store(&self) -> &Arc<Store> {
        &self.store
    }

    fn reader(&self) -> Option<&dyn Reader> {
        Some(&self.probes)
    }

    fn table_convertor(&self) -> Option<&dyn TableConvertor> {
        Some(&COMPONENT_STATUS_TABLE)
    }
}

/// The ComponentStatuses' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    Arc::new(ComponentStatusStorage {
        store: deps.store(info, GenericStrategy::default()),
        probes: ComponentProbes {
            storage: deps.storage.clone(),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Go's `TestPrintComponentStatus` cases.
    #[test]
    fn component_statuses_print_their_healthy_condition() {
        let cells = |obj: Value| Value::from(print_component_status(&obj).cells);
        assert_eq!(
            cells(json!({"metadata": {"name": "cs1"}, "conditions": []})),
            json!(["cs1", "Unknown", "", ""])
        );
        let condition = |status: &str| {
            json!([{"type": "Healthy", "status": status, "message": "test message",
                "error": "test error"}])
        };
        assert_eq!(
            cells(json!({"metadata": {"name": "cs2"}, "conditions": condition("True")})),
            json!(["cs2", "Healthy", "test message", "test error"])
        );
        assert_eq!(
            cells(json!({"metadata": {"name": "cs3"}, "conditions": condition("False")})),
            json!(["cs3", "Unhealthy", "test message", "test error"])
        );
    }

    #[tokio::test]
    async fn each_component_is_probed_and_others_are_not_found() {
        let probes = ComponentProbes {
            storage: Arc::new(crate::storage::memory::MemoryStorage::new()),
        };
        let list = probes.list().await.unwrap();
        let names: Vec<&str> = list
            .iter()
            .map(|c| c["metadata"]["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, COMPONENTS);
        let etcd = probes.get("etcd-0").await.unwrap();
        assert_eq!(etcd["conditions"][0]["status"], "True");
        let missing = probes.get("kubelet").await.unwrap_err();
        assert_eq!(missing.status.code, 404);
        assert_eq!(
            missing.status.message,
            "componentstatus \"kubelet\" not found"
        );
    }
}
