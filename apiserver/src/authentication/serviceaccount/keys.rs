//! The keys service-account tokens are signed and verified with: ECDSA P-256 (ES256)
//! and RSA (RS256) keys read from PEM, and Go's key id (the SHA-256 of the public key's
//! PKIX DER, base64url).

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey};
use ring::rand::SystemRandom;
use ring::signature::{ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair, KeyPair, RsaKeyPair};
use rustls_pki_types::pem::{PemObject, SectionKind};
use sha2::{Digest, Sha256};

/// Why a key could not be used.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    /// The PEM holds no key of a kind this server signs or verifies with.
    #[error("{0}")]
    Unsupported(String),
    /// The key did not parse.
    #[error("invalid key: {0}")]
    Invalid(String),
}

/// A key that checks token signatures, with Go's key id (SHA-256 of its PKIX DER,
/// base64url).
#[derive(Clone)]
pub struct VerifyingKey {
    pub(super) algorithm: Algorithm,
    pub(super) key: DecodingKey,
    pub(super) kid: String,
}

impl std::fmt::Debug for VerifyingKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VerifyingKey")
            .field("algorithm", &self.algorithm)
            .field("kid", &self.kid)
            .finish()
    }
}

/// The key tokens are signed with: ES256 (an ECDSA P-256 key, the generated kind) or
/// RS256 (RSA).
#[derive(Clone)]
pub struct SigningKey {
    pub(super) algorithm: Algorithm,
    pub(super) key: EncodingKey,
    pub(super) public: VerifyingKey,
    pkcs8_pem: Option<String>,
}

impl std::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SigningKey")
            .field("algorithm", &self.algorithm)
            .field("kid", &self.public.kid)
            .finish()
    }
}

/// DER of a length.
fn der_length(len: usize, out: &mut Vec<u8>) {
    if len < 0x80 {
        out.push(len as u8);
    } else {
        let bytes: Vec<u8> = len
            .to_be_bytes()
            .into_iter()
            .skip_while(|b| *b == 0)
            .collect();
        out.push(0x80 | bytes.len() as u8);
        out.extend(bytes);
    }
}

fn der(tag: u8, content: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    der_length(content.len(), &mut out);
    out.extend_from_slice(content);
    out
}

/// The PKIX SubjectPublicKeyInfo DER of a public key, for Go's key id.
fn spki(algorithm: Algorithm, public: &[u8]) -> Vec<u8> {
    // rsaEncryption with NULL parameters; id-ecPublicKey with prime256v1.
    let id: &[u8] = match algorithm {
        Algorithm::ES256 => &[
            0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a, 0x86, 0x48,
            0xce, 0x3d, 0x03, 0x01, 0x07,
        ],
        _ => &[
            0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00,
        ],
    };
    let mut bits = vec![0u8];
    bits.extend_from_slice(public);
    let mut content = der(0x30, id);
    content.extend(der(0x03, &bits));
    der(0x30, &content)
}

fn key_id(algorithm: Algorithm, public: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(spki(algorithm, public)))
}

/// The verifying key of an ECDSA P-256 point (uncompressed).
fn ec_verifying(point: &[u8]) -> Result<VerifyingKey, KeyError> {
    if point.len() != 65 || point[0] != 4 {
        return Err(KeyError::Invalid(
            "not an uncompressed P-256 point".to_owned(),
        ));
    }
    let key = DecodingKey::from_ec_components(
        &URL_SAFE_NO_PAD.encode(&point[1..33]),
        &URL_SAFE_NO_PAD.encode(&point[33..]),
    )
    .map_err(|e| KeyError::Invalid(e.to_string()))?;
    Ok(VerifyingKey {
        algorithm: Algorithm::ES256,
        key,
        kid: key_id(Algorithm::ES256, point),
    })
}

/// The verifying key of an RSA public key (PKCS#1 DER).
fn rsa_verifying(pkcs1: &[u8]) -> VerifyingKey {
    VerifyingKey {
        algorithm: Algorithm::RS256,
        key: DecodingKey::from_rsa_der(pkcs1),
        kid: key_id(Algorithm::RS256, pkcs1),
    }
}

