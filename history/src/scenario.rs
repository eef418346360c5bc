//! One run: a cluster started, writers and watchers working while faults are injected,
//! everything healed, a last write per resource that every watcher must reach, final
//! lists through every server, and the checker's report.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use tokio::sync::watch;

use crate::checker::{self, Report};
use crate::client::{Client, Clock};
use crate::cluster::{Cluster, ClusterSpec};
use crate::error::Error;
use crate::faults::{self, Fault};
use crate::record::{FINAL, History, Outcome, Request};
use crate::resource::{CONFIG_MAPS, PROBES, Resource};
use crate::workload::{self, Control, Rng, WatcherConfig, WriterConfig};

/// What to run.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// Its name, in reports.
    pub name: String,
    /// The servers and their storage.
    pub cluster: ClusterSpec,
    /// Faults injected one after the other, in this order, from the start.
    pub faults: Vec<Fault>,
    /// After those, faults picked at random from these until the run's time is up.
    pub random_faults: Vec<Fault>,
    /// How long the clients work (at least until every fault was injected).
    pub duration: Duration,
    /// The writers move to new objects this often (one epoch for the whole run when
    /// `None`).
    pub epoch: Option<Duration>,
    /// Writers, spread over the servers.
    pub writers: usize,
    /// Watchers per resource per server.
    pub watchers: usize,
    /// Objects per resource per epoch.
    pub keys: usize,
    /// Also write the custom resource.
    pub custom_resource: bool,
    /// The pause between a writer's requests, in milliseconds (low, high).
    pub pause_ms: (u64, u64),
    /// Each watch request's `timeoutSeconds` (low, high).
    pub watch_timeout_seconds: (u64, u64),
    /// How long the watchers get to reach the last write once everything is healed.
    pub drain: Duration,
    /// The pause between two faults, in milliseconds (low, high).
    pub gap_ms: (u64, u64),
    /// The seed of every choice.
    pub seed: u64,
    /// Where to keep the history (JSON) and, when the run found something, the logs.
    pub keep: Option<PathBuf>,
}

impl Scenario {
    /// A short run of `cluster` with `faults`: settings for CI.
    pub fn bounded(name: &str, cluster: ClusterSpec, faults: Vec<Fault>) -> Scenario {
        Scenario {
            name: name.to_owned(),
            cluster,
            faults,
            random_faults: Vec::new(),
            duration: Duration::from_secs(4),
            epoch: None,
            writers: 4,
            watchers: 2,
            keys: 4,
            custom_resource: true,
            pause_ms: (1, 10),
            watch_timeout_seconds: (3, 10),
            drain: Duration::from_secs(60),
            gap_ms: (500, 1000),
            seed: 48,
            keep: None,
        }
    }
}

/// What a run produced.
#[derive(Debug)]
pub struct RunResult {
    /// Everything recorded.
    pub history: History,
    /// The checker's findings.
    pub report: Report,
    /// The run's directory, kept when the run found something or `keep` was asked.
    pub kept: Option<PathBuf>,
    /// How long it took, setup to check.
    pub elapsed: Duration,
    /// Starts of a server that exited before it was ready (and were made again), with
    /// why: not a broken promise, but a server that needs a supervisor.
    pub failed_starts: Vec<String>,
}

/// Runs `scenario`.
pub async fn run(scenario: &Scenario) -> Result<RunResult, Error> {
    let began = Instant::now();
    let clock = Clock::start();
    let mut rng = Rng::new(scenario.seed);
    let mut cluster = Cluster::start(&scenario.cluster, scenario.seed).await?;
    let namespace = format!(
        "history-{}-{:x}",
        std::process::id(),
        rng.next_u64() & 0xffff
    );
    let filler_namespace = format!("{namespace}-filler");
    let resources: Vec<Resource> = if scenario.custom_resource {
        vec![CONFIG_MAPS, PROBES]
    } else {
        vec![CONFIG_MAPS]
    };
    faults::prepare(&cluster, &namespace, &filler_namespace, &resources).await?;

    let (control, receiver) = watch::channel(Control::default());
    let mut watchers = Vec::new();
    for server in 0..cluster.servers.len() {
        for resource in &resources {
            for _ in 0..scenario.watchers {
                let config = WatcherConfig {
                    id: watchers.len(),
                    namespace: namespace.clone(),
                    resource: resource.clone(),
                    timeout_seconds: scenario.watch_timeout_seconds,
                    idle: Duration::from_secs(45),
                    seed: rng.next_u64(),
                };
                let client = Client::new(&cluster.watch_target(server), Duration::from_secs(30))?;
                watchers.push(tokio::spawn(workload::watcher(
                    config,
                    client,
                    clock,
                    receiver.clone(),
                )));
            }
        }
    }
    let mut writers = Vec::new();
    for id in 0..scenario.writers {
        let config = WriterConfig {
            id,
            namespace: namespace.clone(),
            resources: resources.clone(),
            keys: scenario.keys,
            pause_ms: scenario.pause_ms,
            max_operations: 10_000_000,
            seed: rng.next_u64(),
        };
        let target = &cluster.servers[id % cluster.servers.len()].target;
        let client = Client::new(target, Duration::from_secs(15))?;
        writers.push(tokio::spawn(workload::writer(
            config,
            client,
            clock,
            receiver.clone(),
        )));
    }

    let mut history = History::default();
    let ctx = faults::Context {
        filler_namespace: &filler_namespace,
        resources: &resources,
        clock,
    };
    let fault_result = inject_faults(
        scenario,
        &mut cluster,
        &ctx,
        &control,
        &mut rng,
        &mut history,
    )
    .await;
    control.send_modify(|c| c.stop_writes = true);
    for writer in writers {
        history.operations.extend(writer.await.unwrap_or_default());
    }
    let healed = faults::heal_all(&mut cluster).await;
    let finished = fault_result.and(healed).and(
        finish(
            scenario,
            &cluster,
            &namespace,
            &resources,
            clock,
            &control,
            watchers,
            &mut history,
        )
        .await,
    );
    if let Err(error) = finished {
        let dir = cluster.keep();
        return Err(Error::Setup(format!(
            "{}: {error} (logs in {})",
            scenario.name,
            dir.display()
        )));
    }
    let report = checker::check(&history);
    let kept = match (&scenario.keep, report.passed()) {
        (Some(dir), _) => Some(save(dir, &scenario.name, &history, &report)?),
        (None, false) => {
            let dir = cluster.keep();
            save(&dir, &scenario.name, &history, &report)?;
            Some(dir)
        }
        (None, true) => None,
    };
    let failed_starts = cluster
        .servers
        .iter()
        .flat_map(|s| s.failed_starts().iter().cloned())
        .collect();
    Ok(RunResult {
        history,
        report,
        kept,
        elapsed: began.elapsed(),
        failed_starts,
    })
}

