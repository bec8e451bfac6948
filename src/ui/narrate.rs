//! The narration: what one step of the simulation did, in words, from the pool's counters
//! before and after it.

use midpoint_core::clock::{to_secs, Micros};
use midpoint_core::pool::lru::{OLD_RATIO_DIV, OLD_TOLERANCE};
use midpoint_core::pool::PageId;
use midpoint_core::sim::{Event, Simulation, EPOCH, FILLER_SPACE, HOT_SPACE, SCAN_SPACE};

/// A number with thousands separators ("16,382"); fractions keep up to 3 decimals.
pub fn thousands(x: f64) -> String {
    if !x.is_finite() {
        return "–".into();
    }
    let neg = x < 0.0;
    let a = x.abs();
    let int = a.trunc() as u64;
    let frac = a - a.trunc();
    let digits = int.to_string();
    let mut s = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            s.push(',');
        }
        s.push(ch);
    }
    if frac > 0.0005 {
        let f = format!("{frac:.3}");
        s.push_str(f.trim_start_matches('0').trim_end_matches('0'));
    }
    if neg {
        format!("−{s}")
    } else {
        s
    }
}

/// An integer count with thousands separators.
pub fn n(x: impl Into<u64>) -> String {
    thousands(x.into() as f64)
}

/// "1 page" / "2 pages".
pub fn pages(x: u64) -> String {
    count(x, "page", "pages")
}

/// `x` and the noun that agrees with it: "1 frame", "1,024 frames".
pub fn count(x: u64, one: &str, many: &str) -> String {
    if x == 1 {
        format!("1 {one}")
    } else {
        format!("{} {many}", n(x))
    }
}

/// Seconds since the warm-up started, for the narration ("78.4213 s").
pub fn t_label(at: Micros) -> String {
    let s = to_secs(at) - to_secs(EPOCH);
    format!("{s:.4} s")
}

/// The pool's counters at one moment (instance 0: the page simulates one instance).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Counters {
    pub made_young: u64,
    pub not_made_young: u64,
    pub young_moved_to_head: u64,
    pub pages_read: u64,
    pub ra_pages_read: u64,
    pub evicted_by_user: u64,
    pub evicted_by_batch: u64,
    pub slid_young: u64,
    pub slid_old: u64,
    /// Of `slid_young`: pages turned young while the list grew past its longest length so far
    /// (the pool filling after a restart), instance 0.
    pub grown_young: u64,
    pub free: u32,
    pub lru: u32,
    pub old: u32,
}

impl Counters {
    /// Reads them from a simulation.
    pub fn of(sim: &Simulation) -> Counters {
        let st = sim.pool.stats();
        let inst = &sim.pool.instances[0];
        Counters {
            made_young: st.made_young,
            not_made_young: st.not_made_young,
            young_moved_to_head: st.young_moved_to_head,
            pages_read: st.pages_read,
            ra_pages_read: st.ra_pages_read,
            evicted_by_user: st.evicted_by_user,
            evicted_by_batch: st.evicted_by_batch,
            slid_young: inst.lru.slides.total_young(),
            slid_old: inst.lru.slides.total_old(),
            grown_young: inst.lru.slides.growth_young.iter().sum(),
            free: sim.pool.free_len(),
            lru: sim.pool.lru_len(),
            old: sim.pool.old_len(),
        }
    }
}

/// The table a page belongs to, for people.
pub fn table_of(page: PageId, hot_pages: u32) -> &'static str {
    match page.space {
        HOT_SPACE if page.page_no < hot_pages => "hot-set page",
        HOT_SPACE => "hot-table page (outside the hot set)",
        SCAN_SPACE => "scanned-table page",
        FILLER_SPACE => "filler-table page",
        _ => "page",
    }
}

