//! Request bodies read as Go's handlers read them: decoded in the body's format (strictly
//! as `fieldValidation` asks), custom resources as unstructured objects their schema
//! prunes, defaults and validates; then the namespace and name checked against the
//! path, defaulted, and converted to the storage version.

use apimachinery::api::errors::{self, StatusError};
use apimachinery::runtime::Object;
use apimachinery::schema::GroupVersionKind;
use apimachinery::serializer::Decoder;
use apimachinery::serializer::json::{JsonSerializer, SerializerOptions};
use apimachinery::serializer::protobuf::ProtobufSerializer;
use apimachinery::serializer::yaml::yaml_to_json;
use serde_json::Value;

use super::Handler;
use crate::endpoints::negotiation::{MediaType, unsupported_media_type};
use crate::registry::{FieldValidation, from_value, to_json};

impl Handler<'_> {
    /// Decodes a request body of kind `expected`: in the body's format, strictly unless
    /// `fieldValidation=Ignore`; unknown and duplicate fields are a BadRequest under
    /// Strict and warnings under Warn.
    pub(crate) fn decode_body(
        &self,
        body: &[u8],
        media: MediaType,
        expected: &GroupVersionKind,
    ) -> Result<(Box<dyn Object>, Vec<String>), StatusError> {
        let validation = self.field_validation(self.options_kind())?;
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
        check_kind(&gvk, expected)?;
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
        check_kind(&gvk, expected)?;
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
    pub(super) async fn admit(
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
}

/// Whether a written body sets `metadata.managedFields` to an empty list (or a list of
/// one empty entry): Go's request to clear them. Only JSON and YAML bodies are looked
/// at.
pub(super) fn resets_managed_fields(body: &[u8], media: MediaType) -> bool {
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

pub(super) fn is_reset_list(v: &Value) -> bool {
    match v.as_array().map(Vec::as_slice) {
        Some([]) => true,
        Some([only]) => only.as_object().is_some_and(serde_json::Map::is_empty),
        _ => false,
    }
}

/// A decoded body's kind must be the one its path expects, in the path's version.
fn check_kind(gvk: &GroupVersionKind, expected: &GroupVersionKind) -> Result<(), StatusError> {
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
    Ok(())
}
