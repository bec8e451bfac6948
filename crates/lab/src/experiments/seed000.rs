//! **Scan leak on MySQL 8.4 (seed 000).** A hot set of point lookups (224, 897 or 4,485 pages)
//! shares a 256 MB pool with a 746 MB table scanned in a loop; the seed measured how much of the
//! hot set stays cached, how fast the scanned table's pages turn young, and how
//! `innodb_lru_scan_depth`, `innodb_old_blocks_time` and a pause between passes change it.
//!
//! Each figure carries the preset that reproduces it, the metric that measures it in a run, its
//! band and the band's reason. `midpoint reproduce` prints them as a table; `tests/seed000.rs`
//! fails when a checked figure leaves its band. `midpoint calibrate` shows the one fit.

use super::figure::{check, Check, Figure, Measured, Role, COUNT_TOLERANCE, SHARE_TOLERANCE};
use super::table::{Align, Table};
use crate::chart::Published;
use midpoint_core::metrics::{mean, RunReport, Summary};
use midpoint_core::pool::page_cleaner::Cadence;
use midpoint_core::scenario::{preset, Params, Start};
use midpoint_core::sim;
use serde::Serialize;
use std::ops::Deref;

/// The experiment's title.
pub const TITLE: &str = "Scan leak on MySQL 8.4 (seed 000)";

// ---- Runs: every call into the simulation, in one place. ----

/// The parameters a row runs with, for seed `seed`.
pub fn row_params(r: &Row, seed: u64) -> Params {
    let mut p = preset(&r.preset).expect("rows name real presets").params;
    for (k, val) in &r.overrides {
        p.set(k, val).expect("valid override");
    }
    p.seed = seed;
    p
}

/// One run of a row.
fn simulate(r: &Row, seed: u64) -> RunReport {
    sim::run(&row_params(r, seed)).expect("presets are valid")
}

/// One cold-start run with activity events every `mean_interval_s` on average (the calibration).
fn simulate_cold_start(mean_interval_s: f64, seed: u64) -> RunReport {
    let p = Params {
        start: Start::Cold,
        cleaner: Cadence::AfterActivity {
            mean_interval_ms: (mean_interval_s * 1000.0) as u32,
        },
        seed,
        ..Params::default()
    };
    sim::run(&p).expect("valid")
}

// ---- The figures. ----

/// What to measure in a run.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub enum Metric {
    /// Mean hot-set residency over the last 110 s of the scan phase (fraction).
    Kept,
    /// Hot-set residency this many seconds into the scan phase (fraction).
    HotResidentAt(f64),
    /// Hot-set pages resident, mean over the scan phase after this many seconds.
    HotPagesRangeAfter(f64),
    /// Net growth of the scanned table's young pages per second of scanning.
    NetYoungGrowth,
    /// The scanned table's young pages at the end.
    ScanYoungEnd,
    /// Seconds into the scan phase when the filler's young pages are gone.
    FillerYoungGoneAt,
    /// Lookups per second during the warm-up.
    LookupsWarmup,
    /// Lookups per second over the last 30 s.
    LookupsLast30,
    /// Mean seconds per scan pass.
    SecondsPerPass,
    /// Mean free-list length during the warm-up.
    FreeDuringWarmup,
    /// Pages turned young by the slide per refill.
    SlidPerRefill,
}

/// One figure of the seed and the run that measures it.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// The figure, its band and the band's reason.
    pub figure: Figure,
    /// Preset to run.
    pub preset: String,
    /// Parameter overrides on top of the preset.
    pub overrides: Vec<(String, String)>,
    /// What to measure.
    pub metric: Metric,
}

/// A row reads as its figure (`row.seed_value`, `row.what`, ...).
impl Deref for Row {
    type Target = Figure;
    fn deref(&self) -> &Figure {
        &self.figure
    }
}

fn row(figure: Figure, preset: &str, metric: Metric) -> Row {
    Row {
        figure,
        preset: preset.into(),
        overrides: Vec::new(),
        metric,
    }
}

