//! The built-in Kubernetes API types of one release (1.37 by default, 1.36 with the
//! `v1_36` feature: see [Kubernetes releases](#kubernetes-releases)), generated from the
//! release's API reference data by
//! `cargo xtask codegen`: every message of `k8s.io/api`, `apimachinery` meta/v1,
//! `apiextensions-apiserver` and `kube-aggregator`, served versions and the unserved
//! ones Go still defines (`extensions/v1beta1`, `apps/v1beta1`, ...).
//!
//! One module per API group (`core` is the core group, `meta` is `meta.k8s.io`), one
//! per version below it: `k8s_types::apps::v1::Deployment`. Kinds derive
//! [`ApiObject`](apimachinery::ApiObject), so linking this crate registers them all in
//! [`Scheme::from_registry`](apimachinery::runtime::Scheme::from_registry); a program
//! that names none of its types calls `register`, which links it. All of that is the
//! `scheme` feature's; without it the crate is the types alone (see
//! [Cargo features](#cargo-features)).
//!
//! # Types shared by versions
//!
//! A nested type that several versions of a group define identically (the same fields
//! with the same JSON names, Rust types, shapes, protobuf numbers and defaults, the
//! types they hold shared too; only the docs may differ) is one struct. It lives in one
//! version: the group's hub version when that is among them, else the newest. The other
//! versions name it with a type alias, whose doc says so; rustdoc lists it under "Type
//! Aliases" with its target. `src/generated/conversions.md` lists every shared type.
//! Either path may be used. Converting an object between those versions moves such a value
//! as it is. Kinds and lists are never shared: each keeps its own group version.
//!
//! ```
//! use std::any::TypeId;
//! use k8s_types::apps::{v1, v1beta2};
//!
//! assert_eq!(TypeId::of::<v1beta2::DeploymentSpec>(), TypeId::of::<v1::DeploymentSpec>());
//! let mut d = v1beta2::Deployment::default();
//! d.spec = v1::DeploymentSpec { replicas: Some(2), ..Default::default() };
//! assert_ne!(TypeId::of::<v1beta2::Deployment>(), TypeId::of::<v1::Deployment>());
//! ```
//!
//! # Go's fields, Rust's fields
//!
//! Every field holds exactly what the Go field holds (`go-fields.json` of the reference
//! data decides), and the wire formats follow from the Rust shape as they follow from
//! the Go one:
//!
//! | Go field | Rust field | JSON | protobuf |
//! | --- | --- | --- | --- |
//! | value (`int32`, `string`, `bool`, a struct) | `T` | written; with `omitempty`, a zero scalar or empty string is left out (a struct never is); with `omitzero`, the zero value is left out | always written, zero or not |
//! | pointer (`*T`) | `Option<T>` | `None`: left out with `omitempty`, else `null` | written when `Some` |
//! | slice or map with `omitempty` | `Vec<T>`, `BTreeMap<String, T>` | left out when empty (nil and empty are alike) | entry by entry |
//! | slice or map without `omitempty` | `Option<Vec<T>>`, `Option<BTreeMap<..>>` | `None` is `null`, `Some(vec![])` is `[]` | entry by entry (`None` and empty alike: Go reads both back as nil) |
//! | `[]byte` | `Option<ByteString>` | base64; `None` is `null` (left out with `omitempty`, as an empty one is) | written when `Some`, even empty |
//!
//! Reading is Go's too: unknown fields are ignored, `null` in a value field leaves the
//! zero value, `null` in a pointer, slice or map is `None`. So `d.spec.replicas` is an
//! `Option<i32>` (Go's `*int32`) inside a plain `DeploymentSpec`, and a value built with
//! `..Default::default()` writes what Go's zero value writes.
//!
//! ```
//! use apimachinery::runtime::Scheme;
//! use k8s_types::apps::v1::Deployment;
//!
//! let json = r#"{"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"web"},"spec":{"replicas":3,"selector":{},"template":{"metadata":{},"spec":{"containers":[]}},"strategy":{}},"status":{}}"#;
//! let d: Deployment = serde_json::from_str(json)?;
//! assert_eq!(d.spec.replicas, Some(3));
//! assert_eq!(d.spec.template.spec.containers.as_deref().map(<[_]>::len), Some(0));
//! assert_eq!(serde_json::to_string(&d)?, json);
//!
//! // Go's zero Deployment: value structs written, nil pointers and slices `null`.
//! assert_eq!(
//!     serde_json::to_string(&Deployment::default())?,
//!     r#"{"metadata":{},"spec":{"selector":null,"template":{"metadata":{},"spec":{"containers":null}},"strategy":{}},"status":{}}"#
//! );
//!
//! let scheme = Scheme::from_registry()?;
//! let obj = scheme.new_object(&"apps/v1, Kind=Deployment".parse()?)?;
//! assert!(obj.is::<Deployment>());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Defaults
//!
//! The release's built-in defaulters (Go's `SetDefaults_*` of every group version and
//! the types' `+default=` markers) register with the kinds:
//! [`Scheme::default`](apimachinery::runtime::Scheme::default) applies them, as the API
//! server does on every write and `kapi convert` before converting. [`defaults`] lists
//! the groups and kinds defaulted and the Go defaults not applied.
//!
//! # Validation
//!
//! Kube-apiserver's built-in validation of the workload, service, config, RBAC,
//! networking, policy, batch, coordination and scheduling kinds (Go's rules and
//! messages) registers with the kinds too:
//! [`Scheme::validate`](apimachinery::runtime::Scheme::validate) runs it, as the API
//! server does on create and update and `kapi validate` on manifests. [`validation`]
//! lists the kinds and rules validated and those left out.
//!
//! # Cargo features
//!
//! | feature | what it builds | implies |
//! | --- | --- | --- |
//! | `default` | everything but `validation-x509` and `go-json-errors` | `all-groups`, `scheme`, `default-release` |
//! | `all-groups` | every API group | each group's feature |
//! | `core`, `apps`, `networking`, ... (one per group module but `meta`, which is always built) | the group's types | the groups its types use, and those its conversions go through (`apps` turns on `core`, `extensions` `apps` and `networking`) |
//! | `scheme` | what only a [`Scheme`](apimachinery::runtime::Scheme) user needs: each kind's `Object`, `Resource` and `ListObject` impls and its link-time registration, the conversions between versions (`conversions`, the `Convert` impls, the `__internal` hub versions), the defaulters (`defaults`) and the validators' registration, `register` | `inventory`, `validation` |
//! | `validation` | Go's built-in validation, [`validation`] (with or without `scheme`) | |
//! | `validation-x509` | the X.509 part of certificates.k8s.io's validation (Go's `crypto/x509`, with ring and x509-parser): that CSRs, stub requests, status certificates and trust anchors parse, signatures and proofs of possession verify, keys are of a supported type; without it only the PEM framing and the rest of those objects are checked | `validation` |
//! | `go-json-errors` | `go_json_errors`: Go's JSON decoder's words for a value of the wrong type, from a generated table of the external structs' Go field types (what a server over these types answers; kapi and envtest turn it on) | |
//!
//! | `v1_36`, `v1_37` | the Kubernetes release: exactly one (see below) | |
//! | `default-release` | the default release's feature (`v1_37`) | |
//!
//! Without `scheme` the crate is typed only, as k8s-openapi is: every struct with its
//! docs, `Clone`, `Debug`, `Default`, `PartialEq`, JSON (serde and
//! [`ReadJson`](apimachinery::runtime::json_reader::ReadJson), kinds written with `kind`
//! and `apiVersion` first by [`ApiKind`](apimachinery::ApiKind)) and protobuf
//! ([`proto::Message`](apimachinery::proto::Message)), [`GO_TYPES`], and the
//! [`validation`] functions if asked for; the bytes read and written are the same. A
//! program that never builds a `Scheme` then compiles none of the registry's per-kind
//! code, and this crate compiles next to no machine code of its own: the per-type
//! methods are `#[inline]` then, so that, as serde's generic impls in k8s-openapi, they
//! are compiled in the crate that calls them, for the types it uses:
//!
//! ```toml
//! # every group, typed only
//! k8s-types = { version = "0.1", default-features = false, features = ["all-groups"] }
//! # apps and core, typed only (a fifth of the default build's machine code)
//! k8s-types = { version = "0.1", default-features = false, features = ["apps"] }
//! # apps and core with the Scheme: registers only those kinds
//! k8s-types = { version = "0.1", default-features = false, features = ["apps", "scheme"] }
//! ```
//!
//! A typed-only Pod, read and written as Go does (this compiles with or without
//! `scheme`):
//!
//! ```
//! use apimachinery::proto::{decode_message, encode_message};
//! use k8s_types::core::v1::Pod;
//!
//! let json = r#"{"kind":"Pod","apiVersion":"v1","metadata":{"name":"web"},"spec":{"containers":[{"name":"web","image":"nginx","resources":{}}]},"status":{}}"#;
//! let pod: Pod = serde_json::from_str(json)?;
//! assert_eq!(serde_json::to_string(&pod)?, json);
//! let back: Pod = decode_message(&encode_message(&pod))?;
//! assert_eq!(back.spec, pod.spec);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Kubernetes releases
//!
//! The crate carries the API of several Kubernetes releases, each generated from its own
//! reference data into `src/generated/vX_Y`, and builds exactly one, chosen by a cargo
//! feature as k8s-openapi's users choose: `v1_37` (the default, through
//! `default-release`) or `v1_36`. Only that release's code is compiled. No release, or
//! two, is a compile error; to pick one that is not the default, turn the default
//! features off:
//!
//! ```toml
//! k8s-types = { version = "0.1", default-features = false, features = ["all-groups", "scheme", "v1_36"] }
//! ```
//!
//! [`RELEASE`] says which one a build has.
#![forbid(unsafe_code)]

