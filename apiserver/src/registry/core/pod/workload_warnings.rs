//! The `WarningsOnCreate` and `WarningsOnUpdate` of Go's strategies for the kinds that
//! hold a pod template (`pkg/registry/{core,apps,batch}/*/strategy.go`, and
//! `pkg/api/job/warnings.go`'s `WarningsForJobSpec`): the template's warnings
//! ([`warnings`](super::warnings)), on update only when Go's `PrepareForUpdate` would
//! count the object's (template) generation up, as Go checks the generations; the name
//! warning of the kinds whose name goes into Pod names; and each kind's own.

use apimachinery::util::validation::is_dns1123_label;
use serde_json::Value;

use super::warnings::warnings_for_pod_template;
use crate::registry::core::persistentvolumeclaim::warnings::warnings_for_claim_spec;

/// Go's `completionsSoftLimit` and `parallelismSoftLimitForUnlimitedCompletions`.
const COMPLETIONS_SOFT_LIMIT: i64 = 100_000;
const PARALLELISM_SOFT_LIMIT: i64 = 10_000;

/// The kind whose strategy warns, which decides where its template is and what else is
/// checked; `None` for a strategy without warnings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Workload {
    /// No warnings.
    #[default]
    None,
    /// `PodTemplate` (`template`).
    PodTemplate,
    /// `ReplicationController` (`spec.template`, which may be absent).
    ReplicationController,
    /// `Deployment`.
    Deployment,
    /// `ReplicaSet`.
    ReplicaSet,
    /// `StatefulSet` (and its volume claim templates).
    StatefulSet,
    /// `DaemonSet` (Go compares the template generation, which a template change counts).
    DaemonSet,
    /// `Job` (Go's `WarningsForJobSpec` at `spec`).
    Job,
    /// `CronJob` (`WarningsForJobSpec` at `spec.jobTemplate.spec`, and the schedule).
    CronJob,
}

/// Go's warning for a name that is not a DNS label, where the name goes into `used_in`
/// (Pod names, a Pod's hostname); `%v` of the messages: in brackets, space-separated.
/// Go warns after it generates a name from `generateName`; the warnings here come before
/// the store does, so a generated name is stood for by the prefix (cut to Go's 58
/// characters) and five characters of Go's random alphabet, which are all valid.
pub fn name_warning(obj: &Value, used_in: &str) -> Option<String> {
    let meta = obj.get("metadata")?;
    let field = |f: &str| meta.get(f).and_then(Value::as_str).unwrap_or("");
    let name = match (field("name"), field("generateName")) {
        ("", "") => return None,
        ("", prefix) => {
            let cut: String = prefix.chars().take(58).collect();
            format!("{cut}bcdfg")
        }
        (name, _) => name.to_owned(),
    };
    let msgs = is_dns1123_label(&name);
    (!msgs.is_empty()).then(|| {
        format!(
            "metadata.name: this is used in {used_in}, which can result in surprising behavior; a DNS label is recommended: [{}]",
            msgs.join(" ")
        )
    })
}

/// Whether two JSON values differ as Go's semantic equality sees them at the top: an
/// absent, null, empty map or empty list value is the same as another.
fn differs(a: Option<&Value>, b: Option<&Value>) -> bool {
    let empty = |v: Option<&Value>| match v {
        None | Some(Value::Null) => true,
        Some(Value::Object(m)) => m.is_empty(),
        Some(Value::Array(a)) => a.is_empty(),
        Some(_) => false,
    };
    !(empty(a) && empty(b)) && a != b
}

/// The integer at the JSON pointer `at` of `obj` (0 when absent, as Go's zero value).
fn int(obj: &Value, at: &str) -> i64 {
    obj.pointer(at).and_then(Value::as_i64).unwrap_or(0)
}

/// The template warnings of the pod template at the JSON pointer `at` of `obj` (Go's
/// path `path`); none when there is no template.
fn template(obj: &Value, at: &str, path: &str) -> Vec<String> {
    match obj.pointer(at) {
        Some(t) if !t.is_null() => warnings_for_pod_template(path, t),
        _ => Vec::new(),
    }
}

/// Go's `WarningsForJobSpec` of the JobSpec at the JSON pointer `at` (Go's path `path`).
fn job_spec(obj: &Value, at: &str, path: &str) -> Vec<String> {
    let mut warnings = Vec::new();
    let indexed = obj
        .pointer(&format!("{at}/completionMode"))
        .and_then(Value::as_str)
        == Some("Indexed");
    if indexed
        && int(obj, &format!("{at}/completions")) > COMPLETIONS_SOFT_LIMIT
        && int(obj, &format!("{at}/parallelism")) > PARALLELISM_SOFT_LIMIT
    {
        warnings.push(format!(
            "{path}: In Indexed Jobs with a number of completions higher than 10^5 and a parallelism higher than 10^4, Kubernetes might not be able to track completedIndexes when a big number of indexes fail"
        ));
    }
    warnings.extend(template(
        obj,
        &format!("{at}/template"),
        &format!("{path}.template"),
    ));
    warnings
}

