//! The bad value Go prints for `spec.versions`: its internal
//! `[]CustomResourceDefinitionVersion` through `json.Marshal`. The internal types have
//! no `json` tags, so every field is written under its Go name, in declaration order,
//! nil pointers and lists as `null`; a schema's free-form values (`default`, `enum`,
//! `example`) are Go's decoded `interface{}` values.

use std::collections::BTreeMap;
use std::fmt::Write;

use apimachinery::util::validation::field::{BadValue, go_json_string};

use super::layout::{Layout, Version};
use crate::apiextensions::v1::{
    CustomResourceColumnDefinition, CustomResourceSubresources, JSONSchemaProps,
    JSONSchemaPropsOrArray, JSONSchemaPropsOrBool, JSONSchemaPropsOrStringArray, SelectableField,
};
use crate::validation::go_value::go_json;

/// Go's JSON of the layout's versions.
pub(super) fn versions_value(layout: &Layout<'_>) -> BadValue {
    if layout.versions.is_empty() {
        return BadValue::null();
    }
    let mut out = String::from("[");
    for (i, v) in layout.versions.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        version(&mut out, v);
    }
    out.push(']');
    BadValue::Json(out)
}

/// A schema as Go prints its internal `JSONSchemaProps`.
pub(super) fn schema_value(s: &JSONSchemaProps) -> BadValue {
    let mut out = String::new();
    schema(&mut out, s);
    BadValue::Json(out)
}

/// An `items` that is a list of schemas, as Go prints its `*JSONSchemaPropsOrArray`.
pub(super) fn items_value(l: &[JSONSchemaProps]) -> BadValue {
    let mut out = String::from("{\"Schema\":null,\"JSONSchemas\":");
    list(&mut out, l, schema);
    out.push('}');
    BadValue::Json(out)
}

/// A JSON value as Go's encoder writes it (`null` for none).
fn value<T: serde::Serialize>(out: &mut String, v: Option<&T>) {
    match v.map(go_json) {
        Some(BadValue::Json(s)) => out.push_str(&s),
        _ => out.push_str("null"),
    }
}

fn string(out: &mut String, s: &str) {
    out.push_str(&go_json_string(s));
}

fn opt_string(out: &mut String, s: Option<&str>) {
    match s {
        Some(s) => string(out, s),
        None => out.push_str("null"),
    }
}

fn strings(out: &mut String, items: &[String]) {
    list(out, items, |out, s| string(out, s));
}

/// A list: `null` when empty (a list read from JSON without the field is Go's nil).
fn list<T>(out: &mut String, items: &[T], each: impl Fn(&mut String, &T)) {
    // Per element type and closure only the element's print by index; the loop is
    // `list_by_index`'s, compiled once.
    list_by_index(out, items.len(), &|out, i| {
        if let Some(item) = items.get(i) {
            each(out, item);
        }
    });
}

/// [`list`]'s loop: `len` elements, element `i` printed by `each(out, i)`.
#[inline(never)]
fn list_by_index(out: &mut String, len: usize, each: &dyn Fn(&mut String, usize)) {
    if len == 0 {
        out.push_str("null");
        return;
    }
    out.push('[');
    for i in 0..len {
        if i > 0 {
            out.push(',');
        }
        each(out, i);
    }
    out.push(']');
}

/// A map, keys sorted as Go's encoder sorts them: `null` when empty.
fn map<T>(out: &mut String, items: &BTreeMap<String, T>, each: impl Fn(&mut String, &T)) {
    if items.is_empty() {
        out.push_str("null");
        return;
    }
    out.push('{');
    for (i, (k, v)) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        string(out, k);
        out.push(':');
        each(out, v);
    }
    out.push('}');
}

