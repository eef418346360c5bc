//! The replica arithmetic of Go's Deployment controller (`rolling.go`, `recreate.go`,
//! the scaling of `sync.go` and `deployment_util.go`), on the Deployment and its
//! ReplicaSets: each function says what the ReplicaSets' `spec.replicas` become, and the
//! controller writes the ones that changed.

use std::cmp::Reverse;

use apimachinery::util::intstr::IntOrString;
use k8s_types::apps::v1::{Deployment, ReplicaSet};

/// `deployment.kubernetes.io/desired-replicas`.
pub const DESIRED_REPLICAS: &str = "deployment.kubernetes.io/desired-replicas";
/// `deployment.kubernetes.io/max-replicas`.
pub const MAX_REPLICAS: &str = "deployment.kubernetes.io/max-replicas";

/// `spec.replicas` of a ReplicaSet.
pub fn rs_replicas(rs: &ReplicaSet) -> i32 {
    rs.spec.replicas.unwrap_or(0)
}

/// `spec.replicas` of a Deployment (defaulted to 1 by the server).
pub fn replicas(d: &Deployment) -> i32 {
    d.spec.replicas.unwrap_or(1)
}

/// Whether the Deployment rolls (`RollingUpdate`, the default) rather than recreates.
pub fn is_rolling(d: &Deployment) -> bool {
    d.spec.strategy.r#type != "Recreate"
}

fn scaled(value: Option<&IntOrString>, total: i32, round_up: bool) -> i32 {
    value
        .and_then(|v| {
            v.get_scaled_value_from_int_or_percent(i64::from(total), round_up)
                .ok()
        })
        .map_or(0, |v| i32::try_from(v).unwrap_or(i32::MAX))
}

/// Go's `ResolveFenceposts`: `maxSurge` rounded up, `maxUnavailable` rounded down, and
/// one unavailable allowed when both come to zero.
pub fn fenceposts(d: &Deployment) -> (i32, i32) {
    let rolling = d.spec.strategy.rolling_update.as_ref();
    let desired = replicas(d);
    let surge = scaled(rolling.and_then(|r| r.max_surge.as_ref()), desired, true);
    let mut unavailable = scaled(
        rolling.and_then(|r| r.max_unavailable.as_ref()),
        desired,
        false,
    );
    if surge == 0 && unavailable == 0 {
        unavailable = 1;
    }
    (surge, unavailable)
}

/// Go's `MaxSurge`.
pub fn max_surge(d: &Deployment) -> i32 {
    if is_rolling(d) { fenceposts(d).0 } else { 0 }
}

/// Go's `MaxUnavailable` (never more than the replicas).
pub fn max_unavailable(d: &Deployment) -> i32 {
    if !is_rolling(d) || replicas(d) == 0 {
        return 0;
    }
    fenceposts(d).1.min(replicas(d))
}

/// Sum of `spec.replicas`.
pub fn total_replicas<'a>(all: impl IntoIterator<Item = &'a ReplicaSet>) -> i32 {
    all.into_iter().map(rs_replicas).sum()
}

/// Sum of `status.availableReplicas`.
pub fn total_available<'a>(all: impl IntoIterator<Item = &'a ReplicaSet>) -> i32 {
    all.into_iter().map(|rs| rs.status.available_replicas).sum()
}

/// Go's `NewRSNewReplicas`: how far the new ReplicaSet may grow now.
pub fn new_rs_new_replicas(d: &Deployment, all: &[&ReplicaSet], new_rs: &ReplicaSet) -> i32 {
    if !is_rolling(d) {
        return replicas(d);
    }
    let max_total = replicas(d) + max_surge(d);
    let current = total_replicas(all.iter().copied());
    if current >= max_total {
        return rs_replicas(new_rs);
    }
    let up = (max_total - current).min(replicas(d) - rs_replicas(new_rs));
    rs_replicas(new_rs) + up
}

