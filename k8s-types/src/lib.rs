//! The built-in Kubernetes 1.36 API types, generated from the API reference data by
//! `cargo xtask codegen`: every message of `k8s.io/api`, `apimachinery` meta/v1,
//! `apiextensions-apiserver` and `kube-aggregator`, served versions and the unserved
//! ones Go still defines (`extensions/v1beta1`, `apps/v1beta1`, ...).
//!
//! One module per API group (`core` is the core group, `meta` is `meta.k8s.io`), one
//! per version below it: `k8s_types::apps::v1::Deployment`. Kinds derive
//! [`ApiObject`](apimachinery::ApiObject), so linking this crate registers them all in
//! [`Scheme::from_registry`](apimachinery::runtime::Scheme::from_registry).
//!
//! The JSON is Go's: fields in Go's order; optional fields are `Option` and written only
//! when set; lists and maps are written when not empty (always, when the API requires
//! them); required fields are plain values and always written. Reading is Go's too:
//! unknown fields are ignored and `null` reads as the zero value.
//!
//! Each API group but `meta` is behind the cargo feature of its module's name (`core`,
//! `apps`, `networking`, ...), all on by default, each turning on the groups its types
//! use: `default-features = false, features = ["apps"]` builds `apps` and `core` only,
//! about a quarter of the whole crate's build time, and registers only those kinds.
//!
//! ```
//! use apimachinery::runtime::Scheme;
//! use k8s_types::apps::v1::Deployment;
//!
//! let json = r#"{"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"web"},"spec":{"replicas":3,"selector":{},"template":{"metadata":{}}}}"#;
//! let d: Deployment = serde_json::from_str(json)?;
//! assert_eq!(d.spec.as_ref().and_then(|s| s.replicas), Some(3));
//! assert_eq!(serde_json::to_string(&d)?, json);
//!
//! let scheme = Scheme::from_registry()?;
//! let obj = scheme.new_object(&"apps/v1, Kind=Deployment".parse()?)?;
//! assert!(obj.is::<Deployment>());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]

pub mod conversions;
pub mod custom;
pub mod defaults;
// The docs are the API reference's prose, line breaks included; list items in it continue
// on unindented lines.
#[allow(clippy::doc_lazy_continuation)]
mod generated;
#[doc(hidden)]
pub mod go_json;
pub mod value;

pub use generated::*;

/// Every Go type of the Kubernetes 1.36 API as `(API group, version, type name)`, sorted:
/// each struct (and named slice) of `k8s.io/api`, `apimachinery` meta,
/// `apiextensions-apiserver` and `kube-aggregator` at v0.36, served versions and unserved
/// ones alike, whether or not the cargo features build it. The core group is `""`,
/// meta's types are in `meta.k8s.io`. Data only; see [`defines_type`].
pub use generated::go_types::GO_TYPES;

/// Whether Kubernetes 1.36 defines a Go type `name` in `group`/`version` (core group
/// `""`): what tells a kind that 1.36 no longer has (`autoscaling/v2beta1`
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_type_list_is_sorted_and_holds_served_unserved_and_meta_types() {
        // `defines_type` searches it by halves.
        assert!(GO_TYPES.windows(2).all(|w| w[0] < w[1]));
        assert!(defines_type("", "v1", "Pod"));
        assert!(defines_type("extensions", "v1beta1", "Deployment"));
        assert!(defines_type("meta.k8s.io", "v1", "ObjectMeta"));
        assert!(!defines_type("", "v1", "Deployment"));
        assert!(!defines_type(
            "scheduling.k8s.io",
            "v1alpha1",
            "PriorityClass"
        ));
    }
}
