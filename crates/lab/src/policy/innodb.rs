//! InnoDB 8.4's midpoint LRU as a policy: the project's real buffer pool ([`midpoint_core::pool`]),
//! driven by the trace's clock.
//!
//! Every object is one page of one tablespace. A miss reads the page into the midpoint
//! (`buf_page_get_gen` → `buf_LRU_add_block(old = true)`), a hit on an old page makes it young
//! only once `innodb_old_blocks_time` has passed since its first access
//! (`buf_page_peek_if_too_old`), and the page cleaner's LRU batch (`buf_flush_LRU_list_batch`)
//! refills the free list once per second of trace time, as on a server whose activity counter
//! moves every second. A read completes at once (the trace's timestamps are all the time there
//! is), and linear read-ahead is off (trace objects are not extents of a tablespace).
//!
//! With timestamps of one-second resolution, every request of one second happens at the same
//! instant: a page's accesses within its first second never make it young (with the default
//! 1000 ms), one in the next second does, and the batch runs between two seconds.

use super::Policy;
use midpoint_core::clock::SEC;
use midpoint_core::pool::{BufferPool, Fetch, FetchMode, PageId, PoolConfig};

/// Settings of the InnoDB policy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InnodbConfig {
    /// `innodb_old_blocks_pct`.
    pub old_blocks_pct: u32,
    /// `innodb_old_blocks_time`, ms.
    pub old_blocks_time_ms: u32,
    /// `innodb_lru_scan_depth`.
    pub lru_scan_depth: u32,
    /// Run the page cleaner's LRU batch every second of trace time.
    pub cleaner_every_second: bool,
}

impl Default for InnodbConfig {
    fn default() -> Self {
        InnodbConfig {
            old_blocks_pct: 37,
            old_blocks_time_ms: 1000,
            lru_scan_depth: 1024,
            cleaner_every_second: true,
        }
    }
}

/// The real pool behind the [`Policy`] interface.
pub struct Innodb {
    pool: BufferPool,
    universe: u32,
    cleaner: bool,
    next_tick: Option<u64>,
    last_t: u64,
}

impl Innodb {
    /// A pool of `pages` frames (one instance) over object ids `0..universe`.
    pub fn new(pages: u32, universe: u32, cfg: InnodbConfig) -> Result<Self, String> {
        if pages < 2 {
            return Err("the innodb policy needs a cache of at least 2 pages".into());
        }
        if !(5..=95).contains(&cfg.old_blocks_pct) {
            return Err("innodb_old_blocks_pct must be 5..95".into());
        }
        let pc = PoolConfig {
            frames_per_instance: pages,
            instances: 1,
            old_blocks_pct: cfg.old_blocks_pct,
            old_blocks_time_ms: cfg.old_blocks_time_ms,
            lru_scan_depth: cfg.lru_scan_depth.max(1),
            read_ahead_threshold: 0,
            read_latency_us: 0,
            page_transfer_us: 0,
            what_ifs: midpoint_core::pool::WhatIfs::NONE,
        };
        Ok(Innodb {
            pool: BufferPool::new(pc, &[universe.max(1)]),
            universe,
            cleaner: cfg.cleaner_every_second,
            next_tick: None,
            last_t: 1,
        })
    }

    /// The pool (for its counters and lists).
    pub fn pool(&self) -> &BufferPool {
        &self.pool
    }
}

impl Policy for Innodb {
    fn name(&self) -> &'static str {
        "innodb"
    }
    #[inline]
    fn access(&mut self, id: u32, t_us: u64, _next: u64) -> bool {
        if id >= self.universe {
            return false;
        }
        // The pool's clock never runs backwards, and 0 means "never accessed".
        let t = t_us.max(self.last_t);
        self.last_t = t;
        if self.cleaner {
            let tick = self.next_tick.get_or_insert(t + SEC);
            while t >= *tick {
                let at = *tick;
                *tick += SEC;
                // buf_flush_page_coordinator_thread: one LRU batch per instance per round.
                self.pool.lru_batch_all(at);
            }
        }
        let page = PageId {
            space: 0,
            page_no: id,
        };
        match self.pool.fetch(page, FetchMode::Normal, t) {
            Fetch::Done { hit, .. } => hit,
            Fetch::NoFreeFrame { .. } => false,
        }
    }
    #[inline]
    fn prefetch(&self, id: u32) {
        // The pool's arrays are its own: load the page-table entry and the frame's LRU and
        // access stamps now (results unused), so that the loads of a batch overlap.
        if id < self.universe {
            let page = PageId {
                space: 0,
                page_no: id,
            };
            if let Some(g) = std::hint::black_box(self.pool.frame_of(page)) {
                let (i, f) = self.pool.split_frame(g);
                std::hint::black_box(self.pool.is_old(g));
                std::hint::black_box(self.pool.instances[i].access_time(f));
            }
        }
    }
    fn contains(&self, id: u32) -> bool {
        id < self.universe
            && self.pool.contains(PageId {
                space: 0,
                page_no: id,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(otime: u32, cleaner: bool) -> InnodbConfig {
        InnodbConfig {
            old_blocks_time_ms: otime,
            cleaner_every_second: cleaner,
            ..InnodbConfig::default()
        }
    }

    /// 2,000 frames filled with pages 0..2000 at 1 s; page 5000 evicts page 0 (the pool
    /// leaves its warm-up, where nothing is made young); pages 1..50 are touched again at
    /// `touch_at`; then 500 new pages arrive at 3 s.
    fn fill_touch_flood(touch_at: u64) -> Innodb {
        let mut p = Innodb::new(2000, 10_000, cfg(1000, false)).unwrap();
        for id in 0..2000 {
            assert!(!p.access(id, SEC + id as u64, super::super::NEVER));
        }
        assert!(!p.access(5000, SEC + 5_000, super::super::NEVER));
        assert!(!p.contains(0));
        for id in 1..50 {
            assert!(p.access(id, touch_at, super::super::NEVER));
        }
        for id in 2000..2500 {
            assert!(!p.access(id, 3 * SEC + id as u64, super::super::NEVER));
        }
        p
    }

    #[test]
    fn a_second_touch_within_old_blocks_time_leaves_the_page_old_and_it_leaves_first() {
        let p = fill_touch_flood(SEC + 10_000);
        assert!((1..50).all(|id| !p.contains(id)));
        assert!((2000..2500).all(|id| p.contains(id)));
    }

    #[test]
    fn a_second_touch_after_old_blocks_time_makes_the_page_young_and_keeps_it() {
        let p = fill_touch_flood(2 * SEC + 500_000);
        assert!((1..50).all(|id| p.contains(id)));
        assert!(!p.contains(50));
    }

    #[test]
    fn the_cleaner_runs_once_per_second_of_trace_time() {
        let mut p = Innodb::new(2000, 10_000, cfg(1000, true)).unwrap();
        for id in 0..2000 {
            p.access(id, SEC, super::super::NEVER);
        }
        assert_eq!(p.pool().free_len(), 0);
        // 1.5 s later: one batch ran (at 2 s) and refilled the free list to lru_scan_depth.
        p.access(5000, SEC + 1_500_000, super::super::NEVER);
        assert_eq!(p.pool().stats().lru_batches, 1);
        assert_eq!(p.pool().free_len(), 1024 - 1);
    }
}
