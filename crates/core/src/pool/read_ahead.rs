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
use std::cmp::Ordering;

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
        let low = page.page_no / area * area;
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
        // Ascending if we are at the area's last page, descending if at its first.
        let asc_or_desc = if page.page_no == low {
            Ordering::Less
        } else {
            Ordering::Greater
        };
        let threshold = (64 - threshold_cfg.min(64)).min(area);
        let mut fail = 0u32;
        let mut pred: Option<Micros> = None;
        for p in low..high {
            let t = self
                .frame_of(PageId {
                    space: page.space,
                    page_no: p,
                })
                .map(|g| {
                    let (ii, f) = self.split_frame(g);
                    self.instances[ii].access_time(f)
                })
                .unwrap_or(0);
            if t == 0 {
                fail += 1;
            } else if let Some(pt) = pred {
                let res = t.cmp(&pt);
                if res != Ordering::Equal && res != asc_or_desc {
                    fail += 1;
                }
            }
            if fail > threshold {
                return 0;
            }
            if t != 0 {
                pred = Some(t);
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
        let ii = self.instance_of(page);
        self.instances[ii].stats.ra_pages_read += count as u64;
        count
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
