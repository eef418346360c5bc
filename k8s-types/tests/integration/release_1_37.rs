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
