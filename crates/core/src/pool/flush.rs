//! The write path of the pool (buf/buf0flu.cc, buf/buf0lru.cc, buf/buf0buf.cc): dirtying pages,
//! writing them through the doublewrite buffer onto the device, completing the writes, the
//! flush-list batch, and a user thread's single-page flush.
//!
//! It exists only when a scenario turns it on ([`BufferPool::enable_write_path`]); a read-only
//! pool has `write == None` and takes none of these branches.
//!
//! Simplifications (each stated where it applies): a page-cleaner batch chooses its pages at
//! the time it starts (its thread then blocks on the doublewrite writes, which is what delays
//! the writes); device requests are queued in submission order; a write io-fix blocks writers
//! (the flush holds the page's SX latch, a writer needs X) but not readers.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use serde::Serialize;

use super::adaptive_flush::{AdaptiveFlush, FlushConfig, FlushInputs};
use super::doublewrite::{Doublewrite, PAGE_BYTES};
use super::flush_list::{FlushList, FlushType, WRITE_PENDING};
use super::instance::SEARCH_SCAN_THRESHOLD;
use super::lru::NIL;
use super::redo_log::RedoLog;
use super::storage::{IoKind, Storage};
use super::{BufferPool, PageId};
use crate::clock::Micros;

/// Settings of the write path.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WriteConfig {
    /// `innodb_doublewrite`.
    pub doublewrite: bool,
    /// `innodb_doublewrite_pages`.
    pub doublewrite_pages: u32,
    /// `innodb_redo_log_capacity`, bytes.
    pub redo_log_capacity: u64,
    /// `innodb_flush_method`.
    pub flush_method: FlushMethod,
    /// `Double_write::wait_for_pending_batch`: a doublewrite instance's next batch waits for
    /// its previous one to complete (InnoDB's rule; off only to show what it does).
    pub dblwr_wait_pending_batch: bool,
    /// Adaptive flushing.
    pub flush: FlushConfig,
}

/// `innodb_flush_method` (Unix), as far as the write path's fsyncs go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum FlushMethod {
    /// `fsync`: the doublewrite file and the data files are fsynced.
    Fsync,
    /// `O_DIRECT` (8.4's default on Linux; the bug's setting): the doublewrite file is not
    /// fsynced (`Double_write::is_fsync_required`), the data files are (`fil_flush`).
    ODirect,
    /// `O_DIRECT_NO_FSYNC`: neither is (`fil_flush` skips it).
    ODirectNoFsync,
}

impl FlushMethod {
    /// The names `innodb_flush_method` takes, in [`FlushMethod::parse`]'s order.
    pub const NAMES: &'static [&'static str] = &["fsync", "o_direct", "o_direct_no_fsync"];
    /// Parses a name (case-insensitive).
    pub fn parse(s: &str) -> Result<FlushMethod, String> {
        match s.to_ascii_lowercase().as_str() {
            "fsync" => Ok(FlushMethod::Fsync),
            "o_direct" => Ok(FlushMethod::ODirect),
            "o_direct_no_fsync" => Ok(FlushMethod::ODirectNoFsync),
            _ => Err(format!(
                "innodb_flush_method '{s}' is not one of: {}",
                Self::NAMES.join(", ")
            )),
        }
    }
    /// `Double_write::is_fsync_required`: whether a doublewrite write is fsynced.
    pub fn dblwr_fsync(self) -> bool {
        self == FlushMethod::Fsync
    }
    /// `fil_flush`: whether the data files are fsynced.
    pub fn data_fsync(self) -> bool {
        self != FlushMethod::ODirectNoFsync
    }
}

/// Write-path counters.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct WriteStats {
    /// `Innodb_buffer_pool_wait_free`: user threads that found no clean victim and flushed a
    /// page themselves.
    pub wait_free: u64,
    /// Single-page flushes written (`buf_flush_single_page_from_LRU` that found a page).
    pub single_page_flushes: u64,
    /// Pages written by LRU batches (`buffer_LRU_batch_flush_total_pages`).
    pub lru_flushed: u64,
    /// Pages written by flush-list batches (`buffer_flush_adaptive_total_pages` + sync).
    pub list_flushed: u64,
    /// Pages evicted when their LRU or single-page write completed.
    pub evicted_after_write: u64,
    /// `Innodb_buffer_pool_pages_flushed`.
    pub pages_written: u64,
    /// Pages that became dirty.
    pub dirtied: u64,
    /// Page modifications.
    pub modifications: u64,
    /// `MONITOR_LRU_GET_FREE_WAITS`: 10 ms sleeps of user threads in their third or later
    /// iteration of `buf_LRU_get_free_block`.
    pub free_waits: u64,
}

