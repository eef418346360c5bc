//! The Rust model of the API: which messages become which Rust types, with which fields,
//! and which are kinds registered in the Scheme. Everything the emitter writes is decided
//! here, from the data and the few facts about Go's registration the data lacks (the
//! tables at the top).

use std::collections::{BTreeMap, BTreeSet};

use crate::Error;
use crate::input::{Definition, GoField, Gvk, Input, ProtoField, ProtoMessage};
use crate::naming;

/// Messages that `apimachinery` already defines, by definition name → Rust path.
const EXTERNAL: &[(&str, &str)] = &[
    (
        "io.k8s.apimachinery.pkg.apis.meta.v1.APIGroup",
        "apimachinery::apis::meta::v1::APIGroup",
    ),
    (
        "io.k8s.apimachinery.pkg.apis.meta.v1.APIGroupList",
        "apimachinery::apis::meta::v1::APIGroupList",
    ),
    (
        "io.k8s.apimachinery.pkg.apis.meta.v1.APIResource",
        "apimachinery::apis::meta::v1::APIResource",
    ),
    (
        "io.k8s.apimachinery.pkg.apis.meta.v1.APIResourceList",
        "apimachinery::apis::meta::v1::APIResourceList",
    ),
    (
        "io.k8s.apimachinery.pkg.apis.meta.v1.APIVersions",
        "apimachinery::apis::meta::v1::APIVersions",
    ),
    (
        "io.k8s.apimachinery.pkg.apis.meta.v1.Duration",
        "apimachinery::apis::meta::v1::Duration",
    ),
    (
        "io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1",
        "apimachinery::apis::meta::v1::FieldsV1",
    ),
    (
        "io.k8s.apimachinery.pkg.apis.meta.v1.GroupVersionForDiscovery",
        "apimachinery::apis::meta::v1::GroupVersionForDiscovery",
    ),
    (
        "io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector",
        "apimachinery::apis::meta::v1::LabelSelector",
    ),
    (
        "io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement",
        "apimachinery::apis::meta::v1::LabelSelectorRequirement",
    ),
    (
        "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta",
        "apimachinery::apis::meta::v1::ListMeta",
    ),
    (
        "io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry",
        "apimachinery::apis::meta::v1::ManagedFieldsEntry",
    ),
    (
        "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime",
        "apimachinery::apis::meta::v1::MicroTime",
    ),
    (
        "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
        "apimachinery::apis::meta::v1::ObjectMeta",
    ),
    (
        "io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference",
        "apimachinery::apis::meta::v1::OwnerReference",
    ),
    (
        "io.k8s.apimachinery.pkg.apis.meta.v1.ServerAddressByClientCIDR",
        "apimachinery::apis::meta::v1::ServerAddressByClientCIDR",
    ),
    (
        "io.k8s.apimachinery.pkg.apis.meta.v1.ShardInfo",
        "apimachinery::apis::meta::v1::ShardInfo",
    ),
    (
        "io.k8s.apimachinery.pkg.apis.meta.v1.Status",
        "apimachinery::apis::meta::v1::Status",
    ),
    (
        "io.k8s.apimachinery.pkg.apis.meta.v1.StatusCause",
        "apimachinery::apis::meta::v1::StatusCause",
    ),
    (
        "io.k8s.apimachinery.pkg.apis.meta.v1.StatusDetails",
        "apimachinery::apis::meta::v1::StatusDetails",
    ),
    (
        "io.k8s.apimachinery.pkg.apis.meta.v1.Time",
        "apimachinery::apis::meta::v1::Time",
    ),
    (
        "io.k8s.apimachinery.pkg.apis.meta.v1.TypeMeta",
        "apimachinery::apis::meta::v1::TypeMeta",
    ),
    ("io.k8s.apimachinery.pkg.api.resource.Quantity", QUANTITY),
    // Go's QuantityValue embeds a Quantity and has its JSON.
    (
        "io.k8s.apimachinery.pkg.api.resource.QuantityValue",
        QUANTITY,
    ),
    (
        "io.k8s.apimachinery.pkg.util.intstr.IntOrString",
        "crate::value::IntOrString",
    ),
    (
        "io.k8s.apimachinery.pkg.runtime.RawExtension",
        "crate::value::RawExtension",
    ),
    // apiextensions' JSON values and unions have hand-written JSON (`k8s-types/src/custom`).
    (
        "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON",
        "crate::custom::apiextensions::JSON",
    ),
    (
        "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1beta1.JSON",
        "crate::custom::apiextensions::JSON",
    ),
    (
        "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray",
        "crate::custom::apiextensions::JSONSchemaPropsOrArray<JSONSchemaProps>",
    ),
    (
        "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1beta1.JSONSchemaPropsOrArray",
        "crate::custom::apiextensions::JSONSchemaPropsOrArray<JSONSchemaProps>",
    ),
    (
        "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool",
        "crate::custom::apiextensions::JSONSchemaPropsOrBool<JSONSchemaProps>",
    ),
    (
        "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1beta1.JSONSchemaPropsOrBool",
        "crate::custom::apiextensions::JSONSchemaPropsOrBool<JSONSchemaProps>",
    ),
    (
        "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray",
        "crate::custom::apiextensions::JSONSchemaPropsOrStringArray<JSONSchemaProps>",
    ),
    (
        "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1beta1.JSONSchemaPropsOrStringArray",
        "crate::custom::apiextensions::JSONSchemaPropsOrStringArray<JSONSchemaProps>",
    ),
];

