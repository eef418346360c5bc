//! The enum values of Go's OpenAPI definitions, which the committed OpenAPI documents
//! lack and kube-apiserver serves.
//!
//! openapi-gen writes a string field of an enum type (`+enum`) with `Enum` (its values)
//! and a description ending in `Possible enum values:` and a line per value. The
//! documents in `api/openapi-spec` are fetched from a kube-apiserver started with
//! `--feature-gates=OpenAPIEnums=false` (`hack/update-openapi-spec.sh`), which drops
//! both (`k8s.io/apiserver` `pkg/util/openapi/enablement.go`, `pruneEnums`); the gate is
//! on by default, so a default kube-apiserver serves them. They are read from the
//! definitions Go compiles in, `pkg/generated/openapi/zz_generated.openapi.go` of
//! `k8s.io/kubernetes` (which holds every built-in group's, apiextensions' and
//! apiregistration's), and written by `cargo xtask refdata` as `openapi-enums.json`:
//!
//! ```json
//! {"io.k8s.api.core.v1.ContainerPort": [
//!   {"path": ["protocol"], "enum": ["SCTP", "TCP", "UDP"], "description": "..."}]}
//! ```
//!
//! A path is the property names from the definition down, with `[]` for an array's
//! items and `{}` for a map's values. `cargo xtask codegen` puts them back into the
//! documents ([`apply`]).
//!
//! The generated Go file is gofmt'd composite literals, one field per line, so it is read
//! line by line: braces opened and closed give the nesting, a `"name": {` line under
//! `Properties:` a property, `Items:` and `AdditionalProperties:` an array's items and a
//! map's values.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Map, Value};

use crate::Error;

/// The reference data's file.
pub const FILE: &str = "openapi-enums.json";

/// The generated Go definitions, in `k8s.io/kubernetes`.
pub const GO_FILE: &str = "pkg/generated/openapi/zz_generated.openapi.go";

/// The header openapi-gen writes above the values in a description.
const ENUM_HEADER: &str = "Possible enum values:";

/// One enum-typed schema of a definition.
#[derive(Debug, Clone, PartialEq)]
pub struct EnumField {
    /// Property names from the definition down; `[]` items, `{}` map values.
    pub path: Vec<String>,
    /// The values.
    pub values: Vec<String>,
    /// The description with its `Possible enum values:` section, when it has one.
    pub description: Option<String>,
}

/// What a brace opened on a line is.
#[derive(Debug, Clone, PartialEq)]
enum Frame {
    /// `Properties: map[string]spec.Schema{`.
    Properties,
    /// A property's schema, `"name": {` under `Properties`.
    Property(String),
    /// `Items: &spec.SchemaOrArray{`.
    Items,
    /// `AdditionalProperties: &spec.SchemaOrBool{`.
    Values,
    Other,
}

