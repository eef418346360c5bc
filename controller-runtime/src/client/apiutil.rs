//! controller-runtime's `client/apiutil`: the dynamic RESTMapper, built lazily from the
//! server's discovery documents (aggregated discovery when the server offers it, the
//! legacy documents otherwise) and rebuilt when a kind is not found, so that kinds
//! installed after start (a new CRD) are found.

use std::sync::Arc;
use std::time::{Duration, Instant};

use apimachinery::apis::meta::v1::{APIGroupList, APIResourceList, APIVersions};
use apimachinery::meta::{DiscoveryRESTMapper, RESTMapper, RESTMapping, api_versions_to_api_group};
use apimachinery::schema::{GroupKind, GroupVersionKind};
use http::Method;
use tokio::sync::Mutex;

use super::Error;
use crate::transport::{Outgoing, Transport};

/// The `Accept` header of discovery: aggregated discovery first, as client-go asks.
const DISCOVERY_ACCEPT: &str = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json";

/// A miss rebuilds the mapper at most this often (controller-runtime rate-limits its
/// reloads so that a loop over an unknown kind does not hammer discovery).
const MIN_RELOAD_INTERVAL: Duration = Duration::from_millis(200);

/// The dynamic RESTMapper: discovery read on first use and again on a miss. Cheap to
/// clone; clones share the mapping.
#[derive(Clone, Debug)]
pub struct DynamicRESTMapper {
    transport: Transport,
    state: Arc<Mutex<State>>,
}

#[derive(Debug, Default)]
struct State {
    mapper: Option<Arc<DiscoveryRESTMapper>>,
    loaded_at: Option<Instant>,
    aggregated: Option<bool>,
}

impl DynamicRESTMapper {
    pub(crate) fn new(transport: Transport) -> Self {
        DynamicRESTMapper {
            transport,
            state: Arc::default(),
        }
    }

    /// The mapping of a group and kind, in `version` when given: answered from the
    /// discovery read so far, read again once when the kind is not there.
    pub async fn rest_mapping(
        &self,
        gk: &GroupKind,
        version: Option<&str>,
    ) -> Result<RESTMapping, Error> {
        let versions: Vec<&str> = version.into_iter().collect();
        let gvk = GroupVersionKind::new(&gk.group, version.unwrap_or_default(), &gk.kind);
        let mut state = self.state.lock().await;
        if let Some(mapper) = &state.mapper {
            if let Ok(m) = mapper.rest_mapping(gk, &versions) {
                return Ok(m);
            }
            if state
                .loaded_at
                .is_some_and(|t| t.elapsed() < MIN_RELOAD_INTERVAL)
            {
                // Just read: the kind is not served.
                return mapper
                    .rest_mapping(gk, &versions)
                    .map_err(|e| Error::NoMapping {
                        gvk,
                        message: e.to_string(),
                    });
            }
        }
        let mapper = self.load(&mut state).await?;
        mapper
            .rest_mapping(gk, &versions)
            .map_err(|e| Error::NoMapping {
                gvk,
                message: e.to_string(),
            })
    }

    /// The discovery mapper as last read (reading it first if it never was).
    pub async fn mapper(&self) -> Result<Arc<DiscoveryRESTMapper>, Error> {
        let mut state = self.state.lock().await;
        match &state.mapper {
            Some(m) => Ok(m.clone()),
            None => self.load(&mut state).await,
        }
    }

    /// Forgets what was read: the next lookup reads discovery again.
    pub async fn reset(&self) {
        let mut state = self.state.lock().await;
        state.mapper = None;
        state.loaded_at = None;
    }

    /// True when the server answered with aggregated discovery (`None` before the
    /// first read).
    pub async fn uses_aggregated_discovery(&self) -> Option<bool> {
        self.state.lock().await.aggregated
    }

    async fn load(&self, state: &mut State) -> Result<Arc<DiscoveryRESTMapper>, Error> {
        let api = self.get("/api", DISCOVERY_ACCEPT).await?;
        let mapper = if api.0.contains("as=APIGroupDiscoveryList") {
            let apis = self.get("/apis", DISCOVERY_ACCEPT).await?;
            let docs = [text(&api.1)?, text(&apis.1)?];
            state.aggregated = Some(true);
            DiscoveryRESTMapper::from_aggregated_discovery(&docs).map_err(|e| Error::Discovery {
                message: e.to_string(),
            })?
        } else {
            state.aggregated = Some(false);
            self.load_legacy(&api.1).await?
        };
        let mapper = Arc::new(mapper);
        state.mapper = Some(mapper.clone());
        state.loaded_at = Some(Instant::now());
        Ok(mapper)
    }

    /// client-go's legacy discovery: `/api`, `/apis`, then each group version's list.
    async fn load_legacy(&self, api: &[u8]) -> Result<DiscoveryRESTMapper, Error> {
        let versions: APIVersions = parse(api, "/api")?;
        let (_, apis) = self.get("/apis", "application/json").await?;
        let mut groups: APIGroupList = parse(&apis, "/apis")?;
        let mut all = vec![api_versions_to_api_group(&versions)];
        all.extend(groups.groups.take().unwrap_or_default());
        let mut lists = Vec::new();
        for group in &all {
            for v in group.versions.iter().flatten() {
                let path = if group.name.is_empty() {
                    format!("/api/{}", v.version)
                } else {
                    format!("/apis/{}", v.group_version)
                };
                let (_, body) = self.get(&path, "application/json").await?;
                let list: APIResourceList = parse(&body, &path)?;
                lists.push(list);
            }
        }
        groups.groups = Some(all);
        Ok(DiscoveryRESTMapper::from_discovery(&groups, &lists))
    }

    async fn get(&self, path: &str, accept: &str) -> Result<(String, bytes::Bytes), Error> {
        let answer = self
            .transport
            .fetch(Outgoing {
                method: Method::GET,
                path,
                accept,
                body: None,
                streaming: false,
            })
            .await?;
        if !(200..300).contains(&answer.code) {
            return Err(super::codec::api_error(answer.code, &answer.body).into());
        }
        Ok((answer.content_type, answer.body))
    }
}

fn text(body: &[u8]) -> Result<&str, Error> {
    std::str::from_utf8(body).map_err(|e| Error::Discovery {
        message: format!("discovery document is not UTF-8: {e}"),
    })
}

fn parse<T: serde::de::DeserializeOwned>(body: &[u8], path: &str) -> Result<T, Error> {
    serde_json::from_slice(body).map_err(|e| Error::Discovery {
        message: format!("{path}: {e}"),
    })
}
