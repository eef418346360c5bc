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
use apimachinery::util::validation::field::go_quote;

use super::resource_info::ResourceInfo;
use super::strategy::SelectableField;

/// The selectable fields whose Go value is a boolean or a number rather than a string,
/// with the text Go's `ToSelectableFields` writes for them when the JSON leaves them
/// out (their zero value, which the objects here do not serialize): a Pod's
/// `spec.hostNetwork` (`strconv.FormatBool`), a Node's `spec.unschedulable`
/// (`fmt.Sprint`), a Job's `status.successful` (`strconv.Itoa`).
const ZERO_WHEN_ABSENT: &[(&str, &str)] = &[
    ("spec.hostNetwork", "false"),
    ("spec.unschedulable", "false"),
    ("status.successful", "0"),
];

/// The field `label`'s value as Go's selectable fields write it (booleans and numbers
/// as text, absent as empty or as its [zero](ZERO_WHEN_ABSENT)).
fn field_text(label: &str, value: Option<&Value>) -> String {
    match value {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Bool(b)) => b.to_string(),
        Some(Value::Number(n)) => n.to_string(),
        _ => ZERO_WHEN_ABSENT
            .iter()
            .find(|(l, _)| *l == label)
            .map_or_else(String::new, |(_, zero)| (*zero).to_owned()),
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

/// A field selector naming a field the resource does not expose, in the words of the
/// Go function that converts the kind's field labels.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UnsupportedFieldError {
    /// A kind with field labels of its own (a custom resource, or a built-in kind whose
    /// conversion functions list its fields).
    #[error("field label not supported: {0}")]
    NotSupported(String),
    /// A built-in kind with only the metadata fields (Go's
    /// `DefaultMetaV1FieldSelectorConversion`).
    #[error("{} is not a known field selector: only \"metadata.name\", \"metadata.namespace\"", go_quote(.0))]
    NotKnown(String),
}

impl Selection {
    /// True when it selects everything.
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty() && self.fields.is_empty()
    }

    /// Checks that the field selector only names fields of `info`, whose kind also
    /// has the `extra` fields; `custom` for a custom resource. Go's default conversion,
    /// of a built-in kind without fields of its own, takes `metadata.namespace` even
    /// for a cluster-scoped kind.
    pub fn check_fields(
        &self,
        info: &ResourceInfo,
        extra: &[SelectableField],
        custom: bool,
    ) -> Result<(), UnsupportedFieldError> {
        let default_conversion = extra.is_empty() && !custom;
        for r in self.fields.requirements() {
            let field = r.field.as_str();
            let known = field == "metadata.name"
                || ((info.namespaced || default_conversion) && field == "metadata.namespace")
                || extra.iter().any(|(f, _)| *f == field);
            if !known && default_conversion {
                return Err(UnsupportedFieldError::NotKnown(r.field.clone()));
            }
            if !known {
                return Err(UnsupportedFieldError::NotSupported(r.field.clone()));
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
                fields.insert(
                    (*label).to_owned(),
                    field_text(label, json.pointer(pointer)),
                );
            }
        }
        self.fields.matches(&fields)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use apimachinery::schema::GroupVersionKind;

    fn info(namespaced: bool) -> ResourceInfo {
        ResourceInfo {
            group: String::new(),
            resource: "things".into(),
            singular: "thing".into(),
            kind: "Thing".into(),
            list_kind: "ThingList".into(),
            namespaced,
            short_names: Vec::new(),
            categories: Vec::new(),
            verbs: Vec::new(),
            versions: vec!["v1".into()],
            storage_gvk: GroupVersionKind::new("", "v1", "Thing"),
            key_prefix: "/registry/things".into(),
            has_spec: false,
            has_status: false,
            has_scale: false,
            subresources: Vec::new(),
            subresources_not_served: Vec::new(),
        }
    }

    fn check(field: &str, namespaced: bool, extra: &[SelectableField], custom: bool) -> String {
        let selection = Selection {
            fields: fields::Selector::parse(field).unwrap_or_default(),
            ..Selection::default()
        };
        selection
            .check_fields(&info(namespaced), extra, custom)
            .map_or_else(|e| e.to_string(), |()| "ok".into())
    }

    #[test]
    fn absent_booleans_and_numbers_are_their_zero_as_in_go() {
        assert_eq!(field_text("spec.hostNetwork", None), "false");
        assert_eq!(
            field_text("spec.hostNetwork", Some(&Value::Bool(true))),
            "true"
        );
        assert_eq!(field_text("status.successful", None), "0");
        assert_eq!(field_text("spec.nodeName", None), "");
        assert_eq!(field_text("spec.nodeName", Some(&Value::Null)), "");
    }

    #[test]
    fn unknown_fields_are_refused_in_the_words_of_the_kinds_conversion() {
        assert_eq!(
            check("data.x=1", true, &[], false),
            "\"data.x\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\""
        );
        // Go's default conversion takes the namespace of any kind.
        assert_eq!(check("metadata.namespace=a", false, &[], false), "ok");
        let extra: &[SelectableField] = &[("spec.nodeName", "")];
        assert_eq!(check("spec.nodeName=n", true, extra, false), "ok");
        assert_eq!(
            check("metadata.namespace=a", false, extra, false),
            "field label not supported: metadata.namespace"
        );
        assert_eq!(
            check("spec.x=1", true, &[], true),
            "field label not supported: spec.x"
        );
    }
}
