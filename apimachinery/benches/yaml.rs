//! The YAML text layer against the JSON a user would otherwise exchange: writing an
//! object as YAML (`json_to_yaml`) against `serde_json::to_string_pretty`, and reading
//! it back (`yaml_to_json`) against `serde_json::from_str` of the same object's JSON, on
//! a Deployment and on a ConfigMap full of strings that need quoting, escapes and
//! folding (both kubectl captures from the module's `testdata/`); `parser-events-only`
//! is the YAML parser alone, the floor under `yaml_to_json`; `transcode` is the one-pass
//! fast path to Go's `YAMLToJSON` bytes (what the serializer decodes non-strict YAML
//! with), on these cases and on Go's Pod and Deployment fixtures from
//! `$K8S_API_TESTDATA` (skipped when unset). After criterion's report, a summary prints
//! the times and ratios per case.
//!
//! The `encode` group is the serializer's YAML encode, from the compact JSON text Go's
//! `encoding/json` writes: the one-pass `json_text_to_yaml` against the path it replaced
//! (parse into a `serde_json::Value`, then `json_to_yaml`), on the cases above and on
//! the Pod and Deployment fixtures of `$K8S_API_TESTDATA` (skipped when unset).
//!
//! Run: `cargo bench -p apimachinery --bench yaml -- --warm-up-time 1 --measurement-time 2`

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::Criterion;
use serde_json::Value;

use apimachinery::serializer::yaml::{json_text_to_yaml, json_to_yaml, transcode, yaml_to_json};

const CASES: &[(&str, &str)] = &[
    (
        "deployment",
        include_str!("../src/serializer/yaml/testdata/deployment.json"),
    ),
    (
        "strings",
        include_str!("../src/serializer/yaml/testdata/strings.json"),
    ),
];

struct Case {
    name: &'static str,
    value: Value,
    json: String,
    yaml: String,
}

/// Go's fixtures, read as YAML text (the JSON side is the fixture's JSON).
fn fixture_cases() -> Vec<Case> {
    let Some(dir) = std::env::var_os("K8S_API_TESTDATA") else {
        eprintln!("note: K8S_API_TESTDATA unset; the fixture cases are skipped");
        return Vec::new();
    };
    let dir = std::path::PathBuf::from(dir);
    [
        ("pod-fixture", "core.v1.Pod"),
        ("deployment-fixture", "apps.v1.Deployment"),
    ]
    .into_iter()
    .filter_map(|(name, stem)| {
        let yaml = std::fs::read_to_string(dir.join(format!("{stem}.yaml"))).ok()?;
        let json = std::fs::read_to_string(dir.join(format!("{stem}.json"))).ok()?;
        let value = serde_json::from_str(&json).ok()?;
        Some(Case {
            name,
            value,
            json,
            yaml,
        })
    })
    .collect()
}

fn cases() -> Vec<Case> {
    let mut cases: Vec<Case> = CASES
        .iter()
        .map(|(name, text)| {
            let mut value: Value = serde_json::from_str(text).unwrap_or_default();
            // Go writes a `<<` key plain and cannot read it back (a merge key).
            if let Some(data) = value.get_mut("data").and_then(Value::as_object_mut) {
                data.remove("<<");
            }
            Case {
                name,
                json: serde_json::to_string_pretty(&value).unwrap_or_default(),
                yaml: json_to_yaml(&value),
                value,
            }
        })
        .collect();
    cases.extend(fixture_cases());
    cases
}

/// Compact JSON texts to encode: the cases above and the upstream fixtures.
fn encode_cases(cases: &[Case]) -> Vec<(String, Vec<u8>)> {
    let mut texts: Vec<(String, Vec<u8>)> = cases
        .iter()
        .map(|c| {
            let text = serde_json::to_vec(&c.value).unwrap_or_default();
            (c.name.to_owned(), text)
        })
        .collect();
    match std::env::var_os("K8S_API_TESTDATA") {
        Some(dir) => {
            for name in ["core.v1.Pod", "apps.v1.Deployment"] {
                let path = std::path::Path::new(&dir).join(format!("{name}.json"));
                let Ok(text) = std::fs::read(&path) else {
                    eprintln!("note: {} not readable; skipped", path.display());
                    continue;
                };
                let value: Value = serde_json::from_slice(&text).unwrap_or_default();
                texts.push((
                    name.to_owned(),
                    serde_json::to_vec(&value).unwrap_or_default(),
                ));
            }
        }
        None => eprintln!("note: K8S_API_TESTDATA is not set; fixture cases skipped"),
    }
    texts
}

/// The encode path `json_text_to_yaml` replaced: JSON text, `Value`, YAML.
fn via_value(json: &[u8]) -> String {
    let value: Value = serde_json::from_slice(json).unwrap_or_default();
    json_to_yaml(&value)
}