/// Reads the enum fields of every definition in the generated Go source `text`, keyed by
/// OpenAPI definition name (`io.k8s.api.core.v1.ContainerPort`).
pub fn parse(text: &str) -> Result<BTreeMap<String, Vec<EnumField>>, Error> {
    let imports = imports(text);
    // Go function name -> definition name, from `GetOpenAPIDefinitions`' table:
    // `corev1.ContainerPort{}.OpenAPIModelName(): schema_..._ContainerPort(ref),`.
    let mut names: BTreeMap<&str, String> = BTreeMap::new();
    for line in text.lines() {
        let Some((key, function)) = line.trim().split_once("{}.OpenAPIModelName():") else {
            continue;
        };
        let (Some((alias, type_name)), Some(function)) =
            (key.split_once('.'), function.trim().strip_suffix("(ref),"))
        else {
            continue;
        };
        if let Some(package) = imports.get(alias) {
            names.insert(function, format!("{}.{type_name}", model_prefix(package)));
        }
    }

    let mut out: BTreeMap<String, Vec<EnumField>> = BTreeMap::new();
    let mut current: Option<&str> = None;
    let mut stack: Vec<Frame> = Vec::new();
    let mut descriptions: BTreeMap<Vec<String>, String> = BTreeMap::new();
    for (number, line) in text.lines().enumerate() {
        let at = || format!("{GO_FILE}:{}", number + 1);
        if let Some(rest) = line.strip_prefix("func ") {
            current = rest
                .split_once('(')
                .and_then(|(function, _)| names.get(function))
                .map(String::as_str);
            stack.clear();
            descriptions.clear();
            continue;
        }
        let Some(definition) = current else { continue };
        let trimmed = line.trim();
        let path = path_of(&stack);
        if let Some(literal) = trimmed
            .strip_prefix("Description:")
            .and_then(|r| r.trim().strip_suffix(','))
        {
            descriptions.insert(
                path.clone(),
                go_string(literal.trim()).map_err(|e| model(at(), e))?,
            );
        } else if let Some(list) = trimmed
            .strip_prefix("Enum:")
            .map(str::trim)
            .and_then(|r| r.strip_prefix("[]interface{}{"))
            .and_then(|r| r.strip_suffix("},"))
        {
            let values = go_strings(list).map_err(|e| model(at(), e))?;
            let description = descriptions
                .get(&path)
                .filter(|d| d.contains(ENUM_HEADER))
                .cloned();
            out.entry(definition.to_owned())
                .or_default()
                .push(EnumField {
                    path,
                    values,
                    description,
                });
        }
        let (opened, closed) = braces(trimmed);
        for _ in 0..closed.saturating_sub(opened) {
            stack.pop();
        }
        if opened > closed {
            let frame = if trimmed.starts_with("Properties:") {
                Frame::Properties
            } else if trimmed.starts_with("Items:") {
                Frame::Items
            } else if trimmed.starts_with("AdditionalProperties:") {
                Frame::Values
            } else if let (Some(Frame::Properties), Some(name)) = (
                stack.last(),
                trimmed
                    .strip_suffix(": {")
                    .and_then(|k| k.strip_prefix('"'))
                    .and_then(|k| k.strip_suffix('"')),
            ) {
                Frame::Property(name.to_owned())
            } else {
                Frame::Other
            };
            stack.push(frame);
            for _ in 1..opened - closed {
                stack.push(Frame::Other);
            }
        }
    }
    Ok(out)
}

fn model(at: String, message: String) -> Error {
    Error::Model(format!("{at}: {message}"))
}

/// The path of the schema the innermost frames are in.
fn path_of(stack: &[Frame]) -> Vec<String> {
    stack
        .iter()
        .filter_map(|f| match f {
            Frame::Property(name) => Some(name.clone()),
            Frame::Items => Some("[]".to_owned()),
            Frame::Values => Some("{}".to_owned()),
            Frame::Properties | Frame::Other => None,
        })
        .collect()
}

/// Import alias -> package path, from the file's import block.
fn imports(text: &str) -> BTreeMap<&str, &str> {
    text.lines()
        .skip_while(|l| !l.starts_with("import ("))
        .take_while(|l| *l != ")")
        .filter_map(|l| {
            let (alias, path) = l.trim().split_once(' ')?;
            Some((alias, path.trim().strip_prefix('"')?.strip_suffix('"')?))
        })
        .collect()
}

/// The definition name prefix of a Go package: its path with the domain reversed
/// (`k8s.io/api/core/v1` -> `io.k8s.api.core.v1`), as `OpenAPIModelName` gives it.
fn model_prefix(package: &str) -> String {
    let (domain, rest) = package.split_once('/').unwrap_or((package, ""));
    let mut parts: Vec<&str> = domain.split('.').rev().collect();
    parts.extend(rest.split('/').filter(|s| !s.is_empty()));
    parts.join(".")
}

/// The braces opened and closed on a line, outside string literals.
fn braces(line: &str) -> (usize, usize) {
    let (mut opened, mut closed, mut in_string, mut escaped) = (0, 0, false, false);
    for c in line.chars() {
        match (in_string, escaped, c) {
            (true, true, _) => escaped = false,
            (true, false, '\\') => escaped = true,
            (true, false, '"') => in_string = false,
            (true, false, _) => {}
            (false, _, '"') => in_string = true,
            (false, _, '{') => opened += 1,
            (false, _, '}') => closed += 1,
            _ => {}
        }
    }
    (opened, closed)
}

