//! The InnoDB run's access stream, recorded from outside the simulation: every
//! [`Event::Lookup`] and [`Event::ScanPage`] the simulation's `step` returns is one page
//! request at the simulation's clock. A scanned page's several touches (its cursor restores,
//! microseconds apart) are one request here; the preload of a warm or cold start comes first,
//! in the order the simulation loads it.

use midpoint_core::metrics::RunReport;
use midpoint_core::pool::PageId;
use midpoint_core::scenario::{Params, Start};
use midpoint_core::sim::{Event, Simulation, EPOCH, FILLER_SPACE, HOT_SPACE, SCAN_SPACE};

/// A scenario's page requests as dense ids: the hot table's pages first, then the scanned
/// table's, then the filler table's.
#[derive(Clone, Debug, Default)]
pub struct Recording {
    /// Request times, µs of simulated time.
    pub t_us: Vec<u64>,
    /// Requested pages, as dense ids.
    pub ids: Vec<u32>,
    /// Whether the InnoDB run found each page in the pool, already used (preload requests:
    /// false). A scanned page that linear read-ahead brought in before the scan reached it
    /// counts as a miss, as it would in a cache without read-ahead.
    pub hit: Vec<bool>,
    /// Requests before this index are the preload.
    pub preload: usize,
    /// Requests before this index precede the scan phase.
    pub scan_from: usize,
    /// Dense id layout: hot table `0..hot_table`, scanned table `hot_table..scan_end`, filler
    /// table `scan_end..`.
    pub hot_table: u32,
    pub scan_end: u32,
    /// Distinct ids.
    pub universe: u32,
    /// The scanned table's share of the pool's frames, sampled once a second over the
    /// window "kept" averages over.
    pub scan_share_samples: Vec<f64>,
}

impl Recording {
    /// The dense id of a page of the scenario.
    pub fn dense(&self, page: PageId) -> u32 {
        match page.space {
            HOT_SPACE => page.page_no,
            SCAN_SPACE => self.hot_table + page.page_no,
            _ => self.scan_end + page.page_no,
        }
    }
}

/// The most memory a recording of `params` takes, bytes: its page requests
/// ([`midpoint_core::cost::requests`], an upper bound) at 13 bytes each (time, id, hit), twice
/// that while the lists grow.
pub fn memory_estimate(params: &Params) -> u64 {
    (midpoint_core::cost::requests(params) * 26.0) as u64
}

/// Runs the scenario's InnoDB simulation to its end, recording its page requests. Returns the
/// recording and the run's report.
pub fn record(params: &Params) -> Result<(Recording, RunReport), String> {
    let mut sim = Simulation::new(params)?;
    let p = sim.params().clone();
    let n_scan = p.scan_table_pages();
    let filler = if p.start == Start::Cold {
        p.frames_per_instance() * p.buffer_pool_instances
    } else {
        0
    };
    let mut r = Recording {
        hot_table: p.hot_table_pages,
        scan_end: p.hot_table_pages + n_scan,
        universe: p.hot_table_pages + n_scan + filler,
        ..Recording::default()
    };
    // The preload, as `Simulation::preload` does it.
    match p.start {
        Start::Warm => {
            let total = n_scan as u64 + p.hot_table_pages as u64;
            let mut k = 0u64;
            for (space, n) in [(SCAN_SPACE, n_scan), (HOT_SPACE, p.hot_table_pages)] {
                for page_no in 0..n {
                    let t = 1 + k * (EPOCH - 2) / total.max(1);
                    r.push(t, r.dense(PageId { space, page_no }), false);
                    k += 1;
                }
            }
        }
        // After a restart nothing is loaded before the warm-up.
        Start::Restart => {}
        Start::Cold => {
            for page_no in 0..filler {
                let t = 1 + page_no as u64 * (EPOCH / 2) / filler.max(1) as u64;
                let id = r.dense(PageId {
                    space: FILLER_SPACE,
                    page_no,
                });
                r.push(t, id, false);
            }
        }
    }
    r.preload = r.ids.len();
    let scan_start = sim.scan_start();
    let (w0, w1) = window(&p, scan_start, sim.end());
    let mut sample_at = w0;
    let frames = (p.frames_per_instance() * p.buffer_pool_instances) as f64;
    let mut scan_from = None;
    loop {
        let ev = sim.step();
        let now = sim.now();
        while sample_at <= now.min(w1) {
            let (y, o) = sim.pool.resident(SCAN_SPACE);
            r.scan_share_samples.push((y + o) as f64 / frames);
            sample_at += midpoint_core::clock::SEC;
        }
        if scan_from.is_none() && now >= scan_start {
            scan_from = Some(r.ids.len());
        }
        match ev {
            Event::Lookup { page, hit, .. } => {
                let id = r.dense(page);
                r.push(now, id, hit);
            }
            Event::ScanPage { page, hit } => {
                // A page the scan's read-ahead brought in is first accessed now: for a
                // demand-paged cache that request is a miss.
                let first_use = sim.pool.frame_of(page).is_none_or(|g| {
                    let (i, f) = sim.pool.split_frame(g);
                    sim.pool.instances[i].access_time(f) >= now
                });
                let id = r.dense(page);
                r.push(now, id, hit && !first_use);
            }
            Event::End => break,
            _ => {}
        }
    }
    r.scan_from = scan_from.unwrap_or(r.ids.len());
    Ok((r, sim.report()))
}

/// The window "kept" and the scan's share average over: the last `kept_window_s` seconds of
/// the scan phase (µs, from and to).
pub fn window(p: &Params, scan_start: u64, end: u64) -> (u64, u64) {
    let from = end
        .saturating_sub(p.kept_window_s as u64 * midpoint_core::clock::SEC)
        .max(scan_start.min(end));
    (from, end)
}

impl Recording {
    fn push(&mut self, t: u64, id: u32, hit: bool) {
        self.t_us.push(t);
        self.ids.push(id);
        self.hit.push(hit);
    }
}
