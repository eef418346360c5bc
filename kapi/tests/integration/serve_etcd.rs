//! `kapi serve --etcd-servers` from the default build: objects at kube-apiserver's keys
//! in etcd, and `/readyz` failing with `[-]etcd failed` once etcd is gone.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{TempDir, kapi};

/// Whether etcd is installed; under CI (where .ci/run installs it) its absence fails.
fn etcd_installed() -> bool {
    let found = Command::new("etcd")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        found || std::env::var_os("CI").is_none(),
        "etcd is not installed (apt-get install etcd-server), and CI needs this test"
    );
    found
}

/// A process killed when dropped.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Sends one HTTP/1.1 request to `address`; the status and the body.
fn request(address: &str, method: &str, path: &str, body: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(address).unwrap();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let status = answer
        .split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0);
    let body = answer
        .split_once("\r\n\r\n")
        .map(|(_, body)| body.to_owned())
        .unwrap_or_default();
    (status, body)
}

/// Starts etcd on free loopback ports in `dir`; its client URL.
fn start_etcd(dir: &TempDir) -> (Killed, String) {
    let (client, peer) = (
        TcpListener::bind("127.0.0.1:0").unwrap(),
        TcpListener::bind("127.0.0.1:0").unwrap(),
    );
    let (client_url, peer_url) = (
        format!("http://{}", client.local_addr().unwrap()),
        format!("http://{}", peer.local_addr().unwrap()),
    );
    drop((client, peer));
    let child = Command::new("etcd")
        .arg(format!("--data-dir={}", dir.0.join("etcd").display()))
        .arg(format!("--listen-client-urls={client_url}"))
        .arg(format!("--advertise-client-urls={client_url}"))
        .arg(format!("--listen-peer-urls={peer_url}"))
        .arg(format!("--initial-advertise-peer-urls={peer_url}"))
        .arg(format!("--initial-cluster=default={peer_url}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let etcd = Killed(child);
    let address = client_url.trim_start_matches("http://").to_owned();
    let deadline = Instant::now() + Duration::from_secs(30);
    while !TcpStream::connect(&address)
        .is_ok_and(|_| request(&address, "GET", "/health", "").0 == 200)
    {
        assert!(Instant::now() < deadline, "etcd did not answer within 30s");
        std::thread::sleep(Duration::from_millis(50));
    }
    (etcd, client_url)
}

#[test]
fn serves_from_etcd_and_is_not_ready_without_it() {
    if !etcd_installed() {
        return;
    }
    let dir = TempDir::new("serve", "etcd");
    let (etcd, etcd_url) = start_etcd(&dir);
    let bin = kapi().unwrap().get_program().to_owned();
    let mut server = Killed(
        Command::new(bin)
            .args(["serve", "--insecure-http", "--listen", "127.0.0.1:0"])
            .args(["--etcd-servers", &etcd_url])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let mut first = String::new();
    BufReader::new(server.0.stdout.as_mut().unwrap())
        .read_line(&mut first)
        .unwrap();
    let address = first.trim().rsplit("http://").next().unwrap().to_owned();

    let (status, body) = request(
        &address,
        "POST",
        "/api/v1/namespaces/default/configmaps",
        r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"kept"},"data":{"a":"b"}}"#,
    );
    assert_eq!(status, 201, "{body}");
    // kube-apiserver's key, read by another etcd client.
    let stored = Command::new("etcdctl")
        .env("ETCDCTL_API", "3")
        .args(["--endpoints", &etcd_url, "get", "--keys-only"])
        .arg("/registry/configmaps/default/kept")
        .output()
        .expect("etcdctl (Debian's etcd-client package) runs");
    assert!(
        String::from_utf8_lossy(&stored.stdout).contains("/registry/configmaps/default/kept"),
        "{stored:?}"
    );
    assert_eq!(request(&address, "GET", "/readyz", "").0, 200);

    drop(etcd);
    let deadline = Instant::now() + Duration::from_secs(30);
    let (status, body) = loop {
        let (status, body) = request(&address, "GET", "/readyz", "");
        if status != 200 || Instant::now() > deadline {
            break (status, body);
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(status, 500, "{body}");
    assert!(body.contains("[-]etcd failed: reason withheld"), "{body}");
    assert!(body.contains("readyz check failed"), "{body}");
    assert_eq!(request(&address, "GET", "/livez?exclude=etcd", "").0, 200);
}
