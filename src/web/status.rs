//! The "Your server" panel's binding: a paste in, the reader's report out as a JSON string
//! (`crate::status::report::page_report`). Everything stays in the browser.

use wasm_bindgen::prelude::*;

/// The report of `text` (what a server printed), or `{"error": "..."}`; `hot_pages` 0 lets the
/// reader suggest the hot set.
#[wasm_bindgen]
pub fn status_report(text: &str, hot_pages: u32) -> String {
    crate::status::report::page_report(text, hot_pages).to_string()
}
