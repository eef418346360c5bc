//! Server-side apply and `managedFields` end to end: over HTTP against Go's own answers
//! (the `fieldsV1` kube-apiserver writes for a created Pod, conflict Statuses), and with
//! the installed `kubectl apply --server-side` (create, change, conflicts as kubectl
//! prints them, `--force-conflicts`, a second apply that writes nothing).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::client;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use client::{TestServer, start};
use serde_json::{Value, json};

const DEPLOY: &str = "/apis/apps/v1/namespaces/default/deployments";

/// `metadata.managedFields[0].fieldsV1` of the Pod below as kube-apiserver wrote it when
/// `kubectl apply` (client-side) created it.
const GO_POD_FIELDS: &str = r#"{"f:metadata":{"f:annotations":{".":{},"f:kubectl.kubernetes.io/last-applied-configuration":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"nginx\"}":{".":{},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:ports":{".":{},"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{},"f:protocol":{}}},"f:resources":{},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},"f:dnsPolicy":{},"f:enableServiceLinks":{},"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},"f:terminationGracePeriodSeconds":{}}}"#;

async fn apply(s: &TestServer, path: &str, query: &str, yaml: &str) -> client::Response {
    s.request(
        "PATCH",
        &format!("{path}?{query}"),
        &[("Content-Type", "application/apply-patch+yaml")],
        yaml.as_bytes(),
    )
    .await
}

fn deployment_yaml(replicas: u32, image: &str) -> String {
    format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels:\n    app: web\nspec:\n  replicas: {replicas}\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: nginx\n        image: {image}\n"
    )
}

#[tokio::test]
async fn a_create_is_tracked_exactly_as_kube_apiserver_tracks_it() {
    let s = start().await;
    let last_applied = r#"{"apiVersion":"v1","kind":"Pod","metadata":{"annotations":{},"name":"nginx","namespace":"default"},"spec":{"containers":[{"image":"nginx:1.14.2","name":"nginx","ports":[{"containerPort":80}]}]}}"#;
    let pod = json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "nginx", "namespace": "default",
                     "annotations": {"kubectl.kubernetes.io/last-applied-configuration": last_applied}},
        "spec": {"containers": [{"image": "nginx:1.14.2", "name": "nginx", "ports": [{"containerPort": 80}]}]},
    });
    let r = s
        .request(
            "POST",
            "/api/v1/namespaces/default/pods?fieldManager=kubectl-client-side-apply",
            &[("Content-Type", "application/json")],
            &serde_json::to_vec(&pod).unwrap(),
        )
        .await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    let entries = r.json()["metadata"]["managedFields"].clone();
    assert_eq!(entries.as_array().map(Vec::len), Some(1), "{entries}");
    let e = &entries[0];
    assert_eq!(e["manager"], "kubectl-client-side-apply");
    assert_eq!(e["operation"], "Update");
    assert_eq!(e["apiVersion"], "v1");
    assert_eq!(e["fieldsType"], "FieldsV1");
    assert!(e["time"].as_str().is_some_and(|t| t.ends_with('Z')), "{e}");
    let go: Value = serde_json::from_str(GO_POD_FIELDS).unwrap();
    assert_eq!(e["fieldsV1"], go);

    // Without fieldManager, the manager is the user agent's first word.
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"a": "1"}});
    let r = s
        .request(
            "POST",
            "/api/v1/namespaces/default/configmaps",
            &[
                ("Content-Type", "application/json"),
                ("User-Agent", "my-controller/v0.1 (linux/amd64)"),
            ],
            &serde_json::to_vec(&cm).unwrap(),
        )
        .await;
    assert_eq!(
        r.json()["metadata"]["managedFields"][0]["manager"],
        "my-controller"
    );
    assert_eq!(
        r.json()["metadata"]["managedFields"][0]["fieldsV1"],
        json!({"f:data": {".": {}, "f:a": {}}})
    );
    s.server.shutdown().await;
}

