//! The seed's procedure on a live server: load the two tables, one idle scan pass, the warm-up
//! with the lookup client, then the scan loop; the sampler reads the pool every few seconds and
//! the free list several times a second. Every client has its own connection and thread. The
//! clock is this machine's wall clock ([`Instant`]), not the simulator's virtual one.

use super::conn::{connect, connect_with, status, timed_out, Target, Timeouts, LOAD_CHUNK_ROWS};
use super::host::{self, CpuUse};
use super::interrupt::{check_interrupt, interrupted};
use super::plan::{Plan, Settings, HOT_TABLE, SCAN_TABLE, SCHEMA};
use super::restore::{RestoreGuard, MARKER};
use super::sample::{parse_pool_rows, PoolSample};
use super::server::ServerInfo;
use super::session::{Killer, Rows, Session};
use midpoint_core::rng::Rng;
use mysql::prelude::Queryable;
use serde::Serialize;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// What the live run measured.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Measured {
    /// Leaf pages of each table (`mysql.innodb_index_stats`, n_leaf_pages, after ANALYZE).
    pub hot_pages: u64,
    pub scan_pages: u64,
    pub load_s: f64,
    /// The first pass of the scanned table after its load (not used: the pool still holds the
    /// table's last pages and the OS its file).
    pub warm_pass_s: f64,
    /// The idle passes after it, nothing else running.
    pub idle_passes_s: Vec<f64>,
    /// Their median, and the scan rate the model is given: `scan_pages / idle_pass_s`.
    pub idle_pass_s: f64,
    pub idle_scan_pages_per_s: f64,
    pub lookups_warmup: u64,
    pub lookups_scan: u64,
    pub warmup_elapsed_s: f64,
    pub scan_elapsed_s: f64,
    /// Each completed pass's duration.
    pub pass_s: Vec<f64>,
    pub samples: Vec<PoolSample>,
    /// `(t_s, Innodb_buffer_pool_pages_free)`.
    pub free: Vec<(f64, u64)>,
    /// Lookups completed by each sample time `(t_s, lookups so far)`.
    pub lookups_at: Vec<(f64, u64)>,
    /// This machine's load averages just before the warm-up (the machine may be shared).
    pub loadavg_before: Option<[f64; 3]>,
    /// Where the CPU went in the warm-up and during the scans.
    pub cpu_warmup: CpuUse,
    pub cpu_scan: CpuUse,
}

