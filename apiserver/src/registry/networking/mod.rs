//! The networking.k8s.io group's resources with something of their own (Go's
//! `pkg/registry/networking`): each kind's table.

pub mod ingress;
pub mod ingressclass;
pub mod ipaddress;
pub mod networkpolicy;
pub mod servicecidr;

use std::sync::Arc;

use super::ResourceInfo;
use super::dependencies::Dependencies;
use super::printers::Printer;
use super::rest::RestStorage;
use super::strategy::GenericStrategy;

/// The REST storage of networking.k8s.io resource `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    let table: &'static Printer = match info.resource.as_str() {
        "ingresses" => &ingress::INGRESS_TABLE,
        "ingressclasses" => &ingressclass::INGRESS_CLASS_TABLE,
        "ipaddresses" => &ipaddress::IP_ADDRESS_TABLE,
        "networkpolicies" => &networkpolicy::NETWORK_POLICY_TABLE,
        "servicecidrs" => &servicecidr::SERVICE_CIDR_TABLE,
        _ => return deps.standard(info, GenericStrategy::default()),
    };
    match info.resource.as_str() {
        "networkpolicies" => {
            let strategy = networkpolicy::NetworkPolicyStrategy;
            return deps.standard_with_table(info, strategy, Arc::new(*table));
        }
        "ingresses" => {
            let strategy = ingress::IngressStrategy;
            return deps.standard_with_table(info, strategy, Arc::new(*table));
        }
        _ => {}
    }
    // Go's strategies of these set no generation.
    let no_generation = matches!(info.resource.as_str(), "ipaddresses" | "servicecidrs");
    let strategy = GenericStrategy {
        no_generation,
        ..GenericStrategy::default()
    };
    deps.standard_with_table(info, strategy, Arc::new(*table))
}