/// The faults, in order then at random until the run's time is up, moving the writers
/// to new objects every epoch.
async fn inject_faults(
    scenario: &Scenario,
    cluster: &mut Cluster,
    ctx: &faults::Context<'_>,
    control: &watch::Sender<Control>,
    rng: &mut Rng,
    history: &mut History,
) -> Result<(), Error> {
    let start = Instant::now();
    let mut epoch_started = Instant::now();
    let mut next = scenario.faults.iter();
    tokio::time::sleep(Duration::from_millis(
        rng.range(scenario.gap_ms.0, scenario.gap_ms.1),
    ))
    .await;
    loop {
        let fault = match next.next() {
            Some(fault) => Some(fault),
            None if !scenario.random_faults.is_empty() && start.elapsed() < scenario.duration => {
                Some(rng.pick(&scenario.random_faults))
            }
            None => None,
        };
        let Some(fault) = fault else { break };
        history
            .faults
            .push(faults::inject(cluster, fault, ctx).await?);
        tokio::time::sleep(Duration::from_millis(
            rng.range(scenario.gap_ms.0, scenario.gap_ms.1),
        ))
        .await;
        if let Some(epoch) = scenario.epoch
            && epoch_started.elapsed() >= epoch
        {
            control.send_modify(|c| c.epoch += 1);
            epoch_started = Instant::now();
        }
    }
    while start.elapsed() < scenario.duration {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Ok(())
}

/// Once everything is healed: the last write per resource, the watchers drained to it,
/// the final lists.
#[allow(clippy::too_many_arguments)]
async fn finish(
    scenario: &Scenario,
    cluster: &Cluster,
    namespace: &str,
    resources: &[Resource],
    clock: Clock,
    control: &watch::Sender<Control>,
    watchers: Vec<tokio::task::JoinHandle<crate::record::Watcher>>,
    history: &mut History,
) -> Result<(), Error> {
    let client = Client::new(&cluster.servers[0].target, Duration::from_secs(15))?;
    let harness = usize::MAX;
    for resource in resources {
        let mut attempt = 0;
        let rv = loop {
            attempt += 1;
            let value = format!("sentinel-{}-{attempt}", resource.plural);
            let name = format!("sentinel-{attempt}");
            let op = workload::perform(
                &client,
                &clock,
                harness,
                resource,
                namespace,
                &name,
                Request::Create { value },
            )
            .await;
            let rv = match &op.outcome {
                Outcome::Ok { object: Some(seen) } => Some(seen.rv),
                _ => None,
            };
            history.operations.push(op);
            if let Some(rv) = rv {
                break rv;
            }
            if attempt >= 60 {
                return Err(Error::Setup(format!(
                    "the last write of {} never succeeded",
                    resource.plural
                )));
            }
            tokio::time::sleep(Duration::from_millis(500)).await;
        };
        history.sentinels.insert(resource.plural.to_owned(), rv);
    }
    let sentinels = history.sentinels.clone();
    control.send_modify(|c| c.drain = sentinels);
    let deadline = tokio::time::Instant::now() + scenario.drain;
    for mut watcher in watchers {
        let joined = match tokio::time::timeout_at(deadline, &mut watcher).await {
            Ok(joined) => joined,
            Err(_) => {
                // Out of time: every watcher stops where it is (the checker says so).
                control.send_modify(|c| c.stop_watches = true);
                watcher.await
            }
        };
        if let Ok(watcher) = joined {
            history.watchers.push(watcher);
        }
    }
    control.send_modify(|c| c.stop_watches = true);
    for server in &cluster.servers {
        let client = Client::new(&server.target, Duration::from_secs(15))?;
        for resource in resources {
            for attempt in 0.. {
                let list = workload::list(&client, &clock, FINAL, resource, namespace).await;
                let ok = list.outcome.is_ok();
                history.lists.push(list);
                if ok || attempt >= 60 {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        }
    }
    Ok(())
}

/// Writes the history and the report into `dir`; the directory.
fn save(
    dir: &std::path::Path,
    name: &str,
    history: &History,
    report: &Report,
) -> Result<PathBuf, Error> {
    std::fs::create_dir_all(dir).map_err(Error::io(format!("create {}", dir.display())))?;
    let file = dir.join(format!("{name}.history.json"));
    let json =
        serde_json::to_vec(history).map_err(|e| Error::Setup(format!("history as JSON: {e}")))?;
    std::fs::write(&file, json).map_err(Error::io(format!("write {}", file.display())))?;
    let report_file = dir.join(format!("{name}.report.txt"));
    std::fs::write(&report_file, report.to_string())
        .map_err(Error::io(format!("write {}", report_file.display())))?;
    Ok(dir.to_path_buf())
}
