//! The OpenAPI documents kube-apiserver serves (Go: `k8s.io/kube-openapi` `pkg/handler3`
//! for `/openapi/v3/*`, behind `k8s.io/kube-aggregator`'s `openapiv3/aggregator` for the
//! index; `pkg/handler` for `/openapi/v2`), from Go's documents of the release built
//! ([`RELEASE`](crate::RELEASE)), which `cargo xtask codegen` writes into `generated/vX_Y`
//! as a default kube-apiserver serves them (see `xtask/src/openapi.rs`).
//!
//! - `/openapi/v3`: the index, `{"paths": {"apis/apps/v1": {"serverRelativeURL":
//!   "/openapi/v3/apis/apps/v1?hash=<SHA-512>"}, ...}}`, one entry per served web service.
//!   The aggregator merges it from its API services and serves it without an ETag, its
//!   type sniffed from the bytes (`text/plain; charset=utf-8`).
//! - `/openapi/v3/<web service>`: that web service's OpenAPI 3.0 document. With a `hash`
//!   that is the document's, the response may be cached for good (`Cache-Control: public,
//!   immutable`); with another hash, a 301 to the current URL, so clients holding an old
//!   index find the current document. A web service not served is a bare 404.
//! - `/openapi/v2`: the v2 document of the served web services ([`v2`]).
//!
//! A v3 document's bytes are those Go's `json.Marshal` writes for kube-openapi's
//! `spec3.OpenAPI` ([`marshal_document`]), so that its hash, which names it in the index,
//! is Go's: the generated documents are written so, the documents of custom resources
//! when they are added ([`OpenApi::with_documents`]).
//!
//! Documents carry Go's `Etag` (the quoted hash), `Last-Modified` (when the [`OpenApi`]
//! was built) and `Vary: Accept`, and answer `If-None-Match` with 304. A v3 document is
//! offered as JSON and as gnostic's protobuf
//! (`application/com.github.proto-openapi.spec.v3.v1.0+protobuf`, asked for under that
//! name or the older `...spec.v3@v1.0+protobuf`), made from the JSON bytes on first
//! request and kept ([`gnostic`]), under the JSON's ETag, as Go's `handler3` does. The v2
//! document is JSON only: a request that accepts only its protobuf gets 406, as Go
//! answers a format it cannot produce (Go also offers that one).
//!
//! The strategic merge patch reads the `x-kubernetes-patch-*` markers through
//! [`schemas_for`], [`schema_name_for_kind`] and [`schema`].

mod accept;
// The active release's documents (`v1_36` when no release or both are on: the crate's
// `compile_error!` says so).
#[cfg_attr(not(feature = "v1_37"), path = "generated/v1_36/documents.rs")]
#[cfg_attr(feature = "v1_37", path = "generated/v1_37/documents.rs")]
mod documents;
pub mod gnostic;
mod http_date;
mod spec3_json;
mod v2;

pub use v2::definition as v2_definition;

use std::borrow::Cow;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, SystemTime};

use bytes::Bytes;
use http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use serde_json::Value;
use sha2::{Digest, Sha512};

use accept::MediaRange;

/// The path of the v3 index; documents are below it.
const V3_PATH: &str = "/openapi/v3";
/// The path of the v2 document.
const V2_PATH: &str = "/openapi/v2";
/// How long a response to a request naming the current hash may be cached: Go sets
/// `Expires` one year ahead.
const IMMUTABLE_FOR: Duration = Duration::from_secs(365 * 24 * 60 * 60);

/// One v3 document as served.
#[derive(Debug, Clone)]
struct Served {
    /// The web service, e.g. `apis/apps/v1`.
    key: Cow<'static, str>,
    /// Uppercase hex SHA-512 of `body`.
    hash: Cow<'static, str>,
    body: Bytes,
    /// The protobuf form of `body`, made on first request; `None` when gnostic would not
    /// read the document. Shared by every [`OpenApi`] serving the same generated one.
    protobuf: Arc<OnceLock<Option<Bytes>>>,
}

