//! `replicaset-lite`: keeps `spec.replicas` Pods for each ReplicaSet, as Kubernetes'
//! ReplicaSet controller does in its simplest form. The ReplicaSet controls its Pods
//! through controller references (`for_kind::<ReplicaSet>().owns::<Pod>()`), finds them
//! through a field index on the controller owner's name, and reports `status.replicas`
//! and `status.observedGeneration` through the status subresource.
//!
//! What it shows: an owner and what it owns (`owns`, controller references), an
//! [`ObjectReconciler`] handed the cached ReplicaSet and told when it is gone, a field
//! index read through the manager's client, writes and the status subresource through
//! the same client, one error type (`?` throughout), and shutdown on SIGINT/SIGTERM.
//!
//! ```text
//! KUBECONFIG=FILE cargo run -p controller-runtime --example replicaset-lite
//! ```
//!
//! Pods it created but the cache has not shown yet are remembered (client-go's
//! "expectations"), so a reconcile running before the cache catches up does not create
//! them twice. A deleted ReplicaSet's Pods are deleted (a server without a garbage
//! collector, as `kapi serve`, would keep them).

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use apimachinery::fields;
use apimachinery::runtime::Scheme;
use controller_runtime::builder::ControllerBuilder;
use controller_runtime::client::ListOptions;
use controller_runtime::config::Config;
use controller_runtime::controllerutil;
use controller_runtime::manager::{Manager, ManagerOptions};
use controller_runtime::reconcile::{Action, ObjectReconciler, Request};
use controller_runtime::signals::setup_signal_handler;
use k8s_types::apps::v1::ReplicaSet;
use k8s_types::core::v1::Pod;

/// The field index of a Pod's controller owner (a ReplicaSet's name).
const OWNER_INDEX: &str = ".metadata.controller";

/// Pods created or deleted and not yet seen so in the cache.
#[derive(Default)]
struct Expectations {
    adds: HashSet<String>,
    deletes: HashSet<String>,
}

struct ReplicaSetLite {
    mgr: Arc<Manager>,
    expectations: Mutex<HashMap<Request, Expectations>>,
}

impl ReplicaSetLite {
    async fn owned_pods(&self, req: &Request) -> controller_runtime::Result<Vec<Arc<Pod>>> {
        let selector = fields::Selector::parse(&format!("{OWNER_INDEX}={}", req.name))
            .map_err(|e| controller_runtime::Error::other(e.to_string()))?;
        let opts = ListOptions::in_namespace(&req.namespace).with_fields(selector);
        self.mgr.client().list::<Pod>(&opts).await
    }

    /// Whether earlier creations and deletions have all reached the cache.
    fn satisfied(&self, req: &Request, pods: &[Arc<Pod>]) -> bool {
        let mut all = self.expectations.lock().unwrap_or_else(|p| p.into_inner());
        let Some(e) = all.get_mut(req) else {
            return true;
        };
        let live: HashSet<&str> = pods
            .iter()
            .filter(|p| p.metadata.deletion_timestamp.is_none())
            .map(|p| p.metadata.name.as_str())
            .collect();
        e.adds.retain(|n| !live.contains(n.as_str()));
        e.deletes.retain(|n| live.contains(n.as_str()));
        let done = e.adds.is_empty() && e.deletes.is_empty();
        if done {
            all.remove(req);
        }
        done
    }

    fn expect(&self, req: &Request, f: impl FnOnce(&mut Expectations)) {
        let mut all = self.expectations.lock().unwrap_or_else(|p| p.into_inner());
        f(all.entry(req.clone()).or_default());
    }
}

