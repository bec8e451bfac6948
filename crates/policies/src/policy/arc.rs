//! ARC (Megiddo & Modha, FAST '03) as libCacheSim's `ARC` (no parameters): T1 (seen once) and
//! T2 (seen twice or more) hold the cached objects, B1 and B2 remember the ids they last
//! evicted, and the target size `p` of T1 adapts on ghost hits. As in libCacheSim, `p` and its
//! steps are floating point, a ghost hit evicts through REPLACE only when the cache is full,
//! and a miss on no list evicts only when the cache is full.

use super::list::{Links, List};
use super::{ensure, Policy};

const NONE: u8 = 0;
const T1: u8 = 1;
const T2: u8 = 2;
const B1: u8 = 3;
const B2: u8 = 4;

/// Adaptive replacement cache.
pub struct Arc {
    cap: u32,
    p: f64,
    links: Links,
    t1: List,
    t2: List,
    b1: List,
    b2: List,
    loc: Vec<u8>,
}

impl Arc {
    /// An empty cache of `cap` objects.
    pub fn new(cap: u32) -> Self {
        Arc {
            cap,
            p: 0.0,
            links: Links::default(),
            t1: List::default(),
            t2: List::default(),
            b1: List::default(),
            b2: List::default(),
            loc: Vec::new(),
        }
    }

    /// REPLACE: the LRU object of T1 goes to B1, or that of T2 to B2.
    fn replace(&mut self, in_b2: bool) {
        let t1 = self.t1.len as f64;
        let from_t1 =
            (self.t1.len > 0 && (t1 > self.p || (t1 == self.p && in_b2))) || self.t2.len == 0;
        if from_t1 {
            let x = self.links.pop_tail(&mut self.t1);
            self.links.push_head(&mut self.b1, x);
            self.loc[x as usize] = B1;
        } else {
            let x = self.links.pop_tail(&mut self.t2);
            self.links.push_head(&mut self.b2, x);
            self.loc[x as usize] = B2;
        }
    }
}

impl Policy for Arc {
    fn name(&self) -> &'static str {
        "arc"
    }
    #[inline]
    fn access(&mut self, id: u32, _t: u64, _next: u64) -> bool {
        ensure(&mut self.loc, id, NONE);
        self.links.ensure(id as usize + 1);
        let c = self.cap;
        let mut ghost = false;
        let mut in_b2 = false;
        match self.loc[id as usize] {
            T1 => {
                self.links.remove(&mut self.t1, id);
                self.links.push_head(&mut self.t2, id);
                self.loc[id as usize] = T2;
                return true;
            }
            T2 => {
                self.links.move_to_head(&mut self.t2, id);
                return true;
            }
            B1 => {
                let delta = (self.b2.len as f64 / self.b1.len as f64).max(1.0);
                self.p = (self.p + delta).min(c as f64);
                self.links.remove(&mut self.b1, id);
                ghost = true;
            }
            B2 => {
                let delta = (self.b1.len as f64 / self.b2.len as f64).max(1.0);
                self.p = (self.p - delta).max(0.0);
                self.links.remove(&mut self.b2, id);
                ghost = true;
                in_b2 = true;
            }
            _ => {}
        }
        self.loc[id as usize] = NONE;
        if self.t1.len + self.t2.len + 1 > c {
            if ghost {
                self.replace(in_b2);
            } else if self.t1.len + self.b1.len + 1 > c {
                if self.b1.len > 0 {
                    let x = self.links.pop_tail(&mut self.b1);
                    self.loc[x as usize] = NONE;
                    self.replace(false);
                } else {
                    let x = self.links.pop_tail(&mut self.t1);
                    self.loc[x as usize] = NONE;
                }
            } else {
                if self.t1.len + self.b1.len + self.t2.len + self.b2.len >= 2 * c && self.b2.len > 0
                {
                    let x = self.links.pop_tail(&mut self.b2);
                    self.loc[x as usize] = NONE;
                }
                self.replace(false);
            }
        }
        if ghost {
            self.links.push_head(&mut self.t2, id);
            self.loc[id as usize] = T2;
        } else {
            self.links.push_head(&mut self.t1, id);
            self.loc[id as usize] = T1;
        }
        false
    }
    #[inline]
    fn prefetch(&self, id: u32) {
        super::prefetch(&self.loc, id as usize);
        self.links.prefetch(id);
    }
    fn contains(&self, id: u32) -> bool {
        self.loc
            .get(id as usize)
            .is_some_and(|&l| l == T1 || l == T2)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::hits;
    use super::*;

    #[test]
    fn a_ghost_hit_in_b1_grows_t1_and_enters_t2() {
        // cap 2: 1 2 fill T1. 3: |T1| + |B1| + 1 > 2 with B1 empty → 1 dropped, no ghost.
        // 4: T1+B1+1 = 3 > 2, B1 empty → 2 dropped. 1 and 2 are forgotten: misses.
        let mut a = Arc::new(2);
        assert_eq!(hits(&mut a, &[1, 2, 3, 4, 1, 2]), "000000");
        let mut a = Arc::new(3);
        // 1 2 3 | 1 hit → T2 | 4: T1 {2,3} + B1 {} + 1 ≤ 3 → REPLACE: T1 (2) > p (0) → 2 to B1
        // | 2: ghost hit in B1, p = 1, REPLACE: T1 {3,4} len 2 > 1 → 3 to B1; 2 into T2.
        assert_eq!(hits(&mut a, &[1, 2, 3, 1, 4, 2, 1, 2]), "00010011");
        assert_eq!(a.p, 1.0);
        assert_eq!((a.loc[1], a.loc[2], a.loc[3], a.loc[4]), (T2, T2, B1, T1));
    }
}
