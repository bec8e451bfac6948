//! Reading what a DBA can paste: `SHOW ENGINE INNODB STATUS` (whole or just its sections, `\G`,
//! tabular with `|` borders, `mysql -B` with `\n` escapes), the rows of
//! `information_schema.INNODB_BUFFER_POOL_STATS`, `SHOW [GLOBAL] VARIABLES` and
//! `SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool%'`, in any mix, from MySQL 5.0 to 9.x, Percona
//! Server and MariaDB 10.x/11.x.
//!
//! Pure functions from text to a typed result: every value keeps the line it came from; a value
//! that contradicts another is kept and flagged; a number the reader cannot take (negative, past
//! 64 bits) is an error naming its line. The work is linear in the input (each line is tried
//! against a fixed set of patterns, each in time proportional to the line), and the input is
//! bounded by [`MAX_BYTES`]. Nothing here panics on any input (`tests.rs` and the fixtures' tests in it).
//!
//! [`scenario`] turns a reading into the simulator's parameters; [`risk`] and [`page_risk`] run
//! its leak risk; [`report`] writes the reading, the scenario and the runs as JSON.
//!
//! Both faces use this crate: the explainer's Your server panel and `midpoint from-status`. It
//! may use `midpoint-core`, `midpoint-lab`, serde and serde_json; no face, no clap, no web crate.

mod check;
pub mod exact;
pub mod fit;
pub mod outcomes;
pub mod page_risk;
mod parse;
pub mod report;
pub mod risk;
pub mod scenario;
mod snapshot;
pub mod tables;
mod text;

use check::*;
use parse::Parser;
use text::*;

use serde::Serialize;
use std::collections::BTreeMap;

/// The largest paste read (bytes). A status is a few KiB (InnoDB caps it at 1 MB); a paste of
/// every variable and several snapshots stays far below.
pub const MAX_BYTES: usize = 8 << 20;
/// The most per-instance blocks kept (`innodb_buffer_pool_instances` is at most 64).
pub const MAX_INSTANCES: usize = 64;
/// The most warnings listed; the rest are counted.
const MAX_WARNINGS: usize = 40;
/// Longest line text kept beside a value.
const MAX_TEXT: usize = 160;

/// A value as printed: a count, a rate, or a text (a variable such as `ON`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Num {
    Int(u64),
    Real(f64),
    Text(String),
}

impl Num {
    /// The value as a number, when it is one.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Num::Int(n) => Some(*n as f64),
            Num::Real(x) => Some(*x),
            Num::Text(_) => None,
        }
    }
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Num::Int(n) => Some(*n),
            _ => None,
        }
    }
    fn add(&self, o: &Num) -> Num {
        match (self, o) {
            (Num::Int(a), Num::Int(b)) => Num::Int(a.saturating_add(*b)),
            (a, b) => Num::Real(a.as_f64().unwrap_or(0.0) + b.as_f64().unwrap_or(0.0)),
        }
    }
}

/// Where a value was read: the input (file) and its line, 1-based, with the line's text.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Origin {
    /// Index of the input (0 for a single paste).
    #[serde(skip_serializing_if = "is_zero")]
    pub input: usize,
    pub line: usize,
    pub text: String,
}

pub(crate) fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// One value read, with its origin.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Value {
    pub value: Num,
    #[serde(flatten)]
    pub from: Origin,
}

/// Which of the pasted outputs a value came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// `SHOW ENGINE INNODB STATUS`, its BUFFER POOL AND MEMORY section.
    Status,
    /// The sums over the status's per-instance blocks (no totals section was pasted).
    InstanceSums,
    /// `INNODB_BUFFER_POOL_STATS`, summed over its rows.
    PoolStats,
    /// `SHOW VARIABLES`.
    Variables,
    /// `SHOW GLOBAL STATUS`.
    GlobalStatus,
}

/// The interval between two snapshots of the status and the rates over it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Interval {
    pub seconds: f64,
    /// Rates from the counters' differences: `youngs_per_s`, `non_youngs_per_s`, `reads_per_s`,
    /// `creates_per_s`, `writes_per_s`.
    pub rates: BTreeMap<String, f64>,
    /// The lines of the two header timestamps.
    pub from_line: usize,
    pub to_line: usize,
}

