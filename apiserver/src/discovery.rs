//! Discovery documents (Go's `endpoints/discovery` and `endpoints/discovery/aggregated`):
//! `/api`, `/apis`, `/apis/{group}`, the legacy `APIResourceList` of each group version,
//! and the aggregated `apidiscovery.k8s.io/v2` `APIGroupDiscoveryList` that client-go
//! asks for first. Built once from the served resources; every request is a lookup.

use std::collections::{BTreeMap, BTreeSet};

use apimachinery::meta::APIGroupResources;
use apimachinery::runtime::Scheme;
use apimachinery::schema::GroupVersionKind;
use base64::Engine as _;
use base64::prelude::BASE64_STANDARD;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::registry::ResourceInfo;

/// The media type of aggregated discovery, as client-go asks for it and checks the
/// answer's `Content-Type` against.
pub const AGGREGATED_CONTENT_TYPE: &str =
    "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";

/// The verbs of `/status` and `/scale` subresources.
const SUBRESOURCE_VERBS: [&str; 3] = ["get", "patch", "update"];

/// Every discovery document of a server, pre-rendered.
#[derive(Debug, Default)]
pub struct Discovery {
    /// `/api`.
    pub core_versions: Value,
    /// `/apis`.
    pub groups: Value,
    /// `/apis/{group}`.
    pub group: BTreeMap<String, Value>,
    /// `/api/v1` and `/apis/{group}/{version}`, by group version (`v1`, `apps/v1`).
    pub resource_lists: BTreeMap<String, Value>,
    /// Aggregated discovery of `/api`.
    pub aggregated_core: Value,
    /// Aggregated discovery of `/apis`.
    pub aggregated_groups: Value,
}

/// The priority kube-apiserver's aggregator gives each built-in group in discovery
/// (`GroupPriorityMinimum` of the local APIServices: Go's `apiVersionPriorities`, the
/// generic control plane's merged with kube-apiserver's own), highest first.
/// `apiregistration.k8s.io` is the aggregator's own group, which its `/apis` lists
/// before all others; a group not listed comes after these, before custom resources.
const GROUP_PRIORITIES: &[(&str, i32)] = &[
    ("", 18000),
    ("apiregistration.k8s.io", 18000),
    ("apps", 17800),
    ("events.k8s.io", 17750),
    ("authentication.k8s.io", 17700),
    ("authorization.k8s.io", 17600),
    ("autoscaling", 17500),
    ("batch", 17400),
    ("certificates.k8s.io", 17300),
    ("networking.k8s.io", 17200),
    ("policy", 17100),
    ("rbac.authorization.k8s.io", 17000),
    ("storage.k8s.io", 16800),
    ("admissionregistration.k8s.io", 16700),
    ("apiextensions.k8s.io", 16700),
    ("scheduling.k8s.io", 16600),
    ("coordination.k8s.io", 16500),
    ("node.k8s.io", 16300),
    ("discovery.k8s.io", 16200),
    ("resource.k8s.io", 16200),
    ("flowcontrol.apiserver.k8s.io", 16100),
    ("internal.apiserver.k8s.io", 16000),
    ("storagemigration.k8s.io", 15800),
    // New in Kubernetes 1.37 (`v1alpha1`).
    #[cfg(feature = "v1_37")]
    ("lifecycle.k8s.io", 15700),
];

/// A built-in group's place in discovery: its priority, highest first, then its name.
fn group_rank(group: &str) -> (std::cmp::Reverse<i32>, &str) {
    let priority = GROUP_PRIORITIES
        .iter()
        .find(|(g, _)| *g == group)
        .map_or(0, |(_, p)| *p);
    (std::cmp::Reverse(priority), group)
}

/// The groups in discovery order, with their versions (most preferred first): the
/// scheme's groups in kube-apiserver's priority order (see `GROUP_PRIORITIES`), then
/// the groups only `resources` serve (custom resources), by name, their versions in the
/// order their resources list them (Go ranks custom resource groups after the built-in
/// ones).
pub fn group_order(
    scheme: &Scheme,
    resources: &BTreeMap<(String, String), ResourceInfo>,
) -> Vec<(String, Vec<String>)> {
    let mut order: Vec<(String, Vec<String>)> = APIGroupResources::from_scheme(scheme)
        .into_iter()
        .map(|g| {
            let versions = g
                .group
                .versions
                .iter()
                .flatten()
                .map(|v| v.version.clone())
                .collect();
            (g.group.name, versions)
        })
        .collect();
    order.sort_by(|a, b| group_rank(&a.0).cmp(&group_rank(&b.0)));
    let builtin = order.len();
    for r in resources.values() {
        let i = match order.iter().position(|(g, _)| *g == r.group) {
            Some(i) => i,
            None => {
                order.push((r.group.clone(), Vec::new()));
                order.len() - 1
            }
        };
        for v in &r.versions {
            if !order[i].1.contains(v) {
                order[i].1.push(v.clone());
            }
        }
    }
    order[builtin..].sort_by(|a, b| a.0.cmp(&b.0));
    for (_, versions) in &mut order[builtin..] {
        versions.sort_by(|a, b| apimachinery::version::compare_kube_aware_versions(a, b));
    }
    order
}

