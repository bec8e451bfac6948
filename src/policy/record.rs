//! The InnoDB run's access stream, recorded from outside the simulation: every
//! [`Event::Lookup`] and [`Event::ScanPage`] the simulation's `step` returns is one page
//! request at the simulation's clock. A scanned page's several touches (its cursor restores,
//! microseconds apart) are one request here; the preload of a warm or cold start comes first,
//! in the order the simulation loads it.

use crate::metrics::RunReport;
use crate::pool::PageId;
use crate::scenario::{Params, Start};
use crate::sim::{Event, Simulation, EPOCH, FILLER_SPACE, HOT_SPACE, SCAN_SPACE};

/// A scenario's page requests as dense ids: the hot table's pages first, then the scanned
/// table's, then the filler table's.
#[derive(Clone, Debug, Default)]
pub struct Recording {
    /// Request times, µs of simulated time.
    pub t_us: Vec<u64>,
    /// Requested pages, as dense ids.
    pub ids: Vec<u32>,
    /// Whether the InnoDB run found each page in the pool (preload requests: false).
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
    let mut scan_from = None;
    loop {
        let ev = sim.step();
        let now = sim.now();
        if scan_from.is_none() && now >= scan_start {
            scan_from = Some(r.ids.len());
        }
        match ev {
            Event::Lookup { page, hit, .. } | Event::ScanPage { page, hit } => {
                let id = r.dense(page);
                r.push(now, id, hit);
            }
            Event::End => break,
            _ => {}
        }
    }
    r.scan_from = scan_from.unwrap_or(r.ids.len());
    Ok((r, sim.report()))
}

impl Recording {
    fn push(&mut self, t: u64, id: u32, hit: bool) {
        self.t_us.push(t);
        self.ids.push(id);
        self.hit.push(hit);
    }
}
