//! `widget-operator`: an operator for a custom resource in two versions. The
//! `widgets.example.com` CRD serves `Widget` in `v1alpha1` and `v1` (the storage
//! version); between them one field is renamed and one restructured:
//!
//! ```text
//! v1alpha1  spec.size: int       spec.colour: string
//! v1        spec.replicas: int   spec.style.colour: string   (+ spec.style.finish, v1 only)
//! ```
//!
//! What it shows: a CRD generated from Rust types in two versions, its conversion
//! webhook served with a certificate of [`WebhookInstallOptions`], an
//! [`ObjectReconciler`] applying an owned ConfigMap server-side and writing the status
//! subresource through the manager's client, and shutdown on SIGINT/SIGTERM.
//!
//! ```text
//! KUBECONFIG=FILE cargo run -p controller-runtime --example widget-operator -- [--listen 127.0.0.1:9443]
//! ```
//!
//! It makes a CA and a serving certificate for `127.0.0.1` and `localhost` (in memory,
//! by [`WebhookInstallOptions`]),
//! serves the conversion webhook at `/convert` over HTTPS (a
//! [`ConversionHandler`] over the Scheme holding both versions and their conversions,
//! v1 being the hub), applies the CRD server-side (generated from the two types by
//! [`CrdBuilder`], their schemas from `#[derive(StructuralSchema)]`) with
//! `conversion.strategy: Webhook` pointing at itself (URL and `caBundle` its own),
//! waits for it to be `Established`,
//! and runs a controller: each Widget gets a ConfigMap of the same name that it
//! controls (`replicas`, `colour`, `finish`), and `status.observedGeneration` and
//! `status.configMap`. The CRD stays when it stops (SIGINT or SIGTERM): the Widgets are
//! kept, and reading them in `v1alpha1` waits for the webhook to be back.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use apimachinery::conversion::{AutoConvert, ConversionError, Convert, Scope};
use apimachinery::runtime::{Resource, Scheme};
use controller_runtime::builder::ControllerBuilder;
use controller_runtime::client::{ApplyOptions, Client, ObjectKey};
use controller_runtime::config::Config;
use controller_runtime::controllerutil;
use controller_runtime::crd::{CrdBuilder, CrdError};
use controller_runtime::envtest::WebhookInstallOptions;
use controller_runtime::manager::{Manager, ManagerOptions};
use controller_runtime::reconcile::{Action, ObjectReconciler, Request};
use controller_runtime::signals::setup_signal_handler;
use controller_runtime::webhook::{ConversionHandler, check_round_trips};
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
fn crd(url: &str, ca: &[u8]) -> Result<CustomResourceDefinition, CrdError> {
    CrdBuilder::new()
        .version::<v1alpha1::Widget>()
        .storage_version::<v1::Widget>()
        .status_subresource()
        .webhook_conversion(url, ca)
        .build()
}

/// Applies the CRD (a restart has a new CA) and waits until it is established.
async fn install(client: &Client, crd: CustomResourceDefinition) -> controller_runtime::Result<()> {
    let key = ObjectKey::new("", &crd.metadata.name);
    client
        .apply(&crd, &ApplyOptions::new("widget-operator").force())
        .await?;
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

struct WidgetReconciler {
    mgr: Arc<Manager>,
}

impl ObjectReconciler<v1::Widget> for WidgetReconciler {
    async fn reconcile(&self, widget: Arc<v1::Widget>) -> controller_runtime::Result<Action> {
        if widget.metadata.deletion_timestamp.is_some() {
            return Ok(Action::done());
        }
        let client = self.mgr.client();
        let (mut cm, spec) = (ConfigMap::default(), &widget.spec);
        cm.metadata.namespace = widget.metadata.namespace.clone();
        cm.metadata.name = widget.metadata.name.clone();
        controllerutil::set_controller_reference(&*widget, &mut cm, self.mgr.scheme())?;
        cm.data = [
            ("replicas".to_owned(), spec.replicas.to_string()),
            ("colour".to_owned(), spec.style.colour.clone()),
            (
                "finish".to_owned(),
                spec.style.finish.clone().unwrap_or_default(),
            ),
        ]
        .into();
        client
            .apply(&cm, &ApplyOptions::new("widget-operator").force())
            .await?;

        let status = v1::WidgetStatus {
            observed_generation: widget.metadata.generation,
            config_map: cm.metadata.name.clone(),
        };
        if widget.status.as_ref() != Some(&status) {
            let mut updated = (*widget).clone();
            updated.status = Some(status);
            match client.status().update(&updated, &Default::default()).await {
                // A newer Widget is on its way through the cache: reconcile that one.
                Err(e) if e.is_conflict() => return Ok(Action::requeue()),
                other => other?,
            };
        }
        println!(
            "reconciled {}/{}",
            widget.metadata.namespace, widget.metadata.name
        );
        Ok(Action::done())
    }

    /// A server without a garbage collector (`kapi serve`) keeps what a deleted Widget
    /// owned: remove its ConfigMap here.
    async fn deleted(&self, req: Request) -> controller_runtime::Result<Action> {
        let api = self.mgr.client();
        match api
            .get::<ConfigMap>(&ObjectKey::new(&req.namespace, &req.name))
            .await
        {
            Ok(cm) if is_owned_by_a_widget(&cm) => {
                match api.delete(&*cm, &Default::default()).await {
                    Err(e) if !e.is_not_found() => return Err(e),
                    _ => {}
                }
            }
            Err(e) if !e.is_not_found() => return Err(e),
            _ => {}
        }
        Ok(Action::done())
    }
}

fn is_owned_by_a_widget(cm: &ConfigMap) -> bool {
    cm.metadata.owner_references.iter().any(|r| {
        r.controller == Some(true) && r.kind == "Widget" && r.api_version == "example.com/v1"
    })
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let shutdown = setup_signal_handler()?;
    let listen: SocketAddr = match std::env::args().skip(1).collect::<Vec<_>>().as_slice() {
        [] => "127.0.0.1:9443".parse()?,
        [flag, address] if flag == "--listen" => address.parse()?,
        _ => {
            eprintln!("usage: widget-operator [--listen ADDRESS]");
            std::process::exit(2)
        }
    };
    let config = Config::load()?;
    let scheme = Arc::new(scheme()?);
    // The conversions are checked before anything is served: a Widget with every field
    // set goes through v1alpha1 and back unchanged.
    check_round_trips(&scheme, &sample())?;

    // A CA and a serving certificate of our own, for the CRD's conversion webhook.
    let mut webhook = WebhookInstallOptions {
        local_serving_host: listen.ip().to_string(),
        local_serving_port: listen.port(),
        ..Default::default()
    };
    let server = webhook
        .server()?
        .register_conversion("/convert", ConversionHandler::new(scheme.clone()))
        .start(webhook.local_serving_address()?)
        .await?;
    let url = format!("https://{}/convert", server.local_addr());
    let client = Client::new(&config, scheme.clone())?;
    install(&client, crd(&url, &webhook.local_serving_ca_data)?).await?;

    let mgr = Arc::new(Manager::new(&config, ManagerOptions::new(scheme))?);
    ControllerBuilder::new(&mgr)
        .for_kind::<v1::Widget>()
        .owns::<ConfigMap>()
        .complete_object(WidgetReconciler {
            mgr: Arc::clone(&mgr),
        })?;
    println!("widget-operator: running, converting at {url}");
    mgr.start(shutdown).await?;
    server.stop().await;
    Ok(())
}
