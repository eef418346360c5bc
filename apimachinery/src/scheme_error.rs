//! [`SchemeError`]: what registering types in, or asking, a scheme can fail with. It is
//! [`runtime`](crate::runtime)'s error, defined here, below both `runtime` and
//! `conversion`, because a conversion error can carry it
//! (`ConversionErrorKind::Scheme`) and `conversion` is the layer under `runtime`; it
//! names nothing but [`schema`](crate::schema).

use crate::schema::{API_VERSION_INTERNAL, GroupVersion, GroupVersionKind};

/// An error from a [`Scheme`](crate::runtime::Scheme). Messages follow Go's where Go has
/// one; [`kind`](Self::kind) tells which error it is.
///
/// The details are boxed so that `Result<_, SchemeError>` stays one pointer wide on the
/// hot paths (`new_object`, `object_kinds`) that return it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(transparent)]
pub struct SchemeError(Box<SchemeErrorKind>);

impl SchemeError {
    /// Which error this is, with its details.
    pub fn kind(&self) -> &SchemeErrorKind {
        &self.0
    }

    /// The details, by value.
    pub fn into_kind(self) -> SchemeErrorKind {
        *self.0
    }
}

impl From<SchemeErrorKind> for SchemeError {
    fn from(kind: SchemeErrorKind) -> Self {
        SchemeError(Box::new(kind))
    }
}

/// The errors a [`Scheme`](crate::runtime::Scheme) reports.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SchemeErrorKind {
    /// No type is registered for a kind (Go's `NotRegisteredErr` for a kind).
    #[error("{}", not_registered_kind_message(.gvk, .scheme))]
    NotRegisteredKind {
        /// The kind asked for.
        gvk: GroupVersionKind,
        /// The scheme's name.
        scheme: String,
    },
    /// A Rust type is not registered (Go's `NotRegisteredErr` for a type).
    #[error("no kind is registered for the type {type_name} in scheme {scheme:?}")]
    NotRegisteredType {
        /// The Rust type.
        type_name: &'static str,
        /// The scheme's name.
        scheme: String,
    },
    /// An unstructured object declares no kind.
    #[error("Object 'Kind' is missing in {context}")]
    MissingKind {
        /// What was being looked at.
        context: String,
    },
    /// An unstructured object declares no apiVersion.
    #[error("Object 'apiVersion' is missing in {context}")]
    MissingVersion {
        /// What was being looked at.
        context: String,
    },
    /// One kind registered for two Rust types.
    #[error(
        "double registration of different types for {gvk}: old={existing}, new={new} in scheme {scheme:?}"
    )]
    ConflictingKind {
        /// The kind.
        gvk: GroupVersionKind,
        /// The type registered first.
        existing: &'static str,
        /// The type registered second.
        new: &'static str,
        /// The scheme's name.
        scheme: String,
    },
    /// One unversioned kind name registered for two Rust types.
    #[error(
        "{existing} has already been registered as unversioned kind {kind:?} - kind name must be unique in scheme {scheme:?} (new type: {new})"
    )]
    ConflictingUnversionedKind {
        /// The kind name.
        kind: String,
        /// The type registered first.
        existing: &'static str,
        /// The type registered second.
        new: &'static str,
        /// The scheme's name.
        scheme: String,
    },
    /// A registration without a version or a kind.
    #[error("version and kind are required on all types: {gvk} ({type_name})")]
    IncompleteKind {
        /// The kind as given.
        gvk: GroupVersionKind,
        /// The Rust type.
        type_name: &'static str,
    },
    /// `set_version_priority` was given an internal or empty version.
    #[error("internal versions cannot be prioritized: {0:?}")]
    InternalVersionPriority(GroupVersion),
    /// `set_version_priority` was given versions of several groups, or none.
    #[error("must register versions for exactly one group: {groups:?}")]
    VersionPriorityGroups {
        /// The groups given.
        groups: Vec<String>,
    },
    /// The data for a kind could not be deserialized into its type.
    #[error("decoding {gvk}: {message}")]
    Deserialize {
        /// The kind being decoded.
        gvk: GroupVersionKind,
        /// What the deserializer reported (with its position, where the format has one).
        message: String,
    },
    /// Several link-time registrations failed.
    #[error("{} registration errors: {}", .0.len(), join(.0))]
    Registrations(Vec<SchemeError>),
}

fn join(errors: &[SchemeError]) -> String {
    errors
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

fn not_registered_kind_message(gvk: &GroupVersionKind, scheme: &str) -> String {
    if gvk.kind.is_empty() {
        format!(
            "no version {:?} has been registered in scheme {scheme:?}",
            gvk.group_version().to_string()
        )
    } else if gvk.version == API_VERSION_INTERNAL {
        format!(
            "no kind {:?} is registered for the internal version of group {:?} in scheme {scheme:?}",
            gvk.kind.as_str(),
            gvk.group.as_str()
        )
    } else {
        format!(
            "no kind {:?} is registered for version {:?} in scheme {scheme:?}",
            gvk.kind.as_str(),
            gvk.group_version().to_string()
        )
    }
}

impl SchemeError {
    /// True for the not-registered errors (Go's `runtime.IsNotRegisteredError`).
    pub fn is_not_registered(&self) -> bool {
        matches!(
            self.kind(),
            SchemeErrorKind::NotRegisteredKind { .. } | SchemeErrorKind::NotRegisteredType { .. }
        )
    }

    /// True for a missing kind (Go's `runtime.IsMissingKind`).
    pub fn is_missing_kind(&self) -> bool {
        matches!(self.kind(), SchemeErrorKind::MissingKind { .. })
    }

    /// True for a missing version (Go's `runtime.IsMissingVersion`).
    pub fn is_missing_version(&self) -> bool {
        matches!(self.kind(), SchemeErrorKind::MissingVersion { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn not_registered_messages_are_gos() {
        let e = |g: &str, v: &str, k: &str| {
            SchemeError::from(SchemeErrorKind::NotRegisteredKind {
                gvk: GroupVersionKind::new(g, v, k),
                scheme: "s".into(),
            })
        };
        assert_eq!(
            e("apps", "v1", "Deployment").to_string(),
            r#"no kind "Deployment" is registered for version "apps/v1" in scheme "s""#
        );
        assert_eq!(
            e("apps", "__internal", "Deployment").to_string(),
            r#"no kind "Deployment" is registered for the internal version of group "apps" in scheme "s""#
        );
        assert_eq!(
            e("", "v1", "").to_string(),
            r#"no version "v1" has been registered in scheme "s""#
        );
        assert!(e("", "v1", "Pod").is_not_registered());
    }
}
