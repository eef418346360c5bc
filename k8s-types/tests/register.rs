//! `k8s_types::register` in a program that names no type of the crate: the kinds, their
//! conversions and defaulters are there all the same (a test binary of its own, so that
//! nothing else links the crate for it).

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
    let mut old = scheme.deserialize(&gvk, &mut serde_json::Deserializer::from_slice(json))?;
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
