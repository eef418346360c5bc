//! `cargo xtask bench-report [--check]`: the table of current figures at the top of
//! `BENCHMARKS.md`, from the results the benchmark scripts append to
//! `benchmarks/results/AREA.jsonl` (one JSON object per line; the format is in
//! `benchmarks/results/README.md`).
//!
//! The newest row of each metric is its current figure ([`table::newest`]); the table is
//! written between [`BEGIN`] and [`END`], the rest of the file left as it is, so that
//! running it again changes nothing. `--check` writes nothing and fails when the file is
//! not what the results give (CI runs it: no benchmark is run).

mod row;
mod table;

use std::path::Path;

use crate::Error;

/// The report, relative to the workspace root.
const REPORT: &str = "BENCHMARKS.md";

/// The results files' directory, relative to the workspace root.
const RESULTS: &str = "benchmarks/results";

/// The line the table starts after.
pub const BEGIN: &str = "<!-- bench-report:begin: written by `cargo xtask bench-report` from benchmarks/results/*.jsonl; edits here are overwritten -->";

/// The line the table ends before.
pub const END: &str = "<!-- bench-report:end -->";

/// The order areas are shown in: the builds first (issue 44's subject), then the codecs,
/// then the runtime; areas not named here follow in name order.
const AREA_ORDER: [&str; 12] = [
    "compile_time",
    "json",
    "yaml",
    "protobuf",
    "clone",
    "scheme",
    "go_codecs",
    "reconcile",
    "cache",
    "watch_decode",
    "apiserver",
    "suite",
];

/// `cargo xtask bench-report [--check]`.
pub fn main(args: &[String]) -> Result<(), Error> {
    let check = crate::check_flag(args, "cargo xtask bench-report [--check]")?;
    let root = crate::workspace_root();
    let areas = read_areas(&root.join(RESULTS))?;
    let path = root.join(REPORT);
    let doc = std::fs::read_to_string(&path).map_err(|source| Error::Read {
        path: path.clone(),
        source,
    })?;
    let fresh = splice(&doc, &table::render(&areas)).map_err(Error::Model)?;
    let metrics: usize = areas.iter().map(|a| table::newest(&a.rows).len()).sum();
    if check {
        if fresh != doc {
            return Err(Error::Model(format!(
                "{REPORT}'s table is not what {RESULTS}/*.jsonl give; run `cargo xtask bench-report`"
            )));
        }
        eprintln!("{REPORT} is current with {RESULTS} ({metrics} metrics)");
    } else if fresh != doc {
        std::fs::write(&path, &fresh).map_err(|source| Error::Write {
            path: path.clone(),
            source,
        })?;
        eprintln!("wrote {metrics} metrics into {REPORT}");
    } else {
        eprintln!("{REPORT} is already current ({metrics} metrics)");
    }
    Ok(())
}

/// Every `*.jsonl` of `dir`, in [`AREA_ORDER`].
fn read_areas(dir: &Path) -> Result<Vec<table::Area>, Error> {
    let entries = std::fs::read_dir(dir).map_err(|source| Error::Read {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut areas = Vec::new();
    for entry in entries {
        let path = entry
            .map_err(|source| Error::Read {
                path: dir.to_path_buf(),
                source,
            })?
            .path();
        let Some(name) = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(".jsonl"))
        else {
            continue;
        };
        let text = std::fs::read_to_string(&path).map_err(|source| Error::Read {
            path: path.clone(),
            source,
        })?;
        let shown = format!("{RESULTS}/{name}.jsonl");
        areas.push(table::Area {
            name: name.to_owned(),
            rows: parse_rows(&text, &shown).map_err(Error::Model)?,
        });
    }
    areas.sort_by_key(|a| {
        let rank = AREA_ORDER.iter().position(|n| *n == a.name);
        (rank.unwrap_or(AREA_ORDER.len()), a.name.clone())
    });
    Ok(areas)
}

/// The rows of one results file; blank lines are skipped.
fn parse_rows(text: &str, file: &str) -> Result<Vec<row::Row>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| row::Row::parse(l, file, i + 1))
        .collect()
}

/// `doc` with everything between the [`BEGIN`] and [`END`] lines replaced by `table`.
fn splice(doc: &str, table: &str) -> Result<String, String> {
    let missing = || format!("{REPORT} has no `{BEGIN}` line followed by a `{END}` line");
    let begin = doc.find(BEGIN).ok_or_else(missing)?;
    let after_begin = begin + BEGIN.len();
    let end = after_begin + doc[after_begin..].find(END).ok_or_else(missing)?;
    Ok(format!("{}\n\n{table}{}", &doc[..after_begin], &doc[end..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROWS: &str = r#"{"metric":"m","title":"Clean build","ours":120,"unit":"s","peer":"k8s-openapi","peer_value":40,"ratio":3,"target":"ratio <= 1.0","date":"2026-11-27T10:00:00Z","commit":"a","machine":"2 cores","source":"benchmarks/compile_time.sh"}

{"metric":"m","title":"Clean build","ours":100,"unit":"s","peer":"k8s-openapi","peer_value":50,"ratio":2,"target":"ratio <= 1.0","date":"2026-11-29T07:00:00Z","commit":"b","machine":"2 cores","source":"benchmarks/compile_time.sh"}
"#;

    fn doc() -> String {
        format!("# Benchmarks\n\nintro\n\n{BEGIN}\nold table\n{END}\n\n## How to reproduce\n")
    }

    #[test]
    fn the_report_is_the_newest_rows_between_the_markers_and_stable() {
        let areas = [table::Area {
            name: "compile_time".into(),
            rows: parse_rows(ROWS, "compile_time.jsonl").unwrap(),
        }];
        let once = splice(&doc(), &table::render(&areas)).unwrap();
        assert!(once.starts_with(&format!("# Benchmarks\n\nintro\n\n{BEGIN}\n\n| area |")));
        assert!(once.ends_with(&format!("{END}\n\n## How to reproduce\n")));
        assert!(!once.contains("old table"));
        assert!(once.contains("| 100 s | k8s-openapi 50.0 s | 2.00× | ≤ 1× | **no** |"));
        assert!(!once.contains("| 120 s |"));
        // Regenerating what was generated changes nothing (what --check relies on).
        assert_eq!(splice(&once, &table::render(&areas)).unwrap(), once);
    }

    #[test]
    fn a_report_without_markers_is_an_error() {
        let err = splice("# Benchmarks\n", "t").unwrap_err();
        assert!(err.contains("bench-report:begin"), "{err}");
        let err = splice(&format!("{BEGIN}\n"), "t").unwrap_err();
        assert!(err.contains("bench-report:end"), "{err}");
    }

    #[test]
    fn a_bad_line_is_reported_with_its_number() {
        let err = parse_rows("\n{\"metric\":1}\n", "x.jsonl").unwrap_err();
        assert!(err.starts_with("x.jsonl:2: "), "{err}");
    }

    #[test]
    fn areas_come_in_their_order_then_by_name() {
        let dir = std::env::temp_dir().join(format!("bench-report-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for name in ["zz", "json", "compile_time", "aa"] {
            std::fs::write(dir.join(format!("{name}.jsonl")), ROWS).unwrap();
        }
        std::fs::write(dir.join("README.md"), "not rows").unwrap();
        let areas = read_areas(&dir).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        let names: Vec<&str> = areas.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names, ["compile_time", "json", "aa", "zz"]);
    }
}
