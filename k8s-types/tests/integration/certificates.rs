//! certificates.k8s.io validation on real PEM and DER (made once with openssl, in
//! `certificates/`): a P-256 request and a copy whose signature was altered, a CA and a
//! leaf certificate of the same key, an Ed25519 and an RSA-2048 stub request, an Ed25519
//! PKIX key with a proof of possession over the pod's UID and one over another text.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use k8s_types::certificates::v1::CertificateSigningRequest;
use k8s_types::certificates::v1beta1::{ClusterTrustBundle, PodCertificateRequest};
use k8s_types::validation::{
    validate_certificate_signing_request_approval_update,
    validate_certificate_signing_request_status_update,
};
use serde_json::{Value, json};

use super::validation::{errors, update_errors};

const CSR: &str = include_str!("certificates/ec.csr");
const CSR_BAD_SIGNATURE: &str = include_str!("certificates/ec-bad.csr");
const CA: &str = include_str!("certificates/ca.pem");
const LEAF: &str = include_str!("certificates/leaf.pem");
const ED_STUB: &str = include_str!("certificates/ed-stub.b64");
const RSA_2048_STUB: &str = include_str!("certificates/rsa2048-stub.b64");
const ED_PKIX: &str = include_str!("certificates/ed-pkix.b64");
const ED_PROOF: &str = include_str!("certificates/ed-proof.b64");
const ED_WRONG_PROOF: &str = include_str!("certificates/ed-wrong-proof.b64");
const POD_UID: &str = "0b5e1c7a-1f0e-4e4e-9a55-3f8a1d2c0b11";

fn b64(s: &str) -> String {
    k8s_types::value::ByteString(s.as_bytes().to_vec()).to_base64()
}

fn csr(request: &str, status: Value) -> Value {
    json!({"metadata": {"name": "node-csr"},
        "spec": {"request": b64(request), "signerName": "example.com/node-client",
                 "usages": ["client auth"]},
        "status": status})
}

fn decode<T: serde::de::DeserializeOwned>(v: Value) -> T {
    serde_json::from_value(v).unwrap()
}

#[cfg(feature = "validation-x509")]
#[test]
fn a_signed_request_is_accepted_and_an_altered_signature_is_not() {
    assert_eq!(
        errors::<CertificateSigningRequest>(csr(CSR, json!({}))),
        Vec::<String>::new()
    );
    let errs = errors::<CertificateSigningRequest>(csr(CSR_BAD_SIGNATURE, json!({})));
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(
        errs[0].starts_with("spec.request: Invalid value: \"LS0t"),
        "{errs:?}"
    );
    assert!(
        errs[0].ends_with(": x509: ECDSA verification failure"),
        "{errs:?}"
    );
    let errs = errors::<CertificateSigningRequest>(csr(CA, json!({})));
    assert!(
        errs[0].ends_with(": PEM block type must be CERTIFICATE REQUEST"),
        "{errs:?}"
    );
}

#[test]
fn usages_signer_and_conditions_are_checked() {
    let mut obj = csr(
        CSR,
        json!({"conditions": [
        {"type": "Approved", "status": "False"}, {"type": "Denied", "status": "True"}]}),
    );
    obj["spec"]["usages"] = json!(["client auth", "client auth", "smart card"]);
    obj["spec"]["signerName"] = json!("kubernetes.io/legacy-unknown");
    let errs = errors::<CertificateSigningRequest>(obj);
    assert_eq!(
        errs,
        [
            "spec.usages[2]: Unsupported value: \"smart card\": supported values: \"any\", \"cert sign\", \"client auth\", \"code signing\", \"content commitment\", \"crl sign\", \"data encipherment\", \"decipher only\", \"digital signature\", \"email protection\", \"encipher only\", \"ipsec end system\", \"ipsec tunnel\", \"ipsec user\", \"key agreement\", \"key encipherment\", \"microsoft sgc\", \"netscape sgc\", \"ocsp signing\", \"s/mime\", \"server auth\", \"signing\", \"timestamping\"",
            "spec.usages[1]: Duplicate value: \"client auth\"",
            "spec.signerName: Invalid value: \"kubernetes.io/legacy-unknown\": the legacy signerName is not allowed via this API version",
            "status.conditions[0].status: Unsupported value: \"False\": supported values: \"True\"",
            // 1.36's hand-written check; 1.37's declarative union rule stands in for it.
            if cfg!(feature = "v1_37") {
                "status.conditions: Invalid value: \"{conditions[{\\\"type\\\": \\\"Approved\\\"}], conditions[{\\\"type\\\": \\\"Denied\\\"}]}\": must specify at most one of: `conditions[{\"type\": \"Approved\"}]`, `conditions[{\"type\": \"Denied\"}]`"
            } else {
                "status.conditions: Invalid value: \"Denied\": Approved and Denied conditions are mutually exclusive"
            },
        ]
    );
}

