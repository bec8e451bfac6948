//! Web layer (wasm32 only). TEMPORARY minimal version used to test the build, serve and test
//! infrastructure end to end; the real explainer page replaces it.

use wasm_bindgen::prelude::*;

/// The crate version, so the page can show which build it is running.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// Runs once when the module is instantiated: route Rust panics to the browser console.
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}
