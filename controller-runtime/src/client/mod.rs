//! The client (controller-runtime's `pkg/client`): reads and writes objects of any kind
//! the [`Scheme`] knows, `Unstructured` objects of any kind, and metadata alone.
//!
//! A call starts from a Rust type (or a kind, for unstructured and metadata calls): the
//! scheme gives its group, version and kind, the [`apiutil::DynamicRESTMapper`]
//! its resource and scope, from the server's discovery. Built-in types travel as
//! protobuf (`application/vnd.kubernetes.protobuf`), everything else, and everything
//! when [`WireFormat::Json`] is asked for, as JSON. Failures are typed: [`Error::Api`]
//! carries the server's `Status` with Go's predicates (`is_not_found`, `is_conflict`,
//! `is_gone_or_expired`, ...).
//!
//! ```
//! use std::sync::Arc;
//! use controller_runtime::client::{Client, ListOptions, ObjectKey};
//! use controller_runtime::envtest::Environment;
//! use k8s_types::core::v1::ConfigMap;
//!
//! # tokio::runtime::Runtime::new()?.block_on(async {
//! let env = Environment::start().await?;
//! let client = Client::new(env.config(), env.scheme())?;
//!
//! let mut cm = ConfigMap::default();
//! cm.metadata.name = "settings".into();
//! cm.metadata.namespace = "default".into();
//! cm.data = [("mode".to_string(), "fast".to_string())].into();
//! let created = client.create(&cm, &Default::default()).await?;
//! assert!(!created.metadata.resource_version.is_empty());
//!
//! let got: ConfigMap = client.get(&ObjectKey::new("default", "settings")).await?;
//! assert_eq!(got.data, cm.data);
//! let list = client.list::<ConfigMap>(&ListOptions::in_namespace("default")).await?;
//! assert_eq!(list.items.len(), 1);
//!
//! let err = client.get::<ConfigMap>(&ObjectKey::new("default", "nope")).await.unwrap_err();
//! assert!(err.is_not_found());
//! env.stop().await;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! # })?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod apiutil;
mod apply;
mod codec;
pub mod delegating;
pub mod discovery;
mod error;
#[cfg(feature = "envtest")]
pub mod fake;
mod options;
mod watch;

use std::sync::Arc;

use apimachinery::apis::meta::v1::ListMeta;
use apimachinery::meta::{RESTMapping, RESTScopeName};
use apimachinery::runtime::{Object, Scheme, Unstructured, UnstructuredList};
use apimachinery::schema::{GroupKind, GroupVersionKind};
use futures_util::StreamExt as _;
use http::Method;
use k8s_types::meta::v1::{PartialObjectMetadata, PartialObjectMetadataList};

pub use apply::ApplyOptions;
pub use codec::WireFormat;
pub use error::{ApiError, Error, reason};
pub use options::{
    CreateOptions, DeleteOptions, ListOptions, ObjectKey, Patch, PatchOptions, Preconditions,
    PropagationPolicy, ResourceVersionMatch, UpdateOptions,
};
pub use watch::{WatchEvent, WatchStream};

use crate::config::Config;
use crate::transport::{Outgoing, Transport};
use apiutil::DynamicRESTMapper;
use apply::apply_intent;

/// The `Accept` header of metadata-only reads and watches, as client-go's metadata
/// client sends it: the server's `PartialObjectMetadata` conversion in protobuf, then in
/// JSON, with the full object as fallback for servers without it (read for its
/// metadata alone).
pub const ACCEPT_METADATA: &str = "application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json";
/// The same for lists (`PartialObjectMetadataList`).
pub const ACCEPT_METADATA_LIST: &str = "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json";
/// [`ACCEPT_METADATA`] without protobuf, for clients set to [`WireFormat::Json`].
pub const ACCEPT_METADATA_JSON: &str =
    "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json";
/// [`ACCEPT_METADATA_LIST`] without protobuf.
pub const ACCEPT_METADATA_LIST_JSON: &str =
    "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json";

/// How a client is set up beyond its [`Config`].
#[derive(Clone, Debug, Default)]
pub struct ClientOptions {
    /// Protobuf for built-in types (the default), or JSON for everything.
    pub wire_format: WireFormat,
}

/// A list of typed objects and the list's metadata (its `resourceVersion`, the
/// `continue` token of the next page).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ObjectList<T> {
    /// The list metadata.
    pub metadata: ListMeta,
    /// The objects.
    pub items: Vec<T>,
}

/// The direct client: every call is a request to the server. Cheap to clone (clones
/// share the connection pool, the scheme and the RESTMapper).
#[derive(Clone, Debug)]
pub struct Client {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    transport: Transport,
    scheme: Arc<Scheme>,
    mapper: DynamicRESTMapper,
    wire: WireFormat,
}

/// What a response decodes into.
#[derive(Clone, Debug)]
pub(crate) enum Target {
    /// The scheme's type of the kind.
    Typed(GroupVersionKind),
    /// `Unstructured`.
    Unstructured,
    /// `PartialObjectMetadata`.
    Metadata,
}

