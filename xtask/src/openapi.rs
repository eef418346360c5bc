//! The OpenAPI documents `apiserver` serves, built from `swagger.json` (the OpenAPI v2
//! document of the release's kube-apiserver).
//!
//! kube-apiserver builds one OpenAPI 3.0 document per web service (`api/v1`,
//! `apis/apps/v1`, `apis/apps`, `apis`, `version`, ...) from its routes (kube-openapi's
//! `builder3`). The v2 document already lists every route with its operations, so each
//! v3 document here is that v2 document's paths of one web service, rewritten the way
//! `builder3` writes them:
//!
//! - body parameters become a `requestBody` whose `content` has one entry per `consumes`
//!   type; other parameters keep their place with `type`/`format`/`uniqueItems` moved into
//!   a `schema`, and `$ref`s to shared v2 `parameters` are inlined;
//! - each response's `schema` becomes a `content` entry per `produces` type;
//! - `consumes`, `produces` and `schemes` are dropped;
//! - refs point to `#/components/schemas/...`, and a ref with siblings (a description, a
//!   default) is wrapped in `allOf` (`builder3/util.WrapRefs`);
//! - `IntOrString` and `Quantity` are `oneOf` their JSON types (their Go types'
//!   `OpenAPIV3OneOfTypes`), which v2 cannot say.
//!
//! `components.schemas` holds exactly the definitions reachable from the document's paths;
//! `components.securitySchemes` is v2's `securityDefinitions`.
//! The v2 document itself is written too (compact), as `/openapi/v2` serves it.
//!
//! Output: one compact JSON file per document and `documents.rs`, the table that embeds
//! them with each document's hash (uppercase hex SHA-512 of its bytes, as kube-openapi's
//! `handler3` computes it for `serverRelativeURL` and the ETag).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::{Map, Value};
use sha2::{Digest, Sha512};

use crate::Error;

/// The prefix of v2 definition refs.
const V2_DEFINITIONS: &str = "#/definitions/";
/// The prefix of v2 shared parameter refs.
const V2_PARAMETERS: &str = "#/parameters/";
/// The prefix of v3 schema refs.
const V3_SCHEMAS: &str = "#/components/schemas/";

/// Definitions whose Go type declares `OpenAPIV3OneOfTypes`: v3 documents give them as
/// `oneOf` the listed types instead of v2's single `type`.
const ONE_OF_TYPES: &[(&str, &[&str])] = &[
    (
        "io.k8s.apimachinery.pkg.util.intstr.IntOrString",
        &["integer", "string"],
    ),
    (
        "io.k8s.apimachinery.pkg.api.resource.Quantity",
        &["string", "number"],
    ),
];

/// Reads `swagger.json` from `dir` (the reference data of Kubernetes `release`) and
/// returns the generated files, relative to the output directory; `key_defaults` are
/// the key-field defaults of Go's v3 documents ([`crate::key_defaults`]), which
/// `documents.rs` carries beside the documents.
pub fn generate(
    dir: &Path,
    release: &str,
    key_defaults: &[(String, String, String)],
) -> Result<BTreeMap<String, String>, Error> {
    let path = dir.join("swagger.json");
    let text = std::fs::read_to_string(&path).map_err(|source| Error::Read {
        path: path.clone(),
        source,
    })?;
    let swagger: Value =
        serde_json::from_str(&text).map_err(|source| Error::Parse { path, source })?;
    let mut files = build(&swagger, key_defaults)?;
    files.insert("README.md".to_owned(), readme(release));
    Ok(files)
}

