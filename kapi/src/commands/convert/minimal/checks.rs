//! What a new version refuses that the old one took, checked on the converted object
//! (Go's validation of the new version, for the kinds whose conversion can produce
//! something it refuses; the Scheme's validators do not cover these kinds). An object
//! refused is left for a person, with Go's reason.

use super::tree::Tree;

/// Why `obj` (converted to `api_version` `kind`) would be refused, if it would.
pub fn refused(api_version: &str, kind: &str, obj: &Tree) -> Option<String> {
    match (api_version, kind) {
        (
            "admissionregistration.k8s.io/v1",
            "ValidatingWebhookConfiguration" | "MutatingWebhookConfiguration",
        ) => webhooks(obj),
        ("apiextensions.k8s.io/v1", "CustomResourceDefinition") => custom_resource_definition(obj),
        _ => None,
    }
}

/// `admissionregistration.k8s.io/v1` takes only side effects `None` and `NoneOnDryRun`
/// (`v1beta1` defaulted them to `Unknown`).
fn webhooks(obj: &Tree) -> Option<String> {
    let Some(Tree::Array(hooks)) = obj.get("webhooks") else {
        return None;
    };
    hooks.iter().enumerate().find_map(|(i, hook)| {
        let effects = hook.str_at("sideEffects");
        (!matches!(effects, "None" | "NoneOnDryRun")).then(|| {
            format!(
                "webhooks[{i}].sideEffects: Unsupported value: {effects:?}: admissionregistration.k8s.io/v1 supports \"None\" and \"NoneOnDryRun\"; decide what the webhook does"
            )
        })
    })
}

/// `apiextensions.k8s.io/v1` wants a schema for every version and no
/// `preserveUnknownFields: true`.
fn custom_resource_definition(obj: &Tree) -> Option<String> {
    let spec = obj.get("spec")?;
    if matches!(spec.get("preserveUnknownFields"), Some(Tree::Bool(true))) {
        return Some(
            "spec.preserveUnknownFields: Invalid value: true: cannot set to true in apiextensions.k8s.io/v1; set x-kubernetes-preserve-unknown-fields: true in spec.versions[*].schema instead".to_owned(),
        );
    }
    let Some(Tree::Array(versions)) = spec.get("versions") else {
        return None;
    };
    versions.iter().enumerate().find_map(|(i, v)| {
        let schema = v.get("schema").and_then(|s| s.get("openAPIV3Schema"));
        schema.is_none().then(|| {
            format!(
                "spec.versions[{i}].schema.openAPIV3Schema: Required value: apiextensions.k8s.io/v1 needs a structural schema for each version (x-kubernetes-preserve-unknown-fields: true keeps today's behaviour)"
            )
        })
    })
}

#[cfg(test)]
mod tests {
    use super::super::tree::tests::tree;
    use super::*;

    #[test]
    fn v1_refuses_what_v1beta1_defaulted() {
        let hooks = tree(r#"{"webhooks":[{"sideEffects":"None"},{"sideEffects":"Unknown"}]}"#);
        let reason = refused(
            "admissionregistration.k8s.io/v1",
            "ValidatingWebhookConfiguration",
            &hooks,
        );
        assert!(reason.is_some_and(|r| r.starts_with("webhooks[1].sideEffects")));
        let crd = tree(
            r#"{"spec":{"versions":[{"name":"v1","schema":{"openAPIV3Schema":{"type":"object"}}},{"name":"v2"}]}}"#,
        );
        let reason = refused("apiextensions.k8s.io/v1", "CustomResourceDefinition", &crd);
        assert!(reason.is_some_and(|r| r.starts_with("spec.versions[1].schema")));
        assert_eq!(refused("apps/v1", "Deployment", &crd), None);
    }
}
