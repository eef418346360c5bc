//! Cluster IPs and node ports of Services (Go's `pkg/registry/core/service/storage/
//! alloc.go` over its IP and port allocators): a new Service gets an address from the
//! service range (`--service-cluster-ip-range`) and, for `NodePort` and `LoadBalancer`
//! Services, a node port per port from `--service-node-port-range`; addresses and ports
//! asked for are checked against the ranges and against the Services that hold them.
//!
//! Go keeps the allocations in bitmaps (or `IPAddress` objects) beside the Services and
//! frees them when a Service is deleted. Here the Services themselves are the record: what
//! is taken is what the stored Services hold, read when a Service is created, so a
//! deleted Service's address and ports are free again at once, and servers sharing one
//! etcd see the same allocations. (Two creates racing for the last free address could
//! both get it; Go's bitmap, written in the same transaction, cannot.) IPv4 single-stack
//! only, as the range is.

use std::collections::BTreeSet;
use std::net::Ipv4Addr;

use apimachinery::api::errors::{self, StatusError};
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
use serde_json::{Value, json};

/// The service network: the cluster IP range and the node port range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ServiceNetwork {
    base: u32,
    prefix: u8,
    node_ports: (u16, u16),
}

impl Default for ServiceNetwork {
    /// kube-apiserver's defaults: 10.0.0.0/24 and 30000-32767.
    fn default() -> Self {
        ServiceNetwork {
            base: u32::from(Ipv4Addr::new(10, 0, 0, 0)),
            prefix: 24,
            node_ports: (30000, 32767),
        }
    }
}

impl ServiceNetwork {
    /// The network of `cidr` (an IPv4 range such as `10.96.0.0/24`, at most /30 so that
    /// it has addresses to give) and `node_ports` (`30000-32767`).
    ///
    /// ```
    /// use apiserver::registry::core::service::ServiceNetwork;
    ///
    /// let network = ServiceNetwork::new("10.96.0.7/24", "30000-32767")?;
    /// assert_eq!(network.cidr(), "10.96.0.0/24");
    /// assert!(ServiceNetwork::new("10.96.0.0", "30000-32767").is_err());
    /// assert!(ServiceNetwork::new("10.96.0.0/24", "32767-30000").is_err());
    /// # Ok::<(), String>(())
    /// ```
    pub fn new(cidr: &str, node_ports: &str) -> Result<Self, String> {
        let (ip, prefix) = cidr
            .split_once('/')
            .ok_or_else(|| format!("{cidr:?} is not a CIDR (IP/prefix)"))?;
        let ip: Ipv4Addr = ip
            .parse()
            .map_err(|e| format!("{cidr:?}: {e} (only IPv4 ranges are served)"))?;
        let prefix: u8 = prefix
            .parse()
            .ok()
            .filter(|p| (1..=30).contains(p))
            .ok_or_else(|| format!("{cidr:?}: the prefix must be 1 to 30"))?;
        let mask = u32::MAX << (32 - prefix);
        let (low, high) = node_ports
            .split_once('-')
            .and_then(|(a, b)| Some((a.trim().parse::<u16>().ok()?, b.trim().parse::<u16>().ok()?)))
            .filter(|(a, b)| a <= b)
            .ok_or_else(|| format!("{node_ports:?} is not a port range (30000-32767)"))?;
        Ok(ServiceNetwork {
            base: u32::from(ip) & mask,
            prefix,
            node_ports: (low, high),
        })
    }

    /// The range as written in messages (`10.96.0.0/24`).
    pub fn cidr(&self) -> String {
        format!("{}/{}", Ipv4Addr::from(self.base), self.prefix)
    }

    /// The addresses that can be given: the range without its network and broadcast
    /// addresses, as Go's allocator.
    fn usable(&self) -> (u32, u32) {
        let size = 1u32 << (32 - self.prefix);
        (self.base + 1, self.base + size - 2)
    }

    fn port_range(&self) -> String {
        format!("{}-{}", self.node_ports.0, self.node_ports.1)
    }
}

/// The addresses and node ports the stored Services hold.
#[derive(Debug, Default)]
pub struct Taken {
    ips: BTreeSet<u32>,
    ports: BTreeSet<i64>,
}

