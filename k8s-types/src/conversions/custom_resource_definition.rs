//! `apiextensions.k8s.io/v1beta1` CustomResourceDefinition ⇄ the
//! `apiextensions.k8s.io/v1` hub.
//!
//! Kubernetes converts both through its internal type, which has every field of both
//! versions (`apiextensions/v1beta1/conversion.go` and `apiextensions/v1/conversion.go` of
//! `k8s.io/apiextensions-apiserver`); going straight from one to the other here gives the
//! same objects:
//!
//! - **spec, to `v1`**: a spec without `versions` but with `version` gets one version of
//!   that name, served and stored. The spec-wide `validation`, `subresources`,
//!   `additionalPrinterColumns` and `selectableFields` are copied into every version
//!   (`validation` as the version's `schema`), replacing what the version had (`v1beta1`
//!   allows only one of the two places). An unset `preserveUnknownFields` is `false`.
//! - **spec, to `v1beta1`**: `version` is the first version's name. Each of `schema`,
//!   `subresources`, `additionalPrinterColumns` and `selectableFields` that is the same
//!   in every version moves to the spec (`schema` as `validation`) and is cleared in the
//!   versions. `preserveUnknownFields` is always set.
//! - **conversion**: `v1beta1`'s `webhookClientConfig` and `conversionReviewVersions` are
//!   `v1`'s `webhook.clientConfig` and `webhook.conversionReviewVersions`; `v1` gets a
//!   `webhook` when either is set.
//! - **schemas**: a `default` or `example` whose JSON is `null` is unset, as Go's
//!   conversion of its internal `JSON` (an empty interface) unsets it.
//!
//! What does not come back, as in Go: `v1beta1 → v1 → v1beta1` sets `versions` from
//! `version` (and `version` from `versions`), moves per-version schemas, subresources,
//! columns or selectable fields that are all equal to the spec, and turns an unset
//! `preserveUnknownFields` (which `v1beta1`'s defaulting makes `true`) into `false`.
//! `v1 → v1beta1 → v1` gives back the same `v1` object, but for a `webhook` with neither
//! `clientConfig` nor `conversionReviewVersions`, which is dropped, and a `null` schema
//! default or example. (Go also tells an empty list from an absent one, where this
//! treats both as absent, as the JSON Go writes does.)

use apimachinery::conversion::{ConversionError, Convert, Scope, in_field};

use crate::apiextensions::v1 as hub;
use crate::apiextensions::v1beta1 as old;
use crate::custom::apiextensions::{
    JSONSchemaPropsOrArray, JSONSchemaPropsOrBool, JSONSchemaPropsOrStringArray,
};

impl Convert<hub::CustomResourceDefinitionSpec> for old::CustomResourceDefinitionSpec {
    fn convert(
        self,
        scope: &Scope<'_>,
    ) -> Result<hub::CustomResourceDefinitionSpec, ConversionError> {
        self.convert_ref(scope)
    }

    fn convert_ref(
        &self,
        scope: &Scope<'_>,
    ) -> Result<hub::CustomResourceDefinitionSpec, ConversionError> {
        let mut versions: Vec<hub::CustomResourceDefinitionVersion> =
            in_field(self.versions.convert_ref(scope), "versions")?;
        if versions.is_empty() && !self.version.is_empty() {
            versions.push(hub::CustomResourceDefinitionVersion {
                name: self.version.clone(),
                served: true,
                storage: true,
                ..Default::default()
            });
        }
        if let Some(validation) = &self.validation {
            let schema: hub::CustomResourceValidation =
                in_field(validation.convert_ref(scope), "validation")?;
            for v in &mut versions {
                v.schema = Some(schema.clone());
            }
        }
        if let Some(subresources) = &self.subresources {
            let subresources: hub::CustomResourceSubresources =
                in_field(subresources.convert_ref(scope), "subresources")?;
            for v in &mut versions {
                v.subresources = Some(subresources.clone());
            }
        }
        if !self.additional_printer_columns.is_empty() {
            let columns: Vec<hub::CustomResourceColumnDefinition> = in_field(
                self.additional_printer_columns.convert_ref(scope),
                "additionalPrinterColumns",
            )?;
            for v in &mut versions {
                v.additional_printer_columns.clone_from(&columns);
            }
        }
        if !self.selectable_fields.is_empty() {
            let fields: Vec<hub::SelectableField> = in_field(
                self.selectable_fields.convert_ref(scope),
                "selectableFields",
            )?;
            for v in &mut versions {
                v.selectable_fields.clone_from(&fields);
            }
        }
        for v in &mut versions {
            if let Some(schema) = v.schema.as_mut().and_then(|s| s.open_apiv3_schema.as_mut()) {
                v1_null_json::unset(schema);
            }
        }
        Ok(hub::CustomResourceDefinitionSpec {
            group: self.group.clone(),
            names: in_field(self.names.convert_ref(scope), "names")?,
            scope: self.scope.clone(),
            // `v1beta1` omits empty lists, so Go read none: `null` in `v1`.
            versions: (!versions.is_empty()).then_some(versions),
            conversion: in_field(self.conversion.convert_ref(scope), "conversion")?,
            preserve_unknown_fields: self.preserve_unknown_fields.unwrap_or_default(),
        })
    }
}

impl Convert<old::CustomResourceDefinitionSpec> for hub::CustomResourceDefinitionSpec {
    fn convert(
        self,
        scope: &Scope<'_>,
    ) -> Result<old::CustomResourceDefinitionSpec, ConversionError> {
        self.convert_ref(scope)
    }

