//! `widget-operator`: an operator for a custom resource in two versions. The
//! `widgets.example.com` CRD serves `Widget` in `v1alpha1` and `v1` (the storage
//! version); between them one field is renamed and one restructured:
//!
//! ```text
//! v1alpha1  spec.size: int       spec.colour: string
//! v1        spec.replicas: int   spec.style.colour: string   (+ spec.style.finish, v1 only)
//! ```
//!
//! ```text
//! cargo run -p controller-runtime --example widget-operator -- --kubeconfig FILE [--listen 127.0.0.1:9443]
//! ```
//!
//! It makes a CA and a serving certificate for `127.0.0.1` and `localhost` (in memory),
//! serves the conversion webhook at `/convert` over HTTPS (a
//! [`ConversionHandler`] over the Scheme holding both versions and their conversions,
//! v1 being the hub), creates or updates the CRD (generated from the two types by
//! [`CrdBuilder`], their schemas from `#[derive(StructuralSchema)]`) with
//! `conversion.strategy: Webhook` pointing at itself (URL and `caBundle` its own),
//! waits for it to be `Established`,
//! and runs a controller: each Widget gets a ConfigMap of the same name that it
//! controls (`replicas`, `colour`, `finish`), and `status.observedGeneration` and
//! `status.configMap`. The CRD stays when it stops (Ctrl-C or, with
//! `--stop-on-stdin-eof`, when its standard input closes): the Widgets are kept, and
//! reading them in `v1alpha1` waits for the webhook to be back.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use apimachinery::conversion::{AutoConvert, ConversionError, Convert, Scope};
use apimachinery::runtime::{Resource, Scheme};
use controller_runtime::builder::ControllerBuilder;
use controller_runtime::client::{self, Client, ObjectKey};
use controller_runtime::config::Config;
use controller_runtime::controllerutil::{self, ControllerUtilError};
use controller_runtime::crd::{CrdBuilder, CrdError};
use controller_runtime::manager::{Manager, ManagerOptions};
use controller_runtime::reconcile::{Action, Reconciler, Request};
use controller_runtime::webhook::{ConversionHandler, Server, check_round_trips};
use k8s_types::apiextensions::v1::CustomResourceDefinition;
use k8s_types::core::v1::ConfigMap;

/// The hub and storage version: registered in `example.com/__internal` too, so the
/// Scheme converts every other version through it.
pub mod v1 {
    use apimachinery::{ApiObject, ApiType, StructuralSchema, apis::meta::v1::ObjectMeta};

    /// A Widget as v1 writes it.
    #[derive(ApiObject, StructuralSchema, Clone, Debug, Default, PartialEq)]
    #[api(group = "example.com", version = "v1", kind = "Widget", extra_versions = ["__internal"])]
    pub struct Widget {
        /// The object's metadata.
        pub metadata: ObjectMeta,
        /// What the user wants.
        pub spec: WidgetSpec,
        /// What the operator did.
        pub status: Option<WidgetStatus>,
    }

    /// v1's spec.
    #[derive(ApiType, StructuralSchema, Clone, Debug, Default, PartialEq)]
    pub struct WidgetSpec {
        /// How many (v1alpha1's `size`).
        pub replicas: i32,
        /// How it looks.
        pub style: Style,
    }

    /// v1's `spec.style`.
    #[derive(ApiType, StructuralSchema, Clone, Debug, Default, PartialEq)]
    pub struct Style {
        /// Its colour (v1alpha1's `spec.colour`).
        pub colour: String,
        /// Its finish, which v1alpha1 has no field for.
        pub finish: Option<String>,
    }

    /// The status, the same in both versions.
    #[derive(ApiType, StructuralSchema, Clone, Debug, Default, PartialEq)]
    pub struct WidgetStatus {
        /// The generation last reconciled.
        pub observed_generation: i64,
        /// The ConfigMap made for the Widget.
        #[api(rename = "configMap")]
        pub config_map: String,
    }
}

