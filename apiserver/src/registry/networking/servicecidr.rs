//! ServiceCIDRs (Go's `pkg/registry/networking/servicecidr`): the table
//! `kubectl get servicecidrs` prints (Go's `printServiceCIDR`).

use serde_json::Value;

use crate::registry::printers::{
    self, AGE, Column, NAME, Printer, Row, items, string_column, text,
};

/// Go's `serviceCIDRColumnDefinitions` (the description is networking/v1's
/// `ServiceCIDRSpec` doc of `cidrs`, which 1.37 starts in lower case).
pub const COLUMNS: [Column; 3] = [NAME, string_column("CIDRs", CIDRS_DESCRIPTION, 0), AGE];

#[cfg(feature = "v1_37")]
const CIDRS_DESCRIPTION: &str = "cidrs defines the IP blocks in CIDR notation (e.g. \"192.168.0.0/24\" or \"2001:db8::/64\") from which to assign service cluster IPs. Max of two CIDRs is allowed, one of each IP family. This field is immutable.";
#[cfg(not(feature = "v1_37"))]
const CIDRS_DESCRIPTION: &str = "CIDRs defines the IP blocks in CIDR notation (e.g. \"192.168.0.0/24\" or \"2001:db8::/64\") from which to assign service cluster IPs. Max of two CIDRs is allowed, one of each IP family. This field is immutable.";

/// The ServiceCIDRs' table convertor.
pub static SERVICE_CIDR_TABLE: Printer = Printer {
    api_version: "networking.k8s.io/v1",
    kind: "ServiceCIDR",
    columns: &COLUMNS,
    print: print_service_cidr,
};

/// Go's `printServiceCIDR`: the CIDRs, joined with commas.
pub fn print_service_cidr(obj: &Value) -> Row {
    let cidrs: Vec<&str> = items(obj, "/spec/cidrs")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        Value::from(cidrs.join(",")),
        printers::age(obj),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Go's `TestPrintServiceCIDR`'s dual-stack case.
    #[test]
    fn service_cidrs_print_as_kubectl_shows_them() {
        let cidr = json!({"metadata": {"name": "test1"},
            "spec": {"cidrs": ["10.1.0.0/16", "fd00:1:1::/64"]}});
        assert_eq!(
            print_service_cidr(&cidr).cells[1],
            json!("10.1.0.0/16,fd00:1:1::/64")
        );
    }
}
