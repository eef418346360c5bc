//! `scheduling.k8s.io/v1`, `v1beta1` (Go's `pkg/apis/scheduling/<version>/defaults.go`):
//! a PriorityClass preempts lower priorities; and the PodGroup `+default=` markers: in
//! 1.36 `v1alpha2`'s (its disruption mode is `Pod`); in 1.37, where `v1alpha2` is gone,
//! those of `v1alpha3`'s PodGroup and CompositePodGroup and `v1beta1`'s PodGroup (their
//! disruption mode is `single`). Go's 1.37 PodGroup and CompositePodGroup
//! `preemptionPolicy` default (`PreemptLowerPriority`) is behind the
//! `PodGroupPreemptionPolicy` feature gate, alpha and off by default, so it is not applied.

use apimachinery::conversion::Defaulters;

use super::GetOrInsertStr as _;

macro_rules! priority_class {
    ($d:ident, $ty:ty) => {
        $d.add(|obj: &mut $ty| {
            obj.preemption_policy
                .get_or_insert_str("PreemptLowerPriority");
        });
    };
}

pub(super) fn register(d: &mut Defaulters) {
    use crate::scheduling::{v1, v1beta1};
    priority_class!(d, v1::PriorityClass);
    priority_class!(d, v1beta1::PriorityClass);
    pod_groups(d);
}

#[cfg(not(feature = "v1_37"))]
fn pod_groups(d: &mut Defaulters) {
    use crate::generated::default_markers::scheduling_v1alpha2;
    use crate::scheduling::v1alpha2;
    d.add(|obj: &mut v1alpha2::PodGroup| scheduling_v1alpha2::pod_group_spec(&mut obj.spec));
}

#[cfg(feature = "v1_37")]
fn pod_groups(d: &mut Defaulters) {
    use crate::generated::default_markers::{scheduling_v1alpha3, scheduling_v1beta1};
    use crate::scheduling::{v1alpha3, v1beta1};
    d.add(|obj: &mut v1alpha3::PodGroup| scheduling_v1alpha3::pod_group_spec(&mut obj.spec));
    d.add(|obj: &mut v1alpha3::CompositePodGroup| {
        scheduling_v1alpha3::composite_pod_group_spec(&mut obj.spec);
    });
    d.add(|obj: &mut v1beta1::PodGroup| scheduling_v1beta1::pod_group_spec(&mut obj.spec));
}