#[test]
fn status_certificates_are_pem_certificates_set_only_through_status() {
    let errs = errors::<CertificateSigningRequest>(csr(
        CSR,
        json!({"certificate": b64("-----BEGIN CERTIFICATE-----\nAAECAwQ=\n-----END CERTIFICATE-----\n")}),
    ));
    let malformed: &[&str] = if cfg!(feature = "validation-x509") {
        &["status.certificate: Invalid value: \"<certificate data>\": x509: malformed certificate"]
    } else {
        &[]
    };
    assert_eq!(errs, malformed);
    let old = csr(CSR, json!({}));
    let new = csr(CSR, json!({"certificate": b64(LEAF)}));
    assert_eq!(
        update_errors::<CertificateSigningRequest>(old.clone(), new.clone()),
        ["status.certificate: Forbidden: updates may not set certificate content"]
    );
    let (old, new): (CertificateSigningRequest, CertificateSigningRequest) = (
        decode(
            json!({"metadata": {"name": "node-csr", "resourceVersion": "1"}, "spec": old["spec"]}),
        ),
        decode(
            json!({"metadata": {"name": "node-csr", "resourceVersion": "1"}, "spec": new["spec"],
            "status": new["status"]}),
        ),
    );
    assert!(validate_certificate_signing_request_status_update(&new, &old).is_empty());
}

#[test]
fn approval_conditions_change_only_through_approval() {
    let meta = json!({"name": "node-csr", "resourceVersion": "1"});
    let mut old = csr(CSR, json!({}));
    old["metadata"] = meta.clone();
    let mut new = csr(
        CSR,
        json!({"conditions": [{"type": "Approved", "status": "True"}]}),
    );
    new["metadata"] = meta;
    assert_eq!(
        update_errors::<CertificateSigningRequest>(old.clone(), new.clone()),
        ["status.conditions: Forbidden: updates may not add a condition of type \"Approved\""]
    );
    let (old, new): (CertificateSigningRequest, CertificateSigningRequest) =
        (decode(old), decode(new));
    assert!(validate_certificate_signing_request_approval_update(&new, &old).is_empty());
    // Removing it again is refused on every path.
    assert_eq!(
        validate_certificate_signing_request_approval_update(&old, &new)
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        ["status.conditions: Forbidden: updates may not remove a condition of type \"Approved\""]
    );
}

fn bundle(name: &str, signer: &str, pem: &str) -> Value {
    json!({"metadata": {"name": name}, "spec": {"signerName": signer, "trustBundle": pem}})
}

#[test]
fn trust_bundles_hold_distinct_ca_certificates() {
    assert!(
        errors::<ClusterTrustBundle>(bundle("example.com:signer:ca", "example.com/signer", CA))
            .is_empty()
    );
    #[cfg(feature = "validation-x509")]
    assert_eq!(
        errors::<ClusterTrustBundle>(bundle("leaf", "", LEAF)),
        [
            "spec.trustBundle: Invalid value: \"<value omitted>\": entry 0 does not have the CA bit set"
        ]
    );
    assert_eq!(
        errors::<ClusterTrustBundle>(bundle("twice", "", &format!("{CA}{CA}"))),
        [
            "spec.trustBundle: Invalid value: \"<value omitted>\": duplicate trust anchor (indices [0 1])"
        ]
    );
    assert_eq!(
        errors::<ClusterTrustBundle>(bundle("other", "example.com/signer", CA)),
        [
            "metadata.name: Invalid value: \"other\": ClusterTrustBundle for signerName example.com/signer must be named with prefix example.com:signer:"
        ]
    );
}

