//! InnoDB's rules, one test each, through the pool's public API.

use midpoint_core::clock::{ms, Micros};
use midpoint_core::pool::{BufferPool, Fetch, FetchMode, PageId, PoolConfig};

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

/// MySQL 8.4's `buf_LRU_get_free_block` on the write path, one test per rule.
mod free_block_search {
    use midpoint_core::clock::MS;
    use midpoint_core::pool::flush::WriteConfig;
    use midpoint_core::pool::{BufferPool, Fetch, FetchMode, PageId, PoolConfig};

    const FRAMES: u32 = 600;

    fn write_pool() -> BufferPool {
        let mut p = BufferPool::new(
            PoolConfig {
                frames_per_instance: FRAMES,
                read_ahead_threshold: 0,
                lru_scan_depth: 100,
                ..PoolConfig::default()
            },
            &[10_000, 10_000],
        );
        p.enable_write_path(
            WriteConfig {
                doublewrite: true,
                doublewrite_pages: 32,
                redo_log_capacity: 1 << 30,
                flush_method: midpoint_core::pool::flush::FlushMethod::Fsync,
                dblwr_wait_pending_batch: true,
                flush: Default::default(),
            },
            Box::new(midpoint_core::io::Device::new(
                midpoint_core::io::DeviceModel::by_name("nvme").unwrap(),
            )),
        );
        p
    }

    fn page(space: u32, page_no: u32) -> PageId {
        PageId { space, page_no }
    }

    /// Fills every frame but the last with dirty pages of space 0 (read at t = 1..) and puts
    /// one clean page at the head (created), 599 pages from the tail. Returns the time after.
    fn full_dirty_but_head(p: &mut BufferPool) -> u64 {
        let mut t = 1;
        for k in 0..FRAMES - 1 {
            let q = page(0, k);
            let Fetch::Done { ready_at, .. } = p.fetch(q, FetchMode::Normal, t) else {
                panic!("free frames left");
            };
            t = ready_at + 1;
            let lsn = p.redo_append(100);
            p.note_modification(q, lsn);
        }
        p.create(page(1, 0), t);
        assert_eq!(p.free_len(), 0);
        t + 1
    }

    /// Iteration 0 scans 100 tail pages only; the thread's next iteration scans the whole list.
    #[test]
    fn first_iteration_scans_100_pages_later_ones_the_whole_list() {
        let mut p = write_pool();
        let t = full_dirty_but_head(&mut p);
        let want = page(1, 1);
        assert!(matches!(
            p.fetch(want, FetchMode::Normal, t),
            Fetch::NoFreeFrame { .. }
        ));
        assert_eq!(p.free_block_iterations(want), 1);
        // Same thread, iteration 1 (no write completed yet): the whole list, the head is clean.
        assert!(matches!(
            p.fetch(want, FetchMode::Normal, t + 1),
            Fetch::Done { hit: false, .. }
        ));
        assert!(
            !p.contains(page(1, 0)),
            "the clean head page was the victim"
        );
        assert_eq!(p.free_block_iterations(want), 0, "the loop is over");
    }

    /// A failed first scan clears `try_LRU_scan`: another thread goes straight to a
    /// single-page flush even when a clean page has come within 100 of the tail, until a batch
    /// ends (`buf_flush_end`).
    #[test]
    fn a_failed_scan_sends_other_threads_to_a_single_page_flush_until_a_batch_ends() {
        let mut p = write_pool();
        let t = full_dirty_but_head(&mut p);
        assert!(matches!(
            p.fetch(page(1, 1), FetchMode::Normal, t),
            Fetch::NoFreeFrame { .. }
        ));
        assert!(!p.instances[0].try_lru_scan);
        let flushes = p.write_path().unwrap().stats.single_page_flushes;
        assert_eq!(flushes, 1);
        // Another thread, iteration 0, with try_LRU_scan cleared: no scan, a second flush.
        assert!(matches!(
            p.fetch(page(1, 2), FetchMode::Normal, t + 1),
            Fetch::NoFreeFrame { .. }
        ));
        assert_eq!(p.write_path().unwrap().stats.single_page_flushes, 2);
        assert_eq!(p.write_path().unwrap().stats.wait_free, 2);
        // An LRU batch ends (here it only writes dirty tail pages): scans are allowed again.
        p.lru_batch_all(t + 2);
        assert!(p.instances[0].try_lru_scan);
    }

