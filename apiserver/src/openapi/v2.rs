//! The v2 document of the web services a server serves.
//!
//! kube-apiserver builds its v2 document from the routes it serves (kube-openapi
//! `builder`): the paths of its web services, the definitions those paths reach, and
//! the shared parameters they use. The generated document holds every group version of
//! the release; this keeps what a server serving some of them would build.

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::sync::OnceLock;

use bytes::Bytes;

use serde_json::{Map, Value};

/// The prefix of v2 definition refs.
const DEFINITIONS: &str = "#/definitions/";
/// The prefix of v2 shared parameter refs.
const PARAMETERS: &str = "#/parameters/";

/// The web service (the `/openapi/v3` index key) a v2 path belongs to: `api/v1` for
/// `/api/v1/pods`, `apis/apps` for `/apis/apps/`, `version` for `/version/`.
pub(super) fn web_service(path: &str) -> String {
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let take = match segments.first().copied() {
        Some("api") => 2,
        Some("apis" | "openid") => 3,
        Some(".well-known") => 2,
        _ => 1,
    };
    segments[..take.min(segments.len())].join("/")
}

/// The JSON bytes of `whole` (the v2 document of every web service) kept to the paths
/// whose web service `serves` accepts, with the definitions and shared parameters they
/// reach. `None` when the document is not one.
pub(super) fn served(whole: &Value, serves: &dyn Fn(&str) -> bool) -> Option<Vec<u8>> {
    let whole = whole.as_object()?;
    let paths: Map<String, Value> = whole
        .get("paths")?
        .as_object()?
        .iter()
        .filter(|(path, _)| serves(&web_service(path)))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let mut refs = BTreeSet::new();
    collect_refs(&Value::Object(paths.clone()), &mut refs);
    let empty = Map::new();
    let all_parameters = whole
        .get("parameters")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let parameters: Map<String, Value> = all_parameters
        .iter()
        .filter(|(name, _)| refs.contains(&format!("{PARAMETERS}{name}")))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    collect_refs(&Value::Object(parameters.clone()), &mut refs);
    let all_definitions = whole
        .get("definitions")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let mut pending: Vec<String> = refs
        .iter()
        .filter_map(|r| r.strip_prefix(DEFINITIONS).map(str::to_owned))
        .collect();
    let mut definitions = Map::new();
    while let Some(name) = pending.pop() {
        if definitions.contains_key(&name) {
            continue;
        }
        let Some(definition) = all_definitions.get(&name) else {
            continue;
        };
        let mut found = BTreeSet::new();
        collect_refs(definition, &mut found);
        pending.extend(
            found
                .iter()
                .filter_map(|r| r.strip_prefix(DEFINITIONS))
                .filter(|n| !definitions.contains_key(*n))
                .map(str::to_owned),
        );
        definitions.insert(name, definition.clone());
    }
    let mut out = whole.clone();
    out.insert("paths".to_owned(), Value::Object(paths));
    out.insert("definitions".to_owned(), Value::Object(definitions));
    out.insert("parameters".to_owned(), Value::Object(parameters));
    serde_json::to_vec(&Value::Object(out)).ok()
}

/// Every `$ref` under `value`.
fn collect_refs(value: &Value, out: &mut BTreeSet<String>) {
    match value {
        Value::Object(fields) => {
            for (key, v) in fields {
                match (key.as_str(), v) {
                    ("$ref", Value::String(r)) => {
                        out.insert(r.clone());
                    }
                    _ => collect_refs(v, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| collect_refs(v, out)),
        _ => {}
    }
}

/// The whole generated v2 document, parsed on first use and kept.
fn v2_whole() -> Option<&'static Value> {
    static WHOLE: OnceLock<Option<Value>> = OnceLock::new();
    WHOLE
        .get_or_init(|| serde_json::from_slice(super::documents::V2_DOCUMENT).ok())
        .as_ref()
}

/// A definition of the whole v2 document by name: unlike a group version's v3
/// document, which lists only that group's kinds in a shared schema's
/// `x-kubernetes-group-version-kind` (`DeleteOptions`), it lists every group version
/// the server registers.
pub fn definition(name: &str) -> Option<&'static Value> {
    v2_whole()?.get("definitions")?.get(name)
}

/// The v2 document of the web services `serves` accepts with its hash; the whole
/// generated one should it not parse (it always does: it is generated).
pub(super) fn v2_of(serves: &dyn Fn(&str) -> bool) -> (Bytes, Cow<'static, str>) {
    match v2_whole().and_then(|w| served(w, serves)) {
        Some(body) => {
            let hash = super::sha512_hex(&body);
            (Bytes::from(body), Cow::Owned(hash))
        }
        None => (
            Bytes::from_static(super::documents::V2_DOCUMENT),
            Cow::Borrowed(super::documents::V2_HASH),
        ),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn web_services_of_paths() {
        for (path, service) in [
            ("/api/", "api"),
            ("/api/v1/namespaces/{namespace}/pods", "api/v1"),
            ("/apis/", "apis"),
            ("/apis/apps/", "apis/apps"),
            ("/apis/apps/v1/watch/deployments", "apis/apps/v1"),
            ("/version/", "version"),
            ("/logs/{logpath}", "logs"),
            (
                "/.well-known/openid-configuration/",
                ".well-known/openid-configuration",
            ),
            ("/openid/v1/jwks/", "openid/v1/jwks"),
        ] {
            assert_eq!(web_service(path), service, "{path}");
        }
    }

    #[test]
    fn keeps_what_served_paths_reach() {
        let doc: Value = serde_json::from_str(
            r##"{"swagger": "2.0",
            "paths": {
                "/apis/a/v1/x": {"parameters": [{"$ref": "#/parameters/p"}],
                    "get": {"responses": {"200": {"schema": {"$ref": "#/definitions/A"}}}}},
                "/apis/b/v1/y": {"parameters": [{"$ref": "#/parameters/q"}],
                    "get": {"responses": {"200": {"schema": {"$ref": "#/definitions/B"}}}}}
            },
            "parameters": {"p": {"name": "p"}, "q": {"name": "q"}},
            "definitions": {"A": {"properties": {"c": {"$ref": "#/definitions/C"}}},
                "B": {}, "C": {}}}"##,
        )
        .unwrap();
        let out = served(&doc, &|key| key == "apis/a/v1").unwrap();
        let out: Value = serde_json::from_slice(&out).unwrap();
        let keys = |field: &str| -> Vec<String> {
            out[field].as_object().unwrap().keys().cloned().collect()
        };
        assert_eq!(keys("paths"), ["/apis/a/v1/x"]);
        assert_eq!(keys("parameters"), ["p"]);
        assert_eq!(keys("definitions"), ["A", "C"]);
        assert_eq!(out["swagger"], "2.0");
    }
}
