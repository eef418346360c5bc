//! The parts of Go's `crypto/x509` the certificates validators call: parsing certificates,
//! PKCS#10 requests and PKIX public keys (rusticata's `x509-parser`), and checking a
//! request's signature (Go's `checkSignature`, with `ring`), with Go's error texts.
//!
//! Where `ring` has no verifier for a combination Go accepts (ECDSA over P-521, ECDSA
//! with SHA-1 or SHA-512, RSA-PSS or SHA-384 with keys under 2048 bits), the signature is
//! reported as Go reports an algorithm it does not implement.

use ring::signature::{self as sig, UnparsedPublicKey, VerificationAlgorithm};
use x509_parser::certification_request::X509CertificationRequest;
use x509_parser::prelude::{FromDer, ParsedExtension, X509Certificate};
use x509_parser::signature_algorithm::SignatureAlgorithm;
use x509_parser::x509::{AlgorithmIdentifier, SubjectPublicKeyInfo};

const RSA: &str = "1.2.840.113549.1.1.1";
const EC: &str = "1.2.840.10045.2.1";
const ED25519: &str = "1.3.101.112";
const DSA: &str = "1.2.840.10040.4.1";
const P256: &str = "1.2.840.10045.3.1.7";
const P384: &str = "1.3.132.0.34";
const P521: &str = "1.3.132.0.35";

/// Go's `x509.ErrUnsupportedAlgorithm`.
pub(crate) const UNSUPPORTED: &str = "x509: cannot verify signature: algorithm unimplemented";

/// A public key as Go's `parsePublicKey` gives it (`*rsa.PublicKey`, `*ecdsa.PublicKey`,
/// `ed25519.PublicKey`), or another algorithm Go leaves unparsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum PublicKey {
    /// The modulus size in bits (Go's `Size()*8`) and the `RSAPublicKey` DER ring reads.
    Rsa { bits: usize, der: Vec<u8> },
    /// The curve's name (Go's `Params().Name`) and the uncompressed point.
    Ecdsa { curve: &'static str, point: Vec<u8> },
    /// The 32 key bytes.
    Ed25519(Vec<u8>),
    /// An algorithm Go does not parse a key for.
    Other,
}

impl PublicKey {
    fn go_type(&self) -> &'static str {
        match self {
            PublicKey::Rsa { .. } => "*rsa.PublicKey",
            PublicKey::Ecdsa { .. } => "*ecdsa.PublicKey",
            PublicKey::Ed25519(_) => "ed25519.PublicKey",
            PublicKey::Other => "<nil>",
        }
    }
}

fn oid_of(alg: &AlgorithmIdentifier<'_>) -> String {
    alg.algorithm.to_id_string()
}

