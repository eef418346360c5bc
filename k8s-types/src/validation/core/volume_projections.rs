//! What volumes project into files: a secret's or config map's items (Go's
//! `validateKeyToPath`), downward API files (`validateDownwardAPIVolumeFile`), the
//! sources of a projected volume (`validateProjectionSources`).

use std::collections::BTreeSet;

use apimachinery::util::validation::field::{Error, ErrorList, Path};

use crate::core::v1::{DownwardAPIVolumeFile, KeyToPath, ProjectedVolumeSource};
use crate::validation::label_selector::validate_label_selector_with;
#[cfg(feature = "v1_37")]
use crate::validation::pod_security::id_range;
use crate::validation::pod_security::validate_local_descending_path;
use crate::validation::signer_names::{
    is_kubernetes_signer_name, signer_of_cluster_trust_bundle_name,
    validate_cluster_trust_bundle_name, validate_signer_name, validate_user_annotations,
};

use super::FILE_MODE_ERROR_MSG;
use super::downward_api::{resource_field_selector, validate_object_field_selector};

/// The pod fields a downward API volume file may name (Go's
/// `validVolumeDownwardAPIFieldPathExpressions`, in the sorted order Go lists a set).
const VOLUME_FIELD_PATHS: &[&str] = &[
    "metadata.annotations",
    "metadata.labels",
    "metadata.name",
    "metadata.namespace",
    "metadata.uid",
];

/// A file mode: 0 to 0777.
pub(super) fn file_mode(mode: Option<i32>, path: &Path, errs: &mut ErrorList) {
    if let Some(m) = mode {
        if !(0..=0o777).contains(&m) {
            errs.push(Error::invalid(path, m, FILE_MODE_ERROR_MSG));
        }
    }
}

/// Go's `ValidateLocalNonReservedPath`: relative, no `..` element, and not starting
/// with `..` (which the element check has not already reported).
pub(super) fn local_non_reserved_path(p: &str, path: &Path, errs: &mut ErrorList) {
    validate_local_descending_path(p, path, errs);
    if p.starts_with("..") && !p.starts_with("../") {
        errs.push(Error::invalid(path, p, "must not start with '..'"));
    }
}

/// Go's `validateKeyToPath`: a key, a local path, a file mode.
pub(super) fn key_to_path(kp: &KeyToPath, path: &Path, errs: &mut ErrorList) {
    if kp.key.is_empty() {
        errs.push(Error::required(&path.child("key"), ""));
    }
    let pp = path.child("path");
    if kp.path.is_empty() {
        errs.push(Error::required(&pp, ""));
    }
    local_non_reserved_path(&kp.path, &pp, errs);
    file_mode(kp.mode, &path.child("mode"), errs);
    #[cfg(feature = "v1_37")]
    id_range(kp.user, &path.child("user"), errs);
}

/// Go's `validateDownwardAPIVolumeFile`, under `path` (Go passes the source's path,
/// not the item's: the items' errors carry no index).
pub(super) fn downward_api_file(f: &DownwardAPIVolumeFile, path: &Path, errs: &mut ErrorList) {
    let pp = path.child("path");
    if f.path.is_empty() {
        errs.push(Error::required(&pp, ""));
    }
    local_non_reserved_path(&f.path, &pp, errs);
    match (&f.field_ref, &f.resource_field_ref) {
        (Some(fs), resource) => {
            validate_object_field_selector(fs, VOLUME_FIELD_PATHS, &path.child("fieldRef"), errs);
            if resource.is_some() {
                errs.push(Error::invalid(
                    path,
                    "resource",
                    "fieldRef and resourceFieldRef can not be specified simultaneously",
                ));
            }
        }
        (None, Some(r)) => {
            resource_field_selector(r, &path.child("resourceFieldRef"), true, errs);
        }
        (None, None) => errs.push(Error::required(
            path,
            "one of fieldRef and resourceFieldRef is required",
        )),
    }
    file_mode(f.mode, &path.child("mode"), errs);
    #[cfg(feature = "v1_37")]
    id_range(f.user, &path.child("user"), errs);
}

