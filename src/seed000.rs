//! Seed 000's figures, each with the preset that reproduces it, the metric that measures it in
//! a run, and the band it must fall in. `midpoint reproduce` prints them as a table; the tests
//! in `tests/seed000.rs` fail when a figure leaves its band.

use crate::metrics::RunReport;
use crate::pool::page_cleaner::Cadence;
use crate::scenario::{preset, Params, Start};
use crate::sim;
use serde::Serialize;

/// What to measure in a run.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub enum Metric {
    /// Mean hot-set residency over the last 110 s of the scan phase (fraction).
    Kept,
    /// Hot-set residency this many seconds into the scan phase (fraction).
    HotResidentAt(f64),
    /// Hot-set pages resident, min and max over the scan phase after this many seconds.
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

/// One figure of the seed and how it is checked.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// What the seed says, quoted by figure.
    pub figure: String,
    /// The seed's value, as text.
    pub seed_value: String,
    /// Preset to run.
    pub preset: String,
    /// Parameter overrides on top of the preset.
    pub overrides: Vec<(String, String)>,
    /// What to measure.
    pub metric: Metric,
    /// The band the simulated mean must fall in, in the metric's unit; `None`: shown, not checked.
    pub band: Option<(f64, f64)>,
    /// Why it does not match, where it does not.
    pub note: String,
}

fn row(
    figure: &str,
    seed_value: &str,
    preset: &str,
    metric: Metric,
    band: Option<(f64, f64)>,
) -> Row {
    Row {
        figure: figure.into(),
        seed_value: seed_value.into(),
        preset: preset.into(),
        overrides: Vec::new(),
        metric,
        band,
        note: String::new(),
    }
}

