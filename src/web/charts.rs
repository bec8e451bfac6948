//! The two plots on a canvas, with the core's `chart::draw_residency` / `chart::draw_sweep`
//! over plotters-canvas. [`HiDpi`] lets those functions lay out in CSS pixels while the
//! canvas holds device pixels, so text and lines stay sharp on high-density screens.

use crate::chart::{self, DARK, LIGHT};
use crate::metrics::Sample;
use crate::scenario::Params;
use crate::sweep::{SweepPoint, SweepResult};
use plotters::prelude::*;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind, FontFamily,
    FontStyle, FontTransform,
};
use plotters_canvas::CanvasBackend;
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

/// A backend that scales every coordinate, stroke and font by `k` (device pixels per CSS
/// pixel): the chart code sees a canvas of CSS size.
pub struct HiDpi<B: DrawingBackend> {
    inner: B,
    k: f64,
}

impl<B: DrawingBackend> HiDpi<B> {
    /// Wraps `inner`, whose pixels are `k` times smaller than the chart's.
    pub fn new(inner: B, k: f64) -> Self {
        let k = if k.is_finite() && k > 0.0 { k } else { 1.0 };
        HiDpi { inner, k }
    }
    fn p(&self, c: BackendCoord) -> BackendCoord {
        (
            (c.0 as f64 * self.k).round() as i32,
            (c.1 as f64 * self.k).round() as i32,
        )
    }
    fn s<S: BackendStyle>(&self, style: &S) -> Stroke {
        Stroke {
            color: style.color(),
            width: ((style.stroke_width() as f64) * self.k).round().max(1.0) as u32,
        }
    }
}

struct Stroke {
    color: BackendColor,
    width: u32,
}

impl BackendStyle for Stroke {
    fn color(&self) -> BackendColor {
        self.color
    }
    fn stroke_width(&self) -> u32 {
        self.width
    }
}

struct Text<'a, T: BackendTextStyle> {
    inner: &'a T,
    k: f64,
}

impl<T: BackendTextStyle> BackendTextStyle for Text<'_, T> {
    type FontError = T::FontError;
    fn color(&self) -> BackendColor {
        self.inner.color()
    }
    fn size(&self) -> f64 {
        self.inner.size() * self.k
    }
    fn transform(&self) -> FontTransform {
        self.inner.transform()
    }
    fn style(&self) -> FontStyle {
        self.inner.style()
    }
    fn anchor(&self) -> plotters_backend::text_anchor::Pos {
        self.inner.anchor()
    }
    fn family(&self) -> FontFamily<'_> {
        self.inner.family()
    }
    fn layout_box(&self, text: &str) -> Result<((i32, i32), (i32, i32)), Self::FontError> {
        let ((a, b), (c, d)) = self.inner.layout_box(text)?;
        let k = self.k;
        let f = |v: i32| (v as f64 * k).round() as i32;
        Ok(((f(a), f(b)), (f(c), f(d))))
    }
    fn draw<E, F: FnMut(i32, i32, BackendColor) -> Result<(), E>>(
        &self,
        text: &str,
        pos: BackendCoord,
        draw: F,
    ) -> Result<Result<(), E>, Self::FontError> {
        self.inner.draw(text, pos, draw)
    }
}

impl<B: DrawingBackend> DrawingBackend for HiDpi<B> {
    type ErrorType = B::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        let (w, h) = self.inner.get_size();
        (
            (w as f64 / self.k).floor() as u32,
            (h as f64 / self.k).floor() as u32,
        )
    }
    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.ensure_prepared()
    }
    fn present(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.present()
    }
    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        let a = self.p(point);
        let b = self.p((point.0 + 1, point.1 + 1));
        self.inner.draw_rect(a, b, &color, true)
    }
    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        let st = self.s(style);
        self.inner.draw_line(self.p(from), self.p(to), &st)
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        let st = self.s(style);
        self.inner
            .draw_rect(self.p(upper_left), self.p(bottom_right), &st, fill)
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        let st = self.s(style);
        let pts: Vec<BackendCoord> = path.into_iter().map(|c| self.p(c)).collect();
        self.inner.draw_path(pts, &st)
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        let st = self.s(style);
        let r = (radius as f64 * self.k).round() as u32;
        self.inner.draw_circle(self.p(center), r, &st, fill)
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        let st = self.s(style);
        let pts: Vec<BackendCoord> = vert.into_iter().map(|c| self.p(c)).collect();
        self.inner.fill_polygon(pts, &st)
    }
    fn draw_text<TStyle: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &TStyle,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        let t = Text {
            inner: style,
            k: self.k,
        };
        self.inner.draw_text(text, &t, self.p(pos))
    }
}

fn backend(canvas: &HtmlCanvasElement, dpr: f64) -> Result<HiDpi<CanvasBackend>, String> {
    let b = CanvasBackend::with_canvas_object(canvas.clone())
        .ok_or_else(|| "the canvas has no 2D context".to_string())?;
    Ok(HiDpi::new(b, dpr))
}

/// One point of the residency time series, as the worker sends it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Point {
    /// Seconds since the warm-up started.
    pub t: f64,
    /// Hot-set pages resident.
    pub hot: u32,
    /// Scanned-table pages young.
    pub scan_young: u32,
}

