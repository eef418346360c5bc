//! `POST .../pods/NAME/eviction` (Go's `EvictionREST`,
//! `pkg/registry/core/pod/storage/eviction.go`): what `kubectl drain` and the cluster
//! autoscaler post to take a Pod off its node without breaking a PodDisruptionBudget.
//!
//! A Pod no budget guards, or one that already stopped, never started or is being
//! deleted, goes at once: its `DisruptionTarget` condition is set, then it is deleted
//! (gracefully, as any Pod delete). A Pod its budget guards goes only when the budget
//! spares a disruption: the budget's `disruptionsAllowed` is decremented and the Pod
//! recorded in its `disruptedPods` (the disruption controller's to reconcile), else the
//! answer is 429 with the budget's reason. An unready Pod goes without spending the
//! budget when the budget lets unhealthy Pods go. Two budgets over one Pod are a 500, as
//! in Go. The answer is a `Status` of `Success`, 201.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use apimachinery::api::errors::{self, StatusError};
use apimachinery::apis::meta::v1::Time;
use apimachinery::labels::Selector;
use apimachinery::managedfields::FieldManager;
use apimachinery::schema::{GroupKind, GroupResource, GroupVersionKind};
use apimachinery::util::validation::field::{Error, ErrorList, Path};
use serde_json::{Value, json};

use crate::endpoints::fieldmanager::{self, SchemeConverter};
use crate::registry::dependencies::Dependencies;
use crate::registry::policy::poddisruptionbudget::PodDisruptionBudgetStrategy;
use crate::registry::printers::label_selector_string;
use crate::registry::resource_info::key_prefix;
use crate::registry::rest::{Context, Creater};
use crate::registry::{
    DeleteParams, ResourceInfo, Selection, Store, Subresource, from_value, to_json,
};

/// Go's `MaxDisruptedPodSize`: a budget recording more evictions than this, which its
/// controller has not yet confirmed, refuses more.
const MAX_DISRUPTED_POD_SIZE: usize = 2000;

/// Go's `EvictionsRetry`: conflicts are retried 20 times, half a second apart.
const RETRIES: usize = 20;
const RETRY_DELAY: Duration = Duration::from_millis(500);

/// The manager kube-apiserver's loopback writes are recorded as (its user agent's first
/// word).
const SERVER_MANAGER: &str = "kube-apiserver";

/// The message of every refusal a budget causes.
const VIOLATION: &str = "Cannot evict pod as it would violate the pod's disruption budget.";

/// The eviction subresource of the Pods' storage.
#[derive(Debug)]
pub struct EvictionRest {
    /// The Pods' store; the condition is written through its `/status`.
    pub(super) pods: Arc<Store>,
    /// The PodDisruptionBudgets' store (Go's loopback client of them), when the server
    /// serves them.
    pub(super) budgets: Option<Arc<Store>>,
}

/// The PodDisruptionBudgets' store an eviction reads and writes, beside `pods` (whose
/// info it shares but for the resource's names and version), when the scheme has
/// policy/v1 budgets.
pub(super) fn budgets_store(pods: &ResourceInfo, deps: &Dependencies) -> Option<Arc<Store>> {
    let storage_gvk = GroupVersionKind::new("policy", "v1", "PodDisruptionBudget");
    if !deps.scheme.recognizes(&storage_gvk) {
        return None;
    }
    let info = ResourceInfo {
        group: "policy".to_owned(),
        resource: "poddisruptionbudgets".to_owned(),
        singular: "poddisruptionbudget".to_owned(),
        kind: "PodDisruptionBudget".to_owned(),
        list_kind: "PodDisruptionBudgetList".to_owned(),
        short_names: vec!["pdb".to_owned()],
        categories: Vec::new(),
        versions: vec!["v1".to_owned()],
        storage_gvk,
        key_prefix: key_prefix("policy", "poddisruptionbudgets"),
        has_scale: false,
        subresources: Vec::new(),
        subresources_not_served: Vec::new(),
        ..pods.clone()
    };
    Some(deps.store(info, PodDisruptionBudgetStrategy))
}

