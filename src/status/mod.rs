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
//! bounded by [`MAX_BYTES`]. Nothing here panics on any input (`tests` and `tests/status.rs`).
//!
//! [`scenario`] turns a reading into the simulator's parameters.

pub mod report;
pub mod risk;
pub mod scenario;

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

fn is_zero(n: &usize) -> bool {
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
    /// Rows of INNODB_BUFFER_POOL_STATS read.
    pub pool_stats_rows: usize,
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
    for (i, t) in inputs.iter().enumerate() {
        p.input = i;
        p.feed(t)?;
    }
    p.finish()
}

// ---------------------------------------------------------------------------------------------
// Lines

/// A logical line: its number in the input and its cleaned text (borders, prompts and runs of
/// blanks removed).
struct Line<'a> {
    no: usize,
    raw: &'a str,
}

/// The cleaned text of a line: the table borders `|` stripped at both ends (repeatedly: the
/// 5.0 paste ends in ` | |`), runs of blanks collapsed to one space.
fn clean(raw: &str) -> String {
    let mut s = raw.trim();
    loop {
        let t = s
            .trim_start_matches('|')
            .trim_end_matches('|')
            .trim_matches(|c: char| c == ' ' || c == '\t' || c == '\r');
        if t.len() == s.len() {
            break;
        }
        s = t;
    }
    let mut out = String::with_capacity(s.len());
    let mut blank = false;
    for c in s.chars() {
        if c == ' ' || c == '\t' {
            blank = true;
        } else {
            if blank && !out.is_empty() {
                out.push(' ');
            }
            blank = false;
            out.push(c);
        }
    }
    out
}

/// Cells of a table row: split by `|` (boxed) or tabs (`-B`), trimmed. None when the line has
/// no separator.
fn cells(raw: &str) -> Option<Vec<String>> {
    let t = raw.trim_end_matches(['\r', '\n']);
    if t.contains('\t') {
        return Some(t.split('\t').map(|c| c.trim().to_string()).collect());
    }
    let s = t.trim();
    if s.starts_with('|') && s.ends_with('|') && s.len() >= 2 {
        let inner = &s[1..s.len() - 1];
        return Some(inner.split('|').map(|c| c.trim().to_string()).collect());
    }
    None
}

// ---------------------------------------------------------------------------------------------
// Patterns of the BUFFER POOL AND MEMORY lines (`buf_print_io_instance` in buf0buf.cc, MySQL and
// MariaDB; `srv_printf_innodb_monitor` for the memory lines). `{c:name}` is a count (u64),
// `{r:name}` a rate (a non-negative decimal), `{c:_}` a count read and dropped.

const PATTERNS: &[&str] = &[
    "Total large memory allocated {c:total_memory_allocated}",
    "Total memory allocated {c:total_memory_allocated}; in additional pool allocated {c:additional_pool_allocated}",
    "Total memory allocated {c:total_memory_allocated}",
    "Dictionary memory allocated {c:dictionary_memory_allocated}",
    "Buffer pool size {c:pool_pages}",
    "Buffer pool size, bytes {c:pool_bytes}",
    "Free buffers {c:free_buffers}",
    "Database pages {c:database_pages}",
    "Old database pages {c:old_database_pages}",
    "Modified db pages {c:modified_db_pages}",
    "Pages made young {c:pages_made_young}, not young {c:pages_not_made_young}",
    "{r:youngs_per_s} youngs/s, {r:non_youngs_per_s} non-youngs/s",
    "Pages read {c:pages_read}, created {c:pages_created}, written {c:pages_written}",
    "{r:reads_per_s} reads/s, {r:creates_per_s} creates/s, {r:writes_per_s} writes/s",
    "Buffer pool hit rate {c:hit_rate_per_1000} / 1000, young-making rate {c:young_making_rate_per_1000} / 1000 not {c:not_young_making_rate_per_1000} / 1000",
    "Buffer pool hit rate {c:hit_rate_per_1000} / 1000",
    "Pages read ahead {r:read_ahead_per_s}/s, evicted without access {r:evicted_without_access_per_s}/s, Random read ahead {r:random_read_ahead_per_s}/s",
    "Pages read ahead {r:read_ahead_per_s}/s, evicted without access {r:evicted_without_access_per_s}/s",
    "LRU len: {c:lru_len}, unzip_LRU len: {c:unzip_lru_len}",
];

/// Beginnings of the lines the patterns read: such a line that matches no pattern is noted as
/// not understood rather than passed over in silence.
const LABELS: &[&str] = &[
    "Buffer pool size",
    "Free buffers",
    "Database pages",
    "Old database pages",
    "Modified db pages",
    "Pages made young",
    "Pages read",
    "Buffer pool hit rate",
    "LRU len",
];