const NOT_PUBLISHED: &str = "not published";

/// Why the 224-page cells do not discriminate.
const SATURATED_224: &str = "every page-cleaner cadence the calibration tried keeps 95-99 % of a 224-page hot set: the band cannot tell them apart";

/// The seed's precision on a hot-page count at depth 128: 2 points of the 4,485-page set.
const HOT_PRECISION_PAGES: f64 = 0.02 * 4485.0;

/// A share the seed gives as one number: ±[`SHARE_TOLERANCE`], and never beyond 0 % or 100 %.
fn share(what: &str, seed_value: &str, figure: f64) -> Figure {
    let lo = (figure - SHARE_TOLERANCE).max(0.0);
    let hi = (figure + SHARE_TOLERANCE).min(1.0);
    let clamp = match (lo == 0.0, hi == 1.0) {
        (true, _) => ", cut at 0 %",
        (_, true) => ", cut at 100 %",
        _ => "",
    };
    Figure::within(
        what,
        seed_value,
        lo,
        hi,
        &format!(
            "stated tolerance: {:.0} % ± {:.0} points{clamp}",
            figure * 100.0,
            SHARE_TOLERANCE * 100.0
        ),
    )
    .published(figure, figure)
}

/// A count, rate or time the seed gives as one number: ±[`COUNT_TOLERANCE`] of it.
fn count(what: &str, seed_value: &str, figure: f64) -> Figure {
    Figure::within(
        what,
        seed_value,
        figure * (1.0 - COUNT_TOLERANCE),
        figure * (1.0 + COUNT_TOLERANCE),
        &format!(
            "stated tolerance: {figure} ± {:.0} %",
            COUNT_TOLERANCE * 100.0
        ),
    )
    .published(figure, figure)
}

/// A figure the seed gives as a range over its runs or over time: the band is that range.
fn spread(what: &str, seed_value: &str, lo: f64, hi: f64) -> Figure {
    Figure::within(what, seed_value, lo, hi, "the seed's own spread").published(lo, hi)
}

