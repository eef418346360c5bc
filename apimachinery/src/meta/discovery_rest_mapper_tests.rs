//! Tests of [`DiscoveryRESTMapper`]: Go's `TestRESTMapper` cases, a small cluster written
//! as legacy and as aggregated discovery documents, and the index against Go's plain
//! union.

use super::*;
use crate::apis::meta::v1::GroupVersionForDiscovery;
use crate::meta::MultiRESTMapper;
use std::sync::{Arc, Mutex};

fn gvr(group: &str, version: &str, resource: &str) -> GroupVersionResource {
    GroupVersionResource::new(group, version, resource)
}

fn gvk(group: &str, version: &str, kind: &str) -> GroupVersionKind {
    GroupVersionKind::new(group, version, kind)
}

fn resource(name: &str, kind: &str, namespaced: bool) -> APIResource {
    APIResource {
        name: name.into(),
        kind: kind.into(),
        namespaced,
        ..Default::default()
    }
}

fn group(
    name: &str,
    versions: &[&str],
    preferred: &str,
    resources: Vec<(&str, Vec<APIResource>)>,
) -> APIGroupResources {
    let v = |version: &str| GroupVersionForDiscovery {
        group_version: GroupVersion::new(name, version).to_string(),
        version: version.into(),
    };
    APIGroupResources {
        group: APIGroup {
            name: name.into(),
            versions: Some(versions.iter().map(|x| v(x)).collect()),
            preferred_version: v(preferred),
            ..Default::default()
        },
        versioned_resources: resources
            .into_iter()
            .map(|(v, r)| (v.to_owned(), r))
            .collect(),
    }
}

/// The groups of Go's `TestRESTMapper`: `extensions` before the core group, and a group
/// whose newer resources exist only in versions that are not preferred.
fn go_test_groups() -> Vec<APIGroupResources> {
    vec![
        group(
            "extensions",
            &["v1beta"],
            "v1beta",
            vec![(
                "v1beta",
                vec![resource("jobs", "Job", true), resource("pods", "Pod", true)],
            )],
        ),
        group(
            "",
            &["v1", "v2"],
            "v1",
            vec![
                ("v1", vec![resource("pods", "Pod", true)]),
                ("v2", vec![resource("pods", "Pod", true)]),
            ],
        ),
        group(
            "unpreferred",
            &["v1", "v2beta1", "v2alpha1"],
            "v1",
            vec![
                ("v1", vec![resource("broccoli", "Broccoli", true)]),
                (
                    "v2beta1",
                    vec![
                        resource("broccoli", "Broccoli", true),
                        resource("peas", "Pea", true),
                    ],
                ),
                (
                    "v2alpha1",
                    vec![
                        resource("broccoli", "Broccoli", true),
                        resource("peas", "Pea", true),
                    ],
                ),
            ],
        ),
    ]
}

#[test]
fn cases_of_gos_test_rest_mapper() {
    let mapper = DiscoveryRESTMapper::new(&go_test_groups());
    let kinds = [
        (gvr("", "", "pods"), gvk("", "v1", "Pod")),
        (gvr("", "v1", "pods"), gvk("", "v1", "Pod")),
        (gvr("", "v2", "pods"), gvk("", "v2", "Pod")),
        (gvr("", "", "jobs"), gvk("extensions", "v1beta", "Job")),
        (gvr("", "", "peas"), gvk("unpreferred", "v2beta1", "Pea")),
    ];
    for (input, want) in kinds {
        assert_eq!(mapper.kind_for(&input).unwrap(), want, "{input}");
        assert_eq!(
            mapper.without_shortcuts().kind_for(&input).unwrap(),
            want,
            "{input}"
        );
    }
    let resources = [
        (gvr("", "", "pods"), gvr("", "v1", "pods")),
        (gvr("", "v1", "pods"), gvr("", "v1", "pods")),
        (gvr("", "v2", "pods"), gvr("", "v2", "pods")),
        (gvr("", "", "jobs"), gvr("extensions", "v1beta", "jobs")),
    ];
    for (input, want) in resources {
        assert_eq!(mapper.resource_for(&input).unwrap(), want, "{input}");
    }
    // Without priorities the union is ambiguous, and lists every match in group order.
    assert_eq!(
        mapper.resources_for(&gvr("", "", "pods")).unwrap(),
        vec![
            gvr("extensions", "v1beta", "pods"),
            gvr("", "v1", "pods"),
            gvr("", "v2", "pods")
        ]
    );
}

