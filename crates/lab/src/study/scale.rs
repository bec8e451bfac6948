//! Seed 000's experiment in big pools: the pool from 256 MiB up, with MySQL 8.4's default
//! instance count for each size, the hot set and the scanned table scaled with the pool, and
//! the page-cleaner cadence as calibrated (a refill after each activity event, one batch per
//! instance). Every instance is modelled in full: its own LRU list, free list and batch.

use crate::experiments::table::{Align, Table};
use midpoint_core::clock::{Micros, SEC};
use midpoint_core::metrics::{mean_over, RunReport, Sample};
use midpoint_core::scenario::{preset, Params};
use midpoint_core::sim::{Simulation, EPOCH};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The default pool sizes, MiB: 256 MiB (the seed's) to 32 GiB.
pub const DEFAULT_SIZES_MB: &[u32] = &[256, 1024, 4096, 16384, 32768];

/// The default scan durations, seconds, that `kept` is reported after (`ScaleRow::kept_by_scan_s`):
/// 150 s (the seed's scan phase) to 30 minutes, all read from one run of the longest.
pub const DEFAULT_DURATIONS_S: &[u32] = &[150, 300, 600, 1200, 1800];

/// The share of the hot set below which it counts as lost (`ScaleRow::onset_s`).
pub const ONSET_KEPT: f64 = 0.5;

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
    /// Kept (mean over the seeds) after each scan duration, seconds (strings in JSON): what a run
    /// with that `scan_s` reports (residency averaged over the last `kept_window_s` of the scan,
    /// the whole scan if shorter), read from one run of the longest duration.
    #[serde(default, deserialize_with = "seconds_keys")]
    pub kept_by_scan_s: BTreeMap<u32, f64>,
    /// Seconds of scanning until kept (as `kept_by_scan_s` defines it, mean over the seeds)
    /// first falls below [`ONSET_KEPT`], at the sampler's resolution (`sample_ms`); `None` if
    /// it stays at or above within the longest duration.
    #[serde(default)]
    pub onset_s: Option<f64>,
    /// The longest duration run, seconds of scanning (`onset_s` is looked for up to it).
    #[serde(default)]
    pub longest_scan_s: u32,
}

/// Reads `kept_by_scan_s` from an object whose keys are whole seconds as strings (serde_json
/// writes `u32` keys so; the page's JS object hands them over as strings too).
fn seconds_keys<'de, D: serde::Deserializer<'de>>(d: D) -> Result<BTreeMap<u32, f64>, D::Error> {
    let m = BTreeMap::<String, f64>::deserialize(d)?;
    m.into_iter()
        .map(|(k, v)| {
            k.parse::<u32>()
                .map(|k| (k, v))
                .map_err(|_| serde::de::Error::custom(format!("'{k}' is not whole seconds")))
        })
        .collect()
}

/// One seed's run: the report after `p.scan_s` seconds of scanning (what a run of that length
/// reports: nothing in the simulation looks ahead at its end) and every sample up to the end of
/// the longest duration.
fn run_seed(p: &Params, longest_s: u32) -> Result<(RunReport, Vec<Sample>), String> {
    let long = Params {
        scan_s: longest_s.max(p.scan_s),
        ..p.clone()
    };
    let mut sim = Simulation::new(&long)?;
    // The sampler runs first among events at the same time, so stopping at the sample that
    // ends the headline scan leaves the state a run ending there measures.
    sim.run_until(sim.scan_start() + p.scan_s as Micros * SEC);
    let headline = sim.report();
    sim.run_to_end();
    Ok((headline, sim.samples().to_vec()))
}

/// Checks that every duration ends on a sample (kept after it is then exact), and that the
/// longest is a valid `scan_s`.
pub fn check_durations(p: &Params, durations: &[u32]) -> Result<(), String> {
    for &d in durations.iter().chain([&p.scan_s]) {
        let end_ms = (p.warmup_s as u64 + d as u64) * 1000;
        if d == 0 || end_ms % p.sample_ms.max(1) as u64 != 0 {
            return Err(format!(
                "scan duration {d} s: must be > 0 and end on a sample (warm-up {} s + duration a multiple of sample_ms = {} ms)",
                p.warmup_s, p.sample_ms
            ));
        }
    }
    let longest = longest_scan(p, durations);
    Params {
        scan_s: longest,
        ..p.clone()
    }
    .validate()
    .map_err(|e| format!("longest scan {longest} s: {e}"))
}

