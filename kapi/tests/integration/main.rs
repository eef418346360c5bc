//! The integration tests of `kapi`, one module per concern, linked as one test binary:
//! every binary links the whole of k8s-types, so one per file cost a link and some hundred
//! megabytes each. Run one concern with `cargo test -p kapi --test integration <module>::`.

mod common;

mod cli;
mod convert;
mod convert_corpus;
mod differential;
mod go_clients;
#[path = "../../../oracle/binaries.rs"]
mod oracle_binaries;
/// The release whose oracle programs the tests run (`oracle/binaries.rs`): the one this
/// build of k8s-types has.
const RELEASE_UNDER_TEST: &str = k8s_types::RELEASE;
mod plugin;
#[path = "../../../k8s-types/tests/integration/release_data.rs"]
mod release_data;
mod serve_controllers;
mod serve_etcd;
mod serve_kubectl;
mod serve_logs;
mod serve_nodes;
mod serve_python;
mod serve_rbac;
mod serve_security;
mod serve_shared_etcd;
mod upgrade_corpus;
