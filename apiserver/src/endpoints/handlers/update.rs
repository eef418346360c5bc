//! PUT of an object or its `/status` (Go's `endpoints/handlers/update.go`).

use apimachinery::api::errors::StatusError;
use apimachinery::util::validation::field::ErrorList;

use super::decode::resets_managed_fields;
use super::{Handler, Reply};
use crate::endpoints::negotiation::MediaType;

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
        // PUT replaces: the new object does not depend on the current one, so a retry
        // (possible only without a resourceVersion) writes the same body again.
        let (updated, admitted) = self
            .admitted_update(dry_run, uid.as_deref(), |current| {
                self.track_managed_fields(Some(&*current), obj.deep_copy_object(), reset)
            })
            .await?;
        warnings.extend(admitted);
        self.reply(
            200,
            &*self.to_request_version_async(updated).await?,
            warnings,
        )
    }
}
