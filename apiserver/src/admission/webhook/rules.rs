//! Which requests a webhook's rules select (Go's `admission/plugin/webhook/predicates/rules`).

use super::configuration::RuleWithOperations;

/// What a rule is matched against: one group/version/resource (the request's, or an
/// equivalent one under `matchPolicy: Equivalent`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request<'a> {
    /// `CREATE`, `UPDATE`, `DELETE` or `CONNECT`.
    pub operation: &'a str,
    /// The API group.
    pub group: &'a str,
    /// The API version.
    pub version: &'a str,
    /// The resource.
    pub resource: &'a str,
    /// The subresource, empty for the main resource.
    pub subresource: &'a str,
    /// The namespace, empty for cluster-scoped objects.
    pub namespace: &'a str,
}

fn any_or(list: &[String], value: &str) -> bool {
    list.iter().any(|x| x == "*" || x == value)
}

/// Whether `rule` selects `request`: operation, group, version, resource (with Go's
/// `resource/subresource` forms, where `*` as the resource part is any resource and
/// as the subresource part any subresource or none) and scope.
pub fn matches(rule: &RuleWithOperations, request: &Request<'_>) -> bool {
    any_or(&rule.operations, request.operation)
        && any_or(&rule.api_groups, request.group)
        && any_or(&rule.api_versions, request.version)
        && rule.resources.iter().any(|r| {
            let (res, sub) = r.split_once('/').unwrap_or((r.as_str(), ""));
            (res == "*" || res == request.resource) && (sub == "*" || sub == request.subresource)
        })
        && scope_matches(rule.scope.as_deref(), request)
}

fn scope_matches(scope: Option<&str>, request: &Request<'_>) -> bool {
    // A Namespace is cluster-scoped even though its requests name a namespace.
    let is_namespace = request.group.is_empty() && request.resource == "namespaces";
    match scope {
        Some("Namespaced") => !is_namespace && !request.namespace.is_empty(),
        Some("Cluster") => is_namespace || request.namespace.is_empty(),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(
        ops: &[&str],
        groups: &[&str],
        versions: &[&str],
        resources: &[&str],
    ) -> RuleWithOperations {
        let v = |l: &[&str]| l.iter().map(|s| s.to_string()).collect();
        RuleWithOperations {
            operations: v(ops),
            api_groups: v(groups),
            api_versions: v(versions),
            resources: v(resources),
            scope: None,
        }
    }

    fn pods<'a>(operation: &'a str, subresource: &'a str) -> Request<'a> {
        Request {
            operation,
            group: "",
            version: "v1",
            resource: "pods",
            subresource,
            namespace: "default",
        }
    }

    #[test]
    fn operations_groups_versions() {
        let r = rule(&["CREATE"], &[""], &["v1"], &["pods"]);
        assert!(matches(&r, &pods("CREATE", "")));
        assert!(!matches(&r, &pods("UPDATE", "")));
        assert!(matches(
            &rule(&["*"], &["*"], &["*"], &["pods"]),
            &pods("DELETE", "")
        ));
        assert!(!matches(
            &rule(&["*"], &["apps"], &["*"], &["pods"]),
            &pods("CREATE", "")
        ));
        assert!(!matches(
            &rule(&["*"], &[""], &["v2"], &["pods"]),
            &pods("CREATE", "")
        ));
    }

    #[test]
    fn resources_and_subresources() {
        let any = |res: &[&str]| rule(&["*"], &["*"], &["*"], res);
        assert!(!matches(&any(&["pods"]), &pods("UPDATE", "status")));
        assert!(matches(&any(&["pods/status"]), &pods("UPDATE", "status")));
        assert!(matches(&any(&["pods/*"]), &pods("UPDATE", "status")));
        assert!(matches(&any(&["pods/*"]), &pods("UPDATE", "")));
        assert!(matches(&any(&["*"]), &pods("UPDATE", "")));
        assert!(!matches(&any(&["*"]), &pods("UPDATE", "status")));
        assert!(matches(&any(&["*/status"]), &pods("UPDATE", "status")));
        assert!(matches(&any(&["*/*"]), &pods("UPDATE", "status")));
        assert!(!matches(&any(&["services"]), &pods("CREATE", "")));
    }

    #[test]
    fn scopes() {
        let mut r = rule(&["*"], &["*"], &["*"], &["*"]);
        r.scope = Some("Cluster".into());
        assert!(!matches(&r, &pods("CREATE", "")));
        let ns = Request {
            resource: "namespaces",
            namespace: "x",
            ..pods("CREATE", "")
        };
        assert!(matches(&r, &ns));
        r.scope = Some("Namespaced".into());
        assert!(matches(&r, &pods("CREATE", "")));
        assert!(!matches(&r, &ns));
    }
}