/// The Rust type of `resource.Quantity`. Value types are named through `k8s_types::value`,
/// which re-exports them from `apimachinery`.
const QUANTITY: &str = "crate::value::Quantity";
/// The Rust type of Go's `[]byte` (base64 in JSON).
pub const BYTES: &str = "crate::value::ByteString";

/// Messages with no JSON form of their own, not generated: protobuf-only wrappers
/// (`Timestamp`, `runtime.Unknown`, `runtime.TypeMeta`) and `GroupVersion`, whose Go type
/// marshals as a `group/version` string.
const NOT_GENERATED: &[&str] = &[
    "io.k8s.apimachinery.pkg.apis.meta.v1.Timestamp",
    "io.k8s.apimachinery.pkg.apis.meta.v1.GroupVersion",
    "io.k8s.apimachinery.pkg.runtime.TypeMeta",
    "io.k8s.apimachinery.pkg.runtime.Unknown",
];

/// Kinds Go registers that the OpenAPI document does not serve (options, reviews and
/// internal bookkeeping kinds); none is a REST resource.
const EXTRA_KINDS: &[&str] = &[
    "io.k8s.api.admission.v1.AdmissionReview",
    "io.k8s.api.admission.v1beta1.AdmissionReview",
    "io.k8s.api.apps.v1beta1.DeploymentRollback",
    "io.k8s.api.extensions.v1beta1.DeploymentRollback",
    "io.k8s.api.core.v1.NodeProxyOptions",
    "io.k8s.api.core.v1.PodAttachOptions",
    "io.k8s.api.core.v1.PodExecOptions",
    "io.k8s.api.core.v1.PodLogOptions",
    "io.k8s.api.core.v1.PodPortForwardOptions",
    "io.k8s.api.core.v1.PodProxyOptions",
    "io.k8s.api.core.v1.PodStatusResult",
    "io.k8s.api.core.v1.RangeAllocation",
    "io.k8s.api.core.v1.SerializedReference",
    "io.k8s.api.core.v1.ServiceProxyOptions",
    "io.k8s.api.imagepolicy.v1alpha1.ImageReview",
    "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.ConversionReview",
    "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1beta1.ConversionReview",
    "io.k8s.apimachinery.pkg.apis.meta.v1.PartialObjectMetadataList",
    "io.k8s.apimachinery.pkg.apis.meta.v1beta1.PartialObjectMetadataList",
];

/// The options kinds `metav1.AddToGroupVersion` registers in every group version (with
/// `DeleteOptions`, whose OpenAPI entry lists those group versions).
const GROUP_OPTIONS: &[&str] = &[
    "io.k8s.apimachinery.pkg.apis.meta.v1.CreateOptions",
    "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions",
    "io.k8s.apimachinery.pkg.apis.meta.v1.GetOptions",
    "io.k8s.apimachinery.pkg.apis.meta.v1.ListOptions",
    "io.k8s.apimachinery.pkg.apis.meta.v1.PatchOptions",
    "io.k8s.apimachinery.pkg.apis.meta.v1.UpdateOptions",
];
const DELETE_OPTIONS: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions";
const WATCH_EVENT: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent";

/// meta/v1 kinds `metav1.AddMetaToScheme` registers, and that `meta.k8s.io/v1beta1`
/// registers again under the same names (its `Table`, `TableOptions` and
/// `PartialObjectMetadata` are aliases of v1's): where else each is registered.
const META_V1BETA1_TWINS: &[(&str, &[(&str, &str)])] = &[
    (
        "io.k8s.apimachinery.pkg.apis.meta.v1.Table",
        &[("meta.k8s.io", "v1beta1")],
    ),
    (
        "io.k8s.apimachinery.pkg.apis.meta.v1.TableOptions",
        &[("meta.k8s.io", "v1beta1")],
    ),
    (
        "io.k8s.apimachinery.pkg.apis.meta.v1.PartialObjectMetadata",
        &[("meta.k8s.io", "v1beta1")],
    ),
];

/// Messages whose Go struct embeds `TypeMeta` though the OpenAPI document does not say
/// so (it has no entry for them).
const EMBEDS_TYPE_META: &[&str] = &["io.k8s.apimachinery.pkg.apis.meta.v1.ApplyOptions"];

/// API groups of packages whose kinds the OpenAPI document does not name.
const PACKAGE_GROUPS: &[(&str, &str)] = &[
    ("admission", "admission.k8s.io"),
    ("apidiscovery", "apidiscovery.k8s.io"),
    ("core", ""),
    ("extensions", "extensions"),
    ("imagepolicy", "imagepolicy.k8s.io"),
    ("meta", "meta.k8s.io"),
];

/// Kinds that moved out of `extensions`: where to look for their served twin.
pub const MOVED_FROM_EXTENSIONS: &[&str] = &["apps", "networking", "policy"];

