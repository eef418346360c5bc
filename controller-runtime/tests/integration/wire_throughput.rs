//! Protobuf and JSON give the same objects; how long each takes to list them (printed,
//! for the record: `cargo test -p controller-runtime --test integration wire_throughput:: -- --nocapture`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::{Duration, Instant};

use controller_runtime::client::{Client, ClientOptions, ListOptions, WatchEvent, WireFormat};
use controller_runtime::envtest::Environment;
use futures_util::StreamExt;
use k8s_types::core::v1::ConfigMap;

const OBJECTS: usize = 1000;
const ROUNDS: u32 = 5;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn protobuf_and_json_lists_agree() {
    let env = Environment::start().await.unwrap();
    let pb = Client::new(env.config(), env.scheme()).unwrap();
    let json = Client::with_options(
        env.config(),
        env.scheme(),
        ClientOptions {
            wire_format: WireFormat::Json,
        },
    )
    .unwrap();
    let started = Instant::now();
    for i in 0..OBJECTS {
        let mut cm = ConfigMap::default();
        cm.metadata.name = format!("cm-{i:05}");
        cm.metadata.namespace = "default".into();
        cm.metadata.labels = [("app".to_string(), format!("a{}", i % 10))].into();
        cm.data = (0..5)
            .map(|k| (format!("key-{k}"), format!("value {k} of object {i}")))
            .collect();
        pb.create(&cm, &Default::default()).await.unwrap();
    }
    let created = started.elapsed();
    let opts = ListOptions::in_namespace("default");
    let mut timings = Vec::new();
    let mut lists = Vec::new();
    for client in [&pb, &json] {
        let mut best = Duration::MAX;
        let mut last = None;
        for _ in 0..ROUNDS {
            let t = Instant::now();
            let list = client.list::<ConfigMap>(&opts).await.unwrap();
            best = best.min(t.elapsed());
            last = Some(list);
        }
        timings.push(best);
        lists.push(last.unwrap());
    }
    assert_eq!(lists[0].items.len(), OBJECTS);
    assert_eq!(lists[0].items, lists[1].items);

    // The initial events of a watch, decoded as they stream.
    let mut watch_timings = Vec::new();
    for client in [&pb, &json] {
        let t = Instant::now();
        let mut stream = client.watch::<ConfigMap>(&opts).await.unwrap();
        let mut n = 0;
        while n < OBJECTS {
            match stream.next().await.unwrap().unwrap() {
                WatchEvent::Added(_) => n += 1,
                other => panic!("{other:?}"),
            }
        }
        watch_timings.push(t.elapsed());
    }
    let per_sec = |d: Duration| OBJECTS as f64 / d.as_secs_f64();
    eprintln!(
        "{OBJECTS} ConfigMaps: created one by one in {created:?}; list (best of {ROUNDS}): protobuf {:?} ({:.0} objects/s), JSON {:?} ({:.0} objects/s); watch initial events: protobuf {:?} ({:.0}/s), JSON {:?} ({:.0}/s)",
        timings[0],
        per_sec(timings[0]),
        timings[1],
        per_sec(timings[1]),
        watch_timings[0],
        per_sec(watch_timings[0]),
        watch_timings[1],
        per_sec(watch_timings[1]),
    );
    env.stop().await;
}
