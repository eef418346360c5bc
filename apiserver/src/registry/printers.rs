//! The server-side tables of built-in kinds (Go's `pkg/printers`: a `TableGenerator`
//! with the column definitions and row printers of `printers/internalversion`, behind
//! each store's `TableConvertor`): what `kubectl get` prints. Server-side tables carry
//! every column, the wide ones (priority 1) too. The row printers of each kind are in
//! its resource module; this one builds the table around them.

use apimachinery::apis::meta::v1::Time;
use serde_json::{Map, Value, json};

use super::rest::TableConvertor;

/// Go's `duration.HumanDuration`: how kubectl shows an age.
pub fn human_duration(seconds: i64) -> String {
    if seconds < -1 {
        return "<invalid>".into();
    }
    let s = seconds.max(0);
    if s < 60 * 2 {
        return format!("{s}s");
    }
    let minutes = s / 60;
    if minutes < 10 {
        let rest = s % 60;
        return if rest == 0 {
            format!("{minutes}m")
        } else {
            format!("{minutes}m{rest}s")
        };
    }
    if minutes < 60 * 3 {
        return format!("{minutes}m");
    }
    let hours = minutes / 60;
    if hours < 8 {
        let rest = minutes % 60;
        return if rest == 0 {
            format!("{hours}h")
        } else {
            format!("{hours}h{rest}m")
        };
    }
    if hours < 48 {
        return format!("{hours}h");
    }
    if hours < 24 * 8 {
        let rest = hours % 24;
        return if rest == 0 {
            format!("{}d", hours / 24)
        } else {
            format!("{}d{rest}h", hours / 24)
        };
    }
    if hours < 24 * 365 * 2 {
        return format!("{}d", hours / 24);
    }
    if hours < 24 * 365 * 8 {
        let days = (hours / 24) % 365;
        return if days == 0 {
            format!("{}y", hours / 24 / 365)
        } else {
            format!("{}y{days}d", hours / 24 / 365)
        };
    }
    format!("{}y", hours / 24 / 365)
}

/// One column of a table (Go's `metav1.TableColumnDefinition`).
#[derive(Clone, Copy, Debug)]
pub struct Column {
    /// The header.
    pub name: &'static str,
    /// `string`, `integer`, ...
    pub type_: &'static str,
    /// `name` for the name column, else empty.
    pub format: &'static str,
    /// What the column shows.
    pub description: &'static str,
    /// 0 for the columns `kubectl get` shows, 1 for `-o wide`'s.
    pub priority: i32,
}

/// `metav1.ObjectMeta{}.SwaggerDoc()["name"]`.
pub const NAME_DESCRIPTION: &str = "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names";

/// `metav1.ObjectMeta{}.SwaggerDoc()["creationTimestamp"]`.
pub const CREATION_TIMESTAMP_DESCRIPTION: &str = "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

/// The first column of every table.
pub const NAME: Column = Column {
    name: "Name",
    type_: "string",
    format: "name",
    description: NAME_DESCRIPTION,
    priority: 0,
};

/// A string column of priority `priority`.
pub const fn string_column(name: &'static str, description: &'static str, priority: i32) -> Column {
    Column {
        name,
        type_: "string",
        format: "",
        description,
        priority,
    }
}

/// The `Age` column.
pub const AGE: Column = string_column("Age", CREATION_TIMESTAMP_DESCRIPTION, 0);

/// One row: its cells and its conditions (Go's `TableRowCondition`s, for Pods that
/// completed).
pub struct Row {
    /// The cells, one per column.
    pub cells: Vec<Value>,
    /// The row's conditions, when it has any.
    pub conditions: Option<Value>,
}

impl From<Vec<Value>> for Row {
    fn from(cells: Vec<Value>) -> Row {
        Row {
            cells,
            conditions: None,
        }
    }
}

/// A kind's printer (Go's `TableHandler`: column definitions and the function printing
/// a row), which is the kind's table convertor.
#[derive(Clone, Copy, Debug)]
pub struct Printer {
    /// The apiVersion of the objects (given to rows' objects that lack it).
    pub api_version: &'static str,
    /// Their kind.
    pub kind: &'static str,
    /// The columns.
    pub columns: &'static [Column],
    /// One object's row.
    pub print: fn(&Value) -> Row,
}

impl TableConvertor for Printer {
    fn convert_to_table(
        &self,
        _version: &str,
        objects: &[Value],
        list_meta: Map<String, Value>,
        include_object: &str,
    ) -> Value {
        let definitions = self
            .columns
            .iter()
            .map(|c| {
                json!({"name": c.name, "type": c.type_, "format": c.format,
                    "description": c.description, "priority": c.priority})
            })
            .collect();
        let type_meta = Some((self.api_version, self.kind));
        table(
            definitions,
            type_meta,
            objects,
            list_meta,
            include_object,
            self.print,
        )
    }
}

