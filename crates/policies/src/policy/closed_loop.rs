//! The scenario's clients against any policy, closed loop: the point-lookup threads and the
//! table scan of [`midpoint_core::workload`] issue their requests to a [`Policy`] instead of the
//! buffer pool, and each request costs what it costs in the InnoDB run, so a policy that keeps
//! the hot set gets more lookups per second, as the pool does.
//!
//! Costs: a lookup takes its CPU time (slowed by `scan_interference` while the scan runs) plus
//! one page read (`read_latency_us`) when it misses, as a lookup does in the InnoDB run (a
//! synchronous read; random lookups never trigger read-ahead). A scanned page that hits takes
//! its CPU time; one that misses takes what a missed scan page took on average in the InnoDB
//! run, measured from that run (there nearly every scanned page is read, most by linear
//! read-ahead, so this is the scan's pace in the InnoDB run). The scan touches each page
//! `scan_touches_per_page` times over its CPU time, as the workload does. The CPU model
//! (`cpus` > 0) is not followed here.

use super::record::{window, Recording};
use super::Policy;
use midpoint_core::clock::SEC;
use midpoint_core::rng::Rng;
use midpoint_core::scenario::Params;
use midpoint_core::sim::EPOCH;
use midpoint_core::workload::PointLookups;

/// What one closed-loop run measured over the scan phase.
#[derive(Clone, Debug, PartialEq)]
pub struct LoopReport {
    /// Mean hot-set residency over the "kept" window (0..1).
    pub kept: f64,
    /// Page requests of the scan phase (lookups and scanned pages; a page's touches are one).
    pub requests: u64,
    /// ... of which missed.
    pub misses: u64,
    /// Lookups per second during the scan phase.
    pub lookups_per_s: f64,
    /// The scanned table's mean share of the cache over the window (0..1).
    pub scan_share: f64,
}

/// Mean time of a scanned page that missed in the InnoDB run, µs: the scan phase's running
/// time (pauses excluded) less the hits' CPU time, over the misses.
pub fn scan_miss_cost_us(p: &Params, rec: &Recording, passes: u32) -> f64 {
    let mut hits = 0u64;
    let mut misses = 0u64;
    for i in rec.scan_from..rec.ids.len() {
        let id = rec.ids[i];
        if id >= rec.hot_table && id < rec.scan_end {
            if rec.hit[i] {
                hits += 1;
            } else {
                misses += 1;
            }
        }
    }
    let page_cpu = p.scan_cpu_us_per_page.round().max(1.0);
    let running = p.scan_s as f64 * SEC as f64 - passes as f64 * p.scan_pause_ms as f64 * 1000.0;
    if misses == 0 {
        return page_cpu + p.read_latency_us as f64;
    }
    ((running - hits as f64 * page_cpu) / misses as f64).max(page_cpu)
}

