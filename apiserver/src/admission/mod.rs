//! What may change or refuse a write after it is authorized (Go's
//! `k8s.io/apiserver/pkg/admission`): mutating plugins first, in order, then validating
//! ones, each seeing the object as the request left it, in the resource's storage
//! version (a plugin that needs another version converts with [`Attributes::scheme`]).
//!
//! A server runs [`Chain::for_server`]: the built-in [`plugin`]s that
//! [`crate::server::Config::admission_plugins`] enables ([`plugins`]: Go's names, order
//! and defaults), the plugins given to [`crate::server::Config::admission`], and the
//! dynamic [`webhook`]s of the `admissionregistration.k8s.io/v1` configurations it stores.
//! Creates, updates, patches (`/status` and `/scale` included: `/scale` is admitted as
//! an autoscaling/v1 `Scale`) and deletes (with the object as `old_object`) are
//! admitted; nothing is stored when a plugin refuses.

pub mod plugin;
pub mod plugins;
pub mod webhook;

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::sync::{Arc, Mutex};

use apimachinery::api::errors::StatusError;
use apimachinery::runtime::{Object, Scheme};
use apimachinery::schema::{GroupVersionKind, GroupVersionResource};

use crate::authentication::user::Info;

/// The operation admitted (Go's `admission.Operation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operation {
    /// A create.
    Create,
    /// An update or patch.
    Update,
    /// A delete.
    Delete,
    /// A connect (exec, attach, port-forward, proxy).
    Connect,
}

impl Operation {
    /// The name Go uses (`CREATE`, `UPDATE`, ...), as in `AdmissionReview` and webhook
    /// rules.
    pub fn as_str(self) -> &'static str {
        match self {
            Operation::Create => "CREATE",
            Operation::Update => "UPDATE",
            Operation::Delete => "DELETE",
            Operation::Connect => "CONNECT",
        }
    }
}

/// What a plugin sees of a write (Go's `admission.Attributes`).
#[derive(Debug)]
pub struct Attributes {
    /// The operation.
    pub operation: Operation,
    /// Who asks.
    pub user: Info,
    /// The kind in the version of the request's path.
    pub kind: GroupVersionKind,
    /// The resource in the version of the request's path.
    pub resource: GroupVersionResource,
    /// The subresource, such as `status`; empty for the main resource.
    pub subresource: String,
    /// The namespace, empty for cluster-scoped resources.
    pub namespace: String,
    /// The object's name (empty on a create with `generateName`).
    pub name: String,
    /// The new object, in the storage version (none on delete).
    pub object: Option<Box<dyn Object>>,
    /// The current object, in the storage version (on update and delete).
    pub old_object: Option<Box<dyn Object>>,
    /// Whether the request is a dry run (nothing is stored; plugins with side effects
    /// must not act).
    pub dry_run: bool,
    /// The scheme, for plugins that convert or encode the object.
    pub scheme: Arc<Scheme>,
    /// What plugins report beside their decision (warnings, audit annotations).
    pub reports: Reports,
}

impl Attributes {
    /// Replaces the request's object with `json`, read at the object's own version.
    pub fn set_object_json(&mut self, json: serde_json::Value) -> Result<(), StatusError> {
        let Some(object) = &self.object else {
            return Ok(());
        };
        let gvk = object.group_version_kind();
        self.object = Some(crate::registry::from_value(&self.scheme, &gvk, json)?);
        Ok(())
    }

    /// A refusal of this request by a plugin (Go's `admission.NewForbidden`): 403 for
    /// the resource and the object's name, or its `generateName` before a name is
    /// generated, or `Unknown`.
    pub fn forbidden(&self, err: impl std::fmt::Display) -> StatusError {
        let meta = self.object.as_deref().and_then(|o| o.meta());
        let name = if !self.name.is_empty() {
            self.name.clone()
        } else if let Some(meta) = meta {
            match (meta.name(), meta.generate_name()) {
                (name, _) if !name.is_empty() => name.to_owned(),
                (_, generate) if !generate.is_empty() => generate.to_owned(),
                _ => "Unknown".to_owned(),
            }
        } else if self.object.is_some() {
            "Unknown/errorGettingName".to_owned()
        } else {
            "Unknown".to_owned()
        };
        apimachinery::api::errors::new_forbidden(&self.resource.group_resource(), &name, err)
    }
}

/// What admission plugins report beside admitting or refusing (Go's
/// `AddAnnotation` and `warning.AddWarning`): warnings for the client's `Warning`
/// headers and audit annotations. Validating plugins see the attributes shared, so
/// this records through a shared reference.
#[derive(Debug, Default)]
pub struct Reports {
    inner: Mutex<(Vec<String>, BTreeMap<String, String>)>,
}

impl Reports {
    /// Adds a warning for the client.
    pub fn add_warning(&self, warning: &str) {
        if let Ok(mut inner) = self.inner.lock() {
            inner.0.push(warning.to_owned());
        }
    }

    /// Adds an audit annotation; the first value of a key stays, as in Go.
    pub fn add_audit_annotation(&self, key: &str, value: &str) {
        if let Ok(mut inner) = self.inner.lock() {
            inner
                .1
                .entry(key.to_owned())
                .or_insert_with(|| value.to_owned());
        }
    }

    /// The warnings, in the order they were added.
    pub fn warnings(&self) -> Vec<String> {
        self.inner.lock().map(|i| i.0.clone()).unwrap_or_default()
    }

