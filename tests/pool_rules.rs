//! InnoDB's rules, one test each, through the pool's public API.

use midpoint::clock::{ms, Micros};
use midpoint::pool::{BufferPool, Fetch, FetchMode, PageId, PoolConfig};

const SPACE: u32 = 0;

fn pool(frames: u32, obt: u32, depth: u32) -> BufferPool {
    BufferPool::new(
        PoolConfig {
            frames_per_instance: frames,
            instances: 1,
            old_blocks_time_ms: obt,
            lru_scan_depth: depth,
            read_ahead_threshold: 0,
            read_latency_us: 0,
            page_transfer_us: 0,
            ..PoolConfig::default()
        },
        &[100_000, 100_000],
    )
}

fn pg(n: u32) -> PageId {
    PageId {
        space: SPACE,
        page_no: n,
    }
}

fn get(p: &mut BufferPool, n: u32, t: Micros) {
    assert!(matches!(
        p.fetch(pg(n), FetchMode::Normal, t),
        Fetch::Done { .. }
    ));
    p.validate().unwrap();
}

fn head_page(p: &BufferPool) -> PageId {
    let inst = &p.instances[0];
    inst.page(inst.lru.head())
}

fn is_old(p: &BufferPool, n: u32) -> bool {
    p.is_old(p.frame_of(pg(n)).unwrap())
}

/// Fills a 2,000-frame pool with pages 0..2000 and evicts a few so that C > 0.
fn filled(obt: u32) -> BufferPool {
    let mut p = pool(2000, obt, 1024);
    for n in 0..2010 {
        get(&mut p, 10_000 + n, 1);
    }
    p
}

#[test]
fn promotion_uses_the_first_access_not_the_last() {
    let mut p = filled(1000);
    // A new page read at t = 10 s: first access.
    let t0 = ms(10_000);
    get(&mut p, 1, t0);
    assert!(is_old(&p, 1));
    // Touched again 600 ms later: too early, stays old.
    get(&mut p, 1, t0 + ms(600));
    assert!(is_old(&p, 1));
    // 1,100 ms after the FIRST access (only 500 ms after the last): promoted.
    let before = p.stats().made_young;
    get(&mut p, 1, t0 + ms(1100));
    assert!(
        !is_old(&p, 1),
        "promotion must be judged from the first access"
    );
    assert_eq!(head_page(&p), pg(1));
    assert_eq!(p.stats().made_young, before + 1);
}

#[test]
fn first_touch_never_promotes_with_old_blocks_time_and_counts_not_young() {
    let mut p = filled(1000);
    let nm = p.stats().not_made_young;
    get(&mut p, 1, ms(10_000));
    assert!(is_old(&p, 1));
    assert_eq!(p.stats().not_made_young, nm + 1);
}

#[test]
fn warm_up_rule_no_promotion_and_no_counter_while_nothing_was_evicted() {
    let mut p = pool(2000, 1000, 1024);
    for n in 0..1500 {
        get(&mut p, n, 1);
    }
    assert_eq!(p.freed_page_clock(), 0);
    let old_page = (0..1500).find(|&n| is_old(&p, n)).unwrap();
    get(&mut p, old_page, ms(5_000));
    assert!(is_old(&p, old_page));
    assert_eq!(p.stats().made_young, 0);
    assert_eq!(p.stats().not_made_young, 0);
}

#[test]
fn old_blocks_time_zero_promotes_on_first_touch_once_past_the_quarter() {
    let mut p = pool(2000, 0, 1024);
    for n in 0..2000 {
        get(&mut p, 10_000 + n, 1);
    }
    // Quarter threshold for N = 2000, r = 378: 2000*646/4096 = 315 evictions.
    for n in 0..320 {
        get(&mut p, 20_000 + n, 2);
    }
    assert!(p.freed_page_clock() >= 315);
    get(&mut p, 1, ms(1));
    assert!(
        !is_old(&p, 1),
        "a fresh read (c = 0) is promoted on its first access"
    );
    assert_eq!(head_page(&p), pg(1));
}

#[test]
fn scan_mode_never_makes_young() {
    let mut p = filled(1000);
    let t0 = ms(10_000);
    p.fetch(pg(1), FetchMode::Scan, t0);
    p.fetch(pg(1), FetchMode::Scan, t0 + ms(5_000));
    assert!(is_old(&p, 1));
    assert_eq!(p.stats().made_young, 0);
}

#[test]
fn young_pages_move_to_head_only_past_the_quarter_and_are_not_counted() {
    let mut p = filled(1000);
    // Promote page 1 at t = 11 s (first access at 10 s).
    get(&mut p, 1, ms(10_000));
    get(&mut p, 1, ms(11_000));
    assert_eq!(head_page(&p), pg(1));
    // Another page goes to the head; page 1 is young, just stamped: a touch does not move it.
    get(&mut p, 2, ms(12_000));
    get(&mut p, 2, ms(13_100));
    assert_eq!(head_page(&p), pg(2));
    get(&mut p, 1, ms(13_200));
    assert_eq!(
        head_page(&p),
        pg(2),
        "fewer than a quarter evicted since its stamp"
    );
    // Evict past the quarter threshold (2000*646/4096 = 315).
    for n in 0..320 {
        get(&mut p, 30_000 + n, ms(13_300));
    }
    let made = p.stats().made_young;
    let moved = p.stats().young_moved_to_head;
    get(&mut p, 1, ms(13_400));
    assert_eq!(head_page(&p), pg(1));
    assert_eq!(
        p.stats().made_young,
        made,
        "a young page moved to the head is not counted"
    );
    assert_eq!(p.stats().young_moved_to_head, moved + 1);
}

