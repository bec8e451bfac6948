//! midpoint-lab: what runs many simulations of [`midpoint_core`] and draws them.
//!
//! The published experiments as data, each figure with its role, band and reason, and the one
//! checker that compares a simulated figure with it ([`experiments`]); studies beyond them
//! ([`study`]: what-if patches against stock 8.4, big pools, the hot set's phase diagram);
//! sweeps of kept against the scan depth ([`sweep`]); charts generic over plotters'
//! `DrawingBackend`, so one chart renders to SVG here and on a canvas in the page ([`chart`]).
//! And what both faces, the explainer and the command line, share of a run: its data
//! ([`runs`]), an ensemble of one setting as its runs arrive ([`run_set`]), the parameters as
//! the page's URL and the page's limits ([`url`]). Other replacement policies, trace formats and
//! replay are a floor below, in [`midpoint_policies`].
//!
//! What this crate may use: [`midpoint_core`], [`midpoint_policies`] (its parallel map,
//! [`ensemble::par_map`]: many runs on every core, rayon on native builds), serde, plotters and
//! form_urlencoded. It knows nothing of the command line or the browser (no clap, no web
//! crates), and neither face is below it.

pub mod chart;
pub mod ensemble;
pub mod experiments;
pub mod run_set;
pub mod runs;
pub mod share;
pub mod study;
pub mod sweep;
pub mod url;
