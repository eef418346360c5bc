//! `discovery.k8s.io/v1beta1` EndpointSlice endpoints ⇄ the `discovery.k8s.io/v1` hub.
//!
//! A `v1beta1` endpoint keeps its zone and node in `topology`, a map of node labels; `v1`
//! has `zone` and `nodeName` fields and keeps the rest of the map as
//! `deprecatedTopology`. As in Kubernetes (`pkg/apis/discovery/v1beta1/conversion.go`):
//!
//! - to `v1`: the map becomes `deprecatedTopology`, less its
//!   `topology.kubernetes.io/zone` entry, which becomes `zone`; its
//!   `kubernetes.io/hostname` entry becomes `nodeName` when the endpoint has none, and is
//!   dropped from the map when it equals `nodeName` (it stays when they differ, the
//!   one case where `v1` keeps the label); an empty map is no map;
//! - to `v1beta1`: `deprecatedTopology` plus `zone` under the zone label, plus `nodeName`
//!   under the hostname label unless the map has a non-empty one.
//!
//! What does not come back, as in Go: `v1beta1 → v1 → v1beta1` gives an endpoint with a
//! hostname label and no `nodeName` a `nodeName`, and one with a `nodeName` and no
//! hostname label the label; `v1 → v1beta1 → v1` loses a zone label in
//! `deprecatedTopology` beside a `zone` (the field wins), and turns a hostname label in
//! `deprecatedTopology` of an endpoint without `nodeName` into its `nodeName`.

use std::collections::BTreeMap;

use apimachinery::conversion::{ConversionError, Convert, Scope, in_field};

use crate::discovery::v1 as hub;
use crate::discovery::v1beta1 as old;

/// The node label of an endpoint's zone.
pub const LABEL_TOPOLOGY_ZONE: &str = "topology.kubernetes.io/zone";
/// The node label of an endpoint's node name.
pub const LABEL_HOSTNAME: &str = "kubernetes.io/hostname";

/// `topology` as `v1`'s (`deprecatedTopology`, `zone`, `nodeName`), given the endpoint's
/// `nodeName`.
fn split_topology(
    topology: &BTreeMap<String, String>,
    node_name: Option<String>,
) -> (BTreeMap<String, String>, Option<String>, Option<String>) {
    let mut rest = topology.clone();
    let zone = rest.remove(LABEL_TOPOLOGY_ZONE);
    let mut node_name = node_name;
    if let Some(host) = topology.get(LABEL_HOSTNAME) {
        match &node_name {
            None => {
                node_name = Some(host.clone());
                rest.remove(LABEL_HOSTNAME);
            }
            Some(node) if node == host => {
                rest.remove(LABEL_HOSTNAME);
            }
            Some(_) => {}
        }
    }
    (rest, zone, node_name)
}

/// `v1`'s fields as `v1beta1`'s `topology`.
fn join_topology(e: &hub::Endpoint) -> BTreeMap<String, String> {
    let mut topology = e.deprecated_topology.clone();
    if let Some(zone) = &e.zone {
        topology.insert(LABEL_TOPOLOGY_ZONE.to_owned(), zone.clone());
    }
    if let Some(node) = &e.node_name {
        // Go's map lookup: an absent label and an empty one are both "".
        if topology.get(LABEL_HOSTNAME).is_none_or(String::is_empty) {
            topology.insert(LABEL_HOSTNAME.to_owned(), node.clone());
        }
    }
    topology
}

impl Convert<hub::Endpoint> for old::Endpoint {
    fn convert(self, scope: &Scope<'_>) -> Result<hub::Endpoint, ConversionError> {
        let (deprecated_topology, zone, node_name) = split_topology(&self.topology, self.node_name);
        Ok(hub::Endpoint {
            addresses: self.addresses,
            conditions: in_field(self.conditions.convert(scope), "conditions")?,
            hostname: self.hostname,
            target_ref: self.target_ref,
            deprecated_topology,
            node_name,
            zone,
            hints: in_field(self.hints.convert(scope), "hints")?,
        })
    }

    fn convert_ref(&self, scope: &Scope<'_>) -> Result<hub::Endpoint, ConversionError> {
        self.clone().convert(scope)
    }
}

impl Convert<old::Endpoint> for hub::Endpoint {
    fn convert(self, scope: &Scope<'_>) -> Result<old::Endpoint, ConversionError> {
        let topology = join_topology(&self);
        Ok(old::Endpoint {
            addresses: self.addresses,
            conditions: in_field(self.conditions.convert(scope), "conditions")?,
            hostname: self.hostname,
            target_ref: self.target_ref,
            topology,
            node_name: self.node_name,
            hints: in_field(self.hints.convert(scope), "hints")?,
        })
    }

    fn convert_ref(&self, scope: &Scope<'_>) -> Result<old::Endpoint, ConversionError> {
        self.clone().convert(scope)
    }
}
