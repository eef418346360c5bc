//! The REST handlers (Go's `endpoints/handlers`), one file per verb: [`get`], [`list`],
//! [`create`], [`update`], [`patch`], [`apply`] (server-side apply), [`delete`] (and
//! deletecollection), [`watch`] and [`scale`], of every served version of every
//! resource, over its [`RestStorage`]. Each request is decoded in its own version
//! ([`decode`]), defaulted, converted to the storage version for the store, admitted
//! ([`admitted`]) with its `managedFields` recorded ([`managed`]), and the answer
//! converted back to the request's version (seed 003's flow). A [`Handler`] is Go's
//! `RequestScope`: what every verb needs of the request and the resource.

use std::collections::BTreeMap;
use std::sync::Arc;

use apimachinery::api::errors::{self, StatusError};
use apimachinery::fields;
use apimachinery::labels;
use apimachinery::runtime::{Object, Scheme};
use apimachinery::schema::{GroupResource, GroupVersion, GroupVersionKind};

use super::negotiation::{Conversion, MediaType};
use super::request_info::RequestInfo;
use super::responsewriters::method_not_allowed;
use super::warning::PendingWarnings;
use crate::admission::Chain;
use crate::authentication::user::Info;
use crate::authorization::Authorizer;
use crate::registry::{
    Context, RestStorage, Selection, Store, Strategy, Subresource, WebhookConverter, convert,
    encode, from_value, to_json,
};

mod admitted;
pub mod apply;
mod apply_body;
pub mod create;
mod decode;
pub mod delete;
pub mod get;
pub mod list;
mod managed;
pub mod options;
pub mod patch;
pub mod scale;
pub mod update;
pub mod watch;

/// The largest request body the server reads (Go's 3 MiB limit).
pub const MAX_REQUEST_BODY_BYTES: usize = 3 * 1024 * 1024;

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
    /// Where warnings are recorded as they arise, for an error answer.
    pub pending_warnings: &'a PendingWarnings,
    /// The server's authorizer, for permissions a verb needs beyond the request's own.
    pub authorizer: &'a dyn Authorizer,
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

    fn subresource(&self) -> Subresource {
        match self.info.subresource.as_str() {
            "status" => Subresource::Status,
            "finalize" => Subresource::Finalize,
            "resize" => Subresource::Resize,
            "ephemeralcontainers" => Subresource::EphemeralContainers,
            "approval" => Subresource::Approval,
            _ => Subresource::Main,
        }
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
            .check_fields(
                self.store.info(),
                self.strategy().selectable_fields(),
                self.strategy().is_unstructured(),
            )
            .map_err(|e| errors::new_bad_request(e.to_string()))?;
        Ok(selection)
    }
}

/// The `resourceVersion` of an object ("" when it has no metadata).
fn resource_version(obj: &dyn Object) -> String {
    obj.meta()
        .map(|m| m.resource_version().to_owned())
        .unwrap_or_default()
}