    /// The audit annotations.
    pub fn audit_annotations(&self) -> BTreeMap<String, String> {
        self.inner.lock().map(|i| i.1.clone()).unwrap_or_default()
    }
}

/// A plugin that may change the object (Go's `admission.MutationInterface`).
#[async_trait::async_trait]
pub trait MutationInterface: Send + Sync + Debug {
    /// Whether the plugin looks at `operation` at all.
    fn handles(&self, operation: Operation) -> bool;
    /// Changes `attributes.object`, or refuses the write with the Status to answer.
    async fn admit(&self, attributes: &mut Attributes) -> Result<(), StatusError>;
}

/// A plugin that may refuse the write (Go's `admission.ValidationInterface`).
#[async_trait::async_trait]
pub trait ValidationInterface: Send + Sync + Debug {
    /// Whether the plugin looks at `operation` at all.
    fn handles(&self, operation: Operation) -> bool;
    /// Refuses the write with the Status to answer, or lets it go on.
    async fn validate(&self, attributes: &Attributes) -> Result<(), StatusError>;
}

/// The server's admission plugins (Go's `admission.chainAdmissionHandler`): every
/// mutating plugin in order, then every validating one.
#[derive(Clone, Debug, Default)]
pub struct Chain {
    mutating: Vec<Arc<dyn MutationInterface>>,
    validating: Vec<Arc<dyn ValidationInterface>>,
}

impl Chain {
    /// A chain with no plugins: every write is admitted as it is.
    pub fn new() -> Chain {
        Chain::default()
    }

    /// Adds a mutating plugin after those already there.
    pub fn with_mutating(mut self, plugin: Arc<dyn MutationInterface>) -> Chain {
        self.mutating.push(plugin);
        self
    }

    /// Adds a validating plugin after those already there.
    pub fn with_validating(mut self, plugin: Arc<dyn ValidationInterface>) -> Chain {
        self.validating.push(plugin);
        self
    }

    /// The chain a server runs: the built-in plugins `plugins` enables that this
    /// server implements, in Go's order ([`plugins::ALL_ORDERED_PLUGINS`]), then the
    /// `configured` mutating and validating plugins, then the dynamic webhooks (when
    /// enabled), all reading the server's `stores` (by group and resource).
    pub fn for_server(
        plugins: &plugins::PluginSelection,
        configured: &Chain,
        stores: &BTreeMap<(String, String), Arc<crate::registry::Store>>,
        resolver: Arc<dyn webhook::ServiceResolver>,
    ) -> Chain {
        let mut chain = Chain::new();
        for name in plugins.enabled() {
            match name {
                plugins::NAMESPACE_LIFECYCLE => {
                    if let Some(lifecycle) = plugin::NamespaceLifecycle::for_stores(stores) {
                        chain = chain.with_mutating(Arc::new(lifecycle));
                    }
                }
                plugins::SERVICE_ACCOUNT => {
                    if let Some(accounts) = plugin::ServiceAccount::for_stores(stores) {
                        let accounts = Arc::new(accounts);
                        chain = chain
                            .with_mutating(accounts.clone())
                            .with_validating(accounts);
                    }
                }
                plugins::PRIORITY => chain = chain.with_mutating(Arc::new(plugin::Priority)),
                plugins::DEFAULT_TOLERATION_SECONDS => {
                    chain = chain.with_mutating(Arc::new(plugin::DefaultTolerationSeconds));
                }
                plugins::STORAGE_OBJECT_IN_USE_PROTECTION => {
                    chain = chain.with_mutating(Arc::new(plugin::StorageObjectInUseProtection));
                }
                plugins::TAINT_NODES_BY_CONDITION => {
                    chain = chain.with_mutating(Arc::new(plugin::TaintNodesByCondition));
                }
                plugins::CERTIFICATE_SUBJECT_RESTRICTION => {
                    chain = chain.with_validating(Arc::new(plugin::CertificateSubjectRestriction));
                }
                plugins::DEFAULT_INGRESS_CLASS => {
                    if let Some(classes) = plugin::DefaultIngressClass::for_stores(stores) {
                        chain = chain.with_mutating(Arc::new(classes));
                    }
                }
                _ => {}
            }
        }
        chain.mutating.extend(configured.mutating.iter().cloned());
        chain
            .validating
            .extend(configured.validating.iter().cloned());
        let webhooks = Arc::new(webhook::Webhooks::new(stores.clone(), resolver));
        if plugins.is_enabled(plugins::MUTATING_ADMISSION_WEBHOOK) {
            chain = chain.with_mutating(Arc::new(webhook::MutatingWebhooks(webhooks.clone())));
        }
        if plugins.is_enabled(plugins::VALIDATING_ADMISSION_WEBHOOK) {
            chain = chain.with_validating(Arc::new(webhook::ValidatingWebhooks(webhooks)));
        }
        chain
    }

    /// Runs the mutating plugins, then the validating ones; the first refusal ends it.
    pub async fn run(&self, attributes: &mut Attributes) -> Result<(), StatusError> {
        for plugin in &self.mutating {
            if plugin.handles(attributes.operation) {
                plugin.admit(attributes).await?;
            }
        }
        for plugin in &self.validating {
            if plugin.handles(attributes.operation) {
                plugin.validate(attributes).await?;
            }
        }
        Ok(())
    }
}
