//! Signer names and the names that carry them (Go's `pkg/apis/core/validation/names.go`
//! and `ValidateUserAnnotations`): shared by the certificates group's kinds and by a
//! pod's projected `clusterTrustBundle` and `podCertificate` sources.

use apimachinery::apis::meta::v1::validation::{
    TOTAL_ANNOTATION_SIZE_LIMIT_B, name_is_dns_subdomain,
};
use apimachinery::util::go_strings::to_lower;
use apimachinery::util::validation::domain::is_domain_prefixed_key;
use apimachinery::util::validation::field::{Error, ErrorList, Path, go_quote};
use apimachinery::util::validation::{
    DNS1123_LABEL_MAX_LENGTH, DNS1123_SUBDOMAIN_MAX_LENGTH, is_dns1123_label, is_dns1123_subdomain,
};

/// Go's `IsKubernetesSignerName`: a signer of the Kubernetes project (`kubernetes.io` or a
/// subdomain of it).
pub fn is_kubernetes_signer_name(signer_name: &str) -> bool {
    let host = signer_name.split('/').next().unwrap_or_default();
    host == "kubernetes.io" || host.ends_with(".kubernetes.io")
}

/// Go's `ValidateSignerName`: `<domain>/<path>`, the domain of DNS labels with at least
/// one dot, the path of DNS subdomains separated by dots, 571 bytes at most.
pub fn validate_signer_name(fld: &Path, signer_name: &str) -> ErrorList {
    let mut errs = ErrorList::default();
    if signer_name.is_empty() {
        errs.push(Error::required(fld, ""));
        return errs;
    }
    let segments: Vec<&str> = signer_name.split('/').collect();
    let [domain, path] = segments[..] else {
        errs.push(Error::invalid(
            fld,
            signer_name,
            "must be a fully qualified domain and path of the form 'example.com/signer-name'",
        ));
        return errs;
    };
    if domain.len() > DNS1123_SUBDOMAIN_MAX_LENGTH {
        errs.push(Error::too_long(fld, DNS1123_SUBDOMAIN_MAX_LENGTH as i64));
    }
    let domain_labels: Vec<&str> = domain.split('.').collect();
    // Only the first bad label is reported: the others would repeat the same message.
    if let Some((label, msgs)) = domain_labels
        .iter()
        .map(|l| (l, is_dns1123_label(l)))
        .find(|(_, m)| !m.is_empty())
    {
        for msg in msgs {
            errs.push(Error::invalid(
                fld,
                domain,
                format!("validating label {}: {msg}", go_quote(label)),
            ));
        }
    }
    if domain_labels.len() < 2 {
        errs.push(Error::invalid(
            fld,
            domain,
            "should be a domain with at least two segments separated by dots",
        ));
    }
    if let Some((label, msgs)) = path
        .split('.')
        .map(|l| (l, is_dns1123_subdomain(l)))
        .find(|(_, m)| !m.is_empty())
    {
        for msg in msgs {
            errs.push(Error::invalid(
                fld,
                path,
                format!("validating label {}: {msg}", go_quote(label)),
            ));
        }
    }
    let max_path = DNS1123_SUBDOMAIN_MAX_LENGTH + DNS1123_LABEL_MAX_LENGTH + 1;
    let max_signer = DNS1123_SUBDOMAIN_MAX_LENGTH + max_path + 1;
    if signer_name.len() > max_signer {
        errs.push(Error::too_long(fld, max_signer as i64));
    }
    errs
}

/// Go's `ValidateClusterTrustBundleName`: with a signer, the name is the signer with `/`
/// as `:`, a `:`, and a DNS subdomain; without one, a DNS subdomain without `:`.
pub fn validate_cluster_trust_bundle_name(
    signer_name: &str,
    name: &str,
    prefix: bool,
) -> Vec<String> {
    if signer_name.is_empty() {
        if name.contains(':') {
            return vec![
                "ClusterTrustBundle without signer name must not have \":\" in its name".into(),
            ];
        }
        return name_is_dns_subdomain(name, prefix);
    }
    let required = format!("{}:", signer_name.replace('/', ":"));
    match name.strip_prefix(&required) {
        Some(rest) => name_is_dns_subdomain(rest, prefix),
        None => vec![format!(
            "ClusterTrustBundle for signerName {signer_name} must be named with prefix {required}"
        )],
    }
}

/// Go's `extractSignerNameFromClusterTrustBundleName`: the signer a name carries before
/// its last `:`, with `:` as `/`.
#[cfg(feature = "core")]
pub(crate) fn signer_of_cluster_trust_bundle_name(name: &str) -> Option<String> {
    name.rfind(':').map(|i| name[..i].replace(':', "/"))
}

/// Go's `ValidateUserAnnotations`: domain-prefixed keys (compared lower-cased), 256 KiB
/// in all.
pub(crate) fn validate_user_annotations(
    annotations: &std::collections::BTreeMap<String, String>,
    fld: &Path,
) -> ErrorList {
    let mut errs = ErrorList::default();
    let mut total: i64 = 0;
    for (k, v) in annotations {
        errs.extend(is_domain_prefixed_key(fld, &to_lower(k)));
        total = total.saturating_add(i64::try_from(k.len() + v.len()).unwrap_or(i64::MAX));
    }
    if total > TOTAL_ANNOTATION_SIZE_LIMIT_B {
        errs.push(Error::too_long(fld, TOTAL_ANNOTATION_SIZE_LIMIT_B));
    }
    errs
}
