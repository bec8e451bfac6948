//! Browser tests for the web layer, run by `wasm-bindgen-test-runner` in headless Chromium:
//! `cargo test -p midpoint --target wasm32-unknown-unknown --test web` (see scripts/test.sh). They draw the
//! pool and the charts onto canvases created here and check that pixels changed, and check that
//! what the bindings hand to JavaScript arrives. The page's logic itself (URL rules, embeds,
//! stepping, narration) is unit-tested natively in `src/ui/`.
#![cfg(target_arch = "wasm32")]

use midpoint::web::charts::SweepView;
use midpoint::web::explorer::Explorer;
use midpoint::web::worker;
use midpoint_core::scenario::{preset, Params};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

// Without this the tests silently run in Node, where there is no `window`.
wasm_bindgen_test_configure!(run_in_browser);

fn canvas(w: u32, h: u32) -> (HtmlCanvasElement, CanvasRenderingContext2d) {
    let doc = web_sys::window().unwrap().document().unwrap();
    let c: HtmlCanvasElement = doc.create_element("canvas").unwrap().dyn_into().unwrap();
    c.set_width(w);
    c.set_height(h);
    doc.body().unwrap().append_child(&c).unwrap();
    let ctx: CanvasRenderingContext2d = c.get_context("2d").unwrap().unwrap().dyn_into().unwrap();
    (c, ctx)
}

fn pixels(c: &HtmlCanvasElement, ctx: &CanvasRenderingContext2d) -> Vec<u8> {
    ctx.get_image_data(0.0, 0.0, c.width() as f64, c.height() as f64)
        .unwrap()
        .data()
        .0
}

/// Pixels that are neither transparent nor plain white.
fn inked(px: &[u8]) -> usize {
    px.chunks(4)
        .filter(|p| p[3] != 0 && !(p[0] == 255 && p[1] == 255 && p[2] == 255))
        .count()
}

fn changed(a: &[u8], b: &[u8]) -> usize {
    a.chunks(4).zip(b.chunks(4)).filter(|(x, y)| x != y).count()
}

/// A small, short run: 1,023 frames, 5 s of warm-up, 20 s of scanning.
fn small() -> Params {
    Params {
        warmup_s: 5,
        scan_s: 20,
        kept_window_s: 10,
        ..preset("small-demo").unwrap().params
    }
}

fn js(p: &Params) -> wasm_bindgen::JsValue {
    serde_wasm_bindgen::to_value(p).unwrap()
}

#[wasm_bindgen_test]
fn version_is_not_empty() {
    assert!(!midpoint::web::version().is_empty());
}

#[wasm_bindgen_test]
fn pool_grid_is_drawn_and_changes_with_a_batch() {
    let (c, ctx) = canvas(600, 400);
    let mut ex = Explorer::new(js(&small())).unwrap();
    let h = ex.resize(600, 400, 1.0);
    assert!(h > 0 && h <= 400, "height {h}");
    c.set_height(h);
    ex.draw(&ctx).unwrap();
    let before = pixels(&c, &ctx);
    assert!(inked(&before) > 10_000, "the grid should cover the canvas");
    // Run to just before the next refill, then step it: the tail's frames go to the free list.
    ex.next_batch();
    let mut t = 0.0;
    for _ in 0..10_000 {
        t += 16.0;
        ex.frame(t);
        let st = ex.status().unwrap();
        let mode = js_sys::Reflect::get(&st, &"mode".into()).unwrap();
        if mode.as_string().as_deref() == Some("paused") {
            break;
        }
    }
    let st = ex.status().unwrap();
    let at_batch = js_sys::Reflect::get(&st, &"at_batch".into()).unwrap();
    assert_eq!(at_batch.as_bool(), Some(true), "paused just before a batch");
    ex.step();
    ex.draw(&ctx).unwrap();
    let after = pixels(&c, &ctx);
    assert!(
        changed(&before, &after) > 500,
        "an LRU batch must change the grid"
    );
}

