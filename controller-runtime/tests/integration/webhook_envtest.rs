//! Admission webhooks end to end: `webhook::Server` handlers called by the in-process
//! API server (envtest) through Mutating/ValidatingWebhookConfigurations, over HTTPS
//! with the server's caBundle — mutation, refusal, a webhook down, too slow or
//! answering garbage under both failure policies, dry run, match conditions,
//! selectors and updates.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use base64::Engine;
use controller_runtime::client::{Client, CreateOptions, Error, ObjectKey};
use controller_runtime::envtest::Environment;
use controller_runtime::webhook::{
    AdmissionRequest, AdmissionResponse, Defaulter, DefaultingHandler, Denied, Handler,
    RunningServer, Server, ValidatingHandler, Validator, Warnings,
};
use k8s_types::admissionregistration::v1::{
    MutatingWebhookConfiguration, ValidatingWebhookConfiguration,
};
use k8s_types::core::v1::{Namespace, Pod};
use serde_json::{Value, json};

struct Labeller;

impl Defaulter<Pod> for Labeller {
    async fn default(&self, req: &AdmissionRequest, pod: &mut Pod) -> Result<(), Denied> {
        pod.metadata
            .labels
            .insert("defaulted".into(), "true".into());
        pod.metadata
            .annotations
            .insert("seen-operation".into(), req.operation.clone());
        Ok(())
    }
}

/// Refuses Pods labelled `forbidden`, on create and update; warns on every create.
struct NoForbidden;

impl Validator<Pod> for NoForbidden {
    async fn validate_create(&self, _: &AdmissionRequest, pod: &Pod) -> Result<Warnings, Denied> {
        if pod.metadata.labels.contains_key("forbidden") {
            return Err(Denied::new("pods labelled forbidden are not welcome"));
        }
        Ok(vec!["checked by no-forbidden".into()])
    }

    async fn validate_update(
        &self,
        _: &AdmissionRequest,
        _old: &Pod,
        pod: &Pod,
    ) -> Result<Warnings, Denied> {
        if pod.metadata.labels.contains_key("forbidden") {
            return Err(Denied::new("no forbidden label, even later"));
        }
        Ok(Warnings::new())
    }
}

/// Answers after five seconds.
struct Slow;

impl Handler for Slow {
    fn handle<'a>(
        &'a self,
        _request: &'a AdmissionRequest,
    ) -> controller_runtime::webhook::admission::HandlerFuture<'a> {
        Box::pin(async {
            tokio::time::sleep(Duration::from_secs(5)).await;
            AdmissionResponse::allowed()
        })
    }
}

struct Certs {
    ca: String,
    cert: String,
    key: String,
}

fn certs() -> Certs {
    let ca_key = rcgen::KeyPair::generate().unwrap();
    let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    let ca = ca_params.self_signed(&ca_key).unwrap();
    let key = rcgen::KeyPair::generate().unwrap();
    let cert = rcgen::CertificateParams::new(vec!["127.0.0.1".to_owned()])
        .unwrap()
        .signed_by(&key, &ca, &ca_key)
        .unwrap();
    Certs {
        ca: ca.pem(),
        cert: cert.pem(),
        key: key.serialize_pem(),
    }
}

async fn webhook_server(certs: &Certs) -> RunningServer {
    let mut scheme = apimachinery::runtime::Scheme::new();
    k8s_types::register(&mut scheme).unwrap();
    let scheme = Arc::new(scheme);
    Server::new(certs.cert.as_bytes(), certs.key.as_bytes())
        .unwrap()
        .register("/mutate", DefaultingHandler::new(scheme.clone(), Labeller))
        .register("/validate", ValidatingHandler::new(scheme, NoForbidden))
        .register("/slow", Slow)
        .start("127.0.0.1:0".parse().unwrap())
        .await
        .unwrap()
}

/// A TLS server answering every request with a 200 whose body is not an
/// AdmissionReview.
async fn garbage_server(certs: &Certs) -> SocketAddr {
    use rustls::pki_types::pem::PemObject;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let chain = rustls::pki_types::CertificateDer::pem_slice_iter(certs.cert.as_bytes())
        .collect::<Result<Vec<_>, _>>()
        .unwrap();
    let key = rustls::pki_types::PrivateKeyDer::from_pem_slice(certs.key.as_bytes()).unwrap();
    let config = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_no_client_auth()
    .with_single_cert(chain, key)
    .unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            let acceptor = acceptor.clone();
            tokio::spawn(async move {
                let Ok(mut tls) = acceptor.accept(tcp).await else {
                    return;
                };
                let mut buf = vec![0u8; 64 * 1024];
                let _ = tls.read(&mut buf).await;
                let body = "<html>surely not JSON</html>";
                let answer = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = tls.write_all(answer.as_bytes()).await;
                let _ = tls.shutdown().await;
            });
        }
    });
    address
}

