//! End-to-end tests: the built `kapi` binary, run as a user runs it.

use crate::common;

use common::{TestResult, kapi};

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
    for command in [
        "api-resources",
        "api-versions",
        "resolve",
        "conformance",
        "validate",
    ] {
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
    // What a 1.36 server serves: versions kept only for conversion are not listed.
    assert!(lines.contains(&"apps/v1") && lines.contains(&"autoscaling/v1"));
    for gone in [
        "extensions/v1beta1",
        "apps/v1beta2",
        "batch/v1beta1",
        "policy/v1beta1",
    ] {
        assert!(!lines.contains(&gone), "{gone} listed");
    }
    Ok(())
}

#[test]
fn wide_resources_show_the_verbs_the_api_server_lists() -> TestResult {
    let out = kapi()?
        .args(["api-resources", "-o", "wide", "--api-group", ""])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out)?;
    let row = |name: &str| {
        text.lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
    };
    let pods = row("pods").ok_or("no pods row")?;
    assert_eq!(
        pods[pods.len() - 2..],
        [
            "create,delete,deletecollection,get,list,patch,update,watch",
            "all"
        ]
    );
    assert_eq!(
        row("bindings").ok_or("no bindings row")?.last(),
        Some(&"create")
    );
    let namespaces = row("namespaces").ok_or("no namespaces row")?;
    assert_eq!(
        namespaces.last(),
        Some(&"create,delete,get,list,patch,update,watch")
    );
    Ok(())
}

fn fixtures_dir() -> std::path::PathBuf {
    crate::release_data::testdata(k8s_types::RELEASE)
}

/// Whether the fixture directory is there; without it the test is skipped with a note,
/// except under CI, where it fails.
fn present_or_skipped(dir: &std::path::Path) -> bool {
    if dir.is_dir() {
        return true;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "fixtures not found at {}",
        dir.display()
    );
    eprintln!("note: no fixtures at {}; skipped", dir.display());
    false
}

/// Go's own fixtures, through the generated types: JSON, YAML and protobuf decode to the
/// same object and re-encode byte for byte. Skipped with a note without the fixtures, except
/// under CI.
#[test]
fn upstream_fixtures_conform() -> TestResult {
    let dir = fixtures_dir();
    if !present_or_skipped(&dir) {
        return Ok(());
    }
    // Every fixture of the release's `testdata`, in its three formats.
    let fixtures = match k8s_types::RELEASE {
        "1.36" => 414,
        "1.37" => 579,
        other => return Err(format!("no fixture count recorded for Kubernetes {other}").into()),
    };
    let assert = kapi()?.arg("conformance").arg(&dir).assert();
    let stdout = String::from_utf8(assert.get_output().stdout.clone())?;
    assert!(
        stdout.ends_with(&format!("{fixtures} passed, 0 failed\n")),
        "conformance failed:\n{stdout}"
    );
    assert.success();
    Ok(())
}

/// Go's fixtures of the previous release (v1.35.0), held to Go's previous-release rule:
/// the kinds 1.36 no longer has are skipped, the others checked (against their
/// `after_roundtrip` files where there are some). Skipped with a note without the
/// fixtures, except under CI.
#[test]
fn previous_release_fixtures_skip_only_the_kinds_kubernetes_removed() -> TestResult {
    let dir = fixtures_dir().with_file_name("testdata-v1.35.0");
    if !present_or_skipped(&dir) {
        return Ok(());
    }
    let assert = kapi()?.arg("conformance").arg(&dir).assert();
    let stdout = String::from_utf8(assert.get_output().stdout.clone())?;
    let skipped: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("SKIP "))
        .filter_map(|l| l.split(':').next())
        .collect();
    assert_eq!(
        skipped,
        [
            "autoscaling.v2beta1.HorizontalPodAutoscaler",
            "autoscaling.v2beta2.HorizontalPodAutoscaler",
            "scheduling.k8s.io.v1alpha1.PriorityClass",
            "scheduling.k8s.io.v1alpha1.Workload",
        ],
        "{stdout}"
    );
    // `after_roundtrip` files are no fixtures of their own.
    assert!(!stdout.contains("after_roundtrip:"), "{stdout}");
    assert!(!stdout.contains("Kind=after_roundtrip"), "{stdout}");
    let last = stdout.lines().last().unwrap_or_default();
    assert!(last.ends_with(" 0 failed, 12 skipped"), "{stdout}");
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

