//! The hot set's phase diagram: kept on a grid of two parameters, several seeds per cell, to show
//! where the outcome splits; and the check of a setting against seed 000's other kept bands.

use crate::experiments::seed000;
use crate::experiments::table::{Align, Table};
use midpoint_core::scenario::{fmt_num, preset, Params};
use midpoint_core::sim;
use serde::{Deserialize, Serialize};

/// The axis names beyond the scenario's own parameters: `refill_interval_s` is the page-cleaner
/// cadence `after-activity:S` (the mean interval of the activity events that let a refill run).
pub const REFILL_INTERVAL: &str = "refill_interval_s";

/// The rates whose 0 means "not given" (the preset's CPU time per lookup or per scanned page is
/// used instead): as an axis value, 0 would run the preset's own rate under the label 0.
pub const UNSET_AT_ZERO: [&str; 2] = ["idle_lookups_per_s", "idle_scan_pages_per_s"];

/// Sets one axis value on `p`. The name is a parameter (dashes or underscores) or
/// [`REFILL_INTERVAL`]. A rate of [`UNSET_AT_ZERO`] must be above 0.
pub fn set_axis(p: &mut Params, name: &str, v: f64) -> Result<(), String> {
    check_axis(name)?;
    let name = name.replace('-', "_");
    if UNSET_AT_ZERO.contains(&name.as_str()) && v == 0.0 {
        return Err(format!(
            "{name} = 0 means \"not given\" (the preset's own rate runs), so a cell at 0 would be the preset's rate labelled 0; give rates above 0"
        ));
    }
    if name == REFILL_INTERVAL {
        if !(v.is_finite() && (0.001..=3600.0).contains(&v)) {
            return Err(format!(
                "{REFILL_INTERVAL} = {v} is out of range: allowed from 0.001 to 3,600 s"
            ));
        }
        return p.set("cleaner", &format!("after-activity:{}", fmt_num(v)));
    }
    p.set(&name, &fmt_num(v))
}

/// Whether `name` (dashes or underscores) is an axis: a numeric parameter or
/// [`REFILL_INTERVAL`]. The error quotes the name as given.
pub fn check_axis(name: &str) -> Result<(), String> {
    let n = name.replace('-', "_");
    if n == REFILL_INTERVAL || Params::spec(&n).and_then(|s| s.bounds()).is_some() {
        return Ok(());
    }
    Err(format!(
        "axis '{name}' is not a numeric parameter (or {REFILL_INTERVAL}); see `midpoint run --help`"
    ))
}

/// Default values for an axis, where the study has some.
pub fn default_values(name: &str) -> Option<Vec<f64>> {
    match name.replace('-', "_").as_str() {
        "idle_lookups_per_s" => Some(vec![2000.0, 3000.0, 4000.0, 5000.0, 6000.0]),
        REFILL_INTERVAL => Some(vec![1.0, 2.0, 4.0, 8.0, 12.0, 17.0, 20.0]),
        "hot_pages" => Some(vec![224.0, 448.0, 897.0, 1794.0, 2690.0, 4485.0]),
        "lru_scan_depth" => Some(vec![128.0, 256.0, 512.0, 1024.0, 2048.0]),
        _ => None,
    }
}

/// One cell of the grid.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Cell {
    pub x: f64,
    pub y: f64,
    /// Kept per seed (seeds 1, 2, ...).
    pub kept: Vec<f64>,
    pub kept_mean: f64,
    pub kept_min: f64,
    pub kept_max: f64,
    /// The seeds disagree: one keeps more than half of the hot set, another less.
    pub split: bool,
    /// Mean lookups per second during the scan.
    pub lookups_per_s: f64,
}

/// The whole map.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PhaseMap {
    pub preset: String,
    pub x: String,
    pub y: String,
    pub x_values: Vec<f64>,
    pub y_values: Vec<f64>,
    pub seeds: u32,
    /// Row-major: `cells[j * x_values.len() + i]` is (x_values[i], y_values[j]).
    pub cells: Vec<Cell>,
}

impl PhaseMap {
    /// The cell at (i, j).
    pub fn at(&self, i: usize, j: usize) -> &Cell {
        &self.cells[j * self.x_values.len() + i]
    }
}

/// The parameters of one cell: the preset with both axes set.
pub fn cell_params(base: &Params, x: &str, xv: f64, y: &str, yv: f64) -> Result<Params, String> {
    let mut p = base.clone();
    set_axis(&mut p, x, xv)?;
    set_axis(&mut p, y, yv)?;
    p.validate()?;
    // Kept is measured during the scan: without one, every cell would be NaN.
    if p.scan_s == 0 {
        return Err(
            "scan_s = 0: kept is the hot set's residency during the scan, so a cell without one has no kept; give a scan phase of 1 s or more".into(),
        );
    }
    Ok(p)
}

