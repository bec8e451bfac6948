//! The studies' charts, drawn with plotters over any `DrawingBackend` (as `crate::chart` does),
//! so that the page can render them on a canvas and the CLI to SVG.

use super::phase::PhaseMap;
use super::scale::ScaleRow;
use crate::chart::{e, mesh, titled_with_legend, Key, Theme, AXIS_X, FILLER, LIGHT};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// A pool size in MiB as the axis shows it: "256 MiB", "4 GiB".
pub fn size_label(mb: f64) -> String {
    if mb >= 1024.0 {
        format!("{} GiB", midpoint_core::scenario::fmt_num(mb / 1024.0))
    } else {
        format!("{} MiB", midpoint_core::scenario::fmt_num(mb))
    }
}

/// The pool sizes to label on a log axis from `lo` to `hi` drawn `width_px` wide: the largest,
/// then each smaller one at least a label's width (56 px) left of the last one kept.
pub fn size_ticks(sizes: &[f64], lo: f64, hi: f64, width_px: f64) -> Vec<f64> {
    let per_decade = width_px.max(1.0) / (hi / lo.max(1e-9)).log10().max(1e-9);
    let mut v: Vec<f64> = sizes.to_vec();
    v.sort_by(|a, b| b.total_cmp(a));
    let mut kept: Vec<f64> = Vec::new();
    for x in v {
        if kept
            .last()
            .is_none_or(|&k| (k / x).log10() * per_decade >= 56.0)
        {
            kept.push(x);
        }
    }
    kept.reverse();
    kept
}

/// The colours and markers of the kept curves, earliest duration first (Okabe-Ito orange,
/// vermillion, reddish purple: darker as the scan goes on).
const DURATION_COLOURS: [RGBColor; 3] = [
    RGBColor(0xe6, 0x9f, 0x00),
    RGBColor(0xd5, 0x5e, 0x00),
    RGBColor(0x8e, 0x3b, 0x8a),
];

/// The durations the scale figure draws a curve for: those every row has, at most three (the
/// shortest, the longest and the one halfway along the list between them).
pub fn scale_durations(rows: &[ScaleRow]) -> Vec<u32> {
    let mut common: Vec<u32> = match rows.first() {
        Some(r) => r.kept_by_scan_s.keys().copied().collect(),
        None => Vec::new(),
    };
    common.retain(|d| rows.iter().all(|r| r.kept_by_scan_s.contains_key(d)));
    if common.len() <= 3 {
        return common;
    }
    vec![
        common[0],
        common[common.len() / 2],
        common[common.len() - 1],
    ]
}

/// Seconds of scanning as the figure prints them: "97 s", "250 s", "25 min" (minutes from 10).
pub fn scan_time_label(s: f64) -> String {
    if s < 600.0 {
        format!("{s:.0} s")
    } else {
        format!("{:.0} min", s / 60.0)
    }
}

/// The onset as the figure prints it under a pool size: the time until kept < 50 %, or "> N
/// min" when it stays above within the longest duration.
pub fn onset_label(r: &ScaleRow) -> String {
    match r.onset_s {
        Some(s) => scan_time_label(s),
        None => format!("> {}", scan_time_label(r.longest_scan_s as f64)),
    }
}

