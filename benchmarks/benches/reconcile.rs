//! Reconcile-loop overhead (issue 18), ours beside kube-runtime in one run: 10,000
//! objects queued, a reconcile that returns at once, timed from the full queue to the
//! last reconcile, with 1 and 4 reconciles at a time. What is left is what a controller
//! spends besides the user's code.
//!
//! - `ours`: a `controller_runtime::controller::Controller` whose work queue holds the
//!   10,000 requests (client-go's de-duplicating, rate-limited queue), drained by its
//!   workers; the reconcile gets the `Request` (namespace and name), as in Go.
//! - `kube-runtime applier`: `kube::runtime::applier`, the loop under kube's
//!   `Controller`, fed the 10,000 object references as its queue stream, with a
//!   reflector store holding the 10,000 ConfigMaps (the applier looks each one up and
//!   hands the reconcile an `Arc` of it; it skips references the store lacks).
//!
//! - `Go controller-runtime`: v0.24.1's controller (`oracle/bin/k8s-oracle
//!   bench-reconcile`, run first, alone): its queue filled by a source that reports itself
//!   synced once full, so that no worker starts before; a `reconcile.Func` that returns
//!   at once. Go's figure is the median of 10 runs; without the oracle built, the table
//!   says Go was not measured.
//!
//! The setup (queue filled, store built) is outside the timed region. Ours and
//! kube-runtime's run on the same two-thread tokio runtime (Go on as many threads as the
//! machine has cores: two here). Usage: `cargo bench --bench reconcile` (from
//! `benchmarks/`).

use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use benchmarks::{Comparison, Suite, format_duration, go_oracle_lines};
use controller_runtime::controller::{Controller, Options};
use controller_runtime::reconcile::{self, Action, Reconciler, Request};
use futures_util::{StreamExt, stream};
use k8s_openapi::api::core::v1::ConfigMap;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kube::runtime::controller::{Action as KubeAction, Config as KubeConfig};
use kube::runtime::reflector::{self, ObjectRef, Store};
use kube::runtime::watcher::Event;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

type Error = Box<dyn std::error::Error>;

const OBJECTS: u64 = 10_000;

fn name(i: u64) -> String {
    format!("cm-{i:05}")
}

/// A controller whose queue holds every request, and what its last reconcile wakes.
fn ours(workers: usize) -> (Arc<Controller<impl Reconciler>>, Arc<Notify>) {
    let done = Arc::new(Notify::new());
    let count = Arc::new(AtomicU64::new(0));
    let noop = reconcile::func({
        let done = Arc::clone(&done);
        move |_req: Request| {
            if count.fetch_add(1, Ordering::Relaxed) + 1 == OBJECTS {
                done.notify_one();
            }
            async { Ok::<_, Infallible>(Action::done()) }
        }
    });
    let options = Options {
        max_concurrent_reconciles: workers,
        ..Options::default()
    };
    let controller = Arc::new(Controller::new("bench", noop, options));
    for i in 0..OBJECTS {
        controller.queue().add(Request::new("default", name(i)));
    }
    (controller, done)
}

async fn drain_ours<R: Reconciler>(
    (controller, done): (Arc<Controller<R>>, Arc<Notify>),
) -> Result<(), Error> {
    let cancel = CancellationToken::new();
    let run = tokio::spawn({
        let (c, cancel) = (Arc::clone(&controller), cancel.clone());
        async move { c.start(cancel).await }
    });
    done.notified().await;
    cancel.cancel();
    run.await??;
    Ok(())
}

/// kube-runtime's store, ready, with one ConfigMap per reference.
fn kube_store() -> (Store<ConfigMap>, Vec<ObjectRef<ConfigMap>>) {
    let (store, mut writer) = reflector::store::<ConfigMap>();
    writer.apply_watcher_event(&Event::Init);
    let mut refs = Vec::new();
    for i in 0..OBJECTS {
        let cm = ConfigMap {
            metadata: ObjectMeta {
                name: Some(name(i)),
                namespace: Some("default".into()),
                ..ObjectMeta::default()
            },
            ..ConfigMap::default()
        };
        refs.push(ObjectRef::from_obj(&cm));
        writer.apply_watcher_event(&Event::InitApply(cm));
    }
    writer.apply_watcher_event(&Event::InitDone);
    // The store is shared through an `Arc`; the writer may go.
    drop(writer);
    (store, refs)
}