impl Target {
    /// Decodes one object (of a watch event, or an answer).
    pub(crate) fn decode(
        &self,
        scheme: &Scheme,
        protobuf: bool,
        bytes: &[u8],
    ) -> Result<Box<dyn Object>, String> {
        match self {
            Target::Typed(gvk) => {
                let ct = if protobuf {
                    codec::PROTOBUF
                } else {
                    codec::JSON
                };
                codec::decode(scheme, ct, bytes, gvk).map(|(o, _)| o)
            }
            Target::Unstructured => serde_json::from_slice::<Unstructured>(bytes)
                .map(|u| Box::new(u) as Box<dyn Object>)
                .map_err(|e| e.to_string()),
            Target::Metadata => {
                decode_metadata(bytes, protobuf).map(|m| Box::new(m) as Box<dyn Object>)
            }
        }
    }

    fn describe(&self) -> String {
        match self {
            Target::Typed(gvk) => gvk.to_string(),
            Target::Unstructured => "Unstructured".into(),
            Target::Metadata => "PartialObjectMetadata".into(),
        }
    }
}

/// An object's metadata, whether the server sent `PartialObjectMetadata` or the whole
/// object (unknown fields are ignored, as Go's decoder ignores them).
fn decode_metadata(bytes: &[u8], protobuf: bool) -> Result<PartialObjectMetadata, String> {
    let mut m: PartialObjectMetadata = if protobuf {
        // Every object's message holds its metadata in field 1, as
        // PartialObjectMetadata's does; the rest is skipped.
        let envelope = apimachinery::proto::decode_envelope(bytes).map_err(|e| e.to_string())?;
        apimachinery::proto::decode_message(envelope.raw).map_err(|e| e.to_string())?
    } else {
        serde_json::from_slice(bytes).map_err(|e| e.to_string())?
    };
    m.type_meta.api_version = "meta.k8s.io/v1".into();
    m.type_meta.kind = "PartialObjectMetadata".into();
    Ok(m)
}

/// Percent-encodes a path segment (names are DNS labels in practice, but a name read
/// from input must not be able to change the path).
fn segment(s: &str) -> String {
    crate::transport::percent_encode(s, |b| {
        b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b':' | b'@')
    })
}

/// Where a request goes.
struct Location<'a> {
    mapping: &'a RESTMapping,
    namespace: &'a str,
    name: Option<&'a str>,
    subresource: Option<&'a str>,
}

