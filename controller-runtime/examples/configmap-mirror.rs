//! `configmap-mirror`: ConfigMaps labelled `mirror.example.com/to=<namespace>` are copied
//! (same name, same data) into that namespace and kept in sync. An owner reference
//! cannot cross namespaces, so the source carries the finalizer
//! `mirror.example.com/cleanup` instead: deleting the source deletes the copy, and only
//! then is the finalizer removed.
//!
//! What it shows: an `ObjectReconciler` handed the cached object, the `finalizer` helper,
//! typed server-side apply through the manager's client, a typed watch mapping copies
//! back to their source, one error type for every call (`?` throughout), and shutdown on
//! SIGINT/SIGTERM.
//!
//! ```text
//! KUBECONFIG=FILE cargo run -p controller-runtime --example configmap-mirror
//! ```

use std::sync::Arc;

use apimachinery::runtime::Scheme;
use controller_runtime::builder::ControllerBuilder;
use controller_runtime::client::ApplyOptions;
use controller_runtime::config::Config;
use controller_runtime::finalizer::{Event, finalizer};
use controller_runtime::handler::EnqueueRequestsFromMapFunc;
use controller_runtime::manager::{Manager, ManagerOptions};
use controller_runtime::reconcile::{Action, ObjectReconciler, Request};
use controller_runtime::signals::setup_signal_handler;
use k8s_types::core::v1::ConfigMap;

/// The label naming the namespace to mirror into.
const MIRROR_TO: &str = "mirror.example.com/to";
/// The label on a copy naming its source's namespace.
const MIRROR_FROM: &str = "mirror.example.com/from";
/// The finalizer on sources.
const FINALIZER: &str = "mirror.example.com/cleanup";

struct Mirror {
    mgr: Arc<Manager>,
}

impl ObjectReconciler<ConfigMap> for Mirror {
    async fn reconcile(&self, source: Arc<ConfigMap>) -> controller_runtime::Result<Action> {
        let (meta, client) = (&source.metadata, self.mgr.client());
        let target = meta.labels.get(MIRROR_TO).cloned().unwrap_or_default();
        let ours = !target.is_empty() || meta.finalizers.iter().any(|f| f == FINALIZER);
        if !ours || target == meta.namespace {
            return Ok(Action::done()); // not mirrored; a ConfigMap cannot be its own copy
        }
        let mut copy = ConfigMap::default();
        (copy.metadata.namespace, copy.metadata.name) = (target, meta.name.clone());
        copy.metadata
            .labels
            .insert(MIRROR_FROM.into(), meta.namespace.clone());
        (copy.data, copy.binary_data) = (source.data.clone(), source.binary_data.clone());
        finalizer(client, None, FINALIZER, source, |event| async move {
            match event {
                // No longer labelled: the copy stays, the finalizer goes with the source.
                _ if copy.metadata.namespace.is_empty() => {}
                Event::Apply(_) => {
                    let manager = ApplyOptions::new("configmap-mirror").force();
                    client.apply(&copy, &manager).await?;
                    println!(
                        "mirrored {} to {}",
                        copy.metadata.name, copy.metadata.namespace
                    );
                }
                Event::Cleanup(_) => match client.delete(&copy, &Default::default()).await {
                    Err(e) if !e.is_not_found() => return Err(e),
                    _ => {}
                },
            }
            Ok(Action::done())
        })
        .await
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // First, so that a signal from here on asks for shutdown instead of killing.
    let shutdown = setup_signal_handler()?;
    let mut scheme = Scheme::new();
    k8s_types::register(&mut scheme)?;
    let options = ManagerOptions::new(Arc::new(scheme));
    let mgr = Arc::new(Manager::new(&Config::load()?, options)?);
    ControllerBuilder::new(&mgr)
        .for_kind::<ConfigMap>()
        // A copy changed or deleted by hand brings its source back in line.
        .watches_kind::<ConfigMap>(EnqueueRequestsFromMapFunc::typed(|copy: &ConfigMap| {
            let from = copy.metadata.labels.get(MIRROR_FROM);
            from.map(|ns| Request::new(ns, &copy.metadata.name))
                .into_iter()
                .collect()
        }))
        .complete_object(Mirror {
            mgr: Arc::clone(&mgr),
        })?;
    println!("configmap-mirror: running");
    mgr.start(shutdown).await?;
    Ok(())
}
