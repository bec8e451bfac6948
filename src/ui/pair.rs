//! The side-by-side what-if figure: stock MySQL 8.4 and a patched pool (one `pool::WhatIf`) on
//! the same preset and seed, two runs under one set of controls, in lockstep by event count. The
//! stock run leads (it plays, steps, watches a refill and drain); the patched run follows it to
//! the same event count every frame (`Explorer::follow`). Both runs' state stays here; the page
//! reads each one's close-up as it does for a single run.

use super::cells::CellQuote;
use super::explorer::{Explorer, Status, F_DIRTY, F_STATUS};
use super::narrate::n;
use midpoint_core::pool::{WhatIf, WhatIfs};
use midpoint_core::scenario::preset;
use midpoint_lab::study::whatif::ReadRow;
use serde::Serialize;

/// The preset the figure runs: seed 000's 4,485-page back-to-back cell, whose leak the patches
/// are meant to plug.
pub const PAIR_PRESET: &str = "seed000-hot4485-b2b";

/// One what-if the figure offers, with what the committed comparison measured for it.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Choice {
    pub name: String,
    pub description: String,
    /// Kept on [`PAIR_PRESET`] in stock (the cell's declared ensemble, `ui::cells`, when given;
    /// else the comparison's stock row) and patched (median over the comparison's runs), if
    /// known.
    pub kept_stock: Option<f64>,
    pub kept_patched: Option<f64>,
    /// The menu's text: the name and kept with the patch.
    pub label: String,
    /// A sentence under the menu: kept stock and patched, then the patch in words.
    pub summary: String,
    /// The same sentence in three pieces around stock's figure (`stock`), which the page marks
    /// as a quote of the stock default cell (`data-cell`); empty pieces when kept is unknown.
    pub summary_before: String,
    pub stock: String,
    pub summary_after: String,
}

/// Every what-if, with its kept on `cell` from the comparison's rows (`midpoint what-ifs
/// --compare --json`), stock's from the cell's declared ensemble `stock` when given (so the
/// figure quotes the number the rest of the site does), and the index of the default: the one
/// that moves kept the most (the first on a tie, and the first if no row is there).
pub fn choices(rows: &[ReadRow], cell: &str, stock: Option<&CellQuote>) -> (Vec<Choice>, usize) {
    let row = |w: &str| rows.iter().find(|r| r.preset == cell && r.what_if == w);
    let pct = |k: f64| format!("{:.0} %", k * 100.0);
    let stock_row = row("none");
    let (kept_stock, stock_words) = match (stock, stock_row) {
        (Some(q), _) => (Some(q.median), format!("{} ({})", q.pct, q.range)),
        (None, Some(r)) => (Some(r.kept), pct(r.kept)),
        (None, None) => (None, String::new()),
    };
    let v: Vec<Choice> = WhatIf::PATCHES
        .iter()
        .map(|w| {
            let patched = row(w.name());
            let patch = format!("The patch: {}.", w.description());
            let (label, before, after) = match (kept_stock, patched) {
                (Some(_), Some(p)) => (
                    format!("{} ({})", w.name(), pct(p.kept)),
                    format!("Kept on {cell}, in the model: "),
                    format!(
                        " in stock, {} patched (the mean of {}). {patch}",
                        pct(p.kept),
                        super::page::runs_words(1, p.seeds)
                    ),
                ),
                _ => (w.name().to_string(), String::new(), patch.clone()),
            };
            let shown = if before.is_empty() {
                String::new()
            } else {
                stock_words.clone()
            };
            Choice {
                name: w.name().into(),
                description: w.description().into(),
                kept_stock,
                kept_patched: patched.map(|r| r.kept),
                label,
                summary: format!("{before}{shown}{after}"),
                summary_before: before,
                stock: shown,
                summary_after: after,
            }
        })
        .collect();
    let gain = |c: &Choice| match (c.kept_stock, c.kept_patched) {
        (Some(s), Some(p)) => p - s,
        _ => f64::NEG_INFINITY,
    };
    let mut best = 0;
    for (i, c) in v.iter().enumerate() {
        if gain(c) > gain(&v[best]) {
            best = i;
        }
    }
    (v, best)
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Opening {
    /// Running to the scan phase's start.
    Time,
    /// Running to its first LRU batch.
    Batch,
    Done,
}

/// One side's figures at the current event.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Side {
    /// "stock MySQL 8.4" or the what-if's name.
    pub label: String,
    pub t_s: f64,
    pub events: f64,
    /// Pages the boundary turned young since the last LRU batch (marked in the close-up).
    pub slid_cycle: u32,
    /// Scanned-table pages the boundary turned young since the start.
    pub slid_scan: f64,
    pub hot_resident: u32,
    pub hot_pages: u32,
    pub refills: u32,
    pub free: u32,
    pub narration: String,
    /// One line under its close-up: time, refills, free list, hot set.
    pub summary: String,
}

