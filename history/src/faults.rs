//! The faults a run injects while its clients work, each injected, held and healed:
//! etcd killed and restarted, etcd paused past the servers' timeouts, a server killed
//! with `kill -9` and restarted on the same storage, a server cut from etcd by its
//! network namespace, every watch connection dropped mid-stream, and etcd compacted
//! while the watchers are held behind — or several of these at once.

use std::time::Duration;

use http::Method;
use serde_json::json;

use crate::client::{Answer, Client, Clock};
use crate::cluster::Cluster;
use crate::error::Error;
use crate::record::FaultRecord;
use crate::resource::Resource;

/// One fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// etcd is killed (SIGKILL) and restarted on its data after `down`.
    EtcdKill {
        /// How long it stays down.
        down: Duration,
    },
    /// etcd is stopped (SIGSTOP) for `paused`, then continued: longer than the servers'
    /// request timeouts, its connections open and silent.
    EtcdPause {
        /// How long it stays paused.
        paused: Duration,
    },
    /// Server `server` is killed (`kill -9`) and restarted on the same storage and
    /// address after `down`.
    ServerKill {
        /// Which server.
        server: usize,
        /// How long it stays down.
        down: Duration,
    },
    /// The server in the network namespace is cut from etcd for `cut`; its clients
    /// still reach it.
    Partition {
        /// How long the cut lasts.
        cut: Duration,
    },
    /// Every watch connection is dropped mid-stream.
    WatchDrop,
    /// The watchers are held off (their connections dropped and refused) while
    /// `filler` writes to another namespace are made, etcd is compacted, and then let
    /// back. A server whose watch cache keeps the writes resumes them from it, as
    /// kube-apiserver's keeps 75 s of events (Go's `watch_cache_history.go`); one that
    /// does not answers 410 Gone, and the watchers relist.
    CompactBehind {
        /// Writes per resource while the watchers are away.
        filler: usize,
    },
    /// These at once: injected in order, held together for the longest hold, healed
    /// in order, killed servers last.
    Together(Vec<Fault>),
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::EtcdKill { down } => write!(f, "etcd-kill {down:?}"),
            Fault::EtcdPause { paused } => write!(f, "etcd-pause {paused:?}"),
            Fault::ServerKill { server, down } => write!(f, "server-kill {server} {down:?}"),
            Fault::Partition { cut } => write!(f, "partition {cut:?}"),
            Fault::WatchDrop => write!(f, "watch-drop"),
            Fault::CompactBehind { filler } => write!(f, "compact-behind {filler}"),
            Fault::Together(faults) => {
                let names: Vec<String> = faults.iter().map(ToString::to_string).collect();
                write!(f, "together({})", names.join(", "))
            }
        }
    }
}

impl Fault {
    /// How long the fault is held before it is healed.
    fn hold(&self) -> Duration {
        match self {
            Fault::EtcdKill { down } | Fault::ServerKill { down, .. } => *down,
            Fault::EtcdPause { paused } => *paused,
            Fault::Partition { cut } => *cut,
            Fault::WatchDrop | Fault::CompactBehind { .. } => Duration::ZERO,
            Fault::Together(faults) => faults.iter().map(Fault::hold).max().unwrap_or_default(),
        }
    }

    /// The faults it is made of (itself, unless it is several).
    fn parts(&self) -> Vec<&Fault> {
        match self {
            Fault::Together(faults) => faults.iter().flat_map(Fault::parts).collect(),
            one => vec![one],
        }
    }
}

/// What a fault needs besides the cluster: the run's namespace for the filler, the
/// resources, and the clock.
#[derive(Debug)]
pub struct Context<'a> {
    /// The namespace the filler writes in (not the run's: its objects are not checked).
    pub filler_namespace: &'a str,
    /// The resources the run writes.
    pub resources: &'a [Resource],
    /// The run's clock.
    pub clock: Clock,
}

/// Injects `fault`, holds it, heals it; its record.
pub async fn inject(
    cluster: &mut Cluster,
    fault: &Fault,
    ctx: &Context<'_>,
) -> Result<FaultRecord, Error> {
    let started = ctx.clock.now();
    let parts = fault.parts();
    for part in &parts {
        start(cluster, part, ctx).await?;
    }
    tokio::time::sleep(fault.hold()).await;
    // Servers start again last: a server started while etcd is still paused or killed
    // would wait for it.
    let (servers, storage): (Vec<&Fault>, Vec<&Fault>) = parts
        .iter()
        .partition(|p| matches!(p, Fault::ServerKill { .. }));
    for part in storage.into_iter().chain(servers) {
        heal(cluster, part).await?;
    }
    Ok(FaultRecord {
        fault: fault.to_string(),
        started,
        ended: ctx.clock.now(),
    })
}