/// The write path's state.
#[derive(Clone, Debug)]
pub struct WritePath {
    /// Settings.
    pub cfg: WriteConfig,
    /// The device (the simulation's model, behind [`Storage`]).
    pub device: Box<dyn Storage>,
    /// The doublewrite buffer.
    pub dblwr: Doublewrite,
    /// The redo log.
    pub redo: RedoLog,
    /// Adaptive flushing's averages.
    pub adaptive: AdaptiveFlush,
    /// Page writes in flight: (completion, instance, frame).
    completions: BinaryHeap<Reverse<(Micros, u32, u32)>>,
    /// The page-cleaner thread's own clock while it runs a round: it blocks in
    /// `write_dblwr_pages` (segment wait, the sequential write, its fsync).
    pub cleaner_t: Micros,
    /// `buf_flush_event` was set by a user thread.
    pub flush_event: bool,
    /// When a user thread that could not get a frame should retry.
    pub retry_at: Option<Micros>,
    /// Counters.
    pub stats: WriteStats,
    /// `n_iterations` of each user thread looping in `buf_LRU_get_free_block`, by the page it
    /// wants a frame for.
    free_block_loops: Vec<(PageId, u32)>,
}

impl WritePath {
    /// Pages in flight.
    pub fn writes_in_flight(&self) -> usize {
        self.completions.len()
    }
    /// The next write completion, if any.
    pub fn next_completion(&self) -> Option<Micros> {
        self.completions.peek().map(|r| r.0 .0)
    }
}

impl BufferPool {
    /// Turns the write path on: dirty-page state per instance, the device every read, write
    /// and fsync goes to, the doublewrite buffer and the redo log.
    pub fn enable_write_path(&mut self, cfg: WriteConfig, device: Box<dyn Storage>) {
        for inst in &mut self.instances {
            inst.flush = Some(Box::new(FlushList::new(inst.size())));
        }
        let n = self.instances.len() as u32;
        self.write = Some(Box::new(WritePath {
            device,
            dblwr: Doublewrite::new(cfg.doublewrite, cfg.doublewrite_pages, n),
            redo: RedoLog::new(cfg.redo_log_capacity),
            adaptive: AdaptiveFlush::default(),
            completions: BinaryHeap::new(),
            cleaner_t: 0,
            flush_event: false,
            retry_at: None,
            stats: WriteStats::default(),
            free_block_loops: Vec::new(),
            cfg,
        }));
    }

    /// Returns and clears `buf_flush_event` as set by a user thread.
    pub fn take_flush_event(&mut self) -> bool {
        self.write
            .as_deref_mut()
            .is_some_and(|w| std::mem::take(&mut w.flush_event))
    }

    /// The write path, if on.
    pub fn write_path(&self) -> Option<&WritePath> {
        self.write.as_deref()
    }

    /// When a page read issued at `now` completes: the fixed latency, or the device's queue.
    #[inline]
    pub(crate) fn read_done(&mut self, now: Micros, pages: u32) -> Micros {
        match self.write.as_deref_mut() {
            None => now + self.cfg.read_latency_us,
            Some(w) => w
                .device
                .submit(now, IoKind::Read, PAGE_BYTES * pages as u64),
        }
    }

    /// A user thread's `NoFreeFrame` retry time, if the write path chose one.
    pub(crate) fn take_retry_at(&mut self) -> Option<Micros> {
        if let Some(t) = self.wait_retry_at.take() {
            return Some(t);
        }
        self.write.as_deref_mut().and_then(|w| w.retry_at.take())
    }

