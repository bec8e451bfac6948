//! The sweep's coinciding lines, in words: which old_blocks_time values give the same "kept" up
//! to which depth, so a reader knows that a line hidden under another is there.

use crate::sweep::SweepResult;
use midpoint_core::scenario::schema::group as thousands;

/// Two lines coincide at a depth when their "kept" differ by at most this (a fraction; 0.005
/// is half a percentage point, under a line's width on the plot).
pub const SAME: f64 = 0.005;

fn ms_list(times: &[u32]) -> String {
    let words: Vec<String> = times.iter().map(|&t| thousands(t as u64)).collect();
    match words.len() {
        0 => String::new(),
        1 => words[0].clone(),
        n => format!("{} and {}", words[..n - 1].join(", "), words[n - 1]),
    }
}

/// The sentence that says which lines coincide, computed from the points drawn: the largest
/// group of old_blocks_time values whose "kept" agree within [`SAME`] at the smallest depth, and
/// the deepest depth up to which they keep agreeing. `None` when no two lines coincide there
/// (or too few points are computed to tell).
pub fn coinciding_lines(sweep: &SweepResult) -> Option<String> {
    let nd = sweep.depths.len();
    if sweep.times.len() < 2 || nd == 0 {
        return None;
    }
    // Depths (in order) where every line has its point.
    let full: Vec<usize> = (0..nd)
        .filter(|&d| (0..sweep.times.len()).all(|t| sweep.at(t, d).kept.is_finite()))
        .collect();
    let &first = full.first()?;
    // The largest cluster of lines at the first depth: sorted by kept, the longest run whose
    // spread stays within SAME.
    let mut by: Vec<(f64, usize)> = (0..sweep.times.len())
        .map(|t| (sweep.at(t, first).kept, t))
        .collect();
    by.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (mut best_lo, mut best_len) = (0, 0);
    for lo in 0..by.len() {
        let len = by[lo..]
            .iter()
            .take_while(|p| p.0 - by[lo].0 <= SAME)
            .count();
        if len > best_len {
            (best_lo, best_len) = (lo, len);
        }
    }
    if best_len < 2 {
        return None;
    }
    let mut group: Vec<usize> = by[best_lo..best_lo + best_len]
        .iter()
        .map(|p| p.1)
        .collect();
    group.sort_by_key(|&t| sweep.times[t]);
    let spread = |d: usize| {
        let v = group.iter().map(|&t| sweep.at(t, d).kept);
        let (lo, hi) = v.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
            (a.min(x), b.max(x))
        });
        hi - lo
    };
    let upto = full.iter().take_while(|&&d| spread(d) <= SAME).last()?;
    let depth = thousands(sweep.depths[*upto] as u64);
    let same: Vec<u32> = group.iter().map(|&t| sweep.times[t]).collect();
    let others: Vec<u32> = sweep
        .times
        .iter()
        .copied()
        .filter(|t| !same.contains(t))
        .collect();
    let last_depth = *full.last()? == *upto;
    let reach = if last_depth {
        format!("at every depth computed (up to {depth})")
    } else {
        format!("up to depth {depth}")
    };
    let rest = match others.len() {
        0 => String::new(),
        1 => format!("; only {} differs", ms_list(&others)),
        _ => format!("; only {} differ", ms_list(&others)),
    };
    let what = if others.is_empty() {
        "Every old_blocks_time gives".to_string()
    } else {
        format!("old_blocks_time {} ms give", ms_list(&same))
    };
    Some(format!(
        "{what} the same kept (within half a point) {reach}, so their lines lie on top of one another{rest}. Hover over or focus a value below to bring its line forward."
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::SweepPoint;

    fn sweep(times: &[u32], kept: impl Fn(u32, u32) -> f64) -> SweepResult {
        let depths = vec![256u32, 1024, 2048, 4096];
        let mut points = Vec::new();
        for &t in times {
            for &d in &depths {
                points.push(SweepPoint {
                    lru_scan_depth: d,
                    old_blocks_time: t,
                    kept: kept(t, d),
                    young_leak_pages_per_s: 0.0,
                    lookups_per_s: 0.0,
                    kept_range: None,
                });
            }
        }
        SweepResult {
            base: midpoint_core::scenario::Params::default(),
            depths,
            times: times.to_vec(),
            points,
        }
    }

    #[test]
    fn names_the_lines_that_coincide_and_how_deep() {
        // 250-2,000 agree up to 2,048 and part at 4,096; 0 is apart everywhere.
        let s = sweep(&[0, 250, 500, 1000, 2000], |t, d| {
            if t == 0 {
                0.2
            } else if d <= 2048 {
                0.6 + 0.001 * (t as f64 / 1000.0)
            } else {
                0.5 + t as f64 / 10_000.0
            }
        });
        let w = coinciding_lines(&s).unwrap();
        assert!(
            w.starts_with("old_blocks_time 250, 500, 1,000 and 2,000 ms give the same kept"),
            "{w}"
        );
        assert!(w.contains("up to depth 2,048"), "{w}");
        assert!(w.contains("only 0 differs"), "{w}");
    }

    #[test]
    fn says_nothing_when_lines_are_apart_or_points_missing() {
        let apart = sweep(&[0, 1000], |t, _| t as f64 / 2000.0);
        assert_eq!(coinciding_lines(&apart), None);
        let missing = sweep(&[0, 1000], |_, _| f64::NAN);
        assert_eq!(coinciding_lines(&missing), None);
        let all = sweep(&[0, 1000], |_, _| 0.4);
        let w = coinciding_lines(&all).unwrap();
        assert!(
            w.starts_with("Every old_blocks_time gives") && w.contains("up to 4,096"),
            "{w}"
        );
    }
}
