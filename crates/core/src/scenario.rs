//! Scenarios: every parameter with its default, range and unit (declared once, with
//! `schema::params!`); the presets; input checks.
//!
//! The same [`Params`] drive the CLI and the page. [`Params::validate`] gives a clear error that
//! names the value and the allowed range; [`Params::clamped`] is the page's variant, which
//! brings every value into range and says what it changed.

use crate::engine::Engine;
use crate::pool::page_cleaner::Cadence;
use crate::pool::PoolConfig;
pub use crate::pool::{WhatIf, WhatIfs};
pub use crate::workload::{LookupDist, ScanMode};

pub mod schema;
pub mod suggest;
pub mod write;

pub use schema::fmt_num;
use schema::{
    params, Spec, BUFFER_POOL_INSTANCES, LOOKUP_DIST, LRU_SCAN_DEPTH, OLD_BLOCKS_PCT,
    OLD_BLOCKS_TIME, SCAN_CPU_US_PER_PAGE, SEED, WHAT_IF,
};

use serde::{Deserialize, Serialize};

/// How the pool holds the tables when the warm-up starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Start {
    /// The tables were just loaded with INSERTs: their pages were created at the head, young
    /// (the scanned table first, then the hot table), and the page cleaner topped up the free list.
    Warm,
    /// After a restart, the pool was filled by reading a third (filler) table, so the scanned
    /// table starts with no page in the pool.
    Cold,
    /// Just after a restart: every frame is free and nothing is loaded; the warm-up's lookups
    /// load what they touch and the scan fills the rest, so the LRU list grows by midpoint
    /// inserts and the boundary slides tail-ward (the growth slide).
    Restart,
}

