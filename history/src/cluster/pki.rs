//! The run's credentials, the same for every server under test: a CA, a serving
//! certificate for every address a server listens on, a bearer token of a user in
//! system:masters (`--token-auth-file`), and a service-account signing key (which
//! kube-apiserver requires). Servers are started with kube-apiserver's own flags for
//! these, which `kapi serve` shares, so the clients treat both alike.

use std::net::IpAddr;
use std::path::{Path, PathBuf};

use rcgen::{
    BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, KeyPair,
    KeyUsagePurpose, SanType,
};

use crate::error::Error;

/// The files of the run's credentials, and what the clients need of them.
#[derive(Clone, Debug)]
pub struct Pki {
    /// The CA certificate (PEM).
    pub ca_pem: String,
    /// The admin's bearer token.
    pub token: String,
    /// `--tls-cert-file`.
    pub cert_file: PathBuf,
    /// `--tls-private-key-file`.
    pub key_file: PathBuf,
    /// `--token-auth-file`.
    pub token_file: PathBuf,
    /// `--service-account-signing-key-file` (the private key, PKCS#8).
    pub service_account_key_file: PathBuf,
    /// `--service-account-key-file` (its public key: kube-apiserver reads no PKCS#8
    /// private key there).
    pub service_account_public_key_file: PathBuf,
}

impl Pki {
    /// Makes the credentials in `dir`, the serving certificate valid for loopback and
    /// for `addresses`.
    pub fn create(dir: &Path, addresses: &[IpAddr], seed: u64) -> Result<Pki, Error> {
        let ca_key = KeyPair::generate()?;
        let mut ca_params = CertificateParams::new(Vec::<String>::new())?;
        ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        ca_params
            .distinguished_name
            .push(DnType::CommonName, "history recorder CA");
        ca_params.key_usages = vec![
            KeyUsagePurpose::KeyCertSign,
            KeyUsagePurpose::CrlSign,
            KeyUsagePurpose::DigitalSignature,
        ];
        let ca = ca_params.self_signed(&ca_key)?;

        let key = KeyPair::generate()?;
        let mut params = CertificateParams::new(vec!["localhost".to_owned()])?;
        params
            .distinguished_name
            .push(DnType::CommonName, "server under test");
        params
            .subject_alt_names
            .push(SanType::IpAddress(IpAddr::from([127, 0, 0, 1])));
        for address in addresses {
            params.subject_alt_names.push(SanType::IpAddress(*address));
        }
        params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
        let cert = params.signed_by(&key, &ca, &ca_key)?;
        let service_account = KeyPair::generate()?;

        let mut rng = crate::workload::Rng::new(seed ^ u64::from(std::process::id()));
        let token = format!("{:016x}{:016x}", rng.next_u64(), rng.next_u64());
        let pki = Pki {
            ca_pem: ca.pem(),
            token: token.clone(),
            cert_file: dir.join("serving.pem"),
            key_file: dir.join("serving-key.pem"),
            token_file: dir.join("tokens.csv"),
            service_account_key_file: dir.join("service-account-key.pem"),
            service_account_public_key_file: dir.join("service-account.pub"),
        };
        write_private(&pki.cert_file, &cert.pem())?;
        write_private(&pki.key_file, &key.serialize_pem())?;
        write_private(
            &pki.token_file,
            &format!("{token},history-admin,history-admin,\"system:masters\"\n"),
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

fn write_private(path: &Path, contents: &str) -> Result<(), Error> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)
        .map_err(Error::io(format!("create {}", path.display())))?;
    file.write_all(contents.as_bytes())
        .map_err(Error::io(format!("write {}", path.display())))
}
