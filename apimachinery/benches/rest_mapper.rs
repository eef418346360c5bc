//! The indexed `DefaultRESTMapper` against Go's algorithm (a linear walk of every
//! registration per lookup, `support/naive_rest_mapper.rs`) on a mapper of 1,000 groups ×
//! 3 resources: build time, then `kind_for` and `resources_for` for each shape of partial
//! resource. After criterion's report, a summary prints both times and their ratio per
//! case, and an estimate of the memory each registration takes.
//!
//! Run: `cargo bench -p apimachinery --bench rest_mapper -- --warm-up-time 1 --measurement-time 2`

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion};

use apimachinery::meta::{DefaultRESTMapper, RESTMapper, RESTScope};
use apimachinery::schema::{GroupVersion, GroupVersionKind, GroupVersionResource, Name};

/// The paths the shared naive mapper uses, as the library spells them.
mod meta {
    pub use apimachinery::meta::*;
}
mod schema {
    pub use apimachinery::schema::*;
}
#[path = "support/naive_rest_mapper.rs"]
mod naive_rest_mapper;

use naive_rest_mapper::NaiveRESTMapper;

const GROUPS: usize = 1_000;
const PICK: usize = 517;

fn group_name(i: usize) -> String {
    format!("group{i}.example.com")
}

/// 3 kinds per group, named after the group so resource names are unique (as custom
/// resources mostly are); `shared` gives every group the same three names instead.
fn kinds(groups: usize, shared: bool) -> (Vec<GroupVersion>, Vec<GroupVersionKind>) {
    let mut gvs = Vec::with_capacity(groups);
    let mut kinds = Vec::with_capacity(groups * 3);
    for i in 0..groups {
        let gv = GroupVersion::new(Name::from(group_name(i)), Name::from_static("v1"));
        for base in ["Widget", "Gadget", "Sprocket"] {
            let kind = if shared {
                base.to_owned()
            } else {
                format!("{base}{i}")
            };
            kinds.push(gv.with_kind(Name::from(kind)));
        }
        gvs.push(gv);
    }
    (gvs, kinds)
}

fn build_fast(gvs: &[GroupVersion], kinds: &[GroupVersionKind]) -> DefaultRESTMapper {
    let mut m = DefaultRESTMapper::new(gvs.to_vec());
    for k in kinds {
        m.add(k.clone(), RESTScope::NAMESPACE);
    }
    m
}

fn build_naive(gvs: &[GroupVersion], kinds: &[GroupVersionKind]) -> NaiveRESTMapper {
    let mut m = NaiveRESTMapper::new(gvs.to_vec());
    for k in kinds {
        m.add(k.clone(), RESTScope::NAMESPACE);
    }
    m
}

/// The five shapes of a partial resource, all naming the same resource.
fn shapes(resource: &str) -> Vec<(&'static str, GroupVersionResource)> {
    let group = group_name(PICK);
    vec![
        ("resource", GroupVersionResource::new("", "", resource)),
        (
            "group+resource",
            GroupVersionResource::new(group.as_str(), "", resource),
        ),
        (
            "group-prefix",
            GroupVersionResource::new(format!("group{PICK}"), "", resource),
        ),
        (
            "version+resource",
            GroupVersionResource::new("", "v1", resource),
        ),
        (
            "fully-qualified",
            GroupVersionResource::new(group.as_str(), "v1", resource),
        ),
    ]
}

fn unique_resource() -> String {
    format!("widget{PICK}s")
}

fn benches(c: &mut Criterion, fast: &DefaultRESTMapper, naive: &NaiveRESTMapper) {
    let (gvs, kinds) = kinds(GROUPS, false);
    let mut build = c.benchmark_group("build 3000 kinds");
    build.bench_function("indexed", |b| {
        b.iter(|| build_fast(black_box(&gvs), black_box(&kinds)))
    });
    build.bench_function("go-linear", |b| {
        b.iter(|| build_naive(black_box(&gvs), black_box(&kinds)))
    });
    build.finish();

    for (op, lookup) in [("kind_for", 0), ("resources_for", 1)] {
        let mut group = c.benchmark_group(op);
        for (shape, q) in shapes(&unique_resource()) {
            let mappers: [(&str, &dyn RESTMapper); 2] = [("indexed", fast), ("go-linear", naive)];
            for (name, mapper) in mappers {
                group.bench_with_input(BenchmarkId::new(name, shape), &q, |b, q| {
                    b.iter(|| ask(mapper, lookup, black_box(q)))
                });
            }
        }
        group.finish();
    }
}

/// One lookup; the answer's size keeps the optimizer from dropping it.
fn ask(mapper: &dyn RESTMapper, lookup: u8, q: &GroupVersionResource) -> usize {
    match lookup {
        0 => mapper.kind_for(q).map(|k| k.kind.len()).unwrap_or(0),
        _ => mapper.resources_for(q).map(|r| r.len()).unwrap_or(0),
    }
}

/// Mean time of `f` over enough runs to last about `budget`.
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

