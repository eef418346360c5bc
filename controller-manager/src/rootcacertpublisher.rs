//! The root CA certificate publisher (Go's `pkg/controller/certificates/rootcacertpublisher`):
//! every namespace has the ConfigMap `kube-root-ca.crt` whose `ca.crt` is the CA that
//! verifies the API server, so that Pods can trust `kubernetes.default.svc`. It is
//! created when a namespace is added or becomes active, and put back when changed or
//! deleted.
//!
//! The CA is [`Options::root_ca`](crate::Options::root_ca) when given (Go's
//! `--root-ca-file`), otherwise the one the controllers' own client trusts (Go: the
//! kubeconfig's CA data). A server reached over plain HTTP has none; Go then publishes
//! the ConfigMap with an empty `ca.crt`, and so does this controller.

use std::collections::BTreeMap;
use std::sync::Arc;

use apimachinery::api::errors::has_status_cause;
use controller_runtime::builder::ControllerBuilder;
use controller_runtime::client::ObjectKey;
use controller_runtime::client::delegating::DelegatingClient;
use controller_runtime::handler::EnqueueRequestsFromMapFunc;
use controller_runtime::reconcile::{Action, Reconciler, Request};
use k8s_types::core::v1::{ConfigMap, Namespace};

use crate::names::ROOT_CA_CERTIFICATE_PUBLISHER_CONTROLLER;
use crate::{ControllerContext, Error, NAMESPACE_TERMINATING_CAUSE};

/// The ConfigMap's name (Go's `RootCACertConfigMapName`).
pub const ROOT_CA_CERT_CONFIG_MAP_NAME: &str = "kube-root-ca.crt";
/// The key holding the CA bundle.
pub const CA_CERT_KEY: &str = "ca.crt";
/// The annotation describing the ConfigMap (Go's `DescriptionAnnotation`).
pub const DESCRIPTION_ANNOTATION: &str = "kubernetes.io/description";
/// Its value, Go's `Description`, word for word: clients may compare it.
pub const DESCRIPTION: &str = "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.";

/// Registers the controller: reconciles namespaces; a change to or deletion of a
/// `kube-root-ca.crt` ConfigMap enqueues its namespace.
pub(crate) fn start(context: &ControllerContext<'_>) -> Result<(), Error> {
    let root_ca = match &context.options.root_ca {
        Some(pem) => pem.clone(),
        None => context.config.tls.ca_data.clone().unwrap_or_default(),
    };
    let reconciler = Publisher {
        client: context.manager.client().clone(),
        root_ca: String::from_utf8_lossy(&root_ca).into_owned(),
    };
    ControllerBuilder::new(context.manager)
        .named(ROOT_CA_CERTIFICATE_PUBLISHER_CONTROLLER)
        .for_kind::<Namespace>()
        .watches_kind::<ConfigMap>(EnqueueRequestsFromMapFunc::typed(|cm: &ConfigMap| {
            let ours = cm.metadata.name == ROOT_CA_CERT_CONFIG_MAP_NAME;
            ours.then(|| Request::new("", &cm.metadata.namespace))
                .into_iter()
                .collect()
        }))
        .complete(reconciler)
        .map(|_| ())
        .map_err(|e| Error::register(ROOT_CA_CERTIFICATE_PUBLISHER_CONTROLLER, e))
}

struct Publisher {
    client: DelegatingClient,
    root_ca: String,
}

impl Publisher {
    fn data(&self) -> BTreeMap<String, String> {
        BTreeMap::from([(CA_CERT_KEY.to_owned(), self.root_ca.clone())])
    }
}

impl Reconciler for Publisher {
    type Error = controller_runtime::Error;

    /// Go's `syncNamespace`.
    async fn reconcile(&self, request: Request) -> Result<Action, Self::Error> {
        let key = ObjectKey::new(&request.name, ROOT_CA_CERT_CONFIG_MAP_NAME);
        let current: Arc<ConfigMap> = match self.client.get(&key).await {
            Ok(cm) => cm,
            Err(e) if e.is_not_found() => {
                let mut cm = ConfigMap::default();
                (cm.metadata.namespace, cm.metadata.name) = (key.namespace, key.name);
                cm.metadata
                    .annotations
                    .insert(DESCRIPTION_ANNOTATION.into(), DESCRIPTION.into());
                cm.data = self.data();
                return match self.client.create(&cm, &Default::default()).await {
                    // The namespace is gone or going.
                    Err(e)
                        if e.is_not_found()
                            || e.api().is_some_and(|s| {
                                has_status_cause(s, NAMESPACE_TERMINATING_CAUSE)
                            }) =>
                    {
                        Ok(Action::done())
                    }
                    Err(e) => Err(e),
                    Ok(_) => Ok(Action::done()),
                };
            }
            Err(e) => return Err(e),
        };
        let data = self.data();
        let described = current
            .metadata
            .annotations
            .get(DESCRIPTION_ANNOTATION)
            .is_some_and(|d| !d.is_empty());
        if current.data == data && described {
            return Ok(Action::done());
        }
        let mut cm = ConfigMap::clone(&current);
        cm.data = data;
        cm.metadata
            .annotations
            .insert(DESCRIPTION_ANNOTATION.into(), DESCRIPTION.into());
        self.client.update(&cm, &Default::default()).await?;
        Ok(Action::done())
    }
}
