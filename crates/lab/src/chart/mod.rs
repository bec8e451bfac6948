//! Charts, drawn with plotters over any `DrawingBackend`: the same code renders on a canvas in
//! the page and to SVG in the CLI and the tests.

use crate::ensemble::BandPoint;
use midpoint_core::metrics::Sample;
use plotters::chart::{DualCoordChartContext, MeshStyle};
use plotters::coord::ranged1d::ValueFormatter;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use serde::Serialize;

pub mod coincide;
pub mod policies;
mod sweep;
pub mod write;
pub use sweep::{depth_ticks, draw_sweep, sweep_entries, sweep_svg, SWEEP_RANGE_LEGEND};

/// Colours shared with the page: hot set, scanned table, filler, free.
pub const HOT: RGBColor = RGBColor(0xd9, 0x5f, 0x02);
/// Scanned table.
pub const SCAN: RGBColor = RGBColor(0x1b, 0x6f, 0xb5);
/// Filler table.
pub const FILLER: RGBColor = RGBColor(0x7a, 0x7a, 0x7a);
/// Line colours for the sweep, colour-blind safe (Okabe-Ito).
pub const LINES: [RGBColor; 6] = [
    RGBColor(0x00, 0x72, 0xb2),
    RGBColor(0xe6, 0x9f, 0x00),
    RGBColor(0x00, 0x9e, 0x73),
    RGBColor(0xcc, 0x79, 0xa7),
    RGBColor(0xd5, 0x5e, 0x00),
    RGBColor(0x56, 0xb4, 0xe9),
];

/// Text and axis colours (light or dark theme).
#[derive(Clone, Copy, Debug)]
pub struct Theme {
    pub background: RGBColor,
    pub text: RGBColor,
    pub grid: RGBColor,
    /// Whether a chart draws its title and its legend above the data (an SVG of the CLI); the
    /// page's figures draw neither (`bare`): their title and key are HTML beside the canvas,
    /// from the same entries ([`residency_entries`], [`sweep_entries`]).
    pub chrome: bool,
}

impl Theme {
    /// This theme without a chart's title and legend.
    pub fn bare(self) -> Theme {
        Theme {
            chrome: false,
            ..self
        }
    }
}

/// The light theme.
pub const LIGHT: Theme = Theme {
    background: RGBColor(255, 255, 255),
    text: RGBColor(0x22, 0x22, 0x22),
    grid: RGBColor(0xdd, 0xdd, 0xdd),
    chrome: true,
};
/// The dark theme.
pub const DARK: Theme = Theme {
    background: RGBColor(0x1e, 0x1f, 0x22),
    text: RGBColor(0xe8, 0xe8, 0xe8),
    grid: RGBColor(0x44, 0x46, 0x4a),
    chrome: true,
};

pub(crate) fn e<E: std::fmt::Debug>(x: E) -> String {
    format!("chart: {x:?}")
}

/// A filled diamond of half-width `r` pixels centred on `c`, in any coordinate (a macro: the
/// composed element's type cannot be named outside plotters).
macro_rules! diamond {
    ($c:expr, $r:expr, $color:expr) => {
        EmptyElement::at($c)
            + Polygon::new(vec![(0, -$r), ($r, 0), (0, $r), (-$r, 0)], $color.filled())
    };
}

pub(crate) fn label_font(theme: Theme) -> TextStyle<'static> {
    ("sans-serif", 12).into_font().color(&theme.text)
}

/// How a legend entry shows its series.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Key {
    Line(RGBColor),
    Dashed(RGBColor),
    /// A short vertical mark.
    Tick(RGBColor),
    /// A published measurement: a diamond on a short vertical bar.
    Measured(RGBColor),
    /// A line drawn faded (a previous result kept while the new one computes).
    Faded(RGBColor),
    /// A filled band (the spread of an ensemble's runs).
    Band(RGBColor),
}

/// Text and stroke of one legend entry.
pub(crate) type Entry = (String, Key);

/// A legend entry as the page's HTML key draws it: its words, how its series is drawn
/// (`line`, `dashed`, `tick`, `measured`, `faded`, `band`) and its colour (`#rrggbb`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KeyEntry {
    pub label: String,
    pub kind: &'static str,
    pub colour: String,
}

/// The entries as the page's key shows them.
pub(crate) fn key_entries(entries: &[Entry]) -> Vec<KeyEntry> {
    let hex = |c: RGBColor| format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2);
    entries
        .iter()
        .map(|(label, key)| {
            let (kind, c) = match *key {
                Key::Line(c) => ("line", c),
                Key::Dashed(c) => ("dashed", c),
                Key::Tick(c) => ("tick", c),
                Key::Measured(c) => ("measured", c),
                Key::Faded(c) => ("faded", c),
                Key::Band(c) => ("band", c),
            };
            KeyEntry {
                label: label.clone(),
                kind,
                colour: hex(c),
            }
        })
        .collect()
}

/// Height of one legend row, in pixels.
const LEGEND_ROW: i32 = 16;

