//! `default_markers.rs`: the defaulters Go's `defaulter-gen` derives from the
//! `+default=` markers of the API types (`+default="TCP"` on `ContainerPort.protocol`),
//! one small function per struct that has a marker with an effect, in a module per
//! group version (`core_v1::container_port`). The hand-written walks of
//! `k8s_types::defaults` call them where Go's generated `SetObjectDefaults_*` applies
//! them, so the generated code stays a few dozen lines.
//!
//! A marker that cannot change anything is left out, as its Go code does nothing: a
//! zero default (`0`, `false`, `""`) on a value field, which only replaces a zero by
//! itself. On a pointer field (`Option`) it still turns `None` into `Some(zero)`.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::Error;
use crate::features;
use crate::input::Input;
use crate::model::{Model, Struct, Ty, package_module};
use crate::naming::field_name;

/// The generated file's name, relative to the output directory.
pub const FILE: &str = "default_markers.rs";

/// The Go constants `+default=ref(...)` markers name, with their values (Go's
/// `k8s.io/api/core/v1` constants; the markers name a constant rather than its value).
const REFS: &[(&str, &str)] = &[
    ("AzureDataDiskCachingReadWrite", "ReadWrite"),
    ("AzureSharedBlobDisk", "Shared"),
];

/// One field's default as Rust code.
enum Value {
    /// A string literal.
    Str(String),
    /// An integer or boolean literal, as written.
    Literal(String),
    /// A JSON object or array, which Go's defaulter unmarshals into the field
    /// (`+default={"single": {}}`): written as the Rust value it reads as.
    Json(serde_json::Value),
}

impl Value {
    /// Parses a marker's value: a JSON string, `ref(Name)`, `true`/`false` or an integer.
    fn parse(raw: &str, at: &str) -> Result<Value, Error> {
        if let Some(name) = raw.strip_prefix("ref(").and_then(|r| r.strip_suffix(')')) {
            return REFS
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| Value::Str((*v).to_owned()))
                .ok_or_else(|| {
                    Error::Model(format!(
                        "{at}: +default=ref({name}) names an unknown constant; add it to REFS"
                    ))
                });
        }
        if raw.starts_with('"') {
            return serde_json::from_str::<String>(raw)
                .map(Value::Str)
                .map_err(|e| Error::Model(format!("{at}: +default={raw}: {e}")));
        }
        if raw == "true" || raw == "false" || raw.parse::<i64>().is_ok() {
            return Ok(Value::Literal(raw.to_owned()));
        }
        if raw.starts_with('{') || raw.starts_with('[') {
            return serde_json::from_str(raw)
                .map(Value::Json)
                .map_err(|e| Error::Model(format!("{at}: +default={raw}: {e}")));
        }
        Err(Error::Model(format!(
            "{at}: +default={raw} is neither a string, a constant, a boolean, an integer nor JSON"
        )))
    }

    /// Whether it is its type's zero value.
    fn is_zero(&self) -> bool {
        match self {
            Value::Str(s) => s.is_empty(),
            Value::Literal(l) => l == "0" || l == "false",
            Value::Json(_) => false,
        }
    }

    /// The Rust expression of the value, for a field of type `ty`.
    fn expr(&self, ty: &Ty, model: &Model, at: &str) -> Result<String, Error> {
        Ok(match self {
            Value::Str(s) if s.is_empty() => "String::new()".to_owned(),
            Value::Str(s) => format!("{s:?}.to_owned()"),
            Value::Literal(l) => l.clone(),
            Value::Json(v) => json_expr(v, ty, model, at)?,
        })
    }

    /// The Rust test that a value field holds its zero value.
    fn zero_test(&self, field: &str, at: &str) -> Result<String, Error> {
        Ok(match self {
            Value::Str(_) => format!("obj.{field}.is_empty()"),
            Value::Literal(l) if l == "true" => format!("!obj.{field}"),
            Value::Literal(_) => format!("obj.{field} == 0"),
            // Go's defaulter unmarshals a JSON default only into a nil pointer, slice or
            // map; none of Kubernetes' value fields has one.
            Value::Json(_) => {
                return Err(Error::Model(format!(
                    "{at}: a JSON +default on a value field (only nil pointers, slices and maps get one)"
                )));
            }
        })
    }
}

