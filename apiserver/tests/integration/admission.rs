//! Admission on every write, in process: update, patch, `/status`, `/scale` and delete
//! go through the chain (plugins see the old and new objects, their refusal stores
//! nothing, their changes are stored), and the built-in `NamespaceLifecycle` plugin
//! answers as Go's does.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::{Arc, Mutex};

use apimachinery::api::errors::{self, StatusError};
use apimachinery::runtime::Scheme;
use apiserver::admission::plugins::{self, PluginSelection};
use apiserver::admission::{self, Chain, MutationInterface, Operation, ValidationInterface};
use apiserver::server::{ApiServerHandler, Config};
use apiserver::storage::MemoryStorage;
use axum::body::Body;
use axum::http::Request;
use serde_json::{Value, json};

/// What the plugins saw: operation, kind, subresource, name, whether there was an
/// object and an old object.
type Seen = Arc<Mutex<Vec<(Operation, String, String, String, bool, bool)>>>;

/// Labels every updated object `touched=yes` and records what it saw.
#[derive(Debug)]
struct Toucher(Seen);

#[async_trait::async_trait]
impl MutationInterface for Toucher {
    fn handles(&self, _operation: Operation) -> bool {
        true
    }

    async fn admit(&self, a: &mut admission::Attributes) -> Result<(), StatusError> {
        self.0.lock().unwrap().push((
            a.operation,
            a.kind.kind.to_string(),
            a.subresource.clone(),
            a.name.clone(),
            a.object.is_some(),
            a.old_object.is_some(),
        ));
        if a.operation == Operation::Update && a.kind.kind != "Scale" {
            if let Some(meta) = a.object.as_mut().and_then(|o| o.meta_mut()) {
                let mut labels = meta.labels();
                labels.insert("touched".into(), "yes".into());
                meta.set_labels(labels);
            }
        }
        a.reports.add_warning("seen by the toucher");
        Ok(())
    }
}

/// Refuses writes of objects (new or, on delete, old) labelled `locked=true`, and
/// scales above 5 replicas.
#[derive(Debug)]
struct Locks;

#[async_trait::async_trait]
impl ValidationInterface for Locks {
    fn handles(&self, operation: Operation) -> bool {
        operation != Operation::Create
    }

    async fn validate(&self, a: &admission::Attributes) -> Result<(), StatusError> {
        let obj = a.object.as_ref().or(a.old_object.as_ref()).unwrap();
        let v = apiserver::registry::to_json(&**obj)?;
        let locked = v.pointer("/metadata/labels/locked") == Some(&json!("true"));
        let too_big =
            a.kind.kind == "Scale" && v.pointer("/spec/replicas").and_then(Value::as_i64) > Some(5);
        if locked || too_big {
            return Err(errors::new_forbidden(
                &a.resource.group_resource(),
                &a.name,
                "locked",
            ));
        }
        Ok(())
    }
}

async fn handler(seen: &Seen) -> ApiServerHandler {
    let mut scheme = Scheme::new();
    k8s_types::register(&mut scheme).unwrap();
    Config::new(Arc::new(scheme), Arc::new(MemoryStorage::new()))
        .admission(
            Chain::new()
                .with_mutating(Arc::new(Toucher(seen.clone())))
                .with_validating(Arc::new(Locks)),
        )
        .handler("127.0.0.1:6443")
        .await
        .unwrap()
}

async fn send(
    h: &ApiServerHandler,
    method: &str,
    path: &str,
    content_type: &str,
    body: Option<Value>,
) -> (u16, Value, Vec<String>) {
    let mut req = Request::builder().method(method).uri(path);
    let body = match body {
        Some(v) => {
            req = req.header("content-type", content_type);
            Body::from(serde_json::to_vec(&v).unwrap())
        }
        None => Body::empty(),
    };
    let resp = h.serve_http(req.body(body).unwrap()).await;
    let status = resp.status().as_u16();
    let warnings = resp
        .headers()
        .get_all("warning")
        .iter()
        .map(|v| v.to_str().unwrap().to_owned())
        .collect();
    let bytes = axum::body::to_bytes(resp.into_body(), usize::MAX)
        .await
        .unwrap();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        warnings,
    )
}

const JSON: &str = "application/json";
const MERGE: &str = "application/merge-patch+json";
const DEPLOY: &str = "/apis/apps/v1/namespaces/default/deployments";