#[test]
fn validate_reports_every_unknown_and_duplicate_field() -> TestResult {
    let dir = std::env::temp_dir().join(format!("kapi-validate-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let file = dir.join("manifest.yaml");
    std::fs::write(
        &file,
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n  replicas: 3\n  template:\n    spec:\n      containers:\n      - name: web\n        imagePullPolicyy: Always\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ok\n---\napiVersion: apps/v1\nkind: Mystery\n---\napiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  anything: goes\n",
    )?;
    let assert = kapi()?
        .arg("validate")
        .arg("-f")
        .arg(&dir)
        .assert()
        .failure();
    let stderr = String::from_utf8(assert.get_output().stderr.clone())?;
    let stdout = String::from_utf8(assert.get_output().stdout.clone())?;
    std::fs::remove_dir_all(&dir)?;
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 4, "{stderr}");
    assert!(lines[0].contains("manifest.yaml: document 0 (apps/v1, Kind=Deployment): line 7: key \"replicas\" already set in map"), "{stderr}");
    assert!(
        lines[1].ends_with("unknown field \"spec.template.spec.containers[0].imagePullPolicyy\""),
        "{stderr}"
    );
    // An unknown kind of a built-in group is a mistake; a custom resource is not checked.
    assert!(
        lines[2].contains("manifest.yaml: document 2: no kind \"Mystery\""),
        "{stderr}"
    );
    assert!(
        lines[3].ends_with(
            "manifest.yaml: document 3 (example.com/v1, Kind=Widget): not checked: not a built-in kind"
        ),
        "{stderr}"
    );
    assert_eq!(stdout, "1 valid, 2 invalid, 1 not checked\n");
    Ok(())
}

#[test]
fn validate_reports_kube_apiserver_rules_with_gos_messages() -> TestResult {
    let manifest = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: api}\n    spec:\n      containers:\n      - name: web\n        image: nginx\n        resources:\n          requests: {cpu: \"2\"}\n          limits: {cpu: \"1\"}\n---\napiVersion: extensions/v1beta1\nkind: Deployment\nmetadata: {name: old}\nspec:\n  replicas: -1\n  template:\n    metadata: {labels: {app: old}}\n    spec:\n      containers: [{name: old, image: nginx}]\n---\napiVersion: v1\nkind: Service\nmetadata: {name: svc.1}\nspec:\n  ports: [{port: 80}]\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: fine}\n";
    let assert = kapi()?
        .args(["validate", "-f", "-"])
        .write_stdin(manifest)
        .assert()
        .failure();
    let out = assert.get_output();
    let stderr = String::from_utf8(out.stderr.clone())?;
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(
        lines,
        [
            "<stdin>: document 0 (apps/v1, Kind=Deployment): spec.template.metadata.labels: Invalid value: {\"app\":\"api\"}: `selector` does not match template `labels`",
            "<stdin>: document 0 (apps/v1, Kind=Deployment): spec.template.spec.containers[0].resources.requests: Invalid value: \"2\": must be less than or equal to cpu limit of 1",
            // Checked as apps/v1, the version kube-apiserver's rules are written for.
            "<stdin>: document 1 (extensions/v1beta1, Kind=Deployment): spec.replicas: Invalid value: -1: must be greater than or equal to 0",
            // Service names are DNS-1123 labels in 1.36 (RelaxedServiceNameValidation).
            "<stdin>: document 2 (/v1, Kind=Service): metadata.name: Invalid value: \"svc.1\": must not contain dots",
        ],
        "{stderr}"
    );
    assert_eq!(
        String::from_utf8(out.stdout.clone())?,
        "1 valid, 3 invalid\n"
    );
    Ok(())
}

#[test]
fn validate_fills_cluster_ips_from_a_lone_cluster_ip_as_the_server_does() -> TestResult {
    // A headless Service as charts write it: `clusterIP` without `clusterIPs`, which
    // kube-apiserver accepts (its storage fills `clusterIPs` before validating). One
    // whose two fields disagree is refused by both.
    let assert = kapi()?
        .args(["validate", "-f", "-"])
        .write_stdin("apiVersion: v1\nkind: Service\nmetadata: {name: headless}\nspec:\n  clusterIP: None\n  selector: {app: web}\n  ports: [{port: 80}]\n---\napiVersion: v1\nkind: Service\nmetadata: {name: split}\nspec:\n  clusterIP: 10.96.0.10\n  clusterIPs: [10.96.0.11]\n  ports: [{port: 80}]\n")
        .assert()
        .failure();
    let out = assert.get_output();
    assert_eq!(
        String::from_utf8(out.stdout.clone())?,
        "1 valid, 1 invalid\n"
    );
    let stderr = String::from_utf8(out.stderr.clone())?;
    assert!(
        stderr.contains("document 1 (/v1, Kind=Service): spec.clusterIPs: Invalid value: [\"10.96.0.11\"]: first value must match `clusterIP`"),
        "{stderr}"
    );
    Ok(())
}

#[test]
fn validate_does_not_fail_on_custom_resources() -> TestResult {
    let assert = kapi()?
        .args(["validate", "-f", "-"])
        .write_stdin("apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n")
        .assert()
        .success();
    let out = assert.get_output();
    assert_eq!(
        String::from_utf8(out.stdout.clone())?,
        "1 valid, 0 invalid, 1 not checked\n"
    );
    assert_eq!(
        String::from_utf8(out.stderr.clone())?,
        "<stdin>: document 0 (example.com/v1, Kind=Widget): not checked: not a built-in kind\n"
    );
    Ok(())
}

#[test]
fn validate_accepts_valid_input_from_stdin() -> TestResult {
    let assert = kapi()?
        .args(["validate", "-f", "-"])
        .write_stdin("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}")
        .assert()
        .success();
    assert_eq!(
        String::from_utf8(assert.get_output().stdout.clone())?,
        "1 valid, 0 invalid\n"
    );
    Ok(())
}
