//! Shared pieces of the comparison benchmarks: the inputs (Go's fixtures and the small
//! objects `kubectl` writes) and [`Suite`], a thin layer over criterion that keeps the
//! median of each measurement so that a run ends with a table of ratios against the
//! alternative a user would pick, each beside its target.
//!
//! Run everything: `benchmarks/run.sh` (see `BENCHMARKS.md`). Under `cargo bench`, each
//! summary's comparisons and limits are appended as [`results`] rows to
//! `benchmarks/results/AREA.jsonl`, from which `cargo xtask bench-report` writes the
//! current table at the top of `BENCHMARKS.md`.

pub mod objects;
pub mod results;

use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};

/// Where Go's fixtures are: `$K8S_API_TESTDATA`, else `shared/k8s-api/v1.36/testdata`
/// beside the repository (the layout CI uses).
pub fn testdata_dir() -> Result<PathBuf, InputError> {
    if let Some(dir) = std::env::var_os("K8S_API_TESTDATA") {
        return Ok(PathBuf::from(dir));
    }
    let beside = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/k8s-api/v1.36/testdata");
    if beside.is_dir() {
        return Ok(beside);
    }
    Err(InputError::NoTestdata { tried: beside })
}

/// What Go measured: `oracle/bin/<release>/k8s-oracle` for the release k8s-types is built
/// for (or `$K8S_ORACLE`) run with `args`, one JSON
/// object per line of its output. `None`, with a note, when the oracle is not built
/// (`oracle/build.sh` needs Go): the benchmark then measures the Rust side only.
pub fn go_oracle_lines(
    args: &[&std::ffi::OsStr],
) -> Result<Option<Vec<serde_json::Value>>, Box<dyn std::error::Error>> {
    let bin = std::env::var_os("K8S_ORACLE").map_or_else(
        || {
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../oracle/bin")
                .join(k8s_types::RELEASE)
                .join("k8s-oracle")
        },
        PathBuf::from,
    );
    if !bin.is_file() {
        eprintln!(
            "note: {} is not built (oracle/build.sh): Go is not measured",
            bin.display()
        );
        return Ok(None);
    }
    let out = std::process::Command::new(&bin).args(args).output()?;
    if !out.status.success() {
        return Err(format!(
            "{} {args:?}: {}",
            bin.display(),
            String::from_utf8_lossy(&out.stderr)
        )
        .into());
    }
    let mut lines = Vec::new();
    for line in String::from_utf8(out.stdout)?.lines() {
        lines.push(serde_json::from_str(line)?);
    }
    Ok(Some(lines))
}

/// A fixture file read from [`testdata_dir`], e.g. `core.v1.Pod.json`.
pub fn fixture(name: &str) -> Result<Vec<u8>, InputError> {
    let path = testdata_dir()?.join(name);
    std::fs::read(&path).map_err(|source| InputError::Read { path, source })
}

/// A small object written by `kubectl` and kept in `benchmarks/data` (see its README).
pub fn kubectl_output(name: &str) -> Result<Vec<u8>, InputError> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name);
    std::fs::read(&path).map_err(|source| InputError::Read { path, source })
}

/// A `PodList` of `n` copies of `pod` (a JSON Pod), each with its own name and without
/// its own kind and apiVersion, as Go writes list items.
pub fn pod_list_json(pod: &[u8], n: usize) -> Result<Vec<u8>, InputError> {
    let pod: serde_json::Value = serde_json::from_slice(pod).map_err(InputError::Json)?;
    let items = (0..n)
        .map(|i| {
            let mut item = pod.clone();
            if let Some(obj) = item.as_object_mut() {
                obj.remove("kind");
                obj.remove("apiVersion");
                if let Some(meta) = obj.get_mut("metadata").and_then(|m| m.as_object_mut()) {
                    meta.insert("name".into(), format!("web-{i:04}").into());
                }
            }
            item
        })
        .collect::<Vec<_>>();
    let list = serde_json::json!({
        "kind": "PodList",
        "apiVersion": "v1",
        "metadata": {"resourceVersion": "12345"},
        "items": items,
    });
    serde_json::to_vec(&list).map_err(InputError::Json)
}

