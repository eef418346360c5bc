use serde_json::json;

use super::super::tests::{Fixture, Target, object_json};
use super::*;

const POD: Target<'static> = ("", "v1", "Pod", "pods");
const ACCOUNT: Target<'static> = ("", "v1", "ServiceAccount", "serviceaccounts");

fn pod(spec: Value) -> Value {
    json!({"metadata": {"name": "web", "namespace": "ns"}, "spec": spec})
}

async fn admit(fixture: &Fixture, operation: Operation, pod: Value) -> Result<Value, StatusError> {
    let plugin = ServiceAccount::for_stores(&fixture.stores).unwrap();
    let mut attributes = fixture.attributes(operation, POD, "", "ns", pod);
    MutationInterface::admit(&plugin, &mut attributes).await?;
    ValidationInterface::validate(&plugin, &attributes).await?;
    Ok(object_json(&attributes))
}

async fn with_default_account(account: Value) -> Fixture {
    let fixture = Fixture::new();
    fixture.create(ACCOUNT, "ns", account).await;
    fixture
}

#[tokio::test]
async fn a_pod_without_its_account_is_refused_as_go_refuses_it() {
    let fixture = Fixture::new();
    let err = admit(
        &fixture,
        Operation::Create,
        pod(json!({"containers": [{"name": "c", "image": "x"}]})),
    )
    .await
    .unwrap_err();
    assert_eq!(err.status.code, 403);
    assert_eq!(
        err.status.message,
        r#"pods "web" is forbidden: error looking up service account ns/default: serviceaccount "default" not found"#
    );
    let named =
        pod(json!({"serviceAccountName": "builder", "containers": [{"name": "c", "image": "x"}]}));
    let err = admit(&fixture, Operation::Create, named).await.unwrap_err();
    assert!(
        err.status.message.ends_with(
            r#"error looking up service account ns/builder: serviceaccount "builder" not found"#
        ),
        "{}",
        err.status.message
    );
}

