//! A CustomResourceDefinition's spec (Go's `validateCustomResourceDefinitionSpec` and
//! what it calls): group, scope, versions, names, subresources, printer columns,
//! selectable fields' placement, and conversion.

use apimachinery::util::go_strings::to_lower;
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
use apimachinery::util::validation::{is_dns1035_label, is_dns1123_subdomain};

use super::Options;
use super::conversion::validate_conversion;
use super::field_path::valid_field_path;
use super::go_print::versions_value;
use super::layout::Layout;
use super::schema::{schema_has, structural_error, validate_validation};
use crate::apiextensions::v1::{
    CustomResourceColumnDefinition, CustomResourceDefinitionNames, CustomResourceDefinitionSpec,
    CustomResourceSubresources, JSONSchemaProps, SelectableField,
};

const PRINTER_COLUMN_TYPES: &str = "boolean,date,integer,number,string";
const PRINTER_COLUMN_FORMATS: &str = "byte,date,date-time,double,float,int32,int64,password";

/// Go's `validateEnumStrings`.
pub(super) fn enum_string(p: &Path, value: &str, accepted: &[&str], errs: &mut ErrorList) {
    if value.is_empty() {
        errs.push(Error::required(p, ""));
    } else if !accepted.contains(&value) {
        errs.push(Error::not_supported(p, value, accepted));
    }
}