fn deployment(name: &str, labels: Value) -> Value {
    json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": name, "labels": labels},
        "spec": {
            "replicas": 1,
            "selector": {"matchLabels": {"app": name}},
            "template": {"metadata": {"labels": {"app": name}},
                         "spec": {"containers": [{"name": "c", "image": "nginx"}]}},
        },
    })
}

#[tokio::test]
async fn update_patch_status_and_scale_are_admitted_and_refusals_store_nothing() {
    let seen = Seen::default();
    let h = handler(&seen).await;
    let (code, created, _) = send(&h, "POST", DEPLOY, JSON, Some(deployment("d", json!({})))).await;
    assert_eq!(code, 201, "{created}");
    let item = format!("{DEPLOY}/d");

    // PUT: the mutation is stored, the warning reaches the client.
    let mut put = created.clone();
    put["metadata"]["annotations"] = json!({"a": "1"});
    let (code, updated, warnings) = send(&h, "PUT", &item, JSON, Some(put)).await;
    assert_eq!(code, 200, "{updated}");
    assert_eq!(updated["metadata"]["labels"]["touched"], "yes");
    assert_eq!(warnings, [r#"299 - "seen by the toucher""#]);

    // A refused PUT, patch and /status write leave the object as it was.
    let before = send(&h, "GET", &item, JSON, None).await.1;
    let mut locked = before.clone();
    locked["metadata"]["labels"]["locked"] = json!("true");
    let (code, status, _) = send(&h, "PUT", &item, JSON, Some(locked.clone())).await;
    assert_eq!(code, 403, "{status}");
    assert_eq!(
        status["message"],
        r#"deployments.apps "d" is forbidden: locked"#
    );
    let patch = json!({"metadata": {"labels": {"locked": "true"}}});
    assert_eq!(
        send(&h, "PATCH", &item, MERGE, Some(patch.clone())).await.0,
        403
    );
    assert_eq!(
        send(&h, "PATCH", &format!("{item}/status"), MERGE, Some(patch))
            .await
            .0,
        403
    );
    assert_eq!(
        send(&h, "PUT", &format!("{item}/status"), JSON, Some(locked))
            .await
            .0,
        403
    );
    assert_eq!(send(&h, "GET", &item, JSON, None).await.1, before);

    // /scale: the plugins see autoscaling/v1 Scale objects.
    let scale = json!({"apiVersion": "autoscaling/v1", "kind": "Scale",
                       "metadata": {"name": "d", "namespace": "default"},
                       "spec": {"replicas": 9}});
    let (code, _, _) = send(&h, "PUT", &format!("{item}/scale"), JSON, Some(scale)).await;
    assert_eq!(code, 403);
    let (code, _, _) = send(
        &h,
        "PATCH",
        &format!("{item}/scale"),
        MERGE,
        Some(json!({"spec": {"replicas": 6}})),
    )
    .await;
    assert_eq!(code, 403);
    assert_eq!(send(&h, "GET", &item, JSON, None).await.1, before);
    let (code, scaled, _) = send(
        &h,
        "PATCH",
        &format!("{item}/scale"),
        MERGE,
        Some(json!({"spec": {"replicas": 3}})),
    )
    .await;
    assert_eq!(code, 200, "{scaled}");
    assert_eq!(
        send(&h, "GET", &item, JSON, None).await.1["spec"]["replicas"],
        3
    );

    let seen = seen.lock().unwrap().clone();
    let kinds: Vec<(Operation, &str, &str, bool, bool)> = seen
        .iter()
        .map(|(op, kind, sub, _, obj, old)| (*op, kind.as_str(), sub.as_str(), *obj, *old))
        .collect();
    assert!(kinds.contains(&(Operation::Update, "Deployment", "", true, true)));
    assert!(kinds.contains(&(Operation::Update, "Deployment", "status", true, true)));
    assert!(kinds.contains(&(Operation::Update, "Scale", "scale", true, true)));
}

#[tokio::test]
async fn deletes_are_admitted_with_the_old_object_and_refusals_delete_nothing() {
    let seen = Seen::default();
    let h = handler(&seen).await;
    let cm = |name: &str, labels: Value| json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name, "labels": labels}});
    let cms = "/api/v1/namespaces/default/configmaps";
    send(
        &h,
        "POST",
        cms,
        JSON,
        Some(cm("kept", json!({"locked": "true"}))),
    )
    .await;
    send(&h, "POST", cms, JSON, Some(cm("gone", json!({})))).await;
    let (code, status, _) = send(&h, "DELETE", &format!("{cms}/kept"), JSON, None).await;
    assert_eq!(code, 403, "{status}");
    assert_eq!(
        send(&h, "GET", &format!("{cms}/kept"), JSON, None).await.0,
        200
    );
    let (code, _, warnings) = send(&h, "DELETE", &format!("{cms}/gone"), JSON, None).await;
    assert_eq!(code, 200);
    assert_eq!(warnings.len(), 1);
    assert_eq!(
        send(&h, "GET", &format!("{cms}/gone"), JSON, None).await.0,
        404
    );
    // A collection delete is one admitted delete per object: the locked one stays.
    send(&h, "POST", cms, JSON, Some(cm("other", json!({})))).await;
    let (code, _, _) = send(&h, "DELETE", cms, JSON, None).await;
    assert_eq!(code, 403);
    assert_eq!(
        send(&h, "GET", &format!("{cms}/kept"), JSON, None).await.0,
        200
    );
    let seen = seen.lock().unwrap().clone();
    assert!(seen.contains(&(
        Operation::Delete,
        "ConfigMap".into(),
        String::new(),
        "gone".into(),
        false,
        true
    )));
}

