//! The admission plugins by name, as kube-apiserver knows them (Go's
//! `pkg/kubeapiserver/options/plugins.go`: every plugin in its fixed order and the set
//! on by default) and the selection its `--enable-admission-plugins` and
//! `--disable-admission-plugins` flags make of them (Go's `AdmissionOptions` in
//! `k8s.io/apiserver/pkg/server/options/admission.go`).
//!
//! The order of the plugins a server runs is always this fixed one, whatever order the
//! flags name them in. A name kube-apiserver does not know is refused with Go's error.
//! Of the plugins Go has, this server implements [`IMPLEMENTED`]; the others on by
//! default in Go (such as `LimitRanger`, `ResourceQuota` and `PodSecurity`) do not run
//! here, and one off by default that is not implemented is refused when enabled, so
//! that a flag never asks for what the server does not do.

use std::fmt;

/// Go's `lifecycle.PluginName`.
pub const NAMESPACE_LIFECYCLE: &str = "NamespaceLifecycle";
/// Go's `serviceaccount.PluginName`.
pub const SERVICE_ACCOUNT: &str = "ServiceAccount";
/// Go's `podpriority.PluginName`.
pub const PRIORITY: &str = "Priority";
/// Go's `defaulttolerationseconds.PluginName`.
pub const DEFAULT_TOLERATION_SECONDS: &str = "DefaultTolerationSeconds";
/// Go's `storageobjectinuseprotection.PluginName`.
pub const STORAGE_OBJECT_IN_USE_PROTECTION: &str = "StorageObjectInUseProtection";
/// Go's `defaultingressclass.PluginName`.
pub const DEFAULT_INGRESS_CLASS: &str = "DefaultIngressClass";
/// Go's `nodetaint.PluginName`.
pub const TAINT_NODES_BY_CONDITION: &str = "TaintNodesByCondition";
/// Go's `subjectrestriction.PluginName`.
pub const CERTIFICATE_SUBJECT_RESTRICTION: &str = "CertificateSubjectRestriction";
/// Go's `mutatingwebhook.PluginName`: the dynamic mutating webhooks.
pub const MUTATING_ADMISSION_WEBHOOK: &str = "MutatingAdmissionWebhook";
/// Go's `validatingwebhook.PluginName`: the dynamic validating webhooks.
pub const VALIDATING_ADMISSION_WEBHOOK: &str = "ValidatingAdmissionWebhook";

/// The plugins this server implements.
pub const IMPLEMENTED: [&str; 10] = [
    NAMESPACE_LIFECYCLE,
    SERVICE_ACCOUNT,
    PRIORITY,
    DEFAULT_TOLERATION_SECONDS,
    STORAGE_OBJECT_IN_USE_PROTECTION,
    DEFAULT_INGRESS_CLASS,
    TAINT_NODES_BY_CONDITION,
    CERTIFICATE_SUBJECT_RESTRICTION,
    MUTATING_ADMISSION_WEBHOOK,
    VALIDATING_ADMISSION_WEBHOOK,
];

/// Every plugin kube-apiserver registers, in the order they run (Go's
/// `AllOrderedPlugins`; 1.36 has two that 1.37 dropped).
pub const ALL_ORDERED_PLUGINS: &[&str] = &[
    "AlwaysAdmit",
    "NamespaceAutoProvision",
    NAMESPACE_LIFECYCLE,
    "NamespaceExists",
    "LimitPodHardAntiAffinityTopology",
    "LimitRanger",
    SERVICE_ACCOUNT,
    "NodeRestriction",
    TAINT_NODES_BY_CONDITION,
    "AlwaysPullImages",
    "ImagePolicyWebhook",
    "PodSecurity",
    "PodNodeSelector",
    PRIORITY,
    DEFAULT_TOLERATION_SECONDS,
    "PodTolerationRestriction",
    "EventRateLimit",
    "ExtendedResourceToleration",
    "DefaultStorageClass",
    STORAGE_OBJECT_IN_USE_PROTECTION,
    "PodGroupProtection",
    "OwnerReferencesPermissionEnforcement",
    "PersistentVolumeClaimResize",
    "RuntimeClass",
    "CertificateApproval",
    "CertificateSigning",
    "ClusterTrustBundleAttest",
    CERTIFICATE_SUBJECT_RESTRICTION,
    DEFAULT_INGRESS_CLASS,
    "DenyServiceExternalIPs",
    "PodTopologyLabels",
    #[cfg(feature = "v1_36")]
    "PodGroupWorkloadExists",
    "NodeDeclaredFeatureValidator",
    #[cfg(feature = "v1_36")]
    "JobValidation",
    "PodResizeValidator",
    "MutatingAdmissionPolicy",
    MUTATING_ADMISSION_WEBHOOK,
    "ValidatingAdmissionPolicy",
    VALIDATING_ADMISSION_WEBHOOK,
    "ResourceQuota",
    "AlwaysDeny",
];

