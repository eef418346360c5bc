//! kube-rs's counterpart of controller-runtime's `widget-operator` example, the same job
//! written as a kube-rs user would (`#[derive(CustomResource)]`, `merge_crds`,
//! `kube::core::conversion` behind axum and axum-server, `kube::runtime::Controller`):
//! the `widgets.example.com` CRD serves `Widget` in `v1alpha1` and `v1` (the storage
//! version); between them one field is renamed and one restructured:
//!
//! ```text
//! v1alpha1  spec.size: int       spec.colour: string
//! v1        spec.replicas: int   spec.style.colour: string   (+ spec.style.finish, v1 only)
//! ```
//!
//! It checks its conversions on a sample, makes a CA and a serving certificate for
//! `127.0.0.1` and `localhost`, serves the conversion webhook at `/convert` over HTTPS,
//! applies the CRD server-side with `conversion.strategy: Webhook` pointing at itself
//! (URL and `caBundle` its own), waits for it to be `Established`, and runs a
//! controller: each Widget gets a ConfigMap of the same name that it controls
//! (`replicas`, `colour`, `finish`), and `status.observedGeneration` and
//! `status.configMap`. A deleted Widget's ConfigMap is deleted (a server without a garbage
//! collector would keep it): kube-rs' controller is not called for an object that is
//! gone, so that is done under a finalizer. It stops on SIGINT or SIGTERM.
//!
//! The crate docs of controller-runtime count it beside ours (lines and concepts).
//!
//! ```text
//! KUBECONFIG=FILE cargo run --manifest-path benchmarks/Cargo.toml --example kube_widget_operator -- [--listen 127.0.0.1:9443]
//! ```

use std::error::Error;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::{Json, Router, routing::post};
use axum_server::{Handle, tls_rustls::RustlsConfig};
use futures_util::StreamExt;
use k8s_openapi::ByteString;
use k8s_openapi::api::core::v1::ConfigMap;
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::{
    CustomResourceConversion, CustomResourceDefinition, WebhookClientConfig, WebhookConversion,
};
use kube::api::{Api, DeleteParams, ObjectMeta, Patch, PatchParams, PostParams};
use kube::core::conversion::{ConversionRequest, ConversionResponse, ConversionReview};
use kube::core::crd::merge_crds;
use kube::runtime::controller::{Action, Controller};
use kube::runtime::finalizer::{Event, finalizer};
use kube::runtime::wait::{await_condition, conditions};
use kube::runtime::watcher;
use kube::{Client, CustomResourceExt, Resource, ResourceExt};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The status, the same in both versions.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WidgetStatus {
    /// The generation last reconciled.
    pub observed_generation: i64,
    /// The ConfigMap made for the Widget.
    pub config_map: String,
}

/// The hub and storage version.
pub mod v1 {
    use kube::CustomResource;
    use schemars::JsonSchema;
    use serde::{Deserialize, Serialize};

    /// v1's spec.
    #[derive(
        CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema,
    )]
    #[kube(
        group = "example.com",
        version = "v1",
        kind = "Widget",
        namespaced,
        derive = "PartialEq"
    )]
    #[kube(status = "super::WidgetStatus")]
    pub struct WidgetSpec {
        /// How many (v1alpha1's `size`).
        pub replicas: i32,
        /// How it looks.
        pub style: Style,
    }

    /// v1's `spec.style`.
    #[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
    pub struct Style {
        /// Its colour (v1alpha1's `spec.colour`).
        pub colour: String,
        /// Its finish, which v1alpha1 has no field for.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub finish: Option<String>,
    }
}

/// The older version.
pub mod v1alpha1 {
    use kube::CustomResource;
    use schemars::JsonSchema;
    use serde::{Deserialize, Serialize};

    /// v1alpha1's spec.
    #[derive(
        CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema,
    )]
    #[kube(
        group = "example.com",
        version = "v1alpha1",
        kind = "Widget",
        namespaced
    )]
    #[kube(status = "super::WidgetStatus")]
    pub struct WidgetSpec {
        /// How many.
        pub size: i32,
        /// Its colour.
        pub colour: String,
    }
}

/// The annotation a v1 `spec.style.finish` is kept in while the object is in v1alpha1,
/// so that a v1 → v1alpha1 → v1 trip loses nothing.
const FINISH: &str = "widgets.example.com/finish";
/// The finalizer under which a deleted Widget's ConfigMap is deleted.
const FINALIZER: &str = "widgets.example.com/configmap";

fn to_hub(w: v1alpha1::Widget) -> v1::Widget {
    let mut metadata = w.metadata;
    let annotations = metadata.annotations.as_mut();
    let finish = annotations.and_then(|a| a.remove(FINISH));
    if metadata.annotations.as_ref().is_some_and(|a| a.is_empty()) {
        metadata.annotations = None;
    }
    let style = v1::Style {
        colour: w.spec.colour,
        finish,
    };
    let spec = v1::WidgetSpec {
        replicas: w.spec.size,
        style,
    };
    v1::Widget {
        metadata,
        spec,
        status: w.status,
    }
}

