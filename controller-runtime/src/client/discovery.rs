//! client-go's discovery client, the part controllers that act on every resource need
//! (the namespace controller, the garbage collector): the resources the server serves,
//! each group's in its preferred version (Go's `ServerPreferredResources` and
//! `ServerPreferredNamespacedResources`), with the verbs each supports, custom resources
//! included. Read from the legacy per-version documents, which every server has.

use std::collections::{BTreeMap, HashSet};
use std::fmt;

use apimachinery::apis::meta::v1::{
    APIGroup, APIGroupList, APIResource, APIResourceList, APIVersions,
};
use apimachinery::meta::api_versions_to_api_group;
use apimachinery::schema::{GroupVersionResource, parse_group_version};
use http::Method;

use super::Error;
use crate::transport::{Outgoing, Transport};

/// Discovery of a server (Go's `discovery.DiscoveryClient`); from [`Client::discovery`](super::Client::discovery).
#[derive(Clone, Debug)]
pub struct DiscoveryClient {
    transport: Transport,
}

/// Some group versions' documents could not be read (Go's `ErrGroupDiscoveryFailed`);
/// what the others serve is still answered.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GroupDiscoveryFailed {
    /// Each failed group version (`metrics.k8s.io/v1beta1`) and why.
    pub groups: BTreeMap<String, String>,
}

impl fmt::Display for GroupDiscoveryFailed {
    /// Go's words, the groups sorted.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let groups: Vec<String> = self
            .groups
            .iter()
            .map(|(gv, e)| format!("{gv}: {e}"))
            .collect();
        write!(
            f,
            "unable to retrieve the complete list of server APIs: {}",
            groups.join(", ")
        )
    }
}

impl std::error::Error for GroupDiscoveryFailed {}

/// What [`DiscoveryClient::server_preferred_resources`] found: the resource lists, and
/// the group versions that failed (empty when all were read).
#[derive(Clone, Debug, Default)]
pub struct PreferredResources {
    /// One list per group version that serves a preferred resource.
    pub lists: Vec<APIResourceList>,
    /// The group versions whose documents could not be read.
    pub failed: GroupDiscoveryFailed,
}

impl PreferredResources {
    /// Every resource with its group, version and resource name, those whose verbs
    /// include all of `verbs` (Go's `discovery.FilteredBy(SupportsAllVerbs{...})` then
    /// `GroupVersionResources`).
    pub fn supporting(&self, verbs: &[&str]) -> Vec<(GroupVersionResource, &APIResource)> {
        let mut out = Vec::new();
        for list in &self.lists {
            let Ok(gv) = parse_group_version(&list.group_version) else {
                continue;
            };
            for r in list.resources.iter().flatten() {
                if verbs.iter().all(|v| r.verbs().iter().any(|x| x == v)) {
                    let gvr = GroupVersionResource::new(&gv.group, &gv.version, &r.name);
                    out.push((gvr, r));
                }
            }
        }
        out
    }
}

impl DiscoveryClient {
    pub(crate) fn new(transport: Transport) -> Self {
        DiscoveryClient { transport }
    }

    /// The groups the server serves, the core group (`/api`) first (Go's
    /// `ServerGroups`).
    pub async fn server_groups(&self) -> Result<Vec<APIGroup>, Error> {
        let versions: APIVersions = self.get("/api").await?;
        let groups: APIGroupList = self.get("/apis").await?;
        let mut all = vec![api_versions_to_api_group(&versions)];
        all.extend(groups.groups.unwrap_or_default());
        Ok(all)
    }

    /// The resources of one group version (Go's `ServerResourcesForGroupVersion`).
    pub async fn server_resources_for_group_version(
        &self,
        group_version: &str,
    ) -> Result<APIResourceList, Error> {
        let path = if group_version.contains('/') {
            format!("/apis/{group_version}")
        } else {
            format!("/api/{group_version}")
        };
        self.get(&path).await
    }

    /// Every resource the server serves, subresources left out, each group's in its
    /// preferred version when served there, otherwise in the first version serving it
    /// (Go's `ServerPreferredResources`). A group version whose document fails is named
    /// in [`PreferredResources::failed`]; the groups list failing is an error.
    pub async fn server_preferred_resources(&self) -> Result<PreferredResources, Error> {
        let groups = self.server_groups().await?;
        let mut out = PreferredResources::default();
        for group in &groups {
            let mut seen: HashSet<String> = HashSet::new();
            let mut by_version: Vec<(String, Vec<APIResource>)> = Vec::new();
            // The preferred version first, then the others in the server's order.
            let preferred = &group.preferred_version.group_version;
            let mut versions: Vec<&str> = vec![preferred.as_str()];
            versions.extend(
                group
                    .versions
                    .iter()
                    .flatten()
                    .map(|v| v.group_version.as_str())
                    .filter(|gv| *gv != preferred),
            );
            for gv in versions.into_iter().filter(|gv| !gv.is_empty()) {
                let list = match self.server_resources_for_group_version(gv).await {
                    Ok(list) => list,
                    Err(e) => {
                        out.failed.groups.insert(gv.to_owned(), e.to_string());
                        continue;
                    }
                };
                let fresh: Vec<APIResource> = list
                    .resources
                    .unwrap_or_default()
                    .into_iter()
                    .filter(|r| !r.name.contains('/') && seen.insert(r.name.clone()))
                    .collect();
                if !fresh.is_empty() {
                    by_version.push((gv.to_owned(), fresh));
                }
            }
            out.lists.extend(
                by_version
                    .into_iter()
                    .map(|(gv, resources)| APIResourceList {
                        group_version: gv,
                        resources: Some(resources),
                        ..Default::default()
                    }),
            );
        }
        Ok(out)
    }

    /// [`server_preferred_resources`](Self::server_preferred_resources), namespaced
    /// ones only (Go's `ServerPreferredNamespacedResources`).
    pub async fn server_preferred_namespaced_resources(&self) -> Result<PreferredResources, Error> {
        let mut all = self.server_preferred_resources().await?;
        for list in &mut all.lists {
            if let Some(resources) = &mut list.resources {
                resources.retain(|r| r.namespaced);
            }
        }
        all.lists
            .retain(|l| l.resources.as_ref().is_some_and(|r| !r.is_empty()));
        Ok(all)
    }

    async fn get<T: serde::de::DeserializeOwned>(&self, path: &str) -> Result<T, Error> {
        let answer = self
            .transport
            .fetch(Outgoing {
                method: Method::GET,
                path,
                accept: "application/json",
                body: None,
                streaming: false,
            })
            .await?;
        if !(200..300).contains(&answer.code) {
            return Err(super::codec::api_error(answer.code, &answer.body).into());
        }
        serde_json::from_slice(&answer.body).map_err(|e| Error::Discovery {
            message: format!("{path}: {e}"),
        })
    }
}
