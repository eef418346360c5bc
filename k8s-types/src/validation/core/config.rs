//! ConfigMap, Secret, Namespace and ServiceAccount (Go's `ValidateConfigMap`,
//! `ValidateSecret`, `ValidateNamespace`, `ValidateServiceAccount` and their updates).

use apimachinery::apis::meta::v1::validation::{
    FIELD_IMMUTABLE_ERROR_MSG, name_is_dns_label, name_is_dns_subdomain,
};
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
use apimachinery::util::validation::is_config_map_key;

use crate::core::v1::{ConfigMap, Namespace, Secret, ServiceAccount};
use crate::validation::{invalid_each, validate_object_meta, validate_object_meta_update};

use super::MAX_SECRET_SIZE;

/// Go's `ValidateConfigMap`: keys, no key in both `data` and `binaryData`, at most 1 MiB.
pub fn validate_config_map(cm: &ConfigMap) -> ErrorList {
    let mut errs = validate_object_meta(
        &cm.metadata,
        true,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let mut total = 0usize;
    let data = Path::new("data");
    for (k, v) in &cm.data {
        let p = data.key(k);
        invalid_each(&mut errs, &p, k, is_config_map_key(k));
        if cm.binary_data.contains_key(k) {
            errs.push(Error::invalid(
                &p,
                k,
                "duplicate of key present in binaryData",
            ));
        }
        total += v.len();
    }
    let binary_data = Path::new("binaryData");
    for (k, v) in &cm.binary_data {
        invalid_each(&mut errs, &binary_data.key(k), k, is_config_map_key(k));
        total += v.len();
    }
    if total > MAX_SECRET_SIZE {
        errs.push(Error::too_long(&Path::root(), MAX_SECRET_SIZE as i64));
    }
    errs
}

pub(super) fn immutable_data<T: PartialEq>(
    new_immutable: Option<bool>,
    old_immutable: Option<bool>,
    fields: &[(&str, &T, &T)],
) -> ErrorList {
    let mut errs = ErrorList::default();
    if old_immutable == Some(true) {
        if new_immutable != Some(true) {
            errs.push(Error::forbidden(
                &Path::new("immutable"),
                "field is immutable when `immutable` is set",
            ));
        }
        for (name, new, old) in fields {
            if new != old {
                errs.push(Error::forbidden(
                    &Path::new(name),
                    "field is immutable when `immutable` is set",
                ));
            }
        }
    }
    errs
}

/// Go's `ValidateConfigMapUpdate`: once `immutable`, `data` and `binaryData` stay.
pub fn validate_config_map_update(new: &ConfigMap, old: &ConfigMap) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    errs.extend(immutable_data(
        new.immutable,
        old.immutable,
        &[("data", &new.data, &old.data)],
    ));
    if old.immutable == Some(true) && new.binary_data != old.binary_data {
        errs.push(Error::forbidden(
            &Path::new("binaryData"),
            "field is immutable when `immutable` is set",
        ));
    }
    errs.extend(validate_config_map(new));
    errs
}