// ---- A small cluster as discovery documents ----

const API_VERSIONS: &str =
    r#"{"kind": "APIVersions", "versions": ["v1"], "serverAddressByClientCIDRs": []}"#;

const API_GROUP_LIST: &str = r#"{"kind": "APIGroupList", "apiVersion": "v1", "groups": [
  {"name": "apps", "versions": [
     {"groupVersion": "apps/v1", "version": "v1"},
     {"groupVersion": "apps/v1beta1", "version": "v1beta1"}],
   "preferredVersion": {"groupVersion": "apps/v1", "version": "v1"}},
  {"name": "storage.k8s.io", "versions": [{"groupVersion": "storage.k8s.io/v1", "version": "v1"}],
   "preferredVersion": {"groupVersion": "storage.k8s.io/v1", "version": "v1"}},
  {"name": "metrics.k8s.io", "versions": [{"groupVersion": "metrics.k8s.io/v1beta1", "version": "v1beta1"}],
   "preferredVersion": {"groupVersion": "metrics.k8s.io/v1beta1", "version": "v1beta1"}}
]}"#;

const RESOURCE_LISTS: [&str; 5] = [
    r#"{"kind": "APIResourceList", "groupVersion": "v1", "resources": [
      {"name": "pods", "singularName": "pod", "namespaced": true, "kind": "Pod", "verbs": ["get", "list"], "shortNames": ["po"], "categories": ["all"]},
      {"name": "pods/log", "singularName": "", "namespaced": true, "kind": "Pod", "verbs": ["get"]},
      {"name": "endpoints", "singularName": "endpoints", "namespaced": true, "kind": "Endpoints", "verbs": ["get"], "shortNames": ["ep"]},
      {"name": "nodes", "singularName": "", "namespaced": false, "kind": "Node", "verbs": ["get"], "shortNames": ["no"]}
    ]}"#,
    r#"{"kind": "APIResourceList", "groupVersion": "apps/v1", "resources": [
      {"name": "deployments", "singularName": "deployment", "namespaced": true, "kind": "Deployment", "verbs": ["get"], "shortNames": ["deploy"], "categories": ["all"]},
      {"name": "deployments/scale", "singularName": "", "namespaced": true, "group": "autoscaling", "version": "v1", "kind": "Scale", "verbs": ["get"]}
    ]}"#,
    r#"{"kind": "APIResourceList", "groupVersion": "apps/v1beta1", "resources": [
      {"name": "deployments", "singularName": "deployment", "namespaced": true, "kind": "Deployment", "verbs": ["get"], "shortNames": ["deploy"], "categories": ["all"]},
      {"name": "statefulsets", "singularName": "statefulset", "namespaced": true, "kind": "StatefulSet", "verbs": ["get"], "shortNames": ["sts"]}
    ]}"#,
    r#"{"kind": "APIResourceList", "groupVersion": "storage.k8s.io/v1", "resources": [
      {"name": "storageclasses", "singularName": "storageclass", "namespaced": false, "kind": "StorageClass", "verbs": ["get"], "shortNames": ["sc"]}
    ]}"#,
    r#"{"kind": "APIResourceList", "groupVersion": "metrics.k8s.io/v1beta1", "resources": [
      {"name": "pods", "singularName": "", "namespaced": true, "kind": "PodMetrics", "verbs": ["get"]}
    ]}"#,
];

