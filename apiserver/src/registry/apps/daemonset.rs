//! DaemonSets (Go's `pkg/registry/apps/daemonset/strategy.go`): the strategy keeping
//! the template generation, and the table `kubectl get daemonsets` prints (Go's
//! `printDaemonSet`, over the internal object's metadata).

use std::collections::BTreeMap;
use std::sync::Arc;

use apimachinery::api::errors::StatusError;
use apimachinery::runtime::{Object, Scheme};
use serde_json::{Map, Value};

use crate::registry::core::pod::template::PodTemplateStrategy;
use crate::registry::core::pod::workload_warnings::Workload;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{
    self, AGE, CONTAINERS, Column, IMAGES, NAME, Printer, Row, int, integer_column, string_column,
    text,
};
use crate::registry::rest::{RestStorage, TableConvertor};
use crate::registry::strategy::{Strategy, Subresource};
use crate::registry::validation::NameValidation;
use crate::registry::{ResourceInfo, to_json};

/// The annotation in which `apps/v1` carries the internal `spec.templateGeneration`,
/// which has no field there (Go's `appsv1.DeprecatedTemplateGeneration`; k8s-types'
/// conversions read and write it).
pub const DEPRECATED_TEMPLATE_GENERATION: &str = "deprecated.daemonset.template.generation";

/// Go's DaemonSet strategy: the pod template's (init-container annotations dropped, a
/// new generation when the spec changes) and the template generation, which starts at
/// 1 on create (a larger one given is kept), is the stored one on every update, and is
/// one more than the stored one when a write of the object changes the template. The
/// DaemonSet controller labels the pods of each template generation with it, and
/// validation refuses a template change that does not count it up, so without this no
/// client could change a DaemonSet's template.
#[derive(Clone, Copy, Debug)]
pub struct DaemonSetStrategy {
    /// What is not particular to DaemonSets.
    pub template: PodTemplateStrategy,
}

/// The template generation the annotations hold: the stored integer (the conversion
/// checked it); 0 without one, as Go's internal field is.
pub fn template_generation(annotations: &BTreeMap<String, String>) -> i64 {
    annotations
        .get(DEPRECATED_TEMPLATE_GENERATION)
        .and_then(|g| g.parse().ok())
        .unwrap_or(0)
}

/// `obj` with template generation `generation`.
fn set_template_generation(obj: &mut dyn Object, generation: i64) {
    if let Some(meta) = obj.meta_mut() {
        let mut annotations = meta.annotations();
        annotations.insert(
            DEPRECATED_TEMPLATE_GENERATION.to_owned(),
            generation.to_string(),
        );
        meta.set_annotations(annotations);
    }
}

impl Strategy for DaemonSetStrategy {
    fn prepare_for_create(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        obj: Box<dyn Object>,
    ) -> Result<Box<dyn Object>, StatusError> {
        let mut obj = self.template.prepare_for_create(scheme, info, obj)?;
        let given = obj
            .meta()
            .map_or(0, |m| template_generation(&m.annotations()));
        set_template_generation(&mut *obj, given.max(1));
        Ok(obj)
    }

    fn prepare_for_update(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        old: &dyn Object,
        new: Box<dyn Object>,
        subresource: Subresource,
    ) -> Result<Box<dyn Object>, StatusError> {
        let mut new = self
            .template
            .prepare_for_update(scheme, info, old, new, subresource)?;
        let stored = old
            .meta()
            .map_or(0, |m| template_generation(&m.annotations()));
        // Go's status strategy keeps the whole stored spec, the generation with it.
        let template_changed = subresource == Subresource::Main
            && to_json(old)?.pointer("/spec/template") != to_json(&*new)?.pointer("/spec/template");
        // Go's int64 wraps around (and validation then refuses the decrement).
        set_template_generation(&mut *new, stored.wrapping_add(i64::from(template_changed)));
        Ok(new)
    }

    fn names(&self) -> NameValidation {
        self.template.names()
    }

    fn returns_deleted_object(&self) -> bool {
        self.template.returns_deleted_object()
    }
    fn warnings_on_create(&self, obj: &dyn Object) -> Vec<String> {
        self.template.warnings_on_create(obj)
    }

    fn warnings_on_update(&self, obj: &dyn Object, old: &dyn Object) -> Vec<String> {
        self.template.warnings_on_update(obj, old)
    }
}

