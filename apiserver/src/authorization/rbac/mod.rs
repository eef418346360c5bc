//! Role-based access control (Go's `plugin/pkg/auth/authorizer/rbac`): a request is
//! allowed when a Role or ClusterRole bound to its user, one of its groups or its
//! service account (by a RoleBinding in the request's namespace or a ClusterRoleBinding)
//! has a rule that matches it.
//!
//! [`Rbac`] keeps the Roles, ClusterRoles and bindings the server stores in an
//! [`Index`] by subject, filled from a list and kept current by the
//! storage's watches of the four kinds. Before deciding, it waits until the index has
//! seen every RBAC write made through this server (the storage tells their revisions
//! without a round trip: [`Storage::follow_own_writes`]), so a binding created by one
//! request is in force for the next one (Go's informers give no such promise); writes
//! made by another server on the same etcd count once their events arrive. It also
//! does the clusterrole-aggregation controller's work: an aggregated ClusterRole grants
//! the rules of the roles its selectors match as soon as they are written, and its
//! stored `rules` are rewritten to them.
//!
//! ```
//! use std::sync::Arc;
//! use apiserver::authentication::user::Info;
//! use apiserver::authorization::rbac::Rbac;
//! use apiserver::authorization::{Attributes, Authorizer, Decision};
//! use apiserver::storage::MemoryStorage;
//! use apimachinery::runtime::Scheme;
//!
//! # tokio::runtime::Builder::new_current_thread().enable_all().build()?.block_on(async {
//! let mut scheme = Scheme::new();
//! k8s_types::register(&mut scheme)?; // RBAC's kinds must be in the scheme
//! let rbac = Rbac::new(Arc::new(scheme), Arc::new(MemoryStorage::new()));
//! let alice = Info { name: "alice".into(), ..Info::default() };
//! let (decision, _) = rbac.authorize(&Attributes::for_path(alice, "GET", "/healthz")).await;
//! assert_eq!(decision, Decision::NoOpinion); // nothing is bound to alice
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! # })?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod bootstrap;
pub mod index;
pub mod policy;

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, RwLock};
use std::time::Duration;

use apimachinery::api::errors::{self, StatusError};
use apimachinery::runtime::Scheme;
use apimachinery::runtime::unstructured::object_to_unstructured;
use apimachinery::schema::GroupResource;
use futures_util::{StreamExt, stream};
use tokio::sync::watch;

use self::index::{Index, Kind, Visit};
use self::policy::{PolicyRule, RbacObject};
use super::{Attributes, Authorizer, Decision, RulesInfo};
use crate::authentication::user::Info;
use crate::registry::validation::NameValidation;
use crate::registry::{
    GenericStrategy, ResourceInfo, Store, Subresource, decode_stored, resources_from_scheme,
};
use crate::storage::{KeyValue, ListOptions, Revision, Storage, WatchEvent, interpret_error};

/// How long a decision waits for the index to catch up with a write before deciding on
/// what it has (only a storage whose watch has stalled makes it wait that long).
const SYNC_TIMEOUT: Duration = Duration::from_secs(5);

/// How long the index waits before listing again after the storage failed.
const RETRY_DELAY: Duration = Duration::from_millis(500);

/// How RBAC objects are written, here and through the API (`registry::rbac`): Go's RBAC
/// strategies, whose names are path segments (`ValidateRBACName`: the bootstrap roles
/// are `system:...`).
pub const STRATEGY: GenericStrategy = GenericStrategy {
    names: NameValidation::PathSegment,
    returns_deleted_object: false,
    no_generation: false,
    requires_resource_version: false,
    status_by_status_writes_only: false,
    creates_on_update: true,
};

/// The store of RBAC resource `info`, written with [`STRATEGY`].
pub fn store(scheme: &Arc<Scheme>, storage: &Arc<dyn Storage>, info: ResourceInfo) -> Store {
    Store::new(scheme.clone(), storage.clone(), info, Arc::new(STRATEGY))
}

/// The RBAC authorizer (Go's `RBACAuthorizer` over the `DefaultRuleResolver`).
#[derive(Debug)]
pub struct Rbac {
    shared: Arc<Shared>,
    task: tokio::task::AbortHandle,
}

#[derive(Debug)]
struct Shared {
    scheme: Arc<Scheme>,
    storage: Arc<dyn Storage>,
    index: RwLock<Index>,
    /// Per kind (as in `kinds`), the newest revision of the kind's events the index has
    /// applied; `None` until the first list.
    seen: watch::Sender<Option<Vec<Revision>>>,
    /// The store of each kind, by kind, and their key prefixes.
    kinds: Vec<(Kind, Arc<Store>)>,
    /// Per kind, the newest revision this server wrote under its prefix.
    written: Vec<Arc<AtomicI64>>,
}

