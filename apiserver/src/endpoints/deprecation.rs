//! Which served kinds are deprecated, and the warning their requests carry (Go's
//! `endpoints/deprecation`): kube-apiserver asks each kind's Go type for its
//! `APILifecycleDeprecated()` release, compares it with its own release
//! (`deprecation.IsDeprecated` against `version.Get()`), and when it is deprecated adds
//! `deprecation.WarningMessage` to every request its routes serve. The server knows no
//! types, so the lifecycle is given to it ([`Config::deprecated_kinds`]), as the scheme
//! is; the comparison with the release is made here, against the release the server
//! reports at `/version` ([`crate::RELEASE`]).
//!
//! ```
//! use apiserver::endpoints::deprecation::DeprecatedKinds;
//! use apimachinery::schema::GroupVersionKind;
//!
//! let kinds: DeprecatedKinds = [(
//!     GroupVersionKind::new("", "v1", "Endpoints"),
//!     (1, 33),
//!     "v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice".to_owned(),
//! )]
//! .into_iter()
//! .collect();
//! assert_eq!(
//!     kinds.warning_in("", "v1", "Endpoints", (1, 37)),
//!     Some("v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice")
//! );
//! assert_eq!(kinds.warning_in("", "v1", "Endpoints", (1, 32)), None);
//! assert_eq!(kinds.warning_in("", "v1", "Pod", (1, 37)), None);
//! ```
//!
//! [`Config::deprecated_kinds`]: crate::server::Config::deprecated_kinds

use std::cmp::Ordering;

use apimachinery::schema::GroupVersionKind;

/// A Kubernetes release, `(major, minor)`, as Go's lifecycle methods return it.
pub type Release = (u16, u16);

/// One kind's deprecation: the release it is deprecated from and the warning text.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Deprecation {
    gvk: GroupVersionKind,
    deprecated_in: Release,
    warning: String,
}

/// The kinds whose Go types say in which release they are (or will be) deprecated, with
/// the warning each sends then (k8s-types' `lifecycle`: `deprecated` and
/// `warning_message()`), looked up by group, version and kind.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeprecatedKinds {
    /// Sorted by group, version and kind, for lookups without allocating.
    kinds: Vec<Deprecation>,
}

impl DeprecatedKinds {
    /// No kind deprecated.
    pub fn new() -> Self {
        DeprecatedKinds::default()
    }

    /// Whether no kind is listed.
    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    /// The warning of requests for `kind` of `group`/`version` in `release`: its text when
    /// the kind is deprecated in that release or before (Go's `IsDeprecated`), `None` when
    /// it is not (yet) deprecated or not listed.
    pub fn warning_in(
        &self,
        group: &str,
        version: &str,
        kind: &str,
        release: Release,
    ) -> Option<&str> {
        let i = self
            .kinds
            .binary_search_by(|d| key_order(&d.gvk, group, version, kind))
            .ok()?;
        let d = &self.kinds[i];
        (d.deprecated_in <= release).then_some(d.warning.as_str())
    }

    /// As [`warning_in`](Self::warning_in), in the release this server is
    /// ([`crate::RELEASE`], what `/version` reports).
    pub fn warning(&self, group: &str, version: &str, kind: &str) -> Option<&str> {
        self.warning_in(group, version, kind, serving_release())
    }
}

/// `(kind's group, version, kind name)` against the looked-up one.
fn key_order(gvk: &GroupVersionKind, group: &str, version: &str, kind: &str) -> Ordering {
    (gvk.group.as_str(), gvk.version.as_str(), gvk.kind.as_str()).cmp(&(group, version, kind))
}

impl FromIterator<(GroupVersionKind, Release, String)> for DeprecatedKinds {
    /// Each kind with the release it is deprecated in and its warning; a kind given twice
    /// keeps the last entry. A release of `(0, 0)` is Go's "no deprecation".
    fn from_iter<I: IntoIterator<Item = (GroupVersionKind, Release, String)>>(iter: I) -> Self {
        let mut kinds: Vec<Deprecation> = iter
            .into_iter()
            .filter(|(_, release, _)| *release != (0, 0))
            .map(|(gvk, deprecated_in, warning)| Deprecation {
                gvk,
                deprecated_in,
                warning,
            })
            .collect();
        // Stable: of equal kinds the last given comes last, and is the one kept.
        kinds.sort_by(|a, b| key_order(&a.gvk, &b.gvk.group, &b.gvk.version, &b.gvk.kind));
        let mut deduplicated: Vec<Deprecation> = Vec::with_capacity(kinds.len());
        for d in kinds {
            match deduplicated.last_mut() {
                Some(last) if last.gvk == d.gvk => *last = d,
                _ => deduplicated.push(d),
            }
        }
        DeprecatedKinds {
            kinds: deduplicated,
        }
    }
}

