//! The frame-by-frame view of one run: the simulation under the user's control (play, step,
//! step back, run to the next LRU batch, watch a refill and drain in slow motion), the marks
//! of pages the boundary passed, the narration, and the pool grid.
//!
//! All timing is budgeted per animation frame, so nothing blocks the page for long: seeking
//! runs in chunks across frames. The browser supplies the wall clock and draws what this
//! prepares (`src/web/explorer.rs`); everything else runs, and is tested, natively.

mod cells;
mod clock;
mod cursor;
mod drain;
mod narr;
mod narration;
mod playback;
mod scout;
mod scrub;
mod seek;
mod status;
mod steps;
pub mod strip;
#[cfg(test)]
mod tests;
mod timeline;
mod view;

pub use cells::Label;
pub use cursor::BatchNumbers;
pub use scrub::DrainPos;
pub use status::Status;
pub use strip::{StripLayout, StripMeta, Trail, STRIDE};

use super::charts::{self, Curve};
use super::grid::{self, Layout, Palette};
use super::narrate::{self, n, pages, t_label, Counters};
use super::query;
use cursor::Cursor;
use midpoint_core::clock::{Micros, SEC};
use midpoint_core::metrics::Sample;
use midpoint_core::scenario::Params;
use midpoint_core::sim::{Event, EPOCH, SCAN_SPACE};
use midpoint_lab::chart::Published;
use midpoint_lab::experiments::seed000;
use midpoint_lab::runs::{self, RunData};
use serde::Serialize;
use std::borrow::Cow;

/// Wall-clock budget of one animation frame's simulation work, ms.
const BUDGET_MS: f64 = 9.0;
/// Events of one quiet run of the core between two looks at the clock while seeking.
const QUIET_CHUNK: u64 = 1 << 20;
/// Wall-clock budget of one animation frame's seeking, ms: a seek runs at full speed, and most
/// are over within one frame.
const SEEK_BUDGET_MS: f64 = 200.0;
/// Speeds: virtual seconds per wall second.
const SPEEDS: [f64; 7] = [0.001, 0.01, 0.1, 1.0, 10.0, 30.0, 100.0];
/// Labels of the speeds.
const SPEED_LABELS: [&str; 7] = ["1/1000×", "1/100×", "1/10×", "1×", "10×", "30×", "100×"];
/// The speed of a watched drain (index into SPEEDS).
const WATCH_SPEED: usize = 1;
/// Wall time of the eviction animation, ms.
const EVICT_MS: f64 = 1600.0;
/// A watched drain's pace: its first DRAIN_FIRST_READS reads and the boundary's first
/// DRAIN_SLOW_READS steps one read at a time, DRAIN_BEAT_MS apart; the dead band between them
/// at DRAIN_BAND frames per wall second; then the fast part, from DRAIN_FAST frames a second
/// growing by (1 + s)² over s seconds, up to DRAIN_FAST_MAX.
const DRAIN_BEAT_MS: f64 = 700.0;
const DRAIN_FIRST_READS: u32 = 2;
const DRAIN_SLOW_READS: u32 = 2;
const DRAIN_BAND: f64 = 45.0;
const DRAIN_FAST: f64 = 60.0;
const DRAIN_FAST_MAX: f64 = 900.0;
/// At the slowest speed, the least wall time between two reads of a watched drain, ms (each
/// also waits for the last one's pages to come to rest).
const DRAIN_SLOWEST_GAP_MS: f64 = 250.0;
/// Wall time of the pause before a watched batch, ms.
const HOLD_MS: f64 = 1100.0;
/// A follower this many events behind or fewer replays them with highlights and narration.
const FOLLOW_NEAR: u64 = 20_000;
/// Bytes of snapshots the full lab keeps for stepping back.
const SNAPSHOT_BUDGET: u64 = 48 << 20;
/// ... and each small figure of the article or an embed (an article holds several, and a phone
/// has little memory to spare).
const FIGURE_SNAPSHOT_BUDGET: u64 = 8 << 20;