/// The OpenAPI documents of one server: the web services it serves, with the index over
/// them. Build it once at start-up and route `/openapi/v2`, `/openapi/v3` and
/// `/openapi/v3/*` to [`OpenApi::serve`].
#[derive(Debug, Clone)]
pub struct OpenApi {
    v3: Vec<Served>,
    index: Bytes,
    /// The v2 document of the served web services with its hash, built on first use:
    /// pruning the whole document takes long (a debug build's fraction of a second), too
    /// long to do each time a custom resource's routes change.
    v2: Option<Arc<OnceLock<V2Document>>>,
    last_modified: SystemTime,
}

/// The served v2 document and its hash.
type V2Document = (Bytes, Cow<'static, str>);

/// A response to an OpenAPI request: status, headers and body, for any HTTP framework.
#[derive(Debug, Clone)]
pub struct OpenApiResponse {
    /// The status: 200, 301 (stale `hash`), 304 (`If-None-Match`), 404 (unknown web
    /// service) or 406 (no acceptable format).
    pub status: StatusCode,
    /// The headers to send (`Content-Type`, `Etag`, `Last-Modified`, `Vary`,
    /// `Cache-Control`, `Expires`, `Location`, as the status calls for).
    pub headers: HeaderMap,
    /// The body; empty for 301, 304, 406 and `HEAD`.
    pub body: Bytes,
}

/// The index key (and `/openapi/v3/` path) of a group version's document: `api/v1` for
/// the core group, `apis/<group>/<version>` otherwise.
pub fn document_key(group: &str, version: &str) -> String {
    if group.is_empty() {
        format!("api/{version}")
    } else {
        format!("apis/{group}/{version}")
    }
}

/// Every web service a document is generated for (`api`, `api/v1`, `apis`,
/// `apis/apps`, `apis/apps/v1`, `version`, `logs`, ...), sorted.
pub fn document_keys() -> impl Iterator<Item = &'static str> {
    documents::V3_DOCUMENTS.iter().map(|(key, _, _)| *key)
}

/// The bytes Go's `json.Marshal` writes for an OpenAPI v3 document (kube-openapi's
/// `spec3.OpenAPI`, given as JSON in any key order): each type's fields in Go's
/// declaration order, vendor extensions after them, maps sorted, `<`, `>` and `&`
/// escaped. The generated documents' bytes are these.
pub fn marshal_document(document: &Value) -> Vec<u8> {
    spec3_json::document(document).into_bytes()
}

/// The JSON bytes of a web service's v3 document, as served.
pub fn document(key: &str) -> Option<&'static [u8]> {
    position(key).map(|i| documents::V3_DOCUMENTS[i].2)
}

/// The uppercase hex SHA-512 of a web service's v3 document: its ETag and the `hash` of
/// its `serverRelativeURL`.
pub fn document_hash(key: &str) -> Option<&'static str> {
    position(key).map(|i| documents::V3_DOCUMENTS[i].1)
}

fn position(key: &str) -> Option<usize> {
    documents::V3_DOCUMENTS
        .binary_search_by(|(k, _, _)| (*k).cmp(key))
        .ok()
}

/// The parsed v3 document of the web service at `index`, parsed on first use and kept.
fn parsed(index: usize) -> Option<&'static Value> {
    static PARSED: OnceLock<Vec<OnceLock<Option<Value>>>> = OnceLock::new();
    let cells = PARSED.get_or_init(|| {
        documents::V3_DOCUMENTS
            .iter()
            .map(|_| OnceLock::new())
            .collect()
    });
    let (_, _, bytes) = documents::V3_DOCUMENTS.get(index)?;
    cells
        .get(index)?
        .get_or_init(|| serde_json::from_slice(bytes).ok())
        .as_ref()
}

/// The `components.schemas` of a group version's v3 document (every schema its paths
/// reach, refs as `#/components/schemas/<name>`), parsed once and kept. `None` when no
/// document exists for the group version.
pub fn schemas_for(group: &str, version: &str) -> Option<&'static Value> {
    schemas_of(&document_key(group, version))
}

