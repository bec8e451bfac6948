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
use midpoint_core::scenario::schema::OLD_BLOCKS_PCT;

/// The latest trace time the policy keeps apart, µs (2⁶⁰ µs, some 36,000 years).
pub const MAX_T: u64 = 1 << 60;

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
    batches_run: u64,
}

impl Innodb {
    /// Whether the policy takes a cache of `pages` pages: 2 at least, and at most a midpoint
    /// trace's largest pool. The pool is allocated whole (about 80 bytes a frame), so that a cache
    /// size that costs a lazy policy nothing cannot ask for 300 GiB here.
    pub fn check_pages(pages: u32) -> Result<(), String> {
        if pages < 2 {
            return Err("the innodb policy needs a cache of at least 2 pages".into());
        }
        let max = crate::replay::MAX_TRACE_POOL_PAGES;
        if pages > max {
            return Err(format!(
                "the innodb policy's cache is at most {} pages (64 GiB of 16 KiB pages, as a midpoint trace's pool); {pages} asked for",
                midpoint_core::scenario::schema::group(max as u64)
            ));
        }
        Ok(())
    }

    /// A pool of `pages` frames (one instance) over object ids `0..universe`.
    pub fn new(pages: u32, universe: u32, cfg: InnodbConfig) -> Result<Self, String> {
        Innodb::check_pages(pages)?;
        let (lo, hi) = OLD_BLOCKS_PCT.int_range().expect("a whole number");
        if !(lo..=hi).contains(&(cfg.old_blocks_pct as u64)) {
            return Err(format!("innodb_old_blocks_pct must be {lo}..{hi}"));
        }
        let pc = PoolConfig::default()
            .with_frames(pages, 1)
            .with_lru(
                cfg.old_blocks_pct,
                cfg.old_blocks_time_ms,
                cfg.lru_scan_depth.max(1),
            )
            .without_io();
        Ok(Innodb {
            pool: BufferPool::new(pc, &[universe.max(1)]),
            universe,
            cleaner: cfg.cleaner_every_second,
            next_tick: None,
            last_t: 1,
            batches_run: 0,
        })
    }

    /// The pool (for its counters and lists).
    pub fn pool(&self) -> &BufferPool {
        &self.pool
    }

    /// LRU batches actually executed (the rest of the batches counted in the pool's
    /// `lru_batches` were idle ones, skipped): at most about two per request, whatever the
    /// gaps between the requests' timestamps.
    pub fn batches_run(&self) -> u64 {
        self.batches_run
    }

    /// The page cleaner's one-second rounds due up to `t`: one LRU batch per round
    /// (`buf_flush_page_coordinator_thread`), over an idle gap only as many as change anything.
    ///
    /// Between two requests nothing but the batches touches the pool, and a page is never
    /// io-fixed past its request (reads complete at once) nor dirty (no write path), so a
    /// batch that evicts nothing leaves the lists as it found them and every later batch of
    /// the same gap would evict nothing too: those are counted, not run, and the last one is
    /// run at its own time. A gap of 2³² s thus costs a few batches, not 2³².
    fn run_cleaner_until(&mut self, t: u64) {
        let tick = self.next_tick.get_or_insert(t + SEC);
        while t >= *tick {
            let at = *tick;
            *tick += SEC;
            let idle = self
                .pool
                .lru_batch_all(at)
                .iter()
                .all(|b| b.evicted == 0 && b.flushed == 0);
            self.batches_run += 1;
            if idle && t >= *tick + SEC {
                // Rounds at tick, tick + 1 s, ..., up to t; all but the last are skipped.
                let skipped = (t - *tick) / SEC;
                *tick += skipped * SEC;
                for inst in &mut self.pool.instances {
                    inst.stats.lru_batches += skipped;
                }
            }
        }
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
        // The pool's clock never runs backwards, and 0 means "never accessed"; times past
        // MAX_T (half a million years) are taken as MAX_T, so that the rounds' clock cannot
        // overflow.
        let t = t_us.min(MAX_T).max(self.last_t);
        self.last_t = t;
        if self.cleaner {
            self.run_cleaner_until(t);
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

    /// The rounds one at a time, as before idle gaps were skipped: the reference.
    struct Stepwise {
        p: Innodb,
    }
    impl Stepwise {
        fn access(&mut self, id: u32, t_us: u64) -> bool {
            let t = t_us.max(self.p.last_t);
            let tick = self.p.next_tick.get_or_insert(t + SEC);
            while t >= *tick {
                let at = *tick;
                *tick += SEC;
                self.p.pool.lru_batch_all(at);
            }
            self.p.cleaner = false;
            let hit = self.p.access(id, t, super::super::NEVER);
            self.p.cleaner = true;
            hit
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        /// Skipping the idle rounds of a gap changes nothing: every hit, every resident page
        /// and the pool's counters equal those of running every round, for gaps of up to a
        /// minute (the stepwise reference runs them all) and any scan depth.
        #[test]
        fn skipping_idle_rounds_equals_running_them(
            reqs in proptest::collection::vec((0u32..600, 0u64..3, 0u64..60_000_000), 1..400),
            pages in 2u32..400,
            depth in 1u32..300,
        ) {
            let c = InnodbConfig { lru_scan_depth: depth, ..InnodbConfig::default() };
            let mut fast = Innodb::new(pages, 600, c).unwrap();
            let mut slow = Stepwise { p: Innodb::new(pages, 600, c).unwrap() };
            let mut t = SEC;
            for &(id, kind, gap) in &reqs {
                // Mostly same-second requests, some short gaps, some long ones.
                t += match kind { 0 => 0, 1 => gap % 3_000_000, _ => gap };
                proptest::prop_assert_eq!(fast.access(id, t, super::super::NEVER), slow.access(id, t));
            }
            for id in 0..600 {
                proptest::prop_assert_eq!(fast.contains(id), slow.p.contains(id));
            }
            proptest::prop_assert_eq!(fast.pool().stats().lru_batches, slow.p.pool().stats().lru_batches);
            proptest::prop_assert_eq!(fast.pool().stats(), slow.p.pool().stats());
            proptest::prop_assert_eq!(fast.pool().free_len(), slow.p.pool().free_len());
            proptest::prop_assert!(fast.batches_run() <= 3 * reqs.len() as u64);
        }
    }

    #[test]
    fn a_gap_of_two_to_the_32_seconds_runs_a_few_batches() {
        let mut p = Innodb::new(500, 10, InnodbConfig::default()).unwrap();
        p.access(0, 0, super::super::NEVER);
        p.access(1, 4_294_967_295 * SEC, super::super::NEVER);
        assert!(p.batches_run() <= 2, "{}", p.batches_run());
        // Every one-second round of the gap is counted, as if run.
        assert_eq!(p.pool().stats().lru_batches, 4_294_967_295 - 1);
        // The end of time neither overflows nor loops.
        p.access(2, u64::MAX, super::super::NEVER);
        p.access(3, u64::MAX, super::super::NEVER);
        assert!(p.batches_run() <= 4, "{}", p.batches_run());
    }
}
