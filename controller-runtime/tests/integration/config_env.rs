//! Configuration read from the environment (`KUBECONFIG`, `KUBERNETES_SERVICE_HOST`):
//! each test runs itself again in a child process with the variables set, since a
//! test may not change its own process's environment safely.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::process::Command;

use controller_runtime::config::{Auth, Config, ConfigError};

/// Runs the test `name` of this binary in a child with `env`; true when the child is
/// the one running (then the caller does the checks).
fn in_child(name: &str, env: &[(&str, &str)]) -> bool {
    if std::env::var_os("CR_CONFIG_ENV_CHILD").is_some() {
        return true;
    }
    // libtest names a test by its module path inside the binary, less the crate's name.
    let module = module_path!().split_once("::").map_or("", |(_, m)| m);
    let name = format!("{module}::{name}");
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args([name.as_str(), "--exact", "--nocapture", "--test-threads=1"])
        .env("CR_CONFIG_ENV_CHILD", "1")
        .env_remove("KUBECONFIG")
        .env_remove("KUBERNETES_SERVICE_HOST")
        .env_remove("KUBERNETES_SERVICE_PORT");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("1 passed"),
        "child {name} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    false
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

#[test]
fn kubeconfig_env_lists_files_merged_in_order() {
    let dir = std::env::temp_dir().join(format!("cr-config-env-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let a = write(
        &dir,
        "a",
        "current-context: one\ncontexts:\n- name: one\n  context: {cluster: c, user: u, namespace: from-a}\n",
    );
    let b = write(
        &dir,
        "b",
        "current-context: two\nclusters:\n- name: c\n  cluster: {server: 'https://from-b'}\nusers:\n- name: u\n  user: {token: tb}\n",
    );
    let list = std::env::join_paths([&a, &b]).unwrap();
    let list = list.to_str().unwrap().to_string();
    if in_child(
        "kubeconfig_env_lists_files_merged_in_order",
        &[("KUBECONFIG", &list), ("HOME", "/nonexistent")],
    ) {
        let config = Config::load().unwrap();
        assert_eq!(config.host, "https://from-b");
        assert_eq!(config.namespace.as_deref(), Some("from-a"));
        assert!(matches!(config.auth, Auth::BearerToken(ref t) if t == "tb"));
    } else {
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn nothing_to_load_is_a_typed_error() {
    if in_child(
        "nothing_to_load_is_a_typed_error",
        &[("HOME", "/nonexistent")],
    ) {
        let err = Config::load().unwrap_err();
        assert!(matches!(err, ConfigError::NoConfiguration { .. }), "{err}");
        let err = Config::in_cluster().unwrap_err();
        assert!(
            matches!(
                err,
                ConfigError::NotInCluster {
                    variable: "KUBERNETES_SERVICE_HOST"
                }
            ),
            "{err}"
        );
    }
}

#[test]
fn in_cluster_reads_the_service_environment() {
    let dir = std::env::temp_dir().join(format!("cr-sa-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    write(&dir, "token", "sa");
    write(&dir, "ca.crt", "CA");
    let dir_text = dir.display().to_string();
    if in_child(
        "in_cluster_reads_the_service_environment",
        &[
            ("KUBERNETES_SERVICE_HOST", "10.96.0.1"),
            ("KUBERNETES_SERVICE_PORT", "443"),
            ("CR_SA_DIR", &dir_text),
        ],
    ) {
        let dir = std::env::var("CR_SA_DIR").unwrap();
        let config = Config::in_cluster_from(Path::new(&dir)).unwrap();
        assert_eq!(config.host, "https://10.96.0.1:443");
        assert!(matches!(config.auth, Auth::BearerTokenFile(_)));
    } else {
        let _ = std::fs::remove_dir_all(&dir);
    }
}
