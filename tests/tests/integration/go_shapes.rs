//! Go's zero values, mechanically: for every kind registered in the Scheme (the
//! `k8s-types` kinds and the hand-written `meta/v1` ones), the default object must be
//! written as Go writes the zero value of its struct, field by field, as
//! `go-fields.json` describes the struct (the release's reference data, `release_data::dir`):
//!
//! * JSON: a value field without `omitempty` is written (`""`, `0`, `false`); with it, a
//!   zero scalar is left out; a pointer, slice, map or `[]byte` is `null` without
//!   `omitempty` and left out with it; a struct is always written (`omitempty` never
//!   leaves one out, `omitzero` does), recursively; embedded structs without a JSON
//!   name are flattened; `Time`/`MicroTime` are `null`, `Quantity` `"0"`, `IntOrString`
//!   `0`, `RawExtension` `null`, `Duration` `"0s"`. Named types count as what they are
//!   defined as (`type Verbs []string` is a slice). Fields come in Go's order.
//! * Protobuf: a message holds exactly its value fields (gogo writes every non-pointer
//!   field, and nothing for a nil pointer, slice, map or `[]byte`), recursively into the
//!   messages of value structs.
//!
//! `kind` and `apiVersion` of the object itself are the encoders' to set, so they are
//! not compared at the top level. Every difference of every kind is reported at once.
//! Field types are resolved through `proto-fields.json` (fully qualified message names)
//! and, where a field has no message, through the Go type's name.
//!
//! Without the reference data the tests pass with a note, unless `CI` is set.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::PathBuf;

use apimachinery::proto::{WireDecoder, WireType};
use apimachinery::runtime::{API_VERSION_INTERNAL, Object, Scheme};
use apimachinery::schema::GroupVersionKind;
use apimachinery::serializer::Encoder;
use apimachinery::serializer::json::{JsonSerializer, SerializerOptions};
use apimachinery::serializer::protobuf::encode_raw_object;
use serde::Deserialize;
use serde::de::{MapAccess, SeqAccess, Visitor};
use serde_json::Value;

// Linking the generated types registers them.
use k8s_types as _;

fn data_dir() -> PathBuf {
    crate::release_data::dir(k8s_types::RELEASE)
}

// ---------------------------------------------------------------------------------------
// JSON kept in document order (serde_json's `Value` sorts keys).

/// A JSON value with object members in the order they were written.
#[derive(Clone, Debug, PartialEq)]
enum J {
    Null,
    Bool(bool),
    /// A number, as its text.
    Num(String),
    Str(String),
    Arr(Vec<J>),
    Obj(Vec<(String, J)>),
}

impl<'de> Deserialize<'de> for J {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<J, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = J;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("JSON")
            }
            fn visit_unit<E>(self) -> Result<J, E> {
                Ok(J::Null)
            }
            fn visit_none<E>(self) -> Result<J, E> {
                Ok(J::Null)
            }
            fn visit_bool<E>(self, v: bool) -> Result<J, E> {
                Ok(J::Bool(v))
            }
            fn visit_i64<E>(self, v: i64) -> Result<J, E> {
                Ok(J::Num(v.to_string()))
            }
            fn visit_u64<E>(self, v: u64) -> Result<J, E> {
                Ok(J::Num(v.to_string()))
            }
            fn visit_f64<E>(self, v: f64) -> Result<J, E> {
                Ok(J::Num(v.to_string()))
            }
            fn visit_str<E>(self, v: &str) -> Result<J, E> {
                Ok(J::Str(v.to_owned()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<J, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(J::Arr(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<J, A::Error> {
                let mut members = Vec::new();
                while let Some(member) = map.next_entry::<String, J>()? {
                    members.push(member);
                }
                Ok(J::Obj(members))
            }
        }
        deserializer.deserialize_any(V)
    }
}

impl fmt::Display for J {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            J::Null => f.write_str("null"),
            J::Bool(b) => write!(f, "{b}"),
            J::Num(n) => f.write_str(n),
            J::Str(s) => write!(f, "{s:?}"),
            J::Arr(items) => {
                f.write_str("[")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str("]")
            }
            J::Obj(members) => {
                f.write_str("{")?;
                for (i, (k, v)) in members.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{k:?}:{v}")?;
                }
                f.write_str("}")
            }
        }
    }
}

