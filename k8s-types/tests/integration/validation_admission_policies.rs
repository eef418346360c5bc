//! ValidatingAdmissionPolicy and MutatingAdmissionPolicy, rule by rule, with Go's text
//! (`ValidateValidatingAdmissionPolicy`, `ValidateMutatingAdmissionPolicy`). The CEL
//! expressions are valid ones: Go compiles them, ours does not.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use k8s_types::admissionregistration::v1::{MutatingAdmissionPolicy, ValidatingAdmissionPolicy};
use serde_json::{Value, json};

use crate::validation::{errors, update_errors};

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
