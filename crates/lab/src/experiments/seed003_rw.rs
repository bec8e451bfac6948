//! **A full scan against read-write sysbench (seed 003, read-write half).** A concurrent full
//! scan cost read-write sysbench 42 % with the InnoDB Plugin's defaults (old_blocks_pct 37,
//! old_blocks_time 0) and 34 % with old_blocks_pct 5, old_blocks_time 1 ms.

use super::figure::{check, Check, Figure, Measured, SHARE_TOLERANCE};
use super::table::{Align, Table};
use midpoint_core::metrics::WriteReport;
use serde::Serialize;

/// The experiment's title.
pub const TITLE: &str = "A full scan against read-write sysbench (seed 003, read-write half)";

// ---- Runs: every call into the simulation, in one place. ----

fn simulate(old_blocks_pct: u32, old_blocks_time: u32) -> WriteReport {
    midpoint_core::sim::run_write(&midpoint_core::scenario::write::seed003_rw_params(
        old_blocks_pct,
        old_blocks_time,
    ))
    .expect("valid preset")
}

// ---- The figures. ----

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
        v.push(Seed003RwRow {
            label: label.into(),
            old_blocks_pct: pct,
            old_blocks_time: time,
            seed_loss,
            report: simulate(pct, time),
        });
    }
    progress(SEED003_RW.len(), SEED003_RW.len());
    v
}

/// The seed's figures, checked where the model reproduces them.
pub fn checks(rows: &[Seed003RwRow]) -> Vec<Check> {
    let mut v = Vec::new();
    if let Some(d) = rows.iter().find(|r| r.old_blocks_time == 0) {
        let (seed, tol) = (0.42, SHARE_TOLERANCE);
        v.push(check(
            Figure::within(
                "throughput lost to a concurrent scan, InnoDB Plugin defaults",
                "42 %",
                seed - tol,
                seed + tol,
                "stated tolerance: the seed's share ± 10 points",
            )
            .note(&format!(
                "band {:.0}-{:.0} %: the seed's 42 % ± {:.0} points",
                (seed - tol) * 100.0,
                (seed + tol) * 100.0,
                tol * 100.0
            )),
            Measured::Number(d.report.scan_loss),
            format!("{:.1} %", d.report.scan_loss * 100.0),
        ));
    }
    if let Some(t) = rows.iter().find(|r| r.old_blocks_pct == 5) {
        v.push(check(
            Figure::shown(
                "throughput lost, old_blocks_pct 5 and old_blocks_time 1",
                "34 %",
                "does not match: the simulator loses more with it (see docs/reproduction.md)",
            ),
            Measured::Number(t.report.scan_loss),
            format!("{:.1} %", t.report.scan_loss * 100.0),
        ));
        if let Some(d) = rows.iter().find(|r| r.old_blocks_time == 0) {
            let less = t.report.scan_loss < d.report.scan_loss;
            v.push(check(
                Figure::holds(
                    "the tuned settings (old_blocks_pct 5, old_blocks_time 1) lose less than the defaults",
                    "34 % vs 42 %",
                    "the direction the seed reports",
                )
                .note("the model's tuned run loses more than its default run, where the server's lost less. Not the write path: the doublewrite rules read from MySQL 8.4's buf0dblwr.cc (wait_for_pending_batch, is_fsync_required) move both losses by about a point and the order stays (`reproduce --experiment 001 --rules`). It is the leak: these presets run 8.4's page cleaner, whose every-second LRU batch (buf_flush_page_coordinator_thread, writes keep the server active) slides the boundary by about (1 - pct/100) x the refill less 40 pages, 0.95 of it at old_blocks_pct 5 against 0.63 at 37; the InnoDB Plugin the seed measured had no page cleaner (5.6 added it). With refills as small as 8.4 allows (--set lru_scan_depth=100) the tuned run loses 12 % against 43 %, the seed's direction (docs/reproduction.md)"),
                Measured::Claim(less),
                format!(
                    "{:.1} % vs {:.1} %",
                    t.report.scan_loss * 100.0,
                    d.report.scan_loss * 100.0
                ),
            ));
        }
    }
    v
}

/// Markdown for seed 003's read-write half.
pub fn seed003_rw_markdown(rows: &[Seed003RwRow]) -> String {
    let mut s = String::from("Seed 003, read-write: sysbench oltp_read_write (8 threads, 4 CPUs, cloud volume) with a concurrent full scan.\n\n");
    let mut t = Table::new([
        ("setting", Align::Left),
        ("seed loss", Align::Right),
        ("simulated loss", Align::Right),
        ("tps without", Align::Right),
        ("tps with", Align::Right),
        ("hot kept % (with scan)", Align::Right),
    ]);
    for r in rows {
        t.row([
            r.label.clone(),
            r.seed_loss
                .map_or("—".to_string(), |l| format!("{:.0} %", l * 100.0)),
            format!("{:.1} %", r.report.scan_loss * 100.0),
            format!("{:.0}", r.report.tps),
            format!("{:.0}", r.report.tps_with_scan),
            format!("{:.1}", r.report.hot_kept * 100.0),
        ]);
    }
    s.push_str(&t.markdown());
    s.push('\n');
    s.push_str(&super::seed002::checks_markdown(
        "seed 003 read-write",
        &checks(rows),
    ));
    s
}
