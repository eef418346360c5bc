//! The bytes kube-openapi's `handler3` serves for an OpenAPI v3 document: Go's
//! `json.Marshal` of a `spec3.OpenAPI` (Go: `k8s.io/kube-openapi` `pkg/handler3`,
//! `pkg/spec3`, `pkg/validation/spec`). The SHA-512 of these bytes is the document's
//! `hash` in the index, its ETag and the target of a stale hash's redirect, so a
//! document equal as JSON but written otherwise has other hashes than Go's.
//!
//! How Go writes them (the same in the kube-openapi of 1.36 and of 1.37):
//!
//! - each type's marshaler (`MarshalJSONTo`, `MarshalNextJSON` in older releases)
//!   encodes a struct through go-json-experiment with `Deterministic`: the struct's
//!   fields in declaration order, embedded structs' fields where they are embedded,
//!   and the inlined map of vendor extensions (and a schema's extra properties) after
//!   all of them, its keys sorted;
//! - an extension's value is an `interface{}` (a map, its keys sorted) but for an
//!   operation's `x-kubernetes-group-version-kind`, which the endpoints installer sets
//!   as a `metav1.GroupVersionKind` struct (`group`, `version`, `kind`);
//! - maps (`paths`, `properties`, `content`, `components.schemas`, any `interface{}`
//!   value) with their keys sorted bytewise; a `Responses` writes `default` first, then
//!   the status codes and extensions, sorted;
//! - fields tagged `omitempty` are left out when they would be `null`, `""`, `[]` or
//!   `{}`, `omitzero` ones when Go's zero value (`false`, a nil pointer or interface);
//! - numbers of float fields and `interface{}` values as Go formats a `float64`
//!   (shortest form, an exponent below 1e-6 and from 1e21 on);
//! - `encoding/json` then compacts the bytes escaping `<`, `>`, `&`, U+2028 and U+2029
//!   as `\u003c`... (its HTML-safe default); control characters are escaped as
//!   go-json-experiment does (`\n`, `\t`, ... or `\u001f`).
//!
//! [`document`] writes a document (a JSON value in any key order) so: the embedded
//! documents are written so by `cargo xtask codegen` (which includes this file), the
//! documents of custom resources at run time. The table is kube-openapi's structs'
//! fields, as data ([`fields`]); a key a struct does not declare (Go would drop it, or
//! keep it as a schema's extra property) is written with the extensions, so that nothing
//! is lost.
//!
//! This file uses only `std` and `serde_json`: `xtask` includes it with `#[path]`.

use std::fmt::Write as _;

use serde_json::{Map, Number, Value};

/// The text Go's `json.Marshal` writes for `document`, a `spec3.OpenAPI` as JSON.
pub fn document(document: &Value) -> String {
    let mut out = String::with_capacity(4096);
    write(&mut out, document, Kind::OpenApi);
    out
}

/// A kube-openapi type a JSON value is decoded into (`spec3.X` unless noted).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// An `interface{}` (defaults, enums, examples, extensions): maps with sorted keys.
    Any,
    OpenApi,
    /// `spec.Info`.
    Info,
    /// `spec.ContactInfo`.
    Contact,
    /// `spec.License`.
    License,
    /// Paths by path (`/...`), extensions (`x-...`), all sorted.
    Paths,
    Path,
    Operation,
    Parameter,
    RequestBody,
    /// `default`, then the responses by status code and the extensions, sorted.
    Responses,
    Response,
    Link,
    MediaType,
    Header,
    Example,
    Encoding,
    Components,
    Server,
    ServerVariable,
    SecurityScheme,
    OAuthFlow,
    /// `spec3.ExternalDocumentation` and `spec.ExternalDocumentation` (the same fields).
    ExternalDocs,
    /// `spec.Schema`.
    Schema,
    /// `spec.SchemaOrArray` (`items`): a schema or a list of them.
    SchemaOrArray,
    /// `spec.SchemaOrBool` (`additionalProperties`, `additionalItems`).
    SchemaOrBool,
    /// `spec.SchemaOrStringArray` (a `dependencies` value).
    SchemaOrStrings,
    /// `metav1.GroupVersionKind`: an operation's `x-kubernetes-group-version-kind`, which
    /// the endpoints installer (`k8s.io/apiserver` `pkg/endpoints/installer.go`, and
    /// apiextensions-apiserver's OpenAPI builder for custom resources) puts in the route's
    /// metadata as this struct, not as a map.
    Gvk,
    /// A custom resource schema's `x-kubernetes-validations`: apiextensions-apiserver's
    /// structural schema (`ToKubeOpenAPI`) sets it as `apiextensions/v1.ValidationRules`,
    /// a list of structs, not of maps.
    ValidationRules,
    /// `apiextensions/v1.ValidationRule`.
    ValidationRule,
}

