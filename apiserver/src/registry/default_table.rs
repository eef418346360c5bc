//! The table of a kind without a printer of its own (Go's `rest.NewDefaultTableConvertor`,
//! which kube-apiserver's stores of Roles, ClusterRoles, LimitRanges,
//! CSIStorageCapacities, ... use): each object's name and creation time.

use apimachinery::apis::meta::v1::Time;
use serde_json::{Map, Value, json};

use super::printers::{CREATION_TIMESTAMP_DESCRIPTION, NAME, Row, table, text};
use super::rest::TableConvertor;

/// Go's default table convertor for the objects of `kind` in `group`: the columns
/// `Name` and `Created At` (a `date`).
#[derive(Clone, Copy, Debug)]
pub struct DefaultTable<'a> {
    /// The objects' group (empty for the core group).
    pub group: &'a str,
    /// Their kind (given to rows' objects that lack it).
    pub kind: &'a str,
}

/// The default row: the name, and the creation time in RFC 3339 in UTC (Go's zero
/// time, `0001-01-01T00:00:00Z`, for an object without one).
fn print(obj: &Value) -> Row {
    let created = obj
        .pointer("/metadata/creationTimestamp")
        .and_then(Value::as_str)
        .and_then(|t| Time::parse_rfc3339(t).ok())
        .unwrap_or(Time::ZERO);
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        Value::from(created.to_rfc3339()),
    ])
}

impl TableConvertor for DefaultTable<'_> {
    fn convert_to_table(
        &self,
        version: &str,
        objects: &[Value],
        list_meta: Map<String, Value>,
        include_object: &str,
    ) -> Value {
        let definitions = vec![
            json!({"name": NAME.name, "type": NAME.type_, "format": NAME.format,
                "description": NAME.description, "priority": 0}),
            json!({"name": "Created At", "type": "date", "format": "",
                "description": CREATION_TIMESTAMP_DESCRIPTION, "priority": 0}),
        ];
        let api_version = if self.group.is_empty() {
            version.to_owned()
        } else {
            format!("{}/{version}", self.group)
        };
        let type_meta = Some((api_version.as_str(), self.kind));
        let mut table = table(
            definitions,
            type_meta,
            objects,
            list_meta,
            include_object,
            print,
        );
        // Go's default convertor appends rows to a nil list: none is `null`.
        if objects.is_empty() {
            table["rows"] = Value::Null;
        }
        table
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_table_has_the_name_and_the_creation_time() {
        let objects = [
            json!({"metadata": {"name": "a", "creationTimestamp": "2026-11-29T22:19:50Z"}}),
            json!({"metadata": {"name": "b"}}),
        ];
        let convertor = DefaultTable {
            group: "rbac.authorization.k8s.io",
            kind: "Role",
        };
        let table = convertor.convert_to_table("v1", &objects, Map::new(), "None");
        let columns: Vec<(&Value, &Value)> = table["columnDefinitions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| (&c["name"], &c["type"]))
            .collect();
        assert_eq!(
            columns,
            [
                (&json!("Name"), &json!("string")),
                (&json!("Created At"), &json!("date"))
            ]
        );
        assert_eq!(
            table["rows"],
            json!([{"cells": ["a", "2026-11-29T22:19:50Z"], "object": null},
                {"cells": ["b", "0001-01-01T00:00:00Z"], "object": null}])
        );
        let with_objects = convertor.convert_to_table("v1", &objects[1..], Map::new(), "Object");
        let object = &with_objects["rows"][0]["object"];
        assert_eq!(
            (&object["apiVersion"], &object["kind"]),
            (&json!("rbac.authorization.k8s.io/v1"), &json!("Role"))
        );
    }
}
