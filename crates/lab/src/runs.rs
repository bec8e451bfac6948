//! A full run's data as the page and the command line see it: the residency series a worker
//! streams ([`Point`]), the summary of a run ([`RunData`]), a run advanced in slices so that a
//! worker can report progress ([`Run`]), and the LRU batches' times the residency plot marks.

use midpoint_core::clock::Micros;
use midpoint_core::metrics::Sample;
use midpoint_core::pool::page_cleaner::BatchReport;
use midpoint_core::scenario::Params;
use midpoint_core::sim::{Simulation, EPOCH};
use serde::{Deserialize, Serialize};
/// One point of the residency time series, as the worker sends it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Point {
    /// Seconds since the warm-up started.
    pub t: f64,
    /// Hot-set pages resident.
    pub hot: u32,
    /// Scanned-table pages young.
    pub scan_young: u32,
}

/// The summary of a full run, computed in a worker.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RunData {
    /// Mean hot-set residency over the measurement window (0..1, NaN without samples).
    pub kept: f64,
    /// The window, seconds since the warm-up started.
    pub kept_window_s: [f64; 2],
    /// Scanned-table pages turned young per second of scanning, by the slide.
    pub slid_young_per_s: f64,
    /// ... by promotion from the old sublist.
    pub promoted_per_s: f64,
    /// Lookups per second during the scan phase.
    pub lookups_per_s: f64,
    /// Lookups per second during the warm-up.
    pub lookups_per_s_warmup: f64,
    /// Scan pages per second.
    pub scan_pages_per_s: f64,
    /// LRU batches that evicted pages during the scan phase.
    pub refills_during_scan: u64,
    /// Their mean size.
    pub mean_refill_pages: f64,
    /// Page accesses in the run.
    pub page_accesses: u64,
    /// Events in the run.
    pub events: u64,
    /// The time series (at most the requested number of points).
    pub points: Vec<Point>,
    /// When LRU batches evicted pages, s since the warm-up started (one per 0.1 s at most),
    /// for the residency plot's refill marks.
    #[serde(default)]
    pub refills_s: Vec<f64>,
    /// What the scenario cannot do in its pool (`Params::warnings`: a hot set or a scan that
    /// cannot fit), as the CLI prints them on stderr.
    #[serde(default)]
    pub warnings: Vec<String>,
}

/// The times (s) of the batches that evicted pages, at most one per `bucket_s`.
pub fn refill_times(batches: &[BatchReport], bucket_s: f64) -> Vec<f64> {
    let mut out: Vec<f64> = Vec::new();
    for b in batches.iter().filter(|b| b.evicted > 0) {
        let t = b.at_us.saturating_sub(EPOCH) as f64 / 1e6;
        if out.last().is_none_or(|&l| t - l >= bucket_s) {
            out.push(t);
        }
    }
    out
}

/// Converts worker points to samples for the chart.
pub fn samples_of(points: &[Point]) -> Vec<Sample> {
    points
        .iter()
        .map(|q| Sample {
            t_s: q.t,
            hot_resident: q.hot,
            scan_young: q.scan_young,
            ..Sample::default()
        })
        .collect()
}

/// The summary of a finished (or partial) run, with at most `max_points` points of its time
/// series (the last sample always included).
pub fn run_data(sim: &Simulation, max_points: u32) -> RunData {
    let r = sim.report();
    let every = r.samples.len().div_ceil(max_points.max(2) as usize).max(1);
    let mut points: Vec<Point> = r
        .samples
        .iter()
        .step_by(every)
        .map(|s| Point {
            t: s.t_s,
            hot: s.hot_resident,
            scan_young: s.scan_young,
        })
        .collect();
    if let Some(last) = r.samples.last() {
        if points.last().map(|q| q.t) != Some(last.t_s) {
            points.push(Point {
                t: last.t_s,
                hot: last.hot_resident,
                scan_young: last.scan_young,
            });
        }
    }
    RunData {
        kept: r.kept,
        kept_window_s: r.kept_window_s,
        slid_young_per_s: r.slid_young_per_s,
        promoted_per_s: r.promoted_per_s,
        lookups_per_s: r.lookups_per_s,
        lookups_per_s_warmup: r.lookups_per_s_warmup,
        scan_pages_per_s: r.scan_pages_per_s,
        refills_during_scan: r.refills_during_scan,
        mean_refill_pages: r.mean_refill_pages,
        page_accesses: r.counters.page_gets,
        events: sim.events(),
        points,
        refills_s: refill_times(&r.batches, 0.1),
        warnings: sim.params().warnings(),
    }
}

