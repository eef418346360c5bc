//! Graceful deletion (Go's `rest.BeforeDelete`): which objects a delete only marks with a
//! `deletionTimestamp` in the future, for how long, and what a second delete may change.
//!
//! A resource's strategy says whether and for how long its objects are deleted
//! gracefully ([`Strategy::check_graceful_delete`]); only Pods are, as in
//! kube-apiserver (see `registry::core::pod`), and every other kind goes at once (unless
//! finalizers hold it). There is no kubelet here: an object marked with a grace period
//! stays until it is deleted again with a shorter one (`gracePeriodSeconds=0` deletes
//! it), or its finalizers are gone after that.

use apimachinery::api::errors::StatusError;
use apimachinery::apis::meta::v1::Time;
use apimachinery::runtime::Object;

use super::strategy::Strategy;

/// What a delete does to an object of a kind with graceful deletion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GracefulOutcome {
    /// Not graceful: delete now (or mark, if finalizers hold the object).
    Immediate,
    /// Already being deleted with a grace period no longer than the one asked: nothing
    /// changes.
    Pending,
    /// The object was marked (`deletionTimestamp`, `deletionGracePeriodSeconds`) with
    /// this grace period; 0 means delete it right after writing the mark.
    Graceful {
        /// The grace period written, in seconds.
        period: i64,
    },
}

/// Go's `BeforeDelete`: decides from the object, the resource's strategy and the
/// request's `gracePeriodSeconds` (`requested`), and marks `obj` when the outcome is
/// [`GracefulOutcome::Graceful`]. `now` is the time of the request, in whole seconds.
/// A resource whose strategy has no grace period for the object (every one but Pods,
/// among the built-in resources) goes at once.
///
/// ```
/// use apiserver::registry::core::pod::PodStrategy;
/// use apiserver::registry::{GracefulOutcome, before_delete, from_value, resources_from_scheme};
/// use apimachinery::apis::meta::v1::Time;
///
/// use k8s_types as _; // the built-in kinds, registered for `add_registry`
///
/// let mut scheme = apimachinery::runtime::Scheme::with_name("example");
/// scheme.add_registry().unwrap();
/// let pods = resources_from_scheme(&scheme)
///     .into_values()
///     .find(|r| r.group.is_empty() && r.resource == "pods")
///     .unwrap();
/// let mut pod = from_value(
///     &scheme,
///     &pods.storage_gvk,
///     serde_json::json!({"metadata": {"name": "p"},
///                        "spec": {"nodeName": "n1", "terminationGracePeriodSeconds": 30}}),
/// )
/// .unwrap();
/// let now = Time::from_unix(1_000, 0);
/// let outcome = before_delete(&PodStrategy, &mut *pod, None, now).unwrap();
/// assert_eq!(outcome, GracefulOutcome::Graceful { period: 30 });
/// let meta = pod.meta().unwrap();
/// assert_eq!(meta.deletion_timestamp(), Some(Time::from_unix(1_030, 0)));
/// assert_eq!(meta.deletion_grace_period_seconds(), Some(30));
/// ```
pub fn before_delete(
    strategy: &dyn Strategy,
    obj: &mut dyn Object,
    requested: Option<i64>,
    now: Time,
) -> Result<GracefulOutcome, StatusError> {
    // Negative periods are read as 1 second, on the request and on the object.
    let requested = requested.map(|p| if p < 0 { 1 } else { p });
    let Some(period) = strategy.check_graceful_delete(obj, requested)? else {
        return Ok(GracefulOutcome::Immediate);
    };
    let Some(meta) = obj.meta() else {
        return Ok(GracefulOutcome::Immediate);
    };
    let deletion_timestamp = meta.deletion_timestamp();
    let stored_period = meta
        .deletion_grace_period_seconds()
        .map(|p| if p < 0 { 1 } else { p });
    let generation = meta.generation();
    if let Some(marked_at) = deletion_timestamp {
        // A mark without a period, or with 0, is a deletion that was written but not
        // finished (a failure between the two writes): finish it now.
        let Some(current) = stored_period.filter(|p| *p != 0) else {
            return Ok(GracefulOutcome::Immediate);
        };
        // A second delete may only shorten the grace period.
        let Some(mut period) = requested.filter(|p| *p < current) else {
            return Ok(GracefulOutcome::Pending);
        };
        let mut at = Time::from_unix(marked_at.unix_seconds() - current + period, 0);
        if at < now {
            // The whole period has passed already: never into the past, and a graceful
            // request stays graceful (1 second) so that whoever runs the object finishes it.
            at = now;
            if period != 0 {
                period = 1;
            }
        }
        if let Some(meta) = obj.meta_mut() {
            meta.set_deletion_timestamp(Some(at));
            meta.set_deletion_grace_period_seconds(Some(period));
        }
        return Ok(GracefulOutcome::Graceful { period });
    }
    let period = if period < 0 { 1 } else { period };
    if let Some(meta) = obj.meta_mut() {
        meta.set_deletion_timestamp(Some(Time::from_unix(now.unix_seconds() + period, 0)));
        meta.set_deletion_grace_period_seconds(Some(period));
        // The first mark changes what controllers of the object should do.
        if generation > 0 {
            meta.set_generation(generation + 1);
        }
    }
    Ok(GracefulOutcome::Graceful { period })
}

/// Go's `markAsDeleting`, for an object held by finalizers that is not deleted
/// gracefully: `deletionTimestamp` now (unless an earlier one is set),
/// `deletionGracePeriodSeconds` 0, and a new generation the first time.
pub fn mark_as_deleting(obj: &mut dyn Object, now: Time) {
    let Some(meta) = obj.meta_mut() else {
        return;
    };
    let existing = meta.deletion_timestamp();
    if existing.is_none() && meta.generation() > 0 {
        let generation = meta.generation();
        meta.set_generation(generation + 1);
    }
    if existing.is_none_or(|t| t > now) {
        meta.set_deletion_timestamp(Some(now));
    }
    meta.set_deletion_grace_period_seconds(Some(0));
}