/// Lays the entries out left to right from `left`, wrapping at `width`: each entry's row and x.
fn legend_layout<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[Entry],
    left: i32,
    theme: Theme,
) -> Vec<(i32, i32)> {
    let width = area.dim_in_pixel().0 as i32;
    let font = label_font(theme);
    let (mut row, mut x) = (0, left);
    let mut out = Vec::with_capacity(entries.len());
    for (label, _) in entries {
        let w = 22
            + area
                .estimate_text_size(label, &font)
                .map_or(0, |s| s.0 as i32)
            + 14;
        if x > left && x + w > width - 8 {
            row += 1;
            x = left;
        }
        out.push((row, x));
        x += w;
    }
    out
}

/// Draws the caption and, under it, the series legend in its own band above the data (never
/// over it); returns the area left for the chart.
pub(crate) fn titled_with_legend<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    caption: &str,
    entries: &[Entry],
    left: i32,
    theme: Theme,
) -> Result<DrawingArea<DB, Shift>, String> {
    if !theme.chrome {
        return Ok(root.clone());
    }
    let body = root.titled(caption, caption_font(theme)).map_err(e)?;
    if entries.is_empty() {
        return Ok(body);
    }
    let layout = legend_layout(&body, entries, left, theme);
    let rows = layout.iter().map(|l| l.0).max().unwrap_or(0) + 1;
    let (band, rest) = body.split_vertically(rows * LEGEND_ROW + 2);
    let font = label_font(theme).pos(Pos::new(HPos::Left, VPos::Center));
    for ((label, key), &(row, x)) in entries.iter().zip(&layout) {
        let y = row * LEGEND_ROW + LEGEND_ROW / 2;
        match *key {
            Key::Line(c) => band
                .draw(&PathElement::new(
                    vec![(x, y), (x + 16, y)],
                    c.stroke_width(2),
                ))
                .map_err(e)?,
            Key::Tick(c) => band
                .draw(&PathElement::new(
                    vec![(x + 8, y - 5), (x + 8, y + 5)],
                    c.mix(0.6).stroke_width(1),
                ))
                .map_err(e)?,
            Key::Faded(c) => band
                .draw(&PathElement::new(
                    vec![(x, y), (x + 16, y)],
                    c.mix(0.3).stroke_width(2),
                ))
                .map_err(e)?,
            Key::Band(c) => {
                band.draw(&Rectangle::new(
                    [(x, y - 5), (x + 16, y + 5)],
                    c.mix(0.18).filled(),
                ))
                .map_err(e)?;
                band.draw(&Rectangle::new(
                    [(x, y - 2), (x + 16, y + 2)],
                    c.mix(0.32).filled(),
                ))
                .map_err(e)?;
            }
            Key::Measured(c) => {
                band.draw(&PathElement::new(
                    vec![(x + 8, y - 6), (x + 8, y + 6)],
                    c.stroke_width(2),
                ))
                .map_err(e)?;
                band.draw(&diamond!((x + 8, y), 4, c)).map_err(e)?;
            }
            Key::Dashed(c) => {
                for (a, b) in [(x, x + 6), (x + 10, x + 16)] {
                    band.draw(&PathElement::new(vec![(a, y), (b, y)], c.stroke_width(2)))
                        .map_err(e)?;
                }
            }
        }
        band.draw(&Text::new(label.clone(), (x + 22, y), font.clone()))
            .map_err(e)?;
    }
    Ok(rest)
}

/// A figure measured on a real server, drawn beside the simulated curve it corresponds to.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Published {
    /// Where on the x axis (seconds since the warm-up started for the residency plot; the
    /// scan depth for the sweep): `[from, to]`, equal for a single moment or setting.
    pub x: [f64; 2],
    /// For the sweep: the `old_blocks_time` line it belongs to (ms); 0 on the residency plot.
    pub old_blocks_time: u32,
    /// The measured value or spread, % (of the hot set): `[lo, hi]`, equal for one number.
    pub pct: [f64; 2],
    /// The value as the source states it ("41 %", "7-15 %").
    pub label: String,
}

/// Legend text of the previous setting's curves, kept faded while a new run computes.
pub const GHOST_LEGEND: &str = "previous setting (until this run ends)";

/// Legend text of the published marks.
pub const PUBLISHED_LEGEND: &str = "measured on MySQL 8.4.11 (the scan-leak experiment)";

/// Colour of the published marks (black in the light theme, near-white in the dark).
fn published_color(theme: Theme) -> RGBColor {
    theme.text
}

