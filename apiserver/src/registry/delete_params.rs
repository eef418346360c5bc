//! `DeleteOptions` as the registry uses them: the preconditions, the grace period, and
//! the propagation policy Go records as the `orphan` or `foregroundDeletion` finalizer.

use apimachinery::api::errors::{self, StatusError};
use apimachinery::schema::{GroupKind, GroupResource};
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
use serde_json::Value;

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
    /// `ignoreStoreReadErrorWithClusterBreakingPotential`: delete an object the storage
    /// cannot decode, bypassing its preconditions, finalizers and admission (see
    /// [`Store::delete_corrupt`](super::Store::delete_corrupt)). Kubernetes 1.37 honours
    /// it (its `AllowUnsafeMalformedObjectDeletion` gate is on); 1.36's handlers drop it.
    pub ignore_store_read_error: bool,
    /// Whether the options named `preconditions`, even empty ones (an unsafe delete may
    /// not).
    pub preconditions_given: bool,
    /// The API version of the request's path (a few kinds' default propagation
    /// depends on it: see [`GarbageCollectionPolicy`]).
    pub api_version: String,
}

/// What dependents of a deleted object become when its delete names no policy (Go's
/// `rest.GarbageCollectionPolicy` of a strategy).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GarbageCollectionPolicy {
    /// Deleted (in the background): most kinds.
    #[default]
    DeleteDependents,
    /// Orphaned: core/v1 ReplicationControllers and batch/v1 Jobs, for compatibility.
    OrphanDependents,
    /// No propagation finalizers at all: Events.
    Unsupported,
}

/// Go's `metav1.FinalizerOrphanDependents`.
pub const FINALIZER_ORPHAN_DEPENDENTS: &str = "orphan";
/// Go's `metav1.FinalizerDeleteDependents`.
pub const FINALIZER_DELETE_DEPENDENTS: &str = "foregroundDeletion";

impl DeleteParams {
    /// The parameters a `DeleteOptions` (its JSON) gives a delete of a resource at
    /// `api_version`: a dry run when its `dryRun` names any value, as Go's
    /// `dryrun.IsDryRun` reads it (the values are [`validate`](Self::validate)'s).
    pub fn from_options(options: &Value, api_version: &str) -> Self {
        let text = |p: &str| {
            options
                .pointer(p)
                .and_then(Value::as_str)
                .map(str::to_owned)
        };
        DeleteParams {
            precondition_uid: text("/preconditions/uid"),
            precondition_resource_version: text("/preconditions/resourceVersion"),
            propagation_policy: text("/propagationPolicy"),
            dry_run: options
                .get("dryRun")
                .and_then(Value::as_array)
                .is_some_and(|d| !d.is_empty()),
            grace_period_seconds: options.get("gracePeriodSeconds").and_then(Value::as_i64),
            orphan_dependents: options.get("orphanDependents").and_then(Value::as_bool),
            ignore_store_read_error: options
                .get("ignoreStoreReadErrorWithClusterBreakingPotential")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            preconditions_given: options.get("preconditions").is_some_and(|p| !p.is_null()),
            api_version: api_version.to_owned(),
        }
    }

