//! Tests of [`DefaultRESTMapper`]: the cases of Go's `restmapper_test.go`, every branch of
//! the lookups, and differential property tests against Go's linear algorithm.

use super::*;
use crate::meta::naive_rest_mapper::NaiveRESTMapper;
use proptest::prelude::*;

fn gv(group: &str, version: &str) -> GroupVersion {
    GroupVersion::new(group, version)
}

fn gvr(group: &str, version: &str, resource: &str) -> GroupVersionResource {
    GroupVersionResource::new(group, version, resource)
}

fn gvk(group: &str, version: &str, kind: &str) -> GroupVersionKind {
    GroupVersionKind::new(group, version, kind)
}

fn mapper_with(defaults: &[GroupVersion], kinds: &[GroupVersionKind]) -> DefaultRESTMapper {
    let mut mapper = DefaultRESTMapper::new(defaults.to_vec());
    for kind in kinds {
        mapper.add(kind.clone(), RESTScope::NAMESPACE);
    }
    mapper
}

// ---- Go's TestRESTMapperVersionAndKindForResource / GroupForResource ----

#[test]
fn kind_for_accepts_singular_plural_and_any_case() {
    let test = gv("test.group", "test");
    let internal_object = test.with_kind("InternalObject");
    let empty = mapper_with(std::slice::from_ref(&test), &[]);
    for missing in ["internalobjec", "internalObjec"] {
        assert!(empty.kind_for(&gvr("", "", missing)).is_err());
    }
    let mapper = mapper_with(
        std::slice::from_ref(&test),
        std::slice::from_ref(&internal_object),
    );
    for name in ["internalobject", "internalobjects", "InternalObjects"] {
        assert_eq!(
            mapper.kind_for(&gvr("", "", name)).unwrap(),
            internal_object,
            "{name}"
        );
    }

    for group in ["testapi", "testapi2"] {
        let kind = gvk(group, "test", "MyObject");
        let mapper = mapper_with(&[kind.group_version()], std::slice::from_ref(&kind));
        assert_eq!(mapper.kind_for(&gvr("", "", "myObject")).unwrap(), kind);
        assert_eq!(mapper.kind_for(&gvr("", "", "myobject")).unwrap(), kind);
        assert!(mapper.kind_for(&gvr("", "", "myObje")).is_err());
        assert!(mapper.kind_for(&gvr("", "", "myobje")).is_err());
    }
}

// ---- Go's TestRESTMapperKindsFor and TestRESTMapperResourcesFor ----

struct MatchCase {
    name: &'static str,
    preferred: Vec<GroupVersion>,
    kinds: Vec<GroupVersionKind>,
    /// (group, version) of the lookup; the resource is `my-kind` / `my-kinds`.
    group: &'static str,
    version: &'static str,
    /// Groups of the expected answers, in order; all at `first-version`.
    want_groups: Vec<&'static str>,
}

fn match_cases() -> Vec<MatchCase> {
    let fv = "first-version";
    let two_groups_four_kinds = || {
        vec![
            gvk("first-group", fv, "my-kind"),
            gvk("first-group", fv, "your-kind"),
            gvk("second-group", fv, "my-kind"),
            gvk("second-group", fv, "your-kind"),
        ]
    };
    vec![
        MatchCase {
            name: "groups, with group exact",
            preferred: vec![gv("first-group-1", fv), gv("first-group", fv)],
            kinds: vec![
                gvk("first-group-1", fv, "my-kind"),
                gvk("first-group", fv, "my-kind"),
            ],
            group: "first-group",
            version: "",
            want_groups: vec!["first-group"],
        },
        MatchCase {
            name: "groups, with group prefix",
            preferred: vec![gv("second-group", fv), gv("first-group", fv)],
            kinds: vec![
                gvk("first-group", fv, "my-kind"),
                gvk("second-group", fv, "my-kind"),
            ],
            group: "first",
            version: "",
            want_groups: vec!["first-group"],
        },
        MatchCase {
            name: "groups, with ambiguous group prefix",
            preferred: vec![gv("first-group-1", fv), gv("first-group", fv)],
            kinds: vec![
                gvk("first-group-1", fv, "my-kind"),
                gvk("first-group", fv, "my-kind"),
            ],
            group: "first",
            version: "",
            want_groups: vec!["first-group-1", "first-group"],
        },
        MatchCase {
            name: "ambiguous groups, with preference order",
            preferred: vec![gv("second-group", fv), gv("first-group", fv)],
            kinds: two_groups_four_kinds(),
            group: "",
            version: "",
            want_groups: vec!["second-group", "first-group"],
        },
        MatchCase {
            name: "ambiguous groups, with explicit group match",
            preferred: vec![gv("second-group", fv), gv("first-group", fv)],
            kinds: two_groups_four_kinds(),
            group: "first-group",
            version: "",
            want_groups: vec!["first-group"],
        },
        MatchCase {
            name: "ambiguous groups, with ambiguous version match",
            preferred: vec![gv("first-group", fv), gv("second-group", fv)],
            kinds: two_groups_four_kinds(),
            group: "",
            version: fv,
            want_groups: vec!["first-group", "second-group"],
        },
    ]
}

