//! kube-rs's counterpart of controller-runtime's `replicaset-lite` example, the same job
//! written with `kube::runtime` as a kube-rs user would: keeps `spec.replicas` Pods for
//! each ReplicaSet, which controls them through controller references, and reports
//! `status.replicas` and `status.observedGeneration` through the status subresource.
//! Pods created or deleted but not yet seen in the Pod store are remembered
//! (client-go's "expectations"), so that a reconcile running before the store catches up
//! does not create them twice, and a deleted ReplicaSet's Pods are deleted (a server
//! without a garbage collector would keep them): kube-rs' controller is not called for
//! an object that is gone, so that is done under a finalizer.
//!
//! The crate docs of controller-runtime count it beside ours (lines and concepts).
//!
//! ```text
//! KUBECONFIG=FILE cargo run --manifest-path benchmarks/Cargo.toml --example kube_replicaset_lite
//! ```

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use k8s_openapi::api::apps::v1::ReplicaSet;
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams, ObjectMeta, PostParams};
use kube::runtime::controller::{Action, Controller};
use kube::runtime::finalizer::{Event, finalizer};
use kube::runtime::reflector::{ObjectRef, Store};
use kube::runtime::{reflector, watcher};
use kube::{Client, Resource, ResourceExt};

/// The finalizer under which a deleted ReplicaSet's Pods are deleted.
const FINALIZER: &str = "replicaset-lite.example.com/pods";

