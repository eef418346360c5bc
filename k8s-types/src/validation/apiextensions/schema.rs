//! A version's `openAPIV3Schema` (Go's `validateCustomResourceDefinitionValidation`
//! and `ValidateCustomResourceDefinitionOpenAPISchema`): what may stand at the root
//! (with the status subresource, and `nullable`), the OpenAPI keywords a CRD may not
//! use (`id`, `$ref`, `additionalItems`, `patternProperties`, `definitions`,
//! `dependencies`, `type: null`, item arrays, `uniqueItems`), `default` where
//! pruning could not apply it (metadata), `additionalProperties` beside `properties`,
//! the `x-kubernetes-*` extensions (list and map types and their keys, preserved
//! fields, embedded resources) and the static parts of `x-kubernetes-validations`
//! rules. When Go would build the structural schema, the first reason it cannot
//! (Go's `NewStructural`) is reported as Go reports it.
//!
//! Not ported: the structural schema's own rules (`ValidateStructural`), defaults
//! judged against their schema, and CEL compilation and cost.

use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};

use super::field_path::valid_field_path;
use super::go_print;
use crate::apiextensions::v1::{
    CustomResourceValidation, JSONSchemaProps, JSONSchemaPropsOrArray, JSONSchemaPropsOrBool,
    JSONSchemaPropsOrStringArray,
};

const OPENAPI_V3_TYPES: [&str; 6] = ["array", "boolean", "integer", "number", "object", "string"];

/// The fields Go allows at the root of a schema whose resource has a status
/// subresource, as Go prints the list.
const ROOT_FIELDS_WITH_STATUS: &str = "[Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations]";

/// The schema checks an update relaxes when the old CRD already failed them.
#[derive(Clone, Copy)]
pub(super) struct SchemaOptions {
    pub(super) require_valid_property_type: bool,
    pub(super) require_atomic_set_type: bool,
    pub(super) require_map_list_keys_map_set: bool,
    pub(super) require_structural: bool,
}

/// Go's `SchemaHas`: whether `s` or a schema inside it satisfies `pred`.
pub(super) fn schema_has(s: &JSONSchemaProps, pred: &dyn Fn(&JSONSchemaProps) -> bool) -> bool {
    if pred(s) {
        return true;
    }
    let one = |b: &Option<Box<JSONSchemaProps>>| b.as_deref().is_some_and(|s| schema_has(s, pred));
    let many = |l: &[JSONSchemaProps]| l.iter().any(|s| schema_has(s, pred));
    let or_bool = |b: &Option<JSONSchemaPropsOrBool>| matches!(b, Some(JSONSchemaPropsOrBool::Schema(s)) if schema_has(s, pred));
    match &s.items {
        Some(JSONSchemaPropsOrArray::Schema(i)) if schema_has(i, pred) => return true,
        Some(JSONSchemaPropsOrArray::Schemas(l)) if many(l) => return true,
        _ => {}
    }
    many(&s.all_of)
        || many(&s.any_of)
        || many(&s.one_of)
        || one(&s.not)
        || s.properties.values().any(|s| schema_has(s, pred))
        || or_bool(&s.additional_properties)
        || s.pattern_properties.values().any(|s| schema_has(s, pred))
        || or_bool(&s.additional_items)
        || s.definitions.values().any(|s| schema_has(s, pred))
        || s.dependencies
            .values()
            .any(|d| matches!(d, JSONSchemaPropsOrStringArray::Schema(s) if schema_has(s, pred)))
}

/// Go's `SchemaHasInvalidTypes` predicate.
pub(super) fn has_invalid_type(s: &JSONSchemaProps) -> bool {
    !s.r#type.is_empty() && !OPENAPI_V3_TYPES.contains(&s.r#type.as_str())
}

/// Go's `hasNonAtomicSetType` predicate.
pub(super) fn has_non_atomic_set_type(s: &JSONSchemaProps) -> bool {
    let Some(JSONSchemaPropsOrArray::Schema(is)) = &s.items else {
        return false;
    };
    if s.x_kubernetes_list_type.as_deref() != Some("set") {
        return false;
    }
    match is.r#type.as_str() {
        "array" => is
            .x_kubernetes_list_type
            .as_deref()
            .is_some_and(|t| t != "atomic"),
        "object" => is.x_kubernetes_map_type.as_deref() != Some("atomic"),
        _ => false,
    }
}

