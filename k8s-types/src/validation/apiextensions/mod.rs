//! apiextensions-apiserver's validation of a CustomResourceDefinition (Go's
//! `k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation`, as its REST
//! strategy runs it on create and update): the name `<plural>.<group>`, the group,
//! scope, versions (DNS-1035 names, unique, exactly one storage version, deprecation
//! warnings, a schema for each), names and accepted names, subresources, printer
//! columns, conversion (strategy, webhook client configuration, review versions),
//! stored versions, the API-approval annotation of protected groups and
//! `preserveUnknownFields`. Go validates its internal version, whose layout moves the
//! fields all versions share to the top level ([`layout`]); errors carry Go's paths.
//!
//! Not ported: the checks of a schema itself (`ValidateCustomResourceDefinitionOpenAPISchema`,
//! structural schemas, defaults validated against their schema, CEL rules and their
//! cost), selectable fields' paths into the schema, and a conversion webhook's
//! caBundle (checked by Go only on an update of an established CRD whose old bundle
//! was valid).

mod conversion;
mod field_path;
mod go_print;
mod layout;
mod schema;
mod spec;

use apimachinery::apis::meta::v1::validation::{
    name_is_dns_subdomain, validate_object_meta_update,
};
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};

use super::go_url;
use super::name_index::NameIndex;
use super::name_rule::validate_object_meta_with;
use crate::apiextensions::v1::{CustomResourceDefinition, CustomResourceDefinitionSpec};

/// Go's `validationOptions`: the checks an update relaxes when the old object did not
/// meet them already.
pub(super) struct Options {
    require_recognized_conversion_review_version: bool,
    require_open_api_schema: bool,
    schema: schema::SchemaOptions,
    /// Go's `allowTooManySelectableFields`: the versions (by name; `""` for the shared
    /// list) whose old list was already over the limit and is unchanged; each once (a
    /// `Vec`: a CRD has a few versions, and a `BTreeSet<String>` would compile std's set
    /// code for this list alone).
    too_many_selectable_fields_allowed: Vec<String>,
}

/// The annotation a CRD of a protected group (`*.k8s.io`, `*.kubernetes.io`) needs.
const API_APPROVAL: &str = "api-approved.kubernetes.io";

/// Go's `ValidateCustomResourceDefinition`: a CRD on create.
pub fn validate_custom_resource_definition(crd: &CustomResourceDefinition) -> ErrorList {
    let spec = &crd.spec;
    let required_name = format!("{}.{}", spec.names.plural, spec.group);
    let mut errs = validate_object_meta_with(
        &crd.metadata,
        false,
        |name, prefix| {
            let mut msgs = name_is_dns_subdomain(name, prefix);
            if name != required_name {
                msgs.push("must be spec.names.plural+\".\"+spec.group".to_owned());
            }
            msgs
        },
        &Path::new("metadata"),
    );
    let opts = Options {
        require_recognized_conversion_review_version: true,
        require_open_api_schema: true,
        schema: schema::SchemaOptions {
            require_valid_property_type: true,
            require_atomic_set_type: true,
            require_map_list_keys_map_set: true,
            require_structural: true,
        },
        too_many_selectable_fields_allowed: Default::default(),
    };
    errs.extend(rest(crd, None, &opts));
    errs
}

