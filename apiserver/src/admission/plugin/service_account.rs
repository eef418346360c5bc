//! Go's `ServiceAccount` admission plugin (`plugin/pkg/admission/serviceaccount`). A new
//! Pod runs as a ServiceAccount that exists: one that names none runs as `default`
//! (`serviceAccountName` and the deprecated `serviceAccount` beside it), and a Pod whose
//! account is missing is refused. Unless the Pod or its account opts out
//! (`automountServiceAccountToken: false`, the Pod's word first), every container and
//! init container (not the ephemeral ones) mounts a projected volume
//! `kube-api-access-<random>` read-only at [`DEFAULT_API_TOKEN_MOUNT_PATH`]: a bound
//! token, the cluster's CA bundle (`kube-root-ca.crt`) and the namespace. A Pod with no
//! image pull secrets gets its account's. A mirror Pod (a kubelet's static Pod) is not
//! changed, and may reference no account, secret or token projection. An account
//! annotated [`ENFORCE_MOUNTABLE_SECRETS_ANNOTATION`] limits the secrets its Pods (and
//! ephemeral containers added later) reference to those it lists.
//!
//! The `default` account of each namespace is made by kube-controller-manager's
//! serviceaccount controller; a Pod created before it has acted waits for it, as Go's
//! plugin looks the account up again for up to about two seconds.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use apimachinery::api::errors::{self, StatusError};
use apimachinery::schema::GroupResource;
use async_trait::async_trait;
use serde_json::{Map, Value, json};

use super::super::{Attributes, MutationInterface, Operation, ValidationInterface};
use super::pods::{created_pod, set_pod};
use crate::registry::{Store, random_suffix, to_json};

/// The account a Pod that names none runs as.
pub const DEFAULT_SERVICE_ACCOUNT: &str = "default";

/// An account annotated with this set to true limits its Pods' secrets to its own.
pub const ENFORCE_MOUNTABLE_SECRETS_ANNOTATION: &str = "kubernetes.io/enforce-mountable-secrets";

/// The prefix of the projected token volume's name.
pub const SERVICE_ACCOUNT_VOLUME_NAME: &str = "kube-api-access";

/// Where containers find the token, CA bundle and namespace.
pub const DEFAULT_API_TOKEN_MOUNT_PATH: &str = "/var/run/secrets/kubernetes.io/serviceaccount";

/// The annotation that marks a kubelet's mirror Pod.
pub const MIRROR_POD_ANNOTATION: &str = "kubernetes.io/config.mirror";

/// The token's lifetime in the volume (Go's `WarnOnlyBoundTokenExpirationSeconds`: an
/// hour and seven seconds, which the token issuer recognizes).
pub const TOKEN_EXPIRATION_SECONDS: i64 = 3607;

/// The projected volume's file mode, 0644 (Go's `ProjectedVolumeSourceDefaultMode`).
pub const PROJECTED_VOLUME_DEFAULT_MODE: i64 = 0o644;

/// How often the `default` account is looked up before a Pod is refused: the
/// controller that makes it may not have acted yet.
const DEFAULT_ACCOUNT_ATTEMPTS: usize = 10;

/// The plugin, reading accounts from the ServiceAccount store's watch cache, and from
/// the storage when the cache does not have one.
#[derive(Debug)]
pub struct ServiceAccount {
    service_accounts: Arc<Store>,
    /// Refuse every Pod referencing a secret its account does not list (Go's
    /// `LimitSecretReferences`, off: only accounts with the annotation limit them).
    pub limit_secret_references: bool,
    /// Mount the token volume (Go's `MountServiceAccountToken`, on).
    pub mount_service_account_token: bool,
}

impl ServiceAccount {
    /// The plugin over the store of core/v1 `serviceaccounts`, with Go's defaults.
    pub fn new(service_accounts: Arc<Store>) -> Self {
        ServiceAccount {
            service_accounts,
            limit_secret_references: false,
            mount_service_account_token: true,
        }
    }

    /// The plugin over the server's `stores` (by group and resource), when it serves
    /// core/v1 `serviceaccounts`.
    pub fn for_stores(stores: &BTreeMap<(String, String), Arc<Store>>) -> Option<Self> {
        let accounts = stores.get(&(String::new(), "serviceaccounts".to_owned()))?;
        Some(ServiceAccount::new(accounts.clone()))
    }

