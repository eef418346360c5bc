//! The server's authentication, authorization and admission seams, in process: who a
//! request is from decides whether it is answered (401, 403 with Go's wording) and every
//! create goes through the admission chain before it is stored.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Arc;

use apimachinery::api::errors::StatusError;
use apimachinery::runtime::Scheme;
use apiserver::admission::{self, Chain, MutationInterface, Operation};
use apiserver::authentication::user::Info;
use apiserver::authentication::{AuthenticationError, Authenticator, Request as AuthRequest};
use apiserver::authorization::{Attributes, Authorizer, Decision};
use apiserver::server::{ApiServerHandler, Config};
use apiserver::storage::MemoryStorage;
use axum::body::Body;
use axum::http::Request;
use serde_json::{Value, json};

/// The user a test request names in `X-Test-User`; a request naming `mallory` carries
/// credentials that are not valid.
#[derive(Debug)]
struct HeaderAuthenticator;

#[async_trait::async_trait]
impl Authenticator for HeaderAuthenticator {
    async fn authenticate(
        &self,
        request: &AuthRequest<'_>,
    ) -> Result<Option<Info>, AuthenticationError> {
        match request.headers.get("x-test-user").map(|v| v.to_str()) {
            None => Ok(None),
            Some(Ok("mallory")) => Err(AuthenticationError("forged".into())),
            Some(Ok(name)) => Ok(Some(Info {
                name: name.to_owned(),
                ..Info::default()
            })),
            Some(Err(_)) => Err(AuthenticationError("not text".into())),
        }
    }
}

/// `alice` may do anything with ConfigMaps in `default`, `root` anything at all; nobody
/// else may do anything.
#[derive(Debug)]
struct AliceConfigMaps;

#[async_trait::async_trait]
impl Authorizer for AliceConfigMaps {
    async fn authorize(&self, a: &Attributes) -> (Decision, String) {
        if a.user.name == "root"
            || (a.user.name == "alice" && a.resource == "configmaps" && a.namespace == "default")
        {
            (Decision::Allow, String::new())
        } else {
            (Decision::NoOpinion, String::new())
        }
    }
}

/// Labels every created object with who created it.
#[derive(Debug)]
struct LabelCreator;

#[async_trait::async_trait]
impl MutationInterface for LabelCreator {
    fn handles(&self, operation: Operation) -> bool {
        operation == Operation::Create
    }

    async fn admit(&self, attributes: &mut admission::Attributes) -> Result<(), StatusError> {
        let user = attributes.user.name.clone();
        if let Some(meta) = attributes.object.as_mut().and_then(|o| o.meta_mut()) {
            let mut labels = meta.labels().clone();
            labels.insert("created-by".into(), user);
            meta.set_labels(labels);
        }
        Ok(())
    }
}

async fn handler(anonymous: bool) -> ApiServerHandler {
    let mut scheme = Scheme::new();
    k8s_types::register(&mut scheme).unwrap();
    Config::new(Arc::new(scheme), Arc::new(MemoryStorage::new()))
        .authenticator(Arc::new(HeaderAuthenticator))
        .anonymous_auth(anonymous)
        .authorizer(Arc::new(AliceConfigMaps))
        .admission(Chain::new().with_mutating(Arc::new(LabelCreator)))
        .handler("127.0.0.1:6443")
        .await
        .unwrap()
}