/// The scale figure: the hot set kept (%) after several scan durations (one curve each, a
/// marker per row: circle, square, triangle) against the pool size on a log axis, a dotted
/// line at 50 %, and under each size the scan time until kept fell below it (the onset).
/// Returns the number of rows drawn.
pub fn draw_scale<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    rows: &[ScaleRow],
    theme: Theme,
) -> Result<usize, String> {
    root.fill(&theme.background).map_err(e)?;
    let sizes: Vec<f64> = rows.iter().map(|r| r.pool_mb as f64).collect();
    let lo = sizes.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = sizes.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = if lo.is_finite() && hi > lo {
        (lo, hi)
    } else {
        (128.0, 65536.0)
    };
    let narrow = root.dim_in_pixel().0 < 600;
    let durations = scale_durations(rows);
    let entries = scale_legend(&durations, narrow);
    let half = super::scale::ONSET_KEPT * 100.0;
    let caption = if narrow {
        "Hot set kept vs pool size, over time"
    } else {
        "The scan-leak experiment scaled up: hot set kept after longer and longer scans"
    };
    let area = titled_with_legend(root, caption, &entries, 60, theme)?;
    let ticks = size_ticks(
        &sizes,
        lo * 0.8,
        hi * 1.25,
        area.dim_in_pixel().0 as f64 - 80.0,
    );
    let build = |y_lo: f64| {
        ChartBuilder::on(&area)
            .margin(8)
            .margin_right(16)
            .x_label_area_size(AXIS_X)
            .y_label_area_size(46)
            .build_cartesian_2d(
                (lo * 0.8..hi * 1.25)
                    .log_scale()
                    .with_key_points(ticks.clone()),
                y_lo..105f64,
            )
            .map_err(e)
    };
    // The onsets go in a band below 0 %; where two would touch (16 and 32 GiB on a phone) the
    // second drops to a lane of its own, and the band grows to hold it.
    let font = crate::chart::label_font(theme).pos(Pos::new(HPos::Center, VPos::Center));
    let mut chart = build(-12.0)?;
    let xs: Vec<i32> = rows
        .iter()
        .map(|r| chart.backend_coord(&(r.pool_mb as f64, 0.0)).0)
        .collect();
    let widths: Vec<i32> = rows
        .iter()
        .map(|r| {
            area.estimate_text_size(&onset_label(r), &font)
                .map_or(0, |s| s.0 as i32)
        })
        .collect();
    let lanes = onset_lanes(&xs, &widths, 6);
    if lanes.contains(&1) {
        chart = build(-24.0)?;
    }
    mesh(&mut chart, theme)
        .x_desc("buffer pool size (log scale)")
        .y_desc("hot set kept, %")
        .x_label_formatter(&|x| size_label(*x))
        .y_labels(6)
        .y_label_formatter(&|y| {
            if *y < 0.0 {
                String::new()
            } else {
                format!("{y:.0}")
            }
        })
        .draw()
        .map_err(e)?;
    chart
        .draw_series(DashedLineSeries::new(
            [(lo * 0.8, half), (hi * 1.25, half)],
            3,
            4,
            FILLER.stroke_width(1),
        ))
        .map_err(e)?;
    for (k, (&d, c)) in durations.iter().zip(DURATION_COLOURS).enumerate() {
        let pts: Vec<(f64, f64)> = rows
            .iter()
            .filter_map(|r| {
                let v = r.kept_by_scan_s.get(&d)?;
                v.is_finite().then_some((r.pool_mb as f64, v * 100.0))
            })
            .collect();
        chart
            .draw_series(LineSeries::new(pts.clone(), c.stroke_width(2)))
            .map_err(e)?;
        match k {
            0 => chart
                .draw_series(pts.iter().map(|&p| Circle::new(p, 4, c.filled())))
                .map(|_| ())
                .map_err(e)?,
            1 => {
                chart
                    .draw_series(pts.iter().map(|&p| {
                        EmptyElement::at(p) + Rectangle::new([(-4, -4), (4, 4)], c.filled())
                    }))
                    .map(|_| ())
                    .map_err(e)?
            }
            _ => chart
                .draw_series(pts.iter().map(|&p| {
                    EmptyElement::at(p) + Polygon::new(vec![(0, -5), (5, 4), (-5, 4)], c.filled())
                }))
                .map(|_| ())
                .map_err(e)?,
        }
    }
    chart
        .draw_series(rows.iter().zip(&lanes).map(|(r, &lane)| {
            let y = if lane == 0 { -6.0 } else { -18.0 };
            Text::new(onset_label(r), (r.pool_mb as f64, y), font.clone())
        }))
        .map_err(e)?;
    root.present().map_err(e)?;
    Ok(rows.len())
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
    (70, 44, width as i32 - 20, height as i32 - 50)
}

