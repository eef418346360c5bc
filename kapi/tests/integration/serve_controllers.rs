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
