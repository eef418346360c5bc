//! Controller names (kube-controller-manager's, from `cmd/kube-controller-manager/names`,
//! with the short aliases its `--controllers` flag also takes) and the registry of the
//! controllers this crate implements.
//!
//! `--controllers` takes kube-controller-manager's syntax: a comma-separated list where
//! `*` enables every controller that is on by default, `name` enables one and `-name`
//! disables one (the first mention of a name decides). Unlike kube-controller-manager,
//! whose default is `*`, nothing runs unless selected: an environment without
//! `--controllers` keeps envtest's semantics (objects stored and served, nothing acting
//! on them).
//!
//! Adding a controller is adding its module and setting its entry's `start` below.

use crate::{ControllerContext, Error};

/// What starts a controller: registers it on the context's manager.
pub(crate) type Constructor = fn(&ControllerContext<'_>) -> Result<(), Error>;

/// A controller kube-controller-manager knows (Go's `ControllerDescriptor`).
#[derive(Clone, Copy)]
pub struct ControllerDescriptor {
    /// The canonical name, such as `garbage-collector-controller`.
    pub name: &'static str,
    /// The older short names `--controllers` also accepts, such as `garbagecollector`.
    pub aliases: &'static [&'static str],
    /// Whether `*` leaves it off (Go's `isDisabledByDefault`).
    pub disabled_by_default: bool,
    /// How this crate starts it; `None` for Go's controllers not implemented here.
    pub(crate) start: Option<Constructor>,
}

impl std::fmt::Debug for ControllerDescriptor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ControllerDescriptor")
            .field("name", &self.name)
            .field("aliases", &self.aliases)
            .field("disabled_by_default", &self.disabled_by_default)
            .field("implemented", &self.is_implemented())
            .finish()
    }
}

impl ControllerDescriptor {
    /// Whether this crate runs it.
    pub fn is_implemented(&self) -> bool {
        self.start.is_some()
    }
}

/// `garbage-collector-controller` (alias `garbagecollector`).
pub const GARBAGE_COLLECTOR_CONTROLLER: &str = "garbage-collector-controller";
/// `namespace-controller` (alias `namespace`).
pub const NAMESPACE_CONTROLLER: &str = "namespace-controller";
/// `deployment-controller` (alias `deployment`).
pub const DEPLOYMENT_CONTROLLER: &str = "deployment-controller";
/// `job-controller` (alias `job`).
pub const JOB_CONTROLLER: &str = "job-controller";
/// `replicaset-controller` (alias `replicaset`).
pub const REPLICA_SET_CONTROLLER: &str = "replicaset-controller";
/// `serviceaccount-controller` (alias `serviceaccount`).
pub const SERVICE_ACCOUNT_CONTROLLER: &str = "serviceaccount-controller";
/// `root-ca-certificate-publisher-controller` (alias `root-ca-cert-publisher`).
pub const ROOT_CA_CERTIFICATE_PUBLISHER_CONTROLLER: &str =
    "root-ca-certificate-publisher-controller";

const fn go(
    name: &'static str,
    aliases: &'static [&'static str],
    disabled_by_default: bool,
) -> ControllerDescriptor {
    ControllerDescriptor {
        name,
        aliases,
        disabled_by_default,
        start: None,
    }
}

const fn ours(
    name: &'static str,
    aliases: &'static [&'static str],
    start: Constructor,
) -> ControllerDescriptor {
    ControllerDescriptor {
        name,
        aliases,
        disabled_by_default: false,
        start: Some(start),
    }
}