impl ObjectReconciler<ReplicaSet> for ReplicaSetLite {
    async fn reconcile(&self, rs: Arc<ReplicaSet>) -> controller_runtime::Result<Action> {
        let (api, req) = (
            self.mgr.client(),
            Request::new(&rs.metadata.namespace, &rs.metadata.name),
        );
        let pods = self.owned_pods(&req).await?;
        if rs.metadata.deletion_timestamp.is_some() {
            return Ok(Action::done());
        }
        if !self.satisfied(&req, &pods) {
            // The cache's events will bring us back; the timer is a safety net.
            return Ok(Action::requeue_after(Duration::from_secs(2)));
        }
        let mut live: Vec<&Arc<Pod>> = pods
            .iter()
            .filter(|p| p.metadata.deletion_timestamp.is_none())
            .collect();
        live.sort_by(|a, b| a.metadata.name.cmp(&b.metadata.name));
        let want = usize::try_from(rs.spec.replicas.unwrap_or(1)).unwrap_or(0);
        let have = live.len();

        if have < want {
            for _ in have..want {
                let mut pod = Pod::default();
                pod.metadata.namespace = req.namespace.clone();
                pod.metadata.generate_name = format!("{}-", req.name);
                pod.metadata.labels = rs.spec.template.metadata.labels.clone();
                pod.metadata.annotations = rs.spec.template.metadata.annotations.clone();
                pod.spec = rs.spec.template.spec.clone();
                controllerutil::set_controller_reference(&*rs, &mut pod, self.mgr.scheme())?;
                let created = api.create(&pod, &Default::default()).await?;
                self.expect(&req, |e| {
                    e.adds.insert(created.metadata.name.clone());
                });
            }
        } else if have > want {
            for pod in &live[want..] {
                api.delete(&***pod, &Default::default()).await?;
                self.expect(&req, |e| {
                    e.deletes.insert(pod.metadata.name.clone());
                });
            }
        }

        let replicas = i32::try_from(want).unwrap_or(i32::MAX);
        if rs.status.replicas != replicas || rs.status.observed_generation != rs.metadata.generation
        {
            let mut updated = (*rs).clone();
            updated.status.replicas = replicas;
            updated.status.observed_generation = rs.metadata.generation;
            match api.status().update(&updated, &Default::default()).await {
                // A newer ReplicaSet is on its way through the cache: reconcile that one.
                Err(e) if e.is_conflict() => return Ok(Action::requeue()),
                other => other?,
            };
        }
        println!("reconciled {req}: {have} -> {want} pods");
        Ok(Action::done())
    }

    /// The ReplicaSet is gone: its Pods go too (a server without a garbage collector, as
    /// `kapi serve`, would keep them).
    async fn deleted(&self, req: Request) -> controller_runtime::Result<Action> {
        let pods = self.owned_pods(&req).await?;
        for pod in pods
            .iter()
            .filter(|p| p.metadata.deletion_timestamp.is_none())
        {
            match self.mgr.client().delete(&**pod, &Default::default()).await {
                Err(e) if !e.is_not_found() => return Err(e),
                _ => {}
            }
        }
        Ok(Action::done())
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // First, so that a signal from here on asks for shutdown instead of killing.
    let shutdown = setup_signal_handler()?;
    let config = Config::load()?;
    let mut scheme = Scheme::new();
    k8s_types::register(&mut scheme)?;
    let mgr = Arc::new(Manager::new(
        &config,
        ManagerOptions::new(Arc::new(scheme)),
    )?);
    mgr.cache().index_field::<Pod>(OWNER_INDEX, |pod: &Pod| {
        pod.metadata
            .owner_references
            .iter()
            .filter(|r| {
                r.controller == Some(true) && r.kind == "ReplicaSet" && r.api_version == "apps/v1"
            })
            .map(|r| r.name.clone())
            .collect()
    })?;
    ControllerBuilder::new(&mgr)
        .for_kind::<ReplicaSet>()
        .owns::<Pod>()
        .complete_object(ReplicaSetLite {
            mgr: Arc::clone(&mgr),
            expectations: Mutex::default(),
        })?;
    println!("replicaset-lite: running");
    mgr.start(shutdown).await?;
    Ok(())
}
