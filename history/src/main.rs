//! `history`: a long run of mixed faults against a server under test, or a recorded
//! history checked again.
//!
//! ```text
//! history run [--server kapi|kube-apiserver] [--bin PATH] [--backend etcd|redb]
//!             [--minutes M] [--seed N] [--out DIR]
//! history check FILE.history.json
//! ```
//!
//! On etcd a run has two servers, the second in a network namespace (needs root), and
//! injects every fault alone and in combinations; on redb (kapi only) one server, killed
//! and restarted, with its watches dropped and both at once. It prints the checker's
//! report and a table row for RELIABILITY.md, and exits non-zero when a promise was
//! broken.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use history::cluster::server::Implementation;
use history::cluster::{Backend, ClusterSpec};
use history::faults::Fault;
use history::scenario::{self, Scenario};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("run") => run(&args[1..]),
        Some("check") => check(&args[1..]),
        _ => Err(
            "usage: history run [--server kapi|kube-apiserver] [--bin PATH] [--backend etcd|redb] \
                  [--minutes M] [--seed N] [--out DIR] | history check FILE"
                .to_owned(),
        ),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(message) => {
            eprintln!("history: {message}");
            ExitCode::from(2)
        }
    }
}

fn value<'a>(args: &'a [String], flag: &str) -> Option<&'a str> {
    args.iter()
        .position(|a| a == flag)
        .and_then(|i| args.get(i + 1))
        .map(String::as_str)
}

fn run(args: &[String]) -> Result<bool, String> {
    let server = value(args, "--server").unwrap_or("kapi");
    let backend = match value(args, "--backend").unwrap_or("etcd") {
        "etcd" => Backend::Etcd,
        "redb" => Backend::Redb,
        other => return Err(format!("--backend {other}: etcd or redb")),
    };
    let bin = PathBuf::from(value(args, "--bin").unwrap_or(match server {
        "kube-apiserver" => "oracle/bin/1.37/kube-apiserver",
        _ => "target/release/kapi",
    }));
    let implementation = match server {
        "kapi" => Implementation::Kapi(bin),
        "kube-apiserver" => Implementation::KubeApiserver(bin),
        other => return Err(format!("--server {other}: kapi or kube-apiserver")),
    };
    let number = |flag: &str, default: u64| -> Result<u64, String> {
        value(args, flag).map_or(Ok(default), |v| {
            v.parse().map_err(|e| format!("{flag} {v}: {e}"))
        })
    };
    let minutes = number("--minutes", 30)?;
    let seed = number("--seed", 48)?;
    let out = PathBuf::from(value(args, "--out").unwrap_or("history-run"));
    let etcd = backend == Backend::Etcd;
    let cluster = ClusterSpec {
        implementation,
        backend,
        servers: if etcd { 2 } else { 1 },
        partition: etcd,
        etcd_program: None,
    };
    let secs = Duration::from_secs;
    let mut faults = vec![
        Fault::ServerKill {
            server: 0,
            down: secs(1),
        },
        Fault::WatchDrop,
        Fault::Together(vec![
            Fault::ServerKill {
                server: 0,
                down: secs(2),
            },
            Fault::WatchDrop,
        ]),
    ];
    if etcd {
        faults.extend([
            Fault::EtcdKill { down: secs(2) },
            Fault::EtcdPause { paused: secs(12) },
            Fault::ServerKill {
                server: 1,
                down: secs(1),
            },
            Fault::Partition { cut: secs(14) },
            Fault::CompactBehind { filler: 1200 },
            Fault::Together(vec![Fault::EtcdKill { down: secs(3) }, Fault::WatchDrop]),
            Fault::Together(vec![
                Fault::Partition { cut: secs(8) },
                Fault::ServerKill {
                    server: 0,
                    down: secs(2),
                },
            ]),
            Fault::Together(vec![
                Fault::EtcdPause { paused: secs(11) },
                Fault::ServerKill {
                    server: 1,
                    down: secs(1),
                },
            ]),
            Fault::Together(vec![
                Fault::Partition { cut: secs(6) },
                Fault::CompactBehind { filler: 1200 },
            ]),
        ]);
    }
    let scenario = Scenario {
        name: format!("{server}-{}", if etcd { "etcd" } else { "redb" }),
        random_faults: faults,
        duration: Duration::from_secs(minutes * 60),
        epoch: Some(secs(60)),
        writers: 6,
        watchers: 2,
        keys: 6,
        pause_ms: (2, 20),
        watch_timeout_seconds: (10, 60),
        drain: secs(120),
        gap_ms: (2000, 8000),
        seed,
        keep: Some(out),
        ..Scenario::bounded("long", cluster, Vec::new())
    };
    let runtime = tokio::runtime::Runtime::new().map_err(|e| e.to_string())?;
    let result = runtime
        .block_on(scenario::run(&scenario))
        .map_err(|e| e.to_string())?;
    print!("{}", result.report);
    let mut faults: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    for fault in &result.history.faults {
        *faults.entry(fault.fault.clone()).or_default() += 1;
    }
    println!("faults injected:");
    for (fault, count) in &faults {
        println!("  {count} × {fault}");
    }
    println!(
        "| {} | {:.0} min | {} | {} | {} | {} | {} | {} | {} |",
        scenario.name,
        result.elapsed.as_secs_f64() / 60.0,
        result.report.operations,
        result.report.acknowledged,
        result.report.indeterminate,
        result.report.events,
        result.report.gone,
        result.report.faults,
        result.report.violations.len(),
    );
    if let Some(dir) = &result.kept {
        println!("history and report in {}", dir.display());
    }
    Ok(result.report.passed())
}

fn check(args: &[String]) -> Result<bool, String> {
    let file = args.first().ok_or("history check FILE")?;
    let text = std::fs::read(file).map_err(|e| format!("{file}: {e}"))?;
    let history: history::record::History =
        serde_json::from_slice(&text).map_err(|e| format!("{file}: {e}"))?;
    let report = history::checker::check(&history);
    print!("{report}");
    Ok(report.passed())
}