/// The shape of a field's value.
#[derive(Debug, Clone, Copy)]
enum Shape {
    One(Kind),
    /// A map (keys sorted) of values of the kind.
    Map(Kind),
    /// A list of values of the kind.
    List(Kind),
}

/// When Go leaves a field out.
#[derive(Debug, Clone, Copy)]
enum Omit {
    /// Never (no `omitempty` or `omitzero`).
    Never,
    /// `omitempty`: when it would be `null`, `""`, `[]` or `{}`.
    Empty,
    /// `omitzero` on a pointer, interface or slice: when nil.
    Nil,
    /// `omitzero` on a bool: when false.
    False,
}

/// One struct field: its JSON name, shape and omission.
type Field = (&'static str, Shape, Omit);

use Kind as K;
use Omit::{Empty, False, Never, Nil};
use Shape::{List, Map as M, One};

/// The fields a struct kind declares, in Go's order (embedded structs expanded where
/// they are embedded in the marshaler's struct; the inlined extensions are not fields:
/// they follow them all). Empty for the kinds written otherwise.
fn fields(kind: Kind) -> &'static [Field] {
    match kind {
        K::OpenApi => &[
            ("openapi", One(K::Any), Never),
            ("info", One(K::Info), Never),
            ("paths", One(K::Paths), Nil),
            ("servers", List(K::Server), Empty),
            ("components", One(K::Components), Nil),
            ("security", One(K::Any), Empty),
            ("externalDocs", One(K::ExternalDocs), Nil),
        ],
        K::Info => &[
            ("description", One(K::Any), Empty),
            ("title", One(K::Any), Empty),
            ("termsOfService", One(K::Any), Empty),
            ("contact", One(K::Contact), Empty),
            ("license", One(K::License), Empty),
            ("version", One(K::Any), Empty),
        ],
        K::Contact => &[
            ("name", One(K::Any), Empty),
            ("url", One(K::Any), Empty),
            ("email", One(K::Any), Empty),
        ],
        K::License => &[("name", One(K::Any), Empty), ("url", One(K::Any), Empty)],
        K::Path => &[
            ("$ref", One(K::Any), Empty),
            ("summary", One(K::Any), Empty),
            ("description", One(K::Any), Empty),
            ("get", One(K::Operation), Empty),
            ("put", One(K::Operation), Empty),
            ("post", One(K::Operation), Empty),
            ("delete", One(K::Operation), Empty),
            ("options", One(K::Operation), Empty),
            ("head", One(K::Operation), Empty),
            ("patch", One(K::Operation), Empty),
            ("trace", One(K::Operation), Empty),
            ("servers", List(K::Server), Empty),
            ("parameters", List(K::Parameter), Empty),
        ],
        K::Operation => &[
            ("tags", One(K::Any), Empty),
            ("summary", One(K::Any), Empty),
            ("description", One(K::Any), Empty),
            ("externalDocs", One(K::ExternalDocs), Nil),
            ("operationId", One(K::Any), Empty),
            ("parameters", List(K::Parameter), Empty),
            ("requestBody", One(K::RequestBody), Nil),
            ("responses", One(K::Responses), Nil),
            ("deprecated", One(K::Any), False),
            ("security", One(K::Any), Empty),
            ("servers", List(K::Server), Empty),
        ],
        K::Parameter => &[
            ("$ref", One(K::Any), Empty),
            ("name", One(K::Any), Empty),
            ("in", One(K::Any), Empty),
            ("description", One(K::Any), Empty),
            ("required", One(K::Any), False),
            ("deprecated", One(K::Any), False),
            ("allowEmptyValue", One(K::Any), False),
            ("style", One(K::Any), Empty),
            ("explode", One(K::Any), False),
            ("allowReserved", One(K::Any), False),
            ("schema", One(K::Schema), Nil),
            ("content", M(K::MediaType), Empty),
            ("example", One(K::Any), Empty),
            ("examples", M(K::Example), Empty),
        ],
        K::RequestBody => &[
            ("$ref", One(K::Any), Empty),
            ("description", One(K::Any), Empty),
            ("content", M(K::MediaType), Empty),
            ("required", One(K::Any), False),
        ],
        K::Response => &[
            ("$ref", One(K::Any), Empty),
            ("description", One(K::Any), Empty),
            ("headers", M(K::Header), Empty),
            ("content", M(K::MediaType), Empty),
            ("links", M(K::Link), Empty),
        ],
        K::Link => &[
            ("$ref", One(K::Any), Empty),
            ("operationId", One(K::Any), Empty),
            ("parameters", One(K::Any), Empty),
            ("description", One(K::Any), Empty),
            ("requestBody", One(K::Any), Empty),
            ("server", One(K::Server), Empty),
        ],
        K::MediaType => &[
            ("schema", One(K::Schema), Nil),
            ("example", One(K::Any), Empty),
            ("examples", M(K::Example), Empty),
            ("encoding", M(K::Encoding), Empty),
        ],
        K::Header => &[
            ("$ref", One(K::Any), Empty),
            ("description", One(K::Any), Empty),
            ("required", One(K::Any), False),
            ("deprecated", One(K::Any), False),
            ("allowEmptyValue", One(K::Any), False),
            ("style", One(K::Any), Empty),
            ("explode", One(K::Any), False),
            ("allowReserved", One(K::Any), False),
            ("schema", One(K::Schema), Nil),
            ("content", M(K::MediaType), Empty),
            ("example", One(K::Any), Empty),
            ("examples", M(K::Example), Empty),
        ],
        K::Example => &[
            ("$ref", One(K::Any), Empty),
            ("summary", One(K::Any), Empty),
            ("description", One(K::Any), Empty),
            ("value", One(K::Any), Empty),
            ("externalValue", One(K::Any), Empty),
        ],
        K::Encoding => &[
            ("contentType", One(K::Any), Empty),
            ("headers", M(K::Header), Empty),
            ("style", One(K::Any), Empty),
            ("explode", One(K::Any), False),
            ("allowReserved", One(K::Any), False),
        ],
        K::Components => &[
            ("schemas", M(K::Schema), Empty),
            ("securitySchemes", M(K::SecurityScheme), Empty),
            ("responses", M(K::Response), Empty),
            ("parameters", M(K::Parameter), Empty),
            ("examples", M(K::Example), Empty),
            ("requestBodies", M(K::RequestBody), Empty),
            ("links", M(K::Link), Empty),
            ("headers", M(K::Header), Empty),
        ],
        K::Server => &[
            ("description", One(K::Any), Empty),
            ("url", One(K::Any), Never),
            ("variables", M(K::ServerVariable), Empty),
        ],
        K::ServerVariable => &[
            ("enum", One(K::Any), Empty),
            ("default", One(K::Any), Never),
            ("description", One(K::Any), Empty),
        ],
        K::SecurityScheme => &[
            ("$ref", One(K::Any), Empty),
            ("type", One(K::Any), Empty),
            ("description", One(K::Any), Empty),
            ("name", One(K::Any), Empty),
            ("in", One(K::Any), Empty),
            ("scheme", One(K::Any), Empty),
            ("bearerFormat", One(K::Any), Empty),
            ("flows", M(K::OAuthFlow), Empty),
            ("openIdConnectUrl", One(K::Any), Empty),
        ],
        K::OAuthFlow => &[
            ("authorizationUrl", One(K::Any), Empty),
            ("tokenUrl", One(K::Any), Empty),
            ("refreshUrl", One(K::Any), Empty),
            ("scopes", One(K::Any), Empty),
        ],
        // spec3's (`url` always written) and spec's (`url` omitempty) differ only in
        // that; a URL is never empty in a served document.
        K::ExternalDocs => &[
            ("description", One(K::Any), Empty),
            ("url", One(K::Any), Never),
        ],
        // `SchemaProps`, `SwaggerSchemaProps`, then `$schema` and `$ref`.
        K::Schema => &[
            ("id", One(K::Any), Empty),
            ("description", One(K::Any), Empty),
            ("type", One(K::Any), Nil),
            ("nullable", One(K::Any), False),
            ("format", One(K::Any), Empty),
            ("title", One(K::Any), Empty),
            ("default", One(K::Any), Nil),
            ("maximum", One(K::Any), Empty),
            ("exclusiveMaximum", One(K::Any), False),
            ("minimum", One(K::Any), Empty),
            ("exclusiveMinimum", One(K::Any), False),
            ("maxLength", One(K::Any), Empty),
            ("minLength", One(K::Any), Empty),
            ("pattern", One(K::Any), Empty),
            ("maxItems", One(K::Any), Empty),
            ("minItems", One(K::Any), Empty),
            ("uniqueItems", One(K::Any), False),
            ("multipleOf", One(K::Any), Empty),
            ("enum", One(K::Any), Empty),
            ("maxProperties", One(K::Any), Empty),
            ("minProperties", One(K::Any), Empty),
            ("required", One(K::Any), Empty),
            ("items", One(K::SchemaOrArray), Nil),
            ("allOf", List(K::Schema), Empty),
            ("oneOf", List(K::Schema), Empty),
            ("anyOf", List(K::Schema), Empty),
            ("not", One(K::Schema), Nil),
            ("properties", M(K::Schema), Empty),
            ("additionalProperties", One(K::SchemaOrBool), Nil),
            ("patternProperties", M(K::Schema), Empty),
            ("dependencies", M(K::SchemaOrStrings), Empty),
            ("additionalItems", One(K::SchemaOrBool), Nil),
            ("definitions", M(K::Schema), Empty),
            ("discriminator", One(K::Any), Empty),
            ("readOnly", One(K::Any), False),
            ("externalDocs", One(K::ExternalDocs), Nil),
            ("example", One(K::Any), Empty),
            ("$schema", One(K::Any), Empty),
            ("$ref", One(K::Any), Empty),
        ],
        K::Gvk => &[
            ("group", One(K::Any), Never),
            ("version", One(K::Any), Never),
            ("kind", One(K::Any), Never),
        ],
        K::ValidationRule => &[
            ("rule", One(K::Any), Never),
            ("message", One(K::Any), Empty),
            ("messageExpression", One(K::Any), Empty),
            ("reason", One(K::Any), Nil),
            ("fieldPath", One(K::Any), Empty),
            ("optionalOldSelf", One(K::Any), Nil),
        ],
        K::Any
        | K::Paths
        | K::Responses
        | K::SchemaOrArray
        | K::SchemaOrBool
        | K::SchemaOrStrings
        | K::ValidationRules => &[],
    }
}

