//! [`GroupVersion`], [`GroupVersions`] and their parsing.

use std::fmt;
use std::str::FromStr;

use super::{GroupVersionKind, GroupVersionResource, Name};

/// An API group and version: `apps/v1`, or `v1` for the core (legacy) group.
///
/// `Display` is Go's `GroupVersion.String()`: `group/version`, or only the version for the
/// core group, and `""` for the empty value. Parsing (`str::parse` or
/// [`parse_group_version`]) is Go's `ParseGroupVersion`, so `parse(display(gv)) == gv`.
///
/// ```
/// use apimachinery::schema::GroupVersion;
/// let gv: GroupVersion = "apps/v1".parse()?;
/// assert_eq!(gv, GroupVersion::new("apps", "v1"));
/// assert_eq!(gv.with_kind("Deployment").to_string(), "apps/v1, Kind=Deployment");
/// assert_eq!("v1".parse::<GroupVersion>()?.to_string(), "v1");
/// assert!("a/b/c".parse::<GroupVersion>().is_err());
/// # Ok::<(), apimachinery::schema::ParseGroupVersionError>(())
/// ```
#[derive(Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GroupVersion {
    /// The API group; empty for the core group.
    pub group: Name,
    /// The version within the group.
    pub version: Name,
}

impl GroupVersion {
    /// A group version from its parts.
    pub fn new(group: impl Into<Name>, version: impl Into<Name>) -> Self {
        GroupVersion {
            group: group.into(),
            version: version.into(),
        }
    }

    /// A group version from compile-time strings, usable in `const` items.
    pub const fn from_static(group: &'static str, version: &'static str) -> Self {
        GroupVersion {
            group: Name::from_static(group),
            version: Name::from_static(version),
        }
    }

    /// True when both group and version are empty.
    pub fn is_empty(&self) -> bool {
        self.group.is_empty() && self.version.is_empty()
    }

    /// Go's `Identifier()`: the same as `Display`, used where a versioner must be named.
    pub fn identifier(&self) -> String {
        self.to_string()
    }

    /// This group version with a kind.
    pub fn with_kind(&self, kind: impl Into<Name>) -> GroupVersionKind {
        GroupVersionKind {
            group: self.group.clone(),
            version: self.version.clone(),
            kind: kind.into(),
        }
    }

    /// This group version with a resource.
    pub fn with_resource(&self, resource: impl Into<Name>) -> GroupVersionResource {
        GroupVersionResource {
            group: self.group.clone(),
            version: self.version.clone(),
            resource: resource.into(),
        }
    }

    /// Go's `GroupVersion.KindForGroupVersionKinds`: the first kind in exactly this group
    /// and version; else the first kind in this group, moved to this version; else `None`.
    pub fn kind_for_group_version_kinds(
        &self,
        kinds: &[GroupVersionKind],
    ) -> Option<GroupVersionKind> {
        if let Some(gvk) = kinds
            .iter()
            .find(|gvk| gvk.group == self.group && gvk.version == self.version)
        {
            return Some(gvk.clone());
        }
        kinds
            .iter()
            .find(|gvk| gvk.group == self.group)
            .map(|gvk| self.with_kind(gvk.kind.clone()))
    }

    /// Go's `ToAPIVersionAndKind` counterpart for a group version: the `apiVersion` string.
    pub fn api_version(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for GroupVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.group.is_empty() {
            f.write_str(&self.version)
        } else {
            write!(f, "{}/{}", self.group, self.version)
        }
    }
}

impl fmt::Debug for GroupVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GroupVersion({:?})", self.to_string())
    }
}

/// A string that is not a group version: it has more than one `/`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unexpected GroupVersion string: {input:?}")]
pub struct ParseGroupVersionError {
    /// The string that failed to parse.
    pub input: String,
}

/// Go's `ParseGroupVersion`: `""` and `"/"` are the empty group version, a string without
/// `/` is a core-group version, `group/version` splits at the slash, and more than one slash
/// is an error.
pub fn parse_group_version(s: &str) -> Result<GroupVersion, ParseGroupVersionError> {
    split_group_version(s)
        .map(|(group, version)| GroupVersion::new(group, version))
        .ok_or_else(|| ParseGroupVersionError {
            input: s.to_owned(),
        })
}

/// [`parse_group_version`] without building names: the group and version as slices of
/// `s`; `None` when `s` holds more than one `/`.
pub(crate) fn split_group_version(s: &str) -> Option<(&str, &str)> {
    if s.is_empty() || s == "/" {
        return Some(("", ""));
    }
    match s.split_once('/') {
        None => Some(("", s)),
        Some((_, version)) if version.contains('/') => None,
        Some(parts) => Some(parts),
    }
}

impl FromStr for GroupVersion {
    type Err = ParseGroupVersionError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_group_version(s)
    }
}

impl serde::Serialize for GroupVersion {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for GroupVersion {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        parse_group_version(&s).map_err(serde::de::Error::custom)
    }
}

