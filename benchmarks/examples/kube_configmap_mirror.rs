//! kube-rs's counterpart of controller-runtime's `configmap-mirror` example, the same job
//! written with `kube::runtime` as a kube-rs user would: ConfigMaps labelled
//! `mirror.example.com/to=<namespace>` are copied (same name, same data) into that
//! namespace and kept in sync. An owner reference cannot cross namespaces, so the source
//! carries the finalizer `mirror.example.com/cleanup` instead: deleting the source
//! deletes the copy, and only then is the finalizer removed. A copy changed or deleted by
//! hand brings its source back in line.
//!
//! The crate docs of controller-runtime count it beside ours (lines and concepts).
//!
//! ```text
//! KUBECONFIG=FILE cargo run --manifest-path benchmarks/Cargo.toml --example kube_configmap_mirror
//! ```

use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, DeleteParams, ObjectMeta, Patch, PatchParams};
use kube::runtime::controller::{Action, Controller};
use kube::runtime::finalizer::{Event, finalizer};
use kube::runtime::reflector::ObjectRef;
use kube::runtime::watcher;
use kube::{Client, ResourceExt};

/// The label naming the namespace to mirror into.
const MIRROR_TO: &str = "mirror.example.com/to";
/// The label on a copy naming its source's namespace.
const MIRROR_FROM: &str = "mirror.example.com/from";
/// The finalizer on sources.
const FINALIZER: &str = "mirror.example.com/cleanup";

#[derive(Debug, thiserror::Error)]
enum Error {
    #[error(transparent)]
    Kube(#[from] kube::Error),
    #[error(transparent)]
    Finalizer(Box<kube::runtime::finalizer::Error<Error>>),
}

async fn reconcile(source: Arc<ConfigMap>, client: Arc<Client>) -> Result<Action, Error> {
    let namespace = source.namespace().unwrap_or_default();
    let target = source.labels().get(MIRROR_TO).cloned().unwrap_or_default();
    let ours = !target.is_empty() || source.finalizers().iter().any(|f| f == FINALIZER);
    if !ours || target == namespace {
        return Ok(Action::await_change()); // not mirrored; a ConfigMap cannot be its own copy
    }
    let name = source.name_any();
    let copy = ConfigMap {
        metadata: ObjectMeta {
            name: Some(name.clone()),
            namespace: Some(target.clone()),
            labels: Some([(MIRROR_FROM.to_owned(), namespace.clone())].into()),
            ..ObjectMeta::default()
        },
        data: source.data.clone(),
        binary_data: source.binary_data.clone(),
        ..ConfigMap::default()
    };
    let sources: Api<ConfigMap> = Api::namespaced((*client).clone(), &namespace);
    let copies: Api<ConfigMap> = Api::namespaced((*client).clone(), &target);
    finalizer(&sources, FINALIZER, source, |event| async move {
        match event {
            // No longer labelled: the copy stays, the finalizer goes with the source.
            _ if target.is_empty() => {}
            Event::Apply(_) => {
                let manager = PatchParams::apply("configmap-mirror").force();
                copies.patch(&name, &manager, &Patch::Apply(&copy)).await?;
                println!("mirrored {name} to {target}");
            }
            Event::Cleanup(_) => match copies.delete(&name, &DeleteParams::default()).await {
                Err(kube::Error::Api(e)) if e.is_not_found() => {}
                other => drop(other?),
            },
        }
        Ok(Action::await_change())
    })
    .await
    .map_err(|e| Error::Finalizer(Box::new(e)))
}

fn error_policy(_: Arc<ConfigMap>, error: &Error, _: Arc<Client>) -> Action {
    eprintln!("reconcile failed: {error}");
    Action::requeue(Duration::from_secs(5))
}

#[tokio::main]
async fn main() -> Result<(), kube::Error> {
    let client = Client::try_default().await?;
    let config_maps = Api::<ConfigMap>::all(client.clone());
    println!("configmap-mirror: running");
    Controller::new(config_maps.clone(), watcher::Config::default())
        // A copy changed or deleted by hand brings its source back in line.
        .watches(config_maps, watcher::Config::default(), |copy| {
            let from = copy.labels().get(MIRROR_FROM).cloned();
            from.map(|ns| ObjectRef::new(&copy.name_any()).within(&ns))
        })
        .shutdown_on_signal()
        .run(reconcile, error_policy, Arc::new(client))
        .for_each(|_| async {})
        .await;
    Ok(())
}
