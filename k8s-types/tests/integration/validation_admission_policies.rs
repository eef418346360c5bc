//! ValidatingAdmissionPolicy and MutatingAdmissionPolicy, rule by rule, with Go's text
//! (`ValidateValidatingAdmissionPolicy`, `ValidateMutatingAdmissionPolicy`, and the
//! former's `/status`, `ValidateValidatingAdmissionPolicyStatusUpdate`). The CEL
//! expressions are valid ones: Go compiles them, ours does not.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use k8s_types::admissionregistration::v1::{MutatingAdmissionPolicy, ValidatingAdmissionPolicy};
use serde_json::{Value, json};

use crate::validation::{errors, status_errors, update_errors};

fn rules() -> Value {
    json!({"resourceRules": [{"operations": ["CREATE"], "apiGroups": ["apps"],
        "apiVersions": ["v1"], "resources": ["deployments"]}]})
}

fn vap(name: &str, spec: Value) -> Value {
    json!({"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingAdmissionPolicy",
        "metadata": {"name": name}, "spec": spec})
}

fn map(name: &str, spec: Value) -> Value {
    json!({"apiVersion": "admissionregistration.k8s.io/v1", "kind": "MutatingAdmissionPolicy",
        "metadata": {"name": name}, "spec": spec})
}

fn vap_errors(spec: Value) -> Vec<String> {
    errors::<ValidatingAdmissionPolicy>(vap("p", spec))
}

fn map_errors(spec: Value) -> Vec<String> {
    errors::<MutatingAdmissionPolicy>(map("p", spec))
}

#[test]
fn valid_policies_pass() {
    assert_eq!(
        vap_errors(json!({"matchConstraints": rules(),
            "validations": [{"expression": "object.spec.replicas <= 5",
                "messageExpression": "'too many'", "reason": "Invalid"}],
            "auditAnnotations": [{"key": "replicas", "valueExpression": "'x'"}]})),
        Vec::<String>::new()
    );
    assert_eq!(
        map_errors(
            json!({"matchConstraints": rules(), "reinvocationPolicy": "Never",
            "mutations": [{"patchType": "JSONPatch", "jsonPatch": {"expression": "[]"}}]})
        ),
        Vec::<String>::new()
    );
}

#[test]
fn failure_policy_constraints_and_something_to_check() {
    assert_eq!(
        vap_errors(json!({"failurePolicy": "Maybe"})),
        [
            "spec.failurePolicy: Unsupported value: \"Maybe\": supported values: \"Fail\", \"Ignore\"",
            "spec.matchConstraints: Required value",
            "spec.validations: Required value: validations or auditAnnotations must contain at least one item",
            "spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item",
        ]
    );
    // A defaulted matchConstraints without rules gives the expressions no type.
    assert_eq!(
        vap_errors(json!({"matchConstraints": {}, "validations": [{"expression": "true"}]})),
        ["spec.matchConstraints.resourceRules: Required value"]
    );
}

#[test]
fn param_kinds_are_group_versions_and_kinds() {
    let with = |pk: Value| {
        vap_errors(json!({"paramKind": pk, "matchConstraints": rules(),
            "validations": [{"expression": "true"}]}))
    };
    assert_eq!(
        with(json!({"apiVersion": "", "kind": ""})),
        [
            "spec.paramKind.apiVersion: Required value",
            "spec.paramKind.kind: Required value"
        ]
    );
    assert_eq!(
        with(json!({"apiVersion": "a/b/c", "kind": "ConfigMap"})),
        [
            "spec.paramKind.apiVersion: Invalid value: \"a/b/c\": unexpected GroupVersion string: a/b/c"
        ]
    );
    assert_eq!(
        with(json!({"apiVersion": "/", "kind": "ConfigMap"})),
        ["spec.paramKind.apiVersion: Invalid value: \"/\": version must be specified"]
    );
    let errs = with(json!({"apiVersion": "Example.com/V1", "kind": "9lives"}));
    assert_eq!(errs.len(), 3, "{errs:?}");
    assert!(errs[0].starts_with(
        "spec.paramKind.apiVersion: Invalid value: \"Example.com\": a lowercase RFC 1123 subdomain"
    ));
    assert!(
        errs[1].starts_with("spec.paramKind.apiVersion: Invalid value: \"V1\": a DNS-1035 label")
    );
    assert!(errs[2].starts_with(
        "spec.paramKind.kind: Invalid value: \"9lives\": may have mixed case, but should otherwise match: a DNS-1035 label"
    ));
}

