//! The write-path reproductions.
//!
//! **Seed 001, MySQL bug #115328**: sysbench `oltp_write_only` on MySQL 8.4.0 was slower with
//! `innodb_doublewrite_pages = 128` (the new default) than with 16: 22,852 vs 24,259 queries/s on
//! 16 threads (−5.8 %), 35,491 vs 40,553 on 64 threads (−12.5 %); the doublewrite file saw
//! 474,846 vs 3,928,403 writes (8.3× fewer) at 19.2 vs 2.0 ms average (9.7× longer).
//!
//! The setup is scaled down so that a run takes a second or two of wall time: a 1 GiB pool of 8
//! instances (the bug: 64 GiB, 8 instances), a table of 4.4× the pool (the bug's 8 × 140 M rows
//! are about 4.4× its pool, primary key and `k` index together), 20 s of virtual time (the bug:
//! 1,500 s), `innodb_io_capacity` 20000 as the bug set it, `innodb_lru_scan_depth` scaled with the
//! instance size (20000 × 8192 / 524288 = 312), and the redo capacity scaled with the pool
//! (8 GiB / 64 = 128 MiB). The rates (transactions, pages flushed per second) are not scaled: the
//! device is the same NVMe drive. See [`crate::write_sim::seed001_params`].
//!
//! **Seed 003, read-write half**: a concurrent full scan cost read-write sysbench 42 % with the
//! InnoDB Plugin's defaults (old_blocks_pct 37, old_blocks_time 0) and 34 % with old_blocks_pct 5,
//! old_blocks_time 1 ms.
//!
//! **The `lru_scan_depth` trade-off** on a write-heavy server with a concurrent scan: the leak
//! seed (000) showed that a deeper refill demotes more of the young sublist per refill; with dirty
//! pages, a shallow one leaves user threads without clean victims (`wait_free`, single-page
//! flushes).

use serde::Serialize;

use crate::write_sim::{
    depth_params, run as run_write, seed001_params, seed003_rw_params, WriteReport,
};

/// One simulated cell of seed 001.
#[derive(Clone, Debug, Serialize)]
pub struct Seed001Row {
    pub threads: u32,
    pub doublewrite_pages: u32,
    /// The bug's queries/s.
    pub seed_qps: f64,
    pub report: WriteReport,
}

/// The bug's figures: (threads, pages, queries/s).
pub const SEED_QPS: [(u32, u32, f64); 4] = [
    (16, 128, 22_852.44),
    (16, 16, 24_259.34),
    (64, 128, 35_491.13),
    (64, 16, 40_553.01),
];
/// The bug's doublewrite file: (pages, COUNT_WRITE, AVG_TIMER_WRITE ms).
pub const SEED_DBLWR: [(u32, u64, f64); 2] = [(128, 474_846, 19.235), (16, 3_928_403, 1.988)];

/// Runs the four cells.
pub fn run(mut progress: impl FnMut(usize, usize)) -> Vec<Seed001Row> {
    let mut v = Vec::new();
    for (k, &(threads, pages, seed_qps)) in SEED_QPS.iter().enumerate() {
        progress(k, SEED_QPS.len());
        let report = run_write(&seed001_params(threads, pages)).expect("valid preset");
        v.push(Seed001Row {
            threads,
            doublewrite_pages: pages,
            seed_qps,
            report,
        });
    }
    progress(SEED_QPS.len(), SEED_QPS.len());
    v
}

fn cell(rows: &[Seed001Row], threads: u32, pages: u32) -> Option<&Seed001Row> {
    rows.iter()
        .find(|r| r.threads == threads && r.doublewrite_pages == pages)
}

/// A derived comparison: (label, seed value, simulated value, band, within band).
pub type Check = (String, f64, f64, (f64, f64), bool);

