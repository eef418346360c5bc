//! The OpenAPI documents `apiserver` serves: Go's own, as a default kube-apiserver of
//! the release serves them.
//!
//! kube-apiserver builds one OpenAPI 3.0 document per web service (`api/v1`,
//! `apis/apps/v1`, `apis/apps`, `apis`, `version`, ...) and the v2 document of all of
//! them. `api/openapi-spec/v3` and `api/openapi-spec/swagger.json` (`openapi-v3/` and
//! `swagger.json` of the reference data) are those documents as
//! `hack/update-openapi-spec.sh` fetched them, from a kube-apiserver started unlike a
//! default one, which is put back here:
//!
//! - `--feature-gates=OpenAPIEnums=false` dropped the enum values and the description's
//!   `Possible enum values:` section of enum fields: they are put back from Go's
//!   definitions ([`crate::openapi_enums`]);
//! - `--feature-gates=AllAlpha=true` turned on CBOR serving, so every operation lists the
//!   CBOR media types (`application/cbor`, `application/cbor-seq`,
//!   `application/apply-patch+cbor`), which a default server does not: they are dropped;
//! - the script wrote `info.version` as `unversioned`; a server writes its emulated
//!   version, the release (`1.37`).
//!
//! `--runtime-config=api/all=true` made it serve every group version: there is a document
//! for each, and `apiserver` lists in its index only those it serves.
//!
//! Output: one compact JSON file per v3 document, `v2.json`, and `documents.rs`, the table
//! that embeds them with each document's hash (uppercase hex SHA-512 of its bytes, as
//! kube-openapi's `handler3` computes it for `serverRelativeURL` and the ETag). A v3
//! document's bytes are Go's: `json.Marshal` of kube-openapi's `spec3.OpenAPI` (each
//! type's fields in declaration order, extensions after them, maps sorted, `<`, `>`, `&`
//! escaped), which Go's `api/openapi-spec/v3` files do not keep (`jq -S` sorted them), so
//! the hashes are kube-apiserver's and serving them costs nothing. The v2 document keeps
//! its keys sorted.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::{Map, Value};
use sha2::{Digest, Sha512};

use crate::Error;
use crate::openapi_enums;

// The writer apiserver serves custom resources' documents with, shared so that the
// generated documents and those are written alike.
#[path = "../../apiserver/src/openapi/spec3_json.rs"]
mod spec3_json;

/// The suffix of a v3 document's file in `openapi-v3/`: `api__v1_openapi.json`.
const V3_SUFFIX: &str = "_openapi.json";

/// Reads `swagger.json` from `dir` and the v3 documents from `v3_dir` (the reference data
/// of Kubernetes `release`) and returns the generated files, relative to the output
/// directory. `enums` is `openapi-enums.json`'s value; `key_defaults` are the key-field
/// defaults of the v3 documents ([`crate::key_defaults`]), which `documents.rs` carries
/// beside the documents.
pub fn generate(
    dir: &Path,
    v3_dir: &Path,
    enums: &Value,
    release: &str,
    key_defaults: &[(String, String, String)],
) -> Result<BTreeMap<String, String>, Error> {
    let swagger = read_json(&dir.join("swagger.json"))?;
    let mut v3 = BTreeMap::new();
    for path in crate::gomod::read_dir_sorted(v3_dir)? {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if let Some(stem) = name.strip_suffix(V3_SUFFIX) {
            v3.insert(stem.replace("__", "/"), read_json(&path)?);
        }
    }
    let mut files = build(swagger, v3, enums, release, key_defaults)?;
    files.insert("README.md".to_owned(), readme(release));
    Ok(files)
}

fn read_json(path: &Path) -> Result<Value, Error> {
    let text = std::fs::read_to_string(path).map_err(|source| Error::Read {
        path: path.to_path_buf(),
        source,
    })?;
    serde_json::from_str(&text).map_err(|source| Error::Parse {
        path: path.to_path_buf(),
        source,
    })
}