/// Go's `hasInvalidMapListKeysMapSet` predicate.
pub(super) fn has_invalid_map_list_keys(s: &JSONSchemaProps) -> bool {
    let mut errs = ErrorList::default();
    map_list_keys_map_set(s, &Path::new(""), &mut errs);
    !errs.is_empty()
}

/// Go's `validateUnsupportedFields`.
fn unsupported_field(s: &JSONSchemaProps) -> Option<&'static str> {
    if !s.id.is_empty() {
        Some("id")
    } else if !s.schema.is_empty() {
        Some("schema")
    } else if s.r#ref.as_deref().is_some_and(|r| !r.is_empty()) {
        Some("$ref")
    } else if !s.pattern_properties.is_empty() {
        Some("patternProperties")
    } else if !s.dependencies.is_empty() {
        Some("dependencies")
    } else if s.additional_items.is_some() {
        Some("additionalItems")
    } else if !s.definitions.is_empty() {
        Some("definitions")
    } else {
        None
    }
}

/// Why Go's `NewStructural` cannot build a structural schema of `s`, in its words
/// (the first reason it meets; Go visits properties in map order, so where several
/// properties fail the one it names varies).
/// A nested value validation (`not`, `allOf`, ...) fails for the same reasons as a
/// schema, so one walk serves both.
pub(super) fn structural_error(s: &JSONSchemaProps) -> Option<String> {
    if let Some(f) = unsupported_field(s) {
        return Some(format!("OpenAPIV3Schema '{f}' is not supported"));
    }
    // newValueValidation: `not`, then allOf, anyOf, oneOf, each as a nested schema.
    let value_validation = || {
        s.not
            .as_deref()
            .into_iter()
            .chain(&s.all_of)
            .chain(&s.any_of)
            .chain(&s.one_of)
            .find_map(structural_error)
    };
    if let Some(e) = value_validation() {
        return Some(e);
    }
    if s.x_kubernetes_preserve_unknown_fields == Some(false) {
        return Some(
            "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined"
                .to_owned(),
        );
    }
    match &s.items {
        Some(JSONSchemaPropsOrArray::Schemas(l)) if !l.is_empty() => {
            return Some("OpenAPIV3Schema 'items' must be a schema, but is an array".to_owned());
        }
        Some(JSONSchemaPropsOrArray::Schema(i)) => {
            if let Some(e) = structural_error(i) {
                return Some(e);
            }
        }
        _ => {}
    }
    if let Some(e) = s.properties.values().find_map(structural_error) {
        return Some(e);
    }
    match &s.additional_properties {
        Some(JSONSchemaPropsOrBool::Schema(a)) => structural_error(a),
        _ => None,
    }
}

/// Go's `validateCustomResourceDefinitionValidation` of one schema, without the
/// structural schema's rules and CEL.
pub(super) fn validate_validation(
    v: Option<&CustomResourceValidation>,
    status_enabled: bool,
    opts: SchemaOptions,
    p: &Path,
) -> ErrorList {
    let mut errs = ErrorList::default();
    let Some(schema) = v.and_then(|v| v.open_apiv3_schema.as_ref()) else {
        return errs;
    };
    let sp = p.child("openAPIV3Schema");
    if status_enabled {
        root_with_status(schema, &sp, &mut errs);
    }
    if schema.nullable {
        errs.push(Error::forbidden(
            &p.child("openAPIV3Schema.nullable"),
            "nullable cannot be true at the root",
        ));
    }
    let structural_init = if opts.require_structural {
        structural_error(schema)
    } else {
        None
    };
    let ssv = Ssv {
        allow_defaults: true,
        disallow_reason: String::new(),
        inside_resource_meta: false,
        require_valid_property_type: opts.require_valid_property_type,
    };
    open_api_schema(schema, &sp, &ssv, true, opts, &mut errs);
    if errs.is_empty() {
        if let Some(e) = structural_init {
            errs.push(Error::invalid(&sp, "", e));
        }
    }
    errs
}