const AGGREGATED_API: &str = r#"{"kind": "APIGroupDiscoveryList", "apiVersion": "apidiscovery.k8s.io/v2", "metadata": {}, "items": [
  {"metadata": {"creationTimestamp": null}, "versions": [{"version": "v1", "freshness": "Current", "resources": [
    {"resource": "pods", "responseKind": {"group": "", "version": "v1", "kind": "Pod"}, "scope": "Namespaced", "singularResource": "pod", "verbs": ["get", "list"], "shortNames": ["po"], "categories": ["all"],
     "subresources": [{"subresource": "log", "responseKind": {"group": "", "version": "v1", "kind": "Pod"}, "verbs": ["get"]}]},
    {"resource": "endpoints", "responseKind": {"group": "", "version": "v1", "kind": "Endpoints"}, "scope": "Namespaced", "singularResource": "endpoints", "verbs": ["get"], "shortNames": ["ep"]},
    {"resource": "nodes", "responseKind": {"group": "", "version": "v1", "kind": "Node"}, "scope": "Cluster", "singularResource": "", "verbs": ["get"], "shortNames": ["no"]}
  ]}]}
]}"#;

const AGGREGATED_APIS: &str = r#"{"kind": "APIGroupDiscoveryList", "apiVersion": "apidiscovery.k8s.io/v2", "metadata": {}, "items": [
  {"metadata": {"name": "apps"}, "versions": [
    {"version": "v1", "freshness": "Current", "resources": [
      {"resource": "deployments", "responseKind": {"group": "apps", "version": "v1", "kind": "Deployment"}, "scope": "Namespaced", "singularResource": "deployment", "verbs": ["get"], "shortNames": ["deploy"], "categories": ["all"],
       "subresources": [{"subresource": "scale", "responseKind": {"group": "autoscaling", "version": "v1", "kind": "Scale"}, "verbs": ["get"]}]}
    ]},
    {"version": "v1beta1", "freshness": "Current", "resources": [
      {"resource": "deployments", "responseKind": {"group": "apps", "version": "v1beta1", "kind": "Deployment"}, "scope": "Namespaced", "singularResource": "deployment", "verbs": ["get"], "shortNames": ["deploy"], "categories": ["all"]},
      {"resource": "statefulsets", "responseKind": {"group": "apps", "version": "v1beta1", "kind": "StatefulSet"}, "scope": "Namespaced", "singularResource": "statefulset", "verbs": ["get"], "shortNames": ["sts"]}
    ]},
    {"version": "v2", "freshness": "Stale"}
  ]},
  {"metadata": {"name": "storage.k8s.io"}, "versions": [{"version": "v1", "resources": [
    {"resource": "storageclasses", "responseKind": {"group": "storage.k8s.io", "version": "v1", "kind": "StorageClass"}, "scope": "Cluster", "singularResource": "storageclass", "verbs": ["get"], "shortNames": ["sc"]}
  ]}]},
  {"metadata": {"name": "metrics.k8s.io"}, "versions": [{"version": "v1beta1", "resources": [
    {"resource": "pods", "responseKind": {"group": "metrics.k8s.io", "version": "v1beta1", "kind": "PodMetrics"}, "scope": "Namespaced", "singularResource": "", "verbs": ["get"]}
  ]}]}
]}"#;

fn legacy_mapper() -> DiscoveryRESTMapper {
    let versions: APIVersions = serde_json::from_str(API_VERSIONS).unwrap();
    let mut groups: APIGroupList = serde_json::from_str(API_GROUP_LIST).unwrap();
    groups
        .groups
        .get_or_insert_with(Vec::new)
        .insert(0, api_versions_to_api_group(&versions));
    let lists: Vec<APIResourceList> = RESOURCE_LISTS
        .iter()
        .map(|doc| serde_json::from_str(doc).unwrap())
        .collect();
    DiscoveryRESTMapper::from_discovery(&groups, &lists)
}

fn aggregated_mapper() -> DiscoveryRESTMapper {
    DiscoveryRESTMapper::from_aggregated_discovery(&[AGGREGATED_API, AGGREGATED_APIS]).unwrap()
}