/// A Rust type of a field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ty {
    /// A primitive or external type, by Rust path.
    Path(String),
    /// A generated type.
    Local {
        module: String,
        version: String,
        name: String,
    },
    /// `Vec<T>`.
    Vec(Box<Ty>),
    /// `BTreeMap<String, T>`.
    Map(Box<Ty>),
    /// `Box<T>`, to break a recursive type.
    Boxed(Box<Ty>),
}

impl Ty {
    fn is_collection(&self) -> bool {
        matches!(self, Ty::Vec(_) | Ty::Map(_))
    }
}

/// How Go's JSON encoder leaves a field out (its `json` tag options).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Omit {
    /// No option: always written (`null` for a nil pointer, slice, map or `[]byte`).
    Never,
    /// `omitempty`: left out when a zero scalar, an empty string, slice or map, or a nil
    /// pointer; never a struct.
    Empty,
    /// `omitzero`: left out when the value is its type's zero value.
    Zero,
}

/// A field of a generated struct.
#[derive(Debug)]
pub struct Field {
    /// The JSON name.
    pub json: String,
    /// The Rust name (maybe `r#type`).
    pub rust: String,
    /// The type, without the `Option` of an optional field.
    pub ty: Ty,
    /// Never `Option`: a Go value field (a scalar, a struct, or a slice or map with
    /// `omitempty`, whose nil and empty Go writes alike). A Go pointer, a `[]byte`, and a
    /// slice or map without `omitempty` (nil is `null`, empty is `[]`) are `Option`.
    pub plain: bool,
    /// When Go's JSON leaves the field out.
    pub omit: Omit,
    /// The doc comment.
    pub doc: String,
    /// Where the field is in the protobuf message: the numbers of the embedded messages
    /// Go's struct nests it in (flattened in JSON, nested on the wire), then its own.
    pub proto: Vec<u32>,
    /// A map whose values are a Go named slice (`map[string]ExtraValue`), which protobuf
    /// wraps in a message of its own (`{items = 1}`).
    pub named_slice_values: bool,
    /// The `+` markers of its Go comment (`+optional`, `+listType=map`, `+default=...`):
    /// part of what makes two versions' types the same (`crate::sharing`).
    pub markers: Vec<String>,
}

impl Field {
    /// Written as `null` when `None`: Go's pointer, slice, map or `[]byte` without
    /// `omitempty`.
    pub fn nullable(&self) -> bool {
        !self.plain && self.omit == Omit::Never
    }
}

/// The Rust shape of a field of type `ty` from its Go field: whether it is plain, and
/// when it is left out of JSON.
pub fn shape(ty: &Ty, go: &GoField) -> (bool, Omit) {
    let omit = if go.omitzero {
        Omit::Zero
    } else if go.omitempty {
        Omit::Empty
    } else {
        Omit::Never
    };
    let bytes = matches!(ty, Ty::Path(p) if p == BYTES);
    let optional = go.pointer || bytes || (ty.is_collection() && omit == Omit::Never);
    (!optional, omit)
}

/// How a kind is registered.
#[derive(Debug, Clone)]
pub struct Kind {
    /// API group.
    pub group: String,
    /// Version.
    pub version: String,
    /// Resource facts, when served as a REST resource.
    pub resource: Option<ResourceInfo>,
    /// Go's type has no `TypeMeta` (`WatchEvent`): write neither `kind` nor `apiVersion`.
    pub no_type_meta: bool,
    /// The type keeps the kind and apiVersion it was read with, and writes them as Go
    /// does (each only when set), so that kinds nested in others (a StatefulSet's claim
    /// templates, an Eviction's DeleteOptions) and types registered in several group
    /// versions round-trip.
    pub type_meta_field: bool,
    /// More group versions the same type is registered in.
    pub also_in: Vec<(String, String)>,
}

/// REST resource facts of a kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceInfo {
    /// Plural resource name.
    pub plural: String,
    /// Namespaced (else cluster-scoped).
    pub namespaced: bool,
    /// Short names.
    pub short_names: Vec<String>,
    /// Categories.
    pub categories: Vec<String>,
    /// The verbs discovery lists, sorted as the API server sorts them.
    pub verbs: Vec<String>,
}

/// A generated struct.
#[derive(Debug)]
pub struct Struct {
    /// Go's type name.
    pub name: String,
    /// The doc comment.
    pub doc: String,
    /// Fields in Go's order.
    pub fields: Vec<Field>,
    /// Registration, for kinds.
    pub kind: Option<Kind>,
    /// Writes `kind` and `apiVersion` fields of its own (embedded `TypeMeta`, not a kind).
    pub embedded_type_meta: bool,
}

/// A generated type alias (Go named slices such as `ExtraValue`).
#[derive(Debug)]
pub struct Alias {
    /// Go's type name.
    pub name: String,
    /// The doc comment.
    pub doc: String,
    /// The aliased type.
    pub ty: Ty,
    /// For a struct shared with another version of its group (`crate::sharing`), that
    /// owning version: the alias names its struct.
    pub owner: Option<String>,
}

/// One `<group>/<version>` module.
#[derive(Debug, Default)]
pub struct Module {
    /// The API group.
    pub group: String,
    /// Structs by name.
    pub structs: BTreeMap<String, Struct>,
    /// Aliases by name.
    pub aliases: BTreeMap<String, Alias>,
}

