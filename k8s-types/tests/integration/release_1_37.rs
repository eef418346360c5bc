//! What Kubernetes 1.37 changed in Go's hand-written conversions and defaulters
//! (`xtask/releases/v1.37.changes.md`), each through the Scheme as kube-apiserver and
//! `kubectl convert` apply them: decoded, defaulted, converted to a version.
#![allow(clippy::unwrap_used)]

use std::sync::OnceLock;

use apimachinery::runtime::Scheme;
use apimachinery::schema::GroupVersion;
use serde_json::{Value, json};

fn scheme() -> &'static Scheme {
    static SCHEME: OnceLock<Scheme> = OnceLock::new();
    SCHEME.get_or_init(|| {
        let mut s = Scheme::new();
        k8s_types::register(&mut s).unwrap();
        s
    })
}

/// `body`, of kind `kind` ("group/version, Kind=K"), read, defaulted when `default`, and
/// converted to `group`/`version`, written as JSON.
fn through(kind: &str, body: Value, default: bool, group: &str, version: &str) -> Value {
    let gvk = kind.parse().unwrap();
    let mut obj = scheme()
        .decode_json(&gvk, &serde_json::to_vec(&body).unwrap())
        .unwrap();
    if default {
        scheme().default(obj.as_mut());
    }
    let out = scheme()
        .convert_to_version(obj, &GroupVersion::new(group, version))
        .unwrap();
    serde_json::to_value(out.as_ref()).unwrap()
}

fn pod(spec: Value, status: Value) -> Value {
    json!({"metadata": {"name": "p"}, "spec": spec, "status": status})
}

/// `core/v1/conversion.go` lost its pod conversions: converting no longer keeps
/// `serviceAccount` and `serviceAccountName`, or `podIP` and `podIPs`, in step, nor
/// drops the init-container annotations (1.37's pod strategies drop them).
#[test]
fn pod_conversion_moves_nothing() {
    let annotations = json!({
        "pod.beta.kubernetes.io/init-containers": "[]",
        "pod.alpha.kubernetes.io/init-container-statuses": "[]",
    });
    let mut body = pod(
        json!({"serviceAccount": "old", "containers": [], "terminationGracePeriodSeconds": -3}),
        json!({"podIP": "10.0.0.1"}),
    );
    body["metadata"]["annotations"] = annotations.clone();
    let out = through("/v1, Kind=Pod", body.clone(), false, "", "v1");
    assert_eq!(out["metadata"]["annotations"], annotations);
    assert_eq!(out["spec"]["serviceAccount"], "old");
    assert_eq!(out["spec"].get("serviceAccountName"), None);
    assert_eq!(out["spec"]["terminationGracePeriodSeconds"], -3);
    assert_eq!(out["status"].get("podIPs"), None);
    // A template's annotations too.
    let template = json!({"template": {"metadata": {"annotations": annotations}}});
    let out = through("/v1, Kind=PodTemplate", template, false, "", "v1");
    assert_eq!(out["template"]["metadata"]["annotations"], annotations);
    // Defaulting does what the conversion did (the annotations stay).
    let out = through("/v1, Kind=Pod", body, true, "", "v1");
    assert_eq!(out["metadata"]["annotations"], annotations);
    assert_eq!(out["spec"]["serviceAccountName"], "old");
    assert_eq!(out["spec"]["terminationGracePeriodSeconds"], 1);
    assert_eq!(out["status"]["podIPs"], json!([{"ip": "10.0.0.1"}]));
}

/// `SetDefaults_PodStatus`: each of `podIP` and `podIPs` filled from the other, `podIP`
/// winning when they differ.
#[test]
fn pod_status_ips_are_defaulted_in_step() {
    let status = |s: Value| {
        let out = through(
            "/v1, Kind=Pod",
            pod(json!({"containers": []}), s),
            true,
            "",
            "v1",
        );
        out["status"].clone()
    };
    let ips = |ips: &[&str]| Value::from_iter(ips.iter().map(|ip| json!({"ip": ip})));
    let got = status(json!({"podIP": "10.0.0.1"}));
    assert_eq!(got["podIPs"], ips(&["10.0.0.1"]));
    let got = status(json!({"podIPs": [{"ip": "10.0.0.2"}, {"ip": "fd00::2"}]}));
    assert_eq!(got["podIP"], "10.0.0.2");
    assert_eq!(got["podIPs"], ips(&["10.0.0.2", "fd00::2"]));
    let got =
        status(json!({"podIP": "10.0.0.1", "podIPs": [{"ip": "10.0.0.2"}, {"ip": "fd00::2"}]}));
    assert_eq!(got["podIP"], "10.0.0.1");
    assert_eq!(got["podIPs"], ips(&["10.0.0.1"]));
    let got =
        status(json!({"podIP": "10.0.0.1", "podIPs": [{"ip": "10.0.0.1"}, {"ip": "fd00::1"}]}));
    assert_eq!(got["podIPs"], ips(&["10.0.0.1", "fd00::1"]));
    let got = status(json!({}));
    assert_eq!(got.get("podIP"), None);
    assert_eq!(got.get("podIPs"), None);
}

/// `policy/v1/conversion.go` is gone: a `policy/v1` selector keeps the `v1beta1` label
/// through conversion (1.37's PodDisruptionBudget strategy strips it).
#[test]
fn pod_disruption_budget_v1_selector_label_is_kept() {
    let selector = json!({"matchLabels": {"app": "web"}, "matchExpressions": [{
        "key": "pdb.kubernetes.io/deprecated-v1beta1-empty-selector-match",
        "operator": "Exists"}]});
    let body = json!({"metadata": {"name": "b"}, "spec": {"selector": selector}});
    let out = through(
        "policy/v1, Kind=PodDisruptionBudget",
        body,
        true,
        "policy",
        "v1",
    );
    assert_eq!(out["spec"]["selector"], selector);
}