/// Runs the scenario `p` against `policy`: the preload of the recording, then the warm-up and
/// the scan phase. `touches` overrides the touches per scanned page.
pub fn run(
    p: &Params,
    rec: &Recording,
    policy: &mut dyn Policy,
    scan_miss_us: f64,
    touches: u32,
) -> LoopReport {
    for i in 0..rec.preload {
        policy.access(rec.ids[i], rec.t_us[i], super::NEVER);
    }
    let lookups = PointLookups {
        space: midpoint_core::sim::HOT_SPACE,
        pages: p.hot_pages,
        cpu_us: p.lookup_cpu_us,
    };
    let mut rng = Rng::new(p.seed);
    let scan_start = EPOCH + p.warmup_s as u64 * SEC;
    let end = scan_start + p.scan_s as u64 * SEC;
    let (w0, w1) = window(p, scan_start, end);
    let mut sample_at = w0;
    let n_scan = rec.scan_end - rec.hot_table;
    let page_cpu = p.scan_cpu_us_per_page.round().max(1.0) as u64;
    let pause = p.scan_pause_ms as u64 * 1000;
    let touches = touches.max(1) as u64;
    let mut lookup_next = vec![EPOCH; p.lookup_threads as usize];
    let mut scan_next = (p.scan_s > 0).then_some(scan_start);
    let mut scan_paused = false;
    let mut cursor = 0u32;
    let (mut requests, mut misses, mut lookups_scan) = (0u64, 0u64, 0u64);
    let mut residency = Residency::default();
    let cache_pages = (p.frames_per_instance() * p.buffer_pool_instances) as f64;
    loop {
        // The earliest client; the scan goes first on a tie, then threads in order.
        let mut best = u64::MAX;
        let mut who = usize::MAX;
        if let Some(t) = scan_next {
            best = t;
        }
        for (i, &t) in lookup_next.iter().enumerate() {
            if t < best {
                best = t;
                who = i;
            }
        }
        while sample_at <= best.min(w1) && sample_at <= w1 {
            residency.sample(p, rec, &*policy, cache_pages);
            sample_at += SEC;
        }
        if best >= end {
            break;
        }
        let in_scan = best >= scan_start;
        if who == usize::MAX {
            // The scan.
            if scan_paused {
                scan_paused = false;
                continue;
            }
            let id = rec.hot_table + cursor;
            let hit = policy.access(id, best, super::NEVER);
            for k in 1..touches {
                policy.access(id, best + page_cpu * k / touches, super::NEVER);
            }
            requests += 1;
            let mut next = best + page_cpu;
            if !hit {
                misses += 1;
                next = best + scan_miss_us.round() as u64;
            }
            cursor += 1;
            if cursor >= n_scan {
                cursor = 0;
                if !p.scan_loop {
                    scan_next = None;
                    continue;
                }
                if pause > 0 {
                    scan_paused = true;
                    next += pause;
                }
            }
            scan_next = Some(next);
        } else {
            let scan_running = in_scan && scan_next.is_some() && !scan_paused;
            let slowdown = if scan_running {
                1.0 + p.scan_interference
            } else {
                1.0
            };
            let page = lookups.pick(&mut rng, p.lookup_dist);
            let hit = policy.access(page, best, super::NEVER);
            let mut next = best + (p.lookup_cpu_us * slowdown).round().max(1.0) as u64;
            if !hit {
                next += p.read_latency_us as u64;
            }
            lookup_next[who] = next;
            if in_scan {
                requests += 1;
                lookups_scan += 1;
                if !hit {
                    misses += 1;
                }
            }
        }
    }
    LoopReport {
        kept: residency.kept(),
        requests,
        misses,
        lookups_per_s: if p.scan_s > 0 {
            lookups_scan as f64 / p.scan_s as f64
        } else {
            0.0
        },
        scan_share: residency.scan_share(),
    }
}

/// Once-a-second samples of what the cache holds: the hot set's share and the scan's share of
/// the cache, averaged over the measured window.
#[derive(Default)]
struct Residency {
    kept_sum: f64,
    share_sum: f64,
    samples: u32,
}

impl Residency {
    fn sample(&mut self, p: &Params, rec: &Recording, policy: &dyn Policy, cache_pages: f64) {
        let hot = (0..p.hot_pages).filter(|&h| policy.contains(h)).count();
        let scan = (rec.hot_table..rec.scan_end)
            .filter(|&s| policy.contains(s))
            .count();
        self.kept_sum += hot as f64 / p.hot_pages.max(1) as f64;
        self.share_sum += scan as f64 / cache_pages;
        self.samples += 1;
    }
    fn kept(&self) -> f64 {
        self.kept_sum / self.samples.max(1) as f64
    }
    fn scan_share(&self) -> f64 {
        self.share_sum / self.samples.max(1) as f64
    }
}

/// Replays the recording's stream open loop through `policy` (for Belady, which needs the
/// future): the same figures, over the same window, except the lookup rate, which is the
/// InnoDB run's by construction.
pub fn open_loop(p: &Params, rec: &Recording, policy: &mut dyn Policy) -> LoopReport {
    let next = crate::trace::next_positions(&rec.ids, rec.universe);
    let scan_start = EPOCH + p.warmup_s as u64 * SEC;
    let end = scan_start + p.scan_s as u64 * SEC;
    let (w0, w1) = window(p, scan_start, end);
    let mut sample_at = w0;
    let cache_pages = (p.frames_per_instance() * p.buffer_pool_instances) as f64;
    let (mut requests, mut misses) = (0u64, 0u64);
    let mut residency = Residency::default();
    for (i, ((&id, &t), &nx)) in rec.ids.iter().zip(&rec.t_us).zip(&next).enumerate() {
        while i >= rec.preload && sample_at <= t.min(w1) {
            residency.sample(p, rec, &*policy, cache_pages);
            sample_at += SEC;
        }
        let hit = policy.access(id, t, nx);
        if i >= rec.scan_from {
            requests += 1;
            if !hit {
                misses += 1;
            }
        }
    }
    LoopReport {
        kept: residency.kept(),
        requests,
        misses,
        lookups_per_s: f64::NAN,
        scan_share: residency.scan_share(),
    }
}
