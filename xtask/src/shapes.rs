//! `shapes.json`: every generated type's JSON fields in Go order with a compact type
//! description, for the tests that build an object with every field set for each kind
//! (the checkout of a user has no reference data to read them from). A type shared with
//! another version (`crate::sharing`) is listed with the fields of the struct it names.
//!
//! Type descriptions: a leaf (`string`, `i32`, `i64`, `bool`, `f64`, `bytes`, `quantity`,
//! `intorstring`, `raw`, `time`, `microtime`, `duration`, `fieldsv1`, `json`), `[]T` (a
//! list), `{}T` (a map with string keys), `ref:<module>/<version>/<Type>` (a struct),
//! or `orarray:`/`orbool:`/`orstrings:` and a `ref:` (the apiextensions unions).

use std::fmt::Write as _;

use crate::model::{Field, Model, Struct, Ty};

fn describe(t: &Ty) -> String {
    match t {
        Ty::Vec(inner) => format!("[]{}", describe(inner)),
        Ty::Map(inner) => format!("{{}}{}", describe(inner)),
        Ty::Boxed(inner) => describe(inner),
        Ty::Local {
            module,
            version,
            name,
        } => format!("ref:{module}/{version}/{name}"),
        Ty::Path(p) => {
            let last = p.rsplit("::").next().unwrap_or(p);
            let leaf = match last {
                "String" => "string",
                "i32" | "i64" | "bool" | "f64" | "f32" => last,
                "ByteString" => "bytes",
                "Quantity" => "quantity",
                "IntOrString" => "intorstring",
                "RawExtension" => "raw",
                "Time" => "time",
                "MicroTime" => "microtime",
                "Duration" => "duration",
                "FieldsV1" => "fieldsv1",
                "JSON" => "json",
                _ => "",
            };
            if !leaf.is_empty() {
                return leaf.to_owned();
            }
            if let Some((union, props)) = p.split_once('<') {
                let props = props.trim_end_matches('>');
                let props = props.trim_start_matches("crate::").replace("::", "/");
                let tag = if union.ends_with("OrArray") {
                    "orarray"
                } else if union.ends_with("OrBool") {
                    "orbool"
                } else {
                    "orstrings"
                };
                return format!("{tag}:ref:{props}");
            }
            format!("ref:meta/v1/{last}")
        }
    }
}

fn write_fields(out: &mut String, fields: &[Field]) {
    out.push('[');
    for (i, f) in fields.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "[{:?},{:?}]", f.json, describe(&f.ty));
    }
    out.push(']');
}

/// The end of a struct's entry: whether it embeds TypeMeta, and its fields.
fn write_body(out: &mut String, s: &Struct) {
    if s.embedded_type_meta {
        out.push_str("\"typeMeta\":true,");
    }
    out.push_str("\"fields\":");
    write_fields(out, &s.fields);
    out.push('}');
}

/// The `shapes.json` text.
pub fn shapes(model: &Model) -> String {
    let mut entries: Vec<String> = Vec::new();
    for ((module, version), m) in &model.modules {
        for s in m.structs.values() {
            let mut e = format!("{:?}:{{", format!("{module}/{version}/{}", s.name));
            if let Some(k) = &s.kind {
                let api_version = if k.group.is_empty() {
                    k.version.clone()
                } else {
                    format!("{}/{}", k.group, k.version)
                };
                let _ = write!(
                    e,
                    "\"kind\":[{:?},{:?},{}],",
                    api_version, s.name, !k.no_type_meta
                );
            }
            write_body(&mut e, s);
            entries.push(e);
        }
    }
    // A type another version owns (`crate::sharing`) is listed under its own name too,
    // with the owner's fields: they are its fields.
    for ((module, version), m) in &model.modules {
        for a in m.aliases.values() {
            let Some(s) = a.owner.as_ref().and_then(|owner| {
                model
                    .modules
                    .get(&(module.clone(), owner.clone()))?
                    .structs
                    .get(&a.name)
            }) else {
                continue;
            };
            let mut e = format!("{:?}:{{", format!("{module}/{version}/{}", a.name));
            write_body(&mut e, s);
            entries.push(e);
        }
    }
    for (name, fields) in &model.external_meta {
        let mut e = format!("{:?}:{{\"fields\":", format!("meta/v1/{name}"));
        write_fields(&mut e, fields);
        e.push('}');
        entries.push(e);
    }
    entries.sort();
    format!("{{\n{}\n}}\n", entries.join(",\n"))
}
