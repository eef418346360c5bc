//! Resource names and requirements (Go's `ValidateResourceRequirements` and the
//! resource-name checks).

use std::collections::BTreeMap;

use apimachinery::apis::meta::v1::validation::IS_NEGATIVE_ERROR_MSG;
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
use apimachinery::util::validation::is_qualified_name;

use crate::core::v1::{Container, PodSpec, ResourceRequirements};
use crate::validation::go_value::go_json;
use crate::validation::resource_names::{is_extended_resource_name, is_standard_resource_name};
use crate::value::Quantity;

/// Whether Go lets a request be below its limit (`IsOvercommitAllowed`): native
/// resources but hugepages.
pub(super) fn overcommit_allowed(name: &str) -> bool {
    let native = !name.contains('/') || name.contains("kubernetes.io/");
    native && !name.starts_with("hugepages-")
}

/// Go's `validateResourceName`: a qualified name, and a standard one when it has no
/// domain. A `ResourceName` is a named string type: Go prints it as JSON.
pub(super) fn validate_resource_name(name: &str, path: &Path, errs: &mut ErrorList) {
    let msgs = is_qualified_name(name);
    if !msgs.is_empty() {
        for msg in msgs {
            errs.push(Error::invalid(path, BadValue::json_string(name), msg));
        }
        return;
    }
    if !name.contains('/') && !is_standard_resource_name(name) {
        errs.push(Error::invalid(
            path,
            BadValue::json_string(name),
            "must be a standard resource type or fully qualified",
        ));
    }
}

/// Go's `validateContainerResourceName`: [`validate_resource_name`], then, whatever it
/// found, a name without a domain must be a container's standard resource, and one
/// outside `kubernetes.io/` an extended resource name.
pub(super) fn validate_container_resource_name(name: &str, path: &Path, errs: &mut ErrorList) {
    validate_resource_name(name, path, errs);
    if !name.contains('/') {
        if !matches!(name, "cpu" | "memory" | "ephemeral-storage")
            && !name.starts_with("hugepages-")
        {
            errs.push(Error::invalid(
                path,
                BadValue::json_string(name),
                "must be a standard resource for containers",
            ));
        }
    } else if !name.contains("kubernetes.io/") && !is_extended_resource_name(name) {
        errs.push(Error::invalid(
            path,
            BadValue::json_string(name),
            "doesn't follow extended resource name standard",
        ));
    }
}

pub(super) fn quantity_value(q: &Quantity, path: &Path, errs: &mut ErrorList) {
    if q.sign() < 0 {
        errs.push(Error::invalid(path, q.to_string(), IS_NEGATIVE_ERROR_MSG));
    }
}

/// Go's `integerResources` (extended resources count too).
const INTEGER_RESOURCES: &[&str] = &[
    "pods",
    "resourcequotas",
    "services",
    "replicationcontrollers",
    "secrets",
    "configmaps",
    "persistentvolumeclaims",
    "services.nodeports",
    "services.loadbalancers",
];

/// Go's `ValidateResourceQuantityValue`: not negative, and a whole number for the
/// integer resources (`IsIntegerResourceName`: the object counts and extended
/// resources).
pub(super) fn resource_quantity_value(name: &str, q: &Quantity, path: &Path, errs: &mut ErrorList) {
    quantity_value(q, path, errs);
    let integer = INTEGER_RESOURCES.contains(&name)
        || (name.contains('/')
            && !name.contains("kubernetes.io/")
            && is_extended_resource_name(name));
    if integer && q.milli_value() % 1000 != 0 {
        errs.push(Error::invalid(path, go_json(q), "must be an integer"));
    }
}

/// Go's `ValidateContainerResourceRequirements`: standard or extended resource names,
/// quantities not negative, each request at most its limit (equal to it where
/// overcommit is not allowed: hugepages and extended resources, whose limit is then
/// required), and hugepages only beside cpu or memory.
pub fn validate_resource_requirements(r: &ResourceRequirements, path: &Path) -> ErrorList {
    requirements_with(r, validate_container_resource_name, path)
}

/// Go's `validatePodResourceName`: a resource name, then one pod-level resources
/// support (cpu, memory, hugepages).
fn validate_pod_resource_name(name: &str, path: &Path, errs: &mut ErrorList) {
    let before = errs.len();
    validate_resource_name(name, path, errs);
    if errs.len() == before && !matches!(name, "cpu" | "memory") && !name.starts_with("hugepages-")
    {
        errs.push(Error::not_supported(
            path,
            BadValue::json_string(name),
            &["cpu", "hugepages-", "memory"],
        ));
    }
}

/// Go's `validatePodResources` (the PodLevelResources gate is on in 1.36): a pod's
/// own `resources` by the pod-level names, without claims, not on a Windows pod, and
/// at least what its containers ask for together.
pub(super) fn validate_pod_resources(spec: &PodSpec, path: &Path, errs: &mut ErrorList) {
    let Some(r) = &spec.resources else {
        return;
    };
    let rp = path.child("resources");
    if spec.os.as_ref().is_some_and(|os| os.name == "windows") {
        errs.push(Error::forbidden(&rp, "may not be set for a windows pod"));
        return;
    }
    if !r.claims.is_empty() {
        errs.push(Error::forbidden(
            &rp.child("claims"),
            "claims may not be set for Resources at pod-level",
        ));
    }
    errs.extend(requirements_with(r, validate_pod_resource_name, &rp));
    pod_resource_consistency(spec, r, &rp, errs);
}

