//! The doublewrite buffer as in 8.0.20+ / 8.4 (buf/buf0dblwr.cc, namespace `dblwr`).
//!
//! - `dblwr::open`: `max(4, 2 × buffer_pool_instances)` doublewrite instances, the first half
//!   for LRU flushes and the second for flush-list flushes; `innodb_doublewrite_files` = 2 files,
//!   `n_instances / 2 + 1` batch segments per file, one file's segments for each flush type.
//! - `Double_write::enqueue`: the page (io-fixed for write) is copied into its instance's
//!   buffer of `innodb_doublewrite_pages`; a full buffer is flushed first (`flush_to_disk`).
//! - `Double_write::flush_to_disk` → `wait_for_pending_batch`: the flushing thread first waits
//!   until this instance's previous batch has completed (`m_batch_running`, cleared by
//!   `Batch_segment::completed` when the last data write of that batch completes).
//! - `Double_write::write_dblwr_pages`: the flushing thread takes a free batch segment (it
//!   spins while none is free), writes the whole buffer as one sequential write, and fsyncs it
//!   unless the flush method is `O_DIRECT` or `O_DIRECT_NO_FSYNC` (`is_fsync_required`).
//! - `Double_write::write_data_pages`: then one asynchronous data-file write per page.
//! - `Double_write::write_complete`: when the last page of a batch is written, the instance's
//!   batch is over (`completed`), then `fil_flush_file_spaces` runs and the segment is free
//!   again.
//! - `dblwr::force_flush` (from `buf_flush_end`): a partly filled buffer is written at the end
//!   of every batch.
//! - `Double_write::sync_page_flush`: a user thread's single-page flush writes one slot of the
//!   512 `SYNC_PAGE_FLUSH_SLOTS`, fsyncs it, writes the page synchronously, and fsyncs the data
//!   file (`fil_flush`).
//!
//! Counters follow `performance_schema.file_summary_by_event_name` for
//! `wait/io/file/innodb/innodb_dblwr_file`: one write per batch or slot write, timed from
//! submission to completion.

use serde::Serialize;

use super::flush_list::FlushType;
use crate::clock::Micros;

/// Bytes in a page.
pub const PAGE_BYTES: u64 = 16_384;

/// `innodb_dblwr_file` counters.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct DblwrStats {
    /// `COUNT_WRITE`.
    pub writes: u64,
    /// `SUM_TIMER_WRITE`, µs.
    pub write_time_us: u64,
    /// `SUM_NUMBER_OF_BYTES_WRITE`.
    pub bytes: u64,
    /// Batch writes (buffer flushes).
    pub batch_writes: u64,
    /// Single-page slot writes.
    pub single_writes: u64,
    /// `Innodb_dblwr_pages_written`.
    pub pages: u64,
    /// Time flushing threads spent waiting for a batch slot, µs: for the instance's previous
    /// batch to complete (`wait_for_pending_batch`) or for a free batch segment.
    pub segment_wait_us: u64,
}

impl DblwrStats {
    /// `AVG_TIMER_WRITE`, µs.
    pub fn avg_write_us(&self) -> f64 {
        if self.writes == 0 {
            0.0
        } else {
            self.write_time_us as f64 / self.writes as f64
        }
    }
}

/// The doublewrite state of a pool.
#[derive(Clone, Debug)]
pub struct Doublewrite {
    /// `innodb_doublewrite` (OFF: pages go straight to the data files).
    pub enabled: bool,
    /// `innodb_doublewrite_pages`.
    pub pages: u32,
    /// Doublewrite instances per flush type (`s_n_instances / 2`).
    half: usize,
    /// Each instance's buffer: (buffer pool instance, frame) of the queued pages.
    queues: Vec<Vec<(u32, u32)>>,
    /// When each LRU / flush-list batch segment is free again.
    lru_segments: Vec<Micros>,
    list_segments: Vec<Micros>,
    /// When each instance's last batch completes (its last data write): `m_batch_running`.
    batch_done: Vec<Micros>,
    /// Counters.
    pub stats: DblwrStats,
}

impl Doublewrite {
    /// The doublewrite buffer of a pool with `bp_instances` instances (`dblwr::open`).
    pub fn new(enabled: bool, pages: u32, bp_instances: u32) -> Self {
        let n_instances = (2 * bp_instances as usize).max(4);
        let n_files = 2;
        let segments_per_file = n_instances / n_files + 1;
        Doublewrite {
            enabled,
            pages: pages.max(1),
            half: n_instances / 2,
            queues: vec![Vec::new(); n_instances],
            lru_segments: vec![0; segments_per_file],
            list_segments: vec![0; segments_per_file],
            batch_done: vec![0; n_instances],
            stats: DblwrStats::default(),
        }
    }

    /// `dblwr::write` → `Double_write::submit`: the doublewrite instance of a page:
    /// `buf_pool_index mod (n / 2)`, plus `n / 2` for the flush list.
    pub fn instance_for(&self, kind: FlushType, bp_instance: usize) -> usize {
        let base = bp_instance % self.half;
        match kind {
            FlushType::List => base + self.half,
            FlushType::Lru | FlushType::Single => base,
        }
    }
    /// The flush type a doublewrite instance serves.
    pub fn kind_of(&self, q: usize) -> FlushType {
        if q >= self.half {
            FlushType::List
        } else {
            FlushType::Lru
        }
    }
    /// Number of doublewrite instances.
    pub fn n_instances(&self) -> usize {
        self.queues.len()
    }
    /// The pages queued in instance `q`.
    pub fn queue(&self, q: usize) -> &[(u32, u32)] {
        &self.queues[q]
    }
    /// Appends a page to instance `q`'s buffer; returns whether the buffer is now full.
    pub(crate) fn push(&mut self, q: usize, inst: u32, f: u32) -> bool {
        self.queues[q].push((inst, f));
        self.queues[q].len() >= self.pages as usize
    }
    /// Takes instance `q`'s buffered pages.
    pub(crate) fn take(&mut self, q: usize) -> Vec<(u32, u32)> {
        std::mem::take(&mut self.queues[q])
    }
    /// `write_dblwr_pages`: waits for a free batch segment of the type; returns (segment index,
    /// when it is free).
    pub(crate) fn acquire_segment(&self, kind: FlushType) -> (usize, Micros) {
        let segs = match kind {
            FlushType::List => &self.list_segments,
            _ => &self.lru_segments,
        };
        let (k, &t) = segs
            .iter()
            .enumerate()
            .min_by_key(|&(i, &t)| (t, i))
            .expect("segments");
        (k, t)
    }
    /// `wait_for_pending_batch`: when instance `q`'s previous batch completes (0 if none).
    pub(crate) fn pending_batch_done(&self, q: usize) -> Micros {
        self.batch_done[q]
    }
    /// `Batch_segment::start` … `completed`: instance `q`'s batch runs until `until`.
    pub(crate) fn batch_running_until(&mut self, q: usize, until: Micros) {
        self.batch_done[q] = until;
    }
    /// The segment is busy until `until` (its last page written and the data files fsynced).
    pub(crate) fn hold_segment(&mut self, kind: FlushType, k: usize, until: Micros) {
        match kind {
            FlushType::List => self.list_segments[k] = until,
            _ => self.lru_segments[k] = until,
        }
    }
}