/// Go's `reconcileOldReplicaSets`: the old ReplicaSets' new sizes (in `old`, oldest
/// first by creation), first taking away their unavailable Pods, then as many available
/// ones as `maxUnavailable` allows. Returns how many replicas were taken away.
pub fn scale_down_old(d: &Deployment, old: &mut [ReplicaSet], new_rs: &ReplicaSet) -> i32 {
    let old_count = total_replicas(old.iter());
    if old_count == 0 {
        return 0;
    }
    let all_count = old_count + rs_replicas(new_rs);
    let min_available = replicas(d) - max_unavailable(d);
    let new_unavailable = rs_replicas(new_rs) - new_rs.status.available_replicas;
    let max_scaled_down = all_count - min_available - new_unavailable;
    if max_scaled_down <= 0 {
        return 0;
    }
    old.sort_by_key(|rs| (rs.metadata.creation_timestamp, rs.metadata.name.clone()));
    // Unhealthy replicas first.
    let mut cleaned = 0;
    for rs in old.iter_mut() {
        if cleaned >= max_scaled_down {
            break;
        }
        let (size, available) = (rs_replicas(rs), rs.status.available_replicas);
        if size == 0 || size == available {
            continue;
        }
        let down = (max_scaled_down - cleaned).min(size - available);
        rs.spec.replicas = Some(size - down);
        cleaned += down;
    }
    // Then available ones, down to minAvailable.
    let available = total_available(old.iter()) + new_rs.status.available_replicas;
    if available <= min_available {
        return cleaned;
    }
    let to_scale = available - min_available;
    let mut scaled_down = 0;
    for rs in old.iter_mut() {
        if scaled_down >= to_scale {
            break;
        }
        let size = rs_replicas(rs);
        if size == 0 {
            continue;
        }
        let down = size.min(to_scale - scaled_down);
        rs.spec.replicas = Some(size - down);
        scaled_down += down;
    }
    cleaned + scaled_down
}

fn annotation_i32(rs: &ReplicaSet, key: &str) -> Option<i32> {
    rs.metadata.annotations.get(key)?.parse().ok()
}

/// Go's `IsSaturated`: the new ReplicaSet has all the Deployment's replicas, available.
pub fn is_saturated(d: &Deployment, new_rs: Option<&ReplicaSet>) -> bool {
    let Some(rs) = new_rs else {
        return false;
    };
    annotation_i32(rs, DESIRED_REPLICAS) == Some(replicas(d))
        && rs_replicas(rs) == replicas(d)
        && rs.status.available_replicas == replicas(d)
}

/// Go's `scale` for a Deployment whose `spec.replicas` changed: the one active (or
/// latest) ReplicaSet takes it all; a saturated new ReplicaSet leaves the old ones at
/// zero; during a rolling update the difference is spread over the active ReplicaSets
/// in proportion to their sizes (`all`: the new ReplicaSet last, when there is one).
pub fn scale(d: &Deployment, all: &mut [ReplicaSet], has_new: bool) {
    let active: Vec<usize> = (0..all.len())
        .filter(|i| rs_replicas(&all[*i]) > 0)
        .collect();
    let target = match active.as_slice() {
        [one] => Some(*one),
        [] if !all.is_empty() => {
            if has_new {
                Some(all.len() - 1)
            } else {
                (0..all.len()).max_by_key(|i| all[*i].metadata.creation_timestamp)
            }
        }
        _ => None,
    };
    if let Some(i) = target {
        all[i].spec.replicas = Some(replicas(d));
        return;
    }
    let new_rs = has_new.then(|| &all[all.len() - 1]);
    if is_saturated(d, new_rs) {
        let last = all.len() - 1;
        for rs in &mut all[..last] {
            rs.spec.replicas = Some(0);
        }
        return;
    }
    if !is_rolling(d) {
        return;
    }
    let mut order = active;
    let current = total_replicas(order.iter().map(|i| &all[*i]));
    let allowed = if replicas(d) > 0 {
        replicas(d) + max_surge(d)
    } else {
        0
    };
    let to_add = allowed - current;
    if to_add == 0 {
        return;
    }
    if to_add > 0 {
        // Larger first, newer first among equals.
        order.sort_by_key(|i| {
            (
                Reverse(rs_replicas(&all[*i])),
                Reverse(all[*i].metadata.creation_timestamp),
            )
        });
    } else {
        // Larger first, older first among equals.
        order.sort_by_key(|i| {
            (
                Reverse(rs_replicas(&all[*i])),
                all[*i].metadata.creation_timestamp,
            )
        });
    }
    let mut added = 0;
    let mut sizes = Vec::with_capacity(order.len());
    for i in &order {
        let p = proportion(d, &all[*i], to_add, added);
        sizes.push(rs_replicas(&all[*i]) + p);
        added += p;
    }
    if let Some(first) = sizes.first_mut() {
        *first = (*first + to_add - added).max(0);
    }
    for (i, size) in order.iter().zip(sizes) {
        all[*i].spec.replicas = Some(size);
    }
}

/// Go's `GetReplicaSetProportion`.
fn proportion(d: &Deployment, rs: &ReplicaSet, to_add: i32, added: i32) -> i32 {
    if rs_replicas(rs) == 0 || to_add == 0 || to_add == added {
        return 0;
    }
    let fraction = fraction(d, rs);
    let allowed = to_add - added;
    if to_add > 0 {
        fraction.min(allowed)
    } else {
        fraction.max(allowed)
    }
}

