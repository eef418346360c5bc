//! The checks of a CRD written through the API that this server makes (part of Go's
//! `apis/apiextensions/validation`): the name is `<plural>.<group>`, every version has
//! a schema, and every schema is structural. A CRD failing them is refused with 422
//! Invalid, every cause in Go's words.

use apimachinery::api::errors::{self, StatusError};
use apimachinery::apis::meta::v1::StatusCause;
use apimachinery::schema::GroupKind;
use serde_json::Value;

use super::schema::structural_errors;

/// Every cause a v1 CRD's JSON fails.
pub fn definition_errors(crd: &Value) -> Vec<StatusCause> {
    let mut out = Vec::new();
    let str_at = |p: &str| crd.pointer(p).and_then(Value::as_str).unwrap_or_default();
    let (name, plural, group) = (
        str_at("/metadata/name"),
        str_at("/spec/names/plural"),
        str_at("/spec/group"),
    );
    if !name.is_empty() && !plural.is_empty() && name != format!("{plural}.{group}") {
        out.push(StatusCause {
            reason: "FieldValueInvalid".into(),
            message: format!("Invalid value: {name:?}: must be spec.names.plural+\".\"+spec.group"),
            field: "metadata.name".into(),
        });
    }
    let versions = crd
        .pointer("/spec/versions")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for (i, v) in versions.iter().enumerate() {
        let path = format!("spec.versions[{i}].schema.openAPIV3Schema");
        match v.pointer("/schema/openAPIV3Schema") {
            None => out.push(StatusCause {
                reason: "FieldValueRequired".into(),
                message: "Required value: schemas are required".into(),
                field: path,
            }),
            Some(schema) => out.extend(structural_errors(schema, &path)),
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
    fn a_crd_needs_its_name_and_structural_schemas() {
        let crd = json!({"metadata": {"name": "wrong.example.com"},
            "spec": {"group": "example.com", "names": {"plural": "widgets", "kind": "Widget"},
                     "versions": [{"name": "v1"}, {"name": "v2", "schema": {"openAPIV3Schema": {"type": "object"}}}]}});
        let got: Vec<String> = definition_errors(&crd)
            .iter()
            .map(|c| format!("{}: {}", c.field, c.message))
            .collect();
        assert_eq!(
            got,
            [
                "metadata.name: Invalid value: \"wrong.example.com\": must be spec.names.plural+\".\"+spec.group",
                "spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required",
            ]
        );
    }
}
