//! CustomResourceDefinitions (Go's apiextensions-apiserver
//! `pkg/registry/customresourcedefinition`): a CRD written is checked as Go's validation
//! checks it (its name, and every version's schema present and structural), and its
//! first delete adds the cleanup finalizer, so the CRD stays (terminating) until the
//! controller has deleted its objects.

use std::sync::Arc;

use apimachinery::api::errors::StatusError;
use apimachinery::runtime::{Object, Scheme};
use apimachinery::schema::GroupVersion;
use serde_json::Value;

use crate::apiextensions::CLEANUP_FINALIZER;
use crate::apiextensions::controller::{GROUP, write};
use crate::apiextensions::validation::check_definition;
use crate::registry::dependencies::Dependencies;
use crate::registry::rest::{Context, RestStorage};
use crate::registry::strategy::{Strategy, Subresource};
use crate::registry::{ResourceInfo, Store, convert, to_json, validation};

/// Go's CRD strategy.
#[derive(Clone, Copy, Debug, Default)]
pub struct CustomResourceDefinitionStrategy;

impl Strategy for CustomResourceDefinitionStrategy {
    /// Go's `Validate` and `ValidateUpdate`: the scheme's validator, then
    /// apiextensions' checks of the CRD (on its v1 form) when the write is of the CRD
    /// itself.
    fn validate(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        obj: &dyn Object,
        old: Option<&dyn Object>,
        subresource: Subresource,
    ) -> Result<(), StatusError> {
        if subresource == Subresource::Status {
            return validation::validate_object_meta(info, self.names(), obj);
        }
        validation::validate(scheme, info, self.names(), obj, old)?;
        let v1 = convert(
            scheme,
            obj.deep_copy_object(),
            &GroupVersion::new(GROUP, "v1"),
        )?;
        check_definition(&to_json(&*v1)?)
    }
}

/// The REST storage of CRDs.
#[derive(Debug)]
pub struct CustomResourceDefinitionStorage {
    store: Arc<Store>,
}

/// The CRDs' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    Arc::new(CustomResourceDefinitionStorage {
        store: deps.store(info, CustomResourceDefinitionStrategy),
    })
}

#[async_trait::async_trait]
impl RestStorage for CustomResourceDefinitionStorage {
    fn store(&self) -> &Arc<Store> {
        &self.store
    }

    /// Go's CRD `Delete`: the first delete of a CRD adds the cleanup finalizer, so the
    /// CRD stays (terminating) until its objects are deleted.
    async fn before_delete(&self, ctx: &Context<'_>) -> Result<(), StatusError> {
        if ctx.dry_run {
            return Ok(());
        }
        let current = self.store.get("", ctx.name).await?;
        let has = current.meta().is_some_and(|m| {
            m.deletion_timestamp().is_some()
                || m.finalizers().iter().any(|f| f == CLEANUP_FINALIZER)
        });
        if has {
            return Ok(());
        }
        write(
            self.store.scheme(),
            &self.store,
            ctx.name,
            Subresource::Main,
            |v| {
                let meta = &mut v["metadata"];
                match meta.get_mut("finalizers").and_then(Value::as_array_mut) {
                    Some(list) => list.push(Value::from(CLEANUP_FINALIZER)),
                    None => meta["finalizers"] = serde_json::json!([CLEANUP_FINALIZER]),
                }
            },
        )
        .await
    }
}