#[async_trait::async_trait]
impl Creater for EvictionRest {
    fn kind(&self, _version: &str) -> GroupVersionKind {
        GroupVersionKind::new("policy", "v1", "Eviction")
    }

    fn answer_kind(&self, _version: &str) -> GroupVersionKind {
        GroupVersionKind::new("", "v1", "Status")
    }

    fn accepts(&self, gvk: &GroupVersionKind) -> bool {
        gvk.group == "policy" && matches!(gvk.version.as_str(), "v1" | "v1beta1")
    }

    async fn create(&self, ctx: &Context<'_>, eviction: Value) -> Result<Value, StatusError> {
        let name = eviction
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if name != ctx.name {
            return Err(errors::new_bad_request(
                "name in URL does not match name in Eviction object",
            ));
        }
        let options = eviction.get("deleteOptions").filter(|o| !o.is_null());
        if options
            .and_then(|o| o.get("ignoreStoreReadErrorWithClusterBreakingPotential"))
            .and_then(Value::as_bool)
            == Some(true)
        {
            return Err(errors::new_invalid(
                &GroupKind::new("policy", "Eviction"),
                name,
                &ErrorList(vec![Error::invalid(
                    &Path::new("deleteOptions.ignoreStoreReadErrorWithClusterBreakingPotential"),
                    true,
                    "can not be set for pod eviction, try after removing the option",
                )]),
            ));
        }
        let (options, dry_run_values) = propagate_dry_run(options, ctx.dry_run)?;
        let original = DeleteParams::from_options(&options, ctx.version);

        // A Pod that is not running (or is being deleted) goes whatever its budgets say;
        // a conflict with another writer is retried unless the client pinned a version.
        let pinned_by_client = original.precondition_resource_version.is_some();
        let mut attempt = 0;
        let pod = loop {
            let pod = to_json(&*self.pods.get(ctx.namespace, name).await?)?;
            if !can_ignore_budgets(&pod) {
                break pod;
            }
            let mut params = original.clone();
            if should_enforce_resource_version(&pod) && !pinned_by_client {
                params.precondition_resource_version =
                    Some(text(&pod, "/metadata/resourceVersion"));
            }
            match self
                .add_condition_and_delete(ctx, name, params, &dry_run_values)
                .await
            {
                Ok(()) => return Ok(success()),
                Err(e) if errors::is_conflict(&e) && !pinned_by_client && attempt < RETRIES => {
                    attempt += 1;
                    tokio::time::sleep(RETRY_DELAY).await;
                }
                Err(e) => return Err(e),
            }
        };

        let (pinned, budget) = self.consult_budgets(ctx, &pod, original.dry_run).await?;
        let mut params = original.clone();
        if pinned {
            params.precondition_resource_version = Some(text(&pod, "/metadata/resourceVersion"));
        }
        match self
            .add_condition_and_delete(ctx, name, params, &dry_run_values)
            .await
        {
            Ok(()) => Ok(success()),
            // The Pod changed (turned ready, say) since the budget let it go: the client
            // asks again.
            Err(e) if errors::is_conflict(&e) && pinned && !pinned_by_client => {
                Err(still_processing(&budget))
            }
            Err(e) => Err(e),
        }
    }
}

