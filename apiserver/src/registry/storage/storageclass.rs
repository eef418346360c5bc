//! StorageClasses (Go's `pkg/registry/storage/storageclass`): a delete answers with the
//! deleted class, and the table `kubectl get storageclasses` prints (Go's
//! `printStorageClass`), whose name cell says which class is the default. On Kubernetes
//! 1.37 only a list marks one, its effective default (of the classes annotated default,
//! the most recently created; on a tie the first by name), and a single class is never
//! marked; on 1.36 every class annotated default is, listed or not.

use std::sync::Arc;

use apimachinery::apis::meta::v1::Time;
use apimachinery::runtime::Object;
use serde_json::{Map, Value, json};

use crate::registry::dependencies::Dependencies;
use crate::registry::node::labels::warnings_for_storage_class;
use crate::registry::printers::{self, AGE, Column, NAME, Row, string_column, table, text};
use crate::registry::rest::{RestStorage, StandardStorage, TableConvertor};
use crate::registry::strategy::Strategy;
use crate::registry::{ResourceInfo, to_json};

/// Go's `storageClassColumnDefinitions`.
pub const COLUMNS: [Column; 6] = [
    NAME,
    string_column(
        "Provisioner",
        "provisioner indicates the type of the provisioner.",
        0,
    ),
    string_column(
        "ReclaimPolicy",
        "reclaimPolicy controls the reclaimPolicy for dynamically provisioned PersistentVolumes of this storage class. Defaults to Delete.",
        0,
    ),
    string_column(
        "VolumeBindingMode",
        "volumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound.  When unset, VolumeBindingImmediate is used. This field is only honored by servers that enable the VolumeScheduling feature.",
        0,
    ),
    string_column(
        "AllowVolumeExpansion",
        "allowVolumeExpansion shows whether the storage class allow volume expand.",
        0,
    ),
    AGE,
];

/// Whether `class` is annotated as a default class (Go's `IsDefaultAnnotation`: the GA
/// or the beta annotation, `"true"`).
pub fn is_default_annotated(class: &Value) -> bool {
    [
        "storageclass.kubernetes.io/is-default-class",
        "storageclass.beta.kubernetes.io/is-default-class",
    ]
    .iter()
    .any(|k| {
        class
            .pointer("/metadata/annotations")
            .and_then(|a| a.get(k))
            .and_then(Value::as_str)
            == Some("true")
    })
}

/// Go 1.37's `getEffectiveDefaultStorageClass`: the name of the most recently created
/// class annotated default (the first by name among those created in the same second),
/// if any is.
pub fn effective_default(classes: &[Value]) -> Option<&str> {
    let created = |c: &Value| {
        c.pointer("/metadata/creationTimestamp")
            .and_then(Value::as_str)
            .and_then(|t| Time::parse_rfc3339(t).ok())
            .map_or(i64::MIN, |t| t.unix_seconds())
    };
    classes
        .iter()
        .filter(|c| is_default_annotated(c))
        .map(|c| (created(c), text(c, "/metadata/name")))
        // The latest, and of the latest the least name.
        .max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(a.1)))
        .map(|(_, name)| name)
}

/// Go's `printStorageClassInternal`: the name (`<name> (default)` when `default`), the
/// provisioner, the reclaim policy (`Delete` unset), the binding mode (`Immediate`
/// unset), whether volumes may expand, age.
pub fn print_storage_class(class: &Value, default: bool) -> Row {
    let name = text(class, "/metadata/name");
    let name = if default {
        format!("{name} (default)")
    } else {
        name.to_owned()
    };
    let or = |pointer: &str, unset: &str| match class.pointer(pointer).and_then(Value::as_str) {
        Some(v) => v.to_owned(),
        None => unset.to_owned(),
    };
    Row::from(vec![
        Value::from(name),
        Value::from(text(class, "/provisioner")),
        Value::from(or("/reclaimPolicy", "Delete")),
        Value::from(or("/volumeBindingMode", "Immediate")),
        Value::from(
            class
                .get("allowVolumeExpansion")
                .and_then(Value::as_bool)
                .unwrap_or(false),
        ),
        printers::age(class),
    ])
}

/// The StorageClasses' table convertor (its rows of a list depend on the whole list).
#[derive(Clone, Copy, Debug, Default)]
pub struct StorageClassTable;