/// The `paths` of a web service's v3 document (`apis/apps/v1`), parsed once and kept:
/// the custom resources' documents take the option parameters from them, which Go
/// describes the same way for every resource.
pub fn paths_of(key: &str) -> Option<&'static Value> {
    parsed(position(key)?)?.get("paths")
}

fn schemas_of(key: &str) -> Option<&'static Value> {
    parsed(position(key)?)?.get("components")?.get("schemas")
}

/// The schema name (`io.k8s.api.apps.v1.Deployment`) that declares the kind in its
/// `x-kubernetes-group-version-kind`, e.g. `autoscaling/v1` `Scale` →
/// `io.k8s.api.autoscaling.v1.Scale`.
pub fn schema_name_for_kind(group: &str, version: &str, kind: &str) -> Option<&'static str> {
    let wanted = (group, version, kind);
    documents::KINDS
        .binary_search_by(|(g, v, k, _)| (*g, *v, *k).cmp(&wanted))
        .ok()
        .map(|i| documents::KINDS[i].3)
}

/// A schema by name, in v3 form, from any document that holds it (every document has the
/// same schema under a name), so the refs of a schema can be followed whichever group
/// version it was reached from.
pub fn schema(name: &str) -> Option<&'static Value> {
    let i = documents::SCHEMA_DOCUMENTS
        .binary_search_by(|(n, _)| (*n).cmp(name))
        .ok()?;
    schemas_of(documents::SCHEMA_DOCUMENTS[i].1)?.get(name)
}

/// `(schema name, field, default as JSON)` of the key fields of keyed lists that Go's
/// OpenAPI definitions give a default (`""` for `LocalObjectReference.name`, `"TCP"` for
/// a port's `protocol`): kube-apiserver builds its field manager's types from those
/// definitions, so a list item that leaves such a field out is keyed by its default. The
/// served documents, Go's, carry them too; the field manager's types also take them from
/// here, for types built from other schemas (a custom resource's).
pub fn key_defaults() -> &'static [(&'static str, &'static str, &'static str)] {
    documents::KEY_DEFAULTS
}

impl OpenApi {
    /// Every generated document, whether or not the server serves its resources.
    pub fn all() -> OpenApi {
        OpenApi::new(|_| true)
    }

    /// The documents whose web service key `serves` accepts (`api`, `api/v1`, `apis`,
    /// `apis/apps`, `apis/apps/v1`, `version`, `logs`, `.well-known/openid-configuration`,
    /// `openid/v1/jwks`): the index lists exactly those, the v2 document their paths.
    pub fn new(serves: impl Fn(&str) -> bool) -> OpenApi {
        let v3: Vec<Served> = documents::V3_DOCUMENTS
            .iter()
            .enumerate()
            .filter(|(_, (key, _, _))| serves(key))
            .map(|(i, (key, hash, body))| Served {
                key: Cow::Borrowed(key),
                hash: Cow::Borrowed(hash),
                body: Bytes::from_static(body),
                protobuf: generated_protobuf(i),
            })
            .collect();
        let index = Bytes::from(index_json(&v3));
        OpenApi {
            v3,
            index,
            v2: Some(Arc::default()),
            last_modified: SystemTime::now(),
        }
    }

    /// The documents of the given served group versions (`("", "v1")` for the core
    /// group), of their groups (`apis/<group>`), and of the endpoints every server has:
    /// discovery (`api`, `apis`), `version`, and service account issuer discovery
    /// (`.well-known/openid-configuration`, `openid/v1/jwks`).
    pub fn for_group_versions<'a>(
        group_versions: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> OpenApi {
        let mut keys: Vec<String> = [
            "api",
            "apis",
            "version",
            ".well-known/openid-configuration",
            "openid/v1/jwks",
        ]
        .map(String::from)
        .to_vec();
        for (group, version) in group_versions {
            keys.push(document_key(group, version));
            if !group.is_empty() {
                keys.push(format!("apis/{group}"));
            }
        }
        OpenApi::new(|key| keys.iter().any(|k| k == key))
    }

    /// The same documents without `/openapi/v2` (it answers 404 then), for a server that
    /// only offers v3.
    pub fn without_v2(mut self) -> OpenApi {
        self.v2 = None;
        self
    }

