//! Endpoints (Go's `pkg/registry/core/endpoint/strategy.go`): the generic strategy, and the table
//! `kubectl get endpoints` prints (Go's `printEndpoints`: the first addresses with
//! their ports).

use std::sync::Arc;

use serde_json::Value;

use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{
    self, AGE, Column, NAME, Printer, Row, int, items, string_column, text,
};
use crate::registry::rest::RestStorage;
use crate::registry::strategy::Strategy;
use crate::registry::to_json;
use apimachinery::runtime::Object;
use apimachinery::util::validation::field::Path;
use apimachinery::util::validation::ip::get_warnings_for_ip;

/// Go's Endpoints strategy: generic, but a PUT creates a missing object, and addresses
/// in a non-standard form are warned about.
#[derive(Clone, Copy, Debug, Default)]
pub struct EndpointsStrategy;

impl Strategy for EndpointsStrategy {
    fn allow_create_on_update(&self) -> bool {
        true
    }

    fn warnings_on_create(&self, obj: &dyn Object) -> Vec<String> {
        to_json(obj)
            .map(|e| endpoints_warnings(&e))
            .unwrap_or_default()
    }

    fn warnings_on_update(&self, obj: &dyn Object, _old: &dyn Object) -> Vec<String> {
        self.warnings_on_create(obj)
    }
}

/// Go's `endpointsWarnings`: the addresses' IPs in a non-standard form, unless the
/// Endpoints controller wrote the object (it writes them canonical).
pub fn endpoints_warnings(endpoints: &Value) -> Vec<String> {
    let managed_by = endpoints
        .pointer("/metadata/labels/endpoints.kubernetes.io~1managed-by")
        .and_then(Value::as_str);
    if managed_by == Some("endpoint-controller") {
        return Vec::new();
    }
    let mut warnings = Vec::new();
    let subsets = Path::new("subsets");
    for (i, subset) in items(endpoints, "/subsets").iter().enumerate() {
        let subset_path = subsets.index(i);
        for list in ["addresses", "notReadyAddresses"] {
            let path = subset_path.child(list);
            for (j, address) in items(subset, &format!("/{list}")).iter().enumerate() {
                let entry = path.index(j);
                let ip = entry.child("ip");
                warnings.extend(get_warnings_for_ip(&ip, text(address, "/ip")));
            }
        }
    }
    warnings
}

/// Go's `endpointColumnDefinitions`.
pub const COLUMNS: [Column; 3] = [
    NAME,
    string_column(
        "Endpoints",
        "The set of all endpoints is the union of all subsets. Addresses are placed into subsets according to the IPs they share. A single address with multiple ports, some of which are ready and some of which are not (because they come from different containers) will result in the address being displayed in different subsets for the different ports. No address will appear in both Addresses and NotReadyAddresses in the same subset. Sets of addresses and ports that comprise a service.",
        0,
    ),
    AGE,
];

/// The Endpoints' table convertor.
pub static ENDPOINTS_TABLE: Printer = Printer {
    api_version: "v1",
    kind: "Endpoints",
    columns: &COLUMNS,
    print: print_endpoints,
};

/// Go's `printEndpoints`: name, [`format_endpoints`], age.
pub fn print_endpoints(obj: &Value) -> Row {
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        Value::from(format_endpoints(obj)),
        printers::age(obj),
    ])
}

/// How many endpoints a cell shows before it says how many more there are.
const SHOWN: usize = 3;

