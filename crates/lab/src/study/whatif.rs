//! The what-if patches against stock MySQL 8.4: kept on seed 000's cells, the scan's throughput,
//! and the write-heavy presets' transactions and free-list waits.

use crate::experiments::table::{Align, Table};
use midpoint_core::metrics::WriteReport;
use midpoint_core::pool::{WhatIf, WhatIfs};
use midpoint_core::scenario::write as write_presets;
use midpoint_core::scenario::{preset, presets, Params};
use midpoint_core::sim;
use midpoint_core::sim::run_write;
use serde::{Deserialize, Serialize};

/// Stock 8.4, then each candidate patch alone (the hypotheses are experiment 000's business).
pub fn variants() -> Vec<WhatIfs> {
    let mut v = vec![WhatIfs::NONE];
    v.extend(WhatIf::PATCHES.map(WhatIfs::only));
    v
}

/// One read-only cell under one variant, averaged over the seeds.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ReadRow {
    pub preset: String,
    /// `none` or the what-if's name.
    pub what_if: String,
    pub seeds: u32,
    /// Mean kept share over the seeds, and its range.
    pub kept: f64,
    pub kept_min: f64,
    pub kept_max: f64,
    /// Scanned pages per second during the scan phase (mean).
    pub scan_pages_per_s: f64,
    /// Lookups per second during the scan phase (mean).
    pub lookups_per_s: f64,
    /// Pages the boundary turned young per second during the scan (mean).
    pub slid_young_per_s: f64,
}

/// One write-heavy preset under one variant.
#[derive(Clone, Debug, Serialize)]
pub struct WriteRow {
    pub preset: String,
    pub what_if: String,
    pub lru_scan_depth: u32,
    pub tps: f64,
    pub tps_with_scan: f64,
    pub wait_free_per_s: f64,
    pub hot_kept: f64,
}

/// The whole comparison.
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    pub read: Vec<ReadRow>,
    pub write: Vec<WriteRow>,
}

/// Seed 000's 18 cells (hot set × pause × old_blocks_time), or with `quick` the 4,485-page
/// back-to-back cell alone.
pub fn seed000_cells(quick: bool) -> Vec<String> {
    presets()
        .into_iter()
        .map(|p| p.name)
        .filter(|n| {
            if quick {
                n == "seed000-hot4485-b2b"
            } else {
                n.starts_with("seed000-hot") && !n.contains("depth")
            }
        })
        .collect()
}

/// The write-heavy presets of `depth-sweep` (or, with `quick`, the default depth only).
pub fn write_presets(quick: bool) -> Vec<String> {
    write_presets::presets()
        .into_iter()
        .map(|p| p.name)
        .filter(|n| n.starts_with("writeheavy-") && (!quick || n.ends_with("-1024")))
        .collect()
}

/// Runs one read-only cell under one variant on `seeds` seeds (1, 2, ...).
pub fn read_row(name: &str, base: &Params, w: WhatIfs, seeds: u32) -> Result<ReadRow, String> {
    let mut kept = Vec::new();
    let (mut scan, mut look, mut slid) = (0.0, 0.0, 0.0);
    let reports = crate::ensemble::par_map(
        &(1..=seeds.max(1) as u64).collect::<Vec<_>>(),
        |&s| {
            sim::run(&Params {
                what_if: w,
                seed: s,
                ..base.clone()
            })
        },
        |_, _| {},
    );
    for r in reports {
        let r = r?;
        kept.push(r.kept);
        scan += r.scan_pages_per_s;
        look += r.lookups_per_s;
        slid += r.slid_young_per_s;
    }
    let n = kept.len() as f64;
    Ok(ReadRow {
        preset: name.into(),
        what_if: w.label(),
        seeds: seeds.max(1),
        kept: kept.iter().sum::<f64>() / n,
        kept_min: kept.iter().copied().fold(f64::INFINITY, f64::min),
        kept_max: kept.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        scan_pages_per_s: scan / n,
        lookups_per_s: look / n,
        slid_young_per_s: slid / n,
    })
}

/// Runs one write-heavy preset under one variant.
pub fn write_row(name: &str, w: WhatIfs) -> Result<WriteRow, String> {
    let wp = write_presets::preset(name).ok_or_else(|| format!("unknown write preset '{name}'"))?;
    let p = write_presets::WriteParams {
        what_if: w,
        ..wp.params
    };
    let r: WriteReport = run_write(&p)?;
    Ok(WriteRow {
        preset: name.into(),
        what_if: w.label(),
        lru_scan_depth: p.lru_scan_depth,
        tps: r.tps,
        tps_with_scan: r.tps_with_scan,
        wait_free_per_s: r.wait_free_per_s,
        hot_kept: r.hot_kept,
    })
}

