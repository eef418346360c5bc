//! What the end-to-end tests share: running the built binary and reading its output.
// Each test crate uses a different part of this module.
#![allow(dead_code, clippy::panic)]

use std::path::PathBuf;

use assert_cmd::Command;

/// A test's result: any error fails it.
pub type TestResult = Result<(), Box<dyn std::error::Error>>;

/// The built `kapi`.
pub fn kapi() -> Result<Command, assert_cmd::cargo::CargoError> {
    Command::cargo_bin("kapi")
}

/// The bundled example of deprecated manifests.
pub fn example() -> String {
    format!("{}/examples/legacy.yaml", env!("CARGO_MANIFEST_DIR"))
}

/// Runs `cmd`, which must succeed, and returns its standard output.
pub fn stdout(cmd: &mut Command) -> Result<String, Box<dyn std::error::Error>> {
    Ok(String::from_utf8(
        cmd.assert().success().get_output().stdout.clone(),
    )?)
}

/// A temporary directory removed when dropped; `name` and the test process's id keep
/// tests and test binaries running at once apart.
pub struct TempDir(pub PathBuf);

impl TempDir {
    /// Creates the directory `kapi-<prefix>-<name>-<pid>` under the system's temporary
    /// directory, empty.
    pub fn new(prefix: &str, name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("kapi-{prefix}-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Whether the installed `kubectl` runs; under CI its absence fails the test instead.
pub fn kubectl_available() -> bool {
    let found = std::process::Command::new("kubectl")
        .args(["version", "--client"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "kubectl is not installed, and CI needs this test"
        );
        eprintln!("kubectl is not installed: skipping");
    }
    found
}
