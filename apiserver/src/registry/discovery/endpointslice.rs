//! EndpointSlices (Go's `pkg/registry/discovery/endpointslice`): a generation counted
//! over everything but the metadata (and the labels), and the table
//! `kubectl get endpointslices` prints (Go's `printEndpointSlice`).

use std::sync::Arc;

use apimachinery::api::errors::StatusError;
use apimachinery::runtime::{Object, Scheme};
use apimachinery::util::validation::field::Path;
use apimachinery::util::validation::ip::get_warnings_for_ip;
use serde_json::Value;

use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{
    self, AGE, Column, NAME, Printer, Row, items, string_column, text,
};
use crate::registry::rest::RestStorage;
use crate::registry::strategy::{Strategy, Subresource, prepare_for_update};
use crate::registry::{ResourceInfo, to_json};

/// Go's endpoint slice strategy: an EndpointSlice has neither spec nor status, yet
/// its generation starts at 1 and grows with each update changing anything but its
/// metadata, or its labels.
#[derive(Clone, Copy, Debug, Default)]
pub struct EndpointSliceStrategy;

impl Strategy for EndpointSliceStrategy {
    fn prepare_for_create(
        &self,
        _scheme: &Scheme,
        _info: &ResourceInfo,
        mut obj: Box<dyn Object>,
    ) -> Result<Box<dyn Object>, StatusError> {
        if let Some(meta) = obj.meta_mut() {
            meta.set_generation(1);
        }
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
        let mut new = prepare_for_update(scheme, info, old, new, subresource, |_, _, _| false)?;
        let (old_v, new_v) = (to_json(old)?, to_json(&*new)?);
        let without_metadata = |v: &Value| {
            let mut v = v.clone();
            if let Some(map) = v.as_object_mut() {
                map.remove("metadata");
            }
            v
        };
        let changed = without_metadata(&old_v) != without_metadata(&new_v)
            || old_v.pointer("/metadata/labels") != new_v.pointer("/metadata/labels");
        if changed {
            let generation = old.meta().map_or(0, |m| m.generation());
            if let Some(meta) = new.meta_mut() {
                meta.set_generation(generation + 1);
            }
        }
        Ok(new)
    }

    /// Go's `WarningsOnCreate`: FQDN slices are deprecated; addresses in a
    /// non-standard form.
    fn warnings_on_create(&self, obj: &dyn Object) -> Vec<String> {
        let Ok(slice) = to_json(obj) else {
            return Vec::new();
        };
        let mut warnings = Vec::new();
        if text(&slice, "/addressType") == "FQDN" {
            warnings.push("spec.addressType: FQDN endpoints are deprecated".to_owned());
        }
        warnings.extend(address_warnings(&slice));
        warnings
    }

    fn warnings_on_update(&self, obj: &dyn Object, _old: &dyn Object) -> Vec<String> {
        to_json(obj)
            .map(|slice| address_warnings(&slice))
            .unwrap_or_default()
    }
}

/// Go's `warnOnBadIPs`: the endpoints' addresses in a non-standard form, unless one of
/// Go's controllers wrote the slice (they write them canonical).
fn address_warnings(slice: &Value) -> Vec<String> {
    let managed_by = slice
        .pointer("/metadata/labels/endpointslice.kubernetes.io~1managed-by")
        .and_then(Value::as_str);
    if matches!(
        managed_by,
        Some("endpointslice-controller.k8s.io" | "endpointslicemirroring-controller.k8s.io")
    ) {
        return Vec::new();
    }
    let endpoints = Path::new("endpoints");
    let mut warnings = Vec::new();
    for (i, endpoint) in items(slice, "/endpoints").iter().enumerate() {
        let endpoint_path = endpoints.index(i);
        let path = endpoint_path.child("addresses");
        for (j, address) in items(endpoint, "/addresses").iter().enumerate() {
            let address = address.as_str().unwrap_or_default();
            warnings.extend(get_warnings_for_ip(&path.index(j), address));
        }
    }
    warnings
}

/// Go's `endpointSliceColumnDefinitions`.
pub const COLUMNS: [Column; 5] = [
    NAME,
    string_column(
        "AddressType",
        "addressType specifies the type of address carried by this EndpointSlice. All addresses in this slice must be the same type. This field is immutable after creation. The following address types are currently supported: * IPv4: Represents an IPv4 Address. * IPv6: Represents an IPv6 Address. * FQDN: Represents a Fully Qualified Domain Name. (Deprecated) The EndpointSlice controller only generates, and kube-proxy only processes, slices of addressType \"IPv4\" and \"IPv6\". No semantics are defined for the \"FQDN\" type.",
        0,
    ),
    string_column(
        "Ports",
        "ports specifies the list of network ports exposed by each endpoint in this slice. Each port must have a unique name. Each slice may include a maximum of 100 ports. Services always have at least 1 port, so EndpointSlices generated by the EndpointSlice controller will likewise always have at least 1 port. EndpointSlices used for other purposes may have an empty ports list.",
        0,
    ),
    string_column(
        "Endpoints",
        "endpoints is a list of unique endpoints in this slice. Each slice may include a maximum of 1000 endpoints.",
        0,
    ),
    AGE,
];

/// The EndpointSlices' table convertor.
pub static ENDPOINT_SLICE_TABLE: Printer = Printer {
    api_version: "discovery.k8s.io/v1",
    kind: "EndpointSlice",
    columns: &COLUMNS,
    print: print_endpoint_slice,
};

