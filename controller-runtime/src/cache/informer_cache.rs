//! The cache: one informer per kind and form, created on first use, answering `get` and
//! `list` from its store (controller-runtime's `informerCache`).

use std::any::Any;
use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::Duration;

use apimachinery::runtime::{Object, Resource, Unstructured};
use apimachinery::schema::GroupVersionKind;
use futures_util::future::BoxFuture;
use tokio_util::sync::CancellationToken;

use super::client_source::ClientListerWatcher;
use super::informer::{Informer, InformerError};
use super::lister_watcher::{ListWatchError, ListerWatcher};
use super::multi_namespace::{MakeFn, MultiNamespaceListerWatcher, Scope, ScopeFn};
use super::reflector::{ReflectorOptions, WatchErrorHandler};
use super::source::{Downcast, ListWatchFactory, ListWatchRequest, ObjectForm};
use super::store::{IndexFunc, Indexer, NAMESPACE_INDEX, namespaced_key};
use super::stored::StoreCodec;
use super::transform::{TransformFunc, default_transform};
use crate::client::{Client, ListOptions, ObjectKey};
use k8s_types::meta::v1::PartialObjectMetadata;

/// The index value prefix of objects in every namespace (controller-runtime's
/// `__all_namespaces`): a field index answers both namespaced and cluster-wide lookups.
pub const ALL_NAMESPACES_INDEX_KEY: &str = "__all_namespaces";

/// The name under which a field index is stored (controller-runtime's
/// `FieldIndexName`).
pub fn field_index_name(field: &str) -> String {
    format!("field:{field}")
}

/// Errors of cache reads and set-up.
#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    /// No cached object has that key.
    #[error("{kind} {key:?} not found in the cache")]
    NotFound {
        /// The kind.
        kind: String,
        /// `namespace/name` or `name`.
        key: String,
    },
    /// A field selector used a field without an index (the cache answers field
    /// selectors only through indexes, as controller-runtime's).
    #[error("field selector on {field:?} of {kind}: no index; add one with Cache::index_field")]
    FieldNotIndexed {
        /// The kind.
        kind: String,
        /// The field.
        field: String,
    },
    /// A field selector the cache cannot answer (only `field=value` terms are).
    #[error("field selector {selector:?} on {kind}: {reason}")]
    UnsupportedFieldSelector {
        /// The kind.
        kind: String,
        /// The selector.
        selector: String,
        /// Why.
        reason: String,
    },
    /// A read in a namespace the cache does not watch (controller-runtime's
    /// multi-namespace cache error, whose wording is kept, `get` for lists too).
    #[error("unable to get: {key} because of unknown namespace for the cache")]
    UnknownNamespace {
        /// `namespace/name` for a get, the namespace for a list.
        key: String,
    },
    /// The kind is configured not to be cached.
    #[error("{kind} is not cached (CacheOptions::disable_for)")]
    NotCached {
        /// The kind.
        kind: String,
    },
    /// An informer for the kind exists with another object type.
    #[error("the informer of {kind} holds {existing}, not {requested}")]
    TypeMismatch {
        /// The kind.
        kind: String,
        /// The type the informer holds.
        existing: &'static str,
        /// The type asked for.
        requested: &'static str,
    },
    /// The client cannot list/watch the kind.
    #[error("cannot watch {kind}: {source}")]
    ListWatch {
        /// The kind.
        kind: String,
        /// Why.
        #[source]
        source: ListWatchError,
    },
    /// Setting up an informer failed.
    #[error("informer of {kind}: {source}")]
    Informer {
        /// The kind.
        kind: String,
        /// Why.
        #[source]
        source: InformerError,
    },
}

/// Per-kind options (controller-runtime's `cache.ByObject`).
#[derive(Clone, Default)]
pub struct ByObject {
    /// Watch only these namespaces (controller-runtime's `ByObject.Namespaces`); empty
    /// takes [`CacheOptions::default_namespaces`]. Ignored for cluster-scoped kinds.
    pub namespaces: BTreeSet<String>,
    /// Watch only objects matching this label selector.
    pub label_selector: Option<String>,
    /// Watch only objects matching this field selector (evaluated by the server).
    pub field_selector: Option<String>,
    /// Replaces the default transform for this kind; it receives the object as decoded,
    /// in whatever form the informer holds (see [`AnyTransform`]).
    pub transform: Option<AnyTransform>,
    /// Overrides [`CacheOptions::sync_period`].
    pub sync_period: Option<Duration>,
}

