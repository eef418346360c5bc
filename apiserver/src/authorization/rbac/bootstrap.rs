//! The default roles and bindings every cluster starts with (Go's
//! `plugin/pkg/auth/authorizer/rbac/bootstrappolicy`, as kube-apiserver's
//! `rbac/bootstrap-roles` post-start hook writes them): `cluster-admin` for
//! `system:masters`; the user-facing `admin`, `edit` and `view`, aggregated from the
//! `system:aggregate-to-*` roles through `rbac.authorization.k8s.io/aggregate-to-*`
//! labels; discovery, basic-user and public-info roles for every user.
//!
//! A default role or binding that exists is reconciled as Go's hook does unless its
//! `rbac.authorization.kubernetes.io/autoupdate` annotation is `false`: missing labels,
//! annotations, rules (those its rules do not cover), aggregation selectors and
//! subjects are added, nothing is taken away; a binding to another role is replaced.
//!
//! Left out: the controller roles (`system:controller:*`), the node, scheduler,
//! controller-manager, kube-proxy, kube-dns, volume and certificate-approver roles and
//! their bindings — this server runs none of those components.

use std::sync::Arc;

use apimachinery::api::errors::{self, StatusError};
use apimachinery::runtime::Scheme;
use serde_json::{Value, json};

use super::policy::{GROUP, PolicyRule, Subject};
use crate::authentication::user;
use crate::registry::{DeleteParams, Subresource, from_value, resources_from_scheme, to_json};
use crate::storage::Storage;

/// The label on every bootstrap role and binding.
pub const BOOTSTRAPPING_LABEL: (&str, &str) = ("kubernetes.io/bootstrapping", "rbac-defaults");

/// The annotation saying the server may update the object to a newer default.
pub const AUTOUPDATE_ANNOTATION: (&str, &str) =
    ("rbac.authorization.kubernetes.io/autoupdate", "true");

/// The label that puts a ClusterRole's rules into `admin`.
pub const AGGREGATE_TO_ADMIN: &str = "rbac.authorization.k8s.io/aggregate-to-admin";
/// The label that puts a ClusterRole's rules into `edit` (and so `admin`).
pub const AGGREGATE_TO_EDIT: &str = "rbac.authorization.k8s.io/aggregate-to-edit";
/// The label that puts a ClusterRole's rules into `view` (and so `edit` and `admin`).
pub const AGGREGATE_TO_VIEW: &str = "rbac.authorization.k8s.io/aggregate-to-view";

const READ: &[&str] = &["get", "list", "watch"];
const WRITE: &[&str] = &["create", "delete", "deletecollection", "patch", "update"];
const READ_WRITE: &[&str] = &[
    "create",
    "delete",
    "deletecollection",
    "get",
    "list",
    "patch",
    "update",
    "watch",
];

/// One default ClusterRole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClusterRole {
    /// Its name.
    pub name: &'static str,
    /// Its labels besides the bootstrapping one.
    pub labels: Vec<(&'static str, &'static str)>,
    /// The `aggregate-to-*` label its aggregation rule selects, for aggregated roles.
    pub aggregates: Option<&'static str>,
    /// Its rules (none for aggregated roles: aggregation fills them).
    pub rules: Vec<PolicyRule>,
}

/// One default ClusterRoleBinding, named as its role.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClusterRoleBinding {
    /// Its name and its ClusterRole's.
    pub name: &'static str,
    /// Who it binds.
    pub subjects: Vec<Subject>,
}