/// The table's rows. `long` adds the 10-minute runs. Predictions first (the kept grid, then the
/// rest), then the figures an input sets or the calibration fitted.
pub fn rows(long: bool) -> Vec<Row> {
    use Metric::*;
    let mut v = Vec::new();
    // The kept-% grid. The seed publishes only some cells as numbers; the others are shown.
    for hot in [224u32, 897, 4485] {
        for pause in ["b2b", "pause500", "pause2000"] {
            for t0 in [false, true] {
                let name = format!("seed000-hot{hot}-{pause}{}", if t0 { "-t0" } else { "" });
                let what = format!(
                    "kept, {hot}-page hot set, {}, old_blocks_time {}",
                    match pause {
                        "b2b" => "back to back",
                        "pause500" => "0.5 s pause",
                        _ => "2 s pause",
                    },
                    if t0 { 0 } else { 1000 }
                );
                let figure = match (hot, pause, t0) {
                    (4485, "b2b", false) => share(&what, "41 %", 0.41),
                    (4485, "b2b", true) => share(&what, "7 %", 0.07),
                    (4485, "pause2000", false) => share(&what, "89 %", 0.89),
                    (224, _, false) => share(&what, "~100 % (\"nothing displaced it\")", 1.0)
                        .does_not_discriminate(SATURATED_224),
                    (897, "b2b", false) => Figure::within(
                        &what,
                        "< 50 % (\"still lost more than half\")",
                        0.0,
                        0.50,
                        "the seed states a bound, not a number: less than half kept",
                    )
                    .published(0.0, 0.50)
                    .note("does not match: the simulated 897-page set comes back every ~0.37 s and always wins the young-sublist contest; the seed itself could not explain its loss (\"return time isn't the whole story\")"),
                    _ => Figure::shown(&what, NOT_PUBLISHED, ""),
                };
                v.push(row(figure, &name, Kept));
            }
        }
    }
    v.push(row(
        spread(
            "kept with innodb_lru_scan_depth 128 (4,485 pages, back to back)",
            "91-93 %",
            0.91,
            0.93,
        )
        .note("does not match: the simulation keeps a few points more than either of the seed's two runs, as it keeps more hot pages after 140 s (next row): its leak at depth 128 is slower than the server's, for a reason not traced yet"),
        "seed000-hot4485-b2b-depth128",
        Kept,
    ));
    v.push(row(
        Figure::within(
            "hot pages cached after 140 s of scanning at depth 128",
            "3,830 (still shrinking)",
            3830.0 - HOT_PRECISION_PAGES,
            3830.0 + HOT_PRECISION_PAGES,
            "the seed's own precision: its two runs at depth 128 agree to 2 points of the hot set (kept 91-93 %), so 3,830 ± 2 % of 4,485 pages",
        )
        .published(3830.0, 3830.0)
        .note("does not match: the simulation keeps more hot pages at depth 128 than the server did, as in the kept row above (its leak at depth 128 is slower than the server's, for a reason not traced yet)"),
        "seed000-hot4485-b2b-depth128",
        HotPagesRangeAfter(140.0),
    ));
    v.push(row(
        count(
            "scan pages turned young per refill at depth 1024 (the seed: about 63 % of a refill; the largest refill it caught was about 900 pages)",
            "~550 per ~900-page refill",
            550.0,
        ),
        "seed000-hot4485-b2b",
        SlidPerRefill,
    ));
    v.push(row(
        Figure::shown(
            "scan pages turned young per refill at depth 128 (the reference's arithmetic: ~41)",
            "not measured",
            "shown: the seed measured no refill at depth 128",
        ),
        "seed000-hot4485-b2b-depth128",
        SlidPerRefill,
    ));
    v.push(row(
        share(
            "kept, cold start (\"still fully cached at the end of 150 seconds\")",
            "100 %",
            1.0,
        )
        .does_not_discriminate("every page-cleaner cadence the calibration tried keeps 95-99 % of the hot set from the cold start: the band cannot tell them apart"),
        "seed000-cold",
        Kept,
    ));
    v.push(row(
        share(
            "warm start: hot set cached 40 s into the scan",
            "~80 %",
            0.80,
        ),
        "seed000-hot4485-b2b",
        HotResidentAt(40.0),
    ));
    v.push(row(
        spread(
            "warm start: hot set cached after 140 s of scanning",
            "7-15 %",
            0.07,
            0.15,
        )
        .note("does not match: the simulated warm start loses its hot set more slowly after the first minute; the cadence is calibrated on the cold start, and the seed's warm runs (just after loading 750 MB) may have seen more page-cleaner rounds than its cold runs"),
        "seed000-hot4485-b2b",
        HotResidentAt(140.0),
    ));
    if long {
        v.push(row(
            count(
                "10-minute cold run: the filler's young pages run out (s into the scan)",
                "~120 s",
                120.0,
            )
            .note("does not match: the simulated filler's young pages last longer than the seed's two minutes and vary widely between runs; why is not traced yet"),
            "seed000-cold-10min",
            FillerYoungGoneAt,
        ));
        v.push(row(
            spread(
                "10-minute cold run: hot pages cached in the last 5 minutes",
                "100-1,300",
                100.0,
                1300.0,
            ),
            "seed000-cold-10min",
            HotPagesRangeAfter(300.0),
        ));
        v.push(row(
            count(
                "10-minute cold run: scanned table's young pages at the end",
                "~10,150",
                10150.0,
            )
            .capacity("the young sublist's capacity (~10,300 pages at old_blocks_pct 37): any run that scans long enough fills it with scan pages, whatever the dynamics"),
            "seed000-cold-10min",
            ScanYoungEnd,
        ));
        v.push(row(
            spread(
                "10-minute warm run: hot pages cached in the last 5 minutes",
                "100-1,300",
                100.0,
                1300.0,
            ),
            "seed000-warm-10min",
            HotPagesRangeAfter(300.0),
        ));
    }
    // Inputs and calibration: shown and checked, but they say nothing the model was not told.
    v.push(row(
        count(
            "scanned table's young pages, growth per second (cold start)",
            "~35 pages/s",
            35.0,
        )
        .calibration("the target: the page-cleaner cadence (after-activity:17) was chosen to give it (`midpoint calibrate`)"),
        "seed000-cold",
        NetYoungGrowth,
    ));
    v.push(row(
        count(
            "scanned table's young pages after 150 s (cold start)",
            "~5,700",
            5700.0,
        )
        .calibration("the target's growth rate, summed over the 150 s of scanning"),
        "seed000-cold",
        ScanYoungEnd,
    ));
    v.push(row(
        count(
            "scanned table's young pages, growth per second (warm start)",
            "~35 pages/s",
            35.0,
        )
        .input("the warm start, not the model's dynamics: it begins with ~5,200 young scan pages and the young sublist caps them at ~10,300, so any cadence gives about this rate (docs/reproduction.md, \"Calibration\")"),
        "seed000-hot4485-b2b",
        NetYoungGrowth,
    ));
    v.push(row(
        count(
            "lookups per second in the warm-up (no scan)",
            "~5,000",
            5000.0,
        )
        .input("lookup_cpu_us = 200: 5,000 lookups/s on an idle server"),
        "seed000-hot4485-b2b",
        LookupsWarmup,
    ));
    v.push(row(
        count(
            "lookups per second once hot pages come from disk (last 30 s)",
            "~1,500",
            1500.0,
        )
        .calibration("read_latency_us = 270 (no source gives it) and scan_interference = 1.0 were chosen so that 2 × 200 + 270 µs per missing lookup gives 1,493/s"),
        "seed000-hot4485-b2b",
        LookupsLast30,
    ));
    v.push(row(
        spread(
            "seconds per back-to-back pass of the 746 MB table",
            "0.5-2, ~1 on average",
            0.5,
            2.0,
        )
        .input("scan_cpu_us_per_page = 15, derived from the seed's machine"),
        "seed000-hot4485-b2b",
        SecondsPerPass,
    ));
    v.push(row(
        count(
            "free list during the warm-up",
            "~1,000 (just under lru_scan_depth)",
            1000.0,
        )
        .input("lru_scan_depth = 1024: the warm-up's LRU batch fills the free list to it"),
        "seed000-hot4485-b2b",
        FreeDuringWarmup,
    ));
    v
}

