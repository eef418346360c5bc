//! Resource lists through JSON: `BTreeMap<String, Quantity>` (parsed, exact, Go's
//! canonical text) against `BTreeMap<String, String>`, what a user has with a string
//! newtype such as k8s-openapi's `Quantity(String)`, which never parses. The lists hold
//! 1,000 quantities in the forms manifests use (`100m`, `1Gi`, `1.5`, `2e3`, ...). After
//! criterion's report, a summary prints both times and their ratio for decode and encode.
//!
//! Run: `cargo bench -p apimachinery --bench quantity_json -- --warm-up-time 1 --measurement-time 2`

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::Criterion;

use apimachinery::api::resource::Quantity;

const FORMS: [&str; 10] = [
    "100m", "1Gi", "1.5", "250m", "2Ki", "512Mi", "4", "1500m", "2e3", "0.5Gi",
];

fn document() -> String {
    let map: BTreeMap<String, &str> = (0..1_000)
        .map(|i| (format!("resource{i:04}"), FORMS[i % FORMS.len()]))
        .collect();
    serde_json::to_string(&map).unwrap_or_default()
}

fn decode_quantities(json: &str) -> BTreeMap<String, Quantity> {
    serde_json::from_str(json).unwrap_or_default()
}

fn decode_strings(json: &str) -> BTreeMap<String, String> {
    serde_json::from_str(json).unwrap_or_default()
}

fn benches(c: &mut Criterion, json: &str) {
    let quantities = decode_quantities(json);
    let strings = decode_strings(json);
    let mut group = c.benchmark_group("resource_list_1000");
    group.bench_function("decode/Quantity", |b| {
        b.iter(|| decode_quantities(black_box(json)))
    });
    group.bench_function("decode/String", |b| {
        b.iter(|| decode_strings(black_box(json)))
    });
    group.bench_function("encode/Quantity", |b| {
        b.iter(|| serde_json::to_string(black_box(&quantities)))
    });
    group.bench_function("encode/String", |b| {
        b.iter(|| serde_json::to_string(black_box(&strings)))
    });
    group.finish();
}

/// Mean time per call of `f`, run for `budget`.
fn time(budget: Duration, mut f: impl FnMut() -> usize) -> Duration {
    let start = Instant::now();
    let mut calls = 0_u32;
    let mut sink = 0;
    while start.elapsed() < budget || calls == 0 {
        sink += f();
        calls += 1;
    }
    black_box(sink);
    start.elapsed() / calls
}

fn summary(json: &str) {
    let budget = Duration::from_millis(300);
    let quantities = decode_quantities(json);
    let strings = decode_strings(json);
    let rows = [
        (
            "decode",
            time(budget, || decode_quantities(json).len()),
            time(budget, || decode_strings(json).len()),
        ),
        (
            "encode",
            time(budget, || {
                serde_json::to_string(&quantities).map_or(0, |s| s.len())
            }),
            time(budget, || {
                serde_json::to_string(&strings).map_or(0, |s| s.len())
            }),
        ),
    ];
    println!("\nsummary (mean per 1,000-entry list; ratio = Quantity / String)");
    println!(
        "{:<8} {:>12} {:>12} {:>7}",
        "case", "Quantity", "String", "ratio"
    );
    for (case, quantity, string) in rows {
        let ratio = quantity.as_secs_f64() / string.as_secs_f64();
        println!("{case:<8} {quantity:>12.2?} {string:>12.2?} {ratio:>7.2}");
    }
}

fn main() {
    let json = document();
    // Both read the same list, and the canonical text differs only where Go's does.
    let quantities = decode_quantities(&json);
    assert_eq!(quantities.len(), 1_000);
    assert_eq!(
        quantities
            .get("resource0005")
            .map(ToString::to_string)
            .as_deref(),
        Some("512Mi")
    );
    assert_eq!(
        quantities
            .get("resource0009")
            .map(ToString::to_string)
            .as_deref(),
        Some("512Mi")
    );
    let mut c = Criterion::default().configure_from_args();
    benches(&mut c, &json);
    c.final_summary();
    summary(&json);
}