/// The default ClusterRoles, as Go's bootstrap policy defines them.
pub fn cluster_roles() -> Vec<ClusterRole> {
    let rule = PolicyRule::new;
    vec![
        ClusterRole {
            name: "cluster-admin",
            labels: vec![],
            aggregates: None,
            rules: vec![
                rule(&["*"]).groups(&["*"]).resources(&["*"]),
                rule(&["*"]).urls(&["*"]),
            ],
        },
        ClusterRole {
            name: "admin",
            labels: vec![],
            aggregates: Some(AGGREGATE_TO_ADMIN),
            rules: vec![],
        },
        ClusterRole {
            name: "edit",
            labels: vec![(AGGREGATE_TO_ADMIN, "true")],
            aggregates: Some(AGGREGATE_TO_EDIT),
            rules: vec![],
        },
        ClusterRole {
            name: "view",
            labels: vec![(AGGREGATE_TO_EDIT, "true")],
            aggregates: Some(AGGREGATE_TO_VIEW),
            rules: vec![],
        },
        ClusterRole {
            name: "system:aggregate-to-admin",
            labels: vec![(AGGREGATE_TO_ADMIN, "true")],
            aggregates: None,
            rules: vec![
                rule(&["create"])
                    .groups(&["authorization.k8s.io"])
                    .resources(&["localsubjectaccessreviews"]),
                rule(READ_WRITE)
                    .groups(&[GROUP])
                    .resources(&["rolebindings", "roles"]),
            ],
        },
        ClusterRole {
            name: "system:aggregate-to-edit",
            labels: vec![(AGGREGATE_TO_EDIT, "true")],
            aggregates: None,
            rules: aggregate_to_edit(),
        },
        ClusterRole {
            name: "system:aggregate-to-view",
            labels: vec![(AGGREGATE_TO_VIEW, "true")],
            aggregates: None,
            rules: aggregate_to_view(),
        },
        ClusterRole {
            name: "system:discovery",
            labels: vec![],
            aggregates: None,
            rules: vec![rule(&["get"]).urls(&[
                "/api",
                "/api/*",
                "/apis",
                "/apis/*",
                "/healthz",
                "/livez",
                "/openapi",
                "/openapi/*",
                "/readyz",
                "/version",
                "/version/",
            ])],
        },
        ClusterRole {
            name: "system:basic-user",
            labels: vec![],
            aggregates: None,
            rules: vec![
                rule(&["create"])
                    .groups(&["authorization.k8s.io"])
                    .resources(&["selfsubjectaccessreviews", "selfsubjectrulesreviews"]),
                rule(&["create"])
                    .groups(&["authentication.k8s.io"])
                    .resources(&["selfsubjectreviews"]),
            ],
        },
        ClusterRole {
            name: "system:public-info-viewer",
            labels: vec![],
            aggregates: None,
            rules: vec![rule(&["get"]).urls(&[
                "/healthz",
                "/livez",
                "/readyz",
                "/version",
                "/version/",
            ])],
        },
        ClusterRole {
            name: "system:monitoring",
            labels: vec![],
            aggregates: None,
            rules: vec![rule(&["get"]).urls(&[
                "/healthz",
                "/healthz/*",
                "/livez",
                "/livez/*",
                "/metrics",
                "/metrics/slis",
                "/readyz",
                "/readyz/*",
            ])],
        },
        ClusterRole {
            name: "system:auth-delegator",
            labels: vec![],
            aggregates: None,
            rules: vec![
                rule(&["create"])
                    .groups(&["authentication.k8s.io"])
                    .resources(&["tokenreviews"]),
                rule(&["create"])
                    .groups(&["authorization.k8s.io"])
                    .resources(&["subjectaccessreviews"]),
            ],
        },
        ClusterRole {
            name: "system:service-account-issuer-discovery",
            labels: vec![],
            aggregates: None,
            rules: vec![
                rule(&["get"]).urls(&["/.well-known/openid-configuration", "/openid/v1/jwks"]),
            ],
        },
    ]
}