async fn drain_kube(
    store: Store<ConfigMap>,
    refs: Vec<ObjectRef<ConfigMap>>,
    workers: u16,
) -> Result<(), Error> {
    let applied = kube::runtime::applier(
        |_obj: Arc<ConfigMap>, _ctx: Arc<()>| {
            std::future::ready(Ok::<_, Infallible>(KubeAction::await_change()))
        },
        |_obj, _err: &Infallible, _ctx| KubeAction::await_change(),
        Arc::new(()),
        store,
        // The queue stays open, as a watch does: kube's scheduler ends, dropping what
        // it holds, as soon as its input ends.
        stream::iter(refs.into_iter().map(Ok::<_, Infallible>)).chain(stream::pending()),
        KubeConfig::default().concurrency(workers),
    );
    let mut applied = std::pin::pin!(applied.take(OBJECTS as usize));
    let mut n = 0u64;
    while let Some(result) = applied.next().await {
        result?;
        n += 1;
    }
    if n != OBJECTS {
        return Err(format!("kube-runtime reconciled {n} of {OBJECTS}").into());
    }
    Ok(())
}

/// Go's median time per run, by workers, in nanoseconds.
fn go_figures() -> Result<Option<Vec<(usize, f64)>>, Error> {
    let objects = OBJECTS.to_string();
    let Some(lines) = go_oracle_lines(&["bench-reconcile".as_ref(), objects.as_ref()])? else {
        return Ok(None);
    };
    let mut figures = Vec::new();
    for r in lines {
        let (Some(workers), Some(ns)) = (r["workers"].as_u64(), r["ns_per_op"].as_f64()) else {
            return Err(format!("k8s-oracle bench-reconcile: {r}").into());
        };
        figures.push((usize::try_from(workers)?, ns));
    }
    Ok(Some(figures))
}

fn main() -> Result<(), Error> {
    // Go first, alone on the machine.
    let go = go_figures()?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let (store, refs) = kube_store();
    // Both must get through every object, or the times would compare failures.
    rt.block_on(drain_ours(ours(1)))?;
    rt.block_on(drain_kube(store.clone(), refs.clone(), 1))?;

    let mut suite = Suite::new("reconcile");
    let groups: Vec<(usize, String)> = [1usize, 4]
        .into_iter()
        .map(|w| (w, format!("reconcile {OBJECTS} no-op/{w} at a time")))
        .collect();
    for (workers, group) in &groups {
        let workers = *workers;
        suite.bench_by_value(
            group,
            "ours",
            || ours(workers),
            |input| rt.block_on(drain_ours(input)).is_ok(),
        );
        let concurrency = u16::try_from(workers)?;
        suite.bench_by_value(
            group,
            "kube-runtime applier",
            || refs.clone(),
            |refs| {
                rt.block_on(drain_kube(store.clone(), refs, concurrency))
                    .is_ok()
            },
        );
    }
    suite.final_summary();
    let comparisons: Vec<Comparison<'_>> = groups
        .iter()
        .map(|(_, group)| Comparison {
            group,
            ours: "ours",
            peer: "kube-runtime applier",
            target: None,
        })
        .collect();
    suite.print_summary("Reconcile loop: ours vs kube-runtime", &comparisons);

    println!("## Reconcile loop: Go's controller-runtime against ours, same run");
    println!();
    println!("| group | Go controller-runtime | ours | ours / Go | target |");
    println!("|---|---:|---:|---:|---|");
    let mut rows = Vec::new();
    for (workers, group) in &groups {
        let Some(ours) = suite.get(group, "ours") else {
            continue;
        };
        let go_ns = go
            .as_ref()
            .and_then(|g| g.iter().find(|(w, _)| w == workers).map(|(_, ns)| *ns));
        let (go_text, ratio) = match go_ns {
            Some(ns) => (
                format_duration(std::time::Duration::from_nanos(ns as u64)),
                format!("{:.2}×", ours.median.as_nanos() as f64 / ns),
            ),
            None => ("not measured".to_owned(), "—".to_owned()),
        };
        println!(
            "| {group} | {go_text} | {} | {ratio} | ≤ 0.5× |",
            format_duration(ours.median)
        );
        if let Some(ns) = go_ns {
            rows.push(
                suite
                    .row(
                        &format!("{group}/ours vs Go"),
                        &format!("Reconcile loop: {group}, ours vs Go"),
                        ours,
                    )
                    .against("Go controller-runtime", ns)
                    .target("ratio <= 0.5".to_owned()),
            );
        }
    }
    suite.save(&rows);
    Ok(())
}
