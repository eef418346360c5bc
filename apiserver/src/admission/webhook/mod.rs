//! Dynamic admission webhooks (Go's `MutatingAdmissionWebhook` and
//! `ValidatingAdmissionWebhook` plugins): the webhooks of the
//! `admissionregistration.k8s.io/v1` `MutatingWebhookConfiguration` and
//! `ValidatingWebhookConfiguration` objects the server stores, read on every admitted
//! write (a new or changed configuration applies to the next request, no restart).
//!
//! A webhook is called when its `rules` select the request (operations, API groups,
//! versions, `resource/subresource` with `*`, scope), its `namespaceSelector` the
//! labels of the object's namespace (of the Namespace itself for namespaces; ignored
//! for other cluster-scoped objects; a namespace that does not exist has no labels),
//! and its `objectSelector` the labels of the new or the old object. Under
//! `matchPolicy: Equivalent` (the default) a rule naming another served version of
//! the same resource selects the request too, and the webhook gets the object in that
//! version. It is sent an `admission.k8s.io/v1` `AdmissionReview` over HTTPS, its
//! certificate verified against `caBundle` (required: there are no system roots),
//! within `timeoutSeconds` (10 by default).
//!
//! No webhook is called for requests on the admission configurations themselves (as in
//! Go), so a broken webhook selecting everything can still be removed.
//!
//! Mutating webhooks are called one after the other, in the order of their
//! configurations' names and of the webhooks in each, and their `JSONPatch` answers
//! applied; validating ones are then called all at once. A webhook that refuses ends
//! the request with its Status: `admission webhook "NAME" denied the request: MESSAGE`,
//! with the webhook's code, 403 when it gives none below 400. A call that fails
//! (unreachable, timed out, TLS, an answer that is not an `AdmissionReview` v1) is
//! ignored under `failurePolicy: Ignore` and otherwise answered with 500
//! `failed calling webhook "NAME": ...`. A dry-run request is refused with 400 when a
//! webhook it selects has `sideEffects` other than `None` or `NoneOnDryRun`.
//!
//! A mutating webhook with `reinvocationPolicy: IfNeeded` is called once more when a
//! webhook after it changed the object (Go's reinvocation, among webhooks only: the
//! server's other mutating plugins are not run again). Left out: `matchConditions`,
//! which are CEL. This server evaluates no CEL, so a webhook with
//! match conditions is treated as Go treats a condition that fails to evaluate: under
//! `failurePolicy: Fail` the request is refused with 500 `failed calling webhook
//! "NAME": failed to evaluate match conditions: ...`; under `Ignore` the webhook is
//! skipped. It is never called as if its conditions held.
//!
//! A `clientConfig.service` is reached at `https://NAME.NAMESPACE.svc:PORT/PATH`
//! (this server has no Endpoints to resolve it through), its certificate checked for
//! the name `NAME.NAMESPACE.svc`: reachable only where that name resolves, unless a
//! [`ServiceResolver`] given to [`crate::server::Config::webhook_service_resolver`]
//! says where the Service is.

pub mod client;
pub mod configuration;
mod resolver;
pub mod rules;

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::sync::Arc;

use apimachinery::api::errors::{self, StatusError};
use apimachinery::runtime::Object;
use apimachinery::schema::{GroupVersion, GroupVersionKind, GroupVersionResource};
use async_trait::async_trait;
use base64::Engine;
use serde_json::{Value, json};

use self::client::{CallError, Endpoint};
use self::configuration::{Webhook, WebhookConfiguration};
pub use self::resolver::{DnsServiceResolver, ServiceResolver, StaticServiceResolver};
use super::{Attributes, MutationInterface, Operation, ValidationInterface};
use crate::registry::{MediaType, Store, convert, encode, from_value, to_json};
use crate::storage::Revision;

/// The API group of the webhook configurations.
pub const GROUP: &str = "admissionregistration.k8s.io";

/// What both webhook plugins read: the configurations, namespaces and served versions
/// of the server's stores.
#[derive(Debug)]
pub struct Webhooks {
    stores: BTreeMap<(String, String), Arc<Store>>,
    resolver: Arc<dyn ServiceResolver>,
    parsed: std::sync::Mutex<BTreeMap<String, Parsed>>,
}

