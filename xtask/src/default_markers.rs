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
use crate::model::{Model, package_module};
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
        Err(Error::Model(format!(
            "{at}: +default={raw} is neither a string, a constant, a boolean nor an integer"
        )))
    }

    /// Whether it is its type's zero value.
    fn is_zero(&self) -> bool {
        match self {
            Value::Str(s) => s.is_empty(),
            Value::Literal(l) => l == "0" || l == "false",
        }
    }

    /// The Rust expression of the value.
    fn expr(&self) -> String {
        match self {
            Value::Str(s) if s.is_empty() => "String::new()".to_owned(),
            Value::Str(s) => format!("{s:?}.to_owned()"),
            Value::Literal(l) => l.clone(),
        }
    }

    /// The Rust test that a value field holds its zero value.
    fn zero_test(&self, field: &str) -> String {
        match self {
            Value::Str(_) => format!("obj.{field}.is_empty()"),
            Value::Literal(l) if l == "true" => format!("!obj.{field}"),
            Value::Literal(_) => format!("obj.{field} == 0"),
        }
    }
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
            let generated = model
                .modules
                .get(&(module.clone(), version.clone()))
                .and_then(|m| {
                    let owner = m.aliases.get(name).and_then(|a| a.owner.as_ref())?;
                    model.modules.get(&(module.clone(), owner.clone()))
                })
                .or_else(|| model.modules.get(&(module.clone(), version.clone())))
                .and_then(|m| m.structs.get(name))
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
                    value.zero_test(rust),
                    value.expr()
                )
            } else {
                format!(
                    "if obj.{rust}.is_none() {{ obj.{rust} = Some({}); }}",
                    value.expr()
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