/// The bytes of snapshots a widget showing `view` keeps for stepping back.
pub fn snapshot_budget(view: &str) -> u64 {
    if view == "lab" {
        SNAPSHOT_BUDGET
    } else {
        FIGURE_SNAPSHOT_BUDGET
    }
}

/// `frame()` result: the grid changed and should be drawn.
pub const F_DIRTY: u32 = 1;
/// `frame()` result: the status (counters, narration, mode) changed.
pub const F_STATUS: u32 = 2;

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

/// A reader's move that arrived while the run was on its way to a moment (a seek): it is kept,
/// the latest one, and acts once the seek has landed, so that no input leaves the run half-way.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Input {
    Play,
    Step,
    Back,
    Batch,
    Boundary,
    DrainEnd,
    Watch,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Mode {
    Paused,
    Playing,
    Seeking(Seek),
    Watching(Watch),
}

/// The code panel's state.
#[derive(Clone, Debug, Serialize)]
pub struct CodeState {
    pub at: Option<super::code::CodeAt>,
    pub vars: Vec<super::code::Var>,
}

/// One run of the simulator under the page's control: the run (the position on screen and
/// the timeline of saved positions), what drives it (the mode, a seek's state, the playback
/// clock, a watched drain, the scout) and what is drawn of it (the grid, the close-up, the
/// narration, the residency curve).
pub struct Explorer {
    params: Params,
    /// The position on screen.
    cur: Cursor,
    /// The saved positions (the start, anchors over the run, recent steps).
    tl: timeline::Timeline,
    mode: Mode,
    /// A seek under way, and the last seek to a time.
    sk: seek::SeekState,
    /// The speed, the playhead and the wall clock of the last frame.
    pc: clock::PlayClock,
    /// Paused just before an LRU batch (a seek to it landed there).
    at_batch: bool,
    narr: narr::Narration,
    /// The pool grid as drawn.
    view: view::CellsView,
    /// The full run from the worker, for the residency plot.
    curve: Curve,
    /// The seed's measurements of a run with these parameters, for the residency plot.
    published: Vec<Published>,
    /// The boundary close-up, and the frame selected in it or in the grid.
    strip: strip::Strip,
    selected: Option<u32>,
    /// A watched or scrubbed drain.
    drain: drain::Drain,
    /// A second cursor that runs ahead in spare frame time and leaves anchors over the whole
    /// run, so that scrubbing to any moment is a restore and a short replay (see `scout`).
    scout: scout::Scout,
    /// Wall-clock milliseconds (`performance.now()` in the browser).
    clock: fn() -> f64,
}

impl Explorer {
    /// A run with these parameters, paused at the start of the warm-up; `clock` reads the wall
    /// clock in milliseconds (it bounds each frame's work). Parameters outside the page's limits
    /// are refused with the page's message.
    pub fn new(params: &Params, clock: fn() -> f64) -> Result<Explorer, String> {
        let (params, notes) = query::page_limits(params);
        if let Some(n) = notes.first() {
            return Err(n.clone());
        }
        // A pool of several instances, or past the page's size of one, runs as a share of it
        // (the page says so where it takes the parameters).
        let params = midpoint_lab::url::page_share(&params).0;
        let cur = Cursor::new(&params)?;
        let frames = cur.sim.pool.total_frames() as usize;
        let mut ex = Explorer {
            published: seed000::residency_marks(&params),
            tl: timeline::Timeline::new(cur.clone(), SNAPSHOT_BUDGET),
            cur,
            mode: Mode::Paused,
            sk: seek::SeekState::default(),
            pc: clock::PlayClock::default(),
            at_batch: false,
            narr: narr::Narration::default(),
            view: view::CellsView::new(frames),
            curve: Curve::default(),
            strip: strip::Strip::new(frames),
            selected: None,
            drain: drain::Drain::default(),
            scout: scout::Scout::default(),
            clock,
            params,
        };
        let t = ex.opening();
        ex.set_narration(t, false);
        ex.build_cells(0.0);
        Ok(ex)
    }

    fn tracked(&self) -> bool {
        self.pc.tracked()
    }

    fn speed_us(&self, wall_ms: f64) -> Micros {
        self.pc.speed_us(wall_ms)
    }