    /// The account `name` of `namespace` as JSON: from the cache or the storage, looked
    /// up again a while when it is `default` (Go's `getServiceAccount`).
    async fn service_account(&self, namespace: &str, name: &str) -> Result<Value, StatusError> {
        let attempts = if name == DEFAULT_SERVICE_ACCOUNT {
            DEFAULT_ACCOUNT_ATTEMPTS
        } else {
            1
        };
        // Go waits 100 to 200 ms, chosen once per lookup.
        let jitter = random_suffix().bytes().map(u64::from).sum::<u64>() % 100;
        let interval = Duration::from_millis(100 + jitter);
        for attempt in 0..attempts {
            if attempt > 0 {
                tokio::time::sleep(interval).await;
            }
            match self
                .service_accounts
                .read_stored(namespace, name, attempt > 0)
                .await
            {
                Ok((kv, _)) => return to_json(&*self.service_accounts.decode(&kv)?),
                Err(e) if errors::is_not_found(&e) => {}
                Err(e) => return Err(e),
            }
        }
        Err(errors::new_not_found(
            &GroupResource::new("", "serviceaccount"),
            name,
        ))
    }

    /// The account a Pod names, or the refusal of its request.
    async fn pod_account(&self, attributes: &Attributes, name: &str) -> Result<Value, StatusError> {
        let ns = &attributes.namespace;
        self.service_account(ns, name).await.map_err(|e| {
            attributes.forbidden(format!(
                "error looking up service account {ns}/{name}: {}",
                e.status.message
            ))
        })
    }

    /// Whether the account's Pods may reference only its own secrets.
    fn enforces_mountable_secrets(&self, account: &Value) -> bool {
        self.limit_secret_references
            || account
                .pointer("/metadata/annotations")
                .and_then(|a| a.get(ENFORCE_MOUNTABLE_SECRETS_ANNOTATION))
                .and_then(Value::as_str)
                .is_some_and(parses_true)
    }

    /// Go's `Validate` of a Pod being created.
    async fn validate_created(
        &self,
        attributes: &Attributes,
        pod: &Value,
    ) -> Result<(), StatusError> {
        let spec = pod.get("spec").unwrap_or(&Value::Null);
        let account_name = str_at(spec, "/serviceAccountName");
        if is_mirror_pod(pod) {
            return validate_mirror_pod(attributes, spec);
        }
        if account_name.is_empty() {
            return Err(attributes.forbidden(format!(
                "no service account specified for pod {}/{}",
                attributes.namespace,
                str_at(pod, "/metadata/name")
            )));
        }
        let account = self.pod_account(attributes, account_name).await?;
        if self.enforces_mountable_secrets(&account) {
            limit_secret_references(&account, spec).map_err(|e| attributes.forbidden(e))?;
        }
        Ok(())
    }

    /// Go's check of the ephemeral containers added to a Pod. Go checks the Pod its
    /// ephemeral containers strategy prepared, whose spec is the stored one but for its
    /// ephemeral containers; kapi's chain runs before that, so the account is the stored
    /// Pod's (a write's own spec may leave it out).
    async fn validate_ephemeral(
        &self,
        attributes: &Attributes,
        pod: &Value,
    ) -> Result<(), StatusError> {
        let spec = pod.get("spec").unwrap_or(&Value::Null);
        let stored = match attributes.old_object.as_deref() {
            Some(old) => Some(to_json(old)?),
            None => None,
        };
        let account_name = match &stored {
            Some(old) => str_at(old, "/spec/serviceAccountName"),
            None => str_at(spec, "/serviceAccountName"),
        };
        if account_name.is_empty() {
            return Err(attributes.forbidden(format!(
                "no service account specified for pod {}/{}",
                attributes.namespace,
                str_at(pod, "/metadata/name")
            )));
        }
        let account = self.pod_account(attributes, account_name).await?;
        if !self.enforces_mountable_secrets(&account) {
            return Ok(());
        }
        let allowed = names_at(&account, "/secrets");
        for container in items(spec, "ephemeralContainers") {
            container_secret_references(container, &allowed, "ephemeral container", &account)
                .map_err(|e| attributes.forbidden(e))?;
        }
        Ok(())
    }
}

