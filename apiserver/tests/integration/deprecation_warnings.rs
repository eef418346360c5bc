//! Deprecated API versions warn as kube-apiserver's do: every request a deprecated
//! built-in kind's routes serve (any verb, tables, watches, errors of the handler)
//! carries `Warning: 299 - "<lifecycle text>"` first, before the handler's own warnings,
//! once; requests refused before a route is found do not; a CRD version marked
//! `deprecated` warns with its text or Go's default, whatever the subresource.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::client::{self, Response, TestServer};

use std::sync::Arc;
use std::time::Duration;

use apiserver::resource_config::ResourceConfig;
use apiserver::server::Config;
use apiserver::storage::MemoryStorage;
use k8s_types::lifecycle::{self, Release};
use serde_json::{Value, json};

const ENDPOINTS: &str = "/api/v1/namespaces/default/endpoints";
const ENDPOINTS_WARNING: &str =
    r#"299 - "v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice""#;
const TABLE: &str = "application/json;as=Table;v=v1;g=meta.k8s.io";

/// A server of every built-in kind, beta versions on, with k8s-types' lifecycle table.
async fn start() -> TestServer {
    let scheme = client::scheme();
    let mut served = ResourceConfig::kube_apiserver_default();
    served
        .apply_runtime_config("api/beta=true", &scheme)
        .unwrap();
    let storage = Arc::new(MemoryStorage::new());
    let server = Config::new(scheme, storage.clone())
        .resource_config(served)
        .deprecated_kinds(lifecycle::deprecated_kinds().collect())
        .serve("127.0.0.1:0".parse().unwrap())
        .await
        .unwrap();
    TestServer { server, storage }
}

fn warnings(r: &Response) -> Vec<&str> {
    r.headers_named("warning")
}

/// The warning kube-apiserver of this build's release sends for `kind`, if any.
fn expected(api_version: &str, kind: &str) -> Option<String> {
    let release: Release = apiserver::RELEASE.parse().unwrap();
    lifecycle::find_api_version(api_version, kind)
        .filter(|l| l.is_deprecated_in(release))
        .map(|l| format!("299 - \"{}\"", l.warning_message()))
}

