//! The code panel: short pseudo-code of the four routines the leak runs through, paraphrased
//! for this page from the behaviour the reference describes (§1.4, §2, §4.4-4.5, §6.2) and
//! written in its own words, not copied from InnoDB. As the user steps, the line the current
//! event executed is highlighted, and the variables it reads are shown live.

use midpoint_core::pool::lru::OLD_TOLERANCE;
use midpoint_core::sim::Simulation;
use serde::Serialize;

/// One routine: InnoDB's name for it, and its lines.
#[derive(Clone, Debug, Serialize)]
pub struct Routine {
    pub name: &'static str,
    pub what: &'static str,
    pub lines: &'static [&'static str],
}

/// Index of `buf_LRU_add_block` in [`ROUTINES`].
pub const ADD_BLOCK: u8 = 0;
/// Index of `buf_LRU_old_adjust_len`.
pub const ADJUST_LEN: u8 = 1;
/// Index of `buf_page_peek_if_too_old`.
pub const TOO_OLD: u8 = 2;
/// Index of the LRU batch.
pub const BATCH: u8 = 3;

/// The routines, in the panel's order.
pub const ROUTINES: [Routine; 4] = [
    Routine {
        name: "buf_LRU_add_block",
        what: "a page read from disk enters the list",
        lines: &[
            "add_block(p, want_old):            # want_old: true for every read",
            "  if not want_old or len < 512:",
            "    put p at the head; p.stamp = freed_page_clock",
            "  else:",
            "    put p just after LRU_old        # the midpoint; p.stamp stays 0",
            "    old_len += 1",
            "  if len > 512: p.old = want_old; adjust_old_len()",
        ],
    },
    Routine {
        name: "buf_LRU_old_adjust_len",
        what: "keeps the old sublist near its share of the list",
        lines: &[
            "adjust_old_len():",
            "  target = len * old_ratio / 1024   # 37 % of the list",
            "  loop:",
            "    if old_len + 20 < target:       # too short: grow toward the head",
            "      LRU_old = prev(LRU_old); LRU_old.old = true; old_len += 1",
            "    elif old_len > target + 20:     # too long: shrink toward the tail",
            "      LRU_old.old = false; LRU_old = next(LRU_old); old_len -= 1",
            "    else: return                    # inside the dead band",
        ],
    },
    Routine {
        name: "buf_page_peek_if_too_old",
        what: "on a touch: should the page move to the head?",
        lines: &[
            "too_old(p):                         # true: move p to the head",
            "  if freed_page_clock == 0: return false   # nothing evicted yet",
            "  if old_blocks_time > 0 and p.old:",
            "    if p.first_access > 0 and now - p.first_access >= old_blocks_time:",
            "      return true                   # Pages made young +1",
            "    not_made_young += 1; return false",
            "  return freed_page_clock - p.stamp >= quarter   # the quarter rule",
        ],
    },
    Routine {
        name: "LRU batch (page cleaner)",
        what: "refills the free list, from the tail",
        lines: &[
            "lru_batch():                        # once a second, in rounds deemed active",
            "  while free_len < lru_scan_depth and len > 256:",
            "    p = tail; take p off the list   # old_len -= 1",
            "    freed_page_clock += 1; p's frame goes to the free list",
            "    adjust_old_len()",
        ],
    },
];

/// The lines one event ran: (routine, line) pairs, the one to focus first.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CodeAt {
    pub lines: Vec<(u8, u8)>,
    /// What happened, in a few words.
    pub what: String,
}

/// What the counters did during one event, to tell which lines ran.
#[derive(Clone, Copy, Debug, Default)]
pub struct Delta {
    pub inserted: bool,
    pub evicted_by_batch: u64,
    pub batch_ran: bool,
    pub made_young: u64,
    pub not_made_young: u64,
    pub young_to_head: u64,
    pub turned_young: u64,
    pub turned_old: u64,
    pub touched: bool,
    pub clock_was_zero: bool,
}

/// Which lines an event with this effect ran.
pub fn lines_of(d: &Delta) -> CodeAt {
    use super::narrate::pages;
    let mut c = CodeAt::default();
    let mut what = Vec::new();
    if d.batch_ran {
        if d.evicted_by_batch > 0 {
            c.lines.push((BATCH, 2));
            c.lines.push((BATCH, 3));
            what.push(format!(
                "the LRU batch evicted {} from the tail",
                pages(d.evicted_by_batch)
            ));
        } else {
            c.lines.push((BATCH, 1));
            what.push("the LRU batch found the free list full".into());
        }
    }
    if d.inserted {
        c.lines.push((ADD_BLOCK, 4));
        what.push("a read went in just after LRU_old".into());
    }
    if d.turned_old > 0 {
        c.lines.push((ADJUST_LEN, 4));
        what.push(format!("the boundary turned {} old", pages(d.turned_old)));
    }
    if d.turned_young > 0 {
        c.lines.push((ADJUST_LEN, 6));
        what.push(format!(
            "the boundary turned {} young",
            pages(d.turned_young)
        ));
    } else if d.inserted {
        c.lines.push((ADJUST_LEN, 7));
    }
    if d.touched {
        if d.clock_was_zero {
            c.lines.push((TOO_OLD, 1));
        } else if d.made_young > 0 {
            c.lines.push((TOO_OLD, 4));
            what.push("an old page passed the time test".into());
        } else if d.not_made_young > 0 {
            c.lines.push((TOO_OLD, 5));
            what.push("an old page failed the time test".into());
        } else {
            c.lines.push((TOO_OLD, 6));
            if d.young_to_head > 0 {
                what.push("a young page far from the head moved there".into());
            }
        }
    }
    c.what = what.join("; ");
    c
}

