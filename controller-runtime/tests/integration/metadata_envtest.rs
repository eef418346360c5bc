//! Metadata-only reads against the in-process API server and the real kube-apiserver:
//! each answers the `Accept` headers the client sends for them with
//! `PartialObjectMetadata` (the metadata alone), and the client, its metadata watches and
//! the cache's metadata informers read those answers.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::Duration;

use controller_runtime::cache::{Cache, CacheOptions};
use controller_runtime::client::{
    ACCEPT_METADATA, ACCEPT_METADATA_JSON, ACCEPT_METADATA_LIST_JSON, Client, ClientOptions,
    ListOptions, ObjectKey, WireFormat,
};
use controller_runtime::envtest::Environment;
use futures_util::StreamExt;
use k8s_types::core::v1::ConfigMap;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_util::sync::CancellationToken;

use apimachinery::runtime::Resource;

fn config_map(name: &str) -> ConfigMap {
    let mut cm = ConfigMap::default();
    cm.metadata.name = name.into();
    cm.metadata.namespace = "default".into();
    cm.metadata.labels = [("app".to_string(), "web".to_string())].into();
    cm.data = [("payload".to_string(), "x".repeat(4096))].into();
    cm
}

/// One GET with this `Accept` header, straight over HTTP/1.1 (in TLS, with the token,
/// to the real kube-apiserver): the status, the `Content-Type` and the body the server
/// wrote.
async fn raw_get_bytes(env: &Environment, path: &str, accept: &str) -> (u16, String, Vec<u8>) {
    let config = env.config();
    let addr = config
        .host
        .trim_start_matches("http://")
        .trim_start_matches("https://")
        .to_owned();
    let authorization = match &config.auth {
        controller_runtime::config::Auth::BearerToken(token) => {
            format!("Authorization: Bearer {token}\r\n")
        }
        _ => String::new(),
    };
    let head = format!(
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nAccept: {accept}\r\n{authorization}Connection: close\r\n\r\n"
    );
    let tcp = tokio::net::TcpStream::connect(&addr).await.unwrap();
    let mut raw = Vec::new();
    match &config.tls.ca_data {
        None => {
            let mut stream = tcp;
            stream.write_all(head.as_bytes()).await.unwrap();
            stream.read_to_end(&mut raw).await.unwrap();
        }
        Some(ca) => {
            use rustls::pki_types::pem::PemObject;
            let mut roots = rustls::RootCertStore::empty();
            for cert in rustls::pki_types::CertificateDer::pem_slice_iter(ca) {
                roots.add(cert.unwrap()).unwrap();
            }
            let tls = rustls::ClientConfig::builder_with_provider(std::sync::Arc::new(
                rustls::crypto::ring::default_provider(),
            ))
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_root_certificates(roots)
            .with_no_client_auth();
            let name = rustls::pki_types::ServerName::try_from("127.0.0.1").unwrap();
            let mut stream = tokio_rustls::TlsConnector::from(std::sync::Arc::new(tls))
                .connect(name, tcp)
                .await
                .unwrap();
            stream.write_all(head.as_bytes()).await.unwrap();
            stream.read_to_end(&mut raw).await.unwrap();
        }
    }
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let head = String::from_utf8_lossy(&raw[..split]).to_string();
    assert!(
        !head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked"),
        "{head}"
    );
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    let content_type = head
        .lines()
        .find_map(|l| {
            l.split_once(':')
                .filter(|(k, _)| k.eq_ignore_ascii_case("content-type"))
        })
        .map(|(_, v)| v.trim().to_owned())
        .unwrap_or_default();
    (status, content_type, raw[split + 4..].to_vec())
}

/// [`raw_get_bytes`] of a JSON answer.
async fn raw_get(env: &Environment, path: &str, accept: &str) -> (u16, Value) {
    let (status, content_type, body) = raw_get_bytes(env, path, accept).await;
    assert_eq!(content_type, "application/json");
    (status, serde_json::from_slice(&body).unwrap())
}

