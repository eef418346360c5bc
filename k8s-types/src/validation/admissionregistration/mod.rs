//! The admissionregistration group's validation (Go's
//! `pkg/apis/admissionregistration/validation`): ValidatingWebhookConfiguration and
//! MutatingWebhookConfiguration here, the admission policies' bindings in `binding`,
//! ValidatingAdmissionPolicy and MutatingAdmissionPolicy in `policy`, the former's
//! `/status` in `policy_status`. The CEL
//! expressions (match conditions, validations, mutations, ...) Go compiles; ours does
//! not (see `cel.rs`), so only an empty one is refused.

use std::collections::BTreeSet;

use apimachinery::apis::meta::v1::LabelSelector;
use apimachinery::apis::meta::v1::validation::{name_is_dns_subdomain, validate_object_meta};
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
use apimachinery::util::validation::{is_dns1035_label, is_dns1123_subdomain, is_qualified_name};

use super::go_value::go_list;
use super::invalid_each;
use super::label_selector::validate_label_selector_with;
use super::webhook_client::{ServiceRef, validate_client_config};
use crate::admissionregistration::v1::{
    MatchCondition, MutatingWebhook, MutatingWebhookConfiguration, RuleWithOperations,
    ValidatingWebhook, ValidatingWebhookConfiguration, WebhookClientConfig,
};

mod binding;
mod policy;
mod policy_status;

pub use binding::*;
pub use policy::*;
pub use policy_status::*;

/// Go's `supportedFailurePolicies` (sorted, as Go lists them).
const FAILURE_POLICIES: &[&str] = &["Fail", "Ignore"];
const MATCH_POLICIES: &[&str] = &["Equivalent", "Exact"];
const SIDE_EFFECT_CLASSES: &[&str] = &["None", "NoneOnDryRun", "Some", "Unknown"];
const NO_SIDE_EFFECT_CLASSES: &[&str] = &["None", "NoneOnDryRun"];
const OPERATIONS: &[&str] = &["*", "CONNECT", "CREATE", "DELETE", "UPDATE"];
const REINVOCATION_POLICIES: &[&str] = &["IfNeeded", "Never"];
const SCOPES: &[&str] = &["*", "Cluster", "Namespaced"];
/// Go's `AcceptedAdmissionReviewVersions`.
const ACCEPTED_REVIEW_VERSIONS: &[&str] = &["v1", "v1beta1"];
const MAX_MATCH_CONDITIONS: usize = 64;

/// Go's `validationOptions`, as far as webhooks use them: an update is judged by what
/// the old object already had.
#[derive(Clone, Copy, Debug)]
struct Options {
    ignore_match_conditions: bool,
    require_no_side_effects: bool,
    require_recognized_review_version: bool,
    require_unique_webhook_names: bool,
    allow_invalid_label_value_in_selector: bool,
}

const CREATE: Options = Options {
    ignore_match_conditions: false,
    require_no_side_effects: true,
    require_recognized_review_version: true,
    require_unique_webhook_names: true,
    allow_invalid_label_value_in_selector: false,
};

/// What validating and mutating webhooks share.
struct Hook<'a> {
    name: &'a str,
    client_config: &'a WebhookClientConfig,
    rules: &'a [RuleWithOperations],
    failure_policy: Option<&'a str>,
    match_policy: Option<&'a str>,
    namespace_selector: Option<&'a LabelSelector>,
    object_selector: Option<&'a LabelSelector>,
    side_effects: Option<&'a str>,
    timeout_seconds: Option<i32>,
    admission_review_versions: &'a [String],
    match_conditions: &'a [MatchCondition],
    /// Mutating webhooks only.
    reinvocation_policy: Option<&'a str>,
}

/// A webhook's shared fields seen as a [`Hook`], with its reinvocation policy.
macro_rules! hook_from {
    ($ty:ty, |$h:ident| $reinvocation:expr) => {
        impl<'a> From<&'a $ty> for Hook<'a> {
            fn from($h: &'a $ty) -> Self {
                Hook {
                    name: &$h.name,
                    client_config: &$h.client_config,
                    rules: &$h.rules,
                    failure_policy: $h.failure_policy.as_deref(),
                    match_policy: $h.match_policy.as_deref(),
                    namespace_selector: $h.namespace_selector.as_ref(),
                    object_selector: $h.object_selector.as_ref(),
                    side_effects: $h.side_effects.as_deref(),
                    timeout_seconds: $h.timeout_seconds,
                    admission_review_versions: $h
                        .admission_review_versions
                        .as_deref()
                        .unwrap_or_default(),
                    match_conditions: &$h.match_conditions,
                    reinvocation_policy: $reinvocation,
                }
            }
        }
    };
}

