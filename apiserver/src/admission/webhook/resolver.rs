//! Where a webhook's `clientConfig.service` is reached: through DNS, as in a cluster, or
//! at fixed addresses.

use std::collections::BTreeMap;
use std::fmt::Debug;

use super::client::{CallError, Endpoint};
use super::configuration::ServiceReference;

/// Where a webhook's `clientConfig.service` is reached.
pub trait ServiceResolver: Send + Sync + Debug {
    /// The endpoint of `service` (its `path` and `port` already defaulted to `/` and
    /// 443 by the caller).
    fn resolve(
        &self,
        service: &ServiceReference,
        path: &str,
        port: u16,
    ) -> Result<Endpoint, CallError>;
}

/// The default resolver: `https://NAME.NAMESPACE.svc:PORT/PATH`, through DNS.
#[derive(Clone, Copy, Debug, Default)]
pub struct DnsServiceResolver;

impl ServiceResolver for DnsServiceResolver {
    fn resolve(
        &self,
        service: &ServiceReference,
        path: &str,
        port: u16,
    ) -> Result<Endpoint, CallError> {
        let host = format!("{}.{}.svc", service.name, service.namespace);
        Ok(Endpoint {
            url: format!("https://{host}:{port}{path}"),
            server_name: host.clone(),
            host,
            port,
            path: path.to_owned(),
        })
    }
}

/// Services at fixed addresses: each `(namespace, name)` is reached at a socket
/// address, its certificate still checked for `NAME.NAMESPACE.svc` (for tests and
/// single-machine set-ups, where no DNS knows the Service).
#[derive(Clone, Debug, Default)]
pub struct StaticServiceResolver {
    addresses: BTreeMap<(String, String), std::net::SocketAddr>,
}

impl StaticServiceResolver {
    /// A resolver knowing no Service.
    pub fn new() -> Self {
        Self::default()
    }

    /// Reaches Service `namespace/name` at `address` (whatever the port it names).
    pub fn with(mut self, namespace: &str, name: &str, address: std::net::SocketAddr) -> Self {
        self.addresses
            .insert((namespace.to_owned(), name.to_owned()), address);
        self
    }
}

impl ServiceResolver for StaticServiceResolver {
    fn resolve(
        &self,
        service: &ServiceReference,
        path: &str,
        port: u16,
    ) -> Result<Endpoint, CallError> {
        let key = (service.namespace.clone(), service.name.clone());
        match self.addresses.get(&key) {
            Some(address) => Ok(Endpoint {
                url: format!("https://{address}{path}"),
                host: address.ip().to_string(),
                port: address.port(),
                path: path.to_owned(),
                server_name: format!("{}.{}.svc", service.name, service.namespace),
            }),
            None => DnsServiceResolver.resolve(service, path, port),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn services_resolve_to_their_cluster_name_or_a_fixed_address() {
        let service = ServiceReference {
            namespace: "hooks".into(),
            name: "pods".into(),
            ..ServiceReference::default()
        };
        let e = DnsServiceResolver
            .resolve(&service, "/mutate", 8443)
            .unwrap();
        assert_eq!(e.url, "https://pods.hooks.svc:8443/mutate");
        assert_eq!(e.server_name, "pods.hooks.svc");
        let fixed =
            StaticServiceResolver::new().with("hooks", "pods", "127.0.0.1:9443".parse().unwrap());
        let e = fixed.resolve(&service, "/mutate", 443).unwrap();
        assert_eq!((e.host.as_str(), e.port), ("127.0.0.1", 9443));
        assert_eq!(e.server_name, "pods.hooks.svc");
    }
}
