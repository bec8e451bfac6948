//! Ensembles: one setting run N times with RNG seeds `seed`, `seed + 1`, …, reduced to the
//! median, range and mean of every reported figure and to a per-sample median curve with its
//! bands. The first run's seed is the parameters' own, so an ensemble of one run is exactly
//! `sim::run`.
//!
//! Many runs go through [`par_map`]: on native builds in parallel (rayon, as many threads as the
//! global pool has), on wasm32 one after another. Results come back in input order and every
//! reduction works on that order, so the answer is the same whatever the thread count.

use midpoint_core::metrics::{RunReport, Sample, Summary};
use midpoint_core::scenario::Params;
use midpoint_core::sim;
use serde::Serialize;

/// The largest ensemble the faces accept.
pub const MAX_RUNS: u32 = 50;

/// `f` over `items`, in parallel on native builds, in `items`' order: the policies' crate's
/// (`midpoint_policies::par`), where the policies' comparison runs its rows with it.
pub use midpoint_policies::par::par_map;

/// The RNG seeds of an ensemble of `runs` runs starting from `first`: first, first + 1, …,
/// within the seeds' one range (0 to 2^53 - 1: after the largest comes 0).
pub fn seeds(first: u64, runs: u32) -> Vec<u64> {
    (0..runs).map(|i| seed_of(first, i)).collect()
}

/// The RNG seed of the run at `index` of an ensemble starting from `first` ([`seeds`]' rule,
/// the one the CLI's `--runs` and the page's ensemble both follow).
pub fn seed_of(first: u64, index: u32) -> u64 {
    const MAX: u64 = midpoint_core::scenario::schema::MAX_SAFE_INTEGER;
    first.wrapping_add(index as u64) & MAX
}

/// The parameters of each run of an ensemble of `p`: `p` with its seed, seed + 1, ….
pub fn run_params(p: &Params, runs: u32) -> Vec<Params> {
    seeds(p.seed, runs)
        .into_iter()
        .map(|s| Params {
            seed: s,
            ..p.clone()
        })
        .collect()
}

/// Runs `p` `runs` times (seeds `p.seed`, `p.seed + 1`, …) and reduces the runs.
pub fn run(p: &Params, runs: u32) -> Result<Ensemble, String> {
    run_with_progress(p, runs, |_, _| {})
}

/// [`run`], calling `progress(done, total)` as runs finish.
pub fn run_with_progress(
    p: &Params,
    runs: u32,
    progress: impl FnMut(usize, usize) + Send,
) -> Result<Ensemble, String> {
    if runs == 0 || runs > MAX_RUNS {
        return Err(format!(
            "runs = {runs} is out of range: allowed from 1 to {MAX_RUNS}"
        ));
    }
    p.validate()?;
    let reports = par_map(&run_params(p, runs), sim::run, progress)
        .into_iter()
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Ensemble::of(reports))
}

/// One statistic of the runs, per sample: the median, the range and the 10th-90th percentile.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct BandPoint {
    /// Seconds since the warm-up started.
    pub t_s: f64,
    pub median: f64,
    pub min: f64,
    pub max: f64,
    pub p10: f64,
    pub p90: f64,
}

/// The `q`-quantile (0..=1) of sorted finite values, interpolated linearly between the two
/// nearest ranks (the "type 7" definition spreadsheets use); `NaN` for no values.
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    match sorted.len() {
        0 => f64::NAN,
        1 => sorted[0],
        n => {
            let h = (n - 1) as f64 * q.clamp(0.0, 1.0);
            let lo = h.floor() as usize;
            let hi = (lo + 1).min(n - 1);
            sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
        }
    }
}

