//! One buffer pool instance (`buf_pool_t`): its LRU list, free list, per-frame page state and
//! counters, and the rules that only need the instance itself.

use std::collections::VecDeque;

use super::free_list::FreeList;
use super::lru::{old_ratio_from_pct, Lru, NIL};
use super::scan_run::{RunAt, RunLimits};
use super::PageId;
use crate::clock::{Micros, MS};

/// `BUF_LRU_SEARCH_SCAN_THRESHOLD`: pages a user thread scans from the tail on its first try.
pub const SEARCH_SCAN_THRESHOLD: u32 = 100;

/// `buf_pool_get`: `hash(page_id_t(space, page_no >> 6)) mod n`, with `page_id_t`'s fold
/// `(space << 20) + space + page_no` xor its constant (include/buf0types.h).
pub fn instance_no(page: PageId, n_instances: u32) -> u32 {
    if n_instances <= 1 {
        return 0;
    }
    let space = page.space as u64;
    let fold = ((space << 20) + space + (page.page_no >> 6) as u64) ^ 1_653_893_711;
    (fold % n_instances as u64) as u32
}

/// Counters of one instance, named after InnoDB's where InnoDB has one.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Stats {
    /// `n_page_gets`: logical page requests.
    pub page_gets: u64,
    /// Requests that found the page in the pool.
    pub hits: u64,
    /// `n_pages_read`: synchronous reads.
    pub pages_read: u64,
    /// `n_ra_pages_read`: pages read by linear read-ahead.
    pub ra_pages_read: u64,
    /// `n_ra_pages_evicted`: pages a user thread's tail scan evicted without their ever being
    /// accessed (`buf_LRU_free_from_common_LRU_list`; the page cleaner's evictions are not
    /// counted, as in InnoDB).
    pub ra_pages_evicted: u64,
    /// `n_pages_made_young`: old pages promoted to the head.
    pub made_young: u64,
    /// `n_pages_not_made_young`: old-page touches that failed the time test.
    pub not_made_young: u64,
    /// Young pages moved back to the head by the quarter rule (InnoDB counts these nowhere).
    pub young_moved_to_head: u64,
    /// Evictions by user threads (free list empty).
    pub evicted_by_user: u64,
    /// Evictions by the page cleaner's LRU batches.
    pub evicted_by_batch: u64,
    /// LRU batches run.
    pub lru_batches: u64,
    /// Old pages promoted, per tag.
    pub made_young_by_tag: Vec<u64>,
    /// MariaDB `MONITOR_LRU_GET_FREE_LOOPS`: a reader found the free list empty.
    #[serde(skip_serializing_if = "is_zero")]
    pub lru_get_free_loops: u64,
    /// MariaDB `MONITOR_LRU_SEARCH_SCANNED`: pages the readers' own tail scans looked at.
    #[serde(skip_serializing_if = "is_zero")]
    pub lru_search_scanned: u64,
    /// MariaDB `buf_pool.stat.LRU_waits`: times a reader waited for the page cleaner to free a
    /// block (once per retry: the simulation polls the free list between the cleaner's chunks).
    #[serde(skip_serializing_if = "is_zero")]
    pub lru_waits: u64,
}

fn is_zero(v: &u64) -> bool {
    *v == 0
}

impl Stats {
    /// Adds another instance's counters.
    pub fn add(&mut self, o: &Stats) {
        self.page_gets += o.page_gets;
        self.hits += o.hits;
        self.pages_read += o.pages_read;
        self.ra_pages_read += o.ra_pages_read;
        self.ra_pages_evicted += o.ra_pages_evicted;
        self.made_young += o.made_young;
        self.not_made_young += o.not_made_young;
        self.young_moved_to_head += o.young_moved_to_head;
        self.evicted_by_user += o.evicted_by_user;
        self.evicted_by_batch += o.evicted_by_batch;
        self.lru_batches += o.lru_batches;
        self.lru_get_free_loops += o.lru_get_free_loops;
        self.lru_search_scanned += o.lru_search_scanned;
        self.lru_waits += o.lru_waits;
        if self.made_young_by_tag.len() < o.made_young_by_tag.len() {
            self.made_young_by_tag.resize(o.made_young_by_tag.len(), 0);
        }
        for (a, b) in self.made_young_by_tag.iter_mut().zip(&o.made_young_by_tag) {
            *a += b;
        }
    }
    /// Total evictions.
    pub fn evictions(&self) -> u64 {
        self.evicted_by_user + self.evicted_by_batch
    }
}