#[test]
fn kinds_for_cases_of_go() {
    for case in match_cases() {
        let mapper = mapper_with(&case.preferred, &case.kinds);
        let want: Vec<GroupVersionKind> = case
            .want_groups
            .iter()
            .map(|g| gvk(g, "first-version", "my-kind"))
            .collect();
        // Go asks by singular for prefixes and exact groups, by plural otherwise; both work.
        for resource in ["my-kind", "my-kinds"] {
            let input = gvr(case.group, case.version, resource);
            assert_eq!(mapper.kinds_for(&input).unwrap(), want, "{}", case.name);
            match mapper.kind_for(&input) {
                Ok(kind) if want.len() == 1 => assert_eq!(kind, want[0], "{}", case.name),
                Err(err) if want.len() > 1 => {
                    assert!(
                        err.to_string().contains(" matches multiple kinds "),
                        "{err}"
                    );
                    assert!(err.is_ambiguous());
                }
                other => panic!("{}: {other:?}", case.name),
            }
        }
    }
}

#[test]
fn resources_for_cases_of_go() {
    for case in match_cases() {
        let mapper = mapper_with(&case.preferred, &case.kinds);
        let want: Vec<GroupVersionResource> = case
            .want_groups
            .iter()
            .map(|g| gvr(g, "first-version", "my-kinds"))
            .collect();
        for resource in ["my-kinds", "my-kind"] {
            let input = gvr(case.group, case.version, resource);
            assert_eq!(mapper.resources_for(&input).unwrap(), want, "{}", case.name);
            match mapper.resource_for(&input) {
                Ok(found) if want.len() == 1 => assert_eq!(found, want[0], "{}", case.name),
                Err(err) if want.len() > 1 => {
                    assert!(
                        err.to_string().contains(" matches multiple resources "),
                        "{err}"
                    )
                }
                other => panic!("{}: {other:?}", case.name),
            }
        }
    }
}

// ---- Go's TestRESTMapperResourceSingularizer ----

#[test]
fn resource_singularizer_cases_of_go() {
    let test = gv("tgroup", "test");
    let cases = [
        ("Pod", "pods", "pod"),
        (
            "ReplicationController",
            "replicationcontrollers",
            "replicationcontroller",
        ),
        ("ImageRepository", "imagerepositories", "imagerepository"),
        ("Status", "statuses", "status"),
        ("lowercase", "lowercases", "lowercase"),
        // Kinds are expected to be singular; a plural kind gets a doubled plural.
        ("lowercases", "lowercaseses", "lowercases"),
    ];
    for (kind, plural, singular) in cases {
        let mapper = mapper_with(std::slice::from_ref(&test), &[test.with_kind(kind)]);
        assert_eq!(
            mapper.resource_singularizer(plural).unwrap(),
            singular,
            "{kind}"
        );
    }
}

// ---- Go's TestRESTMapperRESTMapping / ...SelectsVersion / ...RESTMappings / ...BadVersion ----

#[test]
fn rest_mapping_cases_of_go() {
    let test = gv("tgroup", "test");
    let internal_objects = test.with_resource("internalobjects");
    struct Case {
        kind: &'static str,
        versions: Vec<&'static str>,
        defaults: Vec<GroupVersion>,
        want: Option<GroupVersionResource>,
    }
    let cases = [
        Case {
            kind: "Unknown",
            versions: vec![],
            defaults: vec![],
            want: None,
        },
        Case {
            kind: "InternalObject",
            versions: vec![],
            defaults: vec![],
            want: None,
        },
        Case {
            kind: "Unknown",
            versions: vec![],
            defaults: vec![test.clone()],
            want: None,
        },
        Case {
            kind: "InternalObject",
            versions: vec!["test"],
            defaults: vec![test.clone()],
            want: Some(internal_objects.clone()),
        },
        Case {
            kind: "InternalObject",
            versions: vec![],
            defaults: vec![test.clone()],
            want: Some(internal_objects.clone()),
        },
    ];
    for case in cases {
        let mapper = mapper_with(&case.defaults, &[test.with_kind("InternalObject")]);
        let got = mapper.rest_mapping(&GroupKind::new("tgroup", case.kind), &case.versions);
        match (case.want, got) {
            (Some(want), Ok(mapping)) => {
                assert_eq!(mapping.resource, want);
                assert_eq!(mapping.group_version_kind, test.with_kind("InternalObject"));
                assert_eq!(mapping.scope, RESTScope::NAMESPACE);
            }
            (None, Err(err)) => assert!(err.is_no_match(), "{err}"),
            (want, got) => panic!(
                "{} {:?}: want {want:?}, got {got:?}",
                case.kind, case.versions
            ),
        }
    }
}