/// The longest of the scan durations asked for and the row's own `scan_s`: how far the runs go.
fn longest_scan(p: &Params, durations: &[u32]) -> u32 {
    durations
        .iter()
        .copied()
        .chain([p.scan_s])
        .max()
        .unwrap_or(0)
}

/// The first sample time (seconds of scanning) at which the seeds' mean kept, as a run ending
/// there would measure it, is below [`ONSET_KEPT`]. Exact: sums of resident pages are integers,
/// and the test `2 Σ resident < n × hot_pages` needs no division. Every seed's samples are at
/// the same times.
pub fn onset(per_seed: &[Vec<Sample>], p: &Params) -> Option<f64> {
    let first = per_seed.first()?;
    let warm = p.warmup_s as f64;
    let kw = p.kept_window_s as f64;
    let hot = p.hot_pages.max(1) as u128;
    // Prefix sums over the seeds: sum[k] = resident pages in samples 0..k, all seeds.
    let mut sum = vec![0u128; first.len() + 1];
    for (k, _) in first.iter().enumerate() {
        let at: u128 = per_seed
            .iter()
            .map(|s| s.get(k).map_or(0, |x| x.hot_resident as u128))
            .sum();
        sum[k + 1] = sum[k] + at;
    }
    let seeds = per_seed.len() as u128;
    let mut lo = 0;
    for (j, s) in first.iter().enumerate() {
        let end = s.t_s;
        if end <= warm + 1e-9 {
            continue;
        }
        // The window `mean_over` takes for a run ending at `end` (sampler.rs: `report`).
        let from = (end - kw).max(warm.min(end));
        while lo <= j && first[lo].t_s <= from + 1e-9 {
            lo += 1;
        }
        let n = (j + 1 - lo) as u128;
        if n > 0 && 2 * (sum[j + 1] - sum[lo]) < n * seeds * hot {
            return Some(end - warm);
        }
    }
    None
}