// ---- The seed's figures on the plots. ----

/// The seed's figures about the hot set measured with exactly these parameters (any random
/// seed), as marks for the run's residency plot: "kept" over its window, the hot set cached at
/// a moment or over a span, in % of the hot set. Empty when the parameters match no published
/// run (a slider moved away from the seed's settings).
pub fn residency_marks(p: &Params) -> Vec<Published> {
    let scan_start = p.warmup_s as f64;
    let end = (p.warmup_s + p.scan_s) as f64;
    let hot = p.hot_pages.max(1) as f64;
    rows(true)
        .iter()
        .filter(|r| row_params(r, p.seed) == *p)
        .filter_map(|r| {
            let [lo, hi] = r.published?;
            // What each mark measured, in its label: kept over the window, the hot set cached
            // at a moment, or its range over a span.
            let v = &r.seed_value;
            let (x, scale, label) = match r.metric {
                Metric::Kept => (
                    [end - p.kept_window_s as f64, end],
                    100.0,
                    format!("kept {v}"),
                ),
                Metric::HotResidentAt(s) => (
                    [scan_start + s; 2],
                    100.0,
                    format!("{v} cached {s:.0} s in"),
                ),
                Metric::HotPagesRangeAfter(s) => (
                    [scan_start + s, end],
                    100.0 / hot,
                    format!("{v} hot pages cached after {s:.0} s"),
                ),
                _ => return None,
            };
            Some(Published {
                x,
                old_blocks_time: 0,
                pct: [lo * scale, (hi * scale).min(100.0)],
                label,
            })
        })
        .collect()
}