/// Go's `strconv.ParseBool` of a true value.
fn parses_true(value: &str) -> bool {
    matches!(value, "1" | "t" | "T" | "TRUE" | "true" | "True")
}

fn str_at<'a>(value: &'a Value, pointer: &str) -> &'a str {
    value.pointer(pointer).and_then(Value::as_str).unwrap_or("")
}

fn items<'a>(value: &'a Value, field: &str) -> impl Iterator<Item = &'a Value> {
    value
        .get(field)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

/// The `name`s of the list at `pointer` (an account's `secrets` or
/// `imagePullSecrets`).
fn names_at(value: &Value, pointer: &str) -> Vec<String> {
    value
        .pointer(pointer)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|r| str_at(r, "/name").to_owned())
        .collect()
}

fn is_mirror_pod(pod: &Value) -> bool {
    pod.pointer("/metadata/annotations")
        .and_then(Value::as_object)
        .is_some_and(|a| a.contains_key(MIRROR_POD_ANNOTATION))
}

/// Whether the Pod should mount a token: the Pod's word, then the account's, then yes.
fn should_automount(account: &Value, spec: &Map<String, Value>) -> bool {
    spec.get("automountServiceAccountToken")
        .and_then(Value::as_bool)
        .or_else(|| {
            account
                .get("automountServiceAccountToken")
                .and_then(Value::as_bool)
        })
        .unwrap_or(true)
}

/// The projected volume of the token, the CA bundle and the namespace (Go's
/// `TokenVolumeSource`).
pub fn token_volume_source() -> Value {
    json!({
        "sources": [
            {"serviceAccountToken": {"expirationSeconds": TOKEN_EXPIRATION_SECONDS, "path": "token"}},
            {"configMap": {"name": "kube-root-ca.crt", "items": [{"key": "ca.crt", "path": "ca.crt"}]}},
            {"downwardAPI": {"items": [{"path": "namespace",
                "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"}}]}}
        ],
        "defaultMode": PROJECTED_VOLUME_DEFAULT_MODE
    })
}

/// Mounts the token volume into every init container and container that has nothing
/// at the mount path, adding the volume (named `kube-api-access-<suffix>` unless the
/// Pod has one by that prefix) when one does (Go's `mountServiceAccountToken`).
fn mount_service_account_token(spec: &mut Map<String, Value>, suffix: &str) {
    let prefix = format!("{SERVICE_ACCOUNT_VOLUME_NAME}-");
    let existing = items(&Value::Object(spec.clone()), "volumes")
        .map(|v| str_at(v, "/name").to_owned())
        .find(|name| name.starts_with(&prefix));
    let has_volume = existing.is_some();
    let volume_name = existing.unwrap_or_else(|| format!("{prefix}{suffix}"));
    let mount =
        json!({"name": volume_name, "readOnly": true, "mountPath": DEFAULT_API_TOKEN_MOUNT_PATH});
    let mut needs_volume = false;
    for field in ["initContainers", "containers"] {
        let Some(containers) = spec.get_mut(field).and_then(Value::as_array_mut) else {
            continue;
        };
        for container in containers.iter_mut().filter_map(Value::as_object_mut) {
            let mounts = container
                .entry("volumeMounts")
                .or_insert_with(|| Value::Array(Vec::new()));
            if !mounts.is_array() {
                *mounts = Value::Array(Vec::new());
            }
            let Some(mounts) = mounts.as_array_mut() else {
                continue;
            };
            if mounts
                .iter()
                .any(|m| str_at(m, "/mountPath") == DEFAULT_API_TOKEN_MOUNT_PATH)
            {
                continue;
            }
            mounts.push(mount.clone());
            needs_volume = true;
        }
    }
    if has_volume || !needs_volume {
        return;
    }
    let volumes = spec
        .entry("volumes")
        .or_insert_with(|| Value::Array(Vec::new()));
    if let Some(volumes) = volumes.as_array_mut() {
        volumes.push(json!({"name": volume_name, "projected": token_volume_source()}));
    } else {
        *volumes = json!([{"name": volume_name, "projected": token_volume_source()}]);
    }
}