impl Side {
    fn of(label: String, s: Status) -> Side {
        let mut side = Side {
            label,
            t_s: s.t_s,
            events: s.events,
            slid_cycle: s.marked_young,
            slid_scan: s.slid_young_scan,
            hot_resident: s.hot_resident,
            hot_pages: s.hot_pages,
            refills: s.refills,
            free: s.free,
            narration: s.narration,
            summary: String::new(),
        };
        side.summary = format!(
            "t = {:.3} s · LRU batches that evicted: {} · free list: {} · hot set in the pool: {}",
            side.t_s,
            n(side.refills),
            n(side.free),
            side.hot()
        );
        side
    }

    fn hot(&self) -> String {
        format!(
            "{} of {} ({:.0} %)",
            n(self.hot_resident),
            n(self.hot_pages),
            100.0 * self.hot_resident as f64 / self.hot_pages.max(1) as f64
        )
    }
}

/// What the figure shows beside the two close-ups.
#[derive(Clone, Debug, Serialize)]
pub struct PairStatus {
    pub stock: Side,
    pub patched: Side,
    /// Both runs are at the same event.
    pub in_step: bool,
    /// The leader's mode ("paused", "playing", "seeking", "watching") and busy message.
    pub mode: &'static str,
    pub busy: String,
    /// What differs at the current event, in a sentence or two.
    pub caption: String,
}

/// The two runs.
pub struct Pair {
    stock: Explorer,
    patched: Explorer,
    what_if: WhatIf,
    opening: Opening,
}

impl Pair {
    /// Stock 8.4 and `what_if` on [`PAIR_PRESET`], opening just before the scan phase's first
    /// LRU batch.
    pub fn new(what_if: &str, clock: fn() -> f64) -> Result<Pair, String> {
        let w = WhatIf::parse(what_if)?;
        let base = preset(PAIR_PRESET)?.params;
        let mut p = base.clone();
        p.what_if = WhatIfs::only(w);
        let mut stock = Explorer::new(&base, clock)?;
        let patched = Explorer::new(&p, clock)?;
        stock.seek_time(base.warmup_s as f64 + 0.001);
        Ok(Pair {
            stock,
            patched,
            what_if: w,
            opening: Opening::Time,
        })
    }

    /// The stock run (the leader).
    pub fn stock(&mut self) -> &mut Explorer {
        &mut self.stock
    }

    /// The patched run (the follower).
    pub fn patched(&mut self) -> &mut Explorer {
        &mut self.patched
    }

    /// One animation frame: the leader advances in its mode, the follower catches up to its
    /// event count (not while the leader looks ahead for a batch: its count jumps back then).
    /// Returns `F_DIRTY | F_STATUS` bits.
    pub fn frame(&mut self, now_ms: f64) -> u32 {
        let mut f = self.stock.frame(now_ms) | self.patched.frame(now_ms);
        if self.stock.is_paused() {
            match self.opening {
                Opening::Time => {
                    self.opening = Opening::Batch;
                    self.stock.next_batch();
                }
                Opening::Batch => self.opening = Opening::Done,
                Opening::Done => {}
            }
        }
        if !self.stock.is_looking_ahead() && !self.in_step() {
            self.patched.follow(self.stock.events() as u64);
            f |= F_DIRTY | F_STATUS;
        }
        f
    }

    /// Both runs at the same event.
    pub fn in_step(&self) -> bool {
        self.stock.events() == self.patched.events()
    }

    /// Play or pause both.
    pub fn toggle(&mut self) {
        self.opening = Opening::Done;
        if self.stock.is_paused() {
            self.stock.play();
        } else {
            self.stock.pause();
        }
    }

