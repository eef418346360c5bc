//! CustomResourceDefinitions generated from the Rust types of their versions (what Go's
//! controller-gen does from markers, and kube-rs' `CustomResource` derive from one
//! type): names and scope from the types' `#[api(...)]` registrations, one
//! `versions[]` entry per type with its `openAPIV3Schema` from
//! [`StructuralSchema`], so that the
//! CRD and the code that reads and writes its objects cannot disagree.
//!
//! ```standalone_crate
//! use controller_runtime::crd::CrdBuilder;
//!
//! pub mod v1 {
//!     use apimachinery::{ApiObject, ApiType, StructuralSchema, apis::meta::v1::ObjectMeta};
//!     #[derive(ApiObject, StructuralSchema, Clone, Debug, Default, PartialEq)]
//!     #[api(group = "example.com", version = "v1", kind = "Gadget", short_names = ["gd"])]
//!     pub struct Gadget {
//!         pub metadata: ObjectMeta,
//!         pub spec: GadgetSpec,
//!     }
//!     #[derive(ApiType, StructuralSchema, Clone, Debug, Default, PartialEq)]
//!     pub struct GadgetSpec {
//!         /// How many.
//!         pub replicas: i32,
//!     }
//! }
//!
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let crd = CrdBuilder::new().storage_version::<v1::Gadget>().build()?;
//! assert_eq!(crd.metadata.name, "gadgets.example.com");
//! assert_eq!(crd.spec.names.short_names, ["gd"]);
//! let json = serde_json::to_value(&crd)?;
//! let schema = &json["spec"]["versions"][0]["schema"]["openAPIV3Schema"];
//! assert_eq!(schema["properties"]["spec"]["properties"]["replicas"]["format"], "int32");
//! assert_eq!(json["spec"]["versions"][0]["storage"], true);
//! # Ok(()) }
//! ```

use apimachinery::runtime::{Resource, ResourceScope};
use apimachinery::structural_schema::StructuralSchema;
use k8s_types::apiextensions::v1::CustomResourceDefinition;
use serde_json::{Value, json};

/// Why the versions given cannot make one CRD.
#[derive(Debug, thiserror::Error)]
pub enum CrdError {
    /// No version was given.
    #[error("a CustomResourceDefinition needs at least one version")]
    NoVersions,
    /// Two versions disagree on what must be the same for all of them.
    #[error(
        "{field} differs between the versions: {first_type} has {first:?}, {other_type} has {other:?}"
    )]
    Mismatch {
        /// The name, scope or group that differs.
        field: &'static str,
        /// The first version's type.
        first_type: &'static str,
        /// Its value.
        first: String,
        /// The disagreeing version's type.
        other_type: &'static str,
        /// Its value.
        other: String,
    },
    /// The core group has no custom resources.
    #[error("{type_name} is in the core group: custom resources need a group")]
    CoreGroup {
        /// The type.
        type_name: &'static str,
    },
    /// A version was given twice.
    #[error("version {version} is given twice")]
    DuplicateVersion {
        /// The version.
        version: String,
    },
    /// Not exactly one storage version.
    #[error("exactly one version must be the storage version, found {count}")]
    StorageVersions {
        /// How many there were.
        count: usize,
    },
    /// A schema is not an object's (the top level must be `type: object`).
    #[error("the schema of {type_name} is not an object's")]
    NotAnObject {
        /// The type.
        type_name: &'static str,
    },
    /// The result does not read as a CRD.
    #[error("building the CustomResourceDefinition: {0}")]
    Build(#[from] serde_json::Error),
}

/// What one version of the CRD is made of, taken from its type.
#[derive(Clone, Debug)]
struct Version {
    type_name: &'static str,
    group: &'static str,
    version: &'static str,
    kind: &'static str,
    plural: &'static str,
    singular: &'static str,
    list_kind: &'static str,
    short_names: &'static [&'static str],
    categories: &'static [&'static str],
    namespaced: bool,
    served: bool,
    storage: bool,
    schema: Value,
}

