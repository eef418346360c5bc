//! `apiregistration.k8s.io/v1` and `v1beta1` (kube-aggregator's `SetDefaults_ServiceReference`):
//! an APIService's service listens on port 443 unless it names one.

use apimachinery::conversion::Defaulters;

pub(super) fn register(d: &mut Defaulters) {
    d.add(|a: &mut crate::apiregistration::v1::APIService| {
        if let Some(service) = &mut a.spec.service {
            service.port.get_or_insert(443);
        }
    });
    d.add(|a: &mut crate::apiregistration::v1beta1::APIService| {
        if let Some(service) = &mut a.spec.service {
            service.port.get_or_insert(443);
        }
    });
}