/// Every controller kube-controller-manager 1.36 registers (cloud-provider ones
/// included, which it skips), sorted by name; those this crate runs have a `start`.
#[rustfmt::skip]
pub const CONTROLLERS: &[ControllerDescriptor] = &[
    go("bootstrap-signer-controller", &["bootstrapsigner"], true),
    go("certificatesigningrequest-approving-controller", &["csrapproving"], false),
    go("certificatesigningrequest-cleaner-controller", &["csrcleaner"], false),
    go("certificatesigningrequest-signing-controller", &["csrsigning"], false),
    go("cloud-node-lifecycle-controller", &["cloud-node-lifecycle"], false),
    go("clusterrole-aggregation-controller", &["clusterrole-aggregation"], false),
    go("cronjob-controller", &["cronjob"], false),
    go("daemonset-controller", &["daemonset"], false),
    ours(DEPLOYMENT_CONTROLLER, &["deployment"], crate::deployment::start),
    go("device-taint-eviction-controller", &[], false),
    go("disruption-controller", &["disruption"], false),
    go("endpoints-controller", &["endpoint"], false),
    go("endpointslice-controller", &["endpointslice"], false),
    go("endpointslice-mirroring-controller", &["endpointslicemirroring"], false),
    go("ephemeral-volume-controller", &["ephemeral-volume"], false),
    ours(GARBAGE_COLLECTOR_CONTROLLER, &["garbagecollector"], crate::garbagecollector::start),
    go("horizontal-pod-autoscaler-controller", &["horizontalpodautoscaling"], false),
    ours(JOB_CONTROLLER, &["job"], crate::job::start),
    go("kube-apiserver-serving-clustertrustbundle-publisher-controller", &[], false),
    go("legacy-serviceaccount-token-cleaner-controller", &["legacy-service-account-token-cleaner"], false),
    ours(NAMESPACE_CONTROLLER, &["namespace"], crate::namespace::start),
    go("node-ipam-controller", &["nodeipam"], false),
    go("node-lifecycle-controller", &["nodelifecycle"], false),
    go("node-route-controller", &["route"], false),
    go("persistentvolume-attach-detach-controller", &["attachdetach"], false),
    go("persistentvolume-binder-controller", &["persistentvolume-binder"], false),
    go("persistentvolume-expander-controller", &["persistentvolume-expander"], false),
    go("persistentvolume-protection-controller", &["pv-protection"], false),
    go("persistentvolumeclaim-protection-controller", &["pvc-protection"], false),
    go("pod-garbage-collector-controller", &["podgc"], false),
    go("podcertificaterequest-cleaner-controller", &[], false),
    go("podgroup-protection-controller", &[], false),
    ours(REPLICA_SET_CONTROLLER, &["replicaset"], crate::replicaset::start),
    go("replicationcontroller-controller", &["replicationcontroller"], false),
    go("resourceclaim-controller", &["resource-claim-controller"], false),
    go("resourcepoolstatusrequest-controller", &[], false),
    go("resourcequota-controller", &["resourcequota"], false),
    ours(ROOT_CA_CERTIFICATE_PUBLISHER_CONTROLLER, &["root-ca-cert-publisher"], crate::rootcacertpublisher::start),
    go("selinux-warning-controller", &[], true),
    go("service-cidr-controller", &[], false),
    go("service-lb-controller", &["service"], false),
    ours(SERVICE_ACCOUNT_CONTROLLER, &["serviceaccount"], crate::serviceaccount::start),
    go("serviceaccount-token-controller", &["serviceaccount-token"], false),
    go("statefulset-controller", &["statefulset"], false),
    go("storage-version-migrator-controller", &["svm"], false),
    go("storageversion-garbage-collector-controller", &["storage-version-gc"], false),
    go("taint-eviction-controller", &[], false),
    go("token-cleaner-controller", &["tokencleaner"], true),
    go("ttl-after-finished-controller", &["ttl-after-finished"], false),
    go("ttl-controller", &["ttl"], false),
    go("validatingadmissionpolicy-status-controller", &[], false),
    go("volumeattributesclass-protection-controller", &[], false),
];

/// The controller named `name` or one of its aliases.
pub fn lookup(name: &str) -> Option<&'static ControllerDescriptor> {
    CONTROLLERS
        .iter()
        .find(|c| c.name == name || c.aliases.contains(&name))
}

/// A parsed `--controllers` value: its entries with aliases replaced by canonical names
/// (Go's `ApplyTo`), in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ControllerSelection {
    entries: Vec<String>,
}

impl ControllerSelection {
    /// Parses `--controllers`' comma-separated value; every name (with or without `-`)
    /// must be one kube-controller-manager knows, by its name or an alias (Go's
    /// `Validate`). Empty entries are ignored; the empty value selects nothing.
    pub fn parse(value: &str) -> Result<Self, Error> {
        let mut entries = Vec::new();
        for entry in value.split(',').map(str::trim).filter(|e| !e.is_empty()) {
            if entry == "*" {
                entries.push(entry.to_owned());
                continue;
            }
            let (minus, name) = match entry.strip_prefix('-') {
                Some(name) => ("-", name),
                None => ("", entry),
            };
            let known = lookup(name).ok_or_else(|| Error::UnknownController(name.to_owned()))?;
            entries.push(format!("{minus}{}", known.name));
        }
        Ok(Self { entries })
    }

    /// Whether `controller` runs (Go's `IsControllerEnabled`): named → on, `-named` →
    /// off, the first mention deciding; otherwise on under `*` unless disabled by
    /// default; off without `*`.
    pub fn is_enabled(&self, controller: &ControllerDescriptor) -> bool {
        let mut star = false;
        for entry in &self.entries {
            if *entry == controller.name {
                return true;
            }
            if entry.strip_prefix('-') == Some(controller.name) {
                return false;
            }
            star |= entry == "*";
        }
        star && !controller.disabled_by_default
    }