/// Builds every file from the v2 document, the v3 documents by web service, the enums
/// and the key-field defaults.
pub fn build(
    mut swagger: Value,
    v3: BTreeMap<String, Value>,
    enums: &Value,
    release: &str,
    key_defaults: &[(String, String, String)],
) -> Result<BTreeMap<String, String>, Error> {
    if v3.is_empty() {
        return Err(Error::Model("no OpenAPI v3 documents".to_owned()));
    }
    let mut files = BTreeMap::new();
    let mut table = Vec::new();
    // Definition name -> (document size, web service) of the smallest document holding it.
    let mut homes: BTreeMap<String, (usize, String)> = BTreeMap::new();
    for (service, mut document) in v3 {
        as_served(&mut document, release);
        drop_cbor_content(&mut document);
        if let Some(schemas) = document
            .pointer_mut("/components/schemas")
            .and_then(Value::as_object_mut)
        {
            openapi_enums::apply(schemas, enums);
        }
        let bytes = document_bytes(&document);
        let schemas = document
            .pointer("/components/schemas")
            .and_then(Value::as_object);
        for name in schemas.into_iter().flatten().map(|(name, _)| name) {
            let home = homes
                .entry(name.clone())
                .or_insert_with(|| (bytes.len(), service.clone()));
            if bytes.len() < home.0 {
                *home = (bytes.len(), service.clone());
            }
        }
        let file = format!("{}.json", file_stem(&service));
        table.push((service, hash(bytes.as_bytes()), file.clone()));
        files.insert(file, bytes);
    }
    // The v2 definitions list every kind of a shared schema (`DeleteOptions`); a v3
    // document only those of its own group versions.
    let kinds = kinds(
        swagger
            .get("definitions")
            .and_then(Value::as_object)
            .ok_or_else(|| Error::Model("swagger.json: no `definitions`".to_owned()))?,
        &homes,
    );

    as_served(&mut swagger, release);
    drop_cbor_media_types(&mut swagger);
    if let Some(definitions) = swagger
        .get_mut("definitions")
        .and_then(Value::as_object_mut)
    {
        openapi_enums::apply(definitions, enums);
    }
    let v2_text = canonical(&swagger).to_string();
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
Written by `cargo xtask codegen --release {release}` from Go's OpenAPI documents of\n\
Kubernetes {release} (`openapi-v3/`, `swagger.json` and `openapi-enums.json` of `cargo xtask\n\
refdata`; see `xtask/src/openapi.rs`); `cargo xtask codegen --check` fails when they are\n\
out of date. Do not edit.\n\n\
- `<web service>.json`: the OpenAPI 3.0 document kube-apiserver serves at\n  \
`/openapi/v3/<web service>` (`/` written `__`: `apis__apps__v1.json`), compact JSON.\n\
- `v2.json`: the OpenAPI v2 document served at `/openapi/v2`.\n\
- `documents.rs`: the table embedding them, with each document's SHA-512, and the\n  \
defaults of keyed lists' key fields, for the field manager.\n"
    )
}

/// `info.version` as a server writes it: its (emulated) release.
fn as_served(document: &mut Value, release: &str) {
    if let Some(info) = document.get_mut("info").and_then(Value::as_object_mut) {
        info.insert("version".to_owned(), Value::String(release.to_owned()));
    }
}

/// Whether a media type is one of CBOR's, which only a server with CBOR serving on
/// (alpha, off by default) offers.
fn is_cbor(media_type: &str) -> bool {
    media_type.contains("cbor")
}

