//! One results row (a line of `benchmarks/results/AREA.jsonl`, the format of
//! `benchmarks/results/README.md`) and its target, read with typed errors.

use serde::Deserialize;

/// One measured figure, as the benchmark scripts append it.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Row {
    /// Stable identifier: the newest row per metric is the current figure.
    pub metric: String,
    /// What the table calls it.
    pub title: String,
    /// Our figure, in `unit`.
    pub ours: f64,
    /// The unit of `ours` and `peer_value`.
    pub unit: String,
    /// The peer's name.
    #[serde(default)]
    pub peer: Option<String>,
    /// The peer's figure in the same run.
    #[serde(default)]
    pub peer_value: Option<f64>,
    /// `ours / peer_value`, as the script computed it.
    #[serde(default)]
    pub ratio: Option<f64>,
    /// A condition on `ratio` or `ours` (see [`Target`]).
    #[serde(default)]
    pub target: Option<String>,
    /// When it was measured, UTC: `YYYY-MM-DDTHH:MM:SSZ`, or a coarser prefix of it
    /// (`YYYY-MM-DD`) for figures imported from the history.
    pub date: String,
    /// The commit measured.
    pub commit: String,
    /// The machine and its load.
    pub machine: String,
    /// What measured it (a script), or `BENCHMARKS history section <title>` for a figure
    /// imported from the dated sections rather than measured by a script.
    pub source: String,
}

impl Row {
    /// Reads one line of `file` (`line`, from 1, for the message), checked: a date the
    /// newest-row selection can compare, a target that parses.
    pub fn parse(text: &str, file: &str, line: usize) -> Result<Self, String> {
        let row: Row = serde_json::from_str(text).map_err(|e| format!("{file}:{line}: {e}"))?;
        if !is_date(&row.date) {
            return Err(format!(
                "{file}:{line}: metric {}: date {:?} is not UTC YYYY-MM-DD[THH:MM[:SS]Z]",
                row.metric, row.date
            ));
        }
        if let Some(target) = &row.target {
            Target::parse(target)
                .map_err(|e| format!("{file}:{line}: metric {}: {e}", row.metric))?;
        }
        Ok(row)
    }

    /// `ours / peer_value`: the script's, else computed when both figures are there.
    pub fn ratio(&self) -> Option<f64> {
        self.ratio
            .or_else(|| self.peer_value.filter(|p| *p != 0.0).map(|p| self.ours / p))
    }

    /// Whether the row meets its target; `None` without a target, or when the target is
    /// on the ratio and the row has none.
    pub fn met(&self) -> Option<bool> {
        let target = Target::parse(self.target.as_deref()?).ok()?;
        let value = match target.subject {
            Subject::Ratio => self.ratio()?,
            Subject::Ours => self.ours,
        };
        Some(target.op.holds(value, target.value))
    }

    /// Whether the figure was imported from the history rather than measured by a script.
    pub fn imported(&self) -> bool {
        self.source.starts_with("BENCHMARKS history section")
    }
}

/// `YYYY-MM-DD`, optionally followed by `THH:MM` or `THH:MM:SS` and `Z`: the forms that
/// sort as strings in time order.
fn is_date(s: &str) -> bool {
    let digits = |part: &str, n: usize| part.len() == n && part.bytes().all(|b| b.is_ascii_digit());
    let (day, time) = match s.split_once('T') {
        Some((day, time)) => (day, Some(time)),
        None => (s, None),
    };
    let mut parts = day.split('-');
    let day_ok = matches!(
        (parts.next(), parts.next(), parts.next(), parts.next()),
        (Some(y), Some(m), Some(d), None) if digits(y, 4) && digits(m, 2) && digits(d, 2)
    );
    let time_ok = time.is_none_or(|t| {
        t.strip_suffix('Z').is_some_and(|hms| {
            let fields: Vec<&str> = hms.split(':').collect();
            (2..=3).contains(&fields.len()) && fields.iter().all(|f| digits(f, 2))
        })
    });
    day_ok && time_ok
}

/// What a target is a condition on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Subject {
    /// `ours / peer_value`.
    Ratio,
    /// Our figure itself, in the row's unit.
    Ours,
}

/// A comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// `<=`
    Le,
    /// `<`
    Lt,
    /// `>=`
    Ge,
    /// `>`
    Gt,
}

impl Op {
    fn holds(self, value: f64, bound: f64) -> bool {
        match self {
            Op::Le => value <= bound,
            Op::Lt => value < bound,
            Op::Ge => value >= bound,
            Op::Gt => value > bound,
        }
    }

