//! Admission handlers (Go's `pkg/webhook/admission`): the `AdmissionReview` v1 request
//! and response, the [`Handler`] a path serves, and the typed handlers built from a
//! [`Defaulter`] or a [`Validator`], which decode the object through the Scheme so the
//! user writes only the logic.

use std::collections::BTreeMap;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::Arc;

use apimachinery::runtime::{Object, Scheme};
use apimachinery::serializer::json::{JsonSerializer, SerializerOptions};
use apimachinery::serializer::{Decoder, Encoder};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The `{group, version, kind}` of an `AdmissionRequest`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Kind {
    /// The API group.
    pub group: String,
    /// The version.
    pub version: String,
    /// The kind.
    pub kind: String,
}

/// The `{group, version, resource}` of an `AdmissionRequest`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Resource {
    /// The API group.
    pub group: String,
    /// The version.
    pub version: String,
    /// The resource.
    pub resource: String,
}

/// Who made the request (authentication/v1 `UserInfo`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct UserInfo {
    /// The user name.
    pub username: String,
    /// The user's uid.
    pub uid: String,
    /// The user's groups.
    pub groups: Vec<String>,
    /// Anything else the authenticator said.
    pub extra: BTreeMap<String, Vec<String>>,
}

/// What the API server asks (admission/v1 `AdmissionRequest`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct AdmissionRequest {
    /// The request's id, echoed in the response.
    pub uid: String,
    /// The kind of `object`.
    pub kind: Kind,
    /// The resource written.
    pub resource: Resource,
    /// The subresource (`status`, `scale`), empty for the main resource.
    pub sub_resource: String,
    /// The kind the client sent (another version under `matchPolicy: Equivalent`).
    pub request_kind: Option<Kind>,
    /// The resource the client wrote.
    pub request_resource: Option<Resource>,
    /// The subresource the client wrote.
    pub request_sub_resource: String,
    /// The object's name (may be empty on a create with `generateName`).
    pub name: String,
    /// The namespace, empty for cluster-scoped objects.
    pub namespace: String,
    /// `CREATE`, `UPDATE`, `DELETE` or `CONNECT`.
    pub operation: String,
    /// Who asks.
    pub user_info: UserInfo,
    /// The new object (none on delete).
    pub object: Option<Value>,
    /// The current object (on update and delete).
    pub old_object: Option<Value>,
    /// Whether nothing will be stored.
    pub dry_run: Option<bool>,
    /// The operation's options (`CreateOptions`, `UpdateOptions`, `DeleteOptions`).
    pub options: Option<Value>,
}

/// A refusal: the Status the API server answers the client with (code, reason,
/// message), as Go's `admission.Denied` and `admission.Errored` make them.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Denied {
    /// The HTTP code (403 unless said otherwise).
    pub code: u16,
    /// The Status reason (`Forbidden`, `BadRequest`, ...).
    pub reason: String,
    /// What the client reads after `admission webhook "NAME" denied the request: `.
    pub message: String,
}

impl Denied {
    /// A 403 `Forbidden` refusal with `message` (Go's `admission.Denied`).
    pub fn new(message: impl Into<String>) -> Self {
        Denied {
            code: 403,
            reason: "Forbidden".into(),
            message: message.into(),
        }
    }

    /// A refusal with its own code and reason.
    pub fn with_code(code: u16, reason: &str, message: impl Into<String>) -> Self {
        Denied {
            code,
            reason: reason.to_owned(),
            message: message.into(),
        }
    }
}

/// Warnings returned to the client with an admitted request.
pub type Warnings = Vec<String>;

/// What a handler answers (admission/v1 `AdmissionResponse` without the uid, which
/// the server copies from the request).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AdmissionResponse {
    /// Whether the request may go on.
    pub allowed: bool,
    /// Why not (or a Status for an allowed one).
    pub result: Option<Denied>,
    /// The JSON patch to apply to the object (mutating webhooks only).
    pub patch: Vec<json_patch::PatchOperation>,
    /// Warnings for the client.
    pub warnings: Warnings,
    /// Annotations for the API server's audit log.
    pub audit_annotations: BTreeMap<String, String>,
}

impl AdmissionResponse {
    /// Allowed as it is.
    pub fn allowed() -> Self {
        AdmissionResponse {
            allowed: true,
            ..Self::default()
        }
    }

