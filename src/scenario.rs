//! Scenarios: every parameter with its default, range and unit; the presets; input checks.
//!
//! The same [`Params`] drive the CLI and the page. [`Params::validate`] gives a clear error that
//! names the value and the allowed range; [`Params::clamped`] is the page's variant, which
//! brings every value into range and says what it changed.

use crate::engine::Engine;
use crate::pool::page_cleaner::Cadence;
pub use crate::pool::{WhatIf, WhatIfs};
pub use crate::workload::{LookupDist, ScanMode};

pub mod write;

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

/// Every parameter of a run. Units are in the names.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Params {
    /// `innodb_buffer_pool_size`, MiB.
    pub pool_mb: u32,
    /// `innodb_buffer_pool_instances` (a pool under 1 GiB always has 1).
    pub buffer_pool_instances: u32,
    /// `innodb_old_blocks_pct`, %.
    pub old_blocks_pct: u32,
    /// `innodb_old_blocks_time`, ms.
    pub old_blocks_time: u32,
    /// `innodb_lru_scan_depth`, pages per instance.
    pub lru_scan_depth: u32,
    /// `innodb_read_ahead_threshold`, pages (0 = off).
    pub read_ahead_threshold: u32,
    /// When the page cleaner runs its LRU batch.
    pub cleaner: Cadence,
    /// Pages of the hot set (the first pages of the hot table).
    pub hot_pages: u32,
    /// Pages of the hot table (4,485 = 300,000 rows of ~230 bytes).
    pub hot_table_pages: u32,
    /// Lookup client threads.
    pub lookup_threads: u32,
    /// CPU time of one lookup on an otherwise idle server, µs (200 µs = 5,000 lookups/s).
    pub lookup_cpu_us: f64,
    /// How much a running scan slows each lookup's CPU time (1.0 = twice as slow): the scan,
    /// its read-ahead and the lookups share the CPUs.
    pub scan_interference: f64,
    /// Size of the scanned table, MiB (16 KiB pages).
    pub scan_table_mb: u32,
    /// Fetch mode of the scan: a row scan (`normal`) or the parallel reader (`scan`).
    pub scan_mode: ScanMode,
    /// Accesses per page while scanning it (cursor restores).
    pub scan_touches_per_page: u32,
    /// CPU time per scanned page, µs.
    pub scan_cpu_us_per_page: f64,
    /// Pause between passes, ms.
    pub scan_pause_ms: u32,
    /// Loop the scan (true) or read the table once, like a dump (false).
    pub scan_loop: bool,
    /// Warm-up before the scan starts, s.
    pub warmup_s: u32,
    /// Scan phase, s.
    pub scan_s: u32,
    /// Warm or cold start.
    pub start: Start,
    /// Latency of one page read, µs.
    pub read_latency_us: u32,
    /// Extra time per page of a read-ahead burst, µs.
    pub page_transfer_us: u32,
    /// "Kept" is the mean hot-set residency over the last this-many seconds of the scan phase.
    pub kept_window_s: u32,
    /// Sampling interval of the time series, ms.
    pub sample_ms: u32,
    /// Random seed.
    pub seed: u64,
    /// Which server the simulator follows (`mysql-8.4` or `mariadb-10.11`, see [`crate::engine`]).
    /// Not serialized when it is the default, so MySQL runs' JSON is unchanged.
    #[serde(skip_serializing_if = "is_default")]
    pub engine: Engine,
    /// CPUs shared by the lookup threads and the scan, processor sharing (0: the seed-000 model,
    /// a fixed `scan_interference` factor on each lookup while the scan runs).
    #[serde(skip_serializing_if = "is_default")]
    pub cpus: u32,
    /// How a lookup picks its page among the hot set.
    #[serde(skip_serializing_if = "is_default")]
    pub lookup_dist: LookupDist,
    /// Candidate changes to InnoDB rules (`midpoint what-ifs`); empty: stock MySQL 8.4.
    #[serde(skip_serializing_if = "is_default")]
    pub what_if: WhatIfs,
    /// The lookup clients' rate on an otherwise idle server when every lookup hits, /s; when
    /// given (not 0), `lookup_cpu_us` is derived from it (`sim::rates`).
    #[serde(skip_serializing_if = "is_default")]
    pub idle_lookups_per_s: f64,
    /// The rate of a scan pass over pages not in the pool on an otherwise idle server, pages/s;
    /// when given (not 0), `scan_cpu_us_per_page` is derived from it (`sim::rates`).
    #[serde(skip_serializing_if = "is_default")]
    pub idle_scan_pages_per_s: f64,
}

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

