//! The explorer's bindings: `crate::ui::explorer::Explorer` (the run under the page's control,
//! its playback, narration and grid) exported to JavaScript, with the browser's clock and the
//! canvas drawing of the grid, its labels and the residency plot.

#[cfg(feature = "full")]
use super::charts;
use crate::ui::explorer::{self as ui, Label};
use crate::ui::grid::{Layout, Palette};
#[cfg(feature = "full")]
use midpoint_lab::runs::RunData;
use wasm_bindgen::prelude::*;
#[cfg(feature = "full")]
use web_sys::HtmlCanvasElement;
use web_sys::{CanvasRenderingContext2d, ImageData};

/// `frame()` result: the grid changed and should be drawn.
pub const F_DIRTY: u32 = ui::F_DIRTY;
/// `frame()` result: the status (counters, narration, mode) changed.
pub const F_STATUS: u32 = ui::F_STATUS;

/// The browser's wall clock, ms.
pub(super) fn perf_now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or_else(js_sys::Date::now)
}

fn err(e: impl std::fmt::Display) -> JsValue {
    JsValue::from_str(&e.to_string())
}

/// Draws the labels as pills above their cells (12 CSS px, the page's smallest text); returns
/// the font's size in device pixels, or -1 with no label.
fn draw_labels(ctx: &CanvasRenderingContext2d, l: &Layout, pal: &Palette, labels: &[Label]) -> f64 {
    let k = l.dpr;
    let font = (12.0 * k).round();
    ctx.set_font(&format!("600 {font}px system-ui, sans-serif"));
    ctx.set_text_baseline("bottom");
    let (text, bg) = (pal.text_css(), pal.bg_css());
    for lab in labels {
        let (fg, bg) = if lab.inverted {
            (&bg, &text)
        } else {
            (&text, &bg)
        };
        let (x, y) = l.origin(lab.cell.min(l.n.saturating_sub(1)));
        let w = ctx
            .measure_text(lab.text)
            .map(|m| m.width())
            .unwrap_or(40.0);
        let pad = 3.0 * k;
        let mut x = x as f64 - l.gap as f64;
        x = x.min(l.width as f64 - w - 2.0 * pad).max(0.0);
        let y = (y as f64 - 1.0 * k).max(font + 2.0 * k);
        ctx.set_fill_style_str(bg);
        ctx.fill_rect(x, y - font - 2.0 * k, w + 2.0 * pad, font + 2.0 * k);
        ctx.set_fill_style_str(fg);
        let _ = ctx.fill_text(lab.text, x + pad, y);
    }
    if labels.is_empty() {
        -1.0
    } else {
        font
    }
}

/// One run of the simulator under the page's control.
#[wasm_bindgen]
pub struct Explorer {
    inner: ui::Explorer,
}

impl Explorer {
    /// The explorer itself, for the other bindings (the page's captions read its runs).
    #[cfg(feature = "full")]
    pub(crate) fn inner(&self) -> &ui::Explorer {
        &self.inner
    }
}

#[wasm_bindgen]
impl Explorer {
    /// A run with these parameters (a `Params` object), paused at the start of the warm-up.
    #[wasm_bindgen(constructor)]
    pub fn new(params: JsValue) -> Result<Explorer, JsValue> {
        let params = super::params_of(params)?;
        let inner = ui::Explorer::new(&params, perf_now).map_err(err)?;
        Ok(Explorer { inner })
    }

    /// Keeps at most the snapshot memory a widget showing `view` may use for stepping back.
    pub fn set_view_budget(&mut self, view: &str) {
        self.inner.set_snapshot_budget(ui::snapshot_budget(view));
    }

    /// Lays the grid out for a canvas `width` device pixels wide and at most `max_height`
    /// high; returns the height to give the canvas.
    pub fn resize(&mut self, width: u32, max_height: u32, dpr: f64) -> u32 {
        self.inner.resize(width, max_height, dpr)
    }

    /// Uses the dark palette (prefers-color-scheme: dark).
    pub fn set_dark(&mut self, dark: bool) {
        self.inner.set_dark(dark)
    }

    /// Turns highlights and the eviction animation off (prefers-reduced-motion).
    pub fn set_reduced_motion(&mut self, on: bool) {
        self.inner.set_reduced_motion(on)
    }

    /// Advances the current mode by one animation frame at wall time `now_ms`; returns
    /// `F_DIRTY | F_STATUS` bits (1: redraw the grid, 2: update the status).
    pub fn frame(&mut self, now_ms: f64) -> u32 {
        self.inner.frame(now_ms)
    }

