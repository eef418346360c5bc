//! `kapi serve` driven by the installed `kubectl` (a Go client nobody here wrote):
//! discovery, create, apply, patch, scale, get in two versions, watch, conflicts,
//! deletion with and without finalizers, explain, and a graceful SIGTERM shutdown.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

use common::{TempDir, TestResult, kapi, kubectl_available, stdout};

/// A `kapi serve` child on a free port, with its kubeconfig; killed when dropped.
pub(crate) struct Served {
    child: Child,
    pub(crate) kubeconfig: PathBuf,
    _dir: TempDir,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(name: &str) -> Served {
    serve_with(name, &[])
}

/// `kapi serve` with more flags (`--controllers=...`).
pub(crate) fn serve_with(name: &str, flags: &[&str]) -> Served {
    let dir = TempDir::new("kubectl", name);
    let kubeconfig = dir.0.join("kubeconfig");
    let bin = kapi().unwrap().get_program().to_owned();
    let mut child = Command::new(bin)
        .args(["serve", "--listen", "127.0.0.1:0", "--kubeconfig"])
        .arg(&kubeconfig)
        .args(flags)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.as_mut().unwrap())
        .read_line(&mut first)
        .unwrap();
    let banner = format!(
        "serving the Kubernetes {} API at https://127.0.0.1:",
        k8s_types::RELEASE
    );
    assert!(first.contains(&banner), "{first}");
    Served {
        child,
        kubeconfig,
        _dir: dir,
    }
}

pub(crate) fn kubectl(kubeconfig: &Path, args: &[&str], stdin: Option<&str>) -> Output {
    let mut cmd = Command::new("kubectl");
    cmd.arg("--kubeconfig").arg(kubeconfig).args(args);
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    if let Some(input) = stdin {
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
    }
    drop(child.stdin.take());
    child.wait_with_output().unwrap()
}

