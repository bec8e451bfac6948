//! midpoint-core: MySQL 8.4's InnoDB buffer pool, rule for rule, on a virtual clock.
//!
//! The pool ([`pool`]: the LRU list and its old sublist, the free list, the page cleaner's LRU
//! batch, linear read-ahead, instances, the write path's flush list and doublewrite) is driven
//! by workloads ([`workload`]: lookup clients, a table scan, sysbench-like writers) in one event
//! loop ([`sim`]) over virtual microseconds ([`clock`]), with a processor-sharing CPU model
//! ([`cpu`]) and a storage device ([`io`]). A run is described by parameters and presets
//! ([`scenario`], one schema of named, ranged parameters) and reported by [`metrics`]; [`cost`]
//! estimates a run's work before it starts. The same seed gives the same result on every
//! platform, natively and in WebAssembly.
//!
//! What this crate may use: `serde` for its parameter and report types, and nothing else — no
//! plotters, no clap, no web crates, no wall clock, no global state. Inside it, [`pool`] uses only
//! [`clock`] and [`rng`]; engine differences reach it as a [`pool::EngineProfile`] value.
//!
//! ```
//! use midpoint_core::scenario::preset;
//! use midpoint_core::sim::Simulation;
//!
//! // Experiment 000's cell: a 4,485-page hot set of point lookups while a table three times the
//! // pool is scanned back to back, on a 256 MiB pool. Shortened here to keep the example quick.
//! let mut params = preset("seed000-hot4485-b2b")?.params;
//! params.set("warmup_s", "20")?;
//! params.set("scan_s", "30")?;
//! params.validate()?;
//!
//! let mut sim = Simulation::new(&params)?;
//! sim.run_to_end();
//! let report = sim.report();
//! assert!((0.0..=1.0).contains(&report.kept));
//! println!("kept {:.0} % of the hot set", 100.0 * report.kept);
//! # Ok::<(), String>(())
//! ```

pub mod clock;
pub mod cost;
pub mod cpu;
pub mod engine;
pub mod io;
pub mod metrics;
pub mod pool;
pub mod rng;
pub mod scenario;
pub mod sim;
pub mod workload;
