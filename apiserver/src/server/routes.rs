//! What a server serves at one moment (Go's installed API groups): the REST storage of
//! every resource, built-in and custom, with the discovery documents and OpenAPI
//! documents that describe them.

use std::collections::BTreeMap;
use std::sync::Arc;

use apimachinery::runtime::Scheme;

use crate::apiextensions::{CustomResource, ReservedNames};
use crate::discovery::Discovery;
use crate::openapi::OpenApi;
use crate::registry::apiextensions::customresource::CustomResourceStorage;
use crate::registry::{ResourceInfo, RestStorage};
use crate::storage::Storage;

/// What a server serves at one moment: the REST storage of every resource, discovery
/// and the OpenAPI documents, rebuilt as a whole when a CRD starts or stops being
/// served, so a request sees one consistent set.
#[derive(Debug)]
pub(crate) struct Routes {
    pub(super) storages: BTreeMap<(String, String), Arc<dyn RestStorage>>,
    pub(super) discovery: Discovery,
    pub(super) openapi: OpenApi,
    /// The custom resources installed.
    pub(super) installed: Vec<Arc<CustomResource>>,
    /// The REST storages of those served.
    custom: Vec<Arc<CustomResourceStorage>>,
}

impl Routes {
    /// The built-in stores with those of `custom` (reusing the stores of `previous`
    /// whose definitions did not change, so their watch caches go on).
    pub(super) fn build(
        scheme: &Arc<Scheme>,
        storage: &Arc<dyn Storage>,
        builtin: &BTreeMap<(String, String), Arc<dyn RestStorage>>,
        address: &str,
        custom: &[Arc<CustomResource>],
        previous: Option<&Routes>,
    ) -> Routes {
        let mut storages = builtin.clone();
        let mut served = Vec::new();
        let mut custom_keys = std::collections::BTreeSet::new();
        for cr in custom {
            let key = (cr.group.clone(), cr.plural.clone());
            if storages.contains_key(&key) {
                continue;
            }
            let reused = previous
                .and_then(|p| p.custom.iter().find(|s| **s.definition() == **cr))
                .cloned();
            let rest = reused.unwrap_or_else(|| {
                Arc::new(CustomResourceStorage::new(
                    scheme.clone(),
                    storage.clone(),
                    cr.clone(),
                ))
            });
            custom_keys.insert(key.clone());
            storages.insert(key, rest.clone());
            served.push(rest);
        }
        let infos: BTreeMap<(String, String), ResourceInfo> = storages
            .iter()
            .map(|(k, s)| (k.clone(), s.store().info().clone()))
            .collect();
        let discovery = Discovery::with_group_order(
            &crate::discovery::group_order(scheme, &infos),
            &infos,
            &custom_keys,
            address,
        );
        let group_versions: std::collections::BTreeSet<(String, String)> = builtin
            .values()
            .flat_map(|s| {
                let r = s.store().info();
                r.versions.iter().map(|v| (r.group.clone(), v.clone()))
            })
            .collect();
        let mut custom_gvs: BTreeMap<(String, String), Vec<&CustomResource>> = BTreeMap::new();
        for cr in custom {
            for v in cr.served_versions() {
                custom_gvs
                    .entry((cr.group.clone(), v))
                    .or_default()
                    .push(cr);
            }
        }
        let openapi = OpenApi::for_group_versions(
            group_versions.iter().map(|(g, v)| (g.as_str(), v.as_str())),
        )
        .with_documents(custom_gvs.iter().map(|((g, v), crs)| {
            (
                crate::openapi::document_key(g, v),
                crate::apiextensions::openapi::document(g, v, crs),
            )
        }));
        Routes {
            storages,
            discovery,
            openapi,
            installed: custom.to_vec(),
            custom: served,
        }
    }
}

/// The names of the built-in resources, which no CRD may take.
pub(super) fn reserved_names<'a>(
    resources: impl Iterator<Item = &'a ResourceInfo>,
) -> ReservedNames {
    let mut reserved = ReservedNames::default();
    for r in resources {
        for name in std::iter::once(&r.resource)
            .chain(std::iter::once(&r.singular))
            .chain(&r.short_names)
        {
            reserved.resources.insert((r.group.clone(), name.clone()));
        }
        reserved.kinds.insert((r.group.clone(), r.kind.clone()));
        reserved
            .kinds
            .insert((r.group.clone(), format!("{}List", r.kind)));
    }
    reserved
}