fn check_small_cluster(mapper: &DiscoveryRESTMapper) {
    let apps_v1 = GroupVersion::new("apps", "v1");
    let apps_v1beta1 = GroupVersion::new("apps", "v1beta1");
    // Short names, singular names and plural names.
    for name in ["deploy", "deployment", "deployments", "Deployments"] {
        assert_eq!(
            mapper.resource_for(&gvr("", "", name)).unwrap(),
            apps_v1.with_resource("deployments"),
            "{name}"
        );
    }
    assert_eq!(
        mapper.kind_for(&gvr("", "", "po")).unwrap(),
        gvk("", "v1", "Pod")
    );
    assert_eq!(
        mapper.kind_for(&gvr("", "", "ep")).unwrap(),
        gvk("", "v1", "Endpoints")
    );
    assert_eq!(
        mapper.kind_for(&gvr("", "", "sts")).unwrap(),
        apps_v1beta1.with_kind("StatefulSet")
    );
    // The group prefix, with a short name.
    assert_eq!(
        mapper.resource_for(&gvr("storage", "", "sc")).unwrap(),
        gvr("storage.k8s.io", "v1", "storageclasses")
    );
    assert_eq!(
        mapper
            .resource_for(&gvr("storage", "", "storageclass"))
            .unwrap(),
        gvr("storage.k8s.io", "v1", "storageclasses")
    );
    // A guessed singular for a server that lists none.
    assert_eq!(
        mapper.kind_for(&gvr("", "", "node")).unwrap(),
        gvk("", "v1", "Node")
    );
    // The core group wins over another group's `pods`, which stays reachable.
    assert_eq!(
        mapper.kind_for(&gvr("", "", "pods")).unwrap(),
        gvk("", "v1", "Pod")
    );
    assert_eq!(
        mapper.kind_for(&gvr("metrics.k8s.io", "", "pods")).unwrap(),
        gvk("metrics.k8s.io", "v1beta1", "PodMetrics")
    );
    assert_eq!(mapper.kinds_for(&gvr("", "", "pods")).unwrap().len(), 2);
    // The preferred version wins; another is reachable by name.
    assert_eq!(
        mapper
            .resource_for(&gvr("", "v1beta1", "deployments"))
            .unwrap(),
        apps_v1beta1.with_resource("deployments")
    );
    let deployment = GroupKind::new("apps", "Deployment");
    let m = mapper.rest_mapping(&deployment, &[]).unwrap();
    assert_eq!(
        (m.resource, m.scope),
        (apps_v1.with_resource("deployments"), RESTScope::NAMESPACE)
    );
    let m = mapper.rest_mapping(&deployment, &["v1beta1"]).unwrap();
    assert_eq!(m.group_version_kind, apps_v1beta1.with_kind("Deployment"));
    let all: Vec<GroupVersionKind> = mapper
        .rest_mappings(&deployment, &[])
        .unwrap()
        .into_iter()
        .map(|m| m.group_version_kind)
        .collect();
    assert_eq!(
        all,
        vec![
            apps_v1.with_kind("Deployment"),
            apps_v1beta1.with_kind("Deployment")
        ]
    );
    assert_eq!(
        mapper
            .rest_mapping(&GroupKind::new("", "Node"), &[])
            .unwrap()
            .scope,
        RESTScope::ROOT
    );
    // The lower-case kind, the guessed list kinds and `List` map too.
    assert_eq!(
        mapper
            .rest_mapping(&GroupKind::new("apps", "deployment"), &[])
            .unwrap()
            .resource,
        apps_v1.with_resource("deployments")
    );
    assert_eq!(
        mapper
            .rest_mapping(&GroupKind::new("apps", "DeploymentList"), &[])
            .unwrap()
            .resource,
        apps_v1.with_resource("deploymentlists")
    );
    assert_eq!(
        mapper
            .rest_mapping(&GroupKind::new("", "List"), &[])
            .unwrap()
            .scope,
        RESTScope::ROOT
    );
    // Subresources have no mapping; stale versions are not served.
    assert!(
        mapper
            .resource_for(&gvr("", "", "deployments/scale"))
            .unwrap_err()
            .is_no_match()
    );
    assert!(
        mapper
            .resource_for(&gvr("", "", "pods/log"))
            .unwrap_err()
            .is_no_match()
    );
    assert!(
        mapper
            .rest_mapping(&GroupKind::new("autoscaling", "Scale"), &[])
            .unwrap_err()
            .is_no_match()
    );
    assert!(
        mapper
            .rest_mapping(&deployment, &["v2"])
            .unwrap_err()
            .is_no_match()
    );
    // Singulars, through short names too.
    assert_eq!(
        mapper.resource_singularizer("deploy").unwrap(),
        "deployment"
    );
    assert_eq!(mapper.resource_singularizer("pods").unwrap(), "pod");
    // Categories, in discovery order, each resource once.
    assert_eq!(
        mapper.resources_for_category("all"),
        Some(
            &[
                GroupResource::new("", "pods"),
                GroupResource::new("apps", "deployments")
            ][..]
        )
    );
    assert_eq!(mapper.resources_for_category("nope"), None);
    // Bad input.
    let err = mapper.kind_for(&gvr("", "", "")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "a resource must be present, got: /, Resource="
    );
    let err = mapper.kind_for(&gvr("", "", "unknowns")).unwrap_err();
    assert_eq!(err.to_string(), "no matches for /, Resource=unknowns");
    let err = mapper
        .rest_mapping(&GroupKind::new("apps", "Nope"), &["v1"])
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"no matches for kind "Nope" in version "apps/v1""#
    );
}

