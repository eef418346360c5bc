//! Admission webhooks served from this process and registered with an API server (Go's
//! `envtest.WebhookInstallOptions`): a CA and a serving certificate made for the local
//! host, the webhook configurations pointed at it, installed, and removed again.

use std::net::{IpAddr, SocketAddr, TcpListener, ToSocketAddrs};
use std::sync::Arc;

use apimachinery::api::ByteString;
use apimachinery::runtime::{Object, Scheme};
use k8s_types::admissionregistration::v1::{
    MutatingWebhookConfiguration, ValidatingWebhookConfiguration, WebhookClientConfig,
};
use rcgen::{CertificateParams, KeyPair, SanType};

use super::EnvtestError;
use super::pki::new_ca;
use crate::client::{Client, ObjectKey};
use crate::config::Config;
use crate::webhook::Server;

/// Webhook configurations to install, served from this process (Go's
/// `envtest.WebhookInstallOptions`). Each webhook's `clientConfig.service.path` says
/// which path of the local [`Server`] answers it: [`install`](Self::install) replaces
/// the service with the URL `https://host:port/path` and sets `caBundle` to the CA of
/// the serving certificate [`server`](Self::server) presents, as Go's
/// `ModifyWebhookDefinitions` does, so the same definitions serve in a cluster (through
/// the Service) and from a laptop. A webhook that already has a `url` keeps it and gets
/// the `caBundle`.
///
/// ```no_run
/// use std::sync::Arc;
/// use controller_runtime::config::Config;
/// use controller_runtime::envtest::WebhookInstallOptions;
/// use controller_runtime::webhook::{AdmissionRequest, Defaulter, DefaultingHandler, Denied};
/// use k8s_types::core::v1::Pod;
///
/// struct Labeller;
/// impl Defaulter<Pod> for Labeller {
///     async fn default(&self, _: &AdmissionRequest, pod: &mut Pod) -> Result<(), Denied> {
///         pod.metadata.labels.insert("defaulted".into(), "true".into());
///         Ok(())
///     }
/// }
///
/// # async fn run(mutating: k8s_types::admissionregistration::v1::MutatingWebhookConfiguration)
/// # -> Result<(), Box<dyn std::error::Error>> {
/// let mut scheme = apimachinery::runtime::Scheme::new();
/// k8s_types::register(&mut scheme)?;
/// let mut webhooks = WebhookInstallOptions {
///     mutating_webhooks: vec![mutating], // clientConfig.service.path: /mutate-v1-pod
///     ..Default::default()
/// };
/// let server = webhooks
///     .server()?
///     .register("/mutate-v1-pod", DefaultingHandler::new(Arc::new(scheme), Labeller))
///     .start(webhooks.local_serving_address()?)
///     .await?;
/// let config = Config::load()?;
/// webhooks.install(&config).await?;
/// // ... until shutdown:
/// webhooks.uninstall(&config).await?;
/// server.stop().await;
/// # Ok(()) }
/// ```
#[derive(Clone, Debug, Default)]
pub struct WebhookInstallOptions {
    /// The `MutatingWebhookConfiguration`s to install.
    pub mutating_webhooks: Vec<MutatingWebhookConfiguration>,
    /// The `ValidatingWebhookConfiguration`s to install.
    pub validating_webhooks: Vec<ValidatingWebhookConfiguration>,
    /// The host the webhooks are served on (`127.0.0.1` when empty): an IP address or a
    /// name resolving to one.
    pub local_serving_host: String,
    /// The port they are served on; 0 picks a free one when the certificate is made
    /// (Go's `addr.Suggest`).
    pub local_serving_port: u16,
    /// The host the API server reaches them at, when not `local_serving_host`.
    pub local_serving_host_external_name: String,
    /// The CA (PEM) of the serving certificate, the webhooks' `caBundle`; made by
    /// [`setup_ca`](Self::setup_ca).
    pub local_serving_ca_data: Vec<u8>,
    /// The serving certificate (PEM) the [`server`](Self::server) presents, signed by
    /// that CA; made by [`setup_ca`](Self::setup_ca). Go writes it to
    /// `LocalServingCertDir/tls.crt`; here it stays in memory.
    pub local_serving_cert_data: Vec<u8>,
    /// The serving certificate's private key (PEM; Go's `tls.key`).
    pub local_serving_key_data: Vec<u8>,
}

