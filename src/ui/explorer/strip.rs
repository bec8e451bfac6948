//! The boundary close-up: the LRU list drawn as a list, with big cells, near `LRU_old`. Four
//! rows of it are shown: the head, a window of the list around the boundary, the tail, and the
//! first frames of the free list; the pages between them are elided and counted. Each cell is a
//! frame, and it *moves*: the strip keeps every shown frame's position and eases it toward its
//! new place each animation frame, so an eviction is seen leaving the tail for the free list, a
//! read is seen leaving the free list for the slot just after `LRU_old`, and a page the boundary
//! turned young is seen jumping to the head (with a trail).
//!
//! The strip is computed from the explorer's cell bytes (`build_cells`), so it shows exactly
//! what the grid shows, the batch animation included. The browser reads the result as a
//! `Float32Array` view of WASM memory (`view()`, [`STRIDE`] numbers per cell) and draws it.

use super::cursor::pack;
use super::*;

/// Numbers per cell in [`Strip::view`].
pub const STRIDE: usize = 8;
/// Region of a cell: the head row.
pub const R_HEAD: u8 = 0;
/// Region: the window around `LRU_old`.
pub const R_WINDOW: u8 = 1;
/// Region: the tail row.
pub const R_TAIL: u8 = 2;
/// Region: the free list.
pub const R_FREE: u8 = 3;

/// Cell flag: the boundary turned this page young since the last LRU batch.
pub const S_SLID: u32 = 1;
/// Cell flag: a page the boundary turned young, seen at the head afterwards.
pub const S_TO_HEAD: u32 = 2;
/// Cell flag: a hot-set page the last batch's bulk demotion turned old.
pub const S_DEMOTED_HOT: u32 = 4;
/// Cell flag: a free frame whose demoted hot page was evicted.
pub const S_LOST: u32 = 8;
/// Cell flag: the selected frame (linked with the grid).
pub const S_SELECTED: u32 = 16;
/// Cell flag: moved by the last event (drawn with a halo).
pub const S_MOVED: u32 = 32;

/// Easing time constant of the cells' motion, ms.
const EASE_MS: f64 = 110.0;
/// Trails drawn at once (the newest).
const MAX_TRAILS: usize = 6;
/// Wall time a trail stays visible, ms.
const TRAIL_MS: f64 = 2200.0;

/// Text lines and rows of the strip, in CSS pixels.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct StripLayout {
    pub width: f32,
    pub height: f32,
    /// Distance between cell origins, and the cell's side.
    pub pitch: f32,
    pub cell: f32,
    pub cols: u32,
    /// Rows of the window around the boundary.
    pub window_rows: u32,
    /// Left margin.
    pub x0: f32,
    /// Tops of the head row, the window, the tail row and the free row.
    pub y_head: f32,
    pub y_window: f32,
    pub y_tail: f32,
    pub y_free: f32,
    /// Height of a text line.
    pub line: f32,
}

impl StripLayout {
    /// A layout for `width` × at most `max_height` CSS pixels.
    pub fn new(width: f32, max_height: f32) -> StripLayout {
        let width = width.clamp(200.0, 4000.0);
        let line = 17.0;
        // The cells' pitch from the width, smaller if the height is short: the four text
        // lines, the head, tail and free rows and at least three rows of the window must fit.
        let by_height = ((max_height - 4.0 * line - 14.0) / 6.0).floor();
        let pitch = (width / 31.0).min(by_height).clamp(11.0, 22.0).floor();
        let cell = (pitch - (pitch / 7.0).max(2.0)).floor();
        let cols = (((width - 8.0) / pitch).floor() as u32).max(8);
        let x0 = ((width - cols as f32 * pitch) / 2.0).floor();
        // Four text lines (head label, two elisions, free-list label) and three single rows.
        let fixed = 4.0 * line + 3.0 * pitch + 10.0;
        let window_rows = (((max_height - fixed) / pitch).floor() as i64).clamp(3, 10) as u32;
        let y_head = line;
        let y_window = y_head + pitch + line;
        let y_tail = y_window + window_rows as f32 * pitch + line;
        let y_free = y_tail + pitch + line;
        let height = y_free + pitch + 4.0;
        StripLayout {
            width,
            height,
            pitch,
            cell,
            cols,
            window_rows,
            x0,
            y_head,
            y_window,
            y_tail,
            y_free,
            line,
        }
    }

