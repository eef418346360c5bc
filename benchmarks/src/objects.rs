//! The objects the cache and watch-decode benchmarks serve: ConfigMaps as a cluster holds
//! them and Pods made from Go's fixture, created in the in-process API server (the one
//! `kapi serve` runs).

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Instant;

use apimachinery::runtime::{Scheme, Unstructured};
use apimachinery::serializer::Encoder;
use apiserver::server::GenericApiServer;
use apiserver::storage::Storage;
use controller_runtime::client::{Client, ClientOptions, ListOptions, WireFormat};
use controller_runtime::config::Config;

/// The benchmarks' error: anything, with its message.
pub type Error = Box<dyn std::error::Error + Send + Sync>;

/// A ConfigMap as a cluster holds one: two labels, two data keys, and the managedFields
/// entry kube-apiserver records for the client that created it (the in-process server
/// keeps what it is given, so it is written here).
pub fn config_map(i: usize) -> Result<Unstructured, Error> {
    Ok(Unstructured::from_value(serde_json::json!({
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {
            "name": format!("cm-{i:05}"),
            "namespace": "default",
            "labels": {"app": format!("app-{}", i % 10), "tier": "backend"},
            "managedFields": [{
                "manager": "kubectl-client-side-apply",
                "operation": "Update",
                "apiVersion": "v1",
                "time": "2026-01-01T00:00:00Z",
                "fieldsType": "FieldsV1",
                "fieldsV1": {"f:data": {".": {}, "f:config.yaml": {}, "f:mode": {}},
                    "f:metadata": {"f:labels": {".": {}, "f:app": {}, "f:tier": {}}}}
            }]
        },
        "data": {
            "config.yaml": format!("replicas: {}\nimage: registry.example.com/app:{i}\n", i % 5),
            "mode": "production"
        }
    }))?)
}

/// A Pod made from Go's fixture, encoded as the server stores it (protobuf): Go's fixture
/// sets every field with fuzzed values the server's validation refuses, so the Pods are
/// written into storage directly, as objects a cluster already holds.
pub fn pod_from_fixture(
    template: &serde_json::Value,
    scheme: &Scheme,
    i: usize,
) -> Result<(String, Vec<u8>), Error> {
    let mut pod = template.clone();
    let meta = pod["metadata"]
        .as_object_mut()
        .ok_or("fixture without metadata")?;
    for field in [
        "resourceVersion",
        "selfLink",
        "generateName",
        "deletionTimestamp",
        "deletionGracePeriodSeconds",
        "ownerReferences",
        "finalizers",
    ] {
        meta.remove(field);
    }
    let name = format!("pod-{i:05}");
    meta.insert("name".into(), name.clone().into());
    meta.insert("namespace".into(), "default".into());
    meta.insert(
        "uid".into(),
        format!("00000000-0000-4000-8000-{i:012}").into(),
    );
    meta.insert("creationTimestamp".into(), "2026-01-01T00:00:00Z".into());
    let pod: k8s_types::core::v1::Pod = serde_json::from_value(pod)?;
    let bytes =
        apimachinery::serializer::protobuf::ProtobufSerializer::new(scheme).encode_to_vec(&pod)?;
    Ok((format!("/registry/pods/default/{name}"), bytes))
}

/// The in-process API server holding `configmaps` ConfigMaps (created through the API)
/// and `pods` Pods (written into storage) in namespace `default`, and the resourceVersion
/// of a Namespace created before them, from which a watch replays every creation.
pub async fn populated_server(
    scheme: &Arc<Scheme>,
    configmaps: usize,
    pods: usize,
) -> Result<(GenericApiServer, String), Error> {
    let storage = Arc::new(apiserver::storage::MemoryStorage::with_history_limit(
        configmaps + pods + 1000,
    ));
    let server = apiserver::server::Config::new(Arc::clone(scheme), storage.clone())
        .serve(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .await?;
    let client = Client::new(&Config::new(server.url()), Arc::clone(scheme))?;
    // A first object, so that the watches start from a revision before the rest.
    let mut first = k8s_types::core::v1::Namespace::default();
    first.metadata.name = "bench".into();
    let first = client.create(&first, &Default::default()).await?;
    // The server's watch caches of both resources start now, before the objects are
    // made, as kube-apiserver's start with the server: they then hold every creation
    // (the window keeps a burst of fresh events whole, as Go's does), and a watch from
    // `first` is replayed from them, each event encoded once for every watcher, instead
    // of from a storage watch of its own that decodes and encodes every object again.
    client
        .list::<k8s_types::core::v1::ConfigMap>(&Default::default())
        .await?;
    client
        .list::<k8s_types::core::v1::Pod>(&Default::default())
        .await?;
    let started = Instant::now();
    for i in 0..configmaps {
        client.create(&config_map(i)?, &Default::default()).await?;
    }
    let fixture = std::fs::read(crate::testdata_dir()?.join("core.v1.Pod.json"))?;
    let template: serde_json::Value = serde_json::from_slice(&fixture)?;
    for i in 0..pods {
        let (key, bytes) = pod_from_fixture(&template, scheme, i)?;
        storage.create(&key, bytes.into()).await?;
    }
    eprintln!(
        "created {configmaps} ConfigMaps and {pods} Pods in {:.1?}",
        started.elapsed()
    );
    Ok((server, first.metadata.resource_version))
}

/// A client of `url` in `wire` and the options of a watch of namespace `default` from
/// revision `from`: what the watch-replay benchmarks open (`cache`, `watch_live`).
pub fn replay_watch(
    url: &str,
    scheme: &Arc<Scheme>,
    wire: WireFormat,
    from: &str,
) -> Result<(Client, ListOptions), Error> {
    let client = Client::with_options(
        &Config::new(url),
        Arc::clone(scheme),
        ClientOptions { wire_format: wire },
    )?;
    let opts = ListOptions {
        resource_version: Some(from.to_owned()),
        namespace: Some("default".into()),
        ..ListOptions::default()
    };
    Ok((client, opts))
}

/// The server half of the watch-replay benchmarks (`cache`, `watch_live`): the
/// in-process API server with `configmaps` ConfigMaps and `pods` Pods created, meant
/// for a child process of its own. Prints `URL REVISION` and serves until its standard
/// input closes.
pub async fn serve_until_stdin_closes(configmaps: usize, pods: usize) -> Result<(), Error> {
    let mut scheme = Scheme::new();
    k8s_types::register(&mut scheme)?;
    let scheme = Arc::new(scheme);
    let (server, from) = populated_server(&scheme, configmaps, pods).await?;
    println!("{} {from}", server.url());
    tokio::task::spawn_blocking(|| std::io::copy(&mut std::io::stdin(), &mut std::io::sink()))
        .await??;
    server.shutdown().await;
    Ok(())
}
