//! Playback: the mode machine advanced once per animation frame (play, seek in chunks, watch a
//! refill and drain), stepping with anchors and recent positions kept for stepping back. Every
//! loop looks at the wall clock so that one frame's work stays within its budget.

use super::cursor::Stepped;
use super::*;
use crate::ui::code;
use midpoint_core::clock::{to_secs, Micros};

impl Explorer {
    /// Advances the current mode by one animation frame at wall time `now_ms`; returns
    /// `F_DIRTY | F_STATUS` bits (1: redraw the grid, 2: update the status).
    pub fn frame(&mut self, now_ms: f64) -> u32 {
        let from_rest = std::mem::take(&mut self.pc.from_rest);
        let dt = match self.pc.last_ms {
            Some(l) if !from_rest => (now_ms - l).clamp(0.0, 100.0),
            _ => 0.0,
        };
        self.pc.last_ms = Some(now_ms);
        let deadline = (self.clock)() + BUDGET_MS;
        let mut flags = 0;
        match self.mode {
            Mode::Paused => {}
            Mode::Playing => {
                let vdt = self.speed_us(dt);
                let t0 = self.cur.sim.now();
                if self.play_for(vdt, deadline, false) {
                    self.mode = Mode::Paused;
                }
                // The speed reached (virtual s per wall s), smoothed: a large pool cannot run
                // at the fastest speeds in one frame's budget, and the page says so.
                if dt > 0.0 {
                    let got = (self.cur.sim.now() - t0) as f64 / 1000.0 / dt;
                    self.pc.achieved = if self.pc.achieved > 0.0 {
                        0.9 * self.pc.achieved + 0.1 * got
                    } else {
                        got
                    };
                }
                self.at_batch = false;
                flags |= F_STATUS;
            }
            Mode::Seeking(target) => {
                let deadline = (self.clock)() + SEEK_BUDGET_MS;
                if let Some(found) = self.seek_chunk(target, deadline) {
                    self.seek_done(target, found, now_ms);
                }
                flags |= F_STATUS;
            }
            Mode::Watching(w) => {
                flags |= F_STATUS;
                match w {
                    Watch::Seeking => {
                        let deadline = (self.clock)() + SEEK_BUDGET_MS;
                        if let Some(found) = self.seek_chunk(Seek::Batch, deadline) {
                            self.sk.after_seek = Some(Watch::Seeking);
                            self.seek_done(Seek::Batch, found, now_ms);
                        }
                    }
                    Watch::Hold { until } => {
                        if now_ms >= until {
                            self.remember();
                            let s = self.fwd(self.tracked());
                            self.at_batch = false;
                            if s.refill {
                                let t = format!(
                                    "{}: the LRU batch evicts {} from the tail: their frames go to the free list.",
                                    t_label(self.cur.sim.now()),
                                    pages(self.cur.batch.as_ref().map(|b| b.evicted).unwrap_or(0) as u64)
                                );
                                self.set_narration(t, false);
                                self.mode = Mode::Watching(Watch::Evict { start: now_ms });
                                if self.pc.reduced_motion {
                                    self.mode = Mode::Watching(Watch::Drain);
                                    self.drain.begin_watch();
                                    let t = self.batch_narration();
                                    self.set_narration(t, true);
                                }
                            } else {
                                self.notice(&s);
                                self.mode = Mode::Paused;
                            }
                        }
                    }
                    Watch::Evict { start } => {
                        self.view.dirty = true;
                        if now_ms - start >= EVICT_MS {
                            self.mode = Mode::Watching(Watch::Drain);
                            self.drain.begin_watch();
                            let t = self.batch_narration();
                            self.set_narration(t, true);
                            if self.pc.speed != 0 {
                                self.pc.speed = WATCH_SPEED;
                            }
                        }
                    }
                    Watch::Drain => {
                        let since = self
                            .cur
                            .batch
                            .as_ref()
                            .map(|b| self.cur.sim.now().saturating_sub(b.at))
                            .unwrap_or(0);
                        let stop = if self.cur.sim.scan_running() {
                            // Paced by reads, not virtual time (a drain takes a few tens of
                            // milliseconds of virtual time whatever the pool): the first reads
                            // slowly, the dead band briskly, the boundary's first steps slowly
                            // again, then faster and faster to the end.
                            let k = self.drain_due(now_ms, dt);
                            let moves0 = self.slide_count();
                            let free0 = self.cur.sim.pool.free_len();
                            let stop = self.drain_reads(k, deadline);
                            let moved = self.slide_count() - moves0;
                            if moved > 0 {
                                self.drain.watch_code = Some(code::shrink_step(moved));
                            } else if self.cur.sim.pool.free_len() < free0 {
                                self.drain.watch_code = None;
                            }
                            stop
                        } else {
                            // Nothing to watch while the scan pauses: skip ahead.
                            self.play_for(
                                self.speed_us(dt).max((dt * 10_000.0) as Micros),
                                deadline,
                                true,
                            )
                        };
                        if stop {
                            self.mode = Mode::Paused;
                            // The watch ends paused: the cells stop where they are going with
                            // it, as a pause does (none keeps flying under "paused").
                            self.strip.settle();
                        } else if since > 5 * SEC {
                            self.mode = Mode::Paused;
                            let t = format!(
                                "{}: five seconds after the batch the free list is still not drained (few reads): stopping here.",
                                t_label(self.cur.sim.now())
                            );
                            self.set_narration(t, true);
                        } else if let Some(t) = self.drain_narration(false) {
                            self.set_narration(t, false);
                        }
                    }
                }
            }
        }
        // Spare time in the frame: the scout leaves anchors ahead (for scrubbing).
        if matches!(self.mode, Mode::Paused | Mode::Playing) {
            self.scout_for(deadline);
        }
        self.view.fade();
        if self.view.dirty {
            flags |= F_DIRTY | F_STATUS;
        }
        flags
    }

