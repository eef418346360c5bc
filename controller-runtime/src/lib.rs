//! controller-runtime for Rust: what Go's `sigs.k8s.io/controller-runtime` is, built on this
//! project's `Scheme`, RESTMapper and codecs.
//!
//! The modules mirror the Go packages people know: a client that dispatches by group,
//! version and kind to typed, unstructured and metadata-only requests; an informer cache
//! that answers reads locally and shares cached objects instead of copying them; a manager
//! and controllers whose `reconcile` is all a user writes; and test support that starts the
//! in-process API server of the `apiserver` crate.
//!
//! | module | Go package | what it holds |
//! | --- | --- | --- |
//! | [`config`] | `pkg/client/config`, client-go `rest`, `clientcmd` | [`Config`](config::Config): kubeconfig, `KUBECONFIG` merging, in-cluster, exec plugins |
//! | [`client`] | `pkg/client` | [`Client`](client::Client): typed, unstructured and metadata calls, watch, typed API errors |
//! | [`client::apiutil`] | `pkg/client/apiutil` | the dynamic RESTMapper over discovery |
//! | [`transport`] | client-go `transport` | HTTP over rustls and its errors |
//! | [`cache`] | `pkg/cache`, client-go `tools/cache` | [`Cache`](cache::Cache), [`Informer`](cache::Informer), [`Indexer`](cache::Indexer): informers, field indexes, `Arc` reads |
//! | `envtest` (feature `envtest`, on by default) | `pkg/envtest` | the in-process API server for tests |
#![forbid(unsafe_code)]

pub mod builder;
pub mod cache;
pub mod client;
pub mod config;
pub mod controller;
pub mod controllerutil;
#[cfg(feature = "envtest")]
pub mod envtest;
pub mod event;
pub mod handler;
pub mod leaderelection;
pub mod manager;
pub mod predicate;
pub mod reconcile;
pub mod record;
pub mod source;
pub mod transport;
pub mod workqueue;
