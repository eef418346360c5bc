//! The admissionregistration.k8s.io group's resources (Go's
//! `pkg/registry/admissionregistration`): webhook configurations, admission policies and
//! their bindings print their tables ([`params`] has the cells of policies' parameters);
//! webhook configurations keep a generation of their webhooks; every kind's names ending
//! in `.static.k8s.io` are reserved ([`reserved_names`]).

pub mod mutatingadmissionpolicy;
pub mod mutatingadmissionpolicybinding;
pub mod mutatingwebhookconfiguration;
pub mod params;
pub mod reserved_names;
pub mod validatingadmissionpolicy;
pub mod validatingadmissionpolicybinding;
pub mod validatingwebhookconfiguration;

use std::sync::Arc;

use super::ResourceInfo;
use super::dependencies::Dependencies;
use super::printers::Printer;
use super::rest::{RestStorage, StandardStorage};
use super::strategy::GenericStrategy;
use reserved_names::AdmissionPolicyStrategy;
use validatingwebhookconfiguration::WebhookConfigurationStrategy;

/// The REST storage of admissionregistration.k8s.io resource `info` (Go's
/// `admissionregistration/rest/storage_apiserver.go`).
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    let table: &'static Printer = match info.resource.as_str() {
        "mutatingwebhookconfigurations" => &mutatingwebhookconfiguration::TABLE,
        "validatingwebhookconfigurations" => &validatingwebhookconfiguration::TABLE,
        "validatingadmissionpolicies" => &validatingadmissionpolicy::TABLE,
        "validatingadmissionpolicybindings" => &validatingadmissionpolicybinding::TABLE,
        "mutatingadmissionpolicies" => &mutatingadmissionpolicy::TABLE,
        "mutatingadmissionpolicybindings" => &mutatingadmissionpolicybinding::TABLE,
        _ => return deps.standard(info, GenericStrategy::default()),
    };
    let store = if info.resource.ends_with("webhookconfigurations") {
        deps.store(info, WebhookConfigurationStrategy)
    } else {
        deps.store(info, AdmissionPolicyStrategy)
    };
    Arc::new(StandardStorage::new(store).with_table_convertor(Arc::new(*table)))
}