impl BandPoint {
    /// The band of `values` at time `t_s` (values that are not finite are left out).
    pub fn of(t_s: f64, values: impl IntoIterator<Item = f64>) -> BandPoint {
        let mut v: Vec<f64> = values.into_iter().filter(|x| x.is_finite()).collect();
        v.sort_by(f64::total_cmp);
        BandPoint {
            t_s,
            median: quantile(&v, 0.5),
            min: v.first().copied().unwrap_or(f64::NAN),
            max: v.last().copied().unwrap_or(f64::NAN),
            p10: quantile(&v, 0.1),
            p90: quantile(&v, 0.9),
        }
    }
}

/// A figure of a run, by name, as the reports carry it.
pub type FigureOf = fn(&RunReport) -> f64;

/// The figures an ensemble summarises besides kept: what `run`'s table reports, by the name
/// of the report's field.
pub const FIGURES: &[(&str, FigureOf)] = &[
    ("young_leak_pages_per_s", |r| r.young_leak_pages_per_s),
    ("slid_young_per_s", |r| r.slid_young_per_s),
    ("promoted_per_s", |r| r.promoted_per_s),
    ("scan_young_growth_per_s", |r| r.scan_young_growth_per_s),
    ("lookups_per_s", |r| r.lookups_per_s),
    ("lookups_per_s_warmup", |r| r.lookups_per_s_warmup),
    ("scan_pages_per_s", |r| r.scan_pages_per_s),
    ("scan_passes", |r| r.scan_passes as f64),
    ("refills_during_scan", |r| r.refills_during_scan as f64),
    ("mean_refill_pages", |r| r.mean_refill_pages),
    ("made_young", |r| r.counters.made_young as f64),
    ("not_made_young", |r| r.counters.not_made_young as f64),
];

/// N runs of one setting and what they say together.
#[derive(Clone, Debug)]
pub struct Ensemble {
    /// The runs, in seed order (the first is the parameters' own seed).
    pub runs: Vec<RunReport>,
    /// Kept over the runs (`n` counts the runs that have a kept figure).
    pub kept: Summary,
    /// Every other figure of [`FIGURES`], in that order.
    pub figures: Vec<(&'static str, Summary)>,
    /// Hot-set pages resident, per sample: median, range and 10th-90th percentile.
    pub hot_resident: Vec<BandPoint>,
    /// The per-sample median of every field of the samples (the median curve).
    pub median_samples: Vec<Sample>,
}

/// The per-sample median of integer counts (the mean of the two middle values for an even
/// count, rounded half up).
fn median_u32(v: &mut [u32]) -> u32 {
    v.sort_unstable();
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        ((v[n / 2 - 1] as u64 + v[n / 2] as u64).div_ceil(2)) as u32
    }
}

fn median_u64(v: &mut [u64]) -> u64 {
    v.sort_unstable();
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        ((v[n / 2 - 1] as u128 + v[n / 2] as u128).div_ceil(2)) as u64
    }
}

fn median_f64(v: &[f64]) -> f64 {
    let mut s: Vec<f64> = v.iter().copied().filter(|x| x.is_finite()).collect();
    s.sort_by(f64::total_cmp);
    quantile(&s, 0.5)
}

/// The median sample of `runs`' samples at index `i` (all runs share the sample times).
fn median_sample(runs: &[&[Sample]], i: usize) -> Sample {
    let u =
        |f: fn(&Sample) -> u32| median_u32(&mut runs.iter().map(|s| f(&s[i])).collect::<Vec<_>>());
    let w =
        |f: fn(&Sample) -> u64| median_u64(&mut runs.iter().map(|s| f(&s[i])).collect::<Vec<_>>());
    let r = |f: fn(&Sample) -> f64| median_f64(&runs.iter().map(|s| f(&s[i])).collect::<Vec<_>>());
    Sample {
        t_s: runs[0][i].t_s,
        hot_resident: u(|s| s.hot_resident),
        hot_young: u(|s| s.hot_young),
        hot_old: u(|s| s.hot_old),
        scan_young: u(|s| s.scan_young),
        scan_old: u(|s| s.scan_old),
        hot_table_young: u(|s| s.hot_table_young),
        filler_young: u(|s| s.filler_young),
        filler_old: u(|s| s.filler_old),
        free: u(|s| s.free),
        lru_len: u(|s| s.lru_len),
        old_len: u(|s| s.old_len),
        lookups_per_s: r(|s| s.lookups_per_s),
        lookup_hit_ratio: r(|s| s.lookup_hit_ratio),
        scan_pages_per_s: r(|s| s.scan_pages_per_s),
        freed_page_clock: w(|s| s.freed_page_clock),
        made_young: w(|s| s.made_young),
        not_made_young: w(|s| s.not_made_young),
        scan_slid_young: w(|s| s.scan_slid_young),
        scan_promoted: w(|s| s.scan_promoted),
    }
}

