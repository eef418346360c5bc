//! Conversion webhooks for custom resources (Go's `pkg/webhook/conversion`): the
//! [`ConversionHandler`] answers the `apiextensions.k8s.io/v1` `ConversionReview`s the
//! API server sends for a CRD whose `conversion.strategy` is `Webhook`, converting each
//! object through the Scheme (its hub and `#[derive(Convert)]` or hand-written
//! conversions, as for built-in types); [`check_round_trips`] is the test a user runs
//! on their own types to see that no version loses anything.
//!
//! Go's handler finds a kind's hub through the `Hub`/`Convertible` interfaces; here the
//! Scheme's conversion routes are used as they are: a direct function between the two
//! versions, else the group's `__internal` hub (a storage version may serve as its own
//! hub by being registered in `__internal` too, `extra_versions = ["__internal"]`).

use std::sync::Arc;

use apimachinery::runtime::{Object, Scheme};
use apimachinery::schema::{GroupVersion, GroupVersionKind};
use apimachinery::serializer::json::{JsonSerializer, SerializerOptions};
use apimachinery::serializer::{Decoder, Encoder};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What the API server asks (apiextensions/v1 `ConversionRequest`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ConversionRequest {
    /// The request's id, echoed in the response.
    pub uid: String,
    /// The `apiVersion` every object is to be converted to.
    #[serde(rename = "desiredAPIVersion")]
    pub desired_api_version: String,
    /// The objects, each with its own `apiVersion` and `kind`.
    pub objects: Vec<Value>,
}

/// What the handler answers (apiextensions/v1 `ConversionResponse`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ConversionResponse {
    /// The request's uid.
    pub uid: String,
    /// The converted objects, in the request's order (empty on failure).
    pub converted_objects: Vec<Value>,
    /// `None` on success; why the conversion failed otherwise.
    pub failure: Option<String>,
}

impl ConversionResponse {
    /// The response as JSON: `result` is a `Status` of `Success`, or of `Failure` with
    /// the message; `convertedObjects` is `null` on failure, as Go writes a nil slice.
    pub fn to_json(&self) -> Value {
        let mut result = serde_json::json!({"metadata": {}});
        let converted = match &self.failure {
            None => {
                result["status"] = "Success".into();
                Value::from(self.converted_objects.clone())
            }
            Some(message) => {
                result["status"] = "Failure".into();
                result["message"] = message.clone().into();
                Value::Null
            }
        };
        serde_json::json!({"uid": self.uid, "convertedObjects": converted, "result": result})
    }
}

/// Why an object could not be converted. Its `Display` is what the API server reads in
/// the response's `result.message`.
#[derive(Debug, thiserror::Error)]
pub enum ConversionFailure {
    /// The object's `apiVersion` and `kind` could not be read, or it does not decode
    /// into its registered type.
    #[error("object {index}: {message}")]
    Decode {
        /// Its position in `request.objects`.
        index: usize,
        /// Why.
        message: String,
    },
    /// `desiredAPIVersion` is not a group version.
    #[error("invalid desiredAPIVersion {desired:?}: {message}")]
    DesiredVersion {
        /// As sent.
        desired: String,
        /// Why.
        message: String,
    },
    /// The object would be converted to another group (Go's message).
    #[error("src {from} and dst {to} does not belong to same API Group")]
    OtherGroup {
        /// The source type.
        from: String,
        /// The destination kind.
        to: String,
    },
    /// The object already is of the desired version (Go refuses it too).
    #[error("conversion is not allowed between same type {type_name}")]
    SameType {
        /// The object's type.
        type_name: &'static str,
    },
    /// The Scheme has no type for the desired version of the kind.
    #[error("{object}: {message}")]
    NotRegistered {
        /// The object (`apiVersion, Kind=kind namespace/name`).
        object: String,
        /// The Scheme's message.
        message: String,
    },
    /// No conversion route between the two types (Go's "not convertible").
    #[error("{object}: {from} is not convertible to {to}")]
    NotConvertible {
        /// The object.
        object: String,
        /// The source type.
        from: &'static str,
        /// The destination type.
        to: String,
    },
    /// The conversion function failed.
    #[error("{object}: converting to {to}: {message}")]
    Convert {
        /// The object.
        object: String,
        /// The desired group version kind.
        to: String,
        /// Why (with the field path the conversion names).
        message: String,
    },
    /// The converted object could not be written as JSON.
    #[error("{object}: encoding the converted object: {message}")]
    Encode {
        /// The object.
        object: String,
        /// Why.
        message: String,
    },
}

