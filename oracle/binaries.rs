//! Where the Go oracle's programs are (`oracle/build.sh`) for the Kubernetes release the
//! tests are built for: the one place every test that runs them asks.
//!
//! Not a crate: the tests of several crates include this file with
//! `#[path = "../../../oracle/binaries.rs"] mod oracle_binaries;`, so that no library
//! grows a dependency for test tooling. Each of those crates is one directory below the
//! repository root, which `CARGO_MANIFEST_DIR` relies on, and says which release it tests
//! beside the `mod` line: `const RELEASE_UNDER_TEST: &str = k8s_types::RELEASE;` (the
//! release its build of k8s-types has; a crate that is not built on the API, such as
//! `history`, names [`DEFAULT_RELEASE`]).

// Each test binary asks for a part of this file only.
#![allow(dead_code)]

use std::path::PathBuf;

/// The release `oracle/build.sh` builds without `--release`: the crates' default one.
pub const DEFAULT_RELEASE: &str = "1.37";

/// The Kubernetes release the tests compare against: the one k8s-types is built for
/// (the including crate's `RELEASE_UNDER_TEST`).
pub fn release() -> &'static str {
    super::RELEASE_UNDER_TEST
}

/// The directory `oracle/build.sh --release <release>` builds into:
/// `oracle/bin/<release>`, the default release's too.
pub fn directory(release: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../oracle/bin")
        .join(release)
}

/// The program `name` (`k8s-oracle`, `kube-apiserver`, `etcd`, ...): the path the
/// environment variable `variable` names where the caller has one and it is set (a
/// binary chosen by hand wins), else the oracle's build for [`release`].
pub fn binary(name: &str, variable: Option<&str>) -> PathBuf {
    variable
        .and_then(std::env::var_os)
        .map_or_else(|| directory(release()).join(name), PathBuf::from)
}

/// [`binary`] where it is built; otherwise `None` with a note on standard error, except
/// under CI (`CI` set), where a missing program fails the test unless `.ci/run` says why
/// Go is missing (`K8S_ORACLE_UNAVAILABLE`).
pub fn built(name: &str, variable: Option<&str>) -> Option<PathBuf> {
    let path = binary(name, variable);
    if path.is_file() {
        return Some(path);
    }
    let unavailable = std::env::var("K8S_ORACLE_UNAVAILABLE").ok();
    assert!(
        std::env::var_os("CI").is_none() || unavailable.is_some(),
        "{} is not built; CI builds it with {}",
        path.display(),
        build_command()
    );
    eprintln!(
        "note: skipped: {} is not built: {}",
        path.display(),
        unavailable.unwrap_or_else(|| format!(
            "build it with {} (needs Go and the module proxy)",
            build_command()
        ))
    );
    None
}

/// The command that builds the oracle for [`release`].
fn build_command() -> String {
    match release() {
        DEFAULT_RELEASE => "oracle/build.sh".to_owned(),
        other => format!("oracle/build.sh --release {other}"),
    }
}