/// `j` as text, cut short: a report line should stay a line.
fn short(j: &J) -> String {
    let text = j.to_string();
    match text.char_indices().nth(120) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text,
    }
}

// ---------------------------------------------------------------------------------------
// The reference data.

/// One Go struct field of `go-fields.json`.
#[derive(Debug, Deserialize)]
struct GoField {
    go: String,
    #[serde(rename = "type")]
    ty: String,
    #[serde(default)]
    json: String,
    #[serde(default)]
    embedded: bool,
    #[serde(default)]
    pointer: bool,
    #[serde(default)]
    slice: bool,
    #[serde(default)]
    map: bool,
    #[serde(default)]
    omitempty: bool,
    #[serde(default)]
    omitzero: bool,
    #[serde(default)]
    protobuf: Option<String>,
}

impl GoField {
    /// The protobuf field number, when the field is on the wire.
    fn proto_number(&self) -> Option<u32> {
        self.protobuf.as_deref()?.split(',').nth(1)?.parse().ok()
    }

    /// The protobuf field name (`name=...` of the tag), which `proto-fields.json` uses.
    fn proto_name(&self) -> Option<&str> {
        self.protobuf
            .as_deref()?
            .split(',')
            .find_map(|part| part.strip_prefix("name="))
    }

    /// The JSON member name: the tag's, else the Go field's (Go's rule).
    fn json_name(&self) -> &str {
        if self.json.is_empty() {
            &self.go
        } else {
            &self.json
        }
    }
}

/// One Go type of `go-fields.json`: a struct (`fields`) or a type defined as another.
#[derive(Debug, Deserialize)]
struct GoType {
    #[serde(default)]
    fields: Option<Vec<GoField>>,
    #[serde(default)]
    defined_as: Option<String>,
}

#[derive(Debug, Deserialize)]
struct ProtoField {
    name: String,
    /// `optional`, `repeated` or `map`.
    label: String,
    #[serde(rename = "type")]
    ty: String,
}

#[derive(Debug, Deserialize)]
struct ProtoMessage {
    proto: String,
    #[serde(default)]
    fields: Vec<ProtoField>,
}

const META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1";
const TIME: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.Time";
const MICRO_TIME: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime";
const DURATION: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.Duration";
const QUANTITY: &str = "io.k8s.apimachinery.pkg.api.resource.Quantity";
const INT_OR_STRING: &str = "io.k8s.apimachinery.pkg.util.intstr.IntOrString";
const RAW_EXTENSION: &str = "io.k8s.apimachinery.pkg.runtime.RawExtension";

/// Types with a JSON and protobuf form of their own (Go's `MarshalJSON` and hand-written
/// `Marshal`): their zero value's JSON and the fields of their zero message.
fn custom_zero(key: &str) -> Option<(J, &'static [u32])> {
    Some(match key {
        // A zero time is `null` and an empty message.
        TIME | MICRO_TIME => (J::Null, &[]),
        DURATION => (J::Str("0s".into()), &[1]),
        QUANTITY => (J::Str("0".into()), &[1]),
        // {type, intVal, strVal}, all value fields.
        INT_OR_STRING => (J::Num("0".into()), &[1, 2, 3]),
        // `Raw` is a nil `[]byte`.
        RAW_EXTENSION => (J::Null, &[]),
        _ => return None,
    })
}

/// What a Go type is, for its zero value.
#[derive(Clone, Debug, PartialEq)]
enum Shape {
    Pointer,
    Slice,
    Map,
    /// `interface{}`: a nil interface is `null`.
    Interface,
    /// A scalar, with its zero value's JSON.
    Scalar(J),
    /// A type with its own JSON (`Time`, `Quantity`, ...), by definition name.
    Custom(String),
    /// A struct, by definition name.
    Struct(String),
}

struct Reference {
    go: BTreeMap<String, GoType>,
    proto: BTreeMap<String, ProtoMessage>,
    /// Protobuf message full name (`k8s.io.api.apps.v1.Deployment`) → definition name.
    by_proto_name: BTreeMap<String, String>,
    /// Go type name → definition names with that last segment.
    by_name: BTreeMap<String, Vec<String>>,
}

