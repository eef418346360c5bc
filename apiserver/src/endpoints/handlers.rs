//! The REST handlers (Go's `endpoints/handlers`): get, list, create, update, patch,
//! delete and deletecollection of every served version of every resource, and its
//! `/status` and `/scale` subresources. Each request is decoded in its own version,
//! defaulted, converted to the storage version for the store, and the answer converted
//! back to the request's version (seed 003's flow).

use std::collections::BTreeMap;
use std::sync::Arc;

use apimachinery::apis::meta::v1::{Status, StatusDetails, TypeMeta};
use apimachinery::fields;
use apimachinery::labels;
use apimachinery::runtime::unstructured::object_to_unstructured;
use apimachinery::runtime::{Object, Scheme};
use apimachinery::schema::{GroupVersion, GroupVersionKind};
use apimachinery::serializer::json::{Serializer as JsonSerializer, SerializerOptions};
use apimachinery::serializer::protobuf::Serializer as ProtobufSerializer;
use apimachinery::serializer::{Decoder, Encoder};
use apimachinery::util::json::JsonLayout;
use apimachinery::util::strategicpatch::{PatchMetaFromOpenApi, strategic_merge_patch};
use serde_json::Value;

use super::StatusError;
use super::negotiation::{MediaType, PatchType};
use super::request_info::RequestInfo;
use crate::admission::{self, Chain};
use crate::authentication::user::Info;
use crate::authentication::{Authenticator, review};
use crate::authorization::{Authorizer, review as access_review};
use crate::registry::{DeleteParams, ListParams, Selection, Store, Subresource, from_value};

/// The largest request body the server reads (Go's 3 MiB limit).
pub const MAX_REQUEST_BODY_BYTES: usize = 3 * 1024 * 1024;

/// The most operations a JSON patch may have (Go's `maxJSONPatchOperations`).
const MAX_JSON_PATCH_OPERATIONS: usize = 10_000;

/// The largest `limit` a list accepts; Go caps nothing, but a number past any real
/// collection is a mistake worth reporting.
const MAX_LIMIT: i64 = 1_000_000;

/// How many times an admitted write is admitted again when another writer changed the
/// object between its read and its write (the store's own retry count).
const ADMITTED_WRITE_RETRIES: usize = 16;

/// An answer: status code, content type, body, and `Warning` headers.
#[derive(Debug)]
pub struct Reply {
    /// The HTTP status code.
    pub code: u16,
    /// The `Content-Type`.
    pub content_type: &'static str,
    /// The body.
    pub body: Vec<u8>,
    /// `Warning` header values (Go's `299 - "..."`).
    pub warnings: Vec<String>,
}

/// The query parameters of a request, by name (the last value of a repeated one).
pub type Query = BTreeMap<String, String>;

/// What every handler needs: the scheme and the resource's store.
#[derive(Debug, Clone)]
pub struct Handler<'a> {
    /// The scheme objects are decoded, converted and encoded with.
    pub scheme: &'a Arc<Scheme>,
    /// The resource's store.
    pub store: &'a Store,
    /// The parsed request.
    pub info: &'a RequestInfo,
    /// The query.
    pub query: &'a Query,
    /// Who asks.
    pub user: &'a Info,
    /// The server's authenticator (what a `TokenReview` asks).
    pub authenticator: &'a dyn Authenticator,
    /// The admission plugins writes go through.
    pub admission: &'a Chain,
    /// The server's authorizer, which answers the access reviews.
    pub authorizer: &'a dyn Authorizer,
    /// The response format.
    pub output: MediaType,
}

/// The `fieldValidation` directive of a write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FieldValidation {
    Strict,
    Warn,
    Ignore,
}

