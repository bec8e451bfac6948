//! The buffer pool: instances, each with an LRU list and a free list, and the page table.
//!
//! Everything InnoDB keeps per instance lives in [`Instance`]; the page table (which frame holds
//! a page) is a dense array per tablespace, so a lookup is two indexings, never a hash map.

pub mod adaptive_flush;
pub mod doublewrite;
pub mod flush;
pub mod flush_list;
pub mod free_list;
pub mod instance;
pub mod lru;
pub mod page_cleaner;
pub mod read_ahead;
pub mod redo_log;
pub mod scan_run;
pub mod storage;
mod tag_count;
pub mod validate;
pub mod what_if;

use crate::clock::{Micros, MS};
pub use instance::{Instance, OldTimeRange, Stats};
pub use lru::{Lru, NIL};
pub use page_cleaner::EngineProfile;
pub use storage::{IoKind, IoStats, Storage};
pub use what_if::{WhatIf, WhatIfs};

/// A page of a tablespace. `space` indexes [`BufferPool::spaces`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PageId {
    pub space: u32,
    pub page_no: u32,
}

/// `Page_fetch`: how a page is requested.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FetchMode {
    /// B-tree access, row scans included: may make the page young.
    Normal,
    /// The parallel reader (`COUNT(*)`, `CHECK TABLE`): never makes the page young.
    Scan,
}

/// What a fetch did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fetch {
    /// The page was accessed; the thread resumes at `ready_at` (later than `now` if it had to
    /// read the page or wait for a read in flight). `hit` is false when this fetch read it.
    Done { hit: bool, ready_at: Micros },
    /// No frame could be freed (every candidate is io-fixed); retry at `retry_at`.
    NoFreeFrame { retry_at: Micros },
}

/// Static settings of one pool.
#[derive(Clone, Debug, PartialEq)]
pub struct PoolConfig {
    /// `curr_size` of each instance, in pages.
    pub frames_per_instance: u32,
    /// `innodb_buffer_pool_instances`.
    pub instances: u32,
    /// `innodb_old_blocks_pct`.
    pub old_blocks_pct: u32,
    /// `innodb_old_blocks_time`, ms.
    pub old_blocks_time_ms: u32,
    /// `innodb_lru_scan_depth` (per instance).
    pub lru_scan_depth: u32,
    /// `innodb_read_ahead_threshold` (0 turns linear read-ahead off).
    pub read_ahead_threshold: u32,
    /// Latency of one page read, µs.
    pub read_latency_us: Micros,
    /// Extra time per page of a multi-page (read-ahead) burst, µs.
    pub page_transfer_us: Micros,
    /// Candidate rule changes (none: stock MySQL 8.4).
    pub what_ifs: WhatIfs,
}

// `PoolConfig::default()` is the stock scenario's pool: it is built from the parameters' schema
// (`scenario::Params::pool_config`), where every default is written once.
impl PoolConfig {
    /// The same settings on `instances` instances of `frames_per_instance` frames each.
    pub fn with_frames(mut self, frames_per_instance: u32, instances: u32) -> PoolConfig {
        self.frames_per_instance = frames_per_instance;
        self.instances = instances;
        self
    }

    /// The same pool with these LRU variables (`innodb_old_blocks_pct`,
    /// `innodb_old_blocks_time` in ms, `innodb_lru_scan_depth`).
    pub fn with_lru(
        mut self,
        old_blocks_pct: u32,
        old_blocks_time_ms: u32,
        lru_scan_depth: u32,
    ) -> PoolConfig {
        self.old_blocks_pct = old_blocks_pct;
        self.old_blocks_time_ms = old_blocks_time_ms;
        self.lru_scan_depth = lru_scan_depth;
        self
    }

    /// The same pool with these rule changes.
    pub fn with_what_ifs(mut self, what_ifs: WhatIfs) -> PoolConfig {
        self.what_ifs = what_ifs;
        self
    }

    /// The same pool as a trace replay models it: no linear read-ahead and reads that take no
    /// time (a trace has no clock for them).
    pub fn without_io(mut self) -> PoolConfig {
        self.read_ahead_threshold = 0;
        self.read_latency_us = 0;
        self.page_transfer_us = 0;
        self
    }
}

/// A tablespace: its size and where each of its pages sits in the pool.
#[derive(Clone, Debug)]
pub struct Space {
    /// Pages in the tablespace.
    pub n_pages: u32,
    /// Tag used for metrics and colours (usually the space's own index).
    pub tag: u8,
    /// Global frame number holding each page, or `NIL`.
    frame_of: Vec<u32>,
}