/// A transform for any object type: it receives `&mut dyn Object` (downcast it to the
/// type you expect).
pub type AnyTransform = Arc<dyn Fn(&mut dyn Object) + Send + Sync>;

/// Options of a [`Cache`] (controller-runtime's `cache.Options`).
#[derive(Clone)]
pub struct CacheOptions {
    /// Watch only these namespaces, for every namespaced kind without
    /// [`ByObject::namespaces`] of its own (controller-runtime's `DefaultNamespaces`);
    /// empty (or holding `""`, Go's `NamespaceAll`) watches all namespaces. Each informer
    /// then lists and watches every
    /// namespace of the set and holds their union; reads in a namespace outside the set
    /// fail with [`CacheError::UnknownNamespace`]. Cluster-scoped kinds are watched
    /// cluster-wide whatever the set.
    ///
    /// ```
    /// use controller_runtime::cache::{ByObject, CacheOptions};
    /// use apimachinery::runtime::Resource;
    /// use k8s_types::core::v1::Secret;
    ///
    /// let mut options = CacheOptions {
    ///     default_namespaces: ["team-a".to_owned(), "team-b".to_owned()].into(),
    ///     ..CacheOptions::default()
    /// };
    /// // Secrets of one namespace only.
    /// options.by_object.insert(Secret::gvk(), ByObject {
    ///     namespaces: ["vault".to_owned()].into(),
    ///     ..ByObject::default()
    /// });
    /// ```
    pub default_namespaces: BTreeSet<String>,
    /// Resync period of every informer; `None` never resyncs.
    pub sync_period: Option<Duration>,
    /// Strip `metadata.managedFields` before storing (the default; controller-runtime's
    /// `DefaultTransform = TransformStripManagedFields`).
    pub strip_managed_fields: bool,
    /// Hold each cached object encoded (protobuf for typed kinds that have it, compact
    /// JSON for [`Unstructured`]) and decode it on every read, rather than holding it
    /// decoded and sharing it (the default: false). Encoded objects take a fraction of
    /// the memory (measured: a ConfigMap 376 B instead of 1.8 KB, Go's fixture Pod 14 KB
    /// instead of 58 KB; 0.27× and 0.23× Go's cache); each read then decodes a fresh
    /// object, which costs more than the deep copy Go's cache makes on every read (that
    /// Pod: 1.1 ms against Go's 0.24 ms), where shared objects are read for the price of
    /// an `Arc` clone. Turn it on for large caches read seldom (every Pod of a cluster,
    /// watched for a few fields). Kinds with neither encoding (typed structs without
    /// `#[api(protobuf)]`) are held decoded either way. See `BENCHMARKS.md`.
    pub store_encoded: bool,
    /// Per-kind options.
    pub by_object: HashMap<GroupVersionKind, ByObject>,
    /// Kinds never cached (reads of them fail with [`CacheError::NotCached`], and the
    /// delegating client sends them to the server).
    pub disable_for: BTreeSet<GroupVersionKind>,
    /// Retry delays of the reflectors (first, longest).
    pub backoff: (Duration, Duration),
    /// Told about each list/watch failure an informer recovers from.
    pub watch_error_handler: Option<WatchErrorHandler>,
}

impl Default for CacheOptions {
    fn default() -> Self {
        CacheOptions {
            default_namespaces: BTreeSet::new(),
            sync_period: None,
            strip_managed_fields: true,
            store_encoded: false,
            by_object: HashMap::new(),
            disable_for: BTreeSet::new(),
            backoff: (Duration::from_millis(800), Duration::from_secs(30)),
            watch_error_handler: None,
        }
    }
}

impl std::fmt::Debug for CacheOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CacheOptions")
            .field("default_namespaces", &self.default_namespaces)
            .field("sync_period", &self.sync_period)
            .field("strip_managed_fields", &self.strip_managed_fields)
            .field("store_encoded", &self.store_encoded)
            .field("by_object", &self.by_object.keys().collect::<Vec<_>>())
            .field("disable_for", &self.disable_for)
            .finish()
    }
}