params! {
    /// Every parameter of a run, declared once: the field, its default and its [`Spec`] (name,
    /// server variable, unit, range or choices, help). Units are in the names.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(default)]
    pub struct Params {
        pool_mb: u32 = 256 => Spec::int("pool_mb", 8, 65536, "MiB")
            .server_default("innodb_buffer_pool_size", 128.0)
            .help("innodb_buffer_pool_size in MiB (16 KiB pages; each 128 MiB chunk loses one page to descriptors)"),
        buffer_pool_instances: u32 = 1 => BUFFER_POOL_INSTANCES,
        // When given (not 0), the pool's frames exactly, in place of what pool_mb gives.
        #[serde(skip_serializing_if = "is_default")]
        pool_pages: u32 = 0 => Spec::int("pool_pages", 0, 4_194_304, "pages")
            .help("the pool's pages in all instances, exactly as a server's 'Buffer pool size' prints them (0 = what pool_mb gives); pool_mb must hold them"),
        old_blocks_pct: u32 = 37 => OLD_BLOCKS_PCT,
        old_blocks_time: u32 = 1000 => OLD_BLOCKS_TIME,
        lru_scan_depth: u32 = 1024 => LRU_SCAN_DEPTH,
        read_ahead_threshold: u32 = 56 => Spec::int("read_ahead_threshold", 0, 64, "pages")
            .server_default("innodb_read_ahead_threshold", 56.0)
            .help("innodb_read_ahead_threshold: pages of an extent accessed in order that trigger linear read-ahead (0 = off)"),
        cleaner: Cadence = Cadence::AfterActivity {
            mean_interval_ms: (SEED000_ACTIVITY_MEAN_S * 1000.0) as u32,
        } => Spec::text("cleaner", "every-second, never, or after-activity:SECONDS (0.1 to 3,600)")
            .help("page-cleaner cadence: when the page cleaner runs its LRU batch"),
        hot_pages: u32 = 4485 => Spec::int("hot_pages", 1, 4_194_304, "pages")
            .help("pages of the hot set: random point lookups over the first rows of the hot table"),
        hot_table_pages: u32 = 4485 => Spec::int("hot_table_pages", 1, 4_194_304, "pages")
            .help("pages of the hot table (4,485 = the seed's 300,000 rows)"),
        lookup_threads: u32 = 1 => Spec::int("lookup_threads", 0, 256, "threads")
            .help("lookup client threads (closed loop)"),
        lookup_cpu_us: f64 = 200.0 => Spec::real("lookup_cpu_us", 1.0, 100_000.0, "µs")
            .help("CPU time of one lookup on an idle server (200 us = 5,000 lookups/s)"),
        scan_interference: f64 = 1.0 => Spec::real("scan_interference", 0.0, 100.0, "×")
            .help("extra CPU time per lookup while a scan runs, as a multiple (1 = twice as slow): the scan, its read-ahead and the lookups share the CPUs"),
        scan_table_mb: u32 = 746 => Spec::int("scan_table_mb", 1, 262_144, "MiB")
            .help("size of the scanned table in MiB (16 KiB pages)"),
        scan_mode: ScanMode = ScanMode::Normal => Spec::choice("scan_mode", &["normal", "scan"])
            .help("the scan's fetch mode: normal (a row scan, SELECT SUM) or scan (the parallel reader, COUNT(*))"),
        scan_touches_per_page: u32 = 8 => Spec::int("scan_touches_per_page", 1, 1000, "")
            .help("accesses per scanned page (cursor restores every few rows)"),
        scan_cpu_us_per_page: f64 = 15.0 => SCAN_CPU_US_PER_PAGE,
        scan_pause_ms: u32 = 0 => Spec::int("scan_pause_ms", 0, 600_000, "ms")
            .help("pause between two passes of the scan"),
        scan_loop: bool = true => Spec::choice("scan_loop", &["true", "false"])
            .help("true: scan back to back (or with the pause); false: one pass, like a dump"),
        warmup_s: u32 = 60 => Spec::int("warmup_s", 0, 3600, "s")
            .help("seconds of lookups before the scan starts"),
        scan_s: u32 = 150 => Spec::int("scan_s", 0, 3600, "s").help("seconds of scanning"),
        start: Start = Start::Warm => Spec::choice("start", &["warm", "cold", "restart"])
            .help("warm (tables just loaded by INSERTs), cold (pool filled from a filler table) or restart (an empty pool, warmed only by the run's own traffic)"),
        read_latency_us: u32 = 270 => Spec::int("read_latency_us", 0, 1_000_000, "µs")
            .help("latency of one page read"),
        page_transfer_us: u32 = 10 => Spec::int("page_transfer_us", 0, 100_000, "µs")
            .help("extra time per page of a read-ahead burst"),
        kept_window_s: u32 = 110 => Spec::int("kept_window_s", 1, 3600, "s")
            .help("\"kept\" averages hot-set residency over the last this-many seconds of the scan phase"),
        sample_ms: u32 = 1000 => Spec::int("sample_ms", 10, 60_000, "ms")
            .help("sampling interval of the time series"),
        seed: u64 = 1 => SEED,
        // Not serialized when it is the default, so MySQL runs' JSON is unchanged.
        #[serde(skip_serializing_if = "is_default")]
        engine: Engine = Engine::Mysql84 => Spec::choice("engine", &["mysql-8.4", "mariadb-10.11"])
            .help("mysql-8.4 or mariadb-10.11 (one pool, no SCAN fetch mode, demand-driven free-list refills; lru_scan_depth 1536); setting it resets lru_scan_depth and buffer_pool_instances to that engine's defaults (a flag given for either wins, wherever it stands). With mariadb-10.11 the cleaner cadence does not apply, except never (no page-cleaner LRU work, as before 10.11.3)"),
        #[serde(skip_serializing_if = "is_default")]
        cpus: u32 = 0 => Spec::int("cpus", 0, 256, "CPUs")
            .help("CPUs shared by the lookup threads and the scan (processor sharing); 0 = the seed-000 model with one scan_interference factor"),
        #[serde(skip_serializing_if = "is_default")]
        lookup_dist: LookupDist = LookupDist::Uniform => LOOKUP_DIST,
        #[serde(skip_serializing_if = "is_default")]
        what_if: WhatIfs = WhatIfs::NONE => WHAT_IF,
        // When given (not 0), `lookup_cpu_us` is derived from it (`sim::rates`).
        #[serde(skip_serializing_if = "is_default")]
        idle_lookups_per_s: f64 = 0.0 => Spec::real("idle_lookups_per_s", 0.0, 1_000_000.0, "lookups/s")
            .help("lookups per second your server runs when idle and every lookup hits (0 = use lookup_cpu_us); sets lookup_cpu_us"),
        // When given (not 0), `scan_cpu_us_per_page` is derived from it (`sim::rates`).
        #[serde(skip_serializing_if = "is_default")]
        idle_scan_pages_per_s: f64 = 0.0 => Spec::real("idle_scan_pages_per_s", 0.0, 1_000_000.0, "pages/s")
            .help("pages per second a scan of an uncached table reads on your idle server (0 = use scan_cpu_us_per_page); sets scan_cpu_us_per_page"),
    }
}

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