impl WebhookInstallOptions {
    /// Makes a CA and a serving certificate it signs for `localhost`, the serving host
    /// and the external name (Go's `setupCA`), and picks the port if it is 0. Kept in
    /// memory: [`server`](Self::server) presents them, nothing is written to disk.
    pub fn setup_ca(&mut self) -> Result<(), EnvtestError> {
        let address = self.local_serving_address()?;
        if self.local_serving_port == 0 {
            let free = TcpListener::bind(address)
                .and_then(|l| l.local_addr())
                .map_err(|source| EnvtestError::Io {
                    path: address.to_string().into(),
                    source,
                })?;
            self.local_serving_port = free.port();
        }
        let certs = |e: rcgen::Error| EnvtestError::Certificates(e.to_string());
        let (ca, ca_key) = new_ca("envtest webhook CA")?;
        let key = KeyPair::generate().map_err(certs)?;
        let mut params = CertificateParams::new(vec!["localhost".to_owned()]).map_err(certs)?;
        for host in [
            &self.local_serving_host,
            &self.local_serving_host_external_name,
        ] {
            let san = match host.parse::<IpAddr>() {
                Ok(ip) => SanType::IpAddress(ip),
                Err(_) if host.is_empty() || host == "localhost" => continue,
                Err(_) => SanType::DnsName(host.as_str().try_into().map_err(certs)?),
            };
            params.subject_alt_names.push(san);
        }
        let cert = params.signed_by(&key, &ca, &ca_key).map_err(certs)?;
        self.local_serving_ca_data = ca.pem().into_bytes();
        self.local_serving_cert_data = cert.pem().into_bytes();
        self.local_serving_key_data = key.serialize_pem().into_bytes();
        Ok(())
    }

    /// A webhook [`Server`] presenting the serving certificate (made first if it was
    /// not yet), to register handlers on and start at
    /// [`local_serving_address`](Self::local_serving_address).
    pub fn server(&mut self) -> Result<Server, EnvtestError> {
        if self.local_serving_cert_data.is_empty() {
            self.setup_ca()?;
        }
        let server = Server::new(&self.local_serving_cert_data, &self.local_serving_key_data)
            .map_err(|e| EnvtestError::Certificates(e.to_string()))?;
        Ok(server.bind_address(self.local_serving_address()?))
    }

    /// Where the webhooks are served: the serving host (resolved) and port.
    pub fn local_serving_address(&self) -> Result<SocketAddr, EnvtestError> {
        let host = self.host();
        let io = |source| EnvtestError::Io {
            path: host.into(),
            source,
        };
        (host, self.local_serving_port)
            .to_socket_addrs()
            .map_err(io)?
            .next()
            .ok_or_else(|| io(std::io::Error::other("the host resolves to no address")))
    }

    /// Points every webhook at the local server and trusts its CA (Go's
    /// `ModifyWebhookDefinitions`): a `service` with a `path` becomes the URL
    /// `https://host:port/path`, and `caBundle` is the serving CA.
    pub fn modify_webhook_definitions(&mut self) {
        let host = match self.local_serving_host_external_name.as_str() {
            "" => self.host().to_owned(),
            external => external.to_owned(),
        };
        let host_port = match host.parse::<IpAddr>() {
            Ok(IpAddr::V6(ip)) => format!("[{ip}]:{}", self.local_serving_port),
            _ => format!("{host}:{}", self.local_serving_port),
        };
        let ca = ByteString(self.local_serving_ca_data.clone());
        let update = |cc: &mut WebhookClientConfig| {
            cc.ca_bundle = Some(ca.clone());
            if let Some(path) = cc.service.as_ref().and_then(|s| s.path.as_deref()) {
                // Joined with one slash: Go's "https://%s/%s" doubles a path's
                // leading one, which a server may not route as the path.
                cc.url = Some(format!(
                    "https://{host_port}/{}",
                    path.trim_start_matches('/')
                ));
                cc.service = None;
            }
        };
        for c in &mut self.mutating_webhooks {
            c.webhooks
                .iter_mut()
                .for_each(|w| update(&mut w.client_config));
        }
        for c in &mut self.validating_webhooks {
            c.webhooks
                .iter_mut()
                .for_each(|w| update(&mut w.client_config));
        }
    }

    /// Makes the certificate if it was not yet, points the webhooks at the local
    /// server and creates them, replacing configurations of the same names (Go's
    /// `Install`, which creates or updates).
    pub async fn install(&mut self, config: &Config) -> Result<(), EnvtestError> {
        if self.local_serving_ca_data.is_empty() {
            self.setup_ca()?;
        }
        self.modify_webhook_definitions();
        let client = admission_client(config)?;
        for c in &self.mutating_webhooks {
            ensure_created(&client, c).await?;
        }
        for c in &self.validating_webhooks {
            ensure_created(&client, c).await?;
        }
        Ok(())
    }

