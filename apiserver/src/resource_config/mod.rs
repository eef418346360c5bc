//! Which API versions and resources the server serves (Go's `storage.ResourceConfig`,
//! with `resourceconfig.MergeAPIResourceConfigs` reading `--runtime-config`): by default
//! what kube-apiserver of the release serves (its GA versions; beta and alpha versions
//! off), changed by a `--runtime-config` value such as `api/beta=true,apps/v1=false`.
//!
//! Groups kube-apiserver does not have (a program's own types in its scheme) are not in
//! the release's table: they are served unless `--runtime-config` turns them off.
//!
//! ```
//! use apiserver::resource_config::ResourceConfig;
//! use apimachinery::runtime::Scheme;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let mut scheme = Scheme::new();
//! scheme.add_registry()?;
//! let mut config = ResourceConfig::kube_apiserver_default();
//! assert!(config.resource_enabled("apps", "v1", "deployments"));
//! assert!(!config.resource_enabled("storage.k8s.io", "v1beta1", "csistoragecapacities"));
//! config.apply_runtime_config("api/beta=true", &scheme)?;
//! assert!(config.resource_enabled("storage.k8s.io", "v1beta1", "csistoragecapacities"));
//! # Ok(()) }
//! ```

#[cfg(not(feature = "v1_37"))]
mod v1_36;
#[cfg(not(feature = "v1_37"))]
use v1_36 as release;
#[cfg(feature = "v1_37")]
mod v1_37;
#[cfg(feature = "v1_37")]
use v1_37 as release;

use std::collections::{BTreeMap, BTreeSet};

use apimachinery::runtime::Scheme;
use apimachinery::schema::GroupVersion;

/// The keys that address every version of a stability level (Go's
/// `groupVersionMatchers`), in the order Go applies them.
const MATCHERS: [&str; 4] = ["api/all", "api/ga", "api/beta", "api/alpha"];

/// Why a `--runtime-config` value was refused (Go's messages).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuntimeConfigError {
    /// `api/all=false` alone would serve nothing.
    #[error("invalid runtime-config with only api/all=false")]
    OnlyAllFalse,
    /// A key that is neither a level nor `group/version[/resource]`.
    #[error("runtime-config invalid key {0}")]
    InvalidKey(String),
    /// Groups the server does not have.
    #[error("unknown api groups {0}")]
    UnknownGroups(String),
    /// A level's value that is neither `true` nor `false`.
    #[error("invalid value {key}={value}")]
    InvalidLevelValue {
        /// The key (`api/beta`).
        key: String,
        /// The value.
        value: String,
    },
    /// A version of a known group the server does not have.
    #[error("group version {0} that has not been registered")]
    UnknownVersion(String),
    /// A value Go's `strconv.ParseBool` does not read.
    #[error(
        "invalid value of {key}: {value}, err: strconv.ParseBool: parsing \"{value}\": invalid syntax"
    )]
    InvalidValue {
        /// The key.
        key: String,
        /// The value.
        value: String,
    },
    /// A resource not in lower case.
    #[error(
        "invalid key {key}: group/version/resource and resource is always lowercase plural, not \"{resource}\""
    )]
    ResourceNotLowercase {
        /// The key.
        key: String,
        /// The resource as written.
        resource: String,
    },
}

/// Which group versions and resources are served (Go's `ResourceConfig`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceConfig {
    /// The group versions with a setting; a version of a group listed here that has
    /// none is off.
    versions: BTreeMap<GroupVersion, bool>,
    /// Settings of single resources, which take precedence over their version's.
    resources: BTreeMap<(GroupVersion, String), bool>,
}

impl Default for ResourceConfig {
    fn default() -> Self {
        ResourceConfig::kube_apiserver_default()
    }
}

impl ResourceConfig {
    /// What kube-apiserver of the release this crate is built for serves without
    /// `--runtime-config` (`DefaultAPIResourceConfigSource`).
    pub fn kube_apiserver_default() -> Self {
        let setting = |list: &[(&str, &str)], on: bool| {
            list.iter()
                .map(move |(g, v)| (GroupVersion::new(*g, *v), on))
                .collect::<Vec<_>>()
        };
        ResourceConfig {
            versions: setting(release::ENABLED, true)
                .into_iter()
                .chain(setting(release::DISABLED, false))
                .collect(),
            resources: BTreeMap::new(),
        }
    }

    /// Whether `resource` of `group`/`version` is served (Go's `ResourceEnabled`): its
    /// own setting, else its version's; a version of a kube-apiserver group that the
    /// release does not list is off; a group kube-apiserver does not have is on.
    pub fn resource_enabled(&self, group: &str, version: &str, resource: &str) -> bool {
        let gv = GroupVersion::new(group, version);
        if let Some(on) = self.resources.get(&(gv.clone(), resource.to_owned())) {
            return *on;
        }
        if let Some(on) = self.versions.get(&gv) {
            return *on;
        }
        !self.versions.keys().any(|known| known.group == group)
    }

