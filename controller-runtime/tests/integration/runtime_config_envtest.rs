//! envtest's `runtime_config`: by default the API versions kube-apiserver serves by
//! default (GA ones, as Go's envtest, which passes no `--runtime-config`), and the beta
//! or alpha versions the flag turns on, on the in-process server and the real
//! kube-apiserver alike; a value kube-apiserver refuses is refused in-process too.
#![allow(clippy::unwrap_used, clippy::panic)]

use controller_runtime::client::Client;
use controller_runtime::envtest::{Environment, EnvtestError};

// A beta version both releases have and serve only when asked (storage.k8s.io/v1beta1
// has no resource left to serve in 1.37).
const GROUP: &str = "coordination.k8s.io";
const ENABLE: &str = "coordination.k8s.io/v1beta1=true";

/// The versions of [`GROUP`] the environment's discovery lists.
async fn group_versions(env: Environment) -> Vec<String> {
    let client = Client::new(env.config(), env.scheme()).unwrap();
    let groups = client.discovery().server_groups().await.unwrap();
    let versions = groups
        .into_iter()
        .find(|g| g.name == GROUP)
        .and_then(|g| g.versions)
        .unwrap_or_default()
        .into_iter()
        .map(|v| v.version)
        .collect();
    env.stop().await;
    versions
}

#[tokio::test]
async fn in_process_serves_ga_versions_unless_runtime_config_says_more() {
    let default = Environment::start().await.unwrap();
    assert_eq!(group_versions(default).await, ["v1"]);
    let enabled = Environment::builder()
        .runtime_config(ENABLE)
        .start()
        .await
        .unwrap();
    assert_eq!(group_versions(enabled).await, ["v1", "v1beta1"]);
    match Environment::builder()
        .runtime_config("apps/v7=true")
        .start()
        .await
    {
        Err(EnvtestError::RuntimeConfig(e)) => assert_eq!(
            e.to_string(),
            "group version apps/v7 that has not been registered"
        ),
        other => panic!("not refused: {other:?}"),
    }
}

#[tokio::test]
async fn kube_apiserver_gets_the_runtime_config() {
    let Some(default) = crate::servers::kube_apiserver().await else {
        return;
    };
    assert_eq!(group_versions(default).await, ["v1"]);
    let Some(binaries) = crate::servers::binaries() else {
        return;
    };
    let enabled = Environment::builder()
        .binaries(binaries)
        .runtime_config(ENABLE)
        .start()
        .await
        .unwrap();
    assert_eq!(group_versions(enabled).await, ["v1", "v1beta1"]);
}