#[wasm_bindgen_test]
fn residency_chart_draws_and_moves_its_cursor() {
    let (c, ctx) = canvas(640, 320);
    let mut ex = Explorer::new(js(&small())).unwrap();
    ex.seek_time(12.0);
    let mut t = 0.0;
    while ex.t_s() < 12.0 {
        t += 16.0;
        ex.frame(t);
    }
    ex.draw_residency(&c, 1.0, false, true).unwrap();
    let a = pixels(&c, &ctx);
    assert!(inked(&a) > 2_000, "axes, labels and lines are drawn");
    ex.step();
    for _ in 0..20_000 {
        ex.step();
    }
    ex.draw_residency(&c, 1.0, false, true).unwrap();
    let b = pixels(&c, &ctx);
    assert!(changed(&a, &b) > 50, "the cursor moved");
    // Dark theme paints the background.
    ex.draw_residency(&c, 1.0, true, true).unwrap();
    let d = pixels(&c, &ctx);
    assert!(changed(&b, &d) > 100_000);
}

#[wasm_bindgen_test]
fn sweep_chart_draws_points_as_they_arrive() {
    let (c, ctx) = canvas(640, 320);
    // Parameters the seed never measured: no published marks on this sweep.
    let p = Params {
        hot_pages: 1000,
        ..Params::default()
    };
    let mut v = SweepView::new(vec![100, 1024], vec![0, 1000], js(&p)).unwrap();
    v.draw(&c, 2.0, 1024, 1000, false, -1.0).unwrap();
    let empty = pixels(&c, &ctx);
    assert!(inked(&empty) > 1_000);
    v.set(100, 0, 0.4);
    v.set(1024, 0, 0.1);
    v.set(100, 1000, 0.95);
    v.set(1024, 1000, 0.5);
    assert_eq!(v.done(), 4);
    v.draw(&c, 2.0, 1024, 1000, false, -1.0).unwrap();
    let full = pixels(&c, &ctx);
    assert!(changed(&empty, &full) > 200, "lines and markers appear");
    // Bringing the old_blocks_time 0 line forward redraws it thick over the dimmed other.
    v.draw(&c, 2.0, 1024, 1000, false, 0.0).unwrap();
    let lit = pixels(&c, &ctx);
    assert!(
        changed(&full, &lit) > 100,
        "a highlighted line changes the plot"
    );
}

#[wasm_bindgen_test]
fn worker_entry_points_run() {
    let p = small();
    let mut r = worker::Runner::new(js(&p)).unwrap();
    let mut last = 0.0;
    loop {
        let f = r.advance(50_000);
        assert!(f >= last);
        last = f;
        if f >= 1.0 {
            break;
        }
    }
    let res = r.result(50).unwrap();
    let kept = js_sys::Reflect::get(&res, &"kept".into())
        .unwrap()
        .as_f64()
        .unwrap();
    assert!((0.0..=1.0).contains(&kept), "kept {kept}");
    let pt = worker::sweep_point(js(&p), 128, 1000, 1).unwrap();
    let k = js_sys::Reflect::get(&pt, &"kept".into())
        .unwrap()
        .as_f64()
        .unwrap();
    assert!((0.0..=1.0).contains(&k));
}

/// The live runs as the worker and the page use them: samples streamed in triplets, a run of the
/// scan's settings continuing the snapshot, and a plot that keeps the previous curve, dimmed,
/// until the new one is finished.
#[wasm_bindgen_test]
fn live_runs_stream_and_the_plot_keeps_the_previous_curve() {
    let p = small();
    let mut live = worker::LiveRunner::new();
    assert!(live.result(10).is_err(), "no run yet");
    assert!(!live.start(js(&p)).unwrap());
    let mut points = Vec::new();
    while live.advance(20_000) < 1.0 {
        points.extend(live.take_points());
    }
    points.extend(live.take_points());
    assert_eq!(points.len() % 3, 0);
    assert!(points.len() / 3 >= 25, "{} samples", points.len() / 3);
    let first = live.result(1500).unwrap();
    let paused = Params {
        scan_pause_ms: 300,
        ..p.clone()
    };
    assert!(live.start(js(&paused)).unwrap(), "continues the snapshot");
    assert!(live
        .start(js(&Params {
            lru_scan_depth: 256,
            ..p.clone()
        }))
        .is_ok());

    let (c, ctx) = canvas(640, 320);
    let mut old = Explorer::new(js(&p)).unwrap();
    old.set_run(first).unwrap();
    assert_eq!(old.residency_info()[0], 0.0, "final");
    let mut ex = Explorer::new(js(&paused)).unwrap();
    ex.draw_residency(&c, 1.0, false, true).unwrap();
    let blank = pixels(&c, &ctx);
    ex.keep_curve_of(&old);
    ex.draw_residency(&c, 1.0, false, true).unwrap();
    let ghost = pixels(&c, &ctx);
    assert!(changed(&blank, &ghost) > 500, "the previous curve is drawn");
    assert!(
        ex.add_run_points(&[1.0, 2.0]).is_err(),
        "a ragged list is refused"
    );
    ex.add_run_points(&points[..30]).unwrap();
    let info = ex.residency_info();
    assert_eq!(
        (info[0], info[1]),
        (1.0, 10.0),
        "partial, ten streamed samples"
    );
    ex.draw_residency(&c, 1.0, false, true).unwrap();
    assert!(
        changed(&ghost, &pixels(&c, &ctx)) > 50,
        "the new curve grows over it"
    );
}

