//! Services (Go's `pkg/registry/core/service`): names are DNS labels, a new Service gets
//! its cluster IP and node ports from the service network ([`allocator`]), a deleted
//! Service answers with itself (and its address and ports are free again), and
//! `kubectl get services` prints Go's columns ([`SERVICE_TABLE`]).

use std::sync::Arc;

use apimachinery::api::errors::StatusError;
use apimachinery::runtime::Object;

use super::{PROXY_VERBS, sub};
use crate::registry::dependencies::Dependencies;
use crate::registry::rest::{Context, RestStorage, TableConvertor};
use crate::registry::strategy::Strategy;
use crate::registry::validation::NameValidation;
use crate::registry::{ResourceInfo, Selection, Store, from_value, to_json};

pub mod allocator;
mod table;
pub mod warnings;
pub use allocator::ServiceNetwork;
pub use table::{SERVICE_TABLE, print_service};

/// Go's service strategy.
#[derive(Clone, Copy, Debug, Default)]
pub struct ServiceStrategy;

impl Strategy for ServiceStrategy {
    /// Go's service strategy keeps no generation.
    fn tracks_generation(&self) -> bool {
        false
    }

    fn names(&self) -> NameValidation {
        NameValidation::Label
    }

    fn returns_deleted_object(&self) -> bool {
        true
    }

    /// Go's service strategy creates on PUT (its status strategy too: a PUT of a
    /// missing Service's `/status` creates the Service as a POST would).
    fn allow_create_on_update(&self) -> bool {
        true
    }

    fn warnings_on_create(&self, obj: &dyn Object) -> Vec<String> {
        to_json(obj)
            .map(|svc| warnings::service_warnings(&svc))
            .unwrap_or_default()
    }

    fn warnings_on_update(&self, obj: &dyn Object, _old: &dyn Object) -> Vec<String> {
        self.warnings_on_create(obj)
    }

    fn warnings_on_status_update(&self, obj: &dyn Object, _old: &dyn Object) -> Vec<String> {
        to_json(obj)
            .map(|svc| warnings::load_balancer_status_warnings(&svc))
            .unwrap_or_default()
    }
}

/// The REST storage of Services (Go's `service/storage.REST` with its allocators).
#[derive(Debug)]
pub struct ServiceStorage {
    store: Arc<Store>,
    network: ServiceNetwork,
}

/// The Services' REST storage over `info`, allocating from `deps.service_network`.
pub(super) fn storage(mut info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    // `proxy` reaches the Service's endpoints: listed as kube-apiserver lists it, not
    // served.
    info.subresources = vec![sub("proxy", "ServiceProxyOptions", PROXY_VERBS)];
    Arc::new(ServiceStorage {
        store: deps.store(info, ServiceStrategy),
        network: deps.service_network,
    })
}

#[async_trait::async_trait]
impl RestStorage for ServiceStorage {
    fn store(&self) -> &Arc<Store> {
        &self.store
    }

    fn table_convertor(&self) -> Option<&dyn TableConvertor> {
        Some(&SERVICE_TABLE)
    }

    /// Go's `beginCreate`: the cluster IPs and node ports, given what the stored
    /// Services hold (a dry run allocates too, and keeps nothing).
    async fn begin_create(
        &self,
        _ctx: &Context<'_>,
        obj: Box<dyn Object>,
    ) -> Result<Box<dyn Object>, StatusError> {
        let services = self.store.list_all(None, &Selection::default()).await?;
        let services = services
            .iter()
            .map(|s| to_json(&**s))
            .collect::<Result<Vec<_>, _>>()?;
        let mut svc = to_json(&*obj)?;
        allocator::allocate_create(&self.network, &allocator::Taken::of(&services), &mut svc)?;
        from_value(self.store.scheme(), &self.store.info().storage_gvk, svc)
    }
}
