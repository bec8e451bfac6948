//! Property tests: random configurations and event sequences, with the validator
//! (`buf_LRU_validate` and more) run after every event.

use midpoint_core::pool::page_cleaner::Cadence;
use midpoint_core::pool::{BufferPool, Fetch, FetchMode, PageId, PoolConfig, WhatIf, WhatIfs};
use midpoint_core::scenario::{Params, ScanMode, Start};
use midpoint_core::sim::{Event, Simulation};
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Op {
    Get(u32, u32),
    Scan(u32, u32),
    Create(u32, u32),
    Batch(u8),
    Advance(u32),
    SetPct(u32),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        8 => (0u32..3, 0u32..3000).prop_map(|(s, p)| Op::Get(s, p)),
        3 => (0u32..3, 0u32..3000).prop_map(|(s, p)| Op::Scan(s, p)),
        2 => (0u32..3, 0u32..3000).prop_map(|(s, p)| Op::Create(s, p)),
        1 => any::<u8>().prop_map(Op::Batch),
        3 => (0u32..3_000_000).prop_map(Op::Advance),
        1 => (5u32..=95).prop_map(Op::SetPct),
    ]
}

/// The what-ifs whose bits are set in `bits` (every combination of the three is reachable).
fn what_ifs(bits: u8) -> WhatIfs {
    let mut w = WhatIfs::NONE;
    for (k, x) in WhatIf::ALL.into_iter().enumerate() {
        if bits & (1 << k) != 0 {
            w.insert(x);
        }
    }
    w
}

fn config() -> impl Strategy<Value = PoolConfig> {
    (
        (0u8..8).prop_map(what_ifs),
        prop_oneof![1u32..600, 500u32..530, 600u32..3000],
        1u32..=4,
        5u32..=95,
        prop_oneof![Just(0u32), Just(1000u32), 0u32..3000],
        100u32..800,
        0u32..=64,
        prop_oneof![Just(0u64), 1u64..2000],
    )
        .prop_map(|(w, frames, inst, pct, obt, depth, ra, lat)| PoolConfig {
            frames_per_instance: frames,
            instances: inst,
            old_blocks_pct: pct,
            old_blocks_time_ms: obt,
            lru_scan_depth: depth,
            read_ahead_threshold: ra,
            read_latency_us: lat,
            page_transfer_us: lat / 20,
            what_ifs: w,
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn pool_invariants_hold_after_every_event(cfg in config(), ops in prop::collection::vec(op(), 1..400)) {
        let mut pool = BufferPool::new(cfg, &[3000, 3000, 3000]);
        let mut now = 1u64;
        for op in ops {
            match op {
                Op::Get(s, p) | Op::Scan(s, p) => {
                    let page = PageId { space: s, page_no: p };
                    let mode = if matches!(op, Op::Get(..)) { FetchMode::Normal } else { FetchMode::Scan };
                    if let Fetch::Done { ready_at, .. } = pool.fetch(page, mode, now) {
                        prop_assert!(ready_at >= now);
                        prop_assert!(pool.contains(page));
                    }
                }
                Op::Create(s, p) => {
                    let page = PageId { space: s, page_no: p };
                    if let Fetch::Done { .. } = pool.create(page, now) {
                        prop_assert!(pool.contains(page));
                    }
                }
                Op::Batch(i) => {
                    let i = i as usize % pool.instances.len();
                    let before = pool.instances[i].free.len();
                    let r = pool.lru_batch(i, now);
                    let inst = &pool.instances[i];
                    prop_assert_eq!(inst.free.len(), before + r.evicted);
                    prop_assert!(r.evicted <= pool.config().lru_scan_depth);
                    if r.evicted > 0 {
                        prop_assert!(inst.lru.len() >= 256);
                    }
                }
                Op::Advance(dt) => now += dt as u64,
                Op::SetPct(p) => pool.set_old_blocks_pct(p),
            }
            if let Err(e) = pool.validate() {
                return Err(TestCaseError::fail(e));
            }
        }
    }

    #[test]
    fn simulation_invariants_hold_after_every_event(
        pool_mb in 8u32..24,
        hot in 1u32..300,
        depth in 100u32..700,
        pct in 5u32..=95,
        obt in prop_oneof![Just(0u32), Just(1000u32), 0u32..3000],
        pause in prop_oneof![Just(0u32), 0u32..1500],
        cold in any::<bool>(),
        scan_mode in any::<bool>(),
        cadence in 0u8..3,
        seed in 0u64..(1 << 53),
        wi in 0u8..8,
    ) {
        let p = Params {
            pool_mb,
            hot_pages: hot,
            hot_table_pages: 400,
            scan_table_mb: 30,
            lru_scan_depth: depth,
            old_blocks_pct: pct,
            old_blocks_time: obt,
            scan_pause_ms: pause,
            start: if cold { Start::Cold } else { Start::Warm },
            scan_mode: if scan_mode { ScanMode::Scan } else { ScanMode::Normal },
            cleaner: match cadence { 0 => Cadence::EverySecond, 1 => Cadence::Never, _ => Cadence::AfterActivity { mean_interval_ms: 1500 } },
            warmup_s: 2,
            scan_s: 3,
            kept_window_s: 2,
            sample_ms: 500,
            seed,
            what_if: what_ifs(wi),
            ..Params::default()
        };
        let mut sim = Simulation::new(&p).unwrap();
        sim.pool.validate().map_err(TestCaseError::fail)?;
        let mut n = 0u64;
        loop {
            let ev = sim.step();
            // The full validator is O(pool); run it on every event for the first 3,000 and on
            // every batch, then every 97th.
            if n < 3000 || n % 97 == 0 || matches!(ev, Event::LruBatch(_)) {
                sim.pool.validate().map_err(TestCaseError::fail)?;
            }
            n += 1;
            if ev == Event::End { break; }
        }
        sim.pool.validate().map_err(TestCaseError::fail)?;
        let r = sim.report();
        prop_assert!(r.kept >= 0.0 && r.kept <= 1.0);
    }
}

#[test]
fn same_seed_same_run_different_seed_different_run() {
    let p = Params {
        pool_mb: 16,
        hot_pages: 200,
        hot_table_pages: 400,
        scan_table_mb: 40,
        warmup_s: 5,
        scan_s: 20,
        kept_window_s: 10,
        cleaner: Cadence::AfterActivity {
            mean_interval_ms: 2000,
        },
        ..Params::default()
    };
    let a = serde_json::to_string(&midpoint_core::sim::run(&p).unwrap()).unwrap();
    let b = serde_json::to_string(&midpoint_core::sim::run(&p).unwrap()).unwrap();
    assert_eq!(a, b);
    let c =
        serde_json::to_string(&midpoint_core::sim::run(&Params { seed: 2, ..p }).unwrap()).unwrap();
    assert_ne!(a, c);
}
