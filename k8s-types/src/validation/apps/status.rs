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
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    let fld = Path::new("status");
    let s = &new.status;
    non_negative(
        s.observed_generation,
        &fld.child("observedGeneration"),
        &mut errs,
    );
    for (value, name) in [
        (s.replicas, "replicas"),
        (s.updated_replicas, "updatedReplicas"),
        (s.ready_replicas, "readyReplicas"),
        (s.available_replicas, "availableReplicas"),
        (s.unavailable_replicas, "unavailableReplicas"),
    ] {
        non_negative(i64::from(value), &fld.child(name), &mut errs);
    }
    non_negative_opt(
        s.terminating_replicas,
        &fld.child("terminatingReplicas"),
        &mut errs,
    );
    non_negative_opt(s.collision_count, &fld.child("collisionCount"), &mut errs);
    for (value, name) in [
        (s.updated_replicas, "updatedReplicas"),
        (s.ready_replicas, "readyReplicas"),
        (s.available_replicas, "availableReplicas"),
    ] {
        above(
            value,
            s.replicas,
            &fld.child(name),
            ABOVE_REPLICAS,
            &mut errs,
        );
    }
    above(
        s.available_replicas,
        s.ready_replicas,
        &fld.child("availableReplicas"),
        "cannot be greater than readyReplicas",
        &mut errs,
    );
    collision_count_kept(s.collision_count, old.status.collision_count, &mut errs);
    errs
}

/// Go's `ValidateReplicaSetStatusUpdate`.
pub fn validate_replica_set_status_update(new: &ReplicaSet, old: &ReplicaSet) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    let fld = Path::new("status");
    let s = &new.status;
    for (value, name) in [
        (s.replicas, "replicas"),
        (s.fully_labeled_replicas, "fullyLabeledReplicas"),
        (s.ready_replicas, "readyReplicas"),
        (s.available_replicas, "availableReplicas"),
    ] {
        non_negative(i64::from(value), &fld.child(name), &mut errs);
    }
    non_negative(
        s.observed_generation,
        &fld.child("observedGeneration"),
        &mut errs,
    );
    non_negative_opt(
        s.terminating_replicas,
        &fld.child("terminatingReplicas"),
        &mut errs,
    );
    for (value, name) in [
        (s.fully_labeled_replicas, "fullyLabeledReplicas"),
        (s.ready_replicas, "readyReplicas"),
        (s.available_replicas, "availableReplicas"),
    ] {
        above(
            value,
            s.replicas,
            &fld.child(name),
            ABOVE_REPLICAS,
            &mut errs,
        );
    }
    above(
        s.available_replicas,
        s.ready_replicas,
        &fld.child("availableReplicas"),
        "cannot be greater than readyReplicas",
        &mut errs,
    );
    errs
}

/// Go's `ValidateStatefulSetStatusUpdate`: the status first, then the metadata. The
/// internal `observedGeneration` is a pointer apps/v1's conversion always sets.
pub fn validate_stateful_set_status_update(new: &StatefulSet, old: &StatefulSet) -> ErrorList {
    let mut errs = ErrorList::default();
    let fld = Path::new("status");
    let s = &new.status;
    for (value, name) in [
        (s.replicas, "replicas"),
        (s.ready_replicas, "readyReplicas"),
        (s.current_replicas, "currentReplicas"),
        (s.updated_replicas, "updatedReplicas"),
        (s.available_replicas, "availableReplicas"),
    ] {
        non_negative(i64::from(value), &fld.child(name), &mut errs);
    }
    non_negative(
        s.observed_generation,
        &fld.child("observedGeneration"),
        &mut errs,
    );
    non_negative_opt(s.collision_count, &fld.child("collisionCount"), &mut errs);
    for (value, name) in [
        (s.ready_replicas, "readyReplicas"),
        (s.current_replicas, "currentReplicas"),
        (s.updated_replicas, "updatedReplicas"),
        (s.available_replicas, "availableReplicas"),
    ] {
        above(
            value,
            s.replicas,
            &fld.child(name),
            ABOVE_REPLICAS,
            &mut errs,
        );
    }
    above(
        s.available_replicas,
        s.ready_replicas,
        &fld.child("availableReplicas"),
        "cannot be greater than status.readyReplicas",
        &mut errs,
    );
    errs.extend(validate_object_meta_update(
        &new.metadata,
        &old.metadata,
        &Path::new("metadata"),
    ));
    collision_count_kept(s.collision_count, old.status.collision_count, &mut errs);
    errs
}

/// Go's `ValidateDaemonSetStatusUpdate`.
pub fn validate_daemon_set_status_update(new: &DaemonSet, old: &DaemonSet) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    let fld = Path::new("status");
    let s = &new.status;
    for (value, name) in [
        (s.current_number_scheduled, "currentNumberScheduled"),
        (s.number_misscheduled, "numberMisscheduled"),
        (s.desired_number_scheduled, "desiredNumberScheduled"),
        (s.number_ready, "numberReady"),
    ] {
        non_negative(i64::from(value), &fld.child(name), &mut errs);
    }
    non_negative(
        s.observed_generation,
        &fld.child("observedGeneration"),
        &mut errs,
    );
    for (value, name) in [
        (s.updated_number_scheduled, "updatedNumberScheduled"),
        (s.number_available, "numberAvailable"),
        (s.number_unavailable, "numberUnavailable"),
    ] {
        non_negative(i64::from(value), &fld.child(name), &mut errs);
    }
    non_negative_opt(s.collision_count, &fld.child("collisionCount"), &mut errs);
    collision_count_kept(s.collision_count, old.status.collision_count, &mut errs);
    errs
}

/// `value` above `bound`: Go's `Invalid` with `msg`.
fn above(value: i32, bound: i32, path: &Path, msg: &str, errs: &mut ErrorList) {
    if value > bound {
        errs.push(Error::invalid(path, value, msg));
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