/// The older version; `#[derive(Convert)]` converts the object field by field (the
/// spec through the hand-written conversions below), wrapped in hand-written
/// conversions of the whole object that keep v1's `finish` in an annotation.
pub mod v1alpha1 {
    use apimachinery::{ApiObject, ApiType, Convert, StructuralSchema, apis::meta::v1::ObjectMeta};

    /// A Widget as v1alpha1 writes it.
    #[derive(ApiObject, StructuralSchema, Convert, Clone, Debug, Default, PartialEq)]
    #[api(group = "example.com", version = "v1alpha1", kind = "Widget")]
    #[conversion(
        hub = super::v1::Widget,
        to_hub = super::widget_to_hub,
        from_hub = super::widget_from_hub
    )]
    pub struct Widget {
        /// The object's metadata.
        pub metadata: ObjectMeta,
        /// What the user wants.
        pub spec: WidgetSpec,
        /// What the operator did.
        pub status: Option<WidgetStatus>,
    }

    /// v1alpha1's spec.
    #[derive(ApiType, StructuralSchema, Clone, Debug, Default, PartialEq)]
    pub struct WidgetSpec {
        /// How many.
        pub size: i32,
        /// Its colour.
        pub colour: String,
    }

    /// The status.
    #[derive(ApiType, StructuralSchema, Convert, Clone, Debug, Default, PartialEq)]
    #[conversion(hub = super::v1::WidgetStatus, nested)]
    pub struct WidgetStatus {
        /// The generation last reconciled.
        pub observed_generation: i64,
        /// The ConfigMap made for the Widget.
        #[api(rename = "configMap")]
        pub config_map: String,
    }
}

/// The annotation a v1 `spec.style.finish` is kept in while the object is in v1alpha1,
/// so that a v1 → v1alpha1 → v1 trip loses nothing (what Go operators do too).
const FINISH: &str = "widgets.example.com/finish";

fn widget_to_hub(
    input: &v1alpha1::Widget,
    scope: &Scope<'_>,
) -> Result<v1::Widget, ConversionError> {
    let mut out: v1::Widget = input.auto_convert_ref(scope)?;
    out.spec.style.finish = out.metadata.annotations.remove(FINISH);
    Ok(out)
}

fn widget_from_hub(
    input: &v1::Widget,
    scope: &Scope<'_>,
) -> Result<v1alpha1::Widget, ConversionError> {
    let mut out: v1alpha1::Widget = input.auto_convert_ref(scope)?;
    if let Some(finish) = &input.spec.style.finish {
        out.metadata
            .annotations
            .insert(FINISH.to_owned(), finish.clone());
    }
    Ok(out)
}

impl Convert<v1::WidgetSpec> for v1alpha1::WidgetSpec {
    fn convert(self, _: &Scope<'_>) -> Result<v1::WidgetSpec, ConversionError> {
        Ok(v1::WidgetSpec {
            replicas: self.size,
            style: v1::Style {
                colour: self.colour,
                finish: None,
            },
        })
    }

    fn convert_ref(&self, scope: &Scope<'_>) -> Result<v1::WidgetSpec, ConversionError> {
        self.clone().convert(scope)
    }
}

impl Convert<v1alpha1::WidgetSpec> for v1::WidgetSpec {
    fn convert(self, _: &Scope<'_>) -> Result<v1alpha1::WidgetSpec, ConversionError> {
        Ok(v1alpha1::WidgetSpec {
            size: self.replicas,
            colour: self.style.colour,
        })
    }

    fn convert_ref(&self, scope: &Scope<'_>) -> Result<v1alpha1::WidgetSpec, ConversionError> {
        self.clone().convert(scope)
    }
}