    /// The controllers to start: those enabled that this crate implements. A controller
    /// named explicitly that this crate does not implement is an error; one `*` would
    /// enable is left out (kube-controller-manager's other controllers do not run here).
    pub fn controllers(&self) -> Result<Vec<&'static ControllerDescriptor>, Error> {
        if let Some(named) = self
            .entries
            .iter()
            .find_map(|e| lookup(e).filter(|c| !c.is_implemented()))
        {
            return Err(Error::NotImplemented(named.name.to_owned()));
        }
        Ok(CONTROLLERS
            .iter()
            .filter(|c| c.is_implemented() && self.is_enabled(c))
            .collect())
    }

    /// This selection with `name` (a canonical name) on unless it already says
    /// otherwise: an earlier `-name` keeps it off (the first mention decides), as a
    /// default the user can turn down.
    pub fn or_enabled(mut self, name: &str) -> Self {
        self.entries.push(name.to_owned());
        self
    }

    /// Whether nothing is selected.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl std::str::FromStr for ControllerSelection {
    type Err = Error;
    fn from_str(value: &str) -> Result<Self, Error> {
        Self::parse(value)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn names(value: &str) -> Vec<&'static str> {
        let selection = ControllerSelection::parse(value).unwrap();
        selection
            .controllers()
            .unwrap()
            .iter()
            .map(|c| c.name)
            .collect()
    }

    #[test]
    fn registry_is_sorted_with_unique_names_and_aliases() {
        let mut seen = std::collections::BTreeSet::new();
        for pair in CONTROLLERS.windows(2) {
            assert!(
                pair[0].name < pair[1].name,
                "{} before {}",
                pair[0].name,
                pair[1].name
            );
        }
        for c in CONTROLLERS {
            assert!(seen.insert(c.name), "{}", c.name);
            for alias in c.aliases {
                assert!(seen.insert(alias), "{alias}");
            }
        }
    }

    #[test]
    fn nothing_runs_unless_selected() {
        assert!(names("").is_empty());
        assert!(ControllerSelection::parse("").unwrap().is_empty());
        let sa = lookup("serviceaccount").unwrap();
        let defaulted = |flag: &str| {
            ControllerSelection::parse(flag)
                .unwrap()
                .or_enabled(SERVICE_ACCOUNT_CONTROLLER)
                .is_enabled(sa)
        };
        assert!(defaulted(""));
        assert!(defaulted("namespace"));
        assert!(!defaulted("-serviceaccount"));
        assert!(!defaulted("*,-serviceaccount-controller"));
    }

    #[test]
    fn star_enables_what_is_on_by_default_and_minus_disables() {
        assert!(names("*").contains(&SERVICE_ACCOUNT_CONTROLLER));
        assert!(!names("*,-serviceaccount").contains(&SERVICE_ACCOUNT_CONTROLLER));
        // The first mention decides, as Go's loop does.
        assert!(names("serviceaccount,-serviceaccount").contains(&SERVICE_ACCOUNT_CONTROLLER));
        assert!(!names("-serviceaccount-controller,*").contains(&SERVICE_ACCOUNT_CONTROLLER));
        let token_cleaner = lookup("tokencleaner").unwrap();
        let star = ControllerSelection::parse("*").unwrap();
        assert!(!star.is_enabled(token_cleaner));
        let named = ControllerSelection::parse("*,tokencleaner").unwrap();
        assert!(named.is_enabled(token_cleaner));
    }

    #[test]
    fn aliases_become_canonical_names() {
        let s = ControllerSelection::parse("-garbagecollector, serviceaccount").unwrap();
        assert_eq!(
            s.entries,
            ["-garbage-collector-controller", "serviceaccount-controller"]
        );
    }

    #[test]
    fn unknown_names_are_refused_as_go_refuses_them() {
        let e = ControllerSelection::parse("*,-nosuch").unwrap_err();
        assert_eq!(
            e.to_string(),
            "\"nosuch\" is not in the list of known controllers"
        );
    }

    #[test]
    fn a_go_controller_named_but_not_implemented_is_an_error_disabling_it_is_not() {
        let s = ControllerSelection::parse("cronjob").unwrap();
        assert!(
            matches!(s.controllers(), Err(Error::NotImplemented(n)) if n == "cronjob-controller")
        );
        assert!(names("*,-cronjob").contains(&SERVICE_ACCOUNT_CONTROLLER));
    }
}
