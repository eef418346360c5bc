//! RBAC end to end through the server: who a request is from (a bearer token naming the
//! user, the test's stand-in for real authentication) decides what it may do by the
//! Roles and bindings stored; refusals carry Go's wording; nobody grants what they do
//! not hold; the access reviews answer `kubectl auth can-i`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

use std::process::Command;
use std::sync::Arc;

use apimachinery::runtime::Scheme;
use apiserver::admission::Chain;
use apiserver::authentication::user::{ALL_AUTHENTICATED, Info, SYSTEM_PRIVILEGED_GROUP};
use apiserver::authentication::{AuthenticationError, Authenticator, Request as AuthRequest};
use apiserver::authorization::rbac::{Rbac, bootstrap};
use apiserver::authorization::{Authorizer, Named, PrivilegedGroups, Union};
use apiserver::registry::rbac::escalation::EscalationCheck;
use apiserver::server::{ApiServerHandler, Config};
use apiserver::storage::{MemoryStorage, Storage};
use axum::body::Body;
use axum::http::Request;
use serde_json::{Value, json};

/// `Authorization: Bearer NAME` is user NAME in `system:authenticated`; `root` is also
/// in `system:masters`. kubectl sends no token over plain HTTP, so a request of it with
/// `Impersonate-User` (`kubectl --as NAME`) is from `kubectl`, in `system:masters`, which
/// the server's impersonation then serves as NAME.
#[derive(Debug)]
struct NameTokens;

#[async_trait::async_trait]
impl Authenticator for NameTokens {
    async fn authenticate(
        &self,
        request: &AuthRequest<'_>,
    ) -> Result<Option<Info>, AuthenticationError> {
        let token = if let Some(value) = request.headers.get("authorization") {
            value
                .to_str()
                .ok()
                .and_then(|v| v.strip_prefix("Bearer "))
                .ok_or_else(|| AuthenticationError("not a bearer token".into()))?
        } else if request.headers.contains_key("impersonate-user") {
            "kubectl"
        } else {
            return Ok(None);
        };
        let mut groups = vec![ALL_AUTHENTICATED.to_owned()];
        if token == "root" || token == "kubectl" {
            groups.push(SYSTEM_PRIVILEGED_GROUP.to_owned());
        }
        Ok(Some(Info {
            name: token.to_owned(),
            groups,
            ..Info::default()
        }))
    }
}

async fn config() -> Config {
    config_on(Arc::new(MemoryStorage::new())).await
}

async fn config_on(storage: Arc<dyn Storage>) -> Config {
    let mut scheme = Scheme::new();
    k8s_types::register(&mut scheme).unwrap();
    let scheme = Arc::new(scheme);
    bootstrap::ensure(&scheme, &storage).await.unwrap();
    let rbac = Rbac::new(scheme.clone(), storage.clone());
    let authorizer: Arc<dyn Authorizer> = Arc::new(
        Union::new(vec![
            Named::new(Named::PRIVILEGED_GROUPS, Arc::new(PrivilegedGroups)),
            Named::new("rbac", rbac.clone()),
        ])
        .unwrap(),
    );
    Config::new(scheme, storage)
        .authenticator(Arc::new(NameTokens))
        .authorizer(authorizer.clone())
        .admission(Chain::new().with_validating(Arc::new(EscalationCheck::new(rbac, authorizer))))
}

async fn server() -> ApiServerHandler {
    config().await.handler("127.0.0.1:6443").await.unwrap()
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
        req = req.header("authorization", format!("Bearer {user}"));
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

const RBAC: &str = "/apis/rbac.authorization.k8s.io/v1";

fn rule(verbs: &[&str], resources: &[&str]) -> Value {
    json!({"verbs": verbs, "apiGroups": [""], "resources": resources})
}

fn binding(name: &str, kind: &str, role: &str, user: &str) -> Value {
    json!({"metadata": {"name": name}, "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": kind, "name": role},
           "subjects": [{"kind": "User", "apiGroup": "rbac.authorization.k8s.io", "name": user}]})
}

