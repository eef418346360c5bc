//! What the endpoints call for one resource (Go's `registry/rest`): a [`RestStorage`]
//! per served resource, its [`Store`] with the resource's
//! [`Strategy`](super::Strategy), and whatever the resource adds to the generic verbs:
//! objects answered without being stored (the reviews: [`Creater`]), subresources
//! beside `/status` (a ServiceAccount's `token`), the `/scale` view ([`Scaler`]), the
//! table of `kubectl get` ([`TableConvertor`]), and hooks around creates and deletes.
//! The REST storages of the built-in resources are in the resource modules beside this
//! one; the endpoints see only these traits.

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::sync::Arc;

use apimachinery::api::errors::StatusError;
use apimachinery::managedfields::fieldpath::Path;
use apimachinery::managedfields::spec_replicas;
use apimachinery::runtime::Object;
use apimachinery::schema::GroupVersionKind;
use serde_json::{Map, Value};

use super::delete_params::DeleteParams;
use super::store::Store;
use crate::authentication::user::Info;

/// What a REST storage's verbs see of a request (what Go keeps in its request context).
#[derive(Clone, Copy, Debug)]
pub struct Context<'a> {
    /// Who asks.
    pub user: &'a Info,
    /// The namespace of the request's path, empty for cluster-scoped resources.
    pub namespace: &'a str,
    /// The object's name on the path (the parent's, for a subresource), empty for a
    /// collection.
    pub name: &'a str,
    /// The API version of the request's path.
    pub version: &'a str,
    /// Whether nothing is to be written (`dryRun=All`).
    pub dry_run: bool,
}

/// A create answered without storing anything (Go's `rest.Creater` of the review
/// resources and of `serviceaccounts/token`): the object posted comes back with what the
/// server has to say filled in, 201.
#[async_trait::async_trait]
pub trait Creater: Send + Sync + Debug {
    /// The kind posted (and answered) at `version` of the request's path.
    fn kind(&self, version: &str) -> GroupVersionKind;

    /// The kind answered: the kind posted, unless the answer is another (`pods/binding`
    /// answers a `Status`).
    fn answer_kind(&self, version: &str) -> GroupVersionKind {
        self.kind(version)
    }

    /// Whether a body of `gvk`, another version of [`kind`](Self::kind), is taken too
    /// (Go's `GroupVersionAcceptor`: `pods/eviction` takes policy/v1beta1 Evictions); it
    /// is converted to `kind` before [`create`](Self::create) sees it.
    fn accepts(&self, _gvk: &GroupVersionKind) -> bool {
        false
    }

    /// The answer to `obj` (the JSON of the decoded body, of [`kind`](Self::kind)).
    async fn create(&self, ctx: &Context<'_>, obj: Value) -> Result<Value, StatusError>;
}

/// A review as a [`Creater`] answers it: the object posted, with its `status` set.
pub fn with_status(mut review: Value, status: Value) -> Value {
    if let Some(map) = review.as_object_mut() {
        map.insert("status".into(), status);
    }
    review
}

/// Go's `rest.Connecter`: a subresource that connects the client to what runs the
/// object (a Pod's `log`, `exec`, `attach` and `portforward` reach its node's kubelet).
#[async_trait::async_trait]
pub trait Connecter: Send + Sync + Debug {
    /// The HTTP methods it answers (Go's `ConnectMethods`).
    fn methods(&self) -> &'static [&'static str];

    /// Checks the request's options (`query`) and the object `ctx.name`. `Ok(())` is Go's
    /// answer when there is nothing to connect to yet (204, no body); an error is its
    /// refusal. A server without kubelets answers what would reach one with an error.
    async fn connect(
        &self,
        ctx: &Context<'_>,
        query: &BTreeMap<String, String>,
    ) -> Result<(), StatusError>;
}

/// Gets and lists of a resource whose objects are made when read, never stored (Go's
/// componentstatus REST probes the control plane's components): the endpoints encode
/// the objects, select a list's items and answer it without a resourceVersion, as Go's
/// list of them has none.
#[async_trait::async_trait]
pub trait Reader: Send + Sync + Debug {
    /// The object `name` (its JSON at the storage version), or Go's not-found error.
    async fn get(&self, name: &str) -> Result<Value, StatusError>;

    /// Every object (their JSON at the storage version), in the order to answer them.
    async fn list(&self) -> Result<Vec<Value>, StatusError>;
}