/// The whole buffer pool.
#[derive(Clone, Debug)]
pub struct BufferPool {
    cfg: PoolConfig,
    /// The instances, each an independent LRU/free list pair.
    pub instances: Vec<Instance>,
    spaces: Vec<Space>,
    /// MariaDB 10.11.7+: user threads wake the page cleaner when they leave the free list short
    /// (`buf_LRU_get_free_block`, `got_block`). Off for MySQL 8.4.
    demand_refills: bool,
    /// A user thread signalled `buf_pool.do_flush_list` since the last [`Self::take_cleaner_wake`].
    wake_signalled: bool,
    /// `buf_pool.page_cleaner_active()`: a page-cleaner batch is running.
    cleaner_active: bool,
    /// The engine's timings and MariaDB's free-block path switch.
    profile: EngineProfile,
    /// MariaDB `buf_pool.try_LRU_scan`: cleared by a reader whose tail scan failed, set again
    /// whenever a block goes to the free list (`buf_LRU_block_free_non_file_page`).
    try_lru_scan: bool,
    /// MariaDB `buf_pool.lru_scan_itr`: where the next reader's tail scan starts (the frame and
    /// the page it held); `None` = the tail.
    lru_scan_itr: Option<(u32, PageId)>,
    /// CPU time the current fetch spent in readers' tail scans, added to its ready time.
    scan_cost_us: Micros,
    /// When a reader waiting for a freed block (MariaDB) looks at the free list again.
    wait_retry_at: Option<Micros>,
    /// The page the user thread now in `buf_LRU_get_free_block` wants a frame for: a thread
    /// that retries asks for the same page, so its `n_iterations` is kept by page (write path).
    requesting: Option<PageId>,
    /// The write path (dirty pages, doublewrite, device, redo), when a scenario writes.
    pub(crate) write: Option<Box<flush::WritePath>>,
    /// Whether the exact shortcuts run (read-ahead's reads of an area at once), and how often
    /// they ran.
    shortcuts: Shortcuts,
}

/// The exact shortcuts' switch (off only for tests that compare them with the page-by-page
/// path) and tally. Left out of `Debug`, so that a pool that took them prints as one that did
/// not.
#[derive(Clone, Copy)]
struct Shortcuts {
    on: bool,
    areas: u64,
    /// Pages a table scan read in runs of resident pages (`scan_resident_run`).
    run_pages: u64,
}

impl std::fmt::Debug for Shortcuts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("..")
    }
}

impl BufferPool {
    /// A pool with every frame free, and tablespaces of the given sizes (space `i` gets tag `i`).
    pub fn new(cfg: PoolConfig, space_sizes: &[u32]) -> Self {
        let instances = (0..cfg.instances.max(1))
            .map(|_| {
                let mut inst = Instance::new(cfg.frames_per_instance, cfg.old_blocks_pct);
                let n = inst.size() as usize;
                let a = &mut inst.lru.adjust;
                a.count_free_as_old = cfg.what_ifs.has(WhatIf::FreeFramesCountAsOld);
                if cfg.what_ifs.has(WhatIf::SlideSparesFresh) {
                    a.fresh_until = vec![0; n];
                    a.max_excess = cfg.lru_scan_depth;
                    a.window_us = cfg.old_blocks_time_ms as Micros * MS;
                }
                inst
            })
            .collect();
        let spaces = space_sizes
            .iter()
            .enumerate()
            .map(|(i, &n)| Space {
                n_pages: n,
                tag: i.min(255) as u8,
                frame_of: vec![NIL; n as usize],
            })
            .collect();
        BufferPool {
            cfg,
            instances,
            spaces,
            demand_refills: false,
            wake_signalled: false,
            cleaner_active: false,
            profile: EngineProfile::default(),
            try_lru_scan: true,
            lru_scan_itr: None,
            scan_cost_us: 0,
            wait_retry_at: None,
            requesting: None,
            write: None,
            shortcuts: Shortcuts {
                on: true,
                areas: 0,
                run_pages: 0,
            },
        }
    }

    /// Turns the exact shortcuts off (or on again): every read of a linear read-ahead then
    /// evicts and inserts one page at a time. The results are the same either way
    /// (`tests/fast_paths.rs` holds them to it); only tests turn them off.
    pub fn set_shortcuts(&mut self, on: bool) {
        self.shortcuts.on = on;
    }
    /// How many read-ahead areas were read at once (`read_area_by_pairs`).
    pub fn areas_read_at_once(&self) -> u64 {
        self.shortcuts.areas
    }
    /// How many pages a table scan read in runs of resident pages (`scan_resident_run`).
    pub fn pages_read_in_runs(&self) -> u64 {
        self.shortcuts.run_pages
    }

