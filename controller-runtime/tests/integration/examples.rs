//! The examples, run as the built binaries against a real API server: the in-process
//! one (`envtest`) and `kapi serve`.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use apimachinery::runtime::{Scheme, Unstructured};
use apimachinery::schema::GroupVersionKind;
use controller_runtime::client::ListOptions;
use controller_runtime::client::{Client, ObjectKey};
use controller_runtime::config::Config;
use controller_runtime::envtest::Environment;
use k8s_types::apps::v1::ReplicaSet;
use k8s_types::core::v1::{ConfigMap, Container, Namespace, Pod};

/// `target/debug` (the test binary is in its `deps/`).
fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().parent().unwrap().to_path_buf()
}

/// A child process killed when dropped.
pub(crate) struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The binary `path` of the test build, built with `cargo build <args>` only when it is
/// missing: `cargo test` builds the examples unless a test target is named, and `cargo
/// test --workspace` builds kapi for kapi's own tests. Building again here would be a
/// no-op in features but not in Cargo's eyes: a `-p` build resolves the dependencies'
/// features differently from the workspace's test build, and recompiles k8s-types for it.
fn built(path: PathBuf, args: &[&str]) -> PathBuf {
    if !path.exists() {
        let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let status = Command::new(env!("CARGO"))
            .arg("build")
            .args(args)
            .current_dir(workspace)
            .status()
            .unwrap();
        assert!(status.success(), "cargo build {args:?} failed");
    }
    path
}

fn example(name: &str, kubeconfig: &Path) -> Running {
    example_with(name, kubeconfig, &[])
}

fn example_with(name: &str, kubeconfig: &Path, args: &[&str]) -> Running {
    let bin = built(
        target_dir().join("examples").join(name),
        &["-p", "controller-runtime", "--example", name],
    );
    // The examples read `KUBECONFIG`, as `Config::load` does.
    let mut child = Command::new(bin)
        .env("KUBECONFIG", kubeconfig)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.as_mut().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.contains("running"), "{first}");
    Running(child)
}

