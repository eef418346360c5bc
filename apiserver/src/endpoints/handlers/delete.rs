//! DELETE of one object or a collection (Go's `endpoints/handlers/delete.go`), with
//! the resource's hooks around a delete.
//!
//! The `DeleteOptions` come from the body when there is one, in the body's format and
//! any group version, and only otherwise from the query (as Go's parameter codec reads
//! it): a `dryRun=All` in the query beside a body is not read, as kube-apiserver does
//! not read it. `ignoreStoreReadErrorWithClusterBreakingPotential` (Kubernetes 1.37)
//! deletes an object the storage cannot decode, for a user who may also do
//! `unsafe-delete-ignore-read-errors` on the resource (see
//! [`Store::delete_corrupt`](crate::registry::Store::delete_corrupt)).

use apimachinery::api::errors::{self, StatusError};
use apimachinery::apis::meta::v1::{Status, StatusDetails, TypeMeta};
use apimachinery::proto::decode_envelope;
use apimachinery::schema::{GroupKind, GroupResource, GroupVersionKind};
use apimachinery::serializer::json::type_meta_mismatch;
use apimachinery::serializer::protobuf::decode_raw_object;
use apimachinery::serializer::yaml::yaml_to_json;
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path, go_quote};
use serde_json::Value;

use super::options::{parse_int, parse_pointer_bool};
use super::{Handler, Reply};
use crate::authorization::{Attributes, Decision};
use crate::endpoints::negotiation::MediaType;
use crate::endpoints::responsewriters::status_json;
use crate::registry::{DeleteParams, ListParams, to_json};

