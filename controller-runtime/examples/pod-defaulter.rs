//! `pod-defaulter`: an admission webhook server. Pods get the label
//! `pod-defaulter.example.com/defaulted: "true"` and, when they have none, the
//! annotation `pod-defaulter.example.com/owner` naming who created them (a mutating
//! webhook); Pods whose containers use an image without a pinned tag (`nginx`,
//! `nginx:latest`) are refused (a validating webhook).
//!
//! What it shows: a [`Defaulter`] and a [`Validator`] on typed Pods behind the HTTPS
//! webhook server, their registration with the API server, and shutdown on
//! SIGINT/SIGTERM.
//!
//! ```text
//! KUBECONFIG=FILE cargo run -p controller-runtime --example pod-defaulter -- [--listen 127.0.0.1:9443]
//! ```
//!
//! It makes a CA and a serving certificate for `127.0.0.1` and `localhost` (in memory),
//! serves `/mutate-v1-pod` and `/validate-v1-pod` over HTTPS, and registers itself with
//! the API server of the kubeconfig as the `MutatingWebhookConfiguration` and
//! `ValidatingWebhookConfiguration` `pod-defaulter` (URL and `caBundle` its own,
//! `failurePolicy: Fail`). It removes them when it stops, on SIGINT or SIGTERM
//! (`signals::setup_signal_handler`).

use std::net::SocketAddr;
use std::sync::Arc;

use apimachinery::runtime::Scheme;
use controller_runtime::client::{Client, ObjectKey};
use controller_runtime::config::Config;
use controller_runtime::signals::setup_signal_handler;
use controller_runtime::webhook::{
    AdmissionRequest, Defaulter, DefaultingHandler, Denied, Server, ValidatingHandler, Validator,
    Warnings,
};
use k8s_types::admissionregistration::v1::{
    MutatingWebhookConfiguration, ValidatingWebhookConfiguration,
};
use k8s_types::core::v1::Pod;
use serde_json::json;

/// The label every admitted Pod gets.
const DEFAULTED: &str = "pod-defaulter.example.com/defaulted";
/// The annotation naming who created a Pod.
const OWNER: &str = "pod-defaulter.example.com/owner";
/// The name of both webhook configurations.
const NAME: &str = "pod-defaulter";

struct PodDefaulter;

impl Defaulter<Pod> for PodDefaulter {
    async fn default(&self, request: &AdmissionRequest, pod: &mut Pod) -> Result<(), Denied> {
        pod.metadata.labels.insert(DEFAULTED.into(), "true".into());
        pod.metadata
            .annotations
            .entry(OWNER.into())
            .or_insert_with(|| request.user_info.username.clone());
        Ok(())
    }
}

struct PinnedImages;

impl PinnedImages {
    fn check(pod: &Pod) -> Result<Warnings, Denied> {
        for c in pod.spec.containers.iter().flatten() {
            let image = c.image.as_str();
            // The tag is what follows the last ':' after the last '/' (a registry
            // port is not a tag); a digest pins the image too.
            let last = image.rsplit('/').next().unwrap_or(image);
            let tag = last.split_once(':').map(|(_, t)| t);
            if !image.contains('@') && matches!(tag, None | Some("latest")) {
                return Err(Denied::new(format!(
                    "container {:?} uses the image {image:?}: pin a version tag other than latest",
                    c.name
                )));
            }
        }
        Ok(Warnings::new())
    }
}

impl Validator<Pod> for PinnedImages {
    async fn validate_create(&self, _: &AdmissionRequest, pod: &Pod) -> Result<Warnings, Denied> {
        Self::check(pod)
    }

    async fn validate_update(
        &self,
        _: &AdmissionRequest,
        _old: &Pod,
        pod: &Pod,
    ) -> Result<Warnings, Denied> {
        Self::check(pod)
    }
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

/// Both configurations, calling `base` with `ca` as their caBundle.
fn configurations(
    base: &str,
    ca: &str,
) -> Result<(MutatingWebhookConfiguration, ValidatingWebhookConfiguration), serde_json::Error> {
    use base64::Engine;
    let bundle = base64::engine::general_purpose::STANDARD.encode(ca);
    let webhook = |path: &str| {
        json!({
            "name": format!("{path}.pod-defaulter.example.com"),
            "clientConfig": {"url": format!("{base}/{path}"), "caBundle": bundle},
            "rules": [{"operations": ["CREATE", "UPDATE"], "apiGroups": [""],
                       "apiVersions": ["v1"], "resources": ["pods"]}],
            "failurePolicy": "Fail",
            "sideEffects": "None",
            "admissionReviewVersions": ["v1"],
        })
    };
    let mutating = serde_json::from_value(json!({
        "apiVersion": "admissionregistration.k8s.io/v1",
        "kind": "MutatingWebhookConfiguration",
        "metadata": {"name": NAME},
        "webhooks": [webhook("mutate-v1-pod")],
    }))?;
    let validating = serde_json::from_value(json!({
        "apiVersion": "admissionregistration.k8s.io/v1",
        "kind": "ValidatingWebhookConfiguration",
        "metadata": {"name": NAME},
        "webhooks": [webhook("validate-v1-pod")],
    }))?;
    Ok((mutating, validating))
}

/// Removes both configurations (missing ones are fine).
async fn unregister(client: &Client) -> Result<(), Box<dyn std::error::Error>> {
    let key = ObjectKey::new("", NAME);
    match client.get::<MutatingWebhookConfiguration>(&key).await {
        Ok(c) => client.delete(&c, &Default::default()).await?,
        Err(e) if e.is_not_found() => {}
        Err(e) => return Err(e.into()),
    }
    match client.get::<ValidatingWebhookConfiguration>(&key).await {
        Ok(c) => client.delete(&c, &Default::default()).await?,
        Err(e) if e.is_not_found() => {}
        Err(e) => return Err(e.into()),
    }
    Ok(())
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let shutdown = setup_signal_handler()?;
    let listen: SocketAddr = match std::env::args().skip(1).collect::<Vec<_>>().as_slice() {
        [] => "127.0.0.1:9443".parse()?,
        [flag, address] if flag == "--listen" => address.parse()?,
        _ => {
            eprintln!("usage: pod-defaulter [--listen ADDRESS]");
            std::process::exit(2)
        }
    };
    let config = Config::load()?;
    let mut scheme = Scheme::new();
    k8s_types::register(&mut scheme)?;
    let scheme = Arc::new(scheme);

    let (ca, cert, key) = certificates()?;
    let server = Server::new(cert.as_bytes(), key.as_bytes())?
        .register(
            "/mutate-v1-pod",
            DefaultingHandler::new(scheme.clone(), PodDefaulter),
        )
        .register(
            "/validate-v1-pod",
            ValidatingHandler::new(scheme.clone(), PinnedImages),
        )
        .start(listen)
        .await?;
    let base = format!("https://{}", server.local_addr());

    let client = Client::new(&config, scheme)?;
    unregister(&client).await?;
    let (mutating, validating) = configurations(&base, &ca)?;
    client.create(&mutating, &Default::default()).await?;
    client.create(&validating, &Default::default()).await?;
    println!("pod-defaulter: running at {base}");

    shutdown.await;
    unregister(&client).await?;
    server.stop().await;
    Ok(())
}