/// Stops an example with SIGTERM, as a kubelet does (the examples shut down through
/// `signals::setup_signal_handler`), and checks it exits cleanly.
fn stop(mut running: Running) {
    let status = Command::new("kill")
        .args(["-TERM", &running.0.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success(), "kill -TERM failed");
    for _ in 0..200 {
        if let Some(status) = running.0.try_wait().unwrap() {
            assert!(status.success(), "example exited with {status}");
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("example did not stop after SIGTERM");
}

async fn eventually<T>(what: &str, mut probe: impl AsyncFnMut() -> Option<T>) -> T {
    for _ in 0..600 {
        if let Some(v) = probe().await {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("timed out waiting for {what}");
}

async fn get_cm(client: &Client, ns: &str, name: &str) -> Option<ConfigMap> {
    match client.get::<ConfigMap>(&ObjectKey::new(ns, name)).await {
        Ok(cm) => Some(cm),
        Err(e) if e.is_not_found() => None,
        Err(e) => panic!("get {ns}/{name}: {e}"),
    }
}

async fn configmap_mirror_scenario(client: &Client) {
    let mut ns = Namespace::default();
    ns.metadata.name = "mirror-target".into();
    let _ = client.create(&ns, &Default::default()).await;

    let mut source = ConfigMap::default();
    source.metadata.namespace = "default".into();
    source.metadata.name = "settings".into();
    source
        .metadata
        .labels
        .insert("mirror.example.com/to".into(), "mirror-target".into());
    source.data.insert("mode".into(), "fast".into());
    client.create(&source, &Default::default()).await.unwrap();

    let copy = eventually("the copy", async || {
        get_cm(client, "mirror-target", "settings").await
    })
    .await;
    assert_eq!(copy.data["mode"], "fast");
    assert_eq!(copy.metadata.labels["mirror.example.com/from"], "default");
    let source = get_cm(client, "default", "settings").await.unwrap();
    assert_eq!(
        source.metadata.finalizers,
        vec!["mirror.example.com/cleanup".to_string()]
    );

    let mut changed = source.clone();
    changed.data.insert("mode".into(), "slow".into());
    client.update(&changed, &Default::default()).await.unwrap();
    eventually("the copy to follow", async || {
        get_cm(client, "mirror-target", "settings")
            .await
            .filter(|c| c.data["mode"] == "slow")
    })
    .await;

    // A copy deleted by hand comes back.
    client.delete(&copy, &Default::default()).await.unwrap();
    eventually("the copy restored", async || {
        get_cm(client, "mirror-target", "settings").await
    })
    .await;

    // Deleting the source: the copy goes first, then the finalizer, then the source.
    client.delete(&changed, &Default::default()).await.unwrap();
    eventually("the source gone", async || {
        match get_cm(client, "default", "settings").await {
            Some(s) => {
                assert!(s.metadata.deletion_timestamp.is_some());
                None
            }
            None => Some(()),
        }
    })
    .await;
    assert!(
        get_cm(client, "mirror-target", "settings").await.is_none(),
        "the copy must be gone before the source's finalizer is removed"
    );
}

against_both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    configmap_mirror_against_envtest
);
async fn configmap_mirror_against_envtest(env: Environment) {
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = dir.path().join("kubeconfig");
    std::fs::write(&kubeconfig, env.kubeconfig()).unwrap();
    let running = example("configmap-mirror", &kubeconfig);
    let client = Client::new(env.config(), env.scheme()).unwrap();
    configmap_mirror_scenario(&client).await;
    stop(running);
    env.stop().await;
}

/// `kapi serve` on a free port, with its kubeconfig (the kapi crate's tests start it the
/// same way). The binary is another package's, which Cargo builds for this one's tests
/// only in a workspace run; alone, this test builds it once.
pub(crate) fn kapi_serve(dir: &Path) -> (Running, PathBuf) {
    let kapi = built(target_dir().join("kapi"), &["-p", "kapi", "--bin", "kapi"]);
    let kubeconfig = dir.join("kubeconfig");
    let mut child = Command::new(kapi)
        .args(["serve", "--listen", "127.0.0.1:0", "--kubeconfig"])
        .arg(&kubeconfig)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.as_mut().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(
        first.contains(&format!(
            "serving the Kubernetes {} API at https://127.0.0.1:",
            k8s_types::RELEASE
        )),
        "{first}"
    );
    (Running(child), kubeconfig)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn configmap_mirror_against_kapi_serve() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, kubeconfig) = kapi_serve(dir.path());
    let running = example("configmap-mirror", &kubeconfig);
    let mut scheme = Scheme::new();
    k8s_types::register(&mut scheme).unwrap();
    let config = Config::from_kubeconfig(&kubeconfig).unwrap();
    let client = Client::new(&config, Arc::new(scheme)).unwrap();
    configmap_mirror_scenario(&client).await;
    stop(running);
}

async fn replicaset_lite_scenario(client: &Client) {
    let rs: ReplicaSet = serde_json::from_value(serde_json::json!({
        "apiVersion": "apps/v1", "kind": "ReplicaSet",
        "metadata": {"name": "web", "namespace": "default"},
        "spec": {
            "replicas": 3,
            "selector": {"matchLabels": {"app": "web"}},
            "template": {
                "metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [{"name": "c", "image": "nginx"}]}
            }
        }
    }))
    .unwrap();
    let created = client.create(&rs, &Default::default()).await.unwrap();

    let owned = |pods: Vec<Pod>, uid: &str| -> Vec<Pod> {
        pods.into_iter()
            .filter(|p| p.metadata.deletion_timestamp.is_none())
            .filter(|p| {
                p.metadata
                    .owner_references
                    .iter()
                    .any(|r| r.uid == uid && r.controller == Some(true) && r.kind == "ReplicaSet")
            })
            .collect()
    };
    let list = async || {
        client
            .list::<Pod>(&ListOptions::in_namespace("default"))
            .await
            .unwrap()
            .items
    };
    let uid = created.metadata.uid.clone();
    let wait_pods = async |n: usize| {
        eventually(&format!("{n} pods"), async || {
            let pods = owned(list().await, &uid);
            (pods.len() == n).then_some(pods)
        })
        .await
    };
    let pods = wait_pods(3).await;
    let c: &Container = &pods[0].spec.containers.as_ref().unwrap()[0];
    assert_eq!(c.image, "nginx");
    assert_eq!(pods[0].metadata.labels["app"], "web");
    let status = eventually("status.replicas 3", async || {
        let rs: ReplicaSet = client.get(&ObjectKey::new("default", "web")).await.unwrap();
        (rs.status.replicas == 3 && rs.status.observed_generation == rs.metadata.generation)
            .then_some(rs)
    })
    .await;

    // A deleted pod is replaced.
    let deleted = pods[0].metadata.name.clone();
    client.delete(&pods[0], &Default::default()).await.unwrap();
    eventually("a replacement", async || {
        let pods = owned(list().await, &uid);
        (pods.len() == 3 && pods.iter().all(|p| p.metadata.name != deleted)).then_some(())
    })
    .await;

    // Scaling down.
    let mut scaled = status.clone();
    scaled.spec.replicas = Some(1);
    client.update(&scaled, &Default::default()).await.unwrap();
    wait_pods(1).await;
    eventually("status.replicas 1", async || {
        let rs: ReplicaSet = client.get(&ObjectKey::new("default", "web")).await.unwrap();
        (rs.status.replicas == 1).then_some(())
    })
    .await;
    // Still 1 a moment later: nothing over-created.
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(owned(list().await, &uid).len(), 1);
}

against_both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    replicaset_lite_against_envtest
);
async fn replicaset_lite_against_envtest(env: Environment) {
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = dir.path().join("kubeconfig");
    std::fs::write(&kubeconfig, env.kubeconfig()).unwrap();
    let running = example("replicaset-lite", &kubeconfig);
    let client = Client::new(env.config(), env.scheme()).unwrap();
    replicaset_lite_scenario(&client).await;
    stop(running);
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replicaset_lite_against_kapi_serve() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, kubeconfig) = kapi_serve(dir.path());
    let running = example("replicaset-lite", &kubeconfig);
    let mut scheme = Scheme::new();
    k8s_types::register(&mut scheme).unwrap();
    let config = Config::from_kubeconfig(&kubeconfig).unwrap();
    let client = Client::new(&config, Arc::new(scheme)).unwrap();
    replicaset_lite_scenario(&client).await;
    stop(running);
}

async fn pod_defaulter_scenario(client: &Client) {
    let pod = |name: &str, image: &str| -> Pod {
        serde_json::from_value(serde_json::json!({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": "default"},
            "spec": {"containers": [{"name": "app", "image": image}]},
        }))
        .unwrap()
    };
    let created = client
        .create(&pod("pinned", "nginx:1.27"), &Default::default())
        .await
        .unwrap();
    assert_eq!(
        created.metadata.labels["pod-defaulter.example.com/defaulted"],
        "true"
    );
    assert!(
        created
            .metadata
            .annotations
            .contains_key("pod-defaulter.example.com/owner")
    );
    let stored: Pod = client
        .get(&ObjectKey::new("default", "pinned"))
        .await
        .unwrap();
    assert_eq!(stored.metadata.labels, created.metadata.labels);

    let err = client
        .create(&pod("floating", "nginx:latest"), &Default::default())
        .await
        .unwrap_err();
    match err {
        controller_runtime::client::Error::Api(api) => {
            assert_eq!(api.code, 403);
            assert_eq!(
                api.status.message,
                r#"admission webhook "validate-v1-pod.pod-defaulter.example.com" denied the request: container "app" uses the image "nginx:latest": pin a version tag other than latest"#
            );
        }
        other => panic!("{other}"),
    }
    match client
        .get::<Pod>(&ObjectKey::new("default", "floating"))
        .await
    {
        Err(e) if e.is_not_found() => {}
        other => panic!("the refused Pod was stored: {other:?}"),
    }
}

/// Once stopped, the example has removed its configurations: Pods go in unchanged.
async fn pod_defaulter_gone(client: &Client) {
    let pod: Pod = serde_json::from_value(serde_json::json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "after", "namespace": "default"},
        "spec": {"containers": [{"name": "app", "image": "nginx"}]},
    }))
    .unwrap();
    let created = client.create(&pod, &Default::default()).await.unwrap();
    assert!(created.metadata.labels.is_empty());
}

