//! Writes with admission inside, as Go's `GuaranteedUpdate` and `Delete` run it: the
//! current object read, the new one computed and admitted, and written only if the
//! object is still the one admitted; another writer's change starts the round again.

use apimachinery::api::errors::{self, StatusError};
use apimachinery::runtime::Object;
use apimachinery::schema::GroupVersionKind;

use super::{Handler, resource_version};
use crate::admission;
use crate::registry::DeleteParams;
use crate::registry::Subresource;
use crate::storage::{self, OPTIMISTIC_LOCK_ERROR_MSG};

/// How many times an admitted write is admitted again when another writer changed the
/// object between its read and its write (the store's own retry count).
const ADMITTED_WRITE_RETRIES: usize = 16;

impl Handler<'_> {
    /// Runs the admission chain on a write whose object is `obj` (storage version) and
    /// whose current object is `old`; returns the object as the plugins left it and
    /// their warnings.
    pub(super) async fn run_admission(
        &self,
        operation: admission::Operation,
        obj: Box<dyn Object>,
        old: Option<Box<dyn Object>>,
        dry_run: bool,
    ) -> Result<(Box<dyn Object>, Vec<String>), StatusError> {
        let (obj, warnings) = self
            .run_admission_of(operation, self.request_gvk(), Some(obj), old, dry_run)
            .await?;
        let obj = obj
            .ok_or_else(|| errors::new_internal_error("an admission plugin removed the object"))?;
        Ok((obj, warnings))
    }

    /// Runs the admission chain on a write of kind `kind` (the request's kind, or
    /// `Scale` for `/scale`); `obj` is `None` on delete.
    pub(super) async fn run_admission_of(
        &self,
        operation: admission::Operation,
        kind: GroupVersionKind,
        obj: Option<Box<dyn Object>>,
        old: Option<Box<dyn Object>>,
        dry_run: bool,
    ) -> Result<(Option<Box<dyn Object>>, Vec<String>), StatusError> {
        let (obj, _, warnings) = self
            .run_admission_keeping_old(operation, kind, obj, old, dry_run)
            .await?;
        Ok((obj, warnings))
    }

    /// [`run_admission_of`](Self::run_admission_of), giving the old object back (the
    /// plugins read it, none keeps it) for what runs after the write.
    async fn run_admission_keeping_old(
        &self,
        operation: admission::Operation,
        kind: GroupVersionKind,
        obj: Option<Box<dyn Object>>,
        old: Option<Box<dyn Object>>,
        dry_run: bool,
    ) -> Result<
        (
            Option<Box<dyn Object>>,
            Option<Box<dyn Object>>,
            Vec<String>,
        ),
        StatusError,
    > {
        let info = self.store.info();
        let name = obj
            .as_ref()
            .and_then(|o| o.meta())
            .map(|m| m.name().to_owned())
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| self.info.name.clone());
        let mut attributes = admission::Attributes {
            operation,
            user: self.user.clone(),
            kind,
            resource: self.request_gv().with_resource(info.resource.as_str()),
            subresource: self.info.subresource.clone(),
            namespace: self.namespace().to_owned(),
            name,
            object: obj,
            old_object: old,
            dry_run,
            scheme: self.scheme.clone(),
            reports: admission::Reports::default(),
        };
        self.admission.run(&mut attributes).await?;
        let warnings = attributes.reports.warnings();
        self.pending_warnings.add(&warnings);
        Ok((attributes.object, attributes.old_object, warnings))
    }

    /// The admission chain on an update of `current` to `new`: the admitted object, the
    /// current one given back, and the plugins' warnings.
    async fn run_update_admission(
        &self,
        new: Box<dyn Object>,
        current: Box<dyn Object>,
        dry_run: bool,
    ) -> Result<(Box<dyn Object>, Box<dyn Object>, Vec<String>), StatusError> {
        let kind = self.request_gvk();
        let (obj, old, warnings) = self
            .run_admission_keeping_old(
                admission::Operation::Update,
                kind,
                Some(new),
                Some(current),
                dry_run,
            )
            .await?;
        let obj = obj
            .ok_or_else(|| errors::new_internal_error("an admission plugin removed the object"))?;
        let old = old.ok_or_else(|| {
            errors::new_internal_error("an admission plugin removed the old object")
        })?;
        Ok((obj, old, warnings))
    }

    /// An update as Go's `GuaranteedUpdate` runs it with admission inside: the current
    /// object is read, `compute` makes the new one from it, the admission chain (whose
    /// webhooks are async, which the store's synchronous update closure cannot await)
    /// admits it, and the store writes it only if the object is still at the
    /// resourceVersion read. When another writer got there first and the client named
    /// no resourceVersion, the whole round (admission included) runs again; nothing is
    /// stored when admission refuses. `uid`, when given (the uid a PUT's body carries),
    /// is a precondition checked first, as Go's `GuaranteedUpdate` checks it: an object
    /// with another uid is a 409 Conflict, before any conflict of resourceVersions,
    /// admission or validation.
    pub(super) async fn admitted_update<F>(
        &self,
        dry_run: bool,
        uid: Option<&str>,
        mut compute: F,
    ) -> Result<(Box<dyn Object>, Vec<String>), StatusError>
    where
        F: FnMut(Box<dyn Object>) -> Result<Box<dyn Object>, StatusError>,
    {
        let ns = self.namespace();
        let name = self.info.name.as_str();
        // The first attempt starts from the watch cache's object: when it is current, the
        // write is one compare-and-swap. Whatever fails on a cached object that may be
        // older than the storage's is tried again from the storage (Go's
        // `GuaranteedUpdate` with a cached object does the same).
        let mut fresh = false;
        for _ in 0..ADMITTED_WRITE_RETRIES {
            let (current, kv, current_is_fresh) = self.store.read(ns, name, fresh).await?;
            let current_rv = resource_version(&*current);
            let rev = kv.mod_revision;
            let stored_uid = current.meta().map(|m| m.uid()).unwrap_or_default();
            if let Some(wanted) = uid.filter(|u| *u != stored_uid) {
                if self.stale_read(current_is_fresh, ns, name, rev).await {
                    fresh = true;
                    continue;
                }
                let key = self.store.info().key(ns, name);
                return Err(storage::uid_precondition_failed(
                    &self.qualified(),
                    name,
                    &key,
                    wanted,
                    stored_uid,
                ));
            }
            let computed = compute(current.deep_copy_object()).and_then(|new| {
                let asked = resource_version(&*new);
                if !asked.is_empty() && asked != current_rv {
                    return Err(errors::new_conflict(
                        &self.qualified(),
                        name,
                        OPTIMISTIC_LOCK_ERROR_MSG,
                    ));
                }
                // A PUT naming no resourceVersion, where the strategy requires one. Patches
                // and applies (whose objects come from the stored one, with its version)
                // and `/scale` writes (Go's keep the version read) are not refused.
                if self.info.verb == "update" && self.info.subresource != "scale" {
                    self.store.check_conditional(name, &asked)?;
                }
                Ok((new, asked))
            });
            let (new, asked) = match computed {
                Ok(v) => v,
                Err(_) if self.stale_read(current_is_fresh, ns, name, rev).await => {
                    fresh = true;
                    continue;
                }
                Err(e) => return Err(e),
            };
            let admitted = if self.info.subresource == "scale" {
                let admitted = self.admit_scale(new, &*current, dry_run).await;
                admitted.map(|(new, warnings)| (new, current, warnings))
            } else {
                self.run_update_admission(new, current, dry_run).await
            };
            let (mut new, current, mut warnings) = match admitted {
                Ok(v) => v,
                Err(_) if self.stale_read(current_is_fresh, ns, name, rev).await => {
                    fresh = true;
                    continue;
                }
                Err(e) => return Err(e),
            };
            if let Some(meta) = new.meta_mut() {
                meta.set_resource_version(if asked.is_empty() {
                    &current_rv
                } else {
                    &asked
                });
            }
            let mut once = Some(new);
            let written = self
                .store
                .update_from(
                    ns,
                    name,
                    self.subresource(),
                    &self.info.api_version,
                    dry_run,
                    Some(kv),
                    |_| {
                        once.take().ok_or_else(|| {
                            errors::new_conflict(&self.qualified(), name, OPTIMISTIC_LOCK_ERROR_MSG)
                        })
                    },
                )
                .await;
            match written {
                Err(e) if errors::is_conflict(&e) && (asked.is_empty() || !current_is_fresh) => {
                    fresh = true;
                }
                // The store's own checks of a cached object (4xx) are redone on the
                // storage's. A storage error (5xx: no answer in time, a lost connection)
                // leaves the write's outcome unknown, and it may have been applied: it is
                // the answer, never a reason to write again (which would apply a patch
                // twice, or refuse a PUT with 409 against the object it wrote itself).
                Err(e)
                    if e.code() < 500 && self.stale_read(current_is_fresh, ns, name, rev).await =>
                {
                    fresh = true;
                }
                Err(e) => return Err(e),
                Ok(written) => {
                    // Go's strategy's `WarningsOnUpdate` (or its status strategy's),
                    // which run on the object prepared and found valid.
                    warnings.extend(match self.subresource() {
                        Subresource::Main => {
                            self.strategy().warnings_on_update(&*written, &*current)
                        }
                        Subresource::Status => self
                            .strategy()
                            .warnings_on_status_update(&*written, &*current),
                        Subresource::Finalize
                        | Subresource::Resize
                        | Subresource::EphemeralContainers
                        | Subresource::Approval => Vec::new(),
                    });
                    return Ok((written, warnings));
                }
            }
        }
        Err(errors::new_conflict(
            &self.qualified(),
            name,
            "too many concurrent writers; try again",
        ))
    }

    /// Deletes one object after the admission chain admitted its deletion (with the
    /// object as `old_object`), only if it is still the object admitted; retried as
    /// [`admitted_update`](Self::admitted_update) is.
    pub(super) async fn admitted_delete(
        &self,
        namespace: &str,
        name: &str,
        params: &DeleteParams,
    ) -> Result<(Box<dyn Object>, bool, Vec<String>), StatusError> {
        // From the watch cache's object first, as updates do.
        let mut fresh = false;
        for _ in 0..ADMITTED_WRITE_RETRIES {
            let (current, kv, current_is_fresh) = self.store.read(namespace, name, fresh).await?;
            let current_rv = resource_version(&*current);
            let rev = kv.mod_revision;
            let admitted = self
                .run_admission_of(
                    admission::Operation::Delete,
                    self.request_gvk(),
                    None,
                    Some(current),
                    params.dry_run,
                )
                .await;
            let warnings = match admitted {
                Ok((_, warnings)) => warnings,
                Err(_)
                    if self
                        .stale_read(current_is_fresh, namespace, name, rev)
                        .await =>
                {
                    fresh = true;
                    continue;
                }
                Err(e) => return Err(e),
            };
            let mut pinned = params.clone();
            let ours = pinned.precondition_resource_version.is_none();
            if ours {
                pinned.precondition_resource_version = Some(current_rv.clone());
            }
            match self
                .store
                .delete_from(namespace, name, &pinned, Some(kv))
                .await
            {
                // Our own precondition failed: someone wrote meanwhile; admit again.
                Err(e) if errors::is_conflict(&e) && ours => {
                    if self.store.revision_of(namespace, name).await == Some(rev) {
                        return Err(e);
                    }
                    fresh = true;
                }
                // The client's precondition, checked against a cached object.
                Err(e) if errors::is_conflict(&e) && !current_is_fresh => {
                    fresh = true;
                }
                other => return other.map(|(o, gone)| (o, gone, warnings)),
            }
        }
        Err(errors::new_conflict(
            &self.qualified(),
            name,
            "too many concurrent writers; try again",
        ))
    }

    /// Whether a failure on an object read from the watch cache (`fresh` false) may be
    /// due to the cache being behind: the storage holds another revision of it now.
    pub(super) async fn stale_read(
        &self,
        fresh: bool,
        namespace: &str,
        name: &str,
        rev: i64,
    ) -> bool {
        !fresh && self.store.revision_of(namespace, name).await != Some(rev)
    }
}
