//! End-to-end tests of `kapi convert`: the built binary on manifests with deprecated
//! versions.

use crate::common;

use common::{TestResult, example, kapi, stdout};

#[test]
fn the_bundled_example_upgrades_to_the_preferred_versions() -> TestResult {
    let out = stdout(kapi()?.args(["convert", "-f", &example()]))?;
    let versions: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("apiVersion: "))
        .collect();
    assert_eq!(
        versions,
        [
            "apiVersion: apps/v1",
            "apiVersion: networking.k8s.io/v1",
            "apiVersion: batch/v1",
            "apiVersion: policy/v1",
            "apiVersion: v1",
        ]
    );
    assert_eq!(out.matches("\n---\n").count(), 4, "{out}");
    // apps/v1 requires the selector the old version defaulted from the template labels;
    // the rest of `extensions/v1beta1`'s defaults come along (surges of 1, every
    // revision kept), as `kubectl convert` prints them; Go writes value structs
    // (`status`) even when empty.
    assert!(
        out.contains("  selector:\n    matchLabels:\n      app: web\n  strategy:\n    rollingUpdate:\n      maxSurge: 1\n      maxUnavailable: 1\n    type: RollingUpdate\n  template:"),
        "{out}"
    );
    assert!(
        out.contains("  revisionHistoryLimit: 2147483647\n"),
        "{out}"
    );
    assert!(
        out.contains(
            "        resources: {}\n        terminationMessagePath: /dev/termination-log\n"
        ),
        "{out}"
    );
    assert!(
        out.contains("      terminationGracePeriodSeconds: 30\nstatus: {}\n---\n"),
        "{out}"
    );
    // The Ingress backends became services.
    assert!(out.contains("  defaultBackend:\n    service:\n      name: default-http\n      port:\n        number: 80\n"), "{out}");
    assert!(
        out.contains("            port:\n              name: http\n"),
        "{out}"
    );
    assert!(out.contains("pathType: ImplementationSpecific"), "{out}");
    // The ConfigMap passed through, its strings quoted as Go quotes them.
    assert!(
        out.contains("  greeting: 'hello: world'\n  replicas: \"3\"\n"),
        "{out}"
    );
    Ok(())
}

/// Our YAML stream against kubectl's printing of the same objects, captured in
/// `tests/data/<captured>`: kubectl prints each object on its own (no `---`) and adds
/// `labels: {}` to objects without labels; both are removed before comparing.
fn assert_same_as_kubectl(ours: &str, captured: &str) -> TestResult {
    let ours: String = ours
        .lines()
        .filter(|l| *l != "---")
        .map(|l| format!("{l}\n"))
        .collect();
    let kubectl = std::fs::read_to_string(format!(
        "{}/tests/data/{captured}",
        env!("CARGO_MANIFEST_DIR")
    ))?;
    let kubectl: String = kubectl
        .lines()
        .filter(|l| *l != "  labels: {}")
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(ours, kubectl);
    Ok(())
}

/// kubectl's own YAML printer, given our JSON output (`kubectl label --local -f
/// converted.json foo- -o yaml`, captured in `tests/data`), prints what we print.
#[test]
fn yaml_output_is_what_kubectl_prints_for_the_same_objects() -> TestResult {
    let ours = stdout(kapi()?.args(["convert", "-f", &example()]))?;
    assert_same_as_kubectl(&ours, "legacy.converted.kubectl.yaml")
}

#[test]
fn json_output_is_four_space_indented_and_output_version_is_honoured() -> TestResult {
    let out = stdout(kapi()?.args([
        "convert",
        "-f",
        &example(),
        "--output-version",
        "apps/v1beta2",
        "-o",
        "json",
    ]))?;
    assert!(
        out.starts_with(
            "{\n    \"kind\": \"Deployment\",\n    \"apiVersion\": \"apps/v1beta2\",\n"
        ),
        "{out}"
    );
    // Objects of other groups pass through unchanged.
    assert!(
        out.contains("\"apiVersion\": \"extensions/v1beta1\""),
        "{out}"
    );
    assert!(out.contains("\"apiVersion\": \"batch/v1beta1\""), "{out}");
    Ok(())
}