/// The counts summed over instances when the totals section is missing.
const SUMMED: &[&str] = &[
    "pool_pages",
    "pool_bytes",
    "free_buffers",
    "database_pages",
    "old_database_pages",
    "modified_db_pages",
    "pages_made_young",
    "pages_not_made_young",
    "pages_read",
    "pages_created",
    "pages_written",
    "youngs_per_s",
    "non_youngs_per_s",
    "reads_per_s",
    "creates_per_s",
    "writes_per_s",
    "read_ahead_per_s",
    "evicted_without_access_per_s",
    "lru_len",
];

/// INNODB_BUFFER_POOL_STATS columns and the names they are read under.
const POOL_STATS: &[(&str, &str)] = &[
    ("POOL_SIZE", "pool_pages"),
    ("FREE_BUFFERS", "free_buffers"),
    ("DATABASE_PAGES", "database_pages"),
    ("OLD_DATABASE_PAGES", "old_database_pages"),
    ("MODIFIED_DATABASE_PAGES", "modified_db_pages"),
    ("PAGES_MADE_YOUNG", "pages_made_young"),
    ("PAGES_NOT_MADE_YOUNG", "pages_not_made_young"),
    ("NUMBER_PAGES_READ", "pages_read"),
    ("NUMBER_PAGES_CREATED", "pages_created"),
    ("NUMBER_PAGES_WRITTEN", "pages_written"),
];

/// Every column of INNODB_BUFFER_POOL_STATS (MySQL 5.5-9.x, MariaDB), so a `\G` row's lines are
/// told from other `NAME: value` lines.
const POOL_STATS_COLUMNS: &[&str] = &[
    "POOL_ID",
    "POOL_SIZE",
    "FREE_BUFFERS",
    "DATABASE_PAGES",
    "OLD_DATABASE_PAGES",
    "MODIFIED_DATABASE_PAGES",
    "PENDING_DECOMPRESS",
    "PENDING_READS",
    "PENDING_FLUSH_LRU",
    "PENDING_FLUSH_LIST",
    "PAGES_MADE_YOUNG",
    "PAGES_NOT_MADE_YOUNG",
    "PAGES_MADE_YOUNG_RATE",
    "PAGES_MADE_NOT_YOUNG_RATE",
    "NUMBER_PAGES_READ",
    "NUMBER_PAGES_CREATED",
    "NUMBER_PAGES_WRITTEN",
    "PAGES_READ_RATE",
    "PAGES_CREATE_RATE",
    "PAGES_WRITTEN_RATE",
    "NUMBER_PAGES_GET",
    "HIT_RATE",
    "YOUNG_MAKE_PER_THOUSAND_GETS",
    "NOT_YOUNG_MAKE_PER_THOUSAND_GETS",
    "NUMBER_PAGES_READ_AHEAD",
    "NUMBER_READ_AHEAD_EVICTED",
    "READ_AHEAD_RATE",
    "READ_AHEAD_EVICTED_RATE",
    "LRU_IO_TOTAL",
    "LRU_IO_CURRENT",
    "UNCOMPRESS_TOTAL",
    "UNCOMPRESS_CURRENT",
];

/// A number that a line gives in the place of a count or a rate but that cannot be one.
struct BadNumber(String);

