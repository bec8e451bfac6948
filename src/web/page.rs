//! The page's state bound for JavaScript: `ui::page::Page`, one per widget, and the constants
//! the close-up's painter needs (exported, not copied into the JS).

#[cfg(feature = "full")]
use super::explorer::Explorer;
use super::to_js;
use crate::ui::explorer::strip;
use crate::ui::page;
#[cfg(feature = "full")]
use crate::ui::page::RunCost;
use wasm_bindgen::prelude::*;

/// One widget's state: its parameters, the preset and measurement they match, its address,
/// command line, embed snippets and the words of its captions.
#[wasm_bindgen]
pub struct Page {
    inner: page::Page,
    messages: Vec<String>,
}

fn ev_of(ev: f64) -> Option<u64> {
    (ev.is_finite() && ev > 0.0).then_some(ev as u64)
}

impl Page {
    /// The state itself, for the other bindings.
    #[cfg(feature = "full")]
    pub(crate) fn inner(&self) -> &page::Page {
        &self.inner
    }
}

#[wasm_bindgen]
impl Page {
    /// The state of an address's query string (with or without `?`); `messages()` says what it
    /// could not use as given.
    #[wasm_bindgen(constructor)]
    pub fn new(query: &str) -> Page {
        let (inner, messages) = page::Page::from_query(query);
        Page { inner, messages }
    }

    /// The messages about the query this state was read from.
    pub fn messages(&self) -> Vec<String> {
        self.messages.clone()
    }

    /// Everything the page shows of the state, as one object (`ui::page::PageView`).
    pub fn view(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.view())
    }

    /// The parameters as an object, for the workers and the explorer.
    pub fn params(&self) -> Result<JsValue, JsValue> {
        to_js(self.inner.params())
    }

    /// Sets one parameter (URL key); returns the messages about a value not used as given.
    pub fn set(&mut self, key: &str, value: &str) -> Vec<String> {
        self.inner.set(key, value)
    }

    /// Takes a preset's parameters; false if there is no such preset.
    pub fn pick_preset(&mut self, name: &str) -> bool {
        self.inner.pick_preset(name)
    }

    /// Takes the parameters of a query string, keeping the view options; returns messages.
    pub fn apply_query(&mut self, query: &str) -> Vec<String> {
        self.inner.apply_query(query)
    }

    /// Runs per setting (clamped); returns the number used.
    pub fn set_runs(&mut self, runs: f64) -> u32 {
        self.inner.set_runs(runs)
    }

    /// The first run's RNG seed; returns messages.
    pub fn set_seed(&mut self, seed: f64) -> Vec<String> {
        self.inner.set_seed(seed)
    }

    /// The write-path figure's settings (its preset, scan depth and doublewrite pages), kept
    /// in the address and the snippets.
    pub fn set_write(&mut self, preset: &str, depth: u32, pages: u32) {
        self.inner.set_write(preset, depth, pages);
    }

    /// The tour's step in the address (1-based), or 0 to leave it.
    pub fn set_tour(&mut self, step: u32) {
        self.inner.set_tour((step > 0).then_some(step));
    }

    /// How the widget opens (`ui::page::Opening`).
    pub fn opening(&self, reduced_motion: bool) -> Result<JsValue, JsValue> {
        to_js(&self.inner.opening(reduced_motion))
    }

    /// The address's query: `ev` the event count while paused (0: none), `keep_at` while the
    /// figure is on its way to its opening moment.
    pub fn address(&self, ev: f64, keep_at: bool) -> String {
        self.inner.address(ev_of(ev), keep_at)
    }

    /// The embed snippets (`{iframe, element, page}`) of figure `view`, `height` px tall.
    pub fn snippets(
        &self,
        view: &str,
        ev: f64,
        keep_at: bool,
        height: u32,
        page_url: &str,
        script_url: &str,
    ) -> Result<JsValue, JsValue> {
        to_js(
            &self
                .inner
                .snippets(view, ev_of(ev), keep_at, height, page_url, script_url),
        )
    }

    /// The sliders for these parameters (`ui::controls::Control`).
    pub fn controls(&self) -> Result<JsValue, JsValue> {
        to_js(&crate::ui::controls::controls(self.inner.params()))
    }

    /// The line under the sweep: what each point is, computed in `workers` workers.
    #[cfg(feature = "full")]
    pub fn sweep_note(&self, workers: u32) -> String {
        self.inner.sweep_note(workers)
    }

    /// The residency plot's caption (`{kept, text, cost}`) from the runs `ex` holds and what
    /// they cost (`{page_accesses, ms, reused, ensemble_ms, workers}`), or null before the first
    /// run is in.
    #[cfg(feature = "full")]
    pub fn run_caption(&self, ex: &Explorer, cost: JsValue) -> Result<JsValue, JsValue> {
        let Some(first) = ex.inner().first_run() else {
            return Ok(JsValue::NULL);
        };
        let mut cost: RunCost = serde_wasm_bindgen::from_value(cost).unwrap_or_default();
        cost.page_accesses = first.page_accesses as f64;
        let summary = ex.inner().run_set().summary();
        to_js(&self.inner.run_caption(&summary, first.kept_window_s, &cost))
    }
}

/// The close-up's numbers (`ui::explorer::strip`): cell flags, regions and the stride of its
/// view, for the painter in `www/figure/paint-strip.js`.
#[wasm_bindgen]
pub fn strip_constants() -> Result<JsValue, JsValue> {
    #[derive(serde::Serialize)]
    struct C {
        stride: usize,
        slid: u32,
        to_head: u32,
        demoted_hot: u32,
        lost: u32,
        selected: u32,
        moved: u32,
        head: u8,
        window: u8,
        tail: u8,
        free: u8,
        /// Bits of the cell byte: its table (`kind`), old, just changed.
        kind_mask: u8,
        old_bit: u8,
        flash_bit: u8,
        /// The mark bits, the mark of a page the boundary turned young and that of a hot-set
        /// page the last batch turned old (a pink ring).
        mark_mask: u8,
        mark_young: u8,
        mark_old: u8,
    }
    use crate::ui::grid;
    to_js(&C {
        stride: strip::STRIDE,
        slid: strip::S_SLID,
        to_head: strip::S_TO_HEAD,
        demoted_hot: strip::S_DEMOTED_HOT,
        lost: strip::S_LOST,
        selected: strip::S_SELECTED,
        moved: strip::S_MOVED,
        head: strip::R_HEAD,
        window: strip::R_WINDOW,
        tail: strip::R_TAIL,
        free: strip::R_FREE,
        kind_mask: 7,
        old_bit: grid::OLD,
        flash_bit: grid::FLASH,
        mark_mask: grid::MARK_MASK,
        mark_young: grid::MARK_YOUNG,
        mark_old: grid::MARK_OLD,
    })
}