fn aggregate_to_edit() -> Vec<PolicyRule> {
    let rule = PolicyRule::new;
    vec![
        rule(READ).groups(&[""]).resources(&[
            "pods/attach",
            "pods/exec",
            "pods/portforward",
            "pods/proxy",
            "secrets",
            "services/proxy",
        ]),
        rule(&["impersonate"])
            .groups(&[""])
            .resources(&["serviceaccounts"]),
        rule(WRITE).groups(&[""]).resources(&[
            "pods",
            "pods/attach",
            "pods/exec",
            "pods/portforward",
            "pods/proxy",
        ]),
        rule(&["create"])
            .groups(&[""])
            .resources(&["pods/eviction"]),
        rule(WRITE).groups(&[""]).resources(&[
            "configmaps",
            "events",
            "persistentvolumeclaims",
            "replicationcontrollers",
            "replicationcontrollers/scale",
            "secrets",
            "serviceaccounts",
            "services",
            "services/proxy",
        ]),
        rule(&["create"])
            .groups(&[""])
            .resources(&["serviceaccounts/token"]),
        rule(WRITE).groups(&["apps"]).resources(&[
            "daemonsets",
            "deployments",
            "deployments/rollback",
            "deployments/scale",
            "replicasets",
            "replicasets/scale",
            "statefulsets",
            "statefulsets/scale",
        ]),
        rule(WRITE)
            .groups(&["autoscaling"])
            .resources(&["horizontalpodautoscalers"]),
        rule(WRITE)
            .groups(&["batch"])
            .resources(&["cronjobs", "jobs"]),
        rule(WRITE).groups(&["extensions"]).resources(&[
            "daemonsets",
            "deployments",
            "deployments/rollback",
            "deployments/scale",
            "ingresses",
            "networkpolicies",
            "replicasets",
            "replicasets/scale",
            "replicationcontrollers/scale",
        ]),
        rule(WRITE)
            .groups(&["policy"])
            .resources(&["poddisruptionbudgets"]),
        rule(WRITE)
            .groups(&["networking.k8s.io"])
            .resources(&["ingresses", "networkpolicies"]),
        rule(READ_WRITE)
            .groups(&["coordination.k8s.io"])
            .resources(&["leases"]),
    ]
}

fn aggregate_to_view() -> Vec<PolicyRule> {
    let rule = PolicyRule::new;
    vec![
        rule(READ).groups(&[""]).resources(&[
            "configmaps",
            "endpoints",
            "persistentvolumeclaims",
            "persistentvolumeclaims/status",
            "pods",
            "replicationcontrollers",
            "replicationcontrollers/scale",
            "serviceaccounts",
            "services",
            "services/status",
        ]),
        rule(READ).groups(&[""]).resources(&[
            "bindings",
            "events",
            "limitranges",
            "namespaces/status",
            "pods/log",
            "pods/status",
            "replicationcontrollers/status",
            "resourcequotas",
            "resourcequotas/status",
        ]),
        rule(READ).groups(&[""]).resources(&["namespaces"]),
        rule(READ)
            .groups(&["discovery.k8s.io"])
            .resources(&["endpointslices"]),
        rule(READ).groups(&["apps"]).resources(&[
            "controllerrevisions",
            "daemonsets",
            "daemonsets/status",
            "deployments",
            "deployments/scale",
            "deployments/status",
            "replicasets",
            "replicasets/scale",
            "replicasets/status",
            "statefulsets",
            "statefulsets/scale",
            "statefulsets/status",
        ]),
        rule(READ).groups(&["autoscaling"]).resources(&[
            "horizontalpodautoscalers",
            "horizontalpodautoscalers/status",
        ]),
        rule(READ).groups(&["batch"]).resources(&[
            "cronjobs",
            "cronjobs/status",
            "jobs",
            "jobs/status",
        ]),
        rule(READ).groups(&["extensions"]).resources(&[
            "daemonsets",
            "daemonsets/status",
            "deployments",
            "deployments/scale",
            "deployments/status",
            "ingresses",
            "ingresses/status",
            "networkpolicies",
            "replicasets",
            "replicasets/scale",
            "replicasets/status",
            "replicationcontrollers/scale",
        ]),
        rule(READ)
            .groups(&["policy"])
            .resources(&["poddisruptionbudgets", "poddisruptionbudgets/status"]),
        rule(READ).groups(&["networking.k8s.io"]).resources(&[
            "ingresses",
            "ingresses/status",
            "networkpolicies",
        ]),
    ]
}