    /// Brings this run to event `target` as the follower of a side-by-side figure
    /// (`ui::pair`): forward with highlights and narration when it is a few events behind,
    /// untracked (as a seek) when far behind, from a saved position when it is ahead; within one
    /// frame's budget. The mode is left as it is (a follower stays paused). Returns true once
    /// there, or at the run's end.
    pub fn follow(&mut self, target: u64) -> bool {
        if self.cur.events() > target {
            self.restore_before(target);
            self.strip.reset_motion();
        }
        let deadline = (self.clock)() + BUDGET_MS;
        let near = target.saturating_sub(self.cur.events()) <= FOLLOW_NEAR;
        let track = near && self.tracked();
        let mut k = 0u32;
        while self.cur.events() < target {
            let s = self.fwd(track);
            if s.ev == Event::End {
                self.notice(&s);
                return true;
            }
            if near {
                self.notice(&s);
            }
            k += 1;
            if k % 256 == 0 && (self.clock)() > deadline {
                return false;
            }
        }
        true
    }

    /// One event, with anchors for stepping back and (if `track`) highlights.
    pub(super) fn fwd(&mut self, track: bool) -> Stepped {
        let s = if track {
            let mut fresh = std::mem::take(&mut self.view.fresh);
            let s = self.cur.step(Some(&mut fresh));
            for f in fresh.drain(..) {
                self.view.flash_frame(f);
            }
            self.view.fresh = fresh;
            s
        } else {
            self.cur.step(None)
        };
        if s.refill {
            self.saw_refill();
            // Highlights of the previous cycle end with it.
            self.view.clear_flash();
            if track {
                if let Some(b) = &self.cur.batch {
                    for &f in &b.demoted_frames {
                        self.view.flash_frame(f);
                    }
                }
            }
        }
        self.keep_anchor();
        self.view.dirty = true;
        s
    }

    /// Leaves an anchor here if the last is `anchor_every` events back or more.
    fn keep_anchor(&mut self) {
        self.tl.keep_anchor(&self.cur);
    }

    /// Keeps this position among the recent ones (for stepping back).
    pub(super) fn remember(&mut self) {
        self.tl.remember(&self.cur);
    }

    /// The latest saved position at or before event `n`.
    pub(super) fn restore_before(&mut self, target: u64) {
        let best = self.tl.latest_before(target);
        if self.cur.events() <= target && self.cur.events() >= best.events() {
            return;
        }
        self.cur = best.clone();
        self.clear_flash();
        self.view.dirty = true;
    }

    /// Plays `vdt` of virtual time (or until the deadline). Returns true at the end of the run
    /// or (if `stop_at_drain`) when a drain completes.
    pub(super) fn play_for(&mut self, vdt: Micros, deadline: f64, stop_at_drain: bool) -> bool {
        self.pc.playhead = self.pc.playhead.max(self.cur.sim.now()) + vdt;
        let track = self.tracked();
        let mut k = 0u32;
        while self.cur.sim.now() < self.pc.playhead {
            let s = self.fwd(track);
            if s.ev == Event::End {
                self.notice(&s);
                return true;
            }
            let drained = self.notice(&s) && !s.refill;
            if drained && stop_at_drain {
                return true;
            }
            k += 1;
            if k % 256 == 0 && (self.clock)() > deadline {
                self.pc.playhead = self.cur.sim.now();
                break;
            }
        }
        false
    }

