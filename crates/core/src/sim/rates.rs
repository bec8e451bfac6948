//! Rates a DBA can enter, turned into the per-operation CPU times the simulation runs with.
//!
//! `idle_lookups_per_s`: the lookup clients' rate on an otherwise idle server when every lookup
//! hits. A hit costs only its CPU time, so each closed-loop thread runs `1e6 / lookup_cpu_us`
//! lookups a second, and the threads run side by side (on `min(threads, cpus)` CPUs in the
//! processor-sharing model).
//!
//! `idle_scan_pages_per_s`: the rate of a scan pass over pages that are not in the pool, on an
//! otherwise idle server. The pass waits for its synchronous reads and for read-ahead in flight
//! as well as for its CPU, so the per-page CPU time is found by running such a pass on an empty
//! pool of the run's size: the whole number of µs (the scan rounds its cost to whole µs) whose
//! pass rate is nearest the input.

use crate::clock::Micros;
use crate::pool::BufferPool;
use crate::scenario::Params;
use crate::workload::{ScanState, TableScan};

/// The longest calibration pass, pages: enough for hundreds of read-ahead areas.
const CALIBRATION_PAGES: u32 = 16_384;

/// The longest CPU time a lookup rate may derive, µs (1,000 s): past it a lookup's clock would
/// run off the end of time.
const SLOWEST_LOOKUP_CPU_US: f64 = 1e9;

/// The parameters with `lookup_cpu_us` and `scan_cpu_us_per_page` derived from the idle rates,
/// where given (0: not given, the CPU times stand). Errors when a rate cannot be reached.
pub fn derived(p: &Params) -> Result<Params, String> {
    let mut q = p.clone();
    if p.idle_lookups_per_s > 0.0 && p.lookup_threads > 0 {
        let parallel = if p.cpus > 0 {
            p.lookup_threads.min(p.cpus)
        } else {
            p.lookup_threads
        };
        q.lookup_cpu_us = parallel as f64 * 1e6 / p.idle_lookups_per_s;
        if q.lookup_cpu_us < 1.0 {
            return Err(format!(
                "idle_lookups_per_s = {} is more than {} lookup thread(s) can run at 1 µs of CPU each ({} /s)",
                p.idle_lookups_per_s,
                parallel,
                parallel as f64 * 1e6
            ));
        }
        if q.lookup_cpu_us > SLOWEST_LOOKUP_CPU_US {
            return Err(format!(
                "idle_lookups_per_s = {} is below one lookup per {} s on each of {} lookup thread(s): give 0 to use lookup_cpu_us, or a rate of at least {}",
                p.idle_lookups_per_s,
                SLOWEST_LOOKUP_CPU_US / 1e6,
                parallel,
                parallel as f64 * 1e6 / SLOWEST_LOOKUP_CPU_US
            ));
        }
    }
    if p.idle_scan_pages_per_s > 0.0 {
        q.scan_cpu_us_per_page = scan_cpu_for_rate(p, p.idle_scan_pages_per_s)? as f64;
    }
    Ok(q)
}

/// Pages per second of one idle scan pass over pages not in the pool, with `cpu_us` per page.
pub fn idle_scan_rate(p: &Params, cpu_us: f64) -> f64 {
    let pages = p.scan_table_pages().min(CALIBRATION_PAGES);
    let cfg = p
        .pool_config()
        .with_frames(p.frames_per_instance().max(pages + 64), 1);
    let mut pool = BufferPool::new(cfg, &[pages]);
    let mut scan = TableScan::new(0, pages, p.engine.fetch_mode(p.scan_mode));
    scan.touches_per_page = p.scan_touches_per_page;
    scan.cpu_per_page_us = cpu_us;
    scan.looping = false;
    let start: Micros = 1;
    let mut t = start;
    while scan.state != ScanState::Done {
        match scan.step(&mut pool, t) {
            (_, Some(next)) => t = next,
            (Some(op), None) => t = op.next_at,
            (None, None) => break,
        }
    }
    pages as f64 * 1e6 / (t - start).max(1) as f64
}

/// The whole µs of CPU per page whose idle pass rate is nearest `rate`.
fn scan_cpu_for_rate(p: &Params, rate: f64) -> Result<u32, String> {
    let fastest = idle_scan_rate(p, 1.0);
    if rate > fastest * 1.05 {
        return Err(format!(
            "idle_scan_pages_per_s = {rate} is faster than the modelled storage allows: at most {fastest:.0} pages/s with read_latency_us = {} and page_transfer_us = {}",
            p.read_latency_us, p.page_transfer_us
        ));
    }
    // The rate falls as the CPU time grows: the largest c whose rate is still >= `rate`.
    let (mut lo, mut hi) = (1u32, 100_000u32);
    if idle_scan_rate(p, hi as f64) >= rate {
        return Ok(hi);
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if idle_scan_rate(p, mid as f64) >= rate {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let d = |c: u32| (idle_scan_rate(p, c as f64) - rate).abs();
    Ok(if d(hi) < d(lo) { hi } else { lo })
}