/// How many of `k` midpoint inserts into a list of `len` pages with `old` old pages would
/// make the boundary step toward the tail (each step turns one page young), with ratio `r`.
/// The exact integer rule of `buf_LRU_old_adjust_len`.
pub fn predicted_drain_slide(len: u32, old: u32, ratio: u32, k: u32) -> u32 {
    if len < 512 {
        return 0;
    }
    let (mut l, mut o, mut steps) = (len as u64, old as u64, 0u32);
    let r = ratio as u64;
    for _ in 0..k {
        l += 1;
        o += 1;
        let target = (l * r / OLD_RATIO_DIV as u64).min(l.saturating_sub(25));
        while o > target + OLD_TOLERANCE as u64 {
            o -= 1;
            steps += 1;
        }
    }
    steps
}

/// Bulk demotion during a batch: for `k` evictions of old tail pages from a list of `len`
/// pages with `old` old pages, the cumulative number of head-ward boundary steps after each.
pub fn demotions_during(len: u32, old: u32, ratio: u32, k: u32) -> Vec<u32> {
    let (mut l, mut o, mut m) = (len as i64, old as i64, 0u32);
    let r = ratio as i64;
    let mut v = Vec::with_capacity(k as usize);
    for _ in 0..k {
        l -= 1;
        o -= 1;
        if l >= 512 {
            let target = (l * r / OLD_RATIO_DIV as i64).min(l - 25);
            while o + (OLD_TOLERANCE as i64) < target {
                o += 1;
                m += 1;
            }
        }
        v.push(m);
    }
    v
}

/// The boundary's part of one step, if it moved.
fn slide_words(b: &Counters, a: &Counters, old_blocks_pct: u32) -> String {
    let y = a.slid_young - b.slid_young;
    let o = a.slid_old - b.slid_old;
    let g = (a.grown_young - b.grown_young).min(y);
    let mut s = String::new();
    if g > 0 {
        // `buf_LRU_old_adjust_len` after an insert that took the list past its longest length:
        // the target old length grows by only old_blocks_pct of each insert, so the boundary
        // walks toward the tail by the rest (the growth slide, no refill involved).
        s.push_str(&format!(
            " The list grew past its longest length so far ({}): the pool is still filling, the free list holds {}. The old sublist's target grows by only {} % of each insert, so the boundary stepped toward the tail and turned {} young (highlighted), without any reuse: the growth slide, not a refill's. Growth has turned {} young so far.",
            pages(a.lru as u64),
            pages(a.free as u64),
            old_blocks_pct,
            pages(g),
            pages(a.grown_young)
        ));
    }
    let y = y - g;
    if y > 0 {
        s.push_str(&format!(
            " The list grew, so the boundary stepped toward the tail and turned {} young (highlighted), without any reuse.",
            pages(y)
        ));
    }
    if o > 0 {
        s.push_str(&format!(
            " The boundary stepped toward the head and turned {} at the bottom of the young sublist old.",
            pages(o)
        ));
    }
    s
}

fn free_words(b: &Counters, a: &Counters) -> String {
    let read = (a.pages_read - b.pages_read) + (a.ra_pages_read - b.ra_pages_read);
    if read == 0 {
        return String::new();
    }
    let user_evicted = a.evicted_by_user - b.evicted_by_user;
    if user_evicted > 0 && a.free == 0 {
        format!(
            " The free list is empty, so {} evicted from the tail first (the list keeps its length, the boundary stays).",
            if user_evicted == 1 {
                "a page was".to_string()
            } else {
                format!("{} pages were", n(user_evicted))
            }
        )
    } else {
        format!(
            " The {} took free frames (free list {} → {}).",
            if read == 1 { "read" } else { "reads" },
            n(b.free),
            n(a.free)
        )
    }
}