/// The most memory a run may take: a run whose estimate is above is refused before allocating.
pub const MEMORY_BUDGET: u64 = 4 << 30;

/// The calibrated page-cleaner cadence for seed 000's read-only server: activity events (a
/// Poisson process) with this mean interval. See the README, "Calibration".
pub const SEED000_ACTIVITY_MEAN_S: f64 = 17.0;

impl Default for Params {
    fn default() -> Self {
        Params {
            pool_mb: 256,
            buffer_pool_instances: 1,
            old_blocks_pct: 37,
            old_blocks_time: 1000,
            lru_scan_depth: 1024,
            read_ahead_threshold: 56,
            cleaner: Cadence::AfterActivity {
                mean_interval_ms: (SEED000_ACTIVITY_MEAN_S * 1000.0) as u32,
            },
            hot_pages: 4485,
            hot_table_pages: 4485,
            lookup_threads: 1,
            lookup_cpu_us: 200.0,
            scan_interference: 1.0,
            scan_table_mb: 746,
            scan_mode: ScanMode::Normal,
            scan_touches_per_page: 8,
            scan_cpu_us_per_page: 15.0,
            scan_pause_ms: 0,
            scan_loop: true,
            warmup_s: 60,
            scan_s: 150,
            start: Start::Warm,
            read_latency_us: 270,
            page_transfer_us: 10,
            kept_window_s: 110,
            sample_ms: 1000,
            seed: 1,
            engine: Engine::Mysql84,
            cpus: 0,
            lookup_dist: LookupDist::Uniform,
            what_if: WhatIfs::NONE,
            idle_lookups_per_s: 0.0,
            idle_scan_pages_per_s: 0.0,
        }
    }
}

/// One parameter's allowed range, for errors, clamping and the page's sliders.
#[derive(Clone, Debug, Serialize)]
pub struct Range {
    /// Parameter name (the CLI flag without dashes, the URL key).
    pub name: &'static str,
    /// Lowest allowed value.
    pub min: f64,
    /// Highest allowed value.
    pub max: f64,
    /// Unit.
    pub unit: &'static str,
    /// MySQL 8.4's default, where the parameter is a server variable.
    pub innodb_default: Option<f64>,
    /// What the parameter is, in a few words.
    pub help: &'static str,
}