fn get(v: &wasm_bindgen::JsValue, key: &str) -> wasm_bindgen::JsValue {
    js_sys::Reflect::get(v, &key.into()).unwrap()
}

/// The URL reader as JavaScript calls it: an event count past what a JavaScript number holds
/// arrives clamped, with a message naming `ev`, instead of failing the whole call.
#[wasm_bindgen_test]
fn parse_query_hands_javascript_exact_numbers() {
    let q = midpoint::web::parse_query("?ev=9007199254740992&lru_scan_depth=256").unwrap();
    assert_eq!(get(&q, "ev").as_f64(), Some(9_007_199_254_740_991.0));
    let messages = js_sys::Array::from(&get(&q, "messages"));
    assert_eq!(messages.length(), 1);
    let m = messages.get(0).as_string().unwrap();
    assert!(m.starts_with("ev = 9007199254740992 "), "{m}");
    assert_eq!(
        get(&get(&q, "params"), "lru_scan_depth").as_f64(),
        Some(256.0)
    );
    let q = midpoint::web::parse_query("seed=18446744073709551615").unwrap();
    let seed = get(&get(&q, "params"), "seed").as_f64().unwrap();
    assert!(seed <= 9_007_199_254_740_991.0);
    // And back: the parameters as a query, read again without a message.
    let back = midpoint::web::params_query(get(&q, "params")).unwrap();
    let again = midpoint::web::parse_query(&back).unwrap();
    assert_eq!(js_sys::Array::from(&get(&again, "messages")).length(), 0);
    assert_eq!(get(&get(&again, "params"), "seed").as_f64(), Some(seed));
}

/// The embed bindings: element attributes read as a query, and snippets with every parameter.
#[wasm_bindgen_test]
fn embed_bindings_work() {
    let q = midpoint::web::attributes_query(
        vec!["class".into(), "lru-scan-depth".into(), "preset".into()],
        vec!["x".into(), "128".into(), "small-demo".into()],
    );
    assert_eq!(q, "lru-scan-depth=128&preset=small-demo");
    // The page's state writes the snippets: the preset, what differs, the moment.
    // Another RNG seed is still a run of the preset's setting.
    let page = midpoint::web::page::Page::new("preset=small-demo&seed=4");
    let s = page
        .snippets(
            "strip",
            42.0,
            false,
            480,
            "https://e.org/www/index.html",
            "https://e.org/www/embed.js",
        )
        .unwrap();
    let iframe = get(&s, "iframe").as_string().unwrap();
    assert!(
        iframe.contains("?embed=1&amp;preset=small-demo&amp;seed=4&amp;view=strip&amp;ev=42\""),
        "{iframe}"
    );
    assert!(iframe.contains("height:480px"), "{iframe}");
    let view = page.view().unwrap();
    assert_eq!(
        get(&view, "cli").as_string().unwrap(),
        "midpoint run --preset small-demo --seed 4 --runs 5"
    );
    // The close-up's flags come from Rust, not from a copy in the JS.
    let c = midpoint::web::page::strip_constants().unwrap();
    assert_eq!(get(&c, "stride").as_f64(), Some(8.0));
    assert_eq!(get(&c, "slid").as_f64(), Some(1.0));
    let steps = js_sys::Array::from(&midpoint::web::tour_steps().unwrap());
    assert!((4..=8).contains(&steps.length()));
}

