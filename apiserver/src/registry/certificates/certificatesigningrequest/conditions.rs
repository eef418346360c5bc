//! What a write of a CertificateSigningRequest keeps (Go's `PrepareForUpdate` of
//! `csrStrategy`, `csrStatusStrategy` and `csrApprovalStrategy` in
//! `pkg/registry/certificates/certificates/strategy.go`), on the objects' JSON: the
//! stored spec always; through `/status` the stored Approved and Denied conditions
//! (when as many are written: an added or removed one is left for validation to
//! refuse); through `/approval` the stored status but its conditions; and the times of
//! the conditions a write of either subresource leaves unset.

use apimachinery::apis::meta::v1::Time;
use serde_json::Value;

use crate::registry::strategy::Subresource;

/// Go's `Approved` and `Denied` condition types, which only `/approval` may change.
const APPROVAL_TYPES: [&str; 2] = ["Approved", "Denied"];

/// Adjusts `new` (already with the stored status on a write of the object or of
/// `/approval`, and the stored spec on a write of `/status`) over `old`; `written` is the
/// conditions an `/approval` write sent (`None`: none).
pub(super) fn prepare(
    old: &Value,
    new: &mut Value,
    subresource: Subresource,
    written: Option<Value>,
) {
    copy(old, new, "spec");
    match subresource {
        Subresource::Status => {
            for kind in APPROVAL_TYPES {
                preserve_condition_instances(old, new, kind);
            }
            populate_condition_timestamps(old, new);
        }
        Subresource::Approval => {
            if let Some(status) = new.get_mut("status").and_then(Value::as_object_mut) {
                match written {
                    Some(conditions) if !conditions.is_null() => {
                        status.insert("conditions".into(), conditions)
                    }
                    _ => status.remove("conditions"),
                };
            }
            populate_condition_timestamps(old, new);
        }
        _ => {}
    }
}

/// `new[field]` set to `old[field]` (or removed when `old` has none).
fn copy(old: &Value, new: &mut Value, field: &str) {
    let Some(map) = new.as_object_mut() else {
        return;
    };
    match old.get(field) {
        Some(v) => map.insert(field.into(), v.clone()),
        None => map.remove(field),
    };
}

fn conditions(csr: &Value) -> &[Value] {
    csr.pointer("/status/conditions")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

fn kind_of(condition: &Value) -> &str {
    condition
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or_default()
}

/// Go's `preserveConditionInstances`: when `new` has as many conditions of `kind` as
/// `old`, each is put back as stored (in the written positions).
fn preserve_condition_instances(old: &Value, new: &mut Value, kind: &str) {
    let stored: Vec<Value> = conditions(old)
        .iter()
        .filter(|c| kind_of(c) == kind)
        .cloned()
        .collect();
    let Some(written) = new
        .pointer_mut("/status/conditions")
        .and_then(Value::as_array_mut)
    else {
        return;
    };
    let positions: Vec<usize> = written
        .iter()
        .enumerate()
        .filter(|(_, c)| kind_of(c) == kind)
        .map(|(i, _)| i)
        .collect();
    if positions.len() != stored.len() {
        return;
    }
    for (i, condition) in positions.into_iter().zip(stored) {
        written[i] = condition;
    }
}

fn unset(condition: &Value, field: &str) -> bool {
    condition
        .get(field)
        .and_then(Value::as_str)
        .is_none_or(str::is_empty)
}

/// Go's `populateConditionTimestamps`: an unset `lastUpdateTime` is now; an unset
/// `lastTransitionTime` is the stored condition's of the same type and status, or now.
fn populate_condition_timestamps(old: &Value, new: &mut Value) {
    let now = Value::from(Time::now().truncate_to_seconds().to_rfc3339());
    let stored = conditions(old).to_vec();
    let Some(written) = new
        .pointer_mut("/status/conditions")
        .and_then(Value::as_array_mut)
    else {
        return;
    };
    for condition in written {
        let Some(map) = condition.as_object_mut() else {
            continue;
        };
        let this = Value::Object(map.clone());
        if unset(&this, "lastUpdateTime") {
            map.insert("lastUpdateTime".into(), now.clone());
        }
        if unset(&this, "lastTransitionTime") {
            let kept = stored
                .iter()
                .find(|o| {
                    kind_of(o) == kind_of(&this)
                        && o.get("status") == this.get("status")
                        && !unset(o, "lastTransitionTime")
                })
                .and_then(|o| o.get("lastTransitionTime").cloned());
            map.insert(
                "lastTransitionTime".into(),
                kept.unwrap_or_else(|| now.clone()),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn status_writes_keep_the_stored_approval() {
        let old = json!({"spec": {"signerName": "a"}, "status": {"conditions": [
            {"type": "Approved", "status": "True", "reason": "Ok",
             "lastUpdateTime": "2026-01-01T00:00:00Z", "lastTransitionTime": "2026-01-01T00:00:00Z"}]}});
        let mut new = json!({"spec": {"signerName": "b"}, "status": {"conditions": [
            {"type": "Approved", "status": "True", "reason": "Changed"},
            {"type": "Failed", "status": "True"}]}});
        prepare(&old, &mut new, Subresource::Status, None);
        assert_eq!(new["spec"]["signerName"], "a");
        assert_eq!(new["status"]["conditions"][0]["reason"], "Ok");
        assert!(new["status"]["conditions"][1]["lastUpdateTime"].is_string());
    }

    #[test]
    fn approval_writes_take_the_conditions_only() {
        let old = json!({"spec": {"signerName": "a"}, "status": {"certificate": "Y2VydA==",
            "conditions": [{"type": "Approved", "status": "True",
                "lastTransitionTime": "2026-01-01T00:00:00Z"}]}});
        // The stored status, as the store's generic step leaves it.
        let mut new = json!({"spec": {"signerName": "b"}, "status": old["status"].clone()});
        let written = json!([{"type": "Approved", "status": "True", "reason": "Again"}]);
        prepare(&old, &mut new, Subresource::Approval, Some(written));
        assert_eq!(new["spec"]["signerName"], "a");
        assert_eq!(new["status"]["certificate"], "Y2VydA==");
        let condition = &new["status"]["conditions"][0];
        assert_eq!(condition["reason"], "Again");
        assert_eq!(condition["lastTransitionTime"], "2026-01-01T00:00:00Z");
        assert!(condition["lastUpdateTime"].is_string());
    }
}