/// Describes one step (not an LRU batch, which the explorer describes itself).
pub fn describe(ev: &Event, b: &Counters, a: &Counters, sim: &Simulation) -> String {
    let p = sim.params();
    let at = t_label(sim.now());
    match ev {
        Event::Lookup { page, hit, .. } => {
            let what = table_of(*page, p.hot_pages);
            let mut s = format!("{at}: a lookup read {what} {}", n(page.page_no));
            if !hit {
                s.push_str(
                    ": a miss. It was read from disk and inserted at the midpoint, old, right after LRU_old.",
                );
                s.push_str(&free_words(b, a));
            } else if a.made_young > b.made_young {
                s.push_str(&format!(
                    ": a hit on an old page first touched at least {} ms ago, so it was made young: moved to the head (Pages made young +1).",
                    n(p.old_blocks_time)
                ));
            } else if a.not_made_young > b.not_made_young {
                s.push_str(&format!(
                    ": a hit on an old page first touched less than {} ms ago, so it stays old (Pages not made young +1).",
                    n(p.old_blocks_time)
                ));
            } else if a.young_moved_to_head > b.young_moved_to_head {
                s.push_str(": a hit on a young page in the older three quarters of the young sublist, so it moved back to the head (InnoDB counts this nowhere).");
            } else {
                s.push_str(": a hit on a young page near the head; nothing moves.");
            }
            s.push_str(&slide_words(b, a, p.old_blocks_pct));
            s
        }
        Event::ScanPage { page, hit } => {
            let mut s = format!(
                "{at}: the scan read page {} of the scanned table ({})",
                n(page.page_no),
                count(p.scan_touches_per_page as u64, "touch", "touches")
            );
            if *hit {
                let young = sim
                    .pool
                    .frame_of(*page)
                    .map(|g| !sim.pool.is_old(g))
                    .unwrap_or(false);
                s.push_str(if young {
                    "; it was already in the pool."
                } else {
                    "; it was already in the pool (read ahead), old."
                });
            } else {
                s.push_str(": a miss, read into the midpoint, old.");
            }
            let ra = a.ra_pages_read - b.ra_pages_read;
            if ra > 0 {
                s.push_str(&format!(
                    " Linear read-ahead queued the next {} at the midpoint, unaccessed.",
                    pages(ra)
                ));
            }
            if a.made_young > b.made_young {
                s.push_str(" It was made young (Pages made young +1).");
            } else if a.young_moved_to_head > b.young_moved_to_head {
                s.push_str(" It was young but far from the head (the quarter rule), so it moved to the head: not counted anywhere.");
            } else if a.not_made_young > b.not_made_young && *hit {
                s.push_str(&format!(
                    " Its touches all came within {} ms of its first access: it stays old (Pages not made young +{}).",
                    n(p.old_blocks_time),
                    n(a.not_made_young - b.not_made_young)
                ));
            }
            s.push_str(&free_words(b, a));
            s.push_str(&slide_words(b, a, p.old_blocks_pct));
            s
        }
        Event::ScanResume => {
            if sim.now() <= sim.scan_start() + 1 {
                format!("{at}: the scan phase begins: SELECT SUM(v) FROM the scanned table, in a loop.")
            } else {
                format!("{at}: the scan starts its next pass after a {} ms pause.", n(p.scan_pause_ms))
            }
        }
        // Reference §6.1 and §12.2: that a read-only server runs LRU batches only after
        // incidental activity is read from the source, not measured; the simulator draws that
        // activity at random. Say so rather than state it as fact.
        Event::CleanerIdle => format!(
            "{at}: page-cleaner round. In the simulator's model nothing bumped the activity counter last second, so the round counts as idle and runs no LRU batch (inferred from InnoDB's source, not measured)."
        ),
        Event::Activity => format!(
            "{at}: the simulator draws incidental activity (in a real server: a table handler closed, a statistics update), which bumps the activity counter; the page cleaner's next round then runs an LRU batch."
        ),
        Event::Sample => format!("{at}: a sample for the plot (hot set resident {}).", {
            let s = sim.samples().last();
            s.map(|s| n(s.hot_resident)).unwrap_or_default()
        }),
        Event::Work => format!("{at}: client statements and scan pages finished on the CPUs."),
        Event::End => format!("{at}: the run is over."),
        Event::LruBatch(_) => String::new(),
    }
}

/// The old ratio for a percentage, as InnoDB computes it.
pub fn ratio_of(pct: u32) -> u32 {
    midpoint_core::pool::lru::old_ratio_from_pct(pct)
}

/// Characters of narration a figure on a phone shows (about nine lines at 390 px): its box
/// then stays within the figure's one-screen budget at every moment of the story.
pub const PHONE_NARRATION: usize = 420;

