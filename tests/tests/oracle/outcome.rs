//! What each comparison found, per kind and column, and the one table the suite prints
//! (kinds × JSON / YAML / protobuf / conversion / validation: equal, different, not
//! fuzzable), with the differences listed in full.

use std::collections::BTreeMap;
use std::fmt::Write as _;

/// A column of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Column {
    Json,
    Yaml,
    Protobuf,
    Conversion,
    Validation,
    /// A `/status` write, judged by the kind's status strategy.
    StatusValidation,
}

impl Column {
    pub const ALL: [Column; 6] = [
        Column::Json,
        Column::Yaml,
        Column::Protobuf,
        Column::Conversion,
        Column::Validation,
        Column::StatusValidation,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Column::Json => "JSON",
            Column::Yaml => "YAML",
            Column::Protobuf => "protobuf",
            Column::Conversion => "conversion",
            Column::Validation => "validation",
            Column::StatusValidation => "status validation",
        }
    }
}

/// One cell: cases equal, cases different (with the first few differences), or why
/// there is nothing to compare.
#[derive(Debug, Default)]
pub struct Cell {
    pub equal: usize,
    pub different: Vec<String>,
    /// Why nothing was compared (not fuzzable, no protobuf form, not validated by Go).
    pub not_compared: Option<String>,
}

/// The outcome of a suite: cells by kind (`group/version Kind`) and column.
#[derive(Debug, Default)]
pub struct Outcome {
    pub cells: BTreeMap<(String, Column), Cell>,
}

impl Outcome {
    pub fn cell(&mut self, kind: &str, column: Column) -> &mut Cell {
        self.cells.entry((kind.to_owned(), column)).or_default()
    }

    pub fn equal(&mut self, kind: &str, column: Column) {
        self.cell(kind, column).equal += 1;
    }

    pub fn different(&mut self, kind: &str, column: Column, what: String) {
        self.cell(kind, column).different.push(what);
    }

    pub fn not_compared(&mut self, kind: &str, column: Column, why: &str) {
        self.cell(kind, column)
            .not_compared
            .get_or_insert_with(|| why.to_owned());
    }

    /// The summary: per column, kinds all equal, kinds with a difference, kinds not
    /// compared, and cases compared; then the kinds not compared, grouped by reason.
    pub fn summary(&self, title: &str) -> String {
        let mut out = format!(
            "{title}\n| column | kinds equal | kinds different | kinds not compared | cases equal | cases different |\n|---|---:|---:|---:|---:|---:|\n"
        );
        for column in Column::ALL {
            let cells: Vec<&Cell> = self
                .cells
                .iter()
                .filter(|((_, c), _)| *c == column)
                .map(|(_, cell)| cell)
                .collect();
            if cells.is_empty() {
                continue;
            }
            let equal = cells
                .iter()
                .filter(|c| c.different.is_empty() && c.equal > 0)
                .count();
            let different = cells.iter().filter(|c| !c.different.is_empty()).count();
            let not_compared = cells
                .iter()
                .filter(|c| c.different.is_empty() && c.equal == 0)
                .count();
            let cases: usize = cells.iter().map(|c| c.equal).sum();
            let cases_different: usize = cells.iter().map(|c| c.different.len()).sum();
            let _ = writeln!(
                out,
                "| {} | {equal} | {different} | {not_compared} | {cases} | {cases_different} |",
                column.name()
            );
        }
        let mut reasons: BTreeMap<(&str, &str), Vec<&str>> = BTreeMap::new();
        for ((kind, column), cell) in &self.cells {
            if let (Some(why), 0) = (&cell.not_compared, cell.equal) {
                reasons
                    .entry((column.name(), why.as_str()))
                    .or_default()
                    .push(kind.as_str());
            }
        }
        for ((column, why), kinds) in reasons {
            let shown = kinds.iter().take(6).copied().collect::<Vec<_>>().join(", ");
            let more = kinds.len().saturating_sub(6);
            let more = if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            };
            let _ = writeln!(
                out,
                "not compared ({column}, {} kinds), {why}: {shown}{more}",
                kinds.len()
            );
        }
        out
    }

    /// Every kind's row (kind × the columns this outcome has): `equal (N)` when every
    /// case of the cell was equal, `different (D of N)` when some were not, or
    /// `not compared: why`. The recorded long runs (`oracle/results/`) are these tables.
    pub fn kind_table(&self, title: &str) -> String {
        let columns: Vec<Column> = Column::ALL
            .into_iter()
            .filter(|column| self.cells.keys().any(|(_, c)| c == column))
            .collect();
        let mut out = format!("## {title}\n\n| kind |");
        for column in &columns {
            let _ = write!(out, " {} |", column.name());
        }
        out.push_str("\n|---|");
        out.push_str(&"---|".repeat(columns.len()));
        out.push('\n');
        let mut kinds: Vec<&str> = self.cells.keys().map(|(k, _)| k.as_str()).collect();
        kinds.dedup();
        for kind in kinds {
            let _ = write!(out, "| {kind} |");
            for column in &columns {
                let text = match self.cells.get(&(kind.to_owned(), *column)) {
                    None => "—".to_owned(),
                    Some(cell) if !cell.different.is_empty() => format!(
                        "different ({} of {})",
                        cell.different.len(),
                        cell.different.len() + cell.equal
                    ),
                    Some(cell) if cell.equal > 0 => format!("equal ({})", cell.equal),
                    Some(cell) => format!(
                        "not compared: {}",
                        cell.not_compared.as_deref().unwrap_or("no case")
                    ),
                };
                let _ = write!(out, " {} |", text.replace('|', "\\|"));
            }
            out.push('\n');
        }
        out
    }
}
