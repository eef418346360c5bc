//! [`GroupVersionResource`], [`GroupResource`] and their parsing.

use std::fmt;
use std::str::FromStr;

use super::group_version_kind::split_three;
use super::{GroupVersion, Name, ParseGroupVersionError, parse_group_version};

/// A resource (the plural, lower-case name in a REST path) in a group and version.
///
/// `Display` is Go's `String()`: `apps/v1, Resource=deployments`; `str::parse` reads it
/// back. For what a user types on a command line, see [`parse_resource_arg`].
///
/// ```
/// use apimachinery::schema::GroupVersionResource;
/// let gvr = GroupVersionResource::new("apps", "v1", "deployments");
/// assert_eq!(gvr.to_string(), "apps/v1, Resource=deployments");
/// assert_eq!(gvr.group_resource().to_string(), "deployments.apps");
/// assert_eq!(gvr.to_string().parse::<GroupVersionResource>()?, gvr);
/// # Ok::<(), apimachinery::schema::ParseGroupVersionResourceError>(())
/// ```
#[derive(
    Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "PascalCase")]
pub struct GroupVersionResource {
    /// The API group; empty for the core group.
    pub group: Name,
    /// The version within the group.
    pub version: Name,
    /// The resource (plural, lower case), such as `deployments`.
    pub resource: Name,
}

impl GroupVersionResource {
    /// A group version resource from its parts.
    pub fn new(
        group: impl Into<Name>,
        version: impl Into<Name>,
        resource: impl Into<Name>,
    ) -> Self {
        GroupVersionResource {
            group: group.into(),
            version: version.into(),
            resource: resource.into(),
        }
    }

    /// A group version resource from compile-time strings, usable in `const` items.
    pub const fn from_static(
        group: &'static str,
        version: &'static str,
        resource: &'static str,
    ) -> Self {
        GroupVersionResource {
            group: Name::from_static(group),
            version: Name::from_static(version),
            resource: Name::from_static(resource),
        }
    }

    /// True when group, version and resource are all empty.
    pub fn is_empty(&self) -> bool {
        self.group.is_empty() && self.version.is_empty() && self.resource.is_empty()
    }

    /// The group and resource, without the version.
    pub fn group_resource(&self) -> GroupResource {
        GroupResource {
            group: self.group.clone(),
            resource: self.resource.clone(),
        }
    }

    /// The group and version, without the resource.
    pub fn group_version(&self) -> GroupVersion {
        GroupVersion {
            group: self.group.clone(),
            version: self.version.clone(),
        }
    }
}

impl fmt::Display for GroupVersionResource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}/{}, Resource={}",
            self.group, self.version, self.resource
        )
    }
}

impl fmt::Debug for GroupVersionResource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GroupVersionResource({:?})", self.to_string())
    }
}

/// A string that is not of the form `group/version, Resource=resource`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseGroupVersionResourceError {
    /// The `, Resource=` separator is missing.
    #[error("expected \"group/version, Resource=resource\", got {input:?}")]
    MissingResource {
        /// The string that failed to parse.
        input: String,
    },
    /// The part before `, Resource=` is not a group version.
    #[error("in group version resource {input:?}: {source}")]
    GroupVersion {
        /// The string that failed to parse.
        input: String,
        /// Why its group version part is invalid.
        source: ParseGroupVersionError,
    },
}

impl FromStr for GroupVersionResource {
    type Err = ParseGroupVersionResourceError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let Some((gv, resource)) = s.split_once(", Resource=") else {
            return Err(ParseGroupVersionResourceError::MissingResource {
                input: s.to_owned(),
            });
        };
        let gv = parse_group_version(gv).map_err(|source| {
            ParseGroupVersionResourceError::GroupVersion {
                input: s.to_owned(),
                source,
            }
        })?;
        Ok(gv.with_resource(resource))
    }
}

/// A resource in a group, without a version: `deployments.apps`, `pods` for the core group.
///
/// ```
/// use apimachinery::schema::{parse_group_resource, GroupResource};
/// assert_eq!(parse_group_resource("deployments.apps"), GroupResource::new("apps", "deployments"));
/// assert_eq!(GroupResource::new("", "pods").to_string(), "pods");
/// ```
#[derive(
    Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "PascalCase")]