/// A port nothing listens on.
async fn closed_port() -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    listener.local_addr().unwrap()
}

fn hook(name: &str, url: &str, ca: &str, extra: Value) -> Value {
    let mut hook = json!({
        "name": name,
        "clientConfig": {"url": url,
                         "caBundle": base64::engine::general_purpose::STANDARD.encode(ca)},
        "rules": [{"operations": ["CREATE", "UPDATE"], "apiGroups": [""],
                   "apiVersions": ["v1"], "resources": ["pods"]}],
        "sideEffects": "None",
        "admissionReviewVersions": ["v1"],
        "timeoutSeconds": 2,
    });
    for (k, v) in extra.as_object().unwrap() {
        hook[k] = v.clone();
    }
    hook
}

async fn mutating(client: &Client, name: &str, hooks: Vec<Value>) {
    let config: MutatingWebhookConfiguration = serde_json::from_value(json!({
        "apiVersion": "admissionregistration.k8s.io/v1",
        "kind": "MutatingWebhookConfiguration",
        "metadata": {"name": name},
        "webhooks": hooks,
    }))
    .unwrap();
    client.create(&config, &Default::default()).await.unwrap();
    settle(client).await;
}

/// Waits until a registration (or its removal) applies. The in-process server applies
/// it to the next request; the real kube-apiserver (the one served over https here)
/// reads webhook configurations through an informer, so a change reaches its admission
/// chain a moment after the write: Go's own admission tests wait for it too.
async fn settle(client: &Client) {
    if client.host().starts_with("https://") {
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

async fn validating(client: &Client, name: &str, hooks: Vec<Value>) {
    let config: ValidatingWebhookConfiguration = serde_json::from_value(json!({
        "apiVersion": "admissionregistration.k8s.io/v1",
        "kind": "ValidatingWebhookConfiguration",
        "metadata": {"name": name},
        "webhooks": hooks,
    }))
    .unwrap();
    client.create(&config, &Default::default()).await.unwrap();
    settle(client).await;
}

async fn unregister_mutating(client: &Client, name: &str) {
    let c: MutatingWebhookConfiguration = client.get(&ObjectKey::new("", name)).await.unwrap();
    client.delete(&c, &Default::default()).await.unwrap();
    settle(client).await;
}

fn pod(name: &str, labels: &[(&str, &str)]) -> Pod {
    let mut pod: Pod = serde_json::from_value(json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": "default"},
        "spec": {"containers": [{"name": "c", "image": "nginx:1.27"}]},
    }))
    .unwrap();
    for (k, v) in labels {
        pod.metadata.labels.insert((*k).into(), (*v).into());
    }
    pod
}

fn api_error(e: Error) -> (u16, String) {
    match e {
        Error::Api(api) => (api.code, api.status.message.clone()),
        other => panic!("not an API error: {other}"),
    }
}

async fn exists(client: &Client, name: &str) -> bool {
    match client.get::<Pod>(&ObjectKey::new("default", name)).await {
        Ok(_) => true,
        Err(e) if e.is_not_found() => false,
        Err(e) => panic!("{e}"),
    }
}

async fn setup(env: Environment) -> (Environment, Client, Certs) {
    let client = Client::new(env.config(), env.scheme()).unwrap();
    (env, client, certs())
}