/// The scheme of the operator: the built-in types, both Widget versions and their
/// conversions (`Scheme::from_registry` would find the same through the link-time
/// registry; listing them says which).
fn scheme() -> Result<Scheme, Box<dyn std::error::Error>> {
    let mut scheme = Scheme::new();
    k8s_types::register(&mut scheme)?;
    scheme.register(&v1::Widget::REGISTRATION)?;
    scheme.register(&v1alpha1::Widget::REGISTRATION)?;
    scheme.add_conversions(
        <v1alpha1::Widget as apimachinery::conversion::HubConversions>::REGISTRATIONS,
    );
    Ok(scheme)
}

/// A v1 Widget with every field set.
fn sample() -> v1::Widget {
    let mut w = v1::Widget::default();
    w.metadata.name = "sample".into();
    w.metadata.namespace = "default".into();
    w.metadata.labels.insert("app".into(), "sample".into());
    w.spec.replicas = 3;
    w.spec.style.colour = "red".into();
    w.spec.style.finish = Some("matte".into());
    w.status = Some(v1::WidgetStatus {
        observed_generation: 2,
        config_map: "sample".into(),
    });
    w
}

/// The CRD, generated from the two types (names, scope, versions and schemas), its
/// conversion webhook at `url` trusted through `ca`.
fn crd(url: &str, ca: &str) -> Result<CustomResourceDefinition, CrdError> {
    CrdBuilder::new()
        .version::<v1alpha1::Widget>()
        .storage_version::<v1::Widget>()
        .status_subresource()
        .webhook_conversion(url, ca.as_bytes())
        .build()
}

