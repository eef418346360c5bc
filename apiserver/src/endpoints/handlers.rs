//! The REST handlers (Go's `endpoints/handlers`): get, list, create, update, patch,
//! delete and deletecollection of every served version of every resource, and its
//! `/status` and `/scale` subresources. Each request is decoded in its own version,
//! defaulted, converted to the storage version for the store, and the answer converted
//! back to the request's version (seed 003's flow).

use std::collections::BTreeMap;
use std::sync::Arc;

use apimachinery::api::errors::{self, StatusError};
use apimachinery::apis::meta::v1::validation::IS_NEGATIVE_ERROR_MSG;
use apimachinery::apis::meta::v1::{ManagedFieldsEntry, Status, StatusDetails, TypeMeta};
use apimachinery::fields;
use apimachinery::labels;
use apimachinery::managedfields::{FieldManager, ParseableType};
use apimachinery::runtime::{Object, Scheme, UnstructuredList};
use apimachinery::schema::{GroupKind, GroupResource, GroupVersion, GroupVersionKind};
use apimachinery::serializer::Decoder;
use apimachinery::serializer::json::{JsonSerializer, SerializerOptions};
use apimachinery::serializer::protobuf::ProtobufSerializer;
use apimachinery::serializer::yaml::yaml_to_json;
use apimachinery::util::strategicpatch::{PatchMetaFromOpenApi, strategic_merge_patch};
use apimachinery::util::validation::field::{Error, ErrorList, Path};
use serde_json::Value;

use super::fieldmanager::{self, SchemeConverter};
use super::negotiation::{Conversion, MediaType, PatchType, unsupported_media_type};
use super::request_info::RequestInfo;
use super::responsewriters::{method_not_allowed, status_json};
use crate::admission::{self, Chain};
use crate::authentication::user::Info;
use crate::registry::{
    Context, Creater, DeleteParams, FieldValidation, ListParams, Resources, RestStorage, Scaler,
    Selection, Store, Strategy, Subresource, WebhookConverter, convert, encode, from_value,
    to_json,
};
use crate::storage::OPTIMISTIC_LOCK_ERROR_MSG;

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

/// What every handler needs: the scheme and the resource's REST storage.
#[derive(Debug, Clone)]
pub struct Handler<'a> {
    /// The scheme objects are decoded, converted and encoded with.
    pub scheme: &'a Arc<Scheme>,
    /// The resource's REST storage.
    pub rest: &'a dyn RestStorage,
    /// Its store.
    pub store: &'a Arc<Store>,
    /// The parsed request.
    pub info: &'a RequestInfo,
    /// The query.
    pub query: &'a Query,
    /// Who asks.
    pub user: &'a Info,
    /// The admission plugins writes go through.
    pub admission: &'a Chain,
    /// The response format.
    pub output: MediaType,
    /// What answers are converted to before they are encoded (`as=PartialObjectMetadata`).
    pub conversion: Option<Conversion>,
    /// The `User-Agent` header (a write's manager when it names no `fieldManager`).
    pub user_agent: &'a str,
}

