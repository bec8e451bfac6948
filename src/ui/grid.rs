//! The pool drawn as a grid: one cell per frame, from the LRU head (top left) to the tail,
//! then the free frames. Cells are rendered into an RGBA pixel buffer in WASM memory, which
//! the canvas receives with one `putImageData`.
//!
//! Each frame's state is one byte (the "cell byte"):
//! bits 0-2 the table ([`K_FREE`] .. [`K_FILLER`]), bit 3 [`OLD`], bits 4-5 the mark
//! ([`MARK_YOUNG`], [`MARK_OLD`], [`MARK_FREED`]), bit 6 [`FLASH`] (marked moments ago),
//! bit 7 [`LEAVING`] (being evicted, in the batch animation).

use midpoint_lab::chart::{Theme, DARK, FILLER, HOT, LIGHT, SCAN};
use plotters::style::RGBColor;

/// A free frame.
pub const K_FREE: u8 = 0;
/// A page of the hot set.
pub const K_HOT: u8 = 1;
/// A page of the hot table outside the hot set.
pub const K_HOT_REST: u8 = 2;
/// A page of the scanned table.
pub const K_SCAN: u8 = 3;
/// A page of the filler table (cold start).
pub const K_FILLER: u8 = 4;
/// The page is in the old sublist.
pub const OLD: u8 = 0x08;
/// The boundary turned this page young since the last LRU batch.
pub const MARK_YOUNG: u8 = 0x10;
/// A hot-set page the last LRU batch's bulk demotion turned old (and old still).
pub const MARK_OLD: u8 = 0x20;
/// The last LRU batch freed this frame.
pub const MARK_FREED: u8 = 0x30;
/// Mask of the mark bits.
pub const MARK_MASK: u8 = 0x30;
/// Marked moments ago: drawn highlighted.
pub const FLASH: u8 = 0x40;
/// On its way out of the LRU list (batch animation).
pub const LEAVING: u8 = 0x80;

/// Where the cells go on the canvas, in device pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    /// Canvas width.
    pub width: u32,
    /// Canvas height.
    pub height: u32,
    /// Distance between cell origins.
    pub pitch: u32,
    /// Empty pixels between cells.
    pub gap: u32,
    /// Cells per row.
    pub cols: u32,
    /// Rows.
    pub rows: u32,
    /// Left margin that centres the grid.
    pub x0: u32,
    /// Top margin (room for the labels).
    pub y0: u32,
    /// Cells.
    pub n: u32,
    /// Device pixels per CSS pixel.
    pub dpr: f64,
}

impl Layout {
    /// The largest square cells that fit `n` cells into `width` × `max_height` device pixels.
    pub fn new(width: u32, max_height: u32, n: u32, dpr: f64) -> Layout {
        let dpr = if dpr.is_finite() && dpr > 0.0 {
            dpr.clamp(0.5, 4.0)
        } else {
            1.0
        };
        let width = width.clamp(16, 8192);
        let y0 = (16.0 * dpr).round() as u32;
        let max_height = max_height.clamp(16, 8192).saturating_sub(y0).max(8);
        let n = n.max(1);
        let mut pitch =
            ((width as f64 * max_height as f64 / n as f64).sqrt().floor() as u32).max(1);
        loop {
            let cols = (width / pitch).max(1);
            let rows = n.div_ceil(cols);
            if rows * pitch <= max_height || pitch == 1 {
                break;
            }
            pitch -= 1;
        }
        let cols = (width / pitch).max(1);
        let rows = n.div_ceil(cols);
        let gap = if pitch >= 4 { 1 } else { 0 };
        Layout {
            width,
            height: y0 + rows * pitch,
            pitch,
            gap,
            cols,
            rows,
            x0: (width - cols * pitch) / 2,
            y0,
            n,
            dpr,
        }
    }

    /// Top-left pixel of cell `i`.
    pub fn origin(&self, i: u32) -> (u32, u32) {
        let (r, c) = (i / self.cols, i % self.cols);
        (self.x0 + c * self.pitch, self.y0 + r * self.pitch)
    }

    /// The cell under device pixel (x, y).
    pub fn cell_at(&self, x: f64, y: f64) -> Option<u32> {
        if x < self.x0 as f64 || y < self.y0 as f64 {
            return None;
        }
        let c = ((x - self.x0 as f64) / self.pitch as f64).floor() as u32;
        let r = ((y - self.y0 as f64) / self.pitch as f64).floor() as u32;
        if c >= self.cols || r >= self.rows {
            return None;
        }
        let i = r * self.cols + c;
        (i < self.n).then_some(i)
    }
}

/// Packs a colour as the little-endian RGBA word `ImageData` expects.
const fn rgba(c: RGBColor) -> u32 {
    0xff00_0000 | ((c.2 as u32) << 16) | ((c.1 as u32) << 8) | c.0 as u32
}

fn mix(a: RGBColor, b: RGBColor, t: f64) -> RGBColor {
    let m = |x: u8, y: u8| (x as f64 + (y as f64 - x as f64) * t).round() as u8;
    RGBColor(m(a.0, b.0), m(a.1, b.1), m(a.2, b.2))
}