impl Handler<'_> {
    fn request_gv(&self) -> GroupVersion {
        GroupVersion::new(self.info.api_group.as_str(), self.info.api_version.as_str())
    }

    fn request_gvk(&self) -> GroupVersionKind {
        self.store.info().gvk(&self.info.api_version)
    }

    fn namespace(&self) -> &str {
        self.info.namespace.as_deref().unwrap_or_default()
    }

    fn qualified(&self) -> String {
        self.store.info().qualified_resource()
    }

    fn dry_run(&self) -> Result<bool, StatusError> {
        match self.query.get("dryRun").map(String::as_str) {
            None | Some("") => Ok(false),
            Some("All") => Ok(true),
            Some(other) => Err(StatusError::bad_request(format!(
                "Invalid dry run value {other:?}: the only supported value is \"All\""
            ))),
        }
    }

    fn field_validation(&self) -> Result<FieldValidation, StatusError> {
        match self.query.get("fieldValidation").map(String::as_str) {
            None | Some("") | Some("Warn") => Ok(FieldValidation::Warn),
            Some("Strict") => Ok(FieldValidation::Strict),
            Some("Ignore") => Ok(FieldValidation::Ignore),
            Some(other) => Err(StatusError::bad_request(format!(
                "fieldValidation parameter unsupported: {other:?}; must be one of Ignore, Warn, Strict"
            ))),
        }
    }

    /// Converts a storage-version object to the request's version.
    pub fn to_request_version(&self, obj: Box<dyn Object>) -> Result<Box<dyn Object>, StatusError> {
        convert(self.scheme, obj, &self.request_gv())
    }

    fn to_storage_version(&self, obj: Box<dyn Object>) -> Result<Box<dyn Object>, StatusError> {
        convert(self.scheme, obj, &self.store.info().storage_version())
    }

    /// An object answer in the negotiated format.
    pub fn reply(
        &self,
        code: u16,
        obj: &dyn Object,
        warnings: Vec<String>,
    ) -> Result<Reply, StatusError> {
        Ok(Reply {
            code,
            content_type: self.output.content_type(),
            body: encode(self.scheme, self.output, obj)?,
            warnings,
        })
    }

    /// Decodes a request body of kind `expected`: in the body's format, strictly unless
    /// `fieldValidation=Ignore`; unknown and duplicate fields are a BadRequest under
    /// Strict and warnings under Warn.
    pub(crate) fn decode_body(
        &self,
        body: &[u8],
        media: MediaType,
        expected: &GroupVersionKind,
    ) -> Result<(Box<dyn Object>, Vec<String>), StatusError> {
        let validation = self.field_validation()?;
        let decoded = match media {
            MediaType::Protobuf => {
                ProtobufSerializer::new(self.scheme).decode(body, Some(expected), None)
            }
            MediaType::Json | MediaType::Yaml => JsonSerializer::new(
                self.scheme,
                SerializerOptions {
                    yaml: media == MediaType::Yaml,
                    pretty: false,
                    strict: validation != FieldValidation::Ignore,
                },
            )
            .decode(body, Some(expected), None),
        };
        let mut warnings = Vec::new();
        let (obj, gvk) = match decoded {
            Ok(ok) => ok,
            Err(e) => match e.as_strict() {
                Some(strict) if validation == FieldValidation::Warn => {
                    warnings = strict.errors().iter().map(|f| f.to_string()).collect();
                    let (obj, gvk) = (strict.object().deep_copy_object(), strict.gvk().clone());
                    (obj, gvk)
                }
                Some(strict) => {
                    let list: Vec<String> = strict.errors().iter().map(|f| f.to_string()).collect();
                    return Err(StatusError::bad_request(format!(
                        "strict decoding error: {}",
                        list.join(", ")
                    )));
                }
                None if e.is_not_registered() => {
                    return Err(StatusError::bad_request(format!(
                        "the body of the request is not a kind this server serves here: {e}"
                    )));
                }
                None => {
                    return Err(StatusError::bad_request(format!(
                        "the body of the request could not be decoded as {expected}: {e}"
                    )));
                }
            },
        };
        if gvk.group != expected.group || gvk.kind != expected.kind {
            return Err(StatusError::bad_request(format!(
                "the object provided is unrecognized (must be of type {}): object of kind {} in {}",
                expected.kind,
                gvk.kind,
                gvk.group_version()
            )));
        }
        if gvk.version != expected.version {
            return Err(StatusError::bad_request(format!(
                "the API version in the data ({}) does not match the expected API version ({})",
                gvk.group_version(),
                expected.group_version()
            )));
        }
        Ok((obj, warnings))
    }

    /// Decodes, checks the namespace and name, defaults and converts a written object.
    fn admit(
        &self,
        body: &[u8],
        media: MediaType,
        name: Option<&str>,
    ) -> Result<(Box<dyn Object>, Vec<String>), StatusError> {
        let (mut obj, warnings) = self.decode_body(body, media, &self.request_gvk())?;
        let ns = self.namespace().to_owned();
        if let Some(meta) = obj.meta_mut() {
            if self.store.info().namespaced {
                if !meta.namespace().is_empty() && meta.namespace() != ns {
                    return Err(StatusError::bad_request(
                        "the namespace of the provided object does not match the namespace sent on the request",
                    ));
                }
                meta.set_namespace(&ns);
            }
            if let Some(name) = name {
                if meta.name().is_empty() {
                    meta.set_name(name);
                } else if meta.name() != name {
                    return Err(StatusError::bad_request(format!(
                        "the name of the object ({}) does not match the name on the URL ({name})",
                        meta.name()
                    )));
                }
            }
        }
        self.scheme.default(&mut *obj);
        Ok((self.to_storage_version(obj)?, warnings))
    }

    /// Runs the admission chain on a write whose object is `obj` (storage version) and
    /// whose current object is `old`; returns the object as the plugins left it and
    /// their warnings.
    async fn run_admission(
        &self,
        operation: admission::Operation,
        obj: Box<dyn Object>,
        old: Option<Box<dyn Object>>,
        dry_run: bool,
    ) -> Result<(Box<dyn Object>, Vec<String>), StatusError> {
        let (obj, warnings) = self
            .run_admission_of(operation, self.request_gvk(), Some(obj), old, dry_run)
            .await?;
        let obj =
            obj.ok_or_else(|| StatusError::internal("an admission plugin removed the object"))?;
        Ok((obj, warnings))
    }

    /// Runs the admission chain on a write of kind `kind` (the request's kind, or
    /// `Scale` for `/scale`); `obj` is `None` on delete.
    async fn run_admission_of(
        &self,
        operation: admission::Operation,
        kind: GroupVersionKind,
        obj: Option<Box<dyn Object>>,
        old: Option<Box<dyn Object>>,
        dry_run: bool,
    ) -> Result<(Option<Box<dyn Object>>, Vec<String>), StatusError> {
        let info = self.store.info();
        let name = obj
            .as_ref()
            .and_then(|o| o.meta())
            .map(|m| m.name().to_owned())
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| self.info.name.clone());
        let mut attributes = admission::Attributes {
            operation,
            user: self.user.clone(),
            kind,
            resource: self.request_gv().with_resource(info.resource.as_str()),
            subresource: self.info.subresource.clone(),
            namespace: self.namespace().to_owned(),
            name,
            object: obj,
            old_object: old,
            dry_run,
            scheme: self.scheme.clone(),
            reports: admission::Reports::default(),
        };
        self.admission.run(&mut attributes).await?;
        Ok((attributes.object, attributes.reports.warnings()))
    }

    /// An update as Go's `GuaranteedUpdate` runs it with admission inside: the current
    /// object is read, `compute` makes the new one from it, the admission chain (whose
    /// webhooks are async, which the store's synchronous update closure cannot await)
    /// admits it, and the store writes it only if the object is still at the
    /// resourceVersion read. When another writer got there first and the client named
    /// no resourceVersion, the whole round (admission included) runs again; nothing is
    /// stored when admission refuses.
    async fn admitted_update<F>(
        &self,
        dry_run: bool,
        mut compute: F,
    ) -> Result<(Box<dyn Object>, Vec<String>), StatusError>
    where
        F: FnMut(Box<dyn Object>) -> Result<Box<dyn Object>, StatusError>,
    {
        let ns = self.namespace();
        let name = self.info.name.as_str();
        for _ in 0..ADMITTED_WRITE_RETRIES {
            let current = self.store.get(ns, name).await?;
            let current_rv = resource_version(&*current);
            let new = compute(current.deep_copy_object())?;
            let asked = resource_version(&*new);
            if !asked.is_empty() && asked != current_rv {
                return Err(StatusError::stale(&self.qualified(), name));
            }
            let (mut new, warnings) = if self.info.subresource == "scale" {
                self.admit_scale(new, current, dry_run).await?
            } else {
                self.run_admission(admission::Operation::Update, new, Some(current), dry_run)
                    .await?
            };
            if let Some(meta) = new.meta_mut() {
                meta.set_resource_version(if asked.is_empty() {
                    &current_rv
                } else {
                    &asked
                });
            }
            let mut once = Some(new);
            let written = self
                .store
                .update(ns, name, self.subresource(), dry_run, |_| {
                    once.take()
                        .ok_or_else(|| StatusError::stale(&self.qualified(), name))
                })
                .await;
            match written {
                Err(e) if e.code() == 409 && asked.is_empty() => continue,
                other => return other.map(|o| (o, warnings)),
            }
        }
        Err(StatusError::conflict(
            &self.qualified(),
            name,
            "too many concurrent writers; try again",
        ))
    }

    /// Admits a `/scale` write as Go does: the plugins see autoscaling/v1 `Scale`
    /// objects (old and new), and the replicas they leave are what is written.
    async fn admit_scale(
        &self,
        new: Box<dyn Object>,
        current: Box<dyn Object>,
        dry_run: bool,
    ) -> Result<(Box<dyn Object>, Vec<String>), StatusError> {
        let scale_gvk = GroupVersionKind::new("autoscaling", "v1", "Scale");
        let new_scale = from_value(self.scheme, &scale_gvk, scale_json(&*new)?)?;
        let old_scale = from_value(self.scheme, &scale_gvk, scale_json(&*current)?)?;
        let (admitted, warnings) = self
            .run_admission_of(
                admission::Operation::Update,
                scale_gvk,
                Some(new_scale),
                Some(old_scale),
                dry_run,
            )
            .await?;
        let admitted = admitted
            .ok_or_else(|| StatusError::internal("an admission plugin removed the object"))?;
        let replicas = to_json(&*admitted)?
            .pointer("/spec/replicas")
            .and_then(Value::as_i64)
            .unwrap_or(0);
        let mut v = to_json(&*new)?;
        if let Some(spec) = v.get_mut("spec").and_then(Value::as_object_mut) {
            spec.insert("replicas".into(), Value::from(replicas));
        }
        Ok((
            from_value(self.scheme, &self.store.info().storage_gvk, v)?,
            warnings,
        ))
    }

    /// Deletes one object after the admission chain admitted its deletion (with the
    /// object as `old_object`), only if it is still the object admitted; retried as
    /// [`admitted_update`](Self::admitted_update) is.
    async fn admitted_delete(
        &self,
        namespace: &str,
        name: &str,
        params: &DeleteParams,
    ) -> Result<(Box<dyn Object>, bool, Vec<String>), StatusError> {
        for _ in 0..ADMITTED_WRITE_RETRIES {
            let current = self.store.get(namespace, name).await?;
            let current_rv = resource_version(&*current);
            let (_, warnings) = self
                .run_admission_of(
                    admission::Operation::Delete,
                    self.request_gvk(),
                    None,
                    Some(current),
                    params.dry_run,
                )
                .await?;
            let mut pinned = params.clone();
            let ours = pinned.precondition_resource_version.is_none();
            if ours {
                pinned.precondition_resource_version = Some(current_rv.clone());
            }
            match self.store.delete(namespace, name, &pinned).await {
                // Our own precondition failed: someone wrote meanwhile; admit again.
                Err(e) if e.code() == 409 && ours => {
                    let now = self.store.get(namespace, name).await?;
                    if resource_version(&*now) == current_rv {
                        return Err(e);
                    }
                }
                other => return other.map(|(o, gone)| (o, gone, warnings)),
            }
        }
        Err(StatusError::conflict(
            &self.qualified(),
            name,
            "too many concurrent writers; try again",
        ))
    }

    /// GET of one object.
    pub async fn get(&self) -> Result<Reply, StatusError> {
        let obj = self.store.get(self.namespace(), &self.info.name).await?;
        self.reply(200, &*self.to_request_version(obj)?, Vec::new())
    }

    /// POST to a collection.
    pub async fn create(&self, body: &[u8], media: MediaType) -> Result<Reply, StatusError> {
        let dry_run = self.dry_run()?;
        let (obj, mut warnings) = self.admit(body, media, None)?;
        let (obj, admitted) = self
            .run_admission(admission::Operation::Create, obj, None, dry_run)
            .await?;
        warnings.extend(admitted);
        let created = self.store.create(self.namespace(), obj, dry_run).await?;
        self.reply(201, &*self.to_request_version(created)?, warnings)
    }

    /// POST of a create-only resource (Go's review resources): the object comes back with
    /// its `status` filled in, and nothing is stored. The access reviews are answered
    /// by the server's authorizer, a `SelfSubjectReview` names the caller, a
    /// `TokenReview` what the server's authenticator says of its token.
    pub async fn review(&self, body: &[u8], media: MediaType) -> Result<Reply, StatusError> {
        let (obj, warnings) = self.decode_body(body, media, &self.request_gvk())?;
        let mut v = to_json(&*obj)?;
        let resource = self.store.info().resource.as_str();
        let access =
            access_review::answer(resource, &v, self.user, self.namespace(), self.authorizer)
                .await?;
        let status = match resource {
            _ if access.is_some() => access.unwrap_or_default(),
            "selfsubjectreviews" => review::self_subject_review_status(self.user),
            "tokenreviews" => review::token_review_status(self.authenticator, &v).await?,
            other => {
                return Err(StatusError::method_not_allowed(
                    "POST",
                    &format!("{other}: this server has no scheduler or admission to act on it"),
                ));
            }
        };
        if let Some(map) = v.as_object_mut() {
            map.insert("status".into(), status);
        }
        let answered = from_value(self.scheme, &self.request_gvk(), v)?;
        self.reply(201, &*answered, warnings)
    }

    /// PUT of an object or its `/status`.
    pub async fn update(&self, body: &[u8], media: MediaType) -> Result<Reply, StatusError> {
        let dry_run = self.dry_run()?;
        let (obj, mut warnings) = self.admit(body, media, Some(&self.info.name))?;
        // PUT replaces: the new object does not depend on the current one, so a retry
        // (possible only without a resourceVersion) writes the same body again.
        let (updated, admitted) = self
            .admitted_update(dry_run, |_current| Ok(obj.deep_copy_object()))
            .await?;
        warnings.extend(admitted);
        self.reply(200, &*self.to_request_version(updated)?, warnings)
    }

    fn subresource(&self) -> Subresource {
        if self.info.subresource == "status" {
            Subresource::Status
        } else {
            Subresource::Main
        }
    }

    /// PATCH of an object or its `/status`.
    pub async fn patch(
        &self,
        body: &[u8],
        content_type: Option<&str>,
    ) -> Result<Reply, StatusError> {
        let dry_run = self.dry_run()?;
        let patch_type = PatchType::from_content_type(content_type)?;
        let patch = parse_patch(patch_type, body)?;
        let gvk = self.request_gvk();
        let mut warnings = Vec::new();
        let (updated, admitted) = self
            .admitted_update(dry_run, |current| {
                let current_rv = current
                    .meta()
                    .map(|m| m.resource_version().to_owned())
                    .unwrap_or_default();
                let current = self.to_request_version(current)?;
                let mut doc = to_json(&*current)?;
                apply_patch(&self.request_gv(), &gvk, &patch, &mut doc)?;
                let bytes =
                    serde_json::to_vec(&doc).map_err(|e| StatusError::internal(e.to_string()))?;
                let (mut obj, w) = self.decode_body(&bytes, MediaType::Json, &gvk)?;
                warnings = w;
                // A patch that leaves resourceVersion alone is applied to whatever is
                // current (retried on a concurrent write); one that sets it is a
                // precondition.
                if let Some(meta) = obj.meta_mut() {
                    if meta.resource_version() == current_rv {
                        meta.set_resource_version("");
                    }
                }
                self.scheme.default(&mut *obj);
                self.to_storage_version(obj)
            })
            .await?;
        warnings.extend(admitted);
        self.reply(200, &*self.to_request_version(updated)?, warnings)
    }

    /// DELETE of one object.
    pub async fn delete(&self, body: &[u8]) -> Result<Reply, StatusError> {
        let params = self.delete_params(body)?;
        let (obj, gone, warnings) = self
            .admitted_delete(self.namespace(), &self.info.name, &params)
            .await?;
        if gone {
            let uid = obj.meta().map(|m| m.uid().to_owned()).unwrap_or_default();
            let info = self.store.info();
            let status = Status {
                type_meta: TypeMeta {
                    kind: "Status".into(),
                    api_version: "v1".into(),
                },
                status: "Success".into(),
                details: Some(StatusDetails {
                    name: self.info.name.clone(),
                    group: info.group.clone(),
                    kind: info.resource.clone(),
                    uid,
                    ..StatusDetails::default()
                }),
                ..Status::default()
            };
            return Ok(Reply {
                code: 200,
                content_type: "application/json",
                body: status_json(&status),
                warnings,
            });
        }
        // Marked for deletion, waiting on finalizers: the object, 202 Accepted.
        self.reply(202, &*self.to_request_version(obj)?, warnings)
    }

    fn delete_params(&self, body: &[u8]) -> Result<DeleteParams, StatusError> {
        let mut params = DeleteParams {
            dry_run: self.dry_run()?,
            propagation_policy: self.query.get("propagationPolicy").cloned(),
            ..DeleteParams::default()
        };
        if let Some(g) = self.query.get("gracePeriodSeconds") {
            g.parse::<i64>().map_err(|_| {
                StatusError::bad_request(format!(
                    "invalid gracePeriodSeconds {g:?}: not an integer"
                ))
            })?;
        }
        if !body.iter().all(u8::is_ascii_whitespace) {
            let v: Value = serde_json::from_slice(body).map_err(|e| {
                StatusError::bad_request(format!(
                    "the body of the request is not valid DeleteOptions: {e}"
                ))
            })?;
            if let Some(p) = v.get("propagationPolicy").and_then(Value::as_str) {
                params.propagation_policy = Some(p.to_owned());
            }
            if let Some(pre) = v.get("preconditions") {
                params.precondition_uid = pre.get("uid").and_then(Value::as_str).map(str::to_owned);
                params.precondition_resource_version = pre
                    .get("resourceVersion")
                    .and_then(Value::as_str)
                    .map(str::to_owned);
            }
            if let Some(dry) = v.get("dryRun").and_then(Value::as_array) {
                params.dry_run |= dry.iter().any(|d| d == "All");
            }
            if v.get("orphanDependents") == Some(&Value::Bool(true))
                && params.propagation_policy.is_none()
            {
                params.propagation_policy = Some("Orphan".into());
            }
        }
        if let Some(p) = &params.propagation_policy {
            if !matches!(p.as_str(), "Orphan" | "Background" | "Foreground") {
                return Err(StatusError::invalid(
                    "meta.k8s.io",
                    "DeleteOptions",
                    "",
                    vec![StatusError::invalid_value(
                        "propagationPolicy",
                        p,
                        "propagationPolicy must be one of Orphan, Background or Foreground",
                    )],
                ));
            }
        }
        Ok(params)
    }

    /// The label and field selectors of a list, watch or deletecollection.
    pub fn selection(&self) -> Result<Selection, StatusError> {
        let label = self
            .query
            .get("labelSelector")
            .map(String::as_str)
            .unwrap_or_default();
        let field = self
            .query
            .get("fieldSelector")
            .map(String::as_str)
            .unwrap_or_default();
        let selection = Selection {
            labels: labels::Selector::parse(label)
                .map_err(|e| StatusError::bad_request(e.to_string()))?,
            fields: fields::Selector::parse(field)
                .map_err(|e| StatusError::bad_request(e.to_string()))?,
        };
        selection
            .check_fields(self.store.info())
            .map_err(|e| StatusError::bad_request(e.to_string()))?;
        Ok(selection)
    }

    /// GET of a collection.
    pub async fn list(&self) -> Result<Reply, StatusError> {
        let selection = self.selection()?;
        let limit = match self.query.get("limit").map(String::as_str) {
            None | Some("") => 0,
            Some(l) => {
                let n: i64 = l.parse().map_err(|_| {
                    StatusError::bad_request(format!("invalid limit {l:?}: not an integer"))
                })?;
                if !(0..=MAX_LIMIT).contains(&n) {
                    return Err(StatusError::bad_request(format!(
                        "invalid limit {n}: must be between 0 and {MAX_LIMIT}"
                    )));
                }
                usize::try_from(n).unwrap_or(0)
            }
        };
        let asked = parse_resource_version(self.query.get("resourceVersion"))?;
        // Go's rules: `Exact` reads at the revision; `NotOlderThan` (and no match with a
        // revision) reads the current state, which must have reached the revision.
        let revision = match self.query.get("resourceVersionMatch").map(String::as_str) {
            None | Some("") | Some("NotOlderThan") => {
                if asked > 0 {
                    self.store.ensure_reached(asked).await?;
                }
                0
            }
            Some("Exact") if asked > 0 => asked,
            Some("Exact") => {
                return Err(StatusError::bad_request(
                    "resourceVersionMatch \"Exact\" is forbidden for resourceVersion \"0\" or unset",
                ));
            }
            Some(other) => {
                return Err(StatusError::bad_request(format!(
                    "resourceVersionMatch {other:?} is not supported: must be Exact or NotOlderThan"
                )));
            }
        };
        let continue_token = self
            .query
            .get("continue")
            .filter(|c| !c.is_empty())
            .cloned();
        if continue_token.is_some() && asked > 0 {
            return Err(StatusError::bad_request(
                "specifying resource version is not allowed when using continue",
            ));
        }
        let page = self
            .store
            .list(
                self.info.namespace.as_deref(),
                &ListParams {
                    selection,
                    limit,
                    continue_token,
                    revision,
                },
            )
            .await?;
        let list_gvk = GroupVersionKind::new(
            self.info.api_group.as_str(),
            self.info.api_version.as_str(),
            format!("{}List", self.store.info().kind),
        );
        let mut list = self.new_list(&list_gvk)?;
        if let Some(items) = list.as_list_mut() {
            for item in page.items {
                let mut item = self.to_request_version(item)?;
                // Items of a typed list carry no kind and apiVersion, as Go writes them.
                item.set_group_version_kind(&GroupVersionKind::default());
                items.push_item(item).map_err(|_| {
                    StatusError::internal(format!("{list_gvk} does not take its items"))
                })?;
            }
        }
        if let Some(meta) = list.list_meta_mut() {
            meta.set_resource_version(&page.resource_version.to_string());
            meta.set_continue_token(page.continue_token.as_deref().unwrap_or_default());
            meta.set_remaining_item_count(page.remaining_item_count);
        }
        self.reply(200, &*list, Vec::new())
    }

    /// An empty list of kind `list_gvk` whose items are `[]`, not `null`, as Go's server
    /// writes an empty collection.
    fn new_list(&self, list_gvk: &GroupVersionKind) -> Result<Box<dyn Object>, StatusError> {
        let mut list = from_value(self.scheme, list_gvk, serde_json::json!({"items": []}))
            .map_err(|e| StatusError::internal(format!("no list kind {list_gvk}: {e:?}")))?;
        list.set_group_version_kind(list_gvk);
        Ok(list)
    }

    /// DELETE of a collection: every selected object, as one delete each.
    pub async fn delete_collection(&self, body: &[u8]) -> Result<Reply, StatusError> {
        let selection = self.selection()?;
        let params = self.delete_params(body)?;
        let items = self
            .store
            .list_all(self.info.namespace.as_deref(), &selection)
            .await?;
        let list_gvk = GroupVersionKind::new(
            self.info.api_group.as_str(),
            self.info.api_version.as_str(),
            format!("{}List", self.store.info().kind),
        );
        let mut list = self.new_list(&list_gvk)?;
        for item in items {
            let (ns, name) = item
                .meta()
                .map(|m| (m.namespace().to_owned(), m.name().to_owned()))
                .unwrap_or_default();
            match self.admitted_delete(&ns, &name, &params).await {
                Ok((obj, _, _)) => {
                    if let Some(items) = list.as_list_mut() {
                        let mut obj = self.to_request_version(obj)?;
                        obj.set_group_version_kind(&GroupVersionKind::default());
                        items.push_item(obj).map_err(|_| {
                            StatusError::internal(format!("{list_gvk} does not take its items"))
                        })?;
                    }
                }
                // Deleted by someone else meanwhile: what was asked for happened.
                Err(e) if e.code() == 404 => {}
                Err(e) => return Err(e),
            }
        }
        self.reply(200, &*list, Vec::new())
    }

    /// GET, PUT or PATCH of `/scale`: the autoscaling/v1 `Scale` view of the object's
    /// replicas.
    pub async fn scale(
        &self,
        method: &str,
        body: &[u8],
        content_type: Option<&str>,
    ) -> Result<Reply, StatusError> {
        let scale_gvk = GroupVersionKind::new("autoscaling", "v1", "Scale");
        let ns = self.namespace().to_owned();
        let name = self.info.name.clone();
        let dry_run = self.dry_run()?;
        let mut warnings = Vec::new();
        let obj = match method {
            "GET" => self.store.get(&ns, &name).await?,
            "PUT" | "PATCH" => {
                let replicas = if method == "PUT" {
                    let media = super::negotiation::negotiate_input(content_type)?;
                    let (scale, _) = self.decode_body(body, media, &scale_gvk)?;
                    let v = to_json(&*scale)?;
                    let asked_rv = v
                        .pointer("/metadata/resourceVersion")
                        .and_then(Value::as_str)
                        .map(str::to_owned);
                    (
                        v.pointer("/spec/replicas")
                            .and_then(Value::as_i64)
                            .unwrap_or(0),
                        asked_rv,
                    )
                } else {
                    let patch_type = PatchType::from_content_type(content_type)?;
                    let patch = parse_patch(patch_type, body)?;
                    let current = self.store.get(&ns, &name).await?;
                    let mut doc = scale_json(&*current)?;
                    apply_patch(&self.request_gv(), &scale_gvk, &patch, &mut doc)?;
                    let replicas = doc
                        .pointer("/spec/replicas")
                        .and_then(Value::as_i64)
                        .ok_or_else(|| {
                            StatusError::bad_request(
                                "the patched Scale has no integer spec.replicas",
                            )
                        })?;
                    (replicas, None)
                };
                let (replicas, asked_rv) = replicas;
                if replicas < 0 || replicas > i64::from(i32::MAX) {
                    return Err(StatusError::invalid(
                        "autoscaling",
                        "Scale",
                        &name,
                        vec![StatusError::invalid_value(
                            "spec.replicas",
                            &replicas.to_string(),
                            "must be greater than or equal to 0",
                        )],
                    ));
                }
                let gvk = self.store.info().storage_gvk.clone();
                let scheme = self.scheme.clone();
                let (obj, admitted) = self
                    .admitted_update(dry_run, |current| {
                        let mut v = to_json(&*current)?;
                        if let Some(spec) = v.get_mut("spec").and_then(Value::as_object_mut) {
                            spec.insert("replicas".into(), Value::from(replicas));
                        }
                        if let Some(meta) = v.get_mut("metadata").and_then(Value::as_object_mut) {
                            match &asked_rv {
                                Some(rv) if !rv.is_empty() => {
                                    meta.insert("resourceVersion".into(), Value::from(rv.clone()))
                                }
                                _ => meta.remove("resourceVersion"),
                            };
                        }
                        from_value(&scheme, &gvk, v)
                    })
                    .await?;
                warnings = admitted;
                obj
            }
            other => return Err(StatusError::method_not_allowed(other, "scale")),
        };
        let scale = from_value(self.scheme, &scale_gvk, scale_json(&*obj)?)?;
        self.reply(200, &*scale, warnings)
    }
}