/// A StatefulSet's volume claim templates' size warnings, at `spec.volumeClaimTemplates[i]`
/// followed by `suffix` (Go's create path has none, its update path `.Spec`).
fn claim_templates(obj: &Value, suffix: &str) -> Vec<String> {
    let claims = obj
        .pointer("/spec/volumeClaimTemplates")
        .and_then(Value::as_array);
    claims
        .into_iter()
        .flatten()
        .enumerate()
        .flat_map(|(i, claim)| {
            warnings_for_claim_spec(
                &format!("spec.volumeClaimTemplates[{i}]{suffix}"),
                claim.get("spec").unwrap_or(&Value::Null),
            )
        })
        .collect()
}

/// Go's warning for a StatefulSet keeping every revision.
fn revision_history(obj: &Value) -> Option<String> {
    obj.pointer("/spec/revisionHistoryLimit")
        .and_then(Value::as_i64)
        .filter(|limit| *limit < 0)
        .map(|_| {
            "spec.revisionHistoryLimit: a negative value retains all historical revisions; a value >= 0 is recommended".to_owned()
        })
}

/// Where Pod-naming kinds' names go, in Go's name warning.
const POD_NAMES: &str = "Pod names and hostnames";

impl Workload {
    /// Go's `WarningsOnCreate` of the kind, for the JSON object `obj`.
    pub fn on_create(self, obj: &Value) -> Vec<String> {
        let mut warnings = Vec::new();
        match self {
            Workload::None => {}
            Workload::PodTemplate => {
                warnings.extend(template(obj, "/template", "template"));
            }
            Workload::ReplicationController | Workload::Deployment | Workload::ReplicaSet => {
                warnings.extend(name_warning(obj, POD_NAMES));
                warnings.extend(template(obj, "/spec/template", "spec.template"));
            }
            Workload::StatefulSet => {
                warnings.extend(template(obj, "/spec/template", "spec.template"));
                warnings.extend(claim_templates(obj, ""));
                warnings.extend(revision_history(obj));
            }
            Workload::DaemonSet => {
                warnings.extend(template(obj, "/spec/template", "spec.template"));
            }
            Workload::Job => {
                warnings.extend(name_warning(obj, POD_NAMES));
                warnings.extend(job_spec(obj, "/spec", "spec"));
            }
            Workload::CronJob => {
                warnings.extend(name_warning(obj, POD_NAMES));
                warnings.extend(job_spec(
                    obj,
                    "/spec/jobTemplate/spec",
                    "spec.jobTemplate.spec",
                ));
            }
        }
        warnings
    }

    /// Whether Go's `PrepareForUpdate` of the kind counts the (template) generation up
    /// for this write: its spec changed (a Deployment's annotations too, a
    /// PodTemplate's and a DaemonSet's template). The warnings are computed before
    /// kapi's store prepares the update, so this is what Go's generation check sees.
    fn generation_moves(self, new: &Value, old: &Value) -> bool {
        let changed = |at: &str| differs(new.pointer(at), old.pointer(at));
        match self {
            Workload::Deployment => changed("/spec") || changed("/metadata/annotations"),
            Workload::PodTemplate => changed("/template"),
            Workload::DaemonSet => changed("/spec/template"),
            _ => changed("/spec"),
        }
    }