    /// The pool's settings.
    pub fn config(&self) -> &PoolConfig {
        &self.cfg
    }
    /// The tablespaces.
    pub fn spaces(&self) -> &[Space] {
        &self.spaces
    }
    /// Total frames in the pool.
    pub fn total_frames(&self) -> u32 {
        self.cfg.frames_per_instance * self.instances.len() as u32
    }

    /// `buf_pool_get`: the instance that owns a page (all 64 pages of an extent share one).
    pub fn instance_of(&self, page: PageId) -> usize {
        instance::instance_no(page, self.instances.len() as u32) as usize
    }

    /// Splits a global frame number into (instance, local frame).
    #[inline]
    pub fn split_frame(&self, g: u32) -> (usize, u32) {
        if self.instances.len() == 1 {
            // The common case skips two integer divisions on the hot path.
            return (0, g);
        }
        let n = self.cfg.frames_per_instance;
        ((g / n) as usize, g % n)
    }

    /// The global frame holding `page`, if it is in the pool.
    #[inline]
    pub fn frame_of(&self, page: PageId) -> Option<u32> {
        let g = self.spaces[page.space as usize].frame_of[page.page_no as usize];
        (g != NIL).then_some(g)
    }

    /// Whether a page is in the pool.
    pub fn contains(&self, page: PageId) -> bool {
        self.frame_of(page).is_some()
    }

    /// The page held by a global frame, if any.
    pub fn page_at(&self, g: u32) -> Option<PageId> {
        let (i, f) = self.split_frame(g);
        let inst = &self.instances[i];
        inst.lru.contains(f).then(|| inst.page(f))
    }

    /// Whether the page in global frame `g` is flagged old.
    pub fn is_old(&self, g: u32) -> bool {
        let (i, f) = self.split_frame(g);
        self.instances[i].lru.is_old(f)
    }

    /// Sets `innodb_old_blocks_pct` at run time (`SET GLOBAL`): the boundary moves at once.
    pub fn set_old_blocks_pct(&mut self, pct: u32) {
        self.cfg.old_blocks_pct = pct;
        let r = lru::old_ratio_from_pct(pct);
        for inst in &mut self.instances {
            inst.lru.set_ratio(r);
        }
    }
    /// The values of `innodb_old_blocks_time` that would have decided every access so far as
    /// this run's value did ([`OldTimeRange`], over every instance).
    pub fn old_blocks_time_range(&self) -> OldTimeRange {
        self.instances
            .iter()
            .fold(OldTimeRange::default(), |r, i| r.meet(&i.old_time_range))
    }
    /// Sets `innodb_old_blocks_time` at run time.
    pub fn set_old_blocks_time_ms(&mut self, ms: u32) {
        self.cfg.old_blocks_time_ms = ms;
        if self.cfg.what_ifs.has(WhatIf::SlideSparesFresh) {
            // Only that what-if reads it (as `PoolConfig` sets it in `new`).
            for inst in &mut self.instances {
                inst.lru.adjust.window_us = ms as Micros * MS;
            }
        }
    }
    /// Sets `innodb_lru_scan_depth` at run time.
    pub fn set_lru_scan_depth(&mut self, depth: u32) {
        self.cfg.lru_scan_depth = depth;
        for inst in &mut self.instances {
            inst.lru.adjust.max_excess = depth;
        }
    }
    /// The what-ifs this pool runs with.
    pub fn what_ifs(&self) -> WhatIfs {
        self.cfg.what_ifs
    }

    fn set_frame_of(&mut self, page: PageId, g: u32) {
        self.spaces[page.space as usize].frame_of[page.page_no as usize] = g;
    }

    /// Evicts the page in local frame `f` of instance `i` (`buf_LRU_free_page`): out of the LRU
    /// (clock +1), out of the page table, frame to the free list.
    pub(crate) fn free_page(&mut self, i: usize, f: u32) {
        let page = self.instances[i].evict(f);
        self.set_frame_of(page, NIL);
        // MariaDB buf_LRU_block_free_non_file_page: a block on the free list re-enables scans.
        self.try_lru_scan = true;
    }

