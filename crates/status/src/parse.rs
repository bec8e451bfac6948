//! The parser: one pass over each input's lines, keeping what each names (sections, snapshots,
//! instances) and where it came from; [`crate::read_inputs`] drives it.

use super::*;
use crate::snapshot::Snapshot;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
enum Section {
    /// No section title seen yet: a paste of bare lines is read as the buffer pool section.
    #[default]
    None,
    Pool,
    Instance,
    Other,
}

#[derive(Clone, Default)]
pub(crate) struct Parser {
    pub(crate) input: usize,
    section: Section,
    prev_dashes: bool,
    snaps: Vec<Snapshot>,
    cur: Snapshot,
    vars: BTreeMap<String, Value>,
    gstatus: BTreeMap<String, Value>,
    /// The first value of each global status counter pasted more than once (two snapshots).
    gstatus_first: BTreeMap<String, Value>,
    pool_rows: Vec<BTreeMap<String, Value>>,
    pool_header: Option<Vec<String>>,
    in_pool_row_g: bool,
    pending_var: Option<(String, usize)>,
    /// Lines taken so far (values, rows, rate lines that could not be read), so that an input
    /// that gives nothing is said.
    pub(crate) taken: usize,
    /// A value line that ended an input without a line end, left unread (it may be cut short):
    /// its input, its line and its text.
    cut: Option<(usize, usize, String)>,
    out: Reading,
}

impl Parser {
    fn err(&self, no: usize, message: String) -> ReadError {
        ReadError {
            input: self.input,
            line: Some(no),
            message,
        }
    }

    pub(crate) fn feed(&mut self, text: &str) -> Result<(), ReadError> {
        self.section = Section::None;
        self.prev_dashes = false;
        self.pool_header = None;
        self.in_pool_row_g = false;
        self.pending_var = None;
        // The input's last line, when no line end follows it, may be cut anywhere, in the
        // middle of a number ("Buffer pool size   8" of 8192) too: it is read only when it
        // gives no value.
        let unended = !text.ends_with('\n');
        let lines = text.split('\n').count();
        for (i, phys) in text.split('\n').enumerate() {
            let no = i + 1;
            let last = unended && no == lines;
            // `mysql -B` (and some copies of the tabular output) print the status as one line
            // with `\n` escapes.
            if phys.matches("\\n").nth(2).is_some() {
                let parts = phys.split("\\n").count();
                let mut first = true;
                for (j, part) in phys.split("\\n").enumerate() {
                    // The first piece holds the row's other cells (`InnoDB<TAB><TAB>`).
                    let part = if first {
                        first = false;
                        part.rsplit(['\t', '|']).next().unwrap_or(part)
                    } else {
                        part
                    };
                    let part = part.replace("\\t", " ");
                    // The escaped form ends in its own `\n` (and the cell's closing border or
                    // quote): only a last piece holding more than that may be cut.
                    let piece_last = last && j + 1 == parts && !clean(&part).is_empty();
                    self.line_maybe_cut(&Line { no, raw: &part }, false, piece_last)?;
                }
            } else {
                self.line_maybe_cut(&Line { no, raw: phys }, true, last)?;
            }
        }
        Ok(())
    }

