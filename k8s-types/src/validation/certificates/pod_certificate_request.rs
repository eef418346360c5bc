//! PodCertificateRequest (Go's `ValidatePodCertificateRequest*`): who asks (pod, service
//! account, node), for which signer and how long, and the key: a stub PKCS#10 request
//! signed with it, or (deprecated) a PKIX key with a proof of possession over the pod's
//! UID. `certificates.k8s.io/v1beta1`, and `v1` from 1.37.

use apimachinery::apis::meta::v1::validation::{FIELD_IMMUTABLE_ERROR_MSG, name_is_dns_subdomain};
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};

use super::super::go_value::go_json;
use super::super::signer_names::validate_user_annotations;
use super::super::{validate_object_meta, validate_object_meta_update};
#[cfg(feature = "validation-x509")]
use super::x509;
use super::{is_kubernetes_signer_name, validate_signer_name};
use crate::certificates::v1beta1;
use crate::value::ByteString;

/// Go's `MaxPKIXPublicKeySize`, `MaxProofOfPossessionSize`, `MaxStubPKCS10RequestSize`.
const MAX_KEY_MATERIAL_SIZE: usize = 10 * 1024;
/// Go's `MinMaxExpirationSeconds`: an hour.
const MIN_MAX_EXPIRATION_SECONDS: i32 = 60 * 60;
/// Go's `KubernetesMaxMaxExpirationSeconds`: a day, for Kubernetes' own signers.
const KUBERNETES_MAX_MAX_EXPIRATION_SECONDS: i32 = 24 * 60 * 60;
/// Go's `MaxMaxExpirationSeconds`: 91 days.
const MAX_MAX_EXPIRATION_SECONDS: i32 = 91 * 24 * 60 * 60;
/// The longest UID of a pod, service account or node.
const MAX_UID_LENGTH: i64 = 128;

/// A PodCertificateRequest's spec as Go's internal type holds it, from either version.
/// `certificates.k8s.io/v1` (1.37) has no `pkixPublicKey` and `proofOfPossession`: Go's
/// internal type still has them, so 1.37 validates `v1beta1` objects as they are (the
/// two versions do not convert into each other here).
struct Spec<'a> {
    signer_name: &'a String,
    pod_name: &'a String,
    pod_uid: &'a String,
    service_account_name: &'a String,
    service_account_uid: &'a String,
    node_name: &'a String,
    node_uid: &'a String,
    max_expiration_seconds: Option<i32>,
    pkix_public_key: &'a Option<ByteString>,
    proof_of_possession: &'a Option<ByteString>,
    stub_pkcs10_request: &'a Option<ByteString>,
    unverified_user_annotations: &'a std::collections::BTreeMap<String, String>,
}

#[cfg(feature = "v1_37")]
const NO_BYTES: &Option<ByteString> = &None;

macro_rules! spec_view {
    ($s:expr, $pkix:expr, $pop:expr) => {
        Spec {
            signer_name: &$s.signer_name,
            pod_name: &$s.pod_name,
            pod_uid: &$s.pod_uid,
            service_account_name: &$s.service_account_name,
            service_account_uid: &$s.service_account_uid,
            node_name: &$s.node_name,
            node_uid: &$s.node_uid,
            max_expiration_seconds: $s.max_expiration_seconds,
            pkix_public_key: $pkix,
            proof_of_possession: $pop,
            stub_pkcs10_request: &$s.stub_pkcs10_request,
            unverified_user_annotations: &$s.unverified_user_annotations,
        }
    };
}

impl<'a> From<&'a v1beta1::PodCertificateRequestSpec> for Spec<'a> {
    fn from(s: &'a v1beta1::PodCertificateRequestSpec) -> Self {
        spec_view!(s, &s.pkix_public_key, &s.proof_of_possession)
    }
}

#[cfg(feature = "v1_37")]
impl<'a> From<&'a crate::certificates::v1::PodCertificateRequestSpec> for Spec<'a> {
    fn from(s: &'a crate::certificates::v1::PodCertificateRequestSpec) -> Self {
        spec_view!(s, NO_BYTES, NO_BYTES)
    }
}

fn bytes_of(b: &Option<ByteString>) -> &[u8] {
    b.as_deref().map_or(&[], |v| v.as_slice())
}

/// A `[]byte` as Go prints it: base64 in quotes, `null` when nil.
#[cfg(feature = "validation-x509")]
fn bytes_value(b: &Option<ByteString>) -> BadValue {
    match b {
        Some(v) => super::super::json_value(v),
        None => BadValue::Json("null".into()),
    }
}

