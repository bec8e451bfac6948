//! The write-path simulation: sysbench OLTP clients (closed loop, processor sharing over `cpus`)
//! against a pool with dirty pages, the flush list, the doublewrite buffer and a device, with the
//! page cleaner's one-second rounds (LRU batch, then adaptive flush-list batch) and its wake-ups
//! by user threads that found no clean victim.
//!
//! It is separate from [`crate::sim`] so that the read-only scenarios are untouched: their
//! parameters, reports and event order stay exactly as they were.

use serde::Serialize;

use crate::clock::{to_secs, Micros, MS, SEC};
use crate::cpu::Cpu;
use crate::io::{DeviceModel, DeviceStats};
use crate::pool::adaptive_flush::FlushConfig;
use crate::pool::doublewrite::DblwrStats;
use crate::pool::flush::{WriteConfig, WriteStats};
use crate::pool::page_cleaner::Coordinator;
use crate::pool::{BufferPool, Fetch, FetchMode, PageId, PoolConfig};
use crate::rng::Rng;
use crate::scenario::LookupDist;
use crate::sim::scheduler::Scheduler;
use crate::workload::sysbench::{Mix, Step, Sysbench};
use crate::workload::TableScan;

/// When the clients start, after the preload.
pub const EPOCH: Micros = SEC;
/// `INNOBASE_WAKE_INTERVAL`: every 32nd row write bumps the activity counter
/// (`innobase_active_small`).
pub const WAKE_INTERVAL: u64 = 32;
/// Delay between a user thread setting `buf_flush_event` and the cleaner running, µs.
pub const CLEANER_WAKE_US: Micros = 20;

const PK_SPACE: u32 = 0;
const SEC_SPACE: u32 = 1;
const SCAN_SPACE: u32 = 2;

// The actors, by priority on a tie.
const SAMPLER: u32 = 0;
const CLEANER: u32 = 1;
const CPU: u32 = 2;

/// Everything a write-path run needs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WriteParams {
    /// Random seed.
    pub seed: u64,
    /// The sysbench script.
    pub mix: Mix,
    /// Client threads.
    pub threads: u32,
    /// CPUs shared by the clients (and the scan).
    pub cpus: u32,
    /// `innodb_buffer_pool_instances`.
    pub instances: u32,
    /// Frames per instance.
    pub frames_per_instance: u32,
    /// Primary-key leaf pages of the table.
    pub table_pages: u32,
    /// Secondary-index (`k`) leaf pages.
    pub sec_pages: u32,
    /// `--rand-type`.
    pub dist: LookupDist,
    /// `innodb_old_blocks_pct`.
    pub old_blocks_pct: u32,
    /// `innodb_old_blocks_time`, ms.
    pub old_blocks_time: u32,
    /// `innodb_lru_scan_depth`.
    pub lru_scan_depth: u32,
    /// `innodb_io_capacity`.
    pub io_capacity: u64,
    /// `innodb_io_capacity_max`.
    pub io_capacity_max: u64,
    /// `innodb_max_dirty_pages_pct`.
    pub max_dirty_pages_pct: f64,
    /// `innodb_max_dirty_pages_pct_lwm`.
    pub max_dirty_pages_pct_lwm: f64,
    /// `innodb_flushing_avg_loops`.
    pub flushing_avg_loops: u32,
    /// `innodb_redo_log_capacity`, MiB.
    pub redo_log_capacity_mb: u64,
    /// Redo bytes per row change.
    pub redo_bytes_per_write: u64,
    /// `innodb_doublewrite`.
    pub doublewrite: bool,
    /// `innodb_doublewrite_pages`.
    pub doublewrite_pages: u32,
    /// Device preset: `nvme` or `cloud`.
    pub device: String,
    /// CPU per transaction step, µs.
    pub cpu_us_per_step: f64,
    /// Commit wait (redo write + fsync, group-committed), µs.
    pub commit_us: u64,
    /// Pages of a table scanned concurrently in a loop (0: no scan).
    pub scan_table_pages: u32,
    /// CPU per scanned page, µs.
    pub scan_cpu_us_per_page: f64,
    /// Seconds before measuring.
    pub warmup_s: u32,
    /// Seconds measured without the scan.
    pub base_s: u32,
    /// Seconds with the scan (0 when there is none); the last half is measured.
    pub scan_s: u32,
}

impl Default for WriteParams {
    fn default() -> Self {
        WriteParams {
            seed: 1,
            mix: Mix::WriteOnly,
            threads: 16,
            cpus: 24,
            instances: 8,
            frames_per_instance: 8_192,
            table_pages: 300_000,
            sec_pages: 30_000,
            dist: LookupDist::Special,
            old_blocks_pct: 37,
            old_blocks_time: 1000,
            lru_scan_depth: 1024,
            io_capacity: 10_000,
            io_capacity_max: 20_000,
            max_dirty_pages_pct: 90.0,
            max_dirty_pages_pct_lwm: 10.0,
            flushing_avg_loops: 30,
            redo_log_capacity_mb: 100,
            redo_bytes_per_write: 300,
            doublewrite: true,
            doublewrite_pages: 128,
            device: "nvme".into(),
            cpu_us_per_step: 40.0,
            commit_us: 200,
            scan_table_pages: 0,
            scan_cpu_us_per_page: 18.0,
            warmup_s: 10,
            base_s: 10,
            scan_s: 0,
        }
    }
}

/// What values a write-path parameter takes.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// A whole number in `min ..= max`.
    Int(u64, u64),
    /// A finite number in `min ..= max`.
    Real(f64, f64),
    /// One of these words.
    Choice(&'static [&'static str]),
}

