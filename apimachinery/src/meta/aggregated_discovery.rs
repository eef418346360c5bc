//! Reading the aggregated discovery document (`apidiscovery.k8s.io/v2`
//! `APIGroupDiscoveryList`) into the per-group form the discovery mapper is built from.
//!
//! The serde types are private: only the fields the mapper needs are read, with the JSON
//! names of Go's `k8s.io/api/apidiscovery/v2` types; unknown fields are ignored and `null`
//! reads as empty, as Go's decoder does.

use serde::{Deserialize, Deserializer};

use super::APIGroupResources;
use crate::apis::meta::v1::{APIGroup, APIResource, GroupVersionForDiscovery};
use crate::schema::GroupVersion;

/// The kind of the aggregated discovery document.
const LIST_KIND: &str = "APIGroupDiscoveryList";
/// The API versions of it this reader understands (the fields it reads are the same).
const API_VERSIONS: &[&str] = &["apidiscovery.k8s.io/v2", "apidiscovery.k8s.io/v2beta1"];

/// An aggregated discovery document that could not be read.
#[derive(Debug, thiserror::Error)]
pub enum AggregatedDiscoveryError {
    /// The document is not JSON of the expected shape.
    #[error("aggregated discovery document {index}: {source}")]
    Json {
        /// The position of the document in the list given.
        index: usize,
        /// What the JSON reader found.
        #[source]
        source: serde_json::Error,
    },
    /// The document is another kind of document, such as a legacy `APIGroupList`.
    #[error(
        "aggregated discovery document {index}: expected kind {LIST_KIND:?} of apidiscovery.k8s.io/v2, got kind {kind:?} of {api_version:?}"
    )]
    WrongKind {
        /// The position of the document in the list given.
        index: usize,
        /// The document's `kind`.
        kind: String,
        /// The document's `apiVersion`.
        api_version: String,
    },
}

fn nullable<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Ok(Option::<T>::deserialize(deserializer)?.unwrap_or_default())
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct APIGroupDiscoveryList {
    #[serde(default, deserialize_with = "nullable")]
    kind: String,
    #[serde(default, deserialize_with = "nullable")]
    api_version: String,
    #[serde(default, deserialize_with = "nullable")]
    items: Vec<APIGroupDiscovery>,
}

#[derive(Deserialize)]
struct APIGroupDiscovery {
    #[serde(default, deserialize_with = "nullable")]
    metadata: ObjectMeta,
    #[serde(default, deserialize_with = "nullable")]
    versions: Vec<APIVersionDiscovery>,
}

#[derive(Deserialize, Default)]
struct ObjectMeta {
    #[serde(default, deserialize_with = "nullable")]
    name: String,
}