    /// The same documents with `documents` (web service key, document) added, or put
    /// in place of the generated ones of the same key: what a server serving custom
    /// resources adds for each of their group versions (Go's CRD OpenAPI controller).
    /// Each is served as Go writes it ([`marshal_document`]).
    pub fn with_documents(
        mut self,
        documents: impl IntoIterator<Item = (String, Value)>,
    ) -> OpenApi {
        for (key, document) in documents {
            let body = marshal_document(&document);
            let served = Served {
                hash: Cow::Owned(sha512_hex(&body)),
                key: Cow::Owned(key),
                body: Bytes::from(body),
                protobuf: Arc::default(),
            };
            match self.v3.iter_mut().find(|s| s.key == served.key) {
                Some(slot) => *slot = served,
                None => self.v3.push(served),
            }
        }
        self.v3.sort_by(|a, b| a.key.cmp(&b.key));
        self.index = Bytes::from(index_json(&self.v3));
        // Built again for these documents, not shared with the clones of the old ones.
        self.v2 = self.v2.map(|_| Arc::default());
        self
    }

    /// The web services served, in index order.
    pub fn served_keys(&self) -> impl Iterator<Item = &str> + '_ {
        self.v3.iter().map(|s| s.key.as_ref())
    }

    /// The JSON body of a served v3 document.
    pub fn served_document(&self, key: &str) -> Option<&Bytes> {
        self.v3.iter().find(|s| s.key == key).map(|s| &s.body)
    }

    /// The index document's bytes, as `/openapi/v3` serves them.
    pub fn index(&self) -> &Bytes {
        &self.index
    }

    /// Answers a request for `/openapi/v2`, `/openapi/v3` or `/openapi/v3/<web service>`
    /// (`path_and_query` as sent, query included), reading `Accept` and `If-None-Match`
    /// from `headers`. `None` when the path is not one of these, for the caller to route
    /// elsewhere. A `HEAD` gets the headers of a `GET` and no body.
    pub fn serve(
        &self,
        method: &Method,
        path_and_query: &str,
        headers: &HeaderMap,
    ) -> Option<OpenApiResponse> {
        let (path, query) = path_and_query
            .split_once('?')
            .unwrap_or((path_and_query, ""));
        let mut response = if path == V3_PATH {
            self.serve_index(headers)
        } else if let Some(key) = path.strip_prefix(V3_PATH).and_then(|p| p.strip_prefix('/')) {
            self.serve_document(key, query, headers)
        } else if path == V2_PATH {
            self.serve_v2(headers)?
        } else {
            return None;
        };
        if method == Method::HEAD {
            response.body = Bytes::new();
        }
        Some(response)
    }

    fn serve_index(&self, headers: &HeaderMap) -> OpenApiResponse {
        // Go's `http.ServeContent` sniffs the type of JSON text as plain text.
        let mut out = HeaderMap::new();
        out.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/plain; charset=utf-8"),
        );
        self.content(out, headers, None, self.index.clone())
    }

    fn serve_document(&self, key: &str, query: &str, headers: &HeaderMap) -> OpenApiResponse {
        // The aggregator looks the web service up before its handler reads `Accept`.
        let Some(served) = self.v3.iter().find(|s| s.key == key) else {
            return status_only(StatusCode::NOT_FOUND, HeaderMap::new());
        };
        let mut out = HeaderMap::new();
        out.insert(header::VARY, HeaderValue::from_static("Accept"));
        let (content_type, body) = match accept::negotiate(headers, &V3_OFFERS) {
            None => return status_only(StatusCode::NOT_ACCEPTABLE, out),
            Some(0) => ("application/json", served.body.clone()),
            Some(_) => {
                let protobuf = served.protobuf.get_or_init(|| {
                    gnostic::document_protobuf(&served.body)
                        .map(Bytes::from)
                        .ok()
                });
                match protobuf {
                    Some(protobuf) => (V3_PROTOBUF, protobuf.clone()),
                    // Go's handler returns without writing when the conversion fails:
                    // a 200 with no body.
                    None => return status_only(StatusCode::OK, out),
                }
            }
        };
        out.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
        insert(&mut out, header::ETAG, &quoted(&served.hash));
        if let Some(hash) = query_value(query, "hash").filter(|h| !h.is_empty()) {
            if hash != served.hash {
                let location = format!("{V3_PATH}/{}?hash={}", served.key, served.hash);
                insert(&mut out, header::LOCATION, &location);
                return status_only(StatusCode::MOVED_PERMANENTLY, out);
            }
            out.insert(
                header::CACHE_CONTROL,
                HeaderValue::from_static("public, immutable"),
            );
            let expires = http_date::format(SystemTime::now() + IMMUTABLE_FOR, "UTC");
            insert(&mut out, header::EXPIRES, &expires);
        }
        self.content(out, headers, Some(&served.hash), body)
    }

    fn serve_v2(&self, headers: &HeaderMap) -> Option<OpenApiResponse> {
        let (body, hash) = self
            .v2
            .as_ref()?
            .get_or_init(|| v2::v2_of(&|key| self.v3.iter().any(|s| s.key == key)))
            .clone();
        let mut out = HeaderMap::new();
        out.insert(header::VARY, HeaderValue::from_static("Accept"));
        if !accept::accepts(headers, &JSON_ONLY_V2) {
            return Some(status_only(StatusCode::NOT_ACCEPTABLE, out));
        }
        out.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        insert(&mut out, header::ETAG, &quoted(&hash));
        Some(self.content(out, headers, Some(&hash), body))
    }

    /// A 200 with `body`, or a 304 when `If-None-Match` names `etag` or is `*` (Go's
    /// `http.ServeContent`, which drops the content headers from a 304).
    fn content(
        &self,
        mut out: HeaderMap,
        request: &HeaderMap,
        etag: Option<&str>,
        body: Bytes,
    ) -> OpenApiResponse {
        insert(
            &mut out,
            header::LAST_MODIFIED,
            &http_date::format(self.last_modified, "GMT"),
        );
        if if_none_match(request, etag) {
            out.remove(header::CONTENT_TYPE);
            return status_only(StatusCode::NOT_MODIFIED, out);
        }
        OpenApiResponse {
            status: StatusCode::OK,
            headers: out,
            body,
        }
    }
}

