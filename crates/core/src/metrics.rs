//! Metrics sampled on the virtual clock, and the summary of a run.

use crate::io::DeviceStats;
use crate::pool::doublewrite::DblwrStats;
use crate::pool::flush::WriteStats;
use crate::pool::page_cleaner::BatchReport;
use crate::pool::Stats;
use crate::scenario::write::WriteParams;
use crate::scenario::Params;
use serde::Serialize;

/// One point of the time series.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Sample {
    /// Seconds since the warm-up started.
    pub t_s: f64,
    /// Hot-set pages in the pool.
    pub hot_resident: u32,
    /// ... of which young.
    pub hot_young: u32,
    /// ... of which old.
    pub hot_old: u32,
    /// Scanned table's young pages.
    pub scan_young: u32,
    /// Scanned table's old pages.
    pub scan_old: u32,
    /// The whole hot table's young pages (the hot set and the rest of the table).
    pub hot_table_young: u32,
    /// Filler table's young pages (cold start).
    pub filler_young: u32,
    /// Filler table's old pages.
    pub filler_old: u32,
    /// Free frames.
    pub free: u32,
    /// LRU length.
    pub lru_len: u32,
    /// Old sublist length.
    pub old_len: u32,
    /// Lookups per second over the last interval.
    pub lookups_per_s: f64,
    /// Share of those lookups that hit.
    pub lookup_hit_ratio: f64,
    /// Scanned pages per second over the last interval.
    pub scan_pages_per_s: f64,
    /// Eviction clock.
    pub freed_page_clock: u64,
    /// `Pages made young` so far.
    pub made_young: u64,
    /// `Pages not made young` so far.
    pub not_made_young: u64,
    /// Scanned-table pages the boundary turned young, so far.
    pub scan_slid_young: u64,
    /// Scanned-table pages promoted from old, so far.
    pub scan_promoted: u64,
}

/// The summary of a run: what the CLI prints and other tools read.
#[derive(Clone, Debug, Serialize)]
pub struct RunReport {
    /// Every parameter used, defaults included.
    pub parameters: Params,
    /// Frames per instance the pool size gives.
    pub frames_per_instance: u32,
    /// Pages of the scanned table.
    pub scan_table_pages: u32,
    /// Pages of the hot set.
    pub hot_pages: u32,
    /// Mean hot-set residency over the measurement window (0..1), as seed 000 defines "kept".
    /// NaN when the window holds no sample (a run without a scan phase, `--scan-s 0`): JSON then
    /// gives `"kept": null` and a `"kept_note"` saying why.
    #[serde(flatten, serialize_with = "kept_fields")]
    pub kept: f64,
    /// The window "kept" averages over, seconds since the warm-up started: [from, to].
    pub kept_window_s: [f64; 2],
    /// Scanned-table pages turned young per second of scanning, any route (slide + promotion).
    pub young_leak_pages_per_s: f64,
    /// ... of which by the boundary slide.
    pub slid_young_per_s: f64,
    /// ... of which by promotion from the old sublist (`Pages made young`).
    pub promoted_per_s: f64,
    /// Net growth of the scanned table's young page count per second of scanning (what seed 000
    /// measured from `IS_OLD`).
    pub scan_young_growth_per_s: f64,
    /// Of the slide: scanned-table pages turned young while the LRU list grew past its longest
    /// so far (a pool filling after a restart), during the scan phase. Absent when 0.
    #[serde(default, skip_serializing_if = "is_zero_u64")]
    pub scan_growth_slid_young: u64,
    /// Lookups per second during the scan phase.
    pub lookups_per_s: f64,
    /// Lookups per second during the warm-up.
    pub lookups_per_s_warmup: f64,
    /// Scanned pages per second during the scan phase.
    pub scan_pages_per_s: f64,
    /// Completed scan passes.
    pub scan_passes: u32,
    /// LRU batches run (all instances), during the whole run.
    pub lru_batches: u64,
    /// LRU batches during the scan phase that evicted at least one page.
    pub refills_during_scan: u64,
    /// Mean pages evicted by those refills.
    pub mean_refill_pages: f64,
    /// Counters summed over instances.
    pub counters: Stats,
    /// Every LRU batch that evicted pages.
    pub batches: Vec<BatchReport>,
    /// The time series.
    pub samples: Vec<Sample>,
}