/// Memory per pool frame of a read-only run: the LRU links, old and listed flags, stamps and
/// tags, the frame's page, access and read-completion times, its free-list slot; bytes.
pub const BYTES_PER_FRAME: u64 = 56;
/// Memory per page of the hot, scanned and filler tables (the page table and the page's own
/// state), bytes.
pub const BYTES_PER_TABLE_PAGE: u64 = 12;
/// Memory per sample of the time series, kept in the run's report, bytes (measured 258 with
/// the CSV written).
pub const BYTES_PER_SAMPLE: u64 = 272;

/// The most memory a run may take: a run whose estimate is above is refused before allocating.
pub const MEMORY_BUDGET: u64 = 4 << 30;

/// The calibrated page-cleaner cadence for seed 000's read-only server: activity events (a
/// Poisson process) with this mean interval. See the README, "Calibration".
pub const SEED000_ACTIVITY_MEAN_S: f64 = 17.0;

impl Params {
    /// Checks every value against its declaration and the cross-parameter rules. The error names
    /// the parameter, the value and what is allowed.
    pub fn validate(&self) -> Result<(), String> {
        self.check_declared()?;
        if self.what_if.has(WhatIf::EmptyFreeListWakesCleaner) && self.buffer_pool_instances > 1 {
            return Err(format!(
                "what_if = empty-free-list-wakes-cleaner needs buffer_pool_instances = 1 (it refills instance 0), not {}",
                self.buffer_pool_instances
            ));
        }
        if self.hot_pages > self.hot_table_pages {
            return Err(format!(
                "hot_pages = {} is larger than hot_table_pages = {}",
                self.hot_pages, self.hot_table_pages
            ));
        }
        if !self.engine.has_instances() && self.buffer_pool_instances > 1 {
            return Err(format!(
                "buffer_pool_instances = {}: {} has one buffer pool (no instances)",
                self.buffer_pool_instances,
                self.engine.label()
            ));
        }
        if self.pool_mb < 1024 && self.buffer_pool_instances > 1 {
            return Err(format!(
                "buffer_pool_instances = {} needs a pool of at least 1024 MiB (pool_mb = {}): InnoDB forces 1 instance below 1 GiB",
                self.buffer_pool_instances, self.pool_mb
            ));
        }
        if self.pool_pages as u64 > self.pool_mb as u64 * 64 {
            return Err(format!(
                "pool_pages = {} does not fit pool_mb = {} ({} pages of 16 KiB at most)",
                self.pool_pages,
                self.pool_mb,
                self.pool_mb as u64 * 64
            ));
        }
        let per_instance = self.frames_per_instance();
        if per_instance < 64 {
            return Err(format!(
                "pool_mb = {} split into {} instances leaves {per_instance} pages per instance; at least 64 are needed",
                self.pool_mb, self.buffer_pool_instances
            ));
        }
        let m = self.memory_estimate();
        if m > MEMORY_BUDGET {
            return Err(format!(
                "this run would take about {:.1} GiB of memory; the limit is {} GiB",
                m as f64 / (1u64 << 30) as f64,
                MEMORY_BUDGET >> 30
            ));
        }
        Ok(())
    }

    /// What a valid scenario cannot do in the pool it is given, one warning each (the CLI
    /// prints them on stderr, the page among its notes, the JS API in a run's `warnings`):
    /// - the hot set is larger than the pool's frames: most of it can never be resident, and
    ///   "kept" cannot reach more than frames / hot pages;
    /// - the scan (scan_s > 0) cannot bring one read-ahead extent (64 pages,
    ///   `buf_read_ahead_linear`'s unit) into the pool beside the hot set: every scanned page
    ///   evicts a hot page, whatever the LRU rules.
    pub fn warnings(&self) -> Vec<String> {
        const EXTENT_PAGES: u64 = 64;
        let frames = self.frames_per_instance() as u64 * self.buffer_pool_instances.max(1) as u64;
        let hot = self.hot_pages as u64;
        let mut w = Vec::new();
        if hot > frames {
            w.push(format!(
                "the hot set ({} pages) cannot fit the pool ({} MiB = {} frames): at most {:.1} % of it can be resident, so kept cannot exceed that; give a larger pool_mb or fewer hot_pages",
                schema::group(hot),
                self.pool_mb,
                schema::group(frames),
                // Rounded down: 1,048,448 frames for 1,048,576 hot pages is 99.9 %, not 100.
                (frames as f64 / hot as f64 * 1000.0).floor() / 10.0
            ));
        } else if self.scan_s > 0 && hot + EXTENT_PAGES > frames {
            w.push(format!(
                "the scanned table cannot fit the pool beside the hot set: {} frames hold the {} hot pages with {} to spare, less than one read-ahead extent of the scan (64 pages), so every scanned page evicts a hot one; give a larger pool_mb or fewer hot_pages",
                schema::group(frames),
                schema::group(hot),
                frames - hot
            ));
        }
        w
    }