against_both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    pod_defaulter_against_envtest
);
async fn pod_defaulter_against_envtest(env: Environment) {
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = dir.path().join("kubeconfig");
    std::fs::write(&kubeconfig, env.kubeconfig()).unwrap();
    let running = example_with("pod-defaulter", &kubeconfig, &["--listen", "127.0.0.1:0"]);
    // The real kube-apiserver reads webhook configurations through an informer: the
    // example's registration, and its removal, apply a moment after the write.
    let settle = || async {
        if env.is_external() {
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    };
    settle().await;
    let client = Client::new(env.config(), env.scheme()).unwrap();
    pod_defaulter_scenario(&client).await;
    stop(running);
    settle().await;
    pod_defaulter_gone(&client).await;
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pod_defaulter_against_kapi_serve() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, kubeconfig) = kapi_serve(dir.path());
    let running = example_with("pod-defaulter", &kubeconfig, &["--listen", "127.0.0.1:0"]);
    let mut scheme = Scheme::new();
    k8s_types::register(&mut scheme).unwrap();
    let config = Config::from_kubeconfig(&kubeconfig).unwrap();
    let client = Client::new(&config, Arc::new(scheme)).unwrap();
    pod_defaulter_scenario(&client).await;
    pod_defaulter_with_kubectl(&kubeconfig);
    stop(running);
    pod_defaulter_gone(&client).await;
}