fn from_hub(w: v1::Widget) -> v1alpha1::Widget {
    let mut metadata = w.metadata;
    if let Some(finish) = w.spec.style.finish {
        let annotations = metadata.annotations.get_or_insert_with(Default::default);
        annotations.insert(FINISH.to_owned(), finish);
    }
    let spec = v1alpha1::WidgetSpec {
        size: w.spec.replicas,
        colour: w.spec.style.colour,
    };
    v1alpha1::Widget {
        metadata,
        spec,
        status: w.status,
    }
}

/// One object of a ConversionReview, into `desired` (an apiVersion).
fn convert(object: serde_json::Value, desired: &str) -> Result<serde_json::Value, Box<dyn Error>> {
    let hub = match object.get("apiVersion").and_then(|v| v.as_str()) {
        Some("example.com/v1") => serde_json::from_value(object)?,
        Some("example.com/v1alpha1") => to_hub(serde_json::from_value(object)?),
        other => return Err(format!("cannot convert from {other:?}").into()),
    };
    Ok(match desired {
        "example.com/v1" => serde_json::to_value(hub)?,
        "example.com/v1alpha1" => serde_json::to_value(from_hub(hub))?,
        other => return Err(format!("cannot convert to {other:?}").into()),
    })
}

async fn conversion(Json(review): Json<ConversionReview>) -> Json<ConversionReview> {
    let request = match ConversionRequest::from_review(review) {
        Ok(request) => request,
        Err(e) => {
            let status = kube::core::Status::failure(&e.to_string(), "BadRequest");
            return Json(ConversionResponse::invalid(status).into_review());
        }
    };
    let desired = request.desired_api_version.clone();
    let objects = request.objects.clone();
    let converted: Result<Vec<_>, _> = objects.into_iter().map(|o| convert(o, &desired)).collect();
    let response = ConversionResponse::for_request(request);
    Json(
        match converted {
            Ok(objects) => response.success(objects),
            Err(e) => response.failure(kube::core::Status::failure(&e.to_string(), "Invalid")),
        }
        .into_review(),
    )
}

/// The conversions are checked before anything is served: a v1 Widget with every field
/// set goes through v1alpha1 and back unchanged.
fn check_round_trip() -> Result<(), Box<dyn Error>> {
    let mut w = v1::Widget::new("sample", v1::WidgetSpec::default());
    w.metadata.namespace = Some("default".into());
    w.metadata.labels = Some([("app".to_owned(), "sample".to_owned())].into());
    w.spec.replicas = 3;
    w.spec.style.colour = "red".into();
    w.spec.style.finish = Some("matte".into());
    w.status = Some(WidgetStatus {
        observed_generation: 2,
        config_map: "sample".into(),
    });
    let alpha = convert(serde_json::to_value(&w)?, "example.com/v1alpha1")?;
    let back: v1::Widget = serde_json::from_value(convert(alpha, "example.com/v1")?)?;
    if back != w {
        return Err(format!("v1 → v1alpha1 → v1 changed {w:?} into {back:?}").into());
    }
    Ok(())
}

/// The CRD of both versions, its conversion webhook at `url` trusted through `ca`.
fn crd(url: &str, ca: &str) -> Result<CustomResourceDefinition, Box<dyn Error>> {
    let mut crd = merge_crds(vec![v1alpha1::Widget::crd(), v1::Widget::crd()], "v1")?;
    crd.spec.conversion = Some(CustomResourceConversion {
        strategy: "Webhook".into(),
        webhook: Some(WebhookConversion {
            client_config: Some(WebhookClientConfig {
                url: Some(url.into()),
                ca_bundle: Some(ByteString(ca.as_bytes().to_vec())),
                service: None,
            }),
            conversion_review_versions: vec!["v1".into()],
        }),
    });
    Ok(crd)
}

