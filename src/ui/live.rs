//! The page's live runs, as a worker computes them for the residency plot: one run at a time,
//! replaced whenever a slider moves; its samples handed out as they are produced; and a copy
//! of the last runs taken at the scan's start (one per RNG seed and warm-up, as a worker runs
//! the seeds of an ensemble in turn), so that a run which differs from one only in parameters
//! acting from the scan's start on (`sim::prefix`) continues that copy instead of starting from
//! t = 0. The results are the same either way (`crates/core/tests/prefix.rs`).

use midpoint_core::scenario::Params;
use midpoint_core::sim::Simulation;
use midpoint_lab::runs::Run;

/// Snapshots a worker keeps: enough for the seeds of the page's default ensemble.
pub const SNAPSHOTS: usize = 6;

/// The worker's runs: the current one and the snapshots at the scan's start of the last ones
/// that got there (at most [`SNAPSHOTS`], the most recent last).
#[derive(Default)]
pub struct LiveRuns {
    run: Option<Run>,
    /// Stopped before the scan's start, ready for [`Simulation::resume_with`].
    snapshots: Vec<Simulation>,
    /// The current run started from zero and has not reached the scan's start yet: it
    /// becomes the snapshot there.
    to_snapshot: bool,
    /// Samples of the current run handed out so far.
    sent: usize,
}

impl LiveRuns {
    /// No run yet.
    pub fn new() -> LiveRuns {
        LiveRuns::default()
    }

    /// Starts a run of `p`, dropping the current one; returns whether it continues the
    /// snapshot (true) or starts from t = 0.
    pub fn start(&mut self, p: &Params) -> Result<bool, String> {
        self.run = None;
        self.sent = 0;
        if let Some(i) = self.snapshots.iter().rposition(|s| s.can_resume_with(p)) {
            // The one used goes last: the least recently used is dropped first.
            let s = self.snapshots.remove(i);
            let mut sim = s.clone();
            self.snapshots.push(s);
            sim.resume_with(p)?;
            self.run = Some(Run::from_sim(sim));
            self.to_snapshot = false;
            return Ok(true);
        }
        self.run = Some(Run::new(p)?);
        self.to_snapshot = true;
        Ok(false)
    }

    /// Runs up to `max_events` more events of the current run (taking the snapshot when it
    /// reaches the scan's start); returns the share of virtual time done (1 = over, or no run).
    pub fn advance(&mut self, max_events: u32) -> f64 {
        let Some(run) = self.run.as_mut() else {
            return 1.0;
        };
        if self.to_snapshot {
            let start = run.sim.scan_start();
            let mut left = max_events.max(1);
            while left > 0 && run.sim.step_before(start) {
                left -= 1;
            }
            if left == 0 {
                return run.progress();
            }
            self.to_snapshot = false;
            if run.sim.before_scan_start() && run.sim.params().scan_s > 0 {
                if self.snapshots.len() >= SNAPSHOTS {
                    self.snapshots.remove(0);
                }
                self.snapshots.push(run.sim.clone());
            }
            return run.advance(left);
        }
        run.advance(max_events)
    }

    /// The current run.
    pub fn sim(&self) -> Option<&Simulation> {
        self.run.as_ref().map(|r| &r.sim)
    }

    /// The current run's samples not handed out yet, as `[t_s, hot_resident, scan_young]`
    /// triplets.
    pub fn take_points(&mut self) -> Vec<f64> {
        let Some(run) = self.run.as_ref() else {
            return Vec::new();
        };
        let new = &run.sim.samples()[self.sent.min(run.sim.samples().len())..];
        self.sent += new.len();
        new.iter()
            .flat_map(|s| [s.t_s, s.hot_resident as f64, s.scan_young as f64])
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use midpoint_core::scenario::preset;

    fn small() -> Params {
        Params {
            warmup_s: 3,
            scan_s: 6,
            kept_window_s: 3,
            ..preset("small-demo").unwrap().params
        }
    }

    fn finish(live: &mut LiveRuns) -> Vec<f64> {
        let mut pts = Vec::new();
        while live.advance(997) < 1.0 {
            pts.extend(live.take_points());
        }
        pts.extend(live.take_points());
        pts
    }

    #[test]
    fn a_run_of_the_scans_settings_continues_the_snapshot_with_the_same_samples() {
        let a = small();
        let b = Params {
            scan_pause_ms: 400,
            ..a.clone()
        };
        let mut live = LiveRuns::new();
        assert!(!live.start(&a).unwrap());
        let pa = finish(&mut live);
        assert_eq!(pa.len(), 3 * live.sim().unwrap().samples().len());
        assert!(
            live.start(&b).unwrap(),
            "the pause acts after the scan starts"
        );
        let pb = finish(&mut live);
        let mut zero = Simulation::new(&b).unwrap();
        zero.run_to_end();
        let want: Vec<f64> = zero
            .samples()
            .iter()
            .flat_map(|s| [s.t_s, s.hot_resident as f64, s.scan_young as f64])
            .collect();
        assert_eq!(pb, want);
        assert_eq!(
            format!("{:?}", live.sim().unwrap().report()),
            format!("{:?}", zero.report())
        );
        let deeper = Params {
            lru_scan_depth: 512,
            ..a.clone()
        };
        assert!(
            !live.start(&deeper).unwrap(),
            "the depth acts in the warm-up"
        );
    }

    #[test]
    fn each_seed_of_an_ensemble_keeps_its_own_snapshot() {
        let mut live = LiveRuns::new();
        let seeds = [1u64, 2, 3];
        for &seed in &seeds {
            assert!(!live.start(&Params { seed, ..small() }).unwrap());
            finish(&mut live);
        }
        for &seed in seeds.iter().rev() {
            let b = Params {
                seed,
                scan_pause_ms: 400,
                ..small()
            };
            assert!(
                live.start(&b).unwrap(),
                "seed {seed} continues its own snapshot"
            );
            let got = finish(&mut live);
            let mut zero = Simulation::new(&b).unwrap();
            zero.run_to_end();
            assert_eq!(got.len(), 3 * zero.samples().len());
            assert_eq!(
                got[got.len() - 2],
                zero.samples().last().unwrap().hot_resident as f64
            );
        }
        // Past SNAPSHOTS seeds, the least recently used is dropped.
        for seed in 10..10 + SNAPSHOTS as u64 {
            live.start(&Params { seed, ..small() }).unwrap();
            finish(&mut live);
        }
        let first = Params {
            seed: 1,
            scan_pause_ms: 400,
            ..small()
        };
        assert!(!live.start(&first).unwrap());
    }

    #[test]
    fn a_run_replaced_before_the_scan_leaves_the_old_snapshot() {
        let a = small();
        let mut live = LiveRuns::new();
        live.start(&a).unwrap();
        finish(&mut live);
        let deeper = Params {
            lru_scan_depth: 512,
            ..a.clone()
        };
        live.start(&deeper).unwrap();
        live.advance(10);
        let later = Params {
            scan_s: 4,
            kept_window_s: 2,
            ..a.clone()
        };
        assert!(live.start(&later).unwrap());
        assert_eq!(live.advance(u32::MAX), 1.0);
        assert_eq!(LiveRuns::new().advance(5), 1.0);
        assert!(LiveRuns::new().take_points().is_empty());
    }
}
