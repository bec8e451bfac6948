//! The core's shortcuts against the plain path they stand for, on random configurations.
//!
//! `Simulation::run_to_end` and `run_until` run the scan's pages back to back while no other
//! actor comes first, instead of choosing the next actor for each event as `step` does; whole
//! runs (report, samples, batches, counters) must come out the same as stepping one event at a
//! time, for random scenarios on both engines, with pauses, cold starts and several cadences.
//!
//! `BufferPool::fetch_repeated` (the scan's cursor restores on a page it has just read) counts
//! the accesses that cannot move the page at once instead of running `fetch` for each; here it
//! must leave the pool exactly as the fetches one by one do (the whole state, compared through
//! its `Debug` text), from random pools in random states: old and young pages, pages not
//! resident or never accessed, io-fixed pages, `innodb_old_blocks_time` short enough to expire
//! between two touches, the quarter rule at tiny pools, every what-if and several instances.

use midpoint_core::clock::Micros;
use midpoint_core::engine::Engine;
use midpoint_core::pool::page_cleaner::Cadence;
use midpoint_core::pool::scan_run::{RunLimits, ScanPages};
use midpoint_core::pool::{BufferPool, Fetch, FetchMode, PageId, PoolConfig, WhatIf, WhatIfs};
use midpoint_core::scenario::{Params, ScanMode, Start};
use midpoint_core::sim::{Event, Simulation};
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

fn report_json(sim: &Simulation) -> String {
    serde_json::to_string(&sim.report()).expect("a report serialises")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn runs_equal_stepping_one_event_at_a_time(
        pool_mb in 8u32..20,
        hot in 1u32..300,
        threads in 1u32..4,
        depth in 100u32..700,
        pct in 5u32..=95,
        obt in prop_oneof![Just(0u32), Just(1000u32), 0u32..3000],
        pause in prop_oneof![Just(0u32), 0u32..1500],
        touches in 1u32..10,
        scan_cpu in prop_oneof![Just(15.0f64), 0.5f64..400.0],
        cold in any::<bool>(),
        scan_mode in any::<bool>(),
        mariadb in any::<bool>(),
        looping in any::<bool>(),
        cadence in 0u8..3,
        seed in 0u64..(1 << 53),
        chunk_ms in 1u64..900,
    ) {
        let p = Params {
            pool_mb,
            hot_pages: hot,
            hot_table_pages: 400,
            lookup_threads: threads,
            scan_table_mb: 30,
            lru_scan_depth: depth,
            old_blocks_pct: pct,
            old_blocks_time: obt,
            scan_pause_ms: pause,
            scan_touches_per_page: touches,
            scan_cpu_us_per_page: scan_cpu,
            scan_loop: looping,
            start: if cold { Start::Cold } else { Start::Warm },
            scan_mode: if scan_mode { ScanMode::Scan } else { ScanMode::Normal },
            engine: if mariadb { Engine::Mariadb1011 } else { Engine::Mysql84 },
            cleaner: match cadence {
                0 => Cadence::EverySecond,
                1 => Cadence::Never,
                _ => Cadence::AfterActivity { mean_interval_ms: 1500 },
            },
            warmup_s: 2,
            scan_s: 3,
            kept_window_s: 2,
            sample_ms: 500,
            seed,
            ..Params::default()
        };
        let mut stepped = Simulation::new(&p).unwrap();
        while stepped.step() != Event::End {}
        let plain = report_json(&stepped);

        let mut whole = Simulation::new(&p).unwrap();
        whole.run_to_end();
        prop_assert_eq!(whole.events(), stepped.events());
        prop_assert!(report_json(&whole) == plain, "run_to_end differs from stepping");

        // In chunks, as the progress bar runs it; each stop must be where stepping stops.
        let mut chunked = Simulation::new(&p).unwrap();
        let mut check = Simulation::new(&p).unwrap();
        while !chunked.finished() {
            let t = chunked.now() + chunk_ms * 1000;
            chunked.run_until(t);
            while check.now() < t.min(check.end()) {
                if check.step() == Event::End {
                    break;
                }
            }
            prop_assert_eq!((chunked.now(), chunked.events()), (check.now(), check.events()));
        }
        chunked.run_to_end();
        prop_assert!(report_json(&chunked) == plain, "run_until in chunks differs from stepping");

        // In slices of events, as the page's worker runs it: `run_events(n)` is n steps.
        let n = chunk_ms.min(300);
        let mut sliced = Simulation::new(&p).unwrap();
        let mut check = Simulation::new(&p).unwrap();
        loop {
            let done = sliced.run_events(n);
            let mut ended = false;
            for _ in 0..n {
                if check.step() == Event::End {
                    ended = true;
                    break;
                }
            }
            prop_assert_eq!(done, ended);
            prop_assert_eq!((sliced.now(), sliced.events()), (check.now(), check.events()));
            if done {
                break;
            }
        }
        prop_assert!(report_json(&sliced) == plain, "run_events in slices differs from stepping");
    }
}

