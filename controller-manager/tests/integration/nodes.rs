//! Simulated Nodes, the scheduler and the kubelet stand-in.
use controller_runtime::client::{Client, DeleteOptions, ListOptions, ObjectKey};
use controller_runtime::envtest::Environment;
use k8s_types::core::v1::{Binding, Node, Pod};
use serde_json::json;

use crate::servers::until;

pub fn pod(name: &str, spec: serde_json::Value) -> Pod {
    let mut spec = spec;
    if spec.get("containers").is_none() {
        spec["containers"] = json!([{"name": "app", "image": "nginx:1.27"}]);
    }
    serde_json::from_value(json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": "default"},
        "spec": spec,
    }))
    .unwrap()
}

async fn get(client: &Client, name: &str) -> Pod {
    client.get(&ObjectKey::new("default", name)).await.unwrap()
}

fn condition<'a>(pod: &'a Pod, kind: &str) -> Option<&'a k8s_types::core::v1::PodCondition> {
    pod.status.conditions.iter().find(|c| c.r#type == kind)
}

against_both_with!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    pods_are_scheduled_started_and_deleted_gracefully,
    controller_manager::Options::new()
        .nodes(3)
        .clock(controller_manager::nodes::Clock::scaled(60.0))
);
async fn pods_are_scheduled_started_and_deleted_gracefully(env: Environment, client: Client) {
    let nodes = client.list::<Node>(&ListOptions::default()).await.unwrap();
    let names: Vec<&str> = nodes
        .items
        .iter()
        .map(|n| n.metadata.name.as_str())
        .collect();
    assert_eq!(names, ["kapi-node-0", "kapi-node-1", "kapi-node-2"]);
    let ready = nodes.items[0]
        .status
        .conditions
        .iter()
        .find(|c| c.r#type == "Ready");
    assert_eq!(ready.map(|c| c.status.as_str()), Some("True"));

    client
        .create(
            &pod("web", json!({"terminationGracePeriodSeconds": 30})),
            &Default::default(),
        )
        .await
        .unwrap();
    let running = until("web running", || async {
        Some(get(&client, "web").await).filter(|p| p.status.phase == "Running")
    })
    .await;
    let node = nodes
        .items
        .iter()
        .find(|n| n.metadata.name == running.spec.node_name)
        .unwrap();
    let cidr = node.spec.pod_cidr.trim_end_matches("0/24");
    assert!(
        running.status.pod_ip.starts_with(cidr),
        "{} in {cidr}",
        running.status.pod_ip
    );
    assert_eq!(running.status.pod_ips[0].ip, running.status.pod_ip);
    assert_eq!(running.status.host_ip, node.status.addresses[0].address);
    assert_eq!(running.status.host_ips[0].ip, running.status.host_ip);
    assert_eq!(running.status.qos_class, "BestEffort");
    let kinds: Vec<&str> = running
        .status
        .conditions
        .iter()
        .map(|c| c.r#type.as_str())
        .collect();
    assert_eq!(
        kinds,
        [
            "PodReadyToStartContainers",
            "Initialized",
            "Ready",
            "ContainersReady",
            "PodScheduled"
        ]
    );
    let c = &running.status.container_statuses[0];
    assert!(c.ready && c.started == Some(true) && c.restart_count == 0);
    assert!(c.state.running.is_some());

    // A second binding is refused, as Go's BindingREST refuses it.
    let mut binding = Binding::default();
    binding.metadata.name = "web".into();
    binding.metadata.namespace = "default".into();
    binding.target.kind = "Node".into();
    binding.target.name = "kapi-node-0".into();
    let err = client
        .sub_resource("binding")
        .create(&running, &binding, &Default::default())
        .await
        .unwrap_err();
    assert!(err.is_conflict(), "{err}");

    // Deleted with its 30 s grace period, which the clock, 60 times as fast, makes half
    // a second; the Pod stays marked until then.
    client
        .delete(&running, &DeleteOptions::default())
        .await
        .unwrap();
    let marked = get(&client, "web").await;
    assert_eq!(marked.metadata.deletion_grace_period_seconds, Some(30));
    until("web gone", || async {
        let got: Result<Pod, _> = client.get(&ObjectKey::new("default", "web")).await;
        got.err().filter(|e| e.is_not_found())
    })
    .await;
    env.stop().await;
}

against_both_with!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    pods_that_fit_nowhere_are_unschedulable_with_gos_message,
    controller_manager::Options::new().nodes(3)
);
async fn pods_that_fit_nowhere_are_unschedulable_with_gos_message(
    env: Environment,
    client: Client,
) {
    let big = json!({"containers": [{"name": "app", "image": "x", "resources": {"requests": {"cpu": "40"}}}]});
    client
        .create(&pod("big", big), &Default::default())
        .await
        .unwrap();
    client
        .create(
            &pod("picky", json!({"nodeSelector": {"disk": "ssd"}})),
            &Default::default(),
        )
        .await
        .unwrap();
    for (name, message) in [
        ("big", "0/3 nodes are available: 3 Insufficient cpu."),
        (
            "picky",
            "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector.",
        ),
    ] {
        let pending = until(name, || async {
            let p = get(&client, name).await;
            condition(&p, "PodScheduled").is_some().then_some(p)
        })
        .await;
        let c = condition(&pending, "PodScheduled").unwrap();
        assert_eq!(
            (c.status.as_str(), c.reason.as_str(), c.message.as_str()),
            ("False", "Unschedulable", message)
        );
        assert!(pending.spec.node_name.is_empty());
        assert_eq!(pending.status.phase, "Pending");
    }
    // A Pod naming its Node is not scheduled but run there.
    client
        .create(
            &pod("pinned", json!({"nodeName": "kapi-node-2"})),
            &Default::default(),
        )
        .await
        .unwrap();
    let pinned = until("pinned running", || async {
        Some(get(&client, "pinned").await).filter(|p| p.status.phase == "Running")
    })
    .await;
    assert_eq!(pinned.spec.node_name, "kapi-node-2");
    // Filling a Node's CPU leaves the next Pod to the others.
    let half = json!({"nodeSelector": {"kubernetes.io/hostname": "kapi-node-1"},
        "containers": [{"name": "app", "image": "x", "resources": {"requests": {"cpu": "20"}}}]});
    client
        .create(&pod("half-1", half.clone()), &Default::default())
        .await
        .unwrap();
    until("half-1 bound", || async {
        Some(get(&client, "half-1").await).filter(|p| !p.spec.node_name.is_empty())
    })
    .await;
    client
        .create(&pod("half-2", half), &Default::default())
        .await
        .unwrap();
    let refused = until("half-2 refused", || async {
        let p = get(&client, "half-2").await;
        condition(&p, "PodScheduled").map(|c| c.message.clone())
    })
    .await;
    assert_eq!(
        refused,
        "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't match Pod's node affinity/selector."
    );
    env.stop().await;
}
