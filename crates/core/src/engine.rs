//! Engine profiles: what differs between MySQL 8.4 (the default) and MariaDB 10.11, in one place.
//!
//! The LRU rules themselves (reference §1-§4: the old sublist, `buf_LRU_old_adjust_len`, midpoint
//! inserts, `buf_page_peek_if_too_old` with the quarter rule, the eviction clock) are the same in
//! both engines: MariaDB 10.11's `buf0lru.cc` keeps InnoDB's code for them, so the simulator runs
//! the same `pool::lru` for both and nothing here re-implements them.
//!
//! What differs, and where the simulator applies it:
//!
//! | rule | MySQL 8.4 | MariaDB 10.11 | applied by |
//! |---|---|---|---|
//! | buffer pool instances | `innodb_buffer_pool_instances` | one `buf_pool` (since 10.5) | [`Engine::has_instances`], checked in `Params::validate` |
//! | `Page_fetch::SCAN` (parallel reader, `COUNT(*)`) | never makes young | no such mode: fetched as NORMAL | [`Engine::fetch_mode`] |
//! | `innodb_lru_scan_depth` default | 1024 per instance | 1536 | [`Engine::default_lru_scan_depth`] |
//! | `innodb_lru_flush_size` | - | 32 (user-thread LRU flush; not reached read-only) | [`Engine::lru_flush_size`] |
//! | free-list refills | coordinator rounds gated by activity (`Cadence`) | demand-driven wake-ups (10.11.7+) | [`Engine::demand_refills`], `pool::page_cleaner::DemandCleaner` |
//! | free list empty in a reader | whole-list tail scan (read-only) | 100 pages from `lru_scan_itr` while `try_LRU_scan`, else wait on `done_free` | `EngineProfile::user_lru_scan`, `BufferPool::mariadb_scan_or_wait` |
//! | usable pages | 1 per 128 MiB chunk lost | descriptors carved out of each chunk (64 MiB: 4,056) | [`mariadb::usable_pages`] |
//!
//! Sources for MariaDB (read with the project's search tools, `MariaDB/server`): the stored
//! `storage/innobase/buf/buf0lru.cc` (commit ef7cb0a0b5108b74c23bf6190f7df2cbfe2996a6) and
//! `storage/innobase/buf/buf0flu.cc` (commit 29b1bbadb5641c523483e524319c2a750265f9c6). Those
//! snapshots are **newer than 10.11** (they already carry 11.x/12.x work: `buf_pool.allocate()`,
//! the external buffer pool, and a deferred make-young in the LRU scan, none of which is modelled).
//! The parts modelled are the ones MDEV-33053 (pull requests #2949/#3003, January 2024, first in
//! 10.6.17 / 10.11.7) and MDEV-33613 (pull request #3110, March 2024, 10.11.8) introduced and
//! the snapshot still has: the wake-up in `buf_LRU_get_free_block`'s `got_block` path,
//! `buf_pool_t::need_LRU_eviction`, the LRU branch of `buf_flush_page_cleaner`, and the stopping
//! rule of `buf_flush_LRU_list_batch`. The diffs in those pull requests show the same
//! conditions in the 10.6/10.11 branch. The profile is not calibrated to any measurement.

use crate::pool::{EngineProfile, FetchMode};
use crate::workload::ScanMode;
use serde::{Deserialize, Serialize};

/// Which server's buffer pool the simulator follows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Engine {
    /// MySQL 8.4 (the reference, §1-§9): the default.
    #[default]
    #[serde(rename = "mysql-8.4")]
    Mysql84,
    /// MariaDB 10.11.7 or later (the reference, §10 (c)).
    #[serde(rename = "mariadb-10.11")]
    Mariadb1011,
}

/// MariaDB 10.11's page-cleaner timing on the virtual clock. The code gives no delays; these are
/// the simulator's choices, not calibrated (see [`crate::pool::page_cleaner::DemandCleaner`]).
pub mod mariadb {
    use crate::clock::Micros;

    /// From `pthread_cond_signal(&buf_pool.do_flush_list)` in a user thread to the page cleaner
    /// running: a futex wake and a context switch, tens of µs on a loaded box. 100 µs is a round
    /// upper figure; results are insensitive to it because the wake-up leaves half of
    /// `innodb_lru_scan_depth` (768 frames by default) of slack, which even a scan at 47,000
    /// pages/s needs about 16 ms to use up.
    pub const WAKE_LATENCY_US: Micros = 100;
    /// CPU time of one `buf_LRU_free_page` in the batch (page-hash and list unlinking), µs.
    pub const EVICT_US_PER_PAGE: Micros = 1;
    /// `buf_flush_LRU_list_batch` releases and re-acquires `buf_pool.mutex` after every 32nd
    /// scanned page (`if (scanned & 31) continue;`): user threads can allocate in between, so
    /// the batch runs as chunks of this many pages with readers interleaving.
    pub const MUTEX_RELEASE_EVERY: u32 = 32;
    /// `innodb_lru_flush_size` default.
    pub const LRU_FLUSH_SIZE: u32 = 32;
    /// `innodb_lru_scan_depth` default.
    pub const LRU_SCAN_DEPTH: u32 = 1536;
    /// Bytes of one block descriptor (`buf_block_t`) carved out of a chunk's own memory. Not
    /// read from the source: inferred from a 64 MiB pool reporting 4,056 usable pages
    /// (`INNODB_BUFFER_POOL_STATS.POOL_SIZE`), which needs 40 of its 4,096 pages for 4,056
    /// descriptors, 158-161 bytes each.
    pub const BLOCK_DESCRIPTOR_BYTES: u64 = 160;
    /// `innodb_buffer_pool_chunk_size` default, MiB.
    pub const CHUNK_MB: u64 = 128;

