//! The grid's view of the run: the cell bytes (one per frame, LRU head → tail then the free
//! list), what they count, the highlights fading on them, and where they go on the canvas.
//! A pool of more than [`MAX_DRAWN_CELLS`] frames is drawn as a summary: each drawn cell stands
//! for `per_cell` consecutive positions of the list and shows the first of them.

use super::super::grid::{self, Layout};

/// The most cells the grid draws: one frame a cell up to 65,536 frames (a 1 GiB pool), a
/// summary past it.
pub const MAX_DRAWN_CELLS: u32 = 65_536;

/// Positions of the list each drawn cell stands for, for a pool of `frames` frames.
pub fn per_cell(frames: u32) -> u32 {
    frames.div_ceil(MAX_DRAWN_CELLS).max(1)
}

/// Frames a freshly marked cell stays highlighted.
pub(super) const FLASH_FRAMES: u8 = 75;

/// The pool grid as drawn.
pub(super) struct CellsView {
    /// Per frame: frames left of its highlight; and the frames highlighted now.
    pub(super) flash: Vec<u8>,
    pub(super) flashing: Vec<u32>,
    /// Scratch: the frames the last event touched.
    pub(super) fresh: Vec<u32>,
    /// The cell bytes (see `ui::grid`), and the frame each cell shows.
    pub(super) cells: Vec<u8>,
    pub(super) cell_frame: Vec<u32>,
    /// (hot pages resident, scan pages young, black rings, pink rings).
    pub(super) counts: (u32, u32, u32, u32),
    /// The first old cell, and the end of the LRU list's cells.
    pub(super) boundary: Option<u32>,
    pub(super) lru_end: u32,
    /// The rendered pixels (RGBA).
    pub(super) px: Vec<u32>,
    pub(super) layout: Layout,
    /// Positions of the list a drawn cell stands for (1: every frame its own cell).
    pub(super) per_cell: u32,
    /// Scratch: the drawn cells' bytes when `per_cell` > 1.
    pub(super) drawn: Vec<u8>,
    pub(super) dark: bool,
    /// The grid changed since it was last drawn.
    pub(super) dirty: bool,
}

impl CellsView {
    /// The view of a pool of `frames` frames, on a default canvas, to be drawn.
    pub(super) fn new(frames: usize) -> CellsView {
        CellsView {
            flash: vec![0; frames],
            flashing: Vec::new(),
            fresh: Vec::new(),
            cells: vec![0; frames],
            cell_frame: vec![0; frames],
            counts: (0, 0, 0, 0),
            boundary: None,
            lru_end: 0,
            px: Vec::new(),
            layout: Layout::new(
                800,
                400,
                (frames as u32).div_ceil(per_cell(frames as u32)),
                1.0,
            ),
            per_cell: per_cell(frames as u32),
            drawn: Vec::new(),
            dark: false,
            dirty: true,
        }
    }

    /// Lays the grid of `frames` out for a canvas `width` device pixels wide and at most
    /// `max_height` high; returns the height to give the canvas.
    pub(super) fn resize(&mut self, width: u32, max_height: u32, frames: u32, dpr: f64) -> u32 {
        self.per_cell = per_cell(frames);
        self.layout = Layout::new(width, max_height, frames.div_ceil(self.per_cell), dpr);
        self.dirty = true;
        self.layout.height
    }

    /// The drawn cell that shows list position `pos`.
    pub(super) fn drawn_cell(&self, pos: u32) -> u32 {
        pos / self.per_cell.max(1)
    }

    /// The list position a drawn cell shows (the first of those it stands for).
    pub(super) fn position_of(&self, cell: u32) -> usize {
        cell as usize * self.per_cell.max(1) as usize
    }

    /// The bytes to draw, a cell each: the cells themselves, or one of every `per_cell`.
    pub(super) fn drawn_bytes(&mut self) -> &[u8] {
        if self.per_cell <= 1 {
            return &self.cells;
        }
        let k = self.per_cell as usize;
        self.drawn.clear();
        self.drawn.extend(self.cells.iter().step_by(k));
        &self.drawn
    }

    /// Uses the dark palette or the light one.
    pub(super) fn set_dark(&mut self, dark: bool) {
        if self.dark != dark {
            self.dark = dark;
            self.dirty = true;
        }
    }

