//! Bounded fault runs: each fault once, alone, then several at once, a few seconds of
//! writes and watches each, against `kapi serve` — and against Go's kube-apiserver
//! where the oracle built it — and every history checked. CI runs them (see .ci/run);
//! `RELIABILITY.md` has the long run.
//!
//! The server binary: `HISTORY_KAPI`, else the `kapi` cargo built beside this test (in
//! `cargo test --workspace`, which is where CI runs them). The etcd runs need a `kapi`
//! built with the `etcd` feature; without one they are skipped with a notice, unless
//! `HISTORY_KAPI` names the binary or CI is set (then it must have it). Missing etcd, or
//! network namespaces, fail under CI.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

use history::checker::Property;
use history::cluster::server::Implementation;
use history::cluster::{Backend, ClusterSpec, etcd, netns};
use history::faults::Fault;
use history::scenario::{self, RunResult, Scenario};

fn notice(message: &str) {
    // Past the test harness's capture, so that a skip is seen.
    let _ = writeln!(std::io::stderr(), "notice: {message}");
}

fn under_ci() -> bool {
    std::env::var_os("CI").is_some()
}

/// The `kapi` to test, or `None` (skip) when there is none and CI is not set.
fn kapi() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("HISTORY_KAPI") {
        return Some(PathBuf::from(path));
    }
    // target/<profile>/deps/integration-<hash> → target/<profile>/kapi
    let exe = std::env::current_exe().unwrap();
    let beside = exe
        .parent()
        .and_then(|deps| deps.parent())
        .map(|dir| dir.join("kapi"));
    match beside.filter(|p| p.exists()) {
        Some(path) => Some(path),
        None => {
            assert!(
                !under_ci(),
                "no kapi binary to test (set HISTORY_KAPI) and CI is set"
            );
            notice(
                "no kapi binary beside the tests (cargo build -p kapi, or set HISTORY_KAPI): skipping",
            );
            None
        }
    }
}

/// The `kapi` to test on etcd: one built with the `etcd` feature, and etcd installed.
fn kapi_on_etcd() -> Option<PathBuf> {
    let bin = kapi()?;
    if !etcd::installed().unwrap() {
        notice("etcd is not installed (apt-get install etcd-server etcd-client): skipping");
        return None;
    }
    // Without the feature, `--etcd-servers` is refused at once, saying so; with it,
    // the server tries to connect (and is killed here).
    let mut child = Command::new(&bin)
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--etcd-servers",
            "http://127.0.0.1:1",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while child.try_wait().unwrap().is_none() && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let out = child.wait_with_output().unwrap();
    let refused = String::from_utf8_lossy(&out.stderr).contains("built without etcd support");
    if refused {
        // Named, or under CI (where these runs are part of `cargo test --workspace`),
        // a kapi without etcd is a failure, not a skip.
        assert!(
            std::env::var_os("HISTORY_KAPI").is_none() && !under_ci(),
            "{} was built without the etcd feature",
            bin.display()
        );
        notice(&format!(
            "{} was built without etcd (cargo build -p kapi --features etcd, then HISTORY_KAPI=target/debug/kapi): skipping",
            bin.display()
        ));
        return None;
    }
    Some(bin)
}

fn netns_available() -> bool {
    let ok = netns::available().unwrap();
    if !ok {
        notice("network namespaces cannot be made here (root and iproute2 needed): skipping");
    }
    ok
}

fn run(scenario: &Scenario) -> RunResult {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let result = runtime
        .block_on(scenario::run(scenario))
        .unwrap_or_else(|e| panic!("{}: {e}", scenario.name));
    notice(&format!(
        "{} in {:.1} s: {}",
        scenario.name,
        result.elapsed.as_secs_f64(),
        result.report.to_string().lines().next().unwrap_or_default()
    ));
    for failed in &result.failed_starts {
        notice(&format!(
            "{}: a server start failed and was retried: {failed}",
            scenario.name
        ));
    }
    assert!(
        result.report.passed(),
        "{}: {}history and logs kept in {:?}",
        scenario.name,
        result.report,
        result.kept
    );
    assert!(
        result.report.acknowledged > 0,
        "{}: nothing was written",
        scenario.name
    );
    assert!(
        result.report.events > 0,
        "{}: nothing was watched",
        scenario.name
    );
    result
}