    /// Dirty pages over all instances.
    pub fn dirty_pages(&self) -> u32 {
        self.instances
            .iter()
            .filter_map(|i| i.flush.as_deref())
            .map(FlushList::len)
            .sum()
    }
    /// `buf_pool_get_oldest_modification_approx`: the oldest modification in the pool, or 0.
    pub fn oldest_modification(&self) -> u64 {
        self.instances
            .iter()
            .filter_map(|i| i.flush.as_deref())
            .map(FlushList::oldest_lsn)
            .filter(|&l| l != 0)
            .min()
            .unwrap_or(0)
    }
    /// `buf_get_modified_ratio_pct`: dirty pages as a % of LRU + free pages.
    pub fn modified_ratio_pct(&self) -> f64 {
        let dirty = self.dirty_pages() as f64;
        dirty * 100.0 / (self.lru_len() + self.free_len() + 1) as f64
    }

    /// If `page` is io-fixed for a write, when the write completes (a writer must wait).
    pub fn write_fixed_until(&self, page: PageId) -> Option<Micros> {
        let g = self.frame_of(page)?;
        let (i, f) = self.split_frame(g);
        let fl = self.instances[i].flush.as_deref()?;
        let d = fl.write_done(f);
        (d != 0).then_some(d)
    }

    /// `mtr_commit` for a row change: `bytes` of redo; returns the change's LSN.
    pub fn redo_append(&mut self, bytes: u64) -> u64 {
        self.write
            .as_deref_mut()
            .expect("write path")
            .redo
            .append(bytes)
    }

    /// `log_free_check`: whether a writer must wait for the checkpoint.
    pub fn log_must_wait(&self) -> bool {
        match self.write.as_deref() {
            Some(w) => w.redo.must_wait(self.oldest_modification()),
            None => false,
        }
    }

    /// `buf_flush_note_modification`: the page (in the pool, not io-fixed for a write) was
    /// changed by a mini-transaction ending at `lsn`.
    pub fn note_modification(&mut self, page: PageId, lsn: u64) {
        let g = self.frame_of(page).expect("modified page is in the pool");
        let (i, f) = self.split_frame(g);
        let fl = self.instances[i].flush.as_deref_mut().expect("write path");
        debug_assert!(!fl.is_write_fixed(f));
        let was_clean = fl.oldest(f) == 0;
        fl.note_modification(f, lsn);
        let w = self.write.as_deref_mut().expect("write path");
        w.stats.modifications += 1;
        if was_clean {
            w.stats.dirtied += 1;
        }
    }

    /// `buf_flush_ready_for_flush`: dirty, not io-fixed (read or write), not buffer-fixed.
    #[inline]
    pub(crate) fn ready_for_flush(&self, i: usize, f: u32, now: Micros) -> bool {
        let inst = &self.instances[i];
        match inst.flush.as_deref() {
            None => false,
            Some(fl) => {
                fl.oldest(f) != 0
                    && !fl.is_write_fixed(f)
                    && !inst.is_io_fixed(f, now)
                    && f != inst.fixed
            }
        }
    }

    /// `buf_flush_page` → `dblwr::write`: io-fixes frame `f` of instance `i` for a write of
    /// type `kind` and queues it in its doublewrite buffer (flushing the buffer when full), or
    /// with `innodb_doublewrite=OFF` issues the data write at once.
    pub(crate) fn flush_page(&mut self, i: usize, f: u32, kind: FlushType) {
        self.instances[i]
            .flush
            .as_deref_mut()
            .expect("write path")
            .set_writing(f, kind);
        let w = self.write.as_deref_mut().expect("write path");
        match kind {
            FlushType::Lru => w.stats.lru_flushed += 1,
            FlushType::List => w.stats.list_flushed += 1,
            FlushType::Single => {}
        }
        if w.dblwr.enabled {
            let q = w.dblwr.instance_for(kind, i);
            if w.dblwr.push(q, i as u32, f) {
                self.dblwr_flush_to_disk(q);
            }
        } else {
            // Double_write::write_to_datafile without the doublewrite copy: an async write.
            let t = w.cleaner_t;
            let done = w.device.submit(t, IoKind::Write, PAGE_BYTES);
            self.write_issued(i, f, done);
        }
    }

    fn write_issued(&mut self, i: usize, f: u32, done: Micros) {
        self.instances[i]
            .flush
            .as_deref_mut()
            .expect("write path")
            .set_write_done(f, done);
        let w = self.write.as_deref_mut().expect("write path");
        w.completions.push(Reverse((done, i as u32, f)));
        w.stats.pages_written += 1;
    }

