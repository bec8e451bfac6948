//! CLOCK as libCacheSim defines it (`Clock`, defaults `init_freq=0, n_bit_counter=1`): a FIFO
//! queue whose objects carry a counter of `n_bit_counter` bits, set to 0 on insert and raised by
//! one on each hit up to 2^bits − 1. To evict, the tail is taken; if its counter is above 0 it
//! is decremented and the object goes back to the head (a second chance), else it leaves.

use super::list::{Links, List};
use super::{ensure, Policy};

/// CLOCK (FIFO with reinsertion) with a 1-bit counter.
pub struct Clock {
    cap: u32,
    max_freq: u8,
    links: Links,
    q: List,
    /// 0: not cached; else 1 + the counter.
    state: Vec<u8>,
}

impl Clock {
    /// An empty cache of `cap` objects, 1-bit counters (libCacheSim's default).
    pub fn new(cap: u32) -> Self {
        Self::with_bits(cap, 1)
    }
    /// An empty cache with `bits`-bit counters (1..=7).
    pub fn with_bits(cap: u32, bits: u32) -> Self {
        Clock {
            cap,
            max_freq: ((1u32 << bits.clamp(1, 7)) - 1) as u8,
            links: Links::default(),
            q: List::default(),
            state: Vec::new(),
        }
    }
}

impl Policy for Clock {
    fn name(&self) -> &'static str {
        "clock"
    }
    #[inline]
    fn access(&mut self, id: u32, _t: u64, _next: u64) -> bool {
        ensure(&mut self.state, id, 0);
        self.links.ensure(id as usize + 1);
        let s = self.state[id as usize];
        if s != 0 {
            if s - 1 < self.max_freq {
                self.state[id as usize] = s + 1;
            }
            return true;
        }
        if self.q.len >= self.cap {
            loop {
                let t = self.q.tail;
                let st = self.state[t as usize];
                if st > 1 {
                    self.state[t as usize] = st - 1;
                    self.links.move_to_head(&mut self.q, t);
                } else {
                    self.links.remove(&mut self.q, t);
                    self.state[t as usize] = 0;
                    break;
                }
            }
        }
        self.links.push_head(&mut self.q, id);
        self.state[id as usize] = 1;
        false
    }
    #[inline]
    fn prefetch(&self, id: u32) {
        super::prefetch(&self.state, id as usize);
        self.links.prefetch(id);
    }
    fn contains(&self, id: u32) -> bool {
        self.state.get(id as usize).is_some_and(|&s| s != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::hits;
    use super::*;

    #[test]
    fn a_referenced_object_gets_a_second_chance() {
        // cap 2: 1 2 | 1 hit (bit) | 3: tail 1 has its bit, cleared, to head; 2 leaves
        // | 1 hit | 2 miss: tail 1 has its bit again → to head; 3 leaves | 3 miss: evicts 1.
        assert_eq!(
            hits(&mut Clock::new(2), &[1, 2, 1, 3, 1, 2, 3, 1]),
            "00101000"
        );
    }
}
