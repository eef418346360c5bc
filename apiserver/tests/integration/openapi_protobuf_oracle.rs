//! The protobuf form of the OpenAPI v3 documents against Go's: kube-openapi's own
//! `handler3.ToV3ProtoBinary` (the Go oracle's `k8s-oracle openapi-v3-protobuf`) turns
//! each served JSON document into gnostic's `openapi_v3.Document`, and ours
//! (`openapi::gnostic`) must make the same bytes, for every generated document and for a
//! custom resource's. Skipped with a note when the oracle is not built (a failure under
//! CI, which builds it).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Write;
use std::process::{Command, Stdio};

use apiserver::apiextensions::CustomResource;
use apiserver::openapi::{self, gnostic};

/// Go's protobuf of `json`, or `None` when this oracle predates the subcommand.
fn go_protobuf(oracle: &std::path::Path, json: &[u8]) -> Option<Result<Vec<u8>, String>> {
    let mut child = Command::new(oracle)
        .arg("openapi-v3-protobuf")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("starting {}: {e}", oracle.display()));
    child.stdin.take().unwrap().write_all(json).unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    match out.status.code() {
        Some(0) => Some(Ok(out.stdout)),
        // The usage line of an oracle built before the subcommand existed.
        Some(2) if stderr.starts_with("usage:") => None,
        _ => Some(Err(stderr)),
    }
}

/// A custom resource's document, as kapi serves it for a CRD with defaults, an enum,
/// validation rules and an int-or-string field.
fn custom_resource_document() -> (String, Vec<u8>) {
    let crd = serde_json::json!({
        "metadata": {"name": "sprockets.openapi.example.com"},
        "spec": {
            "group": "openapi.example.com",
            "scope": "Namespaced",
            "names": {"plural": "sprockets", "kind": "Sprocket"},
            "versions": [{"name": "v1", "served": true, "storage": true,
                "subresources": {"status": {}},
                "schema": {"openAPIV3Schema": {
                    "type": "object",
                    "properties": {
                        "spec": {
                            "type": "object",
                            "required": ["teeth"],
                            "properties": {
                                "teeth": {"type": "integer", "minimum": 1, "default": 12},
                                "mode": {"type": "string", "enum": ["fast", "*", "yes"]},
                                "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                                "port": {"x-kubernetes-int-or-string": true,
                                         "anyOf": [{"type": "integer"}, {"type": "string"}]}
                            },
                            "x-kubernetes-validations": [
                                {"rule": "self.teeth % 2 == 0", "message": "teeth must be even\nalways"}
                            ]
                        }
                    }
                }}}]
        }
    });
    let cr = CustomResource::from_json(&crd).unwrap();
    let doc = apiserver::apiextensions::openapi::document("openapi.example.com", "v1", &[&cr]);
    (
        openapi::document_key("openapi.example.com", "v1"),
        serde_json::to_vec(&doc).unwrap(),
    )
}

#[test]
fn every_document_is_encoded_as_go_encodes_it() {
    let Some(oracle) = crate::oracle_binaries::built("k8s-oracle", Some("K8S_ORACLE")) else {
        return;
    };
    let mut documents: Vec<(String, Vec<u8>)> = openapi::document_keys()
        .map(|key| (key.to_owned(), openapi::document(key).unwrap().to_vec()))
        .collect();
    documents.push(custom_resource_document());
    let mut differences = Vec::new();
    for (key, json) in &documents {
        let Some(go) = go_protobuf(&oracle, json) else {
            assert!(
                std::env::var_os("CI").is_none(),
                "{} has no openapi-v3-protobuf: rebuild it with oracle/build.sh",
                oracle.display()
            );
            eprintln!(
                "note: skipped: {} predates openapi-v3-protobuf; rebuild it with oracle/build.sh",
                oracle.display()
            );
            return;
        };
        let ours = gnostic::document_protobuf(json).map_err(|e| e.to_string());
        if ours != go {
            let at = match (&ours, &go) {
                (Ok(a), Ok(b)) => a
                    .iter()
                    .zip(b)
                    .position(|(x, y)| x != y)
                    .unwrap_or(a.len().min(b.len())),
                _ => 0,
            };
            differences.push(format!(
                "{key}: ours {:?} / Go {:?}, first differing byte {at}",
                ours.as_ref().map(Vec::len),
                go.as_ref().map(Vec::len)
            ));
        }
    }
    assert!(differences.is_empty(), "{}", differences.join("\n"));
    eprintln!("{} documents encoded as Go encodes them", documents.len());
}
