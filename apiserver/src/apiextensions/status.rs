//! The status kube-apiserver's CRD controllers write (Go's `NamingConditionController`,
//! `EstablishingController` and the CRD strategy's `storedVersions`): the names a CRD
//! is granted, its `NamesAccepted`, `Established` and `Terminating` conditions.
//!
//! [`compute_statuses`] is one pass of those controllers over every CRD, oldest first
//! (so that of two CRDs asking for the same name, the first one keeps it), on the CRDs'
//! `apiextensions.k8s.io/v1` JSON.

use std::collections::BTreeSet;

use serde_json::{Map, Value, json};

/// The finalizer that holds a deleted CRD until its objects are gone.
pub const CLEANUP_FINALIZER: &str = "customresourcecleanup.apiextensions.k8s.io";

/// The names of built-in resources a CRD may not take, by group: resource names
/// (plural, singular, short names) and kinds (with their list kinds).
#[derive(Debug, Clone, Default)]
pub struct ReservedNames {
    /// `(group, name)` of every built-in resource name, singular name and short name.
    pub resources: BTreeSet<(String, String)>,
    /// `(group, kind)` of every built-in kind and list kind.
    pub kinds: BTreeSet<(String, String)>,
}

fn str_at<'v>(v: &'v Value, pointer: &str) -> &'v str {
    v.pointer(pointer)
        .and_then(Value::as_str)
        .unwrap_or_default()
}

fn condition<'v>(crd: &'v Value, type_: &str) -> Option<&'v Value> {
    crd.pointer("/status/conditions")
        .and_then(Value::as_array)?
        .iter()
        .find(|c| c.get("type").and_then(Value::as_str) == Some(type_))
}

/// Whether the CRD has condition `type_` with status `True`.
pub fn is_true(crd: &Value, type_: &str) -> bool {
    condition(crd, type_)
        .and_then(|c| c.get("status"))
        .and_then(Value::as_str)
        == Some("True")
}

/// Go's `SetCRDCondition`: replaces the condition of the same type, keeping its
/// `lastTransitionTime` when the status did not change; a new type is appended.
fn set_condition(status: &mut Map<String, Value>, mut new: Value, now: &str) {
    let conditions = status
        .entry("conditions")
        .or_insert_with(|| Value::Array(Vec::new()));
    if !conditions.is_array() {
        *conditions = Value::Array(Vec::new());
    }
    let Some(list) = conditions.as_array_mut() else {
        return;
    };
    let type_ = new.get("type").cloned();
    match list.iter_mut().find(|c| c.get("type") == type_.as_ref()) {
        Some(old) => {
            let same = old.get("status") == new.get("status");
            let time = if same {
                old.get("lastTransitionTime").cloned().unwrap_or(json!(now))
            } else {
                json!(now)
            };
            new["lastTransitionTime"] = time;
            *old = new;
        }
        None => {
            new["lastTransitionTime"] = json!(now);
            list.push(new);
        }
    }
}

/// Go's CRD `Delete` on a CRD not yet terminating (`crd` as v1 JSON): the deletion
/// timestamp `now`, the cleanup finalizer, and a `Terminating` condition saying the
/// objects' deletion is pending, in one write past the strategy (no new generation,
/// no grace period).
pub(crate) fn mark_terminating(crd: &mut Value, now: &str) {
    let Some(crd) = crd.as_object_mut() else {
        return;
    };
    let meta = crd
        .entry("metadata")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Some(meta) = meta.as_object_mut() {
        meta.insert("deletionTimestamp".into(), json!(now));
        let finalizers = meta
            .entry("finalizers")
            .or_insert_with(|| Value::Array(Vec::new()));
        if let Some(list) = finalizers.as_array_mut() {
            if !list.iter().any(|f| f == CLEANUP_FINALIZER) {
                list.push(json!(CLEANUP_FINALIZER));
            }
        }
    }
    let status = crd
        .entry("status")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Some(status) = status.as_object_mut() {
        set_condition(
            status,
            cond(
                "Terminating",
                "True",
                "InstanceDeletionPending",
                "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon",
            ),
            now,
        );
    }
}

fn cond(type_: &str, status: &str, reason: &str, message: &str) -> Value {
    json!({"type": type_, "status": status, "reason": reason, "message": message})
}