/// The whole generated API.
#[derive(Debug, Default)]
pub struct Model {
    /// The Kubernetes release (`1.37`).
    pub release: String,
    /// Modules by (group module, version).
    pub modules: BTreeMap<(String, String), Module>,
    /// The fields of the meta/v1 structs `apimachinery` defines by hand, by name, for
    /// the shapes the filled-object tests build values from.
    pub external_meta: BTreeMap<String, Vec<Field>>,
}

/// Splits `io.k8s.api.apps.v1.Deployment` into its package prefix and name.
fn split_key(key: &str) -> (&str, &str) {
    key.rsplit_once('.').unwrap_or(("", key))
}

/// The (module, version) of a package prefix, for packages the generator writes.
pub fn package_module(prefix: &str) -> Option<(String, String)> {
    let (base, version) = prefix.rsplit_once('.')?;
    let module = if let Some(m) = base.strip_prefix("io.k8s.api.") {
        m
    } else {
        match base {
            "io.k8s.apimachinery.pkg.apis.meta" => "meta",
            "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions" => "apiextensions",
            "io.k8s.kube-aggregator.pkg.apis.apiregistration" => "apiregistration",
            _ => return None,
        }
    };
    if module.contains('.') || !version.starts_with('v') {
        return None;
    }
    // `k8s_types::lifecycle` is the API lifecycle table (when each version of each kind
    // came and goes); the `lifecycle.k8s.io` group (1.37's EvictionRequest) is named for
    // its whole group name instead.
    let module = if module == "lifecycle" {
        "lifecycle_k8s_io"
    } else {
        module
    };
    Some((module.to_owned(), version.to_owned()))
}

/// Kubernetes version priority (GA, then beta, then alpha; higher numbers first), as a
/// sort key.
pub fn version_rank(version: &str) -> (u8, i64, i64) {
    let rest = version.strip_prefix('v').unwrap_or(version);
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let major: i64 = digits.parse().unwrap_or(0);
    let tail = &rest[digits.len()..];
    let (stage, minor) = if tail.is_empty() {
        (0, 0)
    } else if let Some(n) = tail.strip_prefix("beta") {
        (1, n.parse().unwrap_or(0))
    } else if let Some(n) = tail.strip_prefix("alpha") {
        (2, n.parse().unwrap_or(0))
    } else {
        (3, 0)
    };
    (stage, -major, -minor)
}

struct Builder<'a> {
    input: &'a Input,
    /// Protobuf full name → definition name.
    by_proto: BTreeMap<&'a str, &'a str>,
    /// Module → API group.
    groups: BTreeMap<String, String>,
    /// Served resources by kind.
    resources: BTreeMap<Gvk, ResourceInfo>,
    /// Definitions by short name, for twins.
    defs_by_name: BTreeMap<&'a str, Vec<&'a str>>,
}

impl<'a> Builder<'a> {
    fn new(input: &'a Input) -> Self {
        let by_proto = input
            .messages
            .iter()
            .map(|(k, m)| (m.proto.as_str(), k.as_str()))
            .collect();
        let mut groups: BTreeMap<String, String> = PACKAGE_GROUPS
            .iter()
            .map(|(m, g)| ((*m).to_owned(), (*g).to_owned()))
            .collect();
        let mut defs_by_name: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for (key, def) in &input.swagger.definitions {
            let (prefix, name) = split_key(key);
            defs_by_name.entry(name).or_default().push(key);
            if let ([gvk], Some((module, _))) = (def.gvks.as_slice(), package_module(prefix)) {
                groups.entry(module).or_insert_with(|| gvk.group.clone());
            }
        }
        Builder {
            input,
            by_proto,
            groups,
            resources: resources(input),
            defs_by_name,
        }
    }

