//! The reference data the generator reads: `swagger.json`, `proto-fields.json`,
//! `go-fields.json` and `discovery-extras.json`, deserialized into the few shapes the
//! generator uses.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::Error;

/// One message of `proto-fields.json`: its fields in Go struct order.
#[derive(Debug, Deserialize)]
pub struct ProtoMessage {
    /// The protobuf full name, such as `k8s.io.api.apps.v1.DeploymentSpec`.
    pub proto: String,
    /// Fields in Go struct order.
    pub fields: Vec<ProtoField>,
    /// The message's doc comment.
    #[serde(default)]
    pub doc: String,
}

/// One field of a protobuf message.
#[derive(Debug, Deserialize)]
pub struct ProtoField {
    /// The protobuf field name (usually, but not always, the JSON name).
    pub name: String,
    /// The protobuf field number.
    pub number: u32,
    /// `optional`, `repeated` or `map`.
    pub label: String,
    /// A scalar type (`string`, `int32`, ...), or a message name, relative to the
    /// message's package or absolute with a leading dot.
    #[serde(rename = "type")]
    pub ty: String,
    /// The key type of a map.
    #[serde(default)]
    pub key: Option<String>,
    /// The field's doc comment.
    #[serde(default)]
    pub doc: String,
    /// The `+` markers of its comment (`+optional`, `+default="TCP"`).
    #[serde(default)]
    pub markers: Vec<String>,
}

/// One Go struct of `go-fields.json`: its fields in struct order.
#[derive(Debug, Default, Deserialize)]
pub struct GoStruct {
    /// The fields.
    #[serde(default)]
    pub fields: Vec<GoField>,
    /// For a type defined as another (`type MatchCondition v1.MatchCondition`), that type.
    #[serde(default)]
    pub defined_as: Option<String>,
}

/// One field of a Go struct: what decides its wire behaviour (slices, maps and `[]byte`
/// are known from the protobuf type, which also sees through named types).
#[derive(Debug, Deserialize)]
pub struct GoField {
    /// The field's Go name (an embedded field's, its type's name).
    #[serde(default)]
    pub go: String,
    /// An embedded field (`metav1.TypeMeta`, `ObjectMeta`, `VolumeSource`).
    pub embedded: bool,
    /// `json:",inline"`: the embedded struct's fields are the outer struct's.
    pub inline: bool,
    /// A pointer (`*T`): nil is told from zero.
    pub pointer: bool,
    /// `omitempty`.
    pub omitempty: bool,
    /// `omitzero`.
    pub omitzero: bool,
    /// Go's type as written (`*int32`, `metav1.TypeMeta`, `DeploymentStatus`).
    #[serde(rename = "type")]
    pub ty: String,
    /// The protobuf tag (`bytes,2,opt,name=spec`), when the field is on the wire.
    #[serde(default)]
    pub protobuf: Option<String>,
    /// The JSON name of the field's tag (empty for an embedded field without one).
    #[serde(default)]
    pub json: String,
}

impl GoField {
    /// Whether Go's JSON writes the fields of this embedded struct as the outer struct's:
    /// an embedded field without a JSON name is inlined whatever its tag's options
    /// (`,inline` is no option of `encoding/json`; `k8s.io/api` 1.37 dropped it from the
    /// tags of `TypeMeta`, now `json:""`).
    pub fn is_inlined(&self) -> bool {
        self.embedded && (self.inline || self.json.is_empty())
    }

    /// Whether this is the `metav1.TypeMeta` a kind embeds.
    pub fn is_type_meta(&self) -> bool {
        matches!(
            self.ty.as_str(),
            "metav1.TypeMeta" | "v1.TypeMeta" | "TypeMeta"
        )
    }

    /// The protobuf field number, from the tag.
    pub fn proto_number(&self) -> Option<u32> {
        self.protobuf.as_deref()?.split(',').nth(1)?.parse().ok()
    }
}

/// A group, version and kind as OpenAPI writes it.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
pub struct Gvk {
    /// The API group, empty for the core group.
    pub group: String,
    /// The version.
    pub version: String,
    /// The kind.
    pub kind: String,
}

/// One OpenAPI definition.
#[derive(Debug, Default, Deserialize)]
pub struct Definition {
    /// The definition's description.
    #[serde(default)]
    pub description: String,
    /// Property names (the values are not needed: proto-fields has the types).
    #[serde(default)]
    pub properties: BTreeMap<String, serde_json::Value>,
    /// The kinds this definition is served as.
    #[serde(default, rename = "x-kubernetes-group-version-kind")]
    pub gvks: Vec<Gvk>,
}

/// The parts of the OpenAPI document the generator reads.
#[derive(Debug, Deserialize)]
pub struct Swagger {
    /// Definitions by name (`io.k8s.api.apps.v1.Deployment`).
    pub definitions: BTreeMap<String, Definition>,
    /// Operations by path and method.
    pub paths: BTreeMap<String, BTreeMap<String, serde_json::Value>>,
}

/// Short names and categories, keyed by `group/resource`.
#[derive(Debug, Deserialize)]
pub struct DiscoveryExtras {
    /// Short names by `group/resource`.
    #[serde(rename = "shortNames")]
    pub short_names: BTreeMap<String, Vec<String>>,
    /// Resources (`group/resource`) by category.
    pub categories: BTreeMap<String, Vec<String>>,
}

