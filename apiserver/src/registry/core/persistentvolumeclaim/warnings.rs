//! Go's warnings for claims (`pkg/api/persistentvolumeclaim/util.go`:
//! `GetWarningsForPersistentVolumeClaim`, `GetWarningsForPersistentVolumeClaimSpec`):
//! the deprecated beta storage-class annotation, and storage sizes that are not a whole
//! number of bytes. Pods' ephemeral volume claim templates and StatefulSets' volume
//! claim templates are checked with the same spec warnings.

use apimachinery::api::resource::Quantity;
use apimachinery::util::validation::field::go_quote;
use serde_json::Value;

/// Go's `BetaStorageClassAnnotation`.
const BETA_STORAGE_CLASS: &str = "volume.beta.kubernetes.io/storage-class";

/// Go's `deprecatedStorageClassAnnotationsMsg`.
const DEPRECATED_STORAGE_CLASS: &str =
    r#"deprecated since v1.8; use "storageClassName" attribute instead"#;

/// The quantity a JSON value holds (a string, or a number as Go's decoder also takes);
/// `None` when absent or unreadable (validation refuses those).
pub fn quantity(value: Option<&Value>) -> Option<Quantity> {
    match value? {
        Value::String(s) => Quantity::parse_quantity(s.trim()).ok(),
        Value::Number(n) => Quantity::parse_quantity(&n.to_string()).ok(),
        _ => None,
    }
}

/// Go's warning for a byte count (memory, storage) that is not whole: the quantity
/// `value` at `path` when its thousandths are not a multiple of 1000.
pub fn fractional_bytes(path: &str, value: Option<&Value>) -> Option<String> {
    let q = quantity(value)?;
    (q.milli_value() % 1000 != 0).then(|| {
        format!(
            "{path}: fractional byte value {} is invalid, must be an integer",
            go_quote(&q.to_string())
        )
    })
}

/// Go's `GetWarningsForPersistentVolumeClaimSpec`: the claim spec `spec` (at `path`)
/// asking for, or limited to, a fractional number of bytes.
pub fn warnings_for_claim_spec(path: &str, spec: &Value) -> Vec<String> {
    ["requests", "limits"]
        .into_iter()
        .filter_map(|kind| {
            fractional_bytes(
                &format!("{path}.resources.{kind}[storage]"),
                spec.pointer(&format!("/resources/{kind}/storage")),
            )
        })
        .collect()
}

/// Go's `GetWarningsForPersistentVolumeClaim` of the JSON claim `claim`.
pub fn warnings_for_claim(claim: &Value) -> Vec<String> {
    let mut warnings = Vec::new();
    let annotations = claim.pointer("/metadata/annotations");
    if annotations
        .and_then(|a| a.get(BETA_STORAGE_CLASS))
        .is_some()
    {
        warnings.push(format!(
            "metadata.annotations[{BETA_STORAGE_CLASS}]: {DEPRECATED_STORAGE_CLASS}"
        ));
    }
    let empty = Value::Null;
    warnings.extend(warnings_for_claim_spec(
        "spec",
        claim.get("spec").unwrap_or(&empty),
    ));
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Go's `TestWarnings` cases of `pkg/api/persistentvolumeclaim`.
    #[test]
    fn claims_warn_of_the_beta_annotation_and_fractional_sizes() {
        assert!(warnings_for_claim(&json!({"spec": {}})).is_empty());
        assert_eq!(
            warnings_for_claim(&json!({"metadata": {"annotations": {BETA_STORAGE_CLASS: ""}}})),
            [
                r#"metadata.annotations[volume.beta.kubernetes.io/storage-class]: deprecated since v1.8; use "storageClassName" attribute instead"#
            ]
        );
        assert_eq!(
            warnings_for_claim(&json!({"spec": {"resources": {
                "requests": {"storage": "200Mi"}, "limits": {"storage": "200Mi"}}}})),
            Vec::<String>::new()
        );
        assert_eq!(
            warnings_for_claim(&json!({"spec": {"resources": {
                "requests": {"storage": "200Mi"}, "limits": {"storage": "200.5"}}}})),
            [
                r#"spec.resources.limits[storage]: fractional byte value "200500m" is invalid, must be an integer"#
            ]
        );
        assert_eq!(
            warnings_for_claim(&json!({"spec": {"resources": {
                "requests": {"storage": "1.5"}}}})),
            [
                r#"spec.resources.requests[storage]: fractional byte value "1500m" is invalid, must be an integer"#
            ]
        );
    }
}
