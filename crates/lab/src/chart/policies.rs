//! The policies figure: the hot set kept and the miss ratio of each replacement policy.

use super::{caption_font, e, label_font, mesh, whole, Theme, HOT, LIGHT, SCAN};
use plotters::coord::Shift;
use plotters::prelude::*;

/// The series legend inside the plot area, for the policies figure, whose y axis leaves room
/// above 100 % for it.
fn draw_legend<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    position: SeriesLabelPosition,
    theme: Theme,
) -> Result<(), String> {
    chart
        .configure_series_labels()
        .position(position)
        .background_style(theme.background.mix(0.85))
        .border_style(theme.grid)
        .label_font(label_font(theme))
        .draw()
        .map_err(e)
}

/// One policy's bars in the policies figure: the hot set kept and the miss ratio (fractions).
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
pub struct PolicyBar {
    pub policy: String,
    pub kept: f64,
    pub miss_ratio: f64,
}

/// How the figure names a policy (`--policy` spells it in lower case).
pub fn policy_label(policy: &str) -> &str {
    match policy {
        "innodb" => "InnoDB",
        "lru" => "LRU",
        "fifo" => "FIFO",
        "clock" => "CLOCK",
        "2q" => "2Q",
        "arc" => "ARC",
        "sieve" => "SIEVE",
        "s3fifo" => "S3-FIFO",
        "lirs" => "LIRS",
        "belady" => "Belady",
        other => other,
    }
}

/// One group per policy: the hot set kept (%, solid) and the miss ratio over the scan phase
/// (%, lighter); the group of `highlight` (the InnoDB run the page animates) is outlined and
/// its name set in bold.
pub fn draw_policies<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    bars: &[PolicyBar],
    highlight: Option<&str>,
    theme: Theme,
) -> Result<(), String> {
    root.fill(&theme.background).map_err(e)?;
    let n = bars.len().max(1);
    // Room above 100 % for the legend, so that it never hides a bar.
    let top = 132.0;
    let mut chart = ChartBuilder::on(root)
        .caption(
            "Other policies on this scenario: hot set kept and miss ratio",
            caption_font(theme),
        )
        .margin(8)
        .x_label_area_size(24)
        .y_label_area_size(44)
        .build_cartesian_2d(0f64..n as f64, 0f64..top)
        .map_err(e)?;
    mesh(&mut chart, theme)
        .disable_x_mesh()
        .disable_x_axis()
        .y_labels(14)
        .y_desc("%")
        .y_label_formatter(&|y| if *y <= 100.0 { whole(y) } else { String::new() })
        .draw()
        .map_err(e)?;
    let (ck, cm) = (HOT, SCAN);
    if let Some(i) = bars
        .iter()
        .position(|b| Some(b.policy.as_str()) == highlight)
    {
        let x = i as f64;
        let area = [(x + 0.04, 0.0), (x + 0.96, 104.0)];
        chart
            .draw_series([
                Rectangle::new(area, theme.text.mix(0.08).filled()),
                Rectangle::new(area, theme.text.stroke_width(2)),
            ])
            .map_err(e)?;
    }
    chart
        .draw_series(bars.iter().enumerate().map(|(i, b)| {
            let x = i as f64;
            Rectangle::new(
                [(x + 0.12, 0.0), (x + 0.5, 100.0 * b.kept.clamp(0.0, 1.0))],
                ck.filled(),
            )
        }))
        .map_err(e)?
        .label("hot set kept")
        .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], ck.filled()));
    chart
        .draw_series(bars.iter().enumerate().map(|(i, b)| {
            let x = i as f64;
            Rectangle::new(
                [
                    (x + 0.5, 0.0),
                    (x + 0.88, 100.0 * b.miss_ratio.clamp(0.0, 1.0)),
                ],
                cm.mix(0.55).filled(),
            )
        }))
        .map_err(e)?
        .label("miss ratio over the scan phase")
        .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], cm.mix(0.55).filled()));
    // The policy names under their groups, in backend pixels (the x axis has no ticks).
    for (i, b) in bars.iter().enumerate() {
        let (px, py) = chart.backend_coord(&(i as f64 + 0.5, 0.0));
        let bold = Some(b.policy.as_str()) == highlight;
        let font = ("sans-serif", 12)
            .into_font()
            .style(if bold {
                FontStyle::Bold
            } else {
                FontStyle::Normal
            })
            .color(&theme.text)
            .pos(plotters::style::text_anchor::Pos::new(
                plotters::style::text_anchor::HPos::Center,
                plotters::style::text_anchor::VPos::Top,
            ));
        root.draw(&Text::new(
            policy_label(&b.policy).to_string(),
            (px, py + 6),
            font,
        ))
        .map_err(e)?;
    }
    draw_legend(&mut chart, SeriesLabelPosition::UpperMiddle, theme)?;
    root.present().map_err(e)
}

/// Renders the policies figure to an SVG string.
pub fn policies_svg(bars: &[PolicyBar], highlight: Option<&str>) -> Result<String, String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (900, 400)).into_drawing_area();
        draw_policies(&root, bars, highlight, LIGHT)?;
    }
    Ok(out)
}

#[cfg(test)]
mod policy_chart_tests {
    use super::*;

    #[test]
    fn policies_svg_draws_two_bars_per_policy() {
        let bars: Vec<PolicyBar> = ["innodb", "lru", "2q"]
            .iter()
            .enumerate()
            .map(|(i, p)| PolicyBar {
                policy: p.to_string(),
                kept: 0.2 * (i + 1) as f64,
                miss_ratio: 0.9,
            })
            .collect();
        let svg = policies_svg(&bars, Some("innodb")).unwrap();
        assert!(svg.contains("2Q") && svg.contains("InnoDB"), "{svg}");
        let none = policies_svg(&[], None).unwrap();
        assert!(svg.matches("<rect").count() >= none.matches("<rect").count() + 6);
    }
}