/// The summary of a full run, computed in a worker.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RunData {
    /// Mean hot-set residency over the measurement window (0..1, NaN without samples).
    pub kept: f64,
    /// The window, seconds since the warm-up started.
    pub kept_window_s: [f64; 2],
    /// Scanned-table pages turned young per second of scanning, by the slide.
    pub slid_young_per_s: f64,
    /// ... by promotion from the old sublist.
    pub promoted_per_s: f64,
    /// Lookups per second during the scan phase.
    pub lookups_per_s: f64,
    /// Lookups per second during the warm-up.
    pub lookups_per_s_warmup: f64,
    /// Scan pages per second.
    pub scan_pages_per_s: f64,
    /// LRU batches that evicted pages during the scan phase.
    pub refills_during_scan: u64,
    /// Their mean size.
    pub mean_refill_pages: f64,
    /// Page accesses in the run.
    pub page_accesses: u64,
    /// Events in the run.
    pub events: u64,
    /// The time series (at most the requested number of points).
    pub points: Vec<Point>,
}

/// Draws hot-set residency and the scanned table's young pages against time.
pub fn residency(
    canvas: &HtmlCanvasElement,
    dpr: f64,
    samples: &[Sample],
    p: &Params,
    cursor_s: Option<f64>,
    dark: bool,
) -> Result<(), String> {
    let root = backend(canvas, dpr)?.into_drawing_area();
    chart::draw_residency(
        &root,
        samples,
        p.hot_pages,
        p.frames_per_instance() * p.buffer_pool_instances.max(1),
        p.warmup_s as f64,
        (p.warmup_s + p.scan_s) as f64,
        cursor_s,
        if dark { DARK } else { LIGHT },
    )
}

/// Converts worker points to samples for the chart.
pub fn samples_of(points: &[Point]) -> Vec<Sample> {
    points
        .iter()
        .map(|q| Sample {
            t_s: q.t,
            hot_resident: q.hot,
            scan_young: q.scan_young,
            ..Sample::default()
        })
        .collect()
}

/// A sweep point as `sweep_point` hands it to JavaScript (the core's type only serializes).
#[derive(Deserialize)]
struct PointJs {
    lru_scan_depth: u32,
    old_blocks_time: u32,
    kept: f64,
    young_leak_pages_per_s: f64,
    lookups_per_s: f64,
}

/// The sweep's points as they arrive, and its drawing.
#[wasm_bindgen]
pub struct SweepView {
    result: SweepResult,
}

#[wasm_bindgen]
impl SweepView {
    /// An empty sweep over these scan depths and old_blocks_time values (ms).
    #[wasm_bindgen(constructor)]
    pub fn new(depths: Vec<u32>, times: Vec<u32>) -> Result<SweepView, JsValue> {
        if depths.is_empty() || times.is_empty() {
            return Err(JsValue::from_str(
                "a sweep needs at least one depth and one time",
            ));
        }
        let mut points = Vec::new();
        for &t in &times {
            for &d in &depths {
                points.push(SweepPoint {
                    lru_scan_depth: d,
                    old_blocks_time: t,
                    kept: f64::NAN,
                    young_leak_pages_per_s: f64::NAN,
                    lookups_per_s: f64::NAN,
                });
            }
        }
        Ok(SweepView {
            result: SweepResult {
                base: Params::default(),
                depths,
                times,
                points,
            },
        })
    }

    /// Records one computed point (kept as a fraction, 0..1).
    pub fn set(&mut self, depth: u32, time: u32, kept: f64) {
        for q in &mut self.result.points {
            if q.lru_scan_depth == depth && q.old_blocks_time == time {
                q.kept = kept;
            }
        }
    }

    /// Records one computed point: a `SweepPoint` object as `sweep_point` returns it.
    pub fn set_point(&mut self, point: JsValue) -> Result<(), JsValue> {
        let p: PointJs = serde_wasm_bindgen::from_value(point)
            .map_err(|e| JsValue::from_str(&format!("bad sweep point: {e}")))?;
        for q in &mut self.result.points {
            if q.lru_scan_depth == p.lru_scan_depth && q.old_blocks_time == p.old_blocks_time {
                q.kept = p.kept;
                q.young_leak_pages_per_s = p.young_leak_pages_per_s;
                q.lookups_per_s = p.lookups_per_s;
            }
        }
        Ok(())
    }

    /// The sweep as CSV (the CLI's format: every parameter of `params` in the header; points
    /// not computed yet are `NaN`).
    pub fn to_csv(&self, params: JsValue) -> Result<String, JsValue> {
        let p: Params = serde_wasm_bindgen::from_value(params)
            .map_err(|e| JsValue::from_str(&format!("bad parameters: {e}")))?;
        let mut r = self.result.clone();
        r.base = p;
        Ok(r.to_csv())
    }

    /// Each point's "kept" (NaN until computed), row-major: `[t * depths + d]`.
    pub fn kept(&self) -> Vec<f64> {
        self.result.points.iter().map(|q| q.kept).collect()
    }

    /// Points computed so far.
    pub fn done(&self) -> u32 {
        self.result
            .points
            .iter()
            .filter(|q| q.kept.is_finite())
            .count() as u32
    }

    /// Draws the sweep on `canvas` (device pixels = CSS pixels × `dpr`), marking the current
    /// depth and time.
    pub fn draw(
        &self,
        canvas: &HtmlCanvasElement,
        dpr: f64,
        depth: u32,
        time: u32,
        dark: bool,
    ) -> Result<(), JsValue> {
        let root = backend(canvas, dpr)
            .map_err(|e| JsValue::from_str(&e))?
            .into_drawing_area();
        chart::draw_sweep(
            &root,
            &self.result,
            Some((depth, time)),
            if dark { DARK } else { LIGHT },
        )
        .map_err(|e| JsValue::from_str(&e))
    }
}