#[cfg(all(feature = "v1_36", feature = "v1_37"))]
compile_error!(
    "k8s-types: the cargo features `v1_36` and `v1_37` are both on, and exactly one Kubernetes release can be built: turn the default features off (`default-features = false`) where k8s-types (or a crate forwarding its release, such as kapi or controller-runtime) is a dependency, and name the one release, e.g. `features = [\"all-groups\", \"scheme\", \"v1_37\"]`"
);
#[cfg(not(any(feature = "v1_36", feature = "v1_37")))]
compile_error!(
    "k8s-types: no Kubernetes release is selected: turn on exactly one of the cargo features `v1_36` and `v1_37` (or `default-release`, which is `v1_37`), e.g. `features = [\"all-groups\", \"scheme\", \"v1_37\"]` with `default-features = false`"
);

/// The Kubernetes release whose API this build has (`"1.37"` by default), chosen by the cargo
/// feature `v1_36` or `v1_37`.
///
/// ```
/// assert!(k8s_types::RELEASE.starts_with("1."));
/// ```
#[cfg(not(feature = "v1_37"))]
pub const RELEASE: &str = "1.36";
/// The Kubernetes release whose API this build has (`"1.37"`), chosen by the cargo
/// feature `v1_36` or `v1_37`.
#[cfg(feature = "v1_37")]
pub const RELEASE: &str = "1.37";

