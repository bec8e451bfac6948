//! SIEVE (Zhang et al., NSDI '24) as libCacheSim's `Sieve`: objects enter at the head with
//! their visited bit clear; a hit sets it. A hand walks from the tail towards the head, clearing
//! set bits, and evicts the first object whose bit is clear; the hand then rests on the evicted
//! object's neighbour towards the head and wraps to the tail past the head. Survivors never move.

use super::list::{Links, List, NIL};
use super::{ensure, Policy};

/// SIEVE.
pub struct Sieve {
    cap: u32,
    links: Links,
    q: List,
    hand: u32,
    /// 0: not cached; 1: cached, bit clear; 2: cached, visited.
    state: Vec<u8>,
}

impl Sieve {
    /// An empty cache of `cap` objects.
    pub fn new(cap: u32) -> Self {
        Sieve {
            cap,
            links: Links::default(),
            q: List::default(),
            hand: NIL,
            state: Vec::new(),
        }
    }
}

impl Policy for Sieve {
    fn name(&self) -> &'static str {
        "sieve"
    }
    #[inline]
    fn access(&mut self, id: u32, _t: u64, _next: u64) -> bool {
        ensure(&mut self.state, id, 0);
        self.links.ensure(id as usize + 1);
        if self.state[id as usize] != 0 {
            self.state[id as usize] = 2;
            return true;
        }
        if self.q.len >= self.cap {
            let mut x = if self.hand == NIL {
                self.q.tail
            } else {
                self.hand
            };
            while self.state[x as usize] == 2 {
                self.state[x as usize] = 1;
                let p = self.links.prev(x);
                x = if p == NIL { self.q.tail } else { p };
            }
            self.hand = self.links.prev(x);
            self.links.remove(&mut self.q, x);
            self.state[x as usize] = 0;
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
    fn visited_objects_stay_in_place_and_the_hand_moves_on() {
        // cap 3: 1 2 3 | 1 hit | 4: hand at tail 1 (visited → clear), 2 evicted, hand → 3
        // | 1 hit (visited again) | 5: hand at 3, clear → evicted, hand → 4 | 2 miss: 4 evicted | 1 hit.
        assert_eq!(
            hits(&mut Sieve::new(3), &[1, 2, 3, 1, 4, 1, 5, 2, 1]),
            "000101001"
        );
    }
}