    /// `buf_LRU_get_free_block` for a user thread: a free frame, else the first replaceable page
    /// from the tail (`buf_LRU_scan_and_free_block`: 100 pages, then the whole list).
    fn get_free_block(&mut self, i: usize, now: Micros) -> Option<u32> {
        self.instances[i].lru.adjust.note_time(now);
        let f = match self.instances[i].free.pop() {
            Some(f) => {
                if self.cfg.what_ifs.has(WhatIf::UserReplacesFreeFrame) {
                    self.replace_free_frame(i, now);
                }
                f
            }
            None if self.profile.user_lru_scan => self.mariadb_scan_or_wait(i, now)?,
            None => {
                if self.write.is_none()
                    && self.cfg.what_ifs.has(WhatIf::EmptyFreeListWakesCleaner)
                    && !self.cleaner_active
                {
                    // What-if empty-free-list-wakes-cleaner (changes buf_LRU_get_free_block:
                    // os_event_set(buf_flush_event) before the tail scan, not after it fails).
                    self.wake_signalled = true;
                }
                let victim = if self.write.is_none() {
                    self.instances[i].find_victim(now)?
                } else {
                    self.victim_or_single_flush(i, now)?
                };
                // buf_LRU_free_from_common_LRU_list: only the user thread's scan counts
                // n_ra_pages_evicted.
                if self.instances[i].access_time(victim) == 0 {
                    self.instances[i].stats.ra_pages_evicted += 1;
                }
                self.free_page(i, victim);
                self.instances[i].stats.evicted_by_user += 1;
                self.instances[i].free.pop()?
            }
        };
        if self.demand_refills {
            self.got_block(i);
        }
        self.forget_free_block_loop();
        Some(f)
    }

    /// What-if user-replaces-free-frame (changes `buf_LRU_get_free_block`): having taken a frame
    /// from a free list that now holds fewer than `innodb_lru_scan_depth`, the user thread frees
    /// the first clean, unfixed page among the last 100 of the LRU list (the first pass of
    /// `buf_LRU_scan_and_free_block`) in its place, as long as the list is longer than
    /// `BUF_LRU_MIN_LEN`. If none is replaceable, nothing happens.
    fn replace_free_frame(&mut self, i: usize, now: Micros) {
        let inst = &self.instances[i];
        if inst.free.len() >= self.cfg.lru_scan_depth || inst.lru.len() <= page_cleaner::LRU_MIN_LEN
        {
            return;
        }
        if let Some(v) = inst.find_victim_within(now, instance::SEARCH_SCAN_THRESHOLD) {
            self.free_page(i, v);
            self.instances[i].stats.evicted_by_user += 1;
        }
    }

    /// MariaDB 10.11.7+ `buf_LRU_get_free_block`, `got_block`: with the block taken, if fewer
    /// than `innodb_lru_scan_depth / 2` frames are left free and the LRU list is longer than
    /// `BUF_LRU_MIN_LEN`, wake the page cleaner unless it is already running a batch
    /// (`page_cleaner_active()` → `page_cleaner_wakeup(true)`).
    fn got_block(&mut self, i: usize) {
        let inst = &self.instances[i];
        if inst.free.len() < self.cfg.lru_scan_depth / 2
            && inst.lru.len() > page_cleaner::LRU_MIN_LEN
            && !self.cleaner_active
        {
            self.wake_signalled = true;
        }
    }