fn encode_benches(c: &mut Criterion, texts: &[(String, Vec<u8>)]) {
    let mut g = c.benchmark_group("encode");
    for (name, json) in texts {
        g.bench_function(format!("{name}/json-text"), |b| {
            b.iter(|| json_text_to_yaml(black_box(json)))
        });
        g.bench_function(format!("{name}/via-value"), |b| {
            b.iter(|| via_value(black_box(json)))
        });
    }
    g.finish();
}

fn benches(c: &mut Criterion, cases: &[Case]) {
    for case in cases {
        let mut g = c.benchmark_group(case.name);
        g.bench_function("write/yaml", |b| {
            b.iter(|| json_to_yaml(black_box(&case.value)))
        });
        g.bench_function("write/json", |b| {
            b.iter(|| serde_json::to_string_pretty(black_box(&case.value)))
        });
        g.bench_function("read/yaml", |b| {
            b.iter(|| yaml_to_json(black_box(&case.yaml)))
        });
        g.bench_function("read/transcode", |b| {
            b.iter(|| transcode(black_box(&case.yaml)))
        });
        g.bench_function("read/parser-events-only", |b| {
            b.iter(|| saphyr_parser::Parser::new_from_str(black_box(&case.yaml)).count())
        });
        g.bench_function("read/json", |b| {
            b.iter(|| serde_json::from_str::<Value>(black_box(&case.json)))
        });
        g.finish();
    }
}

/// Mean time per call over `budget`.
fn time(budget: Duration, mut f: impl FnMut() -> usize) -> Duration {
    let start = Instant::now();
    let mut runs = 0u32;
    let mut sink = 0usize;
    while start.elapsed() < budget || runs < 3 {
        sink = sink.wrapping_add(f());
        runs += 1;
    }
    black_box(sink);
    start.elapsed() / runs
}

fn summary(cases: &[Case]) {
    let budget = Duration::from_millis(300);
    println!("\nYAML against JSON (same object), mean per call:");
    for case in cases {
        let write_yaml = time(budget, || json_to_yaml(&case.value).len());
        let write_json = time(budget, || {
            serde_json::to_string_pretty(&case.value).map_or(0, |s| s.len())
        });
        let read_yaml = time(budget, || {
            yaml_to_json(&case.yaml).map_or(0, |d| d.duplicate_keys.len())
        });
        let read_json = time(budget, || {
            serde_json::from_str::<Value>(&case.json).map_or(0, |v| usize::from(v.is_object()))
        });
        let transcoded = time(budget, || transcode(&case.yaml).map_or(0, |j| j.len()));
        let events = time(budget, || {
            saphyr_parser::Parser::new_from_str(&case.yaml).count()
        });
        // What an unstructured decode needs: a `Value`, through the transcoded bytes
        // (the loader after a declined attempt, as the serializer does).
        let value_via_transcode = time(budget, || {
            transcode(&case.yaml)
                .ok()
                .and_then(|j| serde_json::from_slice::<Value>(&j).ok())
                .or_else(|| yaml_to_json(&case.yaml).ok().map(|d| d.value))
                .map_or(0, |v| usize::from(v.is_object()))
        });
        println!(
            "  {:<18} transcode {:>10.2?}  loader {:>10.2?} ({:.2}x)  parser events {:>10.2?} ({:.2}x)  Value via transcode {:>10.2?} ({:.2}x)  {}",
            case.name,
            transcoded,
            read_yaml,
            read_yaml.as_secs_f64() / transcoded.as_secs_f64(),
            events,
            events.as_secs_f64() / transcoded.as_secs_f64(),
            value_via_transcode,
            read_yaml.as_secs_f64() / value_via_transcode.as_secs_f64(),
            if transcode(&case.yaml).is_ok() {
                "accepted"
            } else {
                "DECLINED"
            },
        );
        for (what, yaml, json) in [
            ("write", write_yaml, write_json),
            ("read", read_yaml, read_json),
        ] {
            println!(
                "  {:<11} {what:<5}  yaml {:>10.2?}  json {:>10.2?}  yaml/json {:>5.2}  ({} bytes of YAML)",
                case.name,
                yaml,
                json,
                yaml.as_secs_f64() / json.as_secs_f64(),
                case.yaml.len(),
            );
        }
    }
}

fn encode_summary(texts: &[(String, Vec<u8>)]) {
    let budget = Duration::from_millis(300);
    println!("\nYAML encode from JSON text, mean per call:");
    for (name, json) in texts {
        let one_pass = time(budget, || json_text_to_yaml(json).map_or(0, |y| y.len()));
        let value = time(budget, || via_value(json).len());
        println!(
            "  {name:<20} json-text {one_pass:>10.2?}  via-value {value:>10.2?}  ratio {:>5.2}",
            one_pass.as_secs_f64() / value.as_secs_f64(),
        );
    }
}

fn main() {
    let cases = cases();
    let texts = encode_cases(&cases);
    let mut c = Criterion::default().configure_from_args();
    encode_benches(&mut c, &texts);
    benches(&mut c, &cases);
    c.final_summary();
    encode_summary(&texts);
    summary(&cases);
}