/// Drops the CBOR entries of every `content` map (v3 request bodies and responses).
fn drop_cbor_content(value: &mut Value) {
    match value {
        Value::Object(fields) => {
            for (key, v) in fields.iter_mut() {
                if key == "content"
                    && let Value::Object(media) = v
                {
                    media.retain(|t, _| !is_cbor(t));
                }
                drop_cbor_content(v);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(drop_cbor_content),
        _ => {}
    }
}

/// Drops the CBOR media types of the v2 `consumes` and `produces` lists.
fn drop_cbor_media_types(value: &mut Value) {
    match value {
        Value::Object(fields) => {
            for (key, v) in fields.iter_mut() {
                if (key == "consumes" || key == "produces")
                    && let Value::Array(types) = v
                {
                    types.retain(|t| !t.as_str().is_some_and(is_cbor));
                }
                drop_cbor_media_types(v);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(drop_cbor_media_types),
        _ => {}
    }
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

/// The document's bytes as kube-apiserver serves them: Go's `json.Marshal` of
/// kube-openapi's `spec3.OpenAPI` (apiserver's `openapi::marshal_document`, whose file
/// this includes), so that the hashes are Go's.
fn document_bytes(document: &Value) -> String {
    spec3_json::document(document)
}

/// (group, version, kind, definition) of every kind a definition of the v3 documents
/// declares, sorted.
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
        "// @generated by `cargo xtask codegen` (xtask/src/openapi.rs) from Go's OpenAPI documents. Do not edit.\n\n\
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
         /// OpenAPI definitions give a default (`api/openapi-spec/v3`), sorted: what the\n\
         /// field manager keys an item that leaves the field out by.\n\
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

    fn inputs() -> (Value, BTreeMap<String, Value>, Value) {
        let swagger = json!({
            "info": {"title": "Kubernetes", "version": "unversioned"},
            "definitions": {"a.Thing": {
                "properties": {"mode": {"type": "string", "description": "Mode."}},
                "x-kubernetes-group-version-kind": [{"group": "g", "kind": "Thing", "version": "v1"}]
            }},
            "paths": {"/apis/g/v1/things": {"get": {
                "produces": ["application/json", "application/cbor"],
                "responses": {"200": {"schema": {"$ref": "#/definitions/a.Thing"}}}
            }}}
        });
        let doc = json!({
            "openapi": "3.0.0",
            "info": {"title": "Kubernetes", "version": "unversioned"},
            "paths": {"/apis/g/v1/things": {"get": {"responses": {"200": {"content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/a.Thing"}},
                "application/cbor": {"schema": {"$ref": "#/components/schemas/a.Thing"}}
            }}}}}},
            "components": {"schemas": {"a.Thing": {
                "properties": {"mode": {"type": "string", "description": "Mode.", "default": ""}},
                "x-kubernetes-group-version-kind": [{"group": "g", "kind": "Thing", "version": "v1"}]
            }}}
        });
        let enums = json!({"a.Thing": [{"path": ["mode"], "enum": ["A", "B"],
            "description": "Mode.\n\nPossible enum values:\n - `\"A\"`\n - `\"B\"`"}]});
        (
            swagger,
            BTreeMap::from([("apis/g/v1".to_owned(), doc)]),
            enums,
        )
    }

    #[test]
    fn documents_are_gos_as_a_default_server_serves_them() {
        let (swagger, v3, enums) = inputs();
        let files = build(swagger, v3, &enums, "1.37", &[]).unwrap();
        let text = &files["apis__g__v1.json"];
        assert!(
            text.starts_with("{\"openapi\":\"3.0.0\",\"info\":"),
            "{text}"
        );
        let doc: Value = serde_json::from_str(text).unwrap();
        assert_eq!(doc["info"]["version"], "1.37");
        let content = &doc["paths"]["/apis/g/v1/things"]["get"]["responses"]["200"]["content"];
        assert_eq!(content.as_object().unwrap().len(), 1);
        let mode = &doc["components"]["schemas"]["a.Thing"]["properties"]["mode"];
        assert_eq!(mode["enum"], json!(["A", "B"]));
        assert_eq!(mode["default"], "");
        assert!(files["documents.rs"].contains(&hash(text.as_bytes())));
        assert!(files["documents.rs"].contains("(\"g\", \"v1\", \"Thing\", \"a.Thing\")"));

        let v2: Value = serde_json::from_str(&files["v2.json"]).unwrap();
        assert_eq!(
            v2["paths"]["/apis/g/v1/things"]["get"]["produces"],
            json!(["application/json"])
        );
        assert_eq!(
            v2["definitions"]["a.Thing"]["properties"]["mode"]["enum"],
            json!(["A", "B"])
        );
        assert_eq!(v2["info"]["version"], "1.37");
    }

    #[test]
    fn no_documents_is_an_error() {
        let (swagger, _, enums) = inputs();
        assert!(build(swagger, BTreeMap::new(), &enums, "1.37", &[]).is_err());
    }
}
