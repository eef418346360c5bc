//! Custom resources (Go's apiextensions-apiserver `pkg/registry/customresource`): the
//! objects of an established CRD are [`Unstructured`], stored as JSON at the storage
//! version under `/registry/<group>/<plural>`, pruned, defaulted and validated by their
//! version's schema, converted through the CRD's webhook when it has one, scaled and
//! printed as the CRD says, and refused new objects while the CRD is terminating.

use std::sync::Arc;

use apimachinery::api::errors::{self, StatusError};
use apimachinery::managedfields::fieldpath::{Path, PathElement};
use apimachinery::runtime::{Object, Scheme, Unstructured};
use serde_json::{Map, Value};

use crate::apiextensions::conversion::ConversionWebhook;
use crate::apiextensions::{Conversion, CustomResource, ScaleSubresource, table};
use crate::endpoints::responsewriters::method_not_allowed;
use crate::registry::rest::{Context, RestStorage, Scaler, TableConvertor};
use crate::registry::status_metadata::StatusMetadata;
use crate::registry::strategy::{
    FieldValidation, Strategy, Subresource, WebhookConverter, prepare_for_update,
};
use crate::registry::{ResourceInfo, Store, scale_metadata};
use crate::storage::Storage;

/// Go's custom resource strategy, for one CRD's objects.
#[derive(Debug)]
pub struct CustomResourceStrategy {
    definition: Arc<CustomResource>,
    webhook: Option<DefinitionWebhook>,
}

impl CustomResourceStrategy {
    /// The strategy of `definition`'s objects.
    pub fn new(definition: Arc<CustomResource>) -> Self {
        let webhook = match &definition.conversion {
            Conversion::Webhook(config) => Some(DefinitionWebhook {
                name: definition.name.clone(),
                kind: definition.kind.clone(),
                webhook: ConversionWebhook::new(config),
            }),
            Conversion::None => None,
        };
        CustomResourceStrategy {
            definition,
            webhook,
        }
    }
}

/// Go's custom resource strategy: any change outside metadata is a new generation
/// (status changes through `/status` are not).
fn changed_outside_metadata(old: &Value, new: &Value, subresource: Subresource) -> bool {
    let without_metadata = |v: &Value| -> Vec<(String, Value)> {
        v.as_object()
            .map(|m| {
                m.iter()
                    .filter(|(k, _)| k.as_str() != "metadata")
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect()
            })
            .unwrap_or_default()
    };
    subresource == Subresource::Main && without_metadata(old) != without_metadata(new)
}

impl Strategy for CustomResourceStrategy {
    /// Go's `AllowUnconditionalUpdate` is false: an update names the version it replaces.
    fn allow_unconditional_update(&self) -> bool {
        false
    }

    fn prepare_for_update(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        old: &dyn Object,
        new: Box<dyn Object>,
        subresource: Subresource,
    ) -> Result<Box<dyn Object>, StatusError> {
        prepare_for_update(
            scheme,
            info,
            old,
            new,
            subresource,
            changed_outside_metadata,
        )
    }

    fn is_unstructured(&self) -> bool {
        true
    }

    fn decorates(&self) -> bool {
        true
    }

    /// Go defaults custom resources as they are read, with the storage version's
    /// schema (what was stored before a default was added gets it).
    fn decorate(&self, obj: &mut dyn Object) {
        if let Some(u) = obj.downcast_mut::<Unstructured>() {
            let mut value = Value::Object(std::mem::take(&mut u.object));
            self.definition.default_stored(&mut value);
            if let Value::Object(map) = value {
                u.object = map;
            }
        }
    }

    fn admit_decoded(
        &self,
        version: &str,
        obj: &mut Value,
        name: &str,
        validation: FieldValidation,
        warnings: &mut Vec<String>,
    ) -> Result<(), StatusError> {
        self.definition
            .admit(version, obj, name, validation, warnings)
    }

