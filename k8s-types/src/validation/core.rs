//! The core group's validation (Go's `pkg/apis/core/validation`): Pod and PodSpec
//! (containers, init and ephemeral containers, volumes and their sources, ports,
//! env/envFrom, probes and lifecycle handlers, resources, security contexts,
//! restart and DNS policies, hostname/subdomain, tolerations, node affinity), Service,
//! ConfigMap, Secret, Namespace and ServiceAccount.

use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
use apimachinery::util::validation::{is_valid_port_name, is_valid_port_num};

use super::invalid_each;
use crate::value::IntOrString;

mod config;
mod container_statuses;
mod containers;
mod downward_api;
mod endpoints;
pub(super) mod event;
#[cfg(feature = "v1_37")]
mod eviction_responders;
mod node;
mod persistent_volume;
mod persistent_volume_claim;
mod pod;
mod pod_annotations;
mod pod_ephemeral;
mod pod_qos;
mod pod_resize;
mod pod_status;
mod pod_template;
mod pod_update;
mod probes;
mod pv_sources;
mod quota;
mod replication_controller;
mod resources;
mod service;
mod service_ips;
pub(crate) use service_ips::STRICT_IP_CIDR;
#[cfg(feature = "v1_37")]
mod volume_health;
mod volume_projections;
mod volume_sources;
mod volumes;
pub use config::*;
pub use endpoints::*;
pub use event::{
    EventVersion, EventView, validate_event, validate_event_create, validate_event_update,
    validate_event_view_update,
};
#[cfg(all(feature = "v1_37", feature = "extensions", feature = "scheme"))]
pub(crate) use eviction_responders::drop_eviction_responder_errors;
#[cfg(feature = "v1_37")]
pub(crate) use eviction_responders::validate_eviction_responders;
pub use node::*;
pub use persistent_volume::*;
pub use persistent_volume_claim::*;
pub use pod::*;
pub use pod_ephemeral::validate_pod_ephemeral_containers_update;
pub use pod_resize::validate_pod_resize;
pub use pod_status::validate_pod_status_update;
pub use pod_template::*;
pub use pod_update::validate_pod_update;
pub use pv_sources::validate_csi_driver_name;
pub use quota::*;
pub use replication_controller::*;
pub use resources::validate_resource_requirements;
pub use service::*;

/// Go's `MaxSecretSize` (also a ConfigMap's limit): 1 MiB.
pub const MAX_SECRET_SIZE: usize = 1024 * 1024;

const SUPPORTED_PORT_PROTOCOLS: &[&str] = &["SCTP", "TCP", "UDP"];
const PULL_POLICIES: &[&str] = &["Always", "IfNotPresent", "Never"];
const RESTART_POLICIES: &[&str] = &["Always", "OnFailure", "Never"];
const DNS_POLICIES: &[&str] = &["ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"];
const TERMINATION_MESSAGE_POLICIES: &[&str] = &["File", "FallbackToLogsOnError"];
const MOUNT_PROPAGATIONS: &[&str] = &["Bidirectional", "HostToContainer", "None"];
const FILE_MODE_ERROR_MSG: &str = "must be a number between 0 and 0777 (octal), both inclusive";

/// Go's `ValidatePortNumOrName`: a port number 1–65535 or an IANA port name.
pub(super) fn validate_port_num_or_name(port: &IntOrString, path: &Path) -> ErrorList {
    let mut errs = ErrorList::default();
    match port {
        IntOrString::Int(n) => {
            for msg in is_valid_port_num(i64::from(*n)) {
                errs.push(Error::invalid(path, *n, msg));
            }
        }
        IntOrString::String(s) => invalid_each(&mut errs, path, s, is_valid_port_name(s)),
    }
    errs
}

fn protocol(value: &str, path: &Path, errs: &mut ErrorList) {
    if value.is_empty() {
        errs.push(Error::required(path, ""));
    } else if !SUPPORTED_PORT_PROTOCOLS.contains(&value) {
        errs.push(Error::not_supported(
            path,
            BadValue::json_string(value),
            SUPPORTED_PORT_PROTOCOLS,
        ));
    }
}

/// One of an enumeration, required (Go's `switch` with a `case ""` that is Required).
fn one_of(value: &str, allowed: &[&str], path: &Path, errs: &mut ErrorList) {
    if value.is_empty() {
        errs.push(Error::required(path, ""));
    } else if !allowed.contains(&value) {
        // Go's enumerations are named string types, printed by json.Marshal.
        errs.push(Error::not_supported(
            path,
            BadValue::json_string(value),
            allowed,
        ));
    }
}