    /// One event in each (from the same event count, so both narrate their own event).
    pub fn step(&mut self) {
        self.opening = Opening::Done;
        self.settle();
        self.stock.step();
        self.patched.step();
    }

    /// One event back in each.
    pub fn step_back(&mut self) {
        self.opening = Opening::Done;
        self.settle();
        self.stock.step_back();
        self.patched.step_back();
    }

    /// Watch the stock run's next refill and drain; the patched run follows event by event.
    pub fn watch(&mut self) {
        self.opening = Opening::Done;
        self.stock.watch();
    }

    /// Both back to the start of the warm-up.
    pub fn reset(&mut self) {
        self.opening = Opening::Done;
        self.stock.reset();
        self.patched.reset();
    }

    /// Brings the follower to the leader's event before a step (a paused follower is there
    /// already unless a frame's budget ran out).
    fn settle(&mut self) {
        if !self.stock.is_paused() {
            self.stock.pause();
        }
        while !self.in_step() {
            if self.patched.follow(self.stock.events() as u64) {
                break;
            }
        }
    }

    /// Both sides' figures and the caption.
    pub fn status(&self) -> PairStatus {
        let s = self.stock.status();
        let (mode, busy) = (s.mode, s.busy.clone());
        let stock = Side::of("stock MySQL 8.4".into(), s);
        let patched = Side::of(self.what_if.name().into(), self.patched.status());
        let in_step = self.in_step();
        let caption = caption(&stock, &patched, in_step);
        PairStatus {
            stock,
            patched,
            in_step,
            mode,
            busy,
            caption,
        }
    }
}

/// The sentence under the two close-ups: the shared event, then what differs.
fn caption(a: &Side, b: &Side, in_step: bool) -> String {
    let when = if in_step {
        format!(
            "Event {} in both runs (simulated time: stock {:.3} s, patched {:.3} s).",
            n(a.events as u64),
            a.t_s,
            b.t_s
        )
    } else {
        format!(
            "The patched run is catching up: event {} of {}.",
            n(b.events as u64),
            n(a.events as u64)
        )
    };
    // The close-ups' marks restart at each run's own batches; before any, they count from the
    // start (the list growing into free frames).
    let since = if a.refills == 0 && b.refills == 0 {
        "Before any LRU batch, as the list grew into free frames,"
    } else {
        "Since each run's last LRU batch (or its start, before its first)"
    };
    format!(
        "{when} LRU batches that evicted so far: {} in stock, {} patched. {since} the boundary turned {} young in stock 8.4 and {} with {}; scanned-table pages turned young by the slide since the start: {} against {}. Hot set in the pool: {} in stock, {} patched.",
        n(a.refills),
        n(b.refills),
        pages_word(a.slid_cycle as u64),
        n(b.slid_cycle),
        b.label,
        n(a.slid_scan as u64),
        n(b.slid_scan as u64),
        a.hot(),
        b.hot()
    )
}

