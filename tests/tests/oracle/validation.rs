//! Validation, random values: Go's fuzzer fills an internal object of each kind, written
//! in the kind's preferred version; kube-apiserver's strategy judges it as given (its
//! `Validate`, then the generic ObjectMeta checks, in `rest.BeforeCreate`'s order, without
//! the strategy's preparation for storage) and ours judges it as `kapi validate` does
//! (defaulted, the kind's validator). Both must report the same field errors: type, path
//! and message, in the same order.

use apimachinery::runtime::Scheme;
use apimachinery::serializer::Decoder;
use apimachinery::serializer::json::{JsonSerializer, SerializerOptions};
use apimachinery::util::validation::field::ErrorList;
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

/// Ours, as `kapi validate` judges an object: decoded, defaulted, validated by its
/// kind's validator; `None` when there is none.
fn our_causes(scheme: &Scheme, input: &[u8]) -> Result<Option<Vec<Cause>>, String> {
    let json = JsonSerializer::new(scheme, SerializerOptions::default());
    let (mut obj, _) = json.decode(input, None, None).map_err(|e| e.to_string())?;
    scheme.default(&mut *obj);
    Ok(scheme.validate(&*obj, None).map(|errs: ErrorList| {
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

/// Compares the kind's validation once per group and kind, in its preferred version.
pub fn compare_kind(
    oracle: &mut Oracle,
    scheme: &Scheme,
    kind: &GoKind,
    seeds: u64,
    outcome: &mut Outcome,
) {
    let preferred = scheme
        .prioritized_versions_for_group(&kind.group)
        .into_iter()
        .find(|gv| kind.versions.iter().any(|v| gv.version.as_str() == v));
    if preferred.as_ref().map(|gv| gv.version.as_str()) != Some(kind.version.as_str()) {
        return;
    }
    let name = format!("{} {}", kind.api_version(), kind.kind);
    if !kind.internal || kind.not_fuzzable.is_some() {
        return;
    }
    for seed in 0..seeds {
        let versions = match oracle.fuzz_internal(&kind.group, &kind.kind, seed) {
            Ok(v) => v,
            Err(e) => {
                outcome.different(&name, Column::Validation, format!("seed {seed}: Go: {e}"));
                continue;
            }
        };
        let Some(input) = bytes(&versions["json"][api_version(&kind.group, &kind.version)]) else {
            continue;
        };
        let go = oracle
            .validate(&input, None, "check")
            .map_err(|e| e.to_string())
            .and_then(|a| go_causes(&a));
        let go = match go {
            Ok(Some(go)) => go,
            Ok(None) => {
                outcome.not_compared(
                    &name,
                    Column::Validation,
                    "kube-apiserver has no strategy for it (a review kind, or not stored)",
                );
                return;
            }
            Err(e) => {
                outcome.different(&name, Column::Validation, format!("seed {seed}: Go: {e}"));
                continue;
            }
        };
        match our_causes(scheme, &input) {
            Ok(None) => {
                outcome.different(
                    &name,
                    Column::Validation,
                    "not validated by ours".to_owned(),
                );
                return;
            }
            Err(e) => outcome.different(
                &name,
                Column::Validation,
                format!("seed {seed}: ours cannot read it: {e}"),
            ),
            Ok(Some(ours)) if ours == go => outcome.equal(&name, Column::Validation),
            Ok(Some(ours)) => {
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
                outcome.different(
                    &name,
                    Column::Validation,
                    format!(
                        "seed {seed}: {} errors in Go, {} in ours; first difference at #{at}: Go {}; ours {}",
                        go.len(),
                        ours.len(),
                        show(go.get(at)),
                        show(ours.get(at))
                    ),
                );
            }
        }
    }
}