/// Go's `parsePublicKey`: the key of a `SubjectPublicKeyInfo`, or Go's error text.
pub(crate) fn parse_spki(spki: &SubjectPublicKeyInfo<'_>) -> Result<PublicKey, &'static str> {
    let data = spki.subject_public_key.data.as_ref();
    match oid_of(&spki.algorithm).as_str() {
        RSA => {
            let Ok(x509_parser::public_key::PublicKey::RSA(key)) = spki.parsed() else {
                return Err("x509: invalid RSA public key");
            };
            let modulus: &[u8] = match key.modulus.iter().position(|&b| b != 0) {
                Some(at) => key.modulus.get(at..).unwrap_or_default(),
                None => return Err("x509: RSA modulus is not a positive number"),
            };
            if key.exponent.iter().all(|&b| b == 0) {
                return Err("x509: RSA public exponent is not a positive number");
            }
            let top = modulus.first().copied().unwrap_or(0);
            let bit_len = (modulus.len() - 1) * 8 + (8 - top.leading_zeros() as usize);
            Ok(PublicKey::Rsa {
                bits: bit_len.div_ceil(8) * 8,
                der: data.to_vec(),
            })
        }
        EC => {
            let curve = spki
                .algorithm
                .parameters
                .as_ref()
                .and_then(|p| p.as_oid().ok())
                .map(|o| o.to_id_string());
            let (curve, size) = match curve.as_deref() {
                Some(P256) => ("P-256", 32),
                Some(P384) => ("P-384", 48),
                Some(P521) => ("P-521", 66),
                _ => return Err("x509: unsupported elliptic curve"),
            };
            if data.len() != 1 + 2 * size || data.first() != Some(&4) {
                return Err("x509: failed to unmarshal elliptic curve point");
            }
            Ok(PublicKey::Ecdsa {
                curve,
                point: data.to_vec(),
            })
        }
        ED25519 => {
            if spki.algorithm.parameters.is_some() {
                return Err("x509: Ed25519 key encoded with illegal parameters");
            }
            if data.len() != 32 {
                return Err("x509: wrong Ed25519 public key size");
            }
            Ok(PublicKey::Ed25519(data.to_vec()))
        }
        _ => Ok(PublicKey::Other),
    }
}

/// Go's `x509.ParsePKIXPublicKey`, whether it succeeds: a DER `SubjectPublicKeyInfo`
/// and nothing after it, of an algorithm Go knows.
pub(crate) fn parse_pkix_public_key(der: &[u8]) -> Option<PublicKey> {
    let (rest, spki) = SubjectPublicKeyInfo::from_der(der).ok()?;
    if !rest.is_empty() {
        return None;
    }
    match parse_spki(&spki).ok()? {
        // Go parses DSA keys too (and then refuses them as of an unknown type); any
        // other algorithm is a parse error.
        PublicKey::Other if oid_of(&spki.algorithm) != DSA => None,
        key => Some(key),
    }
}

/// A parsed PKCS#10 request: its key, what was signed, and how.
pub(crate) struct CertificateRequest {
    pub key: Result<PublicKey, &'static str>,
    tbs: Vec<u8>,
    algorithm: Algorithm,
    signature: Vec<u8>,
}

/// Go's `x509.ParseCertificateRequest`: `None` when the DER is not a request (Go's
/// `encoding/asn1` error, whose text is not reproduced), or when bytes follow it.
pub(crate) fn parse_certificate_request(der: &[u8]) -> Option<CertificateRequest> {
    let (rest, csr) = X509CertificationRequest::from_der(der).ok()?;
    if !rest.is_empty() {
        return None;
    }
    let info = &csr.certification_request_info;
    Some(CertificateRequest {
        key: parse_spki(&info.subject_pki),
        tbs: info.raw.to_vec(),
        algorithm: Algorithm::of(&csr.signature_algorithm),
        signature: csr.signature_value.data.to_vec(),
    })
}

impl CertificateRequest {
    /// Go's `CertificateRequest.CheckSignature` (SHA-1 allowed, as for every request).
    pub(crate) fn check_signature(&self) -> Result<(), String> {
        let key = match &self.key {
            Ok(key) => key,
            Err(msg) => return Err((*msg).to_owned()),
        };
        check_signature(&self.algorithm, &self.tbs, &self.signature, key)
    }
}

/// The hash and key type of a signature algorithm, as Go's `signatureAlgorithmDetails`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Hash {
    None,
    Md5,
    Sha1,
    Sha256,
    Sha384,
    Sha512,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum KeyAlgorithm {
    Rsa,
    RsaPss,
    Dsa,
    Ecdsa,
    Ed25519,
}

#[derive(Debug, Clone, Copy)]
struct Algorithm {
    /// `None`: an algorithm Go does not know (`UnknownSignatureAlgorithm`).
    known: Option<(Hash, KeyAlgorithm, &'static str)>,
}

impl Algorithm {
    fn of(alg: &AlgorithmIdentifier<'_>) -> Algorithm {
        use Hash::*;
        use KeyAlgorithm::*;
        let known = match oid_of(alg).as_str() {
            "1.2.840.113549.1.1.4" => Some((Md5, Rsa, "MD5-RSA")),
            "1.2.840.113549.1.1.5" | "1.3.14.3.2.29" => Some((Sha1, Rsa, "SHA1-RSA")),
            "1.2.840.113549.1.1.11" => Some((Sha256, Rsa, "SHA256-RSA")),
            "1.2.840.113549.1.1.12" => Some((Sha384, Rsa, "SHA384-RSA")),
            "1.2.840.113549.1.1.13" => Some((Sha512, Rsa, "SHA512-RSA")),
            "1.2.840.10040.4.3" => Some((Sha1, Dsa, "DSA-SHA1")),
            "2.16.840.1.101.3.4.3.2" => Some((Sha256, Dsa, "DSA-SHA256")),
            "1.2.840.10045.4.1" => Some((Sha1, Ecdsa, "ECDSA-SHA1")),
            "1.2.840.10045.4.3.2" => Some((Sha256, Ecdsa, "ECDSA-SHA256")),
            "1.2.840.10045.4.3.3" => Some((Sha384, Ecdsa, "ECDSA-SHA384")),
            "1.2.840.10045.4.3.4" => Some((Sha512, Ecdsa, "ECDSA-SHA512")),
            ED25519 => Some((None, Ed25519, "Ed25519")),
            // Go knows RSA-PSS only with its parameters as RFC 4055 fixes them: MGF1 with
            // the same hash, and a salt as long as the hash.
            "1.2.840.113549.1.1.10" => match SignatureAlgorithm::try_from(alg) {
                Ok(SignatureAlgorithm::RSASSA_PSS(params)) => {
                    let hash = match params.hash_algorithm_oid().to_id_string().as_str() {
                        "2.16.840.1.101.3.4.2.1" => Some((Sha256, 32, "SHA256-RSAPSS")),
                        "2.16.840.1.101.3.4.2.2" => Some((Sha384, 48, "SHA384-RSAPSS")),
                        "2.16.840.1.101.3.4.2.3" => Some((Sha512, 64, "SHA512-RSAPSS")),
                        _ => Option::None,
                    };
                    let mgf_hash = params
                        .mask_gen_algorithm()
                        .ok()
                        .map(|m| m.hash.to_id_string());
                    hash.filter(|(_, len, _)| {
                        params.salt_length() == *len
                            && mgf_hash.as_deref()
                                == Some(&*params.hash_algorithm_oid().to_id_string())
                    })
                    .map(|(h, _, name)| (h, RsaPss, name))
                }
                _ => Option::None,
            },
            _ => Option::None,
        };
        Algorithm { known }
    }
}

/// Go's `checkSignature` for a request (SHA-1 allowed).
fn check_signature(
    algorithm: &Algorithm,
    signed: &[u8],
    signature: &[u8],
    key: &PublicKey,
) -> Result<(), String> {
    let Some((hash, key_algorithm, name)) = algorithm.known else {
        return Err(UNSUPPORTED.to_owned());
    };
    if hash == Hash::Md5 {
        return Err(format!(
            "x509: cannot verify signature: insecure algorithm {name}"
        ));
    }
    let expected = match key {
        PublicKey::Rsa { .. } => KeyAlgorithm::Rsa,
        PublicKey::Ecdsa { .. } => KeyAlgorithm::Ecdsa,
        PublicKey::Ed25519(_) => KeyAlgorithm::Ed25519,
        PublicKey::Other => return Err(UNSUPPORTED.to_owned()),
    };
    let family = if key_algorithm == KeyAlgorithm::RsaPss {
        KeyAlgorithm::Rsa
    } else {
        key_algorithm
    };
    if family == KeyAlgorithm::Dsa {
        return Err(UNSUPPORTED.to_owned());
    }
    if family != expected {
        let wanted = match family {
            KeyAlgorithm::Rsa | KeyAlgorithm::RsaPss => "RSA",
            KeyAlgorithm::Dsa => "DSA",
            KeyAlgorithm::Ecdsa => "ECDSA",
            KeyAlgorithm::Ed25519 => "Ed25519",
        };
        return Err(format!(
            "x509: signature algorithm specifies an {wanted} public key, but have public key of type {}",
            key.go_type()
        ));
    }
    let (verifier, key_bytes, failure): (Option<&dyn VerificationAlgorithm>, &[u8], &str) =
        match key {
            PublicKey::Rsa { bits, der } => {
                let legacy = *bits < 2048;
                let v: Option<&dyn VerificationAlgorithm> = match (key_algorithm, hash, legacy) {
                    (KeyAlgorithm::Rsa, Hash::Sha1, _) => {
                        Some(&sig::RSA_PKCS1_1024_8192_SHA1_FOR_LEGACY_USE_ONLY)
                    }
                    (KeyAlgorithm::Rsa, Hash::Sha256, true) => {
                        Some(&sig::RSA_PKCS1_1024_8192_SHA256_FOR_LEGACY_USE_ONLY)
                    }
                    (KeyAlgorithm::Rsa, Hash::Sha256, false) => {
                        Some(&sig::RSA_PKCS1_2048_8192_SHA256)
                    }
                    (KeyAlgorithm::Rsa, Hash::Sha384, false) => {
                        Some(&sig::RSA_PKCS1_2048_8192_SHA384)
                    }
                    (KeyAlgorithm::Rsa, Hash::Sha512, true) => {
                        Some(&sig::RSA_PKCS1_1024_8192_SHA512_FOR_LEGACY_USE_ONLY)
                    }
                    (KeyAlgorithm::Rsa, Hash::Sha512, false) => {
                        Some(&sig::RSA_PKCS1_2048_8192_SHA512)
                    }
                    (KeyAlgorithm::RsaPss, Hash::Sha256, false) => {
                        Some(&sig::RSA_PSS_2048_8192_SHA256)
                    }
                    (KeyAlgorithm::RsaPss, Hash::Sha384, false) => {
                        Some(&sig::RSA_PSS_2048_8192_SHA384)
                    }
                    (KeyAlgorithm::RsaPss, Hash::Sha512, false) => {
                        Some(&sig::RSA_PSS_2048_8192_SHA512)
                    }
                    _ => None,
                };
                (v, der, "crypto/rsa: verification error")
            }
            PublicKey::Ecdsa { curve, point } => {
                let v: Option<&dyn VerificationAlgorithm> = match (*curve, hash) {
                    ("P-256", Hash::Sha256) => Some(&sig::ECDSA_P256_SHA256_ASN1),
                    ("P-256", Hash::Sha384) => Some(&sig::ECDSA_P256_SHA384_ASN1),
                    ("P-384", Hash::Sha256) => Some(&sig::ECDSA_P384_SHA256_ASN1),
                    ("P-384", Hash::Sha384) => Some(&sig::ECDSA_P384_SHA384_ASN1),
                    _ => None,
                };
                (v, point, "x509: ECDSA verification failure")
            }
            PublicKey::Ed25519(k) => (Some(&sig::ED25519), k, "x509: Ed25519 verification failure"),
            PublicKey::Other => (None, &[], UNSUPPORTED),
        };
    let Some(verifier) = verifier else {
        return Err(UNSUPPORTED.to_owned());
    };
    UnparsedPublicKey::new(verifier, key_bytes)
        .verify(signed, signature)
        .map_err(|_| failure.to_owned())
}

/// Go's `ecdsa.VerifyASN1` over `sha256(message)`, `ed25519.Verify` over `message`, or
/// `rsa.VerifyPSS` with SHA-256 over `sha256(message)`: a proof that the holder of `key`
/// signed `message`. `None` when ring cannot check it (see the module's note).
pub(crate) fn verify_proof(key: &PublicKey, message: &[u8], signature: &[u8]) -> Option<bool> {
    let (verifier, key_bytes): (&dyn VerificationAlgorithm, &[u8]) = match key {
        PublicKey::Ed25519(k) => (&sig::ED25519, k),
        PublicKey::Ecdsa {
            curve: "P-256",
            point,
        } => (&sig::ECDSA_P256_SHA256_ASN1, point),
        PublicKey::Ecdsa {
            curve: "P-384",
            point,
        } => (&sig::ECDSA_P384_SHA256_ASN1, point),
        PublicKey::Rsa { bits, der } if *bits >= 2048 => (&sig::RSA_PSS_2048_8192_SHA256, der),
        _ => return None,
    };
    Some(
        UnparsedPublicKey::new(verifier, key_bytes)
            .verify(message, signature)
            .is_ok(),
    )
}

/// The parts of a certificate the validators read (Go's `x509.Certificate`).
pub(crate) struct Certificate {
    /// Its DER length (Go's `len(Raw)`).
    pub len: usize,
    /// A basic-constraints extension saying it is a CA.
    pub is_ca: bool,
}

/// Go's `x509.ParseCertificate` of the first certificate of `der`; `Err` carries Go's
/// text where it is one of the texts reproduced (see [`parse_certificates`]).
pub(crate) fn parse_certificate_prefix(der: &[u8]) -> Result<Certificate, &'static str> {
    // What Go's cryptobyte parser checks first: one DER SEQUENCE element.
    if der_element_len(der).is_none() {
        return Err("x509: malformed certificate");
    }
    let (rest, cert) =
        X509Certificate::from_der(der).map_err(|_| "x509: malformed tbs certificate")?;
    let is_ca = cert.extensions().iter().any(
        |ext| matches!(ext.parsed_extension(), ParsedExtension::BasicConstraints(bc) if bc.ca),
    );
    Ok(Certificate {
        len: der.len() - rest.len(),
        is_ca,
    })
}

/// Go's `x509.ParseCertificate`: exactly one certificate.
pub(crate) fn parse_certificate(der: &[u8]) -> Result<Certificate, &'static str> {
    let cert = parse_certificate_prefix(der)?;
    if cert.len != der.len() {
        return Err("x509: trailing data");
    }
    Ok(cert)
}