/// The table's rows. `long` adds the 10-minute runs.
pub fn rows(long: bool) -> Vec<Row> {
    use Metric::*;
    let mut v = Vec::new();
    // The kept-% grid. The seed publishes only some cells as numbers; the others are shown.
    for hot in [224u32, 897, 4485] {
        for pause in ["b2b", "pause500", "pause2000"] {
            for t0 in [false, true] {
                let name = format!("seed000-hot{hot}-{pause}{}", if t0 { "-t0" } else { "" });
                let (seed_value, band, note): (&str, Option<(f64, f64)>, &str) =
                    match (hot, pause, t0) {
                        (4485, "b2b", false) => ("41 %", Some((0.30, 0.55)), ""),
                        (4485, "b2b", true) => ("7 %", Some((0.0, 0.20)), ""),
                        (4485, "pause2000", false) => ("89 %", Some((0.80, 0.98)), ""),
                        (224, _, false) => ("~100 % (\"nothing displaced it\")", Some((0.97, 1.0)), ""),
                        (897, "b2b", false) => (
                            "< 50 % (\"still lost more than half\")",
                            None,
                            "does not match: the simulated 897-page set comes back every ~0.37 s and always wins the young-sublist contest; the seed itself could not explain its loss (\"return time isn't the whole story\")",
                        ),
                        _ => ("not published", None, ""),
                    };
                let mut r = row(
                    &format!(
                        "kept, {hot}-page hot set, {}, old_blocks_time {}",
                        match pause {
                            "b2b" => "back to back",
                            "pause500" => "0.5 s pause",
                            _ => "2 s pause",
                        },
                        if t0 { 0 } else { 1000 }
                    ),
                    seed_value,
                    &name,
                    Kept,
                    band,
                );
                r.note = note.into();
                v.push(r);
            }
        }
    }
    v.push(row(
        "kept with innodb_lru_scan_depth 128 (4,485 pages, back to back)",
        "91-93 %",
        "seed000-hot4485-b2b-depth128",
        Kept,
        Some((0.85, 0.99)),
    ));
    v.push(row(
        "hot pages cached after 140 s of scanning at depth 128",
        "3,830 (still shrinking)",
        "seed000-hot4485-b2b-depth128",
        HotPagesRangeAfter(140.0),
        Some((3000.0, 4485.0)),
    ));
    v.push(row(
        "pages turned young per refill at depth 1024 (reference: 1024 - 378 - 40)",
        "606",
        "seed000-hot4485-b2b",
        SlidPerRefill,
        Some((500.0, 660.0)),
    ));
    v.push(row(
        "pages turned young per refill at depth 128 (reference: ~41)",
        "~41",
        "seed000-hot4485-b2b-depth128",
        SlidPerRefill,
        Some((20.0, 70.0)),
    ));
    v.push(row(
        "scanned table's young pages, growth per second (cold start; the calibration target)",
        "~35 pages/s",
        "seed000-cold",
        NetYoungGrowth,
        Some((25.0, 45.0)),
    ));
    v.push(row(
        "scanned table's young pages after 150 s (cold start)",
        "~5,700",
        "seed000-cold",
        ScanYoungEnd,
        Some((4000.0, 7000.0)),
    ));
    v.push(row(
        "kept, cold start (\"still fully cached at the end of 150 seconds\")",
        "100 %",
        "seed000-cold",
        Kept,
        Some((0.95, 1.0)),
    ));
    v.push(row(
        "scanned table's young pages, growth per second (warm start)",
        "~35 pages/s",
        "seed000-hot4485-b2b",
        NetYoungGrowth,
        Some((25.0, 45.0)),
    ));
    v.push(row(
        "warm start: hot set cached 40 s into the scan",
        "~80 %",
        "seed000-hot4485-b2b",
        HotResidentAt(40.0),
        Some((0.60, 0.95)),
    ));
    let mut r = row(
        "warm start: hot set cached after 140 s of scanning",
        "7-15 %",
        "seed000-hot4485-b2b",
        HotResidentAt(140.0),
        None,
    );
    r.note = "does not match: the simulated warm start loses its hot set more slowly after the first minute; the cadence is calibrated on the cold start, and the seed's warm runs (just after loading 750 MB) may have seen more page-cleaner rounds than its cold runs".into();
    v.push(r);
    v.push(row(
        "lookups per second in the warm-up (no scan)",
        "~5,000",
        "seed000-hot4485-b2b",
        LookupsWarmup,
        Some((4500.0, 5500.0)),
    ));
    v.push(row(
        "lookups per second once hot pages come from disk (last 30 s)",
        "~1,500",
        "seed000-hot4485-b2b",
        LookupsLast30,
        Some((1300.0, 2000.0)),
    ));
    v.push(row(
        "seconds per back-to-back pass of the 746 MB table",
        "0.5-2, ~1 on average",
        "seed000-hot4485-b2b",
        SecondsPerPass,
        Some((0.5, 2.0)),
    ));
    v.push(row(
        "free list during the warm-up",
        "~1,000 (just under lru_scan_depth)",
        "seed000-hot4485-b2b",
        FreeDuringWarmup,
        Some((900.0, 1024.0)),
    ));
    if long {
        v.push(row(
            "10-minute cold run: the filler's young pages run out",
            "~120 s into the scan",
            "seed000-cold-10min",
            FillerYoungGoneAt,
            Some((60.0, 240.0)),
        ));
        v.push(row(
            "10-minute cold run: hot pages cached in the last 5 minutes",
            "100-1,300",
            "seed000-cold-10min",
            HotPagesRangeAfter(300.0),
            Some((0.0, 1800.0)),
        ));
        v.push(row(
            "10-minute cold run: scanned table's young pages at the end",
            "~10,150",
            "seed000-cold-10min",
            ScanYoungEnd,
            Some((9000.0, 10400.0)),
        ));
        v.push(row(
            "10-minute warm run: hot pages cached in the last 5 minutes",
            "100-1,300",
            "seed000-warm-10min",
            HotPagesRangeAfter(300.0),
            Some((0.0, 1800.0)),
        ));
    }
    v
}

/// The parameters a row runs with, for seed `seed`.
pub fn row_params(r: &Row, seed: u64) -> Params {
    let mut p = preset(&r.preset).expect("rows name real presets").params;
    for (k, val) in &r.overrides {
        p.set(k, val).expect("valid override");
    }
    p.seed = seed;
    p
}

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
                    .partial_cmp(&(b.t_s - warm - t).abs())
                    .unwrap()
            })
            .map(|s| s.hot_resident as f64 / hot)
            .unwrap_or(f64::NAN),
        Metric::HotPagesRangeAfter(t) => {
            // Reported as the mean; the table also shows the min and max across the window.
            let v: Vec<f64> = r
                .samples
                .iter()
                .filter(|s| s.t_s >= warm + t)
                .map(|s| s.hot_resident as f64)
                .collect();
            if v.is_empty() {
                f64::NAN
            } else {
                v.iter().sum::<f64>() / v.len() as f64
            }
        }
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
        Metric::LookupsLast30 => {
            let v: Vec<f64> = r
                .samples
                .iter()
                .filter(|s| s.t_s > end - 30.0)
                .map(|s| s.lookups_per_s)
                .collect();
            v.iter().sum::<f64>() / v.len().max(1) as f64
        }
        Metric::SecondsPerPass => {
            if r.scan_pages_per_s > 0.0 {
                r.scan_table_pages as f64 / r.scan_pages_per_s
            } else {
                f64::NAN
            }
        }
        Metric::FreeDuringWarmup => {
            let v: Vec<f64> = r
                .samples
                .iter()
                .filter(|s| s.t_s < warm)
                .map(|s| s.free as f64)
                .collect();
            v.iter().sum::<f64>() / v.len().max(1) as f64
        }
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
    pub row: Row,
    pub values: Vec<f64>,
    pub mean: f64,
    pub min: f64,
    pub max: f64,
    /// `None` if the row has no band.
    pub within_band: Option<bool>,
    /// Lookups per second during the scan phase, mean over the runs (the seed's rates vary).
    pub lookups_per_s: f64,
}