    /// Go's `WarningsOnUpdate` of the kind, for the JSON objects `new` (as written,
    /// before the store prepares it) and `old` (stored).
    pub fn on_update(self, new: &Value, old: &Value) -> Vec<String> {
        let generation_moved = self.generation_moves(new, old);
        let mut warnings = Vec::new();
        match self {
            Workload::None => {}
            Workload::PodTemplate if generation_moved => {
                warnings.extend(template(new, "/template", "template"));
            }
            // Go passes the stored controller's template as the new one here (its
            // arguments are swapped), so the warnings are about what is replaced.
            Workload::ReplicationController if generation_moved => {
                warnings.extend(template(old, "/spec/template", "spec.template"));
            }
            Workload::Deployment | Workload::ReplicaSet if generation_moved => {
                warnings.extend(template(new, "/spec/template", "spec.template"));
            }
            Workload::StatefulSet => {
                if generation_moved {
                    warnings.extend(template(new, "/spec/template", "spec.template"));
                }
                warnings.extend(claim_templates(new, ".Spec"));
                warnings.extend(revision_history(new));
            }
            Workload::DaemonSet if generation_moved => {
                warnings.extend(template(new, "/spec/template", "spec.template"));
            }
            Workload::Job if generation_moved => {
                warnings.extend(job_spec(new, "/spec", "spec"));
            }
            Workload::CronJob => {
                if generation_moved {
                    warnings.extend(job_spec(
                        new,
                        "/spec/jobTemplate/spec",
                        "spec.jobTemplate.spec",
                    ));
                }
                let schedule = new.pointer("/spec/schedule").and_then(Value::as_str);
                if schedule.is_some_and(|s| s.contains("TZ")) {
                    warnings.push("cannot use TZ or CRON_TZ in spec.spec.schedule, use timeZone instead, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details".to_owned());
                }
            }
            _ => {}
        }
        warnings
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const OS: &str = r#"deprecated since v1.14; use "kubernetes.io/os" instead"#;

    fn pod_template() -> Value {
        json!({"spec": {"nodeSelector": {"beta.kubernetes.io/os": "linux"}}})
    }

    #[test]
    fn deployments_warn_of_their_name_and_template_and_on_update_only_when_it_changed() {
        let d = json!({"metadata": {"name": "a.b", "generation": 1},
            "spec": {"replicas": 1, "template": pod_template()}});
        assert_eq!(
            Workload::Deployment.on_create(&d),
            [
                "metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]".to_owned(),
                format!("spec.template.spec.nodeSelector[beta.kubernetes.io/os]: {OS}"),
            ]
        );
        assert!(Workload::Deployment.on_update(&d, &d).is_empty());
        let mut moved = d.clone();
        moved["spec"]["replicas"] = json!(2);
        assert_eq!(
            Workload::Deployment.on_update(&moved, &d),
            [format!(
                "spec.template.spec.nodeSelector[beta.kubernetes.io/os]: {OS}"
            )]
        );
    }

    #[test]
    fn generated_names_are_judged_by_their_prefix() {
        let named = |meta: Value| name_warning(&json!({"metadata": meta}), POD_NAMES);
        assert!(named(json!({"generateName": "web-"})).is_none());
        assert!(named(json!({"generateName": "Web-"})).is_some());
        assert!(named(json!({"generateName": "a".repeat(70)})).is_none());
        assert!(named(json!({"name": "a".repeat(64)})).is_some());
        assert!(named(json!({})).is_none());
    }

    #[test]
    fn replication_controllers_warn_of_the_stored_template_on_update() {
        let old = json!({"metadata": {"name": "rc"}, "spec": {"template": pod_template()}});
        let new = json!({"metadata": {"name": "rc"}, "spec": {"template": {"spec": {}}}});
        assert_eq!(
            Workload::ReplicationController.on_update(&new, &old).len(),
            1
        );
        assert!(
            Workload::ReplicationController
                .on_update(&old, &new)
                .is_empty()
        );
        assert!(
            Workload::ReplicationController
                .on_create(&json!({"metadata": {"name": "rc"}, "spec": {}}))
                .is_empty()
        );
    }

    #[test]
    fn stateful_sets_check_claims_and_history_on_every_update() {
        let s = json!({"metadata": {"name": "s"}, "spec": {
            "revisionHistoryLimit": -1,
            "volumeClaimTemplates": [{"spec": {"resources": {"requests": {"storage": "1.5"}}}}]}});
        let history = "spec.revisionHistoryLimit: a negative value retains all historical revisions; a value >= 0 is recommended";
        assert_eq!(
            Workload::StatefulSet.on_create(&s),
            [
                r#"spec.volumeClaimTemplates[0].resources.requests[storage]: fractional byte value "1500m" is invalid, must be an integer"#,
                history,
            ]
        );
        assert_eq!(
            Workload::StatefulSet.on_update(&s, &s),
            [
                r#"spec.volumeClaimTemplates[0].Spec.resources.requests[storage]: fractional byte value "1500m" is invalid, must be an integer"#,
                history,
            ]
        );
    }

    #[test]
    fn jobs_and_cron_jobs() {
        let job = json!({"metadata": {"name": "j"}, "spec": {"completionMode": "Indexed",
            "completions": 100_001, "parallelism": 10_001, "template": pod_template()}});
        let w = Workload::Job.on_create(&job);
        assert_eq!(w.len(), 2);
        assert!(w[0].starts_with("spec: In Indexed Jobs"));
        assert_eq!(
            w[1],
            format!("spec.template.spec.nodeSelector[beta.kubernetes.io/os]: {OS}")
        );
        let cron = json!({"metadata": {"name": "c"}, "spec": {
            "schedule": "CRON_TZ=UTC 0 * * * *", "jobTemplate": {"spec": {"template": pod_template()}}}});
        assert_eq!(
            Workload::CronJob.on_create(&cron),
            [format!(
                "spec.jobTemplate.spec.template.spec.nodeSelector[beta.kubernetes.io/os]: {OS}"
            )]
        );
        assert_eq!(
            Workload::CronJob.on_update(&cron, &cron),
            [
                "cannot use TZ or CRON_TZ in spec.spec.schedule, use timeZone instead, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details"
            ]
        );
    }

    #[test]
    fn daemon_sets_warn_on_update_when_the_template_changed() {
        let ds = |image: &str| {
            let mut t = pod_template();
            t["spec"]["containers"] = json!([{"name": "c", "image": image}]);
            json!({"metadata": {"name": "d"}, "spec": {"minReadySeconds": 1, "template": t}})
        };
        let mut other = ds("a");
        other["spec"]["minReadySeconds"] = json!(2);
        assert!(Workload::DaemonSet.on_update(&other, &ds("a")).is_empty());
        assert_eq!(Workload::DaemonSet.on_update(&ds("b"), &ds("a")).len(), 1);
        assert_eq!(Workload::DaemonSet.on_create(&ds("a")).len(), 1);
    }
}