impl Location<'_> {
    fn path(&self, query: &[(&'static str, String)]) -> String {
        let r = &self.mapping.resource;
        let mut p = if r.group.is_empty() {
            format!("/api/{}", r.version)
        } else {
            format!("/apis/{}/{}", r.group, r.version)
        };
        if self.mapping.scope.name() == RESTScopeName::Namespace && !self.namespace.is_empty() {
            p.push_str("/namespaces/");
            p.push_str(&segment(self.namespace));
        }
        p.push('/');
        p.push_str(&r.resource);
        if let Some(n) = self.name {
            p.push('/');
            p.push_str(&segment(n));
        }
        if let Some(s) = self.subresource {
            p.push('/');
            p.push_str(s);
        }
        if !query.is_empty() {
            if let Ok(q) = serde_urlencoded::to_string(query) {
                p.push('?');
                p.push_str(&q);
            }
        }
        p
    }
}

impl Client {
    /// A client of the server `config` names, for the kinds `scheme` knows, speaking
    /// protobuf to built-in types.
    pub fn new(config: &Config, scheme: Arc<Scheme>) -> Result<Self, Error> {
        Self::with_options(config, scheme, ClientOptions::default())
    }

    /// A client with options.
    pub fn with_options(
        config: &Config,
        scheme: Arc<Scheme>,
        options: ClientOptions,
    ) -> Result<Self, Error> {
        let transport = Transport::new(config)?;
        let mapper = DynamicRESTMapper::new(transport.clone());
        Ok(Client {
            inner: Arc::new(Inner {
                transport,
                scheme,
                mapper,
                wire: options.wire_format,
            }),
        })
    }

    /// The scheme.
    pub fn scheme(&self) -> &Arc<Scheme> {
        &self.inner.scheme
    }

    /// The RESTMapper (shared by clones).
    pub fn rest_mapper(&self) -> &DynamicRESTMapper {
        &self.inner.mapper
    }

    /// Discovery of the server: the resources it serves, with their verbs (Go's
    /// discovery client), read afresh on each call.
    pub fn discovery(&self) -> discovery::DiscoveryClient {
        discovery::DiscoveryClient::new(self.inner.transport.clone())
    }

    /// The server's base URL.
    pub fn host(&self) -> &str {
        self.inner.transport.host()
    }

    /// The kind of the Rust type `T` in the scheme (Go's `apiutil.GVKForObject`).
    pub fn gvk_for<T: Object + Default>(&self) -> Result<GroupVersionKind, Error> {
        if let Some(gvk) = self.inner.scheme.kinds_for_type::<T>().first() {
            return Ok(gvk.clone());
        }
        Err(Error::NotRegistered {
            type_name: std::any::type_name::<T>(),
        })
    }

    /// The kind an object is written as: an unstructured object's own, a typed
    /// object's from the scheme.
    pub fn gvk_of(&self, obj: &dyn Object) -> Result<GroupVersionKind, Error> {
        if obj.is_unstructured() {
            return Ok(obj.group_version_kind());
        }
        match self.inner.scheme.object_kinds(obj) {
            Ok((kinds, _)) if !kinds.is_empty() => Ok(kinds[0].clone()),
            _ => Err(Error::NotRegistered {
                type_name: obj.type_name(),
            }),
        }
    }

    /// The resource mapping of a kind.
    pub async fn rest_mapping(&self, gvk: &GroupVersionKind) -> Result<RESTMapping, Error> {
        self.inner
            .mapper
            .rest_mapping(
                &GroupKind::new(&gvk.group, &gvk.kind),
                Some(gvk.version.as_str()),
            )
            .await
    }

    fn protobuf_for(&self, target: &Target) -> bool {
        match target {
            Target::Typed(gvk) => {
                self.inner.wire == WireFormat::Protobuf
                    && codec::has_protobuf(&self.inner.scheme, gvk)
            }
            _ => false,
        }
    }

    fn accept(&self, target: &Target, list: bool) -> &'static str {
        match target {
            Target::Metadata => match (self.inner.wire, list) {
                (WireFormat::Protobuf, true) => ACCEPT_METADATA_LIST,
                (WireFormat::Protobuf, false) => ACCEPT_METADATA,
                (_, true) => ACCEPT_METADATA_LIST_JSON,
                (_, false) => ACCEPT_METADATA_JSON,
            },
            _ if self.protobuf_for(target) => codec::ACCEPT_PROTOBUF,
            _ => codec::JSON,
        }
    }

    /// Sends a request and returns the answer's content type and body, or the API error.
    async fn call(
        &self,
        method: Method,
        path: &str,
        accept: &str,
        body: Option<(Vec<u8>, &str)>,
    ) -> Result<(String, bytes::Bytes), Error> {
        let answer = self
            .inner
            .transport
            .fetch(Outgoing {
                method,
                path,
                accept,
                body,
                streaming: false,
            })
            .await?;
        if !(200..300).contains(&answer.code) {
            return Err(codec::api_error(answer.code, &answer.body).into());
        }
        Ok((answer.content_type, answer.body))
    }

    fn decode_answer(
        &self,
        target: &Target,
        path: &str,
        content_type: &str,
        body: &[u8],
    ) -> Result<Box<dyn Object>, Error> {
        let protobuf = codec::is_protobuf(content_type);
        target
            .decode(&self.inner.scheme, protobuf, body)
            .map_err(|message| Error::Decode {
                what: target.describe(),
                url: format!("{}{path}", self.host()),
                message,
            })
    }

    // ---- kind-erased operations, which every typed method calls -------------------

    /// Reads one object of a kind, decoded as `target` says.
    async fn get_erased(
        &self,
        gvk: &GroupVersionKind,
        target: Target,
        key: &ObjectKey,
    ) -> Result<Box<dyn Object>, Error> {
        if key.name.is_empty() {
            return Err(Error::NameRequired { gvk: gvk.clone() });
        }
        let mapping = self.rest_mapping(gvk).await?;
        let path = Location {
            mapping: &mapping,
            namespace: &key.namespace,
            name: Some(&key.name),
            subresource: None,
        }
        .path(&[]);
        let accept = self.accept(&target, false);
        let (ct, body) = self.call(Method::GET, &path, accept, None).await?;
        self.decode_answer(&target, &path, &ct, &body)
    }

    /// Lists a kind; the answer's bytes and the path asked.
    async fn list_raw(
        &self,
        gvk: &GroupVersionKind,
        target: &Target,
        opts: &ListOptions,
    ) -> Result<(String, bytes::Bytes, String), Error> {
        let mapping = self.rest_mapping(gvk).await?;
        let mut query = Vec::new();
        opts.query(false, &mut query);
        let path = Location {
            mapping: &mapping,
            namespace: opts.namespace.as_deref().unwrap_or_default(),
            name: None,
            subresource: None,
        }
        .path(&query);
        let accept = self.accept(target, true);
        let (ct, body) = self.call(Method::GET, &path, accept, None).await?;
        Ok((ct, body, path))
    }

    /// Sends `obj` (create, update, status update) and decodes the answer as `obj`'s type.
    async fn write_erased(
        &self,
        method: Method,
        obj: &dyn Object,
        subresource: Option<&str>,
        query: &[(&'static str, String)],
    ) -> Result<Box<dyn Object>, Error> {
        let gvk = self.gvk_of(obj)?;
        let target = if obj.is_unstructured() {
            Target::Unstructured
        } else {
            Target::Typed(gvk.clone())
        };
        let mapping = self.rest_mapping(&gvk).await?;
        let (namespace, name) = obj
            .meta()
            .map(|m| (m.namespace().to_string(), m.name().to_string()))
            .unwrap_or_default();
        if mapping.scope.name() == RESTScopeName::Namespace && namespace.is_empty() {
            return Err(Error::NamespaceRequired { gvk, name });
        }
        let creating = method == Method::POST;
        if !creating && name.is_empty() {
            return Err(Error::NameRequired { gvk });
        }
        let path = Location {
            mapping: &mapping,
            namespace: &namespace,
            name: (!creating).then_some(name.as_str()),
            subresource,
        }
        .path(query);
        let protobuf = self.protobuf_for(&target);
        let body = if obj.is_unstructured() {
            serde_json::to_vec(obj).map_err(|e| Error::Encode {
                gvk: gvk.clone(),
                message: e.to_string(),
            })?
        } else {
            let mut typed = obj.deep_copy_object();
            typed.set_group_version_kind(&gvk);
            codec::encode(&self.inner.scheme, &*typed, protobuf).map_err(|message| {
                Error::Encode {
                    gvk: gvk.clone(),
                    message,
                }
            })?
        };
        let content_type = if protobuf {
            codec::PROTOBUF
        } else {
            codec::JSON
        };
        let accept = self.accept(&target, false);
        let (ct, answer) = self
            .call(method, &path, accept, Some((body, content_type)))
            .await?;
        self.decode_answer(&target, &path, &ct, &answer)
    }

    async fn patch_erased(
        &self,
        obj: &dyn Object,
        patch: &Patch,
        opts: &PatchOptions,
        subresource: Option<&str>,
    ) -> Result<Box<dyn Object>, Error> {
        let gvk = self.gvk_of(obj)?;
        let target = if obj.is_unstructured() {
            Target::Unstructured
        } else {
            Target::Typed(gvk.clone())
        };
        let mapping = self.rest_mapping(&gvk).await?;
        let key = ObjectKey::of(obj);
        if key.name.is_empty() {
            return Err(Error::NameRequired { gvk });
        }
        let mut query = Vec::new();
        options::write_query(opts.dry_run, opts.field_manager.as_deref(), &mut query);
        if opts.force {
            query.push(("force", "true".into()));
        }
        let path = Location {
            mapping: &mapping,
            namespace: &key.namespace,
            name: Some(&key.name),
            subresource,
        }
        .path(&query);
        let accept = self.accept(&target, false);
        let body = match patch {
            Patch::Apply(intent) => apply_intent(intent, &gvk)?,
            other => other.body(),
        };
        let (ct, answer) = self
            .call(
                Method::PATCH,
                &path,
                accept,
                Some((body, patch.content_type())),
            )
            .await?;
        self.decode_answer(&target, &path, &ct, &answer)
    }

    async fn delete_erased(
        &self,
        gvk: &GroupVersionKind,
        key: &ObjectKey,
        opts: &DeleteOptions,
    ) -> Result<(), Error> {
        if key.name.is_empty() {
            return Err(Error::NameRequired { gvk: gvk.clone() });
        }
        let mapping = self.rest_mapping(gvk).await?;
        let path = Location {
            mapping: &mapping,
            namespace: &key.namespace,
            name: Some(&key.name),
            subresource: None,
        }
        .path(&[]);
        self.call(
            Method::DELETE,
            &path,
            codec::JSON,
            Some((opts.body(), codec::JSON)),
        )
        .await?;
        Ok(())
    }

    async fn watch_erased(
        &self,
        gvk: &GroupVersionKind,
        target: Target,
        opts: &ListOptions,
    ) -> Result<WatchStream<Box<dyn Object>>, Error> {
        let (body, protobuf, url) = self.open_watch(gvk, &target, opts).await?;
        Ok(watch::stream(
            body,
            protobuf,
            self.inner.scheme.clone(),
            target,
            url,
        ))
    }

    /// Starts a watch: the response body, whether it is protobuf, and its URL.
    async fn open_watch(
        &self,
        gvk: &GroupVersionKind,
        target: &Target,
        opts: &ListOptions,
    ) -> Result<(crate::transport::StreamBody, bool, String), Error> {
        let mapping = self.rest_mapping(gvk).await?;
        let mut query = Vec::new();
        opts.query(true, &mut query);
        let path = Location {
            mapping: &mapping,
            namespace: opts.namespace.as_deref().unwrap_or_default(),
            name: None,
            subresource: None,
        }
        .path(&query);
        let accept = self.accept(target, false);
        let response = self
            .inner
            .transport
            .open(Outgoing {
                method: Method::GET,
                path: &path,
                accept,
                body: None,
                streaming: true,
            })
            .await?;
        let code = response.status().as_u16();
        let content_type = response
            .headers()
            .get(http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string();
        let url = format!("{}{path}", self.host());
        if !(200..300).contains(&code) {
            use http_body_util::BodyExt as _;
            let body = response
                .into_body()
                .collect()
                .await
                .map(|c| c.to_bytes())
                .unwrap_or_default();
            return Err(codec::api_error(code, &body).into());
        }
        Ok((response.into_body(), codec::is_protobuf(&content_type), url))
    }

    // ---- typed ---------------------------------------------------------------------

    /// Reads the object `key` names (Go's `Get`).
    pub async fn get<T: Object + Default>(&self, key: &ObjectKey) -> Result<T, Error> {
        let gvk = self.gvk_for::<T>()?;
        let obj = self
            .get_erased(&gvk, Target::Typed(gvk.clone()), key)
            .await?;
        downcast(obj, self.host())
    }

    /// Lists objects of `T` (Go's `List`).
    pub async fn list<T: Object + Default>(
        &self,
        opts: &ListOptions,
    ) -> Result<ObjectList<T>, Error> {
        let gvk = self.gvk_for::<T>()?;
        let list = self.list_dyn(&gvk, opts).await?;
        let items = list
            .items
            .into_iter()
            .map(|o| downcast(o, self.host()))
            .collect::<Result<Vec<T>, Error>>()?;
        Ok(ObjectList {
            metadata: list.metadata,
            items,
        })
    }

    /// Creates an object and returns it as stored (Go's `Create`). Works for typed and
    /// unstructured objects.
    pub async fn create<T: Object>(&self, obj: &T, opts: &CreateOptions) -> Result<T, Error> {
        let mut query = Vec::new();
        options::write_query(opts.dry_run, opts.field_manager.as_deref(), &mut query);
        let out = self.write_erased(Method::POST, obj, None, &query).await?;
        downcast(out, self.host())
    }

    /// Replaces an object; its `resourceVersion` guards against lost updates (409
    /// Conflict when stale). Go's `Update`.
    pub async fn update<T: Object>(&self, obj: &T, opts: &UpdateOptions) -> Result<T, Error> {
        let mut query = Vec::new();
        options::write_query(opts.dry_run, opts.field_manager.as_deref(), &mut query);
        let out = self.write_erased(Method::PUT, obj, None, &query).await?;
        downcast(out, self.host())
    }

    /// Patches the object `obj` names (its kind, namespace and name) and returns it as
    /// stored (Go's `Patch`).
    pub async fn patch<T: Object>(
        &self,
        obj: &T,
        patch: &Patch,
        opts: &PatchOptions,
    ) -> Result<T, Error> {
        let out = self.patch_erased(obj, patch, opts, None).await?;
        downcast(out, self.host())
    }

    /// Deletes the object `obj` names (Go's `Delete`). An object with finalizers is
    /// only marked for deletion (its `deletionTimestamp` set).
    pub async fn delete<T: Object>(&self, obj: &T, opts: &DeleteOptions) -> Result<(), Error> {
        let gvk = self.gvk_of(obj)?;
        self.delete_erased(&gvk, &ObjectKey::of(obj), opts).await
    }

    /// Deletes every object of `T` that `list` selects (Go's `DeleteAllOf`).
    pub async fn delete_all_of<T: Object + Default>(
        &self,
        list: &ListOptions,
        opts: &DeleteOptions,
    ) -> Result<(), Error> {
        let gvk = self.gvk_for::<T>()?;
        self.delete_collection(&gvk, list, opts).await
    }

    /// Deletes every object of a kind that `list` selects.
    pub async fn delete_collection(
        &self,
        gvk: &GroupVersionKind,
        list: &ListOptions,
        opts: &DeleteOptions,
    ) -> Result<(), Error> {
        let mapping = self.rest_mapping(gvk).await?;
        let mut query = Vec::new();
        list.query(false, &mut query);
        let path = Location {
            mapping: &mapping,
            namespace: list.namespace.as_deref().unwrap_or_default(),
            name: None,
            subresource: None,
        }
        .path(&query);
        self.call(
            Method::DELETE,
            &path,
            codec::JSON,
            Some((opts.body(), codec::JSON)),
        )
        .await?;
        Ok(())
    }

    /// Watches objects of `T` (Go's `Watch` of a `WithWatch` client). Start from the
    /// `resourceVersion` of a list to miss nothing; an `Err` item answering
    /// [`Error::is_gone_or_expired`] means that version is no longer kept: list again.
    ///
    /// ```
    /// use controller_runtime::client::{Client, ListOptions, WatchEvent};
    /// use controller_runtime::envtest::Environment;
    /// use futures_util::StreamExt;
    /// use k8s_types::core::v1::ConfigMap;
    ///
    /// # tokio::runtime::Runtime::new()?.block_on(async {
    /// let env = Environment::start().await?;
    /// let client = Client::new(env.config(), env.scheme())?;
    /// let list = client.list::<ConfigMap>(&ListOptions::in_namespace("default")).await?;
    /// let mut events = client
    ///     .watch::<ConfigMap>(&ListOptions {
    ///         resource_version: Some(list.metadata.resource_version),
    ///         allow_watch_bookmarks: true,
    ///         ..ListOptions::in_namespace("default")
    ///     })
    ///     .await?;
    ///
    /// let mut cm = ConfigMap::default();
    /// cm.metadata.name = "new".into();
    /// cm.metadata.namespace = "default".into();
    /// client.create(&cm, &Default::default()).await?;
    ///
    /// match events.next().await {
    ///     Some(Ok(WatchEvent::Added(cm))) => assert_eq!(cm.metadata.name, "new"),
    ///     Some(Err(e)) if e.is_gone_or_expired() => { /* relist */ }
    ///     other => panic!("{other:?}"),
    /// }
    /// env.stop().await;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// # })?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub async fn watch<T: Object + Default>(
        &self,
        opts: &ListOptions,
    ) -> Result<WatchStream<T>, Error> {
        let gvk = self.gvk_for::<T>()?;
        let (body, protobuf, url) = self
            .open_watch(&gvk, &Target::Typed(gvk.clone()), opts)
            .await?;
        Ok(watch::typed_stream(
            body,
            protobuf,
            self.inner.scheme.clone(),
            gvk,
            (url, self.host()),
        ))
    }

    /// Decodes a watch response body that arrived by other means (recorded, or relayed)
    /// exactly as [`Client::watch`] decodes a connection's: `content_type` is the
    /// response's (`application/json`: newline-delimited `WatchEvent`s;
    /// `application/vnd.kubernetes.protobuf;stream=watch`: length-prefixed `WatchEvent`
    /// frames), `chunks` the body in the pieces it was read in.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use bytes::Bytes;
    /// use controller_runtime::client::{Client, WatchEvent};
    /// use controller_runtime::config::Config;
    /// use futures_util::StreamExt;
    /// use k8s_types::core::v1::ConfigMap;
    ///
    /// # tokio::runtime::Runtime::new()?.block_on(async {
    /// let mut scheme = apimachinery::runtime::Scheme::new();
    /// k8s_types::register(&mut scheme)?;
    /// let client = Client::new(&Config::new("http://127.0.0.1:1"), Arc::new(scheme))?;
    /// let body = Bytes::from_static(
    ///     b"{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}}\n",
    /// );
    /// let mut events =
    ///     client.decode_watch::<ConfigMap, _>("application/json", futures_util::stream::iter([body]))?;
    /// match events.next().await {
    ///     Some(Ok(WatchEvent::Added(cm))) => assert_eq!(cm.metadata.name, "a"),
    ///     other => panic!("{other:?}"),
    /// }
    /// assert!(events.next().await.is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// # })?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn decode_watch<T, S>(&self, content_type: &str, chunks: S) -> Result<WatchStream<T>, Error>
    where
        T: Object + Default,
        S: futures_core::Stream<Item = bytes::Bytes> + Send + Unpin + 'static,
    {
        let gvk = self.gvk_for::<T>()?;
        let body = http_body_util::StreamBody::new(
            chunks.map(|c| Ok::<_, std::convert::Infallible>(hyper::body::Frame::data(c))),
        );
        Ok(watch::typed_stream(
            body,
            codec::is_protobuf(content_type),
            self.inner.scheme.clone(),
            gvk,
            (self.host().to_string(), self.host()),
        ))
    }

    /// The writer of the status subresource (Go's `Status()`).
    pub fn status(&self) -> SubResourceClient<'_> {
        SubResourceClient {
            client: self,
            subresource: "status",
        }
    }

    /// The writer of any subresource, such as `scale` (Go's `SubResource(name)`).
    pub fn sub_resource<'a>(&'a self, subresource: &'static str) -> SubResourceClient<'a> {
        SubResourceClient {
            client: self,
            subresource,
        }
    }

    // ---- by kind, typed through the scheme ---------------------------------------------

    /// Reads an object of a kind as the scheme's type for it, boxed (for code generic
    /// over kinds, such as an informer per GVK).
    pub async fn get_dyn(
        &self,
        gvk: &GroupVersionKind,
        key: &ObjectKey,
    ) -> Result<Box<dyn Object>, Error> {
        self.get_erased(gvk, Target::Typed(gvk.clone()), key).await
    }

    /// Lists objects of a kind as the scheme's type for it: the list metadata and the
    /// boxed items (moved out of the decoded list, not copied).
    pub async fn list_dyn(
        &self,
        gvk: &GroupVersionKind,
        opts: &ListOptions,
    ) -> Result<ObjectList<Box<dyn Object>>, Error> {
        let target = Target::Typed(gvk.clone());
        let (ct, body, path) = self.list_raw(gvk, &target, opts).await?;
        let list_gvk = GroupVersionKind::new(&gvk.group, &gvk.version, format!("{}List", gvk.kind));
        let decode_error = |message: String| Error::Decode {
            what: list_gvk.to_string(),
            url: format!("{}{path}", self.host()),
            message,
        };
        if codec::is_protobuf(&ct) {
            // The list message read item by item (ListMeta = 1, items = 2), each item
            // decoded straight into its own box.
            return codec::decode_protobuf_list(&self.inner.scheme, &body, gvk)
                .map(|(metadata, items)| ObjectList { metadata, items })
                .map_err(decode_error);
        }
        #[derive(serde::Deserialize)]
        struct RawList<'a> {
            #[serde(default)]
            metadata: ListMeta,
            #[serde(borrow, default)]
            items: Option<Vec<&'a serde_json::value::RawValue>>,
        }
        let raw: RawList<'_> =
            serde_json::from_slice(&body).map_err(|e| decode_error(e.to_string()))?;
        let mut items = Vec::new();
        for item in raw.items.unwrap_or_default() {
            items.push(
                self.inner
                    .scheme
                    .decode_json(gvk, item.get().as_bytes())
                    .map_err(|e| decode_error(e.to_string()))?,
            );
        }
        Ok(ObjectList {
            metadata: raw.metadata,
            items,
        })
    }

    /// Watches objects of a kind as the scheme's type for it, boxed.
    pub async fn watch_dyn(
        &self,
        gvk: &GroupVersionKind,
        opts: &ListOptions,
    ) -> Result<WatchStream<Box<dyn Object>>, Error> {
        self.watch_erased(gvk, Target::Typed(gvk.clone()), opts)
            .await
    }

    // ---- unstructured ----------------------------------------------------------------

    /// Reads an object of any served kind as `Unstructured` (JSON).
    pub async fn get_unstructured(
        &self,
        gvk: &GroupVersionKind,
        key: &ObjectKey,
    ) -> Result<Unstructured, Error> {
        let obj = self.get_erased(gvk, Target::Unstructured, key).await?;
        downcast(obj, self.host())
    }

    /// Lists objects of any served kind as an `UnstructuredList`.
    pub async fn list_unstructured(
        &self,
        gvk: &GroupVersionKind,
        opts: &ListOptions,
    ) -> Result<UnstructuredList, Error> {
        let (_, body, path) = self.list_raw(gvk, &Target::Unstructured, opts).await?;
        serde_json::from_slice(&body).map_err(|e| Error::Decode {
            what: format!("{gvk} list"),
            url: format!("{}{path}", self.host()),
            message: e.to_string(),
        })
    }

    /// Watches objects of any served kind as `Unstructured`.
    pub async fn watch_unstructured(
        &self,
        gvk: &GroupVersionKind,
        opts: &ListOptions,
    ) -> Result<WatchStream<Unstructured>, Error> {
        let stream = self.watch_erased(gvk, Target::Unstructured, opts).await?;
        Ok(map_stream(stream, self.host().to_string()))
    }

    /// Deletes an object of any served kind by key.
    pub async fn delete_by_key(
        &self,
        gvk: &GroupVersionKind,
        key: &ObjectKey,
        opts: &DeleteOptions,
    ) -> Result<(), Error> {
        self.delete_erased(gvk, key, opts).await
    }

    // ---- metadata only ---------------------------------------------------------------

    /// Reads an object's metadata alone (Go's metadata client).
    pub async fn get_metadata(
        &self,
        gvk: &GroupVersionKind,
        key: &ObjectKey,
    ) -> Result<PartialObjectMetadata, Error> {
        let obj = self.get_erased(gvk, Target::Metadata, key).await?;
        downcast(obj, self.host())
    }

    /// Lists the metadata of objects of a kind.
    pub async fn list_metadata(
        &self,
        gvk: &GroupVersionKind,
        opts: &ListOptions,
    ) -> Result<PartialObjectMetadataList, Error> {
        let (content_type, body, path) = self.list_raw(gvk, &Target::Metadata, opts).await?;
        let decoded: Result<PartialObjectMetadataList, String> =
            if codec::is_protobuf(&content_type) {
                // Any list's message: its ListMeta in field 1, items in field 2, each
                // item's metadata in its field 1.
                apimachinery::proto::decode_envelope(&body)
                    .and_then(|e| apimachinery::proto::decode_message(e.raw))
                    .map_err(|e| e.to_string())
            } else {
                serde_json::from_slice(&body).map_err(|e| e.to_string())
            };
        let mut list = decoded.map_err(|message| Error::Decode {
            what: format!("{gvk} metadata list"),
            url: format!("{}{path}", self.host()),
            message,
        })?;
        list.type_meta.api_version = "meta.k8s.io/v1".into();
        list.type_meta.kind = "PartialObjectMetadataList".into();
        for item in list.items.iter_mut().flatten() {
            item.type_meta.api_version = "meta.k8s.io/v1".into();
            item.type_meta.kind = "PartialObjectMetadata".into();
        }
        Ok(list)
    }

    /// Watches the metadata of objects of a kind.
    pub async fn watch_metadata(
        &self,
        gvk: &GroupVersionKind,
        opts: &ListOptions,
    ) -> Result<WatchStream<PartialObjectMetadata>, Error> {
        let stream = self.watch_erased(gvk, Target::Metadata, opts).await?;
        Ok(map_stream(stream, self.host().to_string()))
    }
}