/// Creates the CRD, or updates the one there (a restart has a new CA), and waits until
/// it is established.
async fn install(client: &Client, crd: CustomResourceDefinition) -> Result<(), client::Error> {
    let key = ObjectKey::new("", &crd.metadata.name);
    match client.get::<CustomResourceDefinition>(&key).await {
        Ok(mut existing) => {
            existing.spec = crd.spec;
            client.update(&existing, &Default::default()).await?;
        }
        Err(e) if e.is_not_found() => {
            client.create(&crd, &Default::default()).await?;
        }
        Err(e) => return Err(e),
    }
    loop {
        let current: CustomResourceDefinition = client.get(&key).await?;
        let established = current
            .status
            .conditions
            .iter()
            .flatten()
            .any(|c| c.r#type == "Established" && c.status == "True");
        if established {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[derive(Debug, thiserror::Error)]
enum WidgetError {
    #[error(transparent)]
    Client(#[from] client::Error),
    #[error(transparent)]
    Cache(#[from] controller_runtime::Error),
    #[error(transparent)]
    Util(#[from] ControllerUtilError),
}

struct WidgetReconciler {
    mgr: Arc<Manager>,
}

impl Reconciler for WidgetReconciler {
    type Error = WidgetError;

    async fn reconcile(&self, req: Request) -> Result<Action, WidgetError> {
        let api = self.mgr.api_reader();
        let key = ObjectKey::new(&req.namespace, &req.name);
        let widget: Arc<v1::Widget> = match self.mgr.client().get(&key).await {
            Ok(w) => w,
            Err(e) if e.is_not_found() => {
                // A server without a garbage collector (`kapi serve`) keeps what a
                // deleted Widget owned: remove its ConfigMap here.
                match api.get::<ConfigMap>(&key).await {
                    Ok(cm) if is_owned_by_a_widget(&cm) => {
                        match api.delete(&cm, &Default::default()).await {
                            Err(e) if !e.is_not_found() => return Err(e.into()),
                            _ => {}
                        }
                    }
                    Ok(_) => {}
                    Err(e) if e.is_not_found() => {}
                    Err(e) => return Err(e.into()),
                }
                return Ok(Action::done());
            }
            Err(e) => return Err(e.into()),
        };
        if widget.metadata.deletion_timestamp.is_some() {
            return Ok(Action::done());
        }

        let mut cm = ConfigMap::default();
        cm.metadata.namespace = req.namespace.clone();
        cm.metadata.name = req.name.clone();
        let scheme = self.mgr.scheme();
        let spec = &widget.spec;
        controllerutil::create_or_update(api, &mut cm, |cm: &mut ConfigMap| {
            controllerutil::set_controller_reference(&*widget, cm, scheme)?;
            cm.data = [
                ("replicas".to_owned(), spec.replicas.to_string()),
                ("colour".to_owned(), spec.style.colour.clone()),
                (
                    "finish".to_owned(),
                    spec.style.finish.clone().unwrap_or_default(),
                ),
            ]
            .into();
            Ok::<_, ControllerUtilError>(())
        })
        .await?;

        let status = v1::WidgetStatus {
            observed_generation: widget.metadata.generation,
            config_map: cm.metadata.name.clone(),
        };
        if widget.status.as_ref() != Some(&status) {
            let mut updated = (*widget).clone();
            updated.status = Some(status);
            match api.status().update(&updated, &Default::default()).await {
                // A newer Widget is on its way through the cache: reconcile that one.
                Err(e) if e.is_conflict() => return Ok(Action::requeue()),
                other => {
                    other?;
                }
            }
        }
        println!("reconciled {req}");
        Ok(Action::done())
    }
}

fn is_owned_by_a_widget(cm: &ConfigMap) -> bool {
    cm.metadata.owner_references.iter().any(|r| {
        r.controller == Some(true) && r.kind == "Widget" && r.api_version == "example.com/v1"
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
        .push(rcgen::DnType::CommonName, "widget-operator-ca");
    let ca = ca_params.self_signed(&ca_key)?;
    let key = rcgen::KeyPair::generate()?;
    let params =
        rcgen::CertificateParams::new(vec!["127.0.0.1".to_owned(), "localhost".to_owned()])?;
    let cert = params.signed_by(&key, &ca, &ca_key)?;
    Ok((ca.pem(), cert.pem(), key.serialize_pem()))
}

fn usage() -> ! {
    eprintln!(
        "usage: widget-operator [--kubeconfig FILE] [--listen ADDRESS] [--stop-on-stdin-eof]"
    );
    std::process::exit(2)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (mut kubeconfig, mut listen, mut stop_on_eof) = (None, None, false);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--kubeconfig" => kubeconfig = Some(args.next().unwrap_or_else(|| usage())),
            "--listen" => listen = Some(args.next().unwrap_or_else(|| usage())),
            "--stop-on-stdin-eof" => stop_on_eof = true,
            _ => usage(),
        }
    }
    let config = match kubeconfig {
        Some(path) => Config::from_kubeconfig(path)?,
        None => Config::load()?,
    };
    let listen: SocketAddr = listen.as_deref().unwrap_or("127.0.0.1:9443").parse()?;
    let scheme = Arc::new(scheme()?);
    // The conversions are checked before anything is served: a Widget with every field
    // set goes through v1alpha1 and back unchanged.
    check_round_trips(&scheme, &sample())?;

    let (ca, cert, key) = certificates()?;
    let server = Server::new(cert.as_bytes(), key.as_bytes())?
        .register_conversion("/convert", ConversionHandler::new(scheme.clone()))
        .start(listen)
        .await?;
    let url = format!("https://{}/convert", server.local_addr());
    let client = Client::new(&config, scheme.clone())?;
    install(&client, crd(&url, &ca)?).await?;

    let mgr = Arc::new(Manager::new(&config, ManagerOptions::new(scheme))?);
    ControllerBuilder::new(&mgr)
        .for_kind::<v1::Widget>()
        .owns::<ConfigMap>()
        .complete(WidgetReconciler {
            mgr: Arc::clone(&mgr),
        })?;
    println!("widget-operator: running, converting at {url}");
    mgr.start(async {
        let stdin_closed = async move {
            if !stop_on_eof {
                return std::future::pending().await;
            }
            let _ = tokio::task::spawn_blocking(|| {
                let mut sink = String::new();
                while std::io::stdin().read_line(&mut sink).is_ok_and(|n| n > 0) {}
            })
            .await;
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            () = stdin_closed => {}
        }
    })
    .await?;
    server.stop().await;
    Ok(())
}