    /// The memory a run's data takes at most, estimated from the parameters (bytes): per frame
    /// the LRU links, the frame's page and times and its free-list slot; per page of each table
    /// (the filler table of a cold start as large as the pool) the page table's entry and the
    /// page's state; per sample its place in the report. The cost model (cost.rs) adds
    /// the program's own memory; `scripts/check-memory.sh` holds them to measured runs.
    pub fn memory_estimate(&self) -> u64 {
        let frames = self.frames_per_instance() as u64 * self.buffer_pool_instances.max(1) as u64;
        let filler = if self.start == Start::Cold { frames } else { 0 };
        let pages = self.hot_table_pages as u64 + self.scan_table_pages() as u64 + filler;
        frames * BYTES_PER_FRAME + pages * BYTES_PER_TABLE_PAGE + self.samples() * BYTES_PER_SAMPLE
    }

    /// Samples of the time series a run takes: one every `sample_ms` over the warm-up and the
    /// scan, and the one at the start.
    pub fn samples(&self) -> u64 {
        (self.warmup_s as u64 + self.scan_s as u64) * 1000 / self.sample_ms.max(1) as u64 + 1
    }

    /// Brings every value into range (the page's rule for URL parameters and sliders) and the
    /// cross-parameter rules, and returns what it changed, one message per parameter.
    pub fn clamped(&self) -> (Params, Vec<String>) {
        let mut p = self.clone();
        let mut notes = p.clamp_declared();
        if p.pool_pages as u64 > p.pool_mb as u64 * 64 {
            notes.push(format!(
                "pool_pages = {} does not fit pool_mb = {}; using {}",
                p.pool_pages,
                p.pool_mb,
                p.pool_mb as u64 * 64
            ));
            p.pool_pages = p.pool_mb * 64;
        }
        if p.hot_pages > p.hot_table_pages {
            notes.push(format!(
                "hot_pages = {} is larger than the hot table; using {}",
                p.hot_pages, p.hot_table_pages
            ));
            p.hot_pages = p.hot_table_pages;
        }
        if !p.engine.has_instances() && p.buffer_pool_instances > 1 {
            notes.push(format!(
                "buffer_pool_instances = {}: {} has one buffer pool; using 1",
                p.buffer_pool_instances,
                p.engine.label()
            ));
            p.buffer_pool_instances = 1;
        }
        if p.pool_mb < 1024 && p.buffer_pool_instances > 1 {
            notes.push(format!(
                "buffer_pool_instances = {}: a pool under 1 GiB has 1 instance; using 1",
                p.buffer_pool_instances
            ));
            p.buffer_pool_instances = 1;
        }
        (p, notes)
    }

    /// The pool these parameters describe: the one place a [`PoolConfig`] is built from
    /// parameters (the simulation, the idle-rate calibration, the write path, trace replays and
    /// the InnoDB policy start from it or from [`PoolConfig::default`], which is this of the
    /// default parameters).
    pub fn pool_config(&self) -> PoolConfig {
        PoolConfig {
            frames_per_instance: self.frames_per_instance(),
            instances: self.buffer_pool_instances,
            old_blocks_pct: self.old_blocks_pct,
            old_blocks_time_ms: self.old_blocks_time,
            lru_scan_depth: self.lru_scan_depth,
            read_ahead_threshold: self.read_ahead_threshold,
            read_latency_us: self.read_latency_us as crate::clock::Micros,
            page_transfer_us: self.page_transfer_us as crate::clock::Micros,
            what_ifs: self.what_if,
        }
    }