fn version(out: &mut String, v: &Version<'_>) {
    let _ = write!(
        out,
        "{{\"Name\":{},\"Served\":{},\"Storage\":{},\"Deprecated\":{},\"DeprecationWarning\":",
        go_json_string(&v.v.name),
        v.v.served,
        v.v.storage,
        v.v.deprecated
    );
    opt_string(out, v.v.deprecation_warning.as_deref());
    out.push_str(",\"Schema\":");
    match v.schema {
        None => out.push_str("null"),
        Some(s) => {
            out.push_str("{\"OpenAPIV3Schema\":");
            opt_schema(out, s.open_apiv3_schema.as_ref());
            out.push('}');
        }
    }
    out.push_str(",\"Subresources\":");
    subresources(out, v.subresources);
    out.push_str(",\"AdditionalPrinterColumns\":");
    list(out, v.columns, column);
    out.push_str(",\"SelectableFields\":");
    list(out, v.selectable_fields, |out, f: &SelectableField| {
        out.push_str("{\"JSONPath\":");
        string(out, &f.json_path);
        out.push('}');
    });
    out.push('}');
}

fn subresources(out: &mut String, s: Option<&CustomResourceSubresources>) {
    let Some(s) = s else {
        out.push_str("null");
        return;
    };
    out.push_str("{\"Status\":");
    out.push_str(if s.status.is_some() { "{}" } else { "null" });
    out.push_str(",\"Scale\":");
    match &s.scale {
        None => out.push_str("null"),
        Some(sc) => {
            out.push_str("{\"SpecReplicasPath\":");
            string(out, &sc.spec_replicas_path);
            out.push_str(",\"StatusReplicasPath\":");
            string(out, &sc.status_replicas_path);
            out.push_str(",\"LabelSelectorPath\":");
            opt_string(out, sc.label_selector_path.as_deref());
            out.push('}');
        }
    }
    out.push('}');
}

