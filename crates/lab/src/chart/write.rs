//! The write path's charts: throughput and free-list waits against `innodb_lru_scan_depth`, and
//! how full each doublewrite-buffer write was.

use super::{depth_ticks, e, mesh, secondary_axes, titled_with_legend, Key, Theme, AXIS_X, LINES};
use plotters::coord::Shift;
use plotters::prelude::*;

/// One point of the write-heavy `lru_scan_depth` trade-off (`midpoint depth-sweep`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DepthPoint {
    /// `innodb_lru_scan_depth`.
    pub lru_scan_depth: u32,
    /// Transactions per second with the concurrent scan.
    pub tps_with_scan: f64,
    /// ... without it.
    pub tps: f64,
    /// `Innodb_buffer_pool_wait_free` per second.
    pub wait_free_per_s: f64,
}

/// Draws the write-path trade-off: transactions/s with and without a scan (left axis) and
/// free-list waits/s (right axis) against `innodb_lru_scan_depth` (log axis). Points that are
/// not finite (not computed yet) are left out; `depths` fixes the x range; `current` rings
/// that depth's points.
pub fn draw_depth_tradeoff<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    depths: &[u32],
    points: &[DepthPoint],
    current: Option<u32>,
    theme: Theme,
) -> Result<(), String> {
    root.fill(&theme.background).map_err(e)?;
    let lo = depths.iter().copied().min().unwrap_or(100).max(1) as f64;
    let hi = (depths.iter().copied().max().unwrap_or(4096) as f64).max(lo * 2.0);
    let done: Vec<&DepthPoint> = points
        .iter()
        .filter(|p| {
            p.tps.is_finite() && p.tps_with_scan.is_finite() && p.wait_free_per_s.is_finite()
        })
        .collect();
    let tps_max = done
        .iter()
        .map(|p| p.tps.max(p.tps_with_scan))
        .fold(0.0f64, f64::max)
        .max(100.0)
        * 1.15;
    let wf_max = done
        .iter()
        .map(|p| p.wait_free_per_s)
        .fold(0.0f64, f64::max)
        .max(10.0)
        * 1.15;
    let (c0, c1, c2) = (LINES[0], LINES[2], LINES[4]);
    let entries = [
        ("transactions/s with a scan".to_string(), Key::Line(c0)),
        ("transactions/s without".to_string(), Key::Line(c1)),
        ("free-list waits/s (right axis)".to_string(), Key::Line(c2)),
    ];
    let caption = if root.dim_in_pixel().0 < 600 {
        "Throughput and free-list waits vs lru_scan_depth"
    } else {
        "Write-heavy server: throughput and free-list waits vs innodb_lru_scan_depth"
    };
    let area = titled_with_legend(root, caption, &entries, 66, theme)?;
    let mut chart = ChartBuilder::on(&area)
        .margin(8)
        .x_label_area_size(AXIS_X)
        .y_label_area_size(58)
        .right_y_label_area_size(52)
        .build_cartesian_2d(
            (lo * 0.85..hi * 1.15)
                .log_scale()
                .with_key_points(depth_ticks(lo, hi, area.dim_in_pixel().0 as f64 - 130.0)),
            0f64..tps_max,
        )
        .map_err(e)?
        .set_secondary_coord(
            (lo * 0.85..hi * 1.15)
                .log_scale()
                .with_key_points(depth_ticks(lo, hi, area.dim_in_pixel().0 as f64 - 130.0)),
            0f64..wf_max,
        );
    mesh(&mut chart, theme)
        .x_desc("innodb_lru_scan_depth (pages, log scale)")
        .y_desc("transactions/s")
        .draw()
        .map_err(e)?;
    secondary_axes(&mut chart, "free-list waits/s", theme)?;
    let with: Vec<(f64, f64)> = done
        .iter()
        .map(|p| (p.lru_scan_depth as f64, p.tps_with_scan))
        .collect();
    let without: Vec<(f64, f64)> = done
        .iter()
        .map(|p| (p.lru_scan_depth as f64, p.tps))
        .collect();
    let waits: Vec<(f64, f64)> = done
        .iter()
        .map(|p| (p.lru_scan_depth as f64, p.wait_free_per_s))
        .collect();
    chart
        .draw_series(LineSeries::new(with.clone(), c0.stroke_width(2)))
        .map_err(e)?
        .label("transactions/s with a scan")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], c0.stroke_width(2)));
    chart
        .draw_series(with.iter().map(|&p| Circle::new(p, 3, c0.filled())))
        .map_err(e)?;
    chart
        .draw_series(LineSeries::new(without.clone(), c1.stroke_width(2)))
        .map_err(e)?
        .label("transactions/s without")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], c1.stroke_width(2)));
    chart
        .draw_series(
            without
                .iter()
                .map(|&p| TriangleMarker::new(p, 4, c1.filled())),
        )
        .map_err(e)?;
    chart
        .draw_secondary_series(LineSeries::new(waits.clone(), c2.stroke_width(2)))
        .map_err(e)?
        .label("free-list waits/s (right axis)")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], c2.stroke_width(2)));
    chart
        .draw_secondary_series(waits.iter().map(|&p| Cross::new(p, 4, c2.stroke_width(2))))
        .map_err(e)?;
    if let Some(cd) = current {
        if let Some(p) = done.iter().find(|p| p.lru_scan_depth == cd) {
            chart
                .draw_series(std::iter::once(Circle::new(
                    (p.lru_scan_depth as f64, p.tps_with_scan),
                    8,
                    theme.text.stroke_width(2),
                )))
                .map_err(e)?;
        }
    }
    root.present().map_err(e)
}

