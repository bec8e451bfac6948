//! The sampler's branch-free count of the list's pages by tag (`Lru::young_old_by_tag`, one
//! pass over the flag arrays) against a walk of the list itself.

use midpoint_core::pool::lru::{old_ratio_from_pct, Lru};

#[test]
fn counts_by_tag_match_a_walk_of_the_list() {
    // 700 pages in 1,000 frames, tags 0-2, every 7th removed again (off the list, its flags
    // left behind), and 300 frames never used.
    let mut l = Lru::new(1_000, old_ratio_from_pct(37));
    for f in 0..700 {
        l.set_tag(f, (f % 3) as u8);
        l.add_block(f, f % 2 == 0);
    }
    for f in (0..700).step_by(7) {
        l.remove_block(f);
    }
    l.validate().unwrap();
    let mut want = [[0u32; 2]; 3];
    for f in l.iter() {
        want[l.tag(f) as usize][l.is_old(f) as usize] += 1;
    }
    let got = l.young_old_by_tag::<5>();
    assert_eq!(&got[..3], &want[..]);
    assert!(got[3..].iter().all(|c| c == &[0, 0]));
    assert_eq!(l.young_old_by_tag::<2>(), [want[0], want[1]]);
    assert_eq!(want.iter().flatten().sum::<u32>(), l.len());
    assert!(
        want.iter().all(|c| c[0] > 0 && c[1] > 0),
        "every tag has young and old pages: {want:?}"
    );
}

#[test]
fn counts_by_tag_hold_over_long_lists_high_tags_and_a_ragged_end() {
    // Lists of 4,503 and 2,047 frames (past 255 words of 8, and not a multiple of 8), 8 and 7:
    // a long stretch of frames of tag 1, tags up to 200 (bytes with the high bit set), a few
    // frames off the list. (The byte counters at their most: `lru`'s unit test.)
    for frames in [4_503u32, 2_047, 8, 7] {
        let mut l = Lru::new(frames, old_ratio_from_pct(37));
        for f in 0..frames {
            let tag = if f < 2_100 {
                1
            } else {
                [0, 2, 129, 200, 1][(f * 7 % 5) as usize]
            };
            l.set_tag(f, tag);
            l.add_block(f, f % 3 != 0);
        }
        for f in (5..frames).step_by(11) {
            l.remove_block(f);
        }
        l.validate().unwrap();
        let mut want = [[0u32; 2]; 3];
        for f in l.iter() {
            if let Some(c) = want.get_mut(l.tag(f) as usize) {
                c[l.is_old(f) as usize] += 1;
            }
        }
        assert_eq!(l.young_old_by_tag::<3>(), want, "{frames} frames");
    }
}
