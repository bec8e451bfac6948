//! midpoint: the explainer, a page that steps a faithful simulator of InnoDB's LRU list frame by
//! frame. This package is the Rust that `pkg/` is built from.
//!
//! [`ui`] holds the page's logic that needs no browser (URL state, the controls' model,
//! narration, the boundary close-up, the code panel, embeds, the tour), compiled and tested
//! natively; `web` (wasm32 only) holds its wasm-bindgen bindings. It stands on
//! [`midpoint_core`] (the simulator), [`midpoint_lab`] (runs, ensembles, studies, charts,
//! policies, the page's URL) and [`midpoint_status`] (what a DBA pastes). The command line,
//! `crates/cli`, stands on the same crates; neither face uses the other.

pub mod ui;
#[cfg(target_arch = "wasm32")]
pub mod web;