/// The per-sample bands of `hot_resident` over `runs` (as many samples as the shortest run).
pub fn hot_resident_band(runs: &[&[Sample]]) -> Vec<BandPoint> {
    let n = runs.iter().map(|s| s.len()).min().unwrap_or(0);
    (0..n)
        .map(|i| {
            BandPoint::of(
                runs[0][i].t_s,
                runs.iter().map(|s| s[i].hot_resident as f64),
            )
        })
        .collect()
}

/// The per-sample median of every field of `runs`' samples (as many samples as the shortest
/// run; all runs of one setting share the sample times): the ensemble's median curve.
pub fn median_curve(runs: &[&[Sample]]) -> Vec<Sample> {
    let n = runs.iter().map(|s| s.len()).min().unwrap_or(0);
    (0..n).map(|i| median_sample(runs, i)).collect()
}

impl Ensemble {
    /// Reduces `runs` (in seed order; at least one).
    pub fn of(runs: Vec<RunReport>) -> Ensemble {
        assert!(!runs.is_empty(), "an ensemble has at least one run");
        let kept = Summary::of(runs.iter().map(|r| r.kept));
        let figures = FIGURES
            .iter()
            .map(|(name, f)| (*name, Summary::of(runs.iter().map(f))))
            .collect();
        let series: Vec<&[Sample]> = runs.iter().map(|r| r.samples.as_slice()).collect();
        let hot_resident = hot_resident_band(&series);
        let median_samples = median_curve(&series);
        Ensemble {
            runs,
            kept,
            figures,
            hot_resident,
            median_samples,
        }
    }

    /// The first run: the one `sim::run` of the parameters gives.
    pub fn first(&self) -> &RunReport {
        &self.runs[0]
    }

    /// The summary of a figure of [`FIGURES`] by name.
    pub fn figure(&self, name: &str) -> Option<&Summary> {
        self.figures
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, s)| s)
    }

    /// The RNG seeds of the runs, in order.
    pub fn seeds(&self) -> Vec<u64> {
        self.runs.iter().map(|r| r.parameters.seed).collect()
    }

    /// Kept in words: "47 %" for one run, "47 % (29-63 % over 5 runs)" for more (the median and
    /// the range); "n/a" when no run has a kept figure.
    pub fn kept_words(&self) -> String {
        kept_words(&self.kept, self.runs.len())
    }
}

