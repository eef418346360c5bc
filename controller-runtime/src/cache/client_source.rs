//! The direct client as the cache's lister/watcher: paged lists (500 items a page, as
//! client-go's reflector), watches from a resourceVersion with bookmarks, and the
//! client's errors sorted into "relist" (410 Gone/Expired) and "retry".

use std::sync::Arc;

use apimachinery::runtime::{Resource, Unstructured};
use apimachinery::schema::GroupVersionKind;
use futures_util::StreamExt;
use futures_util::future::BoxFuture;
use k8s_types::meta::v1::PartialObjectMetadata;

use super::lister_watcher::{ListResult, ListWatchError, ListerWatcher, WatchEvent, WatchStream};
use super::source::ListWatchRequest;
use crate::client::{self, Client, ListOptions};

/// Items per page of a reflector's list (client-go's `defaultPageSize`).
const PAGE_SIZE: i64 = 500;
/// How long a watch lasts before the reflector starts a new one (client-go picks between
/// 5 and 10 minutes; the server may end it sooner).
const WATCH_TIMEOUT_SECONDS: i64 = 300;

/// One page: its items, the list's resourceVersion and the next page's token.
struct Page<T> {
    items: Vec<T>,
    resource_version: String,
    continue_token: String,
}

type PageFn<T> = Arc<
    dyn Fn(Client, ListOptions) -> BoxFuture<'static, Result<Page<T>, client::Error>> + Send + Sync,
>;
type WatchFn<T> = Arc<
    dyn Fn(Client, ListOptions) -> BoxFuture<'static, Result<client::WatchStream<T>, client::Error>>
        + Send
        + Sync,
>;

/// Lists and watches one kind in one form through the direct client.
pub(crate) struct ClientListerWatcher<T> {
    client: Client,
    gvk: GroupVersionKind,
    options: ListOptions,
    page: PageFn<T>,
    watch: WatchFn<T>,
}

fn base_options(request: &ListWatchRequest) -> Result<ListOptions, ListWatchError> {
    let label_selector = request
        .label_selector
        .as_deref()
        .map(apimachinery::labels::Selector::parse)
        .transpose()
        .map_err(|e| {
            ListWatchError::other(format!("label selector of the {} informer", request.gvk), e)
        })?;
    let field_selector = request
        .field_selector
        .as_deref()
        .map(apimachinery::fields::Selector::parse)
        .transpose()
        .map_err(|e| {
            ListWatchError::other(format!("field selector of the {} informer", request.gvk), e)
        })?;
    Ok(ListOptions {
        namespace: request.namespace.clone().filter(|n| !n.is_empty()),
        label_selector,
        field_selector,
        ..ListOptions::default()
    })
}

impl<T: Resource> ClientListerWatcher<T> {
    /// Objects of the Scheme's type `T` (protobuf for built-in kinds).
    pub(crate) fn typed(
        client: Client,
        request: &ListWatchRequest,
    ) -> Result<Self, ListWatchError> {
        Ok(ClientListerWatcher {
            client,
            gvk: request.gvk.clone(),
            options: base_options(request)?,
            page: Arc::new(|client, opts| {
                Box::pin(async move {
                    let list = client.list::<T>(&opts).await?;
                    Ok(Page {
                        items: list.items,
                        resource_version: list.metadata.resource_version,
                        continue_token: list.metadata.continue_,
                    })
                })
            }),
            watch: Arc::new(|client, opts| Box::pin(async move { client.watch::<T>(&opts).await })),
        })
    }
}

impl ClientListerWatcher<Unstructured> {
    /// Objects of any served kind as `Unstructured`.
    pub(crate) fn unstructured(
        client: Client,
        request: &ListWatchRequest,
    ) -> Result<Self, ListWatchError> {
        let gvk = request.gvk.clone();
        let watch_gvk = request.gvk.clone();
        Ok(ClientListerWatcher {
            client,
            gvk: request.gvk.clone(),
            options: base_options(request)?,
            page: Arc::new(move |client, opts| {
                let gvk = gvk.clone();
                Box::pin(async move {
                    let list = client.list_unstructured(&gvk, &opts).await?;
                    let meta = list.object.get("metadata");
                    let field = |name: &str| {
                        meta.and_then(|m| m.get(name))
                            .and_then(|v| v.as_str())
                            .unwrap_or_default()
                            .to_owned()
                    };
                    Ok(Page {
                        resource_version: field("resourceVersion"),
                        continue_token: field("continue"),
                        items: list.items,
                    })
                })
            }),
            watch: Arc::new(move |client, opts| {
                let gvk = watch_gvk.clone();
                Box::pin(async move { client.watch_unstructured(&gvk, &opts).await })
            }),
        })
    }
}

