//! CertificateSigningRequest (Go's `ValidateCertificateSigningRequest*` and the three
//! strategies of `pkg/registry/certificates/certificates`: the object, `/status`,
//! `/approval`). What an update may touch depends on the path: only `/approval` adds or
//! changes Approved/Denied conditions, only `/status` sets the certificate. Faults an
//! old object already had are tolerated on update, as Go tolerates them.

// A `BTreeSet<&str>`, not a `HashSet`: the std map code for `&str` keys is compiled
// for other checks already (`HashSet` would add hashbrown's, for the same answers).
use std::collections::BTreeSet;

use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};

use super::super::{json_value, validate_object_meta, validate_object_meta_update};
#[cfg(feature = "validation-x509")]
use super::x509;
use super::{pem, validate_signer_name};
use crate::certificates::v1::{CertificateSigningRequest, CertificateSigningRequestCondition};
use crate::go_internal_json::with_internal_list_diff;

/// Go's `LegacyUnknownSignerName`, refused by the v1 API.
const LEGACY_UNKNOWN_SIGNER_NAME: &str = "kubernetes.io/legacy-unknown";

/// Go's `allValidUsages`, sorted as Go lists them.
const VALID_USAGES: &[&str] = &[
    "any",
    "cert sign",
    "client auth",
    "code signing",
    "content commitment",
    "crl sign",
    "data encipherment",
    "decipher only",
    "digital signature",
    "email protection",
    "encipher only",
    "ipsec end system",
    "ipsec tunnel",
    "ipsec user",
    "key agreement",
    "key encipherment",
    "microsoft sgc",
    "netscape sgc",
    "ocsp signing",
    "s/mime",
    "server auth",
    "signing",
    "timestamping",
];

const APPROVED: &str = "Approved";
const DENIED: &str = "Denied";
const FAILED: &str = "Failed";

/// Go's `certificateValidationOptions`: what this path and the old object allow.
#[derive(Default, Clone, Copy)]
struct Options {
    allow_setting_approval_conditions: bool,
    allow_setting_certificate: bool,
    allow_both_approved_and_denied: bool,
    allow_legacy_signer_name: bool,
    allow_duplicate_condition_types: bool,
    allow_empty_condition_type: bool,
    allow_arbitrary_certificate: bool,
    allow_unknown_usages: bool,
    allow_duplicate_usages: bool,
}

fn bytes_of(b: &Option<crate::value::ByteString>) -> &[u8] {
    b.as_deref().map_or(&[], |v| v.as_slice())
}

fn has_duplicates<'a>(items: impl IntoIterator<Item = &'a str>) -> bool {
    let mut seen = BTreeSet::new();
    items.into_iter().any(|i| !seen.insert(i))
}

