//! POST to a collection (Go's `endpoints/handlers/create.go`): a stored object, or,
//! for what is answered without being stored (the reviews, a ServiceAccount's `token`),
//! the answer.

use apimachinery::api::errors::StatusError;
use apimachinery::runtime::Object;
use apimachinery::util::validation::field::ErrorList;

use super::decode::resets_managed_fields;
use super::{Handler, Reply};
use crate::admission;
use crate::endpoints::negotiation::MediaType;
use crate::registry::{Creater, from_value, to_json};

impl Handler<'_> {
    /// POST to a collection.
    pub async fn create(&self, body: &[u8], media: MediaType) -> Result<Reply, StatusError> {
        let dry_run = self.write_options("CreateOptions", ErrorList::default())?;
        let (obj, mut warnings) = self.admit(body, media, None).await?;
        let obj = self.track_managed_fields(None, obj, resets_managed_fields(body, media))?;
        let created = self
            .admitted_create(obj, dry_run, true, &mut warnings)
            .await?;
        self.reply(
            201,
            &*self.to_request_version_async(created).await?,
            warnings,
        )
    }

    /// What every path that creates an object runs once the object is decoded (a POST,
    /// a PUT of a missing object, an apply of one): admission as `CREATE`, the REST
    /// storage's `BeginCreate` when `begin`, the store's create, and the strategy's
    /// `WarningsOnCreate` (Go runs it once the object is prepared and valid). The
    /// plugins' and the strategy's warnings are added to `warnings` as they come.
    pub(super) async fn admitted_create(
        &self,
        obj: Box<dyn Object>,
        dry_run: bool,
        begin: bool,
        warnings: &mut Vec<String>,
    ) -> Result<Box<dyn Object>, StatusError> {
        let (obj, admitted) = self
            .run_admission(admission::Operation::Create, obj, None, dry_run)
            .await?;
        warnings.extend(admitted);
        let obj = if begin {
            self.rest.begin_create(&self.context(dry_run), obj).await?
        } else {
            obj
        };
        let created = self.store.create(self.namespace(), obj, dry_run).await?;
        warnings.extend(self.strategy().warnings_on_create(&*created));
        Ok(created)
    }

    /// POST answered without storing anything (Go's review resources, a
    /// ServiceAccount's `token`): the body is decoded as the kind `creater` takes, and
    /// its answer comes back, 201.
    pub async fn answer(
        &self,
        creater: &dyn Creater,
        body: &[u8],
        media: MediaType,
    ) -> Result<Reply, StatusError> {
        let dry_run = self.write_options("CreateOptions", ErrorList::default())?;
        let kind = creater.kind(&self.info.api_version);
        let (mut obj, warnings) = self.decode_body(body, media, &kind)?;
        // A review (not a subresource's answer) goes through Go's create handler as a
        // stored object does: the path's namespace set, and the writer's managedFields
        // tracked, which the reviews that answer with the object they were sent show.
        if self.info.subresource.is_empty() {
            if self.store.info().namespaced
                && let Some(meta) = obj.meta_mut()
            {
                let ns = self.namespace();
                if !meta.namespace().is_empty() && meta.namespace() != ns {
                    return Err(apimachinery::api::errors::new_bad_request(
                        "the namespace of the provided object does not match the namespace sent on the request",
                    ));
                }
                meta.set_namespace(ns);
            }
            obj = self.track_managed_fields(None, obj, resets_managed_fields(body, media))?;
        }
        let answered = creater
            .create(&self.context(dry_run), to_json(&*obj)?)
            .await?;
        let answered = from_value(
            self.scheme,
            &creater.answer_kind(&self.info.api_version),
            answered,
        )?;
        self.reply(201, &*answered, warnings)
    }
}
