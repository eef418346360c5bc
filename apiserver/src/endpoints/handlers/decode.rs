//! Request bodies read as Go's handlers read them: decoded in the body's format (strictly
//! as `fieldValidation` asks), custom resources as unstructured objects their schema
//! prunes, defaults and validates; then the namespace and name checked against the
//! path, defaulted, and converted to the storage version.

use apimachinery::api::errors::{self, StatusError};
use apimachinery::runtime::Object;
use apimachinery::runtime::SchemeErrorKind;
use apimachinery::schema::GroupVersionKind;
use apimachinery::serializer::json::{JsonSerializer, SerializerOptions};
use apimachinery::serializer::protobuf::ProtobufSerializer;
use apimachinery::serializer::yaml::yaml_to_json;
use apimachinery::serializer::{DecodeError, DecodeErrorKind, Decoder};
use serde_json::Value;

use super::Handler;
use crate::endpoints::negotiation::{MediaType, unsupported_media_type};
use crate::endpoints::transform::go_internal_type_name;
use crate::registry::{FieldValidation, convert, from_value, to_json};

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
        self.decode_body_accepting(body, media, expected, &|_| false)
    }

    /// [`decode_body`](Self::decode_body), taking a body of another version of the kind
    /// too when `accepts` says so (Go's `GroupVersionAcceptor`), converted to `expected`.
    pub(crate) fn decode_body_accepting(
        &self,
        body: &[u8],
        media: MediaType,
        expected: &GroupVersionKind,
        accepts: &dyn Fn(&GroupVersionKind) -> bool,
    ) -> Result<(Box<dyn Object>, Vec<String>), StatusError> {
        let validation = self.field_validation(self.options_kind())?;
        // A custom resource's own body is checked by its schema; a body of another kind
        // (an autoscaling/v1 Scale written to its /scale) is a built-in kind's.
        if self.strategy().is_unstructured() && *expected == self.request_gvk() {
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
                _ => return Err(decode_error(&e, expected, body, media)),
            },
        };
        let obj = if gvk.version != expected.version
            && gvk.group == expected.group
            && gvk.kind == expected.kind
            && accepts(&gvk)
        {
            convert(self.scheme, obj, &expected.group_version())?
        } else {
            check_kind(&gvk, expected)?;
            obj
        };
        self.pending_warnings.add(&warnings);
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
                _ => return Err(decode_error(&e, expected, body, media)),
            },
        };
        check_kind(&gvk, expected)?;
        let mut value = to_json(&*obj)?;
        let mut warnings = duplicates;
        let admitted = self.strategy().admit_decoded(
            &expected.version,
            &mut value,
            &self.info.name,
            validation,
            &mut warnings,
        );
        self.pending_warnings.add(&warnings);
        admitted?;
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
    // Most bodies do not name the field at all: then they cannot reset it, and reading
    // the whole document again (about 5% of a small create) is not needed. A key spelled
    // with escapes (`managed\u0046ields`) has a backslash, so such bodies are read.
    if !contains(body, b"managedFields") && !body.contains(&b'\\') {
        return false;
    }
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

/// Whether `needle` (not empty) occurs in `haystack`; the first byte is tested alone
/// first, so that most positions cost one comparison.
fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack
        .windows(needle.len())
        .any(|w| w[0] == needle[0] && w == needle)
}

pub(super) fn is_reset_list(v: &Value) -> bool {
    match v.as_array().map(Vec::as_slice) {
        Some([]) => true,
        Some([only]) => only.as_object().is_some_and(serde_json::Map::is_empty),
        _ => false,
    }
}

