//! [`GroupVersionKind`], [`GroupKind`] and their parsing.

use std::fmt;
use std::str::FromStr;

use super::{GroupVersion, Name, ParseGroupVersionError, parse_group_version};

/// A kind in a group and version: the identity of a serialized object's type.
///
/// `Display` is Go's `String()`: `apps/v1, Kind=Deployment`, `/v1, Kind=Pod` for the core
/// group; `str::parse` reads that form back.
///
/// ```
/// use apimachinery::schema::GroupVersionKind;
/// let gvk: GroupVersionKind = "apps/v1, Kind=Deployment".parse()?;
/// assert_eq!(gvk.to_api_version_and_kind(), ("apps/v1".to_string(), "Deployment"));
/// assert_eq!(gvk.group_kind().to_string(), "Deployment.apps");
/// assert_eq!(GroupVersionKind::new("", "v1", "Pod").to_string(), "/v1, Kind=Pod");
/// # Ok::<(), apimachinery::schema::ParseGroupVersionKindError>(())
/// ```
#[derive(
    Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "PascalCase")]
pub struct GroupVersionKind {
    /// The API group; empty for the core group.
    pub group: Name,
    /// The version within the group.
    pub version: Name,
    /// The kind (a type name such as `Deployment`).
    pub kind: Name,
}

impl GroupVersionKind {
    /// A group version kind from its parts.
    pub fn new(group: impl Into<Name>, version: impl Into<Name>, kind: impl Into<Name>) -> Self {
        GroupVersionKind {
            group: group.into(),
            version: version.into(),
            kind: kind.into(),
        }
    }

    /// A group version kind from compile-time strings, usable in `const` items.
    pub const fn from_static(
        group: &'static str,
        version: &'static str,
        kind: &'static str,
    ) -> Self {
        GroupVersionKind {
            group: Name::from_static(group),
            version: Name::from_static(version),
            kind: Name::from_static(kind),
        }
    }

    /// True when group, version and kind are all empty.
    pub fn is_empty(&self) -> bool {
        self.group.is_empty() && self.version.is_empty() && self.kind.is_empty()
    }

    /// The group and kind, without the version.
    pub fn group_kind(&self) -> GroupKind {
        GroupKind {
            group: self.group.clone(),
            kind: self.kind.clone(),
        }
    }

    /// The group and version, without the kind.
    pub fn group_version(&self) -> GroupVersion {
        GroupVersion {
            group: self.group.clone(),
            version: self.version.clone(),
        }
    }

    /// Go's `ToAPIVersionAndKind`: the `apiVersion` and `kind` strings of `TypeMeta`.
    pub fn to_api_version_and_kind(&self) -> (String, &str) {
        (self.group_version().to_string(), &self.kind)
    }

    /// Go's `FromAPIVersionAndKind`: an unparsable `api_version` leaves group and version
    /// empty rather than failing, as Go does.
    pub fn from_api_version_and_kind(api_version: &str, kind: impl Into<Name>) -> Self {
        match parse_group_version(api_version) {
            Ok(gv) => gv.with_kind(kind),
            Err(_) => GroupVersionKind {
                kind: kind.into(),
                ..Default::default()
            },
        }
    }
}

impl fmt::Display for GroupVersionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}, Kind={}", self.group, self.version, self.kind)
    }
}

impl fmt::Debug for GroupVersionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GroupVersionKind({:?})", self.to_string())
    }
}

/// A string that is not of the form `group/version, Kind=kind`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseGroupVersionKindError {
    /// The `, Kind=` separator is missing.
    #[error("expected \"group/version, Kind=kind\", got {input:?}")]
    MissingKind {
        /// The string that failed to parse.
        input: String,
    },
    /// The part before `, Kind=` is not a group version.
    #[error("in group version kind {input:?}: {source}")]
    GroupVersion {
        /// The string that failed to parse.
        input: String,
        /// Why its group version part is invalid.
        source: ParseGroupVersionError,
    },
}

impl FromStr for GroupVersionKind {
    type Err = ParseGroupVersionKindError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let Some((gv, kind)) = s.split_once(", Kind=") else {
            return Err(ParseGroupVersionKindError::MissingKind {
                input: s.to_owned(),
            });
        };
        let gv =
            parse_group_version(gv).map_err(|source| ParseGroupVersionKindError::GroupVersion {
                input: s.to_owned(),
                source,
            })?;
        Ok(gv.with_kind(kind))
    }
}

/// A kind in a group, without a version: `Deployment.apps`, `Pod` for the core group.
///
/// ```
/// use apimachinery::schema::{GroupKind, parse_group_kind};
/// let gk = parse_group_kind("Deployment.apps");
/// assert_eq!(gk, GroupKind::new("apps", "Deployment"));
/// assert_eq!(gk.to_string(), "Deployment.apps");
/// assert_eq!(gk.with_version("v1").to_string(), "apps/v1, Kind=Deployment");
/// ```
#[derive(
    Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "PascalCase")]
pub struct GroupKind {
    /// The API group; empty for the core group.
    pub group: Name,
    /// The kind.
    pub kind: Name,
}

