//! Conversion webhooks (Go's `apiextensions-apiserver/pkg/apiserver/conversion`
//! `webhookConverter`): objects of a CRD with `conversion.strategy: Webhook` are sent in
//! an `apiextensions.k8s.io/v1` `ConversionReview` to the CRD's `clientConfig` (a `url`,
//! or a `service` as `https://<name>.<namespace>.svc:<port><path>`) over rustls,
//! trusting the `caBundle`; the answer is checked as Go checks it — the same `uid`, a
//! `Success` result, as many objects as were sent, each of the desired group version and
//! of the same kind, name, namespace and uid — and each converted object's metadata is
//! restored from the original but for its labels and annotations.
//!
//! [`ConversionWebhook`] is usable on its own: a webhook handler (such as one built from
//! a Scheme's conversions) can be tested against exactly what the server sends and
//! checks.

use std::sync::Arc;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::Client as HyperClient;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;
use serde_json::{Value, json};

use super::WebhookClientConfig;

/// The longest a webhook may take (Go's default `timeoutSeconds` of conversion
/// webhooks).
const TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// Why a conversion failed; the request that needed it fails with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConversionError {
    /// The webhook could not be called or answered something that is not a review.
    #[error("conversion webhook for {kind} failed: {message}")]
    Failed {
        /// The kind converted, as Go writes it (`example.com/v1, Kind=Widget`).
        kind: String,
        /// Why.
        message: String,
    },
    /// The review's objects are not what was asked for.
    #[error("conversion webhook for {kind} returned {got} objects, expected {want}")]
    Count {
        /// The kind converted.
        kind: String,
        /// Objects returned.
        got: usize,
        /// Objects sent.
        want: usize,
    },
    /// One converted object is not acceptable.
    #[error(
        "conversion webhook for {kind} returned invalid converted object at index {index}: {message}"
    )]
    Invalid {
        /// The kind converted.
        kind: String,
        /// Its index in the review.
        index: usize,
        /// What is wrong with it.
        message: String,
    },
}

/// A client of one conversion webhook.
#[derive(Clone)]
pub struct ConversionWebhook {
    url: String,
    client: HyperClient<hyper_rustls::HttpsConnector<HttpConnector>, Full<Bytes>>,
}

impl std::fmt::Debug for ConversionWebhook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ConversionWebhook")
            .field("url", &self.url)
            .finish()
    }
}

