//! controller-runtime for Rust: what Go's `sigs.k8s.io/controller-runtime` is, built on this
//! project's `Scheme`, RESTMapper and codecs.
//!
//! The modules mirror the Go packages people know: a client that dispatches by group,
//! version and kind to typed, unstructured and metadata-only requests; an informer cache
//! that answers reads locally and shares cached objects instead of copying them; a manager
//! and controllers whose `reconcile` is all a user writes; and test support that starts the
//! in-process API server of the `apiserver` crate.

pub mod event;
pub mod handler;
pub mod predicate;
pub mod reconcile;
pub mod workqueue;