/// A few words on each parameter, for `--help` and the page's labels.
pub fn describe(name: &str) -> &'static str {
    match name {
        "pool_mb" => "innodb_buffer_pool_size in MiB (16 KiB pages; each 128 MiB chunk loses one page to descriptors)",
        "buffer_pool_instances" => "innodb_buffer_pool_instances (forced to 1 below 1 GiB)",
        "old_blocks_pct" => "innodb_old_blocks_pct: target share of the LRU list in the old sublist",
        "old_blocks_time" => "innodb_old_blocks_time: an old page is promoted only when touched this long after its first access",
        "lru_scan_depth" => "innodb_lru_scan_depth: the page cleaner tops the free list up to this many pages per instance",
        "read_ahead_threshold" => "innodb_read_ahead_threshold: pages of an extent accessed in order that trigger linear read-ahead",
        "hot_pages" => "pages of the hot set: random point lookups over the first rows of the hot table",
        "hot_table_pages" => "pages of the hot table (4,485 = the seed's 300,000 rows)",
        "lookup_threads" => "lookup client threads (closed loop)",
        "lookup_cpu_us" => "CPU time of one lookup on an idle server (200 us = 5,000 lookups/s)",
        "scan_interference" => "extra CPU time per lookup while a scan runs, as a multiple (1 = twice as slow)",
        "scan_table_mb" => "size of the scanned table in MiB",
        "scan_touches_per_page" => "accesses per scanned page (cursor restores every few rows)",
        "scan_cpu_us_per_page" => "CPU time per scanned page",
        "scan_pause_ms" => "pause between two passes of the scan",
        "warmup_s" => "seconds of lookups before the scan starts",
        "scan_s" => "seconds of scanning",
        "read_latency_us" => "latency of one page read",
        "page_transfer_us" => "extra time per page of a read-ahead burst",
        "kept_window_s" => "\"kept\" averages hot-set residency over the last this-many seconds",
        "sample_ms" => "sampling interval of the time series",
        "cleaner" => "page-cleaner cadence: every-second, never, or after-activity:SECONDS",
        "start" => "warm (tables just loaded by INSERTs), cold (pool filled from a filler table) or restart (an empty pool, warmed only by the run's own traffic)",
        "scan_mode" => "normal (a row scan, SELECT SUM) or scan (the parallel reader, COUNT(*))",
        "scan_loop" => "true: scan back to back (or with the pause); false: one pass, like a dump",
        "seed" => "random seed: the same seed gives the same run",
        "engine" => "mysql-8.4 or mariadb-10.11 (one pool, no SCAN fetch mode, demand-driven free-list refills; lru_scan_depth 1536); setting it resets lru_scan_depth and buffer_pool_instances to that engine's defaults (a flag given for either wins, wherever it stands). With mariadb-10.11 the cleaner cadence does not apply, except never (no page-cleaner LRU work, as before 10.11.3)",
        "cpus" => "CPUs shared by the lookup threads and the scan (processor sharing); 0 = the seed-000 model with one scan_interference factor",
        "what_if" => "a candidate change to one InnoDB rule (see `midpoint what-ifs`); repeat the flag or give a comma-separated list; none = stock MySQL 8.4",
        "idle_lookups_per_s" => "lookups per second your server runs when idle and every lookup hits (0 = use lookup_cpu_us); sets lookup_cpu_us",
        "idle_scan_pages_per_s" => "pages per second a scan of an uncached table reads on your idle server (0 = use scan_cpu_us_per_page); sets scan_cpu_us_per_page",
        "lookup_dist" => "uniform, or special (sysbench's default: 75 % of lookups on the first 1 % of the hot pages)",
        _ => "",
    }
}

/// The numeric parameters' ranges.
pub const RANGES: &[(&str, f64, f64, &str, Option<f64>)] = &[
    ("pool_mb", 8.0, 65536.0, "MiB", Some(128.0)),
    ("buffer_pool_instances", 1.0, 64.0, "", None),
    ("old_blocks_pct", 5.0, 95.0, "%", Some(37.0)),
    ("old_blocks_time", 0.0, 4294967295.0, "ms", Some(1000.0)),
    ("lru_scan_depth", 100.0, 4294967295.0, "pages", Some(1024.0)),
    ("read_ahead_threshold", 0.0, 64.0, "pages", Some(56.0)),
    ("hot_pages", 1.0, 4194304.0, "pages", None),
    ("hot_table_pages", 1.0, 4194304.0, "pages", None),
    ("lookup_threads", 0.0, 256.0, "threads", None),
    ("lookup_cpu_us", 1.0, 100000.0, "µs", None),
    ("scan_interference", 0.0, 100.0, "×", None),
    ("scan_table_mb", 1.0, 262144.0, "MiB", None),
    ("scan_touches_per_page", 1.0, 1000.0, "", None),
    ("scan_cpu_us_per_page", 0.1, 100000.0, "µs", None),
    ("scan_pause_ms", 0.0, 600000.0, "ms", None),
    ("warmup_s", 0.0, 3600.0, "s", None),
    ("scan_s", 0.0, 3600.0, "s", None),
    ("read_latency_us", 0.0, 1000000.0, "µs", None),
    ("page_transfer_us", 0.0, 100000.0, "µs", None),
    ("kept_window_s", 1.0, 3600.0, "s", None),
    ("sample_ms", 10.0, 60000.0, "ms", None),
    ("cpus", 0.0, 256.0, "CPUs", None),
    ("idle_lookups_per_s", 0.0, 1000000.0, "lookups/s", None),
    ("idle_scan_pages_per_s", 0.0, 1000000.0, "pages/s", None),
];

