//! A namespace's resource policies: `v1` LimitRange (Go's `ValidateLimitRange`, on
//! create and, alone, on update) and ResourceQuota (`ValidateResourceQuota`,
//! `ValidateResourceQuotaUpdate`).

use std::collections::{BTreeMap, BTreeSet};

use apimachinery::apis::meta::v1::validation::{FIELD_IMMUTABLE_ERROR_MSG, name_is_dns_subdomain};
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
use apimachinery::util::validation::is_qualified_name;

use super::super::go_internal::{GoStruct, json_text, list};
use super::super::go_value::{go_json, go_list};
use super::super::{validate_object_meta, validate_object_meta_update};
use super::resources::{
    overcommit_allowed, resource_quantity_value, validate_container_resource_name,
    validate_resource_name,
};
use crate::core::v1::{LimitRange, LimitRangeItem, ResourceQuota, ResourceQuotaSpec};
use crate::validation::resource_names::is_standard_resource_name;
use crate::value::Quantity;

const LIMIT_TYPES: &[&str] = &["Container", "PersistentVolumeClaim", "Pod"];

/// Go's `standardResourceQuotaScopes` and `CrossNamespacePodAffinity`.
const QUOTA_SCOPES: &[&str] = &[
    "Terminating",
    "NotTerminating",
    "BestEffort",
    "NotBestEffort",
    "PriorityClass",
    "VolumeAttributesClass",
    "CrossNamespacePodAffinity",
];

const POD_COMPUTE_RESOURCES: &[&str] = &[
    "cpu",
    "memory",
    "limits.cpu",
    "limits.memory",
    "requests.cpu",
    "requests.memory",
];

/// Go's `resource.MaxMilliValue`.
const MAX_MILLI_VALUE: i64 = i64::MAX / 1000;

