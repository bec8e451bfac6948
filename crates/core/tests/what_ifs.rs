//! Each what-if's rule change on a small hand-made pool: 1,000 frames, a scan depth of 200, a
//! full list of accessed pages, then one page-cleaner refill and a drain of 200 new reads. Stock
//! InnoDB turns about `0.631 * 200 - 40` of the new reads young (reference §11.3); each patch
//! keeps them old, each in its own way.

use midpoint_core::clock::{ms, Micros};
use midpoint_core::pool::{BufferPool, Fetch, FetchMode, PageId, PoolConfig, WhatIf, WhatIfs};

const N: u32 = 1000;
const DEPTH: u32 = 200;

fn pool(w: WhatIfs) -> BufferPool {
    BufferPool::new(
        PoolConfig {
            frames_per_instance: N,
            instances: 1,
            old_blocks_time_ms: 1000,
            lru_scan_depth: DEPTH,
            read_ahead_threshold: 0,
            read_latency_us: 0,
            page_transfer_us: 0,
            what_ifs: w,
            ..PoolConfig::default()
        },
        &[10_000],
    )
}

fn get(p: &mut BufferPool, n: u32, t: Micros) {
    let page = PageId {
        space: 0,
        page_no: n,
    };
    assert!(matches!(
        p.fetch(page, FetchMode::Normal, t),
        Fetch::Done { .. }
    ));
    p.validate().unwrap();
}

fn is_old(p: &BufferPool, n: u32) -> bool {
    let g = p
        .frame_of(PageId {
            space: 0,
            page_no: n,
        })
        .expect("resident");
    p.is_old(g)
}

/// What one refill-and-drain cycle did.
struct Cycle {
    /// New reads (pages 2000..2200) left young by the boundary.
    new_young: usize,
    /// Pages the boundary turned young during the cycle.
    slid_young: u64,
    /// Pages the boundary turned young during the drain alone.
    drain_young: u64,
    /// Pages the boundary turned old during the cycle.
    slid_old: u64,
    /// LRU length before the refill and after the drain (the new reads are 1 ms apart).
    len_before: u32,
    len_after: u32,
    /// Pages the refill evicted.
    refill: u32,
}

fn cycle(w: WhatIfs) -> (BufferPool, Cycle) {
    let mut p = pool(w);
    // Fill the pool (1,200 reads, 1 ms apart), so that the list is full and every page accessed.
    for n in 0..1200 {
        get(&mut p, n, ms(1 + n as u64));
    }
    let len_before = p.lru_len();
    let (y0, o0) = (p.slid_young_by_tag(0), slides_old(&p));
    let t = ms(10_000);
    let refill = p.lru_batch(0, t).evicted;
    p.validate().unwrap();
    let y1 = p.slid_young_by_tag(0);
    for k in 0..DEPTH {
        get(&mut p, 2000 + k, t + ms(1 + k as u64));
    }
    let new_young = (2000..2000 + DEPTH).filter(|&n| !is_old(&p, n)).count();
    let c = Cycle {
        new_young,
        slid_young: p.slid_young_by_tag(0) - y0,
        drain_young: p.slid_young_by_tag(0) - y1,
        slid_old: slides_old(&p) - o0,
        len_before,
        len_after: p.lru_len(),
        refill,
    };
    (p, c)
}

fn slides_old(p: &BufferPool) -> u64 {
    p.instances[0].lru.slides.total_old()
}

#[test]
fn stock_drain_turns_the_newest_reads_young() {
    let (_, c) = cycle(WhatIfs::NONE);
    assert_eq!(c.refill, DEPTH);
    // 0.631 * 200 - 40 = 86 pages each way (the first young step un-demotes the old LRU_old).
    assert!((80..=90).contains(&c.slid_old), "{}", c.slid_old);
    assert!((80..=90).contains(&c.slid_young), "{}", c.slid_young);
    assert!(c.new_young >= 75, "{}", c.new_young);
}

#[test]
fn slide_spares_fresh_stops_at_the_first_fresh_page() {
    let (p, c) = cycle(WhatIfs::only(WhatIf::SlideSparesFresh));
    // The fill's last reads were spared while fresh; the first list operation seconds later
    // turns them young (they are past old_blocks_time). The refill still demotes the bottom of
    // the young sublist; the drain gives back at most those pages, then stops at the first new
    // read.
    assert!(c.slid_young > c.drain_young);
    assert!((80..=90).contains(&c.slid_old), "{}", c.slid_old);
    assert!(
        c.drain_young <= c.slid_old,
        "{} > {}",
        c.drain_young,
        c.slid_old
    );
    assert_eq!(c.new_young, 0, "no new read turned young");
    // The old sublist is now longer than its target, within one refill.
    let l = &p.instances[0].lru;
    let target = l.desired_old_len(l.len());
    assert!(l.old_len() > target + 20, "{} vs {target}", l.old_len());
    assert!(l.old_len() <= target + 20 + DEPTH);
    // Once the boundary page is past old_blocks_time, the next list operation moves on.
    let mut p = p;
    get(&mut p, 5000, ms(10_000 + 201 + 2000));
    let l = &p.instances[0].lru;
    assert!(l.old_len() < target + 20 + DEPTH);
}

#[test]
fn free_frames_count_as_old_leaves_the_boundary_still() {
    let (p, c) = cycle(WhatIfs::only(WhatIf::FreeFramesCountAsOld));
    assert_eq!(c.refill, DEPTH);
    assert_eq!(c.slid_old, 0, "no bulk demotion");
    assert_eq!(c.slid_young, 0, "no slide");
    assert_eq!(c.new_young, 0);
    // With the free list empty the target is stock's own.
    let l = &p.instances[0].lru;
    assert_eq!(p.free_len(), 0);
    assert_eq!(l.desired_old_len(l.len()), (N as u64 * 378 / 1024) as u32);
}

#[test]
fn user_replaces_free_frame_keeps_the_list_length() {
    let (p, c) = cycle(WhatIfs::only(WhatIf::UserReplacesFreeFrame));
    // Once the free list fell below the depth, every read freed a tail page in its place.
    assert_eq!(c.len_before, N - DEPTH);
    assert_eq!(c.len_after, c.len_before);
    assert_eq!(c.refill, 0, "the cleaner finds the free list full");
    assert_eq!(c.slid_young, 0);
    assert_eq!(c.new_young, 0);
    assert_eq!(p.free_len(), DEPTH);
}