/// One pass of the naming and establishing controllers over `crds` (v1 JSON, sorted
/// oldest first): for each CRD whose status must change, its index and new `status`.
/// `crds` is updated in place, so later CRDs see the names earlier ones were granted.
/// `now` is the RFC 3339 time new conditions carry.
pub fn compute_statuses(crds: &mut [Value], reserved: &ReservedNames, now: &str) -> Vec<usize> {
    let mut changed = Vec::new();
    for i in 0..crds.len() {
        let group = str_at(&crds[i], "/spec/group").to_owned();
        let name = str_at(&crds[i], "/metadata/name").to_owned();
        let mut resources: BTreeSet<String> = reserved
            .resources
            .iter()
            .filter(|(g, _)| *g == group)
            .map(|(_, n)| n.clone())
            .collect();
        let mut kinds: BTreeSet<String> = reserved
            .kinds
            .iter()
            .filter(|(g, _)| *g == group)
            .map(|(_, n)| n.clone())
            .collect();
        for other in crds.iter() {
            if str_at(other, "/spec/group") != group || str_at(other, "/metadata/name") == name {
                continue;
            }
            let accepted = other
                .pointer("/status/acceptedNames")
                .cloned()
                .unwrap_or(json!({}));
            for k in ["plural", "singular"] {
                resources.insert(str_at(&accepted, &format!("/{k}")).to_owned());
            }
            for s in accepted
                .get("shortNames")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                resources.insert(s.as_str().unwrap_or_default().to_owned());
            }
            for k in ["kind", "listKind"] {
                kinds.insert(str_at(&accepted, &format!("/{k}")).to_owned());
            }
        }
        resources.remove("");
        kinds.remove("");
        let crd = &crds[i];
        let requested = requested_names(crd);
        let accepted = crd
            .pointer("/status/acceptedNames")
            .cloned()
            .unwrap_or(json!({}));
        let mut new_names = accepted.as_object().cloned().unwrap_or_default();
        let mut naming: Option<(String, String)> = None;
        let fresh = |req: &str, acc: &str, used: &BTreeSet<String>| -> Result<(), String> {
            if req == acc || !used.contains(req) {
                Ok(())
            } else {
                Err(format!("{req:?} is already in use"))
            }
        };
        for (field, reason, used) in [
            ("plural", "PluralConflict", &resources),
            ("singular", "SingularConflict", &resources),
        ] {
            match fresh(
                str_at(&requested, &format!("/{field}")),
                str_at(&accepted, &format!("/{field}")),
                used,
            ) {
                Ok(()) => {
                    new_names.insert(field.into(), requested[field].clone());
                }
                Err(e) => naming = Some((reason.into(), e)),
            }
        }
        let requested_short = requested.get("shortNames").cloned().unwrap_or(json!([]));
        let accepted_short = accepted.get("shortNames").cloned().unwrap_or(json!([]));
        if requested_short != accepted_short {
            let mine: BTreeSet<&str> = accepted_short
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            let errs: Vec<String> = requested_short
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .filter(|s| !mine.contains(s))
                .filter(|s| {
                    *s != str_at(&accepted, "/plural") && *s != str_at(&accepted, "/singular")
                })
                .filter_map(|s| fresh(s, "", &resources).err())
                .collect();
            if errs.is_empty() {
                if requested_short.as_array().is_some_and(|a| !a.is_empty()) {
                    new_names.insert("shortNames".into(), requested_short);
                } else {
                    new_names.remove("shortNames");
                }
            } else {
                // Go's aggregate of several errors: "[a, b]"; of one, the error itself.
                let msg = if errs.len() == 1 {
                    errs[0].clone()
                } else {
                    format!("[{}]", errs.join(", "))
                };
                naming = Some(("ShortNamesConflict".into(), msg));
            }
        }
        for (field, reason) in [("kind", "KindConflict"), ("listKind", "ListKindConflict")] {
            match fresh(
                str_at(&requested, &format!("/{field}")),
                str_at(&accepted, &format!("/{field}")),
                &kinds,
            ) {
                Ok(()) => {
                    new_names.insert(field.into(), requested[field].clone());
                }
                Err(e) => naming = Some((reason.into(), e)),
            }
        }
        match requested.get("categories") {
            Some(c) if c.as_array().is_some_and(|a| !a.is_empty()) => {
                new_names.insert("categories".into(), c.clone());
            }
            _ => {
                new_names.remove("categories");
            }
        }
        let old_status = crd.get("status").cloned().unwrap_or(json!({}));
        let mut status = old_status.as_object().cloned().unwrap_or_default();
        status.insert("acceptedNames".into(), Value::Object(new_names));
        let names_accepted = match &naming {
            None => cond("NamesAccepted", "True", "NoConflicts", "no conflicts found"),
            Some((reason, message)) => cond("NamesAccepted", "False", reason, message),
        };
        let established = if naming.is_none() {
            // The establishing controller's step, taken at once: nothing here serves the
            // resource before the names are granted.
            cond(
                "Established",
                "True",
                "InitialNamesAccepted",
                "the initial names have been accepted",
            )
        } else if is_true(crd, "Established") {
            condition(crd, "Established").cloned().unwrap_or_default()
        } else {
            cond(
                "Established",
                "False",
                "NotAccepted",
                "not all names are accepted",
            )
        };
        set_condition(&mut status, names_accepted, now);
        set_condition(&mut status, established, now);
        if crd
            .pointer("/metadata/deletionTimestamp")
            .is_some_and(|t| !t.is_null())
        {
            set_condition(
                &mut status,
                cond(
                    "Terminating",
                    "True",
                    "InstanceDeletionInProgress",
                    "CustomResource deletion is in progress",
                ),
                now,
            );
        }
        let storage = crd
            .pointer("/spec/versions")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .find(|v| v.get("storage").and_then(Value::as_bool) == Some(true))
            .and_then(|v| v.get("name").cloned());
        if let Some(storage) = storage {
            let stored = status
                .entry("storedVersions")
                .or_insert_with(|| Value::Array(Vec::new()));
            if let Some(list) = stored.as_array_mut() {
                if !list.contains(&storage) {
                    list.push(storage);
                }
            }
        }
        let status = Value::Object(status);
        if status != old_status {
            crds[i]["status"] = status;
            changed.push(i);
        }
    }
    changed
}