#[tokio::test]
async fn every_container_mounts_the_token_volume_but_ephemeral_ones() {
    let fixture = with_default_account(json!({"metadata": {"name": "default"},
        "imagePullSecrets": [{"name": "registry"}]}))
    .await;
    let spec = json!({
        "initContainers": [{"name": "init", "image": "x"}],
        "containers": [
            {"name": "a", "image": "x"},
            {"name": "b", "image": "x", "volumeMounts": [{"name": "own", "mountPath": DEFAULT_API_TOKEN_MOUNT_PATH}]}
        ],
        "volumes": [{"name": "own", "emptyDir": {}}]
    });
    let out = admit(&fixture, Operation::Create, pod(spec)).await.unwrap();
    let spec = &out["spec"];
    assert_eq!(spec["serviceAccountName"], "default");
    assert_eq!(spec["serviceAccount"], "default");
    assert_eq!(spec["imagePullSecrets"], json!([{"name": "registry"}]));
    let volume = &spec["volumes"][1];
    let name = volume["name"].as_str().unwrap();
    assert!(
        name.starts_with("kube-api-access-") && name.len() == 21,
        "{name}"
    );
    assert_eq!(volume["projected"], token_volume_source());
    assert_eq!(volume["projected"]["defaultMode"], 420);
    let mount = json!({"name": name, "readOnly": true, "mountPath": DEFAULT_API_TOKEN_MOUNT_PATH});
    assert_eq!(spec["initContainers"][0]["volumeMounts"], json!([mount]));
    assert_eq!(spec["containers"][0]["volumeMounts"], json!([mount]));
    assert_eq!(spec["containers"][1]["volumeMounts"][0]["name"], "own");
    assert_eq!(
        spec["containers"][1]["volumeMounts"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

#[tokio::test]
async fn the_pods_word_on_automounting_comes_before_the_accounts() {
    let fixture = with_default_account(json!({"metadata": {"name": "default"},
        "automountServiceAccountToken": false}))
    .await;
    let containers = json!([{"name": "c", "image": "x"}]);
    let out = admit(
        &fixture,
        Operation::Create,
        pod(json!({"containers": containers})),
    )
    .await
    .unwrap();
    assert_eq!(out["spec"].get("volumes"), None);
    let opted_in = json!({"automountServiceAccountToken": true, "containers": containers});
    let out = admit(&fixture, Operation::Create, pod(opted_in))
        .await
        .unwrap();
    assert_eq!(out["spec"]["volumes"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn a_mirror_pod_is_left_alone_and_may_reference_no_account_or_secret() {
    let fixture = Fixture::new();
    let mirror = |spec: Value| {
        json!({"metadata": {"name": "static", "namespace": "ns",
            "annotations": {MIRROR_POD_ANNOTATION: "x"}}, "spec": spec})
    };
    let plain = json!({"containers": [{"name": "c", "image": "x"}]});
    let out = admit(&fixture, Operation::Create, mirror(plain.clone()))
        .await
        .unwrap();
    assert_eq!(out["spec"].get("serviceAccountName"), None);
    let cases = [
        (
            json!({"serviceAccountName": "x", "containers": [{"name": "c", "image": "x"}]}),
            "a mirror pod may not reference service accounts",
        ),
        (
            json!({"containers": [{"name": "c", "image": "x",
                "envFrom": [{"secretRef": {"name": "s"}}]}]}),
            "a mirror pod may not reference secrets",
        ),
        (
            json!({"containers": [{"name": "c", "image": "x"}],
                "volumes": [{"name": "t", "projected": {"sources": [{"serviceAccountToken": {"path": "t"}}]}}]}),
            "a mirror pod may not use ServiceAccountToken volume projections",
        ),
    ];
    for (spec, message) in cases {
        let err = admit(&fixture, Operation::Create, mirror(spec))
            .await
            .unwrap_err();
        assert!(
            err.status.message.ends_with(message),
            "{}",
            err.status.message
        );
    }
}

#[tokio::test]
async fn an_enforcing_account_limits_the_secrets_its_pods_reference() {
    let fixture = with_default_account(json!({"metadata": {"name": "default",
        "annotations": {ENFORCE_MOUNTABLE_SECRETS_ANNOTATION: "true"}},
        "secrets": [{"name": "mine"}]}))
    .await;
    let env = |secret: &str| {
        pod(
            json!({"automountServiceAccountToken": false, "containers": [{"name": "c", "image": "x",
            "env": [{"name": "TOKEN", "valueFrom": {"secretKeyRef": {"name": secret, "key": "k"}}}]}]}),
        )
    };
    admit(&fixture, Operation::Create, env("mine"))
        .await
        .unwrap();
    let err = admit(&fixture, Operation::Create, env("theirs"))
        .await
        .unwrap_err();
    assert!(
        err.status.message.ends_with(
            r#"container c with envVar TOKEN referencing secret.secretName="theirs" is not allowed because service account default does not reference that secret"#
        ),
        "{}",
        err.status.message
    );
}

#[tokio::test]
async fn ephemeral_containers_of_an_enforcing_account_are_checked_on_update() {
    let fixture = with_default_account(json!({"metadata": {"name": "default",
        "annotations": {ENFORCE_MOUNTABLE_SECRETS_ANNOTATION: "true"}}}))
    .await;
    let plugin = ServiceAccount::for_stores(&fixture.stores).unwrap();
    let updated = pod(json!({"serviceAccountName": "default",
        "containers": [{"name": "c", "image": "x"}],
        "ephemeralContainers": [{"name": "debug", "image": "x", "envFrom": [{"secretRef": {"name": "s"}}]}]}));
    let attributes =
        fixture.attributes(Operation::Update, POD, "ephemeralcontainers", "ns", updated);
    let err = ValidationInterface::validate(&plugin, &attributes)
        .await
        .unwrap_err();
    assert!(
        err.status.message.ends_with(
            r#"ephemeral container debug with envFrom referencing secret.secretName="s" is not allowed because service account default does not reference that secret"#
        ),
        "{}",
        err.status.message
    );
    // Other updates are not looked at.
    let attributes = fixture.attributes(
        Operation::Update,
        POD,
        "",
        "ns",
        pod(json!({"containers": []})),
    );
    ValidationInterface::validate(&plugin, &attributes)
        .await
        .unwrap();
}