    /// Deletes the installed configurations; missing ones are fine. Go's envtest has no
    /// such step (its API server goes away with the test); a webhook served from a
    /// laptop against a lasting cluster must not leave `failurePolicy: Fail` hooks
    /// pointing at nothing.
    pub async fn uninstall(&self, config: &Config) -> Result<(), EnvtestError> {
        let client = admission_client(config)?;
        for c in &self.mutating_webhooks {
            delete_if_present(&client, c).await?;
        }
        for c in &self.validating_webhooks {
            delete_if_present(&client, c).await?;
        }
        Ok(())
    }

    fn host(&self) -> &str {
        match self.local_serving_host.as_str() {
            "" => "127.0.0.1",
            host => host,
        }
    }
}

/// A client knowing the admissionregistration types.
fn admission_client(config: &Config) -> Result<Client, EnvtestError> {
    let mut scheme = Scheme::new();
    k8s_types::register(&mut scheme)?;
    Ok(Client::new(config, Arc::new(scheme))?)
}

/// Creates `obj`, or updates the one of its name (Go's `ensureCreated`).
async fn ensure_created<T>(client: &Client, obj: &T) -> Result<(), EnvtestError>
where
    T: Object + Default + Clone,
{
    let name = obj.meta().map(|m| m.name().to_owned()).unwrap_or_default();
    match client.get::<T>(&ObjectKey::new("", &name)).await {
        Ok(existing) => {
            let mut obj = obj.clone();
            if let (Some(meta), Some(current)) = (obj.meta_mut(), existing.meta()) {
                meta.set_resource_version(current.resource_version());
            }
            client.update(&obj, &Default::default()).await?;
        }
        Err(e) if e.is_not_found() => {
            client.create(obj, &Default::default()).await?;
        }
        Err(e) => return Err(e.into()),
    }
    Ok(())
}

async fn delete_if_present<T: Object>(client: &Client, obj: &T) -> Result<(), EnvtestError> {
    match client.delete(obj, &Default::default()).await {
        Err(e) if !e.is_not_found() => Err(e.into()),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options() -> WebhookInstallOptions {
        let hook = serde_json::json!({
            "apiVersion": "admissionregistration.k8s.io/v1",
            "kind": "MutatingWebhookConfiguration",
            "metadata": {"name": "m"},
            "webhooks": [
                {"name": "a.example.com", "sideEffects": "None", "admissionReviewVersions": ["v1"],
                 "clientConfig": {"service": {"namespace": "ns", "name": "svc", "path": "/mutate"}}},
                {"name": "b.example.com", "sideEffects": "None", "admissionReviewVersions": ["v1"],
                 "clientConfig": {"url": "https://elsewhere:8443/x"}},
            ],
        });
        WebhookInstallOptions {
            mutating_webhooks: vec![serde_json::from_value(hook).unwrap()],
            ..Default::default()
        }
    }

    #[test]
    fn setup_ca_picks_a_port_and_signs_for_the_host() {
        let mut o = options();
        o.setup_ca().unwrap();
        assert_ne!(o.local_serving_port, 0);
        let address = o.local_serving_address().unwrap();
        assert_eq!(address.ip().to_string(), "127.0.0.1");
        assert_eq!(address.port(), o.local_serving_port);
        let ca = String::from_utf8(o.local_serving_ca_data.clone()).unwrap();
        assert!(ca.starts_with("-----BEGIN CERTIFICATE-----"), "{ca}");
        // The server takes the certificate and key.
        o.server().unwrap();
    }

    #[test]
    fn modify_points_services_at_the_local_server_and_trusts_its_ca() {
        let mut o = options();
        o.local_serving_host = "127.0.0.1".into();
        o.local_serving_port = 9443;
        o.local_serving_ca_data = b"CA".to_vec();
        o.modify_webhook_definitions();
        let hooks = &o.mutating_webhooks[0].webhooks;
        let a = &hooks[0].client_config;
        assert_eq!(a.url.as_deref(), Some("https://127.0.0.1:9443/mutate"));
        assert!(a.service.is_none());
        assert_eq!(a.ca_bundle, Some(ByteString(b"CA".to_vec())));
        // A URL stays; the CA is set.
        let b = &hooks[1].client_config;
        assert_eq!(b.url.as_deref(), Some("https://elsewhere:8443/x"));
        assert_eq!(b.ca_bundle, Some(ByteString(b"CA".to_vec())));
        // The external name wins over the serving host.
        let mut o = options();
        o.local_serving_host_external_name = "::1".into();
        o.local_serving_port = 1;
        o.modify_webhook_definitions();
        let a = &o.mutating_webhooks[0].webhooks[0].client_config;
        assert_eq!(a.url.as_deref(), Some("https://[::1]:1/mutate"));
    }
}
