//! A Deployment's status as Go's controller computes it (`calculateStatus`,
//! `syncRolloutStatus`): the replica counts summed over its ReplicaSets, `Available`
//! (`MinimumReplicasAvailable` once `replicas - maxUnavailable` Pods are available) and
//! `Progressing` (`NewReplicaSetCreated`, `FoundNewReplicaSet`, `ReplicaSetUpdated`,
//! `NewReplicaSetAvailable`, `ProgressDeadlineExceeded`, `DeploymentPaused`,
//! `DeploymentResumed`) with Go's reasons and messages.

use apimachinery::apis::meta::v1::Time;
use k8s_types::apps::v1::{Deployment, DeploymentCondition, DeploymentStatus, ReplicaSet};

use super::rollout::{max_unavailable, replicas, total_available, total_replicas};

/// A condition as Go's `NewDeploymentCondition` makes it.
pub fn condition(
    kind: &str,
    status: &str,
    reason: &str,
    message: String,
    now: &Time,
) -> DeploymentCondition {
    DeploymentCondition {
        r#type: kind.into(),
        status: status.into(),
        reason: reason.into(),
        message,
        last_update_time: *now,
        last_transition_time: *now,
    }
}

/// The condition of `kind`.
pub fn get<'a>(status: &'a DeploymentStatus, kind: &str) -> Option<&'a DeploymentCondition> {
    status.conditions.iter().find(|c| c.r#type == kind)
}

