//! The redo log as the flushing code sees it: an LSN that every row change advances, a
//! checkpoint that follows the oldest dirty page, and the capacity limits
//! (`log_files_capacity_get_limits`, `log_free_check`, `log_sync_flush_lsn`).
//!
//! Simplified: the checkpoint is taken at once (the checkpoint LSN is always the oldest
//! modification in the pool), the usable capacity is 90 % of `innodb_redo_log_capacity` (the
//! real margin depends on the file layout and concurrency margins), the async and sync flush
//! points are 7/8 and 15/16 of it, and a writer stalls in `log_free_check` when the checkpoint
//! age reaches the usable capacity.

use serde::Serialize;

/// The redo log state.
#[derive(Clone, Debug, Serialize)]
pub struct RedoLog {
    /// `log_sys->lsn`: bytes of redo written since start.
    pub lsn: u64,
    /// `innodb_redo_log_capacity`, bytes.
    pub capacity: u64,
}

impl RedoLog {
    /// A log of `capacity` bytes, starting at LSN 1 (so that 0 means "clean").
    pub fn new(capacity: u64) -> Self {
        RedoLog { lsn: 1, capacity }
    }
    /// `mtr_commit`: a change of `bytes` of redo; returns its end LSN.
    pub fn append(&mut self, bytes: u64) -> u64 {
        self.lsn += bytes.max(1);
        self.lsn
    }
    /// The checkpoint age given the oldest modification in the pool (0: no dirty page).
    pub fn age(&self, oldest: u64) -> u64 {
        if oldest == 0 {
            0
        } else {
            self.lsn.saturating_sub(oldest)
        }
    }
    /// `limit_for_free_check` (usable capacity).
    pub fn usable(&self) -> u64 {
        self.capacity / 10 * 9
    }
    /// `limit_for_dirty_page_age` (`max_modified_age_async`): adaptive flushing's reference.
    pub fn async_limit(&self) -> u64 {
        self.usable() / 8 * 7
    }
    /// `log_sync_flush_lsn`'s threshold: above it the page cleaner flushes synchronously.
    pub fn sync_limit(&self) -> u64 {
        self.usable() / 16 * 15
    }
    /// `log_sync_flush_lsn`: the LSN up to which pages must be flushed now, or 0.
    pub fn sync_flush_lsn(&self, oldest: u64) -> u64 {
        if self.age(oldest) > self.sync_limit() {
            self.lsn - self.sync_limit()
        } else {
            0
        }
    }
    /// `log_free_check`: whether a writer must wait for the checkpoint to advance.
    pub fn must_wait(&self, oldest: u64) -> bool {
        self.age(oldest) >= self.usable()
    }
}
