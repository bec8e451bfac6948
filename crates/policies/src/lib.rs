//! midpoint-policies: InnoDB's midpoint LRU beside the caching literature's policies, on the
//! same traces, libCacheSim's shape.
//!
//! Replacement policies ([`policy`]: LRU, FIFO, CLOCK, 2Q, ARC, SIEVE, S3-FIFO, LIRS, Belady's
//! OPT and InnoDB 8.4's midpoint LRU through the real [`midpoint_core::pool`]), run on a trace
//! or closed loop against a scenario's own clients, and compared over one scenario
//! ([`policy::compare`]); trace formats ([`trace`]: libCacheSim's oracleGeneral, txt and csv);
//! the midpoint trace, a text format of fetches and LRU batches, replayed through the pool
//! ([`replay`]); and the one parallel map the comparison and the lab's ensembles run on
//! ([`par::par_map`]).
//!
//! What this crate may use: [`midpoint_core`], serde, and on native builds rayon. It knows
//! nothing of the lab's experiments and charts, the command line or the browser (no plotters,
//! clap, indicatif, mysql or web crates); the lab, the explainer and the command line use it.

pub mod par;
pub mod policy;
pub mod replay;
pub mod trace;