/// A full run advanced in slices, so that a worker can report progress.
pub struct Run {
    pub sim: Simulation,
    done: bool,
}

impl Run {
    /// A run with these parameters.
    pub fn new(p: &Params) -> Result<Run, String> {
        Ok(Run::from_sim(Simulation::new(p)?))
    }

    /// Continues `sim` (a run from a snapshot, `ui::live`).
    pub fn from_sim(sim: Simulation) -> Run {
        Run { sim, done: false }
    }

    /// Runs up to `max_events` more events; returns the share of virtual time done (1 = over).
    pub fn advance(&mut self, max_events: u32) -> f64 {
        // run_events: the same events as one step() each, with the scan's pages run back to
        // back while nothing else can come first (crates/core/tests/fast_paths.rs holds it to stepping).
        if !self.done && self.sim.run_events(max_events.max(1) as u64) {
            self.done = true;
        }
        self.progress()
    }

    /// The share of virtual time done (1 = over).
    pub fn progress(&self) -> f64 {
        if self.done {
            return 1.0;
        }
        let span = self.sim.end().saturating_sub(EPOCH).max(1) as f64;
        let now: Micros = self.sim.now().saturating_sub(EPOCH);
        (now as f64 / span).min(0.999_999)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use midpoint_core::scenario::preset;

    fn small() -> Params {
        Params {
            warmup_s: 5,
            scan_s: 20,
            kept_window_s: 10,
            ..preset("small-demo").unwrap().params
        }
    }

    #[test]
    fn a_run_reports_progress_and_a_bounded_series() {
        let mut r = Run::new(&small()).unwrap();
        let mut last = 0.0;
        loop {
            let f = r.advance(50_000);
            assert!(f >= last && f <= 1.0);
            last = f;
            if f >= 1.0 {
                break;
            }
        }
        let d = run_data(&r.sim, 50);
        assert!((0.0..=1.0).contains(&d.kept), "kept {}", d.kept);
        assert!(
            d.points.len() <= 51 && d.points.len() >= 25,
            "{}",
            d.points.len()
        );
        let last = r.sim.report().samples.last().unwrap().t_s;
        assert_eq!(d.points.last().unwrap().t, last);
        assert!(d.points.windows(2).all(|w| w[0].t < w[1].t));
        let s = samples_of(&d.points);
        assert_eq!(s.len(), d.points.len());
        assert_eq!(s[3].hot_resident, d.points[3].hot);
    }
}

#[cfg(test)]
mod refill_tests {
    use super::*;

    #[test]
    fn refill_marks_follow_the_runs_evicting_batches_on_the_sample_clock() {
        let p = Params::default();
        let mut sim = Simulation::new(&p).unwrap();
        sim.run_to_end();
        let d = run_data(&sim, 50);
        let evicting = sim.batches().iter().filter(|b| b.evicted > 0).count();
        assert!(evicting > 0 && !d.refills_s.is_empty());
        assert!(d.refills_s.len() <= evicting);
        let end = d.points.last().map_or(0.0, |q| q.t);
        assert!(
            d.refills_s.iter().all(|&t| t >= 0.0 && t <= end + 1.0),
            "{d:?}"
        );
        assert!(d.refills_s.windows(2).all(|w| w[1] - w[0] >= 0.1 - 1e-9));
    }
}
