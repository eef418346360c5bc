//! A claim's spec and allocation as Go prints them in "field is immutable":
//! `json.Marshal` of the internal `ResourceClaimSpec` and `AllocationResult` (Go's field
//! names, every field, `null` for nil; see [`super::super::go_internal`]).

use apimachinery::util::validation::field::BadValue;

use super::super::go_internal::{GoStruct, json_text, list, or_null};
use crate::resource::v1::{
    AllocationResult, CapacityRequirements, DeviceAllocationConfiguration, DeviceClaim,
    DeviceConstraint, DeviceRequest, DeviceRequestAllocationResult, DeviceSelector,
    DeviceSubRequest, DeviceToleration, ExactDeviceRequest, OpaqueDeviceConfiguration,
    ResourceClaimTemplateSpec,
};

/// `{"Devices":{...}}`.
pub(super) fn claim_spec(devices: &DeviceClaim) -> BadValue {
    BadValue::Json(claim_spec_text(devices))
}

fn claim_spec_text(devices: &DeviceClaim) -> String {
    GoStruct::new().raw("Devices", device_claim(devices)).text()
}

/// The template's spec: its embedded ObjectMeta's fields (JSON-tagged), then `Spec`.
pub(super) fn template_spec(spec: &ResourceClaimTemplateSpec) -> BadValue {
    let meta = json_text(&spec.metadata);
    let inner = meta
        .strip_prefix('{')
        .and_then(|m| m.strip_suffix('}'))
        .unwrap_or_default();
    let mut out = String::from("{");
    if !inner.is_empty() {
        out.push_str(inner);
        out.push(',');
    }
    out.push_str("\"Spec\":");
    out.push_str(&claim_spec_text(&spec.spec.devices));
    out.push('}');
    BadValue::Json(out)
}

fn device_claim(c: &DeviceClaim) -> String {
    GoStruct::new()
        .raw(
            "Requests",
            match &c.requests {
                // Go's decoder makes `[]` an empty, non-nil slice.
                Some(r) if r.is_empty() => "[]".to_owned(),
                r => list(r.as_deref().unwrap_or_default(), request),
            },
        )
        .raw("Constraints", list(&c.constraints, constraint))
        .raw(
            "Config",
            list(&c.config, |cfg| {
                GoStruct::new()
                    .raw("Requests", list(&cfg.requests, json_text))
                    .raw("Opaque", or_null(cfg.opaque.as_ref(), opaque))
                    .text()
            }),
        )
        .text()
}

/// An allocation: its devices' results and configuration, node selector and time.
pub(super) fn allocation_result(a: &AllocationResult) -> String {
    let devices = GoStruct::new()
        .raw("Results", list(&a.devices.results, request_result))
        .raw("Config", list(&a.devices.config, allocation_config))
        .text();
    GoStruct::new()
        .raw("Devices", devices)
        .raw(
            "NodeSelector",
            or_null(a.node_selector.as_ref(), |s| {
                GoStruct::new()
                    .raw(
                        "NodeSelectorTerms",
                        super::slice::node_selector_terms_text(s),
                    )
                    .text()
            }),
        )
        .raw("AllocationTimestamp", json_text(&a.allocation_timestamp))
        .text()
}

fn request_result(r: &DeviceRequestAllocationResult) -> String {
    // A nil map is `null`; ours reads an absent map and an empty one alike.
    let consumed = if r.consumed_capacity.is_empty() {
        "null".to_owned()
    } else {
        json_text(&r.consumed_capacity)
    };
    let s = GoStruct::new()
        .raw("Request", json_text(&r.request))
        .raw("Driver", json_text(&r.driver))
        .raw("Pool", json_text(&r.pool))
        .raw("Device", json_text(&r.device))
        .raw("AdminAccess", json_text(&r.admin_access))
        .raw("Tolerations", list(&r.tolerations, toleration))
        .raw("BindingConditions", list(&r.binding_conditions, json_text))
        .raw(
            "BindingFailureConditions",
            list(&r.binding_failure_conditions, json_text),
        )
        .raw("ShareID", json_text(&r.share_id))
        .raw("ConsumedCapacity", consumed);
    #[cfg(feature = "v1_37")]
    let s = s.raw(
        "SkipNodeOperations",
        list(&r.skip_node_operations, json_text),
    );
    s.text()
}

/// The configuration's embedded `DeviceConfiguration` is written inline.
fn allocation_config(c: &DeviceAllocationConfiguration) -> String {
    GoStruct::new()
        .raw("Source", json_text(&c.source))
        .raw("Requests", list(&c.requests, json_text))
        .raw("Opaque", or_null(c.opaque.as_ref(), opaque))
        .text()
}