fn summary(
    fast: &DefaultRESTMapper,
    naive: &NaiveRESTMapper,
    shared_fast: &DefaultRESTMapper,
    shared_naive: &NaiveRESTMapper,
) {
    let budget = Duration::from_millis(300);
    let (gvs, kinds) = kinds(GROUPS, false);
    println!("\nsummary (mean per call; ratio = go-linear / indexed)");
    println!(
        "{:<40} {:>12} {:>12} {:>9}",
        "case", "indexed", "go-linear", "ratio"
    );
    let row = |case: &str, a: Duration, b: Duration| {
        println!(
            "{:<40} {:>12} {:>12} {:>8.1}x",
            case,
            format!("{a:.2?}"),
            format!("{b:.2?}"),
            b.as_secs_f64() / a.as_secs_f64()
        );
    };
    let a = time(budget, || build_fast(&gvs, &kinds).len());
    let b = time(budget, || build_naive(&gvs, &kinds).len());
    row("build (1000 groups x 3 kinds)", a, b);
    for (op, lookup) in [("kind_for", 0u8), ("resources_for", 1)] {
        for (shape, q) in shapes(&unique_resource()) {
            let a = time(budget, || ask(fast, lookup, &q));
            let b = time(budget, || ask(naive, lookup, &q));
            row(&format!("{op} {shape}"), a, b);
        }
    }
    // Every group has the same three names: the index narrows to 1,000 candidates.
    for (shape, q) in shapes("widgets") {
        if shape == "group+resource" || shape == "fully-qualified" || shape == "group-prefix" {
            let a = time(budget, || ask(shared_fast, 0, &q));
            let b = time(budget, || ask(shared_naive, 0, &q));
            row(&format!("kind_for {shape} (shared names)"), a, b);
        }
    }
}

/// Resident memory of this process, from `/proc` (Linux); `None` elsewhere.
fn resident_bytes() -> Option<usize> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: usize = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

/// Bytes per registered kind: the growth of resident memory while 100,000 kinds are
/// registered, and a count of what the maps hold.
fn memory() {
    const N_GROUPS: usize = 33_334;
    let (gvs, kinds) = kinds(N_GROUPS, false);
    let n = kinds.len() as f64;
    let before = resident_bytes();
    let fast = build_fast(&gvs, &kinds);
    let after_fast = resident_bytes();
    let naive = build_naive(&gvs, &kinds);
    let after_naive = resident_bytes();
    println!(
        "\nmemory for {} kinds (resident growth while building)",
        kinds.len()
    );
    if let (Some(b), Some(f), Some(g)) = (before, after_fast, after_naive) {
        println!(
            "  indexed:   {:>6.0} bytes/kind",
            (f.saturating_sub(b)) as f64 / n
        );
        println!(
            "  go-linear: {:>6.0} bytes/kind",
            (g.saturating_sub(f)) as f64 / n
        );
    }
    // What one `add` stores in the indexed mapper, by size_of: two resource→kind entries
    // (resource, kind), one plural slot (plural, singular), one kind entry (kind, plural,
    // scope), three position-map keys (plural, singular, plural resource) with their
    // positions, and four name-index entries (plural and singular names in two indexes,
    // each a name and an inline slot). Strings are shared `Arc<str>`s: the lower-cased
    // singular and plural names are the only new ones.
    let gvr = std::mem::size_of::<GroupVersionResource>();
    let gvk = std::mem::size_of::<GroupVersionKind>();
    let name = std::mem::size_of::<Name>();
    let slots = std::mem::size_of::<Vec<usize>>() + 8;
    let stored = 2 * (gvr + gvk) + 2 * gvr + (gvk + gvr + 8) + 3 * (gvr + 8) + 4 * (name + slots);
    let strings = 2 * (16 + unique_resource().len());
    println!(
        "  indexed by size_of: ~{stored} B/kind in table entries + ~{strings} B of new strings, before hash-table slack (GroupVersionResource = {gvr} B, GroupVersionKind = {gvk} B, Name = {name} B)"
    );
    black_box((&fast, &naive));
}

fn main() {
    memory();
    let (gvs, kinds_unique) = kinds(GROUPS, false);
    let fast = build_fast(&gvs, &kinds_unique);
    let naive = build_naive(&gvs, &kinds_unique);
    let (gvs, kinds_shared) = kinds(GROUPS, true);
    let shared_fast = build_fast(&gvs, &kinds_shared);
    let shared_naive = build_naive(&gvs, &kinds_shared);
    // Both mappers answer the same before they are timed.
    let pairs: [(&DefaultRESTMapper, &NaiveRESTMapper, String); 2] = [
        (&fast, &naive, unique_resource()),
        (&shared_fast, &shared_naive, "widgets".to_owned()),
    ];
    for (f, n, resource) in pairs {
        for (_, q) in shapes(&resource) {
            assert_eq!(
                format!("{:?}", f.resources_for(&q)),
                format!("{:?}", n.resources_for(&q))
            );
            assert_eq!(
                format!("{:?}", f.kinds_for(&q)),
                format!("{:?}", n.kinds_for(&q))
            );
        }
    }

    let mut c = Criterion::default().configure_from_args();
    benches(&mut c, &fast, &naive);
    c.final_summary();
    summary(&fast, &naive, &shared_fast, &shared_naive);
}