    /// Usable frames per instance: in MySQL each 128 MiB chunk gives up one page to block
    /// descriptors, so 256 MiB gives 16,382 frames (reference §1.6); MariaDB carves the
    /// descriptors out of the chunk (64 MiB: 4,056 pages).
    pub fn frames_per_instance(&self) -> u32 {
        if self.pool_pages > 0 {
            // A server's own count (its `Buffer pool size`), whatever its chunks lost.
            return self.pool_pages / self.buffer_pool_instances.max(1);
        }
        if self.engine == Engine::Mariadb1011 {
            // MariaDB sizes its one pool its own way (engine::mariadb::usable_pages).
            return crate::engine::mariadb::usable_pages(self.pool_mb);
        }
        let pages = self.pool_mb as u64 * 64;
        let chunks = (self.pool_mb as u64).div_ceil(128);
        let usable = pages - chunks.min(pages);
        (usable / self.buffer_pool_instances.max(1) as u64) as u32
    }

    /// Pages of the scanned table.
    pub fn scan_table_pages(&self) -> u32 {
        (self.scan_table_mb as u64 * 64).min(u32::MAX as u64 - 1) as u32
    }

    /// Sets a parameter from its name and a string value (CLI flags, URL keys, the page's
    /// sliders); `-` in the name reads as `_`. Errors name the parameter and the value.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let name = name.replace('-', "_");
        let engine = self.engine;
        self.set_declared(&name, value)
            .unwrap_or_else(|| Err(format!("unknown parameter '{name}'")))?;
        // Choosing another engine resets the variables whose defaults differ between servers.
        if self.engine != engine {
            self.lru_scan_depth = self.engine.default_lru_scan_depth();
            if !self.engine.has_instances() {
                self.buffer_pool_instances = 1;
            }
        }
        Ok(())
    }

    /// The comment lines that head every CSV export: one `# name=value` per parameter, defaults
    /// included, so that the file says how to reproduce it.
    pub fn csv_header(&self, what: &str) -> String {
        let mut s = format!("# midpoint {what}; parameters:\n");
        for (k, v) in self.to_pairs() {
            s.push_str(&format!("# {k}={v}\n"));
        }
        s
    }

    /// Every parameter as (name, value) strings, defaults included: what a URL or a CSV header
    /// carries so that a run can be reproduced. The engine comes first: setting it resets
    /// engine defaults that later pairs override.
    pub fn to_pairs(&self) -> Vec<(String, String)> {
        let mut v: Vec<(String, String)> = self
            .pairs()
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        v.sort_by_key(|(k, _)| k != "engine");
        v
    }
}

/// A named preset: a description and the parameters it sets.
#[derive(Clone, Debug, Serialize)]
pub struct Preset {
    /// Name used by `--preset` and `?preset=`.
    pub name: String,
    /// One line on what it reproduces.
    pub description: String,
    /// The parameters.
    pub params: Params,
}