/// Runs one size on seeds 1..=`seeds`: the row's figures after `p.scan_s` seconds of scanning,
/// and kept after each of `durations` (and the onset) from the same runs continued to the
/// longest.
pub fn run_row(p: &Params, seeds: u32, durations: &[u32]) -> Result<ScaleRow, String> {
    check_durations(p, durations)?;
    let longest = longest_scan(p, durations);
    let seeds = seeds.max(1);
    let mut kept = Vec::new();
    let (mut leak, mut refills, mut refill_pages, mut n_refills) = (0.0, 0.0, 0.0, 0.0);
    let (mut scan, mut passes, mut look) = (0.0, 0.0, 0.0);
    let inst = p.buffer_pool_instances.max(1) as f64;
    let scan_s = p.scan_s.max(1) as f64;
    let start_us = EPOCH + p.warmup_s as u64 * 1_000_000;
    // The seeds' runs at once (every core natively), summed in seed order.
    let runs = crate::ensemble::par_map(
        &(1..=seeds as u64).collect::<Vec<_>>(),
        |&s| {
            run_seed(
                &Params {
                    seed: s,
                    ..p.clone()
                },
                longest,
            )
        },
        |_, _| {},
    );
    let mut per_seed = Vec::new();
    for run in runs {
        let (r, samples) = run?;
        per_seed.push(samples);
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
    let warm = p.warmup_s as f64;
    let mut kept_by_scan_s = BTreeMap::new();
    for &d in durations {
        let end = warm + d as f64;
        let from = (end - p.kept_window_s as f64).max(warm);
        let k: f64 = per_seed
            .iter()
            .map(|s| {
                mean_over(s, from, end, |x| {
                    x.hot_resident as f64 / p.hot_pages.max(1) as f64
                })
            })
            .sum();
        kept_by_scan_s.insert(d, k / n);
    }
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
        memory_mb: Params {
            scan_s: longest,
            ..p.clone()
        }
        .memory_estimate() as f64
            / (1u64 << 20) as f64,
        onset_s: onset(&per_seed, p),
        kept_by_scan_s,
        longest_scan_s: longest,
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
    let mut out = t.markdown();
    out.push('\n');
    out.push_str(&over_time_markdown(rows));
    out
}

/// A duration as a column shows it: "150 s", "10 min".
pub fn duration_label(s: u32) -> String {
    if s >= 600 && s % 60 == 0 {
        format!("{} min", s / 60)
    } else {
        format!("{s} s")
    }
}

/// The second table: kept after each duration any row has, and the onset (kept below 50 %).
pub fn over_time_markdown(rows: &[ScaleRow]) -> String {
    let mut durations: Vec<u32> = rows
        .iter()
        .flat_map(|r| r.kept_by_scan_s.keys().copied())
        .collect();
    durations.sort_unstable();
    durations.dedup();
    let mut columns = vec![("pool".to_string(), Align::Right)];
    for &d in &durations {
        columns.push((format!("kept % after {}", duration_label(d)), Align::Right));
    }
    columns.push((
        format!("kept < {:.0} % after", ONSET_KEPT * 100.0),
        Align::Right,
    ));
    let mut t = Table::new(columns);
    for r in rows {
        let mut cells = vec![format!("{} MiB", r.pool_mb)];
        for d in &durations {
            cells.push(
                r.kept_by_scan_s
                    .get(d)
                    .map_or("-".into(), |k| format!("{:.1}", k * 100.0)),
            );
        }
        cells.push(match r.onset_s {
            Some(s) => format!("{} s", midpoint_core::scenario::fmt_num(s)),
            None => format!("not within {} s", r.longest_scan_s),
        });
        t.row(cells);
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

    /// One run continued to the longest duration gives, at every duration, what a run of that
    /// length gives (bit for bit), and the onset is the first second at which such a run's kept
    /// is below 50 %, checked by running the seconds on either side of it.
    #[test]
    fn one_long_run_gives_every_duration_exactly() {
        let base = preset("seed000-hot4485-b2b").unwrap().params;
        let p = Params {
            scan_s: 40,
            ..base.clone()
        };
        let durations = [10, 40, 200];
        let row = run_row(&p, 2, &durations).unwrap();
        assert_eq!(row.longest_scan_s, 200);
        let short = |scan_s: u32| {
            (1..=2u64)
                .map(|seed| {
                    midpoint_core::sim::run(&Params {
                        seed,
                        scan_s,
                        ..p.clone()
                    })
                    .unwrap()
                })
                .collect::<Vec<_>>()
        };
        let kept = |scan_s: u32| short(scan_s).iter().map(|r| r.kept).sum::<f64>() / 2.0;
        for d in durations {
            assert_eq!(row.kept_by_scan_s[&d].to_bits(), kept(d).to_bits(), "{d} s");
        }
        // The row's own figures are those of the 40 s scan.
        let r40 = short(40);
        assert_eq!(row.kept.to_bits(), row.kept_by_scan_s[&40].to_bits());
        assert_eq!(
            row.scan_passes,
            r40.iter().map(|r| r.scan_passes as f64).sum::<f64>() / 2.0
        );
        assert_eq!(
            row.leak_per_s_pool,
            r40.iter().map(|r| r.slid_young_per_s).sum::<f64>() / 2.0
        );
        // The seed's pool loses more than half of its 4,485 pages within 200 s (seeds 1 and 2).
        let t = row.onset_s.expect("kept falls below 50 % within 200 s") as u32;
        assert!(kept(t) < ONSET_KEPT, "{t} s");
        for before in [1, t / 2, t - 1].into_iter().filter(|&b| b > 0 && b < t) {
            assert!(kept(before) >= ONSET_KEPT, "{before} s of {t}");
        }
        // Five seconds into the scan the hot set is still there: no onset within the run.
        let keeps = run_row(
            &Params {
                scan_s: 5,
                ..p.clone()
            },
            1,
            &[5],
        )
        .unwrap();
        assert!(keeps.kept_by_scan_s[&5] >= ONSET_KEPT);
        assert_eq!(keeps.onset_s, None);
        // A duration that does not end on a sample is refused.
        let coarse = Params {
            sample_ms: 2000,
            ..p.clone()
        };
        assert!(run_row(&coarse, 1, &[41]).unwrap_err().contains("sample"));
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