/// Runs one cell on seeds 1..=`seeds`.
pub fn run_cell(p: &Params, xv: f64, yv: f64, seeds: u32) -> Result<Cell, String> {
    let mut kept = Vec::new();
    let mut look = 0.0;
    let reports = crate::ensemble::par_map(
        &(1..=seeds.max(1) as u64).collect::<Vec<_>>(),
        |&s| {
            sim::run(&Params {
                seed: s,
                ..p.clone()
            })
        },
        |_, _| {},
    );
    for r in reports {
        let r = r?;
        kept.push(r.kept);
        look += r.lookups_per_s;
    }
    let n = kept.len() as f64;
    let kept_min = kept.iter().copied().fold(f64::INFINITY, f64::min);
    let kept_max = kept.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    Ok(Cell {
        x: xv,
        y: yv,
        kept_mean: kept.iter().sum::<f64>() / n,
        split: kept_min < 0.5 && kept_max > 0.5,
        kept,
        kept_min,
        kept_max,
        lookups_per_s: look / n,
    })
}

/// Runs the grid; every cell's parameters are checked before the first run. `progress(done,
/// total)` after each cell.
pub fn run(
    preset_name: &str,
    x: &str,
    xs: &[f64],
    y: &str,
    ys: &[f64],
    seeds: u32,
    progress: impl FnMut(usize, usize) + Send,
) -> Result<PhaseMap, String> {
    if xs.is_empty() || ys.is_empty() {
        return Err("each axis needs at least one value".into());
    }
    let base = preset(preset_name)?.params;
    let mut plan = Vec::new();
    for &yv in ys {
        for &xv in xs {
            plan.push((xv, yv, cell_params(&base, x, xv, y, yv)?));
        }
    }
    // Every cell at once (every core natively), back in the plan's order.
    let cells =
        crate::ensemble::par_map(&plan, |(xv, yv, p)| run_cell(p, *xv, *yv, seeds), progress)
            .into_iter()
            .collect::<Result<Vec<_>, _>>()?;
    Ok(PhaseMap {
        preset: preset_name.into(),
        x: x.replace('-', "_"),
        y: y.replace('-', "_"),
        x_values: xs.to_vec(),
        y_values: ys.to_vec(),
        seeds: seeds.max(1),
        cells,
    })
}

/// One of seed 000's kept figures under a setting.
#[derive(Clone, Debug, Serialize)]
pub struct BandCheck {
    pub preset: String,
    pub seed_value: String,
    pub band: (f64, f64),
    pub kept: f64,
    pub within: bool,
}

/// Runs seed 000's kept figures that have a band, with the axes set to (`xv`, `yv`), on
/// `seeds` seeds each: whether the setting keeps the other cells in band.
pub fn band_check(
    x: &str,
    xv: f64,
    y: &str,
    yv: f64,
    seeds: u32,
) -> Result<Vec<BandCheck>, String> {
    let mut v = Vec::new();
    for r in seed000::rows(false) {
        // Only predictions count: inputs and calibration targets are not evidence.
        let (Some(band), seed000::Metric::Kept, true) = (r.band(), r.metric, r.counts()) else {
            continue;
        };
        let base = preset(&r.preset)?.params;
        let p = cell_params(&base, x, xv, y, yv)?;
        let c = run_cell(&p, xv, yv, seeds)?;
        v.push(BandCheck {
            preset: r.preset.clone(),
            seed_value: r.seed_value.clone(),
            band,
            kept: c.kept_mean,
            within: c.kept_mean >= band.0 && c.kept_mean <= band.1,
        });
    }
    Ok(v)
}

/// Markdown: kept % per cell (mean, and min-max when the seeds split).
pub fn markdown(m: &PhaseMap) -> String {
    let mut t = Table::new(
        std::iter::once((format!("{} \\ {}", m.y, m.x), Align::Left))
            .chain(m.x_values.iter().map(|x| (fmt_num(*x), Align::Right))),
    );
    for (j, y) in m.y_values.iter().enumerate() {
        t.row(
            std::iter::once(fmt_num(*y)).chain((0..m.x_values.len()).map(|i| {
                let c = m.at(i, j);
                if c.split {
                    format!(
                        "{:.0}* ({:.0}-{:.0})",
                        c.kept_mean * 100.0,
                        c.kept_min * 100.0,
                        c.kept_max * 100.0
                    )
                } else {
                    format!("{:.0}", c.kept_mean * 100.0)
                }
            })),
        );
    }
    format!(
        "{}: kept % of the hot set, mean of {} seed(s); cells marked * split (one seed keeps more than half, another less)\n\n{}",
        m.preset,
        m.seeds,
        t.markdown()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes_set_parameters_and_the_cadence() {
        let mut p = Params::default();
        set_axis(&mut p, "refill-interval-s", 4.0).unwrap();
        assert_eq!(
            p.cleaner,
            midpoint_core::pool::page_cleaner::Cadence::AfterActivity {
                mean_interval_ms: 4000
            }
        );
        set_axis(&mut p, "idle-lookups-per-s", 2500.0).unwrap();
        assert_eq!(
            midpoint_core::sim::rates::derived(&p)
                .unwrap()
                .lookup_cpu_us,
            400.0
        );
        set_axis(&mut p, "hot_pages", 897.0).unwrap();
        assert_eq!(p.hot_pages, 897);
        assert!(set_axis(&mut p, "nope", 1.0).unwrap_err().contains("nope"));
        // The name as given, not with its dashes turned into underscores.
        let e = set_axis(&mut p, "-1", 1.0).unwrap_err();
        assert!(e.starts_with("axis '-1' is not"), "{e}");
        assert!(set_axis(&mut p, "refill_interval_s", 0.0).is_err());
        assert!(set_axis(&mut p, "old_blocks_pct", 200.0).is_err());
    }
}