/// The secrets a container's environment references, each with what Go's refusal says
/// of it.
fn container_secret_refs(container: &Value) -> Vec<(String, Option<String>)> {
    let mut refs: Vec<(String, Option<String>)> = items(container, "env")
        .filter_map(|env| {
            env.pointer("/valueFrom/secretKeyRef/name")
                .and_then(Value::as_str)
                .map(|s| (s.to_owned(), Some(str_at(env, "/name").to_owned())))
        })
        .collect();
    refs.extend(items(container, "envFrom").filter_map(|from| {
        from.pointer("/secretRef/name")
            .and_then(Value::as_str)
            .map(|s| (s.to_owned(), None))
    }));
    refs
}

/// A container's references outside `allowed`, refused as Go words it (env first, then
/// envFrom).
fn container_secret_references(
    container: &Value,
    allowed: &[String],
    what: &str,
    account: &Value,
) -> Result<(), String> {
    let name = str_at(container, "/name");
    let account_name = str_at(account, "/metadata/name");
    for (secret, env) in container_secret_refs(container) {
        if allowed.contains(&secret) {
            continue;
        }
        return Err(match env {
            Some(env) => format!(
                "{what} {name} with envVar {env} referencing secret.secretName=\"{secret}\" is not allowed because service account {account_name} does not reference that secret"
            ),
            None => format!(
                "{what} {name} with envFrom referencing secret.secretName=\"{secret}\" is not allowed because service account {account_name} does not reference that secret"
            ),
        });
    }
    Ok(())
}

/// Go's `limitSecretReferences`: secret volumes, the init containers' and containers'
/// environments and the image pull secrets name only the account's secrets.
fn limit_secret_references(account: &Value, spec: &Value) -> Result<(), String> {
    let account_name = str_at(account, "/metadata/name");
    let allowed = names_at(account, "/secrets");
    for volume in items(spec, "volumes") {
        let Some(secret) = volume.get("secret") else {
            continue;
        };
        let name = str_at(secret, "/secretName");
        if !allowed.iter().any(|a| a == name) {
            return Err(format!(
                "volume with secret.secretName=\"{name}\" is not allowed because service account {account_name} does not reference that secret"
            ));
        }
    }
    for container in items(spec, "initContainers") {
        container_secret_references(container, &allowed, "init container", account)?;
    }
    for container in items(spec, "containers") {
        container_secret_references(container, &allowed, "container", account)?;
    }
    let pull = names_at(account, "/imagePullSecrets");
    for (i, reference) in items(spec, "imagePullSecrets").enumerate() {
        let name = str_at(reference, "/name");
        if !pull.iter().any(|p| p == name) {
            return Err(format!(
                "imagePullSecrets[{i}].name=\"{name}\" is not allowed because service account {account_name} does not reference that imagePullSecret"
            ));
        }
    }
    Ok(())
}

/// Whether a Pod references any secret (Go's `VisitPodSecretNames` over all containers,
/// empty names skipped).
fn references_secrets(spec: &Value) -> bool {
    let named = |v: Option<&Value>| v.and_then(Value::as_str).is_some_and(|s| !s.is_empty());
    if items(spec, "imagePullSecrets").any(|r| named(r.get("name"))) {
        return true;
    }
    let in_containers = ["containers", "initContainers", "ephemeralContainers"]
        .iter()
        .flat_map(|field| items(spec, field))
        .any(|c| {
            container_secret_refs(c)
                .iter()
                .any(|(name, _)| !name.is_empty())
        });
    if in_containers {
        return true;
    }
    const SECRET_REFS: [(&str, &str); 10] = [
        ("azureFile", "/secretName"),
        ("cephfs", "/secretRef/name"),
        ("cinder", "/secretRef/name"),
        ("flexVolume", "/secretRef/name"),
        ("rbd", "/secretRef/name"),
        ("secret", "/secretName"),
        ("scaleIO", "/secretRef/name"),
        ("iscsi", "/secretRef/name"),
        ("storageos", "/secretRef/name"),
        ("csi", "/nodePublishSecretRef/name"),
    ];
    items(spec, "volumes").any(|volume| {
        let projected = volume
            .pointer("/projected/sources")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .any(|s| named(s.pointer("/secret/name")));
        projected
            || SECRET_REFS
                .iter()
                .any(|(source, at)| named(volume.get(*source).and_then(|s| s.pointer(at))))
    })
}