/// Builds every file from the parsed v2 document and the key-field defaults.
pub fn build(
    swagger: &Value,
    key_defaults: &[(String, String, String)],
) -> Result<BTreeMap<String, String>, Error> {
    let definitions = object(swagger, "definitions")?;
    let shared_parameters = swagger
        .get("parameters")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let info = swagger
        .get("info")
        .cloned()
        .unwrap_or_else(|| Value::Object(Map::new()));
    // v2's security definitions are v3's security schemes (kube-apiserver's `BearerToken`
    // apiKey has the same fields in both).
    let security_schemes = swagger.get("securityDefinitions");

    let mut by_service: BTreeMap<String, Map<String, Value>> = BTreeMap::new();
    for (path, item) in object(swagger, "paths")? {
        let service = web_service(path)
            .ok_or_else(|| Error::Model(format!("swagger path {path:?}: no web service root")))?;
        let converted = convert_path_item(path, item, &shared_parameters)?;
        by_service
            .entry(service)
            .or_default()
            .insert(path.clone(), converted);
    }

    let mut files = BTreeMap::new();
    let mut table = Vec::new();
    // Definition name -> (document size, web service) of the smallest document holding it.
    let mut homes: BTreeMap<String, (usize, String)> = BTreeMap::new();
    for (service, paths) in by_service {
        let paths = Value::Object(paths);
        let schemas = reachable_schemas(&paths, definitions)?;
        let document = document_bytes(&info, &paths, &schemas, security_schemes);
        for name in schemas.keys() {
            let home = homes
                .entry(name.clone())
                .or_insert_with(|| (document.len(), service.clone()));
            if document.len() < home.0 {
                *home = (document.len(), service.clone());
            }
        }
        let file = format!("{}.json", file_stem(&service));
        table.push((service, hash(document.as_bytes()), file.clone()));
        files.insert(file, document);
    }
    let kinds = kinds(definitions, &homes);
    let v2 = canonical(swagger);
    let v2_text = v2.to_string();
    let v2_hash = hash(v2_text.as_bytes());
    files.insert("v2.json".to_owned(), v2_text);
    files.insert(
        "documents.rs".to_owned(),
        documents_rs(&table, &v2_hash, &homes, &kinds, key_defaults),
    );
    Ok(files)
}

/// The generated directory's README.
fn readme(release: &str) -> String {
    format!(
        "# Generated OpenAPI documents\n\n\
Written by `cargo xtask codegen --release {release}` from the `swagger.json` of Kubernetes {release}\n\
(`cargo xtask refdata`; see `xtask/src/openapi.rs`); `cargo xtask codegen --check` fails\n\
when they are out of date. Do not edit.\n\n\
- `<web service>.json`: the OpenAPI 3.0 document kube-apiserver serves at\n  \
`/openapi/v3/<web service>` (`/` written `__`: `apis__apps__v1.json`), compact JSON.\n\
- `v2.json`: the OpenAPI v2 document served at `/openapi/v2`.\n\
- `documents.rs`: the table embedding them, with each document's SHA-512, and the\n  \
defaults of keyed lists' key fields that Go's own v3 documents (`api/openapi-spec/v3`)\n  \
give and the v2 document does not, for the field manager.\n"
    )
}

fn object<'a>(value: &'a Value, key: &str) -> Result<&'a Map<String, Value>, Error> {
    value
        .get(key)
        .and_then(Value::as_object)
        .ok_or_else(|| Error::Model(format!("swagger.json: `{key}` is not an object")))
}

/// The web service (kube-apiserver's `restful.WebService` root path, without the leading
/// slash) that serves `path`: the key of the v3 index.
pub fn web_service(path: &str) -> Option<String> {
    let segments: Vec<&str> = path
        .trim_start_matches('/')
        .split('/')
        .filter(|s| !s.is_empty())
        .collect();
    let take = match segments.first().copied()? {
        // /api/, /api/v1/...
        "api" => segments.len().min(2),
        // /apis/, /apis/<group>/, /apis/<group>/<version>/...
        "apis" => segments.len().min(3),
        // /openid/v1/jwks/
        "openid" => segments.len().min(3),
        // /version/, /logs/{logpath}, /.well-known/openid-configuration/
        ".well-known" => segments.len().min(2),
        _ => 1,
    };
    Some(segments[..take].join("/"))
}