    /// From the third iteration on (`n_iterations > 1`) the thread sleeps 10 ms before its
    /// single-page flush.
    #[test]
    fn the_third_iteration_sleeps_10_ms() {
        let mut p = write_pool();
        // All 600 pages dirty: no scan can succeed while no write completes.
        let mut t = 1;
        for k in 0..FRAMES {
            let q = page(0, k);
            let Fetch::Done { ready_at, .. } = p.fetch(q, FetchMode::Normal, t) else {
                panic!("free frames left");
            };
            t = ready_at + 1;
            let lsn = p.redo_append(100);
            p.note_modification(q, lsn);
        }
        let want = page(1, 1);
        let mut retries = Vec::new();
        for k in 0..3 {
            let now = t + k;
            match p.fetch(want, FetchMode::Normal, now) {
                Fetch::NoFreeFrame { retry_at } => retries.push(retry_at - now),
                Fetch::Done { .. } => panic!("no clean page anywhere"),
            }
        }
        assert_eq!(p.write_path().unwrap().stats.free_waits, 1);
        assert!(retries[0] < 10 * MS && retries[1] < 10 * MS, "{retries:?}");
        assert!(retries[2] >= 10 * MS, "{retries:?}");
        assert_eq!(p.free_block_iterations(want), 3);
    }

    /// `n_ra_pages_evicted` counts read-ahead pages a user thread's scan evicts unaccessed,
    /// not those the page cleaner's LRU batch evicts.
    #[test]
    fn ra_pages_evicted_counts_only_the_user_threads_scan() {
        let run = |by_batch: bool| {
            let mut p = BufferPool::new(
                PoolConfig {
                    frames_per_instance: FRAMES,
                    lru_scan_depth: 200,
                    read_latency_us: 10,
                    page_transfer_us: 0,
                    ..PoolConfig::default()
                },
                &[10_000, 10_000],
            );
            let mut t = 1;
            // An ordered read of one area triggers read-ahead of the next 64 pages.
            for k in 0..64 {
                t += 100;
                assert!(matches!(
                    p.fetch(page(0, k), FetchMode::Normal, t),
                    Fetch::Done { .. }
                ));
            }
            // The pages read ahead and never accessed (the area is 32 pages in a 600-frame pool).
            let ahead: Vec<u32> = (64..200).filter(|&k| p.contains(page(0, k))).collect();
            assert!(!ahead.is_empty());
            let mut k = 0;
            while p.free_len() > 0 {
                t += 100;
                p.fetch(page(1, k * 7), FetchMode::Normal, t);
                k += 1;
            }
            t += 1000;
            if by_batch {
                p.lru_batch_all(t);
                assert!(p.stats().evicted_by_batch >= 128);
            } else {
                for j in 0..200 {
                    t += 100;
                    p.fetch(page(1, 5_000 + j), FetchMode::Normal, t);
                }
                assert!(p.stats().evicted_by_user >= 128);
            }
            // The read-ahead pages gone, never accessed.
            let gone = ahead.iter().filter(|&&k| !p.contains(page(0, k))).count() as u64;
            (gone, p.stats().ra_pages_evicted)
        };
        let (gone, counted) = run(true);
        assert!(gone > 0);
        assert_eq!(counted, 0, "the batch's evictions are not counted");
        let (gone, counted) = run(false);
        assert!(gone > 0);
        assert_eq!(counted, gone, "each one the user thread evicted is counted");
    }
}

/// MySQL 8.4's doublewrite batches (buf0dblwr.cc), one test per rule.
mod doublewrite_batches {
    use midpoint_core::pool::flush::{FlushMethod, WriteConfig};
    use midpoint_core::pool::{BufferPool, Fetch, FetchMode, PageId, PoolConfig};