async fn start(cluster: &mut Cluster, fault: &Fault, ctx: &Context<'_>) -> Result<(), Error> {
    match fault {
        Fault::EtcdKill { .. } => etcd(cluster)?.kill(),
        Fault::EtcdPause { .. } => etcd(cluster)?.pause()?,
        Fault::ServerKill { server, .. } => {
            let count = cluster.servers.len();
            cluster
                .servers
                .get_mut(*server)
                .ok_or_else(|| Error::Setup(format!("no server {server} of {count}")))?
                .kill();
        }
        Fault::Partition { .. } => netns(cluster)?.cut()?,
        Fault::WatchDrop => {
            for proxy in &cluster.proxies {
                proxy.drop_connections();
            }
        }
        Fault::CompactBehind { filler } => {
            for proxy in &cluster.proxies {
                proxy.block();
            }
            let result = compact_behind(cluster, *filler, ctx).await;
            for proxy in &cluster.proxies {
                proxy.unblock();
            }
            result?;
        }
        Fault::Together(_) => {}
    }
    Ok(())
}

async fn heal(cluster: &mut Cluster, fault: &Fault) -> Result<(), Error> {
    match fault {
        Fault::EtcdKill { .. } => etcd(cluster)?.start()?,
        Fault::EtcdPause { .. } => etcd(cluster)?.resume()?,
        Fault::ServerKill { server, .. } => {
            if let Some(s) = cluster.servers.get_mut(*server) {
                s.start().await?;
            }
        }
        Fault::Partition { .. } => netns(cluster)?.heal()?,
        Fault::WatchDrop | Fault::CompactBehind { .. } | Fault::Together(_) => {}
    }
    Ok(())
}

/// Heals whatever may still be broken (after a fault whose healing failed): etcd
/// running and continued, the namespace's link up, every server running, the proxies
/// accepting.
pub async fn heal_all(cluster: &mut Cluster) -> Result<(), Error> {
    if let Some(etcd) = &mut cluster.etcd {
        etcd.resume()?;
        etcd.start()?;
    }
    if let Some(netns) = &cluster.netns {
        netns.heal()?;
    }
    for proxy in &cluster.proxies {
        proxy.unblock();
    }
    for server in &mut cluster.servers {
        server.start().await?;
    }
    Ok(())
}

fn etcd(cluster: &mut Cluster) -> Result<&mut crate::cluster::etcd::Etcd, Error> {
    cluster
        .etcd
        .as_mut()
        .ok_or_else(|| Error::Setup("an etcd fault on a cluster without etcd".into()))
}

fn netns(cluster: &Cluster) -> Result<&crate::cluster::netns::Netns, Error> {
    cluster
        .netns
        .as_ref()
        .ok_or_else(|| Error::Setup("a partition on a cluster without a network namespace".into()))
}

/// While the watchers are away: `filler` writes per resource through the first server,
/// in another namespace, then a compaction of etcd at its current revision.
async fn compact_behind(cluster: &Cluster, filler: usize, ctx: &Context<'_>) -> Result<(), Error> {
    let client = Client::new(&cluster.servers[0].target, Duration::from_secs(15))?;
    for resource in ctx.resources {
        let mut tasks = Vec::new();
        for task in 0..8 {
            let client = client.clone();
            let path = resource.object(ctx.filler_namespace, "filler");
            let resource = resource.clone();
            tasks.push(tokio::spawn(async move {
                for n in (task..filler).step_by(8) {
                    let body = resource
                        .patch(&format!("filler-{n}"))
                        .to_string()
                        .into_bytes();
                    let _ = client
                        .request(
                            Method::PATCH,
                            &path,
                            "application/merge-patch+json",
                            Some(body),
                        )
                        .await;
                }
            }));
        }
        for task in tasks {
            let _ = task.await;
        }
    }
    if let Some(etcd) = &cluster.etcd {
        etcd.compact()?;
    }
    Ok(())
}

/// Creates what a run needs before its clients start: its namespace and the filler's,
/// the custom resource's definition (served by every server), the filler objects.
pub async fn prepare(
    cluster: &Cluster,
    namespace: &str,
    filler_namespace: &str,
    resources: &[Resource],
) -> Result<(), Error> {
    let client = Client::new(&cluster.servers[0].target, Duration::from_secs(15))?;
    for ns in [namespace, filler_namespace] {
        let body = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}});
        ensure(&client, Method::POST, "/api/v1/namespaces", Some(body)).await?;
    }
    if resources.contains(&crate::resource::PROBES) {
        ensure(
            &client,
            Method::POST,
            "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
            Some(crate::resource::probe_definition()),
        )
        .await?;
    }
    for server in &cluster.servers {
        let client = Client::new(&server.target, Duration::from_secs(15))?;
        for resource in resources {
            ensure(&client, Method::GET, &resource.collection(namespace), None).await?;
        }
    }
    for resource in resources {
        let body = resource.body("filler", "filler", None);
        ensure(
            &client,
            Method::POST,
            &resource.collection(filler_namespace),
            Some(body),
        )
        .await?;
    }
    Ok(())
}

/// Sends a request until it succeeds (409: it already exists), for up to a minute.
async fn ensure(
    client: &Client,
    method: Method,
    path: &str,
    body: Option<serde_json::Value>,
) -> Result<(), Error> {
    let mut last = String::new();
    for _ in 0..120 {
        let bytes = body.as_ref().map(|b| b.to_string().into_bytes());
        match client
            .request(method.clone(), path, "application/json", bytes)
            .await
        {
            Answer::Status(status, _) if status.is_success() || status.as_u16() == 409 => {
                return Ok(());
            }
            other => last = format!("{other:?}"),
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    Err(Error::Setup(format!(
        "{method} {path} did not succeed: {last}"
    )))
}