impl EvictionRest {
    /// Go's budget checks: the Pod's budgets (none: the Pod goes; two or more: a 500);
    /// an unready Pod the budget lets go; else the budget's disruption spent (Go's
    /// `checkAndDecrement`), retried on conflicts with the budget read again. Returns
    /// whether the delete must be at the Pod's resourceVersion (an unready Pod the budget
    /// let go must not have turned ready since), and the budget's name.
    async fn consult_budgets(
        &self,
        ctx: &Context<'_>,
        pod: &Value,
        dry_run: bool,
    ) -> Result<(bool, String), StatusError> {
        let Some(budgets) = &self.budgets else {
            return Ok((false, String::new()));
        };
        let labels: BTreeMap<String, String> = pod
            .pointer("/metadata/labels")
            .and_then(Value::as_object)
            .map(|m| {
                m.iter()
                    .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_owned()))
                    .collect()
            })
            .unwrap_or_default();
        let mut guarding = Vec::new();
        for budget in budgets
            .list_all(Some(ctx.namespace), &Selection::default())
            .await?
        {
            let budget = to_json(&*budget)?;
            if selects(budget.pointer("/spec/selector"), &labels) {
                guarding.push(budget);
            }
        }
        let mut budget = match guarding.len() {
            0 => return Ok((false, String::new())),
            1 => guarding.remove(0),
            // Go answers a failed `Status`, which its handler sends as the error it is.
            _ => {
                return Err(StatusError::failure(
                    500,
                    "",
                    "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.",
                ));
            }
        };
        let budget_name = text(&budget, "/metadata/name");
        if !is_pod_ready(pod) {
            let always = budget.pointer("/spec/unhealthyPodEvictionPolicy")
                == Some(&Value::from("AlwaysAllow"));
            let healthy = int(&budget, "/status/currentHealthy");
            let desired = int(&budget, "/status/desiredHealthy");
            if always || (healthy >= desired && desired > 0) {
                return Ok((true, budget_name));
            }
        }
        let pod_name = text(pod, "/metadata/name");
        let mut attempt = 0;
        loop {
            match self
                .check_and_decrement(budgets, ctx.namespace, &pod_name, budget, dry_run)
                .await
            {
                Ok(()) => return Ok((false, budget_name)),
                Err(e) if errors::is_conflict(&e) && attempt < RETRIES => {
                    attempt += 1;
                    tokio::time::sleep(RETRY_DELAY).await;
                    budget = to_json(&*budgets.get(ctx.namespace, &budget_name).await?)?;
                }
                // Out of retries, Go's `RetryOnConflict` answers the last conflict.
                Err(e) => return Err(e),
            }
        }
    }

    /// Go's `checkAndDecrement`: refuses when the budget's controller has not observed
    /// it yet, when it spares nothing (or less), or when it records too many evictions
    /// already; else spends one disruption and records the Pod (not on a dry run),
    /// through the budget's `/status` at the version read (a conflict is the caller's to
    /// retry).
    async fn check_and_decrement(
        &self,
        budgets: &Store,
        namespace: &str,
        pod_name: &str,
        mut budget: Value,
        dry_run: bool,
    ) -> Result<(), StatusError> {
        let name = text(&budget, "/metadata/name");
        if int(&budget, "/status/observedGeneration") < int(&budget, "/metadata/generation") {
            return Err(still_processing(&name));
        }
        let allowed = int(&budget, "/status/disruptionsAllowed");
        let disrupted = budget
            .pointer("/status/disruptedPods")
            .and_then(Value::as_object)
            .map_or(0, serde_json::Map::len);
        let resource = GroupResource::new("policy", "poddisruptionbudget");
        if allowed < 0 {
            return Err(forbidden(
                &resource,
                &name,
                "pdb disruptions allowed is negative",
                "pdb disruptions allowed is negative",
            ));
        }
        if disrupted > MAX_DISRUPTED_POD_SIZE {
            return Err(forbidden(
                &resource,
                &name,
                "DisruptedPods map too big - too many evictions not confirmed by PDB controller",
                "too many pending evictions not confirmed by PDB controller",
            ));
        }
        if allowed == 0 {
            let mut err = errors::new_too_many_requests(VIOLATION, 0);
            add_cause(&mut err, no_disruption_message(&budget, &name));
            return Err(err);
        }
        let status = &mut budget["status"];
        status["disruptionsAllowed"] = Value::from(allowed - 1);
        if allowed == 1 {
            set_disruption_allowed_false(status);
        }
        if dry_run {
            return Ok(());
        }
        if !status["disruptedPods"].is_object() {
            status["disruptedPods"] = json!({});
        }
        let now = fieldmanager::now();
        status["disruptedPods"][pod_name] = Value::from(now.as_str());
        // Go writes through its loopback client: the handler's field manager records an
        // `Update` of `/status` by kube-apiserver.
        let scheme = budgets.scheme();
        let gvk = budgets.info().storage_gvk.clone();
        let types = fieldmanager::types_for(&gvk);
        let converter = SchemeConverter {
            scheme,
            gvk: gvk.clone(),
            served: budgets.info().versions.clone(),
        };
        let reset = budgets.reset_fields(Subresource::Status, "");
        let version = gvk.group_version().to_string();
        let manager =
            FieldManager::new(&types, &version, "status", &converter).with_reset_fields(&reset);
        let empty = fieldmanager::empty_object(scheme, &gvk);
        budgets
            .update(namespace, &name, Subresource::Status, false, |current| {
                let live = to_json(&*current)?;
                let mut written = budget.clone();
                manager.update(Some(&live), &empty, &mut written, SERVER_MANAGER, &now);
                from_value(scheme, &gvk, written)
            })
            .await
            .map(|_| ())
    }

    /// Go's `addConditionAndDeletePod`: unless it is a dry run, the Pod's
    /// `DisruptionTarget` condition is written through `/status` (checking the
    /// preconditions against the Pod as it is), a resourceVersion precondition then moved
    /// to the version written; then the Pod is deleted with `params`.
    async fn add_condition_and_delete(
        &self,
        ctx: &Context<'_>,
        name: &str,
        mut params: DeleteParams,
        dry_run_values: &[String],
    ) -> Result<(), StatusError> {
        if !params.dry_run {
            let pods = GroupResource::new("", "Pod");
            let (scheme, gvk) = (
                Arc::clone(self.pods.scheme()),
                self.pods.info().storage_gvk.clone(),
            );
            let now = Time::now().truncate_to_seconds().to_rfc3339();
            let written = self
                .pods
                .update(ctx.namespace, name, Subresource::Status, false, |current| {
                    let mut pod = to_json(&*current)?;
                    check_preconditions(&pods, name, &pod, &params)?;
                    update_pod_condition(&mut pod, &now);
                    from_value(&scheme, &gvk, pod)
                })
                .await?;
            if params.precondition_resource_version.is_some() {
                params.precondition_resource_version =
                    written.meta().map(|m| m.resource_version().to_owned());
            }
        }
        // Go's store validates the options as it deletes, after the condition is written.
        params.validate(dry_run_values)?;
        self.pods
            .delete(ctx.namespace, name, &params)
            .await
            .map(|_| ())
    }
}

