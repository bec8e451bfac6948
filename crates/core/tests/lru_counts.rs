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
