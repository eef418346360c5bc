//! What only the etcd backend has: a server that can go away and come back, and other
//! clients of the same keys (etcdctl, standing in for kube-apiserver).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

use std::process::Command;
use std::time::{Duration, Instant};

use apiserver::storage::{EtcdStorage, Storage, StorageError, WatchEvent};
use bytes::Bytes;
use futures_util::StreamExt;
use support::Etcd;

fn etcdctl(etcd: &Etcd, args: &[&str]) -> Vec<u8> {
    let output = Command::new("etcdctl")
        .env("ETCDCTL_API", "3")
        .arg(format!("--endpoints={}", etcd.endpoint))
        .args(args)
        .output()
        .expect("etcdctl (Debian's etcd-client package) runs");
    assert!(
        output.status.success(),
        "etcdctl {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn operations_are_unavailable_while_etcd_is_down_and_work_again_after() {
    let Some(mut etcd) = Etcd::start().await else {
        return;
    };
    let store = EtcdStorage::connect_with_timeout(&[&etcd.endpoint], Duration::from_secs(3))
        .await
        .unwrap();
    let key = "/registry/configmaps/default/survivor";
    let created = store.create(key, Bytes::from_static(b"1")).await.unwrap();

    etcd.stop();
    match store.get(key).await {
        Err(StorageError::Unavailable { backend, message }) => {
            assert!(backend.contains(&etcd.endpoint), "{backend}: {message}");
        }
        other => panic!("expected Unavailable, got {other:?}"),
    }
    match store
        .update(key, Bytes::from_static(b"2"), created.mod_revision)
        .await
    {
        Err(StorageError::Unavailable { .. }) => {}
        other => panic!("expected Unavailable, got {other:?}"),
    }

    etcd.run().await;
    // The same client reconnects by itself.
    let deadline = Instant::now() + Duration::from_secs(20);
    let current = loop {
        match store.get(key).await {
            Ok(found) => break found.unwrap(),
            Err(StorageError::Unavailable { .. }) if Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(error) => panic!("store did not recover: {error}"),
        }
    };
    assert_eq!(current, created);
    let updated = store
        .update(key, Bytes::from_static(b"2"), created.mod_revision)
        .await
        .unwrap();
    assert_eq!(updated.create_revision, created.create_revision);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watch_ends_with_unavailable_when_etcd_goes_away_and_resumes_after() {
    let Some(mut etcd) = Etcd::start().await else {
        return;
    };
    let store = EtcdStorage::connect_with_timeout(&[&etcd.endpoint], Duration::from_secs(3))
        .await
        .unwrap();
    let prefix = "/registry/pods/";
    let first = store
        .create("/registry/pods/default/a", Bytes::from_static(b"a"))
        .await
        .unwrap();
    let mut watch = store.watch(prefix, first.mod_revision).await.unwrap();
    etcd.stop();
    let ended = tokio::time::timeout(Duration::from_secs(30), async {
        loop {
            match watch.next().await {
                Some(Ok(WatchEvent::Progress { .. })) => continue,
                other => return other,
            }
        }
    })
    .await
    .expect("the watch did not end within 30s of etcd stopping");
    match ended {
        Some(Err(StorageError::Unavailable { backend, .. })) => {
            assert!(backend.contains(&etcd.endpoint))
        }
        other => panic!("expected Unavailable, got {other:?}"),
    }
    assert!(watch.next().await.is_none());

    etcd.run().await;
    let deadline = Instant::now() + Duration::from_secs(20);
    let second = loop {
        match store
            .create("/registry/pods/default/b", Bytes::from_static(b"b"))
            .await
        {
            Ok(kv) => break kv,
            Err(StorageError::Unavailable { .. }) if Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(error) => panic!("store did not recover: {error}"),
        }
    };
    // Re-watching from the last revision seen misses nothing.
    let mut watch = store.watch(prefix, first.mod_revision).await.unwrap();
    let event = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match watch.next().await {
                Some(Ok(WatchEvent::Progress { .. })) => continue,
                other => return other,
            }
        }
    })
    .await
    .unwrap();
    match event {
        Some(Ok(WatchEvent::Put { kv, prev: None })) => assert_eq!(kv, second),
        other => panic!("{other:?}"),
    }
}

