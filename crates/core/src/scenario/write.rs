//! The write-path scenario's parameters ([`WriteParams`], each declared once with
//! `schema::params!`) and its presets: sysbench OLTP clients against a pool
//! with dirty pages, the flush list, the doublewrite buffer and a storage device. The simulation
//! runs them in the same event loop as the read-only scenarios.

use serde::Serialize;

use crate::io::DeviceModel;
use crate::pool::adaptive_flush::FlushConfig;
use crate::pool::flush::{FlushMethod, WriteConfig};
use crate::pool::WhatIfs;
use crate::scenario::schema::{
    params, Spec, BUFFER_POOL_INSTANCES, LOOKUP_DIST, LRU_SCAN_DEPTH, OLD_BLOCKS_PCT,
    OLD_BLOCKS_TIME, SCAN_CPU_US_PER_PAGE, SEED, WHAT_IF,
};
use crate::scenario::LookupDist;
use crate::workload::sysbench::Mix;

params! {
    /// Everything a write-path run needs, declared once: the field, its default and its
    /// [`Spec`]. Ranges follow the server variable's where there is one; sizes and durations are
    /// bounded so that a run fits in memory ([`MEMORY_BUDGET`]) and ends.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct WriteParams {
        seed: u64 = 1 => SEED,
        mix: Mix = Mix::WriteOnly => Spec::choice("mix", &["write-only", "read-write"])
            .help("the sysbench script: oltp_write_only or oltp_read_write"),
        threads: u32 = 16 => Spec::int("threads", 1, 4096, "threads")
            .help("sysbench client threads"),
        cpus: u32 = 24 => Spec::int("cpus", 1, 1024, "CPUs")
            .help("CPUs shared by the clients and the scan (processor sharing)"),
        instances: u32 = 8 => BUFFER_POOL_INSTANCES,
        frames_per_instance: u32 = 8_192 => Spec::int("frames_per_instance", 512, 4_194_304, "pages")
            .help("frames per instance (the pool size)"),
        table_pages: u32 = 300_000 => Spec::int("table_pages", 2, 100_000_000, "pages")
            .help("primary-key leaf pages of the sysbench table"),
        sec_pages: u32 = 30_000 => Spec::int("sec_pages", 1, 100_000_000, "pages")
            .help("secondary-index (k) leaf pages"),
        dist: LookupDist = LookupDist::Special => LOOKUP_DIST,
        old_blocks_pct: u32 = 37 => OLD_BLOCKS_PCT,
        old_blocks_time: u32 = 1000 => OLD_BLOCKS_TIME,
        lru_scan_depth: u32 = 1024 => LRU_SCAN_DEPTH,
        io_capacity: u64 = 10_000 => Spec::int("io_capacity", 100, u32::MAX as u64, "pages/s")
            .server_default("innodb_io_capacity", 200.0)
            .help("background flushing rate"),
        io_capacity_max: u64 = 20_000 => Spec::int("io_capacity_max", 100, u32::MAX as u64, "pages/s")
            .server("innodb_io_capacity_max")
            .help("the most adaptive flushing may write (>= io_capacity)"),
        max_dirty_pages_pct: f64 = 90.0 => Spec::real("max_dirty_pages_pct", 0.0, 99.999, "%")
            .server_default("innodb_max_dirty_pages_pct", 90.0)
            .help("dirty share that flushes at io_capacity_max"),
        max_dirty_pages_pct_lwm: f64 = 10.0 => Spec::real("max_dirty_pages_pct_lwm", 0.0, 99.999, "%")
            .server_default("innodb_max_dirty_pages_pct_lwm", 10.0)
            .help("dirty share where pre-flushing starts (<= max_dirty_pages_pct)"),
        flushing_avg_loops: u32 = 30 => Spec::int("flushing_avg_loops", 1, 1000, "rounds")
            .server_default("innodb_flushing_avg_loops", 30.0)
            .help("rounds adaptive flushing averages over"),
        redo_log_capacity_mb: u64 = 100 => Spec::int("redo_log_capacity_mb", 8, 524_288, "MiB")
            .server_default("innodb_redo_log_capacity", 100.0)
            .help("redo log capacity"),
        redo_bytes_per_write: u64 = 300 => Spec::int("redo_bytes_per_write", 1, 1_000_000, "bytes")
            .help("redo bytes per row change"),
        doublewrite: bool = true => Spec::choice("doublewrite", &["on", "off"])
            .server("innodb_doublewrite")
            .help("write pages through the doublewrite buffer"),
        doublewrite_pages: u32 = 128 => Spec::int("doublewrite_pages", 1, 512, "pages")
            .server("innodb_doublewrite_pages")
            .help("doublewrite batch size"),
        flush_method: String = "o_direct".into() => Spec::choice("flush_method", FlushMethod::NAMES)
            .server("innodb_flush_method")
            .help("o_direct (MySQL 8.4's default on Linux, and bug #115328's setting): only the data files are fsynced; fsync: the doublewrite file too; o_direct_no_fsync: neither"),
        dblwr_batch_wait: bool = true => Spec::choice("dblwr_batch_wait", &["on", "off"])
            .help("a doublewrite instance's next batch waits for its previous one (Double_write::wait_for_pending_batch); off only to show what the rule does"),
        device: String = "nvme".into() => Spec::choice("device", DeviceModel::NAMES)
            .help("the storage device: nvme or cloud (a network volume)"),
        cpu_us_per_step: f64 = 40.0 => Spec::real("cpu_us_per_step", 0.1, 1_000_000.0, "µs")
            .help("CPU time per transaction step"),
        commit_us: u64 = 200 => Spec::int("commit_us", 0, 10_000_000, "µs")
            .help("commit wait (redo write and fsync, group-committed)"),
        scan_table_pages: u32 = 0 => Spec::int("scan_table_pages", 0, 100_000_000, "pages")
            .help("pages of a table scanned in a loop beside the clients (0: no scan)"),
        scan_cpu_us_per_page: f64 = 18.0 => SCAN_CPU_US_PER_PAGE,
        warmup_s: u32 = 10 => Spec::int("warmup_s", 0, 3600, "s").help("seconds before measuring"),
        base_s: u32 = 10 => Spec::int("base_s", 0, 3600, "s")
            .help("seconds measured without the scan"),
        scan_s: u32 = 0 => Spec::int("scan_s", 0, 3600, "s")
            .help("seconds with the scan (its last half is measured)"),
        #[serde(skip_serializing_if = "no_what_if")]
        what_if: WhatIfs = WhatIfs::NONE => WHAT_IF,
    }
}