/// All presets: seed 000's grid and its follow-up experiments.
pub fn presets() -> Vec<Preset> {
    let mut v = Vec::new();
    for hot in [224u32, 897, 4485] {
        for (pause, pname) in [(0u32, "b2b"), (500, "pause500"), (2000, "pause2000")] {
            for otime in [1000u32, 0] {
                let suffix = if otime == 0 { "-t0" } else { "" };
                let p = Params {
                    hot_pages: hot,
                    scan_pause_ms: pause,
                    old_blocks_time: otime,
                    ..Params::default()
                };
                v.push(Preset {
                    name: format!("seed000-hot{hot}-{pname}{suffix}"),
                    description: format!(
                        "Seed 000: {hot}-page hot set, {}, old_blocks_time {otime} ms, warm start",
                        if pause == 0 {
                            "back-to-back scans".to_string()
                        } else {
                            format!("{pause} ms pause between scans")
                        }
                    ),
                    params: p,
                });
            }
        }
    }
    for depth in [128u32, 512] {
        v.push(Preset {
            name: format!("seed000-hot4485-b2b-depth{depth}"),
            description: format!(
                "Seed 000: 4,485-page hot set, back-to-back scans, innodb_lru_scan_depth {depth}"
            ),
            params: Params {
                lru_scan_depth: depth,
                ..Params::default()
            },
        });
    }
    v.push(Preset {
        name: "seed000-cold".into(),
        description: "Seed 000: cold start (pool filled from a third table), 4,485-page hot set, back-to-back scans".into(),
        params: Params {
            start: Start::Cold,
            ..Params::default()
        },
    });
    v.push(Preset {
        name: "seed000-cold-10min".into(),
        description: "Seed 000: cold start, 10 minutes of back-to-back scans".into(),
        params: Params {
            start: Start::Cold,
            scan_s: 600,
            ..Params::default()
        },
    });
    v.push(Preset {
        name: "seed000-warm-10min".into(),
        description: "Seed 000: warm start, 10 minutes of back-to-back scans".into(),
        params: Params {
            scan_s: 600,
            ..Params::default()
        },
    });
    v.push(Preset {
        name: "seed000-restart-hot4485-b2b".into(),
        description: "Seed 000's experiment just after a restart: an empty pool warmed only by the lookups, then back-to-back scans that fill it (the growth slide)".into(),
        params: Params {
            start: Start::Restart,
            ..Params::default()
        },
    });
    for (suffix, desc, p) in [
        ("", "back-to-back scans", Params::default()),
        (
            "-no-lru-cleaner",
            "back-to-back scans, no page-cleaner LRU work (as 10.11.0-10.11.2 in a read-only workload)",
            Params {
                cleaner: Cadence::Never,
                ..Params::default()
            },
        ),
        (
            "-pause2000",
            "2 s pause between scans",
            Params {
                scan_pause_ms: 2000,
                ..Params::default()
            },
        ),
    ] {
        v.push(Preset {
            name: format!("mariadb-seed000-hot4485-b2b{suffix}").replace("b2b-pause", "pause"),
            description: format!(
                "Seed 000's experiment on MariaDB 10.11.7+ (one pool, demand-driven refills, lru_scan_depth 1536): 4,485-page hot set, {desc}"
            ),
            params: Params {
                engine: Engine::Mariadb1011,
                lru_scan_depth: Engine::Mariadb1011.default_lru_scan_depth(),
                ..p
            },
        });
    }
    v.push(Preset {
        name: "mariadb-seed000-cold".into(),
        description:
            "Seed 000's cold start on MariaDB 10.11.7+: 4,485-page hot set, back-to-back scans"
                .into(),
        params: Params {
            engine: Engine::Mariadb1011,
            lru_scan_depth: Engine::Mariadb1011.default_lru_scan_depth(),
            start: Start::Cold,
            ..Params::default()
        },
    });
    for (name, pct, time, what) in [
        (
            "seed003-ro-default",
            37,
            0,
            "the InnoDB Plugin's defaults (old_blocks_pct 37, old_blocks_time 0)",
        ),
        (
            "seed003-ro-tuned",
            90,
            2000,
            "the seed's tuned settings (old_blocks_pct 90, old_blocks_time 2000)",
        ),
        (
            "seed003-ro-mysql84",
            37,
            1000,
            "MySQL 8.4's defaults (old_blocks_pct 37, old_blocks_time 1000)",
        ),
    ] {
        v.push(Preset {
            name: name.into(),
            description: format!(
                "Seed 003, read-only: sysbench point selects (special distribution) on 8 threads, 4 CPUs, with a concurrent full scan of another table, {what}"
            ),
            params: seed003_params(pct, time),
        });
    }
    for (pct, time) in [(37u32, 0u32), (37, 1000), (60, 0), (60, 1000)] {
        let pct_part = if pct == 37 {
            String::new()
        } else {
            format!("-pct{pct}")
        };
        v.push(Preset {
            name: format!("seed002-dump{pct_part}-time{time}"),
            description: format!(
                "Seed 002: a one-pass dump (NORMAL scan) against sysbench point selects on 8 threads, 12 CPUs, old_blocks_pct {pct}, old_blocks_time {time}"
            ),
            params: seed002_params(pct, time),
        });
    }
    v.push(Preset {
        name: "small-demo".into(),
        description: "A 16 MiB pool (1,023 frames) for watching every page: 200-page hot set, a 40 MiB table scanned back to back, a refill every second".into(),
        params: Params {
            pool_mb: 16,
            hot_pages: 200,
            hot_table_pages: 400,
            scan_table_mb: 40,
            lru_scan_depth: 128,
            cleaner: Cadence::EverySecond,
            warmup_s: 10,
            scan_s: 60,
            kept_window_s: 40,
            ..Params::default()
        },
    });
    v
}

