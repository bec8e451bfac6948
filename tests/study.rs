//! The studies' inputs: the idle lookup rate as a parameter.

use midpoint_core::scenario::Params;
use midpoint_core::sim;

#[test]
fn idle_lookups_per_s_gives_that_rate_when_every_lookup_hits() {
    for rate in [1500.0, 5000.0, 12000.0] {
        let p = Params {
            pool_mb: 16,
            hot_pages: 100,
            hot_table_pages: 100,
            scan_table_mb: 1,
            warmup_s: 4,
            scan_s: 0,
            kept_window_s: 1,
            lookup_cpu_us: 999.0,
            idle_lookups_per_s: rate,
            ..Params::default()
        };
        let r = sim::run(&p).unwrap();
        // A 100-page hot set in a 16 MiB pool: a handful of first reads, then every lookup hits.
        let got = r.lookups_per_s_warmup;
        assert!((got - rate).abs() / rate < 0.02, "{rate}: {got}");
    }
    // Two threads on one CPU share it: the idle rate is the pool's, not each thread's.
    let p = Params {
        lookup_threads: 2,
        cpus: 1,
        idle_lookups_per_s: 4000.0,
        ..Params::default()
    };
    assert_eq!(
        midpoint_core::sim::rates::derived(&p)
            .unwrap()
            .lookup_cpu_us,
        250.0
    );
}

/// The page's scale curve draws committed data (`www/data/scale.json`, written by `midpoint
/// scale --seeds 2 --json`): its cheapest row, recomputed now (kept after every duration and the
/// onset included), must equal the file, so a change to the simulation cannot leave the figure
/// silently stale. Regenerate the file with the command in it when this fails.
#[test]
fn the_committed_scale_data_is_what_the_simulator_computes_now() {
    use midpoint::ui::beyond::{parse, ScaleData};
    use midpoint_lab::study::scale;
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/www/data/scale.json"))
        .unwrap();
    let file = parse::<ScaleData>("scale", &text).unwrap();
    assert!(
        file.command.starts_with("midpoint scale"),
        "{}",
        file.command
    );
    let sizes: Vec<u32> = file.data.rows.iter().map(|r| r.pool_mb).collect();
    assert_eq!(
        sizes,
        scale::DEFAULT_SIZES_MB,
        "the figure draws the default sizes"
    );
    let committed = &file.data.rows[0];
    let durations: Vec<u32> = committed.kept_by_scan_s.keys().copied().collect();
    assert_eq!(
        durations,
        scale::DEFAULT_DURATIONS_S,
        "the figure draws the default durations"
    );
    for r in &file.data.rows {
        assert_eq!(r.longest_scan_s, 1800);
        assert!(r.kept_by_scan_s.len() == durations.len(), "{}", r.pool_mb);
    }
    let plan = scale::plan("seed000-hot4485-b2b", &[committed.pool_mb], 16).unwrap();
    let now = scale::run_row(&plan[0], committed.seeds, &durations).unwrap();
    let json = |r: &scale::ScaleRow| serde_json::to_value(r).unwrap();
    assert_eq!(json(&now), json(committed));
}

/// The heat map draws committed data (`www/data/phase.json`): its first cell, recomputed now with
/// the file's seeds, must equal the file. Regenerate the file with the command in it when this
/// fails.
#[test]
fn the_committed_phase_data_is_what_the_simulator_computes_now() {
    use midpoint::ui::beyond::parse;
    use midpoint_core::scenario::preset;
    use midpoint_lab::study::phase::{self, PhaseMap};
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/www/data/phase.json"))
        .unwrap();
    let file = parse::<PhaseMap>("phase", &text).unwrap();
    let m = &file.data;
    let committed = &m.cells[0];
    let base = preset(&m.preset).unwrap().params;
    let p = phase::cell_params(&base, &m.x, committed.x, &m.y, committed.y).unwrap();
    let now = phase::run_cell(&p, committed.x, committed.y, m.seeds).unwrap();
    let json = |c: &phase::Cell| serde_json::to_value(c).unwrap();
    assert_eq!(json(&now), json(committed));
}

