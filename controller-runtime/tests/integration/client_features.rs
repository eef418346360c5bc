//! The client's wire formats, unstructured and metadata calls, patches, subresources,
//! options and watch errors, against the in-process API server.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use apimachinery::runtime::{Object, Unstructured};
use apimachinery::schema::GroupVersionKind;
use controller_runtime::client::{
    Client, ClientOptions, CreateOptions, DeleteOptions, ListOptions, ObjectKey, Patch,
    PatchOptions, Preconditions, WatchEvent, WireFormat,
};
use controller_runtime::config::Config;
use controller_runtime::envtest::Environment;
use futures_util::StreamExt;
use k8s_types::core::v1::{ConfigMap, Pod};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

fn config_map(ns: &str, name: &str, labels: &[(&str, &str)]) -> ConfigMap {
    let mut cm = ConfigMap::default();
    cm.metadata.name = name.into();
    cm.metadata.namespace = ns.into();
    cm.metadata.labels = labels
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    cm.data = [("k".to_string(), "v".to_string())].into();
    cm
}

/// A TCP proxy in front of `upstream` that records the bytes each way.
struct Recorder {
    url: String,
    sent: Arc<Mutex<Vec<u8>>>,
    received: Arc<Mutex<Vec<u8>>>,
}

async fn pipe(
    mut from: impl tokio::io::AsyncRead + Unpin,
    mut to: impl tokio::io::AsyncWrite + Unpin,
    log: Arc<Mutex<Vec<u8>>>,
) {
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        let n = match from.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        log.lock().unwrap().extend_from_slice(&buf[..n]);
        if to.write_all(&buf[..n]).await.is_err() {
            return;
        }
    }
}

