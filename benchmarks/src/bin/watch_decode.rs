//! Watch decode rate, ours against client-go v0.36.3, on recorded streams (issue 42): the
//! decoders alone, without the server's encoding and the connection in the measurement.
//!
//! 1. The in-process API server (the one `kapi serve` runs) is filled with ConfigMaps and
//!    Pods made from Go's fixture (`benchmarks::objects`), and a watch of each from before
//!    their creation is recorded once, JSON (newline-delimited `WatchEvent`s) and
//!    protobuf (`application/vnd.kubernetes.protobuf;stream=watch`, 4-byte length-prefixed
//!    `WatchEvent` frames), into a temporary directory
//!    (`oracle/bin/k8s-oracle bench-watch-record`). The server then stops.
//! 2. Go: `k8s-oracle bench-watch-decode` runs the typed clientset's `Watch` over a
//!    transport answering with the recorded body from memory (client-go's own
//!    `newStreamWatcher`: framer, `streaming.NewDecoder`, the scheme's codec, typed events).
//! 3. Ours: `Client::decode_watch`, the decoder `Client::watch` and the informers use,
//!    over the same bytes in 64 KiB chunks from memory, typed events.
//!
//! Each side runs `ITERATIONS` passes per file and keeps the median; `ROUNDS` rounds
//! alternate Go and ours (the machine is shared), and the figure is the median of the
//! rounds, with their range beside it.
//!
//! Usage: `cargo run --release --bin watch_decode -- [configmaps] [pods] [rounds] [iterations]`
//! (from `benchmarks/`; defaults 10000 1000 5 5). Needs the Go oracle built
//! (`oracle/build.sh`): without it there is nothing recorded, and the bench says so.

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use apimachinery::runtime::{Object, Scheme};
use benchmarks::objects::{Error, populated_server};
use benchmarks::{go_oracle_lines, results};
use bytes::Bytes;
use controller_runtime::client::Client;
use controller_runtime::config::Config;
use futures_util::StreamExt;
use k8s_types::core::v1::{ConfigMap, Pod};

/// The body is handed over in pieces of this size, as a connection delivers it.
const CHUNK: usize = 64 * 1024;

const WIRES: [(&str, &str, &str); 2] = [
    ("json", "JSON", "application/json"),
    (
        "pb",
        "protobuf",
        "application/vnd.kubernetes.protobuf;stream=watch",
    ),
];

/// One pass of our decoder over a recorded body: events per second.
async fn decode_once<T: Object + Default>(
    client: &Client,
    content_type: &str,
    body: &Bytes,
    expected: usize,
) -> Result<f64, Error> {
    let chunks: Vec<Bytes> = (0..body.len())
        .step_by(CHUNK)
        .map(|at| body.slice(at..(at + CHUNK).min(body.len())))
        .collect();
    let start = Instant::now();
    let mut events =
        client.decode_watch::<T, _>(content_type, futures_util::stream::iter(chunks))?;
    let mut n = 0;
    while let Some(event) = events.next().await {
        std::hint::black_box(event?);
        n += 1;
    }
    let rate = n as f64 / start.elapsed().as_secs_f64();
    if n != expected {
        return Err(format!("decoded {n} events, not {expected}").into());
    }
    Ok(rate)
}

