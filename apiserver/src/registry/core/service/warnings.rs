//! Go's warnings for Services (`pkg/api/service/warnings.go` `GetWarningsForService`,
//! and the status strategy's `WarningsOnUpdate`), on the stored (v1) object's JSON.

use apimachinery::util::validation::field::Path;
use apimachinery::util::validation::ip::{get_warnings_for_cidr, get_warnings_for_ip};
use serde_json::Value;

/// The deprecated annotation Go warns of, and the one to use instead.
const DEPRECATED_TOPOLOGY_HINTS: &str = "service.kubernetes.io/topology-aware-hints";
const TOPOLOGY_MODE: &str = "service.kubernetes.io/topology-mode";

fn text<'a>(obj: &'a Value, pointer: &str) -> &'a str {
    obj.pointer(pointer)
        .and_then(Value::as_str)
        .unwrap_or_default()
}

fn strings<'a>(obj: &'a Value, pointer: &str) -> impl Iterator<Item = &'a str> {
    obj.pointer(pointer)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|v| v.as_str().unwrap_or_default())
}

/// Go's `GetWarningsForService` (the same on create and update).
pub fn service_warnings(svc: &Value) -> Vec<String> {
    let mut warnings = Vec::new();
    if svc
        .pointer("/metadata/annotations")
        .and_then(|a| a.get(DEPRECATED_TOPOLOGY_HINTS))
        .is_some()
    {
        warnings.push(format!(
            "annotation {DEPRECATED_TOPOLOGY_HINTS} is deprecated, please use {TOPOLOGY_MODE} instead"
        ));
    }
    let spec = Path::new("spec");
    let cluster_ip = text(svc, "/spec/clusterIP");
    // Go's `helper.IsServiceIPSet`.
    if !cluster_ip.is_empty() && cluster_ip != "None" {
        let ips = spec.child("clusterIPs");
        for (i, ip) in strings(svc, "/spec/clusterIPs").enumerate() {
            warnings.extend(get_warnings_for_ip(&ips.index(i), ip));
        }
    }
    let service_type = text(svc, "/spec/type");
    let external_ips: Vec<&str> = strings(svc, "/spec/externalIPs").collect();
    let headless = service_type == "ClusterIP" && cluster_ip == "None";
    if headless {
        if !text(svc, "/spec/loadBalancerIP").is_empty() {
            warnings.push("spec.loadBalancerIP is ignored for headless services".into());
        }
        if !external_ips.is_empty() {
            warnings.push("spec.externalIPs is ignored for headless services".into());
        }
        if text(svc, "/spec/sessionAffinity") != "None" {
            warnings.push("spec.SessionAffinity is ignored for headless services".into());
        }
    }
    let external = spec.child("externalIPs");
    for (i, ip) in external_ips.iter().enumerate() {
        warnings.extend(get_warnings_for_ip(&external.index(i), ip));
    }
    if !external_ips.is_empty() && !headless && service_type != "ExternalName" {
        warnings.push(
            "spec.externalIPs is deprecated and may no longer be implemented in some clusters"
                .into(),
        );
    }
    let load_balancer_ip = text(svc, "/spec/loadBalancerIP");
    if !load_balancer_ip.is_empty() {
        warnings.extend(get_warnings_for_ip(
            &spec.child("loadBalancerIP"),
            load_balancer_ip,
        ));
    }
    let ranges = spec.child("loadBalancerSourceRanges");
    for (i, cidr) in strings(svc, "/spec/loadBalancerSourceRanges").enumerate() {
        warnings.extend(get_warnings_for_cidr(&ranges.index(i), cidr));
    }
    if service_type == "ExternalName" && !external_ips.is_empty() {
        warnings.push("spec.externalIPs is ignored when spec.type is \"ExternalName\"".into());
    }
    if service_type != "ExternalName" && !text(svc, "/spec/externalName").is_empty() {
        warnings.push("spec.externalName is ignored when spec.type is not \"ExternalName\"".into());
    }
    if text(svc, "/spec/trafficDistribution") == "PreferClose" {
        warnings.push(
            "spec.trafficDistribution: \"PreferClose\" is deprecated; use \"PreferSameZone\""
                .into(),
        );
    }
    warnings
}