#[derive(Deserialize)]
struct APIVersionDiscovery {
    #[serde(default, deserialize_with = "nullable")]
    version: String,
    #[serde(default, deserialize_with = "nullable")]
    resources: Vec<APIResourceDiscovery>,
    #[serde(default, deserialize_with = "nullable")]
    freshness: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct APIResourceDiscovery {
    #[serde(default, deserialize_with = "nullable")]
    resource: String,
    #[serde(default)]
    response_kind: Option<GroupVersionKind>,
    #[serde(default, deserialize_with = "nullable")]
    scope: String,
    #[serde(default, deserialize_with = "nullable")]
    singular_resource: String,
    /// Kept nil (`None`) when absent or `null`, as Go's `[]string` is, for the
    /// `APIResource` made from it.
    #[serde(default)]
    verbs: Option<Vec<String>>,
    #[serde(default, deserialize_with = "nullable")]
    short_names: Vec<String>,
    #[serde(default, deserialize_with = "nullable")]
    categories: Vec<String>,
    #[serde(default, deserialize_with = "nullable")]
    subresources: Vec<APISubresourceDiscovery>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct APISubresourceDiscovery {
    #[serde(default, deserialize_with = "nullable")]
    subresource: String,
    #[serde(default)]
    response_kind: Option<GroupVersionKind>,
    /// Kept nil (`None`) when absent or `null`, as Go's `[]string` is, for the
    /// `APIResource` made from it.
    #[serde(default)]
    verbs: Option<Vec<String>>,
}

/// `meta/v1` `GroupVersionKind` as JSON: lower-case field names.
#[derive(Deserialize, Default, PartialEq, Eq)]
struct GroupVersionKind {
    #[serde(default, deserialize_with = "nullable")]
    group: String,
    #[serde(default, deserialize_with = "nullable")]
    version: String,
    #[serde(default, deserialize_with = "nullable")]
    kind: String,
}

impl GroupVersionKind {
    fn present(kind: &Option<GroupVersionKind>) -> Option<&GroupVersionKind> {
        kind.as_ref().filter(|k| **k != GroupVersionKind::default())
    }
}

/// Reads aggregated discovery documents (typically `/api`, then `/apis`) into groups with
/// their resources by version, as client-go's `SplitGroupsAndResources` does:
///
/// * versions marked `Stale` are left out; the first other version is the preferred one;
/// * a resource without a response kind is left out, but its subresources are kept;
/// * subresources become `resource/subresource` entries carrying their own kind.
pub(crate) fn parse_aggregated_discovery(
    documents: &[&str],
) -> Result<Vec<APIGroupResources>, AggregatedDiscoveryError> {
    let mut groups = Vec::new();
    for (index, document) in documents.iter().enumerate() {
        let list: APIGroupDiscoveryList = serde_json::from_str(document)
            .map_err(|source| AggregatedDiscoveryError::Json { index, source })?;
        let kind_ok = list.kind.is_empty() || list.kind == LIST_KIND;
        let version_ok =
            list.api_version.is_empty() || API_VERSIONS.contains(&list.api_version.as_str());
        if !kind_ok || !version_ok {
            return Err(AggregatedDiscoveryError::WrongKind {
                index,
                kind: list.kind,
                api_version: list.api_version,
            });
        }
        groups.extend(list.items.into_iter().map(convert_group));
    }
    Ok(groups)
}

fn convert_group(group: APIGroupDiscovery) -> APIGroupResources {
    let name = group.metadata.name;
    let mut out = APIGroupResources {
        group: APIGroup {
            name: name.clone(),
            ..Default::default()
        },
        ..Default::default()
    };
    for version in group.versions {
        if version.freshness == "Stale" {
            continue;
        }
        let gv = GroupVersion::new(name.as_str(), version.version.as_str());
        let for_discovery = GroupVersionForDiscovery {
            group_version: gv.to_string(),
            version: version.version.clone(),
        };
        if out.group.preferred_version == GroupVersionForDiscovery::default() {
            out.group.preferred_version = for_discovery.clone();
        }
        out.group
            .versions
            .get_or_insert_with(Vec::new)
            .push(for_discovery);
        let mut resources = Vec::new();
        for r in version.resources {
            let parent = APIResource {
                name: r.resource,
                singular_name: r.singular_resource,
                namespaced: r.scope == "Namespaced",
                verbs: r.verbs,
                short_names: r.short_names,
                categories: r.categories,
                ..Default::default()
            };
            let parent = match GroupVersionKind::present(&r.response_kind) {
                Some(kind) => {
                    let parent = APIResource {
                        group: kind.group.clone(),
                        version: kind.version.clone(),
                        kind: kind.kind.clone(),
                        ..parent
                    };
                    resources.push(parent.clone());
                    parent
                }
                None => parent,
            };
            for sub in r.subresources {
                let Some(kind) = GroupVersionKind::present(&sub.response_kind) else {
                    continue;
                };
                resources.push(APIResource {
                    name: format!("{}/{}", parent.name, sub.subresource),
                    singular_name: parent.singular_name.clone(),
                    namespaced: parent.namespaced,
                    group: kind.group.clone(),
                    version: kind.version.clone(),
                    kind: kind.kind.clone(),
                    verbs: sub.verbs,
                    ..Default::default()
                });
            }
        }
        out.versioned_resources.insert(version.version, resources);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_groups_versions_resources_and_subresources() {
        let doc = r#"{
          "kind": "APIGroupDiscoveryList", "apiVersion": "apidiscovery.k8s.io/v2",
          "metadata": {},
          "items": [{
            "metadata": {"name": "apps", "creationTimestamp": null},
            "versions": [
              {"version": "v2", "freshness": "Stale", "resources": [
                {"resource": "gone", "responseKind": {"group": "apps", "version": "v2", "kind": "Gone"}, "scope": "Cluster", "singularResource": "gone", "verbs": null}
              ]},
              {"version": "v1", "freshness": "Current", "resources": [
                {"resource": "deployments",
                 "responseKind": {"group": "apps", "version": "v1", "kind": "Deployment"},
                 "scope": "Namespaced", "singularResource": "deployment",
                 "verbs": ["get", "list"], "shortNames": ["deploy"], "categories": ["all"],
                 "subresources": [
                   {"subresource": "scale", "responseKind": {"group": "autoscaling", "version": "v1", "kind": "Scale"}, "verbs": ["get"]},
                   {"subresource": "status", "responseKind": {}, "verbs": ["get"]}
                 ]},
                {"resource": "parentless", "scope": "Namespaced", "singularResource": "",
                 "verbs": [], "subresources": [
                   {"subresource": "child", "responseKind": {"group": "", "version": "v1", "kind": "Child"}, "verbs": ["get"]}
                 ]}
              ]},
              {"version": "v1beta1", "resources": null}
            ]
          }]
        }"#;
        let groups = parse_aggregated_discovery(&[doc]).unwrap();
        assert_eq!(groups.len(), 1);
        let apps = &groups[0];
        assert_eq!(apps.group.name, "apps");
        assert_eq!(apps.group.preferred_version.group_version, "apps/v1");
        let versions: Vec<&str> = apps
            .group
            .versions
            .iter()
            .flatten()
            .map(|v| v.version.as_str())
            .collect();
        assert_eq!(versions, ["v1", "v1beta1"]);
        assert!(!apps.versioned_resources.contains_key("v2"));
        assert_eq!(apps.versioned_resources["v1beta1"], vec![]);
        let names: Vec<&str> = apps.versioned_resources["v1"]
            .iter()
            .map(|r| r.name.as_str())
            .collect();
        assert_eq!(
            names,
            ["deployments", "deployments/scale", "parentless/child"]
        );
        let deployments = &apps.versioned_resources["v1"][0];
        assert_eq!(deployments.kind, "Deployment");
        assert!(deployments.namespaced);
        assert_eq!(deployments.short_names, ["deploy"]);
        assert_eq!(apps.versioned_resources["v1"][1].kind, "Scale");
        assert_eq!(
            apps.versioned_resources["v1"][1].singular_name,
            "deployment"
        );
    }

    #[test]
    fn other_documents_are_refused_with_their_position() {
        let legacy = r#"{"kind": "APIGroupList", "apiVersion": "v1", "groups": []}"#;
        let err = parse_aggregated_discovery(&[r#"{"items": []}"#, legacy]).unwrap_err();
        assert_eq!(
            err.to_string(),
            r#"aggregated discovery document 1: expected kind "APIGroupDiscoveryList" of apidiscovery.k8s.io/v2, got kind "APIGroupList" of "v1""#
        );
        let err = parse_aggregated_discovery(&["{\"items\": 3}"]).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("aggregated discovery document 0: invalid type"),
            "{err}"
        );
        assert!(parse_aggregated_discovery(&["not json"]).is_err());
        assert!(parse_aggregated_discovery(&[]).unwrap().is_empty());
    }
}