/// The plugins on unless disabled (Go's complement of `DefaultOffAdmissionPlugins`).
pub const DEFAULT_ON_PLUGINS: &[&str] = &[
    NAMESPACE_LIFECYCLE,
    "LimitRanger",
    SERVICE_ACCOUNT,
    "DefaultStorageClass",
    "PersistentVolumeClaimResize",
    DEFAULT_TOLERATION_SECONDS,
    MUTATING_ADMISSION_WEBHOOK,
    VALIDATING_ADMISSION_WEBHOOK,
    "ResourceQuota",
    STORAGE_OBJECT_IN_USE_PROTECTION,
    "PodGroupProtection",
    #[cfg(feature = "v1_36")]
    "PodGroupWorkloadExists",
    PRIORITY,
    TAINT_NODES_BY_CONDITION,
    "RuntimeClass",
    "CertificateApproval",
    "CertificateSigning",
    "ClusterTrustBundleAttest",
    CERTIFICATE_SUBJECT_RESTRICTION,
    DEFAULT_INGRESS_CLASS,
    "PodSecurity",
    "PodTopologyLabels",
    #[cfg(feature = "v1_36")]
    "JobValidation",
    "MutatingAdmissionPolicy",
    "ValidatingAdmissionPolicy",
    "NodeDeclaredFeatureValidator",
    "PodResizeValidator",
];

/// Which plugins run: Go's default-on ones, plus those enabled, less those disabled
/// (`--enable-admission-plugins` and `--disable-admission-plugins`; each a list of
/// names, their order of no account).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PluginSelection {
    enable: Vec<String>,
    disable: Vec<String>,
}

/// What is wrong with a [`PluginSelection`]: Go's errors, in Go's order; shown as Go's
/// aggregate shows them (one alone, several in brackets).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PluginSelectionError(pub Vec<String>);

impl fmt::Display for PluginSelectionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.as_slice() {
            [one] => f.write_str(one),
            many => write!(f, "[{}]", many.join(", ")),
        }
    }
}

impl std::error::Error for PluginSelectionError {}

impl PluginSelection {
    /// Go's defaults: [`DEFAULT_ON_PLUGINS`].
    pub fn new() -> Self {
        PluginSelection::default()
    }

    /// Enables `names` besides the default ones (`--enable-admission-plugins`).
    pub fn enable<S: Into<String>>(mut self, names: impl IntoIterator<Item = S>) -> Self {
        self.enable.extend(names.into_iter().map(Into::into));
        self
    }

    /// Disables `names` among the default ones (`--disable-admission-plugins`).
    pub fn disable<S: Into<String>>(mut self, names: impl IntoIterator<Item = S>) -> Self {
        self.disable.extend(names.into_iter().map(Into::into));
        self
    }

