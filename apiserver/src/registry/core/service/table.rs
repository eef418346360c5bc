//! The Services' table (Go's `printService`): type, cluster IP, external IP, ports with
//! their node ports, age, selector.

use serde_json::Value;

use crate::registry::printers::{
    self, AGE, Column, NAME, Printer, Row, format_labels, int, items, string_column, text,
};

/// Go's `serviceColumnDefinitions`.
pub const COLUMNS: [Column; 7] = [
    NAME,
    string_column(
        "Type",
        "type determines how the Service is exposed. Defaults to ClusterIP. Valid options are ExternalName, ClusterIP, NodePort, and LoadBalancer. \"ClusterIP\" allocates a cluster-internal IP address for load-balancing to endpoints. Endpoints are determined by the selector or if that is not specified, by manual construction of an Endpoints object or EndpointSlice objects. If clusterIP is \"None\", no virtual IP is allocated and the endpoints are published as a set of endpoints rather than a virtual IP. \"NodePort\" builds on ClusterIP and allocates a port on every node which routes to the same endpoints as the clusterIP. \"LoadBalancer\" builds on NodePort and creates an external load-balancer (if supported in the current cloud) which routes to the same endpoints as the clusterIP. \"ExternalName\" aliases this service to the specified externalName. Several other fields do not apply to ExternalName services. More info: https://kubernetes.io/docs/concepts/services-networking/service/#publishing-services-service-types",
        0,
    ),
    string_column(
        "Cluster-IP",
        "clusterIP is the IP address of the service and is usually assigned randomly. If an address is specified manually, is in-range (as per system configuration), and is not in use, it will be allocated to the service; otherwise creation of the service will fail. This field may not be changed through updates unless the type field is also being changed to ExternalName (which requires this field to be blank) or the type field is being changed from ExternalName (in which case this field may optionally be specified, as describe above).  Valid values are \"None\", empty string (\"\"), or a valid IP address. Setting this to \"None\" makes a \"headless service\" (no virtual IP), which is useful when direct endpoint connections are preferred and proxying is not required.  Only applies to types ClusterIP, NodePort, and LoadBalancer. If this field is specified when creating a Service of type ExternalName, creation will fail. This field will be wiped when updating a Service to type ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies",
        0,
    ),
    string_column(
        "External-IP",
        "externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.  These IPs are not managed by Kubernetes.  The user is responsible for ensuring that traffic arrives at a node with this IP.  A common example is external load-balancers that are not part of the Kubernetes system.",
        0,
    ),
    string_column(
        "Port(s)",
        "The list of ports that are exposed by this service. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies",
        0,
    ),
    AGE,
    string_column(
        "Selector",
        "Route service traffic to pods with label keys and values matching this selector. If empty or not present, the service is assumed to have an external process managing its endpoints, which Kubernetes will not modify. Only applies to types ClusterIP, NodePort, and LoadBalancer. Ignored if type is ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/",
        1,
    ),
];

/// The Services' table convertor.
pub static SERVICE_TABLE: Printer = Printer {
    api_version: "v1",
    kind: "Service",
    columns: &COLUMNS,
    print: print_service,
};

fn strings(obj: &Value, pointer: &str) -> Vec<String> {
    items(obj, pointer)
        .iter()
        .filter_map(|v| v.as_str().map(str::to_owned))
        .collect()
}

/// Go's `getServiceExternalIP` (wide).
fn external_ip(svc: &Value) -> String {
    let external = strings(svc, "/spec/externalIPs");
    match text(svc, "/spec/type") {
        "ClusterIP" | "NodePort" if !external.is_empty() => external.join(","),
        "ClusterIP" | "NodePort" => "<none>".to_owned(),
        "LoadBalancer" => {
            let mut ingress: Vec<String> = items(svc, "/status/loadBalancer/ingress")
                .iter()
                .map(|i| match text(i, "/ip") {
                    "" => text(i, "/hostname").to_owned(),
                    ip => ip.to_owned(),
                })
                .filter(|s| !s.is_empty())
                .collect();
            ingress.sort();
            ingress.dedup();
            ingress.extend(external);
            if ingress.is_empty() {
                "<pending>".to_owned()
            } else {
                ingress.join(",")
            }
        }
        "ExternalName" => text(svc, "/spec/externalName").to_owned(),
        _ => "<unknown>".to_owned(),
    }
}

/// Go's `printService`.
pub fn print_service(svc: &Value) -> Row {
    let cluster_ip = strings(svc, "/spec/clusterIPs")
        .into_iter()
        .next()
        .unwrap_or_else(|| "<none>".to_owned());
    let ports: Vec<String> = items(svc, "/spec/ports")
        .iter()
        .map(|p| {
            let (port, protocol) = (int(p, "/port"), text(p, "/protocol"));
            match int(p, "/nodePort") {
                node if node > 0 => format!("{port}:{node}/{protocol}"),
                _ => format!("{port}/{protocol}"),
            }
        })
        .collect();
    let ports = if ports.is_empty() {
        "<none>".to_owned()
    } else {
        ports.join(",")
    };
    Row::from(vec![
        svc.pointer("/metadata/name")
            .cloned()
            .unwrap_or(Value::from("")),
        Value::from(text(svc, "/spec/type")),
        Value::from(cluster_ip),
        Value::from(external_ip(svc)),
        Value::from(ports),
        printers::age(svc),
        Value::from(format_labels(svc.pointer("/spec/selector"))),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn services_print_as_kubectl_shows_them() {
        let svc = json!({"metadata": {"name": "web"}, "spec": {"type": "NodePort",
            "clusterIPs": ["10.96.0.10"], "selector": {"app": "web"},
            "ports": [{"port": 80, "nodePort": 30080, "protocol": "TCP"}, {"port": 53, "protocol": "UDP"}]}});
        let mut cells = print_service(&svc).cells;
        cells.remove(5);
        assert_eq!(
            Value::from(cells),
            json!([
                "web",
                "NodePort",
                "10.96.0.10",
                "<none>",
                "80:30080/TCP,53/UDP",
                "app=web"
            ])
        );
        let lb = json!({"spec": {"type": "LoadBalancer"}});
        assert_eq!(external_ip(&lb), "<pending>");
    }
}