/// The seed's "kept" figures for runs that differ from `p` only in `innodb_lru_scan_depth` and
/// `innodb_old_blocks_time`, as marks for the sweep plot (x: the depth it was measured at).
pub fn sweep_marks(p: &Params) -> Vec<Published> {
    rows(false)
        .iter()
        .filter(|r| r.metric == Metric::Kept)
        .filter_map(|r| {
            let q = row_params(r, p.seed);
            let same = Params {
                lru_scan_depth: q.lru_scan_depth,
                old_blocks_time: q.old_blocks_time,
                ..p.clone()
            };
            if q != same {
                return None;
            }
            let [lo, hi] = r.published?;
            Some(Published {
                x: [q.lru_scan_depth as f64; 2],
                old_blocks_time: q.old_blocks_time,
                pct: [lo * 100.0, hi * 100.0],
                label: r.seed_value.clone(),
            })
        })
        .collect()
}

// ---- Measuring and checking. ----

/// Measures a metric in one run (`NaN` if the run cannot tell).
pub fn measure(m: Metric, r: &RunReport) -> f64 {
    let p = &r.parameters;
    let warm = p.warmup_s as f64;
    let end = warm + p.scan_s as f64;
    let hot = r.hot_pages.max(1) as f64;
    match m {
        Metric::Kept => r.kept,
        Metric::HotResidentAt(t) => r
            .samples
            .iter()
            .min_by(|a, b| {
                (a.t_s - warm - t)
                    .abs()
                    .total_cmp(&(b.t_s - warm - t).abs())
            })
            .map(|s| s.hot_resident as f64 / hot)
            .unwrap_or(f64::NAN),
        Metric::HotPagesRangeAfter(t) => mean(
            r.samples
                .iter()
                .filter(|s| s.t_s >= warm + t)
                .map(|s| s.hot_resident as f64),
        ),
        Metric::NetYoungGrowth => r.scan_young_growth_per_s,
        Metric::ScanYoungEnd => r
            .samples
            .last()
            .map(|s| s.scan_young as f64)
            .unwrap_or(f64::NAN),
        Metric::FillerYoungGoneAt => r
            .samples
            .iter()
            .find(|s| s.t_s >= warm && s.filler_young == 0)
            .map(|s| s.t_s - warm)
            .unwrap_or(f64::NAN),
        Metric::LookupsWarmup => r.lookups_per_s_warmup,
        Metric::LookupsLast30 => mean(
            r.samples
                .iter()
                .filter(|s| s.t_s > end - 30.0)
                .map(|s| s.lookups_per_s),
        ),
        Metric::SecondsPerPass => {
            if r.scan_pages_per_s > 0.0 {
                r.scan_table_pages as f64 / r.scan_pages_per_s
            } else {
                f64::NAN
            }
        }
        Metric::FreeDuringWarmup => mean(
            r.samples
                .iter()
                .filter(|s| s.t_s < warm)
                .map(|s| s.free as f64),
        ),
        Metric::SlidPerRefill => {
            // Every drain of a non-empty free list slides the boundary: one per refill during
            // the scan phase, plus the drain of the free list the warm-up left, if any.
            let refills = r
                .batches
                .iter()
                .filter(|b| b.at_us >= sim::EPOCH + p.warmup_s as u64 * 1_000_000)
                .count();
            let initial = r
                .samples
                .iter()
                .rev()
                .find(|s| s.t_s <= warm)
                .map(|s| (s.free > 0) as usize)
                .unwrap_or(0);
            let drains = refills + initial;
            if drains == 0 {
                f64::NAN
            } else {
                r.slid_young_per_s * p.scan_s as f64 / drains as f64
            }
        }
    }
}

