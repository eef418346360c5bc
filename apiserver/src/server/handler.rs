//! The handler at the end of the filter chain (Go's `APIServerHandler` with its
//! installed routes): health checks, `/version`, discovery, the OpenAPI documents, and
//! every resource through its REST storage and the endpoints' handlers.

use std::sync::Arc;

use apimachinery::api::errors::{self, StatusError};
use apimachinery::schema::GroupResource;
use axum::body::Body;
use axum::http::{HeaderValue, Method, Request, Response, StatusCode, header};

use super::api::Api;
use super::filters::{Answer, Handle, RequestScope};
use super::routes::Routes;
use crate::authentication::user::Info;
use crate::discovery::{AGGREGATED_CONTENT_TYPE, wants_aggregated};
use crate::endpoints::handlers::scale::scale_kind;
use crate::endpoints::handlers::watch as watch_handler;
use crate::endpoints::handlers::{Handler, MAX_REQUEST_BODY_BYTES, Query, Reply};
use crate::endpoints::negotiation::{
    MediaType, Output, TABLE_CONTENT_TYPE, negotiate_input, negotiate_output_options, routable,
    route_not_acceptable, wants_table,
};
use crate::endpoints::request_info::{RequestInfo, RequestInfoError, header_str};
use crate::endpoints::responsewriters::{
    error_response, json_response, method_not_allowed, path_not_found, plain_not_found,
    value_response,
};
use crate::endpoints::warning::{PendingWarnings, WarningRecorder};
use crate::registry::default_table::DefaultTable;
use crate::registry::{Context, Creater, ResourceInfo, TableConvertor};

/// The Kubernetes minor version the server reports at `/version`: the release built's
/// (`crate::RELEASE` is `1.` and this).
const KUBERNETES_MINOR: &str = {
    let (_, minor) = crate::RELEASE.as_bytes().split_at(2);
    match std::str::from_utf8(minor) {
        Ok(minor) => minor,
        Err(_) => crate::RELEASE,
    }
};

/// The innermost service of the chain: the server's routes.
#[derive(Clone, Debug)]
pub(crate) struct ApiHandler(pub(crate) Arc<Api>);

impl Handle for ApiHandler {
    fn handle(&self, req: Request<Body>) -> Answer {
        let api = self.0.clone();
        Box::pin(async move { api.serve(req).await })
    }
}