    fn window_cells(&self) -> u32 {
        self.cols * self.window_rows
    }

    fn at(&self, y: f32, i: u32) -> (f32, f32) {
        let r = i / self.cols;
        let c = i % self.cols;
        (self.x0 + c as f32 * self.pitch, y + r as f32 * self.pitch)
    }
}

/// A trail: a page the boundary turned young, seen moving to the head.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Trail {
    pub frame: u32,
    pub x0: f32,
    pub y0: f32,
    pub x1: f32,
    pub y1: f32,
    /// 1 when it starts, fading to 0.
    pub alpha: f32,
    #[serde(skip)]
    born: f64,
}

/// What the strip draws besides its cells.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct StripMeta {
    /// Where `LRU_old` is: the left edge of its cell (CSS px), if it is in the window.
    pub boundary: Option<(f32, f32)>,
    /// Whether a cell is still on its way (or fading in): the picture is not at rest.
    pub moving: bool,
    /// `LRU_old`'s list position (1-based), and the list's length.
    pub boundary_pos: u32,
    pub lru_len: u32,
    pub free_len: u32,
    /// List positions (1-based) of the window's first and last cells.
    pub window_from: u32,
    pub window_to: u32,
    /// Pages not drawn between the head row and the window, and between the window and the tail.
    pub hidden_young: u32,
    pub hidden_old: u32,
    /// Young pages in the list (for the labels).
    pub young_len: u32,
    /// Since the last LRU batch (before the first one: since the start): pages the boundary
    /// turned young, and those of them this close-up saw reach the head row.
    pub slid: u32,
    pub to_head: u32,
    /// The last LRU batch: pages it evicted, pages it turned old, the hot-set pages among them
    /// and those of them evicted since (the batch's counts, as the narration and the counters
    /// give them).
    pub evicted: u32,
    pub demoted: u32,
    pub demoted_hot: u32,
    pub lost_hot: u32,
    /// The close-up's caption: what it has followed since the last LRU batch (or, before the
    /// first one, since the start, while the list grows into the free frames).
    pub caption: String,
    pub trails: Vec<Trail>,
    /// The layout (for hit tests and labels).
    pub layout: Option<StripLayout>,
}

/// The strip's state: where each frame is drawn, what the strip follows.
#[derive(Clone, Debug)]
pub struct Strip {
    pub(super) layout: StripLayout,
    /// Per frame: drawn position (NaN: not drawn), opacity.
    pos: Vec<(f32, f32, f32)>,
    /// Per frame: where it was headed last frame.
    target: Vec<(f32, f32)>,
    /// Per frame: S_SLID / S_TO_HEAD / S_DEMOTED_HOT / S_LOST for this cycle.
    follow: Vec<u8>,
    /// Per frame: the demoted hot page it held (packed id).
    demoted_page: Vec<u64>,
    /// List position (0-based) of the window's first cell.
    anchor: Option<u32>,
    /// The refill the follow marks belong to.
    cycle: u32,
    /// Events when the strip was last built (cells that moved since get a halo).
    last_events: u64,
    last_region: Vec<(u8, u32)>,
    trails: Vec<Trail>,
    view: Vec<f32>,
    /// The view of the update before (to tell whether the picture changed).
    prev_view: Vec<f32>,
    meta: StripMeta,
    counts: (u32, u32, u32, u32),
    last_ms: Option<f64>,
    /// The next update draws every cell at rest and no trails (set on pause).
    settle: bool,
    /// Whether a cell was still on its way at the last update.
    moving: bool,
}

impl Strip {
    pub(super) fn new(frames: usize) -> Strip {
        Strip {
            layout: StripLayout::new(800.0, 300.0),
            pos: vec![(f32::NAN, f32::NAN, 0.0); frames],
            target: vec![(f32::NAN, f32::NAN); frames],
            follow: vec![0; frames],
            demoted_page: vec![u64::MAX; frames],
            anchor: None,
            cycle: u32::MAX,
            last_events: 0,
            last_region: vec![(u8::MAX, 0); frames],
            trails: Vec::new(),
            view: Vec::new(),
            prev_view: Vec::new(),
            meta: StripMeta::default(),
            counts: (0, 0, 0, 0),
            last_ms: None,
            settle: false,
            moving: false,
        }
    }

    /// Draws the next update at rest: each cell where it belongs, no trails.
    pub(super) fn settle(&mut self) {
        self.settle = true;
    }