    /// MariaDB 10.11.7+ `buf_LRU_get_free_block` with the free list empty. If `try_LRU_scan` is
    /// set, `buf_LRU_scan_and_free_block(100)` → `buf_LRU_free_from_common_LRU_list`: from
    /// `buf_pool.lru_scan_itr` (the tail, or where the last scan stopped if that page is still
    /// old) toward the head, frees the first clean, unfixed page, at most 100 pages looked at;
    /// the reader pays `evict_us_per_page` per page looked at. If none is found it clears
    /// `try_LRU_scan` (other readers then skip the scan), wakes the cleaner unless a batch runs
    /// (`page_cleaner_wakeup(true)`) and waits on `buf_pool.done_free` for a freed block.
    fn mariadb_scan_or_wait(&mut self, i: usize, now: Micros) -> Option<u32> {
        self.instances[i].stats.lru_get_free_loops += 1;
        if self.try_lru_scan {
            let mut f = match self.lru_scan_itr {
                Some((g, page)) if self.page_at(g) == Some(page) && self.is_old(g) => g,
                _ => self.instances[i].lru.tail(),
            };
            let mut scanned = 0u32;
            let mut freed = false;
            while f != NIL && scanned < instance::SEARCH_SCAN_THRESHOLD {
                let prev = self.instances[i].lru.prev(f);
                self.lru_scan_itr = self.page_at(prev).map(|p| (prev, p));
                scanned += 1;
                if self.instances[i].is_replaceable(f, now) {
                    if self.instances[i].access_time(f) == 0 {
                        self.instances[i].stats.ra_pages_evicted += 1;
                    }
                    self.free_page(i, f);
                    self.instances[i].stats.evicted_by_user += 1;
                    freed = true;
                    break;
                }
                f = prev;
            }
            self.instances[i].stats.lru_search_scanned += scanned as u64;
            self.scan_cost_us += scanned as Micros * self.profile.evict_us_per_page;
            if freed {
                return self.instances[i].free.pop();
            }
            self.try_lru_scan = false;
        }
        // Wait on buf_pool.done_free: polled at the cleaner's next chunk (a batch running) or
        // after its wake-up latency (asleep, woken now).
        self.instances[i].stats.lru_waits += 1;
        let after = if self.cleaner_active {
            self.profile.mutex_release_every as Micros * self.profile.evict_us_per_page
        } else {
            self.wake_signalled = true;
            self.profile.wake_latency_us + self.profile.evict_us_per_page
        };
        let spent = std::mem::take(&mut self.scan_cost_us);
        self.wait_retry_at = Some(now + spent + after.max(1));
        None
    }

    /// The engine's values: demand-driven refills, MariaDB's free-block path and its timings.
    pub fn set_engine_profile(&mut self, profile: &EngineProfile) {
        self.profile = *profile;
        self.demand_refills = profile.demand_refills;
    }
    /// MariaDB `buf_pool.try_LRU_scan`.
    pub fn try_lru_scan(&self) -> bool {
        self.try_lru_scan
    }

    /// Turns MariaDB's demand-driven page-cleaner wake-ups on or off (the engine profile's choice).
    pub fn set_demand_refills(&mut self, on: bool) {
        self.demand_refills = on;
    }
    /// Whether user threads wake the page cleaner on demand (MariaDB 10.11.7+).
    pub fn demand_refills(&self) -> bool {
        self.demand_refills
    }
    /// Returns and clears a pending page-cleaner wake-up signal.
    pub fn take_cleaner_wake(&mut self) -> bool {
        std::mem::take(&mut self.wake_signalled)
    }
    /// Marks a page-cleaner batch as running or finished (`buf_pool.n_flush_inc/dec`).
    pub fn set_cleaner_active(&mut self, active: bool) {
        self.cleaner_active = active;
    }
    /// MariaDB's `buf_pool_t::need_LRU_eviction` for instance `i`: the LRU list is longer than
    /// `BUF_LRU_MIN_LEN` and fewer than `innodb_lru_scan_depth / 2` frames are free. (Its other
    /// clause, `!try_LRU_scan`, needs a failed user-thread tail scan, which the simulated
    /// read-only workloads never have.)
    pub fn need_lru_eviction(&self, i: usize) -> bool {
        let inst = &self.instances[i];
        inst.lru.len() > page_cleaner::LRU_MIN_LEN && inst.free.len() < self.cfg.lru_scan_depth / 2
    }

    /// `buf_page_init_for_read` + `buf_LRU_add_block(old = true)`: takes a frame and inserts the
    /// page at the midpoint, unaccessed, io-fixed until `io_done`. The read is issued at `now`.
    fn read_page_low(&mut self, page: PageId, now: Micros, io_done: Micros) -> Option<u32> {
        let i = self.instance_of(page);
        let f = self.get_free_block(i, now)?;
        let tag = self.spaces[page.space as usize].tag;
        self.instances[i].insert_read(f, page, tag, now, io_done);
        let g = i as u32 * self.cfg.frames_per_instance + f;
        self.set_frame_of(page, g);
        Some(g)
    }