    /// One instance with `dirty` dirty pages, doublewrite batches of 4 pages.
    fn pool(method: FlushMethod, wait: bool, dirty: u32) -> (BufferPool, u64) {
        let mut p = BufferPool::new(
            PoolConfig {
                frames_per_instance: 600,
                read_ahead_threshold: 0,
                lru_scan_depth: 100,
                ..PoolConfig::default()
            },
            &[10_000],
        );
        p.enable_write_path(
            WriteConfig {
                doublewrite: true,
                doublewrite_pages: 4,
                redo_log_capacity: 1 << 30,
                flush_method: method,
                dblwr_wait_pending_batch: wait,
                flush: Default::default(),
            },
            Box::new(midpoint_core::io::Device::new(
                midpoint_core::io::DeviceModel::by_name("nvme").unwrap(),
            )),
        );
        let mut t = 1;
        for k in 0..dirty {
            let q = PageId {
                space: 0,
                page_no: k,
            };
            let Fetch::Done { ready_at, .. } = p.fetch(q, FetchMode::Normal, t) else {
                panic!("free frames left");
            };
            t = ready_at + 1;
            let lsn = p.redo_append(100);
            p.note_modification(q, lsn);
        }
        (p, t + 1_000_000)
    }

    /// `Double_write::flush_to_disk` → `wait_for_pending_batch`: a doublewrite instance's next
    /// batch starts only after the last data write of its previous batch (`Batch_segment::
    /// completed` in `write_complete`), so a 12-page flush-list batch through a 4-page buffer
    /// is three batches one after the other: it takes longer, and the flushing thread waits.
    #[test]
    fn the_next_batch_waits_for_the_previous_batch_to_complete() {
        let (mut on, t) = pool(FlushMethod::Fsync, true, 12);
        let (mut off, _) = pool(FlushMethod::Fsync, false, 12);
        assert_eq!(on.flush_list_batch(0, 12, u64::MAX, t), 12);
        assert_eq!(off.flush_list_batch(0, 12, u64::MAX, t), 12);
        let (w_on, w_off) = (on.write_path().unwrap(), off.write_path().unwrap());
        assert_eq!(w_on.dblwr.stats.batch_writes, 3);
        assert_eq!(w_off.dblwr.stats.batch_writes, 3);
        assert!(
            w_on.dblwr.stats.segment_wait_us > w_off.dblwr.stats.segment_wait_us,
            "{} vs {}",
            w_on.dblwr.stats.segment_wait_us,
            w_off.dblwr.stats.segment_wait_us
        );
        // The thread is released after the third batch's doublewrite write, which waited for
        // the second batch's data writes: later than without the wait.
        assert!(w_on.cleaner_t > w_off.cleaner_t);
        // Every data write of a batch completes before the next batch's doublewrite write
        // starts: the last completion comes after the other run's.
        assert!(w_on.next_completion().is_some());
        on.complete_writes(u64::MAX);
        off.complete_writes(u64::MAX);
        assert_eq!(on.dirty_pages(), 0);
        assert_eq!(off.dirty_pages(), 0);
    }

    /// `Double_write::is_fsync_required`: with `O_DIRECT` the doublewrite write is not
    /// fsynced (the data files still are, `fil_flush_file_spaces` at the batch's end); with
    /// `O_DIRECT_NO_FSYNC` neither is.
    #[test]
    fn o_direct_skips_the_doublewrite_fsync() {
        let fsyncs = |m| {
            let (mut p, t) = pool(m, true, 12);
            p.flush_list_batch(0, 12, u64::MAX, t);
            p.write_path().unwrap().device.stats().fsyncs
        };
        // Three batches: one doublewrite fsync and one data-file fsync each.
        assert_eq!(fsyncs(FlushMethod::Fsync), 6);
        assert_eq!(fsyncs(FlushMethod::ODirect), 3);
        assert_eq!(fsyncs(FlushMethod::ODirectNoFsync), 0);
    }
}