#[test]
fn variables_are_cel_identifiers_with_expressions() {
    let errs = vap_errors(
        json!({"matchConstraints": rules(), "validations": [{"expression": "true"}],
        "variables": [{"name": "1x", "expression": "1"}, {"name": "in", "expression": " "},
            {"name": " ", "expression": "2"}, {"name": "_ok9", "expression": "3"}]}),
    );
    assert_eq!(
        errs,
        [
            "spec.variables[0].name: Invalid value: \"1x\": must be a valid CEL identifier",
            "spec.variables[1].name: Invalid value: \"in\": must be a valid CEL identifier",
            "spec.variables[1].expression: Required value: expression is not specified",
            "spec.variables[2].name: Required value: name is not specified",
        ]
    );
}

#[test]
fn validations_messages_and_reasons() {
    let errs = vap_errors(json!({"matchConstraints": rules(), "validations": [
        {"expression": " ", "messageExpression": "  ", "message": " ", "reason": "Teapot"},
        {"expression": "true", "message": "too\nmany", "reason": ""}]}));
    assert_eq!(
        errs,
        [
            "spec.validations[0].expression: Required value: expression is not specified",
            "spec.validations[0].messageExpression: Invalid value: \"  \": must be non-empty if specified",
            "spec.validations[0].message: Invalid value: \" \": must be non-empty if specified",
            "spec.validations[0].reason: Unsupported value: \"Teapot\": supported values: \"Forbidden\", \"Invalid\", \"RequestEntityTooLarge\"",
            "spec.validations[1].message: Invalid value: \"too\\nmany\": must not contain line breaks",
            "spec.validations[1].reason: Unsupported value: \"\": supported values: \"Forbidden\", \"Invalid\", \"RequestEntityTooLarge\"",
        ]
    );
}

#[test]
fn audit_annotations_keys_values_and_count() {
    let long = format!("'{}'", "a".repeat(5200));
    let errs = vap_errors(json!({"matchConstraints": rules(), "auditAnnotations": [
        {"key": "not a key", "valueExpression": "'x'"},
        {"key": "high", "valueExpression": " "},
        {"key": "high", "valueExpression": long}]}));
    assert_eq!(errs.len(), 4, "{errs:?}");
    assert!(errs[0].starts_with(
        "spec.auditAnnotations[0].key: Invalid value: \"p/not a key\": name part must consist of"
    ));
    assert_eq!(
        errs[1..],
        [
            "spec.auditAnnotations[1].valueExpression: Required value: valueExpression is not specified",
            "spec.auditAnnotations[2].valueExpression: Required value: must not exceed 5120 bytes in length",
            "spec.auditAnnotations[2].key: Duplicate value: \"high\"",
        ]
    );
    let many: Vec<Value> = (0..21)
        .map(|i| json!({"key": format!("k{i}"), "valueExpression": "'v'"}))
        .collect();
    let errs = vap_errors(json!({"matchConstraints": rules(), "auditAnnotations": many}));
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(errs[0].starts_with(
        "spec.auditAnnotations: Invalid value: [{\"Key\":\"k0\",\"ValueExpression\":\"'v'\"},"
    ));
    assert!(errs[0].ends_with("]: must not have more than 20 auditAnnotations"));
    // The key is qualified with the policy's name, which must be there (an object
    // judged as given: the server would generate the name first).
    let unnamed = json!({"apiVersion": "admissionregistration.k8s.io/v1",
        "kind": "ValidatingAdmissionPolicy", "metadata": {"generateName": "p-"},
        "spec": {"matchConstraints": rules(),
            "auditAnnotations": [{"key": "k", "valueExpression": "'v'"}]}});
    assert_eq!(
        errors::<ValidatingAdmissionPolicy>(unnamed),
        [
            "metadata.name: Required value: name or generateName is required",
            "spec.auditAnnotations[0].key: Invalid value: \"k\": requires metadata.name be non-empty"
        ]
    );
}

