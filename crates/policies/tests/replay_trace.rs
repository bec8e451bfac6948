//! Trace replay: random traces written as text, parsed, replayed with the validator after every
//! event, and compared with the pool driven directly.

use midpoint_policies::replay::{parse, replay_with};
use proptest::prelude::*;

fn trace_text(pages: u32, pct: u32, obt: u32, depth: u32, ops: &[(u8, u32, u32, u32)]) -> String {
    let mut s = format!(
        "# generated\npool pages={pages} old_blocks_pct={pct} old_blocks_time_ms={obt} lru_scan_depth={depth}\n"
    );
    let mut t = 1u64;
    for &(kind, space, page, dt) in ops {
        t += dt as u64;
        match kind % 8 {
            0..=3 => s.push_str(&format!("{t} get {space} {page}\n")),
            4 | 5 => s.push_str(&format!("{t} scan {space} {page}\n")),
            6 => s.push_str(&format!("{t} create {space} {page}\n")),
            _ => s.push_str(&format!("{t} lru_batch\n")),
        }
    }
    s
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
    #[test]
    fn replayed_traces_keep_every_invariant(
        pages in prop_oneof![1u32..50, 480u32..560, 600u32..1500],
        pct in 5u32..=95,
        obt in prop_oneof![Just(0u32), Just(1000u32)],
        depth in 100u32..400,
        ops in prop::collection::vec((any::<u8>(), 0u32..3, 0u32..2500, 0u32..400), 1..1500),
    ) {
        let text = trace_text(pages, pct, obt, depth, &ops);
        let trace = parse(&text).map_err(TestCaseError::fail)?;
        let r = replay_with(&trace, |pool, line| {
            pool.validate().map_err(|e| format!("after line {line}: {e}"))
        }).map_err(TestCaseError::fail)?;
        prop_assert_eq!(r.lru.len() as u32 + r.free, pages);
        prop_assert_eq!(r.lru.iter().filter(|e| e[2] == 1).count() as u32, r.old_len);
        prop_assert!(r.evictions <= r.freed_page_clock);
    }
}

#[test]
fn json_shape_is_the_documented_one() {
    let text = "pool pages=600 old_blocks_pct=37 old_blocks_time_ms=1000 lru_scan_depth=100\n1 get 5 1\n2 lru_batch\n";
    let r = replay_with(&parse(text).unwrap(), |_, _| Ok(())).unwrap();
    let v: serde_json::Value = serde_json::to_value(&r).unwrap();
    for k in [
        "lru",
        "free",
        "old_len",
        "freed_page_clock",
        "made_young",
        "not_made_young",
        "reads",
        "evictions",
    ] {
        assert!(v.get(k).is_some(), "missing {k}");
    }
    assert_eq!(v["lru"], serde_json::json!([[5, 1, 0]]));
    assert_eq!(v["free"], 599);
}

#[test]
fn csv_exports_carry_every_parameter() {
    use midpoint_core::scenario::Params;
    let p = Params {
        pool_mb: 16,
        hot_pages: 50,
        hot_table_pages: 100,
        scan_table_mb: 20,
        warmup_s: 2,
        scan_s: 3,
        kept_window_s: 2,
        ..Params::default()
    };
    let r = midpoint_core::sim::run(&p).unwrap();
    let csv = midpoint_core::metrics::samples_csv(&p, &r.samples);
    for (k, v) in p.to_pairs() {
        assert!(csv.contains(&format!("# {k}={v}\n")), "missing {k}");
    }
    let rows: Vec<&str> = csv.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(rows.len(), 1 + r.samples.len());
    assert!(rows[0].starts_with("t_s,hot_resident"));
    assert!(rows.iter().all(|l| l.split(',').count() == 18));
}
