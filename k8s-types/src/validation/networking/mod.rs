//! The networking group's validation (Go's `pkg/apis/networking/validation`): Ingress,
//! IngressClass, NetworkPolicy, and the IPAddress and ServiceCIDR objects of Service
//! IP allocation. (`extensions/v1beta1` Ingress and NetworkPolicy are validated as
//! these, converted.)

mod ingress;
mod ingress_class;
mod ip_address;
mod network_policy;

pub use ingress::*;
pub use ingress_class::*;
pub use ip_address::*;
pub use network_policy::*;