/// Draws `marks` on a chart with f64 x and y (%): a bar over the measured spread, a diamond at
/// its middle, a thin line over the x span the figure covers, and its label beside it.
fn draw_published<DB: DrawingBackend, X>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, plotters::coord::types::RangedCoordf64>>,
    marks: &[&Published],
    theme: Theme,
) -> Result<(), String>
where
    X: Ranged<ValueType = f64>,
{
    let c = published_color(theme);
    let font = label_font(theme);
    for m in marks {
        let mid_x = (m.x[0] + m.x[1]) / 2.0;
        let mid_y = (m.pct[0] + m.pct[1]) / 2.0;
        if m.x[1] > m.x[0] {
            // The span the figure covers, with end caps.
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(m.x[0], mid_y), (m.x[1], mid_y)],
                    c.mix(0.7).stroke_width(1),
                )))
                .map_err(e)?;
            chart
                .draw_series(m.x.iter().map(|&x| {
                    EmptyElement::at((x, mid_y))
                        + PathElement::new(vec![(0, -4), (0, 4)], c.mix(0.7).stroke_width(1))
                }))
                .map_err(e)?;
        }
        if m.pct[1] > m.pct[0] {
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(mid_x, m.pct[0]), (mid_x, m.pct[1])],
                    c.stroke_width(2),
                )))
                .map_err(e)?;
        }
        chart
            .draw_series(std::iter::once(diamond!((mid_x, mid_y), 5, c)))
            .map_err(e)?;
        // The label goes right of the diamond, or left of it where it would pass the plot's
        // right edge.
        let right_edge = chart.plotting_area().get_pixel_range().0.end;
        let text = format!("measured: {}", m.label);
        let (w, h) = chart
            .plotting_area()
            .estimate_text_size(&text, &font)
            .map_or((0, 0), |(w, h)| (w as i32, h as i32));
        let near_edge = chart.backend_coord(&(mid_x, mid_y)).0 + 9 + w > right_edge;
        let (x0, pos) = if near_edge {
            (-9 - w, Pos::new(HPos::Right, VPos::Center))
        } else {
            (9, Pos::new(HPos::Left, VPos::Center))
        };
        // On a half-clear plate of the background: a curve under it stays visible, dimmed,
        // and does not cross the text at full strength.
        let plate = Rectangle::new(
            [(x0 - 2, -h / 2 - 2), (x0 + w + 2, h / 2 + 2)],
            theme.background.mix(0.6).filled(),
        );
        let anchor = if near_edge { -9 } else { 9 };
        chart
            .draw_series(std::iter::once(
                EmptyElement::at((mid_x, mid_y))
                    + plate
                    + Text::new(text, (anchor, 0), font.clone().pos(pos)),
            ))
            .map_err(e)?;
    }
    Ok(())
}

/// The axes every chart shares, in the theme's colours: axis lines and labels, bold grid lines
/// at the labels and no light ones, whole-number labels. Callers add their titles and override
/// what differs.
pub(crate) fn mesh<'a, 'b, DB, X, Y>(
    chart: &'b mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    theme: Theme,
) -> MeshStyle<'a, 'b, X, Y, DB>
where
    DB: DrawingBackend,
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let mut m = chart.configure_mesh();
    m.axis_style(theme.text)
        .label_style(label_font(theme))
        .max_light_lines(0)
        .bold_line_style(theme.grid)
        .x_label_formatter(&whole)
        .y_label_formatter(&whole);
    m
}

/// The right-hand axis of a chart with two y scales, styled as [`mesh`]'s.
pub(crate) fn secondary_axes<'a, 'b, DB, CT, X, Y>(
    chart: &'b mut DualCoordChartContext<'a, DB, CT, Cartesian2d<X, Y>>,
    y_desc: &str,
    theme: Theme,
) -> Result<(), String>
where
    DB: DrawingBackend,
    CT: CoordTranslate,
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    chart
        .configure_secondary_axes()
        .y_desc(y_desc)
        .axis_style(theme.text)
        .label_style(label_font(theme))
        .y_label_formatter(&whole)
        .draw()
        .map_err(e)
}

/// A tick label as a whole number.
pub(crate) fn whole(v: &f64) -> String {
    format!("{v:.0}")
}

/// Height of the x-label area: tick labels, then the axis title below them, apart.
pub(crate) const AXIS_X: u32 = 42;

fn caption_font(theme: Theme) -> TextStyle<'static> {
    ("sans-serif", 16).into_font().color(&theme.text)
}

/// What the residency plot draws: hot-set residency (% of the hot set, solid) and the scanned
/// table's young pages (% of the pool, dashed) of `samples` over time; `ghost` (another run's
/// samples, as the page keeps its previous curve while the next one grows) in the same styles,
/// dimmed, behind them; an ensemble's `band` behind both (`samples` are then its median curve);
/// a short tick along the bottom at each time in `refills_s` (LRU batches that evicted pages);
/// the measurements in `published`; the scan phase from `scan_start_s`; `cursor_s` marks now.
#[derive(Clone, Copy)]
pub struct Residency<'a> {
    pub samples: &'a [Sample],
    pub ghost: &'a [Sample],
    pub band: Option<Band<'a>>,
    pub refills_s: &'a [f64],
    pub published: &'a [Published],
    pub hot_pages: u32,
    pub pool_pages: u32,
    pub scan_start_s: f64,
    pub end_s: f64,
    pub cursor_s: Option<f64>,
}

impl<'a> Residency<'a> {
    /// `samples` of a run with `hot_pages` hot pages in `pool_pages`, its scan from
    /// `scan_start_s` to `end_s`; nothing else drawn (set the other fields to add it).
    pub fn new(
        samples: &'a [Sample],
        hot_pages: u32,
        pool_pages: u32,
        scan_start_s: f64,
        end_s: f64,
    ) -> Self {
        Residency {
            samples,
            ghost: &[],
            band: None,
            refills_s: &[],
            published: &[],
            hot_pages,
            pool_pages,
            scan_start_s,
            end_s,
            cursor_s: None,
        }
    }
}