/// Everything read from a paste.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Reading {
    /// The values under the interface's names (the BUFFER POOL AND MEMORY totals of the last
    /// snapshot; pool stats sums where the status lacks a value; the variables under their own
    /// names), each with its line.
    pub values: BTreeMap<String, Value>,
    /// Which output each value of `values` came from.
    pub sources: BTreeMap<String, Source>,
    /// Per-instance blocks of the last snapshot (`---BUFFER POOL n`): their pool sizes.
    pub instance_pool_pages: Vec<u64>,
    /// How many status snapshots were pasted (BUFFER POOL AND MEMORY sections).
    pub snapshots: usize,
    /// With two snapshots or more: the rates over the last interval.
    pub interval: Option<Interval>,
    /// Values that contradict each other (still reported as read), naming both lines.
    pub warnings: Vec<String>,
    /// Names of `values` a warning flags, so the scenario says when it uses one.
    pub flagged: Vec<String>,
    /// What the reader noticed and left alone (a line it did not understand, a repeated value).
    pub notes: Vec<String>,
    /// A line that only MariaDB prints, when one was seen (the engine's hint without `version`).
    pub mariadb_hint: Option<usize>,
    /// Rates whose line was there but could not be read (`inf reads/s`, `450,00`, a line cut
    /// short): name → that line. Each is also a warning; the value is absent, never guessed.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub unreadable: BTreeMap<String, usize>,
    /// Rows of INNODB_BUFFER_POOL_STATS read.
    pub pool_stats_rows: usize,
    /// The per-table residency pasted (`sys.innodb_buffer_stats_by_table` or the grouped
    /// `INNODB_BUFFER_PAGE_LRU` query; [`tables`]).
    pub tables: Vec<tables::TableResidency>,
    /// With two `SHOW GLOBAL STATUS` snapshots: their exact figures ([`exact`]).
    pub exact: Option<exact::Exact>,
}

/// Input the reader cannot use: one line, naming the line when there is one.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReadError {
    pub input: usize,
    pub line: Option<usize>,
    pub message: String,
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(l) => write!(f, "line {l}: {}", self.message),
            None => write!(f, "{}", self.message),
        }
    }
}

impl Reading {
    /// A value's number, when it was read and is one.
    pub fn num(&self, name: &str) -> Option<f64> {
        self.values.get(name).and_then(|v| v.value.as_f64())
    }
    pub fn count(&self, name: &str) -> Option<u64> {
        self.values.get(name).and_then(|v| v.value.as_u64())
    }
    pub fn line(&self, name: &str) -> Option<usize> {
        self.values.get(name).map(|v| v.from.line)
    }
    /// The flat `name → value` map of the JSON `"read"` member.
    pub fn read_map(&self) -> BTreeMap<String, Num> {
        self.values
            .iter()
            .map(|(k, v)| (k.clone(), v.value.clone()))
            .collect()
    }
    /// `name → {line, text}` of the JSON `"lines"` member.
    pub fn lines_map(&self) -> BTreeMap<String, Origin> {
        self.values
            .iter()
            .map(|(k, v)| (k.clone(), v.from.clone()))
            .collect()
    }
    fn warn(&mut self, msg: String, names: &[&str]) {
        for n in names {
            if !self.flagged.iter().any(|f| f == n) {
                self.flagged.push(n.to_string());
            }
        }
        if self.warnings.len() < MAX_WARNINGS {
            self.warnings.push(msg);
        } else if self.warnings.len() == MAX_WARNINGS {
            self.warnings
                .push("more contradictions were found; only the first ones are listed".into());
        }
    }
    fn note(&mut self, msg: String) {
        if self.notes.len() < MAX_WARNINGS {
            self.notes.push(msg);
        }
    }
}

/// Reads one paste.
pub fn read(text: &str) -> Result<Reading, ReadError> {
    read_inputs(&[text])
}

/// Reads several inputs (files) in order, as one paste: two snapshots may come in two files.
/// Line numbers count within each input; `Origin::input` says which.
pub fn read_inputs(inputs: &[&str]) -> Result<Reading, ReadError> {
    let total: usize = inputs.iter().map(|t| t.len()).sum();
    if total > MAX_BYTES {
        return Err(ReadError {
            input: 0,
            line: None,
            message: format!(
                "the paste is {:.1} MB; at most {} MB is read (a status is a few KB: paste its BUFFER POOL AND MEMORY section)",
                total as f64 / 1e6,
                MAX_BYTES >> 20
            ),
        });
    }
    let mut p = Parser::default();
    let mut empty = Vec::new();
    let mut per_table = Vec::new();
    for (i, t) in inputs.iter().enumerate() {
        p.input = i;
        let before = p.taken;
        p.feed(t)?;
        let rows = tables::read(t, i).map_err(|(line, message)| ReadError {
            input: i,
            line: Some(line),
            message,
        })?;
        if p.taken == before && rows.is_empty() {
            empty.push(i);
        }
        per_table.extend(rows);
    }
    let mut r = match p.finish() {
        Err(e) if e.line.is_none() && !per_table.is_empty() => {
            return Err(ReadError {
                message: "a per-table residency alone is not enough: paste it with SHOW ENGINE INNODB STATUS (or INNODB_BUFFER_POOL_STATS), which says the pool's size".into(),
                ..e
            })
        }
        x => x?,
    };
    r.tables = per_table;
    if inputs.len() > 1 {
        for i in empty {
            r.warn(
                format!(
                    "input {} holds nothing this reader uses (no buffer pool line, INNODB_BUFFER_POOL_STATS row or variable): it adds nothing to the reading",
                    i + 1
                ),
                &[],
            );
        }
    }
    Ok(r)
}

#[cfg(test)]
mod tests;
