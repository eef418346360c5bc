//! Namespaces (Go's `pkg/registry/core/namespace`): names are DNS labels, a new
//! Namespace gets the `kubernetes` finalizer and phase `Active` (and no generation), and
//! the default Namespaces exist from the start (Go's system namespaces controller).
//!
//! Deletion is kube-apiserver's: the first delete only marks the Namespace
//! (`deletionTimestamp`, phase `Terminating`, the `orphan` or `foregroundDeletion`
//! finalizer its propagation policy asks for) and answers it; it goes once its
//! `spec.finalizers` are empty — written through `/finalize`, by the namespace
//! controller after it has deleted the Namespace's objects (the `controller-manager`
//! crate's, run by `kapi serve --controllers=namespace`) — and its metadata finalizers too.
//! Without that controller a deleted Namespace stays `Terminating`, as on a
//! kube-apiserver without kube-controller-manager (envtest's).

use std::sync::Arc;

use apimachinery::api::errors::{self, StatusError};
use apimachinery::apis::meta::v1::Time;
use apimachinery::apis::meta::v1::validation::validate_finalizer_name;
use apimachinery::runtime::{Object, Scheme};
use apimachinery::schema::GroupResource;
use apimachinery::util::validation::field::{Error, ErrorList, Path};

use super::sub;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{self, AGE, Column, NAME, Printer, Row, string_column};
use crate::registry::rest::{Context, RestStorage, TableConvertor};
use crate::registry::strategy::{SelectableField, Strategy, Subresource};
use crate::registry::validation::NameValidation;
use crate::registry::{DeleteParams, ResourceInfo, Store, from_value, to_json};

/// The finalizer a new Namespace gets in `spec.finalizers` (Go's
/// `FinalizerKubernetes`), which the namespace controller removes.
pub const FINALIZER_KUBERNETES: &str = "kubernetes";

