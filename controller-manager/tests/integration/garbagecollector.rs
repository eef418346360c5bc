//! The garbage collector against the in-process server and the real kube-apiserver:
//! background, foreground and orphan propagation, dangling references, a cluster-scoped
//! owner of a namespaced dependent, and the invalid reverse.

use std::time::Duration;

use apimachinery::apis::meta::v1::OwnerReference;
use controller_runtime::client::{Client, DeleteOptions, ObjectKey, PropagationPolicy};
use controller_runtime::envtest::Environment;
use k8s_types::core::v1::{ConfigMap, Event};
use k8s_types::rbac::v1::ClusterRole;

fn owned_by(api_version: &str, kind: &str, name: &str, uid: &str) -> OwnerReference {
    OwnerReference {
        api_version: api_version.into(),
        kind: kind.into(),
        name: name.into(),
        uid: uid.into(),
        controller: Some(true),
        block_owner_deletion: Some(true),
    }
}

async fn config_map(client: &Client, name: &str, owners: Vec<OwnerReference>) -> ConfigMap {
    let mut cm = ConfigMap::default();
    (cm.metadata.namespace, cm.metadata.name) = ("default".into(), name.into());
    cm.metadata.owner_references = owners;
    client.create(&cm, &Default::default()).await.unwrap()
}

async fn get(client: &Client, name: &str) -> Option<ConfigMap> {
    client.get(&ObjectKey::new("default", name)).await.ok()
}

async fn gone(client: &Client, name: &str) {
    crate::servers::until(name, || async {
        get(client, name).await.is_none().then_some(())
    })
    .await;
}

fn policy(p: PropagationPolicy) -> DeleteOptions {
    DeleteOptions {
        propagation_policy: Some(p),
        ..Default::default()
    }
}

/// An owner ConfigMap with two dependents.
async fn family(client: &Client, owner: &str) -> (ConfigMap, [ConfigMap; 2]) {
    let o = config_map(client, owner, vec![]).await;
    let r = owned_by("v1", "ConfigMap", owner, &o.metadata.uid);
    let a = config_map(client, &format!("{owner}-a"), vec![r.clone()]).await;
    let b = config_map(client, &format!("{owner}-b"), vec![r]).await;
    (o, [a, b])
}

against_both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    background_foreground_and_orphan_propagation,
    "garbagecollector"
);
async fn background_foreground_and_orphan_propagation(env: Environment, client: Client) {
    // Background: the owner goes, then its dependents.
    let (owner, _) = family(&client, "bg").await;
    client
        .delete(&owner, &policy(PropagationPolicy::Background))
        .await
        .unwrap();
    gone(&client, "bg-a").await;
    gone(&client, "bg-b").await;

    // Foreground: the owner waits, marked, for its dependents.
    let (owner, _) = family(&client, "fg").await;
    client
        .delete(&owner, &policy(PropagationPolicy::Foreground))
        .await
        .unwrap();
    gone(&client, "fg-a").await;
    gone(&client, "fg-b").await;
    gone(&client, "fg").await;

    // Orphan: the dependents stay, without the reference.
    let (owner, _) = family(&client, "or").await;
    client
        .delete(&owner, &policy(PropagationPolicy::Orphan))
        .await
        .unwrap();
    gone(&client, "or").await;
    for name in ["or-a", "or-b"] {
        let orphan = crate::servers::until("the reference removed", || async {
            get(&client, name)
                .await
                .filter(|c| c.metadata.owner_references.is_empty())
        })
        .await;
        assert!(orphan.metadata.deletion_timestamp.is_none());
    }
    // Still there a while later.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(get(&client, "or-a").await.is_some());
    env.stop().await;
}

against_both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    dangling_and_cross_scope_references,
    "garbagecollector"
);
async fn dangling_and_cross_scope_references(env: Environment, client: Client) {
    // An owner that never existed (uid unknown): the dependent goes.
    config_map(
        &client,
        "dangling",
        vec![owned_by(
            "v1",
            "ConfigMap",
            "nobody",
            "4f9a5c1e-0000-4000-8000-000000000001",
        )],
    )
    .await;
    gone(&client, "dangling").await;

    // An owner of that name, but another uid: absent too.
    let impostor = config_map(&client, "impostor", vec![]).await;
    config_map(
        &client,
        "fooled",
        vec![owned_by(
            "v1",
            "ConfigMap",
            "impostor",
            "4f9a5c1e-0000-4000-8000-000000000002",
        )],
    )
    .await;
    gone(&client, "fooled").await;
    assert!(get(&client, &impostor.metadata.name).await.is_some());

    // Two owners, one of them gone: the reference to it is removed, the object stays.
    let (alive, _) = family(&client, "alive").await;
    config_map(
        &client,
        "two-owners",
        vec![
            owned_by("v1", "ConfigMap", "alive", &alive.metadata.uid),
            OwnerReference {
                controller: None,
                ..owned_by(
                    "v1",
                    "ConfigMap",
                    "nobody",
                    "4f9a5c1e-0000-4000-8000-000000000003",
                )
            },
        ],
    )
    .await;
    let kept = crate::servers::until("the dangling reference removed", || async {
        get(&client, "two-owners")
            .await
            .filter(|c| c.metadata.owner_references.len() == 1)
    })
    .await;
    assert_eq!(kept.metadata.owner_references[0].name, "alive");

    // A cluster-scoped owner of a namespaced dependent.
    let mut role = ClusterRole::default();
    role.metadata.name = "gc-owner".into();
    let role = client.create(&role, &Default::default()).await.unwrap();
    config_map(
        &client,
        "of-a-role",
        vec![owned_by(
            "rbac.authorization.k8s.io/v1",
            "ClusterRole",
            "gc-owner",
            &role.metadata.uid,
        )],
    )
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(get(&client, "of-a-role").await.is_some());
    client.delete(&role, &Default::default()).await.unwrap();
    gone(&client, "of-a-role").await;

    // A cluster-scoped dependent naming a namespaced owner: invalid, left alone, reported.
    let mut bad = ClusterRole::default();
    bad.metadata.name = "gc-bad-child".into();
    bad.metadata.owner_references = vec![owned_by("v1", "ConfigMap", "alive", &alive.metadata.uid)];
    let bad = client.create(&bad, &Default::default()).await.unwrap();
    let event = crate::servers::until("the OwnerRefInvalidNamespace event", || async {
        let events = client
            .list::<Event>(&controller_runtime::client::ListOptions::in_namespace(
                "default",
            ))
            .await
            .ok()?;
        events.items.into_iter().find(|e| {
            e.reason == "OwnerRefInvalidNamespace" && e.involved_object.uid == bad.metadata.uid
        })
    })
    .await;
    assert_eq!(event.r#type, "Warning");
    assert_eq!(
        event.message,
        format!(
            "ownerRef [v1/ConfigMap, namespace: , name: alive, uid: {}] does not exist in namespace \"\"",
            alive.metadata.uid
        )
    );
    assert_eq!(event.source.component, "garbage-collector-controller");
    let still: ClusterRole = client
        .get(&ObjectKey::cluster("gc-bad-child"))
        .await
        .unwrap();
    assert!(still.metadata.deletion_timestamp.is_none());
    env.stop().await;
}
