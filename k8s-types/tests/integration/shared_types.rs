//! Nested types that versions of a group define identically are one struct, owned by one
//! version and aliased by the others (`xtask/src/sharing.rs`). Objects of the aliasing
//! versions must still read and write Go's bytes, and convert to their hub and back
//! unchanged, now that their nested values move through the conversion as they are.

// The helpers fail the test they serve, with the fixture's name.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::any::TypeId;

use apimachinery::runtime::{Object, Scheme};
use apimachinery::serializer::json::{JsonSerializer, SerializerOptions};
use apimachinery::serializer::protobuf::ProtobufSerializer;
use apimachinery::serializer::{Decoder, Encoder};

fn fixture(stem: &str, ext: &str) -> Vec<u8> {
    let path = super::testdata().join(format!("{stem}.{ext}"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Whether Go's fixtures are there; without them (a checkout without the release's
/// reference data, which `cargo xtask refdata` writes with Go) the test is skipped with
/// a note, except under CI, where it fails.
fn fixtures_present() -> bool {
    let dir = super::testdata();
    if dir.is_dir() {
        return true;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "no Go fixtures at {}",
        dir.display()
    );
    eprintln!("note: no Go fixtures at {}; skipped", dir.display());
    false
}

/// Go's fixture `stem` decoded from JSON and from protobuf: each re-encodes to its own
/// bytes, and both are the same object; returns it.
fn read_both<T: Object + Clone + PartialEq + std::fmt::Debug + serde::Serialize>(
    scheme: &Scheme,
    stem: &str,
) -> T {
    let json = JsonSerializer::new(
        scheme,
        SerializerOptions {
            yaml: false,
            pretty: true,
            strict: false,
        },
    );
    let protobuf = ProtobufSerializer::new(scheme);
    let mut objects = Vec::new();
    for (ext, codec) in [
        ("json", &json as &dyn Decoder),
        ("pb", &protobuf as &dyn Decoder),
    ] {
        let bytes = fixture(stem, ext);
        let (object, _) = codec
            .decode(&bytes, None, None)
            .unwrap_or_else(|e| panic!("{stem}.{ext}: {e}"));
        let encoder: &dyn Encoder = if ext == "json" { &json } else { &protobuf };
        let again = encoder.encode_to_vec(object.as_ref()).unwrap();
        assert!(again == bytes, "{stem}.{ext} re-encodes to other bytes");
        let typed = object
            .downcast::<T>()
            .unwrap_or_else(|_| panic!("{stem}.{ext} is not a {}", std::any::type_name::<T>()));
        objects.push(*typed);
    }
    // The same object, but for the bytes of embedded raw objects, which each format
    // keeps as it read them (indented in the JSON fixture, compact in protobuf): compare
    // them as JSON values.
    let values: Vec<serde_json::Value> = objects
        .iter()
        .map(|o| serde_json::to_value(o).unwrap())
        .collect();
    assert_eq!(values[0], values[1], "{stem}: JSON and protobuf differ");
    objects.swap_remove(0)
}

/// Converts `obj` to its hub `H` and back, by reference and by value: the same object
/// comes back each way.
fn through_hub<T, H>(scheme: &Scheme, obj: &T)
where
    T: Object + Clone + PartialEq + std::fmt::Debug + Default,
    H: Object + Clone + PartialEq + std::fmt::Debug + Default,
{
    let hub: H = scheme.convert(obj).unwrap();
    let back: T = scheme.convert(&hub).unwrap();
    assert_eq!(&back, obj, "by reference");
    let hub_by_value: H = scheme.convert_by_value(obj.clone()).unwrap();
    assert_eq!(hub_by_value, hub);
    let back: T = scheme.convert_by_value(hub_by_value).unwrap();
    assert_eq!(&back, obj, "by value");
}

#[cfg(feature = "apps")]
#[test]
fn apps_v1beta2_holds_the_structs_of_apps_v1_and_keeps_gos_bytes() {
    if !fixtures_present() {
        return;
    }
    use k8s_types::apps::{v1, v1beta1, v1beta2};
    // What the generator decides; were these structs of their own, the rest would
    // still pass, but would not test the sharing.
    assert_eq!(
        TypeId::of::<v1beta2::DeploymentSpec>(),
        TypeId::of::<v1::DeploymentSpec>()
    );
    assert_eq!(
        TypeId::of::<v1beta1::DeploymentStrategy>(),
        TypeId::of::<v1::DeploymentStrategy>()
    );
    let scheme = Scheme::from_registry().unwrap();
    let d = read_both::<v1beta2::Deployment>(&scheme, "apps.v1beta2.Deployment");
    through_hub::<_, v1::Deployment>(&scheme, &d);
    let d = read_both::<v1beta1::Deployment>(&scheme, "apps.v1beta1.Deployment");
    through_hub::<_, v1::Deployment>(&scheme, &d);
    let ds = read_both::<v1beta2::DaemonSet>(&scheme, "apps.v1beta2.DaemonSet");
    through_hub::<_, v1::DaemonSet>(&scheme, &ds);
    let ss = read_both::<v1beta2::StatefulSet>(&scheme, "apps.v1beta2.StatefulSet");
    through_hub::<_, v1::StatefulSet>(&scheme, &ss);
}

#[cfg(feature = "flowcontrol")]
#[test]
fn flowcontrol_v1beta3_keeps_gos_bytes() {
    if !fixtures_present() {
        return;
    }
    use k8s_types::flowcontrol::{v1, v1beta3};
    assert_eq!(
        TypeId::of::<v1beta3::FlowSchemaSpec>(),
        TypeId::of::<v1::FlowSchemaSpec>()
    );
    let scheme = Scheme::from_registry().unwrap();
    let fs = read_both::<v1beta3::FlowSchema>(
        &scheme,
        "flowcontrol.apiserver.k8s.io.v1beta3.FlowSchema",
    );
    through_hub::<_, v1::FlowSchema>(&scheme, &fs);
    let plc = read_both::<v1beta3::PriorityLevelConfiguration>(
        &scheme,
        "flowcontrol.apiserver.k8s.io.v1beta3.PriorityLevelConfiguration",
    );
    through_hub::<_, v1::PriorityLevelConfiguration>(&scheme, &plc);
}

#[cfg(feature = "admissionregistration")]
#[test]
fn admissionregistration_v1beta1_keeps_gos_bytes() {
    if !fixtures_present() {
        return;
    }
    use k8s_types::admissionregistration::{v1, v1beta1};
    assert_eq!(
        TypeId::of::<v1beta1::ValidatingAdmissionPolicySpec>(),
        TypeId::of::<v1::ValidatingAdmissionPolicySpec>()
    );
    let scheme = Scheme::from_registry().unwrap();
    let vap = read_both::<v1beta1::ValidatingAdmissionPolicy>(
        &scheme,
        "admissionregistration.k8s.io.v1beta1.ValidatingAdmissionPolicy",
    );
    through_hub::<_, v1::ValidatingAdmissionPolicy>(&scheme, &vap);
    let map = read_both::<v1beta1::MutatingAdmissionPolicy>(
        &scheme,
        "admissionregistration.k8s.io.v1beta1.MutatingAdmissionPolicy",
    );
    through_hub::<_, v1::MutatingAdmissionPolicy>(&scheme, &map);
}

#[cfg(feature = "resource")]
#[test]
fn resource_v1beta2_keeps_gos_bytes() {
    if !fixtures_present() {
        return;
    }
    use k8s_types::resource::{v1, v1beta1, v1beta2};
    assert_eq!(
        TypeId::of::<v1beta2::ResourceClaimSpec>(),
        TypeId::of::<v1::ResourceClaimSpec>()
    );
    // A struct whose conversion is written by hand stays its version's own.
    assert_ne!(
        TypeId::of::<v1beta1::DeviceRequest>(),
        TypeId::of::<v1::DeviceRequest>()
    );
    let scheme = Scheme::from_registry().unwrap();
    let claim =
        read_both::<v1beta2::ResourceClaim>(&scheme, "resource.k8s.io.v1beta2.ResourceClaim");
    through_hub::<_, v1::ResourceClaim>(&scheme, &claim);
    let slice =
        read_both::<v1beta2::ResourceSlice>(&scheme, "resource.k8s.io.v1beta2.ResourceSlice");
    through_hub::<_, v1::ResourceSlice>(&scheme, &slice);
}