/// Kept's summary in words (see [`Ensemble::kept_words`]).
pub fn kept_words(kept: &Summary, runs: usize) -> String {
    if kept.n == 0 {
        return "n/a".into();
    }
    let pct = |x: f64| format!("{:.0}", x * 100.0);
    if runs <= 1 {
        format!("{} %", pct(kept.median))
    } else {
        format!(
            "{} % ({}-{} % over {runs} runs)",
            pct(kept.median),
            pct(kept.min),
            pct(kept.max)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn short() -> Params {
        Params {
            warmup_s: 4,
            scan_s: 10,
            kept_window_s: 8,
            ..Params::default()
        }
    }

    #[test]
    fn one_run_is_the_plain_run() {
        let p = short();
        let e = run(&p, 1).unwrap();
        let plain = sim::run(&p).unwrap();
        assert_eq!(
            serde_json::to_string(e.first()).unwrap(),
            serde_json::to_string(&plain).unwrap()
        );
        assert_eq!(e.kept.median, plain.kept);
        assert_eq!(e.kept.min, plain.kept);
        assert_eq!(e.kept.max, plain.kept);
        assert_eq!(e.kept.mean, plain.kept);
        assert_eq!(e.median_samples, plain.samples);
        assert_eq!(e.kept_words(), format!("{:.0} %", plain.kept * 100.0));
    }

    #[test]
    fn runs_use_consecutive_seeds_and_reduce_in_seed_order() {
        let p = Params { seed: 7, ..short() };
        let e = run(&p, 4).unwrap();
        assert_eq!(e.seeds(), vec![7, 8, 9, 10]);
        // The seeds stay within their one range: after 2^53 - 1 comes 0.
        let max = midpoint_core::scenario::schema::MAX_SAFE_INTEGER;
        assert_eq!(seeds(max - 1, 3), vec![max - 1, max, 0]);
        for (i, r) in e.runs.iter().enumerate() {
            let q = Params {
                seed: 7 + i as u64,
                ..short()
            };
            assert_eq!(r.kept, sim::run(&q).unwrap().kept);
        }
        let kept: Vec<f64> = e.runs.iter().map(|r| r.kept).collect();
        assert_eq!(e.kept, Summary::of(kept.iter().copied()));
        // The runs differ (else the ensemble shows nothing).
        assert!(e.kept.max > e.kept.min, "{kept:?}");
        for (i, b) in e.hot_resident.iter().enumerate() {
            let mut v: Vec<f64> = e
                .runs
                .iter()
                .map(|r| r.samples[i].hot_resident as f64)
                .collect();
            v.sort_by(f64::total_cmp);
            assert_eq!(b.min, v[0]);
            assert_eq!(b.max, v[3]);
            assert_eq!(b.median, (v[1] + v[2]) / 2.0);
            assert!(b.p10 >= b.min && b.p10 <= b.median && b.p90 <= b.max && b.p90 >= b.median);
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn the_answer_does_not_depend_on_the_thread_count() {
        let p = short();
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap()
            .install(|| run(&p, 3).unwrap());
        let many = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap()
            .install(|| run(&p, 3).unwrap());
        for (a, b) in one.runs.iter().zip(&many.runs) {
            assert_eq!(
                serde_json::to_string(a).unwrap(),
                serde_json::to_string(b).unwrap()
            );
        }
        assert_eq!(one.hot_resident, many.hot_resident);
        assert_eq!(one.kept, many.kept);
    }

    #[test]
    fn quantiles_interpolate_between_ranks() {
        let v = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert_eq!(quantile(&v, 0.5), 3.0);
        assert_eq!(quantile(&v, 0.1), 1.4);
        assert!((quantile(&v, 0.9) - 4.6).abs() < 1e-12);
        assert_eq!(quantile(&v, 0.0), 1.0);
        assert_eq!(quantile(&v, 1.0), 5.0);
        assert!(quantile(&[], 0.5).is_nan());
        let mut c = [3, 1, 4, 2];
        assert_eq!(median_u32(&mut c), 3); // (2 + 3) / 2 rounded half up
    }

    #[test]
    fn kept_words_name_the_range_and_the_run_count() {
        let s = Summary::of([0.29, 0.47, 0.63, 0.40, 0.55]);
        assert_eq!(kept_words(&s, 5), "47 % (29-63 % over 5 runs)");
        assert_eq!(kept_words(&Summary::of([f64::NAN]), 1), "n/a");
    }

    #[test]
    fn out_of_range_run_counts_are_refused() {
        assert!(run(&short(), 0).unwrap_err().contains("from 1 to 50"));
        assert!(run(&short(), 51).is_err());
    }
}
