//! LRU: a hit moves the object to the head; a miss evicts the tail.

use super::list::{Links, List, NIL};
use super::{ensure, Policy};

/// Least recently used.
pub struct Lru {
    cap: u32,
    links: Links,
    q: List,
    resident: Vec<bool>,
}

impl Lru {
    /// An empty cache of `cap` objects.
    pub fn new(cap: u32) -> Self {
        Lru {
            cap,
            links: Links::default(),
            q: List::default(),
            resident: Vec::new(),
        }
    }
}

impl Policy for Lru {
    fn name(&self) -> &'static str {
        "lru"
    }
    #[inline]
    fn access(&mut self, id: u32, _t: u64, _next: u64) -> bool {
        ensure(&mut self.resident, id, false);
        self.links.ensure(id as usize + 1);
        if self.resident[id as usize] {
            self.links.move_to_head(&mut self.q, id);
            return true;
        }
        if self.q.len >= self.cap {
            let t = self.links.pop_tail(&mut self.q);
            if t != NIL {
                self.resident[t as usize] = false;
            }
        }
        self.links.push_head(&mut self.q, id);
        self.resident[id as usize] = true;
        false
    }
    #[inline]
    fn prefetch(&self, id: u32) {
        super::prefetch(&self.resident, id as usize);
        self.links.prefetch(id);
    }
    fn contains(&self, id: u32) -> bool {
        self.resident.get(id as usize).copied().unwrap_or(false)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::hits;
    use super::*;

    #[test]
    fn a_hit_protects_the_object_from_the_next_eviction() {
        // cap 2: 1 2 | 1 hit (1 to head) | 3 evicts 2 | 1 hit | 2 miss (evicts 3) | 3 miss
        assert_eq!(hits(&mut Lru::new(2), &[1, 2, 1, 3, 1, 2, 3]), "0010100");
    }
}