/// `certificates/v1` PodCertificateRequest (new in 1.37) has no `pkixPublicKey` or
/// `proofOfPossession`: Go's internal type, as `v1beta1`, has them, so they survive
/// `v1beta1 → v1beta1` and are dropped on the way to `v1`; `v1` objects convert to
/// `v1beta1` and back.
#[test]
fn pod_certificate_requests_convert_between_v1_and_v1beta1() {
    let spec = json!({
        "signerName": "example.com/signer", "podName": "p", "podUID": "u",
        "serviceAccountName": "sa", "serviceAccountUID": "su", "nodeName": "n",
        "nodeUID": "nu", "maxExpirationSeconds": 3600,
    });
    let mut beta = json!({"metadata": {"name": "r"}, "spec": spec.clone()});
    beta["spec"]["pkixPublicKey"] = json!("AQID");
    beta["spec"]["proofOfPossession"] = json!("BAUG");
    let kind = "certificates.k8s.io/v1beta1, Kind=PodCertificateRequest";
    let same = through(kind, beta.clone(), true, "certificates.k8s.io", "v1beta1");
    assert_eq!(same["spec"]["pkixPublicKey"], "AQID");
    assert_eq!(same["spec"]["proofOfPossession"], "BAUG");
    let v1 = through(kind, beta, true, "certificates.k8s.io", "v1");
    assert_eq!(v1["apiVersion"], "certificates.k8s.io/v1");
    assert_eq!(v1["spec"].get("pkixPublicKey"), None);
    assert_eq!(v1["spec"].get("proofOfPossession"), None);
    assert_eq!(v1["spec"]["signerName"], "example.com/signer");
    let body = json!({"metadata": {"name": "r"}, "spec": spec});
    let kind = "certificates.k8s.io/v1, Kind=PodCertificateRequest";
    let back = through(kind, body.clone(), true, "certificates.k8s.io", "v1beta1");
    assert_eq!(back["spec"]["podUID"], "u");
    // Not `omitempty` in `v1beta1`: Go writes the nil bytes as `null`.
    assert_eq!(back["spec"]["pkixPublicKey"], Value::Null);
    let same = through(kind, body, true, "certificates.k8s.io", "v1");
    assert_eq!(same["spec"]["nodeUID"], "nu");
    assert_eq!(same["spec"]["maxExpirationSeconds"], 3600);
}

/// `SetDefaults_CSIDriver` of `storage/v1` and `v1beta1`: feature VolumeLimitScaling is
/// on by default in 1.37, so `preventPodSchedulingIfMissing` defaults to false.
#[test]
fn csi_drivers_do_not_prevent_scheduling_by_default() {
    for version in ["v1", "v1beta1"] {
        let kind = format!("storage.k8s.io/{version}, Kind=CSIDriver");
        let body = json!({"metadata": {"name": "d"}, "spec": {}});
        let out = through(&kind, body, true, "storage.k8s.io", version);
        assert_eq!(
            out["spec"]["preventPodSchedulingIfMissing"], false,
            "{version}"
        );
        let body = json!({"metadata": {"name": "d"},
            "spec": {"preventPodSchedulingIfMissing": true}});
        let out = through(&kind, body, true, "storage.k8s.io", version);
        assert_eq!(
            out["spec"]["preventPodSchedulingIfMissing"], true,
            "{version}"
        );
    }
}

/// Alpha gates off by default in 1.37 leave their defaults out: H2CContainerProbe (an
/// HTTP probe's `protocol`) and PodGroupPreemptionPolicy (a PodGroup's
/// `preemptionPolicy`).
#[test]
fn alpha_gated_defaults_are_not_applied() {
    let probe = json!({"httpGet": {"port": 80}});
    let spec = json!({"containers": [{"name": "c", "image": "i", "livenessProbe": probe}]});
    let out = through("/v1, Kind=Pod", pod(spec, json!({})), true, "", "v1");
    let http = &out["spec"]["containers"][0]["livenessProbe"]["httpGet"];
    assert_eq!(http["path"], "/");
    assert_eq!(http.get("protocol"), None);
    let group = json!({"metadata": {"name": "g"}, "spec": {}});
    for version in ["v1beta1", "v1alpha3"] {
        let kind = format!("scheduling.k8s.io/{version}, Kind=PodGroup");
        let out = through(&kind, group.clone(), true, "scheduling.k8s.io", version);
        assert_eq!(out["spec"].get("preemptionPolicy"), None, "{version}");
    }
}

/// MaxUnavailableStatefulSet is on by default from 1.37: a rolling update gets
/// `maxUnavailable: 1` beside `partition: 0`, in every version that has the field.
#[test]
fn stateful_set_rolling_update_gets_max_unavailable_one() {
    for version in ["v1", "v1beta2"] {
        let set = json!({
            "metadata": {"name": "s"},
            "spec": {"selector": {"matchLabels": {"a": "b"}},
                     "template": {"metadata": {"labels": {"a": "b"}}}},
        });
        let out = through(
            &format!("apps/{version}, Kind=StatefulSet"),
            set,
            true,
            "apps",
            version,
        );
        assert_eq!(
            out["spec"]["updateStrategy"]["rollingUpdate"],
            json!({"partition": 0, "maxUnavailable": 1}),
            "{version}"
        );
    }
}