/// What `/openapi/v3/*` offers, in Go's order: JSON, then gnostic's protobuf under its
/// name and under the older one (both answered with the first).
const V3_OFFERS: [MediaRange<'static>; 3] = [
    MediaRange::new("application", "json"),
    MediaRange::new(
        "application",
        "com.github.proto-openapi.spec.v3.v1.0+protobuf",
    ),
    MediaRange::new(
        "application",
        "com.github.proto-openapi.spec.v3@v1.0+protobuf",
    ),
];
/// The `Content-Type` of a v3 document's protobuf form.
const V3_PROTOBUF: &str = "application/com.github.proto-openapi.spec.v3.v1.0+protobuf";
/// What `/openapi/v2` offers (likewise without Go's protobuf).
const JSON_ONLY_V2: [MediaRange<'static>; 1] = [MediaRange::new("application", "json")];

/// The index JSON as Go's `handler3` marshals it: keys sorted, one `serverRelativeURL`
/// each.
fn index_json(served: &[Served]) -> Vec<u8> {
    let paths: serde_json::Map<String, Value> = served
        .iter()
        .map(|s| {
            let url = format!("{V3_PATH}/{}?hash={}", s.key, s.hash);
            let mut entry = serde_json::Map::new();
            entry.insert("serverRelativeURL".to_owned(), Value::String(url));
            (s.key.to_string(), Value::Object(entry))
        })
        .collect();
    // `served` is sorted by key (as the generated table is), and serde_json writes a map
    // in key order either way.
    format!("{{\"paths\":{}}}", Value::Object(paths)).into_bytes()
}

/// The protobuf cache of the generated document at `index`, one for the process: the
/// bytes are the same whichever [`OpenApi`] serves it.
fn generated_protobuf(index: usize) -> Arc<OnceLock<Option<Bytes>>> {
    static CELLS: OnceLock<Vec<Arc<OnceLock<Option<Bytes>>>>> = OnceLock::new();
    CELLS
        .get_or_init(|| {
            documents::V3_DOCUMENTS
                .iter()
                .map(|_| Arc::default())
                .collect()
        })
        .get(index)
        .cloned()
        .unwrap_or_default()
}

fn sha512_hex(bytes: &[u8]) -> String {
    Sha512::digest(bytes)
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect()
}

fn quoted(etag: &str) -> String {
    format!("\"{etag}\"")
}

/// Inserts a header whose value is built from ASCII (hashes, paths, dates); a value that
/// is not a valid header is left out rather than sent broken.
fn insert(headers: &mut HeaderMap, name: header::HeaderName, value: &str) {
    if let Ok(value) = HeaderValue::from_str(value) {
        headers.insert(name, value);
    }
}

fn status_only(status: StatusCode, headers: HeaderMap) -> OpenApiResponse {
    OpenApiResponse {
        status,
        headers,
        body: Bytes::new(),
    }
}

/// The first value of `name` in a query string (Go's `url.Values.Get`), percent-decoding
/// not needed for the hex hash it is used for; `+` and `%` leave it unequal to any hash.
fn query_value<'q>(query: &'q str, name: &str) -> Option<&'q str> {
    query
        .split('&')
        .filter_map(|pair| pair.split_once('=').or(Some((pair, ""))))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// Whether `If-None-Match` lists `etag` (or is `*`, which matches even a response