impl ClientListerWatcher<PartialObjectMetadata> {
    /// The metadata of objects of any served kind.
    pub(crate) fn metadata(
        client: Client,
        request: &ListWatchRequest,
    ) -> Result<Self, ListWatchError> {
        let gvk = request.gvk.clone();
        let watch_gvk = request.gvk.clone();
        Ok(ClientListerWatcher {
            client,
            gvk: request.gvk.clone(),
            options: base_options(request)?,
            page: Arc::new(move |client, opts| {
                let gvk = gvk.clone();
                Box::pin(async move {
                    let list = client.list_metadata(&gvk, &opts).await?;
                    Ok(Page {
                        items: list.items.unwrap_or_default(),
                        resource_version: list.metadata.resource_version,
                        continue_token: list.metadata.continue_,
                    })
                })
            }),
            watch: Arc::new(move |client, opts| {
                let gvk = watch_gvk.clone();
                Box::pin(async move { client.watch_metadata(&gvk, &opts).await })
            }),
        })
    }
}

fn convert_error(context: String, error: client::Error, resource_version: &str) -> ListWatchError {
    match error.api() {
        Some(api) if api.is_gone_or_expired() => ListWatchError::Expired {
            resource_version: resource_version.to_owned(),
            message: api.status.message.clone(),
        },
        _ => ListWatchError::other(context, error),
    }
}

impl<T: Send + 'static> ListerWatcher<T> for ClientListerWatcher<T> {
    fn list(&self) -> BoxFuture<'_, Result<ListResult<T>, ListWatchError>> {
        Box::pin(async move {
            let mut items = Vec::new();
            let mut continue_token: Option<String> = None;
            loop {
                let opts = ListOptions {
                    limit: Some(PAGE_SIZE),
                    continue_token: continue_token.take(),
                    ..self.options.clone()
                };
                let page = (self.page)(self.client.clone(), opts)
                    .await
                    .map_err(|e| convert_error(format!("list {}", self.gvk), e, ""))?;
                items.extend(page.items);
                if page.continue_token.is_empty() {
                    return Ok(ListResult {
                        items,
                        resource_version: page.resource_version,
                    });
                }
                continue_token = Some(page.continue_token);
            }
        })
    }

    fn watch(
        &self,
        resource_version: &str,
    ) -> BoxFuture<'_, Result<WatchStream<T>, ListWatchError>> {
        let rv = resource_version.to_owned();
        Box::pin(async move {
            let opts = ListOptions {
                resource_version: Some(rv.clone()),
                allow_watch_bookmarks: true,
                timeout_seconds: Some(WATCH_TIMEOUT_SECONDS),
                ..self.options.clone()
            };
            let context = format!("watch {} from resourceVersion {rv}", self.gvk);
            let stream = (self.watch)(self.client.clone(), opts)
                .await
                .map_err(|e| convert_error(context.clone(), e, &rv))?;
            Ok(stream
                .map(move |item| match item {
                    Ok(client::WatchEvent::Added(o)) => Ok(WatchEvent::Added(o)),
                    Ok(client::WatchEvent::Modified(o)) => Ok(WatchEvent::Modified(o)),
                    Ok(client::WatchEvent::Deleted(o)) => Ok(WatchEvent::Deleted(o)),
                    Ok(client::WatchEvent::Bookmark { resource_version }) => {
                        Ok(WatchEvent::Bookmark { resource_version })
                    }
                    Err(e) => Err(convert_error(context.clone(), e, &rv)),
                })
                .boxed())
        })
    }
}
