//! The write-path scenario's parameters ([`WriteParams`], declared once in [`WRITE_SPECS`]) and
//! its presets: sysbench OLTP clients against a pool with dirty pages, the flush list, the
//! doublewrite buffer and a storage device. The simulation runs them in the same event loop as
//! the read-only scenarios.

use serde::Serialize;

use crate::io::DeviceModel;
use crate::pool::adaptive_flush::FlushConfig;
use crate::pool::flush::WriteConfig;
use crate::pool::WhatIfs;
use crate::scenario::LookupDist;
use crate::workload::sysbench::Mix;

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
    /// Candidate changes to InnoDB rules (`midpoint what-ifs`); empty: stock MySQL 8.4.
    #[serde(skip_serializing_if = "no_what_if")]
    pub what_if: WhatIfs,
}

fn no_what_if(w: &WhatIfs) -> bool {
    w.is_empty()
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
            what_if: WhatIfs::NONE,
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
    spec(
        "what_if",
        None,
        "",
        Kind::Choice(&[
            "none",
            "slide-spares-fresh",
            "free-frames-count-as-old",
            "user-replaces-free-frame",
        ]),
        "a candidate change to one InnoDB rule (see `midpoint what-ifs`); repeat the flag or give a comma-separated list",
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
            "what_if" => self.what_if.add_parsed(v)?,
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
                    "what_if" => self.what_if.label(),
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

    /// The pool's write-path configuration.
    pub fn write_config(&self) -> WriteConfig {
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
