//! `kapi serve`'s security defaults driven by the installed `kubectl`: TLS with its own
//! CA and an admin client certificate in the kubeconfig (`kubectl get ns`, `kubectl auth
//! whoami`), a ServiceAccount's token from `kubectl create token`, static tokens, bad
//! tokens refused, the CA kept in `--data-dir` across restarts, `--insecure-http` only on
//! loopback, and the audit log.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

use common::{TempDir, kapi, kubectl_available};

/// A `kapi serve` child; killed when dropped.
struct Served {
    child: Child,
    url: String,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(args: &[&str]) -> Served {
    let bin = kapi().unwrap().get_program().to_owned();
    let mut child = Command::new(bin)
        .arg("serve")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.as_mut().unwrap())
        .read_line(&mut first)
        .unwrap();
    let url = first
        .trim()
        .rsplit(' ')
        .next()
        .unwrap_or_default()
        .to_owned();
    assert!(url.starts_with("http"), "{first}");
    Served { child, url }
}

/// kubectl with `args`, stdin closed (so it never prompts for a password).
fn kubectl(args: &[&str]) -> Output {
    Command::new("kubectl")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn ok(args: &[&str]) -> String {
    let out = kubectl(args);
    assert!(
        out.status.success(),
        "kubectl {args:?} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// kubectl must fail with a 401 (logged at -v=6 before kubectl, seeing no
/// credentials to retry with, asks for a user name that a closed stdin does not give).
fn refused(args: &[&str]) {
    let mut args = args.to_vec();
    args.push("-v=6");
    let out = kubectl(&args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "kubectl {args:?} succeeded");
    assert!(
        stderr.contains("Unauthorized"),
        "kubectl {args:?}: {stderr}"
    );
}

/// The kubeconfig's field `name` (base64 `*-data` fields decoded by kubectl itself).
fn kubeconfig_field(kubeconfig: &Path, name: &str) -> String {
    let jsonpath = format!("jsonpath={{.clusters[0].cluster.{name}}}");
    ok(&[
        "--kubeconfig",
        kubeconfig.to_str().unwrap(),
        "config",
        "view",
        "--raw",
        "-o",
        &jsonpath,
    ])
}

/// Writes the kubeconfig's CA (PEM) to `path`.
fn write_ca(kubeconfig: &Path, path: &Path) {
    let data = kubeconfig_field(kubeconfig, "certificate-authority-data");
    assert!(!data.is_empty(), "no CA in {}", kubeconfig.display());
    let out = Command::new("base64")
        .arg("-d")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().unwrap().write_all(data.as_bytes())?;
            c.wait_with_output()
        })
        .unwrap();
    std::fs::write(path, out.stdout).unwrap();
}

#[test]
fn kubectl_as_admin_as_a_service_account_and_with_static_tokens() {
    if !kubectl_available() {
        return;
    }
    let dir = TempDir::new("sec", "kubectl");
    let kubeconfig = dir.0.join("kubeconfig");
    let tokens = dir.0.join("tokens.csv");
    std::fs::write(&tokens, "alice-token,alice,1001,\"dev,ops\"\n").unwrap();
    let audit = dir.0.join("audit.log");
    let served = serve(&[
        "--listen",
        "127.0.0.1:0",
        "--kubeconfig",
        kubeconfig.to_str().unwrap(),
        "--token-auth-file",
        tokens.to_str().unwrap(),
        "--audit-log-path",
        audit.to_str().unwrap(),
    ]);
    assert!(
        served.url.starts_with("https://127.0.0.1:"),
        "{}",
        served.url
    );
    let kc = kubeconfig.to_str().unwrap();

    // The admin of the kubeconfig: a client certificate in system:masters.
    let names = ok(&["--kubeconfig", kc, "get", "ns", "-o", "name"]);
    assert!(names.contains("namespace/kube-system"), "{names}");
    let who = ok(&[
        "--kubeconfig",
        kc,
        "auth",
        "whoami",
        "-o",
        "jsonpath={.status.userInfo.username} {.status.userInfo.groups}",
    ]);
    assert_eq!(
        who,
        r#"kubernetes-admin ["system:masters","system:authenticated"]"#
    );

    // The server's CA alone, with a bearer token.
    let ca = dir.0.join("ca.crt");
    let ca_data = kubeconfig_field(&kubeconfig, "certificate-authority-data");
    assert!(!ca_data.is_empty());
    let pem = Command::new("base64")
        .arg("-d")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().unwrap().write_all(ca_data.as_bytes())?;
            c.wait_with_output()
        });
    std::fs::write(&ca, pem.unwrap().stdout).unwrap();
    let with_token = |token: &str| -> Vec<String> {
        vec![
            format!("--server={}", served.url),
            format!("--certificate-authority={}", ca.display()),
            format!("--token={token}"),
        ]
    };
    let run = |token: &str, rest: &[&str]| -> Output {
        let mut args = with_token(token);
        args.extend(rest.iter().map(|s| s.to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        kubectl(&args)
    };
    let whoami = [
        "auth",
        "whoami",
        "-o",
        "jsonpath={.status.userInfo.username} {.status.userInfo.groups}",
    ];

    let out = run("alice-token", &whoami);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        r#"alice ["dev","ops","system:authenticated"]"#
    );

    ok(&["--kubeconfig", kc, "create", "serviceaccount", "builder"]);
    let token = ok(&["--kubeconfig", kc, "create", "token", "builder"]);
    let token = token.trim();
    let out = run(token, &whoami);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        r#"system:serviceaccount:default:builder ["system:serviceaccounts","system:serviceaccounts:default","system:authenticated"]"#,
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A limited user: the default RBAC gives a new service account nothing but
    // discovery, until it is bound to `view` in its namespace; `view` still reads no
    // Secrets and writes nothing.
    let refused = run(token, &["get", "configmaps"]);
    assert!(!refused.status.success());
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains(
            r#"configmaps is forbidden: User "system:serviceaccount:default:builder" cannot list resource "configmaps" in API group "" in the namespace "default""#
        ),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
    ok(&[
        "--kubeconfig",
        kc,
        "create",
        "rolebinding",
        "builder-view",
        "--clusterrole=view",
        "--serviceaccount=default:builder",
    ]);
    let listed = run(token, &["get", "configmaps"]);
    assert!(
        listed.status.success(),
        "{}",
        String::from_utf8_lossy(&listed.stderr)
    );
    for forbidden in [
        &["get", "secrets"][..],
        &["create", "configmap", "x", "--from-literal=k=v"][..],
        &["get", "configmaps", "-n", "kube-system"][..],
    ] {
        let out = run(token, forbidden);
        assert!(!out.status.success(), "{forbidden:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("is forbidden"),
            "{forbidden:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    // Refused: a token for another audience, a garbage token, a deleted account's token.
    let other = ok(&[
        "--kubeconfig",
        kc,
        "create",
        "token",
        "builder",
        "--audience",
        "https://vault.example.com",
    ]);
    for bad in [other.trim(), "garbage"] {
        let out = run(bad, &["get", "ns"]);
        assert!(!out.status.success());
        assert!(String::from_utf8_lossy(&out.stderr).contains("Unauthorized"));
    }
    // A token not used before: one just used is accepted from the server's cache for
    // 10 s after its account is gone, as kube-apiserver's token cache accepts it.
    let unused = ok(&["--kubeconfig", kc, "create", "token", "builder"]);
    ok(&["--kubeconfig", kc, "delete", "serviceaccount", "builder"]);
    let out = run(unused.trim(), &["get", "ns"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("Unauthorized"));

    // Without the CA, kubectl does not trust the server.
    let out = kubectl(&["--server", &served.url, "--token=alice-token", "get", "ns"]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("certificate"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // Every request, accepted or refused, is in the audit log.
    let log = std::fs::read_to_string(&audit).unwrap();
    let events: Vec<serde_json::Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(
        events
            .iter()
            .any(|e| e["user"]["username"] == "kubernetes-admin"
                && e["verb"] == "list"
                && e["responseStatus"]["code"] == 200)
    );
    assert!(events.iter().any(|e| e["objectRef"]["subresource"] == "token" && e["responseStatus"]["code"] == 201));
    assert!(
        events
            .iter()
            .any(|e| e["responseStatus"]["code"] == 401 && e["user"] == serde_json::json!({}))
    );
}

/// Impersonation, as kubectl asks for it (`--as`, `--as-group`, Go's `Impersonate-*`
/// headers): the admin (system:masters) may act as anyone, with Go's groups; a user acts
/// only as whom RBAC lets it `impersonate`, and is refused in Go's words otherwise; the
/// audit log names both.
#[test]
fn kubectl_impersonates_with_as_and_as_group() {
    if !kubectl_available() {
        return;
    }
    let dir = TempDir::new("sec", "impersonation");
    let kubeconfig = dir.0.join("kubeconfig");
    let tokens = dir.0.join("tokens.csv");
    std::fs::write(&tokens, "alice-token,alice,1001,\n").unwrap();
    let audit = dir.0.join("audit.log");
    let served = serve(&[
        "--listen",
        "127.0.0.1:0",
        "--kubeconfig",
        kubeconfig.to_str().unwrap(),
        "--token-auth-file",
        tokens.to_str().unwrap(),
        "--audit-log-path",
        audit.to_str().unwrap(),
    ]);
    let kc = kubeconfig.to_str().unwrap();
    let whoami = |extra: &[&str]| {
        let mut args = vec![
            "--kubeconfig",
            kc,
            "auth",
            "whoami",
            "-o",
            "jsonpath={.status.userInfo.username} {.status.userInfo.groups}",
        ];
        args.extend_from_slice(extra);
        ok(&args)
    };
    assert_eq!(whoami(&["--as", "bob"]), r#"bob ["system:authenticated"]"#);
    assert_eq!(
        whoami(&["--as", "bob", "--as-group", "dev", "--as-group", "ops"]),
        r#"bob ["dev","ops","system:authenticated"]"#
    );
    assert_eq!(
        whoami(&["--as", "system:serviceaccount:default:builder"]),
        r#"system:serviceaccount:default:builder ["system:serviceaccounts","system:serviceaccounts:default","system:authenticated"]"#
    );
    // As bob, the request is authorized as bob: refused, until a group that may.
    let out = kubectl(&["--kubeconfig", kc, "get", "configmaps", "--as", "bob"]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(
            r#"configmaps is forbidden: User "bob" cannot list resource "configmaps" in API group "" in the namespace "default""#
        ),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    ok(&[
        "--kubeconfig",
        kc,
        "get",
        "configmaps",
        "--as",
        "bob",
        "--as-group",
        "system:masters",
    ]);

    // alice may not impersonate, until RBAC lets her act as bob (and only as bob).
    write_ca(&kubeconfig, &dir.0.join("ca.crt"));
    let server = format!("--server={}", served.url);
    let ca = format!("--certificate-authority={}", dir.0.join("ca.crt").display());
    let as_alice = |rest: &[&str]| {
        let mut args = vec![server.as_str(), ca.as_str(), "--token=alice-token"];
        args.extend_from_slice(rest);
        kubectl(&args)
    };
    // (`kubectl auth whoami` hides a 403 behind "not enabled": another verb shows it.)
    let refused = as_alice(&["get", "ns", "--as", "bob"]);
    assert!(!refused.status.success());
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains(
            r#"users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope"#
        ),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
    ok(&[
        "--kubeconfig",
        kc,
        "create",
        "clusterrole",
        "impersonate-bob",
        "--verb=impersonate",
        "--resource=users",
        "--resource-name=bob",
    ]);
    ok(&[
        "--kubeconfig",
        kc,
        "create",
        "clusterrolebinding",
        "alice-impersonates-bob",
        "--clusterrole=impersonate-bob",
        "--user=alice",
    ]);
    let allowed = as_alice(&[
        "auth",
        "whoami",
        "--as",
        "bob",
        "-o",
        "jsonpath={.status.userInfo.username}",
    ]);
    assert_eq!(
        String::from_utf8_lossy(&allowed.stdout),
        "bob",
        "{}",
        String::from_utf8_lossy(&allowed.stderr)
    );
    for (rest, refusal) in [
        (
            &["--as", "carol"][..],
            r#"users "carol" is forbidden: User "alice" cannot impersonate resource "users""#,
        ),
        (
            &["--as", "bob", "--as-group", "system:masters"][..],
            r#"groups "system:masters" is forbidden: User "alice" cannot impersonate resource "groups""#,
        ),
    ] {
        let mut args = vec!["get", "ns"];
        args.extend_from_slice(rest);
        let out = as_alice(&args);
        assert!(!out.status.success(), "{rest:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(refusal),
            "{rest:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    let log = std::fs::read_to_string(&audit).unwrap();
    let impersonated = log
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .any(|e| e["user"]["username"] == "alice" && e["impersonatedUser"]["username"] == "bob");
    assert!(impersonated, "no audit event of alice acting as bob");
}

#[test]
fn the_ca_in_the_data_dir_outlives_a_restart() {
    if !kubectl_available() {
        return;
    }
    let dir = TempDir::new("sec", "restart");
    let data = dir.0.join("data");
    let first_kc = dir.0.join("first");
    let second_kc = dir.0.join("second");
    let served = serve(&[
        "--listen",
        "127.0.0.1:0",
        "--data-dir",
        data.to_str().unwrap(),
        "--kubeconfig",
        first_kc.to_str().unwrap(),
    ]);
    ok(&[
        "--kubeconfig",
        first_kc.to_str().unwrap(),
        "create",
        "configmap",
        "kept",
    ]);
    drop(served);
    let _served = serve(&[
        "--listen",
        "127.0.0.1:0",
        "--data-dir",
        data.to_str().unwrap(),
        "--kubeconfig",
        second_kc.to_str().unwrap(),
    ]);
    assert_eq!(
        kubeconfig_field(&first_kc, "certificate-authority-data"),
        kubeconfig_field(&second_kc, "certificate-authority-data")
    );
    // The first kubeconfig's admin certificate and CA still work against the new port.
    let server = kubeconfig_field(&second_kc, "server");
    let names = ok(&[
        "--kubeconfig",
        first_kc.to_str().unwrap(),
        "--server",
        &server,
        "get",
        "configmaps",
        "-o",
        "name",
    ]);
    assert!(names.contains("configmap/kept"), "{names}");
}

#[test]
fn insecure_http_only_on_loopback_where_requests_without_credentials_are_unsecured() {
    let bin = kapi().unwrap().get_program().to_owned();
    let out = Command::new(&bin)
        .args(["serve", "--insecure-http", "--listen", "0.0.0.0:0"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--insecure-http serves without TLS, so only on a loopback address"),
        "{stderr}"
    );
    if !kubectl_available() {
        return;
    }
    let dir = TempDir::new("sec", "insecure");
    let kubeconfig = dir.0.join("kubeconfig");
    let tokens = dir.0.join("tokens.csv");
    std::fs::write(&tokens, "alice-token,alice,1001\n").unwrap();
    let served = serve(&[
        "--insecure-http",
        "--listen",
        "127.0.0.1:0",
        "--kubeconfig",
        kubeconfig.to_str().unwrap(),
        "--token-auth-file",
        tokens.to_str().unwrap(),
    ]);
    assert!(
        served.url.starts_with("http://127.0.0.1:"),
        "{}",
        served.url
    );
    let kc = kubeconfig.to_str().unwrap();
    let who = ok(&[
        "--kubeconfig",
        kc,
        "auth",
        "whoami",
        "-o",
        "jsonpath={.status.userInfo.username} {.status.userInfo.groups}",
    ]);
    assert_eq!(
        who,
        r#"system:unsecured ["system:masters","system:authenticated"]"#
    );
    assert!(ok(&["--kubeconfig", kc, "get", "ns", "-o", "name"]).contains("namespace/default"));
}

#[test]
fn anonymous_requests_only_with_anonymous_auth() {
    if !kubectl_available() {
        return;
    }
    let dir = TempDir::new("sec", "anonymous");
    for (anonymous, kubeconfig) in [(false, dir.0.join("closed")), (true, dir.0.join("open"))] {
        let flag = format!("--anonymous-auth={anonymous}");
        // Authentication alone is under test: the default RBAC would refuse the anonymous
        // user a SelfSubjectReview (Go binds system:basic-user to authenticated users only).
        let served = serve(&[
            "--listen",
            "127.0.0.1:0",
            "--kubeconfig",
            kubeconfig.to_str().unwrap(),
            "--authorization-mode",
            "AlwaysAllow",
            &flag,
        ]);
        let ca = dir.0.join("ca.crt");
        write_ca(&kubeconfig, &ca);
        let server = format!("--server={}", served.url);
        let ca_flag = format!("--certificate-authority={}", ca.display());
        // A user name and password make kubectl send a Basic header instead of asking
        // for them: kube-apiserver (and kapi) has no basic authentication, so the
        // request carries no credentials it reads.
        let args = [
            server.as_str(),
            ca_flag.as_str(),
            "--username=nobody",
            "--password=nothing",
            "auth",
            "whoami",
            "-o",
            "jsonpath={.status.userInfo.username}",
        ];
        if anonymous {
            assert_eq!(ok(&args), "system:anonymous");
        } else {
            refused(&args);
        }
    }
}

/// A CA made for a test, and certificates it signs, written as PEM files.
struct TestCa {
    cert: rcgen::Certificate,
    key: rcgen::KeyPair,
}

impl TestCa {
    fn new(name: &str) -> TestCa {
        let mut params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
        params.distinguished_name = rcgen::DistinguishedName::new();
        params
            .distinguished_name
            .push(rcgen::DnType::CommonName, name);
        params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        params.key_usages = vec![
            rcgen::KeyUsagePurpose::KeyCertSign,
            rcgen::KeyUsagePurpose::DigitalSignature,
        ];
        let key = rcgen::KeyPair::generate().unwrap();
        TestCa {
            cert: params.self_signed(&key).unwrap(),
            key,
        }
    }

    /// Writes a certificate for `cn` in `org` (a client's) or for 127.0.0.1 (a
    /// server's) and its key to `dir/name.crt` and `dir/name.key`.
    fn issue(&self, dir: &Path, name: &str, cn: &str, org: Option<&str>) -> (PathBuf, PathBuf) {
        let mut params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
        params.distinguished_name = rcgen::DistinguishedName::new();
        params
            .distinguished_name
            .push(rcgen::DnType::CommonName, cn);
        match org {
            Some(org) => {
                params
                    .distinguished_name
                    .push(rcgen::DnType::OrganizationName, org);
                params.extended_key_usages = vec![rcgen::ExtendedKeyUsagePurpose::ClientAuth];
            }
            None => {
                params.subject_alt_names =
                    vec![rcgen::SanType::IpAddress("127.0.0.1".parse().unwrap())];
                params.extended_key_usages = vec![rcgen::ExtendedKeyUsagePurpose::ServerAuth];
            }
        }
        params.use_authority_key_identifier_extension = true;
        let key = rcgen::KeyPair::generate().unwrap();
        let cert = params.signed_by(&key, &self.cert, &self.key).unwrap();
        let (cert_path, key_path) = (
            dir.join(format!("{name}.crt")),
            dir.join(format!("{name}.key")),
        );
        std::fs::write(&cert_path, cert.pem()).unwrap();
        std::fs::write(&key_path, key.serialize_pem()).unwrap();
        (cert_path, key_path)
    }

    fn write(&self, path: &Path) {
        std::fs::write(path, self.cert.pem()).unwrap();
    }
}

#[test]
fn own_serving_certificate_and_client_ca_file() {
    if !kubectl_available() {
        return;
    }
    let dir = TempDir::new("sec", "own-certs");
    let serving_ca = TestCa::new("serving-ca");
    let (cert, key) = serving_ca.issue(&dir.0, "apiserver", "apiserver", None);
    let serving_ca_file = dir.0.join("serving-ca.crt");
    serving_ca.write(&serving_ca_file);
    let users_ca = TestCa::new("users-ca");
    let users_ca_file = dir.0.join("users-ca.crt");
    users_ca.write(&users_ca_file);
    let (bob_cert, bob_key) = users_ca.issue(&dir.0, "bob", "bob", Some("developers"));
    let stranger = TestCa::new("users-ca");
    let (eve_cert, eve_key) = stranger.issue(&dir.0, "eve", "bob", Some("system:masters"));
    let kubeconfig = dir.0.join("kubeconfig");
    let served = serve(&[
        "--listen",
        "127.0.0.1:0",
        "--kubeconfig",
        kubeconfig.to_str().unwrap(),
        "--tls-cert-file",
        cert.to_str().unwrap(),
        "--tls-private-key-file",
        key.to_str().unwrap(),
        "--client-ca-file",
        users_ca_file.to_str().unwrap(),
    ]);
    // The kubeconfig names no CA now: the serving certificate is not kapi's.
    assert_eq!(
        kubeconfig_field(&kubeconfig, "certificate-authority-data"),
        ""
    );
    let ca_flag = format!("--certificate-authority={}", serving_ca_file.display());
    let kc = kubeconfig.to_str().unwrap();
    let whoami = "jsonpath={.status.userInfo.username} {.status.userInfo.groups}";
    // kapi's admin certificate still works (kapi's CA is always trusted) ...
    assert_eq!(
        ok(&["--kubeconfig", kc, &ca_flag, "auth", "whoami", "-o", whoami]),
        r#"kubernetes-admin ["system:masters","system:authenticated"]"#
    );
    // ... and so do the certificates of --client-ca-file.
    let server = format!("--server={}", served.url);
    let as_bob = [
        server.as_str(),
        ca_flag.as_str(),
        &format!("--client-certificate={}", bob_cert.display()),
        &format!("--client-key={}", bob_key.display()),
    ]
    .map(str::to_owned);
    let mut args: Vec<&str> = as_bob.iter().map(String::as_str).collect();
    args.extend(["auth", "whoami", "-o", whoami]);
    assert_eq!(ok(&args), r#"bob ["developers","system:authenticated"]"#);
    // A certificate of another CA with the same names is not served.
    let eve = [
        server.as_str(),
        ca_flag.as_str(),
        &format!("--client-certificate={}", eve_cert.display()),
        &format!("--client-key={}", eve_key.display()),
    ]
    .map(str::to_owned);
    let mut args: Vec<&str> = eve.iter().map(String::as_str).collect();
    args.extend(["get", "ns"]);
    let out = kubectl(&args);
    assert!(
        !out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn bad_security_files_stop_the_server_with_file_and_line() {
    let dir = TempDir::new("sec", "bad-files");
    let tokens = dir.0.join("tokens.csv");
    std::fs::write(&tokens, "a,alice,1\nb,bob\n").unwrap();
    let bin = kapi().unwrap().get_program().to_owned();
    let run = |args: &[&str]| {
        let out = Command::new(&bin)
            .args(["serve", "--listen", "127.0.0.1:0"])
            .args(args)
            .output()
            .unwrap();
        assert!(!out.status.success(), "kapi serve {args:?} started");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let stderr = run(&["--token-auth-file", tokens.to_str().unwrap()]);
    assert!(
        stderr.contains(&format!(
            "token file '{}', line 2: must have at least 3 columns (token, user name, user uid), found 2",
            tokens.display()
        )),
        "{stderr}"
    );
    let missing = dir.0.join("missing.crt");
    let stderr = run(&[
        "--tls-cert-file",
        missing.to_str().unwrap(),
        "--tls-private-key-file",
        missing.to_str().unwrap(),
    ]);
    assert!(stderr.contains(missing.to_str().unwrap()), "{stderr}");
    let stderr = run(&["--client-ca-file", tokens.to_str().unwrap()]);
    assert!(stderr.contains("--client-ca-file"), "{stderr}");
    let stderr = run(&[
        "--service-account-signing-key-file",
        tokens.to_str().unwrap(),
    ]);
    assert!(
        stderr.contains("--service-account-signing-key-file"),
        "{stderr}"
    );
}