against_both!(
    #[tokio::test]
    mutating_and_validating_webhooks_change_and_refuse_pods
);
async fn mutating_and_validating_webhooks_change_and_refuse_pods(env: Environment) {
    let (_env, client, certs) = setup(env).await;
    let server = webhook_server(&certs).await;
    let base = format!("https://{}", server.local_addr());
    mutating(
        &client,
        "labeller",
        vec![hook(
            "labeller.example.com",
            &format!("{base}/mutate"),
            &certs.ca,
            json!({}),
        )],
    )
    .await;
    validating(
        &client,
        "no-forbidden",
        vec![hook(
            "no-forbidden.example.com",
            &format!("{base}/validate"),
            &certs.ca,
            json!({}),
        )],
    )
    .await;

    let created = client
        .create(&pod("p", &[]), &Default::default())
        .await
        .unwrap();
    assert_eq!(created.metadata.labels["defaulted"], "true");
    assert_eq!(created.metadata.annotations["seen-operation"], "CREATE");
    let stored: Pod = client.get(&ObjectKey::new("default", "p")).await.unwrap();
    assert_eq!(stored.metadata.labels["defaulted"], "true");

    let err = client
        .create(&pod("bad", &[("forbidden", "yes")]), &Default::default())
        .await
        .unwrap_err();
    assert_eq!(
        api_error(err),
        (
            403,
            r#"admission webhook "no-forbidden.example.com" denied the request: pods labelled forbidden are not welcome"#
                .to_owned()
        )
    );
    assert!(!exists(&client, "bad").await, "nothing stored");

    // Updates go through both: the mutation again, then the refusal.
    let mut update = stored.clone();
    update
        .metadata
        .labels
        .insert("forbidden".into(), "now".into());
    let (code, message) = api_error(
        client
            .update(&update, &Default::default())
            .await
            .unwrap_err(),
    );
    assert_eq!(code, 403);
    assert!(
        message.ends_with("no forbidden label, even later"),
        "{message}"
    );
    let again: Pod = client.get(&ObjectKey::new("default", "p")).await.unwrap();
    assert!(!again.metadata.labels.contains_key("forbidden"));
    let mut update = again.clone();
    update.metadata.labels.insert("fine".into(), "yes".into());
    let updated = client.update(&update, &Default::default()).await.unwrap();
    assert_eq!(updated.metadata.annotations["seen-operation"], "UPDATE");

    // Dry run: the webhooks declare no side effects, so they are called and nothing
    // is stored.
    let dry = CreateOptions {
        dry_run: true,
        ..Default::default()
    };
    let answered = client.create(&pod("dry", &[]), &dry).await.unwrap();
    assert_eq!(answered.metadata.labels["defaulted"], "true");
    assert!(!exists(&client, "dry").await);
    server.stop().await;
}

against_both!(
    #[tokio::test]
    failure_policy_decides_when_the_webhook_is_down_slow_or_talks_garbage
);
async fn failure_policy_decides_when_the_webhook_is_down_slow_or_talks_garbage(env: Environment) {
    let external = env.is_external();
    let (_env, client, certs) = setup(env).await;
    let server = webhook_server(&certs).await;
    let garbage = garbage_server(&certs).await;
    let down = closed_port().await;
    let other_ca = certs_ca_only();
    let cases = [
        (
            "down",
            format!("https://{down}/mutate"),
            certs.ca.clone(),
            "failed to call webhook",
        ),
        (
            "slow",
            format!("https://{}/slow", server.local_addr()),
            certs.ca.clone(),
            "context deadline exceeded",
        ),
        (
            "garbage",
            format!("https://{garbage}/"),
            certs.ca.clone(),
            "failed to call webhook: couldn't get version/kind; json parse error: json: cannot unmarshal string",
        ),
        (
            "untrusted",
            format!("https://{}/mutate", server.local_addr()),
            other_ca,
            "tls",
        ),
    ];
    for (i, (what, url, ca, why)) in cases.iter().enumerate() {
        let name = format!("{what}.example.com");
        mutating(
            &client,
            what,
            vec![hook(&name, url, ca, json!({"failurePolicy": "Fail"}))],
        )
        .await;
        let (code, message) = api_error(
            client
                .create(&pod(&format!("fail-{i}"), &[]), &Default::default())
                .await
                .unwrap_err(),
        );
        assert_eq!(code, 500, "{what}: {message}");
        assert!(
            message.starts_with(&format!(
                r#"Internal error occurred: failed calling webhook "{name}": "#
            )),
            "{what}: {message}"
        );
        assert!(message.contains(why), "{what}: {message}");
        assert!(!exists(&client, &format!("fail-{i}")).await);

        // The same configuration changed in place applies to the next request (on the
        // real kube-apiserver, which reads configurations through an informer, within
        // moments).
        let mut config: MutatingWebhookConfiguration =
            client.get(&ObjectKey::new("", *what)).await.unwrap();
        config.webhooks[0].failure_policy = Some("Ignore".into());
        client.update(&config, &Default::default()).await.unwrap();
        let ignored = pod(&format!("ignore-{i}"), &[]);
        let mut created = client.create(&ignored, &Default::default()).await;
        for _ in 0..if external { 100 } else { 0 } {
            if created.is_ok() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
            created = client.create(&ignored, &Default::default()).await;
        }
        let created = created.unwrap();
        assert!(!created.metadata.labels.contains_key("defaulted"), "{what}");
        unregister_mutating(&client, what).await;
    }
    server.stop().await;
}