/// Go's `printEndpointSlice`: the address type, the first three ports (each its number,
/// else its name, else `*`) and the first three addresses, each list with how many more
/// there are (`<unset>` for none).
pub fn print_endpoint_slice(obj: &Value) -> Row {
    let ports = items(obj, "/ports").iter().map(|p| {
        match (p.get("port").and_then(Value::as_i64), p.get("name")) {
            (Some(port), _) => port.to_string(),
            (None, Some(Value::String(name))) => name.clone(),
            (None, _) => "*".to_owned(),
        }
    });
    let addresses = items(obj, "/endpoints")
        .iter()
        .flat_map(|e| items(e, "/addresses"))
        .map(|a| a.as_str().unwrap_or_default().to_owned());
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        Value::from(text(obj, "/addressType")),
        Value::from(first_three(ports)),
        Value::from(first_three(addresses)),
        printers::age(obj),
    ])
}

/// Go's `listWithMoreString` of at most three of `values`: joined with commas, then
/// ` + N more...` for the others; `<unset>` for none.
fn first_three(values: impl Iterator<Item = String>) -> String {
    const MAX: usize = 3;
    let mut shown = Vec::with_capacity(MAX);
    let mut count = 0;
    for v in values {
        if shown.len() < MAX {
            shown.push(v);
        }
        count += 1;
    }
    let joined = shown.join(",");
    if count > MAX {
        format!("{joined} + {} more...", count - MAX)
    } else if joined.is_empty() {
        "<unset>".to_owned()
    } else {
        joined
    }
}

/// The EndpointSlices' REST storage over `info`, with the table.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard_with_table(info, EndpointSliceStrategy, Arc::new(ENDPOINT_SLICE_TABLE))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Go's strategy: generation 1 on create, one more for a changed endpoint or label,
    /// none for another metadata change.
    #[test]
    fn the_generation_counts_changes_but_metadata_ones() {
        use crate::registry::{from_value, resources_from_scheme};
        let mut scheme = Scheme::with_name("endpointslice-generation-tests");
        scheme.add_registry().unwrap();
        let info = resources_from_scheme(&scheme)
            .into_values()
            .find(|r| r.group == "discovery.k8s.io" && r.resource == "endpointslices")
            .unwrap();
        let slice = |labels: Value, address: &str| {
            let v = json!({"metadata": {"name": "s", "labels": labels, "generation": 1},
                "addressType": "IPv4", "endpoints": [{"addresses": [address]}]});
            from_value(&scheme, &info.storage_gvk, v).unwrap()
        };
        let created = EndpointSliceStrategy
            .prepare_for_create(&scheme, &info, slice(json!({}), "10.0.0.1"))
            .unwrap();
        assert_eq!(created.meta().unwrap().generation(), 1);
        let update = |new: Box<dyn Object>| {
            let out = EndpointSliceStrategy
                .prepare_for_update(&scheme, &info, &*created, new, Subresource::Main)
                .unwrap();
            out.meta().unwrap().generation()
        };
        assert_eq!(update(slice(json!({}), "10.0.0.2")), 2);
        assert_eq!(update(slice(json!({"a": "b"}), "10.0.0.1")), 2);
        let mut annotated = slice(json!({}), "10.0.0.1");
        let mut annotations = std::collections::BTreeMap::new();
        annotations.insert("a".to_owned(), "b".to_owned());
        annotated.meta_mut().unwrap().set_annotations(annotations);
        assert_eq!(update(annotated), 1);
    }

    /// Go's `TestPrintEndpointSlice`'s cases.
    #[test]
    fn endpoint_slices_print_as_kubectl_shows_them() {
        let cells = |slice: Value| {
            let mut cells = print_endpoint_slice(&slice).cells;
            cells.remove(4);
            Value::from(cells)
        };
        let slice = json!({"metadata": {"name": "abcslice.123"}, "addressType": "IPv4",
            "ports": [{"name": "http", "port": 80, "protocol": "TCP"}],
            "endpoints": [{"addresses": ["10.1.2.3", "2001:db8::1234:5678"]}]});
        assert_eq!(
            cells(slice),
            json!(["abcslice.123", "IPv4", "80", "10.1.2.3,2001:db8::1234:5678"])
        );
        let many = json!({"metadata": {"name": "longerslicename.123"}, "addressType": "IPv6",
            "ports": [{"name": "http", "port": 80}, {"name": "https", "port": 443}],
            "endpoints": [{"addresses": ["10.1.2.3", "2001:db8::1234:5678"]},
                {"addresses": ["10.2.3.4", "2001:db8::2345:6789"]}]});
        assert_eq!(
            cells(many),
            json!([
                "longerslicename.123",
                "IPv6",
                "80,443",
                "10.1.2.3,2001:db8::1234:5678,10.2.3.4 + 1 more..."
            ])
        );
        let named = json!({"metadata": {"name": "n"}, "addressType": "FQDN",
            "ports": [{"name": "http"}, {}], "endpoints": []});
        assert_eq!(cells(named), json!(["n", "FQDN", "http,*", "<unset>"]));
    }

    /// Go's `TestWarningsOnEndpointSliceAddressType` and `warnOnBadIPs` cases.
    #[test]
    fn fqdn_slices_and_non_standard_addresses_are_warned_about() {
        let mut slice = serde_json::json!({"addressType": "FQDN", "endpoints": [
            {"addresses": ["a.example.com"]}, {"addresses": ["10.0.0.1", "::ffff:10.0.0.2"]}]});
        assert_eq!(
            address_warnings(&slice),
            [
                "endpoints[1].addresses[1]: non-standard IP address \"::ffff:10.0.0.2\" is invalid: use \"10.0.0.2\""
            ]
        );
        slice["metadata"] = serde_json::json!({"labels": {"endpointslice.kubernetes.io/managed-by": "endpointslice-controller.k8s.io"}});
        assert!(address_warnings(&slice).is_empty());
    }
}
