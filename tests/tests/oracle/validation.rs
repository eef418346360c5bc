//! Validation: kube-apiserver's strategy judges an object as given (its `Validate`, or
//! `ValidateUpdate` against an old object, then the generic ObjectMeta checks, in
//! `rest.BeforeCreate`'s order, without the strategy's preparation for storage), and ours
//! judges it as `kapi validate` does (defaulted, the kind's validator). Both must report
//! the same field errors: type, path and message (compared as sorted lists: Go walks maps
//! in random order, so the order of its errors is not always the same twice).
//!
//! The objects: Go's fuzzer fills an internal object of each kind, written in the kind's
//! preferred version, judged on create, and on update against another random object of
//! the kind with the same identity (and the old object with the new one's status as a
//! `/status` write, by the kind's status strategy, for the kinds that have one: the
//! `status validation` column); and a hand-written corpus of invalid objects
//! (`invalid/*.yaml`, several documents each), whose mistakes go deeper than random
//! values do (those fail on their names first).

use std::path::PathBuf;

use apimachinery::runtime::Scheme;
use apimachinery::serializer::Decoder;
use apimachinery::serializer::json::{JsonSerializer, SerializerOptions};
use apimachinery::serializer::yaml::YamlDocuments;
use serde_json::Value;

use crate::client::{GoKind, Oracle, api_version, bytes};
use crate::outcome::{Column, Outcome};

/// A field error as a Status cause carries it: `(type, field, message)`.
type Cause = (String, String, String);

/// Go's causes, from the oracle's `validate` answer; `None` when Go has no strategy for
/// the kind.
fn go_causes(answer: &Value) -> Result<Option<Vec<Cause>>, String> {
    if let Some(e) = answer["error"].as_str() {
        return Err(e.to_owned());
    }
    if answer["validated"] != Value::Bool(true) {
        return Ok(None);
    }
    Ok(Some(
        answer["causes"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|c| {
                let s = |k: &str| c[k].as_str().unwrap_or_default().to_owned();
                (s("type"), s("field"), s("message"))
            })
            .collect(),
    ))
}

/// What is judged: an object as given (Go's `check` mode), or a `/status` write.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Check,
    Status,
}

/// Ours, as `kapi validate` judges an object (and the server an update), or as the
/// server judges a `/status` write (the kind's `/status` validator): decoded, defaulted,
/// validated; `None` when the kind has no validator for it.
fn our_causes(
    scheme: &Scheme,
    input: &[u8],
    old: Option<&[u8]>,
    mode: Mode,
) -> Result<Option<Vec<Cause>>, String> {
    let json = JsonSerializer::new(scheme, SerializerOptions::default());
    let decode = |data: &[u8]| {
        json.decode(data, None, None).map(|(mut obj, _)| {
            scheme.default(&mut *obj);
            obj
        })
    };
    let obj = decode(input).map_err(|e| e.to_string())?;
    let old = old
        .map(decode)
        .transpose()
        .map_err(|e| format!("old: {e}"))?;
    let errs = match (mode, old.as_deref()) {
        (Mode::Status, Some(old)) => scheme.validate_status(&*obj, old),
        (Mode::Status, None) => return Err("a /status write needs the old object".to_owned()),
        (Mode::Check, old) => scheme.validate(&*obj, old),
    };
    Ok(errs.map(|errs| {
        errs.iter()
            .map(|e| {
                (
                    e.error_type.cause_type().to_owned(),
                    e.field.clone(),
                    e.error_body(),
                )
            })
            .collect()
    }))
}

fn sorted(causes: &[Cause]) -> Vec<Cause> {
    let mut causes = causes.to_vec();
    causes.sort();
    causes
}

/// What one case came to.
enum Judged {
    Equal,
    /// Go has no strategy for the kind.
    NotValidatedByGo,
    /// Ours has no validator for the kind.
    NotValidatedByOurs,
    Different(String),
}

/// Judges `input` (against `old` for an update) both ways.
fn judge(oracle: &mut Oracle, scheme: &Scheme, input: &[u8], old: Option<&[u8]>) -> Judged {
    judge_as(oracle, scheme, input, old, Mode::Check)
}

