//! Go's `NamespaceLifecycle` admission plugin
//! (`k8s.io/apiserver/pkg/admission/plugin/namespace/lifecycle`): nothing is created
//! or changed in a namespace that does not exist, nothing is created in one that is
//! being terminated, and the namespaces every cluster relies on cannot be deleted.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use apimachinery::api::errors::{self, StatusError};
use apimachinery::apis::meta::v1::StatusCause;
use async_trait::async_trait;

use super::super::{Attributes, MutationInterface, Operation};
use crate::registry::Store;
use crate::storage::{KeyValue, Revision};
use apimachinery::schema::GroupResource;

/// The namespaces that may not be deleted (Go's `immortalNamespaces`: `default`,
/// `kube-system` and `kube-public`).
pub const IMMORTAL_NAMESPACES: [&str; 3] = ["default", "kube-system", "kube-public"];

/// The `reason` of the cause Go adds to a refusal in a terminating namespace
/// (`v1.NamespaceTerminatingCause`).
pub const NAMESPACE_TERMINATING_CAUSE: &str = "NamespaceTerminating";

/// How long after this server let a namespace's deletion through its namespace reads
/// skip the watch cache (Go's `forceLiveLookupTTL`): the cache may not have seen the
/// deletion yet, and content must not be created in a namespace going away.
const FORCE_LIVE_LOOKUP_TTL: Duration = Duration::from_secs(30);

/// How many namespaces' termination states are remembered before the memo starts over.
const TERMINATING_MEMO_BOUND: usize = 4096;

/// The plugin, reading namespaces as Go's does: from the namespace store's watch cache
/// (Go's informer), and from the storage when the cache does not have the namespace or
/// this server has just let its deletion through. A write thereby costs no storage
/// round trip of its own for the namespace check.
#[derive(Debug)]
pub struct NamespaceLifecycle {
    namespaces: Arc<Store>,
    /// Namespaces whose deletion this server admitted, and when.
    force_live_lookup: Mutex<HashMap<String, Instant>>,
    /// Whether each namespace is being terminated, at the stored revision it was
    /// decoded from.
    terminating: Mutex<HashMap<String, (Revision, bool)>>,
}

impl NamespaceLifecycle {
    /// The plugin over the store of core/v1 `namespaces`.
    pub fn new(namespaces: Arc<Store>) -> Self {
        NamespaceLifecycle {
            namespaces,
            force_live_lookup: Mutex::new(HashMap::new()),
            terminating: Mutex::new(HashMap::new()),
        }
    }

    /// The plugin over the server's `stores` (by group and resource), when it serves
    /// core/v1 `namespaces`.
    pub fn for_stores(stores: &BTreeMap<(String, String), Arc<Store>>) -> Option<Self> {
        let namespaces = stores.get(&(String::new(), "namespaces".to_owned()))?;
        Some(NamespaceLifecycle::new(namespaces.clone()))
    }

    /// Whether reads of `namespace` must go to the storage; forgets expired entries.
    fn must_look_up_live(&self, namespace: &str) -> bool {
        let Ok(mut recent) = self.force_live_lookup.lock() else {
            return true;
        };
        if recent.is_empty() {
            return false;
        }
        let now = Instant::now();
        recent.retain(|_, at| now.duration_since(*at) < FORCE_LIVE_LOOKUP_TTL);
        recent.contains_key(namespace)
    }

    /// Whether the namespace stored as `stored` is being terminated; decoded once per
    /// stored revision, as creates in one namespace keep asking about the same one.
    fn terminating(&self, name: &str, stored: &KeyValue) -> Result<bool, StatusError> {
        let known = self
            .terminating
            .lock()
            .ok()
            .and_then(|memo| memo.get(name).copied())
            .filter(|(revision, _)| *revision == stored.mod_revision);
        if let Some((_, terminating)) = known {
            return Ok(terminating);
        }
        let namespace = self.namespaces.decode(stored)?;
        let terminating = namespace
            .meta()
            .is_some_and(|m| m.deletion_timestamp().is_some())
            || crate::registry::to_json(&*namespace)?
                .pointer("/status/phase")
                .and_then(serde_json::Value::as_str)
                == Some("Terminating");
        if let Ok(mut memo) = self.terminating.lock() {
            // Deleted namespaces would otherwise stay: start over past a bound.
            if memo.len() >= TERMINATING_MEMO_BOUND {
                memo.clear();
            }
            memo.insert(name.to_owned(), (stored.mod_revision, terminating));
        }
        Ok(terminating)
    }

    fn deletion_admitted(&self, namespace: &str) {
        if let Ok(mut recent) = self.force_live_lookup.lock() {
            recent.insert(namespace.to_string(), Instant::now());
        }
    }
}

fn is_namespace(attributes: &Attributes) -> bool {
    attributes.kind.group.is_empty() && attributes.kind.kind == "Namespace"
}

/// The access reviews, which are answered whether or not their namespace exists (Go
/// does not leak a namespace's state through them).
fn is_access_review(attributes: &Attributes) -> bool {
    attributes.resource.group == "authorization.k8s.io"
        && matches!(
            attributes.resource.resource.as_str(),
            "localsubjectaccessreviews" | "subjectaccessreviews" | "selfsubjectaccessreviews"
        )
}

fn qualified(attributes: &Attributes) -> GroupResource {
    attributes.resource.group_resource()
}

#[async_trait]
impl MutationInterface for NamespaceLifecycle {
    fn handles(&self, operation: Operation) -> bool {
        matches!(
            operation,
            Operation::Create | Operation::Update | Operation::Delete
        )
    }

    async fn admit(&self, attributes: &mut Attributes) -> Result<(), StatusError> {
        if attributes.operation == Operation::Delete
            && is_namespace(attributes)
            && IMMORTAL_NAMESPACES.contains(&attributes.name.as_str())
        {
            return Err(errors::new_forbidden(
                &qualified(attributes),
                &attributes.name,
                "this namespace may not be deleted",
            ));
        }
        if attributes.operation == Operation::Delete && is_namespace(attributes) {
            self.deletion_admitted(&attributes.name);
        }
        // Cluster-scoped objects and namespaces themselves are always let through;
        // deleting what is in a namespace always is too.
        if attributes.namespace.is_empty()
            || is_namespace(attributes)
            || attributes.operation == Operation::Delete
            || is_access_review(attributes)
        {
            return Ok(());
        }
        // From the watch cache; from the storage when the cache does not have it (before
        // refusing) or its deletion was just let through (Go's live lookup).
        let live = self.must_look_up_live(&attributes.namespace);
        let (stored, _) = self
            .namespaces
            .read_stored("", &attributes.namespace, live)
            .await?;
        if attributes.operation != Operation::Create {
            return Ok(());
        }
        if !self.terminating(&attributes.namespace, &stored)? {
            return Ok(());
        }
        let ns = &attributes.namespace;
        let mut err = errors::new_forbidden(
            &qualified(attributes),
            &attributes.name,
            format!(
                "unable to create new content in namespace {ns} because it is being terminated"
            ),
        );
        if let Some(details) = err.status.details.as_mut() {
            details.causes.push(StatusCause {
                reason: NAMESPACE_TERMINATING_CAUSE.into(),
                message: format!("namespace {ns} is being terminated"),
                field: "metadata.namespace".into(),
            });
        }
        Err(err)
    }
}
