//! The downward API's selectors, shared by env vars and volume files: a pod field
//! (Go's `validateObjectFieldSelector`, with `ConvertDownwardAPIFieldLabel`) and a
//! container resource (`validateContainerResourceFieldSelector`).

use apimachinery::util::go_strings::to_lower;
use apimachinery::util::validation::field::{Error, ErrorList, Path};
use apimachinery::util::validation::is_qualified_name;

use crate::core::v1::{ObjectFieldSelector, ResourceFieldSelector};
use crate::validation::invalid_each;

/// The pod fields an environment variable may take (Go's
/// `validEnvDownwardAPIFieldPathExpressions`), sorted as Go lists them.
pub(super) const ENV_FIELD_PATHS: &[&str] = &[
    "metadata.name",
    "metadata.namespace",
    "metadata.uid",
    "spec.nodeName",
    "spec.serviceAccountName",
    "status.hostIP",
    "status.hostIPs",
    "status.podIP",
    "status.podIPs",
];

/// Go's `fieldpath.SplitMaybeSubscriptedPath`: `path['key']` as `(path, key)`.
fn split_subscripted(p: &str) -> Option<(&str, &str)> {
    let (path, key) = p.strip_suffix("']")?.split_once("['")?;
    (!path.is_empty()).then_some((path, key))
}

/// Go's `ConvertDownwardAPIFieldLabel` for a pod: the internal field path, or why not.
fn convert_downward_api_field_label(version: &str, label: &str) -> Result<String, String> {
    if version != "v1" {
        return Err(format!("unsupported pod version: {version}"));
    }
    if let Some((path, _)) = split_subscripted(label) {
        return match path {
            "metadata.annotations" | "metadata.labels" => Ok(label.to_owned()),
            _ => Err(format!("field label does not support subscript: {label}")),
        };
    }
    match label {
        "metadata.annotations"
        | "metadata.labels"
        | "metadata.name"
        | "metadata.namespace"
        | "metadata.uid"
        | "spec.nodeName"
        | "spec.restartPolicy"
        | "spec.serviceAccountName"
        | "spec.schedulerName"
        | "status.phase"
        | "status.hostIP"
        | "status.hostIPs"
        | "status.podIP"
        | "status.podIPs" => Ok(label.to_owned()),
        // Old v1 clients send `spec.host`.
        "spec.host" => Ok("spec.nodeName".to_owned()),
        _ => Err(format!("field label not supported: {label}")),
    }
}

/// Go's `validateObjectFieldSelector`: a version and a field path that converts to one
/// of `expressions`, or a label or annotation subscript with a qualified name.
pub(super) fn validate_object_field_selector(
    fs: &ObjectFieldSelector,
    expressions: &[&str],
    path: &Path,
    errs: &mut ErrorList,
) {
    if fs.api_version.is_empty() {
        errs.push(Error::required(&path.child("apiVersion"), ""));
        return;
    }
    let fp = path.child("fieldPath");
    if fs.field_path.is_empty() {
        errs.push(Error::required(&fp, ""));
        return;
    }
    let internal = match convert_downward_api_field_label(&fs.api_version, &fs.field_path) {
        Ok(internal) => internal,
        Err(e) => {
            errs.push(Error::invalid(
                &fp,
                &fs.field_path,
                format!("error converting fieldPath: {e}"),
            ));
            return;
        }
    };
    match split_subscripted(&internal) {
        Some(("metadata.annotations", key)) => {
            let key = to_lower(key);
            invalid_each(errs, path, &key, is_qualified_name(&key));
        }
        Some(("metadata.labels", key)) => invalid_each(errs, path, key, is_qualified_name(key)),
        Some((other, _)) => errs.push(Error::invalid(path, other, "does not support subscript")),
        None if !expressions.contains(&internal.as_str()) => {
            errs.push(Error::not_supported(&fp, internal.as_str(), expressions));
        }
        None => {}
    }
}

/// The container resources a selector may name (Go's
/// `validContainerResourceFieldPathExpressions`, sorted), besides the huge pages
/// prefixes.
const RESOURCE_FIELD_PATHS: &[&str] = &[
    "limits.cpu",
    "limits.ephemeral-storage",
    "limits.memory",
    "requests.cpu",
    "requests.ephemeral-storage",
    "requests.memory",
];
const HUGE_PAGES_PREFIXES: &[&str] = &["limits.hugepages-", "requests.hugepages-"];

/// The divisors Go accepts for memory, ephemeral storage and huge pages.
const BYTE_DIVISORS: &[&str] = &[
    "1", "1k", "1M", "1G", "1T", "1P", "1E", "1Ki", "1Mi", "1Gi", "1Ti", "1Pi", "1Ei",
];
const BYTE_DIVISORS_MSG: &str = "only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the";

/// Go's `validateContainerResourceFieldSelector`: a container (for a volume file) and
/// a known resource, then a divisor the resource supports.
pub(super) fn resource_field_selector(
    fs: &ResourceFieldSelector,
    path: &Path,
    volume: bool,
    errs: &mut ErrorList,
) {
    if volume && fs.container_name.is_empty() {
        errs.push(Error::required(&path.child("containerName"), ""));
    } else if fs.resource.is_empty() {
        errs.push(Error::required(&path.child("resource"), ""));
    } else if !RESOURCE_FIELD_PATHS.contains(&fs.resource.as_str())
        && !HUGE_PAGES_PREFIXES
            .iter()
            .any(|p| fs.resource.starts_with(p))
    {
        errs.push(Error::not_supported(
            &path.child("resource"),
            &fs.resource,
            RESOURCE_FIELD_PATHS,
        ));
    }
    resource_divisor(&fs.resource, fs, path, errs);
}

/// Go's `validateContainerResourceDivisor`: an unset (zero) divisor is fine; else the
/// divisor's canonical text must be one the resource supports.
fn resource_divisor(name: &str, fs: &ResourceFieldSelector, path: &Path, errs: &mut ErrorList) {
    if fs.divisor.is_zero() {
        return;
    }
    let divisor = fs.divisor.to_string();
    let mut refuse = |msg: String| {
        errs.push(Error::invalid(&path.child("divisor"), name, msg));
    };
    match name {
        "limits.cpu" | "requests.cpu" if !["1m", "1"].contains(&divisor.as_str()) => {
            refuse("only divisor's values 1m and 1 are supported with the cpu resource".into());
        }
        "limits.memory" | "requests.memory" if !BYTE_DIVISORS.contains(&divisor.as_str()) => {
            refuse(format!("{BYTE_DIVISORS_MSG} memory resource"));
        }
        "limits.ephemeral-storage" | "requests.ephemeral-storage"
            if !BYTE_DIVISORS.contains(&divisor.as_str()) =>
        {
            refuse(format!(
                "{BYTE_DIVISORS_MSG} local ephemeral storage resource"
            ));
        }
        _ => {}
    }
    if HUGE_PAGES_PREFIXES.iter().any(|p| name.starts_with(p))
        && !BYTE_DIVISORS.contains(&divisor.as_str())
    {
        refuse(format!("{BYTE_DIVISORS_MSG} hugepages resource"));
    }
}