impl StorageClassTable {
    fn convert(
        objects: &[Value],
        list_meta: Map<String, Value>,
        include_object: &str,
        default: impl Fn(&Value) -> bool,
    ) -> Value {
        let definitions = COLUMNS
            .iter()
            .map(|c| {
                json!({"name": c.name, "type": c.type_, "format": c.format,
                    "description": c.description, "priority": c.priority})
            })
            .collect();
        table(
            definitions,
            Some(("storage.k8s.io/v1", "StorageClass")),
            objects,
            list_meta,
            include_object,
            |c| print_storage_class(c, default(c)),
        )
    }
}

impl TableConvertor for StorageClassTable {
    fn convert_to_table(
        &self,
        _version: &str,
        objects: &[Value],
        list_meta: Map<String, Value>,
        include_object: &str,
    ) -> Value {
        // 1.37's printer of one class has no list to find the effective default in.
        let default = |c: &Value| !cfg!(feature = "v1_37") && is_default_annotated(c);
        Self::convert(objects, list_meta, include_object, default)
    }

    fn convert_list_to_table(
        &self,
        _version: &str,
        objects: &[Value],
        list_meta: Map<String, Value>,
        include_object: &str,
    ) -> Value {
        let effective = effective_default(objects);
        let default = |c: &Value| {
            if cfg!(feature = "v1_37") {
                effective.is_some_and(|name| text(c, "/metadata/name") == name)
            } else {
                is_default_annotated(c)
            }
        };
        Self::convert(objects, list_meta, include_object, default)
    }
}

/// Go's StorageClass strategy: deletes answer with the object, and classes whose
/// allowed topologies name deprecated node labels are warned about.
#[derive(Clone, Copy, Debug, Default)]
pub struct StorageClassStrategy;

impl Strategy for StorageClassStrategy {
    fn returns_deleted_object(&self) -> bool {
        true
    }

    fn warnings_on_create(&self, obj: &dyn Object) -> Vec<String> {
        to_json(obj)
            .map(|c| warnings_for_storage_class(&c))
            .unwrap_or_default()
    }

    fn warnings_on_update(&self, obj: &dyn Object, _old: &dyn Object) -> Vec<String> {
        self.warnings_on_create(obj)
    }
}

/// The StorageClasses' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    Arc::new(
        StandardStorage::new(deps.store(info, StorageClassStrategy))
            .with_table_convertor(Arc::new(StorageClassTable)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class(name: &str, created: &str, default: bool) -> Value {
        let mut c = json!({"metadata": {"name": name, "creationTimestamp": created},
            "provisioner": "p"});
        if default {
            c["metadata"]["annotations"] =
                json!({"storageclass.kubernetes.io/is-default-class": "true"});
        }
        c
    }

    fn names(table: &Value) -> Vec<&str> {
        table["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["cells"][0].as_str().unwrap())
            .collect()
    }

    #[test]
    fn the_effective_default_is_the_latest_then_the_first_by_name() {
        let classes = [
            class("old", "2026-01-01T00:00:00Z", true),
            class("b", "2026-02-01T00:00:00Z", true),
            class("a", "2026-02-01T00:00:00Z", true),
            class("plain", "2026-03-01T00:00:00Z", false),
        ];
        assert_eq!(effective_default(&classes), Some("a"));
        assert_eq!(effective_default(&classes[3..]), None);
        let list = StorageClassTable.convert_list_to_table("v1", &classes, Map::new(), "None");
        let one = StorageClassTable.convert_to_table("v1", &classes[..1], Map::new(), "None");
        if cfg!(feature = "v1_37") {
            assert_eq!(names(&list), ["old", "b", "a (default)", "plain"]);
            assert_eq!(names(&one), ["old"]);
        } else {
            assert_eq!(
                names(&list),
                ["old (default)", "b (default)", "a (default)", "plain"]
            );
            assert_eq!(names(&one), ["old (default)"]);
        }
    }

    #[test]
    fn unset_fields_print_as_gos_defaults() {
        let cells = print_storage_class(&class("c", "2026-01-01T00:00:00Z", false), false).cells;
        assert_eq!(
            cells[..5],
            [
                json!("c"),
                json!("p"),
                json!("Delete"),
                json!("Immediate"),
                json!(false)
            ]
        );
    }
}
