//! `kapi serve --controllers=* --nodes 3` driven by `kubectl`: Deployments roll out,
//! update and roll back on simulated Nodes, Jobs complete, Pods show their Node and
//! IP, and `kubectl drain` evicts a Node's Pods (`pods/eviction`), as on a cluster.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common::{TestResult, kubectl_available};
use crate::serve_kubectl::{ok, serve_with};

#[test]
fn kubectl_rolls_out_deployments_and_runs_jobs_on_simulated_nodes() -> TestResult {
    if !kubectl_available() {
        return Ok(());
    }
    let served = serve_with(
        "nodes",
        &[
            "--controllers=*",
            "--nodes",
            "3",
            "--simulated-clock-speed",
            "30",
        ],
    );
    let k = served.kubeconfig.as_path();
    let nodes = ok(k, &["get", "nodes", "--no-headers"], None);
    assert_eq!(nodes.lines().count(), 3, "{nodes}");
    assert!(
        nodes
            .lines()
            .all(|l| l.split_whitespace().nth(1) == Some("Ready")),
        "{nodes}"
    );

    ok(
        k,
        &[
            "create",
            "deployment",
            "web",
            "--image=nginx:1.26",
            "--replicas=3",
        ],
        None,
    );
    let status = ok(
        k,
        &["rollout", "status", "deploy/web", "--timeout=60s"],
        None,
    );
    assert!(status.contains("successfully rolled out"), "{status}");

    // `-o wide` shows each Pod's Node and IP.
    let pods = ok(k, &["get", "pods", "-o", "wide", "--no-headers"], None);
    assert_eq!(pods.lines().count(), 3, "{pods}");
    for line in pods.lines() {
        let cols: Vec<&str> = line.split_whitespace().collect();
        // NAME READY STATUS RESTARTS AGE IP NODE NOMINATED READINESS
        assert_eq!((cols[1], cols[2]), ("1/1", "Running"), "{line}");
        assert!(cols[5].starts_with("10.64."), "{line}");
        assert!(cols[6].starts_with("kapi-node-"), "{line}");
    }

    // A new image rolls out; `rollout undo` brings the first one back as revision 3.
    ok(
        k,
        &["set", "image", "deployment/web", "nginx=nginx:1.27"],
        None,
    );
    let status = ok(
        k,
        &["rollout", "status", "deploy/web", "--timeout=60s"],
        None,
    );
    assert!(status.contains("successfully rolled out"), "{status}");
    let history = ok(k, &["rollout", "history", "deploy/web"], None);
    assert!(
        history.contains("\n1 ") && history.contains("\n2 "),
        "{history}"
    );
    ok(k, &["rollout", "undo", "deploy/web"], None);
    let status = ok(
        k,
        &["rollout", "status", "deploy/web", "--timeout=60s"],
        None,
    );
    assert!(status.contains("successfully rolled out"), "{status}");
    let image = [
        "get",
        "deploy",
        "web",
        "-o",
        "jsonpath={.spec.template.spec.containers[0].image} {.metadata.annotations.deployment\\.kubernetes\\.io/revision}",
    ];
    assert_eq!(ok(k, &image, None), "nginx:1.26 3");
    let images = [
        "get",
        "pods",
        "-l",
        "app=web",
        "--field-selector=status.phase=Running",
        "-o",
        "jsonpath={.items[*].spec.containers[0].image}",
    ];
    // The old Pods go once their grace period (30 s, one on a clock 30 times as fast)
    // is over.
    let start = std::time::Instant::now();
    loop {
        let running = ok(k, &images, None);
        if running.split(' ').all(|i| i == "nginx:1.26") {
            break;
        }
        assert!(start.elapsed().as_secs() < 30, "{running}");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }

    // A Job's Pods complete on the simulated Nodes.
    ok(k, &["create", "job", "x", "--image=busybox"], None);
    let waited = ok(
        k,
        &["wait", "--for=condition=complete", "job/x", "--timeout=60s"],
        None,
    );
    assert!(waited.contains("condition met"), "{waited}");
    let succeeded = ok(
        k,
        &["get", "job", "x", "-o", "jsonpath={.status.succeeded}"],
        None,
    );
    assert_eq!(succeeded, "1");

    // `kubectl drain` cordons a Node and evicts its Pods through `pods/eviction`; their
    // kubelet ends them, and the Deployment's Pods come back on the other Nodes.
    let node = ok(
        k,
        &[
            "get",
            "pods",
            "-l",
            "app=web",
            "-o",
            "jsonpath={.items[0].spec.nodeName}",
        ],
        None,
    );
    let drained = ok(
        k,
        &["drain", &node, "--ignore-daemonsets", "--timeout=60s"],
        None,
    );
    assert!(drained.contains("evicted"), "{drained}");
    assert!(
        drained.contains(&format!("node/{node} drained")),
        "{drained}"
    );
    let cordoned = ok(k, &["get", "node", &node, "--no-headers"], None);
    assert!(cordoned.contains("SchedulingDisabled"), "{cordoned}");
    let status = ok(
        k,
        &["rollout", "status", "deploy/web", "--timeout=60s"],
        None,
    );
    assert!(status.contains("successfully rolled out"), "{status}");
    let on_node = [
        "get",
        "pods",
        "--field-selector",
        &format!("spec.nodeName={node}"),
        "-o",
        "name",
    ];
    assert_eq!(ok(k, &on_node, None), "");
    Ok(())
}
