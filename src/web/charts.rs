//! The two plots on a canvas, with the core's `chart::draw_residency` / `chart::draw_sweep`
//! over plotters-canvas, scaled for the screen's density by [`HiDpi`].

use crate::ui::charts::{HiDpi, PointIn, SweepData, SweepModel};
use crate::ui::explorer::Explorer;
use midpoint_core::scenario::Params;
use midpoint_lab::chart::{self, Published, DARK, LIGHT};
use midpoint_lab::experiments::seed000;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

pub(super) fn backend(
    canvas: &HtmlCanvasElement,
    dpr: f64,
) -> Result<HiDpi<CanvasBackend>, String> {
    let b = CanvasBackend::with_canvas_object(canvas.clone())
        .ok_or_else(|| "the canvas has no 2D context".to_string())?;
    Ok(HiDpi::new(b, dpr))
}

/// The smallest font the last chart drew (the residency plot, the sweep, the policies, the
/// Beyond figures, the write path's), in device pixels, or -1 if it drew no text: the page sets
/// `data-min-font-px` from it.
#[wasm_bindgen]
pub fn last_font_px() -> f64 {
    crate::ui::charts::min_font_drawn().unwrap_or(-1.0)
}

/// Draws an explorer's residency plot: hot-set residency and the scanned table's young pages
/// against time (the full run, or the samples so far over the previous run's curve, dimmed),
/// with a cursor at the explorer's time (if `cursor`: a figure that shows that moment too) and
/// the seed's measurements of that run; over an ensemble, the runs' median curve and band.
pub fn residency(
    canvas: &HtmlCanvasElement,
    dpr: f64,
    ex: &Explorer,
    dark: bool,
    cursor: bool,
) -> Result<(), String> {
    let root = backend(canvas, dpr)?.into_drawing_area();
    let p = ex.params();
    // Over several runs, their band behind the median curve (once the first run is there).
    let set = ex.run_set();
    let points = if ex.residency_info().0 {
        Vec::new()
    } else {
        set.band()
    };
    let band = Some(chart::Band {
        points: &points,
        runs: set.done() as usize,
    });
    let samples = ex.residency_samples();
    let refills = ex.residency_refills();
    let r = chart::Residency {
        ghost: ex.residency_ghost(),
        band,
        refills_s: &refills,
        published: ex.residency_published(),
        cursor_s: cursor.then(|| ex.t_s()),
        ..chart::Residency::new(
            &samples,
            p.hot_pages,
            p.frames_per_instance() * p.buffer_pool_instances.max(1),
            p.warmup_s as f64,
            (p.warmup_s + p.scan_s) as f64,
        )
    };
    chart::draw_residency(&root, &r, if dark { DARK } else { LIGHT }.bare())
}

/// The residency plot's key (its HTML legend beside the canvas): the entries the chart would
/// draw for what it draws now.
pub fn residency_key(ex: &Explorer, dark: bool) -> Vec<chart::KeyEntry> {
    let set = ex.run_set();
    let partial = ex.residency_info().0;
    let band = (!partial && set.done() >= 2).then_some(set.done() as usize);
    chart::residency_entries(
        !ex.residency_refills().is_empty(),
        !ex.residency_published().is_empty(),
        !ex.residency_ghost().is_empty(),
        band,
        if dark { DARK } else { LIGHT },
    )
}

/// The sweep's points as they arrive, and its drawing.
#[wasm_bindgen]
pub struct SweepView {
    model: SweepModel,
    /// The seed's measurements on the sweep's lines.
    published: Vec<Published>,
}

#[wasm_bindgen]
impl SweepView {
    /// An empty sweep of the run `params` over these scan depths and old_blocks_time values
    /// (ms).
    #[wasm_bindgen(constructor)]
    pub fn new(depths: Vec<u32>, times: Vec<u32>, params: JsValue) -> Result<SweepView, JsValue> {
        let p: Params = serde_wasm_bindgen::from_value(params)
            .map_err(|e| JsValue::from_str(&format!("bad parameters: {e}")))?;
        let model = SweepModel::new(depths, times).map_err(|e| JsValue::from_str(&e))?;
        Ok(SweepView {
            model,
            published: seed000::sweep_marks(&p),
        })
    }

