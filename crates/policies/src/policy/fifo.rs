//! FIFO: objects leave in the order they came; a hit changes nothing.

use super::list::{Links, List, NIL};
use super::{ensure, Policy};

/// First in, first out.
pub struct Fifo {
    cap: u32,
    links: Links,
    q: List,
    resident: Vec<bool>,
}

impl Fifo {
    /// An empty cache of `cap` objects.
    pub fn new(cap: u32) -> Self {
        Fifo {
            cap,
            links: Links::default(),
            q: List::default(),
            resident: Vec::new(),
        }
    }
}

impl Policy for Fifo {
    fn name(&self) -> &'static str {
        "fifo"
    }
    #[inline]
    fn access(&mut self, id: u32, _t: u64, _next: u64) -> bool {
        ensure(&mut self.resident, id, false);
        self.links.ensure(id as usize + 1);
        if self.resident[id as usize] {
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
    fn a_hit_does_not_save_the_oldest_object() {
        // cap 2: 1 2 | 1 hit | 3 evicts 1 (oldest, despite its hit) | 1 miss evicts 2 | 3 hit
        assert_eq!(hits(&mut Fifo::new(2), &[1, 2, 1, 3, 1, 3]), "001001");
    }
}
