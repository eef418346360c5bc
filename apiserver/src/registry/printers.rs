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
        let definitions = self.columns.iter().map(column_definition).collect();
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

/// The JSON of column `c`'s definition.
pub fn column_definition(c: &Column) -> Value {
    json!({"name": c.name, "type": c.type_, "format": c.format,
        "description": c.description, "priority": c.priority})
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
                // Go's row keeps an empty object, written as null.
                "None" => row["object"] = Value::Null,
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

// --- Go's helpers of printers.go that several core kinds' rows use (quantities,
// access modes); the integer columns and container cells are with the workloads' below.

/// A quantity (a map's value, if there is one) as Go's `Quantity.String()` writes it
/// (its canonical form), `0` for none, as Go prints a map's missing quantity.
pub fn quantity(value: Option<&Value>) -> String {
    let text = match value {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => return "0".to_owned(),
    };
    // A stored quantity always parses; text that does not is shown as it is.
    apimachinery::api::resource::Quantity::parse_quantity(&text)
        .map_or(text, |q| q.canonical_string())
}

/// Go's `helper.GetAccessModesAsString`: the access modes at `pointer` of `obj`, each
/// once, abbreviated, in Go's fixed order (`RWO`, `ROX`, `RWX`, `RWOP`).
pub fn access_modes(obj: &Value, pointer: &str) -> String {
    let modes = items(obj, pointer);
    [
        ("ReadWriteOnce", "RWO"),
        ("ReadOnlyMany", "ROX"),
        ("ReadWriteMany", "RWX"),
        ("ReadWriteOncePod", "RWOP"),
    ]
    .iter()
    .filter(|(mode, _)| modes.iter().any(|m| m.as_str() == Some(mode)))
    .map(|(_, short)| *short)
    .collect::<Vec<_>>()
    .join(",")
}

// --- Workload tables (task tables-workloads): the cells Go's printers of the pod-template
// kinds share (`layoutContainerCells`, `metav1.FormatLabelSelector`) and the integer
// columns of their counts.

/// The seconds since the epoch of an RFC 3339 time, if `time` is one.
pub fn unix_seconds(time: &Value) -> Option<i64> {
    let t = Time::parse_rfc3339(time.as_str()?).ok()?;
    Some(t.unix_seconds())
}

/// An integer column of priority `priority`.
pub const fn integer_column(
    name: &'static str,
    description: &'static str,
    priority: i32,
) -> Column {
    Column {
        type_: "integer",
        ..string_column(name, description, priority)
    }
}

/// The `Containers` column (wide) of the pod-template kinds.
pub const CONTAINERS: Column =
    string_column("Containers", "Names of each container in the template.", 1);

/// The `Images` column (wide) of the pod-template kinds.
pub const IMAGES: Column = string_column(
    "Images",
    "Images referenced by each container in the template.",
    1,
);

/// Go's `layoutContainerCells`: the names and the images of `containers` (the `Containers`
/// and `Images` cells), each joined with commas.
pub fn container_cells(containers: &[Value]) -> [Value; 2] {
    let join = |key: &str| {
        containers
            .iter()
            .map(|c| text(c, key))
            .collect::<Vec<_>>()
            .join(",")
    };
    [Value::from(join("/name")), Value::from(join("/image"))]
}

/// Go's `metav1.LabelSelectorAsSelector(s).String()`: each requirement, sorted by key
/// (empty for no selector or an empty one); `None` when a requirement is one Go's
/// `labels.NewRequirement` refuses (an unknown operator, `In`/`NotIn` without values,
/// `Exists`/`DoesNotExist` with some).
pub fn label_selector_string(selector: Option<&Value>) -> Option<String> {
    let Some(selector) = selector.filter(|s| !s.is_null()) else {
        return Some(String::new());
    };
    let mut requirements: Vec<(String, String)> = Vec::new();
    if let Some(labels) = selector.get("matchLabels").and_then(Value::as_object) {
        for (k, v) in labels {
            requirements.push((k.clone(), format!("{k}={}", v.as_str().unwrap_or_default())));
        }
    }
    for e in items(selector, "/matchExpressions") {
        let key = text(e, "/key");
        let mut values: Vec<&str> = items(e, "/values")
            .iter()
            .filter_map(Value::as_str)
            .collect();
        values.sort_unstable();
        let requirement = match (text(e, "/operator"), values.is_empty()) {
            ("In", false) => format!("{key} in ({})", values.join(",")),
            ("NotIn", false) => format!("{key} notin ({})", values.join(",")),
            ("Exists", true) => key.to_owned(),
            ("DoesNotExist", true) => format!("!{key}"),
            _ => return None,
        };
        requirements.push((key.to_owned(), requirement));
    }
    requirements.sort();
    Some(
        requirements
            .into_iter()
            .map(|(_, r)| r)
            .collect::<Vec<_>>()
            .join(","),
    )
}

/// Go's `metav1.FormatLabelSelector`: [`label_selector_string`], `<none>` when it selects
/// everything or nothing, `<error>` when it is invalid.
pub fn format_label_selector(selector: Option<&Value>) -> String {
    match label_selector_string(selector) {
        None => "<error>".to_owned(),
        Some(s) if s.is_empty() => "<none>".to_owned(),
        Some(s) => s,
    }
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

    #[test]
    fn containers_quantities_and_access_modes_print_as_go_prints_them() {
        let containers = [
            json!({"name": "a", "image": "nginx"}),
            json!({"name": "b", "image": "busybox:1"}),
        ];
        assert_eq!(
            container_cells(&containers),
            [json!("a,b"), json!("nginx,busybox:1")]
        );
        assert_eq!(container_cells(&[]), [json!(""), json!("")]);
        let obj = json!({"cpu": "2000m", "memory": "1024Mi", "n": 5,
            "modes": ["ReadWriteOncePod", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOnce"]});
        assert_eq!(quantity(obj.get("cpu")), "2");
        assert_eq!(quantity(obj.get("memory")), "1Gi");
        assert_eq!(quantity(obj.get("n")), "5");
        assert_eq!(quantity(obj.get("none")), "0");
        assert_eq!(access_modes(&obj, "/modes"), "RWO,RWX,RWOP");
        assert_eq!(access_modes(&obj, "/none"), "");
    }

    #[test]
    fn selectors_format_as_go_formats_them() {
        let selector = json!({"matchLabels": {"b": "2"},
            "matchExpressions": [{"key": "a", "operator": "NotIn", "values": ["y", "x"]},
                {"key": "c", "operator": "DoesNotExist"}]});
        assert_eq!(
            format_label_selector(Some(&selector)),
            "a notin (x,y),b=2,!c"
        );
        assert_eq!(format_label_selector(Some(&json!({}))), "<none>");
        assert_eq!(format_label_selector(None), "<none>");
        let bad = json!({"matchExpressions": [{"key": "a", "operator": "In"}]});
        assert_eq!(format_label_selector(Some(&bad)), "<error>");
        assert_eq!(label_selector_string(Some(&bad)), None);
        let containers = [
            json!({"name": "a", "image": "i"}),
            json!({"name": "b", "image": "j"}),
        ];
        assert_eq!(container_cells(&containers), [json!("a,b"), json!("i,j")]);
    }
}