/// The root's fields with a status subresource: Go walks the internal struct's
/// fields in order, stopping at the first set one that is not allowed.
fn root_with_status(s: &JSONSchemaProps, p: &Path, errs: &mut ErrorList) {
    // (field set, allowed, is `Type`), in the internal struct's order.
    let fields = [
        (!s.id.is_empty(), false),
        (!s.schema.is_empty(), false),
        (s.r#ref.is_some(), false),
        (!s.description.is_empty(), true),
        (!s.r#type.is_empty(), true),
        (s.nullable, false),
        (!s.format.is_empty(), true),
        (!s.title.is_empty(), true),
        (s.default.is_some(), false),
        (s.maximum.is_some(), true),
        (s.exclusive_maximum, true),
        (s.minimum.is_some(), true),
        (s.exclusive_minimum, true),
        (s.max_length.is_some(), true),
        (s.min_length.is_some(), true),
        (!s.pattern.is_empty(), true),
        (s.max_items.is_some(), true),
        (s.min_items.is_some(), true),
        (s.unique_items, true),
        (s.multiple_of.is_some(), true),
        (!s.r#enum.is_empty(), false),
        (s.max_properties.is_some(), false),
        (s.min_properties.is_some(), false),
        (!s.required.is_empty(), true),
        (s.items.is_some(), true),
        (!s.all_of.is_empty(), false),
        (!s.one_of.is_empty(), false),
        (!s.any_of.is_empty(), false),
        (s.not.is_some(), false),
        (!s.properties.is_empty(), true),
        (s.additional_properties.is_some(), false),
        (!s.pattern_properties.is_empty(), false),
        (!s.dependencies.is_empty(), false),
        (s.additional_items.is_some(), false),
        (!s.definitions.is_empty(), false),
        (s.external_docs.is_some(), true),
        (s.example.is_some(), true),
        (s.x_kubernetes_preserve_unknown_fields.is_some(), true),
        (s.x_kubernetes_embedded_resource, false),
        (s.x_kubernetes_int_or_string, false),
        (!s.x_kubernetes_list_map_keys.is_empty(), false),
        (s.x_kubernetes_list_type.is_some(), false),
        (s.x_kubernetes_map_type.is_some(), false),
        (!s.x_kubernetes_validations.is_empty(), true),
    ];
    const TYPE_INDEX: usize = 4;
    for (i, (set, allowed)) in fields.into_iter().enumerate() {
        if !set {
            continue;
        }
        if i == TYPE_INDEX {
            if s.r#type != "object" {
                errs.push(Error::invalid(
                    &p.child("type"),
                    s.r#type.as_str(),
                    "only \"object\" is allowed as the type at the root of the schema if the status subresource is enabled",
                ));
                return;
            }
            continue;
        }
        if !allowed {
            errs.push(Error::invalid(
                p,
                go_print::schema_value(s),
                format!("only {ROOT_FIELDS_WITH_STATUS} fields are allowed at the root of the schema if the status subresource is enabled"),
            ));
            return;
        }
    }
}

/// Go's `specStandardValidatorV3`.
#[derive(Clone)]
struct Ssv {
    allow_defaults: bool,
    disallow_reason: String,
    inside_resource_meta: bool,
    require_valid_property_type: bool,
}

impl Ssv {
    fn forbidding_defaults(&self, reason: String) -> Ssv {
        Ssv {
            allow_defaults: false,
            disallow_reason: reason,
            ..self.clone()
        }
    }

    /// Go's `validate`: the keywords a CRD's schema may not use.
    fn validate(&self, s: &JSONSchemaProps, p: &Path, errs: &mut ErrorList) {
        if self.require_valid_property_type && has_invalid_type(s) {
            errs.push(Error::not_supported(
                &p.child("type"),
                s.r#type.as_str(),
                &OPENAPI_V3_TYPES,
            ));
        }
        if s.default.is_some() && !self.allow_defaults {
            let mut detail = "must not be set".to_owned();
            if !self.disallow_reason.is_empty() {
                detail.push(' ');
                detail.push_str(&self.disallow_reason);
            }
            errs.push(Error::forbidden(&p.child("default"), detail));
        }
        let mut forbid = |set: bool, field: &str, detail: &str| {
            if set {
                errs.push(Error::forbidden(&p.child(field), detail));
            }
        };
        forbid(!s.id.is_empty(), "id", "id is not supported");
        forbid(
            s.additional_items.is_some(),
            "additionalItems",
            "additionalItems is not supported",
        );
        forbid(
            !s.pattern_properties.is_empty(),
            "patternProperties",
            "patternProperties is not supported",
        );
        forbid(
            !s.definitions.is_empty(),
            "definitions",
            "definitions is not supported",
        );
        forbid(
            !s.dependencies.is_empty(),
            "dependencies",
            "dependencies is not supported",
        );
        forbid(s.r#ref.is_some(), "$ref", "$ref is not supported");
        forbid(
            s.r#type == "null",
            "type",
            "type cannot be set to null, use nullable as an alternative",
        );
        forbid(
            matches!(&s.items, Some(JSONSchemaPropsOrArray::Schemas(l)) if !l.is_empty()),
            "items",
            "items must be a schema object and not an array",
        );
        forbid(
            self.inside_resource_meta && s.x_kubernetes_embedded_resource,
            "x-kubernetes-embedded-resource",
            "must not be used inside of resource meta",
        );
    }
}

/// Go's `ValidateCustomResourceDefinitionOpenAPISchema`, without CEL.
fn open_api_schema(
    s: &JSONSchemaProps,
    p: &Path,
    ssv: &Ssv,
    is_root: bool,
    opts: SchemaOptions,
    errs: &mut ErrorList,
) {
    ssv.validate(s, p, errs);
    if s.unique_items {
        errs.push(Error::forbidden(
            &p.child("uniqueItems"),
            "uniqueItems cannot be set to true since the runtime complexity becomes quadratic",
        ));
    }
    if let Some(ap) = &s.additional_properties {
        let schema = match ap {
            JSONSchemaPropsOrBool::Schema(s) => Some(&**s),
            JSONSchemaPropsOrBool::Allows(_) => None,
        };
        if !s.properties.is_empty() && !matches!(ap, JSONSchemaPropsOrBool::Allows(true)) {
            errs.push(Error::forbidden(
                &p.child("additionalProperties"),
                "additionalProperties and properties are mutual exclusive",
            ));
        }
        let sub = if ssv.inside_resource_meta {
            ssv.forbidding_defaults(
                "inside additionalProperties applying to object metadata".into(),
            )
        } else {
            ssv.clone()
        };
        if let Some(schema) = schema {
            open_api_schema(
                schema,
                &p.child("additionalProperties"),
                &sub,
                false,
                opts,
                errs,
            );
        }
    }
    for (name, prop) in &s.properties {
        let mut sub = ssv.clone();
        if (is_root || s.x_kubernetes_embedded_resource)
            && matches!(name.as_str(), "metadata" | "kind" | "apiVersion")
        {
            sub.inside_resource_meta = true;
            if is_root {
                sub = sub.forbidding_defaults(format!("in top-level {name}"));
            }
        }
        open_api_schema(
            prop,
            &p.child("properties").key(name),
            &sub,
            false,
            opts,
            errs,
        );
    }
    if let Some(not) = &s.not {
        open_api_schema(not, &p.child("not"), ssv, false, opts, errs);
    }
    for (field, list) in [
        ("allOf", &s.all_of),
        ("oneOf", &s.one_of),
        ("anyOf", &s.any_of),
    ] {
        for (i, c) in list.iter().enumerate() {
            open_api_schema(c, &p.child(field).index(i), ssv, false, opts, errs);
        }
    }
    for (name, d) in &s.definitions {
        open_api_schema(d, &p.child("definitions").key(name), ssv, false, opts, errs);
    }
    match &s.items {
        Some(JSONSchemaPropsOrArray::Schema(i)) => {
            open_api_schema(i, &p.child("items"), ssv, false, opts, errs);
        }
        Some(JSONSchemaPropsOrArray::Schemas(l)) => {
            for (i, c) in l.iter().enumerate() {
                open_api_schema(c, &p.child("items").index(i), ssv, false, opts, errs);
            }
        }
        None => {}
    }
    for (name, d) in &s.dependencies {
        if let JSONSchemaPropsOrStringArray::Schema(d) = d {
            open_api_schema(
                d,
                &p.child("dependencies").key(name),
                ssv,
                false,
                opts,
                errs,
            );
        }
    }
    extensions(s, p, opts, errs);
    validation_rules(s, p, errs);
}

/// The `x-kubernetes-*` extensions of one schema.
fn extensions(s: &JSONSchemaProps, p: &Path, opts: SchemaOptions, errs: &mut ErrorList) {
    if s.x_kubernetes_preserve_unknown_fields == Some(false) {
        errs.push(Error::invalid(
            &p.child("x-kubernetes-preserve-unknown-fields"),
            false,
            "must be true or undefined",
        ));
    }
    let item = match &s.items {
        Some(JSONSchemaPropsOrArray::Schema(i)) => Some(&**i),
        _ => None,
    };
    if let Some(map_type) = &s.x_kubernetes_map_type {
        if s.r#type != "object" {
            type_must_be(
                s,
                p,
                "must be object if x-kubernetes-map-type is specified",
                errs,
            );
        }
        if map_type != "atomic" && map_type != "granular" {
            errs.push(Error::not_supported(
                &p.child("x-kubernetes-map-type"),
                map_type.as_str(),
                &["atomic", "granular"],
            ));
        }
    }
    let list_type = s.x_kubernetes_list_type.as_deref();
    if list_type.is_some() && s.r#type != "array" {
        type_must_be(
            s,
            p,
            "must be array if x-kubernetes-list-type is specified",
            errs,
        );
    } else if let (true, Some("set"), Some(is)) = (opts.require_atomic_set_type, list_type, item) {
        let bad = is
            .x_kubernetes_list_type
            .as_deref()
            .map_or_else(BadValue::null, BadValue::json_string);
        match is.r#type.as_str() {
            "array"
                if is
                    .x_kubernetes_list_type
                    .as_deref()
                    .is_some_and(|t| t != "atomic") =>
            {
                errs.push(Error::invalid(
                    &p.child("items").child("x-kubernetes-list-type"),
                    bad,
                    "must be atomic as item of a list with x-kubernetes-list-type=set",
                ));
            }
            "object" if is.x_kubernetes_map_type.as_deref() != Some("atomic") => {
                // Go prints the item's list type here, not its map type.
                errs.push(Error::invalid(
                    &p.child("items").child("x-kubernetes-map-type"),
                    bad,
                    "must be atomic as item of a list with x-kubernetes-list-type=set",
                ));
            }
            _ => {}
        }
    }
    if let Some(t) = list_type.filter(|t| !matches!(*t, "atomic" | "set" | "map")) {
        errs.push(Error::not_supported(
            &p.child("x-kubernetes-list-type"),
            t,
            &["atomic", "set", "map"],
        ));
    }
    let keys = &s.x_kubernetes_list_map_keys;
    if !keys.is_empty() {
        match list_type {
            None => errs.push(Error::required(
                &p.child("x-kubernetes-list-type"),
                "must be map if x-kubernetes-list-map-keys is non-empty",
            )),
            Some(t) if t != "map" => errs.push(Error::invalid(
                &p.child("x-kubernetes-list-type"),
                t,
                "must be map if x-kubernetes-list-map-keys is non-empty",
            )),
            _ => {}
        }
    }
    if list_type == Some("map") {
        list_map(s, item, p, errs);
    }
    if opts.require_map_list_keys_map_set {
        map_list_keys_map_set(s, p, errs);
    }
}

