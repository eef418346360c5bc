//! The Go oracle as a child process (`oracle/bin/k8s-oracle serve`): one JSON request a
//! line in, one answer a line out, in order, bytes as base64 (Go's `[]byte`).

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde_json::{Value, json};

/// Where the oracle's binary is: `$K8S_ORACLE`, else `k8s-oracle` of the oracle's build
/// for the release under test (`oracle/build.sh`).
pub fn binary() -> PathBuf {
    crate::oracle_binaries::binary("k8s-oracle", Some("K8S_ORACLE"))
}

/// A running oracle.
pub struct Oracle {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Oracle {
    /// Starts the oracle; `None`, with a note on standard error, when its binary has
    /// not been built, except under CI (`CI` set), where that is a failure: CI builds it
    /// (unless it says why it cannot, in `K8S_ORACLE_UNAVAILABLE`).
    pub fn start(test: &str) -> Option<Oracle> {
        let bin = crate::oracle_binaries::built("k8s-oracle", Some("K8S_ORACLE"))?;
        let mut child = Command::new(&bin)
            .arg("serve")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("{test}: starting {}: {e}", bin.display()));
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        Some(Oracle {
            child,
            stdin,
            stdout,
        })
    }

    /// Every external kind Go's scheme knows (`k8s-oracle kinds`), or those of them
    /// `$K8S_ORACLE_KINDS` names (a comma-separated list of whole names, `v1 Pod`, or of
    /// parts without a space, `apps/`), to look at a few kinds at a time.
    pub fn kinds() -> Vec<GoKind> {
        let only: Vec<String> = std::env::var("K8S_ORACLE_KINDS")
            .map(|v| v.split(',').map(|s| s.trim().to_owned()).collect())
            .unwrap_or_default();
        let out = Command::new(binary())
            .arg("kinds")
            .output()
            .expect("running k8s-oracle kinds");
        assert!(out.status.success(), "k8s-oracle kinds failed");
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| serde_json::from_str::<GoKind>(l).expect("a kind"))
            .filter(|k| {
                let name = format!("{} {}", k.api_version(), k.kind);
                only.is_empty()
                    || only
                        .iter()
                        .any(|o| name == *o || (!o.contains(' ') && name.contains(o.as_str())))
            })
            .collect()
    }

    /// One request; the answer's `result`, or the oracle's error.
    pub fn ask(&mut self, request: &Value) -> Result<Value, String> {
        let mut line = serde_json::to_vec(request).expect("a request is JSON");
        line.push(b'\n');
        self.stdin
            .write_all(&line)
            .and_then(|()| self.stdin.flush())
            .expect("writing to the oracle");
        let mut answer = String::new();
        self.stdout
            .read_line(&mut answer)
            .expect("reading from the oracle");
        assert!(!answer.is_empty(), "the oracle stopped");
        let mut answer: Value = serde_json::from_str(&answer).expect("the oracle answers JSON");
        match answer.get("error").and_then(Value::as_str) {
            Some(e) => Err(e.to_owned()),
            None => Ok(answer
                .get_mut("result")
                .map(Value::take)
                .unwrap_or(Value::Null)),
        }
    }

    /// `fuzz_wire`: Go's fuzzed object of an external kind, in each format.
    pub fn fuzz_wire(&mut self, kind: &GoKind, seed: u64) -> Result<Value, String> {
        self.ask(
            &json!({"op": "fuzz_wire", "group": kind.group, "version": kind.version,
                         "kind": kind.kind, "seed": seed}),
        )
    }

    /// `fuzz_internal`: a fuzzed internal object of a group and kind, written in every
    /// external version.
    pub fn fuzz_internal(&mut self, group: &str, kind: &str, seed: u64) -> Result<Value, String> {
        self.ask(&json!({"op": "fuzz_internal", "group": group, "kind": kind, "seed": seed}))
    }

    /// `convert`: JSON decoded, defaulted, converted to `to` by Go.
    pub fn convert(&mut self, input: &[u8], to: &str) -> Result<Value, String> {
        self.ask(
            &json!({"op": "convert", "input": BASE64.encode(input), "format": "json", "to": to}),
        )
    }

    /// `validate`: kube-apiserver's strategy on create (`old` absent) or update, as its
    /// store runs it (`"store"`: the strategy's preparation first) or on the object as
    /// given (`"check"`).
    pub fn validate(
        &mut self,
        input: &[u8],
        old: Option<&[u8]>,
        mode: &str,
    ) -> Result<Value, String> {
        let mut request = json!({"op": "validate", "input": BASE64.encode(input), "mode": mode});
        if let Some(old) = old {
            request["old"] = Value::from(BASE64.encode(old));
        }
        self.ask(&request)
    }
}

impl Drop for Oracle {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One external kind as Go's scheme has it (`k8s-oracle kinds`).
#[derive(Clone, Debug, serde::Deserialize)]
pub struct GoKind {
    pub group: String,
    pub version: String,
    pub kind: String,
    /// The kind has an internal version (it is converted and defaulted through it).
    pub internal: bool,
    /// Every external version of the group and kind.
    pub versions: Vec<String>,
    /// Why Go's round-trip fuzzer does not apply, when it does not.
    #[serde(default)]
    pub not_fuzzable: Option<String>,
    /// The Go type has a protobuf form.
    pub protobuf: bool,
}

impl GoKind {
    /// `group/version` (`v1` for the core group).
    pub fn api_version(&self) -> String {
        api_version(&self.group, &self.version)
    }
}

/// `group/version`, or `version` alone for the core group.
pub fn api_version(group: &str, version: &str) -> String {
    if group.is_empty() {
        version.to_owned()
    } else {
        format!("{group}/{version}")
    }
}

/// The bytes of a base64 string of an answer (`None` when absent).
pub fn bytes(value: &Value) -> Option<Vec<u8>> {
    value
        .as_str()
        .map(|s| BASE64.decode(s).expect("the oracle writes base64"))
}

/// The seeds per kind: `$K8S_ORACLE_SEEDS` of them (else `default`), from
/// `$K8S_ORACLE_FIRST_SEED` (else 0). A long run from a later first seed tries objects
/// that no earlier run (nor CI, which starts at 0) has compared.
pub fn seeds(default: u64) -> std::ops::Range<u64> {
    let number = |name: &str| std::env::var(name).ok().and_then(|s| s.parse::<u64>().ok());
    let first = number("K8S_ORACLE_FIRST_SEED").unwrap_or(0);
    first..first.saturating_add(number("K8S_ORACLE_SEEDS").unwrap_or(default))
}
