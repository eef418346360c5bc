//! The Scheme and RESTMapper every command works from: the built-in Kubernetes API
//! (`k8s-types`) and whatever else is linked in.

use apimachinery::meta::{APIGroupResources, DiscoveryRESTMapper};
use apimachinery::runtime::{Scheme, SchemeError};
use apimachinery::schema::GroupVersionKind;
use apiserver::resource_config::ResourceConfig;
// Linked for the types it registers.
use k8s_types as _;

/// The name kube-apiserver's scheme (Go's `legacyscheme.Scheme`) has, which its errors
/// quote (`no kind "ConfigMap" is registered for version "v2" in scheme "..."`): Go
/// names a scheme after the file and line that made it.
pub const KUBE_APISERVER_SCHEME_NAME: &str = "pkg/runtime/scheme.go:111";

/// The scheme of every type linked into the binary.
pub fn scheme() -> Result<Scheme, SchemeError> {
    scheme_named("kapi")
}

/// The same scheme under another name, the one its errors quote.
pub fn scheme_named(name: &str) -> Result<Scheme, SchemeError> {
    let mut scheme = Scheme::with_name(name);
    scheme.add_registry()?;
    // The decode errors of a server over these types name Go's types as Go's do.
    apiserver::endpoints::go_type_errors::install(k8s_types::go_json_errors::type_mismatch);
    Ok(scheme)
}

/// What kubectl would build from a server serving exactly `scheme`.
pub fn rest_mapper(scheme: &Scheme) -> DiscoveryRESTMapper {
    DiscoveryRESTMapper::from_scheme(scheme)
}

/// Whether objects of `gvk` are custom resources: a kind the Scheme does not know, in a
/// group that is not built in. Those pass through `convert` and are not checked by
/// `validate`. An unknown kind of a built-in group (`apps/v1 Deploymnet`, or
/// `autoscaling/v2beta1`, which Kubernetes removed) is not one: it is a mistake to report.
pub fn is_custom_resource(scheme: &Scheme, gvk: &GroupVersionKind) -> bool {
    !scheme.recognizes(gvk) && !scheme.is_group_registered(&gvk.group)
}

/// Why the Scheme has no kind `gvk` of a built-in group, for messages: the group has no
/// such version, or the version no such kind.
pub fn unknown_builtin_kind(scheme: &Scheme, gvk: &GroupVersionKind) -> String {
    let versions = scheme.prioritized_versions_for_group(&gvk.group);
    let group = if gvk.group.is_empty() {
        "the core group"
    } else {
        gvk.group.as_str()
    };
    if versions.iter().any(|gv| gv.version == gvk.version) {
        format!(
            "unknown kind {gvk}: {group} has no kind {} in {}",
            gvk.kind, gvk.version
        )
    } else {
        let names: Vec<&str> = versions.iter().map(|gv| gv.version.as_str()).collect();
        format!(
            "unknown kind {gvk}: {group} has no version {} (it has {})",
            gvk.version,
            names.join(", ")
        )
    }
}

/// The groups of `scheme` as kube-apiserver of the release serves them by default
/// (`kapi serve` without `--runtime-config`): their resources in the enabled versions
/// (GA ones), a group or version with none left out, the preferred version the first
/// one left. What `kubectl api-resources` and `api-versions` print for such a server.
pub fn served_groups(scheme: &Scheme) -> Vec<APIGroupResources> {
    let enabled = ResourceConfig::kube_apiserver_default();
    let mut groups = APIGroupResources::from_scheme(scheme);
    for g in &mut groups {
        let name = g.group.name.clone();
        for (version, resources) in &mut g.versioned_resources {
            resources.retain(|r| {
                // A subresource goes with its resource.
                let resource = r.name.split('/').next().unwrap_or_default();
                enabled.resource_enabled(&name, version, resource)
            });
        }
        g.versioned_resources
            .retain(|_, resources| !resources.is_empty());
        let served = &g.versioned_resources;
        if let Some(versions) = &mut g.group.versions {
            versions.retain(|v| served.contains_key(&v.version));
            if let Some(first) = versions.first() {
                if !served.contains_key(&g.group.preferred_version.version) {
                    g.group.preferred_version = first.clone();
                }
            }
        }
    }
    groups.retain(|g| !g.versioned_resources.is_empty());
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn served_groups_are_kube_apiservers_default_versions() -> Result<(), SchemeError> {
        let groups = served_groups(&scheme()?);
        let versions = |name: &str| {
            groups.iter().find(|g| g.group.name == name).map(|g| {
                let listed: Vec<String> = g
                    .group
                    .versions
                    .iter()
                    .flatten()
                    .map(|v| v.version.clone())
                    .collect();
                (listed, g.group.preferred_version.version.clone())
            })
        };
        assert_eq!(
            versions("storage.k8s.io"),
            Some((vec!["v1".to_owned()], "v1".to_owned()))
        );
        assert_eq!(
            versions("autoscaling"),
            Some((vec!["v2".to_owned(), "v1".to_owned()], "v2".to_owned()))
        );
        // A group with no GA version is not served.
        assert_eq!(versions("internal.apiserver.k8s.io"), None);
        Ok(())
    }

    #[test]
    fn only_unknown_kinds_of_unknown_groups_are_custom_resources() -> Result<(), SchemeError> {
        let scheme = scheme()?;
        let gvk = |g: &str, v: &str, k: &str| GroupVersionKind::new(g, v, k);
        assert!(is_custom_resource(
            &scheme,
            &gvk("example.com", "v1", "Widget")
        ));
        assert!(!is_custom_resource(
            &scheme,
            &gvk("apps", "v1", "Deployment")
        ));
        assert!(!is_custom_resource(
            &scheme,
            &gvk("apps", "v1", "Deploymnet")
        ));
        assert!(!is_custom_resource(&scheme, &gvk("", "v1", "Widget")));
        assert_eq!(
            unknown_builtin_kind(&scheme, &gvk("apps", "v1", "Deploymnet")),
            "unknown kind apps/v1, Kind=Deploymnet: apps has no kind Deploymnet in v1"
        );
        let removed = unknown_builtin_kind(
            &scheme,
            &gvk("autoscaling", "v2beta1", "HorizontalPodAutoscaler"),
        );
        assert!(
            removed.starts_with("unknown kind autoscaling/v2beta1, Kind=HorizontalPodAutoscaler: autoscaling has no version v2beta1 (it has v2, v1"),
            "{removed}"
        );
        Ok(())
    }
}