    /// The OpenAPI definition describing `key`: its own, or that of the same type in the
    /// served version of its group (or the group it moved to).
    fn twin(&self, key: &str) -> Option<&'a str> {
        if let Some((k, _)) = self.input.swagger.definitions.get_key_value(key) {
            return Some(k.as_str());
        }
        let (prefix, name) = split_key(key);
        let (module, _) = package_module(prefix)?;
        let candidates = self.defs_by_name.get(name)?;
        let module_of = |k: &str| package_module(split_key(k).0);
        let mut same: Vec<&str> = candidates
            .iter()
            .copied()
            .filter(|k| {
                module_of(k).is_some_and(|(m, _)| {
                    m == module
                        || (module == "extensions" && MOVED_FROM_EXTENSIONS.contains(&m.as_str()))
                })
            })
            .collect();
        same.sort_by_key(|k| (module_of(k).map(|(_, v)| version_rank(&v)), *k));
        if let Some(first) = same.first() {
            return Some(first);
        }
        candidates
            .iter()
            .copied()
            .find(|k| !self.def(k).gvks.is_empty())
    }

    fn def(&self, key: &str) -> &'a Definition {
        static EMPTY: std::sync::OnceLock<Definition> = std::sync::OnceLock::new();
        self.input
            .swagger
            .definitions
            .get(key)
            .unwrap_or_else(|| EMPTY.get_or_init(Definition::default))
    }

    /// The definition name a field's protobuf type names, relative to `message`.
    fn resolve(&self, message: &ProtoMessage, ty: &str) -> Option<&'a str> {
        let full = match ty.strip_prefix('.') {
            Some(abs) => abs.to_owned(),
            None => format!("{}.{ty}", split_key(&message.proto).0),
        };
        self.by_proto.get(full.as_str()).copied()
    }

    fn message(&self, key: &str) -> Result<&'a ProtoMessage, Error> {
        self.input
            .messages
            .get(key)
            .ok_or_else(|| Error::Model(format!("no message {key}")))
    }

    /// Go named slices (`type ExtraValue []string`) appear as messages with one
    /// repeated `items` field, and in OpenAPI as plain arrays (no definition of their own,
    /// unlike structs with one `items` field such as `DownwardAPIProjection`).
    fn named_slice(&self, key: &str) -> bool {
        self.twin(key).is_none()
            && self.input.messages.get(key).is_some_and(|m| {
                matches!(m.fields.as_slice(), [f] if f.name == "items" && f.label == "repeated")
            })
    }

    /// The Rust type of a message reference.
    fn message_ty(&self, key: &str) -> Result<Ty, Error> {
        if let Some((_, path)) = EXTERNAL.iter().find(|(k, _)| *k == key) {
            // Unions over JSONSchemaProps name the props type of their own version.
            if path.contains('<') {
                let (prefix, _) = split_key(key);
                let (module, version) = package_module(prefix)
                    .ok_or_else(|| Error::Model(format!("no module for {key}")))?;
                let props = format!("crate::{module}::{version}::JSONSchemaProps");
                return Ok(Ty::Path(
                    path.replace("<JSONSchemaProps>", &format!("<{props}>")),
                ));
            }
            return Ok(Ty::Path((*path).to_owned()));
        }
        if NOT_GENERATED.contains(&key) {
            return Err(Error::Model(format!(
                "a field refers to {key}, which is not generated"
            )));
        }
        if self.named_slice(key) {
            let m = self.message(key)?;
            if let [f] = m.fields.as_slice() {
                return Ok(Ty::Vec(Box::new(self.elem_ty(m, f)?)));
            }
        }
        let (prefix, name) = split_key(key);
        let (module, version) =
            package_module(prefix).ok_or_else(|| Error::Model(format!("no module for {key}")))?;
        Ok(Ty::Local {
            module,
            version,
            name: name.to_owned(),
        })
    }

    fn elem_ty(&self, m: &ProtoMessage, f: &ProtoField) -> Result<Ty, Error> {
        let prim = match f.ty.as_str() {
            "string" => "String",
            "int32" => "i32",
            "int64" => "i64",
            "bool" => "bool",
            "double" => "f64",
            "float" => "f32",
            "bytes" => BYTES,
            other => {
                let key = self
                    .resolve(m, other)
                    .ok_or_else(|| Error::Model(format!("{}: unknown type {other}", m.proto)))?;
                return self.message_ty(key);
            }
        };
        Ok(Ty::Path(prim.to_owned()))
    }

    fn field_ty(&self, m: &ProtoMessage, f: &ProtoField) -> Result<Ty, Error> {
        let elem = self.elem_ty(m, f)?;
        Ok(match f.label.as_str() {
            "repeated" => Ty::Vec(Box::new(elem)),
            "map" => {
                if f.key.as_deref() != Some("string") {
                    return Err(Error::Model(format!(
                        "{}.{}: map key {:?} is not string",
                        m.proto, f.name, f.key
                    )));
                }
                Ty::Map(Box::new(elem))
            }
            _ => elem,
        })
    }

    /// The fields of `key` in Go order, embedded structs expanded in place. `outer` is the
    /// definition that lists the JSON names (the outermost one: the
    /// OpenAPI document flattens embedded structs).
    fn fields(
        &self,
        key: &str,
        outer: Option<&'a Definition>,
        proto_prefix: &[u32],
        out: &mut Vec<Field>,
    ) -> Result<(), Error> {
        let m = self.message(key)?;
        let own = self.twin(key).map(|k| self.def(k));
        let def = outer.or(own);
        for f in &m.fields {
            let props = def.map(|d| &d.properties);
            let json = props.and_then(|p| {
                if p.contains_key(&f.name) {
                    Some(f.name.clone())
                } else {
                    let mut matches = p.keys().filter(|k| k.eq_ignore_ascii_case(&f.name));
                    match (matches.next(), matches.next()) {
                        (Some(k), None) => Some(k.clone()),
                        _ => None,
                    }
                }
            });
            let target = if f.label == "optional" && !is_scalar(&f.ty) {
                self.resolve(m, &f.ty)
            } else {
                None
            };
            let embedded = json.is_none()
                && target.is_some_and(|t| {
                    !EXTERNAL.iter().any(|(k, _)| *k == t)
                        && match props {
                            Some(p) if !p.is_empty() => self.covered(t, p),
                            // Without an OpenAPI entry nothing tells an embedded struct
                            // from a field named after its type; the messages concerned
                            // (admission, discovery and review kinds) embed none.
                            _ => false,
                        }
                });
            let proto: Vec<u32> = proto_prefix.iter().copied().chain([f.number]).collect();
            if let (true, Some(t)) = (embedded, target) {
                self.fields(t, def.filter(|d| !d.properties.is_empty()), &proto, out)?;
                continue;
            }
            let named_slice_values = f.label == "map"
                && !is_scalar(&f.ty)
                && self.resolve(m, &f.ty).is_some_and(|t| self.named_slice(t));
            let ty = self.field_ty(m, f)?;
            let go = self.go_field(key, f.number).ok_or_else(|| {
                Error::Model(format!(
                    "{key}.{}: no Go field with protobuf number {} in go-fields.json",
                    f.name, f.number
                ))
            })?;
            // Go's tag is the JSON name; OpenAPI has none for unserved versions, whose
            // names would otherwise be guessed (`apiextensions/v1beta1`'s `JSONPath`).
            let json = match go.json.as_str() {
                "" | "-" => json.unwrap_or_else(|| naming::lower_first(&f.name)),
                tag => tag.to_owned(),
            };
            let (plain, omit) = shape(&ty, go);
            out.push(Field {
                rust: naming::field_name(&json),
                json,
                ty,
                plain,
                omit,
                doc: f.doc.clone(),
                proto,
                named_slice_values,
                markers: f.markers.clone(),
            });
        }
        Ok(())
    }

    /// The Go field of message `key` with protobuf number `number`. A type defined as
    /// another (`type MatchCondition v1.MatchCondition`, `type List metav1.List`) has no
    /// fields of its own in `go-fields.json`: those of the struct of the same name that
    /// has the field are taken.
    fn go_field(&self, key: &str, number: u32) -> Option<&'a GoField> {
        let by_number =
            |fields: &'a [GoField]| fields.iter().find(|g| g.proto_number() == Some(number));
        if let Some(found) = self.input.go.get(key).and_then(|s| by_number(&s.fields)) {
            return Some(found);
        }
        let defined_as = self.input.go.get(key)?.defined_as.as_deref()?;
        let target = defined_as.rsplit('.').next().unwrap_or(defined_as);
        self.input
            .go
            .iter()
            .filter(|(k, _)| split_key(k).1 == target)
            .find_map(|(_, s)| by_number(&s.fields))
    }

    /// Whether the Go struct of `key`, in a package of `k8s.io/api`, `apiextensions` or
    /// `kube-aggregator`, embeds `metav1.TypeMeta`: Go registers every such struct as a
    /// kind of its package's group version (`apidiscovery.k8s.io`'s, for one, has no
    /// OpenAPI entry to say so). meta/v1's own kinds are registered by the rules above,
    /// as `metav1.AddToGroupVersion` registers them.
    fn embeds_type_meta(&self, key: &str) -> bool {
        let embeds = |fields: &[GoField]| {
            fields
                .iter()
                .any(|f| f.is_inlined() && f.protobuf.is_none() && f.is_type_meta())
        };
        let Some(s) = self.input.go.get(key) else {
            return false;
        };
        if key.starts_with("io.k8s.apimachinery.") {
            return false;
        }
        match s.defined_as.as_deref() {
            // `type List metav1.List`: the fields are the named struct's.
            Some(defined_as) => {
                let target = defined_as.rsplit('.').next().unwrap_or(defined_as);
                self.input
                    .go
                    .iter()
                    .filter(|(k, _)| split_key(k).1 == target && k.as_str() != key)
                    .any(|(_, t)| embeds(&t.fields))
            }
            None => embeds(&s.fields),
        }
    }

    /// Whether every field of `key` (embedded ones expanded) is among `props`: then a
    /// field of that type with no property of its own is an embedded struct. All, not
    /// some: a twin from another version may share a few names by chance.
    fn covered(&self, key: &str, props: &BTreeMap<String, serde_json::Value>) -> bool {
        let Some(m) = self.input.messages.get(key) else {
            return false;
        };
        m.fields.iter().all(|f| {
            props.keys().any(|k| k.eq_ignore_ascii_case(&f.name))
                || (f.label == "optional"
                    && !is_scalar(&f.ty)
                    && self
                        .resolve(m, &f.ty)
                        .is_some_and(|t| t != key && self.covered(t, props)))
        })
    }

    fn kind(&self, key: &str, m: &ProtoMessage) -> Option<Kind> {
        let (prefix, name) = split_key(key);
        let (module, version) = package_module(prefix)?;
        let group = self.groups.get(&module)?.clone();
        // Every group version the options are served in, and those of packages whose
        // kinds no server serves (`apidiscovery.k8s.io`): Go's register.go of each calls
        // `metav1.AddToGroupVersion` all the same.
        let all_groups = || -> Vec<(String, String)> {
            let served = self
                .def(DELETE_OPTIONS)
                .gvks
                .iter()
                .map(|g| (g.group.clone(), g.version.clone()));
            let unserved = self
                .input
                .go
                .keys()
                .filter(|k| self.embeds_type_meta(k))
                .filter_map(|k| package_module(split_key(k).0))
                .filter_map(|(m, v)| Some((self.groups.get(&m)?.clone(), v)));
            let all: BTreeSet<(String, String)> = served.chain(unserved).collect();
            all.into_iter()
                .filter(|gv| *gv != (group.clone(), version.clone()))
                .collect()
        };
        if let Some((_, gvs)) = META_V1BETA1_TWINS.iter().find(|(k, _)| *k == key) {
            return Some(Kind {
                group,
                version,
                resource: None,
                no_type_meta: false,
                type_meta_field: true,
                also_in: gvs
                    .iter()
                    .map(|(g, v)| ((*g).to_owned(), (*v).to_owned()))
                    .collect(),
            });
        }
        if GROUP_OPTIONS.contains(&key) || key == WATCH_EVENT {
            return Some(Kind {
                group: group.clone(),
                version: version.clone(),
                resource: None,
                no_type_meta: key == WATCH_EVENT,
                type_meta_field: key != WATCH_EVENT,
                also_in: all_groups(),
            });
        }
        let own_gvk = Gvk {
            group: group.clone(),
            version: version.clone(),
            kind: name.to_owned(),
        };
        let twin_gvk = match self.twin(key) {
            Some(t) => match self.def(t).gvks.as_slice() {
                [g] if g.kind == name => Some(g.clone()),
                _ => None,
            },
            None => None,
        };
        if twin_gvk.is_none() && !EXTRA_KINDS.contains(&key) && !self.embeds_type_meta(key) {
            return None;
        }
        // A list is a kind only when its items are, or are any object (core's `v1 List`,
        // of `RawExtension`s, which Go registers too).
        if let Some(items) = m
            .fields
            .iter()
            .find(|f| f.name == "items" && f.label == "repeated")
        {
            let item_is_kind = items.ty.ends_with("runtime.RawExtension")
                || self
                    .resolve(m, &items.ty)
                    .and_then(|k| Some((k, self.message(k).ok()?)))
                    .is_some_and(|(k, im)| self.kind(k, im).is_some());
            if !item_is_kind {
                return None;
            }
        }
        // A version no longer served takes its names and scope from the served twin, but
        // no verbs: nothing can be done with it on a server, and discovery leaves it out.
        let mut resource = self.resources.get(&own_gvk).cloned().or_else(|| {
            let mut twin = twin_gvk
                .as_ref()
                .and_then(|g| self.resources.get(g))?
                .clone();
            twin.verbs.clear();
            Some(twin)
        });
        if let Some(r) = &mut resource {
            let gr = format!("{group}/{}", r.plural);
            r.short_names = self
                .input
                .extras
                .short_names
                .get(&gr)
                .cloned()
                .unwrap_or_default();
            r.categories = self
                .input
                .extras
                .categories
                .iter()
                .filter(|(_, members)| members.contains(&gr))
                .map(|(c, _)| c.clone())
                .collect();
        }
        Some(Kind {
            group,
            version,
            resource,
            no_type_meta: false,
            type_meta_field: true,
            also_in: Vec::new(),
        })
    }
}

