//! Reconcile-loop overhead (issue 18): a no-op reconcile over 10,000 objects, the time
//! from a full queue to a drained one, with 1 and 4 workers.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use controller_runtime::controller::{Controller, Options};
use controller_runtime::reconcile::{self, Action, Request};
use criterion::{Criterion, criterion_group, criterion_main};
use tokio_util::sync::CancellationToken;

const OBJECTS: u64 = 10_000;

async fn drain(workers: usize) -> Duration {
    let noop = reconcile::func(|_req: Request| async {
        Ok::<_, std::convert::Infallible>(Action::done())
    });
    let options = Options {
        max_concurrent_reconciles: workers,
        ..Options::default()
    };
    let controller = Arc::new(Controller::new("bench", noop, options));
    for i in 0..OBJECTS {
        controller
            .queue()
            .add(Request::new("default", format!("cm-{i:05}")));
    }
    let cancel = CancellationToken::new();
    let start = Instant::now();
    let run = tokio::spawn({
        let (c, cancel) = (Arc::clone(&controller), cancel.clone());
        async move { c.start(cancel).await }
    });
    let metrics = Arc::clone(controller.metrics());
    while metrics.success.load(Ordering::Relaxed) < OBJECTS {
        tokio::task::yield_now().await;
    }
    let elapsed = start.elapsed();
    cancel.cancel();
    run.await.unwrap().unwrap();
    elapsed
}

fn reconcile_overhead(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let mut group = c.benchmark_group("reconcile_overhead_10000_noop");
    group.sample_size(10);
    for workers in [1usize, 4] {
        group.bench_function(format!("workers_{workers}"), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    total += rt.block_on(drain(workers));
                }
                total
            });
        });
    }
    group.finish();
}

criterion_group!(benches, reconcile_overhead);
criterion_main!(benches);