/// Go's `SetDeploymentCondition`: nothing changes when status and reason are the same;
/// the transition time is kept when the status is; the condition goes last.
pub fn set(status: &mut DeploymentStatus, mut c: DeploymentCondition) {
    if let Some(current) = get(status, &c.r#type) {
        if current.status == c.status && current.reason == c.reason {
            return;
        }
        if current.status == c.status {
            c.last_transition_time = current.last_transition_time;
        }
    }
    status.conditions.retain(|old| old.r#type != c.r#type);
    status.conditions.push(c);
}

/// Go's `RemoveDeploymentCondition`.
pub fn remove(status: &mut DeploymentStatus, kind: &str) {
    status.conditions.retain(|c| c.r#type != kind);
}

/// Go's `calculateStatus`: counts over `all` (the new ReplicaSet among them), and
/// `Available`.
pub fn calculate(
    d: &Deployment,
    all: &[&ReplicaSet],
    new_rs: Option<&ReplicaSet>,
    now: &Time,
) -> DeploymentStatus {
    let available = total_available(all.iter().copied());
    let total = total_replicas(all.iter().copied());
    let mut status = DeploymentStatus {
        observed_generation: d.metadata.generation,
        replicas: all.iter().map(|rs| rs.status.replicas).sum(),
        updated_replicas: new_rs.map_or(0, |rs| rs.status.replicas),
        ready_replicas: all.iter().map(|rs| rs.status.ready_replicas).sum(),
        available_replicas: available,
        unavailable_replicas: (total - available).max(0),
        terminating_replicas: Some(
            all.iter()
                .map(|rs| rs.status.terminating_replicas.unwrap_or(0))
                .sum(),
        ),
        conditions: d.status.conditions.clone(),
        collision_count: d.status.collision_count,
    };
    if available >= replicas(d) - max_unavailable(d) {
        set(
            &mut status,
            condition(
                "Available",
                "True",
                "MinimumReplicasAvailable",
                "Deployment has minimum availability.".into(),
                now,
            ),
        );
    } else {
        set(
            &mut status,
            condition(
                "Available",
                "False",
                "MinimumReplicasUnavailable",
                "Deployment does not have minimum availability.".into(),
                now,
            ),
        );
    }
    status
}

/// Go's `DeploymentComplete`.
pub fn is_complete(d: &Deployment, status: &DeploymentStatus) -> bool {
    let want = replicas(d);
    status.updated_replicas == want
        && status.replicas == want
        && status.available_replicas == want
        && status.observed_generation >= d.metadata.generation
}

/// Go's `DeploymentProgressing`: more updated, ready or available Pods, or fewer old
/// ones, than the status the Deployment has.
fn is_progressing(d: &Deployment, status: &DeploymentStatus) -> bool {
    let old = &d.status;
    status.updated_replicas > old.updated_replicas
        || status.replicas - status.updated_replicas < old.replicas - old.updated_replicas
        || status.ready_replicas > old.ready_replicas
        || status.available_replicas > old.available_replicas
}

fn has_deadline(d: &Deployment) -> bool {
    d.spec
        .progress_deadline_seconds
        .is_some_and(|s| s != i32::MAX)
}

/// Go's `DeploymentTimedOut`.
fn timed_out(d: &Deployment, status: &DeploymentStatus, now: &Time) -> bool {
    let (Some(deadline), Some(c)) = (d.spec.progress_deadline_seconds, get(status, "Progressing"))
    else {
        return false;
    };
    match c.reason.as_str() {
        "NewReplicaSetAvailable" => false,
        "ProgressDeadlineExceeded" => true,
        _ => c.last_update_time.unix_seconds() + i64::from(deadline) < now.unix_seconds(),
    }
}

/// Go's `syncRolloutStatus` (without the ReplicaSets' failure conditions): the status
/// with `Progressing` brought up to date.
pub fn rollout(
    d: &Deployment,
    all: &[&ReplicaSet],
    new_rs: Option<&ReplicaSet>,
    now: &Time,
) -> DeploymentStatus {
    let mut status = calculate(d, all, new_rs, now);
    if !has_deadline(d) {
        remove(&mut status, "Progressing");
        return status;
    }
    let current = get(&d.status, "Progressing");
    let complete = status.replicas == status.updated_replicas
        && current.is_some_and(|c| c.reason == "NewReplicaSetAvailable");
    if complete {
        return status;
    }
    let name = |what: &str| match new_rs {
        Some(rs) => format!("ReplicaSet {:?} {what}", rs.metadata.name),
        None => format!("Deployment {:?} {what}", d.metadata.name),
    };
    if is_complete(d, &status) {
        set(
            &mut status,
            condition(
                "Progressing",
                "True",
                "NewReplicaSetAvailable",
                name("has successfully progressed."),
                now,
            ),
        );
    } else if is_progressing(d, &status) {
        let mut c = condition(
            "Progressing",
            "True",
            "ReplicaSetUpdated",
            name("is progressing."),
            now,
        );
        if let Some(current) = current {
            if current.status == "True" {
                c.last_transition_time = current.last_transition_time;
            }
            remove(&mut status, "Progressing");
        }
        set(&mut status, c);
    } else if timed_out(d, &status, now) {
        set(
            &mut status,
            condition(
                "Progressing",
                "False",
                "ProgressDeadlineExceeded",
                name("has timed out progressing."),
                now,
            ),
        );
    }
    status
}

/// Seconds until a rollout still under way times out (Go's `requeueStuckDeployment`).
pub fn seconds_to_deadline(d: &Deployment, status: &DeploymentStatus, now: &Time) -> Option<i64> {
    let deadline = d
        .spec
        .progress_deadline_seconds
        .filter(|_| has_deadline(d))?;
    let c = get(status, "Progressing")?;
    if is_complete(d, status) || c.reason == "ProgressDeadlineExceeded" {
        return None;
    }
    Some((c.last_update_time.unix_seconds() + i64::from(deadline) - now.unix_seconds()).max(1))
}

/// Go's `checkPausedConditions`: `Progressing` is `Unknown` with reason
/// `DeploymentPaused` while paused, and `DeploymentResumed` once resumed. True when it
/// changed.
pub fn paused_condition(d: &Deployment, status: &mut DeploymentStatus, now: &Time) -> bool {
    if !has_deadline(d) {
        return false;
    }
    let paused_now = get(status, "Progressing").is_some_and(|c| c.reason == "DeploymentPaused");
    if d.spec.paused && !paused_now {
        set(
            status,
            condition(
                "Progressing",
                "Unknown",
                "DeploymentPaused",
                "Deployment is paused".into(),
                now,
            ),
        );
        true
    } else if !d.spec.paused && paused_now {
        set(
            status,
            condition(
                "Progressing",
                "Unknown",
                "DeploymentResumed",
                "Deployment is resumed".into(),
                now,
            ),
        );
        true
    } else {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rs(name: &str, replicas: i32, available: i32) -> ReplicaSet {
        let mut rs = ReplicaSet::default();
        rs.metadata.name = name.into();
        rs.spec.replicas = Some(replicas);
        rs.status.replicas = replicas;
        rs.status.ready_replicas = available;
        rs.status.available_replicas = available;
        rs
    }

    fn deployment(replicas: i32) -> Deployment {
        let mut d = Deployment::default();
        d.metadata.name = "web".into();
        d.metadata.generation = 2;
        d.spec.replicas = Some(replicas);
        d.spec.progress_deadline_seconds = Some(600);
        d
    }

    #[test]
    fn a_finished_rollout_is_available_and_complete() {
        let d = deployment(3);
        let new = rs("web-abc", 3, 3);
        let now = Time::from_unix(100, 0);
        let s = rollout(&d, &[&new], Some(&new), &now);
        assert_eq!(
            (
                s.replicas,
                s.updated_replicas,
                s.available_replicas,
                s.unavailable_replicas
            ),
            (3, 3, 3, 0)
        );
        assert_eq!(s.observed_generation, 2);
        let available = get(&s, "Available").unwrap();
        assert_eq!(
            (available.status.as_str(), available.reason.as_str()),
            ("True", "MinimumReplicasAvailable")
        );
        let progressing = get(&s, "Progressing").unwrap();
        assert_eq!(progressing.reason, "NewReplicaSetAvailable");
        assert_eq!(
            progressing.message,
            "ReplicaSet \"web-abc\" has successfully progressed."
        );
    }

    #[test]
    fn a_rollout_under_way_progresses_then_times_out() {
        let mut d = deployment(3);
        let old = rs("web-old", 2, 2);
        let new = rs("web-new", 2, 0);
        let s = rollout(&d, &[&old, &new], Some(&new), &Time::from_unix(100, 0));
        let p = get(&s, "Progressing").unwrap();
        assert_eq!(
            (p.reason.as_str(), p.message.as_str()),
            (
                "ReplicaSetUpdated",
                "ReplicaSet \"web-new\" is progressing."
            )
        );
        assert_eq!(get(&s, "Available").unwrap().status, "True");
        d.status = s;
        let later = Time::from_unix(800, 0);
        let s = rollout(&d, &[&old, &new], Some(&new), &later);
        let p = get(&s, "Progressing").unwrap();
        assert_eq!(
            (p.status.as_str(), p.reason.as_str()),
            ("False", "ProgressDeadlineExceeded")
        );
    }

    #[test]
    fn pausing_sets_progressing_unknown() {
        let mut d = deployment(1);
        d.spec.paused = true;
        let mut s = DeploymentStatus::default();
        assert!(paused_condition(&d, &mut s, &Time::from_unix(1, 0)));
        assert_eq!(get(&s, "Progressing").unwrap().reason, "DeploymentPaused");
        d.spec.paused = false;
        assert!(paused_condition(&d, &mut s, &Time::from_unix(2, 0)));
        assert_eq!(
            get(&s, "Progressing").unwrap().message,
            "Deployment is resumed"
        );
    }
}
