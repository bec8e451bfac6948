//! The web layer (wasm32 only): the bindings that export the page's logic (`crate::ui`, which
//! needs no browser) to JavaScript with wasm-bindgen, and what draws on a canvas. JavaScript only
//! glues it to the DOM, the animation frames and the workers.
//!
//! Exports: [`start`], [`version`], [`presets`], [`controls`], [`parse_query`],
//! [`params_query`], [`set_param`], [`explorer::Explorer`], [`charts::SweepView`],
//! [`worker::Runner`], [`worker::LiveRunner`], [`worker::sweep_point`], [`attributes_query`],
//! [`embed_snippets`], [`tour_steps`], and the write path's [`write::write_presets`],
//! [`write::WriteRunner`], [`write::write_depth_point`], [`write::WriteView`], and the
//! article's Beyond figures' [`beyond::WhatIfPair`], [`beyond::whatif_choices`],
//! [`beyond::data_provenance`], [`beyond::draw_scale`], [`beyond::PhaseView`], and the "Your
//! server" panel's [`status::status_report`].

pub mod beyond;
pub mod charts;
pub mod explorer;
pub mod status;
pub mod worker;
pub mod write;

use crate::ui::{controls, embed, presets as page_presets, query, tour};
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
#[wasm_bindgen]
pub fn presets() -> Result<JsValue, JsValue> {
    to_js(&page_presets::page_presets())
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

/// Every parameter as a URL query string (without `?`).
#[wasm_bindgen]
pub fn params_query(params: JsValue) -> Result<String, JsValue> {
    Ok(query::to_query(&params_of(params)?))
}

#[derive(Serialize)]
struct SetResult {
    params: Params,
    messages: Vec<String>,
}

/// Sets one parameter (by URL key) to a value, within the page's limits; returns the new
/// parameters and any message about what was used instead.
#[wasm_bindgen]
pub fn set_param(params: JsValue, key: &str, value: &str) -> Result<JsValue, JsValue> {
    let mut p = params_of(params)?;
    let mut messages = Vec::new();
    if let Some(m) = query::apply(&mut p, key, value) {
        messages.push(m);
    }
    let (p, notes) = query::page_limits(&p);
    messages.extend(notes);
    messages.extend(p.warnings());
    to_js(&SetResult {
        params: p,
        messages,
    })
}

/// The `<midpoint-explainer>` element's attributes (`names[i]` = `values[i]`) as a URL query
/// string for [`parse_query`]; HTML's own attributes (`class`, `id`, `aria-*`…) are skipped.
#[wasm_bindgen]
pub fn attributes_query(names: Vec<String>, values: Vec<String>) -> String {
    embed::attributes_query(&names, &values)
}

/// The embed snippets (`{iframe, element, page}`) for these parameters, written out in full:
/// `preset` names the preset they came from (or is empty), `view` carries view options
/// (`ev=…&sweep_depths=…&sweep_times=…`), `page_url` is the page (`…/www/index.html`) and
/// `script_url` the element's module (`…/www/embed.js`).
#[wasm_bindgen]
pub fn embed_snippets(
    params: JsValue,
    preset: &str,
    view: &str,
    page_url: &str,
    script_url: &str,
) -> Result<JsValue, JsValue> {
    let p = params_of(params)?;
    to_js(&embed::snippets(
        &p,
        Some(preset),
        view,
        page_url,
        script_url,
    ))
}

/// The guided tour's steps: title, text, and how to set the simulation up for each.
#[wasm_bindgen]
pub fn tour_steps() -> Result<JsValue, JsValue> {
    to_js(&tour::steps())
}