#[tokio::test]
async fn namespace_lifecycle_answers_as_go() {
    let h = handler(&Seen::default()).await;
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}});
    let (code, status, _) = send(
        &h,
        "POST",
        "/api/v1/namespaces/nowhere/configmaps",
        JSON,
        Some(cm.clone()),
    )
    .await;
    assert_eq!(code, 404);
    assert_eq!(status["message"], r#"namespaces "nowhere" not found"#);

    for ns in ["default", "kube-system", "kube-public"] {
        let (code, status, _) = send(
            &h,
            "DELETE",
            &format!("/api/v1/namespaces/{ns}"),
            JSON,
            None,
        )
        .await;
        assert_eq!(code, 403);
        assert_eq!(
            status["message"],
            format!(r#"namespaces "{ns}" is forbidden: this namespace may not be deleted"#)
        );
        assert_eq!(status["reason"], "Forbidden");
    }
    // kube-node-lease is not immortal.
    let (code, _, _) = send(
        &h,
        "DELETE",
        "/api/v1/namespaces/kube-node-lease",
        JSON,
        None,
    )
    .await;
    assert_eq!(code, 200);

    // A namespace held by a finalizer is terminating: nothing new goes in it, what is
    // there may still change.
    let ns = json!({"apiVersion": "v1", "kind": "Namespace",
                    "metadata": {"name": "ending", "finalizers": ["example.com/hold"]}});
    assert_eq!(
        send(&h, "POST", "/api/v1/namespaces", JSON, Some(ns))
            .await
            .0,
        201
    );
    let cms = "/api/v1/namespaces/ending/configmaps";
    assert_eq!(send(&h, "POST", cms, JSON, Some(cm.clone())).await.0, 201);
    assert_eq!(
        send(&h, "DELETE", "/api/v1/namespaces/ending", JSON, None)
            .await
            .0,
        200
    );
    let other = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "y"}});
    let (code, status, _) = send(&h, "POST", cms, JSON, Some(other)).await;
    assert_eq!(code, 403, "{status}");
    assert_eq!(
        status["message"],
        r#"configmaps "y" is forbidden: unable to create new content in namespace ending because it is being terminated"#
    );
    assert_eq!(
        status["details"]["causes"][0]["reason"],
        "NamespaceTerminating"
    );
    assert_eq!(
        status["details"]["causes"][0]["field"],
        "metadata.namespace"
    );
    // What is in it stays until the namespace controller deletes it (kube-apiserver
    // does not delete it itself).
    assert_eq!(
        send(&h, "GET", &format!("{cms}/x"), JSON, None).await.0,
        200,
        "contents stay while the namespace terminates"
    );
}

/// When armed, the next update it admits writes the same object itself first (as
/// another client would between the read and the write), labelling it `racer=won-N`.
#[derive(Debug, Default)]
struct Racer {
    server: std::sync::OnceLock<Arc<ApiServerHandler>>,
    armed: Mutex<bool>,
    updates: Mutex<usize>,
}

#[async_trait::async_trait]
impl MutationInterface for Racer {
    fn handles(&self, operation: Operation) -> bool {
        operation == Operation::Update
    }