pub struct GroupResource {
    /// The API group; empty for the core group.
    pub group: Name,
    /// The resource.
    pub resource: Name,
}

impl GroupResource {
    /// A group resource from its parts.
    pub fn new(group: impl Into<Name>, resource: impl Into<Name>) -> Self {
        GroupResource {
            group: group.into(),
            resource: resource.into(),
        }
    }

    /// True when group and resource are both empty.
    pub fn is_empty(&self) -> bool {
        self.group.is_empty() && self.resource.is_empty()
    }

    /// This group resource at a version.
    pub fn with_version(&self, version: impl Into<Name>) -> GroupVersionResource {
        GroupVersionResource {
            group: self.group.clone(),
            version: version.into(),
            resource: self.resource.clone(),
        }
    }
}

impl fmt::Display for GroupResource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.group.is_empty() {
            f.write_str(&self.resource)
        } else {
            write!(f, "{}.{}", self.resource, self.group)
        }
    }
}

impl fmt::Debug for GroupResource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GroupResource({:?})", self.to_string())
    }
}

/// Go's `ParseGroupResource`: the part before the first `.` is the resource, the rest the
/// group.
pub fn parse_group_resource(s: &str) -> GroupResource {
    match s.split_once('.') {
        Some((resource, group)) => GroupResource::new(group, resource),
        None => GroupResource::new(Name::EMPTY, s),
    }
}

impl FromStr for GroupResource {
    type Err = std::convert::Infallible;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(parse_group_resource(s))
    }
}

/// Go's `ParseResourceArg`, for a resource typed by a user: `deployments.v1.apps` (two
/// dots or more) may be fully qualified, so it is returned both as a
/// `GroupVersionResource` guess (resource, version, then the rest as group) and as a
/// `GroupResource` (resource, then the rest as group).
///
/// ```
/// use apimachinery::schema::{parse_resource_arg, GroupResource, GroupVersionResource};
/// let (gvr, gr) = parse_resource_arg("deployments.v1.apps");
/// assert_eq!(gvr, Some(GroupVersionResource::new("apps", "v1", "deployments")));
/// assert_eq!(gr, GroupResource::new("v1.apps", "deployments"));
/// ```
pub fn parse_resource_arg(arg: &str) -> (Option<GroupVersionResource>, GroupResource) {
    let gvr = split_three(arg)
        .map(|(resource, version, group)| GroupVersionResource::new(group, version, resource));
    (gvr, parse_group_resource(arg))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_resource_arg_matches_go() {
        // Cases of Go's TestParseResourceArg.
        assert_eq!(
            parse_resource_arg("pods"),
            (None, GroupResource::new("", "pods"))
        );
        assert_eq!(
            parse_resource_arg("pods.v1"),
            (None, GroupResource::new("v1", "pods"))
        );
        assert_eq!(
            parse_resource_arg("pods.v1."),
            (
                Some(GroupVersionResource::new("", "v1", "pods")),
                GroupResource::new("v1.", "pods")
            )
        );
        assert_eq!(
            parse_resource_arg("pods.v1.extensions"),
            (
                Some(GroupVersionResource::new("extensions", "v1", "pods")),
                GroupResource::new("v1.extensions", "pods")
            )
        );
        assert_eq!(
            parse_resource_arg("storageclasses.v1.storage.k8s.io"),
            (
                Some(GroupVersionResource::new(
                    "storage.k8s.io",
                    "v1",
                    "storageclasses"
                )),
                GroupResource::new("v1.storage.k8s.io", "storageclasses")
            )
        );
    }

    #[test]
    fn display_matches_go() {
        assert_eq!(
            GroupVersionResource::new("", "v1", "pods").to_string(),
            "/v1, Resource=pods"
        );
        assert_eq!(
            GroupResource::new("apps", "deployments").to_string(),
            "deployments.apps"
        );
        assert!(GroupResource::default().is_empty());
    }

    #[test]
    fn parse_errors_name_the_input() {
        let err = "deployments".parse::<GroupVersionResource>().unwrap_err();
        assert!(err.to_string().contains("\"deployments\""), "{err}");
    }
}
