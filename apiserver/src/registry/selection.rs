//! Which objects a list or watch selects: a label selector and a field selector (Go's
//! `storage.SelectionPredicate`). Every resource exposes `metadata.name` and, when
//! namespaced, `metadata.namespace` as fields; some kinds expose more, as their
//! strategies say ([`Strategy::selectable_fields`](super::Strategy::selectable_fields):
//! events by `involvedObject.*`, which `kubectl describe` asks for; pods by
//! `spec.nodeName` and `status.phase`; ...).

use std::collections::BTreeMap;

use serde_json::Value;

use apimachinery::fields;
use apimachinery::labels;
use apimachinery::runtime::Object;
use apimachinery::runtime::unstructured::object_to_unstructured;

use super::resource_info::ResourceInfo;
use super::strategy::SelectableField;

/// A field's value as Go's selectable fields write it (booleans and numbers as text,
/// absent as empty).
fn field_text(value: Option<&Value>) -> String {
    match value {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Bool(b)) => b.to_string(),
        Some(Value::Number(n)) => n.to_string(),
        _ => String::new(),
    }
}

/// A label selector and a field selector, both matching everything when empty.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// The label selector.
    pub labels: labels::Selector,
    /// The field selector.
    pub fields: fields::Selector,
}

/// A field selector naming a field the resource does not expose.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("field label not supported: {field}")]
pub struct UnsupportedFieldError {
    /// The field.
    pub field: String,
}

impl Selection {
    /// True when it selects everything.
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty() && self.fields.is_empty()
    }

    /// Checks that the field selector only names fields of `info`, whose kind also
    /// has the `extra` fields (Go answers 400 `field label not supported` otherwise).
    pub fn check_fields(
        &self,
        info: &ResourceInfo,
        extra: &[SelectableField],
    ) -> Result<(), UnsupportedFieldError> {
        for r in self.fields.requirements() {
            let known = r.field == "metadata.name"
                || (info.namespaced && r.field == "metadata.namespace")
                || extra.iter().any(|(f, _)| *f == r.field);
            if !known {
                return Err(UnsupportedFieldError {
                    field: r.field.clone(),
                });
            }
        }
        Ok(())
    }

    /// Whether `obj` of resource `info`, whose kind also has the `extra` fields, is
    /// selected.
    pub fn matches(
        &self,
        info: &ResourceInfo,
        extra: &[SelectableField],
        obj: &dyn Object,
    ) -> bool {
        if self.is_empty() {
            return true;
        }
        let Some(meta) = obj.meta() else {
            return false;
        };
        if !self.labels.matches(&meta.labels()) {
            return false;
        }
        if self.fields.is_empty() {
            return true;
        }
        let mut fields = BTreeMap::new();
        fields.insert("metadata.name".to_owned(), meta.name().to_owned());
        if info.namespaced {
            fields.insert("metadata.namespace".to_owned(), meta.namespace().to_owned());
        }
        if !extra.is_empty() {
            let json = object_to_unstructured(obj).map_or(Value::Null, Value::Object);
            for (label, pointer) in extra {
                fields.insert((*label).to_owned(), field_text(json.pointer(pointer)));
            }
        }
        self.fields.matches(&fields)
    }
}
