//! The leak risk of a server's scenario: the run's kept and leak, the model's `youngs/s` and
//! `non-youngs/s` beside the pasted ones, and a few runs that change one thing (the depth,
//! `innodb_old_blocks_time`, a pause between passes), with a sentence a DBA can act on. Each
//! row can be an ensemble (seeds `seed`, `seed + 1`, …): kept as the median with its range.
//! The table's cells are formatted here, for the CLI and the page alike.

use super::Reading;
use midpoint_core::metrics::{RunReport, Summary};
use midpoint_core::scenario::Params;
use serde::Serialize;

/// One row's figures: one run, or the runs of an ensemble.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunRow {
    /// What this run changes (`as read` for the scenario itself).
    pub label: String,
    /// The parameter changed and its value (none for the scenario itself).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change: Option<(String, String)>,
    /// The first run's mean hot-set residency over the kept window, 0 to 1 (the run the
    /// parameters' own seed gives, as `run --json`'s `kept`; none without a scan: null).
    pub kept: Option<f64>,
    /// How many runs (seeds `seed` to `seed + runs - 1`).
    pub runs: usize,
    /// The pool it simulated: its pages in all instances, and the instances.
    pub pool_pages: u64,
    pub instances: u32,
    /// Kept's median, min and max over the runs (none when no run has a kept figure).
    pub kept_median: Option<f64>,
    pub kept_min: Option<f64>,
    pub kept_max: Option<f64>,
    /// Scan pages turned young per second during the scan (the median over the runs, as are
    /// the figures below).
    pub leak_pages_per_s: f64,
    /// Scan pages the boundary's slide turned young per LRU batch with evictions during the scan
    /// (the slide happens at refills; promotions by a second touch are not in it).
    pub leak_per_refill: Option<f64>,
    pub refills_during_scan: u64,
    /// The model's `youngs/s` and `non-youngs/s` over the scan phase's counters (the whole run's
    /// counters over its seconds).
    pub youngs_per_s: f64,
    pub non_youngs_per_s: f64,
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// The figures of one run or of an ensemble's runs (in seed order, the first the parameters'
/// own seed); with no report, a row of nothing.
pub fn row(label: &str, change: Option<(String, String)>, reports: &[RunReport]) -> RunRow {
    let med = |f: &dyn Fn(&RunReport) -> f64| Summary::of(reports.iter().map(f)).median;
    let per_refill = |r: &RunReport| {
        let slid = r.slid_young_per_s * r.parameters.scan_s as f64;
        if r.refills_during_scan > 0 {
            slid / r.refills_during_scan as f64
        } else {
            f64::NAN
        }
    };
    let secs = |r: &RunReport| (r.parameters.warmup_s + r.parameters.scan_s).max(1) as f64;
    let kept = Summary::of(reports.iter().map(|r| r.kept));
    let some = |x: f64| (kept.n > 0).then_some(x);
    RunRow {
        label: label.to_string(),
        change,
        kept: reports.first().and_then(|r| finite(r.kept)),
        runs: reports.len(),
        pool_pages: reports.first().map_or(0, |r| {
            r.frames_per_instance as u64 * r.parameters.buffer_pool_instances as u64
        }),
        instances: reports
            .first()
            .map_or(0, |r| r.parameters.buffer_pool_instances),
        kept_median: some(kept.median),
        kept_min: some(kept.min),
        kept_max: some(kept.max),
        leak_pages_per_s: finite(med(&|r| r.young_leak_pages_per_s)).unwrap_or(0.0),
        leak_per_refill: finite(med(&per_refill)),
        refills_during_scan: finite(med(&|r| r.refills_during_scan as f64))
            .map_or(0, |x| x.round() as u64),
        youngs_per_s: finite(med(&|r| r.counters.made_young as f64 / secs(r))).unwrap_or(0.0),
        non_youngs_per_s: finite(med(&|r| r.counters.not_made_young as f64 / secs(r)))
            .unwrap_or(0.0),
    }
}

/// A row of runs of one instance's share of `p`'s pool
/// ([`midpoint_lab::share::instance_share`]) as the whole pool's: kept (a fraction) and the
/// leak per refill (one instance's LRU batch) are the share's; the pool's pages and instances
/// are `p`'s; every instance runs its own batches and makes its own youngs, so the refills
/// and the rates are the share's times the instances.
pub fn pool_row(mut r: RunRow, p: &Params) -> RunRow {
    let n = p.buffer_pool_instances.max(1);
    if r.runs == 0 {
        return r;
    }
    r.pool_pages = p.frames_per_instance() as u64 * n as u64;
    r.instances = n;
    if n > 1 {
        let k = n as f64;
        r.leak_pages_per_s *= k;
        r.refills_during_scan *= n as u64;
        r.youngs_per_s *= k;
        r.non_youngs_per_s *= k;
    }
    r
}

/// The runs of a risk table: the scenario as read, then [`variants`].
pub type Plan = Vec<(String, Option<(String, String)>, Params)>;

