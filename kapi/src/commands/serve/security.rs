//! `kapi serve`'s TLS, authentication and audit: kube-apiserver's flags turned into the
//! server's `TlsConfig`, authenticator chain and audit log, and the credentials the
//! kubeconfig it writes carries.
//!
//! Without `--tls-cert-file`, kapi has a CA of its own (`pki/ca.crt` and `pki/ca.key` in
//! `--data-dir`, reused on restart; in memory otherwise) that signs, at each start, a
//! serving certificate for the listen address and an admin client certificate
//! (`kubernetes-admin` in `system:masters`) for the kubeconfig.

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use apimachinery::runtime::Scheme;
use apiserver::audit::AuditLog;
use apiserver::authentication::Authenticator;
use apiserver::authentication::bearer_token::{BearerToken, TokenAuthenticator};
use apiserver::authentication::insecure::InsecureSuperuser;
use apiserver::authentication::serviceaccount::{ServiceAccountTokens, SigningKey, VerifyingKey};
use apiserver::authentication::token_cache::{self, TokenCache};
use apiserver::authentication::token_file::TokenFile;
use apiserver::authentication::union::{AuthenticatedGroupAdder, TokenUnion, Union};
use apiserver::authentication::user::SYSTEM_PRIVILEGED_GROUP;
use apiserver::authentication::x509::{X509Authenticator, certificates_from_pem};
use apiserver::server::Config;
use apiserver::server::tls::TlsConfig;
use apiserver::storage::Storage;
use rcgen::{
    BasicConstraints, CertificateParams, DistinguishedName, DnType, ExtendedKeyUsagePurpose, IsCa,
    KeyPair, KeyUsagePurpose, SanType,
};

use crate::cli::SecurityArgs;
use crate::commands::CommandError;

/// The admin user of the kubeconfig kapi writes.
pub const ADMIN_USER: &str = "kubernetes-admin";
/// The common name of kapi's CA.
const CA_NAME: &str = "kapi-ca";
/// The folder of `--data-dir` the CA and the service-account key are kept in.
const PKI_DIR: &str = "pki";

/// What the kubeconfig says of the server and its user.
#[derive(Debug, Default)]
pub struct Credentials {
    /// The CA the server's certificate chains to (PEM), when kapi made it.
    pub certificate_authority: Option<String>,
    /// The admin client certificate and key (PEM).
    pub client_certificate: Option<(String, String)>,
}

/// The server's transport and who it lets in, from the flags.
pub struct Security {
    /// `None` for `--insecure-http`.
    pub tls: Option<TlsConfig>,
    /// What the kubeconfig carries.
    pub credentials: Credentials,
}

/// kapi's CA: its certificate as kept, and what signs with it.
struct Ca {
    pem: String,
    issuer: rcgen::Certificate,
    key: KeyPair,
}

fn ca_params() -> Result<CertificateParams, rcgen::Error> {
    let mut params = CertificateParams::new(Vec::<String>::new())?;
    params.distinguished_name = DistinguishedName::new();
    params.distinguished_name.push(DnType::CommonName, CA_NAME);
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    params.key_usages = vec![
        KeyUsagePurpose::KeyCertSign,
        KeyUsagePurpose::CrlSign,
        KeyUsagePurpose::DigitalSignature,
    ];
    Ok(params)
}

fn read(path: &Path) -> Result<Vec<u8>, CommandError> {
    std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()).into())
}

/// Writes a file only its owner reads (keys).
fn write_private(path: &Path, contents: &str) -> Result<(), CommandError> {
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    file.write_all(contents.as_bytes())
        .map_err(|e| format!("{}: {e}", path.display()).into())
}

