//! GET of a collection (Go's `endpoints/handlers/get.go` `ListResource`): selectors,
//! pages with `continue` tokens, `resourceVersion` and `resourceVersionMatch` as Go reads
//! them.

use std::sync::Arc;

use apimachinery::api::errors::{self, StatusError};
use apimachinery::runtime::{Object, UnstructuredList};
use apimachinery::schema::GroupVersionKind;
use serde_json::Value;

use super::options::ListOptions;
use super::{Handler, Reply};
use crate::endpoints::negotiation::MediaType;
use crate::registry::shared_list::encode_shared_list;
use crate::registry::{ListPage, ListParams, Listed, Reader, Selection, from_value};

impl Handler<'_> {
    /// GET of a collection.
    pub async fn list(&self) -> Result<Reply, StatusError> {
        let options = self.list_options(false)?;
        let selection = self.selection()?;
        if let Some(reader) = self.rest.reader() {
            return self.list_read(reader, &selection).await;
        }
        let asked = options.resource_version;
        // Go's rules: `Exact` reads at the revision, and so does a page of a list with a
        // revision and no match (the legacy meaning of a limit with a resourceVersion:
        // Go's delegator and etcd3 store read it exactly); `NotOlderThan` (and no match
        // with a revision, unpaged) reads the current state, which must have reached
        // the revision. `Exact` without a revision, or with another value, failed
        // validation.
        let paged_at_revision = options.resource_version_match.is_empty()
            && options.limit > 0
            && options.continue_token.is_none()
            && asked > 0;
        let revision = if options.resource_version_match == "Exact" || paged_at_revision {
            asked
        } else {
            if asked > 0 {
                self.store.ensure_reached(asked).await?;
            }
            0
        };
        let ListOptions {
            limit,
            continue_token,
            ..
        } = options;
        if continue_token.is_some() && asked > 0 {
            return Err(errors::new_bad_request(
                "specifying resource version is not allowed when using continue",
            ));
        }
        let listed = self
            .store
            .list_shared(
                self.info.namespace.as_deref(),
                &ListParams {
                    selection,
                    limit,
                    continue_token,
                    revision,
                },
            )
            .await?;
        let mut page = match listed {
            Listed::Shared(page) if self.encodes_shared_items() => {
                match self.reply_shared(&page)? {
                    Some(reply) => return Ok(reply),
                    None => Listed::Shared(page).into_owned(),
                }
            }
            listed => listed.into_owned(),
        };
        let mut list = self.list_of(std::mem::take(&mut page.items)).await?;
        set_list_meta(&mut *list, &page);
        self.reply(200, &*list, Vec::new())
    }

    /// A list answered by a resource that stores nothing (Go's componentstatus REST):
    /// every object its reader makes, those `selection` selects, and no
    /// resourceVersion or continue token (Go's list of them has an empty ListMeta).
    async fn list_read(
        &self,
        reader: &dyn Reader,
        selection: &Selection,
    ) -> Result<Reply, StatusError> {
        let extra = self.strategy().selectable_fields();
        let mut items = Vec::new();
        for value in reader.list().await? {
            let obj = self.read_object(value)?;
            if selection.matches(self.store.info(), extra, &*obj) {
                items.push(obj);
            }
        }
        let list = self.list_of(items).await?;
        self.reply(200, &*list, Vec::new())
    }

    /// An object a [`Reader`] made (its JSON at the storage version), typed.
    pub(super) fn read_object(&self, value: Value) -> Result<Box<dyn Object>, StatusError> {
        let info = self.store.info();
        let gvk = info.gvk(&info.storage_version().version);
        from_value(self.scheme, &gvk, value)
    }

    /// Whether the answer to a page of objects shared with the watch cache can be
    /// written from them as they are: a typed resource read in its storage version (no
    /// conversion, no webhook), answered as JSON or protobuf without a transformation
    /// (`as=Table`).
    fn encodes_shared_items(&self) -> bool {
        self.conversion.is_none()
            && matches!(self.output, MediaType::Json | MediaType::Protobuf)
            && !self.strategy().is_unstructured()
            && self.webhook().is_none()
            && self.request_gvk() == self.store.info().storage_gvk
    }

    /// The answer to `page` written from the shared objects, the bytes of the list
    /// [`list_of`](Self::list_of) would build of copies of them; `None` when they cannot
    /// be (see [`encode_shared_list`]).
    fn reply_shared(&self, page: &ListPage<Arc<dyn Object>>) -> Result<Option<Reply>, StatusError> {
        let mut list = self.new_list(&self.list_gvk())?;
        set_list_meta(&mut *list, page);
        let info = self.store.info();
        Ok(encode_shared_list(
            self.scheme,
            self.output,
            &*list,
            &page.items,
            &info.storage_gvk,
        )
        .map(|body| Reply {
            code: 200,
            content_type: self.output.content_type(),
            body,
            warnings: Vec::new(),
        }))
    }

    /// The kind of the request's lists.
    fn list_gvk(&self) -> GroupVersionKind {
        GroupVersionKind::new(
            self.info.api_group.as_str(),
            self.info.api_version.as_str(),
            self.store.info().list_kind.as_str(),
        )
    }

    /// The list of `items` (as stored) in the request's version, as Go writes one; its
    /// metadata is the caller's.
    pub(super) async fn list_of(
        &self,
        items: Vec<Box<dyn Object>>,
    ) -> Result<Box<dyn Object>, StatusError> {
        let list_gvk = self.list_gvk();
        let mut list = self.new_list(&list_gvk)?;
        let unstructured = self.strategy().is_unstructured();
        let converted = self.convert_all(items, &self.request_gv()).await?;
        if let Some(items) = list.as_list_mut() {
            for mut item in converted {
                // Items of a typed list carry no kind and apiVersion, as Go writes them;
                // a custom resource list's items keep theirs.
                if !unstructured {
                    item.set_group_version_kind(&GroupVersionKind::default());
                }
                items.push_item(item).map_err(|_| {
                    errors::new_internal_error(format!("{list_gvk} does not take its items"))
                })?;
            }
        }
        Ok(list)
    }

    /// An empty list of kind `list_gvk` whose items are `[]`, not `null`, as Go's server
    /// writes an empty collection.
    pub(super) fn new_list(
        &self,
        list_gvk: &GroupVersionKind,
    ) -> Result<Box<dyn Object>, StatusError> {
        if self.strategy().is_unstructured() {
            let (api_version, kind) = list_gvk.to_api_version_and_kind();
            let mut map = serde_json::Map::new();
            map.insert("apiVersion".into(), Value::from(api_version));
            map.insert("kind".into(), Value::from(kind.to_owned()));
            map.insert("metadata".into(), serde_json::json!({}));
            map.insert("items".into(), Value::Array(Vec::new()));
            return UnstructuredList::from_map(map)
                .map(|l| Box::new(l) as Box<dyn Object>)
                .map_err(|e| errors::new_internal_error(format!("no list kind {list_gvk}: {e}")));
        }
        let mut list = from_value(self.scheme, list_gvk, serde_json::json!({"items": []}))
            .map_err(|e| errors::new_internal_error(format!("no list kind {list_gvk}: {e:?}")))?;
        list.set_group_version_kind(list_gvk);
        Ok(list)
    }
}

/// The list's metadata: the page's revision, continue token and remaining count.
fn set_list_meta<T>(list: &mut dyn Object, page: &ListPage<T>) {
    if let Some(meta) = list.list_meta_mut() {
        meta.set_resource_version(&page.resource_version.to_string());
        meta.set_continue_token(page.continue_token.as_deref().unwrap_or_default());
        meta.set_remaining_item_count(page.remaining_item_count);
    }
}
