//! What the page's plots draw, prepared without a browser: the worker's summary of a run
//! ([`RunData`]), the sweep filled in as its points arrive ([`SweepModel`]), and [`HiDpi`], a
//! plotters backend wrapper that lets the core's chart code lay out in CSS pixels on a canvas
//! that holds device pixels.

use midpoint_core::metrics::Sample;
use midpoint_core::scenario::Params;

use midpoint_lab::sweep::{SweepPoint, SweepResult};
use plotters::prelude::*;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind, FontFamily,
    FontStyle, FontTransform,
};
use serde::Deserialize;

use midpoint_lab::run_set::RunSet;
use midpoint_lab::runs::{samples_of, RunData};

/// A backend that scales every coordinate, stroke and font by `k` (device pixels per CSS
/// pixel): the chart code sees a canvas of CSS size.
pub struct HiDpi<B: DrawingBackend> {
    inner: B,
    k: f64,
}

thread_local! {
    /// The smallest font the last chart drew, in the canvas's pixels (`HiDpi::new` starts a
    /// chart afresh; infinity: no text yet).
    static MIN_FONT: std::cell::Cell<f64> = const { std::cell::Cell::new(f64::INFINITY) };
}

/// The smallest font the last chart drawn through a [`HiDpi`] backend used, in the canvas's
/// (device) pixels; `None` if it drew no text. The page divides by the screen's density to say
/// it in CSS pixels (`data-min-font-px`).
pub fn min_font_drawn() -> Option<f64> {
    let m = MIN_FONT.with(|c| c.get());
    m.is_finite().then_some(m)
}

impl<B: DrawingBackend> HiDpi<B> {
    /// Wraps `inner`, whose pixels are `k` times smaller than the chart's.
    pub fn new(inner: B, k: f64) -> Self {
        let k = if k.is_finite() && k > 0.0 { k } else { 1.0 };
        MIN_FONT.with(|c| c.set(f64::INFINITY));
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
        if !text.trim().is_empty() {
            let px = t.size();
            MIN_FONT.with(|c| c.set(c.get().min(px)));
        }
        self.inner.draw_text(text, &t, self.p(pos))
    }
}

/// What the residency plot shows of the full run: the worker's summary once it is over, or
/// until then the samples it has streamed, with the previous run's curve kept behind them
/// (dimmed) so that the plot is never blank while a slider moves.
/// With an ensemble (`midpoint_lab::run_set`), the first run is the one streamed; the others arrive
/// whole and turn the curve into their median with a band.
#[derive(Clone, Debug, Default)]
pub struct Curve {
    run: Option<RunData>,
    streamed: Vec<Sample>,
    ghost: Vec<Sample>,
    /// Every run of the setting that has arrived, the first included.
    set: RunSet,
}

impl Curve {
    /// The finished run: it replaces the streamed samples and the previous curve.
    pub fn set_run(&mut self, run: RunData) {
        if self.set.total() == 0 {
            self.set = RunSet::new(1);
        }
        // The first run is also the ensemble's first (a one-run set has nowhere else).
        let _ = self.set.set(0, run.clone());
        self.run = Some(run);
        self.streamed.clear();
        self.ghost.clear();
    }

    /// Records the run at `index` of an ensemble of `total` runs (0: the first, as
    /// [`Curve::set_run`]).
    pub fn set_member(&mut self, index: u32, total: u32, run: RunData) -> Result<(), String> {
        if index == 0 {
            self.set.resize(total);
            self.set_run(run);
            return Ok(());
        }
        self.set.resize(total);
        self.set.set(index, run)
    }

    /// The ensemble's runs so far.
    pub fn set(&self) -> &RunSet {
        &self.set
    }

    /// Appends streamed samples, `[t_s, hot_resident, scan_young]` triplets in time order
    /// (`ui::live::LiveRuns::take_points`). Refuses a ragged or non-finite list, and ignores
    /// samples once the finished run is there.
    pub fn add_points(&mut self, flat: &[f64]) -> Result<(), String> {
        if flat.len() % 3 != 0 || flat.iter().any(|x| !x.is_finite()) {
            return Err(format!(
                "bad streamed samples: {} numbers, expected finite triplets",
                flat.len()
            ));
        }
        if self.run.is_some() {
            return Ok(());
        }
        self.streamed.extend(flat.chunks_exact(3).map(|c| Sample {
            t_s: c[0],
            hot_resident: c[1] as u32,
            scan_young: c[2] as u32,
            ..Sample::default()
        }));
        Ok(())
    }

    /// Keeps `prev`'s curve behind this one until this run is over: its finished run, else
    /// the curve it kept, else what it had streamed.
    pub fn follow(&mut self, prev: &Curve) {
        self.ghost = match &prev.run {
            Some(r) => samples_of(&r.points),
            None if !prev.ghost.is_empty() => prev.ghost.clone(),
            None => prev.streamed.clone(),
        };
    }

    /// The finished run, once the worker has sent it.
    pub fn run(&self) -> Option<&RunData> {
        self.run.as_ref()
    }

