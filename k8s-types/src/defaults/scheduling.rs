//! `scheduling.k8s.io/v1`, `v1beta1` (Go's `pkg/apis/scheduling/<version>/defaults.go`):
//! a PriorityClass preempts lower priorities; and `v1alpha2`'s PodGroup `+default=`
//! marker (its disruption mode is `Pod`).

use apimachinery::conversion::Defaulters;

macro_rules! priority_class {
    ($d:ident, $ty:ty) => {
        $d.add(|obj: &mut $ty| {
            obj.preemption_policy
                .get_or_insert_with(|| "PreemptLowerPriority".to_owned());
        });
    };
}

pub(super) fn register(d: &mut Defaulters) {
    use crate::scheduling::{v1, v1alpha2, v1beta1};
    priority_class!(d, v1::PriorityClass);
    priority_class!(d, v1beta1::PriorityClass);
    d.add(|obj: &mut v1alpha2::PodGroup| {
        crate::generated::default_markers::scheduling_v1alpha2::pod_group_spec(&mut obj.spec);
    });
}
