//! Field management in the handlers (Go's `scope.FieldManager`): the types of served
//! kinds for [`FieldManager`], `managedFields` on every create, update and patch, and
//! server-side apply (`application/apply-patch+yaml`) with its `fieldManager` and
//! `force` options and Go's answers.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use apimachinery::api::errors::{self, StatusError};
use apimachinery::apis::meta::v1::{StatusCause, Time};
use apimachinery::managedfields::{ApplyError, ParseableType, VersionConverter};
use apimachinery::runtime::{Object, Scheme};
use apimachinery::schema::{GroupVersion, GroupVersionKind};
use apimachinery::util::validation::field::{Error, ErrorList, Path};
use serde_json::Value;

use crate::registry::{convert, from_value, to_json};

fn cache() -> &'static Mutex<HashMap<GroupVersionKind, ParseableType>> {
    static CACHE: OnceLock<Mutex<HashMap<GroupVersionKind, ParseableType>>> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

/// The type of `gvk` for merges and field sets: what [`register_types`] gave for it,
/// else from the server's OpenAPI v3 document of its group version with the key-field
/// defaults of Go's definitions ([`crate::openapi::key_defaults`]), else deduced (maps
/// merge key by key, lists atomically). Built once per kind.
pub fn types_for(gvk: &GroupVersionKind) -> ParseableType {
    if let Some(t) = cache().lock().ok().and_then(|c| c.get(gvk).cloned()) {
        return t;
    }
    let built = crate::openapi::schemas_for(&gvk.group, &gvk.version)
        .and_then(Value::as_object)
        .and_then(|schemas| {
            ParseableType::from_openapi_v3(schemas, &gvk.group, &gvk.version, &gvk.kind)
        })
        .map(|t| t.with_defaults(crate::openapi::key_defaults()))
        .unwrap_or_else(ParseableType::deduced);
    if let Ok(mut c) = cache().lock() {
        c.insert(gvk.clone(), built.clone());
    }
    built
}

/// Sets the type of `gvk` (a custom resource's version, built with
/// [`ParseableType::from_openapi_v3_schema`] from its CRD's `openAPIV3Schema`), replacing
/// any earlier one: what applies to its objects merge by from then on.
pub fn register_types(gvk: GroupVersionKind, types: ParseableType) {
    if let Ok(mut c) = cache().lock() {
        c.insert(gvk, types);
    }
}

/// Forgets the type of `gvk` (its CRD was deleted or changed).
pub fn forget_types(gvk: &GroupVersionKind) {
    if let Ok(mut c) = cache().lock() {
        c.remove(gvk);
    }
}

/// Converts request-version objects of one kind to its other versions through the
/// scheme, with each version's type.
pub struct SchemeConverter<'a> {
    /// The scheme.
    pub scheme: &'a Scheme,
    /// The kind at the version the objects are in.
    pub gvk: GroupVersionKind,
    /// The versions the kind is served in (others do not exist).
    pub served: Vec<String>,
}

impl VersionConverter for SchemeConverter<'_> {
    fn convert(
        &self,
        obj: &Value,
        api_version: &str,
    ) -> Result<Option<(Value, ParseableType)>, String> {
        let target: GroupVersion = match api_version.rsplit_once('/') {
            Some((g, v)) => GroupVersion::new(g, v),
            None => GroupVersion::new("", api_version),
        };
        if target.group != self.gvk.group || !self.served.iter().any(|v| target.version == *v) {
            return Ok(None);
        }
        let typed = from_value(self.scheme, &self.gvk, obj.clone())
            .map_err(|e| e.status.message.clone())?;
        let converted =
            convert(self.scheme, typed, &target).map_err(|e| e.status.message.clone())?;
        let v = to_json(&*converted).map_err(|e| e.status.message.clone())?;
        let gvk = GroupVersionKind::new(
            target.group.as_str(),
            target.version.as_str(),
            self.gvk.kind.as_str(),
        );
        Ok(Some((v, types_for(&gvk))))
    }
}

/// The manager of a write: `fieldManager`, or the user agent up to its first `/`
/// (Go's `managerOrUserAgent`).
pub fn manager_or_user_agent(field_manager: Option<&str>, user_agent: &str) -> String {
    match field_manager {
        Some(m) if !m.is_empty() => m.to_owned(),
        _ => user_agent.split('/').next().unwrap_or_default().to_owned(),
    }
}

