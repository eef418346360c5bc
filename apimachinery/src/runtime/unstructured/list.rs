//! [`UnstructuredList`]: a list of objects of any kind.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{Unstructured, UnstructuredError, nested};
use crate::apis::meta::v1::{ListMetaAccessor, ObjectMetaAccessor};
use crate::runtime::{ListObject, Object};
use crate::schema::GroupVersionKind;

/// A list of objects of any kind (Go's `unstructured.UnstructuredList`): the list's own
/// fields (`apiVersion`, `kind`, `metadata`) in `object`, its items apart.
///
/// Items without `apiVersion` and `kind` take the list's, with the `List` suffix removed
/// from the kind, as Go does when decoding a list. Encoding writes the list's fields and
/// `items` with keys sorted.
///
/// ```
/// use apimachinery::runtime::{ListObject, Object, UnstructuredList};
/// let list: UnstructuredList = serde_json::from_str(
///     r#"{"apiVersion":"v1","kind":"PodList","metadata":{"resourceVersion":"7"},"items":[{"metadata":{"name":"a"}}]}"#,
/// )?;
/// assert_eq!(list.items[0].kind(), "Pod");
/// assert_eq!(list.as_list().unwrap().len(), 1);
/// assert_eq!(list.list_meta().unwrap().resource_version(), "7");
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UnstructuredList {
    /// The list's own fields: `apiVersion`, `kind`, `metadata`.
    pub object: Map<String, Value>,
    /// The items.
    pub items: Vec<Unstructured>,
}

impl UnstructuredList {
    /// A list from a JSON map with an `items` array.
    pub fn from_map(mut object: Map<String, Value>) -> Result<Self, UnstructuredError> {
        let items = match object.remove("items") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(items)) => items,
            Some(_) => {
                return Err(UnstructuredError::NotAList {
                    gvk: Unstructured::new(object).group_version_kind().to_string(),
                });
            }
        };
        let mut list = UnstructuredList {
            object,
            items: Vec::with_capacity(items.len()),
        };
        let api_version = list.string_at(&["apiVersion"]).to_owned();
        let kind = list.string_at(&["kind"]);
        let item_kind = kind.strip_suffix("List").unwrap_or(kind).to_owned();
        for (index, item) in items.into_iter().enumerate() {
            let Value::Object(map) = item else {
                return Err(UnstructuredError::ItemNotAnObject {
                    index,
                    gvk: list.group_version_kind().to_string(),
                });
            };
            let mut item = Unstructured::new(map);
            if item.kind().is_empty() && item.api_version().is_empty() {
                item.set_kind(&item_kind);
                item.set_api_version(&api_version);
            }
            list.items.push(item);
        }
        Ok(list)
    }

    fn string_at(&self, fields: &[&str]) -> &str {
        nested::string_or_empty(&self.object, fields)
    }

    fn set_string_at(&mut self, value: &str, fields: &[&str]) {
        nested::set_string_or_remove(&mut self.object, value, fields);
    }

    /// The `apiVersion`.
    pub fn api_version(&self) -> &str {
        self.string_at(&["apiVersion"])
    }

    /// The `kind`.
    pub fn kind(&self) -> &str {
        self.string_at(&["kind"])
    }

    /// The list as one JSON map with an `items` array (Go's `UnstructuredContent`).
    pub fn to_map(&self) -> Map<String, Value> {
        let mut map = self.object.clone();
        map.insert(
            "items".to_owned(),
            Value::Array(
                self.items
                    .iter()
                    .map(|i| Value::Object(i.object.clone()))
                    .collect(),
            ),
        );
        map
    }
}

impl Object for UnstructuredList {
    fn group_version_kind(&self) -> GroupVersionKind {
        nested::declared_gvk(&self.object)
    }

    fn set_group_version_kind(&mut self, gvk: &GroupVersionKind) {
        nested::set_declared_gvk(&mut self.object, gvk);
    }

    fn meta(&self) -> Option<&dyn ObjectMetaAccessor> {
        None
    }

    fn meta_mut(&mut self) -> Option<&mut dyn ObjectMetaAccessor> {
        None
    }

    fn list_meta(&self) -> Option<&dyn ListMetaAccessor> {
        Some(self)
    }

    fn list_meta_mut(&mut self) -> Option<&mut dyn ListMetaAccessor> {
        Some(self)
    }

    fn as_list(&self) -> Option<&dyn ListObject> {
        Some(self)
    }

    fn as_list_mut(&mut self) -> Option<&mut dyn ListObject> {
        Some(self)
    }

    fn deep_copy_object(&self) -> Box<dyn Object> {
        Box::new(self.clone())
    }

