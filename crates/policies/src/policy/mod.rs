//! Replacement policies side by side: LRU, FIFO, CLOCK, 2Q, ARC, SIEVE, S3-FIFO, Belady's OPT
//! and InnoDB 8.4's midpoint LRU (the real [`midpoint_core::pool`], with time, the free list and the
//! page cleaner's one-second LRU batches).
//!
//! Every policy caches whole objects of one page each, identified by dense ids `0..n` (sparse
//! trace ids are remapped once, while reading: see [`crate::trace`]), and keeps its state in
//! plain arrays indexed by id. Where libCacheSim's definition of a policy is one of several in
//! the literature, the one here is libCacheSim's, with its default parameters (each file says
//! which), so that miss counts match it request for request.

pub mod arc;
pub mod belady;
pub mod clock;
pub mod closed_loop;
pub mod compare;
pub mod fifo;
pub mod innodb;
pub mod lirs;
pub mod list;
pub mod lru;
pub mod record;
pub mod s3fifo;
pub mod sieve;
pub mod twoq;

/// "No next access" for [`Policy::access`]'s `next`.
pub const NEVER: u64 = u64::MAX;

/// One cache under one replacement policy.
pub trait Policy {
    /// The policy's name, as `--policy` spells it.
    fn name(&self) -> &'static str;
    /// One request for object `id` at trace time `t_us` (µs; only the InnoDB policy uses it).
    /// `next` is the position of the object's next request in the trace, or [`NEVER`] (only
    /// Belady uses it). Returns whether the object was in the cache.
    fn access(&mut self, id: u32, t_us: u64, next: u64) -> bool;
    /// Whether `id` is in the cache now.
    fn contains(&self, id: u32) -> bool;
    /// A hint that `id` will be requested soon: start loading its state into the cache.
    /// Changes nothing else.
    fn prefetch(&self, _id: u32) {}
}

pub use crate::trace::prefetch;

/// Policy names in the order the tables list them.
pub const NAMES: [&str; 10] = [
    "lru", "fifo", "clock", "2q", "arc", "sieve", "s3fifo", "lirs", "belady", "innodb",
];

/// A cache of `pages` pages under the policy `name` (all but `innodb`, which needs the id
/// universe: see [`innodb::Innodb::new`]).
pub fn by_name(name: &str, pages: u32) -> Result<Box<dyn Policy>, String> {
    if pages == 0 {
        return Err("the cache must hold at least one page".into());
    }
    Ok(match name {
        "lru" => Box::new(lru::Lru::new(pages)),
        "fifo" => Box::new(fifo::Fifo::new(pages)),
        "clock" => Box::new(clock::Clock::new(pages)),
        "2q" => Box::new(twoq::TwoQ::new(pages)),
        "arc" => Box::new(arc::Arc::new(pages)),
        "sieve" => Box::new(sieve::Sieve::new(pages)),
        "s3fifo" => Box::new(s3fifo::S3Fifo::new(pages)),
        "belady" => Box::new(belady::Belady::new(pages)),
        "innodb" => return Err("the innodb policy needs the number of distinct ids".into()),
        "lirs" => Box::new(lirs::Lirs::new(pages)),
        _ => {
            return Err(format!(
                "unknown policy '{name}'; known: {}",
                NAMES.join(", ")
            ))
        }
    })
}

/// Bytes of a policy's state per distinct id at most (its per-id arrays, twice their size while
/// they grow), for every policy but `innodb` and `belady`. Measured on 2 million distinct ids
/// through a 1,048,576-page cache: LIRS 12 bytes an id beside the remap, the others under 1.
pub const BYTES_PER_ID: u64 = 24;

/// Bytes of the remap of trace ids to dense ids per distinct id at most: 16-byte slots, at most
/// half full, and the old table beside the new while it doubles.
pub const REMAP_BYTES_PER_ID: u64 = 96;

/// The most memory replaying a trace of `requests` requests through the policy `name` with a
/// cache of `pages` pages takes, bytes, beside the program: every request a new id at worst
/// (the remap and the policy's per-id state), the innodb policy's whole pool, Belady's heap and
/// its check of the next-access fields; with `in_memory` (Belady on a text trace) the trace's
/// ids and next positions too.
pub fn replay_memory_estimate(name: &str, pages: u32, requests: u64, in_memory: bool) -> u64 {
    use midpoint_core::cost::{BYTES_PER_FRAME, BYTES_PER_TABLE_PAGE};
    let ids = requests;
    let cached = (pages as u64).min(ids);
    let state = match name {
        "innodb" => pages as u64 * BYTES_PER_FRAME + ids * BYTES_PER_TABLE_PAGE,
        // key 8, heap place 4, the check's 8, doubled while growing; the heap of cached ids.
        "belady" => ids * 40 + cached * 4,
        _ => ids * BYTES_PER_ID,
    };
    // Belady on a text trace: the ids (4 bytes, doubled while growing), their next positions
    // (8) and each id's last position (8).
    let trace = if in_memory {
        requests * 16 + ids * 8
    } else {
        0
    };
    ids.saturating_mul(REMAP_BYTES_PER_ID)
        .saturating_add(state)
        .saturating_add(trace)
}

/// Grows a per-id array to hold id `id`.
#[inline]
pub(crate) fn ensure<T: Clone>(v: &mut Vec<T>, id: u32, fill: T) {
    let n = id as usize + 1;
    if v.len() < n {
        let m = n.max(v.len() * 2).max(16);
        v.resize(m, fill);
    }
}

#[cfg(test)]
pub(crate) mod testutil {
    use super::Policy;

    /// Next-access positions of a small trace.
    pub fn next_of(trace: &[u32]) -> Vec<u64> {
        let mut next = vec![super::NEVER; trace.len()];
        let mut last = std::collections::HashMap::new();
        for (i, &x) in trace.iter().enumerate().rev() {
            if let Some(&j) = last.get(&x) {
                next[i] = j as u64;
            }
            last.insert(x, i);
        }
        next
    }

    /// The hit (1) / miss (0) string of a trace through a policy.
    pub fn hits(p: &mut dyn Policy, trace: &[u32]) -> String {
        let next = next_of(trace);
        trace
            .iter()
            .zip(&next)
            .enumerate()
            .map(|(i, (&x, &n))| if p.access(x, i as u64, n) { '1' } else { '0' })
            .collect()
    }
}
