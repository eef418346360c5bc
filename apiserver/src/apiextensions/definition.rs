//! A `CustomResourceDefinition` as the server serves it (Go's
//! `apiextensions/v1.CustomResourceDefinitionSpec`, read from the object's JSON): names,
//! scope, versions with their schemas, subresources and printer columns, and the
//! conversion strategy.

use std::cmp::Ordering;

use apimachinery::api::errors::{self, StatusError};
use apimachinery::schema::{GroupKind, GroupVersionKind};
use apimachinery::version::{compare_kube_aware_version_strings, compare_kube_aware_versions};
use serde_json::Value;

use crate::registry::{FieldValidation, ResourceInfo};

/// The verbs of every custom resource, as Go's discovery lists them.
pub const CUSTOM_RESOURCE_VERBS: [&str; 8] = [
    "delete",
    "deletecollection",
    "get",
    "list",
    "patch",
    "create",
    "update",
    "watch",
];

/// Why a CRD could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DefinitionError {
    /// A required field is missing or of the wrong type.
    #[error("customresourcedefinition {name:?}: {field} is required")]
    Missing {
        /// The CRD's name.
        name: String,
        /// The field, such as `spec.names.plural`.
        field: &'static str,
    },
    /// No version is marked `storage: true`.
    #[error("customresourcedefinition {name:?}: no version is the storage version")]
    NoStorageVersion {
        /// The CRD's name.
        name: String,
    },
}

/// The scale subresource's paths (Go's `CustomResourceSubresourceScale`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScaleSubresource {
    /// `.spec.replicas`, as a JSON path.
    pub spec_replicas_path: String,
    /// `.status.replicas`.
    pub status_replicas_path: String,
    /// `.status.selector`, when set.
    pub label_selector_path: Option<String>,
}

/// One printer column (Go's `CustomResourceColumnDefinition`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrinterColumn {
    /// The column header.
    pub name: String,
    /// `integer`, `number`, `string`, `boolean` or `date`.
    pub type_: String,
    /// The column's format, such as `int32`.
    pub format: String,
    /// Its description.
    pub description: String,
    /// Its priority (0: shown by default).
    pub priority: i64,
    /// The simple JSON path of the value, such as `.spec.size`.
    pub json_path: String,
}

/// One version of a CRD.
#[derive(Debug, Clone, PartialEq)]
pub struct Version {
    /// The version's name, such as `v1`.
    pub name: String,
    /// Whether it is served.
    pub served: bool,
    /// Whether objects are stored in it.
    pub storage: bool,
    /// The `openAPIV3Schema`, when given.
    pub schema: Option<Value>,
    /// Whether it has a `/status` subresource.
    pub status: bool,
    /// Its `/scale` subresource, when it has one.
    pub scale: Option<ScaleSubresource>,
    /// Its `additionalPrinterColumns`.
    pub printer_columns: Vec<PrinterColumn>,
    /// Whether it is marked `deprecated`.
    pub deprecated: bool,
    /// The warning every request for it carries when deprecated: its
    /// `deprecationWarning`, or without one Go's text naming the newest served version
    /// not deprecated (`crdHandler`'s `defaultDeprecationWarning`); `None` when it is
    /// not deprecated. (An empty `deprecationWarning` asks for no warning.)
    pub deprecation_warning: Option<String>,
}

/// How objects move between versions (Go's `CustomResourceConversion`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Conversion {
    /// Only `apiVersion` changes.
    None,
    /// A `ConversionReview` is sent to a webhook.
    Webhook(WebhookClientConfig),
}

/// Where a conversion webhook is (Go's `WebhookClientConfig`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookClientConfig {
    /// `url`, when given.
    pub url: Option<String>,
    /// `service` as `(namespace, name, path, port)`, when given.
    pub service: Option<(String, String, String, u16)>,
    /// The PEM CA bundle (decoded from base64).
    pub ca_bundle: Vec<u8>,
    /// The `ConversionReview` versions the webhook accepts.
    pub review_versions: Vec<String>,
}