impl Version {
    fn of<T: Resource + StructuralSchema>(served: bool, storage: bool) -> Self {
        Version {
            type_name: std::any::type_name::<T>(),
            group: T::GROUP,
            version: T::VERSION,
            kind: T::KIND,
            plural: T::PLURAL,
            singular: T::SINGULAR,
            list_kind: T::LIST_KIND,
            short_names: T::SHORT_NAMES,
            categories: T::CATEGORIES,
            namespaced: matches!(T::SCOPE, ResourceScope::Namespaced),
            served,
            storage,
            schema: T::openapi_v3_schema(),
        }
    }
}

/// Builds a `CustomResourceDefinition` from the types of its versions (see the
/// [module](self) for an example). Every version is served unless added with
/// [`unserved_version`](Self::unserved_version); exactly one is the storage version.
#[derive(Clone, Debug, Default)]
#[must_use]
pub struct CrdBuilder {
    versions: Vec<Version>,
    status: bool,
    conversion: Option<Value>,
}

impl CrdBuilder {
    /// A builder without versions.
    pub fn new() -> Self {
        CrdBuilder::default()
    }

    /// Adds `T`'s version, served, as the one objects are stored in.
    pub fn storage_version<T: Resource + StructuralSchema>(mut self) -> Self {
        self.versions.push(Version::of::<T>(true, true));
        self
    }

    /// Adds `T`'s version, served.
    pub fn version<T: Resource + StructuralSchema>(mut self) -> Self {
        self.versions.push(Version::of::<T>(true, false));
        self
    }

    /// Adds `T`'s version, not served (kept for objects stored in it, as a version on
    /// its way out is).
    pub fn unserved_version<T: Resource + StructuralSchema>(mut self) -> Self {
        self.versions.push(Version::of::<T>(false, false));
        self
    }

    /// Serves the `status` subresource in every version (Go's
    /// `+kubebuilder:subresource:status`): writes to the object ignore its status,
    /// writes to `/status` everything else.
    pub fn status_subresource(mut self) -> Self {
        self.status = true;
        self
    }

    /// Converts between versions with the webhook at `url`, whose certificate
    /// `ca_bundle` (PEM) vouches for (`conversion.strategy: Webhook`, review version
    /// `v1`). Without it, the strategy is `None`: only `apiVersion` changes.
    pub fn webhook_conversion(mut self, url: &str, ca_bundle: &[u8]) -> Self {
        use base64::Engine;
        self.conversion = Some(json!({
            "strategy": "Webhook",
            "webhook": {
                "conversionReviewVersions": ["v1"],
                "clientConfig": {
                    "url": url,
                    "caBundle": base64::engine::general_purpose::STANDARD.encode(ca_bundle),
                },
            },
        }));
        self
    }

