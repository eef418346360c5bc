//! The generic REST store of one resource over [`Storage`] (Go's
//! `registry/generic/registry.Store`): objects are kept at the resource's storage
//! version, encoded as kube-apiserver stores them (the protobuf `k8s\0` envelope, or JSON
//! for custom resources), under kube-apiserver's keys; `resourceVersion` is the storage
//! revision and is never stored. What differs between resources is asked of their
//! [`Strategy`] at each step.
//!
//! Everything here works on objects of the storage version; the handlers convert from
//! and to the request's version.

use std::sync::Arc;

use apimachinery::api::errors::{self, StatusError};
use apimachinery::apis::meta::v1::Time;
use apimachinery::runtime::{Object, Scheme};
use apimachinery::schema::{GroupKind, GroupResource};
use apimachinery::util::validation::field::{Error, ErrorList, Path};

use super::cacher::Cacher;
use super::codec::decode_stored;
use super::delete_params::DeleteParams;
use super::graceful_delete::{GracefulOutcome, before_delete, mark_as_deleting};
use super::resource_info::ResourceInfo;
use super::selection::Selection;
use super::status_metadata::{self, StatusMetadata};
use super::strategy::{Strategy, Subresource};
use crate::storage::{
    KeyValue, OPTIMISTIC_LOCK_ERROR_MSG, Revision, Storage, StorageError, interpret_error,
    unsafe_delete_of_decodable,
};

mod list;
mod managed_times;
mod stored_form;

pub use list::Listed;

/// How many times an update without a client `resourceVersion` is retried when another
/// writer got there first (Go's `GuaranteedUpdate` retries until it applies).
const UPDATE_RETRIES: usize = 16;

/// What a list returns: objects at the storage version, with the list's metadata. The
/// items are the caller's own (`Box`), or shared with the watch cache (`Arc`, see
/// [`Listed`]).
#[derive(Debug)]
pub struct ListPage<T = Box<dyn Object>> {
    /// The objects, in key order.
    pub items: Vec<T>,
    /// The revision the list was read at.
    pub resource_version: Revision,
    /// The token of the next page, when there is one.
    pub continue_token: Option<String>,
    /// How many objects the next pages hold (only without selectors, as Go).
    pub remaining_item_count: Option<i64>,
}

// By hand: a derived `Default` would ask the items for one.
impl<T> Default for ListPage<T> {
    fn default() -> Self {
        ListPage {
            items: Vec::new(),
            resource_version: 0,
            continue_token: None,
            remaining_item_count: None,
        }
    }
}

/// What a list asks for.
#[derive(Clone, Debug, Default)]
pub struct ListParams {
    /// Label and field selectors.
    pub selection: Selection,
    /// At most this many items; 0 is all.
    pub limit: usize,
    /// A token from a previous page.
    pub continue_token: Option<String>,
    /// Read at this revision (`resourceVersion` other than `""` and `"0"`).
    pub revision: Revision,
}

/// The store of one resource.
#[derive(Debug)]
pub struct Store {
    scheme: Arc<Scheme>,
    storage: Arc<dyn Storage>,
    info: ResourceInfo,
    cacher: Arc<Cacher>,
    strategy: Arc<dyn Strategy>,
    status_metadata: StatusMetadata,
}

impl Store {
    /// The store of `info` in `storage`, whose writes go through `strategy`.
    pub fn new(
        scheme: Arc<Scheme>,
        storage: Arc<dyn Storage>,
        info: ResourceInfo,
        strategy: Arc<dyn Strategy>,
    ) -> Self {
        let cacher = Arc::new(Cacher::new(scheme.clone(), storage.clone(), info.clone()));
        Store {
            scheme,
            storage,
            info,
            cacher,
            strategy,
            status_metadata: StatusMetadata::WRITTEN,
        }
    }

    /// This store with `rule` for the metadata of `/status` writes (Go's status
    /// strategy of the kind); by default the metadata written is stored.
    pub fn with_status_metadata(mut self, rule: StatusMetadata) -> Self {
        self.status_metadata = rule;
        self
    }

