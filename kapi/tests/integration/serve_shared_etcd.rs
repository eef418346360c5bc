//! One etcd, two servers (issue 41): kube-apiserver v1.36.3 and `kapi serve` on the same
//! etcd (the oracle's etcd 3.6.8, whose watch progress requests kube-apiserver 1.36
//! needs), both under the default prefix `/registry`. What one writes the other reads,
//! lists and watches, both ways, for built-in resources (protobuf values behind `k8s\0`)
//! and for a custom resource (JSON values) whose CRD one of them created; the same
//! object read through either is the same, in JSON and in protobuf, at the same
//! resourceVersion. And two `kapi serve` processes on one etcd behave as one server:
//! writes through either are seen in order by the other's gets, lists and watches, and
//! a stale resourceVersion is a conflict on both.
//!
//! Without the oracle's binaries (`oracle/build.sh`) or etcdctl the tests pass with a
//! note; under CI they fail.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::time::Duration;

use history::client::{Client, Method, Response, Stream};
use history::cluster::etcd::Etcd;
use history::cluster::free_port;
use history::cluster::pki::Pki;
use history::cluster::server::{Implementation, Server, Storage};
use serde_json::{Value, json};

use crate::common::{TempDir, kapi};
use crate::oracle_binaries::built;

const PROTOBUF: &str = "application/vnd.kubernetes.protobuf";

/// One server as the tests talk to it.
struct Peer {
    name: &'static str,
    client: Client,
}

impl Peer {
    async fn call(
        &self,
        method: Method,
        path: &str,
        accept: &str,
        body: Option<(&str, &Value)>,
    ) -> Response {
        let mut headers = vec![("accept".to_owned(), accept.to_owned())];
        if let Some((content_type, _)) = body {
            headers.push(("content-type".to_owned(), content_type.to_owned()));
        }
        let body = body.map(|(_, b)| serde_json::to_vec(b).unwrap());
        self.client
            .exchange(method.clone(), path, &headers, body)
            .await
            .unwrap_or_else(|a| panic!("{}: {method} {path}: {a:?}", self.name))
    }

    /// Sends a JSON request; the status and the body as JSON (as a string when it is
    /// not: Go's mux answers an unknown path with text).
    async fn json(&self, method: Method, path: &str, body: Option<(&str, &Value)>) -> (u16, Value) {
        let response = self.call(method, path, "application/json", body).await;
        let value = serde_json::from_slice(&response.body)
            .unwrap_or_else(|_| Value::from(String::from_utf8_lossy(&response.body)));
        (response.status.as_u16(), value)
    }

    /// A request that must answer `status`; its body.
    async fn expect(
        &self,
        status: u16,
        method: Method,
        path: &str,
        body: Option<(&str, &Value)>,
    ) -> Value {
        let (got, value) = self.json(method.clone(), path, body).await;
        assert_eq!(got, status, "{}: {method} {path}: {value}", self.name);
        value
    }

    async fn get(&self, path: &str) -> Value {
        self.expect(200, Method::GET, path, None).await
    }

    async fn merge_patch(&self, path: &str, patch: &Value) -> Value {
        let body = Some(("application/merge-patch+json", patch));
        self.expect(200, Method::PATCH, path, body).await
    }

    async fn watch(&self, path: &str) -> Stream {
        self.client
            .watch(path)
            .await
            .unwrap_or_else(|a| panic!("{}: watch {path}: {a:?}", self.name))
    }
}

/// The next event of `stream` that is not a bookmark: its type and object.
async fn next_event(stream: &mut Stream, what: &str) -> (String, Value) {
    loop {
        let line = tokio::time::timeout(Duration::from_secs(20), stream.next_line())
            .await
            .unwrap_or_else(|_| panic!("{what}: no event within 20 s"))
            .unwrap_or_else(|e| panic!("{what}: {e}"))
            .unwrap_or_else(|| panic!("{what}: the watch ended"));
        let event: Value = serde_json::from_slice(&line).unwrap();
        let kind = event["type"].as_str().unwrap_or_default().to_owned();
        if kind != "BOOKMARK" {
            return (kind, event["object"].clone());
        }
    }
}