    /// Reads a line; the input's unended last line only when it gives no value (a section
    /// title, a header, text the reader passes over). One that would give a value is left
    /// unread with a warning naming it.
    fn line_maybe_cut(&mut self, l: &Line, tabular: bool, last: bool) -> Result<(), ReadError> {
        if !last || clean(l.raw).is_empty() {
            return self.line(l, tabular);
        }
        let mut trial = self.clone();
        let gives = match trial.line(l, tabular) {
            // A value, or an instance block's start (its number may be cut too).
            Ok(()) => {
                trial.taken > self.taken || trial.cur.instances.len() != self.cur.instances.len()
            }
            Err(_) => true,
        };
        if !gives {
            *self = trial;
            return Ok(());
        }
        let text = trunc(&clean(l.raw));
        let msg = format!(
            "line {}: '{text}' ends the paste with no line end after it: it may be cut short (a number cut there reads smaller), so its figures are not used",
            l.no
        );
        let msg = if self.input > 0 {
            format!("input {}, {msg}", self.input + 1)
        } else {
            msg
        };
        self.out.warn(msg, &[]);
        self.cut = Some((self.input, l.no, text));
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
        self.taken += 1;
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
        self.taken += 1;
        let val = Value {
            value,
            from: origin(self.input, l.no, l.raw),
        };
        let global = name.starts_with("Innodb_") || name == "Uptime";
        if global {
            if let Some(prev) = self.gstatus.get(name) {
                if !self.gstatus_first.contains_key(name) {
                    self.gstatus_first.insert(name.to_string(), prev.clone());
                }
            }
        }
        let map = if global {
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
            let t = header_time(c);
            if let Some(t) = t.filter(|t| !HEADER_TIMES.contains(t)) {
                return Err(self.err(
                    l.no,
                    format!(
                        "the monitor header's time '{}' is outside the years 2000 to 2099 ({t:.0} s since 1970): no server printed it, and the rates between two snapshots would come from it",
                        trunc(c)
                    ),
                ));
            }
            if t.is_none() && c != "INNODB MONITOR OUTPUT" {
                self.out.note(format!(
                    "line {}: the monitor header's time in '{}' cannot be read (InnoDB prints YYYY-MM-DD HH:MM:SS): with two snapshots, no rates from their difference",
                    l.no,
                    trunc(c)
                ));
            }
            self.cur.time = t.map(|t| (t, l.no));
            self.section = Section::Other;
            return Ok(());
        }
        if let Some(secs) = c
            .strip_prefix("Per second averages calculated from the last ")
            .and_then(|r| r.strip_suffix(" seconds"))
        {
            if secs.trim().parse::<u64>().map_or(true, |n| n == 0) {
                self.out.note(format!(
                    "line {}: '{}': the per-second lines average over no time (the status was printed again at once); the counters' difference between two snapshots gives rates that do",
                    l.no,
                    trunc(c)
                ));
            }
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
        if let Some(names) = rate_line_names(c) {
            // A rate line the patterns cannot read (`inf reads/s`, `1e308 youngs/s`, `450,00`,
            // a line cut short): its rates are absent, and the warning says so.
            self.taken += 1;
            let msg = format!(
                "line {}: '{}' is a rate line this reader cannot read (InnoDB prints each rate as digits with a decimal point): {} not read",
                l.no,
                trunc(c),
                names.join(", ")
            );
            let where_ = if self.input > 0 {
                format!("input {}, {msg}", self.input + 1)
            } else {
                msg
            };
            self.out.warn(where_, names);
            for n in names {
                self.out.unreadable.entry(n.to_string()).or_insert(l.no);
            }
            return Ok(());
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
        self.taken += 1;
        // A pool line after a snapshot's last one starts another snapshot (two statuses pasted
        // without their headers).
        if self.section == Section::None
            && vals.iter().any(|(n, _)| *n == "pool_pages")
            && self.cur.main.contains_key("pool_pages")
        {
            self.start_snapshot();
        }
        let input = self.input;
        self.cur.last_line = self.cur.last_line.max(l.no);
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

    pub(crate) fn finish(mut self) -> Result<Reading, ReadError> {
        self.start_snapshot();
        let snaps = std::mem::take(&mut self.snaps);
        let mut out = std::mem::take(&mut self.out);
        out.snapshots = snaps.len();
        if let Some(last) = snaps.last() {
            if !last.main.contains_key("pool_pages") && last.instances.is_empty() {
                if let Some(t) = last.title_line {
                    let what = match (&self.cut, last.closed) {
                        (Some((_, no, text)), _) => format!(
                            "ends before its 'Buffer pool size' line: the paste looks truncated (its last line, {no}, '{text}', has no line end and may be cut, so it is not read)"
                        ),
                        (None, true) => "has no 'Buffer pool size' line".to_string(),
                        (None, false) => {
                            "ends before its 'Buffer pool size' line: the paste looks truncated"
                                .to_string()
                        }
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
            // A section with no end after it that stops before its last line ('LRU len', in the
            // totals and in each instance block): the figures after the last line read are
            // missing, and the paste was cut there.
            let block_short = last
                .instances
                .last()
                .is_some_and(|b| !b.contains_key("lru_len") && b.len() > 1);
            let main_short = last.title_line.is_some() && !last.main.contains_key("lru_len");
            if !last.closed && (main_short || block_short) {
                let at = if last.last_line > 0 {
                    format!(" after line {}", last.last_line)
                } else {
                    String::new()
                };
                out.warn(
                    format!(
                        "the buffer pool section has no end (no section or END OF INNODB MONITOR OUTPUT after it) and stops{at} before its 'LRU len' line: the paste looks truncated; the figures after that line are not in it, and those before it are read"
                    ),
                    &[],
                );
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
        exact::global_interval(&mut out, &self.gstatus_first, &self.gstatus);
        for (k, v) in std::mem::take(&mut self.gstatus) {
            out.sources.insert(k.clone(), Source::GlobalStatus);
            out.values.insert(k, v);
        }
        if out.values.is_empty() {
            if let Some((input, no, text)) = self.cut.take() {
                return Err(ReadError {
                    input,
                    line: Some(no),
                    message: format!(
                        "'{text}' ends the paste with no line end after it: it may be cut short (a number cut there reads smaller), and nothing else was read; paste the whole section"
                    ),
                });
            }
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
