//! `kapi serve` authorizes with RBAC by default: an anonymous kubectl (with
//! `--anonymous-auth=true`) may read
//! `/healthz` (the bootstrap `system:public-info-viewer` binding) and nothing else, not
//! even discovery, and is refused with kube-apiserver's words.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Output, Stdio};

use common::kapi;

/// A child killed when dropped.
struct Served(Child);

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// kubectl as an anonymous client, with no CA either (the server's certificate is not
/// what is under test). A user name and password make kubectl send a Basic header
/// instead of prompting for them; the server has no basic authentication, so the request
/// carries no credentials it reads.
fn kubectl(server: &str, args: &[&str]) -> Output {
    Command::new("kubectl")
        .args([
            "--server",
            server,
            "--insecure-skip-tls-verify",
            "--username=nobody",
            "--password=nothing",
        ])
        .stdin(Stdio::null())
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn anonymous_kubectl_reads_healthz_and_is_refused_the_rest() {
    if !Command::new("kubectl")
        .args(["version", "--client"])
        .output()
        .is_ok_and(|o| o.status.success())
    {
        assert!(std::env::var_os("CI").is_none(), "CI needs kubectl");
        eprintln!("kubectl is not installed: skipped");
        return;
    }
    let bin = kapi().unwrap().get_program().to_owned();
    let mut child = Command::new(bin)
        .args(["serve", "--listen", "127.0.0.1:0", "--anonymous-auth=true"])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.as_mut().unwrap())
        .read_line(&mut first)
        .unwrap();
    let _served = Served(child);
    let url = first
        .split_whitespace()
        .find(|w| w.starts_with("https://"))
        .unwrap()
        .to_owned();
    let health = kubectl(&url, &["get", "--raw", "/healthz"]);
    assert!(health.status.success());
    assert_eq!(String::from_utf8_lossy(&health.stdout), "ok");
    // Discovery too is for authenticated users only (Go's `system:discovery` binding),
    // so kubectl asks by path.
    let denied = kubectl(
        &url,
        &["get", "--raw", "/api/v1/namespaces/kube-system/secrets"],
    );
    assert!(!denied.status.success());
    let stderr = String::from_utf8_lossy(&denied.stderr);
    assert!(
        stderr.contains(
            r#"secrets is forbidden: User "system:anonymous" cannot list resource "secrets" in API group "" in the namespace "kube-system""#
        ),
        "{stderr}"
    );
}

#[test]
fn an_unknown_authorization_mode_is_refused_at_start() {
    let out = kapi()
        .unwrap()
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--authorization-mode",
            "Node",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("unknown authorization mode Node"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