    /// Refused with `denied`'s Status.
    pub fn denied(denied: Denied) -> Self {
        AdmissionResponse {
            allowed: false,
            result: Some(denied),
            ..Self::default()
        }
    }

    /// Refused because the request could not be handled: code 400 for what the API
    /// server sent wrong, 500 for the handler's own failures (Go's `admission.Errored`).
    pub fn errored(code: u16, message: impl Into<String>) -> Self {
        let reason = if code == 400 {
            "BadRequest"
        } else {
            "InternalError"
        };
        Self::denied(Denied::with_code(code, reason, message))
    }

    /// Allowed with the patch that turns `original` into `current` (Go's
    /// `admission.PatchResponseFromRaw`).
    pub fn patched(original: &Value, current: &Value) -> Self {
        AdmissionResponse {
            allowed: true,
            patch: json_patch::diff(original, current).0,
            ..Self::default()
        }
    }

    /// Adds warnings.
    pub fn with_warnings(mut self, warnings: Warnings) -> Self {
        self.warnings.extend(warnings);
        self
    }
}

/// The future a [`Handler`] answers with.
pub type HandlerFuture<'a> = Pin<Box<dyn Future<Output = AdmissionResponse> + Send + 'a>>;

/// What serves one webhook path (Go's `admission.Handler`).
pub trait Handler: Send + Sync + 'static {
    /// Answers one request.
    fn handle<'a>(&'a self, request: &'a AdmissionRequest) -> HandlerFuture<'a>;
}

/// Sets defaults on (or otherwise changes) objects of type `T` before they are stored
/// (Go's `admission.CustomDefaulter`); the patch sent back is computed for you.
pub trait Defaulter<T>: Send + Sync + 'static {
    /// Changes `obj`, or refuses the request.
    fn default(
        &self,
        request: &AdmissionRequest,
        obj: &mut T,
    ) -> impl Future<Output = Result<(), Denied>> + Send;
}

/// Accepts or refuses writes of objects of type `T` (Go's `admission.CustomValidator`),
/// with warnings for the client. Each method allows by default.
pub trait Validator<T>: Send + Sync + 'static {
    /// A create of `obj`.
    fn validate_create(
        &self,
        request: &AdmissionRequest,
        obj: &T,
    ) -> impl Future<Output = Result<Warnings, Denied>> + Send {
        let _ = (request, obj);
        async { Ok(Warnings::new()) }
    }

    /// An update from `old` to `new`.
    fn validate_update(
        &self,
        request: &AdmissionRequest,
        old: &T,
        new: &T,
    ) -> impl Future<Output = Result<Warnings, Denied>> + Send {
        let _ = (request, old, new);
        async { Ok(Warnings::new()) }
    }

    /// A delete of `obj`.
    fn validate_delete(
        &self,
        request: &AdmissionRequest,
        obj: &T,
    ) -> impl Future<Output = Result<Warnings, Denied>> + Send {
        let _ = (request, obj);
        async { Ok(Warnings::new()) }
    }
}

/// Decodes the JSON of an object of type `T` through `scheme`.
fn decode<T: Object>(scheme: &Scheme, raw: &Value) -> Result<T, Denied> {
    let bad = |message: String| Denied::with_code(400, "BadRequest", message);
    let bytes = serde_json::to_vec(raw).map_err(|e| bad(format!("reading the object: {e}")))?;
    let (obj, gvk) = JsonSerializer::new(scheme, SerializerOptions::default())
        .decode(&bytes, None, None)
        .map_err(|e| bad(format!("decoding the object: {e}")))?;
    obj.downcast::<T>().map(|b| *b).map_err(|_| {
        bad(format!(
            "the object is a {gvk}, not the type this webhook handles"
        ))
    })
}

/// A mutating handler from a [`Defaulter`] of `T` (Go's `WithCustomDefaulter`).
pub struct DefaultingHandler<T, D> {
    scheme: Arc<Scheme>,
    defaulter: D,
    kind: PhantomData<fn() -> T>,
}

impl<T, D> DefaultingHandler<T, D> {
    /// Objects are decoded and encoded through `scheme`, which must know `T`.
    pub fn new(scheme: Arc<Scheme>, defaulter: D) -> Self {
        DefaultingHandler {
            scheme,
            defaulter,
            kind: PhantomData,
        }
    }
}