    async fn admit(&self, _a: &mut admission::Attributes) -> Result<(), StatusError> {
        let n = {
            let mut n = self.updates.lock().unwrap();
            *n += 1;
            *n
        };
        let armed = std::mem::take(&mut *self.armed.lock().unwrap());
        if armed {
            let h = self.server.get().unwrap();
            let patch = json!({"metadata": {"labels": {"racer": format!("won-{n}")}}});
            let (code, body, _) = send(
                h,
                "PATCH",
                "/api/v1/namespaces/default/configmaps/raced",
                MERGE,
                Some(patch),
            )
            .await;
            assert_eq!(code, 200, "{body}");
        }
        Ok(())
    }
}

#[tokio::test]
async fn a_write_between_read_and_store_makes_admission_run_again_on_the_new_object() {
    let racer = Arc::new(Racer::default());
    let mut scheme = Scheme::new();
    k8s_types::register(&mut scheme).unwrap();
    let h = Arc::new(
        Config::new(Arc::new(scheme), Arc::new(MemoryStorage::new()))
            .admission(Chain::new().with_mutating(racer.clone()))
            .handler("127.0.0.1:6443")
            .await
            .unwrap(),
    );
    racer.server.set(h.clone()).unwrap();
    let cms = "/api/v1/namespaces/default/configmaps";
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "raced"}});
    assert_eq!(send(&h, "POST", cms, JSON, Some(cm)).await.0, 201);

    // A patch without resourceVersion is admitted again on the object the racer wrote,
    // and both changes are kept.
    *racer.armed.lock().unwrap() = true;
    let patch = json!({"data": {"mine": "yes"}});
    let (code, patched, _) = send(&h, "PATCH", &format!("{cms}/raced"), MERGE, Some(patch)).await;
    assert_eq!(code, 200, "{patched}");
    assert_eq!(patched["metadata"]["labels"]["racer"], "won-1");
    assert_eq!(patched["data"]["mine"], "yes");
    // The outer patch, the racer's own, the outer patch again.
    assert_eq!(*racer.updates.lock().unwrap(), 3);

    // With a resourceVersion, the race is the client's conflict: 409, nothing stored.
    *racer.armed.lock().unwrap() = true;
    let current = send(&h, "GET", &format!("{cms}/raced"), JSON, None).await.1;
    let mut put = current.clone();
    put["data"]["put"] = json!("yes");
    let (code, status, _) = send(&h, "PUT", &format!("{cms}/raced"), JSON, Some(put)).await;
    assert_eq!(code, 409, "{status}");
    assert_eq!(
        status["message"],
        r#"Operation cannot be fulfilled on configmaps "raced": the object has been modified; please apply your changes to the latest version and try again"#
    );
    let after = send(&h, "GET", &format!("{cms}/raced"), JSON, None).await.1;
    assert!(after["data"].get("put").is_none());
}

#[tokio::test]
async fn a_failing_webhook_selecting_everything_can_still_be_removed() {
    let h = handler(&Seen::default()).await;
    let path = "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations";
    let config = json!({
        "apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingWebhookConfiguration",
        "metadata": {"name": "everything"},
        "webhooks": [{
            "name": "everything.example.com",
            // Nothing listens on port 1.
            "clientConfig": {"url": "https://127.0.0.1:1/", "caBundle": "Zm9v"},
            "rules": [{"operations": ["*"], "apiGroups": ["*"], "apiVersions": ["*"], "resources": ["*/*"]}],
            "failurePolicy": "Fail", "sideEffects": "None", "admissionReviewVersions": ["v1"],
        }],
    });
    assert_eq!(send(&h, "POST", path, JSON, Some(config)).await.0, 201);
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}});
    let (code, status, _) = send(
        &h,
        "POST",
        "/api/v1/namespaces/default/configmaps",
        JSON,
        Some(cm.clone()),
    )
    .await;
    assert_eq!(code, 500, "{status}");
    assert!(
        status["message"].as_str().unwrap().starts_with(
            r#"Internal error occurred: failed calling webhook "everything.example.com": "#
        ),
        "{status}"
    );
    assert_eq!(
        send(&h, "DELETE", &format!("{path}/everything"), JSON, None)
            .await
            .0,
        200
    );
    let (code, _, _) = send(
        &h,
        "POST",
        "/api/v1/namespaces/default/configmaps",
        JSON,
        Some(cm),
    )
    .await;
    assert_eq!(code, 201);
}