fn is_scalar(ty: &str) -> bool {
    matches!(
        ty,
        "string" | "int32" | "int64" | "bool" | "double" | "float" | "bytes"
    )
}

/// Resource names, scopes and verbs of every served kind, from the paths of its main
/// resource (`.../{plural}`, `.../namespaces/{namespace}/{plural}`, `.../{plural}/{name}`,
/// and the same under `watch/`).
fn resources(input: &Input) -> BTreeMap<Gvk, ResourceInfo> {
    let mut out: BTreeMap<Gvk, ResourceInfo> = BTreeMap::new();
    for (path, ops) in &input.swagger.paths {
        let rest = if let Some(r) = path.strip_prefix("/api/v1/") {
            r
        } else if let Some(r) = path.strip_prefix("/apis/") {
            match r.splitn(3, '/').nth(2) {
                Some(r) => r,
                None => continue,
            }
        } else {
            continue;
        };
        let segments: Vec<&str> = rest.split('/').filter(|s| !s.is_empty()).collect();
        let segments = match segments.as_slice() {
            ["watch", rest @ ..] => rest,
            all => all,
        };
        let (namespaced, resource) = match segments {
            ["namespaces", "{namespace}", resource @ ..] => (true, resource),
            resource => (false, resource),
        };
        let plural = match resource {
            [plural] | [plural, "{name}"] => *plural,
            _ => continue,
        };
        for op in ops.values() {
            let Some(gvk) = op.get("x-kubernetes-group-version-kind") else {
                continue;
            };
            let Ok(gvk) = serde_json::from_value::<Gvk>(gvk.clone()) else {
                continue;
            };
            let entry = out.entry(gvk).or_insert_with(|| ResourceInfo {
                plural: plural.to_owned(),
                namespaced,
                short_names: Vec::new(),
                categories: Vec::new(),
                verbs: Vec::new(),
            });
            entry.namespaced |= namespaced;
            let verb = op
                .get("x-kubernetes-action")
                .and_then(|a| a.as_str())
                .and_then(discovery_verb);
            if let Some(verb) = verb {
                if !entry.verbs.iter().any(|v| v == verb) {
                    entry.verbs.push(verb.to_owned());
                }
            }
        }
    }
    // The API server lists verbs sorted.
    for info in out.values_mut() {
        info.verbs.sort();
    }
    out
}