/// One write-path parameter, declared once: [`WriteParams::set`], [`WriteParams::validate`], the
/// CLI's flags and their `--help` all read this table.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    /// The flag without dashes (`--io-capacity` is `io_capacity`).
    pub name: &'static str,
    /// The server variable it stands for, if any.
    pub innodb: Option<&'static str>,
    /// Unit.
    pub unit: &'static str,
    /// Allowed values.
    pub kind: Kind,
    /// What it is, in a few words.
    pub help: &'static str,
}

const fn spec(
    name: &'static str,
    innodb: Option<&'static str>,
    unit: &'static str,
    kind: Kind,
    help: &'static str,
) -> Spec {
    Spec {
        name,
        innodb,
        unit,
        kind,
        help,
    }
}

/// Every write-path parameter. Ranges follow the server variable's where there is one; sizes and
/// durations are bounded so that a run fits in memory ([`MEMORY_BUDGET`]) and ends.
pub const WRITE_SPECS: &[Spec] = &[
    spec(
        "seed",
        None,
        "",
        Kind::Int(0, u64::MAX),
        "random seed: the same seed gives the same run",
    ),
    spec(
        "mix",
        None,
        "",
        Kind::Choice(&["write-only", "read-write"]),
        "the sysbench script: oltp_write_only or oltp_read_write",
    ),
    spec(
        "threads",
        None,
        "threads",
        Kind::Int(1, 4096),
        "sysbench client threads",
    ),
    spec(
        "cpus",
        None,
        "CPUs",
        Kind::Int(1, 1024),
        "CPUs shared by the clients and the scan (processor sharing)",
    ),
    spec(
        "buffer_pool_instances",
        Some("innodb_buffer_pool_instances"),
        "",
        Kind::Int(1, 64),
        "buffer pool instances",
    ),
    spec(
        "frames_per_instance",
        None,
        "pages",
        Kind::Int(512, 4_194_304),
        "frames per instance (the pool size)",
    ),
    spec(
        "table_pages",
        None,
        "pages",
        Kind::Int(2, 100_000_000),
        "primary-key leaf pages of the sysbench table",
    ),
    spec(
        "sec_pages",
        None,
        "pages",
        Kind::Int(1, 100_000_000),
        "secondary-index (k) leaf pages",
    ),
    spec(
        "lookup_dist",
        None,
        "",
        Kind::Choice(&["uniform", "special"]),
        "sysbench --rand-type: uniform, or special (75 % of accesses on the first 1 %)",
    ),
    spec(
        "old_blocks_pct",
        Some("innodb_old_blocks_pct"),
        "%",
        Kind::Int(5, 95),
        "target share of the LRU list in the old sublist",
    ),
    spec(
        "old_blocks_time",
        Some("innodb_old_blocks_time"),
        "ms",
        Kind::Int(0, u32::MAX as u64),
        "an old page is promoted only when touched this long after its first access",
    ),
    spec(
        "lru_scan_depth",
        Some("innodb_lru_scan_depth"),
        "pages",
        Kind::Int(100, u32::MAX as u64),
        "the page cleaner tops the free list up to this many pages per instance",
    ),
    spec(
        "io_capacity",
        Some("innodb_io_capacity"),
        "pages/s",
        Kind::Int(100, u32::MAX as u64),
        "background flushing rate",
    ),
    spec(
        "io_capacity_max",
        Some("innodb_io_capacity_max"),
        "pages/s",
        Kind::Int(100, u32::MAX as u64),
        "the most adaptive flushing may write (>= io_capacity)",
    ),
    spec(
        "max_dirty_pages_pct",
        Some("innodb_max_dirty_pages_pct"),
        "%",
        Kind::Real(0.0, 99.999),
        "dirty share that flushes at io_capacity_max",
    ),
    spec(
        "max_dirty_pages_pct_lwm",
        Some("innodb_max_dirty_pages_pct_lwm"),
        "%",
        Kind::Real(0.0, 99.999),
        "dirty share where pre-flushing starts (<= max_dirty_pages_pct)",
    ),
    spec(
        "flushing_avg_loops",
        Some("innodb_flushing_avg_loops"),
        "rounds",
        Kind::Int(1, 1000),
        "rounds adaptive flushing averages over",
    ),
    spec(
        "redo_log_capacity_mb",
        Some("innodb_redo_log_capacity"),
        "MiB",
        Kind::Int(8, 524_288),
        "redo log capacity",
    ),
    spec(
        "redo_bytes_per_write",
        None,
        "bytes",
        Kind::Int(1, 1_000_000),
        "redo bytes per row change",
    ),
    spec(
        "doublewrite",
        Some("innodb_doublewrite"),
        "",
        Kind::Choice(&["on", "off"]),
        "write pages through the doublewrite buffer",
    ),
    spec(
        "doublewrite_pages",
        Some("innodb_doublewrite_pages"),
        "pages",
        Kind::Int(1, 512),
        "doublewrite batch size",
    ),
    spec(
        "device",
        None,
        "",
        Kind::Choice(&["nvme", "cloud"]),
        "the storage device: nvme or cloud (a network volume)",
    ),
    spec(
        "cpu_us_per_step",
        None,
        "µs",
        Kind::Real(0.1, 1_000_000.0),
        "CPU time per transaction step",
    ),
    spec(
        "commit_us",
        None,
        "µs",
        Kind::Int(0, 10_000_000),
        "commit wait (redo write and fsync, group-committed)",
    ),
    spec(
        "scan_table_pages",
        None,
        "pages",
        Kind::Int(0, 100_000_000),
        "pages of a table scanned in a loop beside the clients (0: no scan)",
    ),
    spec(
        "scan_cpu_us_per_page",
        None,
        "µs",
        Kind::Real(0.1, 100_000.0),
        "CPU time per scanned page",
    ),
    spec(
        "warmup_s",
        None,
        "s",
        Kind::Int(0, 3600),
        "seconds before measuring",
    ),
    spec(
        "base_s",
        None,
        "s",
        Kind::Int(0, 3600),
        "seconds measured without the scan",
    ),
    spec(
        "scan_s",
        None,
        "s",
        Kind::Int(0, 3600),
        "seconds with the scan (its last half is measured)",
    ),
];

