//! `go_internal.rs`: the shapes of the internal Go structs (`k8s.io/kubernetes/pkg/apis/…`)
//! whose JSON Go's validation writes, data only.
//!
//! Go validates an object in its internal version, whose structs have no JSON tags: where
//! a message carries such a value (`diff.Diff(oldPod.Spec, newPod.Spec)`, a `json.Marshal`
//! of a bad value) Go writes its Go field names, in struct order, every field present,
//! nil as `null`. The crate writes that text with one writer (k8s-types
//! `go_internal_json`) walking the external JSON of our value along this table: for each
//! internal struct reachable from [`ROOTS`], each field's Go name, the external JSON key
//! its value is read from (the v1 field of the same Go name: the internal structs of
//! these packages are converted from v1 by a plain memory cast, field for field), and its
//! shape (pointer, slice, map, nested struct, or a value written as the external JSON
//! has it, with the zero value Go writes when the external JSON leaves it out).

use std::collections::BTreeMap;
#[cfg(test)]
use std::collections::BTreeSet;
use std::fmt::Write as _;

use crate::Error;
use crate::input::GoStruct;

/// The generated file's name, relative to the output directory.
pub const FILE: &str = "go_internal.rs";

/// The internal structs whose JSON a message carries, as `package.Type`: a pod's spec
/// (Go's `ValidatePodUpdate`), a persistent volume's source and a claim's spec (their
/// immutability messages), a certificate signing request's conditions (Go's
/// `validateConditions`), a job's pod template, a volume attachment's spec and a
/// stateful set's claim templates (their bad values).
pub const ROOTS: &[&str] = &[
    "core.PodSpec",
    "core.PodTemplateSpec",
    "core.PersistentVolumeSource",
    "core.PersistentVolumeClaimSpec",
    "core.PersistentVolumeClaim",
    "storage.VolumeAttachmentSpec",
    "certificates.CertificateSigningRequestCondition",
];

/// The prefix of an internal package's definition names.
const INTERNAL: &str = "io.k8s.kubernetes.pkg.apis.";

/// A field's shape, as the generated table writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Shape {
    /// A value the external JSON writes as Go does, with its zero value's name.
    Value(&'static str),
    /// An internal struct, by its name (`core.Container`).
    Struct(String),
    Pointer(Box<Shape>),
    Slice(Box<Shape>),
    Map(Box<Shape>),
}

/// One field of the table.
struct Field {
    go: String,
    json: String,
    embedded: bool,
    shape: Shape,
}

