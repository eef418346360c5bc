//! The delegating client (controller-runtime's default client): reads come from the
//! informer cache for cached kinds, writes go to the server.
//!
//! Reads hand out `Arc<T>`, the cache's own objects (no copy); reads that go to the
//! server are wrapped in an `Arc`, so both paths return the same types. A kind is read
//! from the server when it is in [`DelegatingClientOptions::disable_for`] or the cache's
//! own [`disable_for`](crate::cache::CacheOptions::disable_for) list, when it is read as
//! [`Unstructured`] and [`DelegatingClientOptions::unstructured`] is off (as Go's
//! `CacheOptions.Unstructured`), and, with
//! [`DelegatingClientOptions::uncached_until_watched`], while no informer watches it yet.
//!
//! [`Reader`] is the read interface both this client and the direct [`Client`] offer, so
//! that code reading objects does not care which one it holds.
//!
//! ```no_run
//! use std::sync::Arc;
//! use controller_runtime::cache::{Cache, CacheOptions};
//! use controller_runtime::client::delegating::{DelegatingClient, DelegatingClientOptions, Reader};
//! use controller_runtime::client::{Client, ObjectKey};
//! use k8s_types::core::v1::ConfigMap;
//!
//! # async fn run(client: Client) -> Result<(), Box<dyn std::error::Error>> {
//! let cache = Cache::new(client.clone(), client.scheme().clone(), CacheOptions::default());
//! let stop = tokio_util::sync::CancellationToken::new();
//! cache.start(stop.clone());
//! let delegating = DelegatingClient::new(client, cache, DelegatingClientOptions::default());
//! let cm: Arc<ConfigMap> = delegating.get(&ObjectKey::new("default", "settings")).await?;
//! let mut changed = (*cm).clone(); // cached objects are shared: clone to change
//! changed.data.insert("k".into(), "v".into());
//! delegating.update(&changed, &Default::default()).await?;
//! # Ok(()) }
//! ```

use std::collections::BTreeSet;
use std::future::Future;
use std::sync::Arc;

use apimachinery::api::errors;
use apimachinery::runtime::{Object, Resource, Unstructured};
use apimachinery::schema::{GroupResource, GroupVersionKind};
use k8s_types::meta::v1::PartialObjectMetadata;

use super::{
    ApiError, ApplyOptions, Client, CreateOptions, DeleteOptions, ListOptions, ObjectKey, Patch,
    PatchOptions, SubResourceClient, UpdateOptions,
};
use crate::cache::{Cache, CacheError, ObjectForm};

/// What a delegating client's call fails with: the crate's one error type, whose
/// variants `Client` and `Cache` this enum had.
#[deprecated(note = "use controller_runtime::Error, which this is an alias of")]
pub type Error = crate::Error;

/// The server's NotFound for a cache miss (Go's cache answers `apierrors.NewNotFound`).
fn not_found(group: &str, resource: &str, name: &str) -> crate::Error {
    let err = errors::new_not_found(&GroupResource::new(group, resource), name);
    crate::Error::Client(super::Error::from(ApiError::from(err)))
}

fn from_cache(error: CacheError, group: &str, resource: &str, key: &ObjectKey) -> crate::Error {
    match error {
        CacheError::NotFound { .. } => not_found(group, resource, &key.name),
        other => crate::Error::Cache(other),
    }
}

/// Reading objects, from the server or a cache (Go's `client.Reader`). Objects come as
/// `Arc<T>`: a cache shares its objects; clone one to change it.
pub trait Reader: Send + Sync {
    /// The object `key` names.
    fn get<T: Resource>(
        &self,
        key: &ObjectKey,
    ) -> impl Future<Output = Result<Arc<T>, crate::Error>> + Send;
    /// The objects `opts` select.
    fn list<T: Resource>(
        &self,
        opts: &ListOptions,
    ) -> impl Future<Output = Result<Vec<Arc<T>>, crate::Error>> + Send;
}

