//! Trace replay: a text format other tools can feed, replayed against one instance with no
//! read-ahead and all pages clean.
//!
//! ```text
//! # comment
//! pool pages=N old_blocks_pct=P old_blocks_time_ms=T lru_scan_depth=D
//! <t_ms> get <space> <page>      NORMAL fetch: read into the midpoint on a miss, then access
//! <t_ms> scan <space> <page>     SCAN-mode fetch: as get, but never makes the page young
//! <t_ms> create <space> <page>   buf_page_create: a new page at the head, accessed at t
//! <t_ms> lru_batch               one page-cleaner LRU batch
//! ```

use midpoint_core::clock::Micros;
use midpoint_core::pool::{BufferPool, FetchMode, PageId, PoolConfig};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// The pool line's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct TracePool {
    pub pages: u32,
    pub old_blocks_pct: u32,
    pub old_blocks_time_ms: u32,
    pub lru_scan_depth: u32,
}

/// One event of a trace.
#[derive(Clone, Debug, PartialEq)]
pub enum TraceOp {
    Get(u32, u32),
    Scan(u32, u32),
    Create(u32, u32),
    LruBatch,
}

/// A parsed trace.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    pub pool: TracePool,
    /// (time in µs, op, line number).
    pub events: Vec<(Micros, TraceOp, usize)>,
    /// Values the server would have clamped, with what was used.
    pub warnings: Vec<String>,
}

/// The final state after a replay, as `midpoint replay --json` prints it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReplayResult {
    /// LRU list head to tail: [space, page, old as 0/1].
    pub lru: Vec<[u64; 3]>,
    pub free: u32,
    pub old_len: u32,
    pub freed_page_clock: u64,
    pub made_young: u64,
    pub not_made_young: u64,
    pub reads: u64,
    pub evictions: u64,
}

/// Largest pool a trace may ask for, in pages (64 GiB of 16 KiB pages).
pub const MAX_TRACE_POOL_PAGES: u32 = 4 * 1024 * 1024;

/// How much input [`parse_reader`] accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Largest input, in bytes.
    pub max_bytes: u64,
    /// Longest line, in bytes, without its line ending.
    pub max_line_bytes: usize,
}

/// Default input limit: 256 MiB (about 16 million events; the parsed events take about as much
/// memory again).
pub const DEFAULT_MAX_BYTES: u64 = 256 * 1024 * 1024;
/// Default longest line: 4 KiB (an event line is under 40 bytes).
pub const DEFAULT_MAX_LINE_BYTES: usize = 4096;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_bytes: DEFAULT_MAX_BYTES,
            max_line_bytes: DEFAULT_MAX_LINE_BYTES,
        }
    }
}

/// Events of a trace at most per byte of input: the shortest event line, `0 get 0 0` and its
/// newline, is 10 bytes.
const MIN_EVENT_BYTES: u64 = 10;

/// Bytes an event takes in [`Trace::events`] (its time, op and line number).
const EVENT_BYTES: u64 = std::mem::size_of::<(Micros, TraceOp, usize)>() as u64;

/// The most memory [`parse_reader`] takes for `input_bytes` of input, bytes: one event per 10
/// bytes, and the list of events up to twice their size while it grows.
pub fn parse_memory_estimate(input_bytes: u64) -> u64 {
    (input_bytes / MIN_EVENT_BYTES).saturating_mul(2 * EVENT_BYTES)
}

/// The most memory a [`replay`] of `trace` takes, bytes, the parsed trace included: its events,
/// the pages seen (listed, then one dense page table entry each), the pool of `pool.pages`
/// frames and the final LRU list it reports.
pub fn replay_memory_estimate(trace: &Trace) -> u64 {
    use midpoint_core::cost::{BYTES_PER_FRAME, BYTES_PER_TABLE_PAGE};
    let events = trace.events.len() as u64;
    let frames = trace.pool.pages as u64;
    // The first pass lists every page access (4 bytes, twice while the lists grow), then keeps
    // the distinct ones, at most one per event.
    trace.events.capacity() as u64 * EVENT_BYTES
        + events * (8 + 4 + BYTES_PER_TABLE_PAGE)
        + frames * (BYTES_PER_FRAME + 24)
}

/// Longest quotation of the input in an error message, in characters.
pub const MAX_QUOTE_CHARS: usize = 80;

