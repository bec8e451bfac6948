//! The frame-by-frame view of one run: the simulation under the user's control (play, step,
//! step back, run to the next LRU batch, watch a refill and drain in slow motion), the marks
//! of pages the boundary passed, the narration, and the pool grid.
//!
//! All timing is budgeted per animation frame, so nothing blocks the page for long: seeking
//! runs in chunks across frames.

use super::charts::{self, RunData};
use super::grid::{self, Layout, Palette};
use super::narrate::{self, n, pages, t_label, Counters};
use crate::clock::{to_secs, Micros, SEC};
use crate::pool::PageId;
use crate::scenario::Params;
use crate::sim::{Event, Simulation, EPOCH, HOT_SPACE, SCAN_SPACE};
use serde::Serialize;
use std::collections::VecDeque;
use wasm_bindgen::prelude::*;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageData};

/// Wall-clock budget of one animation frame's simulation work, ms.
const BUDGET_MS: f64 = 9.0;
/// Events between two looks at the clock while seeking.
const CHUNK: u32 = 8192;
/// Frames a freshly marked cell stays highlighted.
const FLASH_FRAMES: u8 = 75;
/// Speeds: virtual seconds per wall second.
const SPEEDS: [f64; 7] = [0.001, 0.01, 0.1, 1.0, 10.0, 30.0, 100.0];
/// Labels of the speeds.
const SPEED_LABELS: [&str; 7] = ["1/1000×", "1/100×", "1/10×", "1×", "10×", "30×", "100×"];
/// The speed of a watched drain (index into SPEEDS).
const WATCH_SPEED: usize = 1;
/// Wall time of the eviction animation, ms.
const EVICT_MS: f64 = 1600.0;
/// Wall time of the pause before a watched batch, ms.
const HOLD_MS: f64 = 1100.0;
/// Bytes of snapshots to keep for stepping back.
const SNAPSHOT_BUDGET: u64 = 48 << 20;

/// `frame()` result: the grid changed and should be drawn.
pub const F_DIRTY: u32 = 1;
/// `frame()` result: the status (counters, narration, mode) changed.
pub const F_STATUS: u32 = 2;

fn perf_now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or_else(js_sys::Date::now)
}

fn pack(p: PageId) -> u64 {
    ((p.space as u64) << 32) | p.page_no as u64
}

/// What the last refill did, for the narration and the animation.
#[derive(Clone, Debug)]
struct BatchInfo {
    at: Micros,
    evicted: u32,
    free_before: u32,
    /// Frames evicted, tail first.
    evicted_frames: Vec<u32>,
    /// Frames the boundary turned old during the batch, in order.
    demoted_frames: Vec<u32>,
    /// Cumulative demotions after each eviction (for the animation).
    demoted_after: Vec<u32>,
    predicted: u32,
    /// Slide counters right after the batch.
    slid_young_after: u64,
    slid_scan_after: u64,
    drain_done: bool,
}

/// A position in the run: the simulation plus the marks of the current refill cycle.
#[derive(Clone, Debug)]
struct Cursor {
    sim: Simulation,
    mark: Vec<u8>,
    mark_page: Vec<u64>,
    batch: Option<BatchInfo>,
    refills: u32,
}

struct Stepped {
    ev: Event,
    refill: bool,
}

impl Cursor {
    fn new(params: &Params) -> Result<Cursor, String> {
        let mut sim = Simulation::new(params)?;
        if sim.pool.instances.len() != 1 {
            return Err("the page simulates one buffer pool instance".into());
        }
        sim.pool.instances[0].lru.slide_log = Some(Vec::new());
        let frames = sim.pool.total_frames() as usize;
        Ok(Cursor {
            sim,
            mark: vec![0; frames],
            mark_page: vec![u64::MAX; frames],
            batch: None,
            refills: 0,
        })
    }

    fn events(&self) -> u64 {
        self.sim.events()
    }

    /// One event; `fresh` collects frames marked by it.
    fn step(&mut self, mut fresh: Option<&mut Vec<u32>>) -> Stepped {
        let (len0, old0) = {
            let l = &self.sim.pool.instances[0].lru;
            (l.len(), l.old_len())
        };
        let free0 = self.sim.pool.free_len();
        let ev = self.sim.step();
        let refill = matches!(&ev, Event::LruBatch(r) if r.iter().any(|b| b.evicted > 0));
        let log = self.sim.pool.instances[0]
            .lru
            .slide_log
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default();
        if refill {
            self.mark.fill(0);
            self.refills += 1;
            let inst = &self.sim.pool.instances[0];
            let k = match &ev {
                Event::LruBatch(r) => r.iter().map(|b| b.evicted).sum::<u32>(),
                _ => 0,
            };
            let frames = inst.free.frames();
            let evicted_frames: Vec<u32> =
                frames[frames.len().saturating_sub(k as usize)..].to_vec();
            for &f in &evicted_frames {
                self.mark[f as usize] = grid::MARK_FREED;
                self.mark_page[f as usize] = u64::MAX;
            }
            let demoted_frames: Vec<u32> = log.iter().filter(|e| e.1).map(|e| e.0).collect();
            let ratio = inst.lru.ratio();
            let demoted_after = narrate::demotions_during(len0, old0, ratio, k);
            let predicted = narrate::predicted_drain_slide(
                inst.lru.len(),
                inst.lru.old_len(),
                ratio,
                inst.free.len(),
            );
            self.batch = Some(BatchInfo {
                at: self.sim.now(),
                evicted: k,
                free_before: free0,
                evicted_frames,
                demoted_frames,
                demoted_after,
                predicted,
                slid_young_after: inst.lru.slides.total_young(),
                slid_scan_after: self.sim.pool.slid_young_by_tag(SCAN_SPACE as u8),
                drain_done: false,
            });
        }
        if !log.is_empty() {
            let inst = &self.sim.pool.instances[0];
            for (f, turned_old) in log {
                let i = f as usize;
                self.mark[i] = if turned_old {
                    grid::MARK_OLD
                } else {
                    grid::MARK_YOUNG
                };
                self.mark_page[i] = pack(inst.page(f));
                if let Some(v) = fresh.as_deref_mut() {
                    v.push(f);
                }
            }
        }
        Stepped { ev, refill }
    }

