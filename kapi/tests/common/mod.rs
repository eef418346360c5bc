//! What the end-to-end tests share: running the built binary and reading its output.
// Each test crate uses a different part of this module.
#![allow(dead_code)]

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
