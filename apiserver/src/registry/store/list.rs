//! Lists of a resource (Go's `Store.List`): from the watch cache when it is known to be
//! current, else from the storage, in pages with continue tokens.

use std::sync::Arc;

use apimachinery::api::errors::{self, StatusError};
use apimachinery::runtime::Object;

use super::{ListPage, ListParams, Store};
use crate::registry::cacher::CachedObject;
use crate::registry::continue_token::ContinueToken;
use crate::registry::selection::Selection;
use crate::storage::{ListOptions, Revision, StorageError, interpret_error};

/// A page of a list, its objects shared with the watch cache when it was served from
/// there and the resource's strategy leaves objects as they are read (no copy of each
/// object: a reader that only encodes them needs none), else the caller's own.
#[derive(Debug)]
pub enum Listed {
    /// From the watch cache: the cache's objects, not to be changed.
    Shared(ListPage<Arc<dyn Object>>),
    /// Read from the storage, or decorated: objects of the caller's.
    Owned(ListPage),
}

impl Listed {
    /// The page with objects of the caller's (each shared one copied).
    pub fn into_owned(self) -> ListPage {
        match self {
            Listed::Owned(page) => page,
            Listed::Shared(page) => ListPage {
                items: page.items.iter().map(|o| o.deep_copy_object()).collect(),
                resource_version: page.resource_version,
                continue_token: page.continue_token,
                remaining_item_count: page.remaining_item_count,
            },
        }
    }
}

impl Store {
    /// A page of the collection (one namespace's, or all), filtered by the selectors.
    pub async fn list(
        &self,
        namespace: Option<&str>,
        params: &ListParams,
    ) -> Result<ListPage, StatusError> {
        Ok(self.list_shared(namespace, params).await?.into_owned())
    }

    /// [`list`](Self::list), its objects shared with the watch cache when the page is
    /// served from there (see [`Listed`]).
    pub async fn list_shared(
        &self,
        namespace: Option<&str>,
        params: &ListParams,
    ) -> Result<Listed, StatusError> {
        let prefix = self.info.collection_prefix(namespace);
        let mut revision = params.revision;
        let mut start_key = None;
        if let Some(token) = &params.continue_token {
            let t = ContinueToken::decode(token)
                .map_err(|e| errors::new_bad_request(format!("invalid continue token: {e}")))?;
            // A negative revision continues at the latest (Go's tokens of lists that
            // were not consistent).
            revision = t.revision.max(0);
            start_key = Some(t.start_key(&prefix));
        }
        if revision == 0
            && start_key.is_none()
            && let Some(page) = self.list_from_cache(&prefix, params).await?
        {
            return Ok(page);
        }
        // An exact list, or the next page of a list at a revision: from the cache when
        // its window covers the revision (Go's delegator: a snapshot at or before it),
        // whatever the storage has compacted since; else from the storage.
        if revision > 0
            && let Some(page) = self
                .list_exact_from_cache(&prefix, params, revision, start_key.as_deref())
                .await?
        {
            return Ok(page);
        }
        self.list_from_storage(&prefix, params, revision, start_key)
            .await
            .map(Listed::Owned)
    }

    /// A page read from the storage at `revision` (0: the latest), from `start_key`.
    async fn list_from_storage(
        &self,
        prefix: &str,
        params: &ListParams,
        mut revision: Revision,
        mut start_key: Option<String>,
    ) -> Result<ListPage, StatusError> {
        let qualified = self.qualified();
        let filtered = !params.selection.is_empty();
        let mut page = ListPage::default();
        loop {
            let options = ListOptions {
                revision,
                start_key: start_key.clone(),
                // One key more than asked tells whether another page exists.
                limit: if params.limit == 0 {
                    0
                } else {
                    params.limit + 1 - page.items.len().min(params.limit)
                },
            };
            let result = self
                .storage
                .list(prefix, &options)
                .await
                .map_err(|e| match e {
                    StorageError::Compacted { .. } if params.continue_token.is_some() => {
                        errors::new_resource_expired("The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.")
                    }
                    e => interpret_error(e, &qualified, ""),
                })?;
            revision = result.revision;
            page.resource_version = result.revision;
            let fetched = result.kvs.len();
            let more_in_store = result.remaining > 0;
            for kv in result.kvs {
                if params.limit != 0 && page.items.len() == params.limit {
                    // This key starts the next page.
                    let token = ContinueToken::new(revision, prefix, &kv.key);
                    page.continue_token = Some(token.encode());
                    if !filtered {
                        page.remaining_item_count = Some(result.remaining + 1);
                    }
                    return Ok(page);
                }
                let next = format!("{}\u{0}", kv.key);
                let obj = self.decode(&kv)?;
                start_key = Some(next);
                if params
                    .selection
                    .matches(&self.info, self.strategy.selectable_fields(), &*obj)
                {
                    page.items.push(obj);
                }
            }
            if params.limit == 0 || !more_in_store || fetched == 0 {
                return Ok(page);
            }
        }
    }