/// The `kubectl get` table of a resource (Go's `rest.TableConvertor`).
pub trait TableConvertor: Send + Sync + Debug {
    /// The `meta.k8s.io/v1` Table, for a request at `version`, of `objects` (their JSON
    /// at [`printed_version`](Self::printed_version) when it names one, else at
    /// `version`), with the list's `resourceVersion` and `continue` in `list_meta`;
    /// `include_object` is the request's `includeObject` (`None`, `Metadata` or
    /// `Object`).
    fn convert_to_table(
        &self,
        version: &str,
        objects: &[Value],
        list_meta: Map<String, Value>,
        include_object: &str,
    ) -> Value;

    /// The Table of a list's `objects`: [`convert_to_table`](Self::convert_to_table)'s
    /// unless a kind's rows depend on the whole list (Go's list printers of
    /// StorageClasses mark only the list's effective default).
    fn convert_list_to_table(
        &self,
        version: &str,
        objects: &[Value],
        list_meta: Map<String, Value>,
        include_object: &str,
    ) -> Value {
        self.convert_to_table(version, objects, list_meta, include_object)
    }

    /// The version of the group whose objects the rows are printed from, whatever
    /// version is asked for: Go prints the internal (hub) object, which a kind's older
    /// version may hold only in part (autoscaling/v1 keeps a HorizontalPodAutoscaler's
    /// CPU target apart from its other metrics, losing their order), so such a kind names
    /// the version holding all of it. `None`: the asked version's objects, which hold
    /// every field the rows show.
    fn printed_version(&self) -> Option<&str> {
        None
    }
}

/// A resource's `/scale` view (Go's `ScaleREST`): the autoscaling/v1 `Scale` of an
/// object, and the object with the replicas a `Scale` asks for.
pub trait Scaler: Send + Sync + Debug {
    /// The `Scale` (its JSON) of `obj` (its JSON, at the storage version) as served at
    /// `version`.
    fn scale_of(&self, version: &str, obj: &Value) -> Value;

    /// Sets the replicas of `obj` (its JSON, at the storage version).
    fn set_replicas(&self, version: &str, obj: &mut Value, replicas: i64);

    /// Where the replicas are in an object served at `version`, for mapping the
    /// managedFields of a `/scale` write (Go's `ResourcePathMappings`); `None` when that
    /// version has no `/scale`. `spec.replicas` unless the resource says otherwise.
    fn replicas_path(&self, _version: &str) -> Option<Path> {
        Some(spec_replicas())
    }

    /// The `kubectl get` table of a `Scale` (Go's `ScaleREST.ConvertToTable`), when the
    /// resource's `/scale` has one: the built-in workloads' do, custom resources' do not.
    fn table(&self) -> Option<&dyn TableConvertor> {
        None
    }
}

/// One served resource (Go's `rest.Storage` and the optional interfaces its handlers
/// look for). Only [`store`](RestStorage::store) is required: everything else says where
/// the resource differs from a plain stored one.
#[async_trait::async_trait]
pub trait RestStorage: Send + Sync + Debug {
    /// The store of the resource's objects.
    fn store(&self) -> &Arc<Store>;

    /// Creates answered without storing (the review resources).
    fn creater(&self) -> Option<&dyn Creater> {
        None
    }

    /// Gets and lists answered without the store (Go's `rest.Getter` and `rest.Lister`
    /// of a REST that stores nothing: ComponentStatuses).
    fn reader(&self) -> Option<&dyn Reader> {
        None
    }

    /// A subresource that connects to what runs the object (Go's `Connecter`s).
    fn connecter(&self, _name: &str) -> Option<&dyn Connecter> {
        None
    }

    /// A subresource besides `status` and `scale` (Go's `storage.go` map entries such as
    /// `serviceaccounts/token`), taking creates.
    fn subresource(&self, _name: &str) -> Option<&dyn Creater> {
        None
    }

    /// The `/scale` subresource.
    fn scaler(&self) -> Option<&dyn Scaler> {
        None
    }

    /// Whether the resource serves `/finalize` (Namespaces: the writes of their
    /// `spec.finalizers`).
    fn finalizes(&self) -> bool {
        false
    }

    /// Whether the resource serves `/resize` (Pods: get, update and patch of the object
    /// through its resize strategy, Go's `ResizeREST`).
    fn resizes(&self) -> bool {
        false
    }

    /// Whether the resource serves `/ephemeralcontainers` (Pods: get, update and patch
    /// of the object through its ephemeral containers strategy, Go's
    /// `EphemeralContainersREST`).
    fn has_ephemeral_containers(&self) -> bool {
        false
    }