#[test]
fn round_trip_through_the_old_version_gives_back_the_new_objects() -> TestResult {
    let dir = std::env::temp_dir().join(format!("kapi-convert-rt-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let new = stdout(kapi()?.args(["convert", "-f", &example()]))?;
    let new_path = dir.join("new.yaml");
    std::fs::write(&new_path, &new)?;
    let old = stdout(kapi()?.args([
        "convert",
        "-f",
        new_path.to_str().ok_or("path")?,
        "--output-version",
        "extensions/v1beta1",
    ]))?;
    assert!(
        old.starts_with("apiVersion: extensions/v1beta1\nkind: Deployment\n"),
        "{old}"
    );
    let old_path = dir.join("old.yaml");
    std::fs::write(&old_path, &old)?;
    let again = stdout(kapi()?.args(["convert", "-f", old_path.to_str().ok_or("path")?]))?;
    std::fs::remove_dir_all(&dir)?;
    assert_eq!(again, new);
    Ok(())
}

#[test]
fn bad_documents_are_reported_with_file_and_index_and_the_rest_is_converted() -> TestResult {
    let stream = "apiVersion: extensions/v1beta1\nkind: Deployment\nmetadata: {name: a}\nspec: {template: {metadata: {labels: {app: a}}}}\n---\napiVersion: apps/v1\nkind: Deploymnet\n---\nkey: [unclosed\n---\napiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata: {name: p}\nspec: {bogus: 1}\n";
    let assert = kapi()?
        .args(["convert", "-f", "-", "--strict"])
        .write_stdin(stream)
        .assert()
        .failure()
        .code(1);
    let out = assert.get_output();
    let stdout = String::from_utf8(out.stdout.clone())?;
    let stderr = String::from_utf8(out.stderr.clone())?;
    assert!(
        stdout.starts_with("apiVersion: apps/v1\nkind: Deployment\n"),
        "{stdout}"
    );
    assert_eq!(stdout.matches("apiVersion:").count(), 1, "{stdout}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 3, "{stderr}");
    assert!(
        lines[0].starts_with(
            "error: <stdin>: document 1: unknown kind apps/v1, Kind=Deploymnet: apps has no kind Deploymnet in v1"
        ),
        "{stderr}"
    );
    assert!(
        lines[1].starts_with("error: <stdin>: document 2: ") && lines[1].contains("YAML"),
        "{stderr}"
    );
    assert!(
        lines[2].starts_with("error: <stdin>: document 3: ") && lines[2].contains("spec.bogus"),
        "{stderr}"
    );
    Ok(())
}

/// A custom resource as Go writes an `Unstructured` (keys sorted at every level), with
/// values whose YAML form Go's printer chooses (quoted numbers, a `: ` in a string).
const WIDGET: &str = "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  labels:\n    app: web\n    tier: \"1\"\n  name: w\nspec:\n  note: 'size: large'\n  ports:\n  - 80\n  - 443\n  ratio: 1.5\n  size: 3\n";

#[test]
fn custom_resources_pass_through_unchanged_with_one_warning_per_kind() -> TestResult {
    let deployment = "apiVersion: extensions/v1beta1\nkind: Deployment\nmetadata: {name: a}\nspec: {template: {metadata: {labels: {app: a}}}}\n";
    // The second Widget has its keys out of Go's order: it comes out sorted.
    let unsorted = "kind: Widget\napiVersion: example.com/v1\nmetadata: {name: v}\n";
    let stream = format!("{deployment}---\n{WIDGET}---\n{unsorted}");
    for strict in [false, true] {
        let mut cmd = kapi()?;
        cmd.args(["convert", "-f", "-"]);
        if strict {
            cmd.arg("--strict");
        }
        let assert = cmd.write_stdin(stream.clone()).assert().success();
        let out = assert.get_output();
        let stdout = String::from_utf8(out.stdout.clone())?;
        let stderr = String::from_utf8(out.stderr.clone())?;
        let docs: Vec<&str> = stdout.split("---\n").collect();
        assert_eq!(docs.len(), 3, "{stdout}");
        assert!(
            docs[0].starts_with("apiVersion: apps/v1\nkind: Deployment\n"),
            "{stdout}"
        );
        assert_eq!(docs[1], WIDGET);
        assert_eq!(
            docs[2],
            "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: v\n"
        );
        assert_eq!(
            stderr,
            "warning: example.com/v1, Kind=Widget is not a built-in kind; its objects are passed through unchanged\n"
        );
    }

    // JSON: the same content, keys sorted as Go's unstructured JSON writes them.
    let json = stdout(
        kapi()?
            .args(["convert", "-f", "-", "-o", "json"])
            .write_stdin(WIDGET),
    )?;
    assert_eq!(
        json,
        "{\n    \"apiVersion\": \"example.com/v1\",\n    \"kind\": \"Widget\",\n    \"metadata\": {\n        \"labels\": {\n            \"app\": \"web\",\n            \"tier\": \"1\"\n        },\n        \"name\": \"w\"\n    },\n    \"spec\": {\n        \"note\": \"size: large\",\n        \"ports\": [\n            80,\n            443\n        ],\n        \"ratio\": 1.5,\n        \"size\": 3\n    }\n}\n"
    );
    // Read back, the JSON gives the same YAML.
    let again = stdout(kapi()?.args(["convert", "-f", "-"]).write_stdin(json))?;
    assert_eq!(again, WIDGET);

    // Whatever the target version, and inside a List.
    let list = format!(
        "apiVersion: v1\nkind: List\nitems:\n- {}",
        WIDGET.trim_end().replace('\n', "\n  ")
    );
    let assert = kapi()?
        .args([
            "convert",
            "-f",
            "-",
            "--output-version",
            "example.com/v2",
            "-o",
            "name",
        ])
        .write_stdin(list)
        .assert()
        .success();
    let out = assert.get_output();
    assert_eq!(
        String::from_utf8(out.stdout.clone())?,
        "widget.example.com/w\n"
    );
    assert_eq!(String::from_utf8(out.stderr.clone())?.lines().count(), 1);
    Ok(())
}

#[test]
fn directories_lists_and_output_files() -> TestResult {
    let dir = std::env::temp_dir().join(format!("kapi-convert-dir-{}", std::process::id()));
    let sub = dir.join("sub");
    std::fs::create_dir_all(&sub)?;
    std::fs::write(
        dir.join("a.json"),
        r#"{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"batch/v1beta1","kind":"CronJob","metadata":{"name":"c"},"spec":{"schedule":"* * * * *","jobTemplate":{}}}]}"#,
    )?;
    std::fs::write(
        sub.join("b.yaml"),
        "apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata: {name: p}\nspec: {selector: {}}\n",
    )?;
    std::fs::write(dir.join("notes.txt"), "not a manifest")?;
    let dir_arg = dir.to_str().ok_or("path")?;
    // Without -R the subdirectory is not read.
    let flat = stdout(kapi()?.args(["convert", "-f", dir_arg]))?;
    assert!(!flat.contains("PodDisruptionBudget"), "{flat}");
    assert!(
        flat.contains("- apiVersion: batch/v1\n  kind: CronJob\n"),
        "{flat}"
    );
    let target = dir.join("out.yaml");
    kapi()?
        .args(["convert", "-R", "-f", dir_arg, "--output-file"])
        .arg(&target)
        .assert()
        .success()
        .stdout("");
    let written = std::fs::read_to_string(&target)?;
    // v1beta1's empty selector selects nothing; policy/v1 says so with its sentinel.
    assert!(
        written.contains("pdb.kubernetes.io/deprecated-v1beta1-empty-selector-match"),
        "{written}"
    );
    let leftovers: Vec<_> = std::fs::read_dir(&dir)?
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty());
    std::fs::remove_dir_all(&dir)?;
    Ok(())
}

/// A scratch directory for one test, removed when dropped.
struct Scratch(std::path::PathBuf);

impl Scratch {
    fn new(name: &str) -> std::io::Result<Self> {
        let dir = std::env::temp_dir().join(format!("kapi-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        Ok(Scratch(dir))
    }

    fn path(&self, file: &str) -> std::path::PathBuf {
        self.0.join(file)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn path_str(path: &std::path::Path) -> Result<&str, &'static str> {
    path.to_str().ok_or("path is not UTF-8")
}

#[test]
fn protobuf_output_reads_back_to_the_same_objects() -> TestResult {
    let scratch = Scratch::new("pb")?;
    let yaml = stdout(kapi()?.args(["convert", "-f", &example()]))?;
    // One object: its envelope alone, as Go writes a `.pb`.
    let single = scratch.path("deployment.yaml");
    let first = yaml.split("---\n").next().ok_or("no document")?;
    std::fs::write(&single, first)?;
    let pb = kapi()?
        .args(["convert", "-f", path_str(&single)?, "-o", "protobuf"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert!(pb.starts_with(b"k8s\0\n\x15\n\x07apps/v1\x12\x0aDeployment\x12"));
    let pb_path = scratch.path("deployment.pb");
    std::fs::write(&pb_path, &pb)?;
    assert_eq!(
        stdout(kapi()?.args(["convert", "-f", path_str(&pb_path)?]))?,
        first
    );
    // Several objects: one `v1 List` of envelopes; read back, the same objects as a List.
    let list_path = scratch.path("all.pb");
    kapi()?
        .args([
            "convert",
            "-f",
            &example(),
            "-o",
            "protobuf",
            "--output-file",
        ])
        .arg(&list_path)
        .assert()
        .success();
    let list = std::fs::read(&list_path)?;
    assert!(list.starts_with(b"k8s\0\n\x0a\n\x02v1\x12\x04List\x12"));
    let from_pb = stdout(kapi()?.args(["convert", "-f", path_str(&list_path)?]))?;
    let kubectl_layout = stdout(kapi()?.args(["convert", "-f", "-"]).write_stdin(format!(
        "apiVersion: v1\nkind: List\nmetadata: {{}}\nitems:\n{}",
        indent_items(&yaml)
    )))?;
    assert_eq!(from_pb, kubectl_layout);
    assert!(from_pb.starts_with("apiVersion: v1\nitems:\n- apiVersion: apps/v1\n"));
    assert!(from_pb.ends_with("kind: List\nmetadata: {}\n"), "{from_pb}");
    // `validate` reads protobuf too.
    kapi()?
        .args(["validate", "-f", path_str(&pb_path)?])
        .assert()
        .success()
        .stdout("1 valid, 0 invalid\n");
    Ok(())
}

/// The YAML documents of a stream as the items of a YAML list.
fn indent_items(stream: &str) -> String {
    let mut out = String::new();
    for doc in stream.split("---\n") {
        for (i, line) in doc.lines().enumerate() {
            out.push_str(if i == 0 { "- " } else { "  " });
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

#[test]
fn protobuf_needs_registered_kinds_and_bad_protobuf_is_reported() -> TestResult {
    let stream = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n";
    let assert = kapi()?
        .args([
            "convert",
            "-f",
            "-",
            "-o",
            "protobuf",
            "--output-version",
            "v1",
        ])
        .write_stdin(stream)
        .assert()
        .failure()
        .code(1);
    let out = assert.get_output();
    let stderr = String::from_utf8(out.stderr.clone())?;
    assert!(
        stderr.starts_with(
            "error: <stdin>: document 0: example.com/v1, Kind=Widget: not a built-in kind"
        ),
        "{stderr}"
    );
    // The ConfigMap is still written, in the `v1 List` two documents make.
    assert!(out.stdout.starts_with(b"k8s\0\n\x0a\n\x02v1\x12\x04List"));
    let listed = stdout(
        kapi()?
            .args(["convert", "-f", "-", "-o", "name"])
            .write_stdin(out.stdout.clone()),
    )?;
    assert_eq!(listed, "configmap/c\n");

    let truncated = &out.stdout[..out.stdout.len() - 3];
    let assert = kapi()?
        .args(["convert", "-f", "-"])
        .write_stdin(truncated.to_vec())
        .assert()
        .failure()
        .code(1);
    let stderr = String::from_utf8(assert.get_output().stderr.clone())?;
    assert!(
        stderr.starts_with("error: <stdin>: document 0: "),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    Ok(())
}

#[test]
fn name_output_prints_kind_group_and_name() -> TestResult {
    let out = stdout(kapi()?.args(["convert", "-f", &example(), "-o", "name"]))?;
    assert_eq!(
        out,
        "deployment.apps/web\ningress.networking.k8s.io/web\ncronjob.batch/nightly-report\npoddisruptionbudget.policy/web\nconfigmap/web-config\n"
    );
    Ok(())
}

#[test]
fn autoscaling_v1_becomes_v2_metrics_and_goes_back_through_annotations() -> TestResult {
    let v1 = "apiVersion: autoscaling/v1\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: web\nspec:\n  maxReplicas: 10\n  scaleTargetRef:\n    apiVersion: apps/v1\n    kind: Deployment\n    name: web\n  targetCPUUtilizationPercentage: 70\n";
    let v2 = stdout(kapi()?.args(["convert", "-f", "-"]).write_stdin(v1))?;
    assert!(v2.starts_with("apiVersion: autoscaling/v2\n"), "{v2}");
    assert!(
        v2.contains("  metrics:\n  - resource:\n      name: cpu\n      target:\n        averageUtilization: 70\n        type: Utilization\n    type: Resource\n"),
        "{v2}"
    );
    // A metric v1 cannot express travels in the annotation Kubernetes uses.
    let with_memory = v2.replace(
        "  metrics:\n",
        "  metrics:\n  - type: Resource\n    resource:\n      name: memory\n      target:\n        type: AverageValue\n        averageValue: 512Mi\n",
    );
    let back = stdout(
        kapi()?
            .args(["convert", "-f", "-", "--output-version", "autoscaling/v1"])
            .write_stdin(with_memory),
    )?;
    assert!(
        back.contains("    autoscaling.alpha.kubernetes.io/metrics: '[{\"type\":\"Resource\",\"resource\":{\"name\":\"memory\",\"targetAverageValue\":\"512Mi\"}}]'\n"),
        "{back}"
    );
    assert!(
        back.contains("  targetCPUUtilizationPercentage: 70\n"),
        "{back}"
    );
    Ok(())
}

/// Manifests of unserved versions whose conversions move fields around: an
/// `apiextensions.k8s.io/v1beta1` CustomResourceDefinition, a `discovery.k8s.io/v1beta1`
/// EndpointSlice, `rbac.authorization.k8s.io/v1alpha1` bindings and `resource.k8s.io/v1beta1`
/// claims, a claim template and a slice.
fn unserved() -> String {
    format!("{}/tests/data/unserved.yaml", env!("CARGO_MANIFEST_DIR"))
}

/// Each comes out in its served version as Go's conversion functions write it (the
/// fragments below, one rule of those functions each), and kubectl's YAML printer, given
/// our JSON (`kubectl label --local -f converted.json foo- -o yaml`, captured in
/// `tests/data`), prints the same documents.
#[test]
fn unserved_versions_convert_as_go_converts_them() -> TestResult {
    let out = stdout(kapi()?.args(["convert", "-f", &unserved()]))?;
    let versions: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("apiVersion: "))
        .collect();
    assert_eq!(
        versions,
        [
            "apiVersion: apiextensions.k8s.io/v1",
            "apiVersion: discovery.k8s.io/v1",
            "apiVersion: rbac.authorization.k8s.io/v1",
            "apiVersion: rbac.authorization.k8s.io/v1",
            "apiVersion: resource.k8s.io/v1",
            "apiVersion: resource.k8s.io/v1",
            "apiVersion: resource.k8s.io/v1",
        ]
    );
    for fragment in [
        // CRD: `version` became a served and stored version holding the spec-wide
        // printer columns (`JSONPath` now `jsonPath`), schema and subresources.
        "  versions:\n  - additionalPrinterColumns:\n    - description: The cron spec defining the interval a CronJob is run\n      jsonPath: .spec.cronSpec\n",
        "    name: v1\n    schema:\n      openAPIV3Schema:\n",
        "            type: object\n            x-kubernetes-preserve-unknown-fields: true\n",
        "    served: true\n    storage: true\n    subresources:\n      scale:\n",
        // CRD: the webhook settings moved into `webhook`, with the review versions
        // `v1beta1` defaults for a webhook and `v1` requires.
        "    webhook:\n      clientConfig:\n        caBundle: Y2EtYnVuZGxl\n",
        "      conversionReviewVersions:\n      - v1beta1\n",
        // EndpointSlice: zone and hostname labels became fields; the other labels stay.
        "  deprecatedTopology:\n    topology.kubernetes.io/region: us-west2\n  hostname: web-0\n  nodeName: node-1\n",
        "  zone: us-west2-a\n",
        "    ready: false\n  nodeName: node-2\n  zone: us-west2-b\n",
        // Bindings: API versions became groups; `User *` is every authenticated user.
        "- apiGroup: rbac.authorization.k8s.io\n  kind: User\n  name: jane\n- kind: ServiceAccount\n",
        "- apiGroup: rbac.authorization.k8s.io\n  kind: Group\n  name: system:authenticated\n",
        // Claims: a request's own fields are `exactly`; `firstAvailable` stays.
        "      requests:\n      - exactly:\n          allocationMode: ExactCount\n          count: 2\n",
        "    requests:\n    - firstAvailable:\n      - allocationMode: ExactCount\n        count: 1\n        deviceClassName: nic.example.com\n",
        // Slice: `basic` is flattened into the device.
        "  devices:\n  - attributes:\n      driverVersion:\n        version: 1.2.3\n",
    ] {
        assert!(out.contains(fragment), "{fragment}\nnot in\n{out}");
    }
    assert!(
        !out.contains("topology:\n") && !out.contains("basic:"),
        "{out}"
    );

    assert_same_as_kubectl(&out, "unserved.converted.kubectl.yaml")
}

/// A `v1beta1` CRD taken to `v1` and back has its spec-wide fields again, plus what Go's
/// conversions add (`versions` from `version`, `preserveUnknownFields`); taken to `v1`
/// again, it is the same `v1` object.
#[test]
fn a_v1beta1_crd_comes_back_from_v1_with_its_spec_wide_fields() -> TestResult {
    let scratch = Scratch::new("crd")?;
    let all = stdout(kapi()?.args(["convert", "-f", &unserved()]))?;
    let v1 = all.split("---\n").next().ok_or("no document")?;
    let v1_path = scratch.path("crd.v1.yaml");
    std::fs::write(&v1_path, v1)?;
    let back = stdout(kapi()?.args([
        "convert",
        "-f",
        path_str(&v1_path)?,
        "--output-version",
        "apiextensions.k8s.io/v1beta1",
    ]))?;
    assert!(
        back.starts_with(
            "apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\n"
        ),
        "{back}"
    );
    for fragment in [
        "spec:\n  additionalPrinterColumns:\n  - JSONPath: .spec.cronSpec\n",
        "  conversion:\n    conversionReviewVersions:\n    - v1beta1\n    strategy: Webhook\n    webhookClientConfig:\n",
        "  preserveUnknownFields: false\n  scope: Namespaced\n  subresources:\n",
        "  validation:\n    openAPIV3Schema:\n",
        "  version: v1\n  versions:\n  - name: v1\n    served: true\n    storage: true\nstatus:\n",
    ] {
        assert!(back.contains(fragment), "{fragment}\nnot in\n{back}");
    }
    let back_path = scratch.path("crd.v1beta1.yaml");
    std::fs::write(&back_path, &back)?;
    let again = stdout(kapi()?.args(["convert", "-f", path_str(&back_path)?]))?;
    assert_eq!(again, v1);
    Ok(())
}
