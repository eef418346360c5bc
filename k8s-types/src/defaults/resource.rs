//! `resource.k8s.io/v1`, `v1beta2`, `v1beta1` (Go's `pkg/apis/resource/<version>/defaults.go`):
//! a device request without an allocation mode asks for exactly one device, and a
//! device toleration's operator is `Equal` (a `+default=` marker); `v1alpha3`'s
//! ResourcePoolStatusRequest lists at most 100 pools (a marker); a device taint (a
//! DeviceTaintRule's, a ResourceSlice device's) without `timeAdded` was added now, in
//! whole seconds (Go's `SetDefaults_DeviceTaint`: the encoding keeps seconds only).

use apimachinery::apis::meta::v1::Time;
use apimachinery::conversion::Defaulters;

use crate::generated::default_markers::{
    resource_v1, resource_v1alpha3, resource_v1beta1, resource_v1beta2,
};

/// Allocation mode `ExactCount` of one device, for a request that names none.
fn exact_count(mode: &mut String, count: &mut i64) {
    if mode.is_empty() {
        *mode = "ExactCount".to_owned();
    }
    if mode == "ExactCount" && *count == 0 {
        *count = 1;
    }
}

/// Go's `SetDefaults_DeviceTaint`: a taint's `timeAdded`, when it has none, is now.
fn time_added(taint: &mut crate::resource::v1::DeviceTaint) {
    if taint.time_added.is_none() {
        taint.time_added = Some(Time::now().truncate_to_seconds());
    }
}

/// The requests of `v1` and `v1beta2`, whose exact request is a field of its own.
macro_rules! claim_spec_exactly {
    ($spec:expr, $markers:ident) => {
        for r in $spec.devices.requests.iter_mut().flatten() {
            if let Some(e) = r.exactly.as_mut() {
                exact_count(&mut e.allocation_mode, &mut e.count);
                e.tolerations
                    .iter_mut()
                    .for_each($markers::device_toleration);
            }
            for s in &mut r.first_available {
                exact_count(&mut s.allocation_mode, &mut s.count);
                s.tolerations
                    .iter_mut()
                    .for_each($markers::device_toleration);
            }
        }
    };
}

pub(super) fn register(d: &mut Defaulters) {
    use crate::resource::{v1, v1alpha3, v1beta1, v1beta2};
    d.add(|c: &mut v1::ResourceClaim| claim_spec_exactly!(c.spec, resource_v1));
    d.add(|c: &mut v1::ResourceClaimTemplate| claim_spec_exactly!(c.spec.spec, resource_v1));
    d.add(|c: &mut v1beta2::ResourceClaim| claim_spec_exactly!(c.spec, resource_v1beta2));
    d.add(|c: &mut v1beta2::ResourceClaimTemplate| {
        claim_spec_exactly!(c.spec.spec, resource_v1beta2)
    });
    fn v1beta1_spec(spec: &mut v1beta1::ResourceClaimSpec) {
        for r in spec.devices.requests.iter_mut().flatten() {
            // A request with sub-requests leaves the choice to them.
            if r.first_available.is_empty() {
                exact_count(&mut r.allocation_mode, &mut r.count);
            }
            r.tolerations
                .iter_mut()
                .for_each(resource_v1beta1::device_toleration);
            for s in &mut r.first_available {
                exact_count(&mut s.allocation_mode, &mut s.count);
                s.tolerations
                    .iter_mut()
                    .for_each(resource_v1beta1::device_toleration);
            }
        }
    }
    d.add(|c: &mut v1beta1::ResourceClaim| v1beta1_spec(&mut c.spec));
    d.add(|c: &mut v1beta1::ResourceClaimTemplate| v1beta1_spec(&mut c.spec.spec));
    #[cfg(feature = "v1_37")]
    d.add(|r: &mut v1::DeviceTaintRule| time_added(&mut r.spec.taint));
    d.add(|s: &mut v1::ResourceSlice| {
        s.spec
            .devices
            .iter_mut()
            .flat_map(|d| d.taints.iter_mut())
            .for_each(time_added);
    });
    d.add(|s: &mut v1beta1::ResourceSlice| {
        s.spec
            .devices
            .iter_mut()
            .filter_map(|d| d.basic.as_mut())
            .flat_map(|b| b.taints.iter_mut())
            .for_each(time_added);
    });
    d.add(|r: &mut v1alpha3::ResourcePoolStatusRequest| {
        resource_v1alpha3::resource_pool_status_request_spec(&mut r.spec);
    });
}