/// `spec.names` with Go's defaults: `singular` the lowercase kind, `listKind`
/// `<Kind>List`.
fn requested_names(crd: &Value) -> Value {
    let mut names = crd.pointer("/spec/names").cloned().unwrap_or(json!({}));
    let kind = str_at(&names, "/kind").to_owned();
    if str_at(&names, "/singular").is_empty() {
        names["singular"] = json!(kind.to_ascii_lowercase());
    }
    if str_at(&names, "/listKind").is_empty() {
        names["listKind"] = json!(format!("{kind}List"));
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crd(name: &str, plural: &str, kind: &str, short: &[&str]) -> Value {
        json!({
            "metadata": {"name": name},
            "spec": {"group": "example.com", "scope": "Namespaced",
                     "names": {"plural": plural, "kind": kind, "shortNames": short},
                     "versions": [{"name": "v1", "served": true, "storage": true}]},
        })
    }

    #[test]
    fn a_fresh_crd_is_accepted_and_established() {
        let mut crds = vec![crd("widgets.example.com", "widgets", "Widget", &["wd"])];
        let changed =
            compute_statuses(&mut crds, &ReservedNames::default(), "2026-01-01T00:00:00Z");
        assert_eq!(changed, [0]);
        let status = &crds[0]["status"];
        assert_eq!(status["acceptedNames"]["listKind"], "WidgetList");
        assert_eq!(status["acceptedNames"]["singular"], "widget");
        assert_eq!(status["acceptedNames"]["shortNames"], json!(["wd"]));
        assert_eq!(status["storedVersions"], json!(["v1"]));
        assert!(is_true(&crds[0], "NamesAccepted"));
        assert!(is_true(&crds[0], "Established"));
        assert_eq!(status["conditions"][0]["reason"], "NoConflicts");
        assert_eq!(status["conditions"][1]["reason"], "InitialNamesAccepted");
        // A second pass changes nothing: the controller settles.
        assert!(
            compute_statuses(&mut crds, &ReservedNames::default(), "2026-01-01T00:00:05Z")
                .is_empty()
        );
    }

    #[test]
    fn the_second_crd_asking_for_a_name_is_refused_as_go_refuses_it() {
        let mut crds = vec![
            crd("widgets.example.com", "widgets", "Widget", &[]),
            crd("gadgets.example.com", "gadgets", "Widget", &["widgets"]),
        ];
        compute_statuses(&mut crds, &ReservedNames::default(), "t");
        let second = &crds[1]["status"];
        assert!(!is_true(&crds[1], "NamesAccepted"));
        assert!(!is_true(&crds[1], "Established"));
        let names = &second["conditions"][0];
        // Both the kind and its list kind are taken; Go reports the last check's.
        assert_eq!(names["reason"], "ListKindConflict");
        assert_eq!(names["message"], "\"WidgetList\" is already in use");
        assert_eq!(second["conditions"][1]["reason"], "NotAccepted");
        assert_eq!(
            second["conditions"][1]["message"],
            "not all names are accepted"
        );
        assert!(second["acceptedNames"].get("kind").is_none());
    }

    #[test]
    fn a_built_in_resource_name_is_taken() {
        let mut reserved = ReservedNames::default();
        reserved
            .resources
            .insert(("apps".into(), "deployments".into()));
        let mut crds = vec![json!({
            "metadata": {"name": "deployments.apps"},
            "spec": {"group": "apps", "names": {"plural": "deployments", "kind": "MyDeployment"},
                     "versions": [{"name": "v9", "served": true, "storage": true}]},
        })];
        compute_statuses(&mut crds, &reserved, "t");
        assert_eq!(
            crds[0]["status"]["conditions"][0]["reason"],
            "PluralConflict"
        );
        assert_eq!(
            crds[0]["status"]["conditions"][0]["message"],
            "\"deployments\" is already in use"
        );
    }
}