/// The derived comparisons.
pub fn checks(rows: &[Seed001Row]) -> Vec<Check> {
    let mut v = Vec::new();
    for threads in [16, 64] {
        if let (Some(a), Some(b)) = (cell(rows, threads, 128), cell(rows, threads, 16)) {
            let seed = a.seed_qps / b.seed_qps;
            let sim = a.report.qps / b.report.qps;
            // Direction (128 slower) and a rough size: within ±10 points of the seed's ratio.
            let band = (seed - 0.10, 0.995);
            v.push((
                format!("{threads} threads: throughput 128 / 16 pages"),
                seed,
                sim,
                band,
                sim >= band.0 && sim <= band.1,
            ));
        }
    }
    if let (Some(a), Some(b)) = (cell(rows, 16, 128), cell(rows, 16, 16)) {
        let seed_n = SEED_DBLWR[1].1 as f64 / SEED_DBLWR[0].1 as f64;
        let sim_n = b.report.dblwr.writes as f64 / a.report.dblwr.writes.max(1) as f64;
        let band = (4.0, 12.0);
        v.push((
            "dblwr writes, 16 / 128 pages (16 threads)".into(),
            seed_n,
            sim_n,
            band,
            sim_n >= band.0 && sim_n <= band.1,
        ));
        let seed_l = SEED_DBLWR[0].2 / SEED_DBLWR[1].2;
        let sim_l = a.report.dblwr_avg_write_ms / b.report.dblwr_avg_write_ms.max(1e-9);
        let band = (4.0, 16.0);
        v.push((
            "dblwr average write latency, 128 / 16 pages (16 threads)".into(),
            seed_l,
            sim_l,
            band,
            sim_l >= band.0 && sim_l <= band.1,
        ));
    }
    v
}

/// Markdown tables for the README.
pub fn markdown(rows: &[Seed001Row]) -> String {
    let mut s = String::new();
    s.push_str("Seed 001 (MySQL bug #115328), scaled down: sysbench oltp_write_only, NVMe, 1 GiB pool of 8 instances.\n\n");
    s.push_str("| threads | doublewrite_pages | seed queries/s | simulated queries/s | simulated latency ms | dblwr writes/s | dblwr avg write ms | wait_free/s | dirty % |\n");
    s.push_str("|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for r in rows {
        let m = &r.report;
        let secs = (m.params.base_s) as f64;
        s.push_str(&format!(
            "| {} | {} | {:.0} | {:.0} | {:.2} | {:.0} | {:.2} | {:.1} | {:.1} |\n",
            r.threads,
            r.doublewrite_pages,
            r.seed_qps,
            m.qps,
            m.latency_ms,
            m.dblwr.writes as f64 / secs,
            m.dblwr_avg_write_ms,
            m.wait_free_per_s,
            m.dirty_pct_mean
        ));
    }
    s.push_str("\n| comparison | seed | simulated | band | ok |\n|---|---:|---:|---|---|\n");
    for (label, seed, sim, band, ok) in checks(rows) {
        s.push_str(&format!(
            "| {label} | {seed:.3} | {sim:.3} | {:.2} ..= {:.2} | {} |\n",
            band.0,
            band.1,
            if ok { "yes" } else { "no" }
        ));
    }
    s
}

/// A one-run summary for `run --preset <write preset>`.
pub fn report_text(name: &str, r: &WriteReport) -> String {
    let mut s = format!(
        "preset {name}: {} threads, {} CPUs, {:?}\n",
        r.params.threads, r.params.cpus, r.params.mix
    );
    s.push_str(&format!(
        "transactions/s {:.0}, queries/s {:.0}, latency {:.2} ms\n",
        r.tps, r.qps, r.latency_ms
    ));
    if r.params.scan_table_pages > 0 && r.params.scan_s > 0 {
        s.push_str(&format!(
            "with the scan: transactions/s {:.0} (loss {:.1} %)\n",
            r.tps_with_scan,
            r.scan_loss * 100.0
        ));
    }
    s.push_str(&format!(
        "hot set kept {:.1} %, mean free {:.0}, dirty {:.1} %, max checkpoint age {:.1} % of redo\n",
        r.hot_kept * 100.0,
        r.free_mean,
        r.dirty_pct_mean,
        r.checkpoint_age_pct_max
    ));
    s.push_str(&format!(
        "dblwr: {} writes ({} batch, {} single-page), avg {:.2} ms, {} pages, segment wait {:.0} ms\n",
        r.dblwr.writes,
        r.dblwr.batch_writes,
        r.dblwr.single_writes,
        r.dblwr_avg_write_ms,
        r.dblwr.pages,
        r.dblwr.segment_wait_us as f64 / 1000.0
    ));
    s.push_str(&format!(
        "pages written {} (LRU {}, flush list {}, single {}), wait_free/s {:.1}, page write waits/s {:.1}, log waits/s {:.1}\n",
        r.write.pages_written,
        r.write.lru_flushed,
        r.write.list_flushed,
        r.write.single_page_flushes,
        r.wait_free_per_s,
        r.page_write_waits_per_s,
        r.log_waits_per_s
    ));
    s.push_str(&format!(
        "device: {} reads (mean {:.0} µs), {} writes, {} fsyncs, mean latency {:.0} µs; {} events\n",
        r.device.reads,
        r.device.read_latency_us as f64 / r.device.reads.max(1) as f64,
        r.device.writes,
        r.device.fsyncs,
        r.device.total_latency_us as f64 / (r.device.reads + r.device.writes + r.device.fsyncs).max(1) as f64,
        r.events
    ));
    s
}