    fn webhook_converter(&self) -> Option<&dyn WebhookConverter> {
        self.webhook.as_ref().map(|w| w as &dyn WebhookConverter)
    }
}

/// A CRD's conversion webhook, made once per served definition.
#[derive(Debug)]
struct DefinitionWebhook {
    /// The CRD's name and the objects' kind, for errors and reviews.
    name: String,
    kind: String,
    /// The webhook's client, or why the CRD's `clientConfig` cannot make one.
    webhook: Result<ConversionWebhook, String>,
}

#[async_trait::async_trait]
impl WebhookConverter for DefinitionWebhook {
    async fn convert(
        &self,
        objects: Vec<Value>,
        api_version: &str,
    ) -> Result<Vec<Value>, StatusError> {
        let webhook = self.webhook.as_ref().map_err(|e| {
            errors::new_internal_error(format!("conversion webhook for {}: {e}", self.name))
        })?;
        webhook
            .convert(&self.kind, objects, api_version)
            .await
            .map_err(|e| {
                tracing::warn!(crd = %self.name, error = %e, "conversion webhook failed");
                errors::new_internal_error(e)
            })
    }
}

/// The REST storage of one CRD's objects.
#[derive(Debug)]
pub struct CustomResourceStorage {
    definition: Arc<CustomResource>,
    store: Arc<Store>,
    scaler: Option<CustomResourceScale>,
    table: CustomResourceTable,
}

impl CustomResourceStorage {
    /// The storage of `definition`'s objects in `storage`.
    pub fn new(
        scheme: Arc<Scheme>,
        storage: Arc<dyn Storage>,
        definition: Arc<CustomResource>,
    ) -> Self {
        let strategy = Arc::new(CustomResourceStrategy::new(definition.clone()));
        // Go's custom resource status strategy copies the whole stored object but its
        // status (and the managed fields recording the write).
        let store = Arc::new(
            Store::new(scheme, storage, definition.resource_info(), strategy)
                .with_status_metadata(StatusMetadata::WHOLE),
        );
        let scaler = definition
            .versions
            .iter()
            .any(|v| v.scale.is_some())
            .then(|| CustomResourceScale(definition.clone()));
        CustomResourceStorage {
            table: CustomResourceTable(definition.clone()),
            definition,
            store,
            scaler,
        }
    }

    /// The definition served.
    pub fn definition(&self) -> &Arc<CustomResource> {
        &self.definition
    }
}

#[async_trait::async_trait]
impl RestStorage for CustomResourceStorage {
    fn store(&self) -> &Arc<Store> {
        &self.store
    }

    /// Go's custom resource `PrepareForCreate`: a create cannot set the status when the
    /// request's version serves `/status` (each version has its strategy, with its
    /// subresources); at a version without one the status written is stored.
    async fn begin_create(
        &self,
        ctx: &Context<'_>,
        obj: Box<dyn Object>,
    ) -> Result<Box<dyn Object>, StatusError> {
        let mut obj = obj;
        if self.store.info().has_status_at(ctx.version) {
            if let Some(u) = obj.downcast_mut::<Unstructured>() {
                u.object.remove("status");
            }
        }
        Ok(obj)
    }

    fn scaler(&self) -> Option<&dyn Scaler> {
        self.scaler.as_ref().map(|s| s as &dyn Scaler)
    }

    fn table_convertor(&self) -> Option<&dyn TableConvertor> {
        Some(&self.table)
    }

    fn check_create(&self) -> Result<(), StatusError> {
        if self.definition.terminating {
            return Err(StatusError::failure(
                405,
                errors::reason::METHOD_NOT_ALLOWED,
                "create not allowed while custom resource definition is terminating",
            ));
        }
        Ok(())
    }

    /// Watches of another version than the storage one would need the conversion
    /// webhook for every event, which this server does not call.
    fn version_warning(&self, version: &str) -> Option<&str> {
        self.definition
            .version(version)
            .and_then(|v| v.deprecation_warning.as_deref())
    }