    /// `buf_page_get_gen` (`Buf_fetch::single_page`) for one page at time `now`: on a miss a
    /// synchronous read into the midpoint, then the first-access stamp, the make-young decision
    /// (NORMAL only), and linear read-ahead on the page's first access.
    pub fn fetch(&mut self, page: PageId, mode: FetchMode, now: Micros) -> Fetch {
        // A wait left over from a read-ahead that stopped short is not this fetch's.
        self.wait_retry_at = None;
        self.scan_cost_us = 0;
        let (g, hit, t) = match self.frame_of(page) {
            Some(g) => {
                let (i, f) = self.split_frame(g);
                // A page io-fixed for a read in flight (read-ahead): wait for it.
                let t = now.max(self.instances[i].io_done(f));
                (g, true, t)
            }
            None => {
                let done = self.read_done(now, 1);
                self.requesting = Some(page);
                let read = self.read_page_low(page, now, done);
                self.requesting = None;
                match read {
                    Some(g) => {
                        let i = self.split_frame(g).0;
                        self.instances[i].stats.pages_read += 1;
                        (g, false, done)
                    }
                    None => {
                        let i = self.instance_of(page);
                        let retry_at = self
                            .take_retry_at()
                            .or_else(|| self.instances[i].next_io_completion(now))
                            .unwrap_or(now + MS);
                        return Fetch::NoFreeFrame { retry_at };
                    }
                }
            }
        };
        // A reader's own tail scans (MariaDB) delay it by their CPU time.
        let t = t + std::mem::take(&mut self.scan_cost_us);
        let (i, f) = self.split_frame(g);
        let obt = self.cfg.old_blocks_time_ms;
        let inst = &mut self.instances[i];
        inst.stats.page_gets += 1;
        if hit {
            inst.stats.hits += 1;
        }
        let was_unaccessed = inst.set_accessed(f, t);
        if mode == FetchMode::Normal {
            inst.make_young_if_needed(f, t, obt);
        }
        if was_unaccessed {
            // The page stays buffer-fixed while its own access triggers read-ahead.
            self.instances[i].fixed = f;
            self.read_ahead_linear(page, t);
            self.instances[i].fixed = NIL;
        }
        let t = t + std::mem::take(&mut self.scan_cost_us);
        Fetch::Done { hit, ready_at: t }
    }

    /// [`Self::fetch`] of the same page at each time `time_of(k)`, `k` in `0..n` (nondecreasing
    /// times), with nothing else happening in between: the scan's further cursor restores on the
    /// page it has just read. The result is exactly that of the `n` fetches in turn; once the
    /// page is resident, accessed and not io-fixed, and no remaining access could move it
    /// (`Instance::repeat_hits_in_place`), the remaining accesses are counted at once
    /// (`tests/fast_paths.rs` compares this with the fetches one by one).
    pub fn fetch_repeated(
        &mut self,
        page: PageId,
        mode: FetchMode,
        n: u32,
        time_of: impl Fn(u32) -> Micros,
    ) {
        let obt = self.cfg.old_blocks_time_ms;
        for k in 0..n {
            let t = time_of(k);
            if let Some(g) = self.frame_of(page) {
                let (i, f) = self.split_frame(g);
                let inst = &mut self.instances[i];
                let until = time_of(n - 1);
                debug_assert!(t <= until, "times must not decrease");
                if inst.access_time(f) != 0
                    && inst.io_done(f) <= t
                    && inst.repeat_hits_in_place(f, mode, until, obt, (n - k) as u64)
                {
                    // What each of those fetches leaves behind.
                    self.wait_retry_at = None;
                    self.scan_cost_us = 0;
                    return;
                }
            }
            let _ = self.fetch(page, mode, t);
        }
    }

    /// `buf_page_create`: a brand-new page (INSERT growth, a load) goes to the head, young,
    /// stamped, and accessed at once. Creating a page already in the pool just accesses it.
    pub fn create(&mut self, page: PageId, now: Micros) -> Fetch {
        if self.contains(page) {
            return self.fetch(page, FetchMode::Normal, now);
        }
        let i = self.instance_of(page);
        self.requesting = Some(page);
        let got = self.get_free_block(i, now);
        self.requesting = None;
        let Some(f) = got else {
            let retry_at = self
                .take_retry_at()
                .or_else(|| self.instances[i].next_io_completion(now))
                .unwrap_or(now + MS);
            return Fetch::NoFreeFrame { retry_at };
        };
        let tag = self.spaces[page.space as usize].tag;
        self.instances[i].insert_created(f, page, tag, now);
        let g = i as u32 * self.cfg.frames_per_instance + f;
        self.set_frame_of(page, g);
        Fetch::Done {
            hit: false,
            ready_at: now,
        }
    }

