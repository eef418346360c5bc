//! `apps/v1`, `apps/v1beta2` and `apps/v1beta1` (Go's `pkg/apis/apps/<version>/defaults.go`),
//! and `extensions/v1beta1`'s workloads, whose rules differ by version: `v1` and
//! `v1beta2` give a Deployment 25% surges, 10 revisions and a 600 s progress deadline,
//! `v1beta1` keeps 2 revisions and defaults the selector from the template,
//! `extensions/v1beta1` surges by 1 and keeps every revision (2147483647, also its
//! progress deadline). Every kind's pod template then gets the pod spec defaults.

use apimachinery::apis::meta::v1::LabelSelector;
use apimachinery::conversion::Defaulters;
use apimachinery::util::intstr::IntOrString;

use super::core::{labels_from_template, persistent_volume_claim, pod_template_spec};

/// `extensions/v1beta1`'s revision history limit and progress deadline: Go's `MaxInt32`.
pub const EXTENSIONS_UNLIMITED: i32 = i32::MAX;

pub(super) fn selector(labels: std::collections::BTreeMap<String, String>) -> LabelSelector {
    LabelSelector {
        match_labels: labels,
        ..LabelSelector::default()
    }
}

fn percent_25() -> IntOrString {
    IntOrString::String("25%".to_owned())
}

/// A Deployment's defaults: `$surge` is the default max surge and max unavailable,
/// `$history`/`$deadline` the revision history limit and progress deadline;
/// `from_template` defaults selector and labels from the template first; `any_strategy`
/// fills rolling update parameters given to any strategy (`extensions/v1beta1`), not
/// only to `RollingUpdate`.
macro_rules! deployment {
    ($d:ident, $ty:ty, surge: $surge:expr, history: $history:expr, deadline: $deadline:expr, from_template: $from:expr, any_strategy: $any:expr) => {
        $d.add(|obj: &mut $ty| {
            let spec = &mut obj.spec;
            if $from {
                labels_from_template(
                    &spec.template.metadata.labels,
                    &mut spec.selector,
                    selector,
                    &mut obj.metadata,
                );
            }
            spec.replicas.get_or_insert(1);
            let strategy = &mut spec.strategy;
            if strategy.r#type.is_empty() {
                strategy.r#type = "RollingUpdate".to_owned();
            }
            if strategy.r#type == "RollingUpdate" || ($any && strategy.rolling_update.is_some()) {
                let r = strategy.rolling_update.get_or_insert_with(Default::default);
                r.max_unavailable.get_or_insert_with($surge);
                r.max_surge.get_or_insert_with($surge);
            }
            spec.revision_history_limit.get_or_insert($history);
            spec.progress_deadline_seconds.get_or_insert($deadline);
            pod_template_spec(&mut spec.template);
        });
    };
}

/// A DaemonSet's defaults; `$strategy` is the update strategy of an object without one.
macro_rules! daemon_set {
    ($d:ident, $ty:ty, strategy: $strategy:expr, from_template: $from:expr) => {
        $d.add(|obj: &mut $ty| {
            let spec = &mut obj.spec;
            if $from {
                labels_from_template(
                    &spec.template.metadata.labels,
                    &mut spec.selector,
                    selector,
                    &mut obj.metadata,
                );
            }
            let strategy = &mut spec.update_strategy;
            if strategy.r#type.is_empty() {
                strategy.r#type = $strategy.to_owned();
            }
            if strategy.r#type == "RollingUpdate" {
                let r = strategy.rolling_update.get_or_insert_with(Default::default);
                r.max_unavailable.get_or_insert(IntOrString::Int(1));
                r.max_surge.get_or_insert(IntOrString::Int(0));
            }
            spec.revision_history_limit.get_or_insert(10);
            pod_template_spec(&mut spec.template);
        });
    };
}

/// A ReplicaSet's defaults.
macro_rules! replica_set {
    ($d:ident, $ty:ty, from_template: $from:expr) => {
        $d.add(|obj: &mut $ty| {
            let spec = &mut obj.spec;
            if $from {
                labels_from_template(
                    &spec.template.metadata.labels,
                    &mut spec.selector,
                    selector,
                    &mut obj.metadata,
                );
            }
            spec.replicas.get_or_insert(1);
            pod_template_spec(&mut spec.template);
        });
    };
}