#[test]
fn created_pages_go_to_the_head_young_and_accessed() {
    let mut p = filled(1000);
    assert!(matches!(
        p.create(pg(5), ms(1)),
        Fetch::Done { hit: false, .. }
    ));
    p.validate().unwrap();
    assert_eq!(head_page(&p), pg(5));
    assert!(!is_old(&p, 5));
}

#[test]
fn lru_batch_tops_up_the_free_list_to_the_depth_in_tail_order() {
    let mut p = pool(2000, 1000, 300);
    for n in 0..2000 {
        get(&mut p, n, 1);
    }
    assert_eq!(p.free_len(), 0);
    // The 300 tail pages, in tail order.
    let inst = &p.instances[0];
    let mut tail = Vec::new();
    let mut f = inst.lru.tail();
    for _ in 0..300 {
        tail.push(inst.page(f));
        f = inst.lru.prev(f);
    }
    let c0 = p.freed_page_clock();
    let r = p.lru_batch(0, ms(2));
    p.validate().unwrap();
    assert_eq!(r.evicted, 300);
    assert_eq!(p.free_len(), 300);
    assert_eq!(p.freed_page_clock(), c0 + 300);
    assert!(tail.iter().all(|&q| !p.contains(q)));
    // A second batch with the free list full does nothing.
    assert_eq!(p.lru_batch(0, ms(3)).evicted, 0);
    // Draining 100 then batching refills exactly 100.
    for n in 5000..5100 {
        get(&mut p, n, ms(4));
    }
    assert_eq!(p.lru_batch(0, ms(5)).evicted, 100);
}

#[test]
fn lru_batch_never_goes_below_256_pages() {
    let mut p = pool(600, 1000, 1000);
    for n in 0..600 {
        get(&mut p, n, 1);
    }
    let r = p.lru_batch(0, ms(2));
    p.validate().unwrap();
    assert_eq!(p.lru_len(), 256);
    assert_eq!(r.evicted, 344);
}

#[test]
fn lru_batch_passes_over_io_fixed_pages() {
    let mut p = BufferPool::new(
        PoolConfig {
            frames_per_instance: 600,
            lru_scan_depth: 100,
            read_ahead_threshold: 0,
            read_latency_us: 1_000_000,
            ..PoolConfig::default()
        },
        &[10_000],
    );
    // All reads in flight until t + 1 s; the pool is full.
    for n in 0..600 {
        p.fetch(pg(n), FetchMode::Normal, 1);
    }
    let r = p.lru_batch(0, 10);
    assert_eq!(r.evicted, 0, "every page is io-fixed");
    assert!(r.scanned > 0);
    // A read finds no replaceable page either, and says when to retry.
    assert!(matches!(
        p.fetch(pg(9_999), FetchMode::Normal, 20),
        Fetch::NoFreeFrame { retry_at } if retry_at > 20
    ));
    let r = p.lru_batch(0, 2_000_000);
    assert!(r.evicted > 0);
    p.validate().unwrap();
}

#[test]
fn slid_pages_keep_clock_zero_and_move_to_head_on_next_touch() {
    // Fill, open a free list with a batch, drain it: the drain turns the newest inserts young
    // by the slide; they keep c = 0 and, once C passes the quarter, their next touch moves them
    // to the head (uncounted).
    let mut p = pool(2000, 1000, 1024);
    for n in 0..2400 {
        get(&mut p, n, 1);
    }
    p.lru_batch(0, 2);
    let slid0 = p.slid_young_by_tag(0);
    for n in 10_000..11_024 {
        get(&mut p, n, 3);
    }
    let slid = p.slid_young_by_tag(0) - slid0;
    // 1024 - 378 - 40 = 606 for N = 16,382; here L goes 976 -> 2000: 1024 - (D(2000)-D(976)) - 40.
    let d = |l: u64| l * 378 / 1024;
    let expect = 1024 - (d(2000) - d(976)) - 40;
    assert_eq!(slid, expect);
    // The page just above LRU_old is the newest insert turned young.
    let inst = &p.instances[0];
    let above = inst.lru.prev(inst.lru.old_ptr());
    let q = inst.page(above);
    assert!(q.page_no >= 10_000);
    assert_eq!(inst.lru.stamp(above), 0);
    let moved = p.stats().young_moved_to_head;
    get(&mut p, q.page_no, ms(10));
    assert_eq!(head_page(&p), q);
    assert_eq!(p.stats().young_moved_to_head, moved + 1);
}

#[test]
fn old_blocks_pct_change_moves_the_boundary_at_once() {
    let mut p = filled(1000);
    p.set_old_blocks_pct(80);
    p.validate().unwrap();
    let l = p.lru_len() as u64;
    let target = (l * (80 * 1024 / 100) / 1024) as i64;
    assert!((p.old_len() as i64 - target).abs() <= 20);
}

#[test]
fn several_instances_stay_independent_and_valid() {
    let mut p = BufferPool::new(
        PoolConfig {
            frames_per_instance: 700,
            instances: 4,
            read_latency_us: 0,
            ..PoolConfig::default()
        },
        &[50_000],
    );
    let mut t = 1;
    for n in 0..6000 {
        if let Fetch::Done { ready_at, .. } = p.fetch(pg(n), FetchMode::Normal, t) {
            t = ready_at + 5;
        }
        if n % 500 == 0 {
            p.lru_batch_all(t);
        }
        p.validate().unwrap();
    }
    assert!(p.instances.iter().all(|i| !i.lru.is_empty()));
    assert!(p.stats().ra_pages_read > 0);
}