    /// Whether the resource serves `/approval` (CertificateSigningRequests: get, update
    /// and patch of the object through its approval strategy, Go's `ApprovalREST`).
    fn has_approval(&self) -> bool {
        false
    }

    /// The `kubectl get` table, when the resource answers `as=Table`.
    fn table_convertor(&self) -> Option<&dyn TableConvertor> {
        None
    }

    /// What the resource's storage does to a new object (at the storage version) before
    /// the store prepares, validates and writes it (Go's `Store.BeginCreate`: a Service's
    /// cluster IPs and node ports are allocated).
    async fn begin_create(
        &self,
        _ctx: &Context<'_>,
        obj: Box<dyn Object>,
    ) -> Result<Box<dyn Object>, StatusError> {
        Ok(obj)
    }

    /// Refuses a create before the body is read (a terminating CRD's objects).
    fn check_create(&self) -> Result<(), StatusError> {
        Ok(())
    }

    /// The warning every request for `version` of the resource carries, whatever its
    /// verb or subresource (Go's `crdHandler` for a CRD version marked `deprecated`).
    /// Built-in kinds have none here: their deprecation is the server's, by kind
    /// ([`DeprecatedKinds`](crate::endpoints::deprecation::DeprecatedKinds)).
    fn version_warning(&self, _version: &str) -> Option<&str> {
        None
    }

    /// Refuses a watch at `version` (the request's `path` for messages).
    fn check_watch(&self, _version: &str, _path: &str) -> Result<(), StatusError> {
        Ok(())
    }

    /// Whether [`before_delete`](Self::before_delete) may do a delete's work itself (the
    /// handler then admits the delete before calling it).
    fn deletes_itself(&self) -> bool {
        false
    }

    /// What happens before an object is deleted, for a resource that
    /// [`deletes_itself`](Self::deletes_itself). `Some(object)` when the resource did
    /// the delete's work (a CRD's first delete marks it terminating), the object as it
    /// left it being the answer; `None` leaves the delete to the store. `params` are the
    /// request's `DeleteOptions` (its preconditions).
    async fn before_delete(
        &self,
        _ctx: &Context<'_>,
        _params: &DeleteParams,
    ) -> Result<Option<Box<dyn Object>>, StatusError> {
        Ok(None)
    }

    /// What the resource needs once the server starts (Go's post-start hooks: the
    /// default Namespaces).
    async fn post_start(&self) -> Result<(), StatusError> {
        Ok(())
    }
}

/// The REST storage of a resource that adds nothing to its store (Go's generic
/// `registry.Store`), with the `/scale` view when it has one.
#[derive(Debug)]
pub struct StandardStorage {
    store: Arc<Store>,
    scaler: Option<Arc<dyn Scaler>>,
    table: Option<Arc<dyn TableConvertor>>,
}

impl StandardStorage {
    /// The storage of `store`'s resource.
    pub fn new(store: Arc<Store>) -> Self {
        StandardStorage {
            store,
            scaler: None,
            table: None,
        }
    }

    /// With the `kubectl get` table of its kind.
    pub fn with_table_convertor(mut self, table: Arc<dyn TableConvertor>) -> Self {
        self.table = Some(table);
        self
    }

    /// With a `/scale` subresource.
    pub fn with_scaler(mut self, scaler: Arc<dyn Scaler>) -> Self {
        self.scaler = Some(scaler);
        self
    }
}

impl RestStorage for StandardStorage {
    fn store(&self) -> &Arc<Store> {
        &self.store
    }

    fn scaler(&self) -> Option<&dyn Scaler> {
        self.scaler.as_deref()
    }

    fn table_convertor(&self) -> Option<&dyn TableConvertor> {
        self.table.as_deref()
    }
}

/// The REST storage of a resource whose creates are answered, never stored (Go's review
/// resources): its store serves nothing but its resource's facts.
#[derive(Debug)]
pub struct AnsweringStorage {
    store: Arc<Store>,
    creater: Arc<dyn Creater>,
}

impl AnsweringStorage {
    /// The storage of `store`'s resource, whose creates `creater` answers.
    pub fn new(store: Arc<Store>, creater: Arc<dyn Creater>) -> Self {
        AnsweringStorage { store, creater }
    }
}

impl RestStorage for AnsweringStorage {
    fn store(&self) -> &Arc<Store> {
        &self.store
    }

    fn creater(&self) -> Option<&dyn Creater> {
        Some(&*self.creater)
    }
}