impl ConversionWebhook {
    /// The client of `config`: HTTPS trusting its `caBundle` (plain HTTP only for an
    /// `http://` URL, which Go's validation does not allow but tests use).
    pub fn new(config: &WebhookClientConfig) -> Result<ConversionWebhook, String> {
        let url = match (&config.url, &config.service) {
            (Some(url), _) => url.clone(),
            (None, Some((namespace, name, path, port))) => {
                format!("https://{name}.{namespace}.svc:{port}{path}")
            }
            (None, None) => return Err("the conversion webhook has no url or service".into()),
        };
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let mut roots = rustls::RootCertStore::empty();
        for cert in CertificateDer::pem_slice_iter(&config.ca_bundle) {
            let cert = cert.map_err(|e| format!("caBundle: {e}"))?;
            roots
                .add(cert)
                .map_err(|e| format!("caBundle certificate: {e}"))?;
        }
        let tls = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| e.to_string())?
            .with_root_certificates(roots)
            .with_no_client_auth();
        let mut http = HttpConnector::new();
        http.enforce_http(false);
        let connector = hyper_rustls::HttpsConnectorBuilder::new()
            .with_tls_config(tls)
            .https_or_http()
            .enable_http1()
            .wrap_connector(http);
        Ok(ConversionWebhook {
            url,
            client: HyperClient::builder(TokioExecutor::new()).build(connector),
        })
    }

    /// Converts `objects` (JSON, all of `kind`) to `desired_api_version`: the ones
    /// already there are kept, the others sent in one review; the answer is checked as
    /// Go checks it.
    pub async fn convert(
        &self,
        kind: &str,
        objects: Vec<Value>,
        desired_api_version: &str,
    ) -> Result<Vec<Value>, ConversionError> {
        let gvk = format!("{}, Kind={kind}", desired_api_version);
        let pending: Vec<usize> = objects
            .iter()
            .enumerate()
            .filter(|(_, o)| {
                o.get("apiVersion").and_then(Value::as_str) != Some(desired_api_version)
            })
            .map(|(i, _)| i)
            .collect();
        if pending.is_empty() {
            return Ok(objects);
        }
        let sent: Vec<Value> = pending.iter().map(|i| objects[*i].clone()).collect();
        let uid = uuid::Uuid::new_v4().to_string();
        let review = review_request(&uid, desired_api_version, &sent);
        let failed = |message: String| ConversionError::Failed {
            kind: gvk.clone(),
            message,
        };
        let body = serde_json::to_vec(&review).map_err(|e| failed(e.to_string()))?;
        let request = http::Request::post(self.url.as_str())
            .header(http::header::CONTENT_TYPE, "application/json")
            .header(http::header::ACCEPT, "application/json")
            .body(Full::new(Bytes::from(body)))
            .map_err(|e| failed(e.to_string()))?;
        let response = tokio::time::timeout(TIMEOUT, self.client.request(request))
            .await
            .map_err(|_| {
                failed(format!(
                    "the webhook did not answer within {}s",
                    TIMEOUT.as_secs()
                ))
            })?
            .map_err(|e| failed(format!("Post {:?}: {e}", self.url)))?;
        let status = response.status();
        let bytes = response
            .into_body()
            .collect()
            .await
            .map_err(|e| failed(e.to_string()))?
            .to_bytes();
        if !status.is_success() {
            return Err(failed(format!("the webhook answered {status}")));
        }
        let answer: Value = serde_json::from_slice(&bytes)
            .map_err(|e| failed(format!("the answer is not a ConversionReview: {e}")))?;
        let converted = check_review_response(&gvk, &uid, &sent, desired_api_version, &answer)?;
        let mut out = objects;
        for (i, obj) in pending.into_iter().zip(converted) {
            out[i] = obj;
        }
        Ok(out)
    }
}

/// The `ConversionReview` v1 request the server sends.
pub fn review_request(uid: &str, desired_api_version: &str, objects: &[Value]) -> Value {
    json!({
        "kind": "ConversionReview",
        "apiVersion": "apiextensions.k8s.io/v1",
        "request": {"uid": uid, "desiredAPIVersion": desired_api_version, "objects": objects},
    })
}

