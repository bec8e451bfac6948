//! The page's logic that needs no browser: URL state, embed snippets, the sliders' model, the
//! narration, the guided tour, the pool grid's pixels, the explorer (stepping, playback, seeking)
//! and the data the charts draw. Compiled and unit-tested natively; the wasm-bindgen bindings in
//! `src/web/` (wasm32 only) hand it to JavaScript.

pub mod beyond;
pub mod cells;
pub mod charts;
pub mod code;
pub mod controls;
pub mod embed;
pub mod explorer;
pub mod grid;
pub mod live;
pub mod narrate;
pub mod page;
pub mod pair;
pub mod presets;
pub mod query;
pub mod tour;
pub mod write;
