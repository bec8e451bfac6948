//! Plain-text traces: one unsigned integer id a line (`txt`), or one column of a
//! comma-separated file (`csv`, column numbered from 1, optionally a header line to skip).
//! Blank lines are skipped; a line longer than [`MAX_LINE`] bytes is an error.

use super::Request;
use std::io::{BufRead, Read};

/// The longest line accepted, bytes.
pub const MAX_LINE: usize = 4096;

/// Which field holds the id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// The whole line.
    Txt,
    /// Field `column` (from 1) of a comma-separated line; skip the first line if `header`.
    Csv { column: usize, header: bool },
}

/// A streaming reader of text traces.
pub struct TextReader<R: BufRead> {
    inner: R,
    layout: Layout,
    line: Vec<u8>,
    line_no: u64,
    index: u64,
}

impl<R: BufRead> TextReader<R> {
    /// Reads ids laid out as `layout` from `inner`.
    pub fn new(inner: R, layout: Layout) -> Self {
        TextReader {
            inner,
            layout,
            line: Vec::with_capacity(128),
            line_no: 0,
            index: 0,
        }
    }

    /// The next request, `Ok(None)` at the end, or an error naming the line.
    pub fn next_request(&mut self) -> Result<Option<Request>, String> {
        loop {
            self.line.clear();
            let n = <&mut R as Read>::take(&mut self.inner, MAX_LINE as u64 + 1)
                .read_until(b'\n', &mut self.line)
                .map_err(|e| format!("reading the trace: {e}"))?;
            if n == 0 {
                return Ok(None);
            }
            self.line_no += 1;
            if self.line.len() > MAX_LINE {
                return Err(format!(
                    "line {}: longer than {MAX_LINE} bytes",
                    self.line_no
                ));
            }
            if let Layout::Csv { header: true, .. } = self.layout {
                if self.line_no == 1 {
                    continue;
                }
            }
            let text = std::str::from_utf8(&self.line)
                .map_err(|_| format!("line {}: not UTF-8 text", self.line_no))?;
            let text = text.trim_end_matches(['\n', '\r']);
            let text = if self.line_no == 1 {
                text.strip_prefix('\u{feff}').unwrap_or(text)
            } else {
                text
            };
            if text.trim().is_empty() {
                continue;
            }
            let field = match self.layout {
                Layout::Txt => text,
                Layout::Csv { column, .. } => text.split(',').nth(column - 1).ok_or_else(|| {
                    format!(
                        "line {}: no column {column} (the line has {} comma-separated fields)",
                        self.line_no,
                        text.split(',').count()
                    )
                })?,
            };
            let field = field.trim();
            // One pair of double quotes around a field, as a CSV writer puts them, or none.
            let field = match field.strip_prefix('"') {
                Some(f) => f.strip_suffix('"').ok_or_else(|| {
                    format!(
                        "line {}: a quote opens '{}' but does not close it",
                        self.line_no,
                        field.chars().take(40).collect::<String>()
                    )
                })?,
                None => field,
            };
            // Digits only: no sign, no spaces inside, no exponent (u64's parser takes a '+').
            let id: u64 = Some(field)
                .filter(|f| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|f| f.parse().ok())
                .ok_or_else(|| {
                    format!(
                        "line {}: '{}' is not an unsigned integer id (0 to 18446744073709551615)",
                        self.line_no,
                        field.chars().take(40).collect::<String>()
                    )
                })?;
            let i = self.index;
            self.index += 1;
            return Ok(Some(Request {
                t_us: i,
                id,
                next: u64::MAX,
            }));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(text: &str, layout: Layout) -> Result<Vec<u64>, String> {
        let mut r = TextReader::new(text.as_bytes(), layout);
        let mut v = Vec::new();
        while let Some(q) = r.next_request()? {
            v.push(q.id);
        }
        Ok(v)
    }

    #[test]
    fn txt_and_csv_read_the_chosen_field() {
        assert_eq!(ids("3\n\n4\r\n3", Layout::Txt).unwrap(), vec![3, 4, 3]);
        let csv = "time,obj,size\n1,70,1\n2,\"71\",1\n";
        let l = Layout::Csv {
            column: 2,
            header: true,
        };
        assert_eq!(ids(csv, l).unwrap(), vec![70, 71]);
    }

    #[test]
    fn bad_lines_are_named() {
        let e = ids("1\nx2\n", Layout::Txt).unwrap_err();
        assert!(e.starts_with("line 2:"), "{e}");
        let l = Layout::Csv {
            column: 3,
            header: false,
        };
        let e = ids("1,2\n", l).unwrap_err();
        assert!(e.contains("no column 3"), "{e}");
        let long = "1".repeat(MAX_LINE + 10);
        assert!(ids(&long, Layout::Txt).unwrap_err().contains("longer than"));
        for bad in [
            "+5",
            "-1",
            "5 5",
            "1e3",
            "18446744073709551616",
            "\"5",
            "5\"",
            "\"\"",
        ] {
            let e = ids(&format!("1\n{bad}\n"), Layout::Txt).unwrap_err();
            assert!(e.starts_with("line 2:"), "{bad}: {e}");
        }
        assert_eq!(ids("\u{feff}7\n\"8\"\n", Layout::Txt).unwrap(), vec![7, 8]);
    }
}
