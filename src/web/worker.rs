//! What the Web Workers run: full runs (for the residency plot and "kept") and sweep points,
//! off the page's main thread, in a second instance of the same module.

use super::charts::{Point, RunData};
use super::query::page_limits;
use crate::clock::Micros;
use crate::scenario::Params;
use crate::sim::{Event, Simulation, EPOCH};
use crate::sweep;
use wasm_bindgen::prelude::*;

fn params_from(v: JsValue) -> Result<Params, JsValue> {
    let p: Params = serde_wasm_bindgen::from_value(v)
        .map_err(|e| JsValue::from_str(&format!("bad parameters: {e}")))?;
    let (p, notes) = page_limits(&p);
    if let Some(n) = notes.first() {
        return Err(JsValue::from_str(n));
    }
    Ok(p)
}

/// A full run, advanced in slices so that the worker can report progress.
#[wasm_bindgen]
pub struct Runner {
    sim: Simulation,
    done: bool,
}

#[wasm_bindgen]
impl Runner {
    /// A run with these parameters (a `Params` object).
    #[wasm_bindgen(constructor)]
    pub fn new(params: JsValue) -> Result<Runner, JsValue> {
        let p = params_from(params)?;
        let sim = Simulation::new(&p).map_err(|e| JsValue::from_str(&e))?;
        Ok(Runner { sim, done: false })
    }

    /// Runs up to `max_events` more events; returns the share of virtual time done (1 = over).
    pub fn advance(&mut self, max_events: u32) -> f64 {
        if !self.done {
            for _ in 0..max_events.max(1) {
                if self.sim.step() == Event::End {
                    self.done = true;
                    break;
                }
            }
        }
        if self.done {
            return 1.0;
        }
        let span = self.sim.end().saturating_sub(EPOCH).max(1) as f64;
        let now: Micros = self.sim.now().saturating_sub(EPOCH);
        (now as f64 / span).min(0.999_999)
    }

    /// The whole time series as CSV, every parameter in its header (the CLI's format).
    pub fn samples_csv(&self) -> String {
        crate::metrics::samples_csv(self.sim.params(), &self.sim.report().samples)
    }

    /// The summary, with at most `max_points` points of the time series.
    pub fn result(&self, max_points: u32) -> Result<JsValue, JsValue> {
        let r = self.sim.report();
        let every = r.samples.len().div_ceil(max_points.max(2) as usize).max(1);
        let mut points: Vec<Point> = r
            .samples
            .iter()
            .step_by(every)
            .map(|s| Point {
                t: s.t_s,
                hot: s.hot_resident,
                scan_young: s.scan_young,
            })
            .collect();
        if let Some(last) = r.samples.last() {
            if points.last().map(|q| q.t) != Some(last.t_s) {
                points.push(Point {
                    t: last.t_s,
                    hot: last.hot_resident,
                    scan_young: last.scan_young,
                });
            }
        }
        let d = RunData {
            kept: r.kept,
            kept_window_s: r.kept_window_s,
            slid_young_per_s: r.slid_young_per_s,
            promoted_per_s: r.promoted_per_s,
            lookups_per_s: r.lookups_per_s,
            lookups_per_s_warmup: r.lookups_per_s_warmup,
            scan_pages_per_s: r.scan_pages_per_s,
            refills_during_scan: r.refills_during_scan,
            mean_refill_pages: r.mean_refill_pages,
            page_accesses: r.counters.page_gets,
            events: self.sim.events(),
            points,
        };
        serde_wasm_bindgen::to_value(&d).map_err(|e| JsValue::from_str(&e.to_string()))
    }
}

/// One point of the sweep: a full run with this scan depth and old_blocks_time (ms).
#[wasm_bindgen]
pub fn sweep_point(params: JsValue, depth: u32, time: u32) -> Result<JsValue, JsValue> {
    let p = params_from(params)?;
    let q = sweep::sweep_point(&p, depth, time).map_err(|e| JsValue::from_str(&e))?;
    serde_wasm_bindgen::to_value(&q).map_err(|e| JsValue::from_str(&e.to_string()))
}
