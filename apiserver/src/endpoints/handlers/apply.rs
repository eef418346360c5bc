//! Server-side apply (`application/apply-patch+yaml`, Go's `patch.go` `applyPatcher`):
//! the YAML configuration merged into the object by the field manager (created when
//! missing, answered 201), with conflicts answered 409 unless `force`.

use apimachinery::api::errors::{self, StatusError};
use apimachinery::apis::meta::v1::{FieldsV1, ManagedFieldsEntry, Time};
use apimachinery::runtime::Object;
use apimachinery::schema::GroupVersionKind;
use apimachinery::serializer::yaml::yaml_to_json;
use serde_json::Value;

use super::apply_body::plain_json;
use super::{Handler, Reply};
use crate::endpoints::fieldmanager;
use crate::endpoints::negotiation::MediaType;
use crate::registry::{FieldValidation, Subresource, to_json};

impl Handler<'_> {
    /// Server-side apply (`application/apply-patch+yaml`): the YAML configuration merged
    /// into the object by the field manager (created when missing, answered 201), with
    /// conflicts answered 409 unless `force`.
    pub(super) async fn apply(&self, body: &[u8], dry_run: bool) -> Result<Reply, StatusError> {
        let force = fieldmanager::parse_force(self.query.get("force").map(String::as_str))?;
        let manager = self.manager();
        let validation = self.field_validation("PatchOptions")?;
        let mut warnings: Vec<String> = Vec::new();
        let mut config = match plain_json(body) {
            Some(config) => config,
            None => read_yaml(body, validation, &mut warnings)?,
        };
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
        // An object created or deleted meanwhile is looked up again, in the storage.
        for attempt in 0..4 {
            // Whether it exists, as the watch cache has it (the update below starts from
            // the cached object too, and a create finds an object the cache has not
            // seen yet): Go's apply is an update that creates a missing object, with no
            // read of its own.
            match self.store.read_stored(&ns, &name, attempt > 0).await {
                Err(e) if errors::is_not_found(&e) && self.subresource() == Subresource::Main => {
                    let empty = fieldmanager::empty_object(self.scheme, &gvk);
                    let merged = fm
                        .apply_owned(empty, &config, &manager, force, &now)
                        .map_err(fieldmanager::apply_error)?
                        .unwrap_or_else(|| config.clone());
                    let (mut obj, w) = self.decode_merged(merged, &gvk)?;
                    warnings.extend(w);
                    if let Some(meta) = obj.meta_mut() {
                        if self.store.info().namespaced {
                            meta.set_namespace(&ns);
                        }
                    }
                    self.scheme.default(&mut *obj);
                    let obj = self.to_storage_version(obj)?;
                    match self
                        .admitted_create(obj, dry_run, true, &mut warnings)
                        .await
                    {
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
                        .admitted_update(dry_run, None, |current| {
                            let current_rv = current
                                .meta()
                                .map(|m| m.resource_version().to_owned())
                                .unwrap_or_default();
                            // An object already in the request's version is read as it
                            // is; another is converted from a copy, as `current` is the
                            // answer when nothing changes.
                            let in_request_version =
                                current.group_version_kind().group_version() == self.request_gv();
                            let live = if in_request_version {
                                to_json(&*current)?
                            } else {
                                to_json(&*self.to_request_version(current.deep_copy_object())?)?
                            };
                            let Some(merged) = fm
                                .apply_owned(live, &config, &manager, force, &now)
                                .map_err(fieldmanager::apply_error)?
                            else {
                                // Nothing changed: the object as it is, nothing written.
                                return Ok(current);
                            };
                            let (mut obj, w) = self.decode_merged(merged, &gvk)?;
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

    /// The field manager's merged object as the typed object of `gvk`, read strictly as a
    /// body is (the configuration's unknown fields are its warnings or its error). Its
    /// managedFields, the field manager's own, are set on it typed rather than written
    /// out and read back with the rest: a third of the text otherwise, and the
    /// costliest to read. A custom resource's are left in, for its schema's reading.
    fn decode_merged(
        &self,
        mut merged: Value,
        gvk: &GroupVersionKind,
    ) -> Result<(Box<dyn Object>, Vec<String>), StatusError> {
        let typed_entries = if self.strategy().is_unstructured() {
            None
        } else {
            take_managed_fields(&mut merged)
        };
        let bytes =
            serde_json::to_vec(&merged).map_err(|e| errors::new_internal_error(e.to_string()))?;
        let (mut obj, warnings) = self.decode_body(&bytes, MediaType::Json, gvk)?;
        if let (Some(entries), Some(meta)) = (typed_entries, obj.meta_mut()) {
            meta.set_managed_fields(entries);
        }
        Ok((obj, warnings))
    }
}

/// Takes `metadata.managedFields` out of `merged` as typed entries (none when absent);
/// leaves them in, and answers `None`, when they are not entries as the field manager
/// writes them (the strict decode then reads them, as before).
fn take_managed_fields(merged: &mut Value) -> Option<Vec<ManagedFieldsEntry>> {
    let meta = merged.get_mut("metadata")?.as_object_mut()?;
    let Some(entries) = meta.get("managedFields") else {
        return Some(Vec::new());
    };
    let typed = entries
        .as_array()?
        .iter()
        .map(typed_entry)
        .collect::<Option<Vec<_>>>()?;
    meta.remove("managedFields");
    Some(typed)
}

/// One entry as the strict decode of its JSON text would read it, built from the value
/// (serde's reading of a `Value` into the type writes it out as text first): its strings,
/// its time read as Go's `Time` reads one, its field set as the compact JSON the text
/// would have carried. Anything else (an unknown key, a value of another type, a null)
/// is `None`.
fn typed_entry(entry: &Value) -> Option<ManagedFieldsEntry> {
    let text = |v: &Value| v.as_str().map(str::to_owned);
    let mut typed = ManagedFieldsEntry::default();
    for (key, v) in entry.as_object()? {
        match key.as_str() {
            "manager" => typed.manager = text(v)?,
            "operation" => typed.operation = text(v)?,
            "apiVersion" => typed.api_version = text(v)?,
            "fieldsType" => typed.fields_type = text(v)?,
            "subresource" => typed.subresource = text(v)?,
            "time" if v.is_string() => {
                typed.time = Some(<Time as serde::Deserialize>::deserialize(v).ok()?);
            }
            "fieldsV1" if v.is_object() => typed.fields_v1 = Some(FieldsV1::from_value(v)),
            _ => return None,
        }
    }
    Some(typed)
}

/// The applied configuration read as YAML (Go's `yaml.Unmarshal` of the body), with its
/// repeated keys refused under `Strict` and listed in `warnings` under `Warn`.
fn read_yaml(
    body: &[u8],
    validation: FieldValidation,
    warnings: &mut Vec<String>,
) -> Result<Value, StatusError> {
    let text = std::str::from_utf8(body)
        .map_err(|e| errors::new_bad_request(format!("error decoding YAML: {e}")))?;
    let doc = yaml_to_json(text)
        .map_err(|e| errors::new_bad_request(format!("error decoding YAML: {e}")))?;
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
    Ok(doc.value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The entries taken typed are the ones their JSON text reads as: strings, the time
    /// and the field set's compact bytes alike.
    #[test]
    fn managed_fields_taken_typed_read_as_their_text_does() {
        let mut merged = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {
        "name": "a",
        "managedFields": [
            {"manager": "bench", "operation": "Apply", "apiVersion": "v1",
             "time": "2026-11-30T15:50:27Z", "fieldsType": "FieldsV1",
             "fieldsV1": {"f:data": {"f:key": {}}}},
            {"manager": "kubectl", "operation": "Update", "apiVersion": "v1",
             "time": "2026-11-30T15:50:26Z", "fieldsType": "FieldsV1",
             "fieldsV1": {"f:data": {".": {}, "f:k": {}},
                          "f:metadata": {"f:labels": {"f:a<b&c": {}}}},
             "subresource": "status"}
        ]}});
        let text = serde_json::to_vec(&merged["metadata"]["managedFields"]).unwrap();
        let read: Vec<ManagedFieldsEntry> = serde_json::from_slice(&text).unwrap();
        assert_eq!(take_managed_fields(&mut merged), Some(read));
        assert_eq!(merged["metadata"], json!({"name": "a"}));
    }

    #[test]
    fn entries_the_field_manager_does_not_write_are_left_for_the_decoder() {
        for entries in [
            json!([{"manager": "x", "unknown": 1}]),
            json!([{"manager": 1}]),
            json!([{"time": null}]),
            json!([{"fieldsV1": null}]),
            json!({"manager": "x"}),
        ] {
            let mut merged = json!({"metadata": {"managedFields": entries.clone()}});
            assert_eq!(take_managed_fields(&mut merged), None, "{entries}");
            assert_eq!(merged["metadata"]["managedFields"], entries);
        }
        let mut none = json!({"metadata": {"name": "a"}});
        assert_eq!(take_managed_fields(&mut none), Some(Vec::new()));
    }
}