/// Go's `discovery.StorageVersionHash`: the first 8 bytes of the SHA-256 of
/// `group/version/kind` (of the storage version), in standard base64. Computed once, when
/// the discovery documents are built.
pub fn storage_version_hash(gvk: &GroupVersionKind) -> String {
    let text = format!("{}/{}/{}", gvk.group, gvk.version, gvk.kind);
    let digest = Sha256::digest(text.as_bytes());
    BASE64_STANDARD.encode(&digest[..8])
}

fn group_version(group: &str, version: &str) -> String {
    if group.is_empty() {
        version.to_owned()
    } else {
        format!("{group}/{version}")
    }
}

impl Discovery {
    /// The documents of a server serving the built-in `resources`, telling clients it
    /// is at `address`.
    pub fn new(
        scheme: &Scheme,
        resources: &BTreeMap<(String, String), ResourceInfo>,
        address: &str,
    ) -> Self {
        Discovery::with_group_order(
            &group_order(scheme, resources),
            resources,
            &BTreeSet::new(),
            address,
        )
    }

    /// The documents of a server serving `resources` in groups of `order` (each group
    /// with its versions, most preferred first), telling clients it is at `address`.
    /// `custom` names the `(group, resource)`s that are custom resources, whose
    /// aggregated discovery names their kinds' group and version in full, as
    /// apiextensions' does (Go's installer leaves them empty for built-in resources).
    pub fn with_group_order(
        order: &[(String, Vec<String>)],
        resources: &BTreeMap<(String, String), ResourceInfo>,
        custom: &BTreeSet<(String, String)>,
        address: &str,
    ) -> Self {
        let mut d = Discovery::default();
        let mut api_groups = Vec::new();
        let mut aggregated_groups = Vec::new();
        let mut aggregated_core = Vec::new();
        for (group, versions) in order {
            let mut gv_docs = Vec::new();
            let mut agg_versions = Vec::new();
            for version in versions {
                let served: Vec<&ResourceInfo> = resources
                    .values()
                    .filter(|r| r.group == *group && r.serves(version))
                    .collect();
                if served.is_empty() {
                    continue;
                }
                let gv = group_version(group, version);
                let mut list = Vec::new();
                let mut agg = Vec::new();
                for r in &served {
                    let own_kind = if custom.contains(&(r.group.clone(), r.resource.clone())) {
                        json!({"group": group, "version": version, "kind": r.kind})
                    } else {
                        json!({"group": "", "version": "", "kind": r.kind})
                    };
                    let mut entry = json!({
                        "name": r.resource,
                        "singularName": r.singular,
                        "namespaced": r.namespaced,
                        "kind": r.kind,
                        "verbs": r.verbs,
                    });
                    if !r.short_names.is_empty() {
                        entry["shortNames"] = json!(r.short_names);
                    }
                    if !r.categories.is_empty() {
                        entry["categories"] = json!(r.categories);
                    }
                    // Go's installer gives one to every resource its registry stores:
                    // not to the create-only reviews and bindings, nor to subresources,
                    // nor to componentstatuses (read-only: Go's REST probes the
                    // components instead of storing them).
                    if r.verbs.iter().any(|v| v == "create") && !r.is_create_only() {
                        entry["storageVersionHash"] = json!(storage_version_hash(&r.storage_gvk));
                    }
                    list.push(entry);
                    let mut subresources = Vec::new();
                    if r.has_scale_at(version) {
                        list.push(json!({
                            "name": format!("{}/scale", r.resource),
                            "singularName": "",
                            "namespaced": r.namespaced,
                            "group": "autoscaling",
                            "version": "v1",
                            "kind": "Scale",
                            "verbs": SUBRESOURCE_VERBS,
                        }));
                        subresources.push(json!({
                            "subresource": "scale",
                            "responseKind": {"group": "autoscaling", "version": "v1", "kind": "Scale"},
                            "verbs": SUBRESOURCE_VERBS,
                        }));
                    }
                    if r.has_status_at(version) {
                        list.push(json!({
                            "name": format!("{}/status", r.resource),
                            "singularName": "",
                            "namespaced": r.namespaced,
                            "kind": r.kind,
                            "verbs": SUBRESOURCE_VERBS,
                        }));
                        subresources.push(json!({
                            "subresource": "status",
                            "responseKind": own_kind,
                            "verbs": SUBRESOURCE_VERBS,
                        }));
                    }
                    for sub in &r.subresources {
                        let mut entry = json!({
                            "name": format!("{}/{}", r.resource, sub.name),
                            "singularName": "",
                            "namespaced": r.namespaced,
                            "kind": sub.kind,
                            "verbs": sub.verbs,
                        });
                        if !sub.group.is_empty() || !sub.version.is_empty() {
                            entry["group"] = json!(sub.group);
                            entry["version"] = json!(sub.version);
                        }
                        list.push(entry);
                        subresources.push(json!({
                            "subresource": sub.name,
                            "responseKind": {"group": sub.group, "version": sub.version, "kind": sub.kind},
                            "verbs": sub.verbs,
                        }));
                    }
                    // Go lists a resource's subresources by name.
                    subresources
                        .sort_by(|a, b| a["subresource"].as_str().cmp(&b["subresource"].as_str()));
                    let mut a = json!({
                        "resource": r.resource,
                        "responseKind": own_kind,
                        "scope": if r.namespaced { "Namespaced" } else { "Cluster" },
                        "singularResource": r.singular,
                        "verbs": r.verbs,
                    });
                    if !r.short_names.is_empty() {
                        a["shortNames"] = json!(r.short_names);
                    }
                    if !r.categories.is_empty() {
                        a["categories"] = json!(r.categories);
                    }
                    if !subresources.is_empty() {
                        a["subresources"] = json!(subresources);
                    }
                    agg.push(a);
                }
                // Go's installer serves a group version's resources in the order of
                // their paths: each resource followed by its subresources.
                list.sort_by(|a, b| a["name"].as_str().cmp(&b["name"].as_str()));
                let mut resource_list = json!({
                    "kind": "APIResourceList",
                    "apiVersion": "v1",
                    "groupVersion": gv,
                    "resources": list,
                });
                // The legacy `/api/v1` list is written without its apiVersion (Go's
                // legacy root leaves the list's TypeMeta apiVersion unset).
                if group.is_empty() {
                    if let Some(map) = resource_list.as_object_mut() {
                        map.remove("apiVersion");
                    }
                }
                d.resource_lists.insert(gv.clone(), resource_list);
                gv_docs.push(json!({"groupVersion": gv, "version": version}));
                agg_versions.push(json!({
                    "version": version,
                    "resources": agg,
                    "freshness": "Current",
                }));
            }
            let Some(preferred) = gv_docs.first().cloned() else {
                continue;
            };
            // The name alone (kube-apiserver 1.36 leaves out a zero creationTimestamp),
            // and none for the core group (Go's `omitempty`).
            let metadata = if group.is_empty() {
                json!({})
            } else {
                json!({"name": group})
            };
            let agg_group = json!({"metadata": metadata, "versions": agg_versions});
            if group.is_empty() {
                d.core_versions = json!({
                    "kind": "APIVersions",
                    "versions": versions.iter().filter(|v| d.resource_lists.contains_key(v.as_str())).collect::<Vec<_>>(),
                    "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": address}],
                });
                aggregated_core.push(agg_group);
            } else {
                let api_group = json!({
                    "name": group,
                    "versions": gv_docs,
                    "preferredVersion": preferred,
                });
                let mut single = api_group.clone();
                single["kind"] = json!("APIGroup");
                single["apiVersion"] = json!("v1");
                d.group.insert(group.clone(), single);
                api_groups.push(api_group);
                aggregated_groups.push(agg_group);
            }
        }
        d.groups = json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": api_groups});
        let list = |items: Vec<Value>| {
            json!({
                "kind": "APIGroupDiscoveryList",
                "apiVersion": "apidiscovery.k8s.io/v2",
                "metadata": {},
                "items": items,
            })
        };
        d.aggregated_core = list(aggregated_core);
        d.aggregated_groups = list(aggregated_groups);
        d
    }
}