impl Drop for Rbac {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Rbac {
    /// An authorizer over the RBAC objects in `storage`; starts the index as a task of
    /// the current tokio runtime (so it must be called inside one, as a server is
    /// built), which ends when the authorizer is dropped. Without RBAC's kinds in
    /// `scheme` it has no opinion on anything.
    pub fn new(scheme: Arc<Scheme>, storage: Arc<dyn Storage>) -> Arc<Rbac> {
        let resources = resources_from_scheme(&scheme);
        let mut kinds = Vec::new();
        for (kind, resource) in [
            (Kind::Role, "roles"),
            (Kind::ClusterRole, "clusterroles"),
            (Kind::RoleBinding, "rolebindings"),
            (Kind::ClusterRoleBinding, "clusterrolebindings"),
        ] {
            if let Some(info) = resources.get(&(policy::GROUP.to_owned(), resource.to_owned())) {
                kinds.push((kind, Arc::new(store(&scheme, &storage, info.clone()))));
            }
        }
        let written = kinds
            .iter()
            .map(|(_, s)| storage.follow_own_writes(&s.info().collection_prefix(None)))
            .collect();
        let (seen, _) = watch::channel(None);
        let shared = Arc::new(Shared {
            scheme,
            storage,
            index: RwLock::new(Index::default()),
            seen,
            kinds,
            written,
        });
        let task = tokio::spawn(shared.clone().run()).abort_handle();
        Arc::new(Rbac { shared, task })
    }

    /// Waits until the index has been listed and reflects every RBAC write this server
    /// had made when called (at most five seconds, after which it decides on what it
    /// has).
    pub async fn sync(&self) {
        if self.shared.kinds.is_empty() {
            return;
        }
        let wanted: Vec<Revision> = self
            .shared
            .written
            .iter()
            .map(|w| w.load(Ordering::Acquire))
            .collect();
        let mut rx = self.shared.seen.subscribe();
        let caught_up = |seen: &Option<Vec<Revision>>| {
            seen.as_ref()
                .is_some_and(|seen| seen.iter().zip(&wanted).all(|(s, w)| s >= w))
        };
        let _ = tokio::time::timeout(SYNC_TIMEOUT, rx.wait_for(caught_up)).await;
    }

    /// The rules `user` holds in `namespace` (cluster-wide ones included), and the
    /// errors met resolving its bindings (Go's `RulesFor`).
    pub async fn rules_for(&self, user: &Info, namespace: &str) -> (Vec<PolicyRule>, Vec<String>) {
        self.sync().await;
        let index = self.shared.read();
        let mut rules = Vec::new();
        let mut errors = Vec::new();
        index.visit(user, namespace, &mut |visit| {
            match visit {
                Visit::Rule { rule, .. } => rules.push(rule.clone()),
                Visit::Error(e) => errors.push(e),
            }
            true
        });
        (rules, errors)
    }

    /// The rules a binding's role reference grants in `namespace` (empty for a
    /// ClusterRoleBinding), or why they cannot be resolved (Go's
    /// `GetRoleReferenceRules`).
    pub async fn role_ref_rules(
        &self,
        role_ref: &policy::RoleRef,
        namespace: &str,
    ) -> Result<Vec<PolicyRule>, String> {
        self.sync().await;
        let index = self.shared.read();
        index
            .role_ref_rules(role_ref, namespace)
            .map(|rules| (*rules).clone())
    }

    /// How many roles and bindings the index holds.
    pub async fn len(&self) -> usize {
        self.sync().await;
        self.shared.read().len()
    }

