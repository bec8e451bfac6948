//! The sweep: kept against `innodb_lru_scan_depth` on a log axis, one line per
//! `innodb_old_blocks_time`, with the measurements and each point's range over its runs.

use super::{
    draw_published, e, key_entries, mesh, mix, published_color, titled_with_legend, Entry, Key,
    KeyEntry, Published, Theme, AXIS_X, LIGHT, LINES, PUBLISHED_LEGEND,
};
use crate::sweep::SweepResult;
use plotters::coord::Shift;
use plotters::prelude::*;

/// The sweep's legend: one line per old_blocks_time, then the measurements and the ranges
/// when it draws them.
fn sweep_legend(times: &[u32], published: bool, ranges: bool, theme: Theme) -> Vec<Entry> {
    let mut entries: Vec<Entry> = times
        .iter()
        .enumerate()
        .map(|(ti, t)| {
            (
                format!("old_blocks_time {t} ms"),
                Key::Line(LINES[ti % LINES.len()]),
            )
        })
        .collect();
    if published {
        entries.push((
            PUBLISHED_LEGEND.to_string(),
            Key::Measured(published_color(theme)),
        ));
    }
    if ranges {
        entries.push((SWEEP_RANGE_LEGEND.to_string(), Key::Tick(theme.text)));
    }
    entries
}

/// The sweep's key for the page, the entries its canvas legend has (see [`draw_sweep`]).
pub fn sweep_entries(sweep: &SweepResult, published: &[Published], theme: Theme) -> Vec<KeyEntry> {
    key_entries(&sweep_legend(
        &sweep.times,
        !sweep_marks_drawn(sweep, published).is_empty(),
        sweep.points.iter().any(|p| p.kept_range.is_some()),
        theme,
    ))
}

/// The measurements the sweep draws: those on one of its lines, inside its depth range.
fn sweep_marks_drawn<'a>(sweep: &SweepResult, published: &'a [Published]) -> Vec<&'a Published> {
    let lo = *sweep.depths.iter().min().unwrap_or(&100) as f64;
    let hi = *sweep.depths.iter().max().unwrap_or(&8192) as f64;
    published
        .iter()
        .filter(|m| {
            sweep.times.contains(&m.old_blocks_time) && m.x[0] >= lo * 0.9 && m.x[1] <= hi * 1.1
        })
        .collect()
}

/// The sweep's legend entry for its points' ranges (runs > 1).
pub const SWEEP_RANGE_LEGEND: &str = "bars: kept's range over the runs";

/// Tick values for a log axis of `innodb_lru_scan_depth` over `lo..=hi` drawn `width_px` wide:
/// the powers of two from 128 to 4096 inside the range, and each end of the range unless it
/// would sit closer than a label's width to its neighbour.
pub fn depth_ticks(lo: f64, hi: f64, width_px: f64) -> Vec<f64> {
    let (lo, hi) = (lo.max(1.0), hi.max(lo.max(1.0) * 1.01));
    let per_decade = width_px / (hi / lo).log10().max(1e-9) * 0.85;
    let mut ticks: Vec<f64> = (7..=12)
        .map(|k| f64::from(1u32 << k))
        .filter(|&t| t >= lo && t <= hi)
        .collect();
    let far = |a: f64, b: f64| ((a / b).log10().abs() * per_decade) >= 34.0;
    if ticks.first().is_none_or(|&f| f > lo && far(f, lo)) {
        ticks.insert(0, lo);
    }
    if ticks.last().is_none_or(|&l| l < hi && far(hi, l)) {
        ticks.push(hi);
    }
    ticks
}

