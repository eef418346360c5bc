use super::*;
use crate::authentication::user::Info;

fn resource(verb: &str, group: &str, resource: &str, sub: &str, name: &str) -> Attributes {
    Attributes {
        user: Info::default(),
        verb: verb.into(),
        resource_request: true,
        namespace: "a".into(),
        api_group: group.into(),
        api_version: "v1".into(),
        resource: resource.into(),
        subresource: sub.into(),
        name: name.into(),
        path: String::new(),
    }
}

#[test]
fn verbs_groups_and_resources_match_exactly_or_by_star() {
    let rule = PolicyRule::new(&["get", "list"])
        .groups(&[""])
        .resources(&["pods"]);
    assert!(rule.allows(&resource("get", "", "pods", "", "web")));
    assert!(!rule.allows(&resource("delete", "", "pods", "", "web")));
    assert!(!rule.allows(&resource("get", "apps", "pods", "", "web")));
    assert!(!rule.allows(&resource("get", "", "secrets", "", "web")));
    let star = PolicyRule::new(&["*"]).groups(&["*"]).resources(&["*"]);
    assert!(star.allows(&resource(
        "escalate",
        "rbac.authorization.k8s.io",
        "roles",
        "",
        "x"
    )));
    assert!(star.allows(&resource("get", "", "pods", "log", "x")));
}

#[test]
fn subresources_match_by_full_name_or_star_slash() {
    let log = PolicyRule::new(&["get"])
        .groups(&[""])
        .resources(&["pods/log"]);
    assert!(log.allows(&resource("get", "", "pods", "log", "web")));
    assert!(!log.allows(&resource("get", "", "pods", "", "web")));
    assert!(!log.allows(&resource("get", "", "pods", "exec", "web")));
    let any_status = PolicyRule::new(&["get"])
        .groups(&["*"])
        .resources(&["*/status"]);
    assert!(any_status.allows(&resource("get", "apps", "deployments", "status", "d")));
    assert!(!any_status.allows(&resource("get", "apps", "deployments", "", "d")));
    assert!(!any_status.allows(&resource("get", "apps", "deployments", "scale", "d")));
    // The main resource does not grant its subresources.
    let pods = PolicyRule::new(&["get"]).groups(&[""]).resources(&["pods"]);
    assert!(!pods.allows(&resource("get", "", "pods", "log", "web")));
}

#[test]
fn resource_names_limit_the_objects() {
    let rule = PolicyRule::new(&["get"])
        .groups(&[""])
        .resources(&["configmaps"])
        .names(&["settings"]);
    assert!(rule.allows(&resource("get", "", "configmaps", "", "settings")));
    assert!(!rule.allows(&resource("get", "", "configmaps", "", "other")));
    // A list has no name: a named rule does not allow it.
    assert!(!rule.allows(&resource("get", "", "configmaps", "", "")));
}

#[test]
fn non_resource_urls_match_exactly_or_by_trailing_star() {
    let rule = PolicyRule::new(&["get"]).urls(&["/healthz", "/apis/*"]);
    let path = |p: &str| Attributes::for_path(Info::default(), "GET", p);
    assert!(rule.allows(&path("/healthz")));
    assert!(!rule.allows(&path("/healthz/etcd")));
    assert!(rule.allows(&path("/apis/apps/v1")));
    assert!(rule.allows(&path("/apis/")));
    assert!(!rule.allows(&path("/apis")));
    assert!(!rule.allows(&Attributes::for_path(Info::default(), "POST", "/healthz")));
    // A non-resource rule never allows a resource request, nor the other way round.
    assert!(!rule.allows(&resource("get", "", "pods", "", "")));
    let pods = PolicyRule::new(&["*"]).groups(&["*"]).resources(&["*"]);
    assert!(!pods.allows(&path("/healthz")));
}

#[test]
fn service_accounts_are_users_named_by_namespace_and_name() {
    let sa = Subject {
        kind: "ServiceAccount".into(),
        name: "builder".into(),
        ..Subject::default()
    };
    assert_eq!(
        sa.principal("ci"),
        Some(Principal::User("system:serviceaccount:ci:builder".into()))
    );
    // In a ClusterRoleBinding a service account needs its namespace.
    assert_eq!(sa.principal(""), None);
    assert_eq!(sa.describe("ci"), r#"ServiceAccount "builder/ci""#);
    let unknown = Subject {
        kind: "Robot".into(),
        name: "r2".into(),
        ..Subject::default()
    };
    assert_eq!(unknown.principal("ci"), None);
}

#[test]
fn covers_breaks_rules_down_and_reports_what_is_missing() {
    let owner = vec![
        PolicyRule::new(&["get", "list"])
            .groups(&[""])
            .resources(&["pods", "*/status"]),
        PolicyRule::new(&["get"]).urls(&["/apis/*"]),
    ];
    let (ok, missing) = covers(
        &owner,
        &[PolicyRule::new(&["get"])
            .groups(&[""])
            .resources(&["pods", "services/status"])],
    );
    assert!(ok, "{missing:?}");
    let (ok, missing) = covers(
        &owner,
        &[PolicyRule::new(&["get", "delete"])
            .groups(&[""])
            .resources(&["pods", "secrets"])],
    );
    assert!(!ok);
    assert_eq!(missing.len(), 3);
    let compacted = compact(missing);
    let mut described: Vec<String> = compacted.iter().map(PolicyRule::compact_string).collect();
    described.sort();
    assert_eq!(
        described,
        vec![
            r#"{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}"#,
            r#"{APIGroups:[""], Resources:["secrets"], Verbs:["get" "delete"]}"#,
        ]
    );
    assert!(covers(&owner, &[PolicyRule::new(&["get"]).urls(&["/apis/apps"])]).0);
    assert!(!covers(&owner, &[PolicyRule::new(&["get"]).urls(&["/apis*"])]).0);
    // Named rules are covered by unnamed ones, not the other way round.
    let named = vec![
        PolicyRule::new(&["get"])
            .groups(&[""])
            .resources(&["pods"])
            .names(&["a"]),
    ];
    assert!(covers(&owner, &named).0);
    assert!(
        !covers(
            &named,
            &[PolicyRule::new(&["get"]).groups(&[""]).resources(&["pods"])]
        )
        .0
    );
}