/// The text of [`FILE`]: every internal struct reachable from [`ROOTS`], sorted by name.
pub fn go_internal(
    internal: &BTreeMap<String, GoStruct>,
    external: &BTreeMap<String, GoStruct>,
    release: &str,
) -> Result<String, Error> {
    let mut structs: BTreeMap<String, Vec<Field>> = BTreeMap::new();
    let mut todo: Vec<String> = ROOTS.iter().map(|r| (*r).to_owned()).collect();
    while let Some(name) = todo.pop() {
        if structs.contains_key(&name) {
            continue;
        }
        let (pkg, ty) = name
            .split_once('.')
            .ok_or_else(|| Error::Model(format!("internal type `{name}`: no package")))?;
        let s = internal.get(&format!("{INTERNAL}{name}")).ok_or_else(|| {
            Error::Model(format!(
                "go-internal-fields.json: no internal struct `{name}`"
            ))
        })?;
        let ext = external.get(&external_key(pkg, ty)).ok_or_else(|| {
            Error::Model(format!("go-fields.json: no external struct for `{name}`"))
        })?;
        let mut fields = Vec::new();
        for f in &s.fields {
            let go = f.go.clone();
            let v1_key = |fields: &[crate::input::GoField]| {
                fields.iter().find(|e| e.go == go).map(|e| {
                    if e.is_inlined() {
                        String::new()
                    } else {
                        e.json.clone()
                    }
                })
            };
            let json = match conversion(internal, external, &name, &go) {
                Some(Moved::From(json)) => Some(json),
                Some(Moved::NeverNil) | None => v1_key(&ext.fields),
            }
            .ok_or_else(|| {
                Error::Model(format!(
                    "{name}.{go}: no v1 field of that Go name, nor a conversion rule of Go's (the internal struct is no cast of v1's)"
                ))
            })?;
            let mut shape = resolve(internal, pkg, &f.ty)?;
            if let (Some(Moved::NeverNil), Shape::Pointer(inner)) =
                (conversion(internal, external, &name, &go), &shape)
            {
                shape = (**inner).clone();
            }
            collect(&shape, &mut todo);
            fields.push(Field {
                go,
                json,
                embedded: f.embedded,
                shape,
            });
        }
        structs.insert(name, fields);
    }
    let index: BTreeMap<&str, usize> = structs
        .keys()
        .enumerate()
        .map(|(i, k)| (k.as_str(), i))
        .collect();
    let mut out = crate::emit::header(release);
    let _ = writeln!(
        out,
        "//! The shapes of Kubernetes {release}'s internal Go structs whose JSON validation\n//! messages carry (`crate::go_internal_json` writes it): each field's Go name, the v1\n//! JSON key its value is read from, and its shape.\n"
    );
    out.push_str("use crate::go_internal_json::{GoField, GoShape, GoStruct, Zero};\n\n");
    out.push_str(
        "/// Every internal struct reachable from the roots, sorted by `package.Type`; a\n/// [`GoShape::Struct`] is an index into this list.\n",
    );
    out.push_str("pub(crate) static GO_STRUCTS: &[GoStruct] = &[\n");
    for (name, fields) in &structs {
        let _ = writeln!(
            out,
            "    GoStruct {{\n        name: {name:?},\n        fields: &["
        );
        for f in fields {
            let _ = writeln!(
                out,
                "            GoField {{ go: {:?}, json: {:?}, embedded: {}, shape: {} }},",
                f.go,
                f.json,
                f.embedded,
                render(&f.shape, &index)?
            );
        }
        out.push_str("        ],\n    },\n");
    }
    out.push_str("];\n");
    Ok(out)
}

/// What Go's hand-written conversion from v1 does to an internal field that is no plain
/// copy of the v1 field of its Go name.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Moved {
    /// Read from these keys (the writer's syntax: `../key`, the enclosing object's;
    /// `a|b`, the first of them present and not empty).
    From(String),
    /// A pointer Go's conversion always sets: written as the struct it points to.
    NeverNil,
}

/// The rules of Go's conversion functions for the internal structs that are no memory
/// cast of v1's (Kubernetes 1.36's core: `Convert_v1_PodSpec_To_core_PodSpec` keeps
/// the pod's host namespace fields in the internal `PodSecurityContext`, which it always
/// sets, and takes `serviceAccount` for an empty `serviceAccountName`). A rule applies
/// only to a release whose internal types have that shape.
fn conversion(
    internal: &BTreeMap<String, GoStruct>,
    external: &BTreeMap<String, GoStruct>,
    name: &str,
    go: &str,
) -> Option<Moved> {
    let has = |map: &BTreeMap<String, GoStruct>, key: &str, field: &str| {
        map.get(key)
            .is_some_and(|s| s.fields.iter().any(|f| f.go == field))
    };
    let v1_pod_spec = "io.k8s.api.core.v1.PodSpec";
    let host_fields_moved = has(
        internal,
        &format!("{INTERNAL}core.PodSecurityContext"),
        "HostNetwork",
    );
    match (name, go) {
        ("core.PodSecurityContext", _)
            if host_fields_moved && !has(external, "io.k8s.api.core.v1.PodSecurityContext", go) =>
        {
            let field = external
                .get(v1_pod_spec)?
                .fields
                .iter()
                .find(|f| f.go == go)?;
            Some(Moved::From(format!("../{}", field.json)))
        }
        ("core.PodSpec", "SecurityContext") if host_fields_moved => Some(Moved::NeverNil),
        ("core.PodSpec", "ServiceAccountName")
            if !has(
                internal,
                &format!("{INTERNAL}core.PodSpec"),
                "DeprecatedServiceAccount",
            ) && has(external, v1_pod_spec, "DeprecatedServiceAccount") =>
        {
            Some(Moved::From("serviceAccountName|serviceAccount".to_owned()))
        }
        _ => None,
    }
}

