//! A tour of the scheme: defines two kinds with `#[derive(ApiObject)]`, builds a scheme from
//! every type linked into the program, prints what it knows and how resource names typed
//! by a user map to its kinds (a mapper built from the scheme), then reads the bundled
//! manifests in `examples/data/manifests.json`, decoding each object into its registered
//! Rust type, or into `Unstructured` when the scheme does not know its kind.
//!
//! Run it with `cargo run --example scheme_tour` (optionally give another JSON array file).

use std::error::Error;
use std::path::PathBuf;

use apimachinery::ApiObject;
use apimachinery::apis::meta::v1::ObjectMeta;
use apimachinery::meta::{DiscoveryRESTMapper, RESTMapper};
use apimachinery::runtime::{Object, Scheme, Unstructured};
use apimachinery::schema::{GroupVersionKind, parse_resource_arg};
use serde::{Deserialize, Serialize};

/// What a widget should be.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct WidgetSpec {
    /// How big.
    #[serde(default)]
    pub size: i32,
    /// Which color.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub color: String,
}

/// A namespaced custom kind.
#[derive(ApiObject, Clone, Debug, Default, PartialEq)]
#[api(group = "example.com", version = "v1", kind = "Widget", namespaced, short_names = ["wdg"], categories = ["all"])]
pub struct Widget {
    /// Standard object metadata.
    pub metadata: ObjectMeta,
    /// The desired state.
    pub spec: WidgetSpec,
}

/// What a gadget should be.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GadgetSpec {
    /// How strong.
    #[serde(default)]
    pub power: i64,
}

/// A cluster-scoped custom kind, in an alpha version.
#[derive(ApiObject, Clone, Debug, Default, PartialEq)]
#[api(
    group = "example.com",
    version = "v1alpha1",
    kind = "Gadget",
    cluster_scoped
)]
pub struct Gadget {
    /// Standard object metadata.
    pub metadata: ObjectMeta,
    /// The desired state.
    pub spec: GadgetSpec,
}

fn main() -> Result<(), Box<dyn Error>> {
    let scheme = Scheme::from_registry()?;

    println!("Registered kinds:");
    for (gvk, object_type) in scheme.all_known_types() {
        let resource = match scheme.resource_metadata(gvk) {
            Some(r) => format!(
                "resource {} ({:?}){}",
                r.plural,
                r.scope,
                if r.short_names.is_empty() {
                    String::new()
                } else {
                    format!(", short names {}", r.short_names.join(","))
                }
            ),
            None => "not a resource".to_owned(),
        };
        println!(
            "  {:<38} {:<32} {resource}",
            gvk.to_string(),
            object_type.type_name()
        );
    }
    println!(
        "Preferred versions: {}",
        scheme
            .preferred_version_all_groups()
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    );

    // What `kubectl get <name>` would resolve each name to, if a server served these types.
    let mapper = DiscoveryRESTMapper::from_scheme(&scheme);
    println!("\nResource names:");
    for name in [
        "wdg",
        "widget",
        "widgets.example.com",
        "gadgets.v1alpha1.example.com",
        "doohickeys",
    ] {
        // As kubectl reads an argument: `resource.version.group` if that is served, else
        // `resource.group`.
        let (full, partial) = parse_resource_arg(name);
        let kind = match full.and_then(|gvr| mapper.kind_for(&gvr).ok()) {
            Some(gvk) => Ok(gvk),
            None => mapper.kind_for(&partial.with_version("")),
        };
        let mapping = match kind {
            Ok(gvk) => mapper.rest_mapping(&gvk.group_kind(), &[gvk.version.as_str()]),
            Err(e) => Err(e),
        };
        let answer = match mapping {
            Ok(m) => format!("{} ({})", m.group_version_kind, m.scope.name().as_str()),
            Err(e) => format!("error: {e}"),
        };
        println!("  {name:<30} -> {answer}");
    }

    let path = std::env::args_os().nth(1).map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/data/manifests.json"),
        PathBuf::from,
    );
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let documents: Vec<serde_json::Value> =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;

    println!("\nDecoding {}:", path.display());
    for (index, document) in documents.into_iter().enumerate() {
        let unstructured = Unstructured::from_value(document)
            .map_err(|e| format!("{}: document {index}: {e}", path.display()))?;
        let gvk: GroupVersionKind = unstructured.group_version_kind();
        let object: Box<dyn Object> = if scheme.recognizes(&gvk) {
            let value = unstructured.into_value();
            scheme
                .decode_value(&gvk, &value)
                .map_err(|e| format!("{}: document {index}: {e}", path.display()))?
        } else {
            Box::new(unstructured)
        };
        let (kinds, unversioned) = match scheme.object_kinds(object.as_ref()) {
            Ok((kinds, unversioned)) => (kinds.len(), unversioned),
            Err(e) => return Err(format!("document {index}: {e}").into()),
        };
        let name = object.meta().map_or("", |m| m.name());
        println!(
            "  [{index}] {gvk} {name:?} -> {} (known as {kinds} kind(s){})",
            object.type_name(),
            if unversioned { ", unversioned" } else { "" }
        );
        if let Some(widget) = object.downcast_ref::<Widget>() {
            println!(
                "      a typed Widget of size {} in {:?}",
                widget.spec.size, widget.metadata.namespace
            );
        }
        println!(
            "      re-encoded: {}",
            serde_json::to_string(object.as_ref())?
        );
    }
    Ok(())
}