/// The errors of Go's `ValidatePatchOptions` that are a patch's own: apply needs a
/// `fieldManager`, `force` is for apply only (the fields every write has are checked
/// with them, by the handler).
pub fn validate_patch_options(
    apply: bool,
    field_manager: Option<&str>,
    force: Option<&str>,
) -> ErrorList {
    let mut errs = ErrorList::default();
    if apply && field_manager.is_none_or(str::is_empty) {
        errs.push(Error::required(
            &Path::new("fieldManager"),
            "is required for apply patch",
        ));
    }
    if !apply && force.is_some() {
        errs.push(Error::forbidden(
            &Path::new("force"),
            "may not be specified for non-apply patch",
        ));
    }
    errs
}

/// The `force` query parameter (Go's boolean parsing).
pub fn parse_force(force: Option<&str>) -> Result<bool, StatusError> {
    match force {
        None | Some("") => Ok(false),
        Some("true" | "1" | "t" | "T" | "TRUE" | "True") => Ok(true),
        Some("false" | "0" | "f" | "F" | "FALSE" | "False") => Ok(false),
        Some(other) => Err(errors::new_bad_request(format!(
            "force: invalid value {other:?}: must be true or false"
        ))),
    }
}

/// The time of a managedFields change: now, to the second, as Go writes it.
pub fn now() -> String {
    Time::now().truncate_to_seconds().to_rfc3339()
}

/// The answer to a failed apply, as Go gives it: conflicts 409 with one
/// `FieldManagerConflict` cause per field, bad configurations 400, the rest 500.
pub fn apply_error(e: ApplyError) -> StatusError {
    match e {
        ApplyError::Conflicts(ref conflicts) => {
            let causes = conflicts
                .iter()
                .map(|c| StatusCause {
                    reason: "FieldManagerConflict".into(),
                    message: format!("conflict with {}", c.manager),
                    field: c.path.to_string(),
                })
                .collect();
            errors::new_apply_conflict(causes, e.to_string())
        }
        ApplyError::BadRequest(m) => errors::new_bad_request(m),
        // Go's field manager returns these as plain errors, which the API answers as a
        // 500 with no reason and the error's text (`ErrorToAPIStatus`).
        other => StatusError::failure(500, errors::reason::UNKNOWN, other.to_string()),
    }
}