    /// Applies a `--runtime-config` value (comma-separated `key=value`; a key alone is
    /// `true`) as kube-apiserver does: `v1` and `api/v1` are the core group,
    /// `api/legacy` is ignored, the levels (`api/all`, `api/ga`, `api/beta`,
    /// `api/alpha`) turn the versions of the release's table on or off, then
    /// `group/version` and last `group/version/resource` settings. Groups are checked
    /// against `scheme`.
    pub fn apply_runtime_config(
        &mut self,
        value: &str,
        scheme: &Scheme,
    ) -> Result<(), RuntimeConfigError> {
        let overrides = parse_configuration_map(value);
        validate(&overrides, scheme)?;
        for level in MATCHERS {
            let Some(value) = overrides.get(level) else {
                continue;
            };
            let on = match value.as_str() {
                "true" => true,
                "false" => false,
                _ => {
                    return Err(RuntimeConfigError::InvalidLevelValue {
                        key: level.to_owned(),
                        value: value.clone(),
                    });
                }
            };
            let matching: Vec<GroupVersion> = self
                .versions
                .keys()
                .filter(|gv| level_matches(level, &gv.version))
                .cloned()
                .collect();
            for gv in matching {
                self.set_version(gv, on);
            }
        }
        let mut version_settings = Vec::new();
        let mut resource_settings = Vec::new();
        for (key, value) in &overrides {
            if MATCHERS.contains(&key.as_str()) {
                continue;
            }
            let tokens: Vec<&str> = key.split('/').collect();
            if !(2..=3).contains(&tokens.len()) {
                continue;
            }
            let gv = GroupVersion::new(tokens[0], tokens[1]);
            if !scheme.is_group_registered(&gv.group) {
                continue;
            }
            if !scheme.is_version_registered(&gv) {
                return Err(RuntimeConfigError::UnknownVersion(gv.to_string()));
            }
            let on = parse_bool(value).ok_or_else(|| RuntimeConfigError::InvalidValue {
                key: key.clone(),
                value: value.clone(),
            })?;
            match tokens.get(2) {
                None => version_settings.push((gv, on)),
                Some(resource) if resource.to_lowercase() != *resource => {
                    return Err(RuntimeConfigError::ResourceNotLowercase {
                        key: key.clone(),
                        resource: (*resource).to_owned(),
                    });
                }
                Some(resource) => resource_settings.push((gv, (*resource).to_owned(), on)),
            }
        }
        for (gv, on) in version_settings {
            self.set_version(gv, on);
        }
        for (gv, resource, on) in resource_settings {
            self.resources.insert((gv, resource), on);
        }
        Ok(())
    }

    /// Turns a version on or off, forgetting the settings of its resources (a setting
    /// of a version overrides those made before it, as Go's `EnableVersions`).
    fn set_version(&mut self, gv: GroupVersion, on: bool) {
        self.resources.retain(|(v, _), _| *v != gv);
        self.versions.insert(gv, on);
    }
}

/// Go's `cliflag.ConfigurationMap.Set`, then kube-apiserver's completion of the keys:
/// `v1`, `v1/...`, `api/v1` and `api/v1/...` become the core group's `/v1`;
/// `api/legacy` is dropped.
fn parse_configuration_map(value: &str) -> BTreeMap<String, String> {
    let mut map = BTreeMap::new();
    for pair in value.split(',').filter(|s| !s.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        map.insert(key.trim().to_owned(), value.trim().to_owned());
    }
    let keys: Vec<String> = map.keys().cloned().collect();
    for key in keys {
        let core =
            key == "v1" || key.starts_with("v1/") || key == "api/v1" || key.starts_with("api/v1/");
        if core {
            if let Some(value) = map.remove(&key) {
                map.insert("/v1".to_owned(), value);
            }
        } else if key == "api/legacy" {
            map.remove(&key);
        }
    }
    map
}

/// Go's `APIEnablementOptions.Validate`: not `api/all=false` alone, every key a level or
/// `group/version[/resource]`, every group one the server has.
fn validate(
    overrides: &BTreeMap<String, String>,
    scheme: &Scheme,
) -> Result<(), RuntimeConfigError> {
    if overrides.len() == 1 && overrides.get("api/all").is_some_and(|v| v == "false") {
        return Err(RuntimeConfigError::OnlyAllFalse);
    }
    let mut unknown = BTreeSet::new();
    for key in overrides.keys() {
        if MATCHERS.contains(&key.as_str()) {
            continue;
        }
        let tokens: Vec<&str> = key.split('/').collect();
        if !(2..=3).contains(&tokens.len()) {
            return Err(RuntimeConfigError::InvalidKey(key.clone()));
        }
        let gv = GroupVersion::new(tokens[0], tokens[1]);
        if !scheme.is_group_registered(&gv.group) {
            unknown.insert(gv.to_string());
        }
    }
    if unknown.is_empty() {
        Ok(())
    } else {
        Err(RuntimeConfigError::UnknownGroups(
            unknown.into_iter().collect::<Vec<_>>().join(","),
        ))
    }
}

/// Whether `version` is of the level `key` addresses (Go's `gaPattern`, `betaPattern`,
/// `alphaPattern`: `v1`, `v1beta2`, `v1alpha3`).
fn level_matches(key: &str, version: &str) -> bool {
    let Some(rest) = version.strip_prefix('v') else {
        return false;
    };
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 {
        return false;
    }
    let (_, suffix) = rest.split_at(digits);
    let level = |name: &str| {
        suffix
            .strip_prefix(name)
            .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
    };
    match key {
        "api/all" => true,
        "api/ga" => suffix.is_empty(),
        "api/beta" => level("beta"),
        "api/alpha" => level("alpha"),
        _ => false,
    }
}

/// Go's `strconv.ParseBool`, with an empty value (a key alone) as `true`.
fn parse_bool(value: &str) -> Option<bool> {
    match value {
        "" | "1" | "t" | "T" | "TRUE" | "true" | "True" => Some(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests;
