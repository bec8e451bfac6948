//! Standard cache traces: libCacheSim's `oracleGeneral` binary format and plain text (one id a
//! line, or one column of a CSV file), read as a stream, and an `oracleGeneral` writer that
//! fills the next-access field.
//!
//! Readers yield [`Request`]s with the trace's own 64-bit ids; [`Remap`] turns them into the
//! dense ids `0..n` the policies index their arrays with, once, while reading.

pub mod oracle;
pub mod text;

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Asks the CPU to start loading `v[i]` (nothing if `i` is out of bounds or off x86-64).
#[inline(always)]
pub fn prefetch<T>(v: &[T], i: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(x) = v.get(i) {
        // SAFETY: a prefetch is only a hint; the address is that of a live element.
        unsafe {
            std::arch::x86_64::_mm_prefetch(
                x as *const T as *const i8,
                std::arch::x86_64::_MM_HINT_T0,
            )
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (v, i);
}

/// One request of a trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    /// Trace time, µs (`oracleGeneral`: its seconds × 10⁶; text: the request's index, so one
    /// request per µs).
    pub t_us: u64,
    /// The object's id in the trace.
    pub id: u64,
    /// Position of the object's next request, or `u64::MAX` (known for `oracleGeneral` only;
    /// text readers give `u64::MAX`).
    pub next: u64,
}

/// A multiplicative hasher for integer keys (the FxHash step): one multiply per key, which
/// is all that ids drawn from a trace need.
#[derive(Default, Clone, Copy)]
pub struct IdHasher(u64);

impl Hasher for IdHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ b as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    #[inline]
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    #[inline]
    fn finish(&self) -> u64 {
        // The product's high bits depend on every bit of the key; bring them down, where the
        // table takes its bucket index (ids that are multiples of 4096 must not collide).
        self.0.rotate_left(26)
    }
}

/// A hash map keyed by trace ids.
pub type IdMap<V> = HashMap<u64, V, BuildHasherDefault<IdHasher>>;

/// Sparse trace ids to dense ids `0..n`, in order of first appearance: an open-addressing
/// table of (id, dense id) slots with linear probing, at most half full, so that a lookup
/// usually costs one cache miss.
#[derive(Clone)]
pub struct Remap {
    slots: Vec<Slot>,
    shift: u32,
    len: u32,
}

#[derive(Clone, Copy)]
#[repr(C)]
struct Slot {
    key: u64,
    val: u32,
}

const EMPTY: u32 = u32::MAX;

impl Default for Remap {
    fn default() -> Self {
        Remap::with_bits(12)
    }
}

impl Remap {
    fn with_bits(bits: u32) -> Remap {
        Remap {
            slots: vec![Slot { key: 0, val: EMPTY }; 1 << bits],
            shift: 64 - bits,
            len: 0,
        }
    }