    /// The fields a write of `subresource` leaves unowned (Go's `GetResetFields`): the
    /// strategy's, and on `/status` the metadata paths of the kind's rule.
    /// `version` is the request's, as for [`update_from`](Self::update_from).
    pub fn reset_fields(&self, subresource: Subresource, version: &str) -> Vec<&'static str> {
        let mut fields = self
            .strategy
            .reset_fields(&self.info_at(version), subresource)
            .to_vec();
        if subresource == Subresource::Status {
            for path in self.status_metadata.unowned {
                if !fields.contains(path) {
                    fields.push(path);
                }
            }
        }
        fields
    }

    /// The resource's strategy.
    pub fn strategy(&self) -> &dyn Strategy {
        &*self.strategy
    }

    /// The scheme objects are decoded and converted with.
    pub fn scheme(&self) -> &Arc<Scheme> {
        &self.scheme
    }

    /// The resource.
    pub fn info(&self) -> &ResourceInfo {
        &self.info
    }

    /// The watch cache of the resource.
    pub fn cacher(&self) -> &Arc<Cacher> {
        &self.cacher
    }

    fn qualified(&self) -> GroupResource {
        self.info.qualified_resource()
    }

    /// Go's store refusing an update of `name` that names no `resourceVersion` (`asked`
    /// empty) when the strategy does not allow unconditional updates: 422, checked
    /// before the update is prepared or validated.
    pub fn check_conditional(&self, name: &str, asked: &str) -> Result<(), StatusError> {
        if asked.is_empty() && !self.strategy.allow_unconditional_update() {
            return Err(resource_version_required(&self.qualified(), name));
        }
        Ok(())
    }

    /// Decodes a stored value, sets its `resourceVersion` from the revision and
    /// decorates it as the strategy says (a custom resource is defaulted).
    pub fn decode(&self, kv: &KeyValue) -> Result<Box<dyn Object>, StatusError> {
        let mut obj = decode_stored(&self.scheme, kv)?;
        self.strategy.decorate(&mut *obj);
        Ok(obj)
    }

    /// The storage's current revision (etcd's, which every resource's writes move).
    pub async fn current_revision(&self) -> Result<Revision, StatusError> {
        self.storage
            .current_revision()
            .await
            .map_err(|e| interpret_error(e, &self.qualified(), ""))
    }

    /// Checks that the store has reached `revision` (a list "not older than" it); Go's
    /// 504 "Too large resource version" otherwise.
    pub async fn ensure_reached(&self, revision: Revision) -> Result<(), StatusError> {
        let current = self.current_revision().await?;
        if revision > current {
            return Err(interpret_error(
                StorageError::FutureRevision {
                    requested: revision,
                    current,
                },
                &self.qualified(),
                "",
            ));
        }
        Ok(())
    }

    /// One object.
    pub async fn get(&self, namespace: &str, name: &str) -> Result<Box<dyn Object>, StatusError> {
        Ok(self.read(namespace, name, true).await?.0)
    }

    /// One object and its stored value, for a write to start from: from the watch cache
    /// unless `fresh` (or the cache cannot tell), else from the storage. The flag says
    /// whether it came from the storage; a cached one may be older than the storage's,
    /// which the write's compare-and-swap finds out (Go's `GuaranteedUpdate` starting
    /// from its cached object).
    pub async fn read(
        &self,
        namespace: &str,
        name: &str,
        fresh: bool,
    ) -> Result<(Box<dyn Object>, KeyValue, bool), StatusError> {
        let (kv, from_storage) = self.read_stored(namespace, name, fresh).await?;
        Ok((self.decode(&kv)?, kv, from_storage))
    }

    /// [`read`](Self::read) without decoding: the stored value, and whether it came
    /// from the storage (for callers that can often answer from the value's revision).
    pub async fn read_stored(
        &self,
        namespace: &str,
        name: &str,
        fresh: bool,
    ) -> Result<(KeyValue, bool), StatusError> {
        let key = self.info.key(namespace, name);
        if !fresh {
            if let Some((kv, _)) = self.cacher.current(&key).await {
                return Ok((kv, false));
            }
        }
        Ok((self.stored(&key, name).await?, true))
    }

    /// The stored value of `key` (the object `name`), read from the storage; NotFound
    /// when there is none.
    async fn stored(&self, key: &str, name: &str) -> Result<KeyValue, StatusError> {
        match self.storage.get(key).await {
            Ok(Some(kv)) => Ok(kv),
            Ok(None) => Err(errors::new_not_found(&self.qualified(), name)),
            Err(e) => Err(interpret_error(e, &self.qualified(), name)),
        }
    }

    /// One object as the watch cache has it, for reads that accept any recent state
    /// (`resourceVersion=0`, Go serves those from its watch cache); from the storage when
    /// the cache cannot tell.
    pub async fn get_cached(
        &self,
        namespace: &str,
        name: &str,
    ) -> Result<Box<dyn Object>, StatusError> {
        Ok(self.read(namespace, name, false).await?.0)
    }

    /// Every stored value of the resource, for readers that would use an informer in
    /// Go (admission plugins): from the watch cache once it has seen this server's own
    /// writes, else from the storage.
    pub async fn list_stored(&self) -> Result<Vec<KeyValue>, StatusError> {
        if let Some(kvs) = self.cacher.list_current().await {
            return Ok(kvs);
        }
        let prefix = self.info.collection_prefix(None);
        self.storage
            .list(&prefix, &crate::storage::ListOptions::default())
            .await
            .map(|listed| listed.kvs)
            .map_err(|e| interpret_error(e, &self.qualified(), ""))
    }

    /// The storage's revision of `name` now, when a write that started from a cached
    /// object failed: the same revision means the failure stands.
    pub async fn revision_of(&self, namespace: &str, name: &str) -> Option<Revision> {
        let key = self.info.key(namespace, name);
        self.storage
            .get(&key)
            .await
            .ok()
            .flatten()
            .map(|kv| kv.mod_revision)
    }

    /// Creates `obj` (at the storage version, defaulted): sets the server's metadata,
    /// resolves `generateName`, and writes it unless `dry_run`.
    pub async fn create(
        &self,
        namespace: &str,
        mut obj: Box<dyn Object>,
        dry_run: bool,
    ) -> Result<Box<dyn Object>, StatusError> {
        let Some(meta) = obj.meta_mut() else {
            return Err(errors::new_bad_request(format!(
                "{} objects have no metadata",
                self.info.kind
            )));
        };
        if self.info.namespaced {
            meta.set_namespace(namespace);
        } else {
            meta.set_namespace("");
        }
        meta.set_uid(&uuid::Uuid::new_v4().to_string());
        meta.set_creation_timestamp(Time::now().truncate_to_seconds());
        meta.set_deletion_timestamp(None);
        meta.set_deletion_grace_period_seconds(None);
        meta.set_resource_version("");
        let generation = self.info.has_spec && self.strategy.tracks_generation();
        meta.set_generation(i64::from(generation));
        let generate = meta.name().is_empty() && !meta.generate_name().is_empty();
        if meta.name().is_empty() && !generate {
            let required = Error::required(
                &Path::new("metadata").child("name"),
                "name or generateName is required",
            );
            return Err(errors::new_invalid(
                &self.info.qualified_kind(),
                "",
                &ErrorList(vec![required]),
            ));
        }
        obj = self
            .strategy
            .prepare_for_create(&self.scheme, &self.info, obj)?;
        // A generated name that is taken is retried with another suffix, as Go's
        // clients do on AlreadyExists; the store does it itself.
        for _ in 0..8 {
            if generate {
                if let Some(meta) = obj.meta_mut() {
                    let name = format!("{}{}", meta.generate_name(), random_suffix());
                    meta.set_name(&name);
                }
            }
            let name = obj.meta().map(|m| m.name().to_owned()).unwrap_or_default();
            self.strategy
                .validate(&self.scheme, &self.info, &*obj, None, Subresource::Main)?;
            self.strategy.canonicalize(&mut *obj);
            if dry_run {
                if self
                    .storage
                    .get(&self.info.key(namespace, &name))
                    .await
                    .map_err(|e| interpret_error(e, &self.qualified(), &name))?
                    .is_some()
                {
                    if generate {
                        continue;
                    }
                    return Err(errors::new_already_exists(&self.qualified(), &name));
                }
                // Go's dry run answers the object read back from its encoding too.
                let (value, lossy) = self.encode(&mut *obj)?;
                return self.answer(obj, lossy.then_some(&value));
            }
            let (value, lossy) = self.encode(&mut *obj)?;
            // Kept only to be read back (a clone of `Bytes` shares it, but allocates).
            let read_back = lossy.then(|| value.clone());
            match self
                .storage
                .create(&self.info.key(namespace, &name), value)
                .await
            {
                Ok(kv) => {
                    self.cacher.note_write(kv.mod_revision);
                    if let Some(meta) = obj.meta_mut() {
                        meta.set_resource_version(&kv.mod_revision.to_string());
                    }
                    return self.answer(obj, read_back.as_ref());
                }
                Err(StorageError::KeyExists { .. }) if generate => continue,
                Err(e) => return Err(interpret_error(e, &self.qualified(), &name)),
            }
        }
        Err(errors::new_internal_error(format!(
            "could not generate a free name for {}",
            self.qualified()
        )))
    }

    /// Updates one object: `update` gets the current object (storage version) and
    /// returns the new one, whose `resourceVersion`, when set, must still be current
    /// (409 Conflict otherwise). Without one, a concurrent write is retried, as Go's
    /// `GuaranteedUpdate` does. With `create_if_missing` (PUT of a name that does not
    /// exist, for kinds Go allows it), a missing object is created from `update(None)`.
    pub async fn update<F>(
        &self,
        namespace: &str,
        name: &str,
        subresource: Subresource,
        dry_run: bool,
        update: F,
    ) -> Result<Box<dyn Object>, StatusError>
    where
        F: FnMut(Box<dyn Object>) -> Result<Box<dyn Object>, StatusError>,
    {
        self.update_from(namespace, name, subresource, "", dry_run, None, update)
            .await
    }

    /// The resource as a write at `version` sees it: a custom resource's version that
    /// does not serve `/status` writes the status with the object, as a kind without
    /// one does (Go's strategy of that version has no status). `""` is every version.
    fn info_at(&self, version: &str) -> std::borrow::Cow<'_, ResourceInfo> {
        if version.is_empty() || !self.info.has_status || self.info.has_status_at(version) {
            return std::borrow::Cow::Borrowed(&self.info);
        }
        let mut info = self.info.clone();
        info.has_status = false;
        std::borrow::Cow::Owned(info)
    }

    /// [`update`](Self::update) starting from `known`, the stored value the caller
    /// read (from the watch cache, say) instead of reading it again: one compare-and-swap
    /// when it is still current. A `known` value older than the storage's makes the swap
    /// fail; the update is then a conflict when it carries a `resourceVersion`, and is
    /// retried from the storage otherwise. `version` is the request's (`""` for the
    /// server's own writes), for what a custom resource's version does with the status.
    #[allow(clippy::too_many_arguments)]
    pub async fn update_from<F>(
        &self,
        namespace: &str,
        name: &str,
        subresource: Subresource,
        version: &str,
        dry_run: bool,
        mut known: Option<KeyValue>,
        mut update: F,
    ) -> Result<Box<dyn Object>, StatusError>
    where
        F: FnMut(Box<dyn Object>) -> Result<Box<dyn Object>, StatusError>,
    {
        let key = self.info.key(namespace, name);
        let qualified = self.qualified();
        let info = self.info_at(version);
        for _ in 0..UPDATE_RETRIES {
            let from_known = known.is_some();
            let kv = match known.take() {
                Some(kv) => kv,
                None => self.stored(&key, name).await?,
            };
            let current = self.decode(&kv)?;
            let mut new = update(current.deep_copy_object())?;
            let asked = new
                .meta()
                .map(|m| m.resource_version().to_owned())
                .unwrap_or_default();
            if !asked.is_empty() && asked != kv.mod_revision.to_string() {
                return Err(errors::new_conflict(
                    &qualified,
                    name,
                    OPTIMISTIC_LOCK_ERROR_MSG,
                ));
            }
            if let Some(meta) = new.meta() {
                if meta.name() != name {
                    return Err(errors::new_bad_request(format!(
                        "the name of the object ({}) does not match the name on the URL ({name})",
                        meta.name()
                    )));
                }
            }
            self.check_conditional(name, &asked)?;
            new = self.strategy.prepare_for_update(
                &self.scheme,
                &info,
                &*current,
                new,
                subresource,
            )?;
            if subresource == Subresource::Status {
                status_metadata::keep(self.status_metadata, &*current, &mut *new);
            }
            // An update without a resourceVersion is unconditional: Go's store gives it
            // the stored one before validation (which requires one on every update).
            if asked.is_empty() {
                if let Some(meta) = new.meta_mut() {
                    meta.set_resource_version(&kv.mod_revision.to_string());
                }
            }
            self.strategy
                .validate(&self.scheme, &info, &*new, Some(&*current), subresource)?;
            self.strategy.canonicalize(&mut *new);
            self.keep_times_of_a_no_op(&mut *new, &*current, &kv.value)?;
            // The last finalizer of an object being deleted is gone: delete it now (Go's
            // `ShouldDeleteDuringUpdate`), unless the delete was graceful (a Pod its
            // kubelet still stops keeps its updates until the grace period is over).
            let finished = new.meta().is_some_and(|m| m.finalizers().is_empty())
                && current.meta().is_some_and(|m| {
                    m.deletion_timestamp().is_some()
                        && m.deletion_grace_period_seconds().unwrap_or(0) == 0
                })
                && self.strategy.finalized(&*new);
            if dry_run {
                // Go's dry run answers the object read back from its encoding too.
                let asked_rv = new.meta().map(|m| m.resource_version().to_owned());
                let (value, lossy) = self.encode(&mut *new)?;
                if let (Some(meta), Some(rv)) = (new.meta_mut(), asked_rv) {
                    meta.set_resource_version(&rv);
                }
                return self.answer(new, lossy.then_some(&value));
            }
            if finished {
                return match self.storage.delete_at(&key, kv.mod_revision).await {
                    Ok(revision) => {
                        self.cacher.note_write(revision);
                        Ok(new)
                    }
                    Err(StorageError::Conflict { .. }) if asked.is_empty() => continue,
                    Err(e) => Err(interpret_error(e, &qualified, name)),
                };
            }
            let (value, lossy) = self.encode(&mut *new)?;
            let read_back = lossy.then(|| value.clone());
            if value == kv.value {
                // Nothing changed: Go answers with the stored object and writes nothing,
                // once it knows that object is the storage's.
                if from_known && self.revision_of(namespace, name).await != Some(kv.mod_revision) {
                    if asked.is_empty() {
                        continue;
                    }
                    return Err(errors::new_conflict(
                        &qualified,
                        name,
                        OPTIMISTIC_LOCK_ERROR_MSG,
                    ));
                }
                return Ok(current);
            }
            match self.storage.update_at(&key, value, kv.mod_revision).await {
                Ok(written) => {
                    self.cacher.note_write(written);
                    if let Some(meta) = new.meta_mut() {
                        meta.set_resource_version(&written.to_string());
                    }
                    return self.answer(new, read_back.as_ref());
                }
                Err(StorageError::Conflict { .. }) if asked.is_empty() => continue,
                Err(e) => return Err(interpret_error(e, &qualified, name)),
            }
        }
        Err(errors::new_conflict(
            &qualified,
            name,
            "too many concurrent writers; try again",
        ))
    }

    /// Go's `Storage.GuaranteedUpdate` past the strategy: `edit` changes the stored
    /// object as it is (no field resets, defaulting or validation), for the writes Go's
    /// registries make themselves (a CRD's first delete marks it terminating). Retried
    /// on conflicts; answers the object as written (as it would be, for `dry_run`).
    pub async fn update_stored<F>(
        &self,
        namespace: &str,
        name: &str,
        dry_run: bool,
        mut edit: F,
    ) -> Result<Box<dyn Object>, StatusError>
    where
        F: FnMut(Box<dyn Object>) -> Result<Box<dyn Object>, StatusError>,
    {
        let key = self.info.key(namespace, name);
        let qualified = self.qualified();
        for _ in 0..UPDATE_RETRIES {
            let kv = self.stored(&key, name).await?;
            let mut obj = edit(self.decode(&kv)?)?;
            let (value, lossy) = self.encode(&mut *obj)?;
            let read_back = lossy.then(|| value.clone());
            let mut revision = kv.mod_revision;
            if !dry_run && value != kv.value {
                match self.storage.update_at(&key, value, kv.mod_revision).await {
                    Ok(written) => {
                        self.cacher.note_write(written);
                        revision = written;
                    }
                    Err(StorageError::Conflict { .. }) => continue,
                    Err(e) => return Err(interpret_error(e, &qualified, name)),
                }
            }
            if let Some(meta) = obj.meta_mut() {
                meta.set_resource_version(&revision.to_string());
            }
            return self.answer(obj, read_back.as_ref());
        }
        Err(errors::new_conflict(
            &qualified,
            name,
            "too many concurrent writers; try again",
        ))
    }

    /// Deletes an object the storage holds but cannot decode, as Go's
    /// `corruptObjectDeleter` does for `ignoreStoreReadErrorWithClusterBreakingPotential`:
    /// read afresh from the storage, with no preconditions, finalizers, graceful period
    /// or admission, since there is no object to take them from. An object that decodes
    /// is refused (409, in the words of Go's etcd store) and a missing one is 404; a dry
    /// run stops once the delete would have gone ahead.
    pub async fn delete_corrupt(
        &self,
        namespace: &str,
        name: &str,
        dry_run: bool,
    ) -> Result<(), StatusError> {
        let key = self.info.key(namespace, name);
        let mut result = Ok(());
        // Written meanwhile: read again, as Go's conditional delete does.
        for _ in 0..UPDATE_RETRIES {
            let kv = self.stored(&key, name).await?;
            if decode_stored(&self.scheme, &kv).is_ok() {
                return Err(unsafe_delete_of_decodable(&self.qualified(), name, &key));
            }
            if dry_run {
                return Ok(());
            }
            result = match self.storage.delete(&key, Some(kv.mod_revision)).await {
                Ok(_) => return Ok(()),
                Err(e @ StorageError::Conflict { .. }) => {
                    Err(interpret_error(e, &self.qualified(), name))
                }
                Err(e) => return Err(interpret_error(e, &self.qualified(), name)),
            };
        }
        result
    }

    /// Deletes one object as Go's `Store.Delete` does: a Pod is marked for graceful
    /// deletion (see [`before_delete`]), an object with finalizers is only marked
    /// (`deletionTimestamp`), anything else goes at once. Returns the object as deleted
    /// or marked, and whether it is gone.
    pub async fn delete(
        &self,
        namespace: &str,
        name: &str,
        params: &DeleteParams,
    ) -> Result<(Box<dyn Object>, bool), StatusError> {
        self.delete_from(namespace, name, params, None).await
    }

    /// [`delete`](Self::delete) starting from `known`, the stored value the caller read
    /// (from the watch cache, say): one conditional delete when it is still current,
    /// read again from the storage when the condition fails.
    pub async fn delete_from(
        &self,
        namespace: &str,
        name: &str,
        params: &DeleteParams,
        mut known: Option<KeyValue>,
    ) -> Result<(Box<dyn Object>, bool), StatusError> {
        let key = self.info.key(namespace, name);
        let qualified = self.qualified();
        let now = Time::now().truncate_to_seconds();
        for _ in 0..UPDATE_RETRIES {
            let kv = match known.take() {
                Some(kv) => kv,
                None => self.stored(&key, name).await?,
            };
            let mut obj = self.decode(&kv)?;
            let (uid, rv, mut finalizers) = match obj.meta() {
                Some(m) => (
                    m.uid().to_owned(),
                    m.resource_version().to_owned(),
                    m.finalizers(),
                ),
                None => Default::default(),
            };
            // Go's `BeforeDelete` checks them first, naming the kind where the resource
            // would be.
            let kind = GroupResource::new(self.info.group.as_str(), self.info.kind.as_str());
            if let Some(want) = &params.precondition_uid {
                if *want != uid {
                    return Err(errors::new_conflict(
                        &kind,
                        name,
                        format!(
                            "the UID in the precondition ({want}) does not match the UID in record ({uid}). The object might have been deleted and then recreated"
                        ),
                    ));
                }
            }
            if let Some(want) = &params.precondition_resource_version {
                if *want != rv {
                    return Err(errors::new_conflict(
                        &kind,
                        name,
                        format!(
                            "the ResourceVersion in the precondition ({want}) does not match the ResourceVersion in record ({rv}). The object might have been modified"
                        ),
                    ));
                }
            }
            let graceful = match before_delete(
                &*self.strategy,
                &mut *obj,
                params.grace_period_seconds,
                now,
            )? {
                // Already going with no longer a period: finalizers stay as they are too.
                GracefulOutcome::Pending => return Ok((obj, false)),
                GracefulOutcome::Graceful { period } => Some(period),
                GracefulOutcome::Immediate => None,
            };
            // Go records the propagation policy as a finalizer the garbage collector
            // acts on (the `controller-manager` crate's, when it runs).
            let gc_policy = self.strategy.garbage_collection_policy(&params.api_version);
            if let Some(wanted) = params.finalizers_for_garbage_collection(gc_policy, &finalizers) {
                finalizers = wanted;
            }
            let held = !finalizers.is_empty();
            let mut revision = kv.mod_revision;
            let mut written = false;
            if graceful.is_some() || held {
                // First the mark (Go's `updateForGracefulDeletionAndFinalizers`): a Pod's
                // grace period, or "deleting" for finalizers.
                if let Some(meta) = obj.meta_mut() {
                    meta.set_finalizers(finalizers);
                }
                if graceful.is_none() {
                    mark_as_deleting(&mut *obj, now);
                }
                // Marked and kept: by finalizers, or until the grace period ends.
                let kept = held || graceful.is_some_and(|p| p > 0);
                let (value, _) = self.encode(&mut *obj)?;
                if params.dry_run {
                    if let Some(meta) = obj.meta_mut() {
                        meta.set_resource_version(&kv.mod_revision.to_string());
                    }
                    return Ok((obj, !kept));
                }
                if value != kv.value {
                    match self.storage.update_at(&key, value, kv.mod_revision).await {
                        Ok(marked_at) => {
                            self.cacher.note_write(marked_at);
                            revision = marked_at;
                            written = true;
                        }
                        Err(StorageError::Conflict { .. }) => continue,
                        Err(e) => return Err(interpret_error(e, &qualified, name)),
                    }
                }
                if let Some(meta) = obj.meta_mut() {
                    meta.set_resource_version(&revision.to_string());
                }
                if kept {
                    return Ok((obj, false));
                }
            } else if params.dry_run {
                return Ok((obj, true));
            }
            match self.storage.delete_at(&key, revision).await {
                Ok(deleted_at) => {
                    self.cacher.note_write(deleted_at);
                    if let Some(meta) = obj.meta_mut() {
                        meta.set_resource_version(&deleted_at.to_string());
                    }
                    return Ok((obj, true));
                }
                // Between the mark with no grace period and the delete, someone else
                // deleted it: what was asked for happened (Go ignores this NotFound too).
                Err(StorageError::KeyNotFound { .. }) if written => return Ok((obj, true)),
                Err(StorageError::Conflict { .. }) => continue,
                Err(e) => return Err(interpret_error(e, &qualified, name)),
            }
        }
        Err(errors::new_conflict(
            &qualified,
            name,
            "too many concurrent writers; try again",
        ))
    }
}

/// Go's `utilrand.String(5)` alphabet: no vowels or look-alike characters.
pub(crate) fn random_suffix() -> String {
    const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
    let bytes = uuid::Uuid::new_v4().into_bytes();
    bytes
        .iter()
        .take(5)
        .map(|b| ALPHABET[usize::from(*b) % ALPHABET.len()] as char)
        .collect()
}

/// Go's store refusing an update without a `resourceVersion` of a resource whose strategy
/// does not allow unconditional updates: 422 naming the resource where the kind usually
/// is (`csidrivers.storage.k8s.io "x" is invalid`), and the version it read, 0.
fn resource_version_required(qualified: &GroupResource, name: &str) -> StatusError {
    let kind = GroupKind::new(qualified.group.as_str(), qualified.resource.as_str());
    let metadata = Path::new("metadata");
    let required = Error::invalid(
        &metadata.child("resourceVersion"),
        0i64,
        "must be specified for an update",
    );
    errors::new_invalid(&kind, name, &ErrorList(vec![required]))
}