/// `text` cut to its first whole sentences within `max` characters (always at least the first
/// sentence, itself cut at a word with "…" if it is longer than `max`). A sentence ends at ". "
/// (or "! ", "? ") before a capital letter, so "1.5 s" and "t = 0.5 s" do not split.
pub fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let chars: Vec<char> = text.chars().collect();
    let mut end = None;
    for i in 1..chars.len().saturating_sub(1) {
        if i + 1 > max {
            break;
        }
        let ends = chars[i] == ' '
            && matches!(chars[i - 1], '.' | '!' | '?')
            && chars[i + 1].is_uppercase();
        if ends {
            end = Some(i);
        }
    }
    match end {
        Some(i) => chars[..i].iter().collect(),
        None => {
            let cut: String = chars[..max].iter().collect();
            let at = cut.rfind(' ').unwrap_or(cut.len());
            format!("{}…", cut[..at].trim_end_matches([',', ';', ':']))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use midpoint_core::pool::lru::{old_ratio_from_pct, Lru};

    #[test]
    fn numbers_read_as_people_write_them() {
        assert_eq!(thousands(0.0), "0");
        assert_eq!(thousands(16382.0), "16,382");
        assert_eq!(thousands(1234567.25), "1,234,567.25");
        assert_eq!(thousands(-1500.0), "−1,500");
        assert_eq!(thousands(f64::NAN), "–");
        assert_eq!(n(9_007_199_254_740_991u64), "9,007,199,254,740,991");
        assert_eq!(pages(1), "1 page");
        assert_eq!(pages(1024), "1,024 pages");
        assert_eq!(t_label(EPOCH + 78_421_300), "78.4213 s");
    }

    /// The narration's two predictions against the pool's own rule: evicting `k` pages from
    /// the tail demotes what `demotions_during` says, and `k` midpoint inserts afterwards turn
    /// young what `predicted_drain_slide` says (no page touched in between).
    #[test]
    fn predictions_match_the_lru_list() {
        for (len, pct, k) in [
            (16_000u32, 37u32, 1024u32),
            (3_000, 37, 312),
            (6_000, 5, 800),
            (1_000, 95, 300),
        ] {
            let ratio = old_ratio_from_pct(pct);
            let mut l = Lru::new(len + k, ratio);
            for f in 0..len {
                l.add_block(f, true);
            }
            let (len0, old0) = (l.len(), l.old_len());
            let demoted0 = l.slides.total_old();
            let expect = demotions_during(len0, old0, ratio, k);
            for _ in 0..k {
                let t = l.tail();
                l.remove_block(t);
            }
            let demoted = (l.slides.total_old() - demoted0) as u32;
            assert_eq!(
                demoted,
                *expect.last().unwrap(),
                "len {len}, {pct} %, k {k}"
            );
            let predicted = predicted_drain_slide(l.len(), l.old_len(), ratio, k);
            let young0 = l.slides.total_young();
            for f in len..len + k {
                l.add_block(f, true);
            }
            let young = (l.slides.total_young() - young0) as u32;
            assert_eq!(young, predicted, "len {len}, {pct} %, k {k}");
        }
        // Below 512 pages there is no old sublist, so nothing slides.
        assert_eq!(
            predicted_drain_slide(400, 0, old_ratio_from_pct(37), 100),
            0
        );
    }

    #[test]
    fn shorten_keeps_whole_sentences_within_the_budget() {
        let t = "1.5000 s: the batch freed 1,024 pages. The boundary moved 607 toward the head. As reads drain the free list, each insert lengthens it.";
        assert_eq!(shorten(t, 500), t);
        let s = shorten(t, 90);
        assert_eq!(
            s,
            "1.5000 s: the batch freed 1,024 pages. The boundary moved 607 toward the head."
        );
        assert!(s.chars().count() <= 90);
        // The first sentence alone is too long: cut at a word.
        let s = shorten(t, 20);
        assert!(s.ends_with('…') && s.chars().count() <= 20, "{s}");
        assert_eq!(s, "1.5000 s: the batch…");
    }
}
