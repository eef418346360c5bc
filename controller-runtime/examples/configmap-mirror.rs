//! `configmap-mirror`: ConfigMaps labelled `mirror.example.com/to=<namespace>` are copied
//! (same name, same data) into that namespace and kept in sync. An owner reference
//! cannot cross namespaces, so the source carries the finalizer
//! `mirror.example.com/cleanup` instead: deleting the source deletes the copy, and only
//! then is the finalizer removed.
//!
//! ```text
//! cargo run -p controller-runtime --example configmap-mirror -- --kubeconfig FILE
//! ```
//!
//! It runs until interrupted (Ctrl-C) or, with `--stop-on-stdin-eof` (for tests), until
//! its standard input closes.

use std::sync::Arc;

use apimachinery::runtime::{Object, Scheme};
use controller_runtime::builder::ControllerBuilder;
use controller_runtime::client::{self, ObjectKey};
use controller_runtime::config::Config;
use controller_runtime::controllerutil::{self, ControllerUtilError};
use controller_runtime::handler::EnqueueRequestsFromMapFunc;
use controller_runtime::manager::{Manager, ManagerOptions};
use controller_runtime::reconcile::{Action, Reconciler, Request};
use k8s_types::core::v1::ConfigMap;

/// The label naming the namespace to mirror into.
const MIRROR_TO: &str = "mirror.example.com/to";
/// The label on a copy naming its source's namespace.
const MIRROR_FROM: &str = "mirror.example.com/from";
/// The finalizer on sources.
const FINALIZER: &str = "mirror.example.com/cleanup";

#[derive(Debug, thiserror::Error)]
enum MirrorError {
    #[error(transparent)]
    Client(#[from] client::Error),
    #[error(transparent)]
    Cache(#[from] controller_runtime::Error),
    #[error(transparent)]
    Util(#[from] ControllerUtilError),
}

struct Mirror {
    mgr: Arc<Manager>,
}

impl Mirror {
    async fn delete_copy(&self, namespace: &str, name: &str) -> Result<(), MirrorError> {
        let mut copy = ConfigMap::default();
        copy.metadata.namespace = namespace.to_owned();
        copy.metadata.name = name.to_owned();
        match self
            .mgr
            .api_reader()
            .delete(&copy, &Default::default())
            .await
        {
            Err(e) if !e.is_not_found() => Err(e.into()),
            _ => Ok(()),
        }
    }
}

impl Reconciler for Mirror {
    type Error = MirrorError;

    async fn reconcile(&self, req: Request) -> Result<Action, MirrorError> {
        let source: Arc<ConfigMap> = match self
            .mgr
            .client()
            .get(&ObjectKey::new(&req.namespace, &req.name))
            .await
        {
            Ok(s) => s,
            // Gone: its copy went before its finalizer did.
            Err(e) if e.is_not_found() => return Ok(Action::done()),
            Err(e) => return Err(e.into()),
        };
        let target = source.metadata.labels.get(MIRROR_TO).cloned();
        let has_finalizer = controllerutil::contains_finalizer(&*source, FINALIZER);
        let api = self.mgr.api_reader();

        if source.metadata.deletion_timestamp.is_some() || target.is_none() {
            if !has_finalizer {
                return Ok(Action::done());
            }
            // Being deleted, or no longer mirrored: the copy goes, then the finalizer.
            if let Some(target) = &target {
                self.delete_copy(target, &req.name).await?;
            }
            let mut updated = (*source).clone();
            controllerutil::remove_finalizer(&mut updated, FINALIZER);
            api.update(&updated, &Default::default()).await?;
            return Ok(Action::done());
        }
        let Some(target) = target else {
            return Ok(Action::done());
        };
        if target == req.namespace {
            // A ConfigMap cannot be its own copy.
            return Ok(Action::done());
        }
        if !has_finalizer {
            let mut updated = (*source).clone();
            controllerutil::add_finalizer(&mut updated, FINALIZER);
            // The update's event brings the next reconcile, which makes the copy.
            api.update(&updated, &Default::default()).await?;
            return Ok(Action::done());
        }

        let mut copy = ConfigMap::default();
        copy.metadata.namespace = target.clone();
        copy.metadata.name = req.name.clone();
        let result = controllerutil::create_or_update(api, &mut copy, |c: &mut ConfigMap| {
            c.metadata
                .labels
                .insert(MIRROR_FROM.into(), req.namespace.clone());
            c.data = source.data.clone();
            c.binary_data = source.binary_data.clone();
            Ok::<_, std::convert::Infallible>(())
        })
        .await?;
        println!("mirrored {req} to {target}: {result:?}");
        Ok(Action::done())
    }
}

fn usage() -> ! {
    eprintln!("usage: configmap-mirror [--kubeconfig FILE] [--stop-on-stdin-eof]");
    std::process::exit(2)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (mut kubeconfig, mut stop_on_eof) = (None, false);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--kubeconfig" => kubeconfig = Some(args.next().unwrap_or_else(|| usage())),
            "--stop-on-stdin-eof" => stop_on_eof = true,
            _ => usage(),
        }
    }
    let config = match kubeconfig {
        Some(path) => Config::from_kubeconfig(path)?,
        None => Config::load()?,
    };
    let mut scheme = Scheme::new();
    k8s_types::register(&mut scheme)?;
    let mgr = Arc::new(Manager::new(
        &config,
        ManagerOptions::new(Arc::new(scheme)),
    )?);
    ControllerBuilder::new(&mgr)
        .for_kind::<ConfigMap>()
        // A copy changed or deleted by hand brings its source back in line.
        .watches_kind::<ConfigMap>(EnqueueRequestsFromMapFunc::new(|obj: &dyn Object| {
            obj.meta()
                .and_then(|m| {
                    let labels = m.labels();
                    labels
                        .get(MIRROR_FROM)
                        .map(|ns| Request::new(ns.clone(), m.name()))
                })
                .into_iter()
                .collect()
        }))
        .complete(Mirror {
            mgr: Arc::clone(&mgr),
        })?;
    println!("configmap-mirror: running");
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
    Ok(())
}