/// The file name of a web service's document.
pub fn file_stem(service: &str) -> String {
    service.replace('/', "__")
}

fn hash(bytes: &[u8]) -> String {
    Sha512::digest(bytes)
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect()
}

fn convert_path_item(
    path: &str,
    item: &Value,
    shared: &Map<String, Value>,
) -> Result<Value, Error> {
    let item = item
        .as_object()
        .ok_or_else(|| Error::Model(format!("swagger path {path:?} is not an object")))?;
    let mut out = Map::new();
    for (key, value) in item {
        if key == "parameters" {
            let params = parameters(path, value, shared)?;
            let params: Vec<Value> = params
                .into_iter()
                .filter(|p| p.get("in").and_then(Value::as_str) != Some("body"))
                .map(|p| convert_parameter(&p))
                .collect();
            out.insert(key.clone(), Value::Array(params));
        } else if key.starts_with("x-") {
            out.insert(key.clone(), value.clone());
        } else {
            out.insert(
                key.clone(),
                convert_operation(&format!("{path} {key}"), value, shared)?,
            );
        }
    }
    Ok(Value::Object(out))
}

/// The parameters of a path or operation, shared ones inlined.
fn parameters(at: &str, value: &Value, shared: &Map<String, Value>) -> Result<Vec<Value>, Error> {
    let list = value
        .as_array()
        .ok_or_else(|| Error::Model(format!("{at}: parameters are not a list")))?;
    list.iter()
        .map(|p| match p.get("$ref").and_then(Value::as_str) {
            Some(r) => r
                .strip_prefix(V2_PARAMETERS)
                .and_then(|name| shared.get(name))
                .cloned()
                .ok_or_else(|| Error::Model(format!("{at}: unknown parameter ref {r:?}"))),
            None => Ok(p.clone()),
        })
        .collect()
}

/// A non-body v2 parameter in v3 form: the type moves into a schema.
fn convert_parameter(param: &Value) -> Value {
    let mut out = Map::new();
    let mut schema = Map::new();
    if let Some(fields) = param.as_object() {
        for (key, value) in fields {
            match key.as_str() {
                "type" | "format" | "uniqueItems" | "items" | "enum" | "default" => {
                    schema.insert(key.clone(), value.clone());
                }
                // v3 only writes `required` when true.
                "required" if value == &Value::Bool(false) => {}
                _ => {
                    out.insert(key.clone(), value.clone());
                }
            }
        }
    }
    if !schema.is_empty() {
        out.insert("schema".to_owned(), Value::Object(schema));
    }
    Value::Object(out)
}

fn convert_operation(at: &str, op: &Value, shared: &Map<String, Value>) -> Result<Value, Error> {
    let fields = op
        .as_object()
        .ok_or_else(|| Error::Model(format!("{at}: operation is not an object")))?;
    let media_types = |key: &str| -> Vec<String> {
        fields
            .get(key)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default()
    };
    let (consumes, produces) = (media_types("consumes"), media_types("produces"));
    let mut out = Map::new();
    for (key, value) in fields {
        match key.as_str() {
            "consumes" | "produces" | "schemes" => {}
            "parameters" => {
                let mut params = Vec::new();
                for param in parameters(at, value, shared)? {
                    if param.get("in").and_then(Value::as_str) == Some("body") {
                        out.insert("requestBody".to_owned(), request_body(&param, &consumes));
                    } else {
                        params.push(convert_parameter(&param));
                    }
                }
                if !params.is_empty() {
                    out.insert(key.clone(), Value::Array(params));
                }
            }
            "responses" => {
                let responses = value
                    .as_object()
                    .ok_or_else(|| Error::Model(format!("{at}: responses are not an object")))?;
                let converted = responses
                    .iter()
                    .map(|(code, response)| (code.clone(), convert_response(response, &produces)))
                    .collect();
                out.insert(key.clone(), Value::Object(converted));
            }
            _ => {
                out.insert(key.clone(), value.clone());
            }
        }
    }
    Ok(Value::Object(out))
}

