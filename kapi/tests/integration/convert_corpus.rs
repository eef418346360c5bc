//! `kapi convert` against what `kubectl convert` prints for legacy manifests: each file
//! of `tests/convert-corpus/input` converted, byte for byte equal to the file of the
//! same name in `tests/convert-corpus/expected-<release>` where the release kapi is built
//! for prints it otherwise, else in `tests/convert-corpus/expected`: what the real
//! `kubectl-convert` of that release prints (see that folder's README); where the Go
//! oracle has built that plugin (always under CI), the expected files are checked against
//! it too.

use crate::common;

use std::path::PathBuf;

use common::{TestResult, kapi, stdout};

fn corpus(dir: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/convert-corpus")
        .join(dir)
}

/// The expected output for input `name` with the release under test.
fn expected(name: &str) -> Result<String, std::io::Error> {
    let own = corpus(&format!("expected-{}", crate::RELEASE_UNDER_TEST)).join(name);
    std::fs::read_to_string(if own.is_file() {
        own
    } else {
        corpus("expected").join(name)
    })
}

fn names(dir: &str) -> Result<Vec<String>, std::io::Error> {
    let mut names = std::fs::read_dir(corpus(dir))?
        .map(|e| e.map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect::<Result<Vec<_>, _>>()?;
    names.sort();
    Ok(names)
}

#[test]
fn every_legacy_manifest_converts_to_what_kubectl_convert_prints() -> TestResult {
    let inputs = names("input")?;
    assert_eq!(
        inputs,
        names("expected")?,
        "every input has its expected output"
    );
    assert!(inputs.len() >= 15, "{inputs:?}");
    let mut failures = Vec::new();
    for name in &inputs {
        let input = corpus("input").join(name);
        let input = input.to_str().ok_or("path is not UTF-8")?;
        let out = stdout(kapi()?.args(["convert", "-f", input]))?;
        let expected = expected(name)?;
        if out != expected {
            failures.push(format!(
                "{name}:\n--- expected\n{expected}\n--- kapi\n{out}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    Ok(())
}

/// Where the Go oracle built the real plugin (`oracle/build.sh`), it prints every
/// expected file (but the CRD's, whose group it does not know).
#[test]
fn the_expected_files_are_what_the_real_kubectl_convert_prints() -> TestResult {
    let Some(plugin) = crate::oracle_binaries::built("kubectl-convert", None) else {
        return Ok(());
    };
    let mut failures = Vec::new();
    for name in names("input")? {
        if name.starts_with("customresourcedefinition.") {
            continue;
        }
        let input = corpus("input").join(&name);
        let out = std::process::Command::new(&plugin)
            .arg("-f")
            .arg(&input)
            .output()?;
        let expected = expected(&name)?;
        if !out.status.success() || out.stdout != expected.as_bytes() {
            failures.push(format!(
                "{name}: kubectl-convert printed\n{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    Ok(())
}

/// The well-known quirk: an `extensions/v1beta1` Deployment keeps every revision and
/// never times out, because that version's defaults say so and conversion keeps them.
#[test]
fn extensions_deployments_keep_go_s_max_int32_defaults() -> TestResult {
    let input = corpus("input").join("deployment.extensions-v1beta1.yaml");
    let out = stdout(kapi()?.args(["convert", "-f", input.to_str().ok_or("not UTF-8")?]))?;
    assert!(
        out.contains("  progressDeadlineSeconds: 2147483647\n"),
        "{out}"
    );
    assert!(
        out.contains("  revisionHistoryLimit: 2147483647\n"),
        "{out}"
    );
    assert!(out.ends_with("status: {}\n"), "{out}");
    Ok(())
}
