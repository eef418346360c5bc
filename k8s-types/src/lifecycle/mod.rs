//! When each API version of a kind was introduced, deprecated and removed, and what
//! replaces it: the values of Go's `APILifecycleIntroduced()`, `APILifecycleDeprecated()`,
//! `APILifecycleRemoved()` and `APILifecycleReplacement()` methods, which Go's
//! `prerelease-lifecycle-gen` compiles from the `+k8s:prerelease-lifecycle-gen:...`
//! markers of `k8s.io/api`'s types (`zz_generated.prerelease-lifecycle.go`).
//!
//! The table is read by `cargo xtask lifecycle` from a series of `k8s.io/api` releases
//! ([`modules`], with their go.sum checksums), not kept by hand: each kind's entry comes
//! from the newest release that still defines it, so kinds Kubernetes has since deleted
//! from `k8s.io/api` (`autoscaling/v2beta1`, `policy/v1beta1` `PodSecurityPolicy`,
//! `flowcontrol.apiserver.k8s.io/v1alpha1`, ...) keep their last word. Kinds without
//! any marker (custom resources, `meta.k8s.io`) are not in it.
//!
//! The answers are Go's: [`ApiLifecycle::is_deprecated_in`] is kube-apiserver's
//! `deprecation.IsDeprecated`, [`ApiLifecycle::warning_message`] the `Warning` header
//! text it sends for a deprecated kind (`deprecation.WarningMessage`). Go's markers are
//! data, carried as they are, mistakes included (`networking.k8s.io/v1beta1`
//! `IngressClass` names `IngressClassList` as its replacement).
//!
//! ```
//! use k8s_types::lifecycle::{self, Release};
//!
//! let cron = lifecycle::find("batch", "v1beta1", "CronJob").ok_or("no entry")?;
//! assert_eq!(cron.deprecated, Some(Release::new(1, 21)));
//! assert_eq!(cron.removed, Some(Release::new(1, 25)));
//! assert!(cron.is_removed_in("1.25".parse()?));
//! assert_eq!(
//!     cron.warning_message(),
//!     "batch/v1beta1 CronJob is deprecated in v1.21+, unavailable in v1.25+; use batch/v1 CronJob"
//! );
//! // Deleted from k8s.io/api since, still known:
//! let hpa = lifecycle::find("autoscaling", "v2beta1", "HorizontalPodAutoscaler").ok_or("no entry")?;
//! assert_eq!(hpa.removed, Some(Release::new(1, 25)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod table;

use std::fmt;
use std::str::FromStr;

use apimachinery::schema::GroupVersionKind;

/// A Kubernetes minor release, `major.minor` (`1.25`), as Go's lifecycle methods return it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Release {
    /// The major version (`1`).
    pub major: u16,
    /// The minor version (`25`).
    pub minor: u16,
}

impl Release {
    /// `major.minor`.
    pub const fn new(major: u16, minor: u16) -> Self {
        Release { major, minor }
    }
}

impl fmt::Display for Release {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// A release string that is not `[v]MAJOR.MINOR[...]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseReleaseError(String);

impl fmt::Display for ParseReleaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid Kubernetes release {:?}: expected MAJOR.MINOR, such as 1.37 or v1.37.2",
            self.0
        )
    }
}

impl std::error::Error for ParseReleaseError {}

impl FromStr for Release {
    type Err = ParseReleaseError;

    /// Reads `1.37`, `v1.37`, `1.37.2` or `v1.37.2-gke.100`: the major number, then the
    /// leading digits of the minor, as Go's `deprecation.MajorMinor` reads a version.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || ParseReleaseError(s.to_owned());
        let rest = s.strip_prefix('v').unwrap_or(s);
        let (major, minor) = rest.split_once('.').ok_or_else(err)?;
        let digits = minor.bytes().take_while(u8::is_ascii_digit).count();
        let (minor, tail) = minor.split_at(digits);
        if !(tail.is_empty() || tail.starts_with(['.', '-', '+'])) {
            return Err(err());
        }
        Ok(Release {
            major: major.parse().map_err(|_| err())?,
            minor: minor.parse().map_err(|_| err())?,
        })
    }
}

/// A group, version and kind named by a lifecycle marker (the replacement).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KindRef {
    /// The API group, `""` for the core group.
    pub group: &'static str,
    /// The version.
    pub version: &'static str,
    /// The kind.
    pub kind: &'static str,
}

impl KindRef {
    /// `group/version`, or `version` for the core group: the `apiVersion` of its objects.
    pub fn api_version(&self) -> String {
        api_version(self.group, self.version)
    }
}

/// `group/version`, or `version` for the core group.
fn api_version(group: &str, version: &str) -> String {
    if group.is_empty() {
        version.to_owned()
    } else {
        format!("{group}/{version}")
    }
}

