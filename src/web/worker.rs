//! What the Web Workers run: full runs (for the residency plot and "kept") and sweep points,
//! off the page's main thread, in a second instance of the same module. The small module
//! (without the `full` feature) keeps only [`Runner`], for the native-WASM identity check: the
//! close-up and the pool it serves start no worker.

#[cfg(feature = "full")]
use crate::ui::live::LiveRuns;
use crate::ui::query::page_limits;
use midpoint_core::scenario::Params;
use midpoint_core::sim::Simulation;
use midpoint_lab::runs::{run_data, Run};
#[cfg(feature = "full")]
use midpoint_lab::sweep;
use wasm_bindgen::prelude::*;

fn params_from(v: JsValue) -> Result<Params, JsValue> {
    let p = super::params_of(v)?;
    let (p, notes) = page_limits(&p);
    if let Some(n) = notes.first() {
        return Err(JsValue::from_str(n));
    }
    // What the page's explorer simulates too: one instance's share of a pool of several.
    Ok(midpoint_lab::url::page_share(&p).0)
}

/// A full run, advanced in slices so that the worker can report progress.
#[wasm_bindgen]
pub struct Runner {
    run: Run,
}

#[wasm_bindgen]
impl Runner {
    /// A run with these parameters (a `Params` object).
    #[wasm_bindgen(constructor)]
    pub fn new(params: JsValue) -> Result<Runner, JsValue> {
        let p = params_from(params)?;
        let run = Run::new(&p).map_err(|e| JsValue::from_str(&e))?;
        Ok(Runner { run })
    }

    /// Runs up to `max_events` more events; returns the share of virtual time done (1 = over).
    pub fn advance(&mut self, max_events: u32) -> f64 {
        self.run.advance(max_events)
    }

    /// The whole time series as CSV, every parameter in its header (the CLI's format).
    pub fn samples_csv(&self) -> String {
        csv_of(&self.run.sim)
    }

    /// The summary, with at most `max_points` points of the time series.
    pub fn result(&self, max_points: u32) -> Result<JsValue, JsValue> {
        result_of(&self.run.sim, max_points)
    }
}

fn csv_of(sim: &Simulation) -> String {
    midpoint_core::metrics::samples_csv(sim.params(), &sim.report().samples)
}

fn result_of(sim: &Simulation, max_points: u32) -> Result<JsValue, JsValue> {
    let d = run_data(sim, max_points);
    serde_wasm_bindgen::to_value(&d).map_err(|e| JsValue::from_str(&e.to_string()))
}

/// The page's live runs for the residency plot (`ui::live`): one at a time, each new one
/// replacing the last, its samples handed out as they come, continuing the last run's
/// snapshot at the scan's start when only the scan's parameters changed.
#[cfg(feature = "full")]
#[wasm_bindgen]
pub struct LiveRunner {
    live: LiveRuns,
}

#[cfg(feature = "full")]
#[wasm_bindgen]
impl LiveRunner {
    /// No run yet.
    #[wasm_bindgen(constructor)]
    pub fn new() -> LiveRunner {
        LiveRunner {
            live: LiveRuns::new(),
        }
    }

    /// Starts a run with these parameters (a `Params` object), dropping the current one;
    /// returns true if it continues the snapshot at the scan's start.
    pub fn start(&mut self, params: JsValue) -> Result<bool, JsValue> {
        let p = params_from(params)?;
        self.live.start(&p).map_err(|e| JsValue::from_str(&e))
    }

    /// Runs up to `max_events` more events; returns the share of virtual time done (1 = over).
    pub fn advance(&mut self, max_events: u32) -> f64 {
        self.live.advance(max_events)
    }

    /// The samples not handed out yet, as `[t_s, hot, scan_young]` triplets.
    pub fn take_points(&mut self) -> Vec<f64> {
        self.live.take_points()
    }

    /// The whole time series as CSV (see [`Runner::samples_csv`]); empty without a run.
    pub fn samples_csv(&self) -> String {
        self.live.sim().map(csv_of).unwrap_or_default()
    }

    /// The summary, with at most `max_points` points of the time series.
    pub fn result(&self, max_points: u32) -> Result<JsValue, JsValue> {
        let sim = self
            .live
            .sim()
            .ok_or_else(|| JsValue::from_str("no run started"))?;
        result_of(sim, max_points)
    }
}

#[cfg(feature = "full")]
impl Default for LiveRunner {
    fn default() -> Self {
        LiveRunner::new()
    }
}

/// One point of the sweep: `runs` full runs (RNG seeds `seed`, `seed + 1`, …; clamped to the
/// page's 1 to `midpoint_lab::run_set::PAGE_MAX_RUNS`) with this scan depth and old_blocks_time (ms):
/// kept their median, with its range over more than one run.
#[cfg(feature = "full")]
#[wasm_bindgen]
pub fn sweep_point(params: JsValue, depth: u32, time: u32, runs: u32) -> Result<JsValue, JsValue> {
    let p = params_from(params)?;
    let runs = runs.clamp(1, midpoint_lab::run_set::PAGE_MAX_RUNS);
    let q = sweep::sweep_point_runs(&p, depth, time, runs).map_err(|e| JsValue::from_str(&e))?;
    serde_wasm_bindgen::to_value(&q).map_err(|e| JsValue::from_str(&e.to_string()))
}

/// Every replacement policy on these parameters (`midpoint policies`), one policy per
/// [`Policies::step`] so that the worker can report progress.
#[cfg(feature = "full")]
#[wasm_bindgen]
pub struct Policies {
    cmp: midpoint_policies::policy::compare::Comparison,
}

/// A row for the page (no `serde(flatten)`: serde-wasm-bindgen would make it a `Map`).
#[cfg(feature = "full")]
#[derive(serde::Serialize)]
struct PolicyOut<'a> {
    policy: &'a str,
    kept: f64,
    miss_ratio: f64,
    lookups_per_s: Option<f64>,
    scan_share: f64,
    how: &'static str,
    why: &'static str,
}

#[cfg(feature = "full")]
#[wasm_bindgen]
impl Policies {
    /// A comparison on these parameters (a `Params` object).
    #[wasm_bindgen(constructor)]
    pub fn new(params: JsValue) -> Result<Policies, JsValue> {
        let p = params_from(params)?;
        let cmp = midpoint_policies::policy::compare::Comparison::new(&p, None)
            .map_err(|e| JsValue::from_str(&e))?;
        Ok(Policies { cmp })
    }

    /// Runs the next policy (the first: the InnoDB run); returns the share done (1 = all).
    pub fn step(&mut self) -> Result<f64, JsValue> {
        self.cmp.step().map_err(|e| JsValue::from_str(&e))?;
        Ok(self.cmp.done() as f64 / midpoint_policies::policy::compare::ORDER.len() as f64)
    }

    /// The rows so far (`PolicyRow` plus `why`, the sentence on the looping scan).
    pub fn rows(&self) -> Result<JsValue, JsValue> {
        let out: Vec<PolicyOut> = self
            .cmp
            .rows()
            .iter()
            .map(|r| PolicyOut {
                policy: &r.policy,
                kept: r.kept,
                miss_ratio: r.miss_ratio,
                lookups_per_s: r.lookups_per_s,
                scan_share: r.scan_share,
                how: r.how,
                why: midpoint_policies::policy::compare::why(&r.policy),
            })
            .collect();
        serde_wasm_bindgen::to_value(&out).map_err(|e| JsValue::from_str(&e.to_string()))
    }
}
