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