/// Seed 003's read-only setup (the InnoDB Plugin announcement; the seed gives no sizes, so
/// these are the simulator's choices, not fitted): a 512 MiB pool; a sysbench table of 14,336
/// pages (224 MiB, about 1,000,000 rows), so that it fits in the pool when no scan runs, as in a
/// typical sysbench run; sysbench 0.4's default "special" distribution; 8 client threads on 4
/// CPUs, 100 µs of CPU per point select; a 2 GiB table scanned in a loop by a `SELECT` without
/// `WHERE` (NORMAL fetches, 15 µs of CPU per page); 2009-era disks (5 ms per random read). The
/// InnoDB Plugin had no page-cleaner LRU batches (user threads evict one page at a time), hence
/// `cleaner = never`.
pub fn seed003_params(old_blocks_pct: u32, old_blocks_time: u32) -> Params {
    Params {
        pool_mb: 512,
        old_blocks_pct,
        old_blocks_time,
        cleaner: Cadence::Never,
        hot_pages: 14_336,
        hot_table_pages: 14_336,
        lookup_threads: 8,
        cpus: 4,
        lookup_cpu_us: 100.0,
        lookup_dist: LookupDist::Special,
        scan_table_mb: 2048,
        scan_cpu_us_per_page: 15.0,
        scan_loop: true,
        read_latency_us: 5000,
        page_transfer_us: 10,
        warmup_s: 20,
        scan_s: 40,
        kept_window_s: 20,
        ..Params::default()
    }
}

/// Seed 002's setup (the mysqldump study; the seed gives only thread counts and QPS, so sizes are
/// the simulator's choices, not fitted): a 256 MiB pool; a sysbench table of 12,288 pages
/// (192 MiB) that fits in the pool but not in its young sublist, so its colder pages sit around
/// the midpoint; sysbench 0.4's default "special" distribution; 12 CPUs (the seed's throughput
/// without the dump stops growing at 12 threads) and 68 µs of CPU per point select (12 CPUs /
/// 175,000 QPS, the seed's plateau); a one-pass dump (`scan_loop = false`) of a 4 GiB table with
/// NORMAL fetches and 100 µs of CPU per page (rows formatted and sent to the client); 5 ms per
/// random read; no page-cleaner LRU batches (MySQL 5.5's user threads evict one page at a time).
pub fn seed002_params(old_blocks_pct: u32, old_blocks_time: u32) -> Params {
    Params {
        pool_mb: 256,
        old_blocks_pct,
        old_blocks_time,
        cleaner: Cadence::Never,
        hot_pages: 12_288,
        hot_table_pages: 12_288,
        lookup_threads: 8,
        cpus: 12,
        lookup_cpu_us: 68.0,
        lookup_dist: LookupDist::Special,
        scan_table_mb: 4096,
        scan_cpu_us_per_page: 100.0,
        scan_loop: false,
        read_latency_us: 5000,
        page_transfer_us: 10,
        warmup_s: 15,
        scan_s: 25,
        kept_window_s: 15,
        ..Params::default()
    }
}

/// The read-only preset with this name. An unknown name's error suggests the nearest preset
/// ("did you mean ...?") and lists every preset, the write-path ones too; a write-path name is
/// refused with what takes it.
pub fn preset(name: &str) -> Result<Preset, String> {
    let all = presets();
    if let Some(p) = all.iter().find(|p| p.name == name) {
        return Ok(p.clone());
    }
    if write::preset(name).is_some() {
        return Err(format!(
            "'{name}' is a write-path preset: only `midpoint run --preset {name}` takes it (see `midpoint presets`)"
        ));
    }
    Err(unknown_preset(name))
}

/// "unknown preset 'X'; did you mean 'Y'? known presets: ..." (every preset, read-only and
/// write-path).
pub fn unknown_preset(name: &str) -> String {
    let mut names: Vec<String> = presets().into_iter().map(|p| p.name).collect();
    names.extend(write::presets().into_iter().map(|p| p.name));
    let hint = suggest::closest(name, names.iter().map(String::as_str))
        .map(|c| format!("; did you mean '{c}'?"))
        .unwrap_or_else(|| ";".to_string());
    format!(
        "unknown preset '{name}'{hint} known presets ({}): {}",
        names.len(),
        names.join(", ")
    )
}