/// The residency plot's legend: the two curves, then the refill marks, the measurements, the
/// previous setting's curve and the ensemble's band when the plot draws them.
fn residency_legend(
    refills: bool,
    published: bool,
    ghost: bool,
    band_runs: Option<usize>,
    narrow: bool,
    theme: Theme,
) -> Vec<Entry> {
    let mut entries = vec![
        (
            "hot set resident (% of hot set)".to_string(),
            Key::Line(HOT),
        ),
        (
            "scanned table young (% of pool)".to_string(),
            Key::Dashed(SCAN),
        ),
    ];
    if refills {
        entries.push(("LRU batch evicted".to_string(), Key::Tick(theme.text)));
    }
    if published {
        entries.push((
            PUBLISHED_LEGEND.to_string(),
            Key::Measured(published_color(theme)),
        ));
    }
    if ghost {
        entries.push((GHOST_LEGEND.to_string(), Key::Faded(HOT)));
    }
    if let Some(runs) = band_runs.filter(|&r| r >= 2) {
        entries.push((band_legend(runs, narrow), Key::Band(HOT)));
    }
    entries
}

/// The residency plot's key for the page, the entries its canvas legend has (see
/// [`draw_residency`]).
pub fn residency_entries(
    refills: bool,
    published: bool,
    ghost: bool,
    band_runs: Option<usize>,
    theme: Theme,
) -> Vec<KeyEntry> {
    key_entries(&residency_legend(
        refills, published, ghost, band_runs, false, theme,
    ))
}

/// The legend text of an ensemble's band over `runs` runs (`narrow`: a phone's, which cut it).
pub fn band_legend(runs: usize, narrow: bool) -> String {
    let [light, dark] = [[" (light)", "percentile (dark)"], ["", "pct"]][narrow as usize];
    format!("{runs} runs: range{light}, 10th-90th {dark}")
}

/// An ensemble's spread on the residency plot: the hot set's pages resident per sample over
/// `runs` runs (median, range, 10th-90th percentile). Runs still to come: `runs` counts those
/// in `points`.
#[derive(Clone, Copy, Debug)]
pub struct Band<'a> {
    pub points: &'a [BandPoint],
    pub runs: usize,
}

/// Draws the residency plot `r` (see [`Residency`]). An ensemble's band is the hot set's range
/// over the runs filled light, its 10th-90th percentile darker, named in the legend with the
/// run count; a band of fewer than two runs is not drawn.
pub fn draw_residency<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    r: &Residency<'_>,
    theme: Theme,
) -> Result<(), String> {
    let Residency {
        samples,
        ghost,
        band,
        refills_s,
        published,
        hot_pages,
        pool_pages,
        scan_start_s,
        end_s,
        cursor_s,
    } = *r;
    let band = band.filter(|b| b.runs >= 2 && b.points.len() >= 2);
    root.fill(&theme.background).map_err(e)?;
    let x_max = end_s.max(1.0);
    let entries = residency_legend(
        !refills_s.is_empty(),
        !published.is_empty(),
        !ghost.is_empty(),
        band.map(|b| b.runs),
        root.dim_in_pixel().0 < 420,
        theme,
    );
    let area = titled_with_legend(
        root,
        "Hot set resident, scanned table young",
        &entries,
        52,
        theme,
    )?;
    let mut chart = ChartBuilder::on(&area)
        .margin(8)
        .x_label_area_size(AXIS_X)
        .y_label_area_size(44)
        .build_cartesian_2d(0f64..x_max, 0f64..100f64)
        .map_err(e)?;
    mesh(&mut chart, theme)
        .x_desc("seconds since warm-up start")
        .y_desc("%")
        // A tick every ~24 px at most: on a phone, eleven labels in 110 px touched.
        .y_labels((area.dim_in_pixel().1 as usize / 24).clamp(3, 10))
        .draw()
        .map_err(e)?;
    if scan_start_s < x_max {
        let band = Rectangle::new(
            [(scan_start_s, 0.0), (x_max, 100.0)],
            SCAN.mix(0.06).filled(),
        );
        chart.draw_series(std::iter::once(band)).map_err(e)?;
    }
    chart
        .draw_series(
            refills_s
                .iter()
                .filter(|t| t.is_finite() && **t <= x_max)
                .map(|&t| PathElement::new(vec![(t, 0.0), (t, 4.0)], theme.text.mix(0.45))),
        )
        .map_err(e)?;
    let hot = hot_pages.max(1) as f64;
    let pool = pool_pages.max(1) as f64;
    if let Some(b) = band {
        let pts: Vec<&BandPoint> = b
            .points
            .iter()
            .filter(|q| q.t_s <= x_max && q.min.is_finite() && q.max.is_finite())
            .collect();
        type Edge = fn(&BandPoint) -> f64;
        let edges: [(Edge, Edge, f64); 2] = [
            (|q: &BandPoint| q.min, |q: &BandPoint| q.max, 0.16),
            (|q: &BandPoint| q.p10, |q: &BandPoint| q.p90, 0.28),
        ];
        for (lo, hi, alpha) in edges {
            let mut poly: Vec<(f64, f64)> =
                pts.iter().map(|q| (q.t_s, lo(q) * 100.0 / hot)).collect();
            poly.extend(pts.iter().rev().map(|q| (q.t_s, hi(q) * 100.0 / hot)));
            chart
                .draw_series(std::iter::once(Polygon::new(poly, HOT.mix(alpha).filled())))
                .map_err(e)?;
        }
    }
    // The previous setting's curves first, faded, then this run's over them.
    draw_curves(&mut chart, ghost, hot, pool, 0.3)?;
    draw_curves(&mut chart, samples, hot, pool, 1.0)?;
    let marks: Vec<&Published> = published.iter().filter(|m| m.x[0] <= x_max).collect();
    draw_published(&mut chart, &marks, theme)?;
    if let Some(c) = cursor_s {
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(c, 0.0), (c, 100.0)],
                theme.text.mix(0.5),
            )))
            .map_err(e)?;
    }
    root.present().map_err(e)
}