impl SigningKey {
    /// A new ECDSA P-256 key.
    pub fn generate() -> Result<SigningKey, KeyError> {
        let rng = SystemRandom::new();
        let pkcs8 = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &rng)
            .map_err(|e| KeyError::Invalid(e.to_string()))?;
        SigningKey::from_ec_pkcs8(pkcs8.as_ref())
    }

    fn from_ec_pkcs8(der: &[u8]) -> Result<SigningKey, KeyError> {
        let rng = SystemRandom::new();
        let pair = EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, der, &rng)
            .map_err(|e| {
                KeyError::Invalid(format!(
                    "PRIVATE KEY: not an ECDSA P-256 key ({e}); RSA keys are read as RSA PRIVATE KEY (PKCS#1)"
                ))
            })?;
        let pem = rustls_pki_types::PrivatePkcs8KeyDer::from(der.to_vec());
        Ok(SigningKey {
            algorithm: Algorithm::ES256,
            key: EncodingKey::from_ec_der(der),
            public: ec_verifying(pair.public_key().as_ref())?,
            pkcs8_pem: Some(pem_encode("PRIVATE KEY", pem.secret_pkcs8_der())),
        })
    }

    fn from_rsa_pkcs1(der: &[u8]) -> Result<SigningKey, KeyError> {
        let pair = RsaKeyPair::from_der(der)
            .map_err(|e| KeyError::Invalid(format!("RSA PKCS#1 key: {e}")))?;
        Ok(SigningKey {
            algorithm: Algorithm::RS256,
            key: EncodingKey::from_rsa_der(der),
            public: rsa_verifying(pair.public().as_ref()),
            pkcs8_pem: None,
        })
    }

    /// The private key of a PEM file: an ECDSA P-256 key in PKCS#8 (`PRIVATE KEY`) or an
    /// RSA key in PKCS#1 (`RSA PRIVATE KEY`).
    pub fn from_pem(pem: &[u8]) -> Result<SigningKey, KeyError> {
        for section in <(SectionKind, Vec<u8>)>::pem_slice_iter(pem) {
            let (kind, der) = section.map_err(|e| KeyError::Invalid(e.to_string()))?;
            match kind {
                SectionKind::PrivateKey => return SigningKey::from_ec_pkcs8(&der),
                SectionKind::RsaPrivateKey => return SigningKey::from_rsa_pkcs1(&der),
                SectionKind::EcPrivateKey => {
                    return Err(KeyError::Unsupported(
                        "an EC PRIVATE KEY (SEC1) is not supported: convert it to PKCS#8 (openssl pkcs8 -topk8 -nocrypt)".to_owned(),
                    ));
                }
                _ => {}
            }
        }
        Err(KeyError::Unsupported(
            "no private key found (PRIVATE KEY with an ECDSA P-256 key, or RSA PRIVATE KEY)"
                .to_owned(),
        ))
    }

    /// The key as PKCS#8 PEM, to be kept and read back with [`from_pem`](Self::from_pem)
    /// (generated keys only; a key read from a file is in that file).
    pub fn to_pem(&self) -> Option<&str> {
        self.pkcs8_pem.as_deref()
    }

    /// The key that verifies its signatures.
    pub fn verifying_key(&self) -> &VerifyingKey {
        &self.public
    }
}

impl VerifyingKey {
    /// The public keys of a PEM file (`--service-account-key-file`): `PUBLIC KEY`
    /// (PKIX, RSA or ECDSA P-256), `RSA PUBLIC KEY`, or private keys, whose public halves
    /// are taken.
    pub fn from_pem(pem: &[u8]) -> Result<Vec<VerifyingKey>, KeyError> {
        let mut keys = Vec::new();
        for section in <(SectionKind, Vec<u8>)>::pem_slice_iter(pem) {
            let (kind, der) = section.map_err(|e| KeyError::Invalid(e.to_string()))?;
            match kind {
                SectionKind::PrivateKey | SectionKind::RsaPrivateKey => {
                    keys.push(SigningKey::from_pem(pem_encode_kind(kind, &der).as_bytes())?.public);
                }
                SectionKind::PublicKey => keys.push(public_from_spki(&der)?),
                _ => {}
            }
        }
        if keys.is_empty() {
            return Err(KeyError::Unsupported(
                "no public or private key found".to_owned(),
            ));
        }
        Ok(keys)
    }

    /// Its key id.
    pub fn kid(&self) -> &str {
        &self.kid
    }
}

fn public_from_spki(der: &[u8]) -> Result<VerifyingKey, KeyError> {
    // The algorithm identifier comes first; the key is the BIT STRING's content that
    // ends the structure.
    let is_ec = der
        .windows(7)
        .any(|w| w == [0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01]);
    let pem = pem_encode("PUBLIC KEY", der);
    if is_ec {
        let point = der
            .get(der.len().saturating_sub(65)..)
            .ok_or_else(|| KeyError::Invalid("short EC public key".to_owned()))?;
        ec_verifying(point)
    } else {
        let key = DecodingKey::from_rsa_pem(pem.as_bytes())
            .map_err(|e| KeyError::Invalid(e.to_string()))?;
        Ok(VerifyingKey {
            algorithm: Algorithm::RS256,
            key,
            kid: URL_SAFE_NO_PAD.encode(Sha256::digest(der)),
        })
    }
}

fn pem_encode(label: &str, der: &[u8]) -> String {
    let body = base64::engine::general_purpose::STANDARD.encode(der);
    let mut out = format!("-----BEGIN {label}-----\n");
    for chunk in body.as_bytes().chunks(64) {
        out.push_str(&String::from_utf8_lossy(chunk));
        out.push('\n');
    }
    out.push_str(&format!("-----END {label}-----\n"));
    out
}

fn pem_encode_kind(kind: SectionKind, der: &[u8]) -> String {
    let label = match kind {
        SectionKind::RsaPrivateKey => "RSA PRIVATE KEY",
        _ => "PRIVATE KEY",
    };
    pem_encode(label, der)
}