/// Writes a subresource (`status`, `scale`) of objects, or creates one (`pods/binding`,
/// `pods/eviction`, `serviceaccounts/token`) (Go's `SubResourceWriter`).
#[derive(Clone, Copy, Debug)]
pub struct SubResourceClient<'a> {
    client: &'a Client,
    subresource: &'static str,
}

impl SubResourceClient<'_> {
    /// Replaces the subresource from `obj` (for `status`: only `.status` is taken).
    pub async fn update<T: Object>(&self, obj: &T, opts: &UpdateOptions) -> Result<T, Error> {
        let mut query = Vec::new();
        options::write_query(opts.dry_run, opts.field_manager.as_deref(), &mut query);
        let out = self
            .client
            .write_erased(Method::PUT, obj, Some(self.subresource), &query)
            .await?;
        downcast(out, self.client.host())
    }

    /// Posts `body` to the subresource of the object `obj` names (Go's
    /// `SubResourceWriter.Create`: a `Binding` to `pods/NAME/binding`, an `Eviction` to
    /// `pods/NAME/eviction`), in JSON; the answer comes back as it was sent (a `Status`
    /// for a binding), unstructured.
    pub async fn create(
        &self,
        obj: &dyn Object,
        body: &dyn Object,
        opts: &CreateOptions,
    ) -> Result<Unstructured, Error> {
        let client = self.client;
        let gvk = client.gvk_of(obj)?;
        let mapping = client.rest_mapping(&gvk).await?;
        let (namespace, name) = obj
            .meta()
            .map(|m| (m.namespace().to_string(), m.name().to_string()))
            .unwrap_or_default();
        if name.is_empty() {
            return Err(Error::NameRequired { gvk });
        }
        if mapping.scope.name() == RESTScopeName::Namespace && namespace.is_empty() {
            return Err(Error::NamespaceRequired { gvk, name });
        }
        let mut query = Vec::new();
        options::write_query(opts.dry_run, opts.field_manager.as_deref(), &mut query);
        let path = Location {
            mapping: &mapping,
            namespace: &namespace,
            name: Some(&name),
            subresource: Some(self.subresource),
        }
        .path(&query);
        let body_gvk = client.gvk_of(body)?;
        let mut typed = body.deep_copy_object();
        typed.set_group_version_kind(&body_gvk);
        let bytes = codec::encode(&client.inner.scheme, &*typed, false).map_err(|message| {
            Error::Encode {
                gvk: body_gvk.clone(),
                message,
            }
        })?;
        let (ct, answer) = client
            .call(Method::POST, &path, codec::JSON, Some((bytes, codec::JSON)))
            .await?;
        let answer = client.decode_answer(&Target::Unstructured, &path, &ct, &answer)?;
        downcast(answer, client.host())
    }

    /// Patches the subresource of the object `obj` names.
    pub async fn patch<T: Object>(
        &self,
        obj: &T,
        patch: &Patch,
        opts: &PatchOptions,
    ) -> Result<T, Error> {
        let out = self
            .client
            .patch_erased(obj, patch, opts, Some(self.subresource))
            .await?;
        downcast(out, self.client.host())
    }
}

