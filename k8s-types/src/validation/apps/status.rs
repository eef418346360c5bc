//! The `/status` validators of the apps workloads (Go's status strategies'
//! `ValidateUpdate`: `ValidateDeploymentStatusUpdate`, `ValidateReplicaSetStatusUpdate`,
//! `ValidateStatefulSetStatusUpdate`, `ValidateDaemonSetStatusUpdate`): the metadata
//! update, every count not negative, no count above the replicas it is part of, and
//! the collision count never decremented. The same in 1.36 and 1.37.

use apimachinery::util::validation::field::{Error, ErrorList, Path};

use super::{non_negative, non_negative_opt};
use crate::apps::v1::{DaemonSet, Deployment, ReplicaSet, StatefulSet};
use crate::validation::validate_object_meta_update;

/// Go's message for a count above `status.replicas`.
const ABOVE_REPLICAS: &str = "cannot be greater than status.replicas";

/// Go's `ValidateDeploymentStatusUpdate`.
pub fn validate_deployment_status_update(new: &Deployment, old: &Deployment) -> ErrorList {
    let mut errs = metadata(&new.metadata, &old.metadata);
    let s = &new.status;
    let mut status = Status::new(&mut errs);
    status.generation(s.observed_generation);
    status.counts(&[
        (s.replicas, "replicas"),
        (s.updated_replicas, "updatedReplicas"),
        (s.ready_replicas, "readyReplicas"),
        (s.available_replicas, "availableReplicas"),
        (s.unavailable_replicas, "unavailableReplicas"),
    ]);
    status.optional_counts(&[
        (s.terminating_replicas, "terminatingReplicas"),
        (s.collision_count, "collisionCount"),
    ]);
    status.not_above(
        s.replicas,
        ABOVE_REPLICAS,
        &[
            (s.updated_replicas, "updatedReplicas"),
            (s.ready_replicas, "readyReplicas"),
            (s.available_replicas, "availableReplicas"),
        ],
    );
    status.not_above(
        s.ready_replicas,
        "cannot be greater than readyReplicas",
        &[(s.available_replicas, "availableReplicas")],
    );
    collision_count_kept(s.collision_count, old.status.collision_count, &mut errs);
    errs
}

/// Go's `ValidateReplicaSetStatusUpdate`.
pub fn validate_replica_set_status_update(new: &ReplicaSet, old: &ReplicaSet) -> ErrorList {
    let mut errs = metadata(&new.metadata, &old.metadata);
    let s = &new.status;
    let mut status = Status::new(&mut errs);
    status.counts(&[
        (s.replicas, "replicas"),
        (s.fully_labeled_replicas, "fullyLabeledReplicas"),
        (s.ready_replicas, "readyReplicas"),
        (s.available_replicas, "availableReplicas"),
    ]);
    status.generation(s.observed_generation);
    status.optional_counts(&[(s.terminating_replicas, "terminatingReplicas")]);
    status.not_above(
        s.replicas,
        ABOVE_REPLICAS,
        &[
            (s.fully_labeled_replicas, "fullyLabeledReplicas"),
            (s.ready_replicas, "readyReplicas"),
            (s.available_replicas, "availableReplicas"),
        ],
    );
    status.not_above(
        s.ready_replicas,
        "cannot be greater than readyReplicas",
        &[(s.available_replicas, "availableReplicas")],
    );
    errs
}

