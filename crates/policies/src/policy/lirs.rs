//! LIRS (Jiang & Zhang, SIGMETRICS '02) as libCacheSim's `LIRS` (no parameters): HIR resident
//! blocks take ⌈1 %⌉ of the cache (at least one object), LIR blocks the rest. Stack S holds
//! LIR blocks and recently seen HIR blocks (resident or not), list Q the resident HIR blocks,
//! and list NH the non-resident HIR blocks still in S, so that S can be kept to 2·c entries by
//! dropping the oldest non-resident ones. As in libCacheSim: an accessed non-resident HIR block
//! in S becomes LIR at once (demoting the LIR block at S's bottom into Q and pruning S); a
//! resident HIR block hit in S becomes LIR and leaves Q; one hit only in Q re-enters S as HIR;
//! a new block is LIR while LIR blocks are fewer than their share, else HIR in S and Q.

use super::list::{Links, List, NIL};
use super::{ensure, Policy};

const IN_S: u8 = 1;
const LIR: u8 = 2;
const RES: u8 = 4;
const IN_Q: u8 = 8;
const IN_NH: u8 = 16;

/// LIRS.
pub struct Lirs {
    cap: u64,
    lirs_limit: u64,
    hirs_limit: u64,
    lirs_count: u64,
    hirs_count: u64,
    occupied: u64,
    s_links: Links,
    q_links: Links,
    nh_links: Links,
    s: List,
    q: List,
    nh: List,
    flags: Vec<u8>,
}

impl Lirs {
    /// An empty cache of `cap` objects.
    pub fn new(cap: u32) -> Self {
        let hirs_limit = ((0.01 * cap as f64) as u64).max(1);
        Lirs {
            cap: cap as u64,
            lirs_limit: (cap as u64).saturating_sub(hirs_limit),
            hirs_limit,
            lirs_count: 0,
            hirs_count: 0,
            occupied: 0,
            s_links: Links::default(),
            q_links: Links::default(),
            nh_links: Links::default(),
            s: List::default(),
            q: List::default(),
            nh: List::default(),
            flags: Vec::new(),
        }
    }

    #[inline]
    fn f(&self, x: u32) -> u8 {
        self.flags[x as usize]
    }
    #[inline]
    fn set(&mut self, x: u32, bits: u8, on: bool) {
        let f = &mut self.flags[x as usize];
        if on {
            *f |= bits;
        } else {
            *f &= !bits;
        }
    }

    fn s_push(&mut self, x: u32, flags: u8) {
        self.s_links.push_head(&mut self.s, x);
        let f = &mut self.flags[x as usize];
        *f = (*f & !(LIR | RES)) | IN_S | flags;
    }
    fn s_remove(&mut self, x: u32) {
        self.s_links.remove(&mut self.s, x);
        self.set(x, IN_S | LIR | RES, false);
    }
    fn q_push(&mut self, x: u32) {
        self.q_links.push_head(&mut self.q, x);
        self.set(x, IN_Q, true);
    }
    fn q_remove(&mut self, x: u32) {
        self.q_links.remove(&mut self.q, x);
        self.set(x, IN_Q, false);
    }
    fn nh_remove(&mut self, x: u32) {
        if self.f(x) & IN_NH != 0 {
            self.nh_links.remove(&mut self.nh, x);
            self.set(x, IN_NH, false);
        }
    }

    /// Stack pruning: drop HIR blocks from the bottom of S until an LIR block is there.
    fn prune(&mut self) {
        while self.s.tail != self.s.head {
            let t = self.s.tail;
            let f = self.f(t);
            if f & LIR != 0 {
                break;
            }
            if f & RES == 0 {
                self.nh_remove(t);
            }
            self.s_remove(t);
        }
    }

    /// The LIR block at the bottom of S becomes a resident HIR block in Q.
    fn evict_lir(&mut self) {
        let t = self.s.tail;
        if t == NIL {
            return;
        }
        self.lirs_count = self.lirs_count.saturating_sub(1);
        self.s_remove(t);
        self.occupied -= 1;
        while self.hirs_count + 1 > self.hirs_limit && self.q.len > 0 {
            self.evict_hir();
        }
        self.q_push(t);
        self.hirs_count += 1;
        self.occupied += 1;
        self.prune();
    }

    /// The resident HIR block at the front of Q leaves the cache (non-resident if in S).
    fn evict_hir(&mut self) {
        let t = self.q.tail;
        if t == NIL {
            return;
        }
        self.hirs_count -= 1;
        self.q_remove(t);
        if self.f(t) & IN_S != 0 {
            self.set(t, RES, false);
            self.nh_links.push_head(&mut self.nh, t);
            self.set(t, IN_NH, true);
        }
        self.occupied -= 1;
    }

    /// S is kept to 2·c entries by dropping the oldest non-resident HIR blocks.
    fn limit_stack(&mut self) {
        while self.s.len as u64 > 2 * self.cap {
            let t = self.nh.tail;
            if t == NIL {
                break;
            }
            self.nh_links.remove(&mut self.nh, t);
            self.set(t, IN_NH, false);
            self.s_remove(t);
        }
    }