/// Hot-set residency (solid, % of `hot` pages) and the scanned table's young pages (dashed, %
/// of `pool` pages) of `samples`, at opacity `alpha`.
fn draw_curves<DB: DrawingBackend>(
    chart: &mut ChartContext<
        '_,
        DB,
        Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
    >,
    samples: &[Sample],
    hot: f64,
    pool: f64,
    alpha: f64,
) -> Result<(), String> {
    chart
        .draw_series(LineSeries::new(
            samples
                .iter()
                .map(|s| (s.t_s, s.hot_resident as f64 * 100.0 / hot)),
            HOT.mix(alpha).stroke_width(2),
        ))
        .map_err(e)?;
    chart
        .draw_series(DashedLineSeries::new(
            samples
                .iter()
                .map(|s| (s.t_s, s.scan_young as f64 * 100.0 / pool)),
            6,
            4,
            SCAN.mix(alpha).stroke_width(2),
        ))
        .map_err(e)?;
    Ok(())
}

/// Renders the residency plot `r` to an 800x400 SVG string.
pub fn residency_svg(r: &Residency<'_>) -> Result<String, String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (800, 400)).into_drawing_area();
        draw_residency(&root, r, LIGHT)?;
    }
    Ok(out)
}

/// `a` moved a fraction `k` of the way toward `b`.
fn mix(a: RGBColor, b: RGBColor, k: f64) -> RGBColor {
    let m = |x: u8, y: u8| (x as f64 + (y as f64 - x as f64) * k).round() as u8;
    RGBColor(m(a.0, b.0), m(a.1, b.1), m(a.2, b.2))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::{SweepPoint, SweepResult};

    fn sample(t: f64, hot: u32, scan_young: u32) -> Sample {
        Sample {
            t_s: t,
            hot_resident: hot,
            scan_young,
            ..Sample::default()
        }
    }

    #[test]
    fn residency_svg_has_both_series_and_changes_with_data() {
        let a = vec![
            sample(0.0, 100, 0),
            sample(1.0, 50, 10),
            sample(2.0, 20, 30),
        ];
        let b = vec![
            sample(0.0, 100, 0),
            sample(1.0, 90, 10),
            sample(2.0, 80, 30),
        ];
        let sa = residency_svg(&Residency::new(&a, 100, 1000, 1.0, 2.0)).unwrap();
        let sb = residency_svg(&Residency::new(&b, 100, 1000, 1.0, 2.0)).unwrap();
        assert!(sa.starts_with("<svg"));
        assert!(sa.contains("hot set resident"));
        assert!(sa.matches("<polyline").count() >= 2, "{sa}");
        assert_ne!(sa, sb);
    }

    #[test]
    fn a_previous_curve_is_drawn_faded_and_named_in_the_legend() {
        let now = vec![sample(0.0, 100, 0), sample(1.0, 90, 10)];
        let before = vec![sample(0.0, 100, 0), sample(2.0, 20, 30)];
        let draw = |ghost: &[Sample]| {
            let mut out = String::new();
            {
                let root = SVGBackend::with_string(&mut out, (800, 400)).into_drawing_area();
                draw_residency(
                    &root,
                    &Residency {
                        ghost,
                        ..Residency::new(&now, 100, 1000, 1.0, 2.0)
                    },
                    LIGHT,
                )
                .unwrap();
            }
            out
        };
        let (alone, over) = (draw(&[]), draw(&before));
        assert!(!alone.contains(GHOST_LEGEND));
        assert!(over.contains(GHOST_LEGEND), "{over}");
        assert!(over.matches("<polyline").count() >= alone.matches("<polyline").count() + 2);
    }

    #[test]
    fn an_ensembles_band_is_filled_behind_the_curves_and_named_with_its_run_count() {
        let a = vec![
            sample(0.0, 100, 0),
            sample(1.0, 60, 10),
            sample(2.0, 40, 30),
        ];
        let pts = [
            BandPoint::of(0.0, [100.0, 100.0, 100.0]),
            BandPoint::of(1.0, [40.0, 60.0, 80.0]),
            BandPoint::of(2.0, [20.0, 40.0, 70.0]),
        ];
        let plain = residency_svg(&Residency::new(&a, 100, 1000, 1.0, 2.0)).unwrap();
        let draw = |runs| {
            residency_svg(&Residency {
                band: Some(Band { points: &pts, runs }),
                ..Residency::new(&a, 100, 1000, 1.0, 2.0)
            })
            .unwrap()
        };
        let banded = draw(3);
        assert!(banded.contains(&band_legend(3, false)), "{banded}");
        assert!(banded.contains("3 runs"));
        assert_eq!(
            banded.matches("<polygon").count(),
            plain.matches("<polygon").count() + 2
        );
        // One run has no spread to draw.
        assert_eq!(draw(1), plain);
    }

    #[test]
    fn published_figures_are_drawn_with_their_label_and_legend() {
        let a = vec![sample(0.0, 100, 0), sample(2.0, 20, 30)];
        let mark = Published {
            x: [1.0, 2.0],
            old_blocks_time: 0,
            pct: [30.0, 50.0],
            label: "30-50 %".into(),
        };
        let without = residency_svg(&Residency::new(&a, 100, 1000, 1.0, 2.0)).unwrap();
        let with = residency_svg(&Residency {
            published: &[mark],
            ..Residency::new(&a, 100, 1000, 1.0, 2.0)
        })
        .unwrap();
        assert!(!without.contains(PUBLISHED_LEGEND));
        assert!(
            with.contains(PUBLISHED_LEGEND) && with.contains("measured: 30-50 %"),
            "{with}"
        );
        assert!(with.matches("<polygon").count() > without.matches("<polygon").count());
    }

    #[test]
    fn sweep_svg_draws_one_line_per_time() {
        let mut points = Vec::new();
        for &t in &[0u32, 1000] {
            for &d in &[100u32, 1024] {
                points.push(SweepPoint {
                    lru_scan_depth: d,
                    old_blocks_time: t,
                    kept: if t == 0 { 0.1 } else { 0.5 },
                    young_leak_pages_per_s: 0.0,
                    lookups_per_s: 0.0,
                    kept_range: None,
                });
            }
        }
        let s = SweepResult {
            base: midpoint_core::scenario::Params::default(),
            depths: vec![100, 1024],
            times: vec![0, 1000],
            points,
        };
        let svg = sweep_svg(&s, Some((1024, 1000)), &[]).unwrap();
        assert!(svg.contains("old_blocks_time 0 ms"));
        assert!(svg.contains("old_blocks_time 1000 ms"));
        assert!(
            !svg.contains(SWEEP_RANGE_LEGEND),
            "one run per point: no bars"
        );
        // Over several runs, each point's range as an error bar (three strokes: the bar and
        // its two caps), named in the legend.
        let mut ranged = s.clone();
        for p in &mut ranged.points {
            p.kept_range = Some([p.kept - 0.05, p.kept + 0.1]);
        }
        let with = sweep_svg(&ranged, Some((1024, 1000)), &[]).unwrap();
        // (The SVG escapes the legend's apostrophe.)
        let tail = SWEEP_RANGE_LEGEND.split('\'').next_back().unwrap();
        assert!(with.contains(tail) && !svg.contains(tail), "{with}");
        let lines = |svg: &str| svg.matches("<line").count() + svg.matches("<polyline").count();
        assert!(lines(&with) >= lines(&svg) + 4 * 3, "{with}");
        // A highlighted line: drawn last, thick, in its own colour; the other dimmed and thin.
        let lit = {
            let mut out = String::new();
            {
                let root = SVGBackend::with_string(&mut out, (800, 400)).into_drawing_area();
                draw_sweep(&root, &s, None, &[], Some(0), LIGHT).unwrap();
            }
            out
        };
        let hex = |c: RGBColor| format!("stroke=\"#{:02X}{:02X}{:02X}\"", c.0, c.1, c.2);
        let thick = format!("{} stroke-width=\"4\"", hex(LINES[0]));
        let dim = format!(
            "{} stroke-width=\"1\"",
            hex(mix(LINES[1], LIGHT.background, 0.7))
        );
        assert!(
            !svg.contains("stroke-width=\"4\""),
            "no line is thick without a highlight"
        );
        assert_eq!(lit.matches(&thick).count(), 1, "{lit}");
        let (at_thick, at_dim) = (
            lit.find(&thick).unwrap(),
            lit.find(&dim).expect("the other line, dimmed"),
        );
        assert!(at_dim < at_thick, "the highlighted line is drawn last");
    }
}

