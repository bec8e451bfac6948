//! One buffer pool instance's share of a pool: what a forecast and the page simulate of a pool
//! of several instances.
//!
//! `buf_pool_get` sends each 64-page extent to one instance by a hash, so each of `n`
//! instances holds an n-th of every table's extents, sees an n-th of the lookups and of the
//! scan, and runs its own LRU batches of `innodb_lru_scan_depth`. One instance with an n-th of
//! the pool, of the hot set and of both rates is the same system at an n-th of the cost: its
//! kept is the pool's, and the pool's rates are n times its own.

use midpoint_core::scenario::Params;

/// One instance's share of `p` (its `buffer_pool_instances`), or `p` itself for one instance.
pub fn instance_share(p: &Params) -> Params {
    share_of(p, p.buffer_pool_instances)
}

/// An n-th of `p`'s pool, its hot set and both rates, as one instance (`p` itself for `n` 1).
/// With `n` the pool's instances this is [`instance_share`]; a larger `n` treats the pool as
/// split into more instances than it has (the page does this past its per-instance size).
pub fn share_of(p: &Params, n: u32) -> Params {
    let n = n.max(1);
    if n == 1 && p.buffer_pool_instances <= 1 {
        return p.clone();
    }
    let frames = p.frames_per_instance() as u64 * p.buffer_pool_instances.max(1) as u64;
    let mut q = p.clone();
    q.buffer_pool_instances = 1;
    q.pool_mb = p.pool_mb.div_ceil(n).max(8);
    if p.pool_pages > 0 {
        q.pool_pages = ((frames / n as u64) as u32).min(q.pool_mb * 64);
    }
    q.hot_pages = (p.hot_pages / n).max(1);
    q.hot_table_pages = (p.hot_table_pages / n).max(q.hot_pages);
    q.scan_table_mb = p.scan_table_mb.div_ceil(n).max(1);
    if p.idle_lookups_per_s > 0.0 {
        q.idle_lookups_per_s = p.idle_lookups_per_s / n as f64;
    } else {
        q.lookup_cpu_us = (p.lookup_cpu_us * n as f64).min(100_000.0);
    }
    if p.idle_scan_pages_per_s > 0.0 {
        q.idle_scan_pages_per_s = (p.idle_scan_pages_per_s / n as f64).max(1.0);
    }
    q
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_share_has_an_nth_of_the_pool_the_hot_set_and_the_rates() {
        let p = Params {
            pool_mb: 16384,
            buffer_pool_instances: 8,
            hot_pages: 80_000,
            hot_table_pages: 80_000,
            scan_table_mb: 49_152,
            idle_lookups_per_s: 8000.0,
            idle_scan_pages_per_s: 800.0,
            ..Params::default()
        };
        p.validate().unwrap();
        let q = instance_share(&p);
        q.validate().unwrap();
        assert_eq!(q.buffer_pool_instances, 1);
        assert_eq!(q.frames_per_instance(), p.frames_per_instance());
        assert_eq!(q.hot_pages, 10_000);
        assert_eq!(q.scan_table_mb, 6144);
        assert_eq!(q.idle_lookups_per_s, 1000.0);
        assert_eq!(q.idle_scan_pages_per_s, 100.0);
        // One instance is its own share; a split past it halves what it holds.
        let one = Params::default();
        assert_eq!(instance_share(&one), one);
        let big = Params {
            pool_mb: 65536,
            ..Params::default()
        };
        let half = share_of(&big, 2);
        assert_eq!(half.pool_mb, 32768);
        assert_eq!(
            half.frames_per_instance(),
            big.frames_per_instance() / 2,
            "the chunks' lost pages split evenly"
        );
    }
}
