//! The page's "Write path" section, bindings only: a write-path run in a Web Worker
//! ([`WriteRunner`], [`write_depth_point`]) and the section's drawings ([`WriteView`]) on
//! canvases. The logic (presets, the run's snapshots and summary, the trade-off's points, the
//! pool's pixels) is in [`crate::ui::write`].

use crate::ui::charts::HiDpi;
use crate::ui::grid::Layout;
use crate::ui::write::{self as page, WritePage, WriteRun, WriteSummary};
use midpoint_lab::chart;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use serde::Serialize;
use wasm_bindgen::prelude::*;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageData};

pub use crate::ui::write::{DEPTHS, W_CLEAN, W_DIRTY, W_FREE, W_OLD, W_WRITING};

fn js_err(s: impl std::fmt::Display) -> JsValue {
    JsValue::from_str(&s.to_string())
}

fn to_js<T: Serialize>(v: &T) -> Result<JsValue, JsValue> {
    serde_wasm_bindgen::to_value(v).map_err(js_err)
}

/// The write presets for the page's picker, with their scan depth and doublewrite pages.
#[wasm_bindgen]
pub fn write_presets() -> Result<JsValue, JsValue> {
    to_js(&page::page_presets())
}

/// A write-path run, advanced in slices, taking periodic snapshots of instance 0.
#[wasm_bindgen]
pub struct WriteRunner(WriteRun);

#[wasm_bindgen]
impl WriteRunner {
    /// A run of one of the page's write presets with `innodb_lru_scan_depth` and
    /// `innodb_doublewrite_pages` set.
    #[wasm_bindgen(constructor)]
    pub fn new(preset: &str, depth: u32, dblwr_pages: u32) -> Result<WriteRunner, JsValue> {
        WriteRun::build(preset, depth, dblwr_pages)
            .map(WriteRunner)
            .map_err(js_err)
    }

    /// Runs up to `max_events` more events; returns the share of virtual time done (1 = over).
    pub fn advance(&mut self, max_events: u32) -> Result<f64, JsValue> {
        self.0.run_slice(max_events).map_err(js_err)
    }

    /// The summary (counters, moments, doublewrite writes).
    pub fn result(&self) -> Result<JsValue, JsValue> {
        to_js(&self.0.summary())
    }

    /// Every moment's cells, concatenated (`frames` bytes each).
    pub fn cells(&self) -> Vec<u8> {
        self.0.cells().to_vec()
    }
}

/// One point of the trade-off: `writeheavy-depth-*` at this depth (a full run).
#[wasm_bindgen]
pub fn write_depth_point(depth: u32) -> Result<JsValue, JsValue> {
    to_js(&page::depth_point(depth).map_err(js_err)?)
}

/// The section's drawings: the pool at a moment, the doublewrite chart, the trade-off.
#[wasm_bindgen]
#[derive(Default)]
pub struct WriteView {
    page: WritePage,
    px: Vec<u32>,
}

#[wasm_bindgen]
impl WriteView {
    /// An empty view (no run, no trade-off points).
    #[wasm_bindgen(constructor)]
    pub fn new() -> WriteView {
        WriteView::default()
    }

    /// The trade-off's depths.
    pub fn depths() -> Vec<u32> {
        DEPTHS.to_vec()
    }

    /// Takes a finished run: its result object and its cells.
    pub fn set_run(&mut self, result: JsValue, cells: Vec<u8>) -> Result<(), JsValue> {
        let s: WriteSummary = serde_wasm_bindgen::from_value(result)
            .map_err(|e| js_err(format!("bad write run: {e}")))?;
        self.page.set_run(s, cells).map_err(js_err)
    }

    /// Moments in the run (0 without one).
    pub fn moments(&self) -> u32 {
        self.page.moments()
    }

    /// Records one trade-off point (as `write_depth_point` returns it).
    pub fn set_depth_point(&mut self, point: JsValue) -> Result<(), JsValue> {
        let p = serde_wasm_bindgen::from_value(point)
            .map_err(|e| js_err(format!("bad depth point: {e}")))?;
        self.page.set_depth_point(p);
        Ok(())
    }

    /// Trade-off points computed.
    pub fn depth_done(&self) -> u32 {
        self.page.depth_done()
    }

    /// Draws instance 0 at moment `k` on a canvas `width` device pixels wide (at most
    /// `max_height` high); returns the canvas height used.
    // Exported to JavaScript as it is: one call per frame with plain values.
    #[allow(clippy::too_many_arguments)]
    pub fn draw_pool(
        &mut self,
        canvas: &HtmlCanvasElement,
        ctx: &CanvasRenderingContext2d,
        k: u32,
        width: u32,
        max_height: u32,
        dpr: f64,
        dark: bool,
    ) -> Result<u32, JsValue> {
        let layout = Layout::new(width, max_height, self.page.frames().max(1), dpr);
        canvas.set_width(layout.width);
        canvas.set_height(layout.height);
        page::render_cells(&mut self.px, &layout, self.page.cells_at(k), dark);
        let bytes: &[u8] = crate::ui::grid::as_bytes(&self.px);
        let img = ImageData::new_with_u8_clamped_array_and_sh(
            wasm_bindgen::Clamped(bytes),
            layout.width,
            layout.height,
        )?;
        ctx.put_image_data(&img, 0.0, 0.0)?;
        let t = page::theme(dark).text;
        ctx.set_fill_style_str(&format!("rgb({},{},{})", t.0, t.1, t.2));
        ctx.set_font(&format!("{}px sans-serif", (12.0 * layout.dpr).round()));
        ctx.set_text_baseline("top");
        let _ = ctx.fill_text(
            "LRU head (young) → tail (old), then free frames",
            layout.x0 as f64,
            1.0,
        );
        Ok(layout.height)
    }

    /// Moment `k` as text: time, dirty, being written, free, old.
    pub fn moment(&self, k: u32) -> Result<JsValue, JsValue> {
        to_js(&self.page.moment(k))
    }

    /// Draws the doublewrite chart, with a cursor at moment `k`.
    pub fn draw_dblwr(
        &self,
        canvas: &HtmlCanvasElement,
        dpr: f64,
        k: u32,
        dark: bool,
    ) -> Result<(), JsValue> {
        let b = CanvasBackend::with_canvas_object(canvas.clone())
            .ok_or_else(|| js_err("the canvas has no 2D context"))?;
        let root = HiDpi::new(b, dpr).into_drawing_area();
        let (writes, cap, end, cursor) = self.page.dblwr(k);
        chart::write::draw_dblwr_fill(&root, &writes, cap, end, cursor, page::theme(dark))
            .map_err(js_err)
    }

    /// Draws the trade-off, ringing `current` depth.
    pub fn draw_depth(
        &self,
        canvas: &HtmlCanvasElement,
        dpr: f64,
        current: u32,
        dark: bool,
    ) -> Result<(), JsValue> {
        let b = CanvasBackend::with_canvas_object(canvas.clone())
            .ok_or_else(|| js_err("the canvas has no 2D context"))?;
        let root = HiDpi::new(b, dpr).into_drawing_area();
        chart::write::draw_depth_tradeoff(
            &root,
            DEPTHS,
            self.page.depths(),
            Some(current),
            page::theme(dark),
        )
        .map_err(js_err)
    }

    /// The trade-off's points as CSV-like rows for the data table: depth, tps with scan, tps
    /// without, waits/s (NaN until computed), flattened.
    pub fn depth_rows(&self) -> Vec<f64> {
        self.page.depth_rows()
    }
}