impl<T, D> Handler for DefaultingHandler<T, D>
where
    T: Object + Send + Sync + 'static,
    D: Defaulter<T>,
{
    fn handle<'a>(&'a self, request: &'a AdmissionRequest) -> HandlerFuture<'a> {
        Box::pin(async move {
            // Nothing to default on a delete (Go allows it as is).
            let Some(raw) = request
                .object
                .as_ref()
                .filter(|_| request.operation != "DELETE")
            else {
                return AdmissionResponse::allowed();
            };
            let mut obj = match decode::<T>(&self.scheme, raw) {
                Ok(obj) => obj,
                Err(denied) => return AdmissionResponse::denied(denied),
            };
            if let Err(denied) = self.defaulter.default(request, &mut obj).await {
                return AdmissionResponse::denied(denied);
            }
            let encoded = JsonSerializer::new(&self.scheme, SerializerOptions::default())
                .encode_to_vec(&obj)
                .map_err(|e| e.to_string())
                .and_then(|b| serde_json::from_slice::<Value>(&b).map_err(|e| e.to_string()));
            match encoded {
                Ok(current) => AdmissionResponse::patched(raw, &current),
                Err(e) => AdmissionResponse::errored(500, format!("encoding the object: {e}")),
            }
        })
    }
}

/// A validating handler from a [`Validator`] of `T` (Go's `WithCustomValidator`).
pub struct ValidatingHandler<T, V> {
    scheme: Arc<Scheme>,
    validator: V,
    kind: PhantomData<fn() -> T>,
}

impl<T, V> ValidatingHandler<T, V> {
    /// Objects are decoded through `scheme`, which must know `T`.
    pub fn new(scheme: Arc<Scheme>, validator: V) -> Self {
        ValidatingHandler {
            scheme,
            validator,
            kind: PhantomData,
        }
    }
}

impl<T, V> Handler for ValidatingHandler<T, V>
where
    T: Object + Send + Sync + 'static,
    V: Validator<T>,
{
    fn handle<'a>(&'a self, request: &'a AdmissionRequest) -> HandlerFuture<'a> {
        Box::pin(async move {
            let object = |raw: Option<&Value>, what: &str| match raw {
                Some(raw) => decode::<T>(&self.scheme, raw),
                None => Err(Denied::with_code(
                    400,
                    "BadRequest",
                    format!("the {} request has no {what}", request.operation),
                )),
            };
            let outcome = match request.operation.as_str() {
                "CREATE" => match object(request.object.as_ref(), "object") {
                    Ok(obj) => self.validator.validate_create(request, &obj).await,
                    Err(denied) => return AdmissionResponse::denied(denied),
                },
                "UPDATE" => {
                    let new = object(request.object.as_ref(), "object");
                    let old = object(request.old_object.as_ref(), "oldObject");
                    match (old, new) {
                        (Ok(old), Ok(new)) => {
                            self.validator.validate_update(request, &old, &new).await
                        }
                        (Err(denied), _) | (_, Err(denied)) => {
                            return AdmissionResponse::denied(denied);
                        }
                    }
                }
                "DELETE" => match object(request.old_object.as_ref(), "oldObject") {
                    Ok(obj) => self.validator.validate_delete(request, &obj).await,
                    Err(denied) => return AdmissionResponse::denied(denied),
                },
                other => {
                    return AdmissionResponse::errored(400, format!("unknown operation {other:?}"));
                }
            };
            match outcome {
                Ok(warnings) => AdmissionResponse::allowed().with_warnings(warnings),
                Err(denied) => AdmissionResponse::denied(denied),
            }
        })
    }
}