/// An input that could not be prepared.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// Go's fixtures were not found.
    #[error(
        "Go's fixtures not found at {tried}: set K8S_API_TESTDATA to shared/k8s-api/v1.36/testdata"
    )]
    NoTestdata {
        /// The default location that was tried.
        tried: PathBuf,
    },
    /// A file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// An input was not the JSON expected.
    #[error("input JSON: {0}")]
    Json(serde_json::Error),
}

/// What one measurement gave: the median time of one iteration over criterion's samples.
#[derive(Clone, Debug)]
pub struct Measurement {
    /// Median time of one iteration.
    pub median: Duration,
    /// Bytes read or written by one iteration, when it has a size.
    pub bytes: Option<u64>,
}

impl Measurement {
    /// Throughput in MB/s (10^6 bytes per second), when the measurement has a size.
    pub fn mb_per_s(&self) -> Option<f64> {
        let secs = self.median.as_secs_f64();
        self.bytes
            .filter(|_| secs > 0.0)
            .map(|b| b as f64 / secs / 1e6)
    }
}

/// One line of the summary: `ours` against `peer` in `group`, and the largest ratio
/// `ours / peer` that meets the target (`None`: reported without a target).
#[derive(Clone, Debug)]
pub struct Comparison<'a> {
    /// The criterion group both were measured in.
    pub group: &'a str,
    /// Our benchmark's name in the group.
    pub ours: &'a str,
    /// The alternative's name in the group.
    pub peer: &'a str,
    /// The target ratio: ours must take at most this fraction of the peer's time.
    pub target: Option<f64>,
}

/// Criterion with short, fixed settings (the whole suite must run in minutes), keeping
/// the median of every measurement for the summary.
pub struct Suite {
    criterion: Criterion,
    sample_size: usize,
    results: BTreeMap<(String, String), Measurement>,
    area: String,
}