    fn convert_ref(
        &self,
        scope: &Scope<'_>,
    ) -> Result<old::CustomResourceDefinitionSpec, ConversionError> {
        let mut versions: Vec<old::CustomResourceDefinitionVersion> = match &self.versions {
            Some(versions) => in_field(versions.convert_ref(scope), "versions")?,
            None => Vec::new(),
        };
        for v in &mut versions {
            if let Some(schema) = v.schema.as_mut().and_then(|s| s.open_apiv3_schema.as_mut()) {
                v1beta1_null_json::unset(schema);
            }
        }
        let mut out = old::CustomResourceDefinitionSpec {
            group: self.group.clone(),
            names: in_field(self.names.convert_ref(scope), "names")?,
            scope: self.scope.clone(),
            conversion: in_field(self.conversion.convert_ref(scope), "conversion")?,
            preserve_unknown_fields: Some(self.preserve_unknown_fields),
            ..Default::default()
        };
        if let Some(first) = versions.first() {
            out.version.clone_from(&first.name);
            let same =
                |f: &dyn Fn(&old::CustomResourceDefinitionVersion) -> bool| versions.iter().all(f);
            let subresources = same(&|v| v.subresources == first.subresources);
            let schema = same(&|v| v.schema == first.schema);
            let columns =
                same(&|v| v.additional_printer_columns == first.additional_printer_columns);
            let fields = same(&|v| v.selectable_fields == first.selectable_fields);
            if subresources {
                out.subresources.clone_from(&first.subresources);
            }
            if schema {
                out.validation.clone_from(&first.schema);
            }
            if columns {
                out.additional_printer_columns
                    .clone_from(&first.additional_printer_columns);
            }
            if fields {
                out.selectable_fields.clone_from(&first.selectable_fields);
            }
            for v in &mut versions {
                if subresources {
                    v.subresources = None;
                }
                if schema {
                    v.schema = None;
                }
                if columns {
                    v.additional_printer_columns.clear();
                }
                if fields {
                    v.selectable_fields.clear();
                }
            }
        }
        out.versions = versions;
        Ok(out)
    }
}

impl Convert<hub::CustomResourceConversion> for old::CustomResourceConversion {
    fn convert(self, scope: &Scope<'_>) -> Result<hub::CustomResourceConversion, ConversionError> {
        self.convert_ref(scope)
    }

    fn convert_ref(
        &self,
        scope: &Scope<'_>,
    ) -> Result<hub::CustomResourceConversion, ConversionError> {
        let review_versions = &self.conversion_review_versions;
        let webhook = if self.webhook_client_config.is_some() || !review_versions.is_empty() {
            Some(hub::WebhookConversion {
                client_config: in_field(
                    self.webhook_client_config.convert_ref(scope),
                    "webhookClientConfig",
                )?,
                conversion_review_versions: (!review_versions.is_empty())
                    .then(|| review_versions.clone()),
            })
        } else {
            None
        };
        Ok(hub::CustomResourceConversion {
            strategy: self.strategy.clone(),
            webhook,
        })
    }
}

impl Convert<old::CustomResourceConversion> for hub::CustomResourceConversion {
    fn convert(self, scope: &Scope<'_>) -> Result<old::CustomResourceConversion, ConversionError> {
        self.convert_ref(scope)
    }

    fn convert_ref(
        &self,
        scope: &Scope<'_>,
    ) -> Result<old::CustomResourceConversion, ConversionError> {
        let (webhook_client_config, conversion_review_versions) = match &self.webhook {
            Some(w) => (
                in_field(w.client_config.convert_ref(scope), "clientConfig")
                    .map_err(|e| e.in_field("webhook"))?,
                w.conversion_review_versions.clone().unwrap_or_default(),
            ),
            None => (None, Vec::new()),
        };
        Ok(old::CustomResourceConversion {
            strategy: self.strategy.clone(),
            webhook_client_config,
            conversion_review_versions,
        })
    }
}

/// Unsets the `null` defaults and examples of a schema and of the schemas in it: Go
/// converts `JSON` through an empty interface, and a nil interface is no value.
macro_rules! null_json {
    ($module:ident, $version:path) => {
        mod $module {
            use super::{
                JSONSchemaPropsOrArray, JSONSchemaPropsOrBool, JSONSchemaPropsOrStringArray,
            };
            use $version as v;

            pub(super) fn unset(p: &mut v::JSONSchemaProps) {
                if p.default.as_ref().is_some_and(|d| d.0.is_null()) {
                    p.default = None;
                }
                if p.example.as_ref().is_some_and(|e| e.0.is_null()) {
                    p.example = None;
                }
                match &mut p.items {
                    Some(JSONSchemaPropsOrArray::Schema(s)) => unset(s),
                    Some(JSONSchemaPropsOrArray::Schemas(s)) => s.iter_mut().for_each(unset),
                    None => {}
                }
                for s in [&mut p.all_of, &mut p.one_of, &mut p.any_of] {
                    s.iter_mut().for_each(unset);
                }
                if let Some(s) = &mut p.not {
                    unset(s);
                }
                for s in [
                    &mut p.properties,
                    &mut p.pattern_properties,
                    &mut p.definitions,
                ] {
                    s.values_mut().for_each(unset);
                }
                for s in [&mut p.additional_properties, &mut p.additional_items] {
                    if let Some(JSONSchemaPropsOrBool::Schema(s)) = s {
                        unset(s);
                    }
                }
                for d in p.dependencies.values_mut() {
                    if let JSONSchemaPropsOrStringArray::Schema(s) = d {
                        unset(s);
                    }
                }
            }
        }
    };
}

null_json!(v1_null_json, crate::apiextensions::v1);
null_json!(v1beta1_null_json, crate::apiextensions::v1beta1);