    /// Highlights frame `f` afresh.
    pub(super) fn flash_frame(&mut self, f: u32) {
        if self.flash[f as usize] == 0 {
            self.flashing.push(f);
        }
        self.flash[f as usize] = FLASH_FRAMES;
    }

    /// Ends every highlight.
    pub(super) fn clear_flash(&mut self) {
        for &f in &self.flashing {
            self.flash[f as usize] = 0;
        }
        self.flashing.clear();
    }

    /// One frame older: the highlights fade by a frame (the view is dirty while any lasts).
    pub(super) fn fade(&mut self) {
        if !self.flashing.is_empty() {
            let flash = &mut self.flash;
            self.flashing.retain(|&f| {
                let v = &mut flash[f as usize];
                *v = v.saturating_sub(1);
                *v > 0
            });
            self.dirty = true;
        }
    }

    /// The old cells among the first `lru_end` (the LRU list as drawn).
    pub(super) fn old_shown(&self, lru_end: u32) -> u32 {
        self.cells
            .iter()
            .take(lru_end as usize)
            .filter(|&&b| b & grid::OLD != 0)
            .count() as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn old_cells_are_counted_within_the_lru_list_only() {
        let mut v = CellsView::new(6);
        v.cells = vec![
            grid::K_HOT,
            grid::K_HOT | grid::OLD,
            grid::K_SCAN | grid::OLD,
            grid::K_FILLER | grid::OLD | grid::LEAVING,
            grid::K_FREE,
            grid::K_FREE | grid::OLD,
        ];
        assert_eq!(v.old_shown(4), 3);
        assert_eq!(v.old_shown(2), 1);
        assert_eq!(v.old_shown(0), 0);
    }

    #[test]
    fn highlights_fade_after_their_frames_and_clear_at_once() {
        let mut v = CellsView::new(4);
        v.flash_frame(1);
        v.flash_frame(1);
        v.flash_frame(3);
        assert_eq!(v.flashing, vec![1, 3]);
        v.dirty = false;
        for _ in 0..FLASH_FRAMES - 1 {
            v.fade();
        }
        assert!(v.dirty && v.flashing.len() == 2 && v.flash[1] == 1);
        v.fade();
        assert!(v.flashing.is_empty() && v.flash.iter().all(|&f| f == 0));
        v.dirty = false;
        v.fade();
        assert!(!v.dirty, "nothing fading: nothing to draw");
        v.flash_frame(2);
        v.clear_flash();
        assert!(v.flashing.is_empty() && v.flash[2] == 0);
    }

    #[test]
    fn a_pool_past_the_drawn_cells_is_drawn_as_a_summary() {
        // 1 GiB's 65,528 frames: a cell each.
        let mut v = CellsView::new(65_528);
        assert_eq!(v.per_cell, 1);
        assert_eq!(v.layout.n, 65_528);
        // A 2 GiB instance's 131,056 frames: one cell for two positions.
        let frames = 131_056u32;
        v.resize(800, 600, frames, 1.0);
        assert_eq!(v.per_cell, 2);
        assert_eq!(v.layout.n, 65_528);
        v.cells = (0..frames).map(|i| (i % 5) as u8).collect();
        let drawn = v.drawn_bytes().to_vec();
        assert_eq!(drawn.len() as u32, v.layout.n);
        assert!(drawn
            .iter()
            .enumerate()
            .all(|(c, &b)| b == ((2 * c) % 5) as u8));
        assert_eq!(v.drawn_cell(frames - 1), v.layout.n - 1);
        assert_eq!(v.position_of(v.drawn_cell(101)), 100);
        // 8 GiB's 524,224 frames: never more than the most cells drawn.
        v.resize(800, 600, 524_224, 1.0);
        assert_eq!(v.per_cell, 8);
        assert!(v.layout.n <= MAX_DRAWN_CELLS);
    }

    #[test]
    fn a_new_palette_or_size_asks_for_a_redraw() {
        let mut v = CellsView::new(100);
        v.dirty = false;
        v.set_dark(false);
        assert!(!v.dirty);
        v.set_dark(true);
        assert!(v.dirty && v.dark);
        v.dirty = false;
        let h = v.resize(300, 1000, 100, 1.0);
        assert!(v.dirty && h == v.layout.height && h > 0);
    }
}
