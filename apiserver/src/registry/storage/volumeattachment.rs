//! VolumeAttachments (Go's `pkg/registry/storage/volumeattachment`): a delete answers
//! with the deleted attachment, and the table `kubectl get volumeattachments` prints
//! (Go's `printVolumeAttachment`).

use std::sync::Arc;

use serde_json::Value;

use crate::registry::ResourceInfo;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{self, AGE, Column, NAME, Printer, Row, string_column, text};
use crate::registry::rest::RestStorage;
use crate::registry::strategy::GenericStrategy;

/// Go's `volumeAttachmentColumnDefinitions` (the attacher's column has the `name`
/// format too, as Go's has).
pub const COLUMNS: [Column; 6] = [
    NAME,
    Column {
        format: "name",
        ..string_column(
            "Attacher",
            "attacher indicates the name of the volume driver that MUST handle this request. This is the name returned by GetPluginName().",
            0,
        )
    },
    string_column(
        "PV",
        "persistentVolumeName represents the name of the persistent volume to attach.",
        0,
    ),
    string_column(
        "Node",
        "nodeName represents the node that the volume should be attached to.",
        0,
    ),
    Column {
        type_: "boolean",
        ..string_column(
            "Attached",
            "attached indicates the volume is successfully attached. This field must only be set by the entity completing the attach operation, i.e. the external-attacher.",
            0,
        )
    },
    AGE,
];

/// The VolumeAttachments' table convertor.
pub static VOLUME_ATTACHMENT_TABLE: Printer = Printer {
    api_version: "storage.k8s.io/v1",
    kind: "VolumeAttachment",
    columns: &COLUMNS,
    print: print_volume_attachment,
};

/// Go's `printVolumeAttachment`: name, attacher, the persistent volume (empty for an
/// inline volume), node, whether attached, age.
pub fn print_volume_attachment(obj: &Value) -> Row {
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        Value::from(text(obj, "/spec/attacher")),
        Value::from(text(obj, "/spec/source/persistentVolumeName")),
        Value::from(text(obj, "/spec/nodeName")),
        Value::from(
            obj.pointer("/status/attached")
                .and_then(Value::as_bool)
                .unwrap_or(false),
        ),
        printers::age(obj),
    ])
}

/// The VolumeAttachments' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard_with_table(
        info,
        GenericStrategy::returning_deleted_object()
            .without_generation()
            .requiring_resource_version(),
        Arc::new(VOLUME_ATTACHMENT_TABLE),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Go's `TestPrintVolumeAttachment` cases.
    #[test]
    fn attachments_print_their_volume_node_and_state() {
        let attached = json!({"metadata": {"name": "attachment1"},
            "spec": {"attacher": "attacher1", "nodeName": "node1",
                "source": {"persistentVolumeName": "persistentVolumeName1"}},
            "status": {"attached": true}});
        assert_eq!(
            print_volume_attachment(&attached).cells[..5],
            [
                json!("attachment1"),
                json!("attacher1"),
                json!("persistentVolumeName1"),
                json!("node1"),
                json!(true)
            ]
        );
        let inline = json!({"metadata": {"name": "attachment2"},
            "spec": {"attacher": "attacher2", "nodeName": "node2", "source": {"inlineVolumeSpec": {}}}});
        assert_eq!(
            print_volume_attachment(&inline).cells[2..5],
            [json!(""), json!("node2"), json!(false)]
        );
    }
}
