//! `--idle-lookups-per-s` and `--idle-scan-pages-per-s`: rates entered as inputs reproduce
//! themselves on an idle run.

use midpoint_core::clock::Micros;
use midpoint_core::scenario::{Params, Start};
use midpoint_core::sim::{Event, Simulation};

fn within(got: f64, want: f64, tol: f64) -> bool {
    (got - want).abs() <= want * tol
}

/// Lookups alone on a warm pool (every lookup hits): the warm-up's rate is the input.
#[test]
fn idle_lookups_per_s_reproduces_its_rate() {
    for (threads, cpus, rate) in [(1u32, 0u32, 7500.0), (4, 0, 20_000.0), (8, 2, 9_000.0)] {
        let p = Params {
            pool_mb: 64,
            hot_pages: 1111,
            hot_table_pages: 1325,
            scan_table_mb: 20,
            lookup_threads: threads,
            cpus,
            idle_lookups_per_s: rate,
            warmup_s: 10,
            scan_s: 0,
            kept_window_s: 1,
            ..Params::default()
        };
        let r = midpoint_core::sim::run(&p).unwrap();
        assert!(
            within(r.lookups_per_s_warmup, rate, 0.05),
            "{threads} threads, {cpus} cpus: {} lookups/s for an input of {rate}",
            r.lookups_per_s_warmup
        );
        // Every lookup hit: the warm start loaded the hot table.
        assert_eq!(r.counters.pages_read, 0);
    }
}

/// A rate so slow that a lookup's CPU time would run past the end of the clock is refused with
/// the slowest rate allowed (it once overflowed the clock), and one just above it runs.
#[test]
fn an_idle_lookup_rate_near_zero_is_refused_not_overflowed() {
    let p = |rate: f64| Params {
        pool_mb: 16,
        hot_pages: 200,
        hot_table_pages: 400,
        scan_table_mb: 16,
        lookup_threads: 2,
        idle_lookups_per_s: rate,
        warmup_s: 2,
        scan_s: 3,
        kept_window_s: 2,
        ..Params::default()
    };
    for rate in [2.1e-270, 1e-9, 0.001] {
        let e = midpoint_core::sim::run(&p(rate)).unwrap_err();
        assert!(
            e.contains("idle_lookups_per_s") && e.contains("at least 0.002"),
            "{e}"
        );
    }
    midpoint_core::sim::run(&p(0.002)).unwrap();
}

/// One pass of a scan over a table not in the pool, nothing else running: its rate is the input.
#[test]
fn idle_scan_pages_per_s_reproduces_its_rate() {
    for (pool_mb, table_mb, rate, latency) in [
        (256u32, 189u32, 24_500.0, 270u32),
        (1024, 746, 10_000.0, 270),
        (256, 100, 3_000.0, 2000),
    ] {
        let p = Params {
            start: Start::Restart,
            pool_mb,
            scan_table_mb: table_mb,
            lookup_threads: 0,
            scan_loop: false,
            read_latency_us: latency,
            idle_scan_pages_per_s: rate,
            warmup_s: 1,
            scan_s: 120,
            kept_window_s: 1,
            ..Params::default()
        };
        let mut sim = Simulation::new(&p).unwrap();
        let start = sim.scan_start();
        let (mut pages, mut last): (u64, Micros) = (0, start);
        loop {
            match sim.step() {
                Event::ScanPage { .. } => {
                    pages += 1;
                    last = sim.now();
                }
                Event::End => break,
                _ => {}
            }
        }
        assert_eq!(pages, p.scan_table_pages() as u64, "the pass ended");
        let got = pages as f64 * 1e6 / (last - start) as f64;
        assert!(
            within(got, rate, 0.05),
            "{table_mb} MiB table: {got:.0} pages/s for an input of {rate}"
        );
    }
}

/// A rate the modelled storage cannot reach is refused with the reason, not run.
#[test]
fn an_unreachable_scan_rate_is_refused() {
    let p = Params {
        read_latency_us: 5000,
        page_transfer_us: 1000,
        idle_scan_pages_per_s: 900_000.0,
        ..Params::default()
    };
    let err = Simulation::new(&p).unwrap_err();
    assert!(err.contains("faster than the modelled storage"), "{err}");
}