/// Go's `propagateDryRun`: the eviction's delete options with the request's `dryRun`
/// when they name none; a request and options naming different ones is an error. Returns
/// the options and their `dryRun` values.
fn propagate_dry_run(
    options: Option<&Value>,
    request_dry_run: bool,
) -> Result<(Value, Vec<String>), StatusError> {
    let request: Vec<String> = if request_dry_run {
        vec!["All".to_owned()]
    } else {
        Vec::new()
    };
    let mut options = options.cloned().unwrap_or_else(|| json!({}));
    let own = DeleteParams::dry_run_values(&options);
    if own.is_empty() {
        options["dryRun"] = Value::from(request.clone());
        return Ok((options, request));
    }
    if request.is_empty() || request == own {
        return Ok((options, own));
    }
    // A plain error in Go: a 500 with its text and no reason.
    Err(StatusError::failure(
        500,
        "",
        format!(
            "Non-matching dry-run options in request and content: [{}] and [{}]",
            request.join(" "),
            own.join(" ")
        ),
    ))
}

/// Go's `canIgnorePDB`: a Pod that succeeded, failed, is still pending or is being
/// deleted disrupts nothing a budget counts.
fn can_ignore_budgets(pod: &Value) -> bool {
    matches!(
        pod.pointer("/status/phase").and_then(Value::as_str),
        Some("Succeeded" | "Failed" | "Pending")
    ) || is_deleting(pod)
}

