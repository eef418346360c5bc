//! A Job's policies (Go's `validatePodFailurePolicy`, `validateSuccessPolicy`,
//! `validatePodReplacementPolicy`) and the index lists of Indexed Jobs
//! (`validateIndexesFormat`).

use std::collections::BTreeSet;

use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path, go_quote};
use apimachinery::util::validation::is_qualified_name;

use crate::batch::v1::{
    JobSpec, PodFailurePolicy, PodFailurePolicyOnExitCodesRequirement,
    PodFailurePolicyOnPodConditionsPattern, PodFailurePolicyRule, SuccessPolicy, SuccessPolicyRule,
};
use crate::validation::go_internal::GoStruct;
use crate::validation::{invalid_each, json_value, non_negative};

const MAX_POD_FAILURE_POLICY_RULES: usize = 20;
const MAX_ON_EXIT_CODES_VALUES: usize = 255;
const MAX_ON_POD_CONDITIONS_PATTERNS: usize = 20;
const MAX_SUCCEEDED_INDEXES_LENGTH: i64 = 64 * 1024;
const MAX_SUCCESS_POLICY_RULES: usize = 20;

/// The actions of a pod failure policy rule, as Go lists them (sorted).
const ACTIONS: [&str; 4] = ["Count", "FailIndex", "FailJob", "Ignore"];
const OPERATORS: [&str; 2] = ["In", "NotIn"];
const CONDITION_STATUSES: [&str; 3] = ["False", "True", "Unknown"];

/// A value of one of Go's named string types, printed through `json.Marshal`.
fn named(s: &str) -> BadValue {
    json_value(s)
}

/// Go's `%q` of a `[]string`: `["a" "b"]`, for the "valid values" details.
fn quoted_list(values: &[&str]) -> String {
    let quoted: Vec<String> = values.iter().map(|v| go_quote(v)).collect();
    format!("[{}]", quoted.join(" "))
}

