//! TLS and credentials against a tiny HTTPS server made in the test (self-signed
//! certificates from rcgen): CA trust, handshake failures, server-name override,
//! client certificates, bearer tokens, token files, exec plugins; the server speaks
//! only legacy discovery, so the RESTMapper's fallback is exercised too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::{Arc, Mutex};

use controller_runtime::client::{Client, Error, ObjectKey};
use controller_runtime::config::{Auth, Config, ExecConfig};
use controller_runtime::transport::TransportError;
use k8s_types::core::v1::Namespace;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

struct Cert {
    pem: String,
    key_pem: String,
}

fn cert(names: &[&str]) -> Cert {
    let ck =
        rcgen::generate_simple_self_signed(names.iter().map(|s| s.to_string()).collect::<Vec<_>>())
            .unwrap();
    Cert {
        pem: ck.cert.pem(),
        key_pem: ck.key_pair.serialize_pem(),
    }
}

fn scheme() -> Arc<apimachinery::runtime::Scheme> {
    let mut s = apimachinery::runtime::Scheme::new();
    k8s_types::register(&mut s).unwrap();
    Arc::new(s)
}

/// The answer of the fake server to a path.
fn answer(path: &str) -> (u16, String) {
    match path {
        "/api" => (200, r#"{"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":[]}"#.into()),
        "/apis" => (200, r#"{"kind":"APIGroupList","apiVersion":"v1","groups":[]}"#.into()),
        "/api/v1" => (
            200,
            r#"{"kind":"APIResourceList","groupVersion":"v1","resources":[{"name":"namespaces","singularName":"namespace","namespaced":false,"kind":"Namespace","verbs":["get","list","watch"]}]}"#.into(),
        ),
        "/api/v1/namespaces/team" | "/api/v1/namespaces/busy" => (
            200,
            r#"{"kind":"Namespace","apiVersion":"v1","metadata":{"name":"team","resourceVersion":"7"}}"#.into(),
        ),
        _ => (
            404,
            r#"{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404}"#.into(),
        ),
    }
}

/// An HTTPS server answering [`answer`], recording each request's head.
struct Server {
    url: String,
    heads: Arc<Mutex<Vec<String>>>,
}

async fn serve(server_cert: &Cert, client_ca: Option<&Cert>) -> Server {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let certs = vec![CertificateDer::from_pem_slice(server_cert.pem.as_bytes()).unwrap()];
    let key = PrivateKeyDer::from_pem_slice(server_cert.key_pem.as_bytes()).unwrap();
    let builder = rustls::ServerConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .unwrap();
    let builder = match client_ca {
        Some(ca) => {
            let mut roots = rustls::RootCertStore::empty();
            roots
                .add(CertificateDer::from_pem_slice(ca.pem.as_bytes()).unwrap())
                .unwrap();
            let verifier = rustls::server::WebPkiClientVerifier::builder_with_provider(
                Arc::new(roots),
                provider,
            )
            .build()
            .unwrap();
            builder.with_client_cert_verifier(verifier)
        }
        None => builder.with_no_client_auth(),
    };
    let config = builder.with_single_cert(certs, key).unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!(
        "https://127.0.0.1:{}",
        listener.local_addr().unwrap().port()
    );
    let heads = Arc::new(Mutex::new(Vec::new()));
    let log = heads.clone();
    let busy = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            let acceptor = acceptor.clone();
            let log = log.clone();
            let busy = busy.clone();
            tokio::spawn(async move {
                let Ok(mut tls) = acceptor.accept(tcp).await else {
                    return;
                };
                let mut buf = Vec::new();
                let mut chunk = [0u8; 4096];
                loop {
                    let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") else {
                        match tls.read(&mut chunk).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => buf.extend_from_slice(&chunk[..n]),
                        }
                        continue;
                    };
                    let head = String::from_utf8_lossy(&buf[..end]).to_string();
                    buf.drain(..end + 4);
                    let path = head
                        .split_whitespace()
                        .nth(1)
                        .unwrap_or("/")
                        .split('?')
                        .next()
                        .unwrap_or("/")
                        .to_string();
                    let refused = head.contains("Bearer refused");
                    let watch = path == "/api/v1/namespaces" && head.contains("watch=true");
                    log.lock().unwrap().push(head);
                    // `busy` answers 429 twice, then the namespace; a watch of
                    // namespaces answers 429 twice (kube-apiserver's answer while the
                    // watch cache initializes), then one event.
                    if (path == "/api/v1/namespaces/busy" || watch)
                        && busy.fetch_add(1, std::sync::atomic::Ordering::SeqCst) < 2
                    {
                        let body = r#"{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"TooManyRequests","code":429}"#;
                        let reply = format!(
                            "HTTP/1.1 429 X\r\nRetry-After: 0\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
                            body.len()
                        );
                        if tls.write_all(reply.as_bytes()).await.is_err() {
                            return;
                        }
                        continue;
                    }
                    let (code, body) = if watch {
                        (
                            200,
                            r#"{"type":"ADDED","object":{"kind":"Namespace","apiVersion":"v1","metadata":{"name":"team","resourceVersion":"7"}}}"#.to_string() + "\n",
                        )
                    } else if refused {
                        (
                            401,
                            r#"{"kind":"Status","apiVersion":"v1","status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}"#.to_string(),
                        )
                    } else {
                        answer(&path)
                    };
                    let reply = format!(
                        "HTTP/1.1 {code} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
                        body.len()
                    );
                    if tls.write_all(reply.as_bytes()).await.is_err() {
                        return;
                    }
                }
            });
        }
    });
    Server { url, heads }
}

