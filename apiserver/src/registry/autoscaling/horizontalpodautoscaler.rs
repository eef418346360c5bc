//! HorizontalPodAutoscalers (Go's `pkg/registry/autoscaling/horizontalpodautoscaler`):
//! the table `kubectl get horizontalpodautoscalers` prints (Go's
//! `printHorizontalPodAutoscaler`), the same row at autoscaling/v1 as at v2.

use std::sync::Arc;

use apimachinery::runtime::Scheme;
use apimachinery::schema::{GroupVersion, GroupVersionKind};
use serde_json::{Map, Value};

use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{self, AGE, Column, NAME, Row, int, items, string_column, text};
use crate::registry::rest::{RestStorage, TableConvertor};
use crate::registry::strategy::GenericStrategy;
use crate::registry::{ResourceInfo, convert, from_value, to_json};

/// Go's `horizontalPodAutoscalerColumnDefinitions` (autoscaling/v2's docs).
pub const COLUMNS: [Column; 7] = [
    NAME,
    string_column(
        "Reference",
        "scaleTargetRef points to the target resource to scale, and is used to the pods for which metrics should be collected, as well as to actually change the replica count.",
        0,
    ),
    string_column(
        "Targets",
        "metrics contains the specifications for which to use to calculate the desired replica count (the maximum replica count across all metrics will be used).  The desired replica count is calculated multiplying the ratio between the target value and the current value by the current number of pods.  Ergo, metrics used must decrease as the pod count is increased, and vice-versa.  See the individual metric source types for more information about how each type of metric must respond. If not set, the default metric will be set to 80% average CPU utilization.",
        0,
    ),
    string_column(
        "MinPods",
        "minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down.  It defaults to 1 pod.  minReplicas is allowed to be 0 if the alpha feature gate HPAScaleToZero is enabled and at least one Object or External metric is configured.  Scaling is active as long as at least one metric value is available.",
        0,
    ),
    string_column(
        "MaxPods",
        "maxReplicas is the upper limit for the number of replicas to which the autoscaler can scale up. It cannot be less that minReplicas.",
        0,
    ),
    string_column(
        "Replicas",
        "currentReplicas is current number of replicas of pods managed by this autoscaler, as last seen by the autoscaler.",
        0,
    ),
    AGE,
];

/// The HorizontalPodAutoscalers' table convertor: Go prints the internal object whatever
/// version is asked for, so the rows are printed from the autoscaling/v2 object, which
/// holds all of it (autoscaling/v1 keeps the CPU target apart from the other metrics,
/// losing their order).
#[derive(Debug)]
pub struct HorizontalPodAutoscalerTable {
    /// The scheme converting the printed v2 objects to the version asked for.
    pub scheme: Arc<Scheme>,
}

/// The version the rows are printed from.
const PRINTED_VERSION: &str = "v2";

impl HorizontalPodAutoscalerTable {
    /// The autoscaling/v2 `obj` at `version`, with its apiVersion and kind; itself when
    /// it cannot be converted, which an object the server wrote always can.
    fn at_version(&self, obj: &Value, version: &str) -> Value {
        let gvk = GroupVersionKind::new("autoscaling", PRINTED_VERSION, "HorizontalPodAutoscaler");
        from_value(&self.scheme, &gvk, obj.clone())
            .and_then(|o| convert(&self.scheme, o, &GroupVersion::new("autoscaling", version)))
            .and_then(|o| to_json(&*o))
            .unwrap_or_else(|_| obj.clone())
    }
}

impl TableConvertor for HorizontalPodAutoscalerTable {
    fn convert_to_table(
        &self,
        version: &str,
        objects: &[Value],
        list_meta: Map<String, Value>,
        include_object: &str,
    ) -> Value {
        let definitions = COLUMNS.iter().map(printers::column_definition).collect();
        let type_meta = format!("autoscaling/{version}");
        // Go's rows carry the internal object's metadata (that of the v2 form, without
        // the annotations autoscaling/v1 keeps v2's fields in); the whole object
        // (`includeObject=Object`) is converted to the version asked for.
        let mut table = printers::table(
            definitions,
            Some((&type_meta, "HorizontalPodAutoscaler")),
            objects,
            list_meta,
            include_object,
            print_horizontal_pod_autoscaler,
        );
        if include_object == "Object" && version != PRINTED_VERSION {
            let rows = table.get_mut("rows").and_then(Value::as_array_mut);
            for (row, obj) in rows.into_iter().flatten().zip(objects) {
                row["object"] = self.at_version(obj, version);
            }
        }
        table
    }

    fn printed_version(&self) -> Option<&str> {
        Some(PRINTED_VERSION)
    }
}