    /// Draws the grid on `ctx` (its canvas sized by `resize`); returns the size of the labels'
    /// font in device pixels, or -1 if it drew none.
    pub fn draw(&mut self, ctx: &CanvasRenderingContext2d) -> Result<f64, JsValue> {
        let layout = *self.inner.layout();
        let img = ImageData::new_with_u8_clamped_array_and_sh(
            wasm_bindgen::Clamped(self.inner.render()),
            layout.width,
            layout.height,
        )?;
        ctx.put_image_data(&img, 0.0, 0.0)?;
        Ok(draw_labels(
            ctx,
            &layout,
            &self.inner.palette(),
            &self.inner.labels(),
        ))
    }

    /// For a page that shows no grid: the cells built (the status's counts) and the dirty flag
    /// cleared without drawing, so that a paused page rests.
    pub fn settle(&mut self) {
        self.inner.settle()
    }

    /// Starts playing at the current speed.
    pub fn play(&mut self) {
        self.inner.play()
    }

    /// Pauses whatever is running.
    pub fn pause(&mut self) {
        self.inner.pause()
    }

    /// Processes one event and describes it.
    pub fn step(&mut self) {
        self.inner.step()
    }

    /// Goes back one event (from a saved position, replaying if needed).
    pub fn step_back(&mut self) {
        self.inner.step_back()
    }

    /// Runs at full speed to just before the next LRU batch that evicts pages, then pauses.
    pub fn next_batch(&mut self) {
        self.inner.next_batch()
    }

    /// The boundary step: runs until `LRU_old` has moved by a twentieth of the refill (or to
    /// the drain's next beat); see `ui::explorer::steps`.
    pub fn step_boundary(&mut self) {
        self.inner.step_boundary()
    }

    /// Runs to the end of the current drain (or to the next LRU batch if none is under way).
    pub fn step_drain_end(&mut self) {
        self.inner.step_drain_end()
    }

    /// Runs to the next LRU batch, then shows its evictions and the drain that follows in
    /// slow motion, and pauses when the free list is empty again.
    pub fn watch(&mut self) {
        self.inner.watch()
    }

    /// Puts the view at the `k`-th frame of the current refill's drain (0: just after the
    /// batch; a read-ahead takes several at once, so it lands on the first read that has taken
    /// at least `k`); false when there is no drain to scrub. `status()` gives `drain_size` and
    /// `drain_k`.
    pub fn scrub_drain(&mut self, k: u32) -> bool {
        self.inner.scrub_drain(k)
    }

    /// Opens paused after `n` events (a link's `ev=`), seeking in chunks.
    pub fn seek_event(&mut self, n: f64) {
        self.inner.seek_event(n)
    }

    /// Opens at a figure's moment (a link's `at=`: `scan`, `batch` or `watch`), at once.
    pub fn open_at(&mut self, at: &str) {
        self.inner.open_at(at)
    }

    /// Seeks to `t` seconds since the warm-up started (after a parameter change).
    pub fn seek_time(&mut self, t_s: f64) {
        self.inner.seek_time(t_s)
    }

    /// Lets a second cursor run ahead in spare frame time and leave snapshots over the whole
    /// run, so that scrubbing the residency plot restores one and replays a little.
    pub fn set_scouting(&mut self, on: bool) {
        self.inner.set_scouting(on)
    }

    /// Holds the scout where it is while `held` (the page's workers are computing) or lets it
    /// go on; `scouted()` still says whether its snapshots reach the end.
    pub fn hold_scout(&mut self, held: bool) {
        self.inner.hold_scout(held)
    }

    /// Whether the snapshots reach the run's end (or scouting is off).
    pub fn scouted(&self) -> bool {
        self.inner.scouted()
    }

    /// Back to the start of the warm-up.
    pub fn reset(&mut self) {
        self.inner.reset()
    }

    /// Faster (+1) or slower (−1) by one speed step; returns the speed's label.
    pub fn change_speed(&mut self, delta: i32) -> String {
        self.inner.change_speed(delta)
    }

    /// Sets the speed by index (0 = 1/1000×, 6 = 100×).
    pub fn set_speed(&mut self, i: u32) {
        self.inner.set_speed(i)
    }

    /// The speed labels, slowest first.
    pub fn speed_labels() -> Vec<String> {
        ui::Explorer::speed_labels()
    }

