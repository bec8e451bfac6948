//! The drain's timeline: the current refill's drain as a timeline of reads that can be scrubbed
//! back and forth (position k: k frames of the refill taken from the free list since the batch).

use super::cursor::Cursor;
use super::*;

/// Drain snapshots are kept every this many frames taken, so a scrub replays at most as many.
const DRAIN_SNAP_EVERY: u32 = 64;
/// Events one scrub replays at most (a drain of a few thousand reads with lookups between them
/// takes a few tens of thousands).
const SCRUB_CAP: u64 = 400_000;

/// Where the view stands in the current refill's drain.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct DrainPos {
    /// Free frames right after the batch (the timeline's length); 0 when there is no drain to
    /// scrub (before the first batch, or a position restored from before this drain's start).
    pub size: u32,
    /// Frames taken from the free list since the batch.
    pub k: u32,
}

impl Explorer {
    /// The position right after the current refill's batch, if it was seen.
    fn drain_start_now(&self) -> Option<&Cursor> {
        self.drain.start_of(&self.cur)
    }

    /// Called after each event: keeps the position right after a refill.
    pub(super) fn saw_refill(&mut self) {
        self.drain.restart(Some(self.cur.clone()));
    }

    /// The positions the current drain can stop at (frames taken after each read that took
    /// some, 0 first), computed once per drain by replaying it from its start.
    fn drain_stops(&mut self) -> &[u32] {
        if self.drain.stops.is_empty() {
            if let Some(start) = self.drain_start_now() {
                let mut c = start.clone();
                let size = c.sim.pool.free_len();
                let refills = c.refills;
                let ev0 = c.events();
                let mut stops = vec![0];
                while c.sim.pool.free_len() > 0 && c.events() < ev0 + SCRUB_CAP {
                    let free = c.sim.pool.free_len();
                    if c.step(None).ev == Event::End || c.refills != refills {
                        break;
                    }
                    if c.sim.pool.free_len() < free {
                        stops.push(size - c.sim.pool.free_len());
                    }
                }
                self.drain.stops = stops;
            }
        }
        &self.drain.stops
    }

    /// Where the view stands in the current refill's drain.
    pub fn drain_pos(&self) -> DrainPos {
        let Some(d) = self.drain_start_now() else {
            return DrainPos::default();
        };
        let size = d.sim.pool.free_len();
        let free = self.cur.sim.pool.free_len();
        DrainPos {
            size,
            k: size.saturating_sub(free),
        }
    }

    /// Puts the view at the `k`-th frame of the current drain (0: just after the batch), paused
    /// (a read that takes several frames: forward, the first read that has taken at least k;
    /// back, the last that has taken at most k):
    /// from the nearest saved position of the drain, a short replay. A step of a few reads
    /// forward is played with the cells' motion; a jump is drawn at rest. Returns false (and
    /// nothing changes) when there is no drain to scrub.
    pub fn scrub_drain(&mut self, k: u32) -> bool {
        let Some(start) = self.drain_start_now() else {
            return false;
        };
        let (size, start_ev) = (start.sim.pool.free_len(), start.events());
        let here = self.cur.sim.pool.free_len();
        // A read can take several frames at once (linear read-ahead takes 64): forward, the
        // first read that has taken at least k; back, the last that has taken at most k.
        let back = k < size.saturating_sub(here);
        let stops = self.drain_stops();
        let k = if back {
            stops.iter().rev().find(|&&s| s <= k).copied().unwrap_or(0)
        } else {
            stops.iter().find(|&&s| s >= k).copied().unwrap_or(size)
        };
        let Some(start) = self.drain_start_now() else {
            return false;
        };
        let k = k.min(size);
        let want = size - k;
        let near = here >= want && here - want <= 4 && self.cur.events() >= start_ev;
        if !near {
            // The latest saved position of this drain at or before frame k: the drain's start,
            // a snapshot of it, or where the view is.
            let mut best = start;
            for s in &self.drain.snaps {
                let f = s.sim.pool.free_len();
                if f >= want && f < best.sim.pool.free_len() {
                    best = s;
                }
            }
            let from_here = here >= want && here <= best.sim.pool.free_len();
            if !from_here {
                self.cur = best.clone();
                self.clear_flash();
            }
            self.strip.reset_motion();
        }
        let refills = self.cur.refills;
        self.clear_seek();
        self.sk.after_seek = None;
        self.sk.queued = None;
        self.narr.busy.clear();
        self.mode = Mode::Paused;
        self.at_batch = false;
        self.remember();
        let track = near && self.tracked();
        let ev0 = self.cur.events();
        while self.cur.sim.pool.free_len() > want && self.cur.events() < ev0 + SCRUB_CAP {
            let s = self.fwd(track);
            if s.ev == Event::End || self.cur.refills != refills {
                break;
            }
            let taken = size.saturating_sub(self.cur.sim.pool.free_len());
            if taken % DRAIN_SNAP_EVERY == 0
                && !self
                    .drain
                    .snaps
                    .iter()
                    .any(|c| c.sim.pool.free_len() == self.cur.sim.pool.free_len())
            {
                self.drain.snaps.push(self.cur.clone());
            }
        }
        let free = self.cur.sim.pool.free_len();
        if let Some(b) = self.cur.batch.as_mut() {
            b.drain_done = free == 0;
        }
        let t = if k == 0 {
            self.batch_narration()
        } else {
            self.drain_narration(free == 0).unwrap_or_default()
        };
        self.set_narration(t, true);
        self.view.dirty = true;
        true
    }
}
