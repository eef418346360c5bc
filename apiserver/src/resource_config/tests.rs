use super::*;

use apimachinery::runtime::Scheme;
use k8s_types as _;

fn scheme() -> Scheme {
    let mut scheme = Scheme::with_name("resource-config-tests");
    scheme.add_registry().unwrap();
    scheme
}

fn applied(value: &str) -> Result<ResourceConfig, RuntimeConfigError> {
    let mut config = ResourceConfig::kube_apiserver_default();
    config.apply_runtime_config(value, &scheme())?;
    Ok(config)
}

#[test]
fn by_default_the_ga_versions_are_served_and_no_beta_or_alpha() {
    let config = ResourceConfig::kube_apiserver_default();
    assert!(config.resource_enabled("", "v1", "pods"));
    assert!(config.resource_enabled("apps", "v1", "deployments"));
    assert!(config.resource_enabled("autoscaling", "v2", "horizontalpodautoscalers"));
    assert!(config.resource_enabled("apiextensions.k8s.io", "v1", "customresourcedefinitions"));
    assert!(!config.resource_enabled("certificates.k8s.io", "v1beta1", "clustertrustbundles"));
    assert!(!config.resource_enabled("resource.k8s.io", "v1beta2", "deviceclasses"));
    assert!(!config.resource_enabled("internal.apiserver.k8s.io", "v1alpha1", "storageversions"));
    // A version the release's table does not list, of a group it has: off, as Go's.
    assert!(!config.resource_enabled("apps", "v1beta1", "deployments"));
    // A group kube-apiserver does not have: a program's own, served.
    assert!(config.resource_enabled("example.com", "v1alpha1", "widgets"));
}

#[test]
fn every_version_of_the_releases_table_is_one_of_the_builds_types() {
    // A typo in the table would leave a version silently off (or on).
    let scheme = scheme();
    for (group, version) in release::ENABLED.iter().chain(release::DISABLED) {
        let gv = GroupVersion::new(*group, *version);
        // apiextensions.k8s.io/v1beta1 is in its server's defaults but no longer has types.
        if gv != GroupVersion::new("apiextensions.k8s.io", "v1beta1") {
            assert!(scheme.is_version_registered(&gv), "{gv}");
        }
    }
}

#[test]
fn levels_turn_the_tables_versions_on_and_off() {
    let beta = applied("api/beta=true").unwrap();
    assert!(beta.resource_enabled("storage.k8s.io", "v1beta1", "csistoragecapacities"));
    assert!(!beta.resource_enabled("storage.k8s.io", "v1alpha1", "volumeattributesclasses"));
    let all = applied("api/all=true").unwrap();
    assert!(all.resource_enabled("storage.k8s.io", "v1alpha1", "volumeattributesclasses"));
    // Only the versions Go's table lists: not one it does not know.
    assert!(!all.resource_enabled("apps", "v1beta1", "deployments"));
    let alpha_off = applied("api/all=true,api/alpha=false").unwrap();
    assert!(alpha_off.resource_enabled("resource.k8s.io", "v1beta2", "deviceclasses"));
    assert!(!alpha_off.resource_enabled("resource.k8s.io", "v1alpha3", "devicetaintrules"));
    let ga_off = applied("api/ga=false,v1=true").unwrap();
    assert!(!ga_off.resource_enabled("apps", "v1", "deployments"));
    assert!(ga_off.resource_enabled("", "v1", "pods"));
}

#[test]
fn group_versions_and_resources_override_levels_in_that_order() {
    let config = applied(
        "api/beta=true,storage.k8s.io/v1beta1=false,resource.k8s.io/v1beta2/deviceclasses=false,certificates.k8s.io/v1alpha1/clustertrustbundles",
    )
    .unwrap();
    assert!(!config.resource_enabled("storage.k8s.io", "v1beta1", "csistoragecapacities"));
    assert!(!config.resource_enabled("resource.k8s.io", "v1beta2", "deviceclasses"));
    assert!(config.resource_enabled("resource.k8s.io", "v1beta2", "resourceclaims"));
    // A key alone is true; one resource of an otherwise disabled version.
    assert!(config.resource_enabled("certificates.k8s.io", "v1alpha1", "clustertrustbundles"));
    assert!(!config.resource_enabled("certificates.k8s.io", "v1alpha1", "podcertificaterequests"));
    // The core group's spellings, and Go's other booleans.
    let core = applied("api/v1=0,apps/v1=F").unwrap();
    assert!(!core.resource_enabled("", "v1", "pods"));
    assert!(!core.resource_enabled("apps", "v1", "deployments"));
    assert!(applied("api/legacy=false").unwrap() == ResourceConfig::kube_apiserver_default());
}

#[test]
fn bad_values_are_refused_with_gos_messages() {
    let message = |value: &str| applied(value).unwrap_err().to_string();
    assert_eq!(
        message("api/all=false"),
        "invalid runtime-config with only api/all=false"
    );
    assert_eq!(message("apps"), "runtime-config invalid key apps");
    assert_eq!(
        message("apps/v1/deployments/scale=true"),
        "runtime-config invalid key apps/v1/deployments/scale"
    );
    assert_eq!(
        message("nothing.example/v1=true,zz.io/v2=false"),
        "unknown api groups nothing.example/v1,zz.io/v2"
    );
    assert_eq!(message("api/beta=yes"), "invalid value api/beta=yes");
    assert_eq!(
        message("apps/v7=true"),
        "group version apps/v7 that has not been registered"
    );
    assert_eq!(
        message("apps/v1=maybe"),
        "invalid value of apps/v1: maybe, err: strconv.ParseBool: parsing \"maybe\": invalid syntax"
    );
    assert_eq!(
        message("apps/v1/Deployments=false"),
        "invalid key apps/v1/Deployments: group/version/resource and resource is always lowercase plural, not \"Deployments\""
    );
}

#[test]
fn level_patterns_are_gos() {
    assert!(level_matches("api/ga", "v1"));
    assert!(level_matches("api/ga", "v12"));
    assert!(!level_matches("api/ga", "v1beta1"));
    assert!(level_matches("api/beta", "v2beta3"));
    assert!(!level_matches("api/beta", "v1beta"));
    assert!(!level_matches("api/beta", "v1alpha1"));
    assert!(level_matches("api/alpha", "v1alpha10"));
    assert!(!level_matches("api/alpha", "valpha1"));
    assert!(!level_matches("api/ga", "1"));
}