/// Seed 003's read-write rows.
#[derive(Clone, Debug, Serialize)]
pub struct Seed003RwRow {
    pub label: String,
    pub old_blocks_pct: u32,
    pub old_blocks_time: u32,
    /// The seed's loss.
    pub seed_loss: Option<f64>,
    pub report: WriteReport,
}

/// The three settings: the Plugin's defaults, the seed's tuning, MySQL 8.4's defaults.
pub const SEED003_RW: [(&str, u32, u32, Option<f64>); 3] = [
    ("InnoDB Plugin defaults", 37, 0, Some(0.42)),
    (
        "tuned: old_blocks_pct 5, old_blocks_time 1",
        5,
        1,
        Some(0.34),
    ),
    ("MySQL 8.4 defaults", 37, 1000, None),
];

/// Runs seed 003's read-write half.
pub fn seed003_rw(mut progress: impl FnMut(usize, usize)) -> Vec<Seed003RwRow> {
    let mut v = Vec::new();
    for (k, &(label, pct, time, seed_loss)) in SEED003_RW.iter().enumerate() {
        progress(k, SEED003_RW.len());
        let report = run_write(&seed003_rw_params(pct, time)).expect("valid preset");
        v.push(Seed003RwRow {
            label: label.into(),
            old_blocks_pct: pct,
            old_blocks_time: time,
            seed_loss,
            report,
        });
    }
    progress(SEED003_RW.len(), SEED003_RW.len());
    v
}

/// Markdown for seed 003's read-write half.
pub fn seed003_rw_markdown(rows: &[Seed003RwRow]) -> String {
    let mut s = String::from("Seed 003, read-write: sysbench oltp_read_write (8 threads, 4 CPUs, cloud volume) with a concurrent full scan.\n\n| setting | seed loss | simulated loss | tps without | tps with | hot kept % (with scan) |\n|---|---:|---:|---:|---:|---:|\n");
    for r in rows {
        s.push_str(&format!(
            "| {} | {} | {:.1} % | {:.0} | {:.0} | {:.1} |\n",
            r.label,
            r.seed_loss
                .map_or("—".to_string(), |l| format!("{:.0} %", l * 100.0)),
            r.report.scan_loss * 100.0,
            r.report.tps,
            r.report.tps_with_scan,
            r.report.hot_kept * 100.0
        ));
    }
    s
}

/// Default depths for the trade-off.
pub const DEPTHS: &[u32] = &[128, 256, 512, 1024, 2048, 4096];

/// One depth of the trade-off.
#[derive(Clone, Debug, Serialize)]
pub struct DepthRow {
    pub lru_scan_depth: u32,
    pub report: WriteReport,
}

/// Runs the trade-off.
pub fn depth_sweep(depths: &[u32], mut progress: impl FnMut(usize, usize)) -> Vec<DepthRow> {
    let mut v = Vec::new();
    for (k, &d) in depths.iter().enumerate() {
        progress(k, depths.len());
        v.push(DepthRow {
            lru_scan_depth: d,
            report: run_write(&depth_params(d)).expect("valid depth"),
        });
    }
    progress(depths.len(), depths.len());
    v
}

/// Markdown for the trade-off.
pub fn depth_markdown(rows: &[DepthRow]) -> String {
    let mut s = String::from("Write-heavy server (oltp_read_write, 32 threads, 16 CPUs, cloud volume, one 256 MiB instance) with a concurrent looping scan.\n\n| innodb_lru_scan_depth | hot set kept % (scan) | tps (scan) | tps (no scan) | wait_free/s | single-page flushes | LRU-batch flushed | mean free |\n|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for r in rows {
        let m = &r.report;
        s.push_str(&format!(
            "| {} | {:.1} | {:.0} | {:.0} | {:.1} | {} | {} | {:.0} |\n",
            r.lru_scan_depth,
            m.hot_kept * 100.0,
            m.tps_with_scan,
            m.tps,
            m.wait_free_per_s,
            m.write.single_page_flushes,
            m.write.lru_flushed,
            m.free_mean
        ));
    }
    s
}