#[test]
fn mutations_patch_types_and_reinvocation() {
    let errs = map_errors(json!({"failurePolicy": "Never",
        "matchConstraints": {"resourceRules": [{"operations": ["CREATE", "DELETE"],
            "apiGroups": [""], "apiVersions": ["v1"], "resources": ["pods"]}]},
        "mutations": [
            {"patchType": ""},
            {"patchType": "Strategic"},
            {"patchType": "JSONPatch", "applyConfiguration": {"expression": "Object{}"}},
            {"patchType": "ApplyConfiguration", "applyConfiguration": {"expression": " "},
                "jsonPatch": {"expression": "[]"}}],
        "reinvocationPolicy": "Always"}));
    assert_eq!(
        errs,
        [
            "spec.failurePolicy: Unsupported value: \"Never\": supported values: \"Fail\", \"Ignore\"",
            "spec.matchConstraints.resourceRules.operations: Unsupported value: \"DELETE\": supported values: \"*\", \"CONNECT\", \"CREATE\", \"UPDATE\"",
            "spec.mutations[0].patchType: Required value",
            "spec.mutations[1].patchType: Unsupported value: \"Strategic\": supported values: \"ApplyConfiguration\", \"JSONPatch\"",
            "spec.mutations[2].jsonPatch: Required value: must be specified when patchType is JSONPatch",
            "spec.mutations[2].applyConfiguration: Invalid value: \"{applyConfiguration}\": must not be specified when patchType is JSONPatch",
            "spec.mutations[3].applyConfiguration.expression: Required value",
            "spec.mutations[3].jsonPatch: Invalid value: \"{jsonPatch}\": must not be specified when patchType is ApplyConfiguration",
            "spec.reinvocationPolicy: Unsupported value: \"Always\": supported values: \"IfNeeded\", \"Never\"",
        ]
    );
    assert_eq!(
        map_errors(json!({})),
        [
            "spec.matchConstraints: Required value",
            "spec.mutations: Required value: mutations must contain at least one item",
            "spec.reinvocationPolicy: Required value",
        ]
    );
}

#[test]
fn updates_judge_match_conditions_only_when_they_or_the_param_kind_change() {
    let spec = |api_version: &str, replicas: u32| {
        json!({"paramKind": {"apiVersion": api_version, "kind": "ConfigMap"},
            "matchConstraints": rules(),
            "matchConditions": [{"name": "bad name!", "expression": "true"}],
            "validations": [{"expression": format!("object.spec.replicas <= {replicas}")}]})
    };
    let old = vap("p", spec("v1", 5));
    assert!(
        update_errors::<ValidatingAdmissionPolicy>(old.clone(), vap("p", spec("v1", 10)))
            .is_empty()
    );
    let errs = update_errors::<ValidatingAdmissionPolicy>(old, vap("p", spec("v2", 5)));
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(errs[0].starts_with("spec.matchConditions[0].name: Invalid value: \"bad name!\""));
    let mspec = |ops: Value| {
        json!({"matchConstraints": {"resourceRules": [{"operations": ops, "apiGroups": [""],
                "apiVersions": ["v1"], "resources": ["pods"]}]},
            "matchConditions": [{"name": "", "expression": "true"}],
            "mutations": [{"patchType": "JSONPatch", "jsonPatch": {"expression": "[]"}}],
            "reinvocationPolicy": "IfNeeded"})
    };
    assert_eq!(
        update_errors::<MutatingAdmissionPolicy>(
            map("m", mspec(json!(["UPDATE"]))),
            map("m", mspec(json!(["UPDATE", "DELETE"])))
        ),
        [
            "spec.matchConstraints.resourceRules.operations: Unsupported value: \"DELETE\": supported values: \"*\", \"CONNECT\", \"CREATE\", \"UPDATE\""
        ]
    );
}

/// A policy whose status the type checker wrote: these warnings, and one condition.
fn checked(warnings: Value) -> Value {
    let mut p = vap(
        "p",
        json!({"matchConstraints": rules(),
        "validations": [{"expression": "object.spec.replicas <= 5"}]}),
    );
    p["metadata"]["resourceVersion"] = json!("1");
    p["status"] = json!({"observedGeneration": 1,
        "typeChecking": {"expressionWarnings": warnings},
        "conditions": [{"type": "Ready", "status": "True", "reason": "Checked", "message": "m",
            "lastTransitionTime": "2026-01-01T00:00:00Z"}]});
    p
}

fn vap_status_errors(old: Value, new: Value) -> Vec<String> {
    status_errors::<ValidatingAdmissionPolicy>(old, new).expect("a /status validator")
}

#[test]
fn status_warnings_need_text_and_a_path() {
    let old = checked(json!([]));
    let new = checked(json!([
        {"fieldRef": "spec.validations[0].expression", "warning": "no such overload"},
        {"fieldRef": "", "warning": ""},
        // Go trims Unicode's white space before it looks.
        {"fieldRef": " \t\u{a0}\u{3000}", "warning": "w"},
        {"fieldRef": "  spec.validations[0].expression  ", "warning": "w"},
    ]));
    assert_eq!(
        vap_status_errors(old, new),
        [
            "status.typeChecking.expressionWarnings[1].warning: Required value",
            "status.typeChecking.expressionWarnings[1].fieldRef: Required value",
            "status.typeChecking.expressionWarnings[2].fieldRef: Required value",
        ]
    );
}