    /// Whether a cell was still moving (or fading in) at the last update.
    pub(super) fn moving(&self) -> bool {
        self.moving
    }

    /// Forgets every position (after a jump in the run: nothing should glide from far away).
    pub(super) fn reset_motion(&mut self) {
        for p in &mut self.pos {
            *p = (f32::NAN, f32::NAN, 0.0);
        }
        self.trails.clear();
        self.anchor = None;
    }
}

impl Explorer {
    /// Lays the close-up out for `width` × at most `max_height` CSS pixels; returns its height.
    pub fn strip_resize(&mut self, width: f64, max_height: f64) -> f64 {
        self.strip.layout = StripLayout::new(width as f32, max_height as f32);
        self.strip.reset_motion();
        self.view.dirty = true;
        self.strip.layout.height as f64
    }

    /// Builds the close-up for wall time `now_ms`: the cells' targets, their eased positions,
    /// the follow marks and the trails. Read the result with [`Explorer::strip_view`] and
    /// [`Explorer::strip_meta`]. Returns whether they differ from the last update's, so that a
    /// paused page with nothing moving paints nothing (a repaint a frame kept a fifth of a core
    /// busy).
    pub fn strip_update(&mut self, now_ms: f64) -> bool {
        let dt_ms = match self.strip.last_ms {
            Some(l) => (now_ms - l).clamp(0.0, 100.0),
            None => 0.0,
        };
        self.strip.last_ms = Some(now_ms);
        self.build_cells(now_ms);
        // The free list of the frame drawn (during an eviction, the pages still leaving are
        // not in it yet), as the counters give it.
        let (shown_free, _, _) = self.shown_lists();
        let inst = &self.cur.sim.pool.instances[0];
        let l = self.strip.layout;
        let lru = self.view.lru_end as usize;
        let total = self.view.cells.len();
        let free_n = total - lru;
        let cols = l.cols as usize;
        let st = &mut self.strip;
        if st.cycle != self.cur.refills {
            st.cycle = self.cur.refills;
            st.follow.iter_mut().for_each(|f| *f &= S_LOST as u8);
            st.counts = (0, 0, 0, 0);
        }
        // Which list positions are drawn.
        let head_n = cols.min(lru);
        let tail_n = cols.min(lru.saturating_sub(head_n));
        let win_n = (l.window_cells() as usize).min(lru.saturating_sub(head_n + tail_n));
        let b = self.view.boundary.map(|b| b as usize).unwrap_or(lru);
        let lo = head_n;
        let hi = lru - tail_n; // window must lie in [lo, hi)
                               // The window stays put while LRU_old moves inside its middle two thirds, so the
                               // marker is seen sliding over the pages; past that it is re-centred.
        let centred = (b.saturating_sub(win_n / 2))
            .max(lo)
            .min(hi.saturating_sub(win_n));
        let a = match st.anchor.map(|a| a as usize) {
            Some(a)
                if a >= lo
                    && a + win_n <= hi
                    && b >= a + win_n / 6
                    && b < a + win_n - win_n / 6 =>
            {
                a
            }
            _ => centred,
        };
        st.anchor = Some(a as u32);
        // Nothing glides (and no trail is drawn) while seeking: the run jumps.
        let seeking = matches!(self.mode, Mode::Seeking(_) | Mode::Watching(Watch::Seeking));
        let settle = std::mem::take(&mut st.settle);
        if settle {
            st.trails.clear();
        }
        let snap = self.pc.reduced_motion || dt_ms <= 0.0 || seeking || settle;
        st.moving = false;
        let k = if snap {
            1.0
        } else {
            (1.0 - (-dt_ms / EASE_MS).exp()) as f32
        };
        let moved_now = self.cur.events() != st.last_events;
        st.last_events = self.cur.events();
        std::mem::swap(&mut st.view, &mut st.prev_view);
        st.view.clear();
        let elided_young_y = l.y_head + l.pitch + l.line * 0.5;
        let elided_old_y = l.y_tail - l.line * 0.5;
        let mut meta = StripMeta {
            lru_len: inst.lru.len(),
            free_len: shown_free,
            layout: Some(l),
            ..StripMeta::default()
        };
        let (cells, cell_frame, selected) =
            (&self.view.cells, &self.view.cell_frame, self.selected);
        let push = |i: usize, region: u8, slot: u32, st: &mut Strip| {
            let f = cell_frame[i];
            let byte = cells[i];
            let fi = f as usize;
            let (y, slot_i) = match region {
                R_HEAD => (l.y_head, slot),
                R_WINDOW => (l.y_window, slot),
                R_TAIL => (l.y_tail, slot),
                _ => (l.y_free, slot),
            };
            let (tx, ty) = l.at(y, slot_i);
            let mut fl = st.follow[fi];
            let kind = byte & 7;
            let mark = byte & grid::MARK_MASK;
            if kind != grid::K_FREE {
                let page = pack(inst.page(f));
                if st.follow[fi] & S_LOST as u8 != 0 {
                    fl &= !(S_LOST as u8);
                }
                if mark == grid::MARK_YOUNG && fl & S_SLID as u8 == 0 {
                    fl |= S_SLID as u8;
                    st.counts.0 += 1;
                }
                if mark == grid::MARK_OLD && kind == grid::K_HOT && fl & S_DEMOTED_HOT as u8 == 0 {
                    fl |= S_DEMOTED_HOT as u8;
                    st.demoted_page[fi] = page;
                    st.counts.2 += 1;
                }
                if fl & S_DEMOTED_HOT as u8 != 0 && st.demoted_page[fi] != page {
                    // The frame holds another page now: the demoted one was evicted.
                    fl &= !(S_DEMOTED_HOT as u8);
                    st.counts.3 += 1;
                } else if fl & S_DEMOTED_HOT as u8 != 0 && mark != grid::MARK_OLD {
                    // The same page, no longer old by the batch (touched to the head, or
                    // another batch ran): its pink ring goes.
                    fl &= !(S_DEMOTED_HOT as u8);
                }
                if fl & S_SLID as u8 != 0 && mark != grid::MARK_YOUNG {
                    fl &= !((S_SLID | S_TO_HEAD) as u8);
                }
                if region == R_HEAD && fl & S_SLID as u8 != 0 && fl & S_TO_HEAD as u8 == 0 {
                    fl |= S_TO_HEAD as u8;
                    st.counts.1 += 1;
                    let (x0, y0) = if st.pos[fi].0.is_nan() {
                        (tx, elided_young_y)
                    } else {
                        (st.pos[fi].0, st.pos[fi].1)
                    };
                    if !snap {
                        st.trails.push(Trail {
                            frame: f,
                            x0,
                            y0,
                            x1: tx,
                            y1: ty,
                            alpha: 1.0,
                            born: now_ms,
                        });
                    }
                }
            } else {
                fl &= !((S_SLID | S_TO_HEAD) as u8);
                if fl & S_DEMOTED_HOT as u8 != 0 {
                    fl = (fl & !(S_DEMOTED_HOT as u8)) | S_LOST as u8;
                    st.counts.3 += 1;
                }
            }
            st.follow[fi] = fl;
            // Motion: from where it was drawn, or appearing in place.
            let p = &mut st.pos[fi];
            if p.0.is_nan() || snap {
                *p = (tx, ty, if snap { 1.0 } else { 0.0 });
            }
            // Within a region, cells shift by a slot or a few as pages come and go around
            // them: they snap, so that the list stays a list. Only a change of region (tail to
            // free list, free list to LRU_old, window to head) glides.
            let last = st.last_region[fi];
            let prev = st.target[fi];
            let at_rest = (p.0 - prev.0).abs() < 0.5 && (p.1 - prev.1).abs() < 0.5;
            if last.0 == region && at_rest {
                *p = (tx, ty, p.2);
            }
            st.target[fi] = (tx, ty);
            p.0 += (tx - p.0) * k;
            p.1 += (ty - p.1) * k;
            p.2 += (1.0 - p.2) * k;
            if (tx - p.0).abs() < 0.3 && (ty - p.1).abs() < 0.3 {
                p.0 = tx;
                p.1 = ty;
            }
            // The fade-in ends exactly: in f32 a small step stalls a hair below 1, which a
            // longer frame (the page's idle poll) would then finish, a change nobody sees.
            if p.2 > 0.995 {
                p.2 = 1.0;
            }
            if p.0 != tx || p.1 != ty || p.2 < 1.0 {
                st.moving = true;
            }
            let mut flags = fl as u32;
            if selected == Some(f) {
                flags |= S_SELECTED;
            }
            if moved_now && last != (region, slot) && last.0 != u8::MAX {
                flags |= S_MOVED;
            }
            st.last_region[fi] = (region, slot);
            st.view.extend_from_slice(&[
                f as f32,
                p.0,
                p.1,
                byte as f32,
                flags as f32,
                p.2,
                region as f32,
                if (region as usize) < R_FREE as usize {
                    i as f32
                } else {
                    (i - lru) as f32
                },
            ]);
        };
        let before: Vec<u32> = (0..total)
            .filter(|&i| !self.strip.pos[self.view.cell_frame[i] as usize].0.is_nan())
            .map(|i| self.view.cell_frame[i])
            .collect();
        for i in 0..head_n {
            push(i, R_HEAD, i as u32, &mut self.strip);
        }
        for j in 0..win_n {
            push(a + j, R_WINDOW, j as u32, &mut self.strip);
        }
        for j in 0..tail_n {
            push(lru - tail_n + j, R_TAIL, j as u32, &mut self.strip);
        }
        for j in 0..free_n.min(cols) {
            push(lru + j, R_FREE, j as u32, &mut self.strip);
        }
        // Frames no longer drawn: forget where they were.
        let st = &mut self.strip;
        let shown: std::collections::HashSet<u32> =
            st.view.chunks_exact(STRIDE).map(|c| c[0] as u32).collect();
        for f in before {
            if !shown.contains(&f) {
                st.pos[f as usize] = (f32::NAN, f32::NAN, 0.0);
                st.last_region[f as usize] = (u8::MAX, 0);
            }
        }
        st.trails.retain(|t| now_ms - t.born < TRAIL_MS);
        // A few trails at a time: enough to follow pages, not a web of lines.
        let extra = st.trails.len().saturating_sub(MAX_TRAILS);
        st.trails.drain(..extra);
        for t in &mut st.trails {
            t.alpha = (1.0 - (now_ms - t.born) / TRAIL_MS).clamp(0.0, 1.0) as f32;
            // The trail ends where its page is drawn now.
            if let Some(p) = st.pos.get(t.frame as usize) {
                if !p.0.is_nan() {
                    t.x1 = p.0;
                    t.y1 = p.1;
                }
            }
        }
        meta.trails = st.trails.clone();
        meta.boundary_pos = b as u32 + 1;
        meta.young_len = b.min(lru) as u32;
        meta.window_from = a as u32 + 1;
        meta.window_to = (a + win_n) as u32;
        meta.hidden_young = a.saturating_sub(head_n) as u32;
        meta.hidden_old = hi.saturating_sub(a + win_n) as u32;
        if b >= a && b < a + win_n {
            // Drawn where LRU_old's cell is eased to, so the marker moves with the cells.
            let f = self.view.cell_frame[b] as usize;
            let p = st.pos[f];
            let (x, y) = if p.0.is_nan() {
                l.at(l.y_window, (b - a) as u32)
            } else {
                (p.0, p.1)
            };
            meta.boundary = Some((x, y));
        }
        // The counts the narration, the counters and the code panel give: the batch's own and
        // the pool's slide counters, not the pages seen in the close-up (`to_head` is the one
        // count of what the close-up saw).
        let b = self.cur.batch_numbers();
        meta.evicted = b.evicted;
        meta.slid = b.young_since as u32;
        meta.demoted = b.demoted;
        meta.demoted_hot = b.demoted_hot;
        meta.lost_hot = b.lost_hot;
        meta.to_head = st.counts.1;
        meta.caption = strip_caption(&meta, self.cur.refills);
        meta.moving = st.moving;
        let _ = elided_old_y;
        // Bit for bit (a NaN counts as a change: a repaint, never a missed one).
        let same_view = st.view.len() == st.prev_view.len()
            && st
                .view
                .iter()
                .zip(&st.prev_view)
                .all(|(a, b)| a.to_bits() == b.to_bits());
        let changed = !same_view || st.meta != meta;
        st.meta = meta;
        changed
    }

