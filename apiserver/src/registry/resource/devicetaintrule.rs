//! DeviceTaintRules (`resource.k8s.io`: `v1` from Kubernetes 1.37, `v1beta2` and
//! `v1alpha3` before, which are not served by default; Go's
//! `pkg/registry/resource/devicetaintrule`): the generic strategy, and the table
//! `kubectl get devicetaintrules` prints (Go's `printDeviceTaint`: the taint, not the
//! device selectors, which may be long CEL expressions).

use std::sync::Arc;

use serde_json::Value;

use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{self, AGE, Column, NAME, Printer, Row, string_column};
use crate::registry::rest::{RestStorage, StandardStorage};
use crate::registry::strategy::GenericStrategy;

/// Go's `deviceTaintColumnDefinitions` (descriptions of `resource.k8s.io/v1`'s
/// `DeviceTaint`, the same on 1.36 and 1.37).
pub const COLUMNS: [Column; 6] = [
    NAME,
    string_column(
        "Key",
        "The taint key to be applied to a device. Must be a label name.",
        0,
    ),
    string_column(
        "Value",
        "The taint value corresponding to the taint key. Must be a label value.",
        0,
    ),
    string_column(
        "Effect",
        "The effect of the taint on claims that do not tolerate the taint and through such claims on the pods using them.\n\nValid effects are None, NoSchedule and NoExecute. PreferNoSchedule as used for nodes is not valid here. More effects may get added in the future. Consumers must treat unknown effects like None.",
        0,
    ),
    string_column(
        "TimeAdded",
        "TimeAdded represents the time at which the taint was added or (only in a DeviceTaintRule) the effect was modified. Added automatically during create or update if not set.\n\nIn addition, in a DeviceTaintRule a value provided during an update gets replaced with the current time if the provided value is the same as the old one and the new effect is different. Changing the key and/or value while keeping the effect unchanged is possible and does not update the time stamp because the eviction which uses it is either already started (NoExecute) or not started yet (NoEffect, NoSchedule).",
        0,
    ),
    AGE,
];

/// The DeviceTaintRules' table convertor.
pub static DEVICE_TAINT_RULE_TABLE: Printer = Printer {
    #[cfg(feature = "v1_37")]
    api_version: "resource.k8s.io/v1",
    #[cfg(not(feature = "v1_37"))]
    api_version: "resource.k8s.io/v1beta2",
    kind: "DeviceTaintRule",
    columns: &COLUMNS,
    print: print_device_taint_rule,
};

/// Go's `printDeviceTaint`: name, the taint's key, value and effect, how long ago it was
/// added (empty when unset), age.
pub fn print_device_taint_rule(obj: &Value) -> Row {
    let taint = obj.pointer("/spec/taint").unwrap_or(&Value::Null);
    let added = match taint.get("timeAdded") {
        Some(t) if !t.is_null() => printers::since(Some(t)),
        _ => String::new(),
    };
    Row::from(vec![
        Value::from(printers::text(obj, "/metadata/name")),
        Value::from(printers::text(taint, "/key")),
        Value::from(printers::text(taint, "/value")),
        Value::from(printers::text(taint, "/effect")),
        Value::from(added),
        printers::age(obj),
    ])
}

/// The DeviceTaintRules' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    // Go's store of resource.k8s.io/v1 answers a delete with a Status, those of the
    // older versions (1.36's only ones) with the deleted rule.
    let strategy = GenericStrategy {
        returns_deleted_object: !cfg!(feature = "v1_37"),
        ..GenericStrategy::default()
    };
    Arc::new(
        StandardStorage::new(deps.store(info, strategy))
            .with_table_convertor(Arc::new(DEVICE_TAINT_RULE_TABLE)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use apimachinery::apis::meta::v1::Time;
    use serde_json::json;

    #[test]
    fn the_row_has_the_taint() {
        let mut rule = json!({"metadata": {"name": "gpu-maintenance"},
            "spec": {"taint": {"key": "example.com/maintenance", "effect": "NoExecute"}}});
        let cells = print_device_taint_rule(&rule).cells;
        assert_eq!(
            cells[..5],
            [
                json!("gpu-maintenance"),
                json!("example.com/maintenance"),
                json!(""),
                json!("NoExecute"),
                json!("")
            ]
        );
        rule["spec"]["taint"]["value"] = json!("planned");
        rule["spec"]["taint"]["timeAdded"] = json!(Time::now().to_rfc3339());
        let cells = print_device_taint_rule(&rule).cells;
        assert_eq!(cells[2], "planned");
        assert!(cells[4].as_str().unwrap().ends_with('s'));
    }
}