/// kubectl sees the webhooks as users do: a Pod it runs comes back labelled, one with
/// an unpinned image is refused with the webhook's message.
fn pod_defaulter_with_kubectl(kubeconfig: &Path) {
    let kubectl = |args: &[&str]| {
        Command::new("kubectl")
            .arg("--kubeconfig")
            .arg(kubeconfig)
            .args(args)
            .output()
            .unwrap()
    };
    if !Command::new("kubectl")
        .args(["version", "--client"])
        .output()
        .is_ok_and(|o| o.status.success())
    {
        assert!(
            std::env::var_os("CI").is_none(),
            "kubectl is not installed, and CI needs this test"
        );
        eprintln!("kubectl is not installed: skipping its part of the webhook test");
        return;
    }
    let out = kubectl(&["run", "web", "--image=nginx:1.27"]);
    assert!(out.status.success(), "{out:?}");
    let out = kubectl(&[
        "get",
        "pod",
        "web",
        "-o",
        r"jsonpath={.metadata.labels.pod-defaulter\.example\.com/defaulted}",
    ]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "true", "{out:?}");
    let out = kubectl(&["run", "floating", "--image=nginx"]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(r#"admission webhook "validate-v1-pod.pod-defaulter.example.com" denied the request: container "floating" uses the image "nginx": pin a version tag other than latest"#),
        "{stderr}"
    );
}

/// A Widget in `apiVersion` with `spec`, written as JSON (the test has no Widget type:
/// it sees the wire as any client does).
fn widget(api_version: &str, name: &str, spec: serde_json::Value) -> Unstructured {
    serde_json::from_value(serde_json::json!({
        "apiVersion": api_version, "kind": "Widget",
        "metadata": {"name": name, "namespace": "default"},
        "spec": spec,
    }))
    .unwrap()
}

async fn get_widget(client: &Client, version: &str, name: &str) -> serde_json::Value {
    let gvk = GroupVersionKind::new("example.com", version, "Widget");
    let u = client
        .get_unstructured(&gvk, &ObjectKey::new("default", name))
        .await
        .unwrap_or_else(|e| panic!("get {version} {name}: {e}"));
    serde_json::to_value(&u).unwrap()
}

/// Reads a Widget in `version`, changes it with `change` and writes it back, again
/// while the operator's own writes (its status) make the update conflict.
async fn update_widget(
    client: &Client,
    version: &str,
    name: &str,
    change: impl Fn(&mut serde_json::Value),
) {
    for _ in 0..20 {
        let mut w = get_widget(client, version, name).await;
        change(&mut w);
        let w: Unstructured = serde_json::from_value(w).unwrap();
        match client.update(&w, &Default::default()).await {
            Ok(_) => return,
            Err(e) if e.is_conflict() => continue,
            Err(e) => panic!("update {version} {name}: {e}"),
        }
    }
    panic!("update {version} {name}: conflicts all along");
}

async fn widget_operator_scenario(client: &Client) {
    use serde_json::json;
    // Written in v1alpha1, read in both; `shape` is in neither version's generated
    // schema, so it is pruned.
    client
        .create(
            &widget(
                "example.com/v1alpha1",
                "small",
                json!({"size": 2, "colour": "red", "shape": "round"}),
            ),
            &Default::default(),
        )
        .await
        .unwrap();
    let v1 = get_widget(client, "v1", "small").await;
    assert_eq!(v1["apiVersion"], "example.com/v1");
    assert_eq!(
        v1["spec"],
        json!({"replicas": 2, "style": {"colour": "red"}})
    );
    let alpha = get_widget(client, "v1alpha1", "small").await;
    assert_eq!(alpha["apiVersion"], "example.com/v1alpha1");
    assert_eq!(alpha["spec"], json!({"size": 2, "colour": "red"}));
    assert_eq!(alpha["metadata"]["uid"], v1["metadata"]["uid"]);

    // Written in v1 (with the finish v1alpha1 has no field for), read in both.
    client
        .create(
            &widget(
                "example.com/v1",
                "big",
                json!({"replicas": 5, "style": {"colour": "blue", "finish": "gloss"}}),
            ),
            &Default::default(),
        )
        .await
        .unwrap();
    let alpha = get_widget(client, "v1alpha1", "big").await;
    assert_eq!(alpha["spec"], json!({"size": 5, "colour": "blue"}));
    assert_eq!(
        alpha["metadata"]["annotations"]["widgets.example.com/finish"],
        "gloss"
    );
    // An update through v1alpha1 keeps what only v1 has.
    update_widget(client, "v1alpha1", "big", |w| w["spec"]["size"] = json!(6)).await;
    let v1 = get_widget(client, "v1", "big").await;
    assert_eq!(
        v1["spec"],
        json!({"replicas": 6, "style": {"colour": "blue", "finish": "gloss"}})
    );
    assert!(v1["metadata"].get("annotations").is_none(), "{v1}");

    // Lists convert every item.
    let list = client
        .list_unstructured(
            &GroupVersionKind::new("example.com", "v1alpha1", "Widget"),
            &ListOptions::in_namespace("default"),
        )
        .await
        .unwrap();
    let sizes: Vec<(String, serde_json::Value)> = list
        .items
        .iter()
        .map(|u| {
            assert_eq!(u.object["apiVersion"], "example.com/v1alpha1");
            (
                u.object["metadata"]["name"].as_str().unwrap().to_owned(),
                u.object["spec"]["size"].clone(),
            )
        })
        .collect();
    assert_eq!(
        sizes,
        vec![("big".to_owned(), json!(6)), ("small".to_owned(), json!(2))]
    );

    // The controller: a ConfigMap per Widget, owned by it, and the status.
    for (name, replicas, colour, finish) in
        [("small", "2", "red", ""), ("big", "6", "blue", "gloss")]
    {
        let cm = eventually(&format!("the ConfigMap of {name}"), async || {
            get_cm(client, "default", name)
                .await
                .filter(|cm| cm.data.get("replicas").map(String::as_str) == Some(replicas))
        })
        .await;
        assert_eq!(cm.data["colour"], colour);
        assert_eq!(cm.data["finish"], finish);
        let owner = &cm.metadata.owner_references[0];
        assert_eq!(
            (
                owner.api_version.as_str(),
                owner.kind.as_str(),
                owner.name.as_str()
            ),
            ("example.com/v1", "Widget", name)
        );
        assert_eq!(owner.controller, Some(true));
        let uid = get_widget(client, "v1", name).await["metadata"]["uid"].clone();
        assert_eq!(json!(owner.uid), uid);
        // The status, read in the other version too.
        let alpha = eventually(&format!("the status of {name}"), async || {
            let w = get_widget(client, "v1alpha1", name).await;
            (w["status"]["observedGeneration"] == w["metadata"]["generation"]).then_some(w)
        })
        .await;
        assert_eq!(alpha["status"]["configMap"], name);
    }

    // A change in v1alpha1 reaches the ConfigMap.
    update_widget(client, "v1alpha1", "small", |w| {
        w["spec"]["colour"] = json!("green");
    })
    .await;
    eventually("the ConfigMap to follow", async || {
        get_cm(client, "default", "small")
            .await
            .filter(|cm| cm.data["colour"] == "green")
    })
    .await;
}

/// Once the operator has stopped, its webhook is gone: the storage version is still
/// read, the other fails with the webhook's error (so it was the webhook that
/// converted before).
async fn widget_operator_gone(client: &Client) {
    get_widget(client, "v1", "small").await;
    let err = client
        .get_unstructured(
            &GroupVersionKind::new("example.com", "v1alpha1", "Widget"),
            &ObjectKey::new("default", "small"),
        )
        .await
        .unwrap_err();
    match err {
        controller_runtime::client::Error::Api(api) => {
            assert_eq!(api.code, 500, "{api:?}");
            // (Go names the stored object's version, v1; the server here names the
            // desired one: either is the webhook's failure.)
            let message = &api.status.message;
            assert!(
                message.contains("conversion webhook for example.com/v1")
                    && message.contains(", Kind=Widget failed: Post \"https://127.0.0.1:"),
                "{message}"
            );
        }
        other => panic!("{other}"),
    }
}

against_both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    widget_operator_against_envtest
);
async fn widget_operator_against_envtest(env: Environment) {
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = dir.path().join("kubeconfig");
    std::fs::write(&kubeconfig, env.kubeconfig()).unwrap();
    let running = example_with("widget-operator", &kubeconfig, &["--listen", "127.0.0.1:0"]);
    let client = Client::new(env.config(), env.scheme()).unwrap();
    widget_operator_scenario(&client).await;
    stop(running);
    widget_operator_gone(&client).await;
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn widget_operator_against_kapi_serve() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, kubeconfig) = kapi_serve(dir.path());
    let running = example_with("widget-operator", &kubeconfig, &["--listen", "127.0.0.1:0"]);
    let mut scheme = Scheme::new();
    k8s_types::register(&mut scheme).unwrap();
    let config = Config::from_kubeconfig(&kubeconfig).unwrap();
    let client = Client::new(&config, Arc::new(scheme)).unwrap();
    widget_operator_scenario(&client).await;
    stop(running);
    widget_operator_gone(&client).await;
}