/// Go's `printHorizontalPodAutoscaler` of an autoscaling/v2 object: the target as
/// `Kind/name`, the metrics' current and target values, the minimum (`<unset>`) and
/// maximum replicas, the current ones.
pub fn print_horizontal_pod_autoscaler(obj: &Value) -> Row {
    let min_pods = match obj.pointer("/spec/minReplicas").and_then(Value::as_i64) {
        Some(min) => min.to_string(),
        None => "<unset>".to_owned(),
    };
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        Value::from(format!(
            "{}/{}",
            text(obj, "/spec/scaleTargetRef/kind"),
            text(obj, "/spec/scaleTargetRef/name")
        )),
        Value::from(format_hpa_metrics(
            items(obj, "/spec/metrics"),
            items(obj, "/status/currentMetrics"),
        )),
        Value::from(min_pods),
        Value::from(int(obj, "/spec/maxReplicas")),
        Value::from(int(obj, "/status/currentReplicas")),
        printers::age(obj),
    ])
}

/// A quantity at `pointer` of `obj` as Go's `(*Quantity).String()` prints it: the
/// canonical form the JSON holds, `<nil>` for none.
fn quantity(obj: Option<&Value>, pointer: &str) -> String {
    obj.and_then(|o| o.pointer(pointer))
        .and_then(Value::as_str)
        .unwrap_or("<nil>")
        .to_owned()
}

/// Go's `formatHPAMetrics` of autoscaling/v2 metric specs and statuses (a status is the
/// one at its spec's index): `current/target` of the first two (`name: ` before a
/// resource's, ` (avg)` after an average object or external value, `<unknown>` for a
/// current value not known yet, `<auto>` for no utilization target), and how many more;
/// `<none>` without metrics.
pub fn format_hpa_metrics(specs: &[Value], statuses: &[Value]) -> String {
    const MAX: usize = 2;
    if specs.is_empty() {
        return "<none>".to_owned();
    }
    let percent = |v: Option<&Value>| v.and_then(Value::as_i64).map(|p| format!("{p}%"));
    let list: Vec<String> = specs
        .iter()
        .enumerate()
        .map(|(i, spec)| {
            let kind = text(spec, "/type");
            let field = match kind {
                "External" => "external",
                "Pods" => "pods",
                "Object" => "object",
                "Resource" => "resource",
                "ContainerResource" => "containerResource",
                _ => return "<unknown type>".to_owned(),
            };
            let source = spec.get(field);
            let status = statuses
                .get(i)
                .and_then(|s| s.get(field))
                .filter(|s| !s.is_null());
            let target = |p: &str| source.and_then(|s| s.pointer(p));
            let current = |p: &str| status.and_then(|s| s.pointer(p));
            let average_target = target("/target/averageValue").is_some_and(|v| !v.is_null());
            match kind {
                "Pods" => format!(
                    "{}/{}",
                    status.map_or("<unknown>".to_owned(), |s| quantity(
                        Some(s),
                        "/current/averageValue"
                    )),
                    quantity(source, "/target/averageValue")
                ),
                "External" | "Object" if average_target => format!(
                    "{}/{} (avg)",
                    current("/current/averageValue")
                        .and_then(Value::as_str)
                        .unwrap_or("<unknown>"),
                    quantity(source, "/target/averageValue")
                ),
                "External" | "Object" => format!(
                    "{}/{}",
                    status.map_or("<unknown>".to_owned(), |s| quantity(
                        Some(s),
                        "/current/value"
                    )),
                    quantity(source, "/target/value")
                ),
                _ => {
                    let name = source.map_or("", |s| text(s, "/name"));
                    if average_target {
                        format!(
                            "{name}: {}/{}",
                            status.map_or("<unknown>".to_owned(), |s| quantity(
                                Some(s),
                                "/current/averageValue"
                            )),
                            quantity(source, "/target/averageValue")
                        )
                    } else {
                        format!(
                            "{name}: {}/{}",
                            percent(current("/current/averageUtilization"))
                                .unwrap_or_else(|| "<unknown>".to_owned()),
                            percent(target("/target/averageUtilization"))
                                .unwrap_or_else(|| "<auto>".to_owned())
                        )
                    }
                }
            }
        })
        .collect();
    let shown = list[..list.len().min(MAX)].join(", ");
    if list.len() > MAX {
        format!("{shown} + {} more...", list.len() - MAX)
    } else {
        shown
    }
}