/// One instance.
#[derive(Clone, Debug)]
pub struct Instance {
    /// The LRU list with its old sublist and eviction clock.
    pub lru: Lru,
    /// Frames holding no page.
    pub free: FreeList,
    /// `curr_size`.
    n: u32,
    page: Vec<PageId>,
    /// `access_time`: first access since the page entered the pool, µs; 0 = never.
    access_us: Vec<Micros>,
    /// When the read filling the frame completes; the page is io-fixed before then.
    io_done_us: Vec<Micros>,
    /// Completion times of reads in flight (`n_pend_reads`), sorted. Reads complete in nearly
    /// the order they are issued, so an insertion from the back is O(1) in practice.
    pending: VecDeque<Micros>,
    /// `read_ahead_area`.
    read_ahead_area: u32,
    /// The frame a thread holds buffer-fixed right now (`buf_fix_count > 0`), or `NIL`: it
    /// cannot be evicted, e.g. by the read-ahead its own access triggers.
    pub(crate) fixed: u32,
    /// Counters.
    pub stats: Stats,
    /// Dirty-page state and the flush list (`None`: the write path is off).
    pub flush: Option<Box<super::flush_list::FlushList>>,
    /// MySQL `buf_pool->try_LRU_scan` (write path): cleared by a user thread whose first
    /// 100-page tail scan failed, set again by `buf_flush_end` (any batch's end).
    pub try_lru_scan: bool,
    /// Which values of `innodb_old_blocks_time` would have taken every decision so far as
    /// this run's did (`buf_page_peek_if_too_old`, read only for an old page once pages are
    /// evicted): what a snapshot may be resumed with (`sim::prefix`).
    pub(crate) old_time_range: OldTimeRange,
}

/// The values of `innodb_old_blocks_time` (ms) under which every access so far would have
/// been decided the same way: all of them until an access reads the time test; then, for a run
/// with 0 (where the quarter rule decides instead), 0 alone; for a run with a positive value,
/// the positive values between the largest age that failed the test (exclusive) and the
/// smallest age that passed it (inclusive), in whole ms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OldTimeRange {
    /// Whether some access found an old page once pages were being evicted.
    pub consulted: bool,
    /// The smallest equivalent value, ms.
    pub lo_ms: u64,
    /// The largest equivalent value, ms.
    pub hi_ms: u64,
    /// `lo_ms` in µs (saturated), kept beside it: the failed test's comparison without a
    /// multiplication that checks for overflow (a 128-bit multiply call in WASM).
    lo_us: u64,
}

impl Default for OldTimeRange {
    fn default() -> Self {
        OldTimeRange {
            consulted: false,
            lo_ms: 0,
            hi_ms: u64::MAX,
            lo_us: 0,
        }
    }
}

impl OldTimeRange {
    /// Whether `ms` takes every decision recorded here as the run did.
    pub fn admits(&self, ms: u32) -> bool {
        let ms = ms as u64;
        !self.consulted || (self.lo_ms..=self.hi_ms).contains(&ms)
    }

    /// Both ranges' constraints at once (the pool's instances).
    pub fn meet(&self, o: &OldTimeRange) -> OldTimeRange {
        OldTimeRange {
            consulted: self.consulted || o.consulted,
            lo_ms: self.lo_ms.max(o.lo_ms),
            hi_ms: self.hi_ms.min(o.hi_ms),
            lo_us: self.lo_us.max(o.lo_us),
        }
    }

