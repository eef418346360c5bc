//! An in-process test server on a random loopback port, and a minimal HTTP/1.1 client
//! for it (one connection per request, `Connection: close`, chunked bodies decoded).
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Arc;

use apimachinery::runtime::Scheme;
use apiserver::admission::plugins::PluginSelection;
use apiserver::server::{Config, GenericApiServer};
use apiserver::storage::{MemoryStorage, Storage};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
// Linked for the built-in types it registers.
use k8s_types as _;

/// A running server and the storage under it.
pub struct TestServer {
    pub server: GenericApiServer,
    pub storage: Arc<dyn Storage>,
}

/// One answer.
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// The chunks of a chunked body that carried data (0 for another body).
    pub chunks: usize,
}

impl Response {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "body is not JSON ({e}), status {}, headers {:?}: {}",
                self.status,
                self.headers,
                String::from_utf8_lossy(&self.body)
            )
        })
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn headers_named(&self, name: &str) -> Vec<&str> {
        self.headers
            .iter()
            .filter(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
            .collect()
    }

    /// The watch events of a finished watch body.
    pub fn events(&self) -> Vec<Value> {
        String::from_utf8_lossy(&self.body)
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                serde_json::from_str(l).unwrap_or_else(|e| panic!("bad event line {l:?}: {e}"))
            })
            .collect()
    }
}

pub fn scheme() -> Arc<Scheme> {
    let mut scheme = Scheme::with_name("apiserver-tests");
    scheme.add_registry().unwrap();
    Arc::new(scheme)
}

pub async fn start() -> TestServer {
    start_with(Arc::new(MemoryStorage::new())).await
}

pub async fn start_with(storage: Arc<dyn Storage>) -> TestServer {
    // As Go's integration tests and envtest start kube-apiserver: nothing here makes
    // each namespace's `default` ServiceAccount, which that plugin would wait for.
    let plugins = PluginSelection::new().disable([apiserver::admission::plugins::SERVICE_ACCOUNT]);
    let server = Config::new(scheme(), storage.clone())
        .admission_plugins(plugins)
        .serve("127.0.0.1:0".parse().unwrap())
        .await
        .unwrap();
    TestServer { server, storage }
}

impl TestServer {
    pub async fn request(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Response {
        request(
            &self.server.local_addr().to_string(),
            method,
            path,
            headers,
            body,
        )
        .await
    }

    pub async fn get(&self, path: &str) -> Response {
        self.request("GET", path, &[], b"").await
    }

    pub async fn send_json(&self, method: &str, path: &str, body: &Value) -> Response {
        let bytes = serde_json::to_vec(body).unwrap();
        self.request(
            method,
            path,
            &[("Content-Type", "application/json")],
            &bytes,
        )
        .await
    }

    pub async fn patch(&self, path: &str, content_type: &str, body: &Value) -> Response {
        let bytes = serde_json::to_vec(body).unwrap();
        self.request("PATCH", path, &[("Content-Type", content_type)], &bytes)
            .await
    }

    pub async fn delete(&self, path: &str) -> Response {
        self.request("DELETE", path, &[], b"").await
    }
}

pub async fn request(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Response {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).await.unwrap();
    // A body the server refuses may be cut short: the answer still comes.
    let _ = stream.write_all(body).await;
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw).await;
    parse(&raw)
}

fn parse(raw: &[u8]) -> Response {
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no HTTP head in {:?}", String::from_utf8_lossy(raw)));
    let head = String::from_utf8_lossy(&raw[..split]).to_string();
    let mut lines = head.lines();
    let status: u16 = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned()))
        .collect();
    let rest = &raw[split + 4..];
    let chunked = headers
        .iter()
        .any(|(k, v)| k.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked"));
    let (body, chunks) = if chunked {
        dechunk(rest)
    } else {
        (rest.to_vec(), 0)
    };
    Response {
        status,
        headers,
        body,
        chunks,
    }
}

/// The body and the number of its chunks that carried data.
fn dechunk(mut data: &[u8]) -> (Vec<u8>, usize) {
    let mut out = Vec::new();
    let mut chunks = 0;
    while let Some(eol) = data.windows(2).position(|w| w == b"\r\n") {
        let size_text = String::from_utf8_lossy(&data[..eol]).to_string();
        let size = usize::from_str_radix(size_text.split(';').next().unwrap_or("0").trim(), 16)
            .unwrap_or(0);
        data = &data[eol + 2..];
        if size == 0 || data.len() < size {
            out.extend_from_slice(&data[..size.min(data.len())]);
            break;
        }
        chunks += 1;
        out.extend_from_slice(&data[..size]);
        data = &data[(size + 2).min(data.len())..];
    }
    (out, chunks)
}