/// The discovery verb of an OpenAPI `x-kubernetes-action` (the REST action of a path).
fn discovery_verb(action: &str) -> Option<&'static str> {
    Some(match action {
        "get" => "get",
        "list" => "list",
        "watch" | "watchlist" => "watch",
        "post" => "create",
        "put" => "update",
        "patch" => "patch",
        "delete" => "delete",
        "deletecollection" => "deletecollection",
        _ => return None,
    })
}

/// Builds the model from the input.
pub fn build(input: &Input) -> Result<Model, Error> {
    let b = Builder::new(input);
    let mut model = Model::default();
    for (key, m) in &input.messages {
        let (prefix, name) = split_key(key);
        if let Some((_, path)) = EXTERNAL.iter().find(|(k, _)| k == key) {
            if path.starts_with("apimachinery::apis::meta::v1::")
                && b.input
                    .swagger
                    .definitions
                    .get(key.as_str())
                    .is_some_and(|d| !d.properties.is_empty())
            {
                let mut fields = Vec::new();
                b.fields(key, None, &[], &mut fields)?;
                model.external_meta.insert(name.to_owned(), fields);
            }
            // Hand-written types of a generated group get an alias there, so that users
            // find them under the group's name.
            if let (true, Some(module)) = (path.starts_with("crate::"), package_module(prefix)) {
                let ty = b.message_ty(key)?;
                let entry = model.modules.entry(module).or_default();
                entry.aliases.insert(
                    name.to_owned(),
                    Alias {
                        name: name.to_owned(),
                        doc: m.doc.clone(),
                        ty,
                        owner: None,
                    },
                );
            }
            continue;
        }
        if NOT_GENERATED.contains(&key.as_str()) {
            continue;
        }
        let Some((module, version)) = package_module(prefix) else {
            return Err(Error::Model(format!(
                "{key}: no Rust module for its package"
            )));
        };
        let group = b
            .groups
            .get(&module)
            .cloned()
            .ok_or_else(|| Error::Model(format!("{key}: no API group known for `{module}`")))?;
        let doc = if m.doc.trim().is_empty() {
            b.twin(key)
                .map(|t| b.def(t).description.clone())
                .unwrap_or_default()
        } else {
            m.doc.clone()
        };
        let entry = model.modules.entry((module, version)).or_default();
        entry.group = group;
        if b.named_slice(key) {
            let ty = b.message_ty(key)?;
            entry.aliases.insert(
                name.to_owned(),
                Alias {
                    name: name.to_owned(),
                    doc,
                    ty,
                    owner: None,
                },
            );
            continue;
        }
        let mut fields = Vec::new();
        b.fields(key, None, &[], &mut fields)?;
        let kind = b.kind(key, m);
        let proto_names: BTreeSet<&str> = m.fields.iter().map(|f| f.name.as_str()).collect();
        let embedded_type_meta = kind.is_none()
            && (EMBEDS_TYPE_META.contains(&key.as_str())
                || b.twin(key).is_some_and(|t| {
                    let props = &b.def(t).properties;
                    props.contains_key("kind")
                        && props.contains_key("apiVersion")
                        && !proto_names.contains("kind")
                        && !proto_names.contains("apiVersion")
                }));
        let mut seen = BTreeSet::new();
        for f in &fields {
            if !seen.insert(f.rust.as_str()) {
                return Err(Error::Model(format!("{key}: two fields named {}", f.rust)));
            }
        }
        entry.structs.insert(
            name.to_owned(),
            Struct {
                name: name.to_owned(),
                doc,
                fields,
                kind,
                embedded_type_meta,
            },
        );
    }
    box_recursion(&mut model);
    Ok(model)
}