/// An informer as the cache keeps it, whatever its object type.
trait ErasedInformer: Send + Sync {
    fn start(&self, cancel: CancellationToken);
    fn wait_for_sync(&self) -> BoxFuture<'static, ()>;
    fn has_synced(&self) -> bool;
    fn as_any(&self) -> &dyn Any;
    fn type_name(&self) -> &'static str;
}

impl<T: Object> ErasedInformer for Informer<T> {
    fn start(&self, cancel: CancellationToken) {
        // A second start is refused by the informer and changes nothing.
        let _ = Informer::start(self, cancel);
    }
    fn wait_for_sync(&self) -> BoxFuture<'static, ()> {
        let informer = self.clone();
        Box::pin(async move { informer.wait_for_sync().await })
    }
    fn has_synced(&self) -> bool {
        Informer::has_synced(self)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn type_name(&self) -> &'static str {
        std::any::type_name::<T>()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct InformerKey {
    gvk: GroupVersionKind,
    form: ObjectForm,
}

/// The namespaces an informer watches, checked by reads.
struct Namespaces {
    set: BTreeSet<String>,
    /// Learned by the informer's first list; reads (which wait for it) check namespaces
    /// of namespaced kinds only.
    scope: Arc<OnceLock<Scope>>,
}

impl Namespaces {
    /// `Err` unless the cache watches `namespace` (always so for cluster-scoped kinds).
    fn check(
        this: Option<&Self>,
        namespace: &str,
        key: impl FnOnce() -> String,
    ) -> Result<(), CacheError> {
        match this {
            Some(ns) if ns.scope.get() != Some(&Scope::Cluster) && !ns.set.contains(namespace) => {
                Err(CacheError::UnknownNamespace { key: key() })
            }
            _ => Ok(()),
        }
    }
}

/// An informer as the cache keeps it.
struct Entry {
    informer: Arc<dyn ErasedInformer>,
    namespaces: Option<Arc<Namespaces>>,
}

/// An informer and the namespaces it is restricted to.
type InformerEntry<T> = Result<(Informer<T>, Option<Arc<Namespaces>>), CacheError>;

/// Makes a lister/watcher of objects of `T` through the client.
type FromClient<T> =
    fn(Client, &ListWatchRequest) -> Result<Arc<dyn ListerWatcher<T>>, ListWatchError>;

/// Where informers get their lister/watchers.
#[derive(Clone)]
enum Source {
    Client(Client),
    Factory(Arc<dyn ListWatchFactory>),
}

impl Source {
    fn make<T: Object>(
        &self,
        request: &ListWatchRequest,
        from_client: FromClient<T>,
    ) -> Result<Arc<dyn ListerWatcher<T>>, ListWatchError> {
        match self {
            Source::Client(client) => from_client(client.clone(), request),
            Source::Factory(factory) => Ok(Arc::new(Downcast::<T>::new(
                factory.lister_watcher(request)?,
                request.gvk.clone(),
            ))),
        }
    }

    /// How the scope of a kind is found: the client's RESTMapper, or the factory.
    fn scope_fn(&self) -> ScopeFn {
        let source = self.clone();
        Arc::new(move |gvk: GroupVersionKind| {
            let source = source.clone();
            Box::pin(async move {
                let namespaced = match &source {
                    Source::Client(client) => client
                        .rest_mapping(&gvk)
                        .await
                        .map(|m| m.scope.name() == apimachinery::meta::RESTScopeName::Namespace)
                        .map_err(|e| ListWatchError::other(format!("scope of {gvk}"), e))?,
                    Source::Factory(factory) => factory.is_namespaced(&gvk).await?,
                };
                Ok(if namespaced {
                    Scope::Namespaced
                } else {
                    Scope::Cluster
                })
            })
        })
    }
}

struct Inner {
    source: Source,
    options: CacheOptions,
    informers: Mutex<HashMap<InformerKey, Entry>>,
    /// Set by `start`; informers made later start at once.
    running: Mutex<Option<CancellationToken>>,
}

/// The informer cache (controller-runtime's `cache.Cache`): cheap to clone.
///
/// ```
/// use std::sync::Arc;
/// use apimachinery::fields::Selector;
/// use controller_runtime::cache::{Cache, CacheOptions};
/// use controller_runtime::client::{Client, ListOptions, ObjectKey};
/// use controller_runtime::envtest::Environment;
/// use k8s_types::core::v1::ConfigMap;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let env = Environment::start().await?;
/// let client = Client::new(env.config(), env.scheme())?;
/// let mut cm = ConfigMap::default();
/// cm.metadata.namespace = "default".into();
/// cm.metadata.name = "settings".into();
/// cm.data.insert("owner".into(), "alice".into());
/// client.create(&cm, &Default::default()).await?;
///
/// let cache = Cache::new(client, env.scheme(), CacheOptions::default());
/// cache.index_field::<ConfigMap>("data.owner", |cm| cm.data.get("owner").cloned().into_iter().collect())?;
/// let stop = tokio_util::sync::CancellationToken::new();
/// cache.start(stop.clone());
/// assert!(cache.wait_for_cache_sync(&stop).await);
///
/// let got: Arc<ConfigMap> = cache.get(&ObjectKey::new("default", "settings")).await?;
/// assert_eq!(got.data["owner"], "alice");
/// let owned = ListOptions::default().with_fields(Selector::parse("data.owner=alice")?);
/// assert_eq!(cache.list::<ConfigMap>(&owned).await?.len(), 1);
/// stop.cancel();
/// env.stop().await;
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct Cache {
    inner: Arc<Inner>,
    scheme: Arc<apimachinery::runtime::Scheme>,
}

impl std::fmt::Debug for Cache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cache")
            .field("options", &self.inner.options)
            .finish()
    }
}