/// What the crate docs' table says of the examples (see "Writing a controller" in
/// `lib.rs`) is what they are: their lines and concepts, and those of their kube-rs
/// counterparts in `benchmarks/examples`, counted by the rule stated there.
#[test]
fn the_crate_docs_count_the_examples_right() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let docs = std::fs::read_to_string(root.join("src/lib.rs")).unwrap();
    for name in [
        "configmap-mirror",
        "replicaset-lite",
        "pod-defaulter",
        "widget-operator",
    ] {
        let cells: Vec<&str> = docs
            .lines()
            .find(|l| l.starts_with("//! |") && l.contains(&format!("| `{name}` |")))
            .unwrap_or_else(|| panic!("no row for {name}"))
            .split('|')
            .map(str::trim)
            .collect();
        let at = cells
            .iter()
            .position(|c| *c == format!("`{name}`"))
            .unwrap();
        let theirs = format!("kube_{}", name.replace('-', "_"));
        assert_eq!(cells[at + 3], format!("`{theirs}`"), "{name}'s counterpart");
        for (path, krate, cells) in [
            (
                root.join(format!("examples/{name}.rs")),
                "controller_runtime",
                &cells[at + 1..at + 3],
            ),
            (
                root.join(format!("../benchmarks/examples/{theirs}.rs")),
                "kube",
                &cells[at + 4..at + 6],
            ),
        ] {
            let source = std::fs::read_to_string(&path).unwrap();
            let counted = count(&source, krate);
            assert_eq!(
                cells,
                [counted.0.to_string(), counted.1.len().to_string()],
                "{}: concepts {:?}",
                path.display(),
                counted.1
            );
        }
    }
    // The rule on a known text.
    let sample = "//! doc\nuse kube::{api::{Api, Patch}, runtime::watcher};\n\n// note\nfn f() -> kube::Error::Api {}\nlet c = kube::Client::try_default();\nlet s = kube::runtime::finalizer::finalizer;\n";
    let (lines, names) = count(sample, "kube");
    assert_eq!(lines, 4);
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    assert_eq!(
        names,
        ["Api", "Client", "Error", "Patch", "finalizer", "watcher"]
    );
}

