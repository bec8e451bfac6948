//! The core's shortcuts against the plain path they stand for, on random configurations.
//!
//! `BufferPool::fetch_repeated` (the scan's cursor restores on a page it has just read) counts
//! the accesses that cannot move the page at once instead of running `fetch` for each; here it
//! must leave the pool exactly as the fetches one by one do (the whole state, compared through
//! its `Debug` text), from random pools in random states: old and young pages, pages not
//! resident or never accessed, io-fixed pages, `innodb_old_blocks_time` short enough to expire
//! between two touches, the quarter rule at tiny pools, every what-if and several instances.

use midpoint::clock::Micros;
use midpoint::pool::{BufferPool, FetchMode, PageId, PoolConfig, WhatIf, WhatIfs};
use proptest::prelude::*;

/// One step of the random history before the compared call.
#[derive(Clone, Debug)]
enum Op {
    Fetch { page: u32, scan: bool, dt: Micros },
    Batch { dt: Micros },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        12 => (0u32..1_400, any::<bool>(), 0u64..3_000)
            .prop_map(|(page, scan, dt)| Op::Fetch { page, scan, dt }),
        1 => (0u64..50_000).prop_map(|dt| Op::Batch { dt }),
    ]
}

fn page(n: u32) -> PageId {
    PageId {
        space: n % 2,
        page_no: n / 2,
    }
}

fn mode(scan: bool) -> FetchMode {
    if scan {
        FetchMode::Scan
    } else {
        FetchMode::Normal
    }
}

#[derive(Clone, Debug)]
struct Repeat {
    page: u32,
    scan: bool,
    n: u32,
    cost: Micros,
    delay: Micros,
}

fn repeat() -> impl Strategy<Value = Repeat> {
    (0u32..1_400, any::<bool>(), 0u32..12, 0u64..4_000, 0u64..600).prop_map(
        |(page, scan, n, cost, delay)| Repeat {
            page,
            scan,
            n,
            cost,
            delay,
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn fetch_repeated_equals_fetches_one_by_one(
        frames in prop_oneof![3 => 520u32..700, 1 => 8u32..64],
        instances in 1u32..3,
        pct in 5u32..96,
        obt in prop_oneof![Just(0u32), Just(1), Just(2), Just(1_000)],
        read_ahead in prop_oneof![Just(0u32), Just(56), Just(63)],
        latency in 0u64..400,
        what_if in 0usize..4,
        history in prop::collection::vec(op(), 0..1_500),
        repeats in prop::collection::vec((0usize..1_500, repeat()), 1..12),
    ) {
        let cfg = PoolConfig {
            frames_per_instance: frames,
            instances,
            old_blocks_pct: pct,
            old_blocks_time_ms: obt,
            lru_scan_depth: 128,
            read_ahead_threshold: read_ahead,
            read_latency_us: latency,
            page_transfer_us: 10,
            what_ifs: WhatIf::ALL
                .get(what_if)
                .map_or(WhatIfs::NONE, |&w| WhatIfs::only(w)),
        };
        let mut pool = BufferPool::new(cfg, &[1_000, 1_000]);
        let mut now: Micros = 1;
        let mut repeats = repeats;
        for r in &mut repeats {
            r.0 %= history.len() + 1;
        }
        repeats.sort_by_key(|r| r.0);
        let mut next = repeats.iter().peekable();
        for i in 0..=history.len() {
            while let Some((_, r)) = next.next_if(|r| r.0 <= i) {
                let p = page(r.page);
                let m = mode(r.scan);
                // The scan's touches: the first right after `now + delay`, the others spread
                // over `cost`, as `TableScan::step` spaces them.
                let start = now + r.delay;
                let n = r.n;
                let time_of = |k: u32| start + r.cost * k as Micros / n.max(1) as Micros;
                let mut plain = pool.clone();
                for k in 0..n {
                    let _ = plain.fetch(p, m, time_of(k));
                }
                pool.fetch_repeated(p, m, n, time_of);
                prop_assert_eq!(format!("{pool:?}"), format!("{plain:?}"));
                pool.validate().map_err(TestCaseError::fail)?;
                now = time_of(n.saturating_sub(1)).max(now);
            }
            match history.get(i) {
                None => {}
                Some(&Op::Fetch { page: n, scan, dt }) => {
                    now += dt;
                    let _ = pool.fetch(page(n), mode(scan), now);
                }
                Some(&Op::Batch { dt }) => {
                    now += dt;
                    pool.lru_batch_all(now);
                }
            }
        }
    }
}
