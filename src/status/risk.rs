//! The leak risk of a server's scenario: the run's kept and leak, the model's `youngs/s` and
//! `non-youngs/s` beside the pasted ones, and a few runs that change one thing (the depth,
//! `innodb_old_blocks_time`, a pause between passes), with a sentence a DBA can act on.

use super::Reading;
use midpoint_core::metrics::RunReport;
use midpoint_core::scenario::Params;
use serde::Serialize;

/// One run's figures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunRow {
    /// What this run changes (`as read` for the scenario itself).
    pub label: String,
    /// The parameter changed and its value (none for the scenario itself).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change: Option<(String, String)>,
    /// Mean hot-set residency over the kept window, 0 to 1 (NaN when there is no scan: null).
    pub kept: Option<f64>,
    /// Scan pages turned young per second during the scan.
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

/// The figures of one report.
pub fn row(label: &str, change: Option<(String, String)>, r: &RunReport) -> RunRow {
    let p = &r.parameters;
    let secs = (p.warmup_s + p.scan_s).max(1) as f64;
    let slid = r.slid_young_per_s * p.scan_s as f64;
    RunRow {
        label: label.to_string(),
        change,
        kept: r.kept.is_finite().then_some(r.kept),
        leak_pages_per_s: r.young_leak_pages_per_s,
        leak_per_refill: (r.refills_during_scan > 0).then(|| slid / r.refills_during_scan as f64),
        refills_during_scan: r.refills_during_scan,
        youngs_per_s: r.counters.made_young as f64 / secs,
        non_youngs_per_s: r.counters.not_made_young as f64 / secs,
    }
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

/// The sentence a DBA can act on: the change that keeps the most of the hot set, against the
/// scenario as read, with both figures; or that none of them helps.
pub fn advice(rows: &[RunRow]) -> String {
    let Some(base) = rows.first() else {
        return String::new();
    };
    let Some(bk) = base.kept else {
        return "The scenario has no scan phase: no leak to measure.".into();
    };
    let best = rows[1..]
        .iter()
        .filter_map(|r| r.kept.map(|k| (k, r)))
        .max_by(|a, b| a.0.total_cmp(&b.0));
    let head = format!(
        "As read, the model keeps {:.1} % of your hot set during the scan, with {:.1} scan pages a second turned young",
        bk * 100.0,
        base.leak_pages_per_s
    );
    match best {
        Some((k, r)) if k > bk + 0.005 => format!(
            "{head}; of the changes tried, {} keeps the most: {:.1} % ({:+.1} points).",
            r.label,
            k * 100.0,
            (k - bk) * 100.0
        ),
        _ => format!("{head}; none of the changes tried keeps more than a half point more."),
    }
}

/// The pasted `youngs/s` and `non-youngs/s` (the interval's when two snapshots were pasted).
pub fn pasted_rates(r: &Reading) -> (Option<f64>, Option<f64>) {
    let from_interval = |k: &str| r.interval.as_ref().and_then(|i| i.rates.get(k).copied());
    (
        from_interval("youngs_per_s").or_else(|| r.num("youngs_per_s")),
        from_interval("non_youngs_per_s").or_else(|| r.num("non_youngs_per_s")),
    )
}
