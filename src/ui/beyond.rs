//! The page's logic for the article's "Beyond" figures drawn from committed data: the files in
//! `www/data/` (a study's `--json` output with the command and the commit it came from), the
//! phase heat map's hover text, and the setting a click on one of its cells runs in the lab.

use super::narrate::n;
use super::query::pairs_query;
use midpoint_core::scenario::{fmt_num, preset};
use midpoint_lab::study::charts::heatmap_cell_at;
use midpoint_lab::study::phase::{self, PhaseMap};
use midpoint_lab::study::scale::ScaleRow;
use midpoint_lab::study::whatif::ReadRow;
use serde::Deserialize;

/// A committed data file: the study's JSON output beside the command and the commit.
#[derive(Clone, Debug, Deserialize)]
pub struct Committed<T> {
    pub command: String,
    pub commit: String,
    #[serde(flatten)]
    pub data: T,
}

/// `midpoint scale --json`.
#[derive(Clone, Debug, Deserialize)]
pub struct ScaleData {
    pub rows: Vec<ScaleRow>,
}

impl ScaleData {
    /// The scale figure in words, for its canvas's `aria-label`: kept per size after each
    /// duration the figure draws, then when kept fell below 50 %.
    pub fn describe(&self) -> String {
        use midpoint_lab::study::charts::{
            onset_label, scale_durations, scan_time_label, size_label,
        };
        let rows = &self.rows;
        let mut parts = Vec::new();
        for d in scale_durations(rows) {
            let kept: Vec<String> = rows
                .iter()
                .map(|r| {
                    let k = r.kept_by_scan_s.get(&d).copied().unwrap_or(f64::NAN) * 100.0;
                    let k = if k > 99.0 && k < 100.0 {
                        format!("{k:.1}")
                    } else {
                        format!("{k:.0}")
                    };
                    format!("{k} % at {}", size_label(r.pool_mb as f64))
                })
                .collect();
            parts.push(format!(
                "after {} of scanning the hot set kept {}",
                scan_time_label(d as f64),
                kept.join(", ")
            ));
        }
        let onsets: Vec<String> = rows
            .iter()
            .map(|r| {
                let when = match r.onset_s {
                    Some(_) => format!("after {}", onset_label(r)),
                    None => format!("not within {}", scan_time_label(r.longest_scan_s as f64)),
                };
                format!("{when} at {}", size_label(r.pool_mb as f64))
            })
            .collect();
        format!(
            "Line chart of the hot set kept against pool size: {}. Kept fell below 50 % {}.",
            parts.join("; "),
            onsets.join(", ")
        )
    }
}

/// `midpoint what-ifs --compare --json` (its read-only rows).
#[derive(Clone, Debug, Deserialize)]
pub struct WhatIfData {
    pub read: Vec<ReadRow>,
}

/// Parses a committed file's text, naming it in the error. (The page parses with the browser's
/// `JSON.parse` and hands the object over, `web::beyond`, which keeps a JSON parser out of the
/// WASM module.)
pub fn parse<T: for<'de> Deserialize<'de>>(name: &str, text: &str) -> Result<Committed<T>, String> {
    serde_json::from_str(text).map_err(|e| format!("www/data/{name}.json: {e}"))
}

/// "computed by running “command” at commit …", for a caption (plain text: the page sets it as text).
pub fn provenance<T>(c: &Committed<T>) -> String {
    format!("computed by running “{}” at commit {}", c.command, c.commit)
}

/// No data: a committed file read for its provenance alone.
#[derive(Clone, Debug, Deserialize)]
pub struct Source {}

/// The heat map of the phase diagram, as the page shows it.
#[derive(Clone, Debug)]
pub struct PhaseFigure {
    pub map: PhaseMap,
    pub provenance: String,
}

impl PhaseFigure {
    /// From the committed file's text.
    pub fn from_json(text: &str) -> Result<PhaseFigure, String> {
        PhaseFigure::new(parse("phase", text)?)
    }

    /// From the committed file; a map whose cells do not fill its grid is refused.
    pub fn new(c: Committed<PhaseMap>) -> Result<PhaseFigure, String> {
        let m = &c.data;
        if m.x_values.is_empty()
            || m.y_values.is_empty()
            || m.cells.len() != m.x_values.len() * m.y_values.len()
        {
            return Err(format!(
                "www/data/phase.json: {} cells for a {} × {} grid",
                m.cells.len(),
                m.x_values.len(),
                m.y_values.len()
            ));
        }
        Ok(PhaseFigure {
            provenance: provenance(&c),
            map: c.data,
        })
    }

    /// The cell under CSS pixel (x, y) of a drawing `width` × `height` CSS pixels.
    pub fn cell_at(&self, width: f64, height: f64, x: f64, y: f64) -> Option<(usize, usize)> {
        if !(x.is_finite() && y.is_finite()) {
            return None;
        }
        heatmap_cell_at(&self.map, width as u32, height as u32, x as i32, y as i32)
            .filter(|&(i, j)| i < self.map.x_values.len() && j < self.map.y_values.len())
    }

    /// The cell (i, j) moved by (di, dj), clamped to the grid (arrow keys).
    pub fn moved(&self, (i, j): (usize, usize), di: i32, dj: i32) -> (usize, usize) {
        let clamp =
            |v: usize, d: i32, n: usize| (v as i64 + d as i64).clamp(0, n as i64 - 1) as usize;
        (
            clamp(i, di, self.map.x_values.len()),
            clamp(j, dj, self.map.y_values.len()),
        )
    }