    /// The close-up's cells, [`STRIDE`] numbers each: frame, x, y (CSS px, top left), cell
    /// byte (`ui::grid`), flags (`S_*`), opacity, region (`R_*`), list position (0-based; in
    /// the free list, its position there).
    pub fn strip_view(&self) -> &[f32] {
        &self.strip.view
    }

    /// What the close-up draws besides its cells.
    pub fn strip_meta(&self) -> &StripMeta {
        &self.strip.meta
    }

    /// The frame of the close-up's cell under CSS pixel (x, y), if any.
    pub fn strip_frame_at(&self, x: f64, y: f64) -> Option<u32> {
        let c = self.strip.layout.cell as f64;
        self.strip
            .view
            .chunks_exact(STRIDE)
            .find(|v| {
                let (cx, cy) = (v[1] as f64, v[2] as f64);
                x >= cx - 1.0 && x < cx + c + 1.0 && y >= cy - 1.0 && y < cy + c + 1.0
            })
            .map(|v| v[0] as u32)
    }

    /// Selects a frame (hovered in the grid or the close-up; both highlight it), or none.
    pub fn select_frame(&mut self, f: Option<u32>) {
        let f = f.filter(|&f| (f as usize) < self.view.cells.len());
        if self.selected != f {
            self.selected = f;
            self.view.dirty = true;
        }
    }

