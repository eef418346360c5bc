//! What a Rust type brings to the [`Scheme`](super::Scheme): [`ObjectType`],
//! [`ResourceMetadata`], the static [`Resource`] trait, and the link-time
//! [`Registration`]s that `#[derive(ApiObject)]` submits.

use std::any::TypeId;
use std::fmt;

use serde::Serialize;

use super::Object;
use super::assign::BoxedDefault;
use super::json_reader::{ReadError, ReadJson};
use super::typed_json::{self, DecodeJsonFn, DecodedJson};
use super::unstructured::{FromValueError, value_text};
use crate::schema::GroupVersionKind;

/// A registrable Rust type, erased: how to name it, create it and deserialize it
/// (what Go keeps as a `reflect.Type`).
///
/// It carries the type's decoder for one input, JSON text read through its
/// [`ReadJson`] by the [`json_reader`](super::json_reader) (path tracking and
/// unknown-field reporting built in). Every other input goes through it (a parsed value
/// is written back to text first), so that each type's decode is compiled once, and
/// its serde `Deserialize` not at all by the scheme.
#[derive(Clone, Copy)]
pub struct ObjectType {
    type_id: fn() -> TypeId,
    type_name: fn() -> &'static str,
    kind: &'static str,
    new: fn() -> Box<dyn Object>,
    decode_json: DecodeJsonFn,
}

/// The per-type functions an [`ObjectType`] points to.
///
/// Provided methods of a trait rather than free generic functions, for where rustc puts
/// them: a free function's copy for `T` goes to the codegen unit of the function's own
/// module, which thus gathers every registered type, and with them a copy of every
/// type's drop code, vtable and default value; a trait method's copy goes to the unit of
/// `T`'s module, where that code already is. In a crate of API types that was ~0.3 MB of
/// machine code compiled twice.
trait TypeShims: Object + Default + ReadJson {
    fn new_boxed() -> Box<dyn Object> {
        // Allocates first and builds the default in place, as `Box::default` does, where
        // `Box::new(T::default())` builds it on the stack and copies it over: kilobytes
        // for the larger kinds (a Deployment is 2.4 KB), a third of the instructions.
        let object: Box<Self> = BoxedDefault::boxed_default();
        object
    }
}

impl<T: Object + Default + ReadJson> TypeShims for T {}

impl ObjectType {
    /// The type `T`, registered by default under its own kind `T::KIND`.
    pub const fn of<T: Resource + ReadJson + Serialize>() -> Self {
        Self::with_kind::<T>(T::KIND)
    }

    /// The type `T`, whose default kind is `kind` (for types that do not implement
    /// [`Resource`]).
    pub const fn with_kind<T: Object + Default + ReadJson + Serialize>(kind: &'static str) -> Self {
        ObjectType {
            type_id: TypeId::of::<T>,
            type_name: std::any::type_name::<T>,
            kind,
            new: <T as TypeShims>::new_boxed,
            decode_json: <T as typed_json::DecodeJson>::decode_json,
        }
    }

    /// The `TypeId` of the Rust type.
    pub fn type_id(&self) -> TypeId {
        (self.type_id)()
    }

    /// The Rust type's name, such as `my_crate::v1::Widget`.
    pub fn type_name(&self) -> &'static str {
        (self.type_name)()
    }

    /// The kind the type is registered as when no other name is given.
    pub fn kind(&self) -> &'static str {
        self.kind
    }

    /// A new, default-valued object of the type.
    pub fn new_object(&self) -> Box<dyn Object> {
        (self.new)()
    }

    /// Reads an object of the type from a parsed JSON value; with `track_unknown`, also
    /// the JSON paths of the fields the type has no place for. The value is written back
    /// to JSON text and read as text is, so that the type has one decoder.
    pub fn from_value(
        &self,
        value: &serde_json::Value,
        track_unknown: bool,
    ) -> Result<(Box<dyn Object>, Vec<String>), FromValueError> {
        let text = value_text(value)?;
        let decoded = (self.decode_json)(&text, track_unknown)?;
        Ok((decoded.object, decoded.unknown_fields))
    }
}

impl ObjectType {
    /// Decodes a whole JSON document as the type, straight from the bytes; with
    /// `track_unknown`, also lists the fields the type ignored.
    pub(crate) fn decode_json<'de>(
        &self,
        data: &'de [u8],
        track_unknown: bool,
    ) -> Result<DecodedJson<'de>, ReadError> {
        (self.decode_json)(data, track_unknown)
    }

    /// Moves `value` into `into` when both are of this type (decoding into a caller's
    /// object, as Go's decoders do with their `into` argument); hands `value` back
    /// otherwise.
    pub fn assign(
        &self,
        into: &mut dyn Object,
        value: Box<dyn Object>,
    ) -> Result<(), Box<dyn Object>> {
        super::assign::assign(self.type_id(), into, value)
    }
}

impl fmt::Debug for ObjectType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ObjectType")
            .field("type_name", &self.type_name())
            .field("kind", &self.kind)
            .finish()
    }
}

/// Whether a resource lives in a namespace (Go's `RESTScopeName`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ResourceScope {
    /// Objects live in a namespace (`/namespaces/{ns}/...`).
    #[default]
    Namespaced,
    /// Objects are cluster-wide.
    Cluster,
}