enum Match {
    No,
    Yes(Vec<(&'static str, Num)>),
}

/// Matches a cleaned line against one pattern. Bounded by the line's and the pattern's length.
fn match_pattern(line: &str, pat: &'static str) -> Result<Match, BadNumber> {
    let mut out = Vec::new();
    let mut rest = line;
    let mut p = pat;
    while !p.is_empty() {
        if let Some(open) = p.strip_prefix('{') {
            let close = open.find('}').unwrap_or(open.len());
            let spec = &open[..close];
            p = open.get(close + 1..).unwrap_or("");
            let (kind, name) = spec.split_once(':').unwrap_or(("c", spec));
            let len = rest
                .char_indices()
                .take_while(|&(i, c)| {
                    c.is_ascii_digit() || c == '.' || (i == 0 && (c == '-' || c == '+'))
                })
                .map(|(i, c)| i + c.len_utf8())
                .last()
                .unwrap_or(0);
            let tok = &rest[..len];
            rest = &rest[len..];
            if !tok.bytes().any(|b| b.is_ascii_digit()) {
                return Ok(Match::No);
            }
            let v = parse_number(tok, kind == "r")?;
            if name != "_" {
                out.push((name_static(pat, name), v));
            }
        } else {
            let lit_end = p.find('{').unwrap_or(p.len());
            let lit = &p[..lit_end];
            p = &p[lit_end..];
            match rest.strip_prefix(lit) {
                Some(r) => rest = r,
                None => return Ok(Match::No),
            }
        }
    }
    if rest.trim().is_empty() {
        Ok(Match::Yes(out))
    } else {
        Ok(Match::No)
    }
}

/// The `&'static str` of a name inside a pattern (the patterns are static).
fn name_static(pat: &'static str, name: &str) -> &'static str {
    match pat.find(name) {
        Some(i) => &pat[i..i + name.len()],
        None => "_",
    }
}

/// Parses a count (`rate` false: digits only, at most 2^64 - 1) or a rate (a non-negative
/// decimal).
fn parse_number(tok: &str, rate: bool) -> Result<Num, BadNumber> {
    if tok.starts_with('-') {
        return Err(BadNumber(format!(
            "{tok} is negative; InnoDB prints these {} as 0 or more",
            if rate { "rates" } else { "counts" }
        )));
    }
    let t = tok.trim_start_matches('+');
    if rate {
        if t.matches('.').count() > 1 {
            return Err(BadNumber(format!("{tok} is not a number")));
        }
        match t.parse::<f64>() {
            Ok(x) if x.is_finite() => Ok(Num::Real(x)),
            _ => Err(BadNumber(format!("{tok} is not a number"))),
        }
    } else {
        if t.contains('.') {
            return Err(BadNumber(format!(
                "{tok} is not a whole number; InnoDB prints this count without decimals"
            )));
        }
        match t.parse::<u64>() {
            Ok(n) => Ok(Num::Int(n)),
            Err(_) => Err(BadNumber(format!(
                "{tok} is past the largest 64-bit count (18446744073709551615)"
            ))),
        }
    }
}

/// Seconds since 1970 of a header `2026-12-01 21:41:36 ... INNODB MONITOR OUTPUT` (MySQL 5.6+,
/// MariaDB) or `130618 22:49:17 INNODB MONITOR OUTPUT` (older: YYMMDD).
fn header_time(line: &str) -> Option<f64> {
    let mut it = line.split(' ');
    let date = it.next()?;
    let time = it.next()?;
    let (y, m, d) = if date.len() == 10 && date.as_bytes()[4] == b'-' {
        (
            date[0..4].parse::<i64>().ok()?,
            date[5..7].parse::<i64>().ok()?,
            date[8..10].parse::<i64>().ok()?,
        )
    } else if date.len() == 6 && date.bytes().all(|b| b.is_ascii_digit()) {
        (
            2000 + date[0..2].parse::<i64>().ok()?,
            date[2..4].parse::<i64>().ok()?,
            date[4..6].parse::<i64>().ok()?,
        )
    } else {
        return None;
    };
    let t: Vec<i64> = time
        .split(':')
        .map(|x| x.parse::<i64>().ok())
        .collect::<Option<Vec<_>>>()?;
    if t.len() != 3 || !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    // Days from the civil date (proleptic Gregorian).
    let (yy, mm) = if m <= 2 { (y - 1, m + 9) } else { (y, m - 3) };
    let era = yy.div_euclid(400);
    let yoe = yy - era * 400;
    let doy = (153 * mm + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some((days * 86_400 + t[0] * 3600 + t[1] * 60 + t[2]) as f64)
}

// ---------------------------------------------------------------------------------------------
// The parser

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
enum Section {
    /// No section title seen yet: a paste of bare lines is read as the buffer pool section.
    #[default]
    None,
    Pool,
    Instance,
    Other,
}

#[derive(Default)]
struct Snapshot {
    main: BTreeMap<String, Value>,
    instances: Vec<BTreeMap<String, Value>>,
    time: Option<(f64, usize)>,
    /// The line of its BUFFER POOL AND MEMORY title.
    title_line: Option<usize>,
    /// The last line read inside the pool section, and whether a later section closed it.
    closed: bool,
}

impl Snapshot {
    fn has_values(&self) -> bool {
        !self.main.is_empty() || !self.instances.is_empty()
    }
}

#[derive(Default)]
struct Parser {
    input: usize,
    section: Section,
    prev_dashes: bool,
    snaps: Vec<Snapshot>,
    cur: Snapshot,
    vars: BTreeMap<String, Value>,
    gstatus: BTreeMap<String, Value>,
    pool_rows: Vec<BTreeMap<String, Value>>,
    pool_header: Option<Vec<String>>,
    in_pool_row_g: bool,
    pending_var: Option<(String, usize)>,
    out: Reading,
}

fn origin(input: usize, no: usize, raw: &str) -> Origin {
    let t = raw.trim();
    let text = if t.len() > MAX_TEXT {
        let mut e = MAX_TEXT;
        while !t.is_char_boundary(e) {
            e -= 1;
        }
        format!("{}…", &t[..e])
    } else {
        t.to_string()
    };
    Origin {
        input,
        line: no,
        text,
    }
}

impl Parser {
    fn err(&self, no: usize, message: String) -> ReadError {
        ReadError {
            input: self.input,
            line: Some(no),
            message,
        }
    }

    fn feed(&mut self, text: &str) -> Result<(), ReadError> {
        self.section = Section::None;
        self.prev_dashes = false;
        self.pool_header = None;
        self.in_pool_row_g = false;
        self.pending_var = None;
        for (i, phys) in text.split('\n').enumerate() {
            let no = i + 1;
            // `mysql -B` (and some copies of the tabular output) print the status as one line
            // with `\n` escapes.
            if phys.matches("\\n").nth(2).is_some() {
                let mut first = true;
                for part in phys.split("\\n") {
                    // The first piece holds the row's other cells (`InnoDB<TAB><TAB>`).
                    let part = if first {
                        first = false;
                        part.rsplit(['\t', '|']).next().unwrap_or(part)
                    } else {
                        part
                    };
                    let part = part.replace("\\t", " ");
                    self.line(&Line { no, raw: &part }, false)?;
                }
            } else {
                self.line(&Line { no, raw: phys }, true)?;
            }
        }
        Ok(())
    }

    fn line(&mut self, l: &Line, tabular: bool) -> Result<(), ReadError> {
        if tabular && self.table_row(l)? {
            return Ok(());
        }
        let c = clean(l.raw);
        if c.is_empty() {
            return Ok(());
        }
        // `\G` rows: `NAME: value` of INNODB_BUFFER_POOL_STATS and `Variable_name:`/`Value:`.
        if self.g_row(l, &c)? {
            return Ok(());
        }
        self.status_line(l, &c)
    }

    /// `\G` output lines (`Variable_name: x` / `Value: y`, `POOL_SIZE: 8192`). True when taken.
    fn g_row(&mut self, l: &Line, c: &str) -> Result<bool, ReadError> {
        if c.starts_with("***") && c.ends_with("***") {
            self.in_pool_row_g = false;
            return Ok(true);
        }
        let Some((k, v)) = c
            .split_once(": ")
            .or_else(|| c.strip_suffix(':').map(|k| (k, "")))
        else {
            return Ok(false);
        };
        let k = k.trim();
        if k == "Variable_name" {
            self.pending_var = Some((v.trim().to_string(), l.no));
            return Ok(true);
        }
        if k == "Value" {
            if let Some((name, _)) = self.pending_var.take() {
                self.name_value(l, &name, v.trim())?;
                return Ok(true);
            }
            return Ok(false);
        }
        let upper = k.to_ascii_uppercase();
        if POOL_STATS_COLUMNS.contains(&upper.as_str()) {
            if upper == "POOL_ID" {
                self.pool_rows.push(BTreeMap::new());
                self.in_pool_row_g = true;
            } else if !self.in_pool_row_g {
                // A column pasted without its POOL_ID line: one row.
                self.pool_rows.push(BTreeMap::new());
                self.in_pool_row_g = true;
            }
            self.pool_cell(l, &upper, v.trim())?;
            return Ok(true);
        }
        Ok(false)
    }

    /// One cell of a pool stats row.
    fn pool_cell(&mut self, l: &Line, col: &str, v: &str) -> Result<(), ReadError> {
        let Some(&(_, name)) = POOL_STATS.iter().find(|(c, _)| *c == col) else {
            return Ok(());
        };
        let n = parse_number(v, false)
            .map_err(|BadNumber(m)| self.err(l.no, format!("{col} = {v}: {m}")))?;
        if let Some(row) = self.pool_rows.last_mut() {
            row.insert(
                name.to_string(),
                Value {
                    value: n,
                    from: origin(self.input, l.no, l.raw),
                },
            );
        }
        Ok(())
    }

    /// Rows of a boxed or tab-separated table. True when the line was a row taken here.
    fn table_row(&mut self, l: &Line) -> Result<bool, ReadError> {
        let Some(cells) = cells(l.raw) else {
            // A border `+----+` ends nothing; anything else ends a pool stats table.
            if !l.raw.trim().starts_with('+') {
                self.pool_header = None;
            }
            return Ok(false);
        };
        if cells.iter().any(|c| c.eq_ignore_ascii_case("POOL_ID"))
            && cells.iter().any(|c| c.eq_ignore_ascii_case("POOL_SIZE"))
        {
            self.pool_header = Some(cells.iter().map(|c| c.to_ascii_uppercase()).collect());
            return Ok(true);
        }
        if let Some(h) = self.pool_header.clone() {
            if cells.len() == h.len() && cells[0].bytes().all(|b| b.is_ascii_digit()) {
                self.pool_rows.push(BTreeMap::new());
                for (col, v) in h.iter().zip(cells.iter()) {
                    self.pool_cell(l, col, v)?;
                }
                return Ok(true);
            }
        }
        if cells.len() == 2 {
            if cells[0] == "Variable_name" && cells[1] == "Value" {
                return Ok(true);
            }
            if is_var_name(&cells[0]) {
                self.name_value(l, &cells[0].clone(), &cells[1].clone())?;
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// A `SHOW VARIABLES` or `SHOW GLOBAL STATUS` pair.
    fn name_value(&mut self, l: &Line, name: &str, v: &str) -> Result<(), ReadError> {
        if !is_var_name(name) {
            return Ok(());
        }
        let key_var = matches!(
            name,
            "innodb_buffer_pool_size"
                | "innodb_buffer_pool_instances"
                | "innodb_old_blocks_pct"
                | "innodb_old_blocks_time"
                | "innodb_lru_scan_depth"
                | "innodb_page_size"
                | "innodb_read_ahead_threshold"
        ) || name.starts_with("Innodb_buffer_pool_pages");
        let value = if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) {
            parse_number(v, false)
                .map_err(|BadNumber(m)| self.err(l.no, format!("{name} = {v}: {m}")))?
        } else if key_var && !v.is_empty() {
            let why = if v.starts_with('-') {
                "negative; it is 0 or more".to_string()
            } else {
                "not a whole number".to_string()
            };
            return Err(self.err(l.no, format!("{name} = {v}: {why}")));
        } else {
            Num::Text(v.to_string())
        };
        if name == "innodb_lru_flush_size" && self.out.mariadb_hint.is_none() {
            self.out.mariadb_hint = Some(l.no);
        }
        let val = Value {
            value,
            from: origin(self.input, l.no, l.raw),
        };
        let map = if name.starts_with("Innodb_") {
            &mut self.gstatus
        } else {
            &mut self.vars
        };
        map.insert(name.to_string(), val);
        Ok(())
    }

    fn start_snapshot(&mut self) {
        let done = std::mem::take(&mut self.cur);
        if done.has_values() {
            self.snaps.push(done);
        } else {
            // Keep a header time seen before any value.
            self.cur.time = done.time;
        }
    }

    fn status_line(&mut self, l: &Line, c: &str) -> Result<(), ReadError> {
        let dashes = c.len() >= 3 && c.bytes().all(|b| b == b'-');
        let was_dashes = self.prev_dashes;
        self.prev_dashes = dashes;
        if dashes || c.bytes().all(|b| b == b'=') {
            return Ok(());
        }
        if c.ends_with("INNODB MONITOR OUTPUT") && !c.starts_with("END OF") {
            if self.cur.has_values() {
                self.start_snapshot();
            }
            self.cur.time = header_time(c).map(|t| (t, l.no));
            self.section = Section::Other;
            return Ok(());
        }
        if c == "END OF INNODB MONITOR OUTPUT" {
            self.section = Section::Other;
            self.cur.closed = true;
            return Ok(());
        }
        if let Some(n) = c.strip_prefix("---BUFFER POOL ") {
            if n.trim().bytes().all(|b| b.is_ascii_digit()) {
                self.section = Section::Instance;
                if self.cur.instances.len() < MAX_INSTANCES {
                    let mut b = BTreeMap::new();
                    b.insert(
                        "block".to_string(),
                        Value {
                            value: Num::Int(self.cur.instances.len() as u64),
                            from: origin(self.input, l.no, l.raw),
                        },
                    );
                    self.cur.instances.push(b);
                } else if self.cur.instances.len() == MAX_INSTANCES {
                    self.out.note(format!(
                        "line {}: more than {MAX_INSTANCES} buffer pool instances; the blocks after the {MAX_INSTANCES}th are not read",
                        l.no
                    ));
                    self.cur.instances.push(BTreeMap::new());
                }
                return Ok(());
            }
        }
        if was_dashes && is_title(c) {
            match c {
                "BUFFER POOL AND MEMORY" => {
                    if self.cur.has_values() {
                        self.start_snapshot();
                    }
                    self.section = Section::Pool;
                    self.cur.title_line = Some(l.no);
                }
                "INDIVIDUAL BUFFER POOL INFO" => self.section = Section::Instance,
                _ => {
                    if matches!(self.section, Section::Pool | Section::Instance) {
                        self.cur.closed = true;
                    }
                    self.section = Section::Other;
                }
            }
            return Ok(());
        }
        if c.starts_with("Percent of dirty pages(LRU & free pages)")
            && self.out.mariadb_hint.is_none()
        {
            self.out.mariadb_hint = Some(l.no);
        }
        if self.section == Section::Other {
            return Ok(());
        }
        for pat in PATTERNS {
            match match_pattern(c, pat) {
                Err(BadNumber(m)) => {
                    return Err(self.err(l.no, format!("'{}': {m}", trunc(c))));
                }
                Ok(Match::No) => {}
                Ok(Match::Yes(vals)) => {
                    self.store(l, vals);
                    return Ok(());
                }
            }
        }
        if LABELS.iter().any(|lab| c.starts_with(lab)) {
            self.out.note(format!(
                "line {}: '{}' is not a line this reader knows; not read",
                l.no,
                trunc(c)
            ));
        }
        Ok(())
    }

    fn store(&mut self, l: &Line, vals: Vec<(&'static str, Num)>) {
        // A pool line after a snapshot's last one starts another snapshot (two statuses pasted
        // without their headers).
        if self.section == Section::None
            && vals.iter().any(|(n, _)| *n == "pool_pages")
            && self.cur.main.contains_key("pool_pages")
        {
            self.start_snapshot();
        }
        let input = self.input;
        let instance = self.section == Section::Instance;
        if instance && self.cur.instances.is_empty() {
            self.cur.instances.push(BTreeMap::new());
        }
        if instance && self.cur.instances.len() > MAX_INSTANCES {
            return;
        }
        let map = if instance {
            self.cur.instances.last_mut().expect("pushed above")
        } else {
            &mut self.cur.main
        };
        let mut repeated = None;
        for (name, v) in vals {
            if let Some(prev) = map.get(name) {
                repeated = Some((name, prev.from.line));
                continue;
            }
            map.insert(
                name.to_string(),
                Value {
                    value: v,
                    from: origin(input, l.no, l.raw),
                },
            );
        }
        if let Some((name, first)) = repeated {
            self.out.note(format!(
                "line {}: {name} again (first at line {first}); the first is kept",
                l.no
            ));
        }
    }

    fn finish(mut self) -> Result<Reading, ReadError> {
        self.start_snapshot();
        let snaps = std::mem::take(&mut self.snaps);
        let mut out = std::mem::take(&mut self.out);
        out.snapshots = snaps.len();
        if let Some(last) = snaps.last() {
            if !last.main.contains_key("pool_pages") && last.instances.is_empty() {
                if let Some(t) = last.title_line {
                    let what = if last.closed {
                        "has no 'Buffer pool size' line"
                    } else {
                        "ends before its 'Buffer pool size' line: the paste looks truncated"
                    };
                    return Err(ReadError {
                        input: 0,
                        line: Some(t),
                        message: format!("the BUFFER POOL AND MEMORY section {what}"),
                    });
                }
            }
            let mut main = last.main.clone();
            let mut src = Source::Status;
            let blocks = &last.instances[..last.instances.len().min(MAX_INSTANCES)];
            if !main.contains_key("pool_pages") && !blocks.is_empty() {
                // Only the per-instance blocks were pasted: their sums are the totals.
                src = Source::InstanceSums;
                for name in SUMMED {
                    let mut sum: Option<Value> = None;
                    for b in blocks {
                        if let Some(v) = b.get(*name) {
                            sum = Some(match sum {
                                None => v.clone(),
                                Some(s) => Value {
                                    value: s.value.add(&v.value),
                                    from: s.from,
                                },
                            });
                        }
                    }
                    if let Some(s) = sum {
                        main.entry(name.to_string()).or_insert(s);
                    }
                }
                out.note(format!(
                    "no BUFFER POOL AND MEMORY totals were pasted: the values are the sums over the {} instance blocks (each value's line is the first block's)",
                    blocks.len()
                ));
            }
            for (k, v) in main {
                out.sources.insert(k.clone(), src);
                out.values.insert(k, v);
            }
            if !blocks.is_empty() {
                let first = blocks[0]
                    .get("block")
                    .or_else(|| blocks[0].values().next())
                    .map(|v| v.from.clone())
                    .unwrap_or(Origin {
                        input: 0,
                        line: 0,
                        text: String::new(),
                    });
                out.values.insert(
                    "instances".into(),
                    Value {
                        value: Num::Int(last.instances.len() as u64),
                        from: first,
                    },
                );
                out.sources.insert("instances".into(), Source::Status);
                out.instance_pool_pages = blocks
                    .iter()
                    .filter_map(|b| b.get("pool_pages").and_then(|v| v.value.as_u64()))
                    .collect();
            }
            check_instances(&mut out, blocks, src);
            if last.title_line.is_some() && !last.closed && !last.main.contains_key("lru_len") {
                out.note("the buffer pool section ends before its 'LRU len' line: the paste may be truncated; what it holds is read".into());
            }
        }
        if snaps.len() >= 2 {
            interval(&mut out, &snaps[snaps.len() - 2], &snaps[snaps.len() - 1]);
        }
        // INNODB_BUFFER_POOL_STATS: summed over the rows; they fill what the status lacks.
        let rows: Vec<_> = self.pool_rows.iter().filter(|r| !r.is_empty()).collect();
        out.pool_stats_rows = rows.len();
        if !rows.is_empty() {
            let mut sums: BTreeMap<String, Value> = BTreeMap::new();
            for r in &rows {
                for (k, v) in r.iter() {
                    match sums.get_mut(k) {
                        Some(s) => s.value = s.value.add(&v.value),
                        None => {
                            sums.insert(k.clone(), v.clone());
                        }
                    }
                }
            }
            if let (Some(ps), Some(st)) = (sums.get("pool_pages"), out.values.get("pool_pages")) {
                if ps.value != st.value {
                    let msg = format!(
                        "the pool's size differs: {} pages in INNODB_BUFFER_POOL_STATS (line {}) but {} in the status (line {}); the status's is used",
                        num_text(&ps.value), ps.from.line, num_text(&st.value), st.from.line
                    );
                    out.warn(msg, &["pool_pages"]);
                }
            }
            for (k, v) in sums {
                if !out.values.contains_key(&k) {
                    out.sources.insert(k.clone(), Source::PoolStats);
                    out.values.insert(k, v);
                }
            }
            if rows.len() > 1 && !out.values.contains_key("instances") {
                let from = rows[0]
                    .values()
                    .next()
                    .map(|v| v.from.clone())
                    .unwrap_or(Origin {
                        input: 0,
                        line: 0,
                        text: String::new(),
                    });
                out.values.insert(
                    "instances".into(),
                    Value {
                        value: Num::Int(rows.len() as u64),
                        from,
                    },
                );
                out.sources.insert("instances".into(), Source::PoolStats);
            }
        }
        for (k, v) in std::mem::take(&mut self.vars) {
            out.sources.insert(k.clone(), Source::Variables);
            out.values.insert(k, v);
        }
        for (k, v) in std::mem::take(&mut self.gstatus) {
            out.sources.insert(k.clone(), Source::GlobalStatus);
            out.values.insert(k, v);
        }
        if out.values.is_empty() {
            return Err(ReadError {
                input: 0,
                line: None,
                message: "no buffer pool section found: paste SHOW ENGINE INNODB STATUS (its BUFFER POOL AND MEMORY section), INNODB_BUFFER_POOL_STATS rows or SHOW VARIABLES LIKE 'innodb%'".into(),
            });
        }
        check(&mut out);
        Ok(out)
    }
}

fn trunc(s: &str) -> String {
    if s.len() <= 80 {
        return s.to_string();
    }
    let mut e = 80;
    while !s.is_char_boundary(e) {
        e -= 1;
    }
    format!("{}…", &s[..e])
}

fn num_text(n: &Num) -> String {
    match n {
        Num::Int(i) => i.to_string(),
        Num::Real(x) => format!("{x}"),
        Num::Text(t) => t.clone(),
    }
}

/// A section title: capitals, spaces, `/` and `-` (`FILE I/O`, `BUFFER POOL AND MEMORY`).
fn is_title(c: &str) -> bool {
    c.len() >= 3
        && c.bytes().any(|b| b.is_ascii_uppercase())
        && c.bytes()
            .all(|b| b.is_ascii_uppercase() || b == b' ' || b == b'/' || b == b'-' || b == b'_')
}

/// Names of the server variables and status variables kept.
fn is_var_name(s: &str) -> bool {
    (s.starts_with("innodb_")
        || s.starts_with("Innodb_")
        || s == "version"
        || s == "version_comment")
        && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// Contradictions between the totals.
fn check(out: &mut Reading) {
    let pairs: &[(&str, &str, &str)] = &[
        (
            "free_buffers",
            "pool_pages",
            "more free buffers than the pool has pages",
        ),
        (
            "database_pages",
            "pool_pages",
            "more database pages than the pool has pages",
        ),
        (
            "old_database_pages",
            "database_pages",
            "more old pages than database pages",
        ),
        (
            "modified_db_pages",
            "database_pages",
            "more modified pages than database pages",
        ),
        ("lru_len", "pool_pages", "an LRU list longer than the pool"),
    ];
    for (a, b, what) in pairs {
        if let (Some(x), Some(y)) = (out.values.get(*a), out.values.get(*b)) {
            if let (Some(xv), Some(yv)) = (x.value.as_f64(), y.value.as_f64()) {
                if xv > yv {
                    let msg = format!(
                        "{what}: {a} = {} (line {}) > {b} = {} (line {})",
                        num_text(&x.value),
                        x.from.line,
                        num_text(&y.value),
                        y.from.line
                    );
                    out.warn(msg, &[a, b]);
                }
            }
        }
    }
    if let (Some(f), Some(d), Some(s)) = (
        out.values.get("free_buffers"),
        out.values.get("database_pages"),
        out.values.get("pool_pages"),
    ) {
        if let (Some(fv), Some(dv), Some(sv)) =
            (f.value.as_u64(), d.value.as_u64(), s.value.as_u64())
        {
            if fv.saturating_add(dv) > sv && fv <= sv && dv <= sv {
                let msg = format!(
                    "free buffers and database pages add up to more than the pool: {fv} (line {}) + {dv} (line {}) > {sv} (line {})",
                    f.from.line, d.from.line, s.from.line
                );
                out.warn(msg, &["free_buffers", "database_pages", "pool_pages"]);
            }
        }
    }
    for r in ["hit_rate_per_1000", "young_making_rate_per_1000"] {
        if let Some(v) = out.values.get(r) {
            if v.value.as_f64().is_some_and(|x| x > 1000.0) {
                let msg = format!(
                    "{r} = {} (line {}) is more than 1000 per 1000",
                    num_text(&v.value),
                    v.from.line
                );
                out.warn(msg, &[r]);
            }
        }
    }
    if let (Some(lru), Some(db)) = (out.values.get("lru_len"), out.values.get("database_pages")) {
        if lru.value != db.value && out.sources.get("lru_len") == Some(&Source::Status) {
            let msg = format!(
                "LRU len = {} (line {}) differs from Database pages = {} (line {}); InnoDB prints the same list's length twice",
                num_text(&lru.value),
                lru.from.line,
                num_text(&db.value),
                db.from.line
            );
            out.warn(msg, &["lru_len", "database_pages"]);
        }
    }
    if let (Some(ib), Some(n)) = (
        out.values.get("innodb_buffer_pool_instances"),
        out.values.get("instances"),
    ) {
        if let (Some(a), Some(b)) = (ib.value.as_u64(), n.value.as_u64()) {
            if a != b && out.sources.get("instances") == Some(&Source::Status) {
                let msg = format!(
                    "innodb_buffer_pool_instances = {a} (line {}) but the status has {b} instance blocks (from line {})",
                    ib.from.line, n.from.line
                );
                out.warn(msg, &["innodb_buffer_pool_instances", "instances"]);
            }
        }
    }
}

/// The per-instance blocks against the totals and against themselves.
fn check_instances(out: &mut Reading, blocks: &[BTreeMap<String, Value>], src: Source) {
    for (i, b) in blocks.iter().enumerate() {
        if let (Some(f), Some(s)) = (b.get("free_buffers"), b.get("pool_pages")) {
            if f.value.as_f64() > s.value.as_f64() {
                let msg = format!(
                    "instance {i}: more free buffers than pages: {} (line {}) > {} (line {})",
                    num_text(&f.value),
                    f.from.line,
                    num_text(&s.value),
                    s.from.line
                );
                out.warn(msg, &[]);
            }
        }
        if let (Some(o), Some(d)) = (b.get("old_database_pages"), b.get("database_pages")) {
            if o.value.as_f64() > d.value.as_f64() {
                let msg = format!(
                    "instance {i}: more old pages than database pages: {} (line {}) > {} (line {})",
                    num_text(&o.value),
                    o.from.line,
                    num_text(&d.value),
                    d.from.line
                );
                out.warn(msg, &[]);
            }
        }
    }
    if src != Source::Status || blocks.is_empty() {
        return;
    }
    if let Some(total) = out.values.get("pool_pages").cloned() {
        let sum: u64 = out.instance_pool_pages.iter().sum();
        if out.instance_pool_pages.len() == blocks.len() && Some(sum) != total.value.as_u64() {
            let msg = format!(
                "the instances' pool sizes add up to {sum} pages, not the total's {} (line {})",
                num_text(&total.value),
                total.from.line
            );
            out.warn(msg, &["pool_pages"]);
        }
    }
}

/// Rates from the counters' differences between two snapshots.
fn interval(out: &mut Reading, a: &Snapshot, b: &Snapshot) {
    let (Some((ta, la)), Some((tb, lb))) = (a.time, b.time) else {
        out.note("two status snapshots were pasted but not both with their header line (the timestamp): rates from their difference need it; each snapshot's own per-second lines are shown".into());
        return;
    };
    let dt = tb - ta;
    if dt <= 0.0 {
        out.warn(
            format!("the second snapshot (line {lb}) is not later than the first (line {la}): no rates from their difference"),
            &[],
        );
        return;
    }
    let get = |s: &Snapshot, k: &str| -> Option<u64> {
        s.main.get(k).and_then(|v| v.value.as_u64()).or_else(|| {
            let v: Vec<u64> = s
                .instances
                .iter()
                .filter_map(|m| m.get(k).and_then(|v| v.value.as_u64()))
                .collect();
            (!v.is_empty()).then(|| v.iter().sum())
        })
    };
    let mut rates = BTreeMap::new();
    for (counter, rate) in [
        ("pages_made_young", "youngs_per_s"),
        ("pages_not_made_young", "non_youngs_per_s"),
        ("pages_read", "reads_per_s"),
        ("pages_created", "creates_per_s"),
        ("pages_written", "writes_per_s"),
    ] {
        if let (Some(x), Some(y)) = (get(a, counter), get(b, counter)) {
            if y < x {
                out.warn(
                    format!("{counter} went down between the snapshots ({x} then {y}): the server restarted in between? no rate from it"),
                    &[],
                );
            } else {
                rates.insert(rate.to_string(), (y - x) as f64 / dt);
            }
        }
    }
    out.interval = Some(Interval {
        seconds: dt,
        rates,
        from_line: la,
        to_line: lb,
    });
}

#[cfg(test)]
mod tests;
