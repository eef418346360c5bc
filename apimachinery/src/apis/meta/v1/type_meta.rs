//! [`TypeMeta`]: the `kind` and `apiVersion` every serialized object starts with.

use serde::{Deserialize, Serialize};

use crate::schema::GroupVersionKind;

/// The `kind` and `apiVersion` of a serialized object (Go's `metav1.TypeMeta`).
///
/// Typed objects may carry one (a field of this type is picked up by
/// `#[derive(ApiObject)]`); when it is empty the object's own kind is written. JSON field
/// order is Go's: `kind`, then `apiVersion`; both are omitted when empty.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TypeMeta {
    /// The kind, such as `Deployment`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// The group version, such as `apps/v1` or `v1`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub api_version: String,
}

impl TypeMeta {
    /// Type metadata naming `gvk`.
    pub fn new(gvk: &GroupVersionKind) -> Self {
        let (api_version, kind) = gvk.to_api_version_and_kind();
        TypeMeta {
            kind: kind.to_owned(),
            api_version,
        }
    }

    /// True when neither kind nor apiVersion is set.
    pub fn is_empty(&self) -> bool {
        self.kind.is_empty() && self.api_version.is_empty()
    }

    /// The group version kind these strings name (an unparsable apiVersion leaves group
    /// and version empty, as in Go).
    pub fn group_version_kind(&self) -> GroupVersionKind {
        GroupVersionKind::from_api_version_and_kind(&self.api_version, self.kind.as_str())
    }

    /// Sets kind and apiVersion from `gvk`.
    pub fn set_group_version_kind(&mut self, gvk: &GroupVersionKind) {
        *self = TypeMeta::new(gvk);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_order_is_kind_then_api_version() {
        let tm = TypeMeta::new(&GroupVersionKind::new("apps", "v1", "Deployment"));
        assert_eq!(
            serde_json::to_string(&tm).unwrap(),
            r#"{"kind":"Deployment","apiVersion":"apps/v1"}"#
        );
        assert_eq!(serde_json::to_string(&TypeMeta::default()).unwrap(), "{}");
        assert_eq!(
            tm.group_version_kind().to_string(),
            "apps/v1, Kind=Deployment"
        );
    }
}
