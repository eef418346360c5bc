//! The `/scale` view the built-in scalable resources share (Go's `scaleFromDeployment`,
//! `scaleFromReplicaSet`, `scaleFromStatefulSet` and `scaleFromRC`): replicas at
//! `spec.replicas` and `status.replicas`, the selector at `spec.selector`.

use serde_json::{Map, Value};

use super::printers::{self, AGE, Column, PLAIN_NAME, Printer, Row};
use super::rest::{Scaler, TableConvertor};

/// Go's `scaleColumnDefinitions` (whose name column has no `name` format).
pub const SCALE_COLUMNS: [Column; 4] = [
    PLAIN_NAME,
    Column {
        name: "Desired",
        type_: "integer",
        format: "",
        description: "replicas is the desired number of instances for the scaled object.",
        priority: 0,
    },
    Column {
        name: "Available",
        type_: "integer",
        format: "",
        description: "replicas is the actual number of observed instances of the scaled object.",
        priority: 0,
    },
    AGE,
];

/// The table of a built-in workload's `Scale` (Go's table generator has `printScale`,
/// which the workloads' `ScaleREST`s convert with).
pub static SCALE_TABLE: Printer = Printer {
    api_version: "autoscaling/v1",
    kind: "Scale",
    columns: &SCALE_COLUMNS,
    print: print_scale,
};

/// Go's `printScale`: name, desired and observed replicas, age (the scaled object's).
pub fn print_scale(scale: &Value) -> Row {
    Row::from(vec![
        Value::from(printers::text(scale, "/metadata/name")),
        Value::from(printers::int(scale, "/spec/replicas")),
        Value::from(printers::int(scale, "/status/replicas")),
        printers::age(scale),
    ])
}

/// The `Scale` of an object with `spec.replicas`, `status.replicas` and a
/// `spec.selector` (a `LabelSelector`, or a replication controller's plain map).
#[derive(Clone, Copy, Debug, Default)]
pub struct ReplicasScale;

impl Scaler for ReplicasScale {
    fn scale_of(&self, _version: &str, obj: &Value) -> Value {
        let selector = match obj.pointer("/spec/selector") {
            // Replication controllers select with a plain map.
            Some(Value::Object(map))
                if !map.contains_key("matchLabels") && !map.contains_key("matchExpressions") =>
            {
                map.iter()
                    .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or_default()))
                    .collect::<Vec<_>>()
                    .join(",")
            }
            Some(sel) => format_label_selector(sel),
            None => String::new(),
        };
        serde_json::json!({
            "metadata": scale_metadata(obj),
            "spec": {"replicas": obj.pointer("/spec/replicas").cloned().unwrap_or(Value::from(0))},
            "status": {
                "replicas": obj.pointer("/status/replicas").cloned().unwrap_or(Value::from(0)),
                "selector": selector,
            },
        })
    }

    fn table(&self) -> Option<&dyn TableConvertor> {
        Some(&SCALE_TABLE)
    }

    fn set_replicas(&self, _version: &str, obj: &mut Value, replicas: i64) {
        if let Some(spec) = obj.get_mut("spec").and_then(Value::as_object_mut) {
            spec.insert("replicas".into(), Value::from(replicas));
        }
    }
}

/// The metadata a `Scale` takes from its object: name, namespace, uid,
/// resourceVersion and creationTimestamp.
pub fn scale_metadata(obj: &Value) -> Map<String, Value> {
    let meta = obj.get("metadata").cloned().unwrap_or(Value::Null);
    let mut scale_meta = Map::new();
    for k in [
        "name",
        "namespace",
        "uid",
        "resourceVersion",
        "creationTimestamp",
    ] {
        if let Some(x) = meta.get(k) {
            scale_meta.insert(k.into(), x.clone());
        }
    }
    scale_meta
}

/// Go's `metav1.FormatLabelSelector` of a `LabelSelector` in JSON form.
fn format_label_selector(sel: &Value) -> String {
    let mut parts = Vec::new();
    if let Some(map) = sel.get("matchLabels").and_then(Value::as_object) {
        for (k, v) in map {
            parts.push(format!("{k}={}", v.as_str().unwrap_or_default()));
        }
    }
    if let Some(exprs) = sel.get("matchExpressions").and_then(Value::as_array) {
        for e in exprs {
            let key = e.get("key").and_then(Value::as_str).unwrap_or_default();
            let values: Vec<&str> = e
                .get("values")
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            match e
                .get("operator")
                .and_then(Value::as_str)
                .unwrap_or_default()
            {
                "In" => parts.push(format!("{key} in ({})", values.join(","))),
                "NotIn" => parts.push(format!("{key} notin ({})", values.join(","))),
                "Exists" => parts.push(key.to_owned()),
                "DoesNotExist" => parts.push(format!("!{key}")),
                _ => {}
            }
        }
    }
    parts.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn selectors_are_written_as_go_formats_them() {
        let deployment = json!({"metadata": {"name": "web", "uid": "u", "labels": {"a": "b"}},
            "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"},
                "matchExpressions": [{"key": "tier", "operator": "In", "values": ["a", "b"]},
                                     {"key": "x", "operator": "DoesNotExist"}]}},
            "status": {"replicas": 2}});
        assert_eq!(
            ReplicasScale.scale_of("v1", &deployment),
            json!({"metadata": {"name": "web", "uid": "u"}, "spec": {"replicas": 3},
                   "status": {"replicas": 2, "selector": "app=web,tier in (a,b),!x"}})
        );
        let rc = json!({"metadata": {"name": "r"}, "spec": {"selector": {"app": "r"}}});
        assert_eq!(
            ReplicasScale.scale_of("v1", &rc)["status"]["selector"],
            "app=r"
        );
        let mut written = rc.clone();
        ReplicasScale.set_replicas("v1", &mut written, 4);
        assert_eq!(written["spec"]["replicas"], 4);
    }

    #[test]
    fn a_scale_prints_its_desired_and_observed_replicas() {
        // Go's TestPrintScale case.
        let deployment = json!({"metadata": {"name": "test-autoscaler", "namespace": "test"},
            "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web"}}},
            "status": {"replicas": 1}});
        let scale = ReplicasScale.scale_of("v1", &deployment);
        let table =
            ReplicasScale
                .table()
                .unwrap()
                .convert_to_table("v1", &[scale], Map::new(), "None");
        assert_eq!(
            table["rows"][0]["cells"],
            json!(["test-autoscaler", 2, 1, "<unknown>"])
        );
        assert_eq!(table["columnDefinitions"][0]["format"], "");
    }
}
