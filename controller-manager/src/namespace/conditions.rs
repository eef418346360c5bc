//! The conditions a terminating Namespace reports while its content goes (Go's
//! `deletion/status_condition_utils.go`): each of five types is `True` with a reason and
//! a message saying what holds the Namespace, or `False` with Go's reason and message
//! for all being well.

use apimachinery::apis::meta::v1::Time;
use k8s_types::core::v1::{NamespaceCondition, NamespaceStatus};

/// Go's `v1.NamespaceDeletionDiscoveryFailure`.
pub const NAMESPACE_DELETION_DISCOVERY_FAILURE: &str = "NamespaceDeletionDiscoveryFailure";
/// Go's `v1.NamespaceDeletionGVParsingFailure`.
pub const NAMESPACE_DELETION_GV_PARSING_FAILURE: &str =
    "NamespaceDeletionGroupVersionParsingFailure";
/// Go's `v1.NamespaceDeletionContentFailure`.
pub const NAMESPACE_DELETION_CONTENT_FAILURE: &str = "NamespaceDeletionContentFailure";
/// Go's `v1.NamespaceContentRemaining`.
pub const NAMESPACE_CONTENT_REMAINING: &str = "NamespaceContentRemaining";
/// Go's `v1.NamespaceFinalizersRemaining`.
pub const NAMESPACE_FINALIZERS_REMAINING: &str = "NamespaceFinalizersRemaining";

/// The condition types, in the order Go adds them, with the reason and message of each
/// when all is well.
const CONDITION_TYPES: [(&str, &str, &str); 5] = [
    (
        NAMESPACE_DELETION_DISCOVERY_FAILURE,
        "ResourcesDiscovered",
        "All resources successfully discovered",
    ),
    (
        NAMESPACE_DELETION_GV_PARSING_FAILURE,
        "ParsedGroupVersions",
        "All legacy kube types successfully parsed",
    ),
    (
        NAMESPACE_DELETION_CONTENT_FAILURE,
        "ContentDeleted",
        "All content successfully deleted, may be waiting on finalization",
    ),
    (
        NAMESPACE_CONTENT_REMAINING,
        "ContentRemoved",
        "All content successfully removed",
    ),
    (
        NAMESPACE_FINALIZERS_REMAINING,
        "ContentHasNoFinalizers",
        "All content-preserving finalizers finished",
    ),
];

/// The conditions of one pass over a Namespace's content (Go's
/// `namespaceConditionUpdater`).
#[derive(Debug, Default)]
pub(super) struct ConditionUpdater {
    new_conditions: Vec<NamespaceCondition>,
    delete_content_errors: Vec<String>,
}

fn condition(type_: &str, reason: &str, message: String) -> NamespaceCondition {
    NamespaceCondition {
        r#type: type_.to_owned(),
        status: "True".to_owned(),
        last_transition_time: Time::now(),
        reason: reason.to_owned(),
        message,
    }
}

impl ConditionUpdater {
    /// Discovery failed: for some groups (`failing` of them, the error naming them), or
    /// altogether (`failing` 0).
    pub(super) fn process_discover_resources_err(&mut self, failing: usize, err: &str) {
        let message = if failing > 0 {
            format!("Discovery failed for some groups, {failing} failing: {err}")
        } else {
            err.to_owned()
        };
        self.new_conditions.push(condition(
            NAMESPACE_DELETION_DISCOVERY_FAILURE,
            "DiscoveryFailed",
            message,
        ));
    }

    /// A group version did not parse.
    pub(super) fn process_group_version_err(&mut self, err: &str) {
        self.new_conditions.push(condition(
            NAMESPACE_DELETION_GV_PARSING_FAILURE,
            "GroupVersionParsingFailed",
            err.to_owned(),
        ));
    }

    /// Deleting one resource's content failed.
    pub(super) fn process_delete_content_err(&mut self, err: String) {
        self.delete_content_errors.push(err);
    }

    /// What remains: instances per resource (`pods.` for the core group, as Go prints
    /// it) and per finalizer.
    pub(super) fn process_content_totals(
        &mut self,
        remaining_by_resource: &[(String, usize)],
        remaining_by_finalizer: &[(String, usize)],
    ) {
        let mut resources: Vec<String> = remaining_by_resource
            .iter()
            .filter(|(_, n)| *n > 0)
            .map(|(r, n)| format!("{r} has {n} resource instances"))
            .collect();
        if !remaining_by_resource.is_empty() {
            resources.sort();
            self.new_conditions.push(condition(
                NAMESPACE_CONTENT_REMAINING,
                "SomeResourcesRemain",
                format!("Some resources are remaining: {}", resources.join(", ")),
            ));
        }
        let mut finalizers: Vec<String> = remaining_by_finalizer
            .iter()
            .filter(|(_, n)| *n > 0)
            .map(|(f, n)| format!("{f} in {n} resource instances"))
            .collect();
        if !remaining_by_finalizer.is_empty() {
            finalizers.sort();
            self.new_conditions.push(condition(
                NAMESPACE_FINALIZERS_REMAINING,
                "SomeFinalizersRemain",
                format!(
                    "Some content in the namespace has finalizers remaining: {}",
                    finalizers.join(", ")
                ),
            ));
        }
    }