/// The release the server reports (`1.37`): [`crate::RELEASE`] read once.
fn serving_release() -> Release {
    const fn number(digits: &[u8]) -> u16 {
        let mut n: u16 = 0;
        let mut i = 0;
        while i < digits.len() {
            n = n * 10 + (digits[i] - b'0') as u16;
            i += 1;
        }
        n
    }
    const RELEASE: Release = {
        let (major, minor) = crate::RELEASE.as_bytes().split_at(1);
        let (_, minor) = minor.split_at(1);
        (number(major), number(minor))
    };
    RELEASE
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds() -> DeprecatedKinds {
        [
            (
                GroupVersionKind::new("", "v1", "ComponentStatus"),
                (1, 19),
                "v1 ComponentStatus is deprecated in v1.19+".to_owned(),
            ),
            (
                GroupVersionKind::new("storagemigration.k8s.io", "v1beta1", "StorageVersionMigration"),
                (1, 37),
                "storagemigration.k8s.io/v1beta1 StorageVersionMigration is deprecated in v1.37+, unavailable in v1.40+; use storagemigration.k8s.io/v1 StorageVersionMigration".to_owned(),
            ),
            (GroupVersionKind::new("apps", "v1", "Deployment"), (0, 0), String::new()),
        ]
        .into_iter()
        .collect()
    }

    #[test]
    fn a_kind_is_deprecated_from_its_release_on() {
        let kinds = kinds();
        let svm = (
            "storagemigration.k8s.io",
            "v1beta1",
            "StorageVersionMigration",
        );
        assert_eq!(kinds.warning_in(svm.0, svm.1, svm.2, (1, 36)), None);
        assert!(kinds.warning_in(svm.0, svm.1, svm.2, (1, 37)).is_some());
        assert!(kinds.warning_in(svm.0, svm.1, svm.2, (1, 40)).is_some());
        assert!(kinds.warning_in(svm.0, svm.1, svm.2, (2, 0)).is_some());
        assert_eq!(
            kinds.warning_in("", "v1", "ComponentStatus", (1, 36)),
            Some("v1 ComponentStatus is deprecated in v1.19+")
        );
    }

    #[test]
    fn no_release_is_no_deprecation() {
        let kinds = kinds();
        assert_eq!(kinds.warning_in("apps", "v1", "Deployment", (1, 37)), None);
        assert_eq!(kinds.kinds.len(), 2);
    }

    #[test]
    fn other_versions_and_kinds_are_not_deprecated() {
        let kinds = kinds();
        assert_eq!(kinds.warning_in("", "v2", "ComponentStatus", (1, 37)), None);
        assert_eq!(
            kinds.warning_in("", "v1", "ComponentStatusList", (1, 37)),
            None
        );
        assert_eq!(
            kinds.warning_in(
                "storagemigration.k8s.io",
                "v1",
                "StorageVersionMigration",
                (1, 37)
            ),
            None
        );
        assert!(DeprecatedKinds::new().is_empty());
    }

    #[test]
    fn the_last_entry_of_a_kind_wins() {
        let gvk = GroupVersionKind::new("", "v1", "Endpoints");
        let kinds: DeprecatedKinds = [
            (gvk.clone(), (1, 40), "later".to_owned()),
            (gvk, (1, 33), "now".to_owned()),
        ]
        .into_iter()
        .collect();
        assert_eq!(
            kinds.warning_in("", "v1", "Endpoints", (1, 33)),
            Some("now")
        );
    }

    #[test]
    fn the_serving_release_is_the_builds() {
        let (major, minor) = serving_release();
        assert_eq!(format!("{major}.{minor}"), crate::RELEASE);
    }
}
