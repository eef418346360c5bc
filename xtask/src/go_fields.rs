//! `go_fields.rs`: the Go types of the fields of the release's external structs (the
//! `k8s.io/api` types kube-apiserver decodes request bodies into), data only.
//!
//! Go's JSON decoder names, in a type mismatch's error, the innermost Go struct, the
//! path of JSON field names to the value, and the Go type the value did not fit, as
//! `reflect` prints it (`map[string]string`, `[]v1.Container`, `v1.RestartPolicy`); the
//! crate writes that message (k8s-types `go_json_errors`) by walking this table along
//! the path of the field our decoder failed at. Each field has its JSON name, its Go name
//! (what Go names an embedded struct in the path of a field it promotes), and its type:
//! a basic kind with its text, a struct of the table, a pointer, a slice or a map, or a
//! type with a JSON method of its own (`resource.Quantity`, `metav1.Time`), whose
//! errors are its own.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::Error;
use crate::input::{GoStruct, Input};
use crate::model::{Model, package_module};

/// The generated file's name, relative to the output directory.
pub const FILE: &str = "go_fields.rs";

/// The types that decode themselves (an `UnmarshalJSON` method): Go's decoder leaves the
/// value to them, so their errors are theirs, not a type mismatch of the decoder's.
const SELF_DECODING: &[&str] = &[
    "io.k8s.apimachinery.pkg.apis.meta.v1.Time",
    "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime",
    "io.k8s.apimachinery.pkg.apis.meta.v1.Duration",
    "io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1",
    "io.k8s.apimachinery.pkg.api.resource.Quantity",
    "io.k8s.apimachinery.pkg.util.intstr.IntOrString",
    "io.k8s.apimachinery.pkg.runtime.RawExtension",
];

/// The suffixes of apiextensions' self-decoding types (`JSON`, `JSONSchemaPropsOr…`).
const SELF_DECODING_APIEXTENSIONS: &[&str] = &[
    "JSON",
    "JSONSchemaPropsOrArray",
    "JSONSchemaPropsOrBool",
    "JSONSchemaPropsOrStringArray",
];

/// A field's type, as the generated table writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Ty {
    /// A basic kind (`String`, `Bool`, `Int`, `Uint`, `Float`) and Go's text of the type.
    Basic(&'static str, String),
    /// `[]byte`: base64 text.
    Bytes,
    /// A type decoding itself, by Go's text.
    Own(String),
    /// A struct of the table, by definition name.
    Struct(String),
    Pointer(Box<Ty>),
    /// A slice: Go's text of the type and its element.
    Slice(String, Box<Ty>),
    /// A map: Go's text of the type and its value.
    Map(String, Box<Ty>),
}

impl Ty {
    /// Go's text of the type (`reflect.Type.String()`).
    fn text(&self) -> String {
        match self {
            Ty::Basic(_, t) | Ty::Own(t) | Ty::Slice(t, _) | Ty::Map(t, _) => t.clone(),
            Ty::Bytes => "[]uint8".to_owned(),
            Ty::Struct(key) => package_text(key),
            Ty::Pointer(inner) => format!("*{}", inner.text()),
        }
    }
}

/// `v1.Container` for `io.k8s.api.core.v1.Container`: the package's name (its path's
/// last element) and the type's.
fn package_text(key: &str) -> String {
    let (prefix, name) = key.rsplit_once('.').unwrap_or(("", key));
    let package = prefix.rsplit('.').next().unwrap_or(prefix);
    format!("{package}.{name}")
}

/// One field of the table.
struct Field {
    json: String,
    go: String,
    inline: bool,
    ty: Ty,
}

/// The text of [`FILE`] for `input`, with API groups as `model` maps them.
pub fn go_fields(input: &Input, model: &Model) -> Result<String, Error> {
    // Every struct of an API group version, by (group, version, name).
    let mut structs: BTreeMap<(String, String, String), (String, Vec<Field>)> = BTreeMap::new();
    for (key, s) in &input.go {
        if s.defined_as.is_some() || self_decoding(key) {
            continue;
        }
        let Some((group, version, name)) = group_version_name(key, model) else {
            continue;
        };
        let prefix = key.rsplit_once('.').map_or("", |(p, _)| p);
        let mut fields = Vec::new();
        for f in &s.fields {
            fields.push(Field {
                json: if f.is_inlined() {
                    String::new()
                } else {
                    f.json.clone()
                },
                go: f.go.clone(),
                inline: f.is_inlined(),
                ty: resolve(&input.go, prefix, &f.ty)?,
            });
        }
        structs.insert((group, version, name), (key.clone(), fields));
    }
    let index: BTreeMap<&str, usize> = structs
        .values()
        .enumerate()
        .map(|(i, (key, _))| (key.as_str(), i))
        .collect();
    let release = &model.release;
    let mut out = crate::emit::header(release);
    let _ = writeln!(
        out,
        "//! The Go types of the fields of Kubernetes {release}'s external structs, which Go's\n//! JSON decoder names in a type mismatch (`crate::go_json_errors` writes the message).\n"
    );
    out.push_str("use crate::go_json_errors::{Basic, GoField, GoStruct, GoType};\n\n");
    out.push_str(
        "/// Every struct of an API group version, sorted by `(group, version, name)` (the core\n/// group `\"\"`, meta's `meta.k8s.io`); a [`GoType::Struct`] is an index into this list.\n",
    );
    out.push_str("pub(crate) static GO_STRUCTS: &[GoStruct] = &[\n");
    for ((group, version, name), (_, fields)) in &structs {
        let _ = writeln!(
            out,
            "    GoStruct {{\n        group: {group:?},\n        version: {version:?},\n        name: {name:?},\n        fields: &["
        );
        for f in fields {
            let _ = writeln!(
                out,
                "            GoField {{ json: {:?}, go: {:?}, inline: {}, ty: {} }},",
                f.json,
                f.go,
                f.inline,
                render(&f.ty, &index)?
            );
        }
        out.push_str("        ],\n    },\n");
    }
    out.push_str("];\n");
    Ok(out)
}