    fn get(&mut self, id: u32) -> bool {
        let f = self.f(id);
        if f & IN_S != 0 {
            self.s_links.move_to_head(&mut self.s, id);
        }
        if f & IN_Q != 0 {
            self.q_links.move_to_head(&mut self.q, id);
        }
        if f & IN_S != 0 {
            if f & LIR != 0 {
                self.prune();
                return true;
            }
            if f & RES != 0 {
                // A resident HIR block in S: it becomes LIR and leaves Q.
                if f & IN_Q != 0 {
                    self.hirs_count -= 1;
                    self.q_remove(id);
                    self.occupied -= 1;
                }
                while self.lirs_count + 1 > self.lirs_limit && self.s.len > 0 {
                    self.evict_lir();
                }
                self.set(id, LIR, true);
                self.lirs_count += 1;
                self.occupied += 1;
                return true;
            }
        } else if f & IN_Q != 0 {
            // A resident HIR block only in Q: back on top of S, still HIR.
            while self.lirs_count + 1 > self.lirs_limit && self.s.len > 0 {
                self.evict_lir();
            }
            self.s_push(id, RES);
            return true;
        }
        // A miss: make room as libCacheSim's can_insert, evict and insert do.
        let nonresident_in_s = f & IN_S != 0;
        if nonresident_in_s {
            while self.lirs_count + 1 > self.lirs_limit && self.s.len > 0 {
                self.evict_lir();
            }
            self.nh_remove(id);
        } else {
            if self.lirs_limit < 1 {
                return false;
            }
            if self.lirs_count + 1 > self.lirs_limit && self.hirs_count + 1 > self.hirs_limit {
                while self.hirs_count + 1 > self.hirs_limit && self.q.len > 0 {
                    self.evict_hir();
                }
            }
        }
        while self.occupied + 1 > self.cap {
            let before = (self.occupied, self.lirs_count, self.hirs_count);
            let g = self.f(id);
            if g & IN_S != 0 && g & (LIR | RES) == 0 {
                while self.hirs_count >= self.hirs_limit && self.q.len > 0 {
                    self.evict_hir();
                }
                self.evict_lir();
            } else if g & (IN_S | IN_Q) == 0
                && self.lirs_count + 1 > self.lirs_limit
                && self.hirs_count + 1 > self.hirs_limit
            {
                self.evict_hir();
            }
            if before == (self.occupied, self.lirs_count, self.hirs_count) {
                break;
            }
        }
        let g = self.f(id);
        if g & IN_S != 0 && g & (LIR | RES) == 0 {
            self.set(id, LIR | RES, true);
            self.lirs_count += 1;
            self.occupied += 1;
        } else if g & (IN_S | IN_Q) == 0 {
            if self.lirs_count < self.lirs_limit {
                self.s_push(id, LIR | RES);
                self.lirs_count += 1;
            } else {
                self.s_push(id, RES);
                self.q_push(id);
                self.hirs_count += 1;
            }
            self.occupied += 1;
        }
        false
    }
}

impl Policy for Lirs {
    fn name(&self) -> &'static str {
        "lirs"
    }
    fn access(&mut self, id: u32, _t: u64, _next: u64) -> bool {
        ensure(&mut self.flags, id, 0);
        self.s_links.ensure(id as usize + 1);
        self.q_links.ensure(id as usize + 1);
        self.nh_links.ensure(id as usize + 1);
        let hit = self.get(id);
        self.limit_stack();
        hit
    }
    #[inline]
    fn prefetch(&self, id: u32) {
        super::prefetch(&self.flags, id as usize);
        self.s_links.prefetch(id);
    }
    fn contains(&self, id: u32) -> bool {
        self.flags
            .get(id as usize)
            .is_some_and(|&f| (f & IN_S != 0 && f & (LIR | RES) != 0) || f & IN_Q != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::hits;
    use super::*;

    #[test]
    fn a_non_resident_block_seen_again_in_s_becomes_lir_and_s_is_pruned() {
        // cap 3: LIR share 2, HIR share 1. 1 2 are LIR; 3 is a resident HIR (S and Q); 4
        // pushes 3 out of Q (still in S, non-resident) and takes its place. 3 again: a miss,
        // but it is in S, so it becomes LIR; LIR 1 at S's bottom is demoted into Q (pushing 4
        // out, non-resident). 2 hits as LIR; pruning then drops non-resident 4 from S.
        let mut l = Lirs::new(3);
        assert_eq!(hits(&mut l, &[1, 2, 3, 4, 3, 2]), "000001");
        assert_eq!(l.f(3) & (LIR | RES), LIR | RES);
        assert_eq!(l.f(1) & (IN_S | IN_Q), IN_Q);
        assert!(l.contains(1) && l.contains(2) && l.contains(3) && !l.contains(4));
        assert_eq!((l.s.len, l.q.len, l.nh.len), (2, 1, 0));
        assert_eq!((l.lirs_count, l.hirs_count, l.occupied), (2, 1, 3));
    }
}