fn column(out: &mut String, c: &CustomResourceColumnDefinition) {
    out.push_str("{\"Name\":");
    string(out, &c.name);
    out.push_str(",\"Type\":");
    string(out, &c.r#type);
    out.push_str(",\"Format\":");
    string(out, &c.format);
    out.push_str(",\"Description\":");
    string(out, &c.description);
    let _ = write!(out, ",\"Priority\":{},\"JSONPath\":", c.priority);
    string(out, &c.json_path);
    out.push('}');
}

fn opt_schema(out: &mut String, s: Option<&JSONSchemaProps>) {
    match s {
        None => out.push_str("null"),
        Some(s) => schema(out, s),
    }
}

fn or_bool(out: &mut String, b: Option<&JSONSchemaPropsOrBool>) {
    match b {
        None => out.push_str("null"),
        Some(JSONSchemaPropsOrBool::Allows(a)) => {
            let _ = write!(out, "{{\"Allows\":{a},\"Schema\":null}}");
        }
        Some(JSONSchemaPropsOrBool::Schema(s)) => {
            out.push_str("{\"Allows\":true,\"Schema\":");
            schema(out, s);
            out.push('}');
        }
    }
}

/// A schema as Go's `json.Marshal` writes the internal `JSONSchemaProps`.
fn schema(out: &mut String, s: &JSONSchemaProps) {
    out.push_str("{\"ID\":");
    string(out, &s.id);
    out.push_str(",\"Schema\":");
    string(out, &s.schema);
    out.push_str(",\"Ref\":");
    opt_string(out, s.r#ref.as_deref());
    out.push_str(",\"Description\":");
    string(out, &s.description);
    out.push_str(",\"Type\":");
    string(out, &s.r#type);
    let _ = write!(out, ",\"Nullable\":{},\"Format\":", s.nullable);
    string(out, &s.format);
    out.push_str(",\"Title\":");
    string(out, &s.title);
    out.push_str(",\"Default\":");
    value(out, s.default.as_ref().map(|j| &j.0));
    out.push_str(",\"Maximum\":");
    value(out, s.maximum.as_ref());
    let _ = write!(
        out,
        ",\"ExclusiveMaximum\":{},\"Minimum\":",
        s.exclusive_maximum
    );
    value(out, s.minimum.as_ref());
    let _ = write!(
        out,
        ",\"ExclusiveMinimum\":{},\"MaxLength\":",
        s.exclusive_minimum
    );
    value(out, s.max_length.as_ref());
    out.push_str(",\"MinLength\":");
    value(out, s.min_length.as_ref());
    out.push_str(",\"Pattern\":");
    string(out, &s.pattern);
    out.push_str(",\"MaxItems\":");
    value(out, s.max_items.as_ref());
    out.push_str(",\"MinItems\":");
    value(out, s.min_items.as_ref());
    let _ = write!(out, ",\"UniqueItems\":{},\"MultipleOf\":", s.unique_items);
    value(out, s.multiple_of.as_ref());
    out.push_str(",\"Enum\":");
    list(out, &s.r#enum, |out, j| value(out, Some(&j.0)));
    out.push_str(",\"MaxProperties\":");
    value(out, s.max_properties.as_ref());
    out.push_str(",\"MinProperties\":");
    value(out, s.min_properties.as_ref());
    out.push_str(",\"Required\":");
    strings(out, &s.required);
    out.push_str(",\"Items\":");
    match &s.items {
        None => out.push_str("null"),
        Some(JSONSchemaPropsOrArray::Schema(one)) => {
            out.push_str("{\"Schema\":");
            schema(out, one);
            out.push_str(",\"JSONSchemas\":null}");
        }
        Some(JSONSchemaPropsOrArray::Schemas(many)) => {
            out.push_str("{\"Schema\":null,\"JSONSchemas\":");
            list(out, many, schema);
            out.push('}');
        }
    }
    out.push_str(",\"AllOf\":");
    list(out, &s.all_of, schema);
    out.push_str(",\"OneOf\":");
    list(out, &s.one_of, schema);
    out.push_str(",\"AnyOf\":");
    list(out, &s.any_of, schema);
    out.push_str(",\"Not\":");
    opt_schema(out, s.not.as_deref());
    out.push_str(",\"Properties\":");
    map(out, &s.properties, schema);
    out.push_str(",\"AdditionalProperties\":");
    or_bool(out, s.additional_properties.as_ref());
    out.push_str(",\"PatternProperties\":");
    map(out, &s.pattern_properties, schema);
    out.push_str(",\"Dependencies\":");
    map(out, &s.dependencies, |out, d| match d {
        JSONSchemaPropsOrStringArray::Schema(one) => {
            out.push_str("{\"Schema\":");
            schema(out, one);
            out.push_str(",\"Property\":null}");
        }
        JSONSchemaPropsOrStringArray::Property(p) => {
            out.push_str("{\"Schema\":null,\"Property\":");
            strings(out, p);
            out.push('}');
        }
    });
    out.push_str(",\"AdditionalItems\":");
    or_bool(out, s.additional_items.as_ref());
    out.push_str(",\"Definitions\":");
    map(out, &s.definitions, schema);
    out.push_str(",\"ExternalDocs\":");
    match &s.external_docs {
        None => out.push_str("null"),
        Some(d) => {
            out.push_str("{\"Description\":");
            string(out, &d.description);
            out.push_str(",\"URL\":");
            string(out, &d.url);
            out.push('}');
        }
    }
    out.push_str(",\"Example\":");
    value(out, s.example.as_ref().map(|j| &j.0));
    out.push_str(",\"XPreserveUnknownFields\":");
    value(out, s.x_kubernetes_preserve_unknown_fields.as_ref());
    let _ = write!(
        out,
        ",\"XEmbeddedResource\":{},\"XIntOrString\":{},\"XListMapKeys\":",
        s.x_kubernetes_embedded_resource, s.x_kubernetes_int_or_string
    );
    strings(out, &s.x_kubernetes_list_map_keys);
    out.push_str(",\"XListType\":");
    opt_string(out, s.x_kubernetes_list_type.as_deref());
    out.push_str(",\"XMapType\":");
    opt_string(out, s.x_kubernetes_map_type.as_deref());
    out.push_str(",\"XValidations\":");
    list(out, &s.x_kubernetes_validations, |out, r| {
        out.push_str("{\"Rule\":");
        string(out, &r.rule);
        out.push_str(",\"Message\":");
        string(out, &r.message);
        out.push_str(",\"MessageExpression\":");
        string(out, &r.message_expression);
        out.push_str(",\"Reason\":");
        opt_string(out, r.reason.as_deref());
        out.push_str(",\"FieldPath\":");
        string(out, &r.field_path);
        out.push_str(",\"OptionalOldSelf\":");
        value(out, r.optional_old_self.as_ref());
        out.push('}');
    });
    out.push('}');
}