    /// Lays the grid out for a canvas `width` device pixels wide and at most `max_height`
    /// high; returns the height to give the canvas.
    pub fn resize(&mut self, width: u32, max_height: u32, dpr: f64) -> u32 {
        let frames = self.cur.sim.pool.total_frames();
        self.view.resize(width, max_height, frames, dpr)
    }

    /// Uses the dark palette (prefers-color-scheme: dark).
    pub fn set_dark(&mut self, dark: bool) {
        self.view.set_dark(dark);
    }

    /// Turns highlights and the eviction animation off (prefers-reduced-motion).
    pub fn set_reduced_motion(&mut self, on: bool) {
        self.pc.reduced_motion = on;
        if on {
            self.clear_flash();
        }
    }

    fn clear_flash(&mut self) {
        self.view.clear_flash();
    }

    /// Whether it is on its way to a moment (a seek, or Watch running to its batch).
    fn seeking(&self) -> bool {
        matches!(self.mode, Mode::Seeking(_) | Mode::Watching(Watch::Seeking))
    }

    /// While seeking, keeps `input` for when the seek lands (replacing any kept before) and
    /// returns true; otherwise false, and the caller acts now.
    fn defer(&mut self, input: Input) -> bool {
        if !self.seeking() {
            return false;
        }
        self.sk.keep(input);
        true
    }

    /// The move kept during a seek, now that it has landed.
    pub(super) fn run_queued(&mut self) {
        match self.sk.queued.take() {
            Some(Input::Play) => self.play(),
            Some(Input::Step) => self.step(),
            Some(Input::Back) => self.step_back(),
            Some(Input::Batch) => self.next_batch(),
            Some(Input::Boundary) => self.step_boundary(),
            Some(Input::DrainEnd) => self.step_drain_end(),
            Some(Input::Watch) => self.watch(),
            None => {}
        }
    }

    /// Starts playing at the current speed (once there, while seeking).
    pub fn play(&mut self) {
        if self.defer(Input::Play) {
            return;
        }
        if self.cur.sim.finished() {
            return;
        }
        self.clear_seek();
        self.mode = Mode::Playing;
        self.pc.from_rest = true;
        self.pc.achieved = 0.0;
        self.pc.playhead = self.cur.sim.now();
        self.narr.busy.clear();
    }

    /// Pauses whatever is running. While seeking, the seek goes on to its moment and stays
    /// there, paused: the moves kept for it (and a Watch's slow motion) are dropped.
    pub fn pause(&mut self) {
        if self.seeking() {
            self.sk.queued = None;
            self.sk.after_seek = None;
            if self.mode == Mode::Watching(Watch::Seeking) {
                self.mode = Mode::Seeking(Seek::Batch);
            }
            return;
        }
        if self.mode != Mode::Paused {
            let draining = self.mode == Mode::Watching(Watch::Drain)
                && self.cur.batch.as_ref().is_some_and(|b| !b.drain_done);
            self.mode = Mode::Paused;
            self.narr.busy.clear();
            self.sk.after_seek = None;
            self.clear_seek();
            // Paused mid-animation: every cell is drawn where it is, not half-way (a watched
            // drain at speed moves many pages at once).
            self.strip.settle();
            // Keep the last narration (it is time-stamped), unless a drain is half-way.
            if let Some(d) = self.drain_narration(false).filter(|_| draining) {
                let t = format!("{d} Paused.");
                self.set_narration(t, true);
            }
            self.view.dirty = true;
        }
    }