/// The `resourceVersion` of an object ("" when it has no metadata).
fn resource_version(obj: &dyn Object) -> String {
    obj.meta()
        .map(|m| m.resource_version().to_owned())
        .unwrap_or_default()
}

/// The `Scale` of an object at its storage version, as Go's scale subresources build it.
fn scale_json(obj: &dyn Object) -> Result<Value, StatusError> {
    let v = to_json(obj)?;
    let selector = match v.pointer("/spec/selector") {
        // Replication controllers select with a plain map.
        Some(Value::Object(map))
            if !map.contains_key("matchLabels") && !map.contains_key("matchExpressions") =>
        {
            map.iter()
                .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or_default()))
                .collect::<Vec<_>>()
                .join(",")
        }
        Some(sel) => format_label_selector(sel),
        None => String::new(),
    };
    let meta = v.get("metadata").cloned().unwrap_or(Value::Null);
    let mut scale_meta = serde_json::Map::new();
    for k in [
        "name",
        "namespace",
        "uid",
        "resourceVersion",
        "creationTimestamp",
    ] {
        if let Some(x) = meta.get(k) {
            scale_meta.insert(k.into(), x.clone());
        }
    }
    Ok(serde_json::json!({
        "metadata": scale_meta,
        "spec": {"replicas": v.pointer("/spec/replicas").cloned().unwrap_or(Value::from(0))},
        "status": {
            "replicas": v.pointer("/status/replicas").cloned().unwrap_or(Value::from(0)),
            "selector": selector,
        },
    }))
}