#[tokio::test]
async fn apply_creates_merges_conflicts_and_forces_over_http() {
    let s = start().await;
    let path = format!("{DEPLOY}/web");
    let r = apply(
        &s,
        &path,
        "fieldManager=alice",
        &deployment_yaml(2, "nginx:1"),
    )
    .await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    let created = r.json();
    let entries = created["metadata"]["managedFields"]
        .as_array()
        .cloned()
        .unwrap();
    assert_eq!(entries.len(), 1);
    assert_eq!(
        (
            entries[0]["manager"].as_str(),
            entries[0]["operation"].as_str()
        ),
        (Some("alice"), Some("Apply"))
    );
    assert_eq!(
        entries[0]["fieldsV1"],
        json!({"f:metadata": {"f:labels": {"f:app": {}}}, "f:spec": {"f:replicas": {}, "f:selector": {},
            "f:template": {"f:metadata": {"f:labels": {"f:app": {}}}, "f:spec": {"f:containers": {
                "k:{\"name\":\"nginx\"}": {".": {}, "f:image": {}, "f:name": {}}}}}}})
    );
    // Defaults were applied to the created object.
    assert_eq!(
        created["spec"]["template"]["spec"]["containers"][0]["imagePullPolicy"],
        "IfNotPresent"
    );

    // The same configuration again: nothing written.
    let rv = created["metadata"]["resourceVersion"].clone();
    let r = apply(
        &s,
        &path,
        "fieldManager=alice",
        &deployment_yaml(2, "nginx:1"),
    )
    .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["metadata"]["resourceVersion"], rv);

    // Another manager setting alice's field to another value: Go's 409.
    let r = apply(
        &s,
        &path,
        "fieldManager=bob",
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 5\n",
    )
    .await;
    assert_eq!(r.status, 409, "{}", String::from_utf8_lossy(&r.body));
    let status = r.json();
    assert_eq!(status["reason"], "Conflict");
    assert_eq!(
        status["message"],
        "Apply failed with 1 conflict: conflict with \"alice\": .spec.replicas"
    );
    assert_eq!(
        status["details"]["causes"],
        json!([{"reason": "FieldManagerConflict", "message": "conflict with \"alice\"", "field": ".spec.replicas"}])
    );
    // Forced, bob takes the field.
    let r = apply(
        &s,
        &path,
        "fieldManager=bob&force=true",
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 5\n",
    )
    .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let forced = r.json();
    assert_eq!(forced["spec"]["replicas"], 5);
    let owners: Vec<(String, Value)> = forced["metadata"]["managedFields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["manager"].as_str().unwrap().to_owned(),
                e["fieldsV1"]["f:spec"]["f:replicas"].clone(),
            )
        })
        .collect();
    assert!(
        owners.contains(&("bob".to_owned(), json!({}))),
        "{owners:?}"
    );
    assert!(
        owners.contains(&("alice".to_owned(), Value::Null)),
        "{owners:?}"
    );

    // An update by a plain PATCH takes the field from the applier, as Go's Update does.
    let r = s
        .patch(
            &format!("{path}?fieldManager=editor"),
            "application/merge-patch+json",
            &json!({"spec": {"paused": true}}),
        )
        .await;
    assert_eq!(r.status, 200);
    let editor = r.json()["metadata"]["managedFields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["manager"] == "editor")
        .cloned()
        .unwrap();
    assert_eq!(
        (editor["operation"].as_str(), editor["apiVersion"].as_str()),
        (Some("Update"), Some("apps/v1"))
    );
    assert_eq!(editor["fieldsV1"], json!({"f:spec": {"f:paused": {}}}));

    // alice stops applying the labels: they go, as nobody else owns them (and replicas
    // at bob's value is no conflict).
    let without_labels =
        deployment_yaml(5, "nginx:1").replace("  labels:\n    app: web\nspec:", "spec:");
    let r = apply(&s, &path, "fieldManager=alice", &without_labels).await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(
        r.json()["metadata"].get("labels"),
        None,
        "{}",
        r.json()["metadata"]
    );
    s.server.shutdown().await;
}