async fn create(h: &ApiServerHandler, user: &str, path: &str, body: Value) -> (u16, Value) {
    send(h, "POST", path, Some(user), Some(body)).await
}

/// Namespaces `a` and `b`, a secret in each, and alice allowed to read Secrets in `a`.
async fn alice_reads_secrets_in_a() -> ApiServerHandler {
    let h = server().await;
    for ns in ["a", "b"] {
        assert_eq!(
            create(
                &h,
                "root",
                "/api/v1/namespaces",
                json!({"metadata": {"name": ns}})
            )
            .await
            .0,
            201
        );
        let secret = json!({"metadata": {"name": "token"}, "stringData": {"k": "v"}});
        assert_eq!(
            create(
                &h,
                "root",
                &format!("/api/v1/namespaces/{ns}/secrets"),
                secret
            )
            .await
            .0,
            201
        );
    }
    let role = json!({"metadata": {"name": "secret-reader"}, "rules": [rule(&["get", "list"], &["secrets"])]});
    assert_eq!(
        create(&h, "root", &format!("{RBAC}/namespaces/a/roles"), role)
            .await
            .0,
        201
    );
    let (code, body) = create(
        &h,
        "root",
        &format!("{RBAC}/namespaces/a/rolebindings"),
        binding("alice", "Role", "secret-reader", "alice"),
    )
    .await;
    assert_eq!(code, 201, "{body}");
    h
}

#[tokio::test]
async fn a_user_bound_in_one_namespace_cannot_read_secrets_in_another_or_cluster_wide() {
    let h = alice_reads_secrets_in_a().await;
    // Created just before: in force at once.
    let (code, _) = send(
        &h,
        "GET",
        "/api/v1/namespaces/a/secrets/token",
        Some("alice"),
        None,
    )
    .await;
    assert_eq!(code, 200);
    assert_eq!(
        send(
            &h,
            "GET",
            "/api/v1/namespaces/a/secrets",
            Some("alice"),
            None
        )
        .await
        .0,
        200
    );
    let (code, status) = send(
        &h,
        "GET",
        "/api/v1/namespaces/b/secrets/token",
        Some("alice"),
        None,
    )
    .await;
    assert_eq!(code, 403);
    assert_eq!(status["reason"], "Forbidden");
    assert_eq!(
        status["message"],
        r#"secrets "token" is forbidden: User "alice" cannot get resource "secrets" in API group "" in the namespace "b""#
    );
    assert_eq!(
        status["details"],
        json!({"name": "token", "kind": "secrets"})
    );
    let (code, status) = send(&h, "GET", "/api/v1/secrets", Some("alice"), None).await;
    assert_eq!(code, 403);
    assert_eq!(
        status["message"],
        r#"secrets is forbidden: User "alice" cannot list resource "secrets" in API group "" at the cluster scope"#
    );
    // Nor write what she may read.
    let (code, _) = send(
        &h,
        "DELETE",
        "/api/v1/namespaces/a/secrets/token",
        Some("alice"),
        None,
    )
    .await;
    assert_eq!(code, 403);
    // Deleting the binding takes the right away at once.
    assert_eq!(
        send(
            &h,
            "DELETE",
            &format!("{RBAC}/namespaces/a/rolebindings/alice"),
            Some("root"),
            None
        )
        .await
        .0,
        200
    );
    assert_eq!(
        send(
            &h,
            "GET",
            "/api/v1/namespaces/a/secrets/token",
            Some("alice"),
            None
        )
        .await
        .0,
        403
    );
}