/// The webhooks last read from a configuration resource, and which stored versions of
/// which objects they were read from: every write lists the configurations' keys, and
/// decodes them again only when one was added, changed or removed.
#[derive(Debug, Default)]
struct Parsed {
    versions: Vec<(String, Revision)>,
    webhooks: Arc<Vec<Webhook>>,
}

/// The webhooks of `MutatingWebhookConfiguration` objects, as a mutating plugin.
#[derive(Debug)]
pub struct MutatingWebhooks(pub Arc<Webhooks>);

/// The webhooks of `ValidatingWebhookConfiguration` objects, as a validating plugin.
#[derive(Debug)]
pub struct ValidatingWebhooks(pub Arc<Webhooks>);

/// What a webhook is called with: the version of the resource its rule matched.
#[derive(Clone, Debug)]
struct Invocation {
    resource: GroupVersionResource,
    kind: GroupVersionKind,
}

/// Why a call did not give an answer (`failurePolicy` decides) or what refused.
enum HookError {
    /// The call failed: `failed calling webhook`, subject to the failure policy.
    Calling(String),
    /// Any other refusal, answered as is.
    Status(StatusError),
}

fn calling_error(name: &str, why: impl std::fmt::Display) -> HookError {
    HookError::Calling(format!("failed calling webhook {name:?}: {why}"))
}

/// Go's `webhookerrors.ToStatusErr`: the webhook's Status, its message prefixed with
/// who denied, its code at least 400 (403 when it gives none).
fn denied(name: &str, result: Option<&Value>) -> StatusError {
    let mut status: apimachinery::apis::meta::v1::Status = result
        .and_then(|r| serde_json::from_value(r.clone()).ok())
        .unwrap_or_default();
    status.type_meta.kind = "Status".into();
    status.type_meta.api_version = "v1".into();
    if status.code < 400 {
        status.code = 403;
    }
    if status.status.is_empty() || status.status == "Success" {
        status.status = "Failure".into();
    }
    let by = format!("admission webhook {name:?} denied the request");
    status.message = if !status.message.is_empty() {
        format!("{by}: {}", status.message)
    } else if !status.reason.is_empty() {
        format!("{by}: {}", status.reason)
    } else {
        format!("{by} without explanation")
    };
    StatusError {
        status: Box::new(status),
    }
}

impl Webhooks {
    /// The webhooks of the configurations in `stores` (the server's stores, by group
    /// and resource), Services reached through `resolver`.
    pub fn new(
        stores: BTreeMap<(String, String), Arc<Store>>,
        resolver: Arc<dyn ServiceResolver>,
    ) -> Self {
        Webhooks {
            stores,
            resolver,
            parsed: std::sync::Mutex::default(),
        }
    }

    fn store(&self, group: &str, resource: &str) -> Option<&Arc<Store>> {
        self.stores.get(&(group.to_owned(), resource.to_owned()))
    }

    /// Every webhook of every configuration of `resource`, in name order.
    async fn configured(&self, resource: &str) -> Result<Arc<Vec<Webhook>>, StatusError> {
        let Some(store) = self.store(GROUP, resource) else {
            return Ok(Arc::default());
        };
        // From the watch cache, as Go's configuration manager reads its informer: a
        // write then costs the storage no read of the configurations.
        let kvs = store.list_stored().await?;
        let versions: Vec<(String, Revision)> = kvs
            .iter()
            .map(|kv| (kv.key.clone(), kv.mod_revision))
            .collect();
        if let Ok(parsed) = self.parsed.lock() {
            if let Some(p) = parsed.get(resource).filter(|p| p.versions == versions) {
                return Ok(p.webhooks.clone());
            }
        }
        let mut hooks = Vec::new();
        for kv in &kvs {
            let obj = store.decode(kv)?;
            let config: WebhookConfiguration = serde_json::from_value(to_json(&*obj)?)
                .map_err(|e| errors::new_internal_error(format!("reading {resource}: {e}")))?;
            hooks.extend(config.webhooks);
        }
        let webhooks = Arc::new(hooks);
        if let Ok(mut parsed) = self.parsed.lock() {
            parsed.insert(
                resource.to_owned(),
                Parsed {
                    versions,
                    webhooks: webhooks.clone(),
                },
            );
        }
        Ok(webhooks)
    }

