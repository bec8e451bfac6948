//! Seed 000's experiment in big pools: the pool from 256 MiB up, with MySQL 8.4's default
//! instance count for each size, the hot set and the scanned table scaled with the pool, and
//! the page-cleaner cadence as calibrated (a refill after each activity event, one batch per
//! instance). Every instance is modelled in full: its own LRU list, free list and batch.

use crate::experiments::table::{Align, Table};
use midpoint_core::scenario::{preset, Params};
use midpoint_core::sim;
use serde::{Deserialize, Serialize};

/// The default pool sizes, MiB: 256 MiB (the seed's) to 32 GiB.
pub const DEFAULT_SIZES_MB: &[u32] = &[256, 1024, 4096, 16384, 32768];

/// `innodb_buffer_pool_chunk_size` default, MiB.
pub const CHUNK_MB: u32 = 128;

/// MySQL 8.4's default `innodb_buffer_pool_instances` (`innodb_buffer_pool_size_init` in
/// handler/ha_innodb.cc): 1 below 1 GiB, else `clamp(min(size / (2 * chunk), vCPUs / 4), 1, 64)`.
pub fn default_instances(pool_mb: u32, vcpus: u32) -> u32 {
    if pool_mb < 1024 {
        return 1;
    }
    let bp_hint = pool_mb / (2 * CHUNK_MB);
    let cpu_hint = vcpus / 4;
    bp_hint.min(cpu_hint).clamp(1, 64)
}

/// `base` scaled to `pool_mb`: the hot set, the hot table and the scanned table grow by
/// `pool_mb / base.pool_mb`; instances follow 8.4's default for `vcpus`; everything else
/// (the cadence, the clients, the phases) stays.
pub fn scaled(base: &Params, pool_mb: u32, vcpus: u32) -> Result<Params, String> {
    let f = pool_mb as f64 / base.pool_mb as f64;
    let scale = |x: u32| ((x as f64 * f).round() as u32).max(1);
    let p = Params {
        pool_mb,
        buffer_pool_instances: default_instances(pool_mb, vcpus),
        hot_pages: scale(base.hot_pages),
        hot_table_pages: scale(base.hot_table_pages),
        scan_table_mb: scale(base.scan_table_mb),
        ..base.clone()
    };
    p.validate()
        .map_err(|e| format!("pool {pool_mb} MiB: {e}"))?;
    Ok(p)
}

/// One pool size.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ScaleRow {
    pub pool_mb: u32,
    pub instances: u32,
    pub frames_per_instance: u32,
    pub hot_pages: u32,
    pub scan_table_pages: u32,
    pub seeds: u32,
    /// Mean kept share over the seeds, and its range.
    pub kept: f64,
    pub kept_min: f64,
    pub kept_max: f64,
    /// Pages the boundary turned young per second during the scan, the whole pool.
    pub leak_per_s_pool: f64,
    /// ... per instance.
    pub leak_per_s_instance: f64,
    /// The pool's leak per second as a share of its young sublist (per mille).
    pub leak_per_mille_of_young_per_s: f64,
    /// Batches that evicted at least one page, per second during the scan, the whole pool.
    pub refills_per_s_pool: f64,
    /// ... per instance.
    pub refills_per_s_instance: f64,
    /// Mean pages per refill (one instance's batch).
    pub mean_refill_pages: f64,
    /// Scanned pages per second and completed passes.
    pub scan_pages_per_s: f64,
    pub scan_passes: f64,
    /// Lookups per second during the scan.
    pub lookups_per_s: f64,
    /// The run's memory estimate, MiB.
    pub memory_mb: f64,
}