    /// `Double_write::flush_to_disk` → `write_pages`: `write_dblwr_pages` (wait for a batch
    /// segment, one sequential write of the buffer, fsync) on the flushing thread's clock, then
    /// `write_data_pages` (one async write per page); the segment is free again after the last
    /// page write and `fil_flush_file_spaces`.
    fn dblwr_flush_to_disk(&mut self, q: usize) {
        let w = self.write.as_deref_mut().expect("write path");
        let pages = w.dblwr.take(q);
        if pages.is_empty() {
            return;
        }
        let kind = w.dblwr.kind_of(q);
        let method = w.cfg.flush_method;
        // Double_write::flush_to_disk → wait_for_pending_batch: this instance's previous batch
        // must have completed first.
        let pending = if w.cfg.dblwr_wait_pending_batch {
            w.dblwr.pending_batch_done(q)
        } else {
            0
        };
        let (seg, free_at) = w.dblwr.acquire_segment(kind);
        let start = w.cleaner_t.max(free_at).max(pending);
        w.dblwr.stats.segment_wait_us += start - w.cleaner_t;
        let bytes = pages.len() as u64 * PAGE_BYTES;
        let written = w.device.submit(start, IoKind::Write, bytes);
        let s = &mut w.dblwr.stats;
        s.writes += 1;
        s.batch_writes += 1;
        s.write_time_us += written - start;
        s.bytes += bytes;
        s.pages += pages.len() as u64;
        // Double_write::write_dblwr_pages: fsync only if is_fsync_required().
        let synced = if method.dblwr_fsync() {
            w.device.submit(written, IoKind::Fsync, 0)
        } else {
            written
        };
        w.cleaner_t = synced;
        let mut last = synced;
        for &(i, f) in &pages {
            let w = self.write.as_deref_mut().expect("write path");
            let done = w.device.submit(synced, IoKind::Write, PAGE_BYTES);
            last = last.max(done);
            self.write_issued(i as usize, f, done);
        }
        let w = self.write.as_deref_mut().expect("write path");
        // Double_write::write_complete: the batch is over at its last data write
        // (Batch_segment::completed), then fil_flush_file_spaces frees the segment.
        w.dblwr.batch_running_until(q, last);
        let released = if method.data_fsync() {
            w.device.submit(last, IoKind::Fsync, 0)
        } else {
            last
        };
        w.dblwr.hold_segment(kind, seg, released);
    }

    /// `buf_flush_end` → `dblwr::force_flush(flush_type, buf_pool_index)`: writes out the
    /// instance's partly filled doublewrite buffer of that type.
    pub(crate) fn dblwr_force_flush(&mut self, kind: FlushType, i: usize) {
        // buf_flush_end: any batch's end lets user threads scan the LRU tail again.
        self.instances[i].try_lru_scan = true;
        let Some(w) = self.write.as_deref() else {
            return;
        };
        if !w.dblwr.enabled {
            return;
        }
        let q = w.dblwr.instance_for(kind, i);
        self.dblwr_flush_to_disk(q);
    }

    /// `buf_page_io_complete` for writes completed by `now`, in completion order: the page is
    /// clean and no longer io-fixed (`buf_flush_write_complete`); an LRU or single-page write
    /// also evicts it (`buf_LRU_free_page`), its frame going to the free list.
    pub fn complete_writes(&mut self, now: Micros) {
        loop {
            let Some(w) = self.write.as_deref_mut() else {
                return;
            };
            let Some(&Reverse((t, i, f))) = w.completions.peek() else {
                return;
            };
            if t > now {
                return;
            }
            w.completions.pop();
            let (i, f) = (i as usize, f);
            let fl = self.instances[i].flush.as_deref_mut().expect("write path");
            debug_assert_eq!(fl.write_done(f), t);
            let kind = fl.write_type(f);
            fl.write_complete(f);
            if kind != FlushType::List && self.instances[i].is_replaceable(f, now) {
                self.free_page(i, f);
                match kind {
                    FlushType::Single => self.instances[i].stats.evicted_by_user += 1,
                    _ => self.instances[i].stats.evicted_by_batch += 1,
                }
                self.write
                    .as_deref_mut()
                    .expect("write path")
                    .stats
                    .evicted_after_write += 1;
            }
        }
    }