/// The range of a named parameter.
pub fn range_of(name: &str) -> Option<Range> {
    RANGES
        .iter()
        .find(|r| r.0 == name)
        .map(|&(name, min, max, unit, innodb_default)| Range {
            name,
            min,
            max,
            unit,
            innodb_default,
            help: describe(name),
        })
}

impl Params {
    fn numeric_mut(&mut self) -> Vec<(&'static str, NumRef<'_>)> {
        vec![
            ("pool_mb", NumRef::U32(&mut self.pool_mb)),
            (
                "buffer_pool_instances",
                NumRef::U32(&mut self.buffer_pool_instances),
            ),
            ("old_blocks_pct", NumRef::U32(&mut self.old_blocks_pct)),
            ("old_blocks_time", NumRef::U32(&mut self.old_blocks_time)),
            ("lru_scan_depth", NumRef::U32(&mut self.lru_scan_depth)),
            (
                "read_ahead_threshold",
                NumRef::U32(&mut self.read_ahead_threshold),
            ),
            ("hot_pages", NumRef::U32(&mut self.hot_pages)),
            ("hot_table_pages", NumRef::U32(&mut self.hot_table_pages)),
            ("lookup_threads", NumRef::U32(&mut self.lookup_threads)),
            ("lookup_cpu_us", NumRef::F64(&mut self.lookup_cpu_us)),
            (
                "scan_interference",
                NumRef::F64(&mut self.scan_interference),
            ),
            ("scan_table_mb", NumRef::U32(&mut self.scan_table_mb)),
            (
                "scan_touches_per_page",
                NumRef::U32(&mut self.scan_touches_per_page),
            ),
            (
                "scan_cpu_us_per_page",
                NumRef::F64(&mut self.scan_cpu_us_per_page),
            ),
            ("scan_pause_ms", NumRef::U32(&mut self.scan_pause_ms)),
            ("warmup_s", NumRef::U32(&mut self.warmup_s)),
            ("scan_s", NumRef::U32(&mut self.scan_s)),
            ("read_latency_us", NumRef::U32(&mut self.read_latency_us)),
            ("page_transfer_us", NumRef::U32(&mut self.page_transfer_us)),
            ("kept_window_s", NumRef::U32(&mut self.kept_window_s)),
            ("sample_ms", NumRef::U32(&mut self.sample_ms)),
            ("cpus", NumRef::U32(&mut self.cpus)),
            (
                "idle_lookups_per_s",
                NumRef::F64(&mut self.idle_lookups_per_s),
            ),
            (
                "idle_scan_pages_per_s",
                NumRef::F64(&mut self.idle_scan_pages_per_s),
            ),
        ]
    }