/// The Table of `objects` (their JSON) with the column `definitions`, each row printed by
/// `print`; `include_object` is the request's `includeObject` (`None`; `Object`: the
/// object, given `type_meta`'s apiVersion and kind when it has none; or `Metadata`, the
/// default: its `PartialObjectMetadata`).
pub fn table(
    definitions: Vec<Value>,
    type_meta: Option<(&str, &str)>,
    objects: &[Value],
    list_meta: Map<String, Value>,
    include_object: &str,
    print: impl Fn(&Value) -> Row,
) -> Value {
    let rows: Vec<Value> = objects
        .iter()
        .map(|obj| {
            let printed = print(obj);
            let mut row = json!({"cells": printed.cells});
            if let Some(conditions) = printed.conditions {
                row["conditions"] = conditions;
            }
            match include_object {
                "None" => {}
                "Object" => {
                    let mut object = obj.clone();
                    if let (Some(map), Some((api_version, kind))) =
                        (object.as_object_mut(), type_meta)
                    {
                        map.entry("apiVersion")
                            .or_insert_with(|| Value::from(api_version));
                        map.entry("kind").or_insert_with(|| Value::from(kind));
                    }
                    row["object"] = object;
                }
                _ => {
                    row["object"] = json!({
                        "kind": "PartialObjectMetadata",
                        "apiVersion": "meta.k8s.io/v1",
                        "metadata": obj.get("metadata").cloned().unwrap_or(json!({})),
                    });
                }
            }
            row
        })
        .collect();
    json!({
        "kind": "Table",
        "apiVersion": "meta.k8s.io/v1",
        "metadata": list_meta,
        "columnDefinitions": definitions,
        "rows": rows,
    })
}

/// Go's `translateTimestampSince` of an RFC 3339 time: how long ago, as kubectl shows
/// it, or `<unknown>` for none.
pub fn since(time: Option<&Value>) -> String {
    let Some(t) = time
        .and_then(Value::as_str)
        .and_then(|s| Time::parse_rfc3339(s).ok())
    else {
        return "<unknown>".to_owned();
    };
    human_duration(Time::now().unix_seconds() - t.unix_seconds())
}

/// The age of `obj`.
pub fn age(obj: &Value) -> Value {
    Value::from(since(obj.pointer("/metadata/creationTimestamp")))
}

/// The string at `pointer` of `obj`, or empty.
pub fn text<'a>(obj: &'a Value, pointer: &str) -> &'a str {
    obj.pointer(pointer).and_then(Value::as_str).unwrap_or("")
}

/// The integer at `pointer` of `obj`, or 0.
pub fn int(obj: &Value, pointer: &str) -> i64 {
    obj.pointer(pointer).and_then(Value::as_i64).unwrap_or(0)
}

/// The array at `pointer` of `obj`, or none.
pub fn items<'a>(obj: &'a Value, pointer: &str) -> &'a [Value] {
    obj.pointer(pointer)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// Go's `labels.FormatLabels`: `k=v,k2=v2` in key order, `<none>` for none.
pub fn format_labels(labels: Option<&Value>) -> String {
    let Some(map) = labels.and_then(Value::as_object).filter(|m| !m.is_empty()) else {
        return "<none>".to_owned();
    };
    let mut pairs: Vec<String> = map
        .iter()
        .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or_default()))
        .collect();
    pairs.sort();
    pairs.join(",")
}

// --- The tables of DRA, scheduling and storage-version kinds (task tables-dra) ---

/// The columns of the kinds Go prints by name and age only (DeviceClasses,
/// ResourceClaimTemplates, Workloads).
pub const NAME_AND_AGE: [Column; 2] = [NAME, AGE];

/// The row of a kind printed by name and age only.
pub fn print_name_and_age(obj: &Value) -> Row {
    Row::from(vec![Value::from(text(obj, "/metadata/name")), age(obj)])
}

/// The `Name` column of the tables whose name column has no `name` format (Go's Scale
/// and StorageVersionMigration printers).
pub const PLAIN_NAME: Column = string_column("Name", NAME_DESCRIPTION, 0);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_and_ages_print_as_go_prints_them() {
        assert_eq!(format_labels(Some(&json!({"b": "2", "a": "1"}))), "a=1,b=2");
        assert_eq!(format_labels(Some(&json!({}))), "<none>");
        assert_eq!(format_labels(None), "<none>");
        assert_eq!(since(None), "<unknown>");
        let now = Time::now().to_rfc3339();
        assert!(since(Some(&Value::from(now))).ends_with('s'));
    }
}