    /// The version of the request's resource the webhook's rules select (the request's
    /// own first, then, under `Equivalent`, the others the server serves).
    fn matching_version(&self, hook: &Webhook, attributes: &Attributes) -> Option<Invocation> {
        let own = Invocation {
            resource: attributes.resource.clone(),
            kind: attributes.kind.clone(),
        };
        let selects = |invocation: &Invocation| {
            let request = rules::Request {
                operation: attributes.operation.as_str(),
                group: &invocation.resource.group,
                version: &invocation.resource.version,
                resource: &invocation.resource.resource,
                subresource: &attributes.subresource,
                namespace: &attributes.namespace,
            };
            hook.rules.iter().any(|r| rules::matches(r, &request))
        };
        if selects(&own) {
            return Some(own);
        }
        if hook.match_policy.as_deref() == Some("Exact") {
            return None;
        }
        let store = self.store(&attributes.resource.group, &attributes.resource.resource)?;
        let info = store.info();
        info.versions
            .iter()
            .filter(|v| attributes.resource.version != **v)
            .map(|v| Invocation {
                resource: GroupVersionResource::new(
                    info.group.as_str(),
                    v.as_str(),
                    info.resource.as_str(),
                ),
                // A subresource's own kind (autoscaling/v1 Scale) stays what it is.
                kind: if attributes.kind.kind == info.kind {
                    info.gvk(v)
                } else {
                    attributes.kind.clone()
                },
            })
            .find(|i| selects(i))
    }

    async fn namespace_labels(
        &self,
        attributes: &Attributes,
    ) -> Result<Option<BTreeMap<String, String>>, StatusError> {
        let is_namespace =
            attributes.resource.group.is_empty() && attributes.resource.resource == "namespaces";
        if is_namespace {
            let obj = attributes
                .object
                .as_ref()
                .or(attributes.old_object.as_ref());
            return Ok(Some(
                obj.and_then(|o| o.meta())
                    .map(|m| m.labels())
                    .unwrap_or_default(),
            ));
        }
        if attributes.namespace.is_empty() {
            return Ok(None);
        }
        let Some(store) = self.store("", "namespaces") else {
            return Ok(Some(BTreeMap::new()));
        };
        match store.get("", &attributes.namespace).await {
            Ok(ns) => Ok(Some(ns.meta().map(|m| m.labels()).unwrap_or_default())),
            Err(e) if errors::is_not_found(&e) => Ok(Some(BTreeMap::new())),
            Err(e) => Err(e),
        }
    }

    /// Whether `hook` is called for the request, and in which version (Go's
    /// `ShouldCallHook`).
    async fn should_call(
        &self,
        hook: &Webhook,
        attributes: &Attributes,
    ) -> Result<Option<Invocation>, StatusError> {
        if is_exempt(attributes) {
            return Ok(None);
        }
        let Some(invocation) = self.matching_version(hook, attributes) else {
            return Ok(None);
        };
        if let Some(selector) = &hook.namespace_selector {
            if let Some(labels) = self.namespace_labels(attributes).await? {
                if !selector.matches(&labels) {
                    return Ok(None);
                }
            }
        }
        if let Some(selector) = &hook.object_selector {
            let matches = |o: &Option<Box<dyn Object>>| {
                o.as_ref()
                    .and_then(|o| o.meta())
                    .is_some_and(|m| selector.matches(&m.labels()))
            };
            let empty = selector.match_labels.is_empty() && selector.match_expressions.is_empty();
            if !empty && !matches(&attributes.object) && !matches(&attributes.old_object) {
                return Ok(None);
            }
        }
        Ok(Some(invocation))
    }