    fn check_watch(&self, version: &str, path: &str) -> Result<(), StatusError> {
        let webhook = matches!(self.definition.conversion, Conversion::Webhook(_));
        let storage_version = &self.definition.storage_version().name;
        if webhook && version != storage_version {
            return Err(method_not_allowed(
                "watch",
                &format!(
                    "{path}: this server does not call conversion webhooks for watches; watch the storage version {storage_version}"
                ),
            ));
        }
        Ok(())
    }
}

/// A CRD's `/scale`: its version's replica and selector paths (Go's
/// `scaleFromCustomResource`: a path that is not set reads as 0 or "").
#[derive(Debug)]
struct CustomResourceScale(Arc<CustomResource>);

impl CustomResourceScale {
    /// The scale paths of `version` (the storage version's, where objects are read,
    /// when it has none).
    fn paths(&self, version: &str) -> Option<ScaleSubresource> {
        self.0
            .version(version)
            .and_then(|v| v.scale.clone())
            .or_else(|| self.0.versions.iter().find_map(|v| v.scale.clone()))
    }
}

impl Scaler for CustomResourceScale {
    fn scale_of(&self, version: &str, obj: &Value) -> Value {
        let paths = self.paths(version).unwrap_or_default();
        let find = |p: &str| table::find(obj, p).cloned();
        let selector = paths
            .label_selector_path
            .as_deref()
            .and_then(find)
            .and_then(|s| s.as_str().map(str::to_owned))
            .unwrap_or_default();
        serde_json::json!({
            "metadata": scale_metadata(obj),
            "spec": {"replicas": find(&paths.spec_replicas_path).and_then(|r| r.as_i64()).unwrap_or(0)},
            "status": {
                "replicas": find(&paths.status_replicas_path).and_then(|r| r.as_i64()).unwrap_or(0),
                "selector": selector,
            },
        })
    }

    fn set_replicas(&self, version: &str, obj: &mut Value, replicas: i64) {
        if let Some(paths) = self.paths(version) {
            set_simple_path(obj, &paths.spec_replicas_path, replicas);
        }
    }

    /// The version's own `specReplicasPath` (a version without `/scale` has none, even
    /// when another version's is used to read its objects), split at its dots as Go's
    /// CRD handler splits it.
    fn replicas_path(&self, version: &str) -> Option<Path> {
        let scale = self.0.version(version)?.scale.as_ref()?;
        let fields = scale.spec_replicas_path.trim_start_matches('.').split('.');
        Some(Path(
            fields.map(|f| PathElement::Field(f.to_owned())).collect(),
        ))
    }
}

/// Sets the value at a simple JSON path (`.spec.replicas`), making the objects on the
/// way.
fn set_simple_path(doc: &mut Value, path: &str, value: i64) {
    let keys: Vec<&str> = path.trim_start_matches('.').split('.').collect();
    let mut current = doc;
    for (i, k) in keys.iter().enumerate() {
        if !current.is_object() {
            *current = Value::Object(Map::new());
        }
        let Some(map) = current.as_object_mut() else {
            return;
        };
        if i + 1 == keys.len() {
            map.insert((*k).to_owned(), Value::from(value));
            return;
        }
        current = map
            .entry((*k).to_owned())
            .or_insert_with(|| Value::Object(Map::new()));
    }
}

/// A CRD's `kubectl get` table: its version's printer columns.
#[derive(Debug)]
struct CustomResourceTable(Arc<CustomResource>);

impl TableConvertor for CustomResourceTable {
    fn convert_to_table(
        &self,
        version: &str,
        objects: &[Value],
        list_meta: Map<String, Value>,
        include_object: &str,
    ) -> Value {
        table::table(&self.0, version, objects, list_meta, include_object)
    }
}
