//! The one Markdown table writer: every table the crate prints goes through [`Table`].

/// How a column's cells line up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// Text: `|---|`.
    Left,
    /// Numbers: `|---:|`.
    Right,
}

/// A Markdown table: a header, one alignment per column, and rows of cells.
#[derive(Clone, Debug)]
pub struct Table {
    header: Vec<String>,
    align: Vec<Align>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these columns (header text, alignment).
    pub fn new<S: Into<String>>(columns: impl IntoIterator<Item = (S, Align)>) -> Table {
        let (header, align) = columns.into_iter().map(|(h, a)| (h.into(), a)).unzip();
        Table {
            header,
            align,
            rows: Vec::new(),
        }
    }

    /// Adds a row. Missing cells print empty; cells beyond the header's columns are dropped.
    pub fn row<S: Into<String>>(&mut self, cells: impl IntoIterator<Item = S>) -> &mut Table {
        let mut r: Vec<String> = cells.into_iter().map(Into::into).collect();
        r.resize(self.header.len(), String::new());
        self.rows.push(r);
        self
    }

    /// Rows added so far.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether no row was added.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The table as Markdown, one line per row, each ending in a newline. A `|` inside a cell
    /// is escaped so that it cannot split the cell.
    pub fn markdown(&self) -> String {
        let line = |cells: &[String]| {
            let mut s = String::from("|");
            for c in cells {
                s.push(' ');
                s.push_str(&c.replace('|', "\\|"));
                s.push_str(" |");
            }
            s.push('\n');
            s
        };
        let mut s = line(&self.header);
        s.push('|');
        for a in &self.align {
            s.push_str(match a {
                Align::Left => "---|",
                Align::Right => "---:|",
            });
        }
        s.push('\n');
        for r in &self.rows {
            s.push_str(&line(r));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_table() {
        let mut t = Table::new([("figure", Align::Left), ("value", Align::Right)]);
        t.row(["a", "1"]).row(["b|c".to_string()]);
        assert_eq!(t.len(), 2);
        assert_eq!(
            t.markdown(),
            "| figure | value |\n|---|---:|\n| a | 1 |\n| b\\|c |  |\n"
        );
    }
}