/// The package part of a definition name (`io.k8s.api.apps.v1` of
/// `io.k8s.api.apps.v1.Deployment`).
fn package_of(key: &str) -> &str {
    key.rsplit_once('.').map_or("", |(package, _)| package)
}

fn scalar_zero(ty: &str) -> Option<J> {
    Some(match ty {
        "string" => J::Str(String::new()),
        "bool" => J::Bool(false),
        "int" | "int8" | "int16" | "int32" | "int64" | "uint" | "uint8" | "uint16" | "uint32"
        | "uint64" | "float32" | "float64" | "byte" | "rune" => J::Num("0".into()),
        // `time.Duration` is an int64 count of nanoseconds.
        "time.Duration" => J::Num("0".into()),
        // `k8s.io/apimachinery/pkg/types`: `UID`, `NodeName`, ... are strings.
        t if t.starts_with("types.") => J::Str(String::new()),
        _ => return None,
    })
}

/// A Go package alias's group and version: `metav1` → (`meta`, `v1`), `corev1` →
/// (`core`, `v1`), `v1` → (empty, `v1`); `None` when the alias names no version
/// (`resource`, `intstr`).
fn alias_hint(alias: &str) -> Option<(&str, &str)> {
    let at = alias.rfind('v')?;
    let (group, version) = alias.split_at(at);
    let rest = &version[1..];
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let tail = &rest[digits..];
    let stability = tail
        .strip_prefix("alpha")
        .or_else(|| tail.strip_prefix("beta"));
    let ok = tail.is_empty() || stability.is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()));
    ok.then_some((group, version))
}

