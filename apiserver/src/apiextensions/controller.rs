//! The server's CRD controller: it watches the CRD store and, on every change, writes
//! the status kube-apiserver's controllers write ([`super::status`]), serves the
//! established CRDs, and deletes the objects of a deleted CRD before letting it go (Go's
//! `finalizer.CRDFinalizer`).

use std::collections::BTreeMap;
use std::sync::Arc;

use apimachinery::api::errors::{self, StatusError};
use apimachinery::apis::meta::v1::Time;
use apimachinery::managedfields::FieldManager;
use apimachinery::runtime::Scheme;
use apimachinery::schema::GroupVersion;
use futures_util::{FutureExt, StreamExt};
use serde_json::Value;
use tokio::sync::watch;
use tokio::task::JoinHandle;

use super::CustomResource;
use super::status::{CLEANUP_FINALIZER, ReservedNames, compute_statuses, is_true};
use crate::endpoints::fieldmanager::{self, SchemeConverter};
use crate::registry::{
    DeleteParams, RestStorage, Selection, Store, Subresource, convert, from_value, to_json,
};
use crate::storage::Storage;

/// The group of CRDs.
pub const GROUP: &str = "apiextensions.k8s.io";
/// The resource of CRDs.
pub const RESOURCE: &str = "customresourcedefinitions";

fn v1() -> GroupVersion {
    GroupVersion::new(GROUP, "v1")
}

/// What the controller needs of the server it serves custom resources for.
pub(crate) trait CustomResourceServer: Send + Sync + 'static {
    /// The scheme objects are converted with.
    fn scheme(&self) -> &Arc<Scheme>;
    /// The storage, which the controller watches.
    fn storage(&self) -> &Arc<dyn Storage>;
    /// The built-in names custom resources may not take.
    fn reserved(&self) -> &ReservedNames;
    /// Serves exactly `custom` besides the built-in resources from now on.
    fn install(&self, custom: &[Arc<CustomResource>]);
    /// The store of a resource served now.
    fn store(&self, group: &str, resource: &str) -> Option<Arc<Store>>;
    /// Changes to true when the server stops.
    fn shutdown(&self) -> watch::Receiver<bool>;
}

/// The CRD store among a server's REST storages, when its scheme has CRDs.
pub(crate) fn crd_store(
    storages: &BTreeMap<(String, String), Arc<dyn RestStorage>>,
) -> Option<Arc<Store>> {
    storages
        .get(&(GROUP.to_owned(), RESOURCE.to_owned()))
        .map(|rest| rest.store().clone())
}

/// Serves the CRDs already stored in `store`, then follows it until the server stops;
/// the task that follows it, which the server waits for when it shuts down.
pub(crate) async fn start(api: Arc<dyn CustomResourceServer>, store: Arc<Store>) -> JoinHandle<()> {
    // The CRDs stored before this server started are served when it answers its first
    // request.
    resync(&*api, &store).await;
    let prefix = store.info().collection_prefix(None);
    tokio::spawn(async move {
        let mut shutdown = api.shutdown();
        let stopped = |s: &tokio::sync::watch::Receiver<bool>| *s.borrow();
        while !stopped(&shutdown) {
            // Its own storage watch, not the watch cache's: the cache's outlives the
            // server, and this must not.
            let events = match api.storage().watch(&prefix, 0).await {
                Ok(events) => events,
                Err(e) => {
                    tracing::warn!(error = %e, "the CRD controller cannot watch CRDs; retrying");
                    tokio::select! {
                        _ = tokio::time::sleep(RETRY_PAUSE) => continue,
                        _ = shutdown.changed() => return,
                    }
                }
            };
            let mut events = events;
            // Whatever changed before the watch started.
            resync(&*api, &store).await;
            loop {
                tokio::select! {
                    event = events.next() => match event {
                        Some(Ok(_)) => {
                            // A pass covers every CRD: queued events add nothing.
                            while let Some(Some(Ok(_))) = events.next().now_or_never() {}
                            resync(&*api, &store).await;
                        }
                        Some(Err(e)) => {
                            tracing::warn!(error = %e, "the CRD controller's watch ended; watching again");
                            break;
                        }
                        None => break,
                    },
                    _ = shutdown.changed() => return,
                }
            }
        }
    })
}

/// One pass, whose failure is logged (the next event brings another).
async fn resync(api: &dyn CustomResourceServer, store: &Store) {
    if let Err(e) = sync(api, store).await {
        tracing::warn!(error = %e, "the CRD controller failed to sync the CRDs");
    }
}

/// How long the controller waits before watching again when the storage refuses.
const RETRY_PAUSE: std::time::Duration = std::time::Duration::from_millis(200);

