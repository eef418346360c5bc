//! DELETE of one object or a collection (Go's `endpoints/handlers/delete.go`), with
//! the resource's hooks around a delete.

use apimachinery::api::errors::{self, StatusError};
use apimachinery::apis::meta::v1::{Status, StatusDetails, TypeMeta};
use apimachinery::proto::decode_envelope;
use apimachinery::schema::GroupVersionKind;
use apimachinery::serializer::protobuf::decode_raw_object;
use apimachinery::serializer::yaml::yaml_to_json;
use serde_json::Value;

use super::{Handler, Reply};
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
        let before = self.warnings_before_delete(&params);
        let mut reply = self.delete_one(&params).await?;
        reply.warnings.splice(0..0, before);
        Ok(reply)
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

    pub(super) fn delete_params(
        &self,
        body: &[u8],
        media: MediaType,
    ) -> Result<DeleteParams, StatusError> {
        let mut params = DeleteParams {
            dry_run: self.delete_dry_run()?,
            propagation_policy: self.query.get("propagationPolicy").cloned(),
            api_version: self.info.api_version.clone(),
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
        let mut dry_run_values = Vec::new();
        if !body.iter().all(u8::is_ascii_whitespace) {
            let v = self.delete_options(body, media)?;
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
                dry_run_values = dry
                    .iter()
                    .map(|d| d.as_str().unwrap_or_default().to_owned())
                    .collect();
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
        params.validate(&dry_run_values)?;
        if params.orphan_dependents == Some(true) {
            params.propagation_policy = Some("Orphan".into());
        }
        Ok(params)
    }

    /// DELETE of a collection: every selected object, as one delete each. The answer is
    /// the list as read before the deletes, as Go's `DeleteCollection` answers.
    pub async fn delete_collection(
        &self,
        body: &[u8],
        media: MediaType,
    ) -> Result<Reply, StatusError> {
        let selection = self.selection()?;
        let params = self.delete_params(body, media)?;
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
            MediaType::Json => serde_json::from_slice(body).map_err(|e| invalid(&e)),
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