#[wasm_bindgen_test]
fn csv_exports_list_every_parameter() {
    let p = small();
    let mut r = worker::Runner::new(js(&p)).unwrap();
    while r.advance(1_000_000) < 1.0 {}
    let csv = r.samples_csv();
    for (k, v) in p.to_pairs() {
        assert!(csv.contains(&format!("# {k}={v}\n")), "{k}");
    }
    let mut v = SweepView::new(vec![100, 1024], vec![0, 1000], js(&p)).unwrap();
    let pt = worker::sweep_point(js(&p), 100, 0, 1).unwrap();
    v.set_point(pt).unwrap();
    assert_eq!(v.done(), 1);
    let csv = v.to_csv(js(&p)).unwrap();
    assert!(csv.contains("# lru_scan_depth=128\n"));
    assert!(csv.contains("\n100,0,"));
    assert!(v.kept()[0].is_finite());
}

/// The write-path section's drawings: a short write run, instance 0's cells with dirty pages,
/// the doublewrite chart, and the trade-off with one point.
#[wasm_bindgen_test]
fn write_path_run_and_drawings() {
    use midpoint::ui::write::{WriteRun, W_DIRTY};
    use midpoint::web::write::{WriteRunner, WriteView};
    let mut r = WriteRun::build("seed001-16thd-dblwr16", 312, 16).unwrap();
    let mut frac = 0.0;
    while frac < 1.0 {
        frac = r.run_slice(200_000).unwrap();
    }
    let s = r.summary();
    assert!(s.dblwr_writes_per_s > 0.0 && s.tps > 0.0);
    assert!(!s.writes.is_empty() && s.writes.iter().all(|w| w.1 >= 1 && w.1 <= 16));
    let cells = r.cells().to_vec();
    assert_eq!(cells.len(), s.frames as usize * s.moments.len());
    assert!(cells.iter().any(|&b| b & 3 == W_DIRTY));
    assert!(WriteRunner::new("small-demo", 312, 16).is_err());

    let mut v = WriteView::new();
    v.set_run(serde_wasm_bindgen::to_value(&s).unwrap(), cells)
        .unwrap();
    let (c, ctx) = canvas(400, 300);
    let h = v.draw_pool(&c, &ctx, 1_000, 400, 300, 1.0, false).unwrap();
    assert!(h <= 300 && inked(&pixels(&c, &ctx)) > 1_000);
    let (c2, ctx2) = canvas(500, 280);
    v.draw_dblwr(&c2, 1.0, 3, false).unwrap();
    assert!(inked(&pixels(&c2, &ctx2)) > 1_000);
    let (c3, ctx3) = canvas(500, 280);
    v.draw_depth(&c3, 1.0, 128, true).unwrap();
    let empty = pixels(&c3, &ctx3);
    // One real trade-off point, as the worker computes it.
    let p = midpoint::web::write::write_depth_point(128).unwrap();
    v.set_depth_point(p).unwrap();
    assert_eq!(v.depth_done(), 1);
    v.draw_depth(&c3, 1.0, 128, true).unwrap();
    assert!(changed(&empty, &pixels(&c3, &ctx3)) > 50);
}

/// The boundary close-up and the code panel reach JavaScript: a laid-out strip with cells in
/// WASM memory, its meta as an object, the routines and the live variables.
#[wasm_bindgen_test]
fn the_close_up_and_the_code_panel_reach_javascript() {
    let mut ex = Explorer::new(js(&small())).unwrap();
    let h = ex.strip_resize(600.0, 300.0);
    assert!(h > 0.0 && h <= 300.0, "{h}");
    ex.strip_update(0.0);
    let n = ex.strip_len();
    assert!(n > 0 && n % Explorer::strip_stride() == 0, "{n}");
    assert!(!ex.strip_ptr().is_null());
    let meta = ex.strip_meta().unwrap();
    assert!(get(&meta, "layout").is_object());
    let routines = js_sys::Array::from(&midpoint::web::explorer::code_routines().unwrap());
    assert_eq!(routines.length(), 4);
    let c = ex.code_state().unwrap();
    assert!(js_sys::Array::from(&get(&c, "vars")).length() >= 5);
    let at = get(&c, "at");
    assert!(at.is_null() || at.is_undefined(), "no event yet");
    // Samples and page-cleaner rounds run no listed line; a lookup does.
    let ran = (0..1000).any(|_| {
        ex.step();
        get(&ex.code_state().unwrap(), "at").is_object()
    });
    assert!(ran, "some event ran a listed line");
}
