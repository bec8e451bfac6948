//! The page's ensemble of one setting: N runs with RNG seeds `seed`, `seed + 1`, …, arriving
//! one by one from the workers (the first streamed, the others whole), reduced as they come by
//! the lab's own ensemble code ([`crate::ensemble`]: the median curve, the band per sample,
//! kept's median and range), so that the page and `midpoint run --runs N` say the same.

use crate::ensemble::{self, BandPoint};
use crate::runs::{samples_of, RunData};
use midpoint_core::metrics::{Sample, Summary};
use serde::Serialize;

/// The most runs the page runs per setting (each is a full run in a worker).
pub const PAGE_MAX_RUNS: u32 = 20;
/// Runs per setting when the URL does not say.
pub const PAGE_DEFAULT_RUNS: u32 = 5;

/// The runs of one setting that have arrived, by their place in the seed order.
#[derive(Clone, Debug, Default)]
pub struct RunSet {
    runs: Vec<Option<RunData>>,
}

/// What the caption says of the runs so far.
#[derive(Clone, Debug, Serialize)]
pub struct RunSetSummary {
    /// Runs asked for.
    pub runs: u32,
    /// Runs arrived.
    pub done: u32,
    /// Kept over the arrived runs (median, range, mean).
    pub kept: Summary,
    /// "47 %" or "47 % (29-63 % over 5 runs)", over the arrived runs.
    pub kept_words: String,
    /// The medians over the arrived runs of the caption's other figures.
    pub slid_young_per_s: f64,
    pub promoted_per_s: f64,
    pub refills_during_scan: f64,
    pub mean_refill_pages: f64,
    pub lookups_per_s: f64,
    pub lookups_per_s_warmup: f64,
    pub scan_pages_per_s: f64,
}

/// The parameters of the run at `index` in the seed order (0: `p` itself): `p` with the seed
/// the CLI's `--runs` gives that run, wrapping past 2^53 − 1 to 0 ([`ensemble::seed_of`]), so
/// that every seed the page accepts gives seeds it accepts.
pub fn member_params(
    p: &midpoint_core::scenario::Params,
    index: u32,
) -> midpoint_core::scenario::Params {
    midpoint_core::scenario::Params {
        seed: ensemble::seed_of(p.seed, index),
        ..p.clone()
    }
}

impl RunSet {
    /// Room for `runs` runs (clamped to 1..=[`PAGE_MAX_RUNS`]), none arrived.
    pub fn new(runs: u32) -> RunSet {
        RunSet {
            runs: vec![None; runs.clamp(1, PAGE_MAX_RUNS) as usize],
        }
    }

    /// Runs asked for.
    pub fn total(&self) -> u32 {
        self.runs.len() as u32
    }

    /// Asks for `runs` runs (clamped), keeping those that arrived and still fit.
    pub fn resize(&mut self, runs: u32) {
        self.runs
            .resize(runs.clamp(1, PAGE_MAX_RUNS) as usize, None);
    }

    /// Records the run at `index` in the seed order (0: the parameters' own seed).
    pub fn set(&mut self, index: u32, run: RunData) -> Result<(), String> {
        let n = self.runs.len();
        let slot = self.runs.get_mut(index as usize).ok_or_else(|| {
            format!(
                "run {index} is not one of this setting's {n} runs (0 to {})",
                n - 1
            )
        })?;
        *slot = Some(run);
        Ok(())
    }

    /// The run at `index`, if it has arrived.
    pub fn get(&self, index: u32) -> Option<&RunData> {
        self.runs.get(index as usize).and_then(|r| r.as_ref())
    }

    /// Runs arrived.
    pub fn done(&self) -> u32 {
        self.runs.iter().filter(|r| r.is_some()).count() as u32
    }

    fn arrived(&self) -> impl Iterator<Item = &RunData> {
        self.runs.iter().flatten()
    }

    fn series(&self) -> Vec<Vec<Sample>> {
        self.arrived().map(|r| samples_of(&r.points)).collect()
    }

    /// Hot-set pages resident per sample over the arrived runs (median, range, 10th-90th
    /// percentile); empty for fewer than two runs.
    pub fn band(&self) -> Vec<BandPoint> {
        if self.done() < 2 {
            return Vec::new();
        }
        let s = self.series();
        let refs: Vec<&[Sample]> = s.iter().map(|v| v.as_slice()).collect();
        ensemble::hot_resident_band(&refs)
    }

    /// The per-sample median curve of the arrived runs (hot set resident and scanned table
    /// young; the first run's own samples while it is the only one).
    pub fn median_samples(&self) -> Vec<Sample> {
        let s = self.series();
        let refs: Vec<&[Sample]> = s.iter().map(|v| v.as_slice()).collect();
        ensemble::median_curve(&refs)
    }

