//! `networking.k8s.io/v1` and `v1beta1`, and `extensions/v1beta1`'s NetworkPolicy and
//! Ingress (Go's `pkg/apis/networking/<version>/defaults.go`, `extensions/v1beta1`): a
//! NetworkPolicy port's protocol is TCP (in `networking.k8s.io/v1`: Go's
//! `extensions/v1beta1` defaulter misses the ports) and a policy without types is an
//! `Ingress` policy (and `Egress` too when it has egress rules); an old Ingress path's type is
//! `ImplementationSpecific`; an IngressClass's parameters are cluster-scoped.

use apimachinery::conversion::Defaulters;

use super::GetOrInsertStr as _;

/// The path type Kubernetes gives an Ingress path of `extensions/v1beta1` or
/// `networking.k8s.io/v1beta1` that has none; `networking.k8s.io/v1` requires one.
pub const DEFAULT_PATH_TYPE: &str = "ImplementationSpecific";

macro_rules! network_policy {
    ($d:ident, $ty:ty, ports: $ports:expr) => {
        $d.add(|obj: &mut $ty| {
            let spec = &mut obj.spec;
            if $ports {
                let ports = spec.ingress.iter_mut().flat_map(|r| r.ports.iter_mut());
                let ports = ports.chain(spec.egress.iter_mut().flat_map(|r| r.ports.iter_mut()));
                for p in ports {
                    p.protocol.get_or_insert_str("TCP");
                }
            }
            if spec.policy_types.is_empty() {
                spec.policy_types.push("Ingress".to_owned());
                if !spec.egress.is_empty() {
                    spec.policy_types.push("Egress".to_owned());
                }
            }
        });
    };
}

#[cfg(any(feature = "extensions", feature = "networking"))]
macro_rules! ingress_path_types {
    ($d:ident, $ty:ty) => {
        $d.add(|obj: &mut $ty| {
            let rules = obj.spec.rules.iter_mut();
            let paths =
                rules.flat_map(|r| r.http.iter_mut().flat_map(|h| h.paths.iter_mut().flatten()));
            for path in paths {
                path.path_type.get_or_insert_str(DEFAULT_PATH_TYPE);
            }
        });
    };
}

#[cfg(feature = "networking")]
macro_rules! ingress_class {
    ($d:ident, $ty:ty) => {
        $d.add(|obj: &mut $ty| {
            if let Some(p) = obj.spec.parameters.as_mut() {
                p.scope.get_or_insert_str("Cluster");
            }
        });
    };
}

#[cfg(feature = "networking")]
pub(super) fn register(d: &mut Defaulters) {
    use crate::networking::{v1, v1beta1};
    network_policy!(d, v1::NetworkPolicy, ports: true);
    ingress_class!(d, v1::IngressClass);
    ingress_class!(d, v1beta1::IngressClass);
    ingress_path_types!(d, v1beta1::Ingress);
}

#[cfg(feature = "extensions")]
pub(super) fn register_extensions(d: &mut Defaulters) {
    use crate::extensions::v1beta1 as ext;
    // Go's `extensions/v1beta1` defaulter sets each port's protocol on a copy (it ranges
    // over the ports by value), so the ports keep none: `kubectl convert` prints none.
    network_policy!(d, ext::NetworkPolicy, ports: false);
    ingress_path_types!(d, ext::Ingress);
}
