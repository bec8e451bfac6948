//! **Scan leak on MariaDB 10.11 beside MySQL 8.4 (seed 000's experiment on both engines).**
//! No MariaDB measurement exists: the MariaDB profile follows the source and is not calibrated,
//! so this report compares the two engines' simulations and checks nothing.

use super::table::{Align, Table};
use midpoint_core::metrics::{mean, RunReport};
use serde::Serialize;

/// Why the comparison counts no prediction.
pub const NO_MEASUREMENT: &str = "no MariaDB measurement exists: the profile follows the source, is not calibrated, and this comparison checks nothing";

/// The report's title.
pub const TITLE: &str = "Scan leak on MariaDB 10.11 beside MySQL 8.4 (seed 000's experiment)";

// ---- Runs: every call into the simulation, in one place. ----

fn simulate(preset: &str, seed: u64) -> RunReport {
    let mut p = midpoint_core::scenario::preset(preset)
        .expect("comparison presets exist")
        .params;
    p.seed = seed;
    midpoint_core::sim::run(&p).expect("valid preset")
}

/// One experiment on both engines.
#[derive(Clone, Debug, Serialize)]
pub struct CompareRow {
    /// What the experiment is.
    pub experiment: String,
    /// The MySQL 8.4 preset and the MariaDB one.
    pub presets: [String; 2],
    /// Per engine (MySQL, MariaDB), means over the runs.
    pub kept: [f64; 2],
    /// Scanned-table pages turned young per second (slide + promotion).
    pub leak_per_s: [f64; 2],
    /// LRU batches that evicted pages, per second of scanning.
    pub refills_per_s: [f64; 2],
    /// Mean pages per refill: the swing of the LRU length.
    pub refill_pages: [f64; 2],
    /// Lookups per second during the scans.
    pub lookups_per_s: [f64; 2],
}

/// The experiments: (what, MySQL 8.4 preset, MariaDB preset).
pub const PAIRS: [(&str, &str, &str); 4] = [
    (
        "4,485-page hot set, back-to-back scans, warm start",
        "seed000-hot4485-b2b",
        "mariadb-seed000-hot4485-b2b",
    ),
    (
        "4,485-page hot set, 2 s pause between scans",
        "seed000-hot4485-pause2000",
        "mariadb-seed000-hot4485-pause2000",
    ),
    (
        "cold start, back-to-back scans",
        "seed000-cold",
        "mariadb-seed000-cold",
    ),
    (
        "back to back; MariaDB with no page-cleaner LRU work (10.11.0-10.11.2)",
        "seed000-hot4485-b2b",
        "mariadb-seed000-hot4485-b2b-no-lru-cleaner",
    ),
];

/// Seed 000's experiments on MySQL 8.4 and on MariaDB 10.11.7+, `seeds` runs each.
pub fn compare(seeds: u32, mut progress: impl FnMut(usize, usize)) -> Vec<CompareRow> {
    let total = PAIRS.len() * 2 * seeds as usize;
    let mut done = 0;
    let mut out = Vec::new();
    for (what, my, ma) in PAIRS {
        let mut row = CompareRow {
            experiment: what.into(),
            presets: [my.into(), ma.into()],
            kept: [0.0; 2],
            leak_per_s: [0.0; 2],
            refills_per_s: [0.0; 2],
            refill_pages: [0.0; 2],
            lookups_per_s: [0.0; 2],
        };
        for (k, name) in [my, ma].into_iter().enumerate() {
            let mut runs = Vec::new();
            for s in 1..=seeds {
                runs.push(simulate(name, s as u64));
                done += 1;
                progress(done, total);
            }
            let of = |f: fn(&RunReport) -> f64| mean(runs.iter().map(f));
            row.kept[k] = of(|r| r.kept);
            row.leak_per_s[k] = of(|r| r.young_leak_pages_per_s);
            row.refills_per_s[k] =
                of(|r| r.refills_during_scan as f64 / r.parameters.scan_s.max(1) as f64);
            row.refill_pages[k] = of(|r| r.mean_refill_pages);
            row.lookups_per_s[k] = of(|r| r.lookups_per_s);
        }
        out.push(row);
    }
    out
}

/// The comparison as Markdown.
pub fn compare_markdown(rows: &[CompareRow]) -> String {
    let mut t = Table::new([
        ("seed 000 experiment", Align::Left),
        ("kept MySQL 8.4", Align::Right),
        ("kept MariaDB 10.11", Align::Right),
        ("scan pages turned young/s (MySQL / MariaDB)", Align::Right),
        ("refills/s (MySQL / MariaDB)", Align::Right),
        ("pages per refill (MySQL / MariaDB)", Align::Right),
        ("lookups/s (MySQL / MariaDB)", Align::Right),
    ]);
    for r in rows {
        t.row([
            r.experiment.clone(),
            format!("{:.0} %", r.kept[0] * 100.0),
            format!("{:.0} %", r.kept[1] * 100.0),
            format!("{:.0} / {:.0}", r.leak_per_s[0], r.leak_per_s[1]),
            format!("{:.2} / {:.1}", r.refills_per_s[0], r.refills_per_s[1]),
            format!("{:.0} / {:.0}", r.refill_pages[0], r.refill_pages[1]),
            format!("{:.0} / {:.0}", r.lookups_per_s[0], r.lookups_per_s[1]),
        ]);
    }
    t.markdown()
}
