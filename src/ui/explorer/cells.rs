//! The pool grid's data: one cell byte per frame (LRU head to tail, then the free list, see
//! `ui::grid`), the batch animation's in-between frames, the pixels, the labels, and a
//! sentence about any cell.

use super::cursor::pack;
use super::*;
use midpoint_core::clock::to_secs;
use midpoint_core::sim::{HOT_SPACE, SCAN_SPACE};

/// A label over the grid, at a cell: drawn in the page's text colours, or inverted.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Label {
    pub text: &'static str,
    pub cell: u32,
    pub inverted: bool,
}

impl Explorer {
    /// Builds the cell bytes (LRU head → tail, then the free list).
    pub(super) fn build_cells(&mut self, now_ms: f64) {
        let inst = &self.cur.sim.pool.instances[0];
        let total = self.cur.sim.pool.total_frames() as usize;
        self.view.cells.resize(total, 0);
        self.view.cell_frame.resize(total, 0);
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
                if i < self.view.cells.len() {
                    self.view.cells[i] = $b;
                    self.view.cell_frame[i] = $f;
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
            // A ring says what the pool holds now, whatever happened since it was marked: black,
            // a page the boundary turned young that is young still; pink, a hot-set page the
            // last batch turned old that is old still (the key's words).
            mark = match mark {
                grid::MARK_YOUNG if !old => mark,
                grid::MARK_OLD if old && k == grid::K_HOT => mark,
                _ => 0,
            };
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
            if mark != 0 && self.view.flash[f as usize] > 0 {
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
        self.view.boundary = boundary;
        self.view.lru_end = lru_end;
        self.view.counts = (hot_res, scan_young, my, mo);
    }

    /// Renders the grid (cells, the tail's and the boundary's staircases) into the pixel
    /// buffer and returns it as RGBA bytes, `layout().width` × `layout().height`.
    pub fn render(&mut self) -> &[u8] {
        let now = self.pc.last_ms.unwrap_or(0.0);
        self.build_cells(now);
        let pal = Palette::new(self.view.dark);
        let layout = self.view.layout;
        let mut px = std::mem::take(&mut self.view.px);
        grid::render(&mut px, &layout, self.view.drawn_bytes(), &pal);
        self.view.px = px;
        let thick = ((2.0 * self.view.layout.dpr).round() as u32).max(2);
        let lru_end = self.view.drawn_cell(self.view.lru_end);
        if lru_end < self.view.layout.n {
            grid::staircase(
                &mut self.view.px,
                &self.view.layout,
                lru_end,
                thick.div_ceil(2).max(1),
                grid::tail_colour(&pal),
            );
        }
        if let Some(b) = self.view.boundary.map(|b| self.view.drawn_cell(b)) {
            grid::staircase(
                &mut self.view.px,
                &self.view.layout,
                b,
                thick,
                grid::boundary_colour(&pal),
            );
        }
        self.view.dirty = false;
        grid::as_bytes(&self.view.px)
    }

    /// Takes the grid as drawn without drawing it: builds the cells (the counts the status
    /// reads) and clears the dirty flag, for a page that shows no grid (the close-up's view),
    /// so that a paused page comes to rest.
    pub fn settle(&mut self) {
        let now = self.pc.last_ms.unwrap_or(0.0);
        self.build_cells(now);
        self.view.dirty = false;
    }

    /// The labels drawn over the grid: the head, the boundary (`LRU_old`) and the tail.
    pub fn labels(&self) -> Vec<Label> {
        let l = &self.view.layout;
        let mut v = Vec::new();
        if self.cur.sim.pool.lru_len() > 0 && self.view.boundary != Some(0) {
            v.push(Label {
                text: "head: young end",
                cell: 0,
                inverted: false,
            });
        }
        if let Some(b) = self.view.boundary {
            if b > 0 {
                v.push(Label {
                    text: "LRU_old ▾",
                    cell: self.view.drawn_cell(b),
                    inverted: true,
                });
            }
        }
        let lru_end = self.view.drawn_cell(self.view.lru_end);
        if lru_end < l.n && self.view.lru_end > 0 {
            v.push(Label {
                text: "tail | free list",
                cell: lru_end,
                inverted: false,
            });
        }
        v
    }

    /// A sentence about the cell under device pixel (x, y) of the grid, or "" outside it.
    pub fn describe_cell(&self, x: f64, y: f64) -> String {
        let Some(i) = self.view.layout.cell_at(x, y) else {
            return String::new();
        };
        self.describe_index(self.view.position_of(i))
    }

    /// A sentence about the cell at position `i` of the drawing order.
    pub(super) fn describe_index(&self, i: usize) -> String {
        let Some(&b) = self.view.cells.get(i) else {
            return String::new();
        };
        let f = self.view.cell_frame[i];
        let inst = &self.cur.sim.pool.instances[0];
        if b & 7 == grid::K_FREE {
            return format!(
                "Free frame (position {} of {} free){}",
                n(i as u32 + 1 - self.view.lru_end),
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
            let stamp = inst.lru.stamp(f);
            if stamp == 0 {
                // Reference §4.5: a page made young by the boundary was a midpoint insert and
                // never got a clock stamp (it is 0), so the quarter rule treats it as far from
                // the head: its next touch moves it there.
                s.push_str(
                    ", never put at the head (clock stamp 0): its next touch moves it there",
                );
            } else {
                let since = clock.saturating_sub(stamp as u64);
                s.push_str(&format!(
                    ", {} evictions since it was last put at the head",
                    n(since)
                ));
            }
        }
        match b & grid::MARK_MASK {
            grid::MARK_YOUNG => {
                s.push_str("; turned young by the boundary since the last LRU batch")
            }
            grid::MARK_OLD => s.push_str("; a hot-set page the last LRU batch turned old"),
            _ => {}
        }
        s
    }
}
