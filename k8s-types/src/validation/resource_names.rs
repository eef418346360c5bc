//! Go's resource-name helpers (`pkg/apis/core/helper`), which more than one group's
//! validation asks: core's resource requirements and quotas, autoscaling's metrics.

use apimachinery::util::validation::is_qualified_name;

/// Go's `standardResources`.
const STANDARD_RESOURCES: [&str; 20] = [
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

/// Go's `IsStandardResourceName`: one of the standard resources, or a quota's
/// hugepages name (`IsQuotaHugePagesResourceName`).
pub(super) fn is_standard_resource_name(name: &str) -> bool {
    STANDARD_RESOURCES.contains(&name)
        || name.starts_with("hugepages-")
        || name.starts_with("requests.hugepages-")
}

/// Go's `IsExtendedResourceName` for a name with a domain outside `kubernetes.io/`:
/// not a quota name, and a qualified name once `requests.` precedes it.
pub(super) fn is_extended_resource_name(name: &str) -> bool {
    !name.starts_with("requests.") && is_qualified_name(&format!("requests.{name}")).is_empty()
}