    /// Free frames across instances.
    pub fn free_len(&self) -> u32 {
        self.instances.iter().map(|i| i.free.len()).sum()
    }
    /// LRU pages across instances.
    pub fn lru_len(&self) -> u32 {
        self.instances.iter().map(|i| i.lru.len()).sum()
    }
    /// Old pages across instances.
    pub fn old_len(&self) -> u32 {
        self.instances.iter().map(|i| i.lru.old_len()).sum()
    }
    /// Counters summed over instances.
    pub fn stats(&self) -> Stats {
        let mut s = Stats::default();
        for inst in &self.instances {
            s.add(&inst.stats);
        }
        s
    }
    /// Eviction clocks summed over instances.
    pub fn freed_page_clock(&self) -> u64 {
        self.instances
            .iter()
            .map(|i| i.lru.freed_page_clock())
            .sum()
    }
    /// Pages the boundary turned young, per tag, over all instances.
    pub fn slid_young_by_tag(&self, tag: u8) -> u64 {
        self.instances
            .iter()
            .map(|i| {
                i.lru
                    .slides
                    .turned_young
                    .get(tag as usize)
                    .copied()
                    .unwrap_or(0)
            })
            .sum()
    }
    /// Of [`Self::slid_young_by_tag`]: pages turned young while the LRU list grew past its
    /// longest so far (the pool filling after a restart), per tag, over all instances.
    pub fn growth_slid_young_by_tag(&self, tag: u8) -> u64 {
        self.instances
            .iter()
            .map(|i| {
                i.lru
                    .slides
                    .growth_young
                    .get(tag as usize)
                    .copied()
                    .unwrap_or(0)
            })
            .sum()
    }
    /// Old pages promoted (made young on access), per tag, over all instances.
    pub fn promoted_by_tag(&self, tag: u8) -> u64 {
        self.instances
            .iter()
            .map(|i| {
                i.stats
                    .made_young_by_tag
                    .get(tag as usize)
                    .copied()
                    .unwrap_or(0)
            })
            .sum()
    }

    /// Resident pages of a space: (young, old).
    pub fn resident(&self, space: u32) -> (u32, u32) {
        self.resident_young_old(space, u32::MAX)
    }

    /// Resident pages of a space among pages `0..n`.
    pub fn resident_prefix(&self, space: u32, n: u32) -> u32 {
        let s = &self.spaces[space as usize];
        s.frame_of[..(n.min(s.n_pages) as usize)]
            .iter()
            .filter(|&&g| g != NIL)
            .count() as u32
    }

    /// Per-tag counts of young and old pages for the tags below `N`, over all instances. (The
    /// frames in the LRU lists, visited in frame order rather than list order: the same counts,
    /// without chasing links.)
    pub fn young_old_by_tag<const N: usize>(&self) -> [(u32, u32); N] {
        let mut v = [(0u32, 0u32); N];
        for inst in &self.instances {
            let c = inst.lru.young_old_by_tag::<N>();
            for ((young, old), [y, o]) in v.iter_mut().zip(c) {
                *young += y;
                *old += o;
            }
        }
        v
    }

    /// Pages `0..n` of `space` in the pool (all of it past its end): (young, old). One pass over
    /// the page table's slice, without branches on the flags (the sampler counts the hot set
    /// this way every sample).
    pub fn resident_young_old(&self, space: u32, n: u32) -> (u32, u32) {
        let table = &self.spaces[space as usize].frame_of;
        let (mut resident, mut old) = (0u32, 0u32);
        for &g in &table[..(n as usize).min(table.len())] {
            if g != NIL {
                let (i, f) = self.split_frame(g);
                resident += 1;
                old += self.instances[i].lru.is_old(f) as u32;
            }
        }
        (resident - old, old)
    }
}

/// MariaDB 10.11.7+'s free-block path, one test per rule of `buf_LRU_get_free_block`.
#[cfg(test)]
mod mariadb_free_block_tests {
    use super::*;

    const LAT: Micros = 270;

    fn mariadb_pool(latency: Micros) -> BufferPool {
        let mut p = BufferPool::new(
            PoolConfig {
                frames_per_instance: 600,
                read_ahead_threshold: 0,
                read_latency_us: latency,
                lru_scan_depth: 128,
                ..PoolConfig::default()
            },
            &[10_000],
        );
        p.set_engine_profile(&EngineProfile {
            demand_refills: true,
            wake_latency_us: 100,
            evict_us_per_page: 1,
            mutex_release_every: 32,
            user_lru_scan: true,
        });
        p
    }

    fn get(p: &mut BufferPool, page_no: u32, t: Micros) -> Fetch {
        p.fetch(PageId { space: 0, page_no }, FetchMode::Normal, t)
    }

    /// Fills all 600 frames, each read issued 1 µs after the last.
    fn fill(p: &mut BufferPool) {
        for k in 0..600 {
            assert!(matches!(get(p, k, 1 + k as Micros), Fetch::Done { .. }));
        }
        assert_eq!(p.free_len(), 0);
    }

