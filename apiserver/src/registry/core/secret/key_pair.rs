//! Whether a certificate and a private key, both PEM, form a key pair: what Go's
//! `crypto/tls.X509KeyPair` checks, with its error texts, which Go's Secret strategy
//! turns into a warning for a `kubernetes.io/tls` Secret.
//!
//! PEM is read with `x509-parser`'s reader and certificates with its parser; the keys'
//! DER (PKCS #1, PKCS #8, SEC 1) is read here. An RSA key matches when its modulus and
//! exponent are the certificate's; an ECDSA (P-256, P-384) or Ed25519 key when `ring`,
//! given the private key and the certificate's public key, finds them consistent. What
//! differs from Go: a curve `ring` lacks (P-521) is reported as not matching, and a key
//! or certificate is parsed less strictly (an RSA key's primes are not checked).

use ring::signature::{
    ECDSA_P256_SHA256_FIXED_SIGNING, ECDSA_P384_SHA384_FIXED_SIGNING, EcdsaKeyPair, Ed25519KeyPair,
};
use x509_parser::certificate::X509Certificate;
use x509_parser::pem::Pem;
use x509_parser::prelude::FromDer;
use x509_parser::public_key::PublicKey as CertKey;

const OID_RSA: &str = "1.2.840.113549.1.1.1";
const OID_EC: &str = "1.2.840.10045.2.1";
const OID_ED25519: &str = "1.3.101.112";
const OID_X25519: &str = "1.3.101.110";
const OID_P256: &str = "1.2.840.10045.3.1.7";
const OID_P384: &str = "1.3.132.0.34";

/// Go's `pem.Decode` loop: every block's type and bytes, in order.
fn blocks(pem: &[u8]) -> Vec<(String, Vec<u8>)> {
    Pem::iter_from_buffer(pem)
        .map_while(Result::ok)
        .map(|p| (p.label, p.contents))
        .collect()
}

/// Go's `%v` of a `[]string`.
fn go_list(items: &[String]) -> String {
    format!("[{}]", items.join(" "))
}

/// `None` when `cert_pem` and `key_pem` form a key pair, else Go's error text.
pub fn x509_key_pair_error(cert_pem: &[u8], key_pem: &[u8]) -> Option<String> {
    let mut certs = Vec::new();
    let mut skipped = Vec::new();
    for (kind, der) in blocks(cert_pem) {
        if kind == "CERTIFICATE" {
            certs.push(der);
        } else {
            skipped.push(kind);
        }
    }
    let Some(cert_der) = certs.first() else {
        return Some(if skipped.is_empty() {
            "tls: failed to find any PEM data in certificate input".to_owned()
        } else if skipped.len() == 1 && skipped[0].ends_with("PRIVATE KEY") {
            "tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched".to_owned()
        } else {
            format!(
                "tls: failed to find \"CERTIFICATE\" PEM block in certificate input after skipping PEM blocks of the following types: {}",
                go_list(&skipped)
            )
        });
    };
    let mut skipped = Vec::new();
    let mut key_der = None;
    for (kind, der) in blocks(key_pem) {
        if kind == "PRIVATE KEY" || kind.ends_with(" PRIVATE KEY") {
            key_der = Some(der);
            break;
        }
        skipped.push(kind);
    }
    let Some(key_der) = key_der else {
        return Some(if skipped.is_empty() {
            "tls: failed to find any PEM data in key input".to_owned()
        } else if skipped.len() == 1 && skipped[0] == "CERTIFICATE" {
            "tls: found a certificate rather than a key in the PEM for the private key".to_owned()
        } else {
            format!(
                "tls: failed to find PEM block with type ending in \"PRIVATE KEY\" in key input after skipping PEM blocks of the following types: {}",
                go_list(&skipped)
            )
        });
    };
    let public = match certificate_key(cert_der) {
        Ok(k) => k,
        Err(e) => return Some(e.to_owned()),
    };
    let private = match parse_private_key(&key_der) {
        Ok(k) => k,
        Err(e) => return Some(e.to_owned()),
    };
    match keys_match(&public, &private) {
        Ok(()) => None,
        Err(e) => Some(e.to_owned()),
    }
}