/// Answers `ConversionReview`s through a [`Scheme`] (Go's `conversion.NewWebhookHandler`):
/// register it on the webhook [`Server`](super::Server) with
/// [`register_conversion`](super::Server::register_conversion), usually at `/convert`,
/// and point the CRD's `spec.conversion.webhook.clientConfig` at it.
///
/// ```standalone_crate
/// use std::sync::Arc;
/// use apimachinery::runtime::Scheme;
/// use controller_runtime::webhook::conversion::{ConversionHandler, ConversionRequest};
///
/// pub mod v1 {
///     use apimachinery::{ApiObject, Convert, apis::meta::v1::ObjectMeta};
///     // v1 is the hub: it is its group's `__internal` version too.
///     #[derive(ApiObject, Clone, Debug, Default, PartialEq)]
///     #[api(group = "example.com", version = "v1", kind = "Gadget", extra_versions = ["__internal"])]
///     pub struct Gadget { pub metadata: ObjectMeta, pub replicas: i64 }
/// }
/// pub mod v1beta1 {
///     use apimachinery::{ApiObject, Convert, apis::meta::v1::ObjectMeta};
///     #[derive(ApiObject, Convert, Clone, Debug, Default, PartialEq)]
///     #[api(group = "example.com", version = "v1beta1", kind = "Gadget")]
///     #[conversion(hub = super::v1::Gadget)]
///     pub struct Gadget {
///         pub metadata: ObjectMeta,
///         #[conversion(rename = "replicas")]
///         pub size: i64,
///     }
/// }
///
/// fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let handler = ConversionHandler::new(Arc::new(Scheme::from_registry()?));
/// let response = handler.handle(&ConversionRequest {
///     uid: "u-1".into(),
///     desired_api_version: "example.com/v1".into(),
///     objects: vec![serde_json::json!({"apiVersion": "example.com/v1beta1", "kind": "Gadget",
///                                      "metadata": {"name": "g"}, "size": 3})],
/// });
/// assert_eq!(response.failure, None);
/// assert_eq!(response.converted_objects[0]["replicas"], 3);
/// assert_eq!(response.converted_objects[0]["apiVersion"], "example.com/v1");
/// # Ok(()) }
/// ```
#[derive(Clone, Debug)]
pub struct ConversionHandler {
    scheme: Arc<Scheme>,
}

impl ConversionHandler {
    /// A handler converting with `scheme`'s types and conversions.
    pub fn new(scheme: Arc<Scheme>) -> Self {
        ConversionHandler { scheme }
    }

    /// Converts every object of `request` to its `desiredAPIVersion`. The first object
    /// that cannot be converted fails the whole response, as Go's handler does (the API
    /// server then fails the client's request).
    pub fn handle(&self, request: &ConversionRequest) -> ConversionResponse {
        let converted = request
            .objects
            .iter()
            .enumerate()
            .map(|(i, o)| self.convert_one(i, o, &request.desired_api_version))
            .collect::<Result<Vec<_>, _>>();
        match converted {
            Ok(objects) => ConversionResponse {
                uid: request.uid.clone(),
                converted_objects: objects,
                failure: None,
            },
            Err(why) => ConversionResponse {
                uid: request.uid.clone(),
                converted_objects: Vec::new(),
                failure: Some(why.to_string()),
            },
        }
    }

    /// Answers a whole `ConversionReview` (the request body): the review with its
    /// `request` replaced by the `response`, or `None` when it holds no request (Go
    /// answers that with a bare 400).
    pub fn review(&self, review: &Value) -> Option<Value> {
        let request = review.get("request").filter(|r| r.is_object())?;
        let request = match serde_json::from_value::<ConversionRequest>(request.clone()) {
            Ok(r) => r,
            Err(e) => {
                let uid = request.get("uid").and_then(Value::as_str).unwrap_or("");
                let failure = ConversionResponse {
                    uid: uid.to_owned(),
                    converted_objects: Vec::new(),
                    failure: Some(format!("reading the conversion request: {e}")),
                };
                return Some(reply(review, failure));
            }
        };
        Some(reply(review, self.handle(&request)))
    }