    /// Processes one event and describes it (once there, while seeking).
    pub fn step(&mut self) {
        if self.defer(Input::Step) {
            return;
        }
        self.mode = Mode::Paused;
        self.narr.busy.clear();
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

    /// Goes back one event (from a saved position, replaying if needed; once there, while
    /// seeking).
    pub fn step_back(&mut self) {
        if self.defer(Input::Back) {
            return;
        }
        let ev = self.cur.events();
        if ev == 0 {
            return;
        }
        self.clear_seek();
        self.restore_before(ev - 1);
        // Replay to the event before at once (at full speed, within a seek's budget): a replay
        // spread over frames would show the run jumping back to the saved position and running
        // forward again, the clock far earlier than the counters a moment before.
        self.fast_to(Seek::Event(ev - 1), (self.clock)() + SEEK_BUDGET_MS);
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
        self.view.dirty = true;
    }

    /// Runs at full speed to just before the next LRU batch that evicts pages, then pauses
    /// (from where a seek under way lands).
    pub fn next_batch(&mut self) {
        if self.defer(Input::Batch) {
            return;
        }
        if self.at_batch {
            self.fwd(self.tracked());
            self.at_batch = false;
        }
        self.start_seek(Seek::Batch, None);
    }

    /// Runs to the next LRU batch, then shows its evictions and the drain that follows in
    /// slow motion, and pauses when the free list is empty again (from where a seek under way
    /// lands).
    pub fn watch(&mut self) {
        if self.defer(Input::Watch) {
            return;
        }
        self.clear_seek();
        if self.after_batch() && self.mode == Mode::Paused {
            // Just after a batch (a link's at=batch): its evictions replayed, then the drain.
            let t = format!(
                "{}: the LRU batch evicts {} from the tail: their frames go to the free list.",
                t_label(self.cur.sim.now()),
                pages(self.cur.batch.as_ref().map(|b| b.evicted).unwrap_or(0) as u64)
            );
            self.set_narration(t, false);
            self.mode = Mode::Watching(Watch::Evict {
                start: self.pc.last_ms.unwrap_or(0.0),
            });
        } else if self.at_batch {
            self.mode = Mode::Watching(Watch::Hold { until: 0.0 });
        } else {
            self.mode = Mode::Watching(Watch::Seeking);
            self.narr.busy = "Running to the next LRU batch…".into();
        }
        // The slowest speed stays: the drain then goes one read at a time.
        if self.pc.speed != 0 {
            self.pc.speed = WATCH_SPEED;
        }
    }

    /// Opens paused after `n` events (a link's `ev=`), seeking in chunks.
    pub fn seek_event(&mut self, n: f64) {
        let n = if n.is_finite() && n > 0.0 {
            n as u64
        } else {
            0
        };
        self.sk.queued = None;
        self.start_seek(Seek::Event(n), None);
    }

    /// Seeks to `t` seconds since the warm-up started (a click on the residency plot, a
    /// parameter change): from the latest saved position at or before `t` (the anchors the
    /// scout leaves over the run), then a short replay; from the current position if none is
    /// closer.
    pub fn seek_time(&mut self, t_s: f64) {
        if !(t_s.is_finite() && t_s > 0.0) {
            return;
        }
        let t = EPOCH + (t_s * SEC as f64) as Micros;
        let mut best: Option<&cursor::Cursor> = None;
        for c in std::iter::once(&self.tl.base)
            .chain(self.tl.recent.iter())
            .chain(self.tl.anchors.iter())
        {
            if c.sim.now() <= t && best.is_none_or(|b| c.events() > b.events()) {
                best = Some(c);
            }
        }
        let here = self.cur.sim.now() <= t;
        match best {
            Some(b) if !here || b.events() > self.cur.events() => {
                self.cur = b.clone();
                self.clear_flash();
                self.strip.reset_motion();
                self.view.dirty = true;
                self.sk.kind = "snapshot";
            }
            _ => self.sk.kind = "forward",
        }
        self.sk.from = self.cur.events();
        self.sk.queued = None;
        self.start_seek(Seek::Time(t), None);
    }

    /// Opens at a figure's moment (a link's `at=`), at once: `scan` the scan's start; `batch`
    /// just after the first LRU batch that refills the free list from there (the free list
    /// full, the boundary moved); `watch` paused just before it, then watching it; anything
    /// else just before it.
    pub fn open_at(&mut self, at: &str) {
        self.seek_time(self.params.warmup_s as f64 + 0.001);
        self.finish_seek();
        if at == "scan" {
            return;
        }
        self.next_batch();
        self.finish_seek();
        match at {
            "batch" if self.at_batch => self.step(),
            "watch" => self.watch(),
            _ => {}
        }
    }

    /// Runs a seek under way to its end now.
    fn finish_seek(&mut self) {
        while let Mode::Seeking(target) = self.mode {
            if let Some(found) = self.seek_chunk(target, f64::INFINITY) {
                let now = self.pc.last_ms.unwrap_or(0.0);
                self.seek_done(target, found, now);
            }
        }
    }

    /// Back to the start of the warm-up.
    pub fn reset(&mut self) {
        self.cur = self.tl.base.clone();
        self.clear_seek();
        self.sk.queued = None;
        self.sk.after_seek = None;
        self.mode = Mode::Paused;
        self.narr.busy.clear();
        self.at_batch = false;
        self.clear_flash();
        let t = "0 s: back at the start of the warm-up.".to_string();
        self.set_narration(t, true);
        self.view.dirty = true;
    }

    /// Faster (+1) or slower (−1) by one speed step; returns the speed's label.
    pub fn change_speed(&mut self, delta: i32) -> String {
        self.pc.change_speed(delta).to_string()
    }

    /// Sets the speed by index (0 = 1/1000×, 6 = 100×).
    pub fn set_speed(&mut self, i: u32) {
        self.pc.set_speed(i);
    }

    /// The speed labels, slowest first.
    pub fn speed_labels() -> Vec<String> {
        SPEED_LABELS.iter().map(|s| s.to_string()).collect()
    }

    /// Whether the last event was an LRU batch that refilled the free list.
    pub fn after_batch(&self) -> bool {
        self.cur
            .batch
            .as_ref()
            .is_some_and(|b| b.ev == self.cur.events())
    }

    /// Whether it is paused (not playing, seeking or watching).
    pub fn is_paused(&self) -> bool {
        self.mode == Mode::Paused
    }

    /// Whether it is looking ahead for the next LRU batch (its event count runs ahead from a
    /// snapshot, then jumps back to just before the batch).
    pub fn is_looking_ahead(&self) -> bool {
        matches!(
            self.mode,
            Mode::Seeking(Seek::Batch) | Mode::Watching(Watch::Seeking)
        )
    }

    /// Events processed so far.
    pub fn events(&self) -> f64 {
        self.cur.events() as f64
    }

    /// Seconds since the warm-up started.
    pub fn t_s(&self) -> f64 {
        self.cur.sim.t_s()
    }

    /// The cell bytes (see `ui::grid`: table, old bit, marks), one per frame in LRU order then
    /// the free list.
    pub fn cells(&self) -> &[u8] {
        &self.view.cells
    }

    /// Positions of the list each drawn grid cell stands for (see `view::per_cell`).
    pub fn grid_per_cell(&self) -> u32 {
        self.view.per_cell
    }

    /// Where the cells go on the canvas.
    pub fn layout(&self) -> &Layout {
        &self.view.layout
    }

    /// The palette in use (light or dark).
    pub fn palette(&self) -> Palette {
        Palette::new(self.view.dark)
    }

    /// The code panel's state: the lines the last event ran (none after a jump) and the
    /// variables now.
    pub fn code_state(&self) -> CodeState {
        let watched = match (&self.mode, &self.drain.watch_code) {
            (Mode::Watching(Watch::Drain), Some(c)) => Some(c.clone()),
            _ => None,
        };
        CodeState {
            at: watched.or_else(|| self.cur.code()),
            vars: super::code::vars(&self.cur.sim, Some(self.shown_lists())),
        }
    }

    /// The lists' lengths as the page shows them now: the simulation's, except while a watched
    /// batch's evictions are animated, when they are those of the frame drawn (the counters,
    /// the code panel and the close-up then agree). (free list, LRU list, old sublist).
    pub fn shown_lists(&self) -> (u32, u32, u32) {
        let inst = &self.cur.sim.pool.instances[0];
        let (free, lru, old) = (inst.free.len(), inst.lru.len(), inst.lru.old_len());
        if let Mode::Watching(Watch::Evict { .. }) = self.mode {
            let shown_lru = self.view.lru_end;
            let leaving = shown_lru.saturating_sub(lru);
            let shown_old = self.view.old_shown(shown_lru);
            return (free.saturating_sub(leaving), shown_lru, shown_old);
        }
        (free, lru, old)
    }

    /// The last refill's numbers, as the caption, the narration and the counters print them.
    pub fn batch_numbers(&self) -> BatchNumbers {
        self.cur.batch_numbers()
    }

    /// Keeps at most `bytes` of snapshots for stepping back (see [`snapshot_budget`]): fewer
    /// snapshots, further apart, and the ones over the budget dropped now.
    pub fn set_snapshot_budget(&mut self, bytes: u64) {
        self.tl.set_budget(bytes, self.cur.approx_bytes());
    }

    /// Snapshots kept now: anchors (spread over the run) and recent positions.
    pub fn snapshots(&self) -> (usize, usize) {
        self.tl.counts()
    }

    /// The parameters of this run.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// Hands over the full run computed in a worker (for the residency plot and "kept").
    pub fn set_run(&mut self, run: RunData) {
        self.curve.set_run(run);
    }

    /// Hands over run `index` of the setting's `total` (an ensemble; 0 is [`Explorer::set_run`]).
    pub fn set_member(&mut self, index: u32, total: u32, run: RunData) -> Result<(), String> {
        self.curve.set_member(index, total, run)
    }

    /// The first run of the setting, once it has arrived whole.
    pub fn first_run(&self) -> Option<&RunData> {
        self.curve.run()
    }

    /// The runs of the setting that have arrived (`midpoint_lab::run_set`).
    pub fn run_set(&self) -> &midpoint_lab::run_set::RunSet {
        self.curve.set()
    }

    /// Appends samples the worker streamed while computing the full run
    /// ([`Curve::add_points`]).
    pub fn add_run_points(&mut self, flat: &[f64]) -> Result<(), String> {
        self.curve.add_points(flat)
    }

    /// Keeps the residency curve of `prev` (the explorer these parameters replace), dimmed,
    /// until this one's full run is over.
    pub fn keep_curve_of(&mut self, prev: &Explorer) {
        self.curve.follow(&prev.curve);
    }

    /// The time under CSS pixel `x` of a residency plot `css_width` pixels wide drawn at
    /// `scale` device pixels per logical pixel on a canvas `canvas_width` device pixels wide.
    pub fn residency_time_at(&self, x: f64, css_width: f64, canvas_width: f64, scale: f64) -> f64 {
        let k = canvas_width / css_width.max(1.0) / scale.max(1e-6);
        charts::residency_time_at(
            x * k,
            canvas_width / scale.max(1e-6),
            (self.params.warmup_s + self.params.scan_s) as f64,
        )
    }

    /// Whether the residency plot is partial (the full run has not arrived), and how many
    /// samples it draws.
    pub fn residency_info(&self) -> (bool, usize) {
        match self.curve.run() {
            Some(r) => (false, r.points.len()),
            None => (true, self.residency_samples().len()),
        }
    }

    /// The residency plot's refill marks: the full run's if the worker has sent it, else the
    /// batches so far.
    pub fn residency_refills(&self) -> Vec<f64> {
        match self.curve.run() {
            Some(r) => r.refills_s.clone(),
            None => runs::refill_times(self.cur.sim.batches(), 0.1),
        }
    }

    /// The seed's measurements drawn on the residency plot (none unless the parameters are
    /// those of one of its runs).
    pub fn residency_published(&self) -> &[Published] {
        &self.published
    }

    /// What the residency plot draws: the full run if the worker has sent it, else the samples
    /// it has streamed, else this explorer's samples so far.
    pub fn residency_samples(&self) -> Cow<'_, [Sample]> {
        match self.curve.run() {
            // Over several runs: their median curve (the band drawn behind it).
            Some(_) if self.curve.set().done() >= 2 => {
                Cow::Owned(self.curve.set().median_samples())
            }
            Some(r) => Cow::Owned(runs::samples_of(&r.points)),
            None if !self.curve.streamed().is_empty() => Cow::Borrowed(self.curve.streamed()),
            None => Cow::Borrowed(self.cur.sim.samples()),
        }
    }

    /// The previous parameters' curve, drawn dimmed behind a partial one (empty once the full
    /// run is there).
    pub fn residency_ghost(&self) -> &[Sample] {
        self.curve.ghost()
    }
}