/// Go's `ValidateLimitRange`.
pub fn validate_limit_range(lr: &LimitRange) -> ErrorList {
    let mut errs = validate_object_meta(
        &lr.metadata,
        true,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let spec = Path::new("spec");
    let path = spec.child("limits");
    let mut types = BTreeSet::new();
    for (i, limit) in lr.spec.limits.iter().flatten().enumerate() {
        let p = path.index(i);
        let tp = p.child("type");
        limit_type_name(&limit.r#type, &tp, &mut errs);
        if !types.insert(limit.r#type.as_str()) {
            errs.push(Error::duplicate(&tp, BadValue::json_string(&limit.r#type)));
        }
        limit_range_item(limit, &p, &mut errs);
    }
    errs
}

/// The strategy's update: Go's `ValidateLimitRange` of the new object alone (its
/// metadata's identity is the store's to check).
pub fn validate_limit_range_update(new: &LimitRange, _old: &LimitRange) -> ErrorList {
    validate_limit_range(new)
}

/// Go's `validateLimitRangeTypeName`.
fn limit_type_name(value: &str, path: &Path, errs: &mut ErrorList) {
    let msgs = is_qualified_name(value);
    if !msgs.is_empty() {
        for msg in msgs {
            errs.push(Error::invalid(path, BadValue::json_string(value), msg));
        }
        return;
    }
    if !value.contains('/') && !LIMIT_TYPES.contains(&value) {
        errs.push(Error::invalid(
            path,
            BadValue::json_string(value),
            "must be a standard limit type or fully qualified",
        ));
    }
}

/// Go's `validateLimitRangeResourceName`: a container's resource for Pod and Container
/// limits, any resource for the others.
fn limit_resource_name(limit_type: &str, name: &str, path: &Path, errs: &mut ErrorList) {
    if matches!(limit_type, "Pod" | "Container") {
        validate_container_resource_name(name, path, errs);
    } else {
        validate_resource_name(name, path, errs);
    }
}

/// One item's resource names, and each resource's min ≤ default request ≤ default ≤
/// max, its limit/request ratio, and default and request equal where overcommit is not
/// allowed.
fn limit_range_item(limit: &LimitRangeItem, p: &Path, errs: &mut ErrorList) {
    let ty = limit.r#type.as_str();
    let mut keys: BTreeSet<&str> = BTreeSet::new();
    let names = |field: &str, map: &BTreeMap<String, Quantity>, errs: &mut ErrorList| {
        let fp = p.child(field);
        for name in map.keys() {
            limit_resource_name(ty, name, &fp.key(name), errs);
        }
    };
    names("max", &limit.max, errs);
    names("min", &limit.min, errs);
    let no_defaults = BTreeMap::new();
    let (defaults, default_requests) = if ty == "Pod" {
        if !limit.default.is_empty() {
            errs.push(Error::forbidden(
                &p.child("default"),
                "may not be specified when `type` is 'Pod'",
            ));
        }
        if !limit.default_request.is_empty() {
            errs.push(Error::forbidden(
                &p.child("defaultRequest"),
                "may not be specified when `type` is 'Pod'",
            ));
        }
        (&no_defaults, &no_defaults)
    } else {
        names("default", &limit.default, errs);
        names("defaultRequest", &limit.default_request, errs);
        (&limit.default, &limit.default_request)
    };
    if ty == "PersistentVolumeClaim"
        && !limit.min.contains_key("storage")
        && !limit.max.contains_key("storage")
    {
        errs.push(Error::required(
            &p.child("limits"),
            "either minimum or maximum storage value is required, but neither was provided",
        ));
    }
    names("maxLimitRequestRatio", &limit.max_limit_request_ratio, errs);
    for map in [
        &limit.max,
        &limit.min,
        defaults,
        default_requests,
        &limit.max_limit_request_ratio,
    ] {
        keys.extend(map.keys().map(String::as_str));
    }
    for k in keys {
        let (min, max) = (limit.min.get(k), limit.max.get(k));
        let (default, request) = (defaults.get(k), default_requests.get(k));
        let ratio = limit.max_limit_request_ratio.get(k);
        let mut invalid = |field: &str, value: &Quantity, msg: String| {
            errs.push(Error::invalid(&p.child(field).key(k), go_json(value), msg));
        };
        if let (Some(min), Some(max)) = (min, max) {
            if min > max {
                invalid(
                    "min",
                    min,
                    format!("min value {min} is greater than max value {max}"),
                );
            }
        }
        if let (Some(req), Some(min)) = (request, min) {
            if min > req {
                let msg = format!("min value {min} is greater than default request value {req}");
                invalid("defaultRequest", req, msg);
            }
        }
        if let (Some(req), Some(max)) = (request, max) {
            if req > max {
                let msg = format!("default request value {req} is greater than max value {max}");
                invalid("defaultRequest", req, msg);
            }
        }
        if let (Some(req), Some(def)) = (request, default) {
            if req > def {
                let msg = format!(
                    "default request value {req} is greater than default limit value {def}"
                );
                invalid("defaultRequest", req, msg);
            }
        }
        if let (Some(def), Some(min)) = (default, min) {
            if min > def {
                let msg = format!("min value {min} is greater than default value {def}");
                invalid("default", min, msg);
            }
        }
        if let (Some(def), Some(max)) = (default, max) {
            if def > max {
                let msg = format!("default value {def} is greater than max value {max}");
                invalid("default", max, msg);
            }
        }
        if let Some(ratio) = ratio {
            if ratio.cmp_int64(1).is_lt() {
                invalid(
                    "maxLimitRequestRatio",
                    ratio,
                    format!("ratio {ratio} is less than 1"),
                );
            }
            if let (Some(min), Some(max)) = (min, max) {
                if let Some(bound) = ratio_above_max_over_min(ratio, min, max) {
                    let msg = format!("ratio {ratio} is greater than max/min = {bound:.6}");
                    invalid("maxLimitRequestRatio", ratio, msg);
                }
            }
        }
        if let (false, Some(def), Some(req)) = (overcommit_allowed(k), default, request) {
            if def != req {
                let msg =
                    format!("default value {def} must equal to defaultRequest value {req} in {k}");
                invalid("defaultRequest", req, msg);
            }
        }
    }
}

/// `max/min` when the ratio exceeds it, as Go computes both: in thousandths when all
/// three are small enough, else in whole units.
fn ratio_above_max_over_min(ratio: &Quantity, min: &Quantity, max: &Quantity) -> Option<f64> {
    #[allow(clippy::cast_precision_loss)]
    let (ratio_value, min_value, max_value) = if ratio.value() < MAX_MILLI_VALUE
        && min.value() < MAX_MILLI_VALUE
        && max.value() < MAX_MILLI_VALUE
    {
        (
            ratio.milli_value() as f64 / 1000.0,
            min.milli_value(),
            max.milli_value(),
        )
    } else {
        (ratio.value() as f64, min.value(), max.value())
    };
    #[allow(clippy::cast_precision_loss)]
    let bound = max_value as f64 / min_value as f64;
    (ratio_value > bound).then_some(bound)
}

/// Go's `ValidateResourceQuota`.
pub fn validate_resource_quota(rq: &ResourceQuota) -> ErrorList {
    let mut errs = validate_object_meta(
        &rq.metadata,
        true,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    errs.extend(validate_resource_quota_spec(&rq.spec, &Path::new("spec")));
    let sp = Path::new("status");
    quota_quantities(&rq.status.hard, &sp.child("hard"), &mut errs);
    quota_quantities(&rq.status.used, &sp.child("used"), &mut errs);
    errs
}

/// Go's `ValidateResourceQuotaUpdate`: the spec again, and the set of scopes kept.
pub fn validate_resource_quota_update(new: &ResourceQuota, old: &ResourceQuota) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    errs.extend(validate_resource_quota_spec(&new.spec, &Path::new("spec")));
    if !same_scope_set(&new.spec.scopes, &old.spec.scopes) {
        errs.push(Error::invalid(
            &Path::new("spec").child("scopes"),
            go_list(&new.spec.scopes),
            FIELD_IMMUTABLE_ERROR_MSG,
        ));
    }
    errs
}

/// Go's `ValidateResourceQuotaStatusUpdate` (its status strategy's check): the metadata
/// update, a resourceVersion, and the status's quota resource names and values.
pub fn validate_resource_quota_status_update(
    new: &ResourceQuota,
    old: &ResourceQuota,
) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    if new.metadata.resource_version.is_empty() {
        errs.push(Error::required(&Path::new("resourceVersion"), ""));
    }
    let sp = Path::new("status");
    quota_quantities(&new.status.hard, &sp.child("hard"), &mut errs);
    quota_quantities(&new.status.used, &sp.child("used"), &mut errs);
    errs
}

/// Whether two lists of scopes hold the same set (repeats and order aside): each one's
/// scopes are all in the other. A few scopes each: a scan, rather than two
/// `BTreeSet<String>`s whose code would be compiled for this comparison alone.
fn same_scope_set(a: &[String], b: &[String]) -> bool {
    a.iter().all(|s| b.contains(s)) && b.iter().all(|s| a.contains(s))
}

/// Go's `ValidateResourceQuotaSpec`: quota resource names and values, scopes and the
/// scope selector.
pub fn validate_resource_quota_spec(spec: &ResourceQuotaSpec, path: &Path) -> ErrorList {
    let mut errs = ErrorList::default();
    quota_quantities(&spec.hard, &path.child("hard"), &mut errs);
    quota_scopes(spec, path, &mut errs);
    if spec.scope_selector.is_some() {
        scope_selector(spec, &path.child("scopeSelector"), &mut errs);
    }
    errs
}

/// Go's `ValidateResourceQuotaResourceName` and `ValidateResourceQuantityValue` for
/// each entry of a map.
fn quota_quantities(map: &BTreeMap<String, Quantity>, path: &Path, errs: &mut ErrorList) {
    for (name, q) in map {
        let p = path.key(name);
        validate_resource_name(name, &p, errs);
        if !name.contains('/') && !is_quota_resource(name) {
            errs.push(Error::invalid(
                &p,
                BadValue::json_string(name),
                "must be a standard resource for quota",
            ));
        }
        resource_quantity_value(name, q, &p, errs);
    }
}

/// Go's `IsStandardQuotaResourceName`: a standard resource name but `storage`.
fn is_quota_resource(name: &str) -> bool {
    name != "storage" && is_standard_resource_name(name)
}

/// Go's `IsResourceQuotaScopeValidForResource`.
fn scope_valid_for(scope: &str, resource: &str) -> bool {
    match scope {
        "Terminating"
        | "NotTerminating"
        | "NotBestEffort"
        | "PriorityClass"
        | "CrossNamespacePodAffinity" => {
            resource == "pods" || POD_COMPUTE_RESOURCES.contains(&resource)
        }
        "BestEffort" => resource == "pods",
        "VolumeAttributesClass" => {
            resource == "persistentvolumeclaims" || resource == "requests.storage"
        }
        _ => true,
    }
}

/// The hard limits a scope does not apply to: one error each.
fn misapplied<'a>(spec: &'a ResourceQuotaSpec, scope: &'a str) -> impl Iterator<Item = &'a str> {
    spec.hard
        .keys()
        .map(String::as_str)
        .filter(move |k| is_quota_resource(k) && !scope_valid_for(scope, k))
}

/// The pairs of scopes that cannot go together.
fn conflicting(scopes: &BTreeSet<&str>) -> usize {
    [
        ["BestEffort", "NotBestEffort"],
        ["Terminating", "NotTerminating"],
    ]
    .iter()
    .filter(|pair| pair.iter().all(|s| scopes.contains(s)))
    .count()
}

/// Go's `validateResourceQuotaScopes`.
fn quota_scopes(spec: &ResourceQuotaSpec, path: &Path, errs: &mut ErrorList) {
    if spec.scopes.is_empty() {
        return;
    }
    let p = path.child("scopes");
    let value = || go_list(&spec.scopes);
    let mut seen = BTreeSet::new();
    for scope in &spec.scopes {
        if !QUOTA_SCOPES.contains(&scope.as_str()) {
            errs.push(Error::invalid(&p, value(), "unsupported scope"));
        }
        for _ in misapplied(spec, scope) {
            errs.push(Error::invalid(
                &p,
                value(),
                "unsupported scope applied to resource",
            ));
        }
        seen.insert(scope.as_str());
    }
    for _ in 0..conflicting(&seen) {
        errs.push(Error::invalid(&p, value(), "conflicting scopes"));
    }
}

/// Go's `validateScopedResourceSelectorRequirement`.
fn scope_selector(spec: &ResourceQuotaSpec, path: &Path, errs: &mut ErrorList) {
    let requirements = spec
        .scope_selector
        .as_ref()
        .map_or(&[][..], |s| &s.match_expressions);
    let p = path.child("matchExpressions");
    let mut seen = BTreeSet::new();
    for req in requirements {
        let scope = req.scope_name.as_str();
        if !QUOTA_SCOPES.contains(&scope) {
            errs.push(Error::invalid(
                &p.child("scopeName"),
                BadValue::json_string(scope),
                "unsupported scope",
            ));
        }
        for _ in misapplied(spec, scope) {
            errs.push(Error::invalid(
                &p,
                BadValue::Json(internal_scope_selector(spec)),
                "unsupported scope applied to resource",
            ));
        }
        let op = req.operator.as_str();
        let op_path = p.child("operator");
        if matches!(
            scope,
            "BestEffort"
                | "NotBestEffort"
                | "Terminating"
                | "NotTerminating"
                | "CrossNamespacePodAffinity"
        ) && op != "Exists"
        {
            errs.push(Error::invalid(
                &op_path,
                BadValue::json_string(op),
                "must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
            ));
        }
        match op {
            "In" | "NotIn" if req.values.is_empty() => errs.push(Error::required(
                &p.child("values"),
                "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
            )),
            "In" | "NotIn" => {}
            "Exists" | "DoesNotExist" if !req.values.is_empty() => errs.push(Error::invalid(
                &p.child("values"),
                go_list(&req.values),
                "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector",
            )),
            "Exists" | "DoesNotExist" => {}
            _ => errs.push(Error::invalid(
                &op_path,
                BadValue::json_string(op),
                "not a valid selector operator",
            )),
        }
        seen.insert(scope);
    }
    for _ in 0..conflicting(&seen) {
        // Go prints the spec's scopes here, not the selector's.
        errs.push(Error::invalid(
            &p,
            go_list(&spec.scopes),
            "conflicting scopes",
        ));
    }
}

/// The internal `*ScopeSelector` as Go's `json.Marshal` writes it (Go's field names).
fn internal_scope_selector(spec: &ResourceQuotaSpec) -> String {
    let Some(sel) = &spec.scope_selector else {
        return "null".to_owned();
    };
    GoStruct::new()
        .raw(
            "MatchExpressions",
            list(&sel.match_expressions, |r| {
                GoStruct::new()
                    .field("ScopeName", r.scope_name.as_str())
                    .field("Operator", r.operator.as_str())
                    .raw("Values", list(&r.values, |v| json_text(v.as_str())))
                    .text()
            }),
        )
        .text()
}