/// Go's `transformDecodeError`: a body that does not decode as `expected` is a 400
/// naming the kind the body declared (`ConfigMap in version "v1" cannot be handled as a
/// ConfigMap: <why>`) or, when its kind could not be read, the start of the body.
fn decode_error(
    e: &DecodeError,
    expected: &GroupVersionKind,
    body: &[u8],
    media: MediaType,
) -> StatusError {
    let declared = |gvk: &GroupVersionKind, why: &dyn std::fmt::Display| {
        errors::new_bad_request(format!(
            "{} in version {:?} cannot be handled as a {}: {why}",
            gvk.kind, gvk.version, expected.kind
        ))
    };
    match e.kind() {
        DecodeErrorKind::Strict(strict) => declared(strict.gvk(), strict),
        DecodeErrorKind::Field {
            gvk, path, message, ..
        } => {
            // Go's JSON decoder reports a bad base64 value as the base64 decoder's error
            // alone, without the field or the value.
            match message.split_once(" in \"") {
                Some((go, _)) if go.starts_with("illegal base64 data at input byte ") => {
                    declared(gvk, &go)
                }
                _ => match go_type_mismatch(gvk, path, body, media) {
                    Some(go) => declared(gvk, &go),
                    None if path.is_empty() => declared(gvk, message),
                    None => declared(gvk, &format!("field {path}: {message}")),
                },
            }
        }
        DecodeErrorKind::Scheme(s) => match s.kind() {
            SchemeErrorKind::NotRegisteredKind { gvk, .. } => declared(gvk, s),
            _ => unrecognized(expected, s, body),
        },
        // Go reads the kind first with a JSON parser of its own, whose message this is.
        DecodeErrorKind::Syntax { .. } if media == MediaType::Json => {
            match apimachinery::util::json::check_valid(body) {
                Err(syntax) => unrecognized(
                    expected,
                    &format!("couldn't get version/kind; json parse error: {syntax}"),
                    body,
                ),
                Ok(()) => unrecognized(expected, e, body),
            }
        }
        _ => unrecognized(expected, e, body),
    }
}

/// Go's JSON decoder's words for a value of the wrong JSON type at `path` of a body of
/// built-in kind `gvk` (`json: cannot unmarshal array into Go struct field
/// ConfigMap.data of type map[string]string`), when that is why the decode failed. The
/// body is read again here, on the error path only.
fn go_type_mismatch(
    gvk: &GroupVersionKind,
    path: &str,
    body: &[u8],
    media: MediaType,
) -> Option<String> {
    if path.is_empty() {
        return None;
    }
    let document: Value = match media {
        MediaType::Json => serde_json::from_slice(body).ok()?,
        MediaType::Yaml => yaml_to_json(std::str::from_utf8(body).ok()?).ok()?.value,
        MediaType::Protobuf => return None,
    };
    crate::endpoints::go_type_errors::describe(&gvk.group, &gvk.version, &gvk.kind, path, &document)
}

/// Go's answer to a body whose kind could not be read: the error and the body's first
/// 30 bytes (Go's `summarizeData`: as text for a JSON object, else in hex).
fn unrecognized(
    expected: &GroupVersionKind,
    why: &dyn std::fmt::Display,
    body: &[u8],
) -> StatusError {
    const MAX: usize = 30;
    let head = &body[..body.len().min(MAX)];
    let more = if body.len() > MAX { " ..." } else { "" };
    let summary = match body.first() {
        None => "<empty>".to_owned(),
        Some(b'{') => format!("{}{more}", String::from_utf8_lossy(head)),
        Some(_) => {
            let hex: String = head.iter().map(|b| format!("{b:02x}")).collect();
            format!("{hex}{more}")
        }
    };
    errors::new_bad_request(format!(
        "the object provided is unrecognized (must be of type {}): {why} ({summary})",
        expected.kind
    ))
}