/// Go's `getValidationOptions`: the tolerances an old object earns.
fn options(new: &CertificateSigningRequest, old: Option<&CertificateSigningRequest>) -> Options {
    let Some(old) = old else {
        return Options::default();
    };
    let has = |t: &str| old.status.conditions.iter().any(|c| c.r#type == t);
    let old_cert = bytes_of(&old.status.certificate);
    Options {
        allow_both_approved_and_denied: has(APPROVED) && has(DENIED),
        allow_legacy_signer_name: old.spec.signer_name == LEGACY_UNKNOWN_SIGNER_NAME,
        allow_duplicate_condition_types: has_duplicates(
            old.status.conditions.iter().map(|c| c.r#type.as_str()),
        ),
        allow_empty_condition_type: old.status.conditions.iter().any(|c| c.r#type.is_empty()),
        allow_arbitrary_certificate: bytes_of(&new.status.certificate) == old_cert
            || validate_certificate(old_cert).is_err(),
        allow_unknown_usages: old
            .spec
            .usages
            .iter()
            .any(|u| !VALID_USAGES.contains(&u.as_str())),
        allow_duplicate_usages: has_duplicates(old.spec.usages.iter().map(String::as_str)),
        ..Options::default()
    }
}

/// A `[]byte` as Go prints it in an error: `json.Marshal`'s base64 string, `null` when
/// nil.
fn bytes_value(b: &Option<crate::value::ByteString>) -> BadValue {
    match b {
        Some(v) => json_value(v),
        None => BadValue::Json("null".into()),
    }
}

/// Go's `validateCSR`: a PEM `CERTIFICATE REQUEST` block (the first block of the
/// request) holding a PKCS#10 request whose signature verifies (the request and its
/// signature only with the `validation-x509` feature).
fn validate_request(request: &[u8]) -> Result<(), String> {
    let block = match pem::decode(request) {
        Some((block, _)) if block.kind == b"CERTIFICATE REQUEST" => block,
        _ => return Err("PEM block type must be CERTIFICATE REQUEST".into()),
    };
    #[cfg(feature = "validation-x509")]
    {
        let Some(csr) = x509::parse_certificate_request(&block.bytes) else {
            return Err("x509: malformed certificate request".into());
        };
        csr.check_signature()
    }
    #[cfg(not(feature = "validation-x509"))]
    {
        let _ = block;
        Ok(())
    }
}

/// Go's `validateCertificate` (of `status.certificate`): nothing, or PEM `CERTIFICATE`
/// blocks without headers, each holding certificates (whether they parse as X.509 only
/// with the `validation-x509` feature; an empty block is refused either way).
fn validate_certificate(mut pem_data: &[u8]) -> Result<(), String> {
    if pem_data.is_empty() {
        return Ok(());
    }
    let mut blocks = 0;
    while let Some((block, rest)) = pem::decode(pem_data) {
        if block.kind != b"CERTIFICATE" {
            return Err(format!(
                "only CERTIFICATE PEM blocks are allowed, found {}",
                apimachinery::util::validation::field::go_quote(&String::from_utf8_lossy(
                    block.kind
                ))
            ));
        }
        if block.has_headers {
            return Err("no PEM block headers are permitted".into());
        }
        blocks += 1;
        #[cfg(feature = "validation-x509")]
        let certificates = x509::parse_certificates(&block.bytes)?;
        #[cfg(not(feature = "validation-x509"))]
        let certificates = usize::from(!block.bytes.is_empty());
        if certificates == 0 {
            return Err("found CERTIFICATE PEM block containing 0 certificates".into());
        }
        pem_data = rest;
    }
    if blocks == 0 {
        return Err("must contain at least one CERTIFICATE PEM block".into());
    }
    Ok(())
}

/// Go's `validateCertificateSigningRequest`.
fn validate(csr: &CertificateSigningRequest, opts: Options) -> ErrorList {
    // Go's `ValidateCertificateRequestName`: any name.
    let mut errs = validate_object_meta(
        &csr.metadata,
        false,
        |_, _| Vec::new(),
        &Path::new("metadata"),
    );
    let spec = Path::new("spec");
    if let Err(msg) = validate_request(bytes_of(&csr.spec.request)) {
        errs.push(Error::invalid(
            &spec.child("request"),
            bytes_value(&csr.spec.request),
            msg,
        ));
    }
    let usages = spec.child("usages");
    if csr.spec.usages.is_empty() {
        errs.push(Error::required(&usages, ""));
    }
    if !opts.allow_unknown_usages {
        for (i, u) in csr.spec.usages.iter().enumerate() {
            if !VALID_USAGES.contains(&u.as_str()) {
                errs.push(Error::not_supported(
                    &usages.index(i),
                    BadValue::json_string(u),
                    VALID_USAGES,
                ));
            }
        }
    }
    if !opts.allow_duplicate_usages {
        let mut seen = BTreeSet::new();
        for (i, u) in csr.spec.usages.iter().enumerate() {
            if !seen.insert(u.as_str()) {
                errs.push(Error::duplicate(&usages.index(i), BadValue::json_string(u)));
            }
        }
    }
    let signer = spec.child("signerName");
    if !opts.allow_legacy_signer_name && csr.spec.signer_name == LEGACY_UNKNOWN_SIGNER_NAME {
        errs.push(Error::invalid(
            &signer,
            &csr.spec.signer_name,
            "the legacy signerName is not allowed via this API version",
        ));
    } else {
        errs.extend(validate_signer_name(&signer, &csr.spec.signer_name));
    }
    if let Some(s) = csr.spec.expiration_seconds.filter(|s| *s < 600) {
        errs.push(Error::invalid(
            &spec.child("expirationSeconds"),
            s,
            "may not specify a duration less than 600 seconds (10 minutes)",
        ));
    }
    errs.extend(validate_conditions(csr, opts));
    if !opts.allow_arbitrary_certificate
        && let Err(msg) = validate_certificate(bytes_of(&csr.status.certificate))
    {
        errs.push(Error::invalid(
            &Path::new("status").child("certificate"),
            "<certificate data>",
            msg,
        ));
    }
    errs
}

/// Go's `validateConditions`.
fn validate_conditions(csr: &CertificateSigningRequest, opts: Options) -> ErrorList {
    let mut errs = ErrorList::default();
    let status = Path::new("status");
    let fld = status.child("conditions");
    let mut seen = BTreeSet::new();
    let (mut approved, mut denied) = (false, false);
    for (i, c) in csr.status.conditions.iter().enumerate() {
        let at = fld.index(i);
        if !opts.allow_empty_condition_type && c.r#type.is_empty() {
            errs.push(Error::required(&at.child("type"), ""));
        }
        let allowed: &[&str] = if [APPROVED, DENIED, FAILED].contains(&c.r#type.as_str()) {
            &["True"]
        } else {
            &["False", "True", "Unknown"]
        };
        if c.status.is_empty() {
            errs.push(Error::required(&at.child("status"), ""));
        } else if !allowed.contains(&c.status.as_str()) {
            errs.push(Error::not_supported(
                &at.child("status"),
                BadValue::json_string(&c.status),
                allowed,
            ));
        }
        if !opts.allow_both_approved_and_denied {
            let clash = match c.r#type.as_str() {
                APPROVED => {
                    approved = true;
                    denied
                }
                DENIED => {
                    denied = true;
                    approved
                }
                _ => false,
            };
            // On 1.37 the declarative union rule (beta, enforced) covers this error.
            if clash && cfg!(not(feature = "v1_37")) {
                errs.push(Error::invalid(
                    &fld,
                    BadValue::json_string(&c.r#type),
                    "Approved and Denied conditions are mutually exclusive",
                ));
            }
        }
        if !opts.allow_duplicate_condition_types && !seen.insert(c.r#type.as_str()) {
            errs.push(Error::duplicate(
                &at.child("type"),
                BadValue::json_string(&c.r#type),
            ));
        }
    }
    // Kubernetes 1.37's declarative `+k8s:zeroOrOneOfMember` on the Approved and Denied
    // conditions (Go's `validate.ZeroOrOneOfUnion`): one error for the pair, where 1.36's
    // hand-written check gave one per clashing condition.
    #[cfg(feature = "v1_37")]
    if approved && denied && !opts.allow_both_approved_and_denied {
        const MEMBERS: &str =
            r#"`conditions[{"type": "Approved"}]`, `conditions[{"type": "Denied"}]`"#;
        errs.push(Error::invalid(
            &fld,
            BadValue::json_string(
                r#"{conditions[{"type": "Approved"}], conditions[{"type": "Denied"}]}"#,
            ),
            format!("must specify at most one of: {MEMBERS}"),
        ));
    }
    errs
}

fn find_conditions<'a>(
    csr: &'a CertificateSigningRequest,
    t: &str,
) -> Vec<&'a CertificateSigningRequestCondition> {
    csr.status
        .conditions
        .iter()
        .filter(|c| c.r#type == t)
        .collect()
}

/// Go's `validateCertificateSigningRequestUpdate`.
fn validate_update(
    new: &CertificateSigningRequest,
    old: &CertificateSigningRequest,
    opts: Options,
) -> ErrorList {
    let mut errs = validate(new, opts);
    let status = Path::new("status");
    let conditions = status.child("conditions");
    for t in [APPROVED, DENIED, FAILED] {
        if find_conditions(new, t).len() < find_conditions(old, t).len() {
            errs.push(Error::forbidden(
                &conditions,
                format!("updates may not remove a condition of type \"{t}\""),
            ));
        }
    }
    if !opts.allow_setting_approval_conditions {
        for t in [APPROVED, DENIED] {
            let (o, n) = (find_conditions(old, t), find_conditions(new, t));
            if n.len() > o.len() {
                errs.push(Error::forbidden(
                    &conditions,
                    format!("updates may not add a condition of type \"{t}\""),
                ));
            } else if n.len() == o.len() && n != o {
                // Go appends `diff.Diff` of the two internal lists.
                errs.push(Error::forbidden(
                    &conditions,
                    with_internal_list_diff(
                        &format!("updates may not modify a condition of type \"{t}\""),
                        "certificates.CertificateSigningRequestCondition",
                        &o,
                        &n,
                    ),
                ));
            }
        }
    }
    let (new_cert, old_cert) = (
        bytes_of(&new.status.certificate),
        bytes_of(&old.status.certificate),
    );
    if new_cert != old_cert {
        let certificate = status.child("certificate");
        if !opts.allow_setting_certificate {
            errs.push(Error::forbidden(
                &certificate,
                "updates may not set certificate content",
            ));
        } else if !old_cert.is_empty() {
            errs.push(Error::forbidden(
                &certificate,
                "updates may not modify existing certificate content",
            ));
        }
    }
    errs.extend(validate_object_meta_update(
        &new.metadata,
        &old.metadata,
        &Path::new("metadata"),
    ));
    errs
}

/// Go's `ValidateCertificateSigningRequestCreate`: the metadata (any name), a PEM PKCS#10
/// request whose signature verifies, known and unique usages, the signer name (not the
/// legacy one), an expiration of at least 600 seconds, well-formed conditions, and
/// PEM certificates in the status.
pub fn validate_certificate_signing_request(csr: &CertificateSigningRequest) -> ErrorList {
    validate(csr, options(csr, None))
}

/// Go's `ValidateCertificateSigningRequestUpdate`: an update of the object itself, which
/// may neither add nor change Approved/Denied conditions nor set the certificate.
pub fn validate_certificate_signing_request_update(
    new: &CertificateSigningRequest,
    old: &CertificateSigningRequest,
) -> ErrorList {
    validate_update(new, old, options(new, Some(old)))
}

/// Go's `ValidateCertificateSigningRequestStatusUpdate`: an update through `/status`,
/// which may set the certificate once.
pub fn validate_certificate_signing_request_status_update(
    new: &CertificateSigningRequest,
    old: &CertificateSigningRequest,
) -> ErrorList {
    let opts = Options {
        allow_setting_certificate: true,
        ..options(new, Some(old))
    };
    validate_update(new, old, opts)
}

/// Go's `ValidateCertificateSigningRequestApprovalUpdate`: an update through
/// `/approval`, which may add or change Approved/Denied conditions.
pub fn validate_certificate_signing_request_approval_update(
    new: &CertificateSigningRequest,
    old: &CertificateSigningRequest,
) -> ErrorList {
    let opts = Options {
        allow_setting_approval_conditions: true,
        ..options(new, Some(old))
    };
    validate_update(new, old, opts)
}
