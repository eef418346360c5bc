//! PodTemplates (Go's `pkg/registry/core/podtemplate`): a generation that grows when the
//! template changes, a delete answers with the deleted template, the template's
//! disabled fields are dropped (as every pod template kind drops them), and
//! the table `kubectl get podtemplates` prints (Go's `printPodTemplate`).

use std::sync::Arc;

use apimachinery::api::errors::StatusError;
use apimachinery::runtime::{Object, Scheme};
use serde_json::Value;

use crate::registry::core::pod::template::{
    drop_disabled_template_fields, prepare_template_for_update, workload_warnings_on_create,
    workload_warnings_on_update,
};
use crate::registry::core::pod::workload_warnings::Workload;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{
    Column, NAME, Printer, Row, container_cells, format_labels, items, string_column, text,
};
use crate::registry::rest::RestStorage;
use crate::registry::strategy::{Strategy, Subresource, prepare_for_update};
use crate::registry::{ResourceInfo, to_json};

/// Where a PodTemplate's template's metadata is.
const TEMPLATE_METADATA: &str = "/template/metadata";

/// Go's pod template strategy (of the PodTemplate kind; the kinds with a template
/// share `pod::template::PodTemplateStrategy`).
#[derive(Clone, Copy, Debug, Default)]
pub struct PodTemplateKindStrategy;

impl Strategy for PodTemplateKindStrategy {
    /// Go's `PrepareForCreate`: generation 1, the template without its init-container
    /// annotations.
    fn prepare_for_create(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        mut obj: Box<dyn Object>,
    ) -> Result<Box<dyn Object>, StatusError> {
        // A PodTemplate has no spec, so the store gives it no generation of its own.
        if let Some(meta) = obj.meta_mut() {
            meta.set_generation(1);
        }
        drop_disabled_template_fields(scheme, info, None, obj, TEMPLATE_METADATA)
    }

    /// Go's `PrepareForUpdate`: the template without what `DropDisabledTemplateFields` drops, and
    /// one generation more when it changed.
    fn prepare_for_update(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        old: &dyn Object,
        new: Box<dyn Object>,
        subresource: Subresource,
    ) -> Result<Box<dyn Object>, StatusError> {
        let new =
            prepare_template_for_update(scheme, info, old, new, subresource, TEMPLATE_METADATA)?;
        let mut new = prepare_for_update(scheme, info, old, new, subresource, |_, _, _| false)?;
        let old_template = to_json(old)?.get("template").cloned();
        if to_json(&*new)?.get("template").cloned() != old_template {
            let generation = old.meta().map_or(0, |m| m.generation());
            if let Some(meta) = new.meta_mut() {
                meta.set_generation(generation + 1);
            }
        }
        Ok(new)
    }

    fn returns_deleted_object(&self) -> bool {
        true
    }
    fn warnings_on_create(&self, obj: &dyn Object) -> Vec<String> {
        workload_warnings_on_create(Workload::PodTemplate, obj)
    }

    fn warnings_on_update(&self, obj: &dyn Object, old: &dyn Object) -> Vec<String> {
        workload_warnings_on_update(Workload::PodTemplate, obj, old)
    }
}

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
    let [names, images] = container_cells(items(obj, "/template/spec/containers"));
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        names,
        images,
        Value::from(format_labels(obj.pointer("/template/metadata/labels"))),
    ])
}

/// The PodTemplates' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard_with_table(info, PodTemplateKindStrategy, Arc::new(POD_TEMPLATE_TABLE))
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