/// Go's `shouldEnforceResourceVersion`: a Pod that is not terminal and not being deleted
/// is deleted only at the version the eviction read.
fn should_enforce_resource_version(pod: &Value) -> bool {
    !matches!(
        pod.pointer("/status/phase").and_then(Value::as_str),
        Some("Succeeded" | "Failed")
    ) && !is_deleting(pod)
}

fn is_deleting(pod: &Value) -> bool {
    pod.pointer("/metadata/deletionTimestamp")
        .is_some_and(|t| !t.is_null())
}

/// Go's `podutil.IsPodReady`: the `Ready` condition is `True`.
fn is_pod_ready(pod: &Value) -> bool {
    pod.pointer("/status/conditions")
        .and_then(Value::as_array)
        .is_some_and(|c| {
            c.iter()
                .any(|c| c["type"] == "Ready" && c["status"] == "True")
        })
}

/// Whether a budget's selector selects `labels` (Go's `LabelSelectorAsSelector`): no
/// selector selects nothing, an empty one everything, an invalid one nothing.
fn selects(selector: Option<&Value>, labels: &BTreeMap<String, String>) -> bool {
    let Some(selector) = selector.filter(|s| !s.is_null()) else {
        return false;
    };
    label_selector_string(Some(selector))
        .and_then(|s| Selector::parse(&s).ok())
        .is_some_and(|s| s.matches(labels))
}

/// The preconditions of the eviction's delete options, checked against the Pod before
/// its condition is written (Go's `getLatestPod`), with their words: 409 on `Pod`.
fn check_preconditions(
    resource: &GroupResource,
    name: &str,
    pod: &Value,
    params: &DeleteParams,
) -> Result<(), StatusError> {
    let (uid, rv) = (
        text(pod, "/metadata/uid"),
        text(pod, "/metadata/resourceVersion"),
    );
    if let Some(want) = params
        .precondition_uid
        .as_ref()
        .filter(|w| !w.is_empty() && **w != uid)
    {
        return Err(errors::new_conflict(
            resource,
            name,
            format!(
                "the UID in the precondition ({want}) does not match the UID in record ({uid}). The object might have been deleted and then recreated"
            ),
        ));
    }
    if let Some(want) = params
        .precondition_resource_version
        .as_ref()
        .filter(|w| !w.is_empty() && **w != rv)
    {
        return Err(errors::new_conflict(
            resource,
            name,
            format!(
                "the ResourceVersion in the precondition ({want}) does not match the ResourceVersion in record ({rv}). The object might have been modified"
            ),
        ));
    }
    Ok(())
}

/// The eviction's `DisruptionTarget` condition (Go's `UpdatePodCondition`).
fn update_pod_condition(pod: &mut Value, now: &str) {
    super::update_pod_condition(
        pod,
        json!({
            "type": "DisruptionTarget",
            "status": "True",
            "lastProbeTime": null,
            "lastTransitionTime": now,
            "reason": "EvictionByEvictionAPI",
            "message": "Eviction API: evicting",
        }),
    );
}

/// Go's `UpdateDisruptionAllowedCondition` once the last disruption is spent
/// (`apimeta.SetStatusCondition` of `DisruptionAllowed=False`, `InsufficientPods`): the
/// transition time moves only when the status does.
fn set_disruption_allowed_false(status: &mut Value) {
    let observed = status
        .get("observedGeneration")
        .cloned()
        .unwrap_or(Value::from(0));
    if !status["conditions"].is_array() {
        status["conditions"] = json!([]);
    }
    let Some(conditions) = status["conditions"].as_array_mut() else {
        return;
    };
    let now = Time::now().truncate_to_seconds().to_rfc3339();
    match conditions
        .iter_mut()
        .find(|c| c["type"] == "DisruptionAllowed")
    {
        Some(c) => {
            if c["status"] != "False" {
                c["status"] = Value::from("False");
                c["lastTransitionTime"] = Value::from(now);
            }
            c["reason"] = Value::from("InsufficientPods");
            c["message"] = Value::from("");
            c["observedGeneration"] = observed;
        }
        None => conditions.push(json!({
            "type": "DisruptionAllowed",
            "status": "False",
            "observedGeneration": observed,
            "lastTransitionTime": now,
            "reason": "InsufficientPods",
            "message": "",
        })),
    }
}

