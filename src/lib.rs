//! midpoint: a simulator of the MySQL 8.4 InnoDB buffer pool's LRU list.
//!
//! The core (`pool`, `workload`, `sim`, `metrics`, `scenario`) knows nothing of the browser or
//! the wall clock: it runs on a virtual clock and is deterministic for a given seed. The CLI
//! (`src/main.rs`) and the web layer (`web`, wasm32 only) are thin shells around it.

pub mod clock;
pub mod pool;
pub mod rng;
pub mod metrics;
pub mod scenario;
pub mod sim;
pub mod workload;
pub mod replay;
pub mod chart;
pub mod sweep;
pub mod seed000;