/// A row's outcome over several runs.
#[derive(Clone, Debug, Serialize)]
pub struct RowResult {
    /// Preset, overrides and metric of the row.
    pub preset: String,
    pub overrides: Vec<(String, String)>,
    pub metric: Metric,
    /// The metric in each run.
    pub values: Vec<f64>,
    /// Mean, min, max and median over the runs that could tell.
    pub stats: Summary,
    /// The figure checked against the mean.
    pub check: Check,
    /// Lookups per second during the scan phase, mean over the runs (the seed's rates vary).
    pub lookups_per_s: f64,
}

/// Runs every row with `seeds` runs each (seeds 1..=seeds), sharing runs between rows of the
/// same preset.
pub fn run_rows(
    rows: &[Row],
    seeds: u32,
    progress: impl FnMut(usize, usize) + Send,
) -> Vec<RowResult> {
    let key = |r: &Row| format!("{}{:?}", r.preset, r.overrides);
    // Every distinct setting once, in the rows' order, each with seeds 1..=seeds; the runs go
    // through par_map (every core natively), and come back in this order.
    let mut firsts: Vec<&Row> = Vec::new();
    for r in rows {
        if !firsts.iter().any(|f| key(f) == key(r)) {
            firsts.push(r);
        }
    }
    let jobs: Vec<(&Row, u64)> = firsts
        .iter()
        .flat_map(|r| (1..=seeds as u64).map(move |s| (*r, s)))
        .collect();
    let mut reports =
        crate::ensemble::par_map(&jobs, |(r, s)| simulate(r, *s), progress).into_iter();
    let cache: Vec<(String, Vec<RunReport>)> = firsts
        .iter()
        .map(|r| (key(r), reports.by_ref().take(seeds as usize).collect()))
        .collect();
    let mut out = Vec::new();
    for r in rows {
        let k = key(r);
        let runs = &cache.iter().find(|c| c.0 == k).expect("cached").1;
        let values: Vec<f64> = runs.iter().map(|x| measure(r.metric, x)).collect();
        let stats = Summary::of(values.iter().copied());
        let simulated = if values.len() > 1 {
            format!(
                "{} ({}-{})",
                fmt_metric(r.metric, stats.mean),
                fmt_metric(r.metric, stats.min),
                fmt_metric(r.metric, stats.max)
            )
        } else {
            fmt_metric(r.metric, stats.mean)
        };
        out.push(RowResult {
            preset: r.preset.clone(),
            overrides: r.overrides.clone(),
            metric: r.metric,
            check: check(r.figure.clone(), Measured::Number(stats.mean), simulated),
            values,
            stats,
            lookups_per_s: mean(runs.iter().map(|x| x.lookups_per_s)),
        });
    }
    out
}

/// The checks of a set of results.
pub fn checks(results: &[RowResult]) -> Vec<Check> {
    results.iter().map(|r| r.check.clone()).collect()
}

fn fmt_metric(m: Metric, v: f64) -> String {
    if !v.is_finite() {
        return "-".into();
    }
    match m {
        Metric::Kept | Metric::HotResidentAt(_) => format!("{:.0} %", v * 100.0),
        Metric::SecondsPerPass => format!("{v:.2}"),
        Metric::FillerYoungGoneAt => format!("{v:.0} s"),
        _ => format!("{v:.0}"),
    }
}

fn fmt_band(m: Metric, f: &Figure) -> String {
    match f.band() {
        Some((lo, hi)) => format!(
            "{} to {} ({})",
            fmt_metric(m, lo),
            fmt_metric(m, hi),
            f.reason
        ),
        None => "-".into(),
    }
}

