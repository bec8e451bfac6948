//! The web layer (wasm32 only): the bindings that export the page's logic (`crate::ui`, which
//! needs no browser) to JavaScript with wasm-bindgen, and what draws on a canvas. JavaScript only
//! glues it to the DOM, the animation frames and the workers.
//!
//! Exports: [`start`], [`version`], [`presets`], [`controls`], [`parse_query`],
//! [`params_query`], [`page::Page`] (a widget's state: parameters, address, command line,
//! snippets, captions), [`page::strip_constants`], [`explorer::Explorer`], [`charts::SweepView`],
//! [`worker::Runner`], [`worker::LiveRunner`], [`worker::sweep_point`], [`attributes_query`],
//! [`tour_steps`], and the write path's [`write::write_presets`],
//! [`write::WriteRunner`], [`write::write_depth_point`], [`write::WriteView`], and the
//! article's Beyond figures' [`beyond::WhatIfPair`], [`beyond::whatif_choices`],
//! [`beyond::data_provenance`], [`beyond::draw_scale`], [`beyond::PhaseView`], and the "Your
//! server" panel's [`status::status_report`].
//!
//! Without the `full` feature (the small module, `pkg/core/`) only this module's functions,
//! [`page`], [`explorer`] (less its residency plot) and the workers' [`worker::Runner`] and
//! [`worker::LiveRunner`] are built: no plotters, no sweep, no policies, no write path.

#[cfg(feature = "full")]
pub mod beyond;
#[cfg(feature = "full")]
pub mod charts;
pub mod explorer;
pub mod page;
#[cfg(feature = "full")]
pub mod status;
pub mod worker;
#[cfg(feature = "full")]
pub mod write;

#[cfg(feature = "full")]
use crate::ui::embed;
#[cfg(feature = "full")]
use crate::ui::tour;
use crate::ui::{controls, query};
use midpoint_core::scenario::Params;
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

fn to_js<T: Serialize>(v: &T) -> Result<JsValue, JsValue> {
    serde_wasm_bindgen::to_value(v).map_err(|e| JsValue::from_str(&e.to_string()))
}

/// A `Params` object from JavaScript; another engine than MySQL 8.4 brings its own depth and
/// instances where the object names none ([`query::engine_defaults`]).
pub(crate) fn params_of(v: JsValue) -> Result<Params, JsValue> {
    let keys: Vec<String> = if v.is_object() {
        js_sys::Object::keys(v.unchecked_ref::<js_sys::Object>())
            .iter()
            .filter_map(|k| k.as_string())
            .collect()
    } else {
        Vec::new()
    };
    let p: Params = serde_wasm_bindgen::from_value(v)
        .map_err(|e| JsValue::from_str(&format!("bad parameters: {e}")))?;
    Ok(query::engine_defaults(p, &keys))
}

/// Tells the page about a panic: an event named `midpoint-panic` on the global object (the
/// window, or the worker's scope) carrying the message, after logging it to the console.
fn panic_hook(info: &std::panic::PanicHookInfo) {
    console_error_panic_hook::hook(info);
    let msg = info.to_string();
    let init = web_sys::CustomEventInit::new();
    init.set_detail(&JsValue::from_str(&msg));
    if let Ok(ev) = web_sys::CustomEvent::new_with_event_init_dict("midpoint-panic", &init) {
        if let Ok(target) = js_sys::global().dyn_into::<web_sys::EventTarget>() {
            let _ = target.dispatch_event(&ev);
        }
    }
}

/// Runs once when the module is instantiated: routes Rust panics to the console and to a
/// `midpoint-panic` event the page turns into a visible message.
#[wasm_bindgen(start)]
pub fn start() {
    std::panic::set_hook(Box::new(panic_hook));
}

/// The crate version, so the page can show which build it is running.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// The presets the page can run, each with its description and the "kept" figure the
/// published experiment measured.
#[cfg(feature = "full")]
#[wasm_bindgen]
pub fn presets() -> Result<JsValue, JsValue> {
    to_js(&crate::ui::page::presets())
}

/// The sliders for these parameters: InnoDB variable, unit, default, range and stops.
#[wasm_bindgen]
pub fn controls(params: JsValue) -> Result<JsValue, JsValue> {
    to_js(&controls::controls(&params_of(params)?))
}

/// Reads the page URL's query string: the parameters (clamped, with messages for every bad
/// value or unknown key) and the view options.
#[wasm_bindgen]
pub fn parse_query(query: &str) -> Result<JsValue, JsValue> {
    to_js(&query::parse(query))
}

/// The parameters of the run at `index` of the ensemble of `params` (0: `params` itself): its
/// RNG seed the one the CLI gives that run, wrapping past 2^53 − 1 to 0.
#[cfg(feature = "full")]
#[wasm_bindgen]
pub fn member_params(params: JsValue, index: u32) -> Result<JsValue, JsValue> {
    to_js(&midpoint_lab::run_set::member_params(
        &params_of(params)?,
        index,
    ))
}

/// Every parameter as a URL query string (without `?`).
#[cfg(feature = "full")]
#[wasm_bindgen]
pub fn params_query(params: JsValue) -> Result<String, JsValue> {
    Ok(query::to_query(&params_of(params)?))
}

/// The `<midpoint-explainer>` element's attributes (`names[i]` = `values[i]`) as a URL query
/// string for [`parse_query`]; HTML's own attributes (`class`, `id`, `aria-*`…) are skipped.
#[cfg(feature = "full")]
#[wasm_bindgen]
pub fn attributes_query(names: Vec<String>, values: Vec<String>) -> String {
    embed::attributes_query(&names, &values)
}

/// The guided tour's steps: title, text, and how to set the simulation up for each.
#[cfg(feature = "full")]
#[wasm_bindgen]
pub fn tour_steps() -> Result<JsValue, JsValue> {
    to_js(&tour::steps())
}
