//! Kubeconfig loading: contexts, merging, data and files, credentials, in-cluster.

use std::path::PathBuf;

use super::*;

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

const TWO_CONTEXTS: &str = "
apiVersion: v1
kind: Config
current-context: a
clusters:
- name: ca
  cluster:
    server: https://a.example:6443
    certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==
- name: cb
  cluster:
    server: https://b.example
    certificate-authority: ca.pem
    tls-server-name: kubernetes
users:
- name: ua
  user:
    token: tok-a
- name: ub
  user:
    tokenFile: token.txt
    client-certificate: cert.pem
    client-key: key.pem
- name: basic
  user:
    username: admin
    password: pw
contexts:
- name: a
  context: {cluster: ca, user: ua, namespace: ns-a}
- name: b
  context: {cluster: cb, user: ub}
- name: c
  context: {cluster: ca, user: basic}
";

#[test]
fn current_and_named_contexts() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "config", TWO_CONTEXTS);
    write(dir.path(), "ca.pem", "CA");
    write(dir.path(), "cert.pem", "CERT");
    write(dir.path(), "key.pem", "KEY");

    let a = Config::from_kubeconfig(&path).unwrap();
    assert_eq!(a.host, "https://a.example:6443");
    assert_eq!(a.namespace.as_deref(), Some("ns-a"));
    assert_eq!(
        a.tls.ca_data.as_deref(),
        Some(&b"-----BEGIN CERTIFICATE-----\n"[..])
    );
    assert!(matches!(a.auth, Auth::BearerToken(ref t) if t == "tok-a"));

    let b = Config::from_kubeconfig_files(std::slice::from_ref(&path), Some("b")).unwrap();
    assert_eq!(b.host, "https://b.example");
    assert_eq!(b.tls.ca_data.as_deref(), Some(&b"CA"[..]));
    assert_eq!(b.tls.cert_data.as_deref(), Some(&b"CERT"[..]));
    assert_eq!(b.tls.key_data.as_deref(), Some(&b"KEY"[..]));
    assert_eq!(b.tls.server_name.as_deref(), Some("kubernetes"));
    assert!(matches!(b.auth, Auth::BearerTokenFile(ref p) if *p == dir.path().join("token.txt")));

    let c = Config::from_kubeconfig_files(&[path], Some("c")).unwrap();
    assert!(
        matches!(c.auth, Auth::Basic { ref username, ref password } if username == "admin" && password == "pw")
    );
}

#[test]
fn errors_name_file_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "config", TWO_CONTEXTS);
    let err = Config::from_kubeconfig_files(std::slice::from_ref(&path), Some("zz")).unwrap_err();
    assert!(
        matches!(
            err,
            ConfigError::NotFound {
                what: "context",
                ..
            }
        ),
        "{err}"
    );
    assert!(
        err.to_string().contains(&path.display().to_string()),
        "{err}"
    );

    // A missing CA file names the file.
    let err = Config::from_kubeconfig_files(std::slice::from_ref(&path), Some("b")).unwrap_err();
    assert!(err.to_string().contains("ca.pem"), "{err}");

    let bad = write(
        dir.path(),
        "bad",
        "current-context: x\ncontexts:\n- name: x\n  context: {cluster: c}\nclusters:\n- name: c\n  cluster:\n    server: https://x\n    certificate-authority-data: '%%%'\n",
    );
    let err = Config::from_kubeconfig(&bad).unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("bad") && text.contains("certificate-authority-data"),
        "{text}"
    );

    let no_server = write(
        dir.path(),
        "noserver",
        "current-context: x\ncontexts:\n- name: x\n  context: {cluster: c}\nclusters:\n- name: c\n  cluster: {}\n",
    );
    assert!(matches!(
        Config::from_kubeconfig(&no_server).unwrap_err(),
        ConfigError::NoServer { .. }
    ));

    let no_current = write(dir.path(), "nocurrent", "clusters: []\n");
    assert!(matches!(
        Config::from_kubeconfig(&no_current).unwrap_err(),
        ConfigError::NoCurrentContext { .. }
    ));

    let not_yaml = write(dir.path(), "notyaml", "clusters: [\n");
    let err = Config::from_kubeconfig(&not_yaml).unwrap_err();
    assert!(matches!(err, ConfigError::Yaml { .. }), "{err}");

    let err = Config::from_kubeconfig(dir.path().join("missing")).unwrap_err();
    assert!(matches!(err, ConfigError::Read { .. }), "{err}");
}

#[test]
fn several_files_merge_first_wins() {
    let dir = tempfile::tempdir().unwrap();
    let first = write(
        dir.path(),
        "one",
        "current-context: dev\nclusters:\n- name: shared\n  cluster: {server: 'https://first'}\ncontexts:\n- name: dev\n  context: {cluster: shared, user: me}\n",
    );
    let second = write(
        dir.path(),
        "two",
        "current-context: prod\nclusters:\n- name: shared\n  cluster: {server: 'https://second'}\nusers:\n- name: me\n  user: {token: from-two}\n",
    );
    let missing = dir.path().join("absent");
    let config = Config::from_kubeconfig_files(&[first, missing, second], None).unwrap();
    assert_eq!(config.host, "https://first");
    assert!(matches!(config.auth, Auth::BearerToken(ref t) if t == "from-two"));
}