fn verdict(c: &Check) -> String {
    let note = &c.figure.note;
    if !c.figure.discriminates() {
        let held = match c.holds {
            Some(true) => "in band",
            Some(false) => "out of band",
            None => "shown",
        };
        return format!(
            "does not discriminate ({held}; not counted): {}",
            c.figure.indiscriminate
        );
    }
    match (c.holds, note.is_empty()) {
        (Some(true), true) => "in band".into(),
        (Some(true), false) => format!("in band ({note})"),
        (Some(false), true) => "OUT OF BAND".into(),
        (Some(false), false) => format!("OUT OF BAND: {note}"),
        (None, false) => note.clone(),
        (None, true) => "shown".into(),
    }
}

/// The predictions that count toward "in band": (in band, checked).
pub fn score(results: &[RowResult]) -> (usize, usize) {
    let counted: Vec<&RowResult> = results.iter().filter(|r| r.check.figure.counts()).collect();
    let held = counted
        .iter()
        .filter(|r| r.check.holds == Some(true))
        .count();
    (held, counted.len())
}

/// The tables as Markdown: the predictions (what counts), then the figures an input sets or
/// the calibration fitted.
pub fn markdown(results: &[RowResult]) -> String {
    let (held, checked) = score(results);
    let mut s = format!(
        "Predictions: {held} of {checked} checked figures in band; only these count (figures every plausible setting satisfies are marked \"does not discriminate\" and not counted). Rows out of band stay so, with the reason.\n\n"
    );
    let mut t = Table::new([
        ("seed 000 figure", Align::Left),
        ("seed", Align::Right),
        ("simulated (mean; min-max)", Align::Right),
        ("band (reason)", Align::Left),
        ("lookups/s in scans", Align::Right),
        ("check", Align::Left),
    ]);
    for r in results
        .iter()
        .filter(|r| r.check.figure.role == Role::Prediction)
    {
        let f = &r.check.figure;
        t.row([
            f.what.clone(),
            f.seed_value.clone(),
            r.check.simulated.clone(),
            fmt_band(r.metric, f),
            format!("{:.0}", r.lookups_per_s),
            verdict(&r.check),
        ]);
    }
    s.push_str(&t.markdown());
    let inputs: Vec<&RowResult> = results
        .iter()
        .filter(|r| r.check.figure.role != Role::Prediction)
        .collect();
    if !inputs.is_empty() {
        s.push_str("\nInputs and calibration: figures a parameter sets or the calibration fitted. Checked, but they do not count.\n\n");
        let mut t = Table::new([
            ("seed 000 figure", Align::Left),
            ("seed", Align::Right),
            ("simulated (mean; min-max)", Align::Right),
            ("band (reason)", Align::Left),
            ("set by", Align::Left),
            ("check", Align::Left),
        ]);
        for r in inputs {
            let f = &r.check.figure;
            let by = match f.role {
                Role::Calibration => format!("fitted: {}", f.basis),
                Role::Capacity => format!("capacity: {}", f.basis),
                _ => format!("input: {}", f.basis),
            };
            t.row([
                f.what.clone(),
                f.seed_value.clone(),
                r.check.simulated.clone(),
                fmt_band(r.metric, f),
                by,
                verdict(&r.check),
            ]);
        }
        s.push_str(&t.markdown());
    }
    s
}

// ---- The calibration. ----

/// One line of the calibration table.
#[derive(Clone, Debug, Serialize)]
pub struct CalibrationRow {
    pub mean_interval_s: f64,
    pub net_growth: f64,
    pub scan_young_end: f64,
    pub kept: f64,
    pub refills: f64,
}

/// The cold start's leak for one mean activity interval, averaged over `seeds` runs.
pub fn calibration_row(mean_interval_s: f64, seeds: u32) -> CalibrationRow {
    let runs: Vec<RunReport> = (1..=seeds)
        .map(|s| simulate_cold_start(mean_interval_s, s as u64))
        .collect();
    CalibrationRow {
        mean_interval_s,
        net_growth: mean(runs.iter().map(|r| r.scan_young_growth_per_s)),
        scan_young_end: mean(
            runs.iter()
                .map(|r| r.samples.last().map(|x| x.scan_young as f64).unwrap_or(0.0)),
        ),
        kept: mean(runs.iter().map(|r| r.kept)),
        refills: mean(runs.iter().map(|r| r.refills_during_scan as f64)),
    }
}

