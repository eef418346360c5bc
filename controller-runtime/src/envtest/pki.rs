//! The credentials of an external control plane, made fresh for each start (Go's
//! envtest makes its own too): a CA, kube-apiserver's serving certificate for loopback,
//! the bearer token of an administrator in `system:masters` (`--token-auth-file`), and
//! the service-account signing key kube-apiserver requires.

use std::hash::{BuildHasher, Hasher};
use std::net::{IpAddr, Ipv4Addr};
use std::path::{Path, PathBuf};

use rcgen::{
    BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, KeyPair,
    KeyUsagePurpose, SanType,
};

use super::EnvtestError;

/// The user the token authenticates as.
pub(super) const ADMIN_USER: &str = "envtest-admin";

/// The files kube-apiserver is started with, and what a client needs.
#[derive(Debug)]
pub(super) struct Pki {
    /// The CA certificate (PEM) that signed the serving certificate.
    pub(super) ca_pem: String,
    /// The administrator's bearer token.
    pub(super) token: String,
    /// `--tls-cert-file`.
    pub(super) cert_file: PathBuf,
    /// `--tls-private-key-file`.
    pub(super) key_file: PathBuf,
    /// `--token-auth-file`.
    pub(super) token_file: PathBuf,
    /// `--service-account-signing-key-file` (the private key, PKCS#8).
    pub(super) service_account_key_file: PathBuf,
    /// `--service-account-key-file`: the public key, as kube-apiserver reads no PKCS#8
    /// private key there.
    pub(super) service_account_public_key_file: PathBuf,
}

/// A self-signed CA named `common_name` and its key (Go's `certs.NewTinyCA`).
pub(super) fn new_ca(common_name: &str) -> Result<(rcgen::Certificate, KeyPair), EnvtestError> {
    let certs = |e: rcgen::Error| EnvtestError::Certificates(e.to_string());
    let key = KeyPair::generate().map_err(certs)?;
    let mut params = CertificateParams::new(Vec::<String>::new()).map_err(certs)?;
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    params
        .distinguished_name
        .push(DnType::CommonName, common_name);
    params.key_usages = vec![
        KeyUsagePurpose::KeyCertSign,
        KeyUsagePurpose::CrlSign,
        KeyUsagePurpose::DigitalSignature,
    ];
    let ca = params.self_signed(&key).map_err(certs)?;
    Ok((ca, key))
}

impl Pki {
    /// Makes the credentials in `dir`.
    pub(super) fn create(dir: &Path) -> Result<Pki, EnvtestError> {
        let certs = |e: rcgen::Error| EnvtestError::Certificates(e.to_string());
        let (ca, ca_key) = new_ca("envtest CA")?;

        let key = KeyPair::generate().map_err(certs)?;
        let mut params = CertificateParams::new(vec!["localhost".to_owned()]).map_err(certs)?;
        params
            .distinguished_name
            .push(DnType::CommonName, "envtest kube-apiserver");
        params
            .subject_alt_names
            .push(SanType::IpAddress(IpAddr::V4(Ipv4Addr::LOCALHOST)));
        params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
        let cert = params.signed_by(&key, &ca, &ca_key).map_err(certs)?;
        let service_account = KeyPair::generate().map_err(certs)?;

        let token = random_token();
        let pki = Pki {
            ca_pem: ca.pem(),
            token: token.clone(),
            cert_file: dir.join("apiserver.crt"),
            key_file: dir.join("apiserver.key"),
            token_file: dir.join("tokens.csv"),
            service_account_key_file: dir.join("sa.key"),
            service_account_public_key_file: dir.join("sa.pub"),
        };
        write_private(&pki.cert_file, &cert.pem())?;
        write_private(&pki.key_file, &key.serialize_pem())?;
        // token,user,uid,"group1,group2": kube-apiserver's static token file.
        write_private(
            &pki.token_file,
            &format!("{token},{ADMIN_USER},{ADMIN_USER},\"system:masters\"\n"),
        )?;
        write_private(
            &pki.service_account_key_file,
            &service_account.serialize_pem(),
        )?;
        write_private(
            &pki.service_account_public_key_file,
            &service_account.public_key_pem(),
        )?;
        Ok(pki)
    }
}

/// 128 random bits in hex. The standard library's `RandomState` is keyed from the
/// operating system's randomness, which is enough for a token that lives as long as a
/// loopback test server, without a random-number crate for it.
fn random_token() -> String {
    let mut words = [0u64; 2];
    for (i, word) in words.iter_mut().enumerate() {
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_usize(i);
        hasher.write_u32(std::process::id());
        *word = hasher.finish();
    }
    format!("{:016x}{:016x}", words[0], words[1])
}

/// Writes a file only its owner may read (keys and the token).
pub(super) fn write_private(path: &Path, contents: &str) -> Result<(), EnvtestError> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let io = |source| EnvtestError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)
        .map_err(io)?;
    file.write_all(contents.as_bytes()).map_err(io)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_differ_and_are_hex() {
        let (a, b) = (random_token(), random_token());
        assert_ne!(a, b);
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()), "{a}");
    }

    #[test]
    fn credentials_are_written_private() -> Result<(), Box<dyn std::error::Error>> {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir()?;
        let pki = Pki::create(dir.path())?;
        assert!(pki.ca_pem.starts_with("-----BEGIN CERTIFICATE-----"));
        let tokens = std::fs::read_to_string(&pki.token_file)?;
        assert_eq!(
            tokens,
            format!(
                "{},envtest-admin,envtest-admin,\"system:masters\"\n",
                pki.token
            )
        );
        for file in [
            &pki.key_file,
            &pki.service_account_key_file,
            &pki.token_file,
        ] {
            let mode = std::fs::metadata(file)?.permissions().mode();
            assert_eq!(mode & 0o077, 0, "{} is readable by others", file.display());
        }
        let public = std::fs::read_to_string(&pki.service_account_public_key_file)?;
        assert!(public.starts_with("-----BEGIN PUBLIC KEY-----"), "{public}");
        Ok(())
    }
}