#[test]
fn rest_mapping_selects_version_as_go() {
    let (v1, v2, v3) = (
        gv("tgroup", "test1"),
        gv("tgroup", "test2"),
        gv("tgroup", "test3"),
    );
    let internal = GroupKind::new("tgroup", "InternalObject");
    let other = GroupKind::new("tgroup", "OtherObject");
    let mut mapper = DefaultRESTMapper::new(vec![v1.clone(), v2.clone()]);
    mapper.add(v1.with_kind("InternalObject"), RESTScope::NAMESPACE);
    mapper.add(v2.with_kind("OtherObject"), RESTScope::NAMESPACE);

    // The default versions are searched in order.
    let m = mapper.rest_mapping(&other, &[]).unwrap();
    assert_eq!(m.resource, v2.with_resource("otherobjects"));
    let m = mapper.rest_mapping(&internal, &[]).unwrap();
    assert_eq!(m.resource, v1.with_resource("internalobjects"));
    // A version where the kind is not.
    assert!(mapper.rest_mapping(&internal, &["test2"]).is_err());
    assert!(mapper.rest_mapping(&other, &["test1"]).is_err());
    // Not a default version.
    assert!(mapper.rest_mapping(&other, &["test3"]).is_err());
    // Explicit search order.
    assert!(mapper.rest_mapping(&other, &["test3", "test1"]).is_err());
    let m = mapper.rest_mapping(&other, &["test3", "test2"]).unwrap();
    assert_eq!(m.resource, v2.with_resource("otherobjects"));
    assert_eq!(m.group_version_kind.group_version(), v2);
    // Go's TestRESTMapperReportsErrorOnBadVersion, with its message.
    let err = mapper.rest_mapping(&internal, &["test3"]).unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"no matches for kind "InternalObject" in version "tgroup/test3""#
    );
    let _ = v3;
}

#[test]
fn rest_mappings_cases_of_go() {
    let v1 = gv("tgroup", "v1");
    let v2 = gv("tgroup", "v2");
    let mapping = |gv: &GroupVersion| RESTMapping {
        resource: gv.with_resource("internalobjects"),
        group_version_kind: gv.with_kind("InternalObject"),
        scope: RESTScope::NAMESPACE,
    };
    type Case = (
        &'static str,
        Vec<&'static str>,
        Vec<GroupVersion>,
        Vec<GroupVersionKind>,
        Option<Vec<RESTMapping>>,
    );
    let cases: Vec<Case> = vec![
        ("Unknown", vec![], vec![], vec![], None),
        ("InternalObject", vec![], vec![], vec![], None),
        ("Unknown", vec![], vec![v1.clone()], vec![], None),
        // A specific version that is not there.
        ("InternalObject", vec!["v2"], vec![v1.clone()], vec![], None),
        // A specific version that is there.
        (
            "InternalObject",
            vec!["v2"],
            vec![v1.clone()],
            vec![v2.with_kind("InternalObject")],
            Some(vec![mapping(&v2)]),
        ),
        // Several versions, one there.
        (
            "InternalObject",
            vec!["v3", "v2"],
            vec![v1.clone()],
            vec![v2.with_kind("InternalObject")],
            Some(vec![mapping(&v2)]),
        ),
        // No version: every default version where the kind is.
        (
            "InternalObject",
            vec![],
            vec![v1.clone(), v2.clone()],
            vec![
                v1.with_kind("InternalObject"),
                v2.with_kind("InternalObject"),
            ],
            Some(vec![mapping(&v1), mapping(&v2)]),
        ),
    ];
    for (kind, versions, defaults, kinds, want) in cases {
        let mapper = mapper_with(&defaults, &kinds);
        let got = mapper.rest_mappings(&GroupKind::new("tgroup", kind), &versions);
        match (want, got) {
            (Some(want), Ok(got)) => assert_eq!(got, want),
            (None, Err(err)) => assert!(err.is_no_match(), "{err}"),
            (want, got) => panic!("{kind} {versions:?}: want {want:?}, got {got:?}"),
        }
    }
}

// ---- Every branch of the lookups ----