/// The calibration table as Markdown.
pub fn calibration_markdown(rows: &[CalibrationRow]) -> String {
    let mut t = Table::new([
        ("mean activity interval", Align::Right),
        ("net young growth (pages/s)", Align::Right),
        ("scanned table young at end", Align::Right),
        ("kept", Align::Right),
        ("refills", Align::Right),
    ]);
    for r in rows {
        t.row([
            format!("{} s", r.mean_interval_s),
            format!("{:.1}", r.net_growth),
            format!("{:.0}", r.scan_young_end),
            format!("{:.1} %", r.kept * 100.0),
            format!("{:.1}", r.refills),
        ]);
    }
    t.markdown()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_run_carries_the_seeds_hot_set_figures() {
        let p = preset("seed000-hot4485-b2b").unwrap().params;
        let marks = residency_marks(&p);
        // Each mark says what was measured: kept over the window, the hot set cached at a moment.
        let kept = marks
            .iter()
            .find(|m| m.label == "kept 41 %")
            .expect("kept 41 %");
        assert_eq!(kept.x, [100.0, 210.0]);
        assert_eq!(kept.pct, [41.0, 41.0]);
        let late = marks
            .iter()
            .find(|m| m.label == "7-15 % cached 140 s in")
            .expect("after 140 s");
        assert_eq!(late.x, [200.0, 200.0]);
        assert!((late.pct[0] - 7.0).abs() < 1e-9 && (late.pct[1] - 15.0).abs() < 1e-9);
        assert!(marks
            .iter()
            .any(|m| m.x == [100.0, 100.0] && m.pct == [80.0, 80.0]));
        // Any random seed: the figures are about the settings.
        assert_eq!(
            residency_marks(&Params {
                seed: 9,
                ..p.clone()
            }),
            marks
        );
    }

    #[test]
    fn a_setting_the_seed_never_ran_has_no_marks() {
        let mut p = preset("seed000-hot4485-b2b").unwrap().params;
        p.old_blocks_time = 500;
        assert!(residency_marks(&p).is_empty());
        assert!(residency_marks(&Params::default())
            .iter()
            .all(|m| m.pct[0] <= 100.0));
    }

    #[test]
    fn hot_pages_over_a_span_become_a_share_of_the_hot_set() {
        let p = preset("seed000-hot4485-b2b-depth128").unwrap().params;
        let m = residency_marks(&p);
        let cached = m
            .iter()
            .find(|m| m.label.starts_with("3,830"))
            .expect("3,830 pages");
        assert_eq!(cached.x, [200.0, 210.0]);
        assert!((cached.pct[0] - 3830.0 * 100.0 / 4485.0).abs() < 1e-9);
    }

    #[test]
    fn the_sweep_carries_kept_at_each_depth_and_time_the_seed_ran() {
        let p = preset("seed000-hot4485-b2b").unwrap().params;
        let mut got: Vec<(f64, u32, String)> = sweep_marks(&p)
            .into_iter()
            .map(|m| (m.x[0], m.old_blocks_time, m.label))
            .collect();
        got.sort_by(|a, b| a.partial_cmp(b).unwrap());
        assert_eq!(
            got,
            vec![
                (128.0, 1000, "91-93 %".to_string()),
                (1024.0, 0, "7 %".to_string()),
                (1024.0, 1000, "41 %".to_string()),
            ]
        );
        // Another hot set: other figures (the 224-page set's ~100 %).
        let small = preset("seed000-hot224-b2b").unwrap().params;
        assert!(sweep_marks(&small).iter().all(|m| m.label.contains("100")));
        assert!(!sweep_marks(&small).is_empty());
    }
}