fn certs_ca_only() -> String {
    certs().ca
}

against_both!(
    #[tokio::test]
    dry_run_side_effects_match_conditions_and_selectors
);
async fn dry_run_side_effects_match_conditions_and_selectors(env: Environment) {
    let (env, client, certs) = setup(env).await;
    let server = webhook_server(&certs).await;
    let url = format!("https://{}/mutate", server.local_addr());

    // admissionregistration.k8s.io/v1 allows only `None` and `NoneOnDryRun` side
    // effects on create: both servers refuse a webhook with side effects (the in-process
    // one validates webhook configurations as Go does), so none can be registered
    // through v1 to refuse a dry run.
    let config: MutatingWebhookConfiguration = serde_json::from_value(json!({
        "metadata": {"name": "effects"},
        "webhooks": [hook("effects.example.com", &url, &certs.ca, json!({"sideEffects": "Some"}))],
    }))
    .unwrap();
    let err = client
        .create(&config, &Default::default())
        .await
        .unwrap_err();
    assert!(err.is_invalid(), "{err}");
    assert!(
        err.to_string()
            .contains("webhooks[0].sideEffects: Unsupported value: \"Some\""),
        "{err}"
    );

    // CEL match conditions are not evaluated: never as if they held.
    let conditions = json!([{"name": "never", "expression": "false"}]);
    mutating(
        &client,
        "cel",
        vec![hook(
            "cel.example.com",
            &url,
            &certs.ca,
            json!({"matchConditions": conditions, "failurePolicy": "Fail"}),
        )],
    )
    .await;
    // Difference: the in-process server evaluates no CEL (the apiserver crate has no
    // CEL interpreter), so a webhook with match conditions fails closed or is ignored
    // by its failure policy; kube-apiserver evaluates `false` and skips the webhook.
    let c1 = client.create(&pod("c1", &[]), &Default::default()).await;
    if env.is_external() {
        assert!(!c1.unwrap().metadata.labels.contains_key("defaulted"));
    } else {
        let (code, message) = api_error(c1.unwrap_err());
        assert_eq!(code, 500);
        assert!(
            message.contains("failed to evaluate match conditions"),
            "{message}"
        );
    }
    unregister_mutating(&client, "cel").await;
    mutating(
        &client,
        "cel",
        vec![hook(
            "cel.example.com",
            &url,
            &certs.ca,
            json!({"matchConditions": conditions, "failurePolicy": "Ignore"}),
        )],
    )
    .await;
    let created = client
        .create(&pod("c2", &[]), &Default::default())
        .await
        .unwrap();
    assert!(!created.metadata.labels.contains_key("defaulted"));
    unregister_mutating(&client, "cel").await;

    // Selectors: only objects labelled `mutate=yes` in namespaces labelled `team=a`.
    let mut ns: Namespace =
        serde_json::from_value(json!({"metadata": {"name": "team-a", "labels": {"team": "a"}}}))
            .unwrap();
    ns.metadata.name = "team-a".into();
    client.create(&ns, &Default::default()).await.unwrap();
    mutating(
        &client,
        "selective",
        vec![hook(
            "selective.example.com",
            &url,
            &certs.ca,
            json!({"namespaceSelector": {"matchLabels": {"team": "a"}},
                   "objectSelector": {"matchExpressions": [{"key": "mutate", "operator": "In", "values": ["yes"]}]}}),
        )],
    )
    .await;
    let in_team = |name: &str, labels: &[(&str, &str)]| {
        let mut p = pod(name, labels);
        p.metadata.namespace = "team-a".into();
        p
    };
    let a = client
        .create(&in_team("a", &[("mutate", "yes")]), &Default::default())
        .await
        .unwrap();
    assert_eq!(a.metadata.labels["defaulted"], "true");
    let b = client
        .create(&in_team("b", &[]), &Default::default())
        .await
        .unwrap();
    assert!(!b.metadata.labels.contains_key("defaulted"));
    let c = client
        .create(&pod("c", &[("mutate", "yes")]), &Default::default())
        .await
        .unwrap();
    assert!(
        !c.metadata.labels.contains_key("defaulted"),
        "default is not team a"
    );
    server.stop().await;
}