/// The most memory a run may take: a run whose estimate is above is refused before allocating.
pub const MEMORY_BUDGET: u64 = 4 << 30;

/// A write-path parameter's declaration.
pub fn spec_of(name: &str) -> Option<&'static Spec> {
    WRITE_SPECS.iter().find(|s| s.name == name)
}

impl Spec {
    /// The allowed values, for messages and `--help`.
    pub fn allowed(&self) -> String {
        match self.kind {
            Kind::Int(lo, hi) => format!("{lo} ..= {hi} {}", self.unit)
                .trim_end()
                .to_string(),
            Kind::Real(lo, hi) => format!("{lo} ..= {hi} {}", self.unit)
                .trim_end()
                .to_string(),
            Kind::Choice(c) => c.join(", "),
        }
    }

    /// Parses and checks a value: the error names the parameter, the value and what is allowed.
    fn check(&self, v: &str) -> Result<f64, String> {
        let bad = || format!("{} = '{v}' is not allowed: {}", self.name, self.allowed());
        match self.kind {
            Kind::Int(lo, hi) => {
                let x: u64 = v.parse().map_err(|_| bad())?;
                if !(lo..=hi).contains(&x) {
                    return Err(bad());
                }
                Ok(x as f64)
            }
            Kind::Real(lo, hi) => {
                let x: f64 = v.parse().map_err(|_| bad())?;
                if !x.is_finite() || !(lo..=hi).contains(&x) {
                    return Err(bad());
                }
                Ok(x)
            }
            Kind::Choice(_) => Ok(0.0),
        }
    }
}

