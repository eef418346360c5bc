//! The check of a CRD written through the API that the Scheme's validator (k8s-types'
//! port of Go's `apis/apiextensions/validation`) does not make yet: every version's
//! schema is structural (Go's `ValidateStructural`). A CRD failing it is refused with
//! 422 Invalid, every cause in Go's words. The name, the schemas' presence and the
//! rest of Go's rules are the Scheme's, which the strategy runs first.

use apimachinery::api::errors::{self, StatusError};
use apimachinery::apis::meta::v1::StatusCause;
use apimachinery::schema::GroupKind;
use serde_json::Value;

use super::schema::structural_errors;

/// Every cause a v1 CRD's JSON fails: the structural rules of each version's schema.
pub fn definition_errors(crd: &Value) -> Vec<StatusCause> {
    let mut out = Vec::new();
    let versions = crd
        .pointer("/spec/versions")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for (i, v) in versions.iter().enumerate() {
        if let Some(schema) = v.pointer("/schema/openAPIV3Schema") {
            let path = format!("spec.versions[{i}].schema.openAPIV3Schema");
            out.extend(structural_errors(schema, &path));
        }
    }
    out
}

/// A v1 CRD's JSON as Go's validation takes it: 422 Invalid with every cause.
pub fn check_definition(crd: &Value) -> Result<(), StatusError> {
    let causes = definition_errors(crd);
    if causes.is_empty() {
        return Ok(());
    }
    let name = crd
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or_default();
    Err(errors::new_invalid_from_causes(
        &GroupKind::new("apiextensions.k8s.io", "CustomResourceDefinition"),
        name,
        causes,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_crd_needs_structural_schemas() {
        let crd = json!({"metadata": {"name": "widgets.example.com"},
            "spec": {"group": "example.com", "names": {"plural": "widgets", "kind": "Widget"},
                     "versions": [{"name": "v1"},
                                  {"name": "v2", "schema": {"openAPIV3Schema": {"type": "object",
                                      "properties": {"spec": {"type": "array"}}}}}]}});
        let got: Vec<String> = definition_errors(&crd)
            .iter()
            .map(|c| format!("{}: {}", c.field, c.message))
            .collect();
        assert_eq!(
            got,
            [
                "spec.versions[1].schema.openAPIV3Schema.properties[spec].items: Required value: must be specified"
            ]
        );
    }
}