impl Cache {
    /// A cache whose informers list and watch through `client`, not yet started
    /// (controller-runtime's `cache.New`).
    pub fn new(
        client: Client,
        scheme: Arc<apimachinery::runtime::Scheme>,
        options: CacheOptions,
    ) -> Self {
        Self::with_source(Source::Client(client), scheme, options)
    }

    /// A cache whose informers list and watch through any [`ListWatchFactory`].
    pub fn from_factory(
        factory: Arc<dyn ListWatchFactory>,
        scheme: Arc<apimachinery::runtime::Scheme>,
        options: CacheOptions,
    ) -> Self {
        Self::with_source(Source::Factory(factory), scheme, options)
    }

    fn with_source(
        source: Source,
        scheme: Arc<apimachinery::runtime::Scheme>,
        options: CacheOptions,
    ) -> Self {
        Cache {
            inner: Arc::new(Inner {
                source,
                options,
                informers: Mutex::new(HashMap::new()),
                running: Mutex::new(None),
            }),
            scheme,
        }
    }

    /// The Scheme the cache was made with.
    pub fn scheme(&self) -> &Arc<apimachinery::runtime::Scheme> {
        &self.scheme
    }

    /// The options the cache was made with.
    pub fn options(&self) -> &CacheOptions {
        &self.inner.options
    }

    /// Whether reads of `gvk` are served by the cache.
    pub fn is_cached(&self, gvk: &GroupVersionKind) -> bool {
        !self.inner.options.disable_for.contains(gvk)
    }

    /// The informer of `T`, made (and started, if the cache runs) on first use.
    pub fn get_informer<T: Resource>(&self) -> Result<Informer<T>, CacheError> {
        self.typed_entry::<T>().map(|(informer, _)| informer)
    }

    fn typed_entry<T: Resource>(&self) -> InformerEntry<T> {
        self.informer_for::<T>(
            T::gvk(),
            ObjectForm::Typed,
            |client, request| Ok(Arc::new(ClientListerWatcher::<T>::typed(client, request)?)),
            StoreCodec::<T>::protobuf,
        )
    }

    /// The informer of `gvk` holding [`Unstructured`] objects.
    pub fn get_informer_for_kind(
        &self,
        gvk: &GroupVersionKind,
    ) -> Result<Informer<Unstructured>, CacheError> {
        self.unstructured_entry(gvk).map(|(informer, _)| informer)
    }