/// A certificate's public key, as far as the match needs it.
#[derive(Debug, PartialEq, Eq)]
enum Public {
    Rsa { n: Vec<u8>, e: Vec<u8> },
    Ec { curve: String, point: Vec<u8> },
    Ed25519(Vec<u8>),
    Other,
}

/// A private key as Go's `parsePrivateKey` finds it.
#[derive(Debug, PartialEq, Eq)]
enum Private {
    Rsa { n: Vec<u8>, e: Vec<u8> },
    Ec { curve: String, scalar: Vec<u8> },
    Ed25519 { seed: Vec<u8> },
}

/// Go's `x509.ParseCertificate` of the first certificate, to its public key.
fn certificate_key(der: &[u8]) -> Result<Public, &'static str> {
    let (rest, cert) = X509Certificate::from_der(der).map_err(|_| "x509: malformed certificate")?;
    if !rest.is_empty() {
        return Err("x509: trailing data");
    }
    let spki = cert.public_key();
    let oid = spki.algorithm.algorithm.to_id_string();
    Ok(match oid.as_str() {
        OID_RSA => match spki.parsed() {
            Ok(CertKey::RSA(k)) => Public::Rsa {
                n: unsigned(k.modulus).to_vec(),
                e: unsigned(k.exponent).to_vec(),
            },
            _ => return Err("x509: invalid RSA public key"),
        },
        OID_EC => {
            let curve = spki
                .algorithm
                .parameters
                .as_ref()
                .and_then(|p| p.as_oid().ok())
                .map(|o| o.to_id_string())
                .unwrap_or_default();
            Public::Ec {
                curve,
                point: spki.subject_public_key.data.to_vec(),
            }
        }
        OID_ED25519 => Public::Ed25519(spki.subject_public_key.data.to_vec()),
        _ => Public::Other,
    })
}

/// Go's `parsePrivateKey`: PKCS #1, then PKCS #8, then SEC 1.
fn parse_private_key(der: &[u8]) -> Result<Private, &'static str> {
    if let Some(k) = pkcs1(der) {
        return Ok(k);
    }
    match pkcs8(der) {
        Some(Some(k)) => return Ok(k),
        Some(None) => return Err("tls: found unknown private key type in PKCS#8 wrapping"),
        None => {}
    }
    sec1(der, None).ok_or("tls: failed to parse private key")
}

/// Go's `tls.X509KeyPair` comparison of the two keys.
fn keys_match(public: &Public, private: &Private) -> Result<(), &'static str> {
    const MISMATCH: &str = "tls: private key does not match public key";
    const TYPES: &str = "tls: private key type does not match public key type";
    match (public, private) {
        (Public::Rsa { n, e }, Private::Rsa { n: pn, e: pe }) => {
            if n == pn && e == pe {
                Ok(())
            } else {
                Err(MISMATCH)
            }
        }
        (Public::Ec { curve, point }, Private::Ec { curve: pc, scalar }) => {
            let alg = match curve.as_str() {
                OID_P256 => &ECDSA_P256_SHA256_FIXED_SIGNING,
                OID_P384 => &ECDSA_P384_SHA384_FIXED_SIGNING,
                _ => return Err(MISMATCH),
            };
            if curve != pc {
                return Err(MISMATCH);
            }
            let rng = ring::rand::SystemRandom::new();
            EcdsaKeyPair::from_private_key_and_public_key(alg, scalar, point, &rng)
                .map(|_| ())
                .map_err(|_| MISMATCH)
        }
        (Public::Ed25519(public), Private::Ed25519 { seed }) => {
            Ed25519KeyPair::from_seed_and_public_key(seed, public)
                .map(|_| ())
                .map_err(|_| MISMATCH)
        }
        (Public::Other, _) => Err("tls: unknown public key algorithm"),
        _ => Err(TYPES),
    }
}

// --- DER --------------------------------------------------------------------------------

const SEQUENCE: u8 = 0x30;
const INTEGER: u8 = 0x02;
const OCTET_STRING: u8 = 0x04;
const OID: u8 = 0x06;
const BIT_STRING: u8 = 0x03;