    /// `buf_LRU_get_free_block` when the free list is empty, with the write path on, for the
    /// thread's iteration `n_iterations` (kept by the page it wants, 0 on its first call):
    /// - if `try_LRU_scan` is set or `n_iterations > 0`, `buf_LRU_scan_and_free_block`: 100
    ///   tail pages on the first iteration, the whole list on later ones; a clean page is the
    ///   victim. A failed first-iteration scan clears `try_LRU_scan`, so other threads go
    ///   straight to the single-page flush until a batch ends (`buf_flush_end`);
    /// - `buf_flush_event` is set; from the third iteration (`n_iterations > 1`) the thread
    ///   sleeps 10 ms; it counts `buf_pool_wait_free` and flushes one dirty tail page itself
    ///   (`buf_flush_single_page_from_LRU`), then retries when that write has evicted it.
    pub(crate) fn victim_or_single_flush(&mut self, i: usize, now: Micros) -> Option<u32> {
        let key = self.requesting;
        let n = match (key, self.write.as_deref()) {
            (Some(p), Some(w)) => w
                .free_block_loops
                .iter()
                .find(|e| e.0 == p)
                .map_or(0, |e| e.1),
            _ => 0,
        };
        if self.instances[i].try_lru_scan || n > 0 {
            let limit = if n > 0 {
                u32::MAX
            } else {
                SEARCH_SCAN_THRESHOLD
            };
            if let Some(v) = self.instances[i].find_victim_within(now, limit) {
                return Some(v);
            }
            if n == 0 {
                self.instances[i].try_lru_scan = false;
            }
        }
        let sleep = if n > 1 { 10 * crate::clock::MS } else { 0 };
        let t = now + sleep;
        let retry = self.single_page_flush(i, t);
        let next_done = self.write.as_deref().and_then(WritePath::next_completion);
        let w = self.write.as_deref_mut().expect("write path");
        w.flush_event = true;
        w.stats.wait_free += 1;
        if sleep > 0 {
            w.stats.free_waits += 1;
        }
        w.retry_at = Some(match (retry, next_done) {
            (Some(r), _) => r,
            (None, Some(d)) => d.max(t + 1),
            (None, None) => t + crate::clock::MS,
        });
        if let Some(p) = key {
            match w.free_block_loops.iter_mut().find(|e| e.0 == p) {
                Some(e) => e.1 += 1,
                None => w.free_block_loops.push((p, 1)),
            }
        }
        None
    }

    /// The thread asking for a frame got one: its `buf_LRU_get_free_block` loop is over.
    pub(crate) fn forget_free_block_loop(&mut self) {
        if let (Some(p), Some(w)) = (self.requesting, self.write.as_deref_mut()) {
            w.free_block_loops.retain(|e| e.0 != p);
        }
    }

    /// `n_iterations` of the thread asking for a frame for `page` (0 when it is not looping).
    pub fn free_block_iterations(&self, page: PageId) -> u32 {
        self.write
            .as_deref()
            .and_then(|w| w.free_block_loops.iter().find(|e| e.0 == page))
            .map_or(0, |e| e.1)
    }

    /// `buf_flush_single_page_from_LRU` + `Double_write::sync_page_flush`: the first dirty page
    /// ready for flushing from the tail is written synchronously by the user thread (a
    /// doublewrite slot write and its fsync, then the data write and `fil_flush`), and evicted
    /// when done. Returns when the thread may retry, or `None` if no page could be flushed.
    fn single_page_flush(&mut self, i: usize, now: Micros) -> Option<Micros> {
        let mut f = self.instances[i].lru.tail();
        while f != NIL && !self.ready_for_flush(i, f, now) {
            f = self.instances[i].lru.prev(f);
        }
        if f == NIL {
            return None;
        }
        self.instances[i]
            .flush
            .as_deref_mut()
            .expect("write path")
            .set_writing(f, FlushType::Single);
        let w = self.write.as_deref_mut().expect("write path");
        w.stats.single_page_flushes += 1;
        let mut t = now;
        let method = w.cfg.flush_method;
        if w.dblwr.enabled {
            let written = w.device.submit(t, IoKind::Write, PAGE_BYTES);
            let s = &mut w.dblwr.stats;
            s.writes += 1;
            s.single_writes += 1;
            s.write_time_us += written - t;
            s.bytes += PAGE_BYTES;
            s.pages += 1;
            // Double_write::sync_page_flush: the slot is fsynced if is_fsync_required().
            t = if method.dblwr_fsync() {
                w.device.submit(written, IoKind::Fsync, 0)
            } else {
                written
            };
        }
        let written = w.device.submit(t, IoKind::Write, PAGE_BYTES);
        // fil_flush after the synchronous data write.
        let done = if method.data_fsync() {
            w.device.submit(written, IoKind::Fsync, 0)
        } else {
            written
        };
        self.write_issued(i, f, done);
        Some(done)
    }