#[test]
fn a_mapper_from_legacy_discovery_documents() {
    check_small_cluster(&legacy_mapper());
}

#[test]
fn a_mapper_from_aggregated_discovery_documents() {
    check_small_cluster(&aggregated_mapper());
}

#[test]
fn both_forms_of_discovery_give_the_same_answers() {
    let (legacy, aggregated) = (legacy_mapper(), aggregated_mapper());
    let render =
        |r: Result<Vec<GroupVersionResource>, RESTMapperError>| r.map_err(|e| e.to_string());
    for name in [
        "pods",
        "po",
        "deploy",
        "deployments",
        "sts",
        "sc",
        "nodes",
        "node",
        "x",
        "",
        "ep",
        "List",
    ] {
        for (group, version) in [
            ("", ""),
            ("apps", ""),
            ("", "v1"),
            ("metrics.k8s.io", ""),
            ("storage", ""),
        ] {
            let q = gvr(group, version, name);
            assert_eq!(
                render(legacy.resources_for(&q)),
                render(aggregated.resources_for(&q)),
                "{q}"
            );
            assert_eq!(
                legacy.kind_for(&q).map_err(|e| e.to_string()),
                aggregated.kind_for(&q).map_err(|e| e.to_string()),
                "{q}"
            );
        }
    }
    assert_eq!(
        legacy.shortcuts().shortcuts(),
        aggregated.shortcuts().shortcuts()
    );
}