/// [`judge`] in `mode`.
fn judge_as(
    oracle: &mut Oracle,
    scheme: &Scheme,
    input: &[u8],
    old: Option<&[u8]>,
    mode: Mode,
) -> Judged {
    let go_mode = match mode {
        Mode::Check => "check",
        Mode::Status => "status",
    };
    let go = oracle
        .validate(input, old, go_mode)
        .and_then(|a| go_causes(&a));
    let go = match go {
        Ok(Some(go)) => go,
        Ok(None) => return Judged::NotValidatedByGo,
        Err(e) => return Judged::Different(format!("Go: {e}")),
    };
    match our_causes(scheme, input, old, mode) {
        Ok(None) => Judged::NotValidatedByOurs,
        Err(e) => Judged::Different(format!("ours cannot read it: {e}")),
        // Go walks maps in random order (a ConfigMap's keys, a pod's node selector), so
        // its errors' order is not always its own twice: the lists are compared sorted.
        Ok(Some(ours)) if sorted(&ours) == sorted(&go) => Judged::Equal,
        Ok(Some(ours)) => {
            let (go, ours) = (sorted(&go), sorted(&ours));
            let at = go
                .iter()
                .zip(&ours)
                .position(|(g, o)| g != o)
                .unwrap_or(go.len().min(ours.len()));
            let show = |c: Option<&Cause>| {
                c.map_or_else(
                    || "(none)".to_owned(),
                    |(t, f, m)| {
                        let m: String = m.chars().take(160).collect();
                        format!("{t} {f}: {m}")
                    },
                )
            };
            let mut text = format!(
                "{} errors in Go, {} in ours; first difference at #{at}: Go {}; ours {}",
                go.len(),
                ours.len(),
                show(go.get(at)),
                show(ours.get(at))
            );
            // `K8S_ORACLE_VERBOSE`: every error only one side reports, to see a case's
            // differences at once.
            if std::env::var_os("K8S_ORACLE_VERBOSE").is_some() {
                for (side, mine, theirs) in [("Go", &go, &ours), ("ours", &ours, &go)] {
                    for c in mine.iter().filter(|c| !theirs.contains(c)) {
                        text.push_str(&format!("\n    only {side}: {} {}: {}", c.0, c.1, c.2));
                    }
                }
            }
            Judged::Different(text)
        }
    }
}

/// Records a case's judgement; false when the kind is not compared at all.
fn record(outcome: &mut Outcome, name: &str, case: &str, judged: Judged) -> bool {
    match judged {
        Judged::Equal => outcome.equal(name, Column::Validation),
        Judged::Different(d) => outcome.different(name, Column::Validation, format!("{case}: {d}")),
        Judged::NotValidatedByGo => {
            outcome.not_compared(
                name,
                Column::Validation,
                "kube-apiserver has no strategy for it (a review kind, or not stored)",
            );
            return false;
        }
        Judged::NotValidatedByOurs => {
            outcome.different(name, Column::Validation, "not validated by ours".to_owned());
            return false;
        }
    }
    true
}

/// An update's old object: `other` with the identity of `new` (name, namespace, uid,
/// creation time), as the store gives it.
fn as_old_of(other: &[u8], new: &[u8]) -> Option<Vec<u8>> {
    let mut other: Value = serde_json::from_slice(other).ok()?;
    let new: Value = serde_json::from_slice(new).ok()?;
    for key in ["name", "namespace", "uid", "creationTimestamp"] {
        match new["metadata"].get(key) {
            Some(v) => other["metadata"][key] = v.clone(),
            None => {
                other["metadata"].as_object_mut()?.remove(key);
            }
        }
    }
    serde_json::to_vec(&other).ok()
}

/// `stored` with the `status` of `written` (none when `written` has none).
fn with_status_of(stored: &[u8], written: &[u8]) -> Option<Vec<u8>> {
    let mut stored: Value = serde_json::from_slice(stored).ok()?;
    let written: Value = serde_json::from_slice(written).ok()?;
    match written.get("status") {
        Some(status) => stored["status"] = status.clone(),
        None => {
            stored.as_object_mut()?.remove("status");
        }
    }
    serde_json::to_vec(&stored).ok()
}

/// Compares the kind's validation once per group and kind, in its preferred version:
/// random objects on create and on update.
pub fn compare_kind(
    oracle: &mut Oracle,
    scheme: &Scheme,
    kind: &GoKind,
    seeds: std::ops::Range<u64>,
    outcome: &mut Outcome,
) {
    let preferred = scheme
        .prioritized_versions_for_group(&kind.group)
        .into_iter()
        .find(|gv| kind.versions.iter().any(|v| gv.version.as_str() == v));
    if preferred.as_ref().map(|gv| gv.version.as_str()) != Some(kind.version.as_str())
        || !kind.internal
        || kind.not_fuzzable.is_some()
    {
        return;
    }
    let name = format!("{} {}", kind.api_version(), kind.kind);
    let version = api_version(&kind.group, &kind.version);
    let fuzzed = |oracle: &mut Oracle, seed: u64| {
        oracle
            .fuzz_internal(&kind.group, &kind.kind, seed)
            .ok()
            .and_then(|v| bytes(&v["json"][&version]))
    };
    for seed in seeds {
        let Some(input) = fuzzed(oracle, seed) else {
            continue;
        };
        if !record(
            outcome,
            &name,
            &format!("seed {seed}, create"),
            judge(oracle, scheme, &input, None),
        ) {
            return;
        }
        // The old object: another random one (seeds far from the new ones').
        let Some(old) = fuzzed(oracle, seed + 1_000_000).and_then(|o| as_old_of(&o, &input)) else {
            continue;
        };
        record(
            outcome,
            &name,
            &format!("seed {seed}, update"),
            judge(oracle, scheme, &input, Some(&old)),
        );
        // A `/status` write, for the kinds with a status strategy (on either side: one
        // the other lacks is a difference): the old object with the new one's status, as
        // the status strategy's preparation leaves a write (the spec and metadata as
        // stored), so that only the status rules are compared.
        let Some(written) = with_status_of(&old, &input) else {
            continue;
        };
        let case = format!("seed {seed}, /status");
        record_status(oracle, scheme, outcome, &name, &case, &written, &old);
    }
}

