//! 2Q (Johnson & Shasha, VLDB '94) as libCacheSim's `TwoQ`, defaults `Ain-size-ratio=0.25,
//! Aout-size-ratio=0.5`: a new object enters A1in, a FIFO of ⌊0.25·c⌋ objects, where hits change
//! nothing; objects pushed out of A1in are remembered (ids only) in A1out, a FIFO of ⌊0.5·c⌋ ids;
//! a miss on a remembered id goes to Am, an LRU of c − ⌊0.25·c⌋ objects. To make room, A1in
//! gives up its tail while it holds more than its share, else Am its LRU tail. (As in
//! libCacheSim, an insert into a full Am evicts Am's own tail, and a cache with ⌊0.25·c⌋ = 0
//! caches nothing.)

use super::list::{Links, List};
use super::{ensure, Policy};

const NONE: u8 = 0;
const AIN: u8 = 1;
const AOUT: u8 = 2;
const AM: u8 = 3;

/// 2Q.
pub struct TwoQ {
    cap: u32,
    ain_size: u32,
    aout_size: u32,
    am_size: u32,
    links: Links,
    ain: List,
    aout: List,
    am: List,
    loc: Vec<u8>,
}

impl TwoQ {
    /// An empty cache of `cap` objects with libCacheSim's default ratios.
    pub fn new(cap: u32) -> Self {
        let ain_size = (cap as f64 * 0.25) as u32;
        let aout_size = (cap as f64 * 0.5) as u32;
        TwoQ {
            cap,
            ain_size,
            aout_size,
            am_size: cap - ain_size,
            links: Links::default(),
            ain: List::default(),
            aout: List::default(),
            am: List::default(),
            loc: Vec::new(),
        }
    }

    fn remember(&mut self, x: u32) {
        if self.aout_size == 0 {
            self.loc[x as usize] = NONE;
            return;
        }
        if self.aout.len >= self.aout_size {
            let t = self.links.pop_tail(&mut self.aout);
            self.loc[t as usize] = NONE;
        }
        self.links.push_head(&mut self.aout, x);
        self.loc[x as usize] = AOUT;
    }
}

impl Policy for TwoQ {
    fn name(&self) -> &'static str {
        "2q"
    }
    #[inline]
    fn access(&mut self, id: u32, _t: u64, _next: u64) -> bool {
        ensure(&mut self.loc, id, NONE);
        self.links.ensure(id as usize + 1);
        let mut ghost = false;
        match self.loc[id as usize] {
            AIN => return true,
            AM => {
                self.links.move_to_head(&mut self.am, id);
                return true;
            }
            AOUT => {
                self.links.remove(&mut self.aout, id);
                self.loc[id as usize] = NONE;
                ghost = true;
            }
            _ => {}
        }
        if self.ain_size == 0 {
            return false;
        }
        while self.ain.len + self.am.len + 1 > self.cap {
            if self.ain.len > self.ain_size {
                let t = self.links.pop_tail(&mut self.ain);
                self.remember(t);
            } else {
                let t = self.links.pop_tail(&mut self.am);
                self.loc[t as usize] = NONE;
            }
        }
        if ghost {
            if self.am.len + 1 > self.am_size {
                let t = self.links.pop_tail(&mut self.am);
                self.loc[t as usize] = NONE;
            }
            self.links.push_head(&mut self.am, id);
            self.loc[id as usize] = AM;
        } else {
            self.links.push_head(&mut self.ain, id);
            self.loc[id as usize] = AIN;
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
            .is_some_and(|&l| l == AIN || l == AM)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::hits;
    use super::*;

    #[test]
    fn a_second_access_after_leaving_a1in_lands_in_am() {
        // cap 4: A1in 1, A1out 2, Am 3. 1 2 3 4 fill A1in (it may overfill while there is
        // room). 5: A1in over its share → 1 to A1out; 6: 2 to A1out. 1: remembered → a miss
        // into Am, room made by pushing 3 from A1in into A1out; then 1 hits in Am.
        let mut q = TwoQ::new(4);
        assert_eq!(hits(&mut q, &[1, 2, 3, 4, 5, 6, 1, 1]), "00000001");
        assert_eq!(q.loc[1], AM);
        assert_eq!((q.loc[2], q.loc[3]), (AOUT, AOUT));
        assert_eq!(q.ain.len + q.am.len, 4);
    }
}