    fn unstructured_entry(&self, gvk: &GroupVersionKind) -> InformerEntry<Unstructured> {
        self.informer_for::<Unstructured>(
            gvk.clone(),
            ObjectForm::Unstructured,
            |client, request| {
                Ok(Arc::new(ClientListerWatcher::unstructured(
                    client, request,
                )?))
            },
            || Some(StoreCodec::json()),
        )
    }

    /// The metadata-only informer of `gvk` (controller-runtime's informers of
    /// `PartialObjectMetadata`): it keeps each object's metadata alone.
    pub fn get_metadata_informer(
        &self,
        gvk: &GroupVersionKind,
    ) -> Result<Informer<PartialObjectMetadata>, CacheError> {
        self.metadata_entry(gvk).map(|(informer, _)| informer)
    }

    fn metadata_entry(&self, gvk: &GroupVersionKind) -> InformerEntry<PartialObjectMetadata> {
        self.informer_for::<PartialObjectMetadata>(
            gvk.clone(),
            ObjectForm::Metadata,
            |client, request| Ok(Arc::new(ClientListerWatcher::metadata(client, request)?)),
            StoreCodec::<PartialObjectMetadata>::protobuf,
        )
    }

    /// Whether an informer of `gvk` in `form` exists (made by a read, `get_informer` or
    /// `index_field`).
    pub fn has_informer(&self, gvk: &GroupVersionKind, form: ObjectForm) -> bool {
        self.inner
            .informers
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .contains_key(&InformerKey {
                gvk: gvk.clone(),
                form,
            })
    }

    fn informer_for<T: Object>(
        &self,
        gvk: GroupVersionKind,
        form: ObjectForm,
        from_client: FromClient<T>,
        codec: fn() -> Option<StoreCodec<T>>,
    ) -> InformerEntry<T> {
        if !self.is_cached(&gvk) {
            return Err(CacheError::NotCached {
                kind: gvk.to_string(),
            });
        }
        let key = InformerKey { gvk, form };
        let mut informers = self
            .inner
            .informers
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(existing) = informers.get(&key) {
            return existing
                .informer
                .as_any()
                .downcast_ref::<Informer<T>>()
                .cloned()
                .map(|informer| (informer, existing.namespaces.clone()))
                .ok_or_else(|| CacheError::TypeMismatch {
                    kind: key.gvk.to_string(),
                    existing: existing.informer.type_name(),
                    requested: std::any::type_name::<T>(),
                });
        }
        let (informer, namespaces) = self.make_informer::<T>(&key, from_client, codec)?;
        informers.insert(
            key,
            Entry {
                informer: Arc::new(informer.clone()),
                namespaces: namespaces.clone(),
            },
        );
        drop(informers);
        let running = self
            .inner
            .running
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        if let Some(cancel) = running {
            ErasedInformer::start(&informer, cancel);
        }
        Ok((informer, namespaces))
    }

    fn make_informer<T: Object>(
        &self,
        key: &InformerKey,
        from_client: FromClient<T>,
        codec: fn() -> Option<StoreCodec<T>>,
    ) -> InformerEntry<T> {
        let options = &self.inner.options;
        let by_object = options.by_object.get(&key.gvk).cloned().unwrap_or_default();
        let request = ListWatchRequest {
            gvk: key.gvk.clone(),
            form: key.form,
            namespace: None,
            label_selector: by_object.label_selector.clone(),
            field_selector: by_object.field_selector.clone(),
        };
        let set = if by_object.namespaces.is_empty() {
            &options.default_namespaces
        } else {
            &by_object.namespaces
        };
        let list_watch_error = |source| CacheError::ListWatch {
            kind: key.gvk.to_string(),
            source,
        };
        // "" is every namespace (Go's `NamespaceAll`), which contains the others.
        let everywhere = set.is_empty() || set.contains("");
        let (lister_watcher, namespaces): (Arc<dyn ListerWatcher<T>>, _) = if everywhere {
            let all = self
                .inner
                .source
                .make::<T>(&request, from_client)
                .map_err(list_watch_error)?;
            (all, None)
        } else {
            let source = self.inner.source.clone();
            let make: MakeFn<T> = Arc::new(move |namespace| {
                let request = ListWatchRequest {
                    namespace,
                    ..request.clone()
                };
                source.make::<T>(&request, from_client)
            });
            let scope = Arc::new(OnceLock::new());
            let multi = MultiNamespaceListerWatcher::new(
                key.gvk.clone(),
                set.iter().cloned(),
                make,
                self.inner.source.scope_fn(),
                Arc::clone(&scope),
            )
            .map_err(list_watch_error)?;
            let namespaces = Namespaces {
                set: set.clone(),
                scope,
            };
            (Arc::new(multi), Some(Arc::new(namespaces)))
        };
        let transform: Option<TransformFunc<T>> = match by_object.transform {
            Some(any) => Some(Arc::new(move |mut obj: T| {
                any(&mut obj);
                obj
            })),
            None if options.strip_managed_fields => Some(default_transform::<T>()),
            None => None,
        };
        let informer = Informer::new(
            lister_watcher,
            ReflectorOptions {
                resync_period: by_object.sync_period.or(options.sync_period),
                initial_backoff: options.backoff.0,
                max_backoff: options.backoff.1,
                transform,
                watch_error_handler: options.watch_error_handler.clone(),
                store_codec: if options.store_encoded { codec() } else { None },
            },
        );
        Ok((informer, namespaces))
    }