/// The empty object of a kind at a version, as JSON: what a create is compared with
/// (Go's `objectCreater.New`); for kinds the scheme cannot build (custom resources),
/// only their type.
pub fn empty_object(scheme: &Scheme, gvk: &GroupVersionKind) -> Value {
    let mut v = scheme
        .new_object(gvk)
        .ok()
        .and_then(|obj: Box<dyn Object>| to_json(&*obj).ok())
        .filter(Value::is_object)
        .unwrap_or_else(|| serde_json::json!({"metadata": {}}));
    if let Some(map) = v.as_object_mut() {
        map.insert(
            "apiVersion".into(),
            Value::from(gvk.group_version().to_string()),
        );
        map.insert("kind".into(), Value::from(gvk.kind.as_str()));
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manager_is_the_option_or_the_user_agents_first_word() {
        assert_eq!(
            manager_or_user_agent(Some("ci"), "kubectl/v1.32.0 (linux/amd64)"),
            "ci"
        );
        assert_eq!(
            manager_or_user_agent(None, "kubectl/v1.32.0 (linux/amd64) kubernetes/abc"),
            "kubectl"
        );
        assert_eq!(
            manager_or_user_agent(Some(""), "Go-http-client/1.1"),
            "Go-http-client"
        );
        assert_eq!(manager_or_user_agent(None, ""), "");
    }

    #[test]
    fn patch_options_are_validated_with_gos_messages() {
        let texts = |errs: ErrorList| errs.iter().map(|e| e.to_string()).collect::<Vec<_>>();
        assert_eq!(
            texts(validate_patch_options(true, None, None)),
            ["fieldManager: Required value: is required for apply patch"]
        );
        assert_eq!(
            texts(validate_patch_options(false, None, Some("true"))),
            ["force: Forbidden: may not be specified for non-apply patch"]
        );
        assert!(validate_patch_options(true, Some("kubectl"), Some("true")).is_empty());
        assert_eq!(parse_force(Some("true")), Ok(true));
        assert!(parse_force(Some("yes")).is_err());
    }

    #[test]
    fn built_in_kinds_get_their_openapi_types() {
        let t = types_for(&GroupVersionKind::new("apps", "v1", "Deployment"));
        let spec = t.field_type(&t.root, "spec").expect("spec");
        let template = t.field_type(&spec, "template").expect("template");
        let pod_spec = t.field_type(&template, "spec").expect("pod spec");
        let containers = t.field_type(&pod_spec, "containers").expect("containers");
        assert_eq!(
            t.list(&containers).map(|l| l.relationship.clone()),
            Some(apimachinery::managedfields::schema::ListRelationship::Map(
                vec!["name".into()]
            ))
        );
    }

    /// The object kube-apiserver stores for the configuration below: defaulted.
    fn defaulted_deployment() -> Value {
        serde_json::json!({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"creationTimestamp":"2026-11-26T03:58:31Z","generation":1,"labels":{"app":"web"},"name":"web","namespace":"default","resourceVersion":"5","uid":"9a0bbc76-a75c-4773-a933-5caefe251300"},"spec":{"progressDeadlineSeconds":600,"replicas":2,"revisionHistoryLimit":10,"selector":{"matchLabels":{"app":"web"}},"strategy":{"rollingUpdate":{"maxSurge":"25%","maxUnavailable":"25%"},"type":"RollingUpdate"},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"image":"nginx:1","imagePullPolicy":"IfNotPresent","name":"nginx","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],"dnsPolicy":"ClusterFirst","restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},"terminationGracePeriodSeconds":30}}},"status":{}})
    }

    #[test]
    fn registered_types_replace_the_deduced_ones() {
        let gvk = GroupVersionKind::new("example.com", "v1", "Widget");
        assert!(t_is_deduced(&types_for(&gvk)));
        register_types(
            gvk.clone(),
            ParseableType::from_openapi_v3_schema(&serde_json::json!({"type": "object",
                "properties": {"spec": {"type": "object", "properties": {"tags": {
                    "type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}}}}}})),
        );
        let t = types_for(&gvk);
        let spec = t.field_type(&t.root, "spec").unwrap();
        let tags = t.field_type(&spec, "tags").unwrap();
        assert_eq!(
            t.list(&tags).map(|l| l.relationship.clone()),
            Some(apimachinery::managedfields::schema::ListRelationship::Set)
        );
        forget_types(&gvk);
        assert!(t_is_deduced(&types_for(&gvk)));
        let empty = empty_object(&Scheme::new(), &gvk);
        assert_eq!(
            empty,
            serde_json::json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {}})
        );
    }

    fn t_is_deduced(t: &ParseableType) -> bool {
        matches!(
            t.root,
            apimachinery::managedfields::schema::TypeRef::Deduced
        )
    }

    #[test]
    fn reapplying_over_defaulted_fields_changes_nothing() {
        let t = types_for(&GroupVersionKind::new("apps", "v1", "Deployment"));
        let fm = apimachinery::managedfields::FieldManager::new(
            &t,
            "apps/v1",
            "",
            &apimachinery::managedfields::NoConversion,
        )
        .with_reset_fields(&["status"]);
        let config = serde_json::json!({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","labels":{"app":"web"}},"spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"nginx","image":"nginx:1"}]}}}});
        let first = fm
            .apply(
                &defaulted_deployment(),
                &config,
                "kubectl",
                false,
                "2026-11-26T03:58:31Z",
            )
            .unwrap()
            .expect("managedFields added");
        // Defaulted and server-set fields are kept, int-or-string values included.
        let mut expected = defaulted_deployment();
        expected["metadata"]["managedFields"] = first["metadata"]["managedFields"].clone();
        assert_eq!(first, expected);
        // A second apply a second later: nothing to write, not even a time.
        assert_eq!(
            fm.apply(&first, &config, "kubectl", false, "2026-11-26T03:58:32Z")
                .unwrap(),
            None
        );
    }
}
