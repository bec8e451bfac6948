//! midpoint: a simulator of the MySQL 8.4 InnoDB buffer pool's LRU list.
//!
//! The core (`pool`, `workload`, `sim`, `metrics`, `scenario`) knows nothing of the browser or
//! the wall clock: it runs on a virtual clock and is deterministic for a given seed. The CLI
//! (`src/main.rs`) and the web layer (`web`, wasm32 only) are thin shells around it.

pub mod chart;
pub mod clock;
pub mod cpu;
pub mod engine;
pub mod io;
pub mod metrics;
pub mod pool;
pub mod replay;
pub mod rng;
pub mod scenario;
pub mod seed000;
pub mod seed001;
pub mod seed002;
pub mod seed003;
pub mod sim;
pub mod study;
pub mod sweep;
#[cfg(target_arch = "wasm32")]
pub mod web;
pub mod workload;
pub mod write_sim;
