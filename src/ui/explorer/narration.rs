//! The explorer's narration: what the current moment shows, in words (the refill, the drain,
//! the scan's start, the end of the run). Single steps are described by `ui::narrate`.

use super::cursor::Stepped;
use super::*;

fn to_s(us: midpoint_core::clock::Micros) -> f64 {
    midpoint_core::clock::to_secs(us)
}

impl Explorer {
    /// The narration at the start of the warm-up.
    pub(super) fn opening(&self) -> String {
        if self.params.start == midpoint_core::scenario::Start::Restart {
            format!(
                "0 s: the warm-up begins just after a restart: the pool is empty, every frame is on the free list. Lookups load only the hot pages they touch; the scan starts at {} s and fills the rest.",
                self.params.warmup_s
            )
        } else if self.params.start == midpoint_core::scenario::Start::Cold {
            format!(
                "0 s: the warm-up begins, after a restart: the pool was filled by reading a filler table, so the scanned table has no page in it yet. Lookups read the hot set; the scan starts at {} s.",
                self.params.warmup_s
            )
        } else {
            format!(
                "0 s: the warm-up begins. The tables were just loaded, so their pages sit young at the head (the hot table) and below it (the scanned table). Lookups read the hot set; the scan starts at {} s.",
                self.params.warmup_s
            )
        }
    }

    /// The narration the state itself supports, for moments no event narration describes
    /// (while playing, after a seek): derived afresh, so it is never left over.
    pub(super) fn state_narration(&self) -> String {
        let sim = &self.cur.sim;
        let t = t_label(sim.now());
        let inst = &sim.pool.instances[0];
        let (len, old, free) = (inst.lru.len(), inst.lru.old_len(), inst.free.len());
        if sim.finished() {
            return format!("{t}: the run is over. Press Reset (or Home) to start again.");
        }
        if let Some(g) = self.growth_narration() {
            return g;
        }
        let lists = format!(
            "The LRU list holds {} ({} old), the free list {}.",
            pages(len as u64),
            n(old),
            n(free)
        );
        if sim.now() < sim.scan_start() {
            // Reference §2 and §1.5: below 512 pages there is no old sublist, and reads go to
            // the head.
            let free_words = if len < midpoint_core::pool::lru::OLD_MIN_LEN {
                "every read goes to the head: the list has no old sublist until it holds 512 pages"
            } else if free > 0 {
                "every read takes a free frame, so the list grows and the boundary, held at innodb_old_blocks_pct of it, walks toward the tail"
            } else {
                "the free list is empty, so every read first evicts the page at the tail"
            };
            return format!(
                "{t}: warm-up, before the scan starts at {} s. Lookups read the hot set; {free_words}. {lists}",
                self.params.warmup_s
            );
        }
        if let Some(b) = &self.cur.batch {
            if !b.drain_done && free > 0 {
                if let Some(d) = self.drain_narration(false) {
                    return d;
                }
            }
        }
        let since = to_s(sim.now().saturating_sub(sim.scan_start()));
        let scan = if !sim.scan_running() {
            "the scan pauses between passes".to_string()
        } else if since < 2.0 {
            format!("the scan phase began {since:.1} s ago: the scanned table is read in a loop")
        } else {
            "the scan reads the scanned table in a loop".to_string()
        };
        let last = match &self.cur.batch {
            Some(b) => format!(
                " {} LRU batch{} refilled the free list so far, the last at {}.",
                n(self.cur.refills),
                if self.cur.refills == 1 { "" } else { "es" },
                t_label(b.at)
            ),
            None => " No LRU batch has refilled the free list yet in this run.".to_string(),
        };
        let grown = sim.pool.growth_slid_young_by_tag(SCAN_SPACE as u8);
        let growth = if grown > 0 {
            format!(
                " Of them, {} turned young by the growth slide: while the list grew past its longest length (the pool filling after a restart), the old sublist's target grew by only {} % of each insert, so the boundary walked toward the tail.",
                n(grown),
                self.params.old_blocks_pct
            )
        } else {
            String::new()
        };
        format!(
            "{t}: {scan}. {lists}{last} So far the boundary turned {} young.{growth}",
            narrate::count(
                sim.pool.slid_young_by_tag(SCAN_SPACE as u8),
                "scanned-table page",
                "scanned-table pages"
            )
        )
    }

    /// The narration of a growth slide in progress: the list longer than it ever was, the free
    /// list not yet empty (the pool filling after a restart), and growth having turned pages
    /// young. `None` when the state shows no growth slide.
    pub(super) fn growth_narration(&self) -> Option<String> {
        let sim = &self.cur.sim;
        let inst = &sim.pool.instances[0];
        let grown: u64 = inst.lru.slides.growth_young.iter().sum();
        // Growing now: the list is at its longest, past 512, frames still free.
        if grown == 0
            || inst.free.is_empty()
            || inst.lru.len() < inst.lru.longest()
            || inst.lru.len() < midpoint_core::pool::lru::OLD_MIN_LEN
        {
            return None;
        }
        Some(format!(
            "{}: the growth slide. The pool is still filling: the free list holds {}, and each read takes one and lengthens the LRU list ({} now, past 512). The old sublist's target grows by only {} % of each insert, so buf_LRU_old_adjust_len moves LRU_old toward the tail by the rest, about {:.2} page per insert, turning the newest inserts young: {} so far ({}), no refill involved.",
            t_label(sim.now()),
            pages(inst.free.len() as u64),
            n(inst.lru.len()),
            self.params.old_blocks_pct,
            1.0 - self.params.old_blocks_pct as f64 / 100.0,
            pages(grown),
            narrate::count(
                inst.lru.slides.growth_young.get(SCAN_SPACE as usize).copied().unwrap_or(0),
                "scanned-table page",
                "scanned-table pages"
            )
        ))
    }