#[test]
fn the_index_answers_as_gos_union_does() {
    let mut groups = go_test_groups();
    let versions: APIVersions = serde_json::from_str(API_VERSIONS).unwrap();
    let mut list: APIGroupList = serde_json::from_str(API_GROUP_LIST).unwrap();
    list.groups
        .get_or_insert_with(Vec::new)
        .insert(0, api_versions_to_api_group(&versions));
    let lists: Vec<APIResourceList> = RESOURCE_LISTS
        .iter()
        .map(|d| serde_json::from_str(d).unwrap())
        .collect();
    groups.extend(APIGroupResources::from_discovery(&list, &lists));

    let indexed = DiscoveryRESTMapper::new(&groups);
    let parts = Parts::new(&groups);
    let plain = PriorityRESTMapper::new(
        parts
            .mappers
            .into_iter()
            .map(|m| Box::new(m) as Box<dyn RESTMapper>)
            .collect::<MultiRESTMapper>(),
        parts.resource_priority,
        parts.kind_priority,
    );
    let indexed = indexed.without_shortcuts();
    let names = [
        "pods",
        "Pods",
        "pod",
        "jobs",
        "peas",
        "pea",
        "broccoli",
        "deployments",
        "deployment",
        "deploymentlists",
        "lists",
        "list",
        "endpoints",
        "nodes",
        "node",
        "storageclasses",
        "none",
        "NONE",
        "",
    ];
    let groups_and_versions = [
        ("", ""),
        ("", "v1"),
        ("", "v2"),
        ("", "v1beta1"),
        ("", API_VERSION),
        ("apps", ""),
        ("app", ""),
        ("extensions", "v1beta"),
        ("metrics.k8s.io", "v1beta1"),
        ("unpreferred", ""),
    ];
    let s = |r: Result<String, RESTMapperError>| r.map_err(|e| e.to_string());
    for name in names {
        for (group, version) in groups_and_versions {
            let q = gvr(group, version, name);
            assert_eq!(
                indexed.resources_for(&q).map_err(|e| e.to_string()),
                plain.resources_for(&q).map_err(|e| e.to_string()),
                "{q}"
            );
            assert_eq!(
                indexed.kinds_for(&q).map_err(|e| e.to_string()),
                plain.kinds_for(&q).map_err(|e| e.to_string()),
                "{q}"
            );
            assert_eq!(
                indexed.resource_for(&q).map_err(|e| e.to_string()),
                plain.resource_for(&q).map_err(|e| e.to_string()),
                "{q}"
            );
            assert_eq!(
                indexed.kind_for(&q).map_err(|e| e.to_string()),
                plain.kind_for(&q).map_err(|e| e.to_string()),
                "{q}"
            );
        }
        assert_eq!(
            s(indexed.resource_singularizer(name)),
            s(plain.resource_singularizer(name)),
            "{name}"
        );
    }
    let kinds = [
        "Pod",
        "pod",
        "PodList",
        "List",
        "Deployment",
        "Job",
        "Pea",
        "Nope",
        "",
    ];
    for kind in kinds {
        for group in ["", "apps", "extensions", "unpreferred", "metrics.k8s.io"] {
            for versions in [
                &[][..],
                &["v1"],
                &["v2beta1", "v1"],
                &["", API_VERSION],
                &["v9"],
            ] {
                let gk = GroupKind::new(group, kind);
                assert_eq!(
                    indexed
                        .rest_mappings(&gk, versions)
                        .map_err(|e| e.to_string()),
                    plain
                        .rest_mappings(&gk, versions)
                        .map_err(|e| e.to_string()),
                    "{gk} {versions:?}"
                );
                assert_eq!(
                    indexed
                        .rest_mapping(&gk, versions)
                        .map_err(|e| e.to_string()),
                    plain.rest_mapping(&gk, versions).map_err(|e| e.to_string()),
                    "{gk} {versions:?}"
                );
            }
        }
    }
}

const API_VERSION: &str = crate::schema::API_VERSION_INTERNAL;

#[test]
fn an_empty_discovery_maps_nothing() {
    let mapper = DiscoveryRESTMapper::new(&[]);
    assert!(
        mapper
            .kind_for(&gvr("", "", "pods"))
            .unwrap_err()
            .is_no_match()
    );
    // With no group version at all, even an empty name is "no match", as in Go.
    assert!(mapper.kind_for(&gvr("", "", "")).unwrap_err().is_no_match());
    assert!(
        mapper
            .rest_mapping(&GroupKind::new("", "Pod"), &[])
            .unwrap_err()
            .is_no_match()
    );
    assert!(
        mapper
            .resource_singularizer("pods")
            .unwrap_err()
            .is_no_match()
    );
    assert_eq!(mapper.resources_for_category("all"), None);
}

