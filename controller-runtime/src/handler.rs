//! What a controller enqueues for an event (controller-runtime's `pkg/handler`).
//!
//! - [`EnqueueRequestForObject`]: the object itself (what `for_kind` uses);
//! - [`EnqueueRequestForOwner`]: the object's owner of a given kind, or only its
//!   controller (what `owns` uses);
//! - [`EnqueueRequestsFromMapFunc`]: whatever a function maps the object to.
//!
//! ```
//! use controller_runtime::handler::{EnqueueRequestForOwner, EventHandler};
//! use k8s_types::apps::v1::ReplicaSet;
//!
//! // Pods enqueue the ReplicaSet that controls them.
//! let h = EnqueueRequestForOwner::new::<ReplicaSet>(true);
//! # let _ = &h as &dyn EventHandler;
//! ```

use std::collections::BTreeSet;
use std::fmt;

use apimachinery::runtime::{Object, Resource, ResourceScope};
use apimachinery::schema::GroupKind;

use crate::event::{CreateEvent, DeleteEvent, GenericEvent, UpdateEvent};
use crate::reconcile::Request;
use crate::workqueue::WorkQueue;

/// Turns events into requests on the controller's queue.
pub trait EventHandler: Send + Sync {
    /// An object appeared.
    fn create(&self, event: &CreateEvent, queue: &WorkQueue<Request>);
    /// An object changed.
    fn update(&self, event: &UpdateEvent, queue: &WorkQueue<Request>);
    /// An object went away.
    fn delete(&self, event: &DeleteEvent, queue: &WorkQueue<Request>);
    /// Something asked for an object to be reconciled.
    fn generic(&self, event: &GenericEvent, queue: &WorkQueue<Request>);
}

/// Enqueues the object of the event (Go's `EnqueueRequestForObject`); for an update, the
/// new object.
#[derive(Clone, Copy, Debug, Default)]
pub struct EnqueueRequestForObject;

fn enqueue_object(obj: &dyn Object, queue: &WorkQueue<Request>) {
    if let Some(req) = Request::for_object(obj) {
        queue.add(req);
    }
}

impl EventHandler for EnqueueRequestForObject {
    fn create(&self, event: &CreateEvent, queue: &WorkQueue<Request>) {
        enqueue_object(&*event.object, queue);
    }
    fn update(&self, event: &UpdateEvent, queue: &WorkQueue<Request>) {
        enqueue_object(&*event.object_new, queue);
    }
    fn delete(&self, event: &DeleteEvent, queue: &WorkQueue<Request>) {
        enqueue_object(&*event.object, queue);
    }
    fn generic(&self, event: &GenericEvent, queue: &WorkQueue<Request>) {
        enqueue_object(&*event.object, queue);
    }
}

/// Enqueues the owners of one kind named in the object's owner references (Go's
/// `EnqueueRequestForOwner`); with `only_controller`, only the controller owner
/// (`controller: true`). References match by group and kind, whatever their version.
/// A namespaced owner is looked for in the object's namespace (owner references never
/// cross namespaces); a cluster-scoped one has no namespace.
#[derive(Clone, Debug)]
pub struct EnqueueRequestForOwner {
    owner: GroupKind,
    scope: ResourceScope,
    only_controller: bool,
}

impl EnqueueRequestForOwner {
    /// Enqueues owners of type `Owner`.
    pub fn new<Owner: Resource>(only_controller: bool) -> Self {
        Self::for_group_kind(
            GroupKind::new(Owner::GROUP, Owner::KIND),
            Owner::SCOPE,
            only_controller,
        )
    }

    /// Enqueues owners of the kind `owner` (an unstructured or metadata-only owner).
    pub fn for_group_kind(owner: GroupKind, scope: ResourceScope, only_controller: bool) -> Self {
        Self {
            owner,
            scope,
            only_controller,
        }
    }

    fn requests_into(&self, obj: &dyn Object, out: &mut BTreeSet<Request>) {
        let Some(meta) = obj.meta() else {
            return;
        };
        for r in meta.owner_references() {
            if self.only_controller && r.controller != Some(true) {
                continue;
            }
            // apiVersion is `group/version` or `version`: the group is before a slash.
            let group = r.api_version.rsplit_once('/').map_or("", |(g, _)| g);
            if r.kind != *self.owner.kind || group != &*self.owner.group {
                continue;
            }
            let namespace = match self.scope {
                ResourceScope::Namespaced => meta.namespace().to_owned(),
                ResourceScope::Cluster => String::new(),
            };
            out.insert(Request::new(namespace, r.name));
        }
    }

