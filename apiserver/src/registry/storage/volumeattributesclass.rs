//! VolumeAttributesClasses (Go's `pkg/registry/storage/volumeattributesclass`): a
//! delete answers with the deleted class, and the table `kubectl get
//! volumeattributesclasses` prints (Go's `printVolumeAttributesClass`: the driver).

use std::sync::Arc;

use serde_json::Value;

use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{self, AGE, Column, NAME, Printer, Row, string_column, text};
use crate::registry::rest::RestStorage;
use crate::registry::strategy::GenericStrategy;

/// `storagev1.VolumeAttributesClass{}.SwaggerDoc()["driverName"]` (1.37 reworded it).
#[cfg(feature = "v1_37")]
const DRIVER_NAME: &str = "driverName is the name of the CSI driver This field is immutable.";
#[cfg(not(feature = "v1_37"))]
const DRIVER_NAME: &str = "Name of the CSI driver This field is immutable.";

/// Go's `volumeAttributesClassColumnDefinitions`.
pub const COLUMNS: [Column; 3] = [NAME, string_column("DriverName", DRIVER_NAME, 0), AGE];

/// The VolumeAttributesClasses' table convertor.
pub static VOLUME_ATTRIBUTES_CLASS_TABLE: Printer = Printer {
    api_version: "storage.k8s.io/v1",
    kind: "VolumeAttributesClass",
    columns: &COLUMNS,
    print: print_volume_attributes_class,
};

/// Go's `printVolumeAttributesClass`: name, driver, age.
pub fn print_volume_attributes_class(obj: &Value) -> Row {
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        Value::from(text(obj, "/driverName")),
        printers::age(obj),
    ])
}

/// The VolumeAttributesClasses' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard_with_table(
        info,
        GenericStrategy::returning_deleted_object(),
        Arc::new(VOLUME_ATTRIBUTES_CLASS_TABLE),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Go's `TestPrintVolumeAttributesClass` cases.
    #[test]
    fn classes_print_their_driver() {
        let class = json!({"metadata": {"name": "vac1"}, "driverName": "fake"});
        assert_eq!(
            print_volume_attributes_class(&class).cells[..2],
            [json!("vac1"), json!("fake")]
        );
    }
}