/// The finalizer names that need no domain (Go's core `standardFinalizers`).
const STANDARD_FINALIZERS: [&str; 3] = [FINALIZER_KUBERNETES, "orphan", "foregroundDeletion"];

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
                serde_json::json!({"finalizers": [FINALIZER_KUBERNETES]}),
            );
            map.insert("status".into(), serde_json::json!({"phase": "Active"}));
        }
        from_value(scheme, &info.storage_gvk, value)
    }

    /// Go's namespace strategy keeps no generation.
    fn tracks_generation(&self) -> bool {
        false
    }

    /// Go's three `PrepareForUpdate`s: a write of the Namespace keeps `spec.finalizers`
    /// and the status as stored, `/status` the spec, `/finalize` the status.
    fn prepare_for_update(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        old: &dyn Object,
        new: Box<dyn Object>,
        subresource: Subresource,
    ) -> Result<Box<dyn Object>, StatusError> {
        let new = crate::registry::strategy::prepare_for_update(
            scheme,
            info,
            old,
            new,
            subresource,
            |_, _, _| false,
        )?;
        if subresource != Subresource::Main {
            return Ok(new);
        }
        let mut value = to_json(&*new)?;
        let kept = to_json(old)?.pointer("/spec/finalizers").cloned();
        if let Some(spec) = value.get_mut("spec").and_then(|s| s.as_object_mut()) {
            match kept {
                Some(finalizers) => spec.insert("finalizers".into(), finalizers),
                None => spec.remove("finalizers"),
            };
        }
        from_value(scheme, &info.storage_gvk, value)
    }

    /// A `/finalize` write is Go's `ValidateNamespaceFinalizeUpdate`: the metadata, and
    /// each of `spec.finalizers` a finalizer name.
    fn validate(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        obj: &dyn Object,
        old: Option<&dyn Object>,
        subresource: Subresource,
    ) -> Result<(), StatusError> {
        let names = self.names();
        match subresource {
            Subresource::Main => {
                return crate::registry::validation::validate(scheme, info, names, obj, old);
            }
            // Go's ValidateNamespaceStatusUpdate, the kind's `/status` validator: the
            // phase follows the deletion timestamp.
            Subresource::Status => {
                return crate::registry::validation::validate_status(scheme, info, names, obj, old);
            }
            Subresource::Resize | Subresource::EphemeralContainers | Subresource::Approval => {
                return crate::registry::validation::validate_object_meta(info, names, obj);
            }
            // The metadata, then each finalizer by its index.
            Subresource::Finalize => {
                crate::registry::validation::validate_object_meta(info, names, obj)?;
            }
        }
        let spec = Path::new("spec");
        let list = spec.child("finalizers");
        let mut errs = ErrorList::default();
        for (i, f) in spec_finalizers(obj)?.iter().enumerate() {
            let path = list.index(i);
            errs.extend(validate_finalizer_name(f, &path));
            // Go's core validateFinalizerName (k8s-types' too, which this crate does
            // not depend on): a name without a domain must be a standard one.
            if !f.contains('/') && !STANDARD_FINALIZERS.contains(&f.as_str()) {
                errs.push(Error::invalid(
                    &path,
                    f,
                    "name is neither a standard finalizer name nor is it fully qualified",
                ));
            }
        }
        if errs.is_empty() {
            return Ok(());
        }
        let name = obj.meta().map(|m| m.name().to_owned()).unwrap_or_default();
        Err(errors::new_invalid(&info.qualified_kind(), &name, &errs))
    }

    /// A Namespace is held by its `spec.finalizers` too (Go's
    /// `ShouldDeleteNamespaceDuringUpdate`).
    fn finalized(&self, obj: &dyn Object) -> bool {
        spec_finalizers(obj).is_ok_and(|f| f.is_empty())
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
pub(super) fn storage(mut info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    // `finalize` (served: see `finalizes`), besides `status`.
    info.subresources = vec![sub("finalize", "Namespace", &["update"])];
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

    fn finalizes(&self) -> bool {
        true
    }

    fn deletes_itself(&self) -> bool {
        true
    }

    /// Go's Namespace `Delete`: the preconditions checked with its words; a Namespace
    /// not yet deleted is marked (`deletionTimestamp`, phase `Terminating`, and the
    /// `orphan`/`foregroundDeletion` finalizers as the delete's policy says) and
    /// answered; one marked still holding `spec.finalizers` is answered as it is; one
    /// without them is left to the store (gone, or marked until its finalizers go).
    async fn before_delete(
        &self,
        ctx: &Context<'_>,
        params: &DeleteParams,
    ) -> Result<Option<Box<dyn Object>>, StatusError> {
        let current = self.store.get("", ctx.name).await?;
        let (uid, rv, marked) = current
            .meta()
            .map(|m| {
                (
                    m.uid().to_owned(),
                    m.resource_version().to_owned(),
                    m.deletion_timestamp().is_some(),
                )
            })
            .unwrap_or_default();
        let resource = GroupResource::new("", "namespaces");
        params.check_own_preconditions(&resource, ctx.name, &uid, &rv)?;
        if marked {
            return Ok(if spec_finalizers(&*current)?.is_empty() {
                None
            } else {
                Some(current)
            });
        }
        let scheme = self.store.scheme().clone();
        let gvk = self.store.info().storage_gvk.clone();
        let now = Time::now();
        let marked = self
            .store
            .update_stored("", ctx.name, ctx.dry_run, |mut stored| {
                // Checked again on what is written (Go's GuaranteedUpdate preconditions).
                let (uid, rv) = stored
                    .meta()
                    .map(|m| (m.uid().to_owned(), m.resource_version().to_owned()))
                    .unwrap_or_default();
                params.check_own_preconditions(&resource, ctx.name, &uid, &rv)?;
                if let Some(meta) = stored.meta_mut() {
                    if meta.deletion_timestamp().is_none() {
                        meta.set_deletion_timestamp(Some(now));
                    }
                    let mut finalizers = meta.finalizers();
                    for (finalizer, wanted) in [
                        (
                            "orphan",
                            params.should_orphan(finalizers.iter().any(|f| f == "orphan")),
                        ),
                        (
                            "foregroundDeletion",
                            params.should_delete_dependents(
                                finalizers.iter().any(|f| f == "foregroundDeletion"),
                            ),
                        ),
                    ] {
                        let has = finalizers.iter().any(|f| f == finalizer);
                        if wanted && !has {
                            finalizers.push(finalizer.to_owned());
                        } else if !wanted && has {
                            finalizers.retain(|f| f != finalizer);
                        }
                    }
                    meta.set_finalizers(finalizers);
                }
                let mut value = to_json(&*stored)?;
                if let Some(obj) = value.as_object_mut() {
                    let status = obj.entry("status").or_insert_with(|| serde_json::json!({}));
                    if let Some(status) = status.as_object_mut() {
                        status.insert("phase".into(), "Terminating".into());
                    }
                }
                from_value(&scheme, &gvk, value)
            })
            .await?;
        Ok(Some(marked))
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

/// A Namespace's `spec.finalizers`.
fn spec_finalizers(obj: &dyn Object) -> Result<Vec<String>, StatusError> {
    let value = to_json(obj)?;
    Ok(value
        .pointer("/spec/finalizers")
        .and_then(|f| f.as_array())
        .map(|f| {
            f.iter()
                .filter_map(|x| x.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default())
}