#[test]
fn a_lookup_needs_a_resource() {
    let mapper = mapper_with(&[gv("", "v1")], &[gvk("", "v1", "Pod")]);
    for input in [gvr("apps", "v1", ""), gvr("", API_VERSION_INTERNAL, "")] {
        for err in [
            mapper.resources_for(&input).unwrap_err(),
            mapper.kinds_for(&input).unwrap_err(),
            mapper.resource_for(&input).unwrap_err(),
            mapper.kind_for(&input).unwrap_err(),
        ] {
            assert!(
                matches!(err, RESTMapperError::MissingResource { .. }),
                "{err}"
            );
            assert!(!err.is_no_match());
        }
    }
    assert_eq!(
        mapper
            .resources_for(&gvr("apps", "v1", ""))
            .unwrap_err()
            .to_string(),
        "a resource must be present, got: apps/v1, Resource="
    );
    // The internal version is dropped before the message is written.
    assert_eq!(
        mapper
            .kinds_for(&gvr("", API_VERSION_INTERNAL, ""))
            .unwrap_err()
            .to_string(),
        "a resource must be present, got: /, Resource="
    );
    assert!(mapper.resource_singularizer("").is_err());
}

#[test]
fn no_match_messages_name_the_lookup_as_go_does() {
    let mapper = mapper_with(&[gv("", "v1")], &[gvk("", "v1", "Pod")]);
    let input = gvr("", API_VERSION_INTERNAL, "WIDGETS");
    // resources_for reports the lookup after coercion, kinds_for as given.
    assert_eq!(
        mapper.resources_for(&input).unwrap_err().to_string(),
        "no matches for /, Resource=widgets"
    );
    assert_eq!(
        mapper.kinds_for(&input).unwrap_err().to_string(),
        "no matches for /__internal, Resource=WIDGETS"
    );
    assert!(mapper.resource_for(&input).unwrap_err().is_no_match());
    assert!(mapper.kind_for(&input).unwrap_err().is_no_match());
}

#[test]
fn every_lookup_shape_finds_singular_and_plural() {
    let storage = gv("storage.k8s.io", "v1");
    let mapper = mapper_with(
        &[storage.clone(), gv("", "v1")],
        &[storage.with_kind("StorageClass"), gvk("", "v1", "Pod")],
    );
    let classes = storage.with_resource("storageclasses");
    let class_kind = storage.with_kind("StorageClass");
    let shapes = [
        gvr("", "", "storageclass"),
        gvr("", "", "StorageClasses"),
        gvr("", "v1", "storageclass"),
        gvr("", API_VERSION_INTERNAL, "storageclasses"),
        gvr("storage.k8s.io", "", "storageclass"),
        gvr("storage", "", "storageclasses"),
        gvr("storage.k8s.io", "v1", "storageclass"),
        gvr("storage.k8s.io", "v1", "storageclasses"),
        gvr("storage.k8s.io", API_VERSION_INTERNAL, "storageclasses"),
    ];
    for input in shapes {
        assert_eq!(
            mapper.resources_for(&input).unwrap(),
            vec![classes.clone()],
            "{input}"
        );
        assert_eq!(mapper.kind_for(&input).unwrap(), class_kind, "{input}");
    }
    for miss in [
        gvr("", "v2", "storageclasses"),
        gvr("apps", "", "storageclasses"),
        gvr("storage.k8s.io", "v2", "storageclasses"),
        gvr("k8s", "", "storageclasses"),
    ] {
        assert!(
            mapper.resources_for(&miss).unwrap_err().is_no_match(),
            "{miss}"
        );
        assert!(mapper.kinds_for(&miss).unwrap_err().is_no_match(), "{miss}");
    }
}

#[test]
fn an_exact_group_hides_prefix_matches() {
    let mapper = mapper_with(
        &[],
        &[
            gvk("apps", "v1", "Deployment"),
            gvk("apps.example.com", "v1", "Deployment"),
        ],
    );
    assert_eq!(
        mapper
            .resources_for(&gvr("apps", "", "deployments"))
            .unwrap(),
        vec![gvr("apps", "v1", "deployments")]
    );
    assert_eq!(
        mapper.kinds_for(&gvr("app", "", "deployment")).unwrap(),
        vec![
            gvk("apps", "v1", "Deployment"),
            gvk("apps.example.com", "v1", "Deployment")
        ]
    );
}