impl Reader for Client {
    async fn get<T: Resource>(&self, key: &ObjectKey) -> Result<Arc<T>, crate::Error> {
        Ok(Arc::new(Client::get::<T>(self, key).await?))
    }
    async fn list<T: Resource>(&self, opts: &ListOptions) -> Result<Vec<Arc<T>>, crate::Error> {
        Ok(Client::list::<T>(self, opts)
            .await?
            .items
            .into_iter()
            .map(Arc::new)
            .collect())
    }
}

/// Which reads bypass the cache.
#[derive(Clone, Debug, Default)]
pub struct DelegatingClientOptions {
    /// Kinds always read from the server (Go's `client.CacheOptions.DisableFor`).
    pub disable_for: BTreeSet<GroupVersionKind>,
    /// Serve [`Unstructured`] reads from the cache too (Go's
    /// `client.CacheOptions.Unstructured`; off by default, as in Go).
    pub unstructured: bool,
    /// Read a kind from the server until something (a controller, `index_field`, a call
    /// of [`Cache::get_informer`]) made its informer, instead of starting one on the
    /// first read.
    pub uncached_until_watched: bool,
}

/// Reads from the cache, writes to the server (controller-runtime's default client).
/// Cheap to clone.
#[derive(Clone, Debug)]
pub struct DelegatingClient {
    client: Client,
    cache: Cache,
    options: DelegatingClientOptions,
}

impl DelegatingClient {
    /// A client reading through `cache` and writing through `client`.
    pub fn new(client: Client, cache: Cache, options: DelegatingClientOptions) -> Self {
        DelegatingClient {
            client,
            cache,
            options,
        }
    }

    /// The direct client writes (and uncached reads) go through.
    pub fn direct(&self) -> &Client {
        &self.client
    }

    /// The cache reads go through.
    pub fn cache(&self) -> &Cache {
        &self.cache
    }

    fn cached(&self, gvk: &GroupVersionKind, form: ObjectForm) -> bool {
        if self.options.disable_for.contains(gvk) || !self.cache.is_cached(gvk) {
            return false;
        }
        if form == ObjectForm::Unstructured && !self.options.unstructured {
            return false;
        }
        !self.options.uncached_until_watched || self.cache.has_informer(gvk, form)
    }

    fn resource_of(&self, gvk: &GroupVersionKind) -> String {
        self.client
            .scheme()
            .resource_metadata(gvk)
            .map(|m| m.plural.to_owned())
            .unwrap_or_else(|| gvk.kind.to_lowercase())
    }

    /// The object `key` names: from the cache when `T` is cached.
    pub async fn get<T: Resource>(&self, key: &ObjectKey) -> Result<Arc<T>, crate::Error> {
        if !self.cached(&T::gvk(), ObjectForm::Typed) {
            return Reader::get::<T>(&self.client, key).await;
        }
        self.cache
            .get::<T>(key)
            .await
            .map_err(|e| from_cache(e, T::GROUP, T::PLURAL, key))
    }

    /// The objects `opts` select: from the cache when `T` is cached (field selectors
    /// need field indexes there).
    pub async fn list<T: Resource>(&self, opts: &ListOptions) -> Result<Vec<Arc<T>>, crate::Error> {
        if !self.cached(&T::gvk(), ObjectForm::Typed) {
            return Reader::list::<T>(&self.client, opts).await;
        }
        self.cache
            .list::<T>(opts)
            .await
            .map_err(crate::Error::Cache)
    }

    /// An object of any kind as [`Unstructured`].
    pub async fn get_unstructured(
        &self,
        gvk: &GroupVersionKind,
        key: &ObjectKey,
    ) -> Result<Arc<Unstructured>, crate::Error> {
        if !self.cached(gvk, ObjectForm::Unstructured) {
            return Ok(Arc::new(self.client.get_unstructured(gvk, key).await?));
        }
        self.cache
            .get_unstructured(gvk, key)
            .await
            .map_err(|e| from_cache(e, &gvk.group, &self.resource_of(gvk), key))
    }