/// Go's `metav1.FormatLabelSelector` of a `LabelSelector` in JSON form.
fn format_label_selector(sel: &Value) -> String {
    let mut parts = Vec::new();
    if let Some(map) = sel.get("matchLabels").and_then(Value::as_object) {
        for (k, v) in map {
            parts.push(format!("{k}={}", v.as_str().unwrap_or_default()));
        }
    }
    if let Some(exprs) = sel.get("matchExpressions").and_then(Value::as_array) {
        for e in exprs {
            let key = e.get("key").and_then(Value::as_str).unwrap_or_default();
            let values: Vec<&str> = e
                .get("values")
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            match e
                .get("operator")
                .and_then(Value::as_str)
                .unwrap_or_default()
            {
                "In" => parts.push(format!("{key} in ({})", values.join(","))),
                "NotIn" => parts.push(format!("{key} notin ({})", values.join(","))),
                "Exists" => parts.push(key.to_owned()),
                "DoesNotExist" => parts.push(format!("!{key}")),
                _ => {}
            }
        }
    }
    parts.join(",")
}

/// A parsed patch document.
#[derive(Debug)]
enum Patch {
    Json(json_patch::Patch),
    Merge(Value),
    StrategicMerge(Value),
}

fn parse_patch(patch_type: PatchType, body: &[u8]) -> Result<Patch, StatusError> {
    match patch_type {
        PatchType::Json => serde_json::from_slice(body).map(Patch::Json).map_err(|e| {
            StatusError::bad_request(format!("the json patch could not be read: {e}"))
        }),
        PatchType::Merge => serde_json::from_slice(body).map(Patch::Merge).map_err(|e| {
            StatusError::bad_request(format!("the merge patch could not be read: {e}"))
        }),
        PatchType::StrategicMerge => serde_json::from_slice(body)
            .map(Patch::StrategicMerge)
            .map_err(|e| {
                StatusError::bad_request(format!(
                    "the strategic merge patch could not be read: {e}"
                ))
            }),
        PatchType::Apply => Err(StatusError::unsupported_media_type(
            "server-side apply (application/apply-patch+yaml) is not supported by this server; use client-side apply (kubectl apply without --server-side)",
        )),
    }
}