/// A StatefulSet's defaults; `$strategy` is the update strategy of an object without one
/// (`v1beta1`'s is `OnDelete`, and it gets no rolling update parameters with it).
#[cfg(feature = "apps")]
macro_rules! stateful_set {
    ($d:ident, $ty:ty, strategy: $strategy:expr, from_template: $from:expr) => {
        $d.add(|obj: &mut $ty| {
            let spec = &mut obj.spec;
            if spec.pod_management_policy.is_empty() {
                spec.pod_management_policy = "OrderedReady".to_owned();
            }
            let strategy = &mut spec.update_strategy;
            if strategy.r#type.is_empty() {
                strategy.r#type = $strategy.to_owned();
                if strategy.r#type == "RollingUpdate" {
                    strategy.rolling_update.get_or_insert_with(Default::default);
                }
            }
            if strategy.r#type == "RollingUpdate" {
                if let Some(r) = strategy.rolling_update.as_mut() {
                    r.partition.get_or_insert(0);
                    // `maxUnavailable` defaults to 1 with the feature
                    // MaxUnavailableStatefulSet: beta and off by default in 1.36, on by
                    // default from 1.37.
                    #[cfg(feature = "v1_37")]
                    r.max_unavailable.get_or_insert(IntOrString::Int(1));
                }
            }
            // Feature StatefulSetAutoDeletePVC (GA).
            let policy = spec
                .persistent_volume_claim_retention_policy
                .get_or_insert_with(Default::default);
            for p in [&mut policy.when_deleted, &mut policy.when_scaled] {
                if p.is_empty() {
                    *p = "Retain".to_owned();
                }
            }
            if $from {
                labels_from_template(
                    &spec.template.metadata.labels,
                    &mut spec.selector,
                    selector,
                    &mut obj.metadata,
                );
            }
            spec.replicas.get_or_insert(1);
            spec.revision_history_limit.get_or_insert(10);
            pod_template_spec(&mut spec.template);
            spec.volume_claim_templates
                .iter_mut()
                .for_each(persistent_volume_claim);
        });
    };
}

#[cfg(feature = "apps")]
pub(super) fn register(d: &mut Defaulters) {
    use crate::apps::{v1, v1beta1, v1beta2};
    deployment!(d, v1::Deployment, surge: percent_25, history: 10, deadline: 600, from_template: false, any_strategy: false);
    daemon_set!(d, v1::DaemonSet, strategy: "RollingUpdate", from_template: false);
    replica_set!(d, v1::ReplicaSet, from_template: false);
    stateful_set!(d, v1::StatefulSet, strategy: "RollingUpdate", from_template: false);
    deployment!(d, v1beta2::Deployment, surge: percent_25, history: 10, deadline: 600, from_template: false, any_strategy: false);
    daemon_set!(d, v1beta2::DaemonSet, strategy: "RollingUpdate", from_template: false);
    replica_set!(d, v1beta2::ReplicaSet, from_template: false);
    stateful_set!(d, v1beta2::StatefulSet, strategy: "RollingUpdate", from_template: false);
    deployment!(d, v1beta1::Deployment, surge: percent_25, history: 2, deadline: 600, from_template: true, any_strategy: false);
    stateful_set!(d, v1beta1::StatefulSet, strategy: "OnDelete", from_template: true);
}

#[cfg(feature = "extensions")]
pub(super) fn register_extensions(d: &mut Defaulters) {
    use crate::extensions::v1beta1 as ext;
    deployment!(d, ext::Deployment, surge: || IntOrString::Int(1), history: EXTENSIONS_UNLIMITED, deadline: EXTENSIONS_UNLIMITED, from_template: true, any_strategy: true);
    daemon_set!(d, ext::DaemonSet, strategy: "OnDelete", from_template: true);
    replica_set!(d, ext::ReplicaSet, from_template: true);
}