fn self_decoding(key: &str) -> bool {
    SELF_DECODING.contains(&key)
        || key
            .strip_prefix("io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.")
            .and_then(|rest| rest.split_once('.'))
            .is_some_and(|(_, name)| SELF_DECODING_APIEXTENSIONS.contains(&name))
}

/// The API group, version and name of definition `key`, when it is in an API group
/// version.
fn group_version_name(key: &str, model: &Model) -> Option<(String, String, String)> {
    let (prefix, name) = key.rsplit_once('.')?;
    let (module, version) = package_module(prefix)?;
    let group = model
        .modules
        .get(&(module.clone(), version.clone()))
        .map(|m| m.group.clone())
        .filter(|group| !group.is_empty() || module == "core")?;
    Some((group, version, name.to_owned()))
}

/// The basic kinds of Go's predeclared types.
fn basic(ty: &str) -> Option<&'static str> {
    Some(match ty {
        "string" => "String",
        "bool" => "Bool",
        "int" | "int8" | "int16" | "int32" | "int64" => "Int",
        "uint" | "uint8" | "uint16" | "uint32" | "uint64" | "byte" => "Uint",
        "float32" | "float64" => "Float",
        _ => return None,
    })
}

/// The definition prefix a qualified type (`metav1.ObjectMeta`) written in the package of
/// `prefix` names: by its import's usual alias, or the package of that name holding the
/// type.
fn qualified(
    go: &BTreeMap<String, GoStruct>,
    prefix: &str,
    qualifier: &str,
    name: &str,
) -> Option<String> {
    let candidates: Vec<String> = match qualifier {
        "metav1" => vec!["io.k8s.apimachinery.pkg.apis.meta.v1".to_owned()],
        "corev1" | "apiv1" => vec!["io.k8s.api.core.v1".to_owned()],
        "resource" => vec!["io.k8s.apimachinery.pkg.api.resource".to_owned()],
        "intstr" => vec!["io.k8s.apimachinery.pkg.util.intstr".to_owned()],
        "runtime" => vec!["io.k8s.apimachinery.pkg.runtime".to_owned()],
        // A bare version: the same group's (admissionregistration's v1alpha1 uses its
        // v1's types), meta's or core's.
        version
            if version.starts_with('v')
                && version[1..].starts_with(|c: char| c.is_ascii_digit()) =>
        {
            let group = prefix.rsplit_once('.').map_or(prefix, |(g, _)| g);
            vec![
                format!("{group}.{version}"),
                format!("io.k8s.apimachinery.pkg.apis.meta.{version}"),
                format!("io.k8s.api.core.{version}"),
            ]
        }
        other => {
            // `batchv1`, `schedulingv1alpha3`: the group's package and version.
            let at = other
                .find(|c: char| c.is_ascii_digit())
                .unwrap_or(other.len());
            let version_start = other[..at].rfind('v').unwrap_or(at);
            let (group, version) = other.split_at(version_start);
            vec![format!("io.k8s.api.{group}.{version}"), prefix.to_owned()]
        }
    };
    candidates.into_iter().find(|p| {
        go.contains_key(&format!("{p}.{name}"))
            || SELF_DECODING.contains(&format!("{p}.{name}").as_str())
    })
}