#[derive(Debug, thiserror::Error)]
enum ReconcileError {
    #[error(transparent)]
    Kube(#[from] kube::Error),
    #[error(transparent)]
    Finalizer(Box<kube::runtime::finalizer::Error<ReconcileError>>),
}

async fn reconcile(widget: Arc<v1::Widget>, client: Arc<Client>) -> Result<Action, ReconcileError> {
    let ns = widget.namespace().unwrap_or_default();
    let widgets: Api<v1::Widget> = Api::namespaced((*client).clone(), &ns);
    let config_maps: Api<ConfigMap> = Api::namespaced((*client).clone(), &ns);
    finalizer(&widgets, FINALIZER, widget, |event| async {
        match event {
            Event::Apply(widget) => apply(&widget, &widgets, &config_maps).await,
            Event::Cleanup(widget) => {
                match config_maps
                    .delete(&widget.name_any(), &DeleteParams::default())
                    .await
                {
                    Err(kube::Error::Api(e)) if e.is_not_found() => {}
                    other => drop(other?),
                }
                Ok(Action::await_change())
            }
        }
    })
    .await
    .map_err(|e| ReconcileError::Finalizer(Box::new(e)))
}

async fn apply(
    widget: &v1::Widget,
    widgets: &Api<v1::Widget>,
    config_maps: &Api<ConfigMap>,
) -> Result<Action, ReconcileError> {
    let name = widget.name_any();
    let spec = &widget.spec;
    let cm = ConfigMap {
        metadata: ObjectMeta {
            name: Some(name.clone()),
            owner_references: widget.controller_owner_ref(&()).map(|r| vec![r]),
            ..ObjectMeta::default()
        },
        data: Some(
            [
                ("replicas".to_owned(), spec.replicas.to_string()),
                ("colour".to_owned(), spec.style.colour.clone()),
                (
                    "finish".to_owned(),
                    spec.style.finish.clone().unwrap_or_default(),
                ),
            ]
            .into(),
        ),
        ..ConfigMap::default()
    };
    let manager = PatchParams::apply("widget-operator").force();
    config_maps
        .patch(&name, &manager, &Patch::Apply(&cm))
        .await?;

    let status = WidgetStatus {
        observed_generation: widget.metadata.generation.unwrap_or_default(),
        config_map: name.clone(),
    };
    if widget.status.as_ref() != Some(&status) {
        let mut updated = widget.clone();
        updated.status = Some(status);
        match widgets
            .replace_status(&name, &PostParams::default(), &updated)
            .await
        {
            // A newer Widget is on its way through the cache: reconcile that one.
            Err(kube::Error::Api(e)) if e.is_conflict() => {
                return Ok(Action::requeue(Duration::ZERO));
            }
            other => drop(other?),
        }
    }
    println!(
        "reconciled {}/{name}",
        widget.namespace().unwrap_or_default()
    );
    Ok(Action::await_change())
}

fn error_policy(_: Arc<v1::Widget>, error: &ReconcileError, _: Arc<Client>) -> Action {
    eprintln!("reconcile failed: {error}");
    Action::requeue(Duration::from_secs(5))
}

/// A CA and a serving certificate it signs for 127.0.0.1 and localhost: (CA PEM,
/// certificate PEM, key PEM).
fn certificates() -> Result<(String, String, String), rcgen::Error> {
    let ca_key = rcgen::KeyPair::generate()?;
    let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new())?;
    ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    ca_params
        .distinguished_name
        .push(rcgen::DnType::CommonName, "widget-operator-ca");
    let ca = ca_params.self_signed(&ca_key)?;
    let key = rcgen::KeyPair::generate()?;
    let params =
        rcgen::CertificateParams::new(vec!["127.0.0.1".to_owned(), "localhost".to_owned()])?;
    let cert = params.signed_by(&key, &ca, &ca_key)?;
    Ok((ca.pem(), cert.pem(), key.serialize_pem()))
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    let listen: SocketAddr = match std::env::args().skip(1).collect::<Vec<_>>().as_slice() {
        [] => "127.0.0.1:9443".parse()?,
        [flag, address] if flag == "--listen" => address.parse()?,
        _ => {
            eprintln!("usage: widget-operator [--listen ADDRESS]");
            std::process::exit(2)
        }
    };
    let client = Client::try_default().await?;
    check_round_trip()?;
    rustls::crypto::ring::default_provider()
        .install_default()
        .map_err(|_| "another rustls crypto provider is installed")?;

    let (ca, cert, key) = certificates()?;
    let tls = RustlsConfig::from_pem(cert.into_bytes(), key.into_bytes()).await?;
    let app = Router::new().route("/convert", post(conversion));
    let handle = Handle::new();
    let server = tokio::spawn(
        axum_server::bind_rustls(listen, tls)
            .handle(handle.clone())
            .serve(app.into_make_service()),
    );
    let address = handle.listening().await.ok_or("the server did not start")?;
    let url = format!("https://{address}/convert");

    // Applied (a restart has a new CA), then waited for until established.
    let crds: Api<CustomResourceDefinition> = Api::all(client.clone());
    let crd = crd(&url, &ca)?;
    let manager = PatchParams::apply("widget-operator").force();
    crds.patch(&crd.name_any(), &manager, &Patch::Apply(&crd))
        .await?;
    await_condition(crds, &crd.name_any(), conditions::is_crd_established()).await?;

    println!("widget-operator: running, converting at {url}");
    Controller::new(
        Api::<v1::Widget>::all(client.clone()),
        watcher::Config::default(),
    )
    .owns(
        Api::<ConfigMap>::all(client.clone()),
        watcher::Config::default(),
    )
    .shutdown_on_signal()
    .run(reconcile, error_policy, Arc::new(client))
    .for_each(|_| async {})
    .await;
    handle.graceful_shutdown(None);
    server.await??;
    Ok(())
}