/// Whether Go leaves out a field of this value.
fn omitted(value: &Value, omit: Omit) -> bool {
    match omit {
        Omit::Never => false,
        Omit::Empty => match value {
            Value::Null => true,
            Value::String(s) => s.is_empty(),
            Value::Array(items) => items.is_empty(),
            Value::Object(fields) => fields.is_empty(),
            Value::Bool(_) | Value::Number(_) => false,
        },
        Omit::Nil => value.is_null(),
        Omit::False => matches!(value, Value::Null | Value::Bool(false)),
    }
}

fn write(out: &mut String, value: &Value, kind: Kind) {
    let Value::Object(object) = value else {
        // A list where Go has a schema or a list (`items`), a bool for `true`/`false`
        // schemas, or a value Go would not decode: as it is.
        match (kind, value) {
            (K::SchemaOrArray, Value::Array(items)) => write_list(out, items, K::Schema),
            (K::ValidationRules, Value::Array(items)) => write_list(out, items, K::ValidationRule),
            _ => write_any(out, value),
        }
        return;
    };
    match kind {
        K::Any => write_sorted(out, object, |_| K::Any),
        K::Paths => write_sorted(out, object, |key| {
            if key.starts_with('/') {
                K::Path
            } else {
                K::Any
            }
        }),
        K::Responses => write_responses(out, object),
        K::SchemaOrArray | K::SchemaOrBool | K::SchemaOrStrings => {
            write(out, value, K::Schema);
        }
        _ => write_struct(out, object, kind),
    }
}

