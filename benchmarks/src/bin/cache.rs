//! The cache benchmark of issue 18, in one process on the in-process API server:
//!
//! 1. bytes per cached object: 10,000 ConfigMaps and 1,000 Pods (Go's fixture), listed
//!    and watched by our cache (`controller_runtime::cache::Cache`) and by kube-runtime's
//!    reflector store, measured as the live heap bytes a counting global allocator sees
//!    after the initial sync, minus those before it;
//! 2. watch-event decode throughput, protobuf vs JSON: a watch replaying every creation
//!    event, objects per second through our client;
//! 3. Go beside both, against the same server in the same run (issue 42):
//!    controller-runtime v0.24.1's cache (as shipped, and with its
//!    `TransformStripManagedFields`), heap bytes per object after two collections, and
//!    client-go v0.36.3's watch decode rate (`oracle/bin/k8s-oracle bench-cache`, run
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
use benchmarks::objects::{Error, populated_server};
use benchmarks::{go_oracle_lines, results};
use controller_runtime::cache::{Cache, CacheOptions};
use controller_runtime::client::{Client, ClientOptions, ListOptions, WireFormat};
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

async fn ours_bytes_per_object<T: apimachinery::runtime::Resource>(
    client: &Client,
    scheme: &Arc<Scheme>,
    strip: bool,
    expected: usize,
) -> Result<f64, Error> {
    settle().await;
    let before = live_bytes();
    let cache = Cache::new(
        client.clone(),
        Arc::clone(scheme),
        CacheOptions {
            strip_managed_fields: strip,
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
    stop.cancel();
    drop(informer);
    drop(cache);
    released(before, after).await;
    if n != expected {
        return Err(format!("our cache holds {n} objects, not {expected}").into());
    }
    Ok((after - before) as f64 / n as f64)
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
    let client = Client::with_options(
        &Config::new(url),
        Arc::clone(scheme),
        ClientOptions { wire_format: wire },
    )?;
    let opts = ListOptions {
        resource_version: Some(from.to_owned()),
        namespace: Some("default".into()),
        ..ListOptions::default()
    };
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

/// The server half: the in-process API server with every object created, in a child
/// process of its own so that the parent's allocator counts the caches alone (the
/// server's watch buffers and encoding caches would otherwise be counted, and not all
/// of them are released between measurements). Prints `URL REVISION` and serves until
/// its standard input closes.
/// Go's figure for `kind` and `op` from `k8s-oracle bench-cache`'s lines.
fn go_value(go: Option<&[serde_json::Value]>, kind: &str, op: &str) -> Option<f64> {
    go?.iter()
        .find(|r| r["kind"] == kind && r["op"] == op)
        .and_then(|r| r["value"].as_f64())
}

/// The tables against Go: bytes per cached object (ours and Go's, each with and without
/// stripping managedFields) and watch events decoded per second.
fn print_go_tables(
    go: Option<&[serde_json::Value]>,
    ours: &[(&str, usize, f64, f64)],
    rates: &[(&str, f64, f64)],
) {
    let cell = |v: Option<f64>, unit: &str| {
        v.map_or("not measured".to_owned(), |v| format!("{v:.0}{unit}"))
    };
    let ratio = |a: f64, b: Option<f64>| b.map_or("—".to_owned(), |b| format!("{:.2}x", a / b));
    println!();
    println!("## Against Go: controller-runtime v0.24.1's cache, client-go v0.36.3's watch");
    println!();
    println!(
        "| objects | Go cache (as shipped) | Go (TransformStripManagedFields) | ours (strip, default) | ours (no transform) | ours / Go, both stripping | ours / Go, as shipped | target |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
    for (kind, n, strip, raw) in ours {
        let go_raw = go_value(go, kind, "cache_bytes");
        let go_strip = go_value(go, kind, "cache_bytes_strip_managed_fields");
        println!(
            "| {n} {kind}s | {} | {} | {strip:.0} B | {raw:.0} B | {} | {} | ≤ 0.5x |",
            cell(go_raw, " B"),
            cell(go_strip, " B"),
            ratio(*strip, go_strip),
            ratio(*strip, go_raw)
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
/// stripping managedFields; target ≤ 0.5×) and watch events per second beside client-go's
/// (target ≥ 3×).
fn results_rows(
    go: Option<&[serde_json::Value]>,
    kube: &[(&str, usize, f64, f64)],
    ours: &[(&str, usize, f64, f64)],
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
    for &(kind, n, strip, _) in ours {
        if let Some(go_strip) = go_value(go, kind, "cache_bytes_strip_managed_fields") {
            rows.push(
                results::Row::new(
                    format!("cache.{kind}/bytes per object vs Go"),
                    format!("Cache: bytes per cached {kind} ({n}), ours vs Go, both stripping managedFields"),
                    strip,
                    "B",
                    SOURCE,
                )
                .against("Go controller-runtime cache", go_strip)
                .target("ratio <= 0.5".to_owned()),
            );
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

async fn serve(configmaps: usize, pods: usize) -> Result<(), Error> {
    let mut scheme = Scheme::new();
    k8s_types::register(&mut scheme)?;
    let scheme = Arc::new(scheme);
    let (server, from) = populated_server(&scheme, configmaps, pods).await?;
    println!("{} {from}", server.url());
    tokio::task::spawn_blocking(|| std::io::copy(&mut std::io::stdin(), &mut std::io::sink()))
        .await??;
    server.shutdown().await;
    Ok(())
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
        return serve(configmaps, pods).await;
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
    ours_bytes_per_object::<k8s_types::core::v1::ConfigMap>(&client, &scheme, true, configmaps)
        .await?;
    ours_bytes_per_object::<k8s_types::core::v1::Pod>(&client, &scheme, true, pods).await?;
    kube_bytes_per_object::<k8s_openapi::api::core::v1::Pod>(&url, false, pods).await?;

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
        "| objects | ours (strip managedFields, default) | ours (no transform) | kube-runtime store (default) | kube-runtime (managedFields cleared) | ours, JSON wire (default transform) | ours / kube default |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    {
        let ours = ours_bytes_per_object::<k8s_types::core::v1::ConfigMap>(
            &client, &scheme, true, configmaps,
        )
        .await?;
        let ours_raw = ours_bytes_per_object::<k8s_types::core::v1::ConfigMap>(
            &client, &scheme, false, configmaps,
        )
        .await?;
        let kube =
            kube_bytes_per_object::<k8s_openapi::api::core::v1::ConfigMap>(&url, false, configmaps)
                .await?;
        let kube_strip =
            kube_bytes_per_object::<k8s_openapi::api::core::v1::ConfigMap>(&url, true, configmaps)
                .await?;
        let ours_json = ours_bytes_per_object::<k8s_types::core::v1::ConfigMap>(
            &json_client,
            &scheme,
            true,
            configmaps,
        )
        .await?;
        println!(
            "| {configmaps} ConfigMaps | {ours:.0} B | {ours_raw:.0} B | {kube:.0} B | {kube_strip:.0} B | {ours_json:.0} B | {:.2}x |",
            ours / kube
        );
        ours_figures.push(("ConfigMap", configmaps, ours, ours_raw));
        kube_figures.push(("ConfigMap", configmaps, ours, kube));
    }
    {
        let ours =
            ours_bytes_per_object::<k8s_types::core::v1::Pod>(&client, &scheme, true, pods).await?;
        let ours_raw =
            ours_bytes_per_object::<k8s_types::core::v1::Pod>(&client, &scheme, false, pods)
                .await?;
        let kube =
            kube_bytes_per_object::<k8s_openapi::api::core::v1::Pod>(&url, false, pods).await?;
        let kube_strip =
            kube_bytes_per_object::<k8s_openapi::api::core::v1::Pod>(&url, true, pods).await?;
        let ours_json =
            ours_bytes_per_object::<k8s_types::core::v1::Pod>(&json_client, &scheme, true, pods)
                .await?;
        println!(
            "| {pods} Pods (Go's fixture) | {ours:.0} B | {ours_raw:.0} B | {kube:.0} B | {kube_strip:.0} B | {ours_json:.0} B | {:.2}x |",
            ours / kube
        );
        ours_figures.push(("Pod", pods, ours, ours_raw));
        kube_figures.push(("Pod", pods, ours, kube));
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