    /// The object in the version the webhook is called with, as JSON.
    fn versioned_json(
        &self,
        obj: &dyn Object,
        invocation: &Invocation,
        attributes: &Attributes,
    ) -> Result<Value, StatusError> {
        let gv = if obj.group_version_kind().kind == invocation.kind.kind {
            invocation.kind.group_version()
        } else {
            obj.group_version_kind().group_version()
        };
        let versioned = convert(&attributes.scheme, obj.deep_copy_object(), &gv)?;
        let bytes = encode(&attributes.scheme, MediaType::Json, &*versioned)?;
        serde_json::from_slice(&bytes).map_err(|e| errors::new_internal_error(e.to_string()))
    }

    fn review(
        &self,
        uid: &str,
        invocation: &Invocation,
        attributes: &Attributes,
    ) -> Result<Value, StatusError> {
        let object = match &attributes.object {
            Some(o) => self.versioned_json(&**o, invocation, attributes)?,
            None => Value::Null,
        };
        let old_object = match &attributes.old_object {
            Some(o) => self.versioned_json(&**o, invocation, attributes)?,
            None => Value::Null,
        };
        let gvk =
            |k: &GroupVersionKind| json!({"group": k.group, "version": k.version, "kind": k.kind});
        let gvr = |r: &GroupVersionResource| json!({"group": r.group, "version": r.version, "resource": r.resource});
        let options_kind = match attributes.operation {
            Operation::Create => "CreateOptions",
            Operation::Update => "UpdateOptions",
            Operation::Delete => "DeleteOptions",
            Operation::Connect => "",
        };
        let mut options = json!({"kind": options_kind, "apiVersion": "meta.k8s.io/v1"});
        if attributes.dry_run {
            options["dryRun"] = json!(["All"]);
        }
        let user = &attributes.user;
        let mut user_info = json!({"username": user.name});
        if !user.uid.is_empty() {
            user_info["uid"] = json!(user.uid);
        }
        if !user.groups.is_empty() {
            user_info["groups"] = json!(user.groups);
        }
        if !user.extra.is_empty() {
            user_info["extra"] = json!(user.extra);
        }
        let mut request = json!({
            "uid": uid,
            "kind": gvk(&invocation.kind),
            "resource": gvr(&invocation.resource),
            "requestKind": gvk(&attributes.kind),
            "requestResource": gvr(&attributes.resource),
            "name": attributes.name,
            "operation": attributes.operation.as_str(),
            "userInfo": user_info,
            "object": object,
            "oldObject": old_object,
            "dryRun": attributes.dry_run,
        });
        if !attributes.subresource.is_empty() {
            request["subResource"] = json!(attributes.subresource);
            request["requestSubResource"] = json!(attributes.subresource);
        }
        if !attributes.namespace.is_empty() {
            request["namespace"] = json!(attributes.namespace);
        }
        if !options_kind.is_empty() {
            request["options"] = options;
        }
        Ok(json!({
            "apiVersion": "admission.k8s.io/v1",
            "kind": "AdmissionReview",
            "request": request,
        }))
    }

    fn endpoint(&self, hook: &Webhook) -> Result<Endpoint, CallError> {
        match (&hook.client_config.url, &hook.client_config.service) {
            (Some(url), _) => Endpoint::from_url(url),
            (None, Some(service)) => {
                let path = service.path.clone().unwrap_or_else(|| "/".to_owned());
                let port = u16::try_from(service.port.unwrap_or(443)).unwrap_or(443);
                self.resolver.resolve(service, &path, port)
            }
            (None, None) => Err(CallError::Url {
                url: String::new(),
                why: "clientConfig has neither url nor service".into(),
            }),
        }
    }