/// Go's `daemonSetColumnDefinitions`.
pub const COLUMNS: [Column; 11] = [
    NAME,
    integer_column(
        "Desired",
        "The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod). More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/",
        0,
    ),
    integer_column(
        "Current",
        "The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod. More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/",
        0,
    ),
    integer_column(
        "Ready",
        "numberReady is the number of nodes that should be running the daemon pod and have one or more of the daemon pod running with a Ready Condition.",
        0,
    ),
    integer_column(
        "Up-to-date",
        "The total number of nodes that are running updated daemon pod",
        0,
    ),
    integer_column(
        "Available",
        "The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)",
        0,
    ),
    string_column(
        "Node Selector",
        "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node. More info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/",
        0,
    ),
    AGE,
    CONTAINERS,
    IMAGES,
    string_column(
        "Selector",
        "A label query over pods that are managed by the daemon set. Must match in order to be controlled. It must match the pod template's labels. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
        1,
    ),
];

/// The DaemonSets' table convertor.
pub static DAEMON_SET_TABLE: Printer = Printer {
    api_version: "apps/v1",
    kind: "DaemonSet",
    columns: &COLUMNS,
    print: print_daemon_set,
};

/// The DaemonSets' table convertor: [`DAEMON_SET_TABLE`]'s, except that the rows'
/// metadata (`includeObject=Metadata`, the default) is that of Go's internal object,
/// which holds the template generation in its spec: without the
/// [`DEPRECATED_TEMPLATE_GENERATION`] annotation the `apps/v1` object has.
#[derive(Clone, Copy, Debug)]
pub struct DaemonSetTable;

impl TableConvertor for DaemonSetTable {
    fn convert_to_table(
        &self,
        version: &str,
        objects: &[Value],
        list_meta: Map<String, Value>,
        include_object: &str,
    ) -> Value {
        let mut table =
            DAEMON_SET_TABLE.convert_to_table(version, objects, list_meta, include_object);
        if include_object == "None" || include_object == "Object" {
            return table;
        }
        let rows = table.get_mut("rows").and_then(Value::as_array_mut);
        for row in rows.into_iter().flatten() {
            let Some(meta) = row
                .pointer_mut("/object/metadata")
                .and_then(Value::as_object_mut)
            else {
                continue;
            };
            let annotations = meta.get_mut("annotations").and_then(Value::as_object_mut);
            if let Some(annotations) = annotations {
                annotations.remove(DEPRECATED_TEMPLATE_GENERATION);
                // Go's empty map is not written.
                if annotations.is_empty() {
                    meta.remove("annotations");
                }
            }
        }
        table
    }
}

/// Go's `printDaemonSet`: the scheduling counts, the template's node selector, its
/// containers and images, the selector.
pub fn print_daemon_set(obj: &Value) -> Row {
    let [names, images] = super::template_container_cells(obj);
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        Value::from(int(obj, "/status/desiredNumberScheduled")),
        Value::from(int(obj, "/status/currentNumberScheduled")),
        Value::from(int(obj, "/status/numberReady")),
        Value::from(int(obj, "/status/updatedNumberScheduled")),
        Value::from(int(obj, "/status/numberAvailable")),
        Value::from(printers::format_labels(
            obj.pointer("/spec/template/spec/nodeSelector"),
        )),
        printers::age(obj),
        names,
        images,
        Value::from(printers::format_label_selector(
            obj.pointer("/spec/selector"),
        )),
    ])
}