fn rv(object: &Value) -> &str {
    object["metadata"]["resourceVersion"]
        .as_str()
        .unwrap_or_default()
}

/// The binaries the tests need: kube-apiserver and the oracle's etcd, or `None` (after
/// a note; under CI, a failure) when one is missing.
fn binaries() -> Option<(PathBuf, PathBuf)> {
    let kube_apiserver = built("kube-apiserver", None)?;
    let etcd = built("etcd", None)?;
    if !history::cluster::etcd::installed().unwrap() {
        eprintln!("note: skipped: etcdctl is not installed (apt-get install etcd-client)");
        return None;
    }
    Some((kube_apiserver, etcd))
}

/// An etcd, and the credentials servers on it share, in `dir`.
fn start_etcd(dir: &Path, program: PathBuf) -> (Etcd, Pki) {
    let pki = Pki::create(dir, &[], 41).unwrap();
    let mut etcd = Etcd::new(dir, Vec::new()).unwrap().with_program(program);
    etcd.start().unwrap();
    (etcd, pki)
}

/// Starts server `name` of `implementation` on `etcd`.
async fn start_server(
    name: &'static str,
    implementation: &Implementation,
    etcd: &Etcd,
    pki: &Pki,
    dir: &Path,
) -> (Server, Peer) {
    let listen = std::net::SocketAddr::from(([127, 0, 0, 1], free_port().unwrap()));
    let storage = Storage::Etcd(etcd.endpoint());
    let mut server = Server::new(name, implementation, &storage, listen, pki, dir, None).unwrap();
    if let Err(e) = server.start().await {
        panic!("{name}: {e}");
    }
    let client = Client::new(&server.target, Duration::from_secs(30)).unwrap();
    (server, Peer { name, client })
}

/// The value etcd holds at `key`, read with etcdctl.
fn etcd_value(etcd: &Etcd, key: &str) -> Vec<u8> {
    let output = std::process::Command::new("etcdctl")
        .env("ETCDCTL_API", "3")
        .args([
            "--endpoints",
            &etcd.endpoint(),
            "get",
            "--print-value-only",
            key,
        ])
        .output()
        .unwrap();
    assert!(output.status.success(), "etcdctl get {key}: {output:?}");
    output.stdout
}

/// One kind of object the servers share: where its collection is, its etcd key's
/// prefix, one object of it, and whether its values are protobuf.
struct Kind {
    collection: &'static str,
    key: &'static str,
    object: Value,
    protobuf: bool,
}

