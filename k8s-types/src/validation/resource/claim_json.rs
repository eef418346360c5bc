//! A claim's spec as Go prints it in "field is immutable": `json.Marshal` of the
//! internal `ResourceClaimSpec` (Go's field names, every field, `null` for nil; see
//! [`super::super::go_struct`]).

use apimachinery::util::validation::field::BadValue;

use super::super::go_struct::{GoStruct, json_text, list, opt};
use crate::resource::v1::{
    CapacityRequirements, DeviceClaim, DeviceConstraint, DeviceRequest, DeviceSelector,
    DeviceSubRequest, DeviceToleration, ExactDeviceRequest, OpaqueDeviceConfiguration,
    ResourceClaimTemplateSpec,
};

/// `{"Devices":{...}}`.
pub(super) fn claim_spec(devices: &DeviceClaim) -> BadValue {
    BadValue::Json(claim_spec_text(devices))
}

fn claim_spec_text(devices: &DeviceClaim) -> String {
    GoStruct::new()
        .field("Devices", device_claim(devices))
        .finish()
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
        .field(
            "Requests",
            match &c.requests {
                // Go's decoder makes `[]` an empty, non-nil slice.
                Some(r) if r.is_empty() => "[]".to_owned(),
                r => list(r.as_deref().unwrap_or_default(), request),
            },
        )
        .field("Constraints", list(&c.constraints, constraint))
        .field(
            "Config",
            list(&c.config, |cfg| {
                GoStruct::new()
                    .field("Requests", list(&cfg.requests, json_text))
                    .field("Opaque", opt(cfg.opaque.as_ref(), opaque))
                    .finish()
            }),
        )
        .finish()
}

fn request(r: &DeviceRequest) -> String {
    GoStruct::new()
        .field("Name", json_text(&r.name))
        .field("Exactly", opt(r.exactly.as_ref(), exact))
        .field("FirstAvailable", list(&r.first_available, sub_request))
        .finish()
}

fn exact(e: &ExactDeviceRequest) -> String {
    GoStruct::new()
        .field("DeviceClassName", json_text(&e.device_class_name))
        .field("Selectors", list(&e.selectors, selector))
        .field("AllocationMode", json_text(&e.allocation_mode))
        .field("Count", e.count.to_string())
        .field("AdminAccess", json_text(&e.admin_access))
        .field("Tolerations", list(&e.tolerations, toleration))
        .field("Capacity", opt(e.capacity.as_ref(), capacity))
        .finish()
}

fn sub_request(s: &DeviceSubRequest) -> String {
    GoStruct::new()
        .field("Name", json_text(&s.name))
        .field("DeviceClassName", json_text(&s.device_class_name))
        .field("Selectors", list(&s.selectors, selector))
        .field("AllocationMode", json_text(&s.allocation_mode))
        .field("Count", s.count.to_string())
        .field("Tolerations", list(&s.tolerations, toleration))
        .field("Capacity", opt(s.capacity.as_ref(), capacity))
        .finish()
}

fn selector(s: &DeviceSelector) -> String {
    GoStruct::new()
        .field(
            "CEL",
            opt(s.cel.as_ref(), |c| {
                GoStruct::new()
                    .field("Expression", json_text(&c.expression))
                    .finish()
            }),
        )
        .finish()
}

fn toleration(t: &DeviceToleration) -> String {
    GoStruct::new()
        .field("Key", json_text(&t.key))
        .field("Operator", json_text(&t.operator))
        .field("Value", json_text(&t.value))
        .field("Effect", json_text(&t.effect))
        .field("TolerationSeconds", json_text(&t.toleration_seconds))
        .finish()
}

fn capacity(c: &CapacityRequirements) -> String {
    // A nil map is `null`; ours reads an absent map and an empty one alike.
    let requests = if c.requests.is_empty() {
        "null".to_owned()
    } else {
        json_text(&c.requests)
    };
    GoStruct::new().field("Requests", requests).finish()
}

fn constraint(c: &DeviceConstraint) -> String {
    GoStruct::new()
        .field("Requests", list(&c.requests, json_text))
        .field("MatchAttribute", json_text(&c.match_attribute))
        .field("DistinctAttribute", json_text(&c.distinct_attribute))
        .finish()
}

fn opaque(o: &OpaqueDeviceConfiguration) -> String {
    GoStruct::new()
        .field("Driver", json_text(&o.driver))
        .field("Parameters", raw_json(&o.parameters.raw))
        .finish()
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

#[cfg(test)]
mod tests {
    use super::raw_json;

    #[test]
    fn raw_json_is_compacted_with_html_escapes() {
        assert_eq!(
            raw_json(br#"{ "a" : "x <y> \" z",  "b": [1, 2] }"#),
            r#"{"a":"x \u003cy\u003e \" z","b":[1,2]}"#
        );
        assert_eq!(raw_json(b""), "null");
    }
}
