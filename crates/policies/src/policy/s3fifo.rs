//! S3-FIFO (Yang et al., SOSP '23) as libCacheSim's `S3FIFO`, defaults `small_size_ratio=0.1,
//! ghost_size_ratio=0.9, move_to_main_threshold=2`: a small FIFO S of ⌊0.1·c⌋ objects, a main
//! FIFO M of the rest, and a ghost FIFO G of ⌊0.9·c⌋ ids. A miss enters S (or M when its id is
//! in G); hits count up. When room is needed and M is within its share, S's tail goes to M if
//! it was hit at least twice, else it leaves (its id to G); otherwise M's tail is reinserted
//! with its count (capped at 3) minus one while the count is positive, else evicted. As in
//! libCacheSim's current version, until the first eviction a miss that finds S full goes to M,
//! and with ⌊0.1·c⌋ < 2 nothing is cached.

use super::list::{Links, List};
use super::{ensure, Policy};

const NONE: u8 = 0;
const SMALL: u8 = 1;
const MAIN: u8 = 2;
const GHOST: u8 = 3;

/// S3-FIFO.
pub struct S3Fifo {
    cap: u32,
    small_size: u32,
    main_size: u32,
    ghost_size: u32,
    has_evicted: bool,
    links: Links,
    small: List,
    main: List,
    ghost: List,
    loc: Vec<u8>,
    freq: Vec<u8>,
}

impl S3Fifo {
    /// An empty cache of `cap` objects with libCacheSim's default ratios.
    pub fn new(cap: u32) -> Self {
        let small_size = (cap as f64 * 0.1) as u32;
        S3Fifo {
            cap,
            small_size,
            main_size: cap - small_size,
            ghost_size: (cap as f64 * 0.9) as u32,
            has_evicted: false,
            links: Links::default(),
            small: List::default(),
            main: List::default(),
            ghost: List::default(),
            loc: Vec::new(),
            freq: Vec::new(),
        }
    }

    fn remember(&mut self, x: u32) {
        if self.ghost_size == 0 {
            self.loc[x as usize] = NONE;
            return;
        }
        if self.ghost.len >= self.ghost_size {
            let t = self.links.pop_tail(&mut self.ghost);
            self.loc[t as usize] = NONE;
        }
        self.links.push_head(&mut self.ghost, x);
        self.loc[x as usize] = GHOST;
    }

    fn evict_small(&mut self) {
        while self.small.len > 0 {
            let t = self.links.pop_tail(&mut self.small);
            if self.freq[t as usize] >= 2 {
                self.links.push_head(&mut self.main, t);
                self.loc[t as usize] = MAIN;
                self.freq[t as usize] = 0;
            } else {
                self.remember(t);
                return;
            }
        }
    }

    fn evict_main(&mut self) {
        while self.main.len > 0 {
            let t = self.main.tail;
            let f = self.freq[t as usize];
            if f >= 1 {
                self.links.move_to_head(&mut self.main, t);
                self.freq[t as usize] = f.min(3) - 1;
            } else {
                self.links.remove(&mut self.main, t);
                self.loc[t as usize] = NONE;
                return;
            }
        }
    }
}

impl Policy for S3Fifo {
    fn name(&self) -> &'static str {
        "s3fifo"
    }
    #[inline]
    fn access(&mut self, id: u32, _t: u64, _next: u64) -> bool {
        ensure(&mut self.loc, id, NONE);
        ensure(&mut self.freq, id, 0);
        self.links.ensure(id as usize + 1);
        let i = id as usize;
        let mut ghost = false;
        match self.loc[i] {
            SMALL | MAIN => {
                self.freq[i] = self.freq[i].saturating_add(1);
                return true;
            }
            GHOST => {
                self.links.remove(&mut self.ghost, id);
                self.loc[i] = NONE;
                ghost = true;
            }
            _ => {}
        }
        if self.small_size < 1 {
            return false;
        }
        while self.small.len + self.main.len + 1 > self.cap {
            self.has_evicted = true;
            if self.main.len > self.main_size || self.small.len == 0 {
                self.evict_main();
            } else {
                self.evict_small();
            }
        }
        if ghost {
            self.links.push_head(&mut self.main, id);
            self.loc[i] = MAIN;
        } else {
            if self.small_size <= 1 {
                return false;
            }
            if !self.has_evicted && self.small.len >= self.small_size {
                self.links.push_head(&mut self.main, id);
                self.loc[i] = MAIN;
            } else {
                self.links.push_head(&mut self.small, id);
                self.loc[i] = SMALL;
            }
        }
        self.freq[i] = 0;
        false
    }
    #[inline]
    fn prefetch(&self, id: u32) {
        super::prefetch(&self.loc, id as usize);
        super::prefetch(&self.freq, id as usize);
        self.links.prefetch(id);
    }
    fn contains(&self, id: u32) -> bool {
        self.loc
            .get(id as usize)
            .is_some_and(|&l| l == SMALL || l == MAIN)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::hits;
    use super::*;

    #[test]
    fn objects_hit_twice_in_small_move_to_main_and_one_hit_wonders_leave() {
        // cap 20: S 2, M 18, G 18. 1 2 fill S; 3..=20 find S full before any eviction → M.
        let mut s = S3Fifo::new(20);
        let mut trace: Vec<u32> = (1..=20).collect();
        assert_eq!(hits(&mut s, &trace), "0".repeat(20));
        assert_eq!((s.small.len, s.main.len), (2, 18));
        // 1 twice (count 2), then 21: S's tail 1 has count 2 → M (over its share now), then
        // S's tail 2 has count 0 → leaves to G. 21 enters S.
        trace = vec![1, 1, 21];
        assert_eq!(hits(&mut s, &trace), "110");
        assert_eq!((s.loc[1], s.loc[2], s.loc[21]), (MAIN, GHOST, SMALL));
        // 22: M holds 19 > 18 → evict from M: its tail 3 (count 0) leaves.
        assert_eq!(hits(&mut s, &[22]), "0");
        assert_eq!(s.loc[3], NONE);
        // 2 is remembered in G: a miss that enters M directly.
        assert_eq!(hits(&mut s, &[2]), "0");
        assert_eq!(s.loc[2], MAIN);
    }
}