/// `s` for an error message: cut to [`MAX_QUOTE_CHARS`] characters (with "..." when cut),
/// control characters escaped.
pub fn quote(s: &str) -> String {
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i == MAX_QUOTE_CHARS {
            out.push_str("...");
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

fn err(line: usize, text: &str, why: impl std::fmt::Display) -> String {
    format!("line {line}: {why}: '{}'", quote(text.trim()))
}

/// Parses a trace held in memory, with no size limit. Errors name the line, quote it (cut to
/// [`MAX_QUOTE_CHARS`]) and say what is wrong.
pub fn parse(text: &str) -> Result<Trace, String> {
    parse_reader(
        text.as_bytes(),
        Limits {
            max_bytes: u64::MAX,
            max_line_bytes: usize::MAX,
        },
    )
}

/// Parses a trace as it streams from `input`, reading one line at a time and refusing input
/// beyond `limits`. A UTF-8 byte-order mark at the start is skipped; line endings may be `\n` or
/// `\r\n`.
pub fn parse_reader(mut input: impl std::io::BufRead, limits: Limits) -> Result<Trace, String> {
    use std::io::{BufRead, Read};
    let mut pool: Option<TracePool> = None;
    let mut events = Vec::new();
    let mut warnings = Vec::new();
    let mut last_t: f64 = 0.0;
    let mut buf: Vec<u8> = Vec::new();
    let mut total: u64 = 0;
    let mut idx = 0usize;
    loop {
        buf.clear();
        // Read at most one byte past the line limit (plus the newline), and at most one byte
        // past what the input limit leaves, so a line without an end (`/dev/zero`) is refused
        // after max_line_bytes or max_bytes, whichever comes first, not when memory runs out.
        let cap = (limits.max_line_bytes as u64)
            .saturating_add(2)
            .min(limits.max_bytes.saturating_sub(total).saturating_add(1));
        let n = input
            .by_ref()
            .take(cap)
            .read_until(b'\n', &mut buf)
            .map_err(|e| format!("line {}: reading: {e}", idx + 1))?;
        if n == 0 {
            break;
        }
        idx += 1;
        total = total.saturating_add(n as u64);
        if total > limits.max_bytes {
            return Err(format!(
                "line {idx}: the input is larger than the limit of {} bytes (raise it with --max-bytes)",
                limits.max_bytes
            ));
        }
        let mut body: &[u8] = &buf;
        if let Some(b) = body.strip_suffix(b"\n") {
            body = b.strip_suffix(b"\r").unwrap_or(b);
        }
        if body.len() > limits.max_line_bytes {
            return Err(format!(
                "line {idx}: longer than the limit of {} bytes (raise it with --max-line-bytes): '{}'",
                limits.max_line_bytes,
                quote(&String::from_utf8_lossy(&body[..body.len().min(4 * MAX_QUOTE_CHARS)]))
            ));
        }
        if idx == 1 {
            body = body.strip_prefix("\u{feff}".as_bytes()).unwrap_or(body);
        }
        let raw = std::str::from_utf8(body).map_err(|e| {
            format!(
                "line {idx}: not UTF-8 text (byte {}): '{}'",
                e.valid_up_to() + 1,
                quote(&String::from_utf8_lossy(body))
            )
        })?;
        let line = idx;
        let s = raw.trim();
        if s.is_empty() || s.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = s.split_whitespace().collect();
        if words[0] == "pool" {
            if pool.is_some() {
                return Err(err(line, raw, "a second pool line"));
            }
            if !events.is_empty() {
                return Err(err(line, raw, "the pool line must come before every event"));
            }
            let known = [
                "pages",
                "old_blocks_pct",
                "old_blocks_time_ms",
                "lru_scan_depth",
            ];
            let mut kv = HashMap::new();
            for w in &words[1..] {
                let (k, v) = w
                    .split_once('=')
                    .ok_or_else(|| err(line, raw, format!("'{}' is not key=value", quote(w))))?;
                if !known.contains(&k) {
                    return Err(err(
                        line,
                        raw,
                        format!(
                            "unknown pool setting '{}' (known: {})",
                            quote(k),
                            known.join(", ")
                        ),
                    ));
                }
                let n: u64 = v.parse().map_err(|_| {
                    err(
                        line,
                        raw,
                        format!("{k} = '{}' is not a whole number", quote(v)),
                    )
                })?;
                if kv.insert(k, n).is_some() {
                    return Err(err(line, raw, format!("{k} given twice")));
                }
            }
            let pages = *kv
                .get("pages")
                .ok_or_else(|| err(line, raw, "the pool line needs pages=N"))?;
            if pages == 0 || pages > MAX_TRACE_POOL_PAGES as u64 {
                return Err(err(
                    line,
                    raw,
                    format!(
                        "pages = {pages} is out of range: allowed from 1 to {MAX_TRACE_POOL_PAGES}"
                    ),
                ));
            }
            let mut clamp = |k: &str, v: u64, lo: u64, hi: u64| -> u32 {
                let c = v.clamp(lo, hi);
                if c != v {
                    warnings.push(format!(
                        "line {line}: {k} = {v} is outside {lo} to {hi}; using {c}, as the server would"
                    ));
                }
                c as u32
            };
            let pct = clamp(
                "old_blocks_pct",
                *kv.get("old_blocks_pct").unwrap_or(&37),
                5,
                95,
            );
            let obt = clamp(
                "old_blocks_time_ms",
                *kv.get("old_blocks_time_ms").unwrap_or(&1000),
                0,
                u32::MAX as u64,
            );
            let depth = clamp(
                "lru_scan_depth",
                *kv.get("lru_scan_depth").unwrap_or(&1024),
                100,
                u32::MAX as u64,
            );
            pool = Some(TracePool {
                pages: pages as u32,
                old_blocks_pct: pct,
                old_blocks_time_ms: obt,
                lru_scan_depth: depth,
            });
            continue;
        }
        if pool.is_none() {
            return Err(err(line, raw, "an event before the pool line"));
        }
        let t: f64 = words[0]
            .parse()
            .ok()
            .filter(|t: &f64| t.is_finite())
            .ok_or_else(|| {
                err(
                    line,
                    raw,
                    format!("'{}' is not a time in ms", quote(words[0])),
                )
            })?;
        if t < 0.0 {
            return Err(err(line, raw, "times must be positive"));
        }
        if t < last_t {
            return Err(err(
                line,
                raw,
                format!("time goes backwards (after {last_t} ms)"),
            ));
        }
        if t > 1e12 {
            return Err(err(line, raw, "time is beyond 10^12 ms"));
        }
        last_t = t;
        let t_us = (t * 1000.0).round() as Micros;
        let op = words.get(1).copied().unwrap_or("");
        let page_args = |words: &[&str]| -> Result<(u32, u32), String> {
            if words.len() != 4 {
                return Err(err(line, raw, format!("'{op}' takes <space> <page>")));
            }
            let space = words[2].parse().map_err(|_| {
                err(
                    line,
                    raw,
                    format!(
                        "space '{}' is not a whole number from 0 to 4,294,967,295",
                        quote(words[2])
                    ),
                )
            })?;
            let page = words[3].parse().map_err(|_| {
                err(
                    line,
                    raw,
                    format!(
                        "page '{}' is not a whole number from 0 to 4,294,967,295",
                        quote(words[3])
                    ),
                )
            })?;
            Ok((space, page))
        };
        let ev = match op {
            "get" => {
                let (s, p) = page_args(&words)?;
                TraceOp::Get(s, p)
            }
            "scan" => {
                let (s, p) = page_args(&words)?;
                TraceOp::Scan(s, p)
            }
            "create" => {
                let (s, p) = page_args(&words)?;
                TraceOp::Create(s, p)
            }
            "lru_batch" => {
                if words.len() != 2 {
                    return Err(err(line, raw, "lru_batch takes no arguments"));
                }
                TraceOp::LruBatch
            }
            "" => return Err(err(line, raw, "missing operation")),
            other => {
                return Err(err(
                    line,
                    raw,
                    format!(
                        "unknown operation '{}' (get, scan, create, lru_batch)",
                        quote(other)
                    ),
                ))
            }
        };
        events.push((t_us, ev, line));
    }
    let pool = pool.ok_or("the trace has no pool line")?;
    Ok(Trace {
        pool,
        events,
        warnings,
    })
}

/// Replays a trace, calling `after_each` with the pool after every event (tests run the
/// validator there).
pub fn replay_with(
    trace: &Trace,
    mut after_each: impl FnMut(&BufferPool, usize) -> Result<(), String>,
) -> Result<ReplayResult, String> {
    // Dense page tables: map each (space, page) seen to a dense index per space. Read-ahead is
    // off in a replay, so page adjacency does not matter.
    let mut spaces: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for (_, op, _) in &trace.events {
        if let TraceOp::Get(s, p) | TraceOp::Scan(s, p) | TraceOp::Create(s, p) = op {
            spaces.entry(*s).or_default().push(*p);
        }
    }
    let mut space_ids: Vec<u32> = Vec::new();
    let mut pages_of: Vec<Vec<u32>> = Vec::new();
    for (s, mut v) in spaces {
        v.sort_unstable();
        v.dedup();
        space_ids.push(s);
        pages_of.push(v);
    }
    let sizes: Vec<u32> = pages_of.iter().map(|v| v.len() as u32).collect();
    let cfg = PoolConfig::default()
        .with_frames(trace.pool.pages, 1)
        .with_lru(
            trace.pool.old_blocks_pct,
            trace.pool.old_blocks_time_ms,
            trace.pool.lru_scan_depth,
        )
        .without_io();
    let mut pool = BufferPool::new(cfg, &sizes);
    let dense = |s: u32, p: u32| -> PageId {
        let si = space_ids
            .binary_search(&s)
            .expect("space seen in the first pass");
        let pi = pages_of[si]
            .binary_search(&p)
            .expect("page seen in the first pass");
        PageId {
            space: si as u32,
            page_no: pi as u32,
        }
    };
    for (t, op, line) in &trace.events {
        let outcome = match *op {
            TraceOp::Get(s, p) => Some(pool.fetch(dense(s, p), FetchMode::Normal, *t)),
            TraceOp::Scan(s, p) => Some(pool.fetch(dense(s, p), FetchMode::Scan, *t)),
            TraceOp::Create(s, p) => Some(pool.create(dense(s, p), *t)),
            TraceOp::LruBatch => {
                pool.lru_batch(0, *t);
                None
            }
        };
        if let Some(midpoint_core::pool::Fetch::NoFreeFrame { .. }) = outcome {
            return Err(format!("line {line}: no free frame could be found"));
        }
        after_each(&pool, *line)?;
    }
    let inst = &pool.instances[0];
    let lru = inst
        .lru
        .iter()
        .map(|f| {
            let pg = inst.page(f);
            let s = pg.space as usize;
            [
                space_ids[s] as u64,
                pages_of[s][pg.page_no as usize] as u64,
                inst.lru.is_old(f) as u64,
            ]
        })
        .collect();
    let st = pool.stats();
    Ok(ReplayResult {
        lru,
        free: inst.free.len(),
        old_len: inst.lru.old_len(),
        freed_page_clock: inst.lru.freed_page_clock(),
        made_young: st.made_young,
        not_made_young: st.not_made_young,
        reads: st.pages_read,
        evictions: st.evictions(),
    })
}

/// Replays a trace.
pub fn replay(trace: &Trace) -> Result<ReplayResult, String> {
    replay_with(trace, |_, _| Ok(()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_bytes_holds_inside_a_line_without_an_end() {
        // An endless line, its length limit far away: refused at the input limit, having read
        // little more than it (the reader's buffer), not a gigabyte.
        struct Counted<R>(R, std::rc::Rc<std::cell::Cell<u64>>);
        impl<R: std::io::Read> std::io::Read for Counted<R> {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                let n = self.0.read(buf)?;
                self.1.set(self.1.get() + n as u64);
                Ok(n)
            }
        }
        let read = std::rc::Rc::new(std::cell::Cell::new(0));
        let input = std::io::BufReader::new(Counted(std::io::repeat(b'x'), read.clone()));
        let limits = Limits {
            max_bytes: 1000,
            max_line_bytes: 1_000_000_000,
        };
        let e = parse_reader(input, limits).unwrap_err();
        assert!(e.contains("larger than the limit of 1000 bytes"), "{e}");
        assert!(read.get() <= 64 * 1024, "{} bytes read", read.get());
    }

    #[test]
    fn parse_errors_name_the_line() {
        assert!(parse("").unwrap_err().contains("no pool line"));
        let e = parse("1 get 1 2\n").unwrap_err();
        assert!(e.contains("line 1") && e.contains("before the pool"), "{e}");
        let e = parse("pool pages=10\n5 get 1\n").unwrap_err();
        assert!(e.contains("line 2") && e.contains("<space> <page>"), "{e}");
        let e = parse("pool pages=10\n5 get 1 1\n4 get 1 1\n").unwrap_err();
        assert!(e.contains("line 3") && e.contains("backwards"), "{e}");
        let e = parse("pool pages=10\n-1 get 1 1\n").unwrap_err();
        assert!(e.contains("positive"), "{e}");
        let e = parse("pool pages=0\n").unwrap_err();
        assert!(e.contains("pages = 0"), "{e}");
        let e = parse("pool pages=10 colour=red\n").unwrap_err();
        assert!(e.contains("unknown pool setting"), "{e}");
        let e = parse("pool pages=10\n1 fly 1 1\n").unwrap_err();
        assert!(e.contains("unknown operation 'fly'"), "{e}");
        let e = parse("pool pages=10\n1 get x 1\n").unwrap_err();
        assert!(e.contains("space 'x'"), "{e}");
    }

    #[test]
    fn a_bom_and_crlf_line_endings_are_accepted() {
        let plain = parse("pool pages=10\n1 get 1 1\n2 scan 1 2\n").unwrap();
        let bom = parse("\u{feff}pool pages=10\r\n1 get 1 1\r\n2 scan 1 2").unwrap();
        assert_eq!(plain, bom);
        // Only at the very start: a BOM later is an unknown operation.
        let e = parse("pool pages=10\n\u{feff}1 get 1 1\n").unwrap_err();
        assert!(e.contains("line 2"), "{e}");
    }

    #[test]
    fn limits_stop_reading_early() {
        let lim = Limits {
            max_bytes: 40,
            max_line_bytes: 16,
        };
        let ok = "pool pages=10\n1 get 1 1\n";
        assert!(parse_reader(ok.as_bytes(), lim).is_ok());
        let e = parse_reader("pool pages=10 old_blocks_pct=5\n".as_bytes(), lim).unwrap_err();
        assert!(e.contains("line 1") && e.contains("16 bytes"), "{e}");
        let e = parse_reader(
            "pool pages=10\n1 get 1 1\n2 get 1 1\n3 get 1 1\n".as_bytes(),
            lim,
        )
        .unwrap_err();
        assert!(e.contains("line 4") && e.contains("40 bytes"), "{e}");
        // An endless line without a newline is refused after the limit, not read to the end.
        let endless = std::io::BufReader::new(std::io::repeat(b'7'));
        let e = parse_reader(endless, Limits::default()).unwrap_err();
        assert!(e.contains("longer than the limit of 4096 bytes"), "{e}");
        assert!(e.len() < 300, "{e}");
    }

    #[test]
    fn errors_quote_at_most_80_characters() {
        let long = format!("pool pages=10\n1 get 1 {}\n", "9x".repeat(500_000));
        let e = parse(&long).unwrap_err();
        assert!(e.contains("line 2"), "{e}");
        assert!(e.len() < 3 * MAX_QUOTE_CHARS + 100, "{} bytes", e.len());
        let e = parse("pool pages=10\n1 get 1 \u{1}\n").unwrap_err();
        assert!(e.contains("\\u{1}"), "{e}");
        let e = parse_reader(&b"pool pages=10\n1 get 1 \xff\n"[..], Limits::default()).unwrap_err();
        assert!(e.contains("line 2: not UTF-8"), "{e}");
        assert_eq!(quote("abc"), "abc");
        assert_eq!(quote(&"é".repeat(100)).chars().count(), MAX_QUOTE_CHARS + 3);
    }

    #[test]
    fn clamps_like_the_server_with_a_warning() {
        let t = parse("pool pages=10 lru_scan_depth=5 old_blocks_pct=99\n").unwrap();
        assert_eq!(t.pool.lru_scan_depth, 100);
        assert_eq!(t.pool.old_blocks_pct, 95);
        assert_eq!(t.warnings.len(), 2);
    }

    #[test]
    fn small_replay_end_state() {
        let text = "pool pages=4 old_blocks_pct=37 old_blocks_time_ms=1000 lru_scan_depth=100\n\
                    1 get 7 1\n2 get 7 2\n3 create 7 3\n4 get 7 4\n5 get 7 5\n6 get 7 1\n";
        let r = replay(&parse(text).unwrap()).unwrap();
        // 4 frames: page 5 evicts page 1 (the tail), and re-reading page 1 evicts page 2.
        assert_eq!(r.evictions, 2);
        assert_eq!(r.freed_page_clock, 2);
        assert_eq!(r.reads, 5);
        assert_eq!(r.free, 0);
        // Under 512 pages every insert is at the head and nothing is old.
        let order: Vec<u64> = r.lru.iter().map(|e| e[1]).collect();
        assert_eq!(order, vec![1, 5, 4, 3]);
        assert!(r.lru.iter().all(|e| e[2] == 0));
    }
}
