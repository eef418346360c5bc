//! IPAddresses (Go's `pkg/registry/networking/ipaddress`): the table
//! `kubectl get ipaddresses` prints (Go's `printIPAddress`).

use apimachinery::util::go_strings::to_lower;
use serde_json::Value;

use crate::registry::printers::{self, Column, NAME, Printer, Row, string_column, text};

/// Go's `ipAddressColumnDefinitions`: two columns, though Go's rows have a third cell,
/// the age (kubectl prints it without a header); ours are the same.
pub const COLUMNS: [Column; 2] = [NAME, string_column("ParentRef", PARENT_REF_DESCRIPTION, 0)];

#[cfg(feature = "v1_37")]
const PARENT_REF_DESCRIPTION: &str = "parentRef references the resource that an IPAddress is attached to. An IPAddress must reference a parent object.";
#[cfg(not(feature = "v1_37"))]
const PARENT_REF_DESCRIPTION: &str = "ParentRef references the resource that an IPAddress is attached to. An IPAddress must reference a parent object.";

/// The IPAddresses' table convertor.
pub static IP_ADDRESS_TABLE: Printer = Printer {
    api_version: "networking.k8s.io/v1",
    kind: "IPAddress",
    columns: &COLUMNS,
    print: print_ip_address,
};

/// Go's `printIPAddress`: the parent as `resource.group[/namespace]/name` in lower case
/// (`<none>`), then the age.
pub fn print_ip_address(obj: &Value) -> Row {
    let parent = match obj.pointer("/spec/parentRef").filter(|p| !p.is_null()) {
        None => "<none>".to_owned(),
        Some(p) => {
            // Go's `schema.GroupResource.String()`: `resource` in the core group.
            let (group, resource) = (text(p, "/group"), text(p, "/resource"));
            let mut parent = if group.is_empty() {
                to_lower(resource)
            } else {
                to_lower(&format!("{resource}.{group}"))
            };
            let namespace = text(p, "/namespace");
            if !namespace.is_empty() {
                parent = format!("{parent}/{namespace}");
            }
            format!("{parent}/{}", text(p, "/name"))
        }
    };
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        Value::from(parent),
        printers::age(obj),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Go's `TestPrintIPAddress`.
    #[test]
    fn ip_addresses_print_as_kubectl_shows_them() {
        let ip = json!({"metadata": {"name": "192.168.2.2"},
            "spec": {"parentRef": {"group": "mygroup", "resource": "myresource",
                "namespace": "mynamespace", "name": "myname"}}});
        let cells = print_ip_address(&ip).cells;
        assert_eq!(cells.len(), 3);
        assert_eq!(cells[1], json!("myresource.mygroup/mynamespace/myname"));
        let service = json!({"metadata": {"name": "10.0.0.1"},
            "spec": {"parentRef": {"resource": "services", "name": "kubernetes"}}});
        assert_eq!(
            print_ip_address(&service).cells[1],
            json!("services/kubernetes")
        );
        assert_eq!(print_ip_address(&json!({})).cells[1], json!("<none>"));
    }
}