/// Kept % against `innodb_lru_scan_depth` (log axis), one line per `old_blocks_time`; the
/// current setting is marked with a ring. Points not computed yet are `NaN` and skipped.
pub fn draw_sweep<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    sweep: &SweepResult,
    current: Option<(u32, u32)>,
    published: &[Published],
    highlight: Option<u32>,
    theme: Theme,
) -> Result<(), String> {
    root.fill(&theme.background).map_err(e)?;
    let lo = *sweep.depths.iter().min().unwrap_or(&100) as f64;
    let hi = *sweep.depths.iter().max().unwrap_or(&8192) as f64;
    // Only the measurements on a line the sweep draws, inside its depth range.
    let marks = sweep_marks_drawn(sweep, published);
    let entries = sweep_legend(
        &sweep.times,
        !marks.is_empty(),
        sweep.points.iter().any(|p| p.kept_range.is_some()),
        theme,
    );
    let area = titled_with_legend(
        root,
        "Hot set kept vs innodb_lru_scan_depth",
        &entries,
        52,
        theme,
    )?;
    let mut chart = ChartBuilder::on(&area)
        .margin(8)
        .x_label_area_size(AXIS_X)
        .y_label_area_size(44)
        .build_cartesian_2d(
            (lo * 0.9..hi * 1.1)
                .log_scale()
                .with_key_points(depth_ticks(lo, hi, area.dim_in_pixel().0 as f64 - 60.0)),
            0f64..100f64,
        )
        .map_err(e)?;
    mesh(&mut chart, theme)
        .x_desc("innodb_lru_scan_depth (pages, log scale)")
        .y_desc("kept %")
        // A tick every ~24 px at most, as on the residency plot: a phone's embed has ~100 px.
        .y_labels((area.dim_in_pixel().1 as usize / 24).clamp(3, 10))
        .draw()
        .map_err(e)?;
    // A highlighted line (`highlight`: its old_blocks_time, on hover or focus) is drawn last
    // and thick over the others, dimmed: lines that coincide stay readable one at a time.
    let lit = highlight.filter(|h| sweep.times.contains(h));
    let mut order: Vec<usize> = (0..sweep.times.len()).collect();
    order.sort_by_key(|&ti| Some(sweep.times[ti]) == lit);
    for ti in order {
        let t = sweep.times[ti];
        let base = LINES[ti % LINES.len()];
        let (color, width) = match lit {
            Some(h) if h == t => (base, 4),
            Some(_) => (mix(base, theme.background, 0.7), 1),
            None => (base, 2),
        };
        let pts: Vec<(f64, f64)> = (0..sweep.depths.len())
            .map(|d| sweep.at(ti, d))
            .filter(|p| p.kept.is_finite())
            .map(|p| (p.lru_scan_depth as f64, p.kept * 100.0))
            .collect();
        chart
            .draw_series(LineSeries::new(pts.clone(), color.stroke_width(width)))
            .map_err(e)?
            .label(format!("old_blocks_time {t} ms"))
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 16, y)], color.stroke_width(2))
            });
        // Over several runs, each point's range as an error bar (a stroke with a cap at each
        // end), the lines a little apart.
        let nudge = 1.0 + 0.025 * (ti as f64 - (sweep.times.len() as f64 - 1.0) / 2.0);
        let bars: Vec<(f64, f64, f64)> = (0..sweep.depths.len())
            .map(|d| sweep.at(ti, d))
            .filter(|p| p.kept.is_finite())
            .filter_map(|p| {
                let [a, b] = p.kept_range?;
                (a.is_finite() && b.is_finite()).then_some((
                    p.lru_scan_depth as f64 * nudge,
                    a * 100.0,
                    b * 100.0,
                ))
            })
            .collect();
        let style = color.mix(0.8).stroke_width(1);
        chart
            .draw_series(bars.iter().flat_map(|&(x, a, b)| {
                let (l, r) = (x / 1.015, x * 1.015);
                [
                    PathElement::new(vec![(x, a), (x, b)], style),
                    PathElement::new(vec![(l, a), (r, a)], style),
                    PathElement::new(vec![(l, b), (r, b)], style),
                ]
            }))
            .map_err(e)?;
        // Different marker shapes per line, so colour is not the only carrier.
        match ti % 3 {
            0 => chart
                .draw_series(pts.iter().map(|&p| Circle::new(p, 3, color.filled())))
                .map(|_| ()),
            1 => chart
                .draw_series(
                    pts.iter()
                        .map(|&p| TriangleMarker::new(p, 4, color.filled())),
                )
                .map(|_| ()),
            _ => chart
                .draw_series(pts.iter().map(|&p| Cross::new(p, 4, color.stroke_width(2))))
                .map(|_| ()),
        }
        .map_err(e)?;
        if let Some((cd, ct)) = current {
            if ct == t {
                if let Some(p) = sweep.points.iter().find(|p| {
                    p.lru_scan_depth == cd && p.old_blocks_time == ct && p.kept.is_finite()
                }) {
                    chart
                        .draw_series(std::iter::once(Circle::new(
                            (p.lru_scan_depth as f64, p.kept * 100.0),
                            8,
                            theme.text.stroke_width(2),
                        )))
                        .map_err(e)?;
                }
            }
        }
    }
    draw_published(&mut chart, &marks, theme)?;
    root.present().map_err(e)
}

/// Renders the sweep chart to an SVG string.
pub fn sweep_svg(
    sweep: &SweepResult,
    current: Option<(u32, u32)>,
    published: &[Published],
) -> Result<String, String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (800, 400)).into_drawing_area();
        draw_sweep(&root, sweep, current, published, None, LIGHT)?;
    }
    Ok(out)
}
