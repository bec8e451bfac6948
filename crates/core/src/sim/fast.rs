//! The fast paths a seek needs: runs at full speed that stop where a caller keeping per-event
//! state must take over. Each is so many plain [`Simulation::step`]s (`tests/fast_paths.rs`
//! compares them with stepping).

use super::{Event, Simulation, DEMAND};
use crate::clock::Micros;

impl Simulation {
    /// Whether the next step may run an LRU batch that evicts pages: a page-cleaner round while
    /// some instance's free list is below `innodb_lru_scan_depth` (`buf_flush_LRU_list_batch`
    /// evicts nothing otherwise), the demand cleaner's stretch, or any step of the CPU model
    /// (whose steps may pass through a round).
    fn next_may_refill(&self, which: u32) -> bool {
        let depth = self.params.lru_scan_depth;
        self.cpu.is_some()
            || which == DEMAND
            || (which == 1 && self.pool.instances.iter().any(|i| i.free.len() < depth))
    }

    /// Runs whole steps at full speed, as [`Simulation::step`] would one at a time, while the
    /// next step starts before virtual time `before` and is neither a page-cleaner round nor
    /// the demand cleaner's (either may run an LRU batch), at most `max` steps; stops before the
    /// step that ends the run. A caller that keeps per-event state (the page's explorer) runs
    /// those steps itself and the rest here. In the CPU model, whose steps may pass through a
    /// round, it runs nothing. Returns the steps run. `tests/fast_paths.rs` compares it with
    /// plain stepping.
    pub fn run_quiet(&mut self, before: Micros, max: u64) -> u64 {
        if self.cpu.is_some() || self.write.is_some() {
            return 0;
        }
        let mut n = 0;
        while n < max {
            n += self.scan_burst(Micros::MAX, max - n, before);
            if n >= max {
                break;
            }
            let (t, which) = self.earliest();
            if t.max(self.now) >= before || t >= self.end || which == 1 || which == DEMAND {
                break;
            }
            self.step();
            n += 1;
        }
        n
    }

    /// Runs at full speed to just before the next step that is an LRU batch evicting pages (a
    /// refill), as stepping until one and going back one step would: `Some(true)` there,
    /// `Some(false)` just before the step that ends the run when no refill comes first, `None`
    /// after `max` steps without either. Steps that may be a refill are tried on a copy (the
    /// CPU model: runs ahead from a copy, then replays to the step before).
    /// `tests/fast_paths.rs` compares it with plain stepping.
    pub fn run_to_next_refill(&mut self, max: u64) -> Option<bool> {
        if self.cpu.is_some() || self.write.is_some() {
            let start = self.clone();
            let (e0, b0) = (self.events, self.batches.len());
            for _ in 0..max {
                if self.earliest().0 >= self.end {
                    let e = self.events;
                    *self = start;
                    self.run_events(e - e0);
                    return Some(false);
                }
                self.step();
                if self.batches.len() > b0 {
                    let j = self.events;
                    *self = start;
                    self.run_events(j - 1 - e0);
                    return Some(true);
                }
            }
            return None;
        }
        let mut n = 0;
        while n < max {
            n += self.run_quiet(Micros::MAX, max - n);
            if n >= max {
                break;
            }
            let (t, which) = self.earliest();
            if t >= self.end {
                return Some(false);
            }
            if self.next_may_refill(which) {
                let mut probe = self.clone();
                let b0 = probe.batches.len();
                // A demand cleaner's stretch may pass transitions with nothing to show and then
                // end the run: stepping stops just before that end, so this does too.
                if probe.step() == Event::End {
                    return Some(false);
                }
                if probe.batches.len() > b0 {
                    return Some(true);
                }
                *self = probe;
            } else {
                self.step();
            }
            n += 1;
        }
        None
    }
}