/// A UID: not empty, 128 bytes at most.
fn validate_uid(uid: &str, fld: &Path, errs: &mut ErrorList) {
    if uid.is_empty() {
        errs.push(Error::invalid(
            fld,
            BadValue::json_string(uid),
            "must not be empty",
        ));
    }
    if uid.len() as i64 > MAX_UID_LENGTH {
        errs.push(Error::too_long(fld, MAX_UID_LENGTH));
    }
}

/// Go's `ValidatePodCertificateRequestCreate`.
fn validate(metadata: &apimachinery::apis::meta::v1::ObjectMeta, s: &Spec<'_>) -> ErrorList {
    let mut errs = validate_object_meta(
        metadata,
        true,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let spec = Path::new("spec");
    errs.extend(validate_signer_name(
        &spec.child("signerName"),
        s.signer_name,
    ));
    errs.extend(validate_user_annotations(
        s.unverified_user_annotations,
        &spec.child("unverifiedUserAnnotations"),
    ));
    for msg in name_is_dns_subdomain(s.pod_name, false) {
        errs.push(Error::invalid(&spec.child("podName"), s.pod_name, msg));
    }
    validate_uid(s.pod_uid, &spec.child("podUID"), &mut errs);
    for msg in name_is_dns_subdomain(s.service_account_name, false) {
        errs.push(Error::invalid(
            &spec.child("serviceAccountName"),
            s.service_account_name,
            msg,
        ));
    }
    validate_uid(
        s.service_account_uid,
        &spec.child("serviceAccountUID"),
        &mut errs,
    );
    for msg in name_is_dns_subdomain(s.node_name, false) {
        errs.push(Error::invalid(
            &spec.child("nodeName"),
            BadValue::json_string(s.node_name),
            msg,
        ));
    }
    validate_uid(s.node_uid, &spec.child("nodeUID"), &mut errs);

    let Some(max) = s.max_expiration_seconds else {
        errs.push(Error::required(
            &spec.child("maxExpirationSeconds"),
            "must be set",
        ));
        return errs;
    };
    let upper = if is_kubernetes_signer_name(s.signer_name) {
        KUBERNETES_MAX_MAX_EXPIRATION_SECONDS
    } else {
        MAX_MAX_EXPIRATION_SECONDS
    };
    if !(MIN_MAX_EXPIRATION_SECONDS..=upper).contains(&max) {
        errs.push(Error::invalid(
            &spec.child("maxExpirationSeconds"),
            max,
            format!("must be in the range [{MIN_MAX_EXPIRATION_SECONDS}, {upper}]"),
        ));
    }

    let (stub, pkix, pop) = (
        bytes_of(s.stub_pkcs10_request),
        bytes_of(s.pkix_public_key),
        bytes_of(s.proof_of_possession),
    );
    match (stub.is_empty(), pkix.is_empty(), pop.is_empty()) {
        (false, true, true) => errs.extend(validate_stub_pkcs10_request(s)),
        (true, false, false) => errs.extend(validate_deprecated_pkix_public_key(s)),
        _ => errs.push(Error::invalid(
            &spec,
            BadValue::Omit,
            "exactly one of (stubPKCS10Request) or (pkixPublicKey, proofOfPossession) must be set",
        )),
    }
    errs
}

/// The checks of a key Go accepts for a pod certificate: Ed25519, ECDSA on a NIST curve,
/// RSA of 3072 or 4096 bits. `Err` holds the error for the key.
#[cfg(feature = "validation-x509")]
fn check_key_type(key: &x509::PublicKey, fld: &Path) -> Result<(), Error> {
    match key {
        x509::PublicKey::Ed25519(_) | x509::PublicKey::Ecdsa { .. } => Ok(()),
        x509::PublicKey::Rsa { bits, .. } if *bits == 3072 || *bits == 4096 => Ok(()),
        x509::PublicKey::Rsa { bits, .. } => Err(Error::invalid(
            fld,
            format!("{bits}-bit modulus"),
            "RSA keys must have modulus size 3072 or 4096",
        )),
        x509::PublicKey::Other => Err(Error::invalid(
            fld,
            BadValue::Omit,
            "unknown public key type; supported types are Ed25519, ECDSA, and RSA",
        )),
    }
}

/// Go's `validateStubPKCS10Request`: a small PKCS#10 request of a supported key type
/// whose signature verifies (the request, its key and signature only with the
/// `validation-x509` feature); its contents are not judged.
fn validate_stub_pkcs10_request(s: &Spec<'_>) -> ErrorList {
    let mut errs = ErrorList::default();
    let spec = Path::new("spec");
    let fld = spec.child("stubPKCS10Request");
    let stub = bytes_of(s.stub_pkcs10_request);
    if stub.len() > MAX_KEY_MATERIAL_SIZE {
        errs.push(Error::too_long(&fld, MAX_KEY_MATERIAL_SIZE as i64));
        return errs;
    }
    #[cfg(feature = "validation-x509")]
    errs.extend(check_stub_pkcs10_request(stub, &fld));
    errs
}

/// The X.509 part of Go's `validateStubPKCS10Request`: the request parses, with a key
/// of a supported type, and its signature verifies.
#[cfg(feature = "validation-x509")]
fn check_stub_pkcs10_request(stub: &[u8], fld: &Path) -> ErrorList {
    let mut errs = ErrorList::default();
    let Some(csr) = x509::parse_certificate_request(stub).filter(|c| c.key.is_ok()) else {
        errs.push(Error::invalid(
            fld,
            BadValue::Omit,
            "must be a valid PKCS#10 CSR",
        ));
        return errs;
    };
    if let Ok(key) = &csr.key
        && let Err(e) = check_key_type(key, fld)
    {
        errs.push(e);
        return errs;
    }
    if csr.check_signature().is_err() {
        errs.push(Error::invalid(fld, BadValue::Omit, "invalid signature"));
    }
    errs
}

/// Go's `validateDeprecatedPKIXPublicKey`: a small PKIX key of a supported type, and a
/// proof of possession: the pod's UID signed with it (the key and the proof only with
/// the `validation-x509` feature).
fn validate_deprecated_pkix_public_key(s: &Spec<'_>) -> ErrorList {
    let mut errs = ErrorList::default();
    let spec = Path::new("spec");
    let pkix_path = spec.child("pkixPublicKey");
    let pop_path = spec.child("proofOfPossession");
    let (pkix, pop) = (bytes_of(s.pkix_public_key), bytes_of(s.proof_of_possession));
    if pkix.len() > MAX_KEY_MATERIAL_SIZE {
        errs.push(Error::too_long(&pkix_path, MAX_KEY_MATERIAL_SIZE as i64));
        return errs;
    }
    if pop.len() > MAX_KEY_MATERIAL_SIZE {
        errs.push(Error::too_long(&pop_path, MAX_KEY_MATERIAL_SIZE as i64));
        return errs;
    }
    #[cfg(feature = "validation-x509")]
    errs.extend(check_pkix_public_key(s, pkix, pop, &pkix_path, &pop_path));
    errs
}

/// The X.509 part of Go's `validateDeprecatedPKIXPublicKey`: the key parses and is of a
/// supported type, and the proof of possession verifies with it.
#[cfg(feature = "validation-x509")]
fn check_pkix_public_key(
    s: &Spec<'_>,
    pkix: &[u8],
    pop: &[u8],
    pkix_path: &Path,
    pop_path: &Path,
) -> ErrorList {
    let mut errs = ErrorList::default();
    let Some(key) = x509::parse_pkix_public_key(pkix) else {
        errs.push(Error::invalid(
            pkix_path,
            bytes_value(s.pkix_public_key),
            "must be a valid PKIX-serialized public key",
        ));
        return errs;
    };
    if let x509::PublicKey::Other = key {
        errs.push(Error::invalid(
            pkix_path,
            bytes_value(s.pkix_public_key),
            "unknown public key type; supported types are Ed25519, ECDSA, and RSA",
        ));
        return errs;
    }
    if let Err(e) = check_key_type(&key, pkix_path) {
        errs.push(e);
        return errs;
    }
    // A combination ring cannot check (P-521, a PSS salt other than the hash's length)
    // is refused as an unverified proof.
    if x509::verify_proof(&key, s.pod_uid.as_bytes(), pop) != Some(true) {
        errs.push(Error::invalid(
            pop_path,
            BadValue::Omit,
            "could not verify proof-of-possession signature",
        ));
    }
    errs
}

/// Go's internal `PodCertificateRequestSpec` as `json.Marshal` writes it (no JSON tags:
/// Go's field names), the bad value of "field is immutable".
#[derive(serde::Serialize)]
#[serde(rename_all = "PascalCase")]
struct GoSpec<'a> {
    signer_name: &'a str,
    pod_name: &'a str,
    #[serde(rename = "PodUID")]
    pod_uid: &'a str,
    service_account_name: &'a str,
    #[serde(rename = "ServiceAccountUID")]
    service_account_uid: &'a str,
    node_name: &'a str,
    #[serde(rename = "NodeUID")]
    node_uid: &'a str,
    max_expiration_seconds: Option<i32>,
    #[serde(rename = "PKIXPublicKey")]
    pkix_public_key: Option<String>,
    proof_of_possession: Option<String>,
    #[serde(rename = "StubPKCS10Request")]
    stub_pkcs10_request: Option<String>,
    unverified_user_annotations: Option<&'a std::collections::BTreeMap<String, String>>,
}