    /// `buf_do_flush_list_batch` for instance `i`: from the oldest modification on, writes up
    /// to `n` pages whose oldest modification is below `lsn_limit` (pages io-fixed or
    /// buffer-fixed are passed over), through the flush-list doublewrite buffer, then
    /// `buf_flush_end` force-flushes it. The pages stay in the LRU list and become clean when
    /// written. Returns the pages written.
    pub fn flush_list_batch(&mut self, i: usize, n: u64, lsn_limit: u64, now: Micros) -> u64 {
        let Some(fl) = self.instances[i].flush.as_deref() else {
            return 0;
        };
        if fl.n_flush(FlushType::List) > 0 {
            // buf_flush_start: the previous flush-list batch still has writes outstanding.
            return 0;
        }
        let mut picked = Vec::new();
        for (lsn, f) in fl.iter() {
            if picked.len() as u64 >= n || lsn >= lsn_limit {
                break;
            }
            if self.ready_for_flush(i, f, now) {
                picked.push(f);
            }
        }
        let w = self.write.as_deref_mut().expect("write path");
        w.cleaner_t = w.cleaner_t.max(now);
        for &f in &picked {
            self.flush_page(i, f, FlushType::List);
        }
        self.dblwr_force_flush(FlushType::List, i);
        picked.len() as u64
    }

    /// Dirty pages whose oldest modification is at most `lsn`, over all instances, each
    /// instance's count capped at `cap` (the scan in `set_flush_target_by_lsn`).
    pub fn pages_up_to(&self, lsn: u64, cap: u64) -> u64 {
        let per = (cap / self.instances.len().max(1) as u64).max(1);
        self.instances
            .iter()
            .filter_map(|i| i.flush.as_deref())
            .map(|fl| {
                fl.iter()
                    .take_while(|&(l, _)| l <= lsn)
                    .take(per as usize)
                    .count() as u64
            })
            .sum()
    }

    /// One round of the page cleaner's flush-list side (`page_recommendation` then
    /// `pc_request` / `buf_flush_do_batch` per instance). `timeout`: a one-second round (else a
    /// round woken by `buf_flush_event`, which flushes nothing from the flush list unless in
    /// sync flush). `last_pages`: pages the previous recommended batch wrote. Returns (pages
    /// written, whether this was a sync flush).
    pub fn flush_list_round(&mut self, now: Micros, timeout: bool, last_pages: u64) -> (u64, bool) {
        let oldest = self.oldest_modification();
        let dirty_pct = self.modified_ratio_pct();
        let w = self.write.as_deref_mut().expect("write path");
        // log_sync_flush_lsn, plus lsn_avg_rate × buf_flush_lsn_scan_factor.
        let sync_lsn = match w.redo.sync_flush_lsn(oldest) {
            0 => None,
            l => Some(l + w.adaptive.lsn_avg_rate * super::adaptive_flush::LSN_SCAN_FACTOR),
        };
        if !timeout && sync_lsn.is_none() {
            return (0, false);
        }
        let inp = FlushInputs {
            now,
            lsn: w.redo.lsn,
            oldest,
            dirty_pct,
            usable: w.redo.usable(),
            async_limit: w.redo.async_limit(),
        };
        let cfg = w.cfg.flush.clone();
        let mut adaptive = std::mem::take(&mut w.adaptive);
        let n = adaptive.page_recommendation(&cfg, inp, last_pages, sync_lsn, |l, cap| {
            self.pages_up_to(l, cap)
        });
        self.write.as_deref_mut().expect("write path").adaptive = adaptive;
        if n == 0 {
            return (0, sync_lsn.is_some());
        }
        let k = self.instances.len() as u64;
        let per = n.div_ceil(k);
        let limit = sync_lsn.unwrap_or(u64::MAX);
        let mut total = 0;
        for i in 0..self.instances.len() {
            total += self.flush_list_batch(i, per, limit, now);
        }
        (total, sync_lsn.is_some())
    }

