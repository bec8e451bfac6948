//! **innodb_lru_scan_depth on a write-heavy server with a concurrent scan.** Not a seed: the
//! trade-off seed 000 left open. A deeper refill demotes more of the young sublist per refill
//! (seed 000's leak); with dirty pages, a shallow one leaves user threads without clean victims
//! (`wait_free`, single-page flushes).

use super::table::{Align, Table};
use midpoint_core::metrics::WriteReport;
use serde::Serialize;

/// The report's title.
pub const TITLE: &str = "innodb_lru_scan_depth on a write-heavy server with a scan";

/// Default depths for the trade-off.
pub const DEPTHS: &[u32] = &[128, 256, 512, 1024, 2048, 4096];

// ---- Runs: every call into the simulation, in one place. ----

fn simulate(depth: u32) -> WriteReport {
    midpoint_core::sim::run_write(&midpoint_core::scenario::write::depth_params(depth))
        .expect("valid depth")
}

/// One depth of the trade-off.
#[derive(Clone, Debug, Serialize)]
pub struct DepthRow {
    pub lru_scan_depth: u32,
    pub report: WriteReport,
}

/// Runs the trade-off.
pub fn depth_sweep(depths: &[u32], progress: impl FnMut(usize, usize) + Send) -> Vec<DepthRow> {
    // Every depth at once (every core natively), back in the depths' order.
    crate::ensemble::par_map(
        depths,
        |&d| DepthRow {
            lru_scan_depth: d,
            report: simulate(d),
        },
        progress,
    )
}

/// Markdown for the trade-off.
pub fn depth_markdown(rows: &[DepthRow]) -> String {
    let mut s = String::from("Write-heavy server (oltp_read_write, 32 threads, 16 CPUs, cloud volume, one 256 MiB instance) with a concurrent looping scan.\n\n");
    let mut t = Table::new(
        [
            "innodb_lru_scan_depth",
            "hot set kept % (scan)",
            "tps (scan)",
            "tps (no scan)",
            "wait_free/s",
            "single-page flushes",
            "LRU-batch flushed",
            "mean free",
        ]
        .map(|h| (h, Align::Right)),
    );
    for r in rows {
        let m = &r.report;
        t.row([
            r.lru_scan_depth.to_string(),
            format!("{:.1}", m.hot_kept * 100.0),
            format!("{:.0}", m.tps_with_scan),
            format!("{:.0}", m.tps),
            format!("{:.1}", m.wait_free_per_s),
            m.write.single_page_flushes.to_string(),
            m.write.lru_flushed.to_string(),
            format!("{:.0}", m.free_mean),
        ]);
    }
    s.push_str(&t.markdown());
    s
}
