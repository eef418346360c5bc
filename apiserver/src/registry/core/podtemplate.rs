//! PodTemplates (Go's `pkg/registry/core/podtemplate`): a delete answers with the deleted
//! template, the template's init-container annotations are dropped (the strategy every
//! pod template kind shares), and the table `kubectl get podtemplates` prints (Go's
//! `printPodTemplate`).

use std::sync::Arc;

use serde_json::Value;

use crate::registry::ResourceInfo;
use crate::registry::core::pod::template::PodTemplateStrategy;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{
    Column, NAME, Printer, Row, format_labels, items, layout_container_cells, string_column, text,
};
use crate::registry::rest::{RestStorage, StandardStorage};
use crate::registry::strategy::GenericStrategy;

/// Go's `podTemplateColumnDefinitions` (no age).
pub const COLUMNS: [Column; 4] = [
    NAME,
    string_column("Containers", "Names of each container in the template.", 0),
    string_column(
        "Images",
        "Images referenced by each container in the template.",
        0,
    ),
    string_column("Pod Labels", "The labels for the pod template.", 0),
];

/// The PodTemplates' table convertor.
pub static POD_TEMPLATE_TABLE: Printer = Printer {
    api_version: "v1",
    kind: "PodTemplate",
    columns: &COLUMNS,
    print: print_pod_template,
};

/// Go's `printPodTemplate`: name, the template's containers and images, its labels.
pub fn print_pod_template(obj: &Value) -> Row {
    let (names, images) = layout_container_cells(items(obj, "/template/spec/containers"));
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        Value::from(names),
        Value::from(images),
        Value::from(format_labels(obj.pointer("/template/metadata/labels"))),
    ])
}

/// The PodTemplates' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    let strategy = PodTemplateStrategy {
        template_metadata: "/template/metadata",
        base: GenericStrategy::returning_deleted_object(),
    };
    Arc::new(
        StandardStorage::new(deps.store(info, strategy))
            .with_table_convertor(Arc::new(POD_TEMPLATE_TABLE)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Go's `TestPrintPodTemplate` cases.
    #[test]
    fn pod_templates_print_containers_images_and_labels() {
        let cells = |obj: Value| Value::from(print_pod_template(&obj).cells);
        assert_eq!(
            cells(json!({"metadata": {"name": "pod-template-1"},
                "template": {"metadata": {"name": "pod-template-1"}, "spec": {"containers": []}}})),
            json!(["pod-template-1", "", "", "<none>"])
        );
        assert_eq!(
            cells(json!({"metadata": {"name": "pod-template-2"},
                "template": {"spec": {"containers": [
                    {"name": "fake-container1", "image": "fake-image1"},
                    {"name": "fake-container2", "image": "fake-image2"}]}}})),
            json!([
                "pod-template-2",
                "fake-container1,fake-container2",
                "fake-image1,fake-image2",
                "<none>"
            ])
        );
        assert_eq!(
            cells(json!({"metadata": {"name": "pod-template-3"},
                "template": {"metadata": {"labels": {"foo": "bar"}}, "spec": {"containers": []}}})),
            json!(["pod-template-3", "", "", "foo=bar"])
        );
    }
}
