//! The served OpenAPI documents against OpenAPI 3.0's structure and against the release's
//! v2 document they were generated from.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use apiserver::openapi::{self, OpenApi};
use http::{HeaderMap, Method, StatusCode};
use serde_json::Value;
use sha2::{Digest, Sha512};

const METHODS: [&str; 7] = ["get", "put", "post", "delete", "patch", "head", "options"];

/// Every document, parsed once for all tests.
fn documents() -> &'static [(&'static str, Value)] {
    static DOCUMENTS: OnceLock<Vec<(&'static str, Value)>> = OnceLock::new();
    DOCUMENTS.get_or_init(parse_documents)
}

fn parse_documents() -> Vec<(&'static str, Value)> {
    openapi::document_keys()
        .map(|key| {
            let bytes = openapi::document(key).unwrap();
            let doc = serde_json::from_slice(bytes)
                .unwrap_or_else(|e| panic!("document {key} is not JSON: {e}"));
            (key, doc)
        })
        .collect()
}

/// Every `$ref` under `value`, with the JSON path where it is.
fn refs(value: &Value, at: &str, out: &mut Vec<(String, String)>) {
    match value {
        Value::Object(fields) => {
            for (key, v) in fields {
                if key == "$ref" {
                    out.push((at.to_owned(), v.as_str().unwrap_or_default().to_owned()));
                    assert_eq!(
                        fields.len(),
                        1,
                        "{at}: a $ref with siblings (Go wraps it in allOf)"
                    );
                } else if key == "properties" && v.is_object() {
                    // A map of property names (JSONSchemaProps has one named `$ref`).
                    for (name, property) in v.as_object().into_iter().flatten() {
                        refs(property, &format!("{at}/properties/{name}"), out);
                    }
                } else if !key.starts_with("x-kubernetes-") {
                    refs(v, &format!("{at}/{key}"), out);
                }
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                refs(v, &format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

fn sha512_hex(bytes: &[u8]) -> String {
    Sha512::digest(bytes)
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect()
}

#[test]
fn documents_are_openapi_3_with_every_ref_resolved() {
    let docs = documents();
    assert!(docs.len() > 50, "{} documents", docs.len());
    for (key, doc) in docs {
        assert_eq!(doc["openapi"], "3.0.0", "{key}");
        assert!(doc["info"]["title"].is_string(), "{key}: info.title");
        assert!(doc["info"]["version"].is_string(), "{key}: info.version");
        let paths = doc["paths"].as_object().expect("paths");
        assert!(!paths.is_empty(), "{key}: no paths");
        // Go's documents of the service-account issuer discovery (`.well-known/...`,
        // `openid/v1/jwks`) define no schemas.
        let no_schemas = serde_json::Map::new();
        let schemas = doc["components"]["schemas"]
            .as_object()
            .unwrap_or(&no_schemas);
        for (path, item) in paths {
            assert!(path.starts_with('/'), "{key}: path {path}");
            assert!(
                path.trim_start_matches('/').starts_with(key),
                "{key}: path {path} belongs to another web service"
            );
            let item = item.as_object().expect("path item");
            for (name, op) in item {
                if name == "parameters" {
                    for p in op.as_array().unwrap() {
                        assert!(p["schema"]["type"].is_string(), "{path}: {p}");
                        assert!(p["in"] == "path" || p["in"] == "query", "{path}: {p}");
                    }
                    continue;
                }
                assert!(METHODS.contains(&name.as_str()), "{key} {path}: {name}");
                let at = format!("{path} {name}");
                assert!(op["operationId"].is_string(), "{at}: operationId");
                for gone in ["consumes", "produces", "schemes"] {
                    assert!(op.get(gone).is_none(), "{at}: v2's {gone}");
                }
                let responses = op["responses"].as_object().expect("responses");
                assert!(!responses.is_empty(), "{at}");
                for (code, response) in responses {
                    assert!(code.parse::<u16>().is_ok(), "{at}: {code}");
                    assert!(response["description"].is_string(), "{at} {code}");
                }
                for p in op["parameters"].as_array().into_iter().flatten() {
                    assert_ne!(p["in"], "body", "{at}: body parameter left");
                    assert!(p["schema"].is_object(), "{at}: {p}");
                    assert!(p["name"].is_string(), "{at}: {p}");
                }
                if let Some(body) = op.get("requestBody") {
                    let content = body["content"].as_object().expect("content");
                    assert!(!content.is_empty(), "{at}: empty requestBody content");
                }
            }
        }
        let mut found = Vec::new();
        refs(doc, "", &mut found);
        let mut used = BTreeSet::new();
        for (at, target) in &found {
            let name = target
                .strip_prefix("#/components/schemas/")
                .unwrap_or_else(|| panic!("{key}{at}: ref {target} is not to components"));
            assert!(schemas.contains_key(name), "{key}{at}: {target} unresolved");
            used.insert(name);
        }
        let unused: Vec<&String> = schemas
            .keys()
            .filter(|n| !used.contains(n.as_str()))
            .collect();
        assert!(
            unused.is_empty(),
            "{key}: schemas no path reaches: {unused:?}"
        );
    }
}

/// Every document's bytes are those Go's `json.Marshal` writes for it (kube-openapi's
/// field order, `<`, `>`, `&` escaped), so that its hash in the index is Go's.
#[test]
fn documents_are_written_as_go_marshals_them() {
    for (key, doc) in documents() {
        let bytes = openapi::document(key).unwrap();
        let written = openapi::marshal_document(doc);
        if written != bytes {
            let at = written
                .iter()
                .zip(bytes)
                .position(|(a, b)| a != b)
                .unwrap_or(written.len().min(bytes.len()));
            let around = |b: &[u8]| {
                String::from_utf8_lossy(&b[at.saturating_sub(80)..(at + 80).min(b.len())])
                    .into_owned()
            };
            panic!(
                "{key}: the embedded bytes are not Go's order at byte {at}:\n embedded {}\n Go's     {}",
                around(bytes),
                around(&written)
            );
        }
        assert_eq!(
            openapi::document_hash(key),
            Some(sha512_hex(bytes).as_str())
        );
        let text = std::str::from_utf8(bytes).unwrap();
        assert!(
            !text.contains(['<', '>', '&']),
            "{key}: HTML characters unescaped"
        );
    }
}

#[test]
fn patch_operations_offer_field_validation_and_the_patch_types() {
    let mut patches = 0;
    for (key, doc) in documents() {
        for (path, item) in doc["paths"].as_object().unwrap() {
            // Proxy paths take PATCH too, as a `connect` action with no patch body.
            let Some(patch) = item
                .get("patch")
                .filter(|p| p["x-kubernetes-action"] == "patch")
            else {
                continue;
            };
            patches += 1;
            let names: Vec<&str> = patch["parameters"]
                .as_array()
                .into_iter()
                .flatten()
                .chain(item["parameters"].as_array().into_iter().flatten())
                .filter_map(|p| p["name"].as_str())
                .collect();
            for wanted in ["fieldValidation", "dryRun", "fieldManager", "force"] {
                assert!(names.contains(&wanted), "{key} {path}: no {wanted}");
            }
            let content = patch["requestBody"]["content"].as_object().unwrap();
            for media_type in [
                "application/json-patch+json",
                "application/merge-patch+json",
                "application/strategic-merge-patch+json",
                "application/apply-patch+yaml",
            ] {
                assert_eq!(
                    content[media_type]["schema"]["$ref"],
                    "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Patch",
                    "{key} {path}: {media_type}"
                );
            }
            assert_eq!(patch["requestBody"]["required"], true, "{key} {path}");
            assert_eq!(patch["x-kubernetes-action"], "patch", "{key} {path}");
            assert!(
                patch["x-kubernetes-group-version-kind"]["kind"].is_string(),
                "{key} {path}"
            );
        }
    }
    assert!(patches > 100, "{patches} PATCH operations");
}

#[test]
fn markers_survive_in_schemas() {
    let apps = openapi::schemas_for("apps", "v1").unwrap();
    let status = &apps["io.k8s.api.apps.v1.DeploymentStatus"]["properties"]["conditions"];
    assert_eq!(status["x-kubernetes-patch-strategy"], "merge");
    assert_eq!(status["x-kubernetes-patch-merge-key"], "type");
    assert_eq!(status["x-kubernetes-list-type"], "map");
    assert_eq!(status["x-kubernetes-list-map-keys"][0], "type");
    let deployment = &apps["io.k8s.api.apps.v1.Deployment"];
    assert_eq!(
        deployment["x-kubernetes-group-version-kind"][0]["kind"],
        "Deployment"
    );
    let labels = &apps["io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"]["properties"]["labels"];
    assert_eq!(labels["additionalProperties"]["type"], "string");
    let time = &apps["io.k8s.apimachinery.pkg.apis.meta.v1.Time"];
    assert_eq!(time["format"], "date-time");
    let int_or_string = &apps["io.k8s.apimachinery.pkg.util.intstr.IntOrString"];
    assert_eq!(int_or_string["format"], "int-or-string");
    assert_eq!(int_or_string["oneOf"][0]["type"], "integer");
    let strategy = &apps["io.k8s.api.apps.v1.DeploymentSpec"]["properties"]["strategy"];
    assert!(strategy["description"].is_string());
    assert_eq!(
        strategy["allOf"][0]["$ref"],
        "#/components/schemas/io.k8s.api.apps.v1.DeploymentStrategy"
    );
    let core = openapi::schemas_for("", "v1").unwrap();
    let selector = &core["io.k8s.api.core.v1.NodeSelectorTerm"];
    assert!(selector.is_object());
    let map_type = &core["io.k8s.api.core.v1.ObjectReference"]["x-kubernetes-map-type"];
    assert_eq!(map_type, "atomic");
}

#[test]
fn index_hashes_are_the_documents_sha512() {
    let api = OpenApi::all();
    let response = api
        .serve(&Method::GET, "/openapi/v3", &HeaderMap::new())
        .unwrap();
    assert_eq!(response.status, StatusCode::OK);
    let index: Value = serde_json::from_slice(&response.body).unwrap();
    let paths = index["paths"].as_object().unwrap();
    assert_eq!(paths.len(), openapi::document_keys().count());
    for (key, entry) in paths {
        let url = entry["serverRelativeURL"].as_str().unwrap();
        let (path, hash) = url.split_once("?hash=").unwrap();
        assert_eq!(path, format!("/openapi/v3/{key}"));
        let document = api.serve(&Method::GET, url, &HeaderMap::new()).unwrap();
        assert_eq!(document.status, StatusCode::OK, "{url}");
        assert_eq!(sha512_hex(&document.body), hash, "{key}");
        assert_eq!(document.headers["etag"], format!("\"{hash}\"").as_str());
    }
    let v2 = api
        .serve(&Method::GET, "/openapi/v2", &HeaderMap::new())
        .unwrap();
    let etag = v2.headers["etag"]
        .to_str()
        .unwrap()
        .trim_matches('"')
        .to_owned();
    assert_eq!(sha512_hex(&v2.body), etag);
}

/// The reference data, or `None` (with a note) when it is absent outside CI.
fn swagger() -> Option<Value> {
    let path = crate::release_data::dir(apiserver::RELEASE).join("swagger.json");
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(serde_json::from_str(&text).unwrap()),
        Err(e) if std::env::var_os("CI").is_none() => {
            eprintln!("skipped: {} unreadable ({e})", path.display());
            None
        }
        Err(e) => panic!("{}: {e}", path.display()),
    }
}

#[test]
fn every_path_operation_and_kind_of_swagger_is_served() {
    let Some(swagger) = swagger() else {
        return;
    };
    let mut served: BTreeMap<&str, (&str, &Value)> = BTreeMap::new();
    for (key, doc) in documents() {
        for (path, item) in doc["paths"].as_object().unwrap() {
            let old = served.insert(path, (key, item));
            assert!(old.is_none(), "{path} in two documents");
        }
    }
    let mut kinds = BTreeSet::new();
    let mut served_kinds = BTreeSet::new();
    for (path, item) in swagger["paths"].as_object().unwrap() {
        let (key, v3) = served
            .get(path.as_str())
            .unwrap_or_else(|| panic!("{path} is in no document"));
        for (method, op) in item.as_object().unwrap() {
            if method == "parameters" {
                continue;
            }
            let ours = &v3[method];
            assert_eq!(
                ours["operationId"], op["operationId"],
                "{key} {path} {method}"
            );
            assert_eq!(
                ours["x-kubernetes-group-version-kind"], op["x-kubernetes-group-version-kind"],
                "{path} {method}"
            );
            if let Some(gvk) = op.get("x-kubernetes-group-version-kind") {
                // Connect actions name option kinds (`PodExecOptions`) that have no schema.
                let connect = op["x-kubernetes-action"] == "connect";
                kinds.insert((gvk.to_string(), connect));
            }
            let produces = op["produces"].as_array().into_iter().flatten();
            // swagger.json is written by a server with every alpha feature on, which
            // serves CBOR; a default kube-apiserver, as served here, does not.
            let produces = produces
                .filter_map(Value::as_str)
                .filter(|m| *m != "application/cbor" && !m.starts_with("application/cbor-seq"));
            for media_type in produces {
                assert!(
                    ours["responses"]["200"]["content"]
                        .get(media_type)
                        .is_some(),
                    "{path} {method}: {media_type}"
                );
            }
        }
    }
    for (_, v3) in served.values() {
        for op in v3.as_object().unwrap().values() {
            if let Some(gvk) = op.get("x-kubernetes-group-version-kind") {
                let connect = op["x-kubernetes-action"] == "connect";
                served_kinds.insert((gvk.to_string(), connect));
            }
        }
    }
    assert_eq!(served.len(), swagger["paths"].as_object().unwrap().len());
    assert_eq!(kinds, served_kinds);
    // Every kind a definition declares is found by name.
    for (name, definition) in swagger["definitions"].as_object().unwrap() {
        for gvk in definition["x-kubernetes-group-version-kind"]
            .as_array()
            .into_iter()
            .flatten()
        {
            let (g, v, k) = (
                gvk["group"].as_str().unwrap(),
                gvk["version"].as_str().unwrap(),
                gvk["kind"].as_str().unwrap(),
            );
            if let Some(found) = openapi::schema_name_for_kind(g, v, k) {
                assert_eq!(found, name, "{g}/{v} {k}");
                assert!(openapi::schema(found).is_some(), "{name}");
            }
        }
    }
    // Every kind served on a path has its schema by name.
    for (gvk, _) in kinds.iter().filter(|(_, connect)| !connect) {
        let gvk: Value = serde_json::from_str(gvk).unwrap();
        let (g, v, k) = (
            gvk["group"].as_str().unwrap(),
            gvk["version"].as_str().unwrap(),
            gvk["kind"].as_str().unwrap(),
        );
        let name = openapi::schema_name_for_kind(g, v, k)
            .unwrap_or_else(|| panic!("{g}/{v} {k}: no schema"));
        assert!(openapi::schema(name).is_some(), "{name}");
    }
}