fn request(r: &DeviceRequest) -> String {
    GoStruct::new()
        .raw("Name", json_text(&r.name))
        .raw("Exactly", or_null(r.exactly.as_ref(), exact))
        .raw("FirstAvailable", list(&r.first_available, sub_request))
        .text()
}

fn exact(e: &ExactDeviceRequest) -> String {
    let s = GoStruct::new()
        .raw("DeviceClassName", json_text(&e.device_class_name))
        .raw("Selectors", list(&e.selectors, selector))
        .raw("AllocationMode", json_text(&e.allocation_mode))
        .raw("Count", e.count.to_string())
        .raw("AdminAccess", json_text(&e.admin_access))
        .raw("Tolerations", list(&e.tolerations, toleration))
        .raw("Capacity", or_null(e.capacity.as_ref(), capacity));
    #[cfg(feature = "v1_37")]
    let s = s.raw(
        "DerivedAttributes",
        list(&e.derived_attributes, derived_attribute),
    );
    s.text()
}

fn sub_request(s: &DeviceSubRequest) -> String {
    let out = GoStruct::new()
        .raw("Name", json_text(&s.name))
        .raw("DeviceClassName", json_text(&s.device_class_name))
        .raw("Selectors", list(&s.selectors, selector))
        .raw("AllocationMode", json_text(&s.allocation_mode))
        .raw("Count", s.count.to_string())
        .raw("Tolerations", list(&s.tolerations, toleration))
        .raw("Capacity", or_null(s.capacity.as_ref(), capacity));
    #[cfg(feature = "v1_37")]
    let out = out.raw(
        "DerivedAttributes",
        list(&s.derived_attributes, derived_attribute),
    );
    out.text()
}

/// Kubernetes 1.37's `DeviceDerivedAttribute`.
#[cfg(feature = "v1_37")]
fn derived_attribute(a: &crate::resource::v1::DeviceDerivedAttribute) -> String {
    GoStruct::new()
        .raw("Name", json_text(&a.name))
        .raw("Expression", json_text(&a.expression))
        .text()
}

fn selector(s: &DeviceSelector) -> String {
    GoStruct::new()
        .raw(
            "CEL",
            or_null(s.cel.as_ref(), |c| {
                GoStruct::new()
                    .raw("Expression", json_text(&c.expression))
                    .text()
            }),
        )
        .text()
}

fn toleration(t: &DeviceToleration) -> String {
    GoStruct::new()
        .raw("Key", json_text(&t.key))
        .raw("Operator", json_text(&t.operator))
        .raw("Value", json_text(&t.value))
        .raw("Effect", json_text(&t.effect))
        .raw("TolerationSeconds", json_text(&t.toleration_seconds))
        .text()
}

fn capacity(c: &CapacityRequirements) -> String {
    // A nil map is `null`; ours reads an absent map and an empty one alike.
    let requests = if c.requests.is_empty() {
        "null".to_owned()
    } else {
        json_text(&c.requests)
    };
    GoStruct::new().raw("Requests", requests).text()
}

fn constraint(c: &DeviceConstraint) -> String {
    GoStruct::new()
        .raw("Requests", list(&c.requests, json_text))
        .raw("MatchAttribute", json_text(&c.match_attribute))
        .raw("DistinctAttribute", json_text(&c.distinct_attribute))
        .text()
}

fn opaque(o: &OpaqueDeviceConfiguration) -> String {
    GoStruct::new()
        .raw("Driver", json_text(&o.driver))
        .raw("Parameters", raw_json(&o.parameters.raw))
        .text()
}

/// A RawExtension's bytes as `json.Marshal` writes a `Marshaler`'s output: `null` when
/// empty, else compacted (whitespace outside strings dropped) with `<`, `>`, `&`
/// escaped inside strings.
fn raw_json(raw: &[u8]) -> String {
    if raw.is_empty() {
        return "null".to_owned();
    }
    let text = String::from_utf8_lossy(raw);
    let mut out = String::with_capacity(text.len());
    let (mut in_string, mut escaped) = (false, false);
    for c in text.chars() {
        if in_string {
            match c {
                '<' => out.push_str("\\u003c"),
                '>' => out.push_str("\\u003e"),
                '&' => out.push_str("\\u0026"),
                '\u{2028}' => out.push_str("\\u2028"),
                '\u{2029}' => out.push_str("\\u2029"),
                _ => out.push(c),
            }
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if !c.is_ascii_whitespace() {
            in_string = c == '"';
            out.push(c);
        }
    }
    out
}
