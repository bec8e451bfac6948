//! A hot set that flips between kept and lost (the bistable cells of the page's Beyond
//! section): shown as both outcomes with how often each came up, never as one mean that no run
//! showed.
//!
//! Over the runs' residency samples in the window "kept" averages over, a sample is **kept**
//! when at least [`KEPT_LEVEL`] of the hot set is resident and **lost** under [`LOST_LEVEL`];
//! the state is bistable when each of the two comes up in at least [`MIN_SHARE`] of the
//! samples, or some runs end kept and others lost.

use midpoint_core::metrics::RunReport;
use serde::Serialize;

/// A sample at or above this residency is "kept".
pub const KEPT_LEVEL: f64 = 0.8;
/// A sample under this residency is "lost".
pub const LOST_LEVEL: f64 = 0.4;
/// Each outcome's least share of the samples for the state to count as bistable.
pub const MIN_SHARE: f64 = 0.1;

/// How often each outcome came up.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Outcomes {
    /// Samples in the windows, over all runs.
    pub samples: usize,
    /// Share of them kept / lost (0 to 1), and the mean residency of each group.
    pub kept_share: f64,
    pub lost_share: f64,
    pub kept_mean: Option<f64>,
    pub lost_mean: Option<f64>,
    /// Runs whose kept (the window's mean) is kept / lost, of `runs`.
    pub runs_kept: usize,
    pub runs_lost: usize,
    pub runs: usize,
    pub bistable: bool,
    /// The sentence for the text and the page.
    pub words: String,
}

/// The outcomes of one row's runs, or `None` when no run has a window.
pub fn of(reports: &[RunReport]) -> Option<Outcomes> {
    let mut levels = Vec::new();
    let (mut runs_kept, mut runs_lost, mut runs) = (0, 0, 0);
    for r in reports {
        let hot = r.hot_pages.max(1) as f64;
        let [from, to] = r.kept_window_s;
        let before = levels.len();
        levels.extend(
            r.samples
                .iter()
                .filter(|s| s.t_s >= from && s.t_s <= to)
                .map(|s| s.hot_resident as f64 / hot),
        );
        if levels.len() > before && r.kept.is_finite() {
            runs += 1;
            if r.kept >= KEPT_LEVEL {
                runs_kept += 1;
            } else if r.kept < LOST_LEVEL {
                runs_lost += 1;
            }
        }
    }
    if levels.is_empty() {
        return None;
    }
    let n = levels.len() as f64;
    let kept: Vec<f64> = levels
        .iter()
        .copied()
        .filter(|x| *x >= KEPT_LEVEL)
        .collect();
    let lost: Vec<f64> = levels.iter().copied().filter(|x| *x < LOST_LEVEL).collect();
    let mean = |v: &[f64]| (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64);
    let (kept_share, lost_share) = (kept.len() as f64 / n, lost.len() as f64 / n);
    let bistable =
        (kept_share >= MIN_SHARE && lost_share >= MIN_SHARE) || (runs_kept > 0 && runs_lost > 0);
    let pct = |x: f64| format!("{:.0} %", x * 100.0);
    let words = if bistable {
        format!(
            "The hot set flips: kept (at least {} resident, {} on average) in {} of the window's {} samples and lost (under {}, {} on average) in {}{}; kept's mean is neither outcome.",
            pct(KEPT_LEVEL),
            mean(&kept).map_or("-".into(), pct),
            pct(kept_share),
            levels.len(),
            pct(LOST_LEVEL),
            mean(&lost).map_or("-".into(), pct),
            pct(lost_share),
            if runs > 1 {
                format!("; over the runs, {runs_kept} of {runs} ended kept and {runs_lost} lost")
            } else {
                String::new()
            }
        )
    } else {
        String::new()
    };
    Some(Outcomes {
        samples: levels.len(),
        kept_share,
        lost_share,
        kept_mean: mean(&kept),
        lost_mean: mean(&lost),
        runs_kept,
        runs_lost,
        runs,
        bistable,
        words,
    })
}

/// The forecast over the hot sets the counters allow (the fit's bracket), when no measurement
/// pinned the hot set: kept at each end and at the fit's choice.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KeptRange {
    /// The hot sets' bracket, pages.
    pub hot_pages: [u32; 2],
    /// Kept's lowest and highest over the hot sets run (0 to 1).
    pub kept: [f64; 2],
    /// Each hot set run and its kept (the median over its runs).
    pub kept_at: Vec<(u32, f64)>,
    pub words: String,
}

/// Puts the runs at the bracket's ends and at the fit's choice together.
pub fn range(bracket: [u32; 2], kept_at: Vec<(u32, f64)>) -> Option<KeptRange> {
    let ks: Vec<f64> = kept_at
        .iter()
        .map(|k| k.1)
        .filter(|k| k.is_finite())
        .collect();
    if ks.is_empty() {
        return None;
    }
    let lo = ks.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = ks.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let at = kept_at
        .iter()
        .map(|(h, k)| format!("{:.1} % with {h} pages", k * 100.0))
        .collect::<Vec<_>>()
        .join(", ");
    let words = format!(
        "No measurement fixes your hot set, so the forecast is a range: kept from {:.1} % to {:.1} % over the hot sets your counters allow ({} to {} pages: {at}). {}",
        lo * 100.0,
        hi * 100.0,
        bracket[0],
        bracket[1],
        crate::fit::NARROW
    );
    Some(KeptRange {
        hot_pages: bracket,
        kept: [lo, hi],
        kept_at,
        words,
    })
}

/// The scenario with a hot set of `pages` (its table as large), for the bracket's runs.
pub fn with_hot(
    p: &midpoint_core::scenario::Params,
    pages: u32,
) -> midpoint_core::scenario::Params {
    let mut q = p.clone();
    q.hot_pages = pages.max(1);
    q.hot_table_pages = q.hot_table_pages.max(q.hot_pages);
    q
}