    /// The samples streamed so far (empty once the run is finished).
    pub fn streamed(&self) -> &[Sample] {
        &self.streamed
    }

    /// The previous run's curve, drawn dimmed (empty once this run is finished).
    pub fn ghost(&self) -> &[Sample] {
        &self.ghost
    }
}

/// A sweep point as `sweep_point` hands it to JavaScript (the core's type only serializes).
#[derive(Clone, Debug, Deserialize)]
pub struct PointIn {
    pub lru_scan_depth: u32,
    pub old_blocks_time: u32,
    pub kept: f64,
    pub young_leak_pages_per_s: f64,
    pub lookups_per_s: f64,
    /// Over several runs per point: kept's range, [min, max].
    #[serde(default)]
    pub kept_range: Option<[f64; 2]>,
}

/// The sweep's grid, filled in as its points arrive (NaN until computed).
#[derive(Clone, Debug)]
pub struct SweepModel {
    pub result: SweepResult,
}

impl SweepModel {
    /// An empty sweep over these scan depths and old_blocks_time values (ms).
    pub fn new(depths: Vec<u32>, times: Vec<u32>) -> Result<SweepModel, String> {
        if depths.is_empty() || times.is_empty() {
            return Err("a sweep needs at least one depth and one time".into());
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
                    kept_range: None,
                });
            }
        }
        Ok(SweepModel {
            result: SweepResult {
                base: Params::default(),
                depths,
                times,
                points,
            },
        })
    }

    /// Records one computed point's "kept" (a fraction, 0..1).
    pub fn set(&mut self, depth: u32, time: u32, kept: f64) {
        for q in &mut self.result.points {
            if q.lru_scan_depth == depth && q.old_blocks_time == time {
                q.kept = kept;
            }
        }
    }

    /// Records one computed point in full.
    pub fn set_point(&mut self, p: &PointIn) {
        for q in &mut self.result.points {
            if q.lru_scan_depth == p.lru_scan_depth && q.old_blocks_time == p.old_blocks_time {
                q.kept = p.kept;
                q.young_leak_pages_per_s = p.young_leak_pages_per_s;
                q.lookups_per_s = p.lookups_per_s;
                q.kept_range = p.kept_range;
            }
        }
    }

    /// The sweep as CSV (the CLI's format: every parameter of `p` in the header).
    pub fn to_csv(&self, p: &Params) -> String {
        let mut r = self.result.clone();
        r.base = p.clone();
        r.to_csv()
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

    /// Fills every point from the committed sweep (`www/data/sweep.json`) if it is this sweep:
    /// the same parameters but the two it varies, the same depths and times, `runs` runs per
    /// point. Returns whether it did.
    pub fn fill_committed(&mut self, data: &SweepData, params: &Params, runs: u32) -> bool {
        let free = |p: &Params| Params {
            lru_scan_depth: 0,
            old_blocks_time: 0,
            ..p.clone()
        };
        if free(&data.base) != free(params)
            || data.runs != runs
            || data.depths != self.result.depths
            || data.times != self.result.times
            || data.points.len() != self.result.points.len()
        {
            return false;
        }
        for p in &data.points {
            self.set_point(p);
        }
        self.done() as usize == self.result.points.len()
    }
}

/// The committed sweep the page opens drawn with (`www/data/sweep.json`): `midpoint sweep
/// --json`'s output, with the runs per point it was computed with.
#[derive(Clone, Debug, Deserialize)]
pub struct SweepData {
    pub base: Params,
    pub depths: Vec<u32>,
    pub times: Vec<u32>,
    pub runs: u32,
    pub points: Vec<PointIn>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use midpoint_core::scenario::preset;
    use midpoint_lab::runs::{run_data, Run};

    fn small() -> Params {
        Params {
            warmup_s: 5,
            scan_s: 20,
            kept_window_s: 10,
            ..preset("small-demo").unwrap().params
        }
    }

    #[test]
    fn a_curve_streams_keeps_the_previous_one_and_is_replaced_by_the_finished_run() {
        let mut r = Run::new(&small()).unwrap();
        while r.advance(50_000) < 1.0 {}
        let d = run_data(&r.sim, 50);
        let mut first = Curve::default();
        first.add_points(&[0.0, 10.0, 1.0]).unwrap();
        assert_eq!(first.streamed().len(), 1);
        first.set_run(d.clone());
        assert!(first.streamed().is_empty() && first.ghost().is_empty());
        first.add_points(&[1.0, 2.0, 3.0]).unwrap();
        assert!(
            first.streamed().is_empty(),
            "late samples of a finished run are ignored"
        );

        let mut next = Curve::default();
        next.follow(&first);
        assert_eq!(next.ghost().len(), d.points.len());
        assert!(next.run().is_none());
        assert!(next.add_points(&[1.0, 2.0]).is_err());
        assert!(next.add_points(&[1.0, f64::NAN, 2.0]).is_err());
        next.add_points(&[0.0, 100.0, 0.0, 1.0, 99.0, 5.0]).unwrap();
        assert_eq!(next.streamed()[1].hot_resident, 99);
        assert_eq!(next.streamed()[1].scan_young, 5);

        // A third value before the second finished keeps the first's curve.
        let mut third = Curve::default();
        third.follow(&next);
        assert_eq!(third.ghost().len(), d.points.len());
        let mut fourth = Curve::default();
        fourth.follow(&Curve::default());
        assert!(fourth.ghost().is_empty());
        fourth.follow(&next.clone());
        next.set_run(d);
        assert!(next.ghost().is_empty());
    }