async fn get_team(config: &Config) -> Result<Namespace, Error> {
    let client = Client::new(config, scheme())?;
    client.get::<Namespace>(&ObjectKey::cluster("team")).await
}

fn authorization_headers(server: &Server) -> Vec<String> {
    server
        .heads
        .lock()
        .unwrap()
        .iter()
        .flat_map(|h| h.lines().map(str::to_string).collect::<Vec<_>>())
        .filter(|l| l.to_ascii_lowercase().starts_with("authorization:"))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn trusted_ca_succeeds_and_sends_the_token() {
    let server_cert = cert(&["localhost", "127.0.0.1"]);
    let server = serve(&server_cert, None).await;
    let mut config = Config::new(&server.url);
    config.tls.ca_data = Some(server_cert.pem.clone().into_bytes());
    config.auth = Auth::BearerToken("t0ken".into());
    let ns = get_team(&config).await.unwrap();
    assert_eq!(ns.metadata.name, "team");
    let auth = authorization_headers(&server);
    assert!(!auth.is_empty());
    assert!(auth.iter().all(|a| a.ends_with("Bearer t0ken")), "{auth:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_untrusted_certificate_is_a_tls_error() {
    let server_cert = cert(&["localhost", "127.0.0.1"]);
    let other = cert(&["localhost"]);
    let server = serve(&server_cert, None).await;
    let mut config = Config::new(&server.url);
    config.tls.ca_data = Some(other.pem.into_bytes());
    let err = get_team(&config).await.unwrap_err();
    assert!(
        matches!(err, Error::Transport(TransportError::Tls { .. })),
        "{err:?}"
    );
    assert!(err.to_string().contains("TLS handshake"), "{err}");

    // No CA at all: nothing is trusted.
    let err = get_team(&Config::new(&server.url)).await.unwrap_err();
    assert!(
        matches!(err, Error::Transport(TransportError::Tls { .. })),
        "{err:?}"
    );

    // insecure-skip-tls-verify accepts it.
    let mut insecure = Config::new(&server.url);
    insecure.tls.insecure = true;
    assert_eq!(get_team(&insecure).await.unwrap().metadata.name, "team");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_name_override() {
    let server_cert = cert(&["kubernetes"]);
    let server = serve(&server_cert, None).await;
    let mut config = Config::new(&server.url);
    config.tls.ca_data = Some(server_cert.pem.clone().into_bytes());
    let err = get_team(&config).await.unwrap_err();
    assert!(
        matches!(err, Error::Transport(TransportError::Tls { .. })),
        "{err:?}"
    );
    config.tls.server_name = Some("kubernetes".into());
    assert_eq!(get_team(&config).await.unwrap().metadata.name, "team");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn client_certificates() {
    let server_cert = cert(&["127.0.0.1"]);
    let client_cert = cert(&["alice"]);
    let server = serve(&server_cert, Some(&client_cert)).await;
    let mut config = Config::new(&server.url);
    config.tls.ca_data = Some(server_cert.pem.clone().into_bytes());
    assert!(get_team(&config).await.is_err());
    config.tls.cert_data = Some(client_cert.pem.clone().into_bytes());
    config.tls.key_data = Some(client_cert.key_pem.clone().into_bytes());
    assert_eq!(get_team(&config).await.unwrap().metadata.name, "team");

    // A certificate without its key is refused before any request.
    config.tls.key_data = None;
    let err = Client::new(&config, scheme()).unwrap_err();
    assert!(
        matches!(err, Error::Transport(TransportError::TlsConfig { .. })),
        "{err:?}"
    );
    // So is garbage as CA.
    let mut bad = Config::new(&server.url);
    bad.tls.ca_data = Some(b"not pem".to_vec());
    assert!(Client::new(&bad, scheme()).is_err());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn token_files_and_exec_plugins() {
    let server_cert = cert(&["127.0.0.1"]);
    let server = serve(&server_cert, None).await;
    let dir = tempfile::tempdir().unwrap();

    let token_file = dir.path().join("token");
    std::fs::write(&token_file, "from-file\n").unwrap();
    let mut config = Config::new(&server.url);
    config.tls.ca_data = Some(server_cert.pem.clone().into_bytes());
    config.auth = Auth::BearerTokenFile(token_file);
    get_team(&config).await.unwrap();
    assert!(
        authorization_headers(&server)
            .iter()
            .all(|a| a.ends_with("Bearer from-file"))
    );

    // An exec plugin: a shell script that counts its runs and checks its env.
    let runs = dir.path().join("runs");
    let script = dir.path().join("plugin.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\necho run >> {runs}\ncase \"$KUBERNETES_EXEC_INFO\" in *ExecCredential*) ;; *) exit 3;; esac\n\
             echo '{{\"kind\":\"ExecCredential\",\"apiVersion\":\"client.authentication.k8s.io/v1\",\"status\":{{\"token\":\"'$PREFIX'-'$1'\",\"expirationTimestamp\":\"2999-01-01T00:00:00Z\"}}}}'\n",
            runs = runs.display()
        ),
    )
    .unwrap();
    let mut exec = ExecConfig::new("/bin/sh", vec![script.display().to_string(), "tok".into()]);
    exec.env.push(("PREFIX".into(), "exec".into()));
    config.auth = Auth::Exec(exec);
    server.heads.lock().unwrap().clear();
    let client = Client::new(&config, scheme()).unwrap();
    client
        .get::<Namespace>(&ObjectKey::cluster("team"))
        .await
        .unwrap();
    client
        .get::<Namespace>(&ObjectKey::cluster("team"))
        .await
        .unwrap();
    let auth = authorization_headers(&server);
    assert!(auth.len() >= 2);
    assert!(
        auth.iter().all(|a| a.ends_with("Bearer exec-tok")),
        "{auth:?}"
    );
    // Cached until it expires: one run for every request.
    assert_eq!(std::fs::read_to_string(&runs).unwrap().lines().count(), 1);

    // A failing plugin is a typed credentials error naming the command.
    let mut failing = Config::new(&server.url);
    failing.tls.ca_data = config.tls.ca_data.clone();
    failing.auth = Auth::Exec(ExecConfig::new(
        "/bin/sh",
        vec!["-c".into(), "echo nope >&2; exit 4".into()],
    ));
    let err = get_team(&failing).await.unwrap_err();
    assert!(
        matches!(err, Error::Transport(TransportError::Credentials(_))),
        "{err:?}"
    );
    assert!(err.to_string().contains("nope"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_mapper_reads_discovery_lazily_and_again_on_a_miss() {
    let server_cert = cert(&["127.0.0.1"]);
    let server = serve(&server_cert, None).await;
    let mut config = Config::new(&server.url);
    config.tls.ca_data = Some(server_cert.pem.clone().into_bytes());
    let client = Client::new(&config, scheme()).unwrap();
    let api_reads = || {
        server
            .heads
            .lock()
            .unwrap()
            .iter()
            .filter(|h| h.starts_with("GET /api HTTP"))
            .count()
    };
    assert_eq!(api_reads(), 0, "nothing is read before the first call");
    client
        .get::<Namespace>(&ObjectKey::cluster("team"))
        .await
        .unwrap();
    client
        .get::<Namespace>(&ObjectKey::cluster("team"))
        .await
        .unwrap();
    assert_eq!(api_reads(), 1, "a hit is answered from what was read");
    assert_eq!(
        client.rest_mapper().uses_aggregated_discovery().await,
        Some(false)
    );

    // ConfigMaps are not served here: a miss reads discovery again (not more often
    // than every 200 ms), then fails with a typed no-match error.
    tokio::time::sleep(std::time::Duration::from_millis(250)).await;
    let err = client
        .get::<k8s_types::core::v1::ConfigMap>(&ObjectKey::new("default", "x"))
        .await
        .unwrap_err();
    assert!(err.is_no_match(), "{err}");
    assert_eq!(api_reads(), 2);
    let err = client
        .get::<k8s_types::core::v1::ConfigMap>(&ObjectKey::new("default", "x"))
        .await
        .unwrap_err();
    assert!(err.is_no_match(), "{err}");
    assert_eq!(api_reads(), 2, "misses in a burst read discovery once");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_token_is_unauthorized() {
    let server_cert = cert(&["127.0.0.1"]);
    let server = serve(&server_cert, None).await;
    let mut config = Config::new(&server.url);
    config.tls.ca_data = Some(server_cert.pem.clone().into_bytes());
    config.auth = Auth::BearerToken("refused".into());
    let err = get_team(&config).await.unwrap_err();
    assert!(err.is_unauthorized(), "{err:?}");
    assert!(!err.is_forbidden());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exec_plugins_can_give_client_certificates() {
    let server_cert = cert(&["127.0.0.1"]);
    let client_cert = cert(&["alice"]);
    let server = serve(&server_cert, Some(&client_cert)).await;
    let dir = tempfile::tempdir().unwrap();
    let output = dir.path().join("credential.json");
    std::fs::write(
        &output,
        serde_json::json!({
            "kind": "ExecCredential",
            "apiVersion": "client.authentication.k8s.io/v1beta1",
            "status": {
                "clientCertificateData": client_cert.pem,
                "clientKeyData": client_cert.key_pem,
            }
        })
        .to_string(),
    )
    .unwrap();
    let mut exec = ExecConfig::new("/bin/cat", vec![output.display().to_string()]);
    exec.api_version = "client.authentication.k8s.io/v1beta1".into();
    let mut config = Config::new(&server.url);
    config.tls.ca_data = Some(server_cert.pem.clone().into_bytes());
    config.auth = Auth::Exec(exec);
    assert_eq!(get_team(&config).await.unwrap().metadata.name, "team");
    // No token was given, so none is sent.
    assert!(authorization_headers(&server).is_empty());

    // A certificate without its key is refused as invalid plugin output.
    std::fs::write(
        &output,
        serde_json::json!({
            "kind": "ExecCredential",
            "apiVersion": "client.authentication.k8s.io/v1beta1",
            "status": {"clientCertificateData": client_cert.pem}
        })
        .to_string(),
    )
    .unwrap();
    // The first credential is cached (it has no expiry): a new plugin config reads anew.
    let mut exec = ExecConfig::new("/bin/cat", vec![output.display().to_string()]);
    exec.api_version = "client.authentication.k8s.io/v1beta1".into();
    config.auth = Auth::Exec(exec);
    let err = get_team(&config).await.unwrap_err();
    assert!(err.to_string().contains("clientKeyData"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retry_after_answers_are_retried() {
    let server_cert = cert(&["127.0.0.1"]);
    let server = serve(&server_cert, None).await;
    let client = trusting_client(&server, &server_cert);
    let ns = client
        .get::<Namespace>(&ObjectKey::cluster("busy"))
        .await
        .unwrap();
    assert_eq!(ns.metadata.name, "team");
    assert_eq!(requests(&server, "GET /api/v1/namespaces/busy "), 3);
}

/// A client of `server` trusting its certificate.
fn trusting_client(server: &Server, server_cert: &Cert) -> Client {
    let mut config = Config::new(&server.url);
    config.tls.ca_data = Some(server_cert.pem.clone().into_bytes());
    Client::new(&config, scheme()).unwrap()
}

/// How many requests `server` had whose head starts with `start`.
fn requests(server: &Server, start: &str) -> usize {
    let heads = server.heads.lock().unwrap();
    heads.iter().filter(|h| h.starts_with(start)).count()
}

/// A watch the server answers "retry after" is opened again, as client-go's
/// `Request.Watch` does (kube-apiserver answers a watch 429 with `Retry-After` while the
/// resource's watch cache is not ready, and under API priority and fairness).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retry_after_answers_to_a_watch_are_retried() {
    use futures_util::StreamExt;
    let server_cert = cert(&["127.0.0.1"]);
    let server = serve(&server_cert, None).await;
    let client = trusting_client(&server, &server_cert);
    let mut watch = client
        .watch::<Namespace>(&Default::default())
        .await
        .unwrap();
    match watch.next().await {
        Some(Ok(controller_runtime::client::WatchEvent::Added(ns))) => {
            assert_eq!(ns.metadata.name, "team");
        }
        other => panic!("first event: {other:?}"),
    }
    assert_eq!(requests(&server, "GET /api/v1/namespaces?"), 3);
}