/// The kind of a struct's extension (or other undeclared key): Go's value is an
/// `interface{}`, a map, but for the one extension the endpoints installer sets as a
/// struct.
fn extension_kind(kind: Kind, key: &str) -> Kind {
    match (kind, key) {
        (K::Operation, "x-kubernetes-group-version-kind") => K::Gvk,
        (K::Schema, "x-kubernetes-validations") => K::ValidationRules,
        _ => K::Any,
    }
}

/// A struct: its declared fields in order, then every other key (vendor extensions, a
/// schema's extra properties) sorted.
fn write_struct(out: &mut String, object: &Map<String, Value>, kind: Kind) {
    let declared = fields(kind);
    out.push('{');
    let mut first = true;
    for &(name, shape, omit) in declared {
        let Some(value) = object.get(name) else {
            continue;
        };
        if omitted(value, omit) {
            continue;
        }
        member(out, &mut first, name);
        write_shape(out, value, shape);
    }
    let mut rest: Vec<(&String, &Value)> = object
        .iter()
        .filter(|(key, _)| !declared.iter().any(|(name, _, _)| name == key))
        .collect();
    rest.sort_unstable_by(|a, b| a.0.cmp(b.0));
    for (key, value) in rest {
        member(out, &mut first, key);
        write(out, value, extension_kind(kind, key));
    }
    out.push('}');
}

