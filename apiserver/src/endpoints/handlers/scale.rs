//! GET, PUT and PATCH of `/scale` (Go's `ScaleREST` through the generic handlers): the
//! autoscaling/v1 `Scale` view of an object's replicas, as the resource's
//! [`Scaler`](crate::registry::Scaler) shows and sets them.

use apimachinery::api::errors::{self, StatusError};
use apimachinery::apis::meta::v1::validation::IS_NEGATIVE_ERROR_MSG;
use apimachinery::managedfields::{
    DecodeError, FieldManager, NoConversion, ReplicasPaths, ScaleHandler,
};
use apimachinery::runtime::Object;
use apimachinery::schema::{GroupKind, GroupVersion, GroupVersionKind};
use apimachinery::util::validation::field::{Error, ErrorList, Path};
use serde_json::Value;

use super::patch::{apply_patch, parse_patch};
use super::{Handler, Reply};
use crate::admission;
use crate::endpoints::fieldmanager;
use crate::endpoints::negotiation::PatchType;
use crate::endpoints::responsewriters::method_not_allowed;
use crate::registry::{Scaler, from_value, to_json};

/// The kind a built-in resource's `/scale` serves whatever the version asked for: Go's
/// `ScaleREST` objects are autoscaling/v1 `Scale`s.
pub fn scale_kind() -> GroupVersionKind {
    GroupVersionKind::new("autoscaling", "v1", "Scale")
}

impl Handler<'_> {
    /// GET, PUT or PATCH of `/scale`: the autoscaling/v1 `Scale` view of the object's
    /// replicas.
    pub async fn scale(
        &self,
        method: &str,
        body: &[u8],
        content_type: Option<&str>,
    ) -> Result<Reply, StatusError> {
        let scale_gvk = scale_kind();
        let ns = self.namespace().to_owned();
        let name = self.info.name.clone();
        // Go reads a GET's options as GetOptions, a write's as UpdateOptions or
        // PatchOptions; neither kind of write has a patch's own errors here.
        let dry_run = match method {
            "PUT" => self.write_options("UpdateOptions", ErrorList::default())?,
            "PATCH" => self.write_options("PatchOptions", ErrorList::default())?,
            _ => false,
        };
        let mut warnings = Vec::new();
        let obj = match method {
            "GET" => self.store.get(&ns, &name).await?,
            "PUT" | "PATCH" => {
                let replicas = if method == "PUT" {
                    let media = crate::endpoints::negotiation::negotiate_input(content_type)?;
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
                    .admitted_update(dry_run, None, |current| {
                        let before = to_json(&*current)?;
                        let mut v = before.clone();
                        scaler.set_replicas(version, &mut v, replicas);
                        self.track_scale_managed_fields(&before, &mut v)?;
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

    /// Admits a `/scale` write as Go does: the plugins see autoscaling/v1 `Scale`
    /// objects (old and new), and the replicas they leave are what is written.
    pub(super) async fn admit_scale(
        &self,
        new: Box<dyn Object>,
        current: &dyn Object,
        dry_run: bool,
    ) -> Result<(Box<dyn Object>, Vec<String>), StatusError> {
        let scale_gvk = scale_kind();
        let new_scale = from_value(self.scheme, &scale_gvk, self.scale_of(&*new)?)?;
        let old_scale = from_value(self.scheme, &scale_gvk, self.scale_of(current)?)?;
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

    /// Records a `/scale` write of `after` over `before` (both the parent's JSON, at the
    /// storage version) in `after`'s managedFields as Go's `scaleUpdatedObjectInfo` does:
    /// the field manager runs on the autoscaling/v1 `Scale` (subresource `scale`) over
    /// the parent's entries as the `Scale` sees them, and its result is mapped back.
    fn track_scale_managed_fields(
        &self,
        before: &Value,
        after: &mut Value,
    ) -> Result<(), StatusError> {
        let scaler = self.scaler()?;
        let info = self.store.info();
        let paths: ReplicasPaths = info
            .versions
            .iter()
            .map(|v| {
                let gv = GroupVersion::new(info.group.as_str(), v.as_str()).to_string();
                (gv, scaler.replicas_path(v))
            })
            .collect();
        let internal = |e: DecodeError| errors::new_internal_error(e.to_string());
        let handler = ScaleHandler::new(
            before.pointer("/metadata/managedFields"),
            &self.request_gv().to_string(),
            &paths,
        )
        .map_err(internal)?;
        let version = self.info.api_version.as_str();
        let mut old_scale = scaler.scale_of(version, before);
        set_entries(&mut old_scale, handler.to_subresource());
        let mut new_scale = scaler.scale_of(version, after);
        let scale_gvk = scale_kind();
        let types = fieldmanager::types_for(&scale_gvk);
        FieldManager::new(&types, "autoscaling/v1", "scale", &NoConversion).update(
            Some(&old_scale),
            &fieldmanager::empty_object(self.scheme, &scale_gvk),
            &mut new_scale,
            &self.manager(),
            &fieldmanager::now(),
        );
        let entries = handler
            .to_parent(new_scale.pointer("/metadata/managedFields"))
            .map_err(internal)?;
        set_entries(after, entries);
        Ok(())
    }

    /// The resource's `/scale` view.
    pub(super) fn scaler(&self) -> Result<&dyn Scaler, StatusError> {
        self.rest
            .scaler()
            .ok_or_else(|| method_not_allowed(&self.info.verb, "scale"))
    }

    /// The `Scale` of a stored object, as its resource's `/scale` shows it.
    pub(super) fn scale_of(&self, obj: &dyn Object) -> Result<Value, StatusError> {
        Ok(self
            .scaler()?
            .scale_of(&self.info.api_version, &to_json(obj)?))
    }
}

/// Sets (or, for `None`, removes) an object's `metadata.managedFields`.
fn set_entries(obj: &mut Value, entries: Option<Value>) {
    if let Some(meta) = obj.get_mut("metadata").and_then(Value::as_object_mut) {
        match entries {
            Some(e) => meta.insert("managedFields".into(), e),
            None => meta.remove("managedFields"),
        };
    }
}