    /// Calls `hook` and checks its answer; returns the JSON patch of an allowed
    /// request, if any (warnings and audit annotations recorded on `attributes`).
    async fn call(
        &self,
        hook: &Webhook,
        invocation: &Invocation,
        attributes: &Attributes,
        mutating: bool,
    ) -> Result<Option<json_patch::Patch>, HookError> {
        let name = hook.name.as_str();
        if attributes.dry_run && !hook.allows_dry_run() {
            return Err(HookError::Status(errors::new_bad_request(format!(
                "admission webhook {name:?} does not support dry run"
            ))));
        }
        if !hook.match_conditions.is_empty() {
            return Err(calling_error(
                name,
                "failed to evaluate match conditions: CEL matchConditions are not supported by this server",
            ));
        }
        if !hook.admission_review_versions.iter().any(|v| v == "v1") {
            return Err(calling_error(
                name,
                "webhook does not accept known AdmissionReview versions (this server speaks v1)",
            ));
        }
        let endpoint = self.endpoint(hook).map_err(|e| calling_error(name, e))?;
        let ca_bundle = base64::engine::general_purpose::STANDARD
            .decode(hook.client_config.ca_bundle.as_deref().unwrap_or_default())
            .map_err(|e| calling_error(name, format!("invalid caBundle: {e}")))?;
        let uid = uuid::Uuid::new_v4().to_string();
        let review = self
            .review(&uid, invocation, attributes)
            .map_err(HookError::Status)?;
        let body = serde_json::to_vec(&review).map_err(|e| calling_error(name, e))?;
        let answer = client::post(&endpoint, &ca_bundle, body, hook.timeout())
            .await
            .map_err(|e| calling_error(name, e))?;
        let invalid =
            |why: String| calling_error(name, format!("received invalid webhook response: {why}"));
        let answer = read_answer(&answer).map_err(|why| calling_error(name, why))?;
        let (api_version, kind) = (
            answer
                .get("apiVersion")
                .and_then(Value::as_str)
                .unwrap_or_default(),
            answer
                .get("kind")
                .and_then(Value::as_str)
                .unwrap_or_default(),
        );
        if api_version != "admission.k8s.io/v1" || kind != "AdmissionReview" {
            return Err(invalid(format!(
                "expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got {api_version}, Kind={kind}"
            )));
        }
        let response = answer
            .get("response")
            .filter(|r| r.is_object())
            .ok_or_else(|| invalid("webhook response was absent".into()))?;
        let got_uid = response
            .get("uid")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if got_uid != uid {
            return Err(invalid(format!(
                "expected response.uid={uid:?}, got {got_uid:?}"
            )));
        }
        let allowed = response
            .get("allowed")
            .and_then(Value::as_bool)
            .ok_or_else(|| invalid("response.allowed is not a boolean".into()))?;
        if response.get("patch").is_some_and(|p| !p.is_null()) {
            if !mutating {
                return Err(invalid("validating webhooks may not return patches".into()));
            }
            let patch_type = response.get("patchType").and_then(Value::as_str);
            if patch_type != Some("JSONPatch") {
                return Err(invalid(format!(
                    "unsupported patch type {:?}: only \"JSONPatch\" is allowed",
                    patch_type.unwrap_or_default()
                )));
            }
        }
        if let Some(warnings) = response.get("warnings").and_then(Value::as_array) {
            for w in warnings.iter().filter_map(Value::as_str) {
                attributes.reports.add_warning(w);
            }
        }
        if let Some(annotations) = response.get("auditAnnotations").and_then(Value::as_object) {
            for (k, v) in annotations {
                if let Some(v) = v.as_str() {
                    attributes
                        .reports
                        .add_audit_annotation(&format!("{name}/{k}"), v);
                }
            }
        }
        if !allowed {
            return Err(HookError::Status(denied(name, response.get("status"))));
        }
        let Some(patch) = response.get("patch").and_then(Value::as_str) else {
            return Ok(None);
        };
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(patch)
            .map_err(|e| invalid(format!("the patch is not base64: {e}")))?;
        let patch: json_patch::Patch = serde_json::from_slice(&bytes).map_err(|e| {
            calling_error(
                name,
                format!("received undecodable patch in webhook response: {e}"),
            )
        })?;
        Ok(Some(patch))
    }