/// `type` required or invalid where an extension needs another type.
fn type_must_be(s: &JSONSchemaProps, p: &Path, detail: &str, errs: &mut ErrorList) {
    if s.r#type.is_empty() {
        errs.push(Error::required(&p.child("type"), detail));
    } else {
        errs.push(Error::invalid(&p.child("type"), s.r#type.as_str(), detail));
    }
}

/// A list of `x-kubernetes-list-type: map`: keys, one object item schema, scalar keys
/// that are its properties, no key twice.
fn list_map(s: &JSONSchemaProps, item: Option<&JSONSchemaProps>, p: &Path, errs: &mut ErrorList) {
    let keys = &s.x_kubernetes_list_map_keys;
    if keys.is_empty() {
        errs.push(Error::required(
            &p.child("x-kubernetes-list-map-keys"),
            "must not be empty if x-kubernetes-list-type is map",
        ));
    }
    match &s.items {
        None => errs.push(Error::required(
            &p.child("items"),
            "must have a schema if x-kubernetes-list-type is map",
        )),
        Some(JSONSchemaPropsOrArray::Schemas(l)) => errs.push(Error::invalid(
            &p.child("items"),
            go_print::items_value(l),
            "must only have a single schema if x-kubernetes-list-type is map",
        )),
        Some(JSONSchemaPropsOrArray::Schema(_)) => {}
    }
    let Some(is) = item else {
        return;
    };
    if is.r#type != "object" {
        errs.push(Error::invalid(
            &p.child("items").child("type"),
            is.r#type.as_str(),
            "must be object if parent array's x-kubernetes-list-type is map",
        ));
        return;
    }
    let mut seen = std::collections::BTreeSet::new();
    for k in keys {
        match is.properties.get(k) {
            Some(ks) if ks.r#type == "array" || ks.r#type == "object" => {
                // Go prints the item's type, not the key's.
                errs.push(Error::invalid(
                    &p.child("items").child("properties").key(k).child("type"),
                    is.r#type.as_str(),
                    "must be a scalar type if parent array's x-kubernetes-list-type is map",
                ));
            }
            Some(_) => {}
            None => errs.push(Error::invalid(
                &p.child("x-kubernetes-list-map-keys"),
                BadValue::json_strings(keys),
                "entries must all be names of item properties",
            )),
        }
        if !seen.insert(k.as_str()) {
            errs.push(Error::invalid(
                &p.child("x-kubernetes-list-map-keys"),
                BadValue::json_strings(keys),
                "must not contain duplicate entries",
            ));
        }
    }
}