    pub(super) fn set_narration(&mut self, s: String, announce: bool) {
        let events = self.cur.events();
        self.narr.set(s, announce, events);
    }

    pub(super) fn batch_narration(&self) -> String {
        let Some(b) = &self.cur.batch else {
            return String::new();
        };
        let p = &self.params;
        let mut s = format!(
            "{}: the page cleaner's LRU batch freed {} from the tail (free list {} → {}, its target innodb_lru_scan_depth).",
            t_label(b.at),
            pages(b.evicted as u64),
            n(b.free_before),
            n(b.free_before + b.evicted),
        );
        let demoted = b.demoted_frames.len() as u64;
        if demoted > 0 {
            let hot = match b.demoted_hot.len() {
                1 => "1 of them a hot page".to_string(),
                h => format!("{} of them hot pages", n(h as u64)),
            };
            s.push_str(&format!(
                " The list is {} shorter and its old sublist must stay at {} % of it, so the boundary moved {} toward the head: bulk demotion turned them old, {hot} (pink rings).",
                pages(b.evicted as u64),
                p.old_blocks_pct,
                pages(demoted)
            ));
        }
        if b.predicted > 0 {
            // Reference §11.3: the count is exact only if no old page is promoted meanwhile;
            // each promotion uses up one step of the slide, so it is an upper bound.
            s.push_str(&format!(
                " As reads drain the free list, each insert after LRU_old lengthens the list; past the 40-page dead band the boundary walks back toward the tail, turning the newest inserts young: at most about {} of the next {} (fewer if old pages are promoted meanwhile, since each promotion shortens the old sublist too).",
                n(b.predicted),
                narrate::count(b.evicted as u64, "read", "reads")
            ));
        } else {
            s.push_str(" This refill is too small to move the boundary past its 40-page dead band: nothing will slide.");
        }
        s
    }

    pub(super) fn drain_narration(&self, done: bool) -> Option<String> {
        let b = self.cur.batch.as_ref()?;
        let inst = &self.cur.sim.pool.instances[0];
        let taken = (b.free_before + b.evicted).saturating_sub(inst.free.len());
        let young = inst.lru.slides.total_young() - b.slid_young_after;
        let scan = self.cur.sim.pool.slid_young_by_tag(SCAN_SPACE as u8) - b.slid_scan_after;
        if done {
            let ms = (self.cur.sim.now() - b.at) as f64 / 1000.0;
            Some(format!(
                "{}: the free list is empty again. Reads took its {} in {:.0} ms, and the boundary turned {} young ({}) without any reuse. Their clock stamp is 0, so the next touch of each moves it to the head (the quarter rule). Each later pass moves it there again, as long as the scan comes back before the page sinks through the young sublist.",
                t_label(self.cur.sim.now()),
                narrate::count(taken as u64, "frame", "frames"),
                ms,
                pages(young),
                if scan == 1 {
                    "1 of them a scanned-table page".to_string()
                } else {
                    format!("{} of them scanned-table pages", n(scan))
                }
            ))
        } else {
            Some(format!(
                "{}: draining. Reads have taken {} of {}, and the boundary has turned {} young (ringed). Their clock stamp is 0, so the next touch of each moves it to the head.",
                t_label(self.cur.sim.now()),
                n(taken),
                narrate::count((b.free_before + b.evicted) as u64, "free frame", "free frames"),
                pages(young)
            ))
        }
    }

    /// After a step in a continuous mode: narrate notable events.
    pub(super) fn notice(&mut self, s: &Stepped) -> bool {
        if s.refill {
            let t = self.batch_narration();
            self.set_narration(t, true);
            return true;
        }
        match &s.ev {
            Event::ScanResume if self.cur.sim.now() <= self.cur.sim.scan_start() + 1 => {
                let free = self.cur.sim.pool.free_len();
                let t = format!(
                    "{}: the scan phase begins: SELECT SUM(v) over the scanned table ({}), in a loop{}.{}",
                    t_label(self.cur.sim.now()),
                    pages(self.params.scan_table_pages() as u64),
                    if self.params.scan_pause_ms > 0 {
                        format!(" with a {} ms pause between passes", n(self.params.scan_pause_ms))
                    } else {
                        String::new()
                    },
                    if free > 0 && self.params.start == midpoint_core::scenario::Start::Restart {
                        format!(
                            " The pool is still filling after the restart: {} free, so each read lengthens the LRU list and the boundary slides toward the tail (the growth slide).",
                            narrate::count(free as u64, "frame is", "frames are")
                        )
                    } else if free > 0 {
                        format!(
                            " Its first reads drain the {} left from the warm-up, so the boundary slides at once.",
                            narrate::count(free as u64, "free frame", "free frames")
                        )
                    } else {
                        String::new()
                    }
                );
                self.set_narration(t, true);
            }
            Event::End => {
                let t = format!(
                    "{}: the run is over. Press Reset (or Home) to start again.",
                    t_label(self.cur.sim.now())
                );
                self.set_narration(t, true);
            }
            _ => {}
        }
        if let Some(b) = &self.cur.batch {
            if !b.drain_done && self.cur.sim.pool.free_len() == 0 {
                if let Some(t) = self.drain_narration(true) {
                    self.set_narration(t, true);
                }
                if let Some(b) = self.cur.batch.as_mut() {
                    b.drain_done = true;
                }
                return true;
            }
        }
        false
    }
}
