//! What the REST storages of the built-in resources are built from.

use std::sync::Arc;

use apimachinery::runtime::Scheme;

use super::ResourceInfo;
use super::core::service::allocator::ServiceNetwork;
use super::rest::{AnsweringStorage, Creater, RestStorage, StandardStorage, TableConvertor};
use super::scale::ReplicasScale;
use super::store::Store;
use super::strategy::{GenericStrategy, Strategy};
use crate::authentication::Authenticator;
use crate::authentication::serviceaccount::ServiceAccountTokens;
use crate::authorization::Authorizer;
use crate::storage::Storage;

/// What the REST storages are built from: the server's scheme and storage, and the
/// parts of the server some resources answer with (the reviews ask the authenticator and
/// the authorizer, a ServiceAccount's `token` the token issuer).
#[derive(Clone, Debug)]
pub struct Dependencies {
    /// The scheme objects are decoded, converted and encoded with.
    pub scheme: Arc<Scheme>,
    /// Where objects are kept.
    pub storage: Arc<dyn Storage>,
    /// The server's authenticator (what a `TokenReview` asks).
    pub authenticator: Arc<dyn Authenticator>,
    /// The server's authorizer (what the access reviews ask).
    pub authorizer: Arc<dyn Authorizer>,
    /// The issuer of service-account tokens, when the server has one.
    pub service_account_tokens: Option<Arc<ServiceAccountTokens>>,
    /// The ranges Services' cluster IPs and node ports are allocated from.
    pub service_network: ServiceNetwork,
}

impl Dependencies {
    /// The store of `info` whose writes go through `strategy`.
    pub fn store(&self, info: ResourceInfo, strategy: impl Strategy + 'static) -> Arc<Store> {
        Arc::new(Store::new(
            self.scheme.clone(),
            self.storage.clone(),
            info,
            Arc::new(strategy),
        ))
    }

    /// The REST storage of a resource with nothing but its strategy of its own.
    pub fn standard(
        &self,
        info: ResourceInfo,
        strategy: impl Strategy + 'static,
    ) -> Arc<dyn RestStorage> {
        Arc::new(StandardStorage::new(self.store(info, strategy)))
    }

    /// [`standard`](Self::standard), with the `kubectl get` table of its kind.
    pub fn standard_with_table(
        &self,
        info: ResourceInfo,
        strategy: impl Strategy + 'static,
        table: Arc<dyn TableConvertor>,
    ) -> Arc<dyn RestStorage> {
        Arc::new(StandardStorage::new(self.store(info, strategy)).with_table_convertor(table))
    }

    /// The REST storage of a resource whose creates `creater` answers without storing
    /// them (the reviews).
    pub fn answering(&self, info: ResourceInfo, creater: Arc<dyn Creater>) -> Arc<dyn RestStorage> {
        let store = self.store(info, GenericStrategy::default());
        Arc::new(AnsweringStorage::new(store, creater))
    }

    /// The REST storage of a workload with Go's `ScaleREST` over `spec.replicas`,
    /// `status.replicas` and `spec.selector` ([`ReplicasScale`]).
    pub fn scalable(
        &self,
        mut info: ResourceInfo,
        strategy: impl Strategy + 'static,
    ) -> Arc<dyn RestStorage> {
        info.has_scale = true;
        let store = self.store(info, strategy);
        Arc::new(StandardStorage::new(store).with_scaler(Arc::new(ReplicasScale)))
    }

    /// [`scalable`](Self::scalable), with the `kubectl get` table of its kind.
    pub fn scalable_with_table(
        &self,
        mut info: ResourceInfo,
        strategy: impl Strategy + 'static,
        table: Arc<dyn TableConvertor>,
    ) -> Arc<dyn RestStorage> {
        info.has_scale = true;
        let store = self.store(info, strategy);
        Arc::new(
            StandardStorage::new(store)
                .with_scaler(Arc::new(ReplicasScale))
                .with_table_convertor(table),
        )
    }
}