/// Go's `validateMapListKeysMapSet`: items of a set or map list not nullable, a map
/// list's keys required or defaulted, and not nullable.
fn map_list_keys_map_set(s: &JSONSchemaProps, p: &Path, errs: &mut ErrorList) {
    let Some(JSONSchemaPropsOrArray::Schema(is)) = &s.items else {
        return;
    };
    let Some(list_type) = s
        .x_kubernetes_list_type
        .as_deref()
        .filter(|t| matches!(*t, "set" | "map"))
    else {
        return;
    };
    if is.nullable {
        errs.push(Error::forbidden(
            &p.child("items").child("nullable"),
            format!("cannot be nullable when x-kubernetes-list-type is {list_type}"),
        ));
    }
    if list_type != "map" {
        return;
    }
    for k in &s.x_kubernetes_list_map_keys {
        let Some(ks) = is.properties.get(k) else {
            continue;
        };
        let items = p.child("items");
        let props = items.child("properties");
        let kp = props.key(k);
        if !is.required.contains(k) && ks.default.is_none() {
            errs.push(Error::required(
                &kp.child("default"),
                "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property",
            ));
        }
        if ks.nullable {
            errs.push(Error::forbidden(
                &kp.child("nullable"),
                "this property is in x-kubernetes-list-map-keys, so it cannot be nullable",
            ));
        }
    }
}

