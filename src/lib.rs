//! midpoint: the explainer and the command line around the simulator.
//!
//! This package is the product. [`ui`] holds the page's logic that needs no browser (URL state,
//! the controls' model, narration, the boundary close-up, the code panel, embeds, the tour),
//! compiled and tested natively; `web` (wasm32 only) holds its wasm-bindgen bindings; the
//! `midpoint` binary (`src/main.rs`, `src/cli/`) is the command line. Both faces are thin shells
//! around [`midpoint_core`] (the simulator) and [`midpoint_lab`] (experiments, studies, charts,
//! policies, traces): this package may use both; neither may use it.

pub mod status;
pub mod ui;
#[cfg(target_arch = "wasm32")]
pub mod web;