/// The Rust expression of JSON `v` read as a value of type `ty`: a struct literal for an
/// object (its fields found by JSON name), `vec![..]` for an array, a literal for a scalar.
fn json_expr(v: &serde_json::Value, ty: &Ty, model: &Model, at: &str) -> Result<String, Error> {
    use serde_json::Value as J;
    let unsupported = || Error::Model(format!("{at}: +default: {v} does not fit {ty:?}"));
    Ok(match (ty, v) {
        (Ty::Boxed(inner), _) => format!("Box::new({})", json_expr(v, inner, model, at)?),
        (Ty::Vec(inner), J::Array(items)) => {
            let items: Result<Vec<String>, Error> = items
                .iter()
                .map(|item| json_expr(item, inner, model, at))
                .collect();
            format!("vec![{}]", items?.join(", "))
        }
        (Ty::Map(inner), J::Object(entries)) => {
            let entries: Result<Vec<String>, Error> = entries
                .iter()
                .map(|(k, item)| {
                    Ok(format!(
                        "({k:?}.to_owned(), {})",
                        json_expr(item, inner, model, at)?
                    ))
                })
                .collect();
            format!("[{}].into_iter().collect()", entries?.join(", "))
        }
        (Ty::Path(p), J::String(s)) if p == "String" => format!("{s:?}.to_owned()"),
        (Ty::Path(p), J::Bool(b)) if p == "bool" => b.to_string(),
        (Ty::Path(p), J::Number(n)) if p.starts_with('i') || p.starts_with('u') => n.to_string(),
        (
            Ty::Local {
                module,
                version,
                name,
            },
            J::Object(entries),
        ) => {
            let path = format!("crate::{module}::{version}::{name}");
            let s = generated_struct(model, module, version, name).ok_or_else(unsupported)?;
            if entries.is_empty() {
                return Ok(format!("{path}::default()"));
            }
            let mut fields = Vec::new();
            for (k, item) in entries {
                let f = s.fields.iter().find(|f| f.json == *k).ok_or_else(|| {
                    Error::Model(format!("{at}: +default: {name} has no field {k}"))
                })?;
                let value = json_expr(item, &f.ty, model, at)?;
                let value = if f.plain {
                    value
                } else {
                    format!("Some({value})")
                };
                fields.push(format!("{}: {value}", f.rust));
            }
            let rest = if fields.len() < s.fields.len() {
                ", ..Default::default()"
            } else {
                ""
            };
            format!("{path} {{ {}{rest} }}", fields.join(", "))
        }
        _ => return Err(unsupported()),
    })
}

/// The generated struct `name` of a group version, through the alias of a struct shared
/// with another version (`crate::sharing`).
fn generated_struct<'a>(
    model: &'a Model,
    module: &str,
    version: &str,
    name: &str,
) -> Option<&'a Struct> {
    let m = model
        .modules
        .get(&(module.to_owned(), version.to_owned()))?;
    if let Some(s) = m.structs.get(name) {
        return Some(s);
    }
    let owner = m.aliases.get(name)?.owner.as_ref()?;
    model
        .modules
        .get(&(module.to_owned(), owner.clone()))?
        .structs
        .get(name)
}

