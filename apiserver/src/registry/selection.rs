//! Which objects a list or watch selects: a label selector and a field selector (Go's
//! `storage.SelectionPredicate`). Every resource exposes `metadata.name` and, when
//! namespaced, `metadata.namespace` as fields.

use std::collections::BTreeMap;

use apimachinery::fields;
use apimachinery::labels;
use apimachinery::runtime::Object;

use super::resource_info::ResourceInfo;

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

    /// Checks that the field selector only names fields of `info` (Go answers 400
    /// `field label not supported` otherwise).
    pub fn check_fields(&self, info: &ResourceInfo) -> Result<(), UnsupportedFieldError> {
        for r in self.fields.requirements() {
            let known =
                r.field == "metadata.name" || (info.namespaced && r.field == "metadata.namespace");
            if !known {
                return Err(UnsupportedFieldError {
                    field: r.field.clone(),
                });
            }
        }
        Ok(())
    }

    /// Whether `obj` of resource `info` is selected.
    pub fn matches(&self, info: &ResourceInfo, obj: &dyn Object) -> bool {
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
        self.fields.matches(&fields)
    }
}