/// The DaemonSets' REST storage over `info`, with the table.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard_with_table(
        info,
        DaemonSetStrategy {
            template: PodTemplateStrategy::new(super::TEMPLATE_METADATA)
                .warning_as(Workload::DaemonSet),
        },
        Arc::new(DaemonSetTable),
    )
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::registry::core::pod::template::tests as template_tests;
    use crate::registry::from_value;
    use serde_json::json;

    fn scheme_and_info() -> (Arc<Scheme>, ResourceInfo) {
        let scheme = template_tests::scheme();
        let info = template_tests::info(&scheme, "apps", "daemonsets");
        (scheme, info)
    }

    fn strategy() -> DaemonSetStrategy {
        DaemonSetStrategy {
            template: PodTemplateStrategy::new(crate::registry::apps::TEMPLATE_METADATA),
        }
    }

    /// A DaemonSet with template generation `generation` (none: no annotation) and
    /// container image `image`.
    fn daemon_set(generation: Option<&str>, image: &str) -> Value {
        let mut ds = json!({"apiVersion": "apps/v1", "kind": "DaemonSet",
            "metadata": {"name": "agent", "namespace": "d", "generation": 1,
                "annotations": {"keep": "me"}},
            "spec": {"selector": {"matchLabels": {"app": "agent"}},
                "template": {"metadata": {"labels": {"app": "agent"}},
                    "spec": {"containers": [{"name": "c", "image": image}]}}},
            "status": {"numberReady": 1}});
        if let Some(g) = generation {
            ds["metadata"]["annotations"][DEPRECATED_TEMPLATE_GENERATION] = json!(g);
        }
        ds
    }

    fn annotation(obj: &dyn Object) -> Option<String> {
        obj.meta()
            .unwrap()
            .annotations()
            .get(DEPRECATED_TEMPLATE_GENERATION)
            .cloned()
    }

    /// Go's `PrepareForCreate`: the template generation starts at 1; one given above
    /// that is kept.
    #[test]
    fn a_created_daemon_set_starts_at_template_generation_one() {
        let (s, info) = scheme_and_info();
        for (given, kept) in [
            (None, "1"),
            (Some("0"), "1"),
            (Some("-3"), "1"),
            (Some("5"), "5"),
        ] {
            let obj = from_value(&s, &info.storage_gvk, daemon_set(given, "a")).unwrap();
            let created = strategy().prepare_for_create(&s, &info, obj).unwrap();
            assert_eq!(annotation(&*created).as_deref(), Some(kept), "{given:?}");
        }
    }

    /// Go's `PrepareForUpdate` and its status strategy's: the stored template generation
    /// whatever the client sends, one more (with a new generation) when the template
    /// changes; a `/status` write keeps it even with a new template.
    #[test]
    fn an_update_counts_the_template_generation_up_only_when_the_template_changes() {
        let (s, info) = scheme_and_info();
        let stored = from_value(&s, &info.storage_gvk, daemon_set(Some("3"), "a")).unwrap();
        for (sent, image, subresource, want, generation) in [
            (Some("3"), "b", Subresource::Main, "4", 2),
            (Some("3"), "a", Subresource::Main, "3", 1),
            (Some("9"), "a", Subresource::Main, "3", 1),
            (None, "b", Subresource::Main, "4", 2),
            (Some("9"), "b", Subresource::Status, "3", 1),
        ] {
            let new = from_value(&s, &info.storage_gvk, daemon_set(sent, image)).unwrap();
            let updated = strategy()
                .prepare_for_update(&s, &info, &*stored, new, subresource)
                .unwrap();
            let case = format!("{sent:?} {image} {subresource:?}");
            assert_eq!(annotation(&*updated).as_deref(), Some(want), "{case}");
            assert_eq!(updated.meta().unwrap().generation(), generation, "{case}");
            assert_eq!(
                updated
                    .meta()
                    .unwrap()
                    .annotations()
                    .get("keep")
                    .map(String::as_str),
                Some("me"),
                "{case}"
            );
        }
    }

    /// The rows' metadata is the internal object's: no template-generation annotation
    /// (nor an empty map); the whole object keeps it.
    #[test]
    fn table_rows_carry_the_internal_metadata() {
        let only = json!({"metadata": {"name": "a",
            "annotations": {DEPRECATED_TEMPLATE_GENERATION: "1"}}});
        let more = daemon_set(Some("2"), "i");
        let table = DaemonSetTable.convert_to_table(
            "v1",
            &[only.clone(), more.clone()],
            Map::new(),
            "Metadata",
        );
        assert_eq!(table["rows"][0]["object"]["metadata"], json!({"name": "a"}));
        assert_eq!(
            table["rows"][1]["object"]["metadata"]["annotations"],
            json!({"keep": "me"})
        );
        let table = DaemonSetTable.convert_to_table("v1", &[more], Map::new(), "Object");
        assert_eq!(
            table["rows"][0]["object"]["metadata"]["annotations"][DEPRECATED_TEMPLATE_GENERATION],
            json!("2")
        );
    }

    /// Go's `TestPrintDaemonSet`, wide.
    #[test]
    fn daemon_sets_print_as_kubectl_shows_them() {
        let ds = json!({"metadata": {"name": "test1"},
            "spec": {"selector": {"matchLabels": {"foo": "bar"}},
                "template": {"spec": {"nodeSelector": {"disk": "ssd", "arch": "amd64"},
                    "containers": [{"name": "fake-container1", "image": "fake-image1"},
                        {"name": "fake-container2", "image": "fake-image2"}]}}},
            "status": {"currentNumberScheduled": 2, "desiredNumberScheduled": 3,
                "numberReady": 1, "updatedNumberScheduled": 2, "numberAvailable": 0}});
        let mut cells = print_daemon_set(&ds).cells;
        cells.remove(7);
        assert_eq!(
            Value::from(cells),
            json!([
                "test1",
                3,
                2,
                1,
                2,
                0,
                "arch=amd64,disk=ssd",
                "fake-container1,fake-container2",
                "fake-image1,fake-image2",
                "foo=bar"
            ])
        );
        assert_eq!(print_daemon_set(&json!({})).cells[6], json!("<none>"));
    }
}
