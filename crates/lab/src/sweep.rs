//! The sweep: "kept" against `innodb_lru_scan_depth`, one line per `innodb_old_blocks_time`.

use midpoint_core::scenario::Params;
use midpoint_core::sim;
use serde::Serialize;

/// Scan depths of the page's sweep (log axis, 100..8192).
pub const DEFAULT_DEPTHS: &[u32] = &[100, 128, 256, 512, 1024, 2048, 4096, 8192];
/// `old_blocks_time` lines of the page's sweep, ms.
pub const DEFAULT_TIMES: &[u32] = &[0, 250, 500, 1000, 2000];

/// One point of a sweep.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SweepPoint {
    pub lru_scan_depth: u32,
    pub old_blocks_time: u32,
    /// Kept; over several runs, the median.
    pub kept: f64,
    pub young_leak_pages_per_s: f64,
    pub lookups_per_s: f64,
    /// Over several runs (`sweep --runs N`): kept's range, [min, max]; absent for one run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kept_range: Option<[f64; 2]>,
}

/// A whole sweep.
#[derive(Clone, Debug, Serialize)]
pub struct SweepResult {
    /// The parameters every point shares (its depth and time replaced per point).
    pub base: Params,
    pub depths: Vec<u32>,
    pub times: Vec<u32>,
    /// Row-major: `points[t * depths.len() + d]`.
    pub points: Vec<SweepPoint>,
}

impl SweepResult {
    /// The point for time index `t` and depth index `d`.
    pub fn at(&self, t: usize, d: usize) -> &SweepPoint {
        &self.points[t * self.depths.len() + d]
    }

    /// The sweep as CSV: the shared parameters as comment lines, then one row per point.
    pub fn to_csv(&self) -> String {
        let mut s = self
            .base
            .csv_header("sweep (lru_scan_depth and old_blocks_time vary per row)");
        s.push_str("lru_scan_depth,old_blocks_time,kept,young_leak_pages_per_s,lookups_per_s\n");
        for q in &self.points {
            s.push_str(&format!(
                "{},{},{:.4},{:.2},{:.1}\n",
                q.lru_scan_depth,
                q.old_blocks_time,
                q.kept,
                q.young_leak_pages_per_s,
                q.lookups_per_s
            ));
        }
        s
    }
}

/// Runs one point of a sweep.
pub fn sweep_point(base: &Params, depth: u32, time: u32) -> Result<SweepPoint, String> {
    sweep_point_runs(base, depth, time, 1)
}

/// One point of a sweep over `runs` runs (RNG seeds `base.seed`, `base.seed + 1`, …): kept and
/// the other figures as medians, kept's range beside them. One run is [`sweep_point`].
pub fn sweep_point_runs(
    base: &Params,
    depth: u32,
    time: u32,
    runs: u32,
) -> Result<SweepPoint, String> {
    let p = Params {
        lru_scan_depth: depth,
        old_blocks_time: time,
        ..base.clone()
    };
    if runs == 1 {
        let r = sim::run(&p)?;
        return Ok(SweepPoint {
            lru_scan_depth: depth,
            old_blocks_time: time,
            kept: r.kept,
            young_leak_pages_per_s: r.young_leak_pages_per_s,
            lookups_per_s: r.lookups_per_s,
            kept_range: None,
        });
    }
    let e = crate::ensemble::run(&p, runs)?;
    let med = |n: &str| e.figure(n).map_or(f64::NAN, |s| s.median);
    Ok(SweepPoint {
        lru_scan_depth: depth,
        old_blocks_time: time,
        kept: e.kept.median,
        young_leak_pages_per_s: med("young_leak_pages_per_s"),
        lookups_per_s: med("lookups_per_s"),
        kept_range: Some([e.kept.min, e.kept.max]),
    })
}

/// Runs a whole sweep, calling `progress(done, total)` after each point.
pub fn sweep(
    base: &Params,
    depths: &[u32],
    times: &[u32],
    progress: impl FnMut(usize, usize) + Send,
) -> Result<SweepResult, String> {
    sweep_runs(base, depths, times, 1, progress)
}

/// [`sweep`] with `runs` runs per point ([`sweep_point_runs`]); the points run in parallel on
/// native builds ([`crate::ensemble::par_map`]), the result the same whatever the thread count.
pub fn sweep_runs(
    base: &Params,
    depths: &[u32],
    times: &[u32],
    runs: u32,
    progress: impl FnMut(usize, usize) + Send,
) -> Result<SweepResult, String> {
    let grid: Vec<(u32, u32)> = times
        .iter()
        .flat_map(|&t| depths.iter().map(move |&d| (d, t)))
        .collect();
    let points = crate::ensemble::par_map(
        &grid,
        |&(d, t)| sweep_point_runs(base, d, t, runs),
        progress,
    )
    .into_iter()
    .collect::<Result<Vec<_>, _>>()?;
    Ok(SweepResult {
        base: base.clone(),
        depths: depths.to_vec(),
        times: times.to_vec(),
        points,
    })
}
