//! The experiment's plan: table sizes from the server's pool, the disk and time it takes, the
//! variables it sets. Pure: the server's facts come in as a value.

use midpoint_core::scenario::schema::{Spec, OLD_BLOCKS_PCT, OLD_BLOCKS_TIME};
use serde::Serialize;

/// The experiment's own schema; nothing outside it is created, written or dropped.
pub const SCHEMA: &str = "midpoint_experiment";
/// The table the lookup client reads (the seed's `h`).
pub const HOT_TABLE: &str = "hot";
/// The table scanned in a loop (the seed's `b`).
pub const SCAN_TABLE: &str = "scanned";
/// Rows per leaf page the plan assumes for both tables (an INT key, an INT, a 200-byte
/// latin1 CHAR, pages filled to 15/16 by ascending inserts: about 66; the seed's hot table held
/// 300,000 rows in 4,485 pages, 66.9). The load measures the real count.
pub const ROWS_PER_PAGE: u64 = 66;
/// Bytes of one page (the model and the plan assume 16 KiB pages).
pub const PAGE_BYTES: u64 = 16_384;
/// The smallest pool the experiment runs on, in pages (16 MiB).
pub const MIN_POOL_PAGES: u64 = 1_000;
/// The load rate the time estimate assumes, rows per second (a loaded 2-CPU machine).
pub const ASSUMED_LOAD_ROWS_PER_S: f64 = 40_000.0;

/// What the user asked for (the flags), checked by [`Settings::validate`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Settings {
    pub hot_frac: f64,
    pub scan_x: f64,
    pub warmup_s: u32,
    pub scan_s: u32,
    pub pause_ms: u32,
    pub old_blocks_time: Option<u32>,
    pub old_blocks_pct: Option<u32>,
    pub lru_scan_depth: Option<u32>,
    pub runs: u32,
    pub sample_s: u32,
    pub free_sample_ms: u32,
    /// The default model's CPUs (`--cpus`): 0 the fixed `scan_interference` factor, N
    /// processor sharing over N CPUs; `None`: the experiment's default, [`DEFAULT_CPU_MODEL`].
    pub cpus: Option<u32>,
    /// The server's CPUs for the processor-sharing model (`--server-cpus`); `None`: this
    /// machine's when the server is on loopback, else unknown.
    pub server_cpus: Option<u32>,
    /// Idle scan passes timed after one warm pass; the model takes their median.
    pub idle_passes: u32,
    pub keep: bool,
}

/// The experiment's model when `--cpus` is not given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CpuModel {
    /// `cpus` 0: lookups slowed by the fixed `scan_interference` factor while a scan runs.
    Fixed,
    /// Processor sharing over the server's CPUs (`cpus` = the server's CPUs).
    Shared,
}

/// The default model of `midpoint experiment` (see docs/experiment.md, "CPU").
pub const DEFAULT_CPU_MODEL: CpuModel = CpuModel::Fixed;

impl Default for Settings {
    fn default() -> Self {
        Settings {
            hot_frac: 0.25,
            scan_x: 3.0,
            warmup_s: 60,
            scan_s: 150,
            pause_ms: 0,
            old_blocks_time: None,
            old_blocks_pct: None,
            lru_scan_depth: None,
            runs: 5,
            sample_s: 5,
            free_sample_ms: 100,
            cpus: None,
            server_cpus: None,
            idle_passes: 3,
            keep: false,
        }
    }
}

impl Settings {
    /// Checks each value; the error names the flag, the value and the allowed range.
    pub fn validate(&self) -> Result<(), String> {
        fn range<T: PartialOrd + std::fmt::Display>(
            flag: &str,
            v: T,
            lo: T,
            hi: T,
        ) -> Result<(), String> {
            if v < lo || v > hi {
                return Err(format!("--{flag} {v} is outside {lo} to {hi}"));
            }
            Ok(())
        }
        if !self.hot_frac.is_finite() || self.hot_frac <= 0.0 || self.hot_frac > 0.9 {
            return Err(format!(
                "--hot-frac {} must be above 0 and at most 0.9 (a share of the pool)",
                self.hot_frac
            ));
        }
        if !self.scan_x.is_finite() {
            return Err(format!("--scan-x {} is not a number", self.scan_x));
        }
        range("scan-x", self.scan_x, 1.0, 50.0)?;
        range("warmup-s", self.warmup_s, 1, 3600)?;
        range("scan-s", self.scan_s, 1, 3600)?;
        range("pause-ms", self.pause_ms, 0, 600_000)?;
        // The server's own ranges, which the simulator's parameters share.
        if let Some(t) = self.old_blocks_time {
            let (lo, hi) = spec_range(&OLD_BLOCKS_TIME);
            range("old-blocks-time", t, lo, hi)?;
        }
        if let Some(p) = self.old_blocks_pct {
            let (lo, hi) = spec_range(&OLD_BLOCKS_PCT);
            range("old-blocks-pct", p, lo, hi)?;
        }
        if let Some(d) = self.lru_scan_depth {
            range("lru-scan-depth", d, 100, 1 << 30)?;
        }
        range("runs", self.runs, 1, 100)?;
        range("sample-s", self.sample_s, 1, 60)?;
        range("free-sample-ms", self.free_sample_ms, 10, 10_000)?;
        if let Some(c) = self.cpus {
            range("cpus", c, 0, 256)?;
        }
        if let Some(c) = self.server_cpus {
            range("server-cpus", c, 1, 256)?;
        }
        range("idle-passes", self.idle_passes, 1, 20)?;
        Ok(())
    }
}