/// What a REST mapper needs to know of a kind that is served as a resource; Go's Scheme
/// does not have this, which is why Go cannot build a mapper from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ResourceMetadata {
    /// The plural resource name, such as `deployments`.
    pub plural: &'static str,
    /// The singular resource name, such as `deployment`.
    pub singular: &'static str,
    /// Short names, such as `deploy`.
    pub short_names: &'static [&'static str],
    /// Categories, such as `all`.
    pub categories: &'static [&'static str],
    /// The verbs discovery lists for the resource, in its order (`create`, `delete`,
    /// `get`, `list`, `watch`, ...).
    pub verbs: &'static [&'static str],
    /// Namespaced or cluster-scoped.
    pub scope: ResourceScope,
}

/// The verbs an API server lists for a custom resource, in its order: what
/// `#[derive(ApiObject)]` gives a resource without `verbs = [..]`.
pub const CUSTOM_RESOURCE_VERBS: &[&str] = &[
    "delete",
    "deletecollection",
    "get",
    "list",
    "patch",
    "create",
    "update",
    "watch",
];

/// Static facts of a typed API object, implemented by `#[derive(ApiObject)]`.
///
/// ```
/// use apimachinery::{ApiObject, apis::meta::v1::ObjectMeta, runtime::{Resource, ResourceScope}};
///
/// #[derive(ApiObject, Clone, Debug, Default, PartialEq)]
/// #[api(group = "example.com", version = "v1", kind = "Policy", cluster_scoped, short_names = ["pol"])]
/// pub struct Policy { pub metadata: ObjectMeta }
///
/// assert_eq!(Policy::API_VERSION, "example.com/v1");
/// assert_eq!(Policy::PLURAL, "policies");
/// assert_eq!(Policy::SCOPE, ResourceScope::Cluster);
/// assert_eq!(Policy::LIST_KIND, "PolicyList");
/// // Without `verbs = [..]`, what an API server lists for a custom resource.
/// assert_eq!(Policy::VERBS, apimachinery::runtime::CUSTOM_RESOURCE_VERBS);
/// ```
pub trait Resource: Object + Default + Clone {
    /// The API group; empty for the core group.
    const GROUP: &'static str;
    /// The version.
    const VERSION: &'static str;
    /// The kind.
    const KIND: &'static str;
    /// `group/version`, or the version alone for the core group.
    const API_VERSION: &'static str;
    /// The plural resource name.
    const PLURAL: &'static str;
    /// The singular resource name.
    const SINGULAR: &'static str;
    /// Short names.
    const SHORT_NAMES: &'static [&'static str];
    /// Categories.
    const CATEGORIES: &'static [&'static str];
    /// The verbs discovery lists.
    const VERBS: &'static [&'static str];
    /// Namespaced or cluster-scoped.
    const SCOPE: ResourceScope;
    /// The kind of the list of this kind.
    const LIST_KIND: &'static str;
    /// How the type registers itself (also submitted to the link-time registry).
    const REGISTRATION: Registration;

    /// The group version kind.
    fn gvk() -> GroupVersionKind {
        GroupVersionKind::from_static(Self::GROUP, Self::VERSION, Self::KIND)
    }
}

/// A type's registration in a scheme: its kind, the versions it is known in, and whether
/// it is unversioned. `#[derive(ApiObject)]` submits one per type to the link-time
/// registry read by [`Scheme::from_registry`](super::Scheme::from_registry).
#[derive(Clone, Copy, Debug)]
pub struct Registration {
    /// The API group.
    pub group: &'static str,
    /// The version.
    pub version: &'static str,
    /// The kind.
    pub kind: &'static str,
    /// More versions of the same group the type is also known in, such as `__internal`.
    pub extra_versions: &'static [&'static str],
    /// True for types registered with `add_unversioned_types`.
    pub unversioned: bool,
    /// The Rust type.
    pub object_type: ObjectType,
    /// Resource metadata, for kinds served as REST resources.
    pub resource: Option<ResourceMetadata>,
}

impl Registration {
    /// Every group version kind the registration names, primary first.
    pub fn group_version_kinds(&self) -> impl Iterator<Item = GroupVersionKind> + '_ {
        std::iter::once(self.version)
            .chain(self.extra_versions.iter().copied())
            .map(|v| GroupVersionKind::from_static(self.group, v, self.kind))
    }
}

inventory::collect!(Registration);

/// The version priority of a group, for link-time registration: the order of
/// [`Scheme::set_version_priority`](super::Scheme::set_version_priority).
#[derive(Clone, Copy, Debug)]
pub struct VersionPriority {
    /// The API group.
    pub group: &'static str,
    /// Its versions, most preferred first.
    pub versions: &'static [&'static str],
}

inventory::collect!(VersionPriority);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apis::meta::v1::{APIVersions, Status};

    #[test]
    fn assign_moves_a_value_of_the_type_in_and_hands_others_back() {
        let object_type = ObjectType::of::<Status>();
        let mut into = Status {
            message: "old".to_owned(),
            ..Status::default()
        };
        let value = Status {
            message: "new".to_owned(),
            code: 409,
            ..Status::default()
        };
        assert!(object_type.assign(&mut into, Box::new(value)).is_ok());
        assert_eq!(into.message, "new");
        assert_eq!(into.code, 409);

        // Another type, as the value or as the target: nothing moves.
        let other = APIVersions {
            versions: Some(vec!["v1".to_owned()]),
            ..APIVersions::default()
        };
        let back = object_type
            .assign(&mut into, Box::new(other.clone()))
            .unwrap_err();
        assert_eq!(back.downcast_ref::<APIVersions>(), Some(&other));
        assert_eq!(into.message, "new");
        let mut target = APIVersions::default();
        let back = object_type
            .assign(&mut target, Box::new(Status::default()))
            .unwrap_err();
        assert!(back.is::<Status>());
        assert_eq!(target, APIVersions::default());
    }
}