fn pages_word(k: u64) -> String {
    format!("{} page{}", n(k), if k == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_caption_counts_from_the_start_until_a_batch_has_run() {
        let side = |refills, slid_cycle| Side {
            label: "free-frames-count-as-old".into(),
            refills,
            slid_cycle,
            hot_pages: 4485,
            ..Side::default()
        };
        let before = caption(&side(0, 607), &side(0, 0), true);
        assert!(before.contains("Before any LRU batch"), "{before}");
        assert!(!before.contains("last LRU batch"), "{before}");
        let after = caption(&side(2, 361), &side(1, 0), true);
        assert!(after.contains("Since each run's last LRU batch"), "{after}");
        assert!(after.contains("turned 361 pages young in stock"), "{after}");
    }

    fn clock() -> f64 {
        0.0
    }

    fn row(w: &str, kept: f64) -> ReadRow {
        ReadRow {
            preset: PAIR_PRESET.into(),
            what_if: w.into(),
            seeds: 2,
            kept,
            kept_min: kept,
            kept_max: kept,
            scan_pages_per_s: 0.0,
            lookups_per_s: 0.0,
            slid_young_per_s: 0.0,
        }
    }

    #[test]
    fn the_default_choice_moves_kept_the_most() {
        let rows = vec![
            row("none", 0.40),
            row("slide-spares-fresh", 0.98),
            row("free-frames-count-as-old", 0.99),
            row("user-replaces-free-frame", 0.97),
        ];
        let (v, best) = choices(&rows, PAIR_PRESET, None);
        assert_eq!(v.len(), WhatIf::PATCHES.len());
        assert_eq!(v[best].name, "free-frames-count-as-old");
        assert_eq!(v[best].kept_stock, Some(0.40));
        assert_eq!(v[best].label, "free-frames-count-as-old (99 %)");
        assert!(
            v[best]
                .summary
                .starts_with("Kept on seed000-hot4485-b2b, in the model: 40 % in stock, 99 % patched (the mean of runs 1-2). The patch: calculate_desired_LRU_old_size"),
            "{}",
            v[best].summary
        );
        // The cell's declared ensemble given: stock quotes it, median and range, and the pieces
        // put back together are the summary.
        let q = CellQuote {
            cell: "default".into(),
            median: 0.46,
            min: 0.29,
            max: 0.60,
            runs: 5,
            runs_words: "runs 1-5".into(),
            window: [100.0, 210.0],
            pct: "46 %".into(),
            range: "29–60 % over runs 1-5".into(),
            window_words: String::new(),
        };
        let (v, best2) = choices(&rows, PAIR_PRESET, Some(&q));
        assert_eq!(best2, best);
        assert_eq!(v[best].kept_stock, Some(0.46));
        assert_eq!(v[best].stock, "46 % (29–60 % over runs 1-5)");
        assert_eq!(
            format!(
                "{}{}{}",
                v[best].summary_before, v[best].stock, v[best].summary_after
            ),
            v[best].summary
        );
        assert!(
            v[best]
                .summary
                .contains(": 46 % (29–60 % over runs 1-5) in stock, 99 % patched"),
            "{}",
            v[best].summary
        );
        // No rows: every what-if is offered, the first by default.
        let (v, best) = choices(&[], PAIR_PRESET, None);
        assert_eq!((v.len(), best, v[0].kept_patched), (3, 0, None));
    }

    #[test]
    fn the_follower_stays_on_the_leaders_event() {
        let mut p = Pair::new("free-frames-count-as-old", clock).unwrap();
        assert!(Pair::new("nope", clock).err().unwrap().contains("nope"));
        p.opening = Opening::Done;
        // Back at the start, paused (a pause during the opening seek would land at the seek's
        // moment first: a move during a seek acts once it is there).
        p.stock.reset();
        for _ in 0..50 {
            p.step();
        }
        assert!(p.in_step());
        assert_eq!(p.stock.events(), 50.0);
        p.step_back();
        assert_eq!((p.stock.events(), p.patched.events()), (49.0, 49.0));
        // The leader jumps ahead; frames bring the follower along.
        p.stock.seek_event(3000.0);
        for k in 0..1000 {
            p.frame(k as f64 * 16.0);
            if p.stock.is_paused() && p.in_step() {
                break;
            }
        }
        assert_eq!((p.stock.events(), p.patched.events()), (3000.0, 3000.0));
        let s = p.status();
        assert!(s.in_step);
        assert!(
            s.caption.starts_with("Event 3,000 in both runs"),
            "{}",
            s.caption
        );
        assert!(
            s.caption.contains("free-frames-count-as-old"),
            "{}",
            s.caption
        );
    }

    #[test]
    fn the_caption_says_what_differs() {
        let side = |label: &str, slid: u32, hot: u32| Side {
            label: label.into(),
            t_s: 61.0,
            events: 1234.0,
            slid_cycle: slid,
            slid_scan: slid as f64 * 3.0,
            hot_resident: hot,
            hot_pages: 4485,
            refills: 1,
            free: 0,
            narration: String::new(),
            summary: String::new(),
        };
        let c = caption(
            &side("stock MySQL 8.4", 606, 4000),
            &side("slide-spares-fresh", 0, 4485),
            true,
        );
        assert!(
            c.contains("turned 606 pages young in stock 8.4 and 0 with slide-spares-fresh"),
            "{c}"
        );
        assert!(c.contains("1,818 against 0"), "{c}");
        assert!(
            c.contains("4,000 of 4,485 (89 %) in stock, 4,485 of 4,485 (100 %) patched"),
            "{c}"
        );
        assert!(caption(&side("a", 1, 1), &side("b", 1, 1), false).contains("catching up"));
    }
}