impl Api {
    /// Answers a request the filters let through: its path, method and query parsed
    /// (the request info filter), its user authenticated (and impersonated), and what it
    /// asks authorized.
    pub(super) async fn serve(&self, req: Request<Body>) -> Response<Body> {
        // Read in place: the request's parts outlive the answer, and nothing here needs
        // them as its own.
        let (parts, body) = req.into_parts();
        let Some(RequestScope {
            info: parsed,
            query,
        }) = parts.extensions.get::<RequestScope>()
        else {
            return error_response(&errors::new_internal_error(
                "no request info for the request: the handler chain is wrong",
            ));
        };
        let Some(user) = parts.extensions.get::<Info>() else {
            return error_response(&errors::new_internal_error(
                "no user for the request: the handler chain is wrong",
            ));
        };
        let path = parts.uri.path();
        let accept = header_str(&parts.headers, header::ACCEPT).unwrap_or_default();
        let routes = self.routes();
        if let Some(response) = self.health.serve(path, parts.uri.query()).await {
            return response;
        }
        // Discovery documents are read only: Go routes nothing else to them. Their paths
        // have at most three segments; longer ones (every resource request) are not split
        // (splitting costs a GET about 1,200 instructions, in callgrind).
        let trimmed = path.trim_matches('/');
        let short = trimmed.bytes().filter(|&b| b == b'/').nth(2).is_none();
        let segments: Vec<&str> = if short {
            trimmed.split('/').collect()
        } else {
            Vec::new()
        };
        let discovery = matches!(
            segments.as_slice(),
            ["api"] | ["apis"] | ["api", _] | ["apis", _] | ["apis", _, _]
        );
        if discovery && parts.method != Method::GET {
            return error_response(&method_not_allowed(parts.method.as_str(), path));
        }
        match path.trim_end_matches('/') {
            "/version" => return value_response(&version_info(), "application/json"),
            "/api" => {
                return if wants_aggregated(accept) {
                    value_response(&routes.discovery.aggregated_core, AGGREGATED_CONTENT_TYPE)
                } else {
                    value_response(&routes.discovery.core_versions, "application/json")
                };
            }
            "/apis" => {
                return if wants_aggregated(accept) {
                    value_response(&routes.discovery.aggregated_groups, AGGREGATED_CONTENT_TYPE)
                } else {
                    value_response(&routes.discovery.groups, "application/json")
                };
            }
            _ => {}
        }
        if path.starts_with("/openapi/") {
            let path_and_query = parts
                .uri
                .path_and_query()
                .map(|p| p.as_str())
                .unwrap_or(path);
            return match routes
                .openapi
                .serve(&parts.method, path_and_query, &parts.headers)
            {
                Some(r) => {
                    let mut resp = Response::new(Body::from(r.body));
                    *resp.status_mut() = r.status;
                    *resp.headers_mut() = r.headers;
                    resp
                }
                None => error_response(&path_not_found(path)),
            };
        }
        match segments.as_slice() {
            ["api", version] => {
                return resource_list(&routes, version);
            }
            // A group no API serves (a CRD group once its last CRD is gone) is left
            // to Go's mux, which answers in plain text.
            ["apis", group] => {
                return match routes.discovery.group.get(*group) {
                    Some(v) => value_response(v, "application/json"),
                    None => plain_not_found(),
                };
            }
            ["apis", group, _] if !routes.discovery.group.contains_key(*group) => {
                return plain_not_found();
            }
            ["apis", group, version] => {
                return resource_list(&routes, &format!("{group}/{version}"));
            }
            _ => {}
        }
        let info = match parsed {
            Ok(info) => info,
            Err(RequestInfoError::MethodNotAllowed { method, path }) => {
                return error_response(&method_not_allowed(method, path));
            }
            Err(RequestInfoError::NotFound { path }) => {
                return if path.starts_with("/api/") || path.starts_with("/apis/") {
                    error_response(&path_not_found(path))
                } else {
                    plain_not_found()
                };
            }
        };
        // A group no API serves is left to Go's mux, which answers in plain text.
        if !info.api_group.is_empty() && !routes.discovery.group.contains_key(&info.api_group) {
            return plain_not_found();
        }
        let body = match axum::body::to_bytes(body, MAX_REQUEST_BODY_BYTES).await {
            Ok(b) => b,
            Err(_) => {
                return error_response(&errors::new_request_entity_too_large_error(&format!(
                    "limit is {MAX_REQUEST_BODY_BYTES}"
                )));
            }
        };
        let content_type = header_str(&parts.headers, header::CONTENT_TYPE);
        let user_agent = header_str(&parts.headers, header::USER_AGENT).unwrap_or_default();
        // Go's warning recorder: what the request's route and handler warn of goes on
        // the answer, an error's too.
        let mut warnings = WarningRecorder::new();
        let pending = PendingWarnings::default();
        let mut response = match self
            .resource(
                &parts.method,
                path,
                info,
                query,
                user,
                accept,
                &body,
                content_type,
                user_agent,
                &mut warnings,
                &pending,
            )
            .await
        {
            Ok(resp) => resp,
            Err(e) => {
                let recorded = pending.take();
                warnings.extend(recorded.iter().map(String::as_str));
                error_response(&e)
            }
        };
        warnings.write_to(response.headers_mut());
        response
    }

