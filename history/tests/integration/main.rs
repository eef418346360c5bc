//! The history crate's tests, one binary (as every crate's here): the checker on
//! hand-written histories (`checker`), on generated ones (`generated`), and bounded
//! fault runs against real servers (`faults`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod checker;
mod faults;
mod generated;
#[path = "../../../oracle/binaries.rs"]
mod oracle_binaries;
/// The release whose kube-apiserver the tests run (`oracle/binaries.rs`): the oracle's
/// default one, as this crate is not built on one release's API.
const RELEASE_UNDER_TEST: &str = oracle_binaries::DEFAULT_RELEASE;
