//! From what a server printed to the simulator's parameters: the pool's pages and instances,
//! `innodb_old_blocks_pct/_time`, `innodb_lru_scan_depth`, `innodb_read_ahead_threshold`, the
//! read rate as the scan's rate and the engine by version. The two things a status cannot tell,
//! the hot set's size and how often it is read, come from the user, or are assumed (a suggestion
//! from the pool's numbers), and every value not read is listed as assumed with its reason.

use super::fit::Fit;
use super::Reading;
use midpoint_core::engine::Engine;
use midpoint_core::scenario::Params;
use serde::Serialize;

/// What the user enters beside the paste (each pins an unknown the fit would otherwise choose).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Inputs {
    /// Pages of the hot set (random point lookups over them).
    pub hot_pages: Option<u32>,
    /// Lookups per second the server runs when idle and every lookup hits.
    pub lookups_per_s: Option<f64>,
    /// Pages per second the scan reads on an idle server (uncached pages).
    pub scan_pages_per_s: Option<f64>,
    /// The tables the user marked hot (`db.t`): the hot set is theirs, from the per-table
    /// residency pasted ([`crate::tables`]), unless `hot_pages` is given.
    pub hot_tables: Vec<String>,
    /// Set by [`Inputs::resolve`]: how the marked tables gave the hot set.
    pub hot_from: Option<String>,
}

impl Inputs {
    /// Takes the hot set from the tables marked hot (when `hot_pages` was not typed), or says
    /// why it cannot.
    pub fn resolve(&mut self, r: &Reading) -> Result<(), String> {
        if self.hot_tables.is_empty() || self.hot_pages.is_some() {
            return Ok(());
        }
        let h = crate::tables::hot_set(&r.tables, &self.hot_tables)?;
        self.hot_pages = Some(h.pages);
        self.hot_from = Some(h.words);
        Ok(())
    }

    /// The unknowns these inputs pin, for the fit.
    pub fn pins(&self) -> crate::fit::Pins {
        crate::fit::Pins {
            hot_from: self.hot_from.clone(),
            hot_pages: self.hot_pages,
            lookups_per_s: self.lookups_per_s,
            scan_pages_per_s: self.scan_pages_per_s,
        }
    }
}

/// One value the scenario had to assume: its name (the server variable, or the parameter when
/// no variable prints it), the value used and why.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Assumed {
    pub name: String,
    pub value: String,
    pub why: String,
}

/// The scenario and how it came from the reading.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Scenario {
    pub params: Params,
    /// Values not read, with the value used.
    pub assumed: Vec<Assumed>,
    /// How read values were used (clamped, rounded, a flagged value used anyway).
    pub notes: Vec<String>,
    /// The hot set the pool's numbers suggest (pages), whether or not the user gave one.
    pub suggested_hot_pages: u32,
}

impl Scenario {
    /// The scenario after the fit: its parameters the fitted ones, and each fitted unknown's
    /// `assumed` entry saying it was fitted, and to what.
    pub fn apply_fit(&mut self, fit: &Fit, fitted: Params) {
        let s = self;
        s.params = fitted;
        let mut set = |name: &str, value: String, why: String| {
            s.assumed.retain(|a| a.name != name);
            s.assumed.push(Assumed {
                name: name.into(),
                value,
                why,
            });
        };
        let unmet = |k: &str| fit.unmet.iter().any(|u| u == k);
        let how = |k: &str| {
            if unmet(k) {
                "come nearest to"
            } else {
                "reproduce"
            }
        };
        if fit.fitted.iter().any(|f| f == "hot_pages") {
            set(
                "hot_pages",
                fit.hot_pages.to_string(),
                if unmet("youngs_per_s") {
                    "not given (--hot-pages), and not fixed by your counters: no hot set gives your youngs/s; the nearest the fit found".to_string()
                } else {
                    "not given (--hot-pages): fitted, the hot set whose evictions reproduce your youngs/s".to_string()
                },
            );
        }
        if fit.fitted.iter().any(|f| f == "lookups_per_s") {
            set(
                "lookups_per_s",
                format!("{:.0}", fit.lookups_per_s),
                format!(
                    "not given (--lookups-per-s): fitted, the lookup rate whose gets {} your hit rate",
                    how("hit_rate")
                ),
            );
        }
        if fit.fitted.iter().any(|f| f == "scan_pages_per_s") {
            s.notes.retain(|n| !n.starts_with("the scan reads "));
            set(
                "scan_pages_per_s",
                format!("{:.0}", fit.scan_pages_per_s),
                format!(
                    "not given (--scan-pages-per-s): fitted, the scan rate whose reads {} your reads/s",
                    how("reads_per_s")
                ),
            );
            s.assumed.retain(|a| a.name != "reads_per_s");
        }
    }
}