    /// Sets the conditions on `status` (Go's `Update`); whether anything changed.
    pub(super) fn update(mut self, status: &mut NamespaceStatus) -> bool {
        let has_content_failure = self
            .new_conditions
            .iter()
            .any(|c| c.r#type == NAMESPACE_DELETION_CONTENT_FAILURE);
        if !has_content_failure && !self.delete_content_errors.is_empty() {
            let mut msgs = std::mem::take(&mut self.delete_content_errors);
            msgs.sort();
            self.new_conditions.push(condition(
                NAMESPACE_DELETION_CONTENT_FAILURE,
                "ContentDeletionFailed",
                format!(
                    "Failed to delete all resource types, {} remaining: {}",
                    msgs.len(),
                    msgs.join(", ")
                ),
            ));
        }
        let mut changed = false;
        for (type_, ok_reason, ok_message) in CONDITION_TYPES {
            let new = match self.new_conditions.iter().find(|c| c.r#type == type_) {
                Some(c) => c.clone(),
                None => NamespaceCondition {
                    r#type: type_.to_owned(),
                    status: "False".to_owned(),
                    last_transition_time: Time::now(),
                    reason: ok_reason.to_owned(),
                    message: ok_message.to_owned(),
                },
            };
            match status.conditions.iter_mut().find(|c| c.r#type == type_) {
                None => {
                    status.conditions.push(new);
                    changed = true;
                }
                Some(old)
                    if old.status != new.status
                        || old.message != new.message
                        || old.reason != new.reason =>
                {
                    if old.status != new.status {
                        old.last_transition_time = Time::now();
                    }
                    (old.status, old.reason, old.message) = (new.status, new.reason, new.message);
                    changed = true;
                }
                Some(_) => {}
            }
        }
        changed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of<'a>(status: &'a NamespaceStatus, type_: &str) -> &'a NamespaceCondition {
        let found = status.conditions.iter().find(|c| c.r#type == type_);
        found.unwrap_or_else(|| unreachable!("no {type_}"))
    }

    #[test]
    fn all_well_is_five_false_conditions_with_gos_reasons() {
        let mut status = NamespaceStatus::default();
        assert!(ConditionUpdater::default().update(&mut status));
        let types: Vec<&str> = status
            .conditions
            .iter()
            .map(|c| c.r#type.as_str())
            .collect();
        assert_eq!(types, CONDITION_TYPES.map(|t| t.0));
        assert!(status.conditions.iter().all(|c| c.status == "False"));
        assert_eq!(
            of(&status, NAMESPACE_CONTENT_REMAINING).reason,
            "ContentRemoved"
        );
        // The same again changes nothing.
        assert!(!ConditionUpdater::default().update(&mut status));
    }

    #[test]
    fn remaining_content_and_failures_in_gos_words() {
        let mut status = NamespaceStatus::default();
        let mut u = ConditionUpdater::default();
        u.process_content_totals(
            &[("pods.".into(), 2), ("widgets.example.com".into(), 1)],
            &[("example.com/hold".into(), 1)],
        );
        u.process_delete_content_err("b failed".into());
        u.process_delete_content_err("a failed".into());
        u.process_discover_resources_err(
            1,
            "unable to retrieve the complete list of server APIs: x/v1: gone",
        );
        assert!(u.update(&mut status));
        let remaining = of(&status, NAMESPACE_CONTENT_REMAINING);
        assert_eq!(remaining.reason, "SomeResourcesRemain");
        assert_eq!(
            remaining.message,
            "Some resources are remaining: pods. has 2 resource instances, widgets.example.com has 1 resource instances"
        );
        assert_eq!(
            of(&status, NAMESPACE_FINALIZERS_REMAINING).message,
            "Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances"
        );
        assert_eq!(
            of(&status, NAMESPACE_DELETION_CONTENT_FAILURE).message,
            "Failed to delete all resource types, 2 remaining: a failed, b failed"
        );
        assert_eq!(
            of(&status, NAMESPACE_DELETION_DISCOVERY_FAILURE).message,
            "Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: x/v1: gone"
        );
    }
}
