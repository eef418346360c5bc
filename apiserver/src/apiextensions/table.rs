//! `as=Table` answers for custom resources (Go's `apiextensions-apiserver/pkg/registry/
//! customresource/tableconvertor`): a `Name` column, then the version's
//! `additionalPrinterColumns` (or Go's default `Age`), one row per object with its
//! `PartialObjectMetadata`, so `kubectl get` prints the CRD's columns.

use apimachinery::apis::meta::v1::Time;
use serde_json::{Map, Value, json};

use super::{CustomResource, PrinterColumn};
use crate::registry::printers::{self, Row, human_duration};

const NAME_DESCRIPTION: &str = "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names";
const CREATION_TIMESTAMP_DESCRIPTION: &str = "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

fn columns(cr: &CustomResource, version: &str) -> Vec<PrinterColumn> {
    let declared = cr
        .version(version)
        .map(|v| v.printer_columns.clone())
        .unwrap_or_default();
    if !declared.is_empty() {
        return declared;
    }
    vec![PrinterColumn {
        name: "Age".into(),
        type_: "date".into(),
        format: String::new(),
        description: CREATION_TIMESTAMP_DESCRIPTION.into(),
        priority: 0,
        json_path: ".metadata.creationTimestamp".into(),
    }]
}

/// The Table of `objects` (JSON at `version`), with the list's `resourceVersion` and
/// `continue`; `include_object` is the request's `includeObject` (`None`, `Object`, or
/// `Metadata`, the default).
pub fn table(
    cr: &CustomResource,
    version: &str,
    objects: &[Value],
    list_meta: Map<String, Value>,
    include_object: &str,
) -> Value {
    let cols = columns(cr, version);
    let mut definitions = vec![json!({
        "name": "Name", "type": "string", "format": "name",
        "description": NAME_DESCRIPTION, "priority": 0,
    })];
    for c in &cols {
        // Go's tableconvertor describes a column the CRD leaves undescribed by its path.
        let description = if c.description.is_empty() {
            format!(
                "Custom resource definition column (in JSONPath format): {}",
                c.json_path
            )
        } else {
            c.description.clone()
        };
        definitions.push(json!({
            "name": c.name, "type": c.type_, "format": c.format,
            "description": description, "priority": c.priority,
        }));
    }
    let now = Time::now();
    printers::table(
        definitions,
        None,
        objects,
        list_meta,
        include_object,
        |obj| {
            let mut cells = vec![
                obj.pointer("/metadata/name")
                    .cloned()
                    .unwrap_or(Value::from("")),
            ];
            for c in &cols {
                cells.push(cell(c, find(obj, &c.json_path), &now));
            }
            Row::from(cells)
        },
    )
}

/// Go's `cellForJSONValue`, and the string printing of `string` columns.
fn cell(c: &PrinterColumn, value: Option<&Value>, now: &Time) -> Value {
    let Some(v) = value.filter(|v| !v.is_null()) else {
        return Value::Null;
    };
    match c.type_.as_str() {
        "integer" => match v.as_i64() {
            Some(i) => Value::from(i),
            None => v.as_f64().map_or(Value::Null, |f| Value::from(f as i64)),
        },
        "number" => v.as_f64().map_or(Value::Null, Value::from),
        "boolean" => v.as_bool().map_or(Value::Null, Value::from),
        "date" => match v
            .as_str()
            .and_then(|s| serde_json::from_value::<Time>(Value::from(s)).ok())
        {
            Some(t) => Value::from(human_duration(seconds_between(&t, now))),
            None => Value::Null,
        },
        _ => match v {
            Value::String(s) => Value::from(s.clone()),
            other => Value::from(other.to_string()),
        },
    }
}

fn seconds_between(from: &Time, to: &Time) -> i64 {
    let secs = |t: &Time| {
        serde_json::to_value(t)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .and_then(|s| parse_rfc3339_seconds(&s))
            .unwrap_or(0)
    };
    secs(to) - secs(from)
}

/// Seconds since the epoch of an RFC 3339 UTC time (`2024-01-02T03:04:05Z`).
fn parse_rfc3339_seconds(s: &str) -> Option<i64> {
    let (date, time) = s.split_once('T')?;
    let mut d = date.split('-').map(|p| p.parse::<i64>().ok());
    let (y, m, day) = (d.next()??, d.next()??, d.next()??);
    let time = time.trim_end_matches('Z');
    let time = time.split(['.', '+']).next()?;
    let mut t = time.split(':').map(|p| p.parse::<i64>().ok());
    let (h, min, sec) = (t.next()??, t.next()??, t.next()??);
    // Days from the civil date (Howard Hinnant's algorithm).
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(days * 86_400 + h * 3600 + min * 60 + sec)
}

/// The value at a printer column's JSON path: `.a.b`, `.a[0].b`, and
/// `.a[?(@.k=="v")].b` filters; the first match.
pub fn find<'v>(obj: &'v Value, path: &str) -> Option<&'v Value> {
    let path = path.trim().trim_start_matches('{').trim_end_matches('}');
    let mut current = obj;
    let mut rest = path.strip_prefix('.').unwrap_or(path);
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('[') {
            let end = after.find(']')?;
            let inner = &after[..end];
            rest = after[end + 1..].trim_start_matches('.');
            let items = current.as_array()?;
            if let Some(filter) = inner.strip_prefix("?(@.").and_then(|f| f.strip_suffix(')')) {
                let (key, want) = filter.split_once("==")?;
                let want = want.trim().trim_matches(|c| c == '"' || c == '\'');
                current = items.iter().find(|i| {
                    i.get(key.trim())
                        .is_some_and(|v| v.as_str().map_or(v.to_string(), str::to_owned) == want)
                })?;
            } else {
                current = items.get(inner.parse::<usize>().ok()?)?;
            }
            continue;
        }
        let end = rest.find(['.', '[']).unwrap_or(rest.len());
        let key = &rest[..end];
        current = current.get(key)?;
        rest = rest[end..].strip_prefix('.').unwrap_or(&rest[end..]);
    }
    Some(current)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_find_fields_items_and_filtered_items() {
        let obj = json!({"spec": {"size": 3}, "status": {"conditions": [
            {"type": "Ready", "status": "True"}, {"type": "Other", "status": "False"}]}});
        assert_eq!(find(&obj, ".spec.size"), Some(&json!(3)));
        assert_eq!(
            find(&obj, ".status.conditions[1].type"),
            Some(&json!("Other"))
        );
        assert_eq!(
            find(&obj, ".status.conditions[?(@.type==\"Ready\")].status"),
            Some(&json!("True"))
        );
        assert_eq!(find(&obj, ".spec.missing"), None);
    }

    #[test]
    fn ages_read_as_kubectl_prints_them() {
        for (s, want) in [
            (5, "5s"),
            (119, "119s"),
            (150, "2m30s"),
            (600, "10m"),
            (3 * 3600 + 60, "3h1m"),
            (30 * 3600, "30h"),
            (3 * 86_400 + 3600, "3d1h"),
            (30 * 86_400, "30d"),
            (3 * 365 * 86_400, "3y"),
        ] {
            assert_eq!(human_duration(s), want, "{s}");
        }
        assert_eq!(parse_rfc3339_seconds("1970-01-02T00:00:01Z"), Some(86_401));
    }
}