#[cfg(test)]
mod glance_tests {
    use super::write::{draw_depth_tradeoff, DepthPoint};
    use super::*;
    use crate::sweep::{SweepPoint, SweepResult, DEFAULT_DEPTHS};

    /// Each `<text>` of an SVG: its x, y and content.
    fn texts(svg: &str) -> Vec<(f64, f64, String)> {
        let mut out = Vec::new();
        for part in svg.split("<text").skip(1) {
            let attr = |name: &str| -> f64 {
                part.split(&format!(" {name}=\""))
                    .nth(1)
                    .and_then(|r| r.split('"').next())
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(f64::NAN)
            };
            let body = part
                .split_once('>')
                .map(|(_, r)| r.split("</text>").next().unwrap_or(""))
                .unwrap_or("");
            out.push((attr("x"), attr("y"), body.trim().to_string()));
        }
        out
    }

    fn sweep(depths: &[u32]) -> SweepResult {
        let times = vec![0u32, 1000];
        let mut points = Vec::new();
        for (ti, &t) in times.iter().enumerate() {
            for (di, &d) in depths.iter().enumerate() {
                points.push(SweepPoint {
                    lru_scan_depth: d,
                    old_blocks_time: t,
                    kept: 0.1 + 0.1 * di as f64 / depths.len() as f64 + 0.7 * ti as f64,
                    young_leak_pages_per_s: 0.0,
                    lookups_per_s: 0.0,
                    kept_range: None,
                });
            }
        }
        SweepResult {
            base: midpoint_core::scenario::Params::default(),
            depths: depths.to_vec(),
            times,
            points,
        }
    }