async fn send(
    h: &ApiServerHandler,
    method: &str,
    path: &str,
    user: Option<&str>,
    body: Option<Value>,
) -> (u16, Value) {
    let mut req = Request::builder().method(method).uri(path);
    if let Some(user) = user {
        req = req.header("x-test-user", user);
    }
    let body = match body {
        Some(v) => {
            req = req.header("content-type", "application/json");
            Body::from(serde_json::to_vec(&v).unwrap())
        }
        None => Body::empty(),
    };
    let resp = h.serve_http(req.body(body).unwrap()).await;
    let status = resp.status().as_u16();
    let bytes = axum::body::to_bytes(resp.into_body(), usize::MAX)
        .await
        .unwrap();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

const CM: &str = "/api/v1/namespaces/default/configmaps";

#[tokio::test]
async fn requests_without_valid_credentials_are_refused_with_a_bare_401() {
    let h = handler(false).await;
    for user in [None, Some("mallory")] {
        let (code, status) = send(&h, "GET", CM, user, None).await;
        assert_eq!(code, 401, "{user:?}");
        assert_eq!(status["reason"], "Unauthorized");
        assert_eq!(status["message"], "Unauthorized", "nothing about why");
    }
    // With anonymous requests allowed, no credentials make system:anonymous, whom the
    // authorizer refuses; forged credentials are still refused outright.
    let h = handler(true).await;
    let (code, status) = send(&h, "GET", CM, None, None).await;
    assert_eq!(code, 403);
    assert_eq!(
        status["message"],
        r#"configmaps is forbidden: User "system:anonymous" cannot list resource "configmaps" in API group "" in the namespace "default""#
    );
    assert_eq!(send(&h, "GET", CM, Some("mallory"), None).await.0, 401);
}

#[tokio::test]
async fn refusals_name_user_verb_resource_and_namespace_as_go_does() {
    let h = handler(false).await;
    let (code, status) = send(
        &h,
        "GET",
        "/api/v1/namespaces/b/secrets/token",
        Some("alice"),
        None,
    )
    .await;
    assert_eq!(code, 403);
    assert_eq!(
        status,
        json!({
            "kind": "Status",
            "apiVersion": "v1",
            "metadata": {},
            "status": "Failure",
            "message": "secrets \"token\" is forbidden: User \"alice\" cannot get resource \"secrets\" in API group \"\" in the namespace \"b\"",
            "reason": "Forbidden",
            "details": {"name": "token", "kind": "secrets"},
            "code": 403,
        })
    );
    let (code, status) = send(&h, "GET", "/apis/apps/v1/deployments", Some("alice"), None).await;
    assert_eq!(code, 403);
    assert_eq!(
        status["message"],
        r#"deployments.apps is forbidden: User "alice" cannot list resource "deployments" in API group "apps" at the cluster scope"#
    );
    let (code, status) = send(&h, "GET", "/version", Some("alice"), None).await;
    assert_eq!(code, 403);
    assert_eq!(
        status["message"],
        r#"forbidden: User "alice" cannot get path "/version""#
    );
}

#[tokio::test]
async fn an_allowed_create_goes_through_admission_before_it_is_stored() {
    let h = handler(false).await;
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}});
    let (code, created) = send(&h, "POST", CM, Some("alice"), Some(cm)).await;
    assert_eq!(code, 201, "{created}");
    assert_eq!(created["metadata"]["labels"]["created-by"], "alice");
    let (code, read) = send(&h, "GET", &format!("{CM}/x"), Some("alice"), None).await;
    assert_eq!(code, 200);
    assert_eq!(read["metadata"]["labels"]["created-by"], "alice");
}

/// Path tricks do not reach what the authorizer refused: `..` segments, encoded slashes
/// and dots are not resolved into another namespace or name (Go's request info takes the
/// path segments as they are), over-long names are refused before anything is stored,
/// and no answer carries the protected object.
#[tokio::test]
async fn path_tricks_reach_nothing_the_authorizer_refused_and_store_nothing() {
    let h = handler(false).await;
    let guarded = json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "guarded"}, "data": {"password": "hunter2"}});
    let (code, _) = send(
        &h,
        "POST",
        "/api/v1/namespaces/kube-system/configmaps",
        Some("root"),
        Some(guarded),
    )
    .await;
    assert_eq!(code, 201);
    for path in [
        "/api/v1/namespaces/default/configmaps/../../kube-system/configmaps/guarded",
        "/api/v1/namespaces/default/../kube-system/configmaps/guarded",
        "/api/v1/namespaces/default%2F..%2Fkube-system/configmaps/guarded",
        "/api/v1/namespaces/default/configmaps/..%2F..%2Fkube-system%2Fconfigmaps%2Fguarded",
        "/api/v1/namespaces/default/configmaps/%2E%2E/guarded",
        "/api/v1/namespaces/kube-system/configmaps/guarded/",
        "/api/v1//namespaces/kube-system/configmaps/guarded",
    ] {
        let (code, body) = send(&h, "GET", path, Some("alice"), None).await;
        assert!(
            code == 403 || code == 404 || code == 405,
            "{path}: {code} {body}"
        );
        assert_eq!(body["kind"], "Status", "{path}: {body}");
        assert!(!body.to_string().contains("hunter2"), "{path}: {body}");
    }
    // A name past 253 characters is refused (422) and nothing is stored; reading one is
    // a plain 404.
    let long = "a".repeat(300);
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": long}});
    let (code, status) = send(&h, "POST", CM, Some("alice"), Some(cm)).await;
    assert_eq!(code, 422, "{status}");
    assert_eq!(status["reason"], "Invalid");
    let (code, _) = send(&h, "GET", &format!("{CM}/{long}"), Some("alice"), None).await;
    assert_eq!(code, 404);
    // Names with a slash or dots cannot be made to collide with paths either.
    for name in ["..", ".", "a%2Fb"] {
        let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}});
        let (code, status) = send(&h, "POST", CM, Some("alice"), Some(cm)).await;
        assert_eq!(code, 422, "{name}: {status}");
    }
    let (code, list) = send(&h, "GET", CM, Some("alice"), None).await;
    assert_eq!(code, 200);
    assert_eq!(list["items"], json!([]), "nothing stored: {list}");
}