fn go_spec(s: &Spec<'_>) -> BadValue {
    let b64 = |b: &Option<ByteString>| b.as_ref().map(ByteString::to_base64);
    go_json(&GoSpec {
        signer_name: s.signer_name,
        pod_name: s.pod_name,
        pod_uid: s.pod_uid,
        service_account_name: s.service_account_name,
        service_account_uid: s.service_account_uid,
        node_name: s.node_name,
        node_uid: s.node_uid,
        max_expiration_seconds: s.max_expiration_seconds,
        pkix_public_key: b64(s.pkix_public_key),
        proof_of_possession: b64(s.proof_of_possession),
        stub_pkcs10_request: b64(s.stub_pkcs10_request),
        unverified_user_annotations: Some(s.unverified_user_annotations).filter(|m| !m.is_empty()),
    })
}

/// Go's `Semantic.DeepEqual` of two specs: an empty byte string is a nil one.
fn same_spec(a: &Spec<'_>, b: &Spec<'_>) -> bool {
    fn bytes<'b>(s: &Spec<'b>) -> [&'b [u8]; 3] {
        [
            s.pkix_public_key,
            s.proof_of_possession,
            s.stub_pkcs10_request,
        ]
        .map(bytes_of)
    }
    (
        a.signer_name,
        a.pod_name,
        a.pod_uid,
        a.service_account_name,
        a.service_account_uid,
        a.node_name,
        a.node_uid,
        a.max_expiration_seconds,
        a.unverified_user_annotations,
    ) == (
        b.signer_name,
        b.pod_name,
        b.pod_uid,
        b.service_account_name,
        b.service_account_uid,
        b.node_name,
        b.node_uid,
        b.max_expiration_seconds,
        b.unverified_user_annotations,
    ) && bytes(a) == bytes(b)
}