/// Applies `patch` to `doc`, an object of kind `gvk` served in group version `served`
/// (whose OpenAPI document gives a strategic merge patch its merge keys and strategies:
/// a subresource's kind, such as autoscaling/v1 `Scale`, is in its parent's document).
fn apply_patch(
    served: &GroupVersion,
    gvk: &GroupVersionKind,
    patch: &Patch,
    doc: &mut Value,
) -> Result<(), StatusError> {
    match patch {
        Patch::StrategicMerge(p) => {
            let lookup = |group: &str, version: &str| {
                crate::openapi::schemas_for(group, version)
                    .and_then(Value::as_object)
                    .and_then(|schemas| {
                        PatchMetaFromOpenApi::for_group_version_kind(schemas, gvk).ok()
                    })
            };
            let meta = lookup(&served.group, &served.version)
                .or_else(|| lookup(&gvk.group, &gvk.version))
                .ok_or_else(|| {
                    StatusError::unsupported_media_type(format!(
                        "strategic merge patch is not supported for {gvk}: no OpenAPI schema for it; use a merge or JSON patch"
                    ))
                })?;
            // Go answers each failure with its own code: 400 for a malformed patch,
            // 422 for what cannot be merged, 500 for the rest.
            *doc = strategic_merge_patch(doc, p, &meta).map_err(|e| match e.status_code() {
                400 => StatusError::bad_request(e.to_string()),
                422 => StatusError::unprocessable_patch(&e.to_string()),
                _ => StatusError::internal(e.to_string()),
            })?;
            Ok(())
        }
        Patch::Json(p) => {
            // Go's limits on a JSON patch: at most 10,000 operations, and `copy` may not
            // copy more than the request size limit in all, so that a small patch cannot
            // grow the document exponentially.
            if p.0.len() > MAX_JSON_PATCH_OPERATIONS {
                return Err(StatusError::too_large_patch(format!(
                    "The allowed maximum operations in a JSON patch is {MAX_JSON_PATCH_OPERATIONS}, got {}",
                    p.0.len()
                )));
            }
            let mut copied = 0usize;
            for op in &p.0 {
                if let json_patch::PatchOperation::Copy(copy) = op {
                    let size = doc
                        .pointer(copy.from.as_str())
                        .and_then(|v| serde_json::to_vec(v).ok())
                        .map_or(0, |v| v.len());
                    copied = copied.saturating_add(size);
                    if copied > MAX_REQUEST_BODY_BYTES {
                        return Err(StatusError::too_large_patch(format!(
                            "the JSON patch copies more than {MAX_REQUEST_BODY_BYTES} bytes"
                        )));
                    }
                }
                json_patch::patch(doc, std::slice::from_ref(op))
                    .map_err(|e| StatusError::unprocessable_patch(&e.to_string()))?;
            }
            Ok(())
        }
        Patch::Merge(p) => {
            if !p.is_object() {
                return Err(StatusError::bad_request(
                    "a merge patch must be a JSON object",
                ));
            }
            json_patch::merge(doc, p);
            Ok(())
        }
    }
}