impl Reference {
    fn load(dir: &std::path::Path) -> Result<Reference, String> {
        let read = |name: &str| {
            let path = dir.join(name);
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))
        };
        let go: BTreeMap<String, GoType> =
            serde_json::from_str(&read("go-fields.json")?).map_err(|e| e.to_string())?;
        let proto: BTreeMap<String, ProtoMessage> =
            serde_json::from_str(&read("proto-fields.json")?).map_err(|e| e.to_string())?;
        let by_proto_name = proto
            .iter()
            .map(|(key, m)| (m.proto.clone(), key.clone()))
            .collect();
        let mut by_name: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for key in go.keys() {
            if let Some((_, name)) = key.rsplit_once('.') {
                by_name
                    .entry(name.to_owned())
                    .or_default()
                    .push(key.clone());
            }
        }
        Ok(Reference {
            go,
            proto,
            by_proto_name,
            by_name,
        })
    }

    /// The definition a kind's struct is: `io.k8s.api.<group>.<version>.<Kind>` and the
    /// exceptions of the core group, meta, apiextensions, apiregistration and
    /// apiserverinternal. `meta/v1` kinds registered in other groups (Go's
    /// `AddToGroupVersion` adds the options and `WatchEvent` to every group version, and
    /// the unversioned `Status` and discovery kinds are in the core group) are found last.
    fn kind_definition(&self, gvk: &GroupVersionKind) -> Option<String> {
        let group = gvk.group.as_str();
        let first = group.split('.').next().unwrap_or_default();
        let package = match group {
            "" => "io.k8s.api.core".to_owned(),
            "meta.k8s.io" => "io.k8s.apimachinery.pkg.apis.meta".to_owned(),
            "apiextensions.k8s.io" => {
                "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions".to_owned()
            }
            "apiregistration.k8s.io" => {
                "io.k8s.kube-aggregator.pkg.apis.apiregistration".to_owned()
            }
            "internal.apiserver.k8s.io" => "io.k8s.api.apiserverinternal".to_owned(),
            _ => format!("io.k8s.api.{first}"),
        };
        [
            format!("{package}.{}.{}", gvk.version, gvk.kind),
            format!("{META}.{}", gvk.kind),
        ]
        .into_iter()
        .find(|key| self.go.get(key).is_some_and(|t| t.fields.is_some()))
    }

    /// The definition a protobuf field's message type names, from the owner's message.
    /// A repeated or map field names its element type, not the Go field's (a Go named
    /// map such as `ResourceList`), so only singular fields count.
    fn via_proto(&self, owner: &str, field: &GoField) -> Option<String> {
        let message = self.proto.get(owner)?;
        let name = field.proto_name()?;
        let proto_field = message
            .fields
            .iter()
            .find(|f| f.name == name && f.label == "optional")?;
        let ty = &proto_field.ty;
        let full = match ty.strip_prefix('.') {
            Some(full) => full.to_owned(),
            None => {
                let package = message.proto.rsplit_once('.')?.0;
                format!("{package}.{ty}")
            }
        };
        self.by_proto_name.get(&full).cloned()
    }

    /// The definition a Go type name (`DeploymentSpec`, `metav1.Time`, `v1.Protocol`)
    /// names, seen from the package of `owner`.
    fn via_go_name(&self, owner: &str, ty: &str) -> Result<String, String> {
        let (alias, name) = ty.rsplit_once('.').unwrap_or(("", ty));
        let candidates = self
            .by_name
            .get(name)
            .map(Vec::as_slice)
            .unwrap_or_default();
        let fixed = match alias {
            "resource" => Some("io.k8s.apimachinery.pkg.api.resource"),
            "intstr" => Some("io.k8s.apimachinery.pkg.util.intstr"),
            "runtime" => Some("io.k8s.apimachinery.pkg.runtime"),
            "metav1" => Some(META),
            _ => None,
        };
        let matching: Vec<&String> = if alias.is_empty() {
            // The owner's package; a name Go aliases from another package
            // (`type ReinvocationPolicyType = v1.ReinvocationPolicyType`) is found by name.
            let own = format!("{}.{ty}", package_of(owner));
            match candidates.iter().find(|key| **key == own) {
                Some(key) => vec![key],
                None => candidates.iter().collect(),
            }
        } else {
            candidates
                .iter()
                .filter(|key| {
                    let package = package_of(key);
                    match (fixed, alias_hint(alias)) {
                        (Some(fixed), _) => package == fixed,
                        (None, Some((group, version))) => {
                            package.ends_with(&format!(".{version}"))
                                && (group.is_empty()
                                    || package.contains(&format!(".{group}."))
                                    || (group == "core" && package.starts_with("io.k8s.api.core.")))
                        }
                        (None, None) => true,
                    }
                })
                .collect()
        };
        match matching.as_slice() {
            [one] => Ok((*one).clone()),
            [] => Err(format!("no definition for Go type {ty} (in {owner})")),
            [first, rest @ ..] => {
                // Several packages define the name (`v1.ConditionStatus` in core and meta):
                // fine when they are the same thing to Go's encoders.
                let shape = self.shape_of_key(first)?;
                for other in rest {
                    if self.shape_of_key(other)? != shape {
                        return Err(format!(
                            "Go type {ty} (in {owner}) is ambiguous: {}",
                            matching
                                .iter()
                                .map(|k| k.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ));
                    }
                }
                Ok((*first).clone())
            }
        }
    }

    /// The shape of a definition: a struct, a custom type, or what it is defined as.
    fn shape_of_key(&self, key: &str) -> Result<Shape, String> {
        if custom_zero(key).is_some() {
            return Ok(Shape::Custom(key.to_owned()));
        }
        let ty = self
            .go
            .get(key)
            .ok_or_else(|| format!("no definition {key}"))?;
        match (&ty.defined_as, &ty.fields) {
            (Some(defined_as), _) => self.shape_of_type(key, defined_as, None),
            (None, Some(_)) => Ok(Shape::Struct(key.to_owned())),
            (None, None) => Err(format!("{key} is neither a struct nor a defined type")),
        }
    }

    /// The shape of a Go type written `ty` in a struct of definition `owner`; `field`
    /// is the field it is written for, whose protobuf type may name its message.
    fn shape_of_type(
        &self,
        owner: &str,
        ty: &str,
        field: Option<&GoField>,
    ) -> Result<Shape, String> {
        if ty.starts_with('*') {
            return Ok(Shape::Pointer);
        }
        if ty.starts_with("[]") {
            return Ok(Shape::Slice);
        }
        if ty.starts_with("map[") {
            return Ok(Shape::Map);
        }
        if ty == "interface{}" || ty == "any" {
            return Ok(Shape::Interface);
        }
        if let Some(zero) = scalar_zero(ty) {
            return Ok(Shape::Scalar(zero));
        }
        let key = match field.and_then(|f| self.via_proto(owner, f)) {
            Some(key) if self.go.contains_key(&key) || custom_zero(&key).is_some() => key,
            _ => self.via_go_name(owner, ty)?,
        };
        self.shape_of_key(&key)
    }

    fn field_shape(&self, owner: &str, f: &GoField) -> Result<Shape, String> {
        if f.pointer {
            Ok(Shape::Pointer)
        } else if f.slice {
            Ok(Shape::Slice)
        } else if f.map {
            Ok(Shape::Map)
        } else {
            self.shape_of_type(owner, &f.ty, Some(f))
        }
    }

    fn fields(&self, key: &str) -> Result<&[GoField], String> {
        self.go
            .get(key)
            .and_then(|t| t.fields.as_deref())
            .ok_or_else(|| format!("{key} is not a struct"))
    }

    /// The struct whose fields `key` has: itself, or for a type defined as another
    /// struct (core's `type List metav1.List`) that struct.
    fn struct_key(&self, key: &str) -> Result<String, String> {
        match self.go.get(key) {
            Some(ty) if ty.fields.as_deref().is_none_or(<[GoField]>::is_empty) => {
                match &ty.defined_as {
                    Some(defined_as) => self.via_go_name(key, defined_as),
                    None => Ok(key.to_owned()),
                }
            }
            _ => Ok(key.to_owned()),
        }
    }

    /// The JSON Go's encoder writes for the zero value of struct `key`, members in order.
    fn zero_json(&self, key: &str) -> Result<Vec<(String, J)>, String> {
        let key = &self.struct_key(key)?;
        let mut members = Vec::new();
        for f in self.fields(key)? {
            if f.json == "-" {
                continue;
            }
            let shape = self
                .field_shape(key, f)
                .map_err(|e| format!("{key}.{}: {e}", f.go))?;
            if f.embedded && f.json.is_empty() {
                // Go promotes the fields of an embedded struct without a JSON name; a nil
                // embedded pointer promotes nothing.
                if let Shape::Struct(inner) = &shape {
                    members.extend(self.zero_json(inner)?);
                }
                continue;
            }
            let value = match shape {
                Shape::Pointer | Shape::Slice | Shape::Map | Shape::Interface => {
                    if f.omitempty || f.omitzero {
                        continue;
                    }
                    J::Null
                }
                Shape::Scalar(zero) => {
                    if f.omitempty || f.omitzero {
                        continue;
                    }
                    zero
                }
                // `omitempty` never leaves out a struct; `omitzero` leaves out a zero one.
                Shape::Custom(inner) => {
                    if f.omitzero {
                        continue;
                    }
                    custom_zero(&inner).map(|(j, _)| j).unwrap_or(J::Null)
                }
                Shape::Struct(inner) => {
                    if f.omitzero {
                        continue;
                    }
                    J::Obj(self.zero_json(&inner)?)
                }
            };
            members.push((f.json_name().to_owned(), value));
        }
        Ok(members)
    }

    /// The fields of the zero message of struct `key`, in ascending number, each with the
    /// expected fields of its own message when it is one.
    fn zero_proto(&self, key: &str) -> Result<Vec<ProtoExpect>, String> {
        let key = &self.struct_key(key)?;
        let mut out = Vec::new();
        for f in self.fields(key)? {
            let Some(number) = f.proto_number() else {
                continue;
            };
            let shape = self
                .field_shape(key, f)
                .map_err(|e| format!("{key}.{}: {e}", f.go))?;
            let nested = match shape {
                // Nil: not written.
                Shape::Pointer | Shape::Slice | Shape::Map | Shape::Interface => continue,
                Shape::Scalar(_) => None,
                Shape::Custom(inner) => Some(
                    custom_zero(&inner)
                        .map(|(_, fields)| {
                            fields
                                .iter()
                                .map(|&number| ProtoExpect {
                                    name: format!("#{number}"),
                                    number,
                                    nested: None,
                                })
                                .collect()
                        })
                        .unwrap_or_default(),
                ),
                Shape::Struct(inner) => Some(self.zero_proto(&inner)?),
            };
            out.push(ProtoExpect {
                name: f.json_name().to_owned(),
                number,
                nested,
            });
        }
        out.sort_by_key(|e| e.number);
        Ok(out)
    }
}