/// Below this, the read rate is not a scan's and the scan's rate is assumed.
pub const MIN_SCAN_READS_PER_S: f64 = 100.0;

fn var_u64(r: &Reading, name: &str) -> Option<u64> {
    r.count(name)
}

/// The engine the reading's server follows: MariaDB when its version says so (or, without a
/// version, when a line only MariaDB prints was read), else MySQL 8.4's rules.
pub fn engine_of(r: &Reading, assumed: &mut Vec<Assumed>, notes: &mut Vec<String>) -> Engine {
    if let Some(v) = r.values.get("version") {
        let s = format!("{:?}", v.value).to_ascii_lowercase();
        let comment = r
            .values
            .get("version_comment")
            .map(|c| format!("{:?}", c.value).to_ascii_lowercase())
            .unwrap_or_default();
        if s.contains("mariadb") || comment.contains("mariadb") {
            return Engine::Mariadb1011;
        }
        notes.push(format!(
            "version (line {}) is MySQL's: the model follows MySQL 8.4's rules",
            v.from.line
        ));
        return Engine::Mysql84;
    }
    if let Some(l) = r.mariadb_hint {
        notes.push(format!(
            "line {l} is one only MariaDB prints: the model follows MariaDB 10.11's rules"
        ));
        return Engine::Mariadb1011;
    }
    assumed.push(Assumed {
        name: "version".into(),
        value: Engine::Mysql84.label().into(),
        why: "no version was pasted (SHOW VARIABLES LIKE 'version'); MySQL 8.4's rules are used"
            .into(),
    });
    Engine::Mysql84
}