    fn enqueue(&self, objs: &[&dyn Object], queue: &WorkQueue<Request>) {
        let mut reqs = BTreeSet::new();
        for obj in objs {
            self.requests_into(*obj, &mut reqs);
        }
        for r in reqs {
            queue.add(r);
        }
    }
}

impl EventHandler for EnqueueRequestForOwner {
    fn create(&self, event: &CreateEvent, queue: &WorkQueue<Request>) {
        self.enqueue(&[&*event.object], queue);
    }
    /// Both the old and the new owners: a changed owner reference reconciles both.
    fn update(&self, event: &UpdateEvent, queue: &WorkQueue<Request>) {
        self.enqueue(&[&*event.object_old, &*event.object_new], queue);
    }
    fn delete(&self, event: &DeleteEvent, queue: &WorkQueue<Request>) {
        self.enqueue(&[&*event.object], queue);
    }
    fn generic(&self, event: &GenericEvent, queue: &WorkQueue<Request>) {
        self.enqueue(&[&*event.object], queue);
    }
}

type MapFn = Box<dyn Fn(&dyn Object) -> Vec<Request> + Send + Sync>;

/// Enqueues what a function maps the object to (Go's `EnqueueRequestsFromMapFunc`); for
/// an update, what both the old and the new object map to.
pub struct EnqueueRequestsFromMapFunc(MapFn);

impl fmt::Debug for EnqueueRequestsFromMapFunc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("EnqueueRequestsFromMapFunc")
    }
}

impl EnqueueRequestsFromMapFunc {
    /// Enqueues `map(object)`.
    pub fn new(map: impl Fn(&dyn Object) -> Vec<Request> + Send + Sync + 'static) -> Self {
        Self(Box::new(map))
    }

    /// Enqueues `map(object)` for objects of type `T` (Go's
    /// `TypedEnqueueRequestsFromMapFunc`); other objects enqueue nothing. For a watch of
    /// `T` ([`watches_kind::<T>`](crate::builder::ControllerBuilder::watches_kind)),
    /// every object is a `T`.
    ///
    /// ```
    /// use controller_runtime::handler::EnqueueRequestsFromMapFunc;
    /// use controller_runtime::reconcile::Request;
    /// use k8s_types::core::v1::ConfigMap;
    ///
    /// // A ConfigMap enqueues the object its `app` label names, in its namespace.
    /// let handler = EnqueueRequestsFromMapFunc::typed(|cm: &ConfigMap| {
    ///     let app = cm.metadata.labels.get("app");
    ///     app.map(|app| Request::new(&cm.metadata.namespace, app)).into_iter().collect()
    /// });
    /// # let _ = handler;
    /// ```
    pub fn typed<T: Object>(map: impl Fn(&T) -> Vec<Request> + Send + Sync + 'static) -> Self {
        Self::new(move |obj: &dyn Object| obj.downcast_ref::<T>().map_or_else(Vec::new, &map))
    }

    fn enqueue(&self, obj: &dyn Object, queue: &WorkQueue<Request>) {
        for r in (self.0)(obj) {
            queue.add(r);
        }
    }
}