    /// Whether the index holds no role or binding.
    pub async fn is_empty(&self) -> bool {
        self.len().await == 0
    }
}

/// Go's `utilerrors.NewAggregate(errs).Error()`: one message alone, several in
/// brackets, duplicates once.
pub(crate) fn aggregate_errors(errors: &[String]) -> String {
    let mut seen: Vec<&str> = Vec::new();
    for e in errors {
        if !seen.contains(&e.as_str()) {
            seen.push(e);
        }
    }
    match seen.as_slice() {
        [one] => (*one).to_owned(),
        many => format!("[{}]", many.join(", ")),
    }
}

#[async_trait::async_trait]
impl Authorizer for Rbac {
    async fn authorize(&self, attributes: &Attributes) -> (Decision, String) {
        self.sync().await;
        let index = self.shared.read();
        let mut allowed_by = None;
        let mut errors = Vec::new();
        index.visit(&attributes.user, &attributes.namespace, &mut |visit| {
            match &visit {
                Visit::Rule { rule, .. } if rule.allows(attributes) => {
                    allowed_by = Some(visit.source());
                    return false;
                }
                Visit::Rule { .. } => {}
                Visit::Error(e) => errors.push(e.clone()),
            }
            true
        });
        if let Some(source) = allowed_by {
            return (Decision::Allow, format!("RBAC: allowed by {source}"));
        }
        if errors.is_empty() {
            (Decision::NoOpinion, String::new())
        } else {
            (
                Decision::NoOpinion,
                format!("RBAC: {}", aggregate_errors(&errors)),
            )
        }
    }

    async fn rules_for(&self, user: &Info, namespace: &str) -> RulesInfo {
        let (rules, errors) = Rbac::rules_for(self, user, namespace).await;
        let mut info = RulesInfo::default();
        for rule in rules {
            if !rule.resources.is_empty() {
                info.resource_rules.push(PolicyRule {
                    non_resource_urls: Vec::new(),
                    ..rule.clone()
                });
            }
            if !rule.non_resource_urls.is_empty() {
                info.non_resource_rules.push(PolicyRule {
                    verbs: rule.verbs,
                    non_resource_urls: rule.non_resource_urls,
                    ..PolicyRule::default()
                });
            }
        }
        if !errors.is_empty() {
            info.evaluation_error = aggregate_errors(&errors);
        }
        info
    }
}

impl Shared {
    fn read(&self) -> std::sync::RwLockReadGuard<'_, Index> {
        // A panic while the lock was held cannot leave the index half-updated in a way
        // that matters more than stopping authorization altogether would.
        self.index.read().unwrap_or_else(|e| e.into_inner())
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, Index> {
        self.index.write().unwrap_or_else(|e| e.into_inner())
    }

    /// Lists, then follows one watch per kind; lists again whenever one of them ends.
    async fn run(self: Arc<Self>) {
        if self.kinds.is_empty() {
            return;
        }
        'list: loop {
            let from = match self.list().await {
                Ok(revision) => revision,
                Err(e) => {
                    tracing::warn!(error = %e, "RBAC cannot list the roles and bindings; retrying");
                    tokio::time::sleep(RETRY_DELAY).await;
                    continue;
                }
            };
            self.reconcile_aggregations();
            // Only the four kinds' prefixes: a watch of their common directory
            // (`/registry/`) would have etcd send every write of every resource here
            // too. The index needs the keys and new values only: no previous values.
            let mut watches = Vec::with_capacity(self.kinds.len());
            for (position, (_, store)) in self.kinds.iter().enumerate() {
                let prefix = store.info().collection_prefix(None);
                let events = match self.storage.watch_without_prev(&prefix, from).await {
                    Ok(events) => events,
                    Err(e) => {
                        tracing::warn!(error = %e, %prefix, "RBAC cannot watch the roles and bindings; retrying");
                        tokio::time::sleep(RETRY_DELAY).await;
                        continue 'list;
                    }
                };
                // Each watch says when it ends, so that the end of one ends them all.
                let ends = stream::once(std::future::ready((position, None)));
                watches.push(events.map(move |e| (position, Some(e))).chain(ends));
            }
            // A watch "from 0" starts at whatever is current when it is registered: it
            // misses nothing only if the store is still empty then.
            if from == 0 && !matches!(self.storage.current_revision().await, Ok(0)) {
                continue;
            }
            let mut events = stream::select_all(watches);
            let mut delivered = false;
            while let Some((position, Some(Ok(event)))) = events.next().await {
                delivered = true;
                let revision = event.revision();
                let moved = !matches!(event, WatchEvent::Progress { .. });
                let touched_roles = self.apply(event);
                if moved {
                    self.seen.send_if_modified(|seen| match seen {
                        Some(seen) if seen.get(position).is_some_and(|s| revision > *s) => {
                            seen[position] = revision;
                            true
                        }
                        _ => false,
                    });
                }
                if touched_roles {
                    self.reconcile_aggregations();
                }
            }
            // A watch that ends at once would otherwise have the index list in a loop.
            if !delivered {
                tokio::time::sleep(RETRY_DELAY).await;
            }
        }
    }