/// Boxes every direct (not in a `Vec` or map) field whose type can contain the struct
/// that holds it, so that every type has a finite size.
fn box_recursion(model: &mut Model) {
    type Node = (String, String, String);
    let mut edges: BTreeMap<Node, BTreeSet<Node>> = BTreeMap::new();
    for ((module, version), m) in &model.modules {
        for s in m.structs.values() {
            let from = (module.clone(), version.clone(), s.name.clone());
            let to = edges.entry(from).or_default();
            for f in &s.fields {
                if let Ty::Local {
                    module,
                    version,
                    name,
                } = &f.ty
                {
                    to.insert((module.clone(), version.clone(), name.clone()));
                }
            }
        }
    }
    let reaches = |from: &Node, target: &Node| -> bool {
        let mut stack = vec![from.clone()];
        let mut seen = BTreeSet::new();
        while let Some(n) = stack.pop() {
            if &n == target {
                return true;
            }
            if seen.insert(n.clone()) {
                stack.extend(edges.get(&n).into_iter().flatten().cloned());
            }
        }
        false
    };
    let mut to_box = Vec::new();
    for ((module, version), m) in &model.modules {
        for s in m.structs.values() {
            let me = (module.clone(), version.clone(), s.name.clone());
            for (i, f) in s.fields.iter().enumerate() {
                if let Ty::Local {
                    module: tm,
                    version: tv,
                    name,
                } = &f.ty
                {
                    if reaches(&(tm.clone(), tv.clone(), name.clone()), &me) {
                        to_box.push((module.clone(), version.clone(), s.name.clone(), i));
                    }
                }
            }
        }
    }
    for (module, version, name, i) in to_box {
        if let Some(f) = model
            .modules
            .get_mut(&(module, version))
            .and_then(|m| m.structs.get_mut(&name))
            .and_then(|s| s.fields.get_mut(i))
        {
            f.ty = Ty::Boxed(Box::new(f.ty.clone()));
        }
    }
}
