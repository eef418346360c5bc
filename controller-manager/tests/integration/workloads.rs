//! The ReplicaSet and Deployment controllers on simulated Nodes.
use controller_runtime::client::{Client, ListOptions, ObjectKey, Patch};
use controller_runtime::envtest::Environment;
use k8s_types::apps::v1::{Deployment, ReplicaSet};
use k8s_types::core::v1::Pod;
use serde_json::json;

use crate::servers::until;

fn deployment(replicas: i32, image: &str, strategy: serde_json::Value) -> Deployment {
    serde_json::from_value(json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "default"},
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": {"app": "web"}},
            "strategy": strategy,
            "template": {
                "metadata": {"labels": {"app": "web"}},
                "spec": {"terminationGracePeriodSeconds": 5, "containers": [{"name": "web", "image": image}]},
            },
        },
    }))
    .unwrap()
}

async fn get(client: &Client) -> Deployment {
    client.get(&ObjectKey::new("default", "web")).await.unwrap()
}

/// What `kubectl rollout status` waits for (its `DeploymentStatusViewer`).
fn rolled_out(d: &Deployment) -> bool {
    let want = d.spec.replicas.unwrap_or(1);
    d.status.observed_generation >= d.metadata.generation
        && d.status.updated_replicas == want
        && d.status.replicas == want
        && d.status.available_replicas == want
}

async fn wait_rolled_out(client: &Client) -> Deployment {
    until("the rollout", || async {
        Some(get(client).await).filter(rolled_out)
    })
    .await
}

async fn replica_sets(client: &Client) -> Vec<ReplicaSet> {
    let mut all = client
        .list::<ReplicaSet>(&ListOptions::in_namespace("default"))
        .await
        .unwrap()
        .items;
    all.sort_by_key(|rs| {
        rs.metadata
            .annotations
            .get("deployment.kubernetes.io/revision")
            .cloned()
    });
    all
}

fn revision(meta: &k8s_types::meta::v1::ObjectMeta) -> &str {
    meta.annotations
        .get("deployment.kubernetes.io/revision")
        .map_or("", String::as_str)
}

