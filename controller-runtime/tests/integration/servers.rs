//! The servers the envtest tests run against: the in-process one always, and the real
//! kube-apiserver (with etcd) where the oracle built it, so the same assertions hold
//! on both and a difference is a bug of ours (client or server).
//!
//! kube-apiserver and etcd are the oracle's build for the release under test
//! (`oracle/binaries.rs`; oracle/build.sh, which needs Go), or the binaries
//! `ENVTEST_KUBE_APISERVER` and `ENVTEST_ETCD` name. Not Debian's etcd 3.4.23:
//! kube-apiserver 1.36 needs etcd's watch progress requests (3.4.31 and later) to serve a
//! watch without a `resourceVersion`, which fails with "Too large resource version" on
//! it. Where either binary is absent the kube-apiserver half of each test is skipped with
//! a note, and fails under CI unless `K8S_ORACLE_UNAVAILABLE` is set.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use controller_runtime::envtest::{Binaries, Environment};

/// `against_both!(#[tokio::test(...)] name)`: runs `async fn name(env: Environment)`
/// as two tests, `name::in_process` and `name::kube_apiserver`.
macro_rules! against_both {
    ($(#[$attr:meta])* $name:ident) => {
        mod $name {
            $(#[$attr])*
            async fn in_process() {
                super::$name(crate::servers::in_process().await).await;
            }
            $(#[$attr])*
            async fn kube_apiserver() {
                if let Some(env) = crate::servers::kube_apiserver().await {
                    super::$name(env).await;
                }
            }
        }
    };
}

/// The in-process server.
pub async fn in_process() -> Environment {
    Environment::start().await.unwrap()
}

/// The real kube-apiserver and etcd, or `None` (with a note) where they are not there.
pub async fn kube_apiserver() -> Option<Environment> {
    let binaries = binaries()?;
    Some(
        Environment::builder()
            .binaries(binaries)
            .start()
            .await
            .unwrap(),
    )
}

pub fn binaries() -> Option<Binaries> {
    use crate::oracle_binaries::built;
    Some(Binaries {
        kube_apiserver: built("kube-apiserver", Some("ENVTEST_KUBE_APISERVER"))?,
        etcd: built("etcd", Some("ENVTEST_ETCD"))?,
    })
}