impl Suite {
    /// 20 samples after 0.5 s of warm-up over 1.5 s; command-line arguments (a filter,
    /// `--measurement-time`...) override these. `area` names the results file the
    /// summaries append to (`benchmarks/results/AREA.jsonl`): the bench's name.
    pub fn new(area: &str) -> Self {
        let criterion = Criterion::default()
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_millis(1500))
            .sample_size(20)
            .configure_from_args();
        // Criterion does not tell its sample size; the summary needs it to tell the
        // samples from the warm-up calls.
        let args: Vec<String> = std::env::args().collect();
        let sample_size = args
            .iter()
            .position(|a| a == "--sample-size")
            .and_then(|i| args.get(i + 1))
            .and_then(|n| n.parse().ok())
            .unwrap_or(20);
        Self {
            criterion,
            sample_size,
            results: BTreeMap::new(),
            area: area.to_owned(),
        }
    }

    /// Measures `f`, which handles `bytes` bytes per call when given; its result is
    /// dropped inside the timed region, as a program using it would.
    pub fn bench<R>(
        &mut self,
        group: &str,
        name: &str,
        bytes: Option<usize>,
        mut f: impl FnMut() -> R,
    ) {
        let bytes = bytes.map(|b| b as u64);
        let mut samples: Vec<Duration> = Vec::new();
        {
            let mut g = self.criterion.benchmark_group(group);
            if let Some(b) = bytes {
                g.throughput(Throughput::Bytes(b));
            }
            g.bench_function(name, |b| {
                b.iter_custom(|iters| {
                    let start = Instant::now();
                    for _ in 0..iters {
                        black_box(f());
                    }
                    let elapsed = start.elapsed();
                    if iters > 0 {
                        samples.push(elapsed.div_f64(iters as f64));
                    }
                    elapsed
                })
            });
            g.finish();
        }
        self.record(group, name, bytes, samples);
    }

    /// Measures `f` on inputs it consumes (a conversion by value): `make` builds them
    /// outside the timed region, in batches of 32, and `f`'s results are dropped after
    /// the clock stops (freeing an object can cost more than converting it, and would
    /// hide the difference between routes).
    pub fn bench_by_value<I, R>(
        &mut self,
        group: &str,
        name: &str,
        mut make: impl FnMut() -> I,
        mut f: impl FnMut(I) -> R,
    ) {
        let mut samples: Vec<Duration> = Vec::new();
        {
            let mut g = self.criterion.benchmark_group(group);
            g.bench_function(name, |b| {
                b.iter_custom(|iters| {
                    let mut elapsed = Duration::ZERO;
                    let mut left = iters;
                    while left > 0 {
                        let n = left.min(32);
                        let inputs: Vec<I> = (0..n).map(|_| make()).collect();
                        let mut outputs: Vec<R> = Vec::with_capacity(inputs.len());
                        let start = Instant::now();
                        for input in inputs {
                            outputs.push(black_box(f(input)));
                        }
                        elapsed += start.elapsed();
                        drop(outputs);
                        left -= n;
                    }
                    if iters > 0 {
                        samples.push(elapsed.div_f64(iters as f64));
                    }
                    elapsed
                })
            });
            g.finish();
        }
        self.record(group, name, None, samples);
    }

    /// Keeps the median of the measured samples.
    fn record(&mut self, group: &str, name: &str, bytes: Option<u64>, mut samples: Vec<Duration>) {
        // Criterion calls the routine during warm-up too; the last calls are the samples.
        let keep = samples.len().min(self.sample_size);
        let mut measured = samples.split_off(samples.len() - keep);
        measured.sort();
        if let Some(&median) = measured.get(measured.len() / 2) {
            self.results.insert(
                (group.to_owned(), name.to_owned()),
                Measurement { median, bytes },
            );
        }
    }

    /// The measurement of `name` in `group`, if it ran (a command-line filter may skip it).
    pub fn get(&self, group: &str, name: &str) -> Option<&Measurement> {
        self.results.get(&(group.to_owned(), name.to_owned()))
    }

    /// Prints every measurement, then the comparisons as a Markdown table.
    pub fn print_summary(&self, title: &str, comparisons: &[Comparison<'_>]) {
        println!("\n## {title}\n");
        println!("| group | benchmark | median | MB/s |");
        println!("|---|---|---:|---:|");
        for ((group, name), m) in &self.results {
            let mbs = m.mb_per_s().map_or(String::new(), |v| format!("{v:.0}"));
            println!(
                "| {group} | {name} | {} | {mbs} |",
                format_duration(m.median)
            );
        }
        if comparisons.is_empty() {
            return;
        }
        let mut rows = Vec::new();
        println!("\n| group | ours | peer | ours / peer | target | met |");
        println!("|---|---|---|---:|---:|---|");
        for c in comparisons {
            let (Some(ours), Some(peer)) = (self.get(c.group, c.ours), self.get(c.group, c.peer))
            else {
                continue;
            };
            let ratio = ours.median.as_secs_f64() / peer.median.as_secs_f64();
            let (target, met) = match c.target {
                Some(t) => (format!("≤ {t:.2}×"), if ratio <= t { "yes" } else { "no" }),
                None => (String::from("—"), ""),
            };
            println!(
                "| {} | {} {} | {} {} | {ratio:.2}× | {target} | {met} |",
                c.group,
                c.ours,
                format_duration(ours.median),
                c.peer,
                format_duration(peer.median),
            );
            let row = self
                .row(
                    &format!("{}/{} vs {}", c.group, c.ours, c.peer),
                    &format!("{title}: {}, {} vs {}", c.group, c.ours, c.peer),
                    ours,
                )
                .against(c.peer, nanos(peer.median));
            rows.push(match c.target {
                Some(t) => row.target(format!("ratio <= {t:.2}")),
                None => row,
            });
        }
        self.save(&rows);
    }

    /// A results row for `ours`'s median in nanoseconds, named `AREA.METRIC`.
    pub fn row(&self, metric: &str, title: &str, ours: &Measurement) -> results::Row {
        results::Row::new(
            format!("{}.{metric}", self.area),
            title.to_owned(),
            nanos(ours.median),
            "ns",
            &format!("benchmarks/benches/{}.rs", self.area),
        )
    }

    /// Appends `rows` to this bench's results file under `cargo bench`; a file that cannot
    /// be written is reported, not fatal (the printed tables are the run's output too).
    pub fn save(&self, rows: &[results::Row]) {
        if rows.is_empty() || !results::recording() {
            return;
        }
        match results::append(&self.area, rows) {
            Ok(path) => println!(
                "\n{} results rows appended to {}",
                rows.len(),
                path.display()
            ),
            Err(e) => eprintln!("warning: results not recorded: {e}"),
        }
    }

    /// Prints measurements against absolute limits as a Markdown table: `(group, name,
    /// limit)`, met when the median is at most the limit.
    pub fn print_limits(&self, title: &str, limits: &[(&str, &str, Duration)]) {
        let mut rows = Vec::new();
        println!("\n| group | benchmark | median | target | met |");
        println!("|---|---|---:|---:|---|");
        for &(group, name, limit) in limits {
            let Some(m) = self.get(group, name) else {
                continue;
            };
            let met = if m.median <= limit { "yes" } else { "no" };
            println!(
                "| {group} | {name} | {} | < {} | {met} |",
                format_duration(m.median),
                format_duration(limit)
            );
            rows.push(
                self.row(
                    &format!("{group}/{name}"),
                    &format!("{title}: {group}, {name}"),
                    m,
                )
                .target(format!("ours <= {}", nanos(limit))),
            );
        }
        self.save(&rows);
    }

    /// Criterion's own closing output.
    pub fn final_summary(&mut self) {
        self.criterion.final_summary();
    }
}

