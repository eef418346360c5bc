//! The root CA certificate publisher against the in-process server (plain HTTP: no CA,
//! so an empty `ca.crt`, as Go publishes then) and the real kube-apiserver (its CA).

use controller_manager::rootcacertpublisher::{
    CA_CERT_KEY, DESCRIPTION, DESCRIPTION_ANNOTATION, ROOT_CA_CERT_CONFIG_MAP_NAME,
};
use controller_runtime::client::{Client, ObjectKey};
use controller_runtime::envtest::Environment;
use k8s_types::core::v1::{ConfigMap, Namespace};

async fn published(client: &Client, ns: &str) -> Option<ConfigMap> {
    let key = ObjectKey::new(ns, ROOT_CA_CERT_CONFIG_MAP_NAME);
    client.get(&key).await.ok()
}

fn ca(cm: &ConfigMap) -> &str {
    cm.data.get(CA_CERT_KEY).map_or("<none>", String::as_str)
}

against_both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    every_namespace_gets_the_ca_put_back_when_changed_or_deleted,
    "root-ca-cert-publisher"
);
async fn every_namespace_gets_the_ca_put_back_when_changed_or_deleted(
    env: Environment,
    client: Client,
) {
    let want = String::from_utf8(env.config().tls.ca_data.clone().unwrap_or_default()).unwrap();
    assert_eq!(want.is_empty(), !env.is_external());
    crate::servers::until("kube-system's", || published(&client, "kube-system")).await;

    let mut ns = Namespace::default();
    ns.metadata.name = "team-a".into();
    client.create(&ns, &Default::default()).await.unwrap();
    let cm = crate::servers::until("team-a's", || published(&client, "team-a")).await;
    assert_eq!(ca(&cm), want);
    assert_eq!(cm.data.len(), 1);
    assert_eq!(cm.metadata.annotations[DESCRIPTION_ANNOTATION], DESCRIPTION);

    // Changed: put back (data and annotation).
    let mut changed = cm.clone();
    changed.data.insert(CA_CERT_KEY.into(), "tampered".into());
    changed.data.insert("extra".into(), "x".into());
    changed.metadata.annotations.clear();
    client.update(&changed, &Default::default()).await.unwrap();
    let restored = crate::servers::until("the CA put back", || async {
        published(&client, "team-a").await.filter(|c| {
            ca(c) == want
                && c.data.len() == 1
                && c.metadata.annotations.contains_key(DESCRIPTION_ANNOTATION)
        })
    })
    .await;
    assert_eq!(restored.metadata.uid, cm.metadata.uid);

    // Deleted: created again.
    client.delete(&restored, &Default::default()).await.unwrap();
    let again = crate::servers::until("a new one", || async {
        published(&client, "team-a")
            .await
            .filter(|c| c.metadata.uid != cm.metadata.uid)
    })
    .await;
    assert_eq!(ca(&again), want);

    // Other ConfigMaps are not touched.
    let mut other = ConfigMap::default();
    (other.metadata.namespace, other.metadata.name) = ("team-a".into(), "app".into());
    other.data.insert(CA_CERT_KEY.into(), "mine".into());
    client.create(&other, &Default::default()).await.unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let mine: ConfigMap = client.get(&ObjectKey::new("team-a", "app")).await.unwrap();
    assert_eq!(ca(&mine), "mine");
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_root_ca_option_is_published_instead_of_the_clients() {
    let pem = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
    let options = controller_manager::Options::new()
        .controllers("root-ca-cert-publisher")
        .unwrap()
        .root_ca(pem);
    let env = Environment::builder().with(options).start().await.unwrap();
    let client = Client::new(env.config(), env.scheme()).unwrap();
    let cm = crate::servers::until("default's", || published(&client, "default")).await;
    assert_eq!(ca(&cm), pem);
    env.stop().await;
}