/// The shrink step of `buf_LRU_old_adjust_len` that moved the boundary `pages` pages toward the
/// tail during a watched drain's frame (what the code panel shows while the boundary slides).
pub fn shrink_step(pages: u64) -> CodeAt {
    CodeAt {
        lines: vec![(ADJUST_LEN, 5), (ADJUST_LEN, 6)],
        what: format!(
            "reads went in just after LRU_old, the list grew, and the boundary stepped toward the tail: it turned {} young",
            crate::ui::narrate::pages(pages)
        ),
    }
}

/// The rules of the panel, as `data-rule` names: (routine, first line, last line, name).
/// Every line of every routine belongs to exactly one rule.
pub const RULES: [(u8, u8, u8, &str); 7] = [
    (ADD_BLOCK, 0, 6, "add_block"),
    (ADJUST_LEN, 0, 2, "adjust_old_len"),
    (ADJUST_LEN, 3, 4, "adjust_old_len_grow"),
    (ADJUST_LEN, 5, 6, "adjust_old_len_shrink"),
    (ADJUST_LEN, 7, 7, "adjust_old_len_band"),
    (TOO_OLD, 0, 6, "peek_if_too_old"),
    (BATCH, 0, 4, "lru_batch"),
];

/// The `data-rule` name of line `line` of routine `routine`.
pub fn rule_of(routine: u8, line: u8) -> &'static str {
    RULES
        .iter()
        .find(|r| r.0 == routine && (r.1..=r.2).contains(&line))
        .map(|r| r.3)
        .unwrap_or("")
}

/// A live variable of the panel: its name in the code, its value now, and what it is in words
/// (each term of the panel explained where it appears).
#[derive(Clone, Debug, Serialize)]
pub struct Var {
    pub name: &'static str,
    pub value: String,
    pub what: &'static str,
}

/// The terms the panel's lines use that are not variables of [`vars`], in words.
pub const TERMS: [(&str, &str); 5] = [
    ("LRU_old", "the first page of the old sublist: the boundary, where reads go in"),
    ("stamp", "the value of freed_page_clock when a page was last put at the head (0 for a page read in at the midpoint)"),
    ("the quarter rule", "a young page touched again moves to the head only if a quarter of the young sublist's length has been evicted since its stamp"),
    ("old_ratio", "innodb_old_blocks_pct as a share of 1,024 (37 % is 378)"),
    ("first_access", "when the page was first touched after it was read"),
];

/// The variables the routines read, now. `shown` is (free list, LRU list, old sublist) as the
/// page shows them (during a watched batch's eviction animation, those of the frame drawn);
/// `None` reads them from the simulation.
pub fn vars(sim: &Simulation, shown: Option<(u32, u32, u32)>) -> Vec<Var> {
    use super::narrate::n;
    let inst = &sim.pool.instances[0];
    let lru = &inst.lru;
    let (free, len, old) = shown.unwrap_or((inst.free.len(), lru.len(), lru.old_len()));
    let target = lru.desired_old_len(len);
    let p = sim.params();
    let d = old as i64 - target as i64;
    let band = OLD_TOLERANCE;
    let q = lru.quarter_threshold(sim.pool.total_frames());
    vec![
        Var {
            name: "len",
            value: n(len),
            what: "pages in the LRU list",
        },
        Var {
            name: "old_len",
            value: n(old),
            what: "pages in its old sublist, from LRU_old to the tail",
        },
        Var {
            name: "target",
            value: n(target),
            what: "the old sublist's length innodb_old_blocks_pct asks for",
        },
        Var {
            name: "dead band",
            value: format!(
                "{} to {} (old_len − target = {}{})",
                n(target.saturating_sub(band)),
                n(target + band),
                if d > 0 { "+" } else { "" },
                d
            ),
            what: "old_len may stray 20 pages either side of the target before LRU_old moves",
        },
        Var {
            name: "free_len",
            value: format!("{} (lru_scan_depth {})", n(free), n(p.lru_scan_depth)),
            what: "frames on the free list; the LRU batch tops it up to lru_scan_depth",
        },
        Var {
            name: "freed_page_clock",
            value: n(lru.freed_page_clock()),
            what: "pages evicted from this list so far: the list's clock",
        },
        Var {
            name: "quarter",
            value: n(q),
            what: "a quarter of the young sublist's nominal length: the quarter rule's threshold",
        },
        Var {
            name: "old_blocks_time",
            value: format!("{} ms", n(p.old_blocks_time)),
            what: "how long after its first access an old page must be touched to be made young",
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_read_that_slides_highlights_the_shrink_step() {
        let c = lines_of(&Delta {
            inserted: true,
            turned_young: 1,
            ..Delta::default()
        });
        assert!(c.lines.contains(&(ADD_BLOCK, 4)));
        assert!(c.lines.contains(&(ADJUST_LEN, 6)));
        assert!(!c.lines.contains(&(ADJUST_LEN, 7)));
        let c = lines_of(&Delta {
            inserted: true,
            ..Delta::default()
        });
        assert!(c.lines.contains(&(ADJUST_LEN, 7)), "{c:?}");
    }

    #[test]
    fn every_highlight_is_a_line_of_its_routine() {
        for d in [
            Delta {
                batch_ran: true,
                evicted_by_batch: 3,
                turned_old: 2,
                ..Delta::default()
            },
            Delta {
                touched: true,
                not_made_young: 1,
                ..Delta::default()
            },
            Delta {
                touched: true,
                clock_was_zero: true,
                ..Delta::default()
            },
        ] {
            for (r, l) in lines_of(&d).lines {
                assert!((l as usize) < ROUTINES[r as usize].lines.len());
            }
        }
    }
}
