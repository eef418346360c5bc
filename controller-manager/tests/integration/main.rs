//! The integration tests of `controller-manager`, one module per controller, linked as
//! one test binary (each binary links the whole of k8s-types). Each test runs twice
//! (`against_both!`, in `servers`): on the in-process server and on the real
//! kube-apiserver with etcd, where the oracle built them, so that the controllers are
//! seen to do against Go's server what they do against ours.
#![allow(clippy::unwrap_used, clippy::panic)]

#[macro_use]
mod servers;
#[path = "../../../oracle/binaries.rs"]
mod oracle_binaries;
/// The release whose oracle programs the tests run (`oracle/binaries.rs`): the one this
/// build of k8s-types has.
const RELEASE_UNDER_TEST: &str = k8s_types::RELEASE;

mod garbagecollector;
mod job;
mod namespace;
mod nodes;
mod rootcacertpublisher;
mod serviceaccount;
mod workloads;
