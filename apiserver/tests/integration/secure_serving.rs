//! The server over TLS with kube-apiserver's authenticators, driven by raw HTTPS
//! requests: client certificates of the client CA (and of another CA), static and
//! service-account bearer tokens (wrong audience, forged, of a deleted account),
//! anonymous requests with and without `anonymous_auth`, TokenReview, SelfSubjectReview
//! and the audit log. Every refusal is a bare 401 Status that says nothing of why.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Write;
use std::sync::{Arc, Mutex};

use apimachinery::runtime::Scheme;
use apiserver::audit::AuditLog;
use apiserver::authentication::Authenticator;
use apiserver::authentication::bearer_token::{BearerToken, TokenAuthenticator};
use apiserver::authentication::serviceaccount::{ServiceAccountTokens, SigningKey};
use apiserver::authentication::token_file::TokenFile;
use apiserver::authentication::union::{AuthenticatedGroupAdder, Union};
use apiserver::authentication::x509::X509Authenticator;
use apiserver::server::tls::TlsConfig;
use apiserver::server::{Config, GenericApiServer};
use apiserver::storage::{MemoryStorage, Storage};
use rcgen::{
    BasicConstraints, CertificateParams, DistinguishedName, DnType, ExtendedKeyUsagePurpose, IsCa,
    KeyPair, KeyUsagePurpose, SanType,
};
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const ISSUER: &str = "https://kubernetes.default.svc.cluster.local";

struct Ca {
    cert: rcgen::Certificate,
    key: KeyPair,
}

impl Ca {
    fn new(name: &str) -> Ca {
        let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
        params.distinguished_name = DistinguishedName::new();
        params.distinguished_name.push(DnType::CommonName, name);
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.key_usages = vec![
            KeyUsagePurpose::KeyCertSign,
            KeyUsagePurpose::DigitalSignature,
        ];
        let key = KeyPair::generate().unwrap();
        Ca {
            cert: params.self_signed(&key).unwrap(),
            key,
        }
    }

    /// A certificate and key (PEM) signed by this CA.
    fn issue(&self, cn: &str, org: Option<&str>, server: bool) -> (String, String) {
        let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
        params.distinguished_name = DistinguishedName::new();
        params.distinguished_name.push(DnType::CommonName, cn);
        if let Some(org) = org {
            params
                .distinguished_name
                .push(DnType::OrganizationName, org);
        }
        if server {
            params.subject_alt_names = vec![SanType::IpAddress("127.0.0.1".parse().unwrap())];
            params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
        } else {
            params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ClientAuth];
        }
        let key = KeyPair::generate().unwrap();
        let cert = params.signed_by(&key, &self.cert, &self.key).unwrap();
        (cert.pem(), key.serialize_pem())
    }
}

/// An audit log the test reads back.
#[derive(Clone, Default)]
struct Lines(Arc<Mutex<Vec<u8>>>);

