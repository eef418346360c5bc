//! IngressClasses (Go's `pkg/registry/networking/ingressclass`): the table
//! `kubectl get ingressclasses` prints (Go's `printIngressClass`).

use serde_json::Value;

use crate::registry::printers::{self, AGE, Column, NAME, Printer, Row, string_column, text};

/// The annotation marking the cluster's default IngressClass (Go's
/// `networkingv1.AnnotationIsDefaultIngressClass`).
pub const IS_DEFAULT_ANNOTATION: &str = "ingressclass.kubernetes.io/is-default-class";

/// Go's `ingressClassColumnDefinitions`.
pub const COLUMNS: [Column; 4] = [
    NAME,
    string_column(
        "Controller",
        "Controller that is responsible for handling this class",
        0,
    ),
    string_column(
        "Parameters",
        "A reference to a resource with additional parameters",
        0,
    ),
    AGE,
];

/// The IngressClasses' table convertor.
pub static INGRESS_CLASS_TABLE: Printer = Printer {
    api_version: "networking.k8s.io/v1",
    kind: "IngressClass",
    columns: &COLUMNS,
    print: print_ingress_class,
};

/// Go's `printIngressClass`: the name (` (default)` after it for the default class), the
/// controller, the parameters as `Kind[.group]/name` (`<none>`).
pub fn print_ingress_class(obj: &Value) -> Row {
    let mut name = text(obj, "/metadata/name").to_owned();
    let annotation = format!(
        "/metadata/annotations/{}",
        IS_DEFAULT_ANNOTATION.replace('/', "~1")
    );
    if text(obj, &annotation) == "true" {
        name.push_str(" (default)");
    }
    let parameters = match obj.pointer("/spec/parameters").filter(|p| !p.is_null()) {
        None => "<none>".to_owned(),
        Some(p) => {
            let mut kind = text(p, "/kind").to_owned();
            if let Some(group) = p.get("apiGroup").and_then(Value::as_str) {
                kind = format!("{kind}.{group}");
            }
            format!("{kind}/{}", text(p, "/name"))
        }
    };
    Row::from(vec![
        Value::from(name),
        Value::from(text(obj, "/spec/controller")),
        Value::from(parameters),
        printers::age(obj),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Go's `TestPrintIngressClass`'s cases.
    #[test]
    fn ingress_classes_print_as_kubectl_shows_them() {
        let cells = |class: Value| {
            let mut cells = print_ingress_class(&class).cells;
            cells.remove(3);
            Value::from(cells)
        };
        let with_group = json!({"metadata": {"name": "test1"},
            "spec": {"controller": "example.com/controller",
                "parameters": {"kind": "customgroup", "apiGroup": "example.com", "name": "customparameters"}}});
        assert_eq!(
            cells(with_group),
            json!([
                "test1",
                "example.com/controller",
                "customgroup.example.com/customparameters"
            ])
        );
        let core = json!({"metadata": {"name": "test2"},
            "spec": {"controller": "example.com/controller", "parameters": {"kind": "customgroup", "name": "customparameters"}}});
        assert_eq!(cells(core)[2], json!("customgroup/customparameters"));
        let default = json!({"metadata": {"name": "test3",
                "annotations": {"ingressclass.kubernetes.io/is-default-class": "true"}},
            "spec": {"controller": "example.com/controller"}});
        assert_eq!(
            cells(default),
            json!(["test3 (default)", "example.com/controller", "<none>"])
        );
    }
}