/// What the plan needs to know of the server.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PoolFacts {
    /// `Innodb_buffer_pool_pages_total`.
    pub pool_pages: u64,
    /// `innodb_page_size`.
    pub page_size: u64,
    /// The current values of the three variables.
    pub old_blocks_time: u32,
    pub old_blocks_pct: u32,
    pub lru_scan_depth: u32,
}

/// One `SET GLOBAL` the run makes, with the value it restores.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VarChange {
    pub name: String,
    pub from: u64,
    pub to: u64,
}

/// The plan: what the run creates, how long it takes, what it sets.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Plan {
    pub hot_rows: u64,
    pub hot_pages: u64,
    pub scan_rows: u64,
    pub scan_pages: u64,
    pub disk_bytes: u64,
    pub load_s_estimate: f64,
    pub total_s_estimate: f64,
    pub variables: Vec<VarChange>,
    /// The values the run uses (set or kept), for the model.
    pub old_blocks_time: u32,
    pub old_blocks_pct: u32,
    pub lru_scan_depth: u32,
}

/// Sizes the tables from the pool: the hot table holds `hot_frac` of the pool in leaf pages,
/// the scanned table `scan_x` times the pool.
pub fn plan(s: &Settings, f: &PoolFacts) -> Result<Plan, String> {
    s.validate()?;
    if f.page_size != PAGE_BYTES {
        return Err(format!(
            "innodb_page_size is {} bytes; the experiment and the model assume 16384",
            f.page_size
        ));
    }
    if f.pool_pages < MIN_POOL_PAGES {
        return Err(format!(
            "the buffer pool is too small: {} pages; the experiment needs at least {MIN_POOL_PAGES} (16 MiB)",
            f.pool_pages
        ));
    }
    let hot_pages = ((s.hot_frac * f.pool_pages as f64).round() as u64).max(1);
    let scan_pages = ((s.scan_x * f.pool_pages as f64).round() as u64).max(1);
    let hot_rows = hot_pages * ROWS_PER_PAGE;
    let scan_rows = scan_pages * ROWS_PER_PAGE;
    // Leaf pages, about 1 % of internal pages, and the tablespaces' extent slack.
    let disk_bytes = ((hot_pages + scan_pages) as f64 * PAGE_BYTES as f64 * 1.1) as u64;
    let load_s_estimate = (hot_rows + scan_rows) as f64 / ASSUMED_LOAD_ROWS_PER_S;
    // The load, the warm pass and the idle passes (at most 20 s each, a guess), the warm-up
    // and the scans.
    let total_s_estimate =
        load_s_estimate + 20.0 * (1 + s.idle_passes) as f64 + s.warmup_s as f64 + s.scan_s as f64;
    let mut variables = Vec::new();
    let mut want = |name: &str, cur: u32, to: Option<u32>| -> u32 {
        match to {
            Some(v) if v != cur => {
                variables.push(VarChange {
                    name: name.into(),
                    from: cur as u64,
                    to: v as u64,
                });
                v
            }
            Some(v) => v,
            None => cur,
        }
    };
    let old_blocks_time = want(
        "innodb_old_blocks_time",
        f.old_blocks_time,
        s.old_blocks_time,
    );
    let old_blocks_pct = want("innodb_old_blocks_pct", f.old_blocks_pct, s.old_blocks_pct);
    let lru_scan_depth = want("innodb_lru_scan_depth", f.lru_scan_depth, s.lru_scan_depth);
    Ok(Plan {
        hot_rows,
        hot_pages,
        scan_rows,
        scan_pages,
        disk_bytes,
        load_s_estimate,
        total_s_estimate,
        variables,
        old_blocks_time,
        old_blocks_pct,
        lru_scan_depth,
    })
}