/// The phase map as a heat map: one rectangle per cell, coloured by mean kept, labelled with
/// it; split cells get a star and a ring; the `selected` cell (i, j), if any, a thick frame in
/// the text colour.
pub fn draw_heatmap<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    m: &PhaseMap,
    selected: Option<(usize, usize)>,
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
    let title = if w < 600 {
        format!("kept %, {} run(s) per cell (* = runs split)", m.seeds)
    } else {
        format!(
            "{}: hot set kept %, {} run(s) per cell (* = runs split)",
            m.preset, m.seeds
        )
    };
    root.draw(&Text::new(title, (x0.min(8), 4), font.clone()))
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
            if selected == Some((i as usize, j as usize)) {
                root.draw(&Rectangle::new(
                    [(cx - 1, cy - 1), (cx + cw, cy + ch)],
                    theme.text.stroke_width(4),
                ))
                .map_err(e)?;
            }
        }
    }
    for (i, x) in m.x_values.iter().enumerate() {
        root.draw(&Text::new(
            midpoint_core::scenario::fmt_num(*x),
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
            midpoint_core::scenario::fmt_num(*y),
            (x0 - 40, y0 + (ny - 1 - j as i32) * ch + ch / 2 - 6),
            font.clone(),
        ))
        .map_err(e)?;
    }
    root.draw(&Text::new(m.y.clone(), (4, y0 - 18), font))
        .map_err(e)?;
    root.present().map_err(e)
}

/// The scale figure's legend: a line per duration drawn and the dashed 50 % (shorter on a
/// phone, where the long wording would be cut).
fn scale_legend(durations: &[u32], narrow: bool) -> Vec<(String, Key)> {
    let mut entries: Vec<(String, Key)> = durations
        .iter()
        .zip(DURATION_COLOURS)
        .map(|(&d, c)| {
            (
                format!("kept after {} of scanning", scan_time_label(d as f64)),
                Key::Line(c),
            )
        })
        .collect();
    let half = super::scale::ONSET_KEPT * 100.0;
    entries.push((
        if narrow {
            format!("{half:.0} %; under each size: time to fall below")
        } else {
            format!("{half:.0} % of the hot set; under each size: the scan time until kept fell below it")
        },
        Key::Dashed(FILLER),
    ));
    entries
}

/// The lane (0: the first, 1: the second, under it) of each label centred at `xs` with the
/// `widths` given (pixels, left to right): a label that would come within `gap` of the one before
/// it in the first lane takes the second, unless it would touch the second lane's last label too.
pub fn onset_lanes(xs: &[i32], widths: &[i32], gap: i32) -> Vec<u8> {
    let mut ends = [i32::MIN / 2; 2];
    xs.iter()
        .zip(widths)
        .map(|(&x, &w)| {
            let start = x - w / 2;
            let lane = if start >= ends[0] + gap || start < ends[1] + gap {
                0
            } else {
                1
            };
            ends[lane as usize] = x + (w + 1) / 2;
            lane
        })
        .collect()
}

/// [`draw_scale`] to an SVG string (light theme).
pub fn scale_svg(rows: &[ScaleRow]) -> Result<String, String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (800, 420)).into_drawing_area();
        draw_scale(&root, rows, LIGHT)?;
    }
    Ok(out)
}

