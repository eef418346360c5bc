//! PATCH of an object or its `/status` (Go's `endpoints/handlers/patch.go`): JSON
//! patch, merge patch and strategic merge patch, within Go's limits; server-side apply
//! is [`apply`](super::apply).

use apimachinery::api::errors::{self, StatusError};
use apimachinery::schema::{GroupResource, GroupVersion, GroupVersionKind};
use apimachinery::util::strategicpatch::{PatchMetaFromOpenApi, strategic_merge_patch};
use serde_json::Value;

use super::decode::is_reset_list;
use super::{Handler, MAX_REQUEST_BODY_BYTES, Reply};
use crate::endpoints::fieldmanager;
use crate::endpoints::negotiation::{MediaType, PatchType, unsupported_media_type};
use crate::registry::to_json;

/// The most operations a JSON patch may have (Go's `maxJSONPatchOperations`).
const MAX_JSON_PATCH_OPERATIONS: usize = 10_000;

impl Handler<'_> {
    /// PATCH of an object or its `/status`.
    pub async fn patch(
        &self,
        body: &[u8],
        content_type: Option<&str>,
    ) -> Result<Reply, StatusError> {
        let patch_type = PatchType::from_content_type(content_type)?;
        let dry_run = self.write_options(
            "PatchOptions",
            fieldmanager::validate_patch_options(
                patch_type == PatchType::Apply,
                self.query.get("fieldManager").map(String::as_str),
                self.query.get("force").map(String::as_str),
            ),
        )?;
        if patch_type == PatchType::Apply {
            return self.apply(body, dry_run).await;
        }
        let patch = parse_patch(patch_type, body)?;
        let gvk = self.request_gvk();
        let mut warnings = Vec::new();
        let (updated, admitted) = self
            .admitted_update(dry_run, None, |current| {
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
}

/// A parsed patch document.
#[derive(Debug)]
pub(super) enum Patch {
    Json(json_patch::Patch),
    Merge(Value),
    StrategicMerge(Value),
}

pub(super) fn parse_patch(patch_type: PatchType, body: &[u8]) -> Result<Patch, StatusError> {
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
pub(super) fn apply_patch(
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
                // A kind with no OpenAPI schema (a custom resource) has no strategic
                // merge patch: Go's handler does not accept the media type for it.
                .ok_or_else(|| {
                    unsupported_media_type(
                        "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml",
                    )
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

/// 422 for a JSON patch that cannot be applied (a failed `test`, a missing path): Go's
/// generic answer, which says nothing of `message`.
fn unprocessable_patch(message: &str) -> StatusError {
    errors::new_generic_server_response(422, "", &GroupResource::default(), "", message, 0, false)
}
