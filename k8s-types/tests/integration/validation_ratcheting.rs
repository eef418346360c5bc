//! Kubernetes 1.37's declarative rules on update: Go's generated validation does not
//! check again what an update left as it was ("ratcheting"), where the hand-written
//! rules they replace checked the whole new object.

use k8s_types::flowcontrol;
use serde_json::json;

use crate::validation::update_errors;

/// A PriorityLevelConfiguration of type `type`, with `limited` as given.
fn plc(r#type: &str, limited: serde_json::Value) -> serde_json::Value {
    json!({"metadata": {"name": "pl"}, "spec": {"type": r#type, "limited": limited}})
}

#[test]
fn an_unchanged_empty_limit_response_type_is_not_required_again() {
    // Seed 120 of the oracle's 200-seed run: the queuing changed, the empty type did not.
    let old = plc(
        "Limited",
        json!({"nominalConcurrencyShares": 1, "limitResponse": {"type": ""}}),
    );
    let new = plc(
        "Limited",
        json!({"nominalConcurrencyShares": 2, "limitResponse": {"type": "",
            "queuing": {"queues": 1, "handSize": 1, "queueLengthLimit": 1}}}),
    );
    let errs = update_errors::<flowcontrol::v1::PriorityLevelConfiguration>(old, new);
    let type_required = errs
        .iter()
        .any(|e| e.starts_with("spec.limited.limitResponse.type: Required"));
    assert_eq!(type_required, cfg!(not(feature = "v1_37")), "{errs:?}");
    let queuing_forbidden = errs
        .iter()
        .any(|e| e.starts_with("spec.limited.limitResponse.queuing: Forbidden"));
    // 1.36's hand-written rule only requires the type; 1.37's union forbids the queuing.
    assert_eq!(queuing_forbidden, cfg!(feature = "v1_37"), "{errs:?}");
}

#[test]
fn an_unchanged_union_member_is_not_forbidden_again() {
    let limited = json!({"nominalConcurrencyShares": 1, "limitResponse": {"type": "Reject"}});
    let old = plc("Exempt", limited.clone());
    let mut new = plc("Exempt", limited);
    new["metadata"]["labels"] = json!({"changed": "yes"});
    let errs = update_errors::<flowcontrol::v1::PriorityLevelConfiguration>(old.clone(), new);
    let forbidden = errs
        .iter()
        .any(|e| e.starts_with("spec.limited: Forbidden"));
    assert_eq!(forbidden, cfg!(not(feature = "v1_37")), "{errs:?}");
    // A changed member is checked.
    let new = plc(
        "Exempt",
        json!({"nominalConcurrencyShares": 3, "limitResponse": {"type": "Reject"}}),
    );
    let errs = update_errors::<flowcontrol::v1::PriorityLevelConfiguration>(old, new);
    assert!(
        errs.iter()
            .any(|e| e.starts_with("spec.limited: Forbidden")),
        "{errs:?}"
    );
}

#[test]
fn rules_left_as_they_were_are_not_required_again_when_nil_verbs_became_empty() {
    // Seed 224 of the oracle's run from 200: a rule without verbs, then with an empty
    // list of them. Go's generated rule compares the rules with `Semantic.DeepEqual`
    // (nil and empty lists equal), skips them, and the hand-written error keeps its
    // text; a changed rule list gets the declarative one on 1.37.
    let role = |rules: serde_json::Value| json!({"metadata": {"name": "r", "namespace": "default"}, "rules": rules});
    let kept = update_errors::<k8s_types::rbac::v1::Role>(
        role(json!([{"apiGroups": [""], "resources": ["pods"]}])),
        role(json!([{"apiGroups": [""], "resources": ["pods"], "verbs": []}])),
    );
    assert_eq!(
        kept,
        ["rules[0].verbs: Required value: verbs must contain at least one value"]
    );
    let changed = update_errors::<k8s_types::rbac::v1::Role>(
        role(json!([{"apiGroups": [""], "resources": ["pods"]}])),
        role(json!([{"apiGroups": ["apps"], "resources": ["pods"], "verbs": []}])),
    );
    let want = if cfg!(feature = "v1_37") {
        "rules[0].verbs: Required value"
    } else {
        "rules[0].verbs: Required value: verbs must contain at least one value"
    };
    assert_eq!(changed, [want]);
}
