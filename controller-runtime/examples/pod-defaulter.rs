//! `pod-defaulter`: an admission webhook server. Pods get the label
//! `pod-defaulter.example.com/defaulted: "true"` and, when they have none, the
//! annotation `pod-defaulter.example.com/owner` naming who created them (a mutating
//! webhook); Pods whose containers use an image without a pinned tag (`nginx`,
//! `nginx:latest`) are refused (a validating webhook).
//!
//! What it shows: a [`Defaulter`] and a [`Validator`] on typed Pods behind the HTTPS
//! webhook server, its certificate and registration with the API server by
//! [`WebhookInstallOptions`] (Go's envtest's), and shutdown on SIGINT/SIGTERM.
//!
//! ```text
//! KUBECONFIG=FILE cargo run -p controller-runtime --example pod-defaulter -- [--listen 127.0.0.1:9443]
//! ```
//!
//! It makes a CA and a serving certificate for `127.0.0.1` and `localhost` (in memory),
//! serves `/mutate-v1-pod` and `/validate-v1-pod` over HTTPS, and registers itself with
//! the API server of the kubeconfig as the `MutatingWebhookConfiguration` and
//! `ValidatingWebhookConfiguration` `pod-defaulter` (written for the Service
//! `default/pod-defaulter` of a cluster, pointed at its own URL with its own `caBundle`,
//! `failurePolicy: Fail`). It removes them when it stops, on SIGINT or SIGTERM
//! (`signals::setup_signal_handler`).

use std::net::SocketAddr;
use std::sync::Arc;

use apimachinery::runtime::Scheme;
use controller_runtime::config::Config;
use controller_runtime::envtest::WebhookInstallOptions;
use controller_runtime::signals::setup_signal_handler;
use controller_runtime::webhook::{
    AdmissionRequest, Defaulter, DefaultingHandler, Denied, ValidatingHandler, Validator, Warnings,
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

/// A webhook configuration of `kind` whose webhook the Service `pod-defaulter` answers
/// at `path` in a cluster; [`WebhookInstallOptions`] points it at this process instead.
fn configuration<T: serde::de::DeserializeOwned>(kind: &str, path: &str) -> serde_json::Result<T> {
    serde_json::from_value(json!({
        "apiVersion": "admissionregistration.k8s.io/v1",
        "kind": kind,
        "metadata": {"name": NAME},
        "webhooks": [{
            "name": format!("{}.pod-defaulter.example.com", path.trim_start_matches('/')),
            "clientConfig": {"service": {"namespace": "default", "name": NAME, "path": path}},
            "rules": [{"operations": ["CREATE", "UPDATE"], "apiGroups": [""],
                       "apiVersions": ["v1"], "resources": ["pods"]}],
            "failurePolicy": "Fail",
            "sideEffects": "None",
            "admissionReviewVersions": ["v1"],
        }],
    }))
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

    let mut webhooks = WebhookInstallOptions {
        mutating_webhooks: vec![configuration(
            "MutatingWebhookConfiguration",
            "/mutate-v1-pod",
        )?],
        validating_webhooks: vec![configuration(
            "ValidatingWebhookConfiguration",
            "/validate-v1-pod",
        )?],
        local_serving_host: listen.ip().to_string(),
        local_serving_port: listen.port(),
        ..Default::default()
    };
    let server = webhooks
        .server()?
        .register(
            "/mutate-v1-pod",
            DefaultingHandler::new(scheme.clone(), PodDefaulter),
        )
        .register(
            "/validate-v1-pod",
            ValidatingHandler::new(scheme, PinnedImages),
        )
        .start(webhooks.local_serving_address()?)
        .await?;
    // Creates both configurations (replacing any of the same names), pointed at us.
    webhooks.install(&config).await?;
    println!("pod-defaulter: running at https://{}", server.local_addr());

    shutdown.await;
    webhooks.uninstall(&config).await?;
    server.stop().await;
    Ok(())
}