    /// One axis value in words (whole numbers with thousands separators).
    fn axis(name: &str, v: f64) -> String {
        let num = if v.fract() == 0.0 && (0.0..1e15).contains(&v) {
            n(v as u64)
        } else {
            fmt_num(v)
        };
        match name {
            "idle_lookups_per_s" => format!("{num} idle lookups/s"),
            phase::REFILL_INTERVAL => format!("refills every {num} s"),
            _ => format!("{name} = {num}"),
        }
    }

    /// A sentence about cell (i, j): its setting, the kept share per seed, and whether the
    /// seeds split.
    pub fn describe(&self, i: usize, j: usize) -> String {
        let m = &self.map;
        let (Some(&xv), Some(&yv)) = (m.x_values.get(i), m.y_values.get(j)) else {
            return String::new();
        };
        let c = m.at(i, j);
        let seeds: Vec<String> = c.kept.iter().map(|k| format!("{:.0}", k * 100.0)).collect();
        format!(
            "{}, {} (≈ {} lookups/s during the scans): the {}-page hot set kept {:.0} % on average in the model (its runs: {} %){}. Click or press Enter to run this setting in the lab.",
            Self::axis(&m.x, xv),
            Self::axis(&m.y, yv),
            n(c.lookups_per_s.max(0.0).round() as u64),
            n(preset(&m.preset).map(|p| p.params.hot_pages).unwrap_or(0)),
            c.kept_mean * 100.0,
            seeds.join(", "),
            if c.split {
                ": the runs split, one keeps more than half and another less"
            } else {
                ""
            }
        )
    }

    /// The lab's URL query for cell (i, j): the preset, then the parameters the cell changes.
    pub fn query(&self, i: usize, j: usize) -> Result<String, String> {
        let m = &self.map;
        let (Some(&xv), Some(&yv)) = (m.x_values.get(i), m.y_values.get(j)) else {
            return Err(format!("no cell ({i}, {j}) in the map"));
        };
        let base = preset(&m.preset)?.params;
        let p = phase::cell_params(&base, &m.x, xv, &m.y, yv)?;
        let before = base.to_pairs();
        let mut pairs = vec![("preset".to_string(), m.preset.clone())];
        pairs.extend(p.to_pairs().into_iter().filter(|kv| !before.contains(kv)));
        Ok(pairs_query(pairs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn committed_phase() -> String {
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/www/data/phase.json"))
            .unwrap()
    }

    #[test]
    fn the_committed_files_parse() {
        let f = PhaseFigure::from_json(&committed_phase()).unwrap();
        assert_eq!(f.map.preset, "seed000-hot897-b2b");
        assert!(f.provenance.contains("midpoint phase"), "{}", f.provenance);
        for name in ["scale", "whatifs"] {
            let text = std::fs::read_to_string(format!(
                "{}/www/data/{name}.json",
                env!("CARGO_MANIFEST_DIR")
            ))
            .unwrap();
            if name == "scale" {
                assert!(!parse::<ScaleData>(name, &text)
                    .unwrap()
                    .data
                    .rows
                    .is_empty());
            } else {
                assert!(!parse::<WhatIfData>(name, &text)
                    .unwrap()
                    .data
                    .read
                    .is_empty());
            }
        }
        assert!(PhaseFigure::from_json("{}")
            .unwrap_err()
            .contains("phase.json"));
    }

    #[test]
    fn a_cell_names_its_setting_and_links_to_it() {
        let f = PhaseFigure::from_json(&committed_phase()).unwrap();
        let (i, j) = (0, 2); // 2,000 idle lookups/s, refills every 4 s
        let q = f.query(i, j).unwrap();
        assert!(q.starts_with("preset=seed000-hot897-b2b&"), "{q}");
        assert!(q.contains("cleaner=after-activity%3A4"), "{q}");
        assert!(q.contains("idle_lookups_per_s=2000"), "{q}");
        // The lab reads it back as that setting.
        let p = crate::ui::query::parse(&q).params;
        assert_eq!(p.idle_lookups_per_s, 2000.0);
        let d = f.describe(i, j);
        assert!(
            d.starts_with("2,000 idle lookups/s, refills every 4 s"),
            "{d}"
        );
        assert!(f.query(99, 0).is_err());
        assert_eq!(f.describe(99, 0), "");
    }

    #[test]
    fn clicks_and_keys_find_cells_inside_the_grid() {
        let f = PhaseFigure::from_json(&committed_phase()).unwrap();
        let (nx, ny) = (f.map.x_values.len(), f.map.y_values.len());
        assert_eq!(f.cell_at(800.0, 480.0, 71.0, 429.0), Some((0, 0)));
        assert_eq!(f.cell_at(800.0, 480.0, 779.0, 45.0), Some((nx - 1, ny - 1)));
        assert_eq!(f.cell_at(800.0, 480.0, 5.0, 5.0), None);
        assert_eq!(f.cell_at(800.0, 480.0, f64::NAN, 5.0), None);
        assert_eq!(f.moved((0, 0), -1, -1), (0, 0));
        assert_eq!(f.moved((0, 0), 1, 99), (1, ny - 1));
    }
}