    fn convert_one(
        &self,
        index: usize,
        raw: &Value,
        desired: &str,
    ) -> Result<Value, ConversionFailure> {
        let decode_err = |message: String| ConversionFailure::Decode { index, message };
        let bytes = serde_json::to_vec(raw).map_err(|e| decode_err(e.to_string()))?;
        let (obj, src) = JsonSerializer::new(&self.scheme, SerializerOptions::default())
            .decode(&bytes, None, None)
            .map_err(|e| decode_err(e.to_string()))?;
        let object = describe(&src, &*obj);
        let target: GroupVersion =
            desired
                .parse()
                .map_err(|e: apimachinery::schema::ParseGroupVersionError| {
                    ConversionFailure::DesiredVersion {
                        desired: desired.to_owned(),
                        message: e.to_string(),
                    }
                })?;
        let dst = target.with_kind(src.kind.clone());
        if dst.group != src.group {
            return Err(ConversionFailure::OtherGroup {
                from: obj.type_name().to_owned(),
                to: dst.to_string(),
            });
        }
        if dst == src {
            return Err(ConversionFailure::SameType {
                type_name: obj.type_name(),
            });
        }
        let Some(dst_type) = self.scheme.object_type(&dst) else {
            return Err(ConversionFailure::NotRegistered {
                object,
                message: self.scheme.not_registered(&dst).to_string(),
            });
        };
        let (from, to) = (obj.type_name(), dst_type.type_name().to_owned());
        let converted =
            self.scheme
                .convert_to_version(obj, &target)
                .map_err(|e| match e.kind() {
                    apimachinery::conversion::ConversionErrorKind::NoConversion { .. } => {
                        ConversionFailure::NotConvertible {
                            object: object.clone(),
                            from,
                            to: to.clone(),
                        }
                    }
                    _ => ConversionFailure::Convert {
                        object: object.clone(),
                        to: dst.to_string(),
                        message: e.to_string(),
                    },
                })?;
        encode(&self.scheme, &*converted).map_err(|message| ConversionFailure::Encode {
            object: object.clone(),
            message,
        })
    }
}

/// The review answered: Go reuses the request's review, so `apiVersion` and `kind` are
/// echoed and `request` is dropped.
fn reply(review: &Value, response: ConversionResponse) -> Value {
    let field = |k: &str| review.get(k).cloned().unwrap_or(Value::Null);
    serde_json::json!({
        "kind": field("kind"),
        "apiVersion": field("apiVersion"),
        "response": response.to_json(),
    })
}

/// `apiVersion, Kind=kind namespace/name`, for messages.
fn describe(gvk: &GroupVersionKind, obj: &dyn Object) -> String {
    let (namespace, name) = obj
        .meta()
        .map(|m| (m.namespace().to_owned(), m.name().to_owned()))
        .unwrap_or_default();
    if namespace.is_empty() {
        format!("{gvk} {name}")
    } else {
        format!("{gvk} {namespace}/{name}")
    }
}

/// The object as the JSON serializer writes it.
fn encode(scheme: &Scheme, obj: &dyn Object) -> Result<Value, String> {
    let bytes = JsonSerializer::new(scheme, SerializerOptions::default())
        .encode_to_vec(obj)
        .map_err(|e| e.to_string())?;
    serde_json::from_slice(&bytes).map_err(|e| e.to_string())
}

/// Why an object does not survive a trip through another version and back.
#[derive(Debug, thiserror::Error)]
pub enum RoundTripError {
    /// The object's type is not registered in the scheme.
    #[error("{type_name} is not registered: {message}")]
    NotRegistered {
        /// The Rust type.
        type_name: &'static str,
        /// The Scheme's message.
        message: String,
    },
    /// A conversion failed.
    #[error("converting {from} to {to}: {message}")]
    Convert {
        /// The source kind.
        from: String,
        /// The destination kind.
        to: String,
        /// Why.
        message: String,
    },
    /// An object could not be written as JSON.
    #[error("encoding {kind}: {message}")]
    Encode {
        /// Its kind.
        kind: String,
        /// Why.
        message: String,
    },
    /// The object came back different.
    #[error(
        "{kind} does not survive a round trip through {through}: {path} was {original}, came back {returned}"
    )]
    Lossy {
        /// The object's kind.
        kind: String,
        /// The version it went through.
        through: String,
        /// The first JSON path that differs (`.spec.style.colour`, `.items[2]`).
        path: String,
        /// The value there before (`<absent>` if none).
        original: String,
        /// The value there after (`<absent>` if none).
        returned: String,
    },
}

