//! The model beside the measurement: the simulator with the server's settings, as an ensemble of
//! runs that differ only in their RNG seed, measured by the same functions as the server.

use super::plan::{CpuModel, Plan, Settings, DEFAULT_CPU_MODEL};
use super::procedure::Measured;
use super::sample::{count_refills, kept_of, leak_rate, mean_between, tail_window};
use super::server::ServerInfo;
use midpoint_core::engine::Engine;
use midpoint_core::metrics::RunReport;
use midpoint_core::scenario::Params;
use serde::Serialize;

/// The CPU models the experiment simulates: the default one's `cpus` (reported as
/// `"simulated"`) and the other one's JSON key and `cpus`, when it can be run.
///
/// `cpus` 0 is the fixed factor (`scan_interference`); N > 0 processor sharing over N CPUs,
/// the server's: `server_cpus` (`--server-cpus`, or this machine's on loopback). The clients
/// run on the server's machine in the live run, so each lookup's CPU burst is the whole idle
/// loop (`1e6 / idle_lookups_per_s`: the server's CPU, the client's and the loopback round
/// trip); page reads are waits off the CPU in the core's model ([`midpoint_core::cpu`]).
pub fn cpu_models(s: &Settings, server_cpus: Option<u32>) -> (u32, Option<(&'static str, u32)>) {
    let primary = s.cpus.unwrap_or(match DEFAULT_CPU_MODEL {
        CpuModel::Fixed => 0,
        CpuModel::Shared => server_cpus.unwrap_or(0),
    });
    let other = if primary == 0 {
        server_cpus.map(|c| ("simulated_shared", c))
    } else {
        Some(("simulated_fixed", 0))
    };
    (primary, other)
}

/// The simulator's parameters for the live run's settings, with `cpus` (0: the fixed factor).
pub fn params_for(info: &ServerInfo, s: &Settings, plan: &Plan, m: &Measured, cpus: u32) -> Params {
    let mut p = Params::default();
    // Setting the engine resets lru_scan_depth and the instance count to its defaults; the
    // server's values are set after it.
    p.engine = if info.mariadb {
        Engine::Mariadb1011
    } else {
        Engine::Mysql84
    };
    p.lru_scan_depth = p.engine.default_lru_scan_depth();
    p.buffer_pool_instances = 1;
    p.pool_mb = (info.pool_bytes / (1 << 20)).clamp(8, 65536) as u32;
    p.old_blocks_time = plan.old_blocks_time;
    p.old_blocks_pct = plan.old_blocks_pct;
    p.lru_scan_depth = plan.lru_scan_depth;
    let hot = m.hot_pages.clamp(1, 4_194_304) as u32;
    p.hot_pages = hot;
    p.hot_table_pages = hot;
    p.scan_table_mb = m.scan_pages.div_ceil(64).clamp(1, 262_144) as u32;
    p.scan_pause_ms = s.pause_ms;
    p.warmup_s = s.warmup_s;
    p.scan_s = s.scan_s;
    p.kept_window_s = s.scan_s.clamp(1, 60);
    p.sample_ms = s.free_sample_ms;
    p.cpus = cpus;
    if m.warmup_elapsed_s > 0.0 && m.lookups_warmup > 0 {
        p.idle_lookups_per_s = (m.lookups_warmup as f64 / m.warmup_elapsed_s).min(1_000_000.0);
    }
    if m.idle_scan_pages_per_s > 0.0 {
        p.idle_scan_pages_per_s = m.idle_scan_pages_per_s.min(1_000_000.0);
    }
    p
}

/// The ensemble's figures.
#[derive(Clone, Debug, Serialize)]
pub struct Simulated {
    pub cpu_model: CpuModel,
    /// `Params::cpus` (0 for the fixed factor).
    pub cpus: u32,
    pub runs: u32,
    pub kept_tail: f64,
    pub kept_tail_min: f64,
    pub kept_tail_max: f64,
    /// Mean over the runs at each sample time of the live run (seconds since the warm-up
    /// started), and the runs' lowest and highest.
    pub kept_by_s: Vec<(f64, f64)>,
    pub kept_by_s_min: Vec<(f64, f64)>,
    pub kept_by_s_max: Vec<(f64, f64)>,
    pub leak_pages_per_s: f64,
    pub leak_pages_per_s_min: f64,
    pub leak_pages_per_s_max: f64,
    /// Refills the live run's free-list sampler would have seen (the same detector on the
    /// model's free list sampled at the same interval), mean over the runs.
    pub refills: f64,
    pub refills_min: u64,
    pub refills_max: u64,
    /// The model's own count: LRU batches during the scan that evicted a page.
    pub lru_batches_during_scan: f64,
    pub lookups_per_s_warmup: f64,
    pub lookups_per_s_scan: f64,
    pub lookups_per_s_scan_min: f64,
    pub lookups_per_s_scan_max: f64,
    pub scan_pages_per_s: f64,
    pub passes: f64,
    pub frames: u32,
    pub params: Params,
}

/// The figures of one run, measured as the live run is.
struct One {
    kept_tail: f64,
    kept_by_s: Vec<(f64, f64)>,
    leak: f64,
    refills: u64,
    report: RunReport,
}

fn one(p: &Params, times: &[f64]) -> Result<One, String> {
    let report = midpoint_core::sim::run(p)?;
    let hot = p.hot_pages as u64;
    let at = |t: f64| {
        // The sample nearest to t (sampled every sample_ms from 0).
        report
            .samples
            .iter()
            .min_by(|a, b| (a.t_s - t).abs().total_cmp(&(b.t_s - t).abs()))
    };
    let kept_by_s: Vec<(f64, f64)> = times
        .iter()
        .filter_map(|&t| at(t).map(|s| (t, kept_of(s.hot_resident as u64, hot))))
        .collect();
    let (from, to) = tail_window(p.warmup_s as f64, p.scan_s as f64);
    let young: Vec<(f64, u64)> = times
        .iter()
        .filter_map(|&t| at(t).map(|s| (t, s.scan_young as u64)))
        .collect();
    let free: Vec<(f64, u64)> = report
        .samples
        .iter()
        .map(|s| (s.t_s, s.free as u64))
        .collect();
    Ok(One {
        kept_tail: mean_between(&kept_by_s, from, to),
        leak: leak_rate(&young, p.warmup_s as f64),
        refills: count_refills(&free, p.warmup_s as f64, to),
        kept_by_s,
        report,
    })
}

fn mean(v: impl Iterator<Item = f64>) -> f64 {
    let v: Vec<f64> = v.collect();
    v.iter().sum::<f64>() / v.len().max(1) as f64
}

fn min_max(v: impl Iterator<Item = f64>) -> (f64, f64) {
    v.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
        (lo.min(x), hi.max(x))
    })
}