    /// An access that read the time test of `buf_page_peek_if_too_old` (or, with 0, would
    /// have): `age_us` since the page's first access (`None`: not accessed yet, which fails
    /// the test for every positive value), under the run's value `ms`.
    #[inline]
    fn note(&mut self, ms: u32, age_us: Option<Micros>) {
        if ms == 0 {
            // The quarter rule decided: only 0 decides the same way.
            self.lo_ms = 0;
            self.hi_ms = 0;
            self.lo_us = 0;
        } else {
            if self.lo_ms == 0 {
                self.lo_ms = 1;
                self.lo_us = MS;
            }
            if let Some(age) = age_us {
                if age >= ms as Micros * MS {
                    // Passed: every value up to the age in whole ms passes too.
                    self.hi_ms = self.hi_ms.min(age / MS);
                } else if age >= self.lo_us {
                    // Failed: every value above the age fails too. (`age / MS + 1` exceeds
                    // `lo_ms` exactly when `age >= lo_ms·MS`: the division only then.)
                    self.lo_ms = age / MS + 1;
                    self.lo_us = self.lo_ms.saturating_mul(MS);
                }
            }
        }
        self.consulted = true;
    }
}

impl Instance {
    /// An instance of `n` frames, all free.
    pub fn new(n: u32, old_blocks_pct: u32) -> Self {
        let n = n.max(1);
        // buf_pool_init_instance: min(BUF_READ_AHEAD_PAGES, ut_2_power_up(curr_size / 32)).
        let read_ahead_area = (n / 32).max(1).next_power_of_two().min(64);
        Instance {
            lru: Lru::new(n, old_ratio_from_pct(old_blocks_pct)),
            free: FreeList::full(n),
            n,
            page: vec![
                PageId {
                    space: 0,
                    page_no: 0
                };
                n as usize
            ],
            access_us: vec![0; n as usize],
            io_done_us: vec![0; n as usize],
            pending: VecDeque::new(),
            read_ahead_area,
            fixed: NIL,
            stats: Stats::default(),
            flush: None,
            try_lru_scan: true,
            old_time_range: OldTimeRange::default(),
        }
    }

    /// `curr_size`: usable frames.
    pub fn size(&self) -> u32 {
        self.n
    }
    /// `read_ahead_area` in pages.
    pub fn read_ahead_area(&self) -> u32 {
        self.read_ahead_area
    }
    /// The page in frame `f` (meaningful while the frame is in the LRU list).
    #[inline]
    pub fn page(&self, f: u32) -> PageId {
        self.page[f as usize]
    }
    /// The first-access time of frame `f` (0 = never accessed).
    #[inline]
    pub fn access_time(&self, f: u32) -> Micros {
        self.access_us[f as usize]
    }
    /// When frame `f`'s read completes.
    #[inline]
    pub fn io_done(&self, f: u32) -> Micros {
        self.io_done_us[f as usize]
    }
    /// Whether frame `f` is io-fixed at `now`.
    #[inline]
    pub fn is_io_fixed(&self, f: u32, now: Micros) -> bool {
        self.io_done_us[f as usize] > now
    }

    /// `buf_flush_ready_for_replace`: not io-fixed, not buffer-fixed, and (with the write
    /// path on) clean and not being written.
    #[inline]
    pub fn is_replaceable(&self, f: u32, now: Micros) -> bool {
        !self.is_io_fixed(f, now)
            && f != self.fixed
            && self
                .flush
                .as_deref()
                .is_none_or(|fl| fl.clean_and_unfixed(f))
    }

    /// `n_pend_reads` at `now`.
    pub fn pending_reads(&mut self, now: Micros) -> u32 {
        // Sorted: the reads complete by `now` are a prefix, dropped at once (an area's worth
        // between two border pages of a scan).
        if self.pending.front().is_some_and(|&t| t <= now) {
            let done = self.pending.partition_point(|&t| t <= now);
            self.pending.drain(..done);
        }
        self.pending.len() as u32
    }