    /// The write path's invariants: every instance's flush list holds exactly its dirty frames,
    /// in oldest-modification order, each in the LRU list (never free), with
    /// `oldest <= newest <= lsn`; write io-fixed frames are dirty LRU pages that are either
    /// queued in exactly one doublewrite buffer of their instance's type (pending) or have a
    /// completion in flight; doublewrite buffers hold at most `innodb_doublewrite_pages`.
    pub(crate) fn validate_write_path(&self) -> Result<(), String> {
        let Some(w) = self.write.as_deref() else {
            return Ok(());
        };
        let mut queued = std::collections::BTreeMap::new();
        for q in 0..w.dblwr.n_instances() {
            let queue = w.dblwr.queue(q);
            if queue.len() > w.dblwr.pages as usize {
                return Err(format!(
                    "doublewrite instance {q} holds {} pages",
                    queue.len()
                ));
            }
            for &(i, f) in queue {
                if w.dblwr.instance_for(w.dblwr.kind_of(q), i as usize) != q {
                    return Err(format!(
                        "frame {i}/{f} queued in the wrong doublewrite instance {q}"
                    ));
                }
                if queued.insert((i, f), q).is_some() {
                    return Err(format!("frame {i}/{f} queued twice"));
                }
            }
        }
        let mut in_flight = std::collections::BTreeMap::new();
        for r in w.completions.iter() {
            let (t, i, f) = r.0;
            if in_flight.insert((i, f), t).is_some() {
                return Err(format!("frame {i}/{f} has two writes in flight"));
            }
        }
        for (i, inst) in self.instances.iter().enumerate() {
            let fl = inst
                .flush
                .as_deref()
                .ok_or_else(|| format!("instance {i} has no flush list"))?;
            let mut prev = 0u64;
            let mut n = 0u32;
            for (lsn, f) in fl.iter() {
                if lsn < prev {
                    return Err(format!(
                        "instance {i}: flush list out of order at frame {f}"
                    ));
                }
                prev = lsn;
                n += 1;
                if fl.oldest(f) != lsn || lsn == 0 {
                    return Err(format!("instance {i}: flush list entry {lsn} for frame {f} whose oldest_modification is {}", fl.oldest(f)));
                }
                if !inst.lru.contains(f) {
                    return Err(format!(
                        "instance {i}: dirty frame {f} is not in the LRU list"
                    ));
                }
                if fl.newest(f) < lsn || fl.newest(f) > w.redo.lsn {
                    return Err(format!(
                        "instance {i}: frame {f} newest_modification {} outside [{lsn}, {}]",
                        fl.newest(f),
                        w.redo.lsn
                    ));
                }
            }
            let mut writing = 0u32;
            for f in 0..inst.size() {
                let dirty = fl.oldest(f) != 0;
                if dirty && !inst.lru.contains(f) {
                    return Err(format!(
                        "instance {i}: dirty frame {f} outside the LRU list"
                    ));
                }
                let d = fl.write_done(f);
                if d == 0 {
                    if queued.contains_key(&(i as u32, f)) || in_flight.contains_key(&(i as u32, f))
                    {
                        return Err(format!(
                            "instance {i}: frame {f} queued for a write but not io-fixed"
                        ));
                    }
                    continue;
                }
                writing += 1;
                if !dirty {
                    return Err(format!(
                        "instance {i}: clean frame {f} is io-fixed for a write"
                    ));
                }
                if d == WRITE_PENDING {
                    if !queued.contains_key(&(i as u32, f)) {
                        return Err(format!(
                            "instance {i}: frame {f} pending but in no doublewrite buffer"
                        ));
                    }
                } else if in_flight.get(&(i as u32, f)) != Some(&d) {
                    return Err(format!(
                        "instance {i}: frame {f} write completes at {d} but is not in flight"
                    ));
                }
            }
            if n != fl.len() || writing != fl.n_writing {
                return Err(format!("instance {i}: flush list counts disagree"));
            }
        }
        if queued.len() + in_flight.len()
            != self
                .instances
                .iter()
                .filter_map(|i| i.flush.as_deref())
                .map(|fl| fl.n_writing as usize)
                .sum::<usize>()
        {
            return Err(
                "doublewrite queues and writes in flight do not match the io-fixed frames".into(),
            );
        }
        Ok(())
    }
}
