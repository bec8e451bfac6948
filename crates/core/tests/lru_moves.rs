//! `Lru::make_block_young`'s shortcut (a page relinked at the head when neither of
//! `buf_LRU_old_adjust_len`'s two calls would move the boundary) against what it stands for,
//! `remove_block` then `add_block(_, false)`: the whole list compared (links, flags, stamps,
//! lengths, `LRU_old`, the slide counters and log) after every promotion, on random lists.

use midpoint_core::pool::lru::{old_ratio_from_pct, Lru};
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Op {
    /// Insert a free frame (the `n`-th free one), old or at the head.
    Add { n: u32, old: bool },
    /// Remove the `n`-th page from the head.
    Remove { n: u32 },
    /// Promote the `n`-th page from the head.
    Young { n: u32 },
    /// One eviction's clock tick.
    Tick,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => (any::<u32>(), any::<bool>()).prop_map(|(n, old)| Op::Add { n, old }),
        2 => any::<u32>().prop_map(|n| Op::Remove { n }),
        8 => any::<u32>().prop_map(|n| Op::Young { n }),
        1 => Just(Op::Tick),
    ]
}

fn nth<I: Iterator<Item = u32>>(mut it: I, n: u32, count: u32) -> Option<u32> {
    if count == 0 {
        None
    } else {
        it.nth((n % count) as usize)
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn promotion_equals_remove_then_add(
        capacity in 520u32..900,
        pct in 5u32..=95,
        fill in 0u32..900,
        count_free_as_old in any::<bool>(),
        ops in proptest::collection::vec(op(), 1..400),
    ) {
        let mut l = Lru::new(capacity, old_ratio_from_pct(pct));
        l.adjust.count_free_as_old = count_free_as_old;
        l.slide_log = Some(Vec::new());
        // A list of up to `capacity` pages, every third inserted at the head.
        for f in 0..fill.min(capacity) {
            l.add_block(f, f % 3 != 0);
        }
        for op in ops {
            match op {
                Op::Add { n, old } => {
                    let free = (0..capacity).filter(|&f| !l.contains(f));
                    if let Some(f) = nth(free, n, capacity - l.len()) {
                        l.add_block(f, old);
                    }
                }
                Op::Remove { n } => {
                    if let Some(f) = nth(l.iter(), n, l.len()) {
                        l.remove_block(f);
                    }
                }
                Op::Young { n } => {
                    let Some(f) = nth(l.iter(), n, l.len()) else { continue };
                    let mut want = l.clone();
                    let was_old = want.is_old(f);
                    want.remove_block(f);
                    want.add_block(f, false);
                    prop_assert_eq!(l.make_block_young(f), was_old);
                    prop_assert_eq!(format!("{l:?}"), format!("{want:?}"));
                }
                Op::Tick => l.bump_freed_page_clock(),
            }
            l.validate().map_err(TestCaseError::fail)?;
        }
    }
}

/// The shortcut's domain is reached: on a long list in its dead band, a young page and an old
/// page (not `LRU_old`) promoted leave `LRU_old` where it was, as remove-then-add does.
#[test]
fn in_band_promotions_keep_the_boundary() {
    let mut l = Lru::new(1_000, old_ratio_from_pct(37));
    for f in 0..800 {
        l.add_block(f, f % 2 == 0);
    }
    l.bump_freed_page_clock();
    let boundary = l.old_ptr();
    let young = l.iter().find(|&f| !l.is_old(f) && f != l.head()).unwrap();
    let old = l
        .iter()
        .filter(|&f| l.is_old(f) && f != boundary)
        .nth(3)
        .unwrap();
    for f in [young, old] {
        let mut want = l.clone();
        want.remove_block(f);
        want.add_block(f, false);
        l.make_block_young(f);
        assert_eq!(format!("{l:?}"), format!("{want:?}"));
        assert_eq!(l.head(), f);
        assert_eq!(l.stamp(f), 1);
    }
    assert_eq!(l.old_ptr(), boundary);
}