/// Go's `validateCustomResourceDefinitionSpec`.
pub(super) fn validate_spec(spec: &CustomResourceDefinitionSpec, opts: &Options) -> ErrorList {
    let p = Path::new("spec");
    let mut errs = ErrorList::default();
    let layout = Layout::of(spec);
    if spec.group.is_empty() {
        errs.push(Error::required(&p.child("group"), ""));
    } else {
        let msgs = is_dns1123_subdomain(&spec.group);
        if !msgs.is_empty() {
            errs.push(Error::invalid(
                &p.child("group"),
                spec.group.as_str(),
                msgs.join(","),
            ));
        } else if !spec.group.contains('.') {
            errs.push(Error::invalid(
                &p.child("group"),
                spec.group.as_str(),
                "should be a domain with at least one dot",
            ));
        }
    }
    enum_string(
        &p.child("scope"),
        &spec.scope,
        &["Cluster", "Namespaced"],
        &mut errs,
    );

    let mut schema_opts = opts.schema;
    let has_defaults = spec
        .versions
        .iter()
        .flatten()
        .filter_map(|v| v.schema.as_ref()?.open_apiv3_schema.as_ref())
        .any(|s| schema_has(s, &|s| s.default.is_some()));
    // Pruning needs structural schemas, and so do defaults and the extensions.
    schema_opts.require_structural |= !spec.preserve_unknown_fields || has_defaults;
    if has_defaults && spec.preserve_unknown_fields {
        errs.push(Error::invalid(
            &p.child("preserveUnknownFields"),
            true,
            "must be false in order to use defaults in the schema",
        ));
    }
    let versions_path = p.child("versions");
    if opts.require_open_api_schema {
        if layout
            .validation
            .is_none_or(|v| v.open_apiv3_schema.is_none())
        {
            for (i, v) in layout.versions.iter().enumerate() {
                if v.schema.is_none_or(|s| s.open_apiv3_schema.is_none()) {
                    errs.push(Error::required(
                        &versions_path
                            .index(i)
                            .child("schema")
                            .child("openAPIV3Schema"),
                        "",
                    ));
                }
            }
        }
    } else if !spec.preserve_unknown_fields
        && layout
            .validation
            .is_none_or(|v| v.open_apiv3_schema.is_none())
    {
        for (i, v) in layout.versions.iter().enumerate() {
            if v.v.served && v.schema.is_none_or(|s| s.open_apiv3_schema.is_none()) {
                errs.push(Error::required(
                    &versions_path
                        .index(i)
                        .child("schema")
                        .child("openAPIV3Schema"),
                    "because otherwise all fields are pruned",
                ));
            }
        }
    }

    let mut storage = 0;
    let mut seen = std::collections::BTreeSet::new();
    let mut unique = true;
    for (i, v) in layout.versions.iter().enumerate() {
        let vp = versions_path.index(i);
        storage += usize::from(v.v.storage);
        unique &= seen.insert(v.v.name.as_str());
        let msgs = is_dns1035_label(&v.v.name);
        if !msgs.is_empty() {
            errs.push(Error::invalid(
                &vp.child("name"),
                v.v.name.as_str(),
                msgs.join(","),
            ));
        }
        for msg in deprecation_warning(v.v.deprecated, v.v.deprecation_warning.as_deref()) {
            errs.push(Error::invalid(
                &vp.child("deprecationWarning"),
                v.v.deprecation_warning
                    .as_deref()
                    .map_or_else(BadValue::null, BadValue::json_string),
                msg,
            ));
        }
        let status_enabled = layout
            .subresources_for(i)
            .is_some_and(|s| s.status.is_some());
        errs.extend(validate_validation(
            v.schema,
            status_enabled,
            schema_opts,
            &vp.child("schema"),
        ));
        validate_subresources(v.subresources, &vp.child("subresources"), &mut errs);
        for (j, c) in v.columns.iter().enumerate() {
            validate_column(c, &vp.child("additionalPrinterColumns").index(j), &mut errs);
        }
        if !v.selectable_fields.is_empty() {
            match v.schema.and_then(|s| s.open_apiv3_schema.as_ref()) {
                None => errs.push(Error::invalid(
                    &vp.child("selectableFields"),
                    "",
                    "may only be set when `version.schema.openAPIV3Schema` is not included",
                )),
                Some(s) => {
                    let e = structural_error(s);
                    if let Some(e) = &e {
                        errs.push(Error::invalid(
                            &vp.child("schema.openAPIV3Schema"),
                            "",
                            e.as_str(),
                        ));
                    }
                    selectable_fields(
                        v.selectable_fields,
                        e.is_none().then_some(s),
                        opts.too_many_selectable_fields_allowed.contains(&v.v.name),
                        &vp.child("selectableFields"),
                        &mut errs,
                    );
                }
            }
        }
    }

    if !unique {
        errs.push(Error::invalid(
            &versions_path,
            versions_value(&layout),
            "must contain unique version names",
        ));
    }
    if storage != 1 {
        errs.push(Error::invalid(
            &versions_path,
            versions_value(&layout),
            "must have exactly one version marked as storage version",
        ));
    }
    if !layout.version.is_empty() {
        let msgs = is_dns1035_label(layout.version);
        if !msgs.is_empty() {
            errs.push(Error::invalid(
                &p.child("version"),
                layout.version,
                msgs.join(","),
            ));
        }
    }

    let names = &spec.names;
    let np = p.child("names");
    for (value, field) in [
        (&names.plural, "plural"),
        (&names.singular, "singular"),
        (&names.kind, "kind"),
        (&names.list_kind, "listKind"),
    ] {
        if value.is_empty() {
            errs.push(Error::required(&np.child(field), ""));
        }
    }
    validate_names(names, &np, &mut errs);
    errs.extend(validate_validation(
        layout.validation,
        layout.any_status_enabled(),
        schema_opts,
        &p.child("validation"),
    ));
    validate_subresources(layout.subresources, &p.child("subresources"), &mut errs);
    for (j, c) in layout.columns.iter().enumerate() {
        validate_column(c, &p.child("additionalPrinterColumns").index(j), &mut errs);
    }
    if !layout.selectable_fields.is_empty() {
        match layout.validation {
            None => errs.push(Error::invalid(
                &p.child("selectableFields"),
                "",
                "may only be set when validations.schema is included",
            )),
            Some(v) => {
                let schema = v.open_apiv3_schema.as_ref();
                let e = schema.and_then(structural_error);
                // Go names this path `spec.schema.openAPIV3Schema`, which is not a field.
                if let Some(e) = &e {
                    errs.push(Error::invalid(
                        &p.child("schema.openAPIV3Schema"),
                        "",
                        e.as_str(),
                    ));
                }
                selectable_fields(
                    layout.selectable_fields,
                    schema.filter(|_| e.is_none()),
                    opts.too_many_selectable_fields_allowed
                        .iter()
                        .any(String::is_empty),
                    &p.child("selectableFields"),
                    &mut errs,
                );
            }
        }
    }
    if let Some(c) = &spec.conversion {
        if c.strategy != "None" && spec.preserve_unknown_fields {
            errs.push(Error::invalid(
                &p.child("conversion").child("strategy"),
                BadValue::json_string(&c.strategy),
                "must be None if spec.preserveUnknownFields is true",
            ));
        }
        validate_conversion(c, opts, &p.child("conversion"), &mut errs);
    }
    errs
}

