//! The serviceaccount controller against the in-process server.
use controller_runtime::client::{Client, ObjectKey};
use controller_runtime::envtest::Environment;
use k8s_types::core::v1::{Namespace, ServiceAccount};

async fn default_sa(client: &Client, ns: &str) -> Option<ServiceAccount> {
    client.get(&ObjectKey::new(ns, "default")).await.ok()
}

against_both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    every_namespace_gets_a_default_service_account_recreated_when_deleted,
    "serviceaccount"
);
async fn every_namespace_gets_a_default_service_account_recreated_when_deleted(
    env: Environment,
    client: Client,
) {
    // Namespaces that existed before the controller started.
    crate::servers::until("kube-system's", || default_sa(&client, "kube-system")).await;
    crate::servers::until("default's", || default_sa(&client, "default")).await;

    let mut ns = Namespace::default();
    ns.metadata.name = "team-a".into();
    client.create(&ns, &Default::default()).await.unwrap();
    let sa = crate::servers::until("team-a's", || default_sa(&client, "team-a")).await;
    assert!(sa.secrets.is_empty() && sa.metadata.labels.is_empty());

    client.delete(&sa, &Default::default()).await.unwrap();
    let again = crate::servers::until("the new one", || async {
        default_sa(&client, "team-a")
            .await
            .filter(|s| s.metadata.uid != sa.metadata.uid)
    })
    .await;
    assert_eq!(again.metadata.name, "default");

    // Other ServiceAccounts are left alone.
    let mut other = ServiceAccount::default();
    (other.metadata.namespace, other.metadata.name) = ("team-a".into(), "builder".into());
    let other = client.create(&other, &Default::default()).await.unwrap();
    client.delete(&other, &Default::default()).await.unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let gone: Result<ServiceAccount, _> = client.get(&ObjectKey::new("team-a", "builder")).await;
    assert!(gone.unwrap_err().is_not_found());
    env.stop().await;
}

against_both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    without_the_controller_nothing_is_created,
    "*,-serviceaccount"
);
async fn without_the_controller_nothing_is_created(env: Environment, client: Client) {
    let mut ns = Namespace::default();
    ns.metadata.name = "quiet".into();
    client.create(&ns, &Default::default()).await.unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert!(default_sa(&client, "quiet").await.is_none());
    env.stop().await;
}
