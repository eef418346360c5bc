//! PUT of an object or its `/status` (Go's `endpoints/handlers/update.go`), creating
//! the object when it is missing and its strategy allows it (Go's
//! `AllowCreateOnUpdate`: Leases, Events, Endpoints, Services, LimitRanges, the RBAC
//! kinds, ...).

use apimachinery::api::errors::{self, ApiStatus, StatusError};
use apimachinery::runtime::Object;
use apimachinery::util::validation::field::ErrorList;

use super::decode::resets_managed_fields;
use super::{Handler, Reply};
use crate::endpoints::negotiation::MediaType;
use crate::storage;

/// How many times a PUT that may create goes between the two paths when another writer
/// creates or deletes the object in between (Go's `GuaranteedUpdate` retries the same
/// way: a create that finds the name taken becomes an update, and the reverse).
const CREATE_OR_UPDATE_ROUNDS: usize = 4;

impl Handler<'_> {
    /// PUT of an object or its `/status`.
    pub async fn update(&self, body: &[u8], media: MediaType) -> Result<Reply, StatusError> {
        let dry_run = self.write_options("UpdateOptions", ErrorList::default())?;
        let (obj, mut warnings) = self.admit(body, media, Some(&self.info.name)).await?;
        let reset = resets_managed_fields(body, media);
        // Go takes the body's uid as a precondition (`rest.DefaultUpdatedObjectInfo`);
        // patches and applies, whose objects come from the stored one, take none.
        let uid = obj
            .meta()
            .map(|m| m.uid().to_owned())
            .filter(|u| !u.is_empty());
        // Go's status strategies embed their kind's, so a PUT of a missing Service's
        // `/status` creates the Service (through its create strategy) as well.
        let may_create =
            self.info.subresource != "scale" && self.strategy().allow_create_on_update();
        for _ in 0..CREATE_OR_UPDATE_ROUNDS {
            // PUT replaces: the new object does not depend on the current one, so a
            // retry (possible only without a resourceVersion) writes the same body again.
            let updated = self
                .admitted_update(dry_run, uid.as_deref(), |current| {
                    self.track_managed_fields(Some(&*current), obj.deep_copy_object(), reset)
                })
                .await;
            match updated {
                Ok((updated, admitted)) => {
                    warnings.extend(admitted);
                    let answer = self.to_request_version_async(updated).await?;
                    return self.reply(200, &*answer, warnings);
                }
                Err(e) if may_create && self.names_this_object(&e) => {}
                Err(e) => return Err(e),
            }
            match self
                .create_on_update(obj.deep_copy_object(), uid.as_deref(), reset, dry_run)
                .await
            {
                Ok((created, admitted)) => {
                    warnings.extend(admitted);
                    let answer = self.to_request_version_async(created).await?;
                    return self.reply(201, &*answer, warnings);
                }
                // Created by another writer meanwhile: this PUT updates it.
                Err(e) if errors::is_already_exists(&e) => {}
                Err(e) => return Err(e),
            }
        }
        Err(errors::new_conflict(
            &self.qualified(),
            &self.info.name,
            "the object was created and deleted concurrently too many times; try again",
        ))
    }

    /// Whether `e` is the 404 of the object this request names (not of its namespace,
    /// or of another object an admission plugin looked up).
    fn names_this_object(&self, e: &StatusError) -> bool {
        let resource = self.qualified();
        errors::is_not_found(e)
            && e.status().details.as_ref().is_some_and(|d| {
                d.name == self.info.name
                    && d.kind == resource.resource.as_str()
                    && d.group == resource.group.as_str()
            })
    }

    /// Go's create through `Update` (`existingResourceVersion == 0`): the body is
    /// created as a POST would create it (its system fields wiped and filled again by
    /// the store, admission as `CREATE`, the strategy's create warnings), except that a
    /// uid in the body is a precondition no missing object meets (409, as Go's storage
    /// checks it against the empty object it starts from).
    async fn create_on_update(
        &self,
        obj: Box<dyn Object>,
        uid: Option<&str>,
        reset: bool,
        dry_run: bool,
    ) -> Result<(Box<dyn Object>, Vec<String>), StatusError> {
        let name = self.info.name.as_str();
        if let Some(wanted) = uid {
            let key = self.store.info().key(self.namespace(), name);
            return Err(storage::uid_precondition_failed(
                &self.qualified(),
                name,
                &key,
                wanted,
                "",
            ));
        }
        let obj = self.track_managed_fields(None, obj, reset)?;
        let mut warnings = Vec::new();
        // Go's status stores are copies of the main store made before its
        // `BeginCreate` is set: a Service created through `/status` gets no cluster IP.
        let begin = self.info.subresource.is_empty();
        let created = self
            .admitted_create(obj, dry_run, begin, &mut warnings)
            .await?;
        Ok((created, warnings))
    }
}