hook_from!(ValidatingWebhook, |h| None);
hook_from!(MutatingWebhook, |h| h.reinvocation_policy.as_deref());

/// Go's `ValidateValidatingWebhookConfiguration`.
pub fn validate_validating_webhook_configuration(c: &ValidatingWebhookConfiguration) -> ErrorList {
    let hooks: Vec<Hook<'_>> = c.webhooks.iter().map(Hook::from).collect();
    configuration(&c.metadata, &hooks, CREATE)
}

/// Go's `ValidateValidatingWebhookConfigurationUpdate`: the new object, judged as
/// strictly as the old one allows.
pub fn validate_validating_webhook_configuration_update(
    new: &ValidatingWebhookConfiguration,
    old: &ValidatingWebhookConfiguration,
) -> ErrorList {
    let hooks: Vec<Hook<'_>> = new.webhooks.iter().map(Hook::from).collect();
    let old_hooks: Vec<Hook<'_>> = old.webhooks.iter().map(Hook::from).collect();
    configuration(&new.metadata, &hooks, update_options(&hooks, &old_hooks))
}

/// Go's `ValidateMutatingWebhookConfiguration`.
pub fn validate_mutating_webhook_configuration(c: &MutatingWebhookConfiguration) -> ErrorList {
    let hooks: Vec<Hook<'_>> = c.webhooks.iter().map(Hook::from).collect();
    configuration(&c.metadata, &hooks, CREATE)
}

/// Go's `ValidateMutatingWebhookConfigurationUpdate`.
pub fn validate_mutating_webhook_configuration_update(
    new: &MutatingWebhookConfiguration,
    old: &MutatingWebhookConfiguration,
) -> ErrorList {
    let hooks: Vec<Hook<'_>> = new.webhooks.iter().map(Hook::from).collect();
    let old_hooks: Vec<Hook<'_>> = old.webhooks.iter().map(Hook::from).collect();
    configuration(&new.metadata, &hooks, update_options(&hooks, &old_hooks))
}

/// An update's options: match conditions unchanged are not judged again; side effects,
/// review versions, unique names and valid selectors are required only where every
/// old webhook had them.
fn update_options(new: &[Hook<'_>], old: &[Hook<'_>]) -> Options {
    Options {
        ignore_match_conditions: new.len() == old.len()
            && new
                .iter()
                .zip(old)
                .all(|(n, o)| n.match_conditions == o.match_conditions),
        require_no_side_effects: old.iter().all(|h| {
            h.side_effects
                .is_some_and(|s| NO_SIDE_EFFECT_CLASSES.contains(&s))
        }),
        require_recognized_review_version: old.iter().all(|h| {
            h.admission_review_versions.is_empty()
                || h.admission_review_versions
                    .iter()
                    .any(|v| ACCEPTED_REVIEW_VERSIONS.contains(&v.as_str()))
        }),
        require_unique_webhook_names: {
            let mut seen = BTreeSet::new();
            old.iter().all(|h| seen.insert(h.name))
        },
        allow_invalid_label_value_in_selector: old.iter().any(|h| {
            [h.namespace_selector, h.object_selector]
                .into_iter()
                .flatten()
                .any(|s| {
                    !apimachinery::apis::meta::v1::validation::validate_label_selector(
                        s,
                        &Path::root(),
                    )
                    .is_empty()
                })
        }),
    }
}