/// The version of `k8s.io/kubernetes` the release's reference data and hand-written
/// behaviour are taken from (`"v1.36.3"`, as `xtask/releases/v1.36.sum` pins it): what
/// a node's `kubeletVersion` says, for instance.
#[cfg(not(feature = "v1_37"))]
pub const KUBERNETES_VERSION: &str = "v1.36.3";
/// The version of `k8s.io/kubernetes` the release's reference data and hand-written
/// behaviour are taken from (`"v1.37.2"`, as `xtask/releases/v1.37.sum` pins it).
#[cfg(feature = "v1_37")]
pub const KUBERNETES_VERSION: &str = "v1.37.2";

#[cfg(feature = "scheme")]
pub mod conversions;
pub mod custom;
#[cfg(feature = "scheme")]
pub mod defaults;
pub mod deprecated_fields;
// The docs are the API reference's prose, line breaks included; list items in it continue
// on unindented lines.
#[allow(clippy::doc_lazy_continuation)]
// The active release's directory; with none or both on, one of them, so that the
// `compile_error!` above is the only error.
#[cfg_attr(not(feature = "v1_37"), path = "generated/v1_36/mod.rs")]
#[cfg_attr(feature = "v1_37", path = "generated/v1_37/mod.rs")]
mod generated;
// Go's JSON of internal structs, for the messages validation writes (core's and
// certificates').
#[cfg(all(
    feature = "validation",
    any(feature = "core", feature = "certificates")
))]
mod go_internal_json;
#[doc(hidden)]
pub mod go_json;
#[cfg(feature = "go-json-errors")]
pub mod go_json_errors;
pub mod lifecycle;
#[cfg(feature = "validation")]
pub mod validation;
pub mod value;

pub use generated::*;

#[cfg(feature = "scheme")]
use apimachinery::runtime::{Scheme, SchemeError};

/// Adds every kind of this crate (of the API groups whose features are on), with its
/// conversions and defaulters, to `scheme`: what
/// [`Scheme::add_registry`](apimachinery::runtime::Scheme::add_registry) does, plus the
/// guarantee that this crate is linked. Kinds register themselves at link time, and a
/// program that names no item of this crate does not link it at all: its
/// [`Scheme::from_registry`](apimachinery::runtime::Scheme::from_registry) would then
/// silently hold none of these kinds. Calling this names the crate. Registering twice is
/// harmless.
///
/// ```
/// use apimachinery::runtime::Scheme;
///
/// let mut scheme = Scheme::new();
/// k8s_types::register(&mut scheme)?;
/// assert!(scheme.recognizes(&"apps/v1, Kind=Deployment".parse()?));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[cfg(feature = "scheme")]
pub fn register(scheme: &mut Scheme) -> Result<(), SchemeError> {
    scheme.add_registry()
}

/// Every Go type of the release's API ([`RELEASE`]) as `(API group, version, type name)`, sorted:
/// each struct (and named slice) of `k8s.io/api`, `apimachinery` meta,
/// `apiextensions-apiserver` and `kube-aggregator` at v0.36, served versions and unserved
/// ones alike, whether or not the cargo features build it. The core group is `""`,
/// meta's types are in `meta.k8s.io`. Data only; see [`defines_type`].
pub use generated::go_types::GO_TYPES;

/// Whether the release ([`RELEASE`]) defines a Go type `name` in `group`/`version` (core group
/// `""`): what tells a kind that it no longer has (`autoscaling/v2beta1`
/// `HorizontalPodAutoscaler`) from one it has, whatever the Scheme registers.
///
/// ```
/// assert!(k8s_types::defines_type("apps", "v1", "Deployment"));
/// assert!(!k8s_types::defines_type("autoscaling", "v2beta1", "HorizontalPodAutoscaler"));
/// ```
pub fn defines_type(group: &str, version: &str, name: &str) -> bool {
    GO_TYPES
        .binary_search_by(|&(g, v, n)| (g, v, n).cmp(&(group, version, name)))
        .is_ok()
}