fn kinds() -> Vec<Kind> {
    vec![
        Kind {
            collection: "/api/v1/namespaces/shared/configmaps",
            key: "/registry/configmaps/shared/",
            object: json!({"apiVersion": "v1", "kind": "ConfigMap", "data": {"a": "1"}}),
            protobuf: true,
        },
        Kind {
            collection: "/api/v1/namespaces/shared/secrets",
            key: "/registry/secrets/shared/",
            object: json!({"apiVersion": "v1", "kind": "Secret", "type": "Opaque",
                "data": {"password": "c2VjcmV0"}, "stringData": {"user": "admin"}}),
            protobuf: true,
        },
        Kind {
            collection: "/api/v1/namespaces/shared/pods",
            key: "/registry/pods/shared/",
            object: json!({"apiVersion": "v1", "kind": "Pod", "spec": {
                "automountServiceAccountToken": false,
                "containers": [{"name": "c", "image": "nginx:1.27",
                    "resources": {"requests": {"cpu": "100m"}}}]}}),
            protobuf: true,
        },
        Kind {
            collection: "/apis/apps/v1/namespaces/shared/deployments",
            key: "/registry/deployments/shared/",
            object: json!({"apiVersion": "apps/v1", "kind": "Deployment", "spec": {
                "replicas": 2, "selector": {"matchLabels": {"app": "web"}},
                "template": {"metadata": {"labels": {"app": "web"}},
                    "spec": {"containers": [{"name": "c", "image": "nginx:1.27"}]}}}}),
            protobuf: true,
        },
        Kind {
            collection: "/api/v1/namespaces/shared/services",
            key: "/registry/services/specs/shared/",
            object: json!({"apiVersion": "v1", "kind": "Service", "spec": {
                "selector": {"app": "web"}, "ports": [{"port": 80, "targetPort": 8080}]}}),
            protobuf: true,
        },
        Kind {
            collection: "/apis/rbac.authorization.k8s.io/v1/clusterroles",
            key: "/registry/clusterroles/",
            object: json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
                "rules": [{"apiGroups": [""], "resources": ["pods"], "verbs": ["get"]}]}),
            protobuf: true,
        },
        Kind {
            collection: "/apis/example.com/v1/namespaces/shared/widgets",
            key: "/registry/example.com/widgets/shared/",
            object: json!({"apiVersion": "example.com/v1", "kind": "Widget",
                "spec": {"size": 3}}),
            protobuf: false,
        },
    ]
}

fn widget_crd() -> Value {
    json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced",
            "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
            "versions": [{"name": "v1", "served": true, "storage": true,
                "subresources": {"status": {}},
                "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                    "spec": {"type": "object", "properties": {
                        "size": {"type": "integer", "default": 1},
                        "color": {"type": "string", "default": "blue"}}},
                    "status": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}}}]}})
}