fn pod_request(spec: Value) -> Value {
    let mut s = json!({"signerName": "example.com/pod-signer", "podName": "web-0",
        "podUID": POD_UID, "serviceAccountName": "web", "serviceAccountUID": "sa-1",
        "nodeName": "worker-1", "nodeUID": "node-1", "maxExpirationSeconds": 86400});
    for (k, v) in spec.as_object().unwrap() {
        s[k] = v.clone();
    }
    json!({"metadata": {"name": "web-0-cert", "namespace": "default"}, "spec": s})
}

#[test]
fn pod_certificate_requests_prove_their_key() {
    assert!(
        errors::<PodCertificateRequest>(pod_request(json!({"stubPKCS10Request": ED_STUB})))
            .is_empty()
    );
    #[cfg(feature = "validation-x509")]
    assert_eq!(
        errors::<PodCertificateRequest>(pod_request(json!({"stubPKCS10Request": RSA_2048_STUB}))),
        [
            "spec.stubPKCS10Request: Invalid value: \"2048-bit modulus\": RSA keys must have modulus size 3072 or 4096"
        ]
    );
    assert!(
        errors::<PodCertificateRequest>(pod_request(
            json!({"pkixPublicKey": ED_PKIX, "proofOfPossession": ED_PROOF})
        ))
        .is_empty()
    );
    #[cfg(feature = "validation-x509")]
    assert_eq!(
        errors::<PodCertificateRequest>(pod_request(
            json!({"pkixPublicKey": ED_PKIX, "proofOfPossession": ED_WRONG_PROOF})
        )),
        ["spec.proofOfPossession: Invalid value: could not verify proof-of-possession signature"]
    );
    assert_eq!(
        errors::<PodCertificateRequest>(pod_request(
            json!({"stubPKCS10Request": ED_STUB, "signerName": "kubernetes.io/kube-apiserver-client-pod",
                   "maxExpirationSeconds": 172800})
        )),
        ["spec.maxExpirationSeconds: Invalid value: 172800: must be in the range [3600, 86400]"]
    );
}

/// Without `validation-x509` what is inside the PEM blocks and the keys is not checked
/// (a bad signature, a leaf as a trust anchor, an RSA-2048 stub, a wrong proof pass),
/// while what is outside them still is.
#[cfg(not(feature = "validation-x509"))]
#[test]
fn without_x509_only_the_pem_framing_is_checked() {
    assert!(errors::<CertificateSigningRequest>(csr(CSR_BAD_SIGNATURE, json!({}))).is_empty());
    let errs = errors::<CertificateSigningRequest>(csr(CA, json!({})));
    assert!(
        errs[0].ends_with(": PEM block type must be CERTIFICATE REQUEST"),
        "{errs:?}"
    );
    let errs = errors::<CertificateSigningRequest>(csr(
        CSR,
        json!({"certificate": b64("-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n")}),
    ));
    assert_eq!(
        errs,
        [
            "status.certificate: Invalid value: \"<certificate data>\": found CERTIFICATE PEM block containing 0 certificates"
        ]
    );
    assert!(errors::<ClusterTrustBundle>(bundle("leaf", "", LEAF)).is_empty());
    assert!(
        errors::<PodCertificateRequest>(pod_request(json!({"stubPKCS10Request": RSA_2048_STUB})))
            .is_empty()
    );
    assert!(
        errors::<PodCertificateRequest>(pod_request(
            json!({"pkixPublicKey": ED_PKIX, "proofOfPossession": ED_WRONG_PROOF})
        ))
        .is_empty()
    );
}
