//! What the page shows beside the grid, read once per frame: counters, narration, mode, and
//! where the view stands against the last LRU batch and the last seek.

use super::*;

/// What the page shows beside the grid, read once per frame.
#[derive(Clone, Debug, Serialize)]
pub struct Status {
    /// Seconds since the warm-up started.
    pub t_s: f64,
    /// When the scan phase starts / the run ends, s.
    pub scan_start_s: f64,
    pub end_s: f64,
    /// Events processed.
    pub events: f64,
    /// "warm-up", "scan" or "ended".
    pub phase: &'static str,
    /// "paused", "playing", "seeking" or "watching".
    pub mode: &'static str,
    /// A busy message while seeking.
    pub busy: String,
    /// Speed label, and whether it is the slowest/fastest.
    pub speed: &'static str,
    pub speed_index: u32,
    /// While playing: the speed reached (virtual s per wall s), and whether it falls well
    /// short of the chosen one (a large pool in one frame's budget).
    pub achieved_speed: f64,
    pub speed_limited: bool,
    /// InnoDB's counters.
    pub made_young: f64,
    pub not_made_young: f64,
    /// Young pages moved back to the head (InnoDB counts them nowhere).
    pub young_moved_to_head: f64,
    /// Pages the boundary turned young (all tables / the scanned table).
    pub slid_young: f64,
    pub slid_young_scan: f64,
    /// Pages the boundary turned old.
    pub slid_old: f64,
    pub free: u32,
    pub lru: u32,
    pub old: u32,
    pub frames: u32,
    pub hot_resident: u32,
    pub hot_pages: u32,
    pub scan_young: u32,
    /// Cells marked now: turned young / turned old since the last LRU batch.
    pub marked_young: u32,
    pub marked_old: u32,
    /// LRU batches that evicted pages so far.
    pub refills: u32,
    /// Paused right before an LRU batch.
    pub at_batch: bool,
    /// Paused right after an LRU batch that refilled the free list (nothing ran since): the
    /// moment a link's `at=batch` opens at.
    pub after_batch: bool,
    /// Pages the boundary turned young since the last LRU batch (the drain's slide so far).
    pub drain_young: f64,
    /// The last LRU batch: pages it evicted, pages its bulk demotion turned old, the hot-set
    /// pages among them and those of them evicted since (0 before the first batch).
    pub batch_evicted: u32,
    pub demoted: u32,
    pub demoted_hot: u32,
    pub lost_hot: u32,
    /// How the last seek to a time got there: "snapshot" (restored a saved position, then a
    /// short replay), "forward" (ran on from the current position) or "" (no seek yet).
    pub seek: &'static str,
    /// Events the last seek to a time replayed.
    pub seek_replayed: f64,
    /// How far the saved positions reach, seconds since the warm-up started (a seek to a time
    /// up to here is a restore and a short replay).
    pub scouted_s: f64,
    /// The narration, and a counter that moves when it is worth announcing.
    pub narration: String,
    /// The narration a figure on a phone shows: its first whole sentences within
    /// `narrate::PHONE_NARRATION` characters (the figure stays within one screen).
    pub narration_short: String,
    pub seq: u32,
    /// The current refill's drain as a timeline: free frames right after the batch (0: none to
    /// scrub) and frames taken since.
    pub drain_size: u32,
    pub drain_k: u32,
    /// Whether the run can step back.
    pub can_back: bool,
    pub ended: bool,
}

impl Explorer {
    /// Counters, narration and mode, for the page.
    pub fn status(&self) -> Status {
        let c = Counters::of(&self.cur.sim);
        let sim = &self.cur.sim;
        let p = &self.params;
        let t_s = sim.t_s();
        // During the eviction animation, the numbers of the frame drawn.
        let (free, lru, old) = self.shown_lists();
        let b = self.batch_numbers();
        let drain = self.drain_pos();
        Status {
            t_s,
            scan_start_s: p.warmup_s as f64,
            end_s: (p.warmup_s + p.scan_s) as f64,
            events: self.cur.events() as f64,
            phase: if sim.finished() {
                "ended"
            } else if sim.now() >= sim.scan_start() {
                "scan"
            } else {
                "warm-up"
            },
            mode: match self.mode {
                Mode::Paused => "paused",
                Mode::Playing => "playing",
                Mode::Seeking(_) => "seeking",
                Mode::Watching(Watch::Seeking) => "seeking",
                Mode::Watching(_) => "watching",
            },
            busy: self.narr.busy.clone(),
            speed: SPEED_LABELS[self.pc.speed],
            speed_index: self.pc.speed as u32,
            achieved_speed: if self.mode == Mode::Playing {
                self.pc.achieved
            } else {
                0.0
            },
            speed_limited: self.mode == Mode::Playing
                && self.pc.achieved > 0.0
                && self.pc.achieved < 0.7 * SPEEDS[self.pc.speed],
            made_young: c.made_young as f64,
            not_made_young: c.not_made_young as f64,
            young_moved_to_head: c.young_moved_to_head as f64,
            slid_young: c.slid_young as f64,
            slid_young_scan: sim.pool.slid_young_by_tag(SCAN_SPACE as u8) as f64,
            slid_old: c.slid_old as f64,
            free,
            lru,
            old,
            frames: sim.pool.total_frames(),
            hot_resident: self.view.counts.0,
            hot_pages: p.hot_pages,
            scan_young: self.view.counts.1,
            marked_young: self.view.counts.2,
            marked_old: self.view.counts.3,
            refills: self.cur.refills,
            at_batch: self.at_batch,
            after_batch: self.after_batch(),
            drain_young: if self.cur.batch.is_some() {
                b.young_since as f64
            } else {
                0.0
            },
            batch_evicted: b.evicted,
            demoted: b.demoted,
            demoted_hot: b.demoted_hot,
            lost_hot: b.lost_hot,
            seek: self.sk.kind,
            seek_replayed: self.sk.replayed as f64,
            scouted_s: self.scouted_s(),
            narration_short: narrate::shorten(&self.narration_now(), narrate::PHONE_NARRATION),
            narration: self.narration_now(),
            seq: self.narr.seq,
            drain_size: drain.size,
            drain_k: drain.k,
            can_back: self.cur.events() > 0,
            ended: sim.finished(),
        }
    }

    /// The narration for the current moment: the event narration if it was written at this
    /// event, else one derived from the state.
    pub fn narration_now(&self) -> String {
        match self.narr.current(self.cur.events()) {
            Some(t) => t.to_string(),
            None => self.state_narration(),
        }
    }
}
