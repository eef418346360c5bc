//! The servers the controllers' tests run against, with the controllers named running:
//! the in-process server always, and the real kube-apiserver (with etcd) where the
//! oracle built it for the release under test (`oracle/binaries.rs`; or the binaries
//! `ENVTEST_KUBE_APISERVER` and `ENVTEST_ETCD` name). Where either is absent the
//! kube-apiserver half is skipped with a note, and fails under CI unless
//! `K8S_ORACLE_UNAVAILABLE` is set.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::future::Future;
use std::time::Duration;

use controller_runtime::client::Client;
use controller_runtime::envtest::{Binaries, Environment};

/// `against_both!(#[tokio::test(...)] name, "controllers")`: runs
/// `async fn name(env: Environment, client: Client)` with those controllers running
/// as two tests, `name::in_process` and `name::kube_apiserver`.
macro_rules! against_both {
    ($(#[$attr:meta])* $name:ident, $controllers:expr) => {
        mod $name {
            $(#[$attr])*
            async fn in_process() {
                let (env, client) = crate::servers::in_process($controllers).await;
                super::$name(env, client).await;
            }
            $(#[$attr])*
            async fn kube_apiserver() {
                if let Some((env, client)) = crate::servers::kube_apiserver($controllers).await {
                    super::$name(env, client).await;
                }
            }
        }
    };
}

/// `against_both_with!(#[tokio::test(...)] name, options)`: as [`against_both!`], with
/// the controller manager's [`Options`](controller_manager::Options) given whole (the
/// simulated Nodes, the clock).
macro_rules! against_both_with {
    ($(#[$attr:meta])* $name:ident, $options:expr) => {
        mod $name {
            $(#[$attr])*
            async fn in_process() {
                let (env, client) = crate::servers::in_process_with($options).await;
                super::$name(env, client).await;
            }
            $(#[$attr])*
            async fn kube_apiserver() {
                if let Some((env, client)) = crate::servers::kube_apiserver_with($options).await {
                    super::$name(env, client).await;
                }
            }
        }
    };
}

fn options(controllers: &str) -> controller_manager::Options {
    controller_manager::Options::new()
        .controllers(controllers)
        .unwrap()
}

/// The in-process server with `controllers` (`--controllers` syntax) running.
pub async fn in_process(controllers: &str) -> (Environment, Client) {
    in_process_with(options(controllers)).await
}

/// The in-process server with the controller manager `options` describe.
pub async fn in_process_with(options: controller_manager::Options) -> (Environment, Client) {
    let env = Environment::builder().with(options).start().await.unwrap();
    let client = Client::new(env.config(), env.scheme()).unwrap();
    (env, client)
}

/// The real kube-apiserver and etcd with `controllers` running, or `None` (with a note)
/// where they are not there.
pub async fn kube_apiserver(controllers: &str) -> Option<(Environment, Client)> {
    kube_apiserver_with(options(controllers)).await
}

/// The real kube-apiserver and etcd with the controller manager `options` describe, or
/// `None` where they are not there.
pub async fn kube_apiserver_with(
    options: controller_manager::Options,
) -> Option<(Environment, Client)> {
    let env = Environment::builder()
        .binaries(binaries()?)
        .with(options)
        .start()
        .await
        .unwrap();
    let client = Client::new(env.config(), env.scheme()).unwrap();
    Some((env, client))
}

fn binaries() -> Option<Binaries> {
    use crate::oracle_binaries::built;
    Some(Binaries {
        kube_apiserver: built("kube-apiserver", Some("ENVTEST_KUBE_APISERVER"))?,
        etcd: built("etcd", Some("ENVTEST_ETCD"))?,
    })
}

/// Polls `check` until it gives a value, for up to 60 s.
pub async fn until<T, F: Future<Output = Option<T>>>(what: &str, check: impl Fn() -> F) -> T {
    for _ in 0..6000 {
        if let Some(value) = check().await {
            return value;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("timed out waiting for {what}");
}
