//! The event queue both event loops run on: every actor (the sampler, the page cleaner, the
//! activity process, the scan, each client, the CPU model) has at most one pending wake-up, and
//! the next event is the earliest `(time, priority)`; on a tie the actor with the lower
//! priority number goes first. An actor's priority is its index.
//!
//! With few actors (at most [`LINEAR_UP_TO`], the usual case: one or a few clients) the queue
//! is an array of `time << 4 | actor` words scanned for the minimum, which is cheapest at that
//! size; with more it is a binary heap. Both give the same order.
//!
//! Each heap entry is `(time, actor)` packed into one `u128` (time in the high bits), so
//! comparing two entries is one integer comparison. An actor that is rescheduled while its entry
//! is on top (the usual case: the actor that just ran) has that entry replaced in place; any
//! other old entry is left behind and dropped when it reaches the top, recognised because the
//! actor's live wake-up (`live`) no longer matches it.

use crate::clock::Micros;
use std::cmp::Reverse;
use std::collections::binary_heap::PeekMut;
use std::collections::BinaryHeap;

/// Up to this many actors the queue is a scanned array rather than a heap.
pub const LINEAR_UP_TO: usize = 16;

/// The latest time the scanned array orders exactly.
const LATEST: Micros = (1 << 59) - 1;

/// The earliest-first queue of actor wake-ups. An actor is its priority: a small dense index.
#[derive(Clone, Debug)]
pub struct Scheduler {
    /// `None`: the scanned array (`packed`).
    heap: Option<BinaryHeap<Reverse<u128>>>,
    /// Without a heap: per actor `time << 4 | actor`, or `u64::MAX` when not scheduled (a
    /// fixed array, so that the minimum is a straight-line computation).
    packed: [u64; LINEAR_UP_TO],
    /// Per actor, its live wake-up.
    live: Vec<Option<Micros>>,
}

#[inline]
fn key(t: Micros, actor: u32) -> Reverse<u128> {
    Reverse(((t as u128) << 32) | actor as u128)
}

impl Scheduler {
    /// A queue for actors `0..actors`, none scheduled.
    pub fn new(actors: usize) -> Scheduler {
        Scheduler {
            heap: (actors > LINEAR_UP_TO).then(|| BinaryHeap::with_capacity(actors * 2)),
            live: vec![None; actors],
            packed: [u64::MAX; LINEAR_UP_TO],
        }
    }

    /// Schedules `actor` at `at` (`None`: not at all), replacing its earlier wake-up.
    #[inline]
    pub fn set(&mut self, actor: u32, at: Option<Micros>) {
        if self.heap.is_none() {
            // Times beyond 2^59 µs (18,000 years) all sort as the latest.
            self.packed[actor as usize] =
                at.map_or(u64::MAX, |t| (t.min(LATEST) << 4) | actor as u64);
            return;
        }
        let old = self.live[actor as usize];
        if old == at {
            return;
        }
        self.live[actor as usize] = at;
        let Some(heap) = self.heap.as_mut() else {
            return;
        };
        let old_key = old.map(|t| key(t, actor));
        if let Some(mut top) = heap.peek_mut() {
            if Some(*top) == old_key {
                match at {
                    Some(t) => *top = key(t, actor),
                    None => {
                        PeekMut::pop(top);
                    }
                }
                return;
            }
        }
        if let Some(t) = at {
            heap.push(key(t, actor));
        }
    }

    /// When `actor` is due, if it is scheduled.
    pub fn at(&self, actor: u32) -> Option<Micros> {
        match self.heap {
            None => Some(self.packed[actor as usize])
                .filter(|&v| v != u64::MAX)
                .map(|v| v >> 4),
            Some(_) => self.live[actor as usize],
        }
    }

    /// The next wake-up, `(time, actor)`, without taking it: the actor stays due until it is
    /// rescheduled with [`Scheduler::set`].
    #[inline]
    pub fn peek(&mut self) -> Option<(Micros, u32)> {
        let Some(heap) = self.heap.as_mut() else {
            // The lowest time; on a tie the lowest actor.
            let m = self.packed.iter().fold(u64::MAX, |m, &x| m.min(x));
            if m == u64::MAX {
                return None;
            }
            return Some((m >> 4, (m & 15) as u32));
        };
        while let Some(&Reverse(k)) = heap.peek() {
            let (t, a) = ((k >> 32) as Micros, k as u32);
            if self.live[a as usize] == Some(t) {
                return Some((t, a));
            }
            heap.pop();
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn earliest_first_then_lowest_priority_and_rescheduling_replaces() {
        for n in [4, LINEAR_UP_TO + 1] {
            script(n);
        }
    }

    fn script(n: usize) {
        let mut s = Scheduler::new(n);
        s.set(3, Some(10));
        s.set(1, Some(10));
        s.set(2, Some(5));
        assert_eq!(s.peek(), Some((5, 2)));
        s.set(2, Some(20));
        assert_eq!(s.peek(), Some((10, 1)));
        s.set(1, None);
        assert_eq!(s.peek(), Some((10, 3)));
        s.set(3, Some(10)); // unchanged: still due
        assert_eq!(s.peek(), Some((10, 3)));
        s.set(3, Some(30));
        assert_eq!(s.peek(), Some((20, 2)));
        assert_eq!(s.at(3), Some(30));
        // Back and forth while not on top: the stale entries never surface.
        s.set(3, Some(25));
        s.set(3, Some(30));
        s.set(0, Some(1 << 40));
        assert_eq!(s.peek(), Some((20, 2)));
        s.set(2, None);
        assert_eq!(s.peek(), Some((30, 3)));
        s.set(3, None);
        assert_eq!(s.peek(), Some((1 << 40, 0)));
        s.set(0, None);
        assert_eq!(s.peek(), None);
    }
}