    fn render(w: u32, h: u32, f: impl Fn(&DrawingArea<SVGBackend, Shift>)) -> String {
        let mut out = String::new();
        {
            let root = SVGBackend::with_string(&mut out, (w, h)).into_drawing_area();
            f(&root);
        }
        if let Ok(dir) = std::env::var("MIDPOINT_CHART_DUMP") {
            let n = out.len();
            let _ = std::fs::write(format!("{dir}/chart-{w}-{n}.svg"), &out);
        }
        out
    }

    /// The y of the text exactly `label` (the first one).
    /// The y axis of a percent plot: the numbers left of the plot, at least three, each at
    /// least a label's height (16 px) below the one above.
    fn assert_y_ticks_spaced(t: &[(f64, f64, String)], what: &str) {
        let mut ys: Vec<f64> = t
            .iter()
            .filter(|x| x.0 < 52.0 && x.2.parse::<f64>().is_ok_and(|v| (0.0..=100.0).contains(&v)))
            .map(|x| x.1)
            .collect();
        ys.sort_by(f64::total_cmp);
        assert!(ys.len() >= 3, "{what}: {} y labels", ys.len());
        assert!(
            ys.windows(2).all(|p| p[1] - p[0] >= 16.0),
            "{what}: y labels at {ys:?}"
        );
    }

    fn y_of(t: &[(f64, f64, String)], label: &str) -> f64 {
        t.iter()
            .find(|x| x.2 == label)
            .map(|x| x.1)
            .unwrap_or_else(|| panic!("no text {label:?} in {t:?}"))
    }

    #[test]
    fn sweep_axis_labels_every_power_of_two_and_whole_percents() {
        for w in [390u32, 1366] {
            let s = sweep(DEFAULT_DEPTHS);
            let svg = render(w, 300, |r| {
                draw_sweep(r, &s, Some((1024, 0)), &[], None, LIGHT).unwrap()
            });
            let t = texts(&svg);
            for tick in ["128", "256", "512", "1024", "2048", "4096"] {
                assert!(t.iter().any(|x| x.2 == tick), "{w}px: no tick {tick}");
            }
            assert!(
                !t.iter().any(|x| x.2.ends_with(".0")),
                "{w}px: a label with a decimal: {t:?}"
            );
            // The legend sits above the data: above the top y tick ("100").
            let top = y_of(&t, "100");
            for label in ["old_blocks_time 0 ms", "old_blocks_time 1000 ms"] {
                assert!(y_of(&t, label) + 6.0 < top, "{w}px: {label} in the data");
            }
        }
        // At 1366 px the range's ends are labelled too.
        let s = sweep(DEFAULT_DEPTHS);
        let t = texts(&render(1366, 300, |r| {
            draw_sweep(r, &s, None, &[], None, LIGHT).unwrap()
        }));
        assert!(t.iter().any(|x| x.2 == "100") && t.iter().any(|x| x.2 == "8192"));
    }

    #[test]
    fn sweep_on_a_phone_spaces_its_y_ticks() {
        let s = sweep(DEFAULT_DEPTHS);
        // A phone's 500 px embed leaves the plot about 160 px; a wide figure 300.
        for (w, h) in [(370u32, 160u32), (390, 200), (800, 300)] {
            let t = texts(&render(w, h, |r| {
                draw_sweep(r, &s, Some((1024, 0)), &[], None, LIGHT).unwrap()
            }));
            assert_y_ticks_spaced(&t, &format!("{w}x{h}"));
        }
    }

    #[test]
    fn depth_ticks_keep_the_ends_only_when_they_fit() {
        let wide = depth_ticks(100.0, 8192.0, 1300.0);
        assert_eq!(wide.first(), Some(&100.0));
        assert_eq!(wide.last(), Some(&8192.0));
        let narrow = depth_ticks(100.0, 8192.0, 300.0);
        assert_eq!(narrow.first(), Some(&128.0), "{narrow:?}");
        let inner = depth_ticks(300.0, 600.0, 400.0);
        assert_eq!(inner, vec![300.0, 512.0, 600.0]);
    }