/// The comma-separated Go string literals of an `[]interface{}{...}` list.
fn go_strings(list: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut rest = list.trim();
    while !rest.is_empty() {
        let end = literal_end(rest).ok_or_else(|| format!("not a string list: {list}"))?;
        out.push(go_string(&rest[..end])?);
        rest = rest[end..].trim_start();
        rest = rest.strip_prefix(',').unwrap_or(rest).trim_start();
    }
    Ok(out)
}

/// The byte length of the interpreted string literal `text` starts with.
fn literal_end(text: &str) -> Option<usize> {
    let mut chars = text.char_indices();
    if chars.next()?.1 != '"' {
        return None;
    }
    let mut escaped = false;
    for (i, c) in chars {
        match (escaped, c) {
            (true, _) => escaped = false,
            (false, '\\') => escaped = true,
            (false, '"') => return Some(i + 1),
            _ => {}
        }
    }
    None
}

/// The value of a Go interpreted string literal (quotes included).
fn go_string(literal: &str) -> Result<String, String> {
    let inner = literal
        .strip_prefix('"')
        .and_then(|l| l.strip_suffix('"'))
        .ok_or_else(|| format!("not a string literal: {literal}"))?;
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let escape = chars.next().ok_or("a literal ends in a backslash")?;
        let hex = |chars: &mut std::str::Chars<'_>, n: usize| -> Result<char, String> {
            let digits: String = chars.by_ref().take(n).collect();
            u32::from_str_radix(&digits, 16)
                .ok()
                .and_then(char::from_u32)
                .ok_or_else(|| format!("bad escape \\{escape}{digits}"))
        };
        out.push(match escape {
            'n' => '\n',
            't' => '\t',
            'r' => '\r',
            'a' => '\u{7}',
            'b' => '\u{8}',
            'f' => '\u{c}',
            'v' => '\u{b}',
            '\\' | '"' | '\'' => escape,
            'x' => hex(&mut chars, 2)?,
            'u' => hex(&mut chars, 4)?,
            'U' => hex(&mut chars, 8)?,
            other => return Err(format!("unsupported escape \\{other}")),
        });
    }
    Ok(out)
}

/// `openapi-enums.json`'s text.
pub fn to_json(enums: &BTreeMap<String, Vec<EnumField>>) -> String {
    let value: Map<String, Value> = enums
        .iter()
        .map(|(name, fields)| {
            let fields = fields
                .iter()
                .map(|f| {
                    let mut m = Map::new();
                    m.insert("path".into(), f.path.clone().into());
                    m.insert("enum".into(), f.values.clone().into());
                    if let Some(d) = &f.description {
                        m.insert("description".into(), d.clone().into());
                    }
                    Value::Object(m)
                })
                .collect();
            (name.clone(), Value::Array(fields))
        })
        .collect();
    let mut text = serde_json::to_string_pretty(&Value::Object(value)).unwrap_or_default();
    text.push('\n');
    text
}

/// Reads `openapi-enums.json` from the reference data directory `dir`.
pub fn read(dir: &Path) -> Result<Value, Error> {
    let path = dir.join(FILE);
    let text = std::fs::read_to_string(&path).map_err(|source| Error::Read {
        path: path.clone(),
        source,
    })?;
    serde_json::from_str(&text).map_err(|source| Error::Parse { path, source })
}