/// One step of a history for the read-ahead comparison.
#[derive(Clone, Debug)]
enum RaOp {
    /// The scanned table's pages `from..from + n` in order (ascending or descending), each
    /// `gap` µs after the last.
    Scan {
        from: u32,
        n: u32,
        down: bool,
        gap: Micros,
    },
    /// One page of the other table.
    Fetch { page: u32, dt: Micros },
    /// A page-cleaner round.
    Batch { dt: Micros },
}

fn ra_op() -> impl Strategy<Value = RaOp> {
    prop_oneof![
        6 => (0u32..4_000, 1u32..400, prop::bool::weighted(0.2), 0u64..60)
            .prop_map(|(from, n, down, gap)| RaOp::Scan { from, n, down, gap }),
        3 => (0u32..800, 0u64..2_000).prop_map(|(page, dt)| RaOp::Fetch { page, dt }),
        1 => (0u64..50_000).prop_map(|dt| RaOp::Batch { dt }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Linear read-ahead's reads of an area at once (`read_area_by_pairs`: the tail frames
    /// moved after `LRU_old` in one block) against one eviction and one insert per page: the
    /// whole pool state compared after every step of random histories, with pools small and
    /// large (areas of 16 to 64 pages, old sublists shorter and longer than an area), every
    /// what-if, long read latencies (io-fixed tail pages), several instances, and MariaDB's
    /// demand-driven wake-ups.
    #[test]
    fn read_ahead_in_bulk_equals_page_by_page(
        frames in prop_oneof![2 => 2_048u32..3_000, 1 => 520u32..1_200, 1 => 300u32..520],
        instances in 1u32..3,
        pct in 5u32..96,
        obt in prop_oneof![Just(0u32), Just(1), Just(1_000)],
        read_ahead in prop_oneof![Just(56u32), Just(40), Just(63)],
        latency in prop_oneof![0u64..400, 20_000u64..200_000],
        what_if in 0usize..5,
        demand in any::<bool>(),
        history in prop::collection::vec(ra_op(), 1..60),
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
        let mut bulk = BufferPool::new(cfg, &[800, 4_500]);
        bulk.set_demand_refills(demand);
        let mut plain = bulk.clone();
        plain.set_shortcuts(false);
        let mut now: Micros = 1;
        for op in &history {
            match *op {
                RaOp::Scan { from, n, down, gap } => {
                    for k in 0..n {
                        let page_no = if down { from + n - 1 - k } else { from + k };
                        if page_no >= 4_500 {
                            continue;
                        }
                        let p = PageId { space: 1, page_no };
                        let a = bulk.fetch(p, FetchMode::Normal, now);
                        let b = plain.fetch(p, FetchMode::Normal, now);
                        prop_assert_eq!(a, b);
                        if let Fetch::Done { ready_at, .. } = a {
                            now = now.max(ready_at);
                        }
                        now += gap;
                    }
                }
                RaOp::Fetch { page, dt } => {
                    now += dt;
                    let p = PageId { space: 0, page_no: page };
                    prop_assert_eq!(
                        bulk.fetch(p, FetchMode::Normal, now),
                        plain.fetch(p, FetchMode::Normal, now)
                    );
                }
                RaOp::Batch { dt } => {
                    now += dt;
                    prop_assert_eq!(bulk.lru_batch_all(now), plain.lru_batch_all(now));
                }
            }
            prop_assert_eq!(format!("{bulk:?}"), format!("{plain:?}"));
            bulk.validate().map_err(TestCaseError::fail)?;
        }
        prop_assert_eq!(plain.areas_read_at_once(), 0);
    }
}

/// Plays a history of `RaOp`s on one pool (the scanned table is space 1, of 4,500 pages);
/// returns the time after it.
fn play(pool: &mut BufferPool, history: &[RaOp]) -> Micros {
    let mut now: Micros = 1;
    for op in history {
        match *op {
            RaOp::Scan { from, n, down, gap } => {
                for k in 0..n {
                    let page_no = if down { from + n - 1 - k } else { from + k };
                    if page_no >= 4_500 {
                        continue;
                    }
                    let p = PageId { space: 1, page_no };
                    if let Fetch::Done { ready_at, .. } = pool.fetch(p, FetchMode::Normal, now) {
                        now = now.max(ready_at);
                    }
                    now += gap;
                }
            }
            RaOp::Fetch { page, dt } => {
                now += dt;
                let _ = pool.fetch(
                    PageId {
                        space: 0,
                        page_no: page,
                    },
                    FetchMode::Normal,
                    now,
                );
            }
            RaOp::Batch { dt } => {
                now += dt;
                pool.lru_batch_all(now);
            }
        }
    }
    now
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// A table scan's run of resident pages in one loop (`scan_resident_run`) against what
    /// `TableScan::step` does for each page (`fetch`, then `fetch_repeated` for the further
    /// touches): the same pool state (compared whole), the same next page, time and clock, from
    /// random pools after random histories (read-ahead pages unaccessed and in flight, old and
    /// young pages, old_blocks_time short enough to expire between touches, read-ahead off,
    /// every what-if, two instances); and it stops only at a page that needs more than a hit (a
    /// miss, a read-ahead border page, the table's last page) or at its limits.
    #[test]
    fn a_run_of_resident_pages_equals_the_scans_fetches(
        frames in prop_oneof![2 => 2_048u32..3_000, 1 => 300u32..1_200],
        instances in 1u32..3,
        pct in 5u32..96,
        obt in prop_oneof![Just(0u32), Just(1), Just(1_000)],
        read_ahead in prop_oneof![Just(56u32), Just(0), Just(63)],
        latency in prop_oneof![0u64..400, 20_000u64..200_000],
        what_if in 0usize..5,
        history in prop::collection::vec(ra_op(), 1..40),
        cursor in 0u32..4_500,
        scan in any::<bool>(),
        touches in 1u32..10,
        cost in prop_oneof![Just(18u64), 0u64..400],
        bound_after in prop_oneof![Just(u64::MAX), 0u64..50_000],
        until_after in prop_oneof![Just(u64::MAX), 0u64..50_000],
        max in prop_oneof![Just(u64::MAX), 1u64..100],
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
        let mut fast = BufferPool::new(cfg, &[800, 4_500]);
        let now = play(&mut fast, &history);
        let mut plain = fast.clone();
        let at = now + 5;
        let lim = RunLimits {
            bound: at.saturating_add(1).saturating_add(bound_after),
            until: at.saturating_add(until_after),
            now,
            max,
        };
        let mode = mode(scan);
        let sp = ScanPages { space: 1, pages: 4_500, mode, touches, cost };
        let run = fast.scan_resident_run(&sp, cursor, at, &lim);
        prop_assert_eq!(fast.pages_read_in_runs(), run.pages);

        let mut t = at;
        let mut clock = now;
        for j in 0..run.pages {
            let p = PageId { space: 1, page_no: cursor + j as u32 };
            let Fetch::Done { hit, ready_at } = plain.fetch(p, mode, t) else {
                return Err(TestCaseError::fail("a page of the run needed a frame"));
            };
            prop_assert!(hit);
            plain.fetch_repeated(p, mode, touches - 1, |k| {
                ready_at + cost * (k + 1) as Micros / touches as Micros
            });
            clock = clock.max(t);
            t = ready_at + cost;
        }
        prop_assert_eq!(
            (run.cursor, run.next_at, run.now),
            (cursor + run.pages as u32, t, clock)
        );
        prop_assert_eq!(format!("{fast:?}"), format!("{plain:?}"));
        fast.validate().map_err(TestCaseError::fail)?;
        let limited = run.pages > 0 && (run.pages >= max || clock >= lim.until || t >= lim.bound);
        if !limited {
            let p = run.cursor;
            let area = plain.instances[0].read_ahead_area();
            let border = read_ahead != 0 && (p % area == 0 || p % area == area - 1);
            prop_assert!(
                p + 1 >= 4_500 || border || !plain.contains(PageId { space: 1, page_no: p }),
                "stopped before page {} for no reason", p
            );
        }
    }
}

/// Whole runs of the presets' shape (a scan through a full pool, where nearly every area is read
/// in bulk) with the pool's shortcuts on and off: the same reports.
#[test]
fn runs_with_and_without_the_pools_shortcuts_agree() {
    for (pct, obt, start, mariadb) in [
        (37u32, 1000u32, Start::Warm, false),
        (20, 0, Start::Cold, false),
        (60, 1000, Start::Restart, false),
        (37, 1000, Start::Warm, true),
    ] {
        let p = Params {
            pool_mb: 48,
            hot_pages: 900,
            old_blocks_pct: pct,
            old_blocks_time: obt,
            start,
            engine: if mariadb {
                Engine::Mariadb1011
            } else {
                Engine::Mysql84
            },
            scan_table_mb: 150,
            warmup_s: 3,
            scan_s: 20,
            ..Params::default()
        };
        let mut fast = Simulation::new(&p).unwrap();
        fast.run_to_end();
        let mut slow = Simulation::new(&p).unwrap();
        slow.pool.set_shortcuts(false);
        slow.run_to_end();
        assert!(
            report_json(&fast) == report_json(&slow),
            "pct {pct} obt {obt} {start:?}"
        );
        // On MySQL areas were read at once (not all: after each LRU batch the reads take free
        // frames). Page by page: MariaDB's readers, which scan the tail themselves, and
        // old_blocks_time 0 here, where the scan's own promotions keep the old length at the
        // bottom of its band, so that a pair's eviction moves the boundary. None without the
        // shortcuts.
        let areas = fast.pool.stats().ra_pages_read / 64;
        let at_once = fast.pool.areas_read_at_once();
        if !mariadb && obt != 0 {
            assert!(
                at_once > areas / 10,
                "{at_once} of {areas} areas read at once"
            );
        }
        assert_eq!(slow.pool.areas_read_at_once(), 0);
        // Most pages read ahead are then read by the scan in runs of hits; none without the
        // shortcuts.
        let ra = fast.pool.stats().ra_pages_read;
        assert!(
            fast.pool.pages_read_in_runs() > ra / 2,
            "{} pages in runs, {ra} read ahead",
            fast.pool.pages_read_in_runs()
        );
        assert_eq!(slow.pool.pages_read_in_runs(), 0);
    }
}

/// A small random scenario for the seek's fast paths: both engines, three cadences, the three
/// starts and, now and then, the CPU model.
#[allow(clippy::too_many_arguments)]
fn seek_params(
    pool_mb: u32,
    depth: u32,
    pct: u32,
    obt: u32,
    pause: u32,
    start: u8,
    mariadb: bool,
    cadence: u8,
    cpus: u32,
    seed: u64,
) -> Params {
    Params {
        pool_mb,
        hot_pages: 200,
        hot_table_pages: 400,
        lookup_threads: 2,
        scan_table_mb: 30,
        lru_scan_depth: depth,
        old_blocks_pct: pct,
        old_blocks_time: obt,
        scan_pause_ms: pause,
        start: match start {
            0 => Start::Warm,
            1 => Start::Cold,
            _ => Start::Restart,
        },
        engine: if mariadb {
            Engine::Mariadb1011
        } else {
            Engine::Mysql84
        },
        cleaner: match cadence {
            0 => Cadence::EverySecond,
            1 => Cadence::Never,
            _ => Cadence::AfterActivity {
                mean_interval_ms: 1500,
            },
        },
        cpus,
        warmup_s: 2,
        scan_s: 3,
        kept_window_s: 2,
        sample_ms: 500,
        seed,
        ..Params::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    /// `run_quiet` is so many plain steps, and stops only before a step it must leave to its
    /// caller: a page-cleaner round, the demand cleaner's, one at `before` or later, the end.
    #[test]
    fn quiet_runs_equal_stepping_and_stop_where_they_say(
        pool_mb in 8u32..16,
        depth in 100u32..700,
        pct in 5u32..=95,
        obt in prop_oneof![Just(0u32), Just(1000u32)],
        pause in prop_oneof![Just(0u32), 0u32..800],
        start in 0u8..3,
        mariadb in any::<bool>(),
        cadence in 0u8..3,
        cpus in prop_oneof![4 => Just(0u32), 1 => 1u32..3],
        seed in 0u64..(1 << 53),
        gaps in proptest::collection::vec((1u64..400_000, 1u64..50_000), 1..40),
    ) {
        let p = seek_params(pool_mb, depth, pct, obt, pause, start, mariadb, cadence, cpus, seed);
        let mut fast = Simulation::new(&p).unwrap();
        let mut check = Simulation::new(&p).unwrap();
        for &(gap, max) in gaps.iter().cycle().take(400) {
            if fast.finished() {
                break;
            }
            let before = fast.now() + gap;
            let n = fast.run_quiet(before, max);
            for _ in 0..n {
                let ev = check.step();
                prop_assert!(ev != Event::End, "run_quiet ran into the end");
                // Never a round: the caller keeps what a batch does (with no CPU model).
                if cpus == 0 {
                    prop_assert!(!matches!(ev, Event::LruBatch(_) | Event::CleanerIdle), "run_quiet ran {:?}", ev);
                }
            }
            prop_assert_eq!((fast.now(), fast.events()), (check.now(), check.events()));
            // The step it left: the caller's.
            let ev = check.step();
            let ev2 = fast.step();
            prop_assert_eq!(&ev, &ev2);
            if n < max && cpus == 0 && !mariadb {
                let kept = matches!(ev, Event::LruBatch(_) | Event::CleanerIdle | Event::End)
                    || check.now() >= before;
                prop_assert!(kept, "run_quiet stopped before {:?} at {} (before {})", ev, check.now(), before);
            }
        }
        fast.run_to_end();
        while check.step() != Event::End {}
        prop_assert!(report_json(&fast) == report_json(&check), "run_quiet's run differs from stepping");
    }

    /// `run_to_next_refill` stops where stepping to the next refill, then one step back, does.
    #[test]
    fn runs_to_the_next_refill_stop_just_before_it(
        pool_mb in 8u32..16,
        depth in 100u32..700,
        pct in 5u32..=95,
        pause in prop_oneof![Just(0u32), 0u32..800],
        start in 0u8..3,
        mariadb in any::<bool>(),
        cadence in 0u8..3,
        cpus in prop_oneof![4 => Just(0u32), 1 => 1u32..3],
        seed in 0u64..(1 << 53),
        max in prop_oneof![Just(u64::MAX), 1000u64..200_000],
    ) {
        let p = seek_params(pool_mb, depth, pct, 1000, pause, start, mariadb, cadence, cpus, seed);
        let mut fast = Simulation::new(&p).unwrap();
        let mut check = Simulation::new(&p).unwrap();
        loop {
            let got = fast.run_to_next_refill(max);
            // Stepping: until a step refills (or the end), then the state one step before.
            let b0 = check.batches().len();
            let mut steps = 0u64;
            let mut found = None;
            while steps < max {
                let prev = check.clone();
                let ev = check.step();
                if ev == Event::End {
                    check = prev;
                    found = Some(false);
                    break;
                }
                steps += 1;
                if check.batches().len() > b0 {
                    check = prev;
                    found = Some(true);
                    break;
                }
            }
            prop_assert_eq!(got, found);
            prop_assert_eq!((fast.now(), fast.events()), (check.now(), check.events()));
            prop_assert!(report_json(&fast) == report_json(&check));
            if got == Some(false) {
                break;
            }
            // On past the refill (or the slice).
            prop_assert_eq!(fast.step(), check.step());
        }
    }
}