    #[allow(clippy::too_many_arguments)]
    async fn resource(
        &self,
        method: &Method,
        path: &str,
        info: &RequestInfo,
        query: &Query,
        user: &Info,
        accept: &str,
        body: &[u8],
        content_type: Option<&str>,
        user_agent: &str,
        warnings: &mut WarningRecorder,
        pending: &PendingWarnings,
    ) -> Result<Response<Body>, StatusError> {
        let routes = self.routes();
        let rest = routes
            .storages
            .get(&(info.api_group.clone(), info.resource.clone()))
            .filter(|s| s.store().info().serves(&info.api_version))
            .ok_or_else(|| path_not_found(path))?;
        let store = rest.store();
        let resource: &ResourceInfo = store.info();
        // A namespaced item needs its namespace in the path; a cluster-scoped resource
        // has none.
        let item = !info.name.is_empty();
        // Go routes POST to collections (and to subresources), PUT and PATCH to objects.
        let wrong_target = match info.verb.as_str() {
            "create" => item && info.subresource.is_empty(),
            "update" | "patch" => !item,
            _ => false,
        };
        if wrong_target {
            return Err(method_not_allowed(method.as_str(), path));
        }
        if resource.namespaced && item && info.namespace.is_none() {
            return Err(path_not_found(path));
        }
        if !resource.namespaced && info.namespace.is_some() {
            return Err(path_not_found(path));
        }
        if resource.namespaced && info.verb == "create" && info.namespace.is_none() {
            return Err(method_not_allowed(method.as_str(), path));
        }
        // A custom resource's version warns from here on, whatever the subresource asked
        // (Go's crdHandler adds the warning once the scope matches, before choosing the
        // subresource's handler).
        if let Some(w) = rest.version_warning(&info.api_version) {
            warnings.add(w);
        }
        // Go's connecters (a Pod's `log`, `exec`, ...): their own methods, no body.
        if let Some(connecter) = rest.connecter(&info.subresource) {
            if !item {
                return Err(path_not_found(path));
            }
            if !connecter.methods().contains(&method.as_str()) {
                return Err(method_not_allowed(method.as_str(), path));
            }
            let ctx = Context {
                user,
                namespace: info.namespace.as_deref().unwrap_or_default(),
                name: &info.name,
                version: &info.api_version,
                dry_run: false,
            };
            connecter.connect(&ctx, query).await?;
            let mut resp = Response::new(Body::empty());
            *resp.status_mut() = StatusCode::NO_CONTENT;
            return Ok(resp);
        }
        // Custom resources have no protobuf form: Go offers them as JSON and YAML, and
        // their metadata (`as=PartialObjectMetadata`) in protobuf too.
        let unstructured = store.strategy().is_unstructured();
        let subresource = match info.subresource.as_str() {
            "" => None,
            "status" if resource.has_status_at(&info.api_version) => {
                if !matches!(info.verb.as_str(), "get" | "update" | "patch") {
                    return Err(method_not_allowed(method.as_str(), path));
                }
                None
            }
            "scale" if resource.has_scale_at(&info.api_version) => None,
            // A Namespace's `/finalize` takes PUTs only (Go's FinalizeREST is an Updater).
            "finalize" if rest.finalizes() => {
                if info.verb != "update" {
                    return Err(method_not_allowed(method.as_str(), path));
                }
                None
            }
            // A Pod's `/resize` reads and writes the Pod (Go's ResizeREST: a Getter,
            // Updater and Patcher).
            "resize" if rest.resizes() => {
                if !matches!(info.verb.as_str(), "get" | "update" | "patch") {
                    return Err(method_not_allowed(method.as_str(), path));
                }
                None
            }
            // Its `/ephemeralcontainers` too (Go's EphemeralContainersREST), and a
            // CertificateSigningRequest's `/approval` (Go's ApprovalREST).
            "ephemeralcontainers" if rest.has_ephemeral_containers() => {
                if !matches!(info.verb.as_str(), "get" | "update" | "patch") {
                    return Err(method_not_allowed(method.as_str(), path));
                }
                None
            }
            "approval" if rest.has_approval() => {
                if !matches!(info.verb.as_str(), "get" | "update" | "patch") {
                    return Err(method_not_allowed(method.as_str(), path));
                }
                None
            }
            name => match rest.subresource(name) {
                Some(creater) if info.verb == "create" => Some(creater),
                // Go routes only POST to a create-only subresource (`pods/binding`,
                // `serviceaccounts/token`): other methods find the route, not the verb.
                Some(_) => return Err(method_not_allowed(method.as_str(), path)),
                // Go's crdHandler answers a subresource the request's version does not
                // serve (per-version `subresources`) as a missing object.
                _ if unstructured => {
                    let resource =
                        GroupResource::new(info.api_group.as_str(), info.resource.as_str());
                    return Err(errors::new_not_found(&resource, &info.name));
                }
                _ => return Err(path_not_found(path)),
            },
        };
        // A create-only resource (the reviews, `bindings`) has one route, POST to its
        // collection: a path naming an object is no route at all (404), another method
        // on the collection is not allowed (405).
        if resource.is_create_only() && !info.name.is_empty() && info.subresource.is_empty() {
            return Err(path_not_found(path));
        }
        if resource.is_create_only() && info.verb != "create" {
            return Err(method_not_allowed(method.as_str(), path));
        }
        // A resource whose REST storage deletes no collections (Namespaces: Go's
        // namespace REST is no CollectionDeleter) has no such route.
        if info.verb == "deletecollection"
            && !resource.verbs.iter().any(|v| v == "deletecollection")
        {
            return Err(method_not_allowed(method.as_str(), path));
        }
        // A table is answered in JSON even when the Accept header offers nothing else,
        // as Go's table negotiation does; a kind without a printer answers Go's default
        // table. A built-in workload's `/scale` answers its Scale's table (Go's ScaleREST
        // converts with the printers).
        let default_table = DefaultTable {
            group: &resource.group,
            kind: &resource.kind,
        };
        let table = match info.subresource.as_str() {
            "" if matches!(info.verb.as_str(), "get" | "list") => {
                Some(rest.table_convertor().unwrap_or(&default_table))
            }
            "scale" => rest.scaler().and_then(|s| s.table()),
            _ => None,
        }
        .filter(|_| wants_table(accept));
        let output = negotiate_output_options(Some(accept), !unstructured);
        // Go serves custom resources without go-restful, which refuses other Accept
        // headers before any handler.
        if output.is_err() && !unstructured && !routable(accept) {
            return Err(route_not_acceptable(matches!(
                info.verb.as_str(),
                "list" | "watch"
            )));
        }
        // The request has its route: a deprecated kind's routes warn of it before
        // their handler runs (custom resources warned above, by their CRD).
        if !unstructured {
            if let Some(w) = self.route_deprecation(resource, info, subresource) {
                warnings.add(w);
            }
        }
        let output = match output {
            Ok(output) => output,
            Err(_) if table.is_some() => Output {
                media: MediaType::Json,
                conversion: None,
            },
            Err(e) => return Err(e),
        };
        if info.verb == "create" && subresource.is_none() {
            rest.check_create()?;
        }
        let h = Handler {
            scheme: &self.scheme,
            rest: &**rest,
            store,
            info,
            query,
            user,
            admission: &self.admission,
            output: output.media,
            conversion: output.conversion,
            user_agent,
            pending_warnings: pending,
            authorizer: &*self.authorizer,
        };
        // Go converts a write's answer after writing; one that cannot be converted is
        // refused before anything is written (a delete of a kind answering a Status
        // when the object goes is converted, or not, as Go does: after).
        match info.verb.as_str() {
            "create" | "update" | "patch" => h.check_conversion(false)?,
            "deletecollection" => h.check_conversion(true)?,
            "delete" if store.strategy().returns_deleted_object() => h.check_conversion(false)?,
            _ => {}
        }
        if let Some(creater) = subresource {
            return h
                .answer(creater, body, negotiate_input(content_type)?)
                .await
                .map(|reply| reply_response(reply, warnings));
        }
        if info.subresource == "scale" {
            let reply = h.scale(method.as_str(), body, content_type).await?;
            let reply = match table {
                Some(convertor) => table_reply(convertor, info, query, reply)?,
                None => reply,
            };
            return Ok(reply_response(reply, warnings));
        }
        if let Some(convertor) = table {
            // A kind printed from another version than the one asked for is read at
            // that version (Go's table convertor sees the internal object); the table
            // converts what it embeds back to the asked one.
            let printed_info;
            let h = match convertor
                .printed_version()
                .filter(|v| *v != info.api_version)
            {
                Some(version) => {
                    printed_info = RequestInfo {
                        api_version: version.to_owned(),
                        ..info.clone()
                    };
                    Handler {
                        info: &printed_info,
                        ..h
                    }
                }
                None => h,
            };
            let reply = if info.verb == "get" {
                h.get().await?
            } else {
                h.list().await?
            };
            return Ok(reply_response(
                table_reply(convertor, info, query, reply)?,
                warnings,
            ));
        }
        let reply = match info.verb.as_str() {
            "get" => h.get().await?,
            "list" => h.list().await?,
            "watch" => {
                rest.check_watch(&info.api_version, path)?;
                let (stream, content_type) =
                    watch_handler::watch(&h, self.shutdown.clone()).await?;
                let mut resp = Response::new(Body::from_stream(stream));
                resp.headers_mut()
                    .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
                resp.headers_mut().insert(
                    header::TRANSFER_ENCODING,
                    HeaderValue::from_static("chunked"),
                );
                return Ok(resp);
            }
            "create" => match rest.creater() {
                Some(creater) => {
                    h.answer(creater, body, negotiate_input(content_type)?)
                        .await?
                }
                None if resource.is_create_only() => {
                    return Err(method_not_allowed(
                        "POST",
                        &format!(
                            "{}: this server has no scheduler or admission to act on it",
                            resource.resource
                        ),
                    ));
                }
                None => h.create(body, negotiate_input(content_type)?).await?,
            },
            "update" => h.update(body, negotiate_input(content_type)?).await?,
            "patch" => h.patch(body, content_type).await?,
            "delete" => h.delete(body, negotiate_input(content_type)?).await?,
            "deletecollection" => {
                h.delete_collection(body, negotiate_input(content_type)?)
                    .await?
            }
            other => return Err(method_not_allowed(other, path)),
        };
        Ok(reply_response(reply, warnings))
    }
}