impl EventHandler for EnqueueRequestsFromMapFunc {
    fn create(&self, event: &CreateEvent, queue: &WorkQueue<Request>) {
        self.enqueue(&*event.object, queue);
    }
    fn update(&self, event: &UpdateEvent, queue: &WorkQueue<Request>) {
        self.enqueue(&*event.object_old, queue);
        self.enqueue(&*event.object_new, queue);
    }
    fn delete(&self, event: &DeleteEvent, queue: &WorkQueue<Request>) {
        self.enqueue(&*event.object, queue);
    }
    fn generic(&self, event: &GenericEvent, queue: &WorkQueue<Request>) {
        self.enqueue(&*event.object, queue);
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use apimachinery::apis::meta::v1::OwnerReference;
    use k8s_types::apps::v1::ReplicaSet;
    use k8s_types::core::v1::{Namespace, Pod};
    use std::sync::Arc;

    fn pod(owners: Vec<OwnerReference>) -> Arc<dyn Object> {
        let mut p = Pod::default();
        p.metadata.name = "p".into();
        p.metadata.namespace = "ns".into();
        p.metadata.owner_references = owners;
        Arc::new(p)
    }

    fn owner(api_version: &str, kind: &str, name: &str, controller: bool) -> OwnerReference {
        OwnerReference {
            api_version: api_version.into(),
            kind: kind.into(),
            name: name.into(),
            uid: "u".into(),
            controller: controller.then_some(true),
            block_owner_deletion: None,
        }
    }

    async fn drain(q: &WorkQueue<Request>) -> Vec<Request> {
        let mut out = Vec::new();
        while !q.is_empty() {
            let r = q.get().await.unwrap();
            q.done(&r);
            out.push(r);
        }
        out
    }

    #[tokio::test]
    async fn for_object_enqueues_the_object() {
        let q = WorkQueue::new();
        let e = CreateEvent {
            object: pod(vec![]),
            is_in_initial_list: true,
        };
        EnqueueRequestForObject.create(&e, &q);
        assert_eq!(drain(&q).await, vec![Request::new("ns", "p")]);
    }

    #[tokio::test]
    async fn for_owner_matches_group_kind_and_controller() {
        let q = WorkQueue::new();
        let obj = pod(vec![
            owner("apps/v1", "ReplicaSet", "rs-ctl", true),
            owner("apps/v1beta2", "ReplicaSet", "rs-other", false),
            owner("v1", "ReplicaSet", "wrong-group", true),
            owner("apps/v1", "Deployment", "wrong-kind", true),
        ]);
        let e = CreateEvent {
            object: obj.clone(),
            is_in_initial_list: false,
        };
        EnqueueRequestForOwner::new::<ReplicaSet>(true).create(&e, &q);
        assert_eq!(drain(&q).await, vec![Request::new("ns", "rs-ctl")]);
        EnqueueRequestForOwner::new::<ReplicaSet>(false).create(&e, &q);
        assert_eq!(
            drain(&q).await,
            vec![Request::new("ns", "rs-ctl"), Request::new("ns", "rs-other")]
        );
        // A cluster-scoped owner has no namespace.
        let e = DeleteEvent {
            object: pod(vec![owner("v1", "Namespace", "team", true)]),
            delete_state_unknown: false,
        };
        EnqueueRequestForOwner::new::<Namespace>(true).delete(&e, &q);
        assert_eq!(drain(&q).await, vec![Request::new("", "team")]);
    }

    #[tokio::test]
    async fn a_typed_map_sees_its_type_and_skips_others() {
        let q = WorkQueue::new();
        let handler = EnqueueRequestsFromMapFunc::typed(|p: &Pod| {
            p.metadata
                .owner_references
                .iter()
                .map(|r| Request::new(&p.metadata.namespace, &r.name))
                .collect()
        });
        let e = CreateEvent {
            object: pod(vec![owner("apps/v1", "ReplicaSet", "rs", true)]),
            is_in_initial_list: false,
        };
        handler.create(&e, &q);
        assert_eq!(drain(&q).await, vec![Request::new("ns", "rs")]);
        let other = GenericEvent {
            object: Arc::new(Namespace::default()),
        };
        handler.generic(&other, &q);
        assert!(drain(&q).await.is_empty());
    }

    #[tokio::test]
    async fn updates_enqueue_old_and_new_owners() {
        let q = WorkQueue::new();
        let e = UpdateEvent {
            object_old: pod(vec![owner("apps/v1", "ReplicaSet", "old", true)]),
            object_new: pod(vec![owner("apps/v1", "ReplicaSet", "new", true)]),
        };
        EnqueueRequestForOwner::new::<ReplicaSet>(true).update(&e, &q);
        assert_eq!(
            drain(&q).await,
            vec![Request::new("ns", "new"), Request::new("ns", "old")]
        );
        EnqueueRequestsFromMapFunc::new(|o| {
            vec![Request::new(
                "mapped",
                o.meta().unwrap().owner_references()[0].name.clone(),
            )]
        })
        .update(&e, &q);
        assert_eq!(
            drain(&q).await,
            vec![Request::new("mapped", "old"), Request::new("mapped", "new")]
        );
    }
}
