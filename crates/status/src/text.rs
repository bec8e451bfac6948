//! The text of a paste: its logical lines, the patterns of the values it can hold, and their
//! numbers.

use super::*;

// ---------------------------------------------------------------------------------------------
// Lines

/// A logical line: its number in the input and its cleaned text (borders, prompts and runs of
/// blanks removed).
pub(super) struct Line<'a> {
    pub(super) no: usize,
    pub(super) raw: &'a str,
}

/// The cleaned text of a line: the table borders `|` stripped at both ends (repeatedly: the
/// 5.0 paste ends in ` | |`), runs of blanks collapsed to one space.
pub(super) fn clean(raw: &str) -> String {
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
pub(super) fn cells(raw: &str) -> Option<Vec<String>> {
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

pub(super) const PATTERNS: &[&str] = &[
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
pub(super) const LABELS: &[&str] = &[
    "Total large memory allocated",
    "Total memory allocated",
    "Dictionary memory allocated",
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

/// What marks a line as one of the rate lines (`buf_print_io_instance`'s per-second lines and
/// the hit rate), and the names its pattern reads: such a line that matches no pattern is a
/// warning, since the fit and the scenario use these rates.
const RATE_MARKS: &[(&str, &[&str])] = &[
    ("non-youngs/s", &["youngs_per_s", "non_youngs_per_s"]),
    ("youngs/s", &["youngs_per_s", "non_youngs_per_s"]),
    ("reads/s", &["reads_per_s", "creates_per_s", "writes_per_s"]),
    (
        "creates/s",
        &["reads_per_s", "creates_per_s", "writes_per_s"],
    ),
    (
        "writes/s",
        &["reads_per_s", "creates_per_s", "writes_per_s"],
    ),
    (
        "Pages read ahead",
        &["read_ahead_per_s", "evicted_without_access_per_s"],
    ),
    ("Buffer pool hit rate", &["hit_rate_per_1000"]),
];

/// The names a rate line would have given, when `c` (a cleaned line that matched no pattern)
/// is one.
pub(super) fn rate_line_names(c: &str) -> Option<&'static [&'static str]> {
    // FILE I/O's "0.00 reads/s, 2150 avg bytes/read, 0.00 writes/s, 0.00 fsyncs/s" (a paste
    // with no section titles) is not a buffer pool line.
    if c.contains("fsyncs/s") || c.contains("avg bytes/read") {
        return None;
    }
    RATE_MARKS
        .iter()
        .find(|(mark, _)| c.contains(mark))
        .map(|(_, names)| *names)
}

/// The counts summed over instances when the totals section is missing.
pub(super) const SUMMED: &[&str] = &[
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
pub(super) const POOL_STATS: &[(&str, &str)] = &[
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
pub(super) const POOL_STATS_COLUMNS: &[&str] = &[
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
pub(super) struct BadNumber(pub(super) String);

pub(super) enum Match {
    No,
    Yes(Vec<(&'static str, Num)>),
}

/// Matches a cleaned line against one pattern. Bounded by the line's and the pattern's length.
pub(super) fn match_pattern(line: &str, pat: &'static str) -> Result<Match, BadNumber> {
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
pub(super) fn name_static(pat: &'static str, name: &str) -> &'static str {
    match pat.find(name) {
        Some(i) => &pat[i..i + name.len()],
        None => "_",
    }
}

/// Parses a count (`rate` false: digits only, at most 2^64 - 1) or a rate (a non-negative
/// decimal).
pub(super) fn parse_number(tok: &str, rate: bool) -> Result<Num, BadNumber> {
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

/// The header times a server could have printed, seconds since 1970: 2000-01-01 to the end of
/// 2099 (the older YYMMDD header cannot name any other century; InnoDB's monitor is younger).
pub(super) const HEADER_TIMES: std::ops::Range<f64> = 946_684_800.0..4_102_444_800.0;

/// Seconds since 1970 of a header `2026-12-01 21:41:36 ... INNODB MONITOR OUTPUT` (MySQL 5.6+,
/// MariaDB) or `130618 22:49:17 INNODB MONITOR OUTPUT` (older: YYMMDD).
pub(super) fn header_time(line: &str) -> Option<f64> {
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

pub(super) fn origin(input: usize, no: usize, raw: &str) -> Origin {
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

pub(super) fn trunc(s: &str) -> String {
    if s.len() <= 80 {
        return s.to_string();
    }
    let mut e = 80;
    while !s.is_char_boundary(e) {
        e -= 1;
    }
    format!("{}…", &s[..e])
}

pub(super) fn num_text(n: &Num) -> String {
    match n {
        Num::Int(i) => i.to_string(),
        Num::Real(x) => format!("{x}"),
        Num::Text(t) => t.clone(),
    }
}

/// A section title: capitals, spaces, `/` and `-` (`FILE I/O`, `BUFFER POOL AND MEMORY`).
pub(super) fn is_title(c: &str) -> bool {
    c.len() >= 3
        && c.bytes().any(|b| b.is_ascii_uppercase())
        && c.bytes()
            .all(|b| b.is_ascii_uppercase() || b == b' ' || b == b'/' || b == b'-' || b == b'_')
}

/// Names of the server variables and status variables kept.
pub(super) fn is_var_name(s: &str) -> bool {
    (s.starts_with("innodb_")
        || s.starts_with("Innodb_")
        || s == "version"
        || s == "version_comment"
        || s == "Uptime")
        && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}
