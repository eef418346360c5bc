//! What authenticating one request costs, per authenticator, in process (no network):
//! a client certificate chain verified against the client CA, a static token looked up,
//! a service-account JWT verified (ES256 signature, claims, and its ServiceAccount read
//! from storage), and the whole kube-apiserver chain for each of those credentials.
//!
//! ```text
//! cargo run -p apiserver --example authentication_cost -- [CALLS]
//! ```
//!
//! Each case runs CALLS authentications (default 20,000) one after another and prints
//! the mean time per call.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use apimachinery::runtime::Scheme;
use apiserver::authentication::bearer_token::{BearerToken, TokenAuthenticator};
use apiserver::authentication::serviceaccount::{ServiceAccountTokens, SigningKey};
use apiserver::authentication::token_file::TokenFile;
use apiserver::authentication::union::{AuthenticatedGroupAdder, Union};
use apiserver::authentication::x509::X509Authenticator;
use apiserver::authentication::{Authenticator, HeaderMap, Request};
use apiserver::server::Config;
use apiserver::storage::{MemoryStorage, Storage};
use axum::body::Body;
use axum::http::{HeaderValue, header};
use rcgen::{
    BasicConstraints, CertificateParams, DistinguishedName, DnType, ExtendedKeyUsagePurpose, IsCa,
    KeyPair,
};

type Error = Box<dyn std::error::Error>;

async fn time(
    name: &str,
    calls: usize,
    a: &dyn Authenticator,
    request: &Request<'_>,
) -> Result<(), Error> {
    // One call first, which must succeed, so a broken case is not timed.
    a.authenticate(request).await?.ok_or("no user")?;
    let start = Instant::now();
    for _ in 0..calls {
        a.authenticate(request).await?;
    }
    let per = start.elapsed() / calls as u32;
    println!("{name:<44} {:>9.2} µs/call", per.as_nanos() as f64 / 1000.0);
    Ok(())
}

fn bearer(token: &str) -> Result<HeaderMap, Error> {
    let mut h = HeaderMap::new();
    h.insert(
        header::AUTHORIZATION,
        HeaderValue::from_str(&format!("Bearer {token}"))?,
    );
    Ok(h)
}

async fn run(calls: usize) -> Result<(), Error> {
    let mut scheme = Scheme::new();
    k8s_types::register(&mut scheme)?;
    let scheme = Arc::new(scheme);
    let storage: Arc<dyn Storage> = Arc::new(MemoryStorage::new());

    let mut ca_params = CertificateParams::new(Vec::<String>::new())?;
    ca_params.distinguished_name = DistinguishedName::new();
    ca_params
        .distinguished_name
        .push(DnType::CommonName, "client-ca");
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    let ca_key = KeyPair::generate()?;
    let ca = ca_params.self_signed(&ca_key)?;
    let mut leaf = CertificateParams::new(Vec::<String>::new())?;
    leaf.distinguished_name = DistinguishedName::new();
    leaf.distinguished_name
        .push(DnType::CommonName, "kubernetes-admin");
    leaf.distinguished_name
        .push(DnType::OrganizationName, "system:masters");
    leaf.extended_key_usages = vec![ExtendedKeyUsagePurpose::ClientAuth];
    let chain = vec![
        leaf.signed_by(&KeyPair::generate()?, &ca, &ca_key)?
            .der()
            .to_vec(),
    ];
    let x509 = Arc::new(X509Authenticator::new(&[ca.der().clone()])?);

    let mut lines = String::new();
    for i in 0..1000 {
        lines.push_str(&format!("token-{i},user-{i},{i},\"dev,ops\"\n"));
    }
    let file = Arc::new(TokenFile::parse("tokens.csv", &lines)?);

    let tokens = Arc::new(ServiceAccountTokens::new(
        scheme.clone(),
        storage.clone(),
        SigningKey::generate()?,
        "https://kubernetes.default.svc.cluster.local",
    ));
    // The ServiceAccount is made through the server, as kubectl would.
    let handler = Config::new(scheme, storage)
        .handler("127.0.0.1:6443")
        .await?;
    let created = handler
        .serve_http(
            axum::http::Request::post("/api/v1/namespaces/default/serviceaccounts")
                .header("content-type", "application/json")
                .body(Body::from(r#"{"metadata":{"name":"builder"}}"#))?,
        )
        .await;
    if created.status() != 201 {
        return Err(format!("creating the ServiceAccount: {}", created.status()).into());
    }
    let answer = tokens
        .request_token("default", "builder", serde_json::json!({"spec": {}}))
        .await?;
    let jwt = answer["status"]["token"]
        .as_str()
        .ok_or("no token")?
        .to_owned();

    let token_authenticators: Vec<Arc<dyn TokenAuthenticator>> = vec![file.clone(), tokens.clone()];
    let chain_authenticator = AuthenticatedGroupAdder(Arc::new(Union(vec![
        x509.clone(),
        Arc::new(BearerToken(token_authenticators)),
    ])));

    let none = HeaderMap::new();
    let with_cert = Request {
        headers: &none,
        client_certificates: &chain,
    };
    let static_headers = bearer("token-999")?;
    let with_static = Request {
        headers: &static_headers,
        client_certificates: &[],
    };
    let jwt_headers = bearer(&jwt)?;
    let with_jwt = Request {
        headers: &jwt_headers,
        client_certificates: &[],
    };

    println!("{calls} calls each (mean per call)");
    time("x509 client certificate", calls, &*x509, &with_cert).await?;
    time(
        "static token (1,000 in the file)",
        calls,
        &BearerToken(vec![file]),
        &with_static,
    )
    .await?;
    time(
        "service-account JWT (ES256 + ServiceAccount)",
        calls,
        &BearerToken(vec![tokens]),
        &with_jwt,
    )
    .await?;
    time(
        "chain: certificate",
        calls,
        &chain_authenticator,
        &with_cert,
    )
    .await?;
    time(
        "chain: static token",
        calls,
        &chain_authenticator,
        &with_static,
    )
    .await?;
    time(
        "chain: service-account JWT",
        calls,
        &chain_authenticator,
        &with_jwt,
    )
    .await?;
    Ok(())
}

fn main() -> ExitCode {
    let calls = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20_000);
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("authentication_cost: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(calls)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("authentication_cost: {e}");
            ExitCode::FAILURE
        }
    }
}
