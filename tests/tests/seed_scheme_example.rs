//! The worked example of seed `000_7180ed7dc214f983.txt`: `Pod` registered under `/v1` and
//! `/__internal`, `DaemonSet` under `extensions/v1beta1`, `Status` unversioned under `/v1`.

use apimachinery::apis::meta::v1::{ObjectMeta, Status};
use apimachinery::runtime::{ObjectType, Scheme};
use apimachinery::schema::{GroupKind, GroupVersion, GroupVersionKind};

/// Small stand-ins for the built-in types; the generated ones live in `k8s-types`.
mod stand_in {
    use super::ObjectMeta;
    use apimachinery::ApiObject;

    #[derive(ApiObject, Clone, Debug, Default, PartialEq)]
    #[api(version = "v1", kind = "Pod", crate = "apimachinery")]
    pub struct Pod {
        pub metadata: ObjectMeta,
    }

    #[derive(ApiObject, Clone, Debug, Default, PartialEq)]
    #[api(group = "apps", version = "v1", kind = "DaemonSet")]
    pub struct DaemonSet {
        pub metadata: ObjectMeta,
    }
}
use stand_in::{DaemonSet, Pod};

fn seed_scheme() -> Scheme {
    let core = GroupVersion::new("", "v1");
    let extensions = GroupVersion::new("extensions", "v1beta1");
    let core_internal = GroupVersion::new("", "__internal");
    let unversioned = GroupVersion::new("", "v1");
    let mut scheme = Scheme::with_name("seed");
    scheme
        .add_known_types(&core, &[ObjectType::of::<Pod>()])
        .unwrap();
    scheme
        .add_known_types(&extensions, &[ObjectType::of::<DaemonSet>()])
        .unwrap();
    scheme
        .add_known_types(&core_internal, &[ObjectType::of::<Pod>()])
        .unwrap();
    scheme
        .add_unversioned_types(&unversioned, &[ObjectType::of::<Status>()])
        .unwrap();
    scheme
}

#[test]
fn gvk_to_type_has_the_four_entries_of_the_seed() {
    let scheme = seed_scheme();
    let all: Vec<(String, &str)> = scheme
        .all_known_types()
        .into_iter()
        .map(|(gvk, t)| (gvk.to_string(), t.type_name()))
        .collect();
    assert_eq!(all.len(), 4, "{all:?}");
    let type_of = |gvk: &str| {
        scheme
            .object_type(&gvk.parse::<GroupVersionKind>().unwrap())
            .map(|t| t.type_name().rsplit("::").next().unwrap_or_default())
    };
    assert_eq!(type_of("/v1, Kind=Pod"), Some("Pod"));
    assert_eq!(type_of("/__internal, Kind=Pod"), Some("Pod"));
    assert_eq!(
        type_of("extensions/v1beta1, Kind=DaemonSet"),
        Some("DaemonSet")
    );
    assert_eq!(type_of("/v1, Kind=Status"), Some("Status"));
}

#[test]
fn type_to_gvk_maps_pod_to_two_kinds() {
    let scheme = seed_scheme();
    let (pod, unversioned) = scheme.object_kinds(&Pod::default()).unwrap();
    assert_eq!(
        pod.as_ref(),
        &[
            GroupVersionKind::new("", "v1", "Pod"),
            GroupVersionKind::new("", "__internal", "Pod")
        ]
    );
    assert!(!unversioned);
    let (ds, _) = scheme.object_kinds(&DaemonSet::default()).unwrap();
    assert_eq!(
        ds.as_ref(),
        &[GroupVersionKind::new("extensions", "v1beta1", "DaemonSet")]
    );
    let (status, unversioned) = scheme.object_kinds(&Status::default()).unwrap();
    assert_eq!(
        status.as_ref(),
        &[GroupVersionKind::new("", "v1", "Status")]
    );
    assert!(unversioned);
}

#[test]
fn status_is_unversioned_and_recognised_by_kind_name_alone() {
    let scheme = seed_scheme();
    assert_eq!(scheme.is_unversioned(&Status::default()), Some(true));
    assert_eq!(scheme.is_unversioned(&Pod::default()), Some(false));
    let obj = scheme
        .new_object(&GroupVersionKind::new("batch", "v1", "Status"))
        .unwrap();
    assert!(obj.is::<Status>());
}

#[test]
fn query_methods_answer_as_the_seed_describes() {
    let scheme = seed_scheme();
    assert!(scheme.is_group_registered(""));
    assert!(scheme.is_group_registered("extensions"));
    assert!(!scheme.is_group_registered("apps"));
    assert!(scheme.is_version_registered(&GroupVersion::new("", "v1")));
    // Internal versions are never observed.
    assert!(!scheme.is_version_registered(&GroupVersion::new("", "__internal")));
    assert!(scheme.recognizes(&GroupVersionKind::new("", "__internal", "Pod")));
    assert!(!scheme.recognizes(&GroupVersionKind::new("apps", "v1", "DaemonSet")));
    let known = scheme.known_types(&GroupVersion::new("", "v1"));
    assert_eq!(
        known.keys().map(|k| k.as_str()).collect::<Vec<_>>(),
        ["Pod", "Status"]
    );
    assert_eq!(
        scheme.versions_for_group_kind(&GroupKind::new("", "Pod")),
        vec![GroupVersion::new("", "v1")]
    );
    assert!(
        scheme
            .new_object(&GroupVersionKind::new("", "__internal", "Pod"))
            .unwrap()
            .is::<Pod>()
    );
    let err = scheme
        .new_object(&GroupVersionKind::new("apps", "v1", "DaemonSet"))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"no kind "DaemonSet" is registered for version "apps/v1" in scheme "seed""#
    );
}
