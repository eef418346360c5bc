//! The manager, a controller built on the cache and leader election, against the
//! in-process API server.
#![allow(clippy::unwrap_used, clippy::panic)]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use controller_runtime::builder::ControllerBuilder;
use controller_runtime::client::{Client, ObjectKey};
use controller_runtime::envtest::Environment;
use controller_runtime::leaderelection::LeaderElectionConfig;
use controller_runtime::manager::{Manager, ManagerOptions};
use controller_runtime::predicate::ResourceVersionChanged;
use controller_runtime::reconcile::{self, Action, Request};
use k8s_types::coordination::v1::Lease;
use k8s_types::core::v1::ConfigMap;

async fn until(what: &str, cond: impl Fn() -> bool) {
    for _ in 0..1000 {
        if cond() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("timed out waiting for {what}");
}

fn config_map(name: &str) -> ConfigMap {
    let mut cm = ConfigMap::default();
    cm.metadata.name = name.into();
    cm.metadata.namespace = "default".into();
    cm
}

/// Starts `mgr` in a task; cancelling the token stops it, and the task gives its result.
fn started(
    mgr: &Arc<Manager>,
) -> (
    tokio_util::sync::CancellationToken,
    tokio::task::JoinHandle<Result<(), controller_runtime::manager::ManagerError>>,
) {
    let stop = tokio_util::sync::CancellationToken::new();
    let run = tokio::spawn({
        let (m, s) = (mgr.clone(), stop.clone());
        async move { m.start(async move { s.cancelled().await }).await }
    });
    (stop, run)
}

/// Runs `mgr` as a program's `main` does: on a runtime of its own, dropped as soon as
/// `start` returns, so that whatever `start` left running in the background dies with it.
fn started_as_main(
    mgr: &Arc<Manager>,
) -> (
    tokio_util::sync::CancellationToken,
    std::thread::JoinHandle<Result<(), controller_runtime::manager::ManagerError>>,
) {
    let stop = tokio_util::sync::CancellationToken::new();
    let (m, s) = (mgr.clone(), stop.clone());
    let thread = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move { m.start(async move { s.cancelled().await }).await })
    });
    (stop, thread)
}

against_both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    controller_reconciles_created_and_updated_objects
);
async fn controller_reconciles_created_and_updated_objects(env: Environment) {
    let mgr = Arc::new(Manager::new(env.config(), ManagerOptions::new(env.scheme())).unwrap());
    let seen: Arc<Mutex<Vec<Request>>> = Arc::default();
    let seen2 = seen.clone();
    let controller = ControllerBuilder::new(&mgr)
        .for_kind::<ConfigMap>()
        .with_event_filter(ResourceVersionChanged)
        .complete(reconcile::func(move |req: Request| {
            let seen = seen2.clone();
            async move {
                seen.lock().unwrap().push(req);
                Ok::<_, std::convert::Infallible>(Action::done())
            }
        }))
        .unwrap();
    assert_eq!(controller.name(), "configmap");

    let client = Client::new(env.config(), env.scheme()).unwrap();
    client
        .create(&config_map("before-start"), &Default::default())
        .await
        .unwrap();

    let (stop, run) = started(&mgr);
    until("the initial list", || {
        seen.lock()
            .unwrap()
            .contains(&Request::new("default", "before-start"))
    })
    .await;
    let mut created = client
        .create(&config_map("later"), &Default::default())
        .await
        .unwrap();
    until("a watch event", || {
        seen.lock()
            .unwrap()
            .contains(&Request::new("default", "later"))
    })
    .await;
    let before = controller.metrics().total();
    created.data.insert("k".into(), "v".into());
    client.update(&created, &Default::default()).await.unwrap();
    until("the update", || controller.metrics().total() > before).await;

    // The manager's client reads through the cache.
    let cached: Arc<ConfigMap> = mgr
        .client()
        .get(&ObjectKey::new("default", "later"))
        .await
        .unwrap();
    let _ = cached;

    stop.cancel();
    run.await.unwrap().unwrap();
    env.stop().await;
}