    /// Usable pages of a pool of `pool_mb` MiB (`buf_chunk_t::create`): each chunk of up to
    /// 128 MiB gives up as many leading pages as its descriptors fill (the frames start after
    /// `blocks + size`), unlike MySQL, which allocates the descriptors on top of the chunk.
    pub fn usable_pages(pool_mb: u32) -> u32 {
        let mut left = pool_mb as u64;
        let mut usable = 0u64;
        while left > 0 {
            let mb = left.min(CHUNK_MB);
            left -= mb;
            let n = mb * 64;
            // The fewest pages k such that k pages hold the descriptors of the n - k others.
            let k = (n * BLOCK_DESCRIPTOR_BYTES).div_ceil(16_384 + BLOCK_DESCRIPTOR_BYTES);
            usable += n - k;
        }
        usable.min(u32::MAX as u64) as u32
    }
}

impl Engine {
    /// Every engine, in display order.
    pub const ALL: [Engine; 2] = [Engine::Mysql84, Engine::Mariadb1011];

    /// Parses `mysql-8.4` or `mariadb-10.11`.
    pub fn parse(s: &str) -> Result<Engine, String> {
        match s.trim() {
            "mysql-8.4" | "mysql" => Ok(Engine::Mysql84),
            "mariadb-10.11" | "mariadb" => Ok(Engine::Mariadb1011),
            other => Err(format!(
                "engine = '{other}' is not one of: mysql-8.4, mariadb-10.11"
            )),
        }
    }

    /// The inverse of [`Engine::parse`].
    pub fn label(self) -> &'static str {
        match self {
            Engine::Mysql84 => "mysql-8.4",
            Engine::Mariadb1011 => "mariadb-10.11",
        }
    }

    /// `innodb_lru_scan_depth`'s default.
    pub fn default_lru_scan_depth(self) -> u32 {
        match self {
            Engine::Mysql84 => 1024,
            Engine::Mariadb1011 => mariadb::LRU_SCAN_DEPTH,
        }
    }

    /// `innodb_lru_flush_size` (MariaDB only): how many pages a user thread flushes when the LRU
    /// tail scan finds no clean page. A read-only workload always finds one, so the simulator
    /// never reaches that path; the value is carried for completeness.
    pub fn lru_flush_size(self) -> Option<u32> {
        match self {
            Engine::Mysql84 => None,
            Engine::Mariadb1011 => Some(mariadb::LRU_FLUSH_SIZE),
        }
    }

    /// Whether `innodb_buffer_pool_instances` exists (MariaDB has had one pool since 10.5).
    pub fn has_instances(self) -> bool {
        self == Engine::Mysql84
    }

    /// The fetch mode a scan of the given kind uses. MariaDB has no `Page_fetch::SCAN` (no
    /// parallel reader): a `COUNT(*)` scan fetches its pages as NORMAL and can make them young.
    pub fn fetch_mode(self, m: ScanMode) -> FetchMode {
        match (self, m) {
            (Engine::Mysql84, m) => m.into(),
            (Engine::Mariadb1011, _) => FetchMode::Normal,
        }
    }

    /// Whether the page cleaner works in MySQL's one-second coordinator rounds gated by server
    /// activity (`Params::cleaner`). MariaDB's cleaner has no such rounds in a read-only
    /// workload: it sleeps until a user thread wakes it.
    pub fn has_cadence(self) -> bool {
        self == Engine::Mysql84
    }

    /// Whether free-list refills are demand-driven (MariaDB 10.11.7+: a user thread that leaves
    /// fewer than `innodb_lru_scan_depth / 2` free frames wakes the page cleaner). With
    /// `cleaner = never` the MariaDB profile does no page-cleaner LRU work at all, which is what
    /// 10.11.0-10.11.2 did in a read-only workload (reference §10 (a)).
    pub fn demand_refills(self, never: bool) -> bool {
        self == Engine::Mariadb1011 && !never
    }

    /// The values the pool runs with for this engine (`never`: `cleaner = never`, see
    /// [`Engine::demand_refills`]). The pool knows no engine; this is how it learns one.
    pub fn profile(self, never: bool) -> EngineProfile {
        EngineProfile {
            demand_refills: self.demand_refills(never),
            wake_latency_us: mariadb::WAKE_LATENCY_US,
            evict_us_per_page: mariadb::EVICT_US_PER_PAGE,
            mutex_release_every: mariadb::MUTEX_RELEASE_EVERY,
            user_lru_scan: self.demand_refills(never),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_label_round_trip() {
        for e in Engine::ALL {
            assert_eq!(Engine::parse(e.label()).unwrap(), e);
        }
        assert!(Engine::parse("postgres").is_err());
        assert_eq!(
            serde_json::to_string(&Engine::Mariadb1011).unwrap(),
            "\"mariadb-10.11\""
        );
    }

    #[test]
    fn mariadb_pool_sizing_gives_4056_pages_for_64_mib() {
        assert_eq!(mariadb::usable_pages(64), 4_056);
        // Two 128 MiB chunks of 8,192 pages, each losing 80 pages to descriptors.
        assert_eq!(mariadb::usable_pages(256), 2 * 8_112);
        assert!(mariadb::usable_pages(8) < 512);
    }

    #[test]
    fn mariadb_has_no_scan_mode() {
        assert_eq!(
            Engine::Mariadb1011.fetch_mode(ScanMode::Scan),
            FetchMode::Normal
        );
        assert_eq!(Engine::Mysql84.fetch_mode(ScanMode::Scan), FetchMode::Scan);
        assert_eq!(Engine::Mariadb1011.default_lru_scan_depth(), 1536);
    }
}