/// A field Go writes in a zero message.
#[derive(Debug)]
struct ProtoExpect {
    /// The JSON name, for reports.
    name: String,
    number: u32,
    /// The fields of its message, when it is a message whose content is checked.
    nested: Option<Vec<ProtoExpect>>,
}

// ---------------------------------------------------------------------------------------
// Comparison.

fn diff(path: &str, expected: &J, actual: &J, out: &mut Vec<String>) {
    match (expected, actual) {
        (J::Obj(want), J::Obj(got)) => {
            for (key, value) in want {
                match got.iter().find(|(k, _)| k == key) {
                    Some((_, got_value)) => diff(&format!("{path}.{key}"), value, got_value, out),
                    None => out.push(format!("{path}.{key}: absent, Go writes {}", short(value))),
                }
            }
            for (key, value) in got {
                if !want.iter().any(|(k, _)| k == key) {
                    out.push(format!(
                        "{path}.{key}: Go leaves it out, got {}",
                        short(value)
                    ));
                }
            }
            let want_order: Vec<&str> = want
                .iter()
                .map(|(k, _)| k.as_str())
                .filter(|k| got.iter().any(|(g, _)| g == k))
                .collect();
            let got_order: Vec<&str> = got
                .iter()
                .map(|(k, _)| k.as_str())
                .filter(|k| want.iter().any(|(w, _)| w == k))
                .collect();
            if want_order != got_order {
                out.push(format!(
                    "{path}: members in order {got_order:?}, Go's order is {want_order:?}"
                ));
            }
        }
        _ if expected != actual => out.push(format!(
            "{path}: Go writes {}, got {}",
            short(expected),
            short(actual)
        )),
        _ => {}
    }
}