/// The lifecycle of one kind in one API version: Go's four `APILifecycle*` methods.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ApiLifecycle {
    /// The API group, `""` for the core group.
    pub group: &'static str,
    /// The version (`v1beta1`).
    pub version: &'static str,
    /// The kind (the Go type's name).
    pub kind: &'static str,
    /// The release the version of the kind was introduced in.
    pub introduced: Option<Release>,
    /// The release it was or will be deprecated in; `None` for versions not deprecated
    /// (GA ones).
    pub deprecated: Option<Release>,
    /// The release from which it is no longer served; `None` when none is planned.
    pub removed: Option<Release>,
    /// What to use instead, when the markers name it.
    pub replacement: Option<KindRef>,
    /// The `k8s.io/api` release the entry was read from: the newest of [`modules`] that
    /// defines the kind (older than the newest when Kubernetes has deleted it since).
    pub module_version: &'static str,
}

impl ApiLifecycle {
    /// The `apiVersion` of the kind's objects (`batch/v1beta1`, `v1`).
    pub fn api_version(&self) -> String {
        api_version(self.group, self.version)
    }

    /// Whether the kind is deprecated in `release` (deprecated in it or before): Go's
    /// `deprecation.IsDeprecated`.
    pub fn is_deprecated_in(&self, release: Release) -> bool {
        self.deprecated.is_some_and(|d| d <= release)
    }

    /// Whether `release` no longer serves the kind (removed in it or before).
    pub fn is_removed_in(&self, release: Release) -> bool {
        self.removed.is_some_and(|r| r <= release)
    }

    /// The `Warning` kube-apiserver sends for requests to a deprecated kind (Go's
    /// `deprecation.WarningMessage`): `batch/v1beta1 CronJob is deprecated in v1.21+,
    /// unavailable in v1.25+; use batch/v1 CronJob`; empty when not deprecated.
    pub fn warning_message(&self) -> String {
        let Some(deprecated) = self.deprecated else {
            return String::new();
        };
        let mut message = format!(
            "{} {} is deprecated in v{deprecated}+",
            self.api_version(),
            self.kind
        );
        if let Some(removed) = self.removed {
            message.push_str(&format!(", unavailable in v{removed}+"));
        }
        if let Some(replacement) = self.replacement {
            message.push_str(&format!(
                "; use {} {}",
                replacement.api_version(),
                replacement.kind
            ));
        }
        message
    }
}

/// A Go module release the table was read from, as go.sum records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GoModule {
    /// The module path, `k8s.io/api`.
    pub path: &'static str,
    /// The release (`v0.25.9`).
    pub version: &'static str,
    /// The `h1:` checksum of the module's files (go.sum's first line for it).
    pub sum: &'static str,
    /// The `h1:` checksum of its go.mod (go.sum's `/go.mod` line).
    pub go_mod_sum: &'static str,
}

/// The lifecycle of `kind` in `group`/`version` (core group `""`), if Go's markers give
/// one.
pub fn find(group: &str, version: &str, kind: &str) -> Option<&'static ApiLifecycle> {
    let table = table::TABLE;
    table
        .binary_search_by(|e| (e.group, e.version, e.kind).cmp(&(group, version, kind)))
        .ok()
        .map(|i| &table[i])
}

/// The lifecycle of the kind of objects written `apiVersion: api_version`, `kind: kind`.
pub fn find_api_version(api_version: &str, kind: &str) -> Option<&'static ApiLifecycle> {
    let (group, version) = api_version.rsplit_once('/').unwrap_or(("", api_version));
    find(group, version, kind)
}

/// Every entry, sorted by group, version and kind.
pub fn all() -> &'static [ApiLifecycle] {
    table::TABLE
}

/// Every kind with a deprecation release, as a server's deprecation warnings are made
/// from it: the kind's group, version and kind, the release it is deprecated in as
/// `(major, minor)`, and its [`warning_message`](ApiLifecycle::warning_message). A
/// server compares the release with its own, as kube-apiserver's `IsDeprecated` does
/// (`apiserver`'s `DeprecatedKinds` collects it).
///
/// ```
/// let endpoints = k8s_types::lifecycle::deprecated_kinds()
///     .find(|(gvk, _, _)| gvk.group.is_empty() && gvk.version == "v1" && gvk.kind == "Endpoints")
///     .ok_or("no v1 Endpoints")?;
/// assert_eq!(endpoints.1, (1, 33));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn deprecated_kinds() -> impl Iterator<Item = (GroupVersionKind, (u16, u16), String)> {
    all().iter().filter_map(|l| {
        let deprecated = l.deprecated?;
        Some((
            GroupVersionKind::new(l.group, l.version, l.kind),
            (deprecated.major, deprecated.minor),
            l.warning_message(),
        ))
    })
}

/// The `k8s.io/api` releases read, oldest first.
pub fn modules() -> &'static [GoModule] {
    table::MODULES
}

/// The newest release the table knows (that of the newest module read: `k8s.io/api`
/// `v0.37.x` is Kubernetes 1.37).
pub fn latest_release() -> Release {
    table::LATEST
}
