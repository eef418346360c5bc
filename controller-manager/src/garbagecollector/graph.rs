//! The graph of owner references (Go's `garbagecollector/graph.go` and the bookkeeping
//! of `graph_builder.go`): one node per object the metadata informers have seen, by uid,
//! with its owner references and the uids of its dependents. Owners not seen (yet) have
//! no node; their dependents are looked at live.

use std::collections::{HashMap, HashSet};

use apimachinery::apis::meta::v1::OwnerReference;
use apimachinery::schema::GroupVersionKind;
use k8s_types::meta::v1::PartialObjectMetadata;

/// Go's `metav1.FinalizerOrphanDependents`.
pub const FINALIZER_ORPHAN: &str = "orphan";
/// Go's `metav1.FinalizerDeleteDependents`.
pub const FINALIZER_DELETE_DEPENDENTS: &str = "foregroundDeletion";

/// Where an object is (Go's `objectReference`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Identity {
    /// Its kind, at the version it was listed.
    pub gvk: GroupVersionKind,
    /// Its namespace; empty when cluster-scoped.
    pub namespace: String,
    /// Its name.
    pub name: String,
    /// Its uid.
    pub uid: String,
}

/// One object (Go's `node`).
#[derive(Clone, Debug)]
pub struct Node {
    /// Where it is.
    pub identity: Identity,
    /// Its owner references.
    pub owners: Vec<OwnerReference>,
    /// Its finalizers.
    pub finalizers: Vec<String>,
    /// Whether it has a deletion timestamp.
    pub being_deleted: bool,
    /// The uids of the objects naming it as owner.
    pub dependents: HashSet<String>,
}

impl Node {
    /// Being deleted in the foreground: waiting for its dependents (Go's
    /// `isDeletingDependents`).
    pub fn deleting_dependents(&self) -> bool {
        self.being_deleted && self.has_finalizer(FINALIZER_DELETE_DEPENDENTS)
    }

    /// Whether it has `finalizer`.
    pub fn has_finalizer(&self, finalizer: &str) -> bool {
        self.finalizers.iter().any(|f| f == finalizer)
    }
}

/// The graph.
#[derive(Debug, Default)]
pub struct Graph {
    nodes: HashMap<String, Node>,
    /// Dependents of owners without a node, so that an owner arriving later finds them.
    pending_dependents: HashMap<String, HashSet<String>>,
}

impl Graph {
    /// The node of `uid`.
    pub fn get(&self, uid: &str) -> Option<&Node> {
        self.nodes.get(uid)
    }

    /// Records `obj` of kind `gvk` as added or changed; returns its node and the owner
    /// uids it no longer names.
    pub fn upsert(
        &mut self,
        gvk: &GroupVersionKind,
        obj: &PartialObjectMetadata,
    ) -> (Node, Vec<String>) {
        let meta = &obj.metadata;
        let uid = meta.uid.clone();
        let old_owners: Vec<String> = self
            .nodes
            .get(&uid)
            .map(|n| n.owners.iter().map(|o| o.uid.clone()).collect())
            .unwrap_or_default();
        let new_owners: Vec<OwnerReference> = meta.owner_references.clone();
        let removed: Vec<String> = old_owners
            .iter()
            .filter(|o| !new_owners.iter().any(|n| &n.uid == *o))
            .cloned()
            .collect();
        for owner in &removed {
            self.unlink(owner, &uid);
        }
        for owner in &new_owners {
            match self.nodes.get_mut(&owner.uid) {
                Some(node) => {
                    node.dependents.insert(uid.clone());
                }
                None => {
                    self.pending_dependents
                        .entry(owner.uid.clone())
                        .or_default()
                        .insert(uid.clone());
                }
            }
        }
        let mut dependents = self.pending_dependents.remove(&uid).unwrap_or_default();
        if let Some(existing) = self.nodes.get(&uid) {
            dependents.extend(existing.dependents.iter().cloned());
        }
        let node = Node {
            identity: Identity {
                gvk: gvk.clone(),
                namespace: meta.namespace.clone(),
                name: meta.name.clone(),
                uid: uid.clone(),
            },
            owners: new_owners,
            finalizers: meta.finalizers.clone(),
            being_deleted: meta.deletion_timestamp.is_some(),
            dependents,
        };
        self.nodes.insert(uid, node.clone());
        (node, removed)
    }

    /// Forgets the object `uid`; returns its node.
    pub fn remove(&mut self, uid: &str) -> Option<Node> {
        let node = self.nodes.remove(uid)?;
        for owner in &node.owners {
            self.unlink(&owner.uid, uid);
        }
        if !node.dependents.is_empty() {
            // Its dependents may name it again if it comes back with the same uid.
            self.pending_dependents
                .insert(uid.to_owned(), node.dependents.clone());
        }
        Some(node)
    }

    fn unlink(&mut self, owner: &str, dependent: &str) {
        if let Some(node) = self.nodes.get_mut(owner) {
            node.dependents.remove(dependent);
        }
        if let Some(set) = self.pending_dependents.get_mut(owner) {
            set.remove(dependent);
            if set.is_empty() {
                self.pending_dependents.remove(owner);
            }
        }
    }

    /// The dependents of `owner` whose reference to it blocks its deletion (Go's
    /// `blockingDependents`).
    pub fn blocking_dependents(&self, owner: &Node) -> Vec<Node> {
        owner
            .dependents
            .iter()
            .filter_map(|uid| self.nodes.get(uid))
            .filter(|d| {
                d.owners
                    .iter()
                    .any(|o| o.uid == owner.identity.uid && o.block_owner_deletion == Some(true))
            })
            .cloned()
            .collect()
    }

    /// The dependents of `owner`.
    pub fn dependents(&self, owner: &Node) -> Vec<Node> {
        owner
            .dependents
            .iter()
            .filter_map(|uid| self.nodes.get(uid))
            .cloned()
            .collect()
    }
}