/// Records what it is sent and labels the object `recorded=yes` through a JSON patch.
#[derive(Clone, Default)]
struct Recorder(Arc<std::sync::Mutex<Vec<AdmissionRequest>>>);

impl Handler for Recorder {
    fn handle<'a>(
        &'a self,
        request: &'a AdmissionRequest,
    ) -> controller_runtime::webhook::admission::HandlerFuture<'a> {
        Box::pin(async move {
            self.0.lock().unwrap().push(request.clone());
            let Some(original) = request.object.clone() else {
                return AdmissionResponse::allowed();
            };
            let mut changed = original.clone();
            changed["metadata"]["labels"]["recorded"] = json!("yes");
            AdmissionResponse::patched(&original, &changed).with_warnings(vec!["recorded".into()])
        })
    }
}

against_both!(
    #[tokio::test]
    equivalent_versions_get_the_object_converted_and_the_review_is_complete
);
async fn equivalent_versions_get_the_object_converted_and_the_review_is_complete(env: Environment) {
    use k8s_types::autoscaling::v1::HorizontalPodAutoscaler;
    let (env, client, certs) = setup(env).await;
    // Who the client is: the in-process server authenticates nobody; the real
    // kube-apiserver knows envtest's administrator by its token.
    let user = if env.is_external() {
        "envtest-admin"
    } else {
        "system:anonymous"
    };
    let recorder = Recorder::default();
    let server = Server::new(certs.cert.as_bytes(), certs.key.as_bytes())
        .unwrap()
        .register("/record", recorder.clone())
        .start("127.0.0.1:0".parse().unwrap())
        .await
        .unwrap();
    let url = format!("https://{}/record", server.local_addr());
    let rules = json!([{"operations": ["CREATE"], "apiGroups": ["autoscaling"],
                        "apiVersions": ["v2"], "resources": ["horizontalpodautoscalers"]}]);
    mutating(
        &client,
        "exact",
        vec![hook(
            "exact.example.com",
            &url,
            &certs.ca,
            json!({"rules": rules, "matchPolicy": "Exact"}),
        )],
    )
    .await;
    let hpa = |name: &str| -> HorizontalPodAutoscaler {
        serde_json::from_value(json!({
            "apiVersion": "autoscaling/v1", "kind": "HorizontalPodAutoscaler",
            "metadata": {"name": name, "namespace": "default"},
            "spec": {"scaleTargetRef": {"kind": "Deployment", "name": "web", "apiVersion": "apps/v1"},
                     "maxReplicas": 3, "targetCPUUtilizationPercentage": 50},
        }))
        .unwrap()
    };
    // Exact: a v2 rule does not select a v1 request.
    let created = client
        .create(&hpa("exact"), &Default::default())
        .await
        .unwrap();
    assert!(created.metadata.labels.is_empty());
    assert!(recorder.0.lock().unwrap().is_empty());
    unregister_mutating(&client, "exact").await;

    mutating(
        &client,
        "equivalent",
        vec![hook(
            "equivalent.example.com",
            &url,
            &certs.ca,
            json!({"rules": rules}),
        )],
    )
    .await;
    let created = client
        .create(&hpa("equivalent"), &Default::default())
        .await
        .unwrap();
    assert_eq!(
        created.metadata.labels["recorded"], "yes",
        "the v2 patch applied to the v1 request"
    );
    assert_eq!(
        created.spec.target_cpu_utilization_percentage,
        Some(50),
        "nothing lost in conversion"
    );
    let seen = recorder.0.lock().unwrap().clone();
    assert_eq!(seen.len(), 1);
    let r = &seen[0];
    assert_eq!(
        (
            r.kind.group.as_str(),
            r.kind.version.as_str(),
            r.kind.kind.as_str()
        ),
        ("autoscaling", "v2", "HorizontalPodAutoscaler")
    );
    assert_eq!(r.resource.version, "v2");
    let request_kind = r.request_kind.clone().unwrap();
    assert_eq!(request_kind.version, "v1");
    assert_eq!(
        r.request_resource.clone().unwrap().resource,
        "horizontalpodautoscalers"
    );
    assert_eq!(
        (r.operation.as_str(), r.namespace.as_str(), r.name.as_str()),
        ("CREATE", "default", "equivalent")
    );
    assert_eq!(r.user_info.username, user);
    assert!(!r.uid.is_empty());
    assert_eq!(r.dry_run, Some(false));
    assert_eq!(r.options.as_ref().unwrap()["kind"], "CreateOptions");
    let object = r.object.as_ref().unwrap();
    assert_eq!(object["apiVersion"], "autoscaling/v2");
    assert_eq!(
        object["spec"]["metrics"][0]["resource"]["target"]["averageUtilization"], 50,
        "the object in the webhook's version"
    );
    assert!(r.old_object.is_none());
    server.stop().await;
}