/// Go's `formatEndpoints` of every port: the ready addresses, each with each port of its
/// subset (`ip:port`, an IPv6 address in brackets) or alone in a subset without ports,
/// the first three joined by commas and ` + N more...` for the rest; `<none>` without
/// subsets.
pub fn format_endpoints(obj: &Value) -> String {
    let subsets = items(obj, "/subsets");
    if subsets.is_empty() {
        return "<none>".to_owned();
    }
    let mut shown: Vec<String> = Vec::new();
    let (mut count, mut more) = (0, false);
    let mut add = |addresses: &[Value], port: Option<i64>| {
        count += addresses.len();
        for address in addresses {
            if shown.len() == SHOWN {
                more = true;
                break;
            }
            let ip = text(address, "/ip");
            shown.push(match port {
                None => ip.to_owned(),
                // Go's `net.JoinHostPort`.
                Some(port) if ip.contains(':') => format!("[{ip}]:{port}"),
                Some(port) => format!("{ip}:{port}"),
            });
        }
    };
    for subset in subsets {
        let addresses = items(subset, "/addresses");
        let ports = items(subset, "/ports");
        if ports.is_empty() {
            // A headless service's endpoints have no ports.
            add(addresses, None);
        }
        for port in ports {
            add(addresses, Some(int(port, "/port")));
        }
    }
    let list = shown.join(",");
    if more {
        format!("{list} + {} more...", count - SHOWN)
    } else {
        list
    }
}

/// The Endpoints' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard_with_table(info, EndpointsStrategy, Arc::new(ENDPOINTS_TABLE))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cell(obj: Value) -> Value {
        print_endpoints(&obj).cells[1].clone()
    }

    /// Go's `TestPrintEndpoint` cases, and IPv6 addresses and several subsets.
    #[test]
    fn endpoints_print_the_first_three_addresses_with_their_ports() {
        assert_eq!(cell(json!({"metadata": {"name": "endpoint1"}})), "<none>");
        assert_eq!(
            cell(json!({"subsets": [{"addresses": [{"ip": "1.2.3.4"}, {"ip": "5.6.7.8"}]}]})),
            "1.2.3.4,5.6.7.8"
        );
        assert_eq!(
            cell(
                json!({"subsets": [{"addresses": [{"ip": "1.2.3.4"}, {"ip": "5.6.7.8"}],
                "ports": [{"port": 8001, "protocol": "tcp"}]}]})
            ),
            "1.2.3.4:8001,5.6.7.8:8001"
        );
        assert_eq!(
            cell(
                json!({"subsets": [{"addresses": [{"ip": "1.2.3.4"}, {"ip": "5.6.7.8"},
                {"ip": "9.8.7.6"}, {"ip": "6.6.6.6"}], "ports": [{"port": 8001}]}]})
            ),
            "1.2.3.4:8001,5.6.7.8:8001,9.8.7.6:8001 + 1 more..."
        );
        // Every port of a subset with every address; the count goes on past the third.
        assert_eq!(
            cell(json!({"subsets": [
                {"addresses": [{"ip": "fd00::1"}], "ports": [{"port": 80}, {"port": 443}]},
                {"addresses": [{"ip": "10.0.0.1"}, {"ip": "10.0.0.2"}], "ports": [{"port": 53}]}]})),
            "[fd00::1]:80,[fd00::1]:443,10.0.0.1:53 + 1 more..."
        );
        assert_eq!(
            cell(json!({"subsets": [{"notReadyAddresses": [{"ip": "1.2.3.4"}]}]})),
            ""
        );
        let row = print_endpoints(&json!({"metadata": {"name": "e"}})).cells;
        assert_eq!(Value::from(row), json!(["e", "<none>", "<unknown>"]));
    }

    /// Go's `TestEndpointsWarnings` cases.
    #[test]
    fn non_standard_addresses_are_warned_about_unless_the_controller_wrote_them() {
        let mut e = json!({"metadata": {"name": "e"}, "subsets": [
            {"addresses": [{"ip": "10.0.0.1"}, {"ip": "10.000.0.2"}], "notReadyAddresses": [{"ip": "2001:db8:0::3"}]}]});
        assert_eq!(
            endpoints_warnings(&e),
            [
                "subsets[0].addresses[1].ip: non-standard IP address \"10.000.0.2\" is invalid: use \"10.0.0.2\"",
                "subsets[0].notReadyAddresses[0].ip: IPv6 address \"2001:db8:0::3\" should be in RFC 5952 canonical format (\"2001:db8::3\")",
            ]
        );
        e["metadata"]["labels"] =
            json!({"endpoints.kubernetes.io/managed-by": "endpoint-controller"});
        assert!(endpoints_warnings(&e).is_empty());
    }
}