    /// The earliest read completion after `now`, if any.
    pub fn next_io_completion(&mut self, now: Micros) -> Option<Micros> {
        self.pending_reads(now);
        self.pending.front().copied()
    }

    /// `buf_page_set_accessed`: records the first access only. Returns whether the page was
    /// unaccessed before.
    #[inline]
    pub fn set_accessed(&mut self, f: u32, now: Micros) -> bool {
        let a = &mut self.access_us[f as usize];
        if *a == 0 {
            *a = now.max(1);
            let w = &mut self.lru.adjust;
            if !w.fresh_until.is_empty() {
                // What-if slide-spares-fresh: protected until old_blocks_time after this access.
                w.fresh_until[f as usize] = now.saturating_add(w.window_us);
                w.note_time(now);
            }
            true
        } else {
            false
        }
    }

    /// `buf_page_make_young_if_needed` with `buf_page_peek_if_too_old`.
    #[inline]
    pub fn make_young_if_needed(&mut self, f: u32, now: Micros, old_blocks_time_ms: u32) {
        self.lru.adjust.note_time(now);
        if self.lru.freed_page_clock() == 0 {
            // Warm-up: nothing evicted yet, no promotion and no counter.
            return;
        }
        if self.lru.is_old(f) {
            let t = self.access_us[f as usize];
            let age = (t != 0).then(|| now.saturating_sub(t));
            self.old_time_range.note(old_blocks_time_ms, age);
            if old_blocks_time_ms != 0 {
                if age.is_some_and(|a| a >= old_blocks_time_ms as Micros * MS) {
                    self.promote(f);
                } else {
                    self.stats.not_made_young += 1;
                }
                return;
            }
        }
        if !self.lru.peek_if_young(f, self.n) {
            self.promote(f);
        }
    }

    /// `m` more hits on frame `f` at times up to `until` (all at or after its read completed)
    /// counted at once, if none of them could do more than count: `buf_page_make_young_if_needed`
    /// leaves the page where it is for every access up to `until` (a SCAN fetch never moves it;
    /// nothing evicted yet; an old page still inside `innodb_old_blocks_time` of its first
    /// access, which only grows `n_pages_not_made_young`; or a young page the quarter rule keeps).
    /// None of these conditions changes between the accesses, so the result is exactly that of
    /// `m` separate hits. Returns false, changing nothing, when an access could move the page.
    pub(crate) fn repeat_hits_in_place(
        &mut self,
        f: u32,
        mode: super::FetchMode,
        until: Micros,
        old_blocks_time_ms: u32,
        m: u64,
    ) -> bool {
        let normal = mode == super::FetchMode::Normal;
        let mut not_made_young = false;
        let mut reads_time_test = false;
        if normal && self.lru.freed_page_clock() != 0 {
            reads_time_test = self.lru.is_old(f);
            if old_blocks_time_ms != 0 && self.lru.is_old(f) {
                // The time test fails at `until` (and so at every earlier access).
                let t = self.access_us[f as usize];
                if t == 0 || until.saturating_sub(t) >= old_blocks_time_ms as Micros * MS {
                    return false;
                }
                not_made_young = true;
            } else if !self.lru.peek_if_young(f, self.n) {
                return false;
            }
        }
        if reads_time_test {
            // The last access is the oldest: it constrains the range most.
            let t = self.access_us[f as usize];
            self.old_time_range.note(
                old_blocks_time_ms,
                (t != 0).then(|| until.saturating_sub(t)),
            );
        }
        self.stats.page_gets += m;
        self.stats.hits += m;
        if normal {
            // note_time keeps the latest time, so the last access stands for all.
            self.lru.adjust.note_time(until);
        }
        if not_made_young {
            self.stats.not_made_young += m;
        }
        true
    }

