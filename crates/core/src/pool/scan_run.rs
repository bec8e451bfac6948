//! A table scan's run of resident pages in one loop: what [`BufferPool::fetch`] and
//! [`BufferPool::fetch_repeated`] do for each page of the run, page after page, without the
//! per-page result enum, the miss path and the read-ahead call that cannot act.
//!
//! A page qualifies when it is in the pool (a hit: no eviction, no read) and is not one of its
//! read-ahead area's two border pages (only those can trigger `buf_read_ahead_linear`; on any
//! other page the fetch's read-ahead call returns at its first test). Everything else of the
//! fetch runs as it does there: the wait for a read in flight, the counters, the first-access
//! stamp, `buf_page_make_young_if_needed` (which may move the page: that is the same call), and
//! the further touches through the same shortcut. `tests/fast_paths.rs` compares it with the
//! fetches one by one.

use super::{BufferPool, FetchMode, PageId, NIL};
use crate::clock::Micros;

/// The scan's settings a run of pages needs (`TableScan`'s, as its `step` uses them).
#[derive(Clone, Copy, Debug)]
pub struct ScanPages {
    /// The table.
    pub space: u32,
    /// Its pages: the run stops before the last one (where the scan wraps or ends).
    pub pages: u32,
    /// NORMAL or SCAN.
    pub mode: FetchMode,
    /// Touches per page (at least 1).
    pub touches: u32,
    /// CPU time per page, whole µs.
    pub cost: Micros,
}

/// When a scanned page's further touches happen: the cursor restores spread over the page's
/// CPU time, touch `k` (from 0) at `start + cost·(k + 1) / touches`, by a shift when `touches`
/// is a power of two (8 by default): the same quotient without a division per touch time.
#[derive(Clone, Copy, Debug)]
pub struct TouchTimes {
    cost: Micros,
    touches: u32,
    shift: u32,
    pow2: bool,
}

impl TouchTimes {
    /// Touches of a page costing `cost` µs of CPU, `touches` of them (at least 1).
    pub fn new(cost: Micros, touches: u32) -> Self {
        let touches = touches.max(1);
        TouchTimes {
            cost,
            touches,
            shift: touches.trailing_zeros(),
            pow2: touches.is_power_of_two(),
        }
    }

    /// The time of further touch `k` of a page that was there at `start`.
    #[inline]
    pub fn at(&self, start: Micros, k: u32) -> Micros {
        let x = self.cost * (k + 1) as Micros;
        start
            + if self.pow2 {
                x >> self.shift
            } else {
                x / self.touches as Micros
            }
    }
}

/// When a run of pages must stop: the next page's time must be below `bound`, the virtual
/// clock (the latest page's time, or `now` if later) below `until`, and at most `max` pages.
#[derive(Clone, Copy, Debug)]
pub struct RunLimits {
    pub bound: Micros,
    pub until: Micros,
    pub now: Micros,
    pub max: u64,
}

/// A run's place while it takes pages: the next page, when the scan reads it, the virtual
/// clock, and the pages taken so far.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RunAt {
    pub page_no: u32,
    pub at: Micros,
    pub now: Micros,
    pub pages: u64,
}

/// What a run of pages did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunDone {
    /// Pages read (each one scan event).
    pub pages: u64,
    /// The next page to read.
    pub cursor: u32,
    /// When the scan reads it.
    pub next_at: Micros,
    /// The virtual clock after the last page (`max(now, its time)`).
    pub now: Micros,
}