/// The JSON of an object, for patches and strategies.
pub fn to_json(obj: &dyn Object) -> Result<Value, StatusError> {
    object_to_unstructured(obj)
        .map(Value::Object)
        .map_err(|e| StatusError::internal(format!("writing object: {e}")))
}

/// Converts `obj` to `gv` through the scheme.
pub fn convert(
    scheme: &Scheme,
    obj: Box<dyn Object>,
    gv: &GroupVersion,
) -> Result<Box<dyn Object>, StatusError> {
    if crate::registry::crosses_event_groups(&*obj, gv) {
        return crate::registry::convert_event(scheme, obj, gv);
    }
    scheme
        .convert_to_version(obj, gv)
        .map_err(|e| StatusError::internal(format!("converting to {gv}: {e}")))
}

/// Encodes `obj` in `media`.
pub fn encode(scheme: &Scheme, media: MediaType, obj: &dyn Object) -> Result<Vec<u8>, StatusError> {
    let out = match media {
        MediaType::Protobuf => ProtobufSerializer::new(scheme).encode_to_vec(obj),
        MediaType::Json | MediaType::Yaml => JsonSerializer::new(
            scheme,
            SerializerOptions {
                yaml: media == MediaType::Yaml,
                ..SerializerOptions::default()
            },
        )
        .encode_to_vec(obj),
    };
    out.map_err(|e| StatusError::internal(format!("encoding {}: {e}", obj.group_version_kind())))
}

/// The JSON body of a `Status`.
pub fn status_json(status: &Status) -> Vec<u8> {
    let mut out = Vec::new();
    // A Status always encodes; should it not, the body is empty rather than half written.
    if apimachinery::util::json::encode_go_json(status, &mut out, JsonLayout::Compact).is_err() {
        out.clear();
    }
    out.push(b'\n');
    out
}

/// A `resourceVersion` parameter: `""` and `"0"` are 0 (any / most recent), anything
/// else a positive revision.
pub fn parse_resource_version(rv: Option<&String>) -> Result<i64, StatusError> {
    match rv.map(String::as_str) {
        None | Some("") | Some("0") => Ok(0),
        Some(s) => match s.parse::<i64>() {
            Ok(n) if n > 0 => Ok(n),
            _ => Err(StatusError::bad_request(format!(
                "invalid resource version {s:?}: must be a positive integer"
            ))),
        },
    }
}