/// The side-by-side figure's menu shows committed what-if figures (`www/data/whatifs.json`): the
/// stock row, recomputed now, must equal the file.
#[test]
fn the_committed_what_if_data_is_what_the_simulator_computes_now() {
    use midpoint::ui::beyond::{parse, WhatIfData};
    use midpoint_core::scenario::{preset, WhatIfs};
    use midpoint_lab::study::whatif;
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/www/data/whatifs.json"
    ))
    .unwrap();
    let file = parse::<WhatIfData>("whatifs", &text).unwrap();
    let committed = file
        .data
        .read
        .iter()
        .find(|r| r.what_if == "none")
        .expect("a stock row");
    let base = preset(&committed.preset).unwrap().params;
    let now = whatif::read_row(&committed.preset, &base, WhatIfs::NONE, committed.seeds).unwrap();
    let json = |r: &whatif::ReadRow| serde_json::to_value(r).unwrap();
    assert_eq!(json(&now), json(committed));
}

/// The article's paragraph on big pools quotes `www/data/scale.json`: every `data-scale` span in
/// `www/index.html` ("kept POOL_MB SECONDS", "onset POOL_MB") must show the file's figure, at the
/// precision the span prints (kept as "N %" or "N.N %", the onset as the figure labels it).
#[test]
fn the_articles_big_pool_figures_are_the_committed_data() {
    use midpoint::ui::beyond::{parse, ScaleData};
    use midpoint_lab::study::charts::onset_label;
    let root = env!("CARGO_MANIFEST_DIR");
    let data = std::fs::read_to_string(format!("{root}/www/data/scale.json")).unwrap();
    let rows = parse::<ScaleData>("scale", &data).unwrap().data.rows;
    let html = std::fs::read_to_string(format!("{root}/www/index.html")).unwrap();
    let mut checked = 0;
    for piece in html.split("data-scale=\"").skip(1) {
        let (spec, rest) = piece.split_once('"').expect("a closed attribute");
        let shown = rest
            .split_once('>')
            .and_then(|(_, t)| t.split_once("</span>"))
            .map(|(t, _)| t.trim())
            .expect("a span with text");
        let words: Vec<&str> = spec.split_whitespace().collect();
        let row = |mb: &str| {
            let mb: u32 = mb.parse().expect("a pool size in MiB");
            rows.iter()
                .find(|r| r.pool_mb == mb)
                .unwrap_or_else(|| panic!("no {mb} MiB row in scale.json"))
        };
        match words.as_slice() {
            ["kept", mb, s] => {
                let s: u32 = s.parse().expect("seconds");
                let k = row(mb).kept_by_scan_s[&s] * 100.0;
                let num = shown.strip_suffix(" %").expect("kept as N %");
                let decimals = num.split_once('.').map_or(0, |(_, d)| d.len());
                assert_eq!(num, format!("{k:.decimals$}"), "{spec}: shows {shown}");
            }
            ["onset", mb] => {
                assert_eq!(shown, onset_label(row(mb)), "{spec}");
            }
            _ => panic!("data-scale=\"{spec}\": not a figure this test knows"),
        }
        checked += 1;
    }
    assert!(
        checked >= 6,
        "only {checked} data-scale figures in the article"
    );
}

/// One number per setting: every `data-cell` quote in `www/index.html` shows its cell's declared
/// ensemble (`ui::cells`: the stock default cell is `www/data/sweep.json`'s point at the preset's
/// own settings), its median and, where the quote gives one, its range.
#[test]
fn the_articles_cell_quotes_are_the_declared_ensembles() {
    use midpoint::ui::beyond::parse;
    use midpoint::ui::cells::{default_cell, DEFAULT_CELL};
    use midpoint::ui::charts::SweepData;
    let root = env!("CARGO_MANIFEST_DIR");
    let data = std::fs::read_to_string(format!("{root}/www/data/sweep.json")).unwrap();
    let cell = default_cell(&parse::<SweepData>("sweep", &data).unwrap().data).unwrap();
    let html = std::fs::read_to_string(format!("{root}/www/index.html")).unwrap();
    let mut checked = 0;
    for piece in html.split("data-cell=\"").skip(1) {
        let (name, rest) = piece.split_once('"').expect("a closed attribute");
        assert_eq!(name, DEFAULT_CELL, "a cell this test knows");
        let shown = rest
            .split_once('>')
            .and_then(|(_, t)| t.split_once("</span>"))
            .map(|(t, _)| t.split_whitespace().collect::<Vec<_>>().join(" "))
            .expect("a span with text");
        let (median, range) = match shown.split_once(" (") {
            Some((m, r)) => (m.to_string(), Some(r.trim_end_matches(')').to_string())),
            None => (shown.clone(), None),
        };
        assert_eq!(median, cell.pct, "data-cell=\"{name}\" shows {shown}");
        if let Some(r) = range {
            assert_eq!(r, cell.range, "data-cell=\"{name}\" shows {shown}");
        }
        checked += 1;
    }
    assert!(checked >= 1, "no data-cell quote in the article");
}
