//! Workloads (`scheduling.k8s.io`, `v1alpha2` on Kubernetes 1.36, `v1beta1` on 1.37,
//! neither served by default; Go's `pkg/registry/scheduling/workload/strategy.go`): on
//! 1.37 the strategy of the gated scheduling kinds (`gated_fields`), on 1.36 the generic
//! one; and the table `kubectl get workloads` prints (Go's `printWorkload`: name and
//! age, on both releases).

use std::sync::Arc;

use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{NAME_AND_AGE, Printer, print_name_and_age};
use crate::registry::rest::RestStorage;
#[cfg(not(feature = "v1_37"))]
use crate::registry::strategy::GenericStrategy;

/// The Workloads' table convertor.
pub static WORKLOAD_TABLE: Printer = Printer {
    #[cfg(feature = "v1_37")]
    api_version: "scheduling.k8s.io/v1beta1",
    #[cfg(not(feature = "v1_37"))]
    api_version: "scheduling.k8s.io/v1alpha2",
    kind: "Workload",
    columns: &NAME_AND_AGE,
    print: print_name_and_age,
};

/// The Workloads' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    #[cfg(feature = "v1_37")]
    let strategy = super::gated_fields::GatedFieldsStrategy(super::gated_fields::Gated::Workload);
    #[cfg(not(feature = "v1_37"))]
    let strategy = GenericStrategy::default().without_generation();
    deps.standard_with_table(info, strategy, Arc::new(WORKLOAD_TABLE))
}