/// Runs the comparison: every variant on every cell. `progress(done, total)`.
pub fn compare(
    cells: &[String],
    writes: &[String],
    seeds: u32,
    progress: impl FnMut(usize, usize) + Send,
) -> Result<Comparison, String> {
    let vs = variants();
    let total = (cells.len() * seeds.max(1) as usize + writes.len()) * vs.len();
    // Every (cell, variant) and (preset, variant) at once (every core natively), back in this
    // order; progress counts runs as they finish.
    let mut read_jobs = Vec::new();
    for c in cells {
        let base = preset(c)?.params;
        for &w in &vs {
            read_jobs.push((c, base.clone(), w));
        }
    }
    let write_jobs: Vec<(&String, WhatIfs)> = writes
        .iter()
        .flat_map(|c| vs.iter().map(move |&w| (c, w)))
        .collect();
    let per_read = seeds.max(1) as usize;
    let progress = std::sync::Mutex::new((0usize, progress));
    let tick = |k: usize| {
        let mut g = progress.lock().unwrap_or_else(|p| p.into_inner());
        g.0 += k;
        let d = g.0;
        (g.1)(d, total);
    };
    let read = crate::ensemble::par_map(
        &read_jobs,
        |(c, base, w)| {
            let r = read_row(c, base, *w, seeds);
            tick(per_read);
            r
        },
        |_, _| {},
    )
    .into_iter()
    .collect::<Result<Vec<_>, _>>()?;
    let write = crate::ensemble::par_map(
        &write_jobs,
        |(c, w)| {
            let r = write_row(c, *w);
            tick(1);
            r
        },
        |_, _| {},
    )
    .into_iter()
    .collect::<Result<Vec<_>, _>>()?;
    Ok(Comparison { read, write })
}

/// Stock and patched runs of the same parameters and seed, for a side-by-side figure: the two
/// reports' samples are on the same virtual clock.
pub fn side_by_side(
    p: &Params,
    w: WhatIfs,
) -> Result<
    (
        midpoint_core::metrics::RunReport,
        midpoint_core::metrics::RunReport,
    ),
    String,
> {
    let stock = sim::run(&Params {
        what_if: WhatIfs::NONE,
        ..p.clone()
    })?;
    let patched = sim::run(&Params {
        what_if: w,
        ..p.clone()
    })?;
    Ok((stock, patched))
}

/// Markdown: kept per cell (one column per variant), the scan's throughput, the write rows.
pub fn markdown(c: &Comparison) -> String {
    let vs = variants();
    let mut kept = Table::new(
        std::iter::once(("cell".to_string(), Align::Left)).chain(
            vs.iter()
                .map(|w| (format!("{} kept %", w.label()), Align::Right)),
        ),
    );
    let mut cells: Vec<&str> = c.read.iter().map(|r| r.preset.as_str()).collect();
    cells.dedup();
    for cell in &cells {
        let row = vs.iter().filter_map(|w| {
            let r = c
                .read
                .iter()
                .find(|r| r.preset == *cell && r.what_if == w.label())?;
            Some(if r.seeds > 1 {
                format!(
                    "{:.1} ({:.0}-{:.0})",
                    r.kept * 100.0,
                    r.kept_min * 100.0,
                    r.kept_max * 100.0
                )
            } else {
                format!("{:.1}", r.kept * 100.0)
            })
        });
        kept.row(std::iter::once(cell.to_string()).chain(row));
    }
    let mut scan = Table::new([
        ("cell", Align::Left),
        ("what-if", Align::Left),
        ("scan pages/s", Align::Right),
        ("lookups/s", Align::Right),
        ("slid young/s", Align::Right),
    ]);
    for r in c.read.iter().filter(|r| r.preset.ends_with("hot4485-b2b")) {
        scan.row([
            r.preset.clone(),
            r.what_if.clone(),
            format!("{:.0}", r.scan_pages_per_s),
            format!("{:.0}", r.lookups_per_s),
            format!("{:.1}", r.slid_young_per_s),
        ]);
    }
    let mut s = format!("{}\n{}", kept.markdown(), scan.markdown());
    if !c.write.is_empty() {
        let mut write = Table::new([
            ("write-heavy preset", Align::Left),
            ("what-if", Align::Left),
            ("tps (no scan)", Align::Right),
            ("tps (scan)", Align::Right),
            ("wait_free/s", Align::Right),
            ("hot kept %", Align::Right),
        ]);
        for r in &c.write {
            write.row([
                r.preset.clone(),
                r.what_if.clone(),
                format!("{:.0}", r.tps),
                format!("{:.0}", r.tps_with_scan),
                format!("{:.1}", r.wait_free_per_s),
                format!("{:.1}", r.hot_kept * 100.0),
            ]);
        }
        s.push('\n');
        s.push_str(&write.markdown());
    }
    s
}
