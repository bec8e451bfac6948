//! Belady's OPT (offline): on a miss with the cache full, evict the cached object whose next
//! request is farthest in the future (never requested again counts as farthest). As in
//! libCacheSim's `Belady`, every missed object is admitted, even one never requested again.
//! The next-request positions come with the trace (`oracleGeneral`'s next-access field, or a
//! backward pass over an in-memory trace).

use super::{ensure, Policy};

const NOT_CACHED: u32 = u32::MAX;

/// Belady's MIN/OPT, with an indexed max-heap on the next-request position.
pub struct Belady {
    cap: u32,
    /// Heap of cached ids, the farthest next request on top.
    heap: Vec<u32>,
    /// Each id's next request.
    key: Vec<u64>,
    /// Each id's place in `heap`, or `NOT_CACHED`.
    pos: Vec<u32>,
}

impl Belady {
    /// An empty cache of `cap` objects.
    pub fn new(cap: u32) -> Self {
        Belady {
            cap,
            heap: Vec::with_capacity(cap.min(1 << 24) as usize),
            key: Vec::new(),
            pos: Vec::new(),
        }
    }

    #[inline]
    fn put(&mut self, i: usize, x: u32) {
        self.heap[i] = x;
        self.pos[x as usize] = i as u32;
    }

    fn sift_up(&mut self, mut i: usize) {
        let x = self.heap[i];
        let k = self.key[x as usize];
        while i > 0 {
            let parent = (i - 1) / 2;
            let p = self.heap[parent];
            if self.key[p as usize] >= k {
                break;
            }
            self.put(i, p);
            i = parent;
        }
        self.put(i, x);
    }

    fn sift_down(&mut self, mut i: usize) {
        let n = self.heap.len();
        let x = self.heap[i];
        let k = self.key[x as usize];
        loop {
            let l = 2 * i + 1;
            if l >= n {
                break;
            }
            let r = l + 1;
            let c = if r < n && self.key[self.heap[r] as usize] > self.key[self.heap[l] as usize] {
                r
            } else {
                l
            };
            let cx = self.heap[c];
            if self.key[cx as usize] <= k {
                break;
            }
            self.put(i, cx);
            i = c;
        }
        self.put(i, x);
    }
}

impl Policy for Belady {
    fn name(&self) -> &'static str {
        "belady"
    }
    #[inline]
    fn access(&mut self, id: u32, _t: u64, next: u64) -> bool {
        ensure(&mut self.key, id, 0);
        ensure(&mut self.pos, id, NOT_CACHED);
        let i = id as usize;
        let p = self.pos[i];
        if p != NOT_CACHED {
            self.key[i] = next;
            self.sift_up(p as usize);
            self.sift_down(self.pos[i] as usize);
            return true;
        }
        if self.heap.len() as u32 >= self.cap {
            let top = self.heap[0];
            self.pos[top as usize] = NOT_CACHED;
            let last = self.heap.pop().expect("a full heap is not empty");
            if !self.heap.is_empty() {
                self.put(0, last);
                self.sift_down(0);
            }
        }
        self.key[i] = next;
        self.heap.push(id);
        self.pos[i] = (self.heap.len() - 1) as u32;
        self.sift_up(self.heap.len() - 1);
        false
    }
    #[inline]
    fn prefetch(&self, id: u32) {
        super::prefetch(&self.pos, id as usize);
        super::prefetch(&self.key, id as usize);
    }
    fn contains(&self, id: u32) -> bool {
        self.pos.get(id as usize).is_some_and(|&p| p != NOT_CACHED)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::hits;
    use super::*;

    #[test]
    fn evicts_the_object_needed_farthest_in_the_future() {
        // cap 2: 1 2 | 3 evicts 2 (next at 5) rather than 1 (next at 3) | 1 hit | 4 evicts 1
        // or 3 (neither is requested again) | 2 misses and evicts the other one | 4 hits.
        assert_eq!(hits(&mut Belady::new(2), &[1, 2, 3, 1, 4, 2, 4]), "0001001");
    }

    #[test]
    fn no_policy_here_misses_less_on_a_looping_scan() {
        // A loop of 5 objects through a 3-object cache: LRU misses every time; OPT keeps 2.
        let trace: Vec<u32> = (0..40).map(|i| i % 5).collect();
        let opt = hits(&mut Belady::new(3), &trace).matches('0').count();
        let lru = hits(&mut super::super::lru::Lru::new(3), &trace)
            .matches('0')
            .count();
        assert_eq!(lru, 40);
        assert!(opt < 25, "OPT missed {opt} of 40");
    }
}