/// Go's `WarningsOnUpdate` of the Service and Ingress status strategies: the load
/// balancer ingress IPs in a non-standard form.
pub fn load_balancer_status_warnings(obj: &Value) -> Vec<String> {
    let status = Path::new("status");
    let load_balancer = status.child("loadBalancer");
    let path = load_balancer.child("ingress");
    let ingress = obj
        .pointer("/status/loadBalancer/ingress")
        .and_then(Value::as_array);
    let mut warnings = Vec::new();
    for (i, entry) in ingress.into_iter().flatten().enumerate() {
        let ip = text(entry, "/ip");
        if !ip.is_empty() {
            warnings.extend(get_warnings_for_ip(&path.index(i), ip));
        }
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Go's `TestGetWarningsForService` cases.
    #[test]
    fn services_are_warned_about_as_go_warns() {
        let svc = |spec: Value| json!({"metadata": {"name": "s"}, "spec": spec});
        assert!(service_warnings(&svc(json!({"type": "ClusterIP", "clusterIP": "10.0.0.1", "clusterIPs": ["10.0.0.1"], "sessionAffinity": "None"}))).is_empty());
        assert_eq!(
            service_warnings(
                &json!({"metadata": {"annotations": {DEPRECATED_TOPOLOGY_HINTS: "enabled"}}, "spec": {"sessionAffinity": "None"}})
            ),
            [
                "annotation service.kubernetes.io/topology-aware-hints is deprecated, please use service.kubernetes.io/topology-mode instead"
            ]
        );
        assert_eq!(
            service_warnings(&svc(
                json!({"type": "ClusterIP", "clusterIP": "None", "clusterIPs": ["None"],
                "loadBalancerIP": "1.2.3.4", "externalIPs": ["1.2.3.4"], "sessionAffinity": "ClientIP"})
            )),
            [
                "spec.loadBalancerIP is ignored for headless services",
                "spec.externalIPs is ignored for headless services",
                "spec.SessionAffinity is ignored for headless services",
            ]
        );
        assert_eq!(
            service_warnings(&svc(
                json!({"type": "ClusterIP", "clusterIP": "10.0.0.1", "clusterIPs": ["10.0.0.1", "2001:db8:0::1"],
                "externalIPs": ["10.000.0.1"], "sessionAffinity": "None", "loadBalancerSourceRanges": ["10.0.0.1/8"]})
            )),
            [
                "spec.clusterIPs[1]: IPv6 address \"2001:db8:0::1\" should be in RFC 5952 canonical format (\"2001:db8::1\")",
                "spec.externalIPs[0]: non-standard IP address \"10.000.0.1\" is invalid: use \"10.0.0.1\"",
                "spec.externalIPs is deprecated and may no longer be implemented in some clusters",
                "spec.loadBalancerSourceRanges[0]: CIDR value \"10.0.0.1/8\" is ambiguous in this context (should be \"10.0.0.0/8\" or \"10.0.0.1/32\"?)",
            ]
        );
        assert_eq!(
            service_warnings(&svc(
                json!({"type": "ExternalName", "externalName": "x.example.com", "externalIPs": ["1.2.3.4"], "sessionAffinity": "None"})
            )),
            ["spec.externalIPs is ignored when spec.type is \"ExternalName\""]
        );
        assert_eq!(
            service_warnings(&svc(
                json!({"type": "ClusterIP", "externalName": "x.example.com", "sessionAffinity": "None", "trafficDistribution": "PreferClose"})
            )),
            [
                "spec.externalName is ignored when spec.type is not \"ExternalName\"",
                "spec.trafficDistribution: \"PreferClose\" is deprecated; use \"PreferSameZone\"",
            ]
        );
    }

    #[test]
    fn load_balancer_ips_are_warned_about() {
        let obj = json!({"status": {"loadBalancer": {"ingress": [{"hostname": "a"}, {"ip": "::ffff:1.2.3.4"}]}}});
        assert_eq!(
            load_balancer_status_warnings(&obj),
            [
                "status.loadBalancer.ingress[1]: non-standard IP address \"::ffff:1.2.3.4\" is invalid: use \"1.2.3.4\""
            ]
        );
    }
}
