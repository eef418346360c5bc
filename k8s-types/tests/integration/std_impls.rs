//! The `Clone` and `Debug` that `cargo xtask codegen` writes out (instead of deriving
//! them, for less machine code) behave as the std derives: each generated type here is
//! compared with a mirror struct of the same name and fields that derives them (and
//! `Default`, which stays derived, with the mirror's).

use apimachinery::apis::meta::v1::{ObjectMeta, Time, TypeMeta};
use k8s_types::core::v1 as core;

/// Mirrors, with the derives, of generated types: one with a raw identifier field
/// (`r#type`), one kind with the `type_meta` field the generator adds. Their fields are
/// read only through `Debug`, which the dead-code lint does not count.
#[allow(dead_code)]
mod mirror {
    use super::*;

    #[derive(Clone, Debug, Default)]
    pub struct ComponentCondition {
        pub r#type: String,
        pub status: String,
        pub message: String,
        pub error: String,
    }

    #[derive(Clone, Debug, Default)]
    pub struct ConfigMap {
        pub type_meta: TypeMeta,
        pub metadata: ObjectMeta,
        pub immutable: Option<bool>,
        pub data: std::collections::BTreeMap<String, String>,
        pub binary_data: std::collections::BTreeMap<String, k8s_types::value::ByteString>,
    }
}

fn condition() -> (core::ComponentCondition, mirror::ComponentCondition) {
    let generated = core::ComponentCondition {
        r#type: "Healthy".to_owned(),
        status: "True".to_owned(),
        message: "ok".to_owned(),
        error: String::new(),
    };
    let derived = mirror::ComponentCondition {
        r#type: "Healthy".to_owned(),
        status: "True".to_owned(),
        message: "ok".to_owned(),
        error: String::new(),
    };
    (generated, derived)
}

fn config_map() -> (core::ConfigMap, mirror::ConfigMap) {
    let type_meta = TypeMeta {
        kind: "ConfigMap".to_owned(),
        api_version: "v1".to_owned(),
    };
    let metadata = ObjectMeta {
        name: "cm".to_owned(),
        namespace: "default".to_owned(),
        generation: 3,
        creation_timestamp: Time::default(),
        deletion_grace_period_seconds: Some(30),
        labels: [("app".to_owned(), "web".to_owned())].into(),
        finalizers: vec!["f".to_owned()],
        ..ObjectMeta::default()
    };
    let data: std::collections::BTreeMap<String, String> =
        [("key".to_owned(), "value".to_owned())].into();
    let generated = core::ConfigMap {
        type_meta: type_meta.clone(),
        metadata: metadata.clone(),
        immutable: Some(true),
        data: data.clone(),
        binary_data: Default::default(),
    };
    let derived = mirror::ConfigMap {
        type_meta,
        metadata,
        immutable: Some(true),
        data,
        binary_data: Default::default(),
    };
    (generated, derived)
}

#[test]
fn debug_prints_what_the_derive_prints() {
    let (generated, derived) = condition();
    assert_eq!(format!("{generated:?}"), format!("{derived:?}"));
    assert_eq!(format!("{generated:#?}"), format!("{derived:#?}"));
    assert!(format!("{generated:?}").starts_with("ComponentCondition { type: \"Healthy\""));
    let (generated, derived) = config_map();
    assert_eq!(format!("{generated:?}"), format!("{derived:?}"));
    assert_eq!(format!("{generated:#?}"), format!("{derived:#?}"));
}

#[test]
fn default_is_the_derived_default() {
    assert_eq!(
        format!("{:?}", core::ConfigMap::default()),
        format!("{:?}", mirror::ConfigMap::default())
    );
    assert_eq!(
        format!("{:?}", core::ComponentCondition::default()),
        format!("{:?}", mirror::ComponentCondition::default())
    );
}

#[test]
fn clone_copies_every_field() {
    let (generated, derived) = config_map();
    let copy = generated.clone();
    assert_eq!(copy, generated);
    assert_eq!(format!("{copy:?}"), format!("{:?}", derived.clone()));
    let (generated, _) = condition();
    assert_eq!(generated.clone(), generated);
}