/// [`draw_heatmap`] to an SVG string (light theme).
pub fn heatmap_svg(m: &PhaseMap) -> Result<String, String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (800, 480)).into_drawing_area();
        draw_heatmap(&root, m, None, LIGHT)?;
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
    fn the_scale_curve_marks_every_row_on_a_labelled_log_axis() {
        let row = |mb: u32, kept: f64, onset_s: Option<f64>| ScaleRow {
            pool_mb: mb,
            instances: 1,
            frames_per_instance: 1,
            hot_pages: 1,
            scan_table_pages: 1,
            seeds: 1,
            kept,
            kept_min: kept,
            kept_max: kept,
            leak_per_s_pool: 35.0,
            leak_per_s_instance: 35.0,
            leak_per_mille_of_young_per_s: 1.0,
            refills_per_s_pool: 0.05,
            refills_per_s_instance: 0.05,
            mean_refill_pages: 1024.0,
            scan_pages_per_s: 1.0,
            scan_passes: 1.0,
            lookups_per_s: 1.0,
            memory_mb: 1.0,
            kept_by_scan_s: [150, 300, 600, 1200, 1800]
                .into_iter()
                .map(|d| (d, kept * 150.0 / d as f64))
                .collect(),
            onset_s,
            longest_scan_s: 1800,
        };
        let rows = [
            row(256, 0.4, Some(97.0)),
            row(4096, 0.86, Some(250.0)),
            row(32768, 0.999, None),
        ];
        // Five durations: the shortest, the middle one and the longest get a curve.
        assert_eq!(scale_durations(&rows), [150, 600, 1800]);
        let svg = scale_svg(&rows).unwrap();
        for label in [
            "256 MiB",
            "4 GiB",
            "32 GiB",
            "hot set kept, %",
            "kept after 150 s of scanning",
            "kept after 10 min of scanning",
            "kept after 30 min of scanning",
            // The onsets under the sizes.
            ">\n97 s\n<",
            ">\n250 s\n<",
            ">\n&gt; 30 min\n<",
        ] {
            assert!(svg.contains(label), "{label}");
        }
        assert_eq!(
            svg.matches("<circle").count(),
            3,
            "one marker per row on the first curve"
        );
        let mut out = String::new();
        let root = SVGBackend::with_string(&mut out, (360, 300)).into_drawing_area();
        assert_eq!(draw_scale(&root, &rows, LIGHT), Ok(3));
        assert_eq!(size_label(1536.0), "1.5 GiB");
        let sizes = [256.0, 1024.0, 4096.0, 16384.0, 32768.0];
        assert_eq!(size_ticks(&sizes, 200.0, 41000.0, 700.0), sizes);
        // A phone: 16 GiB would run into 32 GiB.
        assert_eq!(
            size_ticks(&sizes, 200.0, 41000.0, 230.0),
            [256.0, 1024.0, 4096.0, 32768.0]
        );
    }

    #[test]
    fn onsets_that_would_touch_take_the_second_lane() {
        // Far apart: one lane.
        assert_eq!(onset_lanes(&[50, 150, 250], &[40, 40, 40], 6), [0, 0, 0]);
        // 16 and 32 GiB on a phone: 25 min's right end at 310, "> 30 min" starts at 305.
        assert_eq!(
            onset_lanes(&[40, 100, 160, 290, 335], &[32, 32, 32, 40, 60], 6),
            [0, 0, 0, 0, 1]
        );
        // Three in a row that all touch: the third goes back to the first lane once it is clear
        // of the first, else stays in the first lane (a second lane taken would touch too).
        assert_eq!(onset_lanes(&[100, 130, 160], &[40, 40, 40], 6), [0, 1, 0]);
    }

    #[test]
    fn the_phone_legend_fits_its_width() {
        // A 390 px phone gives the canvas 370 px; the legend starts 60 px in, its key 22 px wide.
        let mut out = String::new();
        let root = SVGBackend::with_string(&mut out, (370, 320)).into_drawing_area();
        let font = crate::chart::label_font(LIGHT);
        for (label, _) in scale_legend(&[150, 600, 1800], true) {
            let w = root.estimate_text_size(&label, &font).unwrap().0 as i32;
            assert!(60 + 22 + w <= 370 - 8, "{label}: {w} px");
        }
        // The wide wording would not fit there.
        let (wide, _) = scale_legend(&[150], false).pop().unwrap();
        assert!(60 + 22 + root.estimate_text_size(&wide, &font).unwrap().0 as i32 > 362);
    }

    #[test]
    fn kept_colour_runs_from_red_to_green() {
        assert_eq!(kept_colour(0.0), RGBColor(0xb2, 0x18, 0x2b));
        assert_eq!(kept_colour(1.0), RGBColor(0x1a, 0x98, 0x50));
        assert_eq!(kept_colour(f64::NAN), kept_colour(0.0));
    }
}