    /// The selected frame.
    pub fn selected(&self) -> Option<u32> {
        self.selected
    }

    /// The frame of the grid cell under device pixel (x, y), if any.
    pub fn grid_frame_at(&self, x: f64, y: f64) -> Option<u32> {
        let i = self.view.layout.cell_at(x, y)?;
        self.view.cell_frame.get(self.view.position_of(i)).copied()
    }

    /// The drawn grid cell that shows frame `f` (its position over the positions a cell
    /// stands for, see `view::per_cell`).
    pub fn grid_drawn_cell_of(&self, f: u32) -> Option<u32> {
        self.grid_cell_of(f).map(|i| self.view.drawn_cell(i))
    }

    /// The grid cell (position in the drawing order) of frame `f`.
    pub fn grid_cell_of(&self, f: u32) -> Option<u32> {
        self.view
            .cell_frame
            .iter()
            .position(|&g| g == f)
            .map(|i| i as u32)
    }

    /// A sentence about frame `f` (the grid's tooltip, for a cell of the close-up).
    pub fn describe_frame(&self, f: u32) -> String {
        match self.grid_cell_of(f) {
            Some(i) => self.describe_index(i as usize),
            None => String::new(),
        }
    }
}

/// The close-up's caption: what the last LRU batch did and what the boundary did since, in the
/// batch's and the pool's own counts (the numbers the narration, the counters and the code panel
/// give); before the first batch, the pages the list's growth into free frames turned young.
pub fn strip_caption(m: &StripMeta, refills: u32) -> String {
    if refills == 0 {
        return format!(
            "No LRU batch yet: the list grows into free frames, and the boundary has turned {} young (black ring) without a refill.",
            pages(m.slid as u64)
        );
    }
    let hot = match m.demoted_hot {
        1 => "1 of them a hot page".to_string(),
        d => format!("{} of them hot pages", n(d)),
    };
    let lost = match m.lost_hot {
        0 => String::new(),
        l => format!(", {} of those evicted since (pink ×)", n(l)),
    };
    format!(
        "Since the last LRU batch: it turned {} old (bulk demotion), {hot} (pink ring){lost}; the boundary has turned {} young since (black ring).",
        pages(m.demoted as u64),
        pages(m.slid as u64),
    )
}

#[cfg(test)]
mod caption_tests {
    use super::*;

    #[test]
    fn before_the_first_batch_the_caption_speaks_of_growth_not_of_a_refill() {
        let m = StripMeta {
            slid: 1,
            to_head: 0,
            demoted_hot: 3,
            ..StripMeta::default()
        };
        let grow = strip_caption(&m, 0);
        assert!(grow.starts_with("No LRU batch yet") && grow.contains("turned 1 page young"));
        assert!(!grow.contains("demoted"), "{grow}");
        let refill = strip_caption(
            &StripMeta {
                demoted: 607,
                evicted: 1024,
                ..m.clone()
            },
            2,
        );
        assert!(refill.contains("it turned 607 pages old"), "{refill}");
        assert!(refill.contains("3 of them hot pages"), "{refill}");
        assert!(!refill.contains("evicted since"), "{refill}");
        let refill = strip_caption(
            &StripMeta {
                slid: 1204,
                lost_hot: 2,
                ..m
            },
            2,
        );
        assert!(refill.contains("turned 1,204 pages young"), "{refill}");
        assert!(refill.contains("2 of those evicted since"), "{refill}");
    }
}