fn diff_proto(
    path: &str,
    expected: &[ProtoExpect],
    d: &mut WireDecoder<'_>,
    out: &mut Vec<String>,
) {
    let mut seen = Vec::new();
    while !d.is_empty() {
        let (number, wire) = match d.key() {
            Ok(key) => key,
            Err(e) => {
                out.push(format!("{path}: unreadable protobuf: {e}"));
                return;
            }
        };
        seen.push(number);
        let nested = expected
            .iter()
            .find(|e| e.number == number)
            .and_then(|e| Some((e.name.as_str(), e.nested.as_deref()?)));
        let result = match nested {
            Some((name, fields)) if wire == WireType::LengthDelimited => {
                d.nested().map(|mut inner| {
                    diff_proto(&format!("{path}.{name}"), fields, &mut inner, out);
                })
            }
            _ => d.skip(number, wire),
        };
        if let Err(e) = result {
            out.push(format!("{path}: unreadable protobuf field {number}: {e}"));
            return;
        }
    }
    let want: Vec<u32> = expected.iter().map(|e| e.number).collect();
    if seen != want {
        let name = |n: &u32| {
            expected
                .iter()
                .find(|e| e.number == *n)
                .map_or_else(|| format!("#{n}"), |e| format!("{}(#{n})", e.name))
        };
        let missing: Vec<String> = want
            .iter()
            .filter(|n| !seen.contains(n))
            .map(name)
            .collect();
        let extra: Vec<String> = seen
            .iter()
            .filter(|n| !want.contains(n))
            .map(name)
            .collect();
        out.push(format!(
            "{path} (protobuf): fields {seen:?}, Go writes {want:?} (missing {missing:?}, not written by Go {extra:?})"
        ));
    }
}

