//! The server's state (Go's `GenericAPIServer` with its installed APIs): the REST
//! storages of the built-in resources, and what is served now, rebuilt as a whole when
//! the CRD controller installs custom resources.

use std::collections::BTreeMap;
use std::sync::{Arc, RwLock};

use apimachinery::runtime::Scheme;
use tokio::sync::watch;

use super::healthz::HealthChecks;
use super::routes::Routes;
use crate::admission::Chain;
use crate::apiextensions::controller::CustomResourceServer;
use crate::apiextensions::{CustomResource, ReservedNames};
use crate::authorization::Authorizer;
use crate::endpoints::deprecation::DeprecatedKinds;
use crate::registry::{RestStorage, Store};
use crate::storage::Storage;

/// The server's state: what the innermost handler serves requests from.
#[derive(Debug)]
pub(crate) struct Api {
    pub(crate) scheme: Arc<Scheme>,
    pub(crate) storage: Arc<dyn Storage>,
    /// What discovery reports as the server's address.
    pub(crate) address: String,
    /// The admission plugins writes go through.
    pub(crate) admission: Chain,
    /// The REST storages of the built-in resources, which never change.
    pub(crate) builtin: BTreeMap<(String, String), Arc<dyn RestStorage>>,
    /// The built-in kinds' deprecations (their requests' warnings).
    pub(crate) deprecated_kinds: DeprecatedKinds,
    /// The built-in names custom resources may not take.
    pub(crate) reserved: ReservedNames,
    /// What is served now: rebuilt when the custom resources change.
    pub(crate) routes: RwLock<Arc<Routes>>,
    /// Changes to true when the server is told to stop.
    pub(crate) shutdown: watch::Receiver<bool>,
    /// `/healthz`, `/livez` and `/readyz`.
    pub(crate) health: HealthChecks,
    /// What handlers ask about permissions beyond the request's own verb (an unsafe
    /// delete's `unsafe-delete-ignore-read-errors`).
    pub(crate) authorizer: Arc<dyn Authorizer>,
}

impl Api {
    /// What is served now.
    pub(crate) fn routes(&self) -> Arc<Routes> {
        match self.routes.read() {
            Ok(r) => r.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }

    /// Serves exactly `custom` besides the built-in resources from now on (nothing is
    /// rebuilt when that is already so).
    pub(crate) fn install(&self, custom: &[Arc<CustomResource>]) {
        let current = self.routes();
        if current.installed.len() == custom.len()
            && current
                .installed
                .iter()
                .zip(custom)
                .all(|(a, b)| **a == **b)
        {
            return;
        }
        let routes = Routes::build(
            &self.scheme,
            &self.storage,
            &self.builtin,
            &self.address,
            custom,
            Some(&current),
        );
        // Server-side apply merges custom resources by their CRD's schema (list and map
        // types), as Go's field manager does, instead of a deduced type.
        let gvks = |crs: &[Arc<CustomResource>]| -> Vec<(
            apimachinery::schema::GroupVersionKind,
            Option<serde_json::Value>,
        )> {
            crs.iter()
                .flat_map(|cr| {
                    cr.versions.iter().map(|v| {
                        (
                            apimachinery::schema::GroupVersionKind::new(
                                cr.group.as_str(),
                                v.name.as_str(),
                                cr.kind.as_str(),
                            ),
                            v.schema.clone(),
                        )
                    })
                })
                .collect()
        };
        for (gvk, _) in gvks(&current.installed) {
            crate::endpoints::fieldmanager::forget_types(&gvk);
        }
        for (gvk, schema) in gvks(custom) {
            if schema.is_some() {
                let types = custom
                    .iter()
                    .find(|cr| gvk.group == cr.group && gvk.kind == cr.kind)
                    .and_then(|cr| crate::apiextensions::openapi::field_types(cr, &gvk.version));
                if let Some(types) = types {
                    crate::endpoints::fieldmanager::register_types(gvk, types);
                }
            }
        }
        match self.routes.write() {
            Ok(mut r) => *r = Arc::new(routes),
            Err(poisoned) => *poisoned.into_inner() = Arc::new(routes),
        }
    }
}

impl CustomResourceServer for Api {
    fn scheme(&self) -> &Arc<Scheme> {
        &self.scheme
    }

    fn storage(&self) -> &Arc<dyn Storage> {
        &self.storage
    }

    fn reserved(&self) -> &ReservedNames {
        &self.reserved
    }

    fn install(&self, custom: &[Arc<CustomResource>]) {
        Api::install(self, custom);
    }

    fn store(&self, group: &str, resource: &str) -> Option<Arc<Store>> {
        self.routes()
            .storages
            .get(&(group.to_owned(), resource.to_owned()))
            .map(|rest| rest.store().clone())
    }

    fn shutdown(&self) -> watch::Receiver<bool> {
        self.shutdown.clone()
    }
}