#[test]
fn answers_follow_preferences_then_a_fixed_order() {
    // b/v1 and a/v1 are preferred in that order; a/v2 and c/v1 are not listed, so they come
    // last, by group then version.
    let mapper = mapper_with(
        &[gv("b", "v1"), gv("a", "v1")],
        &[
            gvk("c", "v1", "Thing"),
            gvk("a", "v2", "Thing"),
            gvk("a", "v1", "Thing"),
            gvk("b", "v1", "Thing"),
        ],
    );
    assert_eq!(
        mapper.kinds_for(&gvr("", "", "things")).unwrap(),
        vec![
            gvk("b", "v1", "Thing"),
            gvk("a", "v1", "Thing"),
            gvk("a", "v2", "Thing"),
            gvk("c", "v1", "Thing"),
        ]
    );
    let err = mapper.kind_for(&gvr("", "", "things")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "/, Resource=things matches multiple kinds [b/v1, Kind=Thing a/v1, Kind=Thing a/v2, Kind=Thing c/v1, Kind=Thing]"
    );
    // Within one group version, by name.
    let mut mapper = DefaultRESTMapper::new(vec![]);
    mapper.add_specific(
        gvk("a", "v1", "Z"),
        gvr("a", "v1", "zs"),
        gvr("a", "v1", "thing"),
        RESTScope::ROOT,
    );
    mapper.add_specific(
        gvk("a", "v1", "A"),
        gvr("a", "v1", "as"),
        gvr("a", "v1", "thing"),
        RESTScope::ROOT,
    );
    assert_eq!(
        mapper.resources_for(&gvr("", "", "thing")).unwrap(),
        vec![gvr("a", "v1", "as"), gvr("a", "v1", "zs")]
    );
    assert_eq!(
        mapper.kinds_for(&gvr("", "", "thing")).unwrap(),
        vec![gvk("a", "v1", "A")],
        "the singular resource maps to the last kind registered for it"
    );
    // A group version listed twice ranks at its last place, as in Go.
    let mapper = mapper_with(
        &[gv("a", "v1"), gv("b", "v1"), gv("a", "v1")],
        &[gvk("a", "v1", "Thing"), gvk("b", "v1", "Thing")],
    );
    assert_eq!(
        mapper.resources_for(&gvr("", "", "thing")).unwrap(),
        vec![gvr("b", "v1", "things"), gvr("a", "v1", "things")]
    );
}

#[test]
fn a_fully_qualified_singular_shared_by_plurals_answers_the_first_registered() {
    let mut mapper = DefaultRESTMapper::new(vec![]);
    let singular = gvr("a", "v1", "thing");
    mapper.add_specific(
        gvk("a", "v1", "Second"),
        gvr("a", "v1", "things-b"),
        singular.clone(),
        RESTScope::ROOT,
    );
    mapper.add_specific(
        gvk("a", "v1", "First"),
        gvr("a", "v1", "things-a"),
        singular.clone(),
        RESTScope::ROOT,
    );
    assert_eq!(
        mapper.resources_for(&singular).unwrap(),
        vec![gvr("a", "v1", "things-b")]
    );
}

#[test]
fn same_singular_and_plural_is_listed_twice_as_in_go() {
    let mapper = mapper_with(&[gv("", "v1")], &[gvk("", "v1", "Endpoints")]);
    let endpoints = gvr("", "v1", "endpoints");
    for input in [
        gvr("", "", "endpoints"),
        gvr("", "v1", "endpoints"),
        gvr("", "", "Endpoints"),
    ] {
        assert_eq!(
            mapper.resources_for(&input).unwrap(),
            vec![endpoints.clone(), endpoints.clone()]
        );
        assert_eq!(
            mapper.resource_for(&input).unwrap_err().to_string(),
            format!(
                "{input} matches multiple resources [/v1, Resource=endpoints /v1, Resource=endpoints]"
            )
        );
        assert_eq!(mapper.kind_for(&input).unwrap(), gvk("", "v1", "Endpoints"));
    }
    assert_eq!(
        mapper.resource_singularizer("endpoints").unwrap(),
        "endpoints"
    );
}