/// Colour of the hot table's pages outside the hot set (Okabe-Ito orange).
pub const HOT_REST: RGBColor = RGBColor(0xe6, 0x9f, 0x00);
/// Highlight of pages the boundary just turned young (Okabe-Ito yellow).
pub const HIGHLIGHT: RGBColor = RGBColor(0xf0, 0xe4, 0x42);

/// The grid's colours for a theme.
#[derive(Clone, Debug)]
pub struct Palette {
    pub theme: Theme,
    bg: u32,
    free: u32,
    full: [u32; 5],
    tint: [u32; 5],
    ring_young: u32,
    ring_old: u32,
    ring_freed: u32,
    flash: u32,
    boundary: u32,
    tail: u32,
}

impl Palette {
    /// The light or dark palette.
    pub fn new(dark: bool) -> Palette {
        let theme = if dark { DARK } else { LIGHT };
        let bg = theme.background;
        let kinds = [
            if dark {
                RGBColor(0x3a, 0x3c, 0x41)
            } else {
                RGBColor(0xe4, 0xe6, 0xea)
            },
            HOT,
            HOT_REST,
            if dark {
                RGBColor(0x3d, 0x8b, 0xd4)
            } else {
                SCAN
            },
            FILLER,
        ];
        let full = kinds.map(rgba);
        let tint = kinds.map(|k| rgba(mix(k, bg, if dark { 0.6 } else { 0.62 })));
        Palette {
            theme,
            bg: rgba(bg),
            free: rgba(kinds[0]),
            full,
            tint,
            ring_young: rgba(if dark {
                HIGHLIGHT
            } else {
                RGBColor(0x11, 0x11, 0x11)
            }),
            ring_old: rgba(RGBColor(0xcc, 0x79, 0xa7)),
            ring_freed: rgba(mix(theme.text, bg, 0.55)),
            flash: rgba(HIGHLIGHT),
            boundary: rgba(theme.text),
            tail: rgba(mix(theme.text, bg, 0.45)),
        }
    }
    /// CSS colour of the boundary line and labels.
    pub fn text_css(&self) -> String {
        let t = self.theme.text;
        format!("rgb({},{},{})", t.0, t.1, t.2)
    }
    /// CSS colour of the background.
    pub fn bg_css(&self) -> String {
        let t = self.theme.background;
        format!("rgb({},{},{})", t.0, t.1, t.2)
    }
}

fn fill(px: &mut [u32], w: u32, x: u32, y: u32, cw: u32, ch: u32, c: u32) {
    for yy in y..y + ch {
        let row = (yy * w) as usize;
        let a = row + x as usize;
        if let Some(s) = px.get_mut(a..a + cw as usize) {
            s.fill(c);
        }
    }
}

fn ring(px: &mut [u32], w: u32, x: u32, y: u32, s: u32, t: u32, c: u32) {
    if s <= 2 * t {
        fill(px, w, x, y, s, s, c);
        return;
    }
    fill(px, w, x, y, s, t, c);
    fill(px, w, x, y + s - t, s, t, c);
    fill(px, w, x, y + t, t, s - 2 * t, c);
    fill(px, w, x + s - t, y + t, t, s - 2 * t, c);
}

/// Renders the cells into `px` (`layout.width × layout.height` words).
pub fn render(px: &mut Vec<u32>, layout: &Layout, cells: &[u8], pal: &Palette) {
    let w = layout.width;
    px.clear();
    px.resize((layout.width * layout.height) as usize, pal.bg);
    let s = layout.pitch - layout.gap;
    let t = if s >= 9 { 2 } else { 1 };
    for (i, &b) in cells.iter().enumerate().take(layout.n as usize) {
        let (x, y) = layout.origin(i as u32);
        let kind = (b & 7).min(4) as usize;
        let mark = b & MARK_MASK;
        if b & FLASH != 0 && mark != MARK_FREED {
            fill(px, w, x, y, s, s, pal.flash);
            if s >= 7 {
                ring(px, w, x, y, s, 1, pal.full[kind]);
            }
            continue;
        }
        if kind == K_FREE as usize {
            fill(px, w, x, y, s, s, pal.free);
        } else if b & OLD != 0 {
            let (full, tint) = (pal.full[kind], pal.tint[kind]);
            for yy in 0..s {
                let row = ((y + yy) * w + x) as usize;
                if let Some(r) = px.get_mut(row..row + s as usize) {
                    for (xx, p) in r.iter_mut().enumerate() {
                        *p = if (xx as u32 + yy) % 3 == 0 {
                            full
                        } else {
                            tint
                        };
                    }
                }
            }
        } else {
            fill(px, w, x, y, s, s, pal.full[kind]);
        }
        if b & LEAVING != 0 && s >= 3 {
            ring(px, w, x, y, s, t, pal.ring_freed);
        }
        match mark {
            MARK_YOUNG if s >= 3 => ring(px, w, x, y, s, t, pal.ring_young),
            MARK_OLD if s >= 3 => ring(px, w, x, y, s, t, pal.ring_old),
            MARK_FREED if s >= 3 => {
                let d = (s / 3).max(1);
                fill(px, w, x + d, y + d, s - 2 * d, s - 2 * d, pal.ring_freed);
            }
            MARK_YOUNG => fill(px, w, x, y, s, s, pal.ring_young),
            _ => {}
        }
    }
}

