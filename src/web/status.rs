//! The "Your server" panel's binding: a paste in, the reader's report out as a JSON string
//! (`midpoint_status::report::page_report`). Everything stays in the browser.

use wasm_bindgen::prelude::*;

/// The report of `text` (what a server printed), or `{"error": "..."}`; `hot_pages` 0 lets the
/// reader suggest the hot set; `hot_tables` the tables marked hot (`db.t`, one a line).
#[wasm_bindgen]
pub fn status_report(text: &str, hot_pages: u32, hot_tables: &str) -> String {
    midpoint_status::report::page_report_tables(text, hot_pages, hot_tables).to_string()
}

/// The panel's leak risk, run in the page's status worker (`www/status-worker.js`) a slice at a
/// time (`midpoint_status::page_risk::PageRisk`).
#[wasm_bindgen]
pub struct StatusRisk {
    risk: midpoint_status::page_risk::PageRisk,
}

#[wasm_bindgen]
impl StatusRisk {
    /// The runs for `text` (`hot_pages` 0: the suggestion; `hot_tables` the tables marked hot,
    /// one a line; `runs` 0: as many as the page allows).
    #[wasm_bindgen(constructor)]
    pub fn new(
        text: &str,
        hot_pages: u32,
        hot_tables: &str,
        runs: u32,
    ) -> Result<StatusRisk, JsValue> {
        midpoint_status::page_risk::PageRisk::with_tables(text, hot_pages, hot_tables, runs)
            .map(|risk| StatusRisk { risk })
            .map_err(|e| JsValue::from_str(&e))
    }

    /// Runs up to `max_events` more events; returns the share done (1 = every run).
    pub fn advance(&mut self, max_events: u32) -> Result<f64, JsValue> {
        self.risk
            .advance(max_events as u64)
            .map_err(|e| JsValue::from_str(&e))
    }

    /// What runs now ("run 3 of 25: …"), empty when over.
    pub fn current(&self) -> String {
        self.risk.current()
    }

    /// The rows so far, the table's cells, the advice and the pasted rates, as a JSON string.
    pub fn result(&self) -> String {
        self.risk.result().to_string()
    }
}
