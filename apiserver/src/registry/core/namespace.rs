//! Namespaces (Go's `pkg/registry/core/namespace`): names are DNS labels, a new
//! Namespace gets the `kubernetes` finalizer and phase `Active` (and no generation), a deleted one answers
//! with itself, and what Go's controllers do around Namespaces is done here: the
//! default Namespaces exist from the start (the system namespaces controller), and a
//! Namespace's objects are deleted with it (the namespace controller).

use std::sync::Arc;

use apimachinery::api::errors::{self, StatusError};
use apimachinery::runtime::{Object, Scheme};

use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{self, AGE, Column, NAME, Printer, Row, string_column};
use crate::registry::rest::{Context, Resources, RestStorage, TableConvertor};
use crate::registry::strategy::{SelectableField, Strategy};
use crate::registry::validation::NameValidation;
use crate::registry::{DeleteParams, ResourceInfo, Selection, Store, from_value, to_json};

/// The Namespaces every cluster has from the start.
pub const DEFAULT_NAMESPACES: [&str; 4] =
    ["default", "kube-system", "kube-public", "kube-node-lease"];

/// Go's namespace strategy.
#[derive(Clone, Copy, Debug, Default)]
pub struct NamespaceStrategy;

impl Strategy for NamespaceStrategy {
    /// Go's `PrepareForCreate`: the `kubernetes` finalizer and phase `Active`.
    fn prepare_for_create(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        obj: Box<dyn Object>,
    ) -> Result<Box<dyn Object>, StatusError> {
        let mut value = to_json(&*obj)?;
        if let Some(map) = value.as_object_mut() {
            map.insert(
                "spec".into(),
                serde_json::json!({"finalizers": ["kubernetes"]}),
            );
            map.insert("status".into(), serde_json::json!({"phase": "Active"}));
        }
        from_value(scheme, &info.storage_gvk, value)
    }

    /// Go's namespace strategy keeps no generation.
    fn tracks_generation(&self) -> bool {
        false
    }

    fn names(&self) -> NameValidation {
        NameValidation::Label
    }

    fn selectable_fields(&self) -> &'static [SelectableField] {
        &[("status.phase", "/status/phase")]
    }

    fn returns_deleted_object(&self) -> bool {
        true
    }
}

/// The REST storage of Namespaces.
#[derive(Debug)]
pub struct NamespaceStorage {
    store: Arc<Store>,
}

/// The Namespaces' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    Arc::new(NamespaceStorage {
        store: deps.store(info, NamespaceStrategy),
    })
}

/// Go's `namespaceColumnDefinitions`.
pub const COLUMNS: [Column; 3] = [
    NAME,
    string_column("Status", "The status of the namespace", 0),
    AGE,
];

/// The Namespaces' table convertor.
pub static NAMESPACE_TABLE: Printer = Printer {
    api_version: "v1",
    kind: "Namespace",
    columns: &COLUMNS,
    print: print_namespace,
};

/// Go's `printNamespace`: name, phase, age.
pub fn print_namespace(ns: &serde_json::Value) -> Row {
    Row::from(vec![
        ns.pointer("/metadata/name").cloned().unwrap_or_default(),
        serde_json::Value::from(printers::text(ns, "/status/phase")),
        printers::age(ns),
    ])
}

#[async_trait::async_trait]
impl RestStorage for NamespaceStorage {
    fn store(&self) -> &Arc<Store> {
        &self.store
    }

    fn table_convertor(&self) -> Option<&dyn TableConvertor> {
        Some(&NAMESPACE_TABLE)
    }

    /// What the namespace controller does when a Namespace goes: every object in it is
    /// deleted (as a plain delete: objects with finalizers are marked and stay until they
    /// are removed). kube-apiserver leaves this to the controller, which this server does
    /// not run; without it a deleted Namespace's objects would outlive it. Done whether
    /// the Namespace is gone or held by finalizers.
    async fn after_delete(
        &self,
        ctx: &Context<'_>,
        resources: &dyn Resources,
    ) -> Result<(), StatusError> {
        let everything = Selection::default();
        for store in resources.stores() {
            if !store.info().namespaced {
                continue;
            }
            for obj in store.list_all(Some(ctx.name), &everything).await? {
                let name = obj.meta().map(|m| m.name().to_owned()).unwrap_or_default();
                match store
                    .delete(ctx.name, &name, &DeleteParams::default())
                    .await
                {
                    Ok(_) => {}
                    Err(e) if errors::is_not_found(&e) => {}
                    Err(e) => return Err(e),
                }
            }
        }
        Ok(())
    }

    /// Go's system namespaces controller: the default Namespaces are created when they
    /// do not exist yet.
    async fn post_start(&self) -> Result<(), StatusError> {
        let gvk = self.store.info().storage_gvk.clone();
        for name in DEFAULT_NAMESPACES {
            match self.store.get("", name).await {
                Ok(_) => continue,
                Err(e) if errors::is_not_found(&e) => {}
                Err(e) => return Err(e),
            }
            let obj = from_value(
                self.store.scheme(),
                &gvk,
                serde_json::json!({"metadata": {"name": name}}),
            )?;
            match self.store.create("", obj, false).await {
                Ok(_) => {}
                // Another server on the same storage made it first.
                Err(e) if errors::is_already_exists(&e) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
}