/// Go's `validatePodResourceConsistency`: the pod's requests at least its containers'
/// aggregate requests, its hugepage limits at least their aggregate limits, and each
/// container's limit at most the pod's.
fn pod_resource_consistency(
    spec: &PodSpec,
    r: &ResourceRequirements,
    path: &Path,
    errs: &mut ErrorList,
) {
    let containers = spec.containers.as_deref().unwrap_or_default();
    let req = path.child("requests");
    let requests = aggregate(containers, &spec.init_containers, |c| &c.resources.requests);
    for (name, total) in &requests {
        if let Some(pod) = r.requests.get(name) {
            if total > pod {
                errs.push(Error::invalid(
                    &req.key(name),
                    pod.to_string(),
                    format!(
                        "must be greater than or equal to aggregate container requests of {total}"
                    ),
                ));
            }
        }
    }
    let lim = path.child("limits");
    let limits = aggregate(containers, &spec.init_containers, |c| &c.resources.limits);
    for (name, total) in limits.iter().filter(|(n, _)| n.starts_with("hugepages-")) {
        if let Some(pod) = r.limits.get(name) {
            if total > pod {
                errs.push(Error::invalid(
                    &lim.key(name),
                    pod.to_string(),
                    format!(
                        "must be greater than or equal to aggregate container limits of {total}"
                    ),
                ));
            }
        }
    }
    let cp = path.child("containers");
    for (i, c) in containers.iter().enumerate() {
        let ip = cp.index(i);
        for (name, limit) in &c.resources.limits {
            if let Some(pod) = r.limits.get(name) {
                if limit > pod {
                    errs.push(Error::invalid(
                        &ip.key(name).child("limits"),
                        limit.to_string(),
                        format!("must be less than or equal to pod limits of {pod}"),
                    ));
                }
            }
        }
    }
}

/// Go's `AggregateContainerRequests` (and `...Limits`) without status: the regular
/// containers' and sidecars' sum, or an init container's own with the sidecars started
/// before it, whichever is more.
fn aggregate<'c>(
    containers: &'c [Container],
    init: &'c [Container],
    list: impl Fn(&'c Container) -> &'c BTreeMap<String, Quantity>,
) -> BTreeMap<String, Quantity> {
    let mut total = BTreeMap::new();
    for c in containers {
        add_list(&mut total, list(c));
    }
    let mut sidecars = BTreeMap::new();
    let mut init_max = BTreeMap::new();
    for c in init {
        let own = if c.restart_policy.as_deref() == Some("Always") {
            add_list(&mut total, list(c));
            add_list(&mut sidecars, list(c));
            sidecars.clone()
        } else {
            let mut own = list(c).clone();
            add_list(&mut own, &sidecars);
            own
        };
        max_list(&mut init_max, &own);
    }
    max_list(&mut total, &init_max);
    total
}

/// Go's `addResourceList`.
fn add_list(list: &mut BTreeMap<String, Quantity>, add: &BTreeMap<String, Quantity>) {
    for (name, q) in add {
        match list.get_mut(name) {
            // A sum too large for a quantity keeps what it had, as Go's saturating Add.
            Some(v) => {
                let _ = v.add(q);
            }
            None => {
                list.insert(name.clone(), q.clone());
            }
        }
    }
}

/// Go's `maxResourceList`.
fn max_list(list: &mut BTreeMap<String, Quantity>, other: &BTreeMap<String, Quantity>) {
    for (name, q) in other {
        if list.get(name).is_none_or(|v| q > v) {
            list.insert(name.clone(), q.clone());
        }
    }
}

/// Go's `validateResourceRequirements` with its resource-name rule.
fn requirements_with(
    r: &ResourceRequirements,
    name_fn: fn(&str, &Path, &mut ErrorList),
    path: &Path,
) -> ErrorList {
    let mut errs = ErrorList::default();
    let lim = path.child("limits");
    let req = path.child("requests");
    let compute = |n: &str| matches!(n, "cpu" | "memory");
    let hugepages = |n: &str| n.starts_with("hugepages-");
    for (name, q) in &r.limits {
        let p = lim.key(name);
        name_fn(name, &p, &mut errs);
        quantity_value(q, &p, &mut errs);
    }
    for (name, q) in &r.requests {
        let p = req.key(name);
        name_fn(name, &p, &mut errs);
        quantity_value(q, &p, &mut errs);
        match r.limits.get(name) {
            Some(limit) if !overcommit_allowed(name) && q != limit => {
                errs.push(Error::invalid(
                    &req,
                    q.to_string(),
                    format!("must be equal to {name} limit of {limit}"),
                ));
            }
            Some(limit) if q > limit => {
                errs.push(Error::invalid(
                    &req,
                    q.to_string(),
                    format!("must be less than or equal to {name} limit of {limit}"),
                ));
            }
            None if !overcommit_allowed(name) => errs.push(Error::required(
                &lim,
                "Limit must be set for non overcommitable resources",
            )),
            _ => {}
        }
    }
    let names = || r.limits.keys().chain(r.requests.keys());
    if !names().any(|n| compute(n)) && names().any(|n| hugepages(n)) {
        errs.push(Error::forbidden(path, "HugePages require cpu or memory"));
    }
    errs
}