    /// Counters, narration and mode, for the page.
    pub fn status(&self) -> Result<JsValue, JsValue> {
        serde_wasm_bindgen::to_value(&self.inner.status()).map_err(err)
    }

    /// Events processed so far.
    pub fn events(&self) -> f64 {
        self.inner.events()
    }

    /// Seconds since the warm-up started.
    pub fn t_s(&self) -> f64 {
        self.inner.t_s()
    }

    /// Address of the cell bytes in WASM memory (see `ui::grid`: table, old bit, marks), one
    /// per frame in LRU order then the free list; read them as a `Uint8Array` view.
    pub fn cells_ptr(&self) -> *const u8 {
        self.inner.cells().as_ptr()
    }

    /// Number of cell bytes.
    pub fn cells_len(&self) -> u32 {
        self.inner.cells().len() as u32
    }

    /// A sentence about the cell under device pixel (x, y) of the grid, or "" outside it.
    pub fn describe_cell(&self, x: f64, y: f64) -> String {
        self.inner.describe_cell(x, y)
    }

    /// Hands over the full run computed in a worker (for the residency plot and "kept").
    #[cfg(feature = "full")]
    pub fn set_run(&mut self, run: JsValue) -> Result<(), JsValue> {
        let r: RunData = serde_wasm_bindgen::from_value(run)
            .map_err(|e| JsValue::from_str(&format!("bad run data: {e}")))?;
        self.inner.set_run(r);
        Ok(())
    }

    /// Hands over run `index` (0: the first, as `set_run`) of the setting's ensemble of
    /// `total` runs, RNG seeds `seed`, `seed + 1`, …; the plot then draws their median curve
    /// and band.
    #[cfg(feature = "full")]
    pub fn set_member(&mut self, index: u32, total: u32, run: JsValue) -> Result<(), JsValue> {
        let r: RunData = serde_wasm_bindgen::from_value(run)
            .map_err(|e| JsValue::from_str(&format!("bad run data: {e}")))?;
        self.inner.set_member(index, total, r).map_err(err)
    }

    /// The ensemble's runs so far, for the caption (`midpoint_lab::run_set::RunSetSummary`).
    #[cfg(feature = "full")]
    pub fn run_set_summary(&self) -> Result<JsValue, JsValue> {
        serde_wasm_bindgen::to_value(&self.inner.run_set().summary()).map_err(err)
    }

    /// Appends samples the worker streamed (`[t_s, hot, scan_young]` triplets) while it
    /// computes the full run.
    #[cfg(feature = "full")]
    pub fn add_run_points(&mut self, points: &[f64]) -> Result<(), JsValue> {
        self.inner.add_run_points(points).map_err(err)
    }

    /// Keeps `prev`'s residency curve (the explorer these parameters replace), dimmed, until
    /// this one's full run arrives.
    pub fn keep_curve_of(&mut self, prev: &Explorer) {
        self.inner.keep_curve_of(&prev.inner);
    }

    /// Draws the residency plot with a cursor at the current time: the full run if the worker
    /// has sent it, else the samples streamed so far (or the explorer's own) over the previous
    /// parameters' curve, dimmed.
    #[cfg(feature = "full")]
    pub fn draw_residency(
        &self,
        canvas: &HtmlCanvasElement,
        dpr: f64,
        dark: bool,
        cursor: bool,
    ) -> Result<(), JsValue> {
        charts::residency(canvas, dpr, &self.inner, dark, cursor).map_err(err)
    }

    /// The residency plot's key (`[{label, kind, colour}]`), for what it draws now.
    #[cfg(feature = "full")]
    pub fn residency_key(&self, dark: bool) -> Result<JsValue, JsValue> {
        serde_wasm_bindgen::to_value(&charts::residency_key(&self.inner, dark)).map_err(err)
    }

    /// Lays the boundary close-up out for `width` × at most `max_height` CSS pixels; returns
    /// its height.
    pub fn strip_resize(&mut self, width: f64, max_height: f64) -> f64 {
        self.inner.strip_resize(width, max_height)
    }

    /// Builds the close-up for wall time `now_ms` (call once per animation frame it is shown);
    /// false when its cells and labels are those of the last call (nothing to repaint).
    pub fn strip_update(&mut self, now_ms: f64) -> bool {
        self.inner.strip_update(now_ms)
    }

    /// Address of the close-up's cells in WASM memory (`STRIDE` f32 each: frame, x, y, cell
    /// byte, flags, opacity, region, list position); read them as a `Float32Array` view.
    pub fn strip_ptr(&self) -> *const f32 {
        self.inner.strip_view().as_ptr()
    }

