//! `kapi serve --controllers=...` driven by `kubectl`: kube-controller-manager's
//! controllers running in-process act on what kubectl creates and deletes.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::time::{Duration, Instant};

use crate::common::{TestResult, kubectl_available};
use crate::serve_kubectl::{kubectl, ok, serve_with};

/// Runs kubectl until it succeeds with output `done` accepts, for up to 60 s.
fn eventually(k: &Path, args: &[&str], done: impl Fn(&str) -> bool) -> String {
    let start = Instant::now();
    loop {
        let out = kubectl(k, args, None);
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        if out.status.success() && done(&stdout) {
            return stdout;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "kubectl {args:?} never satisfied the test: {stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn serviceaccount_controller_gives_namespaces_their_default_service_account() -> TestResult {
    if !kubectl_available() {
        return Ok(());
    }
    let served = serve_with("sa-controller", &["--controllers=serviceaccount"]);
    let k = served.kubeconfig.as_path();
    ok(k, &["create", "namespace", "team-a"], None);
    let name = [
        "get",
        "serviceaccount",
        "default",
        "-n",
        "team-a",
        "-o",
        "name",
    ];
    eventually(k, &name, |out| out.trim() == "serviceaccount/default");
    let uid = [
        "get",
        "sa",
        "default",
        "-n",
        "team-a",
        "-o",
        "jsonpath={.metadata.uid}",
    ];
    let first = ok(k, &uid, None);
    ok(
        k,
        &["delete", "serviceaccount", "default", "-n", "team-a"],
        None,
    );
    eventually(k, &uid, |out| !out.is_empty() && out != first);
    Ok(())
}

#[test]
fn kubectl_delete_namespace_returns_once_the_namespace_controller_emptied_it() -> TestResult {
    if !kubectl_available() {
        return Ok(());
    }
    let served = serve_with("ns-controller", &["--controllers=namespace"]);
    let k = served.kubeconfig.as_path();
    ok(k, &["create", "namespace", "doomed"], None);
    ok(k, &["create", "configmap", "a", "-n", "doomed"], None);
    ok(
        k,
        &[
            "create",
            "deployment",
            "web",
            "--image=nginx",
            "-n",
            "doomed",
        ],
        None,
    );
    // kubectl waits for the namespace to be gone.
    let out = ok(k, &["delete", "namespace", "doomed", "--timeout=60s"], None);
    assert_eq!(out.trim(), "namespace \"doomed\" deleted");
    let gone = kubectl(k, &["get", "namespace", "doomed"], None);
    assert!(!gone.status.success());
    assert!(String::from_utf8_lossy(&gone.stderr).contains("NotFound"));
    let left = ok(
        k,
        &[
            "get",
            "configmaps,deployments",
            "-n",
            "doomed",
            "-o",
            "name",
        ],
        None,
    );
    assert_eq!(left.trim(), "");
    Ok(())
}

#[test]
fn without_the_namespace_controller_a_deleted_namespace_stays_terminating() -> TestResult {
    if !kubectl_available() {
        return Ok(());
    }
    let served = serve_with("ns-no-controller", &[]);
    let k = served.kubeconfig.as_path();
    ok(k, &["create", "namespace", "stays"], None);
    ok(k, &["delete", "namespace", "stays", "--wait=false"], None);
    let phase = ok(
        k,
        &[
            "get",
            "namespace",
            "stays",
            "-o",
            "jsonpath={.status.phase}",
        ],
        None,
    );
    assert_eq!(phase, "Terminating");
    Ok(())
}

/// A ConfigMap `name-child` owned by the ConfigMap `name`, created with kubectl.
fn owned_child(k: &Path, name: &str) {
    ok(k, &["create", "configmap", name], None);
    let uid = ok(
        k,
        &["get", "configmap", name, "-o", "jsonpath={.metadata.uid}"],
        None,
    );
    let child = format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}-child\n  ownerReferences:\n  - {{apiVersion: v1, kind: ConfigMap, name: {name}, uid: {uid}, blockOwnerDeletion: true}}\n"
    );
    ok(k, &["create", "-f", "-"], Some(&child));
}

#[test]
fn kubectl_delete_cascades_as_asked_with_the_garbage_collector() -> TestResult {
    if !kubectl_available() {
        return Ok(());
    }
    let served = serve_with("gc", &["--controllers=garbagecollector"]);
    let k = served.kubeconfig.as_path();
    let exists = |name: &str| {
        kubectl(k, &["get", "configmap", name], None)
            .status
            .success()
    };

    // Foreground: kubectl waits for the owner, which waits for its dependent.
    owned_child(k, "fg");
    ok(
        k,
        &[
            "delete",
            "configmap",
            "fg",
            "--cascade=foreground",
            "--timeout=60s",
        ],
        None,
    );
    assert!(!exists("fg"));
    assert!(!exists("fg-child"), "the dependent goes before its owner");

    // Background (kubectl's default): the dependent follows.
    owned_child(k, "bg");
    ok(k, &["delete", "configmap", "bg"], None);
    let start = Instant::now();
    while exists("bg-child") {
        assert!(start.elapsed() < Duration::from_secs(60), "bg-child stayed");
        std::thread::sleep(Duration::from_millis(100));
    }

    // Orphan: the dependent stays, without its owner reference.
    owned_child(k, "or");
    ok(
        k,
        &[
            "delete",
            "configmap",
            "or",
            "--cascade=orphan",
            "--timeout=60s",
        ],
        None,
    );
    assert!(!exists("or"));
    let refs = [
        "get",
        "configmap",
        "or-child",
        "-o",
        "jsonpath={.metadata.ownerReferences}",
    ];
    eventually(k, &refs, str::is_empty);
    std::thread::sleep(Duration::from_millis(500));
    assert!(exists("or-child"));
    Ok(())
}
