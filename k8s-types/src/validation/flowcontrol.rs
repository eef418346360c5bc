//! The flowcontrol group's validation (Go's `pkg/apis/flowcontrol/validation`):
//! FlowSchema and PriorityLevelConfiguration, on create and (the same checks of the new
//! object) on update, with the mandatory objects (`exempt`, `catch-all`) held to their
//! fixed specs.

use apimachinery::apis::meta::v1::validation::{name_is_dns_label, name_is_dns_subdomain};
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};

use super::go_internal::{GoStruct, json_text, list, or_null};
use super::go_value::go_list;
use super::{invalid_each, validate_object_meta};
use crate::flowcontrol::v1::{
    FlowSchema, FlowSchemaSpec, LimitResponse, NonResourcePolicyRule, PolicyRulesWithSubjects,
    PriorityLevelConfiguration, PriorityLevelConfigurationSpec, ResourcePolicyRule, Subject,
};

const DISTINGUISHER_METHODS: &[&str] = &["ByNamespace", "ByUser"];
const VERBS: &[&str] = &[
    "create",
    "delete",
    "deletecollection",
    "get",
    "list",
    "patch",
    "proxy",
    "update",
    "watch",
];
const SUBJECT_KINDS: &[&str] = &["Group", "ServiceAccount", "User"];
const ENABLEMENTS: &[&str] = &["Exempt", "Limited"];
const LIMIT_RESPONSE_TYPES: &[&str] = &["Queue", "Reject"];
const MAX_MATCHING_PRECEDENCE: i32 = 10000;
const MAX_QUEUES: i32 = 10_000_000;
/// Go's `shufflesharding.MaxHashBits`.
const MAX_HASH_BITS: i64 = 60;
const NS_ERR_INTRO: &str = "each member of this list must be '*' or a DNS-1123 label; ";
/// The annotation only `v1beta3` may carry, which the conversion removes.
const PRESERVE_ZERO_SHARES: &str = "flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares";

