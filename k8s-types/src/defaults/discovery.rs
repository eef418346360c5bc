//! `discovery.k8s.io/v1` and `v1beta1` (Go's `pkg/apis/discovery/<version>/defaults.go`):
//! an EndpointSlice port has a name (empty) and protocol TCP.

use apimachinery::conversion::Defaulters;

use super::GetOrInsertStr as _;

macro_rules! endpoint_slice {
    ($d:ident, $ty:ty) => {
        $d.add(|obj: &mut $ty| {
            for p in obj.ports.iter_mut().flatten() {
                p.name.get_or_insert_with(String::new);
                p.protocol.get_or_insert_str("TCP");
            }
        });
    };
}

pub(super) fn register(d: &mut Defaulters) {
    endpoint_slice!(d, crate::discovery::v1::EndpointSlice);
    endpoint_slice!(d, crate::discovery::v1beta1::EndpointSlice);
}