/// Go's checks of a `ConversionReview` answer to the request `uid` of `originals`; the
/// converted objects, their metadata restored but for labels and annotations.
pub fn check_review_response(
    gvk: &str,
    uid: &str,
    originals: &[Value],
    desired_api_version: &str,
    answer: &Value,
) -> Result<Vec<Value>, ConversionError> {
    let failed = |message: String| ConversionError::Failed {
        kind: gvk.to_owned(),
        message,
    };
    let response = answer
        .get("response")
        .ok_or_else(|| failed("no response in the ConversionReview".into()))?;
    let got_uid = response
        .get("uid")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if got_uid != uid {
        return Err(failed(format!(
            "expected response uid {uid:?}, got {got_uid:?}"
        )));
    }
    let result = response.get("result").cloned().unwrap_or(Value::Null);
    if result.get("status").and_then(Value::as_str) != Some("Success") {
        let message = result
            .get("message")
            .and_then(Value::as_str)
            .unwrap_or("the webhook did not report success")
            .to_owned();
        return Err(failed(message));
    }
    let converted = response
        .get("convertedObjects")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if converted.len() != originals.len() {
        return Err(ConversionError::Count {
            kind: gvk.to_owned(),
            got: converted.len(),
            want: originals.len(),
        });
    }
    let mut out = Vec::with_capacity(converted.len());
    for (index, (original, mut obj)) in originals.iter().zip(converted).enumerate() {
        let invalid = |message: String| ConversionError::Invalid {
            kind: gvk.to_owned(),
            index,
            message,
        };
        let get = |v: &Value, p: &str| {
            v.pointer(p)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned()
        };
        let got_version = get(&obj, "/apiVersion");
        if got_version != desired_api_version {
            return Err(invalid(format!(
                "invalid groupVersion (expected {desired_api_version}, received {got_version})"
            )));
        }
        let (want_kind, got_kind) = (get(original, "/kind"), get(&obj, "/kind"));
        if want_kind != got_kind {
            return Err(invalid(format!(
                "invalid kind (expected {want_kind}, received {got_kind})"
            )));
        }
        if !obj.get("metadata").is_some_and(Value::is_object) {
            return Err(invalid("metadata must be an object".into()));
        }
        for (field, what) in [("name", "name"), ("namespace", "namespace"), ("uid", "UID")] {
            let p = format!("/metadata/{field}");
            let (a, b) = (get(original, &p), get(&obj, &p));
            if a != b {
                return Err(invalid(format!("must have the same {what}: {a} != {b}")));
            }
        }
        // Everything of the metadata but labels and annotations is the original's.
        let mut meta = original
            .get("metadata")
            .filter(|m| m.is_object())
            .cloned()
            .unwrap_or(json!({}));
        for k in ["labels", "annotations"] {
            match obj.pointer(&format!("/metadata/{k}")) {
                Some(v) if !v.is_null() => meta[k] = v.clone(),
                _ => {
                    if let Some(m) = meta.as_object_mut() {
                        m.remove(k);
                    }
                }
            }
        }
        obj["metadata"] = meta;
        out.push(obj);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn original(name: &str) -> Value {
        json!({"apiVersion": "example.com/v1", "kind": "Widget",
               "metadata": {"name": name, "namespace": "default", "uid": format!("u-{name}"), "generation": 1},
               "spec": {"size": 1}})
    }

    fn answer(uid: &str, objects: Vec<Value>) -> Value {
        json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
               "response": {"uid": uid, "result": {"status": "Success"}, "convertedObjects": objects}})
    }

    const GVK: &str = "example.com/v2, Kind=Widget";

    fn converted(name: &str) -> Value {
        let mut o = original(name);
        o["apiVersion"] = json!("example.com/v2");
        o
    }

    #[test]
    fn a_good_answer_is_taken_with_the_original_metadata_but_labels() {
        let mut c = converted("a");
        c["metadata"]["generation"] = json!(99);
        c["metadata"]["labels"] = json!({"converted": "yes"});
        let out = check_review_response(
            GVK,
            "u",
            &[original("a")],
            "example.com/v2",
            &answer("u", vec![c]),
        )
        .unwrap();
        assert_eq!(out[0]["metadata"]["generation"], 1);
        assert_eq!(out[0]["metadata"]["labels"], json!({"converted": "yes"}));
        assert_eq!(out[0]["apiVersion"], "example.com/v2");
    }

    #[test]
    fn bad_answers_fail_as_go_fails_them() {
        let originals = [original("a"), original("b")];
        let check = |a: Value| {
            check_review_response(GVK, "u", &originals, "example.com/v2", &a)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            check(answer("u", vec![converted("a")])),
            "conversion webhook for example.com/v2, Kind=Widget returned 1 objects, expected 2"
        );
        assert_eq!(
            check(answer("other", vec![converted("a"), converted("b")])),
            "conversion webhook for example.com/v2, Kind=Widget failed: expected response uid \"u\", got \"other\""
        );
        let mut renamed = converted("b");
        renamed["metadata"]["name"] = json!("c");
        assert_eq!(
            check(answer("u", vec![converted("a"), renamed])),
            "conversion webhook for example.com/v2, Kind=Widget returned invalid converted object at index 1: must have the same name: b != c"
        );
        assert_eq!(
            check(answer("u", vec![converted("a"), original("b")])),
            "conversion webhook for example.com/v2, Kind=Widget returned invalid converted object at index 1: invalid groupVersion (expected example.com/v2, received example.com/v1)"
        );
        let failure =
            json!({"response": {"uid": "u", "result": {"status": "Failure", "message": "nope"}}});
        assert_eq!(
            check(failure),
            "conversion webhook for example.com/v2, Kind=Widget failed: nope"
        );
    }
}
