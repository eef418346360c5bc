//! The benches' figures as results rows: one line of JSON per figure, appended to
//! `benchmarks/results/AREA.jsonl`, the format `benchmarks/results.sh` writes for the
//! shell scripts and `cargo xtask bench-report` reads to write the table at the top of
//! `BENCHMARKS.md` (see `benchmarks/results/README.md`).
//!
//! Rows are written only under `cargo bench` (criterion's `--bench` argument): a bench
//! binary run as a test (`cargo test --benches`) measures nothing worth keeping.

use std::io::Write;
use std::path::{Path, PathBuf};

use apimachinery::apis::meta::v1::Time;
use serde::Serialize;

/// One measured figure. `ratio` is `ours / peer_value`; `target` is a condition on the
/// ratio or on `ours`, such as `ratio <= 0.67` or `ours < 50` (the README's grammar).
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// Stable identifier: the newest row per metric is the current figure.
    pub metric: String,
    /// What the report's table calls it.
    pub title: String,
    /// Our figure, in `unit`.
    pub ours: f64,
    /// The unit of `ours` and `peer_value`.
    pub unit: String,
    /// The peer's name, when the figure has one.
    pub peer: Option<String>,
    /// The peer's figure in the same run, in `unit`.
    pub peer_value: Option<f64>,
    /// `ours / peer_value`.
    pub ratio: Option<f64>,
    /// The target, when the figure has one.
    pub target: Option<String>,
    /// When it was measured: UTC, `YYYY-MM-DDTHH:MM:SSZ`.
    pub date: String,
    /// The commit measured (`+dirty` with uncommitted changes).
    pub commit: String,
    /// The machine and its load.
    pub machine: String,
    /// What measured it.
    pub source: String,
}

impl Row {
    /// A figure of ours measured now, without a peer or a target yet.
    pub fn new(metric: String, title: String, ours: f64, unit: &str, source: &str) -> Self {
        Self {
            metric,
            title,
            ours,
            unit: unit.to_owned(),
            peer: None,
            peer_value: None,
            ratio: None,
            target: None,
            date: utc_now(),
            commit: commit(),
            machine: machine(),
            source: source.to_owned(),
        }
    }

    /// The same figure beside `peer`'s `value`, the ratio computed.
    pub fn against(mut self, peer: &str, value: f64) -> Self {
        self.ratio = (value != 0.0).then(|| self.ours / value);
        self.peer = Some(peer.to_owned());
        self.peer_value = Some(value);
        self
    }

    /// The same figure with a target (`ratio <= 0.67`, `ours < 50`).
    pub fn target(mut self, target: String) -> Self {
        self.target = Some(target);
        self
    }
}

/// Whether this process should write results: under `cargo bench` only.
pub fn recording() -> bool {
    std::env::args().any(|a| a == "--bench")
}

/// Appends `rows` to `AREA.jsonl` in [`results_dir`], one JSON object per line.
pub fn append(area: &str, rows: &[Row]) -> Result<PathBuf, ResultsError> {
    let dir = results_dir();
    let path = dir.join(format!("{area}.jsonl"));
    let mut text = String::new();
    for row in rows {
        let line = serde_json::to_string(row).map_err(|source| ResultsError::Json {
            metric: row.metric.clone(),
            source,
        })?;
        text.push_str(&line);
        text.push('\n');
    }
    std::fs::create_dir_all(&dir).map_err(|source| ResultsError::Write {
        path: dir.clone(),
        source,
    })?;
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|source| ResultsError::Write {
            path: path.clone(),
            source,
        })?;
    Ok(path)
}

/// `$RESULTS_DIR`, else `benchmarks/results` (as `results.sh`).
pub fn results_dir() -> PathBuf {
    std::env::var_os("RESULTS_DIR").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("results"),
        PathBuf::from,
    )
}

/// Results that could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ResultsError {
    /// A row did not serialize (a figure that is not a number).
    #[error("results row {metric}: {source}")]
    Json {
        /// The row's metric.
        metric: String,
        /// Why.
        source: serde_json::Error,
    },
    /// The results file could not be written.
    #[error("writing {path}: {source}")]
    Write {
        /// The file or directory.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// The commit: `$RESULTS_COMMIT` (set by `run.sh` when the run started, so that edits made
/// during a long run do not mark it), else `git rev-parse`, `+dirty` with changes.
fn commit() -> String {
    if let Ok(c) = std::env::var("RESULTS_COMMIT") {
        return c;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .arg("-C")
            .arg(&root)
            .args(args)
            .output()
    };
    let Ok(head) = git(&["rev-parse", "--short=12", "HEAD"]) else {
        return "unknown".to_owned();
    };
    let mut c = String::from_utf8_lossy(&head.stdout).trim().to_owned();
    // As results.sh: a run's own rows and the report it feeds do not make the tree dirty.
    let diff = [
        "diff",
        "--quiet",
        "HEAD",
        "--",
        ".",
        ":(exclude)benchmarks/results",
        ":(exclude)BENCHMARKS.md",
    ];
    if git(&diff).is_ok_and(|o| !o.status.success()) {
        c.push_str("+dirty");
    }
    c
}

/// The machine: `$RESULTS_MACHINE` (from `results.sh`), else the core count; with the
/// load average now.
fn machine() -> String {
    let base = std::env::var("RESULTS_MACHINE").unwrap_or_else(|_| {
        let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
        format!("{cores} cores")
    });
    match std::fs::read_to_string("/proc/loadavg") {
        Ok(load) => {
            let load: Vec<&str> = load.split_whitespace().take(3).collect();
            format!("{base}; load average {} when written", load.join(" "))
        }
        Err(_) => base,
    }
}

/// Now, in UTC, as `YYYY-MM-DDTHH:MM:SSZ` (Go's RFC 3339 form, as `metav1.Time` writes it).
pub fn utc_now() -> String {
    Time::now().to_rfc3339()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_utc_to_the_second() {
        let now = utc_now();
        assert_eq!(now.len(), "2026-11-29T07:00:00Z".len(), "{now}");
        assert!(now.ends_with('Z') && now.as_bytes()[10] == b'T', "{now}");
    }

    #[test]
    fn a_row_against_a_peer_has_its_ratio() {
        let row = Row::new("m".into(), "t".into(), 3.0, "ns", "x").against("p", 6.0);
        assert_eq!(row.ratio, Some(0.5));
        let zero = Row::new("m".into(), "t".into(), 3.0, "ns", "x").against("p", 0.0);
        assert_eq!(zero.ratio, None);
        let line = serde_json::to_string(&row.target("ratio <= 1".into())).unwrap();
        assert!(line.starts_with(r#"{"metric":"m","title":"t","ours":3.0,"unit":"ns","peer":"p","peer_value":6.0,"ratio":0.5,"target":"ratio <= 1""#), "{line}");
    }
}