/// Go's `validate(Validating|Mutating)WebhookConfiguration`.
fn configuration(
    meta: &apimachinery::apis::meta::v1::ObjectMeta,
    hooks: &[Hook<'_>],
    opts: Options,
) -> ErrorList {
    let mut errs = validate_object_meta(meta, false, name_is_dns_subdomain, &Path::new("metadata"));
    let webhooks = Path::new("webhooks");
    let mut names = BTreeSet::new();
    for (i, hook) in hooks.iter().enumerate() {
        let p = webhooks.index(i);
        webhook(hook, opts, &p, &mut errs);
        review_versions(
            hook.admission_review_versions,
            opts.require_recognized_review_version,
            &p.child("admissionReviewVersions"),
            &mut errs,
        );
        if opts.require_unique_webhook_names && !hook.name.is_empty() && !names.insert(hook.name) {
            errs.push(Error::duplicate(&p.child("name"), hook.name));
        }
    }
    errs
}

/// Go's `validateAdmissionReviewVersions`.
fn review_versions(versions: &[String], require_recognized: bool, p: &Path, errs: &mut ErrorList) {
    if versions.is_empty() {
        errs.push(Error::required(
            p,
            format!(
                "must specify one of {}",
                ACCEPTED_REVIEW_VERSIONS.join(", ")
            ),
        ));
        return;
    }
    let mut seen = BTreeSet::new();
    let mut accepted = false;
    for (i, v) in versions.iter().enumerate() {
        let ip = p.index(i);
        if !seen.insert(v.as_str()) {
            errs.push(Error::invalid(&ip, v.as_str(), "duplicate version"));
            continue;
        }
        invalid_each(errs, &ip, v, is_dns1035_label(v));
        accepted |= ACCEPTED_REVIEW_VERSIONS.contains(&v.as_str());
    }
    if require_recognized && !accepted {
        errs.push(Error::invalid(
            p,
            go_list(versions),
            format!(
                "must include at least one of {}",
                ACCEPTED_REVIEW_VERSIONS.join(", ")
            ),
        ));
    }
}

/// Go's `IsFullyQualifiedName`: a DNS subdomain of at least three labels.
fn fully_qualified_name(name: &str, p: &Path, errs: &mut ErrorList) {
    if name.is_empty() {
        errs.push(Error::required(p, ""));
        return;
    }
    let msgs = is_dns1123_subdomain(name);
    if !msgs.is_empty() {
        errs.push(Error::invalid(p, name, msgs.join(",")));
    } else if name.split('.').count() < 3 {
        errs.push(Error::invalid(
            p,
            name,
            "should be a domain with at least three segments separated by dots",
        ));
    }
}

/// One of the values a field may take, when set.
fn supported(value: Option<&str>, allowed: &[&str], p: &Path, errs: &mut ErrorList) {
    if let Some(v) = value.filter(|v| !allowed.contains(v)) {
        errs.push(Error::not_supported(p, BadValue::json_string(v), allowed));
    }
}

/// Go's `validateValidatingWebhook` and `validateMutatingWebhook`.
fn webhook(hook: &Hook<'_>, opts: Options, p: &Path, errs: &mut ErrorList) {
    fully_qualified_name(hook.name, &p.child("name"), errs);
    let rules = p.child("rules");
    for (i, rule) in hook.rules.iter().enumerate() {
        rule_with_operations(rule, &rules.index(i), errs);
    }
    supported(
        hook.failure_policy,
        FAILURE_POLICIES,
        &p.child("failurePolicy"),
        errs,
    );
    supported(
        hook.match_policy,
        MATCH_POLICIES,
        &p.child("matchPolicy"),
        errs,
    );
    let side_effects = if opts.require_no_side_effects {
        NO_SIDE_EFFECT_CLASSES
    } else {
        SIDE_EFFECT_CLASSES
    };
    let sp = p.child("sideEffects");
    if hook.side_effects.is_none() {
        errs.push(Error::required(
            &sp,
            format!("must specify one of {}", side_effects.join(", ")),
        ));
    }
    supported(hook.side_effects, side_effects, &sp, errs);
    if let Some(t) = hook.timeout_seconds.filter(|t| !(1..=30).contains(t)) {
        errs.push(Error::invalid(
            &p.child("timeoutSeconds"),
            t,
            "the timeout value must be between 1 and 30 seconds",
        ));
    }
    let allow = opts.allow_invalid_label_value_in_selector;
    errs.extend(validate_label_selector_with(
        hook.namespace_selector,
        allow,
        &p.child("namespaceSelector"),
    ));
    errs.extend(validate_label_selector_with(
        hook.object_selector,
        allow,
        &p.child("objectSelector"),
    ));
    supported(
        hook.reinvocation_policy,
        REINVOCATION_POLICIES,
        &p.child("reinvocationPolicy"),
        errs,
    );
    client_config(hook.client_config, &p.child("clientConfig"), errs);
    if !opts.ignore_match_conditions {
        match_conditions(hook.match_conditions, &p.child("matchConditions"), errs);
    }
}

/// Go's `validateRuleWithOperations` and `validateRule` (subresources allowed).
fn rule_with_operations(rule: &RuleWithOperations, p: &Path, errs: &mut ErrorList) {
    let op = p.child("operations");
    if rule.operations.is_empty() {
        errs.push(Error::required(&op, ""));
    }
    if rule.operations.len() > 1 && rule.operations.iter().any(|o| o == "*") {
        errs.push(Error::invalid(
            &op,
            go_list(&rule.operations),
            "if '*' is present, must not specify other operations",
        ));
    }
    for (i, o) in rule.operations.iter().enumerate() {
        supported(Some(o), OPERATIONS, &op.index(i), errs);
    }
    for (field, list, what) in [
        ("apiGroups", &rule.api_groups, "API groups"),
        ("apiVersions", &rule.api_versions, "API versions"),
    ] {
        let fp = p.child(field);
        if list.is_empty() {
            errs.push(Error::required(&fp, ""));
        }
        if list.len() > 1 && list.iter().any(|g| g == "*") {
            errs.push(Error::invalid(
                &fp,
                go_list(list),
                format!("if '*' is present, must not specify other {what}"),
            ));
        }
    }
    let vp = p.child("apiVersions");
    for (i, v) in rule.api_versions.iter().enumerate() {
        if v.is_empty() {
            errs.push(Error::required(&vp.index(i), ""));
        }
    }
    resources(&rule.resources, &p.child("resources"), errs);
    supported(rule.scope.as_deref(), SCOPES, &p.child("scope"), errs);
}

/// Go's `validateResources`: resources and `resource/subresource` pairs whose
/// wildcards do not overlap.
fn resources(resources: &[String], p: &Path, errs: &mut ErrorList) {
    if resources.is_empty() {
        errs.push(Error::required(p, ""));
    }
    let mut with_wildcard_sub = BTreeSet::new();
    let mut sub_with_wildcard_res = BTreeSet::new();
    let (mut double, mut single, mut plain) = (false, false, false);
    for (i, res_sub) in resources.iter().enumerate() {
        let ip = p.index(i);
        if res_sub.is_empty() {
            errs.push(Error::required(&ip, ""));
            continue;
        }
        double |= res_sub == "*/*";
        single |= res_sub == "*";
        let Some((res, sub)) = res_sub.split_once('/') else {
            plain = res_sub != "*";
            continue;
        };
        if with_wildcard_sub.contains(res) {
            errs.push(Error::invalid(
                &ip,
                res_sub.as_str(),
                format!("if '{res}/*' is present, must not specify {res_sub}"),
            ));
        }
        if sub_with_wildcard_res.contains(sub) {
            errs.push(Error::invalid(
                &ip,
                res_sub.as_str(),
                format!("if '*/{sub}' is present, must not specify {res_sub}"),
            ));
        }
        if sub == "*" {
            with_wildcard_sub.insert(res);
        }
        if res == "*" {
            sub_with_wildcard_res.insert(sub);
        }
    }
    if resources.len() > 1 && double {
        errs.push(Error::invalid(
            p,
            go_list(resources),
            "if '*/*' is present, must not specify other resources",
        ));
    }
    if single && plain {
        errs.push(Error::invalid(
            p,
            go_list(resources),
            "if '*' is present, must not specify other resources without subresources",
        ));
    }
}

/// A webhook's client configuration: a URL or a service, exactly one.
fn client_config(cc: &WebhookClientConfig, p: &Path, errs: &mut ErrorList) {
    let service = cc.service.as_ref().map(|s| ServiceRef {
        name: &s.name,
        namespace: &s.namespace,
        path: s.path.as_deref(),
        port: s.port.unwrap_or_default(),
    });
    validate_client_config(cc.url.as_deref(), service, p, errs);
}

/// Go's `validateMatchConditions`: at most 64, named (qualified names, unique) with an
/// expression (compiled in Go).
fn match_conditions(conditions: &[MatchCondition], p: &Path, errs: &mut ErrorList) {
    if conditions.len() > MAX_MATCH_CONDITIONS {
        let count = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
        errs.push(Error::too_many(
            p,
            count(conditions.len()),
            count(MAX_MATCH_CONDITIONS),
        ));
    }
    let mut names = BTreeSet::new();
    for (i, c) in conditions.iter().enumerate() {
        let ip = p.index(i);
        let expression = c.expression.trim();
        if expression.is_empty() {
            errs.push(Error::required(&ip.child("expression"), ""));
        }
        let np = ip.child("name");
        if c.name.is_empty() {
            errs.push(Error::required(&np, ""));
        } else {
            invalid_each(errs, &np, &c.name, is_qualified_name(&c.name));
        }
        if !c.name.is_empty() && !names.insert(c.name.as_str()) {
            errs.push(Error::duplicate(&np, c.name.as_str()));
        }
    }
}
