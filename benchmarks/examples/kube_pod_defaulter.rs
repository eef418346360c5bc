//! kube-rs's counterpart of controller-runtime's `pod-defaulter` example, the same job
//! written as a kube-rs user would (kube-rs has no webhook server: axum and axum-server
//! as in kube-rs' own `admission_controller` example, `kube::core::admission` for the
//! reviews): Pods get the label `pod-defaulter.example.com/defaulted: "true"` and, when
//! they have none, the annotation `pod-defaulter.example.com/owner` naming who created
//! them (a mutating webhook); Pods whose containers use an image without a pinned tag are
//! refused (a validating webhook). It makes a CA and a serving certificate for
//! `127.0.0.1` and `localhost`, serves both over HTTPS, registers itself as the
//! `MutatingWebhookConfiguration` and `ValidatingWebhookConfiguration` `pod-defaulter`
//! (URL and `caBundle` its own, `failurePolicy: Fail`) and removes them when it stops on
//! SIGINT or SIGTERM.
//!
//! The crate docs of controller-runtime count it beside ours (lines and concepts).
//!
//! ```text
//! KUBECONFIG=FILE cargo run --manifest-path benchmarks/Cargo.toml --example kube_pod_defaulter -- [--listen 127.0.0.1:9443]
//! ```

use std::error::Error;
use std::net::SocketAddr;

use axum::{Json, Router, routing::post};
use axum_server::{Handle, tls_rustls::RustlsConfig};
use k8s_openapi::api::admissionregistration::v1::{
    MutatingWebhookConfiguration, ValidatingWebhookConfiguration,
};
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams, PostParams};
use kube::core::DynamicObject;
use kube::core::admission::{AdmissionRequest, AdmissionResponse, AdmissionReview};
use kube::{Client, Resource};
use serde::de::DeserializeOwned;
use serde_json::json;
use tokio::signal::unix::{SignalKind, signal};

/// The label every admitted Pod gets.
const DEFAULTED: &str = "pod-defaulter.example.com/defaulted";
/// The annotation naming who created a Pod.
const OWNER: &str = "pod-defaulter.example.com/owner";
/// The name of both webhook configurations.
const NAME: &str = "pod-defaulter";

type Review = Json<AdmissionReview<DynamicObject>>;

/// Answers a review with what `admit` makes of its request, or with its failure.
fn answer(
    review: AdmissionReview<Pod>,
    admit: impl FnOnce(&AdmissionRequest<Pod>) -> Result<AdmissionResponse, Box<dyn Error>>,
) -> Review {
    let response = match review.try_into() {
        Ok(request) => {
            admit(&request).unwrap_or_else(|e| AdmissionResponse::from(&request).deny(e))
        }
        Err(e) => AdmissionResponse::invalid(e),
    };
    Json(response.into_review())
}

async fn mutate(Json(review): Json<AdmissionReview<Pod>>) -> Review {
    answer(review, |request| {
        let response = AdmissionResponse::from(request);
        let Some(pod) = &request.object else {
            return Ok(response);
        };
        let mut defaulted = pod.clone();
        let meta = &mut defaulted.metadata;
        let labels = meta.labels.get_or_insert_with(Default::default);
        labels.insert(DEFAULTED.into(), "true".into());
        let annotations = meta.annotations.get_or_insert_with(Default::default);
        annotations
            .entry(OWNER.into())
            .or_insert_with(|| request.user_info.username.clone().unwrap_or_default());
        let before = serde_json::to_value(pod)?;
        let patch = json_patch::diff(&before, &serde_json::to_value(&defaulted)?);
        Ok(response.with_patch(patch)?)
    })
}

async fn validate(Json(review): Json<AdmissionReview<Pod>>) -> Review {
    answer(review, |request| {
        let response = AdmissionResponse::from(request);
        let pod_spec = request.object.as_ref().and_then(|p| p.spec.as_ref());
        for c in pod_spec.iter().flat_map(|s| &s.containers) {
            let image = c.image.as_deref().unwrap_or_default();
            // The tag is what follows the last ':' after the last '/' (a registry
            // port is not a tag); a digest pins the image too.
            let last = image.rsplit('/').next().unwrap_or(image);
            let tag = last.split_once(':').map(|(_, t)| t);
            if !image.contains('@') && matches!(tag, None | Some("latest")) {
                return Ok(response.deny(format!(
                    "container {:?} uses the image {image:?}: pin a version tag other than latest",
                    c.name
                )));
            }
        }
        Ok(response)
    })
}

