//! The cache benchmark of issue 18, in one process on the in-process API server:
//!
//! 1. bytes per cached object: 10,000 ConfigMaps and 1,000 Pods (Go's fixture), listed
//!    and watched by our cache (`controller_runtime::cache::Cache`) and by kube-runtime's
//!    reflector store, measured as the live heap bytes a counting global allocator sees
//!    after the initial sync, minus those before it; our cache both holding objects
//!    encoded (`CacheOptions::store_encoded`) and, as by default, shared as decoded; then the time of a `Cache::get` of every object and of whole `Cache::list`s
//!    (after the memory figure, so that what the reads allocate is not counted);
//! 2. watch-event decode throughput, protobuf vs JSON: a watch replaying every creation
//!    event, objects per second through our client;
//! 3. Go beside both, against the same server in the same run (issue 42):
//!    controller-runtime v0.24.1's cache (as shipped, and with its
//!    `TransformStripManagedFields`), heap bytes per object after two collections, the
//!    time of its Get and List (each deep-copying, as by default), and client-go v0.36.3's watch decode rate (`oracle/bin/k8s-oracle bench-cache`, run
//!    first; without the oracle built, the Go table says it was not measured).
//!
//! The API server runs in a child process (the same binary, `--serve`), so that only
//! the caches are counted.
//!
//! Usage: `cargo run --release --bin cache -- [configmaps] [pods]` (from `benchmarks/`).

use std::alloc::System;
use std::sync::Arc;
use std::time::{Duration, Instant};

use apimachinery::runtime::Scheme;
use benchmarks::objects::{Error, replay_watch, serve_until_stdin_closes};
use benchmarks::{go_oracle_lines, results};
use controller_runtime::cache::{Cache, CacheOptions};
use controller_runtime::client::{Client, ClientOptions, ListOptions, ObjectKey, WireFormat};
use controller_runtime::config::Config;
use futures_util::StreamExt;
use stats_alloc::{INSTRUMENTED_SYSTEM, StatsAlloc};
use tokio_util::sync::CancellationToken;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// Live heap bytes. stats_alloc already adds a growing `realloc`'s difference to
/// `bytes_allocated` (and a shrinking one's to `bytes_deallocated`); its
/// `bytes_reallocated` is the net of those, not to be added again.
fn live_bytes() -> i64 {
    let s = GLOBAL.stats();
    s.bytes_allocated as i64 - s.bytes_deallocated as i64
}

/// Lets transient allocations of other tasks (connection buffers, decode scratch) go.
async fn settle() {
    tokio::time::sleep(Duration::from_millis(300)).await;
}

