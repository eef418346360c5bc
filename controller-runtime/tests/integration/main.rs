//! The integration tests of `controller-runtime`, one module per concern, linked as one
//! test binary: every binary links the whole of k8s-types, so one per file cost a link and
//! some hundred megabytes each. Run one concern with `cargo test -p controller-runtime
//! --test integration <module>::`.
//!
//! The `*_envtest` modules and the examples' `*_against_envtest` tests run each test
//! twice (`against_both!`, in `servers`): on the in-process server and on the real
//! kube-apiserver with etcd, where the oracle built them; `NAME::kube_apiserver` runs
//! the second alone.

#[macro_use]
mod servers;
#[path = "../../../oracle/binaries.rs"]
mod oracle_binaries;
/// The release whose oracle programs the tests run (`oracle/binaries.rs`): the one this
/// build of k8s-types has.
const RELEASE_UNDER_TEST: &str = k8s_types::RELEASE;

mod cache_envtest;
mod client_envtest;
mod client_features;
mod config_env;
mod conversion_webhook;
mod delegating_envtest;
mod envtest_extension;
mod examples;
mod fake_client;
mod finalizer_envtest;
mod manager_envtest;
mod metadata_envtest;
mod runtime_config_envtest;
mod tls_and_auth;
mod webhook_envtest;
mod wire_throughput;