/// A CA and a serving certificate it signs for 127.0.0.1 and localhost: (CA PEM,
/// certificate PEM, key PEM).
fn certificates() -> Result<(String, String, String), rcgen::Error> {
    let ca_key = rcgen::KeyPair::generate()?;
    let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new())?;
    ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    ca_params
        .distinguished_name
        .push(rcgen::DnType::CommonName, "pod-defaulter-ca");
    let ca = ca_params.self_signed(&ca_key)?;
    let key = rcgen::KeyPair::generate()?;
    let params =
        rcgen::CertificateParams::new(vec!["127.0.0.1".to_owned(), "localhost".to_owned()])?;
    let cert = params.signed_by(&key, &ca, &ca_key)?;
    Ok((ca.pem(), cert.pem(), key.serialize_pem()))
}

/// A webhook configuration of `kind` calling `base/path` with `ca` as its caBundle.
fn configuration<K: DeserializeOwned>(
    kind: &str,
    base: &str,
    path: &str,
    ca: &str,
) -> serde_json::Result<K> {
    use base64::Engine;
    let bundle = base64::engine::general_purpose::STANDARD.encode(ca);
    serde_json::from_value(json!({
        "apiVersion": "admissionregistration.k8s.io/v1",
        "kind": kind,
        "metadata": {"name": NAME},
        "webhooks": [{
            "name": format!("{path}.pod-defaulter.example.com"),
            "clientConfig": {"url": format!("{base}/{path}"), "caBundle": bundle},
            "rules": [{"operations": ["CREATE", "UPDATE"], "apiGroups": [""],
                       "apiVersions": ["v1"], "resources": ["pods"]}],
            "failurePolicy": "Fail",
            "sideEffects": "None",
            "admissionReviewVersions": ["v1"],
        }],
    }))
}

/// Removes the configuration `NAME` of `api` (a missing one is fine).
async fn unregister<K: Resource + Clone + DeserializeOwned + std::fmt::Debug>(
    api: &Api<K>,
) -> Result<(), kube::Error> {
    match api.delete(NAME, &DeleteParams::default()).await {
        Err(kube::Error::Api(e)) if e.is_not_found() => Ok(()),
        other => other.map(drop),
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    // First, so that a signal from here on asks for shutdown instead of killing.
    let (mut interrupt, mut terminate) = (
        signal(SignalKind::interrupt())?,
        signal(SignalKind::terminate())?,
    );
    let listen: SocketAddr = match std::env::args().skip(1).collect::<Vec<_>>().as_slice() {
        [] => "127.0.0.1:9443".parse()?,
        [flag, address] if flag == "--listen" => address.parse()?,
        _ => {
            eprintln!("usage: pod-defaulter [--listen ADDRESS]");
            std::process::exit(2)
        }
    };
    let client = Client::try_default().await?;
    rustls::crypto::ring::default_provider()
        .install_default()
        .map_err(|_| "another rustls crypto provider is installed")?;

    let (ca, cert, key) = certificates()?;
    let tls = RustlsConfig::from_pem(cert.into_bytes(), key.into_bytes()).await?;
    let app = Router::new()
        .route("/mutate-v1-pod", post(mutate))
        .route("/validate-v1-pod", post(validate));
    let handle = Handle::new();
    let server = tokio::spawn(
        axum_server::bind_rustls(listen, tls)
            .handle(handle.clone())
            .serve(app.into_make_service()),
    );
    let address = handle.listening().await.ok_or("the server did not start")?;
    let base = format!("https://{address}");

    let mutating: Api<MutatingWebhookConfiguration> = Api::all(client.clone());
    let validating: Api<ValidatingWebhookConfiguration> = Api::all(client);
    unregister(&mutating).await?;
    unregister(&validating).await?;
    let mutating_config =
        configuration("MutatingWebhookConfiguration", &base, "mutate-v1-pod", &ca)?;
    mutating
        .create(&PostParams::default(), &mutating_config)
        .await?;
    let validating_config = configuration(
        "ValidatingWebhookConfiguration",
        &base,
        "validate-v1-pod",
        &ca,
    )?;
    validating
        .create(&PostParams::default(), &validating_config)
        .await?;
    println!("pod-defaulter: running at {base}");

    tokio::select! {
        _ = interrupt.recv() => {}
        _ = terminate.recv() => {}
    }
    unregister(&mutating).await?;
    unregister(&validating).await?;
    handle.graceful_shutdown(None);
    server.await??;
    Ok(())
}