fn map_stream<T: Object>(stream: WatchStream<Box<dyn Object>>, host: String) -> WatchStream<T> {
    Box::pin(stream.map(move |item| {
        item.and_then(|ev| {
            Ok(match ev {
                WatchEvent::Added(o) => WatchEvent::Added(downcast(o, &host)?),
                WatchEvent::Modified(o) => WatchEvent::Modified(downcast(o, &host)?),
                WatchEvent::Deleted(o) => WatchEvent::Deleted(downcast(o, &host)?),
                WatchEvent::Bookmark { resource_version } => {
                    WatchEvent::Bookmark { resource_version }
                }
            })
        })
    }))
}

fn downcast<T: Object>(obj: Box<dyn Object>, host: &str) -> Result<T, Error> {
    obj.downcast::<T>()
        .map(|b| *b)
        .map_err(|other| Error::UnexpectedType {
            url: host.to_string(),
            expected: std::any::type_name::<T>(),
            got: other.type_name(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use apimachinery::meta::RESTScope;
    use apimachinery::schema::GroupVersionResource;

    fn mapping(group: &str, resource: &str, scope: RESTScope) -> RESTMapping {
        RESTMapping {
            resource: GroupVersionResource::new(group, "v1", resource),
            group_version_kind: GroupVersionKind::new(group, "v1", "X"),
            scope,
        }
    }

    #[test]
    fn paths_as_client_go_builds_them() {
        let pods = mapping("", "pods", RESTScope::NAMESPACE);
        let loc = |ns, name, sub| Location {
            mapping: &pods,
            namespace: ns,
            name,
            subresource: sub,
        };
        assert_eq!(loc("", None, None).path(&[]), "/api/v1/pods");
        assert_eq!(
            loc("ns", Some("p"), Some("status")).path(&[]),
            "/api/v1/namespaces/ns/pods/p/status"
        );
        assert_eq!(
            loc("ns", None, None).path(&[("labelSelector", "a=b,c in (d)".into())]),
            "/api/v1/namespaces/ns/pods?labelSelector=a%3Db%2Cc+in+%28d%29"
        );
        // A name cannot escape its path segment.
        assert_eq!(
            loc("ns", Some("../../x?y"), None).path(&[]),
            "/api/v1/namespaces/ns/pods/..%2F..%2Fx%3Fy"
        );
        let nodes = mapping("", "nodes", RESTScope::ROOT);
        let cluster = Location {
            mapping: &nodes,
            namespace: "ignored",
            name: Some("n1"),
            subresource: None,
        };
        assert_eq!(cluster.path(&[]), "/api/v1/nodes/n1");
        let deploys = mapping("apps", "deployments", RESTScope::NAMESPACE);
        let apps = Location {
            mapping: &deploys,
            namespace: "ns",
            name: None,
            subresource: None,
        };
        assert_eq!(apps.path(&[]), "/apis/apps/v1/namespaces/ns/deployments");
    }

    #[test]
    fn metadata_is_read_from_either_answer() {
        // What a server with `as=PartialObjectMetadata` answers, and what one without
        // it falls back to: the same metadata.
        let partial = br#"{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"name":"a","labels":{"x":"y"}}}"#;
        let full = br#"{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","labels":{"x":"y"}},"data":{"k":"v"}}"#;
        let (p, f) = (
            decode_metadata(partial, false).unwrap(),
            decode_metadata(full, false).unwrap(),
        );
        assert_eq!(p, f);
        assert_eq!(f.type_meta.kind, "PartialObjectMetadata");
        assert_eq!(f.metadata.labels.get("x").map(String::as_str), Some("y"));
        // In protobuf: PartialObjectMetadata, or any object's message (its metadata is
        // field 1 too).
        let mut scheme = Scheme::new();
        k8s_types::register(&mut scheme).unwrap();
        let mut cm = k8s_types::core::v1::ConfigMap::default();
        cm.metadata.name = "a".into();
        cm.metadata.labels = [("x".to_string(), "y".to_string())].into();
        cm.data = [("k".to_string(), "v".to_string())].into();
        let full = codec::encode(&scheme, &cm, true).unwrap();
        let partial = codec::encode(&scheme, &p, true).unwrap();
        assert!(full.starts_with(b"k8s\0"));
        assert_eq!(decode_metadata(&full, true).unwrap(), f);
        assert_eq!(decode_metadata(&partial, true).unwrap(), f);
        assert!(decode_metadata(b"k8s\0\x0a\xff", true).is_err());
    }
}
