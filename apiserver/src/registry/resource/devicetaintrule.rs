//! DeviceTaintRules (`resource.k8s.io`: `v1` from Kubernetes 1.37, `v1beta2` and
//! `v1alpha3` before, which are not served by default; Go's
//! `pkg/registry/resource/devicetaintrule`): an update that changes the taint's effect
//! stamps a new `timeAdded` unless the client changed it, and the table
//! `kubectl get devicetaintrules` prints (Go's `printDeviceTaint`: the taint, not the
//! device selectors, which may be long CEL expressions).

use std::sync::Arc;

use apimachinery::api::errors::StatusError;
use apimachinery::apis::meta::v1::Time;
use apimachinery::runtime::{Object, Scheme};
use serde_json::Value;

use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{self, AGE, Column, NAME, Printer, Row, string_column};
use crate::registry::rest::RestStorage;
use crate::registry::strategy::{self, Strategy, Subresource, spec_changed};
use crate::registry::{ResourceInfo, from_value, to_json};

/// Go's DeviceTaintRule strategy: generation 1 on create, one more on each spec change;
/// `timeAdded` follows the effect. Go's store of `resource.k8s.io/v1` answers a delete
/// with a Status, those of the older versions (1.36's only ones) with the deleted rule.
#[derive(Clone, Copy, Debug, Default)]
pub struct DeviceTaintRuleStrategy;

impl Strategy for DeviceTaintRuleStrategy {
    fn returns_deleted_object(&self) -> bool {
        !cfg!(feature = "v1_37")
    }

    /// Go's `PrepareForUpdate`: the status kept, and when the effect changed while
    /// `timeAdded` did not, `timeAdded` set to now (in whole seconds), so that it tells
    /// when the effect was added, which tolerations count from.
    fn prepare_for_update(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        old: &dyn Object,
        new: Box<dyn Object>,
        subresource: Subresource,
    ) -> Result<Box<dyn Object>, StatusError> {
        let new = strategy::prepare_for_update(scheme, info, old, new, subresource, spec_changed)?;
        if subresource != Subresource::Main {
            return Ok(new);
        }
        let old = to_json(old)?;
        let mut value = to_json(&*new)?;
        let at = |v: &Value, field: &str| v.pointer(&format!("/spec/taint/{field}")).cloned();
        let time = |t: Option<Value>| {
            t.and_then(|t| t.as_str().and_then(|s| Time::parse_rfc3339(s).ok()))
                .map(|t| t.unix_seconds())
        };
        let effect_changed = at(&old, "effect") != at(&value, "effect");
        let time_kept = time(at(&old, "timeAdded")) == time(at(&value, "timeAdded"));
        if !(effect_changed && time_kept) {
            return Ok(new);
        }
        let now = Time::now().truncate_to_seconds().to_rfc3339();
        if let Some(taint) = value
            .pointer_mut("/spec/taint")
            .and_then(Value::as_object_mut)
        {
            taint.insert("timeAdded".into(), Value::from(now));
        }
        from_value(scheme, &info.storage_gvk, value)
    }
}

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
    deps.standard_with_table(
        info,
        DeviceTaintRuleStrategy,
        Arc::new(DEVICE_TAINT_RULE_TABLE),
    )
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::registry::resources_from_scheme;
    use k8s_types as _;
    use serde_json::json;

    #[test]
    fn a_new_effect_stamps_a_new_time_unless_the_client_set_one() {
        let mut scheme = Scheme::with_name("devicetaintrule-tests");
        scheme.add_registry().unwrap();
        let info = resources_from_scheme(&scheme)
            .remove(&("resource.k8s.io".to_owned(), "devicetaintrules".to_owned()))
            .unwrap();
        let rule = |effect: &str, added: &str| {
            let mut taint = json!({"key": "example.com/maintenance", "effect": effect});
            if !added.is_empty() {
                taint["timeAdded"] = json!(added);
            }
            let v = json!({"apiVersion": info.storage_gvk.group_version().api_version(),
                "kind": "DeviceTaintRule",
                "metadata": {"name": "r", "generation": 1}, "spec": {"taint": taint}});
            from_value(&scheme, &info.storage_gvk, v).unwrap()
        };
        let update = |old: &dyn Object, new: Box<dyn Object>| {
            let new = DeviceTaintRuleStrategy
                .prepare_for_update(&scheme, &info, old, new, Subresource::Main)
                .unwrap();
            to_json(&*new).unwrap()
        };
        let old = "2026-01-01T00:00:00Z";
        let stored = rule("NoSchedule", old);
        let bumped = update(&*stored, rule("NoExecute", old));
        assert_ne!(bumped["spec"]["taint"]["timeAdded"], old);
        assert_eq!(bumped["metadata"]["generation"], 2);
        let chosen = "2026-02-01T00:00:00Z";
        let kept = update(&*stored, rule("NoExecute", chosen));
        assert_eq!(kept["spec"]["taint"]["timeAdded"], chosen);
        let same_effect = update(&*stored, rule("NoSchedule", old));
        assert_eq!(same_effect["spec"]["taint"]["timeAdded"], old);
        assert_eq!(same_effect["metadata"]["generation"], 1);
        let unset = update(&*rule("NoSchedule", ""), rule("None", ""));
        assert!(unset["spec"]["taint"]["timeAdded"].is_string());
    }

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
