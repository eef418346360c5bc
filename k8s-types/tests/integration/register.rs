//! `k8s_types::register` in a program that names no type of the crate: the kinds, their
//! conversions and defaulters are there all the same (a test binary of its own, so that
//! nothing else links the crate for it); and `defines_type`, the list of what 1.36 defines.

use apimachinery::runtime::Scheme;
use apimachinery::schema::GroupVersion;

#[test]
fn register_brings_kinds_conversions_and_defaulters() -> Result<(), Box<dyn std::error::Error>> {
    let mut scheme = Scheme::new();
    k8s_types::register(&mut scheme)?;
    for gvk in [
        "apps/v1, Kind=Deployment",
        "/v1, Kind=Pod",
        "apidiscovery.k8s.io/v2, Kind=APIGroupDiscovery",
        "apidiscovery.k8s.io/v2beta1, Kind=APIGroupDiscoveryList",
    ] {
        assert!(scheme.recognizes(&gvk.parse()?), "{gvk} is not registered");
    }
    // A conversion and a defaulter, through the scheme only.
    let json = br#"{"apiVersion":"apps/v1beta1","kind":"Deployment","metadata":{"name":"web"},
        "spec":{"template":{"metadata":{"labels":{"app":"web"}}}}}"#;
    let gvk = "apps/v1beta1, Kind=Deployment".parse()?;
    let mut old = scheme.decode_json(&gvk, json)?;
    scheme.default(old.as_mut());
    let new = scheme.convert_to_version(old, &GroupVersion::new("apps", "v1"))?;
    let text = serde_json::to_string(new.as_ref())?;
    assert!(
        text.contains(r#""selector":{"matchLabels":{"app":"web"}}"#),
        "{text}"
    );
    // Registering again changes nothing.
    k8s_types::register(&mut scheme)?;
    Ok(())
}

#[test]
fn the_type_list_is_sorted_and_holds_served_unserved_and_meta_types() {
    use k8s_types::{GO_TYPES, defines_type};
    // `defines_type` searches it by halves.
    assert!(GO_TYPES.windows(2).all(|w| w[0] < w[1]));
    assert!(defines_type("", "v1", "Pod"));
    assert!(defines_type("extensions", "v1beta1", "Deployment"));
    assert!(defines_type("meta.k8s.io", "v1", "ObjectMeta"));
    assert!(!defines_type("", "v1", "Deployment"));
    assert!(!defines_type(
        "scheduling.k8s.io",
        "v1alpha1",
        "PriorityClass"
    ));
}
