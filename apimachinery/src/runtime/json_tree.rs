//! A JSON value that keeps its object keys in document order: how a `dyn Object` is
//! handed to any serde serializer (read from the object's own Go JSON, written to the
//! caller's serializer) without `serde_json::Value`, whose maps sort their keys.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

/// One JSON value, objects as ordered entries.
pub(crate) enum JsonTree {
    Null,
    Bool(bool),
    Number(serde_json::Number),
    String(String),
    Array(Vec<JsonTree>),
    Object(Vec<(String, JsonTree)>),
}

impl Serialize for JsonTree {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            JsonTree::Null => serializer.serialize_unit(),
            JsonTree::Bool(b) => serializer.serialize_bool(*b),
            JsonTree::Number(n) => n.serialize(serializer),
            JsonTree::String(s) => serializer.serialize_str(s),
            JsonTree::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            JsonTree::Object(entries) => {
                let mut map = serializer.serialize_map(Some(entries.len()))?;
                for (key, value) in entries {
                    map.serialize_entry(key, value)?;
                }
                map.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for JsonTree {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(TreeVisitor)
    }
}

struct TreeVisitor;

impl<'de> Visitor<'de> for TreeVisitor {
    type Value = JsonTree;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<JsonTree, E> {
        Ok(JsonTree::Null)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<JsonTree, E> {
        Ok(JsonTree::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<JsonTree, E> {
        Ok(JsonTree::Number(v.into()))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<JsonTree, E> {
        Ok(JsonTree::Number(v.into()))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<JsonTree, E> {
        serde_json::Number::from_f64(v)
            .map(JsonTree::Number)
            .ok_or_else(|| E::custom(format!("{v} is not a JSON number")))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<JsonTree, E> {
        Ok(JsonTree::String(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<JsonTree, E> {
        Ok(JsonTree::String(v))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<JsonTree, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(JsonTree::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<JsonTree, A::Error> {
        let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(0));
        while let Some(entry) = map.next_entry()? {
            entries.push(entry);
        }
        Ok(JsonTree::Object(entries))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn keeps_key_order_and_values() {
        let text = r#"{"z":1,"a":[true,null,-2,1.5,"s"],"m":{"y":{},"b":[]}}"#;
        let tree: JsonTree = serde_json::from_str(text).unwrap();
        assert_eq!(serde_json::to_string(&tree).unwrap(), text);
    }
}
