//! The studies' charts, drawn with plotters over any `DrawingBackend` (as `crate::chart` does),
//! so that the page can render them on a canvas and the CLI to SVG.

use super::phase::PhaseMap;
use crate::chart::{Theme, HOT, LIGHT};
use plotters::coord::Shift;
use plotters::prelude::*;

fn e<E: std::fmt::Debug>(x: E) -> String {
    format!("chart: {x:?}")
}

/// A line of (x, y) points with y a share in 0..=1 (drawn as %), x on a log scale if `log_x`.
pub fn draw_xy<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    x_desc: &str,
    y_desc: &str,
    pts: &[(f64, f64)],
    log_x: bool,
    theme: Theme,
) -> Result<(), String> {
    root.fill(&theme.background).map_err(e)?;
    let lo = pts.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
    let hi = pts.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = if lo.is_finite() && hi > lo {
        (lo, hi)
    } else {
        (1.0, 2.0)
    };
    let font = ("sans-serif", 12).into_font().color(&theme.text);
    let pts: Vec<(f64, f64)> = pts.iter().map(|&(x, y)| (x, y * 100.0)).collect();
    macro_rules! body {
        ($chart:expr) => {{
            let mut chart = $chart;
            chart
                .configure_mesh()
                .x_desc(x_desc)
                .y_desc(format!("{y_desc}, %"))
                .axis_style(theme.text)
                .label_style(font.clone())
                .light_line_style(theme.grid)
                .bold_line_style(theme.grid)
                .x_label_formatter(&|x| format!("{:.0}", x))
                .draw()
                .map_err(e)?;
            chart
                .draw_series(LineSeries::new(pts.clone(), HOT.stroke_width(2)))
                .map_err(e)?;
            chart
                .draw_series(pts.iter().map(|&p| Circle::new(p, 4, HOT.filled())))
                .map_err(e)?;
        }};
    }
    let mut b = ChartBuilder::on(root);
    b.margin(10).x_label_area_size(34).y_label_area_size(48);
    if log_x {
        body!(b
            .build_cartesian_2d((lo * 0.8..hi * 1.25).log_scale(), 0f64..105f64)
            .map_err(e)?);
    } else {
        let pad = (hi - lo) * 0.05;
        body!(b
            .build_cartesian_2d(lo - pad..hi + pad, 0f64..105f64)
            .map_err(e)?);
    }
    root.present().map_err(e)
}

/// The colour of a kept share: red (lost) through yellow to green (kept), colour-blind safer
/// with the value printed in each cell.
pub fn kept_colour(k: f64) -> RGBColor {
    let k = if k.is_finite() {
        k.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let lerp = |a: u8, b: u8, t: f64| (a as f64 + (b as f64 - a as f64) * t).round() as u8;
    if k < 0.5 {
        let t = k / 0.5;
        RGBColor(
            lerp(0xb2, 0xfe, t),
            lerp(0x18, 0xe0, t),
            lerp(0x2b, 0x8b, t),
        )
    } else {
        let t = (k - 0.5) / 0.5;
        RGBColor(
            lerp(0xfe, 0x1a, t),
            lerp(0xe0, 0x98, t),
            lerp(0x8b, 0x50, t),
        )
    }
}

/// The cell under a point of a drawing of `width` × `height` made by [`draw_heatmap`], for the
/// page's clicks: (i, j) into the map's x and y values.
pub fn heatmap_cell_at(
    m: &PhaseMap,
    width: u32,
    height: u32,
    px: i32,
    py: i32,
) -> Option<(usize, usize)> {
    let (x0, y0, x1, y1) = plot_area(width, height);
    if px < x0 || px >= x1 || py < y0 || py >= y1 {
        return None;
    }
    let nx = m.x_values.len() as i32;
    let ny = m.y_values.len() as i32;
    let i = ((px - x0) * nx / (x1 - x0)) as usize;
    // Row 0 (the first y value) is drawn at the bottom.
    let j = (ny - 1 - (py - y0) * ny / (y1 - y0)) as usize;
    Some((i, j))
}

fn plot_area(width: u32, height: u32) -> (i32, i32, i32, i32) {
    (70, 30, width as i32 - 20, height as i32 - 50)
}

/// The phase map as a heat map: one rectangle per cell, coloured by mean kept, labelled with
/// it; split cells get a star and a ring.
pub fn draw_heatmap<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    m: &PhaseMap,
    theme: Theme,
) -> Result<(), String> {
    root.fill(&theme.background).map_err(e)?;
    let (w, h) = root.dim_in_pixel();
    let (x0, y0, x1, y1) = plot_area(w, h);
    let nx = m.x_values.len().max(1) as i32;
    let ny = m.y_values.len().max(1) as i32;
    let cw = (x1 - x0) / nx;
    let ch = (y1 - y0) / ny;
    let font = ("sans-serif", 12).into_font().color(&theme.text);
    root.draw(&Text::new(
        format!(
            "{}: hot set kept %, {} seed(s) per cell (* = seeds split)",
            m.preset, m.seeds
        ),
        (x0, 8),
        font.clone(),
    ))
    .map_err(e)?;
    for j in 0..ny {
        for i in 0..nx {
            let c = m.at(i as usize, j as usize);
            let (cx, cy) = (x0 + i * cw, y0 + (ny - 1 - j) * ch);
            root.draw(&Rectangle::new(
                [(cx, cy), (cx + cw - 1, cy + ch - 1)],
                kept_colour(c.kept_mean).filled(),
            ))
            .map_err(e)?;
            let label = format!(
                "{:.0}{}",
                c.kept_mean * 100.0,
                if c.split { "*" } else { "" }
            );
            root.draw(&Text::new(
                label,
                (cx + cw / 2 - 10, cy + ch / 2 - 6),
                ("sans-serif", 12).into_font().color(&BLACK),
            ))
            .map_err(e)?;
            if c.split {
                root.draw(&Rectangle::new(
                    [(cx + 2, cy + 2), (cx + cw - 3, cy + ch - 3)],
                    BLACK.stroke_width(2),
                ))
                .map_err(e)?;
            }
        }
    }
    for (i, x) in m.x_values.iter().enumerate() {
        root.draw(&Text::new(
            crate::scenario::fmt_num(*x),
            (x0 + i as i32 * cw + cw / 2 - 12, y1 + 6),
            font.clone(),
        ))
        .map_err(e)?;
    }
    root.draw(&Text::new(
        m.x.clone(),
        ((x0 + x1) / 2 - 40, y1 + 26),
        font.clone(),
    ))
    .map_err(e)?;
    for (j, y) in m.y_values.iter().enumerate() {
        root.draw(&Text::new(
            crate::scenario::fmt_num(*y),
            (x0 - 40, y0 + (ny - 1 - j as i32) * ch + ch / 2 - 6),
            font.clone(),
        ))
        .map_err(e)?;
    }
    root.draw(&Text::new(m.y.clone(), (4, y0 - 20), font))
        .map_err(e)?;
    root.present().map_err(e)
}

