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

use crate::clock::Micros;
use crate::pool::{BufferPool, FetchMode, PageId, PoolConfig};
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

fn err(line: usize, text: &str, why: impl std::fmt::Display) -> String {
    format!("line {line}: {why}: '{}'", text.trim())
}

/// Parses a trace. Errors name the line, its text and what is wrong.
pub fn parse(text: &str) -> Result<Trace, String> {
    let mut pool: Option<TracePool> = None;
    let mut events = Vec::new();
    let mut warnings = Vec::new();
    let mut last_t: f64 = 0.0;
    for (idx, raw) in text.lines().enumerate() {
        let line = idx + 1;
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
                    .ok_or_else(|| err(line, raw, format!("'{w}' is not key=value")))?;
                if !known.contains(&k) {
                    return Err(err(
                        line,
                        raw,
                        format!("unknown pool setting '{k}' (known: {})", known.join(", ")),
                    ));
                }
                let n: u64 = v
                    .parse()
                    .map_err(|_| err(line, raw, format!("{k} = '{v}' is not a whole number")))?;
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
                        "pages = {pages} is out of range: allowed 1 ..= {MAX_TRACE_POOL_PAGES}"
                    ),
                ));
            }
            let mut clamp = |k: &str, v: u64, lo: u64, hi: u64| -> u32 {
                let c = v.clamp(lo, hi);
                if c != v {
                    warnings.push(format!(
                        "line {line}: {k} = {v} is outside {lo} ..= {hi}; using {c}, as the server would"
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
            .ok_or_else(|| err(line, raw, format!("'{}' is not a time in ms", words[0])))?;
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
                    format!("space '{}' is not a number 0 ..= 2^32-1", words[2]),
                )
            })?;
            let page = words[3].parse().map_err(|_| {
                err(
                    line,
                    raw,
                    format!("page '{}' is not a number 0 ..= 2^32-1", words[3]),
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
                    format!("unknown operation '{other}' (get, scan, create, lru_batch)"),
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
    let cfg = PoolConfig {
        frames_per_instance: trace.pool.pages,
        instances: 1,
        old_blocks_pct: trace.pool.old_blocks_pct,
        old_blocks_time_ms: trace.pool.old_blocks_time_ms,
        lru_scan_depth: trace.pool.lru_scan_depth,
        read_ahead_threshold: 0,
        read_latency_us: 0,
        page_transfer_us: 0,
        ..PoolConfig::default()
    };
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
        if let Some(crate::pool::Fetch::NoFreeFrame { .. }) = outcome {
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
