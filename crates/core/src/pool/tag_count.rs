//! Counting a list's frames by table, young and old, eight frames to a word: the fast path of
//! [`super::lru::Lru::young_old_by_tag`], tested against a count frame by frame.

/// Frames `0..tag.len()` by tag: `[young, old]` for each tag value below `N`, of those listed
/// (see [`super::lru::Lru::young_old_by_tag`]).
pub(super) fn count_by_tag<const N: usize>(
    tag: &[u8],
    old: &[bool],
    listed: &[bool],
) -> [[u32; 2]; N] {
    /// Each byte 1 where `x`'s byte is 0, else 0 (exact: no borrow crosses bytes).
    #[inline(always)]
    fn zero_bytes(x: u64) -> u64 {
        const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
        !(((x & LOW7) + LOW7) | x | LOW7) >> 7
    }
    /// The sum of a word's eight byte counters.
    #[inline(always)]
    fn byte_sum(x: u64) -> u32 {
        const EVEN: u64 = 0x00ff_00ff_00ff_00ff;
        let pairs = (x & EVEN) + ((x >> 8) & EVEN);
        (pairs.wrapping_mul(0x0001_0001_0001_0001) >> 48) as u32
    }
    #[inline(always)]
    fn word(b: impl Iterator<Item = u8>) -> u64 {
        b.fold((0u64, 0u32), |(w, k), x| (w | (x as u64) << k, k + 8))
            .0
    }
    let mut c = [[0u32; 2]; N];
    let n = tag.len();
    let (old, listed) = (&old[..n], &listed[..n]);
    // Byte counters (at most 255 per lane) over blocks of at most 255 words.
    let mut lanes = [[0u64; 2]; N];
    let (mut i, mut words) = (0, 0);
    while i + 8 <= n {
        let t = u64::from_le_bytes(tag[i..i + 8].try_into().expect("8 bytes"));
        let o = word(old[i..i + 8].iter().map(|&b| b as u8));
        let l = word(listed[i..i + 8].iter().map(|&b| b as u8));
        for (k, lk) in lanes.iter_mut().enumerate() {
            let m = zero_bytes(t ^ (k as u64).wrapping_mul(0x0101_0101_0101_0101)) & l;
            lk[0] += m & !o;
            lk[1] += m & o;
        }
        i += 8;
        words += 1;
        if words == 255 || i + 8 > n {
            for (ck, lk) in c.iter_mut().zip(lanes.iter_mut()) {
                ck[0] += byte_sum(lk[0]);
                ck[1] += byte_sum(lk[1]);
                *lk = [0, 0];
            }
            words = 0;
        }
    }
    for j in i..n {
        let (t, o, l) = (tag[j] as usize, old[j] as u32, listed[j] as u32);
        for (k, ck) in c.iter_mut().enumerate() {
            let m = (t == k) as u32 & l;
            ck[0] += m & (o ^ 1);
            ck[1] += m & o;
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The count by words of eight frames against a count frame by frame, on arrays built by
    /// hand: every byte lane at its most (255 words of one tag, listed and old), past it, a
    /// ragged end, tags above 127.
    #[test]
    fn count_by_tag_by_words_matches_a_count_frame_by_frame() {
        fn by_frame(tag: &[u8], old: &[bool], listed: &[bool]) -> [[u32; 2]; 3] {
            let mut c = [[0u32; 2]; 3];
            for ((&t, &o), &l) in tag.iter().zip(old).zip(listed) {
                if l && (t as usize) < 3 {
                    c[t as usize][o as usize] += 1;
                }
            }
            c
        }
        for n in [0usize, 7, 8, 2_040, 2_047, 2_048, 5_001] {
            let all = (vec![1u8; n], vec![true; n], vec![true; n]);
            assert_eq!(
                count_by_tag::<3>(&all.0, &all.1, &all.2),
                [[0, 0], [0, n as u32], [0, 0]]
            );
            let young = vec![false; n];
            assert_eq!(
                count_by_tag::<3>(&all.0, &young, &all.2),
                [[0, 0], [n as u32, 0], [0, 0]]
            );
            let tag: Vec<u8> = (0..n)
                .map(|f| [0, 2, 129, 200, 1, 255][f * 7 % 6])
                .collect();
            let old: Vec<bool> = (0..n).map(|f| f % 3 != 0).collect();
            let listed: Vec<bool> = (0..n).map(|f| f % 11 != 5).collect();
            assert_eq!(
                count_by_tag::<3>(&tag, &old, &listed),
                by_frame(&tag, &old, &listed),
                "{n}"
            );
        }
    }
}