/// Non-blank lines that are not `//` comments, and the distinct names taken from
/// `krate`: those its `use` statements bring in (a module imported whole counts once)
/// and, for each full path in the code, its first capitalised segment, else its last.
fn count(source: &str, krate: &str) -> (usize, std::collections::BTreeSet<String>) {
    let code: Vec<&str> = source
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("//"))
        .collect();
    let text = code.join("\n");
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut names = std::collections::BTreeSet::new();
    let mut rest = text.as_str();
    let mut outside_uses = String::new();
    let prefix = format!("use {krate}::");
    while let Some(at) = rest.find(&prefix) {
        outside_uses.push_str(&rest[..at]);
        let tree = &rest[at + prefix.len()..];
        let end = tree.find(';').unwrap_or(tree.len());
        let tree_text = &tree[..end];
        let mut i = 0;
        while i < tree_text.len() {
            let tail = &tree_text[i..];
            let len = tail.find(|c: char| !is_ident(c)).unwrap_or(tail.len());
            if len == 0 {
                i += tail.chars().next().map_or(1, char::len_utf8);
                continue;
            }
            let ident = &tail[..len];
            let path_prefix = tail[len..].trim_start().starts_with("::");
            if !path_prefix && ident != "self" && ident != "as" {
                names.insert(ident.to_owned());
            }
            i += len;
        }
        rest = &tree[end..];
    }
    outside_uses.push_str(rest);
    let path = format!("{krate}::");
    let mut from = 0;
    while let Some(at) = outside_uses[from..].find(&path) {
        let start = from + at;
        let boundary = !outside_uses[..start].ends_with(is_ident);
        if boundary {
            let mut segs = Vec::new();
            let mut tail = &outside_uses[start + path.len()..];
            loop {
                let len = tail.find(|c: char| !is_ident(c)).unwrap_or(tail.len());
                if len == 0 {
                    break;
                }
                segs.push(&tail[..len]);
                match tail[len..].strip_prefix("::") {
                    Some(next) => tail = next,
                    None => break,
                }
            }
            let name = segs
                .iter()
                .find(|s| s.starts_with(|c: char| c.is_uppercase()))
                .or(segs.last());
            if let Some(name) = name {
                names.insert((*name).to_owned());
            }
        }
        from = start + path.len();
    }
    (code.len(), names)
}