    /// Go's checks: every name is one kube-apiserver registers, and none is both
    /// enabled and disabled; then this server's: a plugin enabled that is off by default
    /// is one it implements.
    pub fn validate(&self) -> Result<(), PluginSelectionError> {
        let known = |name: &String| ALL_ORDERED_PLUGINS.contains(&name.as_str());
        let mut errs: Vec<String> = Vec::new();
        for (flag, names) in [
            ("enable-admission-plugins", &self.enable),
            ("disable-admission-plugins", &self.disable),
        ] {
            errs.extend(
                names
                    .iter()
                    .filter(|n| !known(n))
                    .map(|n| format!("{flag} plugin {n:?} is unknown")),
            );
        }
        let mut both: Vec<&String> = self
            .enable
            .iter()
            .filter(|n| self.disable.contains(n))
            .collect();
        both.sort();
        both.dedup();
        if !both.is_empty() {
            let names: Vec<&str> = both.iter().map(|n| n.as_str()).collect();
            errs.push(format!(
                "[{}] in enable-admission-plugins and disable-admission-plugins overlapped",
                names.join(" ")
            ));
        }
        if errs.is_empty() {
            errs.extend(
                self.enable
                    .iter()
                    .filter(|n| {
                        !DEFAULT_ON_PLUGINS.contains(&n.as_str())
                            && !IMPLEMENTED.contains(&n.as_str())
                    })
                    .map(|n| {
                        format!(
                            "enable-admission-plugins plugin {n:?} is not implemented by this server (it implements {})",
                            IMPLEMENTED.join(", ")
                        )
                    }),
            );
        }
        if errs.is_empty() {
            Ok(())
        } else {
            Err(PluginSelectionError(errs))
        }
    }

    /// Whether `name` is on (Go's `enabledPluginNames`: enabling wins over a default
    /// of off and over disabling).
    pub fn is_enabled(&self, name: &str) -> bool {
        let listed = |names: &[String]| names.iter().any(|n| n == name);
        listed(&self.enable) || (DEFAULT_ON_PLUGINS.contains(&name) && !listed(&self.disable))
    }

    /// The plugins on, in the order they run.
    pub fn enabled(&self) -> Vec<&'static str> {
        ALL_ORDERED_PLUGINS
            .iter()
            .copied()
            .filter(|name| self.is_enabled(name))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_on_plugin_and_every_implemented_one_is_registered() {
        for name in DEFAULT_ON_PLUGINS.iter().chain(IMPLEMENTED.iter()) {
            assert!(ALL_ORDERED_PLUGINS.contains(name), "{name}");
        }
    }

    #[test]
    fn the_defaults_run_in_gos_order() {
        let enabled = PluginSelection::new().enabled();
        assert_eq!(enabled.first(), Some(&NAMESPACE_LIFECYCLE));
        assert_eq!(enabled.last(), Some(&"ResourceQuota"));
        let at = |n| enabled.iter().position(|e| *e == n);
        assert!(at(SERVICE_ACCOUNT) < at(PRIORITY));
        assert!(at(DEFAULT_INGRESS_CLASS) < at(MUTATING_ADMISSION_WEBHOOK));
        assert!(!enabled.contains(&"AlwaysPullImages"));
    }

    #[test]
    fn disabling_and_enabling_change_the_defaults() {
        let selection = PluginSelection::new()
            .disable([SERVICE_ACCOUNT])
            .enable(["AlwaysAdmit"]);
        assert!(!selection.is_enabled(SERVICE_ACCOUNT));
        assert!(selection.is_enabled("AlwaysAdmit"));
        assert_eq!(selection.enabled().first(), Some(&"AlwaysAdmit"));
    }

    #[test]
    fn unknown_and_overlapping_names_are_gos_errors() {
        let err = PluginSelection::new()
            .enable(["Bogus"])
            .validate()
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            r#"enable-admission-plugins plugin "Bogus" is unknown"#
        );
        let err = PluginSelection::new()
            .enable(["Priority", "Nope"])
            .disable(["Priority", "Gone"])
            .validate()
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            r#"[enable-admission-plugins plugin "Nope" is unknown, disable-admission-plugins plugin "Gone" is unknown, [Priority] in enable-admission-plugins and disable-admission-plugins overlapped]"#
        );
        assert!(
            PluginSelection::new()
                .disable(["LimitRanger"])
                .validate()
                .is_ok()
        );
    }

    #[test]
    fn an_unimplemented_plugin_off_by_default_is_refused_when_enabled() {
        let err = PluginSelection::new()
            .enable(["AlwaysDeny"])
            .validate()
            .unwrap_err();
        assert!(err.to_string().contains("not implemented"), "{err}");
    }
}