#[tokio::test]
async fn bad_applies_are_answered_as_go_answers_them() {
    let s = start().await;
    let path = format!("{DEPLOY}/web");
    let r = apply(&s, &path, "", &deployment_yaml(1, "x")).await;
    assert_eq!(r.status, 422);
    assert_eq!(
        r.json()["message"],
        "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch"
    );
    let r = s
        .patch(
            &format!("{path}?force=true"),
            "application/merge-patch+json",
            &json!({}),
        )
        .await;
    assert_eq!(r.status, 422);
    assert_eq!(
        r.json()["message"],
        "PatchOptions.meta.k8s.io \"\" is invalid: force: Forbidden: may not be specified for non-apply patch"
    );
    let r = apply(
        &s,
        &path,
        "fieldManager=a",
        &deployment_yaml(1, "x").replace("apps/v1", "apps/v1beta2"),
    )
    .await;
    assert_eq!(
        (r.status, r.json()["message"].clone()),
        (
            400,
            json!("invalid object type: apps/v1beta2, Kind=Deployment")
        )
    );
    let with_managed_fields = deployment_yaml(1, "x").replace(
        "  name: web\n",
        "  name: web\n  managedFields:\n  - manager: x\n",
    );
    let r = apply(&s, &path, "fieldManager=a", &with_managed_fields).await;
    assert_eq!(
        (r.status, r.json()["message"].clone()),
        (400, json!("metadata.managedFields must be nil"))
    );
    let r = apply(
        &s,
        &path,
        "fieldManager=a",
        &deployment_yaml(1, "x").replace("  replicas: 1\n", "  replicas: 1\n  bogus: 1\n"),
    )
    .await;
    assert_eq!(r.status, 500);
    assert_eq!(
        r.json()["message"],
        "failed to create typed patch object (/web; apps/v1, Kind=Deployment): .spec.bogus: field not declared in schema"
    );
    let r = apply(&s, &path, "fieldManager=a", "metadata: [\n").await;
    assert_eq!(r.status, 400);
    assert!(
        r.json()["message"]
            .as_str()
            .unwrap()
            .starts_with("error decoding YAML")
    );
    let r = apply(
        &s,
        &path,
        "fieldManager=a",
        &deployment_yaml(1, "x").replace("name: web", "name: other"),
    )
    .await;
    assert_eq!(r.status, 400);
    assert_eq!(
        r.json()["message"],
        "the name of the object (other) does not match the name on the URL (web)"
    );
    // Nothing of it was stored.
    assert_eq!(s.get(&path).await.status, 404);
    // A missing namespace is reported before anything is created.
    let r = apply(
        &s,
        "/apis/apps/v1/namespaces/nowhere/deployments/web",
        "fieldManager=a",
        &deployment_yaml(1, "x"),
    )
    .await;
    assert_eq!(r.status, 404);
    s.server.shutdown().await;
}

fn kubectl_available() -> bool {
    let found = Command::new("kubectl")
        .args(["version", "--client"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "kubectl is not installed, and CI needs this test"
        );
        eprintln!("kubectl is not installed: skipping the kubectl server-side apply test");
    }
    found
}

fn kubectl(kubeconfig: &Path, args: &[&str], stdin: Option<&str>) -> Output {
    use std::io::Write;
    let mut child = Command::new("kubectl")
        .arg("--kubeconfig")
        .arg(kubeconfig)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    if let Some(mut input) = child.stdin.take() {
        input
            .write_all(stdin.unwrap_or_default().as_bytes())
            .unwrap();
    }
    child.wait_with_output().unwrap()
}

