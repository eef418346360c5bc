//! Resource names and requirements (Go's `ValidateResourceRequirements` and the
//! resource-name checks).

use apimachinery::apis::meta::v1::validation::IS_NEGATIVE_ERROR_MSG;
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
use apimachinery::util::validation::is_qualified_name;

use crate::core::v1::ResourceRequirements;
use crate::value::Quantity;

/// Whether Go lets a request be below its limit (`IsOvercommitAllowed`): native
/// resources but hugepages.
pub(super) fn overcommit_allowed(name: &str) -> bool {
    let native = !name.contains('/') || name.starts_with("kubernetes.io/");
    native && !name.starts_with("hugepages-")
}

/// Go's `standardResources` (`helper.IsStandardResourceName`, with the hugepages of
/// quota names).
pub(super) const STANDARD_RESOURCES: &[&str] = &[
    "cpu",
    "memory",
    "ephemeral-storage",
    "requests.cpu",
    "requests.memory",
    "requests.ephemeral-storage",
    "limits.cpu",
    "limits.memory",
    "limits.ephemeral-storage",
    "pods",
    "resourcequotas",
    "services",
    "replicationcontrollers",
    "secrets",
    "configmaps",
    "persistentvolumeclaims",
    "storage",
    "requests.storage",
    "services.nodeports",
    "services.loadbalancers",
];

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
    let standard = STANDARD_RESOURCES.contains(&name)
        || name.starts_with("hugepages-")
        || name.starts_with("requests.hugepages-");
    if !name.contains('/') && !standard {
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

/// Go's `helper.IsExtendedResourceName` for a name with a domain outside
/// `kubernetes.io/`: not a quota name, and a qualified name once `requests.` precedes it.
pub(super) fn is_extended_resource_name(name: &str) -> bool {
    !name.starts_with("requests.") && is_qualified_name(&format!("requests.{name}")).is_empty()
}

pub(super) fn quantity_value(q: &Quantity, path: &Path, errs: &mut ErrorList) {
    if q.sign() < 0 {
        errs.push(Error::invalid(path, q.to_string(), IS_NEGATIVE_ERROR_MSG));
    }
}

/// Go's `ValidateContainerResourceRequirements`: standard or extended resource names,
/// quantities not negative, each request at most its limit (equal to it where
/// overcommit is not allowed: hugepages and extended resources, whose limit is then
/// required).
pub fn validate_resource_requirements(r: &ResourceRequirements, path: &Path) -> ErrorList {
    let mut errs = ErrorList::default();
    let lim = path.child("limits");
    let req = path.child("requests");
    for (name, q) in &r.limits {
        let p = lim.key(name);
        validate_container_resource_name(name, &p, &mut errs);
        quantity_value(q, &p, &mut errs);
    }
    for (name, q) in &r.requests {
        let p = req.key(name);
        validate_container_resource_name(name, &p, &mut errs);
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
    errs
}
