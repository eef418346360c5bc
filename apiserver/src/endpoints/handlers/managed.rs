//! `managedFields` on every write (Go's `UpdateNoErrors` of the field manager): the
//! manager of a write and the fields it set, computed at the request's version.

use apimachinery::api::errors::StatusError;
use apimachinery::apis::meta::v1::{FieldsV1, ManagedFieldsEntry, Time};
use apimachinery::managedfields::{FieldManager, ParseableType};
use apimachinery::runtime::Object;
use apimachinery::schema::GroupVersionKind;
use serde_json::Value;

use super::Handler;
use crate::endpoints::fieldmanager::{self, SchemeConverter};
use crate::registry::{Subresource, from_value, to_json};

impl Handler<'_> {
    /// The manager of this write: `fieldManager`, or the user agent's first word.
    pub(super) fn manager(&self) -> String {
        fieldmanager::manager_or_user_agent(
            self.query.get("fieldManager").map(String::as_str),
            self.user_agent,
        )
    }

    pub(super) fn converter(&self) -> SchemeConverter<'_> {
        SchemeConverter {
            scheme: self.scheme,
            gvk: self.request_gvk(),
            served: self.store.info().versions.clone(),
        }
    }

    /// The field manager of the request's kind, version and subresource; a kind's
    /// status is reset on main-resource writes and its spec on `/status` writes, as
    /// Go's strategies do, so neither is owned through the other.
    pub(super) fn field_manager<'b>(
        &self,
        types: &'b ParseableType,
        converter: &'b SchemeConverter<'b>,
    ) -> FieldManager<'b> {
        let subresource = self.subresource();
        let fm = FieldManager::new(
            types,
            &self.request_gv().to_string(),
            match subresource {
                Subresource::Main => "",
                Subresource::Status => "status",
                Subresource::Finalize => "finalize",
                Subresource::Resize => "resize",
                Subresource::EphemeralContainers => "ephemeralcontainers",
                Subresource::Approval => "approval",
            },
            converter,
        );
        let reset = self.store.reset_fields(subresource, &self.info.api_version);
        if reset.is_empty() {
            fm
        } else {
            fm.with_reset_fields(&reset)
        }
    }

    /// Records the create of `obj` (JSON of `kind`, at the request's version) answered
    /// without being stored (a review, a ServiceAccount's `token`) in its
    /// `managedFields`: Go's create handler runs the field manager before any REST
    /// storage's `Create`, so what comes back carries them (and a review's validation
    /// sees them), with the request's subresource named.
    pub(super) fn track_answered_fields(&self, kind: &GroupVersionKind, obj: &mut Value) {
        let types = fieldmanager::types_for(kind);
        let converter = SchemeConverter {
            scheme: self.scheme,
            gvk: kind.clone(),
            served: vec![kind.version.to_string()],
        };
        let fm = FieldManager::new(
            &types,
            &kind.group_version().to_string(),
            &self.info.subresource,
            &converter,
        );
        let empty = fieldmanager::empty_object(self.scheme, kind);
        fm.update(None, &empty, obj, &self.manager(), &fieldmanager::now());
    }

    /// `obj` as JSON at the request's version. An object already at that version (a
    /// write in the storage version, the common case) is written as it is, without the
    /// copy a conversion takes.
    fn json_at_request_version(&self, obj: &dyn Object) -> Result<Value, StatusError> {
        if !obj.is_unstructured() && obj.group_version_kind().group_version() == self.request_gv() {
            return to_json(obj);
        }
        to_json(&*self.to_request_version(obj.deep_copy_object())?)
    }

    /// Records a create, update or patch of `new` (storage version) over `live` in
    /// `new`'s `managedFields` (Go's `UpdateNoErrors`), computed at the request's version.
    /// `reset`: the request set `managedFields` to an empty list (Go's way of clearing
    /// them), which the typed object cannot tell from leaving them out.
    pub(super) fn track_managed_fields(
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
            Some(l) => Some(self.json_at_request_version(l)?),
            None => None,
        };
        let empty = fieldmanager::empty_object(self.scheme, &gvk);
        let mut new_json = self.json_at_request_version(&*new)?;
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
            Some(e) => typed_entries(e)
                .or_else(|| <Vec<ManagedFieldsEntry> as serde::Deserialize>::deserialize(e).ok()),
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
}

/// The entries the field manager wrote (`Managed::encode`: string fields, an RFC 3339
/// `time`, a `fieldsV1` object), typed directly: through serde each entry's JSON would be
/// written out and read back, a tenth of a small create's work. `None` for any other
/// shape, which the caller reads through serde as before.
fn typed_entries(entries: &Value) -> Option<Vec<ManagedFieldsEntry>> {
    entries
        .as_array()?
        .iter()
        .map(|entry| {
            let mut typed = ManagedFieldsEntry::default();
            for (key, value) in entry.as_object()? {
                match (key.as_str(), value) {
                    ("manager", Value::String(s)) => typed.manager.clone_from(s),
                    ("operation", Value::String(s)) => typed.operation.clone_from(s),
                    ("apiVersion", Value::String(s)) => typed.api_version.clone_from(s),
                    ("fieldsType", Value::String(s)) => typed.fields_type.clone_from(s),
                    ("subresource", Value::String(s)) => typed.subresource.clone_from(s),
                    ("time", Value::String(s)) => typed.time = Some(Time::parse_rfc3339(s).ok()?),
                    ("fieldsV1", fields @ Value::Object(_)) => {
                        // What serde's reading of the value keeps: its compact JSON.
                        let raw = serde_json::to_vec(fields).ok()?;
                        typed.fields_v1 = Some(FieldsV1::from_raw(raw));
                    }
                    _ => return None,
                }
            }
            Some(typed)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The direct reading gives what serde's gives, for every field the manager writes,
    /// and leaves other shapes to serde.
    #[test]
    fn typed_entries_read_as_serde_reads_them() {
        let entries = serde_json::json!([
            {"manager": "kubectl", "operation": "Update", "apiVersion": "v1",
             "time": "2026-11-30T10:00:00Z", "fieldsType": "FieldsV1",
             "fieldsV1": {"f:data": {".": {}, "f:key": {}}, "f:metadata": {"f:labels": {"f:app": {}}}}},
            {"manager": "op", "operation": "Apply", "apiVersion": "v1", "fieldsType": "FieldsV1",
             "fieldsV1": {"f:status": {}}, "subresource": "status"}
        ]);
        let via_serde =
            <Vec<ManagedFieldsEntry> as serde::Deserialize>::deserialize(&entries).unwrap();
        assert_eq!(typed_entries(&entries), Some(via_serde));
        assert_eq!(typed_entries(&serde_json::json!([{"manager": 1}])), None);
        assert_eq!(
            typed_entries(&serde_json::json!([{"time": "not a time"}])),
            None
        );
        assert_eq!(typed_entries(&serde_json::json!([{"extra": "x"}])), None);
        assert_eq!(typed_entries(&serde_json::json!([])), Some(Vec::new()));
    }
}