/// Go's `ValidateCustomResourceDefinitionUpdate`: a CRD replacing `old`. The checks
/// `old` already failed are relaxed, as in Go, so a stored CRD stays writable.
pub fn validate_custom_resource_definition_update(
    crd: &CustomResourceDefinition,
    old: &CustomResourceDefinition,
) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&crd.metadata, &old.metadata, &Path::new("metadata"));
    let old_review_versions = old
        .spec
        .conversion
        .as_ref()
        .and_then(|c| c.webhook.as_ref())
        .and_then(|w| w.conversion_review_versions.as_deref())
        .unwrap_or_default();
    let opts = Options {
        require_recognized_conversion_review_version: old.spec.conversion.is_none()
            || conversion::has_valid_review_version_or_empty(old_review_versions),
        require_open_api_schema: all_versions_have_schema(&old.spec),
        schema: schema::SchemaOptions {
            require_valid_property_type: !has_schema_with(&old.spec, &schema::has_invalid_type),
            require_atomic_set_type: !has_schema_with(&old.spec, &schema::has_non_atomic_set_type),
            require_map_list_keys_map_set: !has_schema_with(
                &old.spec,
                &schema::has_invalid_map_list_keys,
            ),
            // Go also counts a schema its structural rules refuse; those are not
            // ported, so only one NewStructural cannot build counts here.
            require_structural: !has_schema_with(&old.spec, &|s| {
                schema::structural_error(s).is_some()
            }),
        },
        too_many_selectable_fields_allowed: too_many_selectable_fields_allowed(crd, old),
    };
    errs.extend(rest(crd, Some(old), &opts));
    let (s, o) = (&crd.spec, &old.spec);
    let p = Path::new("spec");
    let established = old
        .status
        .conditions
        .iter()
        .flatten()
        .any(|c| c.r#type == "Established" && c.status == "True");
    let mut immutable = |new: &str, old: &str, path: &Path| {
        if new != old {
            errs.push(Error::invalid(path, new, "field is immutable"));
        }
    };
    if established {
        immutable(&s.scope, &o.scope, &p.child("scope"));
        immutable(
            &s.names.kind,
            &o.names.kind,
            &p.child("names").child("kind"),
        );
    }
    immutable(&s.group, &o.group, &p.child("group"));
    immutable(
        &s.names.plural,
        &o.names.plural,
        &p.child("names").child("plural"),
    );
    errs
}

/// Go's `findTooManySelectableFieldsAllowed`.
fn too_many_selectable_fields_allowed(
    crd: &CustomResourceDefinition,
    old: &CustomResourceDefinition,
) -> Vec<String> {
    let (new, old) = (layout::Layout::of(&crd.spec), layout::Layout::of(&old.spec));
    let over =
        |l: &[crate::apiextensions::v1::SelectableField]| l.len() > spec::MAX_SELECTABLE_FIELDS;
    let mut out: Vec<String> = Vec::new();
    if over(old.selectable_fields) && new.selectable_fields == old.selectable_fields {
        out.push(String::new());
    }
    for v in &new.versions {
        // Go keeps the last old version of a name.
        if let Some(o) = old.versions.iter().rev().find(|o| o.v.name == v.v.name) {
            if over(o.selectable_fields)
                && v.selectable_fields == o.selectable_fields
                && !out.contains(&v.v.name)
            {
                out.push(v.v.name.clone());
            }
        }
    }
    out
}

/// Go's `allVersionsSpecifyOpenAPISchema` (of the internal layout: a shared schema
/// counts for every version).
fn all_versions_have_schema(spec: &CustomResourceDefinitionSpec) -> bool {
    let layout = layout::Layout::of(spec);
    layout
        .validation
        .is_some_and(|v| v.open_apiv3_schema.is_some())
        || layout
            .versions
            .iter()
            .all(|v| v.schema.is_some_and(|s| s.open_apiv3_schema.is_some()))
}

/// Go's `HasSchemaWith`: whether any schema of the spec has a schema in it satisfying
/// `pred`.
fn has_schema_with(
    spec: &CustomResourceDefinitionSpec,
    pred: &dyn Fn(&crate::apiextensions::v1::JSONSchemaProps) -> bool,
) -> bool {
    spec.versions
        .iter()
        .flatten()
        .filter_map(|v| v.schema.as_ref()?.open_apiv3_schema.as_ref())
        .any(|s| schema::schema_has(s, pred))
}

/// What create and update share after the metadata: spec, status, stored versions,
/// API approval, `preserveUnknownFields`.
fn rest(
    crd: &CustomResourceDefinition,
    old: Option<&CustomResourceDefinition>,
    opts: &Options,
) -> ErrorList {
    let mut errs = spec::validate_spec(&crd.spec, opts);
    let sp = Path::new("status");
    spec::validate_names(
        &crd.status.accepted_names,
        &sp.child("acceptedNames"),
        &mut errs,
    );
    stored_versions(crd, &sp.child("storedVersions"), &mut errs);
    api_approval(crd, old, &mut errs);
    if old.is_none_or(|o| !o.spec.preserve_unknown_fields) && crd.spec.preserve_unknown_fields {
        errs.push(Error::invalid(
            &Path::new("spec").child("preserveUnknownFields"),
            true,
            "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead",
        ));
    }
    errs
}