impl WriteParams {
    /// Sets one parameter from text (a CLI flag or `--set name=value`). `instances` and `dist`
    /// are accepted as older names of `buffer_pool_instances` and `lookup_dist`.
    pub fn set(&mut self, name: &str, v: &str) -> Result<(), String> {
        let name = match name.replace('-', "_").as_str() {
            "instances" => "buffer_pool_instances".to_string(),
            "dist" => "lookup_dist".to_string(),
            n => n.to_string(),
        };
        let v = v.trim();
        let Some(sp) = spec_of(&name) else {
            return Err(format!(
                "'{name}' is not a write-path parameter (they are: {})",
                WRITE_SPECS
                    .iter()
                    .map(|s| s.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        };
        let x = sp.check(v)?;
        let int = || v.parse::<u64>().expect("checked");
        match sp.name {
            "seed" => self.seed = int(),
            "mix" => self.mix = Mix::parse(v)?,
            "threads" => self.threads = x as u32,
            "cpus" => self.cpus = x as u32,
            "buffer_pool_instances" => self.instances = x as u32,
            "frames_per_instance" => self.frames_per_instance = x as u32,
            "table_pages" => self.table_pages = x as u32,
            "sec_pages" => self.sec_pages = x as u32,
            "lookup_dist" => {
                self.dist = match v {
                    "uniform" => LookupDist::Uniform,
                    "special" => LookupDist::Special,
                    _ => return Err(format!("lookup_dist = '{v}' is not uniform or special")),
                }
            }
            "old_blocks_pct" => self.old_blocks_pct = x as u32,
            "old_blocks_time" => self.old_blocks_time = x as u32,
            "lru_scan_depth" => self.lru_scan_depth = x as u32,
            "io_capacity" => self.io_capacity = int(),
            "io_capacity_max" => self.io_capacity_max = int(),
            "max_dirty_pages_pct" => self.max_dirty_pages_pct = x,
            "max_dirty_pages_pct_lwm" => self.max_dirty_pages_pct_lwm = x,
            "flushing_avg_loops" => self.flushing_avg_loops = x as u32,
            "redo_log_capacity_mb" => self.redo_log_capacity_mb = int(),
            "redo_bytes_per_write" => self.redo_bytes_per_write = int(),
            "doublewrite" => {
                self.doublewrite = match v {
                    "on" | "ON" | "1" | "true" => true,
                    "off" | "OFF" | "0" | "false" => false,
                    _ => return Err(format!("doublewrite = '{v}' is not on or off")),
                }
            }
            "doublewrite_pages" => self.doublewrite_pages = x as u32,
            "device" => {
                DeviceModel::by_name(v)?;
                self.device = v.into()
            }
            "cpu_us_per_step" => self.cpu_us_per_step = x,
            "commit_us" => self.commit_us = int(),
            "scan_table_pages" => self.scan_table_pages = x as u32,
            "scan_cpu_us_per_page" => self.scan_cpu_us_per_page = x,
            "warmup_s" => self.warmup_s = x as u32,
            "base_s" => self.base_s = x as u32,
            "scan_s" => self.scan_s = x as u32,
            other => unreachable!("{other} is declared in WRITE_SPECS but not set"),
        }
        Ok(())
    }

    /// Every parameter as (name, value) text, in [`WRITE_SPECS`] order.
    pub fn to_pairs(&self) -> Vec<(&'static str, String)> {
        WRITE_SPECS
            .iter()
            .map(|s| {
                let v = match s.name {
                    "seed" => self.seed.to_string(),
                    "mix" => self.mix.label().to_string(),
                    "threads" => self.threads.to_string(),
                    "cpus" => self.cpus.to_string(),
                    "buffer_pool_instances" => self.instances.to_string(),
                    "frames_per_instance" => self.frames_per_instance.to_string(),
                    "table_pages" => self.table_pages.to_string(),
                    "sec_pages" => self.sec_pages.to_string(),
                    "lookup_dist" => match self.dist {
                        LookupDist::Uniform => "uniform".into(),
                        LookupDist::Special => "special".into(),
                    },
                    "old_blocks_pct" => self.old_blocks_pct.to_string(),
                    "old_blocks_time" => self.old_blocks_time.to_string(),
                    "lru_scan_depth" => self.lru_scan_depth.to_string(),
                    "io_capacity" => self.io_capacity.to_string(),
                    "io_capacity_max" => self.io_capacity_max.to_string(),
                    "max_dirty_pages_pct" => self.max_dirty_pages_pct.to_string(),
                    "max_dirty_pages_pct_lwm" => self.max_dirty_pages_pct_lwm.to_string(),
                    "flushing_avg_loops" => self.flushing_avg_loops.to_string(),
                    "redo_log_capacity_mb" => self.redo_log_capacity_mb.to_string(),
                    "redo_bytes_per_write" => self.redo_bytes_per_write.to_string(),
                    "doublewrite" => if self.doublewrite { "on" } else { "off" }.into(),
                    "doublewrite_pages" => self.doublewrite_pages.to_string(),
                    "device" => self.device.clone(),
                    "cpu_us_per_step" => self.cpu_us_per_step.to_string(),
                    "commit_us" => self.commit_us.to_string(),
                    "scan_table_pages" => self.scan_table_pages.to_string(),
                    "scan_cpu_us_per_page" => self.scan_cpu_us_per_page.to_string(),
                    "warmup_s" => self.warmup_s.to_string(),
                    "base_s" => self.base_s.to_string(),
                    "scan_s" => self.scan_s.to_string(),
                    other => unreachable!("{other} is declared in WRITE_SPECS but not printed"),
                };
                (s.name, v)
            })
            .collect()
    }

    /// The memory a run takes at most, estimated from the parameters (bytes): per frame the LRU links,
    /// the frame's page, times and free-list slot, and the flush list's LSNs and tree entry; four
    /// bytes per page of each table (the page table).
    pub fn memory_estimate(&self) -> u64 {
        const PER_FRAME: u64 = 64 + 96;
        const PER_PAGE: u64 = 4;
        let frames = (self.instances as u64).saturating_mul(self.frames_per_instance as u64);
        let pages = self.table_pages as u64 + self.sec_pages as u64 + self.scan_table_pages as u64;
        frames
            .saturating_mul(PER_FRAME)
            .saturating_add(pages.saturating_mul(PER_PAGE))
    }

    /// Checks every value against its declaration ([`WRITE_SPECS`]), the rules between values,
    /// and the memory budget.
    pub fn validate(&self) -> Result<(), String> {
        for (name, v) in self.to_pairs() {
            spec_of(name).expect("declared").check(&v)?;
        }
        DeviceModel::by_name(&self.device)?;
        let chk = |ok: bool, msg: &str| if ok { Ok(()) } else { Err(msg.to_string()) };
        chk(
            self.io_capacity_max >= self.io_capacity,
            "io_capacity_max must be >= io_capacity",
        )?;
        chk(
            self.max_dirty_pages_pct_lwm <= self.max_dirty_pages_pct,
            "max_dirty_pages_pct_lwm must be <= max_dirty_pages_pct",
        )?;
        chk(
            self.base_s.checked_add(self.scan_s).is_some_and(|s| s > 0),
            "base_s + scan_s must be > 0",
        )?;
        if (self.scan_table_pages > 0) != (self.scan_s > 0) {
            return Err(format!(
                "scan_table_pages = {} and scan_s = {}: a concurrent scan needs both (a table to scan and seconds to scan it), or neither",
                self.scan_table_pages, self.scan_s
            ));
        }
        let m = self.memory_estimate();
        if m > MEMORY_BUDGET {
            return Err(format!(
                "this run would take about {:.1} GiB of memory ({} instances x {} frames, {} table pages); the limit is {} GiB",
                m as f64 / (1u64 << 30) as f64,
                self.instances,
                self.frames_per_instance,
                self.table_pages as u64 + self.sec_pages as u64 + self.scan_table_pages as u64,
                MEMORY_BUDGET >> 30
            ));
        }
        Ok(())
    }

    fn write_config(&self) -> WriteConfig {
        WriteConfig {
            doublewrite: self.doublewrite,
            doublewrite_pages: self.doublewrite_pages,
            redo_log_capacity: self.redo_log_capacity_mb << 20,
            flush: FlushConfig {
                io_capacity: self.io_capacity,
                io_capacity_max: self.io_capacity_max,
                max_dirty_pages_pct: self.max_dirty_pages_pct,
                max_dirty_pages_pct_lwm: self.max_dirty_pages_pct_lwm,
                adaptive_flushing_lwm: 10,
                flushing_avg_loops: self.flushing_avg_loops,
            },
        }
    }
}

/// A named write-path scenario.
#[derive(Clone, Debug)]
pub struct WritePreset {
    pub name: String,
    pub description: String,
    pub params: WriteParams,
}

/// Seed 001's setup, scaled down (the seed-001 reproduction explains the scale): 8 instances of 8,192 frames
/// (1 GiB against the bug's 64 GiB), a table 4.4× the pool as the bug's 8 × 140 M rows were,
/// its `innodb_io_capacity` 20000 and `innodb_lru_scan_depth` scaled with the instance
/// (20000 × 8192 / 524288 = 312), redo scaled with the pool (8 GiB / 64 = 128 MiB).
pub fn seed001_params(threads: u32, dblwr_pages: u32) -> WriteParams {
    WriteParams {
        mix: Mix::WriteOnly,
        threads,
        cpus: 24,
        instances: 8,
        frames_per_instance: 8_192,
        table_pages: 260_000,
        sec_pages: 30_000,
        dist: LookupDist::Special,
        lru_scan_depth: 312,
        io_capacity: 20_000,
        io_capacity_max: 40_000,
        redo_log_capacity_mb: 128,
        doublewrite_pages: dblwr_pages,
        device: "nvme".into(),
        // Calibrated once so that 16 threads give about the bug's transactions/s (each step a
        // statement's CPU and client round trip; the commit a group-committed redo fsync).
        cpu_us_per_step: 200.0,
        commit_us: 1000,
        warmup_s: 8,
        base_s: 12,
        ..WriteParams::default()
    }
}

/// Seed 003's read-write half: `oltp_read_write` on 8 threads and 4 CPUs with the special
/// distribution, and a concurrent looping scan of another table as large as the pool.
pub fn seed003_rw_params(old_blocks_pct: u32, old_blocks_time: u32) -> WriteParams {
    WriteParams {
        mix: Mix::ReadWrite,
        threads: 8,
        cpus: 4,
        instances: 1,
        frames_per_instance: 16_384,
        table_pages: 24_000,
        sec_pages: 3_000,
        dist: LookupDist::Special,
        old_blocks_pct,
        old_blocks_time,
        lru_scan_depth: 1024,
        io_capacity: 200,
        io_capacity_max: 2000,
        redo_log_capacity_mb: 64,
        device: "cloud".into(),
        scan_table_pages: 16_384,
        warmup_s: 5,
        base_s: 10,
        scan_s: 20,
        ..WriteParams::default()
    }
}

/// A write-heavy server with a concurrent scan, for the `lru_scan_depth` trade-off.
pub fn depth_params(depth: u32) -> WriteParams {
    WriteParams {
        mix: Mix::ReadWrite,
        threads: 32,
        cpus: 16,
        instances: 1,
        frames_per_instance: 16_384,
        table_pages: 60_000,
        sec_pages: 6_000,
        dist: LookupDist::Special,
        lru_scan_depth: depth,
        device: "cloud".into(),
        redo_log_capacity_mb: 64,
        scan_table_pages: 16_384,
        warmup_s: 5,
        base_s: 5,
        scan_s: 20,
        ..WriteParams::default()
    }
}

/// The write-path presets.
pub fn presets() -> Vec<WritePreset> {
    let mut v = Vec::new();
    for threads in [16, 64] {
        for pages in [128, 16] {
            v.push(WritePreset {
                name: format!("seed001-{threads}thd-dblwr{pages}"),
                description: format!(
                    "Seed 001 (MySQL bug #115328), scaled down: sysbench oltp_write_only, {threads} threads, innodb_doublewrite_pages {pages}, NVMe"
                ),
                params: seed001_params(threads, pages),
            });
        }
    }
    v.push(WritePreset {
        name: "seed001-16thd-dblwr-off".into(),
        description: "Seed 001's setup with innodb_doublewrite=OFF (comparison)".into(),
        params: WriteParams {
            doublewrite: false,
            ..seed001_params(16, 128)
        },
    });
    for (label, pct, time) in [("default", 37, 0), ("tuned", 5, 1), ("mysql84", 37, 1000)] {
        v.push(WritePreset {
            name: format!("seed003-rw-{label}"),
            description: format!(
                "Seed 003, read-write: sysbench oltp_read_write on 8 threads, 4 CPUs, with a concurrent full scan; old_blocks_pct {pct}, old_blocks_time {time}"
            ),
            params: seed003_rw_params(pct, time),
        });
    }
    for depth in [128, 1024, 4096] {
        v.push(WritePreset {
            name: format!("writeheavy-depth-{depth}"),
            description: format!(
                "A write-heavy server (oltp_read_write, 32 threads, cloud volume) with a concurrent scan, innodb_lru_scan_depth {depth}"
            ),
            params: depth_params(depth),
        });
    }
    v
}

/// A write-path preset by name.
pub fn preset(name: &str) -> Option<WritePreset> {
    presets().into_iter().find(|p| p.name == name)
}

/// What a run measured.
#[derive(Clone, Debug, Serialize)]
pub struct WriteReport {
    /// Every parameter used (the key every report's JSON uses).
    #[serde(rename = "parameters")]
    pub params: WriteParams,
    /// Transactions per second without the scan (the `base_s` window).
    pub tps: f64,
    /// sysbench "queries per sec." in the same window.
    pub qps: f64,
    /// Mean transaction latency, ms.
    pub latency_ms: f64,
    /// Transactions per second with the scan (last half of `scan_s`; 0 without a scan).
    pub tps_with_scan: f64,
    /// 1 − with / without (0 without a scan).
    pub scan_loss: f64,
    /// Mean fraction of the special distribution's hot pages resident (base window; with a
    /// scan, its measured window).
    pub hot_kept: f64,
    /// `Innodb_buffer_pool_wait_free` per second (measured windows).
    pub wait_free_per_s: f64,
    /// Writers that waited for a page's write io-fix, per second.
    pub page_write_waits_per_s: f64,
    /// Writers that waited in `log_free_check`, per second.
    pub log_waits_per_s: f64,
    /// Mean free frames, dirty %, and checkpoint age as % of the usable redo, per second samples.
    pub free_mean: f64,
    pub dirty_pct_mean: f64,
    pub checkpoint_age_pct_max: f64,
    /// Counters over the measured windows.
    pub dblwr: DblwrStats,
    pub device: DeviceStats,
    pub write: WriteStats,
    /// Mean doublewrite write latency, ms (`AVG_TIMER_WRITE`).
    pub dblwr_avg_write_ms: f64,
    /// Events processed.
    pub events: u64,
}

#[derive(Clone, Debug, Default)]
struct Client {
    steps: Vec<Step>,
    pos: usize,
    trx_start: Micros,
}

#[derive(Clone, Debug, Default)]
struct Window {
    trx: u64,
    lat_sum: u64,
    hot_sum: f64,
    samples: u64,
}

/// A running write-path simulation.
#[derive(Clone, Debug)]
pub struct WriteSimulation {
    p: WriteParams,
    /// The pool.
    pub pool: BufferPool,
    bench: Sysbench,
    rng: Rng,
    cpu: Cpu,
    clients: Vec<Client>,
    scan: Option<TableScan>,
    coordinator: Coordinator,
    tick_next: Micros,
    loop_start: Micros,
    last_pages: u64,
    wake_pending: bool,
    sample_next: Micros,
    now: Micros,
    base_from: Micros,
    scan_start: Micros,
    scan_from: Micros,
    end: Micros,
    row_ops: u64,
    events: u64,
    base: Window,
    with_scan: Window,
    page_waits: u64,
    log_waits: u64,
    free_sum: f64,
    dirty_sum: f64,
    n_samples: u64,
    age_max: f64,
    snap: Option<(DblwrStats, DeviceStats, WriteStats)>,
    /// The wake-ups of the sampler, the page cleaner and the CPU model (which runs the clients
    /// and the scan), in that order of priority on a tie.
    sched: Scheduler,
    /// Check the pool's invariants after every event (tests).
    pub validate_each_event: bool,
}

impl WriteSimulation {
    /// Builds the pool, preloads it (warm, clean), and starts the clients at [`EPOCH`].
    pub fn new(p: &WriteParams) -> Result<WriteSimulation, String> {
        p.validate()?;
        let cfg = PoolConfig {
            frames_per_instance: p.frames_per_instance,
            instances: p.instances,
            old_blocks_pct: p.old_blocks_pct,
            old_blocks_time_ms: p.old_blocks_time,
            lru_scan_depth: p.lru_scan_depth,
            ..PoolConfig::default()
        };
        let mut pool = BufferPool::new(
            cfg,
            &[p.table_pages, p.sec_pages, p.scan_table_pages.max(1)],
        );
        pool.enable_write_path(
            p.write_config(),
            Box::new(crate::io::Device::new(
                DeviceModel::by_name(&p.device).expect("validated"),
            )),
        );
        let bench = Sysbench {
            mix: p.mix,
            pk_space: PK_SPACE,
            pk_pages: p.table_pages,
            sec_space: SEC_SPACE,
            sec_pages: p.sec_pages,
            dist: p.dist,
        };
        let n = p.threads as usize;
        let scan = (p.scan_table_pages > 0 && p.scan_s > 0).then(|| {
            let mut s = TableScan::new(SCAN_SPACE, p.scan_table_pages, FetchMode::Normal);
            s.cpu_per_page_us = p.scan_cpu_us_per_page;
            s
        });
        let base_from = EPOCH + p.warmup_s as Micros * SEC;
        let scan_start = base_from + p.base_s as Micros * SEC;
        let end = scan_start
            + if scan.is_some() {
                p.scan_s as Micros * SEC
            } else {
                0
            };
        let scan_from = scan_start + (end - scan_start) / 2;
        let mut sim = WriteSimulation {
            pool,
            bench,
            rng: Rng::new(p.seed),
            cpu: Cpu::new(p.cpus, n + 1, EPOCH),
            clients: vec![Client::default(); n],
            scan,
            coordinator: Coordinator::default(),
            tick_next: EPOCH,
            loop_start: EPOCH - SEC,
            last_pages: 0,
            wake_pending: false,
            sample_next: EPOCH + SEC,
            now: 0,
            base_from,
            scan_start,
            scan_from,
            end,
            row_ops: 0,
            events: 0,
            base: Window::default(),
            with_scan: Window::default(),
            page_waits: 0,
            log_waits: 0,
            free_sum: 0.0,
            dirty_sum: 0.0,
            n_samples: 0,
            age_max: 0.0,
            snap: None,
            sched: Scheduler::new(3),
            validate_each_event: false,
            p: p.clone(),
        };
        sim.preload();
        for t in 0..n {
            sim.cpu.submit(t, EPOCH, 0.0);
        }
        if sim.scan.is_some() {
            sim.cpu.submit(n, scan_start, 0.0);
        }
        sim.reschedule();
        Ok(sim)
    }

    /// The parameters.
    pub fn params(&self) -> &WriteParams {
        &self.p
    }
    /// Virtual time, µs.
    pub fn now(&self) -> Micros {
        self.now
    }
    /// Events so far.
    pub fn events(&self) -> u64 {
        self.events
    }
    /// When the run ends (virtual time, µs).
    pub fn end(&self) -> Micros {
        self.end
    }

    /// A warm, clean pool: random table pages first (they end up at the tail), then the
    /// secondary index, then the hot set at the head; the free list topped up as an active
    /// server's page cleaner leaves it.
    fn preload(&mut self) {
        let total = self.pool.total_frames() as u64;
        let hot = self.bench.hot_pages();
        let mut pages: Vec<PageId> = Vec::new();
        let mut rng = Rng::new(self.p.seed ^ 0x5EED_0001);
        let n_sec = self.p.sec_pages as u64;
        let n_rest = total.saturating_sub(n_sec + hot as u64);
        for _ in 0..n_rest {
            let page_no = hot + rng.below(self.p.table_pages - hot);
            pages.push(PageId {
                space: PK_SPACE,
                page_no,
            });
        }
        for page_no in 0..self.p.sec_pages {
            pages.push(PageId {
                space: SEC_SPACE,
                page_no,
            });
        }
        for page_no in 0..hot {
            pages.push(PageId {
                space: PK_SPACE,
                page_no,
            });
        }
        let k = pages.len().max(1) as u64;
        for (j, page) in pages.into_iter().enumerate() {
            let t = 1 + j as u64 * (EPOCH - 2) / k;
            if !self.pool.contains(page) {
                self.pool.create(page, t);
            }
        }
        self.pool.lru_batch_all(EPOCH - 1);
        self.now = EPOCH;
    }

    /// Runs to the end.
    pub fn run_to_end(&mut self) -> Result<(), String> {
        while self.step()? {}
        Ok(())
    }

    /// Re-reads every actor's wake-up (three of them: cheaper than tracking which moved).
    fn reschedule(&mut self) {
        self.sched.set(SAMPLER, Some(self.sample_next));
        self.sched.set(CLEANER, Some(self.tick_next));
        self.sched.set(CPU, self.cpu.next_event());
    }

    /// Processes the next event; false at the end.
    pub fn step(&mut self) -> Result<bool, String> {
        let (t, which) = self.sched.peek().expect("the sampler is always scheduled");
        if t >= self.end {
            self.now = self.end;
            return Ok(false);
        }
        self.now = self.now.max(t);
        let t = self.now;
        self.pool.complete_writes(t);
        if self.snap.is_none() && t >= self.base_from {
            self.take_snapshot();
        }
        match which {
            SAMPLER => {
                self.sample();
                self.sample_next += SEC;
            }
            CLEANER => self.cleaner_round(t),
            _ => {
                self.cpu.advance(t);
                while let Some(th) = self.cpu.take_completed() {
                    self.pool.complete_writes(t);
                    if th < self.clients.len() {
                        self.client_step(th, t);
                    } else {
                        self.scan_step(t);
                    }
                    if self.pool.take_flush_event() {
                        self.wake_cleaner(t);
                    }
                }
            }
        }
        self.reschedule();
        self.events += 1;
        if self.validate_each_event {
            self.pool.validate()?;
        }
        Ok(true)
    }

    fn take_snapshot(&mut self) {
        let w = self.pool.write_path().expect("write path");
        self.snap = Some((
            w.dblwr.stats.clone(),
            w.device.stats().clone(),
            w.stats.clone(),
        ));
    }

    fn wake_cleaner(&mut self, t: Micros) {
        let ct = self.pool.write_path().map_or(0, |w| w.cleaner_t);
        if ct > t {
            // The cleaner is busy; the event makes its next wait return at once.
            self.wake_pending = true;
        } else if self.tick_next > t + CLEANER_WAKE_US {
            self.tick_next = t + CLEANER_WAKE_US;
        }
    }

    /// One round of `buf_flush_page_coordinator_thread`: on the one-second timeout the
    /// activity bookkeeping and `page_recommendation`; every instance's LRU batch, then the
    /// flush-list batches; then sleep to the next second (or not at all in sync flush).
    fn cleaner_round(&mut self, t: Micros) {
        let timeout = t >= self.loop_start + SEC;
        let mut run = true;
        if timeout {
            self.loop_start = t;
            run = self.coordinator.round_timeout();
        }
        let mut sync = false;
        if run {
            self.pool.lru_batch_all(t);
            let (n, s) = self.pool.flush_list_round(t, timeout, self.last_pages);
            sync = s;
            if timeout || s {
                self.last_pages = n;
            }
        }
        let ct = self.pool.write_path().map_or(t, |w| w.cleaner_t).max(t);
        self.tick_next = if sync {
            ct.max(t + MS)
        } else if std::mem::take(&mut self.wake_pending) {
            ct.max(t + CLEANER_WAKE_US)
        } else {
            ct.max(self.loop_start + SEC)
        };
    }

    fn submit(&mut self, th: usize, at: Micros, work: f64) {
        self.cpu.submit(th, at, work);
    }

    /// The measurement window time `t` falls in: the baseline before the scan, or the
    /// stretch with the scan running; `None` in the warm-up.
    fn window_at(&mut self, t: Micros) -> Option<&mut Window> {
        if t > self.scan_from && self.scan.is_some() {
            Some(&mut self.with_scan)
        } else if t > self.base_from && t <= self.scan_start {
            Some(&mut self.base)
        } else {
            None
        }
    }

    fn client_step(&mut self, th: usize, t: Micros) {
        let cpu = self.p.cpu_us_per_step;
        if self.clients[th].pos >= self.clients[th].steps.len() {
            let start = self.clients[th].trx_start;
            if start > 0 {
                let lat = t - start;
                if let Some(w) = self.window_at(t) {
                    w.trx += 1;
                    w.lat_sum += lat;
                }
            }
            let c = &mut self.clients[th];
            self.bench.transaction(&mut self.rng, &mut c.steps);
            c.pos = 0;
            c.trx_start = t;
        }
        let step = self.clients[th].steps[self.clients[th].pos];
        match step {
            Step::Begin => {
                self.clients[th].pos += 1;
                self.submit(th, t, cpu);
            }
            Step::Read(page) => match self.pool.fetch(page, FetchMode::Normal, t) {
                Fetch::Done { ready_at, .. } => {
                    self.clients[th].pos += 1;
                    self.submit(th, ready_at, cpu);
                }
                Fetch::NoFreeFrame { retry_at } => self.submit(th, retry_at.max(t + 1), 0.0),
            },
            Step::Write(page) => {
                // log_free_check before the mini-transaction.
                if self.pool.log_must_wait() {
                    self.log_waits += 1;
                    self.submit(th, t + MS, 0.0);
                    return;
                }
                match self.pool.fetch(page, FetchMode::Normal, t) {
                    Fetch::NoFreeFrame { retry_at } => self.submit(th, retry_at.max(t + 1), 0.0),
                    Fetch::Done { ready_at, .. } => {
                        if let Some(d) = self.pool.write_fixed_until(page) {
                            // The page is being written: the X latch waits for the write.
                            self.page_waits += 1;
                            let at = if d == crate::pool::flush_list::WRITE_PENDING {
                                t + MS
                            } else {
                                d.max(t + 1)
                            };
                            self.submit(th, at, 0.0);
                            return;
                        }
                        let lsn = self.pool.redo_append(self.p.redo_bytes_per_write);
                        self.pool.note_modification(page, lsn);
                        self.row_ops += 1;
                        if self.row_ops % WAKE_INTERVAL == 0 {
                            self.coordinator.note_activity();
                        }
                        self.clients[th].pos += 1;
                        self.submit(th, ready_at, cpu);
                    }
                }
            }
            Step::Commit => {
                self.coordinator.note_activity();
                self.clients[th].pos += 1;
                self.submit(th, t + self.p.commit_us, cpu);
            }
        }
    }

    fn scan_step(&mut self, t: Micros) {
        let n = self.clients.len();
        let scan = self.scan.as_mut().expect("scan thread");
        let cost = scan.page_cost_us();
        let (op, next) = scan.step(&mut self.pool, t);
        match op {
            Some(op) => self.submit(n, op.next_at - cost, cost as f64),
            None => self.submit(n, next.unwrap_or(t + 1).max(t + 1), 0.0),
        }
    }

    fn sample(&mut self) {
        let t = self.now;
        let hot = self.bench.hot_pages();
        let kept = self.pool.resident_prefix(PK_SPACE, hot) as f64 / hot as f64;
        if let Some(w) = self.window_at(t) {
            w.hot_sum += kept;
            w.samples += 1;
        }
        if t > self.base_from {
            self.free_sum += self.pool.free_len() as f64;
            self.dirty_sum += self.pool.modified_ratio_pct();
            self.n_samples += 1;
            let wp = self.pool.write_path().expect("write path");
            let age = wp.redo.age(self.pool.oldest_modification()) as f64 / wp.redo.usable() as f64;
            self.age_max = self.age_max.max(age * 100.0);
        }
    }

    /// The report (complete at the end).
    pub fn report(&self) -> WriteReport {
        let base_s = to_secs(self.scan_start - self.base_from);
        let scan_s = to_secs(self.end - self.scan_from);
        let meas_s = base_s + if self.scan.is_some() { scan_s } else { 0.0 };
        let tps = self.base.trx as f64 / base_s.max(1e-9);
        let tps_with = if self.scan.is_some() {
            self.with_scan.trx as f64 / scan_s.max(1e-9)
        } else {
            0.0
        };
        let w = self.pool.write_path().expect("write path");
        let (d0, v0, s0) = self.snap.clone().unwrap_or_default();
        let dblwr = DblwrStats {
            writes: w.dblwr.stats.writes - d0.writes,
            write_time_us: w.dblwr.stats.write_time_us - d0.write_time_us,
            bytes: w.dblwr.stats.bytes - d0.bytes,
            batch_writes: w.dblwr.stats.batch_writes - d0.batch_writes,
            single_writes: w.dblwr.stats.single_writes - d0.single_writes,
            pages: w.dblwr.stats.pages - d0.pages,
            segment_wait_us: w.dblwr.stats.segment_wait_us - d0.segment_wait_us,
        };
        let dv = w.device.stats();
        let device = DeviceStats {
            reads: dv.reads - v0.reads,
            writes: dv.writes - v0.writes,
            fsyncs: dv.fsyncs - v0.fsyncs,
            bytes_read: dv.bytes_read - v0.bytes_read,
            bytes_written: dv.bytes_written - v0.bytes_written,
            total_latency_us: dv.total_latency_us - v0.total_latency_us,
            read_latency_us: dv.read_latency_us - v0.read_latency_us,
        };
        let ws = &w.stats;
        let write = WriteStats {
            wait_free: ws.wait_free - s0.wait_free,
            single_page_flushes: ws.single_page_flushes - s0.single_page_flushes,
            lru_flushed: ws.lru_flushed - s0.lru_flushed,
            list_flushed: ws.list_flushed - s0.list_flushed,
            evicted_after_write: ws.evicted_after_write - s0.evicted_after_write,
            pages_written: ws.pages_written - s0.pages_written,
            dirtied: ws.dirtied - s0.dirtied,
            modifications: ws.modifications - s0.modifications,
            free_waits: ws.free_waits - s0.free_waits,
        };
        let whole_s = to_secs(self.end - self.base_from).max(1e-9);
        let kept_w = if self.scan.is_some() {
            &self.with_scan
        } else {
            &self.base
        };
        WriteReport {
            params: self.p.clone(),
            tps,
            qps: tps * self.bench.queries_per_transaction() as f64,
            latency_ms: if self.base.trx > 0 {
                self.base.lat_sum as f64 / self.base.trx as f64 / 1000.0
            } else {
                0.0
            },
            tps_with_scan: tps_with,
            scan_loss: if self.scan.is_some() && tps > 0.0 {
                1.0 - tps_with / tps
            } else {
                0.0
            },
            hot_kept: if kept_w.samples > 0 {
                kept_w.hot_sum / kept_w.samples as f64
            } else {
                0.0
            },
            wait_free_per_s: write.wait_free as f64 / whole_s,
            page_write_waits_per_s: self.page_waits as f64 / (meas_s + self.p.warmup_s as f64),
            log_waits_per_s: self.log_waits as f64 / (meas_s + self.p.warmup_s as f64),
            free_mean: self.free_sum / self.n_samples.max(1) as f64,
            dirty_pct_mean: self.dirty_sum / self.n_samples.max(1) as f64,
            checkpoint_age_pct_max: self.age_max,
            dblwr_avg_write_ms: dblwr.avg_write_us() / 1000.0,
            dblwr,
            device,
            write,
            events: self.events,
        }
    }
}

/// Builds and runs a write-path simulation, returning its report.
pub fn run(p: &WriteParams) -> Result<WriteReport, String> {
    let mut s = WriteSimulation::new(p)?;
    s.run_to_end()?;
    Ok(s.report())
}