/// `Responses`: `default` (a field of Go's struct) first, then the inlined status codes
/// and extensions, sorted.
fn write_responses(out: &mut String, object: &Map<String, Value>) {
    out.push('{');
    let mut first = true;
    if let Some(default) = object.get("default").filter(|v| !v.is_null()) {
        member(out, &mut first, "default");
        write(out, default, K::Response);
    }
    let mut rest: Vec<(&String, &Value)> =
        object.iter().filter(|(key, _)| *key != "default").collect();
    rest.sort_unstable_by(|a, b| a.0.cmp(b.0));
    for (key, value) in rest {
        member(out, &mut first, key);
        write(
            out,
            value,
            if is_extension(key) {
                K::Any
            } else {
                K::Response
            },
        );
    }
    out.push('}');
}

/// A map, its keys sorted, each value of the kind `kind_of` gives for its key.
fn write_sorted(out: &mut String, object: &Map<String, Value>, kind_of: impl Fn(&str) -> Kind) {
    out.push('{');
    let mut first = true;
    let mut entries: Vec<(&String, &Value)> = object.iter().collect();
    entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
    for (key, value) in entries {
        member(out, &mut first, key);
        write(out, value, kind_of(key));
    }
    out.push('}');
}

fn write_list(out: &mut String, items: &[Value], kind: Kind) {
    out.push('[');
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write(out, item, kind);
    }
    out.push(']');
}

