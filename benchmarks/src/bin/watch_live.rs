//! One live watch replay, timed by phase, for profiling the watch-replay rows of the
//! cache benchmark (issue 42) without its memory measurements around them.
//!
//! - `watch_live serve CONFIGMAPS PODS`: fills the in-process API server (as the cache
//!   benchmark does), prints `URL FROM` and serves until its standard input closes, so
//!   that another client (client-go, under `strace` or `perf`) can watch the same server.
//! - `watch_live watch URL FROM KIND WIRE N ROUNDS`: `ROUNDS` watches of `KIND`
//!   (`ConfigMap` or `Pod`) from `FROM`, in `WIRE` (`pb` or `json`), each until `N` events
//!   arrived, each on a new client as the cache benchmark makes one; prints the rate and
//!   where the time went: the REST mapping (discovery, the first time a client needs
//!   it), the watch's response head, the first event, the last.
//!
//! Usage (from `benchmarks/`): `cargo run --release --bin watch_live -- serve 10000 1000`.

use std::sync::Arc;
use std::time::Instant;

use apimachinery::runtime::{Object, Scheme};
use benchmarks::objects::{Error, replay_watch, serve_until_stdin_closes};
use controller_runtime::client::WireFormat;
use futures_util::StreamExt;

/// Milliseconds since `start`.
fn ms(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1000.0
}

/// One watch of `T` from `from` until `n` events: prints its phases.
async fn watch_once<T: Object + Default>(
    url: &str,
    scheme: &Arc<Scheme>,
    wire: WireFormat,
    from: &str,
    n: usize,
    label: &str,
) -> Result<(), Error> {
    let (client, opts) = replay_watch(url, scheme, wire, from)?;
    let start = Instant::now();
    let gvk = client.gvk_for::<T>()?;
    client.rest_mapping(&gvk).await?;
    let mapped = ms(start);
    let mut stream = client.watch::<T>(&opts).await?;
    let opened = ms(start);
    let mut got = 0;
    let mut first = 0.0;
    while got < n {
        match stream.next().await {
            Some(Ok(_)) => {
                if got == 0 {
                    first = ms(start);
                }
                got += 1;
            }
            Some(Err(e)) => return Err(e.into()),
            None => return Err(format!("the watch ended after {got} events").into()),
        }
    }
    let total = ms(start);
    let events = total - mapped;
    println!(
        "ours {label}: {:.0}/s with discovery, {:.0}/s without; total {total:.1}ms mapping {mapped:.1}ms open {opened:.1}ms first {first:.1}ms",
        n as f64 / total * 1000.0,
        n as f64 / events * 1000.0,
    );
    Ok(())
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), Error> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize| {
        args.get(i)
            .map(String::as_str)
            .ok_or_else(|| Error::from(format!("argument {i} missing (see the usage)")))
    };
    match arg(0)? {
        "serve" => serve_until_stdin_closes(arg(1)?.parse()?, arg(2)?.parse()?).await,
        "watch" => {
            let (url, from, kind, wire) = (arg(1)?, arg(2)?, arg(3)?, arg(4)?);
            let n: usize = arg(5)?.parse()?;
            let rounds: usize = arg(6)?.parse()?;
            let wire_format = match wire {
                "pb" => WireFormat::Protobuf,
                _ => WireFormat::Json,
            };
            let mut scheme = Scheme::new();
            k8s_types::register(&mut scheme)?;
            let scheme = Arc::new(scheme);
            let label = format!("{kind} {wire}");
            for _ in 0..rounds {
                match kind {
                    "ConfigMap" => {
                        watch_once::<k8s_types::core::v1::ConfigMap>(
                            url,
                            &scheme,
                            wire_format,
                            from,
                            n,
                            &label,
                        )
                        .await?
                    }
                    _ => {
                        watch_once::<k8s_types::core::v1::Pod>(
                            url,
                            &scheme,
                            wire_format,
                            from,
                            n,
                            &label,
                        )
                        .await?
                    }
                }
            }
            Ok(())
        }
        other => Err(format!("unknown mode {other:?}: serve or watch").into()),
    }
}