fn ok(kubeconfig: &Path, args: &[&str], stdin: Option<&str>) -> String {
    let out = kubectl(kubeconfig, args, stdin);
    assert!(
        out.status.success(),
        "kubectl {args:?} failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn write_kubeconfig(addr: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ssa-kubectl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("kubeconfig");
    std::fs::write(
        &path,
        format!(
            "apiVersion: v1\nkind: Config\nclusters:\n- name: t\n  cluster:\n    server: http://{addr}\ncontexts:\n- name: t\n  context:\n    cluster: t\n    user: t\n    namespace: default\ncurrent-context: t\nusers:\n- name: t\n  user: {{}}\n"
        ),
    )
    .unwrap();
    path
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_apply_server_side() {
    if !kubectl_available() {
        return;
    }
    let s = start().await;
    let kubeconfig = write_kubeconfig(&s.server.local_addr().to_string());
    let k = kubeconfig.clone();
    tokio::task::spawn_blocking(move || {
        let k = k.as_path();
        let manifest = deployment_yaml(2, "nginx:1.27");
        // Create.
        let out = ok(k, &["apply", "--server-side", "-f", "-"], Some(&manifest));
        assert_eq!(out.trim(), "deployment.apps/web serverside-applied");
        let rv = ok(k, &["get", "deployment", "web", "-o", "json", "--show-managed-fields"], None);
        // Twice: a no-op, nothing written.
        let out = ok(k, &["apply", "--server-side", "-f", "-"], Some(&manifest));
        assert_eq!(out.trim(), "deployment.apps/web serverside-applied");
        let again = ok(k, &["get", "deployment", "web", "-o", "json", "--show-managed-fields"], None);
        assert_eq!(rv, again);
        let managers = ok(k, &["get", "deployment", "web", "--show-managed-fields", "-o", "jsonpath={.metadata.managedFields[*].manager}"], None);
        assert_eq!(managers, "kubectl");
        // Change.
        ok(k, &["apply", "--server-side", "-f", "-"], Some(&deployment_yaml(2, "nginx:1.28")));
        let image = ok(k, &["get", "deployment", "web", "-o", "jsonpath={.spec.template.spec.containers[0].image}"], None);
        assert_eq!(image, "nginx:1.28");
        // Someone else changes replicas, then the applier's value conflicts.
        ok(k, &["patch", "deployment", "web", "--type=merge", "-p", r#"{"spec":{"replicas":4}}"#], None);
        let out = kubectl(k, &["apply", "--server-side", "-f", "-"], Some(&deployment_yaml(3, "nginx:1.28")));
        assert!(!out.status.success());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(r#"Apply failed with 1 conflict: conflict with "kubectl-patch" using apps/v1: .spec.replicas"#),
            "{stderr}"
        );
        assert!(stderr.contains("--force-conflicts"), "{stderr}");
        // Forced: the applier owns replicas again.
        ok(k, &["apply", "--server-side", "--force-conflicts", "-f", "-"], Some(&deployment_yaml(3, "nginx:1.28")));
        let replicas = ok(k, &["get", "deployment", "web", "-o", "jsonpath={.spec.replicas}"], None);
        assert_eq!(replicas, "3");
        let fields = ok(k, &["get", "deployment", "web", "--show-managed-fields", "-o", "json"], None);
        let v: Value = serde_json::from_str(&fields).unwrap();
        let patcher = v["metadata"]["managedFields"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["manager"] == "kubectl-patch")
            .cloned();
        // kubectl-patch owned nothing else, so its entry is gone.
        assert_eq!(patcher, None, "{}", v["metadata"]["managedFields"]);
        // A field-manager of its own shares a field at the same value without conflict.
        let out = ok(
            k,
            &["apply", "--server-side", "--field-manager=scaler", "-f", "-"],
            Some("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 3\n"),
        );
        assert_eq!(out.trim(), "deployment.apps/web serverside-applied");
    })
    .await
    .unwrap();
    let _ = std::fs::remove_dir_all(kubeconfig.parent().unwrap());
    s.server.shutdown().await;
}

#[tokio::test]
async fn ports_applied_without_their_protocol_are_keyed_as_tcp() {
    let s = start().await;
    let path = "/api/v1/namespaces/default/services/web";
    let yaml = "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  selector:\n    app: web\n  ports:\n  - port: 80\n    targetPort: 8080\n";
    let r = apply(&s, path, "fieldManager=alice", yaml).await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    let v = r.json();
    assert_eq!(v["spec"]["ports"][0]["protocol"], "TCP");
    assert_eq!(
        v["metadata"]["managedFields"][0]["fieldsV1"]["f:spec"]["f:ports"],
        json!({"k:{\"port\":80,\"protocol\":\"TCP\"}": {".": {}, "f:port": {}, "f:targetPort": {}}})
    );
    // Applying it again is no change.
    let r = apply(&s, path, "fieldManager=alice", yaml).await;
    assert_eq!(r.status, 200);
    assert_eq!(
        r.json()["metadata"]["resourceVersion"],
        v["metadata"]["resourceVersion"]
    );
    s.server.shutdown().await;
}

#[tokio::test]
async fn an_empty_managed_fields_list_clears_them_and_subresources_record_theirs() {
    let s = start().await;
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"a": "1"}});
    let r = s
        .request(
            "POST",
            "/api/v1/namespaces/default/configmaps?fieldManager=alice",
            &[("Content-Type", "application/json")],
            &serde_json::to_vec(&cm).unwrap(),
        )
        .await;
    assert_eq!(r.status, 201);
    let mut replaced = r.json();
    replaced["metadata"]["managedFields"] = json!([]);
    replaced["data"]["b"] = json!("2");
    let r = s
        .request(
            "PUT",
            "/api/v1/namespaces/default/configmaps/c?fieldManager=bob",
            &[("Content-Type", "application/json")],
            &serde_json::to_vec(&replaced).unwrap(),
        )
        .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    // Reset, the object has no entries, and this update (as later ones, until an apply)
    // records none: Go's skipNonAppliedManager tracks no update of an object without.
    let reset = r.json();
    assert!(reset["metadata"].get("managedFields").is_none(), "{reset}");

    // A /status write is recorded with its subresource, and owns status only.
    let path = format!("{DEPLOY}/web");
    let r = apply(
        &s,
        &path,
        "fieldManager=alice",
        &deployment_yaml(1, "nginx"),
    )
    .await;
    assert_eq!(r.status, 201);
    let r = s
        .patch(
            &format!("{path}/status?fieldManager=controller"),
            "application/merge-patch+json",
            &json!({"status": {"replicas": 1}}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let controller = r.json()["metadata"]["managedFields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["manager"] == "controller")
        .cloned()
        .unwrap();
    assert_eq!(controller["subresource"], "status");
    assert_eq!(
        controller["fieldsV1"],
        json!({"f:status": {"f:replicas": {}}})
    );
    s.server.shutdown().await;
}

/// An update whose only change is a managedFields time writes nothing (Go's store runs
/// `IgnoreManagedFieldsTimestampsTransformer` after the strategy): here the client sends
/// the entries back with a later time, which the field manager keeps as asked.
#[tokio::test]
async fn an_update_changing_only_a_managed_fields_time_writes_nothing() {
    let s = start().await;
    const CM: &str = "/api/v1/namespaces/default/configmaps";
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap",
                    "metadata": {"name": "times"}, "data": {"a": "1"}});
    let r = s.send_json("POST", CM, &cm).await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    let created = r.json();
    let mut later = created.clone();
    later["metadata"]["managedFields"][0]["time"] = json!("2099-01-01T00:00:00Z");
    let r = s.send_json("PUT", &format!("{CM}/times"), &later).await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let updated = r.json();
    assert_eq!(
        updated["metadata"]["resourceVersion"],
        created["metadata"]["resourceVersion"]
    );
    assert_eq!(
        updated["metadata"]["managedFields"],
        created["metadata"]["managedFields"]
    );
    // With another change too, the update is written.
    later["data"]["a"] = json!("2");
    let r = s.send_json("PUT", &format!("{CM}/times"), &later).await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let updated = r.json();
    assert_ne!(
        updated["metadata"]["resourceVersion"],
        created["metadata"]["resourceVersion"]
    );
    assert_eq!(updated["data"]["a"], "2");
    s.server.shutdown().await;
}