    /// The sign as the table prints it.
    pub fn sign(self) -> &'static str {
        match self {
            Op::Le => "≤",
            Op::Lt => "<",
            Op::Ge => "≥",
            Op::Gt => ">",
        }
    }
}

/// A target: `SUBJECT OP NUMBER`, such as `ratio <= 0.67` or `ours < 50`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Target {
    /// What is compared.
    pub subject: Subject,
    /// How.
    pub op: Op,
    /// With what.
    pub value: f64,
}

impl Target {
    /// Parses `SUBJECT OP NUMBER` (single spaces or none between the parts).
    pub fn parse(text: &str) -> Result<Self, String> {
        let bad = || format!("target {text:?} is not `ratio|ours <=|<|>=|> NUMBER`");
        let words: Vec<&str> = text.split_whitespace().collect();
        let [subject, op, value] = words.as_slice() else {
            return Err(bad());
        };
        let subject = match *subject {
            "ratio" => Subject::Ratio,
            "ours" => Subject::Ours,
            _ => return Err(bad()),
        };
        let op = match *op {
            "<=" => Op::Le,
            "<" => Op::Lt,
            ">=" => Op::Ge,
            ">" => Op::Gt,
            _ => return Err(bad()),
        };
        let value: f64 = value.parse().map_err(|_| bad())?;
        if !value.is_finite() {
            return Err(bad());
        }
        Ok(Self { subject, op, value })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str = r#"{"metric":"compile_time.k8s-types.release.wall","title":"Clean release build","ours":125.0,"unit":"s","peer":"k8s-openapi","peer_value":50.0,"ratio":2.5,"target":"ratio <= 1.0","date":"2026-11-29T07:00:00Z","commit":"abc","machine":"2 cores","source":"benchmarks/compile_time.sh"}"#;

    #[test]
    fn a_row_parses_and_misses_its_target() {
        let row = Row::parse(LINE, "f.jsonl", 1).unwrap();
        assert_eq!(row.ratio(), Some(2.5));
        assert_eq!(row.met(), Some(false));
        assert!(!row.imported());
    }

    #[test]
    fn the_ratio_is_computed_when_absent() {
        let line = LINE.replace(r#""ratio":2.5,"#, "");
        let row = Row::parse(&line, "f.jsonl", 1).unwrap();
        assert_eq!(row.ratio(), Some(2.5));
    }

    #[test]
    fn targets_on_ours_and_without_a_peer() {
        let line = r#"{"metric":"m","title":"t","ours":20,"unit":"ns","target":"ours < 50","date":"2026-11-21","commit":"c","machine":"m","source":"BENCHMARKS history section Last run"}"#;
        let row = Row::parse(line, "f.jsonl", 1).unwrap();
        assert_eq!(row.peer, None);
        assert_eq!(row.ratio(), None);
        assert_eq!(row.met(), Some(true));
        assert!(row.imported());
    }

    #[test]
    fn bad_rows_name_file_line_and_metric() {
        let err = Row::parse("{", "a.jsonl", 7).unwrap_err();
        assert!(err.starts_with("a.jsonl:7: "), "{err}");
        let err = Row::parse(&LINE.replace("ratio <= 1.0", "ratio ~ 1"), "a.jsonl", 2).unwrap_err();
        assert!(err.contains("compile_time.k8s-types.release.wall"), "{err}");
        let err = Row::parse(
            &LINE.replace("2026-11-29T07:00:00Z", "29/11/2026"),
            "a.jsonl",
            3,
        )
        .unwrap_err();
        assert!(err.contains("date"), "{err}");
        let err = Row::parse(&LINE.replace(r#""unit""#, r#""units""#), "a.jsonl", 4).unwrap_err();
        assert!(err.contains("units"), "{err}");
    }

    #[test]
    fn targets_parse() {
        assert_eq!(
            Target::parse("ratio >= 3"),
            Ok(Target {
                subject: Subject::Ratio,
                op: Op::Ge,
                value: 3.0
            })
        );
        assert!(Target::parse("ratio <= NaN").is_err());
        assert!(Target::parse("speed <= 1").is_err());
        assert!(Target::parse("ratio <=").is_err());
    }

    #[test]
    fn dates_sort_as_strings() {
        for ok in ["2026-11-29", "2026-11-29T07:00Z", "2026-11-29T07:00:01Z"] {
            assert!(is_date(ok), "{ok}");
        }
        for bad in [
            "2026-11-29T07Z",
            "2026-11-29 07:00",
            "26-11-29",
            "2026-11-29T07:00:00",
        ] {
            assert!(!is_date(bad), "{bad}");
        }
    }
}