#[tokio::test]
async fn a_user_cannot_grant_themself_a_cluster_role_they_do_not_hold() {
    let h = alice_reads_secrets_in_a().await;
    // alice may manage RoleBindings in `a` (as `admin` would let her), but not more.
    let manager = json!({"metadata": {"name": "binding-manager"}, "rules": [
        {"verbs": ["create", "get"], "apiGroups": ["rbac.authorization.k8s.io"], "resources": ["rolebindings", "roles"]}]});
    assert_eq!(
        create(&h, "root", &format!("{RBAC}/namespaces/a/roles"), manager)
            .await
            .0,
        201
    );
    assert_eq!(
        create(
            &h,
            "root",
            &format!("{RBAC}/namespaces/a/rolebindings"),
            binding("alice-manages", "Role", "binding-manager", "alice")
        )
        .await
        .0,
        201
    );

    let (code, status) = create(
        &h,
        "alice",
        &format!("{RBAC}/namespaces/a/rolebindings"),
        binding("escalate", "ClusterRole", "cluster-admin", "alice"),
    )
    .await;
    assert_eq!(code, 403, "{status}");
    assert_eq!(status["reason"], "Forbidden");
    let message = status["message"].as_str().unwrap();
    assert!(
        message.starts_with(r#"rolebindings.rbac.authorization.k8s.io "escalate" is forbidden: user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:"#),
        "{message}"
    );
    assert!(
        message.contains(r#"{APIGroups:["*"], Resources:["*"], Verbs:["*"]}"#),
        "{message}"
    );
    assert_eq!(
        send(
            &h,
            "GET",
            &format!("{RBAC}/namespaces/a/rolebindings/escalate"),
            Some("root"),
            None
        )
        .await
        .0,
        404,
        "nothing stored"
    );

    // A Role with rules she does not hold is refused, naming exactly what is missing.
    let greedy =
        json!({"metadata": {"name": "greedy"}, "rules": [rule(&["get", "delete"], &["secrets"])]});
    let (code, status) = create(&h, "alice", &format!("{RBAC}/namespaces/a/roles"), greedy).await;
    assert_eq!(code, 403);
    assert!(
        status["message"].as_str().unwrap().ends_with(
            "not currently held:\n{APIGroups:[\"\"], Resources:[\"secrets\"], Verbs:[\"delete\"]}"
        ),
        "{status}"
    );
    // What she holds she may grant: a Role and a binding within her own rights.
    let modest = json!({"metadata": {"name": "modest"}, "rules": [rule(&["get"], &["secrets"])]});
    assert_eq!(
        create(&h, "alice", &format!("{RBAC}/namespaces/a/roles"), modest)
            .await
            .0,
        201
    );
    assert_eq!(
        create(
            &h,
            "alice",
            &format!("{RBAC}/namespaces/a/rolebindings"),
            binding("bob", "Role", "modest", "bob")
        )
        .await
        .0,
        201
    );
    assert_eq!(
        send(
            &h,
            "GET",
            "/api/v1/namespaces/a/secrets/token",
            Some("bob"),
            None
        )
        .await
        .0,
        200
    );
    // With `bind` on cluster-admin she may bind it after all (Go's explicit delegation).
    let binder = json!({"metadata": {"name": "admin-binder"}, "rules": [
        {"verbs": ["bind"], "apiGroups": ["rbac.authorization.k8s.io"], "resources": ["clusterroles"], "resourceNames": ["cluster-admin"]}]});
    assert_eq!(
        create(&h, "root", &format!("{RBAC}/clusterroles"), binder)
            .await
            .0,
        201
    );
    assert_eq!(
        create(
            &h,
            "root",
            &format!("{RBAC}/namespaces/a/rolebindings"),
            binding("alice-binds", "ClusterRole", "admin-binder", "alice")
        )
        .await
        .0,
        201
    );
    assert_eq!(
        create(
            &h,
            "alice",
            &format!("{RBAC}/namespaces/a/rolebindings"),
            binding("escalate", "ClusterRole", "cluster-admin", "alice")
        )
        .await
        .0,
        201
    );
    assert_eq!(
        send(
            &h,
            "DELETE",
            "/api/v1/namespaces/a/secrets/token",
            Some("alice"),
            None
        )
        .await
        .0,
        200
    );
}

#[tokio::test]
async fn using_an_aggregation_rule_needs_full_authority() {
    let h = server().await;
    let all_rbac = json!({"metadata": {"name": "rbac-writer"}, "rules": [
        {"verbs": ["create", "get", "list"], "apiGroups": ["rbac.authorization.k8s.io"], "resources": ["*"]}]});
    assert_eq!(
        create(&h, "root", &format!("{RBAC}/clusterroles"), all_rbac)
            .await
            .0,
        201
    );
    assert_eq!(
        create(
            &h,
            "root",
            &format!("{RBAC}/clusterrolebindings"),
            binding("carol", "ClusterRole", "rbac-writer", "carol")
        )
        .await
        .0,
        201
    );
    let aggregated = json!({"metadata": {"name": "everything-viewable"},
        "aggregationRule": {"clusterRoleSelectors": [{"matchLabels": {"rbac.authorization.k8s.io/aggregate-to-view": "true"}}]}});
    let (code, status) = create(&h, "carol", &format!("{RBAC}/clusterroles"), aggregated).await;
    assert_eq!(code, 403);
    assert_eq!(
        status["message"],
        r#"clusterroles.rbac.authorization.k8s.io "everything-viewable" is forbidden: must have cluster-admin privileges to use the aggregationRule"#
    );
}

#[tokio::test]
async fn the_bootstrap_roles_exist_and_view_edit_admin_are_aggregated() {
    let h = server().await;
    let (code, list) = send(
        &h,
        "GET",
        &format!("{RBAC}/clusterroles?labelSelector=kubernetes.io/bootstrapping%3Drbac-defaults"),
        Some("root"),
        None,
    )
    .await;
    assert_eq!(code, 200);
    let names: Vec<&str> = list["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["metadata"]["name"].as_str().unwrap())
        .collect();
    for role in [
        "cluster-admin",
        "admin",
        "edit",
        "view",
        "system:discovery",
        "system:basic-user",
        "system:public-info-viewer",
    ] {
        assert!(names.contains(&role), "{role} in {names:?}");
    }
    let (_, admin) = send(
        &h,
        "GET",
        &format!("{RBAC}/clusterroles/cluster-admin"),
        Some("root"),
        None,
    )
    .await;
    assert_eq!(
        admin["metadata"]["annotations"]["rbac.authorization.kubernetes.io/autoupdate"],
        "true"
    );
    let (_, viewer) = send(
        &h,
        "GET",
        &format!("{RBAC}/clusterrolebindings/system:public-info-viewer"),
        Some("root"),
        None,
    )
    .await;
    assert_eq!(viewer["subjects"][1]["name"], "system:unauthenticated");
    // A role labelled to aggregate to `view` extends view, edit and admin at once.
    let crons = json!({"metadata": {"name": "crontabs-view", "labels": {"rbac.authorization.k8s.io/aggregate-to-view": "true"}},
        "rules": [{"verbs": ["get"], "apiGroups": ["example.com"], "resources": ["crontabs"]}]});
    assert_eq!(
        create(&h, "root", &format!("{RBAC}/clusterroles"), crons)
            .await
            .0,
        201
    );
    assert_eq!(
        create(
            &h,
            "root",
            "/api/v1/namespaces",
            json!({"metadata": {"name": "a"}})
        )
        .await
        .0,
        201
    );
    assert_eq!(
        create(
            &h,
            "root",
            &format!("{RBAC}/namespaces/a/rolebindings"),
            binding("dave", "ClusterRole", "admin", "dave")
        )
        .await
        .0,
        201
    );
    let review = json!({"apiVersion": "authorization.k8s.io/v1", "kind": "SelfSubjectAccessReview",
        "spec": {"resourceAttributes": {"namespace": "a", "verb": "get", "group": "example.com", "resource": "crontabs"}}});
    let (code, answer) = create(
        &h,
        "dave",
        "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
        review,
    )
    .await;
    assert_eq!(code, 201);
    assert_eq!(answer["status"]["allowed"], true, "{answer}");
    assert_eq!(
        answer["status"]["reason"],
        r#"RBAC: allowed by RoleBinding "dave/a" of ClusterRole "admin" to User "dave""#
    );
    // ...and the aggregation controller writes the rules into the stored roles.
    let mut stored = Value::Null;
    for _ in 0..1000 {
        stored = send(
            &h,
            "GET",
            &format!("{RBAC}/clusterroles/admin"),
            Some("root"),
            None,
        )
        .await
        .1;
        if stored["rules"]
            .as_array()
            .is_some_and(|r| r.iter().any(|r| r["resources"] == json!(["crontabs"])))
        {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert!(
        stored["rules"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["resources"] == json!(["crontabs"])),
        "{stored}"
    );
}

#[tokio::test]
async fn anonymous_requests_may_read_health_and_version_only() {
    let h = server().await;
    for path in ["/healthz", "/livez", "/readyz", "/version"] {
        assert_eq!(send(&h, "GET", path, None, None).await.0, 200, "{path}");
    }
    let (code, status) = send(&h, "GET", "/apis", None, None).await;
    assert_eq!(code, 403);
    assert_eq!(
        status["message"],
        r#"forbidden: User "system:anonymous" cannot get path "/apis""#
    );
    // Authenticated users also get discovery.
    assert_eq!(send(&h, "GET", "/apis", Some("alice"), None).await.0, 200);
    assert_eq!(
        send(&h, "GET", "/api/v1/namespaces", None, None).await.0,
        403
    );
}

#[tokio::test]
async fn subject_access_reviews_answer_for_other_users_and_rules_reviews_list_the_rules() {
    let h = alice_reads_secrets_in_a().await;
    let sar = |ns: &str| {
        json!({"apiVersion": "authorization.k8s.io/v1", "kind": "SubjectAccessReview",
        "spec": {"user": "alice", "resourceAttributes": {"namespace": ns, "verb": "get", "resource": "secrets"}}})
    };
    // Asking about others needs the right to (root has it; alice has not).
    let (code, _) = create(
        &h,
        "alice",
        "/apis/authorization.k8s.io/v1/subjectaccessreviews",
        sar("a"),
    )
    .await;
    assert_eq!(code, 403);
    let (code, answer) = create(
        &h,
        "root",
        "/apis/authorization.k8s.io/v1/subjectaccessreviews",
        sar("a"),
    )
    .await;
    assert_eq!(code, 201);
    assert_eq!(answer["status"]["allowed"], true);
    let (_, answer) = create(
        &h,
        "root",
        "/apis/authorization.k8s.io/v1/subjectaccessreviews",
        sar("b"),
    )
    .await;
    assert_eq!(answer["status"], json!({"allowed": false}));
    // The local review answers in its path's namespace only.
    let local = |ns: &str| {
        json!({"apiVersion": "authorization.k8s.io/v1", "kind": "LocalSubjectAccessReview",
        "spec": {"user": "alice", "resourceAttributes": {"namespace": ns, "verb": "list", "resource": "secrets"}}})
    };
    let path = "/apis/authorization.k8s.io/v1/namespaces/a/localsubjectaccessreviews";
    let (code, answer) = create(&h, "root", path, local("a")).await;
    assert_eq!(
        (code, &answer["status"]["allowed"]),
        (201, &json!(true)),
        "{answer}"
    );
    // Go's validation (pkg/apis/authorization/validation), as the differential's
    // rbac-reviews area compares it with kube-apiserver: 422, naming no kind.
    let (code, answer) = create(&h, "root", path, local("b")).await;
    assert_eq!(code, 422);
    assert_eq!(
        answer["message"],
        ".authorization.k8s.io \"\" is invalid: spec.resourceAttributes.namespace: Invalid value: \"b\": must match metadata.namespace"
    );
    let rules = json!({"apiVersion": "authorization.k8s.io/v1", "kind": "SelfSubjectRulesReview", "spec": {"namespace": "a"}});
    let (code, answer) = create(
        &h,
        "alice",
        "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews",
        rules,
    )
    .await;
    assert_eq!(code, 201);
    let resource_rules = answer["status"]["resourceRules"].as_array().unwrap();
    assert!(
        resource_rules.contains(
            &json!({"verbs": ["get", "list"], "apiGroups": [""], "resources": ["secrets"]})
        ),
        "{answer}"
    );
    assert!(
        resource_rules
            .iter()
            .any(|r| r["resources"]
                == json!(["selfsubjectaccessreviews", "selfsubjectrulesreviews"]))
    );
    assert!(
        answer["status"]["nonResourceRules"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["nonResourceURLs"]
                .as_array()
                .unwrap()
                .contains(&json!("/healthz")))
    );
    assert_eq!(answer["status"]["incomplete"], false);
}

fn kubectl() -> Option<std::path::PathBuf> {
    let found = Command::new("kubectl")
        .arg("version")
        .arg("--client")
        .output()
        .ok()?;
    found.status.success().then(|| "kubectl".into())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_auth_can_i_answers_from_rbac() {
    let Some(kubectl) = kubectl() else {
        eprintln!("kubectl not installed: skipped");
        return;
    };
    let server = config()
        .await
        .serve("127.0.0.1:0".parse().unwrap())
        .await
        .unwrap();
    let url = server.url();
    let run = |user: &'static str, args: &'static [&'static str]| {
        let kubectl = kubectl.clone();
        let url = url.clone();
        tokio::task::spawn_blocking(move || {
            // Impersonated, `root` keeps its own group too.
            let groups: &[&str] = if user == "root" {
                &["--as-group", "system:masters"]
            } else {
                &[]
            };
            let out = Command::new(kubectl)
                .args(["--server", &url, "--as", user])
                .args(groups)
                .args(args)
                .output()
                .unwrap();
            if !out.stderr.is_empty() {
                eprintln!("kubectl {args:?}: {}", String::from_utf8_lossy(&out.stderr));
            }
            (
                String::from_utf8_lossy(&out.stdout).trim().to_owned(),
                out.status.code(),
            )
        })
    };
    assert_eq!(
        run("root", &["create", "namespace", "a"]).await.unwrap().1,
        Some(0)
    );
    assert_eq!(
        run(
            "root",
            &[
                "create",
                "rolebinding",
                "alice-view",
                "--clusterrole=view",
                "--user=alice",
                "-n",
                "a"
            ]
        )
        .await
        .unwrap()
        .1,
        Some(0)
    );
    assert_eq!(
        run("alice", &["auth", "can-i", "list", "pods", "-n", "a"])
            .await
            .unwrap(),
        ("yes".into(), Some(0))
    );
    assert_eq!(
        run("alice", &["auth", "can-i", "list", "pods", "-n", "b"])
            .await
            .unwrap(),
        ("no".into(), Some(1))
    );
    assert_eq!(
        run("alice", &["auth", "can-i", "get", "secrets", "-n", "a"])
            .await
            .unwrap(),
        ("no".into(), Some(1))
    );
    assert_eq!(
        run("root", &["auth", "can-i", "*", "*"]).await.unwrap(),
        ("yes".into(), Some(0))
    );
    assert_eq!(
        run("alice", &["auth", "can-i", "get", "/healthz"])
            .await
            .unwrap(),
        ("yes".into(), Some(0))
    );
    assert_eq!(
        run("alice", &["auth", "can-i", "get", "/metrics"])
            .await
            .unwrap(),
        ("no".into(), Some(1))
    );
    let (list, code) = run("alice", &["auth", "can-i", "--list", "-n", "a"])
        .await
        .unwrap();
    assert_eq!(code, Some(0), "{list}");
    assert!(
        list.lines()
            .any(|l| l.starts_with("pods ") && l.contains("[get list watch]")),
        "{list}"
    );
    assert!(list.lines().any(|l| l.contains("/healthz")), "{list}");
    server.shutdown().await;
}

/// On etcd, whose watch is another process's: a binding is in force for the very next
/// request all the same.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_etcd_a_binding_is_in_force_for_the_next_request() {
    let Some(etcd) = support::Etcd::start().await else {
        return;
    };
    let storage = apiserver::storage::EtcdStorage::connect(&[&etcd.endpoint])
        .await
        .unwrap();
    let h = config_on(Arc::new(storage))
        .await
        .handler("127.0.0.1:6443")
        .await
        .unwrap();
    let reader = json!({"metadata": {"name": "cm-reader"}, "rules": [rule(&["get", "list"], &["configmaps"])]});
    assert_eq!(
        create(&h, "root", &format!("{RBAC}/clusterroles"), reader)
            .await
            .0,
        201
    );
    for i in 0..10 {
        let user = format!("user-{i}");
        let path = "/api/v1/namespaces/default/configmaps";
        assert_eq!(send(&h, "GET", path, Some(&user), None).await.0, 403);
        let b = binding(&user, "ClusterRole", "cm-reader", &user);
        assert_eq!(
            create(
                &h,
                "root",
                &format!("{RBAC}/namespaces/default/rolebindings"),
                b
            )
            .await
            .0,
            201
        );
        assert_eq!(
            send(&h, "GET", path, Some(&user), None).await.0,
            200,
            "{user}"
        );
    }
}

/// An escalation is refused on update and patch as on create (the escalation check is an
/// admission plugin, and every write goes through admission with the stored object).
#[tokio::test]
async fn a_role_cannot_be_updated_or_patched_beyond_what_its_writer_holds() {
    let h = alice_reads_secrets_in_a().await;
    let editor = json!({"metadata": {"name": "role-editor"}, "rules": [
        {"verbs": ["create", "get", "update", "patch"], "apiGroups": ["rbac.authorization.k8s.io"], "resources": ["roles"]}]});
    assert_eq!(
        create(&h, "root", &format!("{RBAC}/namespaces/a/roles"), editor)
            .await
            .0,
        201
    );
    assert_eq!(
        create(
            &h,
            "root",
            &format!("{RBAC}/namespaces/a/rolebindings"),
            binding("alice-edits-roles", "Role", "role-editor", "alice")
        )
        .await
        .0,
        201
    );
    let path = format!("{RBAC}/namespaces/a/roles/modest");
    let modest = json!({"metadata": {"name": "modest"}, "rules": [rule(&["get"], &["secrets"])]});
    let (code, created) = create(&h, "alice", &format!("{RBAC}/namespaces/a/roles"), modest).await;
    assert_eq!(code, 201, "{created}");

    let mut greedy = created.clone();
    greedy["rules"] = json!([rule(&["get", "delete"], &["secrets"])]);
    let (code, status) = send(&h, "PUT", &path, Some("alice"), Some(greedy)).await;
    assert_eq!(code, 403, "{status}");
    assert!(
        status["message"].as_str().unwrap().ends_with(
            "not currently held:\n{APIGroups:[\"\"], Resources:[\"secrets\"], Verbs:[\"delete\"]}"
        ),
        "{status}"
    );

    let patch = json!({"rules": [rule(&["get", "deletecollection"], &["secrets"])]});
    let req = Request::builder()
        .method("PATCH")
        .uri(&path)
        .header("authorization", "Bearer alice")
        .header("content-type", "application/merge-patch+json")
        .body(Body::from(serde_json::to_vec(&patch).unwrap()))
        .unwrap();
    let resp = h.serve_http(req).await;
    assert_eq!(resp.status().as_u16(), 403);

    let (code, stored) = send(&h, "GET", &path, Some("root"), None).await;
    assert_eq!(code, 200);
    assert_eq!(
        stored["rules"],
        json!([rule(&["get"], &["secrets"])]),
        "nothing stored"
    );
    assert_eq!(
        stored["metadata"]["resourceVersion"],
        created["metadata"]["resourceVersion"]
    );
}