    fn approx_bytes(&self) -> u64 {
        let p = self.sim.params();
        let frames = self.sim.pool.total_frames() as u64;
        let filler = if p.start == crate::scenario::Start::Cold {
            frames
        } else {
            1
        };
        frames * 60
            + (p.hot_table_pages as u64 + p.scan_table_pages() as u64 + filler) * 4
            + self.sim.samples().len() as u64 * 160
            + self.sim.batches().len() as u64 * 64
            + 4096
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Seek {
    Event(u64),
    Batch,
    Time(Micros),
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Watch {
    Seeking,
    Hold { until: f64 },
    Evict { start: f64 },
    Drain,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Mode {
    Paused,
    Playing,
    Seeking(Seek),
    Watching(Watch),
}

/// What the page shows beside the grid, read once per frame.
#[derive(Serialize)]
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
    /// The narration, and a counter that moves when it is worth announcing.
    pub narration: String,
    pub seq: u32,
    /// Whether the run can step back.
    pub can_back: bool,
    pub ended: bool,
}

/// One run of the simulator under the page's control.
#[wasm_bindgen]
pub struct Explorer {
    params: Params,
    cur: Cursor,
    base: Cursor,
    anchors: Vec<Cursor>,
    anchor_every: u64,
    max_anchors: usize,
    recent: VecDeque<Cursor>,
    max_recent: usize,
    mode: Mode,
    after_seek: Option<Watch>,
    /// While running to the next batch: the position it looks ahead from, how often that is
    /// renewed (events), and, once the batch is found, the event it is at.
    seek_snap: Option<Cursor>,
    snap_every: u64,
    batch_at: Option<u64>,
    speed: usize,
    playhead: Micros,
    last_ms: Option<f64>,
    reduced_motion: bool,
    at_batch: bool,
    narration: String,
    seq: u32,
    busy: String,
    flash: Vec<u8>,
    flashing: Vec<u32>,
    fresh: Vec<u32>,
    cells: Vec<u8>,
    cell_frame: Vec<u32>,
    counts: (u32, u32, u32, u32),
    boundary: Option<u32>,
    lru_end: u32,
    px: Vec<u32>,
    layout: Layout,
    dark: bool,
    dirty: bool,
    run: Option<RunData>,
}

impl Explorer {
    fn tracked(&self) -> bool {
        !self.reduced_motion
    }

    fn speed_us(&self, wall_ms: f64) -> Micros {
        (wall_ms * 1000.0 * SPEEDS[self.speed]).round() as Micros
    }

    /// One event, with anchors for stepping back and (if `track`) highlights.
    fn fwd(&mut self, track: bool) -> Stepped {
        let s = if track {
            let mut fresh = std::mem::take(&mut self.fresh);
            let s = self.cur.step(Some(&mut fresh));
            for f in fresh.drain(..) {
                if self.flash[f as usize] == 0 {
                    self.flashing.push(f);
                }
                self.flash[f as usize] = FLASH_FRAMES;
            }
            self.fresh = fresh;
            s
        } else {
            self.cur.step(None)
        };
        if s.refill {
            // Highlights of the previous cycle end with it.
            for &f in &self.flashing {
                self.flash[f as usize] = 0;
            }
            self.flashing.clear();
            if track {
                if let Some(b) = &self.cur.batch {
                    for &f in &b.demoted_frames {
                        if self.flash[f as usize] == 0 {
                            self.flashing.push(f);
                        }
                        self.flash[f as usize] = FLASH_FRAMES;
                    }
                }
            }
        }
        let ev = self.cur.events();
        let last = self.anchors.last().map(|a| a.events()).unwrap_or(0);
        if ev >= last + self.anchor_every {
            self.anchors.push(self.cur.clone());
            if self.anchors.len() > self.max_anchors {
                let mut i = 0;
                self.anchors.retain(|_| {
                    i += 1;
                    i % 2 == 0
                });
                self.anchor_every *= 2;
            }
        }
        self.dirty = true;
        s
    }

    fn remember(&mut self) {
        let ev = self.cur.events();
        if self.recent.iter().any(|c| c.events() == ev) {
            return;
        }
        if self.max_recent == 0 {
            return;
        }
        if self.recent.len() >= self.max_recent {
            self.recent.pop_front();
        }
        self.recent.push_back(self.cur.clone());
    }

    /// The latest saved position at or before event `n`.
    fn restore_before(&mut self, target: u64) {
        let mut best: &Cursor = &self.base;
        for c in self.recent.iter().chain(self.anchors.iter()) {
            if c.events() <= target && c.events() > best.events() {
                best = c;
            }
        }
        if self.cur.events() <= target && self.cur.events() >= best.events() {
            return;
        }
        self.cur = best.clone();
        self.clear_flash();
        self.dirty = true;
    }

    fn clear_flash(&mut self) {
        for &f in &self.flashing {
            self.flash[f as usize] = 0;
        }
        self.flashing.clear();
    }

    fn set_narration(&mut self, s: String, announce: bool) {
        if s != self.narration {
            self.narration = s;
        }
        if announce {
            self.seq = self.seq.wrapping_add(1);
        }
    }

    fn batch_narration(&self) -> String {
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
            s.push_str(&format!(
                " The list is {} shorter and its old sublist must stay at {} % of it, so the boundary moved {} toward the head: bulk demotion (pink rings).",
                pages(b.evicted as u64),
                p.old_blocks_pct,
                pages(demoted)
            ));
        }
        if b.predicted > 0 {
            s.push_str(&format!(
                " As reads drain the free list, each insert after LRU_old lengthens the list; past the 40-page dead band the boundary walks back toward the tail, turning the newest inserts young: about {} of the next {}.",
                n(b.predicted),
                n(b.evicted)
            ));
        } else {
            s.push_str(" This refill is too small to move the boundary past its 40-page dead band: nothing will slide.");
        }
        s
    }

    fn drain_narration(&self, done: bool) -> Option<String> {
        let b = self.cur.batch.as_ref()?;
        let inst = &self.cur.sim.pool.instances[0];
        let taken = (b.free_before + b.evicted).saturating_sub(inst.free.len());
        let young = inst.lru.slides.total_young() - b.slid_young_after;
        let scan = self.cur.sim.pool.slid_young_by_tag(SCAN_SPACE as u8) - b.slid_scan_after;
        if done {
            let ms = (self.cur.sim.now() - b.at) as f64 / 1000.0;
            Some(format!(
                "{}: the free list is empty again. Reads took its {} frames in {:.0} ms, and the boundary turned {} young ({} of them scanned-table pages) without any reuse. Their clock stamp is 0, so the next touch of each moves it to the head (the quarter rule), and every later pass of the scan keeps it young.",
                t_label(self.cur.sim.now()),
                n(taken),
                ms,
                pages(young),
                n(scan)
            ))
        } else {
            Some(format!(
                "Draining: reads have taken {} of {} free frames, and the boundary has turned {} young (ringed). The scan touches each within milliseconds, and with a clock stamp of 0 it jumps to the head.",
                n(taken),
                n(b.free_before + b.evicted),
                pages(young)
            ))
        }
    }

    /// After a step in a continuous mode: narrate notable events.
    fn notice(&mut self, s: &Stepped) -> bool {
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
                    if free > 0 {
                        format!(
                            " Its first reads drain the {} free frames left from the warm-up, so the boundary slides at once.",
                            n(free)
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

    /// Plays `vdt` of virtual time (or until the deadline). Returns true at the end of the run
    /// or (if `stop_at_drain`) when a drain completes.
    fn play_for(&mut self, vdt: Micros, deadline: f64, stop_at_drain: bool) -> bool {
        self.playhead = self.playhead.max(self.cur.sim.now()) + vdt;
        let track = self.tracked();
        let mut k = 0u32;
        while self.cur.sim.now() < self.playhead {
            let s = self.fwd(track);
            if s.ev == Event::End {
                self.notice(&s);
                return true;
            }
            let drained = self.notice(&s) && !s.refill;
            if drained && stop_at_drain {
                return true;
            }
            k += 1;
            if k % 256 == 0 && perf_now() > deadline {
                self.playhead = self.cur.sim.now();
                break;
            }
        }
        false
    }

    /// Seeks in chunks. Returns Some(found) when done (false: the run ended first).
    fn seek_chunk(&mut self, target: Seek, deadline: f64) -> Option<bool> {
        loop {
            match target {
                Seek::Event(e) => {
                    if self.cur.events() > e {
                        self.restore_before(e);
                    }
                    let mut k = 0;
                    while self.cur.events() < e && k < CHUNK {
                        if self.fwd(false).ev == Event::End {
                            return Some(false);
                        }
                        k += 1;
                    }
                    if self.cur.events() >= e {
                        return Some(true);
                    }
                }
                Seek::Time(t) => {
                    let mut k = 0;
                    while self.cur.sim.now() < t && k < CHUNK {
                        if self.fwd(false).ev == Event::End {
                            return Some(false);
                        }
                        k += 1;
                    }
                    if self.cur.sim.now() >= t {
                        return Some(true);
                    }
                }
                Seek::Batch => {
                    if let Some(j) = self.batch_at {
                        // Found: replaying from the snapshot to just before the batch.
                        let mut k = 0;
                        while self.cur.events() + 1 < j && k < CHUNK {
                            self.fwd(false);
                            k += 1;
                        }
                        if self.cur.events() + 1 >= j {
                            self.clear_seek();
                            return Some(true);
                        }
                    } else {
                        // Look ahead from a snapshot (the batch is only known once it ran).
                        let stale = self
                            .seek_snap
                            .as_ref()
                            .is_none_or(|s| self.cur.events() >= s.events() + self.snap_every);
                        if stale {
                            self.seek_snap = Some(self.cur.clone());
                        }
                        for _ in 0..CHUNK {
                            let s = self.fwd(false);
                            if s.ev == Event::End {
                                self.clear_seek();
                                return Some(false);
                            }
                            if s.refill {
                                let j = self.cur.events();
                                match self.seek_snap.take() {
                                    Some(snap) => {
                                        self.cur = snap;
                                        self.batch_at = Some(j);
                                        self.clear_flash();
                                    }
                                    None => return Some(true),
                                }
                                break;
                            }
                        }
                    }
                }
            }
            self.busy = match target {
                Seek::Batch => format!(
                    "Running to the next LRU batch… t = {:.1} s",
                    self.cur.sim.t_s()
                ),
                Seek::Time(t) => format!(
                    "Recomputing up to t = {:.1} s… ({:.1} s)",
                    to_secs(t) - to_secs(EPOCH),
                    self.cur.sim.t_s()
                ),
                Seek::Event(e) => format!(
                    "Replaying to event {}… ({:.0} %)",
                    n(e),
                    100.0 * self.cur.events() as f64 / e.max(1) as f64
                ),
            };
            if perf_now() > deadline {
                return None;
            }
        }
    }

    fn clear_seek(&mut self) {
        self.seek_snap = None;
        self.batch_at = None;
    }

    fn start_seek(&mut self, target: Seek, then: Option<Watch>) {
        self.clear_seek();
        self.mode = Mode::Seeking(target);
        self.after_seek = then;
        self.at_batch = false;
        self.busy = match target {
            Seek::Batch => "Running to the next LRU batch…".into(),
            _ => "Working…".into(),
        };
    }

    fn seek_done(&mut self, target: Seek, found: bool, now_ms: f64) {
        self.busy.clear();
        let then = self.after_seek.take();
        match (target, found) {
            (Seek::Batch, true) => {
                self.at_batch = true;
                if then.is_some() {
                    self.mode = Mode::Watching(Watch::Hold {
                        until: now_ms + HOLD_MS,
                    });
                    let free = self.cur.sim.pool.free_len();
                    let t = format!(
                        "{}: the page cleaner is about to run its LRU batch. The free list holds {} of the {} it keeps (innodb_lru_scan_depth). Watch the tail of the list, by the “tail” label.",
                        t_label(self.cur.sim.now()),
                        n(free),
                        n(self.params.lru_scan_depth)
                    );
                    self.set_narration(t, true);
                } else {
                    self.mode = Mode::Paused;
                    let free = self.cur.sim.pool.free_len();
                    let t = format!(
                        "{}: paused just before the page cleaner's next LRU batch (free list: {} of {}). Step (→) runs it; Watch (W) shows the refill and the drain in slow motion.",
                        t_label(self.cur.sim.now()),
                        n(free),
                        n(self.params.lru_scan_depth)
                    );
                    self.set_narration(t, true);
                }
            }
            (Seek::Batch, false) => {
                self.mode = Mode::Paused;
                let t = format!(
                    "{}: no more LRU batches evict pages in this run: it is over.",
                    t_label(self.cur.sim.now())
                );
                self.set_narration(t, true);
            }
            (_, _) => {
                self.mode = Mode::Paused;
                let t = format!(
                    "{}: paused after event {}.",
                    t_label(self.cur.sim.now()),
                    n(self.cur.events())
                );
                self.set_narration(t, true);
            }
        }
        self.dirty = true;
    }

    /// Builds the cell bytes (LRU head → tail, then the free list).
    fn build_cells(&mut self, now_ms: f64) {
        let inst = &self.cur.sim.pool.instances[0];
        let total = self.cur.sim.pool.total_frames() as usize;
        self.cells.resize(total, 0);
        self.cell_frame.resize(total, 0);
        let hot = self.params.hot_pages;
        // The batch animation, if one is running: how far it got.
        let anim = match (self.mode, &self.cur.batch) {
            (Mode::Watching(Watch::Evict { start }), Some(b)) if EVICT_MS > 0.0 => {
                let p = ((now_ms - start) / EVICT_MS).clamp(0.0, 1.0);
                let p = p * p * (3.0 - 2.0 * p);
                let e = ((b.evicted as f64) * p).round() as usize;
                let m = if e == 0 {
                    0
                } else {
                    b.demoted_after.get(e - 1).copied().unwrap_or(0) as usize
                };
                Some((
                    b,
                    e.min(b.evicted_frames.len()),
                    m.min(b.demoted_frames.len()),
                ))
            }
            _ => None,
        };
        let kind_of = |f: u32| -> u8 {
            match inst.lru.tag(f) as u32 {
                HOT_SPACE => {
                    if inst.page(f).page_no < hot {
                        grid::K_HOT
                    } else {
                        grid::K_HOT_REST
                    }
                }
                SCAN_SPACE => grid::K_SCAN,
                _ => grid::K_FILLER,
            }
        };
        let mut i = 0usize;
        let mut boundary = None;
        let (mut hot_res, mut scan_young, mut my, mut mo) = (0u32, 0u32, 0u32, 0u32);
        macro_rules! put {
            ($f:expr, $b:expr) => {{
                if i < self.cells.len() {
                    self.cells[i] = $b;
                    self.cell_frame[i] = $f;
                }
                i += 1;
            }};
        }
        for f in inst.lru.iter() {
            let k = kind_of(f);
            let mut old = inst.lru.is_old(f);
            let mut mark = self.cur.mark[f as usize];
            if mark == grid::MARK_FREED || self.cur.mark_page[f as usize] != pack(inst.page(f)) {
                mark = 0;
            }
            if let Some((b, _, m)) = anim {
                if let Some(pos) = b.demoted_frames.iter().position(|&d| d == f) {
                    if pos >= m {
                        old = false;
                        mark = 0;
                    }
                }
            }
            if old && boundary.is_none() {
                boundary = Some(i as u32);
            }
            if k == grid::K_HOT {
                hot_res += 1;
            }
            if k == grid::K_SCAN && !old {
                scan_young += 1;
            }
            match mark {
                grid::MARK_YOUNG => my += 1,
                grid::MARK_OLD => mo += 1,
                _ => {}
            }
            let mut byte = k | if old { grid::OLD } else { 0 } | mark;
            if mark != 0 && self.flash[f as usize] > 0 {
                byte |= grid::FLASH;
            }
            put!(f, byte);
        }
        if let Some((b, e, _)) = anim {
            // Pages still on their way out, in their old tail order.
            for &f in b.evicted_frames[e..].iter().rev() {
                let k = kind_of(f);
                if boundary.is_none() {
                    boundary = Some(i as u32);
                }
                if k == grid::K_HOT {
                    hot_res += 1;
                }
                put!(f, k | grid::OLD | grid::LEAVING);
            }
        }
        let lru_end = i as u32;
        let leaving: &[u32] = match anim {
            Some((b, e, _)) => &b.evicted_frames[e..],
            None => &[],
        };
        for &f in inst.free.frames().iter().rev() {
            if leaving.contains(&f) {
                continue;
            }
            let mark = if self.cur.mark[f as usize] == grid::MARK_FREED {
                grid::MARK_FREED
            } else {
                0
            };
            put!(f, grid::K_FREE | mark);
        }
        self.boundary = boundary;
        self.lru_end = lru_end;
        self.counts = (hot_res, scan_young, my, mo);
    }

    fn draw_labels(&self, ctx: &CanvasRenderingContext2d, pal: &Palette) {
        let l = &self.layout;
        let k = l.dpr;
        let font = (11.0 * k).round();
        ctx.set_font(&format!("600 {font}px system-ui, sans-serif"));
        ctx.set_text_baseline("bottom");
        let pill = |text: &str, i: u32, fg: &str, bg: &str| {
            let (x, y) = l.origin(i.min(l.n.saturating_sub(1)));
            let w = ctx.measure_text(text).map(|m| m.width()).unwrap_or(40.0);
            let pad = 3.0 * k;
            let mut x = x as f64 - l.gap as f64;
            x = x.min(l.width as f64 - w - 2.0 * pad).max(0.0);
            let y = (y as f64 - 1.0 * k).max(font + 2.0 * k);
            ctx.set_fill_style_str(bg);
            ctx.fill_rect(x, y - font - 2.0 * k, w + 2.0 * pad, font + 2.0 * k);
            ctx.set_fill_style_str(fg);
            let _ = ctx.fill_text(text, x + pad, y);
        };
        let (fg, bg) = (pal.text_css(), pal.bg_css());
        if self.cur.sim.pool.lru_len() > 0 && self.boundary != Some(0) {
            pill("head: young end", 0, &fg, &bg);
        }
        if let Some(b) = self.boundary {
            if b > 0 {
                pill("LRU_old ▾", b, &bg, &fg);
            }
        }
        if self.lru_end < l.n && self.lru_end > 0 {
            pill("tail | free list", self.lru_end, &fg, &bg);
        }
    }
}

#[wasm_bindgen]
impl Explorer {
    /// A run with these parameters (a `Params` object), paused at the start of the warm-up.
    #[wasm_bindgen(constructor)]
    pub fn new(params: JsValue) -> Result<Explorer, JsValue> {
        let params: Params = serde_wasm_bindgen::from_value(params)
            .map_err(|e| JsValue::from_str(&format!("bad parameters: {e}")))?;
        let (params, notes) = super::query::page_limits(&params);
        if let Some(n) = notes.first() {
            return Err(JsValue::from_str(n));
        }
        let cur = Cursor::new(&params).map_err(|e| JsValue::from_str(&e))?;
        let size = cur.approx_bytes().max(1);
        let max_anchors = ((SNAPSHOT_BUDGET * 3 / 4) / size).clamp(1, 48) as usize;
        let max_recent = ((SNAPSHOT_BUDGET / 4) / size).clamp(0, 32) as usize;
        let frames = cur.sim.pool.total_frames() as usize;
        let mut ex = Explorer {
            base: cur.clone(),
            cur,
            anchors: Vec::new(),
            anchor_every: 50_000,
            max_anchors,
            recent: VecDeque::new(),
            max_recent,
            mode: Mode::Paused,
            after_seek: None,
            seek_snap: None,
            snap_every: (size / 32).clamp(16_384, 2_000_000),
            batch_at: None,
            speed: 4,
            playhead: 0,
            last_ms: None,
            reduced_motion: false,
            at_batch: false,
            narration: String::new(),
            seq: 0,
            busy: String::new(),
            flash: vec![0; frames],
            flashing: Vec::new(),
            fresh: Vec::new(),
            cells: vec![0; frames],
            cell_frame: vec![0; frames],
            counts: (0, 0, 0, 0),
            boundary: None,
            lru_end: 0,
            px: Vec::new(),
            layout: Layout::new(800, 400, frames as u32, 1.0),
            dark: false,
            dirty: true,
            run: None,
            params,
        };
        let t = format!(
            "0 s: the warm-up begins. The tables were just loaded, so their pages sit young at the head (the hot table) and below it (the scanned table). Lookups read the hot set; the scan starts at {} s.",
            ex.params.warmup_s
        );
        let t = if ex.params.start == crate::scenario::Start::Cold {
            format!(
                "0 s: the warm-up begins, after a restart: the pool was filled by reading a filler table, so the scanned table has no page in it yet. Lookups read the hot set; the scan starts at {} s.",
                ex.params.warmup_s
            )
        } else {
            t
        };
        ex.set_narration(t, false);
        ex.build_cells(0.0);
        Ok(ex)
    }

    /// Lays the grid out for a canvas `width` device pixels wide and at most `max_height`
    /// high; returns the height to give the canvas.
    pub fn resize(&mut self, width: u32, max_height: u32, dpr: f64) -> u32 {
        self.layout = Layout::new(width, max_height, self.cur.sim.pool.total_frames(), dpr);
        self.dirty = true;
        self.layout.height
    }

    /// Uses the dark palette (prefers-color-scheme: dark).
    pub fn set_dark(&mut self, dark: bool) {
        if self.dark != dark {
            self.dark = dark;
            self.dirty = true;
        }
    }

    /// Turns highlights and the eviction animation off (prefers-reduced-motion).
    pub fn set_reduced_motion(&mut self, on: bool) {
        self.reduced_motion = on;
        if on {
            self.clear_flash();
        }
    }

    /// Advances the current mode by one animation frame at wall time `now_ms`; returns
    /// `F_DIRTY | F_STATUS` bits (1: redraw the grid, 2: update the status).
    pub fn frame(&mut self, now_ms: f64) -> u32 {
        let dt = self
            .last_ms
            .map(|l| (now_ms - l).clamp(0.0, 100.0))
            .unwrap_or(0.0);
        self.last_ms = Some(now_ms);
        let deadline = perf_now() + BUDGET_MS;
        let mut flags = 0;
        match self.mode {
            Mode::Paused => {}
            Mode::Playing => {
                let vdt = self.speed_us(dt);
                if self.play_for(vdt, deadline, false) {
                    self.mode = Mode::Paused;
                }
                self.at_batch = false;
                flags |= F_STATUS;
            }
            Mode::Seeking(target) => {
                if let Some(found) = self.seek_chunk(target, deadline) {
                    self.seek_done(target, found, now_ms);
                }
                flags |= F_STATUS;
            }
            Mode::Watching(w) => {
                flags |= F_STATUS;
                match w {
                    Watch::Seeking => {
                        if let Some(found) = self.seek_chunk(Seek::Batch, deadline) {
                            self.after_seek = Some(Watch::Seeking);
                            self.seek_done(Seek::Batch, found, now_ms);
                        }
                    }
                    Watch::Hold { until } => {
                        if now_ms >= until {
                            self.remember();
                            let s = self.fwd(self.tracked());
                            self.at_batch = false;
                            if s.refill {
                                let t = format!(
                                    "{}: the LRU batch evicts {} from the tail: their frames go to the free list.",
                                    t_label(self.cur.sim.now()),
                                    pages(self.cur.batch.as_ref().map(|b| b.evicted).unwrap_or(0) as u64)
                                );
                                self.set_narration(t, false);
                                self.mode = Mode::Watching(Watch::Evict { start: now_ms });
                                if self.reduced_motion {
                                    self.mode = Mode::Watching(Watch::Drain);
                                    let t = self.batch_narration();
                                    self.set_narration(t, true);
                                }
                            } else {
                                self.notice(&s);
                                self.mode = Mode::Paused;
                            }
                        }
                    }
                    Watch::Evict { start } => {
                        self.dirty = true;
                        if now_ms - start >= EVICT_MS {
                            self.mode = Mode::Watching(Watch::Drain);
                            let t = self.batch_narration();
                            self.set_narration(t, true);
                            self.speed = WATCH_SPEED;
                        }
                    }
                    Watch::Drain => {
                        let since = self
                            .cur
                            .batch
                            .as_ref()
                            .map(|b| self.cur.sim.now().saturating_sub(b.at))
                            .unwrap_or(0);
                        let stop = if self.cur.sim.scan_running() {
                            self.play_for(self.speed_us(dt).max(1), deadline, true)
                        } else {
                            // Nothing to watch while the scan pauses: skip ahead.
                            self.play_for(
                                self.speed_us(dt).max((dt * 10_000.0) as Micros),
                                deadline,
                                true,
                            )
                        };
                        if stop {
                            self.mode = Mode::Paused;
                        } else if since > 5 * SEC {
                            self.mode = Mode::Paused;
                            let t = format!(
                                "{}: five seconds after the batch the free list is still not drained (few reads): stopping here.",
                                t_label(self.cur.sim.now())
                            );
                            self.set_narration(t, true);
                        } else if let Some(t) = self.drain_narration(false) {
                            self.set_narration(t, false);
                        }
                    }
                }
            }
        }
        if !self.flashing.is_empty() {
            let flash = &mut self.flash;
            self.flashing.retain(|&f| {
                let v = &mut flash[f as usize];
                *v = v.saturating_sub(1);
                *v > 0
            });
            self.dirty = true;
        }
        if self.dirty {
            flags |= F_DIRTY | F_STATUS;
        }
        flags
    }

    /// Draws the grid on `ctx` (its canvas sized by `resize`).
    pub fn draw(&mut self, ctx: &CanvasRenderingContext2d) -> Result<(), JsValue> {
        let now = self.last_ms.unwrap_or(0.0);
        self.build_cells(now);
        let pal = Palette::new(self.dark);
        grid::render(&mut self.px, &self.layout, &self.cells, &pal);
        let thick = ((2.0 * self.layout.dpr).round() as u32).max(2);
        if self.lru_end < self.layout.n {
            grid::staircase(
                &mut self.px,
                &self.layout,
                self.lru_end,
                thick.div_ceil(2).max(1),
                grid::tail_colour(&pal),
            );
        }
        if let Some(b) = self.boundary {
            grid::staircase(
                &mut self.px,
                &self.layout,
                b,
                thick,
                grid::boundary_colour(&pal),
            );
        }
        let img = ImageData::new_with_u8_clamped_array_and_sh(
            wasm_bindgen::Clamped(grid::as_bytes(&self.px)),
            self.layout.width,
            self.layout.height,
        )?;
        ctx.put_image_data(&img, 0.0, 0.0)?;
        self.draw_labels(ctx, &pal);
        self.dirty = false;
        Ok(())
    }

    /// Starts playing at the current speed.
    pub fn play(&mut self) {
        if self.cur.sim.finished() {
            return;
        }
        self.clear_seek();
        self.mode = Mode::Playing;
        self.playhead = self.cur.sim.now();
        self.busy.clear();
    }

    /// Pauses whatever is running.
    pub fn pause(&mut self) {
        if self.mode != Mode::Paused {
            let draining = self.mode == Mode::Watching(Watch::Drain)
                && self.cur.batch.as_ref().is_some_and(|b| !b.drain_done);
            self.mode = Mode::Paused;
            self.busy.clear();
            self.after_seek = None;
            self.clear_seek();
            // Keep the last narration (it is time-stamped), unless a drain is half-way.
            if let Some(d) = self.drain_narration(false).filter(|_| draining) {
                let t = format!("{}: paused. {d}", t_label(self.cur.sim.now()));
                self.set_narration(t, true);
            }
            self.dirty = true;
        }
    }

    /// Processes one event and describes it.
    pub fn step(&mut self) {
        self.mode = Mode::Paused;
        self.busy.clear();
        self.clear_seek();
        if self.cur.sim.finished() {
            return;
        }
        self.remember();
        let before = Counters::of(&self.cur.sim);
        let s = self.fwd(self.tracked());
        self.at_batch = false;
        let after = Counters::of(&self.cur.sim);
        let t = if s.refill {
            self.batch_narration()
        } else if let Event::LruBatch(_) = s.ev {
            format!(
                "{}: page-cleaner round: the LRU batch found the free list already at {} (innodb_lru_scan_depth), so it evicted nothing.",
                t_label(self.cur.sim.now()),
                n(after.free)
            )
        } else {
            let mut t = narrate::describe(&s.ev, &before, &after, &self.cur.sim);
            if let Some(b) = &self.cur.batch {
                if !b.drain_done && after.free == 0 && before.free > 0 {
                    if let Some(d) = self.drain_narration(true) {
                        t.push(' ');
                        t.push_str(&d);
                    }
                    if let Some(b) = self.cur.batch.as_mut() {
                        b.drain_done = true;
                    }
                }
            }
            t
        };
        self.set_narration(t, true);
    }

    /// Goes back one event (from a saved position, replaying if needed).
    pub fn step_back(&mut self) {
        let ev = self.cur.events();
        if ev == 0 {
            return;
        }
        self.clear_seek();
        self.restore_before(ev - 1);
        if self.cur.events() == ev - 1 {
            self.mode = Mode::Paused;
            let t = format!(
                "{}: stepped back to event {}.",
                t_label(self.cur.sim.now()),
                n(ev - 1)
            );
            self.set_narration(t, true);
        } else {
            self.start_seek(Seek::Event(ev - 1), None);
        }
        self.at_batch = false;
        self.dirty = true;
    }

    /// Runs at full speed to just before the next LRU batch that evicts pages, then pauses.
    pub fn next_batch(&mut self) {
        if self.at_batch {
            self.fwd(self.tracked());
            self.at_batch = false;
        }
        self.start_seek(Seek::Batch, None);
    }

    /// Runs to the next LRU batch, then shows its evictions and the drain that follows in
    /// slow motion, and pauses when the free list is empty again.
    pub fn watch(&mut self) {
        self.clear_seek();
        if self.at_batch {
            self.mode = Mode::Watching(Watch::Hold { until: 0.0 });
        } else {
            self.mode = Mode::Watching(Watch::Seeking);
            self.busy = "Running to the next LRU batch…".into();
        }
        self.speed = WATCH_SPEED;
    }

    /// Opens paused after `n` events (a link's `ev=`), seeking in chunks.
    pub fn seek_event(&mut self, n: f64) {
        let n = if n.is_finite() && n > 0.0 {
            n as u64
        } else {
            0
        };
        self.start_seek(Seek::Event(n), None);
    }

    /// Seeks to `t` seconds since the warm-up started (after a parameter change).
    pub fn seek_time(&mut self, t_s: f64) {
        if !(t_s.is_finite() && t_s > 0.0) {
            return;
        }
        let t = EPOCH + (t_s * SEC as f64) as Micros;
        self.start_seek(Seek::Time(t), None);
    }

    /// Back to the start of the warm-up.
    pub fn reset(&mut self) {
        self.cur = self.base.clone();
        self.clear_seek();
        self.mode = Mode::Paused;
        self.busy.clear();
        self.at_batch = false;
        self.clear_flash();
        let t = "0 s: back at the start of the warm-up.".to_string();
        self.set_narration(t, true);
        self.dirty = true;
    }

    /// Faster (+1) or slower (−1) by one speed step; returns the speed's label.
    pub fn change_speed(&mut self, delta: i32) -> String {
        let i = (self.speed as i32 + delta).clamp(0, SPEEDS.len() as i32 - 1);
        self.speed = i as usize;
        SPEED_LABELS[self.speed].to_string()
    }

    /// Sets the speed by index (0 = 1/1000×, 6 = 100×).
    pub fn set_speed(&mut self, i: u32) {
        self.speed = (i as usize).min(SPEEDS.len() - 1);
    }

    /// The speed labels, slowest first.
    pub fn speed_labels() -> Vec<String> {
        SPEED_LABELS.iter().map(|s| s.to_string()).collect()
    }

    /// Counters, narration and mode, for the page.
    pub fn status(&self) -> Result<JsValue, JsValue> {
        let c = Counters::of(&self.cur.sim);
        let sim = &self.cur.sim;
        let p = &self.params;
        let t_s = sim.t_s();
        let (mut free, mut lru, mut old) = (c.free, c.lru, c.old);
        if let (Mode::Watching(Watch::Evict { .. }), Some(b)) = (self.mode, &self.cur.batch) {
            // During the animation, show the numbers of the frame drawn.
            let shown_lru = self.lru_end;
            let leaving = shown_lru.saturating_sub(lru);
            free = free.saturating_sub(leaving);
            let shown_old = self
                .cells
                .iter()
                .take(shown_lru as usize)
                .filter(|&&b| b & grid::OLD != 0)
                .count() as u32;
            let _ = b;
            lru = shown_lru;
            old = shown_old;
        }
        let st = Status {
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
            busy: self.busy.clone(),
            speed: SPEED_LABELS[self.speed],
            speed_index: self.speed as u32,
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
            hot_resident: self.counts.0,
            hot_pages: p.hot_pages,
            scan_young: self.counts.1,
            marked_young: self.counts.2,
            marked_old: self.counts.3,
            refills: self.cur.refills,
            at_batch: self.at_batch,
            narration: self.narration.clone(),
            seq: self.seq,
            can_back: self.cur.events() > 0,
            ended: sim.finished(),
        };
        serde_wasm_bindgen::to_value(&st).map_err(|e| JsValue::from_str(&e.to_string()))
    }

    /// Events processed so far.
    pub fn events(&self) -> f64 {
        self.cur.events() as f64
    }

    /// Seconds since the warm-up started.
    pub fn t_s(&self) -> f64 {
        self.cur.sim.t_s()
    }

    /// Address of the cell bytes in WASM memory (see `grid`: table, old bit, marks), one per
    /// frame in LRU order then the free list; read them as a `Uint8Array` view.
    pub fn cells_ptr(&self) -> *const u8 {
        self.cells.as_ptr()
    }

    /// Number of cell bytes.
    pub fn cells_len(&self) -> u32 {
        self.cells.len() as u32
    }

    /// A sentence about the cell under device pixel (x, y) of the grid, or "" outside it.
    pub fn describe_cell(&self, x: f64, y: f64) -> String {
        let Some(i) = self.layout.cell_at(x, y) else {
            return String::new();
        };
        let i = i as usize;
        let Some(&b) = self.cells.get(i) else {
            return String::new();
        };
        let f = self.cell_frame[i];
        let inst = &self.cur.sim.pool.instances[0];
        if b & 7 == grid::K_FREE {
            return format!(
                "Free frame (position {} of {} free){}",
                n(i as u32 + 1 - self.lru_end),
                n(inst.free.len()),
                if b & grid::MARK_MASK == grid::MARK_FREED {
                    ": freed by the last LRU batch"
                } else {
                    ""
                }
            );
        }
        let page = inst.page(f);
        let mut s = format!(
            "LRU position {} of {}: {} {}, {}",
            n(i as u32 + 1),
            n(inst.lru.len()),
            narrate::table_of(page, self.params.hot_pages),
            n(page.page_no),
            if b & grid::OLD != 0 { "old" } else { "young" }
        );
        let acc = inst.access_time(f);
        if b & grid::LEAVING != 0 {
            s.push_str(", being evicted");
        } else if acc == 0 {
            s.push_str(", never accessed (read ahead)");
        } else {
            let ago = to_secs(self.cur.sim.now().saturating_sub(acc));
            s.push_str(&format!(", first accessed {ago:.3} s ago"));
        }
        if b & grid::OLD == 0 {
            let clock = inst.lru.freed_page_clock();
            let since = clock.saturating_sub(inst.lru.stamp(f) as u64);
            s.push_str(&format!(
                ", {} evictions since it was last put at the head",
                n(since)
            ));
        }
        match b & grid::MARK_MASK {
            grid::MARK_YOUNG => {
                s.push_str("; turned young by the boundary since the last LRU batch")
            }
            grid::MARK_OLD => s.push_str("; turned old by the boundary since the last LRU batch"),
            _ => {}
        }
        s
    }

    /// Hands over the full run computed in a worker (for the residency plot and "kept").
    pub fn set_run(&mut self, run: JsValue) -> Result<(), JsValue> {
        let r: RunData = serde_wasm_bindgen::from_value(run)
            .map_err(|e| JsValue::from_str(&format!("bad run data: {e}")))?;
        self.run = Some(r);
        Ok(())
    }

    /// Draws the residency plot with a cursor at the current time: the full run if the worker
    /// has sent it, else the samples so far.
    pub fn draw_residency(
        &self,
        canvas: &HtmlCanvasElement,
        dpr: f64,
        dark: bool,
    ) -> Result<(), JsValue> {
        let owned;
        let samples = match &self.run {
            Some(r) => {
                owned = charts::samples_of(&r.points);
                &owned[..]
            }
            None => self.cur.sim.samples(),
        };
        charts::residency(
            canvas,
            dpr,
            samples,
            &self.params,
            Some(self.cur.sim.t_s()),
            dark,
        )
        .map_err(|e| JsValue::from_str(&e))
    }
}