/// Every difference between a kind's default object and Go's zero value of its struct.
fn check_kind(
    reference: &Reference,
    json: &JsonSerializer<'_>,
    gvk: &GroupVersionKind,
    object: &dyn Object,
) -> Result<Vec<String>, String> {
    let key = reference
        .kind_definition(gvk)
        .ok_or_else(|| format!("no Go definition for {gvk}"))?;
    let mut problems = Vec::new();

    let strip = |members: Vec<(String, J)>| -> J {
        J::Obj(
            members
                .into_iter()
                .filter(|(k, _)| k != "kind" && k != "apiVersion")
                .collect(),
        )
    };
    let expected = strip(reference.zero_json(&key)?);
    let text = json.encode_to_vec(object).map_err(|e| e.to_string())?;
    let actual = match serde_json::from_slice::<J>(&text).map_err(|e| e.to_string())? {
        J::Obj(members) => strip(members),
        other => other,
    };
    diff("", &expected, &actual, &mut problems);

    let go_has_protobuf = reference
        .fields(&key)?
        .iter()
        .any(|f| f.proto_number().is_some());
    match encode_raw_object(object) {
        Ok(bytes) => {
            let expected = reference.zero_proto(&key)?;
            diff_proto("", &expected, &mut WireDecoder::new(&bytes), &mut problems);
        }
        Err(_) if !go_has_protobuf => {}
        Err(e) => problems.push(format!("(protobuf): Go has a protobuf form, here: {e}")),
    }
    Ok(problems.into_iter().map(|p| format!("{key}{p}")).collect())
}

/// Checks the registered kinds `select` picks, once per Rust type; prints every
/// difference and returns how many kinds differ out of how many were checked.
fn check_kinds(select: impl Fn(&str) -> bool) -> Option<(usize, usize)> {
    let dir = data_dir();
    let reference = match Reference::load(&dir) {
        Ok(reference) => reference,
        Err(e) => {
            assert!(std::env::var_os("CI").is_none(), "reference data: {e}");
            eprintln!(
                "note: no reference data at {} ({e}); skipped",
                dir.display()
            );
            return None;
        }
    };
    let scheme = Scheme::from_registry().unwrap();
    let json = JsonSerializer::new(&scheme, SerializerOptions::default());
    let mut seen_types = BTreeSet::new();
    let (mut checked, mut failed) = (0, 0);
    for (gvk, object_type) in scheme.all_known_types() {
        if gvk.version == API_VERSION_INTERNAL
            || !select(object_type.type_name())
            || !seen_types.insert(object_type.type_name())
        {
            continue;
        }
        checked += 1;
        let object = object_type.new_object();
        let problems = check_kind(&reference, &json, gvk, &*object).unwrap_or_else(|e| vec![e]);
        if !problems.is_empty() {
            failed += 1;
            eprintln!("FAIL {gvk} ({}):", object_type.type_name());
            for p in &problems {
                eprintln!("    {p}");
            }
        }
    }
    eprintln!("{checked} kinds checked, {failed} differ from Go's zero value");
    Some((failed, checked))
}

#[test]
fn hand_written_kinds_are_written_as_go_writes_their_zero_value() {
    let Some((failed, checked)) = check_kinds(|type_name| type_name.starts_with("apimachinery::"))
    else {
        return;
    };
    // Status, APIVersions, APIGroupList, APIGroup, APIResourceList.
    assert_eq!(checked, 5, "hand-written kinds checked");
    assert_eq!(
        failed, 0,
        "{failed} hand-written kind(s) differ from Go (see above)"
    );
}

#[test]
fn every_kind_is_written_as_go_writes_its_zero_value() {
    let Some((failed, checked)) = check_kinds(|_| true) else {
        return;
    };
    assert!(checked > 300, "only {checked} kinds registered");
    assert_eq!(
        failed, 0,
        "{failed} of {checked} kinds differ from Go (see above)"
    );
}

// ---------------------------------------------------------------------------------------
// The rules themselves, on structs written here.

#[test]
fn go_type_names_resolve_by_alias() {
    assert_eq!(alias_hint("metav1"), Some(("meta", "v1")));
    assert_eq!(alias_hint("corev1"), Some(("core", "v1")));
    assert_eq!(alias_hint("v1beta2"), Some(("", "v1beta2")));
    assert_eq!(
        alias_hint("authenticationv1alpha1"),
        Some(("authentication", "v1alpha1"))
    );
    assert_eq!(alias_hint("resource"), None);
    assert_eq!(alias_hint("v"), None);
    assert_eq!(alias_hint("v1x"), None);
}

