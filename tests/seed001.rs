//! Seed 001 (MySQL bug #115328), scaled down (see `src/seed001.rs`), plus seed 003's read-write
//! half and the write-heavy `lru_scan_depth` trade-off.
//!
//! What matches and is asserted: the doublewrite file's counters (the bug: 8.3× fewer writes at
//! 9.7× the average latency with 128 pages than with 16; band 4..12 and 4..16). What does not
//! match and is NOT asserted: the throughput direction (the bug: 128 pages 5.8 % slower on 16
//! threads, 12.5 % on 64; the simulator has 128 pages a few per cent faster). Only the size is
//! checked: the two settings stay within 12 % of each other, as in the bug.

use midpoint::seed001::{checks, depth_sweep, run, seed003_rw};

#[test]
fn seed001_doublewrite_counters_match_the_bug() {
    let rows = run(|_, _| {});
    let c = checks(&rows);
    let dblwr: Vec<_> = c.iter().filter(|x| x.0.starts_with("dblwr")).collect();
    assert_eq!(dblwr.len(), 2);
    for (label, seed, sim, band, ok) in &dblwr {
        assert!(
            ok,
            "{label}: seed {seed:.2}, simulated {sim:.2}, band {band:?}"
        );
    }
    for (label, _seed, sim, _band, _ok) in c.iter().filter(|x| x.0.contains("throughput")) {
        // Figure: 22,852 vs 24,259 and 35,491 vs 40,553 queries/s. Size only (see above).
        assert!((0.88..=1.12).contains(sim), "{label}: {sim:.3}");
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
    // Figure: a concurrent scan costs read-write sysbench 42 % with the Plugin's defaults.
    // Tolerance: ±15 points. (The seed's 34 % with old_blocks_pct 5 / old_blocks_time 1 is not
    // reproduced: the simulator loses more with it; see the README.)
    let rows = seed003_rw(|_, _| {});
    let d = &rows[0].report;
    assert!((0.27..=0.57).contains(&d.scan_loss), "{d:?}");
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