/// One write of a doublewrite buffer: when (seconds since the clients started), how many
/// pages it held, and whether it was the LRU (`false`) or the flush-list (`true`) buffer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DblwrWrite {
    pub t_s: f64,
    pub pages: u32,
    pub flush_list: bool,
}

/// Draws how full each doublewrite-buffer write was (capacity `capacity` pages) over time:
/// one marker per write, LRU and flush-list buffers apart. `cursor_s` draws a vertical line.
pub fn draw_dblwr_fill<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    writes: &[DblwrWrite],
    capacity: u32,
    end_s: f64,
    cursor_s: Option<f64>,
    theme: Theme,
) -> Result<(), String> {
    root.fill(&theme.background).map_err(e)?;
    let cap = capacity.max(1) as f64;
    let end_s = if end_s.is_finite() && end_s > 0.0 {
        end_s
    } else {
        1.0
    };
    let (c0, c1) = (LINES[0], LINES[4]);
    let entries = [
        (
            format!("innodb_doublewrite_pages = {capacity} (full)"),
            Key::Line(theme.text),
        ),
        ("LRU buffer (LRU batch)".to_string(), Key::Line(c0)),
        ("flush-list buffer".to_string(), Key::Line(c1)),
    ];
    let area = titled_with_legend(
        root,
        "Doublewrite buffers of instance 0: pages per write",
        &entries,
        52,
        theme,
    )?;
    let mut chart = ChartBuilder::on(&area)
        .margin(8)
        .x_label_area_size(AXIS_X)
        .y_label_area_size(44)
        .build_cartesian_2d(0f64..end_s, 0f64..cap * 1.12)
        .map_err(e)?;
    // Light grid lines too (plotters' default ten), in the grid colour.
    mesh(&mut chart, theme)
        .x_desc("seconds since the clients started")
        .y_desc("pages in the buffer")
        .max_light_lines(10)
        .light_line_style(theme.grid)
        .draw()
        .map_err(e)?;
    chart
        .draw_series(LineSeries::new(
            vec![(0.0, cap), (end_s, cap)],
            theme.text.mix(0.5).stroke_width(1),
        ))
        .map_err(e)?
        .label(format!("innodb_doublewrite_pages = {capacity} (full)"))
        .legend(move |(x, y)| {
            PathElement::new(
                vec![(x, y), (x + 16, y)],
                theme.text.mix(0.5).stroke_width(1),
            )
        });
    let (c0, c1) = (LINES[0], LINES[4]);
    chart
        .draw_series(
            writes
                .iter()
                .filter(|w| !w.flush_list)
                .map(|w| Circle::new((w.t_s, w.pages as f64), 3, c0.filled())),
        )
        .map_err(e)?
        .label("LRU buffer (LRU batch)")
        .legend(move |(x, y)| Circle::new((x + 8, y), 3, c0.filled()));
    chart
        .draw_series(
            writes
                .iter()
                .filter(|w| w.flush_list)
                .map(|w| TriangleMarker::new((w.t_s, w.pages as f64), 4, c1.filled())),
        )
        .map_err(e)?
        .label("flush-list buffer")
        .legend(move |(x, y)| TriangleMarker::new((x + 8, y), 4, c1.filled()));
    if let Some(t) = cursor_s.filter(|t| t.is_finite()) {
        chart
            .draw_series(LineSeries::new(
                vec![(t, 0.0), (t, cap * 1.12)],
                theme.text.stroke_width(1),
            ))
            .map_err(e)?;
    }
    root.present().map_err(e)
}

#[cfg(test)]
mod write_chart_tests {
    use super::*;
    use crate::chart::{DARK, LIGHT};

    #[test]
    fn depth_tradeoff_and_dblwr_fill_render_to_svg_with_missing_points() {
        let pts = [
            DepthPoint {
                lru_scan_depth: 128,
                tps_with_scan: 1400.0,
                tps: 1600.0,
                wait_free_per_s: 90.0,
            },
            DepthPoint {
                lru_scan_depth: 1024,
                tps_with_scan: f64::NAN,
                tps: f64::NAN,
                wait_free_per_s: f64::NAN,
            },
        ];
        let mut out = String::new();
        {
            let root = SVGBackend::with_string(&mut out, (600, 300)).into_drawing_area();
            draw_depth_tradeoff(&root, &[128, 1024, 4096], &pts, Some(128), LIGHT).unwrap();
        }
        assert!(out.contains("lru_scan_depth") && out.contains("<circle"));
        let writes = [
            DblwrWrite {
                t_s: 1.0,
                pages: 16,
                flush_list: false,
            },
            DblwrWrite {
                t_s: 2.0,
                pages: 5,
                flush_list: true,
            },
        ];
        let mut out = String::new();
        {
            let root = SVGBackend::with_string(&mut out, (600, 300)).into_drawing_area();
            draw_dblwr_fill(&root, &writes, 16, 20.0, Some(3.0), DARK).unwrap();
            draw_dblwr_fill(&root, &[], 0, f64::NAN, None, LIGHT).unwrap();
        }
        assert!(out.contains("<circle"));
    }
}