/// A duration in nanoseconds, the unit of the benches' results rows.
pub fn nanos(d: Duration) -> f64 {
    d.as_secs_f64() * 1e9
}

/// A duration with a unit that keeps three significant digits.
pub fn format_duration(d: Duration) -> String {
    let ns = d.as_secs_f64() * 1e9;
    if ns < 1e3 {
        format!("{ns:.1} ns")
    } else if ns < 1e6 {
        format!("{:.2} µs", ns / 1e3)
    } else if ns < 1e9 {
        format!("{:.2} ms", ns / 1e6)
    } else {
        format!("{:.2} s", ns / 1e9)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pod_list_has_n_named_items_without_type_meta() {
        let pod = br#"{"kind":"Pod","apiVersion":"v1","metadata":{"name":"x"},"spec":{}}"#;
        let list: serde_json::Value =
            serde_json::from_slice(&pod_list_json(pod, 3).unwrap()).unwrap();
        let items = list["items"].as_array().unwrap();
        assert_eq!(items.len(), 3);
        assert_eq!(items[2]["metadata"]["name"], "web-0002");
        assert!(items[0].get("kind").is_none());
        assert_eq!(list["kind"], "PodList");
    }

    #[test]
    fn throughput_is_bytes_over_median() {
        let m = Measurement {
            median: Duration::from_millis(1),
            bytes: Some(2_000_000),
        };
        assert_eq!(m.mb_per_s(), Some(2000.0));
        assert_eq!(Measurement { bytes: None, ..m }.mb_per_s(), None);
    }

    #[test]
    fn durations_keep_their_unit() {
        assert_eq!(format_duration(Duration::from_nanos(12)), "12.0 ns");
        assert_eq!(format_duration(Duration::from_micros(130)), "130.00 µs");
        assert_eq!(format_duration(Duration::from_millis(3)), "3.00 ms");
    }
}