#[test]
fn exec_plugins_are_read_and_checked() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "config",
        "current-context: x\ncontexts:\n- name: x\n  context: {cluster: c, user: u}\nclusters:\n- name: c\n  cluster: {server: 'https://x'}\nusers:\n- name: u\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: ./bin/plugin\n      args: [get-token]\n      env:\n      - {name: A, value: b}\n",
    );
    let config = Config::from_kubeconfig(&path).unwrap();
    let Auth::Exec(exec) = config.auth else {
        panic!("not exec: {:?}", config.auth)
    };
    assert_eq!(exec.command, dir.path().join("./bin/plugin"));
    assert_eq!(exec.args, ["get-token"]);
    assert_eq!(exec.env, [("A".to_string(), "b".to_string())]);

    let bad = write(
        dir.path(),
        "bad",
        "current-context: x\ncontexts:\n- name: x\n  context: {cluster: c, user: u}\nclusters:\n- name: c\n  cluster: {server: 'https://x'}\nusers:\n- name: u\n  user:\n    exec: {apiVersion: client.authentication.k8s.io/v1alpha1, command: x}\n",
    );
    let err = Config::from_kubeconfig(&bad).unwrap_err();
    assert!(
        err.to_string().contains("users[u].user.exec.apiVersion"),
        "{err}"
    );
}

#[test]
fn in_cluster_from_service_account_files() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "token", "sa-token\n");
    write(dir.path(), "ca.crt", "CA");
    write(dir.path(), "namespace", "kube-system\n");
    let config = Config::from_service_account("10.0.0.1", "443", dir.path()).unwrap();
    assert_eq!(config.host, "https://10.0.0.1:443");
    assert_eq!(config.tls.ca_data.as_deref(), Some(&b"CA"[..]));
    assert_eq!(config.namespace.as_deref(), Some("kube-system"));
    assert!(matches!(config.auth, Auth::BearerTokenFile(ref p) if *p == dir.path().join("token")));

    let v6 = Config::from_service_account("fd00::1", "6443", dir.path()).unwrap();
    assert_eq!(v6.host, "https://[fd00::1]:6443");

    std::fs::remove_file(dir.path().join("ca.crt")).unwrap();
    let err = Config::from_service_account("10.0.0.1", "443", dir.path()).unwrap_err();
    assert!(err.to_string().contains("ca.crt"), "{err}");
}

#[test]
fn exec_plugins_get_cluster_info_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "config",
        "current-context: x\ncontexts:\n- name: x\n  context: {cluster: c, user: u}\nclusters:\n- name: c\n  cluster: {server: 'https://x:6443', certificate-authority-data: Q0E=}\nusers:\n- name: u\n  user:\n    exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: plugin, provideClusterInfo: true}\n",
    );
    let config = Config::from_kubeconfig(&path).unwrap();
    let Auth::Exec(exec) = config.auth else {
        panic!("not exec")
    };
    // A bare command name is looked up on PATH, not next to the kubeconfig.
    assert_eq!(exec.command, PathBuf::from("plugin"));
    let info = exec.cluster_info.unwrap();
    assert_eq!(info["server"], "https://x:6443");
    assert_eq!(info["certificate-authority-data"], "Q0E=");
}

#[test]
fn text_in_memory_resolves_files_against_its_origin() {
    let dir = tempfile::tempdir().unwrap();
    for f in ["ca.pem", "cert.pem", "key.pem"] {
        std::fs::write(dir.path().join(f), b"PEM").unwrap();
    }
    let origin = dir.path().join("inline-kubeconfig");
    let config = Config::from_kubeconfig_str(TWO_CONTEXTS, &origin, Some("b")).unwrap();
    assert_eq!(config.host, "https://b.example");
    assert_eq!(config.tls.ca_data.as_deref(), Some(&b"PEM"[..]));
    let err = Config::from_kubeconfig_str("clusters: 3", &origin, None).unwrap_err();
    assert!(err.to_string().contains("inline-kubeconfig"), "{err}");
}

#[cfg(unix)]
#[test]
fn a_named_file_that_never_ends_is_refused_not_read_forever() {
    let text = "
clusters: [{name: c, cluster: {server: https://x, certificate-authority: /dev/zero}}]
contexts: [{name: x, context: {cluster: c}}]
current-context: x
";
    let err = Config::from_kubeconfig_str(text, Path::new("/k"), None).unwrap_err();
    assert!(
        matches!(&err, ConfigError::TooLarge { path, .. } if path == Path::new("/dev/zero")),
        "{err}"
    );
}

#[test]
fn impersonation_is_read_from_the_user() {
    let text = "
clusters: [{name: c, cluster: {server: https://127.0.0.1:6443}}]
users:
- name: u
  user:
    token: abc
    as: jane
    as-uid: u-1
    as-groups: [dev, ops]
    as-user-extra: {scopes.example.com/team: [a, b]}
- name: plain
  user: {token: abc}
contexts:
- {name: acting, context: {cluster: c, user: u}}
- {name: itself, context: {cluster: c, user: plain}}
";
    let config = Config::from_kubeconfig_str(text, Path::new("inline"), Some("acting")).unwrap();
    assert_eq!(
        config.impersonate,
        Impersonate {
            user: Some("jane".into()),
            uid: Some("u-1".into()),
            groups: vec!["dev".into(), "ops".into()],
            extra: [(
                "scopes.example.com/team".to_owned(),
                vec!["a".to_owned(), "b".to_owned()]
            )]
            .into(),
        }
    );
    let config = Config::from_kubeconfig_str(text, Path::new("inline"), Some("itself")).unwrap();
    assert_eq!(config.impersonate, Impersonate::default());
}