#[test]
fn later_registrations_replace_earlier_ones_as_go_maps_do() {
    let mut mapper = DefaultRESTMapper::new(vec![gv("a", "v1")]);
    let plural = gvr("a", "v1", "foos");
    let (old_kind, new_kind) = (gvk("a", "v1", "Foo"), gvk("a", "v1", "NewFoo"));
    mapper.add_specific(
        old_kind.clone(),
        plural.clone(),
        gvr("a", "v1", "foo"),
        RESTScope::NAMESPACE,
    );
    mapper.add_specific(
        new_kind.clone(),
        plural.clone(),
        gvr("a", "v1", "newfoo"),
        RESTScope::ROOT,
    );
    assert_eq!(mapper.len(), 1);
    // The plural now pairs with the new singular only.
    assert!(
        mapper
            .resources_for(&gvr("", "", "foo"))
            .unwrap_err()
            .is_no_match()
    );
    assert_eq!(
        mapper.resources_for(&gvr("", "", "newfoo")).unwrap(),
        vec![plural.clone()]
    );
    assert_eq!(mapper.resource_singularizer("foos").unwrap(), "newfoo");
    // But the old singular still names the old kind, and the plural the new one.
    assert_eq!(mapper.kind_for(&gvr("", "", "foo")).unwrap(), old_kind);
    assert_eq!(mapper.kind_for(&gvr("", "", "foos")).unwrap(), new_kind);
    // Both kinds still map to the plural, each with its own scope.
    let old = mapper.rest_mapping(&old_kind.group_kind(), &[]).unwrap();
    assert_eq!(
        (old.resource, old.scope),
        (plural.clone(), RESTScope::NAMESPACE)
    );
    let new = mapper.rest_mapping(&new_kind.group_kind(), &[]).unwrap();
    assert_eq!((new.resource, new.scope), (plural, RESTScope::ROOT));
    // A guessed registration adds its own plural beside the specific one.
    mapper.add(gvk("a", "v1", "NewFoo"), RESTScope::ROOT);
    assert_eq!(
        mapper.resources_for(&gvr("a", "", "newfoo")).unwrap(),
        vec![gvr("a", "v1", "foos"), gvr("a", "v1", "newfoos")]
    );
}

#[test]
fn rest_mappings_skip_empty_and_internal_versions() {
    let v1 = gv("g", "v1");
    let mapper = mapper_with(std::slice::from_ref(&v1), &[v1.with_kind("Thing")]);
    let gk = GroupKind::new("g", "Thing");
    for versions in [&["", API_VERSION_INTERNAL][..], &[""], &[]] {
        let got = mapper.rest_mappings(&gk, versions).unwrap();
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].group_version_kind, v1.with_kind("Thing"));
    }
    // Searched versions are reported as given, empty ones included.
    let err = mapper.rest_mapping(&gk, &["", "v9"]).unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"no matches for kind "Thing" in versions ["g/" "g/v9"]"#
    );
    // The first version asked for that exists wins, even if a later one exists too.
    let v2 = gv("g", "v2");
    let mapper = mapper_with(
        &[v1.clone(), v2.clone()],
        &[v1.with_kind("Thing"), v2.with_kind("Thing")],
    );
    let got = mapper.rest_mappings(&gk, &["v2", "v1"]).unwrap();
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].resource, v2.with_resource("things"));
    // A default version listed twice maps twice, as in Go.
    let mapper = mapper_with(&[v1.clone(), v1.clone()], &[v1.with_kind("Thing")]);
    assert_eq!(mapper.rest_mappings(&gk, &[]).unwrap().len(), 2);
}

#[test]
fn rest_mappings_errors_are_gos() {
    let mapper = mapper_with(&[gv("tgroup", "test")], &[]);
    // Default versions exist but do not have the kind.
    let err = mapper
        .rest_mappings(&GroupKind::new("tgroup", "Unknown"), &[])
        .unwrap_err();
    assert_eq!(err.to_string(), "no matches for tgroup/, Resource=Unknown");
    assert!(err.is_no_match());
    // No default version for the group.
    let err = mapper
        .rest_mapping(&GroupKind::new("other", "Unknown"), &[])
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"no matches for kind "Unknown" in group "other""#
    );
    // Kinds are case sensitive.
    let mapper = mapper_with(&[gv("tgroup", "test")], &[gvk("tgroup", "test", "Thing")]);
    assert!(
        mapper
            .rest_mapping(&GroupKind::new("tgroup", "thing"), &[])
            .is_err()
    );
}

#[test]
fn resource_singularizer_errors_are_gos() {
    let mut mapper = DefaultRESTMapper::new(vec![]);
    mapper.add_specific(
        gvk("a", "v1", "Foo"),
        gvr("a", "v1", "foos"),
        gvr("a", "v1", "foo"),
        RESTScope::ROOT,
    );
    mapper.add_specific(
        gvk("b", "v1", "Foo"),
        gvr("b", "v1", "foos"),
        gvr("b", "v1", "fooz"),
        RESTScope::ROOT,
    );
    assert_eq!(
        mapper
            .resource_singularizer("foos")
            .unwrap_err()
            .to_string(),
        "multiple possible singular resources ([a/v1, Resource=foos b/v1, Resource=foos]) found for foos"
    );
    // The same singular in several groups is no conflict.
    mapper.add_specific(
        gvk("c", "v1", "Bar"),
        gvr("c", "v1", "bars"),
        gvr("c", "v1", "bar"),
        RESTScope::ROOT,
    );
    mapper.add_specific(
        gvk("d", "v1", "Bar"),
        gvr("d", "v1", "bars"),
        gvr("d", "v1", "bar"),
        RESTScope::ROOT,
    );
    assert_eq!(mapper.resource_singularizer("bars").unwrap(), "bar");
    // No singular registered.
    mapper.add_specific(
        gvk("e", "v1", "Baz"),
        gvr("e", "v1", "bazs"),
        GroupVersionResource::default(),
        RESTScope::ROOT,
    );
    assert_eq!(
        mapper
            .resource_singularizer("bazs")
            .unwrap_err()
            .to_string(),
        "no singular of resource bazs has been defined"
    );
    assert_eq!(
        mapper
            .resource_singularizer("nothing")
            .unwrap_err()
            .to_string(),
        "no matches for /, Resource=nothing"
    );
}