/// Go's `ValidateStatefulSetStatusUpdate`: the status first, then the metadata. The
/// internal `observedGeneration` is a pointer apps/v1's conversion always sets.
pub fn validate_stateful_set_status_update(new: &StatefulSet, old: &StatefulSet) -> ErrorList {
    let mut errs = ErrorList::default();
    let s = &new.status;
    let mut status = Status::new(&mut errs);
    status.counts(&[
        (s.replicas, "replicas"),
        (s.ready_replicas, "readyReplicas"),
        (s.current_replicas, "currentReplicas"),
        (s.updated_replicas, "updatedReplicas"),
        (s.available_replicas, "availableReplicas"),
    ]);
    status.generation(s.observed_generation);
    status.optional_counts(&[(s.collision_count, "collisionCount")]);
    status.not_above(
        s.replicas,
        ABOVE_REPLICAS,
        &[
            (s.ready_replicas, "readyReplicas"),
            (s.current_replicas, "currentReplicas"),
            (s.updated_replicas, "updatedReplicas"),
            (s.available_replicas, "availableReplicas"),
        ],
    );
    status.not_above(
        s.ready_replicas,
        "cannot be greater than status.readyReplicas",
        &[(s.available_replicas, "availableReplicas")],
    );
    errs.extend(metadata(&new.metadata, &old.metadata));
    collision_count_kept(s.collision_count, old.status.collision_count, &mut errs);
    errs
}

/// Go's `ValidateDaemonSetStatusUpdate`.
pub fn validate_daemon_set_status_update(new: &DaemonSet, old: &DaemonSet) -> ErrorList {
    let mut errs = metadata(&new.metadata, &old.metadata);
    let s = &new.status;
    let mut status = Status::new(&mut errs);
    status.counts(&[
        (s.current_number_scheduled, "currentNumberScheduled"),
        (s.number_misscheduled, "numberMisscheduled"),
        (s.desired_number_scheduled, "desiredNumberScheduled"),
        (s.number_ready, "numberReady"),
    ]);
    status.generation(s.observed_generation);
    status.counts(&[
        (s.updated_number_scheduled, "updatedNumberScheduled"),
        (s.number_available, "numberAvailable"),
        (s.number_unavailable, "numberUnavailable"),
    ]);
    status.optional_counts(&[(s.collision_count, "collisionCount")]);
    collision_count_kept(s.collision_count, old.status.collision_count, &mut errs);
    errs
}

/// Go's `ValidateObjectMetaUpdate` of a workload.
fn metadata(
    new: &apimachinery::apis::meta::v1::ObjectMeta,
    old: &apimachinery::apis::meta::v1::ObjectMeta,
) -> ErrorList {
    validate_object_meta_update(new, old, &Path::new("metadata"))
}

/// The checks of a workload's counts under `status`, in Go's order of calls.
struct Status<'a> {
    fld: Path<'static>,
    errs: &'a mut ErrorList,
}

impl<'a> Status<'a> {
    fn new(errs: &'a mut ErrorList) -> Self {
        Status {
            fld: Path::new("status"),
            errs,
        }
    }

    /// `observedGeneration` not negative.
    fn generation(&mut self, value: i64) {
        non_negative(value, &self.fld.child("observedGeneration"), self.errs);
    }

    /// Each count not negative (Go's `ValidateNonnegativeField`).
    fn counts(&mut self, counts: &[(i32, &str)]) {
        for (value, name) in counts {
            non_negative(i64::from(*value), &self.fld.child(name), self.errs);
        }
    }

    /// Each count that is set not negative.
    fn optional_counts(&mut self, counts: &[(Option<i32>, &str)]) {
        for (value, name) in counts {
            non_negative_opt(*value, &self.fld.child(name), self.errs);
        }
    }

    /// Each count not above `bound`: Go's `Invalid` with `msg`.
    fn not_above(&mut self, bound: i32, msg: &str, counts: &[(i32, &str)]) {
        for (value, name) in counts {
            if *value > bound {
                self.errs
                    .push(Error::invalid(&self.fld.child(name), *value, msg));
            }
        }
    }
}

/// Go's `IsDecremented` of `status.collisionCount`: gone, or lower than before.
fn collision_count_kept(new: Option<i32>, old: Option<i32>, errs: &mut ErrorList) {
    let decremented = match (new, old) {
        (None, Some(_)) => true,
        (Some(n), Some(o)) => n < o,
        _ => false,
    };
    if decremented {
        errs.push(Error::invalid(
            &Path::new("status").child("collisionCount"),
            new.unwrap_or(0),
            "cannot be decremented",
        ));
    }
}