    /// Applies a mutating webhook's patch to `attributes.object` (in the version the
    /// webhook saw), back in the version the object was in; returns whether the object
    /// changed.
    fn apply_patch(
        &self,
        hook: &Webhook,
        invocation: &Invocation,
        patch: &json_patch::Patch,
        attributes: &mut Attributes,
    ) -> Result<bool, StatusError> {
        let name = &hook.name;
        if patch.0.is_empty() {
            return Ok(false);
        }
        let Some(obj) = attributes.object.as_ref() else {
            return Err(errors::new_internal_error(format!(
                "admission webhook {name:?} attempted to modify the object, which is not supported for this operation"
            )));
        };
        let original_gv: GroupVersion = obj.group_version_kind().group_version();
        let before = self.versioned_json(&**obj, invocation, attributes)?;
        let mut doc = before.clone();
        json_patch::patch(&mut doc, &patch.0)
            .map_err(|e| errors::new_internal_error(e.to_string()))?;
        let sent_gvk = {
            let kind = obj.group_version_kind();
            if kind.kind == invocation.kind.kind {
                invocation.kind.clone()
            } else {
                kind
            }
        };
        let mut patched = from_value(&attributes.scheme, &sent_gvk, doc).map_err(|e| {
            errors::new_internal_error(format!(
                "the object patched by admission webhook {name:?} could not be read: {}",
                e.status.message
            ))
        })?;
        attributes.scheme.default(&mut *patched);
        let after = self.versioned_json(&*patched, invocation, attributes)?;
        attributes.object = Some(convert(&attributes.scheme, patched, &original_gv)?);
        Ok(before != after)
    }
}

/// Whether the request is for the admission configurations themselves, which no
/// webhook is called for (Go's `IsExemptAdmissionConfigurationResource`): a broken
/// webhook selecting everything can still be removed.
fn is_exempt(attributes: &Attributes) -> bool {
    attributes.resource.group == GROUP
        && matches!(
            attributes.resource.resource.as_str(),
            "mutatingwebhookconfigurations"
                | "validatingwebhookconfigurations"
                | "validatingadmissionpolicies"
                | "validatingadmissionpolicybindings"
                | "mutatingadmissionpolicies"
                | "mutatingadmissionpolicybindings"
        )
}

/// The audit annotation Go records when a webhook's failure is ignored.
fn failed_open_key(kind: &str, round: usize, index: usize) -> String {
    format!("failed-open.{kind}.webhook.admission.k8s.io/round_{round}_index_{index}")
}

#[async_trait]
impl MutationInterface for MutatingWebhooks {
    fn handles(&self, _operation: Operation) -> bool {
        true
    }

    /// Calls the selected webhooks in order, then, once, those with
    /// `reinvocationPolicy: IfNeeded` that a later webhook's change came after (Go's
    /// reinvocation, limited to the webhooks: in-tree plugins are not run again).
    async fn admit(&self, attributes: &mut Attributes) -> Result<(), StatusError> {
        let webhooks = &self.0;
        let hooks = webhooks.configured("mutatingwebhookconfigurations").await?;
        let mut invoked_reinvocable = Vec::new();
        let mut reinvoke = std::collections::BTreeSet::new();
        for round in 0..2 {
            for (index, hook) in hooks.iter().enumerate() {
                if round == 1 && !reinvoke.contains(&index) {
                    continue;
                }
                let Some(invocation) = webhooks.should_call(hook, attributes).await? else {
                    continue;
                };
                let changed = match webhooks.call(hook, &invocation, attributes, true).await {
                    Ok(Some(patch)) => {
                        webhooks.apply_patch(hook, &invocation, &patch, attributes)?
                    }
                    Ok(None) => false,
                    Err(HookError::Calling(why)) if hook.ignores_failures() => {
                        tracing::warn!(webhook = %hook.name, reason = %why, "failed calling webhook, failing open");
                        attributes.reports.add_audit_annotation(
                            &failed_open_key("mutation", round, index),
                            &hook.name,
                        );
                        false
                    }
                    Err(HookError::Calling(why)) => {
                        tracing::warn!(webhook = %hook.name, reason = %why, "failed calling webhook, failing closed");
                        return Err(errors::new_internal_error(why));
                    }
                    Err(HookError::Status(e)) => return Err(e),
                };
                if round == 0 {
                    if changed {
                        reinvoke.extend(invoked_reinvocable.drain(..));
                    }
                    if hook.reinvocation_policy.as_deref() == Some("IfNeeded") {
                        invoked_reinvocable.push(index);
                    }
                }
            }
            if reinvoke.is_empty() {
                break;
            }
        }
        Ok(())
    }
}

#[async_trait]
impl ValidationInterface for ValidatingWebhooks {
    fn handles(&self, _operation: Operation) -> bool {
        true
    }