/// The cause a budget sparing nothing gives (Go's `checkAndDecrement`, by its
/// `DisruptionAllowed` condition and its healthy Pods).
fn no_disruption_message(budget: &Value, name: &str) -> String {
    let condition = budget
        .pointer("/status/conditions")
        .and_then(Value::as_array)
        .and_then(|c| c.iter().find(|c| c["type"] == "DisruptionAllowed"));
    let field = |k: &str| {
        condition
            .and_then(|c| c.get(k))
            .and_then(Value::as_str)
            .unwrap_or_default()
    };
    let refused = condition.is_some() && field("status") == "False" && !field("message").is_empty();
    let (healthy, desired) = (
        int(budget, "/status/currentHealthy"),
        int(budget, "/status/desiredHealthy"),
    );
    if refused && field("reason") == "SyncFailed" {
        format!(
            "The disruption budget {name} does not allow evicting pods currently because it failed sync: {}",
            field("message")
        )
    } else if healthy <= desired {
        format!(
            "The disruption budget {name} needs {desired} healthy pods and has {healthy} currently"
        )
    } else if refused {
        format!(
            "The disruption budget {name} does not allow evicting pods currently ({}): {}",
            field("reason"),
            field("message")
        )
    } else {
        format!("The disruption budget {name} does not allow evicting pods currently")
    }
}

/// Go's `createTooManyRequestsError`: the budget's controller has not caught up.
fn still_processing(budget: &str) -> StatusError {
    let mut err = errors::new_too_many_requests(VIOLATION, 10);
    add_cause(
        &mut err,
        format!("The disruption budget {budget} is still being processed by the server."),
    );
    err
}

/// A budget that forbids evictions: 403 on the budget, with (from 1.37) the cause.
fn forbidden(resource: &GroupResource, name: &str, reason: &str, cause: &str) -> StatusError {
    #[cfg_attr(not(feature = "v1_37"), allow(unused_mut))]
    let mut err = errors::new_forbidden(resource, name, reason);
    #[cfg(feature = "v1_37")]
    add_cause(
        &mut err,
        format!("The disruption budget {name} does not allow evicting pods currently: {cause}"),
    );
    #[cfg(not(feature = "v1_37"))]
    let _ = cause;
    err
}

/// Appends a `DisruptionBudget` cause to `err`'s details.
fn add_cause(err: &mut StatusError, message: String) {
    let details = err.status.details.get_or_insert_with(Default::default);
    details
        .causes
        .push(apimachinery::apis::meta::v1::StatusCause {
            reason: "DisruptionBudget".into(),
            message,
            field: String::new(),
        });
}

/// The answer of an eviction that went through.
fn success() -> Value {
    json!({"metadata": {}, "status": "Success", "code": 201})
}

