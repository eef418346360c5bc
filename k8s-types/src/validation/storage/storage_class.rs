//! StorageClass and VolumeAttributesClass (Go's `ValidateStorageClass` and
//! `ValidateVolumeAttributesClass`): a provisioner or driver, and its parameters.

use apimachinery::util::go_strings::to_lower;
use std::collections::{BTreeMap, BTreeSet};

use apimachinery::apis::meta::v1::validation::{
    FIELD_IMMUTABLE_ERROR_MSG, name_is_dns_subdomain, validate_label_name,
};
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
use apimachinery::util::validation::is_qualified_name;

use crate::core::v1::TopologySelectorTerm;
use crate::storage::v1::{StorageClass, VolumeAttributesClass};
use crate::validation::declarative::immutable_value;
use crate::validation::go_value::go_json;
use crate::validation::invalid_each;
use crate::validation::{validate_object_meta, validate_object_meta_update};

/// Go's `maxProvisionerParameterSize`: keys and values of a class's parameters.
const MAX_PARAMETERS_SIZE: i64 = 256 * 1024;
/// Go's `maxProvisionerParameterLen`.
const MAX_PARAMETERS: i64 = 512;

/// Go's `ValidateStorageClass`: a qualified provisioner, parameters, and the known
/// reclaim policies, binding modes and topology terms.
pub fn validate_storage_class(sc: &StorageClass) -> ErrorList {
    let mut errs = validate_object_meta(
        &sc.metadata,
        false,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    validate_provisioner(&sc.provisioner, &Path::new("provisioner"), &mut errs);
    validate_parameters(&sc.parameters, true, &Path::new("parameters"), &mut errs);
    if let Some(p) = sc.reclaim_policy.as_deref().filter(|p| !p.is_empty()) {
        if p != "Delete" && p != "Retain" {
            errs.push(Error::not_supported(
                &Path::new("reclaimPolicy"),
                BadValue::json_string(p),
                &["Delete", "Retain"],
            ));
        }
    }
    let mp = Path::new("volumeBindingMode");
    match sc.volume_binding_mode.as_deref() {
        None => errs.push(Error::required(&mp, "")),
        Some("Immediate" | "WaitForFirstConsumer") => {}
        Some(m) => errs.push(Error::not_supported(
            &mp,
            BadValue::json_string(m),
            &["Immediate", "WaitForFirstConsumer"],
        )),
    }
    validate_allowed_topologies(
        &sc.allowed_topologies,
        &Path::new("allowedTopologies"),
        &mut errs,
    );
    errs
}

/// Go's strategy on update: the object as on create, and its parameters, provisioner,
/// reclaim policy and binding mode kept.
pub fn validate_storage_class_update(new: &StorageClass, old: &StorageClass) -> ErrorList {
    let mut errs = validate_storage_class(new);
    errs.extend(validate_object_meta_update(
        &new.metadata,
        &old.metadata,
        &Path::new("metadata"),
    ));
    if new.parameters != old.parameters {
        errs.push(Error::invalid(
            &Path::new("parameters"),
            immutable_value(|| go_map(&new.parameters)),
            FIELD_IMMUTABLE_ERROR_MSG,
        ));
    }
    if new.provisioner != old.provisioner {
        errs.push(Error::invalid(
            &Path::new("provisioner"),
            immutable_value(|| (&new.provisioner).into()),
            FIELD_IMMUTABLE_ERROR_MSG,
        ));
    }
    for (field, n, o) in [
        ("reclaimPolicy", &new.reclaim_policy, &old.reclaim_policy),
        (
            "volumeBindingMode",
            &new.volume_binding_mode,
            &old.volume_binding_mode,
        ),
    ] {
        if n != o {
            errs.push(Error::invalid(
                &Path::new(field),
                immutable_value(|| go_json(n)),
                FIELD_IMMUTABLE_ERROR_MSG,
            ));
        }
    }
    errs
}

/// A map as Go prints it: `null` when empty (a map read from JSON without the field).
fn go_map(m: &BTreeMap<String, String>) -> apimachinery::util::validation::field::BadValue {
    if m.is_empty() {
        apimachinery::util::validation::field::BadValue::Json("null".into())
    } else {
        go_json(m)
    }
}

/// Go's `validateProvisioner`: required, and a qualified name once lower-cased (the
/// error shows the lower-cased value).
fn validate_provisioner(provisioner: &str, path: &Path, errs: &mut ErrorList) {
    if provisioner.is_empty() {
        errs.push(Error::required(path, ""));
        return;
    }
    let lower = to_lower(provisioner);
    invalid_each(errs, path, &lower, is_qualified_name(&lower));
}

/// Go's `validateParameters`: at most 512 entries of 256 KiB in all, no empty key, and
/// (unless `allow_empty`) at least one.
fn validate_parameters(
    params: &BTreeMap<String, String>,
    allow_empty: bool,
    path: &Path,
    errs: &mut ErrorList,
) {
    if params.len() as i64 > MAX_PARAMETERS {
        errs.push(Error::too_long(path, MAX_PARAMETERS));
        return;
    }
    let mut size: i64 = 0;
    for (k, v) in params {
        if k.is_empty() {
            errs.push(Error::invalid(path, k, "field can not be empty."));
        }
        size += (k.len() + v.len()) as i64;
    }
    if size > MAX_PARAMETERS_SIZE {
        errs.push(Error::too_long(path, MAX_PARAMETERS_SIZE));
    }
    if !allow_empty && params.is_empty() {
        errs.push(Error::required(
            path,
            "must contain at least one key/value pair",
        ));
    }
}

/// Go's `validateAllowedTopologies`: each term as Go's `ValidateTopologySelectorTerm`
/// checks it, and no term equal to another. Go compares each term with every earlier
/// one and also with as many nil terms as there are terms (its list starts filled with
/// them), which an empty term equals: so an empty term is reported that many times
/// over, as here.
fn validate_allowed_topologies(terms: &[TopologySelectorTerm], path: &Path, errs: &mut ErrorList) {
    let mut seen: Vec<BTreeMap<&str, BTreeSet<&str>>> = Vec::new();
    for (i, term) in terms.iter().enumerate() {
        let ip = path.index(i);
        let mut expr_map: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
        let ep = ip.child("matchLabelExpressions");
        for (j, req) in term.match_label_expressions.iter().enumerate() {
            let rp = ep.index(j);
            let vp = rp.child("values");
            let values = req.values.as_deref().unwrap_or_default();
            if values.is_empty() {
                errs.push(Error::required(&vp, ""));
            }
            let mut set = BTreeSet::new();
            for (k, v) in values.iter().enumerate() {
                if !set.insert(v.as_str()) {
                    errs.push(Error::duplicate(&vp.index(k), v));
                }
            }
            errs.extend(validate_label_name(&req.key, &rp.child("key")));
            if expr_map.contains_key(req.key.as_str()) {
                errs.push(Error::duplicate(&rp.child("key"), &req.key));
            }
            expr_map.insert(&req.key, set);
        }
        let nil_terms = if expr_map.is_empty() { terms.len() } else { 0 };
        let equal = seen.iter().filter(|t| **t == expr_map).count();
        for _ in 0..nil_terms + equal {
            errs.push(Error::duplicate(&ep, ""));
        }
        seen.push(expr_map);
    }
}

/// Go's `ValidateVolumeAttributesClass`: a driver and at least one parameter.
pub fn validate_volume_attributes_class(c: &VolumeAttributesClass) -> ErrorList {
    let mut errs = validate_object_meta(
        &c.metadata,
        false,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    validate_provisioner(&c.driver_name, &Path::new("driverName"), &mut errs);
    validate_parameters(&c.parameters, false, &Path::new("parameters"), &mut errs);
    errs
}

/// Go's `ValidateVolumeAttributesClassUpdate`: the driver and parameters kept.
pub fn validate_volume_attributes_class_update(
    new: &VolumeAttributesClass,
    old: &VolumeAttributesClass,
) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    if new.driver_name != old.driver_name {
        errs.push(Error::forbidden(
            &Path::new("driverName"),
            "updates to driverName are forbidden.",
        ));
    }
    if new.parameters != old.parameters {
        errs.push(Error::forbidden(
            &Path::new("parameters"),
            "updates to parameters are forbidden.",
        ));
    }
    errs.extend(validate_volume_attributes_class(new));
    errs
}