impl Handler<'_> {
    /// DELETE of one object. One removed answers a `Status`, or, for the resources
    /// whose Go store sets `ReturnDeletedObject` (Pods, ServiceAccounts, ...), the
    /// object as it was removed, 200, in the request's version (Go's `finalizeDelete`).
    ///
    /// A resource may do the delete's work itself instead (a CRD's or a Namespace's
    /// first delete marks it terminating).
    pub async fn delete(&self, body: &[u8], media: MediaType) -> Result<Reply, StatusError> {
        let params = self.delete_params(body, media)?;
        if params.ignore_store_read_error {
            return self.delete_corrupt(&params).await;
        }
        let before = self.warnings_before_delete(&params);
        let mut reply = self.delete_one(&params).await?;
        reply.warnings.splice(0..0, before);
        Ok(reply)
    }

    /// An unsafe delete (`ignoreStoreReadErrorWithClusterBreakingPotential`) as Go's
    /// handler runs one: only of a resource itself, by a user who may also do
    /// `unsafe-delete-ignore-read-errors` on it; the object goes without being read (see
    /// [`Store::delete_corrupt`](crate::registry::Store::delete_corrupt)), so the answer
    /// is a `Status` naming the kind, not the object.
    async fn delete_corrupt(&self, params: &DeleteParams) -> Result<Reply, StatusError> {
        let resource =
            GroupResource::new(self.info.api_group.as_str(), self.info.resource.as_str());
        let forbidden = |why: String| errors::new_forbidden(&resource, &self.info.name, why);
        if !self.info.subresource.is_empty() {
            return Err(forbidden(
                "ignoreStoreReadErrorWithClusterBreakingPotential delete option is not allowed on a subresource or non-resource request".to_owned(),
            ));
        }
        let verb = "unsafe-delete-ignore-read-errors";
        let attributes = Attributes {
            verb: verb.to_owned(),
            path: String::new(),
            ..Attributes::for_resource(self.user.clone(), self.info, "")
        };
        let (decision, reason) = self.authorizer.authorize(&attributes).await;
        if decision != Decision::Allow {
            return Err(forbidden(format!(
                "not permitted to do {verb:?}, reason: {reason}"
            )));
        }
        self.store
            .delete_corrupt(self.namespace(), &self.info.name, params.dry_run)
            .await?;
        let status = Status {
            type_meta: TypeMeta {
                kind: "Status".into(),
                api_version: "v1".into(),
            },
            status: "Success".into(),
            code: 200,
            details: Some(StatusDetails {
                name: self.info.name.clone(),
                kind: self.store.info().kind.clone(),
                ..StatusDetails::default()
            }),
            ..Status::default()
        };
        Ok(Reply {
            code: 200,
            content_type: "application/json",
            body: status_json(&status),
            warnings: Vec::new(),
        })
    }

    /// The resource's warnings on a delete (Go's REST storages add them before deleting):
    /// recorded for an error answer, and returned to go first in a successful one.
    fn warnings_before_delete(&self, params: &DeleteParams) -> Vec<String> {
        let warnings = self.strategy().warnings_on_delete(params);
        self.pending_warnings.add(&warnings);
        warnings
    }

    async fn delete_one(&self, params: &DeleteParams) -> Result<Reply, StatusError> {
        let ctx = self.context(params.dry_run);
        if self.rest.deletes_itself() {
            // Admitted first, as Go's registry calls its deleteValidation before its own
            // write (a delete the hook leaves to the store is admitted there again).
            let current = self.store.get(self.namespace(), &self.info.name).await?;
            let (_, warnings) = self
                .run_admission_of(
                    crate::admission::Operation::Delete,
                    self.request_gvk(),
                    None,
                    Some(current),
                    params.dry_run,
                )
                .await?;
            if let Some(marked) = self.rest.before_delete(&ctx, params).await? {
                let marked = self.to_request_version_async(marked).await?;
                return self.reply(200, &*marked, warnings);
            }
        }
        self.delete_object(params).await
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

    /// The request's `DeleteOptions`, read as Go's handlers read them: from the body when
    /// it has one, and only otherwise from the query, so that a `dryRun` or
    /// `gracePeriodSeconds` in the query beside a body is not read at all. Then Go's
    /// `ValidateDeleteOptions`.
    pub(super) fn delete_params(
        &self,
        body: &[u8],
        media: MediaType,
    ) -> Result<DeleteParams, StatusError> {
        let (mut params, dry_run_values) = if body.is_empty() {
            self.query_delete_params()?
        } else {
            self.body_delete_params(body, media)?
        };
        // Kubernetes 1.36 leaves its `AllowUnsafeMalformedObjectDeletion` gate off,
        // and Go then drops the option before validating.
        if !cfg!(feature = "v1_37") {
            params.ignore_store_read_error = false;
        }
        params.validate(&dry_run_values)?;
        if params.orphan_dependents == Some(true) {
            params.propagation_policy = Some("Orphan".into());
        }
        Ok(params)
    }

    /// `DeleteOptions` from the query (Go's parameter codec), with its `dryRun` values.
    fn query_delete_params(&self) -> Result<(DeleteParams, Vec<String>), StatusError> {
        let dry_run_values: Vec<String> = self.query.get("dryRun").cloned().into_iter().collect();
        let params = DeleteParams {
            dry_run: !dry_run_values.is_empty(),
            propagation_policy: self.query.get("propagationPolicy").cloned(),
            grace_period_seconds: self
                .query
                .get("gracePeriodSeconds")
                .map(|g| parse_int(g))
                .transpose()?,
            orphan_dependents: self
                .query
                .get("orphanDependents")
                .map(|o| parse_pointer_bool(o)),
            ignore_store_read_error: self
                .query
                .get("ignoreStoreReadErrorWithClusterBreakingPotential")
                .is_some_and(|o| parse_pointer_bool(o)),
            api_version: self.info.api_version.clone(),
            ..DeleteParams::default()
        };
        Ok((params, dry_run_values))
    }

    /// `DeleteOptions` from a body in the request's format, with its `dryRun` values.
    fn body_delete_params(
        &self,
        body: &[u8],
        media: MediaType,
    ) -> Result<(DeleteParams, Vec<String>), StatusError> {
        let v = self.delete_options(body, media)?;
        if let Some(why) = type_meta_mismatch(&v)
            .or_else(|| not_delete_options(&v))
            .or_else(|| type_mismatch(&v))
        {
            return Err(errors::new_bad_request(why));
        }
        let dry_run_values = DeleteParams::dry_run_values(&v);
        let grace_period_seconds = match v.get("gracePeriodSeconds") {
            None | Some(Value::Null) => None,
            Some(g) => Some(g.as_i64().ok_or_else(|| {
                errors::new_bad_request(format!(
                    "the body of the request is not valid DeleteOptions: gracePeriodSeconds {g} is not an integer"
                ))
            })?),
        };
        let params = DeleteParams {
            grace_period_seconds,
            ..DeleteParams::from_options(&v, &self.info.api_version)
        };
        Ok((params, dry_run_values))
    }

    /// DELETE of a collection: every selected object, as one delete each. The answer is
    /// the list as read before the deletes, as Go's `DeleteCollection` answers.
    pub async fn delete_collection(
        &self,
        body: &[u8],
        media: MediaType,
    ) -> Result<Reply, StatusError> {
        let selection = self.selection()?;
        // Go decodes and validates the query as ListOptions first (a `watch` in it
        // makes them a watch's).
        let watch = matches!(
            self.query.get("watch").map(String::as_str),
            Some("true" | "1")
        );
        self.list_options(watch)?;
        let params = self.delete_params(body, media)?;
        if params.ignore_store_read_error {
            return Err(errors::new_invalid(
                &GroupKind::new("meta.k8s.io", "DeleteOptions"),
                "",
                &ErrorList::from(vec![Error::invalid(
                    &Path::new("ignoreStoreReadErrorWithClusterBreakingPotential"),
                    BadValue::Bool(true),
                    "is not allowed with DELETECOLLECTION, try again after removing the option",
                )]),
            ));
        }
        let warnings = self.warnings_before_delete(&params);
        let page = self
            .store
            .list(
                self.info.namespace.as_deref(),
                &ListParams {
                    selection,
                    ..ListParams::default()
                },
            )
            .await?;
        for item in &page.items {
            let (ns, name) = item
                .meta()
                .map(|m| (m.namespace().to_owned(), m.name().to_owned()))
                .unwrap_or_default();
            match self.admitted_delete(&ns, &name, &params).await {
                // Deleted by someone else meanwhile: what was asked for happened.
                Ok(_) => {}
                Err(e) if errors::is_not_found(&e) => {}
                Err(e) => return Err(e),
            }
        }
        let mut list = self.list_of(page.items).await?;
        if let Some(meta) = list.list_meta_mut() {
            meta.set_resource_version(&page.resource_version.to_string());
        }
        self.reply(200, &*list, warnings)
    }
}