    /// A consistent list (the current state, no continue token) from the watch cache
    /// once it has seen the storage's current revision, as Go's `ConsistentListFromCache`
    /// serves one: no range read, and each object decoded once for every list and watch.
    /// Pages and their continue tokens are those of the storage's list at the cache's
    /// revision (the next page is read from the storage at it). The objects are the
    /// cache's own unless the strategy decorates them (then each is a decorated copy).
    /// `None` when the cache is behind the storage: the caller reads the storage.
    async fn list_from_cache(
        &self,
        prefix: &str,
        params: &ListParams,
    ) -> Result<Option<Listed>, StatusError> {
        let Ok(current) = self.storage.current_revision().await else {
            return Ok(None);
        };
        let Some((revision, cached)) = self.cacher.list_at_least(prefix, current).await else {
            return Ok(None);
        };
        self.page_from_cache(&cached, prefix, revision, params)
            .map(Some)
    }

    /// A page of the list at `revision` (from `start_key`, a continue token's) from the
    /// watch cache's window (Go's `ListFromCacheSnapshot`); `None` when the window does
    /// not cover it: the caller reads the storage.
    async fn list_exact_from_cache(
        &self,
        prefix: &str,
        params: &ListParams,
        revision: Revision,
        start_key: Option<&str>,
    ) -> Result<Option<Listed>, StatusError> {
        let start = start_key.unwrap_or(prefix);
        let Some(cached) = self.cacher.list_exact(prefix, start, revision).await else {
            return Ok(None);
        };
        self.page_from_cache(&cached, prefix, revision, params)
            .map(Some)
    }

    /// The page `params` asks for of `cached` (the cache's objects under `prefix` at
    /// `revision`), the objects shared unless the strategy decorates them.
    fn page_from_cache(
        &self,
        cached: &[CachedObject],
        prefix: &str,
        revision: Revision,
        params: &ListParams,
    ) -> Result<Listed, StatusError> {
        let strategy = &*self.strategy;
        let matches = |obj: &dyn Object| {
            params
                .selection
                .matches(&self.info, strategy.selectable_fields(), obj)
        };
        Ok(if strategy.decorates() {
            Listed::Owned(page_of(cached, prefix, revision, params, |shared| {
                let mut obj = shared.deep_copy_object();
                strategy.decorate(&mut *obj);
                matches(&*obj).then_some(obj)
            })?)
        } else {
            Listed::Shared(page_of(cached, prefix, revision, params, |shared| {
                matches(&**shared).then(|| shared.clone())
            })?)
        })
    }

    /// Every object of the collection, for deletecollection.
    pub async fn list_all(
        &self,
        namespace: Option<&str>,
        selection: &Selection,
    ) -> Result<Vec<Box<dyn Object>>, StatusError> {
        let params = ListParams {
            selection: selection.clone(),
            ..ListParams::default()
        };
        Ok(self.list(namespace, &params).await?.items)
    }
}

/// The page of `cached` (the objects under `prefix` at `revision`, in key order) that
/// `params` asks for: the items `item` keeps (`None`: not selected), up to the limit,
/// and the continue token of the next page.
fn page_of<T>(
    cached: &[CachedObject],
    prefix: &str,
    revision: Revision,
    params: &ListParams,
    mut item: impl FnMut(&Arc<dyn Object>) -> Option<T>,
) -> Result<ListPage<T>, StatusError> {
    let filtered = !params.selection.is_empty();
    let mut page = ListPage {
        resource_version: revision,
        ..ListPage::default()
    };
    let total = cached.len();
    for (i, entry) in cached.iter().enumerate() {
        if params.limit != 0 && page.items.len() == params.limit {
            // This key starts the next page.
            let token = ContinueToken::new(revision, prefix, entry.key());
            page.continue_token = Some(token.encode());
            if !filtered {
                page.remaining_item_count = i64::try_from(total - i).ok();
            }
            break;
        }
        if let Some(obj) = item(entry.object()?) {
            page.items.push(obj);
        }
    }
    Ok(page)
}