    /// `buf_LRU_free_from_common_LRU_list`: a reader that finds the free list empty frees the
    /// first clean page from the tail itself and pays 1 µs per page it looked at.
    #[test]
    fn reader_frees_a_tail_page_itself_and_pays_for_the_scan() {
        let mut p = mariadb_pool(LAT);
        fill(&mut p);
        let tail_page = p.page_at(p.instances[0].lru.tail()).unwrap();
        let now = 1_000_000;
        let Fetch::Done { hit, ready_at } = get(&mut p, 700, now) else {
            panic!("a clean tail page was there to free");
        };
        assert!(!hit);
        assert_eq!(ready_at, now + LAT + 1, "one page looked at, 1 µs");
        assert!(!p.contains(tail_page));
        let s = p.stats();
        assert_eq!(
            (s.evicted_by_user, s.lru_search_scanned, s.lru_waits),
            (1, 1, 0)
        );
        assert!(p.try_lru_scan());
    }

    /// `buf_LRU_scan_and_free_block(100)`: at most 100 pages are looked at; when all are fixed
    /// the reader clears `try_LRU_scan`, wakes the cleaner and waits for a freed block.
    #[test]
    fn a_failed_scan_stops_at_100_pages_clears_try_lru_scan_and_waits() {
        // Reads take 10 s, so every page is still io-fixed.
        let mut p = mariadb_pool(10_000_000);
        fill(&mut p);
        let now = 1_000;
        let Fetch::NoFreeFrame { retry_at } = get(&mut p, 700, now) else {
            panic!("every page is io-fixed");
        };
        let s = p.stats();
        assert_eq!(s.lru_search_scanned, 100);
        assert_eq!(s.lru_waits, 1);
        assert!(!p.try_lru_scan());
        assert!(p.take_cleaner_wake(), "page_cleaner_wakeup(true)");
        // Woken cleaner: its wake-up latency plus one page's eviction, after the scan's 100 µs.
        assert_eq!(retry_at, now + 100 + 100 + 1);
    }

    /// `try_LRU_scan` cleared: the next reader goes straight to the wait, scanning nothing.
    #[test]
    fn with_try_lru_scan_cleared_readers_skip_the_scan() {
        let mut p = mariadb_pool(10_000_000);
        fill(&mut p);
        let _ = get(&mut p, 700, 1_000);
        p.take_cleaner_wake();
        // A batch is running: the reader polls at its next 32-page chunk and does not wake it.
        p.set_cleaner_active(true);
        let Fetch::NoFreeFrame { retry_at } = get(&mut p, 701, 2_000) else {
            panic!("still no free frame");
        };
        let s = p.stats();
        assert_eq!(s.lru_search_scanned, 100, "no second scan");
        assert_eq!(s.lru_waits, 2);
        assert!(!p.take_cleaner_wake());
        assert_eq!(retry_at, 2_000 + 32);
    }

    /// `buf_LRU_block_free_non_file_page`: any block freed to the free list sets
    /// `try_LRU_scan` again.
    #[test]
    fn a_freed_block_sets_try_lru_scan_again() {
        let mut p = mariadb_pool(10_000_000);
        fill(&mut p);
        let _ = get(&mut p, 700, 1_000);
        assert!(!p.try_lru_scan());
        let (evicted, ..) = p.lru_batch_chunk(0, 20_000_000, NIL, 32);
        assert!(evicted > 0);
        assert!(p.try_lru_scan());
    }

    /// `buf_pool.lru_scan_itr`: the next scan starts where the last one stopped while that page
    /// is still old, so pages passed over are not looked at again.
    #[test]
    fn the_scan_resumes_at_the_lru_scan_iterator() {
        let mut p = mariadb_pool(LAT);
        fill(&mut p);
        // Buffer-fix the tail page: the first scan passes it over and frees the next one.
        let tail = p.instances[0].lru.tail();
        p.instances[0].fixed = tail;
        let now = 1_000_000;
        assert!(matches!(get(&mut p, 700, now), Fetch::Done { .. }));
        assert_eq!(p.stats().lru_search_scanned, 2);
        // The second scan starts above the freed page, not at the fixed tail: one page.
        assert!(matches!(get(&mut p, 701, now + 1_000), Fetch::Done { .. }));
        assert_eq!(p.stats().lru_search_scanned, 3);
        assert!(p.contains(p.page_at(tail).unwrap()));
    }
}