    /// Number of f32 in the close-up's cells.
    pub fn strip_len(&self) -> u32 {
        self.inner.strip_view().len() as u32
    }

    /// Numbers per cell of the close-up.
    pub fn strip_stride() -> u32 {
        ui::STRIDE as u32
    }

    /// What the close-up draws besides its cells (the boundary, counts, trails, layout).
    pub fn strip_meta(&self) -> Result<JsValue, JsValue> {
        serde_wasm_bindgen::to_value(self.inner.strip_meta()).map_err(err)
    }

    /// The frame under CSS pixel (x, y) of the close-up, or −1.
    pub fn strip_frame_at(&self, x: f64, y: f64) -> i32 {
        self.inner
            .strip_frame_at(x, y)
            .map(|f| f as i32)
            .unwrap_or(-1)
    }

    /// The frame under device pixel (x, y) of the grid, or −1.
    pub fn grid_frame_at(&self, x: f64, y: f64) -> i32 {
        self.inner
            .grid_frame_at(x, y)
            .map(|f| f as i32)
            .unwrap_or(-1)
    }

    /// Selects frame `f` in both views (−1: none).
    pub fn select_frame(&mut self, f: i32) {
        self.inner.select_frame((f >= 0).then_some(f as u32))
    }

    /// The selected frame, or −1.
    pub fn selected(&self) -> i32 {
        self.inner.selected().map(|f| f as i32).unwrap_or(-1)
    }

    /// Positions of the list each drawn grid cell stands for: 1 (a cell a frame) up to 65,536
    /// frames, more past it (the grid is then a summary).
    pub fn grid_per_cell(&self) -> u32 {
        self.inner.grid_per_cell()
    }

    /// Where frame `f` is drawn in the grid: [x, y, side] in device pixels, or [] if nowhere.
    pub fn grid_rect_of(&self, f: u32) -> Vec<f64> {
        match self.inner.grid_drawn_cell_of(f) {
            Some(i) if i < self.inner.layout().n => {
                let l = self.inner.layout();
                let (x, y) = l.origin(i);
                vec![x as f64, y as f64, (l.pitch - l.gap) as f64]
            }
            _ => Vec::new(),
        }
    }

    /// A sentence about frame `f` (the tooltip of a close-up cell).
    pub fn describe_frame(&self, f: u32) -> String {
        self.inner.describe_frame(f)
    }

    /// The time (s) under CSS pixel `x` of the residency plot (for click and drag to seek).
    #[cfg(feature = "full")]
    pub fn residency_time_at(&self, x: f64, css_width: f64, canvas_width: f64, scale: f64) -> f64 {
        self.inner
            .residency_time_at(x, css_width, canvas_width, scale)
    }

    /// The residency plot's data: [1 if partial (the full run has not arrived) else 0, samples].
    #[cfg(feature = "full")]
    pub fn residency_info(&self) -> Vec<f64> {
        let (partial, n) = self.inner.residency_info();
        vec![if partial { 1.0 } else { 0.0 }, n as f64]
    }

    /// The code panel's state: the lines the current event ran and the live variables.
    pub fn code_state(&self) -> Result<JsValue, JsValue> {
        serde_wasm_bindgen::to_value(&self.inner.code_state()).map_err(err)
    }
}

/// The `data-rule` name of each line of the code panel: one array of names per routine.
#[wasm_bindgen]
pub fn code_rules() -> Result<JsValue, JsValue> {
    use crate::ui::code::{rule_of, ROUTINES};
    let names: Vec<Vec<&str>> = ROUTINES
        .iter()
        .enumerate()
        .map(|(r, routine)| {
            (0..routine.lines.len())
                .map(|l| rule_of(r as u8, l as u8))
                .collect()
        })
        .collect();
    serde_wasm_bindgen::to_value(&names).map_err(err)
}

/// The terms the code panel's lines use, in words (`[term, meaning]` pairs).
#[wasm_bindgen]
pub fn code_terms() -> Result<JsValue, JsValue> {
    serde_wasm_bindgen::to_value(&crate::ui::code::TERMS[..]).map_err(err)
}

/// The code panel's routines (paraphrased pseudo-code).
#[wasm_bindgen]
pub fn code_routines() -> Result<JsValue, JsValue> {
    serde_wasm_bindgen::to_value(&crate::ui::code::ROUTINES[..]).map_err(err)
}