    /// Pages the boundary has turned young so far (the drain's shrink steps).
    fn slide_count(&self) -> u64 {
        self.cur.sim.pool.instances[0].lru.slides.total_young()
    }

    /// Free frames a watched drain should take in this frame, by its choreography: its first
    /// reads one at a time, DRAIN_BEAT_MS apart; the dead band at DRAIN_BAND frames a second;
    /// the boundary's first steps one read at a time again; then faster and faster. A read
    /// may take several frames at once (linear read-ahead takes 64): frames taken beyond what
    /// was due are a debt the next frames pay.
    fn drain_due(&mut self, now_ms: f64, dt: f64) -> u32 {
        let Some(b) = &self.cur.batch else {
            return u32::MAX;
        };
        let slid = self.slide_count() > b.slid_young_after;
        // The slowest speed: one read at a time, each only once the last one's pages have
        // come to rest in the close-up, so the boundary's slide is seen page by page.
        let (slowest, moving) = (self.pc.speed == 0, self.strip.moving());
        self.drain.pace.due(now_ms, dt, slowest, moving, slid)
    }

    /// Processes events until `k` more reads have taken free frames (or until the deadline).
    /// Returns true at the end of the run or when a drain completes.
    pub(super) fn drain_reads(&mut self, k: u32, deadline: f64) -> bool {
        let track = self.tracked();
        let free0 = self.cur.sim.pool.free_len();
        let target = free0.saturating_sub(k);
        let mut i = 0u32;
        while k > 0 && self.cur.sim.pool.free_len() > target {
            let s = self.fwd(track);
            if s.ev == Event::End {
                self.notice(&s);
                return true;
            }
            if self.notice(&s) && !s.refill {
                return true;
            }
            i += 1;
            if i % 64 == 63 && (self.clock)() > deadline {
                break;
            }
        }
        // A read that took more frames than were due (read-ahead): the rest is owed.
        let over = (free0 - self.cur.sim.pool.free_len()).saturating_sub(k);
        self.drain.pace.acc -= over as f64;
        self.pc.playhead = self.cur.sim.now();
        false
    }

    /// Seeks, at full speed, until `deadline` (wall ms). Returns Some(found) when done (false:
    /// the run ended first), None when the deadline came first (the seek goes on next frame).
    pub(super) fn seek_chunk(&mut self, target: Seek, deadline: f64) -> Option<bool> {
        let r = match target {
            Seek::Event(e) => {
                if self.cur.events() > e {
                    self.restore_before(e);
                }
                self.fast_to(target, deadline)
            }
            Seek::Time(_) => self.fast_to(target, deadline),
            Seek::Batch => self.batch_chunk(deadline),
        };
        if r.is_none() {
            self.narr.busy = match target {
                Seek::Batch => format!(
                    "Running to the next LRU batch… t = {:.1} s",
                    self.cur.sim.t_s()
                ),
                Seek::Time(t) => format!(
                    "Recomputing up to t = {:.1} s… ({:.1} s)",
                    to_secs(t) - to_secs(EPOCH),
                    self.cur.sim.t_s()
                ),
                Seek::Event(e) => format!(
                    "Replaying to event {}… ({:.0} %)",
                    n(e),
                    100.0 * self.cur.events() as f64 / e.max(1) as f64
                ),
            };
        }
        r
    }

    /// The run to just before the next LRU batch that evicts pages: a copy of the simulation
    /// runs ahead to find it (`Simulation::run_to_next_refill`), then the view runs to the
    /// event before it.
    fn batch_chunk(&mut self, deadline: f64) -> Option<bool> {
        loop {
            if let Some((j, found)) = self.sk.batch_at {
                let r = self.fast_to(Seek::Event(j), deadline)?;
                if !r {
                    self.clear_seek();
                    return Some(false);
                }
                if !found {
                    // No refill before the end: the run steps into its end, as stepping does.
                    self.fwd(false);
                }
                self.clear_seek();
                return Some(found);
            }
            let probe = self.sk.sim.get_or_insert_with(|| {
                let mut s = self.cur.sim.clone();
                s.pool.instances[0].lru.slide_log = None;
                s
            });
            match probe.run_to_next_refill(QUIET_CHUNK) {
                Some(found) => {
                    self.sk.batch_at = Some((probe.events(), found));
                    self.sk.sim = None;
                }
                None if (self.clock)() > deadline => return None,
                None => {}
            }
        }
    }

    /// Runs the view to event `e` or time `t` (`Seek::Event`, `Seek::Time`; a batch is not a
    /// target here) at full speed, as stepping one event at a time would leave it: the events
    /// that keep per-event state (an LRU batch, the one that reaches the target) are stepped,
    /// the rest run in the core's quiet runs (`Cursor::run_quiet`). Returns as `seek_chunk`.
    pub(super) fn fast_to(&mut self, target: Seek, deadline: f64) -> Option<bool> {
        let r = self.fast_to_inner(target, deadline);
        self.tl.anchor_hold = false;
        r
    }

