//! Property tests for the write path: random pools and random sequences of reads, writes,
//! page-cleaner rounds and time steps, with `BufferPool::validate` (flush-list order, dirty pages
//! only in the LRU list, io-fixed pages, doublewrite queues) after every event; and a full
//! write-path simulation validated after every event.

use midpoint_core::pool::flush::WriteConfig;
use midpoint_core::pool::{BufferPool, Fetch, FetchMode, PageId, PoolConfig};
use midpoint_core::scenario::write::WriteParams;
use midpoint_core::sim::Simulation;
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Op {
    Read(u32, u32),
    Write(u32, u32),
    Create(u32, u32),
    LruBatch,
    FlushRound(bool),
    Advance(u32),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => (0u32..2, 0u32..2000).prop_map(|(s, p)| Op::Read(s, p)),
        6 => (0u32..2, 0u32..2000).prop_map(|(s, p)| Op::Write(s, p)),
        1 => (0u32..2, 0u32..2000).prop_map(|(s, p)| Op::Create(s, p)),
        1 => Just(Op::LruBatch),
        1 => any::<bool>().prop_map(Op::FlushRound),
        3 => (0u32..50_000).prop_map(Op::Advance),
    ]
}

fn pool_and_cfg() -> impl Strategy<Value = (PoolConfig, midpoint_core::io::DeviceModel, WriteConfig)>
{
    (
        prop_oneof![300u32..600, 600u32..1500],
        1u32..=3,
        100u32..400,
        any::<bool>(),
        prop_oneof![Just(1u32), 2u32..20, Just(128u32)],
        prop_oneof![Just("nvme"), Just("cloud")],
        1u64..4,
    )
        .prop_map(|(frames, inst, depth, dblwr, pages, dev, redo_mb)| {
            (
                PoolConfig {
                    frames_per_instance: frames,
                    instances: inst,
                    lru_scan_depth: depth,
                    ..PoolConfig::default()
                },
                midpoint_core::io::DeviceModel::by_name(dev).unwrap(),
                WriteConfig {
                    doublewrite: dblwr,
                    doublewrite_pages: pages,
                    redo_log_capacity: redo_mb << 20,
                    flush_method: midpoint_core::pool::flush::FlushMethod::Fsync,
                    dblwr_wait_pending_batch: true,
                    flush: Default::default(),
                },
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 120, ..ProptestConfig::default() })]

    #[test]
    fn write_path_invariants_hold_after_every_event(
        (cfg, dev, wcfg) in pool_and_cfg(),
        ops in prop::collection::vec(op(), 1..400),
    ) {
        let mut pool = BufferPool::new(cfg, &[2000, 2000]);
        pool.enable_write_path(wcfg, Box::new(midpoint_core::io::Device::new(dev)));
        let mut now = 1u64;
        let mut last_pages = 0;
        for op in ops {
            pool.complete_writes(now);
            match op {
                Op::Read(s, p) => {
                    pool.fetch(PageId { space: s, page_no: p }, FetchMode::Normal, now);
                }
                Op::Write(s, p) => {
                    let page = PageId { space: s, page_no: p };
                    if let Fetch::Done { .. } = pool.fetch(page, FetchMode::Normal, now) {
                        if pool.write_fixed_until(page).is_none() {
                            let lsn = pool.redo_append(200);
                            pool.note_modification(page, lsn);
                        }
                    }
                }
                Op::Create(s, p) => {
                    pool.create(PageId { space: s, page_no: p }, now);
                }
                Op::LruBatch => {
                    pool.lru_batch_all(now);
                }
                Op::FlushRound(timeout) => {
                    last_pages = pool.flush_list_round(now, timeout, last_pages).0;
                }
                Op::Advance(dt) => now += dt as u64,
            }
            if let Err(e) = pool.validate() {
                return Err(TestCaseError::fail(format!("after {op:?} at {now}: {e}")));
            }
        }
        // Everything written eventually completes: no page stays io-fixed.
        pool.complete_writes(u64::MAX / 2);
        pool.validate().map_err(TestCaseError::fail)?;
        prop_assert_eq!(pool.write_path().unwrap().writes_in_flight(), 0);
    }
}

#[test]
fn a_write_simulation_keeps_every_invariant_after_every_event() {
    for (dblwr, pages, mix, what_if) in [
        (true, 128, "write-only", "none"),
        (true, 4, "read-write", "none"),
        (false, 16, "write-only", "none"),
        (true, 16, "read-write", "slide-spares-fresh"),
        (true, 16, "read-write", "free-frames-count-as-old"),
        (true, 16, "read-write", "user-replaces-free-frame"),
        (
            true,
            16,
            "read-write",
            "slide-spares-fresh,free-frames-count-as-old,user-replaces-free-frame",
        ),
    ] {
        let mut p = WriteParams {
            instances: 2,
            frames_per_instance: 600,
            table_pages: 5000,
            sec_pages: 500,
            lru_scan_depth: 128,
            threads: 8,
            cpus: 4,
            cpu_us_per_step: 150.0,
            doublewrite: dblwr,
            doublewrite_pages: pages,
            redo_log_capacity_mb: 8,
            warmup_s: 1,
            base_s: 1,
            scan_table_pages: 1500,
            scan_s: 1,
            ..WriteParams::default()
        };
        p.set("mix", mix).unwrap();
        p.set("what_if", what_if).unwrap();
        let mut sim = Simulation::new_write(&p).unwrap();
        sim.set_validate_each_event(true);
        while sim.step_write().unwrap() {}
        let r = sim.write_report();
        assert!(r.tps > 0.0, "{r:?}");
        assert!(r.write.pages_written > 0, "{r:?}");
        if dblwr {
            assert!(r.dblwr.writes > 0);
        } else {
            assert_eq!(r.dblwr.writes, 0);
        }
    }
}

#[test]
fn a_tiny_redo_log_forces_sync_flushing_and_writers_wait() {
    let p = WriteParams {
        instances: 1,
        frames_per_instance: 2048,
        table_pages: 20_000,
        sec_pages: 2000,
        redo_log_capacity_mb: 8,
        redo_bytes_per_write: 20_000,
        io_capacity: 100,
        io_capacity_max: 200,
        warmup_s: 1,
        base_s: 3,
        ..WriteParams::default()
    };
    let r = midpoint_core::sim::run_write(&p).unwrap();
    assert!(r.log_waits_per_s > 0.0, "{r:?}");
    assert!(r.checkpoint_age_pct_max > 90.0, "{r:?}");
}

#[test]
fn write_runs_are_deterministic() {
    let p = WriteParams {
        frames_per_instance: 1024,
        table_pages: 8000,
        sec_pages: 800,
        warmup_s: 1,
        base_s: 2,
        ..WriteParams::default()
    };
    let a = serde_json::to_string(&midpoint_core::sim::run_write(&p).unwrap()).unwrap();
    let b = serde_json::to_string(&midpoint_core::sim::run_write(&p).unwrap()).unwrap();
    assert_eq!(a, b);
}
