//! The current figures: the newest row per metric of each results file, as the Markdown
//! table at the top of `BENCHMARKS.md`.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::row::{Row, Subject, Target};

/// One results file: its area (the file's stem) and its rows in file order.
pub struct Area {
    /// `compile_time`, `json`, ...
    pub name: String,
    /// Every row, oldest line first.
    pub rows: Vec<Row>,
}

/// The newest row of each metric, in the order each metric first appears in the file
/// (the order the script measures them in). Newest is the latest date; between equal
/// dates, the later line, since the files are only appended to.
pub fn newest(rows: &[Row]) -> Vec<&Row> {
    let mut order: Vec<&str> = Vec::new();
    let mut best: BTreeMap<&str, &Row> = BTreeMap::new();
    for row in rows {
        match best.get(row.metric.as_str()) {
            None => {
                order.push(&row.metric);
                best.insert(&row.metric, row);
            }
            Some(kept) if row.date >= kept.date => {
                best.insert(&row.metric, row);
            }
            Some(_) => {}
        }
    }
    order.iter().filter_map(|m| best.get(m).copied()).collect()
}

/// The table, one row per metric, and its numbered notes (one per distinct source and
/// machine); the caller puts it between the markers.
pub fn render(areas: &[Area]) -> String {
    let mut out = String::new();
    let mut notes: Vec<String> = Vec::new();
    out.push_str(
        "| area | figure | ours | peer | ours / peer | target | met | run (UTC), commit |\n",
    );
    out.push_str("|---|---|---:|---|---:|---|---|---|\n");
    for area in areas {
        for row in newest(&area.rows) {
            let note = note_of(row);
            let n = match notes.iter().position(|x| *x == note) {
                Some(i) => i + 1,
                None => {
                    notes.push(note);
                    notes.len()
                }
            };
            let peer = match (&row.peer, row.peer_value) {
                (Some(name), Some(v)) => format!("{name} {}", value(v, &row.unit)),
                (Some(name), None) => name.clone(),
                (None, _) => "—".to_owned(),
            };
            let ratio = row.ratio().map_or("—".to_owned(), |r| format!("{r:.2}×"));
            let target = row
                .target
                .as_deref()
                .and_then(|t| Target::parse(t).ok())
                .map_or("—".to_owned(), |t| target(&t, &row.unit));
            let met = match row.met() {
                Some(true) => "yes",
                Some(false) => "**no**",
                None => "—",
            };
            let date = row.date.replacen('T', " ", 1).replace('Z', "");
            let _ = writeln!(
                out,
                "| {} | {} | {} | {peer} | {ratio} | {target} | {met} | {date}, {} [{n}] |",
                area.name,
                cell(&row.title),
                value(row.ours, &row.unit),
                row.commit
            );
        }
    }
    out.push('\n');
    for (i, note) in notes.iter().enumerate() {
        let _ = writeln!(out, "[{}] {}", i + 1, cell(note));
        out.push('\n');
    }
    out
}

/// What a row's note says: how it was measured (or where it was imported from) and on
/// what machine under what load.
fn note_of(row: &Row) -> String {
    if row.imported() {
        format!(
            "Imported, not rerun: {} (`benchmarks/HISTORY.md`); {}.",
            row.source, row.machine
        )
    } else {
        format!("`{}`; {}.", row.source, row.machine)
    }
}

/// Text safe inside a Markdown table cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// A figure with its unit: nanoseconds scaled to the unit that keeps three significant
/// digits, other units with a precision for their size.
pub fn value(v: f64, unit: &str) -> String {
    if unit == "ns" {
        return if v < 1e3 {
            format!("{v:.1} ns")
        } else if v < 1e6 {
            format!("{:.2} µs", v / 1e3)
        } else if v < 1e9 {
            format!("{:.2} ms", v / 1e6)
        } else {
            format!("{:.2} s", v / 1e9)
        };
    }
    let digits = if v.abs() >= 100.0 {
        0
    } else if v.abs() >= 10.0 {
        1
    } else {
        2
    };
    format!("{v:.digits$} {unit}")
}

/// A target as the table prints it: `≤ 0.67×` on the ratio, `≤ 50.0 ns` on the figure.
fn target(t: &Target, unit: &str) -> String {
    match t.subject {
        Subject::Ratio => format!("{} {}×", t.op.sign(), t.value),
        Subject::Ours => format!("{} {}", t.op.sign(), value(t.value, unit)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(metric: &str, ours: f64, date: &str) -> Row {
        let line = format!(
            r#"{{"metric":"{metric}","title":"T {metric}","ours":{ours},"unit":"s","peer":"p","peer_value":10,"ratio":{},"target":"ratio <= 1","date":"{date}","commit":"c","machine":"m","source":"s.sh"}}"#,
            ours / 10.0
        );
        Row::parse(&line, "t.jsonl", 1).unwrap()
    }

    #[test]
    fn the_newest_row_per_metric_in_first_appearance_order() {
        let rows = vec![
            row("b", 1.0, "2026-11-20T10:00:00Z"),
            row("a", 2.0, "2026-11-21T10:00:00Z"),
            row("b", 3.0, "2026-11-22T10:00:00Z"),
            // Older than the kept one: an import of a history figure appended later.
            row("b", 4.0, "2026-11-19"),
            // Same date as the kept one: the later line wins.
            row("a", 5.0, "2026-11-21T10:00:00Z"),
        ];
        let picked: Vec<(&str, f64)> = newest(&rows)
            .iter()
            .map(|r| (r.metric.as_str(), r.ours))
            .collect();
        assert_eq!(picked, [("b", 3.0), ("a", 5.0)]);
    }

    #[test]
    fn the_table_has_one_row_per_metric_with_ratio_target_and_met() {
        let areas = [Area {
            name: "compile_time".into(),
            rows: vec![
                row("x", 25.0, "2026-11-20T10:00:00Z"),
                row("x", 8.0, "2026-11-29T07:01:02Z"),
            ],
        }];
        let table = render(&areas);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(
            lines[2],
            "| compile_time | T x | 8.00 s | p 10.0 s | 0.80× | ≤ 1× | yes | 2026-11-29 07:01:02, c [1] |"
        );
        assert_eq!(lines[3], "");
        assert_eq!(lines[4], "[1] `s.sh`; m.");
        assert_eq!(table.matches("| T x |").count(), 1);
    }

    #[test]
    fn figures_keep_their_units() {
        assert_eq!(value(12.0, "ns"), "12.0 ns");
        assert_eq!(value(54_321.0, "ns"), "54.32 µs");
        assert_eq!(value(125.31, "s"), "125 s");
        assert_eq!(value(2.5, "s"), "2.50 s");
        assert_eq!(
            target(&Target::parse("ours <= 50").unwrap(), "ns"),
            "≤ 50.0 ns"
        );
    }
}
