//! kubectl reads the served OpenAPI v3 documents: `kubectl explain` prints field docs
//! from them, and `kubectl create --validate=strict` finds `fieldValidation` on the
//! kind's PATCH operation (kubectl's `QueryParamVerifierV3`) and leaves validation to the
//! server. The server here is a stand-in: the OpenAPI module behind a minimal HTTP/1.1
//! loop, with fixed discovery documents for `apps/v1` deployments.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};

use apiserver::openapi::OpenApi;
use http::{HeaderMap, HeaderName, HeaderValue, Method};

const API_VERSIONS: &str = r#"{"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":[{"clientCIDR":"0.0.0.0/0","serverAddress":"127.0.0.1:6443"}]}"#;
const API_GROUPS: &str = r#"{"kind":"APIGroupList","apiVersion":"v1","groups":[{"name":"apps","versions":[{"groupVersion":"apps/v1","version":"v1"}],"preferredVersion":{"groupVersion":"apps/v1","version":"v1"}}]}"#;
const CORE_RESOURCES: &str = r#"{"kind":"APIResourceList","groupVersion":"v1","resources":[{"name":"namespaces","singularName":"namespace","namespaced":false,"kind":"Namespace","verbs":["create","delete","get","list","patch","update","watch"],"shortNames":["ns"]}]}"#;
const APPS_RESOURCES: &str = r#"{"kind":"APIResourceList","apiVersion":"v1","groupVersion":"apps/v1","resources":[{"name":"deployments","singularName":"deployment","namespaced":true,"kind":"Deployment","verbs":["create","delete","deletecollection","get","list","patch","update","watch"],"shortNames":["deploy"],"categories":["all"]}]}"#;
const VERSION: &str = r#"{"major":"1","minor":"36","gitVersion":"v1.36.0","gitCommit":"","gitTreeState":"clean","buildDate":"2026-01-01T00:00:00Z","goVersion":"go1.25","compiler":"gc","platform":"linux/amd64"}"#;

struct Request {
    method: String,
    target: String,
    headers: HeaderMap,
    body: Vec<u8>,
}

fn read_request(stream: &TcpStream) -> Option<Request> {
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut parts = line.split_whitespace();
    let (method, target) = (parts.next()?.to_owned(), parts.next()?.to_owned());
    let mut headers = HeaderMap::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).ok()?;
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let (name, value) = line.split_once(':')?;
        headers.append(
            HeaderName::from_bytes(name.trim().as_bytes()).ok()?,
            HeaderValue::from_str(value.trim()).ok()?,
        );
    }
    let length = headers
        .get("content-length")
        .and_then(|v| v.to_str().ok()?.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some(Request {
        method,
        target,
        headers,
        body,
    })
}

fn respond(mut stream: &TcpStream, status: u16, headers: &HeaderMap, body: &[u8]) {
    let mut head = format!(
        "HTTP/1.1 {status} X\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {}\r\n", value.to_str().unwrap()));
    }
    head.push_str("\r\n");
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(body);
}

/// Serves until the process ends; returns the address and the log of write requests.
fn serve() -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = format!("http://{}", listener.local_addr().unwrap());
    let writes = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&writes);
    let api = OpenApi::for_group_versions([("", "v1"), ("apps", "v1")]);
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let Some(request) = read_request(&stream) else {
                continue;
            };
            let method = Method::from_bytes(request.method.as_bytes()).unwrap();
            if let Some(response) = api.serve(&method, &request.target, &request.headers) {
                respond(
                    &stream,
                    response.status.as_u16(),
                    &response.headers,
                    &response.body,
                );
                continue;
            }
            let path = request.target.split('?').next().unwrap_or_default();
            let mut json = HeaderMap::new();
            json.insert("content-type", HeaderValue::from_static("application/json"));
            let fixed = match path {
                "/api" => Some(API_VERSIONS),
                "/apis" => Some(API_GROUPS),
                "/api/v1" => Some(CORE_RESOURCES),
                "/apis/apps/v1" => Some(APPS_RESOURCES),
                "/version" => Some(VERSION),
                _ => None,
            };
            match (method.as_str(), fixed) {
                ("GET", Some(body)) => respond(&stream, 200, &json, body.as_bytes()),
                ("POST", None) => {
                    log.lock().unwrap().push(format!("POST {}", request.target));
                    // Echo the object, as a dry-run create would return it.
                    respond(&stream, 201, &json, &request.body);
                }
                _ => respond(&stream, 404, &HeaderMap::new(), b""),
            }
        }
    });
    (address, writes)
}

fn kubectl_present() -> bool {
    let present = Command::new("kubectl")
        .args(["version", "--client"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !present {
        eprintln!("skipped: kubectl is not installed");
    }
    present
}

fn kubeconfig(dir: &Path, server: &str) -> PathBuf {
    let path = dir.join("kubeconfig");
    let text = format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: local\n  cluster:\n    server: {server}\n\
         users:\n- name: local\n  user: {{}}\ncontexts:\n- name: local\n  context:\n    cluster: local\n    user: local\n    namespace: default\n\
         current-context: local\n"
    );
    std::fs::write(&path, text).unwrap();
    path
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("openapi-kubectl-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn kubectl(dir: &Path, server: &str, args: &[&str]) -> (bool, String, String) {
    let config = kubeconfig(dir, server);
    let output = Command::new("kubectl")
        .arg("--kubeconfig")
        .arg(&config)
        .arg("--cache-dir")
        .arg(dir.join("cache"))
        .args(args)
        .env_remove("KUBECONFIG")
        .output()
        .unwrap();
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn kubectl_explain_reads_the_v3_documents() {
    if !kubectl_present() {
        return;
    }
    let (server, _) = serve();
    let dir = temp_dir("explain");
    let (ok, out, err) = kubectl(&dir, &server, &["explain", "deployment.spec.strategy"]);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(ok, "kubectl explain failed:\n{out}\n{err}");
    assert!(out.contains("GROUP:      apps"), "{out}");
    assert!(
        out.contains("FIELD: strategy <DeploymentStrategy>"),
        "{out}"
    );
    assert!(
        out.contains("rollingUpdate\t<RollingUpdateDeployment>"),
        "{out}"
    );
    assert!(out.contains("Rolling update config params"), "{out}");
}

#[test]
fn kubectl_create_leaves_strict_validation_to_the_server() {
    if !kubectl_present() {
        return;
    }
    let (server, writes) = serve();
    let dir = temp_dir("create");
    let manifest = dir.join("deployment.json");
    std::fs::write(
        &manifest,
        r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"default"},
           "spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},
           "spec":{"containers":[{"name":"web","image":"nginx"}]}}}}"#,
    )
    .unwrap();
    let (ok, out, err) = kubectl(
        &dir,
        &server,
        &[
            "create",
            "--validate=strict",
            "--dry-run=server",
            "-f",
            manifest.to_str().unwrap(),
        ],
    );
    let _ = std::fs::remove_dir_all(&dir);
    assert!(ok, "kubectl create failed:\n{out}\n{err}");
    let writes = writes.lock().unwrap();
    assert_eq!(writes.len(), 1, "{writes:?}");
    assert!(
        writes[0].starts_with("POST /apis/apps/v1/namespaces/default/deployments?")
            && writes[0].contains("fieldValidation=Strict"),
        "{writes:?}"
    );
}