impl Handler<'_> {
    /// A DELETE body read in its own format, as Go's handler reads it with the meta
    /// codecs: JSON, YAML, or protobuf (what client-go's typed clients and Go's
    /// controller-runtime send for built-in resources), whose envelope names
    /// `DeleteOptions` in whichever group version the client registered it (every group
    /// version has it, as in Go).
    fn delete_options(&self, body: &[u8], media: MediaType) -> Result<Value, StatusError> {
        let invalid = |e: &dyn std::fmt::Display| {
            errors::new_bad_request(format!(
                "the body of the request is not valid DeleteOptions: {e}"
            ))
        };
        match media {
            MediaType::Json => {
                // Go reads the kind first, with a JSON parser whose words these are; its
                // error is answered as it is.
                if let Err(syntax) = apimachinery::util::json::check_valid(body) {
                    return Err(errors::new_bad_request(format!(
                        "couldn't get version/kind; json parse error: {syntax}"
                    )));
                }
                serde_json::from_slice(body).map_err(|e| invalid(&e))
            }
            MediaType::Yaml => {
                let text = std::str::from_utf8(body).map_err(|e| invalid(&e))?;
                yaml_to_json(text)
                    .map(|doc| doc.value)
                    .map_err(|e| invalid(&e))
            }
            MediaType::Protobuf => {
                let envelope = decode_envelope(body).map_err(|e| invalid(&e))?;
                if envelope.kind != "DeleteOptions" {
                    return Err(invalid(&format_args!(
                        "the envelope holds a {:?}",
                        envelope.kind
                    )));
                }
                let gvk = GroupVersionKind::new("meta.k8s.io", "v1", "DeleteOptions");
                let options =
                    decode_raw_object(self.scheme, &gvk, envelope.raw).map_err(|e| invalid(&e))?;
                to_json(&*options)
            }
        }
    }
}

/// Go's meta codecs refusing a body that declares another kind than `DeleteOptions`
/// (which they take in any group version; an empty kind is `DeleteOptions`, an empty
/// version `meta.k8s.io/v1`): the other options kinds they know there decode but do not
/// convert, the rest are unknown to them.
fn not_delete_options(options: &Value) -> Option<String> {
    let text = |key: &str| options.get(key).and_then(Value::as_str).unwrap_or_default();
    let kind = text("kind");
    let version = match text("apiVersion") {
        "" => "meta.k8s.io/v1",
        version => version,
    };
    // CreateOptions and UpdateOptions are registered in every version, as DeleteOptions
    // is; the others in meta.k8s.io/v1 only.
    let known = match kind {
        "" | "DeleteOptions" => return None,
        "CreateOptions" | "UpdateOptions" => true,
        "GetOptions" | "ListOptions" | "PatchOptions" => version == "meta.k8s.io/v1",
        _ => false,
    };
    Some(if known {
        format!("converting (v1.{kind}) to (v1.DeleteOptions): unknown conversion")
    } else {
        format!(
            "no kind {} is registered for version {} in scheme \"pkg/runtime/scheme.go:111\"",
            go_quote(kind),
            go_quote(version)
        )
    })
}

/// Whether a JSON value fits a field's Go type.
type Fits = fn(&Value) -> bool;

/// The first field of a `DeleteOptions` body (in Go's struct order) whose JSON type does
/// not fit it, in Go's JSON decoder's words, as Go's handler answers them.
fn type_mismatch(options: &Value) -> Option<String> {
    let integer: Fits = |v| v.is_i64();
    let strings: Fits = |v| {
        v.as_array()
            .is_some_and(|items| items.iter().all(Value::is_string))
    };
    let fields: [(&str, Fits); 6] = [
        ("gracePeriodSeconds", integer),
        ("preconditions", Value::is_object),
        ("orphanDependents", Value::is_boolean),
        ("propagationPolicy", Value::is_string),
        ("dryRun", strings),
        (
            "ignoreStoreReadErrorWithClusterBreakingPotential",
            Value::is_boolean,
        ),
    ];
    let (path, _) = fields
        .into_iter()
        .find(|(name, fits)| options.get(name).is_some_and(|v| !v.is_null() && !fits(v)))?;
    let path = match options.get(path).and_then(Value::as_array) {
        // Go names the element's type when the list itself fits.
        Some(items) => match items.iter().position(|v| !v.is_string()) {
            Some(i) => format!("{path}[{i}]"),
            None => path.to_owned(),
        },
        None => path.to_owned(),
    };
    crate::endpoints::go_type_errors::describe("meta.k8s.io", "v1", "DeleteOptions", &path, options)
}