/// kapi's CA: read from `dir` when it holds one, made (and kept there) otherwise.
fn ca(dir: Option<&Path>) -> Result<Ca, CommandError> {
    if let Some(dir) = dir {
        let (cert_path, key_path) = (dir.join("ca.crt"), dir.join("ca.key"));
        if cert_path.exists() && key_path.exists() {
            let pem = String::from_utf8(read(&cert_path)?)
                .map_err(|e| format!("{}: {e}", cert_path.display()))?;
            let key_pem = String::from_utf8(read(&key_path)?)
                .map_err(|e| format!("{}: {e}", key_path.display()))?;
            let key =
                KeyPair::from_pem(&key_pem).map_err(|e| format!("{}: {e}", key_path.display()))?;
            // Certificates it signs name its subject and key, the same as the kept
            // certificate's: that one is what clients trust.
            let issuer = ca_params()?.self_signed(&key)?;
            return Ok(Ca { pem, issuer, key });
        }
    }
    let key = KeyPair::generate()?;
    let issuer = ca_params()?.self_signed(&key)?;
    let pem = issuer.pem();
    if let Some(dir) = dir {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        write_private(&dir.join("ca.key"), &key.serialize_pem())?;
        std::fs::write(dir.join("ca.crt"), &pem)
            .map_err(|e| format!("{}: {e}", dir.join("ca.crt").display()))?;
    }
    Ok(Ca { pem, issuer, key })
}

/// A certificate signed by `ca`, with its key (PEM both).
fn issue(ca: &Ca, mut params: CertificateParams) -> Result<(String, String), CommandError> {
    // Strict verifiers (Python 3.13's OpenSSL flags) want the authority key id.
    params.use_authority_key_identifier_extension = true;
    params.key_usages = vec![
        KeyUsagePurpose::DigitalSignature,
        KeyUsagePurpose::KeyEncipherment,
    ];
    let key = KeyPair::generate()?;
    let cert = params.signed_by(&key, &ca.issuer, &ca.key)?;
    Ok((cert.pem(), key.serialize_pem()))
}

/// The names a serving certificate for `listen` covers: its address (every loopback
/// address and `localhost` for a wildcard or loopback one) and the in-cluster names of
/// the `kubernetes` service.
fn serving_names(listen: &SocketAddr) -> Vec<SanType> {
    let mut ips = vec![listen.ip()];
    if listen.ip().is_unspecified() || listen.ip().is_loopback() {
        ips = vec![
            IpAddr::V4(Ipv4Addr::LOCALHOST),
            IpAddr::V6(Ipv6Addr::LOCALHOST),
        ];
        if !listen.ip().is_unspecified() && !ips.contains(&listen.ip()) {
            ips.push(listen.ip());
        }
    }
    let mut names: Vec<SanType> = ips.into_iter().map(SanType::IpAddress).collect();
    for dns in [
        "localhost",
        "kubernetes",
        "kubernetes.default",
        "kubernetes.default.svc",
        "kubernetes.default.svc.cluster.local",
    ] {
        if let Ok(name) = dns.try_into() {
            names.push(SanType::DnsName(name));
        }
    }
    names
}

fn serving_certificate(ca: &Ca, listen: &SocketAddr) -> Result<(String, String), CommandError> {
    let mut params = CertificateParams::new(Vec::<String>::new())?;
    params.distinguished_name = DistinguishedName::new();
    params
        .distinguished_name
        .push(DnType::CommonName, "kapi-apiserver");
    params.subject_alt_names = serving_names(listen);
    params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
    issue(ca, params)
}

fn admin_certificate(ca: &Ca) -> Result<(String, String), CommandError> {
    let mut params = CertificateParams::new(Vec::<String>::new())?;
    params.distinguished_name = DistinguishedName::new();
    params
        .distinguished_name
        .push(DnType::CommonName, ADMIN_USER);
    params
        .distinguished_name
        .push(DnType::OrganizationName, SYSTEM_PRIVILEGED_GROUP);
    params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ClientAuth];
    issue(ca, params)
}

/// The key service-account tokens are signed with: the signing key file, else a
/// private key among the key files, else the one kept in `pki`, else a new one (kept
/// there when there is a `pki`).
fn signing_key(args: &SecurityArgs, pki: Option<&Path>) -> Result<SigningKey, CommandError> {
    if let Some(path) = &args.service_account_signing_key_file {
        return SigningKey::from_pem(&read(path)?).map_err(|e| {
            format!("--service-account-signing-key-file {}: {e}", path.display()).into()
        });
    }
    for path in &args.service_account_key_file {
        if let Ok(key) = SigningKey::from_pem(&read(path)?) {
            return Ok(key);
        }
    }
    if let Some(dir) = pki {
        let path = dir.join("sa.key");
        if path.exists() {
            return SigningKey::from_pem(&read(&path)?)
                .map_err(|e| format!("{}: {e}", path.display()).into());
        }
    }
    let key = SigningKey::generate()?;
    if let (Some(dir), Some(pem)) = (pki, key.to_pem()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        write_private(&dir.join("sa.key"), pem)?;
    }
    Ok(key)
}