    /// What the caption says of the arrived runs.
    pub fn summary(&self) -> RunSetSummary {
        let med = |f: fn(&RunData) -> f64| Summary::of(self.arrived().map(f)).median;
        let kept = Summary::of(self.arrived().map(|r| r.kept));
        RunSetSummary {
            runs: self.total(),
            done: self.done(),
            kept_words: ensemble::kept_words(&kept, self.done() as usize),
            kept,
            slid_young_per_s: med(|r| r.slid_young_per_s),
            promoted_per_s: med(|r| r.promoted_per_s),
            refills_during_scan: med(|r| r.refills_during_scan as f64),
            mean_refill_pages: med(|r| r.mean_refill_pages),
            lookups_per_s: med(|r| r.lookups_per_s),
            lookups_per_s_warmup: med(|r| r.lookups_per_s_warmup),
            scan_pages_per_s: med(|r| r.scan_pages_per_s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runs::{run_data, Run};
    use midpoint_core::scenario::{preset, Params};

    fn short(seed: u64) -> Params {
        Params {
            warmup_s: 4,
            scan_s: 10,
            kept_window_s: 8,
            seed,
            ..preset("seed000-hot4485-b2b").unwrap().params
        }
    }

    fn data(seed: u64) -> RunData {
        let mut r = Run::new(&short(seed)).unwrap();
        while r.advance(200_000) < 1.0 {}
        run_data(&r.sim, 400)
    }

    #[test]
    fn the_page_s_runs_take_the_cli_s_seeds_wrapping_at_the_largest() {
        const MAX: u64 = midpoint_core::scenario::schema::MAX_SAFE_INTEGER;
        for first in [1, 41, MAX - 4, MAX - 1, MAX] {
            let p = short(first);
            let page: Vec<u64> = (0..PAGE_MAX_RUNS)
                .map(|i| member_params(&p, i).seed)
                .collect();
            assert_eq!(
                page,
                crate::ensemble::seeds(first, PAGE_MAX_RUNS),
                "{first}"
            );
            // Every one a seed the parameters accept.
            for s in page {
                let mut q = p.clone();
                q.set("seed", &s.to_string()).unwrap();
                q.validate().unwrap();
            }
        }
        let p = short(MAX);
        assert_eq!(member_params(&p, 0).seed, MAX);
        assert_eq!(member_params(&p, 1).seed, 0);
        assert_eq!(member_params(&p, 4).seed, 3);
        // Nothing but the seed differs.
        assert_eq!(
            Params {
                seed: MAX,
                ..member_params(&p, 3)
            },
            p
        );
    }

    #[test]
    fn the_page_reduces_its_runs_as_the_lab_reduces_an_ensemble() {
        let mut set = RunSet::new(3);
        assert_eq!((set.total(), set.done()), (3, 0));
        assert!(set.set(3, data(1)).is_err(), "only three places");
        // Out of order, as workers finish.
        set.set(2, data(3)).unwrap();
        assert!(set.band().is_empty(), "one run draws no band");
        assert_eq!(
            set.summary().kept_words,
            format!("{:.0} %", data(3).kept * 100.0)
        );
        set.set(0, data(1)).unwrap();
        set.set(1, data(2)).unwrap();
        assert_eq!(set.done(), 3);
        let lab = ensemble::run(&short(1), 3).unwrap();
        let s = set.summary();
        assert_eq!(s.kept, lab.kept, "kept: the lab's median, range and mean");
        assert_eq!(s.kept_words, lab.kept_words());
        assert!(s.kept_words.contains("over 3 runs"), "{}", s.kept_words);
        // The band at the page's points is the lab's band at the same samples.
        let band = set.band();
        assert_eq!(band.len(), set.get(0).unwrap().points.len());
        for b in &band {
            let i = lab
                .hot_resident
                .iter()
                .position(|q| q.t_s == b.t_s)
                .expect("a page point is a sample");
            assert_eq!(*b, lab.hot_resident[i]);
        }
        assert!(
            band.iter().any(|b| b.max > b.min),
            "the runs differ somewhere"
        );
        let med = set.median_samples();
        assert_eq!(med.len(), band.len());
        assert!(med
            .iter()
            .zip(&band)
            .all(|(m, b)| m.hot_resident as f64 >= b.min && m.hot_resident as f64 <= b.max));
    }

    #[test]
    fn the_run_count_is_clamped_and_a_resize_keeps_what_fits() {
        assert_eq!(RunSet::new(0).total(), 1);
        assert_eq!(RunSet::new(99).total(), PAGE_MAX_RUNS);
        let mut set = RunSet::new(2);
        set.set(1, data(2)).unwrap();
        set.resize(4);
        assert_eq!((set.total(), set.done()), (4, 1));
        set.resize(1);
        assert_eq!((set.total(), set.done()), (1, 0));
    }
}