/// Runs one size on seeds 1..=`seeds`.
pub fn run_row(p: &Params, seeds: u32) -> Result<ScaleRow, String> {
    let seeds = seeds.max(1);
    let mut kept = Vec::new();
    let (mut leak, mut refills, mut refill_pages, mut n_refills) = (0.0, 0.0, 0.0, 0.0);
    let (mut scan, mut passes, mut look) = (0.0, 0.0, 0.0);
    let inst = p.buffer_pool_instances.max(1) as f64;
    let scan_s = p.scan_s.max(1) as f64;
    let start_us = midpoint_core::sim::EPOCH + p.warmup_s as u64 * 1_000_000;
    // The seeds' runs at once (every core natively), summed in seed order.
    let reports = crate::ensemble::par_map(
        &(1..=seeds as u64).collect::<Vec<_>>(),
        |&s| {
            sim::run(&Params {
                seed: s,
                ..p.clone()
            })
        },
        |_, _| {},
    );
    for r in reports {
        let r = r?;
        kept.push(r.kept);
        leak += r.slid_young_per_s;
        let b: Vec<_> = r
            .batches
            .iter()
            .filter(|b| b.at_us >= start_us && b.evicted > 0)
            .collect();
        refills += b.len() as f64 / scan_s;
        refill_pages += b.iter().map(|b| b.evicted as f64).sum::<f64>();
        n_refills += b.len() as f64;
        scan += r.scan_pages_per_s;
        passes += r.scan_passes as f64;
        look += r.lookups_per_s;
    }
    let n = seeds as f64;
    let young = p.frames_per_instance() as f64 * inst * (1.0 - p.old_blocks_pct as f64 / 100.0);
    Ok(ScaleRow {
        pool_mb: p.pool_mb,
        instances: p.buffer_pool_instances,
        frames_per_instance: p.frames_per_instance(),
        hot_pages: p.hot_pages,
        scan_table_pages: p.scan_table_pages(),
        seeds,
        kept: kept.iter().sum::<f64>() / n,
        kept_min: kept.iter().copied().fold(f64::INFINITY, f64::min),
        kept_max: kept.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        leak_per_s_pool: leak / n,
        leak_per_s_instance: leak / n / inst,
        leak_per_mille_of_young_per_s: leak / n / young * 1000.0,
        refills_per_s_pool: refills / n,
        refills_per_s_instance: refills / n / inst,
        mean_refill_pages: if n_refills > 0.0 {
            refill_pages / n_refills
        } else {
            0.0
        },
        scan_pages_per_s: scan / n,
        scan_passes: passes / n,
        lookups_per_s: look / n,
        memory_mb: p.memory_estimate() as f64 / (1u64 << 20) as f64,
    })
}

/// The scaled parameters for each size, from a preset (seed 000's 4,485-page back-to-back cell
/// by default).
pub fn plan(preset_name: &str, sizes: &[u32], vcpus: u32) -> Result<Vec<Params>, String> {
    let base = preset(preset_name)?.params;
    sizes.iter().map(|&mb| scaled(&base, mb, vcpus)).collect()
}

/// Markdown for the rows (`wall_s`: the CLI's measured seconds per row; empty: no wall-time
/// column, so the table is the same on every run).
pub fn markdown(rows: &[ScaleRow], wall_s: &[f64]) -> String {
    let columns = [
        "pool",
        "instances",
        "frames/instance",
        "hot pages",
        "kept % (range)",
        "leak/s pool",
        "leak/s instance",
        "leak ‰ of young/s",
        "refills/s pool",
        "refills/s instance",
        "pages/refill",
        "scan pages/s",
        "passes",
        "lookups/s",
        "memory MiB",
        "wall s",
    ];
    let shown = if wall_s.is_empty() {
        &columns[..columns.len() - 1]
    } else {
        &columns[..]
    };
    let mut t = Table::new(shown.iter().map(|&h| (h, Align::Right)));
    for (k, r) in rows.iter().enumerate() {
        t.row([
            format!("{} MiB", r.pool_mb),
            r.instances.to_string(),
            r.frames_per_instance.to_string(),
            r.hot_pages.to_string(),
            format!(
                "{:.1} ({:.0}-{:.0})",
                r.kept * 100.0,
                r.kept_min * 100.0,
                r.kept_max * 100.0
            ),
            format!("{:.1}", r.leak_per_s_pool),
            format!("{:.1}", r.leak_per_s_instance),
            format!("{:.3}", r.leak_per_mille_of_young_per_s),
            format!("{:.3}", r.refills_per_s_pool),
            format!("{:.3}", r.refills_per_s_instance),
            format!("{:.0}", r.mean_refill_pages),
            format!("{:.0}", r.scan_pages_per_s),
            format!("{:.2}", r.scan_passes),
            format!("{:.0}", r.lookups_per_s),
            format!("{:.0}", r.memory_mb),
            wall_s.get(k).map_or("-".into(), |w| format!("{w:.1}")),
        ]);
    }
    t.markdown()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instances_follow_84s_rule() {
        assert_eq!(default_instances(256, 64), 1);
        assert_eq!(default_instances(1024, 2), 1);
        assert_eq!(default_instances(1024, 16), 4);
        assert_eq!(default_instances(4096, 16), 4);
        assert_eq!(default_instances(32768, 16), 4);
        assert_eq!(default_instances(32768, 64), 16);
        assert_eq!(default_instances(65536, 1024), 64);
    }

    #[test]
    fn scaling_keeps_the_ratios() {
        let base = preset("seed000-hot897-b2b").unwrap().params;
        let p = scaled(&base, 1024, 16).unwrap();
        assert_eq!(p.hot_pages, 897 * 4);
        assert_eq!(p.hot_table_pages, 4485 * 4);
        assert_eq!(p.scan_table_mb, 746 * 4);
        assert_eq!(p.buffer_pool_instances, 4);
        assert_eq!(p.cleaner, base.cleaner);
    }
}