against_both!(
    #[tokio::test]
    if_needed_webhooks_are_called_again_after_a_later_change
);
async fn if_needed_webhooks_are_called_again_after_a_later_change(env: Environment) {
    let (_env, client, certs) = setup(env).await;
    let recorder = Recorder::default();
    let mut scheme = apimachinery::runtime::Scheme::new();
    k8s_types::register(&mut scheme).unwrap();
    let server = Server::new(certs.cert.as_bytes(), certs.key.as_bytes())
        .unwrap()
        .register("/record", recorder.clone())
        .register(
            "/mutate",
            DefaultingHandler::new(Arc::new(scheme), Labeller),
        )
        .start("127.0.0.1:0".parse().unwrap())
        .await
        .unwrap();
    let base = format!("https://{}", server.local_addr());
    let calls = |r: &Recorder| r.0.lock().unwrap().len();
    for (policy, expected_calls) in [("Never", 1), ("IfNeeded", 2)] {
        mutating(
            &client,
            "a-record",
            vec![hook(
                "record.example.com",
                &format!("{base}/record"),
                &certs.ca,
                json!({"reinvocationPolicy": policy}),
            )],
        )
        .await;
        mutating(
            &client,
            "b-label",
            vec![hook(
                "label.example.com",
                &format!("{base}/mutate"),
                &certs.ca,
                json!({}),
            )],
        )
        .await;
        let before = calls(&recorder);
        let name = format!("reinvoke-{}", policy.to_lowercase());
        let created = client
            .create(&pod(&name, &[]), &Default::default())
            .await
            .unwrap();
        assert_eq!(calls(&recorder) - before, expected_calls, "{policy}");
        assert_eq!(created.metadata.labels["recorded"], "yes");
        assert_eq!(created.metadata.labels["defaulted"], "true");
        unregister_mutating(&client, "a-record").await;
        unregister_mutating(&client, "b-label").await;
    }
    server.stop().await;
}

against_both!(
    #[tokio::test]
    a_manager_runs_the_webhook_server_until_it_stops
);
async fn a_manager_runs_the_webhook_server_until_it_stops(env: Environment) {
    use controller_runtime::manager::{Manager, ManagerOptions};
    let (env, client, certs) = setup(env).await;
    let address = closed_port().await;
    let server = Server::new(certs.cert.as_bytes(), certs.key.as_bytes())
        .unwrap()
        .bind_address(address)
        .register("/mutate", DefaultingHandler::new(env.scheme(), Labeller));
    let mgr = Arc::new(Manager::new(env.config(), ManagerOptions::new(env.scheme())).unwrap());
    mgr.add(Arc::new(server));
    let stop = tokio_util::sync::CancellationToken::new();
    let running = tokio::spawn({
        let (mgr, stop) = (mgr.clone(), stop.clone());
        async move { mgr.start(async move { stop.cancelled().await }).await }
    });
    let url = format!("https://{address}/mutate");
    mutating(
        &client,
        "managed",
        vec![hook(
            "managed.example.com",
            &url,
            &certs.ca,
            json!({"failurePolicy": "Fail"}),
        )],
    )
    .await;
    // The server may still be binding: a refused call is retried until it answers.
    let mut created = None;
    for i in 0..100 {
        match client
            .create(&pod(&format!("m-{i}"), &[]), &Default::default())
            .await
        {
            Ok(pod) => {
                created = Some(pod);
                break;
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    }
    assert_eq!(created.unwrap().metadata.labels["defaulted"], "true");
    stop.cancel();
    running.await.unwrap().unwrap();
    let (code, message) = api_error(
        client
            .create(&pod("after", &[]), &Default::default())
            .await
            .unwrap_err(),
    );
    assert_eq!(code, 500, "the server stopped with the manager: {message}");
}