async fn default_plugins_handler(plugins: PluginSelection) -> ApiServerHandler {
    let mut scheme = Scheme::new();
    k8s_types::register(&mut scheme).unwrap();
    Config::new(Arc::new(scheme), Arc::new(MemoryStorage::new()))
        .admission_plugins(plugins)
        .handler("127.0.0.1:6443")
        .await
        .unwrap()
}

const PODS: &str = "/api/v1/namespaces/default/pods";

fn pod(name: &str) -> Value {
    json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name},
        "spec": {"containers": [{"name": "c", "image": "nginx"}]}})
}

/// kube-apiserver's default plugins: a Pod waits for its namespace's `default` account
/// and is refused without it; with it, it runs as it with the token volume mounted.
#[tokio::test]
async fn service_account_admission_is_on_by_default_as_in_kube_apiserver() {
    let h = default_plugins_handler(PluginSelection::new()).await;
    let (code, status, _) = send(&h, "POST", PODS, JSON, Some(pod("early"))).await;
    assert_eq!(code, 403, "{status}");
    assert_eq!(
        status["message"],
        r#"pods "early" is forbidden: error looking up service account default/default: serviceaccount "default" not found"#
    );
    let account =
        json!({"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "default"}});
    let (code, _, _) = send(
        &h,
        "POST",
        "/api/v1/namespaces/default/serviceaccounts",
        JSON,
        Some(account),
    )
    .await;
    assert_eq!(code, 201);
    let (code, created, _) = send(&h, "POST", PODS, JSON, Some(pod("web"))).await;
    assert_eq!(code, 201, "{created}");
    assert_eq!(created["spec"]["serviceAccountName"], "default");
    let volume = &created["spec"]["volumes"][0];
    let name = volume["name"].as_str().unwrap();
    assert!(name.starts_with("kube-api-access-"), "{volume}");
    assert_eq!(volume["projected"]["defaultMode"], 420);
    assert_eq!(
        created["spec"]["containers"][0]["volumeMounts"][0],
        json!({"name": name, "readOnly": true,
            "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount"})
    );
}

/// Disabled, as envtest runs it: no account needed, nothing mounted.
#[tokio::test]
async fn service_account_admission_can_be_disabled() {
    let plugins = PluginSelection::new().disable([plugins::SERVICE_ACCOUNT]);
    let h = default_plugins_handler(plugins).await;
    let (code, created, _) = send(&h, "POST", PODS, JSON, Some(pod("web"))).await;
    assert_eq!(code, 201, "{created}");
    assert_eq!(created["spec"].get("serviceAccountName"), None);
    assert_eq!(created["spec"].get("volumes"), None);
}

/// An Ingress without a class gets the default IngressClass through the server.
#[tokio::test]
async fn default_ingress_class_admission_names_the_default_class() {
    let h = default_plugins_handler(PluginSelection::new()).await;
    let class = json!({"apiVersion": "networking.k8s.io/v1", "kind": "IngressClass",
        "metadata": {"name": "nginx",
            "annotations": {"ingressclass.kubernetes.io/is-default-class": "true"}},
        "spec": {"controller": "example.com/nginx"}});
    let (code, _, _) = send(
        &h,
        "POST",
        "/apis/networking.k8s.io/v1/ingressclasses",
        JSON,
        Some(class),
    )
    .await;
    assert_eq!(code, 201);
    let ingress = json!({"apiVersion": "networking.k8s.io/v1", "kind": "Ingress",
        "metadata": {"name": "web"},
        "spec": {"defaultBackend": {"service": {"name": "web", "port": {"number": 80}}}}});
    let (code, created, _) = send(
        &h,
        "POST",
        "/apis/networking.k8s.io/v1/namespaces/default/ingresses",
        JSON,
        Some(ingress),
    )
    .await;
    assert_eq!(code, 201, "{created}");
    assert_eq!(created["spec"]["ingressClassName"], "nginx");
}

/// A plugin name kube-apiserver does not know stops the server with Go's error.
#[tokio::test]
async fn an_unknown_plugin_name_is_gos_error() {
    let mut scheme = Scheme::new();
    k8s_types::register(&mut scheme).unwrap();
    let err = Config::new(Arc::new(scheme), Arc::new(MemoryStorage::new()))
        .admission_plugins(PluginSelection::new().disable(["ServiceAcount"]))
        .handler("127.0.0.1:6443")
        .await
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        r#"disable-admission-plugins plugin "ServiceAcount" is unknown"#
    );
}