/// The external struct an internal one is converted from: the v1 type of its name.
fn external_key(pkg: &str, ty: &str) -> String {
    format!("io.k8s.api.{pkg}.v1.{ty}")
}

/// The shape of Go type text `ty` written in internal package `pkg`.
fn resolve(internal: &BTreeMap<String, GoStruct>, pkg: &str, ty: &str) -> Result<Shape, Error> {
    if let Some(inner) = ty.strip_prefix('*') {
        return Ok(Shape::Pointer(Box::new(resolve(internal, pkg, inner)?)));
    }
    if ty == "[]byte" {
        // base64 text, or null when nil.
        return Ok(Shape::Value("Null"));
    }
    if let Some(inner) = ty.strip_prefix("[]") {
        return Ok(Shape::Slice(Box::new(resolve(internal, pkg, inner)?)));
    }
    if let Some(rest) = ty.strip_prefix("map[") {
        let (_, value) = rest
            .split_once(']')
            .ok_or_else(|| Error::Model(format!("Go type `{ty}`: not a map")))?;
        return Ok(Shape::Map(Box::new(resolve(internal, pkg, value)?)));
    }
    if let Some((qualifier, name)) = ty.split_once('.') {
        return match qualifier {
            // The internal core package, as other internal packages import it.
            "api" | "core" => resolve(internal, "core", name),
            // apimachinery's types keep their JSON tags and methods internally: the
            // external JSON is Go's.
            _ => Ok(Shape::Value(match name {
                "Quantity" => "Quantity",
                "IntOrString" => "Number",
                "Time" | "MicroTime" => "Null",
                "UID" | "Duration" => "String",
                _ => "Object",
            })),
        };
    }
    match ty {
        "string" => return Ok(Shape::Value("String")),
        "bool" => return Ok(Shape::Value("Bool")),
        "int" | "int8" | "int16" | "int32" | "int64" | "uint" | "uint8" | "uint16" | "uint32"
        | "uint64" | "float32" | "float64" => return Ok(Shape::Value("Number")),
        _ => {}
    }
    let key = format!("{INTERNAL}{pkg}.{ty}");
    let s = internal
        .get(&key)
        .ok_or_else(|| Error::Model(format!("go-internal-fields.json: no type `{pkg}.{ty}`")))?;
    match &s.defined_as {
        Some(def) => resolve(internal, pkg, def),
        None => Ok(Shape::Struct(format!("{pkg}.{ty}"))),
    }
}

/// Queues the structs a shape names.
fn collect(shape: &Shape, todo: &mut Vec<String>) {
    match shape {
        Shape::Value(_) => {}
        Shape::Struct(name) => todo.push(name.clone()),
        Shape::Pointer(inner) | Shape::Slice(inner) | Shape::Map(inner) => collect(inner, todo),
    }
}

/// A shape as the Rust expression of the table.
fn render(shape: &Shape, index: &BTreeMap<&str, usize>) -> Result<String, Error> {
    Ok(match shape {
        Shape::Value(zero) => format!("GoShape::Value(Zero::{zero})"),
        Shape::Struct(name) => format!(
            "GoShape::Struct({})",
            index
                .get(name.as_str())
                .ok_or_else(|| Error::Model(format!(
                    "internal struct `{name}` not in the table"
                )))?
        ),
        Shape::Pointer(inner) => format!("GoShape::Pointer(&{})", render(inner, index)?),
        Shape::Slice(inner) => format!("GoShape::Slice(&{})", render(inner, index)?),
        Shape::Map(inner) => format!("GoShape::Map(&{})", render(inner, index)?),
    })
}