impl DiscoveryExtras {
    /// Adds what `more` has and `self` lacks: a short name after those already listed,
    /// a resource to a category.
    fn add(&mut self, more: DiscoveryExtras) {
        let lists = [
            (&mut self.short_names, more.short_names),
            (&mut self.categories, more.categories),
        ];
        for (known, more) in lists {
            for (key, values) in more {
                let known = known.entry(key).or_default();
                for value in values {
                    if !known.contains(&value) {
                        known.push(value);
                    }
                }
            }
        }
    }
}

/// All the input.
pub struct Input {
    /// The OpenAPI document.
    pub swagger: Swagger,
    /// Messages by OpenAPI definition name.
    pub messages: BTreeMap<String, ProtoMessage>,
    /// Go structs by OpenAPI definition name.
    pub go: BTreeMap<String, GoStruct>,
    /// The internal Go structs of `k8s.io/kubernetes` (`pkg/apis/core` and others), by
    /// the same naming (`io.k8s.kubernetes.pkg.apis.core.PodSpec`); read by
    /// [`Input::read_internal`].
    pub internal: BTreeMap<String, GoStruct>,
    /// Discovery extras.
    pub extras: DiscoveryExtras,
}

/// The file of the internal structs' fields, which data written before it existed lacks
/// (`cargo xtask refdata` writes it).
pub const INTERNAL_FIELDS: &str = "go-internal-fields.json";

fn read_json<T: serde::de::DeserializeOwned>(path: PathBuf) -> Result<T, Error> {
    let text = std::fs::read_to_string(&path).map_err(|source| Error::Read {
        path: path.clone(),
        source,
    })?;
    serde_json::from_str(&text).map_err(|source| Error::Parse { path, source })
}

impl Input {
    /// Adds the short names and categories of `dir`'s `discovery-extras.json` (the
    /// release's data written from its Go modules, whose discovery documents are what
    /// kube-apiserver serves) that the input's own lack: a short name after those
    /// already listed, a resource to a category.
    pub fn add_extras(&mut self, dir: &Path) -> Result<(), Error> {
        self.extras
            .add(read_json(dir.join("discovery-extras.json"))?);
        Ok(())
    }

    /// Reads [`INTERNAL_FIELDS`] from `dir`, or, when a directory of data prepared by
    /// hand lacks it (`../shared/k8s-api/v1.36`), from `fallback` (the release's data
    /// written from its Go modules).
    pub fn read_internal(
        &mut self,
        dir: &Path,
        fallback: impl FnOnce() -> Result<PathBuf, Error>,
    ) -> Result<(), Error> {
        let path = dir.join(INTERNAL_FIELDS);
        let path = if path.exists() {
            path
        } else {
            fallback()?.join(INTERNAL_FIELDS)
        };
        self.internal = read_json(path)?;
        Ok(())
    }

    /// Reads the four files from `dir` (the internal structs: [`Input::read_internal`]).
    pub fn read(dir: &Path) -> Result<Input, Error> {
        Ok(Input {
            swagger: read_json(dir.join("swagger.json"))?,
            messages: read_json(dir.join("proto-fields.json"))?,
            go: read_json(dir.join("go-fields.json"))?,
            internal: BTreeMap::new(),
            extras: read_json(dir.join("discovery-extras.json"))?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extras_are_added_without_repeats() -> Result<(), serde_json::Error> {
        let mut ours: DiscoveryExtras = serde_json::from_str(
            r#"{"shortNames": {"/pods": ["po"]}, "categories": {"all": ["/pods"]}}"#,
        )?;
        ours.add(serde_json::from_str(
            r#"{"_about": "x", "shortNames": {"/pods": ["po", "p"], "networking.k8s.io/ipaddresses": ["ip"]},
                "categories": {"all": ["/pods", "/services"], "api-extensions": ["apiregistration.k8s.io/apiservices"]}}"#,
        )?);
        assert_eq!(ours.short_names["/pods"], ["po", "p"]);
        assert_eq!(ours.short_names["networking.k8s.io/ipaddresses"], ["ip"]);
        assert_eq!(ours.categories["all"], ["/pods", "/services"]);
        assert_eq!(
            ours.categories["api-extensions"],
            ["apiregistration.k8s.io/apiservices"]
        );
        Ok(())
    }

    fn go_field(json: &str) -> Result<GoField, serde_json::Error> {
        serde_json::from_str(json)
    }

    #[test]
    fn an_embedded_field_without_a_json_name_is_inlined() -> Result<(), serde_json::Error> {
        let base = r#""pointer":false,"omitempty":false,"omitzero":false,"type":"v1.TypeMeta""#;
        // 1.36's `json:",inline"` and 1.37's `json:""` alike.
        let old = go_field(&format!(
            r#"{{"embedded":true,"inline":true,"json":"",{base}}}"#
        ))?;
        let new = go_field(&format!(
            r#"{{"embedded":true,"inline":false,"json":"",{base}}}"#
        ))?;
        assert!(old.is_inlined() && new.is_inlined());
        // A named embedded field (`ObjectMeta` as `metadata`) is not.
        let named = go_field(&format!(
            r#"{{"embedded":true,"inline":false,"json":"metadata",{base}}}"#
        ))?;
        assert!(!named.is_inlined());
        let plain = go_field(&format!(
            r#"{{"embedded":false,"inline":false,"json":"",{base}}}"#
        ))?;
        assert!(!plain.is_inlined());
        Ok(())
    }
}