/// etcd is not asked for the previous values in a watch without them (what spares it
/// reading each replaced or deleted value again), while `watch` still has them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watch_without_prev_gets_none_from_etcd() {
    let Some(etcd) = Etcd::start().await else {
        return;
    };
    let store = EtcdStorage::connect_with_timeout(&[&etcd.endpoint], Duration::from_secs(3))
        .await
        .unwrap();
    let key = "/registry/leases/default/l";
    let created = store.create(key, Bytes::from_static(b"1")).await.unwrap();
    let start = created.mod_revision;
    let mut lean = store
        .watch_without_prev("/registry/leases/", start)
        .await
        .unwrap();
    let mut full = store.watch("/registry/leases/", start).await.unwrap();
    store
        .update(key, Bytes::from_static(b"2"), created.mod_revision)
        .await
        .unwrap();
    store.delete(key, None).await.unwrap();
    let next = async |watch: &mut apiserver::storage::WatchStream| loop {
        let item = tokio::time::timeout(Duration::from_secs(10), watch.next())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        if !matches!(item, WatchEvent::Progress { .. }) {
            return item;
        }
    };
    assert!(matches!(
        next(&mut lean).await,
        WatchEvent::Put { prev: None, .. }
    ));
    assert!(matches!(
        next(&mut lean).await,
        WatchEvent::Delete { prev: None, ref key, .. } if key == "/registry/leases/default/l"
    ));
    assert!(matches!(
        next(&mut full).await,
        WatchEvent::Put { prev: Some(_), .. }
    ));
    assert!(matches!(
        next(&mut full).await,
        WatchEvent::Delete { prev: Some(_), .. }
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keys_and_values_are_stored_as_given_for_other_etcd_clients() {
    let Some(etcd) = Etcd::start().await else {
        return;
    };
    let store = EtcdStorage::connect(&[&etcd.endpoint]).await.unwrap();
    // kube-apiserver's layout and envelope: the bytes go through untouched.
    let key = "/registry/deployments/default/web";
    let value = Bytes::from_static(b"k8s\0\n\x0e\n\x07apps/v1\x12\nDeployment\x12\x00");
    store.create(key, value.clone()).await.unwrap();
    let mut printed = etcdctl(&etcd, &["get", key, "--print-value-only"]);
    assert_eq!(printed.pop(), Some(b'\n'));
    assert_eq!(printed, value);
    let keys = etcdctl(&etcd, &["get", "/registry/", "--prefix", "--keys-only"]);
    assert_eq!(String::from_utf8(keys).unwrap().trim(), key);

    // And what another client writes is read back with etcd's revisions.
    etcdctl(
        &etcd,
        &[
            "put",
            "/registry/configmaps/kube-system/cm",
            "written by etcdctl",
        ],
    );
    let read = store
        .get("/registry/configmaps/kube-system/cm")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(&read.value[..], b"written by etcdctl");
    assert_eq!(read.mod_revision, store.current_revision().await.unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_value_over_etcds_request_limit_is_an_invalid_request() {
    let Some(etcd) = Etcd::start().await else {
        return;
    };
    let store = EtcdStorage::connect(&[&etcd.endpoint]).await.unwrap();
    // Over etcd's default --max-request-bytes (1.5 MiB), and over its gRPC server's
    // message limit (2 MiB): both refusals are the request's fault, not the server's.
    for size in [1536 * 1024 + 1024, 2 * 1024 * 1024 + 1] {
        let value = Bytes::from(vec![b'x'; size]);
        match store
            .create("/registry/configmaps/default/big", value)
            .await
        {
            Err(StorageError::InvalidRequest { message }) => {
                assert!(message.contains("large"), "{size}: {message}")
            }
            other => panic!("{size}: {other:?}"),
        }
    }
    assert_eq!(store.current_revision().await.unwrap(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lists_and_watch_replays_larger_than_grpcs_default_limit_arrive() {
    let Some(etcd) = Etcd::start().await else {
        return;
    };
    let store = EtcdStorage::connect(&[&etcd.endpoint]).await.unwrap();
    let start = store.current_revision().await.unwrap();
    // 5 MiB in all, over the 4 MiB a gRPC client accepts by default.
    for i in 0..5 {
        let value = Bytes::from(vec![b'0' + i; 1024 * 1024]);
        store
            .create(&format!("/registry/secrets/big/s{i}"), value)
            .await
            .unwrap();
    }
    let listed = store
        .list("/registry/secrets/", &Default::default())
        .await
        .unwrap();
    assert_eq!(listed.kvs.len(), 5);
    assert!(listed.kvs.iter().all(|kv| kv.value.len() == 1024 * 1024));
    let mut watch = store.watch("/registry/secrets/", start).await.unwrap();
    for i in 0..5u8 {
        let event = tokio::time::timeout(Duration::from_secs(10), watch.next())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        match event {
            WatchEvent::Put { kv, .. } => assert_eq!(kv.value[0], b'0' + i),
            other => panic!("{other:?}"),
        }
    }
}

#[tokio::test]
async fn bad_endpoints_are_rejected_with_their_name() {
    let none: [&str; 0] = [];
    assert!(matches!(
        EtcdStorage::connect(&none).await,
        Err(StorageError::InvalidRequest { .. })
    ));
    match EtcdStorage::connect(&["http://[not a host"]).await {
        Err(StorageError::InvalidRequest { message }) => {
            assert!(message.contains("not a host"), "{message}")
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn nothing_listening_is_unavailable_naming_the_endpoint() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let endpoint = format!("http://127.0.0.1:{port}");
    let store = EtcdStorage::connect_with_timeout(&[&endpoint], Duration::from_secs(3))
        .await
        .unwrap();
    match store.create("/registry/pods/x/y", Bytes::new()).await {
        Err(error @ StorageError::Unavailable { .. }) => {
            assert!(error.to_string().contains(&endpoint), "{error}")
        }
        other => panic!("{other:?}"),
    }
}

/// etcd's count of its open watchers (`etcd_debugging_mvcc_watcher_total` on /metrics).
fn etcd_watchers(etcd: &Etcd) -> u64 {
    use std::io::{Read, Write};
    let address = etcd.endpoint.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    write!(
        stream,
        "GET /metrics HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut text = String::new();
    stream.read_to_string(&mut text).unwrap();
    text.lines()
        .find_map(|line| line.strip_prefix("etcd_debugging_mvcc_watcher_total "))
        .and_then(|value| value.trim().parse::<f64>().ok())
        .map(|value| value as u64)
        .expect("etcd reports its watchers")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_watch_ends_on_etcd() {
    let Some(etcd) = Etcd::start().await else {
        return;
    };
    let store = EtcdStorage::connect_with_timeout(&[&etcd.endpoint], Duration::from_secs(3))
        .await
        .unwrap();
    let before = etcd_watchers(&etcd);
    let mut watches = Vec::new();
    for _ in 0..10 {
        watches.push(store.watch("/registry/pods/", 0).await.unwrap());
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    while etcd_watchers(&etcd) < before + 10 {
        assert!(Instant::now() < deadline, "etcd never saw the watches");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    drop(watches);
    while etcd_watchers(&etcd) > before {
        assert!(
            Instant::now() < deadline,
            "etcd still has {} watchers",
            etcd_watchers(&etcd)
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
