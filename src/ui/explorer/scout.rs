//! The scout: a second cursor that runs the same (deterministic) simulation ahead of the one on
//! screen in spare frame time, leaving anchors over the whole run. Scrubbing the residency plot
//! then restores the anchor at or before the moment and replays a short stretch, instead of
//! fast-forwarding from where the view is.

use super::cursor::Cursor;
use super::*;

/// Wall time the scout may take in one animation frame, ms (within the frame's budget).
const SCOUT_MS: f64 = 4.0;

/// The scout's state.
#[derive(Default)]
pub(super) struct Scout {
    /// Where it is (None: not started, or dropped when turned off).
    pub(super) cursor: Option<Cursor>,
    /// On: a view with a residency plot to scrub.
    pub(super) on: bool,
    /// The scout waits (keeping its place) while the page's workers compute.
    pub(super) held: bool,
}

impl Scout {
    /// Turns it on or off (off: its position is dropped).
    pub(super) fn set_on(&mut self, on: bool) {
        self.on = on;
        if !on {
            self.cursor = None;
        }
    }

    /// Whether it may run now.
    pub(super) fn may_run(&self) -> bool {
        self.on && !self.held
    }
}

impl Explorer {
    /// Turns the scout on (a view with a residency plot to scrub) or off.
    pub fn set_scouting(&mut self, on: bool) {
        self.scout.set_on(on);
    }

    /// Holds the scout where it is (true) or lets it go on: the page holds it while its workers
    /// compute, so that on a machine of few cores the runs the reader waits for get them.
    pub fn hold_scout(&mut self, held: bool) {
        self.scout.held = held;
    }

    /// How far the saved positions reach, seconds since the warm-up started.
    pub(super) fn scouted_s(&self) -> f64 {
        let a = self.tl.anchors.last().map(|c| c.sim.t_s()).unwrap_or(0.0);
        let s = self
            .scout
            .cursor
            .as_ref()
            .map(|c| c.sim.t_s())
            .unwrap_or(0.0);
        a.max(s).max(self.tl.base.sim.t_s())
    }

    /// Whether the scout has nothing left to do: off, or its anchors reach the run's end.
    pub fn scouted(&self) -> bool {
        !self.scout.on
            || self.tl.anchors.last().is_some_and(|c| c.sim.finished())
            || self.scout.cursor.as_ref().is_some_and(|s| s.sim.finished())
    }

    /// Runs the scout until `deadline` (wall ms) or for SCOUT_MS, whichever is first: from the
    /// last anchor, an anchor every `anchor_every` events, appended in order (so the anchors
    /// stay sorted, whoever left them).
    pub(super) fn scout_for(&mut self, deadline: f64) {
        if !self.scout.may_run() {
            return;
        }
        let start = (self.clock)();
        let deadline = deadline.min(start + SCOUT_MS);
        if start >= deadline {
            return;
        }
        let last = self.tl.anchors.last().map(|a| a.events()).unwrap_or(0);
        // Overtaken (the view ran past it and left its own anchors): start again from there.
        if self.scout.cursor.as_ref().is_none_or(|s| s.events() < last) {
            let from: &Cursor = self.tl.anchors.last().unwrap_or(&self.tl.base);
            if from.sim.finished() {
                return;
            }
            self.scout.cursor = Some(from.clone());
        }
        let Some(mut s) = self.scout.cursor.take() else {
            return;
        };
        let mut k = 0u32;
        while !s.sim.finished() {
            if s.step(None).ev == Event::End {
                break;
            }
            // A drain's end is a state: mark it as the view's narration does.
            if let Some(b) = s.batch.as_mut() {
                if !b.drain_done && s.sim.pool.free_len() == 0 {
                    b.drain_done = true;
                }
            }
            let last = self.tl.anchors.last().map(|a| a.events()).unwrap_or(0);
            if s.events() >= last + self.tl.anchor_every {
                self.tl.anchors.push(s.clone());
                if self.tl.anchors.len() > self.tl.max_anchors {
                    self.tl.thin();
                }
            }
            k += 1;
            if k % 256 == 0 && (self.clock)() > deadline {
                break;
            }
        }
        if s.sim.finished()
            && self
                .tl
                .anchors
                .last()
                .is_none_or(|a| a.events() < s.events())
        {
            self.tl.anchors.push(s.clone());
            if self.tl.anchors.len() > self.tl.max_anchors {
                self.tl.thin();
            }
        }
        self.scout.cursor = Some(s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scout_turned_off_forgets_its_place_and_a_held_one_waits() {
        let p = Params {
            pool_mb: 16,
            ..Params::default()
        };
        let mut s = Scout::default();
        assert!(!s.may_run());
        s.set_on(true);
        assert!(s.may_run());
        s.cursor = Some(Cursor::new(&p).unwrap());
        s.held = true;
        assert!(!s.may_run() && s.cursor.is_some());
        s.held = false;
        s.set_on(false);
        assert!(!s.may_run() && s.cursor.is_none());
    }
}