    async fn validate(&self, attributes: &Attributes) -> Result<(), StatusError> {
        let webhooks = &self.0;
        let mut selected = Vec::new();
        let hooks = webhooks
            .configured("validatingwebhookconfigurations")
            .await?;
        for hook in hooks.iter() {
            if let Some(invocation) = webhooks.should_call(hook, attributes).await? {
                selected.push((hook, invocation));
            }
        }
        // Go calls validating webhooks in parallel and reports the first refusal in
        // their order.
        let calls = selected
            .iter()
            .map(|(hook, invocation)| webhooks.call(hook, invocation, attributes, false));
        let results = futures_util::future::join_all(calls).await;
        for (index, ((hook, _), result)) in selected.iter().zip(results).enumerate() {
            match result {
                Ok(_) => {}
                Err(HookError::Calling(why)) if hook.ignores_failures() => {
                    tracing::warn!(webhook = %hook.name, reason = %why, "failed calling webhook, failing open");
                    attributes
                        .reports
                        .add_audit_annotation(&failed_open_key("validating", 0, index), &hook.name);
                }
                Err(HookError::Calling(why)) => {
                    tracing::warn!(webhook = %hook.name, reason = %why, "failed calling webhook, failing closed");
                    return Err(errors::new_internal_error(why));
                }
                Err(HookError::Status(e)) => return Err(e),
            }
        }
        Ok(())
    }
}

/// The webhook's answer as Go's webhook client reads it: a decoder that takes YAML as
/// well as JSON finds `apiVersion` and `kind` in a JSON object first, so an answer that
/// is not an object fails the call itself ("failed to call webhook"), before the review
/// is looked at. A body that is not JSON (an HTML or text error page) reads as a YAML
/// string there. Left out: a body that is YAML but not JSON (read as YAML by Go; here a
/// string).
fn read_answer(body: &[u8]) -> Result<Value, String> {
    let answer: Value =
        serde_json::from_slice(body).unwrap_or_else(|_| Value::String(String::new()));
    match apimachinery::serializer::json::type_meta_mismatch(&answer) {
        None => Ok(answer),
        Some(why) => Err(format!("failed to call webhook: {why}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_that_is_no_object_fails_the_call_as_gos_decoder_does() {
        let go = |kind: &str| {
            format!(
                "failed to call webhook: couldn't get version/kind; json parse error: json: cannot unmarshal {kind} into Go value of type struct {{ APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; Kind string \"json:\\\"kind,omitempty\\\"\" }}"
            )
        };
        // kube-apiserver's words for an HTML page (seen with v1.36.3).
        assert_eq!(
            read_answer(b"<html>surely not JSON</html>"),
            Err(go("string"))
        );
        assert_eq!(read_answer(b"[1]"), Err(go("array")));
        assert_eq!(read_answer(b"7"), Err(go("number")));
        assert_eq!(read_answer(b"true"), Err(go("bool")));
        assert!(read_answer(br#"{"kind":"AdmissionReview"}"#).is_ok());
    }

    #[test]
    fn refusals_are_worded_and_coded_as_gos_to_status_err() {
        let e = denied("a.example.com", Some(&json!({"message": "no", "code": 0})));
        assert_eq!(e.code(), 403);
        assert_eq!(e.status.status, "Failure");
        assert_eq!(
            e.status.message,
            r#"admission webhook "a.example.com" denied the request: no"#
        );
        let e = denied(
            "a.example.com",
            Some(&json!({"reason": "TooBig", "code": 422})),
        );
        assert_eq!(e.code(), 422);
        assert_eq!(
            e.status.message,
            r#"admission webhook "a.example.com" denied the request: TooBig"#
        );
        let e = denied("a.example.com", None);
        assert_eq!(
            e.status.message,
            r#"admission webhook "a.example.com" denied the request without explanation"#
        );
        // A webhook cannot make a refusal look like a success.
        let e = denied(
            "a.example.com",
            Some(&json!({"status": "Success", "code": 200})),
        );
        assert_eq!((e.code(), e.status.status.as_str()), (403, "Failure"));
    }
}