    fn fast_to_inner(&mut self, target: Seek, deadline: f64) -> Option<bool> {
        loop {
            let (mut before, mut want) = match target {
                Seek::Event(e) if self.cur.events() >= e => return Some(true),
                Seek::Time(t) if self.cur.sim.now() >= t => return Some(true),
                Seek::Event(e) => (Micros::MAX, e - self.cur.events() - 1),
                Seek::Time(t) => (t, u64::MAX),
                Seek::Batch => return Some(true),
            };
            // Anchors (for stepping back) only near the target: far from it a seek takes no
            // copies of the run, which would cost it more than the run itself. The quiet run
            // stops where the near stretch begins.
            let far = match target {
                Seek::Event(e) => {
                    let near = e.saturating_sub(2 * self.tl.anchor_every);
                    let far = self.cur.events() < near;
                    if far {
                        want = want.min(near - self.cur.events());
                    }
                    far
                }
                Seek::Time(t) => {
                    let near = t.saturating_sub(2 * SEC);
                    let far = self.cur.sim.now() < near;
                    if far {
                        before = near;
                    }
                    far
                }
                Seek::Batch => false,
            };
            self.tl.anchor_hold = far;
            let max = want.min(QUIET_CHUNK);
            let ran = if max > 0 {
                self.cur.run_quiet(before, max)
            } else {
                0
            };
            if ran > 0 {
                self.view.dirty = true;
                self.keep_anchor();
            }
            // Stopped short (a batch, the target's time, the end) or at the event before the
            // target: the next event is stepped.
            if (ran < max || ran == want) && self.fwd(false).ev == Event::End {
                return Some(false);
            }
            if (self.clock)() > deadline {
                return match target {
                    Seek::Event(e) if self.cur.events() >= e => Some(true),
                    Seek::Time(t) if self.cur.sim.now() >= t => Some(true),
                    _ => None,
                };
            }
        }
    }

    pub(super) fn clear_seek(&mut self) {
        self.sk.clear();
    }

    pub(super) fn start_seek(&mut self, target: Seek, then: Option<Watch>) {
        self.clear_seek();
        self.mode = Mode::Seeking(target);
        self.sk.after_seek = then;
        self.at_batch = false;
        self.narr.busy = match target {
            Seek::Batch => "Running to the next LRU batch…".into(),
            _ => "Working…".into(),
        };
    }

    pub(super) fn seek_done(&mut self, target: Seek, found: bool, now_ms: f64) {
        self.narr.busy.clear();
        // The moment a seek lands on (a figure's opening moment, a link's event) is kept, so
        // that stepping back from it replays from here, not from far back.
        self.remember();
        if let Seek::Time(_) = target {
            self.sk.replayed = self.cur.events().saturating_sub(self.sk.from);
        }
        let then = self.sk.after_seek.take();
        match (target, found) {
            (Seek::Batch, true) => {
                self.at_batch = true;
                if then.is_some() {
                    self.mode = Mode::Watching(Watch::Hold {
                        until: now_ms + HOLD_MS,
                    });
                    let free = self.cur.sim.pool.free_len();
                    let t = format!(
                        "{}: the page cleaner is about to run its LRU batch. The free list holds {} of the {} it keeps (innodb_lru_scan_depth). Watch the tail: the close-up's tail row, or the end of the list in the grid.",
                        t_label(self.cur.sim.now()),
                        n(free),
                        n(self.params.lru_scan_depth)
                    );
                    self.set_narration(t, true);
                } else {
                    self.mode = Mode::Paused;
                    let free = self.cur.sim.pool.free_len();
                    let t = format!(
                        "{}: paused just before the page cleaner's next LRU batch (free list: {} of {}). Step (→) runs it; Watch (W) shows the refill and the drain in slow motion.",
                        t_label(self.cur.sim.now()),
                        n(free),
                        n(self.params.lru_scan_depth)
                    );
                    self.set_narration(t, true);
                }
            }
            (Seek::Batch, false) => {
                self.mode = Mode::Paused;
                let t = format!(
                    "{}: no more LRU batches evict pages in this run: it is over.",
                    t_label(self.cur.sim.now())
                );
                self.set_narration(t, true);
            }
            (_, _) => {
                self.mode = Mode::Paused;
                let t = self.state_narration();
                self.set_narration(t, true);
            }
        }
        self.view.dirty = true;
        // A move the reader made on the way acts here, at the moment.
        self.run_queued();
    }
}
