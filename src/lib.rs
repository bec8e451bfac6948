//! midpoint: a simulator of the MySQL 8.4 InnoDB buffer pool's LRU list.
//!
//! The core (`pool`, `workload`, `sim`, `metrics`, `scenario`) knows nothing of the browser or
//! the wall clock: it runs on a virtual clock and is deterministic for a given seed. The CLI
//! (`src/main.rs`) and the web layer (`web`, wasm32 only) are thin shells around it; the
//! page's logic that needs no browser (`ui`) compiles and is tested natively.

pub mod chart;
pub mod clock;
pub mod cost;
pub mod cpu;
pub mod engine;
pub mod ensemble;
pub mod experiments;
pub mod io;
pub mod metrics;
pub mod policy;
pub mod pool;
pub mod replay;
pub mod rng;
pub mod scenario;
// The seed modules' old paths, which the page uses.
pub use experiments::{seed000, seed001, seed002, seed003};
pub mod sim;
pub mod study;
pub mod sweep;
pub mod trace;
pub mod ui;
#[cfg(target_arch = "wasm32")]
pub mod web;
pub mod workload;