/// An ordered list of group versions: a target for conversion where the first version that
/// knows a kind wins (Go's `GroupVersions`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct GroupVersions(pub Vec<GroupVersion>);

impl GroupVersions {
    /// Go's `GroupVersions.Identifier()`: the versions' strings joined by commas.
    pub fn identifier(&self) -> String {
        self.0
            .iter()
            .map(GroupVersion::to_string)
            .collect::<Vec<_>>()
            .join(",")
    }

    /// Go's `GroupVersions.KindForGroupVersionKinds`: asks each group version in turn; one
    /// answer is returned as is, several are narrowed to the first that is exactly one of
    /// `kinds` (else the first answer).
    pub fn kind_for_group_version_kinds(
        &self,
        kinds: &[GroupVersionKind],
    ) -> Option<GroupVersionKind> {
        let targets: Vec<GroupVersionKind> = self
            .0
            .iter()
            .filter_map(|gv| gv.kind_for_group_version_kinds(kinds))
            .collect();
        if targets.len() > 1
            && let Some(exact) = targets.iter().find(|t| kinds.contains(t))
        {
            return Some(exact.clone());
        }
        targets.into_iter().next()
    }
}

impl From<Vec<GroupVersion>> for GroupVersions {
    fn from(v: Vec<GroupVersion>) -> Self {
        GroupVersions(v)
    }
}

impl FromIterator<GroupVersion> for GroupVersions {
    fn from_iter<I: IntoIterator<Item = GroupVersion>>(iter: I) -> Self {
        GroupVersions(iter.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_matches_go() {
        let cases: &[(&str, Option<(&str, &str)>)] = &[
            ("", Some(("", ""))),
            ("/", Some(("", ""))),
            ("v1", Some(("", "v1"))),
            ("apps/v1", Some(("apps", "v1"))),
            ("/v1", Some(("", "v1"))),
            ("apps/", Some(("apps", ""))),
            ("a/b/c", None),
            ("//", None),
        ];
        for (input, want) in cases {
            let got = parse_group_version(input);
            match want {
                Some((g, v)) => assert_eq!(got.unwrap(), GroupVersion::new(*g, *v), "{input}"),
                None => assert_eq!(
                    got.unwrap_err().to_string(),
                    format!("unexpected GroupVersion string: {input:?}")
                ),
            }
        }
    }

    #[test]
    fn display_matches_go() {
        assert_eq!(GroupVersion::new("", "v1").to_string(), "v1");
        assert_eq!(GroupVersion::new("apps", "v1").to_string(), "apps/v1");
        assert_eq!(GroupVersion::default().to_string(), "");
        assert!(GroupVersion::default().is_empty());
        assert!(!GroupVersion::new("", "v1").is_empty());
    }

    #[test]
    fn kind_for_group_version_kinds() {
        let gv = GroupVersion::new("apps", "v1");
        let kinds = [
            GroupVersionKind::new("extensions", "v1beta1", "Deployment"),
            GroupVersionKind::new("apps", "v1beta2", "Deployment"),
        ];
        // Same group, other version: moved to this version.
        assert_eq!(
            gv.kind_for_group_version_kinds(&kinds),
            Some(GroupVersionKind::new("apps", "v1", "Deployment"))
        );
        let exact = [
            GroupVersionKind::new("apps", "v1beta2", "Deployment"),
            GroupVersionKind::new("apps", "v1", "Deployment"),
        ];
        assert_eq!(
            gv.kind_for_group_version_kinds(&exact),
            Some(exact[1].clone())
        );
        assert_eq!(
            GroupVersion::new("batch", "v1").kind_for_group_version_kinds(&kinds),
            None
        );
    }

    #[test]
    fn group_versions_prefers_an_exact_match() {
        // Go's TestKindForGroupVersionKinds cases.
        let gvs = GroupVersions(vec![
            GroupVersion::new("other", "v1"),
            GroupVersion::new("mygroup", "__internal"),
        ]);
        let kinds = [GroupVersionKind::new("mygroup", "__internal", "Foo")];
        assert_eq!(
            gvs.kind_for_group_version_kinds(&kinds),
            Some(kinds[0].clone())
        );

        let gvs = GroupVersions(vec![
            GroupVersion::new("mygroup", "v1"),
            GroupVersion::new("mygroup", "__internal"),
        ]);
        // Two targets; the exact one wins even though it comes second.
        assert_eq!(
            gvs.kind_for_group_version_kinds(&kinds),
            Some(kinds[0].clone())
        );

        let kinds = [GroupVersionKind::new("mygroup", "v2", "Foo")];
        assert_eq!(
            gvs.kind_for_group_version_kinds(&kinds),
            Some(GroupVersionKind::new("mygroup", "v1", "Foo"))
        );
        assert_eq!(
            GroupVersions(vec![GroupVersion::new("x", "v1")]).kind_for_group_version_kinds(&kinds),
            None
        );
        assert_eq!(gvs.identifier(), "mygroup/v1,mygroup/__internal");
    }
}