fn election(identity: &str) -> LeaderElectionConfig {
    LeaderElectionConfig {
        lease_duration: Duration::from_secs(3),
        renew_deadline: Duration::from_secs(2),
        retry_period: Duration::from_millis(200),
        ..LeaderElectionConfig::new("default", "test-lock", identity)
    }
}

against_both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    leader_election_hands_over_between_two_managers
);
async fn leader_election_hands_over_between_two_managers(env: Environment) {
    let make = |id: &str| {
        let mut options = ManagerOptions::new(env.scheme());
        options.leader_election = Some(election(id));
        Arc::new(Manager::new(env.config(), options).unwrap())
    };
    let (a, b) = (make("a"), make("b"));
    let (stop_a, run_a) = started_as_main(&a);
    let mut a_elected = a.elected();
    tokio::time::timeout(Duration::from_secs(10), a_elected.wait_for(|l| *l))
        .await
        .unwrap()
        .unwrap();

    let (stop_b, run_b) = started(&b);
    // b waits while a renews (well past a's lease duration).
    tokio::time::sleep(Duration::from_secs(4)).await;
    assert!(!*b.elected().borrow(), "b must not lead while a renews");

    let client = Client::new(env.config(), env.scheme()).unwrap();
    let lease: Lease = client
        .get(&ObjectKey::new("default", "test-lock"))
        .await
        .unwrap();
    assert_eq!(lease.spec.holder_identity.as_deref(), Some("a"));
    assert_eq!(lease.spec.lease_transitions, Some(0));

    // a stops and its runtime goes: `start` returns only once the lease is released, so
    // its holder is already cleared (unless b, retrying every 200 ms, took it since).
    stop_a.cancel();
    tokio::task::spawn_blocking(move || run_a.join())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    let lease: Lease = client
        .get(&ObjectKey::new("default", "test-lock"))
        .await
        .unwrap();
    assert_ne!(
        lease.spec.holder_identity.as_deref(),
        Some("a"),
        "a's start returned before its lease was released"
    );
    // b takes over without waiting out the lease: well within half its duration.
    let mut b_elected = b.elected();
    let lease_duration = election("b").lease_duration;
    tokio::time::timeout(lease_duration / 2, b_elected.wait_for(|l| *l))
        .await
        .unwrap_or_else(|_| panic!("b did not take over within half the lease duration"))
        .unwrap();
    let lease: Lease = client
        .get(&ObjectKey::new("default", "test-lock"))
        .await
        .unwrap();
    assert_eq!(lease.spec.holder_identity.as_deref(), Some("b"));
    assert_eq!(lease.spec.lease_transitions, Some(1));
    assert!(lease.spec.acquire_time.is_some() && lease.spec.renew_time.is_some());

    stop_b.cancel();
    run_b.await.unwrap().unwrap();
    env.stop().await;
}