/// The `AdmissionReview` v1 answering `uid` with `response`.
pub fn review_response(uid: &str, response: &AdmissionResponse) -> Value {
    use base64::Engine;
    let mut out = serde_json::json!({"uid": uid, "allowed": response.allowed});
    if let Some(denied) = &response.result {
        out["status"] = serde_json::json!({
            "metadata": {},
            "status": if response.allowed { "Success" } else { "Failure" },
            "message": denied.message,
            "reason": denied.reason,
            "code": denied.code,
        });
    }
    if !response.patch.is_empty() {
        let patch = serde_json::to_vec(&response.patch).unwrap_or_default();
        out["patch"] = Value::from(base64::engine::general_purpose::STANDARD.encode(patch));
        out["patchType"] = Value::from("JSONPatch");
    }
    if !response.warnings.is_empty() {
        out["warnings"] = serde_json::json!(response.warnings);
    }
    if !response.audit_annotations.is_empty() {
        out["auditAnnotations"] = serde_json::json!(response.audit_annotations);
    }
    serde_json::json!({
        "apiVersion": "admission.k8s.io/v1",
        "kind": "AdmissionReview",
        "response": out,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine;
    use k8s_types::core::v1::ConfigMap;

    fn scheme() -> Arc<Scheme> {
        let mut scheme = Scheme::new();
        k8s_types::register(&mut scheme).unwrap_or_default();
        Arc::new(scheme)
    }

    fn request(operation: &str, object: Option<Value>, old: Option<Value>) -> AdmissionRequest {
        AdmissionRequest {
            uid: "u-1".into(),
            operation: operation.into(),
            object,
            old_object: old,
            ..AdmissionRequest::default()
        }
    }

    fn cm(labels: Value) -> Value {
        serde_json::json!({"apiVersion": "v1", "kind": "ConfigMap",
                           "metadata": {"name": "x", "labels": labels}})
    }

    struct Stamp;
    impl Defaulter<ConfigMap> for Stamp {
        async fn default(&self, _: &AdmissionRequest, cm: &mut ConfigMap) -> Result<(), Denied> {
            cm.metadata.labels.insert("stamped".into(), "yes".into());
            Ok(())
        }
    }

    struct NoUpdates;
    impl Validator<ConfigMap> for NoUpdates {
        async fn validate_update(
            &self,
            _: &AdmissionRequest,
            _: &ConfigMap,
            _: &ConfigMap,
        ) -> Result<Warnings, Denied> {
            Err(Denied::new("frozen"))
        }
    }

    #[tokio::test]
    async fn a_defaulter_answers_with_the_patch_of_its_changes() {
        let h = DefaultingHandler::new(scheme(), Stamp);
        let r = h
            .handle(&request(
                "CREATE",
                Some(cm(serde_json::json!({"a": "b"}))),
                None,
            ))
            .await;
        assert!(r.allowed);
        let review = review_response("u-1", &r);
        let response = &review["response"];
        assert_eq!(response["uid"], "u-1");
        assert_eq!(response["patchType"], "JSONPatch");
        let patch = base64::engine::general_purpose::STANDARD
            .decode(response["patch"].as_str().unwrap_or_default())
            .unwrap_or_default();
        let patch: Value = serde_json::from_slice(&patch).unwrap_or_default();
        assert_eq!(
            patch,
            serde_json::json!([{"op": "add", "path": "/metadata/labels/stamped", "value": "yes"}])
        );
        // Nothing to default on a delete.
        let r = h
            .handle(&request("DELETE", None, Some(cm(serde_json::json!({})))))
            .await;
        assert!(r.allowed && r.patch.is_empty());
    }

    #[tokio::test]
    async fn a_validator_refuses_with_a_forbidden_status_and_allows_by_default() {
        let h = ValidatingHandler::new(scheme(), NoUpdates);
        let obj = cm(serde_json::json!({}));
        assert!(
            h.handle(&request("CREATE", Some(obj.clone()), None))
                .await
                .allowed
        );
        assert!(
            h.handle(&request("DELETE", None, Some(obj.clone())))
                .await
                .allowed
        );
        let r = h
            .handle(&request("UPDATE", Some(obj.clone()), Some(obj.clone())))
            .await;
        let review = review_response("u-2", &r);
        assert_eq!(review["response"]["allowed"], false);
        assert_eq!(
            review["response"]["status"],
            serde_json::json!({"metadata": {}, "status": "Failure", "message": "frozen",
                               "reason": "Forbidden", "code": 403})
        );
    }

    #[tokio::test]
    async fn objects_of_another_type_or_missing_are_bad_requests() {
        let h = ValidatingHandler::new(scheme(), NoUpdates);
        let secret =
            serde_json::json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s"}});
        let r = h.handle(&request("CREATE", Some(secret), None)).await;
        let denied = r.result.unwrap_or_else(|| Denied::new(""));
        assert_eq!((denied.code, denied.reason.as_str()), (400, "BadRequest"));
        assert!(denied.message.contains("Secret"), "{}", denied.message);
        let r = h
            .handle(&request("UPDATE", Some(cm(serde_json::json!({}))), None))
            .await;
        assert_eq!(r.result.map(|d| d.code), Some(400));
    }
}
