//! End-to-end tests of `kapi` run as the `kubectl-convert` plugin: the binary under that
//! name (a link, as a user installs it) takes kubectl convert's flags and prints what
//! kubectl convert prints.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

use crate::common;

use common::{TestResult, example, stdout};

/// A directory holding `kubectl-convert`, a link to the built `kapi`; removed on drop.
struct Plugin {
    dir: PathBuf,
}

impl Plugin {
    fn install(test: &str) -> Result<Self, Box<dyn std::error::Error>> {
        let dir = std::env::temp_dir().join(format!("kapi-plugin-{test}-{}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        let kapi = assert_cmd::cargo::cargo_bin("kapi");
        let link = dir.join("kubectl-convert");
        let _ = std::fs::remove_file(&link);
        #[cfg(unix)]
        std::os::unix::fs::symlink(&kapi, &link)?;
        #[cfg(not(unix))]
        std::fs::copy(&kapi, &link)?;
        Ok(Plugin { dir })
    }

    fn command(&self) -> Command {
        Command::new(self.dir.join("kubectl-convert"))
    }

    fn write(&self, name: &str, text: &str) -> Result<String, Box<dyn std::error::Error>> {
        let path = self.dir.join(name);
        std::fs::write(&path, text)?;
        Ok(path.to_str().ok_or("path is not UTF-8")?.to_owned())
    }
}

impl Drop for Plugin {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

const CRONJOB: &str = "apiVersion: batch/v1beta1\nkind: CronJob\nmetadata: {name: c}\nspec: {schedule: '* * * * *', jobTemplate: {}}\n";

#[test]
fn one_file_with_one_object_prints_the_object() -> TestResult {
    let plugin = Plugin::install("single")?;
    let file = plugin.write("cronjob.yaml", CRONJOB)?;
    let out = stdout(plugin.command().args(["-f", &file, "--local"]))?;
    assert!(
        out.starts_with("apiVersion: batch/v1\nkind: CronJob\n"),
        "{out}"
    );
    Ok(())
}

#[test]
fn several_objects_or_standard_input_print_one_v1_list() -> TestResult {
    let plugin = Plugin::install("list")?;
    let out = stdout(plugin.command().args(["-f", &example()]))?;
    assert!(
        out.starts_with("apiVersion: v1\nitems:\n- apiVersion: apps/v1\n  kind: Deployment\n"),
        "{out}"
    );
    assert!(out.ends_with("kind: List\nmetadata: {}\n"), "{out}");
    assert!(!out.contains("\n---\n"), "{out}");
    // The items are the objects `kapi convert` writes, in the same order.
    let stream =
        stdout(Command::cargo_bin("kapi")?.args(["convert", "-f", &example(), "-o", "name"]))?;
    let names = stdout(plugin.command().args(["-f", &example(), "-o", "name"]))?;
    assert_eq!(names, stream);

    // Standard input is a List even for one object; JSON in Go's `metav1.List` order.
    let out = stdout(
        plugin
            .command()
            .args(["-f", "-", "-o", "json"])
            .write_stdin(CRONJOB),
    )?;
    assert!(
        out.starts_with("{\n    \"kind\": \"List\",\n    \"apiVersion\": \"v1\",\n    \"metadata\": {},\n    \"items\": [\n        {\n            \"kind\": \"CronJob\",\n            \"apiVersion\": \"batch/v1\",\n"),
        "{out}"
    );
    assert!(out.ends_with("\n    ]\n}\n"), "{out}");
    Ok(())
}

#[test]
fn plugin_flags_and_errors() -> TestResult {
    let plugin = Plugin::install("flags")?;
    let assert = plugin
        .command()
        .args(["-f", &example(), "--local=false"])
        .assert()
        .failure();
    let stderr = String::from_utf8(assert.get_output().stderr.clone())?;
    assert!(stderr.contains("--local=false"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");

    let help = stdout(plugin.command().arg("--help"))?;
    assert!(help.contains("Usage: kubectl-convert"), "{help}");
    assert!(help.contains("--output-version"), "{help}");

    let empty = plugin.write("empty.yaml", "# nothing\n")?;
    let assert = plugin.command().args(["-f", &empty]).assert().failure();
    let stderr = String::from_utf8(assert.get_output().stderr.clone())?;
    assert_eq!(stderr, "error: no objects passed to convert\n");
    assert!(Path::new(&empty).exists());
    Ok(())
}

#[test]
fn custom_resources_pass_through_with_one_warning_per_kind() -> TestResult {
    let plugin = Plugin::install("custom")?;
    let widget =
        "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: 3\n";
    let file = plugin.write("widget.yaml", widget)?;
    let assert = plugin.command().args(["-f", &file]).assert().success();
    let out = assert.get_output();
    // One file holding one object: the object as itself.
    assert_eq!(String::from_utf8(out.stdout.clone())?, widget);
    assert_eq!(
        String::from_utf8(out.stderr.clone())?,
        "warning: example.com/v1, Kind=Widget is not a built-in kind; its objects are passed through unchanged\n"
    );

    // Among other objects, in the `v1 List`: still one warning for two Widgets.
    let stream = format!(
        "{CRONJOB}---\n{widget}---\n{}",
        widget.replace("name: w", "name: x")
    );
    let assert = plugin
        .command()
        .args(["-f", "-", "-o", "name"])
        .write_stdin(stream)
        .assert()
        .success();
    let out = assert.get_output();
    assert_eq!(
        String::from_utf8(out.stdout.clone())?,
        "cronjob.batch/c\nwidget.example.com/w\nwidget.example.com/x\n"
    );
    assert_eq!(String::from_utf8(out.stderr.clone())?.lines().count(), 1);
    Ok(())
}