    fn encode_json(
        &self,
        out: &mut Vec<u8>,
        layout: crate::util::json::JsonLayout,
    ) -> Result<(), serde_json::Error> {
        crate::util::json::encode_go_json(self, out, layout)
    }

    fn type_name(&self) -> &'static str {
        std::any::type_name::<Self>()
    }

    fn is_unstructured(&self) -> bool {
        true
    }
}

impl ListMetaAccessor for UnstructuredList {
    fn resource_version(&self) -> &str {
        self.string_at(&["metadata", "resourceVersion"])
    }
    fn set_resource_version(&mut self, version: &str) {
        self.set_string_at(version, &["metadata", "resourceVersion"]);
    }
    fn self_link(&self) -> &str {
        self.string_at(&["metadata", "selfLink"])
    }
    fn set_self_link(&mut self, link: &str) {
        self.set_string_at(link, &["metadata", "selfLink"]);
    }
    fn continue_token(&self) -> &str {
        self.string_at(&["metadata", "continue"])
    }
    /// Go's `UnstructuredList.SetContinue` sets the field even when empty (a custom
    /// resource list's last page says `"continue": ""`).
    fn set_continue_token(&mut self, token: &str) {
        nested::force_set(
            &mut self.object,
            Value::from(token),
            &["metadata", "continue"],
        );
    }
    fn remaining_item_count(&self) -> Option<i64> {
        nested::nested_i64(&self.object, &["metadata", "remainingItemCount"])
            .ok()
            .flatten()
    }
    fn set_remaining_item_count(&mut self, count: Option<i64>) {
        match count {
            Some(c) => nested::force_set(
                &mut self.object,
                Value::from(c),
                &["metadata", "remainingItemCount"],
            ),
            None => {
                nested::remove_nested_field(&mut self.object, &["metadata", "remainingItemCount"])
            }
        }
    }
}

impl ListObject for UnstructuredList {
    fn len(&self) -> usize {
        self.items.len()
    }

    fn item(&self, index: usize) -> Option<&dyn Object> {
        self.items.get(index).map(|i| i as &dyn Object)
    }

    fn item_mut(&mut self, index: usize) -> Option<&mut dyn Object> {
        self.items.get_mut(index).map(|i| i as &mut dyn Object)
    }

    fn push_item(&mut self, item: Box<dyn Object>) -> Result<(), Box<dyn Object>> {
        let item = item.downcast::<Unstructured>()?;
        self.items.push(*item);
        Ok(())
    }

    fn clear_items(&mut self) {
        self.items.clear();
    }
}

impl Serialize for UnstructuredList {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        // Go writes the list as one map, keys sorted, `items` among them.
        let mut keys: Vec<&str> = self
            .object
            .keys()
            .map(String::as_str)
            .filter(|k| *k != "items")
            .chain(std::iter::once("items"))
            .collect();
        keys.sort_unstable();
        let mut map = serializer.serialize_map(Some(keys.len()))?;
        for key in keys {
            if key == "items" {
                map.serialize_entry(key, &self.items)?;
            } else if let Some(v) = self.object.get(key) {
                map.serialize_entry(key, v)?;
            }
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for UnstructuredList {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let map = Map::deserialize(deserializer)?;
        UnstructuredList::from_map(map).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn round_trip_and_item_kinds() {
        let v = json!({"apiVersion": "v1", "kind": "PodList", "metadata": {}, "items": [
            {"metadata": {"name": "a"}},
            {"apiVersion": "v1", "kind": "Other", "metadata": {"name": "b"}}
        ]});
        let list: UnstructuredList = serde_json::from_value(v).unwrap();
        assert_eq!(
            list.items[0].group_version_kind().to_string(),
            "/v1, Kind=Pod"
        );
        assert_eq!(list.items[1].kind(), "Other");
        let s = serde_json::to_string(&list).unwrap();
        assert!(
            s.starts_with(r#"{"apiVersion":"v1","items":[{"apiVersion":"v1","kind":"Pod""#),
            "{s}"
        );
        assert!(s.ends_with(r#""kind":"PodList","metadata":{}}"#), "{s}");
    }

    #[test]
    fn bad_items_are_errors() {
        assert!(serde_json::from_value::<UnstructuredList>(json!({"items": 3})).is_err());
        assert!(serde_json::from_value::<UnstructuredList>(json!({"items": [3]})).is_err());
    }

    #[test]
    fn push_item_checks_the_type() {
        let mut list = UnstructuredList::default();
        assert!(list.push_item(Box::new(Unstructured::default())).is_ok());
        assert_eq!(list.len(), 1);
        let not_unstructured: Box<dyn Object> = Box::new(UnstructuredList::default());
        assert!(list.push_item(not_unstructured).is_err());
    }
}