async fn recorder(upstream: std::net::SocketAddr) -> Recorder {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let sent = Arc::new(Mutex::new(Vec::new()));
    let received = Arc::new(Mutex::new(Vec::new()));
    let (s, r) = (sent.clone(), received.clone());
    tokio::spawn(async move {
        while let Ok((inbound, _)) = listener.accept().await {
            let outbound = tokio::net::TcpStream::connect(upstream).await.unwrap();
            let (ri, wi) = inbound.into_split();
            let (ro, wo) = outbound.into_split();
            tokio::spawn(pipe(ri, wo, s.clone()));
            tokio::spawn(pipe(ro, wi, r.clone()));
        }
    });
    Recorder {
        url,
        sent,
        received,
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn built_in_types_travel_as_protobuf_and_json_on_request() {
    let env = Environment::start().await.unwrap();
    let upstream: std::net::SocketAddr = env.url().trim_start_matches("http://").parse().unwrap();

    let rec = recorder(upstream).await;
    let client = Client::new(&Config::new(&rec.url), env.scheme()).unwrap();
    let created = client
        .create(&config_map("default", "pb", &[]), &CreateOptions::default())
        .await
        .unwrap();
    let _: ConfigMap = client.get(&ObjectKey::new("default", "pb")).await.unwrap();
    assert_eq!(created.metadata.name, "pb");
    {
        let sent = rec.sent.lock().unwrap();
        let received = rec.received.lock().unwrap();
        let sent_l = String::from_utf8_lossy(&sent).to_ascii_lowercase();
        assert!(
            sent_l.contains("content-type: application/vnd.kubernetes.protobuf"),
            "{sent_l}"
        );
        assert!(sent_l.contains("accept: application/vnd.kubernetes.protobuf"));
        // The body is the protobuf envelope.
        assert!(contains(&sent, b"k8s\0"));
        let received_l = String::from_utf8_lossy(&received).to_ascii_lowercase();
        assert!(
            received_l.contains("content-type: application/vnd.kubernetes.protobuf"),
            "{received_l}"
        );
        assert!(contains(&received, b"k8s\0"));
    }

    let rec = recorder(upstream).await;
    let json = Client::with_options(
        &Config::new(&rec.url),
        env.scheme(),
        ClientOptions {
            wire_format: WireFormat::Json,
        },
    )
    .unwrap();
    json.create(&config_map("default", "js", &[]), &CreateOptions::default())
        .await
        .unwrap();
    let sent = rec.sent.lock().unwrap().clone();
    let sent_l = String::from_utf8_lossy(&sent).to_ascii_lowercase();
    assert!(!contains(&sent, b"k8s\0"));
    assert!(
        sent_l.contains("content-type: application/json"),
        "{sent_l}"
    );
    assert!(sent_l.contains(r#""kind":"configmap""#), "{sent_l}");
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unstructured_and_metadata_calls() {
    let env = Environment::start().await.unwrap();
    let client = Client::new(env.config(), env.scheme()).unwrap();
    let gvk = GroupVersionKind::new("", "v1", "ConfigMap");

    let u = Unstructured::from_value(serde_json::json!({
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "u1", "namespace": "default", "labels": {"app": "x"}},
        "data": {"a": "1"},
    }))
    .unwrap();
    let created = client.create(&u, &CreateOptions::default()).await.unwrap();
    assert_eq!(created.nested_string(&["data", "a"]).unwrap(), Some("1"));
    let rv = created.meta().unwrap().resource_version().to_string();
    assert!(!rv.is_empty());

    let got = client
        .get_unstructured(&gvk, &ObjectKey::new("default", "u1"))
        .await
        .unwrap();
    assert_eq!(got.kind(), "ConfigMap");
    let mut changed = got.clone();
    changed
        .set_nested_field(serde_json::json!("2"), &["data", "a"])
        .unwrap();
    let updated = client.update(&changed, &Default::default()).await.unwrap();
    assert_eq!(updated.nested_string(&["data", "a"]).unwrap(), Some("2"));

    let list = client
        .list_unstructured(&gvk, &ListOptions::in_namespace("default"))
        .await
        .unwrap();
    assert_eq!(list.items.len(), 1);

    let meta = client
        .get_metadata(&gvk, &ObjectKey::new("default", "u1"))
        .await
        .unwrap();
    assert_eq!(meta.metadata.name, "u1");
    assert_eq!(
        meta.metadata.labels.get("app").map(String::as_str),
        Some("x")
    );
    assert_eq!(meta.type_meta.kind, "PartialObjectMetadata");
    let metas = client
        .list_metadata(&gvk, &ListOptions::in_namespace("default"))
        .await
        .unwrap();
    assert_eq!(metas.items.unwrap_or_default()[0].metadata.name, "u1");

    let mut w = client
        .watch_metadata(
            &gvk,
            &ListOptions {
                namespace: Some("default".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    let first = tokio::time::timeout(Duration::from_secs(10), w.next())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    match first {
        WatchEvent::Added(m) => assert_eq!(m.metadata.name, "u1"),
        other => panic!("{other:?}"),
    }

    client
        .delete_by_key(&gvk, &ObjectKey::new("default", "u1"), &Default::default())
        .await
        .unwrap();
    let err = client
        .get_unstructured(&gvk, &ObjectKey::new("default", "u1"))
        .await
        .unwrap_err();
    assert!(err.is_not_found());
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn patches_selectors_and_delete_options() {
    let env = Environment::start().await.unwrap();
    let client = Client::new(env.config(), env.scheme()).unwrap();
    for (name, tier) in [("a", "web"), ("b", "web"), ("c", "db")] {
        client
            .create(
                &config_map("default", name, &[("tier", tier)]),
                &CreateOptions::default(),
            )
            .await
            .unwrap();
    }
    let web = client
        .list::<ConfigMap>(
            &ListOptions::in_namespace("default")
                .with_labels(apimachinery::labels::Selector::parse("tier=web").unwrap()),
        )
        .await
        .unwrap();
    assert_eq!(web.items.len(), 2);
    let named = client
        .list::<ConfigMap>(
            &ListOptions::in_namespace("default")
                .with_fields(apimachinery::fields::Selector::parse("metadata.name=c").unwrap()),
        )
        .await
        .unwrap();
    assert_eq!(named.items.len(), 1);

    // Paging.
    let page = client
        .list::<ConfigMap>(&ListOptions::in_namespace("default").with_limit(2))
        .await
        .unwrap();
    assert_eq!(page.items.len(), 2);
    assert!(!page.metadata.continue_.is_empty());
    let rest = client
        .list::<ConfigMap>(&ListOptions {
            continue_token: Some(page.metadata.continue_.clone()),
            ..ListOptions::in_namespace("default").with_limit(2)
        })
        .await
        .unwrap();
    assert_eq!(rest.items.len(), 1);

    let a = config_map("default", "a", &[]);
    let merged = client
        .patch(
            &a,
            &Patch::Merge(serde_json::json!({"data": {"m": "1"}})),
            &PatchOptions::default(),
        )
        .await
        .unwrap();
    assert_eq!(merged.data.get("m").map(String::as_str), Some("1"));
    let strategic = client
        .patch(
            &a,
            &Patch::StrategicMerge(serde_json::json!({"metadata": {"labels": {"s": "1"}}})),
            &PatchOptions::default(),
        )
        .await
        .unwrap();
    assert_eq!(
        strategic.metadata.labels.get("s").map(String::as_str),
        Some("1")
    );
    let json = client
        .patch(
            &a,
            &Patch::Json(serde_json::json!([{"op": "remove", "path": "/data/m"}])),
            &PatchOptions::default(),
        )
        .await
        .unwrap();
    assert!(!json.data.contains_key("m"));

    // Dry run leaves nothing behind.
    client
        .create(
            &config_map("default", "dry", &[]),
            &CreateOptions {
                dry_run: true,
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert!(
        client
            .get::<ConfigMap>(&ObjectKey::new("default", "dry"))
            .await
            .unwrap_err()
            .is_not_found()
    );

    // A failed precondition is a conflict.
    let err = client
        .delete(
            &a,
            &DeleteOptions {
                preconditions: Some(Preconditions {
                    uid: Some("not-the-uid".into()),
                    resource_version: None,
                }),
                ..Default::default()
            },
        )
        .await
        .unwrap_err();
    assert!(err.is_conflict(), "{err}");

    // A finalizer turns delete into marking.
    let mut fin = config_map("default", "fin", &[]);
    fin.metadata.finalizers = vec!["example.com/keep".into()];
    client
        .create(&fin, &CreateOptions::default())
        .await
        .unwrap();
    client
        .delete(&fin, &DeleteOptions::default())
        .await
        .unwrap();
    let marked: ConfigMap = client.get(&ObjectKey::new("default", "fin")).await.unwrap();
    assert!(marked.metadata.deletion_timestamp.is_some());

    client
        .delete_all_of::<ConfigMap>(
            &ListOptions::in_namespace("default")
                .with_labels(apimachinery::labels::Selector::parse("tier=web").unwrap()),
            &DeleteOptions::default(),
        )
        .await
        .unwrap();
    let left = client
        .list::<ConfigMap>(&ListOptions::in_namespace("default"))
        .await
        .unwrap();
    let mut names: Vec<_> = left.items.iter().map(|c| c.metadata.name.clone()).collect();
    names.sort();
    assert_eq!(names, ["c", "fin"]);
    env.stop().await;
}

/// Typed server-side apply (`Client::apply`): the typed object is the intent, sent with
/// its kind; a second manager's different value conflicts unless it forces; fields a
/// manager no longer states are removed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typed_apply_conflicts_and_force() {
    use controller_runtime::client::ApplyOptions;
    let env = Environment::start().await.unwrap();
    let client = Client::new(env.config(), env.scheme()).unwrap();
    let mut intent = config_map("default", "typed", &[]);
    intent.data.insert("gone".into(), "soon".into());
    let created = client
        .apply(&intent, &ApplyOptions::new("alice"))
        .await
        .unwrap();
    assert_eq!(created.data.len(), 2);

    let mut other = config_map("default", "typed", &[]);
    other.data = [("k".to_string(), "bob's".to_string())].into();
    let err = client
        .apply(&other, &ApplyOptions::new("bob"))
        .await
        .unwrap_err();
    assert!(err.is_conflict(), "{err}");
    let forced = client
        .apply(&other, &ApplyOptions::new("bob").force())
        .await
        .unwrap();
    assert_eq!(forced.data.get("k").map(String::as_str), Some("bob's"));

    // alice states `k` no more and drops `gone`: hers is removed, bob's `k` stays.
    let mut less = config_map("default", "typed", &[]);
    less.data.clear();
    let after = client
        .apply(&less, &ApplyOptions::new("alice"))
        .await
        .unwrap();
    assert_eq!(after.data.get("k").map(String::as_str), Some("bob's"));
    assert!(!after.data.contains_key("gone"));
    env.stop().await;
}

/// Server-side apply through `Patch::Apply`: apply creates the object and records its
/// manager; another manager's different value for an owned field is a conflict unless it
/// forces, and then the field is its own; the same value is shared without conflict; an
/// apply without a field manager is invalid.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_side_apply_conflicts_and_force() {
    let env = Environment::start().await.unwrap();
    let client = Client::new(env.config(), env.scheme()).unwrap();
    let target = config_map("default", "applied", &[]);
    let intent = |value: &str| {
        Patch::Apply(serde_json::json!({
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "metadata": {"name": "applied", "namespace": "default"},
            "data": {"k": value},
        }))
    };
    let by = |manager: &str, force: bool| PatchOptions {
        field_manager: Some(manager.into()),
        force,
        ..Default::default()
    };
    let owners = |cm: &ConfigMap| -> Vec<(String, String)> {
        cm.metadata
            .managed_fields
            .iter()
            .map(|e| (e.manager.clone(), e.operation.clone()))
            .collect()
    };

    let created = client
        .patch(&target, &intent("1"), &by("alice", false))
        .await
        .unwrap();
    assert_eq!(created.data.get("k").map(String::as_str), Some("1"));
    assert_eq!(owners(&created), [("alice".into(), "Apply".into())]);

    let err = client
        .patch(&target, &intent("2"), &by("bob", false))
        .await
        .unwrap_err();
    assert!(err.is_conflict(), "{err}");
    let unchanged: ConfigMap = client
        .get(&ObjectKey::new("default", "applied"))
        .await
        .unwrap();
    assert_eq!(unchanged.data.get("k").map(String::as_str), Some("1"));

    let forced = client
        .patch(&target, &intent("2"), &by("bob", true))
        .await
        .unwrap();
    assert_eq!(forced.data.get("k").map(String::as_str), Some("2"));
    // alice lost her only field, so her entry is gone.
    assert_eq!(owners(&forced), [("bob".into(), "Apply".into())]);
    // The same value from a third manager is no conflict: the field is shared.
    let shared = client
        .patch(&target, &intent("2"), &by("carol", false))
        .await
        .unwrap();
    let mut managers = owners(&shared);
    managers.sort();
    assert_eq!(
        managers,
        [
            ("bob".into(), "Apply".into()),
            ("carol".into(), "Apply".into())
        ]
    );

    let err = client
        .patch(&target, &intent("3"), &PatchOptions::default())
        .await
        .unwrap_err();
    // Go's ValidatePatchOptions: 422 on PatchOptions, naming the field.
    assert!(err.is_invalid(), "{err}");
    assert!(
        err.to_string().contains("fieldManager: Required value"),
        "{err}"
    );

    // An intent without apiVersion and kind is the target's; one of another kind is
    // refused by the client, and the object is unchanged.
    let partial = Patch::Apply(serde_json::json!({
        "metadata": {"name": "applied", "namespace": "default"},
        "data": {"k": "2", "partial": "yes"},
    }));
    let applied = client
        .patch(&target, &partial, &by("bob", false))
        .await
        .unwrap();
    assert_eq!(applied.data.get("partial").map(String::as_str), Some("yes"));
    let secret = Patch::Apply(serde_json::json!({
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": {"name": "applied", "namespace": "default"},
    }));
    let err = client
        .patch(&target, &secret, &by("bob", true))
        .await
        .unwrap_err();
    assert!(
        matches!(err, controller_runtime::client::Error::ApplyMismatch { .. }),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        r#"the apply patch for /v1, Kind=ConfigMap names kind "Secret", not "ConfigMap""#
    );
    env.stop().await;
}

/// Impersonation travels as client-go's `Impersonate-*` headers on every request.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn impersonation_is_sent_as_headers() {
    let env = Environment::start().await.unwrap();
    let upstream: std::net::SocketAddr = env.url().trim_start_matches("http://").parse().unwrap();
    let rec = recorder(upstream).await;
    let mut config = Config::new(&rec.url);
    config.impersonate = controller_runtime::config::Impersonate {
        user: Some("jane".into()),
        groups: vec!["dev".into(), "ops".into()],
        ..Default::default()
    };
    let client = Client::new(&config, env.scheme()).unwrap();
    client
        .list::<ConfigMap>(&ListOptions::in_namespace("default"))
        .await
        .unwrap();
    let sent = String::from_utf8_lossy(&rec.sent.lock().unwrap()).to_ascii_lowercase();
    for header in [
        "impersonate-user: jane\r\n",
        "impersonate-group: dev\r\n",
        "impersonate-group: ops\r\n",
    ] {
        assert!(sent.contains(header), "{header:?} not in {sent}");
    }
    // Groups without a user cannot be sent: the client refuses to be made.
    config.impersonate.user = None;
    let err = Client::new(&config, env.scheme()).unwrap_err();
    assert!(err.to_string().contains("no user to act as"), "{err}");
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_subresource_and_invalid_objects() {
    let env = Environment::start().await.unwrap();
    let client = Client::new(env.config(), env.scheme()).unwrap();
    let pod: Pod = serde_json::from_value(serde_json::json!({
        "metadata": {"name": "p", "namespace": "default"},
        "spec": {"containers": [{"name": "c", "image": "busybox"}]},
    }))
    .unwrap();
    let created = client
        .create(&pod, &CreateOptions::default())
        .await
        .unwrap();
    let mut with_status = created.clone();
    with_status.status.phase = "Running".into();
    with_status.spec.containers.as_mut().unwrap()[0].image = "ignored".into();
    let updated = client
        .status()
        .update(&with_status, &Default::default())
        .await
        .unwrap();
    assert_eq!(updated.status.phase, "Running");
    // The status subresource leaves the spec alone.
    assert_eq!(
        updated.spec.containers.as_ref().unwrap()[0].image,
        "busybox"
    );
    let patched = client
        .status()
        .patch(
            &updated,
            &Patch::Merge(serde_json::json!({"status": {"message": "hi"}})),
            &PatchOptions::default(),
        )
        .await
        .unwrap();
    assert_eq!(patched.status.message, "hi");

    let mut bad = config_map("default", "Not_A_Valid_Name", &[]);
    bad.metadata.name = "Not_A_Valid_Name".into();
    let err = client
        .create(&bad, &CreateOptions::default())
        .await
        .unwrap_err();
    assert!(err.is_invalid(), "{err}");

    let err = client
        .create(&config_map("", "no-ns", &[]), &CreateOptions::default())
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            controller_runtime::client::Error::NamespaceRequired { .. }
        ),
        "{err}"
    );
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watching_from_a_compacted_version_is_gone() {
    let env = Environment::start().await.unwrap();
    let client = Client::new(env.config(), env.scheme()).unwrap();
    let first = client
        .create(
            &config_map("default", "old", &[]),
            &CreateOptions::default(),
        )
        .await
        .unwrap();
    let mut last = first.clone();
    for i in 0..3 {
        last.data = [("k".to_string(), i.to_string())].into();
        last = client.update(&last, &Default::default()).await.unwrap();
    }
    let now: i64 = last.metadata.resource_version.parse().unwrap();
    env.storage()
        .expect("in-process")
        .compact(now)
        .await
        .unwrap();

    // The server's watch cache started with the first update and still holds every
    // event after the create (Go's cache also answers from its window, compacted or
    // not): only a revision from before the window is gone.
    let created: i64 = first.metadata.resource_version.parse().unwrap();
    let result = client
        .watch::<ConfigMap>(&ListOptions {
            namespace: Some("default".into()),
            resource_version: Some((created - 1).to_string()),
            ..Default::default()
        })
        .await;
    let err = match result {
        Err(e) => e,
        Ok(mut stream) => tokio::time::timeout(Duration::from_secs(10), stream.next())
            .await
            .unwrap()
            .unwrap()
            .unwrap_err(),
    };
    assert!(err.is_gone_or_expired(), "{err}");
    env.stop().await;
}