/// Go's `ValidatePodCertificateRequestUpdate`.
fn validate_update(
    new: (&apimachinery::apis::meta::v1::ObjectMeta, &Spec<'_>),
    old: (&apimachinery::apis::meta::v1::ObjectMeta, &Spec<'_>),
) -> ErrorList {
    let mut errs = validate_object_meta_update(new.0, old.0, &Path::new("metadata"));
    if !same_spec(new.1, old.1) {
        errs.push(Error::invalid(
            &Path::new("spec"),
            go_spec(new.1),
            FIELD_IMMUTABLE_ERROR_MSG,
        ));
    }
    errs
}

/// Go's `ValidatePodCertificateRequestCreate` of a `v1beta1` PodCertificateRequest: the
/// metadata, signer, pod, service account, node and their UIDs, the maximum expiration
/// (a day for Kubernetes' signers, 91 days for others, an hour at least), and either a
/// stub PKCS#10 request (Ed25519, ECDSA, or RSA of 3072 or 4096 bits, its signature
/// verified) or a PKIX key with a proof of possession over the pod's UID.
pub fn validate_v1beta1_pod_certificate_request(req: &v1beta1::PodCertificateRequest) -> ErrorList {
    validate(&req.metadata, &Spec::from(&req.spec))
}

/// Go's `ValidatePodCertificateRequestUpdate` of a `v1beta1` PodCertificateRequest: only
/// metadata may change; the spec is immutable and the status changes through
/// `/status`.
pub fn validate_v1beta1_pod_certificate_request_update(
    new: &v1beta1::PodCertificateRequest,
    old: &v1beta1::PodCertificateRequest,
) -> ErrorList {
    validate_update(
        (&new.metadata, &Spec::from(&new.spec)),
        (&old.metadata, &Spec::from(&old.spec)),
    )
}

/// [`validate_v1beta1_pod_certificate_request`] of a `v1` PodCertificateRequest (which
/// has no PKIX key).
#[cfg(feature = "v1_37")]
pub fn validate_pod_certificate_request(
    req: &crate::certificates::v1::PodCertificateRequest,
) -> ErrorList {
    validate(&req.metadata, &Spec::from(&req.spec))
}

/// [`validate_v1beta1_pod_certificate_request_update`] of a `v1` PodCertificateRequest.
#[cfg(feature = "v1_37")]
pub fn validate_pod_certificate_request_update(
    new: &crate::certificates::v1::PodCertificateRequest,
    old: &crate::certificates::v1::PodCertificateRequest,
) -> ErrorList {
    validate_update(
        (&new.metadata, &Spec::from(&new.spec)),
        (&old.metadata, &Spec::from(&old.spec)),
    )
}
