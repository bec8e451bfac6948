//! The article's "Beyond" figures: the side-by-side what-if pair (`ui::pair`, two runs in
//! lockstep whose state stays in WASM memory; the page reads each close-up as a `Float32Array`
//! view, as for one run), the scale curve and the phase heat map (drawn with `study::charts`
//! over plotters-canvas from the committed `www/data/` files, `ui::beyond`).

use super::charts::backend;
use crate::ui::beyond::{self, Committed, PhaseFigure, ScaleData, Source, WhatIfData};
use crate::ui::charts::SweepData;
use crate::ui::explorer::{Explorer, STRIDE};
use crate::ui::pair::{self, Pair};
use midpoint_lab::chart::{DARK, LIGHT};
use midpoint_lab::study::charts;
use plotters::prelude::IntoDrawingArea;
use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

fn js(e: impl std::fmt::Display) -> JsValue {
    JsValue::from_str(&e.to_string())
}

fn to_js<T: Serialize>(v: &T) -> Result<JsValue, JsValue> {
    serde_wasm_bindgen::to_value(v).map_err(js)
}

/// A committed `www/data/NAME.json` as the page's `JSON.parse` gave it.
fn committed<T: DeserializeOwned>(name: &str, data: JsValue) -> Result<Committed<T>, JsValue> {
    serde_wasm_bindgen::from_value(data).map_err(|e| js(format!("www/data/{name}.json: {e}")))
}

/// Stock MySQL 8.4 and one what-if side by side.
#[wasm_bindgen]
pub struct WhatIfPair {
    inner: Pair,
}

#[wasm_bindgen]
impl WhatIfPair {
    /// Both runs of `PAIR_PRESET`, the patched one with `what_if`, opening just before the scan
    /// phase's first LRU batch.
    #[wasm_bindgen(constructor)]
    pub fn new(what_if: &str) -> Result<WhatIfPair, JsValue> {
        let inner = Pair::new(what_if, super::explorer::perf_now).map_err(js)?;
        Ok(WhatIfPair { inner })
    }

    /// The preset both run.
    pub fn preset() -> String {
        pair::PAIR_PRESET.into()
    }

    fn side(&mut self, side: u32) -> &mut Explorer {
        if side == 0 {
            self.inner.stock()
        } else {
            self.inner.patched()
        }
    }

    /// One animation frame of both; returns `F_DIRTY | F_STATUS` bits.
    pub fn frame(&mut self, now_ms: f64) -> u32 {
        self.inner.frame(now_ms)
    }

    /// Play or pause both.
    pub fn toggle(&mut self) {
        self.inner.toggle()
    }

    /// One event in each.
    pub fn step(&mut self) {
        self.inner.step()
    }

    /// One event back in each.
    pub fn step_back(&mut self) {
        self.inner.step_back()
    }

    /// Watch the next refill and drain (stock leads, the patched run follows).
    pub fn watch(&mut self) {
        self.inner.watch()
    }

    /// Both back to the start.
    pub fn reset(&mut self) {
        self.inner.reset()
    }

    /// Both sides' figures, the mode and the caption.
    pub fn status(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.status())
    }

    /// Uses the dark palette in both.
    pub fn set_dark(&mut self, dark: bool) {
        self.inner.stock().set_dark(dark);
        self.inner.patched().set_dark(dark);
    }

    /// Turns highlights off in both (prefers-reduced-motion).
    pub fn set_reduced_motion(&mut self, on: bool) {
        self.inner.stock().set_reduced_motion(on);
        self.inner.patched().set_reduced_motion(on);
    }

    /// Lays side `side`'s close-up out (0: stock, 1: patched); returns its height.
    pub fn strip_resize(&mut self, side: u32, width: f64, max_height: f64) -> f64 {
        self.side(side).strip_resize(width, max_height)
    }

    /// Builds side `side`'s close-up for wall time `now_ms`; false when nothing in it changed.
    pub fn strip_update(&mut self, side: u32, now_ms: f64) -> bool {
        self.side(side).strip_update(now_ms)
    }

    /// Address of side `side`'s close-up cells in WASM memory (`strip_stride()` f32 each).
    pub fn strip_ptr(&mut self, side: u32) -> *const f32 {
        self.side(side).strip_view().as_ptr()
    }

    /// Number of f32 in side `side`'s close-up cells.
    pub fn strip_len(&mut self, side: u32) -> u32 {
        self.side(side).strip_view().len() as u32
    }

    /// Numbers per close-up cell.
    pub fn strip_stride() -> u32 {
        STRIDE as u32
    }

    /// What side `side`'s close-up draws besides its cells.
    pub fn strip_meta(&mut self, side: u32) -> Result<JsValue, JsValue> {
        to_js(self.side(side).strip_meta())
    }

    /// The frame under CSS pixel (x, y) of side `side`'s close-up, or −1.
    pub fn strip_frame_at(&mut self, side: u32, x: f64, y: f64) -> i32 {
        self.side(side)
            .strip_frame_at(x, y)
            .map(|f| f as i32)
            .unwrap_or(-1)
    }

    /// A sentence about frame `f` of side `side`.
    pub fn describe_frame(&mut self, side: u32, f: u32) -> String {
        self.side(side).describe_frame(f)
    }
}

#[derive(Serialize)]
struct Choices {
    choices: Vec<pair::Choice>,
    default: usize,
    provenance: String,
}

