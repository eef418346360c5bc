//! Under faults, nothing lost and nothing out of order: a recorder of what clients of a
//! Kubernetes API server sent and were told, and a checker of what Kubernetes promises
//! them, run while etcd, the servers and the network fail.
//!
//! - [`record`]: the history, plain serializable data.
//! - [`checker`]: linearizability of each object's writes and reads, durability of the
//!   acknowledged writes, and watches that deliver every change after their start, in
//!   resourceVersion order, once — or 410 Gone and a consistent relist.
//! - [`workload`] and [`client`]: writers and watchers over plain HTTPS, one attempt per
//!   request, recording everything.
//! - [`cluster`]: the server under test (`kapi serve` or Go's kube-apiserver, started
//!   with the same flags), etcd, the watchers' proxies, a network namespace.
//! - [`faults`] and [`scenario`]: faults injected while the clients work, and a run from
//!   start to report.
//!
//! Test tooling: no product crate depends on it. The checker runs on any history:
//!
//! ```
//! use history::record::{History, Key, Operation, Outcome, Request, Seen};
//!
//! let key = Key::new("configmaps", "k0-0");
//! let write = Operation {
//!     client: 0,
//!     server: "a".into(),
//!     key: key.clone(),
//!     request: Request::Create { value: "w0-0".into() },
//!     invoked: 0,
//!     completed: 10,
//!     outcome: Outcome::Ok { object: Some(Seen { value: "w0-0".into(), rv: 5 }) },
//! };
//! // A read after the write that does not see it: not linearizable.
//! let read = Operation {
//!     request: Request::Get,
//!     invoked: 20,
//!     completed: 30,
//!     outcome: Outcome::NotFound,
//!     ..write.clone()
//! };
//! let history = History { operations: vec![write, read], ..History::default() };
//! let report = history::checker::check(&history);
//! assert!(!report.passed());
//! ```
#![forbid(unsafe_code)]

pub mod checker;
pub mod client;
pub mod cluster;
pub mod error;
pub mod faults;
pub mod record;
pub mod resource;
pub mod scenario;
pub mod workload;

pub use error::Error;
