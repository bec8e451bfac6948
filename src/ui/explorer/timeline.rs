//! The run's timeline: the position it started from, the anchors left over the run (by the
//! run on screen and by the scout) and the recent positions kept for stepping back, within a
//! budget of bytes.

use super::cursor::Cursor;
use std::collections::VecDeque;

/// The saved positions of one run.
pub(super) struct Timeline {
    /// The start of the warm-up.
    pub(super) base: Cursor,
    /// Positions spread over the run, in order, `anchor_every` events apart or more.
    pub(super) anchors: Vec<Cursor>,
    pub(super) anchor_every: u64,
    pub(super) max_anchors: usize,
    /// The latest positions stepped from (for stepping back).
    pub(super) recent: VecDeque<Cursor>,
    pub(super) max_recent: usize,
    /// Set while a seek is far from its target: no anchors are left there.
    pub(super) anchor_hold: bool,
}

impl Timeline {
    /// A timeline starting at `base`, keeping at most `budget` bytes of snapshots.
    pub(super) fn new(base: Cursor, budget: u64) -> Timeline {
        let (max_anchors, max_recent) = snapshot_counts(budget, base.approx_bytes().max(1));
        Timeline {
            base,
            anchors: Vec::new(),
            anchor_every: 50_000,
            max_anchors,
            recent: VecDeque::new(),
            max_recent,
            anchor_hold: false,
        }
    }

    /// Keeps at most `bytes` of snapshots of `size` bytes each: fewer snapshots, further apart,
    /// and the ones over the budget dropped now.
    pub(super) fn set_budget(&mut self, bytes: u64, size: u64) {
        let (anchors, recent) = snapshot_counts(bytes, size);
        self.max_anchors = anchors;
        self.max_recent = recent;
        while self.anchors.len() > self.max_anchors {
            self.thin();
        }
        while self.recent.len() > self.max_recent {
            self.recent.pop_front();
        }
    }

    /// Snapshots kept now: anchors (spread over the run) and recent positions.
    pub(super) fn counts(&self) -> (usize, usize) {
        (self.anchors.len(), self.recent.len())
    }

    /// Leaves an anchor at `cur` if the last is `anchor_every` events back or more.
    pub(super) fn keep_anchor(&mut self, cur: &Cursor) {
        if self.anchor_hold {
            return;
        }
        let ev = cur.events();
        let last = self.anchors.last().map(|a| a.events()).unwrap_or(0);
        if ev >= last + self.anchor_every {
            self.anchors.push(cur.clone());
            if self.anchors.len() > self.max_anchors {
                self.thin();
            }
        }
    }

    /// Drops every other anchor and doubles the spacing of the next ones.
    pub(super) fn thin(&mut self) {
        let mut i = 0;
        self.anchors.retain(|_| {
            i += 1;
            i % 2 == 0
        });
        self.anchor_every *= 2;
    }

    /// Keeps `cur` among the recent positions (once; the oldest dropped over the budget).
    pub(super) fn remember(&mut self, cur: &Cursor) {
        let ev = cur.events();
        if self.recent.iter().any(|c| c.events() == ev) {
            return;
        }
        if self.max_recent == 0 {
            return;
        }
        if self.recent.len() >= self.max_recent {
            self.recent.pop_front();
        }
        self.recent.push_back(cur.clone());
    }

    /// The latest saved position at or before event `target` (the base if none is later).
    pub(super) fn latest_before(&self, target: u64) -> &Cursor {
        let mut best: &Cursor = &self.base;
        for c in self.recent.iter().chain(self.anchors.iter()) {
            if c.events() <= target && c.events() > best.events() {
                best = c;
            }
        }
        best
    }
}

/// How many spread-out anchors and recent positions fit in `budget` bytes of snapshots of
/// `size` bytes each: three quarters for anchors (at least one), a quarter for recent steps.
pub(super) fn snapshot_counts(budget: u64, size: u64) -> (usize, usize) {
    let size = size.max(1);
    (
        ((budget * 3 / 4) / size).clamp(1, 48) as usize,
        ((budget / 4) / size).clamp(0, 32) as usize,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use midpoint_core::scenario::Params;

    fn small() -> Cursor {
        let p = Params {
            pool_mb: 16,
            ..Params::default()
        };
        Cursor::new(&p).unwrap()
    }

    #[test]
    fn the_budget_splits_three_quarters_to_anchors_and_clamps() {
        assert_eq!(snapshot_counts(400, 100), (3, 1));
        assert_eq!(snapshot_counts(10, 100), (1, 0));
        assert_eq!(snapshot_counts(1 << 40, 1), (48, 32));
        assert_eq!(snapshot_counts(100, 0), (48, 25));
    }

    #[test]
    fn anchors_over_the_budget_are_thinned_and_spread_further() {
        let mut c = small();
        let size = c.approx_bytes();
        let mut tl = Timeline::new(c.clone(), size * 4 * 3);
        assert_eq!((tl.max_anchors, tl.max_recent), (9, 3));
        tl.anchor_every = 10;
        for _ in 0..200 {
            c.step(None);
            tl.keep_anchor(&c);
            tl.remember(&c);
        }
        assert!(
            tl.anchors.len() <= 9 && tl.recent.len() == 3,
            "{:?}",
            tl.counts()
        );
        assert!(tl.anchor_every > 10);
        assert!(tl.anchors.windows(2).all(|w| w[0].events() < w[1].events()));
        // The latest position at or before an event: the newest recent one at the end.
        assert_eq!(tl.latest_before(200).events(), 200);
        assert_eq!(tl.latest_before(0).events(), 0);
        // A smaller budget drops snapshots now.
        tl.set_budget(size * 4, size);
        assert_eq!(tl.counts(), (tl.anchors.len().min(3), 1));
        assert!(tl.anchors.len() <= 3);
        // A held timeline leaves no anchors.
        let n = tl.anchors.len();
        tl.anchor_hold = true;
        for _ in 0..100_000 {
            c.step(None);
            tl.keep_anchor(&c);
        }
        assert_eq!(tl.anchors.len(), n);
    }
}