    /// Objects of any kind as [`Unstructured`].
    pub async fn list_unstructured(
        &self,
        gvk: &GroupVersionKind,
        opts: &ListOptions,
    ) -> Result<Vec<Arc<Unstructured>>, crate::Error> {
        if !self.cached(gvk, ObjectForm::Unstructured) {
            let list = self.client.list_unstructured(gvk, opts).await?;
            return Ok(list.items.into_iter().map(Arc::new).collect());
        }
        self.cache
            .list_unstructured(gvk, opts)
            .await
            .map_err(crate::Error::Cache)
    }

    /// An object's metadata alone.
    pub async fn get_metadata(
        &self,
        gvk: &GroupVersionKind,
        key: &ObjectKey,
    ) -> Result<Arc<PartialObjectMetadata>, crate::Error> {
        if !self.cached(gvk, ObjectForm::Metadata) {
            return Ok(Arc::new(self.client.get_metadata(gvk, key).await?));
        }
        self.cache
            .get_metadata(gvk, key)
            .await
            .map_err(|e| from_cache(e, &gvk.group, &self.resource_of(gvk), key))
    }

    /// The metadata of objects of a kind.
    pub async fn list_metadata(
        &self,
        gvk: &GroupVersionKind,
        opts: &ListOptions,
    ) -> Result<Vec<Arc<PartialObjectMetadata>>, crate::Error> {
        if !self.cached(gvk, ObjectForm::Metadata) {
            let list = self.client.list_metadata(gvk, opts).await?;
            return Ok(list
                .items
                .unwrap_or_default()
                .into_iter()
                .map(Arc::new)
                .collect());
        }
        self.cache
            .list_metadata(gvk, opts)
            .await
            .map_err(crate::Error::Cache)
    }

    /// Creates an object on the server ([`Client::create`]).
    pub async fn create<T: Object>(
        &self,
        obj: &T,
        opts: &CreateOptions,
    ) -> Result<T, crate::Error> {
        Ok(self.client.create(obj, opts).await?)
    }

    /// Replaces an object on the server ([`Client::update`]).
    pub async fn update<T: Object>(
        &self,
        obj: &T,
        opts: &UpdateOptions,
    ) -> Result<T, crate::Error> {
        Ok(self.client.update(obj, opts).await?)
    }

    /// Patches an object on the server ([`Client::patch`]).
    pub async fn patch<T: Object>(
        &self,
        obj: &T,
        patch: &Patch,
        opts: &PatchOptions,
    ) -> Result<T, crate::Error> {
        Ok(self.client.patch(obj, patch, opts).await?)
    }

    /// Applies an object server-side ([`Client::apply`]).
    pub async fn apply<T: Object>(&self, obj: &T, opts: &ApplyOptions) -> Result<T, crate::Error> {
        Ok(self.client.apply(obj, opts).await?)
    }

    /// Deletes an object on the server ([`Client::delete`]).
    pub async fn delete<T: Object>(
        &self,
        obj: &T,
        opts: &DeleteOptions,
    ) -> Result<(), crate::Error> {
        Ok(self.client.delete(obj, opts).await?)
    }

    /// Deletes every object of `T` that `list` selects, on the server
    /// ([`Client::delete_all_of`]).
    pub async fn delete_all_of<T: Resource>(
        &self,
        list: &ListOptions,
        opts: &DeleteOptions,
    ) -> Result<(), crate::Error> {
        Ok(self.client.delete_all_of::<T>(list, opts).await?)
    }

    /// The status subresource's writer ([`Client::status`]).
    pub fn status(&self) -> SubResourceClient<'_> {
        self.client.status()
    }

    /// Any subresource's writer ([`Client::sub_resource`]).
    pub fn sub_resource<'a>(&'a self, subresource: &'static str) -> SubResourceClient<'a> {
        self.client.sub_resource(subresource)
    }
}

impl Reader for DelegatingClient {
    async fn get<T: Resource>(&self, key: &ObjectKey) -> Result<Arc<T>, crate::Error> {
        DelegatingClient::get::<T>(self, key).await
    }
    async fn list<T: Resource>(&self, opts: &ListOptions) -> Result<Vec<Arc<T>>, crate::Error> {
        DelegatingClient::list::<T>(self, opts).await
    }
}