/// Draws the line between cell `i - 1` and cell `i` (a staircase when `i` is mid-row).
pub fn staircase(px: &mut [u32], layout: &Layout, i: u32, thick: u32, colour: u32) {
    if i == 0 || i > layout.n {
        return;
    }
    let w = layout.width;
    let p = layout.pitch;
    let (r, c) = (i / layout.cols, i % layout.cols);
    let half = thick / 2;
    let gx = |col: u32| (layout.x0 + col * p).saturating_sub(layout.gap.div_ceil(2) + half);
    let gy = |row: u32| (layout.y0 + row * p).saturating_sub(layout.gap.div_ceil(2) + half);
    let right = layout.x0 + layout.cols * p;
    let bottom = layout.height;
    let clampw = |x: u32, len: u32| len.min(w.saturating_sub(x));
    let clamph = |y: u32, len: u32| len.min(bottom.saturating_sub(y));
    if c == 0 {
        // The whole row above is the other side: one horizontal line.
        let y = gy(r);
        fill(
            px,
            w,
            layout.x0,
            y,
            clampw(layout.x0, right - layout.x0),
            clamph(y, thick),
            colour,
        );
        return;
    }
    // Along the top of row r from column c to the right edge.
    {
        let y = gy(r);
        let x = gx(c);
        fill(px, w, x, y, clampw(x, right - x), clamph(y, thick), colour);
    }
    // Down the left side of cell i.
    let x = gx(c);
    let y = gy(r);
    fill(px, w, x, y, clampw(x, thick), clamph(y, p + thick), colour);
    // Along the bottom of row r from the left edge to column c.
    let y2 = gy(r + 1);
    if y2 < bottom {
        fill(
            px,
            w,
            layout.x0,
            y2,
            clampw(layout.x0, x + thick - layout.x0),
            clamph(y2, thick),
            colour,
        );
    }
}

/// The boundary colour word.
pub fn boundary_colour(p: &Palette) -> u32 {
    p.boundary
}
/// The tail line's colour word.
pub fn tail_colour(p: &Palette) -> u32 {
    p.tail
}

/// The pixel words as bytes, for `ImageData`.
pub fn as_bytes(px: &[u32]) -> &[u8] {
    // SAFETY: u32 has no padding and u8 has alignment 1; the length covers the same memory.
    unsafe { std::slice::from_raw_parts(px.as_ptr() as *const u8, std::mem::size_of_val(px)) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_fit_and_every_cell_is_found_where_it_is_drawn() {
        for (w, h, n, dpr) in [
            (1232, 1000, 16_382, 1.0),
            (780, 844, 65_528, 2.0),
            (600, 400, 1_023, 1.0),
            (16, 16, 1, f64::NAN),
        ] {
            let l = Layout::new(w, h, n, dpr);
            assert!(l.height <= h.max(16) + l.y0, "{l:?}");
            assert!(
                l.cols * l.rows >= n && l.x0 + l.cols * l.pitch <= l.width,
                "{l:?}"
            );
            for i in (0..n).step_by((n as usize / 997).max(1)) {
                let (x, y) = l.origin(i);
                let c = l.pitch as f64 / 2.0;
                assert_eq!(l.cell_at(x as f64 + c, y as f64 + c), Some(i), "{l:?}");
            }
            assert_eq!(l.cell_at(-1.0, 0.0), None);
            assert_eq!(l.cell_at(l.width as f64 + 1.0, l.height as f64 + 1.0), None);
        }
    }

    #[test]
    fn render_paints_each_kind_in_its_own_colour() {
        let l = Layout::new(200, 200, 5, 1.0);
        let cells = [
            K_HOT,
            K_SCAN | OLD,
            K_FREE,
            K_SCAN | MARK_YOUNG | FLASH,
            K_FILLER,
        ];
        for dark in [false, true] {
            let pal = Palette::new(dark);
            let mut px = Vec::new();
            render(&mut px, &l, &cells, &pal);
            assert_eq!(px.len(), (l.width * l.height) as usize);
            let centre = |i: u32| {
                let (x, y) = l.origin(i);
                px[((y + l.pitch / 2) * l.width + x + l.pitch / 2) as usize]
            };
            let seen: Vec<u32> = (0..5).map(centre).collect();
            for a in 0..5 {
                for b in a + 1..5 {
                    assert_ne!(
                        seen[a], seen[b],
                        "cells {a} and {b} look alike (dark {dark})"
                    );
                }
            }
            assert_eq!(as_bytes(&px).len(), px.len() * 4);
        }
    }
}