/// Go's `ValidateSecret`: keys, at most 1 MiB, and each built-in type's required keys
/// (`kubernetes.io/service-account-token`'s annotation, `.dockercfg`,
/// `.dockerconfigjson` as JSON, basic-auth, ssh-auth and TLS keys).
pub fn validate_secret(s: &Secret) -> ErrorList {
    let mut errs = validate_object_meta(
        &s.metadata,
        true,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let dp = Path::new("data");
    let mut total = 0usize;
    for (k, v) in &s.data {
        invalid_each(&mut errs, &dp.key(k), k, is_config_map_key(k));
        total += v.len();
    }
    if total > MAX_SECRET_SIZE {
        errs.push(Error::too_long(&dp, MAX_SECRET_SIZE as i64));
    }
    let has = |k: &str| s.data.get(k).is_some_and(|v| !v.is_empty());
    match s.r#type.as_str() {
        "kubernetes.io/service-account-token" => {
            let key = "kubernetes.io/service-account.name";
            if s.metadata.annotations.get(key).is_none_or(String::is_empty) {
                errs.push(Error::required(
                    &Path::new("metadata").child("annotations").key(key),
                    "",
                ));
            }
        }
        "kubernetes.io/dockercfg" | "kubernetes.io/dockerconfigjson" => {
            let key = if s.r#type == "kubernetes.io/dockercfg" {
                ".dockercfg"
            } else {
                ".dockerconfigjson"
            };
            match s.data.get(key) {
                // Go's json.Unmarshal into a map, and its message.
                Some(v) => {
                    if let Some(msg) = apimachinery::util::json::unmarshal_into_map_error(v) {
                        errs.push(Error::invalid(
                            &dp.key(key),
                            "<secret contents redacted>",
                            msg,
                        ));
                    }
                }
                None => errs.push(Error::required(&dp.key(key), "")),
            }
        }
        "kubernetes.io/basic-auth"
            if !s.data.contains_key("username") && !s.data.contains_key("password") =>
        {
            errs.push(Error::required(&dp.key("username"), ""));
            errs.push(Error::required(&dp.key("password"), ""));
        }
        "kubernetes.io/ssh-auth" if !has("ssh-privatekey") => {
            errs.push(Error::required(&dp.key("ssh-privatekey"), ""));
        }
        "kubernetes.io/tls" => {
            for key in ["tls.crt", "tls.key"] {
                if !s.data.contains_key(key) {
                    errs.push(Error::required(&dp.key(key), ""));
                }
            }
        }
        _ => {}
    }
    errs
}

/// Go's `ValidateSecretUpdate`: `type` kept, and `data` kept once `immutable`.
pub fn validate_secret_update(new: &Secret, old: &Secret) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    if new.r#type != old.r#type {
        errs.push(Error::invalid(
            &Path::new("type"),
            BadValue::json_string(&new.r#type),
            FIELD_IMMUTABLE_ERROR_MSG,
        ));
    }
    errs.extend(immutable_data(
        new.immutable,
        old.immutable,
        &[("data", &new.data, &old.data)],
    ));
    errs.extend(validate_secret(new));
    errs
}

/// Go's `ValidateNamespace`: a DNS-1123 label name, cluster-scoped, and finalizer names.
pub fn validate_namespace(ns: &Namespace) -> ErrorList {
    let mut errs = validate_object_meta(
        &ns.metadata,
        false,
        name_is_dns_label,
        &Path::new("metadata"),
    );
    // Go checks each spec finalizer against the list's path, without an index.
    let spec = Path::new("spec");
    let finalizers = spec.child("finalizers");
    for f in &ns.spec.finalizers {
        errs.extend(crate::validation::object_meta::validate_finalizer_name(
            f,
            &finalizers,
        ));
    }
    errs
}

/// Go's `ValidateNamespaceStatusUpdate`, the `/status` validator: the metadata update,
/// and the phase following the deletion timestamp (`Active` without one, `Terminating`
/// with one; Go names the path by the field's Go name, `status.Phase`).
pub fn validate_namespace_status_update(new: &Namespace, old: &Namespace) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    // Go's `IsZero`: no timestamp, or the zero time.
    let deleted = new
        .metadata
        .deletion_timestamp
        .is_some_and(|t| t != Default::default());
    let detail = match (deleted, new.status.phase.as_str()) {
        (false, "Active") | (true, "Terminating") => return errs,
        (false, _) => "may only be 'Active' if `deletionTimestamp` is empty",
        (true, _) => "may only be 'Terminating' if `deletionTimestamp` is not empty",
    };
    // A `NamespacePhase`, printed through `json.Marshal`.
    errs.push(Error::invalid(
        &Path::new("status").child("Phase"),
        BadValue::json_string(&new.status.phase),
        detail,
    ));
    errs
}

/// Go's `ValidateServiceAccount`: a DNS subdomain name, namespaced.
pub fn validate_service_account(sa: &ServiceAccount) -> ErrorList {
    validate_object_meta(
        &sa.metadata,
        true,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    )
}