/// Go's `ValidateFlowSchema`.
pub fn validate_flow_schema(fs: &FlowSchema) -> ErrorList {
    let mut errs = validate_object_meta(
        &fs.metadata,
        false,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let sp = Path::new("spec");
    errs.extend(validate_flow_schema_spec(&fs.metadata.name, &fs.spec, &sp));
    if let Some(fixed) = mandatory_flow_schema(&fs.metadata.name) {
        let have = flow_schema_spec_json(&fs.spec);
        if have != fixed {
            errs.push(Error::invalid(
                &sp,
                BadValue::Json(have),
                format!("spec of '{}' must equal the fixed value", fs.metadata.name),
            ));
        }
    }
    let status = Path::new("status");
    let cp = status.child("conditions");
    conditions(
        fs.status.conditions.iter().map(|c| c.r#type.as_str()),
        &cp,
        &mut errs,
    );
    errs
}

/// Go's `ValidateFlowSchemaUpdate`: the new object's checks alone.
pub fn validate_flow_schema_update(new: &FlowSchema, _old: &FlowSchema) -> ErrorList {
    validate_flow_schema(new)
}

/// Go's `ValidateFlowSchemaSpec`.
pub fn validate_flow_schema_spec(name: &str, spec: &FlowSchemaSpec, p: &Path) -> ErrorList {
    let mut errs = ErrorList::default();
    let mp = p.child("matchingPrecedence");
    let precedence = spec.matching_precedence;
    if precedence <= 0 {
        errs.push(Error::invalid(&mp, precedence, "must be a positive value"));
    }
    if precedence > MAX_MATCHING_PRECEDENCE {
        errs.push(Error::invalid(
            &mp,
            precedence,
            format!("must not be greater than {MAX_MATCHING_PRECEDENCE}"),
        ));
    }
    if precedence == 1 && name != "exempt" {
        errs.push(Error::invalid(
            &mp,
            precedence,
            "only the schema named 'exempt' may have matchingPrecedence 1",
        ));
    }
    if let Some(dm) = &spec.distinguisher_method {
        if !DISTINGUISHER_METHODS.contains(&dm.r#type.as_str()) {
            errs.push(Error::not_supported(
                &p.child("distinguisherMethod").child("type"),
                BadValue::Json(GoStruct::new().field("Type", dm.r#type.as_str()).text()),
                DISTINGUISHER_METHODS,
            ));
        }
    }
    let plc = p.child("priorityLevelConfiguration");
    let np = plc.child("name");
    let pl_name = spec.priority_level_configuration.name.as_str();
    if pl_name.is_empty() {
        errs.push(Error::required(&np, "must reference a priority level"));
    } else {
        invalid_each(
            &mut errs,
            &np,
            pl_name,
            name_is_dns_subdomain(pl_name, false),
        );
    }
    let rp = p.child("rules");
    for (i, rule) in spec.rules.iter().enumerate() {
        rules_with_subjects(rule, &rp.index(i), &mut errs);
    }
    errs
}

/// Go's `ValidateFlowSchemaPolicyRulesWithSubjects`.
fn rules_with_subjects(rule: &PolicyRulesWithSubjects, p: &Path, errs: &mut ErrorList) {
    let subjects = rule.subjects.as_deref().unwrap_or_default();
    let sp = p.child("subjects");
    if subjects.is_empty() {
        errs.push(Error::required(
            &sp,
            "subjects must contain at least one value",
        ));
    }
    for (i, s) in subjects.iter().enumerate() {
        subject(s, &sp.index(i), errs);
    }
    if rule.resource_rules.is_empty() && rule.non_resource_rules.is_empty() {
        errs.push(Error::required(
            p,
            "at least one of resourceRules and nonResourceRules has to be non-empty",
        ));
    }
    let rr = p.child("resourceRules");
    for (i, r) in rule.resource_rules.iter().enumerate() {
        resource_rule(r, &rr.index(i), errs);
    }
    let nr = p.child("nonResourceRules");
    for (i, r) in rule.non_resource_rules.iter().enumerate() {
        non_resource_rule(r, &nr.index(i), errs);
    }
}

/// Go's `ValidateFlowSchemaSubject`: the member of its kind, and no other.
fn subject(s: &Subject, p: &Path, errs: &mut ErrorList) {
    let forbid_user = |errs: &mut ErrorList| {
        if s.user.is_some() {
            errs.push(Error::forbidden(
                &p.child("user"),
                "user is forbidden when subject kind is not 'User'",
            ));
        }
    };
    let forbid_group = |errs: &mut ErrorList| {
        if s.group.is_some() {
            errs.push(Error::forbidden(
                &p.child("group"),
                "group is forbidden when subject kind is not 'Group'",
            ));
        }
    };
    let forbid_sa = |errs: &mut ErrorList| {
        if s.service_account.is_some() {
            errs.push(Error::forbidden(
                &p.child("serviceAccount"),
                "serviceAccount is forbidden when subject kind is not 'ServiceAccount'",
            ));
        }
    };
    match s.kind.as_str() {
        "ServiceAccount" => {
            let sp = p.child("serviceAccount");
            match &s.service_account {
                None => errs.push(Error::required(
                    &sp,
                    "serviceAccount is required when subject kind is 'ServiceAccount'",
                )),
                Some(sa) => {
                    let np = sp.child("name");
                    if sa.name.is_empty() {
                        errs.push(Error::required(&np, ""));
                    } else if sa.name != "*" {
                        invalid_each(errs, &np, &sa.name, name_is_dns_subdomain(&sa.name, false));
                    }
                    let nsp = sp.child("namespace");
                    if sa.namespace.is_empty() {
                        errs.push(Error::required(
                            &nsp,
                            "must specify namespace for service account",
                        ));
                    } else {
                        let msgs = name_is_dns_label(&sa.namespace, false);
                        invalid_each(errs, &nsp, &sa.namespace, msgs);
                    }
                }
            }
            forbid_user(errs);
            forbid_group(errs);
        }
        "User" => {
            named(s.user.as_ref().map(|u| u.name.as_str()), "user", p, errs);
            forbid_sa(errs);
            forbid_group(errs);
        }
        "Group" => {
            named(s.group.as_ref().map(|g| g.name.as_str()), "group", p, errs);
            forbid_sa(errs);
            forbid_user(errs);
        }
        kind => errs.push(Error::not_supported(
            &p.child("kind"),
            BadValue::json_string(kind),
            SUBJECT_KINDS,
        )),
    }
}

/// Go's `ValidateUserSubject` and `ValidateGroupSubject`.
fn named(name: Option<&str>, field: &str, p: &Path, errs: &mut ErrorList) {
    let fp = p.child(field);
    match name {
        None => {
            let kind = if field == "user" { "User" } else { "Group" };
            errs.push(Error::required(
                &fp,
                format!("{field} is required when subject kind is '{kind}'"),
            ));
        }
        Some("") => errs.push(Error::required(&fp.child("name"), "")),
        Some(_) => {}
    }
}

/// The verbs of a rule: one or more, `*` alone, else known ones.
fn verbs(verbs: &[String], p: &Path, errs: &mut ErrorList) {
    let vp = p.child("verbs");
    if verbs.is_empty() {
        errs.push(Error::required(
            &vp,
            "verbs must contain at least one value",
        ));
    } else if verbs.iter().any(|v| v == "*") {
        if verbs.len() > 1 {
            errs.push(Error::invalid(
                &vp,
                go_list(verbs),
                "if '*' is present, must not specify other verbs",
            ));
        }
    } else if !verbs.iter().all(|v| VERBS.contains(&v.as_str())) {
        errs.push(Error::not_supported(&vp, go_list(verbs), VERBS));
    }
}

/// A list that must not be empty and whose `*` stands alone.
fn wildcard_list(
    list: &[String],
    field: &str,
    required: &str,
    what: &str,
    p: &Path,
    errs: &mut ErrorList,
) {
    let fp = p.child(field);
    if list.is_empty() {
        errs.push(Error::required(&fp, required));
    } else if list.len() > 1 && list.iter().any(|v| v == "*") {
        errs.push(Error::invalid(
            &fp,
            go_list(list),
            format!("if '*' is present, must not specify other {what}"),
        ));
    }
}

/// Go's `ValidateFlowSchemaResourcePolicyRule`.
fn resource_rule(rule: &ResourcePolicyRule, p: &Path, errs: &mut ErrorList) {
    verbs(rule.verbs.as_deref().unwrap_or_default(), p, errs);
    wildcard_list(
        rule.api_groups.as_deref().unwrap_or_default(),
        "apiGroups",
        "resource rules must supply at least one api group",
        "api groups",
        p,
        errs,
    );
    wildcard_list(
        rule.resources.as_deref().unwrap_or_default(),
        "resources",
        "resource rules must supply at least one resource",
        "resources",
        p,
        errs,
    );
    let namespaces = rule.namespaces.as_deref().unwrap_or_default();
    let np = p.child("namespaces");
    if namespaces.is_empty() && !rule.cluster_scope {
        errs.push(Error::required(
            &np,
            "resource rules that are not cluster scoped must supply at least one namespace",
        ));
    } else if namespaces.iter().any(|n| n == "*") {
        if namespaces.len() > 1 {
            errs.push(Error::invalid(
                &np,
                go_list(namespaces),
                "if '*' is present, must not specify other namespaces",
            ));
        }
    } else {
        for (i, ns) in namespaces.iter().enumerate() {
            for msg in name_is_dns_label(ns, false) {
                errs.push(Error::invalid(
                    &np.index(i),
                    ns.as_str(),
                    format!("{NS_ERR_INTRO}{msg}"),
                ));
            }
        }
    }
}

/// Go's `ValidateFlowSchemaNonResourcePolicyRule`.
fn non_resource_rule(rule: &NonResourcePolicyRule, p: &Path, errs: &mut ErrorList) {
    verbs(rule.verbs.as_deref().unwrap_or_default(), p, errs);
    let urls = rule.non_resource_urls.as_deref().unwrap_or_default();
    let up = p.child("nonResourceURLs");
    if urls.is_empty() {
        errs.push(Error::required(
            &up,
            "nonResourceURLs must contain at least one value",
        ));
    } else if urls.iter().any(|u| u == "*") {
        if urls.len() > 1 {
            errs.push(Error::invalid(
                &up,
                go_list(urls),
                "if '*' is present, must not specify other non-resource URLs",
            ));
        }
    } else {
        for (i, url) in urls.iter().enumerate() {
            if let Some(msg) = non_resource_url_path(url) {
                errs.push(Error::invalid(&up.index(i), url.as_str(), msg));
            }
        }
    }
}

/// Go's `ValidateNonResourceURLPath`: why a path is refused.
fn non_resource_url_path(path: &str) -> Option<&'static str> {
    if path.is_empty() {
        return Some("must not be empty");
    }
    if path == "/" {
        return None;
    }
    if !path.starts_with('/') {
        return Some("must start with slash");
    }
    if path.contains(' ') {
        return Some("must not contain white-space");
    }
    if path.contains("//") {
        return Some("must not contain double slash");
    }
    let wildcards = path.matches('*').count();
    if wildcards > 1 || (wildcards == 1 && !path.ends_with("/*")) {
        return Some("wildcard can only do suffix matching");
    }
    None
}

/// The conditions of a status: each typed, each type once.
fn conditions<'a>(types: impl Iterator<Item = &'a str>, p: &Path, errs: &mut ErrorList) {
    let mut seen = std::collections::BTreeSet::new();
    for (i, t) in types.enumerate() {
        let ip = p.index(i);
        let tp = ip.child("type");
        if !seen.insert(t) {
            errs.push(Error::duplicate(&tp, BadValue::json_string(t)));
        }
        if t.is_empty() {
            errs.push(Error::required(&tp, ""));
        }
    }
}

/// A string list as Go's internal `[]string` prints (nil when absent or empty: a list
/// Go's semantic comparison takes as equal either way).
fn strings(v: Option<&Vec<String>>) -> String {
    list(v.map_or(&[][..], Vec::as_slice), |s| json_text(s.as_str()))
}

/// A FlowSchema spec as Go's internal struct prints.
fn flow_schema_spec_json(spec: &FlowSchemaSpec) -> String {
    let subject = |s: &Subject| {
        GoStruct::new()
            .field("Kind", s.kind.as_str())
            .raw(
                "User",
                or_null(s.user.as_ref(), |u| {
                    GoStruct::new().field("Name", u.name.as_str()).text()
                }),
            )
            .raw(
                "Group",
                or_null(s.group.as_ref(), |g| {
                    GoStruct::new().field("Name", g.name.as_str()).text()
                }),
            )
            .raw(
                "ServiceAccount",
                or_null(s.service_account.as_ref(), |sa| {
                    GoStruct::new()
                        .field("Namespace", sa.namespace.as_str())
                        .field("Name", sa.name.as_str())
                        .text()
                }),
            )
            .text()
    };
    let resource_rule = |r: &ResourcePolicyRule| {
        GoStruct::new()
            .raw("Verbs", strings(r.verbs.as_ref()))
            .raw("APIGroups", strings(r.api_groups.as_ref()))
            .raw("Resources", strings(r.resources.as_ref()))
            .field("ClusterScope", &r.cluster_scope)
            .raw("Namespaces", strings(r.namespaces.as_ref()))
            .text()
    };
    let non_resource_rule = |r: &NonResourcePolicyRule| {
        GoStruct::new()
            .raw("Verbs", strings(r.verbs.as_ref()))
            .raw("NonResourceURLs", strings(r.non_resource_urls.as_ref()))
            .text()
    };
    let rule = |r: &PolicyRulesWithSubjects| {
        GoStruct::new()
            .raw(
                "Subjects",
                list(r.subjects.as_deref().unwrap_or_default(), subject),
            )
            .raw("ResourceRules", list(&r.resource_rules, resource_rule))
            .raw(
                "NonResourceRules",
                list(&r.non_resource_rules, non_resource_rule),
            )
            .text()
    };
    GoStruct::new()
        .raw(
            "PriorityLevelConfiguration",
            GoStruct::new()
                .field("Name", spec.priority_level_configuration.name.as_str())
                .text(),
        )
        .field("MatchingPrecedence", &spec.matching_precedence)
        .raw(
            "DistinguisherMethod",
            or_null(spec.distinguisher_method.as_ref(), |d| {
                GoStruct::new().field("Type", d.r#type.as_str()).text()
            }),
        )
        .raw("Rules", list(&spec.rules, rule))
        .text()
}

/// The fixed spec of a mandatory FlowSchema (Go's `internalbootstrap`), as its internal
/// JSON: everything (`*`, cluster-scoped and every namespace, and every non-resource
/// URL) for `system:masters` (`exempt`) or every user (`catch-all`).
fn mandatory_flow_schema(name: &str) -> Option<String> {
    let (level, precedence, method, groups): (&str, i32, Option<&str>, &[&str]) = match name {
        "exempt" => ("exempt", 1, None, &["system:masters"]),
        "catch-all" => (
            "catch-all",
            10000,
            Some("ByUser"),
            &["system:unauthenticated", "system:authenticated"],
        ),
        _ => return None,
    };
    let all = Some(vec!["*".to_owned()]);
    let spec = FlowSchemaSpec {
        priority_level_configuration: crate::flowcontrol::v1::PriorityLevelConfigurationReference {
            name: level.to_owned(),
        },
        matching_precedence: precedence,
        distinguisher_method: method.map(|t| crate::flowcontrol::v1::FlowDistinguisherMethod {
            r#type: t.to_owned(),
        }),
        rules: vec![PolicyRulesWithSubjects {
            subjects: Some(
                groups
                    .iter()
                    .map(|g| Subject {
                        kind: "Group".to_owned(),
                        group: Some(crate::flowcontrol::v1::GroupSubject {
                            name: (*g).to_owned(),
                        }),
                        ..Subject::default()
                    })
                    .collect(),
            ),
            resource_rules: vec![ResourcePolicyRule {
                verbs: all.clone(),
                api_groups: all.clone(),
                resources: all.clone(),
                cluster_scope: true,
                namespaces: all.clone(),
            }],
            non_resource_rules: vec![NonResourcePolicyRule {
                verbs: all.clone(),
                non_resource_urls: all,
            }],
        }],
    };
    Some(flow_schema_spec_json(&spec))
}

/// Go's `ValidatePriorityLevelConfiguration` (for a `v1` request).
pub fn validate_priority_level_configuration(pl: &PriorityLevelConfiguration) -> ErrorList {
    priority_level_configuration(pl, None)
}

/// The checks of an object, on create (`old` none) or update: Kubernetes 1.37's
/// declarative rules do not check again what an update left as it was.
fn priority_level_configuration(
    pl: &PriorityLevelConfiguration,
    #[cfg_attr(not(feature = "v1_37"), allow(unused_variables))] old: Option<
        &PriorityLevelConfiguration,
    >,
) -> ErrorList {
    let mp = Path::new("metadata");
    let mut errs = validate_object_meta(&pl.metadata, false, name_is_dns_subdomain, &mp);
    if pl.metadata.annotations.contains_key(PRESERVE_ZERO_SHARES) {
        errs.push(Error::forbidden(
            &mp.child("annotations"),
            format!("annotation '{PRESERVE_ZERO_SHARES}' is forbidden"),
        ));
    }
    let sp = Path::new("spec");
    let name = pl.metadata.name.as_str();
    errs.extend(validate_priority_level_configuration_spec(
        &pl.spec, name, &sp,
    ));
    #[cfg(feature = "v1_37")]
    discriminated(&pl.spec, old.map(|o| &o.spec), &sp, &mut errs);
    mandatory_priority_level(pl, &sp, &mut errs);
    let status = Path::new("status");
    let cp = status.child("conditions");
    conditions(
        pl.status.conditions.iter().map(|c| c.r#type.as_str()),
        &cp,
        &mut errs,
    );
    errs
}

/// The strategy's update: Go's `ValidatePriorityLevelConfiguration` of the new object.
pub fn validate_priority_level_configuration_update(
    new: &PriorityLevelConfiguration,
    old: &PriorityLevelConfiguration,
) -> ErrorList {
    priority_level_configuration(new, Some(old))
}

/// Go's `ValidateIfMandatoryPriorityLevelConfigurationObject`: `exempt` may change only
/// its `exempt` field; `catch-all` nothing.
fn mandatory_priority_level(pl: &PriorityLevelConfiguration, sp: &Path, errs: &mut ErrorList) {
    let name = pl.metadata.name.as_str();
    let (differs, msg) = match name {
        "exempt" => (
            pl.spec.r#type != "Exempt" || pl.spec.limited.is_some(),
            format!("spec of '{name}' except the 'spec.exempt' field must equal the fixed value"),
        ),
        "catch-all" => {
            let fixed = PriorityLevelConfigurationSpec {
                r#type: "Limited".to_owned(),
                limited: Some(crate::flowcontrol::v1::LimitedPriorityLevelConfiguration {
                    nominal_concurrency_shares: Some(5),
                    limit_response: LimitResponse {
                        r#type: "Reject".to_owned(),
                        queuing: None,
                    },
                    lendable_percent: Some(0),
                    borrowing_limit_percent: None,
                }),
                exempt: None,
            };
            (
                priority_level_spec_json(&pl.spec) != priority_level_spec_json(&fixed),
                format!("spec of '{name}' must equal the fixed value"),
            )
        }
        _ => return,
    };
    if differs {
        errs.push(Error::invalid(
            sp,
            BadValue::Json(priority_level_spec_json(&pl.spec)),
            msg,
        ));
    }
}

/// A priority level's spec as Go's internal struct prints.
fn priority_level_spec_json(spec: &PriorityLevelConfigurationSpec) -> String {
    GoStruct::new()
        .field("Type", spec.r#type.as_str())
        .raw(
            "Limited",
            or_null(spec.limited.as_ref(), |l| {
                GoStruct::new()
                    .field(
                        "NominalConcurrencyShares",
                        &l.nominal_concurrency_shares.unwrap_or_default(),
                    )
                    .raw(
                        "LimitResponse",
                        GoStruct::new()
                            .field("Type", l.limit_response.r#type.as_str())
                            .raw(
                                "Queuing",
                                or_null(l.limit_response.queuing.as_ref(), |q| {
                                    GoStruct::new()
                                        .field("Queues", &q.queues)
                                        .field("HandSize", &q.hand_size)
                                        .field("QueueLengthLimit", &q.queue_length_limit)
                                        .text()
                                }),
                            )
                            .text(),
                    )
                    .field("LendablePercent", &l.lendable_percent)
                    .field("BorrowingLimitPercent", &l.borrowing_limit_percent)
                    .text()
            }),
        )
        .raw(
            "Exempt",
            or_null(spec.exempt.as_ref(), |e| {
                GoStruct::new()
                    .field("NominalConcurrencyShares", &e.nominal_concurrency_shares)
                    .field("LendablePercent", &e.lendable_percent)
                    .text()
            }),
        )
        .text()
}

/// What a missing `limited` is told: on Kubernetes 1.37 the declarative
/// rule's error (no detail) stands in for the hand-written one it covers.
#[cfg(not(feature = "v1_37"))]
const LIMITED_REQUIRED: &str = "must not be empty when type is Limited";
#[cfg(feature = "v1_37")]
const LIMITED_REQUIRED: &str = "";

/// Kubernetes 1.37's declarative rules for the spec's unions (`+k8s:discriminator`,
/// beta, enforced): a member set beside another type is forbidden, whatever the type
/// (an unknown or empty one too), `limited` is required with the type `Limited`, and
/// `limitResponse` is checked wherever `limited` is set. The hand-written errors they
/// cover are not reported. On an update (`old`), Go's generated validation does not
/// check again what was left as it was (its "ratcheting"): nothing when the spec is
/// unchanged, a union member when it and the type are, a field when its value is.
#[cfg(feature = "v1_37")]
fn discriminated(
    spec: &PriorityLevelConfigurationSpec,
    old: Option<&PriorityLevelConfigurationSpec>,
    p: &Path,
    errs: &mut ErrorList,
) {
    if old == Some(spec) {
        return;
    }
    let ty = spec.r#type.as_str();
    let same_type = old.is_some_and(|o| o.r#type == spec.r#type);
    if spec.exempt.is_some()
        && ty != "Exempt"
        && !(same_type && old.map(|o| &o.exempt) == Some(&spec.exempt))
    {
        errs.push(Error::forbidden(&p.child("exempt"), ""));
    }
    let limited_path = p.child("limited");
    let limited_unchanged = same_type && old.map(|o| &o.limited) == Some(&spec.limited);
    match &spec.limited {
        None if ty == "Limited" && !limited_unchanged => {
            errs.push(Error::required(&limited_path, LIMITED_REQUIRED));
        }
        Some(_) if ty != "Limited" && !limited_unchanged => {
            errs.push(Error::forbidden(&limited_path, ""));
        }
        _ => {}
    }
    let Some(limited) = &spec.limited else { return };
    // Each level is compared with the old one only where the old object has it.
    let old_limited = old.and_then(|o| o.limited.as_ref());
    if old_limited == Some(limited) {
        return;
    }
    let old_lr = old_limited.map(|l| &l.limit_response);
    let lr = &limited.limit_response;
    if old_lr == Some(lr) {
        return;
    }
    let lp = limited_path.child("limitResponse");
    let qp = lp.child("queuing");
    if !old_lr.is_some_and(|o| o.r#type == lr.r#type && o.queuing == lr.queuing) {
        match (lr.r#type.as_str(), &lr.queuing) {
            ("Queue", None) => errs.push(Error::required(&qp, "")),
            ("Queue", Some(_)) | (_, None) => {}
            (_, Some(_)) => errs.push(Error::forbidden(&qp, "")),
        }
    }
    if lr.r#type.is_empty() && old_lr.is_none_or(|o| o.r#type != lr.r#type) {
        errs.push(Error::required(&lp.child("type"), ""));
    }
}

/// Go's `ValidatePriorityLevelConfigurationSpec`.
pub fn validate_priority_level_configuration_spec(
    spec: &PriorityLevelConfigurationSpec,
    name: &str,
    p: &Path,
) -> ErrorList {
    let mut errs = ErrorList::default();
    let tp = p.child("type");
    let ty = spec.r#type.as_str();
    if (name == "exempt") != (ty == "Exempt") {
        errs.push(Error::invalid(
            &tp,
            BadValue::json_string(ty),
            "must be 'Exempt' if and only if `name` is 'exempt'",
        ));
    }
    match ty {
        "Exempt" => {
            #[cfg(not(feature = "v1_37"))]
            if spec.limited.is_some() {
                errs.push(Error::forbidden(
                    &p.child("limited"),
                    "must be nil if the type is not Limited",
                ));
            }
            if let Some(e) = &spec.exempt {
                let ep = p.child("exempt");
                if let Some(n) = e.nominal_concurrency_shares.filter(|n| *n < 0) {
                    errs.push(Error::invalid(
                        &ep.child("nominalConcurrencyShares"),
                        n,
                        "must be a non-negative integer",
                    ));
                }
                lendable(e.lendable_percent, &ep, &mut errs);
            }
        }
        "Limited" => {
            #[cfg(not(feature = "v1_37"))]
            if spec.exempt.is_some() {
                errs.push(Error::forbidden(
                    &p.child("exempt"),
                    "must be nil if the type is Limited",
                ));
            }
            let lp = p.child("limited");
            match &spec.limited {
                // On 1.37 the declarative rule reports it (see `discriminated`).
                None if cfg!(feature = "v1_37") => {}
                None => errs.push(Error::required(&lp, LIMITED_REQUIRED)),
                Some(l) => {
                    let shares = l.nominal_concurrency_shares.unwrap_or_default();
                    if shares < 0 {
                        errs.push(Error::invalid(
                            &lp.child("nominalConcurrencyShares"),
                            shares,
                            "must be a non-negative integer",
                        ));
                    }
                    limit_response(&l.limit_response, &lp.child("limitResponse"), &mut errs);
                    lendable(l.lendable_percent, &lp, &mut errs);
                    if let Some(b) = l.borrowing_limit_percent.filter(|b| *b < 0) {
                        errs.push(Error::invalid(
                            &lp.child("borrowingLimitPercent"),
                            b,
                            "if specified, must be a non-negative integer",
                        ));
                    }
                }
            }
        }
        "" => errs.push(Error::required(&tp, "")),
        _ => errs.push(Error::not_supported(
            &tp,
            BadValue::json_string(ty),
            ENABLEMENTS,
        )),
    }
    errs
}

fn lendable(percent: Option<i32>, p: &Path, errs: &mut ErrorList) {
    if let Some(l) = percent.filter(|l| !(0..=100).contains(l)) {
        errs.push(Error::invalid(
            &p.child("lendablePercent"),
            l,
            "must be between 0 and 100, inclusive",
        ));
    }
}

/// Go's `ValidateLimitResponse` and `ValidatePriorityLevelQueuingConfiguration`.
fn limit_response(lr: &LimitResponse, p: &Path, errs: &mut ErrorList) {
    let qp = p.child("queuing");
    match lr.r#type.as_str() {
        "Reject" =>
        {
            #[cfg(not(feature = "v1_37"))]
            if lr.queuing.is_some() {
                errs.push(Error::forbidden(
                    &qp,
                    "must be nil if limited.limitResponse.type is not Limited",
                ));
            }
        }
        "Queue" => match &lr.queuing {
            // On 1.37 the declarative rule reports it (see `discriminated`).
            None if cfg!(feature = "v1_37") => {}
            None => errs.push(Error::required(
                &qp,
                "must not be empty if limited.limitResponse.type is Limited",
            )),
            Some(q) => {
                if q.queue_length_limit <= 0 {
                    errs.push(Error::invalid(
                        &qp.child("queueLengthLimit"),
                        q.queue_length_limit,
                        "must be positive",
                    ));
                }
                let queues = qp.child("queues");
                if q.queues <= 0 {
                    errs.push(Error::invalid(&queues, q.queues, "must be positive"));
                } else if q.queues > MAX_QUEUES {
                    errs.push(Error::invalid(
                        &queues,
                        q.queues,
                        format!("must not be greater than {MAX_QUEUES}"),
                    ));
                }
                let hp = qp.child("handSize");
                if q.hand_size <= 0 {
                    errs.push(Error::invalid(&hp, q.hand_size, "must be positive"));
                } else if q.hand_size > q.queues {
                    errs.push(Error::invalid(
                        &hp,
                        q.hand_size,
                        format!("should not be greater than queues ({})", q.queues),
                    ));
                } else if required_entropy_bits(q.queues, q.hand_size) > MAX_HASH_BITS {
                    errs.push(Error::invalid(
                        &hp,
                        q.hand_size,
                        format!(
                            "required entropy bits of deckSize {} and handSize {} should not be greater than {MAX_HASH_BITS}",
                            q.queues, q.hand_size
                        ),
                    ));
                }
            }
        },
        // On 1.37 the declarative rules report a missing type (see `discriminated`).
        "" if cfg!(feature = "v1_37") => {}
        "" => errs.push(Error::required(&p.child("type"), "")),
        other => errs.push(Error::not_supported(
            &p.child("type"),
            BadValue::json_string(other),
            LIMIT_RESPONSE_TYPES,
        )),
    }
}

/// Go's `shufflesharding.RequiredEntropyBits`: `ceil(log2(deck) * hand)`.
fn required_entropy_bits(deck: i32, hand: i32) -> i64 {
    #[allow(clippy::cast_possible_truncation)]
    let bits = (f64::from(deck).log2() * f64::from(hand)).ceil() as i64;
    bits
}
