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
    pub kept: f64,
    pub young_leak_pages_per_s: f64,
    pub lookups_per_s: f64,
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
    let p = Params {
        lru_scan_depth: depth,
        old_blocks_time: time,
        ..base.clone()
    };
    let r = sim::run(&p)?;
    Ok(SweepPoint {
        lru_scan_depth: depth,
        old_blocks_time: time,
        kept: r.kept,
        young_leak_pages_per_s: r.young_leak_pages_per_s,
        lookups_per_s: r.lookups_per_s,
    })
}

/// Runs a whole sweep, calling `progress(done, total)` after each point.
pub fn sweep(
    base: &Params,
    depths: &[u32],
    times: &[u32],
    mut progress: impl FnMut(usize, usize),
) -> Result<SweepResult, String> {
    let total = depths.len() * times.len();
    let mut points = Vec::with_capacity(total);
    for &t in times {
        for &d in depths {
            points.push(sweep_point(base, d, t)?);
            progress(points.len(), total);
        }
    }
    Ok(SweepResult {
        base: base.clone(),
        depths: depths.to_vec(),
        times: times.to_vec(),
        points,
    })
}