/// Puts the enums of `enums` (`openapi-enums.json`'s value) into the definitions of
/// `schemas` (a v3 document's `components.schemas` or the v2 `definitions`), as a
/// default kube-apiserver serves them. A path that a definition lacks is left alone.
pub fn apply(schemas: &mut Map<String, Value>, enums: &Value) {
    let Some(enums) = enums.as_object() else {
        return;
    };
    for (name, schema) in schemas.iter_mut() {
        for field in enums
            .get(name)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let path = field.get("path").and_then(Value::as_array);
            let mut node = Some(&mut *schema);
            for step in path.into_iter().flatten().filter_map(Value::as_str) {
                node = node.and_then(|n| match step {
                    "[]" => n.get_mut("items"),
                    "{}" => n.get_mut("additionalProperties"),
                    property => n.get_mut("properties")?.get_mut(property),
                });
            }
            let Some(Value::Object(target)) = node else {
                continue;
            };
            if let Some(values) = field.get("enum") {
                target.insert("enum".to_owned(), values.clone());
            }
            if let Some(description) = field.get("description") {
                target.insert("description".to_owned(), description.clone());
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use serde_json::json;

    const GO: &str = r#"package openapi

import (
	corev1 "k8s.io/api/core/v1"
	common "k8s.io/kube-openapi/pkg/common"
)

func GetOpenAPIDefinitions(ref common.ReferenceCallback) map[string]common.OpenAPIDefinition {
	return map[string]common.OpenAPIDefinition{
		corev1.ContainerPort{}.OpenAPIModelName():   schema_k8sio_api_core_v1_ContainerPort(ref),
	}
}

func schema_k8sio_api_core_v1_ContainerPort(ref common.ReferenceCallback) common.OpenAPIDefinition {
	return common.OpenAPIDefinition{
		Schema: spec.Schema{
			SchemaProps: spec.SchemaProps{
				Description: "ContainerPort {is} a port.",
				Type:        []string{"object"},
				Properties: map[string]spec.Schema{
					"protocol": {
						SchemaProps: spec.SchemaProps{
							Description: "Protocol \"x\".\n\nPossible enum values:\n - `\"TCP\"` is TCP.",
							Default:     "TCP",
							Enum:        []interface{}{"SCTP", "TCP", "UDP"},
						},
					},
					"ops": {
						VendorExtensible: spec.VendorExtensible{
							Extensions: spec.Extensions{
								"x-kubernetes-list-type": "set",
							},
						},
						SchemaProps: spec.SchemaProps{
							Description: "Ops.",
							Items: &spec.SchemaOrArray{
								Schema: &spec.Schema{
									SchemaProps: spec.SchemaProps{
										Enum:   []interface{}{"*", "A, B"},
									},
								},
							},
						},
					},
				},
			},
		},
	}
}
"#;

    #[test]
    fn reads_properties_and_items() {
        let enums = parse(GO).unwrap();
        let fields = &enums["io.k8s.api.core.v1.ContainerPort"];
        assert_eq!(
            fields[0],
            EnumField {
                path: vec!["protocol".into()],
                values: vec!["SCTP".into(), "TCP".into(), "UDP".into()],
                description: Some(
                    "Protocol \"x\".\n\nPossible enum values:\n - `\"TCP\"` is TCP.".into()
                ),
            }
        );
        assert_eq!(fields[1].path, ["ops", "[]"]);
        assert_eq!(fields[1].values, ["*", "A, B"]);
        assert_eq!(fields[1].description, None);
    }

    #[test]
    fn applies_to_schemas() {
        let enums: Value = serde_json::from_str(&to_json(&parse(GO).unwrap())).unwrap();
        let mut schemas = json!({"io.k8s.api.core.v1.ContainerPort": {"properties": {
            "protocol": {"description": "Protocol \"x\".", "type": "string"},
            "ops": {"type": "array", "items": {"type": "string"}}
        }}});
        apply(schemas.as_object_mut().unwrap(), &enums);
        let props = &schemas["io.k8s.api.core.v1.ContainerPort"]["properties"];
        assert_eq!(props["protocol"]["enum"], json!(["SCTP", "TCP", "UDP"]));
        assert!(
            props["protocol"]["description"]
                .as_str()
                .unwrap()
                .ends_with("is TCP.")
        );
        assert_eq!(props["ops"]["items"]["enum"], json!(["*", "A, B"]));
    }

    #[test]
    fn go_literals() {
        assert_eq!(go_string(r#""a\tb\u00e9\x41""#).unwrap(), "a\tbéA");
        assert!(go_string(r#""\q""#).is_err());
        assert_eq!(model_prefix("k8s.io/api/core/v1"), "io.k8s.api.core.v1");
        assert_eq!(braces(r#"x: "{", y{{}"#), (2, 1));
    }
}
