//! What the REST storages of the built-in resources are built from.

use std::sync::Arc;

use apimachinery::runtime::Scheme;

use super::ResourceInfo;
use super::core::service::allocator::ServiceNetwork;
use super::rest::{AnsweringStorage, Creater, RestStorage, StandardStorage, TableConvertor};
use super::scale::ReplicasScale;
use super::status_metadata::{Kept, StatusMetadata};
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
        let rule = status_metadata_of(&info);
        Arc::new(
            Store::new(
                self.scheme.clone(),
                self.storage.clone(),
                info,
                Arc::new(strategy),
            )
            .with_status_metadata(rule),
        )
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

/// What a `/status` write of a built-in kind does to its metadata: Go 1.37's and 1.36's
/// status strategies (`PrepareForUpdate`, `GetResetFields`); a kind only one release
/// serves with a status is listed for both.
fn status_metadata_of(info: &ResourceInfo) -> StatusMetadata {
    match (info.group.as_str(), info.resource.as_str()) {
        ("apps", "deployments") => StatusMetadata {
            kept: Kept::Labels,
            unowned: &["metadata.labels"],
        },
        ("", "pods") => StatusMetadata {
            kept: Kept::OwnerReferences,
            unowned: &["metadata.deletionTimestamp", "metadata.ownerReferences"],
        },
        // 1.36's strategy resets the metadata but its reset fields do not name it.
        ("certificates.k8s.io", "podcertificaterequests") if !cfg!(feature = "v1_37") => {
            StatusMetadata {
                kept: Kept::ResetForStatus,
                unowned: &[],
            }
        }
        ("certificates.k8s.io", "podcertificaterequests")
        | ("scheduling.k8s.io", "podgroups" | "compositepodgroups")
        | ("networking.k8s.io", "servicecidrs")
        | ("storagemigration.k8s.io", "storageversionmigrations")
        | (
            "resource.k8s.io",
            "resourceclaims" | "devicetaintrules" | "resourcepoolstatusrequests",
        )
        | ("internal.apiserver.k8s.io", "storageversions")
        | ("storage.k8s.io", "volumeattachments" | "csinodes")
        | ("lifecycle.k8s.io", "evictions" | "evictionrequests")
        | ("admissionregistration.k8s.io", "validatingadmissionpolicies")
        | ("apiregistration.k8s.io", "apiservices") => StatusMetadata::RESET,
        ("flowcontrol.apiserver.k8s.io", "flowschemas" | "prioritylevelconfigurations") => {
            StatusMetadata::WHOLE
        }
        // Go's CRD status strategy calls `ResetObjectMetaForStatus` with the new
        // metadata on both sides: nothing is kept, yet `metadata` is reset.
        ("apiextensions.k8s.io", "customresourcedefinitions") => StatusMetadata {
            kept: Kept::Nothing,
            unowned: &["metadata"],
        },
        _ => StatusMetadata::WRITTEN,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::registry::resources_from_scheme;
    use k8s_types as _;

    #[test]
    fn each_kind_has_its_go_status_strategy_rule() {
        let mut scheme = Scheme::with_name("status-metadata-table-tests");
        scheme.add_registry().unwrap();
        let resources = resources_from_scheme(&scheme);
        let rule = |group: &str, resource: &str| {
            status_metadata_of(&resources[&(group.to_owned(), resource.to_owned())])
        };
        assert_eq!(rule("apps", "deployments").kept, Kept::Labels);
        assert_eq!(rule("", "pods").kept, Kept::OwnerReferences);
        assert_eq!(rule("batch", "jobs"), StatusMetadata::WRITTEN);
        assert_eq!(rule("", "nodes"), StatusMetadata::WRITTEN);
        assert_eq!(
            rule("storage.k8s.io", "volumeattachments"),
            StatusMetadata::RESET
        );
        assert_eq!(
            rule("flowcontrol.apiserver.k8s.io", "flowschemas"),
            StatusMetadata::WHOLE
        );
        let crds = rule("apiextensions.k8s.io", "customresourcedefinitions");
        assert_eq!(
            (crds.kept, crds.unowned),
            (Kept::Nothing, &["metadata"][..])
        );
    }
}