/// Why a run has no "kept" figure.
pub const KEPT_NOT_APPLICABLE: &str =
    "not applicable: kept is measured over the scan phase, and this run has none (scan_s = 0)";

/// Serializes `kept` as `"kept": <number>`, or as `"kept": null` with a `"kept_note"`.
fn kept_fields<S: serde::Serializer>(kept: &f64, s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut m = s.serialize_map(None)?;
    if kept.is_finite() {
        m.serialize_entry("kept", kept)?;
    } else {
        m.serialize_entry("kept", &None::<f64>)?;
        m.serialize_entry("kept_note", KEPT_NOT_APPLICABLE)?;
    }
    m.end()
}

impl RunReport {
    /// `kept` as a percentage with one decimal and `width` characters for the number, or "n/a"
    /// (right-aligned in the same width) when the run has no scan phase.
    pub fn kept_percent(&self, width: usize) -> String {
        if self.kept.is_finite() {
            format!("{:width$.1} %", self.kept * 100.0)
        } else {
            format!("{:>width$}", "n/a")
        }
    }

    /// The one-line summary used by tables.
    pub fn summary_line(&self) -> String {
        format!(
            "kept {:>5}%  leak {:6.1} pages/s (net {:6.1})  lookups {:6.0}/s  refills {:3} (mean {:5.0} pages)",
            if self.kept.is_finite() {
                format!("{:.1}", self.kept * 100.0)
            } else {
                "n/a".into()
            },
            self.young_leak_pages_per_s,
            self.scan_young_growth_per_s,
            self.lookups_per_s,
            self.refills_during_scan,
            self.mean_refill_pages
        )
    }
}

/// The mean of `f` over samples with `from < t_s <= to`.
pub fn mean_over(samples: &[Sample], from: f64, to: f64, f: impl Fn(&Sample) -> f64) -> f64 {
    let v: Vec<f64> = samples
        .iter()
        .filter(|s| s.t_s > from + 1e-9 && s.t_s <= to + 1e-9)
        .map(f)
        .collect();
    if v.is_empty() {
        f64::NAN
    } else {
        v.iter().sum::<f64>() / v.len() as f64
    }
}

/// Mean, min, max and median of a set of figures (one per run, per sample, ...). Values that
/// are not finite (`NaN`: the run could not tell) are left out and counted in `skipped`; with no
/// finite value left, every statistic is `NaN`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// Finite values summarised.
    pub n: usize,
    /// Values left out because they were not finite.
    pub skipped: usize,
    pub mean: f64,
    pub min: f64,
    pub max: f64,
    /// The middle value; the mean of the two middle values for an even count.
    pub median: f64,
}

impl Summary {
    /// Summarises `values` (the mean is their sum in order, divided by their count).
    pub fn of(values: impl IntoIterator<Item = f64>) -> Summary {
        let mut v = Vec::new();
        let mut skipped = 0;
        for x in values {
            if x.is_finite() {
                v.push(x);
            } else {
                skipped += 1;
            }
        }
        if v.is_empty() {
            return Summary {
                n: 0,
                skipped,
                mean: f64::NAN,
                min: f64::NAN,
                max: f64::NAN,
                median: f64::NAN,
            };
        }
        let mean = v.iter().sum::<f64>() / v.len() as f64;
        let min = v.iter().copied().fold(f64::INFINITY, f64::min);
        let max = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        v.sort_by(f64::total_cmp);
        let mid = v.len() / 2;
        let median = if v.len() % 2 == 1 {
            v[mid]
        } else {
            (v[mid - 1] + v[mid]) / 2.0
        };
        Summary {
            n: v.len(),
            skipped,
            mean,
            min,
            max,
            median,
        }
    }
}