impl Api {
    /// The deprecation warning of the built-in route serving `info` (Go's installer
    /// wraps each route of a deprecated kind in `AddWarningsHandler`): by the route's
    /// kind, the resource's own but for subresources of another kind (`/scale`'s
    /// `Scale`, `pods/eviction`'s `Eviction`).
    fn route_deprecation(
        &self,
        resource: &ResourceInfo,
        info: &RequestInfo,
        subresource: Option<&dyn Creater>,
    ) -> Option<&str> {
        let own_kind = match (subresource, info.subresource.as_str()) {
            (Some(creater), _) => Some(creater.kind(&info.api_version)),
            (None, "scale") => Some(scale_kind()),
            (None, _) => None,
        };
        match &own_kind {
            Some(k) => self.deprecated_kinds.warning(&k.group, &k.version, &k.kind),
            None => {
                self.deprecated_kinds
                    .warning(&resource.group, &info.api_version, &resource.kind)
            }
        }
    }
}

/// The answer of `reply`, its warnings recorded after those before it.
fn reply_response(reply: Reply, warnings: &mut WarningRecorder) -> Response<Body> {
    warnings.extend(reply.warnings.iter().map(String::as_str));
    json_response(reply.code, reply.content_type, reply.body)
}

fn resource_list(routes: &Routes, group_version: &str) -> Response<Body> {
    match routes.discovery.resource_lists.get(group_version) {
        Some(v) => value_response(v, "application/json"),
        None => error_response(&path_not_found(group_version)),
    }
}