/// One pass over every CRD: statuses written, established CRDs served, deleted ones
/// emptied and released.
async fn sync(api: &dyn CustomResourceServer, store: &Store) -> Result<(), StatusError> {
    let items = store.list_all(None, &Selection::default()).await?;
    let mut crds: Vec<Value> = Vec::with_capacity(items.len());
    for item in items {
        crds.push(to_json(&*convert(api.scheme(), item, &v1())?)?);
    }
    let created = |v: &Value| {
        (
            v.pointer("/metadata/creationTimestamp")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
            v.pointer("/metadata/name")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
        )
    };
    crds.sort_by_key(created);
    let now = serde_json::to_value(Time::now().truncate_to_seconds())
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default();
    let changed = compute_statuses(&mut crds, api.reserved(), &now);
    let mut served = Vec::new();
    for crd in &crds {
        if !is_true(crd, "Established") || !is_true(crd, "NamesAccepted") {
            continue;
        }
        if let Ok(cr) = CustomResource::from_json(crd) {
            served.push(Arc::new(cr));
        }
    }
    // Served before Established is written, so a client that sees the condition finds
    // the resource (a write that fails is retried by the next pass, which the watch
    // brings).
    api.install(&served);
    for i in changed {
        let name = created(&crds[i]).1;
        let status = crds[i]["status"].clone();
        let written = write(api.scheme(), store, &name, Subresource::Status, |v| {
            v["status"] = status.clone();
        })
        .await;
        if let Err(e) = written {
            tracing::warn!(crd = %name, error = %e, "the CRD controller failed to write a CRD's status");
        }
    }
    for cr in served.iter().filter(|cr| cr.terminating) {
        if let Err(e) = finalize(api, store, cr).await {
            tracing::warn!(crd = %cr.name, error = %e, "the CRD controller failed to delete a deleted CRD's objects");
        }
    }
    Ok(())
}

/// The manager kube-apiserver's own controllers write as (its user agent's first word).
const MANAGER: &str = "kube-apiserver";

/// Changes the stored CRD `name` (its `status` when `subresource` says so) with `edit`
/// on its v1 JSON. A write of the status is recorded in `managedFields` as Go's
/// controllers' writes through the REST storage are: manager `kube-apiserver`, an
/// `Update` of the status subresource in v1.
pub(crate) async fn write(
    scheme: &Arc<Scheme>,
    store: &Store,
    name: &str,
    subresource: Subresource,
    edit: impl Fn(&mut Value),
) -> Result<(), StatusError> {
    let scheme = scheme.clone();
    let storage_gv = store.info().storage_version();
    let gvk = v1().with_kind("CustomResourceDefinition");
    let types = fieldmanager::types_for(&gvk);
    let converter = SchemeConverter {
        scheme: &scheme,
        gvk: gvk.clone(),
        served: store.info().versions.clone(),
    };
    let tracked = (subresource == Subresource::Status).then(|| {
        let reset = store.reset_fields(subresource, "");
        FieldManager::new(&types, &v1().to_string(), "status", &converter).with_reset_fields(&reset)
    });
    let empty = fieldmanager::empty_object(&scheme, &gvk);
    store
        .update("", name, subresource, false, |current| {
            let mut v = to_json(&*convert(&scheme, current, &v1())?)?;
            let live = tracked.as_ref().map(|_| v.clone());
            edit(&mut v);
            if let (Some(fm), Some(live)) = (&tracked, &live) {
                fm.update(Some(live), &empty, &mut v, MANAGER, &fieldmanager::now());
            }
            let obj = from_value(&scheme, &gvk, v)?;
            convert(&scheme, obj, &storage_gv)
        })
        .await
        .map(|_| ())
}

/// Go's CRD finalizer: every object of a deleted CRD is deleted; when none is left, the
/// finalizer goes and the CRD with it.
async fn finalize(
    api: &dyn CustomResourceServer,
    crds: &Store,
    cr: &CustomResource,
) -> Result<(), StatusError> {
    let Some(store) = api.store(&cr.group, &cr.plural) else {
        return Ok(());
    };
    let everything = Selection::default();
    for obj in store.list_all(None, &everything).await? {
        let (ns, name) = obj
            .meta()
            .map(|m| (m.namespace().to_owned(), m.name().to_owned()))
            .unwrap_or_default();
        match store.delete(&ns, &name, &DeleteParams::default()).await {
            Ok(_) => {}
            Err(e) if errors::is_not_found(&e) => {}
            Err(e) => return Err(e),
        }
    }
    // Objects with finalizers of their own stay until those are removed; the CRD waits.
    if !store.list_all(None, &everything).await?.is_empty() {
        return Ok(());
    }
    write(api.scheme(), crds, &cr.name, Subresource::Main, |v| {
        if let Some(list) = v
            .pointer_mut("/metadata/finalizers")
            .and_then(Value::as_array_mut)
        {
            list.retain(|f| f != CLEANUP_FINALIZER);
        }
    })
    .await
}