/// The scenario as read and the runs that change one thing.
pub fn plan(p: &Params) -> Plan {
    let mut v: Plan = vec![("as read".into(), None, p.clone())];
    v.extend(variants(p).into_iter().map(|(l, c, q)| (l, Some(c), q)));
    v
}

/// The runs that change one thing, each a valid scenario: the depth a quarter and four times
/// (within its range), `innodb_old_blocks_time` 0 (no time guard) or, when it is 0, 1000, and a
/// pause of a second between the scan's passes.
pub fn variants(p: &Params) -> Vec<(String, (String, String), Params)> {
    let mut v = Vec::new();
    let mut add = |label: String, name: &str, value: String| {
        let mut q = p.clone();
        if q.set(name, &value).is_ok() && q.validate().is_ok() && q != *p {
            v.push((label, (name.to_string(), value), q));
        }
    };
    let d = p.lru_scan_depth;
    add(
        format!("innodb_lru_scan_depth {}", (d / 4).max(100)),
        "lru_scan_depth",
        (d / 4).max(100).to_string(),
    );
    add(
        format!("innodb_lru_scan_depth {}", (d * 4).min(16_384)),
        "lru_scan_depth",
        (d * 4).min(16_384).to_string(),
    );
    let t = if p.old_blocks_time == 0 { 1000 } else { 0 };
    add(
        format!("innodb_old_blocks_time {t}"),
        "old_blocks_time",
        t.to_string(),
    );
    add(
        "a 1 s pause between scan passes".into(),
        "scan_pause_ms",
        "1000".into(),
    );
    v
}

/// Kept in words: "25.5 %" for one run, "25.5 % (22.1-30.0 % over 5 runs)" for more (the
/// median and the range); "n/a" when no run has a kept figure.
pub fn kept_words(r: &RunRow) -> String {
    match (r.kept_median, r.kept_min, r.kept_max) {
        (Some(m), Some(lo), Some(hi)) if r.runs > 1 => format!(
            "{:.1} % ({:.1}-{:.1} % over {} runs)",
            m * 100.0,
            lo * 100.0,
            hi * 100.0,
            r.runs
        ),
        (Some(m), _, _) => format!("{:.1} %", m * 100.0),
        _ => "n/a".into(),
    }
}

/// The sentence a DBA can act on: the change that keeps the most of the hot set (by the
/// median over the runs), against the scenario as read, with both figures, and whether their
/// ranges overlap; or that none of them helps.
pub fn advice(rows: &[RunRow]) -> String {
    let Some(base) = rows.first() else {
        return String::new();
    };
    let Some(bk) = base.kept_median else {
        return "The scenario has no scan phase: no leak to measure.".into();
    };
    let best = rows[1..]
        .iter()
        .filter_map(|r| r.kept_median.map(|k| (k, r)))
        .max_by(|a, b| a.0.total_cmp(&b.0));
    let per_refill = base
        .leak_per_refill
        .map(|x| format!(" ({x:.1} per refill)"))
        .unwrap_or_default();
    let head = format!(
        "As read, the model keeps {} of your hot set during the scan, with {:.1} scan pages a second turned young{per_refill}",
        kept_words(base),
        base.leak_pages_per_s
    );
    match best {
        Some((k, r)) if k > bk + 0.005 => {
            let overlap = match (r.kept_min, base.kept_max) {
                (Some(lo), Some(hi)) if r.runs > 1 && base.runs > 1 && lo <= hi => {
                    " The two ranges overlap: the gain is within what the seeds vary by."
                }
                _ => "",
            };
            format!(
                "{head}; of the changes tried, {} keeps the most: {} ({:+.1} points).{overlap}",
                r.label,
                kept_words(r),
                (k - bk) * 100.0
            )
        }
        _ => format!("{head}; none of the changes tried keeps more than a half point more."),
    }
}

/// [`advice`], followed by what the fit could not confirm ([`super::fit::Fit::hot_set_caveat`]).
pub fn advice_fitted(rows: &[RunRow], fit: Option<&super::fit::Fit>) -> String {
    let a = advice(rows);
    match fit.and_then(|f| f.hot_set_caveat()) {
        Some(c) if !a.is_empty() => format!("{a} {c}"),
        _ => a,
    }
}

/// The risk table's cells, for the CLI's text and the page alike: a header, one row per run,
/// and the pasted rates' row (`yours (as pasted)`, "-" where the paste has none).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Table {
    pub head: Vec<String>,
    pub rows: Vec<Vec<String>>,
    pub yours: Vec<String>,
}

/// The columns of [`Table`].
pub const COLUMNS: [&str; 7] = [
    "run",
    "kept %",
    "leak pages/s",
    "leak/refill",
    "refills",
    "youngs/s",
    "non-youngs/s",
];