/// The median of `iterations` passes.
async fn ours<T: Object + Default>(
    client: &Client,
    dir: &Path,
    kind: &str,
    (ext, _, content_type): (&str, &str, &str),
    expected: usize,
    iterations: usize,
) -> Result<f64, Error> {
    let body = Bytes::from(std::fs::read(dir.join(format!("{kind}.{ext}")))?);
    let mut rates = Vec::new();
    for _ in 0..iterations {
        rates.push(decode_once::<T>(client, content_type, &body, expected).await?);
    }
    Ok(median(&mut rates))
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// Measured figures of one kind and wire over the rounds.
struct Series {
    kind: &'static str,
    wire: (&'static str, &'static str, &'static str),
    events: usize,
    ours: Vec<f64>,
    go: Vec<f64>,
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), Error> {
    let mut args = std::env::args().skip(1);
    let mut next = |default: usize| -> Result<usize, Error> {
        Ok(args
            .next()
            .map(|a| a.parse())
            .transpose()?
            .unwrap_or(default))
    };
    let (configmaps, pods, rounds, iterations) = (next(10_000)?, next(1_000)?, next(5)?, next(5)?);
    let mut scheme = Scheme::new();
    k8s_types::register(&mut scheme)?;
    let scheme = Arc::new(scheme);
    let dir = std::env::temp_dir().join(format!("watch-decode-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let measured = measure(&scheme, &dir, configmaps, pods, rounds, iterations).await;
    std::fs::remove_dir_all(&dir)?;
    let Some(series) = measured? else {
        return Ok(());
    };
    println!("## Watch decode on recorded streams, ours vs client-go v0.36.3");
    println!();
    println!(
        "| events | wire | client-go events/s (range) | ours events/s (range) | ours / Go | target |"
    );
    println!("| --- | --- | ---: | ---: | ---: | --- |");
    let mut rows = Vec::new();
    for mut s in series {
        let range = |v: &[f64]| {
            let (lo, hi) = v
                .iter()
                .fold((f64::MAX, 0.0_f64), |(lo, hi), &x| (lo.min(x), hi.max(x)));
            format!("{lo:.0}–{hi:.0}")
        };
        let (ours_range, go_range) = (range(&s.ours), range(&s.go));
        let (ours, go) = (median(&mut s.ours), median(&mut s.go));
        let wire = s.wire.1;
        println!(
            "| {} {}s | {wire} | {go:.0} ({go_range}) | {ours:.0} ({ours_range}) | {:.2}x | ≥ 3x |",
            s.events,
            s.kind,
            ours / go
        );
        rows.push(
            results::Row::new(
                format!("watch_decode.{}/{wire} events per second vs client-go", s.kind),
                format!(
                    "Watch decode, recorded stream: {} {}s, {wire}, ours vs client-go (median of {rounds} rounds; ours {ours_range}, Go {go_range})",
                    s.events, s.kind
                ),
                ours,
                "events/s",
                "benchmarks/src/bin/watch_decode.rs",
            )
            .against("client-go watch decoder", go)
            .target("ratio >= 3".to_owned()),
        );
    }
    match results::append("watch_decode", &rows) {
        Ok(path) => println!(
            "\n{} results rows appended to {}",
            rows.len(),
            path.display()
        ),
        Err(e) => eprintln!("warning: results not recorded: {e}"),
    }
    Ok(())
}

/// Records the streams into `dir`, then alternates Go's and our decoding; `None` when
/// the Go oracle is not built.
async fn measure(
    scheme: &Arc<Scheme>,
    dir: &Path,
    configmaps: usize,
    pods: usize,
    rounds: usize,
    iterations: usize,
) -> Result<Option<Vec<Series>>, Error> {
    let (cm, pd) = (configmaps.to_string(), pods.to_string());
    let (server, from) = populated_server(scheme, configmaps, pods).await?;
    let url = server.url();
    let recorded = go_oracle_lines(&[
        "bench-watch-record".as_ref(),
        url.as_ref(),
        from.as_ref(),
        dir.as_os_str(),
        cm.as_ref(),
        pd.as_ref(),
    ]);
    server.shutdown().await;
    if recorded.map_err(|e| e.to_string())?.is_none() {
        return Ok(None);
    }
    for (kind, _) in [("ConfigMap", configmaps), ("Pod", pods)] {
        for (ext, ..) in WIRES {
            let size = std::fs::metadata(dir.join(format!("{kind}.{ext}")))?.len();
            eprintln!("recorded {kind}.{ext}: {size} bytes");
        }
    }
    let client = Client::new(&Config::new("http://recorded.invalid"), Arc::clone(scheme))?;
    let mut series = Vec::new();
    for (kind, events) in [("ConfigMap", configmaps), ("Pod", pods)] {
        for wire in WIRES {
            series.push(Series {
                kind,
                wire,
                events,
                ours: Vec::new(),
                go: Vec::new(),
            });
        }
    }
    let its = iterations.to_string();
    for round in 0..rounds {
        let go = go_oracle_lines(&[
            "bench-watch-decode".as_ref(),
            dir.as_os_str(),
            cm.as_ref(),
            pd.as_ref(),
            its.as_ref(),
        ])
        .map_err(|e| e.to_string())?
        .ok_or("the Go oracle went away")?;
        for s in &mut series {
            let op = format!("watch_decode_{}_per_s", s.wire.1.to_lowercase());
            let value = go
                .iter()
                .find(|r| r["kind"] == s.kind && r["op"] == op.as_str())
                .and_then(|r| r["value"].as_f64())
                .ok_or_else(|| format!("no Go figure for {} {op}", s.kind))?;
            s.go.push(value);
            let rate = match s.kind {
                "ConfigMap" => {
                    ours::<ConfigMap>(&client, dir, s.kind, s.wire, s.events, iterations).await?
                }
                _ => ours::<Pod>(&client, dir, s.kind, s.wire, s.events, iterations).await?,
            };
            s.ours.push(rate);
        }
        eprintln!("round {} of {rounds} done", round + 1);
    }
    Ok(Some(series))
}