#[test]
fn warnings_about_ambiguous_short_names_reach_the_handler() {
    let groups = vec![
        group(
            "",
            &["v1"],
            "v1",
            vec![(
                "v1",
                vec![APIResource {
                    short_names: vec!["ev".into()],
                    ..resource("events", "Event", true)
                }],
            )],
        ),
        group(
            "events.k8s.io",
            &["v1"],
            "v1",
            vec![(
                "v1",
                vec![APIResource {
                    short_names: vec!["ev".into()],
                    ..resource("events", "Event", true)
                }],
            )],
        ),
    ];
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = seen.clone();
    let mapper =
        DiscoveryRESTMapper::new(&groups).with_warning_handler(Arc::new(move |w: &str| {
            if let Ok(mut s) = sink.lock() {
                s.push(w.to_owned());
            }
        }));
    // "ev" is not a full name, so it expands, to the core group first.
    assert_eq!(
        mapper.expand_short_name(&gvr("", "", "ev")),
        gvr("", "", "events")
    );
    assert_eq!(
        *seen.lock().unwrap(),
        vec![
            r#"short name "ev" could also match lower priority resource events.events.k8s.io"#
                .to_owned()
        ]
    );
}

/// The short names and categories a Kubernetes 1.36 server reports, from the shared
/// reference data, expand as kubectl expands them.
#[test]
fn the_short_names_of_kubernetes_1_36_expand_as_kubectl_does() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/k8s-api/v1.36/discovery-extras.json");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("skipped: no reference data at {}", path.display());
        return;
    };
    let extras: serde_json::Value = serde_json::from_str(&text).unwrap();
    // "group/resource" keys, the core group first and then by name, as discovery orders.
    let mut keys: Vec<(&str, &str)> = extras["shortNames"]
        .as_object()
        .unwrap()
        .keys()
        .filter_map(|k| k.split_once('/'))
        .collect();
    keys.sort_by_key(|(g, r)| (!g.is_empty(), *g, *r));
    let mut groups: Vec<APIGroupResources> = Vec::new();
    for (g, r) in keys {
        let short_names = extras["shortNames"][format!("{g}/{r}")]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_owned())
            .collect();
        let categories = extras["categories"]
            .as_object()
            .unwrap()
            .iter()
            .filter(|(_, members)| {
                members
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|m| m == &format!("{g}/{r}"))
            })
            .map(|(c, _)| c.clone())
            .collect();
        let res = APIResource {
            short_names,
            categories,
            ..resource(r, "Guessed", true)
        };
        match groups.last_mut() {
            Some(last) if last.group.name == g => {
                last.versioned_resources.get_mut("v1").unwrap().push(res)
            }
            _ => groups.push(group(g, &["v1"], "v1", vec![("v1", vec![res])])),
        }
    }
    let mapper = DiscoveryRESTMapper::new(&groups);
    let expand = |r: &str| {
        mapper
            .expand_short_name(&gvr("", "", r))
            .group_resource()
            .to_string()
    };
    assert_eq!(expand("deploy"), "deployments.apps");
    assert_eq!(expand("po"), "pods");
    assert_eq!(expand("svc"), "services");
    assert_eq!(expand("sc"), "storageclasses.storage.k8s.io");
    assert_eq!(
        expand("crds"),
        "customresourcedefinitions.apiextensions.k8s.io"
    );
    assert_eq!(expand("hpa"), "horizontalpodautoscalers.autoscaling");
    assert_eq!(expand("ev"), "events");
    assert_eq!(
        mapper
            .expand_short_name(&gvr("events.k8s.io", "", "ev"))
            .group_resource()
            .to_string(),
        "events.events.k8s.io"
    );
    assert_eq!(expand("pods"), "pods");
    assert_eq!(expand("unknown"), "unknown");
    assert_eq!(
        mapper.resource_for(&gvr("", "", "netpol")).unwrap(),
        gvr("networking.k8s.io", "v1", "networkpolicies")
    );
    // Every resource of `all` that has a short name is in the category.
    let all: Vec<String> = mapper
        .resources_for_category("all")
        .unwrap_or(&[])
        .iter()
        .map(|gr| format!("{}/{}", gr.group, gr.resource))
        .collect();
    for member in extras["categories"]["all"].as_array().unwrap() {
        let member = member.as_str().unwrap();
        if extras["shortNames"].get(member).is_some() {
            assert!(all.iter().any(|m| m == member), "{member} not in {all:?}");
        }
    }
    assert!(all.iter().any(|m| m == "apps/deployments"), "{all:?}");
}
