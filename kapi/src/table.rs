//! Tables as kubectl prints them: Go's `text/tabwriter` with kubectl's settings (minimum
//! cell width 6, padding 3, spaces); the last column is not padded.

use std::io::{self, Write};

const MIN_WIDTH: usize = 6;
const PADDING: usize = 3;

/// Rows of cells, printed with aligned columns.
#[derive(Debug, Default)]
pub struct Table {
    rows: Vec<Vec<String>>,
}

impl Table {
    /// Adds a row.
    pub fn row<S: Into<String>>(&mut self, cells: impl IntoIterator<Item = S>) {
        self.rows.push(cells.into_iter().map(Into::into).collect());
    }

    /// Writes the table.
    pub fn write(&self, out: &mut dyn Write) -> io::Result<()> {
        let columns = self.rows.iter().map(Vec::len).max().unwrap_or(0);
        let mut widths = vec![0usize; columns];
        for row in &self.rows {
            // The last cell of a row is not in a column, as in tabwriter.
            for (i, cell) in row.iter().enumerate().take(row.len().saturating_sub(1)) {
                widths[i] = widths[i].max((cell.chars().count() + PADDING).max(MIN_WIDTH));
            }
        }
        for row in &self.rows {
            let mut line = String::new();
            for (i, cell) in row.iter().enumerate() {
                line.push_str(cell);
                if i + 1 < row.len() {
                    let pad = widths[i] - cell.chars().count();
                    line.extend(std::iter::repeat_n(' ', pad));
                }
            }
            writeln!(out, "{line}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_padded_like_kubectl() {
        let mut t = Table::default();
        t.row(["NAME", "SHORTNAMES", "NAMESPACED"]);
        t.row(["pods", "po", "true"]);
        let mut out = Vec::new();
        t.write(&mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "NAME   SHORTNAMES   NAMESPACED\npods   po           true\n"
        );
    }
}