fn len_i64(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// Go's `validatePodFailurePolicy`.
pub(super) fn pod_failure_policy(
    spec: &JobSpec,
    policy: &PodFailurePolicy,
    path: &Path,
    errs: &mut ErrorList,
) {
    let rules_path = path.child("rules");
    let rules = policy.rules.as_deref().unwrap_or_default();
    if rules.len() > MAX_POD_FAILURE_POLICY_RULES {
        errs.push(Error::too_many(
            &rules_path,
            len_i64(rules.len()),
            len_i64(MAX_POD_FAILURE_POLICY_RULES),
        ));
    }
    let pod = &spec.template.spec;
    let names: BTreeSet<&str> = pod
        .containers
        .iter()
        .flatten()
        .chain(&pod.init_containers)
        .map(|c| c.name.as_str())
        .collect();
    for (i, rule) in rules.iter().enumerate() {
        pod_failure_policy_rule(spec, rule, &rules_path.index(i), &names, errs);
    }
}

fn pod_failure_policy_rule(
    spec: &JobSpec,
    rule: &PodFailurePolicyRule,
    path: &Path,
    names: &BTreeSet<&str>,
    errs: &mut ErrorList,
) {
    let action_path = path.child("action");
    match rule.action.as_str() {
        "" => errs.push(Error::required(
            &action_path,
            format!("valid values: {}", quoted_list(&ACTIONS)),
        )),
        "FailIndex" => {
            if spec.backoff_limit_per_index.is_none() {
                errs.push(Error::invalid(
                    &action_path,
                    named(&rule.action),
                    "requires the backoffLimitPerIndex to be set",
                ));
            }
        }
        a if ACTIONS.contains(&a) => {}
        a => errs.push(Error::not_supported(&action_path, named(a), &ACTIONS)),
    }
    if let Some(on_exit_codes) = &rule.on_exit_codes {
        exit_codes(on_exit_codes, &path.child("onExitCodes"), names, errs);
    }
    if !rule.on_pod_conditions.is_empty() {
        pod_conditions(
            &rule.on_pod_conditions,
            &path.child("onPodConditions"),
            errs,
        );
    }
    match (
        rule.on_exit_codes.is_some(),
        rule.on_pod_conditions.is_empty(),
    ) {
        (true, false) => errs.push(Error::invalid(
            path,
            BadValue::Omit,
            "specifying both OnExitCodes and OnPodConditions is not supported",
        )),
        (false, true) => errs.push(Error::invalid(
            path,
            BadValue::Omit,
            "specifying one of OnExitCodes and OnPodConditions is required",
        )),
        _ => {}
    }
}

fn pod_conditions(
    patterns: &[PodFailurePolicyOnPodConditionsPattern],
    path: &Path,
    errs: &mut ErrorList,
) {
    if patterns.len() > MAX_ON_POD_CONDITIONS_PATTERNS {
        errs.push(Error::too_many(
            path,
            len_i64(patterns.len()),
            len_i64(MAX_ON_POD_CONDITIONS_PATTERNS),
        ));
    }
    for (j, pattern) in patterns.iter().enumerate() {
        let pp = path.index(j);
        invalid_each(
            errs,
            &pp.child("type"),
            &pattern.r#type,
            is_qualified_name(&pattern.r#type),
        );
        let status_path = pp.child("status");
        match pattern.status.as_str() {
            "" => errs.push(Error::required(
                &status_path,
                format!("valid values: {}", quoted_list(&CONDITION_STATUSES)),
            )),
            s if CONDITION_STATUSES.contains(&s) => {}
            s => errs.push(Error::not_supported(
                &status_path,
                named(s),
                &CONDITION_STATUSES,
            )),
        }
    }
}

fn exit_codes(
    req: &PodFailurePolicyOnExitCodesRequirement,
    path: &Path,
    names: &BTreeSet<&str>,
    errs: &mut ErrorList,
) {
    let operator_path = path.child("operator");
    match req.operator.as_str() {
        "" => errs.push(Error::required(
            &operator_path,
            format!("valid values: {}", quoted_list(&OPERATORS)),
        )),
        o if OPERATORS.contains(&o) => {}
        o => errs.push(Error::not_supported(&operator_path, named(o), &OPERATORS)),
    }
    if let Some(name) = &req.container_name {
        if !names.contains(name.as_str()) {
            errs.push(Error::invalid(
                &path.child("containerName"),
                name,
                "must be one of the container or initContainer names in the pod template",
            ));
        }
    }
    let values_path = path.child("values");
    let values = req.values.as_deref().unwrap_or_default();
    if values.is_empty() {
        errs.push(Error::invalid(
            &values_path,
            json_value(&req.values),
            "at least one value is required",
        ));
    } else if values.len() > MAX_ON_EXIT_CODES_VALUES {
        errs.push(Error::too_many(
            &values_path,
            len_i64(values.len()),
            len_i64(MAX_ON_EXIT_CODES_VALUES),
        ));
    }
    let mut seen = BTreeSet::new();
    for (j, &value) in values.iter().enumerate() {
        let vp = values_path.index(j);
        if req.operator == "In" && value == 0 {
            errs.push(Error::invalid(
                &vp,
                value,
                "must not be 0 for the In operator",
            ));
        }
        if !seen.insert(value) {
            errs.push(Error::duplicate(&vp, value));
        }
    }
    if values.windows(2).any(|w| w[0] > w[1]) {
        errs.push(Error::invalid(
            &values_path,
            json_value(&req.values),
            "must be ordered",
        ));
    }
}

/// Go's `validatePodReplacementPolicy`: `Failed` only, with a pod failure policy.
pub(super) fn pod_replacement_policy(spec: &JobSpec, path: &Path, errs: &mut ErrorList) {
    let Some(policy) = &spec.pod_replacement_policy else {
        return;
    };
    if spec.pod_failure_policy.is_some() {
        if policy != "Failed" {
            errs.push(Error::not_supported(path, named(policy), &["Failed"]));
        }
    } else if policy != "Failed" && policy != "TerminatingOrFailed" {
        errs.push(Error::not_supported(
            path,
            named(policy),
            &["Failed", "TerminatingOrFailed"],
        ));
    }
}

/// The internal `SuccessPolicy` Go prints (when the completion mode cannot have one,
/// or an update changes it).
pub(super) fn internal_success_policy(policy: &SuccessPolicy) -> String {
    let rules = policy.rules.as_ref().map(|rules| {
        let items: Vec<String> = rules
            .iter()
            .map(|r| {
                GoStruct::new()
                    .field("SucceededIndexes", &r.succeeded_indexes)
                    .field("SucceededCount", &r.succeeded_count)
                    .text()
            })
            .collect();
        format!("[{}]", items.join(","))
    });
    GoStruct::new()
        .raw("Rules", rules.as_deref().unwrap_or("null"))
        .text()
}

/// Go's `validateSuccessPolicy`, for an Indexed Job (`completions` is what Go
/// dereferences; without it Go panics, and nothing is checked here).
pub(super) fn success_policy(
    spec: &JobSpec,
    policy: &SuccessPolicy,
    path: &Path,
    errs: &mut ErrorList,
) {
    let rules_path = path.child("rules");
    let rules = policy.rules.as_deref().unwrap_or_default();
    if rules.is_empty() {
        errs.push(Error::required(
            &rules_path,
            "at least one rules must be specified when the successPolicy is specified",
        ));
    }
    if rules.len() > MAX_SUCCESS_POLICY_RULES {
        errs.push(Error::too_many(
            &rules_path,
            len_i64(rules.len()),
            len_i64(MAX_SUCCESS_POLICY_RULES),
        ));
    }
    for (i, rule) in rules.iter().enumerate() {
        success_policy_rule(spec, rule, &rules_path.index(i), errs);
    }
}

fn success_policy_rule(
    spec: &JobSpec,
    rule: &SuccessPolicyRule,
    path: &Path,
    errs: &mut ErrorList,
) {
    if rule.succeeded_count.is_none() && rule.succeeded_indexes.is_none() {
        errs.push(Error::required(
            path,
            "at least one of succeededCount or succeededIndexes must be specified",
        ));
    }
    let Some(completions) = spec.completions else {
        return;
    };
    let mut total = 0;
    if let Some(indexes) = &rule.succeeded_indexes {
        let ip = path.child("succeededIndexes");
        if len_i64(indexes.len()) > MAX_SUCCEEDED_INDEXES_LENGTH {
            errs.push(Error::too_long(&ip, MAX_SUCCEEDED_INDEXES_LENGTH));
        }
        match indexes_format(indexes, completions) {
            Ok(t) => total = t,
            Err(e) => errs.push(Error::invalid(
                &ip,
                indexes,
                format!("error parsing succeededIndexes: {e}"),
            )),
        }
    }
    if let Some(count) = rule.succeeded_count {
        let cp = path.child("succeededCount");
        non_negative(i64::from(count), &cp, errs);
        if count > completions {
            errs.push(Error::invalid(
                &cp,
                count,
                format!(
                    "must be less than or equal to {completions} (the number of specified completions)"
                ),
            ));
        }
        if rule.succeeded_indexes.is_some() && count > total {
            errs.push(Error::invalid(
                &cp,
                count,
                format!(
                    "must be less than or equal to {total} (the number of indexes in the specified succeededIndexes field)"
                ),
            ));
        }
    }
}

/// Go's `validateIndexesFormat`: comma-separated indexes and `x-y` intervals below
/// `completions`, increasing; the number of indexes they hold (Go's int32 sum).
pub(crate) fn indexes_format(indexes: &str, completions: i32) -> Result<i32, String> {
    if indexes.is_empty() {
        return Ok(0);
    }
    let mut last: Option<i64> = None;
    let mut total: i32 = 0;
    for interval in indexes.split(',') {
        let (x, y) = index_interval(interval, completions)?;
        if let Some(last) = last {
            if last >= x {
                return Err(format!(
                    "non-increasing order, previous: {last}, current: {x}"
                ));
            }
        }
        // Both are below `completions`, an int32, as Go's conversions assume.
        let count = i32::try_from(y - x + 1).unwrap_or(i32::MAX);
        total = total.wrapping_add(count);
        last = Some(y);
    }
    Ok(total)
}

/// Go's `parseIndexInterval`.
pub(super) fn index_interval(interval: &str, completions: i32) -> Result<(i64, i64), String> {
    let limits: Vec<&str> = interval.split('-').collect();
    if limits.len() > 2 {
        return Err(format!(
            "the fragment {} violates the requirement that an index interval can have at most two parts separated by '-'",
            go_quote(interval)
        ));
    }
    let parse = |s: &str| -> Result<i64, String> {
        let x = go_atoi(s).ok_or_else(|| {
            format!(
                "cannot convert string to integer for index: {}",
                go_quote(s)
            )
        })?;
        if x >= i64::from(completions) {
            return Err(format!("too large index: {}", go_quote(s)));
        }
        Ok(x)
    };
    let x = parse(limits[0])?;
    if limits.len() == 1 {
        return Ok((x, x));
    }
    let y = parse(limits[1])?;
    if x >= y {
        return Err(format!("non-increasing order, previous: {x}, current: {y}"));
    }
    Ok((x, y))
}

/// Go's `strconv.Atoi`: a decimal integer with an optional sign, within int64.
fn go_atoi(s: &str) -> Option<i64> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// The internal `PodFailurePolicy` Go prints when an update changes it.
pub(super) fn internal_pod_failure_policy(policy: &PodFailurePolicy) -> String {
    let rules = policy.rules.as_ref().map(|rules| {
        let items: Vec<String> = rules.iter().map(internal_rule).collect();
        format!("[{}]", items.join(","))
    });
    GoStruct::new()
        .raw("Rules", rules.as_deref().unwrap_or("null"))
        .text()
}

fn internal_rule(rule: &PodFailurePolicyRule) -> String {
    let on_exit_codes = rule.on_exit_codes.as_ref().map(|r| {
        GoStruct::new()
            .field("ContainerName", &r.container_name)
            .field("Operator", &r.operator)
            .field("Values", &r.values)
            .text()
    });
    let on_pod_conditions = if rule.on_pod_conditions.is_empty() {
        "null".to_owned()
    } else {
        let items: Vec<String> = rule
            .on_pod_conditions
            .iter()
            .map(|p| {
                GoStruct::new()
                    .field("Type", &p.r#type)
                    .field("Status", &p.status)
                    .text()
            })
            .collect();
        format!("[{}]", items.join(","))
    };
    GoStruct::new()
        .field("Action", &rule.action)
        .raw("OnExitCodes", on_exit_codes.as_deref().unwrap_or("null"))
        .raw("OnPodConditions", &on_pod_conditions)
        .text()
}
