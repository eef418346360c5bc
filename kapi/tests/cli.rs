//! End-to-end tests: the built `kapi` binary, run as a user runs it.

use assert_cmd::Command;

type TestResult = Result<(), Box<dyn std::error::Error>>;

fn kapi() -> Result<Command, assert_cmd::cargo::CargoError> {
    Command::cargo_bin("kapi")
}

#[test]
fn help_lists_every_command_with_examples() -> TestResult {
    let out = kapi()?
        .arg("--help")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out)?;
    for command in ["api-resources", "api-versions", "resolve"] {
        assert!(text.contains(command), "{command} missing from:\n{text}");
    }
    let out = kapi()?
        .args(["resolve", "--help"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert!(String::from_utf8(out)?.contains("kapi resolve deploy"));
    Ok(())
}

#[test]
fn unknown_names_fail_with_one_line_each() -> TestResult {
    let assert = kapi()?
        .args(["resolve", "doohickeys", "gizmos.example.com"])
        .assert()
        .failure();
    let stderr = String::from_utf8(assert.get_output().stderr.clone())?;
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    assert!(lines[0].starts_with("error: doohickeys: "), "{stderr}");
    assert!(
        lines[1].starts_with("error: gizmos.example.com: "),
        "{stderr}"
    );
    Ok(())
}

#[test]
fn api_versions_are_sorted_and_unique() -> TestResult {
    let out = kapi()?
        .arg("api-versions")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out)?;
    let lines: Vec<&str> = text.lines().collect();
    let mut sorted = lines.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(lines, sorted);
    Ok(())
}

fn fixtures_dir() -> std::path::PathBuf {
    std::env::var_os("K8S_API_TESTDATA").map_or_else(
        || {
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../../shared/k8s-api/v1.36/testdata")
        },
        std::path::PathBuf::from,
    )
}

/// Go's own fixtures, through the generated types: JSON, YAML and protobuf decode to the
/// same object and re-encode byte for byte. Skipped with a note without the fixtures, except
/// under CI.
#[test]
fn upstream_fixtures_conform() -> TestResult {
    let dir = fixtures_dir();
    if !dir.is_dir() {
        assert!(
            std::env::var_os("CI").is_none(),
            "fixtures not found at {}",
            dir.display()
        );
        eprintln!("note: no fixtures at {}; skipped", dir.display());
        return Ok(());
    }
    let assert = kapi()?.arg("conformance").arg(&dir).assert();
    let stdout = String::from_utf8(assert.get_output().stdout.clone())?;
    assert!(
        stdout.ends_with("414 passed, 0 failed\n"),
        "conformance failed:\n{stdout}"
    );
    assert.success();
    Ok(())
}

#[test]
fn conformance_reports_each_failure_and_the_totals() -> TestResult {
    let dir = std::env::temp_dir().join(format!("kapi-conformance-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    // A ConfigMap whose bytes are not what Go writes (keys out of order), and a YAML
    // twin that is.
    std::fs::write(
        dir.join("core.v1.ConfigMap.json"),
        "{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"ConfigMap\",\n  \"metadata\": {\n    \"name\": \"a\"\n  }\n}",
    )?;
    std::fs::write(
        dir.join("core.v1.ConfigMap.yaml"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n",
    )?;
    let assert = kapi()?.arg("conformance").arg(&dir).assert().failure();
    let stdout = String::from_utf8(assert.get_output().stdout.clone())?;
    std::fs::remove_dir_all(&dir)?;
    assert!(
        stdout.contains("FAIL core.v1.ConfigMap.json: re-encodes differently at line 2"),
        "{stdout}"
    );
    assert!(stdout.ends_with("1 passed, 1 failed\n"), "{stdout}");
    Ok(())
}