    /// Adds a field index on `T` (controller-runtime's `IndexField`): `extract` gives the
    /// values of the field `field` of an object, which [`ListOptions::field_selector`]
    /// then finds. Only before the informer of `T` starts.
    pub fn index_field<T: Resource>(
        &self,
        field: &str,
        extract: impl Fn(&T) -> Vec<String> + Send + Sync + 'static,
    ) -> Result<(), CacheError> {
        Self::add_field_index(self.get_informer::<T>()?, &T::gvk(), field, extract)
    }

    /// [`index_field`](Self::index_field) on the [`Unstructured`] informer of `gvk`, for
    /// kinds without a Rust type (custom resources read as `Unstructured`), which
    /// [`list_unstructured`](Self::list_unstructured) then finds.
    ///
    /// ```
    /// # use controller_runtime::cache::Cache;
    /// # use apimachinery::schema::GroupVersionKind;
    /// # fn index(cache: &Cache) -> Result<(), controller_runtime::cache::CacheError> {
    /// let widgets = GroupVersionKind::new("example.com", "v1", "Widget");
    /// cache.index_field_for_kind(&widgets, "spec.owner", |w| {
    ///     w.nested_string(&["spec", "owner"]).ok().flatten().map(str::to_owned).into_iter().collect()
    /// })?;
    /// # Ok(()) }
    /// ```
    pub fn index_field_for_kind(
        &self,
        gvk: &GroupVersionKind,
        field: &str,
        extract: impl Fn(&Unstructured) -> Vec<String> + Send + Sync + 'static,
    ) -> Result<(), CacheError> {
        Self::add_field_index(self.get_informer_for_kind(gvk)?, gvk, field, extract)
    }

    /// [`index_field`](Self::index_field) on the metadata-only informer of `gvk`, which
    /// [`list_metadata`](Self::list_metadata) then finds.
    pub fn index_metadata_field(
        &self,
        gvk: &GroupVersionKind,
        field: &str,
        extract: impl Fn(&PartialObjectMetadata) -> Vec<String> + Send + Sync + 'static,
    ) -> Result<(), CacheError> {
        Self::add_field_index(self.get_metadata_informer(gvk)?, gvk, field, extract)
    }

    fn add_field_index<T: Object>(
        informer: Informer<T>,
        gvk: &GroupVersionKind,
        field: &str,
        extract: impl Fn(&T) -> Vec<String> + Send + Sync + 'static,
    ) -> Result<(), CacheError> {
        let func: IndexFunc<T> = Arc::new(move |obj: &T| {
            let values = extract(obj);
            let namespace = obj
                .meta()
                .map(|m| m.namespace().to_owned())
                .unwrap_or_default();
            let mut keys = Vec::with_capacity(values.len() * 2);
            for value in values {
                if !namespace.is_empty() {
                    keys.push(format!("{namespace}/{value}"));
                }
                keys.push(format!("{ALL_NAMESPACES_INDEX_KEY}/{value}"));
            }
            keys
        });
        informer
            .add_indexers([(field_index_name(field), func)])
            .map_err(|source| CacheError::Informer {
                kind: gvk.to_string(),
                source,
            })
    }

