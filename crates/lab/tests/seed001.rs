//! Seed 001 (MySQL bug #115328), scaled down (see `crates/lab/src/experiments/seed001.rs`),
//! plus seed 003's read-write half and the write-heavy `lru_scan_depth` trade-off.
//!
//! What matches and is asserted: the doublewrite file's counters (the bug: 8.3× fewer writes at
//! 9.7× the average latency with 128 pages than with 16; each ratio ± 30 %). Only the latency
//! ratio is a prediction: the writes' ratio follows from the batch sizes (128 / 16 = 8 once the
//! batches fill), so the ledger marks it an input, checked but not counted. What does not
//! match and is NOT asserted: the throughput direction (the bug: 128 pages 5.8 % slower on 16
//! threads, 12.5 % on 64; the simulator has 128 pages a few per cent faster). Only the size is
//! checked: the two settings stay within 12 % of each other, as in the bug. So 1 of 3
//! predictions is in band.

use midpoint_lab::experiments::depth_sweep::depth_sweep;
use midpoint_lab::experiments::figure::{describe_failures, failed, score, Measured, Role};
use midpoint_lab::experiments::seed001::{checks, run};
use midpoint_lab::experiments::seed003_rw::{self, seed003_rw};

#[test]
fn seed001_doublewrite_counters_match_the_bug() {
    let rows = run(|_, _| {});
    let c = checks(&rows);
    let dblwr: Vec<_> = c
        .iter()
        .filter(|x| x.figure.what.starts_with("dblwr"))
        .cloned()
        .collect();
    assert_eq!(dblwr.len(), 2);
    assert!(failed(&dblwr).is_empty(), "{}", describe_failures(&dblwr));
    // The writes' ratio is an input (the batch sizes set it), the latency ratio a prediction.
    for x in &dblwr {
        let input = x.figure.what.starts_with("dblwr writes");
        assert_eq!(x.figure.role == Role::Input, input, "{x:?}");
        assert_eq!(x.figure.counts(), !input, "{x:?}");
    }
    // Counted: the latency ratio (in band) and the two throughput ratios (out, below).
    assert_eq!(score(&c), (1, 3), "{}", describe_failures(&c));
    let throughput: Vec<_> = c
        .iter()
        .filter(|x| x.figure.what.contains("throughput"))
        .collect();
    assert_eq!(throughput.len(), 2);
    for x in throughput {
        // The direction is a known mismatch, explained beside the figure: it stays out of band
        // until the model gets it right (then the note and the README must change).
        assert_eq!(x.holds, Some(false), "{x:?}");
        assert!(x.figure.note.starts_with("does not match"), "{x:?}");
        // Figure: 22,852 vs 24,259 and 35,491 vs 40,553 queries/s. Size only (see above).
        let Measured::Number(sim) = x.measured else {
            panic!("{x:?}")
        };
        assert!((0.88..=1.12).contains(&sim), "{}: {sim:.3}", x.figure.what);
    }
    for r in &rows {
        // Bytes: each page goes once through the doublewrite file, in batches of at most
        // innodb_doublewrite_pages.
        let m = &r.report;
        assert!(
            m.dblwr.batch_writes * r.doublewrite_pages as u64
                >= m.dblwr.pages - m.dblwr.single_writes
        );
        assert!(m.qps > 10_000.0, "{m:?}");
    }
}

#[test]
fn seed003_read_write_scan_costs_about_the_seeds_loss() {
    // Figure: a concurrent scan costs read-write sysbench 42 % with the Plugin's defaults; band
    // and reason in `seed003_rw::checks`. Counted too: the seed's direction, that the tuned
    // settings (old_blocks_pct 5, old_blocks_time 1: 34 %) lose less than the defaults. The
    // model reverses it, a known miss with its reason (docs/reproduction.md); the test fails if
    // the default figure leaves its band or the direction starts to hold without the ledger
    // saying so.
    let rows = seed003_rw(|_, _| {});
    let c = seed003_rw::checks(&rows);
    assert_eq!(c.iter().filter(|x| x.holds.is_some()).count(), 2);
    let misses = failed(&c);
    assert_eq!(misses.len(), 1, "{}", describe_failures(&c));
    assert!(
        misses[0].figure.what.starts_with("the tuned settings"),
        "{}",
        describe_failures(&c)
    );
    // The band is the seed's 42 % ± 10 points.
    let (lo, hi) = c[0].figure.band().expect("a band");
    assert!(
        (lo - 0.32).abs() < 1e-9 && (hi - 0.52).abs() < 1e-9,
        "{lo} {hi}"
    );
    for r in &rows {
        assert!(r.report.tps > 0.0 && r.report.tps_with_scan > 0.0);
        assert!(r.report.scan_loss > 0.0 && r.report.scan_loss < 1.0);
    }
}

#[test]
fn shallow_lru_scan_depth_makes_writers_wait_deep_refills_cost_throughput() {
    let rows = depth_sweep(&[128, 512, 4096], |_, _| {});
    let wf: Vec<f64> = rows.iter().map(|r| r.report.wait_free_per_s).collect();
    // Free-list waits fall as the refill grows.
    assert!(wf[0] > wf[1] && wf[1] > wf[2], "{wf:?}");
    assert!(wf[0] > 5.0 * wf[2], "{wf:?}");
    // With the scan, the deepest refill (more LRU flushing on the same device) is slower than
    // the middle one.
    let tps: Vec<f64> = rows.iter().map(|r| r.report.tps_with_scan).collect();
    assert!(tps[1] > tps[2], "{tps:?}");
}