fn text(v: &Value, pointer: &str) -> String {
    v.pointer(pointer)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

fn int(v: &Value, pointer: &str) -> i64 {
    v.pointer(pointer).and_then(Value::as_i64).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_selects_as_gos_label_selector_as_selector() {
        let labels = BTreeMap::from([("app".to_owned(), "db".to_owned())]);
        assert!(!selects(None, &labels));
        assert!(!selects(Some(&Value::Null), &labels));
        assert!(selects(Some(&json!({})), &labels));
        assert!(selects(
            Some(&json!({"matchLabels": {"app": "db"}})),
            &labels
        ));
        assert!(!selects(
            Some(&json!({"matchLabels": {"app": "web"}})),
            &labels
        ));
        let exists = json!({"matchExpressions": [{"key": "app", "operator": "Exists"}]});
        assert!(selects(Some(&exists), &labels));
        // In without values is no selector Go makes: it selects nothing.
        let invalid = json!({"matchExpressions": [{"key": "app", "operator": "In"}]});
        assert!(!selects(Some(&invalid), &labels));
    }

    #[test]
    fn dry_run_options_are_propagated_and_must_agree() {
        let (options, values) = propagate_dry_run(None, true).unwrap();
        assert_eq!(options["dryRun"], json!(["All"]));
        assert_eq!(values, ["All"]);
        let own = json!({"dryRun": ["All"], "gracePeriodSeconds": 5});
        assert_eq!(propagate_dry_run(Some(&own), false).unwrap().0, own);
        assert_eq!(propagate_dry_run(Some(&own), true).unwrap().0, own);
        let bogus = json!({"dryRun": ["Bogus"]});
        let err = propagate_dry_run(Some(&bogus), true).unwrap_err();
        assert_eq!(err.status.code, 500);
        assert_eq!(
            err.status.message,
            "Non-matching dry-run options in request and content: [All] and [Bogus]"
        );
    }

    #[test]
    fn the_cause_of_a_refusal_follows_the_budgets_condition() {
        let budget = |status: Value| json!({"status": status});
        let insufficient = budget(json!({"currentHealthy": 1, "desiredHealthy": 2}));
        assert_eq!(
            no_disruption_message(&insufficient, "db"),
            "The disruption budget db needs 2 healthy pods and has 1 currently"
        );
        let failed = budget(
            json!({"currentHealthy": 3, "desiredHealthy": 2, "conditions": [
            {"type": "DisruptionAllowed", "status": "False", "reason": "SyncFailed", "message": "no controller"}]}),
        );
        assert_eq!(
            no_disruption_message(&failed, "db"),
            "The disruption budget db does not allow evicting pods currently because it failed sync: no controller"
        );
        let other = budget(
            json!({"currentHealthy": 3, "desiredHealthy": 2, "conditions": [
            {"type": "DisruptionAllowed", "status": "False", "reason": "InsufficientPods", "message": "not enough"}]}),
        );
        assert_eq!(
            no_disruption_message(&other, "db"),
            "The disruption budget db does not allow evicting pods currently (InsufficientPods): not enough"
        );
        let plain = budget(json!({"currentHealthy": 3, "desiredHealthy": 2}));
        assert_eq!(
            no_disruption_message(&plain, "db"),
            "The disruption budget db does not allow evicting pods currently"
        );
    }

    #[test]
    fn pods_that_disrupt_nothing_skip_the_budgets() {
        for phase in ["Succeeded", "Failed", "Pending"] {
            assert!(can_ignore_budgets(&json!({"status": {"phase": phase}})));
        }
        assert!(!can_ignore_budgets(
            &json!({"status": {"phase": "Running"}})
        ));
        assert!(!can_ignore_budgets(&json!({})));
        let deleting = json!({"metadata": {"deletionTimestamp": "2026-01-01T00:00:00Z"}, "status": {"phase": "Running"}});
        assert!(can_ignore_budgets(&deleting));
        assert!(!should_enforce_resource_version(&deleting));
        assert!(should_enforce_resource_version(
            &json!({"status": {"phase": "Pending"}})
        ));
        assert!(!should_enforce_resource_version(
            &json!({"status": {"phase": "Failed"}})
        ));
    }

    #[test]
    fn the_condition_keeps_its_transition_time_while_true() {
        let mut pod = json!({"status": {"conditions": [{"type": "Ready", "status": "True"}]}});
        update_pod_condition(&mut pod, "2026-01-01T00:00:00Z");
        let conditions = pod["status"]["conditions"].as_array().unwrap();
        assert_eq!(conditions.len(), 2);
        assert_eq!(conditions[1]["reason"], "EvictionByEvictionAPI");
        update_pod_condition(&mut pod, "2026-02-02T00:00:00Z");
        assert_eq!(
            pod["status"]["conditions"][1]["lastTransitionTime"],
            "2026-01-01T00:00:00Z"
        );
    }
}
