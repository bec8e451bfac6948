#![allow(dead_code)] // each fuzz target uses one of these checks
//! The checks behind the fuzz targets (`fuzz/fuzz_targets/*.rs`, cargo-fuzz, nightly) and their
//! stable-toolchain property-test equivalent (`tests/fuzz_props.rs`): one source for both.
//! Each takes arbitrary input and must return without a panic, a hang or an unbounded error.

use midpoint_core::cost;
use midpoint_core::scenario::Params;
use midpoint_core::sim;
use midpoint_policies::policy::innodb::{Innodb, InnodbConfig};
use midpoint_policies::policy::{by_name, Policy, NAMES};
use midpoint_policies::replay::{parse_reader, replay, Limits};
use midpoint_policies::trace::oracle::{OracleReader, RECORD};
use midpoint_policies::trace::text::{Layout, TextReader};
use midpoint_policies::trace::{Remap, Request};

/// Longest error message a standard trace reader may produce, bytes.
pub const MAX_READER_ERROR_BYTES: usize = 400;

/// Every request of a reader, or its error (checked short and one line).
fn drain(mut next: impl FnMut() -> Result<Option<Request>, String>) -> Vec<Request> {
    let mut v = Vec::new();
    loop {
        match next() {
            Ok(Some(q)) => v.push(q),
            Ok(None) => return v,
            Err(e) => {
                assert!(
                    e.len() <= MAX_READER_ERROR_BYTES,
                    "a {}-byte error",
                    e.len()
                );
                assert!(!e.contains('\n'), "a multi-line error: {e}");
                return v;
            }
        }
    }
}

/// Arbitrary bytes as an oracleGeneral trace: what is accepted obeys the format's rules.
pub fn oracle_bytes(data: &[u8]) {
    let n = (data.len() / RECORD) as u64;
    let mut r = OracleReader::new(data).with_records(n);
    let reqs = drain(|| r.next_request());
    let mut last = 0;
    for (i, q) in reqs.iter().enumerate() {
        assert!(q.t_us >= last, "record {i}: time went back");
        last = q.t_us;
        assert!(
            q.next == u64::MAX || (q.next > i as u64 && q.next < n),
            "record {i}: next {}",
            q.next
        );
    }
}

/// Arbitrary bytes as a one-id-a-line text trace.
pub fn txt_bytes(data: &[u8]) {
    let mut r = TextReader::new(data, Layout::Txt);
    let reqs = drain(|| r.next_request());
    assert!(reqs.len() <= data.len() / 2 + 1);
}

/// Arbitrary bytes as a CSV trace; the first byte picks the column and the header flag.
pub fn csv_bytes(data: &[u8]) {
    let (sel, body) = data.split_first().map_or((0, data), |(a, b)| (*a, b));
    let layout = Layout::Csv {
        column: 1 + (sel & 7) as usize,
        header: sel & 8 != 0,
    };
    let mut r = TextReader::new(body, layout);
    drain(|| r.next_request());
}

/// Arbitrary bytes as an oracleGeneral trace replayed through every policy, with a cache size
/// from the first two bytes: whatever the timestamps say, the work is bounded by the number
/// of requests (the InnoDB policy's executed LRU batches are counted).
pub fn policy_replay(data: &[u8]) {
    let (pages, body) = if data.len() >= 2 {
        (
            1 + u16::from_le_bytes([data[0], data[1]]) as u32 % 2048,
            &data[2..],
        )
    } else {
        (1, data)
    };
    let n = (body.len() / RECORD) as u64;
    // Timestamps are allowed to go back here, so that the policies see them too.
    let mut r = OracleReader::new(body)
        .with_records(n)
        .allow_decreasing_time(true);
    let reqs = drain(|| r.next_request());
    let mut remap = Remap::default();
    let dense: Vec<u32> = reqs
        .iter()
        .map(|q| remap.dense(q.id).expect("few ids"))
        .collect();
    let run = |p: &mut dyn Policy| {
        let mut hits = 0u64;
        for (q, &d) in reqs.iter().zip(&dense) {
            hits += p.access(d, q.t_us, q.next) as u64;
        }
        assert!(hits <= reqs.len() as u64);
        for &d in &dense[..dense.len().min(64)] {
            let _ = p.contains(d);
        }
    };
    for name in NAMES {
        if name == "innodb" {
            let mut p = Innodb::new(pages.max(2), remap.len(), InnodbConfig::default())
                .expect("a valid configuration");
            run(&mut p);
            assert!(p.batches_run() <= 3 * reqs.len() as u64 + 3);
        } else {
            run(by_name(name, pages).expect("a known policy").as_mut());
        }
    }
}

/// Longest error message a hostile trace may produce, in bytes (two quotations of at most 80
/// characters, each escaped control character at most 10 bytes, plus the explanation).
pub const MAX_TRACE_ERROR_BYTES: usize = 2 * 80 * 10 + 300;

/// The trace parser and, for small traces, the replay.
pub fn trace_bytes(data: &[u8]) {
    let limits = Limits {
        max_bytes: 1 << 16,
        max_line_bytes: 512,
    };
    match parse_reader(data, limits) {
        Ok(trace) => {
            if trace.pool.pages <= 4096 && trace.events.len() <= 5000 {
                if let Ok(r) = replay(&trace) {
                    assert_eq!(r.lru.len() as u64 + r.free as u64, trace.pool.pages as u64);
                }
            }
        }
        Err(e) => assert!(
            e.len() <= MAX_TRACE_ERROR_BYTES,
            "a {}-byte error message",
            e.len()
        ),
    }
}

/// Parameters from `name=value` lines, as the CLI's flags and the page's URL give them: set,
/// validated, estimated, and (when small) simulated.
pub fn params_text(text: &str) -> Outcome {
    let mut p = Params::default();
    for line in text.lines().take(64) {
        let Some((k, v)) = line.split_once('=') else {
            continue;
        };
        if p.set(k.trim(), v).is_err() {
            return Outcome::Refused;
        }
    }
    if p.validate().is_err() {
        return Outcome::Refused;
    }
    let e = cost::estimate(&p);
    assert!(
        e.work >= 0.0 && e.wall_s >= 0.0 && e.simulated_s >= 0.0,
        "{e:?}"
    );
    let small = p.pool_mb <= 64
        && p.scan_table_mb <= 64
        && p.hot_table_pages <= 65_536
        && e.simulated_s <= 60.0
        && e.work <= 2_000_000.0;
    if !small {
        return Outcome::Estimated;
    }
    match sim::run(&p) {
        Ok(r) => {
            assert!(
                r.kept.is_nan() || (0.0..=1.0).contains(&r.kept),
                "kept {}",
                r.kept
            );
            serde_json::to_string(&r).expect("a report serializes");
            Outcome::Simulated
        }
        Err(_) => Outcome::Refused,
    }
}

/// How far [`params_text`] got.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A value was refused (a clear error, not a panic).
    Refused,
    /// Valid, estimated, too big to simulate here.
    Estimated,
    /// Valid and simulated to the end.
    Simulated,
}