fn no_what_if(w: &WhatIfs) -> bool {
    w.is_empty()
}

/// The most memory a run may take: a run whose estimate is above is refused before allocating.
pub const MEMORY_BUDGET: u64 = 4 << 30;

/// Memory per pool frame of a write-path run: a read-only run's and the flush list's (its LSNs,
/// write state and tree entry), bytes (measured 61 a frame with 2 million frames, 40 s).
pub const WRITE_BYTES_PER_FRAME: u64 = 104;
/// Memory per table page of a write-path run (the page table), bytes (measured 3.7).
pub const WRITE_BYTES_PER_TABLE_PAGE: u64 = 4;

impl WriteParams {
    /// Sets one parameter from text (a CLI flag or `--set name=value`); `-` in the name reads
    /// as `_`. `instances` and `dist` are accepted as older names of `buffer_pool_instances` and
    /// `lookup_dist`.
    pub fn set(&mut self, name: &str, v: &str) -> Result<(), String> {
        let name = match name.replace('-', "_").as_str() {
            "instances" => "buffer_pool_instances".to_string(),
            "dist" => "lookup_dist".to_string(),
            n => n.to_string(),
        };
        self.set_declared(&name, v).unwrap_or_else(|| {
            Err(format!(
                "'{name}' is not a write-path parameter (they are: {})",
                Self::SPECS
                    .iter()
                    .map(|s| s.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })
    }

    /// Every parameter as (name, value) text, in declaration order.
    pub fn to_pairs(&self) -> Vec<(&'static str, String)> {
        self.pairs()
    }

    /// The memory a run's data takes at most, estimated from the parameters (bytes): per frame the
    /// LRU links, the frame's page, times and free-list slot, and the flush list's LSNs and tree
    /// entry; per page of each table the page table's entry; the warm load's list of pages.
    pub fn memory_estimate(&self) -> u64 {
        let frames = (self.instances as u64).saturating_mul(self.frames_per_instance as u64);
        let pages = self.table_pages as u64 + self.sec_pages as u64 + self.scan_table_pages as u64;
        // The warm load's list of pages (8 bytes each; a vector grown by doubling, so the next
        // power of two): every frame's page, or every secondary index page when there are more.
        let preload = frames
            .max(self.sec_pages as u64)
            .next_power_of_two()
            .saturating_mul(8);
        frames
            .saturating_mul(WRITE_BYTES_PER_FRAME)
            .saturating_add(pages.saturating_mul(WRITE_BYTES_PER_TABLE_PAGE))
            .saturating_add(preload)
    }

    /// Checks every value against its declaration, the rules between values, and the memory
    /// budget.
    pub fn validate(&self) -> Result<(), String> {
        self.check_declared()?;
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
            flush_method: FlushMethod::parse(&self.flush_method).expect("validated"),
            dblwr_wait_pending_batch: self.dblwr_batch_wait,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::schema::check_declarations;

    #[test]
    fn every_parameter_round_trips_and_its_default_is_allowed() {
        check_declarations(
            WriteParams::SPECS,
            &WriteParams::default(),
            |p| {
                p.to_pairs()
                    .into_iter()
                    .map(|(k, v)| (k.to_string(), v))
                    .collect()
            },
            |p, k, v| p.set(k, v),
        );
        for name in DeviceModel::NAMES {
            DeviceModel::by_name(name).unwrap();
        }
    }

    #[test]
    fn every_preset_is_valid_and_bad_values_are_refused_in_words() {
        for p in presets() {
            p.params
                .validate()
                .unwrap_or_else(|e| panic!("{}: {e}", p.name));
        }
        let mut p = WriteParams::default();
        let e = p.set("table_pages", "1").unwrap_err();
        assert_eq!(
            e,
            "table_pages = '1' is out of range; allowed: from 2 to 100,000,000 pages"
        );
        assert!(p
            .set("device", "floppy")
            .unwrap_err()
            .contains("nvme, cloud"));
        assert!(p.set("nonsense", "1").unwrap_err().contains("io_capacity"));
        p.set("instances", "2").unwrap();
        p.set("dist", "uniform").unwrap();
        assert_eq!((p.instances, p.dist), (2, LookupDist::Uniform));
    }
}