/// Whether Go's CEL grammar sees a line break.
fn has_newlines(s: &str) -> bool {
    s.contains(['\n', '\r'])
}

/// The static checks of `x-kubernetes-validations` (Go's, before it compiles them).
fn validation_rules(s: &JSONSchemaProps, p: &Path, errs: &mut ErrorList) {
    const REASONS: [&str; 4] = [
        "FieldValueDuplicate",
        "FieldValueForbidden",
        "FieldValueInvalid",
        "FieldValueRequired",
    ];
    for (i, r) in s.x_kubernetes_validations.iter().enumerate() {
        let vp = p.child("x-kubernetes-validations");
        let rp = vp.index(i);
        let (rule, msg) = (go_trim(&r.rule), go_trim(&r.message));
        if rule.is_empty() {
            errs.push(Error::required(&rp.child("rule"), "rule is not specified"));
        } else if !r.message.is_empty() && msg.is_empty() {
            errs.push(Error::invalid(
                &rp.child("message"),
                r.message.as_str(),
                "must be non-empty if specified",
            ));
        } else if has_newlines(msg) {
            errs.push(Error::invalid(
                &rp.child("message"),
                r.message.as_str(),
                "must not contain line breaks",
            ));
        } else if has_newlines(rule) && msg.is_empty() {
            errs.push(Error::required(
                &rp.child("message"),
                "message must be specified if rule contains line breaks",
            ));
        }
        if !r.message_expression.is_empty() && go_trim(&r.message_expression).is_empty() {
            errs.push(Error::required(
                &rp.child("messageExpression"),
                "messageExpression must be non-empty if specified",
            ));
        }
        if let Some(reason) = r.reason.as_deref().filter(|r| !REASONS.contains(r)) {
            errs.push(Error::not_supported(
                &rp.child("reason"),
                BadValue::json_string(reason),
                &REASONS,
            ));
        }
        if !r.field_path.is_empty() && go_trim(&r.field_path).is_empty() {
            errs.push(Error::invalid(
                &rp.child("fieldPath"),
                r.field_path.as_str(),
                "must be non-empty if specified",
            ));
        }
        if has_newlines(&r.field_path) {
            errs.push(Error::invalid(
                &rp.child("fieldPath"),
                r.field_path.as_str(),
                "must not contain line breaks",
            ));
        }
        // Go resolves the path only in a schema it can make structural.
        if !r.field_path.is_empty()
            && structural_error(s).is_none()
            && valid_field_path(&r.field_path, s, true).is_err()
        {
            errs.push(Error::invalid(
                &rp.child("fieldPath"),
                r.field_path.as_str(),
                "must be a valid path",
            ));
        }
    }
}

/// Go's `strings.TrimSpace`: Unicode white space at both ends.
fn go_trim(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace())
}