    /// The `dryRun` values of a `DeleteOptions` (its JSON), as [`validate`](Self::validate)
    /// takes them: a value that is no string is an empty one.
    pub fn dry_run_values(options: &Value) -> Vec<String> {
        options
            .get("dryRun")
            .and_then(Value::as_array)
            .map(|values| {
                values
                    .iter()
                    .map(|v| v.as_str().unwrap_or_default().to_owned())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Go's `ValidateDeleteOptions` of these parameters and the `dryRun` values they came
    /// with: `orphanDependents` and `propagationPolicy` not both set, a policy Go knows,
    /// dry-run values among `All`, an unsafe delete with none of the options it
    /// bypasses; every error in one 422 on `meta.k8s.io`'s `DeleteOptions`.
    pub fn validate(&self, dry_run_values: &[String]) -> Result<(), StatusError> {
        let path = Path::new("propagationPolicy");
        let mut errs = ErrorList::default();
        // Go prints the policy, a pointer to a named string type, as JSON.
        let policy = self.propagation_policy.as_deref();
        if let (Some(_), Some(p)) = (self.orphan_dependents, policy) {
            errs.push(Error::invalid(
                &path,
                BadValue::json_string(p),
                "orphanDependents and deletionPropagation cannot be both set",
            ));
        }
        if let Some(p) = policy.filter(|p| !matches!(*p, "Foreground" | "Background" | "Orphan")) {
            errs.push(Error::not_supported(
                &path,
                BadValue::json_string(p),
                &["Foreground", "Background", "Orphan", "nil"],
            ));
        }
        if dry_run_values.iter().any(|d| d != "All") {
            errs.push(Error::not_supported(
                &Path::new("dryRun"),
                BadValue::json_strings(dry_run_values),
                &["All"],
            ));
        }
        if self.ignore_store_read_error {
            let path = Path::new("ignoreStoreReadErrorWithClusterBreakingPotential");
            let bypassed = [
                (policy.is_some(), "propagationPolicy"),
                (self.orphan_dependents.is_some(), "orphanDependents"),
                (self.grace_period_seconds.is_some(), "gracePeriodSeconds"),
                (self.preconditions_given, "preconditions"),
            ];
            for (_, option) in bypassed.into_iter().filter(|(given, _)| *given) {
                errs.push(Error::invalid(
                    &path,
                    BadValue::Bool(true),
                    format!("cannot be set together with .{option}"),
                ));
            }
        }
        if errs.is_empty() {
            return Ok(());
        }
        Err(errors::new_invalid(
            &GroupKind::new("meta.k8s.io", "DeleteOptions"),
            "",
            &errs,
        ))
    }

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

    /// The finalizers an object with `current` should carry after this delete (Go's
    /// `deletionFinalizersForGarbageCollection`): `orphan` when the delete asks to orphan
    /// (or names no policy and the object already had it, or its kind orphans by
    /// default), `foregroundDeletion` when it asks for foreground deletion (or names none
    /// and the object had it); `None` when they stay as they are.
    pub fn finalizers_for_garbage_collection(
        &self,
        policy: GarbageCollectionPolicy,
        current: &[String],
    ) -> Option<Vec<String>> {
        if policy == GarbageCollectionPolicy::Unsupported {
            return None;
        }
        let has = |f: &str| current.iter().any(|x| x == f);
        let explicit = self.propagation_policy.as_deref();
        let orphan = match (self.orphan_dependents, explicit) {
            (Some(orphan), _) => orphan,
            (None, Some("Orphan")) => true,
            (None, Some("Background" | "Foreground")) => false,
            _ if has(FINALIZER_ORPHAN_DEPENDENTS) => true,
            _ if has(FINALIZER_DELETE_DEPENDENTS) => false,
            _ => policy == GarbageCollectionPolicy::OrphanDependents,
        };
        let foreground = match (self.orphan_dependents, explicit) {
            (Some(_), _) => false,
            (None, Some("Foreground")) => true,
            (None, Some("Background" | "Orphan")) => false,
            _ => has(FINALIZER_DELETE_DEPENDENTS),
        };
        let mut wanted: Vec<String> = current
            .iter()
            .filter(|f| *f != FINALIZER_ORPHAN_DEPENDENTS && *f != FINALIZER_DELETE_DEPENDENTS)
            .cloned()
            .collect();
        if orphan {
            wanted.push(FINALIZER_ORPHAN_DEPENDENTS.to_owned());
        }
        if foreground {
            wanted.push(FINALIZER_DELETE_DEPENDENTS.to_owned());
        }
        let set = |v: &[String]| v.iter().cloned().collect::<std::collections::BTreeSet<_>>();
        (set(&wanted) != set(current)).then_some(wanted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(policy: Option<&str>) -> DeleteParams {
        DeleteParams {
            propagation_policy: policy.map(str::to_owned),
            ..Default::default()
        }
    }

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn finalizers_follow_the_policy_as_gos_store() {
        let d = GarbageCollectionPolicy::DeleteDependents;
        assert_eq!(with(None).finalizers_for_garbage_collection(d, &[]), None);
        assert_eq!(
            with(Some("Foreground")).finalizers_for_garbage_collection(d, &strings(&["a"])),
            Some(strings(&["a", "foregroundDeletion"]))
        );
        // Orphan replaces foreground, background removes both.
        assert_eq!(
            with(Some("Orphan"))
                .finalizers_for_garbage_collection(d, &strings(&["foregroundDeletion"])),
            Some(strings(&["orphan"]))
        );
        assert_eq!(
            with(Some("Background"))
                .finalizers_for_garbage_collection(d, &strings(&["orphan", "a"])),
            Some(strings(&["a"]))
        );
        // No policy: what the object has stays; a kind orphaning by default orphans.
        assert_eq!(
            with(None).finalizers_for_garbage_collection(d, &strings(&["orphan"])),
            None
        );
        assert_eq!(
            with(None)
                .finalizers_for_garbage_collection(GarbageCollectionPolicy::OrphanDependents, &[]),
            Some(strings(&["orphan"]))
        );
        let deprecated = DeleteParams {
            orphan_dependents: Some(false),
            ..Default::default()
        };
        assert_eq!(
            deprecated.finalizers_for_garbage_collection(d, &strings(&["orphan"])),
            Some(vec![])
        );
        assert_eq!(
            with(Some("Orphan"))
                .finalizers_for_garbage_collection(GarbageCollectionPolicy::Unsupported, &[]),
            None
        );
    }

    #[test]
    fn an_unsafe_delete_is_refused_with_each_option_it_bypasses() {
        let body = serde_json::json!({
            "ignoreStoreReadErrorWithClusterBreakingPotential": true,
            "gracePeriodSeconds": 0,
            "propagationPolicy": "Orphan",
            "preconditions": {},
        });
        let params = DeleteParams::from_options(&body, "v1");
        assert!(params.ignore_store_read_error && params.preconditions_given);
        let err = params.validate(&[]).unwrap_err();
        let causes: Vec<String> = err
            .status
            .details
            .iter()
            .flat_map(|d| d.causes.iter().map(|c| c.message.clone()))
            .collect();
        assert_eq!(
            causes,
            [
                "Invalid value: true: cannot be set together with .propagationPolicy",
                "Invalid value: true: cannot be set together with .gracePeriodSeconds",
                "Invalid value: true: cannot be set together with .preconditions",
            ]
        );
        let alone = DeleteParams::from_options(
            &serde_json::json!({"ignoreStoreReadErrorWithClusterBreakingPotential": true}),
            "v1",
        );
        assert!(alone.validate(&[]).is_ok());
    }
}