/// Converts `object` to every other version its group kind is registered in and back,
/// and checks it comes back as it was (compared as JSON, so a field's absence and its
/// zero value written out differ as they do on the wire). Returns the versions it went
/// through; a kind in one version only goes through none.
///
/// Go's controller-runtime has no such helper: kubebuilder users write these fuzz
/// tests by hand. Call it on representative objects of your own types, with every
/// field set, so that a field a version drops is caught.
///
/// ```standalone_crate
/// use apimachinery::runtime::Scheme;
/// use controller_runtime::webhook::conversion::{check_round_trips, RoundTripError};
///
/// pub mod v2 {
///     use apimachinery::{ApiObject, apis::meta::v1::ObjectMeta};
///     #[derive(ApiObject, Clone, Debug, Default, PartialEq)]
///     #[api(group = "example.com", version = "v2", kind = "Sprocket", extra_versions = ["__internal"])]
///     pub struct Sprocket { pub metadata: ObjectMeta, pub teeth: i64, pub colour: String }
/// }
/// pub mod v1 {
///     use apimachinery::{ApiObject, Convert, apis::meta::v1::ObjectMeta};
///     // v1 has no colour: it is lost on the way.
///     #[derive(ApiObject, Convert, Clone, Debug, Default, PartialEq)]
///     #[api(group = "example.com", version = "v1", kind = "Sprocket")]
///     #[conversion(hub = super::v2::Sprocket, hub_only = [colour])]
///     pub struct Sprocket { pub metadata: ObjectMeta, pub teeth: i64 }
/// }
///
/// fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let scheme = Scheme::from_registry()?;
/// let plain = v2::Sprocket { teeth: 12, ..Default::default() };
/// assert_eq!(check_round_trips(&scheme, &plain)?, vec!["example.com/v1".parse()?]);
///
/// let red = v2::Sprocket { teeth: 12, colour: "red".into(), ..Default::default() };
/// match check_round_trips(&scheme, &red) {
///     Err(RoundTripError::Lossy { through, path, .. }) => {
///         assert_eq!((through.as_str(), path.as_str()), ("example.com/v1", ".colour"));
///     }
///     other => panic!("{other:?}"),
/// }
/// # Ok(()) }
/// ```
pub fn check_round_trips<T: Object>(
    scheme: &Scheme,
    object: &T,
) -> Result<Vec<GroupVersion>, RoundTripError> {
    let (kinds, _) = scheme
        .object_kinds(object)
        .map_err(|e| RoundTripError::NotRegistered {
            type_name: object.type_name(),
            message: e.to_string(),
        })?;
    // The object's own (external) kind: the one it is written as.
    let Some(own) = kinds
        .iter()
        .find(|k| k.version != apimachinery::schema::API_VERSION_INTERNAL)
        .cloned()
    else {
        return Err(RoundTripError::NotRegistered {
            type_name: object.type_name(),
            message: "it has no external version".into(),
        });
    };
    let encode_as = |obj: &dyn Object, gvk: &GroupVersionKind| {
        let mut obj = obj.deep_copy_object();
        obj.set_group_version_kind(gvk);
        encode(scheme, &*obj).map_err(|message| RoundTripError::Encode {
            kind: gvk.to_string(),
            message,
        })
    };
    let original = encode_as(object, &own)?;
    let mut through = Vec::new();
    for version in scheme.versions_for_group_kind(&own.group_kind()) {
        if version == own.group_version() {
            continue;
        }
        let other = version.with_kind(own.kind.clone());
        let convert = |obj: Box<dyn Object>, from: &GroupVersionKind, to: &GroupVersionKind| {
            scheme
                .convert_to_version(obj, &to.group_version())
                .map_err(|e| RoundTripError::Convert {
                    from: from.to_string(),
                    to: to.to_string(),
                    message: e.to_string(),
                })
        };
        let there = convert(object.deep_copy_object(), &own, &other)?;
        let back = convert(there, &other, &own)?;
        let returned = encode_as(&*back, &own)?;
        if let Some((path, a, b)) = first_difference(&original, &returned, String::new()) {
            let show =
                |v: Option<&Value>| v.map_or_else(|| "<absent>".to_owned(), Value::to_string);
            return Err(RoundTripError::Lossy {
                kind: own.to_string(),
                through: version.to_string(),
                path: if path.is_empty() { ".".into() } else { path },
                original: show(a),
                returned: show(b),
            });
        }
        through.push(version);
    }
    Ok(through)
}

/// The first path (keys in order, then indexes) where `a` and `b` differ, with the
/// values there.
fn first_difference<'v>(
    a: &'v Value,
    b: &'v Value,
    path: String,
) -> Option<(String, Option<&'v Value>, Option<&'v Value>)> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            keys.into_iter().find_map(|k| {
                let p = format!("{path}.{k}");
                match (x.get(k), y.get(k)) {
                    (Some(u), Some(v)) => first_difference(u, v, p),
                    (u, v) => Some((p, u, v)),
                }
            })
        }
        (Value::Array(x), Value::Array(y)) => (0..x.len().max(y.len())).find_map(|i| {
            let p = format!("{path}[{i}]");
            match (x.get(i), y.get(i)) {
                (Some(u), Some(v)) => first_difference(u, v, p),
                (u, v) => Some((p, u, v)),
            }
        }),
        _ if a == b => None,
        _ => Some((path, Some(a), Some(b))),
    }
}

#[cfg(test)]
mod tests;
