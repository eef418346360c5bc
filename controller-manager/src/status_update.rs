//! Writing a status subresource as every controller here does: a conflict means a newer
//! object is on its way through the cache (sync again), not found means it is gone
//! (nothing to do).

use apimachinery::runtime::Object;
use controller_runtime::manager::Manager;
use controller_runtime::reconcile::Action;

/// Writes `obj`'s status; `Some(action)` when the write lost to a newer object
/// ([`Action::requeue`]) or to a deletion ([`Action::done`]), `None` when written.
pub async fn update_status<T: Object>(
    mgr: &Manager,
    obj: &T,
) -> controller_runtime::Result<Option<Action>> {
    match mgr.client().status().update(obj, &Default::default()).await {
        Err(e) if e.is_conflict() => Ok(Some(Action::requeue())),
        Err(e) if e.is_not_found() => Ok(Some(Action::done())),
        Err(e) => Err(e.into()),
        Ok(_) => Ok(None),
    }
}