/// Waits until `peer` serves `collection` (a custom resource's, once its CRD is
/// established there).
async fn wait_served(peer: &Peer, collection: &str) {
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        let (status, body) = peer.json(Method::GET, collection, None).await;
        if status == 200 {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{}: {collection} not served within 30 s: {status} {body}",
            peer.name
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// An object of `kind` written through `writer` (created, patched, then deleted, with a
/// patch through `reader` between) is what `reader` gets, lists and watches, at the
/// same resourceVersions, and the same in JSON and protobuf through both.
async fn shared(kind: &Kind, name: &str, writer: &Peer, reader: &Peer, etcd: &Etcd) {
    let what = format!(
        "{} written by {}, read by {}",
        kind.collection, writer.name, reader.name
    );
    let item = format!("{}/{name}", kind.collection);
    let list = reader.get(kind.collection).await;
    let mut watch = reader
        .watch(&format!(
            "{}?watch=1&resourceVersion={}",
            kind.collection,
            rv(&list)
        ))
        .await;

    let mut object = kind.object.clone();
    object["metadata"] = json!({"name": name});
    let created = writer
        .expect(
            201,
            Method::POST,
            kind.collection,
            Some(("application/json", &object)),
        )
        .await;
    // The same stored object, read through both, is the same in JSON and in protobuf.
    let (by_writer, by_reader) = (writer.get(&item).await, reader.get(&item).await);
    assert_eq!(by_reader, by_writer, "{what}: GET");
    assert_eq!(rv(&by_reader), rv(&created), "{what}: GET");
    if kind.protobuf {
        let a = writer.call(Method::GET, &item, PROTOBUF, None).await;
        let b = reader.call(Method::GET, &item, PROTOBUF, None).await;
        assert_eq!((a.status.as_u16(), b.status.as_u16()), (200, 200), "{what}");
        assert_eq!(b.body, a.body, "{what}: GET in protobuf");
    }
    let list = reader.get(kind.collection).await;
    let listed: Vec<&Value> = list["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["metadata"]["name"] == name)
        .collect();
    assert_eq!(listed.len(), 1, "{what}: list {list}");
    assert_eq!(rv(listed[0]), rv(&created), "{what}: list");

    // etcd holds it at kube-apiserver's key, in kube-apiserver's encoding.
    let value = etcd_value(etcd, &format!("{}{name}", kind.key));
    if kind.protobuf {
        assert!(
            value.starts_with(b"k8s\0"),
            "{what}: etcd value {:?}",
            String::from_utf8_lossy(&value)
        );
    } else {
        let stored: Value = serde_json::from_slice(value.trim_ascii_end())
            .unwrap_or_else(|e| panic!("{what}: etcd value is not JSON: {e}"));
        assert_eq!(stored["metadata"]["name"], name, "{what}: {stored}");
    }

    // Writes both ways, each on top of the other's.
    let labels = json!({"metadata": {"labels": {"by": writer.name}}});
    let patched = writer.merge_patch(&item, &labels).await;
    let seen = reader.get(&item).await;
    assert_eq!(
        rv(&seen),
        rv(&patched),
        "{what}: GET after the writer's patch"
    );
    let more = json!({"metadata": {"labels": {"then": reader.name}}});
    let patched_back = reader.merge_patch(&item, &more).await;
    assert_eq!(
        patched_back["metadata"]["labels"],
        json!({"by": writer.name, "then": reader.name}),
        "{what}: the reader's patch on top of the writer's"
    );
    assert_eq!(
        writer.get(&item).await,
        reader.get(&item).await,
        "{what}: GET after both patches"
    );
    // A stale resourceVersion is a conflict through the reader too.
    let mut stale = seen.clone();
    stale["metadata"]["labels"] = json!({"stale": "yes"});
    let (status, body) = reader
        .json(Method::PUT, &item, Some(("application/json", &stale)))
        .await;
    assert_eq!(
        status,
        409,
        "{what}: PUT at {} after {}: {body}",
        rv(&seen),
        rv(&patched_back)
    );

    let deleted = writer.expect(200, Method::DELETE, &item, None).await;
    let (status, body) = reader.json(Method::GET, &item, None).await;
    assert_eq!(status, 404, "{what}: GET after the delete: {body}");

    let expected = [
        ("ADDED", rv(&created).to_owned()),
        ("MODIFIED", rv(&patched).to_owned()),
        ("MODIFIED", rv(&patched_back).to_owned()),
    ];
    for (want, at) in expected {
        let (got, object) = next_event(&mut watch, &what).await;
        assert_eq!(
            (got.as_str(), rv(&object)),
            (want, at.as_str()),
            "{what}: watch {object}"
        );
        assert_eq!(object["metadata"]["name"], name, "{what}");
    }
    // A graceful delete (a Pod's: zero seconds, as it is on no node) first writes the
    // deletion timestamp.
    let (mut got, mut object) = next_event(&mut watch, &what).await;
    while got == "MODIFIED" && object["metadata"]["deletionTimestamp"].is_string() {
        (got, object) = next_event(&mut watch, &what).await;
    }
    assert_eq!(got, "DELETED", "{what}: {object}");
    assert_eq!(object["metadata"]["name"], name, "{what}");
    let deleted_rv = object["metadata"]["resourceVersion"]
        .as_str()
        .unwrap_or_default();
    assert!(
        deleted_rv.parse::<u64>().unwrap() > rv(&patched_back).parse::<u64>().unwrap(),
        "{what}: DELETED at {deleted_rv}, delete answered {deleted}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kube_apiserver_and_kapi_serve_share_one_etcd() {
    let Some((kube_apiserver, etcd_program)) = binaries() else {
        return;
    };
    let dir = TempDir::new("shared-etcd", "kas");
    let (etcd, pki) = start_etcd(&dir.0, etcd_program);
    // kube-apiserver first: it bootstraps what a cluster has (namespaces, RBAC roles,
    // the kubernetes Service) before kapi serve starts on the same keys.
    let go_impl = Implementation::KubeApiserver(kube_apiserver);
    let (_go_server, go) = start_server("kube-apiserver", &go_impl, &etcd, &pki, &dir.0).await;
    let kapi_impl = Implementation::Kapi(kapi().unwrap().get_program().into());
    let (_kapi_server, ours) = start_server("kapi", &kapi_impl, &etcd, &pki, &dir.0).await;

    // kube-apiserver's bootstrap objects, read through kapi serve.
    let default = go.get("/api/v1/namespaces/default").await;
    assert_eq!(ours.get("/api/v1/namespaces/default").await, default);
    let kubernetes = go
        .get("/api/v1/namespaces/default/services/kubernetes")
        .await;
    assert_eq!(
        ours.get("/api/v1/namespaces/default/services/kubernetes")
            .await,
        kubernetes
    );

    let namespace =
        json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "shared"}});
    ours.expect(
        201,
        Method::POST,
        "/api/v1/namespaces",
        Some(("application/json", &namespace)),
    )
    .await;
    // kube-apiserver's ServiceAccount admission wants the namespace's default account
    // (its controller, which would create it, does not run here).
    let account =
        json!({"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "default"}});
    let path = "/api/v1/namespaces/shared/serviceaccounts";
    go.expect(
        201,
        Method::POST,
        path,
        Some(("application/json", &account)),
    )
    .await;

    // The custom resource's CRD created through kube-apiserver, served by both.
    let crd = widget_crd();
    let crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
    go.expect(201, Method::POST, crds, Some(("application/json", &crd)))
        .await;
    let widgets = "/apis/example.com/v1/namespaces/shared/widgets";
    wait_served(&go, widgets).await;
    wait_served(&ours, widgets).await;

    for kind in kinds() {
        shared(&kind, "from-go", &go, &ours, &etcd).await;
        shared(&kind, "from-kapi", &ours, &go, &etcd).await;
    }

    // Service IPs come from one range: each server sees the other's allocations.
    let services = "/api/v1/namespaces/shared/services";
    let mut ips = vec![kubernetes["spec"]["clusterIP"].clone()];
    for (peer, name) in [(&ours, "ip-kapi"), (&go, "ip-go"), (&ours, "ip-kapi-2")] {
        let service = json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": name},
            "spec": {"ports": [{"port": 80}]}});
        let created = peer
            .expect(
                201,
                Method::POST,
                services,
                Some(("application/json", &service)),
            )
            .await;
        let ip = created["spec"]["clusterIP"].clone();
        assert!(
            !ips.contains(&ip),
            "{}: {name} got {ip}, already given: {ips:?}",
            peer.name
        );
        ips.push(ip);
    }

    // A consistent watch-list (no resourceVersion) ends its initial events with a
    // bookmark at etcd's current revision, which the other server's write of another
    // resource moved, as kube-apiserver's does.
    let role = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
        "metadata": {"name": "last-write"}, "rules": []});
    let roles = "/apis/rbac.authorization.k8s.io/v1/clusterroles";
    let last = go
        .expect(201, Method::POST, roles, Some(("application/json", &role)))
        .await;
    let last: u64 = rv(&last).parse().unwrap();
    let path = "/api/v1/namespaces/shared/configmaps?watch=1&sendInitialEvents=true\
        &resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=1";
    for peer in [&ours, &go] {
        let response = peer.call(Method::GET, path, "application/json", None).await;
        let bookmark = serde_json::Deserializer::from_slice(&response.body)
            .into_iter::<Value>()
            .filter_map(Result::ok)
            .find(|e| e["type"] == "BOOKMARK")
            .unwrap_or_else(|| panic!("{}: no bookmark: {response:?}", peer.name));
        let at: u64 = rv(&bookmark["object"]).parse().unwrap();
        assert!(
            at >= last,
            "{}: the initial events end at {at}, before {last}",
            peer.name
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_kapi_serve_on_one_etcd_are_one_server() {
    let Some((_, etcd_program)) = binaries() else {
        return;
    };
    let dir = TempDir::new("shared-etcd", "kapi");
    let (etcd, pki) = start_etcd(&dir.0, etcd_program);
    let implementation = Implementation::Kapi(kapi().unwrap().get_program().into());
    let (_a_server, a) = start_server("a", &implementation, &etcd, &pki, &dir.0).await;
    let (_b_server, b) = start_server("b", &implementation, &etcd, &pki, &dir.0).await;

    // A namespace created through a is one b creates in at once.
    let namespace =
        json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "shared"}});
    a.expect(
        201,
        Method::POST,
        "/api/v1/namespaces",
        Some(("application/json", &namespace)),
    )
    .await;
    let collection = "/api/v1/namespaces/shared/configmaps";
    let start = a.get(collection).await;
    let from = format!("{collection}?watch=1&resourceVersion={}", rv(&start));
    let (mut watch_a, mut watch_b) = (a.watch(&from).await, b.watch(&from).await);

    let item = format!("{collection}/cm");
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm"}, "data": {"x": "1"}});
    let created = b
        .expect(
            201,
            Method::POST,
            collection,
            Some(("application/json", &cm)),
        )
        .await;
    assert_eq!(
        rv(&a.get(&item).await),
        rv(&created),
        "a's GET after b's create"
    );
    // Patches through each, right after the other's write, build on it: none is lost.
    let one = a.merge_patch(&item, &json!({"data": {"y": "2"}})).await;
    let two = b.merge_patch(&item, &json!({"data": {"z": "3"}})).await;
    assert_eq!(
        two["data"],
        json!({"x": "1", "y": "2", "z": "3"}),
        "b's patch after a's"
    );
    let list = a.get(collection).await;
    assert_eq!(
        list["items"][0]["data"], two["data"],
        "a's list after b's patch: {list}"
    );
    assert_eq!(rv(&list["items"][0]), rv(&two), "a's list after b's patch");

    // A stale resourceVersion is a conflict on both; the current one is not.
    for (peer, stale) in [(&a, &created), (&b, &one), (&a, &one)] {
        let mut update = stale.clone();
        update["data"] = json!({"stale": "yes"});
        let (status, body) = peer
            .json(Method::PUT, &item, Some(("application/json", &update)))
            .await;
        assert_eq!(
            status,
            409,
            "{}: PUT at {} after {}: {body}",
            peer.name,
            rv(stale),
            rv(&two)
        );
        assert_eq!(body["reason"], "Conflict", "{body}");
    }
    let mut update = two.clone();
    update["data"] = json!({"w": "4"});
    let three = b
        .expect(200, Method::PUT, &item, Some(("application/json", &update)))
        .await;
    let mut update = three.clone();
    update["data"] = json!({"v": "5"});
    let four = a
        .expect(200, Method::PUT, &item, Some(("application/json", &update)))
        .await;
    assert_eq!(b.get(&item).await, four, "b's GET after a's update");
    b.expect(200, Method::DELETE, &item, None).await;
    let (status, body) = a.json(Method::GET, &item, None).await;
    assert_eq!(status, 404, "a's GET after b's delete: {body}");
    let list = a.get(collection).await;
    assert_eq!(list["items"], json!([]), "a's list after b's delete");

    // Both watches saw every write, in order, at the same resourceVersions.
    let expected = [
        ("ADDED", rv(&created).to_owned()),
        ("MODIFIED", rv(&one).to_owned()),
        ("MODIFIED", rv(&two).to_owned()),
        ("MODIFIED", rv(&three).to_owned()),
        ("MODIFIED", rv(&four).to_owned()),
    ];
    for (name, watch) in [("a", &mut watch_a), ("b", &mut watch_b)] {
        for (want, at) in &expected {
            let (got, object) = next_event(watch, name).await;
            assert_eq!(
                (got.as_str(), rv(&object)),
                (*want, at.as_str()),
                "{name}'s watch: {object}"
            );
        }
        let (got, object) = next_event(watch, name).await;
        assert_eq!(got, "DELETED", "{name}'s watch: {object}");
    }
}