/// Runs kubectl, which must succeed; its standard output.
pub(crate) fn ok(kubeconfig: &Path, args: &[&str], stdin: Option<&str>) -> String {
    let out = kubectl(kubeconfig, args, stdin);
    assert!(
        out.status.success(),
        "kubectl {args:?} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `kubectl wait --for condition=established`. A CRD is stored with `status.conditions:
/// null` (Go's field has no omitempty) until the establishing controller writes them,
/// and kubectl 1.32's wait fails outright on a null list instead of waiting; a loaded
/// machine can let kubectl read the CRD first (kube-apiserver has the same window). So
/// that one error is retried, for up to 30 s; any other failure fails the test.
fn wait_established(kubeconfig: &Path, crd: &str) {
    let args = [
        "wait",
        "--for",
        "condition=established",
        "--timeout=30s",
        crd,
    ];
    for _ in 0..60 {
        let out = kubectl(kubeconfig, &args, None);
        let stderr = String::from_utf8_lossy(&out.stderr);
        if out.status.success() {
            return;
        }
        assert!(
            stderr.contains(".status.conditions accessor error: <nil>"),
            "kubectl {args:?} failed:\n{}{stderr}",
            String::from_utf8_lossy(&out.stdout)
        );
        std::thread::sleep(std::time::Duration::from_millis(500));
    }
    panic!("{crd} was not established within 30 s");
}

const DEPLOYMENT: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - {name: nginx, image: nginx:1.27}
";

const HPA: &str = "apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 1
  maxReplicas: 5
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}
  - type: Resource
    resource: {name: memory, target: {type: AverageValue, averageValue: 100Mi}}
";

#[test]
fn kubectl_against_kapi_serve() -> TestResult {
    if !kubectl_available() {
        return Ok(());
    }
    let served = serve("kubectl");
    let k = served.kubeconfig.as_path();

    // Discovery: what kubectl prints for our server is what it prints for 1.36.
    let resources = ok(k, &["api-resources"], None);
    assert_eq!(resources, stdout(kapi()?.arg("api-resources"))?);
    let wide = ok(
        k,
        &["api-resources", "-o", "wide", "--api-group", "apps"],
        None,
    );
    assert!(
        wide.contains("create,delete,deletecollection,get,list,patch,update,watch"),
        "{wide}"
    );
    assert_eq!(
        ok(k, &["api-versions"], None),
        stdout(kapi()?.arg("api-versions"))?
    );

    // create -f with kubectl's default (strict, OpenAPI-backed) validation.
    ok(k, &["create", "-f", "-"], Some(DEPLOYMENT));
    let bad = kubectl(
        k,
        &["create", "-f", "-"],
        Some(
            &DEPLOYMENT
                .replace("replicas: 1", "replicas: 1\n  bogus: 1")
                .replace("name: web\n  labels", "name: web2\n  labels"),
        ),
    );
    assert!(!bad.status.success());
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("bogus"),
        "{}",
        String::from_utf8_lossy(&bad.stderr)
    );

    // One HPA, read in two versions: v1 carries the metrics it cannot hold as Go's
    // annotation.
    ok(k, &["create", "-f", "-"], Some(HPA));
    let v2 = ok(
        k,
        &[
            "get",
            "horizontalpodautoscalers.v2.autoscaling",
            "web",
            "-o",
            "yaml",
        ],
        None,
    );
    assert!(
        v2.contains("apiVersion: autoscaling/v2") && v2.contains("averageValue: 100Mi"),
        "{v2}"
    );
    let v1 = ok(
        k,
        &[
            "get",
            "horizontalpodautoscalers.v1.autoscaling",
            "web",
            "-o",
            "yaml",
        ],
        None,
    );
    assert!(v1.contains("apiVersion: autoscaling/v1"), "{v1}");
    assert!(v1.contains("targetCPUUtilizationPercentage: 50"), "{v1}");
    assert!(
        v1.contains("autoscaling.alpha.kubernetes.io/metrics"),
        "{v1}"
    );

    // apply twice (client-side, three-way strategic merge), with a change.
    let cm =
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {a: \"1\", b: \"2\"}\n";
    ok(k, &["apply", "-f", "-"], Some(cm));
    ok(
        k,
        &["apply", "-f", "-"],
        Some(&cm.replace("b: \"2\"", "c: \"3\"")),
    );
    let data = ok(
        k,
        &["get", "configmap", "settings", "-o", "jsonpath={.data}"],
        None,
    );
    assert_eq!(data, r#"{"a":"1","c":"3"}"#);
    ok(
        k,
        &["apply", "-f", "-"],
        Some(&DEPLOYMENT.replace("nginx:1.27", "nginx:1.28")),
    );
    let image = ok(
        k,
        &[
            "get",
            "deploy",
            "web",
            "-o",
            "jsonpath={.spec.template.spec.containers[0].image} {.metadata.generation}",
        ],
        None,
    );
    assert_eq!(image, "nginx:1.28 2");

    // patch: merge, json, strategic.
    ok(
        k,
        &[
            "patch",
            "configmap",
            "settings",
            "--type",
            "merge",
            "-p",
            r#"{"data":{"m":"1"}}"#,
        ],
        None,
    );
    ok(
        k,
        &[
            "patch",
            "configmap",
            "settings",
            "--type",
            "json",
            "-p",
            r#"[{"op":"remove","path":"/data/a"}]"#,
        ],
        None,
    );
    ok(
        k,
        &[
            "patch",
            "deploy",
            "web",
            "-p",
            r#"{"spec":{"template":{"spec":{"containers":[{"name":"sidecar","image":"busybox"}]}}}}"#,
        ],
        None,
    );
    let names = ok(
        k,
        &[
            "get",
            "deploy",
            "web",
            "-o",
            "jsonpath={.spec.template.spec.containers[*].name}",
        ],
        None,
    );
    assert_eq!(names, "sidecar nginx");
    let data = ok(
        k,
        &["get", "configmap", "settings", "-o", "jsonpath={.data}"],
        None,
    );
    assert_eq!(data, r#"{"c":"3","m":"1"}"#);
    ok(k, &["label", "configmap", "settings", "team=a"], None);
    ok(k, &["annotate", "configmap", "settings", "note=x"], None);

    // scale through /scale.
    ok(k, &["scale", "deploy", "web", "--replicas=4"], None);
    assert_eq!(
        ok(
            k,
            &["get", "deploy", "web", "-o", "jsonpath={.spec.replicas}"],
            None
        ),
        "4"
    );

    // replace with a stale resourceVersion: Go's conflict.
    let current = ok(k, &["get", "configmap", "settings", "-o", "yaml"], None);
    ok(
        k,
        &["label", "configmap", "settings", "team=b", "--overwrite"],
        None,
    );
    let stale = kubectl(k, &["replace", "-f", "-"], Some(&current));
    assert!(!stale.status.success());
    let err = String::from_utf8_lossy(&stale.stderr);
    assert!(err.contains("the object has been modified; please apply your changes to the latest version and try again"), "{err}");

    // get -w --output-watch-events, bounded: events for a create and a delete.
    let mut watch = Command::new("kubectl")
        .arg("--kubeconfig")
        .arg(k)
        .args([
            "get",
            "configmaps",
            "-w",
            "--output-watch-events",
            "-o",
            "json",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    std::thread::sleep(Duration::from_millis(1500));
    ok(
        k,
        &["create", "configmap", "watched", "--from-literal=a=b"],
        None,
    );
    ok(k, &["delete", "configmap", "watched"], None);
    std::thread::sleep(Duration::from_millis(1500));
    watch.kill()?;
    let mut events = String::new();
    watch.stdout.take().unwrap().read_to_string(&mut events)?;
    let _ = watch.wait();
    // The initial list, then the create and the delete, as WatchEvent objects.
    assert!(
        events.contains(r#""type":"ADDED""#) && events.contains(r#""name":"watched""#),
        "{events}"
    );
    assert!(events.contains(r#""type":"DELETED""#), "{events}");

    // delete without and with finalizers.
    ok(k, &["delete", "hpa", "web"], None);
    assert!(!kubectl(k, &["get", "hpa", "web"], None).status.success());
    let held =
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: held, finalizers: [example.com/hold]}\n";
    ok(k, &["create", "-f", "-"], Some(held));
    ok(k, &["delete", "configmap", "held", "--wait=false"], None);
    let ts = ok(
        k,
        &[
            "get",
            "configmap",
            "held",
            "-o",
            "jsonpath={.metadata.deletionTimestamp}",
        ],
        None,
    );
    assert!(!ts.is_empty(), "held was deleted at once");
    ok(
        k,
        &[
            "patch",
            "configmap",
            "held",
            "--type",
            "merge",
            "-p",
            r#"{"metadata":{"finalizers":null}}"#,
        ],
        None,
    );
    assert!(
        !kubectl(k, &["get", "configmap", "held"], None)
            .status
            .success()
    );

    // explain reads our OpenAPI v3 documents.
    let explain = ok(k, &["explain", "deployment.spec.strategy"], None);
    assert!(explain.contains("rollingUpdate"), "{explain}");

    // Reviews are answered: no authorization, everything allowed.
    assert_eq!(
        ok(k, &["auth", "can-i", "delete", "pods"], None).trim(),
        "yes"
    );

    // SIGTERM: a graceful shutdown, exit status 0.
    let mut served = served;
    let pid = served.child.id().to_string();
    let term = Command::new("kill").args(["-TERM", &pid]).status()?;
    assert!(term.success());
    let status = served.child.wait()?;
    assert!(status.success(), "{status:?}");
    Ok(())
}

const SCHEDULED_POD: &str = "apiVersion: v1
kind: Pod
metadata: {name: runs}
spec:
  nodeName: node-1
  containers:
  - {name: c, image: nginx:1.27}
";

/// `kubectl delete pod --grace-period`: a scheduled Pod is marked with its grace period
/// and stays (no kubelet finishes it), a shorter period moves the mark, and
/// `--grace-period=0 --force` deletes it; an unscheduled Pod goes at once.
#[test]
fn kubectl_deletes_pods_gracefully() -> TestResult {
    if !kubectl_available() {
        return Ok(());
    }
    let served = serve("graceful");
    let k = served.kubeconfig.as_path();
    let get_mark = |k: &Path| {
        ok(
            k,
            &[
                "get",
                "pod",
                "runs",
                "-o",
                "jsonpath={.metadata.deletionGracePeriodSeconds}",
            ],
            None,
        )
    };
    ok(k, &["create", "-f", "-"], Some(SCHEDULED_POD));
    // The defaulted terminationGracePeriodSeconds (30); --wait=false, since nothing
    // will finish the Pod.
    ok(k, &["delete", "pod", "runs", "--wait=false"], None);
    assert_eq!(get_mark(k), "30");
    // Longer does not apply; shorter does.
    ok(
        k,
        &["delete", "pod", "runs", "--grace-period=60", "--wait=false"],
        None,
    );
    assert_eq!(get_mark(k), "30");
    ok(
        k,
        &["delete", "pod", "runs", "--grace-period=5", "--wait=false"],
        None,
    );
    assert_eq!(get_mark(k), "5");
    ok(
        k,
        &["delete", "pod", "runs", "--grace-period=0", "--force"],
        None,
    );
    assert!(!kubectl(k, &["get", "pod", "runs"], None).status.success());

    // Not scheduled: deleted at once, and kubectl's wait ends.
    ok(
        k,
        &["run", "pending", "--image=nginx:1.27", "--restart=Never"],
        None,
    );
    ok(k, &["delete", "pod", "pending", "--timeout=20s"], None);
    assert!(
        !kubectl(k, &["get", "pod", "pending"], None)
            .status
            .success()
    );
    Ok(())
}

const WIDGET_CRD: &str = "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, shortNames: [wd]}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            description: What the widget should be.
            properties:
              size: {type: integer, minimum: 1, description: How big the widget is.}
              color: {type: string, default: blue}
    additionalPrinterColumns:
    - {name: Size, type: integer, jsonPath: .spec.size}
    - {name: Color, type: string, jsonPath: .spec.color}
";

#[test]
fn kubectl_custom_resources_against_kapi_serve() -> TestResult {
    if !kubectl_available() {
        return Ok(());
    }
    let served = serve("kubectl-crd");
    let k = served.kubeconfig.as_path();
    ok(k, &["apply", "-f", "-"], Some(WIDGET_CRD));
    wait_established(k, "crd/widgets.example.com");
    ok(
        k,
        &["apply", "-f", "-"],
        Some("apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w1}\nspec: {size: 3}\n"),
    );
    // The CRD's printer columns, the default filled in by the server.
    let table = ok(k, &["get", "widgets"], None);
    let mut lines = table.lines();
    let header: Vec<&str> = lines
        .next()
        .unwrap_or_default()
        .split_whitespace()
        .collect();
    assert_eq!(header, ["NAME", "SIZE", "COLOR"], "{table}");
    let row: Vec<&str> = lines
        .next()
        .unwrap_or_default()
        .split_whitespace()
        .collect();
    assert_eq!(row, ["w1", "3", "blue"], "{table}");
    // The short name and the discovery kubectl reads.
    assert_eq!(
        ok(k, &["get", "wd", "-o", "name"], None),
        "widget.example.com/w1\n"
    );
    let resources = ok(k, &["api-resources", "--api-group", "example.com"], None);
    assert!(
        resources.contains("widgets") && resources.contains("Widget"),
        "{resources}"
    );
    // The schema, as `kubectl explain` reads it from OpenAPI v3.
    let explain = ok(k, &["explain", "widgets.spec.size"], None);
    assert!(explain.contains("How big the widget is."), "{explain}");
    // A widget the schema refuses: kubectl shows Go's cause.
    let bad = kubectl(
        k,
        &["apply", "-f", "-"],
        Some("apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w2}\nspec: {size: 0}\n"),
    );
    assert!(!bad.status.success());
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(
        err.contains("spec.size in body should be greater than or equal to 1"),
        "{err}"
    );
    // Deleting the CRD deletes its objects and the resource.
    ok(
        k,
        &["delete", "crd", "widgets.example.com", "--wait=true"],
        None,
    );
    let gone = kubectl(k, &["get", "widgets"], None);
    assert!(!gone.status.success());
    Ok(())
}

/// A privileged container is refused unless `--allow-privileged`, as kube-apiserver's
/// flag (false by default) decides.
#[test]
fn privileged_pods_need_allow_privileged() {
    if !kubectl_available() {
        return;
    }
    let pod = r#"{"apiVersion":"v1","kind":"Pod","metadata":{"name":"root"},
        "spec":{"containers":[{"name":"c","image":"busybox","securityContext":{"privileged":true}}]}}"#;
    let refused = serve_with("privileged-refused", &[]);
    let out = kubectl(&refused.kubeconfig, &["create", "-f", "-"], Some(pod));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains(
            "spec.containers[0].securityContext.privileged: Forbidden: disallowed by cluster policy"
        ),
        "{stderr}"
    );
    drop(refused);
    let allowed = serve_with("privileged-allowed", &["--allow-privileged"]);
    ok(&allowed.kubeconfig, &["create", "-f", "-"], Some(pod));
}