#[derive(Debug, thiserror::Error)]
enum Error {
    #[error(transparent)]
    Kube(#[from] kube::Error),
    #[error(transparent)]
    Finalizer(#[from] Box<kube::runtime::finalizer::Error<Error>>),
}

/// Pods created or deleted and not yet seen so in the store.
#[derive(Default)]
struct Expectations {
    adds: HashSet<String>,
    deletes: HashSet<String>,
}

struct Context {
    client: Client,
    pods: Store<Pod>,
    expectations: Mutex<HashMap<ObjectRef<ReplicaSet>, Expectations>>,
}

impl Context {
    /// The Pods in the store that `rs` controls.
    fn owned_pods(&self, rs: &ReplicaSet) -> Vec<Arc<Pod>> {
        let uid = rs.uid();
        self.pods.state_filter(|pod| {
            pod.namespace() == rs.namespace()
                && pod
                    .owner_references()
                    .iter()
                    .any(|r| r.controller == Some(true) && Some(&r.uid) == uid.as_ref())
        })
    }

    /// Whether earlier creations and deletions have all reached the store.
    fn satisfied(&self, key: &ObjectRef<ReplicaSet>, pods: &[Arc<Pod>]) -> bool {
        let mut all = self.expectations.lock().unwrap_or_else(|p| p.into_inner());
        let Some(e) = all.get_mut(key) else {
            return true;
        };
        let live: HashSet<String> = pods
            .iter()
            .filter(|p| p.metadata.deletion_timestamp.is_none())
            .map(|p| p.name_any())
            .collect();
        e.adds.retain(|n| !live.contains(n));
        e.deletes.retain(|n| live.contains(n));
        let done = e.adds.is_empty() && e.deletes.is_empty();
        if done {
            all.remove(key);
        }
        done
    }

    fn expect(&self, key: &ObjectRef<ReplicaSet>, f: impl FnOnce(&mut Expectations)) {
        let mut all = self.expectations.lock().unwrap_or_else(|p| p.into_inner());
        f(all.entry(key.clone()).or_default());
    }
}

async fn reconcile(rs: Arc<ReplicaSet>, ctx: Arc<Context>) -> Result<Action, Error> {
    let ns = rs.namespace().unwrap_or_default();
    let replicasets: Api<ReplicaSet> = Api::namespaced(ctx.client.clone(), &ns);
    finalizer(&replicasets, FINALIZER, rs, |event| async {
        match event {
            Event::Apply(rs) => apply(&rs, &ctx, &replicasets).await,
            Event::Cleanup(rs) => {
                let pods: Api<Pod> = Api::namespaced(ctx.client.clone(), &ns);
                for pod in ctx.owned_pods(&rs) {
                    match pods.delete(&pod.name_any(), &DeleteParams::default()).await {
                        Err(kube::Error::Api(e)) if e.is_not_found() => {}
                        other => drop(other?),
                    }
                }
                Ok(Action::await_change())
            }
        }
    })
    .await
    .map_err(|e| Error::Finalizer(Box::new(e)))
}

async fn apply(
    rs: &ReplicaSet,
    ctx: &Context,
    replicasets: &Api<ReplicaSet>,
) -> Result<Action, Error> {
    let (key, ns, name) = (ObjectRef::from_obj(rs), rs.namespace(), rs.name_any());
    let pods_api: Api<Pod> = Api::namespaced(ctx.client.clone(), ns.as_deref().unwrap_or(""));
    let pods = ctx.owned_pods(rs);
    if !ctx.satisfied(&key, &pods) {
        // The store's events will bring us back; the timer is a safety net.
        return Ok(Action::requeue(Duration::from_secs(2)));
    }
    let mut live: Vec<&Arc<Pod>> = pods
        .iter()
        .filter(|p| p.metadata.deletion_timestamp.is_none())
        .collect();
    live.sort_by_key(|p| p.name_any());
    let spec = rs.spec.clone();
    let want = usize::try_from(spec.replicas.unwrap_or(1)).unwrap_or(0);
    let have = live.len();

    if have < want {
        let template = spec.template.unwrap_or_default();
        let template_meta = template.metadata.unwrap_or_default();
        for _ in have..want {
            let pod = Pod {
                metadata: ObjectMeta {
                    namespace: ns.clone(),
                    generate_name: Some(format!("{name}-")),
                    labels: template_meta.labels.clone(),
                    annotations: template_meta.annotations.clone(),
                    owner_references: rs.controller_owner_ref(&()).map(|r| vec![r]),
                    ..ObjectMeta::default()
                },
                spec: template.spec.clone(),
                ..Pod::default()
            };
            let created = pods_api.create(&PostParams::default(), &pod).await?;
            ctx.expect(&key, |e| {
                e.adds.insert(created.name_any());
            });
        }
    } else if have > want {
        for pod in &live[want..] {
            pods_api
                .delete(&pod.name_any(), &DeleteParams::default())
                .await?;
            ctx.expect(&key, |e| {
                e.deletes.insert(pod.name_any());
            });
        }
    }

    let replicas = i32::try_from(want).unwrap_or(i32::MAX);
    let status = rs.status.clone().unwrap_or_default();
    if status.replicas != replicas || status.observed_generation != rs.metadata.generation {
        let mut updated = rs.clone();
        let status = updated.status.get_or_insert_with(Default::default);
        status.replicas = replicas;
        status.observed_generation = rs.metadata.generation;
        match replicasets
            .replace_status(&name, &PostParams::default(), &updated)
            .await
        {
            // A newer ReplicaSet is on its way through the store: reconcile that one.
            Err(kube::Error::Api(e)) if e.is_conflict() => {
                return Ok(Action::requeue(Duration::ZERO));
            }
            other => drop(other?),
        }
    }
    println!(
        "reconciled {}/{name}: {have} -> {want} pods",
        ns.unwrap_or_default()
    );
    Ok(Action::await_change())
}

fn error_policy(_: Arc<ReplicaSet>, error: &Error, _: Arc<Context>) -> Action {
    eprintln!("reconcile failed: {error}");
    Action::requeue(Duration::from_secs(5))
}

#[tokio::main]
async fn main() -> Result<(), kube::Error> {
    let client = Client::try_default().await?;
    // The Pods, in a store of their own: the controller's `owns` watch keeps no store.
    let (pods, writer) = reflector::store();
    let pod_watch = watcher(Api::<Pod>::all(client.clone()), watcher::Config::default());
    tokio::spawn(reflector(writer, pod_watch).for_each(|_| async {}));
    if pods.wait_until_ready().await.is_err() {
        return Ok(());
    }
    let context = Arc::new(Context {
        client: client.clone(),
        pods,
        expectations: Mutex::default(),
    });
    println!("replicaset-lite: running");
    Controller::new(
        Api::<ReplicaSet>::all(client.clone()),
        watcher::Config::default(),
    )
    .owns(Api::<Pod>::all(client), watcher::Config::default())
    .shutdown_on_signal()
    .run(reconcile, error_policy, context)
    .for_each(|_| async {})
    .await;
    Ok(())
}