fn spec(bin: PathBuf, backend: Backend, servers: usize, partition: bool) -> ClusterSpec {
    ClusterSpec {
        implementation: Implementation::Kapi(bin),
        backend,
        servers,
        partition,
        etcd_program: None,
    }
}

const fn secs(n: u64) -> Duration {
    Duration::from_secs(n)
}

#[test]
fn redb_server_killed_and_restarted() {
    let Some(bin) = kapi() else { return };
    let faults = vec![Fault::ServerKill {
        server: 0,
        down: Duration::from_millis(500),
    }];
    run(&Scenario::bounded(
        "redb-server-kill",
        spec(bin, Backend::Redb, 1, false),
        faults,
    ));
}

#[test]
fn redb_watches_dropped_mid_stream() {
    let Some(bin) = kapi() else { return };
    let faults = vec![Fault::WatchDrop, Fault::WatchDrop, Fault::WatchDrop];
    run(&Scenario::bounded(
        "redb-watch-drop",
        spec(bin, Backend::Redb, 1, false),
        faults,
    ));
}

#[test]
fn etcd_killed_and_restarted() {
    let Some(bin) = kapi_on_etcd() else { return };
    let faults = vec![Fault::EtcdKill { down: secs(2) }];
    run(&Scenario::bounded(
        "etcd-kill",
        spec(bin, Backend::Etcd, 1, false),
        faults,
    ));
}

#[test]
fn etcd_paused_past_the_servers_timeouts() {
    let Some(bin) = kapi_on_etcd() else { return };
    // kapi serve gives each etcd request 10 s.
    let faults = vec![Fault::EtcdPause { paused: secs(12) }];
    run(&Scenario::bounded(
        "etcd-pause",
        spec(bin, Backend::Etcd, 1, false),
        faults,
    ));
}

#[test]
fn etcd_server_killed_and_restarted() {
    let Some(bin) = kapi_on_etcd() else { return };
    let faults = vec![Fault::ServerKill {
        server: 0,
        down: Duration::from_millis(500),
    }];
    run(&Scenario::bounded(
        "etcd-server-kill",
        spec(bin, Backend::Etcd, 1, false),
        faults,
    ));
}

#[test]
fn etcd_watches_dropped_mid_stream() {
    let Some(bin) = kapi_on_etcd() else { return };
    let faults = vec![Fault::WatchDrop, Fault::WatchDrop];
    run(&Scenario::bounded(
        "etcd-watch-drop",
        spec(bin, Backend::Etcd, 1, false),
        faults,
    ));
}

#[test]
fn etcd_two_servers_one_cut_from_etcd() {
    let Some(bin) = kapi_on_etcd() else { return };
    if !netns_available() {
        return;
    }
    // Longer than kapi serve's 10 s etcd request timeout.
    let faults = vec![Fault::Partition { cut: secs(12) }];
    run(&Scenario::bounded(
        "etcd-partition",
        spec(bin, Backend::Etcd, 2, true),
        faults,
    ));
}

#[test]
fn etcd_compacted_while_watchers_are_behind() {
    let Some(bin) = kapi_on_etcd() else { return };
    // Writes while the watchers are away, then a compaction. kapi's watch cache, sized
    // as Go's (75 s of events, up to 102,400), still holds them, so the watchers
    // resume from it rather than getting 410 Gone, as from kube-apiserver; the checker
    // verifies they miss nothing and see nothing twice.
    let faults = vec![Fault::CompactBehind { filler: 1200 }];
    run(&Scenario::bounded(
        "etcd-compact",
        spec(bin, Backend::Etcd, 1, false),
        faults,
    ));
}