against_both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    recorder_writes_events_k8s_io_v1_events
);
async fn recorder_writes_events_k8s_io_v1_events(env: Environment) {
    use controller_runtime::client::ListOptions;
    use controller_runtime::record::{EventRecorder, EventType};
    use k8s_types::events::v1::Event;

    let client = Client::new(env.config(), env.scheme()).unwrap();
    let cm = client
        .create(&config_map("watched"), &Default::default())
        .await
        .unwrap();
    let recorder = EventRecorder::new(client.clone(), "example.com/test", "test-1");
    recorder
        .event(
            &cm,
            EventType::Warning,
            "Mirrored",
            "Mirror",
            "copied to ns b",
        )
        .await;
    recorder
        .event(&cm, EventType::Normal, "Synced", "Sync", "in sync")
        .await;
    let events = client
        .list::<Event>(&ListOptions::in_namespace("default"))
        .await
        .unwrap()
        .items;
    assert_eq!(events.len(), 2);
    let e = events.iter().find(|e| e.reason == "Mirrored").unwrap();
    assert_eq!(e.r#type, "Warning");
    assert_eq!(e.note, "copied to ns b");
    assert_eq!(e.action, "Mirror");
    assert_eq!(e.reporting_controller, "example.com/test");
    assert_eq!(e.reporting_instance, "test-1");
    assert_eq!(
        (
            e.regarding.kind.as_str(),
            e.regarding.name.as_str(),
            e.regarding.uid.as_str()
        ),
        ("ConfigMap", "watched", cm.metadata.uid.as_str())
    );
    assert!(e.metadata.name.starts_with("watched."));

    // Repeats: the second patches the first Event into a series of 2, later ones are
    // counted and written by the next refresh.
    let count = |events: &[Event]| -> Vec<Option<i32>> {
        events
            .iter()
            .filter(|e| e.reason == "Synced")
            .map(|e| e.series.as_ref().map(|s| s.count))
            .collect()
    };
    let list = || async {
        client
            .list::<Event>(&ListOptions::in_namespace("default"))
            .await
            .unwrap()
            .items
    };
    for _ in 0..3 {
        recorder
            .event(&cm, EventType::Normal, "Synced", "Sync", "in sync")
            .await;
    }
    assert_eq!(count(&list().await), [Some(2)]);
    recorder.refresh_series().await;
    assert_eq!(count(&list().await), [Some(4)]);

    // Through a manager: its recorder's counts are written when it stops.
    let mgr = Arc::new(Manager::new(env.config(), ManagerOptions::new(env.scheme())).unwrap());
    let from_mgr = mgr.event_recorder_for("example.com/managed");
    let (stop, run) = started(&mgr);
    for _ in 0..3 {
        from_mgr
            .event(&cm, EventType::Normal, "Adopted", "Adopt", "adopted")
            .await;
    }
    stop.cancel();
    run.await.unwrap().unwrap();
    let adopted: Vec<Event> = list()
        .await
        .into_iter()
        .filter(|e| e.reason == "Adopted")
        .collect();
    assert_eq!(adopted.len(), 1);
    assert_eq!(adopted[0].series.as_ref().map(|s| s.count), Some(3));
    assert!(
        adopted[0]
            .reporting_instance
            .starts_with("example.com/managed-")
    );
    env.stop().await;
}

/// A plain HTTP/1.1 GET: the status and the body.
async fn http_get(address: std::net::SocketAddr, path: &str) -> std::io::Result<(u16, String)> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut tcp = tokio::net::TcpStream::connect(address).await?;
    tcp.write_all(
        format!("GET {path} HTTP/1.1\r\nHost: probe\r\nConnection: close\r\n\r\n").as_bytes(),
    )
    .await?;
    let mut raw = String::new();
    tcp.read_to_string(&mut raw).await?;
    let status = raw.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = raw
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_owned())
        .unwrap_or_default();
    Ok((status, body))
}

against_both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    manager_serves_health_probes
);
/// The health probes: served from start to stop on the probe address, with the checks
/// added before start, in Go's text; a check added after start is refused.
async fn manager_serves_health_probes(env: Environment) {
    use controller_runtime::healthz;
    use std::sync::atomic::{AtomicBool, Ordering};

    let mut options = ManagerOptions::new(env.scheme());
    options.health_probe_bind_address = Some("127.0.0.1:0".parse().unwrap());
    let mgr = Arc::new(Manager::new(env.config(), options).unwrap());
    let address = mgr.health_probe_address().unwrap();
    assert_ne!(address.port(), 0);
    let ready = Arc::new(AtomicBool::new(false));
    mgr.add_healthz_check("ping", healthz::ping()).unwrap();
    mgr.add_readyz_check("warmed-up", {
        let ready = ready.clone();
        Arc::new(move || {
            if ready.load(Ordering::Relaxed) {
                Ok(())
            } else {
                Err("still warming up".into())
            }
        })
    })
    .unwrap();

    let (stop, run) = started(&mgr);
    let mut elected = mgr.elected();
    tokio::time::timeout(Duration::from_secs(10), elected.wait_for(|l| *l))
        .await
        .unwrap()
        .unwrap();

    assert_eq!(
        http_get(address, "/healthz").await.unwrap(),
        (200, "ok".into())
    );
    assert_eq!(
        http_get(address, "/readyz").await.unwrap(),
        (
            500,
            "[-]warmed-up failed: reason withheld\nhealthz check failed\n".into()
        )
    );
    assert_eq!(
        http_get(address, "/readyz/warmed-up").await.unwrap(),
        (500, "internal server error: still warming up\n".into())
    );
    ready.store(true, Ordering::Relaxed);
    assert_eq!(
        http_get(address, "/readyz?verbose").await.unwrap(),
        (200, "[+]warmed-up ok\nhealthz check passed\n".into())
    );
    assert_eq!(http_get(address, "/metrics").await.unwrap().0, 404);
    let err = mgr.add_readyz_check("late", healthz::ping()).unwrap_err();
    assert!(err.to_string().contains("has started"), "{err}");

    stop.cancel();
    run.await.unwrap().unwrap();
    // Stopped with the manager.
    assert!(http_get(address, "/healthz").await.is_err());
    env.stop().await;
}