impl Handler<'_> {
    fn strategy(&self) -> &dyn Strategy {
        self.store.strategy()
    }

    /// What the REST storage's verbs see of the request.
    pub fn context(&self, dry_run: bool) -> Context<'_> {
        Context {
            user: self.user,
            namespace: self.namespace(),
            name: &self.info.name,
            version: &self.info.api_version,
            dry_run,
        }
    }

    fn request_gv(&self) -> GroupVersion {
        GroupVersion::new(self.info.api_group.as_str(), self.info.api_version.as_str())
    }

    fn request_gvk(&self) -> GroupVersionKind {
        self.store.info().gvk(&self.info.api_version)
    }

    fn namespace(&self) -> &str {
        self.info.namespace.as_deref().unwrap_or_default()
    }

    fn qualified(&self) -> GroupResource {
        self.store.info().qualified_resource()
    }

    fn dry_run(&self) -> Result<bool, StatusError> {
        match self.query.get("dryRun").map(String::as_str) {
            None | Some("") => Ok(false),
            Some("All") => Ok(true),
            Some(other) => Err(errors::new_bad_request(format!(
                "Invalid dry run value {other:?}: the only supported value is \"All\""
            ))),
        }
    }

    fn field_validation(&self) -> Result<FieldValidation, StatusError> {
        match self.query.get("fieldValidation").map(String::as_str) {
            None | Some("") | Some("Warn") => Ok(FieldValidation::Warn),
            Some("Strict") => Ok(FieldValidation::Strict),
            Some("Ignore") => Ok(FieldValidation::Ignore),
            Some(other) => Err(errors::new_bad_request(format!(
                "fieldValidation parameter unsupported: {other:?}; must be one of Ignore, Warn, Strict"
            ))),
        }
    }

    /// Converts a storage-version object to the request's version.
    pub fn to_request_version(&self, obj: Box<dyn Object>) -> Result<Box<dyn Object>, StatusError> {
        self.check_no_webhook(&*obj, &self.request_gv())?;
        convert(self.scheme, obj, &self.request_gv())
    }

    fn to_storage_version(&self, obj: Box<dyn Object>) -> Result<Box<dyn Object>, StatusError> {
        let gv = self.store.info().storage_version();
        self.check_no_webhook(&*obj, &gv)?;
        convert(self.scheme, obj, &gv)
    }

    /// The conversion webhook of the resource, when it has one.
    fn webhook(&self) -> Option<&dyn WebhookConverter> {
        self.strategy().webhook_converter()
    }

    /// The paths that convert without awaiting (inside a patch's retry loop) cannot
    /// call a conversion webhook: they refuse rather than rewrite `apiVersion` alone.
    fn check_no_webhook(&self, obj: &dyn Object, gv: &GroupVersion) -> Result<(), StatusError> {
        if self.webhook().is_some() && obj.group_version_kind().group_version() != *gv {
            return Err(method_not_allowed(
                self.info.verb.as_str(),
                &format!(
                    "{} in {gv}: this server calls conversion webhooks on get, list, create, update and delete only; use the storage version {}",
                    self.qualified(),
                    self.store.info().storage_version()
                ),
            ));
        }
        Ok(())
    }

    /// Converts objects to `gv`, through the CRD's conversion webhook when it has one
    /// (one `ConversionReview` for all of them, as Go sends a list's).
    async fn convert_all(
        &self,
        objs: Vec<Box<dyn Object>>,
        gv: &GroupVersion,
    ) -> Result<Vec<Box<dyn Object>>, StatusError> {
        let Some(webhook) = self.webhook() else {
            return objs
                .into_iter()
                .map(|o| convert(self.scheme, o, gv))
                .collect();
        };
        let values = objs
            .iter()
            .map(|o| to_json(&**o))
            .collect::<Result<Vec<_>, _>>()?;
        let kind = gv.with_kind(self.store.info().kind.as_str());
        let (api_version, _) = kind.to_api_version_and_kind();
        let converted = webhook.convert(values, &api_version).await?;
        converted
            .into_iter()
            .map(|v| from_value(self.scheme, &kind, v))
            .collect()
    }

    async fn to_request_version_async(
        &self,
        obj: Box<dyn Object>,
    ) -> Result<Box<dyn Object>, StatusError> {
        let mut out = self.convert_all(vec![obj], &self.request_gv()).await?;
        out.pop()
            .ok_or_else(|| errors::new_internal_error("the conversion returned no object"))
    }

    /// The manager of this write: `fieldManager`, or the user agent's first word.
    fn manager(&self) -> String {
        fieldmanager::manager_or_user_agent(
            self.query.get("fieldManager").map(String::as_str),
            self.user_agent,
        )
    }

    fn converter(&self) -> SchemeConverter<'_> {
        SchemeConverter {
            scheme: self.scheme,
            gvk: self.request_gvk(),
            served: self.store.info().versions.clone(),
        }
    }

    /// The field manager of the request's kind, version and subresource; a kind's
    /// status is reset on main-resource writes and its spec on `/status` writes, as
    /// Go's strategies do, so neither is owned through the other.
    fn field_manager<'b>(
        &self,
        types: &'b ParseableType,
        converter: &'b SchemeConverter<'b>,
    ) -> FieldManager<'b> {
        let status = self.info.subresource == "status";
        let fm = FieldManager::new(
            types,
            &self.request_gv().to_string(),
            if status { "status" } else { "" },
            converter,
        );
        let subresource = if status {
            Subresource::Status
        } else {
            Subresource::Main
        };
        let reset = self.strategy().reset_fields(self.store.info(), subresource);
        if reset.is_empty() {
            fm
        } else {
            fm.with_reset_fields(reset)
        }
    }

    /// Records a create, update or patch of `new` (storage version) over `live` in
    /// `new`'s `managedFields` (Go's `UpdateNoErrors`), computed at the request's version.
    /// `reset`: the request set `managedFields` to an empty list (Go's way of clearing
    /// them), which the typed object cannot tell from leaving them out.
    fn track_managed_fields(
        &self,
        live: Option<&dyn Object>,
        new: Box<dyn Object>,
        reset: bool,
    ) -> Result<Box<dyn Object>, StatusError> {
        // The field sets are computed at the request's version; a custom resource whose
        // CRD converts through a webhook cannot be converted here without awaiting it,
        // so its writes in another version than the storage one are not tracked (left
        // out; the storage version's writes are).
        if self.webhook().is_some() && self.request_gv() != self.store.info().storage_version() {
            return Ok(new);
        }
        let gvk = self.request_gvk();
        let types = fieldmanager::types_for(&gvk);
        let converter = self.converter();
        let fm = self.field_manager(&types, &converter);
        let live_json = match live {
            Some(l) => Some(to_json(&*self.to_request_version(l.deep_copy_object())?)?),
            None => None,
        };
        let empty = fieldmanager::empty_object(self.scheme, &gvk);
        let mut new_json = to_json(&*self.to_request_version(new.deep_copy_object())?)?;
        if reset {
            if let Some(meta) = new_json.get_mut("metadata").and_then(Value::as_object_mut) {
                meta.insert("managedFields".into(), Value::Array(Vec::new()));
            }
        }
        fm.update(
            live_json.as_ref(),
            &empty,
            &mut new_json,
            &self.manager(),
            &fieldmanager::now(),
        );
        // managedFields read the same in every version: they go on the stored object,
        // set through its metadata (a whole-object JSON round trip otherwise).
        // Taken, not cloned: `new_json` is not read again.
        let entries = new_json
            .pointer_mut("/metadata/managedFields")
            .map(Value::take);
        let typed = match &entries {
            Some(e) => <Vec<ManagedFieldsEntry> as serde::Deserialize>::deserialize(e).ok(),
            None => Some(Vec::new()),
        };
        let mut new = new;
        if let (Some(typed), Some(meta)) = (typed, new.meta_mut()) {
            meta.set_managed_fields(typed);
            return Ok(new);
        }
        let mut stored = to_json(&*new)?;
        if let Some(meta) = stored.get_mut("metadata").and_then(Value::as_object_mut) {
            match entries {
                Some(e) => meta.insert("managedFields".into(), e),
                None => meta.remove("managedFields"),
            };
        }
        from_value(self.scheme, &self.store.info().storage_gvk, stored)
    }

    /// An object answer in the negotiated format.
    pub fn reply(
        &self,
        code: u16,
        obj: &dyn Object,
        warnings: Vec<String>,
    ) -> Result<Reply, StatusError> {
        let converted;
        let obj = match self.conversion {
            Some(conversion) => {
                converted = super::transform::transform(self.scheme, obj, conversion)?;
                &*converted
            }
            None => obj,
        };
        Ok(Reply {
            code,
            content_type: self.output.content_type(),
            body: encode(self.scheme, self.output, obj)?,
            warnings,
        })
    }

    /// Refuses, before anything is written, a write whose answer (one object, or the
    /// list of a deletecollection: `list`) cannot be converted as the request asks.
    pub fn check_conversion(&self, list: bool) -> Result<(), StatusError> {
        let Some(conversion) = self.conversion else {
            return Ok(());
        };
        let info = self.store.info();
        let type_name = if self.info.subresource == "scale" {
            super::transform::go_internal_type_name("autoscaling", "Scale")
        } else if self.strategy().is_unstructured() {
            if list {
                "*unstructured.UnstructuredList".to_owned()
            } else {
                "*unstructured.Unstructured".to_owned()
            }
        } else if list {
            super::transform::go_internal_type_name(&info.group, &format!("{}List", info.kind))
        } else {
            super::transform::go_internal_type_name(&info.group, &info.kind)
        };
        super::transform::check_fits(conversion, list, &type_name)
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
        if self.strategy().is_unstructured() {
            return self.decode_custom_body(body, media, expected, validation);
        }
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
                    return Err(errors::new_bad_request(format!(
                        "strict decoding error: {}",
                        list.join(", ")
                    )));
                }
                None if e.is_not_registered() => {
                    return Err(errors::new_bad_request(format!(
                        "the body of the request is not a kind this server serves here: {e}"
                    )));
                }
                None => {
                    return Err(errors::new_bad_request(format!(
                        "the body of the request could not be decoded as {expected}: {e}"
                    )));
                }
            },
        };
        if gvk.group != expected.group || gvk.kind != expected.kind {
            return Err(errors::new_bad_request(format!(
                "the object provided is unrecognized (must be of type {}): object of kind {} in {}",
                expected.kind,
                gvk.kind,
                gvk.group_version()
            )));
        }
        if gvk.version != expected.version {
            return Err(errors::new_bad_request(format!(
                "the API version in the data ({}) does not match the expected API version ({})",
                gvk.group_version(),
                expected.group_version()
            )));
        }
        Ok((obj, warnings))
    }

    /// Decodes a custom resource's body as [`Unstructured`](apimachinery::runtime::Unstructured)
    /// (JSON or YAML: custom resources have no protobuf form, as in Go); unknown fields
    /// are the schema's business (pruning), not the decoder's.
    fn decode_custom_body(
        &self,
        body: &[u8],
        media: MediaType,
        expected: &GroupVersionKind,
        validation: FieldValidation,
    ) -> Result<(Box<dyn Object>, Vec<String>), StatusError> {
        if media == MediaType::Protobuf {
            return Err(unsupported_media_type(format!(
                "the body of the request was in an unknown format - accepted media types include: application/json, application/yaml (custom resources have no protobuf form; got {:?})",
                media.content_type()
            )));
        }
        let decoded = JsonSerializer::unstructured(SerializerOptions {
            yaml: media == MediaType::Yaml,
            pretty: false,
            // Duplicate fields are the decoder's to find; unknown ones the schema's.
            strict: validation != FieldValidation::Ignore,
        })
        .decode(body, Some(expected), None);
        let mut duplicates = Vec::new();
        let (obj, gvk) = match decoded {
            Ok(ok) => ok,
            Err(e) => match e.as_strict() {
                Some(strict) if validation == FieldValidation::Warn => {
                    duplicates = strict.errors().iter().map(|f| f.to_string()).collect();
                    (strict.object().deep_copy_object(), strict.gvk().clone())
                }
                Some(strict) => {
                    let list: Vec<String> = strict.errors().iter().map(|f| f.to_string()).collect();
                    return Err(errors::new_bad_request(format!(
                        "strict decoding error: {}",
                        list.join(", ")
                    )));
                }
                None => {
                    return Err(errors::new_bad_request(format!(
                        "the body of the request could not be decoded as {expected}: {e}"
                    )));
                }
            },
        };
        if gvk.group != expected.group || gvk.kind != expected.kind {
            return Err(errors::new_bad_request(format!(
                "the object provided is unrecognized (must be of type {}): object of kind {} in {}",
                expected.kind,
                gvk.kind,
                gvk.group_version()
            )));
        }
        if gvk.version != expected.version {
            return Err(errors::new_bad_request(format!(
                "the API version in the data ({}) does not match the expected API version ({})",
                gvk.group_version(),
                expected.group_version()
            )));
        }
        let mut value = to_json(&*obj)?;
        let mut warnings = duplicates;
        warnings.extend(self.strategy().admit_decoded(
            &expected.version,
            &mut value,
            &self.info.name,
            validation,
        )?);
        let obj = from_value(self.scheme, expected, value)?;
        Ok((obj, warnings))
    }

    /// Decodes, checks the namespace and name, defaults and converts a written object.
    async fn admit(
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
                    return Err(errors::new_bad_request(
                        "the namespace of the provided object does not match the namespace sent on the request",
                    ));
                }
                meta.set_namespace(&ns);
            }
            if let Some(name) = name {
                if meta.name().is_empty() {
                    meta.set_name(name);
                } else if meta.name() != name {
                    return Err(errors::new_bad_request(format!(
                        "the name of the object ({}) does not match the name on the URL ({name})",
                        meta.name()
                    )));
                }
            }
        }
        self.scheme.default(&mut *obj);
        let gv = self.store.info().storage_version();
        let mut converted = self.convert_all(vec![obj], &gv).await?;
        let obj = converted
            .pop()
            .ok_or_else(|| errors::new_internal_error("the conversion returned no object"))?;
        Ok((obj, warnings))
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
        let obj = obj
            .ok_or_else(|| errors::new_internal_error("an admission plugin removed the object"))?;
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
        // The first attempt starts from the watch cache's object: when it is current, the
        // write is one compare-and-swap. Whatever fails on a cached object that may be
        // older than the storage's is tried again from the storage (Go's
        // `GuaranteedUpdate` with a cached object does the same).
        let mut fresh = false;
        for _ in 0..ADMITTED_WRITE_RETRIES {
            let (current, kv, current_is_fresh) = self.store.read(ns, name, fresh).await?;
            let current_rv = resource_version(&*current);
            let rev = kv.mod_revision;
            let computed = compute(current.deep_copy_object()).and_then(|new| {
                let asked = resource_version(&*new);
                if !asked.is_empty() && asked != current_rv {
                    return Err(errors::new_conflict(
                        &self.qualified(),
                        name,
                        OPTIMISTIC_LOCK_ERROR_MSG,
                    ));
                }
                Ok((new, asked))
            });
            let (new, asked) = match computed {
                Ok(v) => v,
                Err(_) if self.stale_read(current_is_fresh, ns, name, rev).await => {
                    fresh = true;
                    continue;
                }
                Err(e) => return Err(e),
            };
            let admitted = if self.info.subresource == "scale" {
                self.admit_scale(new, current, dry_run).await
            } else {
                self.run_admission(admission::Operation::Update, new, Some(current), dry_run)
                    .await
            };
            let (mut new, warnings) = match admitted {
                Ok(v) => v,
                Err(_) if self.stale_read(current_is_fresh, ns, name, rev).await => {
                    fresh = true;
                    continue;
                }
                Err(e) => return Err(e),
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
                .update_from(ns, name, self.subresource(), dry_run, Some(kv), |_| {
                    once.take().ok_or_else(|| {
                        errors::new_conflict(&self.qualified(), name, OPTIMISTIC_LOCK_ERROR_MSG)
                    })
                })
                .await;
            match written {
                Err(e) if errors::is_conflict(&e) && (asked.is_empty() || !current_is_fresh) => {
                    fresh = true;
                }
                Err(_) if self.stale_read(current_is_fresh, ns, name, rev).await => {
                    fresh = true;
                }
                other => return other.map(|o| (o, warnings)),
            }
        }
        Err(errors::new_conflict(
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
        let new_scale = from_value(self.scheme, &scale_gvk, self.scale_of(&*new)?)?;
        let old_scale = from_value(self.scheme, &scale_gvk, self.scale_of(&*current)?)?;
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
            .ok_or_else(|| errors::new_internal_error("an admission plugin removed the object"))?;
        let replicas = to_json(&*admitted)?
            .pointer("/spec/replicas")
            .and_then(Value::as_i64)
            .unwrap_or(0);
        let mut v = to_json(&*new)?;
        self.scaler()?
            .set_replicas(&self.info.api_version, &mut v, replicas);
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
        // From the watch cache's object first, as updates do.
        let mut fresh = false;
        for _ in 0..ADMITTED_WRITE_RETRIES {
            let (current, kv, current_is_fresh) = self.store.read(namespace, name, fresh).await?;
            let current_rv = resource_version(&*current);
            let rev = kv.mod_revision;
            let admitted = self
                .run_admission_of(
                    admission::Operation::Delete,
                    self.request_gvk(),
                    None,
                    Some(current),
                    params.dry_run,
                )
                .await;
            let warnings = match admitted {
                Ok((_, warnings)) => warnings,
                Err(_)
                    if self
                        .stale_read(current_is_fresh, namespace, name, rev)
                        .await =>
                {
                    fresh = true;
                    continue;
                }
                Err(e) => return Err(e),
            };
            let mut pinned = params.clone();
            let ours = pinned.precondition_resource_version.is_none();
            if ours {
                pinned.precondition_resource_version = Some(current_rv.clone());
            }
            match self
                .store
                .delete_from(namespace, name, &pinned, Some(kv))
                .await
            {
                // Our own precondition failed: someone wrote meanwhile; admit again.
                Err(e) if errors::is_conflict(&e) && ours => {
                    if self.store.revision_of(namespace, name).await == Some(rev) {
                        return Err(e);
                    }
                    fresh = true;
                }
                // The client's precondition, checked against a cached object.
                Err(e) if errors::is_conflict(&e) && !current_is_fresh => {
                    fresh = true;
                }
                other => return other.map(|(o, gone)| (o, gone, warnings)),
            }
        }
        Err(errors::new_conflict(
            &self.qualified(),
            name,
            "too many concurrent writers; try again",
        ))
    }

    /// Whether a failure on an object read from the watch cache (`fresh` false) may be
    /// due to the cache being behind: the storage holds another revision of it now.
    async fn stale_read(&self, fresh: bool, namespace: &str, name: &str, rev: i64) -> bool {
        !fresh && self.store.revision_of(namespace, name).await != Some(rev)
    }

    /// GET of one object: `resourceVersion=0` (any recent state) from the watch cache,
    /// as Go serves it; otherwise from the storage (Go's quorum read).
    pub async fn get(&self) -> Result<Reply, StatusError> {
        let obj = if self.query.get("resourceVersion").map(String::as_str) == Some("0") {
            self.store
                .get_cached(self.namespace(), &self.info.name)
                .await?
        } else {
            self.store.get(self.namespace(), &self.info.name).await?
        };
        self.reply(200, &*self.to_request_version_async(obj).await?, Vec::new())
    }

    /// POST to a collection.
    pub async fn create(&self, body: &[u8], media: MediaType) -> Result<Reply, StatusError> {
        let dry_run = self.dry_run()?;
        fieldmanager::validate_field_manager(
            "CreateOptions",
            self.query.get("fieldManager").map_or("", String::as_str),
        )?;
        let (obj, mut warnings) = self.admit(body, media, None).await?;
        let obj = self.track_managed_fields(None, obj, resets_managed_fields(body, media))?;
        let (obj, admitted) = self
            .run_admission(admission::Operation::Create, obj, None, dry_run)
            .await?;
        warnings.extend(admitted);
        warnings.extend(self.strategy().warnings_on_create(&*obj));
        let created = self.store.create(self.namespace(), obj, dry_run).await?;
        self.reply(
            201,
            &*self.to_request_version_async(created).await?,
            warnings,
        )
    }

    /// POST answered without storing anything (Go's review resources, a
    /// ServiceAccount's `token`): the body is decoded as the kind `creater` takes, and
    /// its answer comes back, 201.
    pub async fn answer(
        &self,
        creater: &dyn Creater,
        body: &[u8],
        media: MediaType,
    ) -> Result<Reply, StatusError> {
        let dry_run = self.dry_run()?;
        let kind = creater.kind(&self.info.api_version);
        let (obj, warnings) = self.decode_body(body, media, &kind)?;
        let answered = creater
            .create(&self.context(dry_run), to_json(&*obj)?)
            .await?;
        let answered = from_value(self.scheme, &kind, answered)?;
        self.reply(201, &*answered, warnings)
    }

    /// PUT of an object or its `/status`.
    pub async fn update(&self, body: &[u8], media: MediaType) -> Result<Reply, StatusError> {
        let dry_run = self.dry_run()?;
        fieldmanager::validate_field_manager(
            "UpdateOptions",
            self.query.get("fieldManager").map_or("", String::as_str),
        )?;
        let (obj, mut warnings) = self.admit(body, media, Some(&self.info.name)).await?;
        let reset = resets_managed_fields(body, media);
        // PUT replaces: the new object does not depend on the current one, so a retry
        // (possible only without a resourceVersion) writes the same body again.
        let (updated, admitted) = self
            .admitted_update(dry_run, |current| {
                self.track_managed_fields(Some(&*current), obj.deep_copy_object(), reset)
            })
            .await?;
        warnings.extend(admitted);
        self.reply(
            200,
            &*self.to_request_version_async(updated).await?,
            warnings,
        )
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
        fieldmanager::validate_patch_options(
            patch_type == PatchType::Apply,
            self.query.get("fieldManager").map(String::as_str),
            self.query.get("force").map(String::as_str),
        )?;
        if patch_type == PatchType::Apply {
            return self.apply(body, dry_run).await;
        }
        let patch = parse_patch(patch_type, body)?;
        let gvk = self.request_gvk();
        let mut warnings = Vec::new();
        let (updated, admitted) = self
            .admitted_update(dry_run, |current| {
                let current_rv = current
                    .meta()
                    .map(|m| m.resource_version().to_owned())
                    .unwrap_or_default();
                let live = current.deep_copy_object();
                let current = self.to_request_version(current)?;
                let mut doc = to_json(&*current)?;
                apply_patch(&self.request_gv(), &gvk, &patch, &mut doc)?;
                let bytes = serde_json::to_vec(&doc)
                    .map_err(|e| errors::new_internal_error(e.to_string()))?;
                let reset = doc
                    .pointer("/metadata/managedFields")
                    .is_some_and(is_reset_list);
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
                let obj = self.to_storage_version(obj)?;
                self.track_managed_fields(Some(&*live), obj, reset)
            })
            .await?;
        warnings.extend(admitted);
        self.reply(
            200,
            &*self.to_request_version_async(updated).await?,
            warnings,
        )
    }

    /// Server-side apply (`application/apply-patch+yaml`): the YAML configuration merged
    /// into the object by the field manager (created when missing, answered 201), with
    /// conflicts answered 409 unless `force`.
    async fn apply(&self, body: &[u8], dry_run: bool) -> Result<Reply, StatusError> {
        let force = fieldmanager::parse_force(self.query.get("force").map(String::as_str))?;
        let manager = self.manager();
        let validation = self.field_validation()?;
        let text = std::str::from_utf8(body)
            .map_err(|e| errors::new_bad_request(format!("error decoding YAML: {e}")))?;
        let doc = yaml_to_json(text)
            .map_err(|e| errors::new_bad_request(format!("error decoding YAML: {e}")))?;
        let mut warnings: Vec<String> = Vec::new();
        if !doc.duplicate_keys.is_empty() {
            let list: Vec<String> = doc
                .duplicate_keys
                .iter()
                .map(|d| format!("duplicate field {:?}", d.path))
                .collect();
            match validation {
                FieldValidation::Strict => {
                    return Err(errors::new_bad_request(format!(
                        "error strict decoding YAML: {}",
                        list.join(", ")
                    )));
                }
                FieldValidation::Warn => warnings.extend(list),
                FieldValidation::Ignore => {}
            }
        }
        let mut config = doc.value;
        if !config.is_object() {
            return Err(errors::new_bad_request(
                "error decoding YAML: the applied configuration is not an object",
            ));
        }
        let gvk = self.request_gvk();
        let api_version = config
            .get("apiVersion")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let kind = config
            .get("kind")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let (group, version) = api_version.rsplit_once('/').unwrap_or(("", api_version));
        if (group, version, kind) != (gvk.group.as_str(), gvk.version.as_str(), gvk.kind.as_str()) {
            // Go's versionCheckManager.
            return Err(errors::new_bad_request(format!(
                "invalid object type: {group}/{version}, Kind={kind}"
            )));
        }
        let ns = self.namespace().to_owned();
        let name = self.info.name.clone();
        if let Some(meta) = config.get_mut("metadata").and_then(Value::as_object_mut) {
            let asked_ns = meta
                .get("namespace")
                .and_then(Value::as_str)
                .unwrap_or_default();
            if self.store.info().namespaced && !asked_ns.is_empty() && asked_ns != ns {
                return Err(errors::new_bad_request(
                    "the namespace of the provided object does not match the namespace sent on the request",
                ));
            }
            match meta.get("name").and_then(Value::as_str) {
                None | Some("") => {
                    meta.insert("name".into(), Value::from(name.clone()));
                }
                Some(n) if n != name => {
                    return Err(errors::new_bad_request(format!(
                        "the name of the object ({n}) does not match the name on the URL ({name})"
                    )));
                }
                Some(_) => {}
            }
        }
        let types = fieldmanager::types_for(&gvk);
        let converter = self.converter();
        let fm = self.field_manager(&types, &converter);
        let now = fieldmanager::now();
        // An object created or deleted meanwhile is looked up again.
        for _ in 0..4 {
            match self.store.get(&ns, &name).await {
                Err(e) if errors::is_not_found(&e) && self.subresource() == Subresource::Main => {
                    let empty = fieldmanager::empty_object(self.scheme, &gvk);
                    let merged = fm
                        .apply(&empty, &config, &manager, force, &now)
                        .map_err(fieldmanager::apply_error)?
                        .unwrap_or_else(|| config.clone());
                    let bytes = serde_json::to_vec(&merged)
                        .map_err(|e| errors::new_internal_error(e.to_string()))?;
                    let (mut obj, w) = self.decode_body(&bytes, MediaType::Json, &gvk)?;
                    warnings.extend(w);
                    if let Some(meta) = obj.meta_mut() {
                        if self.store.info().namespaced {
                            meta.set_namespace(&ns);
                        }
                    }
                    self.scheme.default(&mut *obj);
                    let obj = self.to_storage_version(obj)?;
                    let (obj, admitted) = self
                        .run_admission(admission::Operation::Create, obj, None, dry_run)
                        .await?;
                    warnings.extend(admitted);
                    match self.store.create(&ns, obj, dry_run).await {
                        Ok(created) => {
                            return self.reply(201, &*self.to_request_version(created)?, warnings);
                        }
                        Err(e) if errors::is_already_exists(&e) => continue,
                        Err(e) => return Err(e),
                    }
                }
                Err(e) => return Err(e),
                Ok(_) => {
                    let mut w_out = Vec::new();
                    let updated = self
                        .admitted_update(dry_run, |current| {
                            let current_rv = current
                                .meta()
                                .map(|m| m.resource_version().to_owned())
                                .unwrap_or_default();
                            let live =
                                to_json(&*self.to_request_version(current.deep_copy_object())?)?;
                            let Some(merged) = fm
                                .apply(&live, &config, &manager, force, &now)
                                .map_err(fieldmanager::apply_error)?
                            else {
                                // Nothing changed: the object as it is, nothing written.
                                return Ok(current);
                            };
                            let bytes = serde_json::to_vec(&merged)
                                .map_err(|e| errors::new_internal_error(e.to_string()))?;
                            let (mut obj, w) = self.decode_body(&bytes, MediaType::Json, &gvk)?;
                            w_out = w;
                            // A configuration that sets resourceVersion makes it a
                            // precondition; otherwise the live one is kept.
                            if let Some(meta) = obj.meta_mut() {
                                if meta.resource_version() == current_rv {
                                    meta.set_resource_version("");
                                }
                            }
                            self.scheme.default(&mut *obj);
                            self.to_storage_version(obj)
                        })
                        .await;
                    match updated {
                        Err(e)
                            if errors::is_not_found(&e)
                                && self.subresource() == Subresource::Main =>
                        {
                            continue;
                        }
                        Err(e) => return Err(e),
                        Ok((updated, admitted)) => {
                            warnings.extend(w_out);
                            warnings.extend(admitted);
                            return self.reply(200, &*self.to_request_version(updated)?, warnings);
                        }
                    }
                }
            }
        }
        Err(errors::new_conflict(
            &self.qualified(),
            &name,
            "the object was created and deleted concurrently too many times; try again",
        ))
    }

    /// DELETE of one object. One removed answers a `Status`, or, for the resources
    /// whose Go store sets `ReturnDeletedObject` (Pods, ServiceAccounts, ...), the
    /// object as it was removed, 200, in the request's version (Go's `finalizeDelete`).
    ///
    /// The resource's hooks run around it: what it needs before the object goes (a CRD's
    /// cleanup finalizer) and what the deletion brings about beside it (a Namespace's
    /// objects go too), reaching the server's other resources through `resources`.
    pub async fn delete(
        &self,
        body: &[u8],
        resources: &dyn Resources,
    ) -> Result<Reply, StatusError> {
        let params = self.delete_params(body)?;
        let ctx = self.context(params.dry_run);
        self.rest.before_delete(&ctx).await?;
        let reply = self.delete_object(&params).await?;
        if !params.dry_run {
            self.rest.after_delete(&ctx, resources).await?;
        }
        Ok(reply)
    }

    async fn delete_object(&self, params: &DeleteParams) -> Result<Reply, StatusError> {
        let (obj, gone, warnings) = self
            .admitted_delete(self.namespace(), &self.info.name, params)
            .await?;
        let returns_object = self.strategy().returns_deleted_object();
        if gone && returns_object {
            return self.reply(200, &*self.to_request_version_async(obj).await?, warnings);
        }
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
        // Marked for deletion (finalizers, a grace period): the object, 200 as in Go;
        // 202 Accepted only when the deprecated `orphanDependents: false` asked for it.
        let code = if params.orphan_dependents == Some(false) {
            202
        } else {
            200
        };
        self.reply(code, &*self.to_request_version_async(obj).await?, warnings)
    }

    fn delete_params(&self, body: &[u8]) -> Result<DeleteParams, StatusError> {
        let mut params = DeleteParams {
            dry_run: self.dry_run()?,
            propagation_policy: self.query.get("propagationPolicy").cloned(),
            ..DeleteParams::default()
        };
        if let Some(g) = self.query.get("gracePeriodSeconds") {
            params.grace_period_seconds = Some(g.parse::<i64>().map_err(|_| {
                errors::new_bad_request(format!("invalid gracePeriodSeconds {g:?}: not an integer"))
            })?);
        }
        if let Some(o) = self.query.get("orphanDependents") {
            params.orphan_dependents = Some(o.parse::<bool>().map_err(|_| {
                errors::new_bad_request(format!("invalid orphanDependents {o:?}: not a boolean"))
            })?);
        }
        if !body.iter().all(u8::is_ascii_whitespace) {
            let v: Value = serde_json::from_slice(body).map_err(|e| {
                errors::new_bad_request(format!(
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
            match v.get("gracePeriodSeconds") {
                None | Some(Value::Null) => {}
                Some(g) => {
                    params.grace_period_seconds = Some(g.as_i64().ok_or_else(|| {
                        errors::new_bad_request(format!(
                            "the body of the request is not valid DeleteOptions: gracePeriodSeconds {g} is not an integer"
                        ))
                    })?);
                }
            }
            if let Some(o) = v.get("orphanDependents").and_then(Value::as_bool) {
                params.orphan_dependents = Some(o);
            }
        }
        if let (Some(_), Some(p)) = (params.orphan_dependents, &params.propagation_policy) {
            return Err(errors::new_invalid(
                &GroupKind::new("meta.k8s.io", "DeleteOptions"),
                "",
                &ErrorList(vec![Error::invalid(
                    &Path::new("propagationPolicy"),
                    p,
                    "orphanDependents and deletionPropagation cannot be both set",
                )]),
            ));
        }
        if params.orphan_dependents == Some(true) {
            params.propagation_policy = Some("Orphan".into());
        }
        if let Some(p) = &params.propagation_policy {
            if !matches!(p.as_str(), "Orphan" | "Background" | "Foreground") {
                return Err(errors::new_invalid(
                    &GroupKind::new("meta.k8s.io", "DeleteOptions"),
                    "",
                    &ErrorList(vec![Error::invalid(
                        &Path::new("propagationPolicy"),
                        p,
                        "propagationPolicy must be one of Orphan, Background or Foreground",
                    )]),
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
                .map_err(|e| errors::new_bad_request(e.to_string()))?,
            fields: fields::Selector::parse(field)
                .map_err(|e| errors::new_bad_request(e.to_string()))?,
        };
        selection
            .check_fields(self.store.info(), self.strategy().selectable_fields())
            .map_err(|e| errors::new_bad_request(e.to_string()))?;
        Ok(selection)
    }

    /// GET of a collection.
    pub async fn list(&self) -> Result<Reply, StatusError> {
        let selection = self.selection()?;
        let limit = match self.query.get("limit").map(String::as_str) {
            None | Some("") => 0,
            Some(l) => {
                let n: i64 = l.parse().map_err(|_| {
                    errors::new_bad_request(format!("invalid limit {l:?}: not an integer"))
                })?;
                if !(0..=MAX_LIMIT).contains(&n) {
                    return Err(errors::new_bad_request(format!(
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
                return Err(errors::new_bad_request(
                    "resourceVersionMatch \"Exact\" is forbidden for resourceVersion \"0\" or unset",
                ));
            }
            Some(other) => {
                return Err(errors::new_bad_request(format!(
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
            return Err(errors::new_bad_request(
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
            self.store.info().list_kind.as_str(),
        );
        let mut list = self.new_list(&list_gvk)?;
        let unstructured = self.strategy().is_unstructured();
        let converted = self.convert_all(page.items, &self.request_gv()).await?;
        if let Some(items) = list.as_list_mut() {
            for mut item in converted {
                // Items of a typed list carry no kind and apiVersion, as Go writes them;
                // a custom resource list's items keep theirs.
                if !unstructured {
                    item.set_group_version_kind(&GroupVersionKind::default());
                }
                items.push_item(item).map_err(|_| {
                    errors::new_internal_error(format!("{list_gvk} does not take its items"))
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
        if self.strategy().is_unstructured() {
            let (api_version, kind) = list_gvk.to_api_version_and_kind();
            let mut map = serde_json::Map::new();
            map.insert("apiVersion".into(), Value::from(api_version));
            map.insert("kind".into(), Value::from(kind.to_owned()));
            map.insert("metadata".into(), serde_json::json!({}));
            map.insert("items".into(), Value::Array(Vec::new()));
            return UnstructuredList::from_map(map)
                .map(|l| Box::new(l) as Box<dyn Object>)
                .map_err(|e| errors::new_internal_error(format!("no list kind {list_gvk}: {e}")));
        }
        let mut list = from_value(self.scheme, list_gvk, serde_json::json!({"items": []}))
            .map_err(|e| errors::new_internal_error(format!("no list kind {list_gvk}: {e:?}")))?;
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
            self.store.info().list_kind.as_str(),
        );
        let mut list = self.new_list(&list_gvk)?;
        for item in items {
            let (ns, name) = item
                .meta()
                .map(|m| (m.namespace().to_owned(), m.name().to_owned()))
                .unwrap_or_default();
            match self.admitted_delete(&ns, &name, &params).await {
                Ok((obj, _, _)) => {
                    let mut obj = self.to_request_version_async(obj).await?;
                    if let Some(items) = list.as_list_mut() {
                        if !self.strategy().is_unstructured() {
                            obj.set_group_version_kind(&GroupVersionKind::default());
                        }
                        items.push_item(obj).map_err(|_| {
                            errors::new_internal_error(format!(
                                "{list_gvk} does not take its items"
                            ))
                        })?;
                    }
                }
                // Deleted by someone else meanwhile: what was asked for happened.
                Err(e) if errors::is_not_found(&e) => {}
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
                    let mut doc = self.scale_of(&*current)?;
                    apply_patch(&self.request_gv(), &scale_gvk, &patch, &mut doc)?;
                    let replicas = doc
                        .pointer("/spec/replicas")
                        .and_then(Value::as_i64)
                        .ok_or_else(|| {
                            errors::new_bad_request(
                                "the patched Scale has no integer spec.replicas",
                            )
                        })?;
                    (replicas, None)
                };
                let (replicas, asked_rv) = replicas;
                if replicas < 0 || replicas > i64::from(i32::MAX) {
                    let spec = Path::new("spec");
                    let error =
                        Error::invalid(&spec.child("replicas"), replicas, IS_NEGATIVE_ERROR_MSG);
                    let scale = GroupKind::new("autoscaling", "Scale");
                    return Err(errors::new_invalid(&scale, &name, &ErrorList(vec![error])));
                }
                let gvk = self.store.info().storage_gvk.clone();
                let scheme = self.scheme.clone();
                let scaler = self.scaler()?;
                let version = self.info.api_version.as_str();
                let (obj, admitted) = self
                    .admitted_update(dry_run, |current| {
                        let mut v = to_json(&*current)?;
                        scaler.set_replicas(version, &mut v, replicas);
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
            other => return Err(method_not_allowed(other, "scale")),
        };
        let scale = from_value(self.scheme, &scale_gvk, self.scale_of(&*obj)?)?;
        self.reply(200, &*scale, warnings)
    }
}

impl Handler<'_> {
    /// The resource's `/scale` view.
    fn scaler(&self) -> Result<&dyn Scaler, StatusError> {
        self.rest
            .scaler()
            .ok_or_else(|| method_not_allowed(&self.info.verb, "scale"))
    }

    /// The `Scale` of a stored object, as its resource's `/scale` shows it.
    fn scale_of(&self, obj: &dyn Object) -> Result<Value, StatusError> {
        Ok(self
            .scaler()?
            .scale_of(&self.info.api_version, &to_json(obj)?))
    }
}

/// Whether a written body sets `metadata.managedFields` to an empty list (or a list of
/// one empty entry): Go's request to clear them. Only JSON and YAML bodies are looked
/// at.
fn resets_managed_fields(body: &[u8], media: MediaType) -> bool {
    let value = match media {
        MediaType::Json => serde_json::from_slice::<Value>(body).ok(),
        MediaType::Yaml => std::str::from_utf8(body)
            .ok()
            .and_then(|t| yaml_to_json(t).ok())
            .map(|d| d.value),
        MediaType::Protobuf => None,
    };
    value
        .as_ref()
        .and_then(|v| v.pointer("/metadata/managedFields"))
        .is_some_and(is_reset_list)
}

fn is_reset_list(v: &Value) -> bool {
    match v.as_array().map(Vec::as_slice) {
        Some([]) => true,
        Some([only]) => only.as_object().is_some_and(serde_json::Map::is_empty),
        _ => false,
    }
}

/// The `resourceVersion` of an object ("" when it has no metadata).
fn resource_version(obj: &dyn Object) -> String {
    obj.meta()
        .map(|m| m.resource_version().to_owned())
        .unwrap_or_default()
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
        PatchType::Json => serde_json::from_slice(body)
            .map(Patch::Json)
            .map_err(|e| errors::new_bad_request(format!("the json patch could not be read: {e}"))),
        PatchType::Merge => serde_json::from_slice(body).map(Patch::Merge).map_err(|e| {
            errors::new_bad_request(format!("the merge patch could not be read: {e}"))
        }),
        PatchType::StrategicMerge => serde_json::from_slice(body)
            .map(Patch::StrategicMerge)
            .map_err(|e| {
                errors::new_bad_request(format!("the strategic merge patch could not be read: {e}"))
            }),
        PatchType::Apply => Err(unsupported_media_type(
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
                    unsupported_media_type(format!(
                        "strategic merge patch is not supported for {gvk}: no OpenAPI schema for it; use a merge or JSON patch"
                    ))
                })?;
            // Go answers each failure with its own code: 400 for a malformed patch,
            // 422 for what cannot be merged, 500 for the rest.
            *doc = strategic_merge_patch(doc, p, &meta).map_err(|e| match e.status_code() {
                400 => errors::new_bad_request(e.to_string()),
                422 => unprocessable_patch(&e.to_string()),
                _ => errors::new_internal_error(e.to_string()),
            })?;
            Ok(())
        }
        Patch::Json(p) => {
            // Go's limits on a JSON patch: at most 10,000 operations, and `copy` may not
            // copy more than the request size limit in all, so that a small patch cannot
            // grow the document exponentially.
            if p.0.len() > MAX_JSON_PATCH_OPERATIONS {
                return Err(errors::new_request_entity_too_large_error(&format!(
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
                        return Err(errors::new_request_entity_too_large_error(&format!(
                            "the JSON patch copies more than {MAX_REQUEST_BODY_BYTES} bytes"
                        )));
                    }
                }
                json_patch::patch(doc, std::slice::from_ref(op))
                    .map_err(|e| unprocessable_patch(&e.to_string()))?;
            }
            Ok(())
        }
        Patch::Merge(p) => {
            if !p.is_object() {
                return Err(errors::new_bad_request(
                    "a merge patch must be a JSON object",
                ));
            }
            json_patch::merge(doc, p);
            Ok(())
        }
    }
}

/// A `resourceVersion` parameter: `""` and `"0"` are 0 (any / most recent), anything
/// else a positive revision.
pub fn parse_resource_version(rv: Option<&String>) -> Result<i64, StatusError> {
    match rv.map(String::as_str) {
        None | Some("") | Some("0") => Ok(0),
        Some(s) => match s.parse::<i64>() {
            Ok(n) if n > 0 => Ok(n),
            _ => Err(errors::new_bad_request(format!(
                "invalid resource version {s:?}: must be a positive integer"
            ))),
        },
    }
}

/// 422 for a patch that cannot be applied (a failed `test`, a missing path).
fn unprocessable_patch(message: &str) -> StatusError {
    StatusError::failure(
        422,
        errors::reason::INVALID,
        format!("the patch could not be applied: {message}"),
    )
}