/// Names of the structs the table has (for tests).
#[cfg(test)]
fn names(text: &str) -> BTreeSet<String> {
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("name: "))
        .map(|n| n.trim_end_matches(',').trim_matches('"').to_owned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn structs(json: &str) -> BTreeMap<String, GoStruct> {
        serde_json::from_str(json).unwrap_or_default()
    }

    #[test]
    fn a_root_and_what_it_reaches_are_written_with_the_v1_keys() -> Result<(), Error> {
        let f = |go: &str, ty: &str, json: &str, embedded: bool| {
            format!(
                r#"{{"go":"{go}","type":"{ty}","json":"{json}","embedded":{embedded},"inline":false,"pointer":false,"omitempty":false,"omitzero":false}}"#
            )
        };
        let mut internal = String::from("{");
        let mut external = String::from("{");
        for root in ROOTS {
            let (pkg, ty) = root.split_once('.').unwrap_or_default();
            let _ = write!(
                internal,
                r#""{INTERNAL}{root}":{{"fields":[{},{}]}},"#,
                f("Items", "[]Item", "", false),
                f("Size", "*resource.Quantity", "", false)
            );
            let _ = write!(
                external,
                r#""{}":{{"fields":[{},{}]}},"#,
                external_key(pkg, ty),
                f("Items", "[]Item", "items", false),
                f("Size", "*resource.Quantity", "size", false)
            );
        }
        // Every package a root is in has the `Item` its roots' fields name.
        let mut packages: Vec<&str> = ROOTS
            .iter()
            .filter_map(|root| root.split_once('.').map(|(pkg, _)| pkg))
            .collect();
        packages.dedup();
        for pkg in packages {
            let _ = write!(
                internal,
                r#""{INTERNAL}{pkg}.Item":{{"fields":[{}]}},"{INTERNAL}{pkg}.Mode":{{"defined_as":"string"}},"#,
                f("Mode", "Mode", "", false)
            );
            let _ = write!(
                external,
                r#""{}":{{"fields":[{}]}},"#,
                external_key(pkg, "Item"),
                f("Mode", "Mode", "mode", false)
            );
        }
        internal.pop();
        external.pop();
        internal.push('}');
        external.push('}');
        let text = go_internal(&structs(&internal), &structs(&external), "1.37")?;
        assert!(names(&text).contains("core.Item"));
        // Structs are numbered in the table's order: `core.Item`'s number in a core root.
        let core_item = text
            .lines()
            .filter_map(|l| l.trim().strip_prefix("name: "))
            .position(|n| n.trim_end_matches(',').trim_matches('"') == "core.Item")
            .unwrap_or(usize::MAX);
        assert!(text.contains(&format!(
            r#"GoField {{ go: "Items", json: "items", embedded: false, shape: GoShape::Slice(&GoShape::Struct({core_item})) }},"#
        )));
        assert!(text.contains(
            r#"GoField { go: "Size", json: "size", embedded: false, shape: GoShape::Pointer(&GoShape::Value(Zero::Quantity)) },"#
        ));
        assert!(text.contains(
            r#"GoField { go: "Mode", json: "mode", embedded: false, shape: GoShape::Value(Zero::String) },"#
        ));
        Ok(())
    }

    #[test]
    fn an_internal_field_without_a_v1_field_is_an_error() {
        let internal = structs(&format!(
            r#"{{"{INTERNAL}core.PodSpec":{{"fields":[{{"go":"Only","type":"string","json":"","embedded":false,"inline":false,"pointer":false,"omitempty":false,"omitzero":false}}]}}}}"#
        ));
        let external = structs(r#"{"io.k8s.api.core.v1.PodSpec":{"fields":[]}}"#);
        assert!(go_internal(&internal, &external, "1.37").is_err());
    }
}
