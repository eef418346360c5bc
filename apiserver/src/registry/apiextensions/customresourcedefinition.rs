//! CustomResourceDefinitions (Go's apiextensions-apiserver
//! `pkg/registry/customresourcedefinition`): a CRD written is checked as Go's validation
//! checks it (the Scheme's validator, then every version's schema structural), and its
//! first delete adds the cleanup finalizer, so the CRD stays (terminating) until the
//! controller has deleted its objects; `kubectl get crds` prints apiextensions' own table
//! (1.37; 1.36 has Go's default one). An update names the version it replaces, and a
//! schema's unrecognized formats and (1.37) set-typed lists of objects or lists are
//! warned of.

use std::sync::Arc;

use serde_json::{Map, Value};

use apimachinery::api::errors::StatusError;
use apimachinery::apis::meta::v1::Time;
use apimachinery::runtime::{Object, Scheme};
use apimachinery::schema::{GroupResource, GroupVersion};

use crate::apiextensions::controller::GROUP;
use crate::apiextensions::status::mark_terminating;
use crate::apiextensions::validation::check_definition;
use crate::apiextensions::warnings;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{
    CREATION_TIMESTAMP_DESCRIPTION, Column, NAME, Printer, Row, items, string_column, text,
};
use crate::registry::rest::{Context, RestStorage, TableConvertor};
use crate::registry::strategy::{Strategy, Subresource};
use crate::registry::{
    DeleteParams, ResourceInfo, Store, convert, from_value, to_json, validation,
};

/// Go's CRD strategy.
#[derive(Clone, Copy, Debug, Default)]
pub struct CustomResourceDefinitionStrategy;

impl Strategy for CustomResourceDefinitionStrategy {
    /// Go's `AllowUnconditionalUpdate` is false: an update names the version it replaces.
    fn allow_unconditional_update(&self) -> bool {
        false
    }

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

    /// Go's `WarningsOnCreate`: unrecognized formats, and (1.37) set-typed lists of
    /// objects or lists. The object is the stored form (v1beta1), which the warnings
    /// read as Go reads its internal one.
    fn warnings_on_create(&self, obj: &dyn Object) -> Vec<String> {
        match to_json(obj) {
            Ok(crd) => warnings::on_create(&crd, cfg!(feature = "v1_37")),
            Err(_) => Vec::new(),
        }
    }

    /// Go's `WarningsOnUpdate`: those the stored definition did not already have.
    fn warnings_on_update(&self, obj: &dyn Object, old: &dyn Object) -> Vec<String> {
        match (to_json(obj), to_json(old)) {
            (Ok(new), Ok(old)) => warnings::on_update(&new, &old, cfg!(feature = "v1_37")),
            _ => Vec::new(),
        }
    }
}

/// The columns of apiextensions' CRD table (its `tableconvertor`, not kubectl's printers).
const COLUMNS: [Column; 8] = [
    NAME,
    string_column("Scope", "Cluster/Namespaced", 0),
    string_column("Versions", "Served versions", 0),
    Column {
        type_: "date",
        ..string_column("Created At", CREATION_TIMESTAMP_DESCRIPTION, 0)
    },
    string_column("Group", "API group", 1),
    string_column("Kind", "CustomResource kind", 1),
    string_column("ShortNames", "Short names", 1),
    Column {
        type_: "boolean",
        ..string_column("Established", "Established status", 1)
    },
];

/// The columns and rows of CRDs (served at apiextensions.k8s.io/v1 only).
const PRINTER: Printer = Printer {
    api_version: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    columns: &COLUMNS,
    print: print_custom_resource_definition,
};

/// The CRDs' table (Kubernetes 1.37 on): apiextensions-apiserver's `crdConvertor`, whose rows Go appends to a
/// nil list, so a table without rows says `null`.
#[derive(Clone, Copy, Debug)]
pub struct CustomResourceDefinitionTable;

