//! Steps a person can take through a refill: the boundary step (run until `LRU_old` has moved by
//! a twentieth of the current refill, or to the drain's next beat) and the step to the end of
//! the drain. Both run synchronously within a cap of events, so nothing hangs; with no drain
//! under way they run to the next LRU batch, as "Next LRU batch" does.

use super::*;

/// Events one boundary step or drain step runs at most (a drain of a few thousand reads with
/// lookups between them takes a few tens of thousands).
const STEP_CAP: u64 = 400_000;

impl Explorer {
    /// Pages the boundary has passed in either direction so far (`buf_LRU_old_adjust_len`'s
    /// grow and shrink steps).
    fn boundary_moves(&self) -> u64 {
        let s = &self.cur.sim.pool.instances[0].lru.slides;
        s.total_young() + s.total_old()
    }

    /// Whether a refill's drain is under way: a batch ran and the free list is not empty yet.
    pub fn draining(&self) -> bool {
        self.cur
            .batch
            .as_ref()
            .is_some_and(|b| !b.drain_done && self.cur.sim.pool.free_len() > 0)
    }

    /// The boundary step: paused just before a batch, runs it (the bulk demotion is one step);
    /// during a drain, runs events until the boundary has moved by at least a twentieth of the
    /// refill, the free list is empty, or another batch ran; otherwise runs to the next batch.
    pub fn step_boundary(&mut self) {
        if !self.defer(Input::Boundary) {
            self.run_beat(false);
        }
    }

    /// Runs to the end of the current drain (the free list empty), running the batch first if
    /// paused just before one; with no drain under way, to the next batch.
    pub fn step_drain_end(&mut self) {
        if !self.defer(Input::DrainEnd) {
            self.run_beat(true);
        }
    }

    fn run_beat(&mut self, to_end: bool) {
        self.clear_seek();
        self.narr.busy.clear();
        if self.cur.sim.finished() {
            self.mode = Mode::Paused;
            return;
        }
        if self.at_batch {
            self.step();
            if !to_end || !self.draining() {
                return;
            }
        } else if !self.draining() {
            self.next_batch();
            return;
        }
        self.mode = Mode::Paused;
        self.remember();
        let k = self.cur.batch.as_ref().map(|b| b.evicted).unwrap_or(0) as u64;
        let want = (k / 20).max(1);
        let moves0 = self.boundary_moves();
        let refills0 = self.cur.refills;
        let ev0 = self.cur.events();
        let track = self.tracked();
        loop {
            let s = self.fwd(track);
            if s.ev == Event::End {
                self.notice(&s);
                return;
            }
            let beat = self.notice(&s);
            if beat || self.cur.refills != refills0 {
                // The drain ended (its narration is set) or another batch ran.
                return;
            }
            if !to_end && self.boundary_moves() >= moves0 + want {
                break;
            }
            if self.cur.events() >= ev0 + STEP_CAP {
                break;
            }
        }
        if let Some(t) = self.drain_narration(false) {
            self.set_narration(t, true);
        }
    }
}