/// Runs the ensemble (seeds 1..=runs), each measured at the live run's sample times.
pub fn ensemble(p: &Params, runs: u32, times: &[f64]) -> Result<Simulated, String> {
    p.validate()?;
    let mut all = Vec::new();
    for seed in 1..=runs as u64 {
        let mut q = p.clone();
        q.seed = seed;
        all.push(one(&q, times)?);
    }
    let (kmin, kmax) = min_max(all.iter().map(|o| o.kept_tail));
    let (lmin, lmax) = min_max(all.iter().map(|o| o.leak));
    let (smin, smax) = min_max(all.iter().map(|o| o.report.lookups_per_s));
    let per_time = |f: fn(f64, f64) -> f64, init: f64| -> Vec<(f64, f64)> {
        times
            .iter()
            .enumerate()
            .map(|(i, &t)| {
                (
                    t,
                    all.iter()
                        .filter_map(|o| o.kept_by_s.get(i).map(|x| x.1))
                        .fold(init, f),
                )
            })
            .collect()
    };
    let kept_by_s = times
        .iter()
        .enumerate()
        .map(|(i, &t)| {
            (
                t,
                mean(all.iter().filter_map(|o| o.kept_by_s.get(i).map(|x| x.1))),
            )
        })
        .collect();
    Ok(Simulated {
        cpu_model: if p.cpus == 0 {
            CpuModel::Fixed
        } else {
            CpuModel::Shared
        },
        cpus: p.cpus,
        runs,
        kept_tail: mean(all.iter().map(|o| o.kept_tail)),
        kept_tail_min: kmin,
        kept_tail_max: kmax,
        kept_by_s,
        kept_by_s_min: per_time(f64::min, f64::INFINITY),
        kept_by_s_max: per_time(f64::max, f64::NEG_INFINITY),
        leak_pages_per_s: mean(all.iter().map(|o| o.leak)),
        leak_pages_per_s_min: lmin,
        leak_pages_per_s_max: lmax,
        refills: mean(all.iter().map(|o| o.refills as f64)),
        refills_min: all.iter().map(|o| o.refills).min().unwrap_or(0),
        refills_max: all.iter().map(|o| o.refills).max().unwrap_or(0),
        lru_batches_during_scan: mean(all.iter().map(|o| o.report.refills_during_scan as f64)),
        lookups_per_s_warmup: mean(all.iter().map(|o| o.report.lookups_per_s_warmup)),
        lookups_per_s_scan: mean(all.iter().map(|o| o.report.lookups_per_s)),
        lookups_per_s_scan_min: smin,
        lookups_per_s_scan_max: smax,
        scan_pages_per_s: mean(all.iter().map(|o| o.report.scan_pages_per_s)),
        passes: mean(all.iter().map(|o| o.report.scan_passes as f64)),
        frames: p.frames_per_instance(),
        params: p.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_model_and_the_other_one() {
        let s = Settings::default();
        let (primary, other) = cpu_models(&s, Some(2));
        match DEFAULT_CPU_MODEL {
            CpuModel::Fixed => assert_eq!((primary, other), (0, Some(("simulated_shared", 2)))),
            CpuModel::Shared => assert_eq!((primary, other), (2, Some(("simulated_fixed", 0)))),
        }
        // The server's CPUs unknown (a remote server, no --server-cpus): the fixed factor only.
        assert_eq!(cpu_models(&s, None), (0, None));
        // --cpus chooses the default model; the other is then the fixed factor, or sharing.
        let fixed = Settings {
            cpus: Some(0),
            ..Settings::default()
        };
        assert_eq!(
            cpu_models(&fixed, Some(4)),
            (0, Some(("simulated_shared", 4)))
        );
        let shared = Settings {
            cpus: Some(3),
            ..Settings::default()
        };
        assert_eq!(
            cpu_models(&shared, Some(4)),
            (3, Some(("simulated_fixed", 0)))
        );
    }
}