/// The table of `rows` with the pasted `youngs/s` and `non-youngs/s` (see [`pasted_rates`]).
/// Kept is the median, with the range over the runs when there are several.
pub fn table(rows: &[RunRow], pasted: (Option<f64>, Option<f64>)) -> Table {
    let f2 = |x: Option<f64>| x.map(|v| format!("{v:.2}")).unwrap_or_else(|| "-".into());
    let kept = |r: &RunRow| match (r.kept_median, r.kept_min, r.kept_max) {
        (Some(m), Some(lo), Some(hi)) if r.runs > 1 => {
            format!("{:.1} ({:.1}-{:.1})", m * 100.0, lo * 100.0, hi * 100.0)
        }
        (Some(m), _, _) => format!("{:.1}", m * 100.0),
        _ => "n/a".into(),
    };
    Table {
        head: COLUMNS.iter().map(|c| c.to_string()).collect(),
        rows: rows
            .iter()
            .map(|r| {
                vec![
                    r.label.clone(),
                    kept(r),
                    format!("{:.1}", r.leak_pages_per_s),
                    f2(r.leak_per_refill),
                    r.refills_during_scan.to_string(),
                    format!("{:.1}", r.youngs_per_s),
                    format!("{:.1}", r.non_youngs_per_s),
                ]
            })
            .collect(),
        yours: vec![
            "yours (as pasted)".into(),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            f2(pasted.0),
            f2(pasted.1),
        ],
    }
}

/// The table as aligned text (the first column left-aligned, the others right-aligned).
pub fn table_text(t: &Table) -> String {
    let mut w = [0usize; COLUMNS.len()];
    for r in std::iter::once(&t.head).chain(&t.rows).chain([&t.yours]) {
        for (i, c) in r.iter().enumerate().take(w.len()) {
            w[i] = w[i].max(c.chars().count());
        }
    }
    let line = |r: &Vec<String>| {
        let mut s = String::new();
        for (i, c) in r.iter().enumerate().take(w.len()) {
            if i == 0 {
                s.push_str(&format!("{c:<width$}", width = w[0]));
            } else {
                s.push_str(&format!("  {c:>width$}", width = w[i]));
            }
        }
        s.trim_end().to_string()
    };
    let mut out = String::new();
    for r in std::iter::once(&t.head).chain(&t.rows).chain([&t.yours]) {
        out.push_str(&line(r));
        out.push('\n');
    }
    out
}

/// The seconds the page allows its risk runs in all, by the core's estimate ([`cost::estimate`],
/// a native core's and on the safe side: the 16 MiB MariaDB fixture's run is estimated at 2 s
/// and takes 0.3 s natively, a few times that in the page's WebAssembly). The runs are in a
/// worker, so the tab stays free whatever they take.
///
/// [`cost::estimate`]: midpoint_core::cost::estimate
pub const PAGE_BUDGET_S: f64 = 60.0;

/// How many runs of each of `jobs` rows the page makes for `p`: 5 when they fit in
/// [`PAGE_BUDGET_S`], else 3, else 1; and the sentence that says so (and why when fewer).
/// The page runs one instance's share of a pool of several
/// ([`midpoint_lab::share::instance_share`]), so that is what is estimated.
pub fn page_runs(p: &Params, jobs: usize) -> (u32, String) {
    let one = midpoint_core::cost::estimate(&midpoint_lab::share::instance_share(p)).wall_s;
    let jobs = jobs.max(1) as f64;
    let n = [5u32, 3]
        .into_iter()
        .find(|&n| one * jobs * n as f64 <= PAGE_BUDGET_S)
        .unwrap_or(1);
    let seeds = if n > 1 {
        format!("RNG seeds {}-{}", p.seed, p.seed + n as u64 - 1)
    } else {
        format!("RNG seed {}", p.seed)
    };
    let why = if n < 5 {
        let of = if p.buffer_pool_instances > 1 {
            format!(
                "one instance's share of a {} MiB pool in {} instances",
                p.pool_mb, p.buffer_pool_instances
            )
        } else {
            format!("a {} MiB pool", p.pool_mb)
        };
        format!(
            " (not 5: one run of {of} is estimated at {}; `midpoint from-status --risk --runs N` runs more)",
            midpoint_core::cost::human_duration(one)
        )
    } else {
        String::new()
    };
    let each = if n > 1 {
        format!("{n} runs of each row, {seeds}: kept is their median and range")
    } else {
        format!("1 run of each row, {seeds}")
    };
    (n, format!("{each}{why}."))
}

/// The pasted `youngs/s` and `non-youngs/s` (the interval's when two snapshots were pasted).
pub fn pasted_rates(r: &Reading) -> (Option<f64>, Option<f64>) {
    // The exact deltas of two SHOW GLOBAL STATUS snapshots first, then two statuses'.
    let from_interval = |k: &str| {
        r.exact
            .as_ref()
            .and_then(|e| e.rates.get(k).copied())
            .or_else(|| r.interval.as_ref().and_then(|i| i.rates.get(k).copied()))
    };
    (
        from_interval("youngs_per_s").or_else(|| r.num("youngs_per_s")),
        from_interval("non_youngs_per_s").or_else(|| r.num("non_youngs_per_s")),
    )
}