/// The text of [`FILE`].
pub fn default_markers(input: &Input, model: &Model) -> Result<String, Error> {
    // (module, version) → type name → statements.
    let mut out: BTreeMap<(String, String), BTreeMap<String, Vec<String>>> = BTreeMap::new();
    for (key, message) in &input.messages {
        let Some((prefix, name)) = key.rsplit_once('.') else {
            continue;
        };
        let Some((module, version)) = package_module(prefix) else {
            continue;
        };
        for field in &message.fields {
            let Some(raw) = field
                .markers
                .iter()
                .find_map(|m| m.strip_prefix("+default="))
            else {
                continue;
            };
            let at = format!("{key}.{}", field.name);
            let value = Value::parse(raw.trim(), &at)?;
            // A type shared with another version (`crate::sharing`) has its owner's
            // fields, and its markers are the owner's.
            let generated = generated_struct(model, &module, &version, name)
                .and_then(|s| s.fields.iter().find(|f| f.json == field.name))
                .ok_or_else(|| {
                    Error::Model(format!("{at}: +default on a field that is not generated"))
                })?;
            let rust = &generated.rust;
            let statement = if generated.plain {
                if value.is_zero() {
                    continue;
                }
                format!(
                    "if {} {{ obj.{rust} = {}; }}",
                    value.zero_test(rust, &at)?,
                    value.expr(&generated.ty, model, &at)?
                )
            } else {
                format!(
                    "if obj.{rust}.is_none() {{ obj.{rust} = Some({}); }}",
                    value.expr(&generated.ty, model, &at)?
                )
            };
            out.entry((module.clone(), version.clone()))
                .or_default()
                .entry(name.to_owned())
                .or_default()
                .push(statement);
        }
    }
    let mut text = crate::emit::header(&model.release);
    text.push_str(
        "//! The defaults of the API types' `+default=` markers, one function per type that has\n//! markers with an effect; `crate::defaults` calls them where Go's generated defaulters do.\n\n",
    );
    for ((module, version), types) in &out {
        if !features::ALWAYS.contains(&module.as_str()) {
            let _ = writeln!(text, "#[cfg(feature = \"{module}\")]");
        }
        let _ = writeln!(text, "pub(crate) mod {module}_{version} {{");
        for (name, statements) in types {
            let _ = writeln!(
                text,
                "    /// The `+default=` markers of `{module}/{version}` `{name}`."
            );
            let _ = writeln!(
                text,
                "    pub(crate) fn {}(obj: &mut crate::{module}::{version}::{name}) {{",
                field_name(name)
            );
            for s in statements {
                let _ = writeln!(text, "        {s}");
            }
            text.push_str("    }\n");
        }
        text.push_str("}\n");
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Field, Module, Omit};

    fn field(json: &str, ty: Ty, plain: bool) -> Field {
        Field {
            json: json.to_owned(),
            rust: json.to_owned(),
            ty,
            plain,
            omit: Omit::Empty,
            doc: String::new(),
            proto: Vec::new(),
            named_slice_values: false,
            markers: Vec::new(),
        }
    }

    fn local(name: &str) -> Ty {
        Ty::Local {
            module: "scheduling".to_owned(),
            version: "v1beta1".to_owned(),
            name: name.to_owned(),
        }
    }

    fn structure(name: &str, fields: Vec<Field>) -> (String, Struct) {
        let s = Struct {
            name: name.to_owned(),
            doc: String::new(),
            fields,
            kind: None,
            embedded_type_meta: false,
        };
        (name.to_owned(), s)
    }

    /// scheduling/v1beta1's `DisruptionMode`, a one-of of empty structs, with a field
    /// of every other shape besides.
    fn model() -> Model {
        let mut m = Module::default();
        m.structs.extend([
            structure(
                "DisruptionMode",
                vec![
                    field("single", local("SingleDisruptionMode"), false),
                    field("all", local("AllDisruptionMode"), false),
                    field("names", Ty::Vec(Box::new(Ty::Path("String".into()))), true),
                    field("sizes", Ty::Map(Box::new(Ty::Path("i32".into()))), true),
                    field("strict", Ty::Path("bool".into()), true),
                ],
            ),
            structure("SingleDisruptionMode", Vec::new()),
            structure("AllDisruptionMode", Vec::new()),
        ]);
        let mut model = Model::default();
        model
            .modules
            .insert(("scheduling".to_owned(), "v1beta1".to_owned()), m);
        model
    }

    fn expr(raw: &str) -> Result<String, Error> {
        let value = Value::parse(raw, "at")?;
        value.expr(&local("DisruptionMode"), &model(), "at")
    }

    #[test]
    fn a_json_default_is_the_struct_it_reads_as() -> Result<(), Error> {
        assert_eq!(
            expr(r#"{"single": {}}"#)?,
            "crate::scheduling::v1beta1::DisruptionMode { single: Some(crate::scheduling::v1beta1::SingleDisruptionMode::default()), ..Default::default() }"
        );
        assert_eq!(
            expr(r#"{"names": ["a"], "sizes": {"b": 2}, "strict": true}"#)?,
            "crate::scheduling::v1beta1::DisruptionMode { names: vec![\"a\".to_owned()], sizes: [(\"b\".to_owned(), 2)].into_iter().collect(), strict: true, ..Default::default() }"
        );
        assert_eq!(
            expr("{}")?,
            "crate::scheduling::v1beta1::DisruptionMode::default()"
        );
        Ok(())
    }

    #[test]
    fn a_json_default_that_does_not_fit_is_an_error() {
        assert!(expr(r#"{"other": {}}"#).is_err());
        assert!(expr(r#"{"strict": "yes"}"#).is_err());
        assert!(expr("[1]").is_err());
        assert!(expr("{not json").is_err());
    }

    #[test]
    fn a_json_default_on_a_value_field_is_an_error() -> Result<(), Error> {
        let value = Value::parse(r#"{"single": {}}"#, "at")?;
        assert!(!value.is_zero());
        assert!(value.zero_test("mode", "at").is_err());
        Ok(())
    }
}
