//! Kubernetes' built-in validation (Go's `k8s.io/kubernetes/pkg/apis/<group>/validation`)
//! for the kinds of this crate, with Go's rules and messages: hand-written functions over
//! the concrete types, one per kind, so that no per-type code is generated.
//!
//! Kinds validated so far: `apps/v1` Deployment (create and update). Not yet: every other
//! kind (Pod and PodSpec rules, ReplicaSet, DaemonSet, StatefulSet, Service, ConfigMap,
//! Secret, RBAC, batch, networking, policy, coordination, scheduling) and a registry by
//! GVK.
//!
//! ```
//! use k8s_types::apps::v1::{Deployment, DeploymentSpec};
//! use apimachinery::apis::meta::v1::{LabelSelector, ObjectMeta};
//!
//! let mut d = Deployment::default();
//! d.metadata = ObjectMeta { name: "web".into(), namespace: "default".into(), ..Default::default() };
//! d.spec.selector = Some(LabelSelector {
//!     match_labels: [("app".to_string(), "web".to_string())].into(),
//!     ..Default::default()
//! });
//! d.spec.template.metadata.labels = [("app".to_string(), "api".to_string())].into();
//! let errs = k8s_types::validation::validate_deployment(&d);
//! assert_eq!(
//!     errs.to_string(),
//!     "spec.template.metadata.labels: Invalid value: {\"app\":\"api\"}: `selector` does not match template `labels`"
//! );
//! ```

#[cfg(feature = "apps")]
use apimachinery::apis::meta::v1::validation::{
    FIELD_IMMUTABLE_ERROR_MSG, IS_NEGATIVE_ERROR_MSG, name_is_dns_subdomain,
    validate_label_selector, validate_object_meta, validate_object_meta_update,
};
#[cfg(feature = "apps")]
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};

/// A value as its JSON text, as Go prints a composite bad value.
#[cfg(feature = "apps")]
fn json_value<T: serde::Serialize>(v: &T) -> BadValue {
    BadValue::Json(serde_json::to_string(v).unwrap_or_default())
}

#[cfg(feature = "apps")]
fn non_negative(value: i64, path: &Path, errs: &mut ErrorList) {
    if value < 0 {
        errs.push(Error::invalid(path, value, IS_NEGATIVE_ERROR_MSG));
    }
}