/// The scenario for a reading. Errors only when the parameters cannot make a run.
pub fn scenario(r: &Reading, inp: &Inputs) -> Result<Scenario, String> {
    let mut assumed = Vec::new();
    let mut notes = Vec::new();
    let mut p = Params::default();
    let engine = engine_of(r, &mut assumed, &mut notes);
    p.set("engine", engine.label())?;
    let flagged = |n: &str| r.flagged.iter().any(|f| f == n);

    // The pool: its pages as printed (the model's frames follow the MiB), else the variable.
    let page_size = var_u64(r, "innodb_page_size").unwrap_or(16_384);
    if page_size != 16_384 {
        notes.push(format!(
            "innodb_page_size = {page_size}: the model has 16 KiB pages; the pool keeps its number of pages"
        ));
    }
    let pages = r
        .count("pool_pages")
        .map(|n| (n, "pool_pages"))
        .or_else(|| {
            r.count("Innodb_buffer_pool_pages_total")
                .map(|n| (n, "Innodb_buffer_pool_pages_total"))
        });
    if let Some((n, "pool_pages")) = pages {
        // Pages the pool cannot hold: one of the two numbers is wrong (cut, mistyped), and a
        // run of either would answer for another server.
        for other in [
            "free_buffers",
            "database_pages",
            "old_database_pages",
            "lru_len",
        ] {
            if let Some(v) = r.count(other).filter(|&v| v > n) {
                return Err(format!(
                    "{other} = {v} (line {}) is more than the pool's {n} pages (pool_pages, line {}): the paste contradicts itself (a number cut or mistyped?), so no run is started",
                    r.line(other).unwrap_or(0),
                    r.line("pool_pages").unwrap_or(0)
                ));
            }
        }
    }
    let pool_mb: u64 = if let Some((n, name)) = pages {
        if flagged(name) {
            notes.push(format!(
                "{name} (line {}) is used though a warning flags it",
                r.line(name).unwrap_or(0)
            ));
        }
        // 64 pages of 16 KiB per MiB, less the descriptors' pages: the MiB that hold them.
        n.div_ceil(64).max(1)
    } else if let Some(b) = var_u64(r, "innodb_buffer_pool_size") {
        (b.saturating_mul(16_384 / page_size.max(1)) >> 20).max(1)
    } else {
        assumed.push(Assumed {
            name: "innodb_buffer_pool_size".into(),
            value: "134217728".into(),
            why: "neither the pool's pages nor innodb_buffer_pool_size was pasted: the server's default, 128 MiB".into(),
        });
        128
    };
    if pool_mb > 65_536 {
        // A pool past 64 GiB is not run at 64 GiB: its answer would be another server's.
        let (what, line) = match pages {
            Some((n, name)) => (format!("{name} = {n} pages"), r.line(name)),
            None => (
                "innodb_buffer_pool_size".to_string(),
                r.line("innodb_buffer_pool_size"),
            ),
        };
        return Err(format!(
            "{what} (line {}) is a pool of {} MiB, beyond the 65,536 MiB (64 GiB) the model runs: no run is started",
            line.unwrap_or(0),
            pool_mb
        ));
    }
    let clamped_mb = pool_mb.clamp(8, 65_536);
    if clamped_mb != pool_mb {
        notes.push(format!(
            "a pool of {pool_mb} MiB is outside what the model runs (8 to 65,536 MiB): {clamped_mb} MiB is used"
        ));
    }
    p.set("pool_mb", &clamped_mb.to_string())?;
    // The pages as printed, exactly (the MiB above only hold them).
    if let Some((n, _)) = pages {
        if clamped_mb == pool_mb && n >= 64 {
            p.set("pool_pages", &n.to_string())?;
        }
    }

    // Instances: the variable, else the per-instance blocks (or pool stats rows), else one.
    let read_instances = var_u64(r, "innodb_buffer_pool_instances")
        .map(|n| (n, "innodb_buffer_pool_instances"))
        .or_else(|| r.count("instances").map(|n| (n, "instances")));
    let mut instances = match read_instances {
        Some((n, _)) => n.clamp(1, 64) as u32,
        None => {
            if engine.has_instances() && clamped_mb >= 1024 {
                assumed.push(Assumed {
                    name: "innodb_buffer_pool_instances".into(),
                    value: "1".into(),
                    why: "no per-instance blocks and no innodb_buffer_pool_instances: one pool"
                        .into(),
                });
            }
            1
        }
    };
    if !engine.has_instances() && instances > 1 {
        notes.push(format!(
            "{instances} instances read, but MariaDB 10.5 and later have one buffer pool: 1 is used"
        ));
        instances = 1;
    }
    if clamped_mb < 1024 && instances > 1 {
        notes.push(format!(
            "{instances} instances read, but InnoDB uses one below 1 GiB: 1 is used"
        ));
        instances = 1;
    }
    p.set("buffer_pool_instances", &instances.to_string())?;

    // The LRU's variables: read, else the engine's defaults.
    for (var, param, default) in [
        ("innodb_old_blocks_pct", "old_blocks_pct", 37u32),
        ("innodb_old_blocks_time", "old_blocks_time", 1000),
        (
            "innodb_lru_scan_depth",
            "lru_scan_depth",
            engine.default_lru_scan_depth(),
        ),
        ("innodb_read_ahead_threshold", "read_ahead_threshold", 56),
    ] {
        match var_u64(r, var) {
            Some(v) => {
                if let Err(e) = p.set(param, &v.to_string()) {
                    notes.push(format!(
                        "{var} = {v} (line {}): {e}; the default {default} is used",
                        r.line(var).unwrap_or(0)
                    ));
                    p.set(param, &default.to_string())?;
                }
            }
            None => {
                p.set(param, &default.to_string())?;
                assumed.push(Assumed {
                    name: var.into(),
                    value: default.to_string(),
                    why: format!("not pasted: the server's default ({})", engine.label()),
                });
            }
        }
    }

    // The hot set: the user's, else the young sublist's length (pages that were re-read), at
    // most half the pool.
    let frames = p.frames_per_instance() as u64 * p.buffer_pool_instances as u64;
    let young = match (r.count("database_pages"), r.count("old_database_pages")) {
        (Some(d), Some(o)) if d > o => Some(d - o),
        _ => None,
    };
    let suggested = young
        .unwrap_or(frames / 4)
        .clamp(1, (frames / 2).max(1))
        .min(4_194_304) as u32;
    if let (Some(h), Some(from)) = (inp.hot_pages, &inp.hot_from) {
        notes.push(format!("the hot set is {h} pages: {from}"));
    }
    let hot = match inp.hot_pages {
        Some(h) => h,
        None => {
            assumed.push(Assumed {
                name: "hot_pages".into(),
                value: suggested.to_string(),
                why: match young {
                    Some(_) => "not given (--hot-pages): the young sublist's length (database pages minus old pages), at most half the pool".into(),
                    None => "not given (--hot-pages): a quarter of the pool".into(),
                },
            });
            suggested
        }
    };
    p.set("hot_pages", &hot.to_string())?;
    p.set("hot_table_pages", &hot.max(1).to_string())?;

    match inp.lookups_per_s {
        Some(l) => p.set("idle_lookups_per_s", &l.to_string())?,
        None => assumed.push(Assumed {
            name: "lookups_per_s".into(),
            value: format!("{:.0}", 1e6 / p.lookup_cpu_us),
            why: "not given (--lookups-per-s): the model's one lookup thread at 200 µs a lookup"
                .into(),
        }),
    }

    // The scanned table: three times the pool (a scan that goes through it).
    let scan_mb = (clamped_mb * 3).clamp(1, 262_144);
    p.set("scan_table_mb", &scan_mb.to_string())?;
    assumed.push(Assumed {
        name: "scan_table_mb".into(),
        value: scan_mb.to_string(),
        why: "a status does not say which table a scan reads: one three times the pool".into(),
    });

    // The scan's rate: the read rate (over the interval between two snapshots, when pasted).
    let rate = r
        .exact
        .as_ref()
        .and_then(|e| e.rates.get("reads_per_s").copied())
        .map(|x| {
            (
                x,
                "your reads/s over the two SHOW GLOBAL STATUS snapshots (their exact difference over Uptime's)",
            )
        })
        .or_else(|| {
            r.interval
                .as_ref()
                .and_then(|i| i.rates.get("reads_per_s").copied())
                .map(|x| {
                    (
                        x,
                        "your reads/s over the two snapshots' interval (their pages_read difference)",
                    )
                })
        })
        .or_else(|| r.num("reads_per_s").map(|x| (x, "your reads/s")));
    let default_rate = "the model's scan (15 µs of CPU per page)";
    let rate = match inp.scan_pages_per_s {
        Some(x) => Some((x, "given (--scan-pages-per-s)")),
        None => rate,
    };
    match rate {
        Some((x, what)) if x >= MIN_SCAN_READS_PER_S || inp.scan_pages_per_s.is_some() => {
            p.set("idle_scan_pages_per_s", &format!("{:.0}", x.min(1e6)))?;
            if let Err(e) = midpoint_core::sim::rates::derived(&p) {
                notes.push(format!("the scan's rate from {what}: {e}; {default_rate} is used"));
                p.set("idle_scan_pages_per_s", "0")?;
            } else {
                notes.push(format!("the scan reads {x:.0} pages/s: {what}"));
            }
        }
        Some((x, what)) => assumed.push(Assumed {
            name: "reads_per_s".into(),
            value: "0".into(),
            why: format!("{what} = {x:.2} is too slow for a scan (under {MIN_SCAN_READS_PER_S:.0} pages/s): {default_rate}"),
        }),
        None => assumed.push(Assumed {
            name: "reads_per_s".into(),
            value: "0".into(),
            why: match r.unreadable.get("reads_per_s") {
                Some(line) => format!(
                    "the reads/s line (line {line}) could not be read (see the warnings): {default_rate}"
                ),
                None => format!("no read rate pasted: {default_rate}"),
            },
        }),
    }
    p.validate()?;
    Ok(Scenario {
        params: p,
        assumed,
        notes,
        suggested_hot_pages: suggested,
    })
}