#[tokio::test]
async fn every_request_of_a_deprecated_kind_warns_once_and_first() {
    let s = start().await;
    let endpoints = json!({"apiVersion": "v1", "kind": "Endpoints",
        "metadata": {"name": "e"}, "subsets": []});
    let r = s.send_json("POST", ENDPOINTS, &endpoints).await;
    assert_eq!((r.status, warnings(&r)), (201, vec![ENDPOINTS_WARNING]));
    for path in [
        format!("{ENDPOINTS}/e"),
        ENDPOINTS.to_owned(),
        "/api/v1/endpoints".to_owned(),
    ] {
        let r = s.get(&path).await;
        assert_eq!(
            (r.status, warnings(&r)),
            (200, vec![ENDPOINTS_WARNING]),
            "{path}"
        );
        let r = s.request("GET", &path, &[("Accept", TABLE)], b"").await;
        assert_eq!(r.json()["kind"], "Table", "{path}");
        assert_eq!(warnings(&r), [ENDPOINTS_WARNING], "{path}");
    }
    // The handler's warnings come after the route's.
    let unknown = json!({"apiVersion": "v1", "kind": "Endpoints",
        "metadata": {"name": "e"}, "subsets": [], "bogus": 1});
    let r = s
        .send_json(
            "PUT",
            &format!("{ENDPOINTS}/e?fieldValidation=Warn"),
            &unknown,
        )
        .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(
        warnings(&r),
        [ENDPOINTS_WARNING, r#"299 - "unknown field \"bogus\"""#]
    );
    // A handler's error warns too; a watch does, in its head.
    let r = s.get(&format!("{ENDPOINTS}/missing")).await;
    assert_eq!((r.status, warnings(&r)), (404, vec![ENDPOINTS_WARNING]));
    let r = s
        .get(&format!("{ENDPOINTS}?watch=true&timeoutSeconds=1"))
        .await;
    assert_eq!((r.status, warnings(&r)), (200, vec![ENDPOINTS_WARNING]));
    let r = s.delete(&format!("{ENDPOINTS}/e")).await;
    assert_eq!((r.status, warnings(&r)), (200, vec![ENDPOINTS_WARNING]));
    let r = s.delete(ENDPOINTS).await;
    assert_eq!((r.status, warnings(&r)), (200, vec![ENDPOINTS_WARNING]));
    // ComponentStatus, deprecated since 1.19.
    let r = s.get("/api/v1/componentstatuses").await;
    assert_eq!(
        warnings(&r),
        [r#"299 - "v1 ComponentStatus is deprecated in v1.19+""#]
    );
}

#[tokio::test]
async fn requests_without_a_route_and_kinds_not_deprecated_do_not_warn() {
    let s = start().await;
    // go-restful refuses these before any handler: no warning.
    for (method, path, headers) in [
        ("GET", format!("{ENDPOINTS}/e/status"), vec![]),
        ("POST", format!("{ENDPOINTS}/e"), vec![]),
        ("GET", ENDPOINTS.to_owned(), vec![("Accept", "text/plain")]),
    ] {
        let r = s.request(method, &path, &headers, b"{}").await;
        assert!(r.status >= 400, "{method} {path}: {}", r.status);
        assert_eq!(warnings(&r), Vec::<&str>::new(), "{method} {path}");
    }
    for path in [
        "/api/v1/namespaces/default/configmaps",
        "/apis/discovery.k8s.io/v1/namespaces/default/endpointslices",
        "/api/v1",
        "/apis",
    ] {
        let r = s.get(path).await;
        assert_eq!((r.status, warnings(&r)), (200, vec![]), "{path}");
    }
}

#[tokio::test]
async fn beta_versions_warn_from_their_deprecation_release() {
    let s = start().await;
    // resource.k8s.io/v1beta2 is deprecated in 1.36; storagemigration.k8s.io/v1beta1 in
    // 1.37 (not yet in 1.36, where it does not warn).
    for (api_version, kind, path) in [
        (
            "resource.k8s.io/v1beta2",
            "DeviceClass",
            "/apis/resource.k8s.io/v1beta2/deviceclasses",
        ),
        (
            "storagemigration.k8s.io/v1beta1",
            "StorageVersionMigration",
            "/apis/storagemigration.k8s.io/v1beta1/storageversionmigrations",
        ),
        (
            "resource.k8s.io/v1",
            "DeviceClass",
            "/apis/resource.k8s.io/v1/deviceclasses",
        ),
    ] {
        let r = s.get(path).await;
        assert_eq!(
            r.status,
            200,
            "{path}: {}",
            String::from_utf8_lossy(&r.body)
        );
        let want: Vec<String> = expected(api_version, kind).into_iter().collect();
        assert_eq!(warnings(&r), want, "{path}");
    }
    assert!(expected("resource.k8s.io/v1beta2", "DeviceClass").is_some());
}

#[tokio::test]
async fn a_deprecated_crd_version_warns_on_every_request() {
    let s = start().await;
    const CRDS: &str = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
    let schema = json!({"openAPIV3Schema": {"type": "object",
        "x-kubernetes-preserve-unknown-fields": true}});
    let crd = json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "gadgets.example.com"},
        "spec": {
            "group": "example.com",
            "scope": "Namespaced",
            "names": {"plural": "gadgets", "singular": "gadget", "kind": "Gadget"},
            "versions": [
                {"name": "v1alpha1", "served": true, "storage": false, "deprecated": true,
                 "deprecationWarning": "gadgets \"v1alpha1\" are going away", "schema": schema},
                {"name": "v1beta1", "served": true, "storage": false, "deprecated": true,
                 "schema": schema},
                {"name": "v1", "served": true, "storage": true, "schema": schema,
                 "subresources": {"status": {}}},
            ],
        },
    });
    let r = s.send_json("POST", CRDS, &crd).await;
    assert_eq!((r.status, warnings(&r)), (201, vec![]));
    let gadgets = |version: &str| format!("/apis/example.com/{version}/namespaces/default/gadgets");
    let mut served = false;
    for _ in 0..200 {
        if s.get(&gadgets("v1")).await.status == 200 {
            served = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(served, "gadgets never served");
    let default = r#"299 - "example.com/v1beta1 Gadget is deprecated; use example.com/v1 Gadget""#;
    let own = r#"299 - "gadgets \"v1alpha1\" are going away""#;
    let gadget: Value = json!({"apiVersion": "example.com/v1beta1", "kind": "Gadget",
        "metadata": {"name": "g"}});
    let r = s.send_json("POST", &gadgets("v1beta1"), &gadget).await;
    assert_eq!((r.status, warnings(&r)), (201, vec![default]));
    let r = s.get(&format!("{}/g", gadgets("v1alpha1"))).await;
    assert_eq!((r.status, warnings(&r)), (200, vec![own]));
    let r = s
        .request("GET", &gadgets("v1beta1"), &[("Accept", TABLE)], b"")
        .await;
    assert_eq!((r.status, warnings(&r)), (200, vec![default]));
    // (Go answers a /status of v1beta1, which declares no subresources, with 404 after
    // the warning; kapi serves one CRD version's subresources for all: not compared here.)
    let r = s.get(&format!("{}/g/status", gadgets("v1"))).await;
    assert_eq!((r.status, warnings(&r)), (200, vec![]));
    let r = s.delete(&format!("{}/g", gadgets("v1alpha1"))).await;
    assert_eq!((r.status, warnings(&r)), (200, vec![own]));
}
