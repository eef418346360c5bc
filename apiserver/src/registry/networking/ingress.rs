//! Ingresses (Go's `pkg/registry/networking/ingress`): the generic strategy with Go's
//! warnings (the deprecated class annotation on create, the status's load balancer
//! addresses), and the table `kubectl get ingresses` prints (Go's `printIngress`).

use std::collections::BTreeSet;

use apimachinery::runtime::Object;
use serde_json::Value;

use crate::registry::core::service::warnings::load_balancer_status_warnings;
use crate::registry::strategy::Strategy;
use crate::registry::to_json;

/// The annotation Go's strategy warns of when `spec.ingressClassName` is not set.
const CLASS_ANNOTATION: &str = "kubernetes.io/ingress.class";

/// Go's Ingress strategy: generic, with warnings.
#[derive(Clone, Copy, Debug, Default)]
pub struct IngressStrategy;

impl Strategy for IngressStrategy {
    /// Go's `WarningsOnCreate` (its `WarningsOnUpdate` says nothing).
    fn warnings_on_create(&self, obj: &dyn Object) -> Vec<String> {
        let Ok(ingress) = to_json(obj) else {
            return Vec::new();
        };
        let annotated = ingress
            .pointer("/metadata/annotations")
            .and_then(|a| a.get(CLASS_ANNOTATION))
            .is_some();
        let class_named = ingress
            .pointer("/spec/ingressClassName")
            .is_some_and(|c| !c.is_null());
        if annotated && !class_named {
            vec![format!(
                "annotation \"{CLASS_ANNOTATION}\" is deprecated, please use 'spec.ingressClassName' instead"
            )]
        } else {
            Vec::new()
        }
    }

    fn warnings_on_status_update(&self, obj: &dyn Object, _old: &dyn Object) -> Vec<String> {
        to_json(obj)
            .map(|i| load_balancer_status_warnings(&i))
            .unwrap_or_default()
    }
}

use crate::registry::printers::{
    self, AGE, Column, NAME, Printer, Row, items, string_column, text,
};

/// Go's `ingressColumnDefinitions`.
pub const COLUMNS: [Column; 6] = [
    NAME,
    string_column(
        "Class",
        "The name of the IngressClass resource that should be used for additional configuration",
        0,
    ),
    string_column(
        "Hosts",
        "Hosts that incoming requests are matched against before the ingress rule",
        0,
    ),
    string_column(
        "Address",
        "Address is a list containing ingress points for the load-balancer",
        0,
    ),
    string_column("Ports", "Ports of TLS configurations that open", 0),
    AGE,
];

/// The Ingresses' table convertor.
pub static INGRESS_TABLE: Printer = Printer {
    api_version: "networking.k8s.io/v1",
    kind: "Ingress",
    columns: &COLUMNS,
    print: print_ingress,
};

/// Go's `printIngress`: the class (`<none>`), the rules' hosts, the load balancer's
/// addresses (not clipped: server-side tables are wide), the ports.
pub fn print_ingress(obj: &Value) -> Row {
    let ports = if items(obj, "/spec/tls").is_empty() {
        "80"
    } else {
        "80, 443"
    };
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        Value::from(
            obj.pointer("/spec/ingressClassName")
                .and_then(Value::as_str)
                .unwrap_or("<none>"),
        ),
        Value::from(format_hosts(items(obj, "/spec/rules"))),
        Value::from(load_balancer_addresses(items(
            obj,
            "/status/loadBalancer/ingress",
        ))),
        Value::from(ports),
        printers::age(obj),
    ])
}

/// Go's `formatHosts`: the first three hosts the rules name (`*` for none), and, when
/// a rule follows them, how many rules there are beyond three.
fn format_hosts(rules: &[Value]) -> String {
    const MAX: usize = 3;
    let mut hosts: Vec<&str> = Vec::new();
    let mut more = false;
    for rule in rules {
        if hosts.len() == MAX {
            more = true;
            break;
        }
        let host = text(rule, "/host");
        if !host.is_empty() {
            hosts.push(host);
        }
    }
    if hosts.is_empty() {
        return "*".to_owned();
    }
    let joined = hosts.join(",");
    if more {
        format!("{joined} + {} more...", rules.len() - MAX)
    } else {
        joined
    }
}

/// Go's `ingressLoadBalancerStatusStringer`, wide: each ingress point's IP, or its
/// hostname, sorted and without repeats.
fn load_balancer_addresses(ingress: &[Value]) -> String {
    let addresses: BTreeSet<&str> = ingress
        .iter()
        .filter_map(|i| match (text(i, "/ip"), text(i, "/hostname")) {
            ("", "") => None,
            ("", hostname) => Some(hostname),
            (ip, _) => Some(ip),
        })
        .collect();
    addresses.into_iter().collect::<Vec<_>>().join(",")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Go's `TestPrintIngress`, and its `formatHosts` limits.
    #[test]
    fn ingresses_print_as_kubectl_shows_them() {
        let ingress = json!({"metadata": {"name": "test1"},
            "spec": {"ingressClassName": "foo",
                "defaultBackend": {"service": {"name": "default-backend", "port": {"name": "default-backend"}}}},
            "status": {"loadBalancer": {"ingress": [{"ip": "2.3.4.5", "hostname": "localhost.localdomain"}]}}});
        let mut cells = print_ingress(&ingress).cells;
        cells.remove(5);
        assert_eq!(
            Value::from(cells),
            json!(["test1", "foo", "*", "2.3.4.5", "80"])
        );
        let rules =
            |hosts: &[&str]| -> Vec<Value> { hosts.iter().map(|h| json!({"host": h})).collect() };
        assert_eq!(format_hosts(&rules(&["a", "", "b"])), "a,b");
        assert_eq!(
            format_hosts(&rules(&["a", "b", "c", "d", "e"])),
            "a,b,c + 2 more..."
        );
        assert_eq!(format_hosts(&rules(&["", "", "", "d"])), "d");
        assert_eq!(format_hosts(&rules(&["", ""])), "*");
        let tls = json!({"metadata": {"name": "t"}, "spec": {"tls": [{"hosts": ["a"]}]},
            "status": {"loadBalancer": {"ingress": [{"hostname": "b.example"}, {"ip": "10.0.0.1"}, {"ip": "10.0.0.1"}]}}});
        let cells = print_ingress(&tls).cells;
        assert_eq!(cells[1], json!("<none>"));
        assert_eq!(cells[3], json!("10.0.0.1,b.example"));
        assert_eq!(cells[4], json!("80, 443"));
    }
}