/// The stock pool: the default parameters' ([`Params::pool_config`]), so the pool's defaults are
/// the schema's.
impl Default for PoolConfig {
    fn default() -> Self {
        Params::default().pool_config()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_at_its_maximum_fits_the_memory_budget() {
        let mut p = Params::default();
        for s in Params::SPECS {
            let hi = match s.allowed {
                schema::Allowed::Int(_, hi) => hi.to_string(),
                schema::Allowed::Real(_, hi) => fmt_num(hi),
                _ => continue,
            };
            p.set(s.name, &hi).unwrap();
        }
        p.set("sample_ms", "10").unwrap();
        p.set("start", "cold").unwrap();
        let m = p.memory_estimate();
        assert!(m > 1 << 28 && m <= MEMORY_BUDGET, "{m}");
    }

    #[test]
    fn a_hot_set_or_a_scan_that_cannot_fit_the_pool_is_warned_about() {
        // The case: 4,485 hot pages in an 8 MiB pool (511 frames).
        let mut p = preset("seed000-hot4485-b2b").unwrap().params;
        p.set("pool_mb", "8").unwrap();
        p.validate().unwrap();
        let w = p.warnings();
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(
            w[0].starts_with("the hot set (4,485 pages) cannot fit the pool (8 MiB = 511 frames)")
                && w[0].contains("at most 11.3 %"),
            "{}",
            w[0]
        );
        // A hot set that fits, but leaves the scan less than one extent.
        p.set("hot_pages", "480").unwrap();
        let w = p.warnings();
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(w[0].starts_with("the scanned table cannot fit"), "{}", w[0]);
        assert!(w[0].contains("with 31 to spare"), "{}", w[0]);
        // Without a scan there is nothing to evict it.
        p.set("scan_s", "0").unwrap();
        assert!(p.warnings().is_empty());
        // Every preset fits its pool.
        for q in presets() {
            assert!(
                q.params.warnings().is_empty(),
                "{}: {:?}",
                q.name,
                q.params.warnings()
            );
        }
    }

    #[test]
    fn defaults_are_valid_and_256mb_gives_16382_frames() {
        let p = Params::default();
        p.validate().unwrap();
        assert_eq!(p.frames_per_instance(), 16_382);
        assert_eq!(p.scan_table_pages(), 47_744);
    }

    #[test]
    fn errors_name_value_and_range() {
        let mut p = Params::default();
        let e = p.set("lru_scan_depth", "-5").unwrap_err();
        assert!(e.contains("lru_scan_depth") && e.contains("100"), "{e}");
        let e = p.set("old_blocks_time", "abc").unwrap_err();
        assert!(e.contains("not a number"), "{e}");
        let e = p.set("old-blocks-pct", "96").unwrap_err();
        assert!(e.contains("allowed: from 5 to 95 %"), "{e}");
        assert!(p.set("nope", "1").is_err());
        p.set("old-blocks-pct", "50").unwrap();
        assert_eq!(p.old_blocks_pct, 50);
        let e = p.set("hot_pages", "1.5").unwrap_err();
        assert!(e.contains("whole"), "{e}");
    }

    #[test]
    fn clamping_reports_changes() {
        let p = Params {
            lru_scan_depth: 5,
            pool_mb: 100_000,
            ..Params::default()
        };
        let (q, notes) = p.clamped();
        assert_eq!(q.lru_scan_depth, 100);
        assert_eq!(q.pool_mb, 65536);
        assert_eq!(notes.len(), 2);
        q.validate().unwrap();
    }

    #[test]
    fn every_parameter_round_trips_and_its_default_is_allowed() {
        schema::check_declarations(
            Params::SPECS,
            &Params::default(),
            Params::to_pairs,
            |p, k, v| p.set(k, v),
        );
        // The one parameter written as free text, the cadence, round-trips too.
        let mut p = Params::default();
        p.set("cleaner", "after-activity:2.5").unwrap();
        let mut q = Params::default();
        q.set("cleaner", &p.cleaner.label()).unwrap();
        assert_eq!(p, q);
    }

    #[test]
    fn pairs_round_trip() {
        let p = preset("seed000-hot897-pause500-t0").unwrap().params;
        let mut q = Params::default();
        for (k, v) in p.to_pairs() {
            q.set(&k, &v).unwrap();
        }
        assert_eq!(p, q);
    }

    #[test]
    fn every_preset_is_valid() {
        for p in presets() {
            p.params
                .validate()
                .unwrap_or_else(|e| panic!("{}: {e}", p.name));
        }
        assert!(preset("seed000-hot4485-b2b").is_ok());
        assert!(preset("nope").unwrap_err().contains("seed000-hot4485-b2b"));
        // Every preset listed, the write-path ones too, and the nearest one suggested.
        let e = preset("seed000-hot4485-bb2").unwrap_err();
        assert!(e.contains("did you mean 'seed000-hot4485-b2b'?"), "{e}");
        let n = presets().len() + write::presets().len();
        assert!(e.contains(&format!("known presets ({n}):")), "{e}");
        for p in write::presets() {
            assert!(e.contains(&p.name), "{e}");
        }
        let e = preset("seed001-64thd-dblwr128").unwrap_err();
        assert!(e.contains("write-path preset"), "{e}");
    }
}