fn content(schema: &Value, media_types: &[String]) -> Value {
    let schema = schema_v3(schema);
    Value::Object(
        media_types
            .iter()
            .map(|t| {
                let mut media = Map::new();
                media.insert("schema".to_owned(), schema.clone());
                (t.clone(), Value::Object(media))
            })
            .collect(),
    )
}

fn request_body(param: &Value, consumes: &[String]) -> Value {
    let mut body = Map::new();
    if let Some(schema) = param.get("schema") {
        body.insert("content".to_owned(), content(schema, consumes));
    }
    if let Some(description) = param.get("description") {
        body.insert("description".to_owned(), description.clone());
    }
    if param.get("required") == Some(&Value::Bool(true)) {
        body.insert("required".to_owned(), Value::Bool(true));
    }
    Value::Object(body)
}

fn convert_response(response: &Value, produces: &[String]) -> Value {
    let mut out = Map::new();
    if let Some(fields) = response.as_object() {
        for (key, value) in fields {
            if key == "schema" {
                if !produces.is_empty() {
                    out.insert("content".to_owned(), content(value, produces));
                }
            } else {
                out.insert(key.clone(), value.clone());
            }
        }
    }
    Value::Object(out)
}

/// A v2 schema in v3 form: refs rewritten, refs with siblings wrapped in `allOf`.
fn schema_v3(schema: &Value) -> Value {
    match schema {
        Value::Object(fields) => {
            let mut out = Map::new();
            for (key, value) in fields {
                let converted = match key.as_str() {
                    "$ref" => match value.as_str() {
                        Some(r) => Value::String(match r.strip_prefix(V2_DEFINITIONS) {
                            Some(name) => format!("{V3_SCHEMAS}{name}"),
                            None => r.to_owned(),
                        }),
                        None => value.clone(),
                    },
                    // Maps of schemas: their keys are names, not schema keywords.
                    "properties" | "patternProperties" | "definitions" => match value {
                        Value::Object(m) => Value::Object(
                            m.iter().map(|(k, v)| (k.clone(), schema_v3(v))).collect(),
                        ),
                        other => other.clone(),
                    },
                    "items" | "additionalProperties" | "not" => schema_v3(value),
                    "allOf" | "anyOf" | "oneOf" => match value {
                        Value::Array(a) => Value::Array(a.iter().map(schema_v3).collect()),
                        other => other.clone(),
                    },
                    // Extensions and literal values are data.
                    _ => value.clone(),
                };
                out.insert(key.clone(), converted);
            }
            if out.len() > 1 {
                if let Some(reference) = out.remove("$ref") {
                    let mut only_ref = Map::new();
                    only_ref.insert("$ref".to_owned(), reference);
                    out.insert(
                        "allOf".to_owned(),
                        Value::Array(vec![Value::Object(only_ref)]),
                    );
                }
            }
            Value::Object(out)
        }
        other => other.clone(),
    }
}

/// A definition in v3 form.
fn definition_v3(name: &str, definition: &Value) -> Value {
    let mut converted = schema_v3(definition);
    if let (Some((_, types)), Value::Object(fields)) = (
        ONE_OF_TYPES.iter().find(|(n, _)| *n == name),
        &mut converted,
    ) {
        fields.remove("type");
        let one_of = types
            .iter()
            .map(|t| {
                let mut m = Map::new();
                m.insert("type".to_owned(), Value::String((*t).to_owned()));
                Value::Object(m)
            })
            .collect();
        fields.insert("oneOf".to_owned(), Value::Array(one_of));
    }
    converted
}