/// One DER element: its tag, its contents and what follows it.
fn tlv(der: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let (&tag, rest) = der.split_first()?;
    let (&first, rest) = rest.split_first()?;
    let (len, rest) = if first < 0x80 {
        (usize::from(first), rest)
    } else {
        let n = usize::from(first & 0x7f);
        if n == 0 || n > 4 {
            return None;
        }
        let (bytes, rest) = rest.split_at_checked(n)?;
        let len = bytes
            .iter()
            .fold(0usize, |acc, b| (acc << 8) | usize::from(*b));
        (len, rest)
    };
    let (contents, rest) = rest.split_at_checked(len)?;
    Some((tag, contents, rest))
}

/// The contents of an element of tag `want`, and what follows it.
fn expect(der: &[u8], want: u8) -> Option<(&[u8], &[u8])> {
    let (tag, contents, rest) = tlv(der)?;
    (tag == want).then_some((contents, rest))
}

/// The contents of the one SEQUENCE `der` is.
fn whole_sequence(der: &[u8]) -> Option<&[u8]> {
    let (contents, rest) = expect(der, SEQUENCE)?;
    rest.is_empty().then_some(contents)
}

/// An INTEGER's magnitude, without the sign byte DER puts before a high bit.
fn unsigned(bytes: &[u8]) -> &[u8] {
    match bytes {
        [0, rest @ ..] if !rest.is_empty() => rest,
        _ => bytes,
    }
}

/// An OID's dotted form.
fn oid_string(contents: &[u8]) -> Option<String> {
    if contents.is_empty() {
        return None;
    }
    Some(x509_parser::asn1_rs::Oid::new(std::borrow::Cow::Borrowed(contents)).to_id_string())
}

/// PKCS #1 `RSAPrivateKey`: version 0, then n and e (the rest is not checked).
fn pkcs1(der: &[u8]) -> Option<Private> {
    let body = whole_sequence(der)?;
    let (version, body) = expect(body, INTEGER)?;
    if version != [0] {
        return None;
    }
    let (n, body) = expect(body, INTEGER)?;
    let (e, body) = expect(body, INTEGER)?;
    // d, p, q, dp, dq, qinv must be there.
    let mut rest = body;
    for _ in 0..6 {
        rest = expect(rest, INTEGER)?.1;
    }
    Some(Private::Rsa {
        n: unsigned(n).to_vec(),
        e: unsigned(e).to_vec(),
    })
}

/// PKCS #8 `PrivateKeyInfo`: `None` when it is not one, `Some(None)` when it wraps a key
/// of a type `tls` does not take.
fn pkcs8(der: &[u8]) -> Option<Option<Private>> {
    let body = whole_sequence(der)?;
    let (_version, body) = expect(body, INTEGER)?;
    let (alg, body) = expect(body, SEQUENCE)?;
    let (key, _) = expect(body, OCTET_STRING)?;
    let (oid, params) = expect(alg, OID)?;
    let oid = oid_string(oid)?;
    Some(match oid.as_str() {
        OID_RSA => Some(pkcs1(key)?),
        OID_EC => {
            let (curve, _) = expect(params, OID)?;
            Some(sec1(key, Some(oid_string(curve)?))?)
        }
        OID_ED25519 => {
            let (seed, rest) = expect(key, OCTET_STRING)?;
            if seed.len() != 32 || !rest.is_empty() {
                return None;
            }
            Some(Private::Ed25519 {
                seed: seed.to_vec(),
            })
        }
        // An ECDH key: Go parses it, tls does not take it.
        OID_X25519 => None,
        // Go's PKCS #8 parser refuses it; SEC 1 is tried next.
        _ => return None,
    })
}

/// SEC 1 `ECPrivateKey`: version 1, the scalar, the curve (`[0]`, unless PKCS #8 named
/// it).
fn sec1(der: &[u8], curve: Option<String>) -> Option<Private> {
    let body = whole_sequence(der)?;
    let (version, body) = expect(body, INTEGER)?;
    if version != [1] {
        return None;
    }
    let (scalar, mut body) = expect(body, OCTET_STRING)?;
    let mut named = None;
    while let Some((tag, contents, rest)) = tlv(body) {
        if tag == 0xa0 {
            named = oid_string(expect(contents, OID)?.0);
        } else if tag == 0xa1 {
            expect(contents, BIT_STRING)?;
        }
        body = rest;
    }
    Some(Private::Ec {
        curve: curve.or(named)?,
        scalar: scalar.to_vec(),
    })
}

#[cfg(test)]
mod tests;