/// The median of some durations (the mean of the middle two for an even count).
pub fn median(v: &[f64]) -> f64 {
    let mut v: Vec<f64> = v.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn progress(json: bool, msg: &str) {
    // Progress goes to stderr either way; with --json stdout holds only the report.
    let _ = json;
    eprintln!("experiment: {msg}");
}

/// Runs the plan. The guard has set nothing yet; on return (Ok or Err) the caller restores and
/// drops.
pub fn run(
    target: &Target,
    info: &ServerInfo,
    s: &Settings,
    plan: &Plan,
    guard: &mut RestoreGuard,
    killer: &Killer,
    json: bool,
) -> Result<Measured, String> {
    let mut m = Measured::default();
    // The load on a connection of its own, whose statements (chunks of the load) are bounded
    // by a chunk's limit; the idle passes on another, bounded by a pass's (`Timeouts`).
    let load_to = Timeouts::load();
    let pass_to = Timeouts::pass(plan.scan_pages.saturating_mul(16_384));
    let mut c = Session::open(target, load_to.above(), killer)?;
    let mut p = Session::open(target, pass_to.above(), killer)?;
    check_interrupt()?;
    let ddl = Timeouts::CONTROL.read * 6;
    let q = |c: &mut Session, sql: &str| c.exec(sql, sql, ddl);
    q(&mut c, &format!("DROP SCHEMA IF EXISTS {SCHEMA}"))?;
    q(&mut c, &format!("CREATE SCHEMA {SCHEMA}"))?;
    guard.created = true;
    for t in [SCAN_TABLE, HOT_TABLE] {
        q(
            &mut c,
            &format!(
                "CREATE TABLE {SCHEMA}.{t} (id INT NOT NULL PRIMARY KEY, v INT NOT NULL, c CHAR(200) NOT NULL) ENGINE=InnoDB DEFAULT CHARSET=latin1"
            ),
        )?;
    }
    // The marker: a row per variable set, so that a run killed before it restores is undone
    // by the next (`restore::MARKER`).
    q(
        &mut c,
        &format!(
            "CREATE TABLE {SCHEMA}.{MARKER} (name VARCHAR(64) NOT NULL PRIMARY KEY, original BIGINT UNSIGNED NOT NULL, set_to BIGINT UNSIGNED NOT NULL, set_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP) ENGINE=InnoDB"
        ),
    )?;
    let t_load = Instant::now();
    progress(
        json,
        &format!("loading {SCAN_TABLE} ({} rows)", plan.scan_rows),
    );
    load(
        &mut c,
        SCAN_TABLE,
        plan.scan_rows,
        info.sequence_engine,
        load_to.read,
    )?;
    m.scan_pages = leaf_pages(&mut c, SCAN_TABLE, ddl)?;
    // One warm pass (its time is not used), then idle passes: their median is the idle rate.
    progress(
        json,
        &format!("one warm and {} idle passes of {SCAN_TABLE}", s.idle_passes),
    );
    let scan_sql = format!("SELECT SUM(v) FROM {SCHEMA}.{SCAN_TABLE}");
    for i in 0..=s.idle_passes {
        let t = Instant::now();
        p.exec(
            &format!("a pass over {SCAN_TABLE}"),
            &scan_sql,
            pass_to.read,
        )?;
        let d = t.elapsed().as_secs_f64();
        if i == 0 {
            m.warm_pass_s = d;
        } else {
            m.idle_passes_s.push(d);
        }
    }
    m.idle_pass_s = median(&m.idle_passes_s);
    m.idle_scan_pages_per_s = m.scan_pages as f64 / m.idle_pass_s.max(1e-6);
    progress(
        json,
        &format!("loading {HOT_TABLE} ({} rows)", plan.hot_rows),
    );
    // The hot table last, as in the seed's warm start (the scanned table first, then the hot).
    load(
        &mut c,
        HOT_TABLE,
        plan.hot_rows,
        info.sequence_engine,
        load_to.read,
    )?;
    m.hot_pages = leaf_pages(&mut c, HOT_TABLE, ddl)?;
    m.load_s = t_load.elapsed().as_secs_f64() - m.warm_pass_s - m.idle_passes_s.iter().sum::<f64>();
    check_interrupt()?;
    drop((c, p));

    for v in &plan.variables {
        guard.set(v)?;
    }

    // The clients and samplers.
    let stop = Arc::new(AtomicBool::new(false));
    let scanning = Arc::new(AtomicBool::new(false));
    let lookups = Arc::new(AtomicU64::new(0));
    let passes = Arc::new(Mutex::new(Vec::<f64>::new()));
    let free = Arc::new(Mutex::new(Vec::<(f64, u64)>::new()));
    let errors = Arc::new(Mutex::new(Vec::<String>::new()));
    m.loadavg_before = host::loadavg();
    let cpu0 = host::read(info.server_pid);
    let mut cpu1 = None;
    let t0 = Instant::now();

    let lookup = {
        let (target, stop, lookups, errors) = (
            target.clone(),
            stop.clone(),
            lookups.clone(),
            errors.clone(),
        );
        let rows = plan.hot_rows.max(1) as u32;
        thread::spawn(move || {
            let r = (|| -> Result<(), String> {
                let mut c = connect(&target)?;
                let stmt = c
                    .prep(format!("SELECT c FROM {SCHEMA}.{HOT_TABLE} WHERE id = ?"))
                    .map_err(|e| timed_out(&e))?;
                let mut rng = Rng::new(0x5EED_0000);
                while !stop.load(Ordering::Relaxed) {
                    let id = 1 + rng.below(rows);
                    let _: Option<String> = c
                        .exec_first(&stmt, (id,))
                        .map_err(|e| format!("lookup: {}", timed_out(&e)))?;
                    lookups.fetch_add(1, Ordering::Relaxed);
                }
                Ok(())
            })();
            if let Err(e) = r {
                errors.lock().unwrap().push(e);
            }
        })
    };
    let free_sampler = {
        let (target, stop, free, errors) =
            (target.clone(), stop.clone(), free.clone(), errors.clone());
        let every = Duration::from_millis(s.free_sample_ms as u64);
        thread::spawn(move || {
            let r = (|| -> Result<(), String> {
                let mut c = connect(&target)?;
                let mut next = Instant::now();
                while !stop.load(Ordering::Relaxed) {
                    let f = status(&mut c, "Innodb_buffer_pool_pages_free")?;
                    free.lock().unwrap().push((t0.elapsed().as_secs_f64(), f));
                    next += every;
                    let now = Instant::now();
                    if next > now {
                        thread::sleep(next - now);
                    }
                }
                Ok(())
            })();
            if let Err(e) = r {
                errors.lock().unwrap().push(e);
            }
        })
    };
    let mut scan_conn = connect_with(target, pass_to)?;
    // The residency samples walk INNODB_BUFFER_PAGE: their own connection, with a timeout for
    // the pool's size, so that a stalled server is noticed in the main loop within it.
    let sample_to = Timeouts::sample(info.pool_pages);
    let mut sc = Session::open(target, sample_to.above(), killer)?;
    let scan_id = scan_conn.connection_id();
    let scan = {
        let (stop, scanning, passes, errors) = (
            stop.clone(),
            scanning.clone(),
            passes.clone(),
            errors.clone(),
        );
        let pause = Duration::from_millis(s.pause_ms as u64);
        thread::spawn(move || {
            while !scanning.load(Ordering::Relaxed) {
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                thread::sleep(Duration::from_millis(5));
            }
            while !stop.load(Ordering::Relaxed) {
                let t = Instant::now();
                match scan_conn.query_drop(format!("SELECT SUM(v) FROM {SCHEMA}.{SCAN_TABLE}")) {
                    Ok(()) => passes.lock().unwrap().push(t.elapsed().as_secs_f64()),
                    // The last pass is killed at the end of the scan phase.
                    Err(_) if stop.load(Ordering::Relaxed) => return,
                    Err(e) => {
                        errors
                            .lock()
                            .unwrap()
                            .push(format!("scan: {}", timed_out(&e)));
                        return;
                    }
                }
                let end = Instant::now() + pause;
                while !stop.load(Ordering::Relaxed) && Instant::now() < end {
                    thread::sleep(Duration::from_millis(5));
                }
            }
        })
    };

    let warmup = s.warmup_s as f64;
    let end = warmup + s.scan_s as f64;
    progress(
        json,
        &format!(
            "warm-up {} s, then scans {} s (wall clock)",
            s.warmup_s, s.scan_s
        ),
    );
    let mut next_sample = 0.0;
    let result = (|| -> Result<(), String> {
        loop {
            check_interrupt()?;
            if let Some(e) = errors.lock().unwrap().first() {
                return Err(e.clone());
            }
            let t = t0.elapsed().as_secs_f64();
            if t >= warmup && !scanning.load(Ordering::Relaxed) {
                m.lookups_warmup = lookups.load(Ordering::Relaxed);
                m.warmup_elapsed_s = t;
                scanning.store(true, Ordering::Relaxed);
                cpu1 = Some(host::read(info.server_pid));
            }
            if t >= next_sample - 1e-3 {
                let n = lookups.load(Ordering::Relaxed);
                let r = sc.rows(
                    "a sample of the pool's content",
                    "SELECT TABLE_NAME, IS_OLD, COUNT(*) FROM information_schema.INNODB_BUFFER_PAGE \
                     WHERE PAGE_TYPE = 'INDEX' AND INDEX_NAME = 'PRIMARY' \
                     AND LOCATE('midpoint_experiment', TABLE_NAME) > 0 GROUP BY TABLE_NAME, IS_OLD",
                    sample_to.read,
                )?;
                let st = t0.elapsed().as_secs_f64();
                // Keyed by the sample's nominal time; the read itself takes a few ms.
                m.samples.push(parse_pool_rows(
                    &r,
                    SCHEMA,
                    HOT_TABLE,
                    SCAN_TABLE,
                    next_sample.max(0.0),
                )?);
                m.lookups_at.push((st, n));
                next_sample += s.sample_s as f64;
                if next_sample > end + 1e-6 {
                    break;
                }
            }
            let wait = (next_sample - t0.elapsed().as_secs_f64()).clamp(0.0, 0.05);
            thread::sleep(Duration::from_secs_f64(wait));
        }
        Ok(())
    })();
    let t_end = t0.elapsed().as_secs_f64();
    let cpu2 = host::read(info.server_pid);
    stop.store(true, Ordering::Relaxed);
    scanning.store(true, Ordering::Relaxed);
    if result.is_ok() {
        guard.kill_query(scan_id);
        let _ = lookup.join();
        let _ = free_sampler.join();
        let _ = scan.join();
    } else {
        // The server may be stalled: a client blocked in a statement ends at its connection's
        // timeout, which for the scan is a pass's. Give the threads a few seconds, then leave
        // them (the restore runs on a fresh connection; the process ends after the report).
        guard.kill_query(scan_id);
        // After Ctrl-C, half a second: the signal is honoured within a second.
        let until = Instant::now()
            + if interrupted() {
                Duration::from_millis(500)
            } else {
                Duration::from_secs(5)
            };
        for h in [lookup, free_sampler, scan] {
            while !h.is_finished() && Instant::now() < until {
                thread::sleep(Duration::from_millis(20));
            }
            if h.is_finished() {
                let _ = h.join();
            }
        }
    }
    result?;
    m.lookups_scan = lookups.load(Ordering::Relaxed) - m.lookups_warmup;
    m.scan_elapsed_s = t_end - m.warmup_elapsed_s;
    m.pass_s = passes.lock().unwrap().clone();
    m.free = free.lock().unwrap().clone();
    if let Some(cpu1) = cpu1 {
        m.cpu_warmup = host::between(&cpu0, &cpu1);
        m.cpu_scan = host::between(&cpu1, &cpu2);
    }
    Ok(m)
}

/// Loads `rows` rows into a table in ascending key order: MariaDB's SEQUENCE engine where it
/// exists, else multi-row INSERTs of 1,000 rows. Chunks of [`LOAD_CHUNK_ROWS`] rows each commit
/// on their own, each statement waited for at most `limit`.
fn load(
    c: &mut Session,
    table: &str,
    rows: u64,
    sequence: bool,
    limit: Duration,
) -> Result<(), String> {
    let what = format!("loading {table}");
    let mut from = 1;
    if sequence {
        // seq_M_to_N lives in any schema with the engine; the statements name ours.
        c.exec(&what, &format!("USE {SCHEMA}"), limit)?;
    }
    while from <= rows {
        check_interrupt()?;
        let to = (from + LOAD_CHUNK_ROWS - 1).min(rows);
        if sequence {
            let sql = format!(
                "INSERT INTO {SCHEMA}.{table} (id, v, c) SELECT seq, seq % 1000, RPAD(seq, 200, 'x') FROM seq_{from}_to_{to}"
            );
            c.exec(&what, &sql, limit)?;
        } else {
            let mut a = from;
            while a <= to {
                let b = (a + 999).min(to);
                let mut sql = format!("INSERT INTO {SCHEMA}.{table} (id, v, c) VALUES ");
                for id in a..=b {
                    if id > a {
                        sql.push(',');
                    }
                    sql.push_str(&format!("({id},{},RPAD('{id}',200,'x'))", id % 1000));
                }
                c.exec(&what, &sql, limit)?;
                a = b + 1;
            }
        }
        from = to + 1;
    }
    Ok(())
}

/// The table's leaf pages, from persistent statistics after ANALYZE TABLE.
fn leaf_pages(c: &mut Session, table: &str, limit: Duration) -> Result<u64, String> {
    let what = format!("the {table} table's leaf pages");
    c.rows(&what, &format!("ANALYZE TABLE {SCHEMA}.{table}"), limit)?;
    let r: Rows = c.rows(
        &what,
        &format!(
            "SELECT stat_value FROM mysql.innodb_index_stats WHERE database_name = '{SCHEMA}' \
             AND table_name = '{table}' AND index_name = 'PRIMARY' AND stat_name = 'n_leaf_pages'"
        ),
        limit,
    )?;
    let v = r
        .into_iter()
        .next()
        .and_then(|r| r.into_iter().next())
        .flatten()
        .unwrap_or_default();
    v.trim()
        .parse()
        .map_err(|_| format!("{what}: mysql.innodb_index_stats gave {v:?}, not a number"))
}

#[cfg(test)]
mod tests {
    use super::median;

    #[test]
    fn median_of_the_idle_passes() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        // One slow pass (the machine busy elsewhere) does not move it.
        assert_eq!(median(&[1.0, 9.0, 1.1]), 1.1);
        assert!(median(&[]).is_nan());
    }
}
