//! Studies beyond the seeds' experiments: the what-if patches against stock 8.4,
//! seed 000's experiment in big pools, and the hot set's phase diagram. Each returns
//! serialisable rows; the CLI prints them and the page can draw them.

pub mod charts;
pub mod phase;
pub mod scale;
pub mod whatif;