/// Go's `ValidateCustomResourceDefinitionStoredVersions`.
fn stored_versions(crd: &CustomResourceDefinition, p: &Path, errs: &mut ErrorList) {
    let stored = crd.status.stored_versions.as_deref().unwrap_or_default();
    let value = || match &crd.status.stored_versions {
        None => BadValue::null(),
        Some(s) => BadValue::json_strings(s),
    };
    if stored.is_empty() {
        errs.push(Error::invalid(
            p,
            value(),
            "must have at least one stored version",
        ));
        return;
    }
    // Go keeps each name's last index.
    let mut left: NameIndex<'_> = stored
        .iter()
        .enumerate()
        .map(|(i, v)| (v.as_str(), i))
        .collect();
    for v in crd.spec.versions.iter().flatten() {
        let present = left.contains(v.name.as_str());
        if v.storage && !present {
            errs.push(Error::invalid(
                p,
                value(),
                format!("must have the storage version {}", v.name),
            ));
        }
        left.remove(v.name.as_str());
    }
    for (v, i) in left.into_entries() {
        errs.push(Error::invalid(
            &p.index(i),
            v,
            format!(
                "missing from spec.versions; {v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in {v} and removes {v} from status.storedVersions"
            ),
        ));
    }
}

/// Go's `apihelpers.IsProtectedCommunityGroup`.
fn is_protected_group(group: &str) -> bool {
    group == "k8s.io"
        || group.ends_with(".k8s.io")
        || group == "kubernetes.io"
        || group.ends_with(".kubernetes.io")
}

#[derive(Clone, Copy, PartialEq)]
enum Approval {
    Invalid,
    Approved,
    Bypassed,
    Missing,
}

/// Go's `apihelpers.GetAPIApprovalState`: the state and its reason.
fn approval_state(crd: &CustomResourceDefinition) -> (Approval, String) {
    let a = crd
        .metadata
        .annotations
        .get(API_APPROVAL)
        .map_or("", String::as_str);
    let quoted = apimachinery::util::validation::field::go_quote(API_APPROVAL);
    if a.is_empty() {
        return (
            Approval::Missing,
            format!(
                "protected groups must have approval annotation {quoted}, see https://github.com/kubernetes/enhancements/pull/1111"
            ),
        );
    }
    if a.starts_with("unapproved") {
        return (Approval::Bypassed, String::new());
    }
    if go_url::parse_request_uri(a).is_ok_and(|u| !u.host.is_empty() && !u.scheme.is_empty()) {
        return (Approval::Approved, String::new());
    }
    (
        Approval::Invalid,
        format!(
            "protected groups must have approval annotation {quoted} with either a URL or a reason starting with \"unapproved\", see https://github.com/kubernetes/enhancements/pull/1111"
        ),
    )
}

/// Go's `validateAPIApproval`: a protected group's CRD needs the annotation (a URL, or
/// a reason starting with `unapproved`), unless an update leaves its state unchanged.
fn api_approval(
    crd: &CustomResourceDefinition,
    old: Option<&CustomResourceDefinition>,
    errs: &mut ErrorList,
) {
    if !is_protected_group(&crd.spec.group) {
        return;
    }
    let (state, reason) = approval_state(crd);
    if old.is_some_and(|o| approval_state(o).0 == state) {
        return;
    }
    let meta = Path::new("metadata");
    let annotations = meta.child("annotations");
    let p = annotations.key(API_APPROVAL);
    let value = crd
        .metadata
        .annotations
        .get(API_APPROVAL)
        .map_or("", String::as_str);
    match state {
        Approval::Approved | Approval::Bypassed => {}
        Approval::Missing => errs.push(Error::required(&p, reason)),
        Approval::Invalid => errs.push(Error::invalid(&p, value, reason)),
    }
}