/// [`draw_xy`] to an SVG string (light theme).
pub fn xy_svg(
    x_desc: &str,
    y_desc: &str,
    pts: &[(f64, f64)],
    log_x: bool,
) -> Result<String, String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (800, 400)).into_drawing_area();
        draw_xy(&root, x_desc, y_desc, pts, log_x, LIGHT)?;
    }
    Ok(out)
}

/// [`draw_heatmap`] to an SVG string (light theme).
pub fn heatmap_svg(m: &PhaseMap) -> Result<String, String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (800, 480)).into_drawing_area();
        draw_heatmap(&root, m, LIGHT)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::study::phase::Cell;

    fn map() -> PhaseMap {
        let mut cells = Vec::new();
        for (j, y) in [1.0, 4.0].into_iter().enumerate() {
            for (i, x) in [2000.0, 4000.0, 6000.0].into_iter().enumerate() {
                let k = (i + 3 * j) as f64 / 5.0;
                cells.push(Cell {
                    x,
                    y,
                    kept: vec![k],
                    kept_mean: k,
                    kept_min: k,
                    kept_max: k,
                    split: i == 1 && j == 1,
                    lookups_per_s: x / 2.0,
                });
            }
        }
        PhaseMap {
            preset: "p".into(),
            x: "idle_lookups_per_s".into(),
            y: "refill_interval_s".into(),
            x_values: vec![2000.0, 4000.0, 6000.0],
            y_values: vec![1.0, 4.0],
            seeds: 1,
            cells,
        }
    }

    #[test]
    fn heatmap_labels_every_cell_and_marks_the_split_one() {
        let svg = heatmap_svg(&map()).unwrap();
        for label in ["0", "20", "40", "60", "80*", "100"] {
            assert!(svg.contains(&format!(">\n{label}\n<")), "{label}");
        }
        assert_eq!(svg.matches('*').count(), 2, "the split cell and the title");
    }

    #[test]
    fn a_click_finds_its_cell() {
        let m = map();
        let (x0, y0, x1, y1) = plot_area(800, 480);
        // Bottom-left is the first x and the first y; top-right the last of each.
        assert_eq!(heatmap_cell_at(&m, 800, 480, x0 + 1, y1 - 1), Some((0, 0)));
        assert_eq!(heatmap_cell_at(&m, 800, 480, x1 - 1, y0 + 1), Some((2, 1)));
        assert_eq!(heatmap_cell_at(&m, 800, 480, x0 - 1, y0 + 1), None);
    }

    #[test]
    fn kept_colour_runs_from_red_to_green() {
        assert_eq!(kept_colour(0.0), RGBColor(0xb2, 0x18, 0x2b));
        assert_eq!(kept_colour(1.0), RGBColor(0x1a, 0x98, 0x50));
        assert_eq!(kept_colour(f64::NAN), kept_colour(0.0));
    }
}