impl Plan {
    /// The plan as the dry run prints it.
    pub fn describe(&self, s: &Settings) -> String {
        let mut o = String::new();
        let mib = |pages: u64| pages * PAGE_BYTES / (1 << 20);
        o += &format!(
            "schema   {SCHEMA} (created, and dropped at the end{})\n",
            if s.keep { " unless --keep: kept" } else { "" }
        );
        o += &format!(
            "tables   {HOT_TABLE}: {} rows, about {} leaf pages ({} MiB), read by one lookup client\n",
            self.hot_rows,
            self.hot_pages,
            mib(self.hot_pages)
        );
        o += &format!(
            "         {SCAN_TABLE}: {} rows, about {} leaf pages ({} MiB), scanned in a loop (SELECT SUM(v)), pause {} ms\n",
            self.scan_rows,
            self.scan_pages,
            mib(self.scan_pages),
            s.pause_ms
        );
        o += &format!("disk     about {} MiB\n", self.disk_bytes / (1 << 20));
        o += &format!(
            "time     about {:.0} s: load about {:.0} s (at an assumed {:.0} rows/s), one warm and {} idle scan passes, warm-up {} s, scans {} s\n",
            self.total_s_estimate, self.load_s_estimate, ASSUMED_LOAD_ROWS_PER_S, s.idle_passes, s.warmup_s, s.scan_s
        );
        if self.variables.is_empty() {
            o += "sets     nothing (the server's current values are used)\n";
        }
        for v in &self.variables {
            o += &format!(
                "sets     SET GLOBAL {} = {} (now {}, restored at the end, on error and on Ctrl-C)\n",
                v.name, v.to, v.from
            );
        }
        o += &format!(
            "uses     innodb_old_blocks_time = {}, innodb_old_blocks_pct = {}, innodb_lru_scan_depth = {}\n",
            self.old_blocks_time, self.old_blocks_pct, self.lru_scan_depth
        );
        o += "load     the run loads the server (a scan three times the pool evicts its pages): use a test server\n";
        o
    }
}

/// A whole-number parameter's range as the `u32` a server variable takes (the schema's ranges
/// of the variables a run sets fit in one).
pub(crate) fn spec_range(spec: &Spec) -> (u32, u32) {
    let (lo, hi) = spec.int_range().expect("a whole-number parameter");
    (
        u32::try_from(lo).unwrap_or(u32::MAX),
        u32::try_from(hi).unwrap_or(u32::MAX),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts() -> PoolFacts {
        PoolFacts {
            pool_pages: 4056,
            page_size: 16384,
            old_blocks_time: 1000,
            old_blocks_pct: 37,
            lru_scan_depth: 1536,
        }
    }

    #[test]
    fn tables_are_sized_from_the_pool() {
        let s = Settings::default();
        let p = plan(&s, &facts()).unwrap();
        assert_eq!(p.hot_pages, 1014); // 0.25 × 4,056
        assert_eq!(p.scan_pages, 12_168); // 3 × 4,056
        assert_eq!(p.hot_rows, 1014 * ROWS_PER_PAGE);
        assert_eq!(p.scan_rows, 12_168 * ROWS_PER_PAGE);
        let on_disk = (1014 + 12_168) as f64 * 16384.0;
        assert!(p.disk_bytes as f64 > on_disk && (p.disk_bytes as f64) < on_disk * 1.2);
        assert!(p.variables.is_empty());
        assert_eq!((p.old_blocks_time, p.lru_scan_depth), (1000, 1536));
        let doubled = plan(
            &Settings {
                scan_x: 6.0,
                ..s.clone()
            },
            &facts(),
        )
        .unwrap();
        assert_eq!(doubled.scan_pages, 2 * p.scan_pages);
    }

    #[test]
    fn only_changed_variables_are_set() {
        let s = Settings {
            old_blocks_time: Some(0),
            lru_scan_depth: Some(1536),
            ..Settings::default()
        };
        let p = plan(&s, &facts()).unwrap();
        assert_eq!(
            p.variables,
            vec![VarChange {
                name: "innodb_old_blocks_time".into(),
                from: 1000,
                to: 0
            }]
        );
        assert_eq!(p.old_blocks_time, 0);
        let text = p.describe(&s);
        assert!(text.contains("SET GLOBAL innodb_old_blocks_time = 0 (now 1000"));
    }

    #[test]
    fn servers_and_flags_it_cannot_use_are_refused() {
        let s = Settings::default();
        let small = PoolFacts {
            pool_pages: 500,
            ..facts()
        };
        assert!(plan(&s, &small).unwrap_err().contains("too small"));
        let big_pages = PoolFacts {
            page_size: 65536,
            ..facts()
        };
        assert!(plan(&s, &big_pages)
            .unwrap_err()
            .contains("innodb_page_size"));
        for bad in [
            Settings {
                hot_frac: 0.0,
                ..s.clone()
            },
            Settings {
                hot_frac: f64::NAN,
                ..s.clone()
            },
            Settings {
                scan_x: 0.5,
                ..s.clone()
            },
            Settings {
                scan_s: 0,
                ..s.clone()
            },
            Settings {
                old_blocks_pct: Some(99),
                ..s.clone()
            },
        ] {
            assert!(plan(&bad, &facts()).is_err(), "{bad:?}");
        }
    }
}
