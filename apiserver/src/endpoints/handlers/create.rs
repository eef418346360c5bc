//! POST to a collection (Go's `endpoints/handlers/create.go`): a stored object, or,
//! for what is answered without being stored (the reviews, a ServiceAccount's `token`),
//! the answer.

use apimachinery::api::errors::{self, StatusError};
use apimachinery::runtime::Object;
use apimachinery::util::validation::field::ErrorList;
use serde_json::Value;

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
        let (mut obj, mut warnings) =
            self.decode_body_accepting(body, media, &kind, &|gvk| creater.accepts(gvk))?;
        // Defaulted as Go's decoder defaults (a TokenRequest's expiry), before the field
        // manager sees it.
        self.scheme.default(&mut *obj);
        let mut posted = to_json(&*obj)?;
        // Go's create handler: the object's namespace is the request's (set when it
        // names none), then the field manager records the write.
        let namespace = self.namespace();
        if !namespace.is_empty() {
            ensure_namespace(&mut posted, namespace)?;
        }
        self.track_answered_fields(&kind, &mut posted);
        // A subresource's create (`pods/binding`, `serviceaccounts/token`) goes through
        // the admission chain as Go's does (NamespaceLifecycle refuses one in a missing
        // namespace); the reviews, which admission never sees, do not.
        let posted = if self.info.subresource.is_empty() {
            posted
        } else {
            let obj = from_value(self.scheme, &kind, posted)?;
            let (obj, admitted) = self
                .run_admission_of(
                    admission::Operation::Create,
                    kind.clone(),
                    Some(obj),
                    None,
                    dry_run,
                )
                .await?;
            warnings.extend(admitted);
            match obj {
                Some(obj) => to_json(&*obj)?,
                None => {
                    return Err(errors::new_internal_error(
                        "an admission plugin removed the object",
                    ));
                }
            }
        };
        let answered = creater.create(&self.context(dry_run), posted).await?;
        let answered = from_value(
            self.scheme,
            &creater.answer_kind(&self.info.api_version),
            answered,
        )?;
        self.reply(201, &*answered, warnings)
    }
}

/// Go's `EnsureObjectNamespaceMatchesRequestNamespace` for a namespaced request: an
/// object naming no namespace gets the request's; one naming another is refused.
fn ensure_namespace(obj: &mut Value, namespace: &str) -> Result<(), StatusError> {
    let Some(map) = obj.as_object_mut() else {
        return Ok(());
    };
    let meta = map
        .entry("metadata")
        .or_insert_with(|| Value::Object(Default::default()));
    let Some(meta) = meta.as_object_mut() else {
        return Ok(());
    };
    match meta.get("namespace").and_then(Value::as_str) {
        Some(given) if !given.is_empty() && given != namespace => Err(errors::new_bad_request(
            "the namespace of the provided object does not match the namespace sent on the request",
        )),
        _ => {
            meta.insert("namespace".into(), Value::from(namespace));
            Ok(())
        }
    }
}