    /// Checks every value against its range and the cross-parameter rules. The error names the
    /// parameter, the value and what is allowed.
    pub fn validate(&self) -> Result<(), String> {
        let mut p = self.clone();
        for (name, v) in p.numeric_mut() {
            let r = range_of(name).expect("every numeric parameter has a range");
            let x = v.get();
            if !x.is_finite() || x < r.min || x > r.max {
                return Err(format!(
                    "{name} = {x} is out of range: allowed {} ..= {} {}",
                    fmt_num(r.min),
                    fmt_num(r.max),
                    r.unit
                ));
            }
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

    /// The memory a run takes at most, estimated from the parameters (bytes): per frame the LRU links,
    /// the frame's page and times and its free-list slot; four bytes per page of each table
    /// (the page table, the filler table of a cold start as large as the pool); one sample per
    /// `sample_ms`.
    pub fn memory_estimate(&self) -> u64 {
        const PER_FRAME: u64 = 64;
        const PER_PAGE: u64 = 4;
        const PER_SAMPLE: u64 = 160;
        let frames = self.pool_mb as u64 * 64;
        let filler = if self.start == Start::Cold { frames } else { 0 };
        let pages = self.hot_table_pages as u64 + self.scan_table_pages() as u64 + filler;
        let samples =
            (self.warmup_s as u64 + self.scan_s as u64 + 1) * 1000 / self.sample_ms.max(1) as u64;
        frames * PER_FRAME + pages * PER_PAGE + samples * PER_SAMPLE
    }

    /// Brings every value into range (the page's rule for URL parameters and sliders) and
    /// returns what it changed, one message per parameter.
    pub fn clamped(&self) -> (Params, Vec<String>) {
        let mut p = self.clone();
        let mut notes = Vec::new();
        for (name, mut v) in p.numeric_mut() {
            let r = range_of(name).expect("range");
            let x = v.get();
            let y = if x.is_finite() {
                x.clamp(r.min, r.max)
            } else {
                r.min
            };
            if y != x {
                v.set(y);
                notes.push(format!(
                    "{name} = {} is out of range ({} ..= {} {}); using {}",
                    fmt_num(x),
                    fmt_num(r.min),
                    fmt_num(r.max),
                    r.unit,
                    fmt_num(y)
                ));
            }
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

    /// Usable frames per instance: in MySQL each 128 MiB chunk gives up one page to block
    /// descriptors, so 256 MiB gives 16,382 frames (reference §1.6); MariaDB carves the
    /// descriptors out of the chunk (64 MiB: 4,056 pages).
    pub fn frames_per_instance(&self) -> u32 {
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
    /// sliders). Errors name the parameter and the value.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let name = name.replace('-', "_");
        let v = value.trim();
        match name.as_str() {
            "cleaner" => {
                self.cleaner = Cadence::parse(v)?;
                return Ok(());
            }
            "start" => {
                self.start = match v {
                    "warm" => Start::Warm,
                    "cold" => Start::Cold,
                    "restart" => Start::Restart,
                    _ => return Err(format!("start = '{v}' is not one of: warm, cold, restart")),
                };
                return Ok(());
            }
            "scan_mode" => {
                self.scan_mode = match v {
                    "normal" => ScanMode::Normal,
                    "scan" => ScanMode::Scan,
                    _ => return Err(format!("scan_mode = '{v}' is not one of: normal, scan")),
                };
                return Ok(());
            }
            "scan_loop" => {
                self.scan_loop = match v {
                    "true" | "1" | "yes" => true,
                    "false" | "0" | "no" => false,
                    _ => return Err(format!("scan_loop = '{v}' is not true or false")),
                };
                return Ok(());
            }
            "engine" => {
                let e = Engine::parse(v)?;
                if e != self.engine {
                    self.engine = e;
                    self.lru_scan_depth = e.default_lru_scan_depth();
                    if !e.has_instances() {
                        self.buffer_pool_instances = 1;
                    }
                }
                return Ok(());
            }
            "lookup_dist" => {
                self.lookup_dist = match v {
                    "uniform" => LookupDist::Uniform,
                    "special" => LookupDist::Special,
                    _ => {
                        return Err(format!(
                            "lookup_dist = '{v}' is not one of: uniform, special"
                        ))
                    }
                };
                return Ok(());
            }
            "what_if" => {
                return self.what_if.add_parsed(v);
            }
            "seed" => {
                self.seed = v
                    .parse()
                    .map_err(|_| format!("seed = '{v}' is not a whole number 0 ..= 2^64-1"))?;
                return Ok(());
            }
            _ => {}
        }
        let Some(r) = range_of(&name) else {
            return Err(format!("unknown parameter '{name}'"));
        };
        let x: f64 = v.parse().map_err(|_| {
            format!(
                "{name} = '{v}' is not a number (allowed {} ..= {} {})",
                fmt_num(r.min),
                fmt_num(r.max),
                r.unit
            )
        })?;
        for (n, mut slot) in self.numeric_mut() {
            if n == name {
                if slot.is_integer() && x.fract() != 0.0 {
                    return Err(format!("{name} = '{v}' must be a whole number"));
                }
                if !x.is_finite() || x < r.min || x > r.max {
                    return Err(format!(
                        "{name} = {v} is out of range: allowed {} ..= {} {}",
                        fmt_num(r.min),
                        fmt_num(r.max),
                        r.unit
                    ));
                }
                slot.set(x);
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
    /// carries so that a run can be reproduced.
    pub fn to_pairs(&self) -> Vec<(String, String)> {
        let mut p = self.clone();
        // The engine comes first: setting it resets engine defaults that later pairs override.
        let mut v: Vec<(String, String)> = vec![("engine".into(), self.engine.label().into())];
        v.extend(
            p.numeric_mut()
                .into_iter()
                .map(|(n, r)| (n.to_string(), fmt_num(r.get()))),
        );
        v.push(("cleaner".into(), self.cleaner.label()));
        v.push((
            "start".into(),
            match self.start {
                Start::Warm => "warm",
                Start::Cold => "cold",
                Start::Restart => "restart",
            }
            .into(),
        ));
        v.push((
            "scan_mode".into(),
            match self.scan_mode {
                ScanMode::Normal => "normal",
                ScanMode::Scan => "scan",
            }
            .into(),
        ));
        v.push(("scan_loop".into(), self.scan_loop.to_string()));
        v.push((
            "lookup_dist".into(),
            match self.lookup_dist {
                LookupDist::Uniform => "uniform",
                LookupDist::Special => "special",
            }
            .into(),
        ));
        v.push(("what_if".into(), self.what_if.label()));
        v.push(("seed".into(), self.seed.to_string()));
        v
    }
}

/// Formats a number without a trailing ".0".
pub fn fmt_num(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

enum NumRef<'a> {
    U32(&'a mut u32),
    F64(&'a mut f64),
}

impl NumRef<'_> {
    fn get(&self) -> f64 {
        match self {
            NumRef::U32(v) => **v as f64,
            NumRef::F64(v) => **v,
        }
    }
    fn set(&mut self, x: f64) {
        match self {
            NumRef::U32(v) => **v = x.round().clamp(0.0, u32::MAX as f64) as u32,
            NumRef::F64(v) => **v = x,
        }
    }
    fn is_integer(&self) -> bool {
        matches!(self, NumRef::U32(_))
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

/// The preset with this name.
pub fn preset(name: &str) -> Result<Preset, String> {
    presets()
        .into_iter()
        .find(|p| p.name == name)
        .ok_or_else(|| {
            format!(
                "unknown preset '{name}'; known presets: {}",
                presets()
                    .iter()
                    .map(|p| p.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_at_its_maximum_fits_the_memory_budget() {
        let mut p = Params::default();
        for (name, _, hi, _, _) in RANGES {
            p.set(name, &hi.to_string()).unwrap();
        }
        p.set("sample_ms", "10").unwrap();
        p.set("start", "cold").unwrap();
        let m = p.memory_estimate();
        assert!(m > 1 << 28 && m <= MEMORY_BUDGET, "{m}");
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
        assert!(e.contains("5 ..= 95"), "{e}");
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
    }
}