/// Go's `ValidateDeployment`: metadata (a DNS subdomain name, namespaced), replicas,
/// selector (required, valid, not empty, matching the template's labels), the
/// template's restart policy (`Always` only) and the non-negative counters.
#[cfg(feature = "apps")]
pub fn validate_deployment(d: &crate::apps::v1::Deployment) -> ErrorList {
    let mut errs = validate_object_meta(
        &d.metadata,
        true,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let spec = &d.spec;
    let fld = Path::new("spec");
    if let Some(r) = spec.replicas {
        non_negative(i64::from(r), &fld.child("replicas"), &mut errs);
    }
    let sel_path = fld.child("selector");
    match &spec.selector {
        None => errs.push(Error::required(&sel_path, "")),
        Some(sel) => {
            errs.extend(validate_label_selector(sel, &sel_path));
            if sel.match_labels.is_empty() && sel.match_expressions.is_empty() {
                errs.push(Error::invalid(
                    &sel_path,
                    json_value(sel),
                    "empty selector is invalid for deployment",
                ));
            } else if !sel.matches(&spec.template.metadata.labels) {
                errs.push(Error::invalid(
                    &fld.child("template").child("metadata").child("labels"),
                    json_value(&spec.template.metadata.labels),
                    "`selector` does not match template `labels`",
                ));
            }
        }
    }
    // Defaulting sets `Always`; an empty value is left for callers that validate
    // undefaulted objects.
    let restart = &spec.template.spec.restart_policy;
    if !restart.is_empty() && restart != "Always" {
        let policy = restart.as_str();
        errs.push(Error::not_supported(
            &fld.child("template").child("spec").child("restartPolicy"),
            policy,
            &["Always"],
        ));
    }
    if spec.template.spec.active_deadline_seconds.is_some() {
        errs.push(Error::forbidden(
            &fld.child("template")
                .child("spec")
                .child("activeDeadlineSeconds"),
            "activeDeadlineSeconds in ReplicaSet is not Supported",
        ));
    }
    non_negative(
        i64::from(spec.min_ready_seconds),
        &fld.child("minReadySeconds"),
        &mut errs,
    );
    if let Some(limit) = spec.revision_history_limit {
        non_negative(
            i64::from(limit),
            &fld.child("revisionHistoryLimit"),
            &mut errs,
        );
    }
    if let Some(pds) = spec.progress_deadline_seconds {
        let path = fld.child("progressDeadlineSeconds");
        non_negative(i64::from(pds), &path, &mut errs);
        if pds <= spec.min_ready_seconds {
            errs.push(Error::invalid(
                &path,
                pds,
                "must be greater than minReadySeconds",
            ));
        }
    }
    errs
}

/// Go's `ValidateDeploymentUpdate`: the new object valid, its metadata's identity kept,
/// and the selector unchanged (immutable in `apps/v1`).
#[cfg(feature = "apps")]
pub fn validate_deployment_update(
    new: &crate::apps::v1::Deployment,
    old: &crate::apps::v1::Deployment,
) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    errs.extend(validate_deployment(new));
    if new.spec.selector != old.spec.selector {
        errs.push(Error::invalid(
            &Path::new("spec").child("selector"),
            json_value(&new.spec.selector),
            FIELD_IMMUTABLE_ERROR_MSG,
        ));
    }
    errs
}

#[cfg(all(test, feature = "apps"))]
mod tests {
    use super::*;
    use crate::apps::v1::Deployment;
    use apimachinery::apis::meta::v1::{LabelSelector, ObjectMeta};

    fn deployment() -> Deployment {
        let mut d = Deployment {
            metadata: ObjectMeta {
                name: "web".into(),
                namespace: "default".into(),
                ..Default::default()
            },
            ..Default::default()
        };
        d.spec.selector = Some(LabelSelector {
            match_labels: [("app".to_string(), "web".to_string())].into(),
            ..Default::default()
        });
        d.spec.template.metadata.labels = [("app".to_string(), "web".to_string())].into();
        d
    }

    #[test]
    fn valid_deployment_passes() {
        assert!(validate_deployment(&deployment()).is_empty());
    }

    #[test]
    fn errors_are_gos() {
        let mut d = deployment();
        d.spec.replicas = Some(-1);
        d.spec.template.spec.restart_policy = "Never".into();
        d.spec.selector = Some(LabelSelector::default());
        let text: Vec<String> = validate_deployment(&d)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            text,
            vec![
                "spec.replicas: Invalid value: -1: must be greater than or equal to 0",
                "spec.selector: Invalid value: {\"matchLabels\":null,\"matchExpressions\":null}: empty selector is invalid for deployment"
                    .replace("{\"matchLabels\":null,\"matchExpressions\":null}", &serde_json::to_string(&LabelSelector::default()).unwrap_or_default())
                    .as_str(),
                "spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: \"Always\"",
            ]
        );
        let mut d = deployment();
        d.spec.selector = None;
        assert_eq!(
            validate_deployment(&d).to_string(),
            "spec.selector: Required value"
        );
    }

    #[test]
    fn selector_is_immutable() {
        let old = deployment();
        let mut new = deployment();
        new.spec.selector = Some(LabelSelector {
            match_labels: [("app".to_string(), "x".to_string())].into(),
            ..Default::default()
        });
        new.spec.template.metadata.labels = [("app".to_string(), "x".to_string())].into();
        assert_eq!(
            validate_deployment_update(&new, &old).to_string(),
            "spec.selector: Invalid value: {\"matchLabels\":{\"app\":\"x\"}}: field is immutable"
        );
    }
}
