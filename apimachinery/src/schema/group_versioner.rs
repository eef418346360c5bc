//! [`GroupVersioner`]: a conversion target that picks the kind to convert to.

use super::{GroupKind, GroupVersion, GroupVersionKind, GroupVersions, Name};

/// The version of a group's internal hub types (Go's `runtime.APIVersionInternal`).
pub const API_VERSION_INTERNAL: &str = "__internal";

/// A target for conversion: given every kind an object is known as, chooses the one to
/// convert it to (Go's `runtime.GroupVersioner`).
///
/// Implemented by [`GroupVersion`] (one target), [`GroupVersions`] (the first that knows
/// the kind), [`InternalGroupVersioner`], [`DisabledGroupVersioner`] and
/// [`MultiGroupVersioner`].
///
/// ```
/// use apimachinery::schema::{GroupVersion, GroupVersionKind, GroupVersioner, InternalGroupVersioner};
/// let kinds = [GroupVersionKind::new("apps", "v1", "Deployment")];
/// let target = GroupVersion::new("apps", "v1beta2");
/// assert_eq!(target.kind_for_group_version_kinds(&kinds).unwrap().to_string(), "apps/v1beta2, Kind=Deployment");
/// assert_eq!(InternalGroupVersioner.kind_for_group_version_kinds(&kinds).unwrap().to_string(), "apps/__internal, Kind=Deployment");
/// ```
pub trait GroupVersioner: Send + Sync {
    /// The kind to convert to, or `None` when this target accepts none of `kinds`.
    fn kind_for_group_version_kinds(&self, kinds: &[GroupVersionKind]) -> Option<GroupVersionKind>;

    /// A string that identifies this target, for caches keyed by target.
    fn identifier(&self) -> String;
}

impl GroupVersioner for GroupVersion {
    fn kind_for_group_version_kinds(&self, kinds: &[GroupVersionKind]) -> Option<GroupVersionKind> {
        GroupVersion::kind_for_group_version_kinds(self, kinds)
    }
    fn identifier(&self) -> String {
        GroupVersion::identifier(self)
    }
}

impl GroupVersioner for GroupVersions {
    fn kind_for_group_version_kinds(&self, kinds: &[GroupVersionKind]) -> Option<GroupVersionKind> {
        GroupVersions::kind_for_group_version_kinds(self, kinds)
    }
    fn identifier(&self) -> String {
        GroupVersions::identifier(self)
    }
}

/// Targets the internal (`__internal`) version of whatever group a kind is in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InternalGroupVersioner;

impl GroupVersioner for InternalGroupVersioner {
    fn kind_for_group_version_kinds(&self, kinds: &[GroupVersionKind]) -> Option<GroupVersionKind> {
        if let Some(kind) = kinds.iter().find(|k| k.version == API_VERSION_INTERNAL) {
            return Some(kind.clone());
        }
        kinds.first().map(|k| {
            GroupVersionKind::new(
                k.group.clone(),
                Name::from_static(API_VERSION_INTERNAL),
                k.kind.clone(),
            )
        })
    }
    fn identifier(&self) -> String {
        "internal".to_owned()
    }
}

/// Accepts no kind: conversion is not wanted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DisabledGroupVersioner;

impl GroupVersioner for DisabledGroupVersioner {
    fn kind_for_group_version_kinds(&self, _: &[GroupVersionKind]) -> Option<GroupVersionKind> {
        None
    }
    fn identifier(&self) -> String {
        "disabled".to_owned()
    }
}

/// Converts kinds of several groups into one target group version (Go's
/// `NewMultiGroupVersioner` and `NewCoercingMultiGroupVersioner`).
///
/// A source kind is accepted when an accepted [`GroupKind`] has its group and either the
/// same kind or an empty kind (any kind of that group). When coercing, a kind that matches
/// nothing is still moved to the target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MultiGroupVersioner {
    target: GroupVersion,
    accepted: Vec<GroupKind>,
    coerce: bool,
}

impl MultiGroupVersioner {
    /// Accepts kinds of `accepted` (an empty kind means every kind of that group).
    pub fn new(target: GroupVersion, accepted: Vec<GroupKind>) -> Self {
        MultiGroupVersioner {
            target,
            accepted,
            coerce: false,
        }
    }

    /// Like [`new`](Self::new), but moves the first kind to the target when none matches.
    pub fn coercing(target: GroupVersion, accepted: Vec<GroupKind>) -> Self {
        MultiGroupVersioner {
            target,
            accepted,
            coerce: true,
        }
    }
}

impl GroupVersioner for MultiGroupVersioner {
    fn kind_for_group_version_kinds(&self, kinds: &[GroupVersionKind]) -> Option<GroupVersionKind> {
        for src in kinds {
            let accepted = self
                .accepted
                .iter()
                .any(|gk| gk.group == src.group && (gk.kind.is_empty() || gk.kind == src.kind));
            if accepted {
                return Some(self.target.with_kind(src.kind.clone()));
            }
        }
        if self.coerce {
            return kinds.first().map(|k| self.target.with_kind(k.kind.clone()));
        }
        None
    }
    fn identifier(&self) -> String {
        let accepted: Vec<String> = self.accepted.iter().map(GroupKind::to_string).collect();
        format!(
            "multi(target={},accepted={},coerce={})",
            self.target,
            accepted.join(","),
            self.coerce
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_prefers_an_internal_kind() {
        let kinds = [
            GroupVersionKind::new("apps", "v1", "Deployment"),
            GroupVersionKind::new("apps", "__internal", "Deployment"),
        ];
        assert_eq!(
            InternalGroupVersioner.kind_for_group_version_kinds(&kinds),
            Some(kinds[1].clone())
        );
        assert_eq!(
            InternalGroupVersioner.kind_for_group_version_kinds(&[]),
            None
        );
        assert_eq!(
            DisabledGroupVersioner.kind_for_group_version_kinds(&kinds),
            None
        );
    }

    #[test]
    fn multi_group_versioner() {
        // Cases of Go's TestMultiGroupVersioner / TestCoercingMultiGroupVersioner.
        let target = GroupVersion::new("other", "");
        let m = MultiGroupVersioner::new(target.clone(), vec![GroupKind::new("mygroup", "")]);
        assert_eq!(
            m.kind_for_group_version_kinds(&[GroupVersionKind::new(
                "mygroup",
                "__internal",
                "Foo"
            )]),
            Some(GroupVersionKind::new("other", "", "Foo"))
        );
        assert_eq!(
            m.kind_for_group_version_kinds(&[GroupVersionKind::new("anothergroup", "v1", "Foo")]),
            None
        );
        let m = MultiGroupVersioner::new(
            target.clone(),
            vec![
                GroupKind::new("mygroup", "Foo"),
                GroupKind::new("anothergroup", "Bar"),
            ],
        );
        assert_eq!(
            m.kind_for_group_version_kinds(&[GroupVersionKind::new("anothergroup", "v1", "Foo")]),
            None
        );
        assert_eq!(
            m.kind_for_group_version_kinds(&[
                GroupVersionKind::new("anothergroup", "v1", "Bar"),
                GroupVersionKind::new("mygroup", "v1", "Foo"),
            ]),
            Some(GroupVersionKind::new("other", "", "Bar"))
        );
        let c = MultiGroupVersioner::coercing(target, vec![GroupKind::new("mygroup", "Foo")]);
        assert_eq!(
            c.kind_for_group_version_kinds(&[GroupVersionKind::new("anothergroup", "v1", "Baz")]),
            Some(GroupVersionKind::new("other", "", "Baz"))
        );
        assert!(c.identifier().contains("coerce=true"));
    }
}