impl TableConvertor for CustomResourceDefinitionTable {
    fn convert_to_table(
        &self,
        version: &str,
        objects: &[Value],
        list_meta: Map<String, Value>,
        include_object: &str,
    ) -> Value {
        let mut table = PRINTER.convert_to_table(version, objects, list_meta, include_object);
        if objects.is_empty() {
            table["rows"] = Value::Null;
        }
        table
    }
}

/// A CRD's row: name, scope, the served versions sorted (the storage one marked), the
/// creation time (RFC 3339, UTC), group, kind, short names, and whether it is
/// established.
pub fn print_custom_resource_definition(crd: &Value) -> Row {
    let mut versions: Vec<String> = items(crd, "/spec/versions")
        .iter()
        .filter(|v| v.get("served").and_then(Value::as_bool) == Some(true))
        .map(|v| {
            let name = text(v, "/name");
            if v.get("storage").and_then(Value::as_bool) == Some(true) {
                format!("{name}(storage)")
            } else {
                name.to_owned()
            }
        })
        .collect();
    versions.sort();
    let short_names: Vec<&str> = items(crd, "/spec/names/shortNames")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let created = crd
        .pointer("/metadata/creationTimestamp")
        .and_then(Value::as_str)
        .and_then(|t| Time::parse_rfc3339(t).ok())
        .unwrap_or(Time::ZERO);
    let established = items(crd, "/status/conditions")
        .iter()
        .any(|c| text(c, "/type") == "Established" && text(c, "/status") == "True");
    Row::from(vec![
        Value::from(text(crd, "/metadata/name")),
        Value::from(text(crd, "/spec/scope")),
        Value::from(versions.join(",")),
        Value::from(created.to_rfc3339()),
        Value::from(text(crd, "/spec/group")),
        Value::from(text(crd, "/spec/names/kind")),
        Value::from(short_names.join(",")),
        Value::from(established),
    ])
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

    fn deletes_itself(&self) -> bool {
        true
    }

    /// apiextensions' own table from 1.37 on; 1.36's store has Go's default one.
    fn table_convertor(&self) -> Option<&dyn TableConvertor> {
        if cfg!(feature = "v1_37") {
            Some(&CustomResourceDefinitionTable)
        } else {
            None
        }
    }

    /// Go's CRD `Delete`: the first delete of a CRD marks it terminating (deletion
    /// timestamp, cleanup finalizer, `Terminating` condition) in one write and answers
    /// it, so the CRD stays until the controller has deleted its objects; a later
    /// delete is the store's.
    async fn before_delete(
        &self,
        ctx: &Context<'_>,
        params: &DeleteParams,
    ) -> Result<Option<Box<dyn Object>>, StatusError> {
        let current = self.store.get("", ctx.name).await?;
        let (uid, rv, terminating) = current
            .meta()
            .map(|m| {
                let terminating = m.deletion_timestamp().is_some();
                (
                    m.uid().to_owned(),
                    m.resource_version().to_owned(),
                    terminating,
                )
            })
            .unwrap_or_default();
        // Go's CRD Delete checks the preconditions itself, with its own words.
        let resource = GroupResource::new(GROUP, "customresourcedefinitions");
        params.check_own_preconditions(&resource, ctx.name, &uid, &rv)?;
        if terminating {
            return Ok(None);
        }
        let scheme = self.store.scheme().clone();
        let storage_gv = self.store.info().storage_version();
        let v1 = GroupVersion::new(GROUP, "v1");
        let now = Time::now().truncate_to_seconds().to_rfc3339();
        let marked = self
            .store
            .update_stored("", ctx.name, ctx.dry_run, |stored| {
                let mut v = to_json(&*convert(&scheme, stored, &v1)?)?;
                mark_terminating(&mut v, &now);
                let obj = from_value(&scheme, &v1.with_kind("CustomResourceDefinition"), v)?;
                convert(&scheme, obj, &storage_gv)
            })
            .await?;
        Ok(Some(marked))
    }
}