against_both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    metadata_reads_receive_partial_object_metadata
);
async fn metadata_reads_receive_partial_object_metadata(env: Environment) {
    let client = Client::new(env.config(), env.scheme()).unwrap();
    client
        .create(&config_map("a"), &Default::default())
        .await
        .unwrap();

    // What the server answers to exactly the client's headers: the metadata alone, in
    // protobuf when the client takes it.
    let path = "/api/v1/namespaces/default/configmaps";
    let (status, content_type, body) =
        raw_get_bytes(&env, &format!("{path}/a"), ACCEPT_METADATA).await;
    assert_eq!(status, 200);
    assert_eq!(content_type, "application/vnd.kubernetes.protobuf");
    let envelope = apimachinery::proto::decode_envelope(&body).unwrap();
    assert_eq!(
        (envelope.api_version, envelope.kind),
        ("meta.k8s.io/v1", "PartialObjectMetadata")
    );
    let (status, one) = raw_get(&env, &format!("{path}/a"), ACCEPT_METADATA_JSON).await;
    assert_eq!(status, 200);
    assert_eq!(one["kind"], "PartialObjectMetadata");
    assert_eq!(one["apiVersion"], "meta.k8s.io/v1");
    assert!(one.get("data").is_none(), "{one}");
    let (status, list) = raw_get(&env, path, ACCEPT_METADATA_LIST_JSON).await;
    assert_eq!(status, 200);
    assert_eq!(list["kind"], "PartialObjectMetadataList");
    assert_eq!(list["items"][0]["kind"], "PartialObjectMetadata");
    assert!(list["items"][0].get("data").is_none(), "{list}");

    // The client reads them, in protobuf and (set to JSON) in JSON.
    let gvk = ConfigMap::gvk();
    let key = ObjectKey::new("default", "a");
    let json_client = Client::with_options(
        env.config(),
        env.scheme(),
        ClientOptions {
            wire_format: WireFormat::Json,
        },
    )
    .unwrap();
    let meta = client.get_metadata(&gvk, &key).await.unwrap();
    let identity = |m: &k8s_types::meta::v1::PartialObjectMetadata| {
        (
            m.metadata.name.clone(),
            m.metadata.uid.clone(),
            m.metadata.resource_version.clone(),
            m.metadata.labels.clone(),
        )
    };
    let from_json = json_client.get_metadata(&gvk, &key).await.unwrap();
    assert_eq!(identity(&from_json), identity(&meta));
    let listed = json_client
        .list_metadata(&gvk, &ListOptions::in_namespace("default"))
        .await
        .unwrap()
        .items
        .unwrap_or_default();
    assert_eq!(identity(&listed[0]), identity(&meta));
    assert_eq!(meta.metadata.name, "a");
    assert_eq!(
        meta.metadata.labels.get("app").map(String::as_str),
        Some("web")
    );
    assert_eq!(meta.type_meta.kind, "PartialObjectMetadata");
    let metas = client
        .list_metadata(&gvk, &ListOptions::in_namespace("default"))
        .await
        .unwrap();
    let items = metas.items.unwrap_or_default();
    assert_eq!(items.len(), 1);
    assert_eq!(items[0].metadata.uid, meta.metadata.uid);
    let mut watch = client
        .watch_metadata(&gvk, &ListOptions::in_namespace("default"))
        .await
        .unwrap();
    let first = tokio::time::timeout(Duration::from_secs(10), watch.next())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    let object = match first {
        controller_runtime::client::WatchEvent::Added(o) => o,
        other => panic!("first event {other:?}"),
    };
    assert_eq!(object.metadata.name, "a");

    // And so does a metadata informer.
    let cache = Cache::new(
        client.clone(),
        env.scheme(),
        CacheOptions {
            backoff: (Duration::from_millis(20), Duration::from_millis(200)),
            ..CacheOptions::default()
        },
    );
    let stop = CancellationToken::new();
    cache.start(stop.clone());
    let cached = cache.get_metadata(&gvk, &key).await.unwrap();
    assert_eq!(
        cached.metadata.resource_version,
        meta.metadata.resource_version
    );
    stop.cancel();
    env.stop().await;
}