/// Go's `validateProjectedVolumeSource`: the default mode, then each source (one kind
/// each; paths unique across all of them, a repeat reported on the volume's path).
pub(super) fn projected(p: &ProjectedVolumeSource, path: &Path, errs: &mut ErrorList) {
    file_mode(p.default_mode, &path.child("defaultMode"), errs);
    #[cfg(feature = "v1_37")]
    id_range(p.default_user, &path.child("defaultUser"), errs);
    let mut paths = BTreeSet::new();
    let mut claim = |file_path: &str, bad: &str, errs: &mut ErrorList| {
        if !paths.insert(file_path.to_owned()) {
            errs.push(Error::invalid(path, bad, "conflicting duplicate paths"));
        }
    };
    let sources = path.child("sources");
    for (i, source) in p.sources.iter().flatten().enumerate() {
        let sp = sources.index(i);
        let mut count = 0;
        for (field, object) in [
            (
                "secret",
                source.secret.as_ref().map(|s| (&s.name, &s.items)),
            ),
            (
                "configMap",
                source.config_map.as_ref().map(|c| (&c.name, &c.items)),
            ),
        ] {
            let Some((name, items)) = object else {
                continue;
            };
            count += 1;
            let pp = sp.child(field);
            if name.is_empty() {
                errs.push(Error::required(&pp.child("name"), ""));
            }
            let ip = pp.child("items");
            for (j, kp) in items.iter().enumerate() {
                key_to_path(kp, &ip.index(j), errs);
                if !kp.path.is_empty() {
                    claim(&kp.path, name, errs);
                }
            }
        }
        if let Some(d) = &source.downward_api {
            count += 1;
            let dp = sp.child("downwardAPI");
            for f in &d.items {
                downward_api_file(f, &dp, errs);
                if !f.path.is_empty() {
                    claim(&f.path, &f.path, errs);
                }
            }
        }
        if let Some(t) = &source.service_account_token {
            count += 1;
            let tp = sp.child("serviceAccountToken");
            let ep = tp.child("expirationSeconds");
            // Defaulting sets the expiration (an hour) when it is missing.
            let seconds = t.expiration_seconds.unwrap_or(3600);
            if seconds < 10 * 60 {
                errs.push(Error::invalid(
                    &ep,
                    seconds,
                    "may not specify a duration less than 10 minutes",
                ));
            }
            if seconds > 1 << 32 {
                errs.push(Error::invalid(
                    &ep,
                    seconds,
                    "may not specify a duration larger than 2^32 seconds",
                ));
            }
            // Go checks the token's path on the volume's path, without the source.
            if t.path.is_empty() {
                errs.push(Error::required(&path.child("path"), ""));
            } else {
                local_non_reserved_path(&t.path, &path.child("path"), errs);
            }
            #[cfg(feature = "v1_37")]
            id_range(t.user, &tp.child("user"), errs);
        }
        if let Some(b) = &source.cluster_trust_bundle {
            count += 1;
            let bp = sp.child("clusterTrustBundle");
            #[cfg(feature = "v1_37")]
            id_range(b.user, &bp.child("user"), errs);
            match (&b.name, &b.signer_name) {
                (Some(_), Some(_)) => errs.push(Error::invalid(
                    &bp,
                    internal_cluster_trust_bundle(b),
                    "only one of name and signerName may be used",
                )),
                (Some(name), None) => {
                    if name.is_empty() {
                        errs.push(Error::required(
                            &bp.child("name"),
                            "must be a valid object name",
                        ));
                    }
                    let signer = signer_of_cluster_trust_bundle_name(name).unwrap_or_default();
                    for msg in validate_cluster_trust_bundle_name(&signer, name, false) {
                        errs.push(Error::invalid(
                            &bp.child("name"),
                            name.as_str(),
                            format!("not a valid clustertrustbundlename: {msg}"),
                        ));
                    }
                    if let Some(s) = &b.label_selector {
                        errs.push(Error::invalid(
                            &bp.child("labelSelector"),
                            crate::validation::go_value::go_json(s),
                            "labelSelector must be unset if name is specified",
                        ));
                    }
                }
                (None, Some(signer)) => {
                    if signer.is_empty() {
                        errs.push(Error::required(
                            &bp.child("signerName"),
                            "must be a valid signer name",
                        ));
                    }
                    errs.extend(validate_signer_name(&bp.child("signerName"), signer));
                    errs.extend(validate_label_selector_with(
                        b.label_selector.as_ref(),
                        false,
                        &bp.child("labelSelector"),
                    ));
                }
                (None, None) => errs.push(Error::required(
                    &bp,
                    "either name or signerName must be specified",
                )),
            }
            let pp = bp.child("path");
            if b.path.is_empty() {
                errs.push(Error::required(&pp, ""));
            }
            local_non_reserved_path(&b.path, &pp, errs);
            claim(&b.path, &b.path, errs);
        }
        if let Some(c) = &source.pod_certificate {
            count += 1;
            let cp = sp.child("podCertificate");
            #[cfg(feature = "v1_37")]
            id_range(c.user, &cp.child("user"), errs);
            errs.extend(validate_signer_name(
                &cp.child("signerName"),
                &c.signer_name,
            ));
            errs.extend(validate_user_annotations(
                &c.user_annotations,
                &cp.child("userAnnotations"),
            ));
            const KEY_TYPES: &[&str] = &[
                "RSA3072",
                "RSA4096",
                "ECDSAP256",
                "ECDSAP384",
                "ECDSAP521",
                "ED25519",
            ];
            if !KEY_TYPES.contains(&c.key_type.as_str()) {
                errs.push(Error::not_supported(
                    &cp.child("keyType"),
                    &c.key_type,
                    KEY_TYPES,
                ));
            }
            if c.max_expiration_seconds.is_some_and(|s| s < 3600) {
                errs.push(Error::invalid(
                    &cp.child("maxExpirationSeconds"),
                    c.max_expiration_seconds.unwrap_or_default(),
                    "if provided, maxExpirationSeconds must be >= 3600",
                ));
            }
            if let Some(s) = c.max_expiration_seconds {
                let most = if is_kubernetes_signer_name(&c.signer_name) {
                    24 * 60 * 60
                } else {
                    91 * 24 * 60 * 60
                };
                if s > most {
                    errs.push(Error::invalid(
                        &cp.child("maxExpirationSeconds"),
                        s,
                        format!("if provided, maxExpirationSeconds must be <= {most}"),
                    ));
                }
            }
            let mut files = 0;
            for (field, file) in [
                ("credentialBundlePath", &c.credential_bundle_path),
                ("keyPath", &c.key_path),
                ("certificateChainPath", &c.certificate_chain_path),
            ] {
                if file.is_empty() {
                    continue;
                }
                files += 1;
                local_non_reserved_path(file, &cp.child(field), errs);
                claim(file, file, errs);
            }
            if files == 0 {
                errs.push(Error::required(
                    &cp,
                    "specify at least one of credentialBundlePath, keyPath, and certificateChainPath",
                ));
            }
        }
        if count > 1 {
            errs.push(Error::forbidden(
                &sp,
                "may not specify more than 1 volume type per source",
            ));
        }
    }
}

/// Go's internal `ClusterTrustBundleProjection` as `json.Marshal` writes it: its fields
/// carry no JSON tags, so they go by their Go names (1.37 adds `User`).
fn internal_cluster_trust_bundle(
    b: &crate::core::v1::ClusterTrustBundleProjection,
) -> apimachinery::util::validation::field::BadValue {
    let value = crate::validation::go_internal::GoStruct::new()
        .field("Name", &b.name)
        .field("SignerName", &b.signer_name)
        .field("LabelSelector", &b.label_selector)
        .field("Optional", &b.optional)
        .field("Path", &b.path);
    #[cfg(feature = "v1_37")]
    let value = value.field("User", &b.user);
    value.value()
}