    /// Starts every informer made so far and every one made later; they stop when
    /// `cancel` fires (controller-runtime's `Start(ctx)`).
    pub fn start(&self, cancel: CancellationToken) {
        *self
            .inner
            .running
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(cancel.clone());
        let informers: Vec<_> = self
            .inner
            .informers
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .values()
            .map(|entry| Arc::clone(&entry.informer))
            .collect();
        for informer in informers {
            informer.start(cancel.clone());
        }
    }

    /// Waits until every informer made so far has its first list (controller-runtime's
    /// `WaitForCacheSync`); false if `cancel` fired first.
    pub async fn wait_for_cache_sync(&self, cancel: &CancellationToken) -> bool {
        let informers: Vec<_> = self
            .inner
            .informers
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .values()
            .map(|entry| Arc::clone(&entry.informer))
            .collect();
        for informer in informers {
            if informer.has_synced() {
                continue;
            }
            tokio::select! {
                _ = cancel.cancelled() => return false,
                _ = informer.wait_for_sync() => {}
            }
        }
        true
    }

    /// The informer's store once it has synced, and the namespaces it watches.
    async fn read<T: Object>(
        entry: InformerEntry<T>,
    ) -> Result<(Arc<Indexer<T>>, Option<Arc<Namespaces>>), CacheError> {
        let (informer, namespaces) = entry?;
        informer.wait_for_sync().await;
        Ok((Arc::clone(informer.indexer()), namespaces))
    }

    fn lookup<T: Object>(
        (store, namespaces): (Arc<Indexer<T>>, Option<Arc<Namespaces>>),
        kind: &str,
        key: &ObjectKey,
    ) -> Result<Arc<T>, CacheError> {
        Namespaces::check(namespaces.as_deref(), &key.namespace, || {
            format!("{}/{}", key.namespace, key.name)
        })?;
        let key = namespaced_key(&key.namespace, &key.name);
        match store.try_get_by_key(&key) {
            Ok(Some(obj)) => Ok(obj),
            Ok(None) => Err(CacheError::NotFound {
                kind: kind.to_owned(),
                key,
            }),
            Err(e) => Err(CacheError::Informer {
                kind: kind.to_owned(),
                source: InformerError::Store(e),
            }),
        }
    }

    fn select<T: Object>(
        (store, namespaces): (Arc<Indexer<T>>, Option<Arc<Namespaces>>),
        kind: &str,
        options: &ListOptions,
    ) -> Result<Vec<Arc<T>>, CacheError> {
        // A list without a namespace is the union of the watched ones: the store.
        if let Some(namespace) = options.namespace.as_deref().filter(|n| !n.is_empty()) {
            Namespaces::check(namespaces.as_deref(), namespace, || namespace.to_owned())?;
        }
        select(&store, kind, options)
    }

    /// The cached `T` that `key` names; waits for the informer's first list
    /// (controller-runtime's `Get`: the shared object itself by default, a fresh object
    /// decoded from the stored form with [`CacheOptions::store_encoded`]). A key in a
    /// namespace outside
    /// [`CacheOptions::default_namespaces`] (or the kind's [`ByObject::namespaces`]) is
    /// [`CacheError::UnknownNamespace`].
    pub async fn get<T: Resource>(&self, key: &ObjectKey) -> Result<Arc<T>, CacheError> {
        Self::lookup(Self::read(self.typed_entry::<T>()).await?, T::KIND, key)
    }

    /// The cached objects of `T` that `options` select (namespace, label selector, and
    /// `field=value` terms on indexed fields); waits for the informer's first list.
    /// Without a namespace, the objects of every watched namespace; a namespace outside
    /// them is [`CacheError::UnknownNamespace`].
    pub async fn list<T: Resource>(
        &self,
        options: &ListOptions,
    ) -> Result<Vec<Arc<T>>, CacheError> {
        Self::select(Self::read(self.typed_entry::<T>()).await?, T::KIND, options)
    }