against_both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    a_taken_probe_address_fails_at_new
);
/// A probe address already in use fails `Manager::new`, naming the address.
async fn a_taken_probe_address_fails_at_new(env: Environment) {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = taken.local_addr().unwrap();
    let mut options = ManagerOptions::new(env.scheme());
    options.health_probe_bind_address = Some(address);
    let err = Manager::new(env.config(), options).unwrap_err();
    assert!(
        matches!(err, controller_runtime::manager::ManagerError::Listen { endpoint: "health probes", address: a, .. } if a == address),
        "{err}"
    );
    assert!(err.to_string().contains(&address.to_string()), "{err}");
    env.stop().await;
}

against_both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    manager_serves_controller_metrics
);
/// The controllers' metrics at `/metrics`, under Go's names, counting what the
/// controller did; other paths are 404.
async fn manager_serves_controller_metrics(env: Environment) {
    // The real kube-apiserver keeps ConfigMaps of its own (in kube-system), which the
    // controller reconciles too.
    let servers_own = Client::new(env.config(), env.scheme())
        .unwrap()
        .list::<ConfigMap>(&Default::default())
        .await
        .unwrap()
        .items
        .len() as u64;
    let mut options = ManagerOptions::new(env.scheme());
    options.metrics_bind_address = Some("127.0.0.1:0".parse().unwrap());
    let mgr = Arc::new(Manager::new(env.config(), options).unwrap());
    let address = mgr.metrics_address().unwrap();
    let controller = ControllerBuilder::new(&mgr)
        .for_kind::<ConfigMap>()
        .complete(reconcile::func(|req: Request| async move {
            if req.name == "fails" {
                return Err(std::io::Error::other("refused"));
            }
            Ok(Action::done())
        }))
        .unwrap();
    let client = Client::new(env.config(), env.scheme()).unwrap();
    for name in ["a", "b", "fails"] {
        client
            .create(&config_map(name), &Default::default())
            .await
            .unwrap();
    }
    let (stop, run) = started(&mgr);
    let m = controller.metrics().clone();
    until("two successes and an error", || {
        m.success.load(std::sync::atomic::Ordering::Relaxed) >= 2 + servers_own
            && m.error.load(std::sync::atomic::Ordering::Relaxed) >= 1
    })
    .await;

    let (status, text) = http_get(address, "/metrics").await.unwrap();
    assert_eq!(status, 200);
    let sample = |line: &str| -> u64 {
        text.lines()
            .find_map(|l| l.strip_prefix(line)?.strip_prefix(' ')?.parse().ok())
            .unwrap_or_else(|| panic!("no {line} in:\n{text}"))
    };
    assert!(text.contains("# TYPE controller_runtime_reconcile_total counter\n"));
    assert_eq!(
        sample("controller_runtime_reconcile_total{controller=\"configmap\",result=\"success\"}"),
        2 + servers_own
    );
    assert!(sample("controller_runtime_reconcile_errors_total{controller=\"configmap\"}") >= 1);
    assert_eq!(
        sample("controller_runtime_max_concurrent_reconciles{controller=\"configmap\"}"),
        1
    );
    sample("workqueue_depth{controller=\"configmap\",name=\"configmap\"}");
    assert!(
        sample("controller_runtime_reconcile_time_seconds_count{controller=\"configmap\"}") >= 3
    );
    assert_eq!(http_get(address, "/healthz").await.unwrap().0, 404);

    stop.cancel();
    run.await.unwrap().unwrap();
    assert!(http_get(address, "/metrics").await.is_err());
    env.stop().await;
}