fn write_shape(out: &mut String, value: &Value, shape: Shape) {
    match (shape, value) {
        (Shape::One(kind), _) => write(out, value, kind),
        (Shape::Map(kind), Value::Object(object)) => write_sorted(out, object, |_| kind),
        (Shape::List(kind), Value::Array(items)) => write_list(out, items, kind),
        _ => write_any(out, value),
    }
}

/// An `interface{}` value: maps with sorted keys.
fn write_any(out: &mut String, value: &Value) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => write_number(out, n),
        Value::String(s) => write_string(out, s),
        Value::Array(items) => write_list(out, items, K::Any),
        Value::Object(object) => write_sorted(out, object, |_| K::Any),
    }
}

/// The separator (after the first member) and the member's quoted name.
fn member(out: &mut String, first: &mut bool, name: &str) {
    if !*first {
        out.push(',');
    }
    *first = false;
    write_string(out, name);
    out.push(':');
}

fn is_extension(key: &str) -> bool {
    let b = key.as_bytes();
    b.len() > 1 && (b[0] == b'x' || b[0] == b'X') && b[1] == b'-'
}

/// A JSON string as Go writes it: `"` and `\` escaped, control characters as `\n`,
/// `\t`, ... or `\u00xx`, and `encoding/json`'s HTML-safe escapes.
fn write_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || matches!(c, '<' | '>' | '&' | '\u{2028}' | '\u{2029}') => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A number: an integer as written; a fraction as Go writes a `float64` (shortest form
/// that reads back, `e` notation below 1e-6 and from 1e21 on, e.g. `1e+21`, `1e-7`).
fn write_number(out: &mut String, n: &Number) {
    match n.as_f64() {
        Some(f) if n.is_f64() && f.is_finite() => {
            let abs = f.abs();
            if abs != 0.0 && !(1e-6..1e21).contains(&abs) {
                let text = format!("{f:e}");
                match text.split_once('e') {
                    Some((mantissa, exp)) if !exp.starts_with('-') => {
                        let _ = write!(out, "{mantissa}e+{exp}");
                    }
                    _ => out.push_str(&text),
                }
            } else {
                let _ = write!(out, "{f}");
            }
        }
        _ => {
            let _ = write!(out, "{n}");
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use serde_json::json;

    fn text(value: &Value) -> String {
        document(value)
    }

    #[test]
    fn structs_in_declaration_order_extensions_last_maps_sorted() {
        let doc = json!({
            "components": {"securitySchemes": {"B": {"type": "apiKey", "name": "authorization"}},
                "schemas": {"z": {"type": "object"}, "a": {
                    "x-kubernetes-group-version-kind": [{"version": "v1", "kind": "A", "group": ""}],
                    "type": "object",
                    "properties": {"b": {"type": "string", "default": ""}, "a": {"$ref": "#/r"}},
                    "description": "A <thing> & more",
                    "required": ["b"],
                }}},
            "paths": {"/b": {"get": {"x-kubernetes-action": "get",
                "x-kubernetes-group-version-kind": {"kind": "B", "version": "v1", "group": ""},
                "responses": {
                "401": {"description": "Unauthorized"},
                "200": {"description": "OK", "content": {"application/json": {"schema": {"$ref": "#/r"}}}}
            }, "operationId": "getB", "tags": ["t"]}}, "/a": {"parameters": [{"schema": {"type": "string"}, "in": "path", "name": "n", "required": true}]}},
            "info": {"version": "1.37", "title": "Kubernetes"},
            "openapi": "3.0.0",
        });
        assert_eq!(
            text(&doc),
            concat!(
                r##"{"openapi":"3.0.0","info":{"title":"Kubernetes","version":"1.37"},"##,
                r##""paths":{"/a":{"parameters":[{"name":"n","in":"path","required":true,"schema":{"type":"string"}}]},"##,
                r##""/b":{"get":{"tags":["t"],"operationId":"getB","responses":{"##,
                r##""200":{"description":"OK","content":{"application/json":{"schema":{"$ref":"#/r"}}}},"##,
                r##""401":{"description":"Unauthorized"}},"x-kubernetes-action":"get","##,
                r##""x-kubernetes-group-version-kind":{"group":"","version":"v1","kind":"B"}}}},"##,
                r##""components":{"schemas":{"a":{"description":"A \u003cthing\u003e \u0026 more","type":"object","##,
                r##""required":["b"],"properties":{"a":{"$ref":"#/r"},"b":{"type":"string","default":""}},"##,
                r##""x-kubernetes-group-version-kind":[{"group":"","kind":"A","version":"v1"}]},"##,
                r##""z":{"type":"object"}},"securitySchemes":{"B":{"type":"apiKey","name":"authorization"}}}}"##,
            )
        );
    }

    #[test]
    fn validation_rules_are_structs() {
        let doc = json!({"components": {"schemas": {"s": {
            "x-kubernetes-validations": [{"message": "m", "rule": "r", "fieldPath": ""}],
            "x-other": [{"message": "m", "rule": "r"}],
        }}}});
        let written = text(&doc);
        assert!(
            written.contains(concat!(
                r#"{"x-kubernetes-validations":[{"rule":"r","message":"m"}],"#,
                r#""x-other":[{"message":"m","rule":"r"}]}"#
            )),
            "{written}"
        );
    }

    #[test]
    fn go_leaves_out_empty_and_zero_fields() {
        let doc = json!({"openapi": "3.0.0", "info": {"title": "T", "description": ""},
        "components": {"schemas": {"s": {
            "description": "", "nullable": false, "default": null, "enum": [],
            "properties": {}, "items": {}, "uniqueItems": true, "minimum": 0,
            "additionalProperties": false, "x-e": null
        }}}});
        assert_eq!(
            text(&doc),
            concat!(
                r##"{"openapi":"3.0.0","info":{"title":"T"},"components":{"schemas":{"s":{"##,
                r##""minimum":0,"uniqueItems":true,"items":{},"additionalProperties":false,"x-e":null}}}}"##
            )
        );
    }

    #[test]
    fn schema_or_array_and_responses_default() {
        let doc = json!({"openapi": "3.0.0", "info": {}, "paths": {"/p": {"get": {"responses": {
            "200": {"description": "OK"}, "default": {"description": "D"}, "x-a": {"b": 1, "a": 2}
        }}}}, "components": {"schemas": {"s": {"items": [{"type": "b", "format": "f"}],
            "dependencies": {"b": ["x"], "a": {"type": "c"}}}}}});
        assert_eq!(
            text(&doc),
            concat!(
                r##"{"openapi":"3.0.0","info":{},"paths":{"/p":{"get":{"responses":{"default":{"description":"D"},"##,
                r##""200":{"description":"OK"},"x-a":{"a":2,"b":1}}}}},"components":{"schemas":{"s":{"##,
                r##""items":[{"type":"b","format":"f"}],"dependencies":{"a":{"type":"c"},"b":["x"]}}}}}"##
            )
        );
    }

    #[test]
    fn strings_and_numbers_as_go_writes_them() {
        let mut out = String::new();
        write_string(&mut out, "a\"\\\n\t\u{1}\u{7f}<>&\u{2028}é");
        assert_eq!(
            out,
            "\"a\\\"\\\\\\n\\t\\u0001\u{7f}\\u003c\\u003e\\u0026\\u2028é\""
        );
        let numbers: Vec<String> = [
            json!(0),
            json!(86400),
            json!(-3),
            json!(0.5),
            json!(1e21),
            json!(1.5e-7),
            json!(1e20),
            json!(-2.5e300),
        ]
        .iter()
        .map(|v| {
            let mut out = String::new();
            write_any(&mut out, v);
            out
        })
        .collect();
        assert_eq!(
            numbers,
            [
                "0",
                "86400",
                "-3",
                "0.5",
                "1e+21",
                "1.5e-7",
                "100000000000000000000",
                "-2.5e+300"
            ]
        );
    }
}