/// At most this many selectable fields per version.
pub(super) const MAX_SELECTABLE_FIELDS: usize = 8;

/// Go's `ValidateCustomResourceSelectableFields`: paths into the structural schema
/// (`None` when Go could not build it) naming a string, boolean or integer field
/// outside `metadata`, each once, at most eight.
fn selectable_fields(
    fields: &[SelectableField],
    schema: Option<&JSONSchemaProps>,
    too_many_allowed: bool,
    p: &Path,
    errs: &mut ErrorList,
) {
    let mut unique = std::collections::BTreeSet::new();
    let empty = JSONSchemaProps::default();
    for (i, f) in fields.iter().enumerate() {
        let ip = p.index(i);
        let jp = ip.child("jsonPath");
        if f.json_path.is_empty() {
            errs.push(Error::required(&jp, ""));
            continue;
        }
        let resolved = match schema {
            Some(s) => valid_field_path(&f.json_path, s, false),
            // Go walks a nil schema here; it fails before that only on the first token.
            None => valid_field_path(&f.json_path, &empty, false),
        };
        let r = match resolved {
            Ok(r) => r,
            Err(e) => {
                errs.push(Error::invalid(
                    &jp,
                    f.json_path.as_str(),
                    format!("is an invalid path: {e}"),
                ));
                continue;
            }
        };
        if r.root == "metadata" {
            errs.push(Error::invalid(
                &jp,
                f.json_path.as_str(),
                "must not point to fields in metadata",
            ));
        }
        if !r
            .schema
            .is_some_and(|s| matches!(s.r#type.as_str(), "string" | "boolean" | "integer"))
        {
            errs.push(Error::invalid(
                &jp,
                f.json_path.as_str(),
                "must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.",
            ));
        }
        if !unique.insert(r.path) {
            errs.push(Error::duplicate(&jp, f.json_path.as_str()));
        }
    }
    if unique.len() > MAX_SELECTABLE_FIELDS && !too_many_allowed {
        errs.push(Error::too_many(
            p,
            i64::try_from(unique.len()).unwrap_or(i64::MAX),
            i64::try_from(MAX_SELECTABLE_FIELDS).unwrap_or(i64::MAX),
        ));
    }
}

/// Go's `validateDeprecationWarning`: the messages, in Go's order.
fn deprecation_warning(deprecated: bool, warning: Option<&str>) -> Vec<String> {
    let Some(w) = warning else {
        return Vec::new();
    };
    if !deprecated {
        return vec!["can only be set for deprecated versions".to_owned()];
    }
    let mut out = Vec::new();
    if w.len() > 256 {
        out.push("must be <= 256 characters long".to_owned());
    }
    if w.is_empty() {
        out.push("must not be an empty string".to_owned());
    }
    for (i, c) in w.char_indices() {
        if !apimachinery::util::validation::field::go_is_print(c) {
            out.push(format!(
                "must only contain printable UTF-8 characters; non-printable character found at index {i}"
            ));
            break;
        }
    }
    out
}

/// Go's `ValidateCustomResourceDefinitionNames` (of the spec's names and the status's
/// accepted names).
pub(super) fn validate_names(
    names: &CustomResourceDefinitionNames,
    p: &Path,
    errs: &mut ErrorList,
) {
    let dns = |errs: &mut ErrorList, field: &Path, value: &str, prefix: &str| {
        let msgs = is_dns1035_label(&to_lower(value));
        if !value.is_empty() && !msgs.is_empty() {
            errs.push(Error::invalid(
                field,
                value,
                format!("{prefix}{}", msgs.join(",")),
            ));
        }
    };
    let exact = |errs: &mut ErrorList, field: &Path, value: &str| {
        let msgs = is_dns1035_label(value);
        if !value.is_empty() && !msgs.is_empty() {
            errs.push(Error::invalid(field, value, msgs.join(",")));
        }
    };
    exact(errs, &p.child("plural"), &names.plural);
    exact(errs, &p.child("singular"), &names.singular);
    let mixed = "may have mixed case, but should otherwise match: ";
    dns(errs, &p.child("kind"), &names.kind, mixed);
    dns(errs, &p.child("listKind"), &names.list_kind, mixed);
    for (i, s) in names.short_names.iter().enumerate() {
        let msgs = is_dns1035_label(s);
        if !msgs.is_empty() {
            errs.push(Error::invalid(
                &p.child("shortNames").index(i),
                s.as_str(),
                msgs.join(","),
            ));
        }
    }
    if !names.kind.is_empty() && names.kind == names.list_kind {
        errs.push(Error::invalid(
            &p.child("listKind"),
            names.list_kind.as_str(),
            "kind and listKind may not be the same",
        ));
    }
    for (i, s) in names.categories.iter().enumerate() {
        let msgs = is_dns1035_label(s);
        if !msgs.is_empty() {
            errs.push(Error::invalid(
                &p.child("categories").index(i),
                s.as_str(),
                msgs.join(","),
            ));
        }
    }
}

/// Go's `ValidateCustomResourceColumnDefinition` (at Go's internal field names:
/// `JSONPath`).
fn validate_column(c: &CustomResourceColumnDefinition, p: &Path, errs: &mut ErrorList) {
    if c.name.is_empty() {
        errs.push(Error::required(&p.child("name"), ""));
    }
    let types = ["integer", "number", "string", "boolean", "date"];
    if c.r#type.is_empty() {
        errs.push(Error::required(
            &p.child("type"),
            format!("must be one of {PRINTER_COLUMN_TYPES}"),
        ));
    } else if !types.contains(&c.r#type.as_str()) {
        errs.push(Error::invalid(
            &p.child("type"),
            c.r#type.as_str(),
            format!("must be one of {PRINTER_COLUMN_TYPES}"),
        ));
    }
    if !c.format.is_empty() && !PRINTER_COLUMN_FORMATS.split(',').any(|f| f == c.format) {
        errs.push(Error::invalid(
            &p.child("format"),
            c.format.as_str(),
            format!("must be one of {PRINTER_COLUMN_FORMATS}"),
        ));
    }
    if c.json_path.is_empty() {
        errs.push(Error::required(&p.child("JSONPath"), ""));
    } else {
        simple_json_path(&c.json_path, &p.child("JSONPath"), errs);
    }
}

/// Go's `validateSimpleJSONPath`; whether it found nothing wrong.
fn simple_json_path(s: &str, p: &Path, errs: &mut ErrorList) -> bool {
    if s.is_empty() {
        errs.push(Error::invalid(p, s, "must not be empty"));
        return false;
    }
    if !s.starts_with('.') {
        errs.push(Error::invalid(
            p,
            s,
            "must be a simple json path starting with .",
        ));
        return false;
    }
    true
}

/// Go's `ValidateCustomResourceDefinitionSubresources`.
fn validate_subresources(s: Option<&CustomResourceSubresources>, p: &Path, errs: &mut ErrorList) {
    let Some(scale) = s.and_then(|s| s.scale.as_ref()) else {
        return;
    };
    for (value, field, prefix) in [
        (
            &scale.spec_replicas_path,
            "scale.specReplicasPath",
            ".spec.",
        ),
        (
            &scale.status_replicas_path,
            "scale.statusReplicasPath",
            ".status.",
        ),
    ] {
        let fp = p.child(field);
        if value.is_empty() {
            errs.push(Error::required(&fp, ""));
        } else if simple_json_path(value, &fp, errs) && !value.starts_with(prefix) {
            let under = prefix.trim_end_matches('.');
            errs.push(Error::invalid(
                &fp,
                value.as_str(),
                format!("should be a json path under {under}"),
            ));
        }
    }
    if let Some(sel) = scale
        .label_selector_path
        .as_deref()
        .filter(|s| !s.is_empty())
    {
        let fp = p.child("scale.labelSelectorPath");
        if simple_json_path(sel, &fp, errs)
            && !sel.starts_with(".spec.")
            && !sel.starts_with(".status.")
        {
            errs.push(Error::invalid(
                &fp,
                BadValue::json_string(sel),
                "should be a json path under either .spec or .status",
            ));
        }
    }
}