    #[inline]
    fn home(&self, id: u64) -> usize {
        ((id ^ (id >> 31)).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    fn grow(&mut self) {
        let bits = 64 - self.shift + 1;
        let old = std::mem::replace(self, Remap::with_bits(bits));
        let mask = self.slots.len() - 1;
        for s in old.slots.into_iter().filter(|s| s.val != EMPTY) {
            let mut i = self.home(s.key);
            while self.slots[i].val != EMPTY {
                i = (i + 1) & mask;
            }
            self.slots[i] = s;
        }
        self.len = old.len;
    }

    /// Starts loading the slot where `id` would be found.
    #[inline]
    pub fn prefetch(&self, id: u64) {
        prefetch(&self.slots, self.home(id));
    }

    /// The dense id of `id`, assigning the next one on first sight. Fails past 2³¹ ids.
    #[inline]
    pub fn dense(&mut self, id: u64) -> Result<u32, String> {
        let mask = self.slots.len() - 1;
        let mut i = self.home(id);
        loop {
            let s = self.slots[i];
            if s.val == EMPTY {
                break;
            }
            if s.key == id {
                return Ok(s.val);
            }
            i = (i + 1) & mask;
        }
        if self.len >= 1 << 31 {
            return Err("the trace has more than 2,147,483,648 distinct ids".into());
        }
        let v = self.len;
        self.slots[i] = Slot { key: id, val: v };
        self.len += 1;
        if self.len as usize * 2 > self.slots.len() {
            self.grow();
        }
        Ok(v)
    }
    /// Distinct ids so far.
    pub fn len(&self) -> u32 {
        self.len
    }
    /// Whether no id was seen.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Checks a trace's next-access fields against its requests as they stream (Belady trusts them:
/// a field that lies makes its miss count meaningless, even above LRU's). Each request's field
/// must name the position of the same object's next request, or never (`u64::MAX`) when there
/// is none: a request that comes back where its object's previous field did not say, or a field
/// whose position never brings the object back, is an error naming the record. 8 bytes per
/// distinct object.
#[derive(Clone, Debug, Default)]
pub struct NextAccessCheck {
    /// Per dense id: where its last request said it comes next ([`UNSEEN`] before the first).
    expected: Vec<u64>,
    /// Fields naming a later record that has not come yet.
    pending: u64,
}

const UNSEEN: u64 = u64::MAX - 1;

impl NextAccessCheck {
    /// Checks the request at position `pos` (from 0) of dense id `id` with its field `next`.
    pub fn check(&mut self, pos: u64, id: u32, next: u64) -> Result<(), String> {
        let i = id as usize;
        if i >= self.expected.len() {
            self.expected.resize(i + 1, UNSEEN);
        }
        let said = self.expected[i];
        if said == u64::MAX {
            return Err(format!(
                "record {pos}: the object comes back, but its previous request's next access was -1 (never): the trace's next-access fields are inconsistent, and Belady would trust them"
            ));
        }
        if said != UNSEEN {
            if said != pos {
                return Err(format!(
                    "record {pos}: the object comes back, but its previous request's next access was record {said}: the trace's next-access fields are inconsistent, and Belady would trust them"
                ));
            }
            self.pending -= 1;
        }
        self.expected[i] = next;
        if next != u64::MAX {
            self.pending += 1;
        }
        Ok(())
    }

    /// At the end of the trace: every field that named a later record saw its object there.
    pub fn finish(&self) -> Result<(), String> {
        if self.pending == 0 {
            return Ok(());
        }
        Err(format!(
            "{} next-access field(s) name a record where their object does not come back: the trace's next-access fields are inconsistent, and Belady would trust them",
            self.pending
        ))
    }
}

/// Next-request positions of an in-memory trace (`u64::MAX`: never again).
pub fn next_positions(ids: &[u32], n_ids: u32) -> Vec<u64> {
    let mut last = vec![u64::MAX; n_ids as usize];
    let mut next = vec![u64::MAX; ids.len()];
    for (i, &x) in ids.iter().enumerate().rev() {
        next[i] = last[x as usize];
        last[x as usize] = i as u64;
    }
    next
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_access_fields_that_lie_are_found() {
        // Ids 0 1 0 1 2: the true fields are 2, 3, never, never, never.
        let run = |fields: [u64; 5]| -> Result<(), String> {
            let mut c = NextAccessCheck::default();
            for (pos, (&id, &next)) in [0u32, 1, 0, 1, 2].iter().zip(&fields).enumerate() {
                c.check(pos as u64, id, next)?;
            }
            c.finish()
        };
        const N: u64 = u64::MAX;
        run([2, 3, N, N, N]).unwrap();
        // Never, yet it comes back.
        let e = run([N, 3, N, N, N]).unwrap_err();
        assert!(
            e.starts_with("record 2: ") && e.contains("-1 (never)"),
            "{e}"
        );
        // Back earlier than said.
        let e = run([3, 3, N, N, N]).unwrap_err();
        assert!(
            e.starts_with("record 2: ") && e.contains("was record 3"),
            "{e}"
        );
        // A field naming a later record of another object: found at the end.
        let e = run([2, 3, N, 4, N]).unwrap_err();
        assert!(e.starts_with("1 next-access field(s)"), "{e}");
    }

    #[test]
    fn remap_is_dense_in_order_of_first_appearance() {
        let mut r = Remap::default();
        let v: Vec<u32> = [900u64, 7, 900, u64::MAX, 7]
            .iter()
            .map(|&x| r.dense(x).unwrap())
            .collect();
        assert_eq!(v, vec![0, 1, 0, 2, 1]);
        assert_eq!(r.len(), 3);
        // Through several doublings, ids with equal low bits included.
        for k in 0..100_000u64 {
            assert_eq!(
                r.dense(k << 12).unwrap(),
                if k == 0 { 3 } else { 3 + k as u32 }
            );
        }
        assert_eq!(r.dense(7).unwrap(), 1);
        assert_eq!(r.dense(99_999 << 12).unwrap(), 100_002);
    }

    #[test]
    fn next_positions_point_at_the_following_request() {
        assert_eq!(
            next_positions(&[0, 1, 0, 2, 1], 3),
            vec![2, 4, u64::MAX, u64::MAX, u64::MAX]
        );
    }
}
