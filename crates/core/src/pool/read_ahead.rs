//! Linear read-ahead (`buf_read_ahead_linear`, buf/buf0rea.cc).
//!
//! On the first access of a page at the border of its read-ahead area, if enough of the area was
//! first-accessed in order, the whole neighbouring area is read asynchronously: its pages go to
//! the midpoint at once, unaccessed, io-fixed until their reads complete.
//!
//! The simulated tablespaces are B-trees whose leaf pages are physically in order, so a page's
//! `FIL_PAGE_PREV` is `page_no - 1` and its `FIL_PAGE_NEXT` is `page_no + 1` (none past the ends).

use super::{BufferPool, PageId};
use crate::clock::Micros;

impl BufferPool {
    /// `buf_read_ahead_linear`, called on the first access of `page` at time `now`. Returns the
    /// number of pages read.
    #[inline]
    pub fn read_ahead_linear(&mut self, page: PageId, now: Micros) -> u32 {
        if self.config().read_ahead_threshold == 0 {
            return 0;
        }
        let i = self.instance_of(page);
        let area = self.instances[i].read_ahead_area();
        // The area is a power of two (`Instance::new`): a mask instead of a division per page.
        debug_assert!(area.is_power_of_two());
        let low = page.page_no & !(area - 1);
        let high = low + area;
        if page.page_no != low && page.page_no != high - 1 {
            // Only an area's first or last page can trigger it: the common case, kept inline.
            return 0;
        }
        self.read_ahead_at_border(page, now, i, area, low, high)
    }

    /// The rest of `buf_read_ahead_linear` for a page at its area's border (`low` or `high - 1`).
    fn read_ahead_at_border(
        &mut self,
        page: PageId,
        now: Micros,
        i: usize,
        area: u32,
        low: u32,
        high: u32,
    ) -> u32 {
        let threshold_cfg = self.config().read_ahead_threshold;
        let n_pages = self.spaces()[page.space as usize].n_pages;
        if high > n_pages {
            return 0;
        }
        let n = self.instances[i].size();
        if self.instances[i].pending_reads(now) > n / 2 {
            // BUF_READ_AHEAD_PEND_LIMIT
            return 0;
        }
        // Ascending if we are at the area's last page, descending if at its first: a page
        // accessed after its neighbour in the other direction is out of order.
        let descending = page.page_no == low;
        let threshold = (64 - threshold_cfg.min(64)).min(area);
        let mut fail = 0u32;
        // The last accessed page's first-access time (0: none yet).
        let mut pred: Micros = 0;
        // The area lies in one extent, so in instance `i`: its frames are `base..`.
        let inst = &self.instances[i];
        let base = i as u32 * self.cfg.frames_per_instance;
        for &g in &self.spaces[page.space as usize].frame_of[low as usize..high as usize] {
            let t = if g == super::NIL {
                0
            } else {
                debug_assert_eq!(self.split_frame(g), (i, g - base));
                inst.access_time(g - base)
            };
            // Not accessed, or accessed out of order (equal times are in order either way).
            let out_of_order = pred != 0 && if descending { t > pred } else { t < pred };
            fail += (t == 0 || out_of_order) as u32;
            if fail > threshold {
                return 0;
            }
            if t != 0 {
                pred = t;
            }
        }
        // Read FIL_PAGE_PREV / FIL_PAGE_NEXT of the page (leaf pages in physical order).
        let pred_offset = page.page_no.checked_sub(1);
        let succ_offset = (page.page_no + 1 < n_pages).then_some(page.page_no + 1);
        let new_offset = if page.page_no == low && succ_offset == Some(page.page_no + 1) {
            pred_offset
        } else if page.page_no == high - 1 && pred_offset == Some(page.page_no.wrapping_sub(1)) {
            succ_offset
        } else {
            None
        };
        let Some(new_offset) = new_offset else {
            return 0;
        };
        let low = new_offset / area * area;
        let high = low + area;
        if new_offset != low && new_offset != high - 1 {
            return 0;
        }
        if high > n_pages {
            return 0;
        }
        let lat = self.config().read_latency_us;
        let per_page = self.config().page_transfer_us;
        let ii = self.instance_of(page);
        if let Some(count) = self.read_area_by_pairs(page.space, low..high, now) {
            self.instances[ii].stats.ra_pages_read += count as u64;
            return count;
        }
        let mut count = 0u32;
        for p in low..high {
            let q = PageId {
                space: page.space,
                page_no: p,
            };
            if self.contains(q) {
                continue;
            }
            // buf_read_page_low (async): the page is in the LRU list from now on.
            let done = now + lat + per_page * (count as Micros + 1);
            match self.read_page_low(q, now, done) {
                Some(_) => count += 1,
                None => break,
            }
        }
        self.instances[ii].stats.ra_pages_read += count as u64;
        count
    }

