use super::*;
use crate::authorization::rbac::policy::Metadata;

fn obj(name: &str, namespace: &str) -> RbacObject {
    RbacObject {
        metadata: Metadata {
            name: name.into(),
            namespace: namespace.into(),
            ..Metadata::default()
        },
        ..RbacObject::default()
    }
}

fn binding(
    name: &str,
    namespace: &str,
    kind: &str,
    role: &str,
    subjects: Vec<Subject>,
) -> RbacObject {
    RbacObject {
        subjects: Some(subjects),
        role_ref: Some(RoleRef {
            api_group: crate::authorization::rbac::policy::GROUP.into(),
            kind: kind.into(),
            name: role.into(),
        }),
        ..obj(name, namespace)
    }
}

fn user(name: &str, groups: &[&str]) -> Info {
    Info {
        name: name.into(),
        groups: groups.iter().map(|g| (*g).to_owned()).collect(),
        ..Info::default()
    }
}

fn sources(index: &Index, who: &Info, namespace: &str) -> (Vec<String>, Vec<String>) {
    let mut rules = Vec::new();
    let mut errors = Vec::new();
    index.visit(who, namespace, &mut |v| {
        match &v {
            Visit::Rule { .. } => rules.push(v.source()),
            Visit::Error(e) => errors.push(e.clone()),
        }
        true
    });
    (rules, errors)
}

#[test]
fn only_the_bindings_of_the_user_and_its_groups_in_the_namespace_apply() {
    let mut index = Index::default();
    index.put(
        Kind::Role,
        RbacObject {
            rules: Some(vec![
                PolicyRule::new(&["get"])
                    .groups(&[""])
                    .resources(&["secrets"]),
            ]),
            ..obj("reader", "a")
        },
    );
    index.put(
        Kind::RoleBinding,
        binding(
            "alice-reads",
            "a",
            "Role",
            "reader",
            vec![Subject::user("alice")],
        ),
    );
    index.put(
        Kind::RoleBinding,
        binding(
            "devs-read",
            "a",
            "Role",
            "reader",
            vec![Subject::group("devs")],
        ),
    );
    let alice = user("alice", &[]);
    assert_eq!(
        sources(&index, &alice, "a").0,
        vec![r#"RoleBinding "alice-reads/a" of Role "reader" to User "alice""#]
    );
    assert!(sources(&index, &alice, "b").0.is_empty());
    assert!(sources(&index, &alice, "").0.is_empty());
    let bob = user("bob", &["devs"]);
    assert_eq!(
        sources(&index, &bob, "a").0,
        vec![r#"RoleBinding "devs-read/a" of Role "reader" to Group "devs""#]
    );
    // Replacing a binding drops its old subjects; deleting it drops the rest.
    index.put(
        Kind::RoleBinding,
        binding(
            "alice-reads",
            "a",
            "Role",
            "reader",
            vec![Subject::user("carol")],
        ),
    );
    assert!(sources(&index, &alice, "a").0.is_empty());
    index.delete(Kind::RoleBinding, "a", "alice-reads");
    assert!(sources(&index, &user("carol", &[]), "a").0.is_empty());
    assert_eq!(index.len(), 2);
}

#[test]
fn a_missing_role_is_an_error_with_gos_wording() {
    let mut index = Index::default();
    index.put(
        Kind::ClusterRoleBinding,
        binding(
            "gone",
            "",
            "ClusterRole",
            "nope",
            vec![Subject::user("alice")],
        ),
    );
    index.put(
        Kind::RoleBinding,
        binding("odd", "a", "Robot", "r2", vec![Subject::user("alice")]),
    );
    let (rules, errors) = sources(&index, &user("alice", &[]), "a");
    assert!(rules.is_empty());
    assert_eq!(
        errors,
        vec![
            r#"clusterrole.rbac.authorization.k8s.io "nope" not found"#.to_owned(),
            r#"unsupported role reference kind: "Robot""#.to_owned(),
        ]
    );
}

#[test]
fn aggregated_cluster_roles_gather_the_rules_of_the_roles_they_select_transitively() {
    let mut index = Index::default();
    let selector = |label: &str| AggregationRule {
        cluster_role_selectors: vec![apimachinery::apis::meta::v1::LabelSelector {
            match_labels: [(label.to_owned(), "true".to_owned())].into(),
            ..Default::default()
        }],
    };
    let labelled =
        |name: &str, label: &str, rules: Vec<PolicyRule>, aggregation: Option<AggregationRule>| {
            let mut o = obj(name, "");
            o.metadata.labels = [(label.to_owned(), "true".to_owned())].into();
            o.rules = Some(rules);
            o.aggregation_rule = aggregation;
            o
        };
    let pods = PolicyRule::new(&["get"]).groups(&[""]).resources(&["pods"]);
    let secrets = PolicyRule::new(&["get"])
        .groups(&[""])
        .resources(&["secrets"]);
    index.put(
        Kind::ClusterRole,
        labelled("outer", "none", vec![], Some(selector("to-outer"))),
    );
    index.put(
        Kind::ClusterRole,
        labelled("inner", "to-outer", vec![], Some(selector("to-inner"))),
    );
    index.put(
        Kind::ClusterRole,
        labelled("pods", "to-inner", vec![pods.clone()], None),
    );
    index.put(
        Kind::ClusterRole,
        labelled(
            "secrets",
            "to-outer",
            vec![secrets.clone(), pods.clone()],
            None,
        ),
    );
    let rules = |index: &Index, name: &str| {
        index
            .role_ref_rules(
                &RoleRef {
                    kind: "ClusterRole".into(),
                    name: name.into(),
                    ..RoleRef::default()
                },
                "",
            )
            .unwrap()
    };
    assert_eq!(*rules(&index, "inner"), vec![pods.clone()]);
    assert_eq!(*rules(&index, "outer"), vec![pods.clone(), secrets.clone()]);
    let stale: Vec<String> = index
        .stale_aggregations()
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    assert_eq!(stale, vec!["inner", "outer"]);
    // Once the aggregated roles store what aggregation gives them, nothing is stale.
    index.put(
        Kind::ClusterRole,
        labelled(
            "inner",
            "to-outer",
            vec![pods.clone()],
            Some(selector("to-inner")),
        ),
    );
    index.put(
        Kind::ClusterRole,
        labelled(
            "outer",
            "none",
            vec![pods.clone(), secrets.clone()],
            Some(selector("to-outer")),
        ),
    );
    assert!(index.stale_aggregations().is_empty());
    index.delete(Kind::ClusterRole, "", "pods");
    assert!(rules(&index, "inner").is_empty());
    assert_eq!(*rules(&index, "outer"), vec![secrets, pods]);
}

#[test]
fn aggregation_cycles_end() {
    let mut index = Index::default();
    for (name, selects) in [("a", "b"), ("b", "a")] {
        let mut o = obj(name, "");
        o.metadata.labels = [("name".to_owned(), name.to_owned())].into();
        o.aggregation_rule = Some(AggregationRule {
            cluster_role_selectors: vec![apimachinery::apis::meta::v1::LabelSelector {
                match_labels: [("name".to_owned(), selects.to_owned())].into(),
                ..Default::default()
            }],
        });
        index.put(Kind::ClusterRole, o);
    }
    assert!(index.stale_aggregations().is_empty());
}