    /// A scan's NORMAL fetches of the run's next pages, each with `m` further touches, as long
    /// as each is the case that takes most of a scan's pages: a page of this instance (global
    /// frames `base..`), old, once pages are being evicted, whose age at its last touch
    /// (`last_after` after the first) is still below `innodb_old_blocks_time` (> 0). Then each
    /// of a page's `1 + m` accesses only counts (`buf_page_make_young_if_needed` fails the time
    /// test: `n_pages_not_made_young`), and this does exactly what [`Self::set_accessed`],
    /// [`Self::make_young_if_needed`] and [`Self::repeat_hits_in_place`] do for them, page after
    /// page (the failed tests constrain the time range as the oldest of them does alone).
    /// Moves `pos` past the pages taken; returns true when a limit of `lim` ended the run.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn old_pages_touched_in_time(
        &mut self,
        frame_of: &[u32],
        base: u32,
        stop: u32,
        pos: &mut RunAt,
        lim: &RunLimits,
        cost: Micros,
        last_after: Micros,
        old_blocks_time_ms: u32,
        m: u64,
    ) -> bool {
        debug_assert!(
            old_blocks_time_ms > 0,
            "the caller takes no common pages with 0"
        );
        if !self.lru.adjust.fresh_until.is_empty() || self.lru.freed_page_clock() == 0 {
            return false;
        }
        let window = old_blocks_time_ms as Micros * MS;
        // The per-frame arrays cut to one length, so that one bounds check per page covers them.
        let n = self.page.len();
        let (access, io_done) = (&mut self.access_us[..n], &self.io_done_us[..n]);
        let old = &self.lru.old_flags()[..n];
        let RunAt {
            page_no,
            mut at,
            now,
            pages: before,
        } = *pos;
        // The limits folded into fewer values for the loop to carry (V8's code for it spilled
        // them): the page count cuts the run's slice (at least the page that is taken before
        // the count is looked at), and the clock `now` (= max(`now`, the page's time), the
        // times not decreasing) reaches `until` exactly when the page's time does.
        let cap = lim.max.saturating_sub(before).max(1);
        let end = (stop as usize)
            .min(frame_of.len())
            .min((page_no as usize).saturating_add(cap.min(u32::MAX as u64) as usize));
        let run = frame_of.get(page_no as usize..end).unwrap_or(&[]);
        let until = if now >= lim.until { 0 } else { lim.until };
        let (mut taken, mut oldest, mut unaccessed, mut timed_out) = (0usize, 0, false, false);
        let mut last_at = now;
        for &g in run {
            // Not resident (NIL) or another instance's frame: past `n` either way.
            let i = g.wrapping_sub(base) as usize;
            if i >= n {
                break;
            }
            let t = at.max(io_done[i]);
            let a0 = access[i];
            let a = if a0 == 0 { t.max(1) } else { a0 };
            let age = (t + last_after).saturating_sub(a);
            if !old[i] || age >= window {
                break;
            }
            access[i] = a;
            unaccessed |= a0 == 0;
            oldest = oldest.max(age);
            taken += 1;
            last_at = at;
            at = t + cost;
            if last_at >= until || at >= lim.bound {
                timed_out = true;
                break;
            }
        }
        let taken = taken as u64;
        let ended = timed_out || taken >= cap;
        let (page_no, now) = (page_no + taken as u32, now.max(last_at));
        if taken > 0 {
            self.old_time_range.note(old_blocks_time_ms, Some(oldest));
            if unaccessed {
                // The fetch buffer-fixes a page around its read-ahead call, off the border.
                self.fixed = NIL;
            }
            self.stats.page_gets += taken * (1 + m);
            self.stats.hits += taken * (1 + m);
            self.stats.not_made_young += taken * (1 + m);
        }
        *pos = RunAt {
            page_no,
            at,
            now,
            pages: before + taken,
        };
        ended
    }

    /// `buf_page_make_young` → `buf_LRU_make_block_young`, with InnoDB's counter semantics.
    fn promote(&mut self, f: u32) {
        let tag = self.lru.tag(f);
        if self.lru.make_block_young(f) {
            self.stats.made_young += 1;
            let v = &mut self.stats.made_young_by_tag;
            if v.len() <= tag as usize {
                v.resize(tag as usize + 1, 0);
            }
            v[tag as usize] += 1;
        } else {
            self.stats.young_moved_to_head += 1;
        }
    }

    /// Inserts a page just read into frame `f` at the midpoint (`buf_page_init_for_read`).
    pub(crate) fn insert_read(
        &mut self,
        f: u32,
        page: PageId,
        tag: u8,
        now: Micros,
        io_done: Micros,
    ) {
        let i = f as usize;
        self.page[i] = page;
        self.access_us[i] = 0;
        self.io_done_us[i] = io_done;
        self.pending_reads(now);
        self.add_pending(io_done);
        self.lru.set_tag(f, tag);
        self.lru.clear_stamp(f);
        let w = &mut self.lru.adjust;
        if !w.fresh_until.is_empty() {
            // What-if slide-spares-fresh: not accessed yet, so protected until its first access.
            w.fresh_until[i] = Micros::MAX;
            w.note_time(now);
        }
        self.lru.add_block(f, true);
    }

    /// A read in flight until `io_done`, in completion order.
    #[inline]
    fn add_pending(&mut self, io_done: Micros) {
        let mut at = self.pending.len();
        while at > 0 && self.pending[at - 1] > io_done {
            at -= 1;
        }
        if at == self.pending.len() {
            // The usual case: a read issued later completes later.
            self.pending.push_back(io_done);
        } else {
            self.pending.insert(at, io_done);
        }
    }

    /// Linear read-ahead's reads of the pages of `pages` (one area of `space`) not in the pool,
    /// issued at `now`, the `j`-th (from 1) done at `done(j)`, when every read evicts a tail page
    /// and neither the eviction nor the insert moves `LRU_old`: what [`Self::evict`] of the tail
    /// and [`Self::insert_read`] into the frame just freed do for each, done for all at once.
    /// `victims` are the `k` tail frames, the tail first (`k` = the pages of `pages` not in the
    /// pool); the caller has checked that the free list is empty, that they are replaceable and
    /// hold no page of `pages`, and `Lru::pairs_keep_boundary(k)`. `base` is the instance's
    /// first global frame number.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn read_into_tail_frames(
        &mut self,
        spaces: &mut [super::Space],
        base: u32,
        space: u32,
        pages: std::ops::Range<u32>,
        victims: &[u32],
        now: Micros,
        done: impl Fn(u32) -> Micros,
    ) {
        let k = victims.len() as u32;
        debug_assert!(k > 0);
        self.pending_reads(now);
        // The reads complete in the order they are issued (`done` does not decrease): when the
        // first completes no earlier than every read in flight, each goes at the back.
        let in_order = self.pending.back().is_none_or(|&b| b <= done(1));
        // The per-frame arrays cut to one length, so that one bounds check per frame covers them.
        let n = self.page.len();
        let (page, access) = (&mut self.page[..n], &mut self.access_us[..n]);
        let io_done_us = &mut self.io_done_us[..n];
        // The evictions first (buf_LRU_free_from_common_LRU_list → buf_LRU_free_page), tail
        // first: none of the evicted pages is one of the area's (the caller checked), so their
        // page-table entries and the area's are apart, and the order of the two passes does not
        // matter.
        let mut never_accessed = 0u64;
        for &f in victims {
            let i = f as usize;
            never_accessed += (access[i] == 0) as u64;
            let gone = page[i];
            spaces[gone.space as usize].frame_of[gone.page_no as usize] = NIL;
        }
        self.stats.ra_pages_evicted += never_accessed;
        self.stats.evicted_by_user += k as u64;
        // The reads into the same frames, tail first, in the area's order (buf_page_init_for_read).
        let start = pages.start;
        let frame_of =
            &mut spaces[space as usize].frame_of[pages.start as usize..pages.end as usize];
        let mut free = victims.iter();
        let mut times = [0; 64];
        let mut j = 0usize;
        for (page_no, slot) in (start..).zip(frame_of.iter_mut()) {
            if *slot != NIL {
                continue;
            }
            let Some(&f) = free.next() else { break };
            let i = f as usize;
            page[i] = PageId { space, page_no };
            access[i] = 0;
            let io_done = done(j as u32 + 1);
            io_done_us[i] = io_done;
            times[j] = io_done;
            j += 1;
            *slot = base + f;
        }
        debug_assert_eq!(j, victims.len());
        let times = &times[..j];
        if in_order {
            self.pending.extend(times.iter().copied());
        } else {
            for &t in times {
                self.add_pending(t);
            }
        }
        // A fresh read's clock stamp is 0 (add_block does not stamp a page inserted old).
        self.lru.reset_for_read(victims, spaces[space as usize].tag);
        let first = victims[victims.len() - 1];
        self.lru.splice_tail_after_old(first, k);
    }

    /// Inserts a created page into frame `f` at the head, accessed at `now` (`buf_page_create`).
    pub(crate) fn insert_created(&mut self, f: u32, page: PageId, tag: u8, now: Micros) {
        let i = f as usize;
        self.page[i] = page;
        self.access_us[i] = now.max(1);
        self.io_done_us[i] = 0;
        self.lru.set_tag(f, tag);
        self.lru.clear_stamp(f);
        self.lru.add_block(f, false);
    }

    /// `buf_LRU_free_page` → `buf_LRU_block_remove_hashed`: the page leaves the LRU list, the
    /// eviction clock goes up, the frame goes to the free list. Returns the evicted page.
    pub(crate) fn evict(&mut self, f: u32) -> PageId {
        self.lru.remove_block(f);
        self.lru.bump_freed_page_clock();
        self.access_us[f as usize] = 0;
        self.free.push(f);
        self.page[f as usize]
    }

    /// `buf_LRU_free_from_common_LRU_list`: the first replaceable page from the tail, scanning
    /// 100 pages, then (`scan_all`) the whole list. io-fixed pages are passed over.
    pub(crate) fn find_victim(&self, now: Micros) -> Option<u32> {
        self.find_victim_within(now, u32::MAX)
    }

    /// `buf_LRU_free_from_common_LRU_list` with a scan limit (`scan_all` off: 100 pages).
    pub(crate) fn find_victim_within(&self, now: Micros, limit: u32) -> Option<u32> {
        let mut n = 0u32;
        let mut f = self.lru.tail();
        while f != NIL && n < limit {
            if self.is_replaceable(f, now) {
                return Some(f);
            }
            n += 1;
            f = self.lru.prev(f);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extent_maps_to_one_instance() {
        for space in 0..4 {
            for ext in 0..50u32 {
                let first = instance_no(
                    PageId {
                        space,
                        page_no: ext * 64,
                    },
                    8,
                );
                for p in 1..64 {
                    assert_eq!(
                        instance_no(
                            PageId {
                                space,
                                page_no: ext * 64 + p
                            },
                            8
                        ),
                        first
                    );
                }
            }
        }
        // and the extents spread over instances
        let used: std::collections::BTreeSet<u32> = (0..64u32)
            .map(|e| {
                instance_no(
                    PageId {
                        space: 5,
                        page_no: e * 64,
                    },
                    8,
                )
            })
            .collect();
        assert!(used.len() >= 6, "{used:?}");
    }

    #[test]
    fn read_ahead_area_follows_pool_size() {
        assert_eq!(Instance::new(16_382, 37).read_ahead_area(), 64);
        assert_eq!(Instance::new(2_048, 37).read_ahead_area(), 64);
        assert_eq!(Instance::new(1_000, 37).read_ahead_area(), 32);
        assert_eq!(Instance::new(10, 37).read_ahead_area(), 1);
    }
}