    /// The reads of an area (the loop above) at once, in the steady state of a scan through a
    /// full pool: the free list is empty, so each read evicts the tail page
    /// (`buf_LRU_get_free_block` → `buf_LRU_scan_and_free_block`) and inserts the new page
    /// right after `LRU_old` in the frame just freed (`buf_LRU_add_block(old = true)`). When the
    /// `k` tail pages are replaceable, hold no page of the area (whose eviction would add a read)
    /// and the `k` pairs leave the boundary where it is (`Lru::pairs_keep_boundary`), the
    /// result is the `k` tail frames moved as one block to right after `LRU_old`, holding the
    /// new pages in the order they were read. `None` (nothing changed) when any of that does not
    /// hold, or off the MySQL read-only path; the caller then reads page by page.
    /// `tests/fast_paths.rs` compares it with the page-by-page reads.
    fn read_area_by_pairs(
        &mut self,
        space: u32,
        pages: std::ops::Range<u32>,
        now: Micros,
    ) -> Option<u32> {
        if !self.shortcuts.on || self.write.is_some() || self.profile.user_lru_scan {
            return None;
        }
        let i = self.instance_of(PageId {
            space,
            page_no: pages.start,
        });
        let frame_of = &self.spaces[space as usize].frame_of;
        let k = frame_of[pages.start as usize..pages.end as usize]
            .iter()
            .filter(|&&g| g == super::NIL)
            .count() as u32;
        let inst = &self.instances[i];
        if k == 0 || k > 64 || !inst.free.is_empty() || !inst.lru.pairs_keep_boundary(k) {
            return None;
        }
        // The victims, tail first: each must be the first replaceable page from the tail. (An
        // area has at most 64 pages.)
        let mut victims = [super::NIL; 64];
        let victims = &mut victims[..k as usize];
        let mut f = inst.lru.tail();
        for (j, v) in victims.iter_mut().enumerate() {
            let p = inst.page(f);
            if !inst.is_replaceable(f, now) || (p.space == space && pages.contains(&p.page_no)) {
                return None;
            }
            *v = f;
            if j + 1 < k as usize {
                f = inst.lru.prev(f);
            }
        }
        let lat = self.cfg.read_latency_us;
        let per_page = self.cfg.page_transfer_us;
        let base = i as u32 * self.cfg.frames_per_instance;
        self.instances[i].read_into_tail_frames(
            &mut self.spaces,
            base,
            space,
            pages,
            victims,
            now,
            move |j| now + lat + per_page * j as Micros,
        );
        // What the evictions leave behind (free_page, got_block).
        self.try_lru_scan = true;
        if self
            .cfg
            .what_ifs
            .has(super::WhatIf::EmptyFreeListWakesCleaner)
            && !self.cleaner_active
        {
            // As get_free_block does for each of these reads (the free list was empty).
            self.wake_signalled = true;
        }
        if self.demand_refills {
            self.got_block(i);
        }
        self.shortcuts.areas += 1;
        Some(k)
    }
}

#[cfg(test)]
mod tests {
    use crate::pool::{BufferPool, Fetch, FetchMode, PageId, PoolConfig};

    fn pool() -> BufferPool {
        BufferPool::new(
            PoolConfig {
                frames_per_instance: 4096,
                ..PoolConfig::default()
            },
            &[1000],
        )
    }

    fn get(p: &mut BufferPool, page_no: u32, t: u64) -> Fetch {
        p.fetch(PageId { space: 0, page_no }, FetchMode::Normal, t)
    }

    #[test]
    fn ascending_scan_reads_next_extent_at_the_border() {
        let mut p = pool();
        let mut t = 1_000;
        for page_no in 0..63 {
            if let Fetch::Done { ready_at, .. } = get(&mut p, page_no, t) {
                t = ready_at + 20;
            }
        }
        assert!(!p.contains(PageId {
            space: 0,
            page_no: 64
        }));
        get(&mut p, 63, t);
        for q in 64..128 {
            assert!(
                p.contains(PageId {
                    space: 0,
                    page_no: q
                }),
                "page {q}"
            );
        }
        assert!(!p.contains(PageId {
            space: 0,
            page_no: 128
        }));
        assert_eq!(p.stats().ra_pages_read, 64);
        // The pages are old (midpoint) and unaccessed.
        let g = p
            .frame_of(PageId {
                space: 0,
                page_no: 100,
            })
            .unwrap();
        let (i, f) = p.split_frame(g);
        assert_eq!(p.instances[i].access_time(f), 0);
        // Touching a read-ahead page in flight waits for its read.
        match get(&mut p, 64, t) {
            Fetch::Done { hit, ready_at } => {
                assert!(hit);
                assert!(ready_at > t);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn too_many_unaccessed_pages_mean_no_read_ahead() {
        let mut p = pool();
        let mut t = 1_000;
        // Touch only every other page of the first extent: 32 failures > 8.
        for page_no in (1..64).step_by(2) {
            if let Fetch::Done { ready_at, .. } = get(&mut p, page_no, t) {
                t = ready_at + 20;
            }
        }
        assert_eq!(p.stats().ra_pages_read, 0);
        assert!(!p.contains(PageId {
            space: 0,
            page_no: 64
        }));
    }

    #[test]
    fn threshold_zero_turns_it_off() {
        let mut p = BufferPool::new(
            PoolConfig {
                frames_per_instance: 4096,
                read_ahead_threshold: 0,
                ..PoolConfig::default()
            },
            &[1000],
        );
        let mut t = 1_000;
        for page_no in 0..64 {
            if let Fetch::Done { ready_at, .. } = get(&mut p, page_no, t) {
                t = ready_at + 20;
            }
        }
        assert_eq!(p.stats().ra_pages_read, 0);
    }
}