/// Judges `written`, a `/status` write over `old`, both ways and records it (a kind with
/// a status validator on one side only is a difference).
fn record_status(
    oracle: &mut Oracle,
    scheme: &Scheme,
    outcome: &mut Outcome,
    name: &str,
    case: &str,
    written: &[u8],
    old: &[u8],
) {
    match judge_as(oracle, scheme, written, Some(old), Mode::Status) {
        Judged::NotValidatedByGo => {
            if matches!(
                our_causes(scheme, written, Some(old), Mode::Status),
                Ok(Some(_))
            ) {
                outcome.different(
                    name,
                    Column::StatusValidation,
                    "a /status validator in ours, no status strategy in the oracle's table"
                        .to_owned(),
                );
            }
        }
        Judged::Equal => outcome.equal(name, Column::StatusValidation),
        Judged::Different(d) => {
            outcome.different(name, Column::StatusValidation, format!("{case}: {d}"));
        }
        Judged::NotValidatedByOurs => outcome.different(
            name,
            Column::StatusValidation,
            "a status strategy in Go, no /status validator in ours".to_owned(),
        ),
    }
}

/// Whether a corpus file is for the release under test: a file of kinds only one
/// release has says which in a comment line of its header,
/// `# oracle.test/release: 1.37`; the others are for every release.
fn for_release_under_test(text: &str) -> bool {
    text.lines()
        .take_while(|l| l.starts_with('#'))
        .find_map(|l| l.strip_prefix("# oracle.test/release:"))
        .is_none_or(|r| r.trim() == crate::RELEASE_UNDER_TEST)
}

/// The invalid corpus: every document of `invalid/*.yaml`, judged on create (a document
/// with `metadata.annotations["oracle.test/old"]` naming another document of the file by
/// its `metadata.name` is judged as an update of it, one with
/// `oracle.test/status-of` as a `/status` write over it).
pub fn compare_corpus(oracle: &mut Oracle, scheme: &Scheme, outcome: &mut Outcome) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/invalid");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.sort();
    for file in files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "yaml"))
    {
        let text = std::fs::read_to_string(file).expect("a corpus file");
        if !for_release_under_test(&text) {
            continue;
        }
        let file_name = file
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let docs: Vec<Value> = YamlDocuments::new(&text)
            .parse_all()
            .unwrap_or_else(|e| panic!("{file_name}: {e}"))
            .into_iter()
            .map(|d| d.value)
            .filter(|v| !v.is_null())
            .collect();
        for (i, doc) in docs.iter().enumerate() {
            let name = format!(
                "{} {}",
                doc["apiVersion"].as_str().unwrap_or(""),
                doc["kind"].as_str().unwrap_or("")
            );
            let named = |key: &str| {
                doc["metadata"]["annotations"][key]
                    .as_str()
                    .map(|old_name| {
                        let old = docs
                            .iter()
                            .find(|d| d["metadata"]["name"] == old_name)
                            .unwrap_or_else(|| {
                                panic!("{file_name} document {i}: no document named {old_name}")
                            });
                        serde_json::to_vec(&without_test_annotations(old)).expect("JSON")
                    })
            };
            let case = format!("{file_name} document {i}");
            let input = serde_json::to_vec(&without_test_annotations(doc)).expect("JSON");
            if let Some(old) = named("oracle.test/status-of") {
                record_status(oracle, scheme, outcome, &name, &case, &input, &old);
                continue;
            }
            let judged = judge(oracle, scheme, &input, named("oracle.test/old").as_deref());
            record(outcome, &name, &case, judged);
        }
    }
}

/// `doc` without the corpus's own annotations (and without `annotations` when they were
/// all the corpus's).
fn without_test_annotations(doc: &Value) -> Value {
    let mut doc = doc.clone();
    if let Some(a) = doc["metadata"]["annotations"].as_object_mut() {
        a.retain(|k, _| !k.starts_with("oracle.test/"));
        if a.is_empty() {
            doc["metadata"]
                .as_object_mut()
                .map(|m| m.remove("annotations"));
        }
    }
    doc
}