#[test]
fn an_empty_kind_registers_nothing_findable() {
    let mut mapper = DefaultRESTMapper::new(vec![gv("a", "v1")]);
    mapper.add(gvk("a", "v1", ""), RESTScope::ROOT);
    assert!(
        mapper
            .resources_for(&gvr("", "", "s"))
            .unwrap_err()
            .is_no_match()
    );
    assert!(
        mapper
            .rest_mapping(&GroupKind::new("a", "Thing"), &[])
            .unwrap_err()
            .is_no_match()
    );
}

// ---- Property tests ----

/// Kinds of a few shapes, from a small alphabet so that names collide across groups and
/// versions and prefixes of groups match.
fn arb_kind() -> impl Strategy<Value = GroupVersionKind> {
    (
        prop::sample::select(vec!["", "a", "ab", "a.b", "b", "abc.io"]),
        prop::sample::select(vec!["v1", "v2", "v1beta1"]),
        prop::sample::select(vec![
            "Foo",
            "Foos",
            "Bar",
            "Endpoints",
            "Policy",
            "Key",
            "Box",
            "foo",
        ]),
    )
        .prop_map(|(g, v, k)| gvk(g, v, k))
}

#[derive(Clone, Debug)]
enum Registration {
    Add(GroupVersionKind, RESTScope),
    Specific(
        GroupVersionKind,
        GroupVersionResource,
        GroupVersionResource,
        RESTScope,
    ),
}

fn arb_registration() -> impl Strategy<Value = Registration> {
    let scope = prop::sample::select(vec![RESTScope::NAMESPACE, RESTScope::ROOT]);
    let name = prop::sample::select(vec!["foo", "foos", "bar", "endpoints", "thing", ""]);
    prop_oneof![
        3 => (arb_kind(), scope.clone()).prop_map(|(k, s)| Registration::Add(k, s)),
        1 => (arb_kind(), name.clone(), name, scope).prop_map(|(k, p, s, scope)| {
            let gv = k.group_version();
            Registration::Specific(k, gv.with_resource(p), gv.with_resource(s), scope)
        }),
    ]
}

fn arb_query() -> impl Strategy<Value = GroupVersionResource> {
    (
        prop::sample::select(vec!["", "a", "ab", "a.b", "b", "abc.io", "x", "ab"]),
        prop::sample::select(vec!["", "v1", "v2", API_VERSION_INTERNAL]),
        prop::sample::select(vec![
            "foo",
            "foos",
            "Foos",
            "FOO",
            "bar",
            "bars",
            "endpoints",
            "policies",
            "policy",
            "keys",
            "boxes",
            "thing",
            "",
            "none",
        ]),
    )
        .prop_map(|(g, v, r)| gvr(g, v, r))
}

fn arb_defaults() -> impl Strategy<Value = Vec<GroupVersion>> {
    prop::collection::vec(
        (
            prop::sample::select(vec!["", "a", "ab", "a.b", "b", "abc.io"]),
            prop::sample::select(vec!["v1", "v2", "v1beta1"]),
        )
            .prop_map(|(g, v)| gv(g, v)),
        0..6,
    )
}

