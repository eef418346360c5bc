//! `DeleteOptions` as the registry uses them: the preconditions, the grace period, and
//! the propagation policy Go records as the `orphan` or `foregroundDeletion` finalizer.

use apimachinery::api::errors::{self, StatusError};
use apimachinery::schema::GroupResource;

/// `DeleteOptions` as the store uses them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DeleteParams {
    /// Delete only if the object has this uid.
    pub precondition_uid: Option<String>,
    /// Delete only if the object is at this resourceVersion.
    pub precondition_resource_version: Option<String>,
    /// `Orphan`, `Background` or `Foreground`.
    pub propagation_policy: Option<String>,
    /// Validate and answer without writing.
    pub dry_run: bool,
    /// `gracePeriodSeconds`: how long a Pod may take to stop (see [`before_delete`](super::graceful_delete::before_delete));
    /// `None` is the Pod's own `terminationGracePeriodSeconds`.
    pub grace_period_seconds: Option<i64>,
    /// `orphanDependents`, the deprecated form of `propagationPolicy`: `false` makes a
    /// delete that only marks the object answer 202 Accepted, as in Go.
    pub orphan_dependents: Option<bool>,
}

impl DeleteParams {
    /// The preconditions as the registries that delete an object themselves check them
    /// (Go's CRD and Namespace `Delete`), with their words: 409 Conflict on `resource`.
    pub fn check_own_preconditions(
        &self,
        resource: &GroupResource,
        name: &str,
        uid: &str,
        resource_version: &str,
    ) -> Result<(), StatusError> {
        let conflict = |message: String| errors::new_conflict(resource, name, message);
        if let Some(want) = self.precondition_uid.as_ref().filter(|w| *w != uid) {
            return Err(conflict(format!(
                "Precondition failed: UID in precondition: {want}, UID in object meta: {uid}"
            )));
        }
        if let Some(want) = self
            .precondition_resource_version
            .as_ref()
            .filter(|w| *w != resource_version)
        {
            return Err(conflict(format!(
                "Precondition failed: ResourceVersion in precondition: {want}, ResourceVersion in object meta: {resource_version}"
            )));
        }
        Ok(())
    }

    /// Whether the object deleted should carry the `orphan` finalizer once marked (Go's
    /// `shouldHaveOrphanFinalizer` of the Namespace registry), given whether it has it.
    pub fn should_orphan(&self, has_it: bool) -> bool {
        match (self.orphan_dependents, self.propagation_policy.as_deref()) {
            (Some(orphan), _) => orphan,
            (None, Some(policy)) => policy == "Orphan",
            (None, None) => has_it,
        }
    }

    /// Whether it should carry `foregroundDeletion` (Go's
    /// `shouldHaveDeleteDependentsFinalizer`).
    pub fn should_delete_dependents(&self, has_it: bool) -> bool {
        match (self.orphan_dependents, self.propagation_policy.as_deref()) {
            (Some(orphan), _) => !orphan,
            (None, Some(policy)) => policy == "Foreground",
            (None, None) => has_it,
        }
    }
}