/// The URL clients on this machine reach the server at: for a wildcard listen address
/// (`0.0.0.0`, `[::]`), the loopback address of its family, which the serving
/// certificate names (a wildcard address is nobody's name).
pub fn client_url(url: &str, local: SocketAddr) -> String {
    if !local.ip().is_unspecified() {
        return url.to_owned();
    }
    let loopback = match local.ip() {
        IpAddr::V4(_) => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(_) => IpAddr::V6(Ipv6Addr::LOCALHOST),
    };
    let scheme = url.split("://").next().unwrap_or("https");
    format!("{scheme}://{}", SocketAddr::new(loopback, local.port()))
}

/// Refuses plain HTTP anywhere but on a loopback address.
pub fn check_insecure_listen(listen: &SocketAddr) -> Result<(), CommandError> {
    if listen.ip().is_loopback() {
        return Ok(());
    }
    Err(format!(
        "--insecure-http serves without TLS, so only on a loopback address (such as \
         127.0.0.1:{}), not {listen}: drop --insecure-http to serve over TLS",
        listen.port()
    )
    .into())
}

/// Applies the flags to `config`: the authenticator chain (client certificates, then
/// bearer tokens of the token file and of service accounts), anonymous requests, the
/// TokenRequest issuer and the audit log; and gives the TLS configuration and the
/// kubeconfig's credentials.
pub fn configure(
    args: &SecurityArgs,
    listen: &SocketAddr,
    data_dir: Option<&Path>,
    scheme: Arc<Scheme>,
    storage: Arc<dyn Storage>,
    config: Config,
) -> Result<(Config, Security), CommandError> {
    let pki: Option<PathBuf> = data_dir.map(|d| d.join(PKI_DIR));
    let mut authenticators: Vec<Arc<dyn Authenticator>> = Vec::new();
    let mut token_authenticators: Vec<Arc<dyn TokenAuthenticator>> = Vec::new();
    let mut credentials = Credentials::default();
    let tls = if args.insecure_http {
        check_insecure_listen(listen)?;
        None
    } else {
        let ca = ca(pki.as_deref())?;
        let mut client_cas = certificates_from_pem(ca.pem.as_bytes())?;
        if let Some(path) = &args.client_ca_file {
            let extra = certificates_from_pem(&read(path)?)
                .map_err(|e| format!("--client-ca-file {}: {e}", path.display()))?;
            client_cas.extend(extra);
        }
        authenticators.push(Arc::new(X509Authenticator::new(&client_cas)?));
        credentials.client_certificate = Some(admin_certificate(&ca)?);
        let tls = match (&args.tls_cert_file, &args.tls_private_key_file) {
            (Some(cert), Some(key)) => TlsConfig::from_pem(&read(cert)?, &read(key)?)
                .map_err(|e| format!("--tls-cert-file {}: {e}", cert.display()))?,
            _ => {
                let (cert, key) = serving_certificate(&ca, listen)?;
                credentials.certificate_authority = Some(ca.pem.clone());
                TlsConfig::from_pem(cert.as_bytes(), key.as_bytes())?
            }
        };
        Some(tls.client_ca(client_cas))
    };
    if let Some(path) = &args.token_auth_file {
        let file = TokenFile::load(path)?;
        for warning in file.warnings() {
            eprintln!("kapi serve: {warning}");
        }
        token_authenticators.push(Arc::new(file));
    }
    let mut verifying = Vec::new();
    for path in &args.service_account_key_file {
        verifying.extend(
            VerifyingKey::from_pem(&read(path)?)
                .map_err(|e| format!("--service-account-key-file {}: {e}", path.display()))?,
        );
    }
    let mut tokens = ServiceAccountTokens::new(
        scheme,
        storage,
        signing_key(args, pki.as_deref())?,
        &args.service_account_issuer,
    )
    .with_verifying_keys(verifying);
    if !args.api_audiences.is_empty() {
        tokens = tokens.with_audiences(args.api_audiences.clone());
    }
    let tokens = Arc::new(tokens);
    token_authenticators.push(tokens.clone());
    // kube-apiserver caches the union of its token authenticators' successes for 10 s
    // (`--token-success-cache-ttl`'s default), keyed by the audiences checked for.
    let cached = TokenCache::new(
        Arc::new(TokenUnion(token_authenticators)),
        token_cache::SUCCESS_TTL,
        tokens.audiences().to_vec(),
    );
    authenticators.push(Arc::new(BearerToken(vec![Arc::new(cached)])));
    let mut authenticator: Arc<dyn Authenticator> =
        Arc::new(AuthenticatedGroupAdder(Arc::new(Union(authenticators))));
    if args.insecure_http {
        authenticator = Arc::new(InsecureSuperuser(authenticator));
    }
    let mut config = config
        .authenticator(authenticator)
        .anonymous_auth(args.anonymous_auth)
        .service_account_tokens(tokens);
    if let Some(path) = &args.audit_log_path {
        let log = if path.as_os_str() == "-" {
            AuditLog::to_writer(Box::new(std::io::stdout()))
        } else {
            AuditLog::open(path).map_err(|e| format!("--audit-log-path {}: {e}", path.display()))?
        };
        config = config.audit_log(Arc::new(log));
    }
    Ok((config, Security { tls, credentials }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_http_is_refused_off_loopback() {
        assert!(check_insecure_listen(&"127.0.0.1:6443".parse().unwrap()).is_ok());
        assert!(check_insecure_listen(&"[::1]:6443".parse().unwrap()).is_ok());
        let err = check_insecure_listen(&"0.0.0.0:6443".parse().unwrap()).unwrap_err();
        assert!(
            err.to_string().contains("only on a loopback address"),
            "{err}"
        );
        assert!(check_insecure_listen(&"10.1.2.3:6443".parse().unwrap()).is_err());
    }

    #[test]
    fn the_ca_is_kept_and_reused_from_the_data_dir() {
        let dir = std::env::temp_dir().join(format!("kapi-pki-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let first = ca(Some(&dir)).unwrap();
        let again = ca(Some(&dir)).unwrap();
        assert_eq!(first.pem, again.pem);
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir.join("ca.key"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o077, 0, "the CA key is private");
        // What the reloaded CA signs verifies against the kept certificate.
        let (cert, _) = admin_certificate(&again).unwrap();
        let x509 = X509Authenticator::from_pem(first.pem.as_bytes()).unwrap();
        let chain = vec![certificates_from_pem(cert.as_bytes()).unwrap()[0].to_vec()];
        let headers = axum_headers();
        let request = apiserver::authentication::Request {
            headers: &headers,
            client_certificates: &chain,
        };
        let user = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(x509.authenticate(&request))
            .unwrap()
            .unwrap();
        assert_eq!(user.name, ADMIN_USER);
        assert_eq!(user.groups, [SYSTEM_PRIVILEGED_GROUP]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn axum_headers() -> apiserver::authentication::HeaderMap {
        apiserver::authentication::HeaderMap::new()
    }

    #[test]
    fn clients_of_a_wildcard_address_are_sent_to_loopback() {
        let any: SocketAddr = "0.0.0.0:6443".parse().unwrap();
        assert_eq!(
            client_url("https://0.0.0.0:6443", any),
            "https://127.0.0.1:6443"
        );
        let any6: SocketAddr = "[::]:6443".parse().unwrap();
        assert_eq!(client_url("https://[::]:6443", any6), "https://[::1]:6443");
        let one: SocketAddr = "127.0.0.1:6443".parse().unwrap();
        assert_eq!(
            client_url("https://127.0.0.1:6443", one),
            "https://127.0.0.1:6443"
        );
    }

    #[test]
    fn a_wildcard_listen_address_is_served_for_loopback_names() {
        let names = serving_names(&"0.0.0.0:6443".parse().unwrap());
        assert!(names.contains(&SanType::IpAddress(IpAddr::V4(Ipv4Addr::LOCALHOST))));
        let names = serving_names(&"192.0.2.7:6443".parse().unwrap());
        assert!(names.contains(&SanType::IpAddress("192.0.2.7".parse().unwrap())));
    }
}