#[test]
fn zero_values_follow_go_s_rules() {
    let field = |json: &str, ty: &str, flags: &[&str]| -> Value {
        // Field numbers are the JSON names' lengths; embedded TypeMeta has none.
        let protobuf = (!json.is_empty()).then(|| format!("bytes,{},opt,name={json}", json.len()));
        let mut f = serde_json::json!({
            "go": json.to_uppercase(), "type": ty, "json": json, "protobuf": protobuf,
        });
        for flag in flags {
            f[*flag] = Value::Bool(true);
        }
        f
    };
    let go = serde_json::json!({
        "x.v1.Outer": {"fields": [
            field("", "metav1.TypeMeta", &["embedded", "inline"]),
            field("s", "string", &[]),
            field("so", "string", &["omitempty"]),
            field("nn", "Named", &[]),
            field("ptr", "*int32", &["pointer"]),
            field("ptro", "*Inner", &["pointer", "omitempty"]),
            field("sl", "[]string", &["slice"]),
            field("slo", "[]string", &["slice", "omitempty"]),
            field("verbs", "Verbs", &[]),
            field("m", "map[string]string", &["map"]),
            field("inner", "Inner", &["omitempty"]),
            field("innerz", "Inner", &["omitzero"]),
            field("t", "metav1.Time", &[]),
            field("tz", "metav1.Time", &["omitempty", "omitzero"]),
            field("q", "resource.Quantity", &["omitempty"]),
            field("raw", "[]byte", &["slice"]),
        ]},
        "x.v1.Inner": {"fields": [field("b", "bool", &[]), field("n", "int64", &["omitempty"])]},
        "x.v1.Named": {"defined_as": "string"},
        "x.v1.Verbs": {"defined_as": "[]string"},
        "io.k8s.apimachinery.pkg.apis.meta.v1.TypeMeta": {"fields": [
            {"go": "Kind", "type": "string", "json": "kind", "omitempty": true},
            {"go": "APIVersion", "type": "string", "json": "apiVersion", "omitempty": true},
        ]},
        TIME: {"fields": []},
        QUANTITY: {"fields": []},
    });
    let go: BTreeMap<String, GoType> = serde_json::from_value(go).unwrap();
    let mut by_name: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for key in go.keys() {
        let name = key.rsplit_once('.').unwrap().1;
        by_name
            .entry(name.to_owned())
            .or_default()
            .push(key.clone());
    }
    let reference = Reference {
        go,
        proto: BTreeMap::new(),
        by_proto_name: BTreeMap::new(),
        by_name,
    };
    let json = J::Obj(reference.zero_json("x.v1.Outer").unwrap());
    assert_eq!(
        json.to_string(),
        concat!(
            r#"{"s":"","nn":"","ptr":null,"sl":null,"verbs":null,"m":null,"#,
            r#""inner":{"b":false},"t":null,"q":"0","raw":null}"#
        )
    );
    let proto: Vec<(String, u32)> = reference
        .zero_proto("x.v1.Outer")
        .unwrap()
        .into_iter()
        .map(|e| (e.name, e.number))
        .collect();
    // Value fields only: s, so, nn, inner, innerz, t, tz, q (`so` and `nn` share number
    // 2 here, as `t` and `q` share 1).
    let names: Vec<&str> = proto.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["s", "t", "q", "so", "nn", "tz", "inner", "innerz"]);

    // The comparison reports absent, extra, different and reordered members.
    let mut problems = Vec::new();
    let want = J::Obj(vec![
        ("a".into(), J::Null),
        ("b".into(), J::Num("0".into())),
    ]);
    let got = J::Obj(vec![
        ("b".into(), J::Num("1".into())),
        ("c".into(), J::Bool(false)),
        ("a".into(), J::Null),
    ]);
    diff("", &want, &got, &mut problems);
    assert_eq!(
        problems,
        [
            ".b: Go writes 0, got 1",
            ".c: Go leaves it out, got false",
            r#": members in order ["b", "a"], Go's order is ["a", "b"]"#,
        ]
    );
}