impl GroupKind {
    /// A group kind from its parts.
    pub fn new(group: impl Into<Name>, kind: impl Into<Name>) -> Self {
        GroupKind {
            group: group.into(),
            kind: kind.into(),
        }
    }

    /// True when group and kind are both empty.
    pub fn is_empty(&self) -> bool {
        self.group.is_empty() && self.kind.is_empty()
    }

    /// This group kind at a version.
    pub fn with_version(&self, version: impl Into<Name>) -> GroupVersionKind {
        GroupVersionKind {
            group: self.group.clone(),
            version: version.into(),
            kind: self.kind.clone(),
        }
    }
}

impl fmt::Display for GroupKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.group.is_empty() {
            f.write_str(&self.kind)
        } else {
            write!(f, "{}.{}", self.kind, self.group)
        }
    }
}

impl fmt::Debug for GroupKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GroupKind({:?})", self.to_string())
    }
}

/// Go's `ParseGroupKind`: the part before the first `.` is the kind, the rest the group.
pub fn parse_group_kind(s: &str) -> GroupKind {
    match s.split_once('.') {
        Some((kind, group)) => GroupKind::new(group, kind),
        None => GroupKind::new(Name::EMPTY, s),
    }
}

impl FromStr for GroupKind {
    type Err = std::convert::Infallible;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(parse_group_kind(s))
    }
}

/// Go's `ParseKindArg`, for a kind typed by a user: `Deployment.v1.apps` (two dots or
/// more) may be a fully qualified kind, so it is returned both as a `GroupVersionKind`
/// guess (kind, version, then the rest as group) and as a `GroupKind` (kind, then the rest
/// as group); a caller tries the first and falls back to the second.
///
/// ```
/// use apimachinery::schema::{parse_kind_arg, GroupKind, GroupVersionKind};
/// let (gvk, gk) = parse_kind_arg("Deployment.v1.apps");
/// assert_eq!(gvk, Some(GroupVersionKind::new("apps", "v1", "Deployment")));
/// assert_eq!(gk, GroupKind::new("v1.apps", "Deployment"));
/// assert_eq!(parse_kind_arg("Pod"), (None, GroupKind::new("", "Pod")));
/// ```
pub fn parse_kind_arg(arg: &str) -> (Option<GroupVersionKind>, GroupKind) {
    let gvk =
        split_three(arg).map(|(kind, version, group)| GroupVersionKind::new(group, version, kind));
    (gvk, parse_group_kind(arg))
}

/// Splits `a.b.rest` into its first two dot-separated parts and the remainder, if there
/// are at least two dots.
pub(crate) fn split_three(s: &str) -> Option<(&str, &str, &str)> {
    let (first, rest) = s.split_once('.')?;
    let (second, third) = rest.split_once('.')?;
    Some((first, second, third))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_matches_go() {
        assert_eq!(
            GroupVersionKind::new("apps", "v1", "Deployment").to_string(),
            "apps/v1, Kind=Deployment"
        );
        assert_eq!(
            GroupVersionKind::new("", "v1", "Pod").to_string(),
            "/v1, Kind=Pod"
        );
        assert_eq!(GroupVersionKind::default().to_string(), "/, Kind=");
        assert_eq!(GroupKind::new("", "Pod").to_string(), "Pod");
    }

    #[test]
    fn parse_errors_name_the_input() {
        let err = "apps/v1".parse::<GroupVersionKind>().unwrap_err();
        assert!(err.to_string().contains("\"apps/v1\""), "{err}");
        let err = "a/b/c, Kind=X".parse::<GroupVersionKind>().unwrap_err();
        assert!(err.to_string().contains("a/b/c"), "{err}");
    }

    #[test]
    fn api_version_and_kind() {
        let gvk = GroupVersionKind::from_api_version_and_kind("v1", "Pod");
        assert_eq!(gvk, GroupVersionKind::new("", "v1", "Pod"));
        assert_eq!(gvk.to_api_version_and_kind(), ("v1".to_string(), "Pod"));
        // Go ignores an unparsable apiVersion and keeps the kind.
        assert_eq!(
            GroupVersionKind::from_api_version_and_kind("a/b/c", "Pod"),
            GroupVersionKind::new("", "", "Pod")
        );
    }

    #[test]
    fn parse_kind_arg_matches_go() {
        // Cases of Go's TestParseKindArg.
        assert_eq!(parse_kind_arg("Pod"), (None, GroupKind::new("", "Pod")));
        assert_eq!(
            parse_kind_arg("Pod.v1"),
            (None, GroupKind::new("v1", "Pod"))
        );
        assert_eq!(
            parse_kind_arg("Pod.v1."),
            (
                Some(GroupVersionKind::new("", "v1", "Pod")),
                GroupKind::new("v1.", "Pod")
            )
        );
        assert_eq!(
            parse_kind_arg("ReplicaSet.v1beta1.extensions"),
            (
                Some(GroupVersionKind::new("extensions", "v1beta1", "ReplicaSet")),
                GroupKind::new("v1beta1.extensions", "ReplicaSet")
            )
        );
        assert_eq!(
            parse_kind_arg("Thing.v1.example.com"),
            (
                Some(GroupVersionKind::new("example.com", "v1", "Thing")),
                GroupKind::new("v1.example.com", "Thing")
            )
        );
    }
}