/// The default ClusterRoleBindings.
pub fn cluster_role_bindings() -> Vec<ClusterRoleBinding> {
    vec![
        ClusterRoleBinding {
            name: "cluster-admin",
            subjects: vec![Subject::group(user::SYSTEM_PRIVILEGED_GROUP)],
        },
        ClusterRoleBinding {
            name: "system:discovery",
            subjects: vec![Subject::group(user::ALL_AUTHENTICATED)],
        },
        ClusterRoleBinding {
            name: "system:basic-user",
            subjects: vec![Subject::group(user::ALL_AUTHENTICATED)],
        },
        ClusterRoleBinding {
            name: "system:public-info-viewer",
            subjects: vec![
                Subject::group(user::ALL_AUTHENTICATED),
                Subject::group(user::ALL_UNAUTHENTICATED),
            ],
        },
        ClusterRoleBinding {
            name: "system:monitoring",
            subjects: vec![Subject::group("system:monitoring")],
        },
        ClusterRoleBinding {
            name: "system:service-account-issuer-discovery",
            subjects: vec![Subject::group("system:serviceaccounts")],
        },
    ]
}

fn metadata(name: &str, labels: &[(&str, &str)]) -> Value {
    let mut all = serde_json::Map::new();
    all.insert(BOOTSTRAPPING_LABEL.0.into(), BOOTSTRAPPING_LABEL.1.into());
    for (k, v) in labels {
        all.insert((*k).into(), (*v).into());
    }
    json!({
        "name": name,
        "labels": all,
        "annotations": {AUTOUPDATE_ANNOTATION.0: AUTOUPDATE_ANNOTATION.1},
    })
}

impl ClusterRole {
    /// The object's JSON (without `apiVersion` and `kind`).
    pub fn to_json(&self) -> Value {
        let mut v = json!({"metadata": metadata(self.name, &self.labels)});
        if let Some(label) = self.aggregates {
            v["aggregationRule"] =
                json!({"clusterRoleSelectors": [{"matchLabels": {label: "true"}}]});
        } else {
            v["rules"] = serde_json::to_value(&self.rules).unwrap_or(Value::Null);
        }
        v
    }
}

impl ClusterRoleBinding {
    /// The object's JSON (without `apiVersion` and `kind`).
    pub fn to_json(&self) -> Value {
        json!({
            "metadata": metadata(self.name, &[]),
            "roleRef": {"apiGroup": GROUP, "kind": "ClusterRole", "name": self.name},
            "subjects": serde_json::to_value(&self.subjects).unwrap_or(Value::Null),
        })
    }
}

/// What [`ensure`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ensured {
    /// The ClusterRoles and ClusterRoleBindings created (`clusterroles/NAME`,
    /// `clusterrolebindings/NAME`).
    pub created: Vec<String>,
    /// Those that existed and were brought up to the defaults.
    pub reconciled: Vec<String>,
}

