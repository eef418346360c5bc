//! kube-apiserver's versioned REST handling as a library, with the package map of Go's
//! `k8s.io/apiserver`.
//!
//! | module | Go package | what it holds |
//! | --- | --- | --- |
//! | [`server`] | `server`, `server/filters`, `endpoints/filters` | the [`Config`](server::Config) a program builds a running server from, the listeners, the filter chain every request goes through (panic recovery, logging, request info, audit, timeout, authentication, impersonation, max-in-flight, authorization), `/livez` and `/readyz` with their named checks, the routes |
//! | [`authentication`] | `authentication`, `authentication/user` | who makes a request: [`Authenticator`](authentication::Authenticator), [`user::Info`](authentication::user::Info) |
//! | [`audit`] | `audit` | the audit log: one `audit.k8s.io/v1` event per request |
//! | [`authorization`] | `authorization/authorizer`, `authorization/union`, kubernetes' `plugin/pkg/auth/authorizer/rbac` | what a user may do: [`Authorizer`](authorization::Authorizer), [`Attributes`](authorization::Attributes), RBAC ([`Rbac`](authorization::rbac::Rbac), the bootstrap policy) |
//! | [`apiextensions`] | `k8s.io/apiextensions-apiserver` | custom resources: CRDs served, their status, their OpenAPI |
//! | [`admission`] | `admission`, `admission/plugin/namespace/lifecycle`, `admission/plugin/webhook` | the plugins a write goes through after it is authorized: [`Chain`](admission::Chain), `NamespaceLifecycle`, the dynamic admission webhooks |
//! | [`endpoints`] | `endpoints`, `endpoints/handlers`, `endpoints/request` | request parsing, content negotiation and the `as=PartialObjectMetadata` answers it asks for ([`transform`](endpoints::transform)), the handlers, one file per verb ([`handlers`](endpoints::handlers)), and [`fieldmanager`](endpoints::fieldmanager): `managedFields` on every write and server-side apply |
//! | [`registry`] | `registry/generic/registry`, `registry/rest`, `storage/cacher`; kubernetes' `pkg/registry` | the generic [`Store`](registry::Store) of each resource over the storage, its watch cache, the [`Strategy`](registry::Strategy) and [`RestStorage`](registry::RestStorage) traits; and one module per built-in resource with something of its own (`registry::core::pod`, ...), with the controllers kube-apiserver runs over its own resources (API priority and fairness's config consumer, Go's `util/flowcontrol`, in `registry::flowcontrol`) |
//! | [`openapi`] | `k8s.io/kube-openapi` `handler3`, `handler` | the OpenAPI v3 documents (index and one per web service) and the v2 document, as served |
//! | [`resource_config`] | `server/storage` (`ResourceConfig`), `server/resourceconfig`; kubernetes' `pkg/controlplane` defaults | which group versions and resources are served: the release's defaults, `--runtime-config` |
//! | [`discovery`] | `endpoints/discovery` | `/api`, `/apis`, resource lists and aggregated discovery |
//! | [`storage`] | `storage`, `storage/etcd3` | the revisioned key-value [`Storage`](storage::Storage) every resource is kept in, and its backends: [`MemoryStorage`](storage::MemoryStorage), [`RedbStorage`](storage::RedbStorage) (a file), [`EtcdStorage`](storage::EtcdStorage) |
//!
//! A request goes as seed 003 describes kube-apiserver's: decoded in the version of its
//! path, defaulted, converted to the resource's storage version, encoded as
//! kube-apiserver stores it and written under kube-apiserver's key; reads convert from
//! the storage version to the version asked for.
//!
//! # Layers
//!
//! Each module imports only the layers below it, and no module imports one that imports
//! it back (checked by `tests/integration/module_layers.rs`, which also fails when
//! generic code names a built-in resource):
//!
//! ```text
//!  server            config, filter chain, installer, listeners
//!    │
//!  resource modules  registry::{core, apps, batch, rbac, authentication, authorization,
//!    │               events, certificates, storage, apiextensions}, apiextensions:
//!    │               one strategy and REST storage per resource with something of its own
//!  endpoints         handlers per verb, negotiation, field manager, watch; discovery
//!    │               (sees only the registry's traits, Admission and Authorizer)
//!  authentication  authorization  admission      each behind its own trait
//!    │
//!  registry          Store, Cacher, codec helpers, the Strategy and RestStorage traits; audit
//!    │
//!  storage           the revisioned key-value store and its backends
//!    │
//!  leaves            authentication::user, endpoints::request_info, openapi, worker,
//!                    resource_config
//! ```
#![forbid(unsafe_code)]

#[cfg(all(feature = "v1_36", feature = "v1_37"))]
compile_error!(
    "apiserver: the cargo features `v1_36` and `v1_37` are both on, and exactly one Kubernetes release can be served: turn the default features off (`default-features = false`) where apiserver is a dependency, and name the one release (`features = [\"v1_37\"]`), the same as k8s-types'"
);
#[cfg(not(any(feature = "v1_36", feature = "v1_37")))]
compile_error!(
    "apiserver: no Kubernetes release is selected: turn on exactly one of the cargo features `v1_36` and `v1_37` (or `default-release`, which is `v1_37`), the same as k8s-types'"
);

/// The Kubernetes release whose OpenAPI documents and `/version` this build serves
/// (`"1.36"`), chosen by the cargo feature `v1_36` or `v1_37`; the built-in types the
/// server is given should be k8s-types' of the same release (`k8s_types::RELEASE`).
#[cfg(not(feature = "v1_37"))]
pub const RELEASE: &str = "1.36";
/// The Kubernetes release whose OpenAPI documents and `/version` this build serves
/// (`"1.37"`), chosen by the cargo feature `v1_36` or `v1_37`.
#[cfg(feature = "v1_37")]
pub const RELEASE: &str = "1.37";

pub mod admission;
pub mod apiextensions;
pub mod audit;
pub mod authentication;
pub mod authorization;
pub mod discovery;
pub mod endpoints;
pub mod openapi;
pub mod registry;
pub mod resource_config;
pub mod server;
pub mod storage;
mod worker;