    #[test]
    fn sweep_model_fills_in_and_writes_csv() {
        assert!(SweepModel::new(vec![], vec![0]).is_err());
        let mut m = SweepModel::new(vec![100, 1024], vec![0, 1000]).unwrap();
        assert_eq!(m.done(), 0);
        m.set(1024, 0, 0.25);
        m.set_point(&PointIn {
            lru_scan_depth: 100,
            old_blocks_time: 1000,
            kept: 0.9,
            young_leak_pages_per_s: 3.0,
            lookups_per_s: 5.0,
            kept_range: Some([0.8, 0.95]),
        });
        assert_eq!(m.done(), 2);
        let k = m.kept();
        assert_eq!(k[1], 0.25);
        assert_eq!(k[2], 0.9);
        assert_eq!(m.result.points[2].kept_range, Some([0.8, 0.95]));
        assert_eq!(m.result.points[1].kept_range, None);
        assert!(k[0].is_nan() && k[3].is_nan());
        let csv = m.to_csv(&small());
        assert!(csv.contains("# lru_scan_depth="), "{csv}");
        assert!(csv.contains("\n100,1000,"), "{csv}");
    }

    #[test]
    fn hidpi_scales_what_it_draws() {
        let mut a = String::new();
        let mut b = String::new();
        for (k, out) in [(1.0, &mut a), (2.0, &mut b)] {
            let svg = plotters::backend::SVGBackend::with_string(out, (400, 200));
            let root = HiDpi::new(svg, k).into_drawing_area();
            assert_eq!(
                root.dim_in_pixel(),
                ((400.0 / k) as u32, (200.0 / k) as u32)
            );
            root.draw(&Rectangle::new([(10, 10), (50, 40)], BLACK.filled()))
                .unwrap();
            root.present().unwrap();
        }
        assert!(a.contains("x=\"10\"") && a.contains("width=\"40\""), "{a}");
        assert!(b.contains("x=\"20\"") && b.contains("width=\"80\""), "{b}");
    }

    #[test]
    fn hidpi_reports_the_smallest_font_a_chart_drew() {
        let mut out = String::new();
        {
            let svg = plotters::backend::SVGBackend::with_string(&mut out, (800, 500));
            let root = HiDpi::new(svg, 2.0).into_drawing_area();
            assert_eq!(min_font_drawn(), None, "a new chart has drawn no text");
            let sweep = SweepModel::new(vec![100, 1024], vec![0, 1000]).unwrap();
            midpoint_lab::chart::draw_sweep(
                &root,
                &sweep.result,
                None,
                &[],
                None,
                midpoint_lab::chart::LIGHT,
            )
            .unwrap();
            root.present().unwrap();
        }
        // The chart code's 12 px labels, at 2 device pixels per CSS pixel.
        assert_eq!(min_font_drawn(), Some(24.0));
    }
}

/// Left and right edges of the residency plot's data area, in the plot's logical pixels, for
/// a plot `width` logical pixels wide (`chart::draw_residency`: an 8-pixel margin and a
/// 44-pixel y-label area on the left, the margin on the right).
pub const RESIDENCY_LEFT: f64 = 8.0 + 44.0;
/// See [`RESIDENCY_LEFT`].
pub const RESIDENCY_RIGHT_MARGIN: f64 = 8.0;

/// The time (s since the warm-up started) under logical x `x` of a residency plot `width`
/// logical pixels wide whose axis ends at `end_s`, clamped to the axis.
pub fn residency_time_at(x: f64, width: f64, end_s: f64) -> f64 {
    let span = (width - RESIDENCY_LEFT - RESIDENCY_RIGHT_MARGIN).max(1.0);
    let f = ((x - RESIDENCY_LEFT) / span).clamp(0.0, 1.0);
    if f.is_finite() {
        f * end_s.max(1.0)
    } else {
        0.0
    }
}

#[cfg(test)]
mod seek_tests {
    use super::*;

    #[test]
    fn a_click_on_the_residency_plot_maps_to_its_time_axis() {
        assert_eq!(residency_time_at(RESIDENCY_LEFT, 500.0, 210.0), 0.0);
        assert_eq!(
            residency_time_at(500.0 - RESIDENCY_RIGHT_MARGIN, 500.0, 210.0),
            210.0
        );
        let mid = RESIDENCY_LEFT + (500.0 - RESIDENCY_LEFT - RESIDENCY_RIGHT_MARGIN) / 2.0;
        assert!((residency_time_at(mid, 500.0, 210.0) - 105.0).abs() < 1e-9);
        assert_eq!(residency_time_at(-5.0, 500.0, 210.0), 0.0);
        assert_eq!(residency_time_at(f64::NAN, 500.0, 210.0), 0.0);
    }
}