    /// Fills every point from the committed sweep (`www/data/sweep.json`, parsed by the
    /// browser) if it is this sweep for `page`'s parameters and runs; returns whether it did.
    pub fn fill_committed(&mut self, data: JsValue, page: &super::page::Page) -> bool {
        match serde_wasm_bindgen::from_value::<crate::ui::beyond::Committed<SweepData>>(data) {
            Ok(c) => self
                .model
                .fill_committed(&c.data, page.inner().params(), page.inner().runs()),
            Err(_) => false,
        }
    }

    /// Records one computed point (kept as a fraction, 0..1).
    pub fn set(&mut self, depth: u32, time: u32, kept: f64) {
        self.model.set(depth, time, kept);
    }

    /// Records one computed point: a `SweepPoint` object as `sweep_point` returns it.
    pub fn set_point(&mut self, point: JsValue) -> Result<(), JsValue> {
        let p: PointIn = serde_wasm_bindgen::from_value(point)
            .map_err(|e| JsValue::from_str(&format!("bad sweep point: {e}")))?;
        self.model.set_point(&p);
        Ok(())
    }

    /// The sweep as CSV (the CLI's format: every parameter of `params` in the header; points
    /// not computed yet are `NaN`).
    pub fn to_csv(&self, params: JsValue) -> Result<String, JsValue> {
        let p: Params = serde_wasm_bindgen::from_value(params)
            .map_err(|e| JsValue::from_str(&format!("bad parameters: {e}")))?;
        Ok(self.model.to_csv(&p))
    }

    /// Each point's "kept" (NaN until computed), row-major: `[t * depths + d]`.
    pub fn kept(&self) -> Vec<f64> {
        self.model.kept()
    }

    /// Points computed so far.
    pub fn done(&self) -> u32 {
        self.model.done()
    }

    /// Which lines coincide, in words (empty when none do, or too few points are computed).
    pub fn coincidence(&self) -> String {
        chart::coincide::coinciding_lines(&self.model.result).unwrap_or_default()
    }

    /// Draws the sweep on `canvas` (device pixels = CSS pixels × `dpr`), marking the current
    /// depth and time; `highlight` (an old_blocks_time, or a negative number for none) brings
    /// that line forward.
    pub fn draw(
        &self,
        canvas: &HtmlCanvasElement,
        dpr: f64,
        depth: u32,
        time: u32,
        dark: bool,
        highlight: f64,
    ) -> Result<(), JsValue> {
        let root = backend(canvas, dpr)
            .map_err(|e| JsValue::from_str(&e))?
            .into_drawing_area();
        chart::draw_sweep(
            &root,
            &self.model.result,
            Some((depth, time)),
            &self.published,
            (highlight.is_finite() && highlight >= 0.0).then_some(highlight as u32),
            if dark { DARK } else { LIGHT }.bare(),
        )
        .map_err(|e| JsValue::from_str(&e))
    }

    /// The sweep's key (its HTML legend): the entries the chart would draw now.
    pub fn key(&self, dark: bool) -> Result<JsValue, JsValue> {
        serde_wasm_bindgen::to_value(&chart::sweep_entries(
            &self.model.result,
            &self.published,
            if dark { DARK } else { LIGHT },
        ))
        .map_err(|e| JsValue::from_str(&e.to_string()))
    }
}

/// Draws the policies figure: `rows` are objects with `policy`, `kept` and `miss_ratio` (as
/// `Policies::rows` returns them); the InnoDB group is outlined.
#[wasm_bindgen]
pub fn draw_policies(
    canvas: &HtmlCanvasElement,
    dpr: f64,
    rows: JsValue,
    dark: bool,
) -> Result<(), JsValue> {
    let bars: Vec<chart::policies::PolicyBar> = serde_wasm_bindgen::from_value(rows)
        .map_err(|e| JsValue::from_str(&format!("bad policy rows: {e}")))?;
    let root = backend(canvas, dpr)
        .map_err(|e| JsValue::from_str(&e))?
        .into_drawing_area();
    chart::policies::draw_policies(
        &root,
        &bars,
        Some("innodb"),
        if dark { DARK } else { LIGHT },
    )
    .map_err(|e| JsValue::from_str(&e))
}