/// The type of Go type text `ty` written in the package of definition prefix `prefix`.
fn resolve(go: &BTreeMap<String, GoStruct>, prefix: &str, ty: &str) -> Result<Ty, Error> {
    if let Some(inner) = ty.strip_prefix('*') {
        return Ok(Ty::Pointer(Box::new(resolve(go, prefix, inner)?)));
    }
    if ty == "[]byte" {
        return Ok(Ty::Bytes);
    }
    if let Some(inner) = ty.strip_prefix("[]") {
        let elem = resolve(go, prefix, inner)?;
        return Ok(Ty::Slice(format!("[]{}", elem.text()), Box::new(elem)));
    }
    if let Some(rest) = ty.strip_prefix("map[") {
        let (key, value) = rest
            .split_once(']')
            .ok_or_else(|| Error::Model(format!("Go type `{ty}`: not a map")))?;
        let key = resolve(go, prefix, key)?;
        let value = resolve(go, prefix, value)?;
        return Ok(Ty::Map(
            format!("map[{}]{}", key.text(), value.text()),
            Box::new(value),
        ));
    }
    if let Some(kind) = basic(ty) {
        let text = if ty == "byte" { "uint8" } else { ty };
        return Ok(Ty::Basic(kind, text.to_owned()));
    }
    let key = match ty.split_once('.') {
        // Named types of other packages than the API's: `time.Duration`, `types.UID`.
        Some(("time", "Duration")) => return Ok(Ty::Basic("Int", "time.Duration".to_owned())),
        Some(("types" | "apimachinerytypes", name)) => {
            return Ok(Ty::Basic("String", format!("types.{name}")));
        }
        Some((qualifier, name)) => match qualified(go, prefix, qualifier, name) {
            Some(p) => format!("{p}.{name}"),
            None => {
                return Err(Error::Model(format!(
                    "Go type `{ty}` (in {prefix}): no package found for `{qualifier}`"
                )));
            }
        },
        None => format!("{prefix}.{ty}"),
    };
    if self_decoding(&key) {
        return Ok(Ty::Own(package_text(&key)));
    }
    // A type the data does not describe (an alias of another package's, `type X = v1.X`)
    // is named but not walked into.
    let Some(s) = go.get(&key) else {
        return Ok(Ty::Own(package_text(&key)));
    };
    let Some(def) = &s.defined_as else {
        return Ok(Ty::Struct(key));
    };
    // A type defined as another (`type ResourceList map[ResourceName]resource.Quantity`)
    // is that type, named as itself.
    let key_prefix = key.rsplit_once('.').map_or("", |(p, _)| p);
    let text = package_text(&key);
    Ok(match resolve(go, key_prefix, def)? {
        Ty::Basic(kind, _) => Ty::Basic(kind, text),
        Ty::Bytes => Ty::Basic("Bytes", text),
        Ty::Own(_) => Ty::Own(text),
        Ty::Slice(_, elem) => Ty::Slice(text, elem),
        Ty::Map(_, value) => Ty::Map(text, value),
        other => other,
    })
}

/// A type as the Rust expression of the table.
fn render(ty: &Ty, index: &BTreeMap<&str, usize>) -> Result<String, Error> {
    Ok(match ty {
        Ty::Basic(kind, text) => format!("GoType::Basic(Basic::{kind}, {text:?})"),
        Ty::Bytes => "GoType::Basic(Basic::Bytes, \"[]uint8\")".to_owned(),
        Ty::Own(text) => format!("GoType::Own({text:?})"),
        Ty::Struct(key) => match index.get(key.as_str()) {
            Some(i) => format!("GoType::Struct({i})"),
            // A struct outside the API group versions decodes as Go decodes it, but is
            // not walked into.
            None => format!("GoType::Own({:?})", package_text(key)),
        },
        Ty::Pointer(inner) => format!("GoType::Pointer(&{})", render(inner, index)?),
        Ty::Slice(text, elem) => format!("GoType::Slice({text:?}, &{})", render(elem, index)?),
        Ty::Map(text, value) => format!("GoType::Map({text:?}, &{})", render(value, index)?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn structs(json: &str) -> BTreeMap<String, GoStruct> {
        serde_json::from_str(json).unwrap_or_default()
    }

    #[test]
    fn types_are_named_as_reflect_names_them() -> Result<(), Error> {
        let go = structs(
            r#"{"io.k8s.api.core.v1.Container": {"fields": []},
                "io.k8s.api.core.v1.RestartPolicy": {"defined_as": "string"},
                "io.k8s.api.core.v1.ResourceName": {"defined_as": "string"},
                "io.k8s.api.core.v1.ResourceList": {"defined_as": "map[ResourceName]resource.Quantity"},
                "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta": {"fields": []}}"#,
        );
        let core = "io.k8s.api.core.v1";
        assert_eq!(
            resolve(&go, core, "map[string]string")?.text(),
            "map[string]string"
        );
        assert_eq!(resolve(&go, core, "[]Container")?.text(), "[]v1.Container");
        assert_eq!(
            resolve(&go, core, "*int32")?,
            Ty::Pointer(Box::new(Ty::Basic("Int", "int32".into())))
        );
        assert_eq!(
            resolve(&go, core, "RestartPolicy")?,
            Ty::Basic("String", "v1.RestartPolicy".into())
        );
        assert_eq!(
            resolve(&go, core, "ResourceList")?.text(),
            "v1.ResourceList"
        );
        assert_eq!(
            resolve(&go, "io.k8s.api.apps.v1", "metav1.ObjectMeta")?,
            Ty::Struct("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta".into())
        );
        assert_eq!(resolve(&go, core, "[]byte")?.text(), "[]uint8");
        assert_eq!(
            resolve(&go, core, "resource.Quantity")?,
            Ty::Own("resource.Quantity".into())
        );
        assert_eq!(resolve(&go, core, "types.UID")?.text(), "types.UID");
        assert_eq!(resolve(&go, core, "Missing")?, Ty::Own("v1.Missing".into()));
        assert!(resolve(&go, core, "nopackage.Missing").is_err());
        Ok(())
    }
}