/// without an ETag), comparing weakly as Go does for GET and HEAD.
fn if_none_match(request: &HeaderMap, etag: Option<&str>) -> bool {
    request
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .any(|tag| {
            tag == "*"
                || tag
                    .trim_start_matches("W/")
                    .strip_prefix('"')
                    .and_then(|t| t.strip_suffix('"'))
                    .is_some_and(|t| Some(t) == etag)
        })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn get(api: &OpenApi, path: &str, accept: Option<&str>) -> OpenApiResponse {
        let mut headers = HeaderMap::new();
        if let Some(accept) = accept {
            headers.insert(header::ACCEPT, HeaderValue::from_str(accept).unwrap());
        }
        api.serve(&Method::GET, path, &headers).unwrap()
    }

    #[test]
    fn index_lists_served_documents_with_their_hashes() {
        let api = OpenApi::for_group_versions([("", "v1"), ("apps", "v1")]);
        let keys: Vec<&str> = api.served_keys().collect();
        assert_eq!(
            keys,
            [
                ".well-known/openid-configuration",
                "api",
                "api/v1",
                "apis",
                "apis/apps",
                "apis/apps/v1",
                "openid/v1/jwks",
                "version"
            ]
        );
        let response = get(&api, "/openapi/v3", None);
        assert_eq!(response.status, StatusCode::OK);
        let index: Value = serde_json::from_slice(&response.body).unwrap();
        let url = index["paths"]["apis/apps/v1"]["serverRelativeURL"]
            .as_str()
            .unwrap();
        let hash = sha512_hex(document("apis/apps/v1").unwrap());
        assert_eq!(url, format!("/openapi/v3/apis/apps/v1?hash={hash}"));
        assert!(response.headers.get(header::ETAG).is_none());
        assert_eq!(
            response.headers[header::CONTENT_TYPE],
            "text/plain; charset=utf-8"
        );
        assert!(index["paths"].get("apis/batch/v1").is_none());
        let mut any = HeaderMap::new();
        any.insert(header::IF_NONE_MATCH, HeaderValue::from_static("*"));
        let not_modified = api.serve(&Method::GET, "/openapi/v3", &any).unwrap();
        assert_eq!(not_modified.status, StatusCode::NOT_MODIFIED);

        // The v2 document has the served web services' paths only.
        let v2: Value = serde_json::from_slice(&get(&api, "/openapi/v2", None).body).unwrap();
        let paths = v2["paths"].as_object().unwrap();
        assert!(paths.contains_key("/apis/apps/v1/deployments"));
        assert!(!paths.keys().any(|p| p.starts_with("/apis/batch/")));
        assert!(v2["definitions"]["io.k8s.api.batch.v1.Job"].is_null());
    }

    #[test]
    fn documents_are_immutable_under_their_hash_and_redirect_from_others() {
        let api = OpenApi::all();
        let hash = document_hash("apis/apps/v1").unwrap();
        let current = get(&api, &format!("/openapi/v3/apis/apps/v1?hash={hash}"), None);
        assert_eq!(current.status, StatusCode::OK);
        assert_eq!(current.headers[header::CACHE_CONTROL], "public, immutable");
        assert!(
            current.headers[header::EXPIRES]
                .to_str()
                .unwrap()
                .ends_with(" UTC")
        );
        assert_eq!(current.headers[header::VARY], "Accept");
        assert_eq!(current.headers[header::CONTENT_TYPE], "application/json");
        assert_eq!(&current.body[..], document("apis/apps/v1").unwrap());

        let plain = get(&api, "/openapi/v3/apis/apps/v1", Some("application/json"));
        assert_eq!(plain.status, StatusCode::OK);
        assert!(plain.headers.get(header::CACHE_CONTROL).is_none());
        assert_eq!(plain.headers[header::ETAG], quoted(hash).as_str());

        let stale = get(&api, "/openapi/v3/apis/apps/v1?hash=0123", None);
        assert_eq!(stale.status, StatusCode::MOVED_PERMANENTLY);
        assert_eq!(
            stale.headers[header::LOCATION],
            format!("/openapi/v3/apis/apps/v1?hash={hash}").as_str()
        );
        assert!(stale.body.is_empty());
    }

    #[test]
    fn if_none_match_gives_not_modified() {
        let api = OpenApi::all();
        let hash = document_hash("api/v1").unwrap();
        let mut headers = HeaderMap::new();
        headers.insert(
            header::IF_NONE_MATCH,
            HeaderValue::from_str(&format!("\"other\", {}", quoted(hash))).unwrap(),
        );
        let response = api
            .serve(&Method::GET, "/openapi/v3/api/v1", &headers)
            .unwrap();
        assert_eq!(response.status, StatusCode::NOT_MODIFIED);
        assert!(response.body.is_empty());
        assert!(response.headers.get(header::CONTENT_TYPE).is_none());
        assert_eq!(response.headers[header::ETAG], quoted(hash).as_str());
    }

    #[test]
    fn json_and_protobuf_are_acceptable() {
        let api = OpenApi::all();
        let hash = document_hash("api/v1").unwrap();
        for protobuf in [
            "application/com.github.proto-openapi.spec.v3@v1.0+protobuf",
            "application/com.github.proto-openapi.spec.v3.v1.0+protobuf",
        ] {
            let response = get(&api, "/openapi/v3/api/v1", Some(protobuf));
            assert_eq!(response.status, StatusCode::OK);
            assert_eq!(response.headers[header::CONTENT_TYPE], V3_PROTOBUF);
            assert_eq!(response.headers[header::ETAG], quoted(hash).as_str());
            let want = gnostic::document_protobuf(document("api/v1").unwrap()).unwrap();
            assert_eq!(&response.body[..], &want[..]);
        }
        let response = get(
            &api,
            "/openapi/v3/api/v1",
            Some(
                "application/com.github.proto-openapi.spec.v3.v1.0+protobuf;q=0.5, application/json",
            ),
        );
        assert_eq!(response.headers[header::CONTENT_TYPE], "application/json");
        assert_eq!(
            get(&api, "/openapi/v3/api/v1", Some("application/x-protobuf")).status,
            StatusCode::NOT_ACCEPTABLE
        );
        // A document gnostic will not read: Go's empty 200.
        let bad = OpenApi::all().with_documents([("apis/x/v1".to_owned(), serde_json::json!({}))]);
        let response = get(
            &bad,
            "/openapi/v3/apis/x/v1",
            Some("application/com.github.proto-openapi.spec.v3.v1.0+protobuf"),
        );
        assert_eq!(response.status, StatusCode::OK);
        assert!(response.body.is_empty() && response.headers.get(header::CONTENT_TYPE).is_none());
        for accept in ["*/*", "application/*", "application/json; charset=utf-8"] {
            assert_eq!(
                get(&api, "/openapi/v3/api/v1", Some(accept)).status,
                StatusCode::OK,
                "{accept}"
            );
        }
        let v2 = get(
            &api,
            "/openapi/v2",
            Some("application/com.github.proto-openapi.spec.v2@v1.0+protobuf"),
        );
        assert_eq!(v2.status, StatusCode::NOT_ACCEPTABLE);
    }

    #[test]
    fn other_paths_are_not_ours_and_unknown_documents_are_not_found() {
        let api = OpenApi::for_group_versions([("", "v1")]);
        let headers = HeaderMap::new();
        assert!(api.serve(&Method::GET, "/api/v1", &headers).is_none());
        assert!(api.serve(&Method::GET, "/openapi/v3x", &headers).is_none());
        let missing = get(&api, "/openapi/v3/apis/apps/v1", None);
        assert_eq!(missing.status, StatusCode::NOT_FOUND);
        assert!(missing.body.is_empty() && missing.headers.is_empty());
        let bogus = get(&api, "/openapi/v3/../../etc/passwd?hash=%zz", None);
        assert_eq!(bogus.status, StatusCode::NOT_FOUND);
        // Not served is 404 whatever `Accept` says.
        let protobuf = get(
            &api,
            "/openapi/v3/apis/apps/v1",
            Some("application/x-protobuf"),
        );
        assert_eq!(protobuf.status, StatusCode::NOT_FOUND);
        assert!(
            OpenApi::all()
                .without_v2()
                .serve(&Method::GET, "/openapi/v2", &headers)
                .is_none()
        );
    }

    #[test]
    fn head_has_no_body() {
        let api = OpenApi::all();
        let response = api
            .serve(&Method::HEAD, "/openapi/v2", &HeaderMap::new())
            .unwrap();
        assert_eq!(response.status, StatusCode::OK);
        assert!(response.body.is_empty());
        assert_eq!(
            response.headers[header::ETAG],
            quoted(&api.v2.unwrap().get().unwrap().1).as_str()
        );
    }

    #[test]
    fn schemas_by_kind_and_name() {
        assert_eq!(
            schema_name_for_kind("apps", "v1", "Deployment"),
            Some("io.k8s.api.apps.v1.Deployment")
        );
        assert_eq!(
            schema_name_for_kind("autoscaling", "v1", "Scale"),
            Some("io.k8s.api.autoscaling.v1.Scale")
        );
        assert_eq!(schema_name_for_kind("apps", "v1", "Nope"), None);
        let schemas = schemas_for("apps", "v1").unwrap();
        let spec = &schemas["io.k8s.api.apps.v1.DeploymentSpec"];
        assert_eq!(
            spec["properties"]["strategy"]["allOf"][0]["$ref"],
            "#/components/schemas/io.k8s.api.apps.v1.DeploymentStrategy"
        );
        let pod_spec = schema("io.k8s.api.core.v1.PodSpec").unwrap();
        assert_eq!(
            pod_spec["properties"]["containers"]["x-kubernetes-patch-merge-key"],
            "name"
        );
        assert_eq!(
            pod_spec["properties"]["containers"]["x-kubernetes-patch-strategy"],
            "merge"
        );
        assert!(schemas_for("nope", "v1").is_none());
        assert!(schema("nope").is_none());
        // Go's documents as a default server serves them: defaults and enums.
        let reference = schema("io.k8s.api.core.v1.LocalObjectReference").unwrap();
        assert_eq!(reference["properties"]["name"]["default"], "");
        let port = schema("io.k8s.api.core.v1.ContainerPort").unwrap();
        assert_eq!(
            port["properties"]["protocol"]["enum"],
            serde_json::json!(["SCTP", "TCP", "UDP"])
        );
    }

    #[test]
    fn query_values() {
        assert_eq!(query_value("a=1&hash=AB&hash=CD", "hash"), Some("AB"));
        assert_eq!(query_value("hash", "hash"), Some(""));
        assert_eq!(query_value("", "hash"), None);
    }
}
