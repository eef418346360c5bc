//! Names ending in `.static.k8s.io`, which kube-apiserver reserves for admission
//! configurations loaded from manifest files at start-up (Go's
//! `pkg/apis/admissionregistration/validation/static_suffix.go`, used by every strategy
//! of `pkg/registry/admissionregistration`): with the ManifestBasedAdmissionControlConfig
//! feature (beta and on from Kubernetes 1.37) creating one through the API is refused;
//! without it (1.36) the create is warned about. An update of one is warned about
//! either way. [`AdmissionPolicyStrategy`] is the strategy of the policies and their
//! bindings; the webhook configurations' strategy uses the checks too.

use apimachinery::api::errors::StatusError;
use apimachinery::runtime::{Object, Scheme};
use apimachinery::util::validation::field::{Error, ErrorList, Path};

use crate::registry::ResourceInfo;
use crate::registry::strategy::{Strategy, Subresource};
use crate::registry::validation;

/// The reserved suffix (Go's `StaticConfigSuffix`).
pub const STATIC_CONFIG_SUFFIX: &str = ".static.k8s.io";

/// Whether the API refuses to create objects with reserved names (the feature
/// ManifestBasedAdmissionControlConfig: alpha and off in 1.36, beta and on in 1.37).
pub const RESERVED_ON_CREATE: bool = cfg!(feature = "v1_37");

fn name(obj: &dyn Object) -> &str {
    obj.meta().map_or("", |m| m.name())
}

fn reason() -> String {
    format!(
        "names ending with {STATIC_CONFIG_SUFFIX:?} are reserved for static manifest-based configurations and cannot be managed via the API"
    )
}

/// The causes of a create of `obj` (Go's `ValidateStaticSuffix` in the strategies'
/// `Validate`): its name reserved, when [`RESERVED_ON_CREATE`].
pub fn create_errors(obj: &dyn Object) -> ErrorList {
    let mut errs = ErrorList::default();
    let name = name(obj);
    if RESERVED_ON_CREATE && name.ends_with(STATIC_CONFIG_SUFFIX) {
        errs.push(Error::invalid(
            &Path::new("metadata").child("name"),
            name,
            reason(),
        ));
    }
    errs
}

/// Go's `WarningsForStaticSuffix`: the warning about `obj`'s reserved name.
pub fn warnings(obj: &dyn Object) -> Vec<String> {
    if name(obj).ends_with(STATIC_CONFIG_SUFFIX) {
        vec![format!("metadata.name: {}", reason())]
    } else {
        Vec::new()
    }
}

/// The strategies' `WarningsOnCreate` part: [`warnings`] unless the create is refused.
pub fn warnings_on_create(obj: &dyn Object) -> Vec<String> {
    if RESERVED_ON_CREATE {
        Vec::new()
    } else {
        warnings(obj)
    }
}

/// Go's strategies of ValidatingAdmissionPolicies, MutatingAdmissionPolicies and their
/// bindings, as far as kapi serve has them: the common shape (a new generation when
/// the spec changes), and the reserved names.
#[derive(Clone, Copy, Debug, Default)]
pub struct AdmissionPolicyStrategy;

impl Strategy for AdmissionPolicyStrategy {
    /// Go's admission policy and binding strategies update only at the
    /// `resourceVersion` an update names.
    fn allow_unconditional_update(&self) -> bool {
        false
    }

    fn validate(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        obj: &dyn Object,
        old: Option<&dyn Object>,
        subresource: Subresource,
    ) -> Result<(), StatusError> {
        validate(self, scheme, info, obj, old, subresource)
    }

    fn warnings_on_create(&self, obj: &dyn Object) -> Vec<String> {
        warnings_on_create(obj)
    }

    fn warnings_on_update(&self, obj: &dyn Object, _old: &dyn Object) -> Vec<String> {
        warnings(obj)
    }
}

/// `strategy`'s validation (the trait's default) with the reserved names refused on
/// create.
pub fn validate(
    strategy: &dyn Strategy,
    scheme: &Scheme,
    info: &ResourceInfo,
    obj: &dyn Object,
    old: Option<&dyn Object>,
    subresource: Subresource,
) -> Result<(), StatusError> {
    let names = strategy.names();
    match (old, subresource) {
        (None, Subresource::Main) => {
            validation::validate_create_with(scheme, info, names, obj, create_errors(obj))
        }
        (_, Subresource::Status) => validation::validate_status(scheme, info, names, obj, old),
        _ => validation::validate(scheme, info, names, obj, old),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::registry::core::pod::template::tests as template_tests;
    use crate::registry::from_value;

    /// Go's strategies: a reserved name is refused on create on 1.37 (warned about on
    /// 1.36), warned about on update; other names pass.
    #[test]
    fn reserved_names_are_refused_on_create_and_warned_about_on_update() {
        let scheme = template_tests::scheme();
        let info = template_tests::info(
            &scheme,
            "admissionregistration.k8s.io",
            "validatingadmissionpolicybindings",
        );
        let binding = |name: &str| {
            let v = json!({"apiVersion": "admissionregistration.k8s.io/v1",
                "kind": "ValidatingAdmissionPolicyBinding", "metadata": {"name": name},
                "spec": {"policyName": "p", "validationActions": ["Deny"]}});
            from_value(&scheme, &info.storage_gvk, v).unwrap()
        };
        let s = AdmissionPolicyStrategy;
        let (reserved, plain) = (binding("b.static.k8s.io"), binding("b"));
        let warning = vec![format!("metadata.name: {}", reason())];
        let created = s.validate(&scheme, &info, &*reserved, None, Subresource::Main);
        if RESERVED_ON_CREATE {
            let message = created.unwrap_err().to_string();
            assert!(message.contains("metadata.name: Invalid value: \"b.static.k8s.io\": names ending with \".static.k8s.io\" are reserved"), "{message}");
            assert!(s.warnings_on_create(&*reserved).is_empty());
        } else {
            created.unwrap();
            assert_eq!(s.warnings_on_create(&*reserved), warning);
        }
        s.validate(
            &scheme,
            &info,
            &*reserved,
            Some(&*reserved),
            Subresource::Main,
        )
        .unwrap();
        assert_eq!(s.warnings_on_update(&*reserved, &*reserved), warning);
        s.validate(&scheme, &info, &*plain, None, Subresource::Main)
            .unwrap();
        assert!(s.warnings_on_create(&*plain).is_empty());
        assert!(s.warnings_on_update(&*plain, &*plain).is_empty());
    }
}