impl Write for Lines {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Lines {
    fn events(&self) -> Vec<Value> {
        String::from_utf8(self.0.lock().unwrap().clone())
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }
}

struct Secure {
    server: GenericApiServer,
    server_ca: Ca,
    client_ca: Ca,
    audit: Lines,
}

async fn start(anonymous: bool) -> Secure {
    start_on(anonymous, 0).await
}

/// As `start`, serving on `workers` connection workers (0: on the test's runtime).
async fn start_on(anonymous: bool, workers: usize) -> Secure {
    let mut scheme = Scheme::new();
    k8s_types::register(&mut scheme).unwrap();
    let scheme = Arc::new(scheme);
    let storage: Arc<dyn Storage> = Arc::new(MemoryStorage::new());
    let server_ca = Ca::new("server-ca");
    let client_ca = Ca::new("client-ca");
    let (cert, key) = server_ca.issue("apiserver", None, true);
    let client_roots = vec![client_ca.cert.der().clone()];
    let tls = TlsConfig::from_pem(cert.as_bytes(), key.as_bytes())
        .unwrap()
        .client_ca(client_roots.clone());
    let tokens = Arc::new(ServiceAccountTokens::new(
        scheme.clone(),
        storage.clone(),
        SigningKey::generate().unwrap(),
        ISSUER,
    ));
    let file = TokenFile::parse("tokens.csv", "alice-token,alice,1001,\"dev,ops\"\n").unwrap();
    let bearer: Vec<Arc<dyn TokenAuthenticator>> = vec![Arc::new(file), tokens.clone()];
    let chain: Vec<Arc<dyn Authenticator>> = vec![
        Arc::new(X509Authenticator::new(&client_roots).unwrap()),
        Arc::new(BearerToken(bearer)),
    ];
    let audit = Lines::default();
    let server = Config::new(scheme, storage)
        .authenticator(Arc::new(AuthenticatedGroupAdder(Arc::new(Union(chain)))))
        .anonymous_auth(anonymous)
        .service_account_tokens(tokens)
        .audit_log(Arc::new(AuditLog::to_writer(Box::new(audit.clone()))))
        .connection_workers(workers)
        .serve_tls("127.0.0.1:0".parse().unwrap(), tls)
        .await
        .unwrap();
    Secure {
        server,
        server_ca,
        client_ca,
        audit,
    }
}

/// Who a request is sent as.
#[derive(Clone, Copy)]
enum As<'a> {
    Nobody,
    Certificate(&'a (String, String)),
    /// A client certificate's user asking to act as another (`Impersonate-User`).
    Impersonating(&'a (String, String), &'a str),
    Token(&'a str),
}

/// An HTTPS request trusting the server's CA; the status and JSON body, or the TLS
/// error.
async fn request(
    s: &Secure,
    who: As<'_>,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> Result<(u16, Value), std::io::Error> {
    let mut roots = rustls::RootCertStore::empty();
    roots.add(s.server_ca.cert.der().clone()).unwrap();
    let builder = rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_root_certificates(roots);
    let config = match who {
        As::Certificate((cert, key)) | As::Impersonating((cert, key), _) => builder
            .with_client_auth_cert(
                vec![CertificateDer::from_pem_slice(cert.as_bytes()).unwrap()],
                PrivateKeyDer::from_pem_slice(key.as_bytes()).unwrap(),
            )
            .unwrap(),
        _ => builder.with_no_client_auth(),
    };
    let tcp = TcpStream::connect(s.server.local_addr()).await?;
    let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
    let name = ServerName::IpAddress("127.0.0.1".parse::<std::net::IpAddr>().unwrap().into());
    let mut tls = connector.connect(name, tcp).await?;
    let body = body
        .map(|b| serde_json::to_vec(&b).unwrap())
        .unwrap_or_default();
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nUser-Agent: secure-serving-test\r\nContent-Type: application/json\r\nContent-Length: {}\r\n",
        body.len()
    );
    match who {
        As::Token(token) => head.push_str(&format!("Authorization: Bearer {token}\r\n")),
        As::Impersonating(_, user) => head.push_str(&format!("Impersonate-User: {user}\r\n")),
        As::Nobody | As::Certificate(_) => {}
    }
    head.push_str("\r\n");
    tls.write_all(head.as_bytes()).await?;
    tls.write_all(&body).await?;
    let mut answer = Vec::new();
    // A TLS 1.3 refusal of the client certificate arrives as the first read's error.
    tls.read_to_end(&mut answer).await?;
    let text = String::from_utf8_lossy(&answer);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let code = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    Ok((code, serde_json::from_str(body).unwrap_or(Value::Null)))
}

async fn ok(
    s: &Secure,
    who: As<'_>,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    request(s, who, method, path, body).await.unwrap()
}

fn bare_401() -> Value {
    json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure", "message": "Unauthorized", "reason": "Unauthorized", "code": 401})
}

const WHOAMI: &str = "/apis/authentication.k8s.io/v1/selfsubjectreviews";

fn whoami_body() -> Value {
    json!({"apiVersion": "authentication.k8s.io/v1", "kind": "SelfSubjectReview"})
}

#[tokio::test]
async fn a_client_certificate_of_the_client_ca_is_its_subject() {
    client_certificates_name_their_subject(0).await;
}

#[tokio::test]
async fn on_connection_workers_a_client_certificate_is_its_subject() {
    client_certificates_name_their_subject(2).await;
}

async fn client_certificates_name_their_subject(workers: usize) {
    let s = start_on(false, workers).await;
    assert!(s.server.url().starts_with("https://127.0.0.1:"));
    let admin = s
        .client_ca
        .issue("kubernetes-admin", Some("system:masters"), false);
    let (code, review) = ok(
        &s,
        As::Certificate(&admin),
        "POST",
        WHOAMI,
        Some(whoami_body()),
    )
    .await;
    assert_eq!(code, 201, "{review}");
    assert_eq!(
        review["status"]["userInfo"],
        json!({"username": "kubernetes-admin", "groups": ["system:masters", "system:authenticated"]})
    );
    let (code, _) = ok(
        &s,
        As::Certificate(&admin),
        "GET",
        "/api/v1/namespaces",
        None,
    )
    .await;
    assert_eq!(code, 200);
}

#[tokio::test]
async fn a_client_certificate_of_another_ca_is_refused() {
    let s = start(true).await;
    let stranger = Ca::new("client-ca").issue("kubernetes-admin", Some("system:masters"), false);
    // Refused in the handshake (the server's verifier) or, were it let through, 401:
    // never served, not even as anonymous.
    match request(
        &s,
        As::Certificate(&stranger),
        "GET",
        "/api/v1/namespaces",
        None,
    )
    .await
    {
        Err(_) => {}
        Ok((code, body)) => assert_eq!((code, body), (401, bare_401())),
    }
    // A server certificate of the client CA is not a client certificate either.
    let wrong_use = s
        .client_ca
        .issue("kubernetes-admin", Some("system:masters"), true);
    match request(
        &s,
        As::Certificate(&wrong_use),
        "GET",
        "/api/v1/namespaces",
        None,
    )
    .await
    {
        Err(_) => {}
        Ok((code, body)) => assert_eq!((code, body), (401, bare_401())),
    }
}

#[tokio::test]
async fn requests_without_credentials_are_401_unless_anonymous_auth() {
    let s = start(false).await;
    assert_eq!(
        ok(&s, As::Nobody, "GET", "/api/v1/namespaces", None).await,
        (401, bare_401())
    );
    assert_eq!(
        ok(&s, As::Nobody, "GET", "/version", None).await,
        (401, bare_401())
    );
    let s = start(true).await;
    let (code, review) = ok(&s, As::Nobody, "POST", WHOAMI, Some(whoami_body())).await;
    assert_eq!(code, 201);
    assert_eq!(
        review["status"]["userInfo"],
        json!({"username": "system:anonymous", "groups": ["system:unauthenticated"]})
    );
    // A bad token is refused even when anonymous requests are allowed.
    assert_eq!(
        ok(&s, As::Token("nope"), "GET", "/version", None).await,
        (401, bare_401())
    );
}

#[tokio::test]
async fn static_tokens_name_their_user_and_groups() {
    let s = start(false).await;
    let (code, review) = ok(
        &s,
        As::Token("alice-token"),
        "POST",
        WHOAMI,
        Some(whoami_body()),
    )
    .await;
    assert_eq!(code, 201);
    assert_eq!(
        review["status"]["userInfo"],
        json!({"username": "alice", "uid": "1001", "groups": ["dev", "ops", "system:authenticated"]})
    );
}

#[tokio::test]
async fn service_account_tokens_are_issued_checked_and_revoked_with_their_account() {
    let s = start(false).await;
    let admin = s
        .client_ca
        .issue("kubernetes-admin", Some("system:masters"), false);
    let admin = As::Certificate(&admin);
    let (code, _) = ok(
        &s,
        admin,
        "POST",
        "/api/v1/namespaces/default/serviceaccounts",
        Some(
            json!({"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "builder"}}),
        ),
    )
    .await;
    assert_eq!(code, 201);
    let token_path = "/api/v1/namespaces/default/serviceaccounts/builder/token";
    let request_body = |spec: Value| json!({"apiVersion": "authentication.k8s.io/v1", "kind": "TokenRequest", "spec": spec});
    let (code, answer) = ok(&s, admin, "POST", token_path, Some(request_body(json!({})))).await;
    assert_eq!(code, 201, "{answer}");
    assert_eq!(answer["kind"], "TokenRequest");
    assert_eq!(answer["spec"]["audiences"], json!([ISSUER]));
    let token = answer["status"]["token"].as_str().unwrap().to_owned();
    assert!(answer["status"]["expirationTimestamp"].is_string());

    let (code, review) = ok(&s, As::Token(&token), "POST", WHOAMI, Some(whoami_body())).await;
    assert_eq!(code, 201);
    assert_eq!(
        review["status"]["userInfo"]["username"],
        "system:serviceaccount:default:builder"
    );
    assert_eq!(
        review["status"]["userInfo"]["groups"],
        json!([
            "system:serviceaccounts",
            "system:serviceaccounts:default",
            "system:authenticated"
        ])
    );

    // TokenReview answers what the authenticators say of a token.
    let review_path = "/apis/authentication.k8s.io/v1/tokenreviews";
    let review_of = |t: &str| json!({"apiVersion": "authentication.k8s.io/v1", "kind": "TokenReview", "spec": {"token": t}});
    let (code, review) = ok(&s, admin, "POST", review_path, Some(review_of(&token))).await;
    assert_eq!(code, 201);
    assert_eq!(review["status"]["authenticated"], true);
    assert_eq!(review["status"]["audiences"], json!([ISSUER]));
    assert_eq!(
        review["status"]["user"]["username"],
        "system:serviceaccount:default:builder"
    );
    let (_, review) = ok(&s, admin, "POST", review_path, Some(review_of("forged"))).await;
    // `authenticated` is omitempty in Go: false is left out.
    assert_eq!(
        review["status"],
        json!({"user": {}, "error": "invalid bearer token"})
    );

    // A token for another audience is refused.
    let (code, other) = ok(
        &s,
        admin,
        "POST",
        token_path,
        Some(request_body(
            json!({"audiences": ["https://vault.example.com"]}),
        )),
    )
    .await;
    assert_eq!(code, 201);
    let elsewhere = other["status"]["token"].as_str().unwrap();
    assert_eq!(
        ok(&s, As::Token(elsewhere), "GET", "/version", None).await,
        (401, bare_401())
    );
    // A TokenReview for that audience accepts it, and names the audience; the first
    // token is not for it.
    let review_for = |t: &str| {
        json!({"apiVersion": "authentication.k8s.io/v1", "kind": "TokenReview",
               "spec": {"token": t, "audiences": ["https://vault.example.com"]}})
    };
    let (_, review) = ok(&s, admin, "POST", review_path, Some(review_for(elsewhere))).await;
    assert_eq!(review["status"]["authenticated"], true, "{review}");
    assert_eq!(
        review["status"]["audiences"],
        json!(["https://vault.example.com"])
    );
    let (_, review) = ok(&s, admin, "POST", review_path, Some(review_for(&token))).await;
    assert_eq!(review["status"]["authenticated"], Value::Null, "{review}");

    // A token with its signature of another key is refused.
    let mut parts: Vec<String> = token.split('.').map(str::to_owned).collect();
    let other_sig: Vec<&str> = elsewhere.split('.').collect();
    parts[2] = other_sig[2].to_owned();
    let forged = parts.join(".");
    assert_eq!(
        ok(&s, As::Token(&forged), "GET", "/version", None).await,
        (401, bare_401())
    );

    // Too short a lifetime is invalid, as Go validates it; an unknown account is 404.
    let (code, status) = ok(
        &s,
        admin,
        "POST",
        token_path,
        Some(request_body(json!({"expirationSeconds": 10}))),
    )
    .await;
    assert_eq!(code, 422, "{status}");
    let (code, _) = ok(
        &s,
        admin,
        "POST",
        "/api/v1/namespaces/default/serviceaccounts/ghost/token",
        Some(request_body(json!({}))),
    )
    .await;
    assert_eq!(code, 404);

    // Deleting the account revokes its tokens.
    let (code, _) = ok(
        &s,
        admin,
        "DELETE",
        "/api/v1/namespaces/default/serviceaccounts/builder",
        None,
    )
    .await;
    assert_eq!(code, 200);
    assert_eq!(
        ok(&s, As::Token(&token), "GET", "/version", None).await,
        (401, bare_401())
    );
}

#[tokio::test]
async fn plain_http_to_the_tls_port_is_not_served() {
    let s = start(true).await;
    let mut tcp = TcpStream::connect(s.server.local_addr()).await.unwrap();
    tcp.write_all(b"GET /version HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut answer = Vec::new();
    let _ = tcp.read_to_end(&mut answer).await;
    assert!(!String::from_utf8_lossy(&answer).contains("gitVersion"));
}

#[tokio::test]
async fn every_request_accepted_or_refused_is_audited() {
    let s = start(false).await;
    let admin = s
        .client_ca
        .issue("kubernetes-admin", Some("system:masters"), false);
    ok(
        &s,
        As::Certificate(&admin),
        "GET",
        "/api/v1/namespaces/default",
        None,
    )
    .await;
    ok(
        &s,
        As::Token("stolen"),
        "GET",
        "/api/v1/namespaces/kube-system/secrets",
        None,
    )
    .await;
    ok(
        &s,
        As::Impersonating(&admin, "bob"),
        "GET",
        "/api/v1/namespaces/default",
        None,
    )
    .await;
    let events = s.audit.events();
    assert_eq!(events.len(), 3, "{events:?}");
    let accepted = &events[0];
    assert_eq!(accepted["level"], "Metadata");
    assert_eq!(accepted["stage"], "ResponseComplete");
    assert_eq!(accepted["verb"], "get");
    assert_eq!(accepted["user"]["username"], "kubernetes-admin");
    assert_eq!(accepted["sourceIPs"], json!(["127.0.0.1"]));
    assert_eq!(accepted["userAgent"], "secure-serving-test");
    assert_eq!(
        accepted["objectRef"],
        json!({"resource": "namespaces", "name": "default", "apiVersion": "v1"})
    );
    assert_eq!(accepted["responseStatus"]["code"], 200);
    let refused = &events[1];
    assert_eq!(refused["verb"], "list");
    assert_eq!(refused["user"], json!({}));
    assert_eq!(refused["objectRef"]["resource"], "secrets");
    assert_eq!(refused["responseStatus"]["code"], 401);
    assert_ne!(accepted["auditID"], refused["auditID"]);
    assert!(accepted.get("impersonatedUser").is_none(), "{accepted}");
    // Who asked, and whom for: the authentication and impersonation filters record
    // both for the audit filter.
    let impersonating = &events[2];
    assert_eq!(impersonating["user"]["username"], "kubernetes-admin");
    assert_eq!(impersonating["impersonatedUser"]["username"], "bob");
    for e in &events {
        assert!(
            e["requestReceivedTimestamp"].as_str().unwrap()
                <= e["stageTimestamp"].as_str().unwrap()
        );
    }
}