/// Waits until what a measurement held is freed (its tasks end after being cancelled),
/// so that the next measurement's baseline does not include it.
async fn released(before: i64, after: i64) {
    for _ in 0..100 {
        if live_bytes() - before < (after - before) / 20 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    eprintln!(
        "warning: {} bytes still held after a measurement",
        live_bytes() - before
    );
}

/// What one of our caches costs: bytes per object held, and the time of a read.
#[derive(Clone, Copy)]
struct Ours {
    bytes: f64,
    /// `Cache::get` of every object, nanoseconds per call.
    get_ns: f64,
    /// `Cache::list` of all objects, nanoseconds per object returned.
    list_ns: f64,
}

async fn ours_per_object<T: apimachinery::runtime::Resource>(
    client: &Client,
    scheme: &Arc<Scheme>,
    strip: bool,
    encoded: bool,
    expected: usize,
) -> Result<Ours, Error> {
    settle().await;
    let before = live_bytes();
    let cache = Cache::new(
        client.clone(),
        Arc::clone(scheme),
        CacheOptions {
            strip_managed_fields: strip,
            store_encoded: encoded,
            ..CacheOptions::default()
        },
    );
    let stop = CancellationToken::new();
    cache.start(stop.clone());
    let informer = cache.get_informer::<T>()?;
    informer.wait_for_sync().await;
    let n = informer.indexer().len();
    settle().await;
    let after = live_bytes();
    // Reads after the memory figure, so that what they allocate is not counted in it:
    // a Get of every object, then whole Lists (Go's figures are the same reads, each
    // deep-copying as controller-runtime's cache reader does by default).
    let keys: Vec<ObjectKey> = informer
        .indexer()
        .list_keys()
        .into_iter()
        .map(|key| match key.split_once('/') {
            Some((ns, name)) => ObjectKey::new(ns, name),
            None => ObjectKey::new("", &key),
        })
        .collect();
    let start = Instant::now();
    for key in &keys {
        std::hint::black_box(cache.get::<T>(key).await?);
    }
    let get_ns = start.elapsed().as_nanos() as f64 / keys.len().max(1) as f64;
    const LISTS: usize = 5;
    let start = Instant::now();
    for _ in 0..LISTS {
        std::hint::black_box(cache.list::<T>(&ListOptions::default()).await?);
    }
    let list_ns = start.elapsed().as_nanos() as f64 / (LISTS * n.max(1)) as f64;
    stop.cancel();
    drop(informer);
    drop(cache);
    released(before, after).await;
    if n != expected {
        return Err(format!("our cache holds {n} objects, not {expected}").into());
    }
    Ok(Ours {
        bytes: (after - before) as f64 / n as f64,
        get_ns,
        list_ns,
    })
}

async fn kube_bytes_per_object<K>(url: &str, strip: bool, expected: usize) -> Result<f64, Error>
where
    K: kube::Resource<DynamicType = ()>
        + Clone
        + std::fmt::Debug
        + serde::de::DeserializeOwned
        + Send
        + Sync
        + 'static,
{
    use kube::runtime::WatchStreamExt;
    settle().await;
    let before = live_bytes();
    let config = kube::Config::new(url.parse()?);
    let client = kube::Client::try_from(config)?;
    let api: kube::Api<K> = kube::Api::all(client);
    let (reader, writer) = kube::runtime::reflector::store::<K>();
    let watch = kube::runtime::watcher(api, kube::runtime::watcher::Config::default());
    let task = if strip {
        let stream = kube::runtime::reflector(
            writer,
            watch.modify(|o: &mut K| o.meta_mut().managed_fields = None),
        );
        tokio::spawn(stream.for_each(|_| async {}))
    } else {
        tokio::spawn(kube::runtime::reflector(writer, watch).for_each(|_| async {}))
    };
    reader.wait_until_ready().await?;
    let n = reader.state().len();
    settle().await;
    let after = live_bytes();
    task.abort();
    drop(reader);
    released(before, after).await;
    if n != expected {
        return Err(format!("kube's store holds {n} objects, not {expected}").into());
    }
    Ok((after - before) as f64 / n as f64)
}

/// A watch from `from` replays every later creation: objects per second decoded.
async fn watch_throughput<T: apimachinery::runtime::Resource>(
    url: &str,
    scheme: &Arc<Scheme>,
    wire: WireFormat,
    from: &str,
    expected: usize,
) -> Result<f64, Error> {
    let (client, opts) = replay_watch(url, scheme, wire, from)?;
    let start = Instant::now();
    let mut stream = client.watch::<T>(&opts).await?;
    let mut n = 0;
    while n < expected {
        match stream.next().await {
            Some(Ok(_)) => n += 1,
            Some(Err(e)) => return Err(e.into()),
            None => break,
        }
    }
    if n != expected {
        return Err(format!("the watch replayed {n} events, not {expected}").into());
    }
    Ok(n as f64 / start.elapsed().as_secs_f64())
}

/// Go's figure for `kind` and `op` from `k8s-oracle bench-cache`'s lines.
fn go_value(go: Option<&[serde_json::Value]>, kind: &str, op: &str) -> Option<f64> {
    go?.iter()
        .find(|r| r["kind"] == kind && r["op"] == op)
        .and_then(|r| r["value"].as_f64())
}

/// Our figures of one kind: the cache with managedFields stripped and objects encoded,
/// the same holding objects shared as decoded (the default), and the encoded one without
/// the transform.
struct Figures {
    kind: &'static str,
    n: usize,
    ours: Ours,
    shared: Ours,
    raw: Ours,
}

/// The tables against Go: bytes per cached object (ours and Go's, each with and without
/// stripping managedFields), the time of a read, and watch events decoded per second.
fn print_go_tables(go: Option<&[serde_json::Value]>, ours: &[Figures], rates: &[(&str, f64, f64)]) {
    let cell = |v: Option<f64>, unit: &str| {
        v.map_or("not measured".to_owned(), |v| format!("{v:.0}{unit}"))
    };
    let ratio = |a: f64, b: Option<f64>| b.map_or("—".to_owned(), |b| format!("{:.2}x", a / b));
    println!();
    println!("## Against Go: controller-runtime's cache, client-go's watch");
    println!();
    println!(
        "| objects | Go cache (as shipped) | Go (TransformStripManagedFields) | ours (strip, encoded) | ours (strip, shared: default) | ours (no transform) | ours / Go, both stripping | ours shared / Go | ours / Go, as shipped | target |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
    for f in ours {
        let go_raw = go_value(go, f.kind, "cache_bytes");
        let go_strip = go_value(go, f.kind, "cache_bytes_strip_managed_fields");
        println!(
            "| {} {}s | {} | {} | {:.0} B | {:.0} B | {:.0} B | {} | {} | {} | ≤ 0.5x |",
            f.n,
            f.kind,
            cell(go_raw, " B"),
            cell(go_strip, " B"),
            f.ours.bytes,
            f.shared.bytes,
            f.raw.bytes,
            ratio(f.ours.bytes, go_strip),
            ratio(f.shared.bytes, go_strip),
            ratio(f.ours.bytes, go_raw)
        );
    }
    println!();
    println!(
        "| reads (managedFields stripped) | Go Get (deep copy) | ours Get, encoded | ours Get, shared | encoded / Go | Go List per object | ours List per object, encoded | ours, shared | encoded / Go |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for f in ours {
        let go_get = go_value(go, f.kind, "cache_get_ns");
        let go_list = go_value(go, f.kind, "cache_list_ns_per_object");
        println!(
            "| {} | {} | {:.0} ns | {:.0} ns | {} | {} | {:.0} ns | {:.0} ns | {} |",
            f.kind,
            cell(go_get, " ns"),
            f.ours.get_ns,
            f.shared.get_ns,
            ratio(f.ours.get_ns, go_get),
            cell(go_list, " ns"),
            f.ours.list_ns,
            f.shared.list_ns,
            ratio(f.ours.list_ns, go_list)
        );
    }
    println!();
    println!(
        "| watch events | client-go protobuf/s | ours protobuf/s | ours / Go | client-go JSON/s | ours JSON/s | ours / Go | target |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
    for (kind, pb, js) in rates {
        let go_pb = go_value(go, kind, "watch_protobuf_per_s");
        let go_js = go_value(go, kind, "watch_json_per_s");
        println!(
            "| {kind} | {} | {pb:.0} | {} | {} | {js:.0} | {} | ≥ 3x |",
            cell(go_pb, ""),
            ratio(*pb, go_pb),
            cell(go_js, ""),
            ratio(*js, go_js)
        );
    }
}

/// The figures as results rows (`benchmarks/results/cache.jsonl`): bytes per cached
/// object beside kube-runtime's store, and, when Go was measured, beside Go's cache (both
/// stripping managedFields; target ≤ 0.5×), the time of a Get and of a List per object
/// beside Go's (no target: the price of the encoded store, to watch), and watch events
/// per second beside client-go's (target ≥ 3×).
fn results_rows(
    go: Option<&[serde_json::Value]>,
    kube: &[(&str, usize, f64, f64)],
    ours: &[Figures],
    rates: &[(&str, f64, f64)],
) -> Vec<results::Row> {
    const SOURCE: &str = "benchmarks/src/bin/cache.rs";
    let mut rows = Vec::new();
    for &(kind, n, strip, kube) in kube {
        rows.push(
            results::Row::new(
                format!("cache.{kind}/bytes per object vs kube-runtime"),
                format!("Cache: bytes per cached {kind} ({n}), ours vs kube-runtime's store"),
                strip,
                "B",
                SOURCE,
            )
            .against("kube-runtime store", kube),
        );
    }
    for f in ours {
        let (kind, n) = (f.kind, f.n);
        if let Some(go_strip) = go_value(go, kind, "cache_bytes_strip_managed_fields") {
            rows.push(
                results::Row::new(
                    format!("cache.{kind}/bytes per object vs Go"),
                    format!("Cache: bytes per cached {kind} ({n}), ours vs Go, both stripping managedFields"),
                    f.ours.bytes,
                    "B",
                    SOURCE,
                )
                .against("Go controller-runtime cache", go_strip)
                .target("ratio <= 0.5".to_owned()),
            );
        }
        for (op, what, ns) in [
            ("cache_get_ns", "Get", f.ours.get_ns),
            (
                "cache_list_ns_per_object",
                "List per object",
                f.ours.list_ns,
            ),
        ] {
            if let Some(go_ns) = go_value(go, kind, op) {
                rows.push(
                    results::Row::new(
                        format!("cache.{kind}/{what} time vs Go"),
                        format!("Cache read: {what} of a cached {kind} ({n}), ours (decoding) vs Go (deep copy)"),
                        ns,
                        "ns",
                        SOURCE,
                    )
                    .against("Go controller-runtime cache", go_ns),
                );
            }
        }
    }
    for &(kind, pb, js) in rates {
        for (wire, ours, op) in [
            ("protobuf", pb, "watch_protobuf_per_s"),
            ("JSON", js, "watch_json_per_s"),
        ] {
            if let Some(go_rate) = go_value(go, kind, op) {
                rows.push(
                    results::Row::new(
                        format!("cache.{kind}/watch {wire} events per second vs Go"),
                        format!(
                            "Watch replay: {kind} events per second, {wire}, ours vs client-go"
                        ),
                        ours,
                        "events/s",
                        SOURCE,
                    )
                    .against("client-go watch", go_rate)
                    .target("ratio >= 3".to_owned()),
                );
            }
        }
    }
    rows
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), Error> {
    let mut args = std::env::args().skip(1).peekable();
    let server_half = args.next_if(|a| a == "--serve").is_some();
    let configmaps: usize = args
        .next()
        .map(|a| a.parse())
        .transpose()?
        .unwrap_or(10_000);
    let pods: usize = args.next().map(|a| a.parse()).transpose()?.unwrap_or(1_000);
    if server_half {
        // The server in a child process of its own, so that this process's allocator
        // counts the caches alone (the server's watch buffers and encoding caches are
        // not all released between measurements).
        return serve_until_stdin_closes(configmaps, pods).await;
    }
    let mut server = std::process::Command::new(std::env::current_exe()?)
        .args(["--serve", &configmaps.to_string(), &pods.to_string()])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()?;
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(server.stdout.take().ok_or("no server stdout")?),
        &mut line,
    )?;
    let (url, from) = line
        .trim()
        .split_once(' ')
        .ok_or_else(|| format!("the server half printed {line:?}"))?;
    let (url, from) = (url.to_owned(), from.to_owned());
    let mut scheme = Scheme::new();
    k8s_types::register(&mut scheme)?;
    let scheme = Arc::new(scheme);
    let client = Client::new(&Config::new(&url), Arc::clone(&scheme))?;
    // The same cache fed by JSON instead of protobuf: shows what the decoder leaves behind.
    let json_client = Client::with_options(
        &Config::new(&url),
        Arc::clone(&scheme),
        ClientOptions {
            wire_format: WireFormat::Json,
        },
    )?;

    // Warm-up: the server's watch caches of both resources, each client's connection.
    ours_per_object::<k8s_types::core::v1::ConfigMap>(&client, &scheme, true, true, configmaps)
        .await?;
    ours_per_object::<k8s_types::core::v1::Pod>(&client, &scheme, true, true, pods).await?;
    kube_bytes_per_object::<k8s_openapi::api::core::v1::Pod>(&url, false, pods).await?;
    // ...and the replays' events in both encodings: the server encodes an event once per
    // format for every watcher (as Go's cachingObject), so that whichever client
    // replayed first would pay for it alone.
    for wire in [WireFormat::Protobuf, WireFormat::Json] {
        watch_throughput::<k8s_types::core::v1::ConfigMap>(&url, &scheme, wire, &from, configmaps)
            .await?;
        watch_throughput::<k8s_types::core::v1::Pod>(&url, &scheme, wire, &from, pods).await?;
    }

    // Go first, alone: the Rust side waits.
    let go = go_oracle_lines(&[
        "bench-cache".as_ref(),
        url.as_ref(),
        from.as_ref(),
        configmaps.to_string().as_ref(),
        pods.to_string().as_ref(),
    ])
    .map_err(|e| e.to_string())?;
    let mut ours_figures = Vec::new();
    let mut ours_rates = Vec::new();
    let mut kube_figures = Vec::new();

    println!(
        "| objects | ours (strip managedFields, encoded) | ours (strip, shared decoded) | ours (no transform, encoded) | kube-runtime store (default) | kube-runtime (managedFields cleared) | ours, JSON wire (default) | ours / kube default |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for kind in ["ConfigMap", "Pod"] {
        let n = if kind == "ConfigMap" {
            configmaps
        } else {
            pods
        };
        let c = &client;
        let measure = |c: &Client, strip: bool, encoded: bool| {
            let c = c.clone();
            let scheme = Arc::clone(&scheme);
            async move {
                if kind == "ConfigMap" {
                    ours_per_object::<k8s_types::core::v1::ConfigMap>(
                        &c, &scheme, strip, encoded, n,
                    )
                    .await
                } else {
                    ours_per_object::<k8s_types::core::v1::Pod>(&c, &scheme, strip, encoded, n)
                        .await
                }
            }
        };
        let ours = measure(c, true, true).await?;
        let shared = measure(c, true, false).await?;
        let ours_raw = measure(c, false, true).await?;
        let (kube, kube_strip) = if kind == "ConfigMap" {
            (
                kube_bytes_per_object::<k8s_openapi::api::core::v1::ConfigMap>(&url, false, n)
                    .await?,
                kube_bytes_per_object::<k8s_openapi::api::core::v1::ConfigMap>(&url, true, n)
                    .await?,
            )
        } else {
            (
                kube_bytes_per_object::<k8s_openapi::api::core::v1::Pod>(&url, false, n).await?,
                kube_bytes_per_object::<k8s_openapi::api::core::v1::Pod>(&url, true, n).await?,
            )
        };
        let ours_json = measure(&json_client, true, true).await?;
        println!(
            "| {n} {kind}s | {:.0} B | {:.0} B | {:.0} B | {kube:.0} B | {kube_strip:.0} B | {:.0} B | {:.2}x |",
            ours.bytes,
            shared.bytes,
            ours_raw.bytes,
            ours_json.bytes,
            ours.bytes / kube
        );
        ours_figures.push(Figures {
            kind,
            n,
            ours,
            shared,
            raw: ours_raw,
        });
        kube_figures.push((kind, n, ours.bytes, kube));
    }

    println!();
    println!(
        "| watch replay, our client | protobuf objects/s | JSON objects/s | protobuf / JSON |"
    );
    println!("| --- | ---: | ---: | ---: |");
    let pb = watch_throughput::<k8s_types::core::v1::ConfigMap>(
        &url,
        &scheme,
        WireFormat::Protobuf,
        &from,
        configmaps,
    )
    .await?;
    let js = watch_throughput::<k8s_types::core::v1::ConfigMap>(
        &url,
        &scheme,
        WireFormat::Json,
        &from,
        configmaps,
    )
    .await?;
    println!(
        "| {configmaps} ConfigMap events | {pb:.0} | {js:.0} | {:.2}x |",
        pb / js
    );
    ours_rates.push(("ConfigMap", pb, js));
    let pb = watch_throughput::<k8s_types::core::v1::Pod>(
        &url,
        &scheme,
        WireFormat::Protobuf,
        &from,
        pods,
    )
    .await?;
    let js =
        watch_throughput::<k8s_types::core::v1::Pod>(&url, &scheme, WireFormat::Json, &from, pods)
            .await?;
    println!(
        "| {pods} Pod events | {pb:.0} | {js:.0} | {:.2}x |",
        pb / js
    );
    ours_rates.push(("Pod", pb, js));
    print_go_tables(go.as_deref(), &ours_figures, &ours_rates);
    let rows = results_rows(go.as_deref(), &kube_figures, &ours_figures, &ours_rates);
    match results::append("cache", &rows) {
        Ok(path) => println!(
            "\n{} results rows appended to {}",
            rows.len(),
            path.display()
        ),
        Err(e) => eprintln!("warning: results not recorded: {e}"),
    }
    // Closing its standard input ends the server half.
    drop(server.stdin.take());
    server.wait()?;
    Ok(())
}