/// Every `$ref` target under `value`, as definition names.
fn refs(value: &Value, out: &mut BTreeSet<String>) {
    match value {
        Value::Object(fields) => {
            for (key, v) in fields {
                match (key.as_str(), v) {
                    ("$ref", Value::String(r)) => {
                        if let Some(name) = r
                            .strip_prefix(V3_SCHEMAS)
                            .or_else(|| r.strip_prefix(V2_DEFINITIONS))
                        {
                            out.insert(name.to_owned());
                        }
                    }
                    _ => refs(v, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| refs(v, out)),
        _ => {}
    }
}

/// The v3 definitions reachable from `paths`.
fn reachable_schemas(
    paths: &Value,
    definitions: &Map<String, Value>,
) -> Result<Map<String, Value>, Error> {
    let mut pending = BTreeSet::new();
    refs(paths, &mut pending);
    let mut schemas = Map::new();
    while let Some(name) = pending.pop_first() {
        if schemas.contains_key(&name) {
            continue;
        }
        let definition = definitions.get(&name).ok_or_else(|| {
            Error::Model(format!("swagger.json: ref to unknown definition {name:?}"))
        })?;
        let converted = definition_v3(&name, definition);
        let mut found = BTreeSet::new();
        refs(&converted, &mut found);
        pending.extend(found.into_iter().filter(|n| !schemas.contains_key(n)));
        schemas.insert(name, converted);
    }
    Ok(schemas)
}

/// `value` with every object's keys sorted, whichever map serde_json was built with, so
/// the bytes (and their hash) never depend on a feature of a dependency.
fn canonical(value: &Value) -> Value {
    match value {
        Value::Object(fields) => {
            let sorted: BTreeMap<&String, Value> =
                fields.iter().map(|(k, v)| (k, canonical(v))).collect();
            Value::Object(sorted.into_iter().map(|(k, v)| (k.clone(), v)).collect())
        }
        Value::Array(items) => Value::Array(items.iter().map(canonical).collect()),
        other => other.clone(),
    }
}

/// The document's bytes: Go's field order at the top (`openapi`, `info`, `paths`,
/// `components` with `schemas` then `securitySchemes`), sorted keys below.
fn document_bytes(
    info: &Value,
    paths: &Value,
    schemas: &Map<String, Value>,
    security_schemes: Option<&Value>,
) -> String {
    let text = |v: &Value| canonical(v).to_string();
    let schemas = Value::Object(schemas.clone());
    let security = security_schemes
        .map(|s| format!(",\"securitySchemes\":{}", text(s)))
        .unwrap_or_default();
    format!(
        "{{\"openapi\":\"3.0.0\",\"info\":{},\"paths\":{},\"components\":{{\"schemas\":{}{security}}}}}",
        text(info),
        text(paths),
        text(&schemas)
    )
}

/// (group, version, kind, definition) of every kind a served definition declares, sorted.
fn kinds(
    definitions: &Map<String, Value>,
    homes: &BTreeMap<String, (usize, String)>,
) -> Vec<(String, String, String, String)> {
    let mut out = BTreeSet::new();
    for name in homes.keys() {
        let gvks = definitions
            .get(name)
            .and_then(|d| d.get("x-kubernetes-group-version-kind"))
            .and_then(Value::as_array);
        for gvk in gvks.into_iter().flatten() {
            let field = |k: &str| gvk.get(k).and_then(Value::as_str).map(str::to_owned);
            if let (Some(g), Some(v), Some(k)) = (field("group"), field("version"), field("kind")) {
                out.insert((g, v, k, name.clone()));
            }
        }
    }
    out.into_iter().collect()
}

fn documents_rs(
    table: &[(String, String, String)],
    v2_hash: &str,
    homes: &BTreeMap<String, (usize, String)>,
    kinds: &[(String, String, String, String)],
    key_defaults: &[(String, String, String)],
) -> String {
    let mut out = String::from(
        "// @generated by `cargo xtask codegen` (xtask/src/openapi.rs) from swagger.json. Do not edit.\n\n\
         /// The OpenAPI v3 documents: web service (the `/openapi/v3/` path and index key),\n\
         /// uppercase hex SHA-512 of the bytes, and the compact JSON bytes.\n\
         pub(super) static V3_DOCUMENTS: &[(&str, &str, &[u8])] = &[\n",
    );
    for (service, hash, file) in table {
        out.push_str(&format!(
            "    ({service:?}, {hash:?}, include_bytes!({file:?})),\n"
        ));
    }
    out.push_str(
        "];\n\n/// The OpenAPI v2 document's uppercase hex SHA-512.\n\
         pub(super) const V2_HASH: &str = ",
    );
    out.push_str(&format!("{v2_hash:?};\n\n"));
    out.push_str(
        "/// The OpenAPI v2 document, compact JSON.\n\
         pub(super) static V2_DOCUMENT: &[u8] = include_bytes!(\"v2.json\");\n\n\
         /// Every schema name of the v3 documents, sorted, with the smallest document that\n\
         /// holds it.\n\
         pub(super) static SCHEMA_DOCUMENTS: &[(&str, &str)] = &[\n",
    );
    for (name, (_, service)) in homes {
        out.push_str(&format!("    ({name:?}, {service:?}),\n"));
    }
    out.push_str(
        "];\n\n/// (group, version, kind, schema name) of every kind the schemas declare, sorted.\n\
         pub(super) static KINDS: &[(&str, &str, &str, &str)] = &[\n",
    );
    for (g, v, k, name) in kinds {
        out.push_str(&format!("    ({g:?}, {v:?}, {k:?}, {name:?}),\n"));
    }
    out.push_str(
        "];\n\n/// (schema name, field, default as JSON) of the key fields of keyed lists whose Go\n\
         /// OpenAPI definitions give a default (`api/openapi-spec/v3`; the documents above,\n\
         /// generated from the v2 one, carry none), sorted: what the field manager keys an\n\
         /// item that leaves the field out by.\n\
         pub(super) static KEY_DEFAULTS: &[(&str, &str, &str)] = &[\n",
    );
    for (schema, field, default) in key_defaults {
        out.push_str(&format!("    ({schema:?}, {field:?}, {default:?}),\n"));
    }
    out.push_str("];\n");
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn web_services_are_kube_apiservers_roots() {
        let cases = [
            ("/api/", "api"),
            (
                "/api/v1/namespaces/{namespace}/pods/{name}/status",
                "api/v1",
            ),
            ("/apis/", "apis"),
            ("/apis/apps/", "apis/apps"),
            ("/apis/apps/v1/", "apis/apps/v1"),
            ("/apis/apps/v1/watch/deployments", "apis/apps/v1"),
            ("/version/", "version"),
            ("/logs/{logpath}", "logs"),
            (
                "/.well-known/openid-configuration/",
                ".well-known/openid-configuration",
            ),
            ("/openid/v1/jwks/", "openid/v1/jwks"),
        ];
        for (path, service) in cases {
            assert_eq!(web_service(path).as_deref(), Some(service), "{path}");
        }
        assert_eq!(web_service("/"), None);
        assert_eq!(file_stem("apis/apps/v1"), "apis__apps__v1");
    }

    #[test]
    fn refs_with_siblings_are_wrapped_in_all_of() {
        let v2 = json!({
            "properties": {
                "metadata": {"$ref": "#/definitions/a.ObjectMeta", "description": "d"},
                "items": {"type": "array", "items": {"$ref": "#/definitions/a.Item"}},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}}
            },
            "x-kubernetes-group-version-kind": [{"group": "", "kind": "K", "version": "v1"}]
        });
        let v3 = schema_v3(&v2);
        assert_eq!(
            v3["properties"]["metadata"],
            json!({"allOf": [{"$ref": "#/components/schemas/a.ObjectMeta"}], "description": "d"})
        );
        assert_eq!(
            v3["properties"]["items"]["items"],
            json!({"$ref": "#/components/schemas/a.Item"})
        );
        assert_eq!(
            v3["x-kubernetes-group-version-kind"],
            v2["x-kubernetes-group-version-kind"]
        );
    }

    #[test]
    fn operations_take_v3_form() {
        let swagger = json!({
            "info": {"title": "Kubernetes", "version": "unversioned"},
            "securityDefinitions": {"BearerToken": {"in": "header", "name": "authorization", "type": "apiKey"}},
            "parameters": {"pretty-x": {"in": "query", "name": "pretty", "type": "string", "uniqueItems": true}},
            "definitions": {
                "a.Thing": {"properties": {"spec": {"$ref": "#/definitions/a.Spec", "description": "s"}}},
                "a.Spec": {"type": "object"},
                "a.Patch": {"type": "object"},
                "a.Unused": {"type": "object"}
            },
            "paths": {
                "/apis/g/v1/things/{name}": {
                    "parameters": [{"$ref": "#/parameters/pretty-x"}, {"in": "path", "name": "name", "required": true, "type": "string"}],
                    "patch": {
                        "consumes": ["application/merge-patch+json"],
                        "produces": ["application/json"],
                        "schemes": ["https"],
                        "parameters": [
                            {"in": "body", "name": "body", "required": true, "schema": {"$ref": "#/definitions/a.Patch"}},
                            {"in": "query", "name": "fieldValidation", "type": "string", "uniqueItems": true}
                        ],
                        "responses": {
                            "200": {"description": "OK", "schema": {"$ref": "#/definitions/a.Thing"}},
                            "401": {"description": "Unauthorized"}
                        },
                        "x-kubernetes-action": "patch"
                    }
                }
            }
        });
        let files = build(&swagger, &[]).unwrap();
        let doc: Value = serde_json::from_str(&files["apis__g__v1.json"]).unwrap();
        let item = &doc["paths"]["/apis/g/v1/things/{name}"];
        assert_eq!(
            item["parameters"][0]["schema"],
            json!({"type": "string", "uniqueItems": true})
        );
        assert_eq!(item["parameters"][1]["required"], json!(true));
        let patch = &item["patch"];
        assert_eq!(
            patch["requestBody"],
            json!({"content": {"application/merge-patch+json": {"schema": {"$ref": "#/components/schemas/a.Patch"}}}, "required": true})
        );
        assert_eq!(patch["parameters"][0]["name"], "fieldValidation");
        assert_eq!(patch["parameters"].as_array().unwrap().len(), 1);
        assert!(patch.get("consumes").is_none() && patch.get("schemes").is_none());
        assert_eq!(
            patch["responses"]["200"]["content"]["application/json"]["schema"]["$ref"],
            "#/components/schemas/a.Thing"
        );
        assert_eq!(
            patch["responses"]["401"],
            json!({"description": "Unauthorized"})
        );
        let schemas = doc["components"]["schemas"].as_object().unwrap();
        let names: Vec<&str> = schemas.keys().map(String::as_str).collect();
        assert_eq!(names, ["a.Patch", "a.Spec", "a.Thing"]);
        assert_eq!(doc["openapi"], "3.0.0");
        assert_eq!(
            doc["components"]["securitySchemes"]["BearerToken"]["type"],
            "apiKey"
        );
        assert!(files["documents.rs"].contains(&hash(files["apis__g__v1.json"].as_bytes())));
    }

    #[test]
    fn int_or_string_is_one_of() {
        let v3 = definition_v3(
            "io.k8s.apimachinery.pkg.util.intstr.IntOrString",
            &json!({"type": "string", "format": "int-or-string"}),
        );
        assert_eq!(
            v3,
            json!({"format": "int-or-string", "oneOf": [{"type": "integer"}, {"type": "string"}]})
        );
    }

    #[test]
    fn unknown_refs_are_errors() {
        let swagger = json!({
            "definitions": {},
            "paths": {"/api/v1/x": {"get": {"produces": ["application/json"], "responses": {"200": {"description": "OK", "schema": {"$ref": "#/definitions/nope"}}}}}}
        });
        let err = build(&swagger, &[]).unwrap_err().to_string();
        assert!(err.contains("nope"), "{err}");
    }
}