    /// Reads every RBAC object at one revision into a new index; returns the revision.
    async fn list(&self) -> Result<Revision, StatusError> {
        let mut index = Index::default();
        // Every kind at the same revision, named explicitly: a list "at 0" reads the
        // current state, which moves on between the four lists.
        let revision = self
            .storage
            .current_revision()
            .await
            .map_err(|e| interpret_error(e, &GroupResource::new("", "rbac"), ""))?;
        if revision > 0 {
            for (kind, store) in &self.kinds {
                let prefix = store.info().collection_prefix(None);
                let options = ListOptions {
                    revision,
                    ..ListOptions::default()
                };
                let listed = self
                    .storage
                    .list(&prefix, &options)
                    .await
                    .map_err(|e| interpret_error(e, &store.info().qualified_resource(), ""))?;
                for kv in &listed.kvs {
                    if let Ok(obj) = self.decode(kv) {
                        index.load(*kind, obj);
                    }
                }
            }
            index.aggregate();
        }
        *self.write() = index;
        self.seen
            .send_replace(Some(vec![revision; self.kinds.len()]));
        Ok(revision)
    }

    fn decode(&self, kv: &KeyValue) -> Result<RbacObject, StatusError> {
        let obj = decode_stored(&self.scheme, kv)?;
        let map = object_to_unstructured(&*obj)
            .map_err(|e| errors::new_internal_error(format!("reading {}: {e}", kv.key)))?;
        serde_json::from_value(serde_json::Value::Object(map))
            .map_err(|e| errors::new_internal_error(format!("reading {}: {e}", kv.key)))
    }

    fn kind_of(&self, key: &str) -> Option<Kind> {
        self.kinds
            .iter()
            .find(|(_, s)| key.starts_with(&s.info().collection_prefix(None)))
            .map(|(k, _)| *k)
    }

    /// Applies one watch event; says whether a ClusterRole changed.
    fn apply(&self, event: WatchEvent) -> bool {
        match event {
            WatchEvent::Put { kv, .. } => {
                let Some(kind) = self.kind_of(&kv.key) else {
                    return false;
                };
                // An object that does not decode grants nothing; the one it replaces
                // no longer does either.
                match self.decode(&kv) {
                    Ok(obj) => self.write().put(kind, obj),
                    Err(_) => {
                        if let Some((ns, name)) = self.key_names(kind, &kv.key) {
                            self.write().delete(kind, &ns, &name);
                        }
                    }
                }
                kind == Kind::ClusterRole
            }
            WatchEvent::Delete { key, .. } => {
                let Some(kind) = self.kind_of(&key) else {
                    return false;
                };
                if let Some((ns, name)) = self.key_names(kind, &key) {
                    self.write().delete(kind, &ns, &name);
                }
                kind == Kind::ClusterRole
            }
            WatchEvent::Progress { .. } => false,
        }
    }

    /// The namespace and name of a key of `kind`.
    fn key_names(&self, kind: Kind, key: &str) -> Option<(String, String)> {
        let info: &ResourceInfo = self.kinds.iter().find(|(k, _)| *k == kind)?.1.info();
        let rest = key.strip_prefix(&info.collection_prefix(None))?;
        if info.namespaced {
            let (ns, name) = rest.split_once('/')?;
            Some((ns.to_owned(), name.to_owned()))
        } else {
            Some((String::new(), rest.to_owned()))
        }
    }

    /// Writes the rules aggregation gives each aggregated ClusterRole whose stored
    /// rules differ (Go's clusterrole-aggregation controller).
    fn reconcile_aggregations(self: &Arc<Self>) {
        let stale = self.read().stale_aggregations();
        if stale.is_empty() {
            return;
        }
        let Some(store) = self
            .kinds
            .iter()
            .find(|(k, _)| *k == Kind::ClusterRole)
            .map(|(_, s)| s.clone())
        else {
            return;
        };
        let scheme = self.scheme.clone();
        tokio::spawn(async move {
            for (name, rules) in stale {
                let gvk = store.info().storage_gvk.clone();
                let rules = match serde_json::to_value(&rules) {
                    Ok(v) => v,
                    Err(_) => continue,
                };
                // The role may have been deleted or changed meanwhile: the next event
                // brings another pass.
                let _ = store
                    .update("", &name, Subresource::Main, false, |current| {
                        let mut v = crate::registry::to_json(&*current)?;
                        if let Some(map) = v.as_object_mut() {
                            map.insert("rules".into(), rules.clone());
                        }
                        crate::registry::from_value(&scheme, &gvk, v)
                    })
                    .await;
            }
        });
    }
}

#[cfg(test)]
mod tests;