/// Whether an `Accept` header asks for aggregated discovery (v2; client-go lists it
/// first, with the legacy document as the fallback).
pub fn wants_aggregated(accept: &str) -> bool {
    accept.split(',').any(|part| {
        let params: Vec<String> = part.split(';').map(|p| p.trim().replace(' ', "")).collect();
        params.iter().any(|p| p == "g=apidiscovery.k8s.io")
            && params.iter().any(|p| p == "v=v2")
            && params.iter().any(|p| p == "as=APIGroupDiscoveryList")
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn storage_version_hashes_are_kube_apiservers() {
        // As kube-apiserver v1.36.3 serves them in /apis/apps/v1 and /api/v1.
        let hash =
            |g: &str, v: &str, k: &str| storage_version_hash(&GroupVersionKind::new(g, v, k));
        assert_eq!(hash("apps", "v1", "Deployment"), "8aSe+NMegvE=");
        assert_eq!(hash("", "v1", "ConfigMap"), "qFsyl6wFWjQ=");
        // events.k8s.io's Events are stored as core v1 Events, and hashed as those.
        assert_eq!(hash("", "v1", "Event"), "r2yiGXH7wu8=");
    }

    fn info(group: &str, resource: &str, kind: &str) -> ResourceInfo {
        ResourceInfo {
            group: group.into(),
            resource: resource.into(),
            singular: String::new(),
            kind: kind.into(),
            list_kind: format!("{kind}List"),
            namespaced: true,
            short_names: Vec::new(),
            categories: Vec::new(),
            verbs: vec!["get".into()],
            versions: vec!["v1".into()],
            storage_gvk: GroupVersionKind::new(group, "v1", kind),
            key_prefix: format!("/registry/{resource}"),
            has_spec: true,
            has_status: true,
            has_scale: false,
            subresources: Vec::new(),
            subresources_not_served: Vec::new(),
        }
    }

    #[test]
    fn subresources_and_response_kinds_are_written_as_gos() {
        let mut pods = info("", "pods", "Pod");
        pods.subresources = vec![
            crate::registry::SubresourceInfo {
                name: "eviction",
                group: "policy",
                version: "v1",
                kind: "Eviction",
                verbs: &["create"],
            },
            crate::registry::SubresourceInfo {
                name: "binding",
                group: "",
                version: "",
                kind: "Binding",
                verbs: &["create"],
            },
        ];
        let widgets = info("example.com", "widgets", "Widget");
        let resources = BTreeMap::from([
            (("".to_owned(), "pods".to_owned()), pods),
            (("example.com".to_owned(), "widgets".to_owned()), widgets),
        ]);
        let custom = BTreeSet::from([("example.com".to_owned(), "widgets".to_owned())]);
        let order = [
            ("".to_owned(), vec!["v1".to_owned()]),
            ("example.com".to_owned(), vec!["v1".to_owned()]),
        ];
        let d = Discovery::with_group_order(&order, &resources, &custom, "127.0.0.1:6443");
        let names: Vec<&str> = d.resource_lists["v1"]["resources"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["name"].as_str().unwrap())
            .collect();
        assert_eq!(
            names,
            ["pods", "pods/binding", "pods/eviction", "pods/status"]
        );
        let eviction = &d.resource_lists["v1"]["resources"][2];
        assert_eq!(eviction["group"], "policy");
        assert_eq!(eviction["version"], "v1");
        assert!(
            d.resource_lists["v1"]["resources"][1]
                .get("group")
                .is_none()
        );

        let core = &d.aggregated_core["items"][0];
        assert_eq!(core["metadata"], json!({}));
        let pods = &core["versions"][0]["resources"][0];
        assert_eq!(
            pods["responseKind"],
            json!({"group": "", "version": "", "kind": "Pod"})
        );
        let subresources: Vec<(&str, &Value)> = pods["subresources"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| (s["subresource"].as_str().unwrap(), &s["responseKind"]))
            .collect();
        assert_eq!(
            subresources,
            [
                (
                    "binding",
                    &json!({"group": "", "version": "", "kind": "Binding"})
                ),
                (
                    "eviction",
                    &json!({"group": "policy", "version": "v1", "kind": "Eviction"})
                ),
                (
                    "status",
                    &json!({"group": "", "version": "", "kind": "Pod"})
                ),
            ]
        );
        // A custom resource's kinds are named in full, as apiextensions' discovery does.
        let widgets = &d.aggregated_groups["items"][0]["versions"][0]["resources"][0];
        assert_eq!(
            widgets["responseKind"],
            json!({"group": "example.com", "version": "v1", "kind": "Widget"})
        );
        assert_eq!(
            widgets["subresources"][0]["responseKind"],
            json!({"group": "example.com", "version": "v1", "kind": "Widget"})
        );
    }

    #[test]
    fn groups_rank_by_kube_apiservers_priorities_then_name() {
        let mut groups = vec![
            "zz.example.com",
            "apiextensions.k8s.io",
            "apps",
            "",
            "batch",
        ];
        groups.push("admissionregistration.k8s.io");
        groups.push("apiregistration.k8s.io");
        groups.sort_by(|a, b| group_rank(a).cmp(&group_rank(b)));
        assert_eq!(
            groups,
            [
                "",
                "apiregistration.k8s.io",
                "apps",
                "batch",
                "admissionregistration.k8s.io",
                "apiextensions.k8s.io",
                "zz.example.com",
            ]
        );
    }
}
