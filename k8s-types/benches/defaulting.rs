//! Defaulting and validating a Deployment against decoding it from JSON, in one run:
//! `decode` is `serde_json` into `k8s_types::apps::v1::Deployment`; `default` is
//! `Scheme::default` on a freshly decoded (undefaulted) copy, the copy made outside the
//! timed region; `validate` is `Scheme::validate` of the defaulted object (create);
//! `default+validate` both on a fresh copy, issue 21's budget (at most 0.3x decode). Inputs: Go's fixture (`apps.v1.Deployment.json`, every field set, so
//! most defaults are already there) and kubectl's sparse Deployment
//! (`benchmarks/data/deployment.kubectl.json`, where nearly every default is filled in).
//!
//! Run: `cargo bench -p k8s-types --bench defaulting`

use std::hint::black_box;
use std::path::Path;

use apimachinery::runtime::Scheme;
use criterion::{BatchSize, Criterion};
use k8s_types::apps::v1::Deployment;

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| {
        eprintln!("cannot read {}: {e}", path.display());
        std::process::exit(2)
    })
}

fn bench(c: &mut Criterion) {
    let mut scheme = Scheme::new();
    if let Err(e) = k8s_types::register(&mut scheme) {
        eprintln!("registering the kinds: {e}");
        std::process::exit(2)
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let inputs = [
        (
            "Deployment fixture",
            read(&root.join("../../shared/k8s-api/v1.36/testdata/apps.v1.Deployment.json")),
        ),
        (
            "Deployment kubectl",
            read(&root.join("../benchmarks/data/deployment.kubectl.json")),
        ),
    ];
    for (name, bytes) in inputs {
        let decoded: Deployment = match serde_json::from_slice(&bytes) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("{name}: {e}");
                std::process::exit(2)
            }
        };
        let mut group = c.benchmark_group(name);
        group.bench_function("decode", |b| {
            b.iter(|| serde_json::from_slice::<Deployment>(black_box(&bytes)).ok())
        });
        group.bench_function("default", |b| {
            b.iter_batched_ref(
                || decoded.clone(),
                |d| scheme.default(black_box(d)),
                BatchSize::SmallInput,
            )
        });
        let mut defaulted = decoded.clone();
        scheme.default(&mut defaulted);
        group.bench_function("validate", |b| {
            b.iter(|| {
                scheme
                    .validate(black_box(&defaulted), None)
                    .map(|e| e.len())
            })
        });
        group.bench_function("default+validate", |b| {
            b.iter_batched_ref(
                || decoded.clone(),
                |d| {
                    scheme.default(black_box(&mut *d));
                    scheme.validate(&*d, None).map(|e| e.len())
                },
                BatchSize::SmallInput,
            )
        });
        group.finish();
    }
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
}
