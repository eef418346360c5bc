//! ClusterTrustBundle (Go's `ValidateClusterTrustBundle*`): a name that carries its
//! signer, and a bundle of distinct CA certificates. `certificates.k8s.io/v1beta1` in
//! 1.36, `v1` from 1.37.

use apimachinery::apis::meta::v1::validation::FIELD_IMMUTABLE_ERROR_MSG;
use apimachinery::util::validation::field::{Error, ErrorList, Path};

use super::super::name_rule::validate_object_meta_with;
use super::super::{validate_kube_finalizer_name, validate_object_meta_update};
#[cfg(feature = "validation-x509")]
use super::x509;
use super::{pem, validate_cluster_trust_bundle_name, validate_signer_name};
#[cfg(feature = "v1_37")]
use crate::certificates::v1::ClusterTrustBundle;
#[cfg(not(feature = "v1_37"))]
use crate::certificates::v1beta1::ClusterTrustBundle;

/// Go's `MaxTrustBundleSize`.
const MAX_TRUST_BUNDLE_SIZE: usize = 1024 * 1024;

/// Go's `"<value omitted>"`, the bad value of every trust-bundle error.
const OMITTED: &str = "<value omitted>";

/// Go's `ValidateClusterTrustBundle`; `parse_bundle` false skips the bundle (Go's
/// `SuppressBundleParsing`, for an update that keeps it).
fn validate(bundle: &ClusterTrustBundle, parse_bundle: bool) -> ErrorList {
    let signer = bundle.spec.signer_name.as_str();
    let mut errs = validate_object_meta_with(
        &bundle.metadata,
        false,
        |name, prefix| validate_cluster_trust_bundle_name(signer, name, prefix),
        &Path::new("metadata"),
    );
    // Go's core `ValidateObjectMeta`: finalizers without a domain are standard ones.
    let finalizers = Path::new("metadata");
    let finalizers = finalizers.child("finalizers");
    for (i, f) in bundle.metadata.finalizers.iter().enumerate() {
        errs.extend(validate_kube_finalizer_name(f, &finalizers.index(i)));
    }
    let spec = Path::new("spec");
    if !signer.is_empty() {
        errs.extend(validate_signer_name(&spec.child("signerName"), signer));
    }
    if parse_bundle {
        errs.extend(validate_trust_bundle(
            &spec.child("trustBundle"),
            &bundle.spec.trust_bundle,
        ));
    }
    errs
}

/// Go's `validateTrustBundle`: at most 1 MiB of PEM `CERTIFICATE` blocks without
/// headers, each a CA certificate (checked with the `validation-x509` feature only),
/// none twice, at least one.
pub fn validate_trust_bundle(fld: &Path, bundle: &str) -> ErrorList {
    let mut errs = ErrorList::default();
    if bundle.len() > MAX_TRUST_BUNDLE_SIZE {
        errs.push(Error::too_long(fld, MAX_TRUST_BUNDLE_SIZE as i64));
        return errs;
    }
    // Block contents to their entry numbers, sorted by content; Go reports duplicates
    // in its map's (random) order, a single duplicate set reads the same either way.
    // (A sorted `Vec` rather than a `BTreeMap`, whose code would be compiled for these
    // key and value types alone.)
    let mut seen: Vec<(Vec<u8>, Vec<usize>)> = Vec::new();
    let mut rest = bundle.as_bytes();
    let mut i = 0;
    while let Some((block, next)) = pem::decode(rest) {
        rest = next;
        let entry = i;
        i += 1;
        let problem = if block.kind != b"CERTIFICATE" {
            Some(format!(
                "entry {entry} has bad block type: {}",
                String::from_utf8_lossy(block.kind)
            ))
        } else if block.has_headers {
            Some(format!("entry {entry} has PEM block headers"))
        } else {
            anchor_problem(entry, &block.bytes)
        };
        match problem {
            Some(msg) => errs.push(Error::invalid(fld, OMITTED, msg)),
            None => match seen.binary_search_by(|(bytes, _)| bytes.cmp(&block.bytes)) {
                Ok(at) => {
                    if let Some((_, entries)) = seen.get_mut(at) {
                        entries.push(entry);
                    }
                }
                Err(at) => seen.insert(at, (block.bytes, vec![entry])),
            },
        }
    }
    if !errs.is_empty() {
        return errs;
    }
    if seen.is_empty() {
        errs.push(Error::invalid(
            fld,
            OMITTED,
            "at least one trust anchor must be provided",
        ));
    }
    for (_, indices) in seen.iter().filter(|(_, v)| v.len() > 1) {
        let list: Vec<String> = indices.iter().map(ToString::to_string).collect();
        errs.push(Error::invalid(
            fld,
            OMITTED,
            format!("duplicate trust anchor (indices [{}])", list.join(" ")),
        ));
    }
    errs
}

/// Go's `ValidateClusterTrustBundle` as the strategy runs it on create.
pub fn validate_cluster_trust_bundle(bundle: &ClusterTrustBundle) -> ErrorList {
    validate(bundle, true)
}

/// Go's `ValidateClusterTrustBundleUpdate`: the bundle is parsed again only when it
/// changed; the signer name is immutable.
pub fn validate_cluster_trust_bundle_update(
    new: &ClusterTrustBundle,
    old: &ClusterTrustBundle,
) -> ErrorList {
    let mut errs = validate(new, new.spec.trust_bundle != old.spec.trust_bundle);
    errs.extend(validate_object_meta_update(
        &new.metadata,
        &old.metadata,
        &Path::new("metadata"),
    ));
    if new.spec.signer_name != old.spec.signer_name {
        errs.push(Error::invalid(
            &Path::new("spec").child("signerName"),
            &new.spec.signer_name,
            FIELD_IMMUTABLE_ERROR_MSG,
        ));
    }
    errs
}

/// Go's checks of one trust anchor's DER: it parses as X.509 and is a CA.
#[cfg(feature = "validation-x509")]
fn anchor_problem(entry: usize, der: &[u8]) -> Option<String> {
    match x509::parse_certificate(der) {
        Err(_) => Some(format!("entry {entry} does not parse as X.509")),
        // Go's `IsCA` is only true with a valid basic-constraints extension, so its
        // second check ("invalid basic constraints") cannot fail after this.
        Ok(cert) if !cert.is_ca => Some(format!("entry {entry} does not have the CA bit set")),
        Ok(_) => None,
    }
}

/// Without the `validation-x509` feature a trust anchor's DER is not parsed, so neither
/// that it is X.509 nor that it is a CA is checked.
#[cfg(not(feature = "validation-x509"))]
fn anchor_problem(_entry: usize, _der: &[u8]) -> Option<String> {
    None
}