/// `existing` with what `expected` has and it lacks (Go's `ReconcileClusterRole` and
/// `ReconcileClusterRoleBinding` in their non-removing mode); `None` when nothing is
/// missing.
fn reconciled(resource: &str, existing: &Value, expected: &Value) -> Option<Value> {
    let mut out = existing.clone();
    let mut changed = false;
    for field in ["labels", "annotations"] {
        let Some(wanted) = expected
            .pointer(&format!("/metadata/{field}"))
            .and_then(Value::as_object)
        else {
            continue;
        };
        let Some(meta) = out.get_mut("metadata").and_then(Value::as_object_mut) else {
            continue;
        };
        let map = meta.entry(field).or_insert_with(|| json!({}));
        if let Some(map) = map.as_object_mut() {
            for (k, v) in wanted {
                if !map.contains_key(k) {
                    map.insert(k.clone(), v.clone());
                    changed = true;
                }
            }
        }
    }
    let list = |v: &Value, pointer: &str| -> Vec<Value> {
        v.pointer(pointer)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    if resource == "clusterroles" {
        let have: Vec<PolicyRule> =
            serde_json::from_value(Value::Array(list(existing, "/rules"))).unwrap_or_default();
        let want: Vec<PolicyRule> =
            serde_json::from_value(Value::Array(list(expected, "/rules"))).unwrap_or_default();
        let (_, missing) = super::policy::covers(&have, &want);
        if !missing.is_empty() {
            let mut rules = have;
            rules.extend(missing);
            out["rules"] = serde_json::to_value(rules).unwrap_or(Value::Null);
            changed = true;
        }
        let selectors = "/aggregationRule/clusterRoleSelectors";
        let mut have_selectors = list(existing, selectors);
        let before = have_selectors.len();
        for selector in list(expected, selectors) {
            if !have_selectors.contains(&selector) {
                have_selectors.push(selector);
            }
        }
        if have_selectors.len() != before {
            out["aggregationRule"] = json!({"clusterRoleSelectors": have_selectors});
            changed = true;
        }
    } else {
        let mut subjects = list(existing, "/subjects");
        let before = subjects.len();
        for subject in list(expected, "/subjects") {
            if !subjects.contains(&subject) {
                subjects.push(subject);
            }
        }
        if subjects.len() != before {
            out["subjects"] = Value::Array(subjects);
            changed = true;
        }
    }
    changed.then_some(out)
}

/// Creates every default ClusterRole and ClusterRoleBinding missing from `storage`, and
/// reconciles those present (see the module's documentation). Without RBAC's kinds in
/// `scheme` it does nothing.
///
/// ```
/// use std::sync::Arc;
/// use apiserver::authorization::rbac::bootstrap;
/// use apiserver::storage::{MemoryStorage, Storage};
/// use apimachinery::runtime::Scheme;
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build()?.block_on(async {
/// let mut scheme = Scheme::new();
/// k8s_types::register(&mut scheme)?;
/// let storage: Arc<dyn Storage> = Arc::new(MemoryStorage::new());
/// let first = bootstrap::ensure(&Arc::new(scheme.clone()), &storage).await?;
/// assert!(first.created.contains(&"clusterroles/cluster-admin".to_owned()));
/// let again = bootstrap::ensure(&Arc::new(scheme), &storage).await?;
/// assert!(again.created.is_empty() && again.reconciled.is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # })?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub async fn ensure(
    scheme: &Arc<Scheme>,
    storage: &Arc<dyn Storage>,
) -> Result<Ensured, StatusError> {
    let resources = resources_from_scheme(scheme);
    let mut ensured = Ensured::default();
    let objects: Vec<(&str, &str, Value)> = cluster_roles()
        .iter()
        .map(|r| ("clusterroles", r.name, r.to_json()))
        .chain(
            cluster_role_bindings()
                .iter()
                .map(|b| ("clusterrolebindings", b.name, b.to_json())),
        )
        .collect();
    for (resource, name, value) in objects {
        let Some(info) = resources.get(&(GROUP.to_owned(), resource.to_owned())) else {
            continue;
        };
        let store = super::store(scheme, storage, info.clone());
        match store.get("", name).await {
            Ok(existing) => {
                let existing = to_json(&*existing)?;
                if existing
                    .pointer("/metadata/annotations")
                    .and_then(|a| a.get(AUTOUPDATE_ANNOTATION.0))
                    .and_then(Value::as_str)
                    == Some("false")
                {
                    continue;
                }
                if resource == "clusterrolebindings"
                    && existing.get("roleRef") != value.get("roleRef")
                {
                    // A binding's role cannot change: Go deletes and recreates it.
                    store.delete("", name, &DeleteParams::default()).await?;
                } else {
                    if let Some(update) = reconciled(resource, &existing, &value) {
                        let gvk = info.storage_gvk.clone();
                        store
                            .update("", name, Subresource::Main, false, |_| {
                                from_value(scheme, &gvk, update.clone())
                            })
                            .await?;
                        ensured.reconciled.push(format!("{resource}/{name}"));
                    }
                    continue;
                }
            }
            Err(e) if errors::is_not_found(&e) => {}
            Err(e) => return Err(e),
        }
        let obj = from_value(scheme, &info.storage_gvk, value)?;
        match store.create("", obj, false).await {
            Ok(_) => ensured.created.push(format!("{resource}/{name}")),
            // Another server on the same storage made it first.
            Err(e) if errors::is_already_exists(&e) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(ensured)
}

#[cfg(test)]
mod tests;