    /// The CRD, named `<plural>.<group>`.
    pub fn build(self) -> Result<CustomResourceDefinition, CrdError> {
        let Some(first) = self.versions.first() else {
            return Err(CrdError::NoVersions);
        };
        if first.group.is_empty() {
            return Err(CrdError::CoreGroup {
                type_name: first.type_name,
            });
        }
        for (i, v) in self.versions.iter().enumerate() {
            let same: [(&'static str, String, String); 8] = [
                ("group", first.group.into(), v.group.into()),
                ("kind", first.kind.into(), v.kind.into()),
                ("plural", first.plural.into(), v.plural.into()),
                ("singular", first.singular.into(), v.singular.into()),
                ("listKind", first.list_kind.into(), v.list_kind.into()),
                (
                    "shortNames",
                    first.short_names.join(","),
                    v.short_names.join(","),
                ),
                (
                    "categories",
                    first.categories.join(","),
                    v.categories.join(","),
                ),
                (
                    "scope",
                    scope(first.namespaced).into(),
                    scope(v.namespaced).into(),
                ),
            ];
            if let Some((field, a, b)) = same.into_iter().find(|(_, a, b)| a != b) {
                return Err(CrdError::Mismatch {
                    field,
                    first_type: first.type_name,
                    first: a,
                    other_type: v.type_name,
                    other: b,
                });
            }
            if self.versions[..i].iter().any(|o| o.version == v.version) {
                return Err(CrdError::DuplicateVersion {
                    version: v.version.to_owned(),
                });
            }
            if v.schema.get("type").and_then(Value::as_str) != Some("object") {
                return Err(CrdError::NotAnObject {
                    type_name: v.type_name,
                });
            }
        }
        let storage = self.versions.iter().filter(|v| v.storage).count();
        if storage != 1 {
            return Err(CrdError::StorageVersions { count: storage });
        }
        let versions: Vec<Value> = self
            .versions
            .iter()
            .map(|v| {
                let mut out = json!({
                    "name": v.version, "served": v.served, "storage": v.storage,
                    "schema": {"openAPIV3Schema": v.schema},
                });
                if self.status {
                    out["subresources"] = json!({"status": {}});
                }
                out
            })
            .collect();
        let mut names = json!({
            "plural": first.plural, "singular": first.singular,
            "kind": first.kind, "listKind": first.list_kind,
        });
        if !first.short_names.is_empty() {
            names["shortNames"] = json!(first.short_names);
        }
        if !first.categories.is_empty() {
            names["categories"] = json!(first.categories);
        }
        let mut spec = json!({
            "group": first.group,
            "names": names,
            "scope": scope(first.namespaced),
            "versions": versions,
        });
        if let Some(conversion) = self.conversion {
            spec["conversion"] = conversion;
        }
        Ok(serde_json::from_value(json!({
            "apiVersion": "apiextensions.k8s.io/v1",
            "kind": "CustomResourceDefinition",
            "metadata": {"name": format!("{}.{}", first.plural, first.group)},
            "spec": spec,
        }))?)
    }
}

fn scope(namespaced: bool) -> &'static str {
    if namespaced { "Namespaced" } else { "Cluster" }
}

#[cfg(test)]
mod tests {
    use super::*;

    mod v1 {
        use apimachinery::{ApiObject, ApiType, StructuralSchema, apis::meta::v1::ObjectMeta};
        use apimachinery::{
            api::resource::Quantity, apis::meta::v1::Time, util::intstr::IntOrString,
        };
        use std::collections::BTreeMap;

        /// A thing made of parts.
        #[derive(ApiObject, StructuralSchema, Clone, Debug, Default, PartialEq)]
        #[api(group = "parts.test", version = "v1", kind = "Thing", cluster_scoped, categories = ["all"])]
        pub struct Thing {
            pub metadata: ObjectMeta,
            pub spec: ThingSpec,
            pub status: Option<ThingStatus>,
        }

        #[derive(ApiType, StructuralSchema, Clone, Debug, Default, PartialEq)]
        pub struct ThingSpec {
            /// Parts by name.
            pub parts: BTreeMap<String, Part>,
            pub weight: Quantity,
            pub port: Option<IntOrString>,
            #[api(rename = "madeAt")]
            pub made: Option<Time>,
            pub tags: Vec<String>,
        }

        #[derive(ApiType, StructuralSchema, Clone, Debug, Default, PartialEq)]
        pub struct Part {
            pub count: u32,
            pub ratio: f64,
            pub spare: bool,
        }

        #[derive(ApiType, StructuralSchema, Clone, Debug, Default, PartialEq)]
        pub struct ThingStatus {
            pub observed_generation: i64,
        }

        /// Another kind.
        #[derive(ApiObject, StructuralSchema, Clone, Debug, Default, PartialEq)]
        #[api(group = "parts.test", version = "v1", kind = "Other")]
        pub struct Other {
            pub metadata: ObjectMeta,
        }
    }

    mod v2 {
        use apimachinery::{ApiObject, StructuralSchema, apis::meta::v1::ObjectMeta};

        #[derive(ApiObject, StructuralSchema, Clone, Debug, Default, PartialEq)]
        #[api(group = "parts.test", version = "v2", kind = "Thing", cluster_scoped, categories = ["all"])]
        pub struct Thing {
            pub metadata: ObjectMeta,
        }

        /// v2 of Thing, namespaced this time: a mismatch.
        #[derive(ApiObject, StructuralSchema, Clone, Debug, Default, PartialEq)]
        #[api(group = "parts.test", version = "v3", kind = "Thing", categories = ["all"])]
        pub struct NamespacedThing {
            pub metadata: ObjectMeta,
        }
    }