    #[test]
    fn residency_legend_and_axis_titles_stay_clear() {
        let samples: Vec<Sample> = (0..=60)
            .map(|i| Sample {
                t_s: i as f64,
                hot_resident: 1000 - 10 * i,
                scan_young: 5 * i,
                ..Sample::default()
            })
            .collect();
        for w in [390u32, 1366] {
            let svg = render(w, 260, |r| {
                draw_residency(
                    r,
                    &Residency {
                        refills_s: &[21.0, 25.5],
                        cursor_s: Some(30.0),
                        ..Residency::new(&samples, 1000, 8192, 20.0, 60.0)
                    },
                    LIGHT,
                )
                .unwrap()
            });
            let t = texts(&svg);
            let top = y_of(&t, "100");
            let bottom = y_of(&t, "0");
            for label in [
                "hot set resident (% of hot set)",
                "scanned table young (% of pool)",
            ] {
                assert!(y_of(&t, label) + 6.0 < top, "{w}px: {label} in the data");
            }
            // The x-axis title sits below the x tick labels, a line apart.
            let title = y_of(&t, "seconds since warm-up start");
            let ticks = t
                .iter()
                .filter(|x| x.2 == "20" || x.2 == "40")
                .map(|x| x.1)
                .fold(f64::NAN, f64::max);
            assert!(title >= ticks + 12.0, "{w}px: title {title} ticks {ticks}");
            assert!(bottom < ticks, "{w}px");
            assert!(!t.iter().any(|x| x.2.ends_with(".0")), "{w}px: {t:?}");
            assert!(y_of(&t, "LRU batch evicted") + 6.0 < top, "{w}px");
        }
        // No batches, no refill key; two batches, two more short strokes than without.
        let draw = |refills: &[f64]| {
            render(600, 260, |r| {
                draw_residency(
                    r,
                    &Residency {
                        refills_s: refills,
                        ..Residency::new(&samples, 1000, 8192, 20.0, 60.0)
                    },
                    LIGHT,
                )
                .unwrap()
            })
        };
        let (none, two) = (draw(&[]), draw(&[21.0, 25.5]));
        assert!(!none.contains("LRU batch evicted"));
        assert_eq!(
            two.matches("<polyline").count(),
            none.matches("<polyline").count() + 3,
            "two ticks and the key's"
        );
    }

    #[test]
    fn residency_on_a_phone_keeps_its_legend_and_spaces_its_ticks() {
        let s = |t: f64, hot: u32| Sample {
            t_s: t,
            hot_resident: hot,
            ..Sample::default()
        };
        let samples = [s(0.0, 100), s(100.0, 60), s(200.0, 30)];
        let pts = [
            BandPoint::of(0.0, [100.0, 100.0, 100.0]),
            BandPoint::of(200.0, [20.0, 30.0, 40.0]),
        ];
        for (w, h) in [(370u32, 230u32), (640, 307)] {
            let svg = render(w, h, |r| {
                let band = Some(Band {
                    points: &pts,
                    runs: 5,
                });
                draw_residency(
                    r,
                    &Residency {
                        band,
                        ..Residency::new(&samples, 100, 1000, 60.0, 210.0)
                    },
                    LIGHT,
                )
                .unwrap()
            });
            let t = texts(&svg);
            let legend = band_legend(5, w < 420);
            let (x, _, _) = t.iter().find(|x| x.2 == legend).expect("the band's legend");
            assert!(
                x + legend.len() as f64 * 6.5 <= w as f64,
                "{w}px: {legend} cut"
            );
            assert_y_ticks_spaced(&t, &format!("{w}px"));
        }
    }

    #[test]
    fn tradeoff_legend_sits_above_the_data() {
        let pts: Vec<DepthPoint> = [128u32, 256, 1024, 4096]
            .iter()
            .map(|&d| DepthPoint {
                lru_scan_depth: d,
                tps_with_scan: 1000.0 + d as f64 / 8.0,
                tps: 1500.0,
                wait_free_per_s: 4000.0 / d as f64,
            })
            .collect();
        for w in [390u32, 1366] {
            let svg = render(w, 300, |r| {
                draw_depth_tradeoff(
                    r,
                    &[128, 256, 512, 1024, 2048, 4096],
                    &pts,
                    Some(256),
                    LIGHT,
                )
                .unwrap()
            });
            let t = texts(&svg);
            let top = y_of(&t, "0").min(
                t.iter()
                    .filter(|x| x.2.parse::<f64>().is_ok())
                    .map(|x| x.1)
                    .fold(f64::INFINITY, f64::min),
            );
            for label in [
                "transactions/s with a scan",
                "free-list waits/s (right axis)",
            ] {
                assert!(y_of(&t, label) + 6.0 < top, "{w}px: {label} in the data");
            }
            for tick in ["128", "512", "4096"] {
                assert!(t.iter().any(|x| x.2 == tick), "{w}px: no tick {tick}");
            }
        }
    }
}
