//! The server on connection workers (`Config::connection_workers`): connections handed
//! to different worker threads see one server (what one writes, the others read, list
//! and watch), the server stops with a watch open, and on etcd every worker's own
//! connection to etcd comes back after etcd does.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::client;

use std::sync::Arc;
use std::time::Duration;

use apiserver::server::{Config, GenericApiServer};
use apiserver::storage::{MemoryStorage, Storage};
use serde_json::json;

const WORKERS: usize = 3;
const CONFIGMAPS: &str = "/api/v1/namespaces/default/configmaps";

async fn start_on_workers(storage: Arc<dyn Storage>) -> GenericApiServer {
    Config::new(client::scheme(), storage)
        .connection_workers(WORKERS)
        .serve("127.0.0.1:0".parse().unwrap())
        .await
        .unwrap()
}

/// Every request is a connection of its own (the test client closes it), so the
/// requests go round all the workers.
async fn writes_reads_and_watches_agree(server: &GenericApiServer) {
    let addr = server.local_addr().to_string();
    let listed = client::request(&addr, "GET", CONFIGMAPS, &[], b"").await;
    assert_eq!(listed.status, 200);
    let from = listed.json()["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .to_owned();
    let watch = {
        let addr = addr.clone();
        tokio::spawn(async move {
            let path = format!("{CONFIGMAPS}?watch=true&resourceVersion={from}&timeoutSeconds=3");
            client::request(&addr, "GET", &path, &[], b"").await
        })
    };
    let names: Vec<String> = (0..4 * WORKERS).map(|i| format!("cm-{i}")).collect();
    let creates = names.iter().map(|name| {
        let addr = addr.clone();
        let body = serde_json::to_vec(&json!({
            "apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": name}, "data": {"n": "0"},
        }))
        .unwrap();
        async move {
            let headers = [("Content-Type", "application/json")];
            client::request(&addr, "POST", CONFIGMAPS, &headers, &body).await
        }
    });
    for created in futures_util::future::join_all(creates).await {
        assert_eq!(created.status, 201, "{}", created.json());
    }
    for name in &names {
        let body = serde_json::to_vec(&json!({"data": {"n": "1"}})).unwrap();
        let headers = [("Content-Type", "application/merge-patch+json")];
        let path = format!("{CONFIGMAPS}/{name}");
        let patched = client::request(&addr, "PATCH", &path, &headers, &body).await;
        assert_eq!(patched.status, 200, "{}", patched.json());
        let got = client::request(&addr, "GET", &path, &[], b"").await;
        assert_eq!(got.json()["data"]["n"], "1");
    }
    let list = client::request(&addr, "GET", CONFIGMAPS, &[], b"")
        .await
        .json();
    assert_eq!(list["items"].as_array().unwrap().len(), names.len());

    let events = watch.await.unwrap().events();
    let count = |kind: &str| events.iter().filter(|e| e["type"] == kind).count();
    assert_eq!(
        (count("ADDED"), count("MODIFIED")),
        (names.len(), names.len()),
        "{events:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_on_different_workers_see_one_server_which_stops_with_a_watch_open() {
    let server = start_on_workers(Arc::new(MemoryStorage::new())).await;
    writes_reads_and_watches_agree(&server).await;

    let addr = server.local_addr().to_string();
    let open_watch = tokio::spawn(async move {
        client::request(&addr, "GET", &format!("{CONFIGMAPS}?watch=true"), &[], b"").await
    });
    tokio::time::sleep(Duration::from_millis(200)).await;
    tokio::time::timeout(Duration::from_secs(10), server.shutdown())
        .await
        .expect("the server stops with a watch open");
    let ended = tokio::time::timeout(Duration::from_secs(10), open_watch)
        .await
        .expect("the watch ends with the server")
        .unwrap();
    assert_eq!(ended.status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_etcd_every_workers_connection_comes_back_with_etcd() {
    use apiserver::storage::EtcdStorage;

    let Some(mut etcd) = crate::support::Etcd::start().await else {
        return;
    };
    let storage = EtcdStorage::connect_with_timeout(&[&etcd.endpoint], Duration::from_secs(2))
        .await
        .unwrap();
    let server = start_on_workers(Arc::new(storage)).await;
    writes_reads_and_watches_agree(&server).await;

    let addr = server.local_addr().to_string();
    let path = format!("{CONFIGMAPS}/cm-0");
    etcd.stop();
    for _ in 0..WORKERS {
        let r = client::request(&addr, "GET", &path, &[], b"").await;
        assert!(r.status >= 500, "{}", r.status);
        assert_eq!(r.json()["kind"], "Status");
    }
    etcd.run().await;
    // Each worker reconnects on its own first call after etcd is back: within a few
    // seconds, a round of requests (one per worker) is served by all of them.
    let mut served = 0;
    for _ in 0..50 {
        let mut round = 0;
        for _ in 0..WORKERS {
            if client::request(&addr, "GET", &path, &[], b"").await.status == 200 {
                round += 1;
            }
        }
        served = round;
        if served == WORKERS {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(served, WORKERS);
    server.shutdown().await;
}