/// Go's `getReplicaSetFraction`.
fn fraction(d: &Deployment, rs: &ReplicaSet) -> i32 {
    if replicas(d) == 0 {
        return -rs_replicas(rs);
    }
    let max_now = replicas(d) + max_surge(d);
    let before = match annotation_i32(rs, MAX_REPLICAS) {
        Some(v) if v != 0 => v,
        _ if d.status.replicas == 0 => return 0,
        _ => d.status.replicas,
    };
    let size = f64::from(rs_replicas(rs)) * f64::from(max_now) / f64::from(before);
    // Go's integer.RoundToInt32 rounds half away from zero.
    size.round() as i32 - rs_replicas(rs)
}

/// Go's `SetReplicasAnnotations`: records the Deployment's size and maximum on a
/// ReplicaSet it scales; true when they changed.
pub fn set_replicas_annotations(rs: &mut ReplicaSet, desired: i32, max: i32) -> bool {
    let mut changed = false;
    for (key, value) in [(DESIRED_REPLICAS, desired), (MAX_REPLICAS, max)] {
        let value = value.to_string();
        if rs.metadata.annotations.get(key) != Some(&value) {
            rs.metadata.annotations.insert(key.into(), value);
            changed = true;
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use apimachinery::apis::meta::v1::Time;
    use k8s_types::apps::v1::RollingUpdateDeployment;

    fn deployment(replicas: i32, surge: &str, unavailable: &str) -> Deployment {
        let mut d = Deployment::default();
        d.spec.replicas = Some(replicas);
        d.spec.strategy.r#type = "RollingUpdate".into();
        d.spec.strategy.rolling_update = Some(RollingUpdateDeployment {
            max_surge: Some(IntOrString::parse(surge)),
            max_unavailable: Some(IntOrString::parse(unavailable)),
        });
        d
    }

    fn rs(name: &str, replicas: i32, available: i32, created: i64) -> ReplicaSet {
        let mut rs = ReplicaSet::default();
        rs.metadata.name = name.into();
        rs.metadata.creation_timestamp = Time::from_unix(created, 0);
        rs.spec.replicas = Some(replicas);
        rs.status.available_replicas = available;
        rs
    }

    #[test]
    fn fenceposts_round_as_go_does() {
        assert_eq!(fenceposts(&deployment(10, "25%", "25%")), (3, 2));
        assert_eq!(fenceposts(&deployment(3, "0", "0")), (0, 1));
        assert_eq!(max_unavailable(&deployment(1, "0", "5")), 1);
        let mut recreate = deployment(3, "1", "1");
        recreate.spec.strategy.r#type = "Recreate".into();
        assert_eq!((max_surge(&recreate), max_unavailable(&recreate)), (0, 0));
    }

    #[test]
    fn a_rolling_update_surges_then_scales_old_down() {
        let d = deployment(10, "25%", "25%");
        let old = rs("old", 10, 10, 1);
        let new = rs("new", 0, 0, 2);
        assert_eq!(new_rs_new_replicas(&d, &[&old, &new], &new), 3);
        let new = rs("new", 3, 0, 2);
        let mut olds = vec![old];
        // 13 Pods, 8 must stay available, 3 new ones unavailable: 2 old ones go.
        assert_eq!(scale_down_old(&d, &mut olds, &new), 2);
        assert_eq!(olds[0].spec.replicas, Some(8));
        // Unavailable old replicas go first, whatever the budget for available ones.
        let mut olds = vec![rs("old", 8, 5, 1)];
        let new = rs("new", 3, 3, 2);
        assert_eq!(scale_down_old(&d, &mut olds, &new), 3);
        assert_eq!(olds[0].spec.replicas, Some(5));
    }

    #[test]
    fn scaling_spreads_in_proportion() {
        let d = deployment(20, "3", "0");
        let mut old = rs("old", 5, 5, 1);
        let mut new = rs("new", 8, 0, 2);
        for r in [&mut old, &mut new] {
            set_replicas_annotations(r, 10, 13);
        }
        let mut all = vec![old, new];
        scale(&d, &mut all, true);
        // 13 → 23 allowed: new grows 8 → 14, old 5 → 9 (fractions 6 and 4, rounded).
        assert_eq!(total_replicas(all.iter()), 23);
        assert_eq!(
            (all[0].spec.replicas, all[1].spec.replicas),
            (Some(9), Some(14))
        );
        // One active ReplicaSet takes the whole size.
        let mut one = vec![rs("only", 3, 3, 1)];
        scale(&d, &mut one, true);
        assert_eq!(one[0].spec.replicas, Some(20));
    }
}
