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
        self.0
    }
}

/// A hash map keyed by trace ids.
pub type IdMap<V> = HashMap<u64, V, BuildHasherDefault<IdHasher>>;

/// Sparse trace ids to dense ids `0..n`, in order of first appearance.
#[derive(Default, Clone)]
pub struct Remap {
    map: IdMap<u32>,
}

impl Remap {
    /// The dense id of `id`, assigning the next one on first sight. Fails past 2³² − 2 ids.
    #[inline]
    pub fn dense(&mut self, id: u64) -> Result<u32, String> {
        let n = self.map.len();
        match self.map.entry(id) {
            std::collections::hash_map::Entry::Occupied(e) => Ok(*e.get()),
            std::collections::hash_map::Entry::Vacant(e) => {
                if n >= (u32::MAX - 1) as usize {
                    return Err("the trace has more than 4,294,967,294 distinct ids".into());
                }
                e.insert(n as u32);
                Ok(n as u32)
            }
        }
    }
    /// Distinct ids so far.
    pub fn len(&self) -> u32 {
        self.map.len() as u32
    }
    /// Whether no id was seen.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
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
    fn remap_is_dense_in_order_of_first_appearance() {
        let mut r = Remap::default();
        let v: Vec<u32> = [900u64, 7, 900, u64::MAX, 7]
            .iter()
            .map(|&x| r.dense(x).unwrap())
            .collect();
        assert_eq!(v, vec![0, 1, 0, 2, 1]);
        assert_eq!(r.len(), 3);
    }

    #[test]
    fn next_positions_point_at_the_following_request() {
        assert_eq!(
            next_positions(&[0, 1, 0, 2, 1], 3),
            vec![2, 4, u64::MAX, u64::MAX, u64::MAX]
        );
    }
}
