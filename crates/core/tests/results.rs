//! Pins every preset's results, so that a refactor of the simulation can prove it changed none,
//! and a change made on purpose says which preset and which figure it moved.
//!
//! Each read-only preset (`scenario::presets()`) and each write preset
//! (`scenario::write::presets()`) is run once at full size; its report, serialised to JSON
//! without the parameter echo (`parameters`, whose shape may change), is a named snapshot in
//! `tests/snapshots/results__<preset>.snap`: every figure as it is (kept, rates, counters, each
//! number exactly as `serde_json` writes it back), and each long list (the time series, the LRU
//! batches) as its length and an FNV-1a/64 digest of its JSON, so the whole report is covered and
//! the file stays readable.
//!
//! A failure names every preset that moved, with a diff of its figures. To accept a change made
//! on purpose, in one command (then commit the `.snap` files with a message that says why):
//!
//! ```text
//! INSTA_UPDATE=always cargo test -p midpoint-core --release --test results
//! ```
//!
//! (or `cargo insta review`, with cargo-insta installed). Cost: the 36 read-only presets at full
//! size take about 95 s of one core in the test profile (opt-level 2); the 11 write presets about
//! 10 s.

use midpoint_core::scenario;
use serde_json::{json, Value};

/// Lists longer than this are pinned by their length and digest rather than written out.
const LONGEST_WRITTEN: usize = 8;

fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The report as its snapshot holds it: long lists folded to `{len, fnv1a64}`.
fn readable(v: Value) -> Value {
    match v {
        Value::Array(items) if items.len() > LONGEST_WRITTEN => {
            let text = serde_json::to_string(&items).unwrap();
            json!({ "len": items.len(), "fnv1a64": format!("{:016x}", fnv1a64(text.as_bytes())) })
        }
        Value::Array(items) => Value::Array(items.into_iter().map(readable).collect()),
        Value::Object(m) => Value::Object(m.into_iter().map(|(k, x)| (k, readable(x))).collect()),
        x => x,
    }
}

/// The report's snapshot, without the parameter echo.
fn snapshot_of(report: Value) -> Value {
    let mut v = report;
    v.as_object_mut()
        .expect("a report serialises to an object")
        .remove("parameters")
        .expect("the report echoes its parameters");
    readable(v)
}

/// Checks each preset's snapshot, all of them before failing, and names those that moved.
fn check(kind: &str, got: Vec<(String, Value)>) {
    assert!(!got.is_empty(), "no {kind} presets");
    let mut moved = Vec::new();
    for (name, v) in got {
        let r = std::panic::catch_unwind(|| {
            insta::with_settings!({ prepend_module_to_snapshot => true, omit_expression => true }, {
                insta::assert_json_snapshot!(name.as_str(), v);
            });
        });
        if r.is_err() {
            moved.push(name);
        }
    }
    assert!(
        moved.is_empty(),
        "{kind} presets whose results moved (diffs above; accept a deliberate change with INSTA_UPDATE=always): {moved:?}"
    );
}

#[test]
fn read_only_presets_results_are_pinned() {
    let got = scenario::presets()
        .into_iter()
        .map(|p| {
            let r = midpoint_core::sim::run(&p.params).expect("valid preset");
            (p.name, snapshot_of(serde_json::to_value(&r).unwrap()))
        })
        .collect();
    check("read-only", got);
}

#[test]
fn write_presets_results_are_pinned() {
    let got = scenario::write::presets()
        .into_iter()
        .map(|p| {
            let r = midpoint_core::sim::run_write(&p.params).expect("valid preset");
            (p.name, snapshot_of(serde_json::to_value(&r).unwrap()))
        })
        .collect();
    check("write", got);
}

/// The folding keeps what it folds: a list's change shows in its digest, a figure's in itself.
#[test]
fn the_snapshot_sees_a_change_anywhere() {
    let report = |x: f64, last: u64| json!({ "parameters": {}, "kept": x, "samples": (0..20u64).map(|i| if i == 19 { last } else { i }).collect::<Vec<_>>() });
    let a = snapshot_of(report(0.5, 19));
    assert_eq!(a["kept"], json!(0.5));
    assert_eq!(a["samples"]["len"], json!(20));
    assert_ne!(a, snapshot_of(report(0.5, 20)), "a list's last element");
    assert_ne!(
        a,
        snapshot_of(report(0.5000000000000001, 19)),
        "a figure's last bit"
    );
    assert_eq!(a, snapshot_of(report(0.5, 19)));
}