/// The HorizontalPodAutoscalers' REST storage over `info`, with the table.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    let table = HorizontalPodAutoscalerTable {
        scheme: deps.scheme.clone(),
    };
    // Go 1.37's strategy sets a generation (its HPAGeneration feature, on by default);
    // 1.36's none.
    let strategy = GenericStrategy {
        no_generation: cfg!(not(feature = "v1_37")),
        ..GenericStrategy::default()
    };
    deps.standard_with_table(info, strategy, Arc::new(table))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cpu(target: Value) -> Value {
        json!({"type": "Resource", "resource": {"name": "cpu", "target": target}})
    }

    /// Go's `TestPrintHPA`'s metric cases.
    #[test]
    fn hpa_metrics_format_as_go_formats_them() {
        let utilization = cpu(json!({"type": "Utilization", "averageUtilization": 80}));
        assert_eq!(format_hpa_metrics(&[], &[]), "<none>");
        assert_eq!(
            format_hpa_metrics(std::slice::from_ref(&utilization), &[]),
            "cpu: <unknown>/80%"
        );
        let current = json!({"type": "Resource", "resource": {"name": "cpu",
            "current": {"averageUtilization": 50, "averageValue": "10"}}});
        assert_eq!(
            format_hpa_metrics(
                std::slice::from_ref(&utilization),
                std::slice::from_ref(&current)
            ),
            "cpu: 50%/80%"
        );
        let average = cpu(json!({"type": "AverageValue", "averageValue": "100m"}));
        assert_eq!(format_hpa_metrics(&[average], &[current]), "cpu: 10/100m");
        let auto = cpu(json!({"type": "Utilization"}));
        assert_eq!(format_hpa_metrics(&[auto], &[]), "cpu: <unknown>/<auto>");
        let pods = json!({"type": "Pods", "pods": {"metric": {"name": "qps"},
            "target": {"type": "AverageValue", "averageValue": "100m"}}});
        let pods_now = json!({"type": "Pods", "pods": {"current": {"averageValue": "50m"}}});
        assert_eq!(
            format_hpa_metrics(std::slice::from_ref(&pods), &[pods_now]),
            "50m/100m"
        );
        let external = json!({"type": "External", "external": {"metric": {"name": "queue"},
            "target": {"type": "Value", "value": "10"}}});
        let object_avg = json!({"type": "Object", "object": {"metric": {"name": "rps"},
            "target": {"type": "AverageValue", "averageValue": "2"}}});
        assert_eq!(
            format_hpa_metrics(&[external, object_avg, pods], &[]),
            "<unknown>/10, <unknown>/2 (avg) + 1 more..."
        );
        let container = json!({"type": "ContainerResource", "containerResource": {"name": "memory",
            "container": "app", "target": {"type": "Utilization", "averageUtilization": 70}}});
        assert_eq!(
            format_hpa_metrics(&[container], &[]),
            "memory: <unknown>/70%"
        );
        assert_eq!(
            format_hpa_metrics(&[json!({"type": "Other"})], &[]),
            "<unknown type>"
        );
    }

    #[test]
    fn hpas_print_as_kubectl_shows_them() {
        let hpa = json!({"metadata": {"name": "web"},
            "spec": {"scaleTargetRef": {"kind": "ReplicationController", "name": "some-rc"},
                "maxReplicas": 10,
                "metrics": [cpu(json!({"type": "Utilization", "averageUtilization": 80}))]},
            "status": {"currentReplicas": 4}});
        let mut cells = print_horizontal_pod_autoscaler(&hpa).cells;
        cells.remove(6);
        assert_eq!(
            Value::from(cells),
            json!([
                "web",
                "ReplicationController/some-rc",
                "cpu: <unknown>/80%",
                "<unset>",
                10,
                4
            ])
        );
    }

    /// A table asked for at autoscaling/v1 prints the v2 object (its metrics in their
    /// order, its metadata without v1's annotations) and embeds the v1 object.
    #[test]
    fn a_v1_table_prints_the_v2_object() {
        let mut scheme = Scheme::with_name("hpa-table-tests");
        scheme.add_registry().unwrap();
        let table = HorizontalPodAutoscalerTable {
            scheme: Arc::new(scheme),
        };
        assert_eq!(table.printed_version(), Some("v2"));
        let v2 = json!({"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
            "metadata": {"name": "web"},
            "spec": {"scaleTargetRef": {"kind": "Deployment", "name": "web", "apiVersion": "apps/v1"},
                "minReplicas": 2, "maxReplicas": 5, "metrics": [
                    cpu(json!({"type": "Utilization", "averageUtilization": 60})),
                    {"type": "Pods", "pods": {"metric": {"name": "qps"},
                        "target": {"type": "AverageValue", "averageValue": "10"}}}]},
            "status": {"currentReplicas": 3, "desiredReplicas": 3}});
        let out = table.convert_to_table("v1", std::slice::from_ref(&v2), Map::new(), "Metadata");
        assert_eq!(out["rows"][0]["object"]["metadata"], json!({"name": "web"}));
        let mut cells = out["rows"][0]["cells"].as_array().unwrap().clone();
        cells.remove(6);
        assert_eq!(
            Value::from(cells),
            json!([
                "web",
                "Deployment/web",
                "cpu: <unknown>/60%, <unknown>/10",
                "2",
                5,
                3
            ])
        );
        let with_object =
            table.convert_to_table("v1", std::slice::from_ref(&v2), Map::new(), "Object");
        let object = &with_object["rows"][0]["object"];
        assert_eq!(object["apiVersion"], "autoscaling/v1");
        assert_eq!(object["spec"]["targetCPUUtilizationPercentage"], 60);
        assert!(object.pointer("/metadata/annotations").is_some());
        let at_v2 = table.convert_to_table("v2", std::slice::from_ref(&v2), Map::new(), "Object");
        assert_eq!(at_v2["rows"][0]["object"], v2);
    }
}