/// A get or list answer as the `meta.k8s.io/v1` Table `kubectl get` asks for, made by
/// the resource's table convertor.
fn table_reply(
    convertor: &dyn TableConvertor,
    info: &RequestInfo,
    query: &Query,
    reply: Reply,
) -> Result<Reply, StatusError> {
    let body: serde_json::Value = serde_json::from_slice(&reply.body).map_err(|e| {
        errors::new_internal_error(format!("reading the answer for its table: {e}"))
    })?;
    let (objects, mut list_meta) = if info.verb == "list" {
        let items = body
            .get("items")
            .and_then(serde_json::Value::as_array)
            .cloned()
            .unwrap_or_default();
        let meta = body
            .get("metadata")
            .and_then(serde_json::Value::as_object)
            .cloned()
            .unwrap_or_default();
        (items, meta)
    } else {
        // A single object's table carries its resourceVersion, as Go's does.
        let mut meta = serde_json::Map::new();
        if let Some(rv) = body.pointer("/metadata/resourceVersion") {
            meta.insert("resourceVersion".into(), rv.clone());
        }
        (vec![body], meta)
    };
    // A Table's metadata is a typed ListMeta: an empty `continue` is left out.
    list_meta.retain(|k, v| match k.as_str() {
        "resourceVersion" => true,
        "continue" => v.as_str().is_some_and(|c| !c.is_empty()),
        _ => false,
    });
    let include = query
        .get("includeObject")
        .map_or("Metadata", String::as_str);
    let table = if info.verb == "list" {
        convertor.convert_list_to_table(&info.api_version, &objects, list_meta, include)
    } else {
        convertor.convert_to_table(&info.api_version, &objects, list_meta, include)
    };
    let mut body = serde_json::to_vec(&table)
        .map_err(|e| errors::new_internal_error(format!("writing the table: {e}")))?;
    body.push(b'\n');
    Ok(Reply {
        code: 200,
        content_type: TABLE_CONTENT_TYPE,
        body,
        warnings: reply.warnings,
    })
}

/// `/version`: what kube-apiserver of the release built reports, with this server's build
/// (compatible with the release before it, as Go's default is).
fn previous_minor() -> String {
    KUBERNETES_MINOR.parse::<u32>().map_or_else(
        |_| KUBERNETES_MINOR.to_owned(),
        |m| m.saturating_sub(1).to_string(),
    )
}

fn version_info() -> serde_json::Value {
    serde_json::json!({
        "major": "1",
        "minor": KUBERNETES_MINOR,
        "emulationMajor": "1",
        "emulationMinor": KUBERNETES_MINOR,
        "minCompatibilityMajor": "1",
        "minCompatibilityMinor": previous_minor(),
        "gitVersion": format!("v1.{KUBERNETES_MINOR}.0-kapi.{}", env!("CARGO_PKG_VERSION")),
        "gitCommit": "",
        "gitTreeState": "clean",
        "buildDate": "",
        "goVersion": "",
        "compiler": "rustc",
        "platform": format!("{}/{}", std::env::consts::OS, std::env::consts::ARCH),
    })
}