impl Taken {
    /// What `services` (their JSON) hold.
    pub fn of<'a>(services: impl IntoIterator<Item = &'a Value>) -> Taken {
        let mut taken = Taken::default();
        for svc in services {
            for ip in svc
                .pointer("/spec/clusterIPs")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
            {
                if let Ok(ip) = ip.parse::<Ipv4Addr>() {
                    taken.ips.insert(u32::from(ip));
                }
            }
            for port in svc
                .pointer("/spec/ports")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if let Some(p) = port.get("nodePort").and_then(Value::as_i64) {
                    taken.ports.insert(p);
                }
            }
            if let Some(p) = svc
                .pointer("/spec/healthCheckNodePort")
                .and_then(Value::as_i64)
            {
                taken.ports.insert(p);
            }
        }
        taken
    }
}

/// A random number below `n` (n > 0), from a v4 UUID's random bits.
fn random_below(n: u32) -> u32 {
    let bytes = uuid::Uuid::new_v4().into_bytes();
    u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) % n
}

/// A free value of `low..=high` not in `taken`, starting at a random one, as Go's
/// `AllocateNext` picks (the address range's lower band, kept for addresses asked for,
/// is tried last).
fn next_free(low: u32, high: u32, preferred_low: u32, taken: impl Fn(u32) -> bool) -> Option<u32> {
    let band = |from: u32, to: u32| -> Option<u32> {
        if from > to {
            return None;
        }
        let size = to - from + 1;
        let start = random_below(size);
        (0..size)
            .map(|i| from + (start + i) % size)
            .find(|v| !taken(*v))
    };
    band(preferred_low.max(low), high)
        .or_else(|| band(low, preferred_low.saturating_sub(1).min(high)))
}

fn invalid(name: &str, error: Error) -> StatusError {
    errors::new_invalid(
        &apimachinery::schema::GroupKind::new("", "Service"),
        name,
        &ErrorList(vec![error]),
    )
}

