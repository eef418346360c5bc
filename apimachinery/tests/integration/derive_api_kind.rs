//! `#[derive(ApiKind)]` against `#[derive(ApiObject)]`: each struct below is derived both
//! ways from one body, and the two must read and write the same JSON (serde's
//! `Serialize` and `Deserialize`, and `ReadJson`), since a crate swaps them with a cargo
//! feature (`k8s-types` without `scheme`) and its users' bytes must not change.

use apimachinery::runtime::json_reader::{ReadJson, read_slice_tracking};
use apimachinery::util::json::{JsonLayout, encode_go_json};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// One struct body, derived as an object in `object` and as a kind in `kind` (where
/// `Item` is the `declared` `Thing` derived the same way, for the list's items), the kind
/// with `#[api(inline)]`, as k8s-types derives its kinds without `scheme`.
macro_rules! both {
    ($($body:tt)*) => {
        pub mod object {
            #[allow(unused_imports)]
            use apimachinery::apis::meta::v1::{ListMeta, ObjectMeta, TypeMeta};
            #[allow(unused_imports)]
            use crate::derive_api_kind::declared::object::Thing as Item;
            #[derive(apimachinery::ApiObject, Clone, Debug, Default, PartialEq)]
            $($body)*
        }
        pub mod kind {
            #[allow(unused_imports)]
            use apimachinery::apis::meta::v1::{ListMeta, ObjectMeta, TypeMeta};
            #[allow(unused_imports)]
            use crate::derive_api_kind::declared::kind::Thing as Item;
            #[derive(apimachinery::ApiKind, Clone, Debug, Default, PartialEq)]
            #[api(inline)]
            $($body)*
        }
    };
}

/// Go's shape: kind and apiVersion from the `TypeMeta` field, each left out when empty.
mod with_type_meta {
    both! {
        #[api(group = "example.com", version = "v1", kind = "Widget", plural = "widgets", omit_empty_type_meta, extra_versions = ["__internal"])]
        pub struct Widget {
            pub type_meta: TypeMeta,
            pub metadata: ObjectMeta,
            #[api(rename = "sizeInBytes")]
            pub size: Option<i64>,
            #[api(skip_serializing_if = "Vec::is_empty")]
            pub tags: Vec<String>,
        }
    }
}

/// No `TypeMeta` field: the declared kind and apiVersion are always written.
mod declared {
    both! {
        #[api(version = "v1", kind = "Gadget", cluster_scoped)]
        pub struct Thing {
            pub metadata: ObjectMeta,
            #[api(nullable)]
            pub parts: Option<Vec<String>>,
        }
    }
}

/// A list, whose `Object` impl is a `ListObject` too.
mod list {
    both! {
        #[api(group = "example.com", version = "v1beta1", kind = "ThingList")]
        pub struct ThingList {
            pub type_meta: TypeMeta,
            pub metadata: ListMeta,
            pub items: Vec<Item>,
        }
    }
}

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

/// The value written by serde_json and by Go's JSON writer.
fn json<T: Serialize>(value: &T) -> Result<(String, String)> {
    let mut go = Vec::new();
    encode_go_json(value, &mut go, JsonLayout::Compact)?;
    Ok((serde_json::to_string(value)?, String::from_utf8(go)?))
}

/// Reads `input` as both types, through serde and through `ReadJson`, and checks that
/// each reading writes the same text whichever derive made the type.
fn same_wire<O, K>(input: &str) -> Result<String>
where
    O: Serialize + DeserializeOwned + ReadJson,
    K: Serialize + DeserializeOwned + ReadJson,
{
    let object: O = serde_json::from_str(input)?;
    let kind: K = serde_json::from_str(input)?;
    assert_eq!(json(&object)?, json(&kind)?, "serde of {input}");
    let object_read = read_slice_tracking::<O>(input.as_bytes(), true)?;
    let kind_read = read_slice_tracking::<K>(input.as_bytes(), true)?;
    assert_eq!(object_read.unknown_fields, kind_read.unknown_fields);
    assert_eq!(json(&object_read.value)?, json(&kind_read.value)?);
    assert_eq!(json(&object_read.value)?, json(&object)?);
    Ok(json(&kind)?.0)
}

#[test]
fn a_kind_with_type_meta_writes_what_the_object_writes() -> Result<()> {
    use with_type_meta::{kind::Widget as K, object::Widget as O};
    let full = r#"{"kind":"Widget","apiVersion":"example.com/v1","metadata":{"name":"a"},"sizeInBytes":3,"tags":["x"],"extra":1}"#;
    assert_eq!(
        same_wire::<O, K>(full)?,
        r#"{"kind":"Widget","apiVersion":"example.com/v1","metadata":{"name":"a"},"sizeInBytes":3,"tags":["x"]}"#
    );
    // Nested objects usually have neither: nothing is made up.
    assert_eq!(
        same_wire::<O, K>(r#"{"metadata":{}}"#)?,
        r#"{"metadata":{}}"#
    );
    let err_o = serde_json::from_str::<O>(r#"{"sizeInBytes":"x"}"#).map(|_| ());
    let err_k = serde_json::from_str::<K>(r#"{"sizeInBytes":"x"}"#).map(|_| ());
    assert!(err_o.is_err());
    assert_eq!(format!("{err_o:?}"), format!("{err_k:?}"));
    Ok(())
}

#[test]
fn a_kind_without_type_meta_writes_its_declared_kind_and_version() -> Result<()> {
    use declared::{kind::Thing as K, object::Thing as O};
    assert_eq!(
        same_wire::<O, K>(r#"{"kind":"Other","apiVersion":"x/v9","parts":null}"#)?,
        r#"{"kind":"Gadget","apiVersion":"v1","metadata":{},"parts":null}"#
    );
    assert_eq!(
        same_wire::<O, K>(r#"{"parts":["a"]}"#)?,
        r#"{"kind":"Gadget","apiVersion":"v1","metadata":{},"parts":["a"]}"#
    );
    Ok(())
}

#[test]
fn a_list_kind_writes_what_the_list_object_writes() -> Result<()> {
    use list::{kind::ThingList as K, object::ThingList as O};
    assert_eq!(
        same_wire::<O, K>(
            r#"{"apiVersion":"example.com/v1beta1","kind":"ThingList","metadata":{"resourceVersion":"7"},"items":[{"metadata":{"name":"a"}},{"parts":[]}]}"#
        )?,
        r#"{"kind":"ThingList","apiVersion":"example.com/v1beta1","metadata":{"resourceVersion":"7"},"items":[{"kind":"Gadget","apiVersion":"v1","metadata":{"name":"a"},"parts":null},{"kind":"Gadget","apiVersion":"v1","metadata":{},"parts":[]}]}"#
    );
    Ok(())
}