fn render<T: std::fmt::Debug>(r: Result<T, RESTMapperError>) -> Result<T, String> {
    r.map_err(|e| e.to_string())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The indexed mapper answers every lookup exactly as Go's linear algorithm does.
    #[test]
    fn indexed_lookups_equal_gos_linear_walk(
        defaults in arb_defaults(),
        registrations in prop::collection::vec(arb_registration(), 0..24),
        queries in prop::collection::vec(arb_query(), 1..16),
        kinds in prop::collection::vec(arb_kind(), 1..6),
        versions in prop::collection::vec(prop::sample::select(vec!["", "v1", "v2", "v3", API_VERSION_INTERNAL]), 0..3),
    ) {
        let mut fast = DefaultRESTMapper::new(defaults.clone());
        let mut slow = NaiveRESTMapper::new(defaults);
        for r in registrations {
            match r {
                Registration::Add(k, s) => {
                    fast.add(k.clone(), s);
                    slow.add(k, s);
                }
                Registration::Specific(k, p, sg, s) => {
                    fast.add_specific(k.clone(), p.clone(), sg.clone(), s);
                    slow.add_specific(k, p, sg, s);
                }
            }
        }
        for q in &queries {
            prop_assert_eq!(render(fast.resources_for(q)), render(slow.resources_for(q)), "resources_for {}", q);
            prop_assert_eq!(render(fast.kinds_for(q)), render(slow.kinds_for(q)), "kinds_for {}", q);
            prop_assert_eq!(render(fast.resource_for(q)), render(slow.resource_for(q)), "resource_for {}", q);
            prop_assert_eq!(render(fast.kind_for(q)), render(slow.kind_for(q)), "kind_for {}", q);
            prop_assert_eq!(
                render(fast.resource_singularizer(&q.resource)),
                render(slow.resource_singularizer(&q.resource)),
                "resource_singularizer {}", q
            );
        }
        for k in &kinds {
            let gk = k.group_kind();
            prop_assert_eq!(render(fast.rest_mappings(&gk, &versions)), render(slow.rest_mappings(&gk, &versions)));
            prop_assert_eq!(render(fast.rest_mapping(&gk, &versions)), render(slow.rest_mapping(&gk, &versions)));
        }
    }

    /// Whatever kinds are registered, the resource a kind maps to maps back to the kind
    /// (the last one registered under the same lower-case name, which took the resource).
    ///
    /// In the core group this holds only up to ambiguity: an empty group means "any
    /// group" to a lookup, so `/v1, Resource=things` also finds `things` of other groups
    /// at `v1`, as in Go.
    #[test]
    fn rest_mapping_then_kind_for_returns_the_kind(
        kinds in prop::collection::vec(
            (
                prop::sample::select(vec!["", "apps", "apps.example.com", "batch", "x.y.z"]),
                prop::sample::select(vec!["v1", "v1beta1", "v2"]),
                "[A-Z][a-zA-Z]{0,10}",
            ),
            1..40,
        ),
    ) {
        let kinds: Vec<GroupVersionKind> = kinds
            .into_iter()
            .map(|(g, v, k)| gvk(g, v, &format!("{k}Kind")))
            .collect();
        let mut defaults: Vec<GroupVersion> = kinds.iter().map(GroupVersionKind::group_version).collect();
        defaults.dedup();
        let mut mapper = DefaultRESTMapper::new(defaults);
        for k in &kinds {
            mapper.add(k.clone(), RESTScope::NAMESPACE);
        }
        for k in &kinds {
            let mapping = mapper.rest_mapping(&k.group_kind(), &[&k.version]).unwrap();
            prop_assert_eq!(&mapping.group_version_kind, k);
            let owner = kinds
                .iter()
                .rev()
                .find(|o| o.group_version() == k.group_version() && o.kind.to_lowercase() == k.kind.to_lowercase())
                .unwrap();
            if k.group.is_empty() {
                match mapper.kind_for(&mapping.resource) {
                    Ok(found) => prop_assert_eq!(&found, owner),
                    Err(RESTMapperError::AmbiguousResource(e)) => {
                        prop_assert!(e.matching_kinds.contains(owner));
                    }
                    Err(e) => prop_assert!(false, "{}", e),
                }
            } else {
                prop_assert_eq!(&mapper.kind_for(&mapping.resource).unwrap(), owner);
                prop_assert_eq!(&mapper.resource_for(&mapping.resource).unwrap(), &mapping.resource);
            }
        }
    }

    /// Arbitrary text never makes a lookup panic.
    #[test]
    fn arbitrary_lookups_never_panic(
        group in ".{0,12}", version in ".{0,6}", resource in ".{0,16}", kind in ".{0,12}",
        versions in prop::collection::vec(".{0,6}", 0..3),
    ) {
        let mut mapper = mapper_with(&[gv("", "v1"), gv("apps", "v1")], &[gvk("", "v1", "Pod"), gvk("apps", "v1", "Deployment")]);
        mapper.add(gvk(&group, &version, &kind), RESTScope::ROOT);
        let q = gvr(&group, &version, &resource);
        let versions: Vec<&str> = versions.iter().map(String::as_str).collect();
        let _ = mapper.resources_for(&q);
        let _ = mapper.resource_for(&q);
        let _ = mapper.kinds_for(&q);
        let _ = mapper.kind_for(&q);
        let _ = mapper.resource_singularizer(&resource);
        let _ = mapper.rest_mappings(&GroupKind::new(group.as_str(), kind.as_str()), &versions);
        let r = mapper.rest_mapping(&GroupKind::new(group.as_str(), kind.as_str()), &versions);
        if let Err(e) = r {
            prop_assert!(!e.to_string().is_empty());
        }
    }
}