/// Go's `allocateCreate`: the IP family fields, the cluster IPs and the node ports of a
/// new Service (`svc`, its JSON at v1, defaulted), given what is `taken`.
pub fn allocate_create(
    network: &ServiceNetwork,
    taken: &Taken,
    svc: &mut Value,
) -> Result<(), StatusError> {
    let name = svc
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let Some(spec) = svc.get_mut("spec").and_then(Value::as_object_mut) else {
        return Ok(());
    };
    let kind = spec
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("ClusterIP")
        .to_owned();
    if kind == "ExternalName" {
        return Ok(());
    }
    // Go's strategy normalizes `clusterIPs` from `clusterIP` before allocating.
    let cluster_ip = spec
        .get("clusterIP")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    let ips_empty = spec
        .get("clusterIPs")
        .and_then(Value::as_array)
        .is_none_or(Vec::is_empty);
    if ips_empty && !cluster_ip.is_empty() {
        spec.insert("clusterIPs".into(), json!([cluster_ip]));
    }
    let headless = cluster_ip == "None";
    let selectorless = spec
        .get("selector")
        .and_then(Value::as_object)
        .is_none_or(serde_json::Map::is_empty);
    if spec.get("ipFamilyPolicy").is_none_or(Value::is_null) {
        let policy = if headless && selectorless {
            "RequireDualStack"
        } else {
            "SingleStack"
        };
        spec.insert("ipFamilyPolicy".into(), Value::from(policy));
    }
    let families_empty = spec
        .get("ipFamilies")
        .and_then(Value::as_array)
        .is_none_or(Vec::is_empty);
    if families_empty {
        let dual = headless
            && selectorless
            && spec.get("ipFamilyPolicy").and_then(Value::as_str) != Some("SingleStack");
        let families = if dual {
            json!(["IPv4", "IPv6"])
        } else {
            json!(["IPv4"])
        };
        spec.insert("ipFamilies".into(), families);
    }
    if !headless {
        let requested = spec
            .get("clusterIPs")
            .and_then(Value::as_array)
            .and_then(|ips| ips.first())
            .and_then(Value::as_str)
            .map(str::to_owned);
        let ip = match requested {
            Some(text) => {
                let ips = spec
                    .get("clusterIPs")
                    .map(Value::to_string)
                    .unwrap_or_default();
                let fail = |message: String| {
                    let path = Path::new("spec");
                    let path = path.child("clusterIPs");
                    invalid(
                        &name,
                        Error::invalid(&path, BadValue::Json(ips.clone()), message),
                    )
                };
                let ip: Ipv4Addr = text.parse().map_err(|_| {
                    fail(format!(
                        "failed to allocate IP {text}: must be a valid IP address"
                    ))
                })?;
                let (low, high) = network.usable();
                let n = u32::from(ip);
                if n < low || n > high {
                    // Go's `IPAddress` allocator (MultiCIDRServiceAllocator, on since
                    // 1.33) finds no range for the address.
                    return Err(fail(format!(
                        "failed to allocate IP {text}: the provided network does not match the current range"
                    )));
                }
                if taken.ips.contains(&n) {
                    return Err(fail(format!(
                        "failed to allocate IP {text}: provided IP is already allocated"
                    )));
                }
                ip
            }
            None => {
                let (low, high) = network.usable();
                // Go's lower band: min(max(16, size/16), 256) addresses.
                let band = ((high - low + 1) / 16).clamp(16, 256);
                let n = next_free(low, high, low + band, |v| taken.ips.contains(&v)).ok_or_else(
                    || {
                        errors::new_internal_error(format!(
                            "failed to allocate a serviceIP for Service {name:?}: range is full"
                        ))
                    },
                )?;
                Ipv4Addr::from(n)
            }
        };
        spec.insert("clusterIP".into(), Value::from(ip.to_string()));
        spec.insert("clusterIPs".into(), json!([ip.to_string()]));
    }
    let allocate_ports = match kind.as_str() {
        "NodePort" => true,
        "LoadBalancer" => spec
            .get("allocateLoadBalancerNodePorts")
            .and_then(Value::as_bool)
            .unwrap_or(true),
        _ => false,
    };
    let Some(ports) = spec.get_mut("ports").and_then(Value::as_array_mut) else {
        return Ok(());
    };
    let mut mine: BTreeSet<i64> = BTreeSet::new();
    let mut by_port: Vec<(i64, i64)> = Vec::new();
    let (low, high) = network.node_ports;
    for i in 0..ports.len() {
        let port = ports[i].get("port").and_then(Value::as_i64).unwrap_or(0);
        let asked = ports[i]
            .get("nodePort")
            .and_then(Value::as_i64)
            .unwrap_or(0);
        if asked == 0 && !allocate_ports {
            continue;
        }
        let known = by_port.iter().find(|(p, _)| *p == port).map(|(_, n)| *n);
        let node_port = match known {
            Some(n) if asked == 0 || asked == n => n,
            _ => {
                // A port asked for here or for a later entry of the same port.
                let requested = if asked != 0 {
                    asked
                } else {
                    ports[i..]
                        .iter()
                        .filter(|p| p.get("port").and_then(Value::as_i64) == Some(port))
                        .find_map(|p| {
                            p.get("nodePort")
                                .and_then(Value::as_i64)
                                .filter(|n| *n != 0)
                        })
                        .unwrap_or(0)
                };
                if requested != 0 {
                    let spec_path = Path::new("spec");
                    let ports_path = spec_path.child("ports");
                    let port_path = ports_path.index(i);
                    let path = port_path.child("nodePort");
                    let message = if requested < i64::from(low) || requested > i64::from(high) {
                        Some(format!(
                            "provided port is not in the valid range. The range of valid ports is {}",
                            network.port_range()
                        ))
                    } else if taken.ports.contains(&requested) || mine.contains(&requested) {
                        Some("provided port is already allocated".to_owned())
                    } else {
                        None
                    };
                    if let Some(message) = message {
                        return Err(invalid(&name, Error::invalid(&path, requested, message)));
                    }
                    requested
                } else {
                    // Go's port allocator keeps a lower band of min(max(16, size/32),
                    // 128) ports for ports asked for, too.
                    let size = u32::from(high - low) + 1;
                    let band = (size / 32).clamp(16, 128);
                    let preferred = u32::from(low) + band.min(size - 1);
                    let free = next_free(u32::from(low), u32::from(high), preferred, |v| {
                        taken.ports.contains(&i64::from(v)) || mine.contains(&i64::from(v))
                    })
                    .ok_or_else(|| {
                        errors::new_internal_error("failed to allocate a nodePort: range is full")
                    })?;
                    i64::from(free)
                }
            }
        };
        mine.insert(node_port);
        if known.is_none() {
            by_port.push((port, node_port));
        }
        if let Some(p) = ports[i].as_object_mut() {
            p.insert("nodePort".into(), Value::from(node_port));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn network() -> ServiceNetwork {
        ServiceNetwork::new("10.96.0.0/24", "30000-30002").unwrap()
    }

    #[test]
    fn a_new_service_gets_a_free_address_in_the_range_and_its_families() {
        let mut svc = json!({"metadata": {"name": "web"}, "spec": {"type": "ClusterIP",
            "selector": {"a": "b"}, "ports": [{"port": 80}]}});
        allocate_create(&network(), &Taken::default(), &mut svc).unwrap();
        let ip: Ipv4Addr = svc["spec"]["clusterIP"].as_str().unwrap().parse().unwrap();
        assert!(u32::from(ip) > u32::from(Ipv4Addr::new(10, 96, 0, 0)) && ip.octets()[3] < 255);
        assert_eq!(svc["spec"]["clusterIPs"], json!([ip.to_string()]));
        assert_eq!(svc["spec"]["ipFamilies"], json!(["IPv4"]));
        assert_eq!(svc["spec"]["ipFamilyPolicy"], "SingleStack");
        assert!(svc["spec"]["ports"][0].get("nodePort").is_none());
    }

    #[test]
    fn asked_for_addresses_and_ports_are_checked() {
        let taken = Taken::of(&[
            json!({"spec": {"clusterIPs": ["10.96.0.9"], "ports": [{"nodePort": 30000}]}}),
        ]);
        let mut taken_ip = json!({"metadata": {"name": "a"}, "spec": {"clusterIP": "10.96.0.9"}});
        let e = allocate_create(&network(), &taken, &mut taken_ip).unwrap_err();
        assert!(
            e.to_string().contains("provided IP is already allocated"),
            "{e}"
        );
        let mut outside = json!({"metadata": {"name": "a"}, "spec": {"clusterIP": "10.0.0.1"}});
        let e = allocate_create(&network(), &taken, &mut outside).unwrap_err();
        assert!(
            e.to_string().contains("does not match the current range"),
            "{e}"
        );
        let mut port = json!({"metadata": {"name": "a"}, "spec": {"type": "NodePort", "ports": [{"port": 80, "nodePort": 30000}]}});
        let e = allocate_create(&network(), &taken, &mut port).unwrap_err();
        assert!(
            e.to_string().contains("provided port is already allocated"),
            "{e}"
        );
        // Two free ports left, one per distinct port number (TCP and UDP 53 share one).
        let mut np = json!({"metadata": {"name": "a"}, "spec": {"type": "NodePort", "ports": [
            {"port": 53, "protocol": "TCP"}, {"port": 53, "protocol": "UDP"}, {"port": 80}]}});
        allocate_create(&network(), &taken, &mut np).unwrap();
        let ports: Vec<i64> = np["spec"]["ports"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["nodePort"].as_i64().unwrap())
            .collect();
        assert_eq!(ports[0], ports[1]);
        assert_ne!(ports[0], ports[2]);
        assert!(ports.iter().all(|p| (30001..=30002).contains(p)));
        let mut headless = json!({"metadata": {"name": "h"}, "spec": {"clusterIP": "None"}});
        allocate_create(&network(), &taken, &mut headless).unwrap();
        assert_eq!(headless["spec"]["clusterIPs"], json!(["None"]));
        assert_eq!(headless["spec"]["ipFamilyPolicy"], "RequireDualStack");
        assert_eq!(headless["spec"]["ipFamilies"], json!(["IPv4", "IPv6"]));
    }
}