/// The mean of the finite values (`NaN` if none): shorthand for `Summary::of(values).mean`.
pub fn mean(values: impl IntoIterator<Item = f64>) -> f64 {
    Summary::of(values).mean
}

/// The time series as CSV: the parameters as comment lines, then one row per sample.
pub fn samples_csv(params: &Params, samples: &[Sample]) -> String {
    let mut s = params.csv_header("run");
    s.push_str("t_s,hot_resident,hot_young,hot_old,scan_young,scan_old,filler_young,filler_old,free,lru_len,old_len,lookups_per_s,lookup_hit_ratio,scan_pages_per_s,made_young,not_made_young,scan_slid_young,scan_promoted\n");
    for x in samples {
        s.push_str(&format!(
            "{},{},{},{},{},{},{},{},{},{},{},{:.1},{:.4},{:.1},{},{},{},{}\n",
            x.t_s,
            x.hot_resident,
            x.hot_young,
            x.hot_old,
            x.scan_young,
            x.scan_old,
            x.filler_young,
            x.filler_old,
            x.free,
            x.lru_len,
            x.old_len,
            x.lookups_per_s,
            x.lookup_hit_ratio,
            x.scan_pages_per_s,
            x.made_young,
            x.not_made_young,
            x.scan_slid_young,
            x.scan_promoted
        ));
    }
    s
}

fn is_zero_u64(v: &u64) -> bool {
    *v == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_of_runs() {
        let s = Summary::of([3.0, 1.0, f64::NAN, 2.0, 10.0]);
        assert_eq!((s.n, s.skipped), (4, 1));
        assert_eq!(s.mean, 4.0);
        assert_eq!((s.min, s.max), (1.0, 10.0));
        assert_eq!(s.median, 2.5);
        assert_eq!(Summary::of([5.0, 1.0, 3.0]).median, 3.0);
    }

    #[test]
    fn stats_of_nothing_is_nan() {
        let s = Summary::of([f64::NAN]);
        assert_eq!((s.n, s.skipped), (0, 1));
        assert!(s.mean.is_nan() && s.min.is_nan() && s.max.is_nan() && s.median.is_nan());
        assert!(mean(std::iter::empty()).is_nan());
    }
}

/// What a write-path run measured.
#[derive(Clone, Debug, Serialize)]
pub struct WriteReport {
    /// Every parameter used (the key every report's JSON uses).
    #[serde(rename = "parameters")]
    pub params: WriteParams,
    /// Transactions per second without the scan (the `base_s` window).
    pub tps: f64,
    /// sysbench "queries per sec." in the same window.
    pub qps: f64,
    /// Mean transaction latency, ms.
    pub latency_ms: f64,
    /// Transactions per second with the scan (last half of `scan_s`; 0 without a scan).
    pub tps_with_scan: f64,
    /// 1 − with / without (0 without a scan).
    pub scan_loss: f64,
    /// Mean fraction of the special distribution's hot pages resident (base window; with a
    /// scan, its measured window).
    pub hot_kept: f64,
    /// `Innodb_buffer_pool_wait_free` per second (measured windows).
    pub wait_free_per_s: f64,
    /// Writers that waited for a page's write io-fix, per second.
    pub page_write_waits_per_s: f64,
    /// Writers that waited in `log_free_check`, per second.
    pub log_waits_per_s: f64,
    /// Mean free frames, dirty %, and checkpoint age as % of the usable redo, per second samples.
    pub free_mean: f64,
    pub dirty_pct_mean: f64,
    pub checkpoint_age_pct_max: f64,
    /// Counters over the measured windows.
    pub dblwr: DblwrStats,
    pub device: DeviceStats,
    pub write: WriteStats,
    /// Mean doublewrite write latency, ms (`AVG_TIMER_WRITE`).
    pub dblwr_avg_write_ms: f64,
    /// Events processed.
    pub events: u64,
}
