//! Conversion of a Deployment-sized object (`support/deployment.rs`: metadata with labels
//! and annotations, a selector, a pod template with two containers each with env, ports,
//! resources and volume mounts) from `v1` to its internal hub, every nested type converted
//! by its own generated function:
//!
//! - `clone`: `Clone` of the same object, the floor for any copy;
//! - `convert_ref`: generated conversion by reference (clones what it must);
//! - `convert` (by value): generated conversion that moves strings, vectors and maps;
//! - `scheme.convert_to_version`: the dynamic entry point (`Box<dyn Object>`, registry
//!   lookup, by value);
//! - `json round trip`: what a Rust program without conversion functions does
//!   (`serde_json::to_value` then `from_value` into the other version).
//!
//! Inputs are cloned outside the timed region and outputs dropped outside it. After
//! criterion's report, a summary prints each mean and its ratio to `Clone`.
//!
//! Run: `cargo bench -p apimachinery --bench conversion -- --warm-up-time 1 --measurement-time 2`

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BatchSize, Criterion};

use apimachinery::conversion::{Convert, Scope};
use apimachinery::runtime::{Object, Scheme};
use apimachinery::schema::InternalGroupVersioner;

#[path = "support/deployment.rs"]
mod deployment;

use deployment::{internal, v1};

fn benches(c: &mut Criterion, scheme: &Scheme) {
    let d = deployment::sample();
    let scope = Scope::new();
    let mut g = c.benchmark_group("deployment v1 -> internal");
    g.bench_function("clone", |b| {
        b.iter_with_large_drop(|| black_box(&d).clone())
    });
    g.bench_function("convert_ref", |b| {
        b.iter_with_large_drop(|| {
            Convert::<internal::Deployment>::convert_ref(black_box(&d), &scope)
        })
    });
    g.bench_function("convert (by value)", |b| {
        b.iter_batched(
            || d.clone(),
            |d| Convert::<internal::Deployment>::convert(d, &scope),
            BatchSize::SmallInput,
        )
    });
    g.bench_function("scheme.convert_to_version (by value)", |b| {
        b.iter_batched(
            || Box::new(d.clone()) as Box<dyn Object>,
            |d| scheme.convert_to_version(d, &InternalGroupVersioner),
            BatchSize::SmallInput,
        )
    });
    g.bench_function("json round trip", |b| {
        b.iter_with_large_drop(|| {
            serde_json::to_value(black_box(&d))
                .and_then(serde_json::from_value::<internal::Deployment>)
        })
    });
    g.finish();
}

/// Mean time per item of `f` over `n` fresh inputs made by `make` (not timed); outputs are
/// dropped after the clock stops. Repeated until about `budget` has passed.
fn time<I, O>(budget: Duration, make: impl Fn() -> I, mut f: impl FnMut(I) -> O) -> Duration {
    const N: usize = 256;
    let mut total = Duration::ZERO;
    let mut runs = 0u32;
    while total < budget || runs < 3 {
        let inputs: Vec<I> = (0..N).map(|_| make()).collect();
        let mut outputs = Vec::with_capacity(N);
        let start = Instant::now();
        for i in inputs {
            outputs.push(f(i));
        }
        total += start.elapsed();
        black_box(&outputs);
        drop(outputs);
        runs += 1;
    }
    total / (runs * N as u32)
}

fn summary(scheme: &Scheme) {
    let budget = Duration::from_millis(500);
    let d = deployment::sample();
    let scope = Scope::new();
    let clone = time(budget, || &d, |d| d.clone());
    let rows = [
        // The harness's own cost: moving the input into the output list.
        ("move (no conversion)", time(budget, || d.clone(), |d| d)),
        ("clone", clone),
        (
            "convert_ref",
            time(
                budget,
                || &d,
                |d| Convert::<internal::Deployment>::convert_ref(d, &scope),
            ),
        ),
        (
            "convert (by value)",
            time(
                budget,
                || d.clone(),
                |d| Convert::<internal::Deployment>::convert(d, &scope),
            ),
        ),
        (
            "scheme.convert_to_version (by value)",
            time(
                budget,
                || Box::new(d.clone()) as Box<dyn Object>,
                |d| scheme.convert_to_version(d, &InternalGroupVersioner),
            ),
        ),
        (
            "json round trip",
            time(
                budget,
                || &d,
                |d| {
                    serde_json::to_value(d).and_then(serde_json::from_value::<internal::Deployment>)
                },
            ),
        ),
    ];
    println!("\nsummary: Deployment v1 -> internal (mean per object; ratio = time / clone)");
    println!("{:<40} {:>12} {:>9}", "route", "mean", "ratio");
    for (name, t) in rows {
        println!(
            "{:<40} {:>12} {:>8.3}x",
            name,
            format!("{t:.2?}"),
            t.as_secs_f64() / clone.as_secs_f64()
        );
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let scheme = Scheme::from_registry()?;
    // Every route gives the same object before any is timed.
    let d = deployment::sample();
    let by_ref: internal::Deployment = d.convert_ref(&Scope::new())?;
    let by_value: internal::Deployment = d.clone().convert(&Scope::new())?;
    let json: internal::Deployment = serde_json::from_value(serde_json::to_value(&d)?)?;
    let dynamic = scheme.convert_to_version(Box::new(d.clone()), &InternalGroupVersioner)?;
    assert_eq!(by_ref, by_value);
    assert_eq!(by_ref.spec, json.spec);
    assert_eq!(
        dynamic.downcast_ref::<internal::Deployment>(),
        Some(&by_ref)
    );
    let back: v1::Deployment = by_ref.convert_ref(&Scope::new())?;
    assert_eq!(back, d);

    let mut c = Criterion::default().configure_from_args();
    benches(&mut c, &scheme);
    c.final_summary();
    summary(&scheme);
    Ok(())
}
