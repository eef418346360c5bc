//! The writing-a-controller helpers against a server: `ObjectReconciler` through the
//! builder, `finalizer()` with its Events, and typed server-side apply.
#![allow(clippy::unwrap_used, clippy::panic)]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use controller_runtime::builder::{BuilderError, ControllerBuilder};
use controller_runtime::client::{ApplyOptions, Client, ListOptions, ObjectKey};
use controller_runtime::envtest::Environment;
use controller_runtime::finalizer::{Event, finalizer};
use controller_runtime::manager::{Manager, ManagerOptions};
use controller_runtime::reconcile::{Action, ObjectReconciler, Request};
use controller_runtime::record::EventRecorder;
use k8s_types::core::v1::{ConfigMap, Secret};

const FINALIZER: &str = "example.com/cleanup";

/// What the finalizer asked for.
#[derive(Default)]
struct Counts {
    applies: AtomicUsize,
    cleanups: AtomicUsize,
    gone: AtomicUsize,
}

/// Counts; the first cleanup fails.
struct Counting {
    mgr: Arc<Manager>,
    recorder: EventRecorder,
    counts: Arc<Counts>,
}

impl ObjectReconciler<ConfigMap> for Counting {
    async fn reconcile(&self, cm: Arc<ConfigMap>) -> controller_runtime::Result<Action> {
        let recorder = Some(&self.recorder);
        finalizer(
            self.mgr.client(),
            recorder,
            FINALIZER,
            cm,
            |event| async move {
                match event {
                    Event::Apply(_) => {
                        self.counts.applies.fetch_add(1, Ordering::SeqCst);
                    }
                    Event::Cleanup(_) => {
                        if self.counts.cleanups.fetch_add(1, Ordering::SeqCst) == 0 {
                            return Err(controller_runtime::Error::other("backup not reachable"));
                        }
                    }
                }
                Ok(Action::done())
            },
        )
        .await
    }

    async fn deleted(&self, _request: Request) -> controller_runtime::Result<Action> {
        self.counts.gone.fetch_add(1, Ordering::SeqCst);
        Ok(Action::done())
    }
}

async fn until(what: &str, mut cond: impl AsyncFnMut() -> bool) {
    for _ in 0..500 {
        if cond().await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("timed out waiting for {what}");
}

/// The Events' reasons about `name`, in the order written.
async fn reasons(client: &Client, name: &str) -> Vec<String> {
    let mut events = client
        .list::<k8s_types::events::v1::Event>(&ListOptions::in_namespace("default"))
        .await
        .unwrap()
        .items;
    events.retain(|e| e.regarding.name == name);
    events.sort_by_key(|e| e.event_time);
    events.into_iter().map(|e| e.reason).collect()
}

against_both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    finalizer_adds_cleans_up_and_removes
);
async fn finalizer_adds_cleans_up_and_removes(env: Environment) {
    let mgr = Arc::new(Manager::new(env.config(), ManagerOptions::new(env.scheme())).unwrap());
    // A reconciler of another kind than for_kind's is refused.
    struct OfSecrets;
    impl ObjectReconciler<Secret> for OfSecrets {
        async fn reconcile(&self, _: Arc<Secret>) -> controller_runtime::Result<Action> {
            Ok(Action::done())
        }
    }
    let mismatch = ControllerBuilder::new(&mgr)
        .for_kind::<ConfigMap>()
        .named("mismatch")
        .complete_object(OfSecrets);
    assert!(matches!(
        mismatch,
        Err(BuilderError::ObjectKindMismatch { .. })
    ));

    let recorder = mgr.event_recorder_for("finalizer-test");
    let counts = Arc::new(Counts::default());
    ControllerBuilder::new(&mgr)
        .for_kind::<ConfigMap>()
        .complete_object(Counting {
            mgr: Arc::clone(&mgr),
            recorder,
            counts: Arc::clone(&counts),
        })
        .unwrap();
    let stop = tokio_util::sync::CancellationToken::new();
    let run = tokio::spawn({
        let (m, s) = (mgr.clone(), stop.clone());
        async move { m.start(async move { s.cancelled().await }).await }
    });

    let client = Client::new(env.config(), env.scheme()).unwrap();
    let key = ObjectKey::new("default", "guarded");
    let mut cm = ConfigMap::default();
    cm.metadata.namespace = "default".into();
    cm.metadata.name = "guarded".into();
    cm.data.insert("mode".into(), "fast".into());
    // Typed server-side apply creates it, its manager owning the data it stated.
    let applied = client
        .apply(&cm, &ApplyOptions::new("finalizer-test"))
        .await
        .unwrap();
    assert_eq!(applied.data.get("mode").map(String::as_str), Some("fast"));
    assert!(
        applied
            .metadata
            .managed_fields
            .iter()
            .any(|f| f.manager == "finalizer-test" && f.operation == "Apply")
    );

    // First sight: the finalizer is added, then the object is reconciled with it.
    until("the finalizer added and an apply", async || {
        let cm: ConfigMap = client.get(&key).await.unwrap();
        cm.metadata.finalizers == [FINALIZER] && counts.applies.load(Ordering::SeqCst) > 0
    })
    .await;

    // Deleted: the first cleanup fails (the finalizer stays), the retry succeeds and the
    // finalizer goes, which lets the deletion finish.
    client.delete(&cm, &Default::default()).await.unwrap();
    until("the object gone", async || {
        client
            .get::<ConfigMap>(&key)
            .await
            .is_err_and(|e| e.is_not_found())
    })
    .await;
    assert_eq!(counts.cleanups.load(Ordering::SeqCst), 2);
    until("the gone object reported", async || {
        counts.gone.load(Ordering::SeqCst) > 0
    })
    .await;
    until("the Events", async || {
        reasons(&client, "guarded").await.len() >= 3
    })
    .await;
    assert_eq!(
        reasons(&client, "guarded").await,
        ["FinalizerAdded", "CleanupFailed", "FinalizerRemoved"]
    );

    stop.cancel();
    run.await.unwrap().unwrap();
    env.stop().await;
}