#[test]
fn etcd_faults_together() {
    let Some(bin) = kapi_on_etcd() else { return };
    if !netns_available() {
        return;
    }
    let faults = vec![
        Fault::Together(vec![Fault::EtcdKill { down: secs(2) }, Fault::WatchDrop]),
        Fault::Together(vec![
            Fault::Partition { cut: secs(4) },
            Fault::ServerKill {
                server: 0,
                down: secs(1),
            },
        ]),
        Fault::Together(vec![
            Fault::EtcdPause { paused: secs(11) },
            Fault::ServerKill {
                server: 1,
                down: secs(1),
            },
        ]),
    ];
    run(&Scenario::bounded(
        "etcd-together",
        spec(bin, Backend::Etcd, 2, true),
        faults,
    ));
}

/// Go's kube-apiserver under the same faults, where the oracle built it
/// for the release under test (`oracle/binaries.rs`), or `KUBE_APISERVER`.
#[test]
fn kube_apiserver_under_the_same_faults() {
    let Some(bin) = crate::oracle_binaries::built("kube-apiserver", Some("KUBE_APISERVER")) else {
        return;
    };
    if !etcd::installed().unwrap() || !netns_available() {
        return;
    }
    let cluster = ClusterSpec {
        implementation: Implementation::KubeApiserver(bin),
        backend: Backend::Etcd,
        servers: 2,
        partition: true,
        etcd_program: None,
    };
    let faults = vec![
        Fault::EtcdKill { down: secs(2) },
        Fault::ServerKill {
            server: 0,
            down: secs(1),
        },
        Fault::WatchDrop,
        Fault::Partition { cut: secs(8) },
        Fault::CompactBehind { filler: 1200 },
    ];
    run(&Scenario::bounded("kube-apiserver", cluster, faults));
}

#[test]
fn the_checker_fails_a_run_whose_history_is_tampered_with() {
    // A real run's history, with an acknowledged write's answer changed to another
    // resourceVersion: the checker must not pass it.
    let Some(bin) = kapi() else { return };
    let mut scenario =
        Scenario::bounded("redb-plain", spec(bin, Backend::Redb, 1, false), Vec::new());
    scenario.duration = secs(2);
    let mut result = run(&scenario);
    let op = result
        .history
        .operations
        .iter_mut()
        .find(|o| matches!(&o.outcome, history::record::Outcome::Ok { object: Some(_) }))
        .unwrap();
    if let history::record::Outcome::Ok { object: Some(seen) } = &mut op.outcome {
        seen.rv += 1_000_000;
    }
    let report = history::checker::check(&result.history);
    assert!(
        report.properties().contains(&Property::Consistency),
        "{report}"
    );
}

/// A server started while etcd is paused comes up once etcd is back (kube-apiserver's
/// EnsureRBACPolicy tries for 30 s): it needs no supervisor to start it again.
#[test]
fn etcd_paused_while_a_server_starts() {
    let Some(bin) = kapi_on_etcd() else { return };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let spec = spec(bin, Backend::Etcd, 1, false);
        let mut cluster = history::cluster::Cluster::start(&spec, 7).await.unwrap();
        cluster.servers[0].kill();
        let mut etcd = cluster.etcd.take().unwrap();
        etcd.pause().unwrap();
        // Longer than kapi serve's 10 s etcd request timeout.
        let resume = tokio::spawn(async move {
            tokio::time::sleep(secs(12)).await;
            etcd.resume().unwrap();
            etcd
        });
        cluster.servers[0].start().await.unwrap();
        let _etcd = resume.await.unwrap();
        let failed = cluster.servers[0].failed_starts().to_vec();
        assert!(
            failed.is_empty(),
            "kapi serve exited while etcd was paused: {failed:?}"
        );
    });
}