    /// [`get`](Self::get) of any kind, as [`Unstructured`].
    pub async fn get_unstructured(
        &self,
        gvk: &GroupVersionKind,
        key: &ObjectKey,
    ) -> Result<Arc<Unstructured>, CacheError> {
        Self::lookup(
            Self::read(self.unstructured_entry(gvk)).await?,
            &gvk.kind,
            key,
        )
    }

    /// [`list`](Self::list) of any kind, as [`Unstructured`].
    pub async fn list_unstructured(
        &self,
        gvk: &GroupVersionKind,
        options: &ListOptions,
    ) -> Result<Vec<Arc<Unstructured>>, CacheError> {
        Self::select(
            Self::read(self.unstructured_entry(gvk)).await?,
            &gvk.kind,
            options,
        )
    }

    /// [`get`](Self::get) of an object's metadata alone.
    pub async fn get_metadata(
        &self,
        gvk: &GroupVersionKind,
        key: &ObjectKey,
    ) -> Result<Arc<PartialObjectMetadata>, CacheError> {
        Self::lookup(Self::read(self.metadata_entry(gvk)).await?, &gvk.kind, key)
    }

    /// [`list`](Self::list) of objects' metadata alone.
    pub async fn list_metadata(
        &self,
        gvk: &GroupVersionKind,
        options: &ListOptions,
    ) -> Result<Vec<Arc<PartialObjectMetadata>>, CacheError> {
        Self::select(
            Self::read(self.metadata_entry(gvk)).await?,
            &gvk.kind,
            options,
        )
    }
}

/// Reads `options`' selection from a store: the namespace index or a field index first,
/// then the other conditions on what it found.
fn select<T: Object>(
    store: &Indexer<T>,
    kind: &str,
    options: &ListOptions,
) -> Result<Vec<Arc<T>>, CacheError> {
    let mut namespace = options.namespace.clone().filter(|n| !n.is_empty());
    let mut name = None;
    let mut indexed = Vec::new();
    if let Some(selector) = &options.field_selector {
        for r in selector.requirements() {
            if r.negated {
                return Err(CacheError::UnsupportedFieldSelector {
                    kind: kind.to_owned(),
                    selector: format!("{}!={}", r.field, r.value),
                    reason: "the cache answers only field=value terms".to_owned(),
                });
            }
            match r.field.as_str() {
                "metadata.namespace" => match &namespace {
                    Some(ns) if *ns != r.value => return Ok(Vec::new()),
                    _ => namespace = Some(r.value.clone()),
                },
                "metadata.name" => name = Some(r.value.clone()),
                field => {
                    let index = field_index_name(field);
                    if !store.has_index(&index) {
                        return Err(CacheError::FieldNotIndexed {
                            kind: kind.to_owned(),
                            field: field.to_owned(),
                        });
                    }
                    indexed.push((index, r.value.clone()));
                }
            }
        }
    }
    let scope = |value: &str| match &namespace {
        Some(ns) => format!("{ns}/{value}"),
        None => format!("{ALL_NAMESPACES_INDEX_KEY}/{value}"),
    };
    let index_error = |e| CacheError::Informer {
        kind: kind.to_owned(),
        source: InformerError::Store(e),
    };
    let mut candidates = match indexed.split_first() {
        Some(((index, value), rest)) => {
            let mut found = store
                .try_by_index(index, &scope(value))
                .map_err(index_error)?;
            for (index, value) in rest {
                let keys: BTreeSet<String> = store
                    .index_keys(index, &scope(value))
                    .map_err(index_error)?
                    .into_iter()
                    .collect();
                found.retain(|o| keys.contains(&super::store::object_key(o.as_ref())));
            }
            found
        }
        None => match &namespace {
            Some(ns) => store
                .try_by_index(NAMESPACE_INDEX, ns)
                .map_err(index_error)?,
            None => store.try_list().map_err(index_error)?,
        },
    };
    candidates.retain(|obj| {
        let Some(meta) = obj.meta() else { return false };
        if let Some(name) = &name {
            if meta.name() != name {
                return false;
            }
        }
        if let Some(selector) = &options.label_selector {
            if !selector.is_empty() && !selector.matches(&meta.labels()) {
                return false;
            }
        }
        true
    });
    Ok(candidates)
}