/// Go's `x509.ParseCertificates`: every certificate of concatenated DER. Go's texts are
/// reproduced for input that is not a DER element (`x509: malformed certificate`);
/// a certificate `x509-parser` refuses inside a well-formed element is reported as
/// `x509: malformed tbs certificate`, where Go names the part it could not read.
pub(crate) fn parse_certificates(mut der: &[u8]) -> Result<usize, &'static str> {
    let mut n = 0;
    while !der.is_empty() {
        let cert = parse_certificate_prefix(der)?;
        der = der.get(cert.len..).unwrap_or_default();
        n += 1;
    }
    Ok(n)
}

/// The length of the DER SEQUENCE element at the start of `der` (Go's
/// `cryptobyte.ReadASN1Element(SEQUENCE)`), if it is one.
fn der_element_len(der: &[u8]) -> Option<usize> {
    let (&tag, rest) = der.split_first()?;
    if tag != 0x30 {
        return None;
    }
    let (&first, rest) = rest.split_first()?;
    let (len, header) = if first & 0x80 == 0 {
        (usize::from(first), 2)
    } else {
        let n = usize::from(first & 0x7f);
        // Go's cryptobyte: at most 4 length bytes, minimal, and not under 128.
        if n == 0 || n > 4 {
            return None;
        }
        let bytes = rest.get(..n)?;
        if bytes.first() == Some(&0) {
            return None;
        }
        let len = bytes
            .iter()
            .fold(0usize, |acc, &b| (acc << 8) | usize::from(b));
        if len < 128 {
            return None;
        }
        (len, 2 + n)
    };
    let total = header.checked_add(len)?;
    (total <= der.len()).then_some(total)
}