/// What a mirror Pod may not reference.
fn validate_mirror_pod(attributes: &Attributes, spec: &Value) -> Result<(), StatusError> {
    if !str_at(spec, "/serviceAccountName").is_empty() {
        return Err(attributes.forbidden("a mirror pod may not reference service accounts"));
    }
    if references_secrets(spec) {
        return Err(attributes.forbidden("a mirror pod may not reference secrets"));
    }
    let projects_token = items(spec, "volumes").any(|v| {
        v.pointer("/projected/sources")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .any(|s| s.get("serviceAccountToken").is_some_and(|t| !t.is_null()))
    });
    if projects_token {
        return Err(
            attributes.forbidden("a mirror pod may not use ServiceAccountToken volume projections")
        );
    }
    Ok(())
}

/// The Pod a request writes, if it is one this plugin looks at (Go's `shouldIgnore`:
/// Pods, through the main resource or `ephemeralcontainers`).
fn pod_of(attributes: &Attributes) -> Result<Option<Value>, StatusError> {
    let is_pod = attributes.resource.group.is_empty() && attributes.resource.resource == "pods";
    let subresource = attributes.subresource.as_str();
    if !is_pod || !matches!(subresource, "" | "ephemeralcontainers") {
        return Ok(None);
    }
    let Some(object) = attributes.object.as_deref() else {
        return Ok(None);
    };
    if object.group_version_kind().kind != "Pod" {
        return Ok(None);
    }
    to_json(object).map(Some)
}

#[async_trait]
impl MutationInterface for ServiceAccount {
    fn handles(&self, operation: Operation) -> bool {
        matches!(operation, Operation::Create | Operation::Update)
    }

    async fn admit(&self, attributes: &mut Attributes) -> Result<(), StatusError> {
        let Some(mut pod) = created_pod(attributes)? else {
            return Ok(());
        };
        if is_mirror_pod(&pod) {
            return self.validate_created(attributes, &pod).await;
        }
        let Some(spec) = pod.get_mut("spec").and_then(Value::as_object_mut) else {
            return Ok(());
        };
        let named = spec
            .get("serviceAccountName")
            .and_then(Value::as_str)
            .filter(|n| !n.is_empty())
            .map(str::to_owned);
        let account_name = match named {
            Some(name) => name,
            None => {
                let name = DEFAULT_SERVICE_ACCOUNT.to_owned();
                spec.insert("serviceAccountName".into(), Value::from(name.clone()));
                spec.insert("serviceAccount".into(), Value::from(name.clone()));
                name
            }
        };
        let account = self.pod_account(attributes, &account_name).await?;
        if self.mount_service_account_token && should_automount(&account, spec) {
            mount_service_account_token(spec, &random_suffix());
        }
        let has_pull_secrets = spec
            .get("imagePullSecrets")
            .and_then(Value::as_array)
            .is_some_and(|s| !s.is_empty());
        let account_pull = names_at(&account, "/imagePullSecrets");
        if !has_pull_secrets && !account_pull.is_empty() {
            let refs = account_pull.into_iter().map(|name| json!({"name": name}));
            spec.insert("imagePullSecrets".into(), Value::Array(refs.collect()));
        }
        set_pod(attributes, pod.clone())?;
        self.validate_created(attributes, &pod).await
    }
}

#[async_trait]
impl ValidationInterface for ServiceAccount {
    fn handles(&self, operation: Operation) -> bool {
        matches!(operation, Operation::Create | Operation::Update)
    }

    async fn validate(&self, attributes: &Attributes) -> Result<(), StatusError> {
        let Some(pod) = pod_of(attributes)? else {
            return Ok(());
        };
        match attributes.operation {
            Operation::Update if attributes.subresource == "ephemeralcontainers" => {
                self.validate_ephemeral(attributes, &pod).await
            }
            Operation::Create => self.validate_created(attributes, &pod).await,
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests;
