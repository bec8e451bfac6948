//! The cells the site quotes a model figure for, each from one declared ensemble, so that one
//! setting has one number everywhere (the article's text, the Beyond pair, the lab's residency
//! caption, the sweep's table, the policies table).
//!
//! The stock default cell (`seed000-hot4485-b2b`: MySQL 8.4's defaults, the scan-leak
//! experiment's 4,485-page hot set, scans back to back) is declared by the committed sweep,
//! `www/data/sweep.json` (`midpoint sweep --runs 5`, recomputed in full by
//! `crates/cli/tests/page_data.rs`): its point at the preset's own `innodb_lru_scan_depth` and
//! `innodb_old_blocks_time` is the median and range of runs 1-5, the same runs the residency
//! figure draws. Every quote of the cell reads it from there.

use super::charts::SweepData;
use super::page::runs_words;
use midpoint_core::scenario::Params;
use serde::Serialize;

/// The name pages mark a quote of the stock default cell with (`data-cell="default"`).
pub const DEFAULT_CELL: &str = "default";

/// One cell's declared ensemble.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CellQuote {
    /// What pages mark its quotes with (`data-cell`).
    pub cell: String,
    /// Kept: median, min and max over the runs (fractions, 0..1).
    pub median: f64,
    pub min: f64,
    pub max: f64,
    pub runs: u32,
    /// "runs 1-5".
    pub runs_words: String,
    /// The kept window, in seconds of the run: its last `kept_window_s`.
    pub window: [f64; 2],
    /// "46 %".
    pub pct: String,
    /// "29–60 % over runs 1-5".
    pub range: String,
    /// "kept over the run's last 110 s (100–210 s)": the window, named.
    pub window_words: String,
}

fn pct(x: f64) -> String {
    format!("{:.0} %", x * 100.0)
}

/// The kept window of a run of `p`: its last `kept_window_s` seconds.
pub fn kept_window(p: &Params) -> [f64; 2] {
    let end = (p.warmup_s + p.scan_s) as f64;
    [(end - p.kept_window_s as f64).max(0.0), end]
}

/// The window in words: "the hot set's mean residency over the run's last 110 s (100–210 s)".
pub fn window_words(p: &Params) -> String {
    let [a, b] = kept_window(p);
    format!(
        "the hot set's mean residency over the run's last {} s ({}–{} s)",
        p.kept_window_s, a, b
    )
}

/// The stock default cell as the committed sweep declares it: its point at the base's own depth
/// and `old_blocks_time` (None if the file lacks it).
pub fn default_cell(sweep: &SweepData) -> Option<CellQuote> {
    let b = &sweep.base;
    let p = sweep
        .points
        .iter()
        .find(|q| q.lru_scan_depth == b.lru_scan_depth && q.old_blocks_time == b.old_blocks_time)?;
    let [min, max] = p.kept_range.unwrap_or([p.kept, p.kept]);
    let runs_words = runs_words(b.seed, sweep.runs);
    Some(CellQuote {
        cell: DEFAULT_CELL.into(),
        median: p.kept,
        min,
        max,
        runs: sweep.runs,
        pct: pct(p.kept),
        range: format!("{:.0}–{:.0} % over {runs_words}", min * 100.0, max * 100.0),
        runs_words,
        window: kept_window(b),
        window_words: window_words(b),
    })
}

/// The declared cell `params` and `runs` are, if any: the stock default cell when they are the
/// sweep's base with its runs.
pub fn cell_of(sweep: &SweepData, params: &Params, runs: u32) -> Option<CellQuote> {
    (sweep.base == *params && sweep.runs == runs)
        .then(|| default_cell(sweep))
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::beyond::{parse, Committed};

    fn sweep() -> Committed<SweepData> {
        let text =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/www/data/sweep.json"))
                .unwrap();
        parse("sweep", &text).unwrap()
    }

    #[test]
    fn the_default_cell_is_the_sweeps_point_at_the_presets_own_settings() {
        let s = sweep().data;
        let c = default_cell(&s).unwrap();
        let p = s
            .points
            .iter()
            .find(|q| q.lru_scan_depth == 1024 && q.old_blocks_time == 1000)
            .unwrap();
        assert_eq!(c.median, p.kept);
        assert_eq!([c.min, c.max], p.kept_range.unwrap());
        assert_eq!(c.pct, format!("{:.0} %", p.kept * 100.0));
        assert_eq!(c.runs_words, "runs 1-5");
        assert_eq!(c.window, [100.0, 210.0]);
        assert!(c.range.ends_with("% over runs 1-5"), "{}", c.range);
        let base = s.base.clone();
        assert_eq!(cell_of(&s, &base, s.runs), Some(c));
        assert_eq!(cell_of(&s, &base, s.runs + 1), None);
        let other = Params {
            lru_scan_depth: 128,
            ..base
        };
        assert_eq!(cell_of(&s, &other, s.runs), None);
    }
}
