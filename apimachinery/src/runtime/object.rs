//! The [`Object`] trait: what every API object, typed or unstructured, can do.

use std::any::Any;
use std::fmt;

use crate::apis::meta::v1::{ListMetaAccessor, ObjectMetaAccessor};
use crate::schema::GroupVersionKind;
use crate::util::json::JsonLayout;

/// An API object: something with a kind that the [`Scheme`](super::Scheme) can create,
/// the codecs can encode, and that can be deep-copied and downcast. Go's `runtime.Object`
/// together with `schema.ObjectKind` and `meta.Accessor`.
///
/// The trait is object safe: code that handles objects of any kind takes `&dyn Object` or
/// `Box<dyn Object>` and gets the concrete type back with [`downcast_ref`](#method.downcast_ref)
/// or [`downcast`](#method.downcast). Typed objects implement it with
/// `#[derive(ApiObject)]`; [`Unstructured`](super::Unstructured) implements it over a JSON map.
///
/// ```
/// use apimachinery::{ApiObject, apis::meta::v1::ObjectMeta, runtime::Object};
///
/// #[derive(ApiObject, Clone, Debug, Default, PartialEq)]
/// #[api(group = "example.com", version = "v1", kind = "Widget")]
/// pub struct Widget { pub metadata: ObjectMeta }
///
/// let mut w = Widget::default();
/// w.metadata.name = "w1".into();
/// let boxed: Box<dyn Object> = w.deep_copy_object();
/// assert_eq!(boxed.group_version_kind().to_string(), "example.com/v1, Kind=Widget");
/// assert_eq!(boxed.meta().unwrap().name(), "w1");
/// let back: Box<Widget> = boxed.downcast().unwrap();
/// assert_eq!(*back, w);
/// ```
pub trait Object: Any + Send + Sync + fmt::Debug {
    /// The group, version and kind this object declares (its `TypeMeta`, or for a typed
    /// object without one, the type's own kind).
    fn group_version_kind(&self) -> GroupVersionKind;

    /// Sets the declared group, version and kind. Typed objects without a `TypeMeta` field
    /// have a fixed kind and ignore this.
    fn set_group_version_kind(&mut self, gvk: &GroupVersionKind);

    /// The object metadata (`metadata` of a single object), if the object has one.
    fn meta(&self) -> Option<&dyn ObjectMetaAccessor>;

    /// The object metadata, mutably.
    fn meta_mut(&mut self) -> Option<&mut dyn ObjectMetaAccessor>;

    /// The list metadata (`metadata` of a `*List` or of a `Status`), if the object has one.
    fn list_meta(&self) -> Option<&dyn ListMetaAccessor> {
        None
    }

    /// The list metadata, mutably.
    fn list_meta_mut(&mut self) -> Option<&mut dyn ListMetaAccessor> {
        None
    }

    /// The items, when this object is a list kind (it has an `items` array).
    fn as_list(&self) -> Option<&dyn ListObject> {
        None
    }

    /// The items, mutably, when this object is a list kind.
    fn as_list_mut(&mut self) -> Option<&mut dyn ListObject> {
        None
    }

    /// A deep copy of this object (Go's `DeepCopyObject`).
    fn deep_copy_object(&self) -> Box<dyn Object>;

    /// Appends the object to `out` as Go's `encoding/json` writes it, in `layout`: the
    /// one serialization every object type is compiled for (the JSON serializer's, which
    /// YAML and unstructured content are made from), so that a `dyn Object` can be
    /// written without a type-erased serializer.
    fn encode_json(&self, out: &mut Vec<u8>, layout: JsonLayout) -> Result<(), serde_json::Error>;

    /// The Rust type name of the object (for error messages).
    fn type_name(&self) -> &'static str;

    /// True for [`Unstructured`](super::Unstructured) and
    /// [`UnstructuredList`](super::UnstructuredList), whose kind is whatever they declare.
    fn is_unstructured(&self) -> bool {
        false
    }

    /// False for kinds Go defines without `TypeMeta` (`WatchEvent`): their encodings
    /// carry no kind (no `kind`/`apiVersion` in JSON, an empty type in the protobuf
    /// envelope), though the scheme knows one.
    fn has_type_meta(&self) -> bool {
        true
    }

    /// The object as a protobuf message, for types with a protobuf encoding
    /// (`#[api(protobuf)]`); `None` for others, which the protobuf serializer refuses.
    fn as_proto_message(&self) -> Option<&dyn crate::proto::Message> {
        None
    }

    /// The object as a protobuf message to decode into; see
    /// [`as_proto_message`](Self::as_proto_message).
    fn as_proto_message_mut(&mut self) -> Option<&mut dyn crate::proto::Message> {
        None
    }
}

impl dyn Object {
    /// True when the object is a `T`.
    pub fn is<T: Object>(&self) -> bool {
        let any: &dyn Any = self;
        any.is::<T>()
    }

    /// The object as a `&T`, if it is one.
    pub fn downcast_ref<T: Object>(&self) -> Option<&T> {
        let any: &dyn Any = self;
        any.downcast_ref()
    }

    /// The object as a `&mut T`, if it is one.
    pub fn downcast_mut<T: Object>(&mut self) -> Option<&mut T> {
        let any: &mut dyn Any = self;
        any.downcast_mut()
    }

    /// The boxed object as a `Box<T>`, or itself back when it is another type.
    pub fn downcast<T: Object>(self: Box<Self>) -> Result<Box<T>, Box<dyn Object>> {
        super::assign::downcast_box(self)
    }

    /// The `TypeId` of the concrete object.
    pub fn object_type_id(&self) -> std::any::TypeId {
        let any: &dyn Any = self;
        any.type_id()
    }
}

impl Clone for Box<dyn Object> {
    fn clone(&self) -> Self {
        self.deep_copy_object()
    }
}

/// Any serde format can write a `dyn Object`: what its Go JSON holds, fields in Go's
/// order, read back from [`Object::encode_json`] (for Go's exact bytes, use the JSON
/// serializer).
impl serde::Serialize for dyn Object {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::Error;
        let mut json = Vec::new();
        self.encode_json(&mut json, JsonLayout::Compact)
            .map_err(S::Error::custom)?;
        let tree: super::json_tree::JsonTree =
            serde_json::from_slice(&json).map_err(S::Error::custom)?;
        tree.serialize(serializer)
    }
}

/// The items of a list kind (`PodList`, `UnstructuredList`, ...): Go's `meta.ExtractList`,
/// `meta.SetList` and `meta.EachListItem` as methods.
pub trait ListObject {
    /// How many items the list holds.
    fn len(&self) -> usize;

    /// True when the list holds no item.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The item at `index`.
    fn item(&self, index: usize) -> Option<&dyn Object>;

    /// The item at `index`, mutably.
    fn item_mut(&mut self, index: usize) -> Option<&mut dyn Object>;

    /// Appends an item; fails, handing the item back, when it is not of the list's item type.
    fn push_item(&mut self, item: Box<dyn Object>) -> Result<(), Box<dyn Object>>;

    /// Removes every item.
    fn clear_items(&mut self);
}

impl dyn ListObject + '_ {
    /// The items in order.
    ///
    /// A method of `dyn ListObject` rather than a provided method of the trait, so that it
    /// is compiled once and not once per list type.
    pub fn items(&self) -> Vec<&dyn Object> {
        (0..self.len()).filter_map(|i| self.item(i)).collect()
    }
}
