//! What the Web Workers run: full runs (for the residency plot and "kept") and sweep points,
//! off the page's main thread, in a second instance of the same module.

use crate::scenario::Params;
use crate::sweep;
use crate::ui::charts::{run_data, Run};
use crate::ui::query::page_limits;
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
        let sim = &self.run.sim;
        crate::metrics::samples_csv(sim.params(), &sim.report().samples)
    }

    /// The summary, with at most `max_points` points of the time series.
    pub fn result(&self, max_points: u32) -> Result<JsValue, JsValue> {
        let d = run_data(&self.run.sim, max_points);
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