impl BufferPool {
    /// The scan's pages from `cursor` on, the first at `at` (already allowed by `lim`), each
    /// fetched and touched `touches` times as `TableScan::step` does, the next page `cost` µs
    /// after the previous one was there; stops before the first page that does not qualify (see
    /// the module's text) or when `lim` says so. With the shortcuts off, reads nothing.
    pub fn scan_resident_run(
        &mut self,
        scan: &ScanPages,
        cursor: u32,
        at: Micros,
        lim: &RunLimits,
    ) -> RunDone {
        let mut done = RunDone {
            pages: 0,
            cursor,
            next_at: at,
            now: lim.now,
        };
        if !self.shortcuts.on || scan.space as usize >= self.spaces.len() {
            return done;
        }
        let obt = self.cfg.old_blocks_time_ms;
        // The border pages' offsets within an area (every instance has the same area); with
        // read-ahead off no page is a border page.
        let mask = if self.cfg.read_ahead_threshold == 0 {
            u32::MAX
        } else {
            self.instances[0].read_ahead_area() - 1
        };
        let touches = scan.touches.max(1);
        let cost = scan.cost;
        // TableScan::step's touch times.
        let times = TouchTimes::new(cost, touches);
        let touch_at = move |start: Micros, k: u32| times.at(start, k);
        let one_instance = self.instances.len() == 1;
        let per = self.cfg.frames_per_instance;
        let space = scan.space;
        let mode = scan.mode;
        let m = touches - 1;
        // Whether a run may hold common pages at all (a NORMAL fetch with further touches and a
        // positive old_blocks_time): the same for every page of the run.
        let common = mode == FetchMode::Normal && m > 0 && obt != 0;
        // The common page's last touch, after its first (TouchTimes::at is `start` plus this).
        let last_after = if m > 0 { touch_at(0, m - 1) } else { 0 };
        let mut pos = RunAt {
            page_no: cursor,
            at,
            now: lim.now,
            pages: 0,
        };
        // The first page the run must not take by its place alone: the table's last page, or
        // the next border page of the cursor's read-ahead area (the cursor's own if it is one).
        let mut stop = scan.pages.saturating_sub(1);
        if mask != u32::MAX {
            let off = cursor & mask;
            stop = stop.min(if off == 0 || off == mask {
                cursor
            } else {
                cursor | mask
            });
        }
        while pos.page_no < stop {
            let g = self.spaces[space as usize].frame_of[pos.page_no as usize];
            if g == NIL {
                break;
            }
            let (i, f) = if one_instance {
                (0, g)
            } else {
                ((g / per) as usize, g % per)
            };
            if common && self.instances[i].lru.is_old(f) {
                // The common pages, as many as follow each other in this instance (a young
                // page never is one: the scan's young pages come in runs, taken below).
                let first = pos.page_no;
                let frame_of = &self.spaces[space as usize].frame_of;
                let ended = self.instances[i].old_pages_touched_in_time(
                    frame_of,
                    i as u32 * per,
                    stop,
                    &mut pos,
                    lim,
                    cost,
                    last_after,
                    obt,
                    m as u64,
                );
                if ended {
                    break;
                }
                if pos.page_no != first {
                    // Taken up to another page: look at it afresh.
                    continue;
                }
            }
            // BufferPool::fetch's hit path (its reset of `wait_retry_at` and `scan_cost_us`,
            // which a hit leaves so, is done once after the loop).
            let RunAt {
                page_no, at, now, ..
            } = pos;
            let inst = &mut self.instances[i];
            let t = at.max(inst.io_done(f));
            inst.stats.page_gets += 1;
            inst.stats.hits += 1;
            let was_unaccessed = inst.set_accessed(f, t);
            if mode == FetchMode::Normal {
                inst.make_young_if_needed(f, t, obt);
            }
            if was_unaccessed {
                // The fetch buffer-fixes the page around its read-ahead call, which returns at
                // once off the border.
                inst.fixed = NIL;
            }
            // fetch_repeated's shortcut for the further touches (the page is accessed and no
            // longer io-fixed at its first touch), else the touches one by one.
            if m > 0 {
                let last = touch_at(t, m - 1);
                let counted = inst.io_done(f) <= touch_at(t, 0)
                    && inst.repeat_hits_in_place(f, mode, last, obt, m as u64);
                if !counted {
                    let page = PageId { space, page_no };
                    self.fetch_repeated(page, mode, m, |k| touch_at(t, k));
                }
            }
            pos = RunAt {
                page_no: page_no + 1,
                at: t + cost,
                now: now.max(at),
                pages: pos.pages + 1,
            };
            if pos.pages >= lim.max || pos.now >= lim.until || pos.at >= lim.bound {
                break;
            }
        }
        let n = pos.pages;
        if n > 0 {
            self.wait_retry_at = None;
            self.scan_cost_us = 0;
        }
        self.shortcuts.run_pages += n;
        done.pages = n;
        done.cursor = pos.page_no;
        done.next_at = pos.at;
        done.now = pos.now;
        done
    }

    /// Whether a user thread's wake-up of the page cleaner is waiting to be taken.
    pub fn cleaner_wake_pending(&self) -> bool {
        self.wake_signalled
    }
}
