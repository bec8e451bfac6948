#![allow(dead_code)] // each fuzz target uses one of these checks
//! The checks behind the fuzz targets (`fuzz/fuzz_targets/*.rs`, cargo-fuzz, nightly) and their
//! stable-toolchain property-test equivalent (`tests/fuzz_props.rs`): one source for both.
//! Each takes arbitrary input and must return without a panic, a hang or an unbounded error.

use midpoint_core::cost;
use midpoint_core::scenario::Params;
use midpoint_core::sim;
use midpoint_lab::replay::{parse_reader, replay, Limits};

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