/// A decoded body's kind must be the one its path expects, in the path's version. Go's
/// decoder converts the body's kind to the path's (internal) type and fails, for another
/// kind, as a conversion it does not know.
fn check_kind(gvk: &GroupVersionKind, expected: &GroupVersionKind) -> Result<(), StatusError> {
    if gvk.group != expected.group || gvk.kind != expected.kind {
        let internal = go_internal_type_name(&expected.group, &expected.kind);
        return Err(errors::new_bad_request(format!(
            "{} in version {:?} cannot be handled as a {}: converting ({}.{}) to ({}): unknown conversion",
            gvk.kind,
            gvk.version,
            expected.kind,
            gvk.version,
            gvk.kind,
            internal.trim_start_matches('*')
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

#[cfg(test)]
mod tests {
    use super::*;

    fn message(e: StatusError) -> String {
        e.status.message.clone()
    }

    #[test]
    fn a_reset_of_managed_fields_is_seen_however_the_key_is_spelled() {
        let reset = |body: &str, media| resets_managed_fields(body.as_bytes(), media);
        assert!(reset(
            r#"{"metadata":{"managedFields":[]}}"#,
            MediaType::Json
        ));
        assert!(reset(
            r#"{"metadata":{"managedFields":[{}]}}"#,
            MediaType::Json
        ));
        assert!(reset(
            r#"{"metadata":{"managed\u0046ields":[]}}"#,
            MediaType::Json
        ));
        assert!(reset("metadata:\n  managedFields: []\n", MediaType::Yaml));
        assert!(reset(
            "metadata:\n  \"managed\\x46ields\": []\n",
            MediaType::Yaml
        ));
        assert!(!reset(
            r#"{"metadata":{"managedFields":[{"manager":"a"}]}}"#,
            MediaType::Json
        ));
        assert!(!reset(
            r#"{"metadata":{"name":"a"},"data":{"k":"v"}}"#,
            MediaType::Json
        ));
        assert!(!reset(r#"{"data":{"k":"managedFields"}}"#, MediaType::Json));
        assert!(!reset(
            r#"{"metadata":{"managedFields":[]}}"#,
            MediaType::Protobuf
        ));
    }

    #[test]
    fn decoding_errors_are_worded_as_gos_handlers_word_them() {
        let configmap = GroupVersionKind::new("", "v1", "ConfigMap");
        let secret = GroupVersionKind::new("", "v1", "Secret");
        let bad_base64: DecodeError = DecodeErrorKind::Field {
            gvk: secret.clone(),
            type_name: "Secret",
            path: "data.k".into(),
            position: None,
            message: "illegal base64 data at input byte 3 in \"not base64!\"".into(),
        }
        .into();
        assert_eq!(
            message(decode_error(&bad_base64, &secret, b"{}", MediaType::Json)),
            "Secret in version \"v1\" cannot be handled as a Secret: illegal base64 data at input byte 3"
        );
        let syntax: DecodeError = DecodeErrorKind::Syntax {
            format: apimachinery::serializer::Format::Json,
            position: None,
            message: "EOF".into(),
        }
        .into();
        let body = br#"{"apiVersion":"v1","kind":"ConfigMap","#;
        assert_eq!(
            message(decode_error(&syntax, &configmap, body, MediaType::Json)),
            "the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: unexpected end of JSON input ({\"apiVersion\":\"v1\",\"kind\":\"Con ...)"
        );
        assert_eq!(
            check_kind(&secret, &configmap)
                .err()
                .map(message)
                .as_deref(),
            Some(
                "Secret in version \"v1\" cannot be handled as a ConfigMap: converting (v1.Secret) to (core.ConfigMap): unknown conversion"
            )
        );
        assert!(
            message(unrecognized(&configmap, &"x", b"\x01\x02")).ends_with("x (0102)"),
            "a body that is not a JSON object is summarized in hex"
        );
    }

    /// A value of the wrong JSON type is named as Go's decoder names it, wherever it is.
    #[test]
    fn type_mismatches_are_worded_as_gos_json_decoder_words_them() {
        crate::endpoints::go_type_errors::install(k8s_types::go_json_errors::type_mismatch);
        let mut scheme = apimachinery::runtime::Scheme::with_name("decode-tests");
        scheme.add_registry().unwrap();
        let decode = |gvk: &GroupVersionKind, body: &str, media: MediaType| {
            let e = JsonSerializer::new(
                &scheme,
                SerializerOptions {
                    yaml: media == MediaType::Yaml,
                    pretty: false,
                    strict: true,
                },
            )
            .decode(body.as_bytes(), Some(gvk), None)
            .err()
            .unwrap();
            message(decode_error(&e, gvk, body.as_bytes(), media))
        };
        let configmap = GroupVersionKind::new("", "v1", "ConfigMap");
        assert_eq!(
            decode(
                &configmap,
                r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":[1,2]}"#,
                MediaType::Json
            ),
            "ConfigMap in version \"v1\" cannot be handled as a ConfigMap: json: cannot unmarshal array into Go struct field ConfigMap.data of type map[string]string"
        );
        assert_eq!(
            decode(
                &configmap,
                "apiVersion: v1\nkind: ConfigMap\ndata:\n  a: 1\n",
                MediaType::Yaml
            ),
            "ConfigMap in version \"v1\" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string"
        );
        let pod = GroupVersionKind::new("", "v1", "Pod");
        assert_eq!(
            decode(
                &pod,
                r#"{"apiVersion":"v1","kind":"Pod","spec":{"containers":[{"name":"a","ports":[{"containerPort":"80"}]}]}}"#,
                MediaType::Json
            ),
            "Pod in version \"v1\" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32"
        );
        assert_eq!(
            decode(
                &pod,
                r#"{"apiVersion":"v1","kind":"Pod","spec":{"containers":{"name":"a"}}}"#,
                MediaType::Json
            ),
            "Pod in version \"v1\" cannot be handled as a Pod: json: cannot unmarshal object into Go struct field PodSpec.spec.containers of type []v1.Container"
        );
    }
}
