//! Field-label conversion: turning a field selector's label and value of one version into
//! the ones the internal version understands (Go's `FieldLabelConversionFunc`).

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use crate::schema::GroupVersionKind;

/// A field selector label a kind does not support.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{label:?} is not a known field selector: only {}", quoted(.supported))]
pub struct FieldLabelError {
    /// The label asked for.
    pub label: String,
    /// The labels the kind supports.
    pub supported: Vec<String>,
}

fn quoted(labels: &[String]) -> String {
    labels
        .iter()
        .map(|l| format!("{l:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}

impl FieldLabelError {
    /// `label` is not one of `supported`.
    pub fn new(label: &str, supported: &[&str]) -> Self {
        FieldLabelError {
            label: label.to_owned(),
            supported: supported.iter().map(|s| (*s).to_owned()).collect(),
        }
    }
}

/// Converts a field selector's label and value; returns the converted pair.
pub type FieldLabelConversionFunc =
    Arc<dyn Fn(&str, &str) -> Result<(String, String), FieldLabelError> + Send + Sync>;

/// The conversion every kind without its own function gets: `metadata.name` and
/// `metadata.namespace` are kept as they are, any other label is an error (Go's
/// `DefaultMetaV1FieldSelectorConversion`).
pub fn default_meta_v1_field_selector_conversion(
    label: &str,
    value: &str,
) -> Result<(String, String), FieldLabelError> {
    match label {
        "metadata.name" | "metadata.namespace" => Ok((label.to_owned(), value.to_owned())),
        _ => Err(FieldLabelError::new(
            label,
            &["metadata.name", "metadata.namespace"],
        )),
    }
}

/// Field-label conversion functions by kind.
#[derive(Clone, Default)]
pub struct FieldLabelConversions {
    funcs: HashMap<GroupVersionKind, FieldLabelConversionFunc>,
}

impl FieldLabelConversions {
    /// No function: every kind gets the default conversion.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the function of a kind (Go's `AddFieldLabelConversionFunc`).
    pub fn add(&mut self, gvk: GroupVersionKind, f: FieldLabelConversionFunc) {
        self.funcs.insert(gvk, f);
    }

    /// Converts a label and value of a kind with its function, or with
    /// [`default_meta_v1_field_selector_conversion`] (Go's `ConvertFieldLabel`).
    pub fn convert(
        &self,
        gvk: &GroupVersionKind,
        label: &str,
        value: &str,
    ) -> Result<(String, String), FieldLabelError> {
        match self.funcs.get(gvk) {
            Some(f) => f(label, value),
            None => default_meta_v1_field_selector_conversion(label, value),
        }
    }
}

impl fmt::Debug for FieldLabelConversions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut kinds: Vec<String> = self.funcs.keys().map(ToString::to_string).collect();
        kinds.sort_unstable();
        f.debug_tuple("FieldLabelConversions")
            .field(&kinds)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_supports_name_and_namespace_only() {
        let c = FieldLabelConversions::new();
        let gvk = GroupVersionKind::new("", "v1", "Pod");
        assert_eq!(
            c.convert(&gvk, "metadata.name", "x").unwrap(),
            ("metadata.name".to_owned(), "x".to_owned())
        );
        let err = c.convert(&gvk, "spec.nodeName", "n").unwrap_err();
        assert_eq!(
            err.to_string(),
            r#""spec.nodeName" is not a known field selector: only "metadata.name", "metadata.namespace""#
        );
    }
}