against_both_with!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    a_deployment_rolls_out_updates_and_rolls_back,
    controller_manager::Options::new()
        .controllers("deployment,replicaset")
        .unwrap()
        .nodes(3)
        .clock(controller_manager::nodes::Clock::scaled(50.0))
);
async fn a_deployment_rolls_out_updates_and_rolls_back(env: Environment, client: Client) {
    let rolling =
        json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1, "maxUnavailable": 0}});
    client
        .create(&deployment(4, "nginx:1.26", rolling), &Default::default())
        .await
        .unwrap();
    let d = wait_rolled_out(&client).await;
    assert_eq!(revision(&d.metadata), "1");
    let available = d
        .status
        .conditions
        .iter()
        .find(|c| c.r#type == "Available")
        .unwrap();
    assert_eq!(
        (available.status.as_str(), available.reason.as_str()),
        ("True", "MinimumReplicasAvailable")
    );
    let progressing = d
        .status
        .conditions
        .iter()
        .find(|c| c.r#type == "Progressing")
        .unwrap();
    assert_eq!(progressing.reason, "NewReplicaSetAvailable");
    let first = replica_sets(&client).await;
    assert_eq!(first.len(), 1);
    let hash = &first[0].spec.template.metadata.labels["pod-template-hash"];
    assert_eq!(first[0].metadata.name, format!("web-{hash}"));
    assert_eq!(
        first[0].metadata.annotations["deployment.kubernetes.io/desired-replicas"],
        "4"
    );
    assert_eq!(
        first[0].metadata.annotations["deployment.kubernetes.io/max-replicas"],
        "5"
    );
    let pods = client
        .list::<Pod>(&ListOptions::in_namespace("default"))
        .await
        .unwrap()
        .items;
    assert_eq!(pods.len(), 4);
    assert!(
        pods.iter()
            .all(|p| p.metadata.labels["pod-template-hash"] == *hash)
    );

    // A new image: a second ReplicaSet takes over, never more than 5 Pods, never fewer
    // than 4 available.
    let patch = json!({"spec": {"template": {"spec": {"containers": [{"name": "web", "image": "nginx:1.27"}]}}}});
    client
        .patch(&d, &Patch::Merge(patch), &Default::default())
        .await
        .unwrap();
    let d = until("the new rollout", || async {
        Some(get(&client).await).filter(|d| revision(&d.metadata) == "2" && rolled_out(d))
    })
    .await;
    assert_eq!(d.status.updated_replicas, 4);
    let sets = replica_sets(&client).await;
    assert_eq!(sets.len(), 2);
    assert_eq!(
        (sets[0].spec.replicas, sets[1].spec.replicas),
        (Some(0), Some(4))
    );
    assert_eq!(
        sets[1].spec.template.spec.containers.as_ref().unwrap()[0].image,
        "nginx:1.27"
    );

    // `kubectl rollout undo`: kubectl writes revision 1's template (without its
    // pod-template-hash) into the Deployment; revision 1's ReplicaSet becomes revision 3.
    let mut template = sets[0].spec.template.clone();
    template.metadata.labels.remove("pod-template-hash");
    let undo = json!({"spec": {"template": template}});
    client
        .patch(&d, &Patch::Merge(undo), &Default::default())
        .await
        .unwrap();
    let d = until("the rollback", || async {
        Some(get(&client).await).filter(|d| revision(&d.metadata) == "3" && rolled_out(d))
    })
    .await;
    let sets = replica_sets(&client).await;
    assert_eq!(sets.len(), 2);
    let back = sets
        .iter()
        .find(|rs| rs.metadata.uid == first[0].metadata.uid)
        .unwrap();
    assert_eq!(revision(&back.metadata), "3");
    assert_eq!(
        back.metadata.annotations["deployment.kubernetes.io/revision-history"],
        "1"
    );
    assert_eq!(back.spec.replicas, Some(4));
    assert_eq!(d.status.replicas, 4);

    // Scaling alone resizes the one active ReplicaSet.
    let scale = json!({"spec": {"replicas": 6}});
    client
        .patch(&d, &Patch::Merge(scale), &Default::default())
        .await
        .unwrap();
    wait_rolled_out(&client).await;
    let sets = replica_sets(&client).await;
    let back = sets
        .iter()
        .find(|rs| rs.metadata.uid == first[0].metadata.uid)
        .unwrap();
    assert_eq!(back.spec.replicas, Some(6));
    env.stop().await;
}

against_both_with!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    a_recreate_deployment_replaces_every_pod,
    controller_manager::Options::new()
        .controllers("deployment,replicaset")
        .unwrap()
        .nodes(2)
        .clock(controller_manager::nodes::Clock::scaled(50.0))
);
async fn a_recreate_deployment_replaces_every_pod(env: Environment, client: Client) {
    client
        .create(
            &deployment(3, "nginx:1.26", json!({"type": "Recreate"})),
            &Default::default(),
        )
        .await
        .unwrap();
    let d = wait_rolled_out(&client).await;
    let patch = json!({"spec": {"template": {"spec": {"containers": [{"name": "web", "image": "nginx:1.27"}]}}}});
    client
        .patch(&d, &Patch::Merge(patch), &Default::default())
        .await
        .unwrap();
    until("the recreate", || async {
        Some(get(&client).await).filter(|d| revision(&d.metadata) == "2" && rolled_out(d))
    })
    .await;
    let pods = client
        .list::<Pod>(&ListOptions::in_namespace("default"))
        .await
        .unwrap()
        .items;
    let images: Vec<&str> = pods
        .iter()
        .map(|p| p.spec.containers.as_ref().unwrap()[0].image.as_str())
        .collect();
    assert_eq!(images, ["nginx:1.27"; 3]);
    env.stop().await;
}
