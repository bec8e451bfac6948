//! Browser tests for the web layer, run by `wasm-bindgen-test-runner` in headless Chromium:
//! `cargo test --target wasm32-unknown-unknown --test web` (see scripts/test.sh).
#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::*;

// Without this the tests silently run in Node, where there is no `window`.
wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn version_is_not_empty() {
    assert!(!midpoint::web::version().is_empty());
}
