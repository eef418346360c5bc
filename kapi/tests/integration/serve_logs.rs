//! `kapi serve`'s logs on standard error: nothing when all is well, a line per request
//! with `-vv`, and warnings (a refused credential, with its reason) by default.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};

use common::kapi;

/// A request to send: method, path and headers.
type Request<'a> = (&'a str, &'a str, &'a [(&'a str, &'a str)]);

/// Serves with `args`, sends each request, stops the server and gives what it wrote to
/// standard error.
fn logs_of(args: &[&str], requests: &[Request<'_>]) -> String {
    let bin = kapi().unwrap().get_program().to_owned();
    let mut child = Command::new(bin)
        .args(["serve", "--insecure-http", "--listen", "127.0.0.1:0"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.as_mut().unwrap())
        .read_line(&mut first)
        .unwrap();
    let address = first
        .trim()
        .rsplit("http://")
        .next()
        .unwrap_or_default()
        .to_owned();
    for (method, path, headers) in requests {
        let mut stream = TcpStream::connect(&address).unwrap();
        let mut head =
            format!("{method} {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n");
        for (k, v) in *headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        head.push_str("\r\n");
        stream.write_all(head.as_bytes()).unwrap();
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).unwrap();
    }
    let _ = child.kill();
    let output = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn quiet_by_default_a_line_per_request_with_vv() {
    let quiet = logs_of(&[], &[("GET", "/api/v1/namespaces", &[])]);
    assert_eq!(quiet, "", "nothing is logged when all is well");
    let verbose = logs_of(&["-vv"], &[("GET", "/api/v1/namespaces?limit=1", &[])]);
    assert!(
        verbose.contains("HTTP") && verbose.contains("/api/v1/namespaces?limit=1"),
        "{verbose}"
    );
    assert!(verbose.contains("status=200"), "{verbose}");
}

#[test]
fn a_refused_credential_is_a_warning_with_its_reason() {
    let dir = common::TempDir::new("logs", "tokens");
    let tokens = dir.0.join("tokens.csv");
    std::fs::write(&tokens, "good-token,alice,1\n").unwrap();
    let logs = logs_of(
        &["--token-auth-file", tokens.to_str().unwrap()],
        &[(
            "GET",
            "/api/v1/namespaces",
            &[("Authorization", "Bearer bad-token")],
        )],
    );
    assert!(
        logs.contains("WARN") && logs.contains("unable to authenticate the request"),
        "{logs}"
    );
    assert!(logs.contains("invalid bearer token"), "{logs}");
}