/// The what-ifs the pair offers, from `www/data/whatifs.json` (parsed), with the default (the
/// one that moves kept the most on the pair's preset); stock's kept is the stock default cell's
/// declared ensemble from `www/data/sweep.json` (parsed; `ui::cells`) when `sweep` is given.
#[wasm_bindgen]
pub fn whatif_choices(data: JsValue, sweep: JsValue) -> Result<JsValue, JsValue> {
    let c = committed::<WhatIfData>("whatifs", data)?;
    let stock = if sweep.is_undefined() || sweep.is_null() {
        None
    } else {
        crate::ui::cells::default_cell(&committed::<SweepData>("sweep", sweep)?.data)
    };
    let (choices, default) = pair::choices(&c.data.read, pair::PAIR_PRESET, stock.as_ref());
    to_js(&Choices {
        choices,
        default,
        provenance: beyond::provenance(&c),
    })
}

/// A committed data file's provenance ("computed by `…` at commit …"), from the parsed file.
#[wasm_bindgen]
pub fn data_provenance(name: &str, data: JsValue) -> Result<String, JsValue> {
    Ok(beyond::provenance(&committed::<Source>(name, data)?))
}

/// Draws the scale curve from `www/data/scale.json` (parsed); returns the rows drawn.
#[wasm_bindgen]
pub fn draw_scale(
    canvas: &HtmlCanvasElement,
    dpr: f64,
    data: JsValue,
    dark: bool,
) -> Result<u32, JsValue> {
    let c = committed::<ScaleData>("scale", data)?;
    let root = backend(canvas, dpr).map_err(js)?.into_drawing_area();
    charts::draw_scale(&root, &c.data.rows, if dark { DARK } else { LIGHT })
        .map(|n| n as u32)
        .map_err(js)
}

/// The scale figure in words (its canvas's `aria-label`), from `www/data/scale.json` (parsed).
#[wasm_bindgen]
pub fn describe_scale(data: JsValue) -> Result<String, JsValue> {
    Ok(committed::<ScaleData>("scale", data)?.data.describe())
}

/// The phase heat map: the committed map and the selected cell.
#[wasm_bindgen]
pub struct PhaseView {
    fig: PhaseFigure,
    selected: Option<(usize, usize)>,
}

#[wasm_bindgen]
impl PhaseView {
    /// From `www/data/phase.json` (parsed).
    #[wasm_bindgen(constructor)]
    pub fn new(data: JsValue) -> Result<PhaseView, JsValue> {
        Ok(PhaseView {
            fig: PhaseFigure::new(committed("phase", data)?).map_err(js)?,
            selected: None,
        })
    }

    /// Draws it on `canvas` (device pixels = CSS pixels × `dpr`), framing the selected cell.
    pub fn draw(&self, canvas: &HtmlCanvasElement, dpr: f64, dark: bool) -> Result<(), JsValue> {
        let root = backend(canvas, dpr).map_err(js)?.into_drawing_area();
        charts::draw_heatmap(
            &root,
            &self.fig.map,
            self.selected,
            if dark { DARK } else { LIGHT },
        )
        .map_err(js)
    }

    /// The cell [i, j] under CSS pixel (x, y) of a drawing `width` × `height`, or [].
    pub fn cell_at(&self, width: f64, height: f64, x: f64, y: f64) -> Vec<u32> {
        self.fig
            .cell_at(width, height, x, y)
            .map(|(i, j)| vec![i as u32, j as u32])
            .unwrap_or_default()
    }

    /// Selects cell (i, j) (clamped to the grid).
    pub fn select(&mut self, i: u32, j: u32) {
        self.selected = Some(self.fig.moved((i as usize, j as usize), 0, 0));
    }

    /// Moves the selection by (di, dj) (arrow keys; from the bottom-left cell if none);
    /// returns it as [i, j].
    pub fn move_selection(&mut self, di: i32, dj: i32) -> Vec<u32> {
        let (i, j) = match self.selected {
            Some(c) => self.fig.moved(c, di, dj),
            None => (0, 0),
        };
        self.selected = Some((i, j));
        vec![i as u32, j as u32]
    }

    /// The selected cell as [i, j], or [].
    pub fn selected(&self) -> Vec<u32> {
        self.selected
            .map(|(i, j)| vec![i as u32, j as u32])
            .unwrap_or_default()
    }

    /// A sentence about cell (i, j).
    pub fn describe(&self, i: u32, j: u32) -> String {
        self.fig.describe(i as usize, j as usize)
    }

    /// The lab's URL query for cell (i, j).
    pub fn query(&self, i: u32, j: u32) -> Result<String, JsValue> {
        self.fig.query(i as usize, j as usize).map_err(js)
    }

    /// Cells across and down.
    pub fn dims(&self) -> Vec<u32> {
        vec![
            self.fig.map.x_values.len() as u32,
            self.fig.map.y_values.len() as u32,
        ]
    }

    /// "computed by `…` at commit …".
    pub fn provenance(&self) -> String {
        self.fig.provenance.clone()
    }
}

/// The declared ensemble of the cell the page's settings are (`ui::cells`): the stock default
/// cell when `page` holds the committed sweep's base and runs; `undefined` otherwise.
#[wasm_bindgen]
pub fn declared_cell(sweep: JsValue, page: &super::page::Page) -> Result<JsValue, JsValue> {
    let s = committed::<SweepData>("sweep", sweep)?;
    let p = page.inner();
    match crate::ui::cells::cell_of(&s.data, p.params(), p.runs()) {
        Some(q) => to_js(&q),
        None => Ok(JsValue::UNDEFINED),
    }
}

/// The stock default cell's declared ensemble from `www/data/sweep.json` (parsed).
#[wasm_bindgen]
pub fn default_cell(sweep: JsValue) -> Result<JsValue, JsValue> {
    let s = committed::<SweepData>("sweep", sweep)?;
    match crate::ui::cells::default_cell(&s.data) {
        Some(q) => to_js(&q),
        None => Ok(JsValue::UNDEFINED),
    }
}