    #[test]
    fn names_scope_versions_and_schemas_come_from_the_types() {
        let crd = CrdBuilder::new()
            .version::<v2::Thing>()
            .storage_version::<v1::Thing>()
            .status_subresource()
            .webhook_conversion("https://127.0.0.1:9443/convert", b"PEM")
            .build()
            .map_err(|e| e.to_string());
        let crd = serde_json::to_value(crd.unwrap_or_default()).unwrap_or_default();
        assert_eq!(crd["metadata"]["name"], "things.parts.test");
        assert_eq!(
            crd["spec"]["names"],
            json!({"plural": "things", "singular": "thing", "kind": "Thing",
                   "listKind": "ThingList", "categories": ["all"]})
        );
        assert_eq!(crd["spec"]["scope"], "Cluster");
        let versions = &crd["spec"]["versions"];
        assert_eq!(
            (
                &versions[0]["name"],
                &versions[0]["storage"],
                &versions[0]["served"]
            ),
            (&json!("v2"), &json!(false), &json!(true))
        );
        assert_eq!(
            (&versions[1]["name"], &versions[1]["storage"]),
            (&json!("v1"), &json!(true))
        );
        assert_eq!(versions[1]["subresources"], json!({"status": {}}));
        let schema = &versions[1]["schema"]["openAPIV3Schema"];
        assert_eq!(schema["description"], "A thing made of parts.");
        assert_eq!(schema["properties"]["metadata"], json!({"type": "object"}));
        assert_eq!(schema["properties"]["kind"]["type"], "string");
        let spec = &schema["properties"]["spec"]["properties"];
        assert_eq!(
            spec["parts"],
            json!({"type": "object", "description": "Parts by name.",
                   "additionalProperties": {"type": "object", "properties": {
                       "count": {"type": "integer", "format": "int32"},
                       "ratio": {"type": "number", "format": "double"},
                       "spare": {"type": "boolean"}}}})
        );
        assert_eq!(spec["weight"]["x-kubernetes-int-or-string"], true);
        assert!(spec["weight"]["pattern"].is_string());
        assert_eq!(spec["port"]["x-kubernetes-int-or-string"], true);
        assert_eq!(
            spec["madeAt"],
            json!({"type": "string", "format": "date-time"})
        );
        assert_eq!(
            spec["tags"],
            json!({"type": "array", "items": {"type": "string"}})
        );
        assert_eq!(
            schema["properties"]["status"]["properties"]["observedGeneration"],
            json!({"type": "integer", "format": "int64"})
        );
        assert_eq!(
            crd["spec"]["conversion"]["webhook"]["clientConfig"]["caBundle"],
            "UEVN"
        );
    }

    #[test]
    fn versions_that_cannot_make_one_crd_are_refused() {
        let err = |b: CrdBuilder| b.build().err().map(|e| e.to_string()).unwrap_or_default();
        assert_eq!(
            err(CrdBuilder::new()),
            "a CustomResourceDefinition needs at least one version"
        );
        assert_eq!(
            err(CrdBuilder::new().version::<v1::Thing>()),
            "exactly one version must be the storage version, found 0"
        );
        assert_eq!(
            err(CrdBuilder::new()
                .storage_version::<v1::Thing>()
                .storage_version::<v2::Thing>()),
            "exactly one version must be the storage version, found 2"
        );
        assert_eq!(
            err(CrdBuilder::new()
                .storage_version::<v1::Thing>()
                .version::<v1::Thing>()),
            "version v1 is given twice"
        );
        let m = err(CrdBuilder::new()
            .storage_version::<v1::Thing>()
            .version::<v1::Other>());
        assert!(m.starts_with("kind differs between the versions:"), "{m}");
        let m = err(CrdBuilder::new()
            .storage_version::<v1::Thing>()
            .version::<v2::NamespacedThing>());
        assert!(m.starts_with("scope differs between the versions:"), "{m}");
        assert!(
            m.contains("\"Cluster\"") && m.contains("\"Namespaced\""),
            "{m}"
        );
    }
}
