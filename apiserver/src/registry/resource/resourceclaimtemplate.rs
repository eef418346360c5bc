//! ResourceClaimTemplates (`resource.k8s.io`; Go's
//! `pkg/registry/resource/resourceclaimtemplate`): the generic strategy with the claim
//! spec's disabled fields dropped ([`super::claimspec`]), and the table
//! `kubectl get resourceclaimtemplates` prints (Go's `printResourceClaimTemplate`: name
//! and age).

use std::sync::Arc;

use super::claimspec::ClaimSpecStrategy;
use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{NAME_AND_AGE, Printer, print_name_and_age};
use crate::registry::rest::RestStorage;
use crate::registry::strategy::GenericStrategy;

/// The ResourceClaimTemplates' table convertor.
pub static RESOURCE_CLAIM_TEMPLATE_TABLE: Printer = Printer {
    api_version: "resource.k8s.io/v1",
    kind: "ResourceClaimTemplate",
    columns: &NAME_AND_AGE,
    print: print_name_and_age,
};

/// The ResourceClaimTemplates' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard_with_table(
        info,
        ClaimSpecStrategy {
            spec: "/spec/spec",
            base: GenericStrategy::returning_deleted_object().without_generation(),
        },
        Arc::new(RESOURCE_CLAIM_TEMPLATE_TABLE),
    )
}
