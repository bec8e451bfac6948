//! What the server is and whether the experiment can run on it (its version, pool, variables,
//! privileges, other schemas, and what an earlier run left changed).

use super::conn::{rows, scalar, scalar_u64, status, words, Target};
use super::plan::{PoolFacts, SCHEMA};
use super::restore::{left_changed, LeftChanged};
use mysql::prelude::Queryable;
use mysql::Conn;
use serde::Serialize;

/// What the server is.
#[derive(Clone, Debug, Serialize)]
pub struct ServerInfo {
    pub address: String,
    pub version: String,
    pub mariadb: bool,
    pub pool_bytes: u64,
    pub pool_pages: u64,
    pub page_size: u64,
    pub old_blocks_time: u32,
    pub old_blocks_pct: u32,
    pub lru_scan_depth: u32,
    /// Schemas other than the system ones and the experiment's own.
    pub other_schemas: Vec<String>,
    /// Whether the SEQUENCE engine (MariaDB) is there to load the tables.
    pub sequence_engine: bool,
    /// Whether the server runs on this machine ([`Target::is_loopback`]).
    pub loopback: bool,
    /// The server's process on this machine (from `@@pid_file`), when it can be read.
    pub server_pid: Option<u32>,
    /// Variables an earlier run set and did not restore (its marker's rows); the values above
    /// are their originals where they still hold what that run set.
    pub left_changed: Vec<LeftChanged>,
}

impl ServerInfo {
    pub fn facts(&self) -> PoolFacts {
        PoolFacts {
            pool_pages: self.pool_pages,
            page_size: self.page_size,
            old_blocks_time: self.old_blocks_time,
            old_blocks_pct: self.old_blocks_pct,
            lru_scan_depth: self.lru_scan_depth,
        }
    }
}

const SYSTEM_SCHEMAS: [&str; 4] = ["mysql", "information_schema", "performance_schema", "sys"];

/// The server's pid from its pid file, when the file is readable here and names a live process.
fn local_pid(c: &mut Conn) -> Option<u32> {
    let path = scalar(c, "SELECT @@GLOBAL.pid_file").ok()??;
    let pid: u32 = std::fs::read_to_string(path).ok()?.trim().parse().ok()?;
    std::path::Path::new(&format!("/proc/{pid}/stat"))
        .exists()
        .then_some(pid)
}

/// Reads what the server is, and refuses, with a one-line reason, a server the experiment
/// cannot use (no InnoDB, no `innodb_buffer_page`).
pub fn inspect(c: &mut Conn, t: &Target) -> Result<ServerInfo, String> {
    let version = scalar(c, "SELECT VERSION()")?.unwrap_or_default();
    let innodb = scalar(
        c,
        "SELECT SUPPORT FROM information_schema.ENGINES WHERE ENGINE = 'InnoDB'",
    )?;
    if !matches!(innodb.as_deref(), Some("YES") | Some("DEFAULT")) {
        return Err(format!(
            "the server has no InnoDB (information_schema.ENGINES says {}): nothing to measure",
            innodb.as_deref().unwrap_or("nothing")
        ));
    }
    let sequence_engine = matches!(
        scalar(
            c,
            "SELECT SUPPORT FROM information_schema.ENGINES WHERE ENGINE = 'SEQUENCE'"
        )?
        .as_deref(),
        Some("YES") | Some("DEFAULT")
    );
    let var = |c: &mut Conn, name: &str| -> Result<u64, String> {
        scalar_u64(c, &format!("SELECT @@GLOBAL.{name}"))
    };
    let pool_bytes = var(c, "innodb_buffer_pool_size")?;
    let page_size = var(c, "innodb_page_size")?;
    let old_blocks_time = var(c, "innodb_old_blocks_time")? as u32;
    let old_blocks_pct = var(c, "innodb_old_blocks_pct")? as u32;
    let lru_scan_depth = var(c, "innodb_lru_scan_depth")? as u32;
    let left = left_changed(
        c,
        &[
            ("innodb_old_blocks_time", old_blocks_time as u64),
            ("innodb_old_blocks_pct", old_blocks_pct as u64),
            ("innodb_lru_scan_depth", lru_scan_depth as u64),
        ],
    )?;
    // The server's own values are those before the earlier run, where it left its own.
    let own = |name: &str, now: u32| {
        left.iter()
            .find(|l| l.name == name && l.restorable())
            .map_or(now, |l| l.original.min(u32::MAX as u64) as u32)
    };
    let old_blocks_time = own("innodb_old_blocks_time", old_blocks_time);
    let old_blocks_pct = own("innodb_old_blocks_pct", old_blocks_pct);
    let lru_scan_depth = own("innodb_lru_scan_depth", lru_scan_depth);
    let pool_pages = status(c, "Innodb_buffer_pool_pages_total")?;
    rows(
        c,
        "SELECT COUNT(*) FROM information_schema.INNODB_BUFFER_PAGE WHERE POOL_ID = 0 AND BLOCK_ID = 0",
    )
    .map_err(|e| {
        format!("information_schema.INNODB_BUFFER_PAGE is unavailable, so residency cannot be sampled: {e}")
    })?;
    let mut other_schemas: Vec<String> =
        rows(c, "SELECT SCHEMA_NAME FROM information_schema.SCHEMATA")?
            .into_iter()
            .filter_map(|r| r.into_iter().next().flatten())
            .filter(|s| !SYSTEM_SCHEMAS.contains(&s.to_lowercase().as_str()) && s != SCHEMA)
            .collect();
    other_schemas.sort();
    let loopback = t.is_loopback();
    let server_pid = if loopback { local_pid(c) } else { None };
    Ok(ServerInfo {
        loopback,
        server_pid,
        address: t.label(),
        mariadb: version.to_lowercase().contains("mariadb"),
        version,
        pool_bytes,
        pool_pages,
        page_size,
        old_blocks_time,
        old_blocks_pct,
        lru_scan_depth,
        other_schemas,
        sequence_engine,
        left_changed: left,
    })
}

/// Checks the privileges the run needs without changing anything: `SET GLOBAL` of a variable to
/// its own value, and creating the experiment's schema (checked by the grant, then by doing it).
pub fn check_privileges(c: &mut Conn, info: &ServerInfo) -> Result<(), String> {
    c.query_drop(format!(
        "SET GLOBAL innodb_old_blocks_time = {}",
        info.old_blocks_time
    ))
    .map_err(|e| {
        format!(
            "this account cannot SET GLOBAL (it needs SUPER or SYSTEM_VARIABLES_ADMIN): {}",
            words(&e)
        )
    })?;
    Ok(())
}