/// A CRD as served.
#[derive(Debug, Clone, PartialEq)]
pub struct CustomResource {
    /// The CRD's name, `<plural>.<group>`.
    pub name: String,
    /// The CRD's uid.
    pub uid: String,
    /// The group.
    pub group: String,
    /// The plural resource name.
    pub plural: String,
    /// The singular name (the lowercase kind when not given).
    pub singular: String,
    /// The kind.
    pub kind: String,
    /// The list kind (`<Kind>List` when not given).
    pub list_kind: String,
    /// Short names.
    pub short_names: Vec<String>,
    /// Categories.
    pub categories: Vec<String>,
    /// Namespaced or cluster-scoped.
    pub namespaced: bool,
    /// Every version, as listed.
    pub versions: Vec<Version>,
    /// The conversion strategy.
    pub conversion: Conversion,
    /// Whether the CRD is being deleted.
    pub terminating: bool,
}

fn str_at<'v>(v: &'v Value, pointer: &str) -> Option<&'v str> {
    v.pointer(pointer).and_then(Value::as_str)
}

fn strings_at(v: &Value, pointer: &str) -> Vec<String> {
    v.pointer(pointer)
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

impl CustomResource {
    /// Reads an `apiextensions.k8s.io/v1` CRD's JSON.
    ///
    /// ```
    /// use apiserver::apiextensions::CustomResource;
    ///
    /// let crd = serde_json::json!({
    ///     "metadata": {"name": "widgets.example.com"},
    ///     "spec": {"group": "example.com", "scope": "Namespaced",
    ///              "names": {"plural": "widgets", "kind": "Widget"},
    ///              "versions": [{"name": "v1", "served": true, "storage": true}]}});
    /// let cr = CustomResource::from_json(&crd)?;
    /// assert_eq!(cr.list_kind, "WidgetList");
    /// assert_eq!(cr.resource_info().key_prefix, "/registry/example.com/widgets");
    /// # Ok::<(), apiserver::apiextensions::DefinitionError>(())
    /// ```
    pub fn from_json(crd: &Value) -> Result<CustomResource, DefinitionError> {
        let name = str_at(crd, "/metadata/name").unwrap_or_default().to_owned();
        let missing = |field| DefinitionError::Missing {
            name: name.clone(),
            field,
        };
        let group = str_at(crd, "/spec/group").ok_or_else(|| missing("spec.group"))?;
        let plural =
            str_at(crd, "/spec/names/plural").ok_or_else(|| missing("spec.names.plural"))?;
        let kind = str_at(crd, "/spec/names/kind").ok_or_else(|| missing("spec.names.kind"))?;
        let singular = str_at(crd, "/spec/names/singular")
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .unwrap_or_else(|| kind.to_ascii_lowercase());
        let list_kind = str_at(crd, "/spec/names/listKind")
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .unwrap_or_else(|| format!("{kind}List"));
        let mut versions: Vec<Version> = crd
            .pointer("/spec/versions")
            .and_then(Value::as_array)
            .ok_or_else(|| missing("spec.versions"))?
            .iter()
            .map(read_version)
            .collect();
        let defaults: Vec<Option<String>> = versions
            .iter()
            .map(|v| {
                (v.deprecated && v.deprecation_warning.is_none())
                    .then(|| default_deprecation_warning(group, kind, &v.name, &versions))
            })
            .collect();
        for (v, default) in versions.iter_mut().zip(defaults) {
            if default.is_some() {
                v.deprecation_warning = default;
            }
        }
        if !versions.iter().any(|v| v.storage) {
            return Err(DefinitionError::NoStorageVersion { name });
        }
        let conversion = match str_at(crd, "/spec/conversion/strategy") {
            Some("Webhook") => {
                let cc = crd
                    .pointer("/spec/conversion/webhook/clientConfig")
                    .cloned()
                    .unwrap_or(Value::Null);
                let service = cc.get("service").map(|s| {
                    (
                        str_at(s, "/namespace").unwrap_or_default().to_owned(),
                        str_at(s, "/name").unwrap_or_default().to_owned(),
                        str_at(s, "/path").unwrap_or_default().to_owned(),
                        s.get("port")
                            .and_then(Value::as_u64)
                            .and_then(|p| u16::try_from(p).ok())
                            .unwrap_or(443),
                    )
                });
                let ca_bundle = str_at(&cc, "/caBundle")
                    .and_then(|b| {
                        use base64::Engine;
                        base64::engine::general_purpose::STANDARD.decode(b).ok()
                    })
                    .unwrap_or_default();
                Conversion::Webhook(WebhookClientConfig {
                    url: str_at(&cc, "/url").map(str::to_owned),
                    service,
                    ca_bundle,
                    review_versions: strings_at(
                        crd,
                        "/spec/conversion/webhook/conversionReviewVersions",
                    ),
                })
            }
            _ => Conversion::None,
        };
        Ok(CustomResource {
            uid: str_at(crd, "/metadata/uid").unwrap_or_default().to_owned(),
            group: group.to_owned(),
            plural: plural.to_owned(),
            singular,
            kind: kind.to_owned(),
            list_kind,
            short_names: strings_at(crd, "/spec/names/shortNames"),
            categories: strings_at(crd, "/spec/names/categories"),
            namespaced: str_at(crd, "/spec/scope") != Some("Cluster"),
            versions,
            conversion,
            terminating: crd
                .pointer("/metadata/deletionTimestamp")
                .is_some_and(|t| !t.is_null()),
            name,
        })
    }

    /// The storage version.
    pub fn storage_version(&self) -> &Version {
        // from_json refuses a CRD without one.
        self.versions
            .iter()
            .find(|v| v.storage)
            .unwrap_or(&self.versions[0])
    }

    /// One version by name.
    pub fn version(&self, name: &str) -> Option<&Version> {
        self.versions.iter().find(|v| v.name == name)
    }

    /// The served versions, most preferred first (Go's kube-aware version order).
    pub fn served_versions(&self) -> Vec<String> {
        let mut served: Vec<String> = self
            .versions
            .iter()
            .filter(|v| v.served)
            .map(|v| v.name.clone())
            .collect();
        served.sort_by(|a, b| compare_kube_aware_versions(a, b));
        served
    }

    /// The kind in `version`.
    pub fn gvk(&self, version: &str) -> GroupVersionKind {
        GroupVersionKind::new(self.group.as_str(), version, self.kind.as_str())
    }

    /// What the registry needs to know of the resource: stored as JSON at the storage
    /// version under `/registry/<group>/<plural>`, as kube-apiserver keeps custom
    /// resources.
    pub fn resource_info(&self) -> ResourceInfo {
        ResourceInfo {
            group: self.group.clone(),
            resource: self.plural.clone(),
            singular: self.singular.clone(),
            kind: self.kind.clone(),
            list_kind: self.list_kind.clone(),
            namespaced: self.namespaced,
            short_names: self.short_names.clone(),
            categories: self.categories.clone(),
            verbs: CUSTOM_RESOURCE_VERBS
                .iter()
                .map(|v| (*v).to_owned())
                .collect(),
            versions: self.served_versions(),
            storage_gvk: self.gvk(&self.storage_version().name),
            key_prefix: format!("/registry/{}/{}", self.group, self.plural),
            // Go's custom resource strategy starts every object at generation 1.
            has_spec: true,
            has_status: self.versions.iter().any(|v| v.status),
            has_scale: self.versions.iter().any(|v| v.scale.is_some()),
            subresources: Vec::new(),
            subresources_not_served: self
                .versions
                .iter()
                .filter(|v| v.served)
                .flat_map(|v| {
                    let status = (!v.status).then(|| (v.name.clone(), "status".to_owned()));
                    let scale = v
                        .scale
                        .is_none()
                        .then(|| (v.name.clone(), "scale".to_owned()));
                    status.into_iter().chain(scale)
                })
                .collect(),
        }
    }
}

impl CustomResource {
    /// What the server does to a written object of `version` (its JSON, at that
    /// version) before storing it, as Go's custom resource codec and strategy do:
    /// unknown fields pruned (an error naming each under `fieldValidation=Strict`, a
    /// warning each under `Warn`), defaults set, then the schema checked (422 Invalid
    /// with every cause). The request's warnings go into `warnings`, those found before
    /// an error too (Go's decoder records them before its strategy validates); `name` is
    /// the object's name on the URL, for messages about objects that do not name
    /// themselves.
    pub fn admit(
        &self,
        version: &str,
        obj: &mut Value,
        name: &str,
        field_validation: FieldValidation,
        warnings: &mut Vec<String>,
    ) -> Result<(), StatusError> {
        let Some(schema) = self.version(version).and_then(|v| v.schema.as_ref()) else {
            return Ok(());
        };
        let pruned = super::schema::prune(obj, schema);
        let unknown: Vec<String> = pruned
            .iter()
            .map(|p| format!("unknown field {p:?}"))
            .collect();
        match field_validation {
            // Go's decoder finds them, and its handler names the kind as it names a
            // built-in kind's decoding errors.
            FieldValidation::Strict if !unknown.is_empty() => {
                return Err(errors::new_bad_request(format!(
                    "{kind} in version {version:?} cannot be handled as a {kind}: strict decoding error: {}",
                    unknown.join(", "),
                    kind = self.kind
                )));
            }
            FieldValidation::Warn => warnings.extend(unknown),
            _ => {}
        }
        super::schema::default(obj, schema);
        let causes = super::schema::validate(obj, schema);
        if !causes.is_empty() {
            let name = obj
                .pointer("/metadata/name")
                .and_then(Value::as_str)
                .filter(|n| !n.is_empty())
                .unwrap_or(name)
                .to_owned();
            let kind = GroupKind::new(self.group.as_str(), self.kind.as_str());
            return Err(errors::new_invalid_from_causes(&kind, &name, causes));
        }
        if super::schema::has_cel_rules(schema) {
            warnings.push(format!(
                "x-kubernetes-validations rules of {} are not enforced by this server: it has no CEL interpreter",
                self.name
            ));
        }
        Ok(())
    }

    /// Go's defaulting on read: the defaults of the storage version's schema, applied
    /// to a stored object.
    pub fn default_stored(&self, obj: &mut Value) {
        if let Some(schema) = &self.storage_version().schema {
            super::schema::default(obj, schema);
        }
    }
}

fn read_version(v: &Value) -> Version {
    let deprecated = v.get("deprecated").and_then(Value::as_bool) == Some(true);
    let scale = v.pointer("/subresources/scale").map(|s| ScaleSubresource {
        spec_replicas_path: str_at(s, "/specReplicasPath")
            .unwrap_or(".spec.replicas")
            .to_owned(),
        status_replicas_path: str_at(s, "/statusReplicasPath")
            .unwrap_or(".status.replicas")
            .to_owned(),
        label_selector_path: str_at(s, "/labelSelectorPath").map(str::to_owned),
    });
    let printer_columns = v
        .get("additionalPrinterColumns")
        .and_then(Value::as_array)
        .map(|cols| {
            cols.iter()
                .map(|c| PrinterColumn {
                    name: str_at(c, "/name").unwrap_or_default().to_owned(),
                    type_: str_at(c, "/type").unwrap_or("string").to_owned(),
                    format: str_at(c, "/format").unwrap_or_default().to_owned(),
                    description: str_at(c, "/description").unwrap_or_default().to_owned(),
                    priority: c.get("priority").and_then(Value::as_i64).unwrap_or(0),
                    json_path: str_at(c, "/jsonPath").unwrap_or_default().to_owned(),
                })
                .collect()
        })
        .unwrap_or_default();
    Version {
        name: str_at(v, "/name").unwrap_or_default().to_owned(),
        served: v.get("served").and_then(Value::as_bool).unwrap_or(false),
        storage: v.get("storage").and_then(Value::as_bool).unwrap_or(false),
        schema: v.pointer("/schema/openAPIV3Schema").cloned(),
        status: v.pointer("/subresources/status").is_some(),
        scale,
        printer_columns,
        deprecated,
        // Go's default text needs every version: `from_json` fills it in.
        deprecation_warning: str_at(v, "/deprecationWarning")
            .filter(|_| deprecated)
            .map(str::to_owned),
    }
}

/// Go's `defaultDeprecationWarning`: `GROUP/VERSION KIND is deprecated`, with `; use
/// GROUP/NEWER KIND` naming the most preferred served version, not deprecated, that is
/// preferred to `deprecated` (kube-aware version order), when there is one.
fn default_deprecation_warning(
    group: &str,
    kind: &str,
    deprecated: &str,
    versions: &[Version],
) -> String {
    let mut message = format!("{group}/{deprecated} {kind} is deprecated");
    let newest = versions
        .iter()
        .filter(|v| {
            v.served
                && !v.deprecated
                && compare_kube_aware_version_strings(deprecated, &v.name) == Ordering::Less
        })
        .map(|v| v.name.as_str())
        .max_by(|a, b| compare_kube_aware_version_strings(a, b));
    if let Some(newest) = newest {
        message.push_str(&format!("; use {group}/{newest} {kind}"));
    }
    message
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_sort_as_go_sorts_them() {
        let mut v = vec![
            "foo", "v1alpha1", "v1", "v2beta1", "v1beta2", "v10", "v1beta1", "bar",
        ];
        v.sort_by(|a, b| compare_kube_aware_versions(a, b));
        assert_eq!(
            v,
            [
                "v10", "v1", "v2beta1", "v1beta2", "v1beta1", "v1alpha1", "bar", "foo"
            ]
        );
    }

    #[test]
    fn a_crd_without_a_storage_version_is_refused() {
        let crd = serde_json::json!({"metadata": {"name": "a.b"}, "spec": {"group": "b",
            "names": {"plural": "a", "kind": "A"}, "versions": [{"name": "v1", "served": true}]}});
        assert!(matches!(
            CustomResource::from_json(&crd),
            Err(DefinitionError::NoStorageVersion { .. })
        ));
    }

    fn warnings(versions: Value) -> Result<Vec<Option<String>>, DefinitionError> {
        let crd = serde_json::json!({"metadata": {"name": "gadgets.example.com"},
            "spec": {"group": "example.com", "names": {"plural": "gadgets", "kind": "Gadget"},
            "versions": versions}});
        let cr = CustomResource::from_json(&crd)?;
        Ok(cr
            .versions
            .into_iter()
            .map(|v| v.deprecation_warning)
            .collect())
    }

    #[test]
    fn deprecated_versions_warn_with_their_text_or_gos_default() -> Result<(), DefinitionError> {
        let versions = serde_json::json!([
            {"name": "v1alpha1", "served": true, "deprecated": true},
            {"name": "v1beta1", "served": true, "deprecated": true,
             "deprecationWarning": "use v2, please"},
            {"name": "v1beta2", "served": true, "deprecated": true, "deprecationWarning": ""},
            {"name": "v1", "served": true, "storage": true},
            {"name": "v2", "served": false},
            {"name": "v3", "served": true, "deprecated": true},
            {"name": "v1beta3", "served": true, "deprecationWarning": "not deprecated"},
        ]);
        assert_eq!(
            warnings(versions)?,
            [
                // The newest served version not deprecated, whatever the list's order.
                Some("example.com/v1alpha1 Gadget is deprecated; use example.com/v1 Gadget".into()),
                Some("use v2, please".into()),
                Some(String::new()),
                None,
                None,
                // Nothing newer served and not deprecated.
                Some("example.com/v3 Gadget is deprecated".into()),
                None,
            ]
        );
        Ok(())
    }
}