/// Runs every row with `seeds` runs each (seeds 1..=seeds), sharing runs between rows of the
/// same preset.
pub fn run_rows(
    rows: &[Row],
    seeds: u32,
    mut progress: impl FnMut(usize, usize),
) -> Vec<RowResult> {
    let mut cache: Vec<(String, Vec<RunReport>)> = Vec::new();
    let total = {
        let mut names: Vec<String> = rows
            .iter()
            .map(|r| format!("{}{:?}", r.preset, r.overrides))
            .collect();
        names.sort();
        names.dedup();
        names.len() * seeds as usize
    };
    let mut done = 0;
    let mut out = Vec::new();
    for r in rows {
        let key = format!("{}{:?}", r.preset, r.overrides);
        if !cache.iter().any(|c| c.0 == key) {
            let mut runs = Vec::new();
            for s in 1..=seeds {
                runs.push(sim::run(&row_params(r, s as u64)).expect("presets are valid"));
                done += 1;
                progress(done, total);
            }
            cache.push((key.clone(), runs));
        }
        let runs = &cache.iter().find(|c| c.0 == key).expect("cached").1;
        let values: Vec<f64> = runs.iter().map(|x| measure(r.metric, x)).collect();
        let finite: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
        let mean = if finite.is_empty() {
            f64::NAN
        } else {
            finite.iter().sum::<f64>() / finite.len() as f64
        };
        let min = finite.iter().copied().fold(f64::INFINITY, f64::min);
        let max = finite.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let within_band = r
            .band
            .map(|(lo, hi)| mean.is_finite() && mean >= lo && mean <= hi);
        let lookups = runs.iter().map(|x| x.lookups_per_s).sum::<f64>() / runs.len() as f64;
        out.push(RowResult {
            row: r.clone(),
            values,
            mean,
            min,
            max,
            within_band,
            lookups_per_s: lookups,
        });
    }
    out
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

/// The table as Markdown.
pub fn markdown(results: &[RowResult]) -> String {
    let mut s = String::new();
    s.push_str(
        "| seed 000 figure | seed | simulated (mean; min-max) | lookups/s in scans | check |\n",
    );
    s.push_str("|---|---:|---:|---:|---|\n");
    for r in results {
        let sim = if r.values.len() > 1 {
            format!(
                "{} ({}-{})",
                fmt_metric(r.row.metric, r.mean),
                fmt_metric(r.row.metric, r.min),
                fmt_metric(r.row.metric, r.max)
            )
        } else {
            fmt_metric(r.row.metric, r.mean)
        };
        let check = match r.within_band {
            Some(true) => "in band".to_string(),
            Some(false) => "OUT OF BAND".to_string(),
            None if !r.row.note.is_empty() => r.row.note.clone(),
            None => "shown".into(),
        };
        s.push_str(&format!(
            "| {} | {} | {} | {:.0} | {} |\n",
            r.row.figure, r.row.seed_value, sim, r.lookups_per_s, check
        ));
    }
    s
}

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
    let mut acc = CalibrationRow {
        mean_interval_s,
        net_growth: 0.0,
        scan_young_end: 0.0,
        kept: 0.0,
        refills: 0.0,
    };
    for s in 1..=seeds {
        let p = Params {
            start: Start::Cold,
            cleaner: Cadence::AfterActivity {
                mean_interval_ms: (mean_interval_s * 1000.0) as u32,
            },
            seed: s as u64,
            ..Params::default()
        };
        let r = sim::run(&p).expect("valid");
        acc.net_growth += r.scan_young_growth_per_s;
        acc.scan_young_end += r.samples.last().map(|x| x.scan_young as f64).unwrap_or(0.0);
        acc.kept += r.kept;
        acc.refills += r.refills_during_scan as f64;
    }
    let n = seeds as f64;
    acc.net_growth /= n;
    acc.scan_young_end /= n;
    acc.kept /= n;
    acc.refills /= n;
    acc
}