/// Each path is read as client-go's JSONPath parser reads `{path}`, with its words.
#[test]
fn status_warnings_paths_parse_as_go_jsonpath() {
    let refs = [
        "spec.validations[0].expression\n.x",
        "spec.a,b",
        "spec.validations[0] #x",
        "x \u{ad}",
        "spec.validations[1:2:3:4]",
        "spec.validations[99999999999999999999]",
        "spec['a,b']",
        "spec.validations[?(@.a==)]",
        "spec.validations[?(@.a)x]",
        "spec \"\\x4\"",
        "spec....",
        "spec 1.2.3",
    ];
    let warnings: Vec<Value> = refs
        .iter()
        .map(|r| json!({"fieldRef": r, "warning": "w"}))
        .collect();
    let at =
        |i: usize| format!("status.typeChecking.expressionWarnings[{i}].fieldRef: Invalid value");
    assert_eq!(
        vap_status_errors(checked(json!([])), checked(json!(warnings))),
        [
            format!(
                "{}: \"spec.validations[0].expression\\n.x\": invalid JSONPath: unclosed action",
                at(0)
            ),
            format!(
                "{}: \"spec.a,b\": invalid JSONPath: unrecognized character in action: U+002C ','",
                at(1)
            ),
            format!(
                "{}: \"spec.validations[0] #x\": invalid JSONPath: unrecognized character in action: U+0023 '#'",
                at(2)
            ),
            format!(
                "{}: \"x \\u00ad\": invalid JSONPath: unrecognized character in action: U+00AD",
                at(3)
            ),
            format!(
                "{}: \"spec.validations[1:2:3:4]\": invalid JSONPath: invalid array index 1:2:3:4",
                at(4)
            ),
            format!(
                "{}: \"spec.validations[99999999999999999999]\": invalid JSONPath: array index 99999999999999999999 is not a number",
                at(5)
            ),
            format!(
                "{}: \"spec['a,b']\": invalid JSONPath: invalid array index 'a",
                at(6)
            ),
            format!(
                "{}: \"spec.validations[?(@.a==)]\": invalid JSONPath: unrecognized character in action: U+003D '='",
                at(7)
            ),
            format!(
                "{}: \"spec.validations[?(@.a)x]\": invalid JSONPath: unclosed array expect ]",
                at(8)
            ),
            format!(
                "{}: \"spec \\\"\\\\x4\\\"\": invalid JSONPath: unquote string \"\\x4\" error invalid syntax",
                at(9)
            ),
            format!(
                "{}: \"spec....\": invalid JSONPath: invalid multiple recursive descent",
                at(10)
            ),
            format!(
                "{}: \"spec 1.2.3\": invalid JSONPath: cannot parse number 1.2.3",
                at(11)
            ),
        ]
    );
    // What Go's parser takes, though no policy has such a field: nothing more is asked.
    let fine = [
        "spec.validations[?(@.reason=='Invalid')].messageExpression",
        "..expression",
        "spec['validations'][*]",
        "a}plain text{.b",
        "spec.a!b",
        "$.spec",
    ];
    let warnings: Vec<Value> = fine
        .iter()
        .map(|r| json!({"fieldRef": r, "warning": "w"}))
        .collect();
    assert!(vap_status_errors(checked(json!([])), checked(json!(warnings))).is_empty());
}

/// Go judges the new status alone: the old one's faults, and its metadata, are not its
/// concern (kube-apiserver's common checks cover the metadata).
#[test]
fn status_conditions_and_only_the_new_status() {
    let mut old = checked(json!([{"fieldRef": "spec!", "warning": ""}]));
    old["status"]["conditions"][0]["status"] = json!("Maybe");
    let new = checked(json!([{"fieldRef": "spec.validations[0].expression", "warning": "w"}]));
    assert!(vap_status_errors(old.clone(), new).is_empty());
    let mut new = checked(json!([]));
    new["status"]["conditions"][0]["status"] = json!("Maybe");
    new["status"]["conditions"][0]["reason"] = json!("");
    assert_eq!(
        vap_status_errors(old, new),
        [
            "status.conditions[0].status: Unsupported value: \"Maybe\": supported values: \"False\", \"True\", \"Unknown\"",
            "status.conditions[0].reason: Required value",
        ]
    );
}

/// A MutatingAdmissionPolicy has no `/status` in Go, so no validator for one.
#[test]
fn mutating_policies_have_no_status_validator() {
    let m = map("m", json!({}));
    assert!(status_errors::<MutatingAdmissionPolicy>(m.clone(), m).is_none());
}
